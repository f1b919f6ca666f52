"""Scale-out benchmark: generated corpora of 10^5 and 10^6 documents clustered through Dask.

For each size: a planted topic corpus (vocabulary ~50,000, ~100 words per
document, 20 topics) is written as JSON Lines partitions, then read and
vectorized (DaskVectorizer), started and fitted (DaskNMFClustering: the
default HALS solver, 3 random restarts side by side, k = 20) on a
LocalCluster of worker processes on this machine. Printed per size: wall
time per stage, time per iteration (rounds with all 3 restarts running),
peak resident memory of each worker (the kernel's high-water mark, reset
before each size), accuracy against the planted topics. With --in-memory,
the in-memory path (DocumentVectorizer + NMFClustering, the same
parameters) runs on the smallest size beside it, in this process, and its
ratio to the Dask path is printed. Results go to stdout as JSON and a
markdown table (and to --out).

    nice -n 19 python benchmarks/dask_scale.py --docs 100000 --in-memory
    nice -n 19 python benchmarks/dask_scale.py --docs 1000000
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np


def _reset_peak() -> int:
    """Reset this process's peak resident memory (Linux: write 5 to clear_refs)."""
    with open(f"/proc/{os.getpid()}/clear_refs", "w") as fh:
        fh.write("5")
    return os.getpid()


