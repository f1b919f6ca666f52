"""Reproduction targets of the FS-NMF paper: Figure 1 and Table 2.

Wang, Ding & Li, "Feature subset non-negative matrix factorization and its
applications to document understanding" (SIGIR 2010), Section 3.

* ``wang2010-fig1``: pairwise document similarities on CSTR computed from
  only the top 20 word features chosen by FS-NMF, by NMF and by LSI,
  documents ordered by class (Section 3.3).
* ``wang2010-table2``: clustering accuracy (Kuhn-Munkres) on CSTR, WebACE
  and Reuters (Section 3.1). The Log data set (1367 documents) is not
  available and is not run.

Every data set is cut to 1000 terms, the dimension of the paper's Table 1:
CSTR already has 1000; for the CLUTO WebACE matrix (k1a) and Reuters the
1000 terms with the largest total count are kept. Documents are tf-idf
weighted as in Xu et al. (2003) with unit-length rows.

Seeds: run ``r`` of method ``m`` on data set ``d`` uses
``SeedSequence([seed, crc32(d), crc32(m), r])``, so a number does not
depend on the other methods or data sets run, nor on the order or the
process the runs are computed in. Table 2 appends every finished run to
``results.jsonl`` in its output folder and reuses the runs found there.
"""

from __future__ import annotations

import io
import logging
import os
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np
import scipy.sparse as sp

from ..methods import make_estimator
from ..io import atomic_write_bytes, atomic_write_text, write_json
from ..metrics import clustering_accuracy
from .results import ResultsFile
from .runner import derive_seed, run_tasks
from .targets import Target, TargetOptions, register_target

__all__ = ["PAPER", "PAPER_TABLE2", "Dataset", "prepare_cstr", "prepare_webace",
           "prepare_reuters", "select_features", "similarity_matrix", "run_figure1",
           "run_table2", "table2_key", "table2_params"]

logger = logging.getLogger(__name__)

PAPER = ("Wang, Ding & Li, Feature Subset Non-negative Matrix Factorization and its "
         "Applications to Document Understanding, SIGIR 2010")

ROWS = ("K-means", "PCA-Km", "LDA-Km", "ECC", "MSRC", "NMF", "Ncut", "FS-NMF")
COLUMNS = ("WebACE", "Log", "Reuters", "CSTR")

#: Table 2 as printed: accuracy by method (rows) and data set (columns, in the printed order).
PAPER_TABLE2: dict[str, dict[str, float]] = {
    row: dict(zip(COLUMNS, values)) for row, values in zip(ROWS, zip(
        (0.4081, 0.4432, 0.4774, 0.4081, 0.4432, 0.4774, 0.4513, 0.5577),   # WebACE
        (0.6979, 0.6562, 0.7198, 0.7228, 0.5655, 0.7608, 0.7574, 0.7715),   # Log
        (0.4360, 0.3925, 0.5142, 0.4968, 0.4516, 0.4047, 0.4890, 0.4697),   # Reuters
        (0.5210, 0.5630, 0.5630, 0.5210, 0.5630, 0.5630, 0.5435, 0.6996),   # CSTR
    ))
}

#: Methods of Table 2 we run, by row: registry name (see :mod:`docnmf.methods`).
METHODS = {"K-means": "km", "PCA-Km": "pca-km", "LDA-Km": "lda-km", "ECC": "ecc",
           "MSRC": "msrc", "NMF": "nmf", "Ncut": "nc", "FS-NMF": "fsnmf-paper"}
#: Rows we add below the paper's: FS-NMF as docnmf runs it by default (fit, then weigh).
EXTRA_ROWS = {"FS-NMF (fit, then weigh)": "fsnmf"}
#: Rows of Table 2 shown with the paper's numbers only (none at present).
NOT_IMPLEMENTED: tuple[str, ...] = ()

N_FEATURES = 1000
REUTERS_DOCS, REUTERS_CLASSES = 2900, 10
DATA_SEED = 2006


@dataclass(frozen=True)
class Dataset:
    """A prepared data set: unit-row tf-idf ``X`` (documents x terms), class codes, term names."""

    name: str
    X: sp.csr_matrix
    y: np.ndarray
    classes: list[str]
    terms: list[str] | None
    description: str

    @property
    def n_classes(self) -> int:
        return len(self.classes)


