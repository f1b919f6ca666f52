"""Every estimator of ``docnmf.methods.METHODS`` documents the fitted attributes it sets.

A fit sets public attributes ending in ``_``; the class's numpydoc "Attributes" section must
list exactly those. An entry whose description says it is set "only with/when/for" some
setting (or "(... only)"), or is "absent" under one, may be missing from a fit, but some fit
below must set it.
"""

from __future__ import annotations

import inspect
import re
import warnings
from collections import defaultdict

import numpy as np
import pytest
from sklearn.base import clone

from docnmf.methods import METHODS, make_estimator, options_for

#: Options that keep every fit small, given to each method that takes them.
_CHEAP = dict(n_init=2, max_iter=40, kmeans_n_init=2, init_rounds=5, joint_max_iter=5)

_TEXTS = [
    "The striker scored a goal. The keeper dived. A late goal won the match.",
    "Goals and goals. The keeper saved a penalty. Fans cheered the winning goal.",
    "The referee booked the striker. The keeper caught the cross. The match ended level.",
    "The bank raised rates. Bond yields rose. Inflation worried the markets.",
    "Rates fell as the bank cut them. Inflation slowed. Bond markets rallied.",
    "The central bank held rates. Yields and inflation were steady in the markets.",
]


def _counts() -> np.ndarray:
    """18 documents x 24 terms of counts, three planted blocks of terms."""
    rng = np.random.default_rng(0)
    X = rng.poisson(0.2, (18, 24)).astype(np.float64)
    for i in range(18):
        X[i, (i % 3) * 8:(i % 3 + 1) * 8] += rng.poisson(2.0, 8) + 1
    return X


def _attributes_section(cls) -> dict[str, str]:
    """The entries of ``cls``'s numpydoc "Attributes" section: name -> description."""
    lines = inspect.cleandoc(cls.__doc__ or "").splitlines()
    assert "Attributes" in lines, f"{cls.__name__} has no Attributes section"
    start = lines.index("Attributes")
    assert re.fullmatch(r"-+", lines[start + 1])
    entries, current = {}, []
    for j in range(start + 2, len(lines)):
        line = lines[j]
        if j + 1 < len(lines) and re.fullmatch(r"-{3,}", lines[j + 1]):
            break       # the next section's title
        if line and not line[0].isspace():
            # "name : type" or "name, name : type"; text in another layout is kept as it is,
            # and then matches no attribute
            current = [n.strip() for n in line.split(" : ")[0].rstrip(" :").split(",")]
            for name in current:
                entries[name] = ""
        elif current:
            for name in current:
                entries[name] += " " + line.strip()
    return entries


def _conditional(description: str) -> bool:
    """Whether an entry says it is set only under some condition (or absent under one)."""
    return re.search(r"\bonly (with|when|for)\b|\bonly\)|\babsent\b", description,
                     re.IGNORECASE) is not None


def _fitted(est) -> set[str]:
    """The names of ``est``'s public fitted attributes."""
    return {a for a in vars(est) if a.endswith("_") and not a.startswith("_")}


def _fit(name: str, extra: dict, data: str):
    est = make_estimator(name, 2, random_state=0, **options_for(name, **_CHEAP), **extra)
    return _fit_on(est, name, data)


def _fit_on(est, name: str, data: str):
    spec = METHODS[name]
    X = _counts()
    inputs = {"texts": _TEXTS, "gram": X @ X.T,
              "segments": [np.atleast_2d(row) for row in X[:6]]}
    fit_on = inputs.get(data, X)
    kwargs = dict(must_link=[(0, 3)], cannot_link=[(0, 1)]) if spec.constraints else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(fit_on, **kwargs)
    return est


#: Fits beyond each method's defaults that set (or leave out) other attributes.
_VARIANTS = [
    ("nmf", dict(labels="kmeans"), "counts"),              # cluster_centers_
    ("ssnmf-paper", dict(affinity="precomputed"), "gram"),  # no components_
    ("lccf", dict(kernel="precomputed"), "gram"),           # no components_
    ("nma", dict(overlapping=True, n_segments=2), "texts"),  # overlapping_labels_, ...
    ("nma", {}, "segments"),                                 # no segments_, vectorizer_
]


