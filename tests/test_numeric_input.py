"""Inputs the estimators cannot fit as given: repaired when that is neutral, refused otherwise,
never silent garbage (NaN objectives, everything in cluster 0, ArpackError)."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from docnmf import DocumentVectorizer, NMFClustering
from docnmf import _estimator
from docnmf._estimator import best_restart
from docnmf.methods import METHODS, make_estimator
from docnmf.metrics import clustering_accuracy, nmi, purity

MATRIX_METHODS = [name for name, spec in METHODS.items() if spec.input != "texts"]


def planted(seed=1):
    rng = np.random.default_rng(seed)
    # the background is sparse, as in term counts: no term is in every document (a term that
    # is has idf 0, and a matrix of only such terms is one the consensus refuses to cluster)
    X = 0.05 * rng.random((45, 30)) * (rng.random((45, 30)) < 0.5)
    y = np.repeat(np.arange(3), 15)
    for c in range(3):
        X[y == c, 10 * c:10 * (c + 1)] += rng.random((15, 10))
    return X, y


@pytest.mark.parametrize("scale", [1e300, 1e-170])
def test_nmf_on_an_extreme_scale_finds_the_clusters(scale):
    X, y = planted()
    with pytest.warns(UserWarning, match=r"X was multiplied by 2\*\*"):
        model = NMFClustering(3, random_state=0).fit(X * scale)
    assert np.isfinite(model.objective_)
    assert clustering_accuracy(y, model.labels_) == 1.0


@pytest.mark.parametrize("name", MATRIX_METHODS)
@pytest.mark.parametrize("scale", [1e300, 1e-170])
def test_every_method_repairs_or_refuses_an_extreme_scale(name, scale):
    X, y = planted()
    est = make_estimator(name, 3, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            labels = est.fit_predict(X * scale)
        except ValueError as exc:
            assert "divide X by its largest entry" in str(exc)
            assert not est._scale_free()
            return
    assert est._scale_free()
    # the labels of the same matrix brought into the range by hand, a power of two at a time
    reference = make_estimator(name, 3, random_state=0)
    exponent = int(np.frexp((X * scale).max())[1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = reference.fit_predict(np.ldexp(X * scale, -exponent))
    assert np.array_equal(labels, expected)


@pytest.mark.parametrize("name", MATRIX_METHODS)
@pytest.mark.parametrize("container", [np.asarray, sp.csr_matrix])
def test_all_zero_input_is_a_clear_error(name, container):
    est = make_estimator(name, 2, random_state=0)
    with pytest.raises(ValueError, match="X is all zero; there is nothing to cluster"):
        est.fit(container(np.zeros((12, 6))))


def test_ordinary_input_is_not_touched():
    X, _ = planted()
    low, high = _estimator.FIT_RANGE
    assert low <= X.max() <= high
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no rescaling warning
        NMFClustering(3, random_state=0).fit(X)


def test_a_nan_objective_never_wins_and_never_passes_silently():
    from types import SimpleNamespace as R

    best, _ = best_restart([R(losses=[np.nan], converged=True), R(losses=[2.0], converged=True)])
    assert best.losses == [2.0]
    with pytest.raises(ValueError, match="objective is nan in every restart"):
        best_restart([R(losses=[np.nan], converged=True)], name="NMF")


def test_vectorizer_refuses_missing_texts():
    with pytest.raises(ValueError, match="document 1 is float nan, not a string"):
        DocumentVectorizer(min_df=1).fit([ "a text", float("nan")])
    with pytest.raises(ValueError, match="document 0 is bytes"):
        DocumentVectorizer(min_df=1).fit([b"bytes"])
    # a number is no missing text: "give missing texts as ''" did not fit it
    with pytest.raises(ValueError, match=r"document 0 is int 123, not a string; give every "
                                         r"document as its text"):
        DocumentVectorizer(min_df=1).fit([123, "a text"])


@pytest.mark.parametrize("metric", [clustering_accuracy, nmi, purity])
def test_metrics_agree_that_no_documents_cannot_be_scored(metric):
    with pytest.raises(ValueError, match="no documents to score"):
        metric([], [])


@pytest.mark.parametrize("name", MATRIX_METHODS)
def test_a_matrix_with_duplicate_entries_is_left_as_given(name):
    """scipy sums a CSR matrix's duplicate entries in place on many operations: fitting NMF
    with the multiplicative updates, FS-NMF or LDA changed the caller's matrix."""
    X, _ = planted()
    A = sp.csr_matrix(X)
    # each entry as two halves, side by side: the same matrix, not in canonical form
    given = sp.csr_matrix((np.repeat(A.data / 2, 2), np.repeat(A.indices, 2), 2 * A.indptr),
                          shape=X.shape)
    data, indices = given.data.copy(), given.indices.copy()
    assert not given.has_canonical_format
    est = make_estimator(name, 3, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(given)
        if hasattr(est, "predict"):
            est.predict(given)
    assert np.array_equal(given.data, data) and np.array_equal(given.indices, indices)
