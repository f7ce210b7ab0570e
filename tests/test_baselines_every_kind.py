"""Every baseline gives a valid prediction on every kind and scale the registry declares.

The tracks are not listed here: for each (kind, scale) of ``codajudge.kinds.REGISTRY`` the test takes
the first dataset of the small synthetic edition (``tests/small_edition.py``) whose items make gold
for such a track, so a new kind is covered as soon as it is registered (and a kind no dataset fits
fails, asking for one). Predictions are checked by the ingestion program's own value readers, the
scorer's parsers."""

import copy
import random

import pytest
from small_edition import _item

from codajudge import kinds
from codajudge.baselines import BASELINES
from codajudge.baselines.interface import prediction_lines, track_settings
from codajudge.errors import ConfigError
from codajudge.gold import build_gold
from codajudge.tracks import track_from_dict

#: The small edition's datasets and the labels their annotations use (None: scores, no labels).
DATASET_LABELS = {
    "sim": None,
    "nli": ["entailment", "neutral", "contradiction"],
    "sar": list("123456"),
    "var": ["contradiction", "entailment", "neutral"],
}
PUBLIC_FIELDS = ("id", "texts", "lang", "genre", "annotators")
KIND_SCALES = [(name, scale) for name, kind in kinds.REGISTRY.items() for scale in kind.scales]


def _split(dataset: str, split: str, n: int) -> list:
    rng = random.Random(f"{dataset}-{split}")
    return [_item(rng, dataset, split, i) for i in range(n)]


def _track_on(dataset: str, kind: str, scale):
    """A track of ``kind`` and ``scale`` on ``dataset`` with its training and test items, or None
    when the dataset's items do not make gold for such a track."""
    raw = {"id": f"{dataset}_{kind}", "kind": kind, "dataset": dataset}
    if kinds.REGISTRY[kind].has_labels:
        if DATASET_LABELS[dataset] is None:
            return None
        raw["labels"] = DATASET_LABELS[dataset]
    if scale is not None:
        raw["scale"] = scale
    try:
        track = track_from_dict(raw)
        train, test = _split(dataset, "train", 24), _split(dataset, "test", 14)
        for items in (train, test):
            gold = build_gold(track, items, f"{dataset} items")
            if not gold.scored.any():
                return None
    except ConfigError:
        return None
    return track, train, test


def _fitting_track(kind: str, scale):
    for dataset in DATASET_LABELS:
        found = _track_on(dataset, kind, scale)
        if found is not None:
            return found
    pytest.fail(f"no dataset of tests/small_edition.py fits kind {kind} scale {scale}: add one")


@pytest.mark.parametrize("baseline", sorted(BASELINES))
@pytest.mark.parametrize("kind, scale", KIND_SCALES)
def test_every_baseline_predicts_valid_values_for_every_registered_kind(baseline, kind, scale):
    track, train, test = _fitting_track(kind, scale)
    public = [{key: item[key] for key in PUBLIC_FIELDS if key in item} for item in test]
    given = copy.deepcopy((train, public))
    model = BASELINES[baseline](track_settings(track, seed=3))
    model.fit(train)
    predictions = model.predict(public)
    # the child gives a built-in baseline the items themselves, not a copy: it changes nothing
    assert (train, public) == given
    lines = prediction_lines(track, public, predictions, f"{track.id}.tsv")
    assert [line.split("\t")[0] for line in lines] == [item["id"] for item in test]
    again = BASELINES[baseline](track_settings(track, seed=3)).fit(train).predict(public)
    assert prediction_lines(track, public, again, f"{track.id}.tsv") == lines
