"""The result of cluster_corpus: unassigned empty documents, memberships, representatives,
diagnostics and the saved model."""

from __future__ import annotations

import csv
import hashlib
import json
import logging
import re

import numpy as np
import pytest
import scipy.sparse as sp
import Stemmer
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

import docnmf
from docnmf import Corpus, diagnostics
from docnmf._estimator import representative_documents
from docnmf.corpus.demo import load_demo
from docnmf.pipeline import (
    assign_corpus,
    centroid_similarity,
    cluster_corpus,
    cluster_table,
    format_summary,
    write_run,
)


def _with(corpus: Corpus, texts: list[str], ids: list[str], label=()) -> Corpus:
    return Corpus(texts=corpus.texts + texts, labels=corpus.labels + [label] * len(texts),
                  ids=corpus.ids + ids, metadata=dict(corpus.metadata))


def test_empty_documents_stay_out_of_the_fit_and_unassigned(tmp_path, caplog):
    demo = load_demo()
    corpus = _with(demo, ["the and of", "", "12 34 !!"], ["sw", "blank", "digits"],
                   ("football",))
    with caplog.at_level(logging.WARNING, logger="docnmf"):
        run = cluster_corpus(corpus, 5, "nmf-ncw")
    n = len(demo)
    assert run.model.n_features_in_ == run.X.shape[1]
    assert run.model.labels_.shape == (n,)            # the fit saw the 80 real documents only
    np.testing.assert_array_equal(run.labels[n:], [-1, -1, -1])
    assert not run.memberships[n:].any()
    assert run.sizes.sum() == n
    assert run.diagnostics["unassigned"]["ids"] == ["sw", "blank", "digits"]
    assert "3 documents with no index term left after preprocessing, not assigned" in caplog.text
    # metrics leave the three out, and say what counting them as errors would give
    m = run.metrics
    assert m["n_scored"] == n and m["n_unassigned"] == 3
    assert m["accuracy_all_documents"] == pytest.approx(m["accuracy"] * n / (n + 3))
    paths = write_run(run, tmp_path)
    rows = list(csv.DictReader(open(tmp_path / "assignments.csv")))
    assert [(r["id"], r["cluster"], r["membership"]) for r in rows[n:]] == \
        [("sw", "-1", "0.000000"), ("blank", "-1", "0.000000"), ("digits", "-1", "0.000000")]
    assert list(csv.reader(open(tmp_path / "unassigned.csv")))[1] == \
        ["sw", "no index term left after preprocessing"]
    assert tmp_path / "unassigned.csv" in paths


def test_too_few_documents_with_terms_says_when_idf_weighed_their_terms_out():
    """Every document held "subject", the one term --min-df 1.0 keeps: idf log(n / n) = 0 left
    no document with a weight, and the error said only that no index term was left."""
    from docnmf.corpus import CorpusError

    corpus = Corpus(texts=[f"subject {w}" for w in ("alpha", "beta", "gamma", "delta")],
                    ids=list("abcd"), labels=[()] * 4)
    with pytest.raises(CorpusError, match=r"only 0 of the 4 documents have index terms left "
                                          r"after preprocessing; 2 clusters need at least as "
                                          r"many: 4 documents have terms, but only terms of every "
                                          r"document, which weigh 0 under idf 'xu'"):
        cluster_corpus(corpus, 2, "nmf", vectorizer_params={"min_df": 1.0, "max_df": 1.0})
    # not said where the terms are gone
    with pytest.raises(CorpusError, match=r"at least as many$"):
        cluster_corpus(Corpus(texts=["subject a", "the of", "", "x"], ids=list("abcd"),
                              labels=[()] * 4), 2, "nmf",
                       vectorizer_params={"min_df": 1, "max_df": 1.0})


def test_a_partly_labelled_corpus_is_scored_on_its_labels_and_says_so():
    demo = load_demo()
    labels = [labs if i % 2 else () for i, labs in enumerate(demo.labels)]
    corpus = Corpus(texts=demo.texts, labels=labels, ids=demo.ids)
    run = cluster_corpus(corpus, 5, "nmf-ncw")
    assert run.metrics["n_scored"] == 40 and run.metrics["n_unlabelled"] == 40
    assert "(40 documents; 40 without a label not scored)" in format_summary(run)
    assert "n_unlabelled" not in cluster_corpus(demo, 5, "nmf-ncw").metrics


def test_too_few_documents_with_terms_is_an_error():
    corpus = Corpus(texts=["galaxy stars", "galaxy stars", "the", "of"], labels=[()] * 4,
                    ids=list("abcd"))
    with pytest.raises(docnmf.CorpusError, match="only 2 of the 4 documents"):
        cluster_corpus(corpus, 3, "nmf", vectorizer_params={"min_df": 1})


@pytest.mark.parametrize("method", ["nmf-ncw", "km", "lccf", "nma"])
def test_memberships_file_and_representatives_ranked_by_membership(method, tmp_path):
    corpus = load_demo()
    run = cluster_corpus(corpus, 5, method, estimator_params={"n_init": 2})
    write_run(run, tmp_path)
    with np.load(tmp_path / "memberships.npz", allow_pickle=False) as npz:
        M, ids = npz["memberships"], npz["ids"]
    np.testing.assert_array_equal(M, run.memberships)
    assert ids.tolist() == corpus.ids and M.shape == (80, 5)
    np.testing.assert_allclose(M.sum(axis=1), 1.0)
    assert np.any(M.max(axis=1) < 0.999), "memberships are more than the labels"
    rows = {r["id"]: float(r["membership"]) for r in csv.DictReader(open(tmp_path /
                                                                         "assignments.csv"))}
    for c, reps in enumerate(run.representatives):
        members = np.flatnonzero(run.labels == c)
        best = np.sort(M[members, c])[::-1][:len(reps)]
        np.testing.assert_allclose([rows[corpus.ids[i]] for i in reps], best, atol=1e-6)


def test_ties_in_membership_go_to_the_document_nearest_its_cluster_mean():
    texts = ["apple banana cherry", "apple banana", "apple banana cherry date",
             "zebra yak xylophone", "zebra yak", "zebra yak xylophone walrus"]
    corpus = Corpus(texts=texts, labels=[()] * 6, ids=[f"d{i}" for i in range(6)])
    run = cluster_corpus(corpus, 2, "nmf", vectorizer_params={"min_df": 1, "max_df": 1.0})
    run.memberships[:] = np.eye(2)[run.labels]       # every member ties
    reps = representative_documents(run.memberships, run.labels, 3,
                                    tiebreak=centroid_similarity(run.X, run.labels, 2))
    sims = centroid_similarity(run.X, run.labels, 2)
    for c, members in enumerate(reps):
        assert [sims[i] for i in members] == sorted(sims[run.labels == c], reverse=True)


