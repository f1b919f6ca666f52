"""The Python API's answers to arguments a scikit-learn user gives by habit or by mistake:
a DataFrame of texts, integer labels, 1-based labels, negative counts and tolerances, numpy
dtypes, strings where sequences are due, pairs that cannot all be kept."""

import warnings

import numpy as np
import pandas as pd
import pytest

from docnmf import Corpus, DocumentVectorizer, load_demo
from docnmf.cluster.consensus import ConsensusClustering
from docnmf.cluster.lccf import LCCFClustering
from docnmf.cluster.nma import NMAClustering
from docnmf.cluster.nmf import NMFClustering
from docnmf.cluster.ssnmf import SSNMFClustering
from docnmf.constraints import ConstraintWarning
from docnmf.experiments import DataCondition, Protocol, ProtocolError
from docnmf.methods import make_estimator
from docnmf.pipeline import cluster_corpus
from docnmf.summarize import keywords_report, summarize_texts
from docnmf.summarize.api import pick_documents, summarize_clusters
from docnmf.text.weighting import TfidfWeighting


@pytest.fixture(scope="module")
def demo():
    return load_demo()


@pytest.fixture(scope="module")
def tfidf(demo):
    return DocumentVectorizer().fit_transform(demo.texts)


def test_a_data_frame_of_texts_is_refused_not_read_as_its_header(demo):
    """Iterating a DataFrame gives its column names: 80 documents became one, the header."""
    df = pd.DataFrame({"article body": demo.texts})
    fitted = DocumentVectorizer().fit(demo.texts)
    for call in (DocumentVectorizer().fit_transform, fitted.transform,
                 NMAClustering(2, n_init=1).fit):
        with pytest.raises(TypeError, match=r"got a DataFrame \(its columns: article body\); "
                                            r"pass its column of texts, e.g. df\['article body'\]"):
            call(df)
    assert fitted.transform(df["article body"]).shape[0] == 80


def test_nma_given_one_documents_by_terms_matrix_says_what_it_takes(tfidf):
    with pytest.raises(TypeError, match="NMA takes each document as a matrix of its own"):
        NMAClustering(2).fit(tfidf.toarray())


def test_integer_labels_are_labels(demo):
    """Corpus(texts, [0, 0, 1, 1], ids): TypeError: 'int' object is not iterable."""
    texts = ["stars and planets", "planets and stars", "bread in the oven", "oven bread"]
    corpus = Corpus(texts, [0, 0, 1, np.int64(1)], ["a", "b", "c", "d"])
    assert corpus.labels == [("0",), ("0",), ("1",), ("1",)] and corpus.classes == ["0", "1"]
    assert Corpus(texts, [float("nan"), None, ("x", 2), "y"], list("abcd")).labels \
        == [(), (), ("x", "2"), ("y",)]
    with pytest.raises(TypeError, match="the label of document 0 is float 1.5"):
        Corpus(texts, [1.5, 0, 0, 0], list("abcd"))


def test_no_labels_at_all_is_an_unlabelled_corpus():
    """Corpus(texts, None, ids): TypeError: object of type 'NoneType' has no len()."""
    corpus = Corpus(["stars and planets", "bread in the oven"], None, ["a", "b"])
    assert corpus.labels == [(), ()] and not corpus.is_labelled


def test_summaries_refuse_what_they_cannot_honour(demo):
    texts = demo.texts[:10]
    with pytest.raises(ValueError, match="length must look like '665b'"):
        summarize_texts(texts, length=None)        # returned '' without a word
    memberships = np.full((10, 2), 0.5)
    with pytest.raises(ValueError, match="labels must be clusters 0 to 1 \\(or -1: none\\); "
                                         "got 2"):
        summarize_clusters(texts, np.repeat([1, 2], 5), memberships, 2, length="20w")
    with pytest.raises(ValueError, match="max_documents must be None or an integer >= 0"):
        summarize_clusters(texts, np.repeat([0, 1], 5), memberships, 2, length="20w",
                           max_documents=-1)
    with pytest.raises(ValueError, match="max_documents"):
        pick_documents(5, -1, scores=np.arange(5.0))
    assert pick_documents(5, 0).tolist() == [0, 1, 2, 3, 4]


def test_keywords_say_why_no_term_tells_documents_apart():
    doc = "The central bank raised interest rates again as inflation stayed high in autumn."
    with pytest.raises(ValueError, match="every one of the 8 index terms is in every document"):
        keywords_report([doc, doc], 1)
    with pytest.raises(ValueError, match="n_keywords must be a positive integer, got 0"):
        keywords_report([doc, "Bread and butter.", "Butter bread."], 2, n_keywords=0)


def test_tfidf_transform_refuses_negative_counts_as_fit_does():
    """Sublinear tf made a negative count NaN, and the document an all-zero row."""
    weighting = TfidfWeighting(tf="sublinear").fit(np.array([[1.0, 1, 0], [0, 1, 1]]))
    with pytest.raises(ValueError, match="^Negative values in data passed to TfidfWeighting: term"):
        weighting.transform(np.array([[-3.0, 2, 1]]))


def test_column_names_are_the_fitted_clusters_not_the_parameter(tfidf):
    model = NMFClustering(5, n_init=1, random_state=0).fit(tfidf)
    model.set_params(n_clusters=7)             # not refitted
    assert len(model.get_feature_names_out()) == 5
    model.set_output(transform="pandas")
    assert model.transform(tfidf[:3]).shape == (3, 5)


