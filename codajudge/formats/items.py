"""The kit's item model, shared by every edition, importer, program and tool: one JSON object per
line (``.jsonl``, UTF-8) with ``id`` (str, unique in the file), ``texts`` (list of str: the pair or
more shown to systems), optional ``lang`` (``en``, ``es-en``) and ``genre``, ``annotators`` (list of
str: the order perspectivist predictions follow), ``annotators_listed`` (optional, public: the
release's own list when it repeats a name, as VariErrNLI does once per label given), and the gold:
``annotations`` (one label per annotator, a list of labels on multilabel tracks), ``score`` (number:
graded similarity), ``label`` (majority label; null = no majority) or ``distribution`` (an object
label -> probability: a soft label given as gold, in place of the annotations' shares).

Public input data is the item without ``GOLD_FIELDS``; reference data without its texts
(``REFERENCE_FIELDS``: what scoring reads, the texts being public).
"""

from __future__ import annotations

import json
import sys
from contextlib import suppress
from itertools import chain, compress, repeat
from operator import itemgetter
from pathlib import Path
from typing import Callable, Dict, Iterable, Iterator, List, Tuple

import numpy as np

from ..errors import ConfigError, ProblemCollector

NoneType = type(None)  # types.NoneType is Python 3.10+; the kit runs on 3.9

GOLD_FIELDS = ("annotations", "score", "label", "distribution")
PUBLIC_FIELDS = ("id", "texts", "lang", "genre", "annotators", "annotators_listed")
REFERENCE_FIELDS = ("id", "lang", "genre", "annotators", "annotators_listed") + GOLD_FIELDS
GROUP_FIELDS = ("lang", "genre")
#: Characters of lines parsed and checked together: few enough that a
#: million items never exist as lines or dicts at once.
CHUNK_CHARS = 1 << 20


def public_view(item: dict) -> dict:
    return {k: item[k] for k in PUBLIC_FIELDS if k in item}


def reference_view(item: dict) -> dict:
    return {k: item[k] for k in REFERENCE_FIELDS if k in item}


def read_items(path: Path, display: str = None, texts: bool = True) -> List[dict]:
    """The checked items of a ``.jsonl`` file (organiser data: ConfigError); ``texts=False`` reads
    reference data, whose items may leave their texts out."""
    items: List[dict] = []
    _read_checked(path, display or str(path), texts, items.extend)
    return items


def item_columns(items: List[dict], defaults: Dict[str, object]) -> Dict[str, list]:
    """``id`` and each field of ``defaults`` some item has, as columns (per item its value or the
    default); group values (lang, genre) are interned: a million items share a few strings."""
    columns = {"id": list(map(dict.get, items, repeat("id")))}
    for name, default in defaults.items():
        if any(map(dict.__contains__, items, repeat(name))):
            columns[name] = values = list(map(dict.get, items, repeat(name), repeat(default)))
            with suppress(TypeError):  # a column with a value that is not a string is kept as it is
                columns[name] = list(map(sys.intern, values)) if name in GROUP_FIELDS else values
    return columns


def read_item_columns(path: Path, display: str, defaults: Dict[str, object]) -> Dict[str, list]:
    """The ``item_columns`` of reference data (checked as ``read_items(texts=False)`` checks it), taken a
    chunk at a time (never a dict per item at once) and joined, a field a chunk lacks being its default there."""
    chunks: List[Dict[str, list]] = []
    _read_checked(path, display, False, lambda items: chunks.append(item_columns(items, defaults)))
    return {
        name: list(
            chain.from_iterable(
                c.get(name) or repeat(defaults.get(name), len(c["id"])) for c in chunks
            )
        )
        for name in dict.fromkeys(chain(["id"], *chunks))
    }


def parsed_json_lines(
    lines: Iterable[str], problems: ProblemCollector, start: int = 1
) -> Iterator[Tuple[int, object]]:
    """(line number, value) of every non-blank line; a line that is not JSON, or JSON Python cannot
    read (nested too deeply, an integer of more digits than it converts), is a located problem."""
    for lineno, line in enumerate(lines, start=start):
        if not line.strip():
            continue
        try:
            yield lineno, json.loads(line)
        except json.JSONDecodeError as e:
            problems.add(f"not valid JSON ({e.msg})", line=lineno)
        except RecursionError:
            problems.add(
                "a JSON value nested too deeply to read",
                line=lineno,
                expected="at most a few hundred levels of [ and {",
                found=f"deeper than Python's JSON reader goes (about {sys.getrecursionlimit()})",
            )
        except ValueError:  # json.loads raises it for an integer over sys.get_int_max_str_digits()
            problems.add(
                "a JSON number too long to read",
                line=lineno,
                expected=f"at most {sys.get_int_max_str_digits()} digits",
                found="a longer integer",
            )


