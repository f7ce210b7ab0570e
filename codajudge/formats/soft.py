"""The rules of soft labels (probability vectors, multilabel pairs), over a column (each row's
first broken rule) and on one value (``parse_soft``)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain, compress
from operator import itemgetter
from typing import Callable, List, NamedTuple, Tuple

import numpy as np

from ..kinds.soft_label import PRACTICE_PHASE_LAYOUT, SUM_TOLERANCE
from ..errors import counted
from ..tracks import Track
from .bulk import list_sizes
from .notes import EMPTY_LEADING_BIN, LEADING_BIN_WITH_MASS, RENORMALISED, ReadNote
from .values import (
    NUMBER_TYPES,
    ValueProblem,
    is_number,
    parse_value,
    show,
    show_json,
)


def _sum_found(row: np.ndarray) -> str:
    """A row's sum for a message; finite values whose sum overflows are named as such (not "inf")."""
    with np.errstate(over="ignore", invalid="ignore"):
        total = row.sum()
    if np.isfinite(total):
        return f"sum {total:.6g}"
    return f"values too large to add up (the sum overflows; the largest value is {row.max():g})"


#: The rules of a list of probabilities in the order ``probability_rows`` checks them: the message,
#: expected and found (of the value and its row of floats) of a value breaking each.
_RULES = (
    (
        "wrong {what} length",
        "a list of {length} probabilities",
        lambda value, row: (
            counted(len(value), "value") if type(value) is list else show_json(value)
        ),
    ),
    (
        "{what} holds a value that is not a finite number",
        "finite numbers",
        lambda value, row: show_json(next(v for v in value if not is_number(v))),
    ),
    (
        "{what} has a negative probability",
        "probabilities >= 0",
        lambda value, row: f"{row.min():g}",
    ),
    (
        "{what} does not sum to 1",
        f"a sum within {SUM_TOLERANCE} of 1",
        lambda value, row: _sum_found(row),
    ),
    ("a P(chosen) value is above 1", "values in [0, 1]", lambda value, row: f"{row.max():g}"),
)


class ProbabilityRows(NamedTuple):
    """A column of values by the rules of a list of probabilities: the values that are lists of
    JSON numbers as float ``rows`` ``(n, length)`` (NaN for the others), and per value the index in
    ``_RULES`` of the first rule it breaks (``broken_rule``, -1: none)."""

    rows: np.ndarray
    broken_rule: np.ndarray


def probability_rows(values: list, length: int, chosen: bool = False) -> ProbabilityRows:
    """The values by the rules of a list of ``length`` probabilities. P(chosen) values (``chosen``)
    must be at most 1 (rounding aside) rather than sum to 1."""
    fits = list_sizes(values) == length
    numbers = fits.copy()
    if (
        not set(map(type, chain.from_iterable(compress(values, fits)))) <= NUMBER_TYPES
    ):  # which rows hold others
        numbers[fits] = (
            np.fromiter(
                map(
                    NUMBER_TYPES.__contains__,
                    map(type, chain.from_iterable(compress(values, fits))),
                ),
                dtype=bool,
                count=int(fits.sum()) * length,
            )
            .reshape(-1, length)
            .all(axis=1)
        )
    rows = np.full((len(values), length), np.nan)
    rows[numbers] = np.fromiter(
        chain.from_iterable(compress(values, numbers)),
        dtype=float,
        count=int(numbers.sum()) * length,
    ).reshape(-1, length)
    # a sum of huge values is infinite, and one of both infinities (integers of over 300 digits, read
    # as floats) is NaN: refused by the rules, never a warning
    with np.errstate(over="ignore", invalid="ignore"):
        checks = np.array(
            [
                ~fits,
                ~numbers,
                ~(np.isfinite(rows) & (rows >= 0)).all(axis=1),
                (not chosen) & (np.abs(rows.sum(axis=1) - 1) > SUM_TOLERANCE),
                chosen & (rows > 1 + 1e-9).any(axis=1),
            ]
        )
    return ProbabilityRows(rows, np.where(checks.any(axis=0), checks.argmax(axis=0), -1))


