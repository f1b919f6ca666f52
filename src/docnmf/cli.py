"""The ``docnmf`` command: argument parsing only; the work is done by the public API."""

from __future__ import annotations

import _thread
import argparse
import codecs
import logging
import math
import os
import re
import signal
import sys
import textwrap
import threading
import warnings
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Iterator, Sequence

from ._names import did_you_mean

__all__ = ["main"]

logger = logging.getLogger("docnmf")


class UsageError(Exception):
    """A user mistake: reported in one line with exit status 2, never as a traceback."""


#: The values of ``--init``.
_INIT_CHOICES = ("random", "nndsvd", "nndsvda", "nndsvdar")


def _positive_int(text: str) -> int:
    value = _number(text, int, "a whole number")
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {value}")
    return value


def _at_least(least: int, why: str):
    """A whole number of at least ``least`` (``why`` says why)."""
    def parse(text: str) -> int:
        return _not_below(_number(text, int, "a whole number"), least, why)
    return parse


def _not_below(value: int, least: int, why: str) -> int:
    if value < least:
        raise argparse.ArgumentTypeError(f"expected at least {least} ({why}), got {value}")
    return value


def _clusters_or_auto(text: str) -> int | str:
    if text.strip().lower() == "auto":
        return "auto"
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number or 'auto', got {text!r}") \
            from None


def _at_most(limit: int, at_least: tuple[int, str] | None = None):
    """A positive whole number up to ``limit``: more would only exhaust memory or time; and,
    given ``at_least`` (the least, why), not below its least."""
    def parse(text: str) -> int:
        value = _positive_int(text)
        if value > limit:
            raise argparse.ArgumentTypeError(f"expected at most {limit:,}, got {value:,}")
        return value if at_least is None else _not_below(value, *at_least)
    return parse


def _number(text: str, kind: type, what: str):
    try:
        return kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None


def _pattern(text: str) -> str:
    """A token pattern the vectorizer takes (it compiles and matches no empty word)."""
    from .text.tokenize import Analyzer

    try:
        Analyzer(stop_words=None, stem=False, token_pattern=text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _not_blank(text: str, what: str) -> str:
    """``text``, unless it is empty or blank: Path("") is ".", so an unset variable
    (``docnmf cluster "$DIR"``, ``-o "$OUT"``) named the folder the command ran in."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
    return text


def _folder(text: str) -> Path:
    """An output folder's path (-o "" was told it would replace the folder the run started
    in); a ``~`` the shell left (quoted) is the home folder, as it would have made it ('~/out'
    made a folder named '~' in the current one)."""
    # ('~name' of no user stays: Path's expanduser raises)
    return Path(os.path.expanduser(_not_blank(text, "a folder's name")))


def _named(text: str) -> str:
    """An input's name (an empty one read the folder the command ran in, and its own results
    in it)."""
    return _not_blank(text, "a folder, file or dataset name")


def _named_path(text: str) -> Path:
    """A file or folder's path, not an empty name."""
    return Path(_not_blank(text, "a file or folder's name"))


def _seed(text: str) -> int:
    value = _number(text, int, "a whole number")
    if not 0 <= value < 2**32:
        raise argparse.ArgumentTypeError(f"expected a seed from 0 to 2**32 - 1, got {value}")
    return value


def _finite(text: str) -> float:
    """A finite number >= 0 (``nan``, ``inf`` and negative numbers are refused)."""
    value = _number(text, float, "a number")
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"expected a finite number >= 0, got {text!r}")
    return value


def _df(text: str) -> int | float:
    """A document frequency: a whole number of documents ("3"), or a fraction in [0, 1]
    written with a point ("0.5", "1.0": all of them)."""
    value = _finite(text)
    fraction = any(c in text for c in ".eE")
    if value == int(value) and value >= 1 and not (fraction and value == 1):
        return int(value)
    if value > 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of documents or a fraction "
                                         f"in [0, 1], got {text!r}")
    return value


def _encoding(text: str) -> str:
    """An --encoding: a codec Python knows that decodes text to text."""
    import codecs

    try:
        info = codecs.lookup(text)
    except LookupError:
        raise argparse.ArgumentTypeError(f"unknown encoding {text!r} (e.g. utf-8, cp1252, "
                                         "latin-1, mac-roman)") from None
    if not getattr(info, "_is_text_encoding", True):
        raise argparse.ArgumentTypeError(f"{text!r} is no text encoding")
    return info.name


def _max_df(text: str) -> int | float:
    """A --max-df: as :func:`_df`, above zero (no term lies in fewer than one document)."""
    value = _df(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be above 0 (a fraction or a number of "
                                         f"documents), got {text!r}")
    return value


def _add_corpus_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("input")
    g.add_argument("--text-column", default=None,
                   help="CSV/JSONL column holding the text (default: 'text')")
    g.add_argument("--label-column", default=None,
                   help="CSV/JSONL column holding labels (default: 'label' if present)")
    g.add_argument("--id-column", default=None,
                   help="CSV/JSONL column holding ids (default: 'id' if present, else row number)")
    g.add_argument("--encoding", type=_encoding, default="utf-8",
                   help="encoding of the text files and tables (default utf-8; cp1252 for text "
                        "saved on Windows in Western Europe, latin-1, mac-roman...); a file "
                        "with a UTF-16/32 byte-order mark is read in that encoding")


def _add_text_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("text pipeline")
    g.add_argument("--min-df", type=_df, default=2, help="drop terms in fewer documents (default 2)")
    g.add_argument("--max-df", type=_max_df, default=0.95,
                   help="drop terms in more than this many documents: a fraction of them "
                        "(0.5; 1.0 is all), or a number of documents (default 0.95)")
    g.add_argument("--max-features", type=_positive_int, default=None,
                   help="keep only this many terms, those of highest total count (after --min-df "
                        "and --max-df; with --tf binary too, where scikit-learn ranks by the "
                        "number of documents)")
    g.add_argument("--tf", choices=["raw", "sublinear", "binary"], default="raw",
                   help="term frequency: raw counts as in Xu 2003 (default), 1+log, or binary")
    g.add_argument("--idf", choices=["xu", "smooth", "none"], default="xu",
                   help="idf: log(n/df) as in Xu 2003 (default), smoothed, or none")
    g.add_argument("--no-stem", action="store_true", help="turn Porter stemming off")
    g.add_argument("--keep-stop-words", action="store_true",
                   help="keep English stop words (scikit-learn's list, removed before stemming; "
                        "it holds a few words of content, such as fire and system, whose other "
                        "forms, fires and systems, stay)")
    g.add_argument("--token-pattern", type=_pattern, default=None, metavar="REGEX",
                   help="regular expression of a word, matched in the lower-cased text "
                        "(default: two or more letters, so words "
                        "with digits such as mp3 or covid19 are dropped; scikit-learn's "
                        "'(?u)\\b\\w\\w+\\b' keeps them, and numbers)")


#: What ``docnmf cluster --scheduler/--dask-workers`` runs when no ``--method`` is given: the
#: in-memory default (LCCF-NCW, with its nearest-neighbour graph) is not distributed; NMF-NCW,
#: the factorization LCCF-NCW starts from, is.
DASK_DEFAULT_METHOD = "nmf-ncw"


def _add_dask_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group(
        "Dask (nmf and nmf-ncw on a cluster; needs pip install 'docnmf[dask]')",
        "On Dask the result folder holds the assignments (also one file per partition), "
        "clusters, metrics, run.json and the model (for docnmf assign), but no "
        "memberships.npz or report: each needs the whole documents x clusters matrix in one "
        "process.")
    where = g.add_mutually_exclusive_group()
    where.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="run on the Dask cluster whose scheduler is at ADDRESS "
                            "(e.g. tcp://host:8786); its workers must see INPUT")
    where.add_argument("--dask-workers", type=_positive_int, default=None, metavar="N",
                       help="start a Dask cluster of N worker processes on this machine")
    g.add_argument("--files-per-partition", type=_positive_int, default=None, metavar="N",
                   help="text files per partition when INPUT is a folder of documents "
                        "(default 2000); CSV/JSONL files are one partition each")


#: Text files a partition of a folder holds on Dask when --files-per-partition is not given.
_FILES_PER_PARTITION = 2000

#: Restarts of ``cluster`` when --restarts is not given (each method's n_init).
_DEFAULT_RESTARTS = 10


def _add_method_options(p: argparse.ArgumentParser, *, dask: bool = False) -> None:
    from ._catalog import DEFAULT_METHOD, METHOD_NAMES

    g = p.add_argument_group("clustering")
    # None until the command resolves it: the Dask path's default is another method
    # METHOD: the 39 names filled the usage line and the option's own line
    g.add_argument("--method", choices=list(METHOD_NAMES), default=None, type=str.lower,
                   metavar="METHOD",
                   help=f"clustering method (default {DEFAULT_METHOD}"
                        + (f"; with --scheduler or --dask-workers, {DASK_DEFAULT_METHOD}"
                           if dask else "") + f"): {', '.join(METHOD_NAMES)}")
    g.add_argument("--seed", type=_seed, default=0, help="random seed (default 0)")
    g.add_argument("--restarts", type=_at_most(_MAX_RUNS), default=None,
                   help=f"restarts from random starts; the lowest objective is kept (default "
                        f"{_DEFAULT_RESTARTS}). The default starts of NMF (NNDSVDa, from an SVD "
                        "drawn from --seed) and of CF and LCCF (NMF's solution) are single "
                        "points and run once; --init random gives them random starts")
    g.add_argument("--max-iter", type=_positive_int, default=None,
                   help="iterations per restart (default: the method's own, e.g. 500 for NMF, "
                        "1000 for CF/LCCF)")
    g.add_argument("--tol", type=_finite, default=None,
                   help="stop a restart when the relative objective decrease falls below this "
                        "(default: the method's own, 1e-5 for NMF and CF/LCCF). The k-means "
                        "baselines (km, km-ncw, aa, nc, aa-poly2, nc-poly2, lsi-km, pca-km, lda-km, "
                        "ss-snc) take it "
                        "as scikit-learn's KMeans does, a bound on the centres' shift; ecc and "
                        "msrc stop when a round lowers the objective by tol times the squared "
                        "norm of the matrix or less")
    g.add_argument("-n", "--keywords", type=_positive_int, default=10,
                   help="keywords per cluster (default 10)")
    g.add_argument("--solver", choices=["mu", "hals"], default=None,
                   help="NMF solver (nmf, nmf-ncw): hals, accelerated coordinate descent "
                        "(default), or mu, the paper's multiplicative updates")
    g.add_argument("--init", choices=_INIT_CHOICES, default=None,
                   help="starts. NMF's (nmf, nmf-ncw): NNDSVD with zeros set to the mean "
                        "(nndsvda, default; one start, its randomized SVD drawn from --seed), "
                        "kept or set to "
                        "small random values; or random (the paper). CF/LCCF start from "
                        "NMF's solution, or random; ECC and MSRC from k-means++, or random")
    g.add_argument("--dtype", choices=["float64", "float32"], default=None,
                   help="precision of the factorization (the NMF, CF and LCCF methods; "
                        "float32 needs --solver hals; default float64)")
    _add_threads_option(g)


def _add_threads_option(g) -> None:
    g.add_argument("--threads", type=_positive_int, default=None,
                   help="BLAS threads, at most the cores this process may use (default: "
                        "every core)")


_FILES_EPILOG = (
    "Files: a CSV is read strictly (an unclosed quote or a row with more or fewer fields than "
    "the header is an error naming its line). The output folder is written whole: staged "
    "beside -o, then swapped in, so it never mixes two runs; a second run into the same folder "
    "at the same time is refused. CSV cells starting with = + - @ (not numbers) get a leading "
    "' so that spreadsheets do not run them as formulas.")


_RESUME_EPILOG = (
    "The output folder is published whole when the run ends (results.jsonl with the reports "
    "made from it). An interrupted run keeps its finished runs in .<folder>.partial beside it "
    "and the next run with the same options takes them up.")


