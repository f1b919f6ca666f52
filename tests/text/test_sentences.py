"""The rule-based sentence splitter: the newswire rules, and how they differ from the plain ones."""

import pytest

from docnmf.text.sentences import split_sentences


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
    # in a text with capitals, a lower-case word after a period continues the sentence
    ("No capital after. this stays one", ["No capital after. this stays one"]),
    ("First paragraph without a stop\n\nSecond paragraph.",
     ["First paragraph without a stop", "Second paragraph."]),
    ("Wrapped line\ncontinues here. Next.", ["Wrapped line continues here.", "Next."]),
    ("", []),
    # a title or state abbreviation is one only with its capital: in lower case it is a word
    # ("Ill.", "Mass." are states; "ill.", "mass." end sentences); "vs." is written in lower case
    ("He was ill. The doctor came. It has 21 tons of mass. If mishandled, it can crush.",
     ["He was ill.", "The doctor came.", "It has 21 tons of mass.", "If mishandled, it can crush."]),
    ("He lives in Boston, Mass. Smith vs. Jones is next, at approx. 5 p.m. today.",
     ["He lives in Boston, Mass. Smith vs. Jones is next, at approx. 5 p.m. today."]),
    # before a number a lower-case one is still an abbreviation (each of these split in two)
    ("He is 5 ft. 3 in. tall, on hwy. 101, in rev. 2 of the plan.",
     ["He is 5 ft. 3 in. tall, on hwy. 101, in rev. 2 of the plan."]),
    # a capital of any script opens a sentence (only A-Z did: each text was one sentence)
    ("Правительство объявило о мерах. Министр заявил.",
     ["Правительство объявило о мерах.", "Министр заявил."]),
    ("Le président a parlé. À Paris, il pleut. Ésta es.",
     ["Le président a parlé.", "À Paris, il pleut.", "Ésta es."]),
    ("Une fin. été commence", ["Une fin. été commence"]),
    # Spanish opens questions and exclamations with ¿ and ¡, French quotes with «
    ("Ganó el partido. ¿Quién marcó? ¡Fue él! «Muy contentos.» Los aficionados celebraron.",
     ["Ganó el partido.", "¿Quién marcó?", "¡Fue él!", "«Muy contentos.»",
      "Los aficionados celebraron."]),
    # DUC opens some quotes with '' (no space before the word); '' and a space closes one
    ("Charges of genocide. ''This is painful,'' she said.",
     ["Charges of genocide.", "''This is painful,'' she said."]),
    ("It could exert effects. '' Because of it, we know.",
     ["It could exert effects. '' Because of it, we know."]),
    # full-width stops need no space after them; closing brackets stay with their sentence
    ("今日は良い天気です。「明日は雨ですか？」猫が好きです！Then English. Mr. Smith came.",
     ["今日は良い天気です。", "「明日は雨ですか？」", "猫が好きです！", "Then English.", "Mr. Smith came."]),
])
def test_news_rules(text, expected):
    assert split_sentences(text, rules="news") == expected


@pytest.mark.parametrize("text, plain, news", [
    # newswire quotes: the plain rules need an upper-case letter, digit or simple quote next
    ("``We will win,'' he said. ``Not now.''",
     ["``We will win,'' he said. ``Not now.''"], ["``We will win,'' he said.", "``Not now.''"]),
    # the plain rules keep white space, the news rules collapse it
    ("One  two.\nThree four.", ["One  two.", "Three four."], ["One two.", "Three four."]),
    # a dotted acronym before a sentence opener ends a sentence only by the news rules
    ("It happened in the U.S. The president spoke.",
     ["It happened in the U.S. The president spoke."],
     ["It happened in the U.S.", "The president spoke."]),
    # both keep an abbreviation that does not precede an opener inside the sentence
    ("Ask the Corp. Board now.", ["Ask the Corp. Board now."], ["Ask the Corp. Board now."]),
])
def test_plain_and_news_rules(text, plain, news):
    assert split_sentences(text) == split_sentences(text, rules="plain") == plain
    assert split_sentences(text, rules="news") == news


