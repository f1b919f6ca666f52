"""The embedded demo corpus: 80 short original documents on five topics."""

from __future__ import annotations

from importlib import resources

from ._corpus import Corpus
from .readers import read_jsonl

__all__ = ["load_demo"]


def load_demo() -> Corpus:
    """The demo corpus shipped with docnmf (astronomy, cooking, football, finance, gardening).

    Examples
    --------
    >>> demo = load_demo()
    >>> len(demo), demo.classes
    (80, ['astronomy', 'cooking', 'finance', 'football', 'gardening'])
    """
    with resources.as_file(resources.files("docnmf") / "data" / "demo.jsonl") as path:
        corpus = read_jsonl(path, text_column="text", label_column="label", id_column="id")
    corpus.metadata["name"] = "demo"
    return corpus
