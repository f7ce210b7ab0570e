"""The kit's own item model, shared by every edition, importer, program and tool.

One JSON object per line (``.jsonl``, UTF-8). Fields:

- ``id`` (str, required): unique within the file;
- ``texts`` (list of str, required): the pair (or more) of texts shown to systems;
- ``lang`` (str): a language or language pair such as ``en`` or ``es-en``; ``genre`` (str) optional;
- ``annotators`` (list of str): the item's annotators, in the order perspectivist predictions follow;
- ``annotators_listed`` (list of str, optional): the release's own annotators list when it names an
  annotator more than once (VariErrNLI: once per label given); public, as in the release;
- ``annotations`` (list, gold): one label per annotator, parallel to ``annotators``; a label is a
  string, or a list of strings on multilabel tracks;
- ``score`` (number, gold): the graded similarity score;
- ``label`` (str or null, gold): the majority label of a classification item; null = no majority.

Public input data is the same record without the gold fields (``GOLD_FIELDS``); reference data is
the record without its texts (``REFERENCE_FIELDS``: what scoring reads, the texts being public).
"""

from __future__ import annotations

import json
import re
from itertools import chain, compress, repeat
from operator import is_, itemgetter
from pathlib import Path
from types import NoneType
from typing import Callable, Dict, Iterable, Iterator, List, Tuple

import numpy as np

from ..errors import ConfigError, ProblemCollector
from .bulk import JSON_SPACE, collector_paused

GOLD_FIELDS = ("annotations", "score", "label")
PUBLIC_FIELDS = ("id", "texts", "lang", "genre", "annotators", "annotators_listed")
REFERENCE_FIELDS = ("id", "lang", "genre", "annotators", "annotators_listed") + GOLD_FIELDS
GROUP_FIELDS = ("lang", "genre")
#: Characters of lines parsed and checked together: enough to run at C speed, few enough that a
#: million items never exist as lines or dicts at once.
CHUNK_CHARS = 1 << 20
#: Two objects on one line (``}`` and ``{`` around a comma): the one way a line adds two values to an array.
TWO_OBJECTS = re.compile(r"}[ \t\r]*,[ \t\r]*{")


def public_view(item: dict) -> dict:
    """The item as participants may see it: no gold field."""
    return {k: item[k] for k in PUBLIC_FIELDS if k in item}


def reference_view(item: dict) -> dict:
    """The item as scoring needs it: ids, gold, annotators and breakdown groups, no texts."""
    return {k: item[k] for k in REFERENCE_FIELDS if k in item}


def read_items(path: Path, display: str = None, texts: bool = True) -> List[dict]:
    """Read and check a ``.jsonl`` item file written by the kit (organiser data: ConfigError).

    ``texts=False`` reads reference data, whose items may leave their texts out."""
    items: List[dict] = []
    _read_checked(path, display or str(path), texts, items.extend)
    return items


def read_item_columns(path: Path, display: str, defaults: Dict[str, object]) -> Dict[str, list]:
    """Reference data (as ``read_items(texts=False)`` reads it) as columns without a dict per item:
    ``id``, and each field of ``defaults`` some item has (per item its value or the default)."""
    columns: Dict[str, list] = {name: [] for name in defaults}
    present = set()
    shared: Dict[object, object] = {}  # one copy of each repeated group value (lang, genre)

    def keep(items: List[dict]) -> None:
        for name, default in defaults.items():
            values = list(map(dict.get, items, repeat(name), repeat(default)))
            try:
                values = list(map(shared.setdefault, values, values)) if name in GROUP_FIELDS else values
            except TypeError:  # a group value that is no key (a list): kept as it is
                pass
            columns[name] += values
            if name not in present and any(map(dict.__contains__, items, repeat(name))):
                present.add(name)
    ids = _read_checked(path, display, False, keep)
    return {"id": ids, **{name: column for name, column in columns.items() if name in present}}


