"""The regex sentence splitter on news-style text."""

import pytest

from docnmf.summarize.sentences import split_sentences


@pytest.mark.parametrize("text, expected", [
    ("Mr. Smith met Mrs. Jones. They talked.", ["Mr. Smith met Mrs. Jones.", "They talked."]),
    ("Gen. Augusto Pinochet, 82, was arrested. Chile protested.",
     ["Gen. Augusto Pinochet, 82, was arrested.", "Chile protested."]),
    ("U.S. officials said so. The U.N. Security Council met.",
     ["U.S. officials said so.", "The U.N. Security Council met."]),
    ("It happened in the U.S. The president spoke.",
     ["It happened in the U.S.", "The president spoke."]),
    ("George W. Bush won. Dr. No lost.", ["George W. Bush won.", "Dr. No lost."]),
    ("Shares of Apple Inc. rose 3.5 percent. Sony Corp. fell.",
     ["Shares of Apple Inc. rose 3.5 percent.", "Sony Corp. fell."]),
    ("Is it over? ``Yes,'' he said! Really.", ["Is it over?", "``Yes,'' he said!", "Really."]),
    ("He said ``no.'' Then he left.", ["He said ``no.''", "Then he left."]),
    ('She said "stop." He stopped.', ['She said "stop."', "He stopped."]),
    ("The meeting is on Jan. 5 in St. Louis at 3 p.m. today.",
     ["The meeting is on Jan. 5 in St. Louis at 3 p.m. today."]),
    ("Prices rose 5.2 percent in 1998. In 1999 they fell.",
     ["Prices rose 5.2 percent in 1998.", "In 1999 they fell."]),
    ("no capital after. this stays one", ["no capital after. this stays one"]),
    ("First paragraph without a stop\n\nSecond paragraph.",
     ["First paragraph without a stop", "Second paragraph."]),
    ("Wrapped line\ncontinues here. Next.", ["Wrapped line continues here.", "Next."]),
    ("", []),
])
def test_split(text, expected):
    assert split_sentences(text) == expected
