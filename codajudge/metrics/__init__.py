"""Metrics: pure functions over numpy arrays with a registry of direction and range.

See ``base`` for the contract; importing this package registers every metric. Participants' code
uses ``lewidi``, ``sts``, ``nli`` and ``chaosnli``: the same metrics on plain lists.
"""

from .base import (
    BOOTSTRAP,
    HIGHER,
    LOWER,
    MEAN,
    MOMENTS,
    ONE_HOT,
    REGISTRY,
    WILCOXON,
    WILLIAMS,
    Metric,
    MetricValue,
    get,
    round5,
)
from . import classification, correlation, cross_entropy, disagreement, divergence  # noqa: F401
from .disagreement import PerAnnotator

__all__ = [
    "BOOTSTRAP",
    "HIGHER",
    "LOWER",
    "MEAN",
    "MOMENTS",
    "ONE_HOT",
    "REGISTRY",
    "WILCOXON",
    "WILLIAMS",
    "Metric",
    "MetricValue",
    "PerAnnotator",
    "get",
    "round5",
]
