"""The p-nearest-neighbour cosine graph (Cai et al. 2011, eq. 8) against a brute-force dense one."""

import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp

from docnmf.factor.graph import (cosine_neighbours, graph_laplacian, kernel_neighbours,
                                 knn_cosine_graph, knn_kernel_graph)


def brute_force_graph(X, p):
    """Eq. 8 literally: S_js = cos(x_j, x_s) if x_j in N_p(x_s) or x_s in N_p(x_j), else 0."""
    n = X.shape[0]
    norms = np.linalg.norm(X, axis=1)
    C = (X @ X.T) / np.outer(norms, norms)
    neighbours = []
    for s in range(n):
        others = [j for j in range(n) if j != s]
        order = sorted(others, key=lambda j: -C[s, j])
        neighbours.append(set(order[:p]))
    S = np.zeros((n, n))
    for j in range(n):
        for s in range(n):
            if j != s and (j in neighbours[s] or s in neighbours[j]) and C[j, s] > 0:
                S[j, s] = C[j, s]
    return S


def random_documents(n=40, m=25, seed=0, density=0.4):
    rng = np.random.default_rng(seed)
    X = rng.random((n, m))
    X[rng.random((n, m)) > density] = 0.0
    X[:, 0] += 0.01  # no empty document; random weights make ties at the p-th place unlikely
    return X


