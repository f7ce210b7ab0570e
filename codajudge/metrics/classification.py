"""Categorical inference: accuracy and macro-F1 (higher is better, range [0, 1]).

Gold and predictions are label indices (ints); items without a gold majority are removed by the
scoring layer before these functions see them.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from .base import HIGHER, ONE_HOT, Metric, mean_from_sums, register


def accuracy_stats(gold, pred):
    """Per item: 1.0 if the predicted label is the gold label, else 0.0."""
    return (np.asarray(gold) == np.asarray(pred)).astype(float)[:, None]


def f1_stats(gold, pred):
    """Per item: a one-hot row over the K*K confusion matrix cells (gold * K + pred)."""
    gold = np.asarray(gold, dtype=np.int64)
    pred = np.asarray(pred, dtype=np.int64)
    k = max(int(np.max(gold, initial=0)), int(np.max(pred, initial=0))) + 1
    stats = np.zeros((gold.size, k * k))
    stats[np.arange(gold.size), gold * k + pred] = 1.0
    return stats


def _confusion(sums) -> np.ndarray:
    """The summed one-hot rows of ``f1_stats`` as K x K confusion matrices (gold rows, predicted
    columns), over any leading axes (resamples, systems)."""
    sums = np.asarray(sums, dtype=float)
    k = int(round(np.sqrt(sums.shape[-1])))
    return sums.reshape(sums.shape[:-1] + (k, k))


def _macro_f1_from_sums(sums, n):
    confusion = _confusion(sums)
    tp = np.diagonal(confusion, axis1=-2, axis2=-1)
    gold_count = confusion.sum(axis=-1)
    pred_count = confusion.sum(axis=-2)
    present = (gold_count + pred_count) > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        f1 = np.where(present, 2 * tp / (gold_count + pred_count), 0.0)
        return f1.sum(axis=-1) / present.sum(axis=-1)


#: What every classification metric is: higher is better, in [0, 1], shown x 100.
_CLASSIFICATION = partial(
    Metric,
    direction=HIGHER,
    lower=0.0,
    upper=1.0,
    percent=True,
    applies_to=(("classification", None),),
)

register(
    _CLASSIFICATION(
        name="accuracy", title="Accuracy", item_stats=accuracy_stats, from_stats=mean_from_sums
    )
)
register(
    _CLASSIFICATION(
        name="macro_f1",
        title="Macro-F1",
        item_stats=f1_stats,
        from_stats=_macro_f1_from_sums,
        stats_form=ONE_HOT,
    )
)


def _balanced_accuracy_from_sums(sums, n):
    confusion = _confusion(sums)
    correct = np.diagonal(confusion, axis1=-2, axis2=-1)
    gold_count = confusion.sum(axis=-1)
    in_gold = gold_count > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        recall = np.where(in_gold, correct / gold_count, 0.0)
        return recall.sum(axis=-1) / in_gold.sum(axis=-1)


register(
    _CLASSIFICATION(
        name="balanced_accuracy",
        title="Balanced accuracy",
        short_title="Bal. acc.",
        item_stats=f1_stats,
        from_stats=_balanced_accuracy_from_sums,
        stats_form=ONE_HOT,
    )
)
register(
    _CLASSIFICATION(
        name="micro_f1", title="Micro-F1", item_stats=accuracy_stats, from_stats=mean_from_sums
    )
)
