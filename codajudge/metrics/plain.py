"""Plain Python lists (or numpy arrays) to the arrays the registered metrics take, for the
participant-facing modules (``lewidi``, ``sts``, ``nli``, ``chaosnli``).

Every function raises ``ValueError`` naming the argument, the item and what was expected and found;
soft labels by the scoring program's rule (``probabilities``), never turned into another score.
"""

import math
import re
import sys
import warnings
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain
from numbers import Rational, Real

import numpy as np

from ..errors import counted, plural, problem_text, shown_outside
from .base import get
from .disagreement import PerAnnotator


def official_score(name: str, gold, pred) -> float:
    """The registered metric ``name`` over a whole set of items, as the scoring program computes
    it (the same function, the same rounding); a value undefined where the metric declares it
    (a correlation of constant values) is 0.0, as on the leaderboard, with the scoring program's
    note as a ``UserWarning`` (``warnings.warn``), as ``score_predictions`` gives it."""
    metric = get(name)
    value, note, _ = metric.score(gold, pred)
    if note:
        warnings.warn(f"{metric.title}: {note}", stacklevel=_outside_level())
    return value


def _outside_level() -> int:
    """The ``stacklevel`` of the first caller outside this package (the participant's line)."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_globals.get("__name__", "").startswith(__package__):
        frame, level = frame.f_back, level + 1
    return level


def same_length(gold, pred) -> tuple:
    """Gold and predictions as read (``as_array``), after checking that they are sequences
    (lists, tuples, numpy arrays) of as many items, and some; two that both carry an index (pandas
    Series or DataFrames) with the same index, as they are paired by position."""
    _same_index(gold, pred)
    _not_masked(gold, "gold")
    _not_masked(pred, "predictions")
    gold, pred = as_array(gold), as_array(pred)
    for what, values in (("gold", gold), ("predictions", pred)):
        indexed = hasattr(values, "__len__") and hasattr(values, "__getitem__")
        text_or_keyed = isinstance(values, (str, bytes, Mapping))
        if not indexed or text_or_keyed or getattr(values, "ndim", 1) == 0:
            raise ValueError(
                f"{what}: expected a list (or tuple, or numpy array) of one value per item; "
                f"found {_sample(values)}"
            )
    if len(gold) != len(pred):
        raise ValueError(
            f"gold has {counted(len(gold), 'item')} but the predictions have {len(pred)}; "
            "give one prediction per gold item, in the same order"
        )
    if not len(gold):
        raise ValueError("no items: give at least one gold item and its prediction")
    return gold, pred


def _same_index(gold, pred) -> None:
    """Refuse gold and predictions that both carry an index (``.index``, not a list's method:
    pandas Series or DataFrames, duck-typed) whose indexes differ: the items are paired by
    position, so the same labels in another order would pair other items. An ``.index`` of
    another length than its values', or one that cannot be read (it raises), is not theirs
    (ignored); the labels are compared in place, never copied, so that no more than the inputs'
    own length is read."""
    try:
        found = _index_difference(gold, pred)
    except Exception:  # an index that cannot be read: paired by position, as without one
        return
    if found is None:
        return
    differ, labels, length = found
    shown = [_sample(label) for label in labels]
    raise ValueError(
        f"gold and predictions carry different indexes (pandas): {counted(len(differ), 'position')}"
        f" of {length} differ, the first position {differ[0]} (gold {shown[0]}, "
        f"predictions {shown[1]}); items are paired by position, not by index: "
        + _index_fix(*labels)
    )


def _index_fix(gold_label, pred_label) -> str:
    """How to align the predictions to gold's index, given the first labels that differ: reindex;
    where they are of another type (0 and "0"), which reindex would not find (all NaN), after
    giving the predictions' index gold's type."""
    numbers = isinstance(gold_label, Real) and not isinstance(gold_label, bool)
    numbers = numbers and gold_label == gold_label  # a NaN label is no type to convert to
    if type(gold_label) is type(pred_label) or not (numbers or isinstance(gold_label, str)):
        return "align them first: pred.reindex(gold.index)"
    kinds = [type(label).__name__ for label in (gold_label, pred_label)]
    kind = kinds[0] if type(gold_label) in (int, float, str) else repr(kinds[0])
    return (
        f"the labels are of another type (gold {kinds[0]}, predictions {kinds[1]}), which "
        "pred.reindex(gold.index) would not find (all NaN): give the predictions' index gold's "
        f"type, then align them: pred.index = pred.index.astype({kind}); "
        "pred = pred.reindex(gold.index)"
    )


def _index_difference(gold, pred):
    """The positions where the indexes of ``gold`` and ``pred`` differ, the labels at the first
    and their length; None where they do not both carry one (``_index``) or theirs are equal."""
    indexes = [_index(values) for values in (gold, pred)]
    if any(index is None for index in indexes):  # not `None in`: a pandas Index is compared
        return None
    if len(indexes[0]) != len(indexes[1]):  # lengths: refused as such
        return None
    differ, first = [], None
    for i, (g, p) in enumerate(zip(*indexes)):
        if not _same_label(g, p):
            differ.append(i)
            first = first or (g, p)
    return (differ, first, len(indexes[0])) if differ else None


def _same_label(gold, pred) -> bool:
    """Whether two index labels are one, as pandas' ``Index.equals`` takes them: NaN is NaN."""
    return gold is pred or gold == pred or (gold != gold and pred != pred)


