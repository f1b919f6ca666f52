"""DUC 2004 Task 2: the reader's counts and ROUGE against published ROUGE-1.5.5 figures."""

from __future__ import annotations

import pytest

from docnmf.summarize.duc import DUC2004_SYSTEMS, read_duc2004, read_duc2004_peers
from docnmf.summarize.rouge import Rouge

from ..conftest import require

pytestmark = pytest.mark.datasets

# ROUGE-1.5.5 -n 2 -x -m -l 100 -f A (duc2004/stuartmackie/README.txt), recall x 100
PUBLISHED = {"Lead": (31.46, 6.13), "DPP": (39.84, 9.62), "ICSISumm": (38.44, 9.81)}


@pytest.fixture(scope="module")
def duc(datasets_dir):
    root = require(datasets_dir / "duc2004")
    return read_duc2004(root), read_duc2004_peers(root)


def test_reader_counts(duc):
    topics, peers = duc
    assert len(topics) == 50
    assert all(len(t.documents) == 10 and len(t.models) == 4 for t in topics)
    first = topics[0]
    assert first.id == "d30001" and first.doc_ids[0] == "APW19981016.0240"
    assert first.documents[0].startswith("Cambodian leader Hun Sen on Friday rejected")
    assert "<" not in "".join(first.documents)
    assert first.doc_ids == sorted(first.doc_ids, key=lambda d: d[3:])  # oldest first
    assert first.models["a"][0] == ("Prospects were dim for resolution of the political "
                                    "crisis in Cambodia in October 1998.")
    assert set(peers) == set(DUC2004_SYSTEMS)
    assert all(len(p) == 50 for p in peers.values())


def test_rouge_reproduces_published_rouge155(duc):
    topics, peers = duc
    models = {t.id: list(t.models.values()) for t in topics}
    rouge = Rouge(["1", "2"], stem=True, length="100w")
    for system, published in PUBLISHED.items():
        boot, _ = rouge.evaluate(peers[system], models, average="rouge155", peer_id=system)
        mean, _ = rouge.evaluate(peers[system], models)
        for metric, pub in zip(("ROUGE-1", "ROUGE-2"), published):
            # ROUGE-1.5.5 prints the bootstrap mean; the published table is %.2f of x 100
            assert f"{boot[metric].recall * 100:.2f}" == f"{pub:.2f}", (system, metric)
            assert mean[metric].recall * 100 == pytest.approx(pub, abs=0.1)
