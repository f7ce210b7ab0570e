"""ChaosNLI's own prediction document (``codajudge/formats/chaosnli.py``): one file read for a
soft-label and a classification track, matched by name or by its uids, refused with the kit's
messages otherwise. The files are written here in the layout of the ChaosNLI repository's samples
(``data/prediction_samples/snli_random_baseline.json``: one JSON line, the uid repeated inside)."""

import codecs
import json
import os
import re
from dataclasses import replace
from pathlib import Path, PurePosixPath

import numpy as np
import pytest

from codajudge.errors import ConfigError, SubmissionError
from codajudge.formats.archive import find_track_files
from codajudge.formats.coverage import OtherPhases, id_hash
from codajudge.formats.submission import ItemKeys, read_prediction
from codajudge.tracks import track_from_dict, tracks_from_list

NLI = ["entailment", "neutral", "contradiction"]
#: The letters ChaosNLI writes, as the chaosnli edition declares them (``label_aliases``).
LETTERS = {"e": "entailment", "n": "neutral", "c": "contradiction"}
IDS = ["2407214681.jpg#0r1n", "4705552913.jpg#2r1c", "50830c", "97211e"]
SOFT = track_from_dict(
    {"id": "snli_soft", "kind": "soft_label", "scale": "categorical", "dataset": "snli",
     "labels": ["contradiction", "entailment", "neutral"], "metrics": ["jsd", "kl"],
     "files": ["snli*.json"]}
)  # fmt: skip
LABELS = track_from_dict(
    {"id": "snli_nli", "kind": "classification", "dataset": "snli", "labels": NLI,
     "label_aliases": LETTERS, "metrics": ["accuracy"], "files": ["snli*.json"]}
)  # fmt: skip


def records(ids=IDS, key="predicted_probabilities"):
    rng = np.random.default_rng(7)
    out = {}
    for uid in ids:
        probs = rng.dirichlet([1, 1, 1])
        value = np.log(probs).tolist() if key == "logits" else probs.tolist()
        out[uid] = {"uid": uid, key: value, "predicted_label": NLI[int(np.argmax(probs))]}
    return out


def write(path: Path, document, **dump) -> Path:
    path.write_text(json.dumps(document, **dump), encoding="utf-8")
    return path


def read(path: Path, track=SOFT, ids=IDS):
    return read_prediction(path, path.name, track, ItemKeys(ids))


def refusal(path: Path, track=SOFT, ids=IDS) -> str:
    with pytest.raises(SubmissionError) as e:
        read(path, track, ids)
    return str(e.value)


def test_one_file_gives_both_tracks_in_the_tracks_label_order(tmp_path):
    doc = records()
    path = write(tmp_path / "snli_random_baseline.json", {"random_baseline": doc})
    soft, labels = read(path), read(path, LABELS)
    order = [NLI.index(label) for label in SOFT.labels]  # the track's order from ChaosNLI's e, n, c
    for i, uid in enumerate(IDS):
        np.testing.assert_allclose(
            soft.values[i], np.array(doc[uid]["predicted_probabilities"])[order]
        )
        assert NLI[labels.values[i]] == doc[uid]["predicted_label"]
    assert soft.format == labels.format == "chaosnli"
    assert "ChaosNLI's own layout" in soft.warnings[0] and "'random_baseline'" in soft.warnings[0]


def test_letters_and_logits_are_read_as_the_script_reads_them(tmp_path):
    doc = records(key="logits")
    for uid, letter in zip(IDS, "encn"):
        doc[uid]["predicted_label"] = letter
    path = write(tmp_path / "snli.json", {"m": doc}, indent=2)  # pretty-printed, as json.dump can
    labels = read(path, LABELS)
    assert [NLI[v] for v in labels.values] == ["entailment", "neutral", "contradiction", "neutral"]
    soft = read(path)
    logits = np.array(doc[IDS[0]]["logits"])
    expected = np.exp(logits) / np.exp(logits).sum()  # the script's model_label_dist, no floor hit
    order = [NLI.index(label) for label in SOFT.labels]
    np.testing.assert_allclose(soft.values[0], expected[order], rtol=1e-12)


def test_an_incomplete_file_is_refused_naming_the_missing_items(tmp_path):
    path = write(tmp_path / "snli.json", {"m": records(IDS[:2])})
    message = refusal(path)
    assert "2 of the track's 4 items have no prediction (the file has 2 of them)" in message
    assert "'50830c', '97211e'" in message


