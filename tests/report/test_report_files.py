"""report.html and the files it is built from: written by cluster, rebuilt by docnmf report."""

from __future__ import annotations

import csv
import json
import re
from html import escape as html_escape

import numpy as np
import pytest

from docnmf.cli import main
from docnmf.corpus.demo import load_demo
from docnmf.methods import DEFAULT_METHOD
from docnmf.pipeline import cluster_corpus
from docnmf.report import ReportError, read_run_folder, render_report
from docnmf.report.data import map_layout, map_sample, membership_bands
from docnmf.text.coherence import npmi_coherence


@pytest.fixture(scope="module")
def demo_out(tmp_path_factory):
    out = tmp_path_factory.mktemp("demo")
    assert main(["-q", "demo", "-o", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def consensus_out(tmp_path_factory):
    out = tmp_path_factory.mktemp("consensus")
    assert main(["-q", "demo", "--method", "consensus", "-o", str(out)]) == 0
    return out


def test_folder_holds_what_the_report_needs(demo_out):
    with np.load(demo_out / "memberships.npz", allow_pickle=False) as npz:
        M = npz["memberships"]
    with open(demo_out / "assignments.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert M.shape == (80, 5) and np.allclose(M.sum(axis=1), 1.0)
    assert [int(r["cluster"]) for r in rows] == M.argmax(axis=1).tolist()
    data = json.loads((demo_out / "report_data.json").read_text())
    assert data["map"]["n_shown"] == 80 and len(data["map"]["x"]) == 80
    assert len(data["similarity"]["matrix"]) == 5
    for cluster in data["clusters"]:
        weights = [k["weight"] for k in cluster["keywords"]]
        assert weights == sorted(weights, reverse=True) and len(weights) == 10
        assert all(r["snippet"] for r in cluster["representatives"])


def test_coherence_column_is_npmi_of_the_keywords(demo_out):
    corpus = load_demo()
    run = cluster_corpus(corpus, 5, DEFAULT_METHOD, vectorizer_params={"min_df": 2, "max_df": 0.95})
    with open(demo_out / "clusters.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    expected = npmi_coherence(run.X, run.keyword_columns)
    assert [float(r["coherence"]) for r in rows] == pytest.approx(expected, abs=1e-4)
    # the columns are the keywords printed
    assert [r["top_keywords"].split() for r in rows] == \
        [[str(run.feature_names[j]) for j in cols] for cols in run.keyword_columns]
    # topics of five unrelated subjects: their words go together
    assert np.all(expected > 0.05)


def test_report_is_self_contained(demo_out):
    html = (demo_out / "report.html").read_text(encoding="utf-8")
    assert "Content-Security-Policy" in html and "default-src 'none'" in html
    # no address outside the page: no src/href to a URL, no @import, no url(...)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", html)
    assert "@import" not in html and "url(" not in html
    assert html.count('<article class="cluster"') == 5
    assert len(html) < 200_000


def test_report_command_rebuilds_the_same_page(demo_out, capsys):
    before = (demo_out / "report.html").read_text(encoding="utf-8")
    (demo_out / "report.html").unlink()
    assert main(["report", str(demo_out)]) == 0
    assert (demo_out / "report.html").read_text(encoding="utf-8") == before
    assert "report.html" in capsys.readouterr().out


def test_report_command_waits_for_no_run_but_refuses_while_one_writes(demo_out, capsys):
    """A run replacing the folder while report read it gave a mix of the two: memberships of
    one run beside the clusters of the other."""
    from docnmf.io import OutputFolder

    class Stopped(Exception):
        """Ends the run below before it publishes anything."""

    before = (demo_out / "report.html").read_bytes()
    with pytest.raises(Stopped), OutputFolder(demo_out):    # a run holds the folder's lock
        assert main(["report", str(demo_out)]) == 2
        err = capsys.readouterr().err
        assert f"another docnmf run is writing to {demo_out}: run docnmf report once" in err
        assert "give another -o" not in err     # report has no -o
        assert (demo_out / "report.html").read_bytes() == before
        raise Stopped
    assert main(["report", str(demo_out)]) == 0


def test_report_command_refuses_bad_folders(tmp_path, demo_out, capsys):
    assert main(["report", str(tmp_path / "nowhere")]) == 2
    assert "no such result folder" in capsys.readouterr().err
    assert main(["report", str(tmp_path)]) == 2
    assert "has no run.json" in capsys.readouterr().err
    assert main(["report", str(demo_out / "run.json")]) == 2
    assert "run.json is a file; docnmf report takes the folder" in capsys.readouterr().err
    broken = tmp_path / "broken"
    broken.mkdir()
    for name in ("run.json", "clusters.csv", "assignments.csv"):
        (broken / name).write_bytes((demo_out / name).read_bytes())
    (broken / "memberships.npz").write_bytes(b"not a zip")
    assert main(["report", str(broken)]) == 2
    err = capsys.readouterr().err
    # numpy's own message suggested loading the file as a pickle
    assert "memberships.npz is not a readable .npz file" in err and "pickle" not in err
    (broken / "memberships.npz").write_bytes((demo_out / "memberships.npz").read_bytes())
    with open(broken / "clusters.csv", "a", encoding="utf-8") as fh:
        fh.write("garbage\n")          # blamed on memberships.npz, of another shape
    assert main(["report", str(broken)]) == 2
    assert "clusters.csv, data row 6: expected cluster 5, found 'garbage'" \
        in capsys.readouterr().err
    (broken / "clusters.csv").write_bytes((demo_out / "clusters.csv").read_bytes())
    (broken / "memberships.npz").unlink()
    (broken / "report.html").mkdir()
    assert main(["report", str(broken)]) == 2
    assert f"cannot write {broken / 'report.html'}: Is a directory" in capsys.readouterr().err
    (broken / "report.html").rmdir()
    with open(broken / "assignments.csv", "a", encoding="utf-8") as fh:
        fh.write('garbage,"\n')       # a quote never closed: the row's cluster is a line break
    assert main(["report", str(broken)]) == 2
    assert "assignments.csv, data row 81: the cluster ('\\n') must be a whole number" \
        in capsys.readouterr().err
    (broken / "run.json").write_text("{", encoding="utf-8")
    with pytest.raises(ReportError, match="not valid JSON"):
        read_run_folder(broken)


@pytest.mark.parametrize("name, text, message", [
    ("run.json", "[]", "holds a JSON list, not the object"),
    ("run.json", "[" * 100_000 + "]" * 100_000, "not valid JSON: RecursionError"),
    ("metrics.json", '"accuracy"', "holds a JSON str, not the object"),
    # parses, but edited out of the shape cluster writes: one line, not a traceback
    ("run.json", '{"corpus": "x", "parameters": [1, 2]}', "not as docnmf cluster writes them"),
    ("report_data.json", '{"clusters": 5}', "not as docnmf cluster writes them"),
])
def test_edited_json_files_are_one_line_errors(tmp_path, demo_out, capsys, name, text, message):
    for each in ("run.json", "clusters.csv", "assignments.csv", "report_data.json"):
        (tmp_path / each).write_bytes((demo_out / each).read_bytes())
    (tmp_path / name).write_text(text, encoding="utf-8")
    assert main(["report", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "report.html").exists()


@pytest.mark.parametrize("edit, part", [
    (lambda d: d["map"]["cluster"].__setitem__(0, '0"><img src=x onerror=alert(1)>'), "map"),
    (lambda d: d["map"]["cluster"].__setitem__(0, 99), "map"),
    (lambda d: d["map"]["x"].__setitem__(0, "<b>"), "map"),
    (lambda d: d["map"]["id"].pop(), "map"),
    (lambda d: d["similarity"]["matrix"][0].__setitem__(1, "<i>"), "similarity matrix"),
    # Python reads NaN and Infinity in JSON, the page got them as null, and its script stopped
    # at the first (the similarity and membership charts undrawn, an error in the console)
    (lambda d: d["similarity"]["matrix"][0].__setitem__(1, float("nan")), "similarity matrix"),
    (lambda d: d["similarity"]["matrix"][1].__setitem__(0, float("inf")), "similarity matrix"),
    (lambda d: d["map"]["x"].__setitem__(0, float("-inf")), "map"),
    # null where the part is: it was "the files in ... are not as docnmf cluster writes them
    # (TypeError: 'NoneType' object is not subscriptable)", which named no file
    (lambda d: d.__setitem__("map", None), "map"),
    (lambda d: d.__setitem__("similarity", None), "similarity matrix"),
])
def test_an_edited_map_is_refused_not_drawn(tmp_path, demo_out, capsys, edit, part):
    """The page's script builds the search results from the map: a cluster number edited into
    markup ran script there when someone searched."""
    for each in ("run.json", "clusters.csv", "assignments.csv", "memberships.npz"):
        (tmp_path / each).write_bytes((demo_out / each).read_bytes())
    data = json.loads((demo_out / "report_data.json").read_text(encoding="utf-8"))
    edit(data)
    (tmp_path / "report_data.json").write_text(json.dumps(data), encoding="utf-8")
    assert main(["report", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"report_data.json: its {part} is not the one docnmf cluster writes" in err
    assert not (tmp_path / "report.html").exists()


@pytest.mark.parametrize("name, command", [("my results", "'my results'"),
                                           ("-out", "./-out")])
def test_the_page_says_what_its_colours_and_rebuild_command_mean(demo_out, tmp_path, capsys,
                                                                 name, command):
    """The heatmap's colours are scaled to its largest cell (0.0011 was drawn darkest under
    "darker is more similar"); the footer's command was a path from where the run started,
    unquoted ("docnmf report my results": two arguments), and "docnmf report -out" was read
    as an option."""
    import html as html_module

    folder = tmp_path / name
    folder.mkdir()
    for each in ("run.json", "clusters.csv", "assignments.csv", "memberships.npz",
                 "report_data.json"):
        (folder / each).write_bytes((demo_out / each).read_bytes())
    assert main(["-q", "report", str(folder)]) == 0
    page = html_module.unescape((folder / "report.html").read_text(encoding="utf-8"))
    matrix = json.loads((folder / "report_data.json").read_text())["similarity"]["matrix"]
    largest = max(v for i, row in enumerate(matrix) for j, v in enumerate(row) if i != j)
    assert f"white is 0, the darkest {largest:.3g}, the largest between two clusters" in page
    assert f"rebuild with docnmf report {command} from the folder that holds it" in \
        re.sub(r"<[^>]+>", "", page)
    # the command as written there rebuilds the page, run from the folder that holds it
    import shlex
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "docnmf", "-q", "report",
                           *shlex.split(command)], cwd=tmp_path, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr


def _contrast(background: str, text: str) -> float:
    """WCAG's contrast ratio of two #rrggbb colours, from its definition."""
    def luminance(colour: str) -> float:
        channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    a, b = sorted([luminance(background), luminance(text)])
    return (b + 0.05) / (a + 0.05)


def test_counts_in_the_confusion_matrix_are_legible(demo_out):
    """White counts on light blue cells read at 2.2:1, and the shades were transparent, so
    that a printer's background setting changed them."""
    page = (demo_out / "report.html").read_text(encoding="utf-8")
    table = page[page.index('<table class="confusion">'):]
    table = table[:table.index("</table>")]
    cells = re.findall(r'<td style="background:(#[0-9a-f]{6})"( class=hi)?>(\d+)</td>', table)
    assert len(cells) == 25 and len(re.findall("<td", table)) == 25
    shades = {int(count): background for background, _, count in cells}
    assert shades[0] == "#ffffff"
    for background, hi, _ in cells:
        assert _contrast(background, "#ffffff" if hi else "#000000") >= 4.5, background
    assert any(hi for _, hi, _ in cells)       # the largest counts are white on dark


def test_facts_a_run_does_not_record_are_a_dash(demo_out, tmp_path):
    """The report of an assign run showed "None" for its seed and iterations."""
    placed = tmp_path / "placed"
    assert main(["-q", "assign", str(demo_out), "demo", "-o", str(placed)]) == 0
    page = (placed / "report.html").read_text(encoding="utf-8")
    assert "<td>None</td>" not in page and "<th>seed</th><td>–</td>" in page


def test_the_map_of_documents_with_no_spread_or_extreme_numbers_is_drawn():
    """t-SNE's native code crashed the process on these (its PCA start divides by the spread)."""
    same = np.full((20, 4), 0.25)
    xy, how = map_layout(same)
    assert xy.shape == (20, 2) and not xy.any() and "same memberships" in how
    rng = np.random.default_rng(0)
    for Z in (rng.random((20, 3)) * 1e300, rng.random((20, 3)) * 1e-300,
              np.vstack([np.full((19, 3), np.nan), np.ones((1, 3))])):
        xy, _ = map_layout(Z)
        assert xy.shape == (20, 2) and np.all(np.isfinite(xy))
    # scaling a row leaves its place on the map unchanged
    Z = rng.random((30, 3))
    assert np.allclose(map_layout(Z)[0], map_layout(Z * rng.uniform(1, 1e6, (30, 1)))[0],
                       atol=1e-6)


def test_older_folders_without_report_data_still_render(demo_out, tmp_path, capsys):
    for name in ("run.json", "clusters.csv", "assignments.csv"):
        (tmp_path / name).write_bytes((demo_out / name).read_bytes())
    html = render_report(read_run_folder(tmp_path))
    assert html.count('<article class="cluster"') == 5 and "not found in the folder" in html
    # keywords without weights are listed, not drawn as empty bars of weight 0
    assert "Keywords <small>heaviest first</small>" in html and '<span class="w">0</span>' \
        not in html
    assert "Similarity data (report_data.json) not found in the folder." in html
    assert "darker is more similar" not in html.split('id="similarity"')[1].split("</figure>")[0]
    # the command says what the page lacks
    code = main(["report", str(tmp_path)])
    assert code == 0 and "has no report_data.json" in capsys.readouterr().err


def test_map_sample_keeps_every_cluster_in_proportion():
    labels = np.repeat(np.arange(4), [5000, 3000, 1990, 10])
    s = map_sample(labels, np.random.default_rng(1), 1000)
    counts = np.bincount(labels[s], minlength=4)
    assert 1000 <= len(s) <= 1004 and len(np.unique(s)) == len(s)
    assert counts.tolist() == [500, 300, 199, 1]


def test_membership_bands_average_sorted_rows():
    rng = np.random.default_rng(0)
    M = rng.dirichlet(np.ones(3), size=1001)
    labels = M.argmax(axis=1)
    bands, clusters = membership_bands(M, labels, max_rows=100)
    assert bands.shape == (100, 3) and np.allclose(bands.sum(axis=1), 1.0)
    assert np.all(np.diff(clusters) >= 0)
    assert bands.mean(axis=0) == pytest.approx(M.mean(axis=0), abs=0.01)


def test_documents_in_no_cluster_stay_out_of_the_map_and_matrices(tmp_path):
    """A document empty after preprocessing is cluster -1: listed apart, not drawn."""
    from docnmf.corpus import Corpus
    from docnmf.pipeline import write_run

    demo = load_demo()
    corpus = Corpus(texts=list(demo.texts) + ["the and of"], labels=list(demo.labels) + [()],
                    ids=list(demo.ids) + ["empty"], metadata={"name": "demo+empty"})
    run = cluster_corpus(corpus, 5, DEFAULT_METHOD, vectorizer_params={"min_df": 2, "max_df": 0.95})
    assert run.labels[-1] == -1
    write_run(run, tmp_path)
    data = json.loads((tmp_path / "report_data.json").read_text())
    assert data["map"]["n_unassigned"] == 1 and data["map"]["n_documents"] == 80
    assert "empty" not in data["map"]["id"] and -1 not in data["map"]["cluster"]
    folder = read_run_folder(tmp_path)
    assert folder.labels[-1] == -1
    assert main(["-q", "report", str(tmp_path)]) == 0
    # the map's caption read "all documents" above 80 points of the page's 81 documents
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    caption = page.split('<section id="map">')[1].split("</figcaption>")[0]
    assert "all documents" not in caption
    assert "The 1 document in no cluster is not on the map." in caption
    # and the index of clusters has a row for it: its shares summed to 80 of 81 documents
    index = page.split("<h3>Clusters at a glance</h3>")[1].split("</table>")[0]
    assert ('<tr><td>none</td><td class="r">1</td><td class="r">1.2%</td><td class="bar"></td>'
            '<td class="r coh">–</td><td>in no cluster: no index term left after '
            'preprocessing</td></tr>') in index


def test_a_consensus_shows_its_members_agreement_instead_of_an_objective_curve(consensus_out):
    html = (consensus_out / "report.html").read_text(encoding="utf-8")
    run = json.loads((consensus_out / "run.json").read_text())
    section = html[html.index('<section id="objective">'):]
    section = section[:section.index("</section>")]
    assert "<h2>Consensus</h2>" in section and 'href="#objective">Consensus</a>' in html
    assert [m for m in run["consensus_members"]] == re.findall(r'<span class="t">([^<]+)</span>',
                                                               section)


def test_members_agreement_is_drawn_from_0_to_1_not_against_the_best_member(consensus_out,
                                                                            tmp_path):
    import shutil

    folder = tmp_path / "run"
    shutil.copytree(consensus_out, folder)
    run = json.loads((folder / "run.json").read_text())
    run["consensus_members"] = {"nmf/raw": 0.8, "lsa/raw": 0.4}
    (folder / "run.json").write_text(json.dumps(run))
    assert main(["-q", "report", str(folder)]) == 0
    html = (folder / "report.html").read_text(encoding="utf-8")
    section = html[html.index('<section id="objective">'):]
    section = section[:section.index("</section>")]
    assert re.findall(r'width:([0-9.]+)%', section) == ["80.0", "40.0"]
    assert re.findall(r'<span class="w">([^<]+)</span>', section) == ["0.800", "0.400"]


@pytest.mark.parametrize("restarts, chart", [([5.0, 4.0, 6.0], True), ([4.0, 4.0, 4.0], False),
                                             ([4.0], False), ([], False)])
def test_restarts_are_a_chart_only_when_they_differ(demo_out, tmp_path, restarts, chart):
    import shutil

    folder = tmp_path / "run"
    shutil.copytree(demo_out, folder)
    run = json.loads((folder / "run.json").read_text())
    run["restart_objectives"] = restarts
    run.pop("start_restart_objectives", None)   # restarts of the method itself, not of a start
    (folder / "run.json").write_text(json.dumps(run))
    assert main(["-q", "report", str(folder)]) == 0
    html = (folder / "report.html").read_text(encoding="utf-8")
    section = html[html.index('<section id="objective">'):]
    section = section[:section.index("</section>")]
    assert section.count("<circle") == (len(restarts) if chart else 0)
    if restarts and not chart:
        assert f"{min(restarts):.6g}." in section
    if len(restarts) > 1 and not chart:
        assert f"All {len(restarts)} restarts ended at the same objective" in section


@pytest.mark.parametrize("start, chart", [([5.0, 4.0, 6.0], True), ([4.0], False)])
def test_a_start_from_nmf_shows_nmf_s_restarts_not_one_start(demo_out, tmp_path, start, chart):
    """The default (LCCF from NMF's solution) ran LCCF once, and the report said "one start"
    and "restarts 1" where the log had said "10 restarts": it now says what ran."""
    import shutil

    folder = tmp_path / "run"
    shutil.copytree(demo_out, folder)
    run = json.loads((folder / "run.json").read_text())
    assert run["parameters"]["method"] == "lccf-ncw" and len(run["start_restart_objectives"]) == 1
    run["start_restart_objectives"] = start
    (folder / "run.json").write_text(json.dumps(run))
    assert main(["-q", "report", str(folder)]) == 0
    html = (folder / "report.html").read_text(encoding="utf-8")
    overview = html[html.index('<section id="overview">'):]
    assert (f"<td>{len(start)} of NMF for the start, then one run from the best</td>" if chart
            else "<td>1, from NMF&#x27;s solution (a single start)</td>") in overview
    section = html[html.index('<section id="objective">'):]
    section = section[:section.index("</section>")]
    assert "<figcaption>objective from NMF&#x27;s solution on, per iteration" in section
    assert section.count("<circle") == (len(start) if chart else 0)
    assert ("objective at the end of each of its restarts" in section) is chart
    if not chart:
        assert "One run, from NMF&#x27;s solution" in section and "not the one plotted: 4)" in section


def test_diagnostics_are_counted_in_the_facts_and_listed_beside_them(demo_out, tmp_path):
    import shutil

    folder = tmp_path / "run"
    shutil.copytree(demo_out, folder)
    run = json.loads((folder / "run.json").read_text())
    run["diagnostics"] = {"small_clusters": [
        {"cluster": 1, "size": 2, "examples": ["a/1", "a/2"]},
        {"cluster": 3, "size": 0, "examples": []}]}
    (folder / "run.json").write_text(json.dumps(run))
    assert main(["-q", "report", str(folder)]) == 0
    html = (folder / "report.html").read_text(encoding="utf-8")
    assert "<tr><th>diagnostics</th><td>3 findings</td></tr>" in html
    findings = re.findall(r"<li>([^<]+)</li>", html[html.index('<ul class="findings">'):]
                          .split("</ul>")[0])
    assert findings[1] == "cluster 3 is empty" and findings[0].startswith("cluster 1 has only 2")
    assert findings[2].startswith("small clusters often hold documents that share few words")
    run["diagnostics"] = {}
    (folder / "run.json").write_text(json.dumps(run))
    assert main(["-q", "report", str(folder)]) == 0
    html = (folder / "report.html").read_text(encoding="utf-8")
    assert "<td>nothing to report</td>" in html and 'class="findings"' not in html


@pytest.mark.parametrize("method, history, says", [
    ("lccf-ncw", [3.0, 3.5, 2.0, 1.0], "it rose at 1 of 3 steps, where the factors were rescaled"),
    ("nmf", [3.0, 3.5, 2.0, 1.0], "it rose at 1 of 3 steps</figcaption>"),
    ("lccf-ncw", [3.0, 2.0, 2.0, 1.0], "per iteration</figcaption>"),
    ("nmf", [3.0, 2.0, 2.0, 1.0], "of the kept restart, per iteration</figcaption>")])
def test_an_objective_that_rises_is_said_to_rise(demo_out, tmp_path, method, history, says):
    import shutil

    folder = tmp_path / "run"
    shutil.copytree(demo_out, folder)
    run = json.loads((folder / "run.json").read_text())
    run["objective_history"] = history
    run["n_iter"] = len(history) - 1                    # the start's objective, then one each
    run["parameters"]["method"] = method
    run.pop("consensus_members", None)
    if not method.startswith(("cf", "lccf")):
        run.pop("start_restart_objectives", None)      # only CF and LCCF start from NMF
    (folder / "run.json").write_text(json.dumps(run))
    assert main(["-q", "report", str(folder)]) == 0
    html = (folder / "report.html").read_text(encoding="utf-8")
    section = html[html.index('<section id="objective">'):]
    assert says in section[:section.index("</section>")]


def test_render_report_takes_the_folder_or_its_path_and_names_anything_else(demo_out):
    read = render_report(read_run_folder(demo_out))
    assert render_report(demo_out) == render_report(str(demo_out)) == read
    with pytest.raises(TypeError, match="takes a result folder .its path, or read_run_folder's "
                                        "result., not dict"):
        render_report({"run": {}})
    with pytest.raises(ReportError, match="no such result folder"):
        render_report(demo_out / "missing")


def test_markup_in_ids_and_texts_reaches_the_page_as_data(hostile_out):
    """The page's data holds no "<" (which could end it or open a comment in it) and reads
    back as the ids and texts were."""
    from .conftest import HOSTILE_IDS, HOSTILE_OPENING

    html = (hostile_out / "report.html").read_text(encoding="utf-8")
    payload = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', html,
                        re.DOTALL).group(1)
    assert "<" not in payload
    shown = json.loads(payload)["map"]
    for doc_id in HOSTILE_IDS:
        i = shown["id"].index(doc_id)
        assert shown["text"][i].startswith(HOSTILE_OPENING.strip())


def _objective_section(folder) -> str:
    html = (folder / "report.html").read_text(encoding="utf-8")
    section = html[html.index('<section id="objective">'):]
    return section[:section.index("</section>")]


def test_the_objective_axis_counts_iterations_from_the_start(demo_out):
    """The history holds the start's objective and one per iteration: 0 to n_iter."""
    run = json.loads((demo_out / "run.json").read_text())
    assert len(run["objective_history"]) == run["n_iter"] + 1
    assert f"iteration (0–{run['n_iter']})</text>" in _objective_section(demo_out)


def test_nma_s_objective_is_said_to_be_its_later_stages(tmp_path):
    """NMA records the SRE of stage 2 and the joint stage only: a chart of 2 points beside
    "24 iterations" said nothing of why."""
    out = tmp_path / "nma"
    assert main(["-q", "cluster", "demo", "-k", "5", "--method", "nma", "--segments", "3",
                 "-o", str(out)]) == 0
    run = json.loads((out / "run.json").read_text())
    section = _objective_section(out)
    assert len(run["objective_history"]) < run["n_iter"]
    assert ("SRE (eq. 17) of the kept restart after each iteration of its stage 2 and joint "
            f"stage; stage 1 fits L and B to an objective of its own ({run['n_iter']} "
            "iterations in all)") in section
    assert f"recorded step (1–{len(run['objective_history'])})</text>" in section


def test_a_history_of_other_length_is_not_called_iterations(demo_out, tmp_path):
    import shutil

    folder = tmp_path / "run"
    shutil.copytree(demo_out, folder)
    run = json.loads((folder / "run.json").read_text())
    run["objective_history"], run["n_iter"] = [4.0, 3.0, 2.5, 2.2, 2.0], 2   # two per round
    (folder / "run.json").write_text(json.dumps(run))
    assert main(["-q", "report", str(folder)]) == 0
    section = _objective_section(folder)
    assert "(5 values recorded over 2 iterations)" in section
    assert "recorded step (1–5)</text>" in section


def test_a_cluster_of_one_is_one_document(demo_out, tmp_path):
    import shutil

    folder = tmp_path / "run"
    shutil.copytree(demo_out, folder)
    def edit(name, change):
        with open(folder / name, newline="") as fh:
            rows = list(csv.DictReader(fh))
        change(rows)
        with open(folder / name, "w", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)

    def one_in_cluster_0(rows):     # the others of cluster 0 to cluster 1, in both files
        for row in [r for r in rows if r["cluster"] == "0"][1:]:
            row["cluster"] = "1"

    edit("assignments.csv", one_in_cluster_0)
    with open(folder / "assignments.csv", newline="") as fh:
        sizes = np.bincount([int(r["cluster"]) for r in csv.DictReader(fh)])
    edit("clusters.csv", lambda rows: [r.update(size=str(sizes[int(r["cluster"])]))
                                       for r in rows])
    assert main(["-q", "report", str(folder)]) == 0
    html = (folder / "report.html").read_text(encoding="utf-8")
    assert ",<small> 1 document (1.2%) · keyword coherence" in html
    assert (f",<small> {sizes[1]} documents "
            f"({100 * sizes[1] / 80:.1f}%)") in html


def test_a_k_chosen_by_the_run_is_shown_with_its_criteria(auto_out, demo_out):
    """-k auto wrote choose_k.json beside the results; the report said only the reason."""
    selection = json.loads((auto_out / "choose_k.json").read_text())
    html = (auto_out / "report.html").read_text(encoding="utf-8")
    assert '<a href=#choose-k>Choosing k</a>' in html
    section = html[html.index('<section id="choose-k">'):]
    section = section[:section.index("</section>")]
    assert f"Chosen k = {selection['k']}: " in section
    # a row per k tried, the chosen one marked, with the criteria that picked each
    rows = re.findall(r"<tr( class=chosen)?><td>(\d+)</td>(.*?)</tr>", section)
    assert [int(k) for _, k, _ in rows] == [2, 3, 4, 5, 6]
    assert [int(k) for chosen, k, _ in rows if chosen] == [selection["k"]]
    chosen_by = {int(k): re.findall(r"<td>([^<]*)</td>$", row)[0] for _, k, row in rows}
    for name, k in selection["chosen_by_criterion"].items():
        assert name in chosen_by[k].split(", ")
    # the cophenetic correlation per k, as choose_k.csv has it
    with open(auto_out / "choose_k.csv", newline="") as fh:
        cophenetic = [float(r["cophenetic"]) for r in csv.DictReader(fh)]
    cells = [re.findall(r'<td class="r">([^<]*)</td>', row)[0] for _, _, row in rows]
    assert [float(c) for c in cells] == pytest.approx(cophenetic, abs=5e-4)
    assert section.count("<polyline") == 4      # the four criteria, one line each
    assert section.count("<circle") == 4 * 5    # and a dot at each k tried (one k: no line)
    # a folder whose k was given has no such section, nor the link to it
    plain = (demo_out / "report.html").read_text(encoding="utf-8")
    assert 'id="choose-k"' not in plain and "#choose-k" not in plain


def test_a_choose_k_json_of_another_run_is_left_out(auto_out, demo_out, tmp_path, caplog):
    """A choose_k.json copied beside a run of a k given showed "Chosen k = 4" above its 5
    clusters."""
    import shutil

    folder = tmp_path / "given"
    shutil.copytree(demo_out, folder)
    shutil.copy(auto_out / "choose_k.json", folder)
    with caplog.at_level("WARNING", logger="docnmf"):
        page = render_report(folder)
    assert 'id="choose-k"' not in page
    assert "holds a choose_k.json that is not this run's (it was run with a k given)" \
        in caplog.text
    assert 'id="choose-k"' in render_report(auto_out)


def test_a_map_of_few_distinct_points_says_the_documents_overlap(demo_out, tmp_path):
    """A consensus at k = 2 put 1,000 documents on 18 points, under a caption of 1,000."""
    import shutil

    folder = tmp_path / "run"
    shutil.copytree(demo_out, folder)
    data = json.loads((folder / "report_data.json").read_text())
    n = len(data["map"]["x"])
    data["map"]["x"] = [float(i % 3) for i in range(n)]
    data["map"]["y"] = [0.5] * n
    (folder / "report_data.json").write_text(json.dumps(data))
    assert main(["-q", "report", str(folder)]) == 0
    html = (folder / "report.html").read_text(encoding="utf-8")
    assert ("They fall on 3 distinct points: documents with the same memberships lie on top "
            "of each other.") in html
    assert "distinct point" not in (demo_out / "report.html").read_text(encoding="utf-8")


def test_overlapping_clusters_show_the_documents_that_share_them(tmp_path):
    """Overlapping NMA's report showed the disjoint sizes only, beside an overlapping.csv that
    puts documents in several clusters."""
    out = tmp_path / "nma"
    assert main(["-q", "cluster", "demo", "-k", "5", "--method", "nma", "--segments", "2",
                 "--overlapping", "--restarts", "1", "-o", str(out)]) == 0
    with open(out / "overlapping.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    html = (out / "report.html").read_text(encoding="utf-8")
    for c in range(5):
        n = sum(r["cluster"] == str(c) for r in rows)
        section = html[html.index(f'id="cluster-{c}"'):]
        assert f"· {n} documents with segments in it (overlapping) ·" in section[:600]
    assert len(rows) > 80        # some document is in two clusters


def test_scores_keep_three_decimals_and_classes_sort_by_their_numbers():
    """0.99989 was shown as "accuracy 1" (three significant digits), and the confusion
    matrix's rows ran t0, t1, t10, t11, ..., t2."""
    from docnmf.report.html import _confusion, _metrics

    metrics = {"n_classes": 12, "n_scored": 150_000, "accuracy": 0.99989, "nmi": 0.5,
               "purity": 1.0,
               "confusion": {"classes": [f"t{i}" for i in sorted(range(12), key=str)],
                             "clusters": list(range(12)),
                             "counts": np.eye(12)[sorted(range(12), key=str)].tolist()}}
    assert "<b>accuracy 1.000</b> · NMI 0.500 · purity 1.000" in _metrics(metrics)
    rows = re.findall(r"<tr><th>(t\d+)</th>", _confusion(metrics))
    assert rows == [f"t{i}" for i in range(12)]
    # each row keeps its own counts: t10's one document is in cluster 10
    t10 = re.search(r"<tr><th>t10</th>(.*?)</tr>", _confusion(metrics)).group(1)
    assert [int(v) for v in re.findall(r">(\d+)</td>", t10)].index(1) == 10


def test_the_search_box_says_it_finds_the_documents_on_the_map():
    """On 150,000 documents the map holds a sample, and search found only those, without a
    word of it."""
    from docnmf.report.html import _search_hint

    assert _search_hint({"id": ["d"] * 1009}, 150_000) == \
        ("Find documents by id or by a word of their start (the 1,009 of 150,000 on the map), "
         "clusters by keyword")
    assert _search_hint({"id": ["d"] * 80}, 80) == \
        "Find documents by id or by a word of their start, clusters by keyword"


def test_a_file_the_system_refuses_to_open_is_named_as_such(demo_out, monkeypatch):
    """Under ulimit -n 5 the error said the file docnmf had just written was no .npz file and
    told to rebuild the folder."""
    import errno

    def refused(*args, **kwargs):
        raise OSError(errno.EMFILE, "Too many open files")

    monkeypatch.setattr(np, "load", refused)
    with pytest.raises(ReportError, match=r"cannot read .*memberships.npz: Too many open files$"):
        read_run_folder(demo_out)


def test_an_assignments_file_saved_again_by_a_spreadsheet_is_read_by_its_ids(demo_out, tmp_path):
    """A byte-order mark ("CSV UTF-8") made the file lack its 'id' column; rows sorted again
    paired the memberships with other documents."""
    folder = read_run_folder(demo_out)
    for name in ("run.json", "clusters.csv", "memberships.npz"):
        (tmp_path / name).write_bytes((demo_out / name).read_bytes())
    header, *rows = (demo_out / "assignments.csv").read_text(encoding="utf-8").splitlines()
    rows.sort(key=lambda row: row.split(",")[1])            # by cluster
    (tmp_path / "assignments.csv").write_text("\n".join([header, *rows]) + "\n",
                                              encoding="utf-8-sig")
    again = read_run_folder(tmp_path)
    order = [folder.ids.index(d) for d in again.ids]
    assert order != list(range(len(order)))
    np.testing.assert_array_equal(again.memberships, folder.memberships[order])
    np.testing.assert_array_equal(again.labels, folder.labels[order])


def test_ids_a_spreadsheet_would_run_are_shown_as_they_are(tmp_path):
    from docnmf.corpus import Corpus

    demo = load_demo()
    ids = [f"=doc{i}" if i % 2 else f"'doc{i}" for i in range(len(demo))]
    corpus = Corpus(demo.texts, demo.labels, ids, {"name": "demo"})
    run = cluster_corpus(corpus, n_clusters=5, method="nmf", random_state=0)
    from docnmf.pipeline import write_run

    write_run(run, tmp_path / "out")
    assert read_run_folder(tmp_path / "out").ids == ids
    # a folder of an earlier version, which wrote an id starting with ' as it was
    assignments = tmp_path / "out" / "assignments.csv"
    assignments.write_text(assignments.read_text(encoding="utf-8").replace("''doc", "'doc"),
                           encoding="utf-8")
    assert read_run_folder(tmp_path / "out").ids == ids


def test_a_post_is_shown_by_its_subject_and_own_words_not_its_header_block():
    """Every 20 Newsgroups snippet and map label began "From: ... Subject: ... Lines: ..."."""
    from docnmf.corpus import Corpus
    from docnmf.report.collect import collect_report_data

    demo = load_demo()
    texts = [f"From: user{i}@example.edu\nSubject: Re: note {i}\nLines: 3\n\n"
             f"In article <{i}@x> someone writes:\n> quoted words\n{text}\n-- \nUser {i}"
             for i, text in enumerate(demo.texts)]
    corpus = Corpus(texts=texts, labels=list(demo.labels), ids=list(demo.ids))
    data = collect_report_data(cluster_corpus(corpus, 5, DEFAULT_METHOD))
    shown = data["map"]["text"] + [r["snippet"] for c in data["clusters"]
                                   for r in c["representatives"]]
    assert shown and all(re.match(r"note \d+ — ", s) for s in shown), shown[:3]
    assert not any("From:" in s or "quoted words" in s or "User " in s for s in shown)


def test_an_empty_cluster_s_card_says_it_is_empty(tmp_path):
    """Its keywords and coherence were shown as those of any topic, with 0 documents."""
    from docnmf.corpus import Corpus
    from docnmf.pipeline import write_run

    corpus = Corpus(texts=["apple banana"] * 10 + ["cherry durian"] * 10, labels=None,
                    ids=[f"d{i}" for i in range(20)])
    run = cluster_corpus(corpus, 3, "nmf", vectorizer_params={"min_df": 1})
    write_run(run, tmp_path)
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    cards = html.split('<article class="cluster"')[1:]
    said = ["Empty: no document belongs most to this cluster" in card for card in cards]
    assert said == [size == 0 for size in run.sizes] and any(said)


def test_each_cluster_s_summary_is_on_its_card(tmp_path, demo_out, capsys):
    """cluster --summaries wrote summaries.csv, and the report, where an analyst reads the
    clusters, did not show them."""
    out = tmp_path / "out"
    assert main(["-q", "cluster", "demo", "-k", "4", "--summaries", "--summary-length", "40w",
                 "-o", str(out)]) == 0
    with open(out / "summaries.csv", newline="", encoding="utf-8") as fh:
        summaries = {int(r["cluster"]): r["summary"] for r in csv.DictReader(fh)}
    html = (out / "report.html").read_text(encoding="utf-8")
    cards = html.split('<article class="cluster"')[1:]
    assert len(cards) == 4
    for c, card in enumerate(cards):
        shown = re.findall(r'<div class="summary">.*?</div>', card)[0]
        assert summaries[c] and all(f'<p dir="auto">{html_escape(line)}</p>' in shown
                                    for line in summaries[c].splitlines())
    assert 'class="summary"' not in (demo_out / "report.html").read_text(encoding="utf-8")
    (out / "summaries.csv").write_text("cluster,summary\nx,y\n", encoding="utf-8")
    assert main(["-q", "report", str(out)]) == 2
    assert "summaries.csv, data row 1" in capsys.readouterr().err


def test_sizes_that_are_not_the_assignments_are_refused(demo_out, tmp_path, capsys):
    """A folder without memberships.npz (a run on Dask) whose assignments.csv lost half its rows
    made a page of 40 documents in clusters of 15 to 17, shares adding up to 200%."""
    import shutil

    folder = tmp_path / "run"
    shutil.copytree(demo_out, folder)
    (folder / "memberships.npz").unlink()
    lines = (folder / "assignments.csv").read_text(encoding="utf-8").splitlines(True)
    (folder / "assignments.csv").write_text("".join(lines[:41]), encoding="utf-8")
    assert main(["-q", "report", str(folder)]) == 2
    assert "the files are not of one run" in capsys.readouterr().err
    assert (folder / "report.html").read_bytes() == (demo_out / "report.html").read_bytes()


def test_generated_cluster_colours_are_kept_apart():
    """Past the 20 fixed colours, hues by the golden angle alone came back near ones taken (the
    24th was the 12th's olive again, #b7b72d beside #bcbd22)."""
    import itertools

    from docnmf.report.html import _redmean, _rgb, cluster_colours

    for k, apart in ((30, 55), (60, 45)):
        rgb = np.array([_rgb(c) for c in cluster_colours(k)], dtype=float)
        closest = min(_redmean(rgb[i], rgb[j:j + 1])[0]
                      for i, j in itertools.combinations(range(k), 2))
        assert closest >= apart, (k, closest)
    assert cluster_colours(20) == cluster_colours(30)[:20]      # the first ones stay


def test_a_cut_confusion_matrix_names_the_clusters_each_part_holds():
    """A confusion matrix has a column for each cluster that holds a document: with cluster 3
    empty the second of two parts said "columns 12-24" over clusters 13 to 25."""
    from docnmf.report.html import _confusion, _similarity_values

    clusters = [c for c in range(26) if c != 3]
    metrics = {"confusion": {"classes": ["a", "b"], "clusters": clusters,
                             "counts": [[1] * 25, [2] * 25]}}
    parts = re.findall(r"<caption>(.*?)</caption><thead><tr><th>[^<]*</th><th>(\d+)</th>"
                       r".*?<th>(\d+)</th></tr></thead>", _confusion(metrics))
    assert parts == [("clusters 0&ndash;12", "0", "12"), ("clusters 13&ndash;25", "13", "25")]
    # the similarity values name theirs as well, every cluster having a column there
    values = _similarity_values(np.eye(25).tolist())
    assert re.findall(r"<caption>(.*?)</caption>", values) == ["clusters 0&ndash;11",
                                                                "clusters 12&ndash;24"]


def test_document_text_takes_its_own_direction(tmp_path):
    """Arabic and Hebrew snippets and summary sentences were laid out left to right as the
    page is: a sentence's final period stood at its right end, where an Arabic reader looks
    for its start. Each takes the direction of its own first letters (dir="auto")."""
    corpus = tmp_path / "ar.csv"
    sport = "\u0627\u0644\u0641\u0631\u064a\u0642 \u0627\u0644\u0645\u062f\u0631\u0628 \u0627\u0644\u0645\u0628\u0627\u0631\u0627\u0629"
    money = "\u0627\u0644\u0628\u0646\u0643 \u0627\u0644\u062a\u0636\u062e\u0645 \u0627\u0644\u0623\u0633\u0647\u0645"
    rows = ["id,text"] + [f"d{i},{sport if i % 2 else money} {i}." for i in range(12)]
    corpus.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["-q", "cluster", str(corpus), "-k", "2", "--summaries", "-o", str(out)]) == 0
    html = (out / "report.html").read_text(encoding="utf-8")
    assert '<div class="snip">' not in html and html.count('<div class="snip" dir="auto">') >= 2
    summary = html[html.index('<div class="summary">'):]
    assert summary.index('<p dir="auto">') < summary.index("</div>")


def _first_cluster_row(folder) -> dict:
    with open(folder / "clusters.csv", newline="", encoding="utf-8") as fh:
        return next(csv.DictReader(fh))


def _rebuilt_with_first_cluster(demo_out, tmp_path, column: str, value: str):
    """The page docnmf report rebuilds from a copy of ``demo_out`` whose clusters.csv has
    ``value`` in cluster 0's ``column``, and cluster 0's card in it."""
    import shutil

    folder = tmp_path / "run"
    shutil.copytree(demo_out, folder)
    with open(folder / "clusters.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    rows[0][column] = value
    with open(folder / "clusters.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    assert main(["-q", "report", str(folder)]) == 0
    page = (folder / "report.html").read_text(encoding="utf-8")
    return page, page.split('<article class="cluster" id="cluster-0"')[1].split("</article>")[0]


def test_keywords_edited_in_clusters_csv_are_the_card_s_too(demo_out, tmp_path, capsys):
    """A user who edits a cluster's keywords in clusters.csv (a word dropped, the cluster named)
    and runs docnmf report got the edit in the overview table and the run's keywords, with
    their weights from report_data.json, on the cluster's card and in its search: one page,
    two lists for one cluster."""
    before = _first_cluster_row(demo_out)["top_keywords"].split()
    edited = ["EDITED"] + before[2:]
    page, card = _rebuilt_with_first_cluster(demo_out, tmp_path, "top_keywords", " ".join(edited))
    keywords = card.split("<h4>Keywords")[1].split("</ol>")[0]
    assert re.findall(r'<span class="t">([^<]*)</span>', keywords) == edited
    assert f'data-words="{" ".join(edited).lower()}"' in card
    # the other clusters keep their weights
    other = page.split('<article class="cluster" id="cluster-1"')[1].split("</article>")[0]
    assert "Keywords <small>weight</small>" in other


def test_representatives_edited_in_clusters_csv_are_the_card_s_too(demo_out, tmp_path):
    """As the keywords: a representative removed from clusters.csv (or one added) stayed as the
    run listed it on the cluster's card."""
    before = json.loads(_first_cluster_row(demo_out)["representative_documents"])
    edited = before[1:] + ["an added <id>"]
    _, card = _rebuilt_with_first_cluster(demo_out, tmp_path, "representative_documents",
                                          json.dumps(edited))
    shown = re.findall(r'<span class="id">([^<]*)</span>', card)
    assert shown == [html_escape(i) for i in edited]
    # the documents the run listed keep their membership and snippet
    assert card.count('<span class="m">') == len(before) - 1


def test_markup_edited_into_metrics_json_is_shown_as_text(demo_out, tmp_path):
    """The scores' sentence put metrics.json's values into the page as they were: a number
    edited into markup there ran as script when the page was opened."""
    import shutil

    folder = tmp_path / "run"
    shutil.copytree(demo_out, folder)
    metrics = json.loads((folder / "metrics.json").read_text(encoding="utf-8"))
    hostile = "<img src=x onerror=alert(1)>"
    for key in ("n_classes", "n_scored", "accuracy", "nmi", "purity"):
        metrics[key] = hostile
    (folder / "metrics.json").write_text(json.dumps(metrics), encoding="utf-8")
    assert main(["-q", "report", str(folder)]) == 0
    page = (folder / "report.html").read_text(encoding="utf-8")
    assert "<img" not in page
    assert page.count(html_escape(hostile)) == 5


def test_a_name_that_turns_the_writing_direction_turns_only_itself(demo_out, tmp_path):
    """A corpus or folder name holding a right-to-left override (U+202E) it never closes turned
    the page's own words after it backwards: the header read "stnemucod 08 ,sretsulc 5" and the
    footer's rebuild command and sentence ran right to left. Each name is isolated (bdi)."""
    folder = tmp_path / "out\u202e"
    folder.mkdir()
    for each in ("clusters.csv", "assignments.csv", "memberships.npz", "report_data.json"):
        (folder / each).write_bytes((demo_out / each).read_bytes())
    run = json.loads((demo_out / "run.json").read_text(encoding="utf-8"))
    run["corpus"]["name"] = "\u202ebidi"
    (folder / "run.json").write_text(json.dumps(run), encoding="utf-8")
    assert main(["-q", "report", str(folder)]) == 0
    page = (folder / "report.html").read_text(encoding="utf-8")
    assert "<h1><bdi>\u202ebidi</bdi> <small>" in page
    footer = page[page.index("<footer>"):]
    assert "docnmf report <bdi>&#x27;out\u202e&#x27;</bdi></code>" in footer   # shell-quoted


def test_a_method_that_records_no_objective_is_not_said_to_record_none_of_it(tmp_path):
    """k-means records no objective per iteration: its section read "objective of the kept
    restart, per iteration (0 values recorded over 2 iterations): not recorded."."""
    out = tmp_path / "out"
    assert main(["-q", "cluster", "demo", "-k", "5", "--method", "km", "-o", str(out)]) == 0
    section = _objective_section(out)
    assert "objective of the kept restart, per iteration: not recorded." in section
    assert "0 values recorded" not in section


@pytest.mark.parametrize("given, where", [(".", "."), ("..", "model")])
def test_a_report_rebuilt_from_inside_its_folder_names_the_folder(demo_out, tmp_path,
                                                                  monkeypatch, given, where):
    """Run from inside the folder, "docnmf report ." wrote "rebuild with docnmf report . from
    the folder that holds it", which from there names the folder above, no result folder."""
    import shutil

    folder = tmp_path / "run"
    shutil.copytree(demo_out, folder)
    monkeypatch.chdir(folder / where)
    assert main(["-q", "report", given]) == 0
    page = (folder / "report.html").read_text(encoding="utf-8")
    assert "rebuild with docnmf report run from the folder that holds it" in \
        re.sub(r"<[^>]+>", "", page)
