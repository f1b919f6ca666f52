"""``docnmf reproduce`` and ``docnmf evaluate`` end to end, in-process and as a subprocess."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from docnmf.cli import main
from docnmf.corpus import data_dir

WORDS = {
    "space": "telescope galaxy comet orbit planet star astronomer nebula rocket moon".split(),
    "food": "garlic onion sauce dough oven bread butter flour recipe salt".split(),
    "sport": "goal striker keeper league match referee penalty coach stadium trophy".split(),
    "money": "bank interest inflation bond yield share market investor loan currency".split(),
}


@pytest.fixture
def labelled_folder(tmp_path):
    rng = random.Random(0)
    root = tmp_path / "docs"
    for label, words in WORDS.items():
        (root / label).mkdir(parents=True)
        for i in range(6 + len(label)):
            text = " ".join(rng.choice(words) for _ in range(15))
            (root / label / f"{i:02d}.txt").write_text(text + ".")
    return root


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_a_data_folder_that_is_not_one_is_said_so(tmp_path, monkeypatch, capsys):
    """A mistyped DOCNMF_DATA listed every dataset as missing without a word on the folder."""
    monkeypatch.setenv("DOCNMF_DATA", str(tmp_path / "no_such_folder"))
    for argv in (["reproduce", "--list"], ["datasets"]):
        code, out, _ = run(argv, capsys)
        assert code == 0 and out.splitlines()[0] == (
            f"data folder: {tmp_path / 'no_such_folder'}  (which is not a folder: set "
            "DOCNMF_DATA to the folder that holds the corpora)")


def test_reproduce_list(capsys):
    code, out, _ = run(["reproduce", "--list"], capsys)
    assert code == 0
    for name in ("xu2003-tdt2", "xu2003-reuters", "cai2011-tdt2", "cai2011-reuters"):
        assert name in out
    assert "Tables 4 and 5" in out
    # the folder searched for the data comes first: "missing" said not where it was looked for
    header, blank, *rows = out.splitlines()
    said = ("set DOCNMF_DATA to change it" if data_dir().is_dir() else
            "which is not a folder: set DOCNMF_DATA to the folder that holds the corpora")
    assert header == f"data folder: {data_dir()}  ({said})" and not blank
    assert all(("found" in line) or ("missing" in line) for line in rows)
    # a name lists that one (it was ignored), an unknown name is said to be
    code, out, _ = run(["reproduce", "--list", "wang2011-fig2"], capsys)
    assert code == 0 and [line.split()[0] for line in out.splitlines()[2:]] == ["wang2011-fig2"]
    code, _, err = run(["reproduce", "--list", "nope"], capsys)
    assert code == 2 and "unknown table 'nope'" in err


def test_evaluate_end_to_end(labelled_folder, tmp_path, capsys):
    out_dir = tmp_path / "eval"
    argv = ["evaluate", str(labelled_folder), "--methods", "nmf,nmf-ncw", "--k-range", "2-3",
            "--runs", "2", "--restarts", "2", "--jobs", "1", "-o", str(out_dir)]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    assert f"report: {out_dir / 'report.md'}" in out
    assert "NMF-NCW" in out and "AC" in out and "paper" not in out and "ours" not in out
    assert "[8/8]" in err and "ETA" in err  # progress on standard error
    lines = (out_dir / "results.jsonl").read_text().splitlines()
    assert len(lines) == 1 + 2 * 2 * 2
    assert {json.loads(line)["method"] for line in lines[1:]} == {"nmf", "nmf-ncw"}
    report = (out_dir / "report.md").read_text()
    assert "### Purity" in report and "| NMF | mean ± sd |" in report and "paper" not in report
    assert "ours" not in report
    assert "![cluster](cluster.png)" in report
    assert (out_dir / "cluster.png").read_bytes()[:4] == b"\x89PNG"
    assert (out_dir / "summary.json").exists()
    assert not list(out_dir.glob(".*.tmp"))

    code, out, err = run(argv, capsys)  # a second run reuses everything
    assert code == 0 and "reusing 8 of 8 runs" in err and "[1/" not in err

    code, _, err = run(argv[:-2] + ["--seed", "5", "-o", str(out_dir)], capsys)
    assert code == 2 and "seed: 0 there, 5 now" in err
    assert f"{out_dir / 'results.jsonl'} holds results for other parameters" in err


def test_a_run_that_fails_before_its_first_result_leaves_nothing_in_the_way(tmp_path, capsys):
    """It said "the finished part of this run is kept" of a header, which then refused the
    run with the --min-df its error suggested."""
    for label, text in (("a", "comet orbit"), ("b", "garlic onion"), ("c", "goal match")):
        (tmp_path / "tiny" / label).mkdir(parents=True)
        (tmp_path / "tiny" / label / "1.txt").write_text(text)
    argv = ["evaluate", str(tmp_path / "tiny"), "--methods", "km", "--runs", "2",
            "-o", str(tmp_path / "t")]
    code, _, err = run(argv, capsys)
    assert code == 2 and "lower --min-df" in err and "kept in" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny"]
    code, _, err = run([*argv, "--min-df", "1"], capsys)
    assert code == 0, err


def test_a_clash_with_an_unpublished_run_names_the_file_where_it_lies(tmp_path):
    from docnmf.cli import _public

    staging = tmp_path / ".eval.partial"
    message = f"{staging / 'results.jsonl'} holds results for other parameters"
    # never published: the interrupted run's own folder is where the file is
    assert _public(message, staging, tmp_path / "eval") == message
    (tmp_path / "eval").mkdir()
    assert _public(message, staging, tmp_path / "eval") == \
        f"{tmp_path / 'eval' / 'results.jsonl'} holds results for other parameters"


def test_evaluate_prepares_subsets_with_the_text_options_of_cluster(labelled_folder, tmp_path,
                                                                    capsys):
    base = ["evaluate", str(labelled_folder), "--methods", "nmf", "--k-range", "2", "--runs",
            "1", "--restarts", "1", "--jobs", "1"]

    def header_and_run(extra, out):
        code, _, err = run(base + extra + ["-o", str(tmp_path / out)], capsys)
        assert code == 0, err
        lines = (tmp_path / out / "results.jsonl").read_text().splitlines()
        return json.loads(lines[0]), json.loads(lines[1])

    header, record = header_and_run([], "default")
    options = header["params"]["condition"]["text_options"]
    assert options == {"idf": "xu", "max_df": 0.95, "max_features": None, "min_df": 2,
                       "stem": True, "stop_words": "english", "tf": "raw"}
    assert "as_published" in header["params"] and not header["params"]["as_published"]
    # the same documents through docnmf cluster's own vectorizer give the same vocabulary size
    from docnmf.corpus import read_corpus
    from docnmf.text.vectorize import DocumentVectorizer
    corpus = read_corpus(str(labelled_folder))
    chosen = [i for i, labs in enumerate(corpus.labels) if labs[0] in record["classes"]]
    X = DocumentVectorizer().fit_transform([corpus.texts[i] for i in chosen])
    assert record["n_terms"] == X.shape[1] and record["n_docs"] == len(chosen)
    _, pruned = header_and_run(["--min-df", "1", "--max-features", "5"], "pruned")
    assert pruned["n_terms"] == 5
    # words of five or more letters only: fewer terms
    header, single = header_and_run(["--token-pattern", r"(?u)\b[^\W\d_]{5,}\b"], "long")
    assert header["params"]["condition"]["text_options"]["token_pattern"] == \
        r"(?u)\b[^\W\d_]{5,}\b"
    counted = DocumentVectorizer(token_pattern=r"(?u)\b[^\W\d_]{5,}\b").fit_transform(
        [corpus.texts[i] for i in chosen])
    assert single["n_terms"] == counted.shape[1] != X.shape[1]
    header, _ = header_and_run(["--weighting", "xu-subset", "--as-published"], "paper")
    assert "text_options" in header["params"]["condition"]
    assert "as_published" not in header["params"]


def test_evaluate_says_the_semi_supervised_methods_get_no_pairs(labelled_folder, tmp_path,
                                                                capsys):
    """They ran as their unconstrained forms, and their rows read as SS-NMF's and SS-KK's."""
    code, _, err = run(["evaluate", str(labelled_folder), "--methods", "nmf,ssnmf-ncw,ss-kk",
                        "--k-range", "2", "--runs", "1", "--restarts", "1", "--jobs", "1",
                        "-o", str(tmp_path / "ev")], capsys)
    assert code == 0, err
    assert ("ssnmf-ncw, ss-kk take must-/cannot-link pairs, and evaluate gives none: they "
            "cluster as their unconstrained forms would") in err


def test_evaluate_and_reproduce_say_what_the_default_method_is(labelled_folder, tmp_path,
                                                              capsys):
    """benchmark takes 'default'; these said only "unknown method 'default'"."""
    for args in (["evaluate", str(labelled_folder)], ["reproduce", "xu2003-tdt2"]):
        code, _, err = run([*args, "--methods", "nmf,Default", "-o", str(tmp_path / "ev")],
                           capsys)
        assert code == 2
        assert (f"{args[0]} runs methods by name: the default of docnmf cluster is lccf-ncw "
                "(clustered again with consensus when its result is degenerate); name lccf-ncw, "
                "or run docnmf benchmark --methods default") in err
        assert not (tmp_path / "ev").exists()


def test_evaluate_gives_each_method_what_cluster_gives_it(labelled_folder, tmp_path, capsys):
    """The consensus and PLSI got tf-idf (the consensus said 'give counts'), NMA tf-idf too,
    which it cannot read: a traceback and a .partial folder left behind."""
    from docnmf.corpus import read_corpus
    from docnmf.experiments.protocol import method_seed
    from docnmf.methods import make_estimator
    from docnmf.metrics import clustering_accuracy
    from docnmf.text.vectorize import DocumentVectorizer

    out = tmp_path / "ev"
    code, _, err = run(["-q", "evaluate", str(labelled_folder), "--methods", "nma,consensus,plsi",
                        "--k-range", "4", "--runs", "1", "--restarts", "2", "--jobs", "1",
                        "-o", str(out)], capsys)
    assert code == 0, err
    records = {r["method"]: r for r in map(json.loads, (out / "results.jsonl").read_text()
                                           .splitlines()[1:])}
    assert sorted(records) == ["consensus", "nma", "plsi"]
    assert not any(r["warnings"] for r in records.values())
    # the same fit as docnmf cluster makes of these texts: counts of its vocabulary, the texts
    corpus = read_corpus(str(labelled_folder))
    labels = [labs[0] for labs in corpus.labels]
    options = {"stop_words": "english", "stem": True, "min_df": 2, "max_df": 0.95}
    counts = DocumentVectorizer(**options).fit_count(corpus.texts)
    for method, data, extra in [
            ("consensus", counts, {}),
            ("nma", corpus.texts, {"vectorizer": DocumentVectorizer(**options)})]:
        model = make_estimator(method, 4, random_state=method_seed(0, 4, 0, method), n_init=2,
                               **extra)
        expected = clustering_accuracy(labels, model.fit_predict(data))
        assert records[method]["accuracy"] == pytest.approx(expected, abs=1e-12)
    assert records["nma"]["n_terms"] == counts.shape[1]
    assert not list(tmp_path.glob(".ev.*"))


@pytest.mark.parametrize("argv, message", [
    (["reproduce", "nope"], "unknown table 'nope' (choose from xu2003-tdt2, "),
    (["reproduce", "xu2003"], "unknown table 'xu2003'; did you mean xu2003-tdt2 or xu2003-reuters?"),
    (["reproduce", "--list", "cai2011-tdt"], "unknown table 'cai2011-tdt'; did you mean cai2011-tdt2"),
    (["reproduce"], "give a table name"),
    (["reproduce", "cai2011-tdt2", "--methods", "nmf,bogus"], "unknown method 'bogus'"),
    (["reproduce", "cai2011-tdt2", "--weighting", "bm25"], "unknown weighting 'bm25'"),
    # the figures' and other targets' runs are their own: these were ignored without a word
    (["reproduce", "wang2011-fig2", "--methods", "km", "--k-range", "2-3"],
     "--methods and --k-range choose among a table's runs; wang2011-fig2 runs its figure's"),
    (["reproduce", "chen2008-table3", "--weighting", "cai-global"], "--weighting chooses"),
    (["evaluate", "{folder}", "--methods", "nmf,bogus"], "unknown method 'bogus'"),
    (["evaluate", "{folder}", "--k-range", "2-5"], "k=5 is more than the 4 classes"),
    # benchmark's variants were "unknown method 'ssnmf:pairs=0.01'"
    (["evaluate", "{folder}", "--methods", "ssnmf:pairs=0.01"],
     "evaluate takes method names alone, not variants"),
    (["evaluate", "{folder}", "--k-range", "two"], "--k-range expects"),
    (["evaluate", "{flat}"], "has no labels; the evaluation needs a class for every document"),
    # a table whose classes are in a column not named "label": which option reads it was unsaid
    (["evaluate", "{table}"], ("for every document; name the column that holds them with "
                               "--label-column")),
    # as for the other kinds of table: an .ndjson file, a folder of table partitions
    (["evaluate", "{ndjson}"], "name the column that holds them with --label-column"),
    (["evaluate", "{parts}"], "name the column that holds them with --label-column"),
    (["evaluate", "no/such/folder"], "no such file or folder"),
    (["evaluate", "{tiny}", "--methods", "km", "--jobs", "2"], "no term of non-zero weight"),
    (["evaluate", "{shared}", "--methods", "km", "--jobs", "2"], "no term of non-zero weight"),
])
def test_mistakes_are_one_line_and_status_2(argv, message, labelled_folder, tmp_path, capsys):
    flat = tmp_path / "flat"
    flat.mkdir()
    for i in range(3):
        (flat / f"{i}.txt").write_text("garlic onion bread")
    tiny = tmp_path / "tiny"      # one document per class: no term in two of a subset's
    for label, text in (("a", "comet orbit"), ("b", "garlic onion")):
        (tiny / label).mkdir(parents=True)
        (tiny / label / "1.txt").write_text(text)
    shared = tmp_path / "shared"  # the terms kept are in every document: idf 0 everywhere
    for label, text in (("a", "rate oven onion planet comet"), ("b", "orbit rate oven onion")):
        (shared / label).mkdir(parents=True)
        (shared / label / "1.txt").write_text(text)
    table = tmp_path / "docs.csv"
    table.write_text("id,text,topic\n1,garlic onion,food\n2,comet orbit,space\n")
    ndjson = tmp_path / "docs.ndjson"
    ndjson.write_text('{"text": "garlic onion", "topic": "food"}\n'
                      '{"text": "comet orbit", "topic": "space"}\n')
    parts = tmp_path / "parts"
    parts.mkdir()
    (parts / "part-1.csv").write_text("id,text,topic\n1,garlic onion,food\n")
    (parts / "part-2.csv").write_text("id,text,topic\n2,comet orbit,space\n")
    subst = {"{folder}": str(labelled_folder), "{flat}": str(flat), "{tiny}": str(tiny),
             "{shared}": str(shared), "{table}": str(table), "{ndjson}": str(ndjson),
             "{parts}": str(parts)}
    argv = [subst.get(a, a) for a in argv] + ["-o", str(tmp_path / "out")]
    code, _, err = run(argv, capsys)
    assert code == 2
    lines = [line for line in err.splitlines() if line.startswith("docnmf: error")]
    assert len(lines) == 1 and message in lines[0], err
    assert "Traceback" not in err


def test_evaluate_subprocess_with_two_workers(labelled_folder, tmp_path, docnmf_env):
    env = docnmf_env
    proc = subprocess.run(
        [sys.executable, "-m", "docnmf", "evaluate", str(labelled_folder), "--methods", "nmf",
         "--k-range", "2", "--runs", "3", "--restarts", "1", "--jobs", "2",
         "-o", str(tmp_path / "o")],
        capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert len((tmp_path / "o" / "results.jsonl").read_text().splitlines()) == 4


def test_the_demo_corpus_is_recorded_by_its_name(tmp_path, capsys, monkeypatch):
    """evaluate demo recorded the current folder + "demo", a path that does not exist, so the
    same command run from another folder was refused for other parameters."""
    argv = ["evaluate", "demo", "--methods", "km", "--runs", "1", "--k-range", "2",
            "-o", str(tmp_path / "ev")]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    monkeypatch.chdir(tmp_path / "a")
    assert run(argv, capsys)[0] == 0
    header = json.loads((tmp_path / "ev" / "results.jsonl").read_text().splitlines()[0])
    assert header["params"]["condition"]["source"] == "demo"
    monkeypatch.chdir(tmp_path / "b")
    code, _, err = run(argv, capsys)
    assert code == 0 and "reusing 1 of 1 runs" in err


def test_method_and_weighting_names_are_taken_in_any_case(tmp_path, capsys):
    """'--methods KM' was 'unknown method', where cluster's --method takes 'KM' as km."""
    argv = ["evaluate", "demo", "--methods", "KM,km", "--weighting", "Cluster", "--runs", "1",
            "--k-range", "2", "-o", str(tmp_path / "ev")]
    assert run(argv, capsys)[0] == 0
    records = [json.loads(line) for line in
               (tmp_path / "ev" / "results.jsonl").read_text().splitlines()[1:]]
    assert {(r["method"], r["weighting"]) for r in records} == {("km", "cluster")}