#: The other phase's items of the snli part, and this phase's of the mnli part with its file.
EXTRA = ["3057845023.jpg#1r1e", "other#2"]
MNLI_IDS = ["63735n", "91383n", "134211e"]


def read_in_phase(path: Path, track=SOFT, ids=IDS):
    phases = {"evaluation": {"snli": list(map(id_hash, EXTRA))}}
    parts = {"mnli": (lambda: MNLI_IDS, "mnli_preds.json")}
    return read_prediction(
        path, path.name, track, ItemKeys(ids, elsewhere=OtherPhases(track, phases, parts))
    )


def test_a_document_of_more_items_than_the_phase_scores_is_read_on_its_items(tmp_path):
    """A whole ChaosNLI part where the phase scores part of it (chaosnli's evaluation leaves out
    its practice items): every item has a record, so the other phase's records are skipped, with
    a warning naming how many; a document that lacks one of the items is refused, naming the
    stray uids."""
    path = write(tmp_path / "snli.json", {"m": records(IDS + EXTRA)})
    soft, labels = read_in_phase(path), read_in_phase(path, LABELS)
    assert len(soft.values) == len(labels.values) == len(IDS)
    expected = read(write(tmp_path / "snli_only.json", {"m": records(IDS)}))
    np.testing.assert_allclose(soft.values, expected.values)
    warning = [w for w in soft.warnings if "skipped" in w]
    assert warning == [
        "the document holds more than the 4 items of part 'snli' that its tracks read here: 2 records of other phases' items "
        "(such as '3057845023.jpg#1r1e') were skipped"
    ]
    lacking = write(tmp_path / "snli_lacking.json", {"m": records(IDS[1:] + EXTRA)})
    message = refusal(lacking)
    assert "unknown id" in message and "3057845023.jpg#1r1e" in message


def test_a_uid_of_no_phase_of_the_part_is_refused_naming_the_part_it_is_of(tmp_path):
    """A record of no item of any phase of the track's part is refused, not skipped, even beside
    a record for every item: one of no part (an alphaNLI uid) with the ids the track has, one of
    another part's items with that part and its file."""
    alien = "5e5d1b1f-0b8a-4b8a-9d2f-1a2b3c4d5e6f-1"
    refusals = []
    for stray in (alien, MNLI_IDS[0]):
        path = write(tmp_path / "snli.json", {"m": records(IDS + EXTRA + [stray])})
        with pytest.raises(SubmissionError) as e:
            read_in_phase(path)
        refusals.append(str(e.value))
    assert refusals == [
        f"snli.json, item '{alien}': unknown id: not an item of this track. Ids look like "
        "'2407214681.jpg#0r1n'",
        "snli.json, item '63735n': unknown id: not an item of this track. That uid is an item of "
        "part 'mnli', not of this one: write its record in mnli_preds.json (or one document "
        "holding every item of both parts)",
    ]


@pytest.mark.parametrize("parts", [{"mnli": (lambda: MNLI_IDS, "snli_x.json")}, {}])
def test_a_document_of_the_other_parts_records_is_told_that_parts_file_names(tmp_path, parts):
    """snli_x.json holding MNLI's records only, read for MNLI's tracks too (no other file gives
    them) or for no track of that part: the hint names the file names of MNLI's tracks, never
    snli_x.json itself."""
    path = write(tmp_path / "snli_x.json", {"m": records(MNLI_IDS)})
    phases = {"evaluation": {"mnli": list(map(id_hash, MNLI_IDS))}}
    keys = ItemKeys(IDS, elsewhere=OtherPhases(SOFT, phases, parts), tracks=TRACKS)
    with pytest.raises(SubmissionError) as e:
        read_prediction(path, path.name, SOFT, keys)
    assert (
        str(e.value)
        .splitlines()[0]
        .endswith(
            "That uid is an item of part 'mnli', not of this one: write its record in a file named "
            "for that part's tracks (mnli_soft.tsv or mnli*.json or mnli_nli.tsv, any case; * stands "
            "for any text), not snli_x.json (or one document holding every item of both parts)"
        )
    )


