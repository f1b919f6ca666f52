"""Minimum sum-squared residue co-clustering (ECC, MSRC): dense references, descent, recovery."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.utils.estimator_checks import parametrize_with_checks

from docnmf.baselines import CoClustering
from docnmf.baselines.coclustering import (
    _reassign,
    coclustering_mssr,
    residue_distances,
    sum_squared_residue,
)
from docnmf.methods import METHODS, make_estimator
from docnmf.metrics import clustering_accuracy

RESIDUES = ["I", "II"]


# --- slow references written from the paper's definitions ---------------------------------------


def reference_residues(A, rows, cols, residue):
    """The residue matrix H entry by entry: eq. 2.1 (type I) or eq. 2.2 (type II)."""
    m, n = A.shape
    H = np.empty_like(A)
    for i in range(m):
        I = np.flatnonzero(rows == rows[i])
        for j in range(n):
            J = np.flatnonzero(cols == cols[j])
            a_IJ = A[np.ix_(I, J)].mean()
            if residue == "I":
                H[i, j] = A[i, j] - a_IJ
            else:
                a_iJ = A[i, J].mean()
                a_Ij = A[I, j].mean()
                H[i, j] = A[i, j] - a_iJ - a_Ij + a_IJ
    return H


def scaled_indicator(labels, k):
    """R (or C) of eqs. 2.3-2.4: indicator columns scaled to unit length."""
    S = np.eye(k)[labels]
    return S / np.sqrt(S.sum(axis=0))


def reference_row_distances(A, rows, cols, k, residue):
    """Residue of row i against row cluster r's current statistics, column clusters fixed."""
    m, n = A.shape
    D = np.full((m, k), np.inf)
    for r in range(k):
        I = np.flatnonzero(rows == r)
        if not len(I):
            continue
        for i in range(m):
            total = 0.0
            for j in range(n):
                J = np.flatnonzero(cols == cols[j])
                a_rJ = A[np.ix_(I, J)].mean()
                if residue == "I":
                    h = A[i, j] - a_rJ
                else:
                    h = A[i, j] - A[i, J].mean() - A[I, j].mean() + a_rJ
                total += h * h
            D[i, r] = total
    return D


def noisy(m=24, n=15, seed=0):
    rng = np.random.default_rng(seed)
    A = rng.random((m, n))
    A[A < 0.4] = 0.0
    return A


def planted_blocks(m=90, n=60, k=3, l=4, seed=0, noise=0.05):
    """Constant blocks plus noise, rows and columns shuffled: type I's model."""
    rng = np.random.default_rng(seed)
    rows, cols = rng.permutation(np.arange(m) % k), rng.permutation(np.arange(n) % l)
    B = rng.random((k, l)) * 4.0
    return B[np.ix_(rows, cols)] + noise * rng.standard_normal((m, n)), rows, cols


def planted_additive(m=90, n=60, k=3, l=4, seed=0, noise=0.01):
    """a_ij = f(I(i), j) + g(i, J(j)) plus noise: zero type II residue for the planted partition."""
    rng = np.random.default_rng(seed)
    rows, cols = rng.permutation(np.arange(m) % k), rng.permutation(np.arange(n) % l)
    f = rng.random((k, n)) * 4.0
    g = rng.random((m, l)) * 4.0
    return f[rows] + g[:, cols] + noise * rng.standard_normal((m, n)), rows, cols


# --- the objective and the distances against the references --------------------------------------


@pytest.mark.parametrize("residue", RESIDUES)
def test_objective_matches_entrywise_residues(container, residue):
    A = noisy(seed=1)
    rng = np.random.default_rng(0)
    rows, cols = rng.integers(4, size=24), rng.integers(3, size=15)
    H = reference_residues(A, rows, cols, residue)
    expected = float(np.sum(H**2))
    assert sum_squared_residue(container(A), rows, cols, residue) == pytest.approx(expected,
                                                                                   rel=1e-10)
    # eqs. 2.3 and 2.4: H = A - R R^T A C C^T and H = (I - R R^T) A (I - C C^T)
    R, C = scaled_indicator(rows, 4), scaled_indicator(cols, 3)
    if residue == "I":
        H_matrix = A - R @ R.T @ A @ C @ C.T
    else:
        H_matrix = (np.eye(24) - R @ R.T) @ A @ (np.eye(15) - C @ C.T)
    np.testing.assert_allclose(H_matrix, H, atol=1e-12)