def _fits():
    for name, spec in METHODS.items():
        yield name, {}, "texts" if spec.input == "texts" else "counts"
    yield from _VARIANTS


def test_fitted_attributes_are_the_documented_ones():
    seen, problems = defaultdict(set), []
    for name, extra, data in _fits():
        est = _fit(name, extra, data)
        cls = type(est)
        documented = _attributes_section(cls)
        fitted = _fitted(est)
        required = {a for a, text in documented.items() if not _conditional(text)}
        seen[cls] |= fitted
        where = f"{name}{f' {extra}' if extra else ''} on {data} ({cls.__name__})"
        if fitted - documented.keys():
            problems.append(f"{where} sets undocumented {sorted(fitted - documented.keys())}")
        if required - fitted:
            problems.append(f"{where} leaves unset {sorted(required - fitted)}")
    for cls, fitted in seen.items():
        never = set(_attributes_section(cls)) - fitted
        if never:
            problems.append(f"{cls.__name__} documents {sorted(never)}, which no fit here set")
    assert not problems, "\n".join(problems)


#: Refits under other options (method, options, data, then options, data): the attributes
#: set only under the first options.
_REFITS = [
    ("nmf", dict(weighting="ncw", labels="kmeans"), "counts",
     dict(weighting="none", labels="argmax"), "counts"),
    ("ssnmf", {}, "counts", dict(factorization="similarity"), "counts"),
    ("ssnmf", {}, "counts", dict(factorization="ncw"), "counts"),
    ("ssnmf-ncw", {}, "counts", dict(factorization="similarity", affinity="precomputed"),
     "gram"),
    ("lccf", {}, "counts", dict(kernel="precomputed"), "gram"),
    ("nma", dict(overlapping=True, n_segments=2), "texts", dict(overlapping=False), "segments"),
]


@pytest.mark.parametrize("name, first, first_data, then, then_data", _REFITS)
def test_a_refit_keeps_no_attribute_of_an_earlier_fit(name, first, first_data, then,
                                                      then_data):
    """SS-NMF refitted with factorization="similarity" after the consensus kept the
    consensus's selected_, idf_, member_labels_ and cluster_centers_, and NMF refitted without
    NCW its ncw_column_sums_: a saved model carried them."""
    est = make_estimator(name, 2, random_state=0, **options_for(name, **_CHEAP))
    _fit_on(est.set_params(**first), name, first_data).set_params(**then)
    fresh = clone(est)
    assert _fitted(_fit_on(est, name, then_data)) == _fitted(_fit_on(fresh, name, then_data))


@pytest.mark.parametrize("description, conditional", [
    ("Only with ``overlapping=True``.", True),
    ("Fitted on the segments (text input only).", True),
    ("New documents go to the nearest. Absent for argmax labels.", True),
    ("Mean document of each cluster; the source of keywords.", False),
    ("Compare memberships of fitted and of placed documents only through their largest.", False),
])
def test_conditional_entries_are_recognised(description, conditional):
    assert _conditional(description) is conditional


@pytest.mark.slow
def test_dask_estimators_fitted_attributes_are_the_documented_ones():
    """NCW fits, which set every attribute these document (``ncw_column_sums_`` only then)."""
    distributed = pytest.importorskip("distributed")
    from docnmf.distributed import DaskCFClustering, DaskNMFClustering

    problems = []
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0", silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        for cls, rounds in ((DaskNMFClustering, {}), (DaskCFClustering, dict(init_rounds=2))):
            documented = _attributes_section(cls)
            est = cls(2, weighting="ncw", n_init=2, max_iter=5, random_state=0, client=client,
                      **rounds)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est.fit(_counts())
            fitted = {a for a in vars(est) if a.endswith("_") and not a.startswith("_")}
            if fitted - documented.keys():
                problems.append(f"{cls.__name__} sets undocumented "
                                f"{sorted(fitted - documented.keys())}")
            if documented.keys() - fitted:
                problems.append(f"{cls.__name__} documents {sorted(documented.keys() - fitted)}, "
                                "which an NCW fit did not set")
    assert not problems, "\n".join(problems)
