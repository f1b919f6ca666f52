"""The README's Python tour runs as written (the command lines are checked in test_cli.py)."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def _tour() -> str:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.DOTALL)
    (tour,) = [b for b in blocks if b.startswith("from docnmf import")]
    return tour


def test_the_python_tour_runs(datasets_dir, monkeypatch, capsys):
    monkeypatch.setenv("DOCNMF_DATA", str(datasets_dir))
    names: dict = {}
    exec(compile(_tour(), "README.md", "exec"), names)  # noqa: S102 (our own README)
    corpus, model, run = names["corpus"], names["model"], names["run"]
    # the model it calls the default's estimator is the default of `docnmf cluster`
    from docnmf.methods import DEFAULT_METHOD, make_estimator

    default = make_estimator(DEFAULT_METHOD, 3, random_state=0)
    assert type(model) is type(default)
    assert model.get_params() == {**default.get_params(), "n_clusters": 3}
    assert model.labels_.shape == (len(corpus),)
    assert run.method == DEFAULT_METHOD and "replaced" not in run.diagnostics
    assert run.labels.shape == (len(corpus),)
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith(f"{DEFAULT_METHOD} [")
    keywords = printed[1]
    assert keywords.count("[") == 4            # three clusters' keyword lists, printed
