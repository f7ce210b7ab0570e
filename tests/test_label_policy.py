"""One label policy: every variant text of a label or of a declared alias (spaces, case, number
forms, JSON numbers) gets the same verdict in every place a label is written, single-label and
multilabel, submission and gold (``codajudge.labels``); a track whose aliases name no label or whose
names collide once normalised is refused where the edition is loaded."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from codajudge.bundle.edition import load_edition
from codajudge.errors import ConfigError, SubmissionError
from codajudge.formats import chaosnli
from codajudge.formats.annotators import parse_per_annotator
from codajudge.formats.soft import parse_soft
from codajudge.formats.submission import ItemKeys, read_prediction
from codajudge.formats.values import ValueProblem, parse_label
from codajudge.gold import build_gold
from codajudge.tracks import track_from_dict

REPO = Path(__file__).resolve().parents[1]
NLI = ["entailment", "neutral", "contradiction"]
LETTERS = {"e": "entailment", "n": "neutral", "c": "contradiction"}
#: (labels, aliases): every label set is read by each kind, single-label and multilabel.
LABEL_SETS = (
    (NLI, {}),
    (["1", "2", "3", "4", "5"], {}),
    (["0", "1"], {}),
    (NLI, LETTERS),
    (["1", "2", "3"], {"low": "1", "high": "3", "10": "2"}),
)


def _track(kind: str, labels, aliases, scale: str | None = None):
    raw = {"id": kind, "kind": kind, "labels": labels, "label_aliases": aliases}
    return track_from_dict({**raw, "scale": scale} if scale else raw)


def _tracks(labels, aliases):
    """(classification, soft label, perspectivist, multilabel perspectivist) tracks of one set."""
    scale = "ordinal" if labels[0].isdigit() else "categorical"
    return (
        _track("classification", labels, aliases),
        _track("soft_label", labels, aliases, scale),
        _track("perspectivist", labels, aliases, scale),
        _track("perspectivist", labels, aliases, "multilabel"),
    )


def _text_variants(name):
    out = [name, " " + name, name + " ", "\t" + name + "\t", name.upper(), name.title()]
    if name.isdigit():
        out += [name + ".0", name + "e0", " " + name + ".0", "+" + name]
    return out


# --- the places a label is written: each gives a label index, or None for a refusal ---------------


def _classification(track, text):
    try:
        return parse_label(text, track, [])
    except ValueProblem:
        return None


def _soft_key(track, text):
    try:
        return int(np.argmax(parse_soft(json.dumps({text: 1.0}), track, [])))
    except ValueProblem:
        return None


def _row(track, value):
    try:
        return int(parse_per_annotator(json.dumps([value]), track, ["a"])[0])
    except ValueProblem:
        return None


def _one_chosen(row) -> int | None:
    """The label index of a 0/1 row choosing exactly one label, else None."""
    chosen = np.flatnonzero(np.asarray(row))
    return int(chosen[0]) if len(chosen) == 1 else None


def _multilabel_row(track, choice):
    """One annotator's choice (a list of labels, or a comma-separated string) in a row."""
    try:
        return _one_chosen(parse_per_annotator(json.dumps([choice]), track, ["a"])[0])
    except ValueProblem:
        return None


def _file_row(track, value, tmp: Path):
    """A whole file of one row read by the reader."""
    path = tmp / "t.tsv"
    path.write_text("x\t" + json.dumps([value]) + "\n", encoding="utf-8")
    try:
        values = read_prediction(path, "t.tsv", track, ItemKeys(["x"], [["a"]])).values.values
    except SubmissionError:
        return None
    return _one_chosen(values[0]) if track.scale == "multilabel" else int(values[0])


def _gold_label(track, value):
    try:
        return int(build_gold(track, [{"id": "x", "label": value}], "gold").gold[0])
    except ConfigError:
        return None


def _gold_annotations(track, annotations):
    """The first annotator's gold (a label index, or a multilabel row's one chosen label)."""
    names = [f"a{k}" for k in range(len(annotations))]
    item = {"id": "x", "annotators": names, "annotations": annotations}
    try:
        values = build_gold(track, [item], "gold").gold.values
    except ConfigError:
        return None
    return _one_chosen(values[0]) if track.scale == "multilabel" else int(values[0])


def _chaosnli_label(track, value):
    """ChaosNLI's ``predicted_label``, for the NLI tracks its layout applies to."""
    try:
        return chaosnli._label_code(value, track)
    except ValueProblem:
        return None


def _verdicts(tracks, value, tmp: Path) -> dict:
    classification, soft, perspectivist, multilabel = tracks
    verdicts = {
        "classification value": _classification(classification, value),
        "soft-label key": _soft_key(soft, value),
        "perspectivist row": _row(perspectivist, value),
        "perspectivist file": _file_row(perspectivist, value, tmp),
        "multilabel list": _multilabel_row(multilabel, [value]),
        "multilabel text": _multilabel_row(multilabel, value),
        "multilabel file": _file_row(multilabel, [value], tmp),
        "gold label": _gold_label(classification, value),
        "gold annotation": _gold_annotations(perspectivist, [value]),
        "gold multilabel list": _gold_annotations(multilabel, [[value]]),
        "gold multilabel text": _gold_annotations(multilabel, [value]),
        "gold multilabel, mixed": _gold_annotations(multilabel, [[value], ""]),
    }
    if sorted(classification.labels) == sorted(chaosnli.LABEL_ORDER):
        verdicts["ChaosNLI predicted_label"] = _chaosnli_label(classification, value)
    return verdicts