def test_one_document_of_both_parts_is_read_by_each_parts_tracks(tmp_path):
    """ChaosNLI's own model_predictions_for_snli_mnli.json: one document of every item of both
    parts is each part's file, found by its uids or under either part's name, and read on each
    part's items, with a note naming the other part's records."""
    doc = records(IDS + MNLI_IDS)
    path = write(tmp_path / "snli.json", {"m": doc})
    soft = read_in_phase(path)
    np.testing.assert_allclose(
        soft.values, read(write(tmp_path / "s.json", {"m": records(IDS)})).values
    )
    assert (
        "the document holds more than the 4 items of part 'snli' that its tracks read here: its "
        "records of part 'mnli' are read for that part's tracks" in soft.warnings
    )
    for name in ("model_predictions_for_snli_mnli.json", "snli_mnli_preds.json"):
        folder = tmp_path / name.split(".")[0]
        folder.mkdir()
        write(folder / name, {"m": doc})
        claimed, left = located(folder)
        assert claimed == dict.fromkeys(
            ["snli_soft", "snli_nli", "mnli_soft", "mnli_nli"], PurePosixPath(name)
        )
        assert left == []


def test_a_whole_part_is_read_within_the_bounds_of_every_phases_items(tmp_path):
    """ChaosNLI publishes a part whole (its practice and evaluation items): a phase of 4 items
    reads a document of 44 (more entries than 4 items' predictions can hold) when the other phase
    has the 40 others, and finds it by its uids; the evaluation phase is named only for a document
    of its uids alone, never for the whole part."""
    others = [f"{i}.jpg#0r1n" for i in range(40)]
    phases = {"evaluation": {"snli": [id_hash(uid) for uid in others]}}
    keys = ItemKeys(IDS, elsewhere=OtherPhases(SOFT, phases))
    path = write(tmp_path / "snli.json", {"random_baseline": records(IDS + others)})
    assert "holds more entries" in refusal(path)  # without the other phase's items
    assert read_prediction(path, "snli.json", SOFT, keys).values.shape == (4, 3)
    path.rename(tmp_path / "predictions.json")
    found = find_track_files(tmp_path, TRACKS, IDS_OF, phases)
    assert found.files["snli_soft"] == PurePosixPath("predictions.json")
    wrong = records(IDS + others)
    wrong[IDS[0]]["predicted_label"] = "x"
    path = write(tmp_path / "snli.json", {"m": wrong})
    with pytest.raises(SubmissionError) as e:
        read_prediction(path, "snli.json", LABELS, keys)
    assert "outside the track's label set" in str(e.value) and "evaluation" not in str(e.value)
    path = write(tmp_path / "snli.json", {"m": records(others)})
    with pytest.raises(SubmissionError, match="uids of the evaluation phase|ids of the evaluation"):
        read_prediction(path, "snli.json", SOFT, keys)


def test_invalid_json_is_refused_with_its_line_column_and_the_text_there(tmp_path):
    """A trailing comma deep in a document: the parser's line and column and the text before it,
    not the document's first characters."""
    text = json.dumps({"m": records()})
    path = tmp_path / "snli.json"
    path.write_text(text[:-2] + ",}}", encoding="utf-8")
    column = len(text)
    assert (
        "snli.json: not valid JSON (Expecting property name enclosed in double quotes, at line 1, "
        f'column {column}); expected {{"my_model"'
    ) in refusal(path)
    assert refusal(path).endswith(f"found {'...' + text[-2 - 29 : -2] + ',}}'!r}")
    pretty = json.dumps({"m": records()}, indent=2)
    path.write_text(pretty[:-2] + ",\n}\n}", encoding="utf-8")
    assert f"at line {pretty.count(chr(10)) + 1}, column 1)" in refusal(path)


SOFT_LETTERS = replace(SOFT, label_aliases=tuple(LETTERS.items()))


def test_probabilities_by_label_are_read_as_a_files_soft_label_object(tmp_path):
    """``predicted_probabilities`` as an object label -> probability (full names, or ChaosNLI's
    letters where the track declares them) is read as a file of lines reads it; a missing or
    misspelt key is named."""
    doc = records()
    expected = read(write(tmp_path / "snli_list.json", {"m": doc})).values
    lists = {uid: record["predicted_probabilities"] for uid, record in doc.items()}
    for keys in (NLI, "enc"):
        for uid, record in doc.items():
            record["predicted_probabilities"] = dict(zip(keys, lists[uid]))
        path = write(tmp_path / "snli.json", {"m": doc})
        np.testing.assert_allclose(read(path, SOFT_LETTERS).values, expected)
    doc[IDS[0]]["predicted_probabilities"] = {"e": 0.5, "n": 0.2}
    message = refusal(write(tmp_path / "snli.json", {"m": doc}), SOFT_LETTERS)
    assert "item '2407214681.jpg#0r1n': soft label does not sum to 1" in message
    assert "found sum 0.7. The object has no key 'contradiction' (read as 0)" in message
    doc[IDS[0]]["predicted_probabilities"] = dict(zip(NLI[:2] + ["contradicton"], [0.5, 0.2, 0.3]))
    message = refusal(write(tmp_path / "snli.json", {"m": doc}), SOFT_LETTERS)
    assert "item '2407214681.jpg#0r1n': soft label names an unknown label" in message
    assert "found 'contradicton'. The object has no key 'contradiction'" in message


