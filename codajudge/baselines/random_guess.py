"""The random baseline: seeded guesses that show what chance looks like on each track. Each kind
draws its own (``Kind.random_prediction``):

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

import numpy as np

from .base import BaselineModel, item_annotators


class Random(BaselineModel):
    """Uniform random predictions; ``fit`` learns nothing."""

    def predict(self, items: list[dict]) -> list:
        rng = np.random.default_rng(self.seed)
        return [
            self.kind.random_prediction(self.track, len(item_annotators(item)), rng)
            for item in items
        ]
