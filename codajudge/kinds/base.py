"""What a track kind declares: the base class every kind module subclasses.

A kind is a strategy the layers above read: the config rules of its tracks here, and, in the
sections below, how its gold is built, how a submitted value is read and written, its pages' text,
what its baselines need and what the leak check looks for. Code outside ``codajudge.kinds`` never
compares a track's kind: it asks ``kinds.of(track)`` and calls what the kind supplies.
"""

from __future__ import annotations

import json
from typing import NamedTuple

import numpy as np

from ..metrics.base import REGISTRY

#: The scales of the disagreement kinds: one label per annotator, an ordered scale, or any number of
#: labels per annotator.
SCALES = ("categorical", "ordinal", "multilabel")

# --- generated pages, data and leak checks ---


def split_multilabel(annotation) -> list:
    """A multilabel annotation as the labels it lists, each as written, for the track's
    ``LabelSet`` to read (``codajudge.labels``: spaces around a part are its to ignore): a list as it
    is, a comma-separated string's non-empty parts, any other value alone."""
    if isinstance(annotation, str):
        return [part for part in annotation.split(",") if part.strip()]
    return annotation if isinstance(annotation, list) else [annotation]


class Kind:
    """One track kind. Subclasses set the class attributes and override the methods of their kind;
    every kind declares each method whose body here is only its docstring (``tests/test_kinds.py``)."""

    # --- track configuration (read by kinds.config) ---
    #: The name a config's ``kind`` gives (also the key of the registry).
    name: str = ""
    #: The scales a track of this kind may declare; ``(None,)`` for a kind without scales.
    scales: tuple[str | None, ...] = (None,)
    #: Whether the kind's tracks have labels (and so need at least two).
    has_labels: bool = False
    #: Whether the kind's tracks may declare a gold ``range`` (similarity's scale of scores).
    has_range: bool = False
    #: Whether the kind's tracks accept the SemEval one-value-per-line files unless told otherwise.
    positional_by_default: bool = False
    #: The metrics a track scores when its config has no ``metrics`` key, per scale, the first being
    #: the track's main metric. Registering a new metric must not change these (every edition
    #: without ``metrics`` would silently score differently). The other metrics a track may choose
    #: with ``metrics`` are those registered as applying to its kind and scale (``Metric.applies_to``).
    default_metrics: dict[str | None, tuple[str, ...]] = {}
    #: The annotator-alignment rules a track may declare (``annotator_alignment``: how a row with more
    #: entries than its item's annotators is scored), the default first, each with its paragraph
    #: for the Data and Evaluation pages (``templates/kinds/KIND_alignment_RULE.md``); none for a
    #: kind without per-annotator rows.
    alignments: tuple[str, ...] = ()

    @property
    def has_scale(self) -> bool:
        return None not in self.scales

    def applicable_metrics(self, scale: str | None) -> tuple[str, ...]:
        """Every metric a track of this kind and scale may choose, the defaults first."""
        applying = tuple(name for name, m in REGISTRY.items() if (self.name, scale) in m.applies_to)
        return tuple(dict.fromkeys(self.default_metrics.get(scale, ()) + applying))

    # --- gold and submitted values (gold, formats) ---
    #: The item fields gold is built from, each with its value when an item has none.
    gold_fields: dict[str, object] = {"annotators": [], "annotations": []}

    #: What one value of this kind is (``ValueType``): how a submission's value is read
    #: (``formats.submission``) and what a model predicts for one item (``baselines``); None only
    #: for the stand-in of an unknown kind (``tracks``), which is refused.
    value_type: ValueType | None = None
    #: The fix named when a file holds the values of many items on one line.
    one_line_fix: str = "write one line per item"

    def most_value_entries(self, track, row_length: int) -> int:
        """The most list entries and object members, at any depth, a valid JSON value of this kind
        holds (rows of at most ``row_length`` annotators); kinds whose values are no JSON hold none."""
        return 0

    # --- generated pages, data and leak checks (bundle) ---
    #: The kind's page texts are templates named after it (``bundle.prose.kind_text``):
    #: ``templates/kinds/KIND_format.md`` (its paragraph of the Data and formats page: what a
    #: submitted VALUE is, one list item starting with the kind's name in bold), and where they
    #: apply ``KIND_edge_cases.md`` (what its scoring does at its edges, on the Evaluation page),
    #: ``KIND_range.md``/``KIND_ranges.md`` (a kind with ``has_range``: the gold scale when its
    #: tracks have one range, ``$low``/``$high``, or several, ``$per_track``) and
    #: ``KIND_alignment_RULE.md`` per rule of ``alignments``.
    #:
    #: Values the kind's templates receive as fields (``$name``).
    page_fields: dict[str, str] = {}
    #: Whether the kind's public items list their annotators (``annotators``, in order): the
    #: disagreement kinds.
    lists_annotators: bool = False
    #: Whether the gold appears in a text as numbers (compared quantised) rather than label names.
    gold_is_numeric: bool = False
    #: Whether an item's gold depends on the order of its texts (NLI: premise, then hypothesis).
    #: Where it does not (similarity: STS is symmetric), a pair and its swap are one item to the
    #: repeat and leak checks (``bundle.leaks.text_key``).
    texts_ordered: bool = True

    def example_value(self, track) -> str:
        """A short example of a valid line of ``track``'s submission file (``ID<TAB>VALUE``), for
        hints and the participant pages."""

    def gold_in_text(self, gold, items: list[dict], index: int) -> tuple:
        """How the gold of scored item ``index`` of ``gold`` (a ``gold.GoldTrack`` built from
        ``items``) may appear in a public text: its values in order, numbers (unrounded, when
        ``gold_is_numeric``) or label names. The leak check looks for them."""

    def exact_hits(self, gold, values) -> np.ndarray:
        """Per scored item, whether ``values`` (a submission read for ``gold``'s track) equals the
        gold exactly (within float noise): a boolean array."""

    # --- baselines ---
    #: Whether a text pair's similarity in [0, 1] is itself a prediction of this kind (mapped by
    #: ``prediction_from_similarity``), so that a similarity baseline needs no training data.
    predicts_from_similarity: bool = False

    @property
    def predicts_per_annotator(self) -> bool:
        """Whether a prediction holds one label per annotator of the item (in the item's order)."""
        return self.value_type is ANNOTATOR_ROW

    def prediction_text(self, value) -> str:
        """The VALUE text of one prediction in a submission file: compact JSON unless the kind
        writes a bare scalar."""
        # numpy arrays and numbers as Python values
        return json.dumps(value, ensure_ascii=False, default=lambda array: array.tolist())

    def prediction_from_similarity(self, similarity: float):
        """The prediction for a text pair of ``similarity`` in [0, 1] (1 = same words), when
        ``predicts_from_similarity``."""
        raise TypeError(f"a {self.name} prediction is not a function of a similarity")

    def constant_prediction(self, track, gold, among: np.ndarray | None = None):
        """The one prediction that best fits the training gold ``gold`` (a ``gold.GoldTrack`` of
        ``track``) of the items marked by the boolean mask ``among`` (all items when None), for a
        kind that does not predict per annotator. ValueError when those items have no gold."""
        raise TypeError(
            f"a {self.name} prediction differs between annotators, it is not a constant"
        )

    def random_prediction(self, track, n_annotators: int, rng: np.random.Generator):
        """A prediction drawn uniformly at random with ``rng``, for an item of ``n_annotators``
        annotators on ``track`` (its ``labels`` and ``scale``)."""

    # --- results report (report) ---
    #: The figure the results page draws for a track of this kind, by the name the report knows it
    #: (``report.FIGURES``): "scatter", "confusion", "mean_distribution" or "annotator_errors".
    report_figure: str = ""
    #: Per scale, what the error of one annotator's label is (kinds with each annotator's label).
    row_error_units: dict[str | None, str] = {}

    def item_error_unit(self, track) -> str:
        """What an item's error on the results page and in detailed_results.csv is measured in."""

    def item_errors(self, track, gold, predicted):
        """Each item's error, an ``(n_items,)`` float array (higher is worse; NaN where the item has
        no gold), from the arrays the metrics compare, of every item of the track."""

    def item_texts(self, track, values, items) -> list:
        """The values (gold or predicted, as the metrics see them) of the items at ``items`` (a
        sequence of item indices), each as the page and detailed_results.csv print it ("" where an
        item has no value)."""

    def __repr__(self) -> str:
        return f"<kind {self.name}>"