def _peak_bytes() -> int:
    with open(f"/proc/{os.getpid()}/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return -1


def _write_part(folder: str, n_docs: int, docs_per_file: int, model_args: dict, seed: int,
                index: int) -> str:
    from docnmf.corpus.synthetic import planted_topic_model, write_topic_corpus

    model = planted_topic_model(**model_args)
    return str(write_topic_corpus(folder, n_docs, model, docs_per_file=docs_per_file, seed=seed,
                                  files=[index])[0])


def _nnz(block) -> int:
    return block.nnz


def _texts(part) -> list[str]:
    return part.texts


def _labels(part) -> list[str]:
    return [labels[0] for labels in part.labels]


def generate(client, folder: Path, n_docs: int, args) -> float:
    """Write the corpus (partitions in parallel on the cluster) unless it is already there."""
    n_files = -(-n_docs // args.docs_per_file)
    done = folder / ".complete"   # hidden: not read as a document
    if done.exists() and done.read_text() == f"{n_docs} {args.seed}":
        return 0.0
    t0 = time.perf_counter()
    model_args = dict(n_topics=args.k, vocabulary_size=args.vocabulary,
                      mean_length=args.length, seed=args.seed)
    futures = client.map(_write_part, [str(folder)] * n_files, [n_docs] * n_files,
                         [args.docs_per_file] * n_files, [model_args] * n_files,
                         [args.seed] * n_files, list(range(n_files)), pure=False)
    client.gather(futures)
    done.write_text(f"{n_docs} {args.seed}")
    return time.perf_counter() - t0


def run_dask(client, folder: Path, args) -> dict:
    import dask
    import dask.bag

    from docnmf.distributed import DaskNMFClustering, DaskVectorizer, PartitionedCorpus
    from docnmf.metrics import clustering_accuracy

    client.run(_reset_peak)
    out: dict = {}
    t0 = time.perf_counter()
    corpus = PartitionedCorpus.from_path(folder)
    parts = client.compute(corpus.parts)
    truth = client.compute([dask.delayed(_labels)(p) for p in parts])
    vectorizer = DaskVectorizer(client=client)
    X = vectorizer.fit_transform(dask.bag.from_delayed(
        [dask.delayed(_texts)(p) for p in parts]))
    del parts
    out["read_vectorize_s"] = time.perf_counter() - t0
    out["n_docs"], out["n_terms"] = int(X.shape[0]), int(X.shape[1])
    out["partitions"] = int(X.numblocks[0])
    model = DaskNMFClustering(args.k, init="random", n_init=args.restarts,
                              max_iter=args.max_iter, random_state=args.seed, client=client,
                              verbose=1)
    t0 = time.perf_counter()
    model.fit(X)
    out["fit_s"] = time.perf_counter() - t0
    out["init_s"] = model.init_time_
    full = model.iteration_restarts_ == args.restarts
    times = model.iteration_times_
    out["iterations"] = int(len(times))
    out["iteration_s_all_restarts"] = float(np.median(times[full])) if full.any() else None
    out["iteration_s_mean"] = float(times.mean())
    out["nnz"] = int(sum(client.compute([dask.delayed(_nnz)(d) for d in X.to_delayed().ravel()],
                                        sync=True)))
    t0 = time.perf_counter()
    labels = model.labels_.compute()
    y = np.concatenate(client.gather(truth))
    out["accuracy"] = float(clustering_accuracy(y, labels))
    out["labels_s"] = time.perf_counter() - t0
    out["objective"] = model.objective_
    out["peak_worker_bytes"] = sorted(client.run(_peak_bytes).values())
    return out


def run_in_memory(folder: Path, args) -> dict:
    from docnmf.cluster.nmf import NMFClustering
    from docnmf.corpus.readers import read_jsonl
    from docnmf.metrics import clustering_accuracy
    from docnmf.text.vectorize import DocumentVectorizer

    out: dict = {}
    _reset_peak()
    t0 = time.perf_counter()
    texts, y = [], []
    for path in sorted(folder.glob("part-*.jsonl")):
        corpus = read_jsonl(path)
        texts += corpus.texts
        y += [labels[0] for labels in corpus.labels]
    X = DocumentVectorizer().fit_transform(texts)
    del texts
    out["read_vectorize_s"] = time.perf_counter() - t0
    model = NMFClustering(args.k, init="random", n_init=args.restarts, max_iter=args.max_iter,
                          random_state=args.seed)
    t0 = time.perf_counter()
    model.fit(X)
    out["fit_s"] = time.perf_counter() - t0
    out["accuracy"] = float(clustering_accuracy(y, model.labels_))
    out["objective"] = model.objective_
    out["n_iter"] = int(model.n_iter_)
    out["peak_bytes"] = _peak_bytes()
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--docs", type=int, nargs="+", default=[100_000, 1_000_000])
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--k", type=int, default=20)
    p.add_argument("--restarts", type=int, default=3)
    p.add_argument("--max-iter", type=int, default=500)
    p.add_argument("--vocabulary", type=int, default=50_000)
    p.add_argument("--length", type=float, default=100.0)
    p.add_argument("--docs-per-file", type=int, default=50_000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--folder", type=Path, default=Path("/tmp/docnmf-dask-scale"),
                   help="where the generated corpora are written (kept for reuse)")
    p.add_argument("--in-memory", action="store_true",
                   help="run the in-memory path on the smallest size too")
    p.add_argument("--out", type=Path, default=None, help="also write the JSON here")
    args = p.parse_args(argv)

    import logging

    from distributed import Client, LocalCluster

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                           dashboard_address=":0")
    client = Client(cluster)
    print(f"dashboard: {client.dashboard_link}", file=sys.stderr)
    results = {"workers": args.workers, "k": args.k, "restarts": args.restarts, "sizes": []}
    try:
        for n in sorted(args.docs):
            folder = args.folder / f"docs-{n}"
            folder.mkdir(parents=True, exist_ok=True)
            entry = {"n_docs": n, "generate_s": generate(client, folder, n, args)}
            entry["dask"] = run_dask(client, folder, args)
            entry["dask"]["total_s"] = entry["dask"]["read_vectorize_s"] + entry["dask"]["fit_s"]
            if args.in_memory and n == min(args.docs):
                entry["in_memory"] = run_in_memory(folder, args)
                entry["in_memory"]["total_s"] = (entry["in_memory"]["read_vectorize_s"]
                                                 + entry["in_memory"]["fit_s"])
                entry["dask_over_in_memory"] = {
                    s: entry["dask"][s] / entry["in_memory"][s]
                    for s in ("read_vectorize_s", "fit_s", "total_s")}
            results["sizes"].append(entry)
            print(json.dumps(entry, indent=1), file=sys.stderr)
    finally:
        client.close()
        cluster.close()
    sizes = results["sizes"]
    if len(sizes) > 1:
        a, b = sizes[0]["dask"], sizes[-1]["dask"]
        if a["iteration_s_all_restarts"] and b["iteration_s_all_restarts"]:
            results["iteration_time_per_nnz_ratio"] = (
                (b["iteration_s_all_restarts"] / b["nnz"]) / (a["iteration_s_all_restarts"] / a["nnz"]))
    text = json.dumps(results, indent=1)
    print(text)
    print("\n| documents | nnz | read+vectorize s | start s | fit s | iterations | s/iteration "
          "(3 restarts) | peak per worker GB | accuracy |")
    print("|---|---|---|---|---|---|---|---|---|")
    for e in sizes:
        d = e["dask"]
        print(f"| {e['n_docs']:,} (Dask) | {d['nnz']:,} | {d['read_vectorize_s']:.1f} | "
              f"{d['init_s']:.1f} | {d['fit_s']:.1f} | {d['iterations']} | "
              f"{d['iteration_s_all_restarts'] or float('nan'):.2f} | "
              f"{max(d['peak_worker_bytes']) / 2**30:.2f} | {d['accuracy']:.4f} |")
        if "in_memory" in e:
            m = e["in_memory"]
            print(f"| {e['n_docs']:,} (in memory) | | {m['read_vectorize_s']:.1f} | | "
                  f"{m['fit_s']:.1f} | {m['n_iter']} | | {m['peak_bytes'] / 2**30:.2f} "
                  f"(process) | {m['accuracy']:.4f} |")
    if args.out:
        args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
