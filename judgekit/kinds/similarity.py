"""Graded similarity (SemEval STS): each pair has a real score on the track's range (0-5 unless
the track says otherwise); systems are scored by correlation with the gold scores."""

from __future__ import annotations

from typing import List, Sequence

import numpy as np

from .base import Kind


class Similarity(Kind):
    # --- track configuration ---
    name = "similarity"
    has_range = True
    positional_by_default = True
    default_metrics = {None: ("pearson", "spearman")}

    # --- gold and submitted values ---

    # --- generated pages, data and leak checks ---

    # --- baselines ---

    # --- results report ---
    report_figure = "scatter"

    def item_error_unit(self, track) -> str:
        return "|gold - predicted| (score points)"

    def item_errors(self, track, gold, predicted) -> np.ndarray:
        return np.abs(np.asarray(gold, dtype=float) - np.asarray(predicted, dtype=float))

    def item_texts(self, track, values, items: Sequence[int]) -> List[str]:
        return [repr(v) for v in np.asarray(values, dtype=float)[items].tolist()]


KIND = Similarity()
