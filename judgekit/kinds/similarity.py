"""Graded similarity (SemEval STS): each pair has a real score on the track's range (0-5 unless
the track says otherwise); systems are scored by correlation with the gold scores."""

from __future__ import annotations

from typing import List, Sequence

import numpy as np

from .base import SIMILARITY_RANGE, Kind, PredictionShape


class Similarity(Kind):
    # --- track configuration ---
    name = "similarity"
    has_range = True
    positional_by_default = True
    default_metrics = {None: ("pearson", "spearman")}

    # --- gold and submitted values ---

    # --- generated pages, data and leak checks ---

    # --- baselines ---
    prediction_shape = PredictionShape.SCORE
    predicts_from_similarity = True

    def prediction_text(self, value) -> str:
        return repr(float(value))

    def prediction_from_similarity(self, similarity, score_range):
        low, high = score_range
        return float(low + (high - low) * similarity)

    def constant_prediction(self, track, gold, among=None):
        """The mean training score."""
        return float(np.mean(gold.gold if among is None else gold.gold[among]))

    def random_prediction(self, track, n_annotators, rng):
        """A score drawn uniformly from the 0-5 scale."""
        low, high = SIMILARITY_RANGE
        return float(rng.uniform(low, high))

    # --- results report ---
    report_figure = "scatter"

    def item_error_unit(self, track) -> str:
        return "|gold - predicted| (score points)"

    def item_errors(self, track, gold, predicted) -> np.ndarray:
        return np.abs(np.asarray(gold, dtype=float) - np.asarray(predicted, dtype=float))

    def item_texts(self, track, values, items: Sequence[int]) -> List[str]:
        return [repr(v) for v in np.asarray(values, dtype=float)[items].tolist()]


KIND = Similarity()
