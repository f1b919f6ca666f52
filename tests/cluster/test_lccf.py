"""LCCFClustering: planted recovery, NCW (Appendix B), kernels, new documents, contract."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.utils.estimator_checks import parametrize_with_checks

from docnmf._rng import as_generator
from docnmf.cluster import NMFClustering
from docnmf.cluster.lccf import LCCFClustering
from docnmf.corpus.demo import load_demo
from docnmf.factor.graph import knn_cosine_graph
from docnmf.metrics import clustering_accuracy
from docnmf.text.vectorize import DocumentVectorizer

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")


def _expected_failures(estimator):
    failures = {}
    if estimator.labels != "argmax":
        # fit_transform gives one-hot rows of the k-means labels of the jointly fitted V;
        # transform places documents with the fit held fixed (eqs. 29-30), and a document whose
        # out-of-sample V lands in another k-means cell gets another row. The two agree only
        # at a stationary point, which a finite run on random data does not reach.
        why = "transform's out-of-sample V (eqs. 29-30) can cross a k-means cell boundary"
        failures.update(check_transformer_data_not_an_array=why, check_transformer_general=why)
    elif estimator.init != "random":
        # transform places the documents with the fit held fixed (eqs. 29-30): the same V only
        # at a stationary point of eq. 10, which the updates approach slowly on the check's
        # data (from random starts too: 0.08 apart after 20,000 rounds on two blobs)
        why = "transform's out-of-sample V agrees with the fitted V only at a stationary point"
        failures.update(check_transformer_data_not_an_array=why, check_transformer_general=why)
    if estimator.weighting == "ncw":
        # this check feeds standardized (negative) blobs and ignores the positive_only tag
        failures["check_clustering"] = "NCW needs non-negative data; check ignores positive_only"
    elif estimator.max_iter < 1000:
        # on centred blobs the kernel has negative entries and the updates of Section 3.5 need
        # about a thousand rounds (ARI 0.94 then); the max_iter kept small here for speed is short
        failures["check_clustering"] = "centred data need ~1000 rounds of eqs. 25/28, not 30"
    return failures


# lam = 0.3 with k-means labels, and with argmax (the defaults before the evaluation suite),
# from random starts; and the defaults (from NMF's solution)
@parametrize_with_checks([LCCFClustering(3, lam=0.3, labels="kmeans", init="random", n_init=1,
                                         max_iter=30, random_state=0),
                          LCCFClustering(3, lam=0.3, weighting="ncw", labels="argmax",
                                         init="random", n_init=1, max_iter=300, random_state=0),
                          LCCFClustering(3, random_state=0)],
                         expected_failed_checks=_expected_failures)
def test_sklearn_contract(estimator, check):
    check(estimator)


VARIANTS = [dict(lam=0.0), dict(), dict(weighting="ncw"), dict(weighting="ncw", lam=0.0),
            dict(weighting="ncw", ncw_graph="appendix_b"), dict(kernel="poly2"),
            dict(labels="argmax"), dict(weighting="ncw", labels="argmax"),
            dict(lam_scale="none", lam=100.0, weighting="ncw")]


@pytest.mark.parametrize("params", VARIANTS,
                         ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()))
def test_recovers_planted_clusters(planted, container, params):
    X, y = planted(150, 90, 3, seed=7)
    model = LCCFClustering(3, n_init=3, random_state=0, **params).fit(container(X))
    assert clustering_accuracy(y, model.labels_) == 1.0
    assert model.embedding_.shape == model.memberships_.shape == (150, 3)
    np.testing.assert_allclose(model.memberships_.sum(axis=1), 1.0)
    assert model.embedding_.min() >= 0
    # keywords of each cluster come from its topic's block of terms
    blocks = np.array_split(np.arange(90), 3)
    for c, words in enumerate(model.top_keywords([f"t{j}" for j in range(90)], 5)):
        topic = np.bincount(y[model.labels_ == c]).argmax()
        assert {int(w[1:]) for w in words} <= set(blocks[topic])


def demo_matrix():
    corpus = load_demo()
    X = DocumentVectorizer().fit_transform(corpus.texts)
    return X, np.unique([label[0] for label in corpus.labels], return_inverse=True)[1]


@pytest.mark.parametrize("weighting", ["none", "ncw"])
def test_linear_kernel_without_forming_k_equals_precomputed(weighting):
    """The same fit, to rounding, from the sparse documents and from the formed Gram matrix."""
    X, y = demo_matrix()
    params = dict(n_clusters=5, weighting=weighting, init="random", n_init=2, max_iter=80,
                  random_state=3)
    a = LCCFClustering(**params).fit(X)
    b = LCCFClustering(kernel="precomputed", **params).fit((X @ X.T).toarray())
    np.testing.assert_allclose(a.graph_.toarray(), b.graph_.toarray(), rtol=1e-12)
    np.testing.assert_allclose(a.embedding_, b.embedding_, rtol=1e-7, atol=1e-12)
    np.testing.assert_allclose(a.loss_history_, b.loss_history_, rtol=1e-10)
    assert np.array_equal(a.labels_, b.labels_)
    assert clustering_accuracy(y, a.labels_) > 0.8


def test_sparse_equals_dense_and_same_seed(planted):
    X, _ = planted(60, 30, 3, seed=1)
    a = LCCFClustering(3, n_init=2, random_state=4).fit(X)
    b = LCCFClustering(3, n_init=2, random_state=4).fit(sp.csr_matrix(X))
    np.testing.assert_allclose(a.embedding_, b.embedding_, rtol=1e-9)
    c = clone(a).fit(X)
    assert np.array_equal(a.labels_, c.labels_)
    assert clone(a).get_params() == a.get_params()


def test_keeps_lowest_objective_restart(planted):
    X, _ = planted(80, 40, 4, seed=3)
    model = LCCFClustering(4, init="random", n_init=5, init_rounds=None, random_state=0).fit(X)
    assert len(model.restart_objectives_) == 5
    assert model.objective_ == pytest.approx(model.restart_objectives_.min())
    assert model.objective_ == model.loss_history_[-1]


@pytest.mark.parametrize("weighting", ["none", "ncw"])
def test_default_start_is_nmf_s_solution(planted, weighting):
    """The first objective is eq. 10 at NMF's solution on the weighted documents, written out
    densely: V0 = NMF's document factor, W0 its columns scaled to unit concept vectors X'^T w,
    zeros of both lifted to 1% of their column's mean."""
    X, _ = planted(90, 50, 3, seed=4)
    model = LCCFClustering(3, weighting=weighting, lam=0.0, random_state=0).fit(X)
    assert model.init_ == "nmf" and len(model.restart_objectives_) == 1
    seed = int(as_generator(0).integers(np.iinfo(np.int32).max))
    nmf = NMFClustering(3, weighting=weighting, random_state=seed).fit(X)
    V0 = nmf.embedding_
    # what the start ran is recorded: NMF's own restarts (one: its NNDSVDa start)
    np.testing.assert_array_equal(model.start_restart_objectives_, nmf.restart_objectives_)
    d = X @ (X.T @ np.ones(len(X)))
    Xw = X / np.sqrt(d)[:, None] if weighting == "ncw" else X
    W0 = V0 / np.linalg.norm(Xw.T @ V0, axis=0)
    V0, W0 = (np.where(F > 0, F, 0.01 * F.mean(axis=0)) for F in (V0, W0))
    assert np.mean(V0 == 0.01 * V0.mean(axis=0)) < 0.9    # the start is not all lifted zeros
    expected = np.sum((Xw - V0 @ (W0.T @ Xw)) ** 2)
    assert model.loss_history_[0] == pytest.approx(expected, rel=1e-9)
    assert model.objective_ <= model.loss_history_[0]


