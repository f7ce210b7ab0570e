"""Metrics: pure functions over numpy arrays with a registry of direction and range.

See ``base`` for the contract; importing this package registers every metric.
"""

from .base import HIGHER, LOWER, REGISTRY, Metric, MetricValue, get, round5  # noqa: F401
from . import classification, correlation, disagreement  # noqa: F401  (registration)
from .disagreement import PerAnnotator  # noqa: F401