@pytest.mark.parametrize("residue", RESIDUES)
def test_row_distances_match_reference(container, residue):
    A = noisy(m=12, n=9, seed=2)
    rng = np.random.default_rng(1)
    rows, cols = rng.permutation(np.arange(12) % 4), rng.permutation(np.arange(9) % 3)
    rows[rows == 3] = 0  # leave row cluster 3 empty: infinitely far
    D = residue_distances(container(A), rows, cols, 4, 3, residue)
    np.testing.assert_allclose(D, reference_row_distances(A, rows, cols, 4, residue), rtol=1e-10,
                               atol=1e-12)
    assert np.all(np.isinf(D[:, 3]))
    # a row's residue in its own cluster is its share of ||H||^2
    H = reference_residues(A, rows, cols, residue)
    np.testing.assert_allclose(D[np.arange(12), rows], (H**2).sum(axis=1), atol=1e-12)
    # columns are rows of the transpose
    Dc = residue_distances(container(A.T), cols, rows, 3, 3, residue)
    np.testing.assert_allclose(Dc[np.arange(9), cols], (H**2).sum(axis=0), atol=1e-12)


def test_tiny_hand_computed_case():
    A = np.array([[1.0, 2.0], [3.0, 6.0]])
    # one block, mean 3: residues -2, -1, 0, 3
    assert sum_squared_residue(A, np.array([0, 0]), np.array([0, 0]), "I") == pytest.approx(14.0)
    # row means 1.5, 4.5; column means 2, 4; h = +-0.5 everywhere
    assert sum_squared_residue(A, np.array([0, 0]), np.array([0, 0]), "II") == pytest.approx(1.0)


# --- the algorithm --------------------------------------------------------------------------------


@pytest.mark.parametrize("residue", RESIDUES)
@pytest.mark.parametrize("init", ["k-means++", "random"])
def test_objective_never_increases(residue, init):
    A = sp.csr_matrix(noisy(m=80, n=50, seed=3))
    for seed in range(4):
        model = CoClustering(4, n_col_clusters=5, residue=residue, init=init, n_init=1,
                             random_state=seed).fit(A)
        h = model.loss_history_
        assert len(h) >= 3
        assert np.all(np.diff(h) <= 1e-10 * h[0]), h
        # the recorded objective is the residue of the returned co-clustering
        assert model.objective_ == pytest.approx(
            float(np.sum(reference_residues(A.toarray(), model.labels_, model.column_labels_,
                                            residue) ** 2)), rel=1e-9)


@pytest.mark.parametrize("residue", RESIDUES)
def test_best_restart_is_kept(residue):
    A = noisy(m=40, n=30, seed=4)
    model = CoClustering(3, residue=residue, n_init=5, random_state=0).fit(A)
    assert model.objective_ == pytest.approx(model.restart_objectives_.min())
    assert len(model.restart_objectives_) == 5


def test_planted_blocks_recovered_by_type_one(container):
    A, rows, cols = planted_blocks(seed=5)
    model = CoClustering(3, n_col_clusters=4, residue="I", random_state=0).fit(container(A))
    assert clustering_accuracy(rows, model.labels_) == 1.0
    assert clustering_accuracy(cols, model.column_labels_) == 1.0
    assert model.objective_ == pytest.approx(
        float(np.sum(reference_residues(A, rows, cols, "I") ** 2)), rel=1e-9)


def test_planted_additive_structure_recovered_by_type_two(container):
    A, rows, cols = planted_additive(seed=6)
    model = CoClustering(3, n_col_clusters=4, residue="II", random_state=0).fit(container(A))
    assert clustering_accuracy(rows, model.labels_) == 1.0
    assert clustering_accuracy(cols, model.column_labels_) == 1.0
    # type I cannot see this structure as well: its blocks are not constant
    ecc = CoClustering(3, n_col_clusters=4, residue="I", random_state=0).fit(A)
    assert sum_squared_residue(A, ecc.labels_, ecc.column_labels_, "II") > model.objective_


