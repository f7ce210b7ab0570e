"""Soft labels (LeWiDi): per item the distribution of the annotators' labels; systems predict a
distribution and are scored by a distance to the human one (lower is better)."""

import json
from collections.abc import Sequence

import numpy as np

from ..metrics import get as get_metric
from .base import SCALES, Kind, DISTRIBUTION, draw_annotator_labels, selected

# --- generated pages, data and leak checks ---
#: Soft-label rows may sum to 1 within this tolerance; they are then renormalised (with a warning
#: beyond 1e-6). Released LeWiDi test soft labels are rounded to 2 decimals and sum to 0.99-1.02.
SUM_TOLERANCE = 0.02
#: The CSC soft labels of the LeWiDi 2025 practice phase had 7 bins for 6 labels, the first bin
#: ("0") always empty. An ordinal soft label given so, its first bin holding at most
#: ``SUM_TOLERANCE``, is read with that bin dropped (``formats.soft``); the readers' warnings and
#: hints name the layout by these words.
PRACTICE_PHASE_LAYOUT = "the 2025 practice-phase layout"
LEADING_BIN_LAYOUT = f"one value more than the track's labels, {PRACTICE_PHASE_LAYOUT}"


class SoftLabel(Kind):
    # --- track configuration ---
    name = "soft_label"
    scales = SCALES
    has_labels = True
    default_metrics = {"categorical": ("amd",), "ordinal": ("awd",), "multilabel": ("mamd",)}

    # --- gold and submitted values ---

    #: ``distribution``: a soft label given as the item's gold (a release's own), else the shares
    gold_fields = {"annotators": [], "annotations": [], "distribution": None}
    value_type = DISTRIBUTION

    def most_value_entries(self, track, row_length: int) -> int:
        """K+1 probabilities (a leading bin), or K pairs in a list or object (3 per label)."""
        return 3 * (len(track.labels) + 1)

    # --- generated pages, data and leak checks ---
    page_fields = {"sum_tolerance": str(SUM_TOLERANCE)}
    lists_annotators = True
    gold_is_numeric = True

    def example_value(self, track) -> str:
        k = len(track.labels)
        even = round(1.0 / k, 4)
        single = [even] * (k - 1) + [round(1 - (k - 1) * even, 4)]  # rounded, summing to 1
        return "ID<TAB>" + json.dumps([[0.5, 0.5]] * k if track.scale == "multilabel" else single)

    def gold_in_text(self, gold, items, index):
        return tuple(float(v) for v in np.ravel(gold.gold[index]))

    def exact_hits(self, gold, values):
        return np.abs(values - gold.gold).reshape(len(gold.ids), -1).max(axis=1) < 1e-3

    # --- baselines ---

    def constant_prediction(self, track, gold, among=None):
        """The label-wise mean of the training soft labels (items without annotations left out)."""
        scored = selected(track, gold, among, "annotations")
        return np.mean(gold.gold[scored], axis=0).tolist()

    def random_prediction(self, track, n_annotators, rng):
        """The histogram of labels drawn per annotator (multilabel: per label the share of drawn
        annotators choosing it); without annotators, a distribution drawn uniformly from the
        simplex (multilabel: P(chosen) uniform in [0, 1] per label)."""
        drawn = draw_annotator_labels(track, n_annotators, rng)
        n_labels = len(track.labels)
        if track.scale == "multilabel":
            chosen = np.mean(drawn, axis=0) if drawn else rng.uniform(size=n_labels)
            return np.column_stack([1.0 - chosen, chosen]).tolist()
        if not drawn:
            return rng.dirichlet(np.ones(n_labels)).tolist()
        return (np.bincount(drawn, minlength=n_labels) / len(drawn)).tolist()

    # --- results report ---
    report_figure = "mean_distribution"

    def item_error_unit(self, track) -> str:
        return f"{get_metric(track.main_metric).title} of the item"

    def item_errors(self, track, gold, predicted) -> np.ndarray:
        """The track's main metric on each item alone (its per-item statistic: every soft-label
        metric is a mean over items)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            stats = get_metric(track.main_metric).item_stats(gold, predicted)
        return np.asarray(stats, dtype=float).reshape(len(stats), -1)[:, 0]

    def item_texts(self, track, values, items: Sequence[int]) -> list[str]:
        """Per item its distribution over the labels (multilabel: P(label chosen) per label), 4
        decimals, in the track's label order."""
        values = np.asarray(values, dtype=float)[items]
        if values.ndim == 3:
            values = values[:, :, 1]
        return [json.dumps(row) for row in np.round(values, 4).tolist()]


KIND = SoftLabel()