class _Formatter(argparse.HelpFormatter):
    """argparse's help, its lines never broken at a hyphen: 'lccf-ncw-poly2' was printed as
    'lccf-' and 'ncw-poly2', '--k-range' as '--k-' and 'range'."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return textwrap.fill(" ".join(text.split()), width, initial_indent=indent,
                             subsequent_indent=indent, break_on_hyphens=False)


class _Parser(argparse.ArgumentParser):
    """argparse's parser with a usage mistake told in one line and where to read more, instead
    of the whole usage (twenty lines for 'cluster') above it; its commands' parsers are of this
    class too, and all of them format their help with :class:`_Formatter`."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str):
        choices = _CHOICE.search(message)
        if choices:                      # an unknown value: the nearest allowed ones first
            message += did_you_mean(choices["value"], _QUOTED.findall(choices["allowed"]))
        self.exit(2, f"{self.prog}: error: {message}\n(see '{self.prog} --help')\n")

    def subcommand(self, name: str) -> argparse.ArgumentParser:
        """The parser of the command ``name`` (this parser when it has none such)."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction) and name in action.choices:
                return action.choices[name]
        return self


_CHOICE = re.compile(r"invalid choice: '(?P<value>[^']*)' \(choose from (?P<allowed>.*)\)")
_QUOTED = re.compile(r"'([^']*)'")


def build_parser() -> argparse.ArgumentParser:
    from ._catalog import DEFAULT_METHOD, METHOD_NAMES, SUMMARIZERS
    from ._version import __version__

    parser = _Parser(
        prog="docnmf", description="Cluster document collections with non-negative matrix factorization.")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress messages")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("demo", help="cluster the embedded demo corpus and print a summary",
                       description="Cluster the demo corpus that comes with docnmf (80 short "
                                   "documents on five topics, labelled) with the default method, "
                                   "and print the clusters and how well they match the labels.")
    _add_method_options(p)
    p.add_argument("-o", "--output", type=_folder, default=None,
                   help="also write the result files to this folder")

    p = sub.add_parser("cluster", help="cluster a folder, CSV/JSONL file or named dataset",
                       description="INPUT is a folder of text files (one subfolder per label, or "
                                   "flat), a .csv/.tsv/.jsonl file, or a dataset name from "
                                   "'docnmf datasets'.", epilog=_FILES_EPILOG)
    p.add_argument("input", type=_named,
                   help="folder, CSV/JSONL file, text file (one document), or dataset name")
    p.add_argument("-k", "--clusters", type=_clusters_or_auto, required=True,
                   help="number of clusters, or 'auto' to choose it as 'docnmf choose-k' does "
                        "(over --k-range)")
    p.add_argument("--k-range", default=None,
                   help="with -k auto: the numbers of clusters to try (default 2-30)")
    p.add_argument("-o", "--output", type=_folder, default=None,
                   help="output folder (default: docnmf-out/<input name>)")
    _add_method_options(p, dask=True)
    g = p.add_argument_group("summaries")
    g.add_argument("--summaries", action="store_true",
                   help="also write summaries.csv: an extractive summary of each cluster")
    g.add_argument("--summary-length", default="665b",
                   help="length of each summary: bytes ('665b') or words ('100w'; default "
                        "665b)")
    _add_max_documents(g)
    g = p.add_argument_group("concept factorization (--method cf, cf-ncw, lccf, lccf-ncw)")
    g.add_argument("--neighbors", type=_positive_int, default=None,
                   help="p of the p-nearest-neighbour graph (default 5, as the paper)")
    g.add_argument("--lam", type=_finite, default=None,
                   help="graph weight lambda (default 0.01, in units of the data term; "
                        "with --lam-scale none it is the paper's lambda, 100 there)")
    g.add_argument("--lam-scale", choices=["data", "none"], default=None,
                   help="scale lambda by the data term (default) or use it as given")
    g.add_argument("--kernel", choices=["linear", "poly2"], default=None,
                   help="kernel: linear (default; K is never formed) or <x, y>^2")
    g.add_argument("--labels", choices=["argmax", "skmeans", "kmeans", "refine", "auto"],
                   default=None,
                   help="how labels are read from the document factor V: argmax (default), "
                        "spherical k-means on V (skmeans), k-means on V, refine (k-means on the "
                        "documents from the argmax clusters; NMF only), auto (CF/LCCF: k-means "
                        "when lambda > 0)")
    g = p.add_argument_group("documents as matrices (--method nma)")
    g.add_argument("--segments", type=_positive_int, default=None,
                   help="segments per document (default 1: whole documents)")
    g.add_argument("--segmenter", choices=SEGMENTER_NAMES, default=None,
                   help="how a document is cut into --segments: runs of sentences (default), "
                        "runs of words, or at topic shifts (c99: Choi 2000; texttiling: "
                        "Hearst 1997)")
    g.add_argument("--topics", type=_positive_int, default=None,
                   help="latent topics l1 = l2 of the factorization (default 3 k)")
    g.add_argument("--overlapping", action="store_true", default=None,
                   help="let a document join the clusters of its segments, writing "
                        "overlapping.csv; a document's one cluster is then the one most of its "
                        "segments are in, not its largest membership, so assignments.csv "
                        "changes too")
    g = p.add_argument_group("constraints (semi-supervised methods: ssnmf, ssnmf-ncw, "
                             "ssnmf-paper, ss-kk, ss-snc)")
    g.add_argument("--must-link", type=_named_path, default=None, metavar="CSV",
                   help="pairs of document ids that belong together (two columns, header optional)")
    g.add_argument("--cannot-link", type=_named_path, default=None, metavar="CSV",
                   help="pairs of document ids that belong apart")
    g.add_argument("--pairs-as-given", dest="closure", action="store_const", const=False,
                   default=None,
                   help="ssnmf-paper (its default, as the paper), ss-kk, ss-snc: apply only the "
                        "pairs given, not all those they imply (must-links through others, "
                        "cannot-links between must-linked groups), which can be many times more "
                        "and distort the similarity (ssnmf and ssnmf-ncw keep every must-link, "
                        "implied ones included)")
    _add_corpus_options(p)
    _add_text_options(p)
    _add_dask_options(p)

    _add_assign_parser(sub)

    sub.add_parser("datasets", help="list the named datasets and whether each was found")
    _add_report_parser(sub)
    _add_choose_k_parser(sub)

    p = sub.add_parser("summarize", help="extractive summary of a group of documents",
                       description="Print a summary of all documents in INPUT (a folder, "
                                   "CSV/JSONL file, dataset name, or one text file) on standard "
                                   "output; diagnostics go to standard error.")
    p.add_argument("input", type=_named,
                   help="folder, CSV/JSONL file, dataset name, or a .txt file")
    p.add_argument("--length", default="665b",
                   help="length limit: bytes ('665b', as DUC 2004; default) or words "
                        "('100w')")
    p.add_argument("--method", choices=list(SUMMARIZERS), default="nmf", type=str.lower,
                   help="sentence ranking (default nmf, the best NMF-family ranking on "
                        "DUC 2004; fsnmf: feature-subset NMF weights after the fit, "
                        "fsnmf-paper: Wang et al.'s alternating updates as printed)")
    p.add_argument("--fill", action="store_true",
                   help="fill the limit with the start of the next sentence, cut after its "
                        "last whole word that fits (within its first word when even that does "
                        "not fit: DUC evaluations cut summaries at the limit) (default: whole "
                        "sentences only)")
    p.add_argument("--seed", type=_seed, default=0, help="random seed (default 0)")
    p.add_argument("--per-cluster", action="store_true",
                   help="cluster the documents (-k clusters, --cluster-method) and print one "
                        "summary per cluster")
    p.add_argument("-k", "--clusters", type=int, default=None,
                   help="number of clusters for --per-cluster (given alone, implies it)")
    p.add_argument("--cluster-method", choices=list(METHOD_NAMES), default=None, type=str.lower,
                   metavar="METHOD",
                   help="clustering method for --per-cluster (default: as docnmf cluster's, "
                        f"{DEFAULT_METHOD}): {', '.join(METHOD_NAMES)}")
    _add_max_documents(p)
    _add_corpus_options(p)

    p = sub.add_parser("keywords", help="a collection's top keywords and each cluster's",
                       description="Print the top keywords of all documents in INPUT (a folder, "
                                   "CSV/JSONL file or dataset name): FS-NMF feature weights "
                                   "(Wang, Ding & Li 2010, eq. 2) on an NMF-NCW factorization, "
                                   "then each NMF-NCW cluster's size and keywords.")
    p.add_argument("input", type=_named,
                   help="folder, CSV/JSONL file, text file (one document), or dataset name")
    p.add_argument("-k", "--clusters", type=int, required=True, help="number of clusters")
    p.add_argument("-n", "--keywords", type=_positive_int, default=10,
                   help="keywords per line (default 10)")
    p.add_argument("--alpha", type=float, default=None,
                   help="no effect on what is printed: eq. 2's weights, for any exponent in "
                        "(0, 1), rank the terms by their residuals alone (kept so that scripts "
                        "giving it still run)")
    p.add_argument("--seed", type=_seed, default=0, help="random seed (default 0)")
    p.add_argument("--restarts", type=_at_most(_MAX_RUNS), default=None,
                   help="no effect: the NMF-NCW fit starts from NNDSVDa, a single point, "
                        "and runs once (kept so that scripts giving it still run)")
    _add_text_options(p)    # the words are read as cluster reads them (it had --min/max-df only)
    _add_corpus_options(p)

    p = sub.add_parser("reproduce", help="rerun a paper's clustering table and compare",
                       description="Run the evaluation protocol of a paper table (random k-class "
                                   "subsets, several methods) and write results.jsonl, report.md "
                                   "and, for the tables over k and the figures, plots (with "
                                   "the plot extra: pip install 'docnmf[plot]'). An "
                                   "interrupted run resumes where it stopped.",
                       epilog=_RESUME_EPILOG)
    p.add_argument("table", nargs="?", help="table name (see --list)")
    p.add_argument("--list", action="store_true",
                   help="list the tables and whether their data is found")
    _add_protocol_options(p, from_table=True)
    p.add_argument("-o", "--output", type=_folder, default=None,
                   help="output folder (default: docnmf-reproduce/<table>)")

    p = sub.add_parser("evaluate",
                       help="score methods on random k-class subsets of a labelled corpus",
                       description="Run the papers' protocol on any labelled corpus: for each k, "
                                   "cluster the documents of k randomly chosen classes with every "
                                   "method and report accuracy, NMI and purity (report.md, "
                                   "results.jsonl and a plot per weighting with the plot extra: "
                                   "pip install 'docnmf[plot]'). By default each "
                                   "subset is prepared and clustered as 'docnmf cluster' would "
                                   "(its text options, the methods' own defaults); --weighting "
                                   "xu-subset or cai-global and --as-published give the papers' "
                                   "settings.",
                       epilog=_RESUME_EPILOG)
    p.add_argument("input", type=_named, help="labelled folder, CSV/JSONL file, or dataset name")
    _add_protocol_options(p, from_table=False)
    p.add_argument("--as-published", action="store_true",
                   help="fit as the papers did (multiplicative updates from random starts) "
                        "instead of with the defaults of 'docnmf cluster'")
    p.add_argument("-o", "--output", type=_folder, default=None,
                   help="output folder (default: docnmf-evaluate/<input name>)")
    _add_corpus_options(p)
    _add_text_options(p)
    _add_benchmark_parser(sub)
    for command in sub.choices.values():    # -q after the command too; unset, the top one holds
        command.add_argument("-q", "--quiet", action="store_true", default=argparse.SUPPRESS,
                             help="no progress messages")
    return parser


def _add_max_documents(p) -> None:
    p.add_argument("--max-documents", type=int, default=100, metavar="N",
                   help="summarize at most N documents per summary: a cluster's N most "
                        "representative ones, or N drawn at random from the collection "
                        "(default 100; 0: all). The time grows with documents x sentences.")


def _add_assign_parser(sub) -> None:
    p = sub.add_parser(
        "assign", help="place new documents with a model saved by 'docnmf cluster'",
        description="Place the documents of INPUT (a folder, CSV/JSONL file, text file or dataset "
                    "name) in the clusters of a saved model, without refitting. MODEL is the "
                    "output folder "
                    "of 'docnmf cluster -o OUT' (or OUT/model, or a folder written by "
                    "docnmf.save). Writes assignments.csv in the layout of 'docnmf cluster' "
                    "(cluster -1 for a document with no word the model knows, also listed in "
                    "unassigned.csv), clusters.csv, memberships.npz, run.json, report.html "
                    "with its report_data.json, overlapping.csv for an overlapping NMA model, "
                    "and metrics.json when INPUT is labelled.")
    p.add_argument("model", type=_named_path,
                   help="model folder, or the output folder of 'cluster'")
    p.add_argument("input", type=_named,
                   help="folder, CSV/JSONL file, text file (one document), or dataset name")
    p.add_argument("-o", "--output", type=_folder, default=None,
                   help="output folder (default: docnmf-assign/<input name>)")
    p.add_argument("-n", "--keywords", type=_positive_int, default=10,
                   help="keywords per cluster (default 10)")
    _add_corpus_options(p)


def _add_report_parser(sub) -> None:
    p = sub.add_parser("report", help="rebuild report.html of a result folder",
                       description="Write OUTDIR/report.html, a self-contained page (works "
                                   "offline, prints) of the clusters, from the files 'docnmf "
                                   "cluster' wrote to OUTDIR.")
    p.add_argument("outdir", type=_named_path, help="a result folder written by docnmf cluster")


def _add_choose_k_parser(sub) -> None:
    p = sub.add_parser("choose-k", help="suggest the number of clusters, without labels",
                       description="Fit NMF-NCW for each k of --k-range on a sample of the "
                                   "documents and score each k: the cophenetic correlation of "
                                   "the restarts' consensus (Brunet et al. 2004), the stability "
                                   "of the restarts' topic vectors (NMFk) and the documents' "
                                   "silhouette. Writes choose_k.csv, choose_k.json and "
                                   "choose_k.png (the png with the plot extra: pip install "
                                   "'docnmf[plot]') and prints the table and the chosen k: the "
                                   "largest whose topics stay stable. A suggestion to check: on "
                                   "25 labelled corpora it fell within 30% of the number of "
                                   "classes on 5 (reports/choose-k in the source tree).")
    p.add_argument("input", type=_named,
                   help="folder, CSV/JSONL file, text file (one document), or dataset name")
    _add_selection_options(p, "2-30")
    p.add_argument("--seed", type=_seed, default=0, help="random seed (default 0)")
    _add_threads_option(p)
    p.add_argument("-o", "--output", type=_folder, default=None,
                   help="output folder (default: docnmf-choose-k/<input name>)")
    _add_corpus_options(p)
    _add_text_options(p)


def _add_selection_options(p: argparse.ArgumentParser, k_range: str | None) -> None:
    g = p.add_argument_group("choosing k")
    if k_range is not None:
        g.add_argument("--k-range", default=k_range,
                       help=f"numbers of clusters to try, e.g. 2-30 or 2,4,8 (default {k_range})")
    # refused before the corpus is read and weighted, not after
    g.add_argument("--restarts", "--runs", dest="runs", default=8,
                   type=_at_most(_MAX_RUNS, (2, "the criteria compare restarts")),
                   metavar="N",
                   help="random restarts per k for the consensus and stability (default 8)")
    # select_k refuses fewer than 4 too, but only once the corpus is read and weighted
    g.add_argument("--max-documents", default=1000,
                   type=_at_least(4, "k = 2 on at least twice as many documents"),
                   help="documents sampled for the criteria (default 1000)")


def _add_benchmark_parser(sub) -> None:
    from ._catalog import DEFAULT_ENTRIES, PEERS, ROLES, SUITE_ROLES

    p = sub.add_parser(
        "benchmark", help="the evaluation suite: docnmf and scikit-learn on every labelled corpus",
        description="Cluster every corpus of the evaluation suite (k = its number of classes) "
                    "with docnmf's methods and scikit-learn peers, several seeds each, and write "
                    "results.jsonl, report.md (both halves of the tuning / held-back split and "
                    "the whole suite) and accuracy.png (with the plot extra: pip install "
                    "'docnmf[plot]'). An interrupted run resumes where it stopped.")
    p.add_argument("--list", action="store_true", help="list the corpora and their half")
    confirm_roles = [r for r in ROLES if r not in SUITE_ROLES]
    p.add_argument("--role", choices=[*SUITE_ROLES, "all", *confirm_roles], default="all",
                   help="which half of the suite (default all: both); confirm, confirm2: the "
                        "confirmation sets declared after the defaults were fixed")
    p.add_argument("--corpora", default=None,
                   help="comma-separated corpus names of --role (default: every one; a "
                        "confirmation corpus is named with its --role)")
    p.add_argument("--methods", nargs="+", default=None, metavar="ENTRY",
                   help="docnmf methods, 'default' (what 'docnmf cluster' runs), "
                        "'method:option=value,...' variants and peers "
                        f"({', '.join(PEERS)}); default: {' '.join(DEFAULT_ENTRIES)}")
    p.add_argument("--runs", type=_positive_int, default=3, help="seeds per corpus (default 3)")
    p.add_argument("--seed", type=_seed, default=0, help="base seed (default 0)")
    p.add_argument("--jobs", type=_positive_int, default=None,
                   help="worker processes (default: the number of CPUs)")
    p.add_argument("-o", "--output", type=_folder, default=Path("docnmf-benchmark"),
                   help="output folder (default docnmf-benchmark)")


#: Defaults of ``evaluate``; ``reproduce`` takes them from the table (None here).
_EVALUATE_DEFAULTS = {"methods": "nmf,nmf-ncw", "k_range": None, "runs": 10, "restarts": 10,
                      "seed": 0, "weighting": "cluster"}


def _add_protocol_options(p: argparse.ArgumentParser, from_table: bool) -> None:
    from ._catalog import WEIGHTINGS

    def default(name: str, text: str):
        value = None if from_table else _EVALUATE_DEFAULTS[name]
        return value, f"{text} (default: {'from the table' if from_table else value})"

    g = p.add_argument_group("protocol")
    d, h = default("methods", "comma-separated method names")
    g.add_argument("--methods", default=d, help=h)
    d, h = default("k_range", "cluster numbers, e.g. 2-10 or 2,4,6")
    if not from_table:
        h = "cluster numbers, e.g. 2-10 or 2,4,6 (default: 2 to min(10, number of classes))"
    g.add_argument("--k-range", default=d, help=h)
    d, h = default("runs", "random class subsets per k")
    g.add_argument("--runs", type=_at_most(_MAX_RUNS), default=d, help=h)
    d, h = default("restarts", "restarts per method")
    g.add_argument("--restarts", type=_at_most(_MAX_RUNS), default=d, help=h)
    d, h = default("seed", "seed of the class choice and of the methods")
    g.add_argument("--seed", type=_seed, default=d, help=h)
    d, h = default("weighting", "comma-separated weightings: " + ", ".join(WEIGHTINGS))
    g.add_argument("--weighting", default=d, help=h)
    g.add_argument("--jobs", type=_positive_int, default=None,
                   help="worker processes (default: the number of CPUs)")


def _load_input(args):
    from .corpus import read_corpus
    from .corpus.readers import TABLE_SUFFIXES

    path = Path(args.input)
    kinds = (*TABLE_SUFFIXES, ".json", ".mat")
    if path.is_file() and path.suffix.lower() not in kinds:
        # one file of no table's kind (.txt, .md, none, as 20 Newsgroups' files) is a corpus of
        # one document; a binary one is refused
        from .corpus.readers import read_text_file

        bare = path.name.rstrip(" .")
        if bare != path.name and Path(bare).suffix.lower() in kinds:
            # "posts.csv " was read as one document, then "-k 2 is more than the 1 document"
            logger.warning("%r ends in %r, not %s: it is read as one text document, not as a "
                           "table (rename it without the trailing characters)", str(path),
                           path.name[len(bare) - len(Path(bare).suffix):], Path(bare).suffix)
        corpus = read_text_file(path, encoding=args.encoding)
        _warn_tab_table(path, corpus.texts[0])
        options = {"encoding": args.encoding} if args.encoding != "utf-8" else {}
    else:
        options = _reader_options(args)
        corpus = read_corpus(args.input, **options)
    # what run.json needs to read the input again: where it is, wherever the command ran, and
    # the columns and --encoding
    if path.exists():
        corpus.metadata["path"] = os.path.abspath(path)
    corpus.metadata["reader_options"] = options
    return corpus


def _warn_tab_table(path: Path, text: str) -> None:
    """Warn when one text file read as one document looks like a table of tab-separated fields
    (Excel's "Unicode Text" and "Text (Tab delimited)" are .txt files): -k then exceeded its one
    document, and summarize summarized the table."""
    lines = [line for line in text.splitlines() if line.strip()]
    tabs = {line.count("\t") for line in lines}
    # (each line's first field filled: paragraphs that each begin with a tab are prose)
    if len(lines) >= 3 and len(tabs) == 1 and min(tabs) >= 1 \
            and all(line.split("\t", 1)[0].strip() for line in lines):
        logger.warning("%s looks like a table (%d lines of %d tab-separated fields, the first %r) "
                       "but is read as one document, as a %s file is: to read its rows as "
                       "documents, name it .tsv", path, len(lines), min(tabs) + 1,
                       lines[0][:60], path.suffix or "suffixless")


def _reader_options(args) -> dict:
    """The options of the reader of ``args.input``: its columns (:func:`_table_options`) and
    the --encoding given for text files and tables; for another input, a warning if it was."""
    options = _table_options(args)
    if args.encoding == "utf-8":
        return options      # the readers' default
    path = Path(args.input)
    if path.is_dir() or (path.is_file() and path.suffix.lower() != ".mat"):
        options["encoding"] = args.encoding
    else:       # a dataset's encoding, or a .mat file's, is its own
        logger.warning("--encoding: read for text files and tables; %s is neither", args.input)
    return options


def _table_options(args) -> dict:
    """The column options for a CSV/JSONL input; for another input, a warning if any was given."""
    from .corpus.readers import TABLE_SUFFIXES, table_files

    given = {"text_column": args.text_column, "label_column": args.label_column,
             "id_column": args.id_column}
    path = Path(args.input)
    if path.suffix.lower() in (*TABLE_SUFFIXES, ".json") or (path.is_dir() and table_files(path)):
        # an empty --text-column (an unset variable) is a column of no name, as an empty
        # --label-column or --id-column is: it read the column "text" instead
        return {**given, "text_column": "text" if args.text_column is None
                else args.text_column}
    named = [f"--{name.replace('_', '-')}" for name, value in given.items() if value is not None]
    if named:
        logger.warning("%s: read for CSV/JSONL files (or a folder of them) only; %s is not "
                       "one", ", ".join(named), args.input)
    return {}


#: The text-pipeline options that shape the vocabulary, with their defaults: a count matrix's
#: terms were made upstream, so only the weighting (--tf, --idf) applies to one.
_VOCABULARY_OPTIONS = {"min_df": ("--min-df", 2), "max_df": ("--max-df", 0.95),
                       "max_features": ("--max-features", None), "no_stem": ("--no-stem", False),
                       "keep_stop_words": ("--keep-stop-words", False),
                       "token_pattern": ("--token-pattern", None)}


def _vectorizer_params(args, corpus=None) -> dict:
    """The text options; for a ``corpus`` of counts, its weighting only (a usage error names
    any vocabulary option given for it)."""
    if corpus is not None and corpus.texts is None:
        given = [flag for dest, (flag, default) in _VOCABULARY_OPTIONS.items()
                 if getattr(args, dest) != default]
        if given:
            raise UsageError(f"{', '.join(given)}: for texts; {args.input} is a count matrix, "
                             "whose terms were made upstream (--tf and --idf apply)")
        return {"tf": args.tf, "idf": args.idf}
    if isinstance(args.min_df, int) and isinstance(args.max_df, int) and args.max_df < args.min_df:
        raise UsageError(f"--max-df {args.max_df} (documents) is below --min-df {args.min_df}: "
                         "no term would be kept")
    if corpus is not None:
        _check_document_bounds(args, len(corpus))
    return {"min_df": args.min_df, "max_df": args.max_df, "max_features": args.max_features,
            "tf": args.tf, "idf": args.idf, "stem": not args.no_stem,
            "stop_words": None if args.keep_stop_words else "english",
            **({"token_pattern": args.token_pattern} if args.token_pattern else {})}


def _check_document_bounds(args, n_docs: int) -> None:
    """--min-df and --max-df as the vectorizer reads them for ``n_docs`` documents, refused
    in the options' own names (it said "max_df=0.95 ... is below min_df=500", a default the
    user never set, in Python's names, after a traceback in choose-k)."""
    from .text.vectorize import document_count_bounds

    try:
        document_count_bounds(args.min_df, args.max_df, args.max_features, n_docs)
    except ValueError as exc:
        said = str(exc).replace("max_df=", "--max-df ").replace("min_df=", "--min-df ")
        if args.max_df == _VOCABULARY_OPTIONS["max_df"][1]:
            said = said.replace(f"--max-df {args.max_df} (", f"--max-df {args.max_df}, the "
                                f"default (", 1)
        raise UsageError(said) from None


#: NMA's segmenters (``docnmf.text.segment.SEGMENTERS``), named without importing them.
SEGMENTER_NAMES = ("sentences", "words", "c99", "texttiling")

#: The estimator options the command line sets: parameter name -> (argparse dest, flag).
_OPTION_FLAGS = {
    "n_init": ("restarts", "--restarts"), "max_iter": ("max_iter", "--max-iter"),
    "tol": ("tol", "--tol"), "solver": ("solver", "--solver"), "init": ("init", "--init"),
    "dtype": ("dtype", "--dtype"), "n_neighbors": ("neighbors", "--neighbors"),
    "lam": ("lam", "--lam"), "lam_scale": ("lam_scale", "--lam-scale"),
    "kernel": ("kernel", "--kernel"), "labels": ("labels", "--labels"),
    "n_segments": ("segments", "--segments"), "segmenter": ("segmenter", "--segmenter"),
    "n_topics": ("topics", "--topics"),
    "overlapping": ("overlapping", "--overlapping"),
    "closure": ("closure", "--pairs-as-given"),
}


def _estimator_params(args) -> dict:
    """The options given on the command line, checked against what ``--method`` takes.

    An option left at its default (None) is not passed, so each method keeps
    its own default; the restarts always are (every method has them), 10 unless given.
    """
    from .methods import MethodOptionError, method_spec

    given = {name: getattr(args, dest, None) for name, (dest, _) in _OPTION_FLAGS.items()}
    params = {name: value for name, value in given.items() if value is not None}
    params.setdefault("n_init", _DEFAULT_RESTARTS)
    spec = method_spec(args.method)
    try:
        spec.check_options(params)
    except MethodOptionError as exc:
        flags = [_OPTION_FLAGS[name][1] for name in exc.options]
        why = f" ({exc})" if set(exc.options) <= set(spec.fixed) else ""
        if exc.options == ["closure"] and why:
            why = " (its repair keeps every must-link, the implied ones included)"
        users = ", ".join(m.name for m in _methods_taking(exc.options))
        named = flags[0] if len(flags) == 1 else ", ".join(flags[:-1]) + " and " + flags[-1]
        verb, pronoun = ("does", "it") if len(flags) == 1 else ("do", "them")
        raise UsageError(f"{named} {verb} not apply to {args.method}{why}"
                         + (f"; methods that take {pronoun}: {users}" if users else "")) from None
    inits = getattr(spec.estimator, "INITS", ())
    if "init" in params and params["init"] not in inits:
        taken = [v for v in _INIT_CHOICES if v in inits]
        users = ", ".join(m.name for m in _methods_taking(["init"])
                          if params["init"] in getattr(m.estimator, "INITS", ()))
        raise UsageError(f"--init {params['init']} does not apply to {args.method} "
                         f"(it takes {' or '.join(taken)}); methods that take it: {users}")
    rules = getattr(spec.estimator, "LABEL_RULES", None)
    if "labels" in params and rules is not None and params["labels"] not in rules:
        raise UsageError(f"--labels {params['labels']} does not apply to {args.method} "
                         f"(its rules: {', '.join(rules)})")
    if "solver" in params and _other_solvers(spec):
        users = ", ".join(m.name for m in _methods_taking(["solver"]))
        raise UsageError(f"--solver does not apply to {args.method} (its own solver option picks "
                         f"among {', '.join(spec.estimator.SOLVERS)}); methods that take it: "
                         f"{users}")
    if params.get("dtype") == "float32" and params.get("solver") == "mu":
        raise UsageError("--dtype float32 needs --solver hals (mu runs in float64 only)")
    if "segmenter" in params and params.get("n_segments", 1) == 1:
        # it was recorded in run.json and changed nothing
        logger.warning("--segmenter is read with --segments above 1 only: each document is one "
                       "segment")
    if getattr(args, "tf", "raw") != "raw" and spec.input == "counts" \
            and getattr(args, "clusters", None) != "auto":
        # as run.json recorded it, it changed no cluster (consensus, plsi, lda, ssnmf). Not
        # said of --idf, which decides which documents have a weight at all (a term in every
        # one weighs 0 under xu), nor under -k auto, whose search reads the weights
        logger.warning("--tf %s does not change what %s clusters: it reads the term counts%s",
                       args.tf, args.method, " and weighs them its own way"
                       if args.method in ("consensus", "ssnmf") else "")
    if params.get("lam_scale") == "none" and "lam" not in params and "lam" not in spec.preset:
        # the default lam then weighed the graph next to nothing, without a word
        logger.warning("with --lam-scale none, --lam is the paper's lambda as is, and its default "
                       "%g (in units of the data term) weighs the graph next to nothing: give "
                       "--lam (the paper's is 100)", spec.parameters()["lam"])
    return {**params, "verbose": 1}


def _fallback(args) -> str | None:
    """The method that replaces a degenerate result: only the default's, never a --method's."""
    from .methods import DEFAULT_FALLBACK

    return None if getattr(args, "method_given", True) else DEFAULT_FALLBACK


def _note_unused_restarts(model, method: str, args) -> None:
    """Warn when ``--restarts N`` was given but the fit ran once: a single start."""
    asked = getattr(args, "restarts", None)
    objectives = getattr(model, "restart_objectives_", None)
    ran = 0 if objectives is None else len(objectives)
    start = getattr(model, "start_restart_objectives_", None)
    if asked is not None and asked > 1 and ran == 1 and (start is None or len(start) == 1):
        from .methods import method_spec

        takes_init = "init" in method_spec(method).parameters()
        logger.warning("--restarts %d had no effect: %s starts from a single point "
                       "(NMF's NNDSVDa start, or NMF's solution) and ran once%s", asked,
                       method, f"; --init random starts it {asked} times from random "
                               "points" if takes_init else "")


def _methods_taking(options) -> list:
    """The registered methods that take every one of ``options``."""
    from .methods import METHODS

    return [m for m in METHODS.values() if set(options) <= set(m.parameters())
            and not ("solver" in options and _other_solvers(m))]


def _other_solvers(spec) -> bool:
    """Whether ``spec``'s ``solver`` is another option than --solver's (FS-NMF's, which picks
    between its two update schemes, not between NMF's mu and hals)."""
    return "hals" not in getattr(spec.estimator, "SOLVERS", ("hals",))


#: What each semi-supervised method is without pairs (said when none are given: "its
#: unconstrained form" named none, and SS-KK's is not kernel-km).
_UNCONSTRAINED = {
    "ssnmf": "--method consensus does",
    "ssnmf-ncw": "--method nmf-ncw --labels skmeans does",
    "ssnmf-paper": "the paper's NMF of the document similarity, A ~ G S G^T, with A unchanged "
                   "(not --method nmf)",
    "ss-kk": "kernel k-means on its Gaussian kernel from its own starts (not --method "
             "kernel-km, whose kernel and starts differ)",
    "ss-snc": "--method nc does",
}


def _constraint_pairs(corpus, args) -> dict:
    """``must_link`` / ``cannot_link`` index pairs read from the files given on the command line."""
    import numpy as np

    from .constraints import read_constraint_pairs
    from .methods import METHODS

    files = {"must_link": getattr(args, "must_link", None),
             "cannot_link": getattr(args, "cannot_link", None)}
    if not any(files.values()):
        if METHODS[args.method].constraints:
            logger.warning("%s without --must-link or --cannot-link: no pair to follow, so it "
                           "clusters as %s", args.method, _UNCONSTRAINED.get(
                               args.method, "its unconstrained form would"))
        return {}
    if not METHODS[args.method].constraints:
        supported = ", ".join(m for m, spec in METHODS.items() if spec.constraints)
        raise UsageError(f"--must-link/--cannot-link need a semi-supervised method ({supported}), "
                         f"not {args.method}")
    out = {}
    for key, path in files.items():
        if path is not None:
            if path.is_dir():
                raise UsageError(f"{path} is a folder, not a constraint file (a CSV of pairs)")
            if not path.is_file():
                # as the inputs are said (read_corpus): `--must-link <(...)` is a pipe
                if path.exists():
                    raise UsageError(f"{path} is neither a file nor a folder (a pipe, socket or "
                                     "device); save the pairs to a file first")
                if str(path) == "-":
                    raise UsageError("'-': docnmf does not read standard input; save the pairs "
                                     "to a file first")
                raise UsageError(f"no such constraint file: {path}")
            out[key] = pairs = read_constraint_pairs(path, corpus.ids)
            different = len(np.unique(np.sort(pairs, axis=1), axis=0))
            logger.info("read %d %s pairs from %s%s", len(pairs), key.replace("_", "-"), path,
                        f" ({different} different)" if different < len(pairs) else "")
    # cluster_corpus checks them (self-pairs, contradictions; named by id) before any work
    return out


def _run(corpus, k: int, args, vectorizer_params: dict, outdir: Path | None,
         selection=None, checked: tuple[dict, dict] | None = None) -> int:
    """``checked``: the estimator's options and the constraint pairs, when read already (before
    a search for k, so that a bad option or pair file is said before it, not after)."""
    from .pipeline import cluster_corpus, format_summary

    if len(corpus) == 0:
        raise UsageError("the corpus has no documents")
    if k < 2:
        raise UsageError(f"-k must be at least 2, got {k}")
    if k > len(corpus):
        from .diagnostics import documents_phrase

        raise UsageError(f"-k {k} is more than the {documents_phrase(len(corpus))}")
    estimator_params, fit_params = checked or (_estimator_params(args),
                                               _constraint_pairs(corpus, args))
    if getattr(args, "summaries", False):
        _check_summary_options(corpus, args)
    else:
        _warn_summary_options_unread(args)
    files = {key: getattr(args, key, None) for key in ("must_link", "cannot_link")}
    paths = []
    # the output folder is checked, locked and staged before the fit, and published after it
    with _output_folder(outdir, args) as staging:
        logger.info("clustering %d documents into %d clusters with %s",
                    len(corpus), k, args.method)
        try:
            run = cluster_corpus(corpus, k, args.method, random_state=args.seed,
                                 estimator_params=estimator_params, fit_params=fit_params,
                                 constraint_files={k: v for k, v in files.items()
                                                   if v is not None},
                                 vectorizer_params=vectorizer_params, n_keywords=args.keywords,
                                 fallback=_fallback(args))
        except ValueError as exc:
            # the estimators' parameter and input checks (ConstraintError, EmptyVocabularyError
            # and CorpusError are ValueErrors too, reported by main)
            if isinstance(exc, _REPORTED_BY_MAIN()):
                raise
            raise UsageError(f"{args.method}: {exc}") from None
        _note_unused_restarts(run.model, run.method, args)
        if selection is not None:
            run.params["k_selection"] = {"k": selection.k, "reason": selection.reason,
                                         "chosen_by_criterion": selection.chosen,
                                         "k_values": selection.k_values}
        summaries = _cluster_summaries(run, args) if getattr(args, "summaries", False) else None
        if outdir is not None:
            extra = []
            if summaries is not None:
                from .io import write_csv

                extra.append(lambda out: [write_csv(
                    out / "summaries.csv", ["cluster", "size", "summary"],
                    ([c, int(run.sizes[c]), text] for c, text in enumerate(summaries)))])
            if selection is not None:
                from .selection import write_selection

                extra.append(lambda out: write_selection(selection, out))
            paths = _write(run, outdir, staging, extra)
    # printed once the folder is published: a reader that stops early (`| head`) loses nothing
    if selection is not None:
        print(_format_selection(selection) + "\n")
    print(format_summary(run))
    if paths:
        print(f"\nwrote {', '.join(str(p) for p in paths)}")
    if outdir is not None and run.saved_model is None:
        from .pipeline import why_no_model

        logger.warning("no model saved: %s", why_no_model(run))
    return 0


def _warn_summary_options_unread(args) -> None:
    """Say that --summary-length and --max-documents, given without --summaries, do nothing."""
    if getattr(args, "summary_length", "665b") != "665b" or \
            getattr(args, "max_documents", 100) != 100:
        logger.warning("--summary-length and --max-documents are read with --summaries only; "
                       "no summaries are written")


def _check_summary_options(corpus, args) -> None:
    """Refuse --summaries options that cannot work, before the fit rather than after it."""
    from .summarize.rouge import parse_length

    if corpus.texts is None:
        raise UsageError("--summaries needs texts; this corpus is a count matrix")
    try:
        parse_length(args.summary_length)
    except ValueError as exc:
        raise UsageError(f"--summary-length: {exc}") from None


def _cluster_summaries(run, args) -> list[str]:
    from .summarize.api import summarize_clusters

    logger.info("summarizing each of the %d clusters", run.n_clusters)
    summaries = summarize_clusters(run.corpus.texts, run.labels, run.memberships,
                                   run.n_clusters, length=args.summary_length,
                                   max_documents=args.max_documents, random_state=args.seed,
                                   policy="skip")
    empty = sum(1 for c, text in enumerate(summaries) if not text and run.sizes[c])
    if empty:
        logger.warning("%d of %d clusters got an empty summary: none of their sentences fits "
                       "within --summary-length %s; give a longer one", empty, run.n_clusters,
                       args.summary_length)
    return summaries


class _Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP (``kill``, ``timeout``, a closed terminal), raised where Python runs
    next as Ctrl-C's KeyboardInterrupt is, so the run stops the same clean way: no staging
    folder or lock left behind, the finished part of a resumable run kept."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


#: The signals that stop a run as Ctrl-C does (where the platform has them).
_STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                      if hasattr(signal, name))


