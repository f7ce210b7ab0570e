"""The rules of a soft label (a probability vector, or multilabel pairs): ``soft_label`` reads one
value and raises the first rule it breaks; ``parse_soft`` reads one from its text."""

import functools
from collections import Counter
import math
import operator

import numpy as np

from ..kinds.soft_label import PRACTICE_PHASE_LAYOUT, SUM_TOLERANCE
from ..errors import counted, shown_outside
from ..metrics import get as get_metric
from ..tracks import Track
from .notes import CHOSEN_AS_LIST, CHOSEN_AS_OBJECT, CHOSEN_ONLY, EMPTY_LEADING_BIN
from .notes import LEADING_BIN_WITH_MASS, MISSING_LABELS
from .notes import RENORMALISED, ReadNote
from .values import NUMBER_TYPES, ValueProblem, is_number, labels_meant, not_a_number_hint
from .values import null_hint, parse_value, show, show_json


#: A row of floats (a soft label's probabilities as read).
Row = list[float]


def _total(row: Row) -> float:
    """The row's sum as numpy adds up the scores' arrays: one by one below 8 values, pairwise from
    8 on (``np.add.reduce``, which ``np.sum`` calls). A sum that overflows is infinite, without a
    warning."""
    if len(row) < 8:  # not ``sum``: from Python 3.12 it compensates for rounding, as numpy does not
        return functools.reduce(operator.add, row, 0)
    with np.errstate(over="ignore", invalid="ignore"):
        return float(np.add.reduce(row))


def _probabilities(value, length: int, what: str, chosen: bool = False) -> Row:
    """``value`` as a row of ``length`` probabilities (floats), else the problem of the first rule
    it breaks, in this order: its length, finite numbers, none negative; P(chosen) values
    (``chosen``) must then be at most 1 (rounding aside). Those that must sum to 1 are
    ``_summing_to_one``'s."""
    if isinstance(value, str) and value.lstrip().startswith("["):  # str(list), a list's text
        raise ValueProblem(
            f"{what} is a string where a list is expected",
            f"a list of {length} probabilities",
            show_json(value),
            hint='give the list itself, not its text: [0.2, 0.3, 0.5], not "[0.2, 0.3, 0.5]"',
        )
    if type(value) is not list or len(value) != length:
        found = counted(len(value), "value") if type(value) is list else show_json(value)
        expected = f"a list of {length} probabilities"
        raise ValueProblem(f"wrong {what} length", expected, found, null_hint(value))
    if not NUMBER_TYPES.issuperset(map(type, value)):
        wrong = next(v for v in value if not is_number(v))
        raise ValueProblem(
            f"{what} holds a value that is not a finite number",
            expected="finite numbers",
            found=show_json(wrong),
            hint=not_a_number_hint(wrong),
        )
    row = list(map(float, value))
    if not (min(row, default=0) >= 0 and max(row, default=0) < math.inf):
        # what sums to 1: the value itself (a multilabel track's pair, not its row of pairs)
        whole = "each on its own" if chosen else f"the {what} summing to 1"
        raise ValueProblem(
            f"{what} has a negative probability",
            expected="probabilities >= 0",
            found=f"{min(row):g}",
            hint=f"probabilities are between 0 and 1: give each label's probability, {whole} (a "
            "model's raw scores, logits, become such by a softmax)",
        )
    if chosen and max(row, default=0) > 1 + 1e-9:
        found = shown_outside(max(row), lambda x: x <= 1 + 1e-9)
        raise ValueProblem("a P(chosen) value is above 1", "values in [0, 1]", found)
    return row


def _droppable(first: float) -> bool:
    """Whether an extra leading bin's ``first`` value may be dropped: 0 to ``SUM_TOLERANCE``."""
    return 0 <= first <= SUM_TOLERANCE


