"""Saved clustering models: a fitted vectorizer and estimator in a safe, versioned folder.

``save(model, path)`` writes ``path/model.json`` and ``path/arrays.npz``;
``load(path)`` reads them back without executing anything from them (see
:mod:`docnmf.model._files` for the format and why it is not pickle).
"""

from ._codec import ModelFormatError, ModelSaveError
from ._files import FORMAT_VERSION, load, model_folder, save
from ._pipeline import ClusteringModel, Placement

__all__ = ["ClusteringModel", "Placement", "save", "load", "model_folder", "FORMAT_VERSION",
           "ModelFormatError", "ModelSaveError"]