def test_diagnostics_duplicates_small_clusters_and_hints(caplog):
    demo = load_demo()
    # two documents on a subject of their own: the sixth cluster is theirs alone
    extra = [demo.texts[0], demo.texts[0], "violin cello orchestra symphony concerto " * 5,
             "violin cello orchestra symphony sonata " * 5]
    corpus = _with(demo, extra, ["copy1", "copy2", "music1", "music2"])
    with caplog.at_level(logging.WARNING, logger="docnmf"):
        run = cluster_corpus(corpus, 6, "nmf", vectorizer_params={"min_df": 1})
    d = run.diagnostics
    assert d["duplicates"]["groups"] == 1 and d["duplicates"]["documents"] == 2
    assert d["duplicates"]["examples"] == [[demo.ids[0], "copy1", "copy2"]]
    assert "2 documents repeating another exactly (1 group)" in caplog.text
    music = int(run.labels[-1])
    found = {c["cluster"]: c for c in d["small_clusters"]}
    assert found[music]["size"] == 2
    assert sorted(found[music]["examples"]) == ["music1", "music2"]     # strongest first
    assert all(c["size"] < 3 for c in d["small_clusters"])
    assert f"cluster {music} has only 2 of the documents" in caplog.text
    assert caplog.text.count("small clusters often hold documents") == 1   # once, not per cluster
    assert not d["vocabulary"]["stemmed"] and not d["vocabulary"]["lowercased"]


def test_a_menu_of_short_lines_repeated_across_pages_is_boilerplate():
    """Saved pages of three sites, whose menus read one item a line: no line had five words,
    and nothing was said of the menus' words, in a third of the pages each."""
    from docnmf.corpus.formats import page_text

    demo = load_demo()
    menus = [["Home", "Markets", "Companies", "Opinion", "Video"],
             ["News", "World", "Business", "Energy", "Log in"],
             ["Home", "Agriculture", "Metals", "Freight", "Contact"]]
    pages = [page_text("<!DOCTYPE html><html><body><nav><ul>"
                       + "".join(f"<li><a href='/{m}'>{m}</a></li>" for m in menus[i % 3])
                       + f"</ul></nav><article><p>{text}</p></article></body></html>")
             for i, text in enumerate(demo.texts)]
    found = diagnostics.boilerplate(pages)
    assert found["lines"] == 6 and found["shares"] == [0.325, 0.338]   # 2 runs of 4 each site
    assert found["example"] == "world | business | energy | log in"   # of the most widespread
    # items of a page's own (a title, a byline, a dateline) are no menu
    assert diagnostics.boilerplate(demo.texts) == {}


#: Two companies' mail disclaimers, one in each half of the messages (of every topic).
DISCLAIMERS = [("This e-mail and any attachments are confidential and intended solely for "
                "the addressee.\nIf you received it in error please notify the sender at Globex "
                "Corporation immediately."),
               ("Initech Ltd is registered in England and Wales under number 0123456.\nViews "
                "expressed in this message are those of the author and not of Initech Ltd.")]


def test_boilerplate_repeated_across_documents_is_named_with_a_max_df_to_try(caplog):
    """Messages of four topics, each closing with one of two disclaimers, were clustered by
    disclaimer (accuracy 0.34) without a word; --max-df 0.4 gave 1.00."""
    demo = load_demo()
    texts = [f"{text}\n\n{DISCLAIMERS[i % 2]}" for i, text in enumerate(demo.texts)]
    corpus = Corpus(texts, demo.labels, demo.ids)
    with caplog.at_level(logging.WARNING, logger="docnmf"):
        run = cluster_corpus(corpus, 5, "nmf")
    found = run.diagnostics["boilerplate"]
    assert found["lines"] == 4 and found["shares"] == [0.5, 0.5] and found["max_df"] == 0.4
    assert "4 lines (of 5 words or more, or runs of 4 shorter ones, a menu's items) recur in " \
           "50% of the documents, e.g. " in caplog.text
    assert "--max-df 0.4 drops the words in over 40% of the documents" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="docnmf"):
        run = cluster_corpus(corpus, 5, "nmf", vectorizer_params={"max_df": 0.4})
    assert run.diagnostics["boilerplate"] == {} and "recur" not in caplog.text
    # nor in the demo corpus itself, nor in the corpora docnmf reproduces (measured: none in
    # Reuters-21578, 20 Newsgroups, DUC 2004 or Classic4)
    assert diagnostics.boilerplate(demo.texts) == {}
    # a line in 30% of the documents: --max-df 0.3 keeps its words, and 0.2 is under the
    # floor (it was named); a thread's repeated subject is its topic; copies count once
    notice = DISCLAIMERS[0].replace("\n", " ")
    thirty = [f"Topic {i} words\n{notice if i < 30 else ''}" for i in range(100)]
    assert diagnostics.boilerplate(thirty)["max_df"] is None
    thread = [f"Subject: Re: after 2000 years, can we say that morality is\nreply {i}"
              for i in range(20)]
    assert diagnostics.boilerplate(thread) == {}
    assert diagnostics.boilerplate([f"{notice}\nsame text"] * 20) == {}


def test_the_small_cluster_advice_does_not_offer_a_method_its_own():
    report = {"small_clusters": [{"cluster": 1, "size": 2, "examples": ["a", "b"]},
                                 {"cluster": 2, "size": 0, "examples": []}]}
    advice = [line for line in diagnostics.warning_lines(report, "lccf-ncw")
              if line.startswith("small clusters often hold")]
    assert len(advice) == 1 and "--method consensus" in advice[0]
    advice = [line for line in diagnostics.warning_lines(report, "consensus")
              if line.startswith("small clusters often hold")]
    assert advice == [("small clusters often hold documents that share few words with the rest "
                       "(very short texts, encoded files, signatures): removing them or a "
                       "smaller -k may give clusters by topic")]
    empty_only = {"small_clusters": [{"cluster": 2, "size": 0, "examples": []}]}
    assert not any(line.startswith("small clusters often hold")
                   for line in diagnostics.warning_lines(empty_only))


def _outlier_corpus(topics) -> Corpus:
    texts = [t for label in topics for t in topics[label]]
    labels = [(label,) for label in topics for _ in topics[label]]
    return Corpus(texts=texts, labels=labels, ids=[f"d{i}" for i in range(len(texts))])


