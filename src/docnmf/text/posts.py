"""A mail or news post's own text (20 Newsgroups), without its header block, the lines it
quotes and its signature; a saved web page's text without markup."""

from __future__ import annotations

import re

from ..corpus.formats import page_text, unix_lines

__all__ = ["body_of", "post_subject"]


#: Header fields a mail or news post opens with (RFC 5322 / 1036), lower-cased; the block may
#: hold any other field after the first ("Summary:" or "Keywords:" first is a note, not a post).
_MAIL_FIELDS = frozenset("""from subject newsgroups path date message-id organization xref
    to reply-to sender article-i.d. received return-path""".split())
_FIELD = re.compile(r"([A-Za-z][\w.-]*):[ \t]")
#: The line that introduces a quotation in a post.
_ATTRIBUTION = re.compile(r"\b(?:writes|wrote|said):\s*$")
#: The line that opens a signature ("-- ", or "--" as many posts write it).
_SIGNATURE = re.compile(r"--[ \t]*")
#: A quoted line: ">" or "|" first (after any indent; "|>", "| >", "+>" too), or ":", "}" or
#: "& " in the first column, the other marks newsreaders quote with (10% of 20 Newsgroups' test
#: posts quote with "|", "|>" or ":"; a "|" line is otherwise a box or a table, no sentence).
_QUOTED = re.compile(r"[ \t]*\+?[>|]|[:}]|& ")
#: A rule that opens a signature without "--" alone: a line of "=", "-", "_", "*", "+", "~" or
#: "#" (a box's top "+-----+", "=====" above a name), or "--" and a name ("--- Ed Green,
#: former ..."), within a signature's length of the end.
_RULE = re.compile(r"[ \t]*[-=_*+~#][-=_*+~# \t]{3,}|--.*")
_SIGNATURE_LINES = 8
#: Dashes before more words than a name and a title have: a sentence's start ("---Hey isn't
#: it funny how betas ...", "-- From what I could see, you can order ..."), not a signature's
#: ("--Dave", "-- Ken Jenks, NASA/JSC/GM2, Space Shuttle Program Office").
_DASHES_AND_WORD = re.compile(r"[ \t]*-{2,}[ \t]*\w")
_WORD = re.compile(r"[^\W\d_]+")
_ADDRESS = re.compile(r"\S+@\S+|\S+://\S+")
_NAME_WORDS = 10


def body_of(text: str) -> str:
    r"""``text`` without what a mail or news post (20 Newsgroups) holds besides its own
    sentences: the header block (lines of ``Field: value`` up to the first blank line, the
    first a mail field, at least two in all), quoted lines (``>``, ``|``, ``|>``; ``:``,
    ``}`` or ``& `` in the first column) and the line introducing them (``... writes:``, over
    one line or two) and its signature (from a ``--`` line on, or from a rule of ``=``, ``-``,
    ``+``, ... or a line starting ``--`` with at most 8 lines after it, not all of them
    questions, the ``--`` line no sentence of more than ten words); an HTML page
    (``<!DOCTYPE html``, ``<html``, ``<head`` or ``<body`` first, after any byte-order mark,
    XML declaration and comments) as its text, without markup, scripts or styles. Other texts
    are returned as they are.

    Examples
    --------
    >>> body_of("From: a@b.edu\nSubject: Re: orbits\n\nIn article <1@c> x writes:\n"
    ...         "> old words\nThe comet is back.")
    'The comet is back.'
    >>> body_of("Note: the comet is back.\nSubject: none\n\nMore.")
    'Note: the comet is back.\nSubject: none\n\nMore.'
    """
    text = text.lstrip("\ufeff")      # a byte-order mark is no text
    page = page_text(text)
    if page is not None:
        return page                     # a saved web page: its text, not its markup
    header, rest = _header_block(text)
    if header is None:
        return text
    kept, lines = [], rest.split("\n")
    for i, line in enumerate(lines):
        if _SIGNATURE.fullmatch(line) or (_RULE.fullmatch(line) and _signature_after(line,
                                                                             lines[i + 1:])):
            break                       # the signature: a name, an address, a motto
        # an attribution wrapped over two lines ("In article <1@a> j@a (John" / "Doe)
        # writes:"): its first line goes with the second
        wrapped = line.startswith("In article") and i + 1 < len(lines) \
            and _ATTRIBUTION.search(lines[i + 1])
        if not (_QUOTED.match(line) or _ATTRIBUTION.search(line) or wrapped):
            kept.append(line)
    return "\n".join(kept)


def _signature_after(rule: str, after: list[str]) -> bool:
    """Whether a rule line (``=====``, ``+-----+``, ``--- name``) opens a signature: at most
    :data:`_SIGNATURE_LINES` lines follow it, not all of them questions (a poster's questions
    under a log's ``=====``, comp.windows.x/68259, were cut as a signature), and a ``--`` line
    with words holds a name's few (``--Dave``, not ``---Hey isn't it funny how betas have bugs
    in them``, a post's first line)."""
    rest = [line for line in after if line.strip()]
    if len(rest) > _SIGNATURE_LINES or (rest and all(line.rstrip().endswith("?")
                                                     for line in rest)):
        return False
    named = _ADDRESS.sub(" ", rule)     # an address is no words of a sentence
    return not (_DASHES_AND_WORD.match(rule) and len(_WORD.findall(named)) > _NAME_WORDS)


def post_subject(text: str) -> str | None:
    r"""The ``Subject:`` of a mail or news post (as :func:`body_of` finds its header block),
    without any ``Re:``; None for other texts or a post without one.

    Examples
    --------
    >>> post_subject("From: a@b.edu\nSubject: Re: orbits\n\nThe comet is back.")
    'orbits'
    >>> post_subject("Subject: none\n\nMore.") is None       # one field is no header block
    True
    """
    header, _ = _header_block(text.lstrip("\ufeff"))
    for line in header or ():
        field = _FIELD.match(line)
        if field and field.group(1).lower() == "subject":
            subject = re.sub(r"^(?:re:\s*)+", "", line[field.end():].strip(), flags=re.IGNORECASE)
            return subject or None
    return None


def _header_block(text: str) -> tuple[list[str] | None, str]:
    """The header block's lines of a post and the rest of it, or None and the text: lines of
    ``Field: value`` (or continuations) up to the first blank line, the first a mail field,
    at least two in all."""
    head, blank, rest = unix_lines(text).partition("\n\n")
    lines = head.strip("\n").split("\n")
    first = _FIELD.match(lines[0])
    if not blank or len(lines) < 2 or first is None \
            or first.group(1).lower() not in _MAIL_FIELDS \
            or not all(_FIELD.match(line) or line[:1] in (" ", "\t") for line in lines):
        return None, text
    return lines, rest