def test_unknown_rules():
    with pytest.raises(ValueError, match="rules"):
        split_sentences("A. B.", rules="nltk")


def test_a_long_paragraph_is_split_as_its_sentences_are_one_by_one():
    """Books and transcripts come without blank lines: 3,000 sentences in one paragraph,
    with the abbreviations, acronyms and initials of the cases above, give the same
    sentences as each case alone (``benchmarks/sentence_split.py`` times it)."""
    cases = [("Mr. Smith met Mrs. Jones. They talked.", ["Mr. Smith met Mrs. Jones.", "They talked."]),
             ("It happened in the U.S. The president spoke.",
              ["It happened in the U.S.", "The president spoke."]),
             ("George W. Bush won. Dr. No lost.", ["George W. Bush won.", "Dr. No lost."]),
             ("(See Fig. 3 there.) Prices rose 5.2 percent in 1998.",
              ["(See Fig. 3 there.)", "Prices rose 5.2 percent in 1998."])]
    text = " ".join(case for case, _ in cases * 375)
    assert split_sentences(text, rules="news") == [s for _, split in cases * 375 for s in split]


def test_a_text_without_capitals_is_split_too():
    """Lower-cased exports, chat logs and transcripts were one sentence each, so no summary
    fitted any --length."""
    text = "nasa said the engine failed. the launch was delayed! was the orbit long? yes."
    assert split_sentences(text, rules="news") == [
        "nasa said the engine failed.", "the launch was delayed!", "was the orbit long?", "yes."]
    # with capitals anywhere, a lower-case word after a period continues the sentence
    assert len(split_sentences("NASA said the engine failed. the launch was delayed.",
                               rules="news")) == 1


@pytest.mark.parametrize("text, expected", [
    ("Il pleut. Élodie est partie. Über alles.",
     ["Il pleut.", "Élodie est partie.", "Über alles."]),
    ("Кошка сидит на окне. Собака спит.", ["Кошка сидит на окне.", "Собака спит."]),
    ("我们去公园。天气很好！他说：「好。」然后走了。",
     ["我们去公园。", "天气很好！", "他说：「好。」", "然后走了。"]),
])
def test_plain_rules_split_sentences_of_other_scripts(text, expected):
    """The segmenters' rules took only A-Z for a capital and knew no full-width stop: a Russian
    or Chinese text, or one whose sentences open with É or Ü, was one sentence, so C99 and
    TextTiling had nothing to cut and NMA's segments were the whole text and empty padding."""
    assert split_sentences(text) == expected


@pytest.mark.parametrize("rules", ["plain", "news"])
def test_sentences_of_scripts_without_capitals_open_with_any_letter(rules):
    """Arabic, Hebrew and Devanagari letters are neither capitals nor small letters: under
    the plain rules an Arabic or Hebrew text was one sentence, and under the news rules one
    Latin capital anywhere (an "NATO", a "BBC") made a whole Arabic document one sentence,
    so a summary was made of whole documents or fitted no --length."""
    arabic = ("\u0623\u0645\u0633 \u0643\u0627\u0646 \u0627\u0644\u0637\u0642\u0633 \u0633\u064a\u0626\u0627. "
              "\u0642\u0627\u0644\u062a BBC \u0630\u0644\u0643. \u0627\u0646\u062a\u0647\u0649 \u0627\u0644\u0645\u0637\u0631.")
    assert split_sentences(arabic, rules=rules) == [
        "\u0623\u0645\u0633 \u0643\u0627\u0646 \u0627\u0644\u0637\u0642\u0633 \u0633\u064a\u0626\u0627.",
        "\u0642\u0627\u0644\u062a BBC \u0630\u0644\u0643.", "\u0627\u0646\u062a\u0647\u0649 \u0627\u0644\u0645\u0637\u0631."]
    hebrew = "\u05d9\u05e8\u05d3 \u05d2\u05e9\u05dd. \u05d4\u05e9\u05d5\u05e7 \u05e0\u05e4\u05dc \u05d1-NYSE."
    assert split_sentences(hebrew, rules=rules) == [
        "\u05d9\u05e8\u05d3 \u05d2\u05e9\u05dd.", "\u05d4\u05e9\u05d5\u05e7 \u05e0\u05e4\u05dc \u05d1-NYSE."]
    # in a text with capitals, a small letter after a period still continues the sentence
    assert len(split_sentences("NASA said so. the launch slipped.", rules=rules)) == 1


