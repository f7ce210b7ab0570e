"""Writing predictions in the format the scorer reads: one ``ID<TAB>VALUE`` line per item.

The one place that turns a Python value into submission text, used by the ingestion program, the
baselines, the builder's sample submissions and its gold self-check.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable, List, Sequence

import numpy as np

from ..tracks import Track


def _plain(value):
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def format_value(track: Track, value) -> str:
    """The VALUE text of one prediction: a number, a label, or compact JSON for lists."""
    if track.kind == "similarity":
        return repr(float(value))
    if track.kind == "classification":
        return str(value)
    return json.dumps(_plain(value), ensure_ascii=False, separators=(", ", ": "))


def prediction_lines(track: Track, ids: Sequence[str], values: Iterable) -> List[str]:
    return [f"{item_id}\t{format_value(track, value)}\n" for item_id, value in zip(ids, values)]


def write_prediction(path: Path, track: Track, ids: Sequence[str], values: Iterable) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("".join(prediction_lines(track, ids, values)))