def _problem(rule: int, value, row: np.ndarray, what: str, length: int) -> ValueProblem:
    message, expected, found = _RULES[rule]
    return ValueProblem(
        message.format(what=what),
        expected=expected.format(length=length),
        found=found(value, row),
        hint="divide each value by the row's sum" if rule == 3 else None,
    )


def _normalised(
    rows: np.ndarray, bad: np.ndarray, quiet=False
) -> Tuple[np.ndarray, List[ReadNote]]:
    """The rows divided by their sums (NaN for ``bad`` rows), and a note per row renormalised (a sum
    off by more than 1e-6) that is not ``quiet`` (a row whose change another note announces)."""
    rows = np.where(bad[:, None], np.nan, rows)
    totals = rows.sum(axis=1, keepdims=True)
    renormalised = int(((np.abs(totals[:, 0] - 1) > 1e-6) & ~quiet).sum())
    return rows / totals, [ReadNote(RENORMALISED)] * renormalised


class LeadingBins(NamedTuple):
    """The leading bins of a column of ordinal soft labels of K labels: per value, the first entry
    of a list of K+1 whose first entry is a number (``first``, NaN for any other value), and the
    rows whose first entry is a bin to drop, a mass of at most ``SUM_TOLERANCE`` (``droppable``,
    row indices)."""

    first: np.ndarray
    droppable: np.ndarray


def _leading_bins(values: list, k: int) -> LeadingBins:
    """The leading bins of ``values`` on a track of ``k`` labels."""
    first = np.full(len(values), np.nan)
    longer = np.flatnonzero(list_sizes(values) == k + 1)
    heads = list(map(itemgetter(0), map(values.__getitem__, longer.tolist())))
    numeric = np.fromiter(map(is_number, heads), dtype=bool, count=len(heads))
    first[longer[numeric]] = np.fromiter(
        compress(heads, numeric), dtype=float, count=int(numeric.sum())
    )
    return LeadingBins(first, np.flatnonzero((first >= 0) & (first <= SUM_TOLERANCE)))


@dataclass(frozen=True, eq=False)
class SoftLabelColumn:
    """A column of soft labels read by ``soft_label_rows``: ``probabilities`` in the track's label
    order, ``(n, K)`` (multilabel: ``(n, K, 2)`` pairs [P(not chosen), P(chosen)]), NaN on the rows
    that break a rule (``broken``, a mask); ``problem(j)``: the first rule row j breaks; ``notes``:
    what was done to the other rows (renormalised, a bin dropped), for the warnings."""

    probabilities: np.ndarray
    broken: np.ndarray
    problem: Callable[[int], ValueProblem]
    notes: List[ReadNote]


def soft_label_rows(track: Track, values: list) -> SoftLabelColumn:
    """A column of soft labels (JSON values), each row by the rules of a list of K probabilities.
    Ordinal tracks also take K+1 values whose extra leading bin holds at most ``SUM_TOLERANCE``
    (``kinds.soft_label.LEADING_BIN_LAYOUT``): the K+1 values follow the rules, then the bin is
    dropped and the rest renormalised."""
    k = len(track.labels)
    if track.scale == "multilabel":
        return _multilabel_rows(track, values)
    rows, broken = probability_rows(values, k)
    first, cut = (
        _leading_bins(values, k)
        if track.scale == "ordinal"
        else LeadingBins(np.full(len(values), np.nan), np.array([], int))
    )
    longer, broken[cut] = probability_rows(list(map(values.__getitem__, cut.tolist())), k + 1)
    rows[cut] = longer[:, 1:]
    wrong_bin = ~np.isnan(first)
    wrong_bin[cut] = False
    bad = wrong_bin | (broken >= 0)
    out, notes = _normalised(rows, bad, quiet=first > 0)  # NaN, no bin, is not above 0

    def problem(j: int) -> ValueProblem:
        if not wrong_bin[j]:
            row = probability_rows([values[j]], k + 1).rows[0] if j in cut else rows[j]
            return _problem(broken[j], values[j], row, "soft label", k)
        return ValueProblem(
            "wrong soft label length",
            expected=f"a list of {k} probabilities",
            found=f"{k + 1} values, the first {first[j]:g}",
            hint=f"a row of {k + 1} values looks like {PRACTICE_PHASE_LAYOUT}, which "
            f'had an extra, always-zero first bin "0": drop the first value (it '
            f"holds probability here, so check that the other {k} are the labels "
            f"{track.labels[0]}..{track.labels[-1]})",
        )

    dropped = ~bad & ~np.isnan(first)
    return SoftLabelColumn(
        out,
        bad,
        problem,
        notes
        + [ReadNote(EMPTY_LEADING_BIN)] * int((dropped & (first == 0)).sum())
        + [ReadNote(LEADING_BIN_WITH_MASS, mass) for mass in first[dropped & (first > 0)].tolist()],
    )


