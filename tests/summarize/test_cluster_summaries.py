"""One summary per cluster: from the command line (summarize --per-cluster, cluster
--summaries) and from Python (summarize_clusters picks a cluster's most representative
documents)."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from docnmf.summarize import summarize_texts
from docnmf.summarize.api import pick_documents, summarize_clusters
from docnmf.summarize.matrices import split_news_sentences as split_sentences

TOPICS = {
    "space": ["The telescope observed a distant galaxy and a bright comet in orbit tonight.",
              "Astronomers measured the planet orbit around the faint star last year.",
              "A comet passed the planet while the telescope tracked the distant star.",
              "The galaxy holds billions of stars and astronomers map every planet orbit."],
    "food": ["Simmer the garlic and onion sauce, then bake the dough in the hot oven.",
             "The recipe needs garlic, butter and flour for the dough of the bread.",
             "Bake the bread in a hot oven and serve it with garlic butter at dinner.",
             "Chop the onion, simmer the sauce and season the recipe with sea salt."],
}


def test_summarize_per_cluster_prints_one_summary_per_cluster(tmp_path, cli, text_folder):
    code, out, err = cli(["summarize", text_folder(tmp_path / "d", TOPICS), "--per-cluster",
                          "-k", "2", "--length", "30w"])
    assert code == 0, err
    blocks = out.split("\n\n")
    assert len(blocks) == 2 and all(b.startswith("== cluster ") for b in blocks)
    words = {"space": {"telescope", "galaxy", "comet", "planet", "astronomers", "star"},
             "food": {"garlic", "oven", "dough", "bread", "sauce", "onion"}}
    topics = set()
    for block in blocks:
        text = block.split("\n", 1)[1].lower()
        topics |= {t for t, ws in words.items() if any(w in text for w in ws)}
        assert len(block.split("\n", 1)[1].split()) <= 30
    assert topics == {"space", "food"}
    assert "summary of cluster 0 (1 of 2)" in err and "summary of cluster 1 (2 of 2)" in err


def test_sentences_longer_than_the_length_are_named_as_the_reason(tmp_path, cli, text_folder):
    folder = text_folder(tmp_path / "d", TOPICS)
    for argv in (["--length", "5w"], ["--per-cluster", "-k", "2", "--length", "5w"]):
        code, out, err = cli(["summarize", folder, *argv])
        assert code == 2 and out == ""
        assert "no sentence fits within --length 5w: every one is longer" in err
    code, out, _ = cli(["summarize", folder, "--length", "5w", "--fill"])
    assert code == 0 and 0 < len(out.split()) <= 5


def test_posts_of_quoted_lines_only_are_said_to_hold_no_sentence(tmp_path, cli):
    """Said: "no sentence fits within --length 500w: every one is longer"."""
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "a").write_text("From: a@b.edu\nSubject: t\nLines: 1\n\n"
                                      "> a quoted line here with words\n")
    code, out, err = cli(["summarize", str(tmp_path / "d"), "--length", "500w"])
    assert code == 2 and out == ""
    assert "hold no sentence to summarize (of a mail or news post, only its own" in err


def test_summary_options_are_checked_before_the_fit(tmp_path, cli, text_folder):
    out = tmp_path / "out"
    code, printed, err = cli(["cluster", text_folder(tmp_path / "d", TOPICS), "-k", "2",
                              "--summaries", "--summary-length", "20", "-o", out])
    assert code == 2 and "--summary-length" in err
    assert "clustering" not in err and printed == "" and not out.exists()


def test_cluster_writes_summaries_csv(tmp_path, cli, text_folder):
    out = tmp_path / "out"
    code, _, _ = cli(["cluster", text_folder(tmp_path / "d", TOPICS), "-k", "2", "--min-df", "1",
                      "--summaries", "--summary-length", "20w", "-o", out])
    assert code == 0
    rows = list(csv.DictReader(open(out / "summaries.csv")))
    assert [r["cluster"] for r in rows] == ["0", "1"] and all(r["summary"] for r in rows)
    assert sorted(int(r["size"]) for r in rows) == [4, 4]


def test_cluster_names_summaries_left_empty_by_a_length_no_sentence_fits(tmp_path, cli,
                                                                         text_folder):
    """docnmf summarize refuses such a length; --summaries wrote empty cells without a word."""
    out = tmp_path / "out"
    code, _, err = cli(["cluster", text_folder(tmp_path / "d", TOPICS), "-k", "2", "--min-df",
                        "1", "--summaries", "--summary-length", "3w", "-o", out])
    assert code == 0
    with open(out / "summaries.csv", newline="") as fh:
        assert [r["summary"] for r in csv.DictReader(fh)] == ["", ""]
    assert ("2 of 2 clusters got an empty summary: none of their sentences fits within "
            "--summary-length 3w; give a longer one") in err


def test_a_cluster_summary_comes_from_its_most_representative_documents():
    texts = ["Alpha rockets launch from the coast every spring morning.",
             "Beta gardens bloom with roses along the river every summer.",
             "Gamma rockets carry satellites into a high orbit above the earth."]
    labels = np.array([0, 0, 0])
    memberships = np.array([[0.2], [0.9], [0.4]])
    (summary,) = summarize_clusters(texts, labels, memberships, 1, length="50w",
                                    max_documents=1, method="centroid")
    assert summary == texts[1]
    np.testing.assert_array_equal(pick_documents(3, 2, scores=memberships[:, 0]), [1, 2])
    # memberships of another shape were an IndexError
    with pytest.raises(ValueError, match=r"3 texts, labels of shape \(3,\), memberships of "
                                         r"shape \(3, 1\)"):
        summarize_clusters(texts, labels, memberships, 2)
    assert pick_documents(10, 4, random_state=1).tolist() == \
        sorted(pick_documents(10, 4, random_state=1).tolist())


def test_a_single_text_or_a_missing_one_is_refused_in_words():
    """A bare string was summarized character by character ('no index terms left'), and None
    became the sentence 'None'."""
    text = "The rover landed on Mars on Monday. Engineers cheered the landing at noon."
    with pytest.raises(TypeError, match="expected an iterable of documents, got a single string"):
        summarize_texts(text, "20w")
    with pytest.raises(ValueError, match="document 1 is NoneType None, not a string"):
        summarize_texts([text, None], "20w")
    assert summarize_texts([text], "20w")


def test_a_summary_of_news_posts_is_made_of_their_own_sentences():
    """Summaries of 20 Newsgroups posts were their header lines ("From: ... Subject: ...
    Organization: ..."), then their quotations of other posts."""
    rng = np.random.default_rng(0)
    own = ["The comet will pass close to the sun next spring.",
           "Telescopes in the south will see its tail best.",
           "Amateur astronomers are planning night watches.",
           "Its orbit was measured from photographs taken last year."]
    posts = []
    for i in range(12):
        picked = rng.choice(own, 2, replace=False)
        posts.append(f"From: user{i}@uni.edu (User {i})\nSubject: Re: the comet\n"
                     f"Organization: University\nLines: 9\n\n"
                     f"In article <{i}@uni.edu> user{i + 1}@uni.edu writes:\n"
                     f">Somebody wrote that the comet is a hoax and nobody saw it.\n"
                     f"> Quoted words from the earlier post about the comet.\n\n"
                     + " ".join(picked))
    summary = summarize_texts(posts, length="40w", random_state=0)
    assert summary and all(line in own for line in summary.splitlines())
    # a text that only starts like a header is left whole
    note = ("Note: the comet is back. Subject to weather, we will watch it tonight. "
            "Everyone is welcome to join the watch.")
    summary = summarize_texts([note, note.upper()], length="60w")
    assert "note: the comet is back." in summary.lower()


def test_a_summary_of_web_pages_is_made_of_their_text():
    """Saved HTML pages were summarized as their markup: each page one "sentence" from
    <!DOCTYPE html> through the script to &amp;."""
    page = ("<!DOCTYPE html><html><head><title>Comet</title><script>var s = 'No. Not this.';"
            "</script><style>p {{color: red}}</style></head><body><p>{}</p><p>{}</p></body>"
            "</html>")
    pages = [page.format("The comet will pass close to the sun next spring.",
                         "Telescopes will see its tail best &amp; brightest."),
             page.format("Amateur astronomers plan night watches in the hills.",
                         "Its orbit was measured from photographs last year.")]
    summary = summarize_texts(pages, length="60w", random_state=0)
    assert "Telescopes will see its tail best & brightest." in summary.splitlines()
    assert "<" not in summary and "var s" not in summary and "color" not in summary


def test_a_page_s_menu_and_copyright_line_are_no_sentences():
    """Pages' footers and menus ("Copyright (c) 2024 ... All rights reserved.", "Home | News |
    Sport") came into summaries as sentences: they are the longest ones many pages share."""
    page = ("<html><body><nav>Home | World News | Sport | Weather | Contact Us</nav>"
            "<p>{}</p><p>{}</p><footer>Copyright (c) 2024 The Daily Planet Media Group, "
            "Metropolis. All rights reserved.</footer>"
            "<p>Home &raquo; Science &raquo; Space &raquo; Comets and asteroids today</p>"
            "</body></html>")
    pages = [page.format("The comet will pass close to the sun next spring.",
                         "Telescopes will see its tail at its brightest in April."),
             page.format("Amateur astronomers plan night watches in the hills.",
                         "Its orbit was measured from photographs taken last year.")]
    summary = summarize_texts(pages, length="300w", random_state=0).splitlines()
    assert len(summary) == 4 and "Telescopes will see its tail at its brightest in April." \
        in summary
    assert not any(word in line for line in summary for word in ("|", "Copyright", "»"))
    # on a line of their own in plain text, where one line break goes on a sentence
    texts = [("The new observatory telescope mirror was installed on Tuesday after a long "
              "journey.\n(c) 2024 Example Media\n"),
             ("Home | News | Sport\nEngineers said the telescope mirror would be aligned with "
              "lasers next month.\n")]
    assert sorted(summarize_texts(texts, length="200w").splitlines()) == [
        "Engineers said the telescope mirror would be aligned with lasers next month.",
        "The new observatory telescope mirror was installed on Tuesday after a long journey."]
    # prose about copyright, quotes in guillemets and a pipe in a sentence are sentences
    prose = ["Copyright holders argue that the ruling would gut protection for programs.",
             "The treaty says that all rights reserved to the member states remain with them.",
             "Le ministre a répondu « oui » à la première question et « non » à la seconde.",
             "The shell command ls | wc -l counts the files in the folder."]
    assert sorted(summarize_texts(prose, length="300w", random_state=0).splitlines()) == \
        sorted(prose)


@pytest.mark.parametrize("post, body", [
    # a signature, after "-- " or "--": a name, an address, a motto, repeated in every post
    ("From: a@b.edu\nSubject: orbits\n\nThe comet is back.\n-- \nJohn Doe | Phone 555-0100\n",
     "The comet is back."),
    ("From: a@b.edu\nSubject: orbits\n\nThe comet is back.\n--\n\"Per aspera.\" -- J.\n",
     "The comet is back."),
    # an attribution wrapped over two lines left its first half
    (("From: a@b\nSubject: x\n\nIn article <1@abc.edu> jdoe@abc.edu (John\nDoe) writes:\n"
      "> q\nMy reply is here.\n"), "My reply is here."),
    # a note opening with Summary: / Keywords: lines is no post
    ("Summary: Revenue grew strongly.\nKeywords: revenue\n\nBody text.",
     "Summary: Revenue grew strongly.\nKeywords: revenue\n\nBody text."),
    ("\ufeffPlain text. Second.", "Plain text. Second."),
    # the other quote marks of newsreaders, and signatures under a rule or in a box
    (("From: a@b\nSubject: x\n\nIn article <1@c> d writes:\n|> Why not do this?\n"
      "| | old words\n: more old words\n}old too\n& and this\n+> and that\n"
      "My reply is here.\n\n====\nJohn Stafford\n"
      "All standard disclaimers apply.\n"), "My reply is here."),
    (("From: a@b\nSubject: x\n\nMy reply is here.\n+-------+\n|Tony Kidson | PGP |\n"
      "+-------+\n"), "My reply is here."),
    ("From: a@b\nSubject: x\n\nMy reply is here.\n--- Ed Green, former Ninjaite\n",
     "My reply is here."),
    # a rule with more than a signature's lines after it is the post's own
    (("From: a@b\nSubject: x\n\nPart one.\n=====\n" + "Line.\n" * 9),
     "Part one.\n=====\n" + "Line.\n" * 8 + "Line."),
    # and so are sentences after a rule, or a line that only starts with dashes
    (("From: a@b\nSubject: x\n\nServer error.\n=====\nWhy am I getting these messages "
      "when I type in xinit?\n"), ("Server error.\n=====\nWhy am I getting these messages "
     "when I type in xinit?")),
    ("From: a@b\nSubject: x\n\n---Hey isn't it funny how betas have bugs in them so often?\n",
     "---Hey isn't it funny how betas have bugs in them so often?"),
])
def test_a_post_s_signature_and_wrapped_attribution_are_no_sentences(post, body):
    from docnmf.summarize.matrices import body_of

    assert body_of(post).strip() == body


@pytest.mark.parametrize("start", [
    "<!-- saved from url=(0042)https://example.com/news/story-1.html -->\n<html>",
    ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0//EN">'
     "<html>"),
    "\ufeff<!DOCTYPE html><html>",
    "<head>",
])
def test_saved_pages_are_read_as_pages_whatever_comes_before_their_markup(start):
    """Only pages starting <!doctype html or <html were: a browser's "saved from" comment, an
    XML declaration, a byte-order mark or a fragment starting <head> went in as markup."""
    from docnmf.summarize.matrices import body_of

    page = start + ("<head><script>var s = 'No. Not this.';</script></head><body><p>The comet "
                    "is back.</p></body></html>")
    assert " ".join(body_of(page).split()) == "The comet is back."