# --- gold and submitted values ---


class ValueType(NamedTuple):
    """A kind of value, declared once by each kind (``Kind.value_type``): its ``name`` and whether
    one value is itself a list (``is_row``: a one-line file of a JSON list is then the values of
    many items only when each entry is a list). Its reading rule is
    ``formats.submission.READERS[value_type]``; gold's arrays follow it. What a model predicts for
    one item of each is in the ``codajudge.baselines`` docstring."""

    name: str
    is_row: bool = False


SCORE = ValueType("score")
LABEL = ValueType("label")
#: A probability per label (multilabel: a pair per label).
DISTRIBUTION = ValueType("distribution", is_row=True)
#: One label (multilabel: a set of labels) per annotator of the item.
ANNOTATOR_ROW = ValueType("annotator row", is_row=True)


#: The graded-similarity scale of every STS edition (0 = unrelated, 5 = equivalent).
SIMILARITY_RANGE = (0.0, 5.0)


def selected(track, gold, among: np.ndarray | None, gold_name: str) -> np.ndarray:
    """The items of ``track``'s GoldTrack ``gold`` that have gold and are marked by ``among`` (all
    when None); a ValueError naming the gold (``gold_name``) when there are none."""
    scored = gold.scored if among is None else gold.scored & among
    if not scored.any():
        raise ValueError(f"track '{track.id}': no training item has {gold_name}")
    return scored


def annotator_label(track, key):
    """The output form of one annotator's label key (a label index, or a tuple of 0/1 choices over
    the labels on multilabel tracks): a label string, or the list of chosen labels."""
    if track.scale == "multilabel":
        return [label for label, chosen in zip(track.labels, key) if chosen]
    return track.labels[int(key)]


def draw_annotator_labels(track, n_annotators: int, rng: np.random.Generator) -> list:
    """Uniformly drawn label keys for ``n_annotators`` annotators: label indices, or on multilabel
    tracks 0/1 tuples of a uniformly drawn non-empty set of labels."""
    n_labels = len(track.labels)
    if track.scale != "multilabel":
        return [int(k) for k in rng.integers(n_labels, size=n_annotators)]
    # A uniform non-empty subset: a uniform integer in [1, 2^L), read as bits in label order.
    subsets = rng.integers(1, 2**n_labels, size=n_annotators)
    return [tuple((int(s) >> j) & 1 for j in range(n_labels)) for s in subsets]
