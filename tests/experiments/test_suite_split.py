"""The suite's corpus list and its declared split into a tuning and a held-back half."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from docnmf.corpus import list_datasets, load_dataset
from docnmf.experiments.benchmark import load_suite_corpus
from docnmf.experiments.suite import (CONFIRM_CORPORA, MIN_CLASS_SIZE, SUITE_CORPORA,
                                      draw_classes, newsgroups_draw, suite_corpora)


def test_every_suite_corpus_is_a_registered_dataset_once():
    names = [c.name for c in SUITE_CORPORA]
    assert len(names) == len(set(names)) >= 20
    assert set(names) <= {info.name for info in list_datasets()}


def test_the_issue_s_corpora_are_in_the_suite():
    from docnmf.corpus.datasets import CLUTO_SETS

    names = {c.name for c in SUITE_CORPORA}
    required = {f"cluto_{s}" for s in CLUTO_SETS} | {
        "classic3", "classic4", "cstr", "20newsgroups", "20newsgroups_comp", "20newsgroups_rec",
        "20newsgroups_sci", "20newsgroups_talk", "tdt2", "reuters_cai"}
    assert required <= names


def test_a_family_sits_on_one_side_and_the_halves_are_about_even():
    roles = defaultdict(set)
    for c in SUITE_CORPORA:
        roles[c.family].add(c.role)
    assert all(len(r) == 1 for r in roles.values()), roles
    tuning, held = suite_corpora("tuning"), suite_corpora("held_back")
    assert abs(len(tuning) - len(held)) <= 2
    for half in (tuning, held):
        assert {c.form for c in half} == {"texts", "counts"}
        assert len({c.domain for c in half}) >= 3
        assert max(c.n_docs for c in half) > 5000 and min(c.n_docs for c in half) < 1000


def test_unknown_role_is_refused():
    with pytest.raises(ValueError, match="role must be"):
        suite_corpora("test")


@pytest.mark.datasets
@pytest.mark.parametrize("corpus", SUITE_CORPORA, ids=lambda c: c.name)
def test_declared_sizes_match_the_corpus(corpus, datasets_dir):
    loaded = load_dataset(corpus.name, data_home=datasets_dir)
    assert (len(loaded), loaded.n_classes) == (corpus.n_docs, corpus.n_classes)
    assert (loaded.texts is not None) == (corpus.form == "texts")


@pytest.mark.datasets
def test_newsgroup_hierarchies_hold_their_groups_only(datasets_dir):
    rec = load_dataset("20newsgroups_rec", data_home=datasets_dir)
    assert rec.classes == ["rec.autos", "rec.motorcycles", "rec.sport.baseball",
                           "rec.sport.hockey"]
    assert rec.metadata["name"] == "20newsgroups_rec"
    assert all(i.split("/")[1].startswith("rec.") for i in rec.ids)


def test_the_confirmation_set_is_apart_from_both_halves():
    names = [c.name for c in CONFIRM_CORPORA]
    assert len(names) == len(set(names)) and not set(names) & {c.name for c in SUITE_CORPORA}
    assert all(c.role in ("confirm", "confirm2") and c.parent is not None
               for c in CONFIRM_CORPORA)
    assert {c.dataset for c in CONFIRM_CORPORA} <= {info.name for info in list_datasets()}
    assert suite_corpora("confirm") + suite_corpora("confirm2") == list(CONFIRM_CORPORA)
    assert {c.role for c in suite_corpora()} == {"tuning", "held_back"}
    # the draws of one parent have seeds of their own, so they are different class sets
    draws = [(c.dataset, c.draw) for c in CONFIRM_CORPORA if c.draw is not None]
    assert len(draws) == len(set(draws)) == 15 + 24


def test_drawing_classes_is_seeded_and_order_free():
    classes = [f"c{i}" for i in range(20)]
    picks = {tuple(draw_classes(classes, 5, d)) for d in range(1, 6)}
    assert len(picks) == 5 and all(len(set(p)) == 5 for p in picks)
    assert draw_classes(classes[::-1], 5, 3) == draw_classes(classes, 5, 3)
    with pytest.raises(ValueError, match="cannot draw 21 of 20"):
        draw_classes(classes, 21, 1)


@pytest.mark.datasets
@pytest.mark.parametrize("corpus", CONFIRM_CORPORA, ids=lambda c: c.name)
def test_declared_sizes_match_the_confirmation_corpus(corpus, datasets_dir):
    loaded = load_suite_corpus(corpus, data_home=datasets_dir)
    assert (len(loaded), loaded.n_classes) == (corpus.n_docs, corpus.n_classes)
    assert min(loaded.class_sizes().values()) >= MIN_CLASS_SIZE
    assert all(len(labels) == 1 for labels in loaded.labels)
    assert (loaded.texts is not None) == (corpus.form == "texts")


def test_newsgroups_draw_is_five_groups_of_150_posts_the_same_for_a_seed(datasets_dir):
    a = newsgroups_draw(300, data_home=datasets_dir)
    labels = [lab[0] for lab in a.labels]
    assert len(a) == 750 and sorted(Counter(labels).values()) == [150] * 5
    b = newsgroups_draw(300, data_home=datasets_dir)
    assert (a.ids, a.texts) == (b.ids, b.texts)
    kept = newsgroups_draw(300, strip_headers=False, data_home=datasets_dir)
    assert kept.ids == a.ids and kept.texts != a.texts          # the same posts, with headers
    other = newsgroups_draw(301, data_home=datasets_dir)
    assert set(other.ids) != set(a.ids)
