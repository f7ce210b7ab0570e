"""Metrics: pure functions over numpy arrays with a registry of direction and range.

See ``base`` for the contract. Importing this package imports every module of it but those that
register no metric (``NO_METRICS``), in name order, so that a metric is registered by its own module alone
(``docs/architecture.md``: a new metric). Participants' code uses ``lewidi``, ``sts``, ``nli`` and
``chaosnli``: the same metrics on plain lists, imported when asked for.
"""

import importlib
import pkgutil

from .base import BOOTSTRAP, REGISTRY, WILCOXON, WILLIAMS, Metric, get  # noqa: F401 - the API

#: The modules that register no metric: the participants' library (plain lists in, the registered
#: metrics called) and the loader of an edition's own metrics, imported where a module is loaded.
NO_METRICS = ("chaosnli", "edition_module", "lewidi", "nli", "plain", "sts")

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name not in NO_METRICS):
    importlib.import_module(f"{__name__}.{_module}")

from .disagreement import PerAnnotator  # noqa: E402, F401
