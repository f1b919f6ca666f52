"""NMA solver (Wang, Tang & Liu 2011, Algorithm 1): monotone objectives and a reference sweep."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import nnls

from docnmf.factor.nma import (fit_nma, fold_in_cores, nma_loss, nma_random_init,
                               segment_topic_weights)


def _collection(n_docs=12, c=3, n_terms=20, seed=0, density=0.4):
    rng = np.random.default_rng(seed)
    X = rng.random((n_docs * c, n_terms)) * (rng.random((n_docs * c, n_terms)) < density)
    return X


def _non_increasing(values, rtol=1e-10):
    values = np.asarray(values)
    return bool(np.all(np.diff(values) <= rtol * max(values[0], 1.0)))


@pytest.mark.parametrize("l1,l2", [(4, 4), (4, 2), (2, 5)])
def test_every_stage_objective_never_increases(l1, l2):
    X = _collection(seed=1)
    rng = np.random.default_rng(2)
    res = fit_nma(X, 3, *nma_random_init(X, 3, l1, l2, rng), max_iter=60, tol=1e-9,
                  joint_max_iter=30)
    for stage in ("LB", "MR", "joint"):
        assert _non_increasing(res.stage_losses[stage]), stage
    # eq. 17 itself is what the joint stage minimises
    joint = res.losses[-len(res.stage_losses["joint"]) + 1:]
    assert _non_increasing(joint)
    np.testing.assert_allclose(res.losses[-1], nma_loss(X, 3, res.L, res.M, res.R), rtol=1e-10)
    assert res.M.shape == (12, l1, l2) and res.L.shape == (20, l1) and res.R.shape == (3, l2)
    assert np.all(res.L >= 0) and np.all(res.M >= 0) and np.all(res.R >= 0)
    np.testing.assert_allclose(res.L.sum(axis=0), 1.0)


def test_stage_two_is_exact_when_l2_covers_the_segments():
    """With l2 >= c, B_i = M_i R^T can be met exactly: SRE -> stage 1's error."""
    X = _collection(seed=3)
    res = fit_nma(X, 3, *nma_random_init(X, 3, 3, 3, np.random.default_rng(0)), max_iter=300,
                  tol=1e-10)
    assert res.stage_losses["MR"][-1] <= 1e-6 * res.stage_losses["MR"][0]
    np.testing.assert_allclose(res.losses[-1], res.stage_losses["LB"][-1], rtol=1e-4)


def test_sparse_equals_dense():
    X = _collection(seed=4)
    init = nma_random_init(X, 3, 3, 2, np.random.default_rng(1))
    a = fit_nma(X, 3, *init, max_iter=20, joint_max_iter=5)
    b = fit_nma(sp.csr_matrix(X), 3, *init, max_iter=20, joint_max_iter=5)
    np.testing.assert_allclose(a.losses, b.losses, rtol=1e-9)
    np.testing.assert_allclose(a.L, b.L, atol=1e-9)


def test_loss_is_the_sum_over_documents():
    X = _collection(n_docs=5, seed=5)
    rng = np.random.default_rng(6)
    L, R, M = rng.random((20, 3)), rng.random((3, 2)), rng.random((5, 3, 2))
    direct = sum(np.sum((X[3 * i:3 * i + 3].T - L @ M[i] @ R.T) ** 2) for i in range(5))
    np.testing.assert_allclose(nma_loss(X, 3, L, M, R), direct, rtol=1e-12)
    np.testing.assert_allclose(segment_topic_weights(M, R)[2], (M[2] @ R.T).T)


def test_rejects_rows_not_a_multiple_of_the_segments():
    X = _collection(n_docs=2)
    with pytest.raises(ValueError, match="multiple"):
        fit_nma(X[:5], 3, *nma_random_init(X, 3, 2, 2, np.random.default_rng(0)))


# --------------------------------------------------------------------------- reference sweep