def _sums_to_one(total: float) -> bool:
    """Whether a row's ``total`` is within the tolerance of 1 (an infinite sum is not); 1e-9 for
    rounding: abs(0.98 - 1) is 0.020000000000000018."""
    return abs(total - 1) <= SUM_TOLERANCE + 1e-9


def _summing_to_one(value, length: int, what: str, whole: str = "the row") -> tuple[Row, float]:
    """``_probabilities`` whose sum is within ``SUM_TOLERANCE`` of 1 (the last rule, checked after
    theirs), and that sum; ``whole`` names what sums to 1 in the fix (a multilabel label's pair)."""
    row = _probabilities(value, length, what)
    total = _total(row)
    if not _sums_to_one(total):
        # finite values whose sum overflows are named as such (not "inf"); an empty row sums to 0
        overflow = "values too large to add up (the sum overflows; the largest value is {:g})"
        fix = f"divide each value by {whole}'s sum"
        if max(row, default=0) > 1:  # no probabilities: a model's logits, or counts or percentages
            fix = (
                "values above 1 are no probabilities: if they are a model's raw scores (logits), "
                f"apply a softmax (scipy.special.softmax); if counts or percentages, {fix}"
            )
        if total == 0:  # nothing to divide by
            fix = f"give each label's probability, {whole} summing to 1 (all zeros gives none)"
        raise ValueProblem(
            f"{what} does not sum to 1",
            expected=f"a sum within {SUM_TOLERANCE} of 1",
            found=f"sum {shown_outside(total, _sums_to_one)}"
            if math.isfinite(total)
            else overflow.format(max(row)),
            hint=fix,
        )
    return row, total


def _normalised(row: Row, total: float, quiet: bool = False) -> tuple[Row, list[ReadNote]]:
    """The row divided by its sum ``total``, and a note when it was renormalised (a sum off by more
    than 1e-6) unless ``quiet`` (a row whose change another note announces)."""
    notes = [] if quiet or abs(total - 1) <= 1e-6 else [ReadNote(RENORMALISED)]
    return [x / total for x in row], notes


def soft_label(value, track: Track) -> tuple[list, list[ReadNote]]:
    """A soft label (a JSON value) as a list of K probabilities in the track's label order (multilabel:
    K pairs [P(not chosen), P(chosen)]), and the notes of what was done to it (renormalised,
    a bin dropped); ValueProblem names the first rule it breaks. Ordinal tracks also take K+1 values
    whose extra leading bin holds at most ``SUM_TOLERANCE`` (``kinds.soft_label.LEADING_BIN_LAYOUT``):
    the K+1 values follow the rules, then the bin is dropped and the rest renormalised."""
    k = len(track.labels)
    if track.scale == "multilabel":
        return _multilabel(value, track)
    leading_bin = type(value) is list and len(value) == k + 1 and is_number(value[0])
    if track.scale == "ordinal" and leading_bin:
        _refuse_extra_bin_either_end(value, track)
        return _without_leading_bin(value, track)
    return _normalised(*_summing_to_one(value, k, "soft label"))


def _refuse_extra_bin_either_end(value: list, track: Track) -> None:
    """Refuses a list of K+1 values whose first holds mass and whose last is 0: the extra bin may be
    the practice phase's leading "0" bin or an empty bin after the last label, and the two readings
    put every probability on another label (a first value of exactly 0 is the practice files')."""
    k, first, last = len(track.labels), float(value[0]), value[-1]
    if not (first > 0 and is_number(last) and float(last) == 0):
        return
    labels = f"{track.labels[0]}..{track.labels[-1]}"
    raise ValueProblem(
        "wrong soft label length",
        expected=f"a list of {k} probabilities",
        found=f"{k + 1} values, the first {first:g} and the last 0",
        hint=f'the extra bin may be the first ({PRACTICE_PHASE_LAYOUT}, whose first bin "0" '
        f"is dropped: the labels {labels} are the last {k} values) or the last (an empty bin after "
        f"label {track.labels[-1]}: the labels are the first {k} values); the 2 readings score "
        f"differently, so drop the extra bin yourself and give the {k} values of the labels "
        f"{labels}",
    )


