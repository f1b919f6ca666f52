"""DaskNMFClustering against NMFClustering: the same clusters from the same seed."""

from __future__ import annotations

import warnings

import dask.array as da
import numpy as np
import pytest
import scipy.sparse as sp

from docnmf.cluster.nmf import NMFClustering
from docnmf.distributed import DaskNMFClustering

from ..conftest import make_planted, run_python


def unequal_clusters(sizes=(20, 35, 50, 65), n_terms=50, seed=3, noise=0.3):
    """Planted clusters of unequal sizes: singular values well apart, so NNDSVD is well posed."""
    rng = np.random.default_rng(seed)
    blocks = np.array_split(np.arange(n_terms), len(sizes))
    rows = []
    for c, size in enumerate(sizes):
        X = noise * rng.random((size, n_terms))
        X[:, blocks[c]] += rng.random((size, len(blocks[c])))
        rows.append(X)
    X = np.vstack(rows)
    X[X < noise * 0.5] = 0.0
    return sp.csr_matrix(X)


def disjoint_groups(sizes=(40, 30, 26, 4), n_terms=48, seed=4):
    """Groups of documents on disjoint terms, one of four documents: an outlier group.

    Under NCW the leading singular value 1 repeats once per group, so which
    singular vectors an SVD returns is up to rounding unless a basis is fixed.
    """
    rng = np.random.default_rng(seed)
    blocks = np.array_split(rng.permutation(n_terms), len(sizes))
    X = np.zeros((sum(sizes), n_terms))
    rows = np.split(rng.permutation(sum(sizes)), np.cumsum(sizes)[:-1])
    for docs, terms in zip(rows, blocks):
        X[np.ix_(docs, terms)] = rng.random((len(docs), len(terms))) * \
            (rng.random((len(docs), len(terms))) < 0.6)
    return sp.csr_matrix(X)


@pytest.mark.parametrize("n_terms", [48, 300])
def test_same_ncw_fit_as_in_memory_when_groups_share_no_term(client, n_terms):
    """The case the planted matrices below miss: before the basis of a repeated singular value
    was fixed, the two NNDSVDA starts differed, and so did the fits."""
    X = disjoint_groups(n_terms=n_terms)
    common = {"n_clusters": 4, "weighting": "ncw", "max_iter": 30, "tol": 1e-6,
              "random_state": 1}
    memory = NMFClustering(**common).fit(X)
    dist = DaskNMFClustering(client=client, **common).fit(
        da.from_array(X, chunks=(33, n_terms), asarray=False))
    np.testing.assert_allclose(dist.loss_history_, memory.loss_history_, rtol=1e-8)
    np.testing.assert_allclose(dist.memberships_.compute(), memory.memberships_, atol=1e-8)
    np.testing.assert_array_equal(dist.labels_.compute(), memory.labels_)


@pytest.mark.parametrize("params", [
    {"solver": "hals", "weighting": "ncw", "init": "nndsvda"},
    {"solver": "mu", "weighting": "none", "init": "random", "n_init": 3},
    {"solver": "hals", "weighting": "none", "init": "random", "n_init": 2},
    {"solver": "mu", "weighting": "ncw", "init": "nndsvd"},
])
def test_same_fit_as_in_memory(client, params):
    X = unequal_clusters()
    common = dict(n_clusters=4, max_iter=25, tol=1e-6, random_state=5, **params)
    memory = NMFClustering(**common).fit(X)
    Xd = da.from_array(X, chunks=(50, 50), asarray=False)
    dist = DaskNMFClustering(client=client, **common).fit(Xd)
    np.testing.assert_array_equal(dist.labels_.compute(), memory.labels_)
    np.testing.assert_allclose(dist.restart_objectives_, memory.restart_objectives_, rtol=1e-8)
    assert dist.n_iter_ == memory.n_iter_
    assert np.abs(dist.components_ - memory.components_).max() <= 1e-8
    np.testing.assert_allclose(dist.memberships_.compute(), memory.memberships_, atol=1e-8)
    assert len(dist.iteration_times_) >= dist.n_iter_
    # new documents, block by block, as in memory
    new, _ = make_planted(30, 50, 4, seed=9, noise=0.3)
    new = sp.csr_matrix(new)
    got = dist.transform(da.from_array(new, chunks=(10, 50), asarray=False)).compute()
    np.testing.assert_allclose(got, memory.transform(new), atol=1e-8)
    np.testing.assert_array_equal(
        dist.predict(da.from_array(new, chunks=(10, 50), asarray=False)).compute(),
        memory.predict(new))


def test_refuses_negative_input_and_float32(client):
    X = sp.csr_matrix(np.array([[1.0, -1.0], [2.0, 0.0]]))
    with pytest.raises(ValueError, match="Negative"):
        DaskNMFClustering(2, client=client).fit(X)
    with pytest.raises(ValueError, match="float64"):
        DaskNMFClustering(2, dtype="float32", client=client).fit(abs(X))
    # as in memory: zeros have no factorization and give no clusters
    for estimator in (DaskNMFClustering(2, client=client), NMFClustering(2)):
        with pytest.raises(ValueError, match="X is all zero; there is nothing to cluster"):
            estimator.fit(sp.csr_matrix((5, 3)))


