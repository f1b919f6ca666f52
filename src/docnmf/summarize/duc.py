"""DUC 2004 Task 2 (multi-document summarization): the 50 document clusters and their references.

The layout is the one under ``$DOCNMF_DATA/duc2004`` (see the datasets README):

* ``ayushoriginal/duc2004/docs/<topic>t/<DOCNO>``: NIST tagged newswire, one
  document per file, the text between ``<TEXT>`` and ``</TEXT>`` with lines
  wrapped at about 70 characters;
* ``stuartmackie/models-txt/<topic>.m.100.t.<assessor>``: four human
  ("model") summaries per topic, one sentence per line;
* ``stuartmackie/peers-txt/<topic>.<system>``: 13 systems' summaries
  (Hong et al. 2014's repository plus the DUC Lead baseline).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..corpus._paths import data_dir
from ..corpus._text_io import Decoder
from ..corpus.formats import duc_text, read_duc2004_documents

__all__ = ["DUC2004_SYSTEMS", "DUCTopic", "duc_text", "read_duc2004", "read_duc2004_peers"]

#: The systems in ``stuartmackie/peers-txt``.
DUC2004_SYSTEMS = ("Lead", "FreqSum", "TsSum", "Centroid", "LexRank", "GreedyKL", "CLASSY04",
                   "CLASSY11", "DPP", "ICSISumm", "OCCAMS_V", "RegSum", "Submodular")

@dataclass(frozen=True)
class DUCTopic:
    """One DUC 2004 cluster: its documents in chronological order and its human summaries.

    Attributes
    ----------
    id : str
        Topic id such as ``"d30001"``.
    doc_ids : list of str
        DOCNOs, oldest first (the date is in the DOCNO).
    documents : list of str
        Each document's text with the line wrapping removed.
    models : dict of str -> list of str
        Assessor letter -> that reference summary as a list of sentences.
    """

    id: str
    doc_ids: list[str]
    documents: list[str]
    models: dict[str, list[str]]


def _root(root: str | os.PathLike | None) -> Path:
    path = Path(root) if root is not None else data_dir() / "duc2004"
    if not path.is_dir():
        raise FileNotFoundError(f"DUC 2004 folder {path} not found (set DOCNMF_DATA)")
    return path


def read_duc2004(root: str | os.PathLike | None = None) -> list[DUCTopic]:
    """Read the 50 DUC 2004 Task 2 clusters (10 documents each) with their 4 references.

    Parameters
    ----------
    root : path-like, optional
        The ``duc2004`` folder; default ``$DOCNMF_DATA/duc2004``.

    Returns
    -------
    list of DUCTopic, sorted by topic id.
    """
    root = _root(root)
    docs_dir = root / "ayushoriginal" / "duc2004" / "docs"
    models_dir = root / "stuartmackie" / "models-txt"
    decoder = Decoder()
    models: dict[str, dict[str, list[str]]] = {}
    for path in sorted(models_dir.iterdir()):
        m = re.fullmatch(r"(d\d+)\.m\.100\.t\.([a-z])", path.name)
        if m:
            lines = [ln.strip() for ln in decoder.read(path).splitlines()]
            models.setdefault(m.group(1), {})[m.group(2)] = [ln for ln in lines if ln]
    topics = [DUCTopic(topic, doc_ids, texts, dict(sorted(models.get(topic, {}).items())))
              for topic, doc_ids, texts in read_duc2004_documents(docs_dir, decoder)]
    decoder.warn("file", root)
    return topics


def read_duc2004_peers(root: str | os.PathLike | None = None,
                       systems: tuple[str, ...] = DUC2004_SYSTEMS
                       ) -> dict[str, dict[str, list[str]]]:
    """The published systems' summaries: system -> topic -> non-empty lines of its summary."""
    peers_dir = _root(root) / "stuartmackie" / "peers-txt"
    decoder = Decoder()
    out: dict[str, dict[str, list[str]]] = {s: {} for s in systems}
    for path in sorted(peers_dir.iterdir()):
        topic, _, system = path.name.partition(".")
        if system in out:
            lines = [ln.strip() for ln in decoder.read(path).splitlines()]
            out[system][topic] = [ln for ln in lines if ln]
    decoder.warn("file", peers_dir)
    return out
