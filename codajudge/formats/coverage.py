"""Which of a track's items a file covers: the messages every reader gives for items without a
prediction and for ids that are not the track's (one wording for every layout)."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from functools import cached_property
from dataclasses import replace
from pathlib import Path, PurePosixPath
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from .. import kinds

from ..errors import ProblemCollector, SubmissionError, counted, plural
from ..untrusted import read_head
from .textfile import NO_QUOTES, other_digits_hint, shorten, unquoted

UNKNOWN_ID = "unknown id: not an item of this track"


def unknown_id(
    problems: ProblemCollector,
    head: str,
    ids: Mapping[str, int],
    line=None,
    hint=None,
    described: str | None = None,
) -> None:
    """Add the problem of a record (at ``line``, if known) naming ``head``, no item of ``ids`` (id
    -> item index), with ``hint`` (the file's cause, if known) or one of its own: the id written
    otherwise (``written_ids_hint``), else ``described`` (``numbered_ids_hint``, once per file),
    else an id of the track."""
    shown = f"ids look like {next(iter(ids))!r}" if ids else None
    own = written_ids_hint(head, ids) or described or shown
    problems.add(UNKNOWN_ID, line=line, item=shorten(head), hint=hint or own)


def numbered_ids_hint(heads: Sequence[str], ids: Mapping[str, int]) -> str | None:
    """For a track whose ids (``ids``: id -> item index) are the whole numbers from ``low`` to
    ``high``, each once ("0".."249"), the hint on a file's unknown ids: the track's number of
    items and that range, and where every id of the file (``heads``) is a track's id shifted by
    one (1..250 for 0..249, or the other way), that the ids are shifted; else None."""
    try:
        numbers = [int(key) for key in ids]
    except ValueError:
        return None
    low, high = (min(numbers), max(numbers)) if numbers else (0, -1)
    if high - low + 1 != len(numbers) or list(map(str, numbers)) != list(ids):
        return None
    text = f"the track has {counted(len(numbers), 'item')}, ids {str(low)!r} to {str(high)!r}"
    given = [int(head) for head in heads if head.isascii() and head.isdigit()]
    for shift in (1, -1):
        if len(given) == len(heads) and all(low <= n - shift <= high for n in given):
            first, last = str(min(given)), str(max(given))
            fix = f"write each id {'minus' if shift > 0 else 'plus'} 1"
            return f"{text}: the file's ids ({first!r} to {last!r}) are shifted by one; {fix}"
    return text


def written_ids_hint(head: str, ids: Mapping[str, int]) -> str | None:
    """The hint for ``head``, an id of ``ids`` (id -> item index) in quotes (as ``json.dumps`` or
    ``repr`` writes a string), written as a float (``42473.0``: pandas writes an integer column
    holding a NaN so), in other case (``cased_ids_hint``) or with digits other than ASCII's
    (``other_digits_hint``), else None."""
    inner = unquoted(head)
    if inner in ids:
        fix = f"write the ids without quotes ({NO_QUOTES})"
        return f"that is the track's id {inner!r} in quotes: {fix}"
    if head.endswith(".0") and head[:-2] in ids:
        fix = 'write integer ids (df["id"].astype(int))'
        return f"ids written as floats ({head!r} for {head[:-2]!r}): {fix}"
    hint = cased_ids_hint(head, ids) or zero_padded_hint(head, ids)
    return hint or other_digits_hint(head, f"the id {head!r}")


def cased_ids_hint(head: str, ids: Mapping[str, int]) -> str | None:
    """The hint for ``head``, an id of ``ids`` once its letters are all lower or all upper case, or
    title-cased (``str.upper()`` or ``str.lower()`` of the ids, a spreadsheet's capitals): the ids
    differ from the track's only by case (told before any prefix ``prefixed_ids_hint`` would name
    in a case-sensitive comparison), else None."""
    cased = (head.lower(), head.upper(), head.title(), head.capitalize())
    meant = next((i for i in cased if i != head and i in ids), None)
    if meant is None:
        return None
    fix = "write them as the input file gives them (its 'id' field), not re-cased"
    return f"the ids differ from the track's only by case ({head!r} for {meant!r}): {fix}"


#: The longest id a file's number is padded to with zeros to find it among the track's.
PADDED_MOST = 12


#: An id ending in a number: the text before it, and the number's digits.
_NUMBERED = re.compile(r"(.*?)([0-9]+)")


def zero_padded_hint(head: str, ids: Mapping[str, int]) -> str | None:
    """The hint for ``head``, an id ending in a number, that is an id of ``ids`` once that number's
    leading zeros are removed (``0001`` for ``1``, ``test-001`` for ``test-1``) or once zeros are
    put in front of it (``1`` for ``0001``), else None."""
    numbered = _NUMBERED.fullmatch(head) if head.isascii() else None
    if numbered is None:
        return None
    prefix, number = numbered.groups()
    stripped = prefix + (number.lstrip("0") or "0")
    widths = range(len(number) + 1, PADDED_MOST + 1)
    padded = (prefix + number.zfill(width) for width in widths)
    meant = next((i for i in (stripped, *padded) if i != head and i in ids), None)
    if meant is None:
        return None
    shown = f"({head!r} for the track's {meant!r})"
    if len(meant) < len(head):
        fix = "write the ids as the input file gives them, without leading zeros (not f'{id:04d}')"
        return f"ids padded with zeros {shown}: {fix}"
    fix = "write the ids as the input file gives them (its 'id' field, a string: not int(id))"
    return f"ids without the track's leading zeros {shown}: {fix}"


#: The longest leading part of a file's ids (a dataset's or track's name) ``prefixed_ids_hint``
#: tries removing: the ids are the participant's, of any length.
EXTRA_PREFIX_MOST = 64


def prefixed_ids_hint(heads: Sequence[str], ids: Mapping[str, int]) -> str | None:
    """The hint for a file's first ids (``heads``, up to ``IDS_LOOKED_UP``; one at least) that are
    each an id of ``ids`` (id -> item index) once a leading part they all share, ending in a
    separator (``ArMIS_``, a dataset's name), is removed and/or a prefix every id of ``ids`` starts
    with is put in front (the LeWiDi 2023 kit's ``dev-1`` of the release's ``1``): the shortest
    such part, removed alone if it can be, else with the longest such prefix; else None."""
    shared, looked_up = os.path.commonprefix(list(ids)), heads[:IDS_LOOKED_UP]
    extra = os.path.commonprefix(list(looked_up))[:EXTRA_PREFIX_MOST]
    cuts = [0] + [end for end in range(1, len(extra) + 1) if not extra[end - 1].isalnum()]
    prefixes = [shared[:end] for end in range(len(shared), 0, -1)]  # the longest first
    for cut in cuts:
        for prefix in ([""] if cut else []) + prefixes:  # something removed or added
            if all(prefix + head[cut:] in ids for head in looked_up):
                return _prefix_hint(looked_up[0], extra[:cut], prefix)
    return None


def _prefix_hint(head: str, removed: str, added: str) -> str:
    """The hint for ids such as ``head`` that are the track's with ``removed`` taken off their
    start and ``added`` put in front."""
    shown = f"{head!r} for {added + head[len(removed) :]!r}"
    fix = "write the ids as the input file gives them (its 'id' field)"
    if not removed:
        return f"these are the track's ids without their prefix {added!r} ({shown}): {fix}"
    missing = f", without their prefix {added!r}" if added else ""
    return (
        f"these are the track's ids with an extra prefix {removed!r}{missing} ({shown}): remove "
        f"{removed!r} and {fix}"
    )


#: How many ids of the items without a prediction a refusal lists.
MISSING_SHOWN = 5


def missing_items(ids: list[str], given: Sequence[int], problems: ProblemCollector) -> None:
    """Add the problem of the items of ``ids`` whose index is not in ``given`` (distinct item
    indices), if any: how many, how many the file has, and the first ``MISSING_SHOWN`` ids."""
    missing = np.setdiff1d(np.arange(len(ids)), np.asarray(given, dtype=np.int64))
    if not len(missing):
        return
    listed = ", ".join(repr(ids[i]) for i in missing[:MISSING_SHOWN])
    more = len(missing) - MISSING_SHOWN
    problems.add(
        f"{len(missing)} of the track's {counted(len(ids), 'item')} "
        f"{plural(len(missing), 'has', 'have')} no prediction "
        f"(the file has {len(ids) - len(missing)} of them): {listed}"
        + (f" and {more} more" if more > 0 else ""),
        hint="predict every item listed in the track's input file",
    )


#: Beside each phase's reference data: per other phase, per dataset, a short hash of each item id
#: (ids are public inputs; hashes keep the file small), so that a file of another phase's ids is
#: named as that phase's.
OTHER_PHASE_IDS = "other_phase_ids.json"
#: How many ids of a file are looked up: a file of another phase's ids has them on every line.
IDS_LOOKED_UP = 50


def id_hash(item_id: str) -> str:
    """A 12-hex-digit hash of an item id (48 bits: no collision among a few million ids)."""
    import hashlib  # here: the scoring program hashes ids only to explain a refused file

    return hashlib.blake2b(str(item_id).encode("utf-8"), digest_size=6).hexdigest()


def write_other_phase_ids(
    ref_dir: Path, own_split: str, phases: Iterable, splits: Mapping[str, Mapping[str, list[dict]]]
) -> None:
    """``ref_dir/other_phase_ids.json``: for every phase (``id``, ``split``) whose split differs from
    ``own_split``, each dataset's sorted id hashes."""
    doc = {
        phase.id: {
            dataset: sorted({id_hash(item["id"]) for item in items})
            for dataset, items in sorted(splits[phase.split].items())
        }
        for phase in phases
        if phase.split != own_split
    }
    text = json.dumps(doc, separators=(",", ":"), sort_keys=True) + "\n"
    (Path(ref_dir) / OTHER_PHASE_IDS).write_text(text, encoding="utf-8")


#: Beside each phase's reference data whose split leaves items out (a dataset's ``exclude``): per
#: dataset, the split, the split whose texts made them left out and a short hash of each item's id.
LEFT_OUT_IDS = "left_out_ids.json"


def write_left_out_ids(
    ref_dir: Path, split: str, left_out: Mapping[str, tuple[str, Sequence[str]]]
) -> None:
    """``ref_dir/left_out_ids.json`` of ``left_out`` (dataset -> (the split ``exclude`` names, the
    ids of ``split``'s items it left out)), written when some items were left out."""
    doc = {
        dataset: {"split": split, "exclude": other, "ids": sorted(map(id_hash, ids))}
        for dataset, (other, ids) in sorted(left_out.items())
        if ids
    }
    if doc:
        text = json.dumps(doc, separators=(",", ":"), sort_keys=True) + "\n"
        (Path(ref_dir) / LEFT_OUT_IDS).write_text(text, encoding="utf-8")


class PhaseIds(dict):
    """``other_phase_ids``: phase -> dataset -> id hashes, with ``left_out`` (``LEFT_OUT_IDS``'s
    document: dataset -> the split, the split excluded and the id hashes of the items left out)."""

    left_out: dict = {}


def other_phase_ids(ref_dir: Path) -> PhaseIds:
    """``write_other_phase_ids``'s document read back (phase -> dataset -> id hashes), with the
    items this phase's split leaves out (``write_left_out_ids``); empty when the reference data has
    none (a bundle built before it was written)."""
    phases, left = (Path(ref_dir) / name for name in (OTHER_PHASE_IDS, LEFT_OUT_IDS))
    doc = PhaseIds(json.loads(phases.read_text(encoding="utf-8")) if phases.is_file() else {})
    doc.left_out = json.loads(left.read_text(encoding="utf-8")) if left.is_file() else {}
    return doc


def part_items(
    n_items: int, phases: Mapping[str, Mapping[str, Sequence[str]]], dataset: str
) -> int:
    """The items of ``dataset``'s whole part: a phase's ``n_items`` and the other phases' items
    (``other_phase_ids``), each counted once."""
    return n_items + len(set().union(*(ids.get(dataset, ()) for ids in phases.values())))


def repeated_value(heads: Sequence[str]) -> tuple[str, int] | None:
    """The value a first column (``heads``) repeats on half its lines or more, three at least, with
    its count: such a column holds no ids (a label, a constant), else None."""
    value, count = Counter(heads).most_common(1)[0] if len(heads) else ("", 0)
    return (value, count) if count >= 3 and 2 * count >= len(heads) else None


#: The most of a file read to find its first ids when it was refused before they were read.
HEAD_BYTES = 64 * 1024
#: A line's id: a JSON line's "id" (or ChaosNLI's "uid"), else its first field.
_JSON_ID = re.compile(r'^\s*\{.*?"u?id"\s*:\s*"?([^",}]*)')
_FIRST_FIELD = re.compile(r"^\s*([^\t,;\s]+)")
#: What separates a line's fields, in any layout a file may have (a JSON line's "id": 7 too).
_FIELDS = re.compile(r"[\t,;:{}]+")
#: What a file of another phase's items should be instead, given the track's dataset.
FIX = "submit predictions for this phase's items (input_data {}.jsonl of this phase)"


#: The words of the hint on a first column of the file's line numbers (``submission``'s).
LINE_NUMBERS_WORDS = "the first column holds the line numbers"
#: What to do with another phase's ids among a file's unknown ids (``unknown_ids_hint``).
REMOVE_OTHER_PHASES = "remove them; a model run over the whole release writes them"
#: The hint's words naming the phase whose ids a file holds (``programs.rank`` reads them back).
OTHER_PHASE_WORDS = "these are the ids of the {} phase"


class OtherPhases:
    """``ItemKeys.elsewhere`` for one track: the hint naming the other phase a file is of, by its
    first ids (called with them) or, for a positional file, by its number of lines; never a hint
    when ``phases`` (``other_phase_ids``) is empty or None."""

    def __init__(self, track, phases: Mapping[str, Mapping[str, Sequence[str]]] | None, parts=None):
        self.dataset, self.phases = track.dataset, phases or {}
        #: the split, the split excluded and the id hashes of the dataset's items left out, or {}
        self.left_out = getattr(phases, "left_out", {}).get(self.dataset, {})
        #: dataset -> (a function giving this phase's ids of it, its file or None) (``phase_parts``)
        self._parts = {d: part for d, part in (parts or {}).items() if d != self.dataset}

    @cached_property
    def parts(self) -> dict[str, tuple[frozenset, str | None]]:
        """dataset -> (the ids of this phase's items of another dataset of the edition, its file
        or None), read when first asked: only a refusal's hint or a JSON document needs them."""
        return {dataset: (frozenset(ids()), file) for dataset, (ids, file) in self._parts.items()}

    def part_of(self, item_id: str) -> str | None:
        """The dataset ``item_id`` is an item of: another of this phase's (``parts``), or any of
        another phase's (the track's own for another phase's item of its dataset); else None."""
        part = next((dataset for dataset, (ids, _) in self.parts.items() if item_id in ids), None)
        hashed = id_hash(item_id)
        return part or next((d for d, ids in self._hashes.items() if hashed in ids), None)

    def other_track_hint(self, heads: Sequence[str], track, tracks: Sequence) -> str | None:
        """The hint for ids (``heads``, the first ``IDS_LOOKED_UP`` looked up) of which half or more
        are this phase's items of one other dataset (``parts``): the file seems to be that
        dataset's track's (of ``tracks``, of the track's kind if one is), named with its file name;
        else None."""
        looked_up = heads[:IDS_LOOKED_UP]
        found = (
            next((d for d, (ids, _) in self.parts.items() if h in ids), None) for h in looked_up
        )
        counts = Counter(part for part in found if part is not None)
        part, count = counts.most_common(1)[0] if counts else (None, 0)
        if 2 * count < len(looked_up):
            return None
        own_part = [t for t in tracks if t.dataset == part]
        same_kind = [t for t in own_part if kinds.of(t) is kinds.of(track)]
        other = next(iter(same_kind + own_part), None)
        if other is None:
            return None
        return (
            f"these are ids of track {other.id!r} (part {part!r} of this phase): write their "
            f"predictions in {other.file_names[0]}, and in this file this track's items only"
        )

    @cached_property
    def _hashes(self) -> dict[str, set]:
        """dataset -> the id hashes of every other phase's items of it."""
        datasets = dict.fromkeys(dataset for ids in self.phases.values() for dataset in ids)
        return {d: set().union(*(ids.get(d, ()) for ids in self.phases.values())) for d in datasets}

    @cached_property
    def ids(self) -> dict[str, frozenset]:
        """phase -> the id hashes of its items of the dataset (made only for a refused file)."""
        return {phase: frozenset(ids.get(self.dataset, ())) for phase, ids in self.phases.items()}

    def __call__(self, heads: Sequence[str]) -> str | None:
        """The hint for a file most of whose first ids (``heads``; the first of several may be a
        header's) are ids of another phase's items of the track's dataset, else None: a majority,
        as a few of them may be this phase's ids too (OCNLI's practice ids 0..50k, 98 of them dev's
        0..2999); ``repeated_value``: a column repeating one value holds no ids."""
        if repeated_value(heads[:IDS_LOOKED_UP]):
            return None
        looked_up = [id_hash(head) for head in heads[:IDS_LOOKED_UP]]
        for phase, known in self.ids.items():
            header = len(looked_up) > 1 and looked_up[0] not in known
            rest = looked_up[header:]
            if rest and 2 * sum(h in known for h in rest) > len(rest):
                return self._hint(phase)
        return None

    def whole_phase(self, heads: Sequence[str]) -> str | None:
        """The hint for ids (``heads``) that are exactly another phase's whole id set of the
        track's dataset (as many, the same ids: that phase's file), else None."""
        hashed = {id_hash(head) for head in heads}
        same = (p for p, known in self.ids.items() if len(known) == len(heads) == len(hashed))
        return next((self._hint(p) for p in same if self.ids[p] == hashed), None)

    def unknown_ids_hint(self, unknown: Sequence[str]) -> str | None:
        """The hint for a file's ``unknown`` ids (no item of this phase) of which some are ids of
        another phase's items of the track's dataset (by id only, no gold read): how many of them
        are each such phase's (an id counted once, at the first phase holding it), to be removed;
        else None."""
        hashes = {id_hash(item_id) for item_id in unknown}
        found = Counter(next((p for p, ids in self.ids.items() if h in ids), "") for h in hashes)
        shares = [(n, phase) for phase, n in found.most_common() if phase]
        if not shares:
            return self._left_out_hint(hashes)
        (n, phase), *rest = shares
        unknown_ids = counted(len(hashes), "unknown id")
        parts = [f"{n} of the {unknown_ids} {plural(n, 'is', 'are')} the {phase} phase's"]
        parts += [f"{m} the {other} phase's" for m, other in rest]
        return f"{' and '.join(parts)} {plural(n, 'item')}: {REMOVE_OTHER_PHASES}"

    def _left_out_hint(self, hashes: set[str]) -> str | None:
        """The hint for a file's unknown ids (``hashes``) some of which are items the edition's
        ``exclude`` left out of this phase's split (``left_out``): how many, why, to remove them."""
        n = len(hashes & set(self.left_out.get("ids", ())))
        if not n:
            return None
        split, are = self.left_out["split"], plural(n, "is an item", "are items")
        return (
            f"{n} of the {counted(len(hashes), 'unknown id')} {are} of the {split} split that this "
            f"phase leaves out: {self._left_out_reason()}; remove them"
        )

    def _left_out_reason(self) -> str:
        """Why the edition leaves ``left_out``'s items out of this phase, in its config's words."""
        split, other = self.left_out["split"], self.left_out["exclude"]
        return (
            f"the edition's exclude: {{{split}: {other}}} leaves out of {split} the items whose "
            f"texts its {other} split holds"
        )

    def left_out_lines(self, lines: int, n_items: int) -> str | None:
        """The hint for a positional file of ``lines`` lines, as many as this phase's ``n_items``
        and the items ``left_out`` (a model run over the whole split), else None."""
        left = len(self.left_out.get("ids", ()))
        if not left or lines != n_items + left:
            return None
        split = self.left_out["split"]
        return (
            f"the file has {lines} lines, {left} more than this phase's items: as many as the "
            f"{split} split's items this phase leaves out ({self._left_out_reason()}); write the "
            f"{n_items} lines of this phase's input file, in its order"
        )

    def _hint(self, phase: str) -> str:
        """The hint naming ``phase`` as the one whose ids a file holds, and what to submit."""
        return f"{OTHER_PHASE_WORDS.format(phase)}; {FIX.format(self.dataset)}"

    def of_line_count(self, lines: int) -> str | None:
        """The hint for a positional file of ``lines`` lines, as many as another phase's items."""
        for phase, known in self.ids.items():
            if len(known) == lines:
                return (
                    f"the file has as many lines as the {phase} phase has items: if it holds "
                    f"that phase's predictions, {FIX.format(self.dataset)}"
                )
        return None

    def same_count_note(self, rows: int) -> str | None:
        """The note for a positional file read with ``rows`` rows, one per item, when other phases
        have as many items: without ids, its rows may be any of those phases' predictions."""
        same = [phase for phase, known in self.ids.items() if len(known) == rows]
        if not same:
            return None
        phases = " and ".join(same) + plural(len(same), " phase", " phases")
        return (
            f"the file has no ids and its {rows} rows are as many as the items of this phase and "
            f"of the {phases}, so the kit cannot tell which split they predict: check that they "
            "are this phase's items, in its input order"
        )

    def of_file(self, path: Path, own_ids: Iterable[str]) -> str | None:
        """The hint for a refused file (too many lines, unknown ids, say), from the ids of its first
        lines; none when half of those lines or more have a field that is an id of this phase's
        (``own_ids``): the file has this phase's items, in another column (after an index, say)."""
        data = read_head(path, HEAD_BYTES)
        lines = (data or b"").decode("utf-8", "replace").splitlines()[: IDS_LOOKED_UP + 1]
        own = set(own_ids)
        fields = ({field.strip(" \"'") for field in _FIELDS.split(line)} for line in lines)
        if 2 * sum(not own.isdisjoint(line) for line in fields) >= len(lines):
            return None
        found = (_JSON_ID.match(line) or _FIRST_FIELD.match(line) for line in lines)
        heads = [m.group(1) for m in found if m]
        return self(heads)


def with_phase_hint(
    error: SubmissionError, path: Path, elsewhere, own_ids: Iterable[str]
) -> SubmissionError:
    """``error`` (a file's refusal) with the hint naming the other phase the file's ids are of
    first in its first problem's hint, when they are, none is this phase's (``own_ids``), and it
    does not say so already nor that they are the file's line numbers (``LINE_NUMBERS_WORDS``:
    ids that are no other phase's whole id set)."""
    hint = elsewhere.of_file(path, own_ids) if elsewhere is not None and error.problems else None
    hints = [p.hint or "" for p in error.problems]
    if hint is None or any(hint in h or LINE_NUMBERS_WORDS in h for h in hints):
        return error
    first = error.problems[0]
    joined = f"{hint}; {first.hint}" if first.hint else hint
    return SubmissionError([replace(first, hint=joined), *error.problems[1:]], error.omitted)


#: File names of other benchmarks' test-set submissions (lower case), each with the test set's item
#: ids (CLUE's OCNLI test files have ids 0..2999, as OCNLI's dev set has): on a phase whose ids are
#: all among them, such a file is scored, at chance, against the wrong items, so its name is warned
#: about when its agreement with the gold is near chance too (a file of this phase's items is not).
#: CLUE names OCNLI's test predictions by the training set used, 50k or 30k:
#: ocnli_50k_predict.json and ocnli_30k_predict.json on its leaderboard, OCNLI_50k.json and
#: OCNLI_30k.json in OCNLI's README.
TEST_SUBMISSIONS = {
    name: ("CLUE's OCNLI test set (its leaderboard's file)", range(3000))
    for name in (
        "ocnli_50k_predict.json",
        "ocnli_30k_predict.json",
        "ocnli_50k.json",
        "ocnli_30k.json",
    )
}
#: How far above chance agreement a foreign file's agreement may be: this many standard errors of
#: uniform guessing (3 labels on 3000 items: 0.026), or this share of the way from chance to all
#: items, whichever is more (a tenth: 0.4 for 3 labels, above a foreign file's agreement where one
#: label is more frequent, as OCNLI dev's neutral at 0.374; a model of this phase's items scores
#: far above, as a weak one at 0.55).
CHANCE_ERRORS, CHANCE_SHARE = 3, 0.1


def near_chance(agreement: float | None, labels: int, items: int) -> bool:
    """Whether ``agreement`` (the share of the scored items, about ``items``, whose predicted label
    is the gold's) is within ``CHANCE_ERRORS``/``CHANCE_SHARE`` of uniform guessing among ``labels``
    labels (the gold's own frequencies are not used: the note tells no more than the score); False
    when it is not measured (None: a kind without one label an item)."""
    if agreement is None or labels < 2 or items < 1:
        return False
    chance = 1.0 / labels
    margin = max(
        CHANCE_ERRORS * (chance * (1.0 - chance) / items) ** 0.5, CHANCE_SHARE * (1 - chance)
    )
    return agreement <= chance + margin


def test_submission_warning(
    file_name: str, ids: Iterable[str], agreement: float | None, labels: int
) -> str | None:
    """The warning for a file named as another benchmark's test-set submission on a phase whose
    item ``ids`` are all that test set's ids and whose ``agreement`` with the gold is near chance
    (``near_chance`` among ``labels`` labels), else None."""
    name = PurePosixPath(file_name).name
    benchmark, test_ids = TEST_SUBMISSIONS.get(name.lower(), (None, ()))
    ids = list(ids)
    if benchmark is None or not set(ids) <= set(map(str, test_ids)):
        return None
    if not near_chance(agreement, labels, len(ids)):
        return None
    return test_set_words(name, ", whose item ids coincide with this phase's")


def test_set_words(file_name: str, coincide: str = "") -> str | None:
    """The words of ``test_submission_warning`` on a file named as another benchmark's test-set
    submission (``TEST_SUBMISSIONS``), ``coincide`` after the benchmark (where its ids were found
    to be the phase's); also told where such a file is refused for its name, before how to rename
    it (renamed, it is scored at chance); None for any other name."""
    name = PurePosixPath(file_name).name
    benchmark, _ = TEST_SUBMISSIONS.get(name.lower(), (None, ()))
    if benchmark is None:
        return None
    return (
        f"{name} is the name of the submission file for {benchmark}{coincide}: if it holds "
        "predictions for those test items, they are scored against other items (expect a score "
        "near chance); predict the items of this phase's input data"
    )
