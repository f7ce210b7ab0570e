"""The LeWiDi 2025 metrics as straightforward per-item Python loops, as the official code computes them.

Each function takes plain Python lists (one entry per item, built before the timing) and returns the
score, rounding where the official definitions round (``docs/metrics.md`` sections 3 and 4). The loops
are tight on purpose (no per-item numpy call, no conversions), and the Wasserstein distance is the
cumulative-sum form rather than an optimal-transport solver: the loop ratio the benchmark reports is,
if anything, an underestimate.
"""

from typing import Callable

import numpy as np


def amd(targets: list[list[float]], predictions: list[list[float]]) -> float:
    distances = []
    for target, prediction in zip(targets, predictions):
        distance = 0.0
        for t, p in zip(target, prediction):
            distance += abs(p - t)
        distances.append(round(distance, 5))
    return round(sum(distances) / len(distances), 5)


def awd(targets: list[list[float]], predictions: list[list[float]]) -> float:
    distances = []
    for target, prediction in zip(targets, predictions):
        distance, cum_t, cum_p = 0.0, 0.0, 0.0
        for t, p in zip(target, prediction):
            cum_t += t
            cum_p += p
            distance += abs(cum_t - cum_p)
        distances.append(distance)
    return round(sum(distances) / len(distances), 5)


def mamd(targets: list[list[list[float]]], predictions: list[list[list[float]]]) -> float:
    scores = []
    for target, prediction in zip(targets, predictions):
        per_label = []
        for (t0, t1), (p0, p1) in zip(target, prediction):
            per_label.append(round(abs(p0 - t0) + abs(p1 - t1), 5))
        scores.append(round(sum(per_label) / len(per_label), 5))
    return round(sum(scores) / len(scores), 5)


def error_rate(targets: list[list[int]], predictions: list[list[int]]) -> float:
    errors = []
    for target, prediction in zip(targets, predictions):
        wrong = 0
        for t, p in zip(target, prediction):
            if t != p:
                wrong += 1
        errors.append(round(wrong / len(target), 5))
    return sum(errors) / len(errors)


def anad(targets: list[list[int]], predictions: list[list[int]], n_labels: int) -> float:
    distances = []
    for target, prediction in zip(targets, predictions):
        total = 0.0
        for t, p in zip(target, prediction):
            total += abs(t - p) / n_labels
        distances.append(total / len(target))
    return sum(distances) / len(distances)


def mer(targets: list[list[list[int]]], predictions: list[list[list[int]]]) -> float:
    """Per item, ``targets[i][k]`` is annotator k's 0/1 choice of every label."""
    errors = []
    for target, prediction in zip(targets, predictions):
        n_labels = len(target[0])
        per_label = []
        for j in range(n_labels):
            wrong = 0
            for t, p in zip(target, prediction):
                if t[j] != p[j]:
                    wrong += 1
            per_label.append(round(wrong / len(target), 5))
        errors.append(sum(per_label) / n_labels)
    return sum(errors) / len(errors)


def per_item_lists(per_annotator) -> list:
    """A ``metrics.PerAnnotator`` as one Python list of labels (or 0/1 rows) per item."""
    values = np.asarray(per_annotator.values)
    as_int = values.astype(np.int64).tolist()
    starts = np.searchsorted(per_annotator.item, np.arange(per_annotator.n_items + 1))
    return [as_int[a:b] for a, b in zip(starts[:-1], starts[1:])]


def loop_metric(name: str) -> Callable:
    """The loop implementation of a LeWiDi metric, as ``f(gold, pred)`` over kit arrays turned into lists."""
    table: dict[str, Callable] = {
        "amd": amd,
        "awd": awd,
        "mamd": mamd,
        "error_rate": error_rate,
        "mer": mer,
    }
    return table[name] if name in table else anad


def as_lists(name: str, gold, pred):
    """Gold and prediction as the loops take them (lists per item); not part of the timed work."""
    if name in ("amd", "awd", "mamd"):
        return (np.asarray(gold).tolist(), np.asarray(pred).tolist()), {}
    extra = {"n_labels": gold.n_labels} if name == "anad" else {}
    return (per_item_lists(gold), per_item_lists(pred)), extra


LEWIDI_METRICS = ("amd", "awd", "mamd", "error_rate", "anad", "mer")
