"""How the newswire sentence splitter's time grows with a paragraph's length.

``docnmf summarize`` splits documents into sentences by the ``"news"`` rules
(:func:`docnmf.text.sentences.split_sentences`). Books, transcripts and text
taken from PDF files often have no blank lines, so one paragraph can hold
thousands of sentences. This script splits the same generated sentences
written as one paragraph and as paragraphs of one sentence each (blank lines
between), for several counts, and prints the seconds of each and their ratio:
a ratio that stays near 1 as the count grows means time linear in the
paragraph's length.

Usage::

    python benchmarks/sentence_split.py [--counts 1000 4000 16000 64000]
"""

from __future__ import annotations

import argparse
import random
import time

from docnmf.text.sentences import split_sentences

WORDS = ["the", "bank", "raised", "its", "rate", "by", "a", "quarter", "point", "this", "year",
         "while", "bonds", "fell", "in", "the", "U.S.", "and", "Mr.", "Smith", "of", "Acme",
         "Corp.", "said", "so"]


def best_of(fn, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--counts", nargs="+", type=int, default=[1000, 4000, 16000, 64000])
    args = parser.parse_args(argv)
    rng = random.Random(0)
    print("| sentences | one paragraph s | one per paragraph s | ratio | sentences found |")
    print("|---:|---:|---:|---:|---:|")
    for n in args.counts:
        sentences = [" ".join(rng.choice(WORDS) for _ in range(14)).capitalize() + "."
                     for _ in range(n)]
        one, many = " ".join(sentences), "\n\n".join(sentences)
        found = len(split_sentences(one, rules="news"))
        a = best_of(lambda text=one: split_sentences(text, rules="news"))
        b = best_of(lambda text=many: split_sentences(text, rules="news"))
        print(f"| {n:,} | {a:.3f} | {b:.3f} | {a / b:.2f} | {found:,} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
