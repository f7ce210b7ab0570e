"""The kit's item model, shared by every edition, importer, program and tool: one JSON object per
line (``.jsonl``, UTF-8) with ``id`` (str, unique in the file), ``texts`` (list of str: the pair or
more shown to systems), optional ``lang`` (``en``, ``es-en``) and ``genre``, ``annotators`` (list of
str: the order perspectivist predictions follow), ``annotators_listed`` (optional: the release's own
list when it repeats a name, as VariErrNLI does once per label given; public only where the gold is,
as it counts each annotator's labels), and the gold:
``annotations`` (one label per annotator, a list of labels on multilabel tracks), ``score`` (number:
graded similarity), ``label`` (majority label; null = no majority) or ``distribution`` (an object
label -> probability: a soft label given as gold, in place of the annotations' shares).

Public input data is the item without ``GOLD_FIELDS``; reference data without its texts
(``REFERENCE_FIELDS``: what scoring reads, the texts being public), except in a phase whose gold is
public (``PUBLIC_REFERENCE_FIELDS``: its results page shows the texts of the worst items). A phase
whose gold is hidden leaves out ``GOLD_SHAPED_FIELDS`` too, from both.
"""

from __future__ import annotations

import json
import sys
from contextlib import suppress
from itertools import chain, repeat
from pathlib import Path
from typing import Callable
from collections.abc import Iterable, Iterator

from ..errors import ConfigError, ProblemCollector
from .textfile import utf8_text


GOLD_FIELDS = ("annotations", "score", "label", "distribution")
PUBLIC_FIELDS = ("id", "texts", "lang", "genre", "annotators", "annotators_listed")
REFERENCE_FIELDS = ("id", "lang", "genre", "annotators", "annotators_listed") + GOLD_FIELDS
#: A phase whose gold is public keeps its items' texts in its reference data too, so that its
#: results page can show the texts of the items with the largest errors.
PUBLIC_REFERENCE_FIELDS = REFERENCE_FIELDS + ("texts",)
#: Fields whose content follows from the per-annotator gold (``annotators_listed`` names an
#: annotator once per label given): a phase whose gold is hidden leaves them out of its items.
GOLD_SHAPED_FIELDS = ("annotators_listed",)
GROUP_FIELDS = ("lang", "genre")
#: Characters of lines parsed and checked together: few enough that a
#: million items never exist as lines or dicts at once.
CHUNK_CHARS = 1 << 16


def public_view(item: dict, hide_gold: bool = False) -> dict:
    """The fields of ``item`` a phase's input data keeps (none of ``GOLD_SHAPED_FIELDS`` where the
    phase hides its gold)."""
    left_out = GOLD_SHAPED_FIELDS if hide_gold else ()
    return {k: item[k] for k in PUBLIC_FIELDS if k in item and k not in left_out}


def reference_view(item: dict, hide_gold: bool = True) -> dict:
    """The fields of ``item`` a phase's reference data keeps: its texts too where the gold is
    public, none of ``GOLD_SHAPED_FIELDS`` where it is hidden (the scorer then reads the layouts
    the input data allows, as ingestion does)."""
    fields = REFERENCE_FIELDS if hide_gold else PUBLIC_REFERENCE_FIELDS
    left_out = GOLD_SHAPED_FIELDS if hide_gold else ()
    return {k: item[k] for k in fields if k in item and k not in left_out}


def read_items(path: Path, display: str = None, texts: bool = True) -> list[dict]:
    """The checked items of a ``.jsonl`` file (organiser data: ConfigError); ``texts=False`` reads
    reference data, whose items may leave their texts out."""
    items: list[dict] = []
    _read_checked(path, display or str(path), texts, items.extend)
    return items


def item_columns(items: list[dict], defaults: dict[str, object]) -> dict[str, list]:
    """``id`` and each field of ``defaults`` some item has, as columns (per item its value or the
    default); group values (lang, genre) are interned: a million items share a few strings."""
    columns = {"id": list(map(dict.get, items, repeat("id")))}
    for name, default in defaults.items():
        if any(map(dict.__contains__, items, repeat(name))):
            columns[name] = values = list(map(dict.get, items, repeat(name), repeat(default)))
            with suppress(TypeError):  # a column with a value that is not a string is kept as it is
                columns[name] = list(map(sys.intern, values)) if name in GROUP_FIELDS else values
    return columns


def read_item_columns(path: Path, display: str, defaults: dict[str, object]) -> dict[str, list]:
    """The ``item_columns`` of reference data (checked as ``read_items(texts=False)`` checks it), taken a
    chunk at a time (never a dict per item at once) and joined, a field a chunk lacks being its default there."""
    chunks: list[dict[str, list]] = []
    _read_checked(path, display, False, lambda items: chunks.append(item_columns(items, defaults)))

    def joined(name: str) -> list:
        parts = (c.get(name) or repeat(defaults.get(name), len(c["id"])) for c in chunks)
        return list(chain.from_iterable(parts))

    return {name: joined(name) for name in dict.fromkeys(chain(["id"], *chunks))}


#: The JSON reader of item lines, whose C scanner ``scanned_json`` calls.
LINE_DECODER = json.JSONDecoder()