def _without_leading_bin(
    value: list, track: Track, shape: str = "a row of {} values", drop: str = "drop the first value"
) -> tuple[list, list[ReadNote]]:
    """An ordinal soft label of K+1 values whose first is a number: a bin to drop when it holds at
    most ``SUM_TOLERANCE``, else refused, naming ``PRACTICE_PHASE_LAYOUT``, the value's ``shape``
    (of K+1) and the way to ``drop`` the bin (an object's: remove its key)."""
    k, first = len(track.labels), float(value[0])
    if not _droppable(first):
        raise ValueProblem(
            "wrong soft label length",
            expected=f"a list of {k} probabilities",
            found=f"{k + 1} values, the first {shown_outside(first, _droppable)}",
            hint=f"{shape.format(k + 1)} looks like {PRACTICE_PHASE_LAYOUT}, which "
            f'had an extra, always-zero first bin "0": {drop} (it '
            f"holds probability here, so check that the other {k} are the labels "
            f"{track.labels[0]}..{track.labels[-1]})",
        )
    row = _summing_to_one(value, k + 1, "soft label")[0][1:]
    probabilities, notes = _normalised(row, _total(row), quiet=first > 0)
    dropped = ReadNote(EMPTY_LEADING_BIN) if first == 0 else ReadNote(LEADING_BIN_WITH_MASS, first)
    return probabilities, notes + [dropped]


def _multilabel(value, track: Track) -> tuple[list, list[ReadNote]]:
    """``soft_label`` on a multilabel track: K pairs [P(not chosen), P(chosen)] ``(K, 2)``, given as
    such or as K numbers P(chosen)."""
    k = len(track.labels)
    if type(value) is not list or len(value) != k:
        raise ValueProblem(
            "wrong soft label length",
            found=show_json(value),
            expected=f"a list of {k} [P(not chosen), P(chosen)] pairs, or of {k} P(chosen) "
            f"values, one per label ({', '.join(track.labels)})",
            hint=null_hint(value),
        )
    # no pair nor object among them: K values P(chosen), whose rules name a boolean or a string
    if not any(isinstance(v, (list, dict)) for v in value):
        chosen = _probabilities(value, k, "soft label", chosen=True)
        return [[1.0 - x, x] for x in chosen], [ReadNote(CHOSEN_ONLY, alignment=CHOSEN_AS_LIST)]
    pairs = [
        _normalised(*_summing_to_one(pair, 2, f"pair for '{label}'", "the pair"))
        for label, pair in zip(track.labels, value)
    ]
    return [pair for pair, _ in pairs], [note for _, notes in pairs for note in notes]


def parse_soft(text: str, track: Track, notes: list[ReadNote]) -> list:
    """One soft label of a line's text by ``soft_label_by_name``."""
    probabilities, read = soft_label_by_name(parse_value(text, track, notes), track)
    notes += read
    return probabilities


def _named_twice(codes: dict, track: Track) -> ValueProblem:
    """The problem of a soft-label object (``codes``: key -> label index) naming a label twice,
    with two keys of that label (its name and an alias, say)."""
    counts = Counter(codes.values())
    twice = next(code for code, count in counts.items() if count > 1)
    keys = [key for key, code in codes.items() if code == twice]
    return ValueProblem(
        "soft label names a label twice",
        "each label once",
        show(", ".join(map(str, codes))),
        f"{keys[0]!r} and {keys[1]!r} both name the label {track.labels[twice]!r}: keep one key "
        "per label",
    )