@pytest.mark.parametrize(
    "change, expected",
    [
        (lambda d: d.update({"m2": d["m"]}), "must hold one model; expected {model_name"),
        (lambda d: d["m"].update({"zzz": d["m"].pop(IDS[0])}), "item 'zzz': unknown id"),
        (
            lambda d: d["m"][IDS[1]].update(uid="other"),
            "not its key; expected '4705552913.jpg#2r1c', found 'other'. Key each record by its "
            "own uid, {uid: {\"uid\": uid, ...}}, or leave 'uid' out",
        ),
        (
            lambda d: d["m"][IDS[1]].update(predicted_probabilities=[0.5, 0.6, 0.1]),
            "soft label does not sum to 1; expected a sum within 0.02 of 1, found sum 1.2",
        ),
        (
            lambda d: d["m"][IDS[1]].update(predicted_probabilities=[0.5, 0.5]),
            "wrong soft label length; expected a list of 3 probabilities, found 2 values",
        ),
        (
            lambda d: d["m"][IDS[1]].pop("predicted_probabilities"),
            "the prediction has no probabilities; expected a key 'predicted_probabilities' (or "
            "'logits') with 3 values for e, n, c, found keys uid, predicted_label. Give each record "
            "its probabilities, 'predicted_probabilities': [pE, pN, pC], or a model's raw scores "
            "as 'logits': [lE, lN, lC] (read through a softmax)",
        ),
        (lambda d: d["m"][IDS[2]].update(logits=[1, "x", 2]), "'logits' must be 3 numbers"),
        (
            lambda d: d.update(m={str(k): record for k, record in enumerate(d["m"].values())}),
            "items '0', '1', '2', '3'). The record under '0' holds the uid '2407214681.jpg#0r1n', "
            "an id of the track: key each record by its uid, not its row number: json.dump(",
        ),
    ],
    ids=["two_models", "unknown_uid", "uid_mismatch", "sum", "length", "none", "logits", "rows"],
)
def test_a_broken_document_is_refused_with_the_kits_messages(tmp_path, change, expected):
    doc = {"m": records()}
    doc["m"][IDS[2]]["logits"] = doc["m"][IDS[2]]["predicted_probabilities"]
    change(doc)
    if "logits" in expected:
        doc["m"][IDS[2]].pop("predicted_probabilities")
    message = refusal(write(tmp_path / "snli.json", doc))
    assert expected in message, message
    assert "Traceback" not in message


def test_a_label_that_is_not_e_n_or_c_is_refused_as_in_a_file_of_lines(tmp_path):
    doc = {"m": records()}
    doc["m"][IDS[3]]["predicted_label"] = "E"
    del doc["m"][IDS[0]]["predicted_label"]
    message = refusal(write(tmp_path / "snli.json", doc), LABELS)
    lines = "".join(f"{uid}\t{'E' if uid == IDS[3] else 'e'}\n" for uid in IDS)
    (tmp_path / "snli.tsv").write_text(lines, encoding="utf-8")
    same = refusal(tmp_path / "snli.tsv", LABELS).split(", line 4, ")[1]
    assert "found 'E'. Labels are matched exactly: write 'e'" in same
    assert same in message
    assert "item '2407214681.jpg#0r1n': the prediction has no label e, n or c" in message


