"""What a track kind declares: the base class every kind module subclasses.

A kind is a strategy the layers above read: the config rules of its tracks here, and, in the
sections below, how its gold is built, how a submitted value is read and written, its pages' text,
what its baselines need and what the leak check looks for. Code outside ``judgekit.kinds`` never
compares a track's kind: it asks ``kinds.of(track)`` and calls what the kind supplies.
"""

from __future__ import annotations

from typing import Dict, Optional, Tuple

#: The scales of the disagreement kinds: one label per annotator, an ordered scale, or any number of
#: labels per annotator.
SCALES = ("categorical", "ordinal", "multilabel")


class Kind:
    """One track kind. Subclasses set the class attributes and override the methods of their kind."""

    # --- track configuration (read by kinds.config) ---
    #: The name a config's ``kind`` gives (also the key of the registry).
    name: str = ""
    #: The scales a track of this kind may declare; ``(None,)`` for a kind without scales.
    scales: Tuple[Optional[str], ...] = (None,)
    #: Whether the kind's tracks have labels (and so need at least two).
    has_labels: bool = False
    #: Whether the kind's tracks may declare a gold ``range`` (similarity's scale of scores).
    has_range: bool = False
    #: Whether the kind's tracks accept the SemEval one-value-per-line files unless told otherwise.
    positional_by_default: bool = False
    #: The metrics a track scores when its config has no ``metrics`` key, per scale, the first being
    #: the track's main metric. Registering a new metric must not change these (every edition
    #: without ``metrics`` would silently score differently): add it to ``more_metrics``.
    default_metrics: Dict[Optional[str], Tuple[str, ...]] = {}
    #: Metrics a track of that scale may choose with ``metrics`` besides the defaults.
    more_metrics: Dict[Optional[str], Tuple[str, ...]] = {}

    @property
    def has_scale(self) -> bool:
        return None not in self.scales

    def applicable_metrics(self, scale: Optional[str]) -> Tuple[str, ...]:
        """Every metric a track of this kind and scale may choose, the defaults first."""
        return self.default_metrics.get(scale, ()) + self.more_metrics.get(scale, ())

    # --- gold and submitted values (gold, formats) ---

    # --- generated pages, data and leak checks (bundle) ---

    # --- baselines ---

    # --- results report (report) ---
    #: The figure the results page draws for a track of this kind, by the name the report knows it
    #: (``report.FIGURES``): "scatter", "confusion", "mean_distribution" or "annotator_errors".
    report_figure: str = ""
    #: Per scale, what the error of one annotator's label is (kinds with each annotator's label).
    row_error_units: Dict[Optional[str], str] = {}

    def item_error_unit(self, track) -> str:
        """What an item's error on the results page and in detailed_results.csv is measured in."""
        return "error"

    def item_errors(self, track, gold, predicted):
        """Each item's error, an ``(n_items,)`` float array (higher is worse; NaN where the item has
        no gold), from the arrays the metrics compare, of every item of the track."""
        raise NotImplementedError(f"kind {self.name} declares no item error")

    def item_texts(self, track, values, items) -> list:
        """The values (gold or predicted, as the metrics see them) of the items at ``items`` (a
        sequence of item indices), each as the page and detailed_results.csv print it ("" where an
        item has no value)."""
        raise NotImplementedError(f"kind {self.name} declares no item texts")

    def __repr__(self) -> str:
        return f"<kind {self.name}>"
