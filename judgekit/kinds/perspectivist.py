"""Perspectivist (LeWiDi): each annotator's own label per item; systems predict every annotator's
label and are scored by error rate or normalised absolute distance (lower is better)."""

from __future__ import annotations

import json

import numpy as np

from .base import SCALES, Kind, split_multilabel


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

    # --- generated pages, data and leak checks ---
    format_text = (
        "- **perspectivist**: a JSON list with one label per annotator, in the item's `annotators` "
        "order (or an object annotator -> label). Multi-label tracks take two layouts, told apart "
        "by type: *label-major* (the LeWiDi 2025 layout, which the kit writes): one 0/1 vector per "
        "label in the track's label order, each with one entry per annotator (1 = chosen), e.g. "
        "`[[0, 0], [1, 0], [0, 1]]` for 2 annotators; or *annotator-major*: per annotator a list "
        'of labels, e.g. `[["entailment"], ["neutral"]]`. A row with one entry per name of the '
        "release's annotators list (`annotators_listed`, a name repeated once per label given) is "
        "merged when the repeated entries agree; a row with one entry per annotator of the "
        "dataset's whole pool is read by pool position (as the 2025 baseline files were written); "
        "each with one warning per file."
    )
    lists_annotators = True

    def example_value(self, track) -> str:
        if track.scale != "multilabel":
            return "ID<TAB>" + json.dumps([track.labels[0], track.labels[-1]])
        k = len(track.labels)
        label_major = [[1, 0]] + [[0, 0]] * (k - 2) + [[0, 1]]  # a 0/1 per annotator, 2 annotators
        return "ID<TAB>" + json.dumps(label_major)

    def gold_in_text(self, gold, items, index):
        """The annotators' labels in order (multilabel: each annotator's labels as released)."""
        multilabel = gold.track.scale == "multilabel"
        return tuple(
            label
            for annotation in items[index].get("annotations") or []
            for label in (split_multilabel(annotation) if multilabel else [str(annotation).strip()])
        )

    def exact_hits(self, gold, values):
        """An item is exact when every annotator's value is."""
        wrong = (values.values != gold.gold.values).reshape(len(values.item), -1).any(axis=1)
        per_item = np.bincount(values.item, weights=wrong.astype(float), minlength=values.n_items)
        return per_item == 0

    # --- baselines ---

    # --- results report ---


KIND = Perspectivist()