def test_a_document_without_labels_is_told_both_fixes_and_each_is_read(tmp_path):
    """A document of probabilities alone is still refused for the classification track (ChaosNLI's
    script requires predicted_label), told to add the label of the highest probability or to name
    the document as the soft-label track's file, read for that track only; each fix is read."""
    doc = {"m": {uid: {"predicted_probabilities": r["predicted_probabilities"]}
                 for uid, r in records().items()}}  # fmt: skip
    path = write(tmp_path / "snli.json", doc)
    with pytest.raises(SubmissionError) as e:
        read_prediction(path, path.name, LABELS, ItemKeys(IDS, tracks=[SOFT, LABELS]))
    message = str(e.value)
    assert "the prediction has no label e, n or c, on 4 items" in message
    added = re.search(r"highest probability: (.*?) \(or of its 'logits'\)", message).group(1)
    for record in doc["m"].values():
        record["predicted_label"] = eval(added, {"np": np, "r": record})  # noqa: S307
    expected = {uid: r["predicted_label"] for uid, r in records().items()}
    labels = read(write(tmp_path / "snli.json", doc), LABELS).values
    assert [NLI[code] for code in labels] == [expected[uid] for uid in IDS]
    renamed = re.search(r"rename snli\.json (\S+) \(track 'snli_soft'\)", message).group(1)
    assert renamed == "snli_soft.tsv" and renamed not in LABELS.file_names
    for record in doc["m"].values():
        del record["predicted_label"]
    assert read(write(tmp_path / renamed, doc), SOFT).values.shape == (4, 3)


def test_a_document_of_no_item_of_the_track_is_not_also_told_every_item_is_missing(tmp_path):
    """SNLI's records in mnli_preds.json were refused as unknown ids, then again as "2 of the
    track's 2 items have no prediction"; a document holding some of the items still names the
    items it lacks."""
    path = write(tmp_path / "mnli_preds.json", {"m": records(IDS[:2])})
    message = refusal(path, LABELS, ["50830c", "97211e"])
    assert "unknown id: not an item of this track, on 2 items" in message
    assert "no prediction" not in message
    message = refusal(write(path, {"m": records(IDS[1:3])}), LABELS, ["50830c", "97211e"])
    assert (
        "1 of the track's 2 items has no prediction (the file has 1 of them): '97211e'" in message
    )


def test_nan_and_a_track_the_layout_does_not_fit_are_refused(tmp_path):
    text = json.dumps({"m": records()}).replace("0.", "NaN, 0.", 1)
    path = tmp_path / "snli.json"
    path.write_text(text, encoding="utf-8")
    assert (
        f"snli.json, item {IDS[0]!r}: not a finite number; expected finite numbers, found NaN. "
        "Predict a finite number for every item (the model's output holds NaN or infinity)"
        in refusal(path)
    )
    doc = records()
    doc[IDS[2]]["predicted_probabilities"] = {"entailment": 0.5, "neutral": 0.5, "contradiction": 0}
    text = json.dumps({"m": doc}, indent=2).replace(
        '"contradiction": 0', '"contradiction": -Infinity'
    )
    path.write_text(text.replace('"predicted_label": "', '"predicted_label": 1e999, "x": "', 1))
    assert refusal(path).startswith(f"snli.json, item {IDS[0]!r}: number out of range")
    path.write_text(text, encoding="utf-8")
    assert refusal(path).startswith(f"snli.json, item {IDS[2]!r}: not a finite number")
    other = track_from_dict(
        {"id": "t", "kind": "classification", "labels": ["yes", "no"], "files": ["x*.json"]}
    )
    message = refusal(write(tmp_path / "x.json", {"m": records()}), other)
    assert "ChaosNLI's layout does not apply to this track" in message


def test_a_document_that_is_not_utf8_is_refused_naming_the_byte_after_its_bom(tmp_path):
    """The offset counts the BOM's 3 bytes: the byte named is the one that does not decode."""
    text = json.dumps({"m": records()}, indent=1).replace(IDS[0], "caf\u00e9")
    path = tmp_path / "snli_x.json"
    path.write_bytes(codecs.BOM_UTF8 + text.encode("latin-1"))
    at = path.read_bytes().index(b"\xe9")
    message = refusal(path)
    assert (
        f"line 3: file is not UTF-8 text; expected UTF-8, found byte 0xe9 at offset {at}" in message
    )


