"""LeWiDi 2025 metrics through the kit (importer -> build_gold -> metric.score, and once through
codajudge.scoring) against plain per-item Python loops written here from the official definitions
(docs/metrics.md sections 3-4), on the real dev and test files of all four datasets.

The reference reads the raw JSON itself (not the importer's items), uses Python's round(x, 5)
exactly where the official code rounds, computes Wasserstein distances with an explicit loop over
bins and divides ANAD by the number of possible label values (6 for CSC, 11 for Paraphrase).
"""

import json
import math
import random
from pathlib import Path

import numpy as np
import pytest

from codajudge.formats.items import write_items
from codajudge.gold import build_gold
from codajudge.importers.lewidi import load_split
from codajudge.metrics import PerAnnotator, get
from codajudge.scoring import score_folder
from codajudge.spec import TaskSpec
from codajudge.tracks import track_from_dict

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
RELEASE = DATA / "lewidi2025"
needs_release = pytest.mark.skipif(
    not RELEASE.is_dir(), reason="../shared/data/lewidi2025 is not present"
)

LABELS = {
    "CSC": [str(v) for v in range(1, 7)],
    "MP": ["0", "1"],
    "Paraphrase": [str(v) for v in range(-5, 6)],
    "VariErrNLI": ["contradiction", "entailment", "neutral"],
}
SCALE = {"CSC": "ordinal", "MP": "categorical", "Paraphrase": "ordinal", "VariErrNLI": "multilabel"}
SOFT_METRIC = {"MP": "amd", "CSC": "awd", "Paraphrase": "awd", "VariErrNLI": "mamd"}
PERSPECTIVIST_METRIC = {
    "MP": "error_rate",
    "CSC": "anad",
    "Paraphrase": "anad",
    "VariErrNLI": "mer",
}
SYSTEMS = ("gold", "random", "most_frequent", "perturbed")


# --- the reference: raw JSON and plain loops ----------------------------------------------------


def raw_items(dataset, split):
    """[(id, [(annotator, label or list of labels), ...]), ...] straight from the release file."""
    records = json.loads(
        (RELEASE / dataset / f"{dataset}_{split}.json").read_text(encoding="utf-8")
    )
    out = []
    for item_id, record in records.items():
        order = []
        for name in record["annotators"].split(","):
            if name.strip() not in order:
                order.append(name.strip())
        labels = {k.strip(): v for k, v in record["annotations"].items()}
        if dataset == "VariErrNLI":
            out.append((item_id, [(a, labels[a].split(",")) for a in order]))
        else:
            out.append((item_id, [(a, labels[a]) for a in order]))
    return out


def reference_soft_gold(dataset, annotations):
    """Shares of annotators per label; VariErrNLI: per label [share not choosing, share choosing]."""
    n = len(annotations)
    if dataset == "VariErrNLI":
        pairs = []
        for label in LABELS[dataset]:
            chose = sum(1 for _, chosen in annotations if label in chosen) / n
            pairs.append([1 - chose, chose])
        return pairs
    return [sum(1 for _, given in annotations if given == label) / n for label in LABELS[dataset]]


def ref_amd(gold, pred):
    per_item = [round(sum(abs(p - t) for p, t in zip(pi, ti)), 5) for ti, pi in zip(gold, pred)]
    mean = sum(per_item) / len(per_item)
    return round(mean, 5), mean


def wasserstein_by_loop(t, p):
    """Earth mover's distance on unit-spaced bins: the mass carried past each bin boundary."""
    carried, cost = 0.0, 0.0
    for j in range(len(t) - 1):
        carried += t[j] - p[j]
        cost += abs(carried)
    return cost


def ref_awd(gold, pred):
    per_item = [wasserstein_by_loop(ti, pi) for ti, pi in zip(gold, pred)]
    mean = sum(per_item) / len(per_item)
    return round(mean, 5), mean


def ref_mamd(gold, pred):
    per_item = []
    for ti, pi in zip(gold, pred):
        per_label = [round(abs(p[0] - t[0]) + abs(p[1] - t[1]), 5) for t, p in zip(ti, pi)]
        per_item.append(round(sum(per_label) / len(per_label), 5))
    mean = sum(per_item) / len(per_item)
    return round(mean, 5), mean


