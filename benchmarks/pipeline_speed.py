"""Time the steps before the fit on a named corpus, beside scikit-learn's TfidfVectorizer.

The steps are what ``docnmf cluster`` runs before it factorizes (see
:func:`docnmf.pipeline.vectorize_corpus`):

- ``read``: :func:`docnmf.load_dataset` (for 20 Newsgroups, 18,846 posts);
- ``vectorize``: :class:`docnmf.DocumentVectorizer` ``fit_transform``
  (tokens, stop words, Porter stems, document frequencies, tf-idf);
- ``feature names``: ``readable_feature_names`` on the same texts.

The reference is ``TfidfVectorizer(sublinear_tf=True, stop_words="english",
min_df=2)`` ``fit_transform`` on the same texts (no stemming), the
vectorizer of a typical scikit-learn clustering script. Each step reports the
best of ``--repeats`` runs, as wall time and CPU time (on a shared machine
the CPU time is the steadier of the two). Prints a markdown table; ``--json``
writes the numbers.

Usage::

    PYTHONPATH=src python benchmarks/pipeline_speed.py [20newsgroups] [--repeats 3] [--json F]
"""

from __future__ import annotations

import argparse
import json
import time

from sklearn.feature_extraction.text import TfidfVectorizer

from docnmf import DocumentVectorizer, load_dataset


def timed(fn, repeats: int):
    """``fn()``'s result and its best wall and CPU seconds over ``repeats`` runs."""
    best_wall = best_cpu = float("inf")
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        result = fn()
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    return result, best_wall, best_cpu


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", default="20newsgroups")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", help="write the timings here")
    args = parser.parse_args(argv)

    corpus, *read = timed(lambda: load_dataset(args.dataset), args.repeats)
    texts = corpus.texts
    vectorizer = DocumentVectorizer()
    X, *vectorize = timed(lambda: vectorizer.fit_transform(texts), args.repeats)
    _, *names = timed(lambda: vectorizer.readable_feature_names(texts), args.repeats)
    sklearn_vectorizer = TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=2)
    Y, *sklearn = timed(lambda: sklearn_vectorizer.fit_transform(texts), args.repeats)

    docnmf_total = [a + b + c for a, b, c in zip(read, vectorize, names)]
    rows = [("read", read), ("vectorize", vectorize), ("feature names", names),
            ("docnmf total", docnmf_total), ("scikit-learn TfidfVectorizer", sklearn)]
    print(f"{args.dataset}: {len(texts)} documents; docnmf {X.shape[1]} terms, "
          f"{X.nnz} non-zeros; scikit-learn {Y.shape[1]} terms, {Y.nnz} non-zeros\n")
    print("| step | wall s | CPU s |\n|---|---:|---:|")
    for label, (wall, cpu) in rows:
        print(f"| {label} | {wall:.2f} | {cpu:.2f} |")
    ratio = [d / s for d, s in zip(docnmf_total, sklearn)]
    print(f"\ndocnmf (read + vectorize + names) / TfidfVectorizer (vectorize only): "
          f"{ratio[0]:.2f} wall, {ratio[1]:.2f} CPU")
    result = {"dataset": args.dataset, "n_documents": len(texts),
              "seconds": {label: {"wall": wall, "cpu": cpu} for label, (wall, cpu) in rows},
              "ratio": {"wall": ratio[0], "cpu": ratio[1]}}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)
    return result


if __name__ == "__main__":
    main()
