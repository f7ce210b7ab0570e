"""Classification (NLI): one gold label per item, the annotators' majority; systems are scored by
accuracy and macro-F1."""

from __future__ import annotations

from typing import List, Sequence

import numpy as np

from .base import Kind


class Classification(Kind):
    # --- track configuration ---
    name = "classification"
    has_labels = True
    default_metrics = {None: ("accuracy", "macro_f1")}

    # --- gold and submitted values ---

    # --- generated pages, data and leak checks ---

    # --- baselines ---

    # --- results report ---
    report_figure = "confusion"

    def item_error_unit(self, track) -> str:
        return "1 if the predicted label is wrong, else 0"

    def item_errors(self, track, gold, predicted) -> np.ndarray:
        gold = np.asarray(gold)
        errors = (gold != np.asarray(predicted)).astype(float)
        errors[gold < 0] = np.nan  # no majority label: not scored
        return errors

    def item_texts(self, track, values, items: Sequence[int]) -> List[str]:
        names = list(track.labels) + [""]  # code -1 (no label) picks the last entry
        return [names[code] for code in np.asarray(values)[items].tolist()]


KIND = Classification()