def _index(values):
    """The index ``values`` carry (``.index``, not a list's method), or None: none, or one whose
    length is not the values' own (not a pandas index)."""
    index = getattr(values, "index", None)
    if index is None or callable(index) or not hasattr(values, "__len__"):
        return None
    return index if len(index) == len(values) else None


def _not_masked(values, what: str) -> None:
    """Refuse a numpy masked array (``np.ma``) with masked values, which numpy would read as the
    values under the mask: scored, not left out."""
    if not np.ma.is_masked(values):
        return
    mask = np.ma.getmaskarray(values)
    first = ", ".join(map(str, np.argwhere(mask)[0].tolist()))
    raise ValueError(
        f"{what}: a masked array with {counted(int(mask.sum()), 'masked value')} of {mask.size} "
        f"(the first at index {first}), which would be scored as the values under the mask; leave "
        "those items out of the gold and the predictions alike (x[keep] with keep = "
        "~np.ma.getmaskarray(x), or x.compressed() for one axis), or fill them (x.filled(value))"
    )


def _real(values, what: str) -> None:
    """Refuse a numpy array of complex numbers, which numpy would cast to its real parts."""
    if isinstance(values, np.ndarray) and values.dtype.kind == "c":
        imaginary = np.imag(values) != 0
        first = ", ".join(map(str, np.argwhere(imaginary)[0].tolist())) if imaginary.any() else ""
        raise ValueError(
            f"{what}: expected real numbers; found complex numbers ({values.dtype}), "
            f"{counted(int(imaginary.sum()), 'value')} of {values.size} with an imaginary part"
            + (f" (the first at index {first})" if first else "")
            + ": give real values (x.real, where the imaginary parts are 0)"
        )


def as_array(values):
    """``values``, or the numpy array it gives where numpy reads it as one (``__array__``: a pandas
    DataFrame or Series, a tensor), so that its rows are items, not its column names; an array of
    Python objects (a Series of lists: ``df.gold.values``) as the list of what it holds, read as
    a list of lists is."""
    if hasattr(values, "__array__") and not isinstance(values, np.ndarray):
        try:
            values = np.asarray(values)
        except Exception:  # refused as it is given, by the caller's checks
            return values
    if isinstance(values, np.ndarray) and values.dtype == object and values.ndim:
        return values.tolist()
    return values


def numbers(values, what: str, shape_of_one: str, axes=("item",), labels: bool = False):
    """``values`` as a float array of equal-length rows, or a ValueError naming ``what`` and where
    in it (``axes``: the names of its axes, an item first; "entry" past them) the first value is
    not a finite number: NaN, None, a boolean (with its conversion), or a string, which numpy
    reads as a number, unless they are ``labels``: the 2025 files write annotators' labels as
    strings, "-4". A single value is returned as it is read, for the caller's check of the shape
    to refuse; a masked array with masked values, or complex numbers, are refused."""
    _not_masked(values, what)
    _real(values, what)
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        every = " for every item, all of one length" if axes[0] == "item" else ""  # a whole set
        raise ValueError(
            _first_unlike(values, what, axes[0])
            or f"{what}: expected numbers, {shape_of_one}{every}; found {_found(values)}"
        ) from None
    except OverflowError:  # a number past a float's range (10**400): refused below, as 1e999 is
        given = np.asarray(values, dtype=object)
        array = np.frompyfunc(_inf_if_past_range, 1, 1)(given).astype(float)
    refused = (bool, np.bool_) if labels else (bool, np.bool_, str, bytes)
    if array.ndim and (not np.isfinite(array).all() or _holds(values, refused, array.ndim)):
        given = np.asarray(values, dtype=object)
        typed = np.frompyfunc(lambda value: isinstance(value, refused), 1, 1)(given).astype(bool)
        position = tuple(np.argwhere(~np.isfinite(array) | typed)[0].tolist())
        raise ValueError(_not_a_number(_at(values, position), f"{what}, {_place(position, axes)}"))
    return array


