"""What the three baselines share: reading the track, training gold, label bookkeeping.

Training targets always come from ``codajudge.gold.build_gold`` on the training items, so a baseline
learns from exactly the soft labels and per-annotator labels the scorer compares against.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from functools import partial

import numpy as np

from .. import kinds
from ..formats.annotators import annotator_names
from ..gold import GoldTrack, build_gold
from ..kinds.base import annotator_label
from ..stats.bootstrap import DEFAULT_SEED
from ..tracks import Track, track_from_dict


class BaselineModel:
    """Base of the built-in models; follows the code-submission interface (see the package docstring)."""

    needs_training = False
    #: the texts an item needs for this baseline to tell it from another (0: none needed), and the
    #: baseline it cannot differ from on a dataset whose items have fewer
    texts_compared = 0
    alike_without_texts = ""

    def __init__(self, track: dict):
        settings = dict(track)
        self.seed = int(settings.pop("seed", DEFAULT_SEED))
        self.track: Track = track_from_dict(settings, where="track")
        #: The track's kind, which says what a prediction is (see ``codajudge.kinds.base``).
        self.kind: kinds.Kind = kinds.of(self.track)

    def training_gold(self, train_items: list[dict]) -> GoldTrack:
        """Gold of the training split, refusing an empty one when this model needs training data."""
        if self.needs_training and not train_items:
            raise ValueError(
                f"track '{self.track.id}': the training split is empty, "
                f"and the {type(self).__name__} baseline learns from it"
            )
        return build_gold(self.track, train_items, f"training split of track '{self.track.id}'")

    def fit(self, train_items: list[dict]) -> BaselineModel:
        return self

    def fit_bins(self, gold: GoldTrack, bins: np.ndarray, n_bins: int) -> None:
        """Keep in ``per_bin``, per bin of the training items (``bins``: each item's bin), the kind's
        constant prediction for the bin's items (the whole split's for a bin without gold), or, when
        the kind predicts per annotator, each annotator's majority in the bin, else over the whole
        split, else the split's most frequent label (``default``; see ``annotator_majority``)."""
        if self.kind.predicts_per_annotator:
            rows = item_annotator_labels(gold)
            overall, self.default = annotator_majority([(name, key) for _, name, key in rows])
            self.per_bin = [
                overall
                | annotator_majority([(name, key) for i, name, key in rows if bins[i] == b])[0]
                for b in range(n_bins)
            ]
            return
        constant = partial(self.kind.constant_prediction, self.track, gold)
        overall = constant()  # a ValueError when no training item has gold
        masks = [bins == b for b in range(n_bins)]  # per bin, its items
        self.per_bin = [constant(mask) if (gold.scored & mask).any() else overall for mask in masks]

    def predict_by_bin(self, items: list[dict], bins: Sequence[int]) -> list:
        """The predictions of ``items`` from what ``fit`` kept per bin of items (``per_bin``: the
        kind's constant prediction, or each annotator's majority when the kind predicts per
        annotator), ``bins`` being each item's bin."""
        if not self.kind.predicts_per_annotator:
            return [self.per_bin[b] for b in bins]
        return [
            [
                annotator_label(self.track, self.per_bin[b].get(a, self.default))
                for a in item_annotators(item)
            ]
            for item, b in zip(items, bins)
        ]


def item_annotator_labels(gold: GoldTrack) -> list[tuple[int, str, Hashable]]:
    """Every annotation of the training gold as (item index, annotator, label key), in training order.

    The key is a label index, or a tuple of 0/1 choices over the labels on multilabel tracks. (Not
    ``formats.perspectivist.annotator_entries``, which reads a submission's perspectivist rows.)
    """
    rows = [(i, name) for i, names in enumerate(gold.annotators) for name in names]
    # one value per annotation, in the same order
    keys = [tuple(map(int, value)) if np.ndim(value) else int(value) for value in gold.gold.values]
    return [(i, name, key) for (i, name), key in zip(rows, keys)]


def annotator_majority(rows: list[tuple[str, Hashable]]) -> tuple[dict[str, Hashable], Hashable]:
    """Each annotator's most frequent label key in ``rows`` ((annotator, key) pairs; ties: the first
    met in that annotator's history), and the most frequent key of all ``rows`` (ties: the first
    met; None without rows), for an annotator not in ``rows``."""
    per_annotator: dict[str, Counter] = {}
    for name, key in rows:
        per_annotator.setdefault(name, Counter())[key] += 1
    # most_common keeps the first met of equal counts (a Counter is ordered, max takes the first)
    majority = {name: counts.most_common(1)[0][0] for name, counts in per_annotator.items()}
    overall = Counter(key for _, key in rows).most_common(1)
    return majority, overall[0][0] if overall else None


def item_annotators(item: dict) -> list[str]:
    """An item's annotators, in its order, as the names a per-annotator prediction follows: the
    names ``formats.annotators.annotator_names`` gives, as gold's and the scorer's."""
    return annotator_names(item.get("annotators"))
