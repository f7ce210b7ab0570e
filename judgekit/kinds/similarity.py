"""Graded similarity (SemEval STS): each pair has a real score on the track's range (0-5 unless
the track says otherwise); systems are scored by correlation with the gold scores."""

from __future__ import annotations

from .base import Kind


class Similarity(Kind):
    # --- track configuration ---
    name = "similarity"
    has_range = True
    positional_by_default = True
    default_metrics = {None: ("pearson", "spearman")}

    # --- gold and submitted values ---

    submitted_value = "number"
    one_line_fix = "write one score per line"

    # --- generated pages, data and leak checks ---

    # --- baselines ---

    # --- results report ---


KIND = Similarity()