def _raise_stopped(signum, frame):
    raise _Stopped(signum)


def _held_signals() -> list[int]:
    """Ctrl-C and the stop signals this process acts on (not those ignored, e.g. under nohup)."""
    held = [] if signal.getsignal(signal.SIGINT) is signal.SIG_IGN else [signal.SIGINT]
    return held + [s for s in _STOP_SIGNALS if signal.getsignal(s) is _raise_stopped]


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold Ctrl-C (and SIGTERM/SIGHUP) while result files and plots are written, then act on it.

    An interrupt that lands inside matplotlib (an import, a garbage-collection
    callback) comes back wrapped in another error or is printed and dropped;
    held here, it is raised as KeyboardInterrupt once the writing is done (seconds on a
    large corpus: the report of 150,000 documents takes ten). The first is acknowledged on
    standard error; a second one stops at once. Outside the main thread, or where Ctrl-C is
    ignored, nothing changes.
    """
    import threading

    held = _held_signals() if threading.current_thread() is threading.main_thread() else []
    if not held:
        yield                           # nothing to hold, or Ctrl-C ignored already
        return
    received = []

    def restore():
        for s, handler in previous.items():
            signal.signal(s, handler)

    def stop(signum):
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise _Stopped(signum)

    def on_signal(signum, frame):
        received.append(signum)
        if len(received) == 1:      # os.write: logging may hold a lock the handler interrupted
            os.write(2, b"docnmf: stopping once the files being written are done; they are "
                        b"then discarded and the folder keeps what it held (again to stop now)"
                        b"\n")
            return
        restore()
        stop(signum)

    previous = {s: signal.signal(s, on_signal) for s in held}
    try:
        yield
    finally:
        restore()
    if received:
        stop(signal.SIGINT if signal.SIGINT in received else received[0])


def _write(run, outdir: Path, staging: Path, extra=()) -> list[Path]:
    """Write the result folder of ``run`` into ``staging``, the staging folder of the
    enclosing :func:`_output_folder` of ``outdir``; each of ``extra``, ``write(folder) ->
    paths``, adds its files to it. Returns the paths as they will be once published."""
    from .model import ModelSaveError
    from .pipeline import write_run

    logger.info("writing the results")     # seconds on a large corpus (the report's map)
    try:
        with _interrupts_held():
            # the extra files first: the report, written last, shows them (choose_k.json)
            added = [Path(outdir) / Path(p).relative_to(staging)
                     for write in extra for p in write(staging)]
            paths = write_run(run, outdir) + added    # joins the enclosing staging folder
    except OSError as exc:
        raise UsageError(f"cannot write to {outdir}: {exc.strerror or exc}") from None
    except ModelSaveError as exc:
        raise UsageError(f"cannot save the model: {exc}") from None
    return paths


def _cmd_assign(args) -> int:
    from .diagnostics import documents_phrase
    from .model import ClusteringModel, ModelFormatError, load
    from .pipeline import assign_corpus, format_summary

    try:
        model = load(args.model)
    except ModelFormatError as exc:
        raise UsageError(str(exc)) from None
    if not isinstance(model, ClusteringModel):
        raise UsageError(f"{args.model} holds an estimator saved without its vectorizer; "
                         "'docnmf assign' needs a model that reads texts (docnmf.save of a "
                         "ClusteringModel, or the output folder of 'docnmf cluster')")
    corpus = _load_input(args)
    if len(corpus) == 0:
        raise UsageError("the corpus has no documents")
    logger.info("placing %s in the %d clusters of the %s model %s", documents_phrase(len(corpus)),
                model.n_clusters, model.method or "saved", args.model)
    outdir = args.output or _default_output("docnmf-assign", corpus.metadata.get("name")
                                            or args.input, corpus.metadata.get("source"))
    with _output_folder(outdir, args) as staging:
        with _advice_for("assign"):
            run = assign_corpus(model, corpus, n_keywords=args.keywords)
        paths = _write(run, outdir, staging)
    print(format_summary(run))
    print(f"\nwrote {', '.join(str(p) for p in paths)}")
    return 0


def _REPORTED_BY_MAIN() -> tuple[type, ...]:
    from .constraints import ConstraintError
    from .corpus import CorpusError
    from .text.vectorize import EmptyVocabularyError

    return (ConstraintError, CorpusError, EmptyVocabularyError)


#: The options naming what a command reads, with how an error calls each.
_READ_OPTIONS = {"input": "the input", "model": "the model folder",
                 "must_link": "the must-link file", "cannot_link": "the cannot-link file"}


#: The commands that write a result folder (-o) through OutputFolder, each checked before its
#: work and its folder's lock held to its end: a folder that cannot be written, or one a run
#: is writing, fails at once, not after the input is read (seconds on 20 Newsgroups), and no
#: other run can take the lock meanwhile. The checks are made again when the folder is written.
_WRITES_FOLDER = ("demo", "cluster", "assign", "choose-k", "evaluate", "reproduce")


@contextmanager
def _output_held(args) -> Iterator[None]:
    """Check the command's -o before its work and hold the folder's lock to its end."""
    from .io import OutputFolderError, check_output_folder, run_lock

    outdir = getattr(args, "output", None)
    if outdir is None or args.command not in _WRITES_FOLDER or getattr(args, "list", False):
        yield
        return
    _resolved_output(outdir)
    _check_not_read(outdir, args)
    with ExitStack() as held:
        try:
            check_output_folder(outdir, "cluster" if args.command == "demo" else args.command)
            held.enter_context(run_lock(outdir))
        except OutputFolderError as exc:
            raise UsageError(str(exc)) from None
        except OSError as exc:      # the lock file beside the folder cannot be made
            raise UsageError(f"cannot write to {outdir}: {exc.strerror or exc}") from None
        yield


def _resolved_output(outdir: Path) -> Path:
    """``outdir`` made absolute, symbolic links followed; a usage error for a loop of links
    (pathlib raised RuntimeError: "Symlink loop from ...")."""
    try:
        return Path(outdir).resolve()
    except (RuntimeError, OSError):
        raise UsageError(f"-o {outdir}: its path runs into a loop of symbolic links; give "
                         "another folder") from None


def _check_not_read(outdir: Path, args) -> None:
    """A usage error when publishing ``outdir`` would replace what the command reads: the
    folder itself, or a folder holding it (a result folder is replaced whole)."""
    target = Path(outdir).resolve()
    for option, what in _READ_OPTIONS.items():
        given = getattr(args, option, None)
        if given is None or not Path(given).exists():
            continue        # a named dataset, or a missing path the reader will name
        read = Path(given).resolve()
        if read == target or target in read.parents:
            raise UsageError(f"-o {outdir} would replace {what} being read ({given}): give "
                             "another output folder")


def _default_output(folder: str, name: str, source: str | None) -> Path:
    """``folder/name``, where a run writes without -o; a warning when it holds the results of
    another input (one of the same name elsewhere), which the run replaces."""
    import json

    out = Path(folder) / _safe_name(name)
    try:
        before = json.loads((out / "run.json").read_text(encoding="utf-8"))["corpus"]["source"]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return out
    if isinstance(before, str) and source and \
            os.path.realpath(before) != os.path.realpath(source):
        logger.warning("%s holds the results of %s, which this run replaces with those of %s; "
                       "give -o to keep both", out, before, source)
    return out


@contextmanager
def _output_folder(outdir: Path | None, args=None, resume: Sequence[str] = ()):
    """The staging folder of ``outdir`` (see :class:`docnmf.io.OutputFolder`); None for no output.

    Problems with the folder (a file, someone else's files, another run
    writing it, no permission, a full disk, what the command ``args`` read)
    become one-line usage errors.
    """
    from .io import OutputFolder, OutputFolderError

    if outdir is None:
        yield None
        return
    if args is not None:
        _check_not_read(outdir, args)
    # demo writes what cluster writes; each other command its own kind of folder
    command = getattr(args, "command", None)
    try:
        with OutputFolder(outdir, resume=resume,
                          command="cluster" if command == "demo" else command) as staging:
            if not resume and Path(outdir).is_dir() and any(Path(outdir).iterdir()):
                # an earlier run's folder, which OutputFolder has checked is one: say so
                logger.info("%s holds an earlier run's results: they are replaced once this "
                            "run's are written", outdir)
            yield staging
    except OutputFolderError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot write to {outdir}: {exc.strerror or exc}") from None


def _cmd_demo(args) -> int:
    from .corpus.demo import load_demo
    from .methods import DEFAULT_METHOD

    args.method_given = args.method is not None
    args.method = args.method or DEFAULT_METHOD
    corpus = load_demo()
    return _run(corpus, corpus.n_classes, args, {"min_df": 2, "max_df": 0.95}, args.output)


def _cmd_cluster(args) -> int:
    from .methods import DEFAULT_METHOD

    if args.scheduler is not None or args.dask_workers:
        args.method = args.method or DASK_DEFAULT_METHOD
        return _cmd_cluster_dask(args)
    args.method_given = args.method is not None
    args.method = args.method or DEFAULT_METHOD
    logger.info("reading %s", args.input)
    if args.k_range is not None and args.clusters != "auto":
        logger.warning("--k-range is read with -k auto only; -k %s is used", args.clusters)
    if getattr(args, "files_per_partition", None) is not None:
        logger.warning("--files-per-partition is read with --scheduler or --dask-workers only")
    # an empty --k-range is refused, as choose-k refuses it, not read as the default
    k_values = (_k_range("2-30" if args.k_range is None else args.k_range)
                if args.clusters == "auto" else None)
    corpus = _load_input(args)
    outdir = args.output or _default_output("docnmf-out", corpus.metadata.get("name")
                                            or args.input, corpus.metadata.get("source"))
    selection, k, checked = None, args.clusters, None
    if k == "auto":
        checked = (_estimator_params(args), _constraint_pairs(corpus, args))
        if checked[1]:
            from .constraints import Constraints

            # as cluster_corpus checks them (self-pairs, contradictions; named by id), before
            # the search rather than after it
            Constraints(len(corpus), checked[1].get("must_link"), checked[1].get("cannot_link"),
                        names=corpus.ids)
            logger.info("the search for k fits without the pairs; they apply to the fit at the "
                        "k it chooses")
        # choose-k's defaults: cluster's --restarts and --max-documents are the fit's and the
        # summaries', not the search's (docnmf choose-k sets them)
        logger.info("choosing k as docnmf choose-k does by default: 8 restarts per k on up to "
                    "1000 documents (docnmf choose-k --restarts/--max-documents change them)")
        selection = _select_k(corpus, k_values, args, _vectorizer_params(args, corpus),
                              runs=8, max_documents=1000)
        logger.info("chose k = %d: %s", selection.k, selection.reason)
        k = selection.k
    return _run(corpus, k, args, _vectorizer_params(args, corpus), outdir, selection=selection,
                checked=checked)


def _select_k(corpus, k_values, args, vectorizer_params: dict, *, runs: int, max_documents: int,
              findings: bool = False):
    """Vectorize ``corpus`` and choose k among ``k_values`` (a UsageError for a bad range).
    ``findings``: say what the texts' language does to the criteria, and warn of empty and
    duplicate documents, boilerplate and, in English texts, documents in another language
    (``cluster -k auto`` does so itself)."""
    from .diagnostics import (
        documents_phrase,
        duplicate_groups,
        duplicates_finding,
        empty_rows,
        warning_lines,
    )
    from .pipeline import _vectorize, _weighed_out
    from .selection import select_k
    from .selection.choose import MAX_K_VALUES
    from .text.vectorize import EmptyVocabularyError

    if len(corpus) < 4:
        raise UsageError(f"choose-k tries k = 2 at the least, on 4 documents or more: the "
                         f"corpus has {len(corpus)}")
    groups = duplicate_groups(corpus.texts, corpus.counts if corpus.texts is None else None)
    copies = sum(len(g) - 1 for g in groups)
    if copies and len(corpus) - copies < 4:
        raise UsageError(f"choose-k tries k = 2 at the least, on 4 different documents or "
                         f"more: the {len(corpus)} documents are copies of "
                         f"{len(corpus) - copies}")
    # select_k tries no k above half the documents it uses; what is left of the range must not
    # exceed MAX_K_VALUES, a bound that can be checked here, before vectorizing
    tried = [k for k in k_values if k <= min(len(corpus), max_documents) // 2]
    if len(tried) > MAX_K_VALUES:
        raise UsageError(f"--k-range holds {len(tried)} values of k up to half of the documents "
                         f"used; at most {MAX_K_VALUES}")
    try:
        X, _, _, counts = _vectorize(corpus, vectorizer_params)
    except EmptyVocabularyError:    # said as cluster says it
        raise
    except ValueError as exc:       # what the data refutes (--tf sublinear of weights; the df
        raise UsageError(str(exc)) from None        # bounds were checked with the options)
    english = True
    if findings and corpus.texts is not None:
        # after vectorizing: texts that give no index term at all get this hint in the error
        # (it came twice, a warning and then the error); docnmf cluster says so too
        english = _warn_language(corpus.texts, "the criteria read such runs as words",
                                 _language_remedy(args), stem=not args.no_stem)
    empty_ids = empty_rows(X)
    empty = empty_ids.size
    with_terms = X.shape[0] - empty
    if with_terms < 4:
        # (it said "k=2 is more than half of the 0 documents with index terms" of documents
        # whose words were all in every document: idf 0)
        raise UsageError(f"choose-k tries k = 2 at the least, on 4 documents with index terms "
                         f"or more: {with_terms} of the {X.shape[0]} have any"
                         + _weighed_out(counts, empty_ids, vectorizer_params))
    # as the documents are read: texts that differ only in words left out are the same
    alike = sum(len(g) - 1 for g in duplicate_groups(counts=X))
    if with_terms - alike < 4:
        raise UsageError(f"choose-k tries k = 2 at the least, on 4 different documents with "
                         f"index terms or more: the {with_terms} with index terms read as "
                         f"{with_terms - alike} different one{'s' * (with_terms - alike != 1)}")
    # as docnmf cluster says them (it leaves the empty documents unassigned)
    if empty and findings:
        logger.warning("%s with no index term left after preprocessing: k is chosen on the "
                       "other %d", documents_phrase(empty), with_terms)
    for line in warning_lines({"duplicates": duplicates_finding(groups, corpus.ids)}
                              if findings else {}):
        logger.warning("%s", line)
    if findings and corpus.texts is not None:
        _warn_text_findings(corpus.texts, vectorizer_params.get("max_df", 0.95), corpus.ids,
                            english=english)
    try:
        return select_k(X, k_values, n_runs=runs, max_documents=max_documents,
                        random_state=args.seed)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _format_selection(selection) -> str:
    from .selection import format_selection

    return format_selection(selection)


def _cmd_choose_k(args) -> int:
    from .pipeline import software_record
    from .selection import write_selection

    k_values = _k_range(args.k_range)
    logger.info("reading %s", args.input)
    corpus = _load_input(args)
    outdir = args.output or Path("docnmf-choose-k") / _safe_name(
        corpus.metadata.get("name") or args.input)
    vectorizer_params = _vectorizer_params(args, corpus)
    with _output_folder(outdir, args) as staging:
        selection = _select_k(corpus, k_values, args, vectorizer_params, runs=args.runs,
                              max_documents=args.max_documents, findings=True)
        # what a choose_k.json found later needs to be run again or compared
        context = {"corpus": {"name": corpus.metadata.get("name"),
                              "source": str(corpus.metadata.get("source", "")),
                              "n_documents": len(corpus)},
                   "k_range": args.k_range, "text_pipeline": vectorizer_params,
                   **software_record()}
        try:
            paths = [outdir / Path(p).relative_to(staging)
                     for p in write_selection(selection, staging, context)]
        except OSError as exc:
            raise UsageError(f"cannot write to {outdir}: {exc.strerror or exc}") from None
    print(_format_selection(selection))
    print(f"\nwrote {', '.join(str(p) for p in paths)}")
    return 0


def _cmd_report(args) -> int:
    from .io import OutputFolderError, run_lock
    from .report import ReportError, write_report

    try:
        with run_lock(args.outdir):     # not while a run replaces the folder
            path = write_report(args.outdir)
    except OutputFolderError:
        raise UsageError(f"another docnmf run is writing to {args.outdir}: run docnmf report "
                         "once it has ended (it writes report.html itself)") from None
    except ReportError as exc:
        raise UsageError(str(exc)) from None
    except (AttributeError, TypeError, KeyError, IndexError, ValueError) as exc:
        # files that parse but were edited out of the shape docnmf cluster writes
        raise UsageError(f"the files in {args.outdir} are not as docnmf cluster writes them "
                         f"({type(exc).__name__}: {str(exc)[:200]}); cluster again to get a "
                         "report") from None
    except OSError as exc:
        raise UsageError(f"cannot write {Path(args.outdir) / 'report.html'}: "
                         f"{exc.strerror or exc}") from None
    print(f"wrote {path}")
    return 0


#: Times a Dask run clusters again when a worker is lost while its results are written.
_DASK_WRITE_RETRIES = 2

#: Seconds a scheduler has to answer, and to get a first worker.
_SCHEDULER_ANSWER_S, _WORKER_WAIT_S = 10, 60


def _check_scheduler(address: str) -> None:
    """A usage error unless a Dask scheduler answers at ``address`` in time: Dask's client
    waits forever on a service that takes the connection and never answers (a web server),
    and reads another service's greeting as a length (a false "not enough memory")."""
    import asyncio

    from distributed.comm import connect, get_address_host_port
    from distributed.comm.addressing import parse_address
    from distributed.comm.registry import get_backend
    from distributed.security import Security

    if not address.strip():
        raise UsageError("--scheduler needs the scheduler's address, e.g. tcp://host:8786")
    try:
        scheme = parse_address(address)[0]
        backend = get_backend(scheme)
        if scheme in ("tcp", "tls"):
            get_address_host_port(address)     # a port is needed
    except ValueError as exc:      # an address Dask cannot read (http://..., foo://..., no port)
        raise UsageError(f"--scheduler {address}: {exc}; a scheduler's address looks like "
                         "tcp://host:8786") from None
    try:
        backend.get_connector()
    except Exception as exc:  # noqa: BLE001 (a transport whose package is absent, e.g. UCX)
        raise UsageError(f"--scheduler {address}: Dask cannot connect over {scheme}:// here "
                         f"({exc})") from None
    # the client's own connection settings (TLS certificates from Dask's configuration)
    options = Security().get_connection_args("client")
    if scheme == "tls" and options.get("ssl_context") is None:
        raise UsageError(f"--scheduler {address}: tls:// needs Dask's TLS settings "
                         "(distributed.comm.tls in the Dask configuration); none are set")

    async def identity():
        comm = await connect(address, timeout=_SCHEDULER_ANSWER_S, **options)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    try:
        reply = asyncio.run(asyncio.wait_for(identity(), _SCHEDULER_ANSWER_S))
    except (OSError, TimeoutError, asyncio.TimeoutError):
        raise UsageError(f"no Dask scheduler answered at {address} within "
                         f"{_SCHEDULER_ANSWER_S} s (nothing listens there, or something else "
                         "does)") from None
    except Exception:  # noqa: BLE001 (whatever another service's bytes make of Dask's reader)
        reply = None
    if not (isinstance(reply, dict) and reply.get("type") == "Scheduler"):
        raise UsageError(f"{address} answered, but not as a Dask scheduler")


