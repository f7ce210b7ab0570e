"""What every registered kind declares for the generated pages, data and leak checks, and that a
kind registered without editing ``codajudge.bundle`` reaches the generated pages."""

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from codajudge import kinds
from codajudge.bundle import pages
from codajudge.bundle.leaks import probe_for
from codajudge.bundle.edition import load_edition
from codajudge.bundle.pages import LocalScore
from codajudge.bundle.leaks import exact_share
from codajudge.bundle.prose import Templates, kind_text
from codajudge.formats.write import write_prediction
from codajudge.gold import build_gold, gold_as_values
from codajudge.metrics import REGISTRY as METRICS
from codajudge.scoring import read_track_file, score_track, scored_subset

REPO = Path(__file__).resolve().parents[1]
EVERY_KIND = list(kinds.REGISTRY.values())
NAMES = [kind.name for kind in EVERY_KIND]
#: The kit's own templates (no edition's).
KIT = Templates()


def format_text(kind: kinds.Kind) -> str:
    return kind_text(KIT, kind, "format", scale="SCALE", multilabel="", ordinal="")


def edge_case_text(kind: kinds.Kind) -> str:
    """The kind's edge-case sentence, '' for a kind without one."""
    return kind_text(KIT, kind, "edge_cases") if KIT.has(f"kinds/{kind.name}_edge_cases") else ""


#: The methods ``Kind`` states without a body: every kind declares its own.
DECLARED_BY_EVERY_KIND = (
    "example_value",
    "gold_in_text",
    "exact_hits",
    "random_prediction",
    "item_error_unit",
    "item_errors",
    "item_texts",
)


def _own(kind: kinds.Kind, attribute: str) -> bool:
    """Whether the kind's class itself (not the base) defines ``attribute``."""
    return any(attribute in vars(cls) for cls in type(kind).__mro__ if cls is not kinds.Kind)


def default_edition():
    return load_edition(REPO / "editions" / "default")


def tracks_of_every_kind_and_scale():
    """One track of the default edition per (kind, scale) it has: every registered kind."""
    seen = {}
    for track in default_edition().tracks:
        seen.setdefault((track.kind, track.scale), track)
    return list(seen.values())


def test_every_registered_kind_is_in_the_default_edition():
    assert {track.kind for track in tracks_of_every_kind_and_scale()} == set(NAMES)


@pytest.mark.parametrize("kind", EVERY_KIND, ids=NAMES)
def test_every_kind_has_its_page_templates(kind):
    text = format_text(kind)
    assert text.startswith("- **") and text.strip() == text
    assert isinstance(edge_case_text(kind), str) and isinstance(kind.lists_annotators, bool)
    if kind.has_range:
        sentence = kind_text(KIT, kind, "range", low="LOW", high="HIGH")
        assert "LOW" in sentence and "HIGH" in sentence
        assert "PER_TRACK" in kind_text(KIT, kind, "ranges", per_track="PER_TRACK")
        assert "SCALE" in format_text(kind) and kind_text(KIT, kind, "any_scale")
        scale = kind_text(KIT, kind, "gold_scale", scales="0-5", metrics="M", depend="depends")
        assert "0-5" in scale and "M depends" in scale
    for rule in kind.alignments:
        assert kind_text(KIT, kind, f"alignment_{rule}").startswith("**Annotator alignment")
    for method in DECLARED_BY_EVERY_KIND:
        assert _own(kind, method), f"kind {kind.name} does not declare {method}"


@pytest.mark.parametrize("kind", EVERY_KIND, ids=NAMES)
def test_every_kind_metric_is_a_registered_metric(kind):
    for scale in kind.scales:
        assert kind.default_metrics[scale], (kind.name, scale)
        for name in kind.applicable_metrics(scale):
            assert name in METRICS, (kind.name, scale, name)


def test_the_kinds_format_texts_differ():
    texts = [format_text(kind) for kind in EVERY_KIND]
    assert len(set(texts)) == len(texts)


@pytest.mark.parametrize(
    "track", tracks_of_every_kind_and_scale(), ids=lambda t: f"{t.kind}-{t.scale}"
)
def test_every_kind_example_value_is_an_id_tab_value_line_on_the_data_page(track):
    example = kinds.of(track).example_value(track)
    identifier, _, value = example.partition("<TAB>")
    assert identifier == "ID" and value
    if value[0] in "[{":
        json.loads(value)
    assert f"| `{pages.md_cell(example)}` |" in pages.data_page(default_edition())


def _evaluation_items(dataset: str) -> list:
    path = REPO / "reference_data" / "evaluation" / f"{dataset}.jsonl"
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