def _at(values, position: tuple):
    """The value at ``position`` in ``values`` as given (a numpy boolean stays one)."""
    for index in position:
        values = values[index]
    return values


def _place(position: tuple, axes: Sequence[str]) -> str:
    """A value's position in words, by the names of the axes (``entry`` past them): ``item 0``,
    ``label 2, annotator 1``."""
    names = list(axes) + ["entry"] * (len(position) - len(axes))
    return ", ".join(f"{name} {index}" for name, index in zip(names, position))


def _not_a_number(value, where: str) -> str:
    """The message refusing ``value``, which is not a finite number, at ``where``; a boolean (as
    ``probs > 0.5`` gives) with its conversion, as the scoring program refuses one in a file."""
    if isinstance(value, (bool, np.bool_)):
        return (
            f"{where}: booleans are not accepted as labels or numbers; found {value!r}. Write 1 "
            "for True and 0 for False: int(x), or x.astype(int) for a numpy array (such as "
            "probs > 0.5)"
        )
    return f"{where}: expected finite numbers; found {_sample(value)}"


def _first_unlike(values, what: str, unit: str) -> str:
    """Where ``values`` (``what``), which numpy cannot read as one array of numbers, first goes
    wrong: its first ``unit`` that is not numbers, or not of the shape of its ``unit`` 0; "" when
    none is (``values`` not a list)."""
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        return ""
    shapes = []
    for index, element in enumerate(values):
        try:
            shapes.append(np.shape(np.asarray(element, dtype=float)))
        except (TypeError, ValueError, OverflowError):
            return f"{what}, {unit} {index}: expected numbers; found {_found(element)}"
        if shapes[index] != shapes[0]:
            expected, found = map(_shape_text, (shapes[0], shapes[index]))
            return f"{what}, {unit} {index}: expected {expected} (as {unit} 0), found {found}"
    return ""


def _shape_text(shape: tuple) -> str:
    """An array's shape in words: "a single number", "2 values", "3 x 2 values"."""
    if not shape:
        return "a single number"
    return f"{' x '.join(map(str, shape))} {plural(math.prod(shape), 'value')}"


def _inf_if_past_range(value):
    """``value``, or infinity for a number past a float's range (10**400), which numpy cannot read."""
    return math.inf if isinstance(value, Rational) and abs(value) > sys.float_info.max else value