def test_nmf_start_only_where_nmf_applies(planted):
    X, _ = planted(40, 20, 2, seed=1)
    with pytest.raises(ValueError, match="init='nmf'"):
        LCCFClustering(2, init="nmf", kernel="poly2").fit(X)
    random = LCCFClustering(2, kernel="poly2", n_init=2, random_state=0).fit(X)
    assert random.init_ == "random" and random.start_restart_objectives_ is None
    # a refit from random starts forgets an earlier NMF start
    model = LCCFClustering(2, random_state=0).fit(X)
    assert model.start_restart_objectives_ is not None
    assert model.set_params(init="random").fit(X).start_restart_objectives_ is None
    with pytest.raises(ValueError, match="init must be one of"):
        LCCFClustering(2, init="svd").fit(X)


def test_a_precomputed_kernel_has_no_keywords_and_a_refit_on_one_forgets_the_terms(planted):
    X, _ = planted(40, 20, 2, seed=1)
    names = [f"t{j}" for j in range(20)]
    K = X @ X.T
    with pytest.raises(ValueError, match="fitted on a precomputed kernel has no term weights"):
        LCCFClustering(2, kernel="precomputed", random_state=0).fit(K).top_keywords(names)
    model = LCCFClustering(2, random_state=0).fit(X)
    assert len(model.top_keywords(names, 3)) == 2
    model.set_params(kernel="precomputed").fit(K[:30, :30])
    assert not hasattr(model, "components_")
    with pytest.raises(ValueError, match="no term weights"):
        model.top_keywords(names)


