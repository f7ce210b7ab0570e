"""Graded similarity (SemEval STS): each pair has a real score on the track's range (0-5 unless
the track says otherwise); systems are scored by correlation with the gold scores."""

import math
from collections.abc import Sequence

import numpy as np

from .base import SIMILARITY_RANGE, Kind, SCORE, selected


def on_gold_scale(predicted: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """``predicted`` mapped by the least-squares line onto ``gold`` (fitted on the items where both
    are finite); constant predictions map to the gold's mean. Unit: gold score points.

    The line is fitted on the predictions divided by a power of two that brings them within 1 in
    magnitude: the same line, exactly, but no sum or difference of accepted predictions (up to the
    largest float) overflows."""
    both = np.isfinite(predicted) & np.isfinite(gold)
    if not both.any():
        return np.full(predicted.shape, np.nan)
    predicted = np.ldexp(predicted, -math.frexp(float(np.max(np.abs(predicted[both]))))[1])
    x, y = predicted[both], gold[both]
    centred = x - x.mean()
    spread = float(centred @ centred)
    slope = float(centred @ (y - y.mean())) / spread if spread > 0 else 0.0
    return y.mean() + slope * (predicted - x.mean())


class Similarity(Kind):
    # --- track configuration ---
    name = "similarity"
    has_range = True
    positional_by_default = True
    default_metrics = {None: ("pearson", "spearman")}

    # --- gold and submitted values ---
    gold_fields = {"score": None}

    value_type = SCORE
    one_line_fix = "write one score per line"

    # --- generated pages, data and leak checks ---
    gold_is_numeric = True
    texts_ordered = False  # the similarity of A and B is that of B and A

    def example_value(self, track) -> str:
        return "ID<TAB>3.2"

    def gold_in_text(self, gold, items, index):
        return (float(gold.gold[index]),)

    def exact_hits(self, gold, values):
        return np.isclose(values, gold.gold, atol=1e-6)

    # --- baselines ---
    predicts_from_similarity = True

    def prediction_text(self, value) -> str:
        return repr(float(value))

    def prediction_from_similarity(self, similarity):
        """``similarity`` on the 0-5 scale."""
        low, high = SIMILARITY_RANGE
        return float(low + (high - low) * similarity)

    def constant_prediction(self, track, gold, among=None):
        """The mean training score (a ValueError when no training item has one)."""
        return float(np.mean(gold.gold[selected(track, gold, among, "a score")]))

    def random_prediction(self, track, n_annotators, rng):
        """A score drawn uniformly from the 0-5 scale."""
        return float(rng.uniform(*SIMILARITY_RANGE))

    # --- results report ---
    report_figure = "scatter"

    def item_error_unit(self, track) -> str:
        return (
            "|gold - fitted| in gold score points, where fitted is the prediction mapped onto the "
            "gold's scale by the least-squares line (Pearson r is the same for any such map, so "
            "the items far from that line are the ones that cost r, whatever scale you predict on)"
        )

    def item_errors(self, track, gold, predicted) -> np.ndarray:
        gold = np.asarray(gold, dtype=float)
        return np.abs(gold - on_gold_scale(np.asarray(predicted, dtype=float), gold))

    def item_texts(self, track, values, items: Sequence[int]) -> list[str]:
        return [repr(v) for v in np.asarray(values, dtype=float)[items].tolist()]


KIND = Similarity()
