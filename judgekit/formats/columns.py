"""Whole-column fast paths of the submission reader: a clean file's values, parsed at once.

``clean_values(track, texts, annotator_counts)`` returns what ``submission._parse_values`` would
return for the same value texts (in gold order), or None whenever it is not sure: then the precise
per-value parsers run and report the problem at its line and item. Nothing is accepted here that
those parsers refuse; forms the fast path does not know (objects, strings with spaces, ordinal soft
labels with an extra leading bin, comma-separated multilabel choices) simply take the precise path.
"""

from __future__ import annotations

from itertools import chain
from typing import List, Optional, Sequence, Tuple

import numpy as np

from ..tracks import Track
from .bulk import choice_rows, exact_codes, json_values, number_column
from .values import SUM_TOLERANCE, numeric_labels

#: Text that only JSON strings, booleans, null or objects contain: such values take the precise path.
_NOT_NUMERIC_JSON = ('"', "true", "false", "null", "{")
_NOT_LABEL_LISTS = ("true", "false", "null", "{", "NaN", "Infinity")


def _contains(texts: Sequence[str], needles: Sequence[str]) -> bool:
    joined = "\n".join(texts)
    return any(needle in joined for needle in needles)


def clean_values(track: Track, texts: List[str], annotator_counts: Sequence[int]) -> Optional[Tuple[object, int]]:
    """(values, number of soft labels renormalised) for ``texts``, or None (see the module docstring).

    ``annotator_counts`` gives, per item, how many labels a perspectivist prediction must hold.
    """
    if track.kind == "similarity":
        values = number_column(texts)
        return None if values is None else (values, 0)
    if track.kind == "classification":
        codes = exact_codes(map(str.strip, texts), track.label_index(), len(texts))
        return None if codes is None else (codes, 0)
    if track.kind == "soft_label":
        return _soft_labels(track, texts)
    return _per_annotator(track, texts, annotator_counts)


def _number_arrays(texts: List[str]) -> Optional[np.ndarray]:
    """JSON lists of numbers as one float array (any shape), or None if anything else is there."""
    if _contains(texts, _NOT_NUMERIC_JSON):
        return None
    parsed = json_values(texts)
    if parsed is None or not all([type(row) is list for row in parsed]):
        return None
    try:
        values = np.array(parsed, dtype=float)
    except (ValueError, OverflowError, TypeError):
        return None
    return values if np.isfinite(values).all() and not (values < 0).any() else None


def _renormalised(values: np.ndarray, axis: int) -> Optional[Tuple[np.ndarray, int]]:
    """Divide by the sums along ``axis`` as ``values.normalise`` does; None if a sum is off by more
    than ``SUM_TOLERANCE``. The count is of sums more than 1e-6 away from 1 (a warning each)."""
    totals = values.sum(axis=axis, keepdims=True)
    off = np.abs(totals - 1.0)
    if (off > SUM_TOLERANCE).any():
        return None
    return values / totals, int(np.count_nonzero(off > 1e-6))


def _soft_labels(track: Track, texts: List[str]) -> Optional[Tuple[np.ndarray, int]]:
    values = _number_arrays(texts)
    k = len(track.labels)
    if values is None:
        return None
    if track.scale == "multilabel":
        if values.shape == (len(texts), k):  # P(chosen) per label
            if (values > 1 + 1e-9).any():
                return None
            return np.stack([1.0 - values, values], axis=2), 0
        return _renormalised(values, axis=2) if values.shape == (len(texts), k, 2) else None
    return _renormalised(values, axis=1) if values.shape == (len(texts), k) else None


def _per_annotator(track: Track, texts: List[str], counts: Sequence[int]) -> Optional[Tuple[np.ndarray, int]]:
    """Label indices (categorical, ordinal) or 0/1 choices (multilabel), one row per annotator.

    Multilabel choices must be lists of label names, which only strings can match; categorical and
    ordinal labels may also be numbers, so JSON's other literals are kept out of their lookup."""
    multilabel = track.scale == "multilabel"
    if not multilabel and _contains(texts, _NOT_LABEL_LISTS):
        return None
    parsed = json_values(texts)
    try:  # list.__len__ refuses anything but a list: one pass checks and measures
        if parsed is None or list(map(list.__len__, parsed)) != list(counts):
            return None
    except TypeError:
        return None
    if multilabel:
        return _choices(track, list(chain.from_iterable(parsed)))
    table = {**numeric_labels(track), **track.label_index()}
    codes = exact_codes(chain.from_iterable(parsed), table, sum(counts))
    return None if codes is None else (codes, 0)


def _choices(track: Track, given: list) -> Optional[Tuple[np.ndarray, int]]:
    """Each annotator's labels given as a list of label names -> a 0/1 row over the track's labels.

    (Only strings are keys of the label index, so a label of any other type is not found.)"""
    chosen = choice_rows(given, track.label_index(), len(track.labels))
    return None if chosen is None else (chosen, 0)
