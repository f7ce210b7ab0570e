"""Graded similarity (SemEval STS): each pair has a real score on the track's range (0-5 unless
the track says otherwise); systems are scored by correlation with the gold scores."""

from __future__ import annotations

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
    format_text = (
        "- **similarity**: a number (any scale: Pearson r does not depend on it). The SemEval "
        "positional format, one score per line in input order with an optional second column "
        "(confidence), is accepted too."
    )
    edge_case_text = (
        "a constant prediction (or constant gold) makes a correlation undefined; it is reported as "
        "0.0 with a warning."
    )
    range_text = "Similarity gold is on a scale from {low:g} (unrelated) to {high:g} (equivalent)."
    ranges_text = "Similarity gold scales (lowest-highest): {per_track}."
    gold_is_numeric = True

    def example_value(self, track) -> str:
        return "ID<TAB>3.2"

    def gold_in_text(self, gold, items, index):
        return (float(gold.gold[index]),)

    def exact_hits(self, gold, values):
        return np.isclose(values, gold.gold, atol=1e-6)

    # --- baselines ---

    # --- results report ---


KIND = Similarity()
