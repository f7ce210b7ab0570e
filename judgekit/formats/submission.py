"""Reading one track's submission file and aligning it with the gold by item id.

Accepted line formats:
- ``ID<TAB>VALUE``: a number (similarity), a label (classification), or a JSON value (soft labels;
  per-annotator labels; VariErrNLI's nested lists). An optional first line ``id<TAB>...`` is a header.
- SemEval positional (similarity tracks): one score per line in input order, an optional second
  column (confidence) ignored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..errors import ProblemCollector, SubmissionError
from ..gold import GoldTrack, label_codes
from ..metrics import PerAnnotator
from .bulk import NUMBER_CHARS, collector_paused, number_column
from .columns import clean_values
from .textfile import read_texts, safe_display, shorten
from .annotators import RowFit, layout_warnings
from .values import ValueProblem, annotator_entries, annotator_values, describe_value, parse_label, parse_number, parse_soft

MAX_IDS_LISTED = 5


@dataclass
class Prediction:
    """A submission's values for one track, aligned with ``GoldTrack.ids``."""

    values: object
    warnings: List[str] = field(default_factory=list)
    format: str = "id"


def _list_ids(ids: List[str]) -> str:
    shown = ", ".join(repr(i) for i in ids[:MAX_IDS_LISTED])
    return shown + (f" and {len(ids) - MAX_IDS_LISTED} more" if len(ids) > MAX_IDS_LISTED else "")


HEADER_NAMES = ("id", "item", "item_id")


def _layout(texts: List[str], gold: GoldTrack) -> str:
    """How a file of a positional track is read, decided once for the whole file: "id", "positional"
    or "ambiguous".

    The first column is read as ids only when every value of it is a known id of the track, each
    once (a header line aside): when ids are numbers ("0".."249"), integer scores and a confidence
    column would otherwise pass for ids. Else the file is positional when every line holds one or
    two fields and most first fields are numbers (so a bad value is reported at its line). A file
    that fits both readings, with every id in its first column, no header line, and first-column
    values that could also be scores on the 0-5 scale, is ambiguous.
    """
    body = texts[1:] if texts and texts[0].split("\t", 1)[0].strip().lower() in HEADER_NAMES else texts
    firsts = [text.split("\t", 1)[0].strip() for text in body]
    id_set = set(gold.ids)
    as_ids = bool(body) and all(["\t" in text for text in body]) and len(set(firsts)) == len(firsts) \
        and id_set.issuperset(firsts)
    fields = [text.split() for text in texts]
    numbers = sum(1 for row in fields if row and number_column(row[:1]) is not None)
    as_positional = all([1 <= len(row) <= 2 for row in fields]) and 2 * numbers >= len(texts)
    if as_ids and as_positional and len(firsts) == len(gold.ids) and body is texts:  # a header says "ids"
        values = number_column(firsts)
        if values is not None and ((values >= 0) & (values <= 5)).all():
            return "ambiguous"
    if as_ids:
        return "id"
    return "positional" if as_positional else "id"


def _ambiguous(display: str, gold: GoldTrack) -> SubmissionError:
    return SubmissionError.single(
        display, "the file can be read two ways: its first column holds every item id once, and could "
                 "also be the scores of a positional file",
        expected=f"ID<TAB>SCORE lines (matched by id, e.g. {gold.ids[0]!r}<TAB>3.2) or one score per line "
                 f"in input order (SemEval positional, an optional confidence column)",
        found=f"{len(gold.ids)} lines of two numbers",
        hint="write the ID<TAB>SCORE lines with a header line 'id<TAB>score' to mean ids, or give the "
             "scores with decimals (3.0) to mean positional")


def read_prediction(path: Path, display: str, gold: GoldTrack) -> Prediction:
    """Parse and align ``path`` for ``gold.track``; every problem is located and explained."""
    with collector_paused():
        return _read_prediction(path, display, gold)


