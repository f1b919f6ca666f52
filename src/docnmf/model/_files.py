"""Model folders: ``model.json`` (what the model is) and ``arrays.npz`` (its numbers).

Why this format and not pickle, joblib or skops: loading a pickle runs
whatever code the file names, and skops' safe format, which avoids that,
asks the user to vouch for every class a file names that is not on its
own list, which docnmf's estimators are not; it also stores objects as
their Python attributes, so a file would break when an estimator's
insides change. Here the file says which registered estimator it holds,
its parameters and the fitted values placing documents needs
(``_placement_state``) and what the fit found (``_fit_results``: labels,
memberships, objectives), as JSON and plain numeric arrays, under a format
version. Loading builds the estimator from docnmf's own registry (a name
outside it is refused), sets only the attributes the estimator declares,
reads arrays with ``allow_pickle=False`` and checks their SHA-256 against
``model.json``; any other content is refused before anything is built.
Both files can be read from any language.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import tempfile
import time
import warnings
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from .._version import __version__
from ..io import swap_folders
from ..methods import METHODS
from ..text.vectorize import DocumentVectorizer
from ._codec import (ArrayStore, ModelFormatError, ModelSaveError, decode_params, decode_value,
                     encode_params, encode_value)
from ._pipeline import ClusteringModel, method_mismatch, width_mismatch

__all__ = ["FORMAT", "FORMAT_VERSION", "MODEL_FILE", "ARRAYS_FILE", "save", "load",
           "model_folder"]

FORMAT = "docnmf-model"
#: The version written; a file of a higher version is refused with a clear error. 2: the
#: estimator's input scale (``scale_exponent_``) and the text rules (``text_rules``) are
#: recorded, which a docnmf reading version 1 would refuse as an unknown attribute or ignore.
FORMAT_VERSION = 2
MODEL_FILE, ARRAYS_FILE = "model.json", "arrays.npz"


#: What new input is checked and scaled by, kept for every estimator: the column names of a
#: DataFrame it was fitted on (a reloaded estimator refuses reordered columns as the fitted
#: one does), and the power of two the fit scaled ``X`` by (new documents are scaled alike).
_INPUT_CHECKS = ("feature_names_in_", "scale_exponent_")


def _estimator_classes() -> dict[str, type]:
    """The estimators a model file may name: those of the registered methods that place documents."""
    return {m.estimator.__name__: m.estimator for m in METHODS.values()
            if m.places_new_documents}


def _method_of(model: ClusteringModel) -> str | None:
    mismatch = method_mismatch(model.estimator, model.method)
    if mismatch:        # what load would refuse
        raise ModelSaveError(mismatch)
    return model.method


def _encode(model: ClusteringModel, store: ArrayStore) -> dict[str, Any]:
    est = model.estimator
    name = type(est).__name__
    if _estimator_classes().get(name) is not type(est):
        if hasattr(est, "steps"):       # a scikit-learn Pipeline: what users try first
            raise ModelSaveError(f"{name}: docnmf saves a fitted docnmf estimator with its "
                                 "vectorizer as ClusteringModel(estimator, vectorizer), not a "
                                 "scikit-learn Pipeline")
        raise ModelSaveError(f"{name} cannot place new documents; docnmf saves only estimators "
                             "that can (see Method.places_new_documents)")
    blocker = est._placement_blocker()
    if blocker:
        raise ModelSaveError(blocker)
    if not hasattr(est, "n_features_in_") and not hasattr(est, "vectorizer_"):
        raise ModelSaveError(f"{name} is not fitted")
    mismatch = width_mismatch(est, model.vectorizer)
    if mismatch:
        raise ModelSaveError(mismatch)
    state = {attr: encode_value(getattr(est, attr), f"estimator.{attr}", store)
             for attr in (*est._placement_state, *_INPUT_CHECKS) if hasattr(est, attr)}
    for attr in est._fit_results:
        if hasattr(est, attr) and attr not in state:
            found = _fit_result(getattr(est, attr), f"estimator.{attr}", store)
            if found is not None:
                state[attr] = found
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION, "docnmf_version": __version__,
        "saved": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "method": _method_of(model),
        "text_rules": model.text_rules,
        "estimator": {"class": name, "params": encode_params(_quiet(est.get_params(deep=False)),
                                                             name),
                      "state": state},
        "vectorizer": (None if model.vectorizer is None
                       else encode_value(model.vectorizer, "vectorizer", store)),
        "info": _plain_info(model.info),
    }


def _quiet(params: dict[str, Any]) -> dict[str, Any]:
    """Parameters to save: ``verbose`` at 0. It says how a fit logs its progress, which the
    command line turns on; a loaded model cloned and fitted in a library logged to its user's
    standard error."""
    return {**params, "verbose": 0} if "verbose" in params else params


def _plain_info(info: Any) -> Any:
    """``info`` as JSON values (other objects by their text); a number JSON cannot hold (NaN,
    infinity) is refused rather than written as a token no JSON reader takes."""
    try:
        return json.loads(json.dumps(info, default=str, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise ModelSaveError(f"the model's info cannot be saved as JSON: {exc}") from None


def _fit_result(value: Any, key: str, store: ArrayStore) -> dict[str, Any] | None:
    """The record of a fit result, or None for one that is not numbers (left out: placing
    documents does not need it)."""
    if isinstance(value, (list, tuple)):
        try:
            value = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError):
            return None
    if value is None or (isinstance(value, np.ndarray) and value.dtype.kind not in "biuf"):
        return None
    try:
        return encode_value(value, key, store)
    except ModelSaveError:
        return None


def _npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    return buf.getvalue()


def _in_memory(model):
    """A model fitted on a Dask cluster as the in-memory estimator and vectorizer it holds
    (``DaskNMFClustering``'s topics place each new document alone, as ``NMFClustering``'s);
    any other model as it is."""
    if not isinstance(model, ClusteringModel):
        return model._in_memory() if hasattr(model, "_in_memory") else model
    est, vec = model.estimator, model.vectorizer
    if not (hasattr(est, "_in_memory") or hasattr(vec, "_in_memory")):
        return model
    return ClusteringModel(est._in_memory() if hasattr(est, "_in_memory") else est,
                           vec._in_memory() if hasattr(vec, "_in_memory") else vec,
                           model.method, model.info)


def save(model, path: str | os.PathLike) -> Path:
    """Write a fitted model to the folder ``path``: ``model.json`` and ``arrays.npz``.

    ``model`` is a :class:`ClusteringModel` (vectorizer and estimator: texts
    in) or a bare fitted estimator (matrices in); one fitted on Dask
    (``DaskNMFClustering``, ``DaskVectorizer``) is saved as the in-memory
    model it stands for, and loads as one. The folder appears whole
    or not at all; an existing model folder at ``path`` holding the model's
    two files alone is replaced, any other existing folder (one holding other
    files too) is left alone (:class:`ModelSaveError`).

    Raises
    ------
    ModelSaveError
        For an estimator that cannot place new documents (spectral methods,
        kernel k-means, the topic models, precomputed or callable kernels).
    """
    path = Path(path)
    model = _in_memory(model)
    bare = not isinstance(model, ClusteringModel)
    wrapped = ClusteringModel(model) if bare else model
    store = ArrayStore()
    record = _encode(wrapped, store)
    try:        # what load will check, now: a model is never written that cannot be read back
        _decode_estimator(record["estimator"], ArrayStore(dict(store.arrays)))
    except ModelFormatError as exc:
        raise ModelSaveError(f"the fitted estimator would not load back: {exc} (were its "
                             "parameters changed after fit, with set_params? fit it again before "
                             "saving)") from None
    record["kind"] = "estimator" if bare else "pipeline"
    data = _npz_bytes(store.arrays)
    record["arrays"] = {"file": ARRAYS_FILE, "sha256": hashlib.sha256(data).hexdigest()}
    text = json.dumps(record, indent=1, ensure_ascii=False, allow_nan=False) + "\n"
    if path.exists() and not (path.is_dir() and ((path / MODEL_FILE).is_file()
                                                 or not any(path.iterdir()))):
        raise ModelSaveError(f"{path} exists and is not a docnmf model folder; not overwritten")
    try:
        others = sorted(set(os.listdir(path)) - {MODEL_FILE, ARRAYS_FILE}) if path.is_dir() \
            else []
    except OSError as exc:      # a folder that may not be listed: a PermissionError's traceback
        raise ModelSaveError(f"cannot read the folder {path}: {exc.strerror or exc}") from None
    if others:      # the folder is replaced whole: they would go with it
        shown = ", ".join(others[:3]) + (", ..." if len(others) > 3 else "")
        raise ModelSaveError(f"{path} holds files besides the model ({shown}); not overwritten: "
                             "move them out or save the model elsewhere")
    here = Path.cwd().resolve()
    if path.resolve() == here or path.resolve() in here.parents:
        # the folder is replaced whole, by renames: not the one this process works in
        raise ModelSaveError(f"{path} is the current folder or holds it; give a folder of "
                             f"its own for the model, e.g. {path / 'model'}")
    staging = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".tmp",
                                        dir=path.parent))
        (staging / ARRAYS_FILE).write_bytes(data)
        (staging / MODEL_FILE).write_text(text, encoding="utf-8", errors="backslashreplace")
        os.chmod(staging, 0o777 & ~_umask())
        _replace_folder(staging, path)
        if staging.exists():        # the old model, swapped out
            shutil.rmtree(staging, ignore_errors=True)
    except BaseException:
        # an OSError stays one: the folder could not be written (a full disk, a refused
        # permission), which docnmf cluster reports as it reports its other files
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        raise
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _replace_folder(new: Path, path: Path) -> None:
    """Put the folder ``new`` at ``path``: swapped with the old one in one step where the
    system can (:func:`docnmf.io.swap_folders`; ``new`` then holds the old model, which the
    caller removes), else the old one moved aside, then removed."""
    if path.is_dir() and not path.is_symlink() and swap_folders(new, path):
        return
    old = None
    if path.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".old", dir=path.parent))
        os.rmdir(old)
        os.rename(path, old)
    try:
        os.rename(new, path)
    except BaseException:
        if old is not None:     # the old model goes back: the save failed, not it
            os.rename(old, path)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def model_folder(path: str | os.PathLike) -> Path:
    """The model folder ``path`` names: the folder itself, its ``model.json``, or a result
    folder of ``docnmf cluster`` holding ``model/``."""
    path = Path(path)
    for candidate in (path, path / "model"):
        try:
            found = (candidate / MODEL_FILE).is_file()
        except OSError as exc:          # a folder that may not be read (permission)
            raise ModelFormatError(f"cannot read {candidate}: {exc.strerror or exc}") from None
        if found:
            return candidate
    if path.name == MODEL_FILE and path.is_file():
        return path.parent
    if not path.exists():
        hint = (f" (the model of the result folder {path.parent} is {path.parent / 'model'}, "
                f"or give {path.parent} itself)"
                if path.name == MODEL_FILE and (path.parent / "model" / MODEL_FILE).is_file()
                else "")
        raise ModelFormatError(f"no such model: {path}{hint}")
    raise ModelFormatError(_no_model_reason(path) or f"{path} is not a docnmf model (no "
                           f"{MODEL_FILE}; docnmf never loads pickle or joblib files)")


def _no_model_reason(path: Path) -> str:
    """Why ``path``, a result folder of 'docnmf cluster' without ``model/``, holds no model;
    empty for any other folder."""
    run_json = path / "run.json"
    if not run_json.is_file() or (path / "model").exists():
        return ""
    try:
        record = json.loads(run_json.read_text(encoding="utf-8"))
        method, packages = record["parameters"]["method"], record.get("packages", {})
    except (ValueError, KeyError, TypeError, OSError, RecursionError):
        return ""
    if "dask" in packages:
        return (f"{path} holds no model: it was clustered on Dask by a version of docnmf "
                "that saved none there; cluster it again to get one")
    if record.get("no_model_because"):
        return f"{path} holds no model: {record['no_model_because']}"
    spec = METHODS.get(method)
    if spec is not None and not spec.places_new_documents:      # an earlier version's
        return (f"{path} holds no model: it was clustered with {method}, which cannot "
                "place new documents")
    # (the folder's model/ removed: it said no more than this)
    return (f"{path} holds no model: its model folder, which docnmf cluster writes for "
            f"{method}, is missing; cluster again to get one")


def _read_record(folder: Path) -> dict[str, Any]:
    try:
        # utf-8-sig: a byte-order mark, which some editors save, was "not valid JSON"
        record = json.loads((folder / MODEL_FILE).read_text(encoding="utf-8-sig"))
    except OSError as exc:
        raise ModelFormatError(f"cannot read {folder / MODEL_FILE}: {exc.strerror or exc}"
                               ) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelFormatError(f"{folder / MODEL_FILE} is not valid JSON: {exc}") from None
    except (ValueError, RecursionError) as exc:     # e.g. lists nested thousands deep
        raise ModelFormatError(f"{folder / MODEL_FILE} cannot be read as JSON: "
                               f"{type(exc).__name__}: {str(exc)[:200]}") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ModelFormatError(f"{folder / MODEL_FILE} is not a docnmf model file")
    version = record.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ModelFormatError(f"{folder / MODEL_FILE}: unknown format version {version!r}")
    if version > FORMAT_VERSION:
        raise ModelFormatError(
            f"{folder / MODEL_FILE} has format version {version}, written by docnmf "
            f"{record.get('docnmf_version', '?')}; this docnmf ({__version__}) reads versions "
            f"up to {FORMAT_VERSION}: upgrade docnmf to load it")
    return record


class _Mismatch(ModelFormatError):
    """arrays.npz is not the one model.json names."""


def _read_arrays(folder: Path, record: dict[str, Any]) -> ArrayStore:
    meta = record.get("arrays")
    if not isinstance(meta, dict) or meta.get("file") != ARRAYS_FILE:
        raise ModelFormatError(f"{folder / MODEL_FILE} does not name its arrays file")
    if (folder / ARRAYS_FILE).exists() and not (folder / ARRAYS_FILE).is_file():
        # a named pipe waited for ever for a writer; a device (/dev/zero) never ends
        raise ModelFormatError(f"{folder / ARRAYS_FILE} is not a regular file")
    try:
        data = (folder / ARRAYS_FILE).read_bytes()
    except OSError as exc:
        raise ModelFormatError(f"cannot read {folder / ARRAYS_FILE}: {exc.strerror}") from None
    if hashlib.sha256(data).hexdigest() != meta.get("sha256"):
        raise _Mismatch(f"{folder / ARRAYS_FILE} does not match {MODEL_FILE} (its SHA-256 "
                               "differs): the model files were changed or mixed up")
    try:
        npz = np.load(io.BytesIO(data), allow_pickle=False)
    except (ValueError, OSError, zipfile.BadZipFile, EOFError) as exc:
        raise ModelFormatError(f"{folder / ARRAYS_FILE} holds something other than plain numeric "
                               f"arrays ({exc})") from None
    return ArrayStore(_Members(npz, folder / ARRAYS_FILE))


class _Members(Mapping):
    """The arrays of an arrays file, each decompressed when the model first names it: one it
    does not name is never read (a file of a few hundred KB can hold a member of gigabytes)."""

    def __init__(self, npz, path: Path):
        self._npz, self._path, self._read = npz, path, {}

    def __contains__(self, key) -> bool:
        return key in self._npz.files

    def __iter__(self):
        return iter(self._npz.files)

    def __len__(self) -> int:
        return len(self._npz.files)

    def __getitem__(self, key: str) -> np.ndarray:
        if key not in self._read:
            if key not in self:
                raise KeyError(key)
            try:
                self._read[key] = self._npz[key]
            except (ValueError, OSError, zipfile.BadZipFile, EOFError) as exc:
                # allow_pickle=False: an object array (a pickle) is refused here, never unpickled
                raise ModelFormatError(f"{self._path} holds something other than plain numeric "
                                       f"arrays ({exc})") from None
            except MemoryError as exc:     # (the size is the .npy header's: maybe edited)
                raise ModelFormatError(f"not enough memory to read the array {key!r} of "
                                       f"{self._path} ({exc})") from None
        return self._read[key]


def _decode_estimator(record: Any, store: ArrayStore):
    if not isinstance(record, dict):
        raise ModelFormatError("the model has no estimator")
    name = record.get("class")
    cls = _estimator_classes().get(name) if isinstance(name, str) else None
    if cls is None:
        raise ModelFormatError(f"unknown estimator class {name!r}; a model may hold one of "
                               f"{', '.join(sorted(_estimator_classes()))}")
    params = decode_params(record.get("params", {}), cls().get_params(deep=False), name)
    if "n_clusters" not in params:      # (the class's default, 8, was then named in errors)
        raise ModelFormatError(f"the saved {name} does not say its number of clusters "
                               "(n_clusters)")
    try:
        estimator = cls(**params)
    except TypeError as exc:
        raise ModelFormatError(f"bad parameters for {name}: {exc}") from None
    state = record.get("state")
    if not isinstance(state, dict):
        raise ModelFormatError(f"the state of {name} must be a JSON object")
    for attr, value in state.items():
        if attr not in cls._placement_state and attr not in cls._fit_results \
                and attr not in _INPUT_CHECKS:
            raise ModelFormatError(f"{name} has no saved attribute {attr!r}")
        # what the fit found may hold a diverged restart's NaN; what places documents may not
        setattr(estimator, attr, decode_value(value, store, finite=attr not in cls._fit_results))
    _check_params(estimator, name)
    _check_non_negative(estimator, name)
    _check_placement(estimator, name)
    _check_saved_results(estimator, name)
    return estimator


def _check_non_negative(estimator, name: str) -> None:
    """The saved arrays a fit gives non-negative (an idf, a factorization's factors, the mean
    documents of tf-idf) must be so: an idf edited to its negative placed the demo's documents
    at an accuracy of 0.425 instead of 0.988, without a word."""
    for attr in estimator._non_negative_state:
        value = getattr(estimator, attr, None)
        if not (isinstance(value, np.ndarray) and value.dtype.kind == "f" and value.size):
            continue
        # a fit's rounding leaves -6.5e-17 beside entries of 1 (CF with k-means labels)
        if value.min() < -1e-9 * float(np.abs(value).max()):
            raise ModelFormatError(f"the saved {name}'s {attr} holds negative numbers, which a "
                                   "fit does not give: was the model edited?")


def _check_params(estimator, name: str) -> None:
    """The saved parameters pass the checks fitting makes (an edited ``max_iter=-1`` or
    ``labels='x'`` is refused on load, not met later)."""
    labels = getattr(estimator, "labels_", None)
    n_docs = len(labels) if isinstance(labels, np.ndarray) and labels.ndim == 1 else None
    try:
        estimator._check_params(n_docs if n_docs else estimator.n_clusters)
        # what fit accepts of what a file can hold (save writes any other seed as None)
        seed = estimator.get_params(deep=False).get("random_state")
        if seed is not None and (not isinstance(seed, int) or seed < 0):
            raise ValueError(f"random_state must be None or a non-negative integer, got {seed!r}")
    except (ValueError, TypeError) as exc:
        raise ModelFormatError(f"bad parameters for {name}: {exc}") from None


#: The shape each numeric fit result has (``n``: the documents fitted, ``k``: the clusters).
_RESULT_SHAPES = {"labels_": ("n",), "memberships_": ("n", "k"), "objective_": (),
                  "n_iter_": (), "restart_objectives_": (None,), "loss_history_": (None,)}


def _check_saved_results(estimator, name: str) -> None:
    """What keywords and a placement's record read besides placing: term weights of one row
    per cluster and one column per term, and the fit's results in the shapes a fit gives them
    (an entry edited out or reshaped fails here, as a format error, not later in numpy)."""
    k = estimator.n_clusters
    width = getattr(estimator, "n_features_in_", None)
    vectorizer = getattr(estimator, "vectorizer_", None)
    if width is None and getattr(vectorizer, "vocabulary_", None) is not None:
        width = len(vectorizer.vocabulary_)
    if estimator._keyword_attribute is not None:
        try:
            weights = np.shape(estimator._keyword_weights())
            keywords = estimator.top_keywords(None if width is None
                                              else [f"t{j}" for j in range(width)], 1)
        except Exception as exc:        # an attribute edited out, whatever it is called
            raise ModelFormatError(f"the saved {name} cannot give keywords "
                                   f"({type(exc).__name__}: {exc})") from None
        if len(weights) != 2 or (width is not None and weights[1] != width) \
                or len(keywords) != k:
            raise ModelFormatError(f"the saved {name} has term weights of shape {weights}, "
                                   f"which do not give keywords for {k} clusters of {width} "
                                   "terms")
    labels = getattr(estimator, "labels_", None)
    sizes = {"k": k, "n": np.shape(labels)[0] if np.ndim(labels) == 1 else None}
    for attr, shape in _RESULT_SHAPES.items():
        if not hasattr(estimator, attr):
            continue
        got = np.shape(getattr(estimator, attr))
        expected = tuple(sizes.get(d) if isinstance(d, str) else d for d in shape)
        if len(got) != len(expected) or any(e is not None and g != e
                                            for g, e in zip(got, expected)):
            raise ModelFormatError(f"the saved {name}'s {attr} has shape {got}, expected "
                                   f"{tuple('any' if e is None else e for e in expected)}")


def _check_placement(estimator, name: str) -> None:
    """Place one probe document: the saved parameters and numbers must fit together (an edited
    ``n_clusters`` or an array of another shape fails here, as a format error, rather than
    later inside numpy). Estimators that place texts (NMA) place a text."""
    n_features = getattr(estimator, "n_features_in_", None)
    if n_features is not None and (isinstance(n_features, bool)
                                   or not isinstance(n_features, (int, np.integer))
                                   or n_features < 1):
        raise ModelFormatError(f"the saved {name}'s n_features_in_ is {n_features!r}, not a "
                               "number of terms")
    if n_features is not None:
        probe = np.ones((1, int(n_features)))
    elif estimator._reads_texts:
        probe = ["a probe document"]
    else:
        return
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            placed = np.asarray(estimator.predict_memberships(probe))
    except Exception as exc:    # whatever the saved numbers break: one format error
        raise ModelFormatError(f"the saved {name} cannot place a document: its parameters and "
                               f"arrays do not fit together ({type(exc).__name__}: {exc})"
                               ) from None
    if placed.shape != (1, estimator.n_clusters):
        raise ModelFormatError(f"the saved {name} places a document in {placed.shape[-1]} "
                               f"clusters, but n_clusters is {estimator.n_clusters!r}")
    if not np.all(np.isfinite(placed)):
        raise ModelFormatError(f"the saved {name} gives a document memberships that are not "
                               "finite numbers")


def load(path: str | os.PathLike):
    """Read a model written by :func:`save` (or by ``docnmf cluster -o OUT``: pass ``OUT``).

    Returns the :class:`ClusteringModel` or the bare estimator that was saved.
    Nothing in the files is executed: see the module's description.

    Raises
    ------
    ModelFormatError
        For anything but a model folder of a format version this docnmf reads.
    """
    folder = model_folder(path)
    record = _read_record(folder)
    try:
        store = _read_arrays(folder, record)
    except _Mismatch:
        # the folder replaced whole (docnmf cluster -o, save) between the reads of its two
        # files: read the new one; files that disagree as they stand are refused
        again = _read_record(folder)
        if again == record:
            raise
        record, store = again, _read_arrays(folder, again)
    estimator = _decode_estimator(record.get("estimator"), store)
    if record.get("kind") == "estimator":
        return estimator
    if record.get("kind") != "pipeline":
        raise ModelFormatError(f"unknown model kind {record.get('kind')!r}")
    method = record.get("method")
    mismatch = method_mismatch(estimator, method)
    if mismatch:
        raise ModelFormatError(f"the saved method does not match the saved estimator: {mismatch}")
    vectorizer = record.get("vectorizer")
    vectorizer = None if vectorizer is None else decode_value(vectorizer, store)
    if vectorizer is not None and not isinstance(vectorizer, DocumentVectorizer):
        raise ModelFormatError("the model's vectorizer is not a vectorizer record")
    mismatch = width_mismatch(estimator, vectorizer)
    if mismatch:
        raise ModelFormatError(mismatch)
    if vectorizer is None and not hasattr(estimator, "vectorizer_"):
        raise ModelFormatError("the model has no vectorizer: it cannot read documents")
    info = record.get("info") if isinstance(record.get("info"), dict) else {}
    rules = record.get("text_rules", 0)     # version 1 did not record them
    if not isinstance(rules, int) or isinstance(rules, bool) or rules < 0:
        raise ModelFormatError(f"{folder / MODEL_FILE}: text_rules must be a whole number "
                               f"from 0, not {rules!r}")
    return ClusteringModel(estimator, vectorizer, method, info, text_rules=rules)
