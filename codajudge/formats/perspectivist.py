"""The rules of a perspectivist row (one label, or one list of labels, per annotator of the item):
``annotator_entries`` reads its entries as written, ``annotator_values`` their labels."""

from __future__ import annotations

from typing import Callable
from collections.abc import Sequence
import re
from itertools import chain

import numpy as np

from ..errors import counted, first_few
from ..kinds.base import split_multilabel
from ..tracks import Track
from .notes import ReadNote
from .textfile import shorten
from .values import ValueProblem, is_number, not_a_number_hint, outside_label_set, parse_value
from .values import null_hint, show, show_json


def written_label_major(value, annotators: int, track: Track) -> bool:
    """Whether a row (a JSON value) of an item of ``annotators`` annotators on ``track`` is
    written label-major: a list of lists of 0/1 marks, right or wrong (numbers, booleans, and "0"
    or "1" where they are no labels: ``true`` or ``"1"`` among 0/1 entries is a label-major row's
    wrong entry, which ``_label_major`` names), or the K empty vectors of an item without
    annotators (empty lists for an item's annotators are annotator-major: none chose a label).
    Whether such a row follows the label-major rule is ``_label_major``'s."""
    if not (type(value) is list and all(type(vector) is list for vector in value)):
        return False
    entries = list(chain.from_iterable(value))
    if not entries:
        return len(value) == len(track.labels) and annotators == 0
    return all(_is_mark(entry, track) for entry in entries)


def _is_mark(entry, track: Track) -> bool:
    """Whether a row's entry is written as a label-major 0/1 choice, right or wrong."""
    if type(entry) is str:
        return entry in ("0", "1") and track.label_set.code(entry) < 0
    return is_number(entry) or type(entry) is bool


def annotator_entries(
    text: str, track: Track, annotators: Sequence[str], notes: list[ReadNote], longest: int
) -> list:
    """A row's entries as written (a label-major row as 0/1 tuples): a list in the item's annotator
    order, or an object annotator -> entry; ``notes`` gets the notes of the value's reading.
    ``annotators.RowFit`` fits them to the item's annotators, rows of at most
    ``longest`` entries."""
    value = parse_value(text, track, notes, longest)
    multilabel = track.scale == "multilabel"
    if multilabel and written_label_major(value, len(annotators), track):
        return _label_major(value, track, annotators)
    if isinstance(value, dict):
        known = set(annotators)  # once: per key, a set of the item's annotators costs them all
        missing = [a for a in annotators if a not in value]
        extra = [a for a in value if a not in known]
        if missing or extra:
            raise ValueProblem(
                "annotators do not match the item's annotators",
                expected=", ".join(annotators),
                found=f"missing {missing[:5]}, unknown {[shorten(a, 40) for a in extra[:5]]}",
                hint=_keys_written_otherwise(extra, missing, annotators)
                or "give one label for each of the item's annotators, keyed by their ids as in "
                "the item's annotators field (input data)",
            )
        value = [value[a] for a in annotators]
    if not isinstance(value, list):
        raise ValueProblem(
            "a perspectivist prediction must be a JSON list",
            expected=f"a list with one entry per annotator ({len(annotators)})",
            found=show_json(value),
            hint=null_hint(value),
        )
    return value


#: An annotator id's parts: the text before its first digit (a prefix such as "Ann"), and the rest.
_ID_PARTS = re.compile(r"(\D*)(.*)", re.DOTALL)


def _keys_written_otherwise(
    unknown: Sequence[str], missing: Sequence[str], annotators: Sequence[str]
) -> str | None:
    """The hint for an object's ``unknown`` keys that are each one of the ``missing`` annotator ids
    written otherwise (``_written_as``), saying how, with their count; else None."""
    key = {_id_key(name): name for name in missing}
    meant = [key.get(_id_key(name)) for name in unknown]
    if not unknown or len(key) < len(missing) or None in meant or len(set(meant)) < len(meant):
        return None
    differences = [_written_as(u, e) for u, e in zip(unknown, meant)]
    if None in differences:
        return None
    n = len(unknown)
    return (
        f"{counted(n, 'unknown key')} {'is' if n == 1 else 'are'} the item's annotator ids "
        f"written {differences[0]} ({shorten(unknown[0], 40)!r} for {meant[0]!r}): key each label "
        f"by the id as the item's annotators field (input data) writes it: "
        f"{first_few(list(annotators))}"
    )


def _id_key(name: str) -> str:
    """An annotator id's part from its first digit on, else the whole id, without spaces around it
    and case-folded: the ids written otherwise that ``_written_as`` names share it."""
    folded = name.strip().casefold()
    return _ID_PARTS.match(folded).group(2) or folded


