"""The one corpus type every reader returns."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace
from numbers import Integral
from typing import Any, Sequence

import numpy as np
import scipy.sparse as sp

from ._errors import CorpusError


def _label_tuple(labels, i: int) -> tuple[str, ...]:
    """Document ``i``'s labels as a tuple of strings: a string or an integer is one label (a
    string is not the tuple of its characters, "finance" not f, i, n, ...), None or NaN none."""
    if labels is None or (isinstance(labels, float) and math.isnan(labels)):
        return ()
    if isinstance(labels, (str, Integral)):
        labels = (labels,)
    try:
        labels = tuple(labels)
    except TypeError:
        raise TypeError(f"the label of document {i} is {type(labels).__name__} {labels!r:.40}: "
                        "give each document's label as a string or an integer, or its labels "
                        "as a tuple of them") from None
    for label in labels:
        if isinstance(label, bool) or not isinstance(label, (str, Integral)):
            raise TypeError(f"a label of document {i} is {type(label).__name__} {label!r:.40}: "
                            "labels are strings or integers")
    return tuple(str(label) for label in labels)


@dataclass(frozen=True)
class Corpus:
    """A document collection: texts (or a ready count matrix), labels, ids.

    Parameters
    ----------
    texts : list of str or None
        Raw document texts. ``None`` for collections distributed only as a
        matrix (MATLAB ``fea``/``gnd`` files, CLUTO sparse files).
    labels : list of tuple of str, or None
        Labels of each document; a document may carry several (Reuters) or
        none (an empty tuple); None for a collection without labels. A plain string or integer is taken as that one
        label (an integer as its digits, ``3`` as ``"3"``), None or NaN as none.
    ids : list of str
        A stable identifier per document (e.g. ``"sport/012.txt"``), each
        its own.
    metadata : dict
        Free-form facts about the collection (name, source path, split...).
    counts : sparse matrix of shape (n_docs, n_terms) or None
        Term counts for matrix-only collections; rows are documents.
    vocabulary : list of str or None
        Column names of ``counts`` when known.

    Examples
    --------
    >>> c = Corpus(texts=["a b", "c d", "e"], labels=[("x",), ("y",), ()], ids=["1", "2", "3"])
    >>> len(c), c.is_labelled, c.n_classes
    (3, True, 2)
    >>> c.filter_min_class_size(1).ids
    ['1', '2']
    """

    texts: list[str] | None
    labels: list[tuple[str, ...]]
    ids: list[str]
    metadata: dict[str, Any] = field(default_factory=dict)
    counts: sp.csr_matrix | None = None
    vocabulary: list[str] | None = None

    def __post_init__(self) -> None:
        n = len(self.ids)
        if self.labels is None:     # an unlabelled collection (it was: len() of None)
            object.__setattr__(self, "labels", [()] * n)
        if len(self.labels) != n:
            raise ValueError(f"{len(self.labels)} label entries for {n} documents")
        if any(not isinstance(labs, tuple) or not all(isinstance(lab, str) for lab in labs)
               for labs in self.labels):
            object.__setattr__(self, "labels", [_label_tuple(labs, i)
                                                for i, labs in enumerate(self.labels)])
        if len(set(self.ids)) != n:
            seen: set = set()
            twice = next(i for i in self.ids if i in seen or seen.add(i))
            # a CorpusError (a ValueError): the command says it in one line, not a traceback
            raise CorpusError(f"document id {twice!r} is given to more than one document; each "
                              "document needs an id of its own"
                              + (" (a file name with bytes that are not UTF-8 shows them as "
                                 "\\xNN, as another name may spell them: rename one)"
                                 if "\\x" in str(twice) else ""))
        if self.texts is not None and len(self.texts) != n:
            raise ValueError(f"{len(self.texts)} texts for {n} documents")
        if self.counts is not None:
            if self.counts.shape[0] != n:
                raise ValueError(f"count matrix has {self.counts.shape[0]} rows for {n} documents")
            if self.vocabulary is not None and len(self.vocabulary) != self.counts.shape[1]:
                raise ValueError("vocabulary length does not match the count matrix")
        if self.texts is None and self.counts is None:
            raise ValueError("a corpus needs texts or a count matrix")

    def __len__(self) -> int:
        return len(self.ids)

    def __repr__(self) -> str:
        name = self.metadata.get("name", "corpus")
        kind = "texts" if self.texts is not None else f"counts {self.counts.shape}"
        n, k = len(self), self.n_classes
        return (f"Corpus({name!r}, {n} document{'s' * (n != 1)}, {k} class{'es' * (k != 1)}, "
                f"{kind})")

    @property
    def is_labelled(self) -> bool:
        """True when at least one document carries a label."""
        return any(self.labels)

    @property
    def classes(self) -> list[str]:
        """Sorted distinct labels over all documents."""
        return sorted({lab for labs in self.labels for lab in labs})

    @property
    def n_classes(self) -> int:
        return len(self.classes)

    def class_sizes(self) -> dict[str, int]:
        """Number of documents carrying each label (a multi-label document counts once per label)."""
        return dict(sorted(Counter(lab for labs in self.labels for lab in labs).items()))

    def subset(self, indices: Sequence[int] | np.ndarray) -> "Corpus":
        """The documents at ``indices``, in that order."""
        idx = np.asarray(indices, dtype=np.intp)
        return replace(
            self,
            texts=None if self.texts is None else [self.texts[i] for i in idx],
            labels=[self.labels[i] for i in idx],
            ids=[self.ids[i] for i in idx],
            counts=None if self.counts is None else self.counts[idx],
            metadata=dict(self.metadata),
        )

    def single_label(self) -> "Corpus":
        """Keep only documents with exactly one label, as Xu et al. (2003) do for Reuters."""
        return self.subset([i for i, labs in enumerate(self.labels) if len(labs) == 1])

    def filter_min_class_size(self, min_size: int) -> "Corpus":
        """Keep single-labelled documents whose class has at least ``min_size`` of them.

        Documents with zero or several labels are dropped first, since a class
        filter is only meaningful for a partition.
        """
        single = self.single_label() if any(len(labs) != 1 for labs in self.labels) else self
        sizes = Counter(labs[0] for labs in single.labels)
        keep = [i for i, labs in enumerate(single.labels) if sizes[labs[0]] >= min_size]
        return single.subset(keep)

    def label_array(self) -> tuple[np.ndarray, list[str]]:
        """Integer class codes (first label of each document, -1 if none) and the class names.

        Examples
        --------
        >>> Corpus(texts=["a", "b", "c"], labels=[("y",), ("x",), ()], ids=["1", "2", "3"]).label_array()
        (array([ 1,  0, -1]), ['x', 'y'])
        """
        names = self.classes
        code = {name: i for i, name in enumerate(names)}
        y = np.array([code[labs[0]] if labs else -1 for labs in self.labels], dtype=np.intp)
        return y, names
