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

    #: How a submitted value is read (``formats.submission``): "number" (one score), "label" (one
    #: label), "distribution" (one probability per label) or "per_annotator" (a row of each
    #: annotator's labels, aligned as ``PerAnnotator``).
    submitted_value: str = "label"
    #: Whether a submitted value is itself a list (a row), so that a one-line file of a JSON list is
    #: the rows of many items only when each entry is a list.
    value_is_row: bool = False
    #: The fix named when a file holds the values of many items on one line.
    one_line_fix: str = "write one line per item"

    # --- generated pages, data and leak checks (bundle) ---

    # --- baselines ---

    # --- results report (report) ---

    def __repr__(self) -> str:
        return f"<kind {self.name}>"
