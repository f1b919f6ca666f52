"""What every registered estimator shares through docnmf._estimator."""

import re
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.cluster import KMeans

from docnmf._estimator import DocumentClusterer, FewerClustersWarning, best_restart
from docnmf.baselines._common import kmeans_restarts
from docnmf.methods import METHODS, make_estimator

#: Three topics of invented words, six sentences a document (NMA segments texts).
_WORDS = ["q" + a + b for a in "bcdfghjk" for b in "lmnprstv"]


def _texts(n_docs: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    return [" ".join(" ".join(rng.choice(_WORDS[20 * (d % 3):20 * (d % 3) + 20], 8)) + "."
                     for _ in range(6)) for d in range(n_docs)]


def _fit(name: str, planted, n_init: int = 3):
    return _fit_with(name, planted, random_state=0, n_init=n_init)


def _fit_with(name: str, planted, **options):
    spec = METHODS[name]
    X, _ = planted(45, 30, 3, seed=1)
    data = {"tfidf": sp.csr_matrix(X), "counts": sp.csr_matrix(np.round(5 * X)),
            "texts": _texts(24, 1)}[spec.input]
    if spec.input == "texts":
        from docnmf.text.vectorize import DocumentVectorizer

        options["vectorizer"] = DocumentVectorizer(min_df=1)
    fit = {"must_link": [(0, 3)], "cannot_link": [(0, 1)]} if spec.constraints else {}
    return make_estimator(name, 3, **options).fit(data, **fit)


@pytest.mark.parametrize("name", list(METHODS))
def test_no_estimator_shadows_scikit_learns_validate_params(name):
    estimator = METHODS[name].estimator
    assert estimator._validate_params is BaseEstimator._validate_params
    assert issubclass(estimator, DocumentClusterer)


@pytest.mark.parametrize("name", list(METHODS))
def test_every_estimator_records_each_restarts_objective(name, planted):
    model = _fit(name, planted, n_init=3)
    record = model.restart_objectives_
    assert isinstance(record, np.ndarray) and record.dtype == np.float64
    # a deterministic NMF start runs once (SS-NMF's default factorises with NMF-NCW's, CF and
    # LCCF start from NMF's solution); kernel k-means may add its spectral start
    deterministic = (getattr(model, "init", None) in ("nndsvd", "nndsvda")
                     or getattr(model, "init_", None) == "nmf"
                     or getattr(model, "factorization", None) == "ncw")
    expected = {1} if deterministic else {3, 4}
    assert len(record) in expected
    assert np.all(np.isfinite(record))
    assert not hasattr(model, "restart_losses_")


def test_kmeans_restarts_are_scikit_learns_kmeans_with_every_objective_kept():
    rng = np.random.default_rng(3)
    E = np.vstack([rng.normal(c, 1.5, (40, 4)) for c in (0.0, 2.0, 4.0, 6.0)])
    for seed in range(5):
        ours, objectives = kmeans_restarts(E, 4, n_init=6, max_iter=300, tol=1e-4, seed=seed)
        theirs = KMeans(4, n_init=6, max_iter=300, tol=1e-4, random_state=seed).fit(E)
        np.testing.assert_array_equal(ours.labels_, theirs.labels_)
        np.testing.assert_array_equal(ours.cluster_centers_, theirs.cluster_centers_)
        assert ours.inertia_ == theirs.inertia_ == objectives.min()
        assert len(objectives) == 6


def test_best_restart_keeps_the_first_of_equal_objectives_and_warns_if_unconverged():
    from types import SimpleNamespace

    runs = [SimpleNamespace(losses=[5.0, v], converged=c, n_iter=2)
            for v, c in [(3.0, True), (1.0, False), (1.0, True)]]
    with pytest.warns(Warning, match="did not converge"):
        best, objectives = best_restart(iter(runs), name="X", tol=1e-4, max_iter=2)
    assert best is runs[1] and objectives.tolist() == [3.0, 1.0, 1.0]
    with pytest.raises(ValueError, match="no restarts"):
        best_restart([], key=float)


def test_estimators_without_term_weights_offer_no_keywords():
    """The pipeline then ranks terms by each cluster's mean document instead."""
    for name in ("kernel-km", "ss-kk", "ss-snc"):
        assert not hasattr(METHODS[name].estimator(), "top_keywords")
    for name in ("nmf", "km", "plsi", "lccf"):
        assert hasattr(METHODS[name].estimator(), "top_keywords")


@pytest.mark.parametrize("name", [m for m, spec in METHODS.items()
                                  if "tol" in spec.estimator().get_params()])
@pytest.mark.parametrize("tol", ["x", float("nan"), None])
def test_a_bad_tolerance_is_named_before_any_work(name, tol, planted):
    spec = METHODS[name]
    X, _ = planted(45, 30, 3, seed=1)
    data = {"tfidf": sp.csr_matrix(X), "counts": sp.csr_matrix(np.round(5 * X)),
            "texts": _texts(24, 1)}[spec.input]
    options = {}
    if spec.input == "texts":
        from docnmf.text.vectorize import DocumentVectorizer

        options["vectorizer"] = DocumentVectorizer(min_df=1)
    with pytest.raises(ValueError, match="tol must be a (non-negative )?number"):
        spec.estimator(n_clusters=3, tol=tol, **options).fit(data)


@pytest.mark.parametrize("name", list(METHODS))
def test_a_negative_seed_is_named(name, planted):
    with pytest.raises(ValueError, match="random_state must be a non-negative integer, got -1"):
        _fit_with(name, planted, random_state=-1)


def test_a_seed_of_another_kind_is_refused_naming_every_kind_taken():
    """The error named None, an int or a Generator; a SeedSequence and a RandomState are
    taken too."""
    from docnmf._rng import as_generator

    for seed in (np.random.SeedSequence(3), np.random.RandomState(3), np.random.default_rng(3)):
        assert isinstance(as_generator(seed), np.random.Generator)
    with pytest.raises(ValueError, match=r"^random_state must be None, an int, or a numpy "
                                         r"Generator, SeedSequence or RandomState, got 'x'$"):
        as_generator("x")


@pytest.mark.parametrize("name", [m for m, spec in METHODS.items() if spec.input != "texts"])
def test_texts_given_for_a_matrix_are_pointed_to_a_vectorizer(name):
    import pandas as pd

    texts = _texts(6, 0)
    # a pandas Series (df["text"]) got scikit-learn's error, quoting a whole document
    for given in (texts, np.array(texts), texts[0], pd.Series(texts)):
        with pytest.raises(TypeError, match="clusters a documents x terms matrix, not texts: "
                                            "make one with docnmf.DocumentVectorizer"):
            METHODS[name].estimator(n_clusters=2).fit(given)


@pytest.mark.parametrize("name", [m for m, spec in METHODS.items()
                                  if spec.input != "texts" and spec.places_new_documents])
def test_texts_given_to_place_are_pointed_to_the_vectorizer(name, planted):
    """predict and transform quoted scikit-learn's 'could not convert string to float' with a
    whole document in it."""
    model = _fit(name, planted, n_init=1)
    texts = _texts(6, 0)
    for place in (getattr(model, m) for m in ("predict", "transform", "predict_memberships")
                  if hasattr(model, m)):
        with pytest.raises(TypeError, match=r"takes a documents x terms matrix, not texts: "
                                            r"make one as the fitted one was made, with the same "
                                            r"vectorizer \(vectorizer.transform\(texts\) for "
                                            r"tf-idf, vectorizer.count\(texts\) for counts\)"):
            place(texts)


@pytest.mark.parametrize("name", ["nmf", "lccf", "km", "consensus"])
@pytest.mark.parametrize("n", [0, -1, 2.5, True])
def test_top_keywords_wants_a_positive_count(name, n, planted):
    model = _fit(name, planted, n_init=1)
    names = [f"t{j}" for j in range(model.n_features_in_)]
    assert [len(row) for row in model.top_keywords(names, 2)] == [2, 2, 2]
    with pytest.raises(ValueError, match="n must be a positive integer"):
        model.top_keywords(names, n)


@pytest.mark.parametrize("name", [m for m, spec in METHODS.items()
                                  if hasattr(spec.estimator, "get_feature_names_out")])
def test_transform_names_its_columns_one_per_cluster(name, planted):
    from sklearn.exceptions import NotFittedError
    from sklearn.pipeline import FeatureUnion

    with pytest.raises(NotFittedError):
        METHODS[name].estimator(n_clusters=3).get_feature_names_out()
    model = _fit(name, planted, n_init=1)
    prefix = type(model).__name__.lower()
    names = model.get_feature_names_out()
    assert names.tolist() == [f"{prefix}{c}" for c in range(3)]
    X, _ = planted(45, 30, 3, seed=1)
    assert model.transform(sp.csr_matrix(X)).shape[1] == len(names)
    union = FeatureUnion([("a", make_estimator("nmf", 2, random_state=0)),
                          ("b", make_estimator("lccf", 3, random_state=0))]).fit(X)
    assert union.get_feature_names_out().tolist() == [
        "a__nmfclustering0", "a__nmfclustering1",
        "b__lccfclustering0", "b__lccfclustering1", "b__lccfclustering2"]


@pytest.mark.parametrize("name", ["nmf", "lccf-ncw", "consensus", "km"])
def test_documents_without_terms_are_named_once(name, planted):
    """Their labels come from ties: one warning, from the outermost fit (LCCF's NMF start and the
    consensus's members fit the same rows)."""
    import warnings

    X, _ = planted(45, 30, 3, seed=1)
    X = sp.vstack([sp.csr_matrix(X), sp.csr_matrix((2, 30))]).tocsr()
    data = sp.csr_matrix(np.round(5 * X.toarray())) if METHODS[name].input == "counts" else X
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make_estimator(name, 3, random_state=0, n_init=1).fit(data)
    said = [str(w.message) for w in caught if "have no terms" in str(w.message)]
    assert said == [(f"{METHODS[name].estimator.__name__}: 2 of the 47 documents have no "
                     "terms (all-zero rows); their labels come from ties, not content: leave them "
                     "out before fitting (docnmf.cluster_corpus and docnmf cluster label them "
                     "-1)")]
    assert caught[[str(w.message) for w in caught].index(said[0])].filename == __file__


@pytest.mark.parametrize("name", [m for m, spec in METHODS.items()
                                  if spec.input != "texts" and spec.places_new_documents])
def test_new_documents_without_terms_are_named_where_they_are_placed(name, planted):
    """predict gave them a cluster from ties (usually 0) with no word, where fit warns and
    ClusteringModel.place labels them -1."""
    import warnings

    model = _fit(name, planted, n_init=1)
    X, _ = planted(45, 30, 3, seed=1)
    new = sp.vstack([sp.csr_matrix(X[:3]), sp.csr_matrix((2, 30))]).tocsr()
    if METHODS[name].input == "counts":
        new = sp.csr_matrix(np.round(5 * new.toarray()))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.predict(new)
    said = [w for w in caught if "have no terms" in str(w.message)]
    expected = (f"{type(model).__name__}: 2 of the 5 documents placed have no terms the model "
                "knows (all-zero rows); their labels come from ties, not content "
                "(ClusteringModel.place and docnmf assign label them -1)")
    assert [str(w.message) for w in said] == [expected]
    assert said[0].filename == __file__
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.predict(new[:3])
    assert not [w for w in caught if "have no terms" in str(w.message)]


def test_restarts_fitted_side_by_side_are_logged_without_a_time_of_their_own(caplog):
    import logging

    with caplog.at_level(logging.INFO, logger="docnmf"):
        best_restart([2.0, 1.0], key=float, name="NMF", total=2, verbose=1)
        best_restart([2.0, 1.0], key=float, name="NMF", total=2, verbose=1, timed=False)
    lines = [r.getMessage() for r in caplog.records]
    assert lines[0].startswith("NMF restart 1/2: objective 2") and lines[0].endswith("s)")
    assert lines[2:] == ["NMF restart 1/2: objective 2", "NMF restart 2/2: objective 1"]


def test_a_negative_tolerance_runs_every_iteration(planted):
    """The factorizations' convention (the solvers' tests and the Dask fault tests use it)."""
    X, _ = planted(45, 30, 3, seed=1)
    model = make_estimator("nmf", 3, init="random", n_init=1, max_iter=7, tol=-1.0,
                           random_state=0).fit(sp.csr_matrix(X))
    assert model.n_iter_ == 7


def test_verbose_shows_progress_without_logging_set_up(docnmf_env):
    """As scikit-learn's verbose prints, a fit with verbose=1 shows its progress on standard
    error when nothing configured logging; quiet by default. A real interpreter: pytest's own
    logging handlers would otherwise count as configured logging."""
    import subprocess
    import sys

    code = ("import numpy as np\n"
            "from docnmf.cluster import NMFClustering\n"
            "X = np.abs(np.random.default_rng(0).random((30, 12)))\n"
            "NMFClustering(3, init='random', n_init=2, random_state=0, verbose=V).fit(X)\n")
    env = docnmf_env
    shown = [subprocess.run([sys.executable, "-c", code.replace("V", v)], capture_output=True,
                            text=True, timeout=120, env=env) for v in ("1", "0")]
    assert all(r.returncode == 0 for r in shown), [r.stderr for r in shown]
    assert "docnmf: NMF restart 1/2: objective" in shown[0].stderr
    assert "restart" not in shown[1].stderr


_SCALE_FREE_PLACING = [m for m, spec in METHODS.items()
                       if spec.places_new_documents and spec.input != "texts"
                       and make_estimator(m, 3)._scale_free()]


@pytest.mark.filterwarnings("ignore:.*multiplied by 2")
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("name", _SCALE_FREE_PLACING)
@pytest.mark.parametrize("factor", [1e-7, 1e200])
def test_documents_of_a_rescaled_fit_are_placed_as_the_fit_saw_them(name, factor, planted,
                                                                    tmp_path):
    """A fit on X far from [0.5, 1) runs on X times a power of two; new documents get the same
    factor, so that placing them matches a fit on the scaled X itself (they once all went to one
    cluster, k-means' nearest centre for a tiny X)."""
    import docnmf

    spec = METHODS[name]
    X, _ = planted(45, 30, 3, seed=1)
    data = sp.csr_matrix(np.round(5 * X) if spec.input == "counts" else X) * factor
    fitted = make_estimator(name, 3, random_state=0, n_init=2).fit(data)
    assert fitted.scale_exponent_ != 0
    seen = data.copy()
    seen.data = np.ldexp(seen.data, fitted.scale_exponent_)
    reference = make_estimator(name, 3, random_state=0, n_init=2).fit(seen)
    assert reference.scale_exponent_ == 0
    assert np.allclose(fitted.predict_memberships(data), reference.predict_memberships(seen),
                       rtol=1e-9, atol=1e-12)
    loaded = docnmf.load(docnmf.save(fitted, tmp_path / "model"))
    assert loaded.scale_exponent_ == fitted.scale_exponent_
    assert np.allclose(loaded.predict_memberships(data), fitted.predict_memberships(data),
                       rtol=1e-9, atol=1e-12)


def _mixed_topic_counts(n_docs: int = 120, seed: int = 0) -> np.ndarray:
    """Counts of documents mixing three topics (Dirichlet 0.3), on which the ways of reading
    labels (argmax, k-means on the factor, nearest centre) part."""
    rng = np.random.default_rng(seed)
    topics = rng.gamma(0.3, 1.0, (len(_WORDS), 3))
    mix = rng.dirichlet([0.3] * 3, n_docs)
    X = rng.poisson(40 * mix @ topics.T / topics.sum(axis=0).mean()).astype(float)
    X[:, :3] += 1       # no empty document
    return X


def _rules(spec) -> list[dict]:
    rules = getattr(spec.estimator, "LABEL_RULES", ())
    return [{}] + [{"labels": rule} for rule in rules if rule not in ("argmax", "auto")]


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("name, rule", [
    pytest.param(name, rule, id=f"{name}-{rule.get('labels', 'default')}")
    for name, spec in METHODS.items() for rule in _rules(spec)])
def test_the_largest_membership_is_the_label_for_fitted_and_new_documents(name, rule):
    spec = METHODS[name]
    X = _mixed_topic_counts()
    fit, new = X[:100], X[100:]
    options = {k: v for k, v in {"n_init": 2, "max_iter": 100}.items() if k in spec.parameters()}
    model = make_estimator(name, 3, random_state=0, **options, **rule)
    pairs = {"must_link": [(0, 1)], "cannot_link": [(2, 3)]} if spec.constraints else {}
    if spec.input == "texts":
        from docnmf.text.vectorize import DocumentVectorizer

        def texts(A):
            return [". ".join(" ".join(np.repeat(_WORDS, row.astype(int))[i::4])
                              for i in range(4)) + "." for row in A]

        model.set_params(vectorizer=DocumentVectorizer(min_df=1))
        fit, new = texts(fit), texts(new)
    model.fit(fit, **pairs)
    free = np.arange(4 if spec.constraints else 0, 100)     # in no pair
    np.testing.assert_array_equal(np.argmax(model.memberships_[free], axis=1),
                                  model.labels_[free])
    if spec.places_new_documents:
        np.testing.assert_array_equal(model.predict(new),
                                      np.argmax(model.predict_memberships(new), axis=1))


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("name", [name for name, spec in METHODS.items()
                                  if hasattr(spec.estimator, "transform")])
def test_set_output_reaches_fit_transform_as_well_as_transform(name):
    # pandas: the test extra brings it (dask[dataframe])
    import pandas as pd

    spec = METHODS[name]
    X = _mixed_topic_counts(60)
    options = {k: v for k, v in {"n_init": 1, "max_iter": 50}.items() if k in spec.parameters()}
    model = make_estimator(name, 3, random_state=0, **options).set_output(transform="pandas")
    pairs = {"must_link": [(0, 1)], "cannot_link": [(2, 3)]} if spec.constraints else {}
    fitted = model.fit_transform(X, **pairs)
    placed = model.transform(X[:5])
    for frame in (fitted, placed):
        assert isinstance(frame, pd.DataFrame)
        assert frame.columns.tolist() == model.get_feature_names_out().tolist()
    np.testing.assert_array_equal(fitted.to_numpy(), model.memberships_)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", [m for m, spec in METHODS.items() if spec.input != "texts"])
def test_sparse_input_with_64_bit_indices_fits_as_with_32_bit(name):
    """numpy's default integers give a matrix built from (row, col) arrays 64-bit indices;
    scikit-learn's k-means takes 32-bit ones only, and said so in its own words."""
    spec = METHODS[name]
    X = sp.csr_matrix(_mixed_topic_counts(40))
    wide = X.copy()
    wide.indices, wide.indptr = X.indices.astype(np.int64), X.indptr.astype(np.int64)
    pairs = {"must_link": [(0, 1)], "cannot_link": [(2, 3)]} if spec.constraints else {}
    options = {k: v for k, v in {"n_init": 2, "max_iter": 50}.items() if k in spec.parameters()}
    fits = [make_estimator(name, 3, random_state=0, **options).fit(data, **pairs)
            for data in (X, wide)]
    np.testing.assert_array_equal(fits[1].labels_, fits[0].labels_)
    if spec.places_new_documents:
        np.testing.assert_array_equal(fits[1].predict(wide), fits[0].predict(X))


@pytest.mark.parametrize("name", [m for m in METHODS if METHODS[m].input != "texts"])
def test_a_fit_with_empty_clusters_says_so(name):
    # 20 copies of one document in 3 clusters: NMF, CF and LCCF put them in one, silently
    X = np.tile([[1.0, 2.0, 0.0, 3.0]], (20, 1))
    X[0, 2] = 1.0      # one term not in every document, for the methods that weigh tf-idf
    X = sp.csr_matrix(X)
    estimator = make_estimator(name, 3, random_state=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            labels = estimator.fit_predict(X)
        except ValueError:
            return      # refused, with its own message
    found = np.unique(labels[labels >= 0]).size
    said = [w for w in caught if issubclass(w.category, FewerClustersWarning)
            or "distinct clusters" in str(w.message)]
    assert (found < 3) == bool(said), (found, [str(w.message) for w in caught])
    ours = [w for w in said if issubclass(w.category, FewerClustersWarning)]
    assert len(ours) <= 1                   # not once more for each member of a consensus
    if estimator._kmeans_warns_fewer_clusters:      # scikit-learn's says it (LDA-Km: twice)
        assert not ours
    assert all(w.filename == __file__ for w in ours)      # the user's line, not docnmf's


def test_cluster_corpus_names_empty_clusters_without_the_estimators_warning():
    from docnmf import Corpus, cluster_corpus

    corpus = Corpus(texts=["apple banana"] * 10 + ["cherry durian"] * 10, labels=None,
                    ids=[f"d{i}" for i in range(20)])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run = cluster_corpus(corpus, 3, method="nmf", vectorizer_params={"min_df": 1})
    assert 0 in run.sizes
    assert not [w for w in caught if issubclass(w.category, FewerClustersWarning)]


@pytest.mark.parametrize("name, param, value", [
    ("fsnmf", "alpha", None), ("fsnmf", "alpha", "x"),
    ("plsi", "beta", None), ("plsi", "beta", "x"),
    ("kernel-km", "gamma", "x"), ("kernel-km", "gamma", float("inf")),
    ("ss-kk", "gamma", "x"), ("ss-kk", "gamma", float("inf")),
])
def test_a_weight_that_is_no_number_is_named(name, param, value, planted):
    # float(None) and float('x') raised naming nothing, and gamma = inf made the Gaussian
    # kernel NaN (0 * inf), which stopped in ARPACK or in numpy's checks
    X, _ = planted(30, 20, 3, seed=1)
    data = np.round(5 * X) if METHODS[name].input == "counts" else X
    with pytest.raises(ValueError, match=f"^{param} must"):
        make_estimator(name, 3, random_state=0).set_params(**{param: value}).fit(data)


@pytest.mark.parametrize("make", [
    lambda **kw: make_estimator("ss-kk", 3, random_state=0, **kw),
    lambda **kw: make_estimator("ss-snc", 3, random_state=0, **kw),
    lambda **kw: make_estimator("ssnmf-paper", 3, constraint_mode="cost", n_init=2,
                                random_state=0, **kw),
], ids=["ss-kk", "ss-snc", "ssnmf-similarity-cost"])
@pytest.mark.parametrize("param", ["reward", "penalty"])
def test_an_infinite_constraint_weight_is_named(make, param, planted):
    # inf stopped in numpy ('array must not contain infs or NaNs') for SS-KK and SS-SNC, and
    # SS-NMF's similarity form said the input overflows and should be divided by its largest
    # entry
    X, _ = planted(30, 20, 3, seed=1)
    with pytest.raises(ValueError, match=f"^{param} must be a finite"):
        make(**{param: float("inf")}).fit(X, must_link=[(0, 1)], cannot_link=[(2, 3)])


@pytest.mark.parametrize("name, param, value, message", [
    ("fsnmf", "alpha", -0.5, "alpha must lie in (0, 1), got -0.5"),
    ("fsnmf", "alpha", float("nan"), "alpha must be a number, got nan"),
    ("plsi", "beta", -1.0, "beta must be in (0, 1], got -1.0"),
    ("plsi", "beta", float("nan"), "beta must be a number, got nan"),
])
def test_a_weight_below_its_range_is_told_the_range(name, param, value, message, planted):
    # the number check made a negative alpha or beta "a non-negative number", as if 0 or 2
    # would do, where it was told the range the value must lie in
    X, _ = planted(30, 20, 3, seed=1)
    data = np.round(5 * X) if METHODS[name].input == "counts" else X
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        make_estimator(name, 3, random_state=0).set_params(**{param: value}).fit(data)