def test_more_neighbours_than_documents_are_named(planted):
    X, _ = planted(12, 20, 2, seed=1)
    with pytest.warns(UserWarning, match="n_neighbors=30 is more than the 11 other documents"):
        model = LCCFClustering(2, n_neighbors=30, n_init=1, random_state=0).fit(X)
    # the graph of 11 neighbours each: the same as asking for them
    fewer = LCCFClustering(2, n_neighbors=11, n_init=1, random_state=0).fit(X)
    assert (model.graph_ != fewer.graph_).nnz == 0


@pytest.mark.parametrize("lam", [None, "big", True, -1.0, float("inf"), float("nan")])
def test_a_bad_graph_weight_is_named(lam, planted):
    X, _ = planted(40, 20, 2, seed=1)
    with pytest.raises(ValueError, match="lam must be a non-negative number"):
        LCCFClustering(2, lam=lam).fit(X)


def test_init_rounds_continues_the_best_start(planted):
    """Every start runs init_rounds rounds; the lowest is continued from where it stopped."""
    X, _ = planted(80, 40, 4, seed=3)
    model = LCCFClustering(4, init="random", n_init=5, init_rounds=7, random_state=0).fit(X)
    assert len(model.restart_objectives_) == 5
    # the kept history starts with the chosen start's 7 rounds (8 values with the initial one)
    assert model.loss_history_[7] == pytest.approx(model.restart_objectives_.min(), rel=1e-12)
    assert model.n_iter_ == len(model.loss_history_) - 1 > 7
    assert model.objective_ == model.loss_history_[-1] <= model.restart_objectives_.min()
    # the same start run in one go gives the same history
    one = LCCFClustering(4, init="random", n_init=5, init_rounds=7, random_state=0).fit(X)
    np.testing.assert_array_equal(one.loss_history_, model.loss_history_)


@pytest.mark.parametrize("bad", [0, -1, 2.5, True])
def test_rejects_bad_init_rounds(bad):
    X = np.abs(np.random.default_rng(0).random((10, 6)))
    with pytest.raises(ValueError, match="init_rounds"):
        LCCFClustering(2, init_rounds=bad).fit(X)


