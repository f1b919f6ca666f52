"""A model's values as JSON and numeric arrays, and back; nothing read is ever executed.

JSON holds scalars, strings and lists; every array goes to an NPZ file
read with ``allow_pickle=False`` and checked to be numeric. The only
objects rebuilt are those this module names: sparse matrices (from their
three arrays) and fitted :class:`~docnmf.text.vectorize.DocumentVectorizer`
instances (from their parameters, vocabulary and idf).
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..text.vectorize import DocumentVectorizer, check_df

__all__ = ["ArrayStore", "ModelFormatError", "ModelSaveError", "decode_params", "decode_value",
           "encode_params", "encode_value"]

_SCALARS = (type(None), bool, int, float, str)
_VECTORIZER = "DocumentVectorizer"


class ModelFormatError(ValueError):
    """A file that is not a model this docnmf can read: another format, a newer version,
    malformed or unsafe content (pickled objects, unknown classes or attributes)."""


class ModelSaveError(ValueError):
    """An estimator or value that cannot be written as a safe model file."""


class ArrayStore:
    """The arrays of one model file: filled while encoding, read (checked) while decoding."""

    def __init__(self, arrays: dict[str, np.ndarray] | None = None):
        self.arrays: dict[str, np.ndarray] = {} if arrays is None else arrays

    def put(self, key: str, array: np.ndarray) -> str:
        array = np.asarray(array)
        if array.dtype.kind not in "biuf":
            raise ModelSaveError(f"cannot save {key}: arrays of {array.dtype} are not numeric")
        self.arrays[key] = array   # np.save keeps Fortran order: the same BLAS paths on load
        return key

    def get(self, key: Any, finite: bool = True) -> np.ndarray:
        """The array ``key``; numeric, and with ``finite`` free of NaN and infinity (what
        placing a document computes with: a NaN there crashes native code downstream)."""
        if not isinstance(key, str) or key not in self.arrays:
            raise ModelFormatError(f"the model names an array {key!r} that its arrays file "
                                   "does not hold")
        array = self.arrays[key]
        if array.dtype.kind not in "biuf":
            raise ModelFormatError(f"array {key!r} is of type {array.dtype}, not numeric")
        if finite and array.dtype.kind == "f" and not np.all(np.isfinite(array)):
            raise ModelFormatError(f"array {key!r} holds NaN or infinite values")
        return array


def _plain(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def encode_value(value: Any, key: str, store: ArrayStore) -> dict[str, Any]:
    """A JSON record of ``value``; its arrays go to ``store`` under names starting with ``key``."""
    value = _plain(value)
    if isinstance(value, _SCALARS) and not (isinstance(value, float) and not math.isfinite(value)):
        return {"kind": "json", "value": value}
    if isinstance(value, np.ndarray) and value.ndim == 1 and value.dtype.kind in "OU" \
            and all(isinstance(v, str) for v in value):
        # column names (feature_names_in_): text in the JSON, no object array in the NPZ
        return {"kind": "strings", "value": [str(v) for v in value]}
    if isinstance(value, (float, np.ndarray)):
        return {"kind": "array", "key": store.put(key, np.asarray(value))}
    if sp.issparse(value):
        csr = sp.csr_matrix(value)
        return {"kind": "csr", "shape": [int(n) for n in csr.shape],
                "data": store.put(f"{key}.data", csr.data),
                "indices": store.put(f"{key}.indices", csr.indices),
                "indptr": store.put(f"{key}.indptr", csr.indptr)}
    if isinstance(value, DocumentVectorizer):
        return {"kind": "vectorizer", **encode_vectorizer(value, key, store)}
    raise ModelSaveError(f"cannot save {key}: a {type(value).__name__} is not a value docnmf "
                         "writes to a model file")


def decode_value(record: Any, store: ArrayStore, finite: bool = True) -> Any:
    """The value a record of :func:`encode_value` stands for; ``finite``: its arrays must hold
    finite numbers (see :meth:`ArrayStore.get`)."""
    kind = record.get("kind") if isinstance(record, dict) else None
    if kind == "json":
        value = record.get("value")
        if not isinstance(value, _SCALARS):
            raise ModelFormatError(f"a JSON value of a model must be a number, string, boolean "
                                   f"or null, not {type(value).__name__}")
        # (Python's JSON reads NaN and Infinity: an edited graph weight of NaN placed every
        # document in cluster 0)
        if finite and isinstance(value, float) and not math.isfinite(value):
            raise ModelFormatError(f"a number of the model that places documents is {value}")
        return value
    if kind == "array":
        return store.get(record.get("key"), finite)
    if kind == "strings":
        value = record.get("value")
        if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            raise ModelFormatError("a list of names in the model must hold strings only")
        return np.asarray(value, dtype=object)
    if kind == "csr":
        shape = record.get("shape")
        if not (isinstance(shape, list) and len(shape) == 2
                and all(isinstance(n, int) and n >= 0 for n in shape)):
            raise ModelFormatError(f"bad sparse matrix shape {shape!r}")
        try:
            matrix = sp.csr_matrix((store.get(record.get("data"), finite),
                                    store.get(record.get("indices")),
                                    store.get(record.get("indptr"))), shape=tuple(shape))
            matrix.check_format(full_check=True)    # indices in range: native code trusts them
            return matrix
        except (ValueError, TypeError) as exc:
            raise ModelFormatError(f"a sparse matrix of the model is malformed: {exc}") from None
    if kind == "vectorizer":
        return decode_vectorizer(record, store)
    raise ModelFormatError(f"unknown kind of value {kind!r} in the model")


def encode_vectorizer(vectorizer: DocumentVectorizer, key: str, store: ArrayStore) -> dict:
    """A fitted vectorizer: its parameters, vocabulary (column order), readable names and idf."""
    if not hasattr(vectorizer, "vocabulary_"):
        raise ModelSaveError(f"cannot save {key}: the vectorizer is not fitted")
    return {"params": _vectorizer_params(vectorizer),
            "vocabulary": [str(t) for t in vectorizer.get_feature_names_out()],
            "readable_names": [str(t) for t in vectorizer.fitted_readable_names_],
            "idf": store.put(f"{key}.idf", vectorizer.idf_)}


def decode_vectorizer(record: dict, store: ArrayStore) -> DocumentVectorizer:
    vocabulary, names = record.get("vocabulary"), record.get("readable_names")
    for what, terms in (("vocabulary", vocabulary), ("readable names", names)):
        if not (isinstance(terms, list) and all(isinstance(t, str) for t in terms)):
            raise ModelFormatError(f"the vectorizer's {what} must be a list of strings")
    params = _decode_vectorizer_params(record.get("params"))
    if "token_pattern" in params:
        try:     # refused here, not when the first text is read
            re.compile(params["token_pattern"])
        except (re.error, TypeError) as exc:
            raise ModelFormatError("the vectorizer's token_pattern is not a regular "
                                   f"expression: {exc}") from None
    try:
        return DocumentVectorizer.from_vocabulary(vocabulary, store.get(record.get("idf")),
                                                  readable_names=names, **params)
    except ValueError as exc:
        raise ModelFormatError(f"the model's vectorizer is inconsistent: {exc}") from None


def _vectorizer_params(vectorizer: DocumentVectorizer) -> dict[str, Any]:
    params = vectorizer.get_params()
    stop = params["stop_words"]
    if stop is not None and not isinstance(stop, str):
        params["stop_words"] = sorted(str(w) for w in stop)
    return encode_params(params, "vectorizer")


def _decode_vectorizer_params(params: Any) -> dict[str, Any]:
    params = decode_params(params, DocumentVectorizer().get_params(), "vectorizer")
    # checked now: a bad value would otherwise surface on the first transform, or not at all
    # ("stem": "no" is a true string: stemming stayed on)
    if not isinstance(params.get("stem", True), bool):
        raise ModelFormatError(f"the vectorizer's stem={params['stem']!r} is not true or false")
    # a number, or a list holding one, failed inside the tokenizer with a TypeError
    stop = params.get("stop_words")
    if not (stop is None or isinstance(stop, str)
            or (isinstance(stop, list) and all(isinstance(w, str) for w in stop))):
        raise ModelFormatError(f"the vectorizer's stop_words={stop!r} is not 'english', a list "
                               "of words or null")
    for name in ("min_df", "max_df"):
        if name in params:
            try:
                check_df(name, params[name])
            except ValueError as exc:
                raise ModelFormatError(f"the vectorizer's {exc}") from None
    most = params.get("max_features")
    if most is not None and (isinstance(most, bool) or not isinstance(most, int) or most < 1):
        raise ModelFormatError(f"the vectorizer's max_features={most!r} is not a whole number "
                               "of at least 1 or null")
    for name in ("tf", "idf", "norm"):
        allowed = {"tf": ("raw", "sublinear", "binary"), "idf": ("xu", "smooth", "none"),
                   "norm": ("l2", None)}[name]
        if params.get(name, allowed[0]) not in allowed:
            raise ModelFormatError(f"the vectorizer's {name}={params[name]!r} is not one of "
                                   f"{allowed}")
    return params


def encode_params(params: dict[str, Any], owner: str) -> dict[str, Any]:
    """Constructor parameters as plain JSON: scalars, lists of scalars, a nested vectorizer.

    A ``random_state`` that is not an int (a Generator) is saved as None: it
    only seeds fitting, which a saved model does not do again.
    """
    out: dict[str, Any] = {}
    for name, value in params.items():
        value = _plain(value)
        if isinstance(value, (list, tuple)) and all(isinstance(_plain(v), _SCALARS)
                                                    for v in value):
            out[name] = [_plain(v) for v in value]
        elif isinstance(value, _SCALARS):
            out[name] = value
        elif isinstance(value, DocumentVectorizer):
            out[name] = {_VECTORIZER: _vectorizer_params(value)}
        elif name == "random_state":
            out[name] = None
        else:
            raise ModelSaveError(f"cannot save {owner}: its parameter {name}={value!r} is not "
                                 "a plain value")
    return out


def decode_params(params: Any, known: dict[str, Any], owner: str) -> dict[str, Any]:
    """Parameters read back, each one a parameter ``owner`` has and a plain value."""
    if not isinstance(params, dict):
        raise ModelFormatError(f"the parameters of {owner} must be a JSON object")
    out: dict[str, Any] = {}
    for name, value in params.items():
        if name not in known:
            raise ModelFormatError(f"{owner} has no parameter {name!r}")
        if any(isinstance(v, float) and not math.isfinite(v)
               for v in (value if isinstance(value, list) else [value])):
            raise ModelFormatError(f"parameter {name!r} of {owner} is {value!r}, not a finite "
                                   "number")
        if isinstance(value, list) and all(isinstance(v, _SCALARS) for v in value):
            # JSON has lists only: a parameter whose default is a tuple gets one back
            out[name] = tuple(value) if isinstance(known[name], tuple) else value
        elif isinstance(value, _SCALARS):
            out[name] = value
        elif isinstance(value, dict) and set(value) == {_VECTORIZER}:
            out[name] = DocumentVectorizer(**_decode_vectorizer_params(value[_VECTORIZER]))
        else:
            raise ModelFormatError(f"parameter {name!r} of {owner} is not a plain value")
    return out