def _holds(values, types: tuple, ndim: int) -> bool:
    """Whether ``values``, of ``ndim`` axes, holds an instance of ``types``: told from the set of
    their types, walked at C speed (a numeric numpy array holds none)."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iuf":
        return False
    for _ in range(ndim - 1):
        values = chain.from_iterable(values)
    return any(issubclass(kind, types) for kind in set(map(type, values)))


def array_score(name: str, gold, pred, shape_of_one: str = "one distribution", ndim: int = 2):
    """``official_score`` of the registered metric ``name`` on gold and predicted arrays of ``ndim``
    axes (items first) and one shape: soft labels (2), multilabel soft labels (3), scores (1)."""
    gold, pred = same_length(gold, pred)
    axes = ("item", "label")[:ndim]  # a soft label's entries are its labels' probabilities
    gold_rows = numbers(gold, "gold", shape_of_one, axes)
    pred_rows = numbers(pred, "predictions", shape_of_one, axes)
    for what, rows in (("gold", gold_rows), ("predictions", pred_rows)):
        if rows.ndim != ndim or 0 in rows.shape:
            raise ValueError(
                f"{what} has shape {rows.shape}; expected {shape_of_one} for every item "
                f"({counted(ndim, 'axis', 'axes')}, items first){_shape_hint(rows.shape, ndim)}"
            )
    if gold_rows.shape != pred_rows.shape:
        raise ValueError(
            f"gold has shape {gold_rows.shape} but the predictions {pred_rows.shape}; "
            f"expected {shape_of_one} for every item, of one length in both"
            + _extra_bin_hint(gold_rows.shape, pred_rows)
        )
    if ndim > 1:
        gold_rows = probabilities(gold_rows, "gold")
        pred_rows = probabilities(pred_rows, "predictions")
    return official_score(name, gold_rows, pred_rows)


def probabilities(rows: np.ndarray, what: str) -> np.ndarray:
    """``rows`` (items first) as the scoring program reads a soft label: each distribution
    (``(N, K)``) or pair per label (``(N, L, 2)``) divided by its sum; the first that breaks the
    rule (probabilities, none negative, summing to 1 within its tolerance) is refused, naming the
    item."""
    from ..formats.soft import SUM_TOLERANCE, ValueProblem, _normalised, _summing_to_one, _total

    pairs = rows.ndim == 3
    # only the items near or past the rule's edges are read one by one (all: 10 us a row)
    vectors = rows.reshape(len(rows), -1, rows.shape[-1])
    off = (vectors < 0).any(axis=-1) | (np.abs(vectors.sum(axis=-1) - 1) > SUM_TOLERANCE / 2)
    # and every item where the pairs are of another length (the first is refused for it)
    suspects = np.flatnonzero(off.any(axis=-1) | (pairs and rows.shape[-1] != 2))
    for index, item in zip(suspects.tolist(), rows[suspects].tolist()):
        try:
            for j, row in enumerate(item if pairs else [item]):
                name = f"pair {j}" if pairs else "distribution"
                _summing_to_one(row, 2 if pairs else len(row), name)
        except ValueProblem as problem:
            where, p = f"{what}, item {index}", problem
            raise ValueError(problem_text(where, p.message, p.expected, p.found, p.hint)) from None
    normalised = [
        _normalised(vector, _total(vector))[0]
        for vector in vectors.reshape(-1, rows.shape[-1]).tolist()
    ]
    return np.array(normalised).reshape(rows.shape)


def per_annotator_score(name: str, gold, pred, n_labels: int = 0, multilabel: bool = False):
    """``official_score`` of the registered metric ``name`` on per-item lists of annotator labels
    (ragged: items may have different numbers of annotators), as ``PerAnnotator`` rows;
    multilabel items are label-major 0/1 vectors (one vector over the item's annotators per
    label, as many labels in every item), as the LeWiDi 2025 files give them. Labels are whole
    numbers (``on_scale``); ``n_labels``: the number of label values (0: any)."""
    gold, pred = same_length(gold, pred)
    n_items = len(gold)
    gold_items = [_item_row(row, "gold", i, multilabel) for i, row in enumerate(gold)]
    pred_items = [_item_row(row, "predictions", i, multilabel) for i, row in enumerate(pred)]
    for i, (g, p) in enumerate(zip(gold_items, pred_items)):
        if multilabel and g.shape[1] != gold_items[0].shape[1]:  # a track has one label set
            raise ValueError(
                f"gold, item {i}: expected {counted(gold_items[0].shape[1], 'label')} (as item "
                f"0), found {g.shape[1]}; give every item a 0/1 vector for each of the track's labels"
            )
        if g.shape != p.shape:
            raise ValueError(
                f"item {i}: gold has {_labels(g)} but the prediction {_labels(p)}; "
                "predict one label per annotator of the item (per label, if multilabel), in the "
                "gold's order"
            )
    if not multilabel:  # its 0/1 vectors are checked as read
        on_scale({"gold": gold_items, "predictions": pred_items}, n_labels)
    item = np.repeat(np.arange(n_items, dtype=np.int64), [len(g) for g in gold_items])
    gold_rows = PerAnnotator(np.concatenate(gold_items), item, n_items, n_labels)
    pred_rows = PerAnnotator(np.concatenate(pred_items), item, n_items, n_labels)
    return official_score(name, gold_rows, pred_rows)


def scale_size(n_values) -> int:
    """``n_values``, the number of values of an ordinal label scale, as an int (a positive whole
    number), or a ValueError naming it."""
    number = isinstance(n_values, Real) and not isinstance(n_values, bool)
    if not (number and 1 <= n_values < 2**53 and n_values % 1 == 0):
        raise ValueError(
            "n_values: expected the number of possible label values, a positive whole number "
            f"(6 for CSC's 1..6, 11 for Paraphrase's -5..5); found {_sample(n_values)}"
        )
    return int(n_values)


def on_scale(items: dict[str, list[np.ndarray]], n_values: int) -> None:
    """Refuse, naming the item, a label that is not a whole number (a probability given for a
    label), or labels (gold's and the predictions' together) further apart than a scale of
    ``n_values`` consecutive values allows (0: any scale)."""
    places = [
        (value, f"{what}, item {index}")
        for what, rows in items.items()
        for index, row in enumerate(rows)
        for value in row.tolist()
    ]
    for value, where in places:
        if value % 1:
            raise ValueError(
                f"{where}: expected whole numbers, the annotators' label values (not "
                f"probabilities); found {shown_outside(value, lambda x: x % 1 == 0)}"
            )
    # by value alone: of equal values the first place is named ("item 2" before "item 10")
    value_of = lambda place: place[0]  # noqa: E731
    (low, low_at), (high, high_at) = min(places, key=value_of), max(places, key=value_of)
    if n_values and high - low >= n_values:
        raise ValueError(
            f"{high_at}: a label off the scale of n_values={n_values} values; expected labels "
            f"at most {n_values - 1} apart (the lowest is {low:g}, {low_at}), found {high:g}. "
            "Give the labels on the scale, and n_values as its number of values"
        )


def _item_row(row, what: str, index: int, multilabel: bool) -> np.ndarray:
    """One item's annotator labels ``(A,)``, or its label-major 0/1 vectors as ``(A, L)``; an
    item without annotators is refused (it would count as no error)."""
    shape = "a 0/1 vector over the annotators per label" if multilabel else "a label per annotator"
    axes = ("label", "annotator") if multilabel else ("annotator",)
    values = numbers(row, f"{what}, item {index}", shape, axes, labels=True)
    readable = values.ndim == (2 if multilabel else 1) and values.size > 0
    if multilabel:
        shape += " (1: chosen, 0: not)"
        readable = readable and np.isin(values, (0, 1)).all()
    if not readable:
        raise ValueError(
            f"{what}, item {index}: expected {shape}, for at least one annotator; "
            f"found {_sample(row)}"
        )
    return values.T if multilabel else values


def _labels(item: np.ndarray) -> str:
    """How many labels an item's row holds: ``3 annotator labels``, ``2 annotators x 3 labels``."""
    if item.ndim == 1:
        return counted(len(item), "annotator label")
    return f"{counted(item.shape[0], 'annotator')} x {counted(item.shape[1], 'label')}"


