"""SSNMFClustering: constraints fix a wrong clustering, the two-rings toy, partial labels."""

import warnings
from functools import partial

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.utils.estimator_checks import parametrize_with_checks

from docnmf.baselines.kernel_kmeans import KernelKMeansClustering, kernel_matrix
from docnmf.baselines.semi_supervised import SSKernelKMeansClustering, SSNormalizedCutClustering
from docnmf import constraints as constraints_module
from docnmf.constraints import ConstraintError, sample_constraints
from docnmf.cluster.nmf import new_document_factor
from docnmf.cluster.ssnmf import SSNMFClustering as _SSNMF

#: The paper's factorization of the changed similarity, which the tests below check; the
#: default (NMF-NCW, constraints applied as labels are read) is tested at the end.
SSNMFClustering = partial(_SSNMF, factorization="similarity")
from docnmf.metrics import clustering_accuracy


def two_facets(n_per=15, topic_weight=1.0, style_weight=1.1, seed=0, m=10):
    """Documents with a topic (the truth) and a slightly stronger style (what clustering sees).

    Each document has one of two topics and one of two styles, each on its
    own block of ``m`` terms; the style terms weigh a little more, so the
    unsupervised 2-way clustering splits by style.
    """
    rng = np.random.default_rng(seed)
    rows, topic, style = [], [], []
    for t in range(2):
        for s in range(2):
            for _ in range(n_per):
                x = 0.05 * rng.random(4 * m)
                x[t * m:(t + 1) * m] += topic_weight * rng.random(m)
                x[(2 + s) * m:(3 + s) * m] += style_weight * rng.random(m)
                rows.append(x)
                topic.append(t)
                style.append(s)
    X = np.array(rows)
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    order = rng.permutation(len(X))
    return X[order], np.array(topic)[order], np.array(style)[order]


def two_rings(n=10, radii=(1.0, 2.0)):
    """Section 3.5's toy: two concentric circular rings of 10 points each."""
    t = np.arange(n) * 2 * np.pi / n
    P = np.vstack([np.c_[r * np.cos(t), r * np.sin(t)] for r in radii])
    return P, np.repeat([0, 1], n)


def _expected_failures(estimator):
    why = ("fit_transform gives the jointly fitted G, transform the memberships for G, S held "
           "fixed" if estimator.factorization == "similarity" else
           "fit_transform gives the memberships in the members' indicator space, transform "
           "those of the nearest mean documents")
    return {"check_transformer_data_not_an_array": why, "check_transformer_general": why,
            "check_clustering": "SS-NMF needs non-negative data; the check ignores positive_only"}


@parametrize_with_checks([SSNMFClustering(n_clusters=3, n_init=2, max_iter=50, random_state=0),
                          _SSNMF(n_clusters=3, n_init=2, random_state=0)],
                         expected_failed_checks=_expected_failures)
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_sklearn_contract(estimator, check):
    check(estimator)


def test_unconstrained_recovers_planted_clusters(planted, container):
    X, y = planted(120, 60, 3, seed=7)
    model = SSNMFClustering(3, n_init=3, random_state=0).fit(container(X))
    assert clustering_accuracy(y, model.labels_) == 1.0
    np.testing.assert_allclose(model.memberships_.sum(axis=1), 1.0)
    np.testing.assert_allclose(np.linalg.norm(model.embedding_, axis=0), 1.0)
    assert model.n_constrained_pairs_ == (0, 0)
    assert np.all(np.diff(model.loss_history_) <= 1e-10 * model.loss_history_[0])
    assert model.objective_ == pytest.approx(model.restart_objectives_.min())


def test_constraints_fix_a_wrong_clustering():
    X, topic, style = two_facets()
    plain = SSNMFClustering(2, n_init=5, random_state=0).fit(X)
    assert clustering_accuracy(style, plain.labels_) == 1.0   # it finds the style...
    assert clustering_accuracy(topic, plain.labels_) == 0.5   # ...not the topic
    for seed in range(3):
        ml, cl = sample_constraints(topic, 0.02, rng=seed)   # 35 of 1770 pairs
        model = SSNMFClustering(2, n_init=5, random_state=0).fit(X, must_link=ml, cannot_link=cl)
        assert clustering_accuracy(topic, model.labels_) == 1.0
        assert model.constraints_.violations(model.labels_, closure=True) == (0, 0)