def ref_error_rate(gold, pred):
    """gold/pred: per item a list of 0/1 labels (ints), one per annotator."""
    per_item = [
        round(sum(abs(t - p) for t, p in zip(ti, pi)) / len(ti), 5) for ti, pi in zip(gold, pred)
    ]
    return sum(per_item) / len(per_item), None


def ref_anad(gold, pred, n_values):
    """gold/pred: per item a list of integer label values, one per annotator."""
    per_item = [
        sum(abs(t - p) for t, p in zip(ti, pi)) / len(ti) / n_values for ti, pi in zip(gold, pred)
    ]
    return sum(per_item) / len(per_item), None


def ref_mer(gold, pred, labels):
    """gold/pred: per item a list (one per annotator) of the labels chosen."""
    per_item = []
    for ti, pi in zip(gold, pred):
        per_label = []
        for label in labels:
            t = [1 if label in chosen else 0 for chosen in ti]
            p = [1 if label in chosen else 0 for chosen in pi]
            per_label.append(round(sum(abs(a - b) for a, b in zip(t, p)) / len(t), 5))
        per_item.append(sum(per_label) / len(per_label))
    return sum(per_item) / len(per_item), None


def reference_soft(dataset, gold, pred):
    return {"amd": ref_amd, "awd": ref_awd, "mamd": ref_mamd}[SOFT_METRIC[dataset]](gold, pred)


def reference_perspectivist(dataset, gold, pred):
    metric = PERSPECTIVIST_METRIC[dataset]
    if metric == "error_rate":
        return ref_error_rate(
            [[int(x) for x in g] for g in gold], [[int(x) for x in p] for p in pred]
        )
    if metric == "anad":
        return ref_anad(
            [[int(x) for x in g] for g in gold],
            [[int(x) for x in p] for p in pred],
            n_values=len(LABELS[dataset]),
        )
    return ref_mer(gold, pred, LABELS[dataset])


def assert_agree_at_5_decimals(kit, reference):
    """Equal to 1e-12; a difference of one unit in the 5th decimal is accepted only when the
    unrounded mean sits on a rounding tie (summation order can then decide the direction)."""
    value, unrounded = reference
    if abs(kit - value) <= 1e-12:
        return
    assert unrounded is not None, (kit, value)
    fraction = unrounded * 1e5 - math.floor(unrounded * 1e5)
    assert abs(fraction - 0.5) < 1e-6 and abs(kit - value) <= 1e-5 + 1e-12, (kit, value, unrounded)


# --- prediction systems (seeded; they need not be independent of anything) -----------------------


def soft_predictions(dataset, system, gold, rng):
    if system == "gold":
        return [json.loads(json.dumps(g)) for g in gold]
    if dataset == "VariErrNLI":
        if system == "random":
            return [[[1 - p, p] for p in (rng.random() for _ in LABELS[dataset])] for _ in gold]
        if system == "most_frequent":
            mean = [sum(g[j][1] for g in gold) / len(gold) for j in range(len(LABELS[dataset]))]
            return [[[1 - m, m] for m in mean] for _ in gold]
        return [
            [
                [1 - q, q]
                for q in (min(1.0, max(0.0, pair[1] + rng.uniform(-0.1, 0.1))) for pair in g)
            ]
            for g in gold
        ]
    k = len(LABELS[dataset])
    if system == "random":
        rows = [[rng.random() for _ in range(k)] for _ in gold]
    elif system == "most_frequent":
        mean = [sum(g[j] for g in gold) / len(gold) for j in range(k)]
        rows = [list(mean) for _ in gold]
    else:
        rows = [[max(0.0, v + rng.uniform(-0.05, 0.05)) for v in g] for g in gold]
    return [[v / sum(row) for v in row] for row in rows]


def perspectivist_predictions(dataset, system, items, rng):
    labels = LABELS[dataset]
    if system == "gold":
        return [[given for _, given in annotations] for _, annotations in items]
    if system == "most_frequent":
        return _most_frequent_rows(dataset, items)
    out = []
    for _, annotations in items:
        row = []
        for _, given in annotations:
            row.append(_system_label(dataset, system, labels, given, rng))
        out.append(row)
    return out