@pytest.mark.parametrize("bad", [np.nan, np.inf])
@pytest.mark.parametrize("form", ["csr", "dask"])
def test_nan_and_infinity_are_refused_as_in_memory(client, bad, form):
    """They came out as 'X was multiplied by 2**0 ... since its largest entry, nan', then an
    error from deep in Dask."""
    from docnmf.distributed import DaskCFClustering

    X = sp.random(40, 10, density=0.3, random_state=0, format="csr")
    X.data[3] = bad
    data = X if form == "csr" else da.from_array(X, chunks=(20, 10), asarray=False)
    for estimator in (DaskNMFClustering(2, client=client), DaskCFClustering(2, client=client)):
        with warnings.catch_warnings(record=True) as said, \
                pytest.raises(ValueError, match="Input X contains NaN or infinity"):
            warnings.simplefilter("always")
            estimator.fit(data)
        assert not [w for w in said if "multiplied" in str(w.message)]


def test_an_estimator_holding_a_client_says_why_it_cannot_go_to_another_process(client):
    """GridSearchCV(n_jobs=2) sends each fit to another process: pickle failed naming neither
    the estimator nor a way out."""
    import copy
    import pickle

    from sklearn.base import clone

    from docnmf.distributed import DaskCFClustering

    for kind in (DaskNMFClustering, DaskCFClustering):
        with pytest.raises(TypeError, match=f"{kind.__name__} holds a Dask client, which cannot "
                                            "be sent to another process .*use n_jobs=1"):
            pickle.dumps(kind(2, client=client))
        # without one (the process's default client), it goes as any estimator does
        assert pickle.loads(pickle.dumps(kind(2))).get_params()["n_clusters"] == 2
        # copies in this process hold the same client, as clones do
        original = kind(2, client=client)
        for copied in (copy.copy(original), copy.deepcopy(original), clone(original)):
            assert copied.client is client and copied is not original


def test_a_process_without_a_client_is_told_why_it_may_have_none():
    """A process scikit-learn starts for n_jobs > 1 has no client: 'no Dask client' said
    neither why nor what to do."""
    code = ("import numpy as np\n"
            "from docnmf.distributed import DaskNMFClustering\n"
            "try:\n"
            "    DaskNMFClustering(2).fit(np.eye(3))\n"
            "except ValueError as exc:\n"
            "    print(exc)\n")
    done = run_python(code)
    assert done.stdout.strip() == (
        "no Dask client in this process: start one (distributed.Client(...)) or pass client=; a "
        "process that scikit-learn or joblib starts for n_jobs > 1 has none: use n_jobs=1, the "
        "Dask cluster runs each fit in parallel already"), done.stderr


def test_a_closed_client_is_named(tmp_path):
    """The cluster closed before the fit: AttributeError: 'NoneType' object has no attribute
    'ncores'."""
    from .conftest import start_cluster

    cluster, closed = start_cluster(n_workers=1)
    cluster.close()
    closed.close()
    with pytest.raises(ValueError, match="the Dask client is closed"):
        DaskNMFClustering(2, client=closed).fit(sp.csr_matrix(np.eye(4)))


@pytest.mark.parametrize("retries", [-1, None, 1.5, True])
def test_retries_that_are_no_count_are_refused(client, retries):
    """retries=-1 made fit return None without fitting anything."""
    X = sp.csr_matrix(np.eye(4) + 0.1)
    with pytest.raises(ValueError, match="retries must be a whole number >= 0"):
        DaskNMFClustering(2, retries=retries, client=client).fit(X)


def test_a_fit_on_dask_saves_as_the_in_memory_model_it_stands_for(client, tmp_path):
    """save refused it as 'cannot place new documents', though its predict placed them."""
    import dask.bag as db

    import docnmf
    from docnmf.corpus.demo import load_demo
    from docnmf.distributed import DaskVectorizer
    from docnmf.model import ClusteringModel, ModelSaveError

    texts = load_demo().texts
    vec = DaskVectorizer(client=client)
    X = vec.fit_transform(db.from_sequence(texts, npartitions=3))
    model = DaskNMFClustering(5, weighting="ncw", random_state=0, client=client).fit(X)
    new = [texts[i] for i in (0, 20, 40, 60, 79)] + ["stars and a telescope at night"]
    expected = model.predict(vec.transform(db.from_sequence(new, npartitions=2))).compute()
    docnmf.save(ClusteringModel(model, vec), tmp_path / "model")
    back = docnmf.load(tmp_path / "model")
    assert type(back.estimator) is NMFClustering
    np.testing.assert_array_equal(back.place(new).labels, expected)
    assert back.vectorizer.vocabulary_ == vec.vocabulary_
    docnmf.save(model, tmp_path / "bare")                  # the estimator alone: matrices in
    bare = docnmf.load(tmp_path / "bare")
    np.testing.assert_array_equal(bare.predict(X.compute()), model.labels_.compute())
    with pytest.raises(ModelSaveError, match="is not fitted"):
        docnmf.save(DaskNMFClustering(5, client=client), tmp_path / "unfitted")