@pytest.mark.parametrize(
    "shape, found, fix",
    [
        (lambda doc: doc, "found uid -> record, without the model's name", '{"my_model": records}'),
        (
            lambda doc: {"m": list(doc.values())},
            "found a JSON array of records",
            'r["uid"]: r for r',
        ),
        (
            lambda doc: list(doc.values()),
            "found one record a line (JSON lines) of 3 keys",
            'one document: json.dump({"my_model": {r["uid"]: r for r in records}}, f); or write '
            'one line per item, the id under "id" and one value: {"id": r["uid"], ',
        ),
        (lambda doc: [list(doc.values())], "found a JSON array of records", "r["),
    ],
    ids=["no_model", "list", "json_lines", "one_line_array"],
)
def test_chaosnli_records_in_another_shape_are_told_its_layout(tmp_path, shape, found, fix):
    """ChaosNLI's records without the model's name, as a list, or one a line: the layout and how
    to wrap them, not a JSON line's fix."""
    value = shape(records())
    lines = value if isinstance(value, list) else [value]
    path = tmp_path / "snli.json"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    message = refusal(path, LABELS)
    assert "ChaosNLI records not in ChaosNLI's layout" in message
    assert 'expected one document {"my_model": {uid: {' in message
    assert found in message and fix in message and "to_json" not in message


@pytest.mark.parametrize(
    "keys",
    [
        ("uid", "label_dist"),
        ("id", "predicted_probabilities", "predicted_label"),
        ("uid", "logits"),
    ],
)
def test_json_lines_of_records_are_told_a_fix_of_their_own_keys_that_is_read(tmp_path, keys):
    """The fix of ChaosNLI's records written one a line is built from their own keys: r["uid"] of
    records keyed "id" was a KeyError, and a document of records of "label_dist" was refused again
    (no probabilities); each fix the hint writes, applied to the records, is read."""
    soft = replace(SOFT, labels=tuple(NLI))  # ChaosNLI's order: the lines' lists are read in it
    lines = []
    for uid, record in records().items():
        given = {"id": uid, "label_dist": record["predicted_probabilities"], **record}
        lines.append({key: given.get(key, given["label_dist"]) for key in keys})
    path = tmp_path / "snli_soft.tsv"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    message = refusal(path, soft)
    assert f"found one record a line (JSON lines) of {len(keys)} keys: {', '.join(keys)}" in message
    fixes = re.findall(r'\{"id": r\[[^}]*\}', message)
    fixes += re.findall(r"json\.dump\((.*?), f\)", message)
    assert len(fixes) == 1 + ("predicted_label" in keys)  # the line of a value the track reads
    for fix in fixes:
        if fix.startswith('{"my_model"'):  # one document
            text, track = json.dumps(eval(fix, {"records": lines})), soft  # noqa: S307
        else:
            text = "".join(json.dumps(eval(fix, {"r": r})) + "\n" for r in lines)  # noqa: S307
            track = LABELS if "predicted_label" in fix else soft
        path.write_text(text, encoding="utf-8")
        assert read(path, track).values is not None, fix


@pytest.mark.parametrize(
    "extra, soft, named",
    [
        ({"model": "x", "label": "neutral"}, True, "probs"),  # uid_extra.zip of the trials
        ({"conf": 0.87}, False, "pred"),
        ({"pred": "neutral", "model": "x"}, True, "probs"),
    ],
)
def test_json_lines_of_records_are_told_only_the_keys_whose_values_the_track_reads(
    tmp_path, extra, soft, named
):
    """Records {uid, probs, model, label} on the soft track were told {"id": r["uid"], "probs":
    ...} or {"id": r["uid"], "model": ...}, "model" a string no track reads, and {uid, pred, conf}
    on the label track "pred" or "conf", a float: the lines offered are of the keys whose values the
    track reads, one named alone when one fits."""
    track = replace(SOFT, labels=tuple(NLI)) if soft else LABELS
    lines = []
    for uid, record in records().items():
        value = record["predicted_probabilities"] if soft else "neutral"
        lines.append({"uid": uid, "probs" if soft else "pred": value, **extra})
    path = tmp_path / "snli_x.tsv"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    message = refusal(path, track)
    fixes = re.findall(r'\{"id": r\[[^}]*\}', message)
    assert fixes == [f'{{"id": r["uid"], "{named}": r["{named}"]}}']
    assert "the one the track reads" not in message


def test_a_record_that_is_a_list_is_told_to_be_an_object(tmp_path):
    """{model: {uid: [pE, pN, pC]}}, one line or pretty-printed: the uid named and the keys a
    record must have, not a JSON line's fix."""
    document = {"m": {uid: record["predicted_probabilities"] for uid, record in records().items()}}
    for indent in (None, 2):
        message = refusal(write(tmp_path / "snli.json", document, indent=indent))
        assert "a ChaosNLI record must be an object; expected one document" in message
        assert f"found the record of uid {IDS[0]!r} is a list, '[0." in message
        assert (
            "as an object with 'predicted_probabilities' (or 'logits') and 'predicted_label'"
            in message
        )


