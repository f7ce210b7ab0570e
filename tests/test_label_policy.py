"""One label policy: every variant text of a label (spaces, case, number forms, JSON numbers) gets
the same verdict in every place a label is written (``judgekit.labels``)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from judgekit.errors import ConfigError
from judgekit.formats.annotators import parse_per_annotator
from judgekit.formats.soft import parse_soft
from judgekit.formats.values import ValueProblem, label_column, parse_label
from judgekit.gold import build_gold
from judgekit.tracks import track_from_dict

LABEL_SETS = (["entailment", "neutral", "contradiction"], ["1", "2", "3", "4", "5"], ["0", "1"])


def _tracks(labels):
    scale = "ordinal" if labels[0].isdigit() else "categorical"
    make = lambda kind, **more: track_from_dict(  # noqa: E731
        {"id": kind, "kind": kind, "labels": labels, **more}
    )
    return (
        make("classification"),
        make("soft_label", scale=scale),
        make("perspectivist", scale=scale),
    )


def _text_variants(label):
    out = [label, " " + label, label + " ", "\t" + label + "\t", label.upper(), label.title()]
    if label.isdigit():
        out += [label + ".0", label + "e0", " " + label + ".0", "+" + label]
    return out


def _classification(track, text):
    code = int(label_column([text], track.label_index())[0])
    try:
        return code if code >= 0 else parse_label(text, track, track.label_index())
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


def _gold_label(track, value):
    try:
        return int(build_gold(track, [{"id": "x", "label": value}], "gold").gold[0])
    except ConfigError:
        return None


def _gold_annotation(track, value):
    item = {"id": "x", "annotators": ["a"], "annotations": [value]}
    try:
        return int(build_gold(track, [item], "gold").gold.values[0])
    except ConfigError:
        return None


@pytest.mark.parametrize("labels", LABEL_SETS)
def test_every_place_gives_a_text_one_verdict(labels):
    classification, soft, perspectivist = _tracks(labels)
    for label in labels:
        for text in _text_variants(label):
            verdicts = {
                "classification value": _classification(classification, text),
                "soft-label key": _soft_key(soft, text),
                "perspectivist row": _row(perspectivist, text),
                "gold label": _gold_label(classification, text),
                "gold annotation": _gold_annotation(perspectivist, text),
            }
            assert len(set(verdicts.values())) == 1, (text, verdicts)


@pytest.mark.parametrize("labels", LABEL_SETS[1:])
def test_json_numbers_get_one_verdict_where_a_format_takes_them(labels):
    classification, _, perspectivist = _tracks(labels)
    for label in labels:
        for number in (int(label), float(label)):
            verdicts = {
                "perspectivist row": _row(perspectivist, number),
                "gold label": _gold_label(classification, number),
                "gold annotation": _gold_annotation(perspectivist, number),
            }
            assert set(verdicts.values()) == {labels.index(label)}, (number, verdicts)
