"""The dataset registry without the corpora: names, missing files, found flags."""

from __future__ import annotations

import os

import pytest

from docnmf.corpus import CorpusError, list_datasets, load_dataset

REQUIRED = {
    "tdt2", "tdt2_all", "tdt2_top30", "reuters21578", "reuters21578_single", "reuters_cai",
    "20newsgroups", "classic3", "classic4", "cstr", "classic3_cclust", "cluto_re0", "cluto_fbis",
    "cluto_wap", "cluto_k1a", "cluto_k1b", "duc2004",
}


def test_registry_names():
    names = [info.name for info in list_datasets()]
    assert REQUIRED <= set(names)
    assert len(names) == len(set(names))


def test_unknown_name_lists_known_ones():
    with pytest.raises(CorpusError, match="unknown dataset 'tdt3'") as err:
        load_dataset("tdt3")
    assert "tdt2" in str(err.value) and "cluto_re0" in str(err.value)


def test_missing_files_name_the_path_and_the_variable(tmp_path):
    with pytest.raises(CorpusError) as err:
        load_dataset("tdt2", data_home=tmp_path)
    message = str(err.value)
    assert str(tmp_path / "tdt2_cai" / "TDT2_all.mat") in message and "DOCNMF_DATA" in message


def test_found_flags_follow_data_home(tmp_path):
    assert not any(info.found for info in list_datasets(tmp_path))
    (tmp_path / "cluto" / "re0").mkdir(parents=True)
    (tmp_path / "cluto" / "re0" / "sparse_re0.txt").write_text("1 2\n1 1 3\n")
    found = {info.name for info in list_datasets(tmp_path) if info.found}
    assert found == {"cluto_re0"}
    c = load_dataset("cluto_re0", data_home=tmp_path)
    assert c.metadata["name"] == "cluto_re0" and c.counts.toarray().tolist() == [[0.0, 3.0]]


def test_data_home_from_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCNMF_DATA", str(tmp_path))
    info = next(i for i in list_datasets() if i.name == "classic3")
    assert info.path == tmp_path / "classic4_smart" and not info.found


def test_a_corpora_folder_the_system_cannot_look_up_is_one_error(tmp_path, monkeypatch, capsys):
    """A DOCNMF_DATA with a name longer than the file system allows ended every dataset lookup,
    and `docnmf datasets`, in a traceback (OSError: File name too long)."""
    from docnmf.cli import main

    too_long = tmp_path / ("a" * 300)
    with pytest.raises(CorpusError, match=r"corpora folder cannot be used \(File name too long"
                                          r"\).*set data_home"):
        list_datasets(too_long)
    monkeypatch.setenv("DOCNMF_DATA", str(too_long))
    for argv in (["datasets"], ["cluster", "tdt2", "-k", "3", "-o", str(tmp_path / "out")]):
        assert main(["-q", *argv]) == 2
        out, err = capsys.readouterr()
        assert (out, err.count("\n")) == ("", 1)
        assert "cannot be used (File name too long)" in err and "set DOCNMF_DATA" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_reproduce_list_of_a_corpora_folder_the_system_cannot_look_up_is_one_error(
        tmp_path, monkeypatch, capsys):
    """reproduce --list printed the data folder first, and is_dir() of a name too long ended it
    in a traceback (OSError: File name too long) before any dataset was looked up."""
    from docnmf.cli import main

    monkeypatch.setenv("DOCNMF_DATA", str(tmp_path / ("a" * 300)))
    assert main(["-q", "reproduce", "--list"]) == 2
    out, err = capsys.readouterr()
    assert (out, err.count("\n")) == ("", 1)
    assert "cannot be used (File name too long)" in err and "set DOCNMF_DATA" in err


def test_a_dataset_path_longer_than_the_system_takes_is_missing(tmp_path, monkeypatch, capsys):
    """A corpora folder whose own name is short enough, but not with a dataset's path under it,
    ended list_datasets, load_dataset and `docnmf datasets` in OSError: File name too long."""
    from docnmf.cli import main

    root = str(tmp_path)
    while len(root) < 4080:     # components of 200 characters, the whole under PATH_MAX (4096)
        root = os.path.join(root, "c" * min(200, 4080 - len(root)))
    assert not any(info.found for info in list_datasets(root))
    with pytest.raises(CorpusError, match="which does not exist"):
        load_dataset("classic3", data_home=root)
    monkeypatch.setenv("DOCNMF_DATA", root)
    for command in ("datasets", "reproduce"):
        assert main(["-q", command, "--list"] if command == "reproduce" else [command]) == 0
        assert "missing" in capsys.readouterr().out


def test_a_mistyped_folder_name_is_not_blamed_on_the_corpora_folder(tmp_path, monkeypatch,
                                                                   capsys):
    """With a DOCNMF_DATA the system cannot look up, `docnmf cluster mytypo` (a folder's name
    mistyped) was told the corpora folder cannot be used, not that mytypo is no folder, file
    or dataset; a dataset's name still is."""
    from docnmf.cli import main
    from docnmf.corpus import read_corpus

    monkeypatch.setenv("DOCNMF_DATA", str(tmp_path / ("a" * 300)))
    with pytest.raises(CorpusError, match="no such file or folder, nor dataset: mytypo"):
        read_corpus("mytypo")
    with pytest.raises(CorpusError, match="corpora folder cannot be used"):
        read_corpus("classic3")
    assert main(["-q", "cluster", "mytypo", "-k", "2", "-o", str(tmp_path / "out")]) == 2
    assert "nor dataset: mytypo" in capsys.readouterr().err


def test_a_corpora_folder_under_no_user_s_home_is_missing_not_a_traceback(monkeypatch, capsys):
    """DOCNMF_DATA=~nosuchuser/corpora ended every dataset lookup, and `docnmf datasets`, in
    RuntimeError: Could not determine home directory (Path.expanduser)."""
    from docnmf.cli import main

    folder = "~docnmf-no-such-user/corpora"
    assert not any(info.found for info in list_datasets(folder))
    monkeypatch.setenv("DOCNMF_DATA", folder)
    assert main(["-q", "datasets"]) == 0
    assert f"data folder: {folder}" in capsys.readouterr().out
    with pytest.raises(CorpusError, match="which does not exist"):
        load_dataset("classic3")