def test_planted_documents(planted, distance_memberships_check):
    """Topics on disjoint term blocks are type I's constant blocks (plus noise).

    Not type II's: once the term clusters are the topic blocks, removing each
    document's mean over a block leaves only noise, whatever the document clusters.
    """
    X, y = planted(150, 90, 3, seed=7)
    X = X / np.linalg.norm(X, axis=1, keepdims=True)
    model = make_estimator("ecc", 3, random_state=0).fit(sp.csr_matrix(X))
    assert clustering_accuracy(y, model.labels_) == 1.0
    # type I: a row's squared residue in row cluster r is sum_j (x_ij - mean of block (r, c(j)))^2
    blocks = np.array([[X[np.ix_(model.labels_ == r, model.column_labels_ == c)].mean()
                        if np.any(model.column_labels_ == c) else 0.0 for c in range(3)]
                       for r in range(3)])
    D = [[np.sum((x - blocks[r, model.column_labels_]) ** 2) for r in range(3)] for x in X]
    distance_memberships_check(model.memberships_, D, model.labels_)
    assert model.centroids_.shape == (3, 90)


@pytest.mark.parametrize("residue", RESIDUES)
def test_sparse_equals_dense(residue):
    A = noisy(m=60, n=40, seed=8)
    a = CoClustering(3, residue=residue, n_init=3, random_state=4).fit(A)
    b = CoClustering(3, residue=residue, n_init=3, random_state=4).fit(sp.csr_matrix(A))
    assert np.array_equal(a.labels_, b.labels_)
    assert np.array_equal(a.column_labels_, b.column_labels_)
    assert a.objective_ == pytest.approx(b.objective_, rel=1e-10)


def test_same_seed_same_result_and_clone():
    A = noisy(m=40, n=30, seed=9)
    a = CoClustering(3, residue="II", random_state=11).fit(A)
    b = clone(a).fit(A)
    assert np.array_equal(a.labels_, b.labels_)
    assert clone(a).get_params() == a.get_params()


def test_empty_clusters_are_reseeded():
    # every row prefers cluster 0: cluster 1 gets the row worst served by cluster 0
    D = np.array([[0.1, 5.0], [0.7, 9.0], [0.2, 3.0]])
    assert _reassign(D, np.array([0, 1, 0])).tolist() == [0, 1, 0]
    assert _reassign(D, np.array([1, 0, 0])).tolist() == [0, 1, 0]
    # as many clusters as rows or columns: no cluster ends empty
    A = noisy(m=8, n=6, seed=10)
    for residue in RESIDUES:
        res = coclustering_mssr(A, 8, 6, residue=residue, n_init=2, rng=0)
        assert sorted(res.row_labels.tolist()) == list(range(8))
        assert sorted(res.col_labels.tolist()) == list(range(6))
        assert res.objective == pytest.approx(0.0, abs=1e-12)


def test_column_clusters_default_and_cap():
    A = noisy(m=30, n=4, seed=11)
    assert CoClustering(3, random_state=0).fit(A).n_col_clusters_ == 3
    model = CoClustering(3, n_col_clusters=10, random_state=0).fit(A)
    assert model.n_col_clusters_ == 4 and model.column_labels_.shape == (4,)


def test_bad_parameters():
    A = noisy(m=20, n=10, seed=12)
    with pytest.raises(ValueError, match="residue"):
        CoClustering(2, residue="III").fit(A)
    with pytest.raises(ValueError, match="n_col_clusters"):
        CoClustering(2, n_col_clusters=0).fit(A)
    with pytest.raises(ValueError, match="init"):
        CoClustering(2, init="bogus").fit(A)
    with pytest.raises(ValueError, match="n_init"):
        CoClustering(2, n_init=0).fit(A)
    with pytest.raises(ValueError, match="max_iter"):
        CoClustering(2, max_iter=1.5).fit(A)
    with pytest.raises(ValueError, match="tol"):
        CoClustering(2, tol=-1.0).fit(A)
    with pytest.raises(ValueError, match="larger than"):
        CoClustering(21).fit(A)
    with pytest.raises(ValueError, match="n_clusters"):
        CoClustering(0).fit(A)
    with pytest.raises(ValueError, match="residue"):
        residue_distances(A, np.zeros(20, int), np.zeros(10, int), 1, 1, "III")
    with pytest.raises(ValueError, match="n_col_clusters"):
        coclustering_mssr(A, 2, 11)


def test_registry():
    assert make_estimator("ecc", 4).residue == "I"
    assert make_estimator("msrc", 4).residue == "II"
    assert METHODS["ecc"].input == METHODS["msrc"].input == "tfidf"
    assert make_estimator("msrc", 4, n_init=2, max_iter=7).max_iter == 7


@parametrize_with_checks([CoClustering(3, n_init=2, random_state=0),
                          CoClustering(3, residue="II", n_init=2, random_state=0)])
def test_sklearn_contract(estimator, check):
    check(estimator)
