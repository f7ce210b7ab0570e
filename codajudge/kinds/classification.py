"""Classification (NLI): one gold label per item, the annotators' majority; systems are scored by
accuracy and macro-F1."""

from collections.abc import Sequence

import numpy as np

from .base import Kind, LABEL, selected


class Classification(Kind):
    # --- track configuration ---
    name = "classification"
    has_labels = True
    default_metrics = {None: ("accuracy", "macro_f1")}

    # --- gold and submitted values ---
    value_type = LABEL
    gold_fields = {"label": None}

    # --- generated pages, data and leak checks ---

    def example_value(self, track) -> str:
        return f"ID<TAB>{track.labels[0]}"

    def gold_in_text(self, gold, items, index):
        return (gold.track.labels[int(gold.gold[index])],)

    def exact_hits(self, gold, values):
        return (values == gold.gold)[gold.scored]

    # --- baselines ---

    def prediction_text(self, value) -> str:
        return str(value)

    def constant_prediction(self, track, gold, among=None):
        """The most frequent majority label (ties: the earliest in the track's label order)."""
        scored = selected(track, gold, among, "a majority label")
        counts = np.bincount(gold.gold[scored], minlength=len(track.labels))
        return track.labels[int(np.argmax(counts))]  # argmax: the first of equal counts

    def random_prediction(self, track, n_annotators, rng):
        """A label drawn uniformly."""
        return track.labels[int(rng.integers(len(track.labels)))]

    # --- results report ---
    report_figure = "confusion"

    def item_error_unit(self, track) -> str:
        return "1 if the predicted label is wrong, else 0"

    def item_errors(self, track, gold, predicted) -> np.ndarray:
        gold = np.asarray(gold)  # code -1: no majority label, not scored
        return np.where(gold < 0, np.nan, gold != np.asarray(predicted))

    def item_texts(self, track, values, items: Sequence[int]) -> list[str]:
        names = list(track.labels) + [""]  # code -1 (no label) picks the last entry
        return [names[code] for code in np.asarray(values)[items].tolist()]


KIND = Classification()