@pytest.mark.parametrize("labels, aliases", LABEL_SETS)
def test_every_place_gives_a_text_one_verdict(labels, aliases, tmp_path):
    tracks = _tracks(labels, aliases)
    for name, label in [(label, label) for label in labels] + list(aliases.items()):
        for text in _text_variants(name):
            verdicts = _verdicts(tracks, text, tmp_path)
            assert len(set(verdicts.values())) == 1, (text, verdicts)
        for text in (name, f" {name}\t"):  # as declared, and with spaces around: its label
            assert set(_verdicts(tracks, text, tmp_path).values()) == {labels.index(label)}, text


@pytest.mark.parametrize("labels, aliases", LABEL_SETS[1:3])
def test_json_numbers_get_one_verdict_where_a_format_takes_them(labels, aliases):
    """(A submitted multilabel row of numbers is the label-major layout: no place for a label.)"""
    classification, _, perspectivist, multilabel = _tracks(labels, aliases)
    for label in labels:
        for number in (int(label), float(label)):
            verdicts = {
                "perspectivist row": _row(perspectivist, number),
                "gold label": _gold_label(classification, number),
                "gold annotation": _gold_annotations(perspectivist, [number]),
                "gold multilabel list": _gold_annotations(multilabel, [[number]]),
                "gold multilabel, mixed": _gold_annotations(multilabel, [[number], ""]),
            }
            assert set(verdicts.values()) == {labels.index(label)}, (number, verdicts)


def test_a_boolean_names_no_label_even_where_a_label_is_one():
    classification, _, perspectivist, multilabel = _tracks(["0", "1"], {})
    for value in (True, False):
        assert _gold_label(classification, value) is None
        assert _gold_annotations(perspectivist, [value]) is None
        assert _gold_annotations(multilabel, [[value], ""]) is None


# --- the refusals of a label set, where the edition is loaded --------------------------------------


def _refusal(**raw) -> str:
    with pytest.raises(ConfigError) as caught:
        track_from_dict({"id": "t", "kind": "classification", **raw})
    return str(caught.value)


def test_an_alias_naming_no_label_is_refused_naming_alias_labels_and_fix():
    message = _refusal(labels=NLI, label_aliases={"e": "Entailment", "n": "neutral"})
    assert (
        "tracks 't': 'label_aliases' entry 'e' names no label of the track; expected one of "
        "entailment, neutral, contradiction, found 'Entailment'. Write the label as 'labels' "
        "writes it (case counts)"
    ) in message
    assert "'n'" not in message


@pytest.mark.parametrize(
    "labels, aliases, found",
    [
        (["1", "1.0", "2"], {}, "'1' and '1.0' name the same label once normalised"),
        (["a", " a", "b"], {}, "'a' and ' a' name the same label once normalised"),
        (["1", "2"], {"2.0": "2"}, "'2' and '2.0' name the same label once normalised"),
        (NLI, {"e": "entailment", " e": "entailment"}, "'e' and ' e' name the same"),
        (NLI, {"neutral": "entailment"}, "'neutral' and 'neutral' name the same"),
    ],
)
def test_names_that_collide_once_normalised_are_refused(labels, aliases, found):
    message = _refusal(labels=labels, label_aliases=aliases)
    assert "two of 'labels' and 'label_aliases' name one label once normalised" in message
    assert f"found {found}" in message and "Remove or rename one of them" in message


def test_aliases_apply_only_to_tracks_with_labels():
    message = _refusal(kind="similarity", label_aliases={"e": "entailment"})
    assert "'label_aliases' must map alias texts to labels of a track with labels" in message


def _chaosnli_edition(tmp_path: Path, old: str, new: str) -> Path:
    folder = tmp_path / "chaosnli"
    shutil.copytree(REPO / "editions" / "chaosnli", folder)
    config = folder / "edition.yaml"
    text = config.read_text(encoding="utf-8")
    assert old in text
    config.write_text(text.replace(old, new, 1), encoding="utf-8")
    return config


@pytest.mark.parametrize(
    "new, message, found",
    [
        (
            "label_aliases: {e: entailment, n: Neutral, c: contradiction}",
            "'label_aliases' entry 'n' names no label of the track",
            "'Neutral'",
        ),
        (
            "label_aliases: {e: entailment, n: neutral, c: contradiction, ' e': entailment}",
            "two of 'labels' and 'label_aliases' name one label once normalised",
            "'e' and ' e' name the same label once normalised",
        ),
    ],
)
def test_the_edition_is_refused_naming_file_track_and_key(tmp_path, new, message, found):
    old = "label_aliases: {e: entailment, n: neutral, c: contradiction}"
    config = _chaosnli_edition(tmp_path, old, new)
    with pytest.raises(ConfigError) as caught:
        load_edition(config)
    (problem,) = caught.value.problems
    assert problem.file == f"{config}: tracks[0] 'snli_soft'"
    assert problem.message == message and problem.found == found and problem.hint


def test_the_chaosnli_edition_declares_the_letters_its_importer_reads():
    """The importer reads the release's e, n, c with its own table; a submission's letters are read
    through the tracks' LabelSet: both name the same labels."""
    from codajudge.importers.chaosnli import NAMES

    for track in load_edition(REPO / "editions" / "chaosnli").tracks:
        assert dict(track.label_aliases) == NAMES, track.id


def test_an_alias_yaml_reads_as_a_number_is_refused_with_the_hint_to_quote_it():
    message = _refusal(labels=["low", "high"], label_aliases={1: "low", "2": "high"})
    assert (
        "'label_aliases' must map alias texts to labels" in message and "Quote an alias" in message
    )
