"""The ``docnmf`` command: argument parsing only; the work is done by the public API."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Sequence

__all__ = ["main"]

logger = logging.getLogger("docnmf")


class UsageError(Exception):
    """A user mistake: reported in one line with exit status 2, never as a traceback."""


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {value}")
    return value


def _df(text: str) -> int | float:
    value = float(text)
    return int(value) if value >= 1 and value == int(value) else value


def _add_corpus_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("input")
    g.add_argument("--text-column", default="text", help="CSV/JSONL column holding the text")
    g.add_argument("--label-column", default=None,
                   help="CSV/JSONL column holding labels (default: 'label' if present)")
    g.add_argument("--id-column", default=None,
                   help="CSV/JSONL column holding ids (default: 'id' if present, else row number)")


def _add_text_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("text pipeline")
    g.add_argument("--min-df", type=_df, default=2, help="drop terms in fewer documents (default 2)")
    g.add_argument("--max-df", type=_df, default=0.95,
                   help="drop terms in more than this fraction of documents (default 0.95)")
    g.add_argument("--max-features", type=_positive_int, default=None, help="vocabulary cap")
    g.add_argument("--tf", choices=["raw", "sublinear", "binary"], default="raw",
                   help="term frequency: raw counts as in Xu 2003 (default), 1+log, or binary")
    g.add_argument("--idf", choices=["xu", "smooth", "none"], default="xu",
                   help="idf: log(n/df) as in Xu 2003 (default), smoothed, or none")
    g.add_argument("--no-stem", action="store_true", help="turn Porter stemming off")
    g.add_argument("--keep-stop-words", action="store_true", help="keep English stop words")


def _add_dask_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("Dask (nmf and nmf-ncw on a cluster; needs pip install 'docnmf[dask]')")
    where = g.add_mutually_exclusive_group()
    where.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="run on the Dask cluster whose scheduler is at ADDRESS "
                            "(e.g. tcp://host:8786); its workers must see INPUT")
    where.add_argument("--dask-workers", type=_positive_int, default=None, metavar="N",
                       help="start a Dask cluster of N worker processes on this machine")
    g.add_argument("--files-per-partition", type=_positive_int, default=2000, metavar="N",
                   help="text files per partition when INPUT is a folder of documents "
                        "(default 2000); CSV/JSONL files are one partition each")


def _add_method_options(p: argparse.ArgumentParser, default_method: str) -> None:
    from .methods import METHODS

    g = p.add_argument_group("clustering")
    g.add_argument("--method", choices=list(METHODS), default=default_method,
                   help=f"clustering method (default {default_method})")
    g.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    g.add_argument("--restarts", type=_positive_int, default=10,
                   help="restarts from random starts; the lowest objective is kept (default 10; "
                        "NMF's default NNDSVD start is deterministic and runs once)")
    g.add_argument("--max-iter", type=_positive_int, default=None,
                   help="iterations per restart (default: the method's own, e.g. 500 for NMF, "
                        "1000 for CF/LCCF)")
    g.add_argument("--tol", type=float, default=None,
                   help="stop a restart when the relative objective decrease falls below this "
                        "(default: the method's own, 1e-5 for NMF and CF/LCCF)")
    g.add_argument("--keywords", type=_positive_int, default=10, help="keywords per cluster")
    g.add_argument("--solver", choices=["mu", "hals"], default=None,
                   help="NMF solver (nmf, nmf-ncw): hals, accelerated coordinate descent "
                        "(default), or mu, the paper's multiplicative updates")
    g.add_argument("--init", choices=["random", "nndsvd", "nndsvda", "nndsvdar"], default=None,
                   help="NMF starts (nmf, nmf-ncw): NNDSVD with zeros set to the mean "
                        "(nndsvda, default; deterministic, so one restart), kept or set to "
                        "small random values; or random (the paper)")
    g.add_argument("--dtype", choices=["float64", "float32"], default=None,
                   help="precision of the NMF factorization (nmf, nmf-ncw; float32 needs "
                        "--solver hals; default float64)")
    g.add_argument("--threads", type=_positive_int, default=None,
                   help="BLAS threads (default: every core)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="docnmf", description="Cluster document collections with non-negative matrix factorization.")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress messages")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("demo", help="cluster the embedded demo corpus and print a summary")
    _add_method_options(p, "nmf-ncw")
    p.add_argument("-o", "--output", type=Path, default=None,
                   help="also write the result files to this folder")

    p = sub.add_parser("cluster", help="cluster a folder, CSV/JSONL file or named dataset",
                       description="INPUT is a folder of text files (one subfolder per label, or "
                                   "flat), a .csv/.tsv/.jsonl file, or a dataset name from "
                                   "'docnmf datasets'.")
    p.add_argument("input", help="folder, CSV/JSONL file, or dataset name")
    p.add_argument("-k", "--clusters", type=int, required=True, help="number of clusters")
    p.add_argument("-o", "--output", type=Path, default=None,
                   help="output folder (default: docnmf-out/<input name>)")
    _add_method_options(p, "nmf-ncw")
    g = p.add_argument_group("concept factorization (--method cf, cf-ncw, lccf, lccf-ncw)")
    g.add_argument("--neighbors", type=_positive_int, default=None,
                   help="p of the p-nearest-neighbour graph (default 5, as the paper)")
    g.add_argument("--lam", type=float, default=None,
                   help="graph weight lambda (default 0.3, in units of the data term; "
                        "with --lam-scale none it is the paper's lambda, 100 there)")
    g.add_argument("--lam-scale", choices=["data", "none"], default=None,
                   help="scale lambda by the data term (default) or use it as given")
    g.add_argument("--kernel", choices=["linear", "poly2"], default=None,
                   help="kernel: linear (default; K is never formed) or <x, y>^2")
    g.add_argument("--labels", choices=["auto", "kmeans", "argmax"], default=None,
                   help="labels by k-means on V or argmax of V (default auto: k-means when "
                        "lambda > 0)")
    g = p.add_argument_group("documents as matrices (--method nma)")
    g.add_argument("--segments", type=_positive_int, default=None,
                   help="segments per document (default 3)")
    g.add_argument("--topics", type=_positive_int, default=None,
                   help="latent topics l1 = l2 of the factorization (default 6)")
    g.add_argument("--overlapping", action="store_true", default=None,
                   help="let a document join the clusters of its segments; "
                        "writes overlapping.csv")
    g = p.add_argument_group("constraints (semi-supervised methods: ssnmf, ss-kk, ss-snc)")
    g.add_argument("--must-link", type=Path, default=None, metavar="CSV",
                   help="pairs of document ids that belong together (two columns, header optional)")
    g.add_argument("--cannot-link", type=Path, default=None, metavar="CSV",
                   help="pairs of document ids that belong apart")
    _add_corpus_options(p)
    _add_text_options(p)
    _add_dask_options(p)

    sub.add_parser("datasets", help="list the named datasets and whether each was found")

    from .summarize.api import METHODS as SUMMARIZERS

    p = sub.add_parser("summarize", help="extractive summary of a group of documents",
                       description="Print a summary of all documents in INPUT (a folder, "
                                   "CSV/JSONL file, dataset name, or one text file) on standard "
                                   "output; diagnostics go to standard error.")
    p.add_argument("input", help="folder, CSV/JSONL file, dataset name, or a .txt file")
    p.add_argument("--length", default="665b",
                   help="length limit: bytes ('665b', as DUC 2004) or words ('100w')")
    p.add_argument("--method", choices=list(SUMMARIZERS), default="nmf",
                   help="sentence ranking (default nmf, the best NMF-family ranking on "
                        "DUC 2004; fsnmf: feature-subset NMF weights after the fit, "
                        "fsnmf-paper: Wang et al.'s alternating updates as printed)")
    p.add_argument("--fill", action="store_true",
                   help="cut the last sentence to fill the limit exactly, as DUC evaluations "
                        "do (default: whole sentences only)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    _add_corpus_options(p)


    p = sub.add_parser("keywords", help="a collection's top keywords and each cluster's",
                       description="Print the top keywords of all documents in INPUT (a folder, "
                                   "CSV/JSONL file or dataset name): FS-NMF feature weights "
                                   "(Wang, Ding & Li 2010, eq. 2) on an NMF-NCW factorization, "
                                   "then each NMF-NCW cluster's size and keywords.")
    p.add_argument("input", help="folder, CSV/JSONL file, or dataset name")
    p.add_argument("-k", "--clusters", type=int, required=True, help="number of clusters")
    p.add_argument("-n", "--keywords", type=_positive_int, default=10,
                   help="keywords per line (default 10)")
    p.add_argument("--alpha", type=float, default=0.7,
                   help="FS-NMF weight exponent in (0, 1) (default 0.7, as the paper)")
    p.add_argument("--min-df", type=_df, default=2, help="drop terms in fewer documents (default 2)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--restarts", type=_positive_int, default=10,
                   help="random restarts; the lowest objective is kept (default 10)")
    _add_corpus_options(p)

    p = sub.add_parser("reproduce", help="rerun a paper's clustering table and compare",
                       description="Run the evaluation protocol of a paper table (random k-class "
                                   "subsets, several methods) and write results.jsonl, report.md "
                                   "and plots. An interrupted run resumes where it stopped.")
    p.add_argument("table", nargs="?", help="table name (see --list)")
    p.add_argument("--list", action="store_true",
                   help="list the tables and whether their data is found")
    _add_protocol_options(p, from_table=True)
    p.add_argument("-o", "--output", type=Path, default=None,
                   help="output folder (default: docnmf-reproduce/<table>)")

    p = sub.add_parser("evaluate",
                       help="score methods on random k-class subsets of a labelled corpus",
                       description="Run the papers' protocol on any labelled corpus: for each k, "
                                   "cluster the documents of k randomly chosen classes with every "
                                   "method and report accuracy, NMI and purity.")
    p.add_argument("input", help="labelled folder, CSV/JSONL file, or dataset name")
    _add_protocol_options(p, from_table=False)
    p.add_argument("-o", "--output", type=Path, default=None,
                   help="output folder (default: docnmf-evaluate/<input name>)")
    _add_corpus_options(p)
    return parser


#: Defaults of ``evaluate``; ``reproduce`` takes them from the table (None here).
_EVALUATE_DEFAULTS = {"methods": "nmf,nmf-ncw", "k_range": None, "runs": 10, "restarts": 10,
                      "seed": 0, "weighting": "xu-subset"}


def _add_protocol_options(p: argparse.ArgumentParser, from_table: bool) -> None:
    from .experiments.conditions import WEIGHTINGS

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
    g.add_argument("--runs", type=_positive_int, default=d, help=h)
    d, h = default("restarts", "restarts per method")
    g.add_argument("--restarts", type=_positive_int, default=d, help=h)
    d, h = default("seed", "seed of the class choice and of the methods")
    g.add_argument("--seed", type=int, default=d, help=h)
    d, h = default("weighting", "comma-separated weightings: " + ", ".join(WEIGHTINGS))
    g.add_argument("--weighting", default=d, help=h)
    g.add_argument("--jobs", type=_positive_int, default=None,
                   help="worker processes (default: the number of CPUs)")


def _load_input(args):
    from .corpus import Corpus, read_corpus

    path = Path(args.input)
    if path.is_file() and path.suffix.lower() in (".txt", ".text"):
        # one plain text file is a corpus of one document
        from .corpus.readers import read_folder

        corpus = read_folder(path.parent, pattern=path.name)
        return Corpus(texts=corpus.texts, labels=[()], ids=[path.name],
                      metadata={"name": path.stem, "source": str(path)})
    options = {}
    suffix = Path(args.input).suffix.lower()
    if suffix in (".csv", ".tsv", ".jsonl", ".ndjson"):
        options = {"text_column": args.text_column, "label_column": args.label_column,
                   "id_column": args.id_column}
    return read_corpus(args.input, **options)


def _vectorizer_params(args) -> dict:
    return {"min_df": args.min_df, "max_df": args.max_df, "max_features": args.max_features,
            "tf": args.tf, "idf": args.idf, "stem": not args.no_stem,
            "stop_words": None if args.keep_stop_words else "english"}


#: The estimator options the command line sets: parameter name -> (argparse dest, flag).
_OPTION_FLAGS = {
    "n_init": ("restarts", "--restarts"), "max_iter": ("max_iter", "--max-iter"),
    "tol": ("tol", "--tol"), "solver": ("solver", "--solver"), "init": ("init", "--init"),
    "dtype": ("dtype", "--dtype"), "n_neighbors": ("neighbors", "--neighbors"),
    "lam": ("lam", "--lam"), "lam_scale": ("lam_scale", "--lam-scale"),
    "kernel": ("kernel", "--kernel"), "labels": ("labels", "--labels"),
    "n_segments": ("segments", "--segments"), "n_topics": ("topics", "--topics"),
    "overlapping": ("overlapping", "--overlapping"),
}


def _estimator_params(args) -> dict:
    """The options given on the command line, checked against what ``--method`` takes.

    An option left at its default (None) is not passed, so each method keeps
    its own default; ``--restarts`` always is (every method has restarts).
    """
    from .methods import MethodOptionError, method_spec

    given = {name: getattr(args, dest, None) for name, (dest, _) in _OPTION_FLAGS.items()}
    params = {name: value for name, value in given.items() if value is not None}
    spec = method_spec(args.method)
    try:
        spec.check_options(params)
    except MethodOptionError as exc:
        flags = ", ".join(_OPTION_FLAGS[name][1] for name in exc.options)
        why = f" ({exc})" if set(exc.options) <= set(spec.fixed) else ""
        users = ", ".join(m.name for m in _methods_taking(exc.options))
        raise UsageError(f"{flags} does not apply to {args.method}{why}"
                         + (f"; methods that take it: {users}" if users else "")) from None
    if params.get("dtype") == "float32" and params.get("solver") == "mu":
        raise UsageError("--dtype float32 needs --solver hals (mu runs in float64 only)")
    return {**params, "verbose": 1}


def _methods_taking(options) -> list:
    """The registered methods that take every one of ``options``."""
    from .methods import METHODS

    return [m for m in METHODS.values() if set(options) <= set(m.parameters())]


def _constraint_pairs(corpus, args) -> dict:
    """``must_link`` / ``cannot_link`` index pairs read from the files given on the command line."""
    from .constraints import Constraints, read_constraint_pairs
    from .methods import METHODS

    files = {"must_link": getattr(args, "must_link", None),
             "cannot_link": getattr(args, "cannot_link", None)}
    if not any(files.values()):
        return {}
    if not METHODS[args.method].constraints:
        supported = ", ".join(m for m, spec in METHODS.items() if spec.constraints)
        raise UsageError(f"--must-link/--cannot-link need a semi-supervised method ({supported}), "
                         f"not {args.method}")
    out = {}
    for key, path in files.items():
        if path is not None:
            if not path.is_file():
                raise UsageError(f"no such constraint file: {path}")
            out[key] = read_constraint_pairs(path, corpus.ids)
    # check now, before any work, and name documents by id in what is reported
    Constraints(len(corpus), out.get("must_link"), out.get("cannot_link"), names=corpus.ids)
    return out


def _run(corpus, k: int, args, vectorizer_params: dict, outdir: Path | None) -> int:
    from .pipeline import cluster_corpus, format_summary, write_run

    if len(corpus) == 0:
        raise UsageError("the corpus has no documents")
    if k < 2:
        raise UsageError(f"-k must be at least 2, got {k}")
    if k > len(corpus):
        raise UsageError(f"-k {k} is more than the {len(corpus)} documents")
    logger.info("clustering %d documents into %d clusters with %s (%d restarts)",
                len(corpus), k, args.method, args.restarts)
    run = cluster_corpus(corpus, k, args.method, random_state=args.seed,
                         estimator_params=_estimator_params(args),
                         fit_params=_constraint_pairs(corpus, args),
                         vectorizer_params=vectorizer_params, n_keywords=args.keywords)
    print(format_summary(run))
    if outdir is not None:
        _write(write_run, run, outdir)
    return 0


def _write(write, run, outdir: Path) -> None:
    """``write(run, outdir)``, a folder that cannot be written reported as a usage error."""
    try:
        paths = write(run, outdir)
    except OSError as exc:
        raise UsageError(f"cannot write to {outdir}: {exc.strerror or exc}") from None
    print(f"\nwrote {', '.join(str(p) for p in paths)}")


def _cmd_demo(args) -> int:
    from .corpus.demo import load_demo

    corpus = load_demo()
    return _run(corpus, corpus.n_classes, args, {"min_df": 2, "max_df": 0.95}, args.output)


def _cmd_cluster(args) -> int:
    if args.scheduler or args.dask_workers:
        return _cmd_cluster_dask(args)
    logger.info("reading %s", args.input)
    corpus = _load_input(args)
    outdir = args.output or Path("docnmf-out") / _safe_name(corpus.metadata.get("name") or args.input)
    return _run(corpus, args.clusters, args, _vectorizer_params(args), outdir)


def _dask_client(args):
    """A client of the scheduler named on the command line, or of a new local cluster."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise UsageError("--scheduler and --dask-workers need Dask: "
                         "pip install 'docnmf[dask]'") from None
    if args.scheduler:
        try:
            return Client(args.scheduler, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise UsageError(f"cannot reach the Dask scheduler at {args.scheduler}: {exc}") \
                from None
    cluster = LocalCluster(n_workers=args.dask_workers, threads_per_worker=1, processes=True,
                           dashboard_address=":0")
    return Client(cluster)


def _cmd_cluster_dask(args) -> int:
    from .distributed import DistributedFitError, PartitionedCorpus
    from .distributed.pipeline import (DASK_METHODS, cluster_partitioned,
                                       format_partitioned_summary, write_partitioned_run)

    if args.method not in DASK_METHODS:
        raise UsageError(f"--scheduler/--dask-workers run {', '.join(DASK_METHODS)}; "
                         f"{args.method} runs in memory only")
    if args.clusters < 2:
        raise UsageError(f"-k must be at least 2, got {args.clusters}")
    params = _estimator_params(args)
    if params.get("dtype") == "float32":
        raise UsageError("--dtype float32 runs in memory only; the Dask solvers run in float64")
    if not Path(args.input).exists():
        raise UsageError(f"--scheduler/--dask-workers read a folder or CSV/JSONL files; "
                         f"no such file or folder: {args.input}")
    corpus = PartitionedCorpus.from_path(
        args.input, files_per_partition=args.files_per_partition, text_column=args.text_column,
        label_column=args.label_column, id_column=args.id_column)
    outdir = args.output or Path("docnmf-out") / _safe_name(corpus.name)
    client = _dask_client(args)
    try:
        logger.info("Dask dashboard: %s (%d workers)", client.dashboard_link,
                    len(client.scheduler_info()["workers"]))
        logger.info("clustering %s (%d partitions) into %d clusters with %s", args.input,
                    corpus.n_partitions, args.clusters, args.method)
        run = cluster_partitioned(corpus, args.clusters, args.method, client=client,
                                  random_state=args.seed, estimator_params=params,
                                  vectorizer_params=_vectorizer_params(args),
                                  n_keywords=args.keywords)
        if run.params["n_docs"] < args.clusters:
            raise UsageError(f"-k {args.clusters} is more than the {run.params['n_docs']} "
                             "documents")
        print(format_partitioned_summary(run))
        _write(write_partitioned_run, run, outdir)
        return 0
    except DistributedFitError as exc:
        print(f"docnmf: error: {exc}", file=sys.stderr)
        return 1
    finally:
        cluster = getattr(client, "cluster", None)
        client.close()
        if cluster is not None and args.dask_workers:
            cluster.close()


def _texts_of(args) -> list[str]:
    corpus = _load_input(args)
    if corpus.texts is None:
        raise UsageError(f"{args.input} is a count matrix without texts")
    if len(corpus) == 0:
        raise UsageError("the corpus has no documents")
    return corpus.texts


def _cmd_summarize(args) -> int:
    from .summarize.api import summarize_texts
    from .summarize.rouge import parse_length

    try:
        parse_length(args.length)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    texts = _texts_of(args)
    logger.info("summarizing %d documents with %s, limit %s", len(texts), args.method, args.length)
    summary = summarize_texts(texts, length=args.length, method=args.method,
                              random_state=args.seed, policy="truncate" if args.fill else "skip")
    if not summary:
        raise UsageError("no sentence long enough to summarize was found")
    print(summary)
    return 0


def _cmd_keywords(args) -> int:
    from .summarize.api import keywords_report

    if not 0.0 < args.alpha < 1.0:
        raise UsageError(f"--alpha must lie in (0, 1), got {args.alpha}")
    texts = _texts_of(args)
    if args.clusters < 2:
        raise UsageError(f"-k must be at least 2, got {args.clusters}")
    if args.clusters > len(texts):
        raise UsageError(f"-k {args.clusters} is more than the {len(texts)} documents")
    logger.info("finding keywords of %d documents in %d clusters", len(texts), args.clusters)
    print(keywords_report(texts, args.clusters, n_keywords=args.keywords, alpha=args.alpha,
                          n_init=args.restarts, random_state=args.seed, min_df=args.min_df))
    return 0


def _cmd_datasets(args) -> int:
    from .corpus import data_dir, list_datasets

    infos = list_datasets()
    width = max(len(i.name) for i in infos)
    print(f"data folder: {data_dir()}  (set DOCNMF_DATA to change it)\n")
    for info in infos:
        print(f"{info.name:<{width}}  {'found  ' if info.found else 'missing'}  {info.description}")
    return 0


def _comma_list(text: str, what: str, known) -> list[str]:
    items = [t.strip() for t in text.split(",") if t.strip()]
    if not items:
        raise UsageError(f"no {what} given")
    for item in items:
        if item not in known:
            raise UsageError(f"unknown {what} {item!r}; choose from {', '.join(known)}")
    return items


def _k_range(text: str) -> tuple[int, ...]:
    try:
        values: list[int] = []
        for part in text.split(","):
            lo, sep, hi = part.strip().partition("-")
            values += list(range(int(lo), int(hi) + 1)) if sep else [int(lo)]
    except ValueError:
        raise UsageError(f"--k-range expects e.g. 2-10 or 2,4,6, got {text!r}") from None
    if not values:
        raise UsageError(f"--k-range {text!r} contains no cluster number")
    return tuple(sorted(set(values)))


def _run_experiment(protocol, outdir: Path, args, *, spec=None, data=None) -> int:
    from .experiments import ProtocolError, format_compact, run_protocol, write_report

    try:
        result = run_protocol(protocol, outdir / "results.jsonl", jobs=args.jobs, data=data)
    except ProtocolError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot write to {outdir}: {exc.strerror or exc}") from None
    paths = write_report(outdir, result, protocol, spec=spec)
    print(format_compact(result, protocol, spec))
    print(f"\nreport: {paths[0]}")
    return 0


def _cmd_reproduce(args) -> int:
    from .experiments import TABLES, WEIGHTINGS
    from .experiments.targets import TargetOptions, all_targets
    from .methods import METHODS

    targets = all_targets()
    if args.list:
        width = max(len(name) for name in [*TABLES, *targets])
        for name, spec in TABLES.items():
            found = "found  " if spec.condition.available() else "missing"
            print(f"{name:<{width}}  {found}  {spec.title}  [data: {spec.condition.source}]")
        for name, target in targets.items():
            found = "found  " if target.available() else "missing"
            print(f"{name:<{width}}  {found}  {target.title}  [data: {target.source}]")
        return 0
    if not args.table:
        raise UsageError("give a table name, or --list to see them")
    if args.table in targets:
        target = targets[args.table]
        if not target.available():
            raise UsageError(f"the data of {target.name} is not found ({target.source}); "
                             "set DOCNMF_DATA")
        outdir = args.output or Path("docnmf-reproduce") / target.name
        from .experiments import ProtocolError

        try:
            report = target.run(outdir, TargetOptions(runs=args.runs, restarts=args.restarts,
                                                      seed=args.seed, jobs=args.jobs))
        except ProtocolError as exc:
            raise UsageError(str(exc)) from None
        print(f"report: {report}")
        return 0
    if args.table not in TABLES:
        raise UsageError(f"unknown table {args.table!r}; choose from "
                         f"{', '.join([*TABLES, *targets])}")
    spec = TABLES[args.table]
    methods = (_comma_list(args.methods, "method", list(METHODS)) if args.methods
               else [m for m in spec.methods if m in METHODS])
    if not methods:
        raise UsageError(f"none of the methods of {spec.name} is available")
    protocol = spec.protocol(
        methods=methods, runs=args.runs, restarts=args.restarts, seed=args.seed,
        k_values=_k_range(args.k_range) if args.k_range else None,
        weightings=_comma_list(args.weighting, "weighting", list(WEIGHTINGS))
        if args.weighting else None)
    outdir = args.output or Path("docnmf-reproduce") / spec.name
    logger.info("%s: %s; %d runs per k, %d restarts, weightings %s", spec.name, spec.title,
                protocol.runs, protocol.restarts, ", ".join(protocol.weightings))
    return _run_experiment(protocol, outdir, args, spec=spec)


def _cmd_evaluate(args) -> int:
    from .experiments import WEIGHTINGS, DataCondition, Protocol, ProtocolError, prepare_data
    from .methods import METHODS

    methods = _comma_list(args.methods, "method", list(METHODS))
    weightings = _comma_list(args.weighting, "weighting", list(WEIGHTINGS))
    k_values = _k_range(args.k_range) if args.k_range else None
    options = {}
    if Path(args.input).suffix.lower() in (".csv", ".tsv", ".jsonl", ".ndjson"):
        options = {"text_column": args.text_column, "label_column": args.label_column,
                   "id_column": args.id_column}
    name = _safe_name(args.input)
    condition = DataCondition(name, str(args.input), tuple(options.items()))
    try:
        data = prepare_data(condition)
    except ProtocolError as exc:
        raise UsageError(str(exc)) from None
    if data.n_classes < 2:
        raise UsageError(f"{args.input} has {data.n_classes} class; the evaluation needs at least 2")
    if k_values is None:
        k_values = tuple(range(2, min(10, data.n_classes) + 1))
    protocol = Protocol(condition, tuple(methods), k_values, args.runs, args.restarts, args.seed,
                        tuple(weightings))
    outdir = args.output or Path("docnmf-evaluate") / name
    return _run_experiment(protocol, outdir, args, data=data)


def _safe_name(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in Path(str(name)).name) or "corpus"


COMMANDS = {"demo": _cmd_demo, "cluster": _cmd_cluster, "datasets": _cmd_datasets,
            "reproduce": _cmd_reproduce, "evaluate": _cmd_evaluate,
            "summarize": _cmd_summarize, "keywords": _cmd_keywords}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``docnmf`` command; returns the exit status."""
    from .constraints import ConstraintError
    from .corpus import CorpusError
    from .text.vectorize import EmptyVocabularyError

    args = build_parser().parse_args(argv)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("docnmf: %(message)s"))
    root = logging.getLogger("docnmf")
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING if args.quiet else logging.INFO)
    root.propagate = False
    if getattr(args, "threads", None):
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=args.threads)
    try:
        return COMMANDS[args.command](args)
    except (UsageError, CorpusError, ConstraintError) as exc:
        print(f"docnmf: error: {exc}", file=sys.stderr)
        return 2
    except EmptyVocabularyError as exc:
        print(f"docnmf: error: all documents are empty after preprocessing: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("docnmf: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
