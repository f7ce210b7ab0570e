"""Perspectivist (LeWiDi): each annotator's own label per item; systems predict every annotator's
label and are scored by error rate or normalised absolute distance (lower is better)."""

import json
from collections.abc import Sequence

import numpy as np

from ..metrics import get as get_metric
from ..metrics.disagreement import per_item_sums
from .base import (
    SCALES,
    Kind,
    ANNOTATOR_ROW,
    annotator_label,
    draw_annotator_labels,
    split_multilabel,
)


#: The annotator-alignment rules (a track's ``annotator_alignment``): a row with more entries than its
#: item's annotators is scored by name (each entry is its pool or list annotator's), or as the LeWiDi
#: 2025 official scorer scored it (its first entries in order against the item's annotators).
BY_NAME, OFFICIAL_2025 = "by_name", "official_2025"


class Perspectivist(Kind):
    # --- track configuration ---
    name = "perspectivist"
    scales = SCALES
    has_labels = True
    default_metrics = {"categorical": ("error_rate",), "ordinal": ("anad",), "multilabel": ("mer",)}
    alignments = (BY_NAME, OFFICIAL_2025)

    # --- gold and submitted values ---

    value_type = ANNOTATOR_ROW

    def most_value_entries(self, track, row_length: int) -> int:
        """One label per annotator; on multilabel tracks per annotator a list of up to K labels, or
        K vectors of one 0/1 per annotator (label-major)."""
        if track.scale == "multilabel":
            return (len(track.labels) + 1) * (row_length + 1)
        return row_length + 1

    # --- generated pages, data and leak checks ---
    lists_annotators = True

    def example_value(self, track, annotators: int = 2) -> str:
        """An example line for an item of ``annotators`` annotators: the first label, the last,
        the first and so on, one per annotator."""
        last = [k % 2 for k in range(annotators)]  # 1: the annotator gives the last label
        example = [track.labels[-chosen] for chosen in last]
        if track.scale == "multilabel":  # label-major: per label a 0/1 per annotator
            others = [[0] * annotators] * (len(track.labels) - 2)
            example = [[1 - chosen for chosen in last]] + others + [last]
        return "ID<TAB>" + json.dumps(example)

    def gold_in_text(self, gold, items, index):
        """The annotators' labels in order (multilabel: each annotator's labels as released)."""
        multilabel = gold.track.scale == "multilabel"
        return tuple(
            str(label).strip()
            for annotation in items[index].get("annotations") or []
            for label in (split_multilabel(annotation) if multilabel else [annotation])
        )

    def exact_hits(self, gold, values):
        """An item is exact when every annotator's value is."""
        wrong = (values.values != gold.gold.values).reshape(len(values.item), -1).any(axis=1)
        return per_item_sums(wrong, values)[0] == 0  # no wrong row in the item

    # --- baselines ---

    def random_prediction(self, track, n_annotators, rng):
        """A label drawn uniformly per annotator (multilabel: a uniformly drawn non-empty set)."""
        drawn = draw_annotator_labels(track, n_annotators, rng)
        return [annotator_label(track, key) for key in drawn]

    # --- results report ---
    report_figure = "annotator_errors"
    #: What one annotator's label's error is, per scale (``stats.summaries.per_row_errors``).
    row_error_units = {
        "categorical": "1 if the label is wrong, else 0",
        "ordinal": "|gold - predicted| / number of labels",
        "multilabel": "the share of labels whose choice is mispredicted",
    }

    def item_error_unit(self, track) -> str:
        return "mean over the item's annotators of " + self.row_error_units[track.scale]

    def item_errors(self, track, gold, predicted) -> np.ndarray:
        """The track's main metric on each item alone: its per-item statistic, the value the score
        averages (rounded to 5 decimals where the metric rounds it); NaN without annotations."""
        errors = get_metric(track.main_metric).item_stats(gold, predicted)[:, 0]
        return np.where(np.bincount(gold.item, minlength=gold.n_items) > 0, errors, np.nan)

    def item_texts(self, track, values, items: Sequence[int]) -> list[str]:
        """Per item its annotators' labels in the item's annotator order (multilabel: each
        annotator's chosen labels), as a JSON list."""
        starts = values.offsets.tolist()  # rows grouped by item, as gold and the readers give them
        return [
            json.dumps(
                [annotator_label(track, row) for row in values.values[starts[i] : starts[i + 1]]],
                ensure_ascii=False,
            )
            for i in items
        ]


KIND = Perspectivist()