@pytest.mark.parametrize("rules", ["plain", "news"])
def test_the_full_stops_of_hindi_and_urdu_and_the_arabic_question_mark_end_sentences(rules):
    """Hindi ends a sentence with a danda (\u0964), Urdu with its full stop (\u06d4), Arabic
    asks with \u061f: none ended one, so a Hindi document was one sentence, a summary of
    Hindi news was whole documents and `--length 30w` fitted none."""
    hindi = ("\u0915\u0932 \u092c\u093e\u0930\u093f\u0936 \u0939\u0941\u0908\u0964 "
             "\u0906\u091c \u0927\u0942\u092a \u0939\u0948\u0965 \u0920\u0940\u0915 \u0939\u0948\u0964")
    assert split_sentences(hindi, rules=rules) == [
        "\u0915\u0932 \u092c\u093e\u0930\u093f\u0936 \u0939\u0941\u0908\u0964",
        "\u0906\u091c \u0927\u0942\u092a \u0939\u0948\u0965", "\u0920\u0940\u0915 \u0939\u0948\u0964"]
    urdu = "\u0628\u0627\u0631\u0634 \u06c1\u0648\u0626\u06cc\u06d4 \u06a9\u06cc\u0627 \u0622\u067e \u0622\u0626\u06d2\u061f \u06c1\u0627\u06ba\u06d4"
    assert split_sentences(urdu, rules=rules) == [
        "\u0628\u0627\u0631\u0634 \u06c1\u0648\u0626\u06cc\u06d4", "\u06a9\u06cc\u0627 \u0622\u067e \u0622\u0626\u06d2\u061f",
        "\u06c1\u0627\u06ba\u06d4"]


@pytest.mark.parametrize("rules", ["plain", "news"])
def test_a_quote_or_bracket_closed_after_a_danda_or_an_arabic_question_mark_stays_with_it(rules):
    """A danda or an Arabic question mark ended a sentence before the quote or bracket closed
    after it: the closer, left of the next sentence, opened it."""
    said = "\u0909\u0938\u0928\u0947 \u0915\u0939\u093e, \"\u0906\u090a\u0901\u0917\u093e\u0964\""
    assert split_sentences(f"{said} \u092b\u093f\u0930 \u0917\u092f\u093e\u0964", rules=rules) == [
        said, "\u092b\u093f\u0930 \u0917\u092f\u093e\u0964"]
    asked = "\u0642\u0627\u0644: \u00ab\u0647\u0644 \u0623\u0646\u062a \u0628\u062e\u064a\u0631\u061f\u00bb"
    assert split_sentences(f"{asked} \u062b\u0645 \u0630\u0647\u0628.", rules=rules) == [
        asked, "\u062b\u0645 \u0630\u0647\u0628."]
    within = "\u0935\u0939 (\u0918\u0930 \u0917\u092f\u093e\u0964)"
    assert split_sentences(f"{within} \u092b\u093f\u0930 \u0906\u092f\u093e\u0964", rules=rules) == [
        within, "\u092b\u093f\u0930 \u0906\u092f\u093e\u0964"]
    # an opening quote after the danda and a space opens the next sentence
    assert split_sentences("\u0915\u0939\u093e\u0964 \"\u0928\u092f\u093e\" \u092b\u093f\u0930\u0964",
                           rules=rules) == ["\u0915\u0939\u093e\u0964",
                                            "\"\u0928\u092f\u093e\" \u092b\u093f\u0930\u0964"]