def _most_frequent_rows(dataset, items):
    """Each annotator's most frequent label in this split, for every item they annotated."""
    history = {}
    for _, annotations in items:
        for name, given in annotations:
            history.setdefault(name, []).append(tuple(given) if isinstance(given, list) else given)
    favourite = {
        name: max(seen, key=lambda v: (seen.count(v), -seen.index(v)))
        for name, seen in history.items()
    }
    return [
        [list(favourite[n]) if dataset == "VariErrNLI" else favourite[n] for n, _ in annotations]
        for _, annotations in items
    ]


def _system_label(dataset, system, labels, given, rng):
    """One annotator's label as a random or perturbed system predicts it."""
    if dataset == "VariErrNLI":
        if system == "random" or rng.random() < 0.2:
            return [label for label in labels if rng.random() < 0.4]
        return given
    if system == "random":
        return rng.choice(labels)
    if rng.random() < 0.25:  # perturbed: one step up or down the scale, or a flip for MP
        j = labels.index(given) + rng.choice((-1, 1))
        return labels[min(max(j, 0), len(labels) - 1)]
    return given


# --- the kit's side ----------------------------------------------------------------------------


def kit_track(dataset, kind):
    metric = SOFT_METRIC[dataset] if kind == "soft_label" else PERSPECTIVIST_METRIC[dataset]
    return track_from_dict(
        {
            "id": f"{dataset.lower()}_{'soft' if kind == 'soft_label' else 'pe'}",
            "kind": kind,
            "dataset": dataset,
            "scale": SCALE[dataset],
            "labels": LABELS[dataset],
            "metrics": [metric],
        }
    )


def kit_per_annotator(track, gold, pred_rows):
    values = []
    for row in pred_rows:
        for given in row:
            if track.scale == "multilabel":
                values.append([1.0 if label in given else 0.0 for label in track.labels])
            else:
                values.append(track.labels.index(given))
    return PerAnnotator(
        values=np.array(values),
        item=gold.gold.item,
        n_items=gold.gold.n_items,
        n_labels=gold.gold.n_labels,
    )


_items_cache = {}


def kit_items(dataset, split):
    if (dataset, split) not in _items_cache:
        _items_cache[dataset, split] = load_split(
            {"path": "lewidi2025", "dataset": dataset}, DATA, split
        )
    return _items_cache[dataset, split]


CASES = [(d, s, system) for d in LABELS for s in ("dev", "test") for system in SYSTEMS]


@needs_release
@pytest.mark.parametrize("dataset,split,system", CASES)
def test_soft_label_metric_matches_the_reference(dataset, split, system):
    raw = raw_items(dataset, split)
    reference_gold = [reference_soft_gold(dataset, annotations) for _, annotations in raw]
    pred = soft_predictions(
        dataset, system, reference_gold, random.Random(f"{dataset}{split}{system}")
    )
    expected = reference_soft(dataset, reference_gold, pred)

    track = kit_track(dataset, "soft_label")
    gold = build_gold(track, kit_items(dataset, split), "test")
    assert gold.ids == [item_id for item_id, _ in raw]
    kit = get(track.main_metric).score(gold.gold, np.array(pred))
    assert kit.warning is None
    assert_agree_at_5_decimals(kit.value, expected)
    if system == "gold":
        assert kit.value == 0.0


@needs_release
@pytest.mark.parametrize("dataset,split,system", CASES)
def test_perspectivist_metric_matches_the_reference(dataset, split, system):
    raw = raw_items(dataset, split)
    reference_gold = [[given for _, given in annotations] for _, annotations in raw]
    pred = perspectivist_predictions(
        dataset, system, raw, random.Random(f"{dataset}{split}{system}")
    )
    expected = reference_perspectivist(dataset, reference_gold, pred)

    track = kit_track(dataset, "perspectivist")
    gold = build_gold(track, kit_items(dataset, split), "test")
    assert gold.annotators == [[name for name, _ in annotations] for _, annotations in raw]
    kit = get(track.main_metric).score(gold.gold, kit_per_annotator(track, gold, pred))
    assert_agree_at_5_decimals(kit.value, expected)
    if system == "gold":
        assert kit.value == 0.0
    else:
        assert kit.value > 0.0