def _need_dask() -> None:
    """Refuse --scheduler and --dask-workers, in a line, where Dask is not installed."""
    try:
        import dask  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        raise UsageError("--scheduler and --dask-workers need Dask: "
                         "pip install 'docnmf[dask]'") from None


def _dask_client(args):
    """A client of the scheduler named on the command line, or of a new local cluster."""
    _need_dask()
    from distributed import Client, LocalCluster
    if args.scheduler is not None:
        _check_scheduler(args.scheduler)
        try:
            client = Client(args.scheduler, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise UsageError(f"cannot reach the Dask scheduler at {args.scheduler}: {exc}") \
                from None
        if not client.scheduler_info()["workers"]:
            logger.warning("the scheduler at %s has no workers yet; waiting up to %d s for one "
                           "(start them with 'dask worker %s')", args.scheduler,
                           _WORKER_WAIT_S, args.scheduler)
            try:
                client.wait_for_workers(1, timeout=_WORKER_WAIT_S)
            except TimeoutError:
                client.close()
                raise UsageError(f"the scheduler at {args.scheduler} has no workers after "
                                 f"{_WORKER_WAIT_S} s") from None
        return client
    # the workers ignore Ctrl-C (a child keeps an ignored signal, and Python then installs no
    # handler of its own): a Ctrl-C reaches this process alone, which stops the cluster, rather
    # than every worker, each printing its traceback. They are forked from a fork server that
    # is started with Ctrl-C ignored, so that this process need not ignore it while they start
    # (it did, and a Ctrl-C then was lost: the run went on and exited 0)
    _start_ignoring_fork_server()
    # a Ctrl-C while the cluster starts (a second or two) is acted on once it has: one that
    # broke into its start left a cluster half made, which Dask's exit handler then failed to
    # close with tracebacks; where Ctrl-C is ignored (a command started with &), it stays so
    interrupted = []

    def note(signum, frame):
        if not interrupted:     # os.write: logging may hold a lock the handler interrupted
            os.write(2, b"docnmf: stopping once the Dask workers have started\n")
        interrupted.append(signum)

    ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    previous = None if ignored else signal.signal(signal.SIGINT, note)
    try:
        # the workers' own logs are silenced: on a Ctrl-C each would report the scheduler's
        # going as a failed heartbeat; what fails a fit reaches the client as an error
        cluster = LocalCluster(n_workers=args.dask_workers, threads_per_worker=1,
                               processes=True, dashboard_address=":0",
                               silence_logs=logging.CRITICAL)
    finally:
        if not ignored:
            signal.signal(signal.SIGINT, previous)
    if interrupted:
        cluster.close()
        raise KeyboardInterrupt
    return Client(cluster)


def _start_ignoring_fork_server() -> None:
    """Have Dask start its worker processes (now and when it restarts one) from
    multiprocessing's fork server, started here with Ctrl-C ignored: its children keep that,
    whatever this process does with Ctrl-C meanwhile."""
    import multiprocessing.forkserver

    import dask
    from distributed.utils import get_mp_context

    dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"})
    get_mp_context()          # sets what the fork server imports before it forks
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)    # for the 10 ms of a spawn
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