def test_the_report_says_how_the_runs_were_set_up(tmp_path, capsys):
    """report.md and summary.json of --as-published and of the methods' defaults, or of other
    text options, differed only in their numbers: nothing said which settings made them."""
    common = ["evaluate", "demo", "--methods", "km", "--runs", "1", "--k-range", "2"]
    assert run([*common, "--min-df", "5", "--max-features", "50", "-o", str(tmp_path / "a")],
               capsys)[0] == 0
    assert run([*common, "--as-published", "-o", str(tmp_path / "b")], capsys)[0] == 0
    a, b = ((tmp_path / f / "report.md").read_text() for f in "ab")
    assert "- Method settings: each method's own defaults" in a
    assert "- Method settings: as published" in b
    assert "max_features=50, min_df=5" in a and "max_features=None, min_df=2" in b
    assert "- Software: docnmf " in a and "scikit-learn " in a
    summary = json.loads((tmp_path / "b" / "summary.json").read_text())
    assert summary["as_published"] is True and summary["software"]["docnmf_version"]
    # one run has no spread to show ("± 0.000"), and is one run
    assert "1 run per k" in a and "± 0.000" not in a


def test_evaluate_says_on_standard_error_when_runs_raised_warnings(labelled_folder, tmp_path,
                                                                   capsys):
    """Documents without index terms are fitted and scored by the protocol (cluster labels
    them -1): only report.md and results.jsonl said so."""
    for i in range(3):
        (labelled_folder / "food" / f"empty{i}.txt").write_text("the of and it.")
    argv = ["evaluate", str(labelled_folder), "--methods", "nmf-ncw", "--k-range", "4",
            "--runs", "1", "--jobs", "1", "-o", str(tmp_path / "eval")]
    code, _, err = run(argv, capsys)
    assert code == 0, err
    assert "1 of 1 runs raised warnings, e.g. UserWarning: NMFClustering: 3 of the" in err
    assert "have no terms (all-zero rows)" in err
    (labelled_folder / "food" / "empty0.txt").unlink()
    (labelled_folder / "food" / "empty1.txt").unlink()
    (labelled_folder / "food" / "empty2.txt").unlink()
    code, _, err = run(argv[:-1] + [str(tmp_path / "clean")], capsys)
    assert code == 0 and "raised warnings" not in err