def _found(value) -> str:
    """``_sample`` of ``value``, and for a list written as text (a CSV column of "[0, 1]") how to
    read it."""
    text = isinstance(value, str) and value.lstrip().startswith(("[", "("))
    if isinstance(value, (complex, np.complexfloating)):
        return _sample(value) + ", a complex number: give real values"
    return _sample(value) + (", a list written as text: read it first (json.loads)" if text else "")


def _shape_hint(shape: tuple, ndim: int) -> str:
    """How to give values of ``shape`` in the ``ndim`` axes expected: a column of one value per
    item (``(N, 1)`` for ``(N,)``) flattened; one P(chosen) per label (``(N, L)`` for pairs
    ``(N, L, 2)``) stacked with its complement."""
    if len(shape) == ndim + 1 and shape[-1] == 1:
        return "; a column of one value per item: flatten it first (np.ravel)"
    if ndim == 3 and len(shape) == 2:
        return (
            "; for one P(chosen) per label (p, as a sigmoid gives), give np.stack([1 - p, p], -1)"
        )
    return ""


#: The most an extra leading bin may hold in every row for the hint to drop it: the scoring
#: program's tolerance (``kinds.soft_label.SUM_TOLERANCE``).
EMPTY_BIN_MOST = 0.02


def _extra_bin_hint(gold: tuple, pred: np.ndarray) -> str:
    """How to give distributions (``pred``) of one bin more than the gold's (shape ``gold``),
    their first nearly empty in every row: CSC's 2025 practice layout of 7 bins, whose first
    (label 0) the scoring program drops; else no hint (a bin of mass is no layout's extra bin)."""
    extra = len(gold) == pred.ndim == 2 and pred.shape[1] == gold[1] + 1
    if extra and np.all(pred[:, 0] <= EMPTY_BIN_MOST):
        return (
            f"; {pred.shape[1]} bins against the gold's {gold[1]}: a leading bin for a label the "
            "scale does not have (CSC's 2025 practice layout, 7 bins for 1..6) is dropped by the "
            "scoring program where it holds at most 0.02; drop it too (pred[:, 1:]) and "
            "renormalise the rows"
        )
    return ""


def _sample(values) -> str:
    """A short ``repr`` of what was given, on one line (a numpy array's spans several)."""
    text = re.sub(r"\n\s*", " ", repr(values))
    return text if len(text) <= 60 else text[:57] + "..."
