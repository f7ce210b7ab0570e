"""The most-frequent baseline: one constant guess per track, learned from the training split
(``Kind.constant_prediction``), or per annotator when the kind predicts per annotator:

- similarity: the mean training score (a constant, so Pearson is undefined and scores 0.0);
- classification: the most frequent training label among items with a majority label (ties: the
  earliest in the track's label order);
- soft labels: the bin-wise mean of the training soft labels;
- perspectivist: each annotator's most frequent training label, ties broken by the label met first
  in that annotator's training history; annotators unseen in training get the most frequent
  label over all training annotations (ties: the first met). On multilabel tracks each label is
  decided separately, as the LeWiDi 2025 starter kit does: for annotator k and label j, the 0/1
  value k's training items give most often (1 = k chose j; ties: the value met first in k's
  history); the prediction is written label-major (one 0/1 vector per label). On such a track scored
  as the 2025 scorer (annotator alignment ``official_2025``) every row is written over the items'
  whole annotator pool, as the starter kit's VariErrNLI file was, so that its published numbers are
  reproduced (the scorer reads a row's first entries for the item's annotators).
"""

from __future__ import annotations

from ..formats.annotators import annotator_pool
from ..kinds.perspectivist import OFFICIAL_2025
import numpy as np

from .base import BaselineModel, annotator_majority, item_annotator_labels, item_annotators


def writes_pool_rows(track) -> bool:
    """Whether the baseline writes each row of ``track`` over the items' whole annotator pool (a
    track scored as the 2025 scorer), as the 2025 starter kit's files were; the Baselines page
    says so."""
    return track.annotator_alignment == OFFICIAL_2025


class MostFrequent(BaselineModel):
    """Predicts the training split's most frequent answer."""

    needs_training = True

    def fit(self, train_items: list[dict]) -> MostFrequent:
        gold = self.training_gold(train_items)
        #: On a multilabel track predicted per annotator, per label each annotator's majority 0/1
        #: and the split's (``annotator_majority``); None: one bin, the whole split
        self.per_label = None
        if self.kind.predicts_per_annotator and self.track.scale == "multilabel":
            rows = item_annotator_labels(gold)
            self.per_label = [
                annotator_majority([(name, key[j]) for _, name, key in rows])
                for j in range(len(self.track.labels))
            ]
        else:
            self.fit_bins(gold, np.zeros(len(train_items), dtype=int), 1)
        return self

    def predict(self, items: list[dict]) -> list:
        if self.per_label is None:
            return self.predict_by_bin(items, [0] * len(items))
        # each row over its item's annotators, or over the whole pool on a track scored as the
        # 2025 scorer (as the 2025 starter kit wrote VariErrNLI's rows)
        rows = [item_annotators(item) for item in items]
        if writes_pool_rows(self.track):
            rows = [annotator_pool(rows)] * len(items)
        return [
            [[majority.get(a, default) for a in names] for majority, default in self.per_label]
            for names in rows
        ]