def test_a_degenerate_result_is_replaced_by_the_fallback_only_when_asked(outlier_topics,
                                                                         caplog):
    corpus = _outlier_corpus(outlier_topics)
    kept = cluster_corpus(corpus, 3, "lccf-ncw", random_state=0)
    assert sorted(kept.sizes.tolist()) == [2, 2, 240] and diagnostics.degenerate(kept.sizes)
    assert "replaced" not in kept.diagnostics
    with caplog.at_level(logging.WARNING, logger="docnmf"):
        run = cluster_corpus(corpus, 3, "lccf-ncw", random_state=0, fallback="consensus")
    assert run.method == "consensus" and run.params["method"] == "consensus"
    assert not diagnostics.degenerate(run.sizes) and run.metrics["accuracy"] > 0.9
    # the same as asking for the consensus directly, from the same seed
    direct = cluster_corpus(corpus, 3, "consensus", random_state=0)
    np.testing.assert_array_equal(run.labels, direct.labels)
    # no method named: docnmf cluster's default, guarded as the command guards it
    default = cluster_corpus(corpus, 3, random_state=0)
    assert default.method == "consensus" and default.diagnostics["replaced"]["method"] == \
        "lccf-ncw"
    np.testing.assert_array_equal(default.labels, direct.labels)
    replaced = run.diagnostics["replaced"]
    assert (replaced["method"], replaced["by"], sorted(replaced["cluster_sizes"])) == (
        "lccf-ncw", "consensus", [2, 2, 240])
    assert replaced["fit_s"] >= 0
    # the summary's time is the whole of both fits, not the second alone
    assert (f"k=3 (fit {run.timings['fit_s']:.2f}s, after {replaced['fit_s']:.2f}s of "
            "lccf-ncw)") in format_summary(run)
    assert "clustering again with consensus" in caplog.text
    line = diagnostics.warning_lines(run.diagnostics, run.method)[0]     # said first
    assert line == ("lccf-ncw, the default, gave a degenerate result: 2 of its 3 clusters "
                    "nearly empty (sizes 2, 2, 240); the clusters here are those of --method "
                    "consensus; --method lccf-ncw keeps its own")
    # an option the fallback does not take keeps the result, and says so
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="docnmf"):
        same = cluster_corpus(corpus, 3, "lccf-ncw", random_state=0, fallback="consensus",
                              estimator_params={"lam": 0.01})
    assert same.method == "lccf-ncw" and "does not take lam: the result is kept" in caplog.text
    # a result that is not degenerate stays
    demo = cluster_corpus(load_demo(), 5, "lccf-ncw", random_state=0, fallback="consensus")
    assert demo.method == "lccf-ncw"
    # a fallback that cannot take these documents (NMA segments texts; these are counts) keeps
    # the result, and says why
    from docnmf import DocumentVectorizer

    vec = DocumentVectorizer().fit(corpus.texts)
    counts = Corpus(texts=None, labels=corpus.labels, ids=corpus.ids,
                    counts=vec.count(corpus.texts), vocabulary=list(vec.get_feature_names_out()))
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="docnmf"):
        kept = cluster_corpus(counts, 3, "lccf-ncw", random_state=0, fallback="nma")
    assert kept.method == "lccf-ncw" and diagnostics.degenerate(kept.sizes)
    assert "nma could not cluster these documents" in caplog.text


def test_the_fallback_reads_the_texts_once(outlier_topics, monkeypatch):
    """The fallback clusters the same texts, read with the same options: they are tokenized
    and weighted once for both fits, and the result is the direct consensus's all the same."""
    from docnmf.text.vectorize import DocumentVectorizer

    corpus = _outlier_corpus(outlier_topics)
    direct = cluster_corpus(corpus, 3, "consensus", random_state=0)
    calls = []
    fit_count = DocumentVectorizer.fit_count

    def counted(self, raw_documents):
        calls.append(len(raw_documents))
        return fit_count(self, raw_documents)

    monkeypatch.setattr(DocumentVectorizer, "fit_count", counted)
    run = cluster_corpus(corpus, 3, random_state=0)
    assert run.diagnostics["replaced"]["method"] == "lccf-ncw" and run.method == "consensus"
    assert calls == [len(corpus)]
    np.testing.assert_array_equal(run.labels, direct.labels)
    np.testing.assert_array_equal(run.memberships, direct.memberships)
    assert (run.X != direct.X).nnz == 0 and list(run.feature_names) == list(direct.feature_names)
    assert (run.keywords, run.representatives) == (direct.keywords, direct.representatives)
    assert run.timings["vectorize_s"] > 0


def test_groups_of_documents_sharing_no_term_with_the_rest_are_named(outlier_topics, caplog):
    """The two junk pairs share their words with each other only: two groups, named with the
    reason NC weighting gives them clusters; a method without NCW is not told about NCW."""
    corpus = _outlier_corpus(outlier_topics)
    junk = [corpus.ids[i] for i, labels in enumerate(corpus.labels) if labels == ("junk",)]
    with caplog.at_level(logging.WARNING, logger="docnmf"):
        run = cluster_corpus(corpus, 3, "lccf-ncw", random_state=0)
    isolated = run.diagnostics["isolated"]
    assert (isolated["groups"], isolated["documents"], isolated["sizes"]) == (2, 4, [2, 2])
    assert sorted(isolated["examples"]) == [junk[:2], junk[2:]]
    assert "4 documents in 2 small groups share no index term with the other documents" in \
        caplog.text
    assert "NC weighting weighs each group as much as all the others" in caplog.text
    line = diagnostics.warning_lines(run.diagnostics, "nmf")
    assert any("share no index term" in x and "NC weighting" not in x for x in line)
    # a corpus whose documents all share words: nothing to say
    demo = cluster_corpus(load_demo(), 5, "nmf", random_state=0)
    assert demo.diagnostics["isolated"] == {"groups": 0, "documents": 0, "sizes": [],
                                            "examples": []}


def test_isolated_groups_are_the_components_but_the_largest_of_the_documents_terms_graph():
    X = np.zeros((7, 6))
    X[[0, 1, 2], 0] = 1       # 0-1-2 through term 0, 2-3 through term 1: the largest group
    X[[2, 3], 1] = 1
    X[[4, 6], 2] = 2          # 4 and 6 through term 2
    X[5, [3, 4]] = 1          # 5 alone, with two terms of its own; row 1 also has term 5
    X[1, 5] = 3
    assert diagnostics.isolated_groups(X) == [[5], [4, 6]]
    # small: under half the mean cluster size of the 7 documents with terms
    assert diagnostics.small_isolated_groups(X, 1) == [[5], [4, 6]]      # under 3.5
    assert diagnostics.small_isolated_groups(X, 2) == [[5]]              # under 1.75
    X[3, 2] = 1               # term 2 now joins 4 and 6 to the rest
    assert diagnostics.isolated_groups(sp.csr_matrix(X)) == [[5]]
    assert diagnostics.isolated_groups(np.zeros((3, 2))) == []


