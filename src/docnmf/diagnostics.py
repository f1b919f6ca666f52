"""What the user of a clustering should know about it: checks on the input and the result.

Each check returns plain data (for ``run.json``) and :func:`warning_lines`
turns the lot into one line per finding (for standard error):

- clusters under 1% of the documents or under 3 documents
  (:func:`small_clusters`);
- documents left with no index term after preprocessing
  (:func:`empty_rows`), which the pipeline keeps out of the fit and leaves
  unassigned;
- exact duplicate documents (:func:`duplicate_groups`);
- small groups of documents sharing no index term with the rest
  (:func:`small_isolated_groups`), which can only form clusters of their own;
- a vocabulary that looks stemmed or lower-cased before docnmf saw it
  (:func:`text_hints`, :func:`vocabulary_hints`), the usual reason keywords
  read oddly;
- how many must-link and cannot-link pairs a result keeps
  (:func:`constraint_report`);
- a degenerate result, most of whose clusters are nearly empty
  (:func:`degenerate`), which ``docnmf cluster`` replaces by the consensus's
  when it ran its default method (:func:`docnmf.pipeline.cluster_corpus`'s
  ``fallback``).
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import defaultdict
from typing import Any, Sequence

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from ._estimator import rows_without_entries
from .io import one_line
from .text.boilerplate import BOILERPLATE_WORDS, MENU_LINES, evenly_spaced, repeated_lines
from .text.tokenize import ENGLISH_STOP_WORDS, Analyzer, unspaced_script

__all__ = ["NEARLY_EMPTY_SHARE", "SMALL_CLUSTER_HINT", "SMALL_SHARE", "SMALL_SIZE",
           "at_most_half", "boilerplate", "constraint_report", "copies_finding", "degenerate",
           "degenerate_sizes", "duplicate_groups", "duplicates_finding", "empty_rows",
           "foreign_documents", "nearly_empty_clusters", "not_english_line", "small_clusters",
           "small_clusters_of_sizes", "text_hints", "tied_memberships", "vocabulary_hints",
           "warning_lines"]

#: A cluster is reported as small under this share of the documents or this many documents.
SMALL_SHARE, SMALL_SIZE = 0.01, 3
#: A cluster is nearly empty under this share of the mean cluster size (``n / k`` documents).
NEARLY_EMPTY_SHARE = 1 / 20
#: Share of word occurrences that Porter stemming changes, below which text looks pre-stemmed.
#: Measured on the first 2 MB of text: 20 Newsgroups 0.47, Classic3 0.68, Reuters-21578 0.49;
#: the same texts stemmed beforehand 0.03, 0.04, 0.03.
STEMMED_BELOW = 0.2
#: Word occurrences (text) or distinct words (a count matrix's vocabulary) below which that share
#: varies too much to tell: plain English texts of a few hundred words fell to 0.18.
STEM_HINT_MIN_WORDS = 2_000
#: Frequent function words of French, German, Spanish, Italian, Dutch and Portuguese that are
#: not English stop words. Text looks not English when they outnumber the English stop words
#: (and make at least OTHER_LANGUAGE_SHARE of the words). As text_hints reads them, English
#: stop words / these words: English prose 0.38-0.45 / at most 0.007 (Reuters-21578, 20
#: Newsgroups, DUC 2004, Classic4), Reuters' headlines 0.15 / 0.001, English with its stop
#: words removed 0 / 0; news paragraphs in French, German, Spanish and Italian 0.03-0.05 /
#: 0.21-0.34, in Dutch 0.14 / 0.16.
OTHER_LANGUAGE_WORDS = frozenset("""
    le la les des du et est une que qui dans pour pas sur au aux ces cette sont par
    der die und den das ist nicht mit von zu sich auf für dem des ein eine im auch
    el los las del que en por una con para es se lo al como más pero sus
    il di che la per una del della sono non gli le dei nel alla anche più
    het een van en de niet zijn voor dat met op te ook door maar bij
    os do da que não em uma para das no na ao mais pelo
    """.split()) - ENGLISH_STOP_WORDS
OTHER_LANGUAGE_SHARE = 0.05
#: ... and at least this many of them differ: tables of ice hockey results abbreviate teams as
#: LA, QUE and VAN, which are three such words.
OTHER_LANGUAGE_DISTINCT = 6
#: Word occurrences below which the language is not judged (2,000 before: 30 short French
#: texts went unremarked). In some 700 words of news sentences in French, German, Spanish,
#: Italian, Portuguese and Dutch, OTHER_LANGUAGE_WORDS are 19-40% of the words, 6 to 13
#: different ones. Single documents of 300 words or more, read as text_hints reads a
#: collection, called not English: 1 of 4,120 in 20 Newsgroups (a post in Dutch), none of
#: 1,680 in Reuters-21578, 371 in DUC 2004, 166 in Classic4.
LANGUAGE_HINT_MIN_WORDS = 300
#: Of another language too: text with under ENGLISH_STOP_SHARE of English stop words and at
#: least ACCENTED_SHARE of its letters beyond ASCII (å, ö, ı, ł: Swedish, Turkish, Polish,
#: which the function words above do not cover and Porter left "looking stemmed"). As
#: text_hints reads them: Reuters-21578, 20 Newsgroups, DUC 2004 and Classic4 0.0000, the
#: demo 0.0002; news sentences in Swedish, Turkish and Polish 0.06-0.14. English stripped of
#: its stop words (and stemmed) has no such letters, and stays English.
ENGLISH_STOP_SHARE, ACCENTED_SHARE = 0.10, 0.01
#: A document of at least FOREIGN_MIN_WORDS words looks written in another language when
#: OTHER_LANGUAGE_WORDS outnumber its English stop words, make FOREIGN_SHARE of its words and
#: FOREIGN_DISTINCT of them differ. Such documents, a tenth of a set of English news, formed
#: clusters of their own keyed "die, der, dem" and "la, los, el" while the English topics
#: merged (accuracy 0.47), and the collection as a whole still looked English.
FOREIGN_MIN_WORDS, FOREIGN_SHARE, FOREIGN_DISTINCT = 30, 0.10, 5
#: English stop words that are as common in those languages ("a", "in", "un", "per"): not
#: counted against them. An Italian paragraph of 36 words had 6 of OTHER_LANGUAGE_WORDS and 6
#: English stop words, all of these, and counted as English. Left out, no more of the 48,021
#: documents of Reuters-21578, 20 Newsgroups, DUC 2004 and Classic4 look foreign (4, as before).
SHARED_STOP_WORDS = frozenset({"a", "i", "in", "un", "per", "con", "no", "me", "on", "an", "am",
                               "do", "so"}) & ENGLISH_STOP_WORDS
#: ... or, of at least FOREIGN_MIN_LETTERS letters, when most are not ASCII (another script);
#: or when, as text_hints judges a collection, its words hold under ENGLISH_STOP_SHARE of
#: English stop words and its letters ACCENTED_SHARE beyond ASCII.
FOREIGN_MIN_LETTERS = 50
#: ... and the warning needs this many of them, and this share: of the 4,712 documents of 20
#: Newsgroups read, 1 counts (a post in French), no cluster; Reuters-21578, DUC 2004 and
#: Classic4 have none.
FOREIGN_MIN_DOCUMENTS, FOREIGN_MIN_SHARE = 3, 0.01
#: Documents read for it (evenly spaced through the collection when there are more), each to
#: its first characters.
FOREIGN_SAMPLE, FOREIGN_PER_TEXT = 5_000, 5_000
#: Characters of text read by :func:`text_hints` (the start of the collection), and at most
#: the first of each text: one 50 MB file of a few words repeated filled the sample.
HINT_SAMPLE, HINT_PER_TEXT = 2_000_000, 20_000


def small_clusters(labels: np.ndarray, n_clusters: int, ids: Sequence[str], *,
                   n_listed: int = 5,
                   examples: Sequence[Sequence[int]] | None = None,
                   overlap: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """Clusters under ``SMALL_SHARE`` of the assigned documents or under ``SMALL_SIZE`` of them,
    and under half the mean cluster size (on a tiny corpus every cluster is under three
    documents; none is small for that); empty clusters always.

    Each is listed with up to ``n_listed`` of its documents: ``examples[c]``
    (e.g. its representatives) when given, else its first members; with ``overlap`` (of
    overlapping clusters: the documents with a share in each), how many have one in it.

    Examples
    --------
    >>> found = small_clusters(np.array([0] * 300 + [1, 1, -1]), 3, [str(i) for i in range(303)])
    >>> [(c["cluster"], c["size"], c["examples"]) for c in found]
    [(1, 2, ['300', '301']), (2, 0, [])]
    >>> small_clusters(np.array([0, 0, 1, 1]), 2, list("abcd"))    # four documents, two each
    []
    """
    labels = np.asarray(labels)
    found = small_clusters_of_sizes(np.bincount(labels[labels >= 0], minlength=n_clusters),
                                    [()] * n_clusters)
    for c in found:     # the documents of the small clusters only: one scan each
        members = (np.flatnonzero(labels == c["cluster"]) if examples is None
                   else np.asarray(examples[c["cluster"]], dtype=np.int64))
        c["examples"] = [ids[i] for i in members[:n_listed]]
        if overlap is not None:
            c["with_segments"] = int(overlap[c["cluster"]])
    return found


def small_clusters_of_sizes(sizes: Sequence[int],
                            examples: Sequence[Sequence[str]]) -> list[dict[str, Any]]:
    """:func:`small_clusters` from the cluster sizes and a few document ids of each (what a run
    on Dask has, without every label in one place).

    Examples
    --------
    >>> small_clusters_of_sizes([300, 2, 0], [["a"], ["b", "c"], []])
    [{'cluster': 1, 'size': 2, 'examples': ['b', 'c']}, {'cluster': 2, 'size': 0, 'examples': []}]
    """
    sizes = np.asarray(sizes, dtype=np.int64)
    n = int(sizes.sum())
    limit = min(max(SMALL_SHARE * n, SMALL_SIZE), n / (2 * len(sizes)))
    return [{"cluster": int(c), "size": int(sizes[c]), "examples": list(examples[c])}
            for c in np.flatnonzero((sizes < limit) | (sizes == 0))]


def nearly_empty_clusters(sizes) -> int:
    """How many clusters hold fewer than :data:`NEARLY_EMPTY_SHARE` of the mean cluster size.

    Examples
    --------
    >>> nearly_empty_clusters([2, 5, 11, 338, 394])      # the mean is 150: under 7.5
    2
    """
    sizes = np.asarray(sizes)
    return int(np.sum(sizes < NEARLY_EMPTY_SHARE * sizes.sum() / sizes.size))


def degenerate(sizes) -> bool:
    """Whether a result with these cluster sizes is degenerate: at least two of its clusters
    (one of two) are nearly empty (:func:`nearly_empty_clusters`).

    The default method gives such results when a few documents share almost no words with
    the rest (NC weighting weighs them up); the rule and the evidence behind it are
    ``reports/benchmark-suite/degenerate-guard``.

    Examples
    --------
    >>> degenerate([2, 5, 11, 338, 394]), degenerate([7, 9, 10, 283, 439]), degenerate([4, 4659])
    (True, False, True)
    """
    k = len(sizes)
    return k > 1 and nearly_empty_clusters(sizes) >= min(2, math.ceil(k / 2))


def degenerate_sizes(sizes) -> str:
    """``sizes`` in words, as the warnings about a degenerate result give them.

    Examples
    --------
    >>> degenerate_sizes([240, 2, 2])
    '2 of its 3 clusters nearly empty (sizes 2, 2, 240)'

    Of many clusters, the nearly empty ones and the range of the others (at 100 clusters the
    line listed 100 numbers):

    >>> degenerate_sizes([1, 2] + list(range(30, 60)))
    '2 of its 32 clusters nearly empty (sizes 1, 2; the other 30 from 30 to 59)'
    """
    ordered = sorted(int(n) for n in sizes)
    small = nearly_empty_clusters(sizes)
    if len(ordered) <= 12:
        listed = ", ".join(str(n) for n in ordered)
    else:
        parts = []
        if small:
            parts.append(", ".join(str(n) for n in ordered[:min(small, 12)])
                         + (f" and {small - 12} more" if small > 12 else ""))
        rest = ordered[small:]
        if rest:
            spread = f"all {rest[0]}" if rest[0] == rest[-1] else f"from {rest[0]} to {rest[-1]}"
            parts.append(f"the other {len(rest)} {spread}" if small else spread)
        listed = "; ".join(parts)
    return f"{small} of its {len(sizes)} clusters nearly empty (sizes {listed})"


def empty_rows(X) -> np.ndarray:
    """Indices of the rows of ``X`` with no non-zero entry (``X`` left as it is: the zeros it
    stores were once removed from the caller's matrix in place)."""
    return rows_without_entries(X if sp.issparse(X) else np.asarray(X))


def isolated_groups(X, max_size: int | None = None) -> list[list[int]]:
    """Groups of documents sharing no index term with the other documents, smallest first.

    The connected components of the graph linking each document to its terms,
    apart from the largest, and of at most ``max_size`` documents when given;
    documents with no term are left out (see :func:`empty_rows`). No
    similarity joins such a group to the rest, so it can only be a cluster of
    its own, or part of one with no word in common; NC weighting weighs each
    group as much as all the rest (its leading singular value 1 repeats once
    per group).

    Examples
    --------
    >>> isolated_groups([[1, 1, 0, 0], [0, 1, 0, 0], [0, 0, 0, 2], [0, 0, 0, 0], [1, 0, 0, 0]])
    [[2]]
    """
    X = sp.csr_matrix(X)
    X.eliminate_zeros()
    rows = np.flatnonzero(np.diff(X.indptr) > 0)
    if rows.size < 2:
        return []
    links = sp.csr_matrix(X[rows], dtype=bool)
    graph = sp.bmat([[None, links], [links.T, None]], format="csr")
    _, component = connected_components(graph, directed=False)
    component = component[:rows.size]
    sizes = np.bincount(component)
    wanted = sizes > 0
    wanted[np.argmax(sizes)] = False
    if max_size is not None:
        wanted &= sizes <= max_size
    # one sort, not a scan of every document per group: a corpus can have a group per document
    members = np.flatnonzero(wanted[component])
    members = members[np.argsort(component[members], kind="stable")]
    _, starts = np.unique(component[members], return_index=True)
    groups = [g.tolist() for g in np.split(rows[members], starts[1:])] if members.size else []
    return sorted(groups, key=len)


def small_isolated_groups(X, n_clusters: int) -> list[list[int]]:
    """:func:`isolated_groups` under half the mean cluster size: too few documents for a
    cluster of the usual size, yet no word links them to any other (the groups that explain
    tiny clusters; a large group sharing no term with the rest is a cluster like any other).
    """
    n = X.shape[0] - empty_rows(X).size
    return isolated_groups(X, max_size=int(np.ceil(n / (2 * n_clusters))) - 1)


def duplicate_groups(texts: Sequence[str] | None = None, counts=None) -> list[list[int]]:
    """Groups of documents with identical texts (or identical count rows), largest first.

    Empty texts are not counted: they are reported as empty documents.

    Examples
    --------
    >>> duplicate_groups(["a b", "c", "a b", "", "", "c", "a b"])
    [[0, 2, 6], [1, 5]]
    """
    groups: dict[bytes, list[int]] = defaultdict(list)
    if texts is not None:
        for i, text in enumerate(texts):
            if text.strip():
                groups[hashlib.blake2b(text.encode("utf-8", "surrogatepass"),
                                       digest_size=16).digest()].append(i)
    elif counts is not None:
        X = sp.csr_matrix(counts)
        X.sum_duplicates()
        for i in range(X.shape[0]):
            lo, hi = X.indptr[i], X.indptr[i + 1]
            if hi > lo:
                h = hashlib.blake2b(digest_size=16)
                h.update(X.indices[lo:hi].tobytes())
                h.update(X.data[lo:hi].tobytes())
                groups[h.digest()].append(i)
    found = [g for g in groups.values() if len(g) > 1]
    return sorted(found, key=lambda g: (-len(g), g[0]))


def tied_memberships(memberships: np.ndarray, labels: np.ndarray,
                     ids: Sequence[str]) -> dict[str, Any]:
    """The assigned documents whose memberships are the same in every cluster: their label is
    a tie, not their content (FS-NMF by the paper's updates put 78 of the demo's 80 in cluster
    0 so, at memberships of 1/5, and nothing said it).

    Examples
    --------
    >>> M = np.array([[0.5, 0.5], [0.9, 0.1], [0.5, 0.5]])
    >>> tied_memberships(M, np.array([0, 0, 0]), ["a", "b", "c"])
    {'documents': 2, 'examples': ['a', 'c']}
    """
    M = np.asarray(memberships, dtype=np.float64)
    assigned = np.asarray(labels) >= 0
    if M.ndim != 2 or M.shape[1] < 2:
        return {}
    spread = M.max(axis=1) - M.min(axis=1)
    tied = np.flatnonzero(assigned & (spread <= 1e-12 * np.maximum(M.max(axis=1), 1e-300)))
    return {"documents": int(tied.size), "examples": [ids[i] for i in tied[:5]]} \
        if tied.size else {}


def duplicates_finding(groups: list[list[int]], ids: Sequence[str]) -> dict[str, Any]:
    """The diagnostics report's entry for :func:`duplicate_groups`' ``groups``."""
    return copies_finding([len(g) for g in groups], [[ids[i] for i in g[:5]] for g in groups[:20]])


def copies_finding(sizes: Sequence[int], examples: list[list[str]]) -> dict[str, Any]:
    """The diagnostics report's entry on copies: groups of ``sizes`` documents, largest first,
    the first 20 with up to 5 of their ids (``examples``)."""
    return {"groups": len(sizes), "documents": int(sum(sizes)) - len(sizes),
            "examples": examples[:20]}


def _stem_changes(words: Sequence[str], weights: np.ndarray) -> float:
    """Weighted share of ``words`` that Porter stemming changes."""
    stems = Analyzer(stop_words=None, stem=True).stem_words(list(words))
    changed = np.array([s != w for s, w in zip(stems, words)], dtype=bool)
    total = float(weights.sum())
    return float(weights[changed].sum()) / total if total else math.nan


def text_hints(texts: Sequence[str], *, sample: int = HINT_SAMPLE) -> dict[str, Any]:
    """Does the text look stemmed or lower-cased before docnmf saw it, or not English?

    Reads the first ``sample`` characters. ``not_english`` when most letters
    are not Latin (or of a script written without spaces, ``unspaced_script``),
    or among at least ``LANGUAGE_HINT_MIN_WORDS`` word occurrences another
    language's ``OTHER_LANGUAGE_WORDS`` (``OTHER_LANGUAGE_DISTINCT`` of them at
    least) outnumber the English stop words, or the words hold few English stop
    words and many letters beyond ASCII; the stop words and the Porter stemmer
    are English's. For English-looking text
    only: ``stemmed`` when Porter stemming
    changes under ``STEMMED_BELOW`` of the (non-stop) word occurrences, of
    which there are at least ``STEM_HINT_MIN_WORDS`` (too few say nothing);
    ``lowercased`` when no letter at all is upper case among at least
    10,000 letters.

    Examples
    --------
    >>> text_hints(["Runners were running to the stations"] * 1000)["stemmed"]
    False
    >>> text_hints(["runner were run to the station"] * 1000)["stemmed"]
    True
    >>> text_hints(["runner were run to the station"] * 3)["stemmed"]
    False
    >>> hints = text_hints(["天文学家观测到一颗明亮的彗星和遥远的星系"] * 1000)
    >>> hints["stemmed"], hints["lowercased"], hints["unspaced_script"], hints["not_english"]
    (False, False, True, True)
    >>> text_hints(["Die Regierung hat mit den Ländern ein Paket für kleine Firmen "
    ...             "vorgestellt, und die Gewerkschaften rufen zu Protesten auf."] * 100
    ...            )["not_english"]
    True
    """
    chunk = _first_characters(texts, sample)
    tokens = Analyzer(stop_words=None, stem=False).tokenize(chunk)
    counts = tokens.word_counts().astype(np.float64)
    words = np.asarray(tokens.words, dtype=object)
    stop = np.isin(words, list(ENGLISH_STOP_WORDS))
    n_words, n_stop = counts.sum(), counts[stop].sum()
    other = np.isin(words, list(OTHER_LANGUAGE_WORDS))
    n_other, n_other_distinct = counts[other].sum(), int(np.count_nonzero(counts[other]))
    counts[stop] = 0.0
    changed = _stem_changes(tokens.words, counts)
    if n_words - n_stop < STEM_HINT_MIN_WORDS:
        changed = math.nan
    letters = sum(sum(map(str.isalpha, t)) for t in chunk)
    upper = sum(sum(map(str.isupper, t)) for t in chunk)
    latin = sum(sum(map(str.isalpha, t.encode("ascii", "ignore").decode())) for t in chunk)
    # runs of such letters between spaces: words are 1-4 letters long, sentences far more
    runs = [len(w) for t in chunk for w in t.split() if unspaced_script(w[0])]
    unspaced = sum(runs) if runs and np.mean(runs) > 6 else 0
    of_unspaced_script = bool(letters and unspaced / letters >= 0.5)
    stop_share = float(n_stop / n_words) if n_words else None
    # a text of English words without its stop words (preprocessed) has neither kind: English
    accented = letters - latin          # letters beyond ASCII
    other_language = bool(n_words >= LANGUAGE_HINT_MIN_WORDS and (
        (n_other > n_stop and n_other >= OTHER_LANGUAGE_SHARE * n_words
         and n_other_distinct >= OTHER_LANGUAGE_DISTINCT)
        or (n_stop < ENGLISH_STOP_SHARE * n_words and accented >= ACCENTED_SHARE * letters)))
    not_english = bool(letters and (of_unspaced_script or latin / letters < 0.5 or other_language))
    # Porter stemming and letter case say something of English text only: a Greek, Chinese or
    # German text is neither "stemmed" nor "lower-cased" (German nouns' endings, which Porter
    # does not know, looked "stemmed")
    english = letters > 0 and not not_english
    return {"stemmed": bool(english and changed < STEMMED_BELOW),
            "changed_by_stemming": round(changed, 4),
            "lowercased": bool(english and letters >= 10_000 and upper == 0),
            "uppercase_share": round(upper / letters, 4) if letters else None,
            "unspaced_script": of_unspaced_script,
            "english_stop_word_share": None if stop_share is None else round(stop_share, 4),
            "not_english": not_english,
            "characters_read": sum(map(len, chunk))}


#: The lowest --max-df suggested against boilerplate.
BOILERPLATE_MAX_DF = 0.3


def boilerplate(texts: Sequence[str], max_df: float = 0.95,
                n_documents: int | None = None) -> dict[str, Any]:
    r"""Lines repeated across many documents: how many, the shares of documents holding them
    (from ``BOILERPLATE_SHARE`` up to the share ``max_df`` keeps words of, as counts or a
    fraction), the most widespread, and the ``--max-df`` (a tenth) that drops their words;
    empty when there are none.

    Examples
    --------
    >>> notice = "This message and its attachments are confidential and for the addressee only"
    >>> texts = [f"Topic {i} words here\n{notice if i % 2 else ''}" for i in range(40)]
    >>> found = boilerplate(texts)
    >>> found["lines"], found["shares"], found["max_df"]
    (1, [0.5, 0.5], 0.4)
    """
    found, n = repeated_lines(texts, max_df, n_documents)
    if not found:
        return {}
    shares = sorted(c / n for c in found.values())
    widest = max(found, key=lambda line: (found[line], line))
    # the words of a line in a share s of the documents are in s of them at least: a --max-df
    # under s drops them. Not under BOILERPLATE_MAX_DF: a topic's own words are in as many
    # documents as its cluster holds
    tenths = [math.floor((share - 0.01) * 10) / 10 for share in shares]
    above = [t for t in tenths if t >= BOILERPLATE_MAX_DF]   # (0.30 gave 0.2)
    suggested = above[0] if above else None
    return {"lines": len(found), "shares": [round(shares[0], 3), round(shares[-1], 3)],
            "example": widest[:120], "max_df": suggested, "documents_read": n}


def foreign_documents(texts: Sequence[str], ids: Sequence[str] | None = None) -> dict[str, Any]:
    """The documents that look written in a language other than English (see
    ``FOREIGN_SHARE``), of ``FOREIGN_SAMPLE`` read at most, each to its first
    ``FOREIGN_PER_TEXT`` characters: how many, of how many read, and the first few ids (or
    indices); empty under ``FOREIGN_MIN_DOCUMENTS`` of them or under ``FOREIGN_MIN_SHARE`` of
    those read.

    Examples
    --------
    >>> german = ("Die Regierung hat mit den Ländern ein Paket für kleine Firmen vorgestellt, "
    ...           "und die Gewerkschaften rufen zu Protesten auf, weil die Hilfe nicht reicht "
    ...           "und der Staat auch die Kosten der Energie für das Jahr senken soll.")
    >>> english = ("The government has presented a package for small firms with the regions, "
    ...            "and the unions call for protests because the help is not enough and the "
    ...            "state should also lower the cost of energy for the year.")
    >>> foreign_documents([german] * 3 + [english] * 30)
    {'documents': 3, 'of': 33, 'examples': ['0', '1', '2']}
    """
    read = evenly_spaced(len(texts), FOREIGN_SAMPLE)    # (1.1 s on 20 Newsgroups, all read)
    found = [i for i in read if _looks_foreign(texts[i][:FOREIGN_PER_TEXT])]
    if len(found) < max(FOREIGN_MIN_DOCUMENTS, FOREIGN_MIN_SHARE * len(read)):
        return {}
    return {"documents": len(found), "of": len(read),
            "examples": [str(ids[i]) if ids is not None else str(i) for i in found[:5]]}


_LETTER_RUN = re.compile(r"[^\W\d_]+")


def _looks_foreign(start: str) -> bool:
    """Whether the start of a document looks written in another language than English (see
    ``FOREIGN_SHARE`` and ``FOREIGN_MIN_LETTERS``)."""
    letters = sum(map(str.isalpha, start))
    ascii_letters = sum(map(str.isalpha, start.encode("ascii", "ignore").decode()))
    # mostly letters of another script (Russian, Greek, Chinese: a run of Chinese letters is
    # one "word"), as text_hints judges a collection
    if letters >= FOREIGN_MIN_LETTERS and ascii_letters < 0.5 * letters:
        return True
    words = _LETTER_RUN.findall(start.lower())
    if len(words) < FOREIGN_MIN_WORDS:
        return False
    other = [w for w in words if w in OTHER_LANGUAGE_WORDS]
    n_stop = sum(w in ENGLISH_STOP_WORDS for w in words)
    n_english = n_stop - sum(w in SHARED_STOP_WORDS for w in words)
    function_words = (len(other) > n_english and len(other) >= FOREIGN_SHARE * len(words)
                      and len(set(other)) >= FOREIGN_DISTINCT)
    # few English stop words among letters beyond ASCII: Swedish, Turkish, Polish
    accented = (n_stop < ENGLISH_STOP_SHARE * len(words)
                and letters - ascii_letters >= ACCENTED_SHARE * letters)
    return function_words or accented


def _first_characters(texts: Sequence[str], sample: int) -> list[str]:
    """The texts up to ``sample`` characters in all, each its first ``HINT_PER_TEXT`` at most
    (a long document: its start only)."""
    chunk, size = [], 0
    for text in texts:
        chunk.append(text[:min(sample - size, HINT_PER_TEXT)])
        size += len(chunk[-1])
        if size >= sample:
            break
    return chunk


def not_english_line(stop_share: float, remedy: str | None = None, *, stem: bool = True,
                     max_df: float = 0.95) -> str:
    """What to do with texts whose words are rarely English stop words (``text_hints``).

    ``remedy``: the options of the command at hand that help ("" for none); by default,
    ``docnmf cluster``'s, those of ``stem`` and ``max_df`` (the settings the texts were read
    with) that would change something.
    """
    line = (f"the texts do not look English ({stop_share:.0%} of the words are English stop "
            "words, in English prose about 40%), and the stop words dropped"
            + (" and the Porter stemming are" if stem else " are") + " English's")
    if remedy is None:
        options = ["--no-stem"] * bool(stem) + ["--max-df 0.5"] * (not at_most_half(max_df))
        python = ["stem=False"] * bool(stem) + ["max_df=0.5"] * (not at_most_half(max_df))
        remedy = (f"docnmf cluster {' '.join(options)} ({', '.join(python)} in Python)"
                  if options else "")
    if remedy:
        line += f"; for another language, try {remedy}"
        if "max-df" in remedy:
            line += (": the words in over half of the documents, most often that language's "
                     "stop words, are then dropped")
    return line


def at_most_half(max_df) -> bool:
    """A ``max_df`` that drops the words of over half of the documents (a fraction)."""
    return isinstance(max_df, float) and max_df <= 0.5


def empty_vocabulary_hint(texts: Sequence[str], *, sample: int = HINT_SAMPLE) -> str:
    """Why texts may give no index term, to add to the error that says they gave none: a script
    written without spaces, or no word of two letters at all (numbers, codes), or stop words
    only; empty when none of these holds.

    Examples
    --------
    >>> empty_vocabulary_hint(["12 34.5", "2024-01-01"])[:49]
    'the texts hold no word of two or more letters (nu'
    >>> empty_vocabulary_hint(["the of and", "it is"])[:35]
    'every word is an English stop word '
    """
    hints = text_hints(texts, sample=sample)
    if hints["unspaced_script"]:
        return ("the texts are mostly in a script written without spaces between words "
                "(Chinese, Japanese, Thai), and docnmf takes a run of letters as one word: split "
                "the texts into words with spaces first (with a segmenter: jieba for Chinese, "
                "MeCab or SudachiPy for Japanese)")
    chunk = _first_characters(texts, sample)
    if Analyzer(stem=False).tokenize(chunk).words:
        return ""
    with_digits = list(dict.fromkeys(w for text in chunk for w in _WORD_WITH_DIGITS.findall(text)))
    if with_digits:
        return (f"the texts' words hold digits ({', '.join(with_digits[:3])}), and an index "
                f"term is a run of two or more letters: --token-pattern '{SKLEARN_TOKEN_PATTERN}'"
                " (token_pattern in Python) keeps such words")
    if not Analyzer(stop_words=None, stem=False).tokenize(chunk).words:
        return ("the texts hold no word of two or more letters (numbers, punctuation and single "
                "letters are not index terms; --token-pattern, token_pattern in Python, can "
                "make them so)")
    return ("every word is an English stop word (--keep-stop-words, or stop_words=None, "
            "keeps them)")


#: A word with a letter and a digit (mp3, covid19, h1n1), which the default pattern drops.
_WORD_WITH_DIGITS = re.compile(r"\b(?=\w*\d)(?=\w*[^\W\d_])\w{2,}\b")

#: scikit-learn's CountVectorizer pattern: two or more word characters, digits included.
SKLEARN_TOKEN_PATTERN = r"(?u)\b\w\w+\b"


def vocabulary_hints(vocabulary: Sequence[str]) -> dict[str, Any]:
    """Does a count matrix's vocabulary look stemmed (see :func:`text_hints`)?

    Examples
    --------
    >>> stems = ["compani", "servic", "market", "price"]
    >>> vocabulary_hints(stems * 500)["stemmed"], vocabulary_hints(stems)["stemmed"]
    (True, False)
    """
    words = [w.lower() for w in vocabulary if w.isalpha()]
    changed = _stem_changes(words, np.ones(len(words)))
    if len(words) < STEM_HINT_MIN_WORDS:
        changed = math.nan
    return {"stemmed": bool(changed < STEMMED_BELOW), "changed_by_stemming": round(changed, 4)}


def constraint_report(labels: np.ndarray, must_link, cannot_link, ids: Sequence[str], *,
                      n_listed: int = 20) -> dict[str, Any]:
    """Must-link pairs kept together and cannot-link pairs kept apart by ``labels``.

    A pair with an unassigned document (label -1) counts as neither.

    Examples
    --------
    >>> r = constraint_report(np.array([0, 0, 1, -1]), [(0, 1), (1, 2)], [(0, 2), (0, 1)],
    ...                       ["a", "b", "c", "d"])
    >>> r["must_link"], r["cannot_link"]["violated_pairs"]
    ({'given': 2, 'satisfied': 1, 'violated': 1, 'violated_pairs': [['b', 'c']]}, [['a', 'b']])
    """
    labels = np.asarray(labels)
    out = {}
    for name, pairs, together in (("must_link", must_link, True),
                                  ("cannot_link", cannot_link, False)):
        pairs = np.asarray(pairs if pairs is not None else [], dtype=np.int64).reshape(-1, 2)
        a, b = labels[pairs[:, 0]], labels[pairs[:, 1]]
        placed = (a >= 0) & (b >= 0)
        kept = (a == b) if together else (a != b)
        bad = pairs[placed & ~kept]
        out[name] = {"given": int(len(pairs)), "satisfied": int(np.sum(placed & kept)),
                     "violated": int(len(bad)),
                     "violated_pairs": [[ids[i], ids[j]] for i, j in bad[:n_listed]]}
        if np.any(~placed):
            out[name]["with_unassigned_document"] = int(np.sum(~placed))
    return out


def documents_phrase(n: int) -> str:
    """``"1 document"``, ``"2 documents"``."""
    return f"{n} document" + ("s" if n != 1 else "")


def _examples(items: Sequence[str], n: int = 5) -> str:
    shown = ", ".join(map(one_line, items[:n]))   # an id's newline or U+202E: escaped
    return shown + (f" and {len(items) - n} more" if len(items) > n else "")


#: What to try when clusters come out tiny: documents sharing few words with the rest get
#: clusters of their own, the more so under NC weighting, which weighs them up
#: (``reports/benchmark-suite/ncw-floor/DECISION.md``).
SMALL_CLUSTER_HINT = ("small clusters often hold documents that share few words with the "
                      "rest (very short texts, encoded files, signatures): {} may give "
                      "clusters by topic")


#: Small clusters up to this many are named one a line, with examples; more, in one line.
_LISTED_ONE_BY_ONE = 5


def warning_lines(report: dict[str, Any], method: str | None = None, *,
                  method_chosen: bool = True) -> list[str]:
    """One line per finding of a diagnostics report (as :func:`docnmf.pipeline` builds it).

    ``method`` is the method that made the result: the advice on small clusters does not
    suggest the consensus to a consensus, nor to a command without ``--method``
    (``method_chosen=False``: ``docnmf keywords``).
    """
    lines = []
    replaced = report.get("replaced")
    if replaced:      # first: it says whose clusters these are
        lines.append(f"{replaced['method']}, the default, gave a degenerate result: "
                     f"{degenerate_sizes(replaced['cluster_sizes'])}; the clusters here are "
                     f"those of --method {replaced['by']}; --method {replaced['method']} keeps "
                     "its own")
    unassigned = report.get("unassigned", {})
    if unassigned.get("count"):
        lines.append(f"{documents_phrase(unassigned['count'])} with {unassigned['reason']}, not "
                     f"assigned (cluster -1): {_examples(unassigned['ids'])}")
    small = report.get("small_clusters", [])
    plain = [c for c in small if c["size"] and c.get("with_segments", 0) <= c["size"]]
    if len(plain) > _LISTED_ONE_BY_ONE:
        # one line for them all: at k=60 on Reuters, 36 lines of "cluster N has only ..."
        # filled the report's overview and the terminal (clusters of a skewed corpus)
        lines.append(f"{len(plain)} clusters have under {SMALL_SHARE:.0%} of the documents "
                     f"(or under {SMALL_SIZE}) and under half the mean size: clusters "
                     + ", ".join(f"{c['cluster']} ({c['size']}"
                                 + (" documents)" if i == 0 else ")")
                                 for i, c in enumerate(plain)))
        small = [c for c in small if c not in plain]
    for c in small:
        if not c["size"] and c.get("with_segments"):
            lines.append(f"cluster {c['cluster']} holds most of the segments of no document, "
                         f"but some of {documents_phrase(c['with_segments'])} (clusters "
                         "overlap: overlapping.csv)")
            continue
        if not c["size"]:
            lines.append(f"cluster {c['cluster']} is empty")
            continue
        beside = (f"; {documents_phrase(c['with_segments'])} have segments in it (clusters "
                  "overlap)" if c.get("with_segments", 0) > c["size"] else "")
        lines.append(f"cluster {c['cluster']} has only {c['size']} of the documents (under "
                     f"{SMALL_SHARE:.0%} of them or under {SMALL_SIZE}, and under half the mean "
                     "size)" + (": " + _examples(c["examples"]) if c["examples"] else "")
                     + beside)
    overlapping = any("with_segments" in c for c in report.get("small_clusters", []))
    if any(c["size"] for c in report.get("small_clusters", [])) and not overlapping:
        # (the consensus has no overlapping clusters to offer instead)
        lines.append(SMALL_CLUSTER_HINT.format(
            "removing them or a smaller -k" if method == "consensus" or not method_chosen
            else "removing them, a smaller -k, or --method consensus"))
    isolated = report.get("isolated", {})
    if isolated.get("groups"):
        groups = isolated["groups"]
        lines.append(f"{documents_phrase(isolated['documents'])} in {groups} small group"
                     f"{'s' if groups != 1 else ''} share no index term with the other "
                     f"documents, e.g. {_examples(isolated['examples'][0])}: nothing links "
                     "them to the rest, so they can only form clusters of their own"
                     + ("; NC weighting weighs each group as much as all the others"
                        if method and "ncw" in method else ""))
    ties = report.get("ties") or {}
    if ties.get("documents"):
        lines.append(f"{documents_phrase(ties['documents'])} belong to every cluster alike (the "
                     "same membership in each), so their cluster is a tie, not their content, "
                     f"e.g. {_examples(ties['examples'])}: the fit tells them from no other"
                     + ("; FS-NMF by the paper's updates reaches its objective's trivial "
                        "minimum so, --method fsnmf does not" if method == "fsnmf-paper"
                        else ""))
    dup = report.get("duplicates", {})
    if dup.get("groups"):
        lines.append(f"{documents_phrase(dup['documents'])} repeating another exactly "
                     f"({dup['groups']} group{'s' if dup['groups'] != 1 else ''}), e.g. "
                     + " = ".join(map(one_line, dup["examples"][0])))
    if report.get("copies_moved"):
        lines.append(f"the fit had put {documents_phrase(report['copies_moved'])} in another "
                     "cluster than most of their copies (documents it saw alike: the same terms "
                     "weighted alike, texts that may differ in numbers, stop words or case): "
                     "each group of copies is in one cluster now")
    foreign = report.get("languages") or {}
    if foreign.get("documents"):
        lines.append(f"{foreign['documents']} of the {foreign['of']} documents read look "
                     f"written in another language than English, e.g. {_examples(foreign['examples'])}: "
                     "such documents tend to form clusters of their own, keyed by their "
                     "language's common words (English stop words leave them in); cluster them "
                     "apart")
    repeated = report.get("boilerplate") or {}
    if repeated.get("lines"):
        lo, hi = repeated["shares"]
        n = repeated["lines"]
        lines.append(f"{n} line{'s' * (n != 1)} (of {BOILERPLATE_WORDS} words or more, or "
                     f"runs of {MENU_LINES} shorter ones, a menu's items) "
                     f"{'recur' if n != 1 else 'recurs'} in {lo:.0%}"
                     + (f" to {hi:.0%}" if f"{hi:.0%}" != f"{lo:.0%}" else "")
                     + " of the documents, e.g. "
                     f"\"{repeated['example']}\": boilerplate (a site's menus, a disclaimer, a "
                     "signature, a running header) whose words can make the clusters; "
                     + (f"--max-df {repeated['max_df']} drops the words in over "
                        f"{repeated['max_df']:.0%} of the documents"
                        if repeated.get("max_df") is not None else
                        (f"a --max-df below {'its share' if n == 1 else 'their shares'} would "
                         f"drop {'its' if n == 1 else 'their'} words, and a topic's as "
                         f"widespread: removing {'it' if n == 1 else 'them'} from the texts is "
                         "better")))
    hints = report.get("vocabulary", {})
    if hints.get("stemmed"):
        lines.append("the vocabulary looks stemmed already (Porter stemming changes "
                     f"{hints['changed_by_stemming']:.0%} of the words; in plain English "
                     "about half): keywords will show the stems as they are")
    if hints.get("lowercased"):
        lines.append("the texts have no capital letter: they look lower-cased upstream, so "
                     "names cannot be told from common words")
    if hints.get("unspaced_script"):
        lines.append("the texts are mostly in a script written without spaces between words "
                     "(Chinese, Japanese, Thai): docnmf takes a run of letters as one word, so "
                     "split the texts into words with spaces first (with a segmenter: jieba "
                     "for Chinese, MeCab or SudachiPy for Japanese)")
    elif hints.get("not_english"):
        read = hints.get("read_with") or {}
        lines.append(not_english_line(hints["english_stop_word_share"],
                                      stem=read.get("stem", True),
                                      max_df=read.get("max_df", 0.95)))
    for name, label in (("must_link", "must-link"), ("cannot_link", "cannot-link")):
        c = report.get("constraints", {}).get(name)
        if c and c["violated"]:
            lines.append(f"{c['violated']} of {c['given']} {label} pairs are not kept by the "
                         f"result, e.g. {' / '.join(c['violated_pairs'][0])}")
    return lines
