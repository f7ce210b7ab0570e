"""The ChaosNLI metrics, jsd and kl, against hand-worked values, scipy and ChaosNLI's official
evaluation (``tests/chaosnli_official.py``, a port of its ``src/evaluation/tools.py``)."""

import math
import warnings

import numpy as np
import pytest
from scipy.spatial import distance
from scipy.stats import entropy

import chaosnli_official as official
from codajudge.metrics import get
from codajudge.metrics.divergence import FLOOR, normalize_dist

JSD, KL = get("jsd"), get("kl")


def jsd(gold, pred):
    return JSD.score(np.array(gold, dtype=float), np.array(pred, dtype=float)).value


def kl(gold, pred):
    return KL.score(np.array(gold, dtype=float), np.array(pred, dtype=float)).value


def test_hand_worked_values():
    # m = [0.75, 0.25, 0]: KL(p||m) = 0.5 ln(2/3) + 0.5 ln 2 = 0.143841, KL(q||m) = ln(4/3) = 0.287682;
    # JSD = sqrt((0.143841 + 0.287682) / 2) = sqrt(0.215762) = 0.464502
    assert jsd([[0.5, 0.5, 0.0]], [[1.0, 0.0, 0.0]]) == pytest.approx(0.4645014, abs=1e-7)
    # KL(h || m) = 0.5 ln(0.5 / 0.25) + 0.5 ln(0.5 / 0.75) = 0.5 (0.693147 - 0.405465) = 0.143841
    assert kl([[0.5, 0.5, 0.0]], [[0.25, 0.75, 0.0]]) == pytest.approx(0.1438410, abs=1e-7)
    # the mean over items, each item's value once
    assert jsd([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5]], [[1.0, 0.0, 0.0], [0.2, 0.3, 0.5]]) == (
        pytest.approx(0.4645014 / 2, abs=1e-7)
    )


def test_the_range_is_zero_to_sqrt_ln2_and_zero_to_minus_ln_of_the_floor():
    assert JSD.bounds(3) == (0.0, math.sqrt(math.log(2)))
    assert KL.bounds(3) == (0.0, -math.log(1e-15))
    # disjoint supports: the human's class got 0, raised to 1e-15 -> KL = 15 ln 10 = 34.54
    assert kl([[1.0, 0.0, 0.0]], [[0.0, 1.0, 0.0]]) == pytest.approx(15 * math.log(10), abs=1e-9)
    assert jsd([[1.0, 0.0, 0.0]], [[0.0, 0.0, 1.0]]) == pytest.approx(math.sqrt(math.log(2)))
    assert JSD.direction == KL.direction == "lower"


def test_the_floor_raises_tiny_probabilities_to_1e_15_and_renormalises():
    rows = normalize_dist([[1.0, 1e-20, 0.0], [0.5, 0.5, 2e-15]])
    assert rows[0].tolist() == pytest.approx([1 / (1 + 2 * FLOOR), FLOOR, FLOOR], rel=1e-12)
    assert rows[1, 2] == pytest.approx(2e-15 / (1 + 2e-15))  # 2e-15 is above the floor: kept
    # so a model that gives a human-chosen class 1e-20 costs what 1e-15 costs
    assert kl([[0.5, 0.5, 0.0]], [[1.0, 1e-20, 0.0]]) == kl([[0.5, 0.5, 0.0]], [[1.0, 0.0, 0.0]])


def test_a_perfect_prediction_scores_exactly_zero_also_with_zero_classes():
    gold = [[0.0, 0.3, 0.7], [1.0, 0.0, 0.0], [0.34, 0.33, 0.33]]
    assert jsd(gold, gold) == 0.0 and kl(gold, gold) == 0.0


def test_kl_of_nearly_equal_rows_is_never_below_0():
    """Rows one rounding apart (each divided by its sum once more): KL's sum of rel_entr rounds to
    about -1e-16 on some items."""
    counts = np.random.default_rng(1).integers(0, 100, (2000, 3))
    gold = counts / counts.sum(axis=1, keepdims=True)
    pred = gold / gold.sum(axis=1, keepdims=True)
    assert KL.item_stats(gold, pred).min() == 0.0 and kl(gold, pred) >= 0.0


def test_a_nan_jensen_shannon_distance_counts_as_zero_as_the_script_counts_it():
    """scipy's divergence of these two rows rounds below 0, so its square root is NaN."""
    human, model = [0.01, 0.41, 0.58], [0.01, 0.41, 0.5800000000000001]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert math.isnan(distance.jensenshannon(human, model))
    assert official.per_item(human, model)[0] == 0
    result = JSD.score(np.array([human]), np.array([model]))
    assert result.value == 0.0 and result.warning is None
    assert result.stats.tolist() == [[0.0]]


def _random_rows(rng, n, zeros=True):
    rows = rng.dirichlet([0.7, 0.7, 0.7], size=n)
    if zeros:
        rows[rng.random((n, 3)) < 0.15] = 0.0
        rows[rows.sum(axis=1) == 0, 0] = 1.0
    return rows / rows.sum(axis=1, keepdims=True)


