"""Summary assembly: the length limit is respected exactly and no sentence repeats."""

import numpy as np
import pytest

from docnmf.summarize.api import METHODS, summarize_documents, summarize_texts
from docnmf.summarize.assemble import assemble_summary, summary_size

DOCS = [
    ("The rover landed on Mars on Monday after a seven-month journey. Engineers at the "
     "laboratory cheered as the first images arrived. The rover will search for signs of "
     "ancient water. Its instruments can drill into rock."),
    ("NASA said the rover landed safely on Mars. The mission cost 2.5 billion dollars. "
     "Scientists hope the rover finds evidence of ancient water on Mars. The landing used "
     "a new sky crane."),
    ("A new rover is on Mars. The rover landed on Mars on Monday after a seven-month journey. "
     "Critics questioned the cost of the mission. Supporters said the science justifies it."),
]


def _sentences(rng, n=40):
    words = [f"w{i}" for i in range(30)]
    return [" ".join(rng.choice(words, size=rng.integers(1, 25))) + "." for _ in range(n)]


@pytest.mark.parametrize("length", ["665b", "100w", "50b", "7w", "1w", "3b"])
@pytest.mark.parametrize("policy", ["truncate", "skip"])
def test_never_exceeds_the_limit(length, policy):
    rng = np.random.default_rng(1)
    for _ in range(20):
        s = _sentences(rng)
        lines = assemble_summary(rng.permutation(len(s)), s, length, policy=policy)
        assert summary_size(lines, length) <= int(length[:-1])


def test_truncate_fills_the_limit_exactly_by_words():
    s = ["a b c d", "e f g h", "i j k l"]
    assert summary_size(assemble_summary([0, 1, 2], s, "10w"), "10w") == 10


def test_truncate_stays_on_word_boundaries_by_bytes():
    s = ["alpha beta gamma", "delta epsilon zeta eta"]
    lines = assemble_summary([0, 1], s, "30b")
    assert lines == ["alpha beta gamma", "delta epsilon"]
    assert len("\n".join(lines).encode()) <= 30


def test_multibyte_text_is_measured_in_bytes():
    s = ["caf\u00e9 caf\u00e9 caf\u00e9", "na\u00efve r\u00e9sum\u00e9 d\u00e9j\u00e0 vu"]
    lines = assemble_summary([0, 1], s, "25b")
    assert len("\n".join(lines).encode("utf-8")) <= 25
    "\n".join(lines).encode("utf-8").decode("utf-8")  # still valid UTF-8


def test_no_repeated_or_near_duplicate_sentences():
    s = ["the rover landed on mars", "the rover landed on mars", "The rover landed  on mars",
         "engineers cheered loudly"]
    lines = assemble_summary([0, 1, 2, 3], s, "100w")
    assert lines == ["the rover landed on mars", "engineers cheered loudly"]
    vectors = np.array([[1.0, 0.0], [1.0, 0.0], [0.8, 0.6], [0.0, 1.0]])
    s2 = ["one", "two", "three", "four"]
    assert assemble_summary([0, 1, 2, 3], s2, "100w", vectors=vectors,
                            max_similarity=0.5) == ["one", "four"]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("length", ["665b", "100w", "120b", "15w"])
def test_every_method_respects_the_limit_and_never_repeats(method, length):
    lines = summarize_documents(DOCS, length, method=method, random_state=0, n_init=2,
                                max_iter=30)
    assert lines
    assert summary_size(lines, length) <= int(length[:-1])
    assert len(set(lines)) == len(lines)


def test_summarize_texts_returns_one_string_and_is_seeded():
    a = summarize_texts(DOCS, "100w", method="fsnmf", random_state=3, n_init=2)
    b = summarize_texts(DOCS, "100w", method="fsnmf", random_state=3, n_init=2)
    assert isinstance(a, str) and a == b
    assert len(a.split()) <= 100
    with pytest.raises(ValueError):
        summarize_texts(DOCS, "100", method="fsnmf")
    with pytest.raises(ValueError):
        summarize_texts(DOCS, "100w", method="nope")


def test_lead_takes_the_most_recent_document_first():
    lines = summarize_documents(DOCS, "12w", method="lead")
    assert lines[0].startswith("A new rover is on Mars.")


@pytest.mark.parametrize("method", ["nmf", "fsnmf", "lsa"])
@pytest.mark.parametrize("option, value", [("n_clusters", 0), ("n_clusters", -1),
                                           ("n_clusters", 2.5), ("n_init", 0), ("max_iter", 0)])
def test_factorization_settings_are_checked_for_every_method(method, option, value):
    docs = ["The comet passed close to Earth on Monday night. It was bright and clear.",
            "Astronomers watched the comet from the observatory for several hours."]
    with pytest.raises(ValueError, match=f"{option} must be a positive integer"):
        summarize_documents(docs, "665b", method=method, **{option: value})