def soft_label_by_name(value, track: Track) -> tuple[list, list[ReadNote]]:
    """``soft_label`` of a JSON value, or of an object label -> probability keyed as releases key
    theirs (a label's name or alias, a missing label 0): a number label also by value ("0.0", MP
    dev), a multilabel pair as {"0": .., "1": ..} (VariErrNLI); an unknown key is refused naming
    the labels it probably meant (``labels_meant``), a refused object names its missing labels."""
    if not isinstance(value, dict):
        return soft_label(value, track)
    codes = dict(zip(value, track.label_set.codes(list(value))))
    missing = [repr(label) for code, label in enumerate(track.labels) if code not in codes.values()]
    lacking = f"the object has no key {', '.join(missing)}" if missing else None
    unknown = sorted((key for key, code in codes.items() if code < 0), key=str)
    if not missing and _is_leading_bin_key(unknown, value, track):
        return _object_without_leading_bin(value, codes, unknown[0], track)
    if unknown:
        raise ValueProblem(
            "soft label names an unknown label",
            expected="keys " + ", ".join(track.labels),
            found=show(", ".join(map(str, unknown))),
            hint=labels_meant(list(map(str, unknown)), track) or lacking,
        )
    if len(set(codes.values())) < len(codes):
        raise _named_twice(codes, track)
    given = {code: value[key] for key, code in codes.items()}
    row = [given.get(code, 0.0) for code in range(len(track.labels))]
    if track.scale == "multilabel":
        row = [
            [v["0"], v["1"]] if isinstance(v, dict) and v.keys() == {"0", "1"} else v for v in row
        ]
    try:
        probabilities, notes = soft_label(row, track)
    except ValueProblem as problem:
        problem.hint = _lacking_hint(problem, lacking, row)
        raise
    # the object's P(chosen) values were read as a list: the note names the form given
    notes = [n._replace(alignment=CHOSEN_AS_OBJECT) if n.kind == CHOSEN_ONLY else n for n in notes]
    if missing:
        titles = " and ".join(get_metric(metric).title for metric in track.metrics)
        missed = ReadNote(MISSING_LABELS, alignment=f"no {', '.join(missing)}", metrics=titles)
        notes.insert(0, missed)
    return probabilities, notes


def _lacking_hint(problem: ValueProblem, lacking: str, row: list) -> str:
    """The hint of a refused soft-label object that has no key ``lacking`` names (or None): a sum
    below 1 is fixed by adding the missing labels' probabilities (dividing by the sum would put all
    the mass on the labels given), any other problem by its own fix."""
    if lacking and problem.message == "soft label does not sum to 1" and _total(row) < 1:
        return f"{lacking} (read as 0): add each missing label's probability, the row summing to 1"
    return "; ".join(filter(None, [lacking and lacking + " (read as 0)", problem.hint]))


def _is_leading_bin_key(unknown: list, value: dict, track: Track) -> bool:
    """Whether the one unknown key of an ordinal soft-label object is the extra leading bin of
    ``LEADING_BIN_LAYOUT`` (the label before the first by value, "0" before "1"), holding a number."""
    if track.scale != "ordinal" or len(unknown) != 1 or not is_number(value[unknown[0]]):
        return False
    try:
        return float(unknown[0]) == float(track.labels[0]) - 1
    except ValueError:
        return False


def _object_without_leading_bin(value: dict, codes: dict, key, track: Track):
    """A soft-label object of every label and the extra leading bin ``key``, read as the list of
    K+1 values is (``_without_leading_bin``): the bin dropped where it holds no mass, else refused
    naming the key."""
    given = {code: value[name] for name, code in codes.items() if code >= 0}
    row = [value[key], *(given[code] for code in range(len(track.labels)))]
    try:
        return _without_leading_bin(row, track, "an object of {} keys", f'remove the key "{key}"')
    except ValueProblem as problem:
        keys = ", ".join(map(str, value))
        held = shown_outside(float(value[key]), _droppable)
        problem.found = f"the key {str(key)!r} holding {held} (keys {keys})"
        problem.expected = "keys " + ", ".join(track.labels)
        raise
