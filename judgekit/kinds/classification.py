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

    # --- generated pages, data and leak checks ---
    format_text = "- **classification**: one of the track's labels, spelled exactly."
    edge_case_text = "Classification items without a gold majority are not scored."

    def example_value(self, track) -> str:
        return f"ID<TAB>{track.labels[0]}"

    def gold_in_text(self, gold, items, index):
        return (gold.track.labels[int(gold.gold[index])],)

    def exact_hits(self, gold, values):
        return (values == gold.gold)[gold.scored]

    # --- baselines ---

    # --- results report ---


KIND = Classification()