def _top_columns(counts: sp.csr_matrix, n: int) -> np.ndarray:
    totals = np.asarray(counts.sum(axis=0)).ravel()
    return np.sort(np.argsort(-totals, kind="stable")[:n])


def _from_counts(name: str, corpus, description: str, n_features: int = N_FEATURES) -> Dataset:
    from ..text.weighting import tfidf_xu2003

    counts = sp.csr_matrix(corpus.counts, dtype=np.float64)
    cols = _top_columns(counts, n_features)
    X = sp.csr_matrix(tfidf_xu2003(counts[:, cols]))
    y, classes = corpus.label_array()
    vocab = getattr(corpus, "vocabulary", None)
    terms = [str(vocab[j]) for j in cols] if vocab is not None else None
    return Dataset(name, X, y, list(classes), terms, description)


def prepare_cstr(data_home=None) -> Dataset:
    """CSTR (475 abstracts, 4 classes, 1000 terms), as distributed with cclust."""
    from ..corpus import load_dataset

    return _from_counts("CSTR", load_dataset("cstr", data_home=data_home),
                        "CSTR (cclust/cstr.mat): 475 abstracts, 4 classes, 1000 terms")


def prepare_webace(data_home=None) -> Dataset:
    """WebACE as CLUTO's k1a (2340 pages, 20 classes), cut to the 1000 most frequent terms."""
    from ..corpus import load_dataset

    return _from_counts("WebACE", load_dataset("cluto_k1a", data_home=data_home),
                        "WebACE = CLUTO k1a: 2340 web pages, 20 classes; the 1000 terms with "
                        "the largest total count of its 21839")


def reuters_subset(y: np.ndarray, n_docs: int = REUTERS_DOCS, n_classes: int = REUTERS_CLASSES,
                   seed: int = DATA_SEED) -> np.ndarray:
    """Indices of a class-proportional sample of ``n_docs`` documents of the largest classes.

    Each of the ``n_classes`` largest classes gives its share of ``n_docs``
    (largest remainders make the total exact), drawn without replacement.

    Examples
    --------
    >>> y = np.array([0] * 60 + [1] * 30 + [2] * 10)
    >>> idx = reuters_subset(y, n_docs=20, n_classes=2, seed=0)
    >>> np.bincount(y[idx]).tolist()
    [13, 7]
    """
    sizes = np.bincount(y[y >= 0])
    top = np.argsort(-sizes, kind="stable")[:n_classes]
    share = sizes[top] / sizes[top].sum() * n_docs
    take = np.floor(share).astype(int)
    for i in np.argsort(-(share - take), kind="stable")[: n_docs - take.sum()]:
        take[i] += 1
    rng = np.random.default_rng(seed)
    picked = [rng.choice(np.flatnonzero(y == c), size=t, replace=False) for c, t in zip(top, take)]
    return np.sort(np.concatenate(picked))


def prepare_reuters(data_home=None) -> Dataset:
    """A 2900-document, 10-class Reuters-21578 subset (see :func:`reuters_subset`)."""
    from ..corpus import load_dataset
    from ..text.vectorize import DocumentVectorizer

    corpus = load_dataset("reuters21578_single", data_home=data_home)
    y_all, names = corpus.label_array()
    idx = reuters_subset(y_all)
    sub = corpus.subset(idx)
    vec = DocumentVectorizer(min_df=2, max_features=N_FEATURES)
    X = sp.csr_matrix(vec.fit_transform(sub.texts))
    y, classes = sub.label_array()
    terms = list(vec.readable_feature_names(sub.texts))
    desc = ("Reuters-21578 raw SGML, single-topic documents (as `reuters21578_single`); the 10 "
            f"largest topics ({', '.join(classes)}); a class-proportional random sample of "
            f"{len(y)} documents (seed {DATA_SEED}); the {X.shape[1]} most frequent stemmed terms "
            "without stop words, tf-idf, unit rows. Li & Ding (2006) give only '2900 documents, "
            "10 classes', so the sample itself cannot be matched")
    return Dataset("Reuters", X, y, list(classes), terms, desc)


DATASETS: dict[str, Callable[..., Dataset]] = {
    "CSTR": prepare_cstr, "WebACE": prepare_webace, "Reuters": prepare_reuters}
