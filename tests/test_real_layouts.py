"""Layouts that real third-party writers produce, as small synthetic files on synthetic tracks.

Each test names the writer whose layout it reproduces (the files themselves are not shipped):
GLUE's submission files and Hugging Face's run_glue.py (``index<TAB>prediction``), Hugging Face
datasets (an ``idx`` column), the LeWiDi 2025 releases' own ``soft_label`` objects (MP dev keys
``"0.0"``/``"1.0"``, VariErrNLI's ``{"0": ..., "1": ...}`` per label), and LeWiDi 2025 participants'
files as they were submitted to Codabench.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import lewidi_official as official
from codajudge.bundle.edition import load_edition
from codajudge.errors import ConfigError, SubmissionError
from codajudge.formats.archive import locate_track_files
from codajudge.formats.textfile import shorten
from codajudge.gold import build_gold
from codajudge.metrics import get
from codajudge.scoring import read_track_file
from codajudge.tracks import track_from_dict

STS = track_from_dict({"id": "en_en", "kind": "similarity", "dataset": "sts"})
NLI = track_from_dict(
    {
        "id": "nli",
        "kind": "classification",
        "dataset": "nli",
        "labels": ["entailment", "neutral", "contradiction"],
    }
)
MP_SOFT = track_from_dict(
    {
        "id": "mp_soft",
        "kind": "soft_label",
        "scale": "categorical",
        "dataset": "mp",
        "labels": ["0", "1"],
    }
)
MP_PE = track_from_dict(
    {
        "id": "mp_pe",
        "kind": "perspectivist",
        "scale": "categorical",
        "dataset": "mp",
        "labels": ["0", "1"],
    }
)
PAR_SOFT = track_from_dict(
    {
        "id": "par_soft",
        "kind": "soft_label",
        "scale": "ordinal",
        "dataset": "par",
        "labels": [str(k) for k in range(-5, 6)],
    }
)
VEN = ["contradiction", "entailment", "neutral"]
VEN_SOFT = track_from_dict(
    {"id": "ven_soft", "kind": "soft_label", "scale": "multilabel", "dataset": "ven", "labels": VEN}
)
VEN_PE = track_from_dict(
    {
        "id": "ven_pe",
        "kind": "perspectivist",
        "scale": "multilabel",
        "dataset": "ven",
        "labels": VEN,
    }
)
#: STS ids are numbers, as in the SemEval-2017 test files ("0".."249")
STS_SCORES = [0.0, 1.2, 2.4, 3.6, 4.8, 5.0, 0.6, 3.0]
STS_ITEMS = [{"id": str(k), "texts": ["a", "b"], "score": s} for k, s in enumerate(STS_SCORES)]
NLI_ITEMS = [{"id": str(k), "texts": ["a", "b"], "label": NLI.labels[k % 3]} for k in range(7)]
MP_ITEMS = [
    {
        "id": str(10 * k + 3),
        "texts": ["a", "b"],
        "annotators": ["Ann0", "Ann7", "Ann9"],
        "annotations": ["0", "1", str(k % 2)],
    }
    for k in range(5)
]
VEN_ITEMS = [
    {
        "id": f"4980{k}",
        "texts": ["a", "b"],
        "annotators": ["Ann1", "Ann2", "Ann3"],
        "annotations": [["contradiction"], ["contradiction", "neutral"], [VEN[k % 3]]],
    }
    for k in range(4)
]


def read(track, items, text: str, tmp_path: Path, name: str = "f.tsv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return read_track_file(path, name, build_gold(track, items, "gold"))


# --- a header line as GLUE and Hugging Face write it ---------------------------------------------


@pytest.mark.parametrize("id_column", ["index", "idx", "Index"])
def test_similarity_file_with_a_glue_header_is_read_by_id(id_column, tmp_path):
    """run_glue.py's predict_results_stsb.txt: ``index<TAB>prediction``, then ``%3.3f`` scores. Without
    the rule the header made the file one line too long for the positional reading, and was refused."""
    predicted = [4.1, 0.3, 2.2, 3.9, 4.4, 4.9, 1.0, 2.5]
    text = f"{id_column}\tprediction\n" + "".join(
        f"{k}\t{p:3.3f}\n" for k, p in enumerate(predicted)
    )
    prediction = read(STS, STS_ITEMS, text, tmp_path)
    assert prediction.format == "id"
    assert np.array_equal(prediction.values, predicted)
    assert prediction.warnings == ["the first line was read as a header and skipped"]


@pytest.mark.parametrize(
    "first, dev", [("{k} ", False), ("{k}\t", True), ("{line} ", True), ("{line}\t", True)]
)
def test_ids_or_line_numbers_before_the_scores_are_refused_not_read_positionally(
    first, dev, tmp_path
):
    """``f"{id} {score}"`` (a space, not a tab) or ``f"{k}\t{score}"`` with k from enumerate() where the
    ids are not line numbers: two numbers a line, so positional by shape, which took each id or line
    number for a score and the score for a confidence (on the 2017 en-en test, Pearson r 0.07 for a
    0.91 system, without a word). A column of whole numbers, each once, up to 7 holds no 0-5 scores."""
    items = [dict(item, id=f"dev-{item['id']}") for item in STS_ITEMS] if dev else STS_ITEMS
    text = "".join(
        first.format(k=k, line=k + 1) + f"{p}\n" for k, p in reversed(list(enumerate(STS_SCORES)))
    )
    with pytest.raises(SubmissionError) as error:
        read(STS, items, text, tmp_path, "en_en.tsv")
    top, shown = (8, first.format(line=8)) if "line" in first else (7, first.format(k=7))
    if "\t" in first:  # ID<TAB>SCORE lines of unknown ids: refused as ids, not as scores
        hint = (
            "These are the track's ids without their prefix 'dev-' ('7' for 'dev-7'): write the ids "
            "as the input file gives them (its 'id' field)"
            if "k" in first
            else "The first column holds whole numbers (line numbers, ranks), not the track's ids; "
            "write one line per item: its id (the 'id' field of the input file), a tab and its "
            "value, as in 'dev-0'<TAB>3.2"
        )
        assert str(error.value) == (
            "en_en.tsv: none of the ids in this file belong to the track; expected lines such as "
            f"'dev-0'<TAB>3.2, found ids such as {str(top)!r} on line 1. {hint}"
        )
        return
    assert str(error.value) == (
        f"en_en.tsv: the first column holds whole numbers, each once, up to {top}: item ids or line numbers, not "
        f"scores; expected ID<TAB>SCORE lines with the track's ids (such as {items[0]['id']!r}<TAB>3.2) or one "
        f"score per line in input order, found lines such as {shown + '3.0'!r}. Write each item's id (the 'id' "
        "field of the input file) and a tab before its score"
    )


def test_scores_and_confidences_are_still_positional(tmp_path):
    """The SemEval layout with a confidence column, space-separated: its first column is 0-5 scores."""
    text = "".join(f"{p} {k * 10}\n" for k, p in enumerate(STS_SCORES))
    prediction = read(STS, STS_ITEMS, text, tmp_path)
    assert prediction.format == "positional" and prediction.values.tolist() == STS_SCORES


@pytest.mark.parametrize(
    "header", ["score", "prediction\tconfidence", "predicted_score", "Predicted Score"]
)
def test_a_positional_file_with_a_header_line_is_read_after_it(header, tmp_path):
    """``df[["score"]].to_csv(path, index=False)``: a line of column names, then one score per pair. It
    was refused as one line too many for the positional format."""
    scores = "".join(f"{p}\t80\n" if "\t" in header else f"{p}\n" for p in STS_SCORES)
    prediction = read(STS, STS_ITEMS, f"{header}\n{scores}", tmp_path)
    assert prediction.format == "positional" and prediction.values.tolist() == STS_SCORES
    assert prediction.warnings == ["the first line was read as a header and skipped"]


@pytest.mark.parametrize("first", ["nan", "score"])
def test_a_first_word_is_no_header_when_the_file_has_a_line_per_item(first, tmp_path):
    """A word on the first line of a file with as many lines as items is that item's score (a NaN from
    the model, a stray word), refused at its line; skipping it would shift every score by one."""
    text = f"{first}\n" + "".join(f"{p}\n" for p in STS_SCORES[1:])
    with pytest.raises(SubmissionError) as error:
        read(STS, STS_ITEMS, text, tmp_path)
    problem = {
        "nan": "not a finite number; expected finite numbers, found 'nan'. Predict a finite number "
        "for every item (the model's output holds NaN or infinity)",
        "score": "not a number; expected a decimal number such as 3.2, found 'score'",
    }[first]
    assert str(error.value) == f"f.tsv, line 1, item '0': {problem}"


def test_a_glue_header_over_row_numbers_is_refused_as_row_numbers(tmp_path):
    """``index<TAB>prediction`` over row numbers where the ids are not row numbers: after the header the
    first column is 0..7, refused as no ids of the track (it was "one line too many", which hid the cause)."""
    items = [dict(item, id=f"dev-{item['id']}") for item in STS_ITEMS]
    text = "index\tprediction\n" + "".join(f"{k}\t{p}\n" for k, p in enumerate(STS_SCORES))
    with pytest.raises(SubmissionError) as error:
        read(STS, items, text, tmp_path)
    assert str(error.value).startswith(
        "f.tsv: none of the ids in this file belong to the track; expected lines such as "
        "'dev-0'<TAB>3.2, found ids such as '0' on line 2."
    )


@pytest.mark.parametrize("header", ["", "id\tscore\n"])
def test_ids_written_as_floats_on_a_positional_track_are_named_as_such(header, tmp_path):
    """``0.0<TAB>2.4``: the track's ids written as floats (pandas' integer column holding a NaN) were
    refused as "whole numbers ... item ids or line numbers" and asked for the ids and a tab, which
    the file has; the id reader's hint names them, as it does on other tracks."""
    text = header + "".join(f"{k}.0\t{p}\n" for k, p in enumerate(STS_SCORES))
    with pytest.raises(SubmissionError) as error:
        read(STS, STS_ITEMS, text, tmp_path)
    assert str(error.value) == (
        "f.tsv: none of the ids in this file belong to the track; expected lines such as "
        f"'0'<TAB>3.2, found ids such as '0.0' on line {1 + bool(header)}. Ids written as floats "
        """('0.0' for '0'): write integer ids (df["id"].astype(int))"""
    )


def test_a_file_whose_every_line_is_refused_does_not_also_list_every_item_as_missing(tmp_path):
    """Seven JSON lines with an extra key each: the seven line problems say it; "7 of the track's 7 items
    have no prediction (the file has 0 of them)" added nothing. One good line brings the count back."""
    lines = [json.dumps({"id": k, "label": "neutral", "prob": 0.3}) for k in range(len(NLI_ITEMS))]
    with pytest.raises(SubmissionError) as error:
        read(NLI, NLI_ITEMS, "\n".join(lines) + "\n", tmp_path)
    assert str(error.value).count("\n") == 0 and "on 7 lines" in str(error.value)
    lines[3] = json.dumps({"id": 3, "label": "neutral"})
    with pytest.raises(SubmissionError) as error:
        read(NLI, NLI_ITEMS, "\n".join(lines) + "\n", tmp_path)
    assert str(error.value).split("\n")[1] == (
        "f.tsv: 6 of the track's 7 items have no prediction (the file has 1 of them): '0', '1', '2', '4', '5' and "
        "1 more. Predict every item listed in the track's input file"
    )


SEMICOLON_HINT = (
    "The line looks semicolon-separated (Excel's CSV in many locales): write a tab between the id "
    "and the value (df.to_csv(path, sep='\\t', index=False))"
)


@pytest.mark.parametrize(
    "separator, hint",
    [
        (
            ",",
            "The line looks comma-separated (CSV): write a tab between the id and the value "
            "(df.to_csv(path, sep='\\t', index=False))",
        ),
        (" ", "The id and the value look separated by spaces: write one tab between them"),
        (";", SEMICOLON_HINT),
    ],
)
def test_a_line_without_a_tab_names_the_separator_written_instead(separator, hint, tmp_path):
    """pandas' ``to_csv(path)`` without ``sep="\\t"`` (a comma), or ``f"{id} {label}"``: each line was
    refused as having no tab, and nothing said what it had instead."""
    text = f"id{separator}label\n" + "".join(
        f"{item['id']}{separator}{item['label']}\n" for item in NLI_ITEMS
    )
    with pytest.raises(SubmissionError) as error:
        read(NLI, NLI_ITEMS, text, tmp_path)
    assert str(error.value) == (
        f"f.tsv: line has no tab, on 8 lines (lines 1, 2, 3, 4, 5 and 3 more); expected ID<TAB>VALUE such as "
        f"ID<TAB>entailment, found 'id{separator}label' on line 1. {hint}"
    )