@pytest.mark.parametrize("sizes, expected", [
    ([2, 2, 240], True), ([1, 3, 5, 142, 598], True), ([4, 4659], True), ([21, 2500], True),
    ([7, 9, 10, 283, 439], False), ([1, 51, 69, 146, 157], False), ([3, 2431], True),
    ([80], False), ([10] * 56 + [9], False)])
def test_degenerate_means_two_nearly_empty_clusters_or_one_of_two(sizes, expected):
    """Nearly empty: under a twentieth of the mean size (the sizes are suite corpora's and
    draws' of reports/benchmark-suite/degenerate-guard)."""
    assert diagnostics.degenerate(sizes) is expected


def test_pre_stemmed_lowercased_text_is_reported(caplog):
    stem = Stemmer.Stemmer("porter", 0).stemWord
    demo = load_demo()
    texts = [" ".join(stem(w) for w in re.findall(r"[a-z]+", t.lower())) for t in demo.texts]
    corpus = Corpus(texts=texts * 2, labels=demo.labels * 2, ids=[f"{i}" for i in range(160)])
    with caplog.at_level(logging.WARNING, logger="docnmf"):
        run = cluster_corpus(corpus, 5, "nmf")
    assert run.diagnostics["vocabulary"]["stemmed"] and run.diagnostics["vocabulary"]["lowercased"]
    assert "looks stemmed already" in caplog.text and "lower-cased upstream" in caplog.text


def test_text_in_other_scripts_is_not_called_stemmed_and_unspaced_text_is_named(caplog):
    rng = np.random.default_rng(0)
    greek = ["αστρονόμος κομήτης γαλαξίας τηλεσκόπιο νύχτα ουρανός",
             "ψωμί φούρνος αλεύρι βούτυρο ζύμη κουζίνα"]
    chinese = ["天文学家观测到明亮的彗星和遥远的星系", "厨师在烤箱里烤面包和黄油蛋糕"]
    for words, spaced in ((greek, True), (chinese, False)):
        texts = [" ".join(rng.choice(words[i % 2].split(), 30)) if spaced
                 else "。".join([words[i % 2]] * 40) for i in range(600)]
        corpus = Corpus(texts=texts, labels=[(str(i % 2),) for i in range(600)],
                        ids=[f"d{i}" for i in range(600)])
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="docnmf"):
            run = cluster_corpus(corpus, 2, "nmf", vectorizer_params={"min_df": 1})
        hints = run.diagnostics["vocabulary"]
        assert not hints["stemmed"] and not hints["lowercased"]
        assert "stemmed already" not in caplog.text and "lower-cased" not in caplog.text
        assert hints["unspaced_script"] is not spaced
        assert ("written without spaces between words" in caplog.text) is not spaced


#: News sentences written for these tests, two topics in each language.
GERMAN = [["Die Regierung hat am Dienstag ein neues Paket für kleine Unternehmen vorgestellt.",
           "Die Gewerkschaften halten den Plan für unzureichend und rufen zu Protesten auf.",
           "Ökonomen erwarten eine Abschwächung des Wachstums im kommenden Quartal."],
          ["Die Mannschaft gewann das Spiel gegen den Tabellenführer mit zwei Toren.",
           "Der Trainer lobte die Verteidigung und die Geduld seiner Spieler.",
           "Im Stadion feierten die Zuschauer den Sieg bis spät in die Nacht."]]


def test_german_text_is_called_not_english_and_not_stemmed(caplog):
    """German nouns' endings, which Porter does not know, made German text look "stemmed
    already"; nothing said that the stop words and the stemmer are English's."""
    rng = np.random.default_rng(0)
    texts = [" ".join(rng.choice(GERMAN[i % 2], 6)) for i in range(200)]
    corpus = Corpus(texts=texts, labels=[(str(i % 2),) for i in range(200)],
                    ids=[f"d{i}" for i in range(200)])
    with caplog.at_level(logging.WARNING, logger="docnmf"):
        run = cluster_corpus(corpus, 2, "nmf", vectorizer_params={"min_df": 1})
    hints = run.diagnostics["vocabulary"]
    assert hints["not_english"] and hints["english_stop_word_share"] < 0.1
    assert not hints["stemmed"] and "stemmed already" not in caplog.text
    assert "the texts do not look English" in caplog.text and "--no-stem" in caplog.text
    # read already without stemming and with a low max_df, nothing is left to advise (it still
    # advised both, and spoke of the Porter stemming)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="docnmf"):
        cluster_corpus(corpus, 2, "nmf", vectorizer_params={"min_df": 1, "stem": False,
                                                            "max_df": 0.5})
    line = next(x for x in caplog.text.splitlines() if "do not look English" in x)
    assert line.endswith("and the stop words dropped are English's")


def test_the_not_english_advice_names_what_would_change_something():
    line = diagnostics.not_english_line(0.05, stem=True, max_df=0.4)
    assert line.endswith("try docnmf cluster --no-stem (stem=False in Python)")
    line = diagnostics.not_english_line(0.05, stem=False, max_df=0.95)
    assert "try docnmf cluster --max-df 0.5 (max_df=0.5 in Python): the words in over half" \
        in line and "Porter" not in line
    assert diagnostics.not_english_line(0.05, "").endswith("Porter stemming are English's")


@pytest.mark.parametrize("text", [
    ("Regeringen presenterade på tisdagen ett nytt paket för att stödja små företag som "
     "drabbats av de höga energipriserna. Fackförbunden anser att planen är otillräcklig."),
    ("Hükümet salı günü enerji fiyatlarındaki artıştan etkilenen küçük işletmeleri desteklemek "
     "için yeni bir paket açıkladı. Sendikalar ise planın yetersiz olduğunu düşünüyor."),
    ("Rząd przedstawił we wtorek nowy pakiet wsparcia dla małych firm dotkniętych wysokimi "
     "cenami energii. Według ministra pomoc zostanie wypłacona już w przyszłym miesiącu."),
])
def test_languages_without_known_function_words_are_not_called_stemmed(text):
    """Swedish, Turkish and Polish, whose function words the check does not list, were told
    "the vocabulary looks stemmed already": few of their words end as English ones do."""
    hints = diagnostics.text_hints([text] * 200)
    assert hints["not_english"] and not hints["stemmed"]


