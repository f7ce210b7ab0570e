"""Soft labels (LeWiDi): per item the distribution of the annotators' labels; systems predict a
distribution and are scored by a distance to the human one (lower is better)."""

from __future__ import annotations

import json

import numpy as np

from .base import SCALES, Kind

# --- generated pages, data and leak checks ---
#: Soft-label rows may sum to 1 within this tolerance; they are then renormalised (with a warning
#: beyond 1e-6). Released LeWiDi test soft labels are rounded to 2 decimals and sum to 0.99-1.02.
SUM_TOLERANCE = 0.02


class SoftLabel(Kind):
    # --- track configuration ---
    name = "soft_label"
    scales = SCALES
    has_labels = True
    default_metrics = {"categorical": ("amd",), "ordinal": ("awd",), "multilabel": ("mamd",)}
    more_metrics = {"categorical": ("jsd", "kl")}

    # --- gold and submitted values ---

    # --- generated pages, data and leak checks ---
    format_text = (
        "- **soft label**: a JSON list of probabilities in the order of the track's labels (or a "
        "JSON object label -> probability). Multi-label tracks: a list of `[P(not chosen), "
        "P(chosen)]` pairs, one per label. Values must be finite and non-negative; each "
        f"distribution must sum to 1 within {SUM_TOLERANCE} (it is then renormalised)."
    )
    lists_annotators = True
    edge_case_text = "LeWiDi metrics round as the official 2025 code does (5 decimals per item)."
    gold_is_numeric = True

    def example_value(self, track) -> str:
        k = len(track.labels)
        if track.scale == "multilabel":
            return "ID<TAB>" + json.dumps([[0.5, 0.5]] * k)
        even = round(1.0 / k, 4)
        return "ID<TAB>" + json.dumps([even] * (k - 1) + [round(1 - (k - 1) * even, 4)])

    def gold_in_text(self, gold, items, index):
        rows = np.asarray(gold.gold).reshape(len(gold.ids), -1)
        return tuple(float(v) for v in rows[index])

    def exact_hits(self, gold, values):
        diff = np.abs(values - gold.gold).reshape(len(gold.ids), -1).max(axis=1)
        return diff < 1e-3

    # --- baselines ---

    # --- results report ---


KIND = SoftLabel()