def _read_prediction(path: Path, display: str, gold: GoldTrack) -> Prediction:
    track = gold.track
    display = safe_display(display)
    numbers, texts = read_texts(path, display, len(gold.ids))
    clean = _read_clean(numbers, texts, gold)
    if clean is not None:
        return clean
    lines = list(zip(numbers, texts))
    id_set = {i: n for n, i in enumerate(gold.ids)}
    layout = _layout(texts, gold) if track.positional else "id"
    if layout == "ambiguous":
        raise _ambiguous(display, gold)
    if layout == "positional":
        return _read_positional(lines, display, gold)
    header = lines[0][1].split("\t", 1)[0].strip().lower()
    warnings: List[str] = []
    if header in HEADER_NAMES and header not in id_set:
        lines = lines[1:]
        warnings.append("the first line was read as a header and skipped")
    problems = ProblemCollector(display)
    raw: Dict[str, Tuple[int, str]] = {}
    unknown: List[str] = []
    example = describe_value(track)
    for number, line in lines:
        if "\t" not in line:
            problems.add("line has no tab", line=number, expected=f"ID<TAB>VALUE such as {example}",
                         found=repr(line[:60]))
            continue
        item_id, value = line.split("\t", 1)
        item_id = item_id.strip()
        if item_id in raw:
            problems.add("duplicate id", line=number, item=item_id,
                         hint=f"it was already given on line {raw[item_id][0]}; keep one line per item")
        elif item_id not in id_set:
            unknown.append(item_id)
            problems.add("unknown id: not an item of this track", line=number, item=shorten(item_id),
                         hint=f"ids look like {gold.ids[0]!r}" if gold.ids else None)
        else:
            raw[item_id] = (number, value)
    missing = [i for i in gold.ids if i not in raw]
    if missing:
        problems.add(f"{len(missing)} of the track's {len(gold.ids)} items have no prediction "
                     f"(the file has {len(raw)} of them): {_list_ids(missing)}",
                     hint="predict every item listed in the track's input file")
    if unknown and len(unknown) == len(lines):
        raise SubmissionError.single(display, "none of the ids in this file belong to the track",
                                     expected=f"lines such as {example.replace('ID', repr(gold.ids[0]) if gold.ids else 'ID')}",
                                     found=f"ids such as {shorten(unknown[0])!r}")
    if problems:
        # report the values' problems too, so that one round of fixes is enough
        present = [(k, *raw[i]) for k, i in enumerate(gold.ids) if i in raw]
        _check_values(present, gold, problems, [])
    problems.raise_if_any()
    ordered = [raw[i] for i in gold.ids]
    return Prediction(_parse_values(ordered, display, gold, warnings), warnings, "id")


def _read_clean(numbers: Sequence[int], texts: List[str], gold: GoldTrack) -> Optional[Prediction]:
    """The Prediction of a file without any problem, read a whole column at a time, or None.

    ``numbers`` and ``texts`` are the file's non-blank lines (``textfile.read_texts``). None sends
    the file to the line-by-line reader below, which then finds and reports the problem; so every
    check stays where it is, and this path only has to be sure when it answers.
    """
    track = gold.track
    if track.positional:
        positional = _clean_positional(numbers, texts, gold)
        if positional is not False:
            return positional
    warnings: List[str] = []
    header = texts[0].split("\t", 1)[0].strip().lower()
    if header in HEADER_NAMES and header not in gold.ids:
        texts = texts[1:]
        warnings.append("the first line was read as a header and skipped")
    pairs = [text.split("\t", 1) for text in texts]
    if not pairs or set(map(len, pairs)) != {2}:
        return None
    heads, values = map(list, zip(*pairs))
    ids = list(map(str.strip, heads))
    if ids != gold.ids:
        position = {item_id: k for k, item_id in enumerate(ids)}
        if len(position) != len(ids) or len(ids) != len(gold.ids) or not all([i in position for i in gold.ids]):
            return None
        values = [values[position[i]] for i in gold.ids]
    parsed = clean_values(track, values, list(map(len, gold.annotators)))
    if parsed is None:
        return None
    return Prediction(_wrap(parsed[0], gold), warnings + _value_warnings(parsed[1], 0), "id")


def _clean_positional(numbers: Sequence[int], texts: List[str], gold: GoldTrack):
    """A clean SemEval positional file's Prediction; False when the file is surely not positional
    (its first line does not look so); None when only the precise reader can tell."""
    first = texts[0].split()
    if not 1 <= len(first) <= 2 or number_column(first) is None:
        return False
    if len(texts) != len(gold.ids) or numbers[-1] != len(texts):
        return None
    joined = "\n".join(texts)
    if not joined.isascii() or joined.translate(NUMBER_CHARS).strip("\n"):
        return None  # only digits, signs, dots, exponents, spaces and tabs: no line can start with an id ...
    if any([not item_id.translate(NUMBER_CHARS) for item_id in gold.ids]):
        layout = _layout(texts, gold)  # ... unless an id is written like a number: then the file decides
        if layout != "positional":
            return False if layout == "id" else None
    fields = [text.split() for text in texts]
    if not all([1 <= len(row) <= 2 for row in fields]):
        return None
    scores = number_column([row[0] for row in fields])
    confidences = number_column([row[1] for row in fields if len(row) == 2])
    if scores is None or (confidences is None and any([len(row) == 2 for row in fields])):
        return None
    return Prediction(scores, [], "positional")


