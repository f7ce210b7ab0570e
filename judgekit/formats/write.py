"""Writing predictions in the format the scorer reads: one ``ID<TAB>VALUE`` line per item.

The one place that turns a Python value into submission text, used by the ingestion program, the
baselines, the builder's sample submissions and its gold self-check.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable, List, Sequence

import numpy as np

from ..gold import GoldTrack
from ..metrics import PerAnnotator
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


def gold_as_values(gold: GoldTrack) -> list:
    """The gold of a track as prediction values (a perfect submission), for self-checks and tests.

    Classification items without a majority get the first label (they are not scored).
    """
    track = gold.track
    if track.kind == "similarity":
        return [float(v) for v in gold.gold]
    if track.kind == "classification":
        return [track.labels[i] if i >= 0 else track.labels[0] for i in gold.gold]
    if track.kind == "soft_label":
        return [row.tolist() for row in gold.gold]
    per: PerAnnotator = gold.gold
    if track.scale == "multilabel":  # label-major, the LeWiDi 2025 layout: per label a 0/1 per annotator
        out: List[list] = [[[] for _ in track.labels] for _ in range(per.n_items)]
        for row, item in zip(per.values, per.item):
            for j, chosen in enumerate(row):
                out[item][j].append(int(chosen))
        return out
    out = [[] for _ in range(per.n_items)]
    for row, item in zip(per.values, per.item):
        out[item].append(track.labels[int(row)])
    return out