@pytest.mark.parametrize(
    "track", tracks_of_every_kind_and_scale(), ids=lambda t: f"{t.kind}-{t.scale}"
)
def test_every_kind_finds_its_own_gold_exact_and_the_leak_probe_reads_its_values(track):
    items = _evaluation_items(track.dataset)
    gold = build_gold(track, items, "reference")
    assert exact_share(gold, gold.gold) == 1.0
    probe = probe_for(gold, items)
    assert probe is not None and len(probe.patterns) == gold.n_scored
    assert probe.numeric == kinds.of(track).gold_is_numeric
    for pattern in probe.patterns.values():
        assert pattern, "every scored item has gold values to look for"
        if not probe.numeric:
            assert set(pattern) <= set(probe.codebook.values())
    if not probe.numeric:
        assert set(probe.codebook) == set(track.labels)


@pytest.mark.parametrize(
    "track", tracks_of_every_kind_and_scale(), ids=lambda t: f"{t.kind}-{t.scale}"
)
def test_every_metric_a_track_may_name_scores_its_gold_at_the_best_value(track, tmp_path):
    """Each metric a kind may score (its defaults and those registered for it), named by a track: the gold written
    as a submission file, read back and scored, gets the metric's best value and no warning."""
    kind = kinds.of(track)
    track = dataclasses.replace(track, metrics=list(kind.applicable_metrics(track.scale)))
    gold = build_gold(track, _evaluation_items(track.dataset), "reference")
    path = tmp_path / f"{track.id}.tsv"
    write_prediction(path, track, gold.ids, gold_as_values(gold))
    result = score_track(gold, read_track_file(path, path.name, gold), path.name)
    assert not result.warnings
    on_gold, _, _ = scored_subset(gold, gold.gold)
    for name, value in result.scores.items():
        metric = METRICS[name]
        best = metric.gold_value(on_gold, len(track.labels))
        assert value == pytest.approx(best, abs=max(1e-9, metric.on_gold_tolerance)), name


def test_a_soft_label_item_without_annotations_is_written_as_a_valid_perfect_prediction(tmp_path):
    """OCNLI's training items carry the majority label only: a phase scoring them (its practice)
    has soft-label items without gold, which the builder's perfect submission must still write
    as a distribution the reader accepts (it wrote a row of zeros)."""
    track = next(t for t in default_edition().tracks if t.id == "nli_zh_soft")
    items = _evaluation_items(track.dataset)
    items[0] = {k: v for k, v in items[0].items() if k not in ("annotators", "annotations")}
    gold = build_gold(track, items, "reference")
    assert not gold.scored[0] and gold.scored[1:].all()
    path = tmp_path / f"{track.id}.tsv"
    write_prediction(path, track, gold.ids, gold_as_values(gold))
    result = score_track(gold, read_track_file(path, path.name, gold), path.name)
    assert result.scores[track.main_metric] == pytest.approx(0.0, abs=1e-9)


# --- a kind registered without editing codajudge.bundle reaches the pages ---
#: Its texts are templates in the edition's own templates/ folder.
TOY_TEMPLATES = {
    "toy_format": "- **toy**: a label of the track, toy-style.",
    "toy_edge_cases": "Toy items are scored only on Tuesdays.",
    "ranged_toy_format": "- **ranged toy**: a number ($scale).",
    "ranged_toy_any_scale": "any toy scale",
    "ranged_toy_gold_scale": "toy scale $scales for $metrics",
    "ranged_toy_range": "Toy gold runs from $low to $high.",
    "ranged_toy_ranges": "Toy gold runs per track: $per_track.",
}


class Toy(kinds.Kind):
    name = "toy"
    has_labels = True
    default_metrics = {None: ("accuracy",)}
    lists_annotators = True

    def example_value(self, track) -> str:
        return f"ID<TAB>toy:{track.labels[-1]}"

    def gold_in_text(self, gold, items, index):
        return (gold.track.labels[int(gold.gold[index])],)

    def exact_hits(self, gold, values):
        return np.asarray(values) == gold.gold


class RangedToy(Toy):
    name = "ranged_toy"
    has_labels = False
    has_range = True
    lists_annotators = False

    def example_value(self, track) -> str:
        return "ID<TAB>0.5"


@pytest.fixture
def toy_edition(monkeypatch, tmp_path):
    for kind in (Toy(), RangedToy()):
        monkeypatch.setitem(kinds.REGISTRY, kind.name, kind)
    (tmp_path / "templates" / "kinds").mkdir(parents=True)
    for name, text in TOY_TEMPLATES.items():
        (tmp_path / "templates" / "kinds" / f"{name}.md").write_text(text + "\n", encoding="utf-8")
    edition = dataclasses.replace(default_edition(), folder=tmp_path)
    sts = next(t for t in edition.tracks if kinds.of(t).has_range)
    labelled = next(t for t in edition.tracks if t.labels and not t.scale)
    toy = dataclasses.replace(labelled, id="toy_track", title="Toy track", kind="toy")
    ranged = dataclasses.replace(sts, id="ranged", title="Ranged toy", kind="ranged_toy")
    return dataclasses.replace(edition, tracks=[toy, ranged], baselines=[])