def _multilabel_rows(track: Track, values: list):
    """``soft_label_rows`` of a multilabel track: K pairs [P(not chosen), P(chosen)] per row ``(n, K, 2)``,
    given as such or as K numbers P(chosen)."""
    k = len(track.labels)
    chosen, chosen_broken = probability_rows(values, k, chosen=True)
    shaped = chosen_broken == 1  # K entries, not all numbers: K pairs
    pairs, pair_broken = probability_rows(list(chain.from_iterable(compress(values, shaped))), 2)
    bad = chosen_broken >= 0
    bad[shaped] = (pair_broken >= 0).reshape(-1, k).any(axis=1)
    out = np.stack([1.0 - chosen, chosen], axis=-1)
    normalised, notes = _normalised(pairs, np.repeat(bad[shaped], k))
    out[shaped] = normalised.reshape(-1, k, 2)

    def problem(j: int) -> ValueProblem:
        if chosen_broken[j] == 0:
            return ValueProblem(
                "wrong soft label length",
                found=show_json(values[j]),
                expected=f"a list of {k} [P(not chosen), P(chosen)] pairs ({', '.join(track.labels)})",
            )
        if not shaped[j]:
            return _problem(chosen_broken[j], values[j], chosen[j], "soft label", k)
        pair = int(shaped[:j].sum()) * k
        pair += int((pair_broken[pair : pair + k] >= 0).argmax())
        return _problem(
            pair_broken[pair],
            values[j][pair % k],
            pairs[pair],
            f"pair for '{track.labels[pair % k]}'",
            2,
        )

    return SoftLabelColumn(out, bad, problem, notes)


def parse_soft(text: str, track: Track, notes: List[ReadNote]) -> np.ndarray:
    """One soft label by ``soft_label_rows``, or an object label -> probability keyed as releases key theirs:
    a number label also by value ("0.0", MP dev), a multilabel pair as {"0": .., "1": ..} (VariErrNLI)."""
    value = parse_value(text, track, notes)
    if isinstance(value, dict):
        codes = dict(zip(value, track.label_set.codes(list(value))))
        unknown = sorted((key for key, code in codes.items() if code < 0), key=str)
        if unknown:
            raise ValueProblem(
                "soft label names an unknown label",
                expected="keys " + ", ".join(track.labels),
                found=show(", ".join(map(str, unknown))),
            )
        if len(set(codes.values())) < len(codes):
            raise ValueProblem(
                "soft label names a label twice",
                expected="each label once",
                found=show(", ".join(value)),
            )
        given = {code: value[key] for key, code in codes.items()}
        value = [given.get(code, 0.0) for code in range(len(track.labels))]
        if track.scale == "multilabel":
            value = [
                [v["0"], v["1"]] if isinstance(v, dict) and v.keys() == {"0", "1"} else v
                for v in value
            ]
    column = soft_label_rows(track, [value])
    if column.broken[0]:
        raise column.problem(0)
    notes += column.notes
    return column.probabilities[0]
