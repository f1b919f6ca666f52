"""The names the command line offers for its choices, in a module that imports nothing: its
parser (``--help``, ``--version``, a usage mistake) is built without loading the modules that
implement them, and with them scikit-learn, SciPy and pandas (2-3 s of CPU). Those modules
take their names from here, so that each list is written once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

__all__ = ["DEFAULT_ENTRIES", "DEFAULT_FALLBACK", "DEFAULT_METHOD", "METHOD_NAMES", "PEERS",
           "ROLES", "SUITE_ROLES", "SUMMARIZERS", "WEIGHTINGS", "in_order"]

#: The clustering methods by name (:data:`docnmf.methods.METHODS`), in the order they are
#: listed.
METHOD_NAMES: tuple[str, ...] = (
    "nmf", "nmf-ncw", "consensus", "km", "km-ncw", "aa", "nc", "lsi-km", "pca-km", "lda-km",
    "ecc", "msrc", "cf", "cf-ncw", "lccf", "lccf-ncw", "cf-paper", "cf-ncw-paper",
    "lccf-paper", "lccf-ncw-paper", "km-poly2", "km-ncw-poly2", "aa-poly2", "nc-poly2",
    "cf-poly2", "cf-ncw-poly2", "lccf-poly2", "lccf-ncw-poly2", "kernel-km", "fsnmf",
    "fsnmf-paper", "ssnmf", "ssnmf-ncw", "ssnmf-paper", "ss-kk", "ss-snc", "nma", "plsi", "lda",
)

#: What ``docnmf cluster`` runs when no ``--method`` is given. The consensus, chosen on the
#: suite's tuning half and confirmed on its held-back half, lost to scikit-learn's k-means on
#: a confirmation set declared afterwards; by the rule declared then, LCCF-NCW ranks first on
#: the 46 corpora read and above the consensus on a second set run after the rule was fixed
#: (``reports/benchmark-suite/confirm/DECISION.md``).
DEFAULT_METHOD = "lccf-ncw"
#: What ``docnmf cluster`` clusters with instead when its default method gives a degenerate
#: result (:func:`docnmf.diagnostics.degenerate`); chosen by the rule of
#: ``reports/benchmark-suite/degenerate-guard/DECISION.md``, written before its confirming draws.
DEFAULT_FALLBACK = "consensus"

#: The summarizers' sentence rankings by name (:data:`docnmf.summarize.rankers.RANKERS`).
SUMMARIZERS: tuple[str, ...] = ("fsnmf", "fsnmf-paper", "fsnmf-unit", "nmf", "lsa",
                                "lexpagerank", "centroid", "lead", "random")

#: The benchmark's peers: what each computes (:mod:`docnmf.experiments.benchmark`).
PEERS: dict[str, str] = {
    "sklearn-km": "scikit-learn TfidfVectorizer(sublinear_tf=True, stop_words='english', "
                  "min_df=2) + KMeans(n_init=10)",
    "sklearn-nmf": "scikit-learn NMF(init='nndsvda') on the same tf-idf, argmax labels",
    "sklearn-lda": "scikit-learn LatentDirichletAllocation on the term counts (min_df=2), "
                   "argmax labels",
    "spherical-km": "k-means (n_init=10) on the unit-length rows of docnmf's matrix",
}

#: What a suite run computes unless told otherwise.
DEFAULT_ENTRIES: tuple[str, ...] = ("default", "nmf", "nmf-ncw", "cf", "cf-ncw", "lccf",
                                    "lccf-ncw", "nma", *PEERS)

#: The evaluation suite's roles (:mod:`docnmf.experiments.suite`).
ROLES: tuple[str, ...] = ("tuning", "held_back", "confirm", "confirm2")
#: The two halves of the suite proper: "the whole suite" is these, not the confirmation sets.
SUITE_ROLES: tuple[str, ...] = ("tuning", "held_back")

#: Weighting name -> what it computes (shown in reports and ``--help``;
#: :mod:`docnmf.experiments.conditions`).
WEIGHTINGS: dict[str, str] = {
    "xu-subset": "tf * log(n / df), idf over the clustered subset, unit rows (Xu et al. 2003)",
    "cai-global": "(1 + log tf) * log(N / df), idf over the whole collection, unit rows "
                  "(Cai et al. 2011)",
    "cluster": "the text options of 'docnmf cluster' (pruning, tf, idf) applied to the clustered "
               "documents, unit rows",
}

V = TypeVar("V")


def in_order(table: Mapping[str, V], names: tuple[str, ...], what: str) -> dict[str, V]:
    """``table`` in the order of ``names``; an error at import when the two name different
    things (a name added to one list and not the other).

    Examples
    --------
    >>> in_order({"b": 2, "a": 1}, ("a", "b"), "letters")
    {'a': 1, 'b': 2}
    >>> in_order({"a": 1}, ("a", "b"), "letters")
    Traceback (most recent call last):
    ...
    RuntimeError: letters differ from docnmf._catalog's: missing b
    """
    missing, extra = [n for n in names if n not in table], [n for n in table if n not in names]
    if missing or extra:
        said = [f"missing {', '.join(missing)}"] * bool(missing) + \
               [f"not in the catalog {', '.join(extra)}"] * bool(extra)
        raise RuntimeError(f"{what} differ from docnmf._catalog's: {'; '.join(said)}")
    return {name: table[name] for name in names}