def test_cluster_corpus_checks_its_arguments_before_any_work(demo):
    for kwargs, message in [
            ({"n_keywords": -1}, "n_keywords must be an integer >= 0, got -1"),
            ({"n_representatives": 2.5}, "n_representatives must be an integer >= 0"),
            ({"fallback": "no-such-method"}, "unknown method 'no-such-method'"),
            ({"estimator_params": {"random_state": 3}},
             r"give the seed as cluster_corpus\(random_state=...\)")]:
        with pytest.raises(ValueError, match=message):
            cluster_corpus(demo, 5, "nmf", **kwargs)


@pytest.mark.parametrize("field, value, message", [
    ("methods", "nmf", r"methods must be a sequence \(e.g. \('nmf',\)\), got str 'nmf'"),
    ("weightings", "cluster", "weightings must be a sequence"),
    ("k_values", 3, r"k_values must be a sequence \(e.g. \(3,\)\), got int 3"),
    ("runs", 1.5, "runs must be an integer >= 0, got 1.5"),
    ("seed", None, "seed must be an integer >= 0, got None"),
])
def test_a_protocol_refuses_a_string_or_number_where_a_sequence_is_due(field, value, message):
    """'nmf' was iterated: "unknown method 'n'"."""
    plan = {"condition": DataCondition("demo", "demo"), "methods": ("nmf",), "k_values": (2,),
            "runs": 1, field: value}
    with pytest.raises(ProtocolError, match=message):
        Protocol(**plan)
    plan[field] = {"methods": ["nmf"], "weightings": ["cluster"], "k_values": [2, 3]}.get(
        field, 1)
    assert Protocol(**plan).tasks()


def test_a_negative_tol_runs_every_iteration_without_a_warning(tfidf):
    """The docstrings say tol < 0 runs all max_iter iterations; the fit then warned that it
    had not converged."""
    for est in (NMFClustering(3, tol=-1, max_iter=7, n_init=1, random_state=0),
                LCCFClustering(3, tol=-1, max_iter=7, n_init=1, random_state=0)):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert est.fit(tfidf).n_iter_ == 7


def test_numpy_dtypes_name_the_precision(tfidf):
    """LCCF took dtype=np.float32, NMF refused it."""
    ref = NMFClustering(5, dtype="float32", n_init=1, random_state=0).fit(tfidf).labels_
    for dtype in (np.float32, np.dtype("float32")):
        got = NMFClustering(5, dtype=dtype, n_init=1, random_state=0).fit(tfidf).labels_
        assert np.array_equal(got, ref)
    for bad in (None, np.int32, "float16"):
        with pytest.raises(ValueError, match="dtype must be one of"):
            NMFClustering(5, dtype=bad).fit(tfidf)


def test_messages_name_the_call_the_user_made(demo):
    vectorizer = DocumentVectorizer()
    counts = vectorizer.fit_count(demo.texts)
    model = ConsensusClustering(5, n_init=1, random_state=0).fit(counts)
    with pytest.raises(ValueError, match=r"ConsensusClustering.predict \(input X: term counts\)"):
        model.predict(-vectorizer.count(demo.texts[:2]))
    tfidf = vectorizer.transform(demo.texts)
    with pytest.warns(UserWarning, match="^SSNMFClustering weighs term counts itself") as said:
        SSNMFClustering(5, n_init=1, random_state=0).fit(tfidf, must_link=[(0, 5)])
    assert all(w.filename == __file__ for w in said if "weighs term counts" in str(w.message))


@pytest.mark.parametrize("method", ["ssnmf-ncw", "ssnmf", "ss-kk"])
def test_pairs_a_result_breaks_are_warned_of(tfidf, demo, method):
    """Seven documents pairwise cannot-linked into five clusters: some pairs were joined
    without a word."""
    X = DocumentVectorizer().fit_count(demo.texts) if method == "ssnmf" else tfidf
    cannot = [(i, j) for i in range(7) for j in range(i + 1, 7)]
    with pytest.warns(ConstraintWarning, match=r"the result joins \d+ of the 21 cannot-link "
                                               "pairs") as said:
        model = make_estimator(method, 5, random_state=0, n_init=2).fit(X, cannot_link=cannot)
    assert model.constraints_.violations(model.labels_)[1] > 0
    assert said[0].filename == __file__
    # pairs that can all be kept: no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConstraintWarning)
        make_estimator(method, 5, random_state=0, n_init=2).fit(X, cannot_link=cannot[:4])


def test_every_public_method_of_the_exported_classes_says_what_it_does():
    import inspect

    import docnmf

    undocumented = [f"{name}.{attr}" for name in docnmf.__all__
                    if inspect.isclass(cls := getattr(docnmf, name))
                    for attr, member in inspect.getmembers(cls)
                    if not attr.startswith("_") and inspect.isfunction(member)
                    and not inspect.getdoc(member)]
    assert undocumented == []


def test_the_package_lists_its_public_names_and_no_helper_of_its_own():
    """dir(docnmf) offered docnmf.importlib."""
    import subprocess
    import sys

    code = "import docnmf; print(' '.join(n for n in dir(docnmf) if not n.startswith('_')))"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout.split()
    import docnmf

    assert shown == sorted(n for n in docnmf.__all__ if not n.startswith("_"))