def test_evaluate_says_when_its_runs_must_repeat_subsets(labelled_folder, tmp_path, capsys):
    argv = ["evaluate", str(labelled_folder), "--methods", "nmf", "--k-range", "2-4", "--runs",
            "5", "--jobs", "1", "-o", str(tmp_path / "eval")]
    code, _, err = run(argv, capsys)
    assert code == 0, err
    assert "k=2" not in err.split("[1/")[0]                  # 6 sets of 2 of the 4 classes
    assert ("k=3: the 4 classes hold only 4 different sets of 3 classes, so the 5 runs repeat "
            "subsets\n") in err
    assert "k=4: the 4 classes hold one set of 4 classes, so the 5 runs repeat subsets (they " \
           "differ in their starts only)" in err
    code, _, err = run(argv[:5] + ["4-5"] + argv[6:], capsys)    # 5 classes of 4: refused
    assert code == 2 and "more than the 4 classes" in err and "k=5: the" not in err


@pytest.mark.parametrize("option, said", [("--k-range", "--k-range expects"),
                                          ("--weighting", "no weighting given")])
def test_an_empty_k_range_or_weighting_is_refused_not_the_default(option, said, labelled_folder,
                                                                  tmp_path, monkeypatch, capsys):
    """evaluate and reproduce took an empty --k-range or --weighting (an unset variable in
    --k-range "$K") for the default and ran it, where cluster and choose-k refuse ''."""
    monkeypatch.setenv("DOCNMF_DATA", str(tmp_path / "no-corpora"))
    for argv in (["evaluate", str(labelled_folder), "--methods", "nmf", "--runs", "1",
                  "--restarts", "1", "--jobs", "1"], ["reproduce", "xu2003-tdt2"]):
        out = tmp_path / f"out-{argv[0]}"
        code, _, err = run(["-q", *argv, option, "", "-o", str(out)], capsys)
        assert (code, said in err, out.exists()) == (2, True, False), err