@pytest.mark.parametrize(
    "shape, found",
    [
        (lambda doc: doc, "found uid -> record, without the model's name"),
        (lambda doc: {"m": list(doc.values())}, "found a JSON array of records"),
        (lambda doc: list(doc.values()), "found a JSON array of records"),
    ],
    ids=["no_model", "list", "own_list"],
)
def test_pretty_printed_chaosnli_records_in_another_shape_are_told_its_layout(
    tmp_path, shape, found
):
    """Indented, such a document was refused as pretty-printed JSON with pandas' JSON-lines fix."""
    message = refusal(write(tmp_path / "snli.json", shape(records()), indent=2), LABELS)
    assert message.startswith("snli.json: ChaosNLI records not in ChaosNLI's layout; expected")
    assert found in message and "to_json" not in message


def test_a_json_lines_file_is_not_taken_for_a_chaosnli_document(tmp_path):
    """CLUE's JSON lines open with an object whose values are not objects: the usual reader."""
    path = tmp_path / "snli_nli.json"
    path.write_text("".join(json.dumps({"id": i, "label": "neutral"}) + "\n" for i in IDS))
    assert read(path, LABELS).format == "id"


# --- matching a file to its tracks -------------------------------------------------------------

TRACKS = tracks_from_list(
    [
        SOFT.to_dict(),
        LABELS.to_dict(),
        {"id": "mnli_soft", "kind": "soft_label", "scale": "categorical", "dataset": "mnli",
         "labels": NLI, "metrics": ["jsd"], "files": ["mnli*.json"]},
        {"id": "mnli_nli", "kind": "classification", "dataset": "mnli", "labels": NLI,
         "label_aliases": LETTERS, "files": ["mnli*.json"]},
    ]
)  # fmt: skip
IDS_OF = {"snli": IDS, "mnli": MNLI_IDS}.get


def located(folder: Path):
    found = find_track_files(folder, TRACKS, IDS_OF)
    return found.files, found.unclaimed


def test_a_part_is_found_by_name_else_by_its_uids(tmp_path):
    write(tmp_path / "SNLI_roberta.json", {"m": records()})
    write(tmp_path / "predictions.json", {"m": records(MNLI_IDS[:2])})  # incomplete: still mnli's
    claimed, left = located(tmp_path)
    assert claimed == {
        "snli_soft": PurePosixPath("SNLI_roberta.json"),
        "snli_nli": PurePosixPath("SNLI_roberta.json"),
        "mnli_soft": PurePosixPath("predictions.json"),
        "mnli_nli": PurePosixPath("predictions.json"),
    }
    assert left == []


def test_a_document_for_a_part_already_given_is_refused_and_others_are_left(tmp_path):
    write(tmp_path / "notes.json", {"a": 1})
    write(tmp_path / "other.json", {"m": {"x1": {"predicted_label": "e"}}})
    claimed, left = located(tmp_path)
    assert claimed == {} and sorted(left) == ["notes.json", "other.json"]
    write(tmp_path / "snli_a.json", {"m": records()})
    write(tmp_path / "b.json", {"m": records()})
    with pytest.raises(
        SubmissionError,
        match=r"tracks 'snli_soft', 'snli_nli' \(2\) are given by more than one file",
    ):
        located(tmp_path)


@pytest.mark.parametrize(
    "other, ids, refused",
    [
        ("mnli_soft.tsv", MNLI_IDS, "mnli_soft.tsv, snli_all.json: track 'mnli_soft' is"),
        ("mnli_nli.tsv", MNLI_IDS, "mnli_nli.tsv, snli_all.json: track 'mnli_nli' is"),
        (
            "mnli_y.json",
            MNLI_IDS,
            "mnli_y.json, snli_all.json: tracks 'mnli_soft', 'mnli_nli' (2) are",
        ),
        (
            "mnli_a.json",
            IDS + MNLI_IDS,
            "snli_all.json, mnli_a.json: tracks 'snli_soft', 'snli_nli' (2) are",
        ),
    ],
)
def test_a_document_of_both_parts_beside_another_file_of_a_part_is_refused_naming_both(
    tmp_path, other, ids, refused
):
    """A document of every item of both parts is the file of each part's tracks, whatever its
    name: another file for one of those tracks (a .tsv, a part's document, another document of
    both parts) gives that track two files, never one of them read silently."""
    write(tmp_path / "snli_all.json", {"m": records(IDS + MNLI_IDS)})
    write(tmp_path / other, {"m": records(ids)})
    with pytest.raises(SubmissionError) as e:
        located(tmp_path)
    assert str(e.value).startswith(f"{refused} given by more than one file")
    part = refused.split("'")[1].split("_")[0]  # the part of the track given twice
    assert f"holds every item of part '{part}', so it is that part's file too" in str(e.value)


