"""The ``docnmf keywords`` command, run in-process on a small folder."""

from __future__ import annotations

import pytest

from docnmf.cli import main

TOPICS = {
    "astronomy": ["the telescope observed a distant galaxy and a bright star",
                  "astronomers saw the star and the galaxy through the telescope",
                  "a new telescope maps every galaxy and star in the night sky"],
    "cooking": ["fry the onion and garlic in oil then add the sauce",
                "chop the garlic and onion and stir into the tomato sauce",
                "serve the sauce with onion garlic and fresh bread"],
    "finance": ["the bank raised interest rates and bond yields rose",
                "shares fell as the bank warned on interest rates",
                "bond markets rallied when the bank cut interest rates"],
}


@pytest.fixture
def folder(tmp_path):
    for topic, texts in TOPICS.items():
        (tmp_path / topic).mkdir()
        for i, text in enumerate(texts):
            (tmp_path / topic / f"{i}.txt").write_text(text, encoding="utf-8")
    return tmp_path


def test_keywords_prints_collection_and_clusters(folder, capsys):
    assert main(["-q", "keywords", str(folder), "-k", "3", "-n", "4", "--restarts", "2"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 4
    assert lines[0].startswith("collection keywords (FS-NMF feature weights")
    assert len(lines[0].split(": ", 1)[1].split(", ")) == 4
    sizes = [int(line.split("(")[1].split()[0]) for line in lines[1:]]
    assert sum(sizes) == 9
    # each topic's own words name one cluster
    clusters = " | ".join(lines[1:])
    for word in ("telescope", "garlic", "bank"):
        assert word in clusters


@pytest.mark.parametrize("argv", [["-k", "1"], ["-k", "0"], ["-k", "50"],
                                  ["-k", "2", "--alpha", "1.5"]])
def test_keywords_usage_errors_exit_2(folder, capsys, argv):
    assert main(["-q", "keywords", str(folder), *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("docnmf: error:") and "Traceback" not in err


def test_keywords_missing_input_exits_2(tmp_path, capsys):
    assert main(["-q", "keywords", str(tmp_path / "nowhere"), "-k", "2"]) == 2
    assert "docnmf: error:" in capsys.readouterr().err


def test_keywords_on_demo_corpus_are_topical():
    from docnmf.corpus.demo import load_demo
    from docnmf.summarize.api import keywords_report

    corpus = load_demo()
    lines = keywords_report(corpus.texts, 5, n_keywords=10, n_init=2).splitlines()
    collection = set(lines[0].split(": ", 1)[1].split(", "))
    sizes = [int(line.split("(")[1].split()[0]) for line in lines[1:]]
    assert min(sizes) >= 10  # NMF-NCW does not collapse as FS-NMF's own clusters do
    cluster_words = {w for line in lines[1:] for w in line.split(": ", 1)[1].split(", ")}
    # the weighted terms are the clusters' own vocabulary, not rare one-off words
    assert len(collection & cluster_words) >= 5


def test_documents_without_index_terms_are_in_no_cluster_and_restarts_are_named_unused(
        folder, capsys):
    (folder / "cooking" / "9.txt").write_text("the and of it", encoding="utf-8")  # stop words
    assert main(["keywords", str(folder), "-k", "3", "-n", "4", "--restarts", "5"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.strip().splitlines()
    assert sum(int(line.split("(")[1].split()[0]) for line in lines[1:4]) == 9
    assert lines[4] == "in no cluster: 1 document without index terms"
    assert "--restarts 5 had no effect" in captured.err and "have no terms" not in captured.err


def test_alpha_is_named_as_having_no_effect_on_the_ranking(folder, capsys):
    """Eq. 2's weight falls as a term's residual grows whatever the exponent, so the keywords
    printed never depended on --alpha, which the help presented as a setting."""
    assert main(["keywords", str(folder), "-k", "3", "-n", "6"]) == 0
    plain = capsys.readouterr()
    assert "--alpha" not in plain.err
    for alpha in ("0.05", "0.95"):
        assert main(["keywords", str(folder), "-k", "3", "-n", "6", "--alpha", alpha]) == 0
        given = capsys.readouterr()
        assert given.out == plain.out
        assert f"--alpha {alpha} had no effect" in given.err


def test_keywords_report_refuses_a_missing_text_rather_than_read_the_word_nan():
    from docnmf.corpus.demo import load_demo
    from docnmf.summarize.api import keywords_report

    with pytest.raises(ValueError, match="document 80 is float nan, not a string"):
        keywords_report(load_demo().texts + [float("nan")], 5, n_init=1)


def test_keywords_takes_max_df_as_its_pruning_message_asks(capsys):
    """'raise max_df, e.g. to 1.0', said for a keywords run that had no --max-df."""
    assert main(["-q", "keywords", "demo", "-k", "5"]) == 0
    default = capsys.readouterr().out
    assert main(["-q", "keywords", "demo", "-k", "5", "--max-df", "0.1"]) == 0
    pruned = capsys.readouterr().out
    assert pruned != default and "collection keywords" in pruned


#: Two French news sentences written for these tests, one per topic.
FRENCH_PAIR = ["Selon le ministre, ces aides seront versées dès le mois prochain aux entreprises.",
               ("L'équipe nationale a remporté le match grâce à deux buts marqués en seconde "
                "mi-temps.")]


@pytest.mark.parametrize("texts, said", [
    (["天文学家观测到明亮的彗星和遥远的星系。", "厨师在烤箱里烤面包和黄油蛋糕。"],
     "a keyword is such a run, often a whole sentence"),
    (["Selon le ministre, ces aides seront versées dès le mois prochain aux entreprises.",
      "L'équipe nationale a remporté le match grâce à deux buts marqués en seconde mi-temps."],
     "the texts do not look English"),
])
def test_keywords_say_when_the_texts_are_not_english(tmp_path, capsys, texts, said):
    """Keywords of Chinese text came out as whole sentences, of French text as French stop
    words, without a word of why."""
    for i in range(60):
        (tmp_path / f"{i:02d}.txt").write_text(" ".join([texts[i % 2]] * 6), encoding="utf-8")
    assert main(["keywords", str(tmp_path), "-k", "2", "--min-df", "1"]) == 0
    err = capsys.readouterr().err
    assert said in err
    # the command has cluster's text options: the advice names them unless they are given
    assert ("try --no-stem and --max-df 0.5" in err) == (said == "the texts do not look English")
    assert main(["keywords", str(tmp_path), "-k", "2", "--min-df", "1", "--no-stem",
                 "--max-df", "0.5"]) == 0
    assert "--no-stem" not in capsys.readouterr().err


def test_summaries_per_cluster_and_placements_say_it_once_with_advice_that_applies(tmp_path,
                                                                                   capsys):
    """summarize -k said it twice, the second time with cluster's options, which summarize
    refuses; assign advised --no-stem to a model fitted without stemming."""
    sentences = ["Selon le ministre, ces aides seront versées dès le mois prochain aux entreprises.",
                 ("L'équipe nationale a remporté le match grâce à deux buts marqués en seconde "
                  "mi-temps.")]
    for i in range(60):
        (tmp_path / f"{i:02d}.txt").write_text(" ".join([sentences[i % 2]] * 6), encoding="utf-8")
    assert main(["summarize", str(tmp_path), "--per-cluster", "-k", "2", "--length", "20w"]) == 0
    err = capsys.readouterr().err
    assert err.count("do not look English") == 1 and "try docnmf cluster --no-stem" in err
    out = tmp_path.parent / f"{tmp_path.name}-out"
    assert main(["-q", "cluster", str(tmp_path), "-k", "2", "--min-df", "1", "--no-stem",
                 "--max-df", "0.5", "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["assign", str(out), str(tmp_path), "-o", str(out.parent / "placed")]) == 0
    line = next(x for x in capsys.readouterr().err.splitlines() if "do not look English" in x)
    assert "try" not in line and "Porter" not in line


def _own_word(i: int) -> str:
    return f" mot{chr(97 + i % 26)}{chr(97 + i // 26)}"


def test_choose_k_says_when_the_texts_are_not_english(tmp_path, capsys):
    """choose-k, which takes --no-stem and --max-df, said nothing of French text."""
    sentences = ["Selon le ministre, ces aides seront versées dès le mois prochain aux entreprises.",
                 ("L'équipe nationale a remporté le match grâce à deux buts marqués en seconde "
                  "mi-temps.")]
    for i in range(60):    # a word of its own each: copies of two texts are refused
        (tmp_path / f"{i:02d}.txt").write_text(" ".join([sentences[i % 2]] * 6) + _own_word(i),
                                               encoding="utf-8")
    out = tmp_path.parent / f"{tmp_path.name}-ck"
    assert main(["choose-k", str(tmp_path), "--k-range", "2-3", "--restarts", "2", "--min-df", "1",
                 "-o", str(out)]) == 0
    assert "do not look English" in capsys.readouterr().err


def test_choose_k_says_what_a_word_is_once_when_no_word_is_left(tmp_path, capsys):
    """Chinese without spaces gives no index term: the hint to split the texts came twice, as
    a warning and again in the error."""
    for i in range(30):
        (tmp_path / f"{i:02d}.txt").write_text(f"我们今天去公园散步然后吃饭第{i}天天气很好",
                                               encoding="utf-8")
    assert main(["choose-k", str(tmp_path), "--k-range", "2-3",
                 "-o", str(tmp_path.parent / f"{tmp_path.name}-ck")]) == 2
    err = capsys.readouterr().err
    assert "error: all documents are empty" in err and err.count("without spaces") == 1


def test_choose_k_advises_only_the_options_not_given_already(tmp_path, capsys):
    for i in range(60):
        (tmp_path / f"{i:02d}.txt").write_text(" ".join([FRENCH_PAIR[i % 2]] * 6) + _own_word(i),
                                               encoding="utf-8")
    out = tmp_path.parent / f"{tmp_path.name}-ck"
    assert main(["choose-k", str(tmp_path), "--k-range", "2-3", "--restarts", "2", "--min-df", "1",
                 "--no-stem", "-o", str(out)]) == 0
    line = next(x for x in capsys.readouterr().err.splitlines() if "do not look English" in x)
    assert line.endswith("try --max-df 0.5: the words in over half of the documents, most "
                         "often that language's stop words, are then dropped")
    assert "Porter" not in line         # --no-stem: no stemming to speak of


def test_evaluate_says_when_the_texts_are_not_english(tmp_path, capsys):
    """evaluate scored a labelled folder of French text with English stop words and stemming,
    without a word of it."""
    for label, sentence in zip(("economy", "sport"), FRENCH_PAIR):
        (tmp_path / "docs" / label).mkdir(parents=True)
        for i in range(20):
            (tmp_path / "docs" / label / f"{i:02d}.txt").write_text(" ".join([sentence] * 6),
                                                                  encoding="utf-8")
    assert main(["evaluate", str(tmp_path / "docs"), "--methods", "nmf", "--runs", "1",
                 "--k-range", "2", "--restarts", "1", "--min-df", "1", "--max-df", "0.5",
                 "-o", str(tmp_path / "ev")]) == 0
    line = next(x for x in capsys.readouterr().err.splitlines() if "do not look English" in x)
    assert line.endswith("try --no-stem")


@pytest.mark.parametrize("command", [["keywords", "-k", "5"],
                                     ["choose-k", "--k-range", "2-3", "--restarts", "2"]])
def test_keywords_and_choose_k_name_boilerplate_as_cluster_does(tmp_path, capsys, command):
    from docnmf.corpus.demo import load_demo

    notice = ("This e-mail and any attachments are confidential and intended for the "
              "addressee only.")
    folder = tmp_path / "mail"
    folder.mkdir()
    for i, text in enumerate(load_demo().texts):
        (folder / f"{i:02d}.txt").write_text(f"{text}\n\n{notice if i % 2 else ''}\n")
    extra = ["-o", str(tmp_path / "out")] if command[0] == "choose-k" else []
    assert main([command[0], str(folder), *command[1:], *extra]) == 0
    assert ("1 line (of 5 words or more, or runs of 4 shorter ones, a menu's items) recurs in "
            "50% of the documents, e.g. \"this e-mail and any attachments") \
        in capsys.readouterr().err


def test_keywords_names_documents_in_another_language(tmp_path, capsys):
    """A German tenth of the documents made a cluster keyed "die, den, ein" in silence."""
    from docnmf.corpus.demo import load_demo

    from .test_pipeline_results import FOREIGN

    folder = tmp_path / "docs"
    folder.mkdir()
    for i, text in enumerate(load_demo().texts + [FOREIGN[i % 2] + f" ({i})" for i in range(8)]):
        (folder / f"{i:02d}.txt").write_text(text)
    assert main(["keywords", str(folder), "-k", "5"]) == 0
    assert "8 of the 88 documents read look written in another language than English" in \
        capsys.readouterr().err


def test_text_saved_on_windows_is_read_in_the_encoding_named(tmp_path, capsys):
    """Files in cp1252 were read as UTF-8 with replacement characters, "café" as "caf" and
    "résumé" as "sum", and the warning said so without saying what to do; the command line had
    no --encoding (the Python readers have)."""
    for topic, texts in TOPICS.items():
        (tmp_path / topic).mkdir()
        for i, text in enumerate(texts):
            extra = " at the café with a résumé" if topic == "cooking" else ""
            (tmp_path / topic / f"{i}.txt").write_bytes((text + extra).encode("cp1252"))
    args = ["keywords", str(tmp_path), "-k", "3", "-n", "12", "--min-df", "1"]
    assert main(args) == 0
    out, err = capsys.readouterr()
    assert "3 files in" in err and "not valid utf-8" in err
    assert "name it with --encoding (encoding= in Python): cp1252 for text saved on Windows" in err
    assert " caf," in out and "café" not in out
    assert main([*args, "--encoding", "cp1252"]) == 0
    out, err = capsys.readouterr()
    assert "not valid" not in err and "café" in out and "résumé" in out
    with pytest.raises(SystemExit):
        main([*args, "--encoding", "rot13"])
    assert "'rot13' is no text encoding" in capsys.readouterr().err
    assert main(["-q", "keywords", "demo", "-k", "2", "--encoding", "latin-1"]) == 0
    assert "--encoding: read for text files and tables; demo is neither" in capsys.readouterr().err


def test_a_small_cluster_of_keywords_is_said_as_cluster_says_it(tmp_path, capsys):
    """A cluster of 2 of Classic4's 7,097 documents, on one signature's words, went by unsaid."""
    import csv

    from docnmf.corpus.demo import load_demo

    demo = load_demo()
    texts = demo.texts + ["zebra giraffe elephant savanna lion " * 3] * 2
    with open(tmp_path / "docs.csv", "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([("id", "text")] + [(f"d{i}", t) for i, t in enumerate(texts)])
    assert main(["keywords", str(tmp_path / "docs.csv"), "-k", "6"]) == 0
    err = capsys.readouterr().err
    assert "has only 2 of the documents (under 1% of them or under 3, and under half the mean " \
        "size)\n" in err
    assert "removing them or a smaller -k may give" in err and "--method" not in err


def test_keywords_reads_the_words_as_cluster_does_with_its_text_options(capsys):
    """keywords had --min-df and --max-df only: stop words, stems, the token pattern, the
    vocabulary's size and the weighting could not be set as for the clusters it describes."""
    def report(*options):
        assert main(["-q", "keywords", "demo", "-k", "5", "-n", "10", *options]) == 0
        out = capsys.readouterr().out
        return [line.split(": ", 1)[1].split(", ") for line in out.splitlines()
                if not line.startswith("in no cluster")]

    default = report()
    words = {w for line in default for w in line}
    assert not words & {"the", "and", "of", "to", "in"}
    kept = {w for line in report("--keep-stop-words") for w in line}
    assert kept & {"the", "and", "of", "to", "in", "then"}
    # unstemmed, a word is shown as it is written, in its most frequent form or not
    assert report("--no-stem") != default
    few = report("--max-features", "12")
    assert len({w for line in few for w in line}) <= 12
    assert report("--tf", "binary", "--idf", "smooth") != default
    numbers = {w for line in report("--token-pattern", r"(?u)\b\w+\b", "--min-df", "1")
               for w in line}
    assert numbers != words


def test_summaries_per_cluster_and_placements_advise_options_they_take(tmp_path, capsys):
    """summarize -k advised '--method consensus' (its --method ranks sentences: consensus is
    no choice of it) and '--max-df 0.3', an option neither it nor assign takes."""
    from docnmf.corpus.demo import load_demo

    notice = ("This e-mail and any attachments are confidential and intended for the "
              "addressee only.")
    folder = tmp_path / "mail"
    folder.mkdir()
    texts = load_demo().texts
    for i, text in enumerate(texts):
        (folder / f"{i:02d}.txt").write_text(f"{text}\n\n{notice if i % 2 else ''}\n")
    (folder / "odd.txt").write_text("Zebra quagga okapi. Zebra quagga okapi gnu.")
    (folder / "odd2.txt").write_text("Zebra quagga okapi gnu. Quagga okapi gnu zebra.")
    assert main(["summarize", str(folder), "-k", "6", "--length", "20w",
                 "--cluster-method", "nmf-ncw"]) == 0
    err = capsys.readouterr().err
    assert "; docnmf cluster --max-df 0.4 drops the words" in err
    assert "or --cluster-method consensus may give" in err
    assert "; --max-df" not in err and " --method consensus" not in err
    out = tmp_path / "out"
    assert main(["-q", "cluster", str(tmp_path / "mail"), "-k", "5", "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["assign", str(out), str(folder), "-o", str(tmp_path / "placed")]) == 0
    err = capsys.readouterr().err
    assert "; docnmf cluster --max-df 0.4 drops the words" in err and "; --max-df" not in err


def test_summaries_per_cluster_refuse_with_advice_they_take(tmp_path, capsys):
    """summarize -k's refusals advised cluster's options: '--method consensus or km', and
    '--min-df, --max-df, --max-features' or '--max-df 1.0 --idf smooth', which it has not."""
    few, same = tmp_path / "few", tmp_path / "same"
    few.mkdir()
    same.mkdir()
    for i in range(3):
        (few / f"a{i}.txt").write_text("Apple banana. Apple again.")
        (few / f"c{i}.txt").write_text("Cherry banana. Cherry again.")
        (same / f"{i}.txt").write_text("Apple banana cherry. Apple banana again cherry.")
    assert main(["summarize", str(few), "-k", "4", "--cluster-method", "nmf"]) == 2
    err = capsys.readouterr().err
    assert ("left 2: ask for fewer clusters, or use --cluster-method consensus or km, which may "
            "find more clusters than terms") in err
    assert main(["summarize", str(same), "-k", "2"]) == 2
    err = capsys.readouterr().err
    assert "every term is in every document" in err and "--max-df" not in err
    # cluster itself advises its own options, as before
    assert main(["cluster", str(few), "-k", "4", "--method", "nmf",
                 "-o", str(tmp_path / "out")]) == 2
    assert "keep more terms (--min-df, --max-df, --max-features), or use --method consensus" \
        in capsys.readouterr().err


def test_summaries_per_cluster_quote_the_documents_lines_as_written(tmp_path, capsys):
    """summarize -k names cluster's options as its own, in its advice only: a recurring line of
    the documents that says '--method' was quoted as '--cluster-method'."""
    from docnmf.corpus.demo import load_demo

    notice = "To unsubscribe from this list run the mailer with --method remove and your address."
    folder = tmp_path / "mail"
    folder.mkdir()
    for i, text in enumerate(load_demo().texts):
        (folder / f"{i:02d}.txt").write_text(f"{text}\n\n{notice if i % 2 else ''}\n")
    assert main(["summarize", str(folder), "-k", "4", "--length", "10w",
                 "--cluster-method", "nmf-ncw"]) == 0
    err = capsys.readouterr().err
    assert "run the mailer with --method remove and your address." in err
    assert "--cluster-method remove" not in err
    assert "; docnmf cluster --max-df 0.4 drops the words" in err


def test_summaries_per_cluster_refuse_one_term_with_advice_they_take(tmp_path, capsys):
    """With one term left the advice is '--method km, which may find ...' (no consensus): it
    was left as cluster's '--method km', which summarize's --method (a sentence ranking) refuses."""
    folder = tmp_path / "one"
    folder.mkdir()
    for i in range(6):
        (folder / f"a{i}.txt").write_text("Apple apple. The apple is here.")
    for i in range(3):
        (folder / f"b{i}.txt").write_text("It is the one. And so it is here.")
    assert main(["summarize", str(folder), "-k", "3", "--cluster-method", "nmf"]) == 2
    err = capsys.readouterr().err
    assert "left 1: ask for fewer clusters, or use --cluster-method km, which may find" in err
    assert "--method km" not in err.replace("--cluster-method km", "")
