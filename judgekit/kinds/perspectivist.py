"""Perspectivist (LeWiDi): each annotator's own label per item; systems predict every annotator's
label and are scored by error rate or normalised absolute distance (lower is better)."""

from __future__ import annotations

from .base import SCALES, Kind


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

    submitted_value = "per_annotator"
    value_is_row = True

    # --- generated pages, data and leak checks ---

    # --- baselines ---

    # --- results report ---


KIND = Perspectivist()