def test_ncw_is_appendix_b(planted):
    """With Appendix B's graph the objective is the gamma-weighted eq. 10 in the original V."""
    X, _ = planted(50, 30, 2, seed=4)
    model = LCCFClustering(2, weighting="ncw", ncw_graph="appendix_b", lam=0.5, n_init=1,
                           max_iter=30, random_state=0).fit(X)
    d = X @ X.T @ np.ones(50)
    gamma = 1.0 / d
    # W' = Gamma^-1/2 W, V' = Gamma^1/2 V (Appendix B), with the factors as the updates left them
    W = model._W * np.sqrt(gamma)[:, None]
    V = model._V / np.sqrt(gamma)[:, None]
    S = model.graph_.toarray()
    L = np.diag(S.sum(axis=1)) - S
    R = X.T - X.T @ W @ V.T
    weighted = np.sum(gamma * np.sum(R * R, axis=0)) + model.lam_effective_ * np.trace(V.T @ L @ V)
    assert model.objective_ == pytest.approx(weighted, rel=1e-8)


def test_lambda_scales():
    X, _ = demo_matrix()
    S = knn_cosine_graph(X, 5)
    mean_degree = S.sum() / X.shape[0]
    paper = LCCFClustering(5, lam=100.0, lam_scale="none", n_init=1, max_iter=5).fit(X)
    assert paper.lam_effective_ == 100.0
    data = LCCFClustering(5, lam=0.5, n_init=1, max_iter=5).fit(X)
    assert data.lam_effective_ == pytest.approx(0.5 * X.shape[0] / mean_degree)   # tr K = n
    assert LCCFClustering(5, lam=0.0, n_init=1, max_iter=5).fit(X).lam_effective_ == 0.0


@pytest.mark.parametrize("params", [dict(), dict(weighting="ncw"), dict(kernel="poly2"),
                                    dict(labels="argmax", weighting="ncw",
                                         ncw_graph="appendix_b")],
                         ids=["lccf", "lccf-ncw", "poly2", "argmax-appendix-b"])
def test_new_documents_agree_with_a_refit(planted, params):
    """predict (eqs. 29-30, no refit) places held-out documents where a refit on all puts them."""
    X, y = planted(200, 90, 3, seed=9)
    model = LCCFClustering(3, random_state=0, **params).fit(sp.csr_matrix(X[:150]))
    pred = model.predict(sp.csr_matrix(X[150:]))
    refit = LCCFClustering(3, random_state=1, **params).fit(sp.csr_matrix(X))
    # name the refit's clusters by the fitted model's labels of the same training documents
    names = {c: np.bincount(model.labels_[refit.labels_[:150] == c]).argmax() for c in range(3)}
    refit_new = np.array([names[c] for c in refit.labels_[150:]])
    assert np.array_equal(pred, refit_new)
    truth = {c: np.bincount(y[:150][model.labels_ == c]).argmax() for c in range(3)}
    assert np.mean([truth[c] for c in pred] == y[150:]) == 1.0
    # new documents do not influence each other
    np.testing.assert_allclose(model.transform(X[150:160])[:5], model.transform(X[150:155]))


def test_a_callable_kernel_may_give_a_sparse_gram_matrix(planted):
    """kernel=lambda A, B: A @ B.T on sparse documents failed with 'setting an array element
    with a sequence'."""
    import scipy.sparse as sp
    from sklearn.metrics.pairwise import linear_kernel

    X, _ = planted(120, 60, 3, seed=2)
    X = sp.csr_matrix(X)
    linear = LCCFClustering(3, kernel=lambda A, B: (A @ B.T).toarray(),
                            random_state=0).fit(X[:100])
    for kernel in (lambda A, B: A @ B.T, lambda A, B: linear_kernel(A, B, dense_output=False)):
        model = LCCFClustering(3, kernel=kernel, random_state=0).fit(X[:100])
        np.testing.assert_allclose(model.embedding_, linear.embedding_, rtol=1e-8, atol=1e-12)
        np.testing.assert_array_equal(model.predict(X[100:]), linear.predict(X[100:]))