def test_a_registered_kind_reaches_the_data_page(toy_edition):
    text = pages.data_page(toy_edition)
    assert "- **toy**: a label of the track, toy-style." in text
    assert "- **ranged toy**: a number (any toy scale)." in text
    toy = toy_edition.tracks[0]
    assert f"`ID<TAB>toy:{toy.labels[-1]}`" in text and "| toy |" in text
    assert "for disagreement tracks the item's `annotators`" in text
    for other in EVERY_KIND:
        assert format_text(other) not in text


#: A starting kit without a local phase (the evaluation page's facts of the kit).
NO_LOCAL = LocalScore(practice_public=True, local_items={})


def test_a_registered_kind_reaches_the_evaluation_page(toy_edition):
    text = pages.evaluation_page(toy_edition, NO_LOCAL)
    low, high = toy_edition.tracks[1].score_range
    assert "Edge cases: Toy items are scored only on Tuesdays." in text
    assert f"Toy gold runs from {low:g} to {high:g}." in text
    for other in EVERY_KIND:
        assert not edge_case_text(other) or edge_case_text(other) not in text


def test_a_ranged_kind_with_two_ranges_names_each_track(toy_edition):
    ranged = toy_edition.tracks[1]
    other = dataclasses.replace(ranged, id="ranged2", title="Other", range=(1.0, 3.0))
    text = pages.evaluation_page(dataclasses.replace(toy_edition, tracks=[ranged, other]), NO_LOCAL)
    low, high = ranged.score_range
    assert f"Toy gold runs per track: Ranged toy {low:g}-{high:g}, Other 1-3." in text


# --- the data check of a kind with a range ---


def test_gold_outside_a_ranged_kinds_range_is_reported_and_labelled_kinds_have_no_range_check():
    from codajudge.bundle.data_checks import split_golds
    from codajudge.tracks import track_from_dict

    scored = track_from_dict({"id": "s", "kind": "similarity", "dataset": "d", "range": [0, 5]})
    items = [{"id": f"i{n}", "texts": ["a", "b"], "score": score} for n, score in enumerate([1, 6])]

    def place(dataset: str, split: str) -> str:
        return f"{dataset} ({split})"

    problems = []
    golds = split_golds([scored], {"train": {"d": items}}, place, problems)
    (problem,) = problems
    assert problem.message == "similarity gold outside the track's range on 1 item"
    assert "'i1' (6)" in problem.found and "0 to 5" in problem.expected
    assert golds[("train", "s")].gold.tolist() == [1, 6]  # kept for the build, which refuses it
    labelled = track_from_dict(
        {"id": "c", "kind": "classification", "dataset": "d", "labels": ["a", "b"]}
    )
    labelled_items = [{"id": "i0", "texts": ["a", "b"], "label": "a"}]
    assert not kinds.of(labelled).has_range
    split_golds([scored], {"train": {"d": items[:1]}}, place, problems)
    split_golds([labelled], {"train": {"d": labelled_items}}, place, problems)
    assert problems == [problem]


@pytest.mark.parametrize(
    "track", [t for t in tracks_of_every_kind_and_scale() if t.labels], ids=lambda t: t.id
)
def test_a_label_no_gold_item_has_is_noted_naming_it_and_its_track(track):
    """Every labelled kind and scale: an item per label (its majority label, its annotators'
    choices) uses them all; a label added to the track's, which no item has, is noted."""
    from codajudge.bundle.data_checks import split_golds, unused_label_notes

    multilabel = track.scale == "multilabel"
    items = [
        {"id": f"i{k}", "texts": ["a", "b"], "label": label, "annotators": ["A", "B"]}
        | {"annotations": [[label] if multilabel else label] * 2}
        for k, label in enumerate(track.labels)
    ]
    extra = dataclasses.replace(track, labels=(*track.labels, "unrelated"))
    notes = {}
    for checked in (track, extra):
        problems = []
        golds = split_golds([checked], {"dev": {track.dataset: items}}, lambda d, s: d, problems)
        assert problems == []
        notes[checked.labels] = unused_label_notes([checked], golds)
    assert notes[track.labels] == []
    assert notes[extra.labels] == [
        f"track '{track.id}': label 'unrelated' is no gold item's, in any split, yet participants "
        "are asked for it; correct its spelling or remove it from the track's 'labels'"
    ]


@pytest.mark.parametrize("track_id", ["en_en\n", "En_en", "_en", "en-en", ""])
def test_a_track_id_is_lowercase_letters_digits_and_underscores_and_nothing_else(track_id):
    """Its file names are made from it (a line break would end up in ``en_en\\n.tsv``)."""
    from codajudge.errors import ConfigError
    from codajudge.tracks import track_from_dict

    with pytest.raises(ConfigError, match="'id' must be lowercase letters, digits and underscores"):
        track_from_dict({"id": track_id, "kind": "similarity"})