def test_partial_labels_equal_the_pairs_they_imply(container):
    X, topic, _ = two_facets()
    y = np.full(len(topic), -1)
    y[:8] = topic[:8]
    ml = [(i, j) for i in range(8) for j in range(i + 1, 8) if topic[i] == topic[j]]
    cl = [(i, j) for i in range(8) for j in range(i + 1, 8) if topic[i] != topic[j]]
    a = SSNMFClustering(2, n_init=2, random_state=1).fit(container(X), y)
    b = SSNMFClustering(2, n_init=2, random_state=1).fit(container(X), must_link=ml, cannot_link=cl)
    assert a.n_constrained_pairs_ == (len(ml), len(cl))
    np.testing.assert_allclose(a.embedding_, b.embedding_)
    assert np.array_equal(SSNMFClustering(2, n_init=2, random_state=1).fit_predict(X, y), a.labels_)


def test_two_rings_toy_section_3_5():
    """Unsupervised methods split the rings wrongly; with constraints SS-NMF separates them,
    its G is non-negative with one axis per ring, near-orthogonal and soft (Table 1, Fig. 1b),
    while SS-KK's indicator is hard."""
    P, y = two_rings()
    K, _ = kernel_matrix(P, "gaussian")  # median-heuristic Gaussian similarity
    for unsupervised in [SSNMFClustering(2, affinity="precomputed", random_state=0),
                         KernelKMeansClustering(2, kernel="precomputed", random_state=0),
                         SSNormalizedCutClustering(2, affinity="precomputed", random_state=0)]:
        assert clustering_accuracy(y, unsupervised.fit(K).labels_) <= 0.6
    accuracies = []
    for seed in range(5):
        ml, cl = sample_constraints(y, 0.2, rng=seed)    # 38 of 190 pairs
        model = SSNMFClustering(2, affinity="precomputed", random_state=0).fit(
            K, must_link=ml, cannot_link=cl)
        accuracies.append(clustering_accuracy(y, model.labels_))
        G = model.embedding_
        assert np.all(G >= 0)
        gram = G.T @ G
        assert np.allclose(np.diag(gram), 1.0) and gram[0, 1] < 0.3         # near-orthogonal
        assert np.mean(G.min(axis=1) > 0.01 * G.max(axis=1)) > 0.5           # soft memberships
        axis_of_ring = [np.bincount(model.labels_[y == r], minlength=2).argmax() for r in (0, 1)]
        assert axis_of_ring[0] != axis_of_ring[1]                            # one axis per ring
        sskk = SSKernelKMeansClustering(2, kernel="precomputed", random_state=0).fit(
            K, must_link=ml, cannot_link=cl)
        np.testing.assert_allclose(sskk.memberships_.sum(axis=1), 1.0)
        assert np.array_equal(np.argmax(sskk.memberships_, axis=1), sskk.labels_)
    assert np.mean(accuracies) >= 0.95


def test_closure_option():
    X, topic, _ = two_facets()
    ml = [(i, j) for i, j in zip(range(0, 20), range(1, 21)) if topic[i] == topic[j]][:4]
    closed = SSNMFClustering(2, n_init=1, random_state=0).fit(X, must_link=ml)
    given = SSNMFClustering(2, n_init=1, closure=False, random_state=0).fit(X, must_link=ml)
    assert given.n_constrained_pairs_ == (len(ml), 0)
    assert closed.n_constrained_pairs_[0] == closed.constraints_.n_pairs()[0] >= len(ml)


def test_cost_mode_and_sqrt_update(container):
    X, topic, _ = two_facets()
    ml, cl = sample_constraints(topic, 0.05, rng=0)
    for params in [dict(constraint_mode="cost"),
                   dict(constraint_mode="cost", reward=0.5, penalty=0.5),
                   dict(update="sqrt", max_iter=2000)]:
        model = SSNMFClustering(2, n_init=3, random_state=0, **params).fit(
            container(X), must_link=ml, cannot_link=cl)
        assert clustering_accuracy(topic, model.labels_) == 1.0, params


