"""Categorical inference: accuracy and macro-F1 (higher is better, range [0, 1]).

Gold and predictions are label indices (ints); items without a gold majority are removed by the
scoring layer before these functions see them.
"""

from functools import partial

import numpy as np

from .base import HIGHER, ONE_HOT, registered


def accuracy_stats(gold, pred):
    """Per item: 1.0 if the predicted label is the gold label, else 0.0."""
    return (np.asarray(gold) == np.asarray(pred)).astype(float)[:, None]


def f1_stats(gold, pred):
    """Per item: a one-hot row over the K*K confusion matrix cells (gold * K + pred)."""
    gold, pred = (np.asarray(labels, dtype=np.int64) for labels in (gold, pred))
    k = max(int(np.max(gold, initial=0)), int(np.max(pred, initial=0))) + 1
    stats = np.zeros((gold.size, k * k))
    stats[np.arange(gold.size), gold * k + pred] = 1.0
    return stats


def _mean_over_labels(sums, n, f1: bool):
    """From the summed one-hot rows of ``f1_stats`` (over any leading axes: resamples, systems),
    the mean over labels of each label's recall (right predictions / items of that gold label), or
    with ``f1`` its F1 (2 x right predictions / (items of that gold label + those predicted as it)),
    over the labels whose denominator is not 0."""
    sums = np.asarray(sums, dtype=float)
    k = int(round(np.sqrt(sums.shape[-1])))
    confusion = sums.reshape(sums.shape[:-1] + (k, k))  # gold rows, predicted columns
    numerator = np.diagonal(confusion, axis1=-2, axis2=-1)  # right predictions
    denominator = confusion.sum(axis=-1)  # items of each gold label
    if f1:
        numerator, denominator = 2 * numerator, denominator + confusion.sum(axis=-2)
    counted = denominator > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(counted, numerator / denominator, 0.0)
        return ratio.sum(axis=-1) / counted.sum(axis=-1)


#: What every classification metric is: higher is better, in [0, 1], shown x 100.
_CLASSIFICATION = partial(
    registered,
    direction=HIGHER,
    lower=0.0,
    upper=1.0,
    percent=True,
    applies_to=(("classification", None),),
)

#: The metrics of the confusion matrix: one-hot rows over its cells, summed.
_FROM_CONFUSION = partial(_CLASSIFICATION, item_stats=f1_stats, stats_form=ONE_HOT)

_CLASSIFICATION(name="accuracy", title="Accuracy", item_stats=accuracy_stats)
_FROM_CONFUSION(name="macro_f1", title="Macro-F1", from_stats=partial(_mean_over_labels, f1=True))
_FROM_CONFUSION(
    name="balanced_accuracy",
    title="Balanced accuracy",
    short_title="Bal. acc.",
    from_stats=partial(_mean_over_labels, f1=False),
)
_CLASSIFICATION(name="micro_f1", title="Micro-F1", item_stats=accuracy_stats)