def _reference_sweep(A, L0, R0):
    """One pass of each stage of Algorithm 1, written from the paper with scipy's NNLS.

    ``A`` is the list of term x segment matrices ``A_i``.
    """
    n = len(A)
    # eq. 5: every column of every B_i, with L fixed
    B = [np.column_stack([nnls(L0, Ai[:, l])[0] for l in range(Ai.shape[1])]) for Ai in A]
    # eqs. 7-12: M = sum B_i B_i^T, N = sum B_i A_i^T, M = V D V^T, then each row l_i of L
    # from min || D^1/2 V^T l_i^T - (D^-1/2 V^T N)_i ||, l_i >= 0
    Mg = sum(Bi @ Bi.T for Bi in B)
    N = sum(Bi @ Ai.T for Bi, Ai in zip(B, A))
    d, V = np.linalg.eigh(Mg)
    design = np.diag(np.sqrt(d)) @ V.T
    target = np.diag(1.0 / np.sqrt(d)) @ V.T @ N
    L = np.vstack([nnls(design, target[:, i])[0] for i in range(N.shape[1])])
    # eq. 13, first line: min || R M_i^T - B_i^T ||, column by column of M_i^T
    Ms = [np.column_stack([nnls(R0, Bi.T[:, j])[0] for j in range(Bi.shape[0])]).T for Bi in B]
    # eq. 13, second line: P = sum M_i^T M_i, Q = sum M_i^T B_i, rows of R from
    # min || P^1/2 R^T - P^-1/2 Q ||
    P = sum(Mi.T @ Mi for Mi in Ms)
    Q = sum(Mi.T @ Bi for Mi, Bi in zip(Ms, B))
    p, W = np.linalg.eigh(P)
    design = W @ np.diag(np.sqrt(p)) @ W.T
    target = W @ np.diag(1.0 / np.sqrt(p)) @ W.T @ Q
    R = np.vstack([nnls(design, target[:, j])[0] for j in range(Q.shape[1])])
    return L, np.stack(Ms), R, n


def test_one_sweep_matches_the_dense_reference():
    rng = np.random.default_rng(7)
    n, c, n_terms, l1, l2 = 6, 3, 15, 2, 2
    X = rng.random((n * c, n_terms))
    L0, R0 = rng.random((n_terms, l1)), rng.random((c, l2))
    A = [X[i * c:(i + 1) * c].T for i in range(n)]
    L_ref, M_ref, R_ref, _ = _reference_sweep(A, L0, R0)

    res = fit_nma(X, c, L0, R0, max_iter=1)
    assert res.n_iter[:2] == (1, 1)
    # the solver returns L and R with unit column sums and the scale moved into M
    np.testing.assert_allclose(res.L, L_ref / L_ref.sum(axis=0), rtol=1e-7, atol=1e-10)
    np.testing.assert_allclose(res.R, R_ref / R_ref.sum(axis=0), rtol=1e-7, atol=1e-10)
    for i in range(n):
        np.testing.assert_allclose(res.L @ res.M[i] @ res.R.T, L_ref @ M_ref[i] @ R_ref.T,
                                   rtol=1e-7, atol=1e-10)


def test_fold_in_cores_matches_the_paper_steps_with_fixed_bases():
    """New documents: B_i by eq. 5 given L, then M_i by eq. 13 given R (scipy's NNLS, written
    out per column), or M_i minimising eq. 17 over the Kronecker design (joint)."""
    rng = np.random.default_rng(11)
    c, n_terms, l1, l2 = 3, 12, 3, 2
    L, R = rng.random((n_terms, l1)), rng.random((c, l2))
    X = rng.random((4 * c, n_terms))
    X[X < 0.4] = 0.0
    X[-c:] = 0.0                                    # a new document with no terms at all
    A = [X[i * c:(i + 1) * c].T for i in range(4)]
    staged = fold_in_cores(sp.csr_matrix(X), c, L, R)
    joint = fold_in_cores(X, c, L, R, joint=True)
    for i, Ai in enumerate(A):
        B = np.column_stack([nnls(L, Ai[:, j])[0] for j in range(c)])
        M = np.column_stack([nnls(R, B.T[:, a])[0] for a in range(l1)]).T
        np.testing.assert_allclose(staged[i], M, rtol=1e-8, atol=1e-10)
        vec = nnls(np.kron(R, L), Ai.ravel(order="F"))[0]
        np.testing.assert_allclose(joint[i], vec.reshape((l1, l2), order="F"), rtol=1e-7,
                                   atol=1e-9)
    assert not staged[-1].any() and not joint[-1].any()
