"""The cosine bag-of-words baseline (the SemEval-2017 STS baseline), extended to every track kind.

The cosine of an item is |A ∩ B| / sqrt(|A| |B|) over the sets of tokens (``tokenize``) of its
first two texts; 0 when a side has no token or the item has fewer than two texts.

- similarity: 5 x cosine (the 0-5 scale);
- other kinds: the cosine is cut into ``N_BINS`` quantile bins of the training split, and each bin
  predicts what the training items in it had: the majority label (classification), the mean soft
  label (soft labels) or each annotator's majority label (perspectivist: the most-frequent rules
  within the bin, else the annotator's majority over the whole training split, else the split's
  most frequent label). An empty bin falls back to the whole training split.
"""

from __future__ import annotations

import functools
import math
from typing import FrozenSet, List, Sequence

import numpy as np

from .base import (
    SIMILARITY_RANGE,
    AnnotatorMajority,
    BaselineModel,
    as_plain,
    item_annotator_labels,
    item_annotators,
    most_frequent_index,
)
from .tokenize import tokenize

N_BINS = 5


@functools.lru_cache(maxsize=1 << 17)
def token_set(text: str) -> FrozenSet[str]:
    """The set of ``tokenize(text)``, remembered: a dataset's soft-label and perspectivist tracks
    (separate models) and items repeating a text would tokenize it again (most of a run's time)."""
    return frozenset(tokenize(text))


def cosine_bow(text_a: str, text_b: str) -> float:
    """Cosine of the binary bag-of-words vectors of two texts, in [0, 1] (higher = more overlap)."""
    a, b = token_set(text_a), token_set(text_b)
    if not a or not b:
        return 0.0
    return len(a & b) / math.sqrt(len(a) * len(b))


def item_cosine(item: dict) -> float:
    texts = item.get("texts") or []
    return cosine_bow(texts[0], texts[1]) if len(texts) >= 2 else 0.0


def quantile_edges(values: Sequence[float], n_bins: int = N_BINS) -> np.ndarray:
    """Inner bin edges at the 1/n .. (n-1)/n quantiles, duplicates removed (ties make fewer bins)."""
    if len(values) == 0:
        return np.zeros(0)
    return np.unique(np.quantile(np.asarray(values, dtype=float), np.arange(1, n_bins) / n_bins))


class CosineBow(BaselineModel):
    """Word-overlap cosine, scaled for similarity and mapped through training bins otherwise."""

    def __init__(self, track: dict):
        super().__init__(track)
        self.needs_training = self.kind != "similarity"

    def fit(self, train_items: List[dict]) -> "CosineBow":
        if self.kind == "similarity":
            return self
        gold = self.training_gold(train_items)
        cosines = np.array([item_cosine(it) for it in train_items])
        self.edges = quantile_edges(cosines)
        bins = self._bins(cosines)
        n_bins = len(self.edges) + 1
        if self.kind == "classification":
            self._fit_classification(gold, bins, n_bins)
        elif self.kind == "soft_label":
            scored = gold.scored  # items without annotations have all-zero rows
            if not scored.any():
                raise ValueError(f"track '{self.track.id}': no training item has annotations")
            overall = np.mean(gold.gold[scored], axis=0)
            self.per_bin = [
                as_plain(
                    np.mean(gold.gold[scored & (bins == b)], axis=0)
                    if (scored & (bins == b)).any()
                    else overall
                )
                for b in range(n_bins)
            ]
        else:
            rows = item_annotator_labels(gold)
            overall = AnnotatorMajority((name, key) for _, name, key in rows)
            self.per_bin = [
                AnnotatorMajority(((name, key) for i, name, key in rows if bins[i] == b), overall)
                for b in range(n_bins)
            ]
        return self

    def _fit_classification(self, gold, bins: np.ndarray, n_bins: int) -> None:
        n_labels = len(self.track.labels)
        scored = gold.scored
        if not scored.any():
            raise ValueError(f"track '{self.track.id}': no training item has a majority label")
        overall = most_frequent_index(gold.gold[scored], n_labels)
        self.per_bin = []
        for b in range(n_bins):
            in_bin = scored & (bins == b)
            index = most_frequent_index(gold.gold[in_bin], n_labels) if in_bin.any() else overall
            self.per_bin.append(self.track.labels[index])

    def _bins(self, cosines: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.edges, cosines, side="right")

    def predict(self, items: List[dict]) -> list:
        cosines = np.array([item_cosine(it) for it in items], dtype=float)
        if self.kind == "similarity":
            low, high = SIMILARITY_RANGE
            return [float(low + (high - low) * c) for c in cosines]
        bins = self._bins(cosines)
        if self.kind == "perspectivist":
            return [
                [self.label_of(self.per_bin[b].label(a)) for a in item_annotators(item)]
                for item, b in zip(items, bins)
            ]
        return [self.per_bin[b] for b in bins]