def test_sparse_equals_dense_and_same_seed(planted):
    X, y = planted(60, 30, 3, seed=1)
    ml, cl = sample_constraints(y, 0.01, rng=0)
    a = SSNMFClustering(3, n_init=3, random_state=4).fit(X, must_link=ml, cannot_link=cl)
    b = SSNMFClustering(3, n_init=3, random_state=4).fit(sp.csr_matrix(X), must_link=ml,
                                                          cannot_link=cl)
    np.testing.assert_allclose(a.embedding_, b.embedding_, rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(a.loss_history_, b.loss_history_, rtol=1e-9)
    c = clone(a).fit(X, must_link=ml, cannot_link=cl)
    assert np.array_equal(a.labels_, c.labels_)


def test_clone_get_params_round_trip():
    model = SSNMFClustering(4, constraint_mode="cost", reward=0.3, penalty=0.2, affinity="linear",
                            closure=False, update="sqrt", n_init=3, max_iter=20, tol=1e-3,
                            random_state=5, verbose=1)
    copy = clone(model)
    assert copy.get_params() == model.get_params()
    assert SSNMFClustering(**model.get_params()).get_params() == model.get_params()
    copy.set_params(n_clusters=2, closure=True)
    assert copy.n_clusters == 2 and model.n_clusters == 4


def test_transform_predict_and_keywords(planted):
    X, y = planted(150, 60, 3, seed=5)
    model = SSNMFClustering(3, n_init=3, random_state=0).fit(X[:120])
    assert clustering_accuracy(y[120:], model.predict(X[120:])) == 1.0
    M = model.transform(X[120:])
    assert M.shape == (30, 3) and np.allclose(M.sum(axis=1), 1.0)
    assert model.components_.shape == (3, 60)
    names = [f"t{j}" for j in range(60)]
    keywords = model.top_keywords(names, 3)
    assert len(keywords) == 3 and all(len(words) == 3 for words in keywords)


def test_precomputed_affinity_equals_linear(planted):
    X, y = planted(60, 30, 3, seed=2)
    ml, cl = sample_constraints(y, 0.01, rng=1)
    lin = SSNMFClustering(3, n_init=2, random_state=0).fit(X, must_link=ml, cannot_link=cl)
    pre = SSNMFClustering(3, n_init=2, affinity="precomputed", random_state=0).fit(
        X @ X.T, must_link=ml, cannot_link=cl)
    np.testing.assert_allclose(lin.embedding_, pre.embedding_, rtol=1e-7, atol=1e-10)
    np.testing.assert_allclose(pre.transform(X[:5] @ X.T), lin.transform(X[:5]), rtol=1e-6)
    with pytest.raises(ValueError, match="symmetric"):
        SSNMFClustering(2, affinity="precomputed").fit(np.triu(X @ X.T))


def test_argument_errors(planted):
    X, _ = planted(30, 20, 2, seed=0)
    with pytest.raises(ConstraintError, match=r"\(0, 30\)"):
        SSNMFClustering(2).fit(X, must_link=[(0, 30)])
    with pytest.raises(ConstraintError, match="one group"):
        SSNMFClustering(2).fit(X, must_link=[(0, 1), (1, 2)], cannot_link=[(0, 2)])
    with pytest.raises(ValueError, match="mode='cost'"):
        SSNMFClustering(2, reward=1.0).fit(X, must_link=[(0, 1)])
    with pytest.raises(ValueError, match="one partial label per document"):
        SSNMFClustering(2).fit(X, np.zeros(5, dtype=int))
    with pytest.raises(ValueError, match="(?i)negative"):
        SSNMFClustering(2).fit(-X)
    for bad in [dict(constraint_mode="soft"), dict(update="fast"), dict(affinity="rbf"),
                dict(n_init=0), dict(n_clusters=31)]:
        with pytest.raises(ValueError):
            SSNMFClustering(**{"n_clusters": 2, **bad}).fit(X)


def test_refuses_constraint_sets_too_large_to_store(planted, monkeypatch):
    X, y = planted(40, 20, 2, seed=0)
    monkeypatch.setattr(constraints_module, "MAX_CONSTRAINED_PAIRS", 100)
    with pytest.raises(ConstraintError, match="closure=False"):
        SSNMFClustering(2).fit(X, y)   # 40 labelled documents: 780 pairs
    model = SSNMFClustering(2, n_init=1, closure=False).fit(X, must_link=[(0, 1)])
    assert model.n_constrained_pairs_ == (1, 0)


@pytest.mark.parametrize("params", [dict(), dict(update="sqrt", closure=False),
                                    dict(constraint_mode="cost"), dict(affinity="precomputed")])
def test_restarts_side_by_side_change_nothing(planted, params):
    """batch_restarts only changes how A~ G is computed: every fitted number is equal."""
    X, y = planted(80, 40, 3, seed=2)
    ml, cl = sample_constraints(y, 0.01, rng=1)
    X = sp.csr_matrix(X @ X.T) if params.get("affinity") == "precomputed" else sp.csr_matrix(X)
    fits = [SSNMFClustering(3, n_init=4, random_state=5, batch_restarts=batch, **params)
            .fit(X, must_link=ml, cannot_link=cl) for batch in (True, False)]
    for name in ("labels_", "embedding_", "S_", "loss_history_", "restart_objectives_"):
        np.testing.assert_array_equal(getattr(fits[0], name), getattr(fits[1], name))
    assert fits[0].n_iter_ == fits[1].n_iter_
    assert len(set(fits[0].restart_objectives_)) > 1


def test_ncw_reads_constrained_labels_from_nmf_ncw_and_breaks_no_must_link():
    X, topic, style = two_facets(n_per=15, seed=3)
    rng = np.random.default_rng(0)
    ml, cl = sample_constraints(topic, 0.3, rng)
    model = _SSNMF(2, factorization="ncw", random_state=0).fit(X, must_link=ml, cannot_link=cl)
    assert model.S_ is None
    assert np.all(model.labels_[ml[:, 0]] == model.labels_[ml[:, 1]])
    assert clustering_accuracy(topic, model.labels_) > 0.9
    # without constraints: NMF-NCW's own clustering (by style here)
    free = _SSNMF(2, factorization="ncw", random_state=0).fit(X)
    assert clustering_accuracy(style, free.labels_) > 0.9
    assert model.transform(X[:3]).shape == (3, 2)
    for factorization in ("ncw", "consensus"):
        with pytest.raises(ValueError, match="needs factorization='similarity'"):
            _SSNMF(2, factorization=factorization, affinity="precomputed").fit(X @ X.T)


def test_ncw_places_by_the_mean_directions_its_labels_were_read_by():
    rng = np.random.default_rng(0)
    topics = rng.gamma(0.3, 1.0, (200, 4))
    X = rng.poisson(30 * rng.dirichlet([0.3] * 4, 300) @ topics.T / topics.sum(axis=0).mean())
    X = X[X.sum(axis=1) > 0].astype(float)
    fit, new = X[:240], X[240:]
    ml, cl = np.array([(0, 1), (2, 3)]), np.array([(4, 5)])
    model = _SSNMF(4, factorization="ncw", random_state=0).fit(fit, must_link=ml, cannot_link=cl)
    # a document in no pair has its label as its largest membership
    free = np.setdiff1d(np.arange(len(fit)), np.concatenate([ml.ravel(), cl.ravel()]))
    np.testing.assert_array_equal(np.argmax(model.memberships_[free], axis=1),
                                  model.labels_[free])
    # a new document goes to the centre of largest cosine with its unit row of V
    V = new_document_factor(new, model.components_, model.ncw_column_sums_)
    unit = V / np.linalg.norm(V, axis=1, keepdims=True)
    cosines = [[float(np.dot(v, c)) for c in model.cluster_centers_] for v in unit]
    np.testing.assert_array_equal(model.predict(new), [row.index(max(row)) for row in cosines])
    assert np.mean(model.predict(fit)[free] == model.labels_[free]) > 0.99


def _topic_counts(seed=0, n=120, k=3, per_pair=0.02):
    """Poisson term counts with k planted topics, and must-/cannot-links on a share of pairs."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(k), n // k)
    rates = np.full((k, 45), 0.08)
    for c, block in enumerate(np.array_split(np.arange(45), k)):
        rates[c, block] = 0.5
    X = rng.poisson(rates[y]).astype(float)
    ml, cl = sample_constraints(y, per_pair, rng)
    return X, y, ml, cl


def test_default_chooses_the_candidate_that_reproduces_the_pairs_best_then_repairs_it():
    from docnmf.cluster import ConsensusClustering
    from docnmf.cluster.ssnmf import constraint_f1

    X, y, ml, cl = _topic_counts(seed=3)
    model = _SSNMF(3, random_state=7).fit(X, must_link=ml, cannot_link=cl)
    assert model.selected_ != "consensus"      # here a member keeps more pairs than the consensus
    consensus = ConsensusClustering(3, random_state=7).fit(X)
    np.testing.assert_array_equal(model.member_labels_, consensus.member_labels_)
    candidates = {"consensus": consensus.labels_,
                  **dict(zip(consensus.members_, consensus.member_labels_.T))}
    assert list(model.candidate_agreement_) == list(candidates)
    for name, labels in candidates.items():
        assert model.candidate_agreement_[name] == constraint_f1(labels, ml, cl)
    scores = list(model.candidate_agreement_.values())
    assert model.selected_ == list(candidates)[scores.index(max(scores))]
    chosen = candidates[model.selected_]
    # every must-link kept; a document no pair names keeps the chosen clustering's cluster
    assert np.all(model.labels_[ml[:, 0]] == model.labels_[ml[:, 1]])
    free = np.setdiff1d(np.arange(len(y)), np.concatenate([ml.ravel(), cl.ravel()]))
    np.testing.assert_array_equal(model.labels_[free], chosen[free])
    assert constraint_f1(model.labels_, ml, cl) >= constraint_f1(chosen, ml, cl)
    np.testing.assert_allclose(model.memberships_.sum(axis=1), 1.0)


def test_default_without_constraints_is_the_consensus_and_ties_keep_it():
    from docnmf.cluster import ConsensusClustering

    X, y, _, _ = _topic_counts(seed=2)
    model = _SSNMF(3, random_state=1).fit(X)
    np.testing.assert_array_equal(model.labels_,
                                  ConsensusClustering(3, random_state=1).fit(X).labels_)
    assert model.selected_ == "consensus" and set(model.candidate_agreement_.values()) == {1.0}
    assert model.n_constrained_pairs_ == (0, 0)


def test_default_places_new_documents_by_the_most_similar_mean_document():
    X, y, ml, cl = _topic_counts(seed=3)
    model = _SSNMF(3, random_state=0).fit(sp.csr_matrix(X), must_link=ml, cannot_link=cl)
    M = model.transform(X[:10])
    np.testing.assert_allclose(M.sum(axis=1), 1.0)
    W = X[:10] * model.idf_
    W /= np.linalg.norm(W, axis=1, keepdims=True)
    np.testing.assert_array_equal(model.predict(X[:10]),
                                  np.argmax(W @ model.cluster_centers_.T, axis=1))
    assert len(model.top_keywords([f"t{j}" for j in range(45)], 3)) == 3


def test_presets_name_each_factorization():
    from docnmf.methods import METHODS, make_estimator

    assert make_estimator("ssnmf", 2).factorization == "consensus"
    assert METHODS["ssnmf"].input == "counts"
    assert make_estimator("ssnmf-ncw", 2).factorization == "ncw"
    assert METHODS["ssnmf-ncw"].input == METHODS["ssnmf-paper"].input == "tfidf"
    assert make_estimator("ssnmf-paper", 2, as_published=True).factorization == "similarity"


def test_the_consensus_default_reports_input_problems_as_its_own():
    from docnmf.cluster import SSNMFClustering

    with pytest.raises(ValueError, match="^SSNMFClustering: every term occurs in every one"):
        SSNMFClustering(2).fit(np.array([[1.0, 2.0], [3.0, 1.0], [1.0, 1.0]]))


@pytest.mark.parametrize("make", [
    lambda: _SSNMF(2, random_state=0),                       # the default: the consensus's
    lambda: SSNMFClustering(2, random_state=0),              # the paper's
    lambda: SSNMFClustering(2, factorization="ncw", random_state=0),
    lambda: SSKernelKMeansClustering(2, random_state=0),
    lambda: SSNormalizedCutClustering(2, random_state=0)])
def test_pairs_that_cannot_all_be_kept_are_counted_by_the_constraints(make):
    """Three documents pairwise cannot-linked in two clusters: one pair must be joined, and
    ``constraints_.violations(labels_)`` (as documented) says how many were."""
    X = np.array([[3, 1, 0, 0], [2, 2, 0, 0], [0, 0, 1, 3], [0, 0, 2, 2.], [1, 1, 1, 1.]])
    model = make().fit(X, cannot_link=[(0, 1), (1, 2), (0, 2)])
    split, joined = model.constraints_.violations(model.labels_)
    assert split == 0 and joined >= 1
    labels = model.labels_
    assert joined == sum(labels[i] == labels[j] for i, j in [(0, 1), (1, 2), (0, 2)])


@pytest.mark.parametrize("method", ["ssnmf-paper", "lccf"])
def test_restarts_fitted_side_by_side_are_logged_without_a_time_of_their_own(method, caplog):
    """Each was logged "(0.00s)": the restarts run together and are handed over at the end."""
    import logging
    import re

    from docnmf.methods import make_estimator

    rng = np.random.default_rng(0)
    X = rng.random((30, 12))
    params = dict(init="random") if method == "lccf" else {}
    with caplog.at_level(logging.INFO, logger="docnmf"):
        make_estimator(method, 3, random_state=0, n_init=3, verbose=1, **params).fit(X)
    lines = [r.getMessage() for r in caplog.records if "restart" in r.getMessage()]
    assert len(lines) >= 3 and not any(re.search(r"\(\d+\.\d\ds\)", line) for line in lines), lines


@pytest.mark.parametrize("params, message", [
    ({"reward": 1.0}, r"constraint_mode='cost'"),
    ({"constraint_mode": "cost", "reward": -1.0}, r"reward must be a non-negative number, got -1.0"),
    ({"constraint_mode": "cost", "penalty": "a"}, r"penalty must be a non-negative number, got 'a'"),
    ({"constraint_mode": "cost", "penalty": float("nan")}, r"penalty must be a non-negative number"),
])
def test_reward_and_penalty_errors_name_the_estimators_parameters(planted, params, message):
    # checked in fit whether or not constraints are given, in the estimator's own names
    # (the solver's keyword is ``mode``; the estimator's is ``constraint_mode``)
    X, _ = planted(30, 20, 2, seed=0)
    for must_link in (None, [(0, 1)]):
        with pytest.raises(ValueError, match=message):
            SSNMFClustering(2, **params).fit(X, must_link=must_link)


@pytest.mark.parametrize("factorization", ["consensus", "ncw"])
def test_options_of_the_similarity_alone_are_said_to_go_unused(planted, factorization):
    """constraint_mode="cost", reward, update="sqrt" or closure=False with the default
    factorization changed nothing, without a word."""
    X, _ = planted(30, 20, 2, seed=0)
    X = np.round(10 * X)            # counts, as the consensus weighs them
    with pytest.warns(UserWarning, match=r"constraint_mode='cost', reward=2\.0, closure=False "
                      rf"concern factorization='similarity' only; factorization="
                      rf"'{factorization}' does not use them") as caught:
        _SSNMF(2, factorization=factorization, constraint_mode="cost", reward=2.0,
               closure=False, n_init=1, random_state=0).fit(X, must_link=[(0, 1)])
    assert caught[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)     # the defaults, and the similarity's own
        _SSNMF(2, factorization=factorization, n_init=1, random_state=0).fit(X)
        SSNMFClustering(2, constraint_mode="cost", update="sqrt", n_init=1,
                        random_state=0).fit(X, must_link=[(0, 1)])
