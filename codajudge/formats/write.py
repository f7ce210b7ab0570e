"""Predictions as the scorer reads them, one ``ID<TAB>VALUE`` line per item: the one place that turns
a Python value into submission text (ingestion program, baselines, the builder's sample submissions
and its gold self-check)."""

from pathlib import Path
from collections.abc import Iterable, Sequence

import numpy as np

from .. import kinds
from ..tracks import Track


def per_annotator_value(track: Track, rows: np.ndarray) -> list:
    """One item's per-annotator value from its rows (label indices, or 0/1 rows on multilabel tracks):
    the labels in annotator order, or the LeWiDi 2025 label-major layout (per label a 0/1 per annotator)."""
    if track.scale != "multilabel":
        return [track.labels[i] for i in rows.astype(int).tolist()]
    return rows.T.astype(int).tolist() if len(rows) else [[] for _ in track.labels]


def write_prediction(path: Path, track: Track, ids: Sequence[str], values: Iterable) -> None:
    text = kinds.of(track).prediction_text  # a number, a label, or compact JSON for lists
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("".join(f"{item_id}\t{text(value)}\n" for item_id, value in zip(ids, values)))