@needs_release
@pytest.mark.parametrize("dataset", sorted(LABELS))
def test_scoring_a_submission_folder_matches_the_reference(dataset, tmp_path):
    """The whole path: reference data and TSV submissions on disk, score_folder, both tracks."""
    raw = raw_items(dataset, "dev")
    rng = random.Random(dataset)
    soft_gold = [reference_soft_gold(dataset, annotations) for _, annotations in raw]
    soft_pred = soft_predictions(dataset, "perturbed", soft_gold, rng)
    persp_pred = perspectivist_predictions(dataset, "perturbed", raw, rng)
    tracks = [kit_track(dataset, "soft_label"), kit_track(dataset, "perspectivist")]
    spec = TaskSpec(edition="lewidi2025", title="LeWiDi", phase="practice", tracks=tracks)
    (tmp_path / "ref").mkdir()
    (tmp_path / "res").mkdir()
    write_items(tmp_path / "ref" / f"{dataset}.jsonl", kit_items(dataset, "dev"))
    for track, rows in zip(tracks, (soft_pred, persp_pred)):
        lines = [f"{item_id}\t{json.dumps(row)}\n" for (item_id, _), row in zip(raw, rows)]
        (tmp_path / "res" / f"{track.id}.tsv").write_text("".join(lines), encoding="utf-8")
    result = score_folder(spec, tmp_path / "ref", tmp_path / "res")
    soft_score = result.tracks[tracks[0].id].scores[tracks[0].main_metric]
    persp_score = result.tracks[tracks[1].id].scores[tracks[1].main_metric]
    assert_agree_at_5_decimals(soft_score, reference_soft(dataset, soft_gold, soft_pred))
    gold_labels = [[given for _, given in annotations] for _, annotations in raw]
    assert_agree_at_5_decimals(
        persp_score, reference_perspectivist(dataset, gold_labels, persp_pred)
    )
    assert result.primary == pytest.approx((soft_score + persp_score) / 2, abs=1e-12)


@needs_release
@pytest.mark.parametrize("dataset", ["CSC", "Paraphrase"])
def test_the_wasserstein_loop_agrees_with_scipy(dataset):
    """A check of the reference itself: scipy's 1-D Wasserstein distance over bin positions."""
    from scipy.stats import wasserstein_distance

    rng = random.Random(7)
    positions = list(range(len(LABELS[dataset])))
    for _, annotations in raw_items(dataset, "dev")[:100]:
        t = reference_soft_gold(dataset, annotations)
        p = [rng.random() for _ in positions]
        p = [v / sum(p) for v in p]
        assert wasserstein_by_loop(t, p) == pytest.approx(
            wasserstein_distance(positions, positions, t, p), abs=1e-12
        )


# --- hand-worked tiny cases ----------------------------------------------------------------------


def score(name, gold, pred):
    return get(name).score(gold, pred).value


def test_amd_by_hand():
    # item 1: gold [0.5, 0.5], pred [1, 0]:  |1 - 0.5| + |0 - 0.5| = 1.0
    # item 2: gold [1/3, 2/3], pred [0.5, 0.5]: 1/6 + 1/6 = 0.333333... -> round5 0.33333
    # item 3: gold [0, 1], pred [0, 1]: 0
    # mean (1.0 + 0.33333 + 0) / 3 = 0.44444333... -> round5 0.44444
    gold = np.array([[0.5, 0.5], [1 / 3, 2 / 3], [0.0, 1.0]])
    pred = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])
    assert score("amd", gold, pred) == pytest.approx(0.44444, abs=1e-12)


def test_amd_rounds_each_item_before_averaging():
    # three items off by 0.000003 in each bin: d = 0.000006 -> round5 0.00001 each; one perfect item
    # rounded per item: (3 * 0.00001 + 0) / 4 = 0.0000075 -> round5 0.00001
    # (rounding only the mean would give 0.0000045 -> 0.0: the official per-item rounding matters)
    gold = np.array([[0.5, 0.5]] * 4)
    pred = np.array([[0.500003, 0.499997]] * 3 + [[0.5, 0.5]])
    assert score("amd", gold, pred) == pytest.approx(0.00001, abs=1e-12)