def _read_positional(lines, display: str, gold: GoldTrack) -> Prediction:
    if len(lines) != len(gold.ids):
        raise SubmissionError.single(display, "wrong number of lines for the SemEval positional format",
                                     expected=f"{len(gold.ids)} lines (one score per pair, in input order)",
                                     found=f"{len(lines)} non-blank lines",
                                     hint="or write ID<TAB>SCORE lines, which are matched by id")
    last = lines[-1][0]
    if last != len(lines):
        gap = next(n for k, (n, _) in enumerate(lines, start=1) if n != k)
        raise SubmissionError.single(display, "blank line inside a positional file", line=gap - 1,
                                     expected="one score on every line", found="an empty line",
                                     hint="positional files are matched by line number")
    problems = ProblemCollector(display)
    for number, line in lines:
        fields = line.split()
        if len(fields) == 2:
            try:
                parse_number(fields[1])
            except ValueProblem as p:
                problems.add("the second column (confidence) is not a number", line=number,
                             expected="a score and, optionally, a confidence such as 3.2<TAB>80", found=p.found)
    problems.raise_if_any()
    ordered = [(number, line.split()[0]) for number, line in lines]
    return Prediction(_parse_values(ordered, display, gold, []), [], "positional")


def _check_values(entries: List[Tuple[int, int, str]], gold: GoldTrack, problems: ProblemCollector,
                  notes: List[str]) -> list:
    """Parse (item index, line number, text) entries; each bad value becomes a located problem."""
    track = gold.track
    if track.kind == "perspectivist":
        return _check_rows(entries, gold, problems, notes)
    index = track.label_index()
    out = []
    for k, number, text in entries:
        try:
            if track.kind == "similarity":
                out.append(parse_number(text))
            elif track.kind == "classification":
                out.append(parse_label(text, track, index))
            elif track.kind == "soft_label":
                out.append(parse_soft(text, track, notes))
        except ValueProblem as p:
            problems.add(p.message, line=number, item=gold.ids[k], expected=p.expected, found=p.found, hint=p.hint)
            out.append(None)
    return out


def _check_rows(entries: List[Tuple[int, int, str]], gold: GoldTrack, problems: ProblemCollector,
                notes: List[str]) -> list:
    """Perspectivist rows: each row's entries first, then the file's layout (``RowFit``) from all
    rows' lengths, then each row fitted to its item's annotators, then its labels read."""
    parsed = {}
    for k, number, text in entries:
        try:
            parsed[k] = annotator_entries(text, gold.track, gold.annotators[k])
        except ValueProblem as p:
            problems.add(p.message, line=number, item=gold.ids[k], expected=p.expected, found=p.found, hint=p.hint)
    fit = RowFit.for_file(gold.annotators, gold.listed, {k: len(row) for k, row in parsed.items()})
    out = []
    for k, number, _ in entries:
        try:
            out.append(annotator_values(fit.fit(k, parsed[k], notes), gold.track) if k in parsed else None)
        except ValueProblem as p:
            problems.add(p.message, line=number, item=gold.ids[k], expected=p.expected, found=p.found, hint=p.hint)
            out.append(None)
    return out


def _parse_values(ordered: List[Tuple[int, str]], display: str, gold: GoldTrack, warnings: List[str]):
    track = gold.track
    problems = ProblemCollector(display)
    notes: List[str] = []
    out = _check_values([(k, number, text) for k, (number, text) in enumerate(ordered)], gold, problems, notes)
    problems.raise_if_any()
    warnings.extend(_value_warnings(notes.count("renormalised"), notes.count("extra leading bin")))
    warnings.extend(layout_warnings(notes))
    if track.kind in ("similarity",):
        return np.array(out, dtype=float)
    if track.kind == "classification":
        return np.array(out, dtype=np.int64)
    if track.kind == "soft_label":
        return np.array(out, dtype=float)
    return _wrap(np.concatenate(out) if out else np.zeros(0), gold)


def _value_warnings(renormalised: int, extra_bin: int) -> List[str]:
    out = []
    if renormalised:
        out.append(f"{renormalised} soft label(s) summed to within 0.02 of 1 and were renormalised")
    if extra_bin:
        out.append(f"{extra_bin} soft label(s) had an extra, empty leading bin "
                   f"(the 7-bin practice-phase format) that was dropped")
    return out


def _wrap(values, gold: GoldTrack):
    """Perspectivist rows as ``PerAnnotator`` on the gold's items; other kinds' arrays as they are."""
    if gold.track.kind != "perspectivist":
        return values
    if gold.track.scale != "multilabel":
        values = label_codes(values, len(gold.track.labels))
    return PerAnnotator(values=values, item=gold.gold.item, n_items=gold.gold.n_items, n_labels=gold.gold.n_labels,
                        offsets=gold.gold.offsets)