_SOURCES = {"CSTR": "cstr", "WebACE": "cluto_k1a", "Reuters": "reuters21578_single"}


def available_datasets(data_home=None) -> list[str]:
    from ..corpus import list_datasets

    found = {d.name for d in list_datasets(data_home) if d.found}
    return [name for name, source in _SOURCES.items() if source in found]


# --- Figure 1 ----------------------------------------------------------------------------------


def select_features(X, k: int, method: str, n: int = 20, *, random_state: int = 0,
                    n_init: int = 3, max_iter: int = 300) -> np.ndarray:
    """Indices of the ``n`` word features a method picks.

    * ``"fsnmf-paper"``: the largest FS-NMF weights, the paper's alternating
      updates (eqs. 2-4 to convergence).
    * ``"fsnmf"``: the largest FS-NMF weights of :class:`FSNMFClustering`'s
      default, eq. 2 on the converged fit with relative residuals.
    * ``"nmf"``: the largest entries of the unit-length NMF centroids, taken in
      turn from each of the ``k`` columns of ``U``.
    * ``"lsi"``: the largest absolute loadings of the top ``k`` right singular
      vectors, taken in turn from each.
    """
    X = sp.csr_matrix(X, dtype=np.float64)
    if method in ("fsnmf", "fsnmf-paper", "nmf"):
        options = {"max_iter": max_iter} if method != "nmf" else {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = make_estimator(method, k, n_init=n_init, random_state=random_state,
                                   as_published=True, **options).fit(X)
        if method != "nmf":
            return model.feature_ranking_[:n]
        return _round_robin(model.components_, n)
    if method == "lsi":
        from scipy.sparse.linalg import svds

        rng = np.random.default_rng(random_state)
        _, _, Vt = svds(X, k=k, v0=rng.random(min(X.shape)))
        return _round_robin(np.abs(Vt), n)
    raise ValueError(f"unknown feature selection {method!r}")


def _round_robin(scores: np.ndarray, n: int) -> np.ndarray:
    """Take the best remaining feature of each row in turn until ``n`` are chosen."""
    orders = [list(np.argsort(-row, kind="stable")) for row in scores]
    chosen: list[int] = []
    pos = [0] * len(orders)
    while len(chosen) < min(n, scores.shape[1]):
        for r, order in enumerate(orders):
            while pos[r] < len(order) and order[pos[r]] in chosen:
                pos[r] += 1
            if pos[r] < len(order) and len(chosen) < n:
                chosen.append(int(order[pos[r]]))
    return np.asarray(chosen)


def similarity_matrix(X, features: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Cosine similarities of the documents (in ``order``) on the chosen features only."""
    Z = sp.csr_matrix(X)[:, features][order].toarray()
    norms = np.linalg.norm(Z, axis=1)
    Z = Z / np.where(norms > 0, norms, 1.0)[:, None]
    return Z @ Z.T


def block_contrast(S: np.ndarray, y_sorted: np.ndarray) -> tuple[float, float]:
    """Mean similarity within classes and between classes (diagonal excluded)."""
    same = y_sorted[:, None] == y_sorted[None, :]
    off = ~np.eye(len(y_sorted), dtype=bool)
    return float(S[same & off].mean()), float(S[~same].mean())


FIG1_PANELS = (("fsnmf-paper", "(a) FS-NMF, the paper's alternating updates"),
               ("fsnmf", "(a') FS-NMF, eq. 2 after the fit (default)"),
               ("nmf", "(b) NMF"), ("lsi", "(c) LSI"))


def _plot_similarities(mats: Sequence[tuple[str, np.ndarray]], boundaries: Sequence[int]) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(4.0 * len(mats), 4.3), layout="constrained")
    FigureCanvasAgg(fig)
    for ax, (title, S) in zip(fig.subplots(1, len(mats), squeeze=False).ravel(), mats):
        ax.imshow(S, cmap="viridis", vmin=0.0, vmax=1.0, interpolation="nearest")
        for b in boundaries:
            ax.axhline(b - 0.5, color="w", lw=0.6)
            ax.axvline(b - 0.5, color="w", lw=0.6)
        ax.set_title(title, fontsize=9)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    return buf.getvalue()


def run_figure1(outdir: str | os.PathLike, options: TargetOptions = TargetOptions(), *,
                data: Dataset | None = None, data_home=None) -> Path:
    """Figure 1: similarity matrices of CSTR on the top 20 features of each method."""
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    data = prepare_cstr(data_home) if data is None else data
    seed = 0 if options.seed is None else options.seed
    restarts = 3 if options.restarts is None else options.restarts
    order = np.argsort(data.y, kind="stable")
    y_sorted = data.y[order]
    boundaries = np.flatnonzero(np.diff(y_sorted)) + 1
    mats, rows, record = [], [], {}
    for method, title in FIG1_PANELS:
        t0 = time.perf_counter()
        feats = select_features(data.X, data.n_classes, method, random_state=seed,
                                n_init=restarts)
        S = similarity_matrix(data.X, feats, order)
        within, between = block_contrast(S, y_sorted)
        words = [data.terms[j] for j in feats] if data.terms else [str(j) for j in feats]
        mats.append((title, S))
        record[method] = {"features": feats.tolist(), "words": words, "within": within,
                          "between": between, "seconds": round(time.perf_counter() - t0, 3)}
        rows.append(f"| {title} | {within:.3f} | {between:.3f} | {within - between:.3f} | "
                    f"{', '.join(words)} |")
    try:
        atomic_write_bytes(outdir / "fig1.png", _plot_similarities(mats, boundaries))
        image = ["![Figure 1](fig1.png)", ""]
    except ImportError:
        logger.warning("matplotlib is not installed: no fig1.png (pip install 'docnmf[plot]')")
        image = ["(matplotlib is not installed: no image; pip install 'docnmf[plot]')", ""]
    write_json(outdir / "results.json", {"target": "wang2010-fig1", "paper": PAPER,
                                         "seed": seed, "restarts": restarts, "panels": record})
    out = ["# Figure 1 of the FS-NMF paper: document similarities on CSTR from 20 features", "",
           f"Paper: {PAPER}, Section 3.3, Figure 1.", "",
           "Cosine similarity of every pair of documents computed on the top 20 word features "
           "a method picks; documents ordered by class (white lines: class boundaries). The "
           "paper shows (a) FS-NMF, (b) NMF, (c) LSI and reports that FS-NMF's features "
           "reveal the 4 classes as diagonal blocks, NMF's show no pattern, and LSI's miss "
           "the first two clusters. Panel (a') adds FSNMFClustering's default solver.",
           ""] + image + [
           "| panel | mean within-class | mean between-class | contrast | the 20 features |",
           "|---|---:|---:|---:|---|"] + rows + ["",
           "## How features are chosen", "",
           "- FS-NMF, the paper's updates: largest diagonal weights W of FS-NMF (eqs. 1-4, "
           "alpha = 0.7, alternated to convergence). Eq. 1 has a trivial zero minimum; the "
           "updates move the weight onto a few rare, well-fitted terms (see "
           "`FSNMFClustering`), so these are not the paper's features.",
           "- FS-NMF, default solver: eqs. 3-4 at equal weights to convergence, then eq. 2 on "
           "each term's residual relative to its squared norm.",
           "- NMF: the paper does not say how NMF picks features; we take the largest "
           "entries of the k unit-length centroids (columns of U), one from each in turn.",
           "- LSI: the largest absolute loadings of the k leading right singular vectors, "
           "one from each in turn.", "",
           "## Data", "", f"- {data.description}; tf-idf (Xu 2003), unit rows."
           + ("" if data.terms else " The file has no vocabulary: features are column indices."),
           f"- seed {seed}, {restarts} restarts per factorization."]
    return atomic_write_text(outdir / "report.md", "\n".join(out) + "\n")


# --- Table 2 -----------------------------------------------------------------------------------


def _estimator(method: str, k: int, random_state: int, restarts: int):
    options = {"max_iter": 300} if method in ("fsnmf", "fsnmf-paper") else {}
    return make_estimator(method, k, random_state=random_state, n_init=restarts,
                          as_published=True, **options)


def run_one(data: Dataset, method: str, run: int, *, seed: int, restarts: int) -> dict[str, Any]:
    """One run of one method on one data set, as a record."""
    rs = derive_seed(seed, data.name, method, run)
    model = _estimator(method, data.n_classes, rs, restarts)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t0 = time.perf_counter()
        labels = model.fit_predict(data.X)
        seconds = time.perf_counter() - t0
    sizes = np.bincount(labels, minlength=data.n_classes)
    return {"dataset": data.name, "method": method, "run": run, "seed": seed,
            "restarts": restarts, "random_state": rs, "accuracy":
            clustering_accuracy(data.y, labels), "largest_cluster": int(sizes.max()),
            "empty_clusters": int((sizes == 0).sum()), "seconds": round(seconds, 3),
            "warnings": sorted({f"{w.category.__name__}: {w.message}" for w in caught})}


def table2_key(record: dict[str, Any]) -> tuple[str, str, int]:
    """What identifies a run of Table 2: (data set, method, run).

    Examples
    --------
    >>> table2_key({"dataset": "CSTR", "method": "ecc", "run": 2, "accuracy": 0.5})
    ('CSTR', 'ecc', 2)
    """
    return (record["dataset"], record["method"], int(record["run"]))


def table2_params(seed: int, restarts: int) -> dict[str, Any]:
    """Everything besides (data set, method, run) that changes a Table 2 number."""
    return {"target": "wang2010-table2", "seed": seed, "restarts": restarts,
            "n_features": N_FEATURES, "reuters": {"docs": REUTERS_DOCS,
                                                  "classes": REUTERS_CLASSES,
                                                  "sample_seed": DATA_SEED}}


def _run_in(context, task: tuple[str, str, int]) -> dict[str, Any]:
    datasets, seed, restarts = context
    name, method, run = task
    return run_one(datasets[name], method, run, seed=seed, restarts=restarts)


def _execute(todo: Sequence[tuple[str, str, int]], datasets: Mapping[str, Dataset], *,
             seed: int, restarts: int, jobs: int) -> Iterable[dict[str, Any]]:
    """Yield the record of every (data set, method, run) as it finishes."""
    needed = {name: datasets[name] for name, _, _ in todo}
    for _, record in run_tasks(_run_in, todo, (needed, seed, restarts), jobs=jobs,
                               describe=lambda t: f"{t[0]} {t[1]} run {t[2]}"):
        yield record


def run_table2(outdir: str | os.PathLike, options: TargetOptions = TargetOptions(), *,
               datasets: Mapping[str, Dataset] | None = None, data_home=None,
               methods: Sequence[str] | None = None) -> Path:
    """Table 2: clustering accuracy on CSTR, WebACE and Reuters.

    Every finished run is appended to ``outdir/results.jsonl``; runs already
    there (same seed, restarts and data settings) are reused, so an
    interrupted or extended invocation computes only what is missing.
    ``options.jobs > 1`` computes runs in that many worker processes.
    """
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    runs = 3 if options.runs is None else options.runs
    restarts = 3 if options.restarts is None else options.restarts
    seed = 0 if options.seed is None else options.seed
    jobs = options.jobs or 1
    if datasets is None:
        datasets = {name: DATASETS[name](data_home) for name in available_datasets(data_home)}
    all_rows = {**METHODS, **EXTRA_ROWS}
    rows = [r for r in all_rows if methods is None or all_rows[r] in methods]
    plan = [(name, all_rows[row], r) for name in datasets for row in rows for r in range(runs)]
    with ResultsFile(outdir / "results.jsonl", table2_params(seed, restarts),
                     key=table2_key) as results:
        done = {table2_key(r): r for r in results.open()}
        todo = [task for task in plan if task not in done]
        if len(todo) < len(plan):
            logger.info("%s: reusing %d of %d runs", results.path, len(plan) - len(todo),
                        len(plan))
        for n, record in enumerate(_execute(todo, datasets, seed=seed, restarts=restarts,
                                            jobs=jobs), start=1):
            results.append(record)
            done[table2_key(record)] = record
            logger.info("[%d/%d] %s %s run %d: AC %.4f (%.1fs)", n, len(todo),
                        record["dataset"], record["method"], record["run"], record["accuracy"],
                        record["seconds"])
    records = [done[task] for task in plan]
    write_json(outdir / "results.json", {"target": "wang2010-table2", "paper": PAPER,
                                         "runs": records})
    cols = [c for c in COLUMNS if c != "Log"]
    out = ["# Table 2 of the FS-NMF paper: clustering accuracy", "",
           f"Paper: {PAPER}, Section 3.1, Table 2.", "",
           f"Ours: mean ± std of accuracy over {runs} runs ({restarts} restarts each, seed "
           f"{seed}); paper's number in brackets. The Log data set is not available.", "",
           "| method | " + " | ".join(cols) + " |", "|---|" + "---:|" * len(cols)]
    for row in [*ROWS, *EXTRA_ROWS]:
        cells = []
        for col in cols:
            paper = f"({PAPER_TABLE2[row][col]:.4f})" if row in PAPER_TABLE2 else "(–)"
            accs = [r["accuracy"] for r in records
                    if r["dataset"] == col and r["method"] == all_rows.get(row)]
            if row in NOT_IMPLEMENTED:
                cells.append(f"not implemented yet {paper}")
            elif accs:
                cells.append(f"{np.mean(accs):.4f} ± {np.std(accs):.4f} {paper}")
            else:
                cells.append(f"– {paper}")
        out.append(f"| {row} | " + " | ".join(cells) + " |")
    collapsed = [r for r in records if r["method"] == "fsnmf-paper"]
    out += ["", "Paper's Log column (not run): " + ", ".join(
        f"{row} {PAPER_TABLE2[row]['Log']:.4f}" for row in ROWS) + ".", ""]
    if collapsed:
        share = np.mean([r["largest_cluster"] / len(datasets[r["dataset"]].y)
                         for r in collapsed])
        empty = np.mean([r["empty_clusters"] / datasets[r["dataset"]].n_classes
                         for r in collapsed])
        out += [f"FS-NMF runs with the paper's updates: the largest cluster holds {share:.0%} "
                f"of the documents and {empty:.0%} of the clusters are empty (means over runs "
                "and data sets). Eq. 1 has a trivial zero minimum and the updates drift "
                "towards it, putting the weight on a few rare terms, so the clusters follow "
                "those terms. The paper's FS-NMF numbers are not reproduced by the updates as "
                "printed. The row below them is docnmf's default FS-NMF solver: eqs. 3-4 at "
                "equal weights to convergence (NMF), then one eq. 2 step; its clusters are "
                "NMF's, so it can only match the NMF row.", ""]
    out += ["## Data", ""] + [f"- {d.name}: {d.description}." for d in datasets.values()]
    out += ["", "## Methods", "",
            "- K-means (`km`), PCA-Km (`pca-km`: k-means on the first k principal component "
            "scores), NMF (`nmf`: Xu et al. 2003, argmax labels), Ncut (`nc`: normalized-cut "
            "spectral clustering), FS-NMF (`FSNMFClustering`, alpha = 0.7, at most 300 rounds; "
            "`solver=\"alternating\"` for the paper's row, the default `\"fit-then-weigh\"` "
            "for the row we add).",
            "- LDA-Km (`lda-km`, Ding & Li 2007): k-means in a (k-1)-dimensional subspace and "
            "Fisher LDA on its labels alternate, starting from PCA-Km, until the labels stop "
            "changing; LDA works in the top 100 principal components (its scatter matrices "
            "are singular on 1000 terms).",
            "- ECC (`ecc`) and MSRC (`msrc`): minimum sum-squared residue co-clustering (Cho "
            "et al. 2004) with residue a_ij - a_IJ (type I) and a_ij - a_iJ - a_Ij + a_IJ "
            "(type II), batch row and column updates, k document and k term clusters, "
            "k-means++ starts.",
            "- The paper does not say how many runs it averages; its table's column order is "
            "taken as printed in the text conversion (WebACE, Log, Reuters, CSTR)."]
    return atomic_write_text(outdir / "report.md", "\n".join(out) + "\n")


# --- registration ------------------------------------------------------------------------------


def _cstr_available() -> bool:
    return "CSTR" in available_datasets()


register_target(Target("wang2010-fig1", "FS-NMF paper, Figure 1: CSTR similarity matrices from "
                       "the top 20 features of FS-NMF, NMF and LSI", PAPER, _cstr_available,
                       run_figure1, "CSTR (cclust/cstr.mat)"))
register_target(Target("wang2010-table2", "FS-NMF paper, Table 2: clustering accuracy on CSTR, "
                       "WebACE, Reuters", PAPER, lambda: bool(available_datasets()), run_table2,
                       "CSTR (cclust), WebACE = CLUTO k1a, Reuters-21578 SGML; Log not available"))
