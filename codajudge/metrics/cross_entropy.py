"""LeWiDi 2021/2023 (SemEval-2023 Task 11): cross-entropy between the human and the predicted label
distributions, as the organisers' starting kit (``snippets.py``) computes it::

    def cross_entropy(targets, predictions, epsilon=1e-12):
        predictions = np.clip(predictions, epsilon, 1.0 - epsilon)
        N = predictions.shape[0]
        ce = -np.sum(targets * np.log(predictions + 1e-9)) / N
        return ce

Natural log, summed over classes, the mean over items; lower is better. Gold and predictions are
arrays ``(N, K)`` of probabilities in the track's label order. The 1e-9 inside the log means that a
perfect prediction scores the gold's entropy plus at most 1e-9 per class (and a one-hot gold
predicted exactly scores about -1e-9, the range's lower end); a class the humans chose and the
model gave 0 costs its share x -ln(1e-12 + 1e-9), about 20.72, the range's upper end.
"""

import math

import numpy as np

from .base import LOWER, registered

#: The organisers' clipping of predictions and the constant added inside the log.
CLIP = 1e-12
LOG_OFFSET = 1e-9


def cross_entropy_stats(gold, pred):
    """Per item: -sum_k gold_k ln(clip(pred_k, 1e-12, 1 - 1e-12) + 1e-9), in nats."""
    clipped = np.clip(np.asarray(pred, dtype=float), CLIP, 1.0 - CLIP)
    return -np.sum(np.asarray(gold, dtype=float) * np.log(clipped + LOG_OFFSET), axis=1)[:, None]


def gold_entropy(gold) -> float:
    """The mean over items of the gold's entropy -sum_k g_k ln g_k (nats; 0 ln 0 = 0): what the gold
    submitted as a prediction scores, up to the 1e-9 inside the log. scipy is imported here: only
    the builder's gold self-check asks."""
    from scipy.stats import entropy

    return float(entropy(np.asarray(gold, dtype=float), axis=1).mean()) if len(gold) else 0.0


registered(
    name="cross_entropy",
    title="Cross-entropy",
    direction=LOWER,
    # one item's value, in nats, when the whole gold mass sits on the one class (lowest, a little
    # below 0) or on a class the prediction gave 0 (highest)
    lower=-math.log((1.0 - CLIP) + LOG_OFFSET),
    upper=-math.log(CLIP + LOG_OFFSET),
    item_stats=cross_entropy_stats,
    on_gold=gold_entropy,
    # the 1e-9 in the log adds g ln(1 + 1e-9 / g) <= 1e-9 per class; 11 labels at most here
    on_gold_tolerance=2e-8,
    applies_to=(("soft_label", "categorical"), ("soft_label", "ordinal")),
)