def test_precomputed_and_callable_kernels_place_new_documents(planted):
    X, y = planted(120, 60, 3, seed=2)
    poly = LCCFClustering(3, kernel="poly2", random_state=0).fit(X[:100])
    func = LCCFClustering(3, kernel=lambda A, B: np.asarray(A @ B.T) ** 2, random_state=0)
    func.fit(X[:100])
    np.testing.assert_allclose(poly.embedding_, func.embedding_, rtol=1e-9)
    expected = poly.predict(X[100:])
    assert np.array_equal(func.predict(X[100:]), expected)
    K, K_new = (X[:100] @ X[:100].T) ** 2, (X[100:] @ X[:100].T) ** 2
    diag = np.sum(X[100:] ** 2, axis=1) ** 2
    # a precomputed kernel has no documents: its graph uses cosines in the kernel's feature
    # space, so it equals the poly2 fit exactly only without the graph (CF)
    cf = LCCFClustering(3, kernel="poly2", lam=0.0, random_state=0).fit(X[:100])
    pre_cf = LCCFClustering(3, kernel="precomputed", lam=0.0, random_state=0).fit(K)
    np.testing.assert_allclose(cf.embedding_, pre_cf.embedding_, rtol=1e-9)
    np.testing.assert_allclose(cf.transform(X[100:]), pre_cf.transform(K_new, kernel_diag=diag),
                               rtol=1e-9)
    pre = LCCFClustering(3, kernel="precomputed", random_state=0).fit(K)
    assert clustering_accuracy(y[:100], pre.labels_) == 1.0
    truth = {c: np.bincount(y[:100][pre.labels_ == c]).argmax() for c in range(3)}
    assert np.mean([truth[c] for c in pre.predict(K_new, kernel_diag=diag)] == y[100:]) == 1.0
    with pytest.raises(ValueError, match="kernel_diag"):
        pre.predict(K_new)


@pytest.mark.parametrize("diag, message", [
    (lambda d: d[:2], "kernel_diag must hold one value per new document \\(4\\), got shape \\(2,\\)"),
    (lambda d: np.r_[d, 1.0], "one value per new document \\(4\\), got shape \\(5,\\)"),
    (lambda d: 5.0, "one value per new document \\(4\\), got shape \\(\\)"),
    (lambda d: np.r_[np.nan, d[1:]], "kernel_diag must be finite"),
    (lambda d: np.r_[np.inf, d[1:]], "kernel_diag must be finite"),
])
def test_a_precomputed_kernels_diagonal_for_new_documents_is_checked(planted, diag, message):
    # a short or long one stopped in numpy's broadcasting deep in the updates; a scalar was
    # broadcast to every document, and a NaN placed its document elsewhere, in silence
    X, _ = planted(30, 20, 3, seed=2)
    pre = LCCFClustering(3, kernel="precomputed", random_state=0).fit(X @ X.T)
    K_new, d = X[:4] @ X.T, np.sum(X[:4] ** 2, axis=1)
    with pytest.raises(ValueError, match=message):
        pre.predict(K_new, kernel_diag=diag(d))
    for column_or_row in (d[:, None], d[None, :]):
        assert np.array_equal(pre.predict(K_new, kernel_diag=column_or_row),
                              pre.predict(K_new, kernel_diag=d))
    with pytest.raises(ValueError, match="got shape \\(2, 2\\)"):
        pre.predict(K_new, kernel_diag=d.reshape(2, 2))


def test_negative_data_uses_the_section_3_5_updates(planted):
    X, y = planted(90, 45, 3, seed=5)
    Xc = X - X.mean(axis=0)
    assert (Xc @ Xc.T < 0).any()
    # centred data put the uniform random start near the zero concept; the graph term
    # pulls the documents' coordinates apart where the data term alone is slow to
    model = LCCFClustering(3, lam=10.0, random_state=0).fit(Xc)
    assert model.embedding_.min() >= 0
    assert clustering_accuracy(y, model.labels_) == 1.0
    assert model.predict(Xc[:10]).shape == (10,)