def test_amd_final_rounding_is_python_round_at_a_near_tie():
    # item 1: gold [0.5, 0.5], pred [0.496875, 0.503125]: 0.003125 + 0.003125 = 0.00625 -> round5 0.00625
    # item 2: perfect, 0
    # mean 0.00625 / 2 = 0.003125, stored as 0.0031250000000000001734... (just above the tie), so
    # Python's round(x, 5), as in the official code, gives 0.00313 (numpy's half-to-even: 0.00312)
    gold = np.array([[0.5, 0.5], [0.5, 0.5]])
    pred = np.array([[0.496875, 0.503125], [0.5, 0.5]])
    assert score("amd", gold, pred) == 0.00313


def test_awd_by_hand():
    # item 1: gold [1, 0, 0], pred [0, 0, 1]: all mass moves two bins: cumsums [1, 1, 1] vs [0, 0, 1]
    #         -> |1| + |1| + |0| = 2.0
    # item 2: gold [0.5, 0.5, 0], pred [0, 0.5, 0.5]: cumsums [0.5, 1, 1] vs [0, 0.5, 1] -> 1.0
    # item 3: gold [0, 1, 0], pred [1/3, 1/3, 1/3]: cumsums [0, 1, 1] vs [1/3, 2/3, 1] -> 2/3
    # mean (2 + 1 + 2/3) / 3 = 1.222222... -> round5 1.22222
    gold = np.array([[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.0, 1.0, 0.0]])
    pred = np.array([[0.0, 0.0, 1.0], [0.0, 0.5, 0.5], [1 / 3, 1 / 3, 1 / 3]])
    assert score("awd", gold, pred) == pytest.approx(1.22222, abs=1e-12)


def test_mamd_by_hand():
    # one item, labels (contradiction, entailment, neutral), pairs [P(not chosen), P(chosen)]:
    #   c: gold [1, 0],     pred [0.5, 0.5]:          0.5 + 0.5 = 1.0
    #   e: gold [0.5, 0.5], pred [0.500003, 0.499997]: 0.000006 -> round5 0.00001
    #   n: gold [0, 1],     pred [0, 1]:               0
    # item: (1.0 + 0.00001 + 0) / 3 = 0.33333666... -> round5 0.33334
    # second item, all three labels like e but 0.000002 apart per bin: 0.000004 -> 0.0 each -> 0.0
    # mean (0.33334 + 0) / 2 = 0.16667
    gold = np.array([[[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]], [[0.5, 0.5]] * 3])
    pred = np.array([[[0.5, 0.5], [0.500003, 0.499997], [0.0, 1.0]], [[0.500002, 0.499998]] * 3])
    assert score("mamd", gold, pred) == pytest.approx(0.16667, abs=1e-12)


def test_mamd_rounds_each_label_then_each_item():
    # labels: m = round5(0.000006) = 0.00001 twice, 0 once -> mean 0.0000066 -> round5 0.00001
    # (without the per-label rounding: mean 0.000004 -> 0.0)
    gold = np.array([[[0.5, 0.5]] * 3])
    pred = np.array([[[0.500003, 0.499997], [0.500003, 0.499997], [0.5, 0.5]]])
    assert score("mamd", gold, pred) == pytest.approx(0.00001, abs=1e-12)


def per_annotator(rows, n_labels):
    """PerAnnotator from per-item lists of label indices (or 0/1 vectors)."""
    values = [v for row in rows for v in row]
    item = [i for i, row in enumerate(rows) for _ in row]
    return PerAnnotator(
        values=np.array(values), item=np.array(item), n_items=len(rows), n_labels=n_labels
    )