def _cmd_cluster_dask(args) -> int:
    _need_dask()        # before the subpackage's import, whose ImportError was a traceback
    from .corpus.readers import TABLE_SUFFIXES
    from .distributed import DistributedFitError, PartitionedCorpus
    from .distributed._rows import Unrecoverable
    from .distributed.pipeline import (DASK_METHODS, TooFewDocuments, cluster_partitioned,
                                       format_partitioned_summary, write_partitioned_run)

    if args.method not in DASK_METHODS:
        raise UsageError(f"--scheduler/--dask-workers run {', '.join(DASK_METHODS)}; "
                         f"{args.method} runs in memory only")
    if args.clusters == "auto":
        # "give --scheduler/--dask-workers a number" read as if those wanted the number
        raise UsageError("-k auto runs in memory only: with --scheduler or --dask-workers, give "
                         "-k a number (docnmf choose-k suggests one)")
    if args.clusters < 2:
        raise UsageError(f"-k must be at least 2, got {args.clusters}")
    params = _estimator_params(args)
    if params.get("dtype") == "float32":
        raise UsageError("--dtype float32 runs in memory only; the Dask solvers run in float64")
    if params.get("labels", "argmax") != "argmax":
        raise UsageError("--labels other than argmax run in memory only")
    if getattr(args, "summaries", False):
        raise UsageError("--summaries runs in memory only")
    if getattr(args, "must_link", None) is not None or \
            getattr(args, "cannot_link", None) is not None:
        # as in memory, where nmf and nmf-ncw refuse them: the pairs were read by nothing
        raise UsageError(f"--must-link/--cannot-link need a semi-supervised method, and "
                         f"--scheduler/--dask-workers run {', '.join(DASK_METHODS)}: those "
                         "methods run in memory only")
    _warn_summary_options_unread(args)
    if not Path(args.input).exists():
        raise UsageError(f"--scheduler/--dask-workers read a folder or CSV/JSONL files; "
                         f"no such file or folder: {args.input}")
    options = _reader_options(args)     # said of a folder of text files, as in memory
    corpus = PartitionedCorpus.from_path(
        args.input, files_per_partition=args.files_per_partition or _FILES_PER_PARTITION,
        text_column="text" if args.text_column is None else args.text_column,
        label_column=args.label_column, id_column=args.id_column, encoding=args.encoding)
    # what run.json needs to read the input again, as the in-memory run records it
    corpus.path, corpus.reader_options = os.path.abspath(args.input), options
    if args.files_per_partition is not None and (
            Path(args.input).suffix.lower() in TABLE_SUFFIXES
            or all(Path(name).suffix.lower() in TABLE_SUFFIXES for name in corpus.part_names)):
        logger.warning("--files-per-partition groups text files; a CSV/JSONL file is one "
                       "partition")
    outdir = args.output or _default_output("docnmf-out", corpus.name, corpus.source)
    paths = []
    client = _dask_client(args)
    # Dask's own logs in this process: a lost scheduler is reported as a traceback from its
    # sending loop and a failed reconnection, each in its words, before docnmf's one line
    # (dask's configuration gives some of its loggers levels of their own, distributed.client
    # among them: each is quietened, not only their parent)
    dask_logs = [logging.getLogger(name) for name in
                 ["distributed", *(n for n in logging.root.manager.loggerDict
                                   if n.startswith("distributed."))]]
    dask_levels = [log.level for log in dask_logs]
    for log in dask_logs:
        log.setLevel(logging.CRITICAL)
    try:
        # the output folder is checked and locked before the fit, and published whole after it
        with _output_folder(outdir, args):
            workers = len(client.scheduler_info()["workers"])
            logger.info("Dask dashboard: %s (%d worker%s)", client.dashboard_link, workers,
                        "s" if workers != 1 else "")
            logger.info("clustering %s (%d partition%s) into %d clusters with %s", args.input,
                        corpus.n_partitions, "s" if corpus.n_partitions != 1 else "",
                        args.clusters, args.method)
            for attempt in range(_DASK_WRITE_RETRIES + 1):
                try:
                    run = cluster_partitioned(corpus, args.clusters, args.method,
                                              client=client, random_state=args.seed,
                                              estimator_params=params,
                                              vectorizer_params=_vectorizer_params(args),
                                              n_keywords=args.keywords)
                except TooFewDocuments as exc:      # in the in-memory command's words
                    from .diagnostics import documents_phrase

                    raise UsageError(f"-k {args.clusters} is more than the "
                                     f"{documents_phrase(exc.n_docs)}") from None
                try:
                    paths = write_partitioned_run(run, outdir)   # joins the staging folder
                    break
                except OSError as exc:
                    raise UsageError(f"cannot write to {outdir}: {exc.strerror or exc}") \
                        from None
                except Unrecoverable:
                    raise
                except DistributedFitError:
                    # the labels have no lineage to rebuild a lost block from: cluster again
                    # (deterministic, so the same clusters), and write every file again
                    if attempt == _DASK_WRITE_RETRIES:
                        raise
                    logger.warning("a worker was lost while the results were written; "
                                   "clustering again")
    except DistributedFitError as exc:
        # nothing was published: the staging folder went with the error
        print(f"docnmf: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        # the client's tasks end with the cluster: asyncio would log each as never retrieved
        logging.getLogger("asyncio").setLevel(logging.CRITICAL)
        raise
    finally:
        cluster = getattr(client, "cluster", None)
        client.close()
        if cluster is not None and args.dask_workers:
            cluster.close()
        for log, level in zip(dask_logs, dask_levels):
            log.setLevel(level)
    print(format_partitioned_summary(run))
    print(f"\nwrote {', '.join(str(p) for p in paths)}")
    logger.info("on Dask no memberships.npz or report.html is written: each needs the whole "
                "documents x clusters matrix in one process")
    return 0


def _texts_of(args) -> list[str]:
    corpus = _load_input(args)
    if corpus.texts is None:
        raise UsageError(f"{args.input} is a count matrix without texts")
    if len(corpus) == 0:
        raise UsageError("the corpus has no documents")
    return corpus.texts


def _cmd_summarize(args) -> int:
    from .summarize.api import pick_documents, summarize_texts
    from .summarize.rouge import parse_length

    try:
        parse_length(args.length)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.max_documents < 0:
        raise UsageError(f"--max-documents must be 0 or more, got {args.max_documents}")
    policy = "truncate" if args.fill else "skip"
    if args.per_cluster or args.clusters is not None:
        return _summarize_per_cluster(args, policy)
    texts = _texts_of(args)
    _warn_language(texts, _SENTENCES_OF_RUNS, "")
    picked = pick_documents(len(texts), args.max_documents, random_state=args.seed)
    if picked.size < len(texts):
        logger.info("summarizing %d of the %d documents, drawn at random (--max-documents; "
                    "--per-cluster gives one summary per cluster)", picked.size, len(texts))
        texts = [texts[i] for i in picked]
    logger.info("summarizing %d document%s with %s, limit %s", len(texts),
                "" if len(texts) == 1 else "s", args.method, args.length)
    summary = summarize_texts(texts, length=args.length, method=args.method,
                              random_state=args.seed, policy=policy)
    if not summary:
        raise UsageError(_no_summary(args, texts))
    print(summary)
    return 0


def _warn_language(texts, unspaced_effect: str, remedy: str, *, stem: bool = True) -> bool:
    """Texts in a script without spaces between words, or not in English: say what docnmf
    makes of them (``unspaced_effect``: what taking a run of letters as a word does;
    ``remedy``: the command's options for another language, if any; ``stem``: whether the
    texts are stemmed, as with --no-stem they are not). Whether the texts look English."""
    from .diagnostics import not_english_line, text_hints

    hints = text_hints(texts)
    if hints["unspaced_script"]:
        logger.warning("the texts are mostly in a script written without spaces between words "
                       "(Chinese, Japanese, Thai): docnmf takes a run of letters as one word, "
                       "so %s; split the texts into words with spaces first (with a "
                       "segmenter: jieba for Chinese, MeCab or SudachiPy for Japanese)",
                       unspaced_effect)
    elif hints["not_english"]:
        logger.warning(not_english_line(hints["english_stop_word_share"], remedy, stem=stem))
    return not hints["not_english"]


def _warn_text_findings(texts, max_df, ids=None, *, english: bool = True) -> None:
    """Lines repeated across many of ``texts``, and (in English ``texts``) documents in another
    language, as cluster's diagnostics name them (keywords and choose-k run none)."""
    from .diagnostics import boilerplate, foreign_documents, warning_lines

    report = {"boilerplate": boilerplate(texts, max_df),
              "languages": foreign_documents(texts, ids) if english else {}}
    for line in warning_lines(report):
        logger.warning("%s", line)


def _language_remedy(args) -> str:
    """The command's text options that would help with a language other than English, of
    those it has and its user did not set already."""
    from .diagnostics import at_most_half

    options = ["--no-stem"] * (not getattr(args, "no_stem", True))
    return " and ".join(options + ["--max-df 0.5"] * (not at_most_half(args.max_df)))


#: What a summary of texts without spaces between words is made of.
_SENTENCES_OF_RUNS = "sentences are ranked, and a --length in words counted, by such runs"


def _no_summary(args, texts) -> str:
    """Why a summary came out empty: every sentence longer than --length, or none at all (a
    post of quoted lines only was said to have sentences longer than --length 500w)."""
    from .summarize.matrices import build_pool, prose_of

    if len(build_pool([prose_of(t) for t in texts])):
        if args.fill:       # a limit under the bytes of the first character (3 for 天)
            return (f"no sentence fits within --length {args.length}, not even its first "
                    "character: give a longer --length")
        return (f"no sentence fits within --length {args.length}: every one is longer "
                "(give a longer --length, or --fill to cut the best one to fit)")
    return ("the documents hold no sentence to summarize (of a mail or news post, only its "
            "own lines are: not its header block, quoted lines or signature)")


def _summarize_per_cluster(args, policy: str) -> int:
    from .diagnostics import documents_phrase
    from .methods import DEFAULT_METHOD
    from .pipeline import cluster_corpus
    from .summarize.api import summarize_clusters

    if args.clusters is None:
        raise UsageError("--per-cluster needs -k, the number of clusters")
    corpus = _load_input(args)
    if corpus.texts is None:
        raise UsageError(f"{args.input} is a count matrix without texts")
    _check_k_for(args.clusters, len(corpus))
    # the clustering below says what it finds of the texts' language (once)
    logger.info("clustering %d documents into %d clusters with %s", len(corpus), args.clusters,
                args.cluster_method or DEFAULT_METHOD)
    # without --cluster-method, what docnmf cluster runs (a degenerate result clustered again)
    # its progress as cluster's (34 s went by without a word on 20 Newsgroups)
    try:
        with _advice_for("summarize"):
            run = cluster_corpus(corpus, args.clusters, args.cluster_method,
                                 random_state=args.seed, estimator_params={"verbose": 1})
    except ValueError as exc:
        # the estimators' input checks, in one line as cluster says them (the errors main
        # reports are ValueErrors too)
        if isinstance(exc, _REPORTED_BY_MAIN()):
            raise
        raise UsageError(f"{args.cluster_method or DEFAULT_METHOD}: {exc}") from None
    summaries = summarize_clusters(corpus.texts, run.labels, run.memberships, args.clusters,
                                   length=args.length, method=args.method,
                                   max_documents=args.max_documents, random_state=args.seed,
                                   policy=policy)
    if not any(summaries):
        raise UsageError(_no_summary(args, corpus.texts))
    blocks = []
    for c, text in enumerate(summaries):
        head = (f"== cluster {c} ({documents_phrase(run.sizes[c])}): "
                f"{', '.join(run.keywords[c][:8])}")
        # a cluster without documents has no sentence at all: a longer --length cannot help
        why = ("(an empty cluster: no document is in it)" if not run.sizes[c] else
               f"(no sentence of this cluster fits within {args.length})")
        blocks.append(head + "\n" + (text or why))
    print("\n\n".join(blocks))
    return 0


#: cluster's options that the diagnostics' advice names, as summarize -k (which clusters with
#: --cluster-method and has no --max-df) and assign (whose model fixed the terms) can say them.
#: Only the advice's own words are matched: a line of the documents quoted in a warning (its
#: boilerplate, "run the mailer with --method remove") is shown as written.
_CLUSTER_ADVICE = {"summarize": ((re.compile(r"(?<![\w-])--method(?= [\w-]+(?: may give |; "
                                             r"--method | keeps its own| does not|(?: or km)?, "
                                             r"which may find))"),
                                  "--cluster-method"),
                                 (re.compile(r"; --max-df(?= \S+ drops)"),
                                  "; docnmf cluster --max-df"),
                                 # the errors' advice on terms: summarize keeps them all
                                 (re.compile(r", keep more terms \(--min-df, --max-df, "
                                             r"--max-features\),"), ","),
                                 (re.compile(r", --max-df 1\.0 --idf smooth,"), ","),
                                 # the words docnmf cluster can keep, and summarize cannot
                                 (re.compile(r"(?:(?<=: )|(?<=; )|(?<=\())(?=--(?:keep-stop-words, "
                                             r"or stop_words=None|token-pattern(?: '|, "
                                             r"token_pattern in Python)))"), "docnmf cluster ")),
                   "assign": ((re.compile(r"; --max-df(?= \S+ drops)"),
                               "; docnmf cluster --max-df"),)}


class _AdviceForCommand(logging.Filter):
    """The warnings logged meanwhile with the options they advise named as ``command`` takes
    them: summarize -k advised '--method consensus', which its --method (a sentence ranking)
    refuses, and summarize and assign '--max-df', which neither takes."""

    def __init__(self, command: str):
        super().__init__()
        self.rules = _CLUSTER_ADVICE.get(command, ())

    def said(self, text: str) -> str:
        for pattern, replacement in self.rules:
            text = pattern.sub(replacement, text)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING and self.rules:
            record.msg, record.args = self.said(record.getMessage()), None
        return True


@contextmanager
def _advice_for(command: str) -> Iterator[None]:
    """Warnings logged, and a user's mistake raised, meanwhile advise what ``command`` takes."""
    advice = _AdviceForCommand(command)
    handlers = logger.handlers[:]     # (a logger's own filters miss its children's records)
    for handler in handlers:
        handler.addFilter(advice)
    try:
        yield
    except ValueError as exc:     # (CorpusError and the others main reports in a line)
        if len(exc.args) == 1 and isinstance(exc.args[0], str):
            exc.args = (advice.said(exc.args[0]),)
        raise
    finally:
        for handler in handlers:
            handler.removeFilter(advice)


def _check_k_for(k: int, n_docs: int) -> None:
    """A UsageError unless ``k`` clusters can be made of ``n_docs`` documents."""
    from .diagnostics import documents_phrase

    if k < 2:
        raise UsageError(f"-k must be at least 2, got {k}")
    if k > n_docs:
        raise UsageError(f"-k {k} is more than the {documents_phrase(n_docs)}")


def _cmd_keywords(args) -> int:
    from .diagnostics import small_clusters_of_sizes, warning_lines
    from .summarize.api import cluster_keywords

    if args.alpha is not None and not 0.0 < args.alpha < 1.0:
        raise UsageError(f"--alpha must lie in (0, 1), got {args.alpha}")
    texts = _texts_of(args)
    _check_k_for(args.clusters, len(texts))
    if args.restarts is not None and args.restarts > 1:
        logger.warning("--restarts %d had no effect: the NMF-NCW fit starts from NNDSVDa, a "
                       "single point, and ran once", args.restarts)
    if args.alpha is not None:
        logger.warning("--alpha %g had no effect: eq. 2's weights fall as the terms' residuals "
                       "grow, for any exponent in (0, 1), so the ranking printed is the same",
                       args.alpha)
    vectorizer_params = _vectorizer_params(args)
    _check_document_bounds(args, len(texts))
    english = _warn_language(texts, "a keyword is such a run, often a whole sentence",
                             _language_remedy(args), stem=not args.no_stem)
    _warn_text_findings(texts, args.max_df, english=english)
    logger.info("finding keywords of %d documents in %d clusters", len(texts), args.clusters)
    try:
        report, sizes = cluster_keywords(texts, args.clusters, n_keywords=args.keywords,
                                         random_state=args.seed, **vectorizer_params)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    # as cluster names them (a cluster of 2 of Classic4's 7,097 documents went by unsaid)
    small = small_clusters_of_sizes(sizes, [[] for _ in sizes])
    for line in warning_lines({"small_clusters": small}, "nmf-ncw", method_chosen=False):
        logger.warning("%s", line)
    print(report)
    return 0


def _print_data_folder() -> None:
    # the lists of what was found say where it was looked for
    from .corpus.datasets import _root

    folder = _root(None)     # a folder the system cannot look up is one error, not a traceback
    # a mistyped DOCNMF_DATA showed as every dataset "missing", the folder's name unremarked
    said = "set DOCNMF_DATA to change it" if folder.is_dir() else \
        "which is not a folder: set DOCNMF_DATA to the folder that holds the corpora"
    print(f"data folder: {folder}  ({said})\n")


def _cmd_datasets(args) -> int:
    from .corpus import list_datasets
    from .corpus.readers import DEMO

    infos = list_datasets()
    width = max(len(i.name) for i in infos)
    _print_data_folder()
    print(f"{DEMO:<{width}}  found    the embedded demo corpus: 80 short documents on five "
          "topics, labelled (always there)")
    for info in infos:
        print(f"{info.name:<{width}}  {'found  ' if info.found else 'missing'}  {info.description}")
    return 0


def _comma_list(text: str, what: str, known) -> list[str]:
    # "nmf,nmf" runs nmf once; "NMF" is nmf where every name is in lower case, as cluster's
    # --method takes it
    lower = all(name == name.lower() for name in known)
    items = list(dict.fromkeys(t.strip().lower() if lower else t.strip()
                               for t in text.split(",") if t.strip()))
    if not items:
        raise UsageError(f"no {what} given")
    for item in items:
        if item not in known:
            raise UsageError(f"unknown {what} {item!r}; choose from {', '.join(known)}")
    return items


def _method_list(text: str, command: str) -> list[str]:
    """evaluate's and reproduce's --methods: names of :data:`docnmf.methods.METHODS`."""
    from ._catalog import DEFAULT_FALLBACK, DEFAULT_METHOD
    from .methods import METHODS

    if "default" in (t.strip().lower() for t in text.split(",")):
        # benchmark takes 'default'; here it was only "unknown method 'default'"
        raise UsageError(f"{command} runs methods by name: the default of docnmf cluster is "
                         f"{DEFAULT_METHOD} (clustered again with {DEFAULT_FALLBACK} when its "
                         f"result is degenerate); name {DEFAULT_METHOD}, or run docnmf "
                         "benchmark --methods default")
    return _comma_list(text, "method", list(METHODS))


#: Most runs per k and restarts the protocol options take, and most cluster numbers in --k-range:
#: the task list is built in memory, so more would fail only after exhausting it.
_MAX_RUNS = 10_000
_MAX_K_VALUES = 1_000


def _k_range(text: str) -> tuple[int, ...]:
    # a range of thousands of characters was echoed whole in the error
    shown = (repr(text) if len(text) <= 60
             else f"{text[:50]!r} (and {len(text) - 50:,} more characters)")
    try:
        spans = []
        for part in text.split(","):
            lo, sep, hi = part.strip().partition("-")
            spans.append((int(lo), int(hi) if sep else int(lo)))
    except ValueError:
        raise UsageError(f"--k-range expects e.g. 2-10 or 2,4,6, got {shown}") from None
    if any(lo < 2 for lo, _ in spans):
        raise UsageError(f"--k-range {shown}: every cluster number must be at least 2")
    reversed_ = [f"{lo}-{hi}" for lo, hi in spans if hi < lo]
    if reversed_:
        raise UsageError(f"--k-range {shown}: {', '.join(reversed_)} runs backwards; write "
                         "the smaller number first")
    if _span_count(spans) > _MAX_K_VALUES:
        raise UsageError(f"--k-range {shown} holds more than {_MAX_K_VALUES:,} cluster numbers")
    values = {k for lo, hi in spans for k in range(lo, hi + 1)}
    if not values:
        raise UsageError(f"--k-range {shown} contains no cluster number")
    return tuple(sorted(values))


def _span_count(spans: Sequence[tuple[int, int]]) -> int:
    """How many whole numbers the spans (lo, hi) cover, each once, without listing them
    ("5,5,...,5" three thousand times is one number)."""
    count, end = 0, None
    for lo, hi in sorted(spans):
        if end is not None and lo <= end:
            lo = end + 1
        if hi >= lo:
            count += hi - lo + 1
            end = hi
    return count


def _run_experiment(protocol, outdir: Path, args, *, spec=None, data=None) -> int:
    from .experiments import ProtocolError, format_compact, run_protocol, write_report

    # results.jsonl lets an interrupted run resume; the folder is published whole at the end
    with _output_folder(outdir, args, resume=_RESUME) as staging:
        try:
            result = run_protocol(protocol, staging / "results.jsonl", jobs=args.jobs, data=data)
        except ProtocolError as exc:
            raise UsageError(_public(str(exc), staging, outdir)) from None
        with _interrupts_held():
            write_report(staging, result, protocol, spec=spec)
    print(format_compact(result, protocol, spec))
    print(f"\nreport: {outdir / 'report.md'}")
    warned = [r for r in result.records if r.get("warnings")]
    if warned:      # said in report.md too; a fit on documents without terms scores them
        logger.warning("%d of %d runs raised warnings, e.g. %s (the 'warnings' field of "
                       "results.jsonl lists them)", len(warned), len(result.records),
                       textwrap.shorten(str(warned[0]["warnings"][0]), 300, placeholder=" …"))
    return 0


#: The files of an experiment folder an interrupted run resumes from.
_RESUME = ("*.jsonl",)


def _public(message: str, staging: Path, outdir: Path) -> str:
    """``message`` naming the output folder where it names its staging folder, when that
    folder exists; an interrupted run never published is named where it lies (its
    ``.partial`` folder), which is where a user can act on it."""
    return message.replace(str(staging), str(outdir)) if Path(outdir).is_dir() else message


def _unknown_table(table: str, names: list[str]) -> UsageError:
    return UsageError(f"unknown table {table!r}{did_you_mean(table, names)} (choose from "
                      f"{', '.join(names)})")


def _cmd_reproduce(args) -> int:
    from .experiments import TABLES, WEIGHTINGS
    from .experiments.targets import TargetOptions, all_targets
    from .methods import METHODS

    targets = all_targets()
    if args.list:
        width = max(len(name) for name in [*TABLES, *targets])
        if args.table and args.table not in (*TABLES, *targets):
            raise _unknown_table(args.table, [*TABLES, *targets])
        _print_data_folder()
        for name, spec in TABLES.items():
            if args.table in (None, name):      # one table when named
                found = "found  " if spec.condition.available() else "missing"
                print(f"{name:<{width}}  {found}  {spec.title}  [data: {spec.condition.source}]")
        for name, target in targets.items():
            if args.table in (None, name):
                found = "found  " if target.available() else "missing"
                print(f"{name:<{width}}  {found}  {target.title}  [data: {target.source}]")
        return 0
    if not args.table:
        raise UsageError("give a table name, or --list to see them")
    if args.table in targets:
        target = targets[args.table]
        chosen = [flag for flag, value in (("--methods", args.methods), ("--k-range", args.k_range),
                                           ("--weighting", args.weighting)) if value]
        if chosen:      # a target's runs are fixed by its figure; they were ignored silently
            raise UsageError(f"{' and '.join(chosen)} choose{'s' * (len(chosen) == 1)} among a "
                             f"table's runs; {target.name} runs its figure's own (it takes "
                             "--runs, --restarts, --seed and --jobs)")
        if not target.available():
            raise UsageError(f"the data of {target.name} is not found ({target.source}); "
                             "set DOCNMF_DATA")
        outdir = args.output or Path("docnmf-reproduce") / target.name
        from .experiments import ProtocolError

        with _output_folder(outdir, args, resume=_RESUME) as staging:
            try:
                report = target.run(staging, TargetOptions(runs=args.runs, restarts=args.restarts,
                                                           seed=args.seed, jobs=args.jobs))
            except ProtocolError as exc:
                raise UsageError(_public(str(exc), staging, outdir)) from None
        print(f"report: {outdir / Path(report).relative_to(staging)}")
        return 0
    if args.table not in TABLES:
        raise _unknown_table(args.table, [*TABLES, *targets])
    spec = TABLES[args.table]
    methods = (_method_list(args.methods, "reproduce") if args.methods is not None
               else [m for m in spec.methods if m in METHODS])
    if not methods:
        raise UsageError(f"none of the methods of {spec.name} is available")
    protocol = spec.protocol(
        methods=methods, runs=args.runs, restarts=args.restarts, seed=args.seed,
        # an empty --k-range or --weighting (an unset variable) is refused as cluster's is,
        # not the table's own
        k_values=_k_range(args.k_range) if args.k_range is not None else None,
        weightings=_comma_list(args.weighting, "weighting", list(WEIGHTINGS))
        if args.weighting is not None else None)
    outdir = args.output or Path("docnmf-reproduce") / spec.name
    logger.info("%s: %s; %d run%s per k, %d restart%s, weightings %s", spec.name, spec.title,
                protocol.runs, "s" * (protocol.runs != 1), protocol.restarts,
                "s" * (protocol.restarts != 1), ", ".join(protocol.weightings))
    return _run_experiment(protocol, outdir, args, spec=spec)


def _cmd_evaluate(args) -> int:
    from .experiments import WEIGHTINGS, DataCondition, Protocol, ProtocolError, prepare_data
    from .methods import METHODS

    if ":" in args.methods:         # benchmark's variants ('ssnmf:pairs=0.001')
        raise UsageError("evaluate takes method names alone, not variants with options (name:"
                         "option=value); docnmf benchmark --methods takes those, and draws "
                         "must-/cannot-link pairs for the semi-supervised methods with pairs=f")
    methods = _method_list(args.methods, "evaluate")
    weightings = _comma_list(args.weighting, "weighting", list(WEIGHTINGS))
    paired = [m for m in methods if METHODS[m].constraints]
    if paired:
        they = ("takes", "it clusters as its unconstrained form") if len(paired) == 1 else \
            ("take", "they cluster as their unconstrained forms")
        logger.warning("%s %s must-/cannot-link pairs, and evaluate gives none: %s would (pairs "
                       "drawn from the labels: docnmf benchmark --methods '%s:pairs=0.001' on "
                       "the suite's corpora, or docnmf.constraints.sample_constraints in "
                       "Python)", ", ".join(paired), they[0], they[1], paired[0])
    k_values = _k_range(args.k_range) if args.k_range is not None else None   # ('' refused)
    options = _reader_options(args)
    name = _safe_name(args.input)
    text = _vectorizer_params(args)
    text.pop("norm", None)
    condition = DataCondition(name, str(args.input), tuple(options.items()),
                              text_options=tuple(sorted(text.items())))
    try:
        data = prepare_data(condition)
    except ProtocolError as exc:
        raise UsageError(str(exc)) from None
    if data.n_classes < 2:
        raise UsageError(f"{args.input} has {data.n_classes} class; the evaluation needs at least 2")
    if data.texts is not None:
        _warn_language(data.texts, "each such run is a term", _language_remedy(args),
                       stem=not args.no_stem)
    if k_values is None:
        k_values = tuple(range(2, min(10, data.n_classes) + 1))
    for k in k_values:
        subsets = math.comb(data.n_classes, k)
        if 0 < subsets < args.runs:     # the runs draw subsets at random: some are drawn again
            logger.warning("k=%d: the %d classes hold %s of %d classes, so the %d runs repeat "
                           "subsets%s", k, data.n_classes,
                           "one set" if subsets == 1 else f"only {subsets} different sets", k,
                           args.runs, " (they differ in their starts only)" if subsets == 1
                           else "")
    protocol = Protocol(condition, tuple(methods), k_values, args.runs, args.restarts, args.seed,
                        tuple(weightings), as_published=args.as_published)
    outdir = args.output or Path("docnmf-evaluate") / name
    return _run_experiment(protocol, outdir, args, data=data)


def _cmd_benchmark(args) -> int:
    from .corpus import list_datasets
    from .experiments import ProtocolError
    from .experiments.benchmark import DEFAULT_ENTRIES, parse_entry, run_suite
    from .experiments.benchmark_report import write_benchmark_report
    from .experiments.suite import CONFIRM_CORPORA, SUITE_CORPORA, suite_corpora

    entries = args.methods or DEFAULT_ENTRIES
    try:
        for entry in entries:
            parse_entry(entry)
    except ProtocolError as exc:
        raise UsageError(str(exc)) from None
    found = {info.name for info in list_datasets() if info.found}
    declared = SUITE_CORPORA + CONFIRM_CORPORA
    if args.list:
        _print_data_folder()
        for c in declared:
            if args.role not in ("all", c.role):     # the corpora of the role asked for
                continue
            print(f"{c.name:<20} {c.role:<9} {'found  ' if c.dataset in found else 'missing'} "
                  f"{c.n_docs:>6} docs {c.n_classes:>3} classes  {c.form:<6} {c.domain}")
        return 0
    corpora = suite_corpora(None if args.role == "all" else args.role)
    if args.corpora is not None:     # an empty value (an unset variable) is not "all"
        named = _comma_list(args.corpora, "corpus", [c.name for c in declared])
        # the halves and the confirmation sets are reported apart: a corpus runs in its own
        elsewhere = [c for c in declared if c.name in named and c not in corpora]
        if elsewhere:
            raise UsageError(f"{elsewhere[0].name} is a corpus of --role {elsewhere[0].role}, not "
                             f"of --role {args.role}: name it with its role")
        corpora = [c for c in declared if c.name in named]
    missing = [c.name for c in corpora if c.dataset not in found]
    if missing:
        raise UsageError(f"corpora not found: {', '.join(missing)}; set DOCNMF_DATA")
    _check_benchmark_folder(args.output)
    try:
        records = run_suite(args.output / "results.jsonl", entries,
                            corpora=corpora, runs=args.runs, seed=args.seed, jobs=args.jobs)
    except ProtocolError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot write to {args.output}: {exc.strerror or exc}") from None
    paths = write_benchmark_report(args.output, records)
    print(f"report: {paths[0]}")
    return 0


#: What docnmf benchmark writes into its folder; it leaves the folder's other files alone.
_BENCHMARK_FILES = ("results.jsonl", "report.md", "summary.json", "accuracy.png")


def _check_benchmark_folder(outdir: Path) -> None:
    """A UsageError unless ``outdir`` can take docnmf benchmark's files: not a file, a saved
    model or another command's result folder (each is one run's, whole), and none of the
    files benchmark writes there unless its results.jsonl is (they would be overwritten)."""
    from .io import MARKER, OutputFolderError, _check_not_inside_output

    if outdir.exists() and not outdir.is_dir():
        raise UsageError(f"{outdir} is a file, not a folder; give a folder with -o")
    # (as root, -o / wrote its four files into the file system's root)
    resolved = outdir.resolve()
    if os.path.ismount(resolved) or resolved == Path.home().resolve():
        what = "a mount point" if os.path.ismount(resolved) else "the home folder"
        raise UsageError(f"{outdir} is {what}; give benchmark a folder of its own with -o")
    try:    # as every other command: a folder inside a result folder would break that folder
        _check_not_inside_output(outdir, _resolved_output(outdir))
    except OutputFolderError as exc:
        raise UsageError(str(exc)) from None
    if not outdir.is_dir():
        return
    if (outdir / "model.json").is_file() and (outdir / "arrays.npz").is_file():
        raise UsageError(f"{outdir} is a saved model; give benchmark a folder of its own with -o")
    if (outdir / MARKER).exists():
        raise UsageError(f"{outdir} is the result folder of another docnmf command, which is "
                         "one run's, whole; give benchmark a folder of its own with -o")
    if not (outdir / "results.jsonl").exists():
        clash = [name for name in _BENCHMARK_FILES if (outdir / name).exists()]
        if clash:
            raise UsageError(f"{outdir} holds {', '.join(clash)}, which benchmark would "
                             "overwrite, and no results.jsonl of a benchmark beside them; give "
                             "a new folder, or one benchmark wrote, with -o")


def _safe_name(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in Path(str(name)).name) or "corpus"


COMMANDS = {"demo": _cmd_demo, "cluster": _cmd_cluster, "assign": _cmd_assign,
            "datasets": _cmd_datasets,
            "reproduce": _cmd_reproduce, "evaluate": _cmd_evaluate,
            "summarize": _cmd_summarize, "keywords": _cmd_keywords, "report": _cmd_report,
            "choose-k": _cmd_choose_k, "benchmark": _cmd_benchmark}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``docnmf`` command; returns the exit status.

    Ctrl-C gives status 130 and one line, at any moment of the command; once
    it is done (``argv`` None: the process's own command line) a Ctrl-C
    while the interpreter shuts down is ignored.
    """
    _SAID.clear()
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:  # started with it closed (>&-): its output is dropped
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115
    for stream in (sys.stdout, sys.stderr):
        # a path that is not UTF-8 (surrogate escapes from the command line or os) prints as
        # \xNN, as the ids of such files are shown, instead of ending the command with
        # UnicodeEncodeError
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors=_SHOWN)
    if argv is None:
        for signum in _STOP_SIGNALS:    # left alone when ignored (nohup) or handled already
            if signal.getsignal(signum) is signal.SIG_DFL:
                signal.signal(signum, _raise_stopped)
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _interrupt_noted)
        # before the libraries load: a Ctrl-C in importlib's module-lock callback was printed as
        # an ignored exception with a traceback, and the command went on to exit 0
        sys.unraisablehook = _unraisable
        # the command writes its plots to files: a backend named for a notebook's kernel
        # (MPLBACKEND=module://matplotlib_inline...) made importing matplotlib fail at the end
        os.environ["MPLBACKEND"] = "Agg"
        limit = _address_space_limit()
        if limit is not None and limit < MIN_ADDRESS_SPACE:
            print(f"docnmf: error: the memory limit (ulimit -v) is {limit / 2**20:,.0f} MiB; "
                  f"docnmf needs at least {MIN_ADDRESS_SPACE / 2**20:,.0f} MiB to load its "
                  "numerical libraries", file=sys.stderr)
            return 2
        _one_blas_thread_under_a_memory_limit()
    stdout = sys.stdout
    sys.stdout = _Output(stdout)
    # the command sets up docnmf's logger for itself; a caller in the same process (a notebook,
    # a test) gets its own back: it kept the command's handler and propagate=False, so that
    # pytest's caplog saw nothing of docnmf's later messages
    logs = logging.getLogger("docnmf")
    kept = (logs.handlers[:], logs.level, logs.propagate)
    try:
        status = _main(argv)
        sys.stdout.flush()              # here, where a reader gone away is caught below
        return status
    except _OutputError as exc:
        # a full disk or a failing device behind standard output: say so in one line; the
        # files a command writes are written before it prints
        print(f"docnmf: error: cannot write to standard output: {exc.strerror or exc}",
              file=sys.stderr)
        sys.stdout = stdout
        _detach_stdout()
        return 1
    except MemoryError:
        # before the command's own handler (its modules imported under a small ulimit -v)
        print("docnmf: error: not enough memory to start the command; raise the memory limit "
              "(ulimit -v)", file=sys.stderr)
        return 2
    except (ImportError, SystemError) as exc:
        interrupt = _interruption(exc)
        if interrupt is not None:       # a Ctrl-C that an import replaced by its own error
            return _interrupted(interrupt)
        if _address_space_limit() is None:
            raise
        # a library's code that could not be mapped under the limit ("failed to map segment
        # from shared object")
        print(f"docnmf: error: a library could not be loaded under the memory limit (ulimit "
              f"-v): {str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__}; "
              "raise the limit", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader of standard output stopped (`docnmf ... | head`); results are written
        # before they are printed, so stop quietly, with the status of a process SIGPIPE ends
        # (128 + 13)
        _detach_stdout()
        return 141
    except KeyboardInterrupt as exc:
        return _interrupted(exc)
    except Exception as exc:
        interrupt = _interruption(exc)
        if interrupt is None:
            raise
        return _interrupted(interrupt)
    finally:
        if isinstance(sys.stdout, _Output):
            sys.stdout = stdout
        if argv is not None:
            logs.handlers[:], logs.propagate = kept[0], kept[2]
            logs.setLevel(kept[1])
        if argv is None:
            for signum in (signal.SIGINT, *_STOP_SIGNALS):
                signal.signal(signum, signal.SIG_IGN)
            sys.unraisablehook = _quiet_when_finalizing


#: The smallest address space (``ulimit -v``) the command starts in: below it, loading
#: NumPy, SciPy and scikit-learn failed with ImportError or SystemError tracebacks (150-300
#: MB), or OpenBLAS retried a buffer that did not fit for ever, deaf to Ctrl-C and SIGTERM
#: (170-190 MB, and 537 MB clustering 2,000 posts); 586 MB gave a one-line error, 635 MB and
#: more clustered them.
MIN_ADDRESS_SPACE = 600 * 2**20


def _shown(error: UnicodeError) -> tuple[str, int]:
    """A codec error handler: the characters an output cannot hold as ``backslashreplace``
    writes them, but for the surrogate escapes of bytes that are not UTF-8 (in a file name),
    which are written as those bytes, ``\\xNN`` ('o\\xffut', not 'o\\udcffut')."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start:error.end]
    return "".join(f"\\x{ord(c) - 0xDC00:02x}" if 0xDC80 <= ord(c) <= 0xDCFF
                   else c.encode("ascii", "backslashreplace").decode("ascii")
                   for c in text), error.end


#: The name of :func:`_shown` as a codec error handler.
_SHOWN = "docnmf-shown"
codecs.register_error(_SHOWN, _shown)


def _address_space_limit() -> int | None:
    """The limit on this process's address space (``ulimit -v``) in bytes, or None."""
    try:
        import resource
    except ImportError:         # not a POSIX system: no such limit to read
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft


def _one_blas_thread_under_a_memory_limit() -> None:
    """Under a limit on the process's address space (``ulimit -v``), have OpenBLAS use one
    thread, unless told otherwise: each of its threads reserves buffers, and where they did
    not fit it retried for ever, deaf to Ctrl-C and SIGTERM (2,000 posts under 650 and 775
    MB: hung with two threads, done with one). Read when numpy is first imported, after
    this."""
    if _address_space_limit() is not None and "OPENBLAS_NUM_THREADS" not in os.environ:
        os.environ["OPENBLAS_NUM_THREADS"] = "1"


class _OutputError(OSError):
    """Standard output failed (ENOSPC, EIO), other than by its reader going away."""


class _Output:
    """Standard output, its failures to write told apart from every other OSError (a command
    reads and writes files too): a full disk behind ``> out.txt`` was a traceback."""

    def __init__(self, stream):
        self._stream = stream

    def _guarded(self, method, *args):
        try:
            return method(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _OutputError(exc.errno, exc.strerror) from None

    def write(self, text: str) -> int:
        return self._guarded(self._stream.write, text)

    def flush(self) -> None:
        return self._guarded(self._stream.flush)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


#: The Ctrl-Cs the command received (noted by :func:`_interrupt_noted`).
_INTERRUPTS: list[int] = []
#: The interruptions the last command said it was stopped by (:func:`_interrupted`).
_SAID: list[KeyboardInterrupt] = []


def said_interruption() -> KeyboardInterrupt | None:
    """The Ctrl-C or signal the last command said it was stopped by, or None."""
    return _SAID[0] if _SAID else None


def _interruption(exc: BaseException) -> KeyboardInterrupt | None:
    """The Ctrl-C behind ``exc``, if one is: a Ctrl-C in the middle of an import can come back
    wrapped (matplotlib's "Error calling __set_name__") or replaced (numpy's ImportError
    "PyCapsule_Import could not import module 'datetime'", 40 lines on a bad install), still
    an interruption, not a failure."""
    return _interrupt_in(exc) or (KeyboardInterrupt() if _INTERRUPTS else None)


def _interrupt_noted(signum, frame):
    """Python's own Ctrl-C handler, noting that one came: an import it breaks into may raise
    another error in its place."""
    _INTERRUPTS.append(signum)
    raise KeyboardInterrupt


def _unraisable(unraisable) -> None:
    """``sys.unraisablehook``: a Ctrl-C that came where Python cannot raise it (logging's
    at-fork handler while a worker process starts, a finalizer) is raised in the main thread
    once this hook has returned, so the command stops as at any other moment; Python printed
    it as an ignored exception, with a traceback, and went on. Anything else as Python
    reports it."""
    if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
        # from another thread, a moment later: raised here, in the hook, it would be ignored
        # again
        threading.Timer(_REINTERRUPT_S, _thread.interrupt_main).start()
        return
    sys.__unraisablehook__(unraisable)


def _quiet_when_finalizing(unraisable, _finalizing=sys.is_finalizing,
                           _hook=_unraisable) -> None:
    """``sys.unraisablehook`` once the command has returned: what a library's clean-up raises
    while the interpreter shuts down (a process pool's callback finding its module gone,
    "'NoneType' object has no attribute 'util'", after a Ctrl-C of evaluate) is not shown
    under the command's last line; anything before that as :func:`_unraisable`."""
    if not _finalizing():
        _hook(unraisable)


#: Seconds after which a Ctrl-C the hook above took is raised again in the main thread.
_REINTERRUPT_S = 0.01


def _interrupted(exc: KeyboardInterrupt) -> int:
    """One line, and the status of a process the signal ended (128 + its number)."""
    _SAID.append(exc)
    if isinstance(exc, _Stopped):
        print(f"docnmf: stopped by {signal.Signals(exc.signum).name}", file=sys.stderr)
        return 128 + exc.signum
    print("docnmf: interrupted", file=sys.stderr)
    return 130


def _detach_stdout() -> None:
    """Point standard output at the null device, so that flushing it at exit cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _interrupt_in(exc: BaseException) -> KeyboardInterrupt | None:
    """The KeyboardInterrupt in ``exc``'s chain of causes and contexts, if there is one."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def _loaded_error(module: str, name: str) -> type[BaseException]:
    """The exception class ``name`` of ``docnmf.<module>`` when that module is loaded, else
    one that is never raised: an error of a module not imported cannot have been raised, and
    importing the module to catch it loaded scikit-learn for ``--version`` and ``--help``."""
    loaded = sys.modules.get(f"{__package__}.{module}")
    return getattr(loaded, name) if loaded is not None else _NeverRaised


class _NeverRaised(Exception):
    """The error of a module that was not imported (see :func:`_loaded_error`)."""


def _load_libraries(command: str) -> None:
    """Import what ``command`` works with, and with it NumPy, SciPy and scikit-learn, before the
    command's own handler of MemoryError: a memory limit (ulimit -v) too small to load them is
    said as one to raise, not as a run too large ("try fewer documents"). The parser does not
    need them: ``--help``, ``--version`` and a usage mistake are answered without."""
    from . import corpus  # noqa: F401

    if command != "datasets":
        from . import constraints, methods  # noqa: F401
        from .text import vectorize  # noqa: F401


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:       # said by the command's own parser, its --help listing what it takes
        given = list(sys.argv[1:] if argv is None else argv)
        before = given.index(args.command) if args.command in given else len(given)
        owner = parser if any(a in given[:before] for a in extra) else parser.subcommand(
            args.command)
        owner.error(f"unrecognized arguments: {' '.join(extra)}")
    # a '~' the shell left (quoted, or after '=' in --must-link=~/ml.csv), as _folder reads -o
    for name in ("input", "model", "must_link", "cannot_link", "outdir"):
        value = getattr(args, name, None)
        if isinstance(value, (str, Path)) and str(value).startswith("~"):
            setattr(args, name, type(value)(os.path.expanduser(value)))
    _load_libraries(args.command)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("docnmf: %(message)s"))
    root = logging.getLogger("docnmf")
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING if args.quiet else logging.INFO)
    root.propagate = False
    if getattr(args, "threads", None):
        from joblib import cpu_count
        from threadpoolctl import threadpool_limits

        # More threads than cores only make them wait on one another (OpenBLAS's and the
        # kernels' threads spin while they wait): ten times slower on 2 cores with 64. The
        # cores this process may use: its CPU affinity and a container's CPU quota
        cores = cpu_count()
        if args.threads > cores:
            print(f"docnmf: warning: --threads {args.threads} is more than the {cores} cores "
                  f"this process may use; using {cores}", file=sys.stderr)
            args.threads = cores
        threadpool_limits(limits=args.threads)
    try:
        with warnings.catch_warnings():
            warnings.showwarning = (_show_warning_with_flags if args.command == "cluster"
                                    else _show_warning)
            # a warning is a message of the command's, one line on standard error: under
            # PYTHONWARNINGS=error a skipped binary file stopped the command with a traceback
            warnings.filters[:] = [f for f in warnings.filters if f[0] != "error"]
            _check_current_folder()
            hook, sys.unraisablehook = sys.unraisablehook, _unraisable
            try:
                with _output_held(args):
                    return COMMANDS[args.command](args)
            finally:
                sys.unraisablehook = hook
    except (UsageError, _loaded_error("corpus", "CorpusError"),
            _loaded_error("constraints", "ConstraintError")) as exc:
        print(f"docnmf: error: {exc}", file=sys.stderr)
        return 2
    except _loaded_error("text.vectorize", "EmptyVocabularyError") as exc:
        print(f"docnmf: error: all documents are empty after preprocessing: {exc}", file=sys.stderr)
        return 2
    except MemoryError as exc:
        # (cluster's --max-documents caps the summaries alone)
        fewer = ("fewer documents (--max-documents)" if hasattr(args, "max_documents")
                 and args.command != "cluster" else "fewer documents")
        c99 = ("; --segmenter c99 compares every two sentences of a document, which a long "
               "document cannot afford: texttiling does not"
               if getattr(args, "segmenter", None) == "c99" else "")
        said = f" ({exc})" if str(exc) else ""
        if args.command == "assign":    # its model fixes the terms, clusters and segmenter
            print(f"docnmf: error: not enough memory to place these documents{said}; place "
                  "fewer or shorter ones at a time", file=sys.stderr)
            return 2
        print(f"docnmf: error: not enough memory for this run{said}; "
              f"try {fewer}, terms (--max-features) or clusters{c99}", file=sys.stderr)
        return 2


def _check_current_folder() -> None:
    """A usage error when the shell's current folder was removed (every relative path is then
    unreadable, and Python says so with a traceback)."""
    try:
        os.getcwd()
    except FileNotFoundError:
        raise UsageError("the current folder no longer exists (was it removed or replaced?); "
                         "cd to one that does") from None


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """A warning as one line on standard error, as the command's other messages."""
    print(f"docnmf: warning: {message}", file=sys.stderr)


#: An estimator's parameter, named in a warning, as ``cluster``'s option that sets it.
_PARAMETER_IN_WARNING = re.compile(
    r"(?<![\w./\\-])(" + "|".join(sorted([*_OPTION_FLAGS, "n_clusters"], key=len, reverse=True))
    + r")(?:=([^\s,;)/\\]+)(?=[\s,;)]|$)|(?![\w=/\\]|\.\w))")
#: A warning of an estimator's: its name first ("LCCFClustering: ...", "NMF did not converge"),
#: as no warning about files, paths or ids begins.
_ESTIMATOR_WARNING = re.compile(r"[A-Z][\w-]*(?::| did not converge)")


def _as_flags(text: str) -> str:
    """``text`` with the estimator parameters it names as ``cluster``'s options ("raise
    max_iter" -> "raise --max-iter", "n_neighbors=200" -> "--neighbors 200"); a bare name
    without an underscore ("tol", "kernel") is left alone, as it may be an ordinary word."""

    def flag(match: re.Match) -> str:
        name, value = match.group(1), match.group(2)
        if value is None and "_" not in name:
            return match.group(0)
        option = "-k" if name == "n_clusters" else _OPTION_FLAGS[name][1]
        return option if value is None else f"{option} {value}"

    return _PARAMETER_IN_WARNING.sub(flag, text)


def _show_warning_with_flags(message, category, filename, lineno, file=None,
                             line=None) -> None:
    """:func:`_show_warning` naming the estimator parameters as ``cluster``'s options, which
    are what its user can change, in an estimator's warnings only: a path was rewritten
    ("flagpath/max_iter" became "flagpath/--max-iter")."""
    text = str(message)
    if _ESTIMATOR_WARNING.match(text):
        text = _as_flags(text)
    _show_warning(text, category, filename, lineno, file, line)


if __name__ == "__main__":  # pragma: no cover
    # as python -m docnmf: its run() says a Ctrl-C as one line and status 130 in cases main()
    # alone cannot (python -m ended by the signal, status -2, after one left code run from a
    # string). Run as that module is, by name: an import of docnmf.__main__ here made the
    # command line import the layer above it (tests/test_architecture.py)
    import runpy

    runpy.run_module("docnmf", run_name="__main__")