def test_python_summaries_are_the_commands_whole_sentences(tmp_path, cli):
    """summarize_texts defaulted to FS-NMF cut at the limit ("... Opposition leaders"), where
    docnmf summarize gives the NMF ranking's whole sentences."""
    texts = [("The probe went into orbit around the red planet on Monday morning. Engineers "
             "cheered loudly as the first pictures of the dusty surface arrived. Funding for "
             "the next mission remains uncertain after the budget vote."),
             ("A lander touched down near the northern ice cap after a long cruise. Scientists "
             "hope its drill will reach water buried under the frozen soil. Opposition leaders "
             "questioned the cost of the whole programme in parliament.")]
    summary = summarize_texts(texts, length="17w")
    sentences = {s for t in texts for s in split_sentences(t)}
    assert summary and all(line in sentences for line in summary.splitlines())
    for i, text in enumerate(texts):
        (tmp_path / f"{i}.txt").write_text(text)
    code, out, _ = cli(["summarize", str(tmp_path), "--length", "17w"])
    assert code == 0 and out.rstrip("\n") == summary


def test_a_wire_story_s_headline_and_sign_off_are_no_part_of_a_sentence():
    """Reuters summaries read "U.S.-JAPAN NOT IN TRADE WAR, YEUTTER SAYS The United States and
    Japan ..." and ended on "Reuter"; a Choi file's "==========" stood inside a sentence."""
    stories = [("U.S.-JAPAN NOT IN TRADE WAR, YEUTTER SAYS\nThe United States and Japan are not "
               "involved in a trade war, the trade representative said.\n    He spoke to "
               "reporters after a meeting with the Japanese minister\n Reuter"),
               ("COCOA SHOWERS HELP BAHIA CROP\nShowers continued throughout the week in the "
               "cocoa zone, traders said.\n    Prospects for the coming harvest improved after "
               "the long drought\n REUTER")]
    stories[1] = stories[1].replace(" REUTER", " REUTER\n Reuter")     # two of them
    stories.append("GOLD FALLS IN LONDON\nGold fell to 400 dlrs an ounce in quiet London "
                   "trading today. REUTER")                         # on the sentence's line
    lines = summarize_texts(stories, length="200w").splitlines()
    assert lines and not any(w in line for line in lines
                             for w in ("SAYS", "BAHIA", "LONDON", "Reuter", "REUTER"))
    # a lead line with an acronym in a script with lower case, or in one without case, is no
    # headline: Russian and Japanese texts lost their first sentence
    for lead in ("Агентство NASA запустило новый спутник для наблюдения за погодой.",
                 "東京でIBMが新しい計算機を発表しました。"):
        text = lead + "\nПодробности на сайте www.example.org сегодня вечером."
        assert lead in summarize_texts([text], length="200w").splitlines()
    segments = ("The war ended in the spring of that year after the long winter .\n==========\n"
                "Analysis means the study of a thing by its parts and their relations .")
    assert sorted(summarize_texts([segments], length="100w").splitlines()) == [
        "Analysis means the study of a thing by its parts and their relations .",
        "The war ended in the spring of that year after the long winter ."]


def test_sentences_of_a_script_without_spaces_are_candidates_beside_others():
    """In a collection of German, Russian and Japanese texts, the Japanese one was left out of
    the summary: each of its sentences counted as one word, under the five-word minimum."""
    texts = ["Die Regierung hat am Montag neue Regeln für den Handel beschlossen.",
             "Правительство в понедельник приняло новые правила для торговли.",
             "政府は月曜日に貿易の新しい規則を決定しました。"]
    summary = summarize_texts(texts, length="300w").splitlines()
    assert "政府は月曜日に貿易の新しい規則を決定しました。" in summary and len(summary) == 3