def test_error_rate_by_hand():
    # item 1: gold [1, 0], pred [1, 1]: 1 of 2 wrong -> 0.5
    # item 2: gold [0, 0, 1], pred [0, 1, 1]: 1 of 3 wrong -> 0.333333... -> round5 0.33333
    # item 3: gold [1, 1, 1, 0], pred [1, 1, 1, 0]: 0
    # mean (0.5 + 0.33333 + 0) / 3 = 0.27777666... (not rounded again; unrounded items give 0.2777777...)
    gold = per_annotator([[1, 0], [0, 0, 1], [1, 1, 1, 0]], 2)
    pred = per_annotator([[1, 1], [0, 1, 1], [1, 1, 1, 0]], 2)
    assert score("error_rate", gold, pred) == pytest.approx((0.5 + 0.33333) / 3, abs=1e-15)


def test_anad_by_hand():
    # CSC (S = 6 possible values 1..6, indices 0..5): item gold [1, 6], pred [2, 6]:
    #   (|1 - 2| + |6 - 6|) / 2 / 6 = 1/12 = 0.0833333 (dividing by the range 5 would give 0.1)
    # second item gold [3, 3, 3, 3], pred [6, 1, 3, 3]: (3 + 2 + 0 + 0) / 4 / 6 = 5/24 = 0.2083333
    # mean (1/12 + 5/24) / 2 = 7/48 = 0.1458333... (unrounded)
    gold = per_annotator([[0, 5], [2, 2, 2, 2]], 6)
    pred = per_annotator([[1, 5], [5, 0, 2, 2]], 6)
    assert score("anad", gold, pred) == pytest.approx(7 / 48, abs=1e-15)
    # Paraphrase (S = 11, values -5..5): gold [-5, 5, 0, 0], pred [5, 5, 0, 1]: (10 + 0 + 0 + 1) / 4 / 11 = 0.25
    assert score(
        "anad", per_annotator([[0, 10, 5, 5]], 11), per_annotator([[10, 10, 5, 6]], 11)
    ) == pytest.approx(0.25, abs=1e-15)


def test_mer_by_hand():
    # labels (c, e, n); item 1 with 3 annotators: gold {n}, {e, n}, {c}; pred {n}, {n}, {c, n}
    #   c: gold 0,0,1  pred 0,0,1 -> 0 wrong -> 0
    #   e: gold 0,1,0  pred 0,0,0 -> 1 of 3 -> 0.33333
    #   n: gold 1,1,0  pred 1,1,1 -> 1 of 3 -> 0.33333
    #   item: (0 + 0.33333 + 0.33333) / 3 = 0.22222
    # item 2 with 2 annotators: gold {e}, {e}; pred {e}, {c}: c 1/2, e 1/2, n 0 -> 1/3 = 0.333333...
    # mean (0.22222 + 0.33333...) / 2 = 0.277776666...
    gold = per_annotator([[[0, 0, 1], [0, 1, 1], [1, 0, 0]], [[0, 1, 0], [0, 1, 0]]], 3)
    pred = per_annotator([[[0, 0, 1], [0, 0, 1], [1, 0, 1]], [[0, 1, 0], [1, 0, 0]]], 3)
    assert score("mer", gold, pred) == pytest.approx((0.22222 + 1 / 3) / 2, abs=1e-15)


@pytest.mark.parametrize("seed", range(3))
def test_round5_is_pythons_round_bit_for_bit(seed):
    """round5 rounds in numpy and hands Python's round only the values next to a half (or beyond
    whole doubles' precision): the result is Python's ``round(v, 5)`` for every value, near-ties,
    signed zeros and huge values included."""
    from codajudge.metrics.base import round5

    rng = np.random.default_rng(seed)
    halves = (rng.integers(-(10**6), 10**6, 50_000) + 0.5) / 1e5
    values = np.concatenate(
        [
            rng.uniform(-10, 10, 50_000),
            np.round(rng.uniform(0, 1, 50_000), 6),
            halves,
            np.nextafter(halves, np.inf),
            np.nextafter(halves, -np.inf),
            rng.uniform(-1, 1, 1_000) * 1e12,
            [0.0, -0.0, -1e-7, 5e-6, -5e-6, 1e300, -1e300, 1e-300],
        ]
    )
    expected = np.array([round(v, 5) for v in values.tolist()])
    got = round5(values)
    assert np.array_equal(got, expected) and np.array_equal(np.signbit(got), np.signbit(expected))
    assert round5(values[0]) == round(float(values[0]), 5) and isinstance(round5(1.0), float)