def test_errors(planted):
    X, _ = planted(30, 10, 2, seed=0)
    with pytest.raises(ValueError, match="larger than"):
        LCCFClustering(100).fit(X)
    for bad in (dict(weighting="x"), dict(labels="x"), dict(lam_scale="x"), dict(kernel="rbf"),
                dict(lam=-1.0), dict(n_neighbors=0), dict(ncw_graph="x")):
        with pytest.raises(ValueError):
            LCCFClustering(2, **bad).fit(X)
    with pytest.raises(ValueError, match="square"):
        LCCFClustering(2, kernel="precomputed").fit(X)
    with pytest.raises(ValueError, match="Negative"):
        LCCFClustering(2, weighting="ncw").fit(-X)
    with pytest.raises(ValueError, match="degrees"):
        K = np.array([[1.0, -0.9, -0.5], [-0.9, 1, 0], [-0.5, 0, 1]])   # first row sums to -0.4
        LCCFClustering(2, weighting="ncw", kernel="precomputed", lam=0.0).fit(K)


@pytest.mark.parametrize("params", [
    dict(lam=0.0), dict(lam=0.3), dict(lam=0.0, weighting="ncw"),
    dict(lam=100.0, lam_scale="none", weighting="ncw"), dict(lam=0.3, kernel="poly2"),
    dict(lam=0.0, kernel="poly2", weighting="ncw"), dict(lam=0.3, init_rounds=None, max_iter=150),
])
def test_restarts_side_by_side_change_nothing(planted, params):
    """batch_restarts only changes how the products are computed: every fitted number is equal."""
    X, _ = planted(90, 50, 3, seed=4)
    X = sp.csr_matrix(X)
    fits = [LCCFClustering(3, n_init=4, random_state=1, batch_restarts=batch, **params).fit(X)
            for batch in (True, False)]
    for name in ("labels_", "embedding_", "loss_history_", "restart_objectives_", "components_"):
        np.testing.assert_array_equal(getattr(fits[0], name), getattr(fits[1], name))
    assert fits[0].n_iter_ == fits[1].n_iter_


@pytest.mark.parametrize("weighting", ["none", "ncw"])
def test_float32_objective_close_to_float64(planted, weighting):
    """One start, a fixed 120 rounds: float32 updates end within 1e-4 of float64's objective."""
    X, _ = planted(90, 50, 3, seed=4)
    fits = [LCCFClustering(3, weighting=weighting, init="random", n_init=1, max_iter=120, tol=0.0,
                           dtype=dtype, random_state=0).fit(sp.csr_matrix(X))
            for dtype in ("float64", "float32")]
    assert fits[1].embedding_.dtype == np.float64
    assert fits[0].loss_history_[-1] < 0.9 * fits[0].loss_history_[0]
    assert not np.array_equal(fits[0].loss_history_, fits[1].loss_history_)
    assert fits[1].objective_ == pytest.approx(fits[0].objective_, rel=1e-4)


@pytest.mark.parametrize("bad", ["float16", "int64", "double precision"])
def test_rejects_bad_dtype(planted, bad):
    X, _ = planted(20, 10, 2, seed=0)
    with pytest.raises(ValueError, match="dtype"):
        LCCFClustering(2, dtype=bad).fit(X)


def test_the_start_from_nmf_is_said_before_the_rounds(planted, caplog):
    """Between the nearest neighbours and LCCF's rounds, NMF's fit for the start went by
    without a line (40 s on 20 Newsgroups)."""
    import logging

    X, _ = planted(60, 40, 3, seed=1)
    with caplog.at_level(logging.INFO, logger="docnmf"):
        LCCFClustering(3, init="nmf", random_state=0, verbose=1).fit(X)
    said = [r.getMessage() for r in caplog.records]
    start = [i for i, m in enumerate(said) if m.startswith("LCCF: starting from NMF's solution (")]
    rounds = [i for i, m in enumerate(said) if m.startswith("LCCF from NMF's solution: ")]
    assert len(start) == 1 and len(rounds) == 1 and start[0] < rounds[0], said
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="docnmf"):
        LCCFClustering(3, init="nmf", random_state=0).fit(X)
    assert not any("starting from" in r.getMessage() for r in caplog.records)
