"""The random baseline: seeded guesses that show what chance looks like on each track.

- similarity: a score drawn uniformly from the 0-5 scale;
- classification: a label drawn uniformly per item;
- perspectivist: a label drawn uniformly per annotator of the item (multilabel: a uniformly drawn
  non-empty set of labels);
- soft labels: the histogram of labels drawn as for perspectivist (multilabel: for each label the
  share of drawn annotators choosing it), or, for an item without annotators, a distribution drawn
  uniformly from the simplex (multilabel: P(chosen) uniform in [0, 1] per label).

Same seed, same predictions: the generator is ``numpy.random.default_rng(seed)``, restarted at
every ``predict`` call, and draws follow the items' order.
"""

from __future__ import annotations

from typing import List

import numpy as np

from .base import SIMILARITY_RANGE, BaselineModel, as_plain, item_annotators


class Random(BaselineModel):
    """Uniform random predictions; ``fit`` learns nothing."""

    def predict(self, items: List[dict]) -> list:
        rng = np.random.default_rng(self.seed)
        return [self._predict_item(item, rng) for item in items]

    def _predict_item(self, item: dict, rng: np.random.Generator):
        n_labels = len(self.track.labels)
        if self.kind == "similarity":
            low, high = SIMILARITY_RANGE
            return float(rng.uniform(low, high))
        if self.kind == "classification":
            return self.track.labels[int(rng.integers(n_labels))]
        drawn = self._draw_annotator_labels(len(item_annotators(item)), rng)
        if self.kind == "perspectivist":
            return [self.label_of(key) for key in drawn]
        return self._soft_label(drawn, rng)

    def _draw_annotator_labels(self, n_annotators: int, rng: np.random.Generator) -> list:
        """Label keys for ``n_annotators`` annotators: indices, or 0/1 tuples on multilabel tracks."""
        n_labels = len(self.track.labels)
        if not self.multilabel:
            return [int(k) for k in rng.integers(n_labels, size=n_annotators)]
        # A uniform non-empty subset: a uniform integer in [1, 2^L), read as bits in label order.
        subsets = rng.integers(1, 2**n_labels, size=n_annotators)
        return [tuple((int(s) >> j) & 1 for j in range(n_labels)) for s in subsets]

    def _soft_label(self, drawn: list, rng: np.random.Generator) -> list:
        n_labels = len(self.track.labels)
        if self.multilabel:
            chosen = (
                np.mean(np.array(drawn, dtype=float), axis=0)
                if drawn
                else rng.uniform(size=n_labels)
            )
            return as_plain(np.column_stack([1.0 - chosen, chosen]))
        if not drawn:
            return as_plain(rng.dirichlet(np.ones(n_labels)))
        return as_plain(np.bincount(drawn, minlength=n_labels) / len(drawn))
