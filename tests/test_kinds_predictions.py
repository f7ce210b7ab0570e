"""What each kind declares for the baselines and the prediction files: the value type of a prediction,
how it is written, and the kind's own constant, random and similarity-based predictions. Expected
values are worked out by hand."""

from types import SimpleNamespace

import numpy as np
import pytest

from codajudge import kinds
from codajudge.kinds.base import (
    ANNOTATOR_ROW,
    DISTRIBUTION,
    LABEL,
    SCORE,
    ValueType,
)


def _kind_with_shape(value_type):
    return next(k for k in kinds.REGISTRY.values() if k.value_type is value_type)


@pytest.mark.parametrize("kind", list(kinds.REGISTRY.values()), ids=str)
def test_every_registered_kind_declares_a_value_type(kind):
    assert isinstance(kind.value_type, ValueType)
    assert kind.predicts_per_annotator == (kind.value_type is ANNOTATOR_ROW)


@pytest.mark.parametrize("kind", list(kinds.REGISTRY.values()), ids=str)
def test_only_a_kind_predicting_from_similarity_maps_a_similarity(kind):
    if kind.predicts_from_similarity:
        # 0.5 of the 0-5 scale is 2.5; 0 and 1 are its ends.
        assert kind.prediction_from_similarity(0.5) == 2.5
        assert kind.prediction_from_similarity(np.float64(1.0)) == 5.0
    else:
        with pytest.raises(TypeError):
            kind.prediction_from_similarity(0.5)


def test_prediction_text_is_a_bare_number_a_bare_label_or_compact_json():
    score = _kind_with_shape(SCORE)
    label = _kind_with_shape(LABEL)
    distribution = _kind_with_shape(DISTRIBUTION)
    assert score.prediction_text(np.float32(0.5)) == "0.5"
    assert score.prediction_text(3) == "3.0"
    assert label.prediction_text("neutral") == "neutral"
    assert distribution.prediction_text(np.array([0.25, 0.75])) == "[0.25, 0.75]"
    assert distribution.prediction_text(["né", 1]) == '["né", 1]'


def test_per_annotator_kinds_have_no_constant_prediction():
    per_annotator = _kind_with_shape(ANNOTATOR_ROW)
    with pytest.raises(TypeError):
        per_annotator.constant_prediction(None, None)


def test_constant_predictions_of_a_masked_training_gold():
    track = SimpleNamespace(id="t", labels=["a", "b", "c"], scale="categorical")
    scored = np.array([True, True, True, False])
    # Labels 2, 1, 1 on the scored items: 1 ("b") overall; among the first and last item only 2.
    labels = SimpleNamespace(scored=scored, gold=np.array([2, 1, 1, 0]))
    label_kind = _kind_with_shape(LABEL)
    assert label_kind.constant_prediction(track, labels) == "b"
    assert label_kind.constant_prediction(track, labels, np.array([1, 0, 0, 1], bool)) == "c"
    with pytest.raises(ValueError, match="track 't': no training item has a majority label"):
        label_kind.constant_prediction(track, labels, np.array([0, 0, 0, 1], bool))
    soft = SimpleNamespace(
        scored=scored, gold=np.array([[1, 0, 0], [0, 1, 0], [0, 0.5, 0.5], [0] * 3])
    )
    distribution_kind = _kind_with_shape(DISTRIBUTION)
    # Mean of the three scored rows: [1/3, 1.5/3, 0.5/3].
    assert distribution_kind.constant_prediction(track, soft) == pytest.approx([1 / 3, 0.5, 1 / 6])
    assert distribution_kind.constant_prediction(track, soft, np.array([1, 1, 0, 0], bool)) == [
        0.5,
        0.5,
        0.0,
    ]
    scores = SimpleNamespace(scored=np.ones(3, bool), gold=np.array([1.0, 2.0, 6.0]))
    assert _kind_with_shape(SCORE).constant_prediction(track, scores) == 3.0
    with pytest.raises(ValueError, match="track 't': no training item has a score"):
        _kind_with_shape(SCORE).constant_prediction(track, scores, np.zeros(3, bool))


@pytest.mark.parametrize("kind", list(kinds.REGISTRY.values()), ids=str)
@pytest.mark.parametrize("scale", ["categorical", "multilabel"])
def test_random_predictions_follow_the_seed(kind, scale):
    track = SimpleNamespace(id="t", labels=["a", "b", "c"], scale=scale)
    first = [kind.random_prediction(track, 3, np.random.default_rng(5)) for _ in range(2)]
    assert first[0] == first[1]
    rng = np.random.default_rng(6)
    draws = {repr(kind.random_prediction(track, 3, rng)) for _ in range(20)}
    assert len(draws) > 1  # one generator gives different values in turn
