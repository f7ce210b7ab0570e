"""The most-frequent baseline: one constant guess per track, learned from the training split.

- similarity: the mean training score (a constant, so Pearson is undefined and scores 0.0);
- classification: the most frequent training label among items with a majority label (ties: the
  earliest in the track's label order);
- soft labels: the bin-wise mean of the training soft labels;
- perspectivist: each annotator's most frequent training label, ties broken by the label met first
  in that annotator's training history; annotators unseen in training get the most frequent
  label over all training annotations (ties: the first met). On multilabel tracks each label is
  decided separately, as the LeWiDi 2025 starter kit does: for annotator k and label j, the 0/1
  value k's training items give most often (1 = k chose j; ties: the value met first in k's
  history); the prediction is written label-major (one 0/1 vector per label).
"""

from __future__ import annotations

from typing import List

import numpy as np

from .base import (
    AnnotatorMajority,
    BaselineModel,
    as_plain,
    item_annotator_labels,
    item_annotators,
    most_frequent_index,
)


class MostFrequent(BaselineModel):
    """Predicts the training split's most frequent answer."""

    needs_training = True

    def fit(self, train_items: List[dict]) -> "MostFrequent":
        gold = self.training_gold(train_items)
        if self.kind == "similarity":
            self.constant = float(np.mean(gold.gold))
        elif self.kind == "classification":
            scored = gold.gold[gold.scored]
            if scored.size == 0:
                raise ValueError(f"track '{self.track.id}': no training item has a majority label")
            self.constant = self.track.labels[most_frequent_index(scored, len(self.track.labels))]
        elif self.kind == "soft_label":
            if not gold.scored.any():
                raise ValueError(f"track '{self.track.id}': no training item has annotations")
            self.constant = as_plain(
                np.mean(gold.gold[gold.scored], axis=0)
            )  # unannotated rows are zeros
        elif self.multilabel:
            rows = item_annotator_labels(gold)
            self.per_label = [
                AnnotatorMajority((name, key[j]) for _, name, key in rows)
                for j in range(len(self.track.labels))
            ]
        else:
            self.majority = AnnotatorMajority(
                (name, key) for _, name, key in item_annotator_labels(gold)
            )
        return self

    def predict(self, items: List[dict]) -> list:
        if self.kind == "perspectivist" and self.multilabel:
            return [
                [[majority.label(a) for a in item_annotators(item)] for majority in self.per_label]
                for item in items
            ]
        if self.kind == "perspectivist":
            return [
                [self.label_of(self.majority.label(a)) for a in item_annotators(item)]
                for item in items
            ]
        return [self.constant for _ in items]
