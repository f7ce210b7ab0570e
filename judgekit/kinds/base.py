"""What a track kind declares: the base class every kind module subclasses.

A kind is a strategy the layers above read: the config rules of its tracks here, and, in the
sections below, how its gold is built, how a submitted value is read and written, its pages' text,
what its baselines need and what the leak check looks for. Code outside ``judgekit.kinds`` never
compares a track's kind: it asks ``kinds.of(track)`` and calls what the kind supplies.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import numpy as np

#: The scales of the disagreement kinds: one label per annotator, an ordered scale, or any number of
#: labels per annotator.
SCALES = ("categorical", "ordinal", "multilabel")

# --- generated pages, data and leak checks ---


def split_multilabel(annotation) -> List[str]:
    """A multilabel annotation as a list of labels: a list, or a comma-separated string."""
    if isinstance(annotation, list):
        return [str(a).strip() for a in annotation]
    return [part.strip() for part in str(annotation).split(",") if part.strip()]


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
    #: The kind's paragraph of the Data and formats page: what a submitted VALUE is (Markdown, one
    #: list item starting with the kind's name in bold).
    format_text: str = ""
    #: Whether the kind's public items list their annotators (``annotators``, in order): the
    #: disagreement kinds.
    lists_annotators: bool = False
    #: What the kind's scoring does at its edges, said on the Evaluation page ("" for nothing).
    edge_case_text: str = ""
    #: For a kind with ``has_range``: the Evaluation page's sentence on the gold scale when every
    #: track of the kind has one range (``{low}``, ``{high}``: its ends, as numbers) ...
    range_text: str = ""
    #: ... and when they differ (``{per_track}``: "title low-high" per track, comma-separated).
    ranges_text: str = ""
    #: Whether the gold appears in a text as numbers (compared quantised) rather than label names.
    gold_is_numeric: bool = False

    def example_value(self, track) -> str:
        """A short example of a valid line of ``track``'s submission file (``ID<TAB>VALUE``), for
        hints and the participant pages."""
        raise NotImplementedError(f"kind {self.name} declares no example value")

    def gold_in_text(self, gold, items: List[dict], index: int) -> Tuple:
        """How the gold of scored item ``index`` of ``gold`` (a ``gold.GoldTrack`` built from
        ``items``) may appear in a public text: its values in order, numbers (unrounded, when
        ``gold_is_numeric``) or label names. The leak check looks for them."""
        raise NotImplementedError(f"kind {self.name} declares no gold in text")

    def exact_hits(self, gold, values) -> np.ndarray:
        """Per scored item, whether ``values`` (a submission read for ``gold``'s track) equals the
        gold exactly (within float noise): a boolean array."""
        raise NotImplementedError(f"kind {self.name} declares no exact comparison")

    # --- baselines ---

    # --- results report (report) ---

    def __repr__(self) -> str:
        return f"<kind {self.name}>"