@pytest.mark.parametrize("name", ["model_predictions_for_snli_mnli.json", "snli_x.json"])
@pytest.mark.parametrize("models", [2, 8])
def test_a_document_of_several_models_is_refused_as_such_whatever_its_name(tmp_path, name, models):
    """ChaosNLI's own model_predictions_for_snli_mnli.json holds several models' records of every
    item of both parts (more entries than one model's may): named for no track or for one, it is
    refused naming its models and how to keep one, not as a file of no track or a large one."""
    names = [f"model-{i}" for i in range(models)]
    write(tmp_path / name, dict.fromkeys(names, records(IDS + MNLI_IDS)))
    with pytest.raises(SubmissionError) as e:
        located(tmp_path)
    shown = ", ".join(map(repr, names[:5]))
    assert str(e.value) == (
        f"{name}: a ChaosNLI prediction file must hold one model; expected {{model_name: {{uid: "
        f"{{...}}}}}} with one model name, found {models} models: {shown}. Keep one model in the "
        "file, as json.dump({'model-0': document['model-0']}, f) does; submit each other one on "
        "its own"
    )


@pytest.mark.parametrize("names", [("snli_preds.json", "mnli_preds.json"), ("a.json", "b.json")])
def test_every_document_of_several_models_is_named(tmp_path, names):
    """Two documents of several models, each a part's (named for its tracks or not): both are
    named, as other refusals of several files are, not the first one alone."""
    for name, ids in zip(names, (IDS, MNLI_IDS)):
        write(tmp_path / name, dict.fromkeys(["roberta-large", "bert-base"], records(ids)))
    with pytest.raises(SubmissionError) as e:
        located(tmp_path)
    lines = str(e.value).splitlines()
    assert lines[0] == "2 files have problems; each file's first ones are shown:"
    one_model = ": a ChaosNLI prediction file must hold one model; "
    assert sorted(line.partition(one_model)[0] for line in lines[1:]) == sorted(names)


def test_a_link_is_never_opened_to_match_it(tmp_path):
    target = write(tmp_path / "outside.json", {"m": records()})
    folder = tmp_path / "sub"
    folder.mkdir()
    os.symlink(target, folder / "preds.json")
    claimed, left = located(folder)
    assert claimed == {} and left == ["preds.json"]


def test_tracks_of_one_dataset_may_share_a_document_s_name_and_no_others():
    """Tracks of one dataset share a ChaosNLI document's name whatever their kinds (two soft-label
    tracks of two metrics read the same probabilities: the trial's snli_kl beside snli_soft and
    snli_nli); tracks of two datasets never do."""
    assert [t.id for t in TRACKS] == ["snli_soft", "snli_nli", "mnli_soft", "mnli_nli"]
    tracks_from_list([SOFT.to_dict(), LABELS.to_dict(), dict(SOFT.to_dict(), id="snli_kl")])
    with pytest.raises(ConfigError, match="is claimed by tracks"):
        tracks_from_list([SOFT.to_dict(), dict(LABELS.to_dict(), dataset="mnli")])


def test_probabilities_given_as_a_string_are_named_a_string_not_a_wrong_length(tmp_path):
    """z_doc_probs_str: "predicted_probabilities": "[0.2, 0.3, 0.5]" (str(list) written) was
    refused as "wrong soft label length", which sends the participant counting values."""
    doc = records()
    for record in doc.values():
        record["predicted_probabilities"] = str(record["predicted_probabilities"])
    message = refusal(write(tmp_path / "snli.json", {"m": doc}))
    assert "soft label is a string where a list is expected, on 4 items" in message, message
    assert message.endswith(
        'Give the list itself, not its text: [0.2, 0.3, 0.5], not "[0.2, 0.3, 0.5]"'
    )