def scanned_json(text: str, decoder: json.JSONDecoder, decode: Callable[[str], object]):
    """``decode(text)`` (``decoder.decode`` or ``json.loads``): a text that is one JSON value, then
    at most a line end, by ``decoder``'s C scanner alone (json's Python wrapper around it costs as
    much as scanning a short line); any other text, and its errors, by ``decode``."""
    try:
        value, end = decoder.scan_once(text, 0)
    except StopIteration:
        return decode(text)
    return value if text[end:] in ("", "\n") else decode(text)


def parsed_json_lines(
    lines: Iterable[str], problems: ProblemCollector, start: int = 1
) -> Iterator[tuple[int, object]]:
    """(line number, value) of every non-blank line; a line that is not JSON, or JSON Python cannot
    read (nested too deeply, an integer of more digits than it converts), is a located problem."""
    for lineno, line in enumerate(lines, start=start):
        if not line.strip():
            continue
        try:
            yield lineno, scanned_json(line, LINE_DECODER, json.loads)
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
    path: Path, display: str, need_texts: bool, keep: Callable[[list[dict]], None]
) -> None:
    """Check the file a chunk of about ``CHUNK_CHARS`` at a time (the text is never held whole),
    handing each chunk's objects with a string id to ``keep``; problems are raised in line order as
    one ConfigError. Lines end as universal newlines, not ``str.splitlines``: U+2028 and U+0085 are
    text in JSON strings."""
    problems, first_lines, start = ProblemCollector(display), {}, 1
    try:
        with open(path, encoding="utf-8-sig") as f:
            for chunk in iter(lambda: f.readlines(CHUNK_CHARS), []):
                parsed = parsed_json_lines(chunk, problems, start)
                checked = (_is_item(v, n, need_texts, first_lines, problems) for n, v in parsed)
                keep(list(filter(None, checked)))
                start += len(chunk)
    except UnicodeDecodeError:
        utf8_text(Path(path).read_bytes(), display)  # raises, naming the byte's line in the file
    except FileNotFoundError:
        raise ConfigError.single(
            display,
            "the file is missing from the phase's data",
            found=f"no such file in {Path(path).parent}",
            hint="the bundle must be rebuilt (python3 build_bundle.py) or fixed, and uploaded again",
        )
    except OSError as e:
        raise ConfigError.single(
            display, f"cannot read the item file ({e.__class__.__name__}: {e})"
        )
    problems.raise_if_any(ConfigError)


def _is_item(
    value, line: int, need_texts: bool, first_lines: dict[str, int], problems: ProblemCollector
) -> dict | None:
    """One line's ``value`` when it is an object with a string id (else None), after adding its
    problems. An id seen on an earlier line (``first_lines``: id -> its first line) is a duplicate,
    whose other rules are not checked."""
    item_id = value.get("id") if type(value) is dict else None
    if type(item_id) is not str:
        problems.add("each line must be a JSON object with a string 'id'", line=line)
        return None
    first = first_lines.setdefault(item_id, line)
    if first != line:
        duplicate_id(problems, line, item_id, first)
        return value
    texts = value.get("texts", None if need_texts else [])
    if type(texts) is not list or not all(type(text) is str for text in texts):
        problems.add("'texts' must be a list of strings", line=line, item=item_id)
    if value.get("annotators") is not None and value.get("annotations") is not None:
        annotation_count(value["annotators"], value["annotations"], problems, line, item_id)
    return value


def duplicate_id(
    problems: ProblemCollector,
    line: int,
    item: str,
    first: int,
    hint: str = "keep one line per item, or give each item its own id",
) -> None:
    """The problem of ``item``'s id given again on ``line``, first on line ``first``: that line is
    said with the id in ``found``, which a problem met on several lines gives for its first only."""
    problems.add(
        "duplicate id",
        line=line,
        item=item,
        expected="each id on one line only",
        found=f"{item!r} again (first seen on line {first})",
        hint=hint,
    )


def annotation_count(names, given, problems: ProblemCollector, line, item: str) -> int:
    """An item's number of annotators if ``annotations`` has one entry per annotator (null is an
    empty list), else 0 and a problem at its ``line`` (None: not known) and ``item``."""
    wanted, found = _length(names), _length(given)
    if wanted == found and wanted >= 0:
        return wanted
    counted = (
        f"{n} {what}" if n >= 0 else f"'{what}' not a list"
        for n, what in ((wanted, "annotators"), (found, "annotations"))
    )
    problems.add(
        "'annotations' must have one entry per annotator",
        line=line,
        item=item,
        expected="equally long lists",
        found=" and ".join(counted),
    )
    return 0


def _length(value) -> int:
    """``len`` of a list; 0 for null (no list), -1 for any other value."""
    return len(value) if type(value) is list else 0 if value is None else -1


def write_items(path: Path, items: Iterable[dict]) -> None:
    """Write items as canonical JSON lines (sorted keys, UTF-8, LF) so builds are reproducible."""
    lines = (json.dumps(item, ensure_ascii=False, sort_keys=True) + "\n" for item in items)
    Path(path).write_text("".join(lines), encoding="utf-8")
