"""Perspectivist (LeWiDi): each annotator's own label per item; systems predict every annotator's
label and are scored by error rate or normalised absolute distance (lower is better)."""

from __future__ import annotations

from .base import SCALES, Kind, PredictionShape, annotator_label, draw_annotator_labels


class Perspectivist(Kind):
    # --- track configuration ---
    name = "perspectivist"
    scales = SCALES
    has_labels = True
    default_metrics = {
        "categorical": ("error_rate",),
        "ordinal": ("anad",),
        "multilabel": ("mer",),
    }

    # --- gold and submitted values ---

    # --- generated pages, data and leak checks ---

    # --- baselines ---
    prediction_shape = PredictionShape.PER_ANNOTATOR

    def random_prediction(self, track, n_annotators, rng):
        """A label drawn uniformly per annotator (multilabel: a uniformly drawn non-empty set)."""
        drawn = draw_annotator_labels(track, n_annotators, rng)
        return [annotator_label(track, key) for key in drawn]

    # --- results report ---


KIND = Perspectivist()