def _read_checked(
    path: Path, display: str, need_texts: bool, keep: Callable[[List[dict]], None]
) -> None:
    """Check the file a chunk of about ``CHUNK_CHARS`` (the text is never held whole) and a rule at a
    time, handing each chunk's items to ``keep``; problems are raised in line order as one ConfigError.
    Lines end as universal newlines, not ``str.splitlines``: U+2028 and U+0085 are text in JSON strings."""
    problems, ids, line_numbers, start = Located(), [], [np.zeros(0, np.int64)], 1
    try:
        with open(path, encoding="utf-8-sig") as f:
            for chunk in iter(lambda: f.readlines(CHUNK_CHARS), []):
                numbers, items, chunk_ids = _checked_chunk(
                    *_parsed_chunk(chunk, start, problems), need_texts, problems
                )
                start += len(chunk)
                ids += chunk_ids
                line_numbers.append(numbers)
                keep(items)
            _duplicates(ids, np.concatenate(line_numbers), problems)
    except (OSError, UnicodeDecodeError) as first:
        error = first
        try:  # a decoding error is named by its place in the file, not in the chunk
            Path(path).read_bytes().decode("utf-8-sig")
        except (OSError, UnicodeDecodeError) as whole:
            error = whole
        raise ConfigError.single(
            display, f"cannot read the item file ({error.__class__.__name__}: {error})"
        )
    problems.raise_if_any(display)


def _parsed_chunk(chunk: List[str], start: int, problems: "Located") -> Tuple[np.ndarray, list]:
    """(line numbers, values) of the chunk's non-blank lines, each read as ``json.loads`` reads it."""
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
    """(line numbers, items, ids) of the values that are objects with a string ``id``; each rule is a
    mask over the chunk's columns, and only the rows it flags get a message."""
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
    names = list(map(dict.get, values, repeat("annotators")))
    if names.count(None) < len(names):  # the count rule holds where an item has both lists
        given = list(map(dict.get, values, repeat("annotations")))
        both = ~(types_are(names, NoneType) | types_are(given, NoneType))
        kept = (
            (names, given, ids)
            if both.all()
            else [list(compress(c, both)) for c in (names, given, ids)]
        )
        annotation_counts(*kept, numbers[both], problems, 4)
    return numbers, values, ids


def annotation_counts(
    names: list, given: list, ids: list, places, problems: Located, order: int = 0
) -> np.ndarray:
    """Per item, its number of annotators if ``annotations`` has one entry per annotator (null is an
    empty list), else 0 and a problem at the item's place (its line, or its row)."""
    wanted, found = lengths(names), lengths(given)
    wrong = (wanted != found) | (wanted < 0)
    for k in np.flatnonzero(wrong).tolist():
        counted = (
            f"{n} {what}" if n >= 0 else f"'{what}' not a list"
            for n, what in ((wanted[k], "annotators"), (found[k], "annotations"))
        )
        problems.add(
            "'annotations' must have one entry per annotator",
            int(places[k]),
            order,
            item=ids[k],
            expected="equally long lists",
            found=" and ".join(counted),
        )
    return np.where(wrong, 0, wanted)


def _duplicates(ids: List[str], numbers: np.ndarray, problems: Located) -> None:
    """An id seen on an earlier line is a problem (and that line's other problems are not reported)."""
    first: Dict[str, int] = {}
    again = {}
    for line, item in zip(numbers.tolist(), ids):
        if first.setdefault(item, line) != line:
            again[line] = item
    if not again:
        return
    problems[:] = [p for p in problems if p[0] not in again or p[1] < 2]
    for line, item in again.items():
        problems.add("duplicate id", line, 2, item=item, hint=f"first seen on line {first[item]}")


def types_are(values: list, kind: type) -> np.ndarray:
    """Per value, whether its type is exactly ``kind``."""
    return np.array([type(value) is kind for value in values], dtype=bool)


def lists_of(values: list, kind: type) -> np.ndarray:
    """Per value, whether it is a list whose elements are all of type ``kind``."""
    return np.array(
        [type(v) is list and all(type(x) is kind for x in v) for v in values], dtype=bool
    )


def lengths(values: list) -> np.ndarray:
    """``len`` of each list; 0 for null (no list), -1 for any other value."""
    return np.array(
        [len(v) if type(v) is list else 0 if v is None else -1 for v in values], dtype=np.int64
    )


def write_items(path: Path, items: Iterable[dict]) -> None:
    """Write items as canonical JSON lines (sorted keys, UTF-8, LF) so builds are reproducible."""
    lines = (json.dumps(item, ensure_ascii=False, sort_keys=True) + "\n" for item in items)
    Path(path).write_text("".join(lines), encoding="utf-8")