def test_per_item_values_are_scipys_on_the_floored_model_row():
    rng = np.random.default_rng(25)
    gold = np.round(_random_rows(rng, 400) * 100) / 100
    gold /= gold.sum(axis=1, keepdims=True)
    pred = _random_rows(rng, 400)
    jsd_items = JSD.item_stats(gold, pred)[:, 0]
    kl_items = KL.item_stats(gold, pred)[:, 0]
    for i in range(len(gold)):
        model = normalize_dist([pred[i]])[0]
        expected_js = distance.jensenshannon(gold[i], model)
        assert jsd_items[i] == pytest.approx(
            0.0 if np.isnan(expected_js) else expected_js, abs=1e-12
        )
        assert kl_items[i] == pytest.approx(entropy(gold[i], model), abs=1e-12)


def test_track_means_are_the_official_scripts():
    """The official loop over a release-like dict and a prediction dict, against the kit's mean."""
    rng = np.random.default_rng(2020)
    counts = rng.multinomial(100, [0.3, 0.5, 0.2], size=300)
    counts[:20] = [[0, 100, 0]] * 20  # classes nobody chose
    gold = counts / 100
    pred = _random_rows(rng, 300)
    release = {
        f"u{i}": {"label_dist": gold[i].tolist(), "majority_label": "n", "old_label": "n"}
        for i in range(300)
    }
    model = {
        f"u{i}": {"predicted_probabilities": pred[i].tolist(), "predicted_label": "n"}
        for i in range(300)
    }
    pred[0] = gold[0]  # one item predicted exactly, with classes nobody chose (below)
    model["u0"]["predicted_probabilities"] = gold[0].tolist()
    result = official.evaluate(release, {"m": model})["m"]
    assert jsd(gold, pred) == pytest.approx(result["average JS div"], abs=1e-9)
    assert kl(gold, pred) == pytest.approx(result["average KL div"], abs=1e-12)
    assert round(jsd(gold, pred), 4) == round(result["average JS div"], 4)


def test_the_human_row_is_floored_too_so_an_exact_prediction_scores_zero():
    """The script floors only the model's row: an item predicted exactly with a class nobody chose
    gets sqrt of the floor's divergence from it, about 2.6e-8 (its last digits depend on scipy's
    version: 2.74e-8 with scipy 1.11); here both rows are floored: 0."""
    human = [0.0, 1.0, 0.0]
    assert 1e-8 < official.per_item(human, human)[0] < 1e-7
    assert jsd([human], [human]) == 0.0
    assert official.per_item(human, human)[1] == pytest.approx(0.0, abs=1e-14)


def test_logits_are_the_scripts_softmax_then_the_floor():
    logits = [[2.0, -1.0, 0.5], [40.0, -5.0, 0.0]]  # the second has a probability below 1e-15
    probs = np.array([official.model_label_dist(row) for row in logits])
    shifted = np.exp(np.array(logits) - np.max(logits, axis=1, keepdims=True))
    softmax = shifted / shifted.sum(axis=1, keepdims=True)
    assert softmax[1].min() < FLOOR
    np.testing.assert_allclose(normalize_dist(softmax), probs, rtol=1e-12, atol=0)


def test_the_pages_name_the_scores_of_reading_the_label_off_the_id():
    """SNLI and MNLI pairIDs end in the letter of the label the hypothesis writer was asked for: the
    edition's overview and README give, as a reference line, what that letter alone scores on the
    evaluation's items (the release minus the practice sample), and say the items are public."""
    import json

    from conftest import REPO, shared_data
    from codajudge.bundle.sample import smallest_keys

    wording, soft = {}, {"e": [0.6, 0.2, 0.2], "n": [0.2, 0.6, 0.2], "c": [0.2, 0.2, 0.6]}
    for part, name in (("snli", "chaosNLI_snli.jsonl"), ("mnli", "chaosNLI_mnli_m.jsonl")):
        lines = shared_data("chaosnli", name).read_text(encoding="utf-8").splitlines()
        rows = [json.loads(line) for line in lines if line.strip()]
        practice = set(smallest_keys([{"id": r["uid"]} for r in rows], 2020, 300))
        scored = [r for i, r in enumerate(rows) if i not in practice]
        hits = sum(r["uid"][-1] == r["majority_label"] for r in scored)
        js = np.mean([official.per_item(r["label_dist"], soft[r["uid"][-1]])[0] for r in scored])
        wording[part] = (f"{hits / len(scored):.3f}", f"{js:.3f}")
    (snli_acc, snli_js), (mnli_acc, mnli_js) = wording["snli"], wording["mnli"]
    line = (
        f"accuracy **{snli_acc}** on SNLI and **{mnli_acc}** on MNLI-m, and a Jensen-Shannon "
        f"distance of {snli_js} and {mnli_js}"
    )
    edition = REPO / "editions" / "chaosnli"
    for page in (edition / "pages" / "overview.md", edition / "README.md"):
        text = " ".join(page.read_text(encoding="utf-8").split())
        assert line in text and "participants' honour" in text, page
    terms = " ".join((edition / "pages" / "terms.md").read_text(encoding="utf-8").split())
    assert "is held back from public files." not in terms and "participants' honour" in terms