#: French news sentences written for these tests.
FRENCH = ["Le gouvernement a présenté mardi un nouveau plan pour les petites entreprises.",
          "Les syndicats jugent que cette mesure est insuffisante et appellent à la grève.",
          "Dans la capitale, les prix des logements sont encore en hausse cette année.",
          "L'équipe a gagné le match contre le premier du classement avec deux buts."]


def test_a_few_hundred_words_of_french_are_not_english():
    """30 short French texts (about 700 words) got no word of warning: the language was judged
    only from 2,000 words on."""
    rng = np.random.default_rng(0)
    texts = [" ".join(rng.choice(FRENCH, 2)) for _ in range(30)]
    assert sum(len(t.split()) for t in texts) < 1_000
    assert diagnostics.text_hints(texts)["not_english"]
    # a few texts, a few dozen words: too few to say
    assert not diagnostics.text_hints(texts[:3])["not_english"]


def test_team_abbreviations_do_not_make_a_table_foreign():
    """Ice hockey results abbreviate teams LA, QUE and VAN (French and Dutch function words);
    a table of them has few English stop words, and was called not English."""
    rng = np.random.default_rng(1)
    rows = [f"{rng.choice(['LA', 'QUE', 'VAN'])} {rng.choice(['Gretzky', 'Sakic', 'Bure'])} "
            f"{rng.integers(1, 80)} {rng.integers(1, 80)} pts games goals" for _ in range(400)]
    hints = diagnostics.text_hints(["\n".join(rows)])
    assert hints["english_stop_word_share"] < 0.1 and not hints["not_english"]


def test_english_text_is_english():
    demo = load_demo()
    hints = diagnostics.text_hints(demo.texts * 3)
    assert not hints["not_english"] and 0.3 < hints["english_stop_word_share"] < 0.5
    # stripped of its stop words and stemmed, it is still English, and stemmed
    stem = Stemmer.Stemmer("porter", 0).stemWord
    words = [w for t in demo.texts for w in re.findall(r"[a-z]+", t.lower())
             if w not in ENGLISH_STOP_WORDS]
    hints = diagnostics.text_hints([" ".join(stem(w) for w in words)] * 3)
    assert not hints["not_english"] and hints["stemmed"]


@pytest.mark.parametrize("pairs, message", [
    ([(0, -1)], "unknown document"),           # -1 wrapped round to the last document
    ([(0, 80)], "unknown document"),           # an IndexError
    ([(0.9, 4.99)], "integer document indices"),   # truncated to (0, 4)
    ([(True, False)], "integer document indices"),
    ([("astronomy/001", "astronomy/002")], "integer document indices"),
    ([(3, 3)], "with itself"),
])
def test_pairs_naming_no_document_are_refused_before_they_are_renumbered(pairs, message):
    from docnmf.constraints import ConstraintError

    demo = load_demo()
    assert len(demo) == 80
    with pytest.raises(ConstraintError, match=message):
        cluster_corpus(demo, 5, "ssnmf-ncw", fit_params={"must_link": pairs})
    with pytest.raises(ValueError, match="need a semi-supervised method .*ssnmf.*, not nmf"):
        cluster_corpus(demo, 5, "nmf", fit_params={"cannot_link": [(0, 1)]})


def test_constraint_counts_and_files_are_recorded(tmp_path, caplog):
    corpus = load_demo()
    football = [i for i, labs in enumerate(corpus.labels) if labs == ("football",)]
    cooking = [i for i, labs in enumerate(corpus.labels) if labs == ("cooking",)]
    ml = np.array([[football[0], cooking[0]], [football[1], football[2]]])
    cl = np.array([[football[3], football[4]]])
    files = {"must_link": tmp_path / "ml.csv", "cannot_link": tmp_path / "cl.csv"}
    files["must_link"].write_text("a,b\n")
    files["cannot_link"].write_text("c,d\n")
    with caplog.at_level(logging.INFO, logger="docnmf"):
        run = cluster_corpus(corpus, 5, "ssnmf", fit_params={"must_link": ml, "cannot_link": cl},
                             constraint_files=files, estimator_params={"n_init": 2})
    c = run.diagnostics["constraints"]
    labels = run.labels
    expected_ml = sum(labels[i] == labels[j] for i, j in ml)
    expected_cl = sum(labels[i] != labels[j] for i, j in cl)
    assert c["must_link"]["given"] == 2 and c["must_link"]["satisfied"] == expected_ml
    assert c["cannot_link"]["given"] == 1 and c["cannot_link"]["satisfied"] == expected_cl
    assert c["must_link"]["violated"] == 2 - expected_ml
    assert c["files"]["must_link"] == {"name": str(files["must_link"]),
                                       "sha256": hashlib.sha256(b"a,b\n").hexdigest()}
    assert f"{expected_ml} of 2 must-link pairs kept by the result" in caplog.text


def test_pairs_with_an_empty_document_are_counted_as_such(caplog):
    """'0 of 2 must-link pairs kept by the result' did not say that both named an empty
    document, which is in no cluster."""
    demo = load_demo()
    corpus = _with(demo, ["", "the of and"], ["blank", "stop-words-only"])
    pairs = [(0, len(demo)), (1, len(demo) + 1)]
    with caplog.at_level(logging.INFO, logger="docnmf"):
        run = cluster_corpus(corpus, 5, "ssnmf-ncw", fit_params={"must_link": pairs})
    assert run.diagnostics["constraints"]["must_link"]["with_unassigned_document"] == 2
    assert ("0 of 2 must-link pairs kept by the result (2 with a document left unassigned, "
            "in no cluster)") in caplog.text


def test_cluster_saves_a_model_that_assign_reuses(tmp_path):
    demo = load_demo()
    order = np.random.default_rng(1).permutation(len(demo))
    train, test = demo.subset(order[:60]), demo.subset(order[60:])
    run = cluster_corpus(train, 5, "nmf-ncw")
    write_run(run, tmp_path / "out")
    model = docnmf.load(tmp_path / "out")
    assert model.method == "nmf-ncw" and model.info["fitted_documents"] == 60
    assert json.loads((tmp_path / "out" / "run.json").read_text())["model"] == "model"
    assigned = assign_corpus(model, test)
    np.testing.assert_array_equal(assigned.labels, run.saved_model.place(test.texts).labels)
    assert assigned.metrics["accuracy"] > 0.9
    write_run(assigned, tmp_path / "new")
    assert not (tmp_path / "new" / "model").exists()
    header = open(tmp_path / "new" / "assignments.csv").readline()
    assert header == open(tmp_path / "out" / "assignments.csv").readline()