@pytest.mark.parametrize("header", ["", "id;score\n"])
def test_excel_semicolons_with_decimal_commas_name_both(header, tmp_path):
    """Excel's CSV where a comma is the decimal separator: ``en-tr-007;1,336``. It was called
    comma-separated (CSV), which it is not; the decimal comma is named even under a header line."""
    text = header + "".join(
        f"{k};{score:.2f}\n".replace(".", ",") for k, score in enumerate(STS_SCORES)
    )
    with pytest.raises(SubmissionError) as error:
        read(STS, STS_ITEMS, text, tmp_path)
    assert str(error.value).endswith(
        f"{SEMICOLON_HINT}; its numbers have a decimal comma: use a dot as the decimal separator"
    )


RELEASE = track_from_dict(
    {"id": "tr_en", "kind": "similarity", "dataset": "sts", "release_lines": 16}
)


def test_a_positional_file_of_the_releases_lines_is_scored_on_its_first_lines(tmp_path):
    """STS 2017 track 6: 500 input lines, gold for the first 250, and correlation.pl reads as many lines
    as there are gold scores. A track with ``release_lines`` reads such a file on its first lines."""
    scores = STS_SCORES + [9.0] * 8
    prediction = read(RELEASE, STS_ITEMS, "".join(f"{p}\t80\n" for p in scores), tmp_path)
    assert prediction.format == "positional" and prediction.values.tolist() == STS_SCORES
    assert prediction.warnings == [
        "the file has the release's 16 lines: the first 8, which have gold, are scored "
        "and the others ignored, as the official scorer reads them"
    ]


def test_a_header_line_before_the_releases_lines_is_skipped(tmp_path):
    """``score`` then track 6's 500 lines was refused as "expected 250 lines ... or the release's 500
    lines, found 501": the header counted as a line unless the lines after it were one per item."""
    text = "score\n" + "".join(f"{p}\n" for p in STS_SCORES + [9.0] * 8)
    prediction = read(RELEASE, STS_ITEMS, text, tmp_path)
    assert prediction.format == "positional" and prediction.values.tolist() == STS_SCORES
    assert prediction.warnings[0] == "the first line was read as a header and skipped"
    assert prediction.warnings[1].startswith("the file has the release's 16 lines: the first 8")


@pytest.mark.parametrize(
    "track, expected",
    [
        (STS, "expected 8 lines (one score per pair, in input order)"),
        (
            RELEASE,
            "expected 8 lines (one score per pair, in input order), or the release's 16 lines, of which the "
            "first 8 are scored",
        ),
    ],
)
def test_other_line_counts_are_refused_naming_the_releases_count(track, expected, tmp_path):
    with pytest.raises(SubmissionError) as error:
        read(track, STS_ITEMS, "".join(f"{p}\n" for p in STS_SCORES + [1.0] * 4), tmp_path)
    assert str(error.value) == (
        f"f.tsv: wrong number of lines for the SemEval positional format; {expected}, "
        "found 12 non-blank lines. Or write ID<TAB>SCORE lines, which are matched by id"
    )


ON_A_POSITIONAL_TRACK = "must be a whole number of lines (at least 2) on a positional track"


@pytest.mark.parametrize(
    "raw, message",
    [
        (
            {"kind": "classification", "labels": ["a", "b"], "release_lines": 500},
            ON_A_POSITIONAL_TRACK,
        ),
        ({"kind": "similarity", "release_lines": "500"}, "must be a whole number of at least 2"),
        ({"kind": "similarity", "release_lines": True}, "must be a whole number of at least 2"),
        ({"kind": "similarity", "positional": False, "release_lines": 500}, ON_A_POSITIONAL_TRACK),
    ],
)
def test_release_lines_is_a_whole_number_on_a_positional_track(raw, message):
    with pytest.raises(ConfigError) as error:
        track_from_dict({"id": "t", "dataset": "d", **raw})
    assert str(error.value).startswith(
        f"tracks 't': 'release_lines' {message}, found {raw['release_lines']!r}"
    )
    assert "release_lines" not in STS.to_dict() and RELEASE.to_dict()["release_lines"] == 16
    assert track_from_dict(RELEASE.to_dict()) == RELEASE


@pytest.mark.parametrize(
    "raw, message",
    [
        (
            {"kind": "perspectivist", "scale": "categorical", "annotator_alignment": "zip"},
            "'annotator_alignment' has an unknown value; expected by_name | official_2025, "
            "found 'zip'",
        ),
        (
            {"kind": "soft_label", "scale": "categorical", "annotator_alignment": "by_name"},
            "'annotator_alignment' does not apply to kind soft_label; expected no "
            "annotator_alignment key, found 'by_name'. Remove it",
        ),
        # every key of some kinds only is refused on another kind the same way
        (
            {"kind": "classification", "positional": True},
            "'positional' does not apply to kind classification; expected no positional key, "
            "found True. Remove it",
        ),
        (
            {"kind": "classification", "range": [0, 5]},
            "'range' does not apply to kind classification; expected no range key, found [0, 5]. "
            "Remove it",
        ),
    ],
)
def test_a_key_of_some_kinds_only_is_refused_on_another_kind(raw, message):
    with pytest.raises(ConfigError) as error:
        track_from_dict({"id": "t", "dataset": "d", "labels": ["0", "1"], **raw})
    assert str(error.value) == f"tracks 't': {message}"


def test_annotator_alignment_travels_in_tracks_json_only_when_declared():
    raw = {"id": "t", "kind": "perspectivist", "scale": "categorical", "labels": ["0", "1"]}
    assert "annotator_alignment" not in track_from_dict(raw).to_dict()
    declared = track_from_dict({**raw, "annotator_alignment": "official_2025"})
    assert track_from_dict(declared.to_dict()) == declared
    assert declared.annotator_alignment == "official_2025"


