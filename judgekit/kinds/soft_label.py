"""Soft labels (LeWiDi): per item the distribution of the annotators' labels; systems predict a
distribution and are scored by a distance to the human one (lower is better)."""

from __future__ import annotations

from .base import SCALES, Kind


class SoftLabel(Kind):
    # --- track configuration ---
    name = "soft_label"
    scales = SCALES
    has_labels = True
    default_metrics = {"categorical": ("amd",), "ordinal": ("awd",), "multilabel": ("mamd",)}
    more_metrics = {"categorical": ("jsd", "kl")}

    # --- gold and submitted values ---

    submitted_value = "distribution"
    value_is_row = True

    # --- generated pages, data and leak checks ---

    # --- baselines ---

    # --- results report ---


KIND = SoftLabel()
