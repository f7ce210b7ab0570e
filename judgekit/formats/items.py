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
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Tuple

from ..errors import ConfigError, ProblemCollector
from .bulk import JSON_SPACE, SCAN_JSON, collector_paused

GOLD_FIELDS = ("annotations", "score", "label")
PUBLIC_FIELDS = ("id", "texts", "lang", "genre", "annotators", "annotators_listed")
REFERENCE_FIELDS = ("id", "lang", "genre", "annotators", "annotators_listed") + GOLD_FIELDS


def public_view(item: dict) -> dict:
    """The item as participants may see it: no gold field."""
    return {k: item[k] for k in PUBLIC_FIELDS if k in item}


def reference_view(item: dict) -> dict:
    """The item as scoring needs it: ids, gold, annotators and breakdown groups, no texts."""
    return {k: item[k] for k in REFERENCE_FIELDS if k in item}


def read_items(path: Path, display: str = None, texts: bool = True) -> List[dict]:
    """Read and check a ``.jsonl`` item file written by the kit (organiser data: ConfigError).

    ``texts=False`` reads reference data, whose items may leave their texts out. A clean file is
    read by ``_clean_items`` in one pass; any problem sends the file to the line-by-line reader,
    which locates and explains it.
    """
    display = display or str(path)
    with collector_paused():
        items = _clean_items(_item_lines(path, display), texts)
        return items if items is not None else _checked_items(_item_lines(path, display), display, texts)


def _item_lines(path: Path, display: str) -> List[str]:
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError.single(display, f"cannot read the item file ({e.__class__.__name__}: {e})")
    return json_lines(text)


def json_lines(text: str) -> List[str]:
    """The lines of a JSON-lines text read with universal newlines (line ends are LF by then).

    Not ``str.splitlines``: U+2028, U+0085 and friends are legal inside a JSON string and are text,
    not line ends (``write_items`` writes them as they are)."""
    return text.split("\n")


def parsed_json_lines(lines: Iterable[str], problems: ProblemCollector) -> Iterator[Tuple[int, object]]:
    """(line number, value) of every non-blank line read by ``json.loads``; a line that is not JSON
    becomes a located problem ("not valid JSON (...)") and is skipped."""
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield lineno, json.loads(line)
        except json.JSONDecodeError as e:
            problems.add(f"not valid JSON ({e.msg})", line=lineno)


def _clean_items(lines: List[str], need_texts: bool = True) -> Optional[List[dict]]:
    """The items of a file in which ``_checked_items`` finds no problem, or None.

    Consumes ``lines`` (each line is released once parsed, so the text and the items are not both
    held whole). Lines are parsed one by one with the C scanner, as ``json.loads`` reads them.
    """
    lines.reverse()
    items: List[dict] = []
    seen = set()
    scan = SCAN_JSON
    while lines:
        body = lines.pop().strip(JSON_SPACE)
        if not body:  # blank (a line of other white space fails to parse below: the precise path skips it)
            continue
        try:
            item, end = scan(body, 0)
        except (StopIteration, ValueError, RecursionError):
            return None
        if end != len(body) or type(item) is not dict:
            return None
        item_id = item.get("id")
        texts = item.get("texts", None if need_texts else [])
        if type(item_id) is not str or item_id in seen or type(texts) is not list:
            return None
        for text in texts:
            if type(text) is not str:
                return None
        annotators, annotations = item.get("annotators"), item.get("annotations")
        if annotators is not None and annotations is not None:
            if type(annotators) is not list or type(annotations) is not list or len(annotators) != len(annotations):
                return None
        seen.add(item_id)
        items.append(item)
    return items


def _checked_items(lines: List[str], display: str, need_texts: bool = True) -> List[dict]:
    """Items read line by line; every problem is collected with its line number and item id."""
    problems = ProblemCollector(display)
    items: List[dict] = []
    seen: Dict[str, int] = {}
    for lineno, item in parsed_json_lines(lines, problems):
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            problems.add("each line must be a JSON object with a string 'id'", line=lineno)
            continue
        if item["id"] in seen:
            problems.add("duplicate id", line=lineno, item=item["id"],
                         hint=f"first seen on line {seen[item['id']]}")
            continue
        seen[item["id"]] = lineno
        texts = item.get("texts", None if need_texts else [])
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            problems.add("'texts' must be a list of strings", line=lineno, item=item["id"])
        annotators = item.get("annotators")
        annotations = item.get("annotations")
        if annotators is not None and annotations is not None and len(annotators) != len(annotations):
            problems.add("'annotations' must have one entry per annotator", line=lineno, item=item["id"],
                         expected=str(len(annotators)), found=str(len(annotations)))
        items.append(item)
    problems.raise_if_any(ConfigError)
    return items


def write_items(path: Path, items: Iterable[dict]) -> None:
    """Write items as canonical JSON lines (sorted keys, UTF-8, LF) so builds are reproducible."""
    lines = [json.dumps(item, ensure_ascii=False, sort_keys=True) for item in items]
    Path(path).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