def _item_chunks(path: Path, display: str) -> Iterator[List[str]]:
    """The file's lines (universal newlines, not ``str.splitlines``: U+2028 and U+0085 are text in
    JSON strings), a chunk of about ``CHUNK_CHARS`` at a time: the whole text is never held."""
    try:
        with open(path, encoding="utf-8-sig") as f:
            yield from iter(lambda: f.readlines(CHUNK_CHARS), [])
    except (OSError, UnicodeDecodeError) as first:
        error = first
        try:  # a decoding error is named by its place in the file, not in the chunk
            Path(path).read_bytes().decode("utf-8-sig")
        except (OSError, UnicodeDecodeError) as whole:
            error = whole
        raise ConfigError.single(display, f"cannot read the item file ({error.__class__.__name__}: {error})")


def parsed_json_lines(lines: Iterable[str], problems: ProblemCollector,
                      start: int = 1) -> Iterator[Tuple[int, object]]:
    """(line number, value) of every non-blank line read by ``json.loads``; a line that is not JSON
    becomes a located problem ("not valid JSON (...)") and is skipped."""
    for lineno, line in enumerate(lines, start=start):
        if not line.strip():
            continue
        try:
            yield lineno, json.loads(line)
        except json.JSONDecodeError as e:
            problems.add(f"not valid JSON ({e.msg})", line=lineno)


def _read_checked(path: Path, display: str, need_texts: bool, keep: Callable[[List[dict]], None]) -> List[str]:
    """The ids of the file's items, checked a chunk and a column at a time, each chunk's items handed
    to ``keep``; problems are located (line, item id) in line order and raised as one ConfigError."""
    problems = Located()  # of the flagged rows only
    ids: List[str] = []
    line_numbers: List[np.ndarray] = []
    start = 1
    with collector_paused():
        for chunk in _item_chunks(path, display):
            numbers, values = _parsed_chunk(chunk, start, problems)
            start += len(chunk)
            numbers, items, chunk_ids = _checked_chunk(numbers, values, need_texts, problems)
            ids += chunk_ids
            line_numbers.append(numbers)
            keep(items)
        _duplicates(ids, np.concatenate(line_numbers) if line_numbers else np.zeros(0, int), problems)
    problems.raise_if_any(display)
    return ids


def _parsed_chunk(chunk: List[str], start: int, problems: "Located") -> Tuple[np.ndarray, list]:
    """(line numbers, values) of the chunk's non-blank lines, each read as ``json.loads`` reads it
    (line by line when the whole chunk cannot be read at once); lines that are not JSON are problems."""
    bodies = list(map(str.strip, chunk, repeat(JSON_SPACE)))
    filled = np.fromiter(map(bool, bodies), dtype=bool, count=len(bodies))
    bodies = list(compress(bodies, filled))
    numbers = start + np.flatnonzero(filled)
    try:  # one parse of the whole chunk: each line is one object when there are as many objects as
        # lines and no line holds two (strings never span lines: JSON refuses a raw line end in them)
        values = json.loads("[" + ",".join(bodies) + "]")
        if len(values) == len(bodies) and types_are(values, dict).all() and not TWO_OBJECTS.search("\n".join(bodies)):
            return numbers, values
    except (ValueError, RecursionError):
        pass
    parsed = list(parsed_json_lines(chunk, problems, start))
    return np.array([line for line, _ in parsed], dtype=np.int64), [value for _, value in parsed]


class Located(list):
    """Problems found a rule (a column) at a time, as (line or row, rule order, message, details),
    reported in file order as one reader going line by line would report them."""

    def add(self, message: str, line: int, order: int = 0, **details) -> None:
        self.append((line, order, message, details))

    def raise_if_any(self, display: str, located: bool = True) -> None:
        """All problems as one ConfigError, the line named when ``located`` (else the row only orders)."""
        collector = ProblemCollector(display)
        for line, _, message, details in sorted(self, key=itemgetter(0, 1)):
            collector.add(message, **({"line": line} if located else {}), **details)
        collector.raise_if_any(ConfigError)