def test_ids_in_runs_of_a_batch_size_are_named_as_a_batch_index(tmp_path):
    """A CLUE OCNLI writer (``{"label": ..., "id": i}`` with i the batch's index, 32 lines a batch) gave
    every id 32 times: refused as duplicates, and now the runs are named as their likely cause."""
    items = [{"id": str(k), "texts": ["a", "b"], "label": "neutral"} for k in range(12)]
    text = "".join(json.dumps({"label": "neutral", "id": k // 4}) + "\n" for k in range(12))
    with pytest.raises(SubmissionError) as error:
        read(NLI, items, text, tmp_path)
    assert str(error.value).split("\n")[0] == (
        "f.tsv: duplicate id, on 9 lines (lines 2, 3, 4, 6, 7 and 4 more; items '0', '1', '2'); expected each id "
        "on one line only, found '0' again (first seen on line 1) on line 2. Keep one line per item (the ids "
        "come in runs of 4 equal ids on consecutive lines: a batch's index written in place of each item's id?)"
    )


def test_classification_file_in_glue_submission_layout(tmp_path):
    """GLUE's MNLI.tsv layout: ``index<TAB>prediction`` and a label name per line, here in another order."""
    labels = [item["label"] for item in NLI_ITEMS]
    lines = [f"{k}\t{label}\n" for k, label in enumerate(labels)]
    prediction = read(NLI, NLI_ITEMS, "index\tprediction\n" + "".join(reversed(lines)), tmp_path)
    assert prediction.values.tolist() == [NLI.labels.index(label) for label in labels]


def test_an_id_named_index_is_still_an_item(tmp_path):
    """A header name that is one of the track's ids is read as that item, as before."""
    items = [{"id": "index", "texts": ["a", "b"], "label": "neutral"}] + NLI_ITEMS[1:]
    text = "index\tneutral\n" + "".join(
        f"{k}\t{item['label']}\n" for k, item in enumerate(NLI_ITEMS) if k
    )
    prediction = read(NLI, items, text, tmp_path)
    assert prediction.warnings == [] and prediction.values[0] == NLI.labels.index("neutral")


# --- soft labels keyed as the LeWiDi 2025 releases key their own -----------------------------------


def test_mp_soft_label_objects_with_the_dev_release_keys(tmp_path):
    """MP_dev.json keys its soft labels "0.0"/"1.0" (MP_test.json "0"/"1"): a file echoing either reads
    as the list in label order."""
    rows = [[0.7, 0.3], [0.25, 0.75], [1.0, 0.0], [0.5, 0.5], [0.1, 0.9]]
    as_list = read(
        MP_SOFT,
        MP_ITEMS,
        "".join(f"{i['id']}\t{json.dumps(r)}\n" for i, r in zip(MP_ITEMS, rows)),
        tmp_path,
    )
    keyed = "".join(
        f"{i['id']}\t{json.dumps({'1.0': r[1], '0.0': r[0]})}\n" for i, r in zip(MP_ITEMS, rows)
    )
    assert np.array_equal(read(MP_SOFT, MP_ITEMS, keyed, tmp_path).values, as_list.values)
    assert np.allclose(as_list.values, rows)


def test_ordinal_soft_label_objects_keyed_by_number(tmp_path):
    """Keys that are the labels' values; a label left out has probability 0."""
    items = [{"id": "108774", "texts": ["a", "b"], "annotators": ["Ann1"], "annotations": ["-3"]}]
    keyed = {"-3.0": 0.25, "0.0": 0.25, "+4": 0.5}
    values = read(PAR_SOFT, items, f"108774\t{json.dumps(keyed)}\n", tmp_path).values
    assert values[0].tolist() == [0, 0, 0.25, 0, 0, 0.25, 0, 0, 0, 0.5, 0]


def test_a_label_keyed_twice_is_refused(tmp_path):
    text = "".join(
        f"{i['id']}\t{json.dumps({'0': 0.5, '0.0': 0.25, '1': 0.5})}\n" for i in MP_ITEMS
    )
    with pytest.raises(SubmissionError) as error:
        read(MP_SOFT, MP_ITEMS, text, tmp_path, "mp_soft.tsv")
    assert str(error.value).startswith(
        "mp_soft.tsv: soft label names a label twice, on 5 lines (lines 1, 2, 3, 4, 5; items '3', '13', '23', "
        "'33', '43'); expected each label once, found '0, 0.0, 1' on line 1. '0' and '0.0' both "
        "name the label '0': keep one key per label"
    )


def test_an_object_missing_a_key_is_told_to_add_that_label_s_probability(tmp_path):
    """{"0": 0.4316} on MP was told "The object has no key '1' (read as 0); divide each value by the
    row's sum", which gives [1, 0]: the fix is the missing label's probability. A sum above 1 keeps
    the sum rule's own fix (adding a label cannot lower it)."""
    text = "".join(f"{i['id']}\t{json.dumps({'0': 0.4316})}\n" for i in MP_ITEMS)
    with pytest.raises(SubmissionError) as error:
        read(MP_SOFT, MP_ITEMS, text, tmp_path, "mp_soft.tsv")
    assert str(error.value).endswith(
        "expected a sum within 0.02 of 1, found sum 0.4316 on line 1. The object has no key '1' "
        "(read as 0): add each missing label's probability, the row summing to 1"
    )
    text = "".join(f"{i['id']}\t{json.dumps({'0': 1.5})}\n" for i in MP_ITEMS)
    with pytest.raises(SubmissionError) as error:
        read(MP_SOFT, MP_ITEMS, text, tmp_path, "mp_soft.tsv")
    assert "The object has no key '1' (read as 0); values above 1 are no probabilities" in str(
        error.value
    )


def test_keys_that_are_no_label_are_still_refused_by_name(tmp_path):
    text = "".join(f"{i['id']}\t{json.dumps({'0': 0.5, '2.0': 0.5})}\n" for i in MP_ITEMS)
    with pytest.raises(SubmissionError) as error:
        read(MP_SOFT, MP_ITEMS, text, tmp_path, "mp_soft.tsv")
    assert "soft label names an unknown label" in str(error.value) and "found '2.0'" in str(
        error.value
    )


def test_varierrnli_soft_labels_in_the_release_layout(tmp_path):
    """VariErrNLI_*.json: {label: {"0": P(not chosen), "1": P(chosen)}}; the same as the 2025 pairs."""
    chosen = [[1.0, 0.0, 1 / 3], [0.5, 0.25, 0.5], [0.0, 1.0, 0.0], [2 / 3, 0.0, 1 / 3]]
    pairs = "".join(
        f"{i['id']}\t{json.dumps([[1 - p, p] for p in c])}\n" for i, c in zip(VEN_ITEMS, chosen)
    )
    release = "".join(
        f"{i['id']}\t{json.dumps({lab: {'0': 1 - p, '1': p} for lab, p in zip(VEN, c)})}\n"
        for i, c in zip(VEN_ITEMS, chosen)
    )
    expected = read(VEN_SOFT, VEN_ITEMS, pairs, tmp_path).values
    assert np.array_equal(read(VEN_SOFT, VEN_ITEMS, release, tmp_path).values, expected)
    assert np.allclose(expected[..., 1], chosen)


# --- LeWiDi 2025 participants' files (already read; kept as regression tests) ----------------------


def test_participant_soft_and_perspectivist_rows(tmp_path):
    """A Codabench submission of 2025: ``[0.8115619421,0.1884380579]`` (no spaces, 10 decimals), and
    per-annotator rows ``[0, 1, 1]``; another team wrote float labels ``[0.0, 1.0, 1.0]``."""
    soft = read(
        MP_SOFT,
        MP_ITEMS,
        "".join(f"{i['id']}\t[0.8115619421,0.1884380579]\n" for i in MP_ITEMS),
        tmp_path,
    )
    assert np.allclose(soft.values, [0.8115619421, 0.1884380579]) and soft.warnings == []
    ints = read(MP_PE, MP_ITEMS, "".join(f"{i['id']}\t[0, 1, 1]\n" for i in MP_ITEMS), tmp_path)
    floats = read(
        MP_PE, MP_ITEMS, "".join(f"{i['id']}\t[0.0, 1.0, 1.0]\n" for i in MP_ITEMS), tmp_path
    )
    assert np.array_equal(ints.values.values, floats.values.values)


def test_participant_varierrnli_rows_over_the_annotators_string(tmp_path):
    """``[[0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 1, 1]]``: label-major over the release's ``annotators``
    string, in which Ann2 appears once per label given (here twice)."""
    items = [dict(VEN_ITEMS[0], annotators_listed=["Ann1", "Ann2", "Ann2", "Ann3"])] + VEN_ITEMS[1:]
    rows = [[[1, 1, 1, 0], [0, 0, 0, 0], [0, 1, 1, 1]]] + [[[1, 1, 0], [0, 0, 0], [0, 1, 1]]] * 3
    text = "".join(f"{i['id']}\t{json.dumps(r)}\n" for i, r in zip(items, rows))
    prediction = read(VEN_PE, items, text, tmp_path)
    assert prediction.values.values[:3].tolist() == [[1, 0, 0], [1, 0, 1], [0, 0, 1]]
    assert prediction.warnings == [
        "1 row had one entry per name of the release's annotators list (an annotator repeated once per "
        "label given); the repeated entries were merged, by name: columns 1, 2, 4 against Ann1, Ann2, "
        "Ann3 (1 item)"
    ]


# --- JSON lines, CLUE's submission layout --------------------------------------------------------

JSON_LINES_NOTE = 'the file was read as JSON lines, one object {"id": ID, "any name": VALUE} a line (CLUE\'s layout)'


def test_clue_json_lines_with_number_ids_in_either_key_order(tmp_path):
    """CLUE's ocnli_50k_predict.json: ``{"id": 0, "label": "neutral"}`` a line; pandas' to_json of
    ``df[["label", "id"]]`` puts the label first."""
    labels = [NLI.labels[(k + 1) % 3] for k in range(len(NLI_ITEMS))]
    lines = [
        json.dumps({"id": k, "label": label}) if k % 2 else json.dumps({"label": label, "id": k})
        for k, label in enumerate(labels)
    ]
    prediction = read(NLI, NLI_ITEMS, "\n".join(lines) + "\n", tmp_path, "ocnli_50k_predict.json")
    assert prediction.values.tolist() == [NLI.labels.index(label) for label in labels]
    assert prediction.warnings == [JSON_LINES_NOTE]


def test_json_lines_of_scores_are_read_by_id_never_positionally(tmp_path):
    """Six items with ids "0".."5" and 0-5 scores would make ID<TAB>SCORE lines ambiguous; an object
    names its id."""
    items = STS_ITEMS[:6]
    text = "".join(
        json.dumps({"id": int(item["id"]), "prediction": 5 - k}) + "\n"
        for k, item in enumerate(items)
    )
    prediction = read(STS, items, text, tmp_path)
    assert prediction.format == "id" and prediction.values.tolist() == [5, 4, 3, 2, 1, 0]


def test_json_lines_of_soft_labels(tmp_path):
    text = "".join(
        json.dumps({"id": item["id"], "soft_label": {"0.0": 0.25, "1.0": 0.75}}) + "\n"
        for item in MP_ITEMS
    )
    prediction = read(MP_SOFT, MP_ITEMS, text, tmp_path)
    assert np.allclose(prediction.values, [0.25, 0.75]) and prediction.warnings == [JSON_LINES_NOTE]


NOT_FINITE = (
    "not a finite number; expected finite numbers, found {}. Predict a finite number for every "
    "item (the model's output holds NaN or infinity)"
)


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_a_json_line_holding_nan_or_infinity_is_refused_as_not_finite_at_its_item(token, tmp_path):
    """json.dump's default allow_nan writes a model's NaN as NaN (o_soft_json_nan, json_nan): the line,
    exactly "id" and one value, was told it must hold "id" and one value, and its item then had no
    prediction. A file that is JSON but for these tokens is JSON: one problem, at its item."""
    lines = [json.dumps({"id": item["id"], "score": 2.5}) for item in STS_ITEMS]
    lines[1] = '{"id": "1", "score": %s}' % token
    with pytest.raises(SubmissionError) as error:
        read(STS, STS_ITEMS, "\n".join(lines) + "\n", tmp_path, "en_en.tsv")
    assert str(error.value) == "en_en.tsv, line 2, item '1': " + NOT_FINITE.format(repr(token))
    soft = [json.dumps({"id": item["id"], "probs": [0.25, 0.75]}) for item in MP_ITEMS]
    soft[0] = '{"id": "%s", "probs": [%s, 0.5]}' % (MP_ITEMS[0]["id"], token)
    with pytest.raises(SubmissionError) as error:
        read(MP_SOFT, MP_ITEMS, "\n".join(soft) + "\n", tmp_path, "mp_soft.tsv")
    assert str(error.value) == (
        f"mp_soft.tsv, line 1, item {MP_ITEMS[0]['id']!r}: " + NOT_FINITE.format(token)
    )


JSON_LINE_EXPECTED = (
    'expected one object {"id": ID, "any name": VALUE} a line, the id a string or an integer'
)


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity", "1.5"])
def test_a_json_line_whose_id_is_nan_or_no_whole_number_is_refused_as_written(token, tmp_path):
    """vy/jl_id_nan: {"id": NaN, ...} was told "unknown id 'nan'" (the layout's decoder reads NaN
    as a float, which only a value may be). An id that is no string nor whole number keeps the line
    as written: refused as a JSON line whose id is no id, the token named."""
    lines = [json.dumps({"id": k, "label": item["label"]}) for k, item in enumerate(NLI_ITEMS)]
    lines[1] = '{"id": %s, "label": "neutral"}' % token
    with pytest.raises(SubmissionError) as error:
        read(NLI, NLI_ITEMS, "\n".join(lines) + "\n", tmp_path, "nli.tsv")
    found = f"'{lines[1]}': not a finite number" if token != "1.5" else "the id 1.5"
    assert (
        str(error.value)
        .split("\n")[0]
        .startswith(
            f'nli.tsv, line 2: a JSON line must hold exactly "id" and one value; {JSON_LINE_EXPECTED}'
            f", found {found}"
        )
    )


KEEP_TWO_KEYS = (
    'Keep only "id" and the prediction: df[["id", "label"]].to_json(orient="records", lines=True)'
)


@pytest.mark.parametrize(
    "line, found, hint",
    [
        ({"id": 2, "label": "neutral", "prob": 0.9}, "keys id, label, prob", KEEP_TWO_KEYS),
        (
            {"idx": 2, "label": "neutral"},
            "keys idx, label",
            'Name the id "id" and keep one value: df.rename(columns={"idx": "id"})[["id", "label"]]'
            '.to_json(orient="records", lines=True)',
        ),
        ({"id": True, "label": "neutral"}, "the id true", KEEP_TWO_KEYS),
        (["2", "neutral"], '\'["2", "neutral"]\'', None),
        (
            '{"id": 2, "label": "neutr',
            '\'{"id": 2, "label": "neutr\': not valid JSON (Unterminated string starting at)',
            None,
        ),
    ],
)
def test_a_json_line_without_one_id_and_one_value_names_the_keys_it_has(
    line, found, hint, tmp_path
):
    """A line with an extra key ({"id":0,"label":"neutral","prob":0.9}) was refused as "line has no tab",
    which named a layout the file does not use; the message says what a JSON line must hold and what it holds."""
    lines = [json.dumps({"id": k, "label": item["label"]}) for k, item in enumerate(NLI_ITEMS)]
    lines[2] = line if isinstance(line, str) else json.dumps(line)
    with pytest.raises(SubmissionError) as error:
        read(NLI, NLI_ITEMS, "\n".join(lines) + "\n", tmp_path, "nli.tsv")
    assert str(error.value).split("\n")[0] == (
        f'nli.tsv, line 3: a JSON line must hold exactly "id" and one value; {JSON_LINE_EXPECTED}, found {found}'
        + (f". {hint}" if hint else "")
    )


def test_one_json_object_keyed_by_the_track_ids_is_named_so(tmp_path):
    """``json.dump({id: value, ...})`` into a track file: one line, an object keyed by the ids. It
    was told to keep only "id" and the prediction, which does not fit."""
    text = json.dumps({item["id"]: item["label"] for item in NLI_ITEMS}) + "\n"
    with pytest.raises(SubmissionError) as error:
        read(NLI, NLI_ITEMS, text, tmp_path, "nli.tsv")
    assert (
        str(error.value)
        .splitlines()[0]
        .endswith(
            "The line is one JSON object keyed by the track's ids (json.dump of a dict): write one line "
            'per item, ID<TAB>VALUE, or JSON lines {"id": ID, "label": VALUE}'
        )
    )


def test_a_json_array_of_records_on_one_line_is_read_as_json_lines(tmp_path):
    """``json.dump(records, f)`` or pandas' ``to_json(orient="records")`` without lines=True: the same
    objects as CLUE's JSON lines, each naming its id, in one array on one line. It was refused as one
    line without a tab and every item missing."""
    labels = [NLI.labels[(k + 1) % 3] for k in range(len(NLI_ITEMS))]
    records = [{"label": label, "id": k} for k, label in reversed(list(enumerate(labels)))]
    prediction = read(
        NLI, NLI_ITEMS, json.dumps(records) + "\n", tmp_path, "ocnli_50k_predict.json"
    )
    assert prediction.values.tolist() == [NLI.labels.index(label) for label in labels]
    assert prediction.warnings == [
        'the file was read as one JSON array of objects {"id": ID, "any name": VALUE}, one per '
        'item (json.dump of a list of records, to_json(orient="records"))'
    ]


@pytest.mark.parametrize("array", [False, True])
def test_a_null_score_is_named_as_a_nan(array, tmp_path):
    """pandas' to_json writes a NaN as null (jsonl_null, array_null): "not a number ... found 'null'"
    had no hint; it names the NaN and the fix, as the refusal of 'nan' does."""
    records = [
        {"id": item["id"], "score": None if k == 3 else 2.5} for k, item in enumerate(STS_ITEMS)
    ]
    text = json.dumps(records) if array else "\n".join(map(json.dumps, records))
    with pytest.raises(SubmissionError) as error:
        read(STS, STS_ITEMS, text, tmp_path, "en_en.tsv")
    assert str(error.value) == (
        f"en_en.tsv, line {1 if array else 4}, item '3': not a number; expected a decimal number "
        "such as 3.2, found 'null'. Predict a value for every item (the model's output holds "
        "NaN, which pandas' to_json writes as null)"
    )


NULL_HINT = (
    "Predict a value for every item (the model's output holds NaN, which pandas' to_json writes "
    "as null)"
)


@pytest.mark.parametrize(
    "track, items, value",
    [
        (MP_SOFT, MP_ITEMS, [None, 0.5]),
        (MP_SOFT, MP_ITEMS, None),
        (MP_PE, MP_ITEMS, [0, None, 1]),
        (NLI, NLI_ITEMS, None),
        (VEN_SOFT, VEN_ITEMS, None),
        (MP_PE, MP_ITEMS, None),
        (VEN_PE, VEN_ITEMS, [["neutral"], None, ["neutral"]]),
    ],
    ids=[
        "soft_list",
        "soft_whole",
        "perspectivist_row",
        "label",
        "multilabel_whole",
        "perspectivist_whole",
        "multilabel_annotator",
    ],
)
def test_a_null_where_any_value_is_expected_gets_the_nan_hint(track, items, value, tmp_path):
    """vl/soft_jl_null ([null, 0.5]), vl/soft_jl_nullall, vl/pe_jl_null ([0, null, 1, 0]) and
    vy/jl_label_null ("label": null) got no hint, or "give a label among ...": only a null where
    a number is expected was told it is a NaN. A null where any value is expected gets the one
    NaN hint (values.NULL_HINT)."""
    records = [{"id": item["id"], "value": value} for item in items]
    text = "\n".join(map(json.dumps, records)) + "\n"
    with pytest.raises(SubmissionError) as error:
        read(track, items, text, tmp_path, f"{track.id}.tsv")
    first = str(error.value).splitlines()[0]
    assert "found 'null'" in first and first.endswith(NULL_HINT), first


def test_a_json_array_holding_nan_or_infinity_is_read_as_records(tmp_path):
    """json.dump(records) writes a model's NaN as NaN (json_nan_array, json_inf_array): the array
    was no JSON to the kit, and the file was told "line 1: line has no tab". It is read as records,
    each such value refused as not finite at its item."""
    records = [{"id": item["id"], "score": 2.5} for item in STS_ITEMS]
    records[2]["score"], records[5]["score"] = float("nan"), float("inf")
    with pytest.raises(SubmissionError) as error:
        read(STS, STS_ITEMS, json.dumps(records), tmp_path, "en_en.tsv")
    assert str(error.value) == (
        "en_en.tsv: not a finite number, on 2 items (line 1; items '2', '5'); expected finite "
        "numbers, found 'NaN' on item '2'. Predict a finite number for every item (the model's "
        "output holds NaN or infinity)"
    )


@pytest.mark.parametrize("name", ["nli.tsv", "ocnli_50k_predict.json"])
def test_one_json_object_of_columns_is_told_to_write_records(tmp_path, name):
    """A HuggingFace dataset's columns ({"id": [...], "label": [...]}) were told to keep only "id"
    and the prediction, as a JSON line with extra keys: the problem is columns for records."""
    columns = {"id": [item["id"] for item in NLI_ITEMS], "label": ["neutral"] * len(NLI_ITEMS)}
    with pytest.raises(SubmissionError) as error:
        read(NLI, NLI_ITEMS, json.dumps(columns) + "\n", tmp_path, name)
    assert str(error.value) == (
        f"{name}, line 1: the file is one JSON object of columns, not one record per item; "
        'expected one object {"id": ID, "any name": VALUE} a line, one line per item, found '
        f"columns id, label, each a list of {len(NLI_ITEMS)} values. Write one record per item: "
        'pd.DataFrame(d).to_json(path, orient="records", lines=True) of this object d (of a '
        'DataFrame df: df.to_json(path, orient="records", lines=True))'
    )


def test_a_bad_record_in_a_json_array_is_named_by_its_item(tmp_path):
    records = [
        {"id": k, "label": "neutral" if k != 4 else "Neutral"} for k in range(len(NLI_ITEMS))
    ]
    with pytest.raises(SubmissionError) as error:
        read(NLI, NLI_ITEMS, json.dumps(records), tmp_path, "nli.tsv")
    assert str(error.value) == (
        "nli.tsv, line 1, item '4': label outside the track's label set; expected one of entailment, neutral, "
        "contradiction, found 'Neutral'. Labels are matched exactly: write 'neutral' (case and spaces count)"
    )


def test_bad_records_in_a_json_array_are_counted_as_items_on_its_one_line(tmp_path):
    """Every record of the array is on line 1: the same problem in three records is "on 3 items (line 1;
    items ...)", not "on 3 lines (lines 1, 1, 1)"."""
    records = [
        {"id": k, "label": "Neutral" if k in (1, 4, 6) else "neutral"}
        for k in range(len(NLI_ITEMS))
    ]
    with pytest.raises(SubmissionError) as error:
        read(NLI, NLI_ITEMS, json.dumps(records), tmp_path, "nli.tsv")
    assert str(error.value) == (
        "nli.tsv: label outside the track's label set, on 3 items (line 1; items '1', '4', '6'); expected one of "
        "entailment, neutral, contradiction, found 'Neutral' on item '1'. Labels are matched exactly: write "
        "'neutral' (case and spaces count)"
    )


@pytest.mark.parametrize("items", [3, 3000])
def test_a_pretty_printed_json_array_is_named_as_such_not_as_too_many_lines(items, tmp_path):
    """``json.dump(records, f, indent=2)``: four lines a record. Over 2 lines per item plus 1,000 the line
    bound fired first ("file has too many lines"), under it every line had no tab."""
    track_items = [{"id": str(k), "texts": ["a", "b"], "label": "neutral"} for k in range(items)]
    records = [{"id": k, "label": "neutral"} for k in range(items)]
    with pytest.raises(SubmissionError) as error:
        read(
            NLI,
            track_items,
            "\ufeff\n" + json.dumps(records, indent=2),
            tmp_path,
            "ocnli_50k_predict.json",
        )
    assert str(error.value) == (
        "ocnli_50k_predict.json, line 2: the file is one JSON document over many lines (pretty-printed), not one "
        'prediction a line; expected one line per item: JSON lines, one object {"id": ID, "label": VALUE} a line, '
        "or ID<TAB>VALUE lines, found a line holding only '['. Write one object a line, without indent: "
        'to_json(orient="records", lines=True)'
    )


def test_the_ocnli_edition_takes_clues_file_name(tmp_path):
    """A CLUE submission zip holds ocnli_50k_predict.json; the OCNLI edition's nli track claims it."""
    edition = load_edition(Path(__file__).resolve().parents[1] / "editions" / "ocnli")
    (tmp_path / "ocnli_50k_predict.json").write_text(
        '{"id": 0, "label": "neutral"}\n', encoding="utf-8"
    )
    claimed, unclaimed = locate_track_files(tmp_path, edition.tracks)
    assert {track: str(path) for track, path in claimed.items()} == {
        "nli": "ocnli_50k_predict.json"
    }
    assert unclaimed == []


# --- CSC soft labels with the practice phase's extra leading bin ---------------------------------

CSC_SOFT = track_from_dict(
    {
        "id": "csc_soft",
        "kind": "soft_label",
        "scale": "ordinal",
        "dataset": "csc",
        "labels": [str(v) for v in range(1, 7)],
    }
)
CSC_ITEMS = [
    {
        "id": f"{700 + k}",
        "texts": ["a", "b"],
        "annotators": ["Ann1", "Ann2", "Ann3", "Ann4"],
        "annotations": [str(1 + k % 6), str(1 + (k + 2) % 6), "4", "6"],
    }
    for k in range(6)
]


def test_csc_rows_of_seven_with_a_small_leading_bin_are_renormalised(tmp_path):
    """A 2025 submission (CSC_test_soft.tsv in a team's res.zip) has 7 values a row, from a model trained
    on the practice-phase 7-bin labels: the first, bin "0", is not zero but 3e-05..0.0022. It is dropped
    and the other 6 renormalised; the score is the official AWD of the renormalised rows."""
    firsts = [2.97e-05, 0.0022, 1.0e-04, 0.0, 0.02, 5e-04]
    rows = [[f] + [(1 - f) * w for w in (0.1, 0.2, 0.3, 0.2, 0.1, 0.1)] for f in firsts]
    text = "".join(
        f"{i['id']}\t[{','.join(f'{v:.10f}' for v in r)}]\n" for i, r in zip(CSC_ITEMS, rows)
    )
    gold = build_gold(CSC_SOFT, CSC_ITEMS, "gold")
    prediction = read(CSC_SOFT, CSC_ITEMS, text, tmp_path)
    assert prediction.warnings == [
        "1 soft label had an extra, empty leading bin (one value more than the track's labels, the 2025 "
        "practice-phase layout) that was dropped",
        "5 soft labels had an extra leading bin (one value more than the track's labels, the 2025 "
        "practice-phase layout) holding a little probability, "
        "at most 0.02; it was dropped and the rows renormalised",
    ]
    renormalised = [[v / sum(r[1:]) for v in r[1:]] for r in rows]
    assert np.allclose(prediction.values, renormalised, atol=1e-9)
    gold_rows = [
        [sum(a == str(v) for a in i["annotations"]) / 4 for v in range(1, 7)] for i in CSC_ITEMS
    ]
    score = get(CSC_SOFT.main_metric).score(gold.gold, prediction.values, gold.scored).value
    assert score == official.soft_score(gold_rows, renormalised, "CSC")


def test_csc_rows_of_seven_with_more_than_the_tolerance_in_the_first_bin_are_still_refused(
    tmp_path,
):
    rows = [[0.0201, 0.1, 0.1, 0.2, 0.2, 0.2, 0.1799]] * len(CSC_ITEMS)
    with pytest.raises(SubmissionError) as error:
        read(
            CSC_SOFT,
            CSC_ITEMS,
            "".join(f"{i['id']}\t{json.dumps(r)}\n" for i, r in zip(CSC_ITEMS, rows)),
            tmp_path,
        )
    assert str(error.value).startswith(
        "f.tsv: wrong soft label length, on 6 lines (lines 1, 2, 3, 4, 5 and 1 more; items '700', '701', '702', '703', "
        "'704', ...); expected a list of 6 probabilities, found 7 values, the first 0.0201 on line 1. A row of 7 "
        "values looks like the 2025 practice-phase layout"
    )


def test_csc_rows_of_seven_whose_last_value_is_0_are_refused_as_ambiguous(tmp_path):
    """A row of 7 values [0.01, .., 0.0] (a trial's CSC_test_soft.tsv) was read as the practice-phase
    layout, its first bin dropped, while its extra bin may be the last: AWD 1.2338 on bins shifted by
    one against 1.61493 as written. It is refused naming both readings; a first value of exactly 0
    keeps the practice files' reading."""
    row = [0.01, 0.1301061320754717, 0.01971698113207547, 0.007912735849056603]
    row += [0.39213443396226416, 0.44012971698113207, 0.0]
    text = "".join(f"{i['id']}\t{json.dumps(row)}\n" for i in CSC_ITEMS)
    with pytest.raises(SubmissionError) as error:
        read(CSC_SOFT, CSC_ITEMS, text, tmp_path)
    assert str(error.value) == (
        "f.tsv: wrong soft label length, on 6 lines (lines 1, 2, 3, 4, 5 and 1 more; items '700', '701', "
        "'702', '703', '704', ...); expected a list of 6 probabilities, found 7 values, the first 0.01 "
        "and the last 0 on line 1. The extra bin may be the first (the 2025 practice-phase layout, whose "
        'first bin "0" is dropped: the labels 1..6 are the last 6 values) or the last (an empty bin '
        "after label 6: the labels are the first 6 values); the 2 readings score differently, so drop "
        "the extra bin yourself and give the 6 values of the labels 1..6"
    )
    empty_first = [0.0, 0.2, 0.2, 0.2, 0.2, 0.2, 0.0]
    text = "".join(f"{i['id']}\t{json.dumps(empty_first)}\n" for i in CSC_ITEMS)
    assert np.allclose(read(CSC_SOFT, CSC_ITEMS, text, tmp_path).values, [empty_first[1:]] * 6)


def test_csc_objects_with_the_practice_phase_bin_0_are_read_as_the_lists_of_seven(tmp_path):
    """The practice-phase object {"0": 0.0, "1": p1, ..., "6": p6} was refused "soft label names an
    unknown label ... found '0'" while the same 7 values as a list were read with the bin dropped."""
    row = {"0": 0.0, "1": 0.1, "2": 0.2, "3": 0.3, "4": 0.2, "5": 0.1, "6": 0.1}
    text = "".join(f"{i['id']}\t{json.dumps(row)}\n" for i in CSC_ITEMS)
    prediction = read(CSC_SOFT, CSC_ITEMS, text, tmp_path)
    assert prediction.warnings == [
        "6 soft labels had an extra, empty leading bin (one value more than the track's labels, the "
        "2025 practice-phase layout) that was dropped"
    ]
    assert np.allclose(prediction.values, [[0.1, 0.2, 0.3, 0.2, 0.1, 0.1]] * 6)
    row = {**row, "0": 0.1, "6": 0.0}
    with pytest.raises(SubmissionError) as error:
        read(
            CSC_SOFT,
            CSC_ITEMS,
            "".join(f"{i['id']}\t{json.dumps(row)}\n" for i in CSC_ITEMS),
            tmp_path,
        )
    assert str(error.value).startswith(
        "f.tsv: wrong soft label length, on 6 lines (lines 1, 2, 3, 4, 5 and 1 more; items '700', '701', "
        "'702', '703', '704', ...); expected keys 1, 2, 3, 4, 5, 6, found the key '0' holding 0.1 "
        "(keys 0, 1, 2, 3, 4, 5, 6) on line 1. An object of 7 keys looks like the 2025 practice-phase "
        'layout, which had an extra, always-zero first bin "0": remove the key "0" (it holds '
        "probability here, so check that the other 6 are the labels 1..6)"
    )


# --- values written by Python's str() of a list (pandas' to_csv of a list column) -----------------

PYTHON_LITERALS = (
    "{} values were not JSON but Python literals (str() of a list: single quotes, tuples) and were "
    "read as such; json.dumps(x) writes JSON"
)


def test_python_lists_of_string_labels_are_read_with_one_warning(tmp_path):
    """``df[["id", "pred"]].to_csv(sep="\\t")`` of list cells writes ``str(list)``: ``['0', '1', '1']``."""
    rows = [["0", "1", "1"], ["1", "1", "0"], ["0", "0", "0"], ["1", "0", "1"], ["0", "1", "0"]]
    as_json = read(
        MP_PE,
        MP_ITEMS,
        "".join(f"{i['id']}\t{json.dumps(r)}\n" for i, r in zip(MP_ITEMS, rows)),
        tmp_path,
    )
    text = "".join(f"{i['id']}\t{r}\n" for i, r in zip(MP_ITEMS, rows))
    prediction = read(MP_PE, MP_ITEMS, text, tmp_path)
    assert np.array_equal(prediction.values.values, as_json.values.values)
    assert prediction.warnings == [PYTHON_LITERALS.format(5)]


def test_python_tuples_of_pairs_are_read_as_lists(tmp_path):
    """``f"{idx}\\t{trio}"`` of a tuple of (P(not chosen), P(chosen)) pairs (VariErrNLI); one JSON row beside it."""
    chosen = [[0.25, 0.5, 0.0], [1.0, 0.0, 0.75], [0.5, 0.5, 0.5], [0.0, 1.0, 0.25]]
    rows = [tuple((1 - p, p) for p in c) for c in chosen]
    text = "".join(
        f"{i['id']}\t{json.dumps(r) if k == 0 else r}\n"
        for k, (i, r) in enumerate(zip(VEN_ITEMS, rows))
    )
    prediction = read(VEN_SOFT, VEN_ITEMS, text, tmp_path)
    assert np.allclose(prediction.values[..., 1], chosen)
    assert prediction.warnings == [PYTHON_LITERALS.format(3)]


@pytest.mark.parametrize(
    "value, found, hint",
    [
        ("[0.3 0.7]", "'[0.3 0.7]'", ". This is numpy's printing: write json.dumps(x.tolist())"),
        (
            "[np.float64(0.3), np.float64(0.7)]",
            "'[np.float64(0.3), np.float64(0.7)]'",
            ". This is numpy's printing: write json.dumps(x.tolist())",
        ),
        (
            "array([0.3, 0.7])",
            "'array([0.3, 0.7])'",
            ". This is numpy's printing: write json.dumps(x.tolist())",
        ),
        (
            '"[""0.3"", ""0.7""]"',
            '\'"[""0.3"", ""0.7""]"\'',
            ". The value is CSV-quoted: write it without quotes (quoting=csv.QUOTE_NONE, quotechar=None)",
        ),
        ("[0.3, 0.7, True]", "'[0.3, 0.7, True]'", ""),
        ("0,3", "'0,3'", ""),  # no tuple: a decimal comma
        *(
            (
                value,
                repr(value),
                f". The values are separated by {name}, without brackets: write "
                "them as a JSON list in brackets, comma-separated, such as [0.3, 0.7] (json.dumps(list))",
            )
            for value, name in [
                ("0.3;0.7", "semicolons"),
                ("0.3, 0.7", "commas"),
                ("0.3 0.7", "spaces"),
            ]
        ),
        ("[0x1, 0]", "'[0x1, 0]'", ""),  # a Python number that JSON does not write
    ],
)
def test_values_that_are_neither_json_nor_a_python_literal_name_their_writer(
    value, found, hint, tmp_path
):
    text = "".join(
        f"{i['id']}\t{value if k == 1 else '[0.5, 0.5]'}\n" for k, i in enumerate(MP_ITEMS)
    )
    with pytest.raises(SubmissionError) as error:
        read(MP_SOFT, MP_ITEMS, text, tmp_path, "mp_soft.tsv")
    reason = str(error.value).split("not valid JSON (")[1].split(")")[0]
    assert str(error.value) == (
        f"mp_soft.tsv, line 2, item '13': not valid JSON ({reason}); expected a JSON list "
        f"such as [0.5, 0.5], found {found}{hint}"
    )


@pytest.mark.parametrize(
    "track, items, example",
    [
        (MP_PE, MP_ITEMS, '["0", "1"]'),
        (VEN_PE, VEN_ITEMS, "[[1, 0], [0, 0], [0, 1]]"),
        (VEN_SOFT, VEN_ITEMS, "[[0.5, 0.5], [0.5, 0.5], [0.5, 0.5]]"),
    ],
)
def test_not_valid_json_gives_the_tracks_own_example(track, items, example, tmp_path):
    with pytest.raises(SubmissionError) as error:
        read(
            track,
            items,
            "".join(f"{i['id']}\t[1, 2\n" for i in items[:1])
            + "".join(f"{i['id']}\t[]\n" for i in items[1:]),
            tmp_path,
            "f.tsv",
        )
    assert str(error.value).splitlines()[0] == (
        f"f.tsv, line 1, item '{items[0]['id']}': not valid JSON (Expecting "
        f"',' delimiter); expected a JSON list such as {example}, found '[1, 2'"
    )


# --- label indices where labels are values or names ----------------------------------------------

PAR_PE = track_from_dict(
    {
        "id": "par_pe",
        "kind": "perspectivist",
        "scale": "ordinal",
        "dataset": "par",
        "labels": [str(k) for k in range(-5, 6)],
    }
)
CSC_PE = track_from_dict(
    {
        "id": "csc_pe",
        "kind": "perspectivist",
        "scale": "ordinal",
        "dataset": "csc",
        "labels": [str(v) for v in range(1, 7)],
    }
)
PAR_ITEMS = [
    {
        "id": f"{108770 + k}",
        "texts": ["a", "b"],
        "annotators": ["Ann1", "Ann2", "Ann3"],
        "annotations": ["-3", "0", "4"],
    }
    for k in range(4)
]


def test_paraphrase_rows_of_label_indices_are_refused_with_the_conversion(tmp_path):
    """A 2025 team's convert_to_codabench_format wrote Paraphrase rows as ``p + 5`` (0..10): a row with an
    index above 5 is outside the labels -5..5, and every entry of the file fits 0..10."""
    rows = [[10, 5, 7], [0, 3, 5], [8, 9, 10], [1, 2, 4]]
    with pytest.raises(SubmissionError) as error:
        read(
            PAR_PE,
            PAR_ITEMS,
            "".join(f"{i['id']}\t{json.dumps(r)}\n" for i, r in zip(PAR_ITEMS, rows)),
            tmp_path,
        )
    assert str(error.value) == (
        "f.tsv: label outside the track's label set, on 2 lines (lines 1, 3; items '108770', '108772'); expected "
        "one of -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, found '10' on line 1. Every entry of the file is a whole number "
        "in 0..10: these look like label indices; write the label values -5..5 instead (value = labels[index], here "
        "index - 5)"
    )


def test_csc_rows_of_label_indices_are_refused_with_the_conversion(tmp_path):
    items = [dict(item, annotations=["1", "3", "6"]) for item in PAR_ITEMS]
    rows = [[0, 2, 5], [1, 2, 3], [4, 4, 4], [5, 0, 1]]
    with pytest.raises(SubmissionError) as error:
        read(
            CSC_PE,
            items,
            "".join(f"{i['id']}\t{json.dumps(r)}\n" for i, r in zip(items, rows)),
            tmp_path,
        )
    assert str(error.value).endswith(
        "found '0' on line 1. Every entry of the file is a whole number in 0..5: these look like label indices; "
        "write the label values 1..6 instead (value = labels[index], here index + 1)"
    )


def test_a_label_outside_the_set_among_label_values_has_no_index_hint(tmp_path):
    """A negative entry: the file holds label values, so a 10 is only out of the set."""
    rows = [[10, 5, -2], [0, 3, 5], [1, 2, 4], [1, 2, 4]]
    with pytest.raises(SubmissionError) as error:
        read(
            PAR_PE,
            PAR_ITEMS,
            "".join(f"{i['id']}\t{json.dumps(r)}\n" for i, r in zip(PAR_ITEMS, rows)),
            tmp_path,
        )
    assert str(error.value) == (
        "f.tsv, line 1, item '108770': label outside the track's label set; expected one of "
        "-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, found '10'. Give a label among -5, -4, -3, -2, -1, "
        "0, 1, 2, 3, 4, 5"
    )


@pytest.mark.parametrize(
    ("value", "reading"),
    [
        ("1", "1 is 'neutral' counted from 0 or 'entailment' counted from 1"),
        ("1.0", "1 is 'neutral' counted from 0 or 'entailment' counted from 1"),
        ("3", "3 is 'contradiction' counted from 1"),
    ],
)
def test_a_class_index_where_labels_are_names_names_the_label_as_an_example(
    value, reading, tmp_path
):
    """CLUE's ``{"id": 0, "label": 1}`` from a model's class index, counted from 0 or from 1 (3 of
    3 labels); the track's labels are names."""
    lines = [f'{{"id": {k}, "label": {value}}}' for k in range(len(NLI_ITEMS))]
    with pytest.raises(SubmissionError) as error:
        read(NLI, NLI_ITEMS, "\n".join(lines) + "\n", tmp_path, "ocnli_50k_predict.json")
    assert str(error.value) == (
        "ocnli_50k_predict.json: label outside the track's label set, on 7 lines (lines 1, 2, 3, 4, 5 and 2 more; items "
        "'0', '1', '2', '3', '4', ...); expected one of entailment, neutral, contradiction, found "
        f"'{value}' on line 1. Labels are names, not class indices: write the name itself (as an index in the "
        f"order entailment, neutral, contradiction, {reading}; your model's own label order may differ)"
    )


@pytest.mark.parametrize(
    ("value", "reading"),
    [
        ("LABEL_0", "0 is 'entailment' counted from 0"),
        ("LABEL_2", "2 is 'contradiction' counted from 0"),
    ],
)
def test_hugging_faces_default_label_names_are_told_the_class_index_explanation(
    value, reading, tmp_path
):
    """outside/F6 (o_LABEL_0): Hugging Face's default label names, LABEL_0, LABEL_1, ... (a model
    config without id2label) were told "Give a label among entailment, neutral, contradiction";
    the class indices 0, 1 get the explanation and the labels' order, which LABEL_k now gets."""
    text = "".join(f"{item['id']}\t{value}\n" for item in NLI_ITEMS)
    with pytest.raises(SubmissionError) as error:
        read(NLI, NLI_ITEMS, text, tmp_path)
    assert str(error.value).endswith(
        f"found '{value}' on line 1. {value} is Hugging Face's name of class index {value[6:]} (a "
        "model config without id2label), and labels are names, not class indices: write the name "
        "itself (as an index in the order entailment, neutral, contradiction, "
        f"{reading}; your model's own label order may differ)"
    )


def test_labels_in_the_annotations_chinese_words_are_refused_naming_the_labels(tmp_path):
    """OCNLI's annotators chose among 蕴含, 中立, 矛盾: a file of them is refused with the labels."""
    words = ["蕴含", "中立", "矛盾"]
    text = "".join(f"{item['id']}\t{words[k % 3]}\n" for k, item in enumerate(NLI_ITEMS))
    with pytest.raises(SubmissionError) as error:
        read(NLI, NLI_ITEMS, text, tmp_path)
    assert str(error.value).endswith(
        "found '蕴含' on line 1. Write the track's labels, not the annotation's words: entailment "
        "for 蕴含, neutral for 中立, contradiction for 矛盾"
    )


def test_the_releases_no_majority_mark_is_refused_saying_any_label_will_do(tmp_path):
    """SNLI, MNLI and OCNLI write '-' as the gold of an item without a majority: a file that copies
    it is told such items are not scored, and that any label may be given for them."""
    text = "".join(
        f"{item['id']}\t{'-' if k < 2 else 'neutral'}\n" for k, item in enumerate(NLI_ITEMS)
    )
    with pytest.raises(SubmissionError) as error:
        read(NLI, NLI_ITEMS, text, tmp_path)
    assert str(error.value).endswith(
        "found '-' on line 1. '-' marks an item with no majority label in the release: the track "
        "does not score such items, but each needs one of its labels (any one)"
    )


@pytest.mark.parametrize(("value", "meant"), [("e", "entailment"), ("contra", "contradiction")])
def test_a_label_abbreviated_on_a_track_without_aliases_is_refused_naming_it_in_full(
    value, meant, tmp_path
):
    """OCNLI, unlike ChaosNLI, declares no letter aliases: e/n/c are refused naming the label."""
    text = "".join(f"{item['id']}\t{value}\n" for item in NLI_ITEMS)
    with pytest.raises(SubmissionError) as error:
        read(NLI, NLI_ITEMS, text, tmp_path)
    assert str(error.value).endswith(
        f"found '{value}' on line 1. Write labels in full (this track's abbreviations: none): "
        f"'{meant}' for '{value}'"
    )


def test_a_third_column_is_named_as_one_column_too_many(tmp_path):
    """ID<TAB>LABEL<TAB>CONFIDENCE: the value read is 'entailment\t0.9', outside the label set
    because of the extra column, which the refusal names."""
    text = "".join(f"{item['id']}\t{item['label']}\t0.9\n" for item in NLI_ITEMS)
    with pytest.raises(SubmissionError) as error:
        read(NLI, NLI_ITEMS, text, tmp_path)
    assert str(error.value).endswith(
        "found 'entailment\\t0.9' on line 1. The line has 3 tab-separated columns: write only the "
        "id and the value, ID<TAB>VALUE (df[[id_column, value_column]].to_csv(path, sep='\\t', "
        "index=False)); give a label among entailment, neutral, contradiction"
    )


# --- SemEval's own rules: comment lines ------------------------------------------------------------

COMMENTS_NOTE = "{} comment lines starting with '#' were skipped (SemEval's scorer, correlation.pl, skips them too)"


@pytest.mark.parametrize("by_id", [False, True])
def test_comment_lines_of_a_similarity_file_are_skipped_as_correlation_pl_skips_them(
    by_id, tmp_path
):
    """correlation.pl does ``next if /^\\#/``: a run's name, a comment between the scores, one indented."""
    lines = [f"{k}\t{p}" if by_id else f"{p}" for k, p in enumerate(STS_SCORES)]
    text = (
        "# team X run 1\n"
        + "\n".join(lines[:4])
        + "\n  # second half\n"
        + "\n".join(lines[4:])
        + "\n"
    )
    prediction = read(STS, STS_ITEMS, text, tmp_path)
    assert (
        prediction.format == ("id" if by_id else "positional")
        and prediction.values.tolist() == STS_SCORES
    )
    assert prediction.warnings == [COMMENTS_NOTE.format(2)]


def test_a_bad_score_after_comment_lines_is_named_at_its_own_line(tmp_path):
    text = (
        "# run 1\n"
        + "".join(f"{p}\n" for p in STS_SCORES[:5])
        + "# more\nhigh\n"
        + "".join(f"{p}\n" for p in STS_SCORES[6:])
    )
    with pytest.raises(SubmissionError) as error:
        read(STS, STS_ITEMS, text, tmp_path, "en_en.tsv")
    assert str(error.value) == (
        "en_en.tsv, line 8, item '5': not a number; expected a decimal number such as 3.2, "
        "found 'high'"
    )


def test_a_blank_line_among_comment_lines_is_still_refused_at_its_place(tmp_path):
    text = (
        "# run 1\n"
        + "".join(f"{p}\n" for p in STS_SCORES[:3])
        + "# gap\n\n"
        + "".join(f"{p}\n" for p in STS_SCORES[3:])
    )
    with pytest.raises(SubmissionError) as error:
        read(STS, STS_ITEMS, text, tmp_path, "en_en.tsv")
    assert str(error.value) == (
        "en_en.tsv, line 6: blank line in a positional file; expected one row on every "
        "line, found a line that is empty or only spaces. Positional files are matched to items "
        "by line number"
    )


@pytest.mark.parametrize("blank", ["\n", ""], ids=["a line too many", "a line short"])
def test_a_blank_line_inside_a_positional_file_is_named_whatever_the_line_count(blank, tmp_path):
    """A blank line in place of a score (line 4 emptied) was refused as "wrong number of lines ...
    found 7 non-blank lines", which named no line; a blank line added was named at its line."""
    scores = [f"{p}\n" for p in STS_SCORES]
    scores[3] = blank + (scores[3] if blank else "\n")
    with pytest.raises(SubmissionError) as error:
        read(STS, STS_ITEMS, "".join(scores), tmp_path, "en_en.tsv")
    assert str(error.value) == (
        "en_en.tsv, line 4: blank line in a positional file; expected one row on every "
        "line, found a line that is empty or only spaces. Positional files are matched to items "
        "by line number"
    )


def test_a_first_line_of_spaces_in_a_positional_file_is_named_a_blank_line_at_line_1(tmp_path):
    """A first line of spaces was called "an empty line" "inside" the file: it is neither."""
    text = "  \n" + "".join(f"{p}\n" for p in STS_SCORES)
    with pytest.raises(SubmissionError) as error:
        read(STS, STS_ITEMS, text, tmp_path, "en_en.tsv")
    assert str(error.value).startswith(
        "en_en.tsv, line 1: blank line in a positional file; expected one row on every line, "
        "found a line that is empty or only spaces."
    )


def test_a_run_of_blank_lines_in_a_positional_file_is_named_at_its_first_line(tmp_path):
    """Three blank lines after line 3 were named at the last of them, line 6."""
    text = (
        "".join(f"{p}\n" for p in STS_SCORES[:3])
        + "\n \n\n"
        + "".join(f"{p}\n" for p in STS_SCORES[3:])
    )
    with pytest.raises(SubmissionError) as error:
        read(STS, STS_ITEMS, text, tmp_path, "en_en.tsv")
    assert str(error.value).startswith("en_en.tsv, line 4: blank line in a positional file")


def test_scores_written_as_percentages_are_told_to_drop_the_percent_sign(tmp_path):
    """One score per line written '62.7%' was refused as 'line has no tab', which the file did
    not need: it is read by position and each score is told to drop its % sign."""
    text = "".join(f"{20 * p:.1f}%\n" for p in STS_SCORES)
    with pytest.raises(SubmissionError) as error:
        read(STS, STS_ITEMS, text, tmp_path, "en_en.tsv")
    message = str(error.value)
    assert "not a number, on 8 lines" in message and "line has no tab" not in message
    assert message.endswith("Write the number without the % sign (62.7, not 62.7%)")


def test_no_line_is_a_comment_when_an_item_id_starts_with_a_hash(tmp_path):
    items = [dict(item, id=f"#{item['id']}") for item in STS_ITEMS]
    text = "".join(f"#{k}\t{p}\n" for k, p in enumerate(STS_SCORES))
    prediction = read(STS, items, text, tmp_path)
    assert prediction.values.tolist() == STS_SCORES and prediction.warnings == []


def test_hash_lines_are_no_comments_on_other_tracks(tmp_path):
    text = "# labels\n" + "".join(f"{k}\t{item['label']}\n" for k, item in enumerate(NLI_ITEMS))
    with pytest.raises(SubmissionError) as error:
        read(NLI, NLI_ITEMS, text, tmp_path, "nli.tsv")
    assert str(error.value).startswith("nli.tsv, line 1: line has no tab")


# --- pandas' to_csv defaults: header=True, index=True ----------------------------------------------


@pytest.mark.parametrize(
    "track, items, value",
    [
        (MP_SOFT, MP_ITEMS, "[0.3, 0.7]"),
        (MP_PE, MP_ITEMS, "[0, 1, 1]"),
        (NLI, NLI_ITEMS, "neutral"),
        (STS, STS_ITEMS, "2.5"),
    ],
)
def test_a_pandas_header_line_of_any_column_names_is_read_as_a_header(
    track, items, value, tmp_path
):
    """``df[["dataset_idx", "pred"]].to_csv(sep="\\t", index=False)`` (tomasruizt/lewidi2025 with
    header=True left as is): no name of ``HEADER_NAMES``, but its first field is no id and its second
    no value of the track. It was refused as "unknown id: not an item of this track"."""
    text = "dataset_idx\tpred\n" + "".join(f"{item['id']}\t{value}\n" for item in items)
    prediction = read(track, items, text, tmp_path)
    assert prediction.format == "id" and prediction.warnings == [
        "the first line was read as a header and skipped"
    ]


@pytest.mark.parametrize("first", ["3x\t[0.3, 0.7]", "item_3\t[0.3, 0.7]", "x3\t[0.3]"])
def test_a_first_line_holding_a_value_or_a_value_attempt_is_no_header(first, tmp_path):
    """A mistyped id before a value, or before a value attempt (a list of the wrong length), stays a line
    of the file, refused at its place."""
    text = first + "\n" + "".join(f"{item['id']}\t[0.3, 0.7]\n" for item in MP_ITEMS[1:])
    with pytest.raises(SubmissionError) as error:
        read(MP_SOFT, MP_ITEMS, text, tmp_path, "mp_soft.tsv")
    assert str(error.value).startswith(
        f"mp_soft.tsv, line 1, item {first.split()[0]!r}: unknown id: not an item "
        "of this track. Ids look like '3'"
    )


def test_a_pandas_index_column_is_one_problem_naming_the_cause(tmp_path):
    """to_csv's default index=True: a first header field left empty, and row numbers before each line.
    It gave one problem per line (unknown ids, values that were the ids), none naming the cause."""
    text = "\tdataset_idx\tpred\n" + "".join(
        f"{k}\t{item['id']}\t[0.3, 0.7]\n" for k, item in enumerate(MP_ITEMS)
    )
    with pytest.raises(SubmissionError) as error:
        read(MP_SOFT, MP_ITEMS, text, tmp_path, "mp_soft.tsv")
    assert str(error.value) == (
        "mp_soft.tsv, line 1: the file has an extra first column, a DataFrame's index: its header line starts "
        "with a tab; expected ID<TAB>VALUE lines, after at most one header line such as id<TAB>label, found "
        "'\\tdataset_idx\\tpred'. Write the file with index=False (df.to_csv(path, sep='\\t', index=False))"
    )


@pytest.mark.parametrize("offset", [0, 97])
def test_a_pandas_index_column_without_a_header_is_named_on_the_unknown_ids(offset, tmp_path):
    """to_csv(sep='\\t', header=False) keeps the index: ``0<TAB>42473<TAB>entailment``. Its row
    numbers were named unknown ids ("ids look like '42473'"), or the ids of another phase, and
    nothing said the track's ids were in the second column. No row number is an id of the track
    (offset 0: the whole file's ids are refused), or some are (offset 97)."""
    ids = [str(100 + k) for k in range(6)]
    items = [{"id": i, "texts": ["a", "b"], "label": "neutral"} for i in ids]
    text = "".join(f"{k + offset}\t{i}\tneutral\n" for k, i in enumerate(reversed(ids)))
    with pytest.raises(SubmissionError) as error:
        read(NLI, items, text, tmp_path)
    first = str(error.value).splitlines()[0]
    assert first.startswith("f.tsv: unknown id" if offset else "f.tsv: none of the ids")
    assert first.endswith(
        "The second column holds the track's ids ('105' on line 1): the first column is a "
        "DataFrame's index; write the file with index=False (df.to_csv(path, sep='\\t', index=False))"
    )


SHIFTED_STS_ITEMS = [{**item, "id": str(100 + k)} for k, item in enumerate(STS_ITEMS)]


@pytest.mark.parametrize(
    "sep, name, fix",
    [
        (
            "\t",
            "score",
            "Write the file with index=False (df.to_csv(path, sep='\\t', index=False))",
        ),
        (
            "\t",
            "0",
            "Write the file with index=False, header=False (df.to_csv(path, sep='\\t', "
            "index=False, header=False)): the 1 column name (0) would be read as a value",
        ),
        (
            ",",
            "0",
            "Write the file with tabs and without the index: df.to_csv(path, sep='\\t', "
            "index=False, header=False): the 1 column name (0) would be read as a value",
        ),
    ],
)
def test_a_pandas_index_header_of_one_name_is_the_index_column(sep, name, fix, tmp_path):
    """``df.to_csv(path, sep='\\t')`` of one column (header ``\\tscore``) and an unnamed Series'
    (``\\t0``, ``,0``): the index column was named only before two or more names; the file got
    "unknown id ''", a line count or "line has no tab" on every line, with no fix. The row numbers
    are no ids of the track (a RangeIndex over ids 0..N would be read as them)."""
    text = f"{sep}{name}\n" + "".join(f"{k}{sep}{s}\n" for k, s in enumerate(STS_SCORES))
    with pytest.raises(SubmissionError) as error:
        read(STS, SHIFTED_STS_ITEMS, text, tmp_path)
    cause = ", and commas for tabs: its header line starts with a comma" if sep == "," else ""
    cause = cause or ": its header line starts with a tab"
    assert str(error.value) == (
        f"f.tsv, line 1: the file has an extra first column, a DataFrame's index{cause}; "
        "expected ID<TAB>VALUE lines, after at most one header line such as id<TAB>label, found "
        f"{sep + name!r}. {fix}"
    )


def test_three_columns_of_scores_get_the_semeval_format_not_the_index_hint(tmp_path):
    """``score<TAB>confidence<TAB>ok``: a confidence that was an id of the track ('1') made the
    first column, of scores, "a DataFrame's index". The index hint needs whole numbers first. The
    column count leads (it followed "none of the ids in this file belong to the track", the scores
    shown as ids); followed, the file is read."""
    text = "".join(f"{s}\t{k}\tok\n" for k, s in enumerate(STS_SCORES))
    with pytest.raises(SubmissionError) as error:
        read(STS, STS_ITEMS, text, tmp_path)
    assert str(error.value) == (
        "f.tsv: 8 of the file's 8 lines have 3 or more tab-separated columns, the first holding "
        "scores, not ids; expected the SemEval format, SCORE[<TAB>CONFIDENCE], one line per pair "
        "in input order, found 3 columns on line 1, '0.0\\t0\\tok'. Write the score, then at most a "
        "confidence"
    )
    # followed: the score, then at most a confidence
    text = "".join(f"{s}\t{k}\n" for k, s in enumerate(STS_SCORES))
    assert np.array_equal(read(STS, STS_ITEMS, text, tmp_path).values, STS_SCORES)


def test_pandas_to_csv_defaults_index_and_commas_get_both_fixes(tmp_path):
    """``df.to_csv(path)``: the index kept and commas (``,id,label`` / ``0,42473,neutral``). It was
    refused as lines without a tab, with no hint, while each half alone got its fix."""
    text = ",id,label\n" + "".join(f"{k},{k},neutral\n" for k in range(len(NLI_ITEMS)))
    with pytest.raises(SubmissionError) as error:
        read(NLI, NLI_ITEMS, text, tmp_path)
    assert str(error.value) == (
        "f.tsv, line 1: the file has an extra first column, a DataFrame's index, and commas for "
        "tabs: its header line starts with a comma; expected ID<TAB>VALUE lines, after at most one "
        "header line such as id<TAB>label, found ',id,label'. Write the file with tabs and without "
        "the index: df.to_csv(path, sep='\\t', index=False)"
    )


SHIFTED_NLI_ITEMS = [{**item, "id": str(42473 + k)} for k, item in enumerate(NLI_ITEMS)]


@pytest.mark.parametrize(
    "track, items, header, value",
    [
        (NLI, SHIFTED_NLI_ITEMS, "\tlabel", "neutral"),
        (STS, SHIFTED_STS_ITEMS, "\t0", "2.5"),
        (STS, SHIFTED_STS_ITEMS, ",score", "2.5"),
        (STS, STS_ITEMS, "\tscore", "2.5"),
    ],
)
def test_a_pandas_series_indexed_by_the_ids_is_read_by_id(track, items, header, value, tmp_path):
    """``pd.Series(preds, index=ids, name="label").to_csv(path, sep="\\t")``: its index is the
    track's ids, named or not (``\\t0``), or a RangeIndex that is the ids 0..N. It was refused as a
    DataFrame's index, "write the file with index=False", which deletes the ids; now its first line
    is a header, skipped, and the file read as ID<TAB>VALUE (with commas: each line's missing tab)."""
    sep = header[0]
    text = header + "\n" + "".join(f"{item['id']}{sep}{value}\n" for item in items)
    if sep == ",":
        with pytest.raises(SubmissionError) as error:
            read(track, items, text, tmp_path)
        assert str(error.value).startswith(
            f"f.tsv: line has no tab, on {len(items)} lines (lines 2,"
        )
        return
    prediction = read(track, items, text, tmp_path)
    assert prediction.format == "id" and prediction.warnings == [
        "the first line was read as a header and skipped"
    ]


def test_a_range_index_before_an_id_column_is_the_index_even_over_ids_0_to_n(tmp_path):
    """``df.to_csv(path, sep="\\t")`` of ``id``, ``score`` over a RangeIndex on a track whose ids
    are 0..N: the first column holds ids, but so does the second, under its name: the index."""
    text = "\tid\tscore\n" + "".join(f"{k}\t{k}\t{s}\n" for k, s in enumerate(STS_SCORES))
    with pytest.raises(SubmissionError) as error:
        read(STS, STS_ITEMS, text, tmp_path)
    assert str(error.value).startswith(
        "f.tsv, line 1: the file has an extra first column, a DataFrame's index: its header line "
        "starts with a tab;"
    )


@pytest.mark.parametrize(
    "track, items, first, value",
    [(STS, STS_ITEMS, "3.115", "2.5"), (NLI, NLI_ITEMS, "entailment", "neutral")],
)
def test_a_first_line_of_a_blank_id_and_a_value_is_a_data_line(
    track, items, first, value, tmp_path
):
    """``\\t3.115``, ``\\tentailment``: a line whose id was left blank, not pandas' index header
    (its name is a value of the track). It was refused as a DataFrame's index, "write the file with
    index=False", where it is one line of an unknown id ''."""
    text = f"\t{first}\n" + "".join(f"{item['id']}\t{value}\n" for item in items[1:])
    with pytest.raises(SubmissionError) as error:
        read(track, items, text, tmp_path)
    assert str(error.value).startswith(
        "f.tsv, line 1, item '': unknown id: not an item of this track."
    )


def test_a_quoted_header_line_is_a_header(tmp_path):
    """R's ``write.table(df, row.names=FALSE)``: ``"x"`` then one score per line. The quoted name
    was no header, and the file one line too long for the positional reading."""
    text = '"x"\n' + "".join(f"{s}\n" for s in STS_SCORES)
    prediction = read(STS, STS_ITEMS, text, tmp_path)
    assert list(prediction.values) == STS_SCORES
    assert prediction.warnings == ["the first line was read as a header and skipped"]


@pytest.mark.parametrize("sep", [" ", "\t"])
@pytest.mark.parametrize("ids", [False, True])
def test_r_write_table_defaults_are_one_problem_with_r_fix(sep, ids, tmp_path):
    """R's ``write.table(df)`` defaults: a header of quoted names, then each line's row name "1",
    "2", ... in quotes, space-separated (or ``sep="\\t"``). It was a line count one too many, or
    every line refused as having no tab, with no word of R."""
    header = sep.join(['"id"', '"score"'] if ids else ['"x"'])
    text = f"{header}\n" + "".join(
        sep.join([f'"{k + 1}"', *([f'"{k}"'] if ids else []), str(s)]) + "\n"
        for k, s in enumerate(STS_SCORES)
    )
    with pytest.raises(SubmissionError) as error:
        read(STS, STS_ITEMS, text, tmp_path)
    names = 2 if ids else 1
    assert str(error.value) == (
        'f.tsv, line 1: the file has an extra first column, R\'s row names in quotes ("1", "2", '
        f"...): its header line has {names} name{'s' if ids else ''} and its lines {names + 1} "
        "fields; expected ID<TAB>VALUE lines, after at most one header line such as id<TAB>label, "
        f'found {header!r}. Use write.table(..., row.names=FALSE, quote=FALSE, sep="\\t")'
    )


@pytest.mark.parametrize("header", ['"id"\t"label"\n', ""])
def test_quoted_values_under_r_quoted_header_get_r_fix_too(header, tmp_path):
    """``write.table(df, sep="\\t", row.names=FALSE)``: a header of quoted names, then quoted
    labels (or ids). The hint named Python's csv.QUOTE_NONE only; R's quote=FALSE is given beside
    it when the header is quoted as R writes it, and Python's alone without one."""
    r_fix = "; in R, write.table(..., quote=FALSE)" if header else ""
    text = header + "".join(f'{item["id"]}\t"{item["label"]}"\n' for item in NLI_ITEMS)
    with pytest.raises(SubmissionError) as error:
        read(NLI, NLI_ITEMS, text, tmp_path)
    assert str(error.value).endswith(
        f"write it without quotes (quoting=csv.QUOTE_NONE, quotechar=None{r_fix})"
    )
    text = header + "".join(f'"{item["id"]}"\tneutral\n' for item in NLI_ITEMS)
    with pytest.raises(SubmissionError) as error:
        read(NLI, NLI_ITEMS, text, tmp_path)
    assert str(error.value).endswith(
        f"write the ids without quotes (quoting=csv.QUOTE_NONE, quotechar=None{r_fix})"
    )


@pytest.mark.parametrize("quote", ['"', ""])
def test_r_write_table_row_names_are_named_with_r_fix(quote, tmp_path):
    """R's ``write.table(df, sep="\\t")``: a header without the row names' column, each row named
    "1", "2", ... first, strings quoted. The row names were read as the track's ids in quotes."""
    ids = [str(100 + k) for k in range(6)]
    items = [{"id": i, "texts": ["a", "b"], "label": "neutral"} for i in ids]
    q = quote
    text = f"{q}id{q}\t{q}label{q}\n" + "".join(
        f"{q}{k + 1}{q}\t{q}{i}{q}\t{q}neutral{q}\n" for k, i in enumerate(ids)
    )
    with pytest.raises(SubmissionError) as error:
        read(NLI, items, text, tmp_path)
    first = str(error.value).splitlines()[0]
    assert first.endswith('se write.table(..., row.names=FALSE, quote=FALSE, sep="\\t")')
    assert ("R's row names in quotes" if quote else "the first column is R's row names;") in first


R_IDS = [f"en-tr-{k:03}" for k in range(7, 14)]
R_ITEMS = [{"id": i, "texts": ["a", "b"], "score": 3.0} for i in R_IDS]


@pytest.mark.parametrize("sep", [" ", "\t"], ids=["rdefault", "rtab"])
def test_r_write_table_of_a_named_vector_is_read_as_a_header_over_row_names(sep, tmp_path):
    """hostile/rdefault, rtab: R's write.table of a named vector, a quoted header "x", then
    lines "en-tr-007" 3.0. Line 1 was told "line has no tab", and space-separated no R fix at all.
    A header of quoted names over lines of one field more, the first quoted (R's row names, here
    the ids), is R's: space-separated, it gets R's fix; tab-separated, the header is a header and
    only the ids' quotes are refused, with R's fix."""
    text = '"x"\n' + "".join(f'"{i}"{sep}3.{k}\n' for k, i in enumerate(R_IDS))
    with pytest.raises(SubmissionError) as error:
        read(STS, R_ITEMS, text, tmp_path, "en_en.tsv")
    said = str(error.value)
    assert "line has no tab" not in said
    if sep == " ":
        assert said == (
            "en_en.tsv, line 1: the file has an extra first column, R's row names in quotes "
            "('en-tr-007' on line 2): its header line has 1 name and its lines 2 fields, "
            "space-separated; expected ID<TAB>VALUE lines, after at most one header line such as "
            'id<TAB>label, found \'"x"\'. Use write.table(..., sep="\\t", quote=FALSE, '
            "col.names=FALSE)"
        )
    else:
        assert said.startswith("en_en.tsv: none of the ids in this file belong to the track")
        assert said.endswith(
            "write the ids without quotes (quoting=csv.QUOTE_NONE, quotechar=None; in R, write.table(..., quote=FALSE))"
        )


@pytest.mark.parametrize("sep", ["\t", " "], ids=["r_tab_nq", "r_sp_nq"])
def test_r_write_table_of_a_named_vector_without_quotes_has_its_name_read_as_a_header(
    sep, tmp_path
):
    """regress-c/r_tab_nq, r_sp_nq: R's write.table(v, sep="\\t", quote=FALSE) of a named vector,
    ``x`` over ``en-tr-007<TAB>3.0`` lines, the quoted form's fix. Line 1 was refused "line has no
    tab" with no hint. One name over ID<TAB>VALUE lines is a header; space-separated, each line
    gets the spaces' hint."""
    text = "x\n" + "".join(f"{i}{sep}3.{k}\n" for k, i in enumerate(R_IDS))
    if sep == "\t":
        prediction = read(STS, R_ITEMS, text, tmp_path, "en_en.tsv")
        assert list(prediction.values) == [3 + k / 10 for k in range(len(R_IDS))]
        assert prediction.warnings == ["the first line was read as a header and skipped"]
        return
    with pytest.raises(SubmissionError) as error:
        read(STS, R_ITEMS, text, tmp_path, "en_en.tsv")
    said = str(error.value)
    assert said.startswith(f"en_en.tsv: line has no tab, on {len(R_IDS)} lines (lines 2, 3, ")
    assert said.endswith(
        "The id and the value look separated by spaces: write one tab between them"
    )


@pytest.mark.parametrize("first", ["en-tr-0073.5", "en-tr-007", "3.5", "nan"])
def test_a_first_line_that_is_an_item_or_a_value_is_no_r_vector_name(first, tmp_path):
    """The one-name header of R's named vector is no id of the track, no id with its value glued on
    (a lost tab) and no value: such a first line is still refused at line 1 as a line without a tab."""
    text = f"{first}\n" + "".join(f"{i}\t3.{k}\n" for k, i in enumerate(R_IDS[1:]))
    with pytest.raises(SubmissionError) as error:
        read(STS, R_ITEMS, text, tmp_path, "en_en.tsv")
    assert "line 1: line has no tab" in str(error.value)


# --- the values of many items on one line ----------------------------------------------------------


@pytest.mark.parametrize("line", ["[{}]", "{} ", "{}\t", "{},"])
def test_scores_on_one_line_are_named_as_one_line_of_values(line, tmp_path):
    """``print(list(scores))`` or ``np.savetxt`` of a row: every score on one line. It was refused as a line
    without a tab and every item missing."""
    body = line.format((", " if line[0] == "[" else line[2:]).join(map(str, STS_SCORES)))
    with pytest.raises(SubmissionError) as error:
        read(STS, STS_ITEMS, body + "\n", tmp_path, "en_en.tsv")
    assert str(error.value) == (
        f"en_en.tsv, line 1: the file holds one line of 8 values; expected one line per item (8 items): one score "
        f"per line in input order, or lines such as ID<TAB>3.2, found {shorten(body)!r}. Write one score per line"
    )


def test_labels_in_one_json_list_are_named_as_one_line_of_values(tmp_path):
    with pytest.raises(SubmissionError) as error:
        read(NLI, NLI_ITEMS, json.dumps([item["label"] for item in NLI_ITEMS]), tmp_path, "nli.tsv")
    assert str(error.value).startswith(
        "nli.tsv, line 1: the file holds one line of 7 values; expected one line per "
        "item (7 items): lines such as ID<TAB>entailment, found '["
    )
    assert str(error.value).endswith(". Write one line per item")


@pytest.mark.parametrize(
    "text", ["0\t[0.3, 0.7]", "i0 [0.3, 0.7]", '{"id": 0, "label": "neutral"}', "2.5 80"]
)
def test_one_line_of_one_item_is_not_one_line_of_values(text, tmp_path):
    items = STS_ITEMS if text == "2.5 80" else NLI_ITEMS
    with pytest.raises(SubmissionError) as error:
        read(STS if text == "2.5 80" else NLI, items, text + "\n", tmp_path)
    assert "one line of" not in str(error.value)


@pytest.mark.parametrize("confidence", ["", "\t80"])
def test_decimal_commas_in_a_positional_file_are_named_as_such(confidence, tmp_path):
    """A German or French locale's ``2,68`` one score per line: it was refused as lines without a tab (read
    as ID<TAB>VALUE) and every item missing; the id reading already said "use a dot"."""
    text = "".join(f"{p:.2f}".replace(".", ",") + f"{confidence}\n" for p in STS_SCORES)
    with pytest.raises(SubmissionError) as error:
        read(STS, STS_ITEMS, text, tmp_path, "en_en.tsv")
    assert str(error.value) == (
        "en_en.tsv: not a number, on 8 lines (lines 1, 2, 3, 4, 5 and 3 more; items '0', '1', '2', '3', '4', ...); "
        "expected a decimal number such as 3.2, found '0,00' on line 1. Use a dot as the decimal separator"
    )


def test_a_few_decimal_commas_among_scores_are_named_at_their_lines(tmp_path):
    text = "".join(
        (f"{p:.1f}".replace(".", ",") if k in (2, 5) else f"{p}") + "\n"
        for k, p in enumerate(STS_SCORES)
    )
    with pytest.raises(SubmissionError) as error:
        read(STS, STS_ITEMS, text, tmp_path, "en_en.tsv")
    assert str(error.value) == (
        "en_en.tsv: not a number, on 2 lines (lines 3, 6; items '2', '5'); expected a decimal number such as 3.2, "
        "found '2,4' on line 3. Use a dot as the decimal separator"
    )


@pytest.mark.parametrize("rows, refused", [(1, False), (4, False), (5, True)])
def test_rows_on_one_line_are_one_line_of_values_only_when_one_per_item(rows, refused, tmp_path):
    """A soft label is itself a list: one row alone on a line is one item's value without its id, not many
    items' values; a list of one row per item is."""
    text = json.dumps([[0.3, 0.7]] * rows if rows > 1 else [0.3, 0.7]) + "\n"
    with pytest.raises(SubmissionError) as error:
        read(MP_SOFT, MP_ITEMS, text, tmp_path, "mp_soft.tsv")
    assert str(error.value).startswith(
        "mp_soft.tsv, line 1: the file holds one line of 5 values"
        if refused
        else "mp_soft.tsv, line 1: line has no tab"
    )


@pytest.mark.parametrize("array", [False, True])
@pytest.mark.parametrize("number", ["1e309", "-1e309", "9" * 400], ids=["big", "-big", "digits"])
def test_a_number_that_overflows_in_json_records_is_refused_at_its_item(array, number, tmp_path):
    """hostile/big309arr: 1e309 in a one-line JSON array of records was told "line has no tab"
    (the layout's JSON reading refused the overflow, and the file fell back to TSV), while NaN
    there was refused at its item. The layout reads every number token (an overflow too), and
    the value's own reader refuses it at its item, in JSON lines as in an array."""
    lines = [f'{{"id": "{item["id"]}", "score": 2.5}}' for item in STS_ITEMS]
    lines[3] = lines[3].replace("2.5", number)
    text = f"[{', '.join(lines)}]" if array else "\n".join(lines) + "\n"
    with pytest.raises(SubmissionError) as error:
        read(STS, STS_ITEMS, text, tmp_path, "en_en.tsv")
    sign = "-" if number.startswith("-") else ""
    assert str(error.value) == (
        f"en_en.tsv, line {1 if array else 4}, item '3': not a finite number; expected finite "
        f"numbers, found '{sign}Infinity'. Predict a finite number for every item (the model's "
        "output holds NaN or infinity)"
    )


@pytest.mark.parametrize("number", ["1" * 100_000, "-1e309"], ids=["digits", "exponent"])
def test_a_finite_number_too_large_for_a_float_is_told_so(number, tmp_path):
    """hostile/m2: 100,000 digits '1' in a score column were told "the model's output holds NaN
    or infinity"; the number is finite as written, only too large for a float."""
    lines = [f"{item['id']}\t2.5" for item in STS_ITEMS]
    lines[3] = f"{STS_ITEMS[3]['id']}\t{number}"
    with pytest.raises(SubmissionError) as error:
        read(STS, STS_ITEMS, "\n".join(lines) + "\n", tmp_path, "en_en.tsv")
    message = str(error.value)
    assert message.startswith("en_en.tsv, line 4, item '3': number out of range"), message
    assert "NaN or infinity" not in message
    assert message.endswith(
        f"The number ({len(number):,} characters) is too large for a float, whose magnitude is at "
        "most about 1.8e308: predict a number within the track's range for every item"
    ), message


@pytest.mark.parametrize("quote", ['"', ""])
def test_a_line_beyond_the_csv_modules_field_limit_is_no_r_table(quote, tmp_path):
    """The R write.table check read every file's first line as CSV: a line of one field over the
    csv module's 131,072 characters raised _csv.Error (a traceback, not a refusal)."""
    long = "x" * 140_000
    text = f"{quote}{long}{quote}\n" + "".join(f'"{i}"\t3.0\n' for i in R_IDS)
    with pytest.raises(SubmissionError):
        read(STS, R_ITEMS, text, tmp_path, "en_en.tsv")
    text = f"{R_IDS[0]}\t{long}\n" + "".join(f"{i}\t3.0\n" for i in R_IDS[1:])
    with pytest.raises(SubmissionError):
        read(STS, R_ITEMS, text, tmp_path, "en_en.tsv")


@pytest.mark.parametrize("header", ['"id"\t"label"\r\n', ""])
@pytest.mark.parametrize("quoting", ["QUOTE_MINIMAL", "QUOTE_ALL"])
def test_no_quotes_advice_writes_a_list_of_string_labels_the_kit_reads(quoting, header, tmp_path):
    """A perspectivist file written by csv.writer quotes each JSON list of string labels, doubling
    its '"' (QUOTE_ALL the ids too; R's write.table the header). The advice said csv.QUOTE_NONE,
    which raises "need to escape, but no escapechar set" on that very value (and an escapechar
    writes backslashes into it). The advice's arguments, followed as written (with csv and, if
    importable, pandas), write a file that is read."""
    import csv
    import io

    rows = [[i["id"], json.dumps(["0", "1", str(k % 2)])] for k, i in enumerate(MP_ITEMS)]
    out = io.StringIO(header)
    out.seek(len(header))
    csv.writer(out, delimiter="\t", quoting=getattr(csv, quoting)).writerows(rows)
    with pytest.raises(SubmissionError) as error:
        read(MP_PE, MP_ITEMS, out.getvalue(), tmp_path)
    arguments = str(error.value).rpartition("without quotes (")[2].rstrip(")")
    arguments = arguments.partition("; in R")[0]
    advice = eval(f"dict({arguments})", {"csv": csv})  # the advice, as the participant follows it
    out = io.StringIO()
    csv.writer(out, delimiter="\t", **advice).writerows(rows)
    written = [out.getvalue()]
    try:
        import pandas
    except ImportError:
        pandas = None
    if pandas is not None:
        frame = pandas.DataFrame(rows, columns=["id", "label"])
        written.append(frame.to_csv(sep="\t", index=False, **advice))
    for text in written:
        assert read(MP_PE, MP_ITEMS, text, tmp_path).warnings == []


def test_numpy_savetxt_of_soft_labels_is_told_it_has_no_id_column(tmp_path):
    """``np.savetxt(path, probs)``: lines of numbers apart by spaces, no id. They were told "the id
    and the value look separated by spaces: write one tab", which, followed, makes the first
    probability an id. The hint names the missing id column; its line, followed, is read."""
    import io

    probs = np.array([[0.8, 0.2], [0.25, 0.75], [0.5, 0.5], [1.0, 0.0], [0.1, 0.9]])
    out = io.StringIO()
    np.savetxt(out, probs)
    with pytest.raises(SubmissionError) as error:
        read(MP_SOFT, MP_ITEMS, out.getvalue(), tmp_path)
    assert str(error.value).endswith(
        ". The line is 2 numbers separated by spaces and no id column (numpy.savetxt?): write each "
        "item's id, a tab, then its value in the track's layout, a list as JSON: "
        'f"{id}\\t{json.dumps(row.tolist())}\\n"'
    )
    text = "".join(f"{i['id']}\t{json.dumps(row.tolist())}\n" for i, row in zip(MP_ITEMS, probs))
    assert np.allclose(read(MP_SOFT, MP_ITEMS, text, tmp_path).values, probs)


def follow_pandas_hint(hint: str, records: list[dict]) -> str:
    """The JSON lines a message's pandas fix (``df...to_json(orient="records", lines=True)``) writes
    from ``records``: run as written where pandas is importable, else its rename and columns applied."""
    import re

    expression = hint[hint.index("df") :]
    try:
        import pandas
    except ImportError:
        pandas = None
    if pandas is not None:
        return eval(expression, {"df": pandas.DataFrame(records)})
    renamed = dict(re.findall(r'"(\w+)": "(\w+)"', expression.partition("[[")[0]))
    columns = json.loads("[" + expression.partition("[[")[2].partition("]]")[0] + "]")
    records = [{renamed.get(k, k): v for k, v in record.items()} for record in records]
    return "".join(json.dumps({c: r[c] for c in columns}) + "\n" for r in records)


@pytest.mark.parametrize(
    "track, key, value",
    [(MP_SOFT, "probs", [0.25, 0.75]), (MP_PE, "pred", ["0", "1", "1"])],
)
def test_extra_keys_hint_names_the_key_the_track_reads(track, key, value, tmp_path):
    """JSON lines of an id, the prediction the track reads and more ({"id", "probs", "label"} on a
    soft-label track): the fix always named df[["id", "label"]], which keeps the hard label the
    track does not read (or raises KeyError where the file has none). It names the file's key of the
    value the track reads; followed, the file is read."""
    records = [{"id": i["id"], "label": "x", key: value, "score": 1} for i in MP_ITEMS]
    with pytest.raises(SubmissionError) as error:
        read(track, MP_ITEMS, "".join(json.dumps(r) + "\n" for r in records), tmp_path)
    hint = str(error.value).rpartition(". ")[2]
    assert hint == (
        f'Keep only "id" and the prediction: df[["id", "{key}"]].to_json(orient="records", lines=True)'
    )
    assert read(track, MP_ITEMS, follow_pandas_hint(hint, records), tmp_path).format == "id"


@pytest.mark.parametrize("positions", [True, False])
def test_idx_keyed_json_lines_are_told_their_own_key(positions, tmp_path):
    """Hugging Face's and GLUE's records, {"idx": 0, "label": ...}: told df[["id", "label"]], which
    raises KeyError (the file has no "id"). The fix names "idx": renamed to "id" where it holds the
    track's ids, named as row positions (0..n-1, the ids being others) where it does not, the id
    then taken from the input's row; followed, the file is read."""
    items = [dict(i, id=f"ocnli-{k}" if positions else i["id"]) for k, i in enumerate(NLI_ITEMS)]
    records = [{"idx": k, "label": i["label"]} for k, i in enumerate(items)]
    with pytest.raises(SubmissionError) as error:
        read(NLI, items, "".join(json.dumps(r) + "\n" for r in records), tmp_path)
    hint = str(error.value).rpartition(". ")[2]
    rename = 'Name the id "id" and keep one value: df.rename(columns={"idx": "id"})'
    assert hint == (
        (
            "\"idx\" holds row positions (0 to 6), not the track's ids: write each item's id (the "
            "'id' field of the input file's line at that position) under \"id\", then df"
            if positions
            else rename
        )
        + '[["id", "label"]].to_json(orient="records", lines=True)'
    )
    if positions:  # the id of the input's row idx, under "id"
        records = [dict(r, id=items[r["idx"]]["id"]) for r in records]
    prediction = read(NLI, items, follow_pandas_hint(hint, records), tmp_path)
    assert prediction.values.tolist() == [NLI.labels.index(i["label"]) for i in items]


@pytest.mark.parametrize("delimiter", [",", ";"])
def test_quoted_csv_lines_get_the_separator_hint_and_the_quotes(delimiter, tmp_path):
    """csv.QUOTE_ALL or R's write.csv (write.csv2: ';'): '"id","label"', then '"0","entailment"'.
    They were told "line has no tab" and nothing else (the separator's hint read a first field
    without quotes only). The hint names the separator and the quotes; followed, the file is read."""
    import csv
    import io

    rows = [["id", "label"]] + [[i["id"], i["label"]] for i in NLI_ITEMS]
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, quoting=csv.QUOTE_ALL).writerows(rows)
    with pytest.raises(SubmissionError) as error:
        read(NLI, NLI_ITEMS, out.getvalue(), tmp_path)
    message = str(error.value)
    assert f'found \'"id"{delimiter}"label"\' on line 1. The line looks ' in message
    assert message.endswith(
        "; its fields are in quotes (csv.QUOTE_ALL, R's write.csv): write them without quotes "
        "(quoting=csv.QUOTE_NONE, quotechar=None; in R, write.table(..., quote=FALSE))"
    )
    arguments = message.rpartition("without quotes (")[2].partition("; in R")[0]
    out = io.StringIO()
    csv.writer(out, delimiter="\t", **eval(f"dict({arguments})", {"csv": csv})).writerows(rows)
    assert read(NLI, NLI_ITEMS, out.getvalue(), tmp_path).format == "id"
