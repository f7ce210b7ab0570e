"""Recorded outcomes of the reference readers (``items.read_items``, ``gold.build_gold``) on mutated items.

Each case is an item file (or item list) with one change; its outcome is 'ok' with a digest of what
was read, or the error type and full message. ``recorded/gold.json`` holds the recorded outcomes
and ``tests/test_fastpaths.py`` compares against it, case by case. When a message changes on
purpose, re-record with ``python3 tests/hostile/recordings.py`` and review the diff.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from pathlib import Path
from typing import Callable, Dict, Iterator, Tuple

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).resolve().parents[2])]
from hostile import edition  # noqa: E402
from hostile.recording import recorded_outcome  # noqa: E402
from codajudge.formats.items import read_items  # noqa: E402
from codajudge.gold import build_gold  # noqa: E402
from codajudge.metrics import PerAnnotator  # noqa: E402
from codajudge.spec import spec_from_dict  # noqa: E402

TRACKS = {t.id: t for t in spec_from_dict(edition.spec(), "task.json").tracks}


def item_mutations(items):
    """Item lists with one change each: what the readers must explain, or quietly accept."""
    yield items
    first = dict(items[0])
    for key, value in (
        ("annotations", [3] * len(first.get("annotators", [0]))),
        ("annotators", [1, 2]),
        ("annotations", [" " + str(a) for a in first.get("annotations", ["x"])]),
        ("annotations", ["bogus"] * len(first.get("annotators", [0]))),
        ("annotations", ",".join(map(str, first.get("annotations", [])))),
        ("annotators", "ab"),
        ("annotators", []),
        ("annotations", None),
        ("score", "3.5"),
        ("score", True),
        ("score", float("nan")),
        ("score", 10**400),
        ("label", 1),
        ("label", "bogus"),
        ("label", None),
        ("texts", "one text"),
        ("texts", ["a", 2]),
        ("id", 7),
        ("lang", 3),
        ("annotators_listed", ["x", "x"]),
    ):
        yield [dict(first, **{key: value})] + items[1:]
    yield items + [items[0]]  # a duplicate id
    yield [
        dict(it, annotators=[], annotations=[]) if k % 3 == 0 and "annotators" in it else it
        for k, it in enumerate(items)
    ]
    yield [dict(items[k], texts=7) if k in (1, 3) else items[k] for k in range(len(items))] + items[
        :2
    ]


def write_item_file(path: Path, items, sep: str = "\n", bom: bool = False) -> None:
    text = sep.join(json.dumps(it, ensure_ascii=False, allow_nan=True) for it in items) + sep
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))


def item_files(dataset: str) -> Iterator[Tuple[str, list, str, bool]]:
    """(name, items, line separator, BOM) of every item-file case of a dataset."""
    items = edition.GOLD[dataset]
    for k, mutated in enumerate(item_mutations(items)):
        yield f"mutation {k}", mutated, "\n", False
    for name, sep, bom in (
        ("crlf bom", "\r\n", True),
        ("blank lines", "\n\n", False),
        ("u2028", "\u2028", False),
        ("cr", "\r", False),
        ("ideographic space line", "\n\u3000\n", False),
        ("space tab line", "\n \t\n", False),
    ):
        yield name, items, sep, bom
    yield "u2028 in a text", [dict(items[0], texts=["a\u2028b", "c"])] + items[1:], "\n", False


RAW_FILES = {
    "not json": b'{"id": "a", "texts": []}\n{"id": \n[1, 2]\n"text"\n{"id": "b"} x\n',
    "values": b'{"id": "a", "texts": ["x"]}\n{"id": 5}\n{"texts": []}\n[]\n{"id": "a", "texts": ["y"]}\n',
    "padded": b' \t{"id": "a", "texts": ["x"]} \t\n\n  \n{"id": "b", "texts": []}',
    "empty": b"",
    "only blank": b"\n \n\t\n",
    "not utf-8": b'{"id": "a"}\n{"id": "b\xff"}\n',
    "no final line end": b'{"id": "a", "texts": []}\n\n{"id": "b", "texts": []}',
}


def _plain(value):
    if isinstance(value, PerAnnotator):
        return {
            "values": _plain(value.values),
            "item": _plain(value.item),
            "offsets": _plain(value.offsets),
            "n": [value.n_items, value.n_labels],
        }
    if isinstance(value, np.ndarray):
        return [str(value.dtype), list(value.shape), value.tolist()]
    return value


def digest(value) -> str:
    text = json.dumps(value, sort_keys=True, allow_nan=True, default=_plain)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def outcome(action: Callable, summary: Callable = digest) -> list:
    """['ok', digest] or ['error', type, message]; any other exception is a crash and propagates."""
    return recorded_outcome(action, lambda result: [summary(result)])


def gold_summary(gold) -> str:
    return digest(
        {
            "ids": gold.ids,
            "scored": gold.scored,
            "gold": _plain(gold.gold),
            "annotators": gold.annotators,
            "groups": gold.groups,
            "listed": gold.listed,
        }
    )


def outcomes() -> Dict[str, list]:
    out: Dict[str, list] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "items.jsonl"
        for dataset in sorted(edition.GOLD):
            for name, items, sep, bom in item_files(dataset):
                write_item_file(path, items, sep, bom)
                for texts in (True, False):
                    out[f"items {dataset} {name} texts={texts}"] = outcome(
                        lambda: read_items(path, "gold", texts)
                    )
        for name, data in RAW_FILES.items():
            path.write_bytes(data)
            for texts in (True, False):
                out[f"items raw {name} texts={texts}"] = outcome(
                    lambda: read_items(path, "gold", texts)
                )
    for track_id, track in sorted(TRACKS.items()):
        for k, mutated in enumerate(item_mutations(edition.items_of(track_id))):
            out[f"gold {track_id} mutation {k}"] = outcome(
                lambda: build_gold(track, mutated, "gold"), gold_summary
            )
    return out