def _checked_chunk(numbers: np.ndarray, values: list, need_texts: bool, problems: Located):
    """(line numbers, items, ids) of the values that are objects with a string ``id``; every rule of
    the item model is a mask over the chunk's columns, and only the rows it flags get a message."""
    is_item = types_are(values, dict)
    ids = list(map(dict.get, values if is_item.all() else compress(values, is_item), repeat("id")))
    is_item[is_item] = types_are(ids, str)
    if not is_item.all():
        for line in numbers[~is_item].tolist():
            problems.add("each line must be a JSON object with a string 'id'", line, 1)
        values, numbers = list(compress(values, is_item)), numbers[is_item]
        ids = list(map(dict.get, values, repeat("id")))
    texts = list(map(dict.get, values, repeat("texts"), repeat(None if need_texts else [])))
    for row in np.flatnonzero(~lists_of(texts, str)).tolist():
        problems.add("'texts' must be a list of strings", int(numbers[row]), 3, item=ids[row])
    _check_counts(values, ids, numbers, problems)
    return numbers, values, ids


def _check_counts(items: List[dict], ids: List[str], numbers: np.ndarray, problems: Located) -> None:
    """An item with both ``annotators`` and ``annotations`` has one annotation per annotator."""
    names = list(map(dict.get, items, repeat("annotators")))
    if names.count(None) == len(names):
        return
    given = list(map(dict.get, items, repeat("annotations")))
    both = np.flatnonzero(~(types_are(names, NoneType) | types_are(given, NoneType)))
    wanted, found = lengths([names[r] for r in both]), lengths([given[r] for r in both])
    for k in np.flatnonzero(wanted != found).tolist():
        problems.add("'annotations' must have one entry per annotator", int(numbers[both[k]]), 4,
                     item=ids[both[k]], expected=str(wanted[k]), found=str(found[k]))  # -1: not a list


def _duplicates(ids: List[str], numbers: np.ndarray, problems: "Located") -> None:
    """An id seen on an earlier line is a problem (and that line's other problems are not reported)."""
    hashes = np.sort(np.fromiter(map(hash, ids), dtype=np.int64, count=len(ids)))  # a set of a million ids is 60 MB
    if not (hashes[1:] == hashes[:-1]).any() or len(set(ids)) == len(ids):
        return
    first = dict(zip(reversed(ids), reversed(numbers.tolist())))
    firsts = np.fromiter(map(first.__getitem__, ids), dtype=np.int64, count=len(ids))
    again = np.flatnonzero(firsts != numbers)
    lines = set(numbers[again].tolist())
    problems[:] = [p for p in problems if p[0] not in lines or p[1] < 2]
    for row in again.tolist():
        problems.add("duplicate id", int(numbers[row]), 2, item=ids[row], hint=f"first seen on line {firsts[row]}")


def types_are(values: list, kind: type) -> np.ndarray:
    """Per value, whether its type is exactly ``kind`` (in C: no Python loop over the values)."""
    return np.fromiter(map(is_, map(type, values), repeat(kind)), dtype=bool, count=len(values))


def lists_of(values: list, kind: type) -> np.ndarray:
    """Per value, whether it is a list whose elements are all of type ``kind``."""
    if set(map(type, values)) <= {list} and set(map(type, chain.from_iterable(values))) <= {kind}:
        return np.ones(len(values), dtype=bool)
    ok = types_are(values, list)
    lists = list(compress(values, ok))
    sizes = lengths(lists)
    wrong = ~types_are(list(chain.from_iterable(lists)), kind)
    ok[ok] = np.bincount(np.repeat(np.arange(len(lists)), sizes), weights=wrong, minlength=len(lists)) == 0
    return ok


def lengths(values: list) -> np.ndarray:
    """``len`` of each value, -1 for a value without one (a number where a list belongs)."""
    try:
        return np.fromiter(map(len, values), dtype=np.int64, count=len(values))
    except TypeError:
        return np.array([len(v) if hasattr(v, "__len__") else -1 for v in values], dtype=np.int64)


def write_items(path: Path, items: Iterable[dict]) -> None:
    """Write items as canonical JSON lines (sorted keys, UTF-8, LF) so builds are reproducible."""
    lines = [json.dumps(item, ensure_ascii=False, sort_keys=True) for item in items]
    Path(path).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