def test_assign_says_when_most_documents_are_foreign_to_the_model(caplog):
    """A model of other documents put every document at -1 with status 0 and no hint."""
    model = cluster_corpus(load_demo(), 5, "nmf-ncw").saved_model
    foreign = Corpus(texts=["zzyzx qwertz", "lorem ipsum dolor", "planet orbit"],
                     labels=[(), (), ()], ids=["a", "b", "c"])
    with caplog.at_level(logging.WARNING, logger="docnmf"):
        assign_corpus(model, foreign)
    assert "most documents (2 of 3) have no term the model knows" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="docnmf"):
        assign_corpus(model, load_demo())
    assert "no term the model knows" not in caplog.text


def test_methods_that_cannot_place_documents_save_no_model(tmp_path):
    run = cluster_corpus(load_demo(), 5, "aa")
    assert run.saved_model is None
    write_run(run, tmp_path)
    assert not (tmp_path / "model").exists()
    assert json.loads((tmp_path / "run.json").read_text())["model"] is None


def test_centroid_similarity_is_each_documents_cosine_to_its_clusters_mean():
    """Checked against a dense loop; unassigned documents (-1) get 0."""
    import scipy.sparse as sp

    from docnmf.pipeline import centroid_similarity

    rng = np.random.default_rng(0)
    X = sp.random(200, 50, density=0.1, format="csr", random_state=1)
    labels = rng.integers(-1, 4, 200)
    dense, expected = X.toarray(), np.zeros(200)
    for c in range(4):
        centre = dense[labels == c].mean(axis=0)
        for i in np.flatnonzero(labels == c):
            norm = np.linalg.norm(dense[i]) * np.linalg.norm(centre)
            expected[i] = dense[i] @ centre / norm if norm > 0 else 0.0
    np.testing.assert_allclose(centroid_similarity(X, labels, 4), expected, atol=1e-12)


def test_cluster_corpus_checks_its_arguments_before_any_work():
    from docnmf.corpus.demo import load_demo
    from docnmf.methods import DEFAULT_METHOD
    from docnmf.pipeline import cluster_corpus

    corpus = load_demo()
    with pytest.raises(ValueError, match="n_clusters must be a positive integer, got '5'"):
        cluster_corpus(corpus, "5")
    with pytest.raises(ValueError, match="n_clusters=81 is larger than n_samples=80"):
        cluster_corpus(corpus, 81)
    with pytest.raises(ValueError, match="unknown method 'bogus'; choose from nmf"):
        cluster_corpus(corpus, 5, "bogus")
    with pytest.raises(KeyError):           # what it raised before, still caught as such
        cluster_corpus(corpus, 5, "bogus")
    assert cluster_corpus(corpus, 5, estimator_params={"n_init": 2}).method == DEFAULT_METHOD


def test_a_vectorizer_used_before_fit_says_so():
    from sklearn.exceptions import NotFittedError

    from docnmf.text.vectorize import DocumentVectorizer

    with pytest.raises(NotFittedError):
        DocumentVectorizer().transform(["a text"])


def test_methods_without_term_weights_leave_empty_documents_out_of_their_keywords():
    """kernel-km and ss-kk stopped with 'negative axis 0 index: -1' on any corpus with an
    empty document: the mean documents of the clusters took label -1 as a cluster."""
    from docnmf.report.data import cluster_centroids

    demo = load_demo()
    corpus = _with(demo, ["", "the of and"], ["blank", "stop-words-only"])
    run = cluster_corpus(corpus, 5, "kernel-km", random_state=0)
    assert run.labels[-2:].tolist() == [-1, -1] and all(run.keywords)
    X = np.array([[1.0, 0.0], [3.0, 0.0], [0.0, 2.0], [9.0, 9.0]])
    np.testing.assert_allclose(cluster_centroids(X, np.array([0, 0, 1, -1]), 3),
                               [[2.0, 0.0], [0.0, 2.0], [0.0, 0.0]])