def test_a_refit_without_ncw_keeps_no_column_sums_of_an_earlier_fit(client, tmp_path):
    """As NMFClustering's: refitted with weighting="none" after an NCW fit, it kept that fit's
    ncw_column_sums_, which its in-memory model took and a saved model carried."""
    import docnmf

    X = da.from_array(make_planted(30, 12, 2, seed=0)[0], chunks=(10, 12))
    model = DaskNMFClustering(2, weighting="ncw", n_init=1, max_iter=20, random_state=0,
                              client=client).fit(X)
    assert hasattr(model, "ncw_column_sums_")
    model.set_params(weighting="none").fit(X)
    assert not hasattr(model, "ncw_column_sums_")
    docnmf.save(model, tmp_path / "model")
    assert not hasattr(docnmf.load(tmp_path / "model"), "ncw_column_sums_")


def test_estimators_holding_a_client_clone_sharing_it(client):
    """clone (GridSearchCV, cross_val_score) deep-copied the client: 'cannot pickle
    _asyncio.Task'."""
    from sklearn.base import clone

    from docnmf.distributed import DaskCFClustering, DaskVectorizer

    for estimator in (DaskNMFClustering(3, tol=1e-3, client=client),
                      DaskCFClustering(3, n_init=2, client=client),
                      DaskVectorizer(min_df=1, client=client)):
        twin = clone(estimator)
        assert type(twin) is type(estimator) and twin is not estimator
        assert twin.client is client
        assert twin.get_params() == estimator.get_params()
    X = sp.csr_matrix(np.eye(6) + 0.1)
    fitted = clone(DaskNMFClustering(2, random_state=0, client=client)).fit(X)
    assert fitted.labels_.compute().shape == (6,)


@pytest.mark.parametrize("exponent", [-700, 300])
def test_entries_out_of_range_are_scaled_as_in_memory(client, exponent):
    """On Dask they were not: 1e-300 lost a third of the accuracy without a word, 1e300
    overflowed."""
    X = sp.csr_matrix(unequal_clusters()) * 2.0**exponent
    common = {"n_clusters": 4, "max_iter": 25, "tol": 1e-6, "random_state": 5,
              "weighting": "ncw"}
    with pytest.warns(UserWarning, match=r"X was multiplied by 2\*\*") as said:
        memory = NMFClustering(**common).fit(X)
    with pytest.warns(UserWarning, match=r"X was multiplied by 2\*\*") as said_dask:
        dist = DaskNMFClustering(client=client, **common).fit(
            da.from_array(X, chunks=(50, 50), asarray=False))
    assert str(said_dask[0].message).replace("DaskNMFClustering", "NMFClustering") == \
        str(said[0].message)
    assert dist.scale_exponent_ == memory.scale_exponent_ != 0
    np.testing.assert_array_equal(dist.labels_.compute(), memory.labels_)
    np.testing.assert_allclose(dist.restart_objectives_, memory.restart_objectives_, rtol=1e-8)
    new = sp.csr_matrix(make_planted(30, 50, 4, seed=9, noise=0.3)[0]) * 2.0**exponent
    np.testing.assert_array_equal(
        dist.predict(da.from_array(new, chunks=(10, 50), asarray=False)).compute(),
        memory.predict(new))


def test_placing_with_an_unfitted_model_is_refused_at_once(client):
    """predict gave a lazy array; the NotFittedError, naming NMFClustering, came at compute."""
    from sklearn.exceptions import NotFittedError

    X = da.from_array(sp.csr_matrix(np.eye(4) + 0.1), chunks=(2, 4), asarray=False)
    with pytest.raises(NotFittedError, match="This DaskNMFClustering instance is not fitted"):
        DaskNMFClustering(2, client=client).predict(X)


def test_documents_without_terms_are_named_as_in_memory(client):
    """DaskNMFClustering gave 3 empty documents of 7 cluster 0 without a word, where the
    in-memory estimator says their labels come from ties."""
    from docnmf.distributed import DaskCFClustering

    X = unequal_clusters().tolil()
    X[[3, 60, 61]] = 0
    X = sp.csr_matrix(X)
    X.eliminate_zeros()
    X[60, 0] = 0.0      # a zero stored in one of them: still a document without terms
    for estimator in (DaskNMFClustering(n_clusters=4, max_iter=5, random_state=0, client=client),
                      DaskCFClustering(n_clusters=4, max_iter=5, random_state=0, client=client)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            estimator.fit(da.from_array(X, chunks=(50, 50), asarray=False))
        said = [str(w.message) for w in caught if "have no terms" in str(w.message)]
        assert said == [(f"{type(estimator).__name__}: 3 of the {X.shape[0]} documents have "
                         "no terms (all-zero rows); their labels come from ties, not content: "
                         "leave them out before fitting (docnmf.cluster_corpus and docnmf "
                         "cluster label them -1)")]
        assert all(w.filename == __file__ for w in caught if "have no terms" in str(w.message))