@pytest.mark.parametrize("p", [1, 3, 5])
@pytest.mark.parametrize("block_size", [7, 512])
def test_matches_brute_force(container, p, block_size):
    X = random_documents(seed=p)
    S = knn_cosine_graph(container(X), p, block_size=block_size)
    assert S.format == "csr"
    np.testing.assert_allclose(S.toarray(), brute_force_graph(X, p), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("threads", [1, 2])
def test_blocks_shared_by_threads_give_the_brute_force_graph(threads):
    from docnmf.factor import graph, sparse

    X = random_documents(n=61, seed=4)
    seen = []
    real = sparse.ThreadPoolExecutor

    def counted(workers):
        seen.append(workers)
        return real(workers)

    with pytest.MonkeyPatch.context() as mp:      # the thread count, whatever the machine has
        mp.setattr(graph, "blas_threads", lambda: threads)
        mp.setattr(sparse, "ThreadPoolExecutor", counted)
        S = knn_cosine_graph(sp.csr_matrix(X), 3, block_size=8)
    assert seen == ([] if threads == 1 else [threads])
    np.testing.assert_allclose(S.toarray(), brute_force_graph(X, 3), rtol=1e-12, atol=1e-15)


def test_blocks_run_with_blas_on_one_thread():
    """The blocks share the cores as threads: a dense block's product starts no BLAS threads."""
    from threadpoolctl import threadpool_limits

    from docnmf.factor.graph import _blocked_top_p
    from docnmf.factor.sparse import blas_threads

    seen = []

    def block(start, stop):
        seen.append(blas_threads())
        return np.ones((stop - start, 4))

    with threadpool_limits(limits=2, user_api="blas"):
        _blocked_top_p(block, 10, 4, 2, 4, exclude_self=False)
    assert seen and set(seen) == {1}


def test_symmetric_non_negative_zero_diagonal_and_degrees():
    X = random_documents(60, 30, seed=3)
    S = knn_cosine_graph(sp.csr_matrix(X), 5).toarray()
    assert np.array_equal(S, S.T) and S.min() >= 0 and np.all(np.diag(S) == 0)
    # every document keeps at least its own p neighbours; the union can add more
    assert np.all((S > 0).sum(axis=1) >= 5)
    g = graph_laplacian(sp.csr_matrix(S))
    np.testing.assert_allclose(g.degrees, S.sum(axis=1))
    np.testing.assert_allclose(g.L.toarray(), np.diag(S.sum(axis=1)) - S)
    np.testing.assert_allclose(g.L @ np.ones(60), 0.0, atol=1e-12)


def test_kernel_graph_equals_document_graph_for_linear_kernel():
    X = random_documents(50, 20, seed=4)
    np.testing.assert_allclose(knn_kernel_graph(X @ X.T, 4).toarray(),
                               knn_cosine_graph(X, 4).toarray(), rtol=1e-12)


def test_new_document_neighbours():
    X = random_documents(30, 15, seed=5)
    new = random_documents(6, 15, seed=6)
    S_new = cosine_neighbours(sp.csr_matrix(new), sp.csr_matrix(X), 3).toarray()
    C = (new @ X.T) / np.outer(np.linalg.norm(new, axis=1), np.linalg.norm(X, axis=1))
    for i in range(6):
        top = np.argsort(-C[i])[:3]
        expected = np.zeros(30)
        expected[top] = C[i, top]
        np.testing.assert_allclose(S_new[i], expected, rtol=1e-12)
    from_kernel = kernel_neighbours(new @ X.T, (new * new).sum(1), (X * X).sum(1), 3)
    np.testing.assert_allclose(from_kernel.toarray(), S_new, rtol=1e-12)


def test_empty_documents_have_no_edges():
    X = random_documents(20, 10, seed=7)
    X[4] = 0.0
    S = knn_cosine_graph(X, 3).toarray()
    assert not S[4].any() and not S[:, 4].any()


def test_no_dense_similarity_is_formed():
    """Peak memory grows with block_size * n, far below one n x n array of floats."""
    rng = np.random.default_rng(0)
    n = 3000
    X = sp.random(n, 2000, density=0.005, random_state=1, format="csr") \
        + sp.csr_matrix((np.ones(n), (np.arange(n), rng.integers(0, 2000, n))), shape=(n, 2000))
    tracemalloc.start()
    S = knn_cosine_graph(X, 5, block_size=32)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert S.shape == (n, n)
    assert peak < 0.1 * n * n * 8


def test_bad_p():
    with pytest.raises(ValueError, match="positive integer"):
        knn_cosine_graph(np.eye(3), 0)


@pytest.mark.parametrize("seed", range(3))
def test_knn_graph_is_scikit_learns_where_there_are_no_ties(seed):
    """The same graph as kneighbors_graph(metric="cosine"), symmetrised as eq. 8 asks.

    Ours is kept for what scikit-learn's does not do the same way: ties at the p-th place
    (duplicate documents are common in news corpora) and blocks of rows for large n.
    """
    from sklearn.neighbors import kneighbors_graph

    X = np.random.default_rng(seed).random((80, 30)) ** 3
    distances = kneighbors_graph(X, 5, mode="distance", metric="cosine", include_self=False)
    theirs = distances.copy()
    theirs.data = 1.0 - theirs.data
    theirs = theirs.maximum(theirs.T).toarray()
    ours = knn_cosine_graph(sp.csr_matrix(X), p=5).toarray()
    np.testing.assert_array_equal(ours > 0, theirs > 0)
    np.testing.assert_allclose(ours, theirs, atol=1e-12)


def obvious_top_p(A, B, p, skip_offset):
    """Each row of A B^T (dense, from the definition), its entries ordered by value, largest
    first, at equal values by column, the positive ones, without column i + skip_offset; and
    the rows where one left out equals the p-th kept."""
    P = A @ B.T
    found, tied = [], []
    for i in range(P.shape[0]):
        order = sorted(range(P.shape[1]), key=lambda j: (-P[i, j], j))
        kept = [j for j in order if P[i, j] > 0 and (skip_offset is None or j != i + skip_offset)]
        found.append([(j, P[i, j]) for j in kept[:p]])
        if 0 < p < len(kept) and P[i, kept[p]] == P[i, kept[p - 1]]:
            tied.append(i)
    return found, tied


@pytest.mark.parametrize("values, index", [(np.float64, np.int32), (np.float64, np.int64),
                                           (np.float32, np.int32), (np.float32, np.int64)])
@pytest.mark.parametrize("p, skip_offset", [(1, None), (3, 0), (4, 2), (40, None), (0, 0)])
def test_compiled_top_p_is_the_obvious_one_ties_included(values, index, p, skip_offset):
    """Small integers: every product is exact, so ties are real ties (duplicate rows, equal
    counts) and entries are compared for equality, columns and values."""
    from docnmf.factor._kernels import top_p_blocks
    from docnmf.factor.sparse import thread_pool

    rng = np.random.default_rng(p)
    A = rng.integers(0, 3, (23, 9)) * (rng.random((23, 9)) < 0.4)
    A[5] = A[11] = A[17]                                     # duplicates tie everywhere
    B = np.vstack([A, rng.integers(0, 2, (7, 9))])           # more columns than rows
    B[-1] = 0                                                # a column with no entry
    expected, expected_tied = obvious_top_p(A, B, p, skip_offset)
    assert expected_tied or p in (0, 40)                     # the ties are there to be seen
    a = sp.csr_matrix(A, dtype=values)
    bt = sp.csr_matrix(B.T, dtype=values)
    for m in (a, bt):
        m.indptr, m.indices = m.indptr.astype(index), m.indices.astype(index)
    for blocks in ([(0, 23)], [(0, 1), (1, 10), (10, 10), (10, 23)]):
        with thread_pool(2) as pool:
            rows, cols, vals, tied = top_p_blocks(a, bt, p, skip_offset, blocks, pool)
        assert vals.dtype == values and rows.dtype == cols.dtype == np.int64
        assert tied.tolist() == expected_tied
        got = [[(int(j), float(v)) for j, v in zip(cols[rows == i], vals[rows == i])]
               for i in range(23)]
        assert got == [[(j, float(v)) for j, v in row] for row in expected]


def test_compiled_top_p_refuses_what_it_cannot_read():
    from docnmf.factor._kernels import top_p_blocks

    a = sp.csr_matrix(np.eye(3))
    with pytest.raises(ValueError, match="cover the 3 rows once"):
        top_p_blocks(a, a, 1, None, [(0, 2)])
    with pytest.raises(ValueError, match="cover the 3 rows once"):
        top_p_blocks(a, a, 1, None, [(0, 2), (1, 3)])
    with pytest.raises(ValueError, match="2 rows"):
        top_p_blocks(a, sp.csr_matrix(np.eye(2)), 1, None, [(0, 3)])
    with pytest.raises(ValueError, match="one value type"):
        top_p_blocks(a, sp.csr_matrix(np.eye(3), dtype=np.float32), 1, None, [(0, 3)])
    with pytest.raises(ValueError, match="non-negative"):
        top_p_blocks(a, a, -1, None, [(0, 3)])


def blocked_graph(X, p):
    """The graph as docnmf built it from sparse rows before the compiled kernel: blocks of
    scipy's sparse product, made dense, the p largest of each row by partition."""
    from docnmf.factor.graph import _blocked_top_p, _symmetrize, _unit_rows

    Xn = _unit_rows(sp.csr_matrix(X, dtype=np.float64))
    XnT = Xn.T.tocsr()
    return _symmetrize(_blocked_top_p(lambda start, stop: (Xn[start:stop] @ XnT).toarray(),
                                      Xn.shape[0], Xn.shape[0], p, 16, exclude_self=True))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("p", [1, 4])
def test_the_compiled_graph_is_the_blocked_one_entry_for_entry_ties_included(seed, p):
    """Copies of documents and documents of one word tie at the p-th place all over; the
    rows with a tie are chosen as the blocks chose them, so the graph (and LCCF's results)
    do not depend on the way it was built."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, (90, 12)) * (rng.random((90, 12)) < 0.3)
    X[rng.integers(0, 90, 30)] = X[rng.integers(0, 90, 30)]        # copies
    X[:10] = np.eye(12)[rng.integers(0, 12, 10)]                     # one word each
    ours, theirs = knn_cosine_graph(sp.csr_matrix(X), p), blocked_graph(X, p)
    assert (ours != theirs).nnz == 0
    np.testing.assert_array_equal(ours.toarray(), theirs.toarray())
    new = sp.csr_matrix(X[::3])
    from docnmf.factor.graph import _blocked_top_p, _unit_rows

    An, Bn = _unit_rows(new.astype(np.float64)), _unit_rows(sp.csr_matrix(X, dtype=np.float64))
    expected = _blocked_top_p(lambda start, stop: (An[start:stop] @ Bn.T.tocsr()).toarray(),
                              An.shape[0], Bn.shape[0], p, 16, exclude_self=False)
    np.testing.assert_array_equal(cosine_neighbours(new, sp.csr_matrix(X), p).toarray(),
                                  expected.toarray())


def test_an_interrupted_wait_drops_the_blocks_not_started_and_waits_for_those_running():
    """Ctrl-C during the nearest-neighbour search of 94,000 documents took 35-66 s to act (every
    block queued ran first), and a second one ended the process with the kernels still writing
    into its arrays (a segmentation fault)."""
    import _thread
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    from docnmf.factor._kernels import run_blocks

    started, ended = [], []

    def task(b, start, stop):
        started.append(b)
        time.sleep(0.1)
        ended.append(b)

    timer = threading.Timer(0.25, _thread.interrupt_main)
    with ThreadPoolExecutor(2) as pool:
        timer.start()
        try:
            run_blocks(task, [(i, i + 1) for i in range(40)], pool)
        except KeyboardInterrupt:
            running_when_raised = len(started) - len(ended)
        else:
            raise AssertionError("the interruption was lost")
        finally:
            timer.cancel()
    assert running_when_raised == 0 and len(started) < 40


def test_the_neighbour_search_says_how_far_it_is(monkeypatch, caplog):
    """230 s went by without a word on 94,000 documents."""
    import logging

    from docnmf import LCCFClustering
    from docnmf.cluster import lccf

    monkeypatch.setattr(lccf, "PROGRESS_SECONDS", 0.0)
    rng = np.random.default_rng(0)
    X = sp.random(300, 80, density=0.1, random_state=1, format="csr")
    with caplog.at_level(logging.INFO, logger="docnmf"):
        LCCFClustering(3, n_init=1, max_iter=5, verbose=1, random_state=rng.integers(9)).fit(X)
    said = [r.getMessage() for r in caplog.records if "nearest neighbours" in r.getMessage()]
    assert said and said[0].startswith("LCCF: nearest neighbours of 64 of 300 documents")