def test_ids_holding_control_characters_keep_the_summary_one_line_a_cluster(tmp_path, capsys):
    from docnmf.cli import main

    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(6):     # a newline and a terminal escape in names a folder may hold
        (folder / f"fruit\n{i}.txt").write_text(f"apple banana orange fruit market {i}\n")
        (folder / f"\x1b[31mstar{i}.txt").write_text("comet star galaxy orbit planet\n")
    assert main(["-q", "cluster", str(folder), "-k", "2", "--method", "nmf",
                 "-o", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert "\x1b" not in out and sum(line.lstrip().startswith("e.g.") for line in lines) == 2
    assert "fruit\\n" in out and "\\x1b[31mstar" in out
    assert all(line.startswith(("cluster", " " * 22, "nmf on", "wrote")) or not line
               for line in lines)


def test_long_documents_are_read_for_hints_and_snippets_by_their_start():
    """A few documents of megabytes each spent most of a run on the report's snippets and the
    text hints, which read every character of them."""
    from docnmf.report.data import snippet

    big = "Comet orbit. " * 400_000 + "TAIL"
    hints = diagnostics.text_hints([big, big], sample=10_000)
    assert hints["characters_read"] == 10_000 and hints["lowercased"] is False
    # one long file of a few words filled the sample: "the vocabulary looks stemmed already"
    english = ["Runners were running to the stations"] * 1000
    assert diagnostics.text_hints(["runner run station " * 200_000] + english)["stemmed"] is False
    assert diagnostics.text_hints(["runner run station " * 200_000])["stemmed"] is True
    blank_start = " \n" * 5_000 + "Stars and galaxies are far away, " * 20
    assert snippet(blank_start, 30) == "Stars and galaxies are far …"
    assert snippet(big, 20) == "Comet orbit. Comet …" and snippet("a  b", 20) == "a b"


def test_an_overlapping_cluster_with_segments_is_not_called_empty():
    """Overlapping NMA: a cluster with most of the segments of no document held some of 22
    documents, and was reported "empty"."""
    found = diagnostics.small_clusters(np.array([1] * 30 + [2] * 20), 3,
                                       [str(i) for i in range(50)], overlap=[22, 40, 25])
    assert found == [{"cluster": 0, "size": 0, "examples": [], "with_segments": 22}]
    (line,) = diagnostics.warning_lines({"small_clusters": found})
    assert line.startswith("cluster 0 holds most of the segments of no document, but some of "
                           "22 documents") and "empty" not in line
    assert diagnostics.warning_lines({"small_clusters": [
        {"cluster": 0, "size": 0, "examples": []}]}) == ["cluster 0 is empty"]
    # a small one says what else it holds, and --method consensus (no overlap) is not advised
    lines = diagnostics.warning_lines({"small_clusters": [
        {"cluster": 3, "size": 2, "examples": ["a", "b"], "with_segments": 5}]}, "nma")
    assert lines == [("cluster 3 has only 2 of the documents (under 1% of them or under 3, and "
                      "under half the mean size): a, b; 5 documents have segments in it "
                      "(clusters overlap)")]


def test_many_small_clusters_are_one_line():
    """At k=60 on Reuters, 36 lines of "cluster N has only ..." filled the report's overview."""
    found = [{"cluster": c, "size": 40 + c, "examples": ["a"]} for c in range(6)] \
        + [{"cluster": 9, "size": 0, "examples": []}]
    lines = diagnostics.warning_lines({"small_clusters": found})
    assert lines[0] == ("6 clusters have under 1% of the documents (or under 3) and under half "
                        "the mean size: clusters 0 (40 documents), 1 (41), 2 (42), 3 (43), "
                        "4 (44), 5 (45)")
    assert lines[1] == "cluster 9 is empty" and lines[2].startswith("small clusters often")
    assert len(diagnostics.warning_lines({"small_clusters": found[:5]})) == 6    # 5: a line each


def test_keywords_are_terms_a_cluster_holds_not_others_at_a_hair_above_zero():
    """A cluster of two documents on giraffes listed butter and flour after its own three words:
    the solvers keep factors at 1e-10 of the largest, and those ranked as keywords (and pulled
    its coherence below zero)."""
    space, baking = "planet orbit star telescope galaxy comet ", "recipe oven flour butter sugar "
    texts = [space * 3] * 6 + [baking * 3] * 6 + ["zebra giraffe elephant " * 2,
                                                  "zebra giraffe elephant lion"]
    corpus = Corpus(texts=texts, labels=[()] * 14, ids=[f"d{i}" for i in range(14)])
    run = cluster_corpus(corpus, 3, "nmf-ncw", vectorizer_params={"min_df": 1})
    animals = run.labels[12]
    assert sorted(run.keywords[animals]) == ["elephant", "giraffe", "lion", "zebra"]
    assert all(len(words) <= 6 for words in run.keywords)
    from docnmf._estimator import top_terms

    assert top_terms(np.array([[0.5, 1e-10, 0.2, 0.0]]), list("abcd"), 4) == [["a", "c"]]


def test_keywords_are_words_of_the_clusters_own_documents():
    """A concept factorization's topic mixes documents of the whole corpus: a cluster of two
    documents on fruit listed elder and fig, words of the other cluster only, among its
    keywords. A cluster without documents (as fits can leave) keeps its topic's words."""
    texts = ["apple apple banana cherry", "banana banana banana date",
             "cherry date elder elder apple", "apple banana fig fig fig", "date fig elder apple apple"]
    corpus = Corpus(texts=texts, labels=[()] * 5, ids=[f"d{i}" for i in range(5)])
    run = cluster_corpus(corpus, 2, "lccf-ncw", vectorizer_params={"min_df": 1},
                         estimator_params={"n_neighbors": 3})
    assert run.sizes.tolist() == [3, 2]
    held = [set(" ".join(t for t, c in zip(texts, run.labels) if c == cluster).split())
            for cluster in range(2)]
    assert all(set(words) <= held[c] for c, words in enumerate(run.keywords))
    assert set(held[1]) - set(run.keywords[1]) == set()     # every word it holds is one
    # the model's topics alone give the two-document cluster the others' words too
    topics = run.saved_model.keywords(10)
    assert {"elder", "fig"} <= set(topics[1])
    # placing the same documents with the saved model names the same words, and so does
    # docnmf keywords (both listed the topics' words)
    placed = assign_corpus(run.saved_model, corpus)
    assert placed.labels.tolist() == run.labels.tolist() and placed.keywords == run.keywords
    from docnmf.summarize.api import cluster_keywords

    report, sizes = cluster_keywords(texts, 2, n_init=2, min_df=1, max_df=1.0)
    assert sorted(sizes) == [2, 3]
    for size, line in zip(sizes, report.splitlines()[1:]):
        if size == 2:
            assert set(line.split(": ")[1].split(", ")) == held[1]
    # a k-means model can place a document in a cluster none of whose weighted words it
    # holds: the cluster keeps its own words (it was left with none)
    demo = load_demo()
    km = cluster_corpus(demo, 5, "km")
    one = Corpus(texts=["ahead"], labels=[()], ids=["n1"])
    placed = assign_corpus(km.saved_model, one)
    assert placed.labels.tolist() != [-1]
    assert placed.keywords[placed.labels[0]] == km.saved_model.keywords(10)[placed.labels[0]]
    # an empty cluster's keywords are its topic's
    from docnmf.pipeline import _keyword_columns

    columns, _ = _keyword_columns(run.model, run.X, np.zeros(5, dtype=int), 2, 10)
    assert [str(run.feature_names[j]) for j in columns[1]] == topics[1]


@pytest.mark.parametrize("name", ["reuters21578_single", "20newsgroups", "duc2004", "classic4"])
def test_no_boilerplate_nor_foreign_documents_in_the_corpora_docnmf_reproduces(datasets_dir,
                                                                              name):
    """The warnings are for templates, disclaimers and running headers, not for the lines
    newswire, newsgroups or abstracts repeat; for documents in other languages enough to make
    a cluster, not for the four posts of 20 Newsgroups that are."""
    from docnmf.corpus import load_dataset

    corpus = load_dataset(name, data_home=datasets_dir)
    assert diagnostics.boilerplate(corpus.texts) == {}
    assert diagnostics.foreign_documents(corpus.texts, corpus.ids) == {}


#: Two paragraphs of news each in German and Spanish, written for the test.
FOREIGN = [("Die Regierung hat mit den Ländern ein Paket für kleine Firmen vorgestellt, und "
            "die Gewerkschaften rufen zu Protesten auf, weil die Hilfe nicht reicht und der "
            "Staat auch die Kosten der Energie für das Jahr senken soll."),
           ("Der Konzern will die Firma für eine Milliarde kaufen, teilte der Vorstand mit; die "
            "Aktionäre sollen auf der Versammlung im Mai über das Angebot und die Zukunft des "
            "Werks in der Stadt abstimmen."),
           ("El precio del crudo subió en los mercados por la decisión de la organización de "
            "reducir la producción, según los analistas, que esperan que los barriles se "
            "vendan más caros en las próximas semanas del año."),
           ("La empresa petrolera anunció que los pozos del sur producen más barriles que el "
            "año pasado, y que el gobierno aprobó un plan para las exportaciones de crudo a los "
            "puertos del norte con una nueva ley.")]


def test_documents_in_another_language_are_named(caplog):
    """A tenth of the documents in German and Spanish made clusters keyed "die, der, dem" and
    "la, los, el", and the English topics merged; nothing was said, the collection as a whole
    looking English."""
    demo = load_demo()
    texts = list(demo.texts) + [FOREIGN[i % 4] + f" ({i})" for i in range(12)]
    ids = list(demo.ids) + [f"foreign/{i}" for i in range(12)]
    corpus = Corpus(texts, [()] * len(texts), ids)
    with caplog.at_level(logging.WARNING, logger="docnmf"):
        run = cluster_corpus(corpus, 5, "nmf")
    assert run.diagnostics["languages"] == {"documents": 12, "of": 92, "examples": [
        f"foreign/{i}" for i in range(5)]}
    assert "12 of the 92 documents read look written in another language than English, e.g. " \
           "foreign/0, foreign/1, foreign/2, foreign/3, foreign/4: such documents" in caplog.text
    assert diagnostics.foreign_documents(demo.texts) == {}


#: A paragraph each in Russian, Swedish and Chinese, written for the test: another script, and
#: a language whose function words docnmf's list does not hold but whose letters go beyond
#: ASCII.
OTHER_SCRIPTS = [("Правительство представило новый пакет помощи малому бизнесу, а профсоюзы "
                  "призывают к протестам, потому что помощи недостаточно и цены растут."),
                 ("Regeringen har presenterat ett nytt stödpaket för småföretag, och facken "
                  "kräver protester eftersom hjälpen inte räcker och priserna stiger snabbt "
                  "på både mat och energi i år, säger många företagare i städerna."),
                 ("政府星期一公布了一项针对小企业的新援助计划。工会呼吁抗议，因为援助不够。部长希望与"
                  "各地区一起找到解决办法。许多公司已经裁员。发言人说，城市的情况尤其困难。")]


def test_english_stop_words_common_in_the_other_languages_do_not_make_a_text_english():
    """An Italian paragraph: 6 Italian function words, and 6 English stop words, all of them
    Italian words too ("un", "per", "i", "a", "in")."""
    italian = ("Il governo ha presentato un nuovo piano per le piccole imprese, ma i sindacati "
               "chiedono uno sciopero perché gli aiuti non bastano e i prezzi dell'energia "
               "continuano a salire in tutte le regioni del paese.")
    demo = load_demo()
    texts = list(demo.texts) + [f"{italian} ({i})" for i in range(4)]
    assert diagnostics.foreign_documents(texts)["documents"] == 4


def test_documents_in_another_script_or_a_language_beyond_the_list_are_named():
    """Russian, Swedish and Chinese at 5% formed clusters of their own without a word."""
    demo = load_demo()
    for text in OTHER_SCRIPTS:
        texts = list(demo.texts) + [f"{text} ({i})" for i in range(4)]
        assert diagnostics.foreign_documents(texts)["documents"] == 4, text[:20]


@pytest.mark.parametrize("method", ["consensus", "lsi-km", "nmf-ncw"])
def test_copies_of_a_document_share_its_cluster_and_memberships(method):
    """The consensus put 10 copies of a text in two clusters, with memberships 0.885, 0.771
    and 1.0 (three clusters asked of two distinct texts)."""
    from docnmf.corpus import Corpus

    texts = ["planet star telescope galaxy orbit"] * 10 + ["bank bonds shares market rates"] * 10
    corpus = Corpus(texts=texts, labels=None, ids=[f"d{i}" for i in range(20)])
    run = cluster_corpus(corpus, 3, method, vectorizer_params={"min_df": 1})
    for group in (slice(0, 10), slice(10, 20)):
        assert len(set(run.labels[group].tolist())) == 1
        assert np.all(run.memberships[group] == run.memberships[group][0])
    assert run.labels[0] != run.labels[10]


def test_documents_whose_cluster_is_a_tie_are_said():
    """FS-NMF by the paper's updates put 78 of the demo's 80 documents in cluster 0 at
    memberships of 1/5 each, and nothing said their cluster was a tie."""
    demo = load_demo()
    run = cluster_corpus(demo, 5, "fsnmf-paper")
    tied = run.diagnostics["ties"]
    assert tied["documents"] == int(np.sum(np.ptp(run.memberships, axis=1) == 0)) > 0
    line = next(x for x in diagnostics.warning_lines(run.diagnostics, "fsnmf-paper")
                if "belong to every cluster alike" in x)
    assert "--method fsnmf does not" in line
    assert "ties" not in cluster_corpus(demo, 5, "nmf-ncw").diagnostics


def test_documents_moved_to_their_copies_are_said_without_exact_duplicates():
    """Texts that differ only in a number ("Item 3. ...", "Item 4. ...") are copies to the fit;
    moving them was noted on the exact duplicates' line, which such texts do not print."""
    from docnmf.corpus import Corpus

    bodies = ["The telescope saw a comet near the bright star tonight.",
              "Bake the bread with butter in the hot oven today.",
              "The striker scored a goal in the league final match."]
    texts = [f"Item {i}. {body}" for i in range(15) for body in bodies]
    corpus = Corpus(texts=texts, labels=None, ids=[f"d{i}" for i in range(45)])
    run = cluster_corpus(corpus, 5, "consensus", vectorizer_params={"min_df": 1})
    assert sorted(run.sizes.tolist()) == [0, 0, 15, 15, 15]
    assert run.diagnostics["duplicates"]["groups"] == 0
    lines = diagnostics.warning_lines(run.diagnostics, "consensus")
    moved = run.diagnostics.get("copies_moved", 0)
    assert moved > 0 and any(line.startswith(f"the fit had put {moved} documents in another "
                                             "cluster than most of their copies")
                             for line in lines)


def test_ids_in_diagnostics_are_escaped_as_in_the_summary():
    """An id holding U+202E wrote the rest of a warning line backwards on the terminal (the
    summary on standard output escaped it, standard error did not)."""
    lines = diagnostics.warning_lines({"unassigned": {"count": 1, "ids": ["tiny\u202e.txt"],
                                                      "reason": "no index terms"}})
    assert lines == [("1 document with no index terms, not assigned (cluster -1): "
                      "tiny\\u202e.txt")]


def test_the_cluster_table_says_one_doc_and_keeps_its_columns():
    text = cluster_table("t", [1, 12], [["a"], ["b"]], [["x"], []],
                         None, unassigned=(1, "no terms"))
    lines = text.splitlines()
    assert lines[2] == "cluster  0      1 doc   a"
    assert lines[4] == "cluster  1     12 docs  b"
    assert lines[5] == "             1 doc   unassigned (no terms)"
    assert "1 docs" not in text
