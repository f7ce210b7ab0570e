"""The code-submission interface at run time: turning what a model returns into ``id<TAB>value``
lines checked by the scorer's own value parsers (``programs.child`` loads and calls the model).

The interface itself is described in the package docstring (``codajudge.baselines``).
"""

import contextlib
import json
import numbers
from collections.abc import Callable, Iterator

import numpy as np

from .. import kinds
from ..errors import ProblemCollector, SubmissionError
from ..formats.annotators import annotator_pool, parse_per_annotator
from ..formats.notes import VALUE_NOTES, ReadNote, note_warnings
from ..formats.submission import READERS
from ..formats.values import ValueProblem, add_problem
from ..formats.write import per_annotator_value
from ..kinds.base import ANNOTATOR_ROW, LABEL, SCORE, ValueType
from ..tracks import Track
from .base import item_annotators

#: The Docker image the kit's bundles run in on the platform (an edition's default ``docker_image``).
KIT_IMAGE = "codalab/codalab-legacy:py312"
#: The packages code can import in that image, by import name, as the starting kit's README lists
#: them.
IMAGE_PACKAGES = {
    "numpy": "numpy 1.26",
    "scipy": "scipy 1.11",
    "sklearn": "scikit-learn 1.5",
    "pandas": "pandas 2.2",
    "yaml": "pyyaml 6",
    "numba": "numba 0.61",
    "matplotlib": "matplotlib 3.8",
    "psutil": "psutil",
}


def track_settings(track: Track, seed: int) -> dict:
    """The ``track`` dict a Model receives: the track's declaration plus the run's seed."""
    return {**track.to_dict(), "seed": int(seed)}


class Foreign:
    """Stands for an object of a type the interface does not read (its type name only), so that
    reporting it never calls the participant's ``__str__`` or ``__repr__``."""

    def __init__(self, value):
        self.type_name = type(value).__name__
        #: how to make a list of it, when predict() returned it (an iterator, a pandas Series)
        self.list_fix = None
        if isinstance(value, Iterator):
            self.list_fix = (
                "wrap it in list(...) and return that (a generator or iterator is no list)"
            )
        elif hasattr(type(value), "tolist"):
            self.list_fix = "call its .tolist() and return that"

    def __str__(self) -> str:
        return f"<{self.type_name} object>"


def type_name(value) -> str:
    return value.type_name if isinstance(value, Foreign) else type(value).__name__


#: The built-in immutable scalar types, which ``plain_data`` returns as they are (and ``Foreign``:
#: ``prediction_lines`` takes plain data again, which must keep the participant's type name).
_IMMUTABLE = (str, float, int, bool, type(None), Foreign)
#: A subclass of each type (another real number: of ``numbers.Real``) -> its built-in value, by the
#: type's own method (the subclass's override is not called).
_BUILT_IN = {str: str.__str__, int: int.__index__, float: float.__float__, numbers.Real: float}


def plain_data(value):
    """``value`` rebuilt from built-in types only (str, float, int, bool, None, list, dict).

    Every call into the participant's objects (iteration, ``__float__``, numpy conversions) happens
    here, so that it runs under ``call_participant`` and a failure in it is the submission's problem;
    what comes out holds no participant code. A subclass of str, int or float (or another real
    number) becomes the built-in value (bool has no subclasses); unreadable objects become
    ``Foreign``.
    """
    if type(value) in _IMMUTABLE:
        return value
    if isinstance(value, (np.ndarray, np.generic)):  # a numpy scalar's tolist() is its item()
        return plain_data(value.tolist())
    if isinstance(value, (list, tuple)):
        return [plain_data(v) for v in value]
    if isinstance(value, dict):
        return {plain_data(k): plain_data(v) for k, v in value.items()}
    for base, built_in in _BUILT_IN.items():
        if isinstance(value, base):
            return built_in(value)
    return Foreign(value)


def value_text(value, value_type: ValueType) -> str:
    """A model's value as the text a submission file gives it: a score or label as written, a list
    as JSON."""
    if value is None:
        raise ValueProblem(
            "the item has no prediction (None)",
            expected="a value for every item",
            found="None",
            hint="a model skips a track by returning None instead of the whole list, not for one item",
        )
    if value_type not in (SCORE, LABEL):
        try:
            return json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError, RecursionError):
            raise ValueProblem(
                "the value cannot be written as JSON",
                expected="a list of numbers or labels",
                found=type_name(value),
            )
    if isinstance(value, str):
        return value
    # an int too large for a float, or of more digits than Python writes: not a number or label
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        with contextlib.suppress(OverflowError, ValueError):
            return repr(float(value)) if value_type is SCORE else str(value)
    raise ValueProblem(
        "not a number" if value_type is SCORE else "not a label",
        expected="a float" if value_type is SCORE else "a label string",
        found=f"{type_name(value)} {_head(value)}",
    )


def _head(value) -> str:
    """The first 40 characters of ``value`` written, quoted; an int too long to write, its size."""
    try:
        return repr(str(value)[:40])
    except ValueError:
        return f"of {value.bit_length():,} bits"


def _written(track: Track, item: dict, text: str, notes: list[ReadNote], pool) -> object:
    """The value to write for a model's value ``text``, read by the scorer's reader of its value
    type (``formats.submission.READERS``); a row of annotator labels is read against the item's
    annotators or the items' whole ``pool``."""
    value_type = kinds.of(track).value_type
    if value_type is ANNOTATOR_ROW:
        rows = parse_per_annotator(text, track, item_annotators(item), pool)
        return per_annotator_value(track, rows)
    value = READERS[value_type](text, track, notes)
    return track.labels[value] if value_type is LABEL else value


def prediction_lines(
    track: Track, items: list[dict], predictions, display: str, say: Callable[[str], None] = print
) -> list[str]:
    """``id<TAB>value`` lines for ``items``; a SubmissionError names the item, expected and found.
    The kit's notes on what it did to the values (renormalised, ...) go to ``say``: in the child
    that runs a code submission, the kit's own pipe, since what the child prints on stdout is the
    participant's code's."""
    values = plain_data(predictions)  # numpy arrays and tuples as lists
    if not isinstance(values, list):
        by_id = 'return a list in the items\' order: [pred[item["id"]] for item in items]'
        raise SubmissionError.single(
            display,
            "predict() must return a list with one value per item",
            expected="a list (or tuple, numpy array)",
            found=type_name(values),
            hint=by_id if isinstance(values, dict) else getattr(values, "list_fix", None),
        )
    if len(values) != len(items):
        raise SubmissionError.single(
            display,
            "wrong number of predictions",
            expected=f"{len(items)} (one per item, in input order)",
            found=f"{len(values)}",
        )
    problems = ProblemCollector(display)
    notes: list[ReadNote] = []
    lines = []
    pool = annotator_pool([item_annotators(item) for item in items])
    kind = kinds.of(track)
    for item, value in zip(items, values):
        try:  # the scorer's reader of the value, then the VALUE text of what it accepted
            written = _written(track, item, value_text(value, kind.value_type), notes, pool)
            lines.append(f"{item['id']}\t{kind.prediction_text(written)}")
        except ValueProblem as problem:
            add_problem(problems, problem, item=item["id"])
    problems.raise_if_any()
    for warning in note_warnings(notes, VALUE_NOTES):
        say(f"note: {display}: {warning}")
    return lines
