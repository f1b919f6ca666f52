"""ResultsFile: header check, resume, torn last line, custom run keys."""

import json

import pytest

from docnmf.experiments.conditions import ProtocolError
from docnmf.experiments.results import ResultsFile


def _point_key(record):
    return (record["dataset"], record["value"], record["run"])


def test_custom_key_resumes_and_deduplicates(tmp_path):
    path = tmp_path / "results.jsonl"
    with ResultsFile(path, {"seed": 1}, key=_point_key) as rf:
        assert rf.open() == []
        rf.append({"dataset": "a", "value": 0.5, "run": 0, "score": 1.0})
        rf.append({"dataset": "a", "value": 0.5, "run": 0, "score": 2.0})
        rf.append({"dataset": "a", "value": 1.0, "run": 0, "score": 3.0})
    with ResultsFile(path, {"seed": 1}, key=_point_key) as rf:
        records = rf.open()
    assert [r["score"] for r in records] == [1.0, 3.0]


def test_custom_key_missing_field_is_refused(tmp_path):
    path = tmp_path / "results.jsonl"
    with ResultsFile(path, {"seed": 1}, key=_point_key) as rf:
        rf.open()
        rf.append({"dataset": "a", "run": 0})
    with pytest.raises(ProtocolError, match="line 2"):
        ResultsFile(path, {"seed": 1}, key=_point_key).open()


def test_other_parameters_and_torn_line(tmp_path):
    path = tmp_path / "results.jsonl"
    with ResultsFile(path, {"seed": 1}, key=_point_key) as rf:
        rf.open()
        rf.append({"dataset": "a", "value": 1, "run": 0})
    with pytest.raises(ProtocolError, match="seed"):
        ResultsFile(path, {"seed": 2}, key=_point_key).open()
    with open(path, "a", encoding="utf-8") as fh:
        fh.write('{"dataset": "a", "val')
    with ResultsFile(path, {"seed": 1}, key=_point_key) as rf:
        assert len(rf.open()) == 1
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 and json.loads(lines[1])["value"] == 1


def test_a_file_of_another_command_or_of_far_other_parameters_is_named_briefly(tmp_path):
    """evaluate -o a benchmark folder printed one line of several hundred characters, whole
    corpus descriptions in it."""
    path = tmp_path / "results.jsonl"
    with ResultsFile(path, {"suite": "docnmf-benchmark", "seed": 0}, key=_point_key) as rf:
        rf.open()
    with pytest.raises(ProtocolError, match="holds the results of docnmf benchmark, not of "
                                            "this command; use another output folder"):
        ResultsFile(path, {"seed": 0, "condition": {"name": "x"}}, key=_point_key).open()
    path.unlink()
    old = {f"p{i}": "v" * 200 for i in range(6)}
    with ResultsFile(path, old, key=_point_key) as rf:
        rf.open()
        rf.append({"dataset": "a", "value": 1, "run": 0})
    with pytest.raises(ProtocolError) as refused:
        ResultsFile(path, {f"p{i}": "w" * 200 for i in range(6)}, key=_point_key).open()
    message = str(refused.value)
    assert "; and 3 more)" in message and len(message) < 600 and '"vvvvv' in message


def test_a_header_without_results_gives_way_to_other_parameters(tmp_path):
    """A run stopped or failed before its first result left a header only, which then refused
    the next run with other options (the fix its own error suggested): no work was at stake."""
    path = tmp_path / "results.jsonl"
    with ResultsFile(path, {"seed": 1}, key=_point_key) as rf:
        rf.open()
    with ResultsFile(path, {"seed": 2}, key=_point_key) as rf:
        assert rf.open() == []
        rf.append({"dataset": "a", "value": 1, "run": 0})
    assert json.loads(path.read_text().splitlines()[0])["params"] == {"seed": 2}
    with pytest.raises(ProtocolError, match="seed: 2 there, 3 now"):   # results are kept
        ResultsFile(path, {"seed": 3}, key=_point_key).open()
    benchmark = tmp_path / "benchmark.jsonl"
    with ResultsFile(benchmark, {"suite": "docnmf-benchmark", "seed": 0}, key=_point_key) as rf:
        rf.open()
    with pytest.raises(ProtocolError, match="holds the results of docnmf benchmark"):
        ResultsFile(benchmark, {"seed": 0}, key=_point_key).open()