def _written_as(given: str, name: str) -> str | None:
    """How ``given`` differs from the annotator id ``name`` when it is that id with spaces around
    it, without the start of its prefix or with more in front, or in another case; else None."""
    wrote, meant = _ID_PARTS.match(given.strip()).group(1), _ID_PARTS.match(name).group(1)
    short = min(len(wrote), len(meant))
    if wrote[len(wrote) - short :].casefold() != meant[len(meant) - short :].casefold():
        return None
    differences = ["with spaces around them"] if given != given.strip() else []
    if len(wrote) < len(meant):
        differences.append(f"without the {meant[: len(meant) - short]!r} prefix")
    if len(wrote) > len(meant):
        differences.append(f"with an extra prefix {wrote[: len(wrote) - short]!r}")
    if given.strip()[len(wrote) - short :] != name[len(meant) - short :]:
        differences.append("in another case")
    return ", ".join(differences)


def annotator_values(
    entries: list, track: Track, hint: Callable[[], str | None] = lambda: None
) -> list:
    """Label indices, or on multilabel tracks rows of K 0/1 choices, of a row's entries, one per
    entry (``hint``: called for a label outside the set, ``index_hints.labels_as_indices_hint``'s)."""
    if track.scale == "multilabel":
        return [e if isinstance(e, tuple) else _multilabel_choice(e, track) for e in entries]
    codes = track.label_set.codes(entries)
    if min(codes, default=0) < 0:
        wrong = entries[codes.index(-1)]
        raise outside_label_set(wrong, track, show_json(wrong), hint())
    return codes


def empty_label_sets(entries: list, track: Track) -> int:
    """How many of a row's entries on a multilabel track name no label ("", [], ","): the
    annotator chose none, a prediction the metric scores (``notes.NO_LABEL`` tells it)."""
    if track.scale != "multilabel":
        return 0
    return sum(not isinstance(e, tuple) and split_multilabel(e) == [] for e in entries)


def as_annotator_array(values: list, track: Track) -> np.ndarray:
    """``annotator_values`` of one or more rows, joined: label indices ``(m,)``, or on multilabel
    tracks 0/1 choices ``(m, K)``."""
    if track.scale == "multilabel":
        return np.array(values, dtype=float).reshape(-1, len(track.labels))
    return np.array(values, dtype=np.int64)


def _is_choice(entry) -> bool:
    """A label-major entry: the number 0 or 1 (not ``true``, which equals 1, nor ``"1"``)."""
    return is_number(entry) and entry in (0, 1)


def _label_major(value: list, track: Track, annotators: Sequence[str]) -> list[tuple]:
    """A label-major row as each annotator's 0/1 choices (a tuple of K: JSON writes no tuple, so
    ``annotator_values`` knows them read): K vectors of 0/1, one per label, each with one entry per
    annotator (``annotators``, the item's, in order); when it breaks the rule, which part and how."""
    k, m = len(track.labels), len(value[0])
    equal = all(len(vector) == m for vector in value)
    if len(value) == k and equal and all(map(_is_choice, chain.from_iterable(value))):
        return list(zip(*value))
    lengths = sorted({len(v) for v in value})
    layout = f"{k} vectors of 0/1 ({', '.join(track.labels)}), each with one entry per annotator of the item"
    if len(value) != k:
        raise ValueProblem(
            "0/1 vectors are read label-major: one vector per label",
            expected=layout,
            found=f"{len(value)} vectors of {'/'.join(map(str, lengths))} entries",
            hint="this looks like one vector per annotator: write one vector per label instead "
            "(transpose it)"
            if lengths == [k]
            else None,
        )
    if not equal:
        raise ValueProblem(
            "the label vectors have different lengths",
            expected=layout + ", all equally long",
            found=f"vectors of {', '.join(str(len(v)) for v in value)} entries",
        )
    label, position, entry = next(
        (label, position, entry)
        for label, vector in zip(track.labels, value)
        for position, entry in enumerate(vector)
        if not _is_choice(entry)
    )
    annotator = f"the item has {counted(len(annotators), 'annotator')}"
    if position < len(annotators):
        annotator = f"annotator {annotators[position]!r}"
    raise ValueProblem(
        "a label vector holds a value other than 0 or 1",
        expected=layout,
        found=f"{show_json(entry)} in the vector of label {label!r}, entry {position + 1} "
        f"({annotator})",
        hint=not_a_number_hint(entry) or "1 = the annotator chose the label, 0 = not",
    )


def _multilabel_choice(value, track: Track) -> list[float]:
    parts = split_multilabel(value) if isinstance(value, str) else value
    if not (isinstance(parts, list) and all(isinstance(v, str) for v in parts)):
        raise ValueProblem(
            "an annotator's labels must be a list of labels or a comma-separated string",
            expected=f'e.g. ["entailment", "neutral"], or the whole row label-major: '
            f"{len(track.labels)} vectors of 0/1 entries, one per label",
            found=show_json(value),
            hint=null_hint(value),
        )
    codes = track.label_set.codes(parts)
    if min(codes, default=0) < 0:
        part = parts[codes.index(-1)].strip()
        raise outside_label_set(part, track, show(part))
    return [float(label in codes) for label in range(len(track.labels))]
