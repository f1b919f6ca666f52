"""Corpora: readers for user files and benchmark formats, and named dataset loaders.

Every reader returns a :class:`Corpus` (texts or a count matrix, labels, ids).

Typical use::

    from docnmf.corpus import load_dataset, read_corpus
    classic3 = load_dataset("classic3")     # a named benchmark under $DOCNMF_DATA
    mine = read_corpus("my_docs/")          # a folder with one subfolder per class
"""

from ._corpus import Corpus
from ._errors import CorpusError
from ._paths import data_dir
from .datasets import DatasetInfo, list_datasets, load_dataset
from .formats import (
    read_20newsgroups,
    read_classic3,
    read_classic4,
    read_cluto,
    read_mat,
    read_reuters21578,
    read_smart,
)
from .readers import read_corpus, read_csv, read_folder, read_json, read_jsonl

__all__ = [
    "Corpus",
    "CorpusError",
    "DatasetInfo",
    "data_dir",
    "read_folder",
    "read_csv",
    "read_json",
    "read_jsonl",
    "read_corpus",
    "read_reuters21578",
    "read_20newsgroups",
    "read_smart",
    "read_classic3",
    "read_classic4",
    "read_cluto",
    "read_mat",
    "load_dataset",
    "list_datasets",
]
