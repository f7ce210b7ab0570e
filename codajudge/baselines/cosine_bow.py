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

import numpy as np

from .base import BaselineModel
from .tokenize import tokenize

N_BINS = 5


@functools.lru_cache(maxsize=1 << 17)
def token_set(text: str) -> frozenset:
    """The distinct tokens of a text; kept, because a build scores the same texts again for every
    track, phase and split of a dataset (a LeWiDi 2025 build: 328,000 texts)."""
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


class CosineBow(BaselineModel):
    """Word-overlap cosine, scaled for similarity and mapped through training bins otherwise."""

    texts_compared = 2
    alike_without_texts = "most_frequent"

    def __init__(self, track: dict):
        super().__init__(track)
        self.needs_training = not self.kind.predicts_from_similarity

    def fit(self, train_items: list[dict]) -> CosineBow:
        if self.kind.predicts_from_similarity:
            return self
        gold = self.training_gold(train_items)
        cosines = np.array([item_cosine(it) for it in train_items], dtype=float)
        # inner bin edges at the 1/n .. (n-1)/n quantiles of the training split (never empty:
        # ``training_gold`` refuses an empty split), duplicates removed (ties make fewer bins)
        self.edges = np.unique(np.quantile(cosines, np.arange(1, N_BINS) / N_BINS))
        self.fit_bins(gold, np.searchsorted(self.edges, cosines, side="right"), len(self.edges) + 1)
        return self

    def predict(self, items: list[dict]) -> list:
        cosines = np.array([item_cosine(it) for it in items], dtype=float)
        if self.kind.predicts_from_similarity:
            return [self.kind.prediction_from_similarity(c) for c in cosines]
        return self.predict_by_bin(items, np.searchsorted(self.edges, cosines, side="right"))
