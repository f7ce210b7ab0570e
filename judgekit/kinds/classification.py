"""Classification (NLI): one gold label per item, the annotators' majority; systems are scored by
accuracy and macro-F1."""

from __future__ import annotations

from .base import Kind


class Classification(Kind):
    # --- track configuration ---
    name = "classification"
    has_labels = True
    default_metrics = {None: ("accuracy", "macro_f1")}

    # --- gold and submitted values ---
    gold_fields = {"label": None}

    # --- generated pages, data and leak checks ---

    # --- baselines ---

    # --- results report ---


KIND = Classification()
