"""What a participant reads: one message per problem (with counts), named likely causes, sentences.

Each family has a test of the exact text and a test that 700 identical problems give one line.
"""

import json
import zipfile
from pathlib import Path

import pytest

from codajudge.errors import SubmissionError
from codajudge.formats.archive import FoundFiles, naming_hint, safe_extract
from codajudge.formats.submission import ItemKeys, read_prediction
from codajudge.formats.notes import LEADING_BIN_WITH_MASS, PYTHON_LITERAL, RENORMALISED, ReadNote
from codajudge.scoring import read_track_file
from codajudge.gold import build_gold
from codajudge.tracks import track_from_dict

REPO = Path(__file__).resolve().parents[1]
CSC = track_from_dict(
    {
        "id": "csc_soft",
        "kind": "soft_label",
        "scale": "ordinal",
        "dataset": "csc",
        "labels": ["1", "2", "3", "4", "5", "6"],
    }
)
NLI = track_from_dict(
    {
        "id": "nli",
        "kind": "classification",
        "dataset": "nli",
        "labels": ["entailment", "neutral", "contradiction"],
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
VEN_PE = track_from_dict(
    {
        "id": "ven_pe",
        "kind": "perspectivist",
        "scale": "multilabel",
        "dataset": "ven",
        "labels": ["contradiction", "entailment", "neutral"],
    }
)


def ignored_file_notes(unclaimed, tracks):
    """The notes of the ``unclaimed`` files of a submission that gives no track a file."""
    return FoundFiles(tracks, {}, unclaimed, []).ignored_notes({})


def refuse_no_track_file(display, tracks, unclaimed):
    FoundFiles(tracks, {}, unclaimed, []).refuse_if_none(display)


def gold_of(track, n: int):
    if track.kind == "classification":
        items = [{"id": f"i{k}", "texts": ["a", "b"], "label": "neutral"} for k in range(n)]
    elif track.scale == "multilabel":
        items = [
            {
                "id": f"i{k}",
                "texts": ["a", "b"],
                "annotators": ["Ann1", "Ann2", "Ann3"],
                "annotations": [["neutral"], ["entailment"], ["neutral"]],
            }
            for k in range(n)
        ]
    else:
        labels = list(track.labels)
        items = [
            {
                "id": f"i{k}",
                "texts": ["a", "b"],
                "annotators": ["A1", "A2", "A3", "A4"],
                "annotations": [labels[0], labels[-1], labels[0], labels[-1]],
            }
            for k in range(n)
        ]
    return build_gold(track, items, "gold")


def refusal(track, n: int, value, tmp_path: Path, first=None) -> str:
    path = tmp_path / "f.tsv"
    rows = [
        f"i{k}\t{json.dumps(value) if not isinstance(value, str) else value}\n" for k in range(n)
    ]
    if first is not None:
        rows[0] = f"i0\t{first}\n"
    path.write_text("".join(rows), encoding="utf-8")
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "f.tsv", gold_of(track, n))
    return str(error.value)


def test_csc_rows_of_seven_values_name_the_practice_phase_bin(tmp_path):
    text = refusal(CSC, 700, [0.1, 0.1, 0.1, 0.1, 0.2, 0.2, 0.2], tmp_path)
    assert text == (
        "f.tsv: wrong soft label length, on 700 lines (lines 1, 2, 3, 4, 5 and 695 more; items 'i0', 'i1', 'i2', 'i3', "
        "'i4', ...); expected a list of 6 probabilities, found 7 values, the first 0.1 on line 1. A row of 7 "
        'values looks like the 2025 practice-phase layout, which had an extra, always-zero first bin "0": '
        "drop the first value (it holds probability here, so check that the other 6 are the labels 1..6)"
    )


@pytest.mark.parametrize(
    "row, words",
    [
        (
            [0.2, 0.2, 0.2, 0.2, 0.1, 0.1200001],
            "expected a sum within 0.02 of 1, found sum 1.0200001",
        ),
        (
            [0.2, 0.2, 0.2, 0.2, 0.1, 0.0799999],
            "expected a sum within 0.02 of 1, found sum 0.9799999",
        ),
        ([0.02000001, 0.2, 0.2, 0.2, 0.2, 0.1, 0.08], "found 7 values, the first 0.02000001"),
    ],
)
def test_a_refused_value_is_shown_with_the_digits_that_put_it_outside_the_tolerance(
    tmp_path, row, words
):
    """A sum of 1.0200001 was shown "found sum 1.02", a sum the rule allows."""
    assert words in refusal(CSC, 1, row, tmp_path)


def test_one_row_of_seven_values_reads_as_one_problem(tmp_path):
    text = refusal(
        CSC,
        3,
        [0.2, 0.2, 0.2, 0.2, 0.1, 0.1],
        tmp_path,
        first="[0.1, 0.1, 0.1, 0.1, 0.2, 0.2, 0.2]",
    )
    assert text.startswith(
        "f.tsv, line 1, item 'i0': wrong soft label length; expected a list of 6 "
        "probabilities, found 7 values, the first 0.1. A row of 7 values"
    )
    assert "\n" not in text


def test_labels_that_differ_by_case_name_the_label_meant(tmp_path):
    text = refusal(NLI, 700, "Neutral", tmp_path)
    assert text == (
        "f.tsv: label outside the track's label set, on 700 lines (lines 1, 2, 3, 4, 5 and 695 more; items 'i0', 'i1', "
        "'i2', 'i3', 'i4', ...); expected one of entailment, neutral, contradiction, found 'Neutral' on line 1. "
        "Labels are matched exactly: write 'neutral' (case and spaces count)"
    )


def test_an_object_keyed_by_unknown_spellings_names_each_key_meant(tmp_path):
    """A soft label keyed E/N/C: the hint named 'c' only (the first unknown key's label)."""
    soft = track_from_dict(
        {
            "id": "s",
            "kind": "soft_label",
            "scale": "categorical",
            "dataset": "d",
            "labels": ["entailment", "neutral", "contradiction"],
        }
    )
    text = refusal(soft, 2, {"E": 0.2, "N": 0.5, "C": 0.3}, tmp_path)
    assert text.endswith(
        "found 'C, E, N' on line 1. Write each of the 3 keys as the track spells it: 'contradiction' "
        "for 'C', 'entailment' for 'E', 'neutral' for 'N' (labels are matched exactly; case and "
        "spaces count)"
    ), text


def test_multilabel_names_with_case_and_spaces(tmp_path):
    text = refusal(VEN_PE, 2, [["Entail ment"], ["neutral"], ["neutral"]], tmp_path)
    assert text.splitlines()[0].endswith(
        "expected one of contradiction, entailment, neutral, found 'Entail ment' on line 1. Labels are matched "
        "exactly: write 'entailment' (case and spaces count)"
    )


def test_wrong_row_length_on_every_row_is_one_line(tmp_path):
    text = refusal(MP_PE, 704, ["0", "1", "0"], tmp_path)
    assert text == (
        "f.tsv: wrong number of annotator entries, on 704 lines (lines 1, 2, 3, 4, 5 and 699 more; items 'i0', 'i1', "
        "'i2', 'i3', 'i4', ...); expected 4 entries, one per annotator of the item in this order: A1, A2, A3, "
        "A4, found 3 entries on line 1. The item's annotators are in the input file's 'annotators' field"
    )


def test_two_different_problems_are_two_lines(tmp_path):
    path = tmp_path / "f.tsv"
    path.write_text(
        "".join(f"i{k}\tNeutral\n" for k in range(700)) + "x\tneutral\n", encoding="utf-8"
    )
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "f.tsv", gold_of(NLI, 700))
    lines = str(error.value).splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("f.tsv, line 701, item 'x': unknown id: not an item of this track")


def test_ids_given_again_are_each_listed_once_with_their_own_first_line(tmp_path):
    """Three lines repeat two ids: each id is listed once, and the line it was first given on is
    said for that id only, not for every id of the message."""
    path = tmp_path / "f.tsv"
    rows = [f"i{k}\tneutral\n" for k in (0, 1, 2, 3, 0, 1, 0)]
    path.write_text("".join(rows), encoding="utf-8")
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "f.tsv", gold_of(NLI, 4))
    assert str(error.value) == (
        "f.tsv: duplicate id, on 3 lines (lines 5, 6, 7; items 'i0', 'i1'); expected each id on one "
        "line only, found 'i0' again (first seen on line 1) on line 5. Keep one line per item"
    )


def test_a_first_column_repeating_one_of_the_tracks_ids_names_it_a_duplicate_id(tmp_path):
    """Half a file's lines repeating the track's first id, then the other items' ids: that column
    holds ids, so the refusal names the id repeated and its lines, not a column of no ids."""
    path = tmp_path / "f.tsv"
    path.write_text("i0\tneutral\n" * 4 + "".join(f"i{k}\tneutral\n" for k in range(4, 8)))
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "f.tsv", gold_of(NLI, 8))
    assert str(error.value).startswith(
        "f.tsv: duplicate id, on 3 lines (lines 2, 3, 4; items 'i0'); expected each id on one line "
        "only, found 'i0' again (first seen on line 1) on line 2"
    )


def test_a_problem_of_lines_in_any_item_order_lists_the_first_lines_in_line_order(tmp_path):
    """Values are checked in item order: a file whose ids are not in the track's order still has its
    problem's lines listed from the first line of the file, each item beside its line's, and the
    value found named on the first line."""
    path = tmp_path / "f.tsv"
    order = [6, 2, 7, 0, 5, 1, 4, 3]
    path.write_text("".join(f"i{k}\tmaybe{k}\n" for k in order), encoding="utf-8")
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "f.tsv", gold_of(NLI, 8))
    assert str(error.value).startswith(
        "f.tsv: label outside the track's label set, on 8 lines (lines 1, 2, 3, 4, 5 and 3 more; items "
        "'i6', 'i2', 'i7', 'i0', 'i5', ...); expected one of entailment, neutral, contradiction, "
        "found 'maybe6' on line 1"
    )
    assert _met_at([(9, "a"), (3, "b"), (3, "c"), (1, "d")]) == (
        "f.tsv: bad value, on 4 items (lines 1, 3, 9; items 'd', 'b', 'c', 'a')"
    )


def test_ids_in_quotes_are_named_as_the_tracks_ids_in_quotes(tmp_path):
    """Ids written with their quotes (json.dumps or repr of each id) are not the track's ids: the
    refusal says which id each is and to remove the quotes, for a whole file and for one line."""
    path = tmp_path / "f.tsv"
    path.write_text("".join(f'"i{k}"\tneutral\n' for k in range(3)), encoding="utf-8")
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "f.tsv", gold_of(NLI, 3))
    assert str(error.value) == (
        "f.tsv: none of the ids in this file belong to the track; expected lines such as "
        "'i0'<TAB>entailment, found ids such as '\"i0\"' on line 1. That is the track's id 'i0' in "
        "quotes: "
        "write the ids without quotes (quoting=csv.QUOTE_NONE, quotechar=None)"
    )
    path.write_text("i0\tneutral\n'i1'\tneutral\ni2\tneutral\n", encoding="utf-8")
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "f.tsv", gold_of(NLI, 3))
    assert str(error.value).splitlines()[0] == (
        "f.tsv, line 2, item \"'i1'\": unknown id: not an item of this track. That is the track's "
        "id 'i1' in quotes: write the ids without quotes (quoting=csv.QUOTE_NONE, quotechar=None)"
    )


@pytest.mark.parametrize(
    "line", ["{k}.0\tneutral", '{{"id": {k}.0, "label": "neutral"}}'], ids=["tsv", "json_lines"]
)
def test_ids_written_as_floats_are_named_with_the_integer_ids(line, tmp_path):
    """pandas writes an integer id column holding a NaN as floats (42473.0): the file had no hint,
    and a JSON line was told it must hold "id" and one value, which it does."""
    path = tmp_path / "f.tsv"
    path.write_text("".join(line.format(k=k) + "\n" for k in range(3)), encoding="utf-8")
    gold = build_gold(
        NLI, [{"id": str(k), "texts": ["a", "b"], "label": "neutral"} for k in range(3)], "g"
    )
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "f.tsv", gold)
    assert str(error.value).endswith(
        "found ids such as '0.0' on line 1. Ids written as floats ('0.0' for '0'): write integer "
        'ids (df["id"].astype(int))'
    )


@pytest.mark.parametrize(
    "written, ids, hint",
    [
        (
            "{k:04d}",
            "{k}",
            "Ids padded with zeros ('0998' for the track's '998'): write the ids as",
        ),
        ("{k}", "{k:04d}", "Ids without the track's leading zeros ('998' for the track's '0998')"),
        (
            "test-{k:04d}",
            "test-{k}",
            "Ids padded with zeros ('test-0998' for the track's 'test-998')",
        ),
    ],
    ids=["padded", "unpadded", "text ids ending in a number"],
)
def test_ids_padded_otherwise_with_zeros_are_named_so(written, ids, hint, tmp_path):
    """f'{id:04d}' ('0001' for '1') and int(id) ('1' for '0001'): of ids 998 to 1002, the 3 of four
    digits are the track's as written, the other 2 are told why they are unknown."""
    path = tmp_path / "f.tsv"
    numbers = range(998, 1003)
    path.write_text("".join(written.format(k=k) + "\tneutral\n" for k in numbers), "utf-8")
    items = [{"id": ids.format(k=k), "texts": ["a", "b"], "label": "neutral"} for k in numbers]
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "f.tsv", build_gold(NLI, items, "g"))
    assert "unknown id: not an item of this track, on 2 lines" in str(error.value)
    assert hint in str(error.value)


@pytest.mark.parametrize("line", ["{k}\tneutral", '{{"id": {k}, "label": "neutral"}}'])
def test_the_release_ids_without_the_tracks_prefix_are_named_so(line, tmp_path):
    """The LeWiDi 2023 kit's ids are ``<split>-<release id>`` (``dev-10``): a file of the release's
    own ids (``10``) had no hint. The prefix named is the one every track id starts with that makes
    the file's ids the track's ('dev-', not the longer 'dev-1' all these ids share)."""
    path = tmp_path / "f.tsv"
    path.write_text("".join(line.format(k=k) + "\n" for k in range(10, 13)), encoding="utf-8")
    items = [{"id": f"dev-{k}", "texts": ["a", "b"], "label": "neutral"} for k in range(10, 13)]
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "f.tsv", build_gold(NLI, items, "g"))
    assert str(error.value).endswith(
        "found ids such as '10' on line 1. These are the track's ids without their prefix 'dev-' "
        "('10' for 'dev-10'): write the ids as the input file gives them (its 'id' field)"
    )


@pytest.mark.parametrize(
    "written, hint",
    [
        ("ArMIS_test-{k}", "an extra prefix 'ArMIS_' ('ArMIS_test-10' for 'test-10'): remove"),
        (
            "ArMIS-{k}",
            "an extra prefix 'ArMIS-', without their prefix 'test-' ('ArMIS-10' for 'test-10'): remove",
        ),
        (
            "hs_brexit_{k}",
            "an extra prefix 'hs_brexit_', without their prefix 'test-' ('hs_brexit_10' for",
        ),
    ],
)
def test_ids_with_a_dataset_name_in_front_are_told_to_remove_it(written, hint, tmp_path):
    """Ids with a leading dataset or track name (``ArMIS_test-1``) were told only that none is
    the track's: the hint names the extra part to remove (and the track's prefix, if missing)."""
    path = tmp_path / "f.tsv"
    path.write_text("".join(f"{written.format(k=k)}\tneutral\n" for k in range(10, 13)))
    items = [{"id": f"test-{k}", "texts": ["a", "b"], "label": "neutral"} for k in range(10, 13)]
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "f.tsv", build_gold(NLI, items, "g"))
    message = str(error.value)
    assert "These are the track's ids with " + hint in message, message
    assert message.endswith("write the ids as the input file gives them (its 'id' field)")


def test_a_csv_quoted_file_has_its_header_skipped_and_its_quoting_named(tmp_path):
    """csv.QUOTE_ALL (pandas' to_csv(quoting=csv.QUOTE_ALL)) quotes the header too: it is read as a
    header, and the quoted ids, or labels, are refused naming the quoting."""
    path = tmp_path / "f.tsv"
    path.write_text('"id"\t"label"\n' + "".join(f'"i{k}"\t"neutral"\n' for k in range(3)))
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "f.tsv", gold_of(NLI, 3))
    assert "ids such as '\"i0\"' on line 2. That is the track's id 'i0' in quotes" in str(
        error.value
    )
    path.write_text('"id"\t"label"\n' + "".join(f'i{k}\t"neutral"\n' for k in range(3)))
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "f.tsv", gold_of(NLI, 3))
    assert str(error.value).endswith(
        "found '\"neutral\"' on line 2. The value is CSV-quoted: write it without quotes "
        "(quoting=csv.QUOTE_NONE, quotechar=None; in R, write.table(..., quote=FALSE))"
    )


def test_the_example_line_of_a_file_of_other_ids_fits_the_item_it_names(tmp_path):
    """A perspectivist file whose ids are none of the track's: its expected line has one label per
    annotator of the item it names, so that the line, copied, is read."""
    path = tmp_path / "f.tsv"
    for track, example in (
        (MP_PE, '["0", "1", "0", "1"]'),
        (VEN_PE, "[[1, 0, 1], [0, 0, 0], [0, 1, 0]]"),
    ):
        path.write_text("x0\t[]\n", encoding="utf-8")
        with pytest.raises(SubmissionError) as error:
            read_track_file(path, "f.tsv", gold_of(track, 1))
        assert f"expected lines such as 'i0'<TAB>{example}, found" in str(error.value)
        path.write_text(f"i0\t{example}\n", encoding="utf-8")
        read_track_file(path, "f.tsv", gold_of(track, 1))


def test_file_name_near_miss_names_the_track():
    tracks = [
        track_from_dict({"id": "en_en", "kind": "similarity", "dataset": "sts"}),
        track_from_dict(
            {
                "id": "ven_pe",
                "kind": "perspectivist",
                "scale": "multilabel",
                "dataset": "ven",
                "labels": ["a", "b"],
                "files": ["ven_*_pe.tsv", "varierrnli_*_pe.tsv"],
            }
        ),
    ]
    assert ignored_file_notes(["en-en.tsv"], tracks) == [
        "file 'en-en.tsv' matches no track and was ignored; it was probably meant for track 'en_en': name it "
        "en_en.tsv"
    ]
    assert ignored_file_notes(["VariErrNLI-test-pe.tsv"], tracks)[0].endswith(
        "track 'ven_pe': name it varierrnli_test_pe.tsv"
    )
    assert ignored_file_notes(["notes.md"], tracks) == [
        "file 'notes.md' matches no track and was ignored"
    ]
    assert naming_hint(["readme.txt", "en-en.txt"], tracks) == (
        "file 'en-en.txt' was probably meant for track 'en_en': name it en_en.tsv"
    )


def test_a_name_starting_with_a_datasets_name_names_that_datasets_tracks_without_a_file():
    """LeWiDi 2023's MP_results.tsv in a 2025 submission was only "matches no track": a name that
    starts with one dataset's name (any case) is meant for that dataset's tracks given no file,
    and LeWiDi 2023's name is said to be so."""
    tracks = [
        track_from_dict({"id": f"mp_{k}", "kind": "similarity", "dataset": "mp"})
        for k in ("soft", "hard")
    ] + [track_from_dict({"id": "csc_soft", "kind": "similarity", "dataset": "csc"})]
    found = FoundFiles(tracks, {"csc_soft": Path("csc_soft.tsv")}, ["MP_results.tsv"], [])
    assert found.ignored_notes({"csc_soft": "csc_soft.tsv"}) == [
        "file 'MP_results.tsv' matches no track and was ignored; it was probably meant for tracks "
        "'mp_soft' and 'mp_hard' (<Dataset>_results.tsv is the LeWiDi 2023 name, one file per "
        "dataset): name their files mp_soft.tsv and mp_hard.tsv"
    ]
    given = {"mp_soft": "mp_soft.tsv"}  # only the track without a file is named
    assert FoundFiles(tracks, given, ["mp-extra.tsv"], []).ignored_notes(given) == [
        "file 'mp-extra.tsv' matches no track and was ignored; it was probably meant for track "
        "'mp_hard': name it mp_hard.tsv"
    ]


@pytest.mark.parametrize("name", ["ArMIS_results.txt", "armis_results.csv"])
def test_a_shared_file_of_the_wrong_suffix_is_told_to_rename_it(name):
    """ArMIS_results.txt was told to name its tracks' files armis_soft.tsv and armis_hard.tsv:
    renaming it ArMIS_results.tsv, the name both tracks accept, is the whole fix."""
    shared = "ArMIS_results.tsv"
    tracks = [
        track_from_dict(
            {"id": f"armis_{k}", "kind": "similarity", "dataset": "armis", "files": [shared]}
        )
        for k in ("soft", "hard")
    ]
    assert ignored_file_notes([name], tracks) == [
        f"file {name!r} matches no track and was ignored; it was probably meant for tracks "
        "'armis_soft' and 'armis_hard': rename it ArMIS_results.tsv"
    ]


LEWIDI_TRACKS = [
    track_from_dict(
        {"id": f"{d}_{k}", "kind": "similarity", "dataset": d, "files": [f"{d}_*_{k}.tsv"]}
    )
    for d in ("csc", "mp")
    for k in ("soft", "pe")
]


@pytest.mark.parametrize("name", ["CSC_test_soft.jsonl", "csc_soft.txt", "csc_soft"])
def test_a_file_of_a_track_given_none_but_for_its_suffix_refuses_the_submission(name):
    """LeWiDi 2025's CSC_test_soft.jsonl beside MP_test_soft.tsv was ignored with a note, and the
    submission scored without it: a name a track given no file accepts but for its suffix refuses
    the submission, with the name to give the file."""
    given = {"mp_soft": "MP_test_soft.tsv"}
    found = FoundFiles(LEWIDI_TRACKS, {"mp_soft": Path("MP_test_soft.tsv")}, [name], [])
    with pytest.raises(SubmissionError) as refused:
        found.refuse_meant(given)
    stem, dot, suffix = name.partition(".")
    suffix = f"suffix '.{suffix}'" if dot else "no suffix"
    assert str(refused.value) == (
        f"{name}: the file matches no track only by its suffix: track 'csc_soft' has no "
        "file, and this one would be ignored: the submission would be scored without track "
        "'csc_soft'; expected "
        "a name that track 'csc_soft' reads: csc_soft.tsv or csc_*_soft.tsv (any case; * stands for any "
        f"text), found {suffix}. Rename it {stem}.tsv"
    )


@pytest.mark.parametrize(("name", "refused"), [("csc_soft.txt", True), ("CSC_results.tsv", False)])
def test_a_zip_extracted_for_its_tracks_refuses_a_file_meant_for_one_as_the_folder_does(
    tmp_path, name, refused
):
    """regress-d: codajudge rank (which extracts a zip's track files only) scored a zip holding
    csc_soft.txt and no csc_soft file, which both programs refuse in the extracted folder: the
    extraction refuses it too; a looser near miss is still skipped with its warning."""
    path = tmp_path / "sub.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("mp_soft.tsv", "1\t[0.5, 0.5]\n")
        zf.writestr(name, "1\t[0.5, 0.5]\n")
    (tmp_path / "out").mkdir()
    if not refused:
        warnings = safe_extract(path, tmp_path / "out", "sub.zip", LEWIDI_TRACKS)
        assert warnings == [f"file {name!r} matches no track and was ignored"]
        return
    with pytest.raises(SubmissionError, match="the file matches no track only by its suffix"):
        safe_extract(path, tmp_path / "out", "sub.zip", LEWIDI_TRACKS)


@pytest.mark.parametrize("name", ["CSC_results.tsv", "mp_soft.txt", "csc_soft.zip"])
def test_a_looser_near_miss_is_a_note_and_the_submission_is_scored(name):
    """A Task-B-only submission with a stray file is scored: a file meant for a dataset's tracks
    by its name's start, a name like a track's given a file and an archive are notes, not
    refusals; only a file the kit ties to tracks given none (by its suffix, or to one track by
    its name) refuses."""
    given = {"mp_soft": "mp_soft.tsv"}
    found = FoundFiles(LEWIDI_TRACKS, {"mp_soft": Path("mp_soft.tsv")}, [name], [])
    found.refuse_meant(given)
    assert repr(name) in found.ignored_notes(given)[0]


@pytest.mark.parametrize("name", ["snli.jsonl", "snli.txt"])
def test_a_document_of_the_wrong_suffix_is_told_the_name_its_tracks_pattern_takes(name):
    """A ChaosNLI document named snli.jsonl was told to name its tracks' files snli_soft.tsv
    and snli_nli.tsv (one file cannot take two names): its name with the suffix of the pattern both
    tracks share (snli*.json) is the whole fix."""
    tracks = [
        track_from_dict(
            {"id": f"snli_{k}", "kind": "similarity", "dataset": "snli", "files": ["snli*.json"]}
        )
        for k in ("soft", "nli")
    ]
    renamed = name.rsplit(".", 1)[0] + ".json"
    # JSON lines renamed .json are refused unless they are one document (one line)
    document = ", written as one JSON document, not one record a line" if "jsonl" in name else ""
    assert ignored_file_notes([name], tracks) == [
        f"file {name!r} matches no track and was ignored; it was probably meant for tracks "
        f"'snli_soft' and 'snli_nli': rename it {renamed}{document}"
    ]


NLI_TRACKS = [
    track_from_dict(
        {
            "id": f"{part}_{kind}",
            "kind": kind_name,
            "dataset": part,
            "files": [f"{part}*.json"],
            "labels": ["entailment", "neutral", "contradiction"],
            **extra,
        }
    )  # fmt: skip
    for part in ("snli", "ocnli")
    for kind, kind_name, extra in (
        ("soft", "soft_label", {"scale": "categorical"}),
        ("nli", "classification", {}),
    )
]


@pytest.mark.parametrize(
    "name, value, meant",
    [
        ("snli_soft.jsonl", [0.2, 0.5, 0.3], "snli_soft"),  # its name is the track's id
        ("snli_nli.jsonl", "neutral", "snli_nli"),
        ("snli.jsonl", [0.2, 0.5, 0.3], "snli_soft"),  # not snli.json: snli_nli reads it too
        ("OCNLI_50k.json", "neutral", "ocnli_nli"),  # labels: the label track's
        ("OCNLI_50k.json", [0.2, 0.5, 0.3], "ocnli_soft"),  # probabilities: the soft track's
    ],
)
def test_a_file_for_one_of_a_parts_tracks_is_told_a_name_that_track_alone_reads(
    tmp_path, name, value, meant
):
    """snli_soft.jsonl was told "tracks 'snli_soft' and 'snli_nli': rename it snli_soft.json,
    written as one JSON document", refused again, and CLUE's OCNLI_50k.json of labels was told both
    OCNLI tracks: a file named as a track's id is that track's, else a file of labels a label
    track's and of probabilities a soft-label track's; the name offered is read by that track alone
    (its .tsv, which reads JSON lines), and the file renamed so is scored."""
    ids = ["a1", "a2"]
    lines = "".join(json.dumps({"id": item, "label": value}) + "\n" for item in ids)
    (tmp_path / name).write_text(lines, encoding="utf-8")
    found = FoundFiles(NLI_TRACKS, {}, [name], [], (), tmp_path)
    with pytest.raises(SubmissionError) as refused:
        found.refuse_if_none("submission")
    fix = f"ile {name!r} was probably meant for track '{meant}': "  # File, or file after words
    renamed = str(refused.value).partition(fix)[2].split()[-1]
    assert fix in str(refused.value) and renamed == f"{meant}.tsv"
    note = found.ignored_notes({})[0]
    assert f"meant for track '{meant}': " in note and note.endswith(f" {renamed}")
    (tmp_path / name).rename(tmp_path / renamed)
    track = next(t for t in NLI_TRACKS if t.id == meant)
    assert [t.id for t in NLI_TRACKS if renamed in t.file_names] == [meant]
    assert read_prediction(tmp_path / renamed, renamed, track, ItemKeys(ids)).values is not None


@pytest.mark.parametrize("first", ["id\tlabel", "# sys", "", "ID\tPRED\n# run 2"])
def test_a_header_or_a_comment_first_does_not_defeat_routing_by_content(tmp_path, first):
    """snli.tsv of labels after a header line (id<TAB>label) or a comment (# sys) was told both
    tracks, "rename it snli.json", which then failed: the file is routed by the first of its first
    lines whose value a track reads, blank lines, comments and a header passed over as the readers
    pass them over."""
    lines = f"{first}\na1\tneutral\na2\tentailment\n"
    (tmp_path / "snli.tsv").write_text(lines, encoding="utf-8")
    found = FoundFiles(NLI_TRACKS, {}, ["snli.tsv"], [], (), tmp_path)
    with pytest.raises(SubmissionError) as refused:
        found.refuse_if_none("submission")
    assert str(refused.value).endswith(
        "File 'snli.tsv' was probably meant for track 'snli_nli': name it snli_nli.tsv"
    )


@pytest.mark.parametrize("name", ["OCNLI_50k.json", "ocnli_30k.json"])
def test_a_file_refused_for_a_test_set_submissions_name_is_told_the_test_set_first(tmp_path, name):
    """CLUE's OCNLI_50k.json was refused with "name it nli.tsv" alone, and renamed it scored at
    chance with no warning (its ids are CLUE's test set, not this phase's items): a file refused
    for a name of coverage.TEST_SUBMISSIONS is told the test-set warning's words before the name to
    give it, in the refusal and in the note where another file is read."""
    (tmp_path / name).write_text('{"id": 0, "label": "neutral"}\n', encoding="utf-8")
    found = FoundFiles(NLI_TRACKS, {}, [name], [], (), tmp_path)
    with pytest.raises(SubmissionError) as refused:
        found.refuse_if_none("submission")
    words = f"{name} is the name of the submission file for clue's ocnli test set".lower()
    message = str(refused.value).lower()  # the hint's first letter is a capital
    assert words in message and "expect a score near chance" in message
    assert message.index(words) < message.index(f"file {name.lower()!r} was probably meant")
    note = found.ignored_notes({"snli_nli": "snli_nli.tsv"})[0].lower()
    assert words in note and note.index(words) < note.index("probably meant for")
    assert FoundFiles(NLI_TRACKS, {}, ["x.json"], [], (), tmp_path).ignored_notes({}) == [
        "file 'x.json' matches no track and was ignored"
    ]


@pytest.mark.parametrize(
    "value, meant",
    [
        (
            "[0.2, 0.5, 0.3]",
            "it was probably meant for track 'nli_zh_soft': name it nli_zh_soft.tsv",
        ),
        ("neutral", "its name is like that of track 'nli_zh', which is read from nli_zh.tsv"),
    ],
)
def test_a_file_named_like_a_given_tracks_is_told_the_track_its_content_reads(
    tmp_path, value, meant
):
    """d_both_mis: nli_zh_probs.tsv of probabilities beside nli_zh.tsv was told "its name is like
    that of track 'nli_zh'" while nli_zh_soft had no file: where the content reads for a track of
    the same dataset given no file (and not for the track read), that track is named."""
    labels = ["entailment", "neutral", "contradiction"]
    tracks = [
        track_from_dict(
            {"id": "nli_zh", "kind": "classification", "dataset": "nli_zh", "labels": labels}
        ),
        track_from_dict(
            {
                "id": "nli_zh_soft",
                "kind": "soft_label",
                "scale": "categorical",
                "dataset": "nli_zh",
                "labels": labels,
            }
        ),
    ]
    (tmp_path / "nli_zh_probs.tsv").write_text(f"a1\t{value}\n", encoding="utf-8")
    found = FoundFiles(tracks, {}, ["nli_zh_probs.tsv"], [], (), tmp_path)
    note = found.ignored_notes({"nli_zh": "nli_zh.tsv"})[0]
    assert note.startswith(f"file 'nli_zh_probs.tsv' matches no track and was ignored; {meant}")


def sts_tracks(*numbered: tuple[str, str]) -> list:
    """Similarity tracks named as sts2017's are: (SemEval track number, track id) each."""
    return [
        track_from_dict(
            {
                "id": track_id,
                "kind": "similarity",
                "dataset": f"sts_{track_id}",
                "files": [f"STS.output.track{n}.*.txt"],
            }
        )
        for n, track_id in numbered
    ]


def test_a_name_starting_with_the_first_word_of_a_datasets_file_names_names_its_tracks():
    """VariErrNLI_results.tsv matched no track and got no guess: lewidi2025's ven tracks take
    varierrnli_*_soft.tsv, so the first word of a track's file names names its dataset too."""
    tracks = [
        track_from_dict(
            {
                "id": f"ven_{k}",
                "kind": "similarity",
                "dataset": "ven",
                "files": [f"varierrnli_*_{k}.tsv"],
            }
        )
        for k in ("soft", "pe")
    ]
    notes = ignored_file_notes(["VariErrNLI_results.tsv"], tracks)
    assert notes == [
        "file 'VariErrNLI_results.tsv' matches no track and was ignored; it was probably meant for "
        "tracks 'ven_soft' and 'ven_pe' (<Dataset>_results.tsv is the LeWiDi 2023 name, one file per "
        "dataset): name their files ven_soft.tsv and ven_pe.tsv"
    ]
    # a track's own <id>.tsv names no dataset: sts2017's track1.tsv (ar-ar) is not tr_en's
    sts = sts_tracks(("1", "ar_ar"), ("6", "tr_en"))
    assert ignored_file_notes(["track1.tsv"], sts) == [
        "file 'track1.tsv' matches no track and was ignored"
    ]


def test_a_name_holding_a_word_of_another_tracks_names_is_no_guess():
    """Track4b_es-en.tsv holds every word of es_en.tsv but also track4b, a word of es_en_mt's names:
    it was "probably meant for track 'es_en'", and the two tracks' items share ids, so the renamed
    file was scored as the other track. A name naming another track too is no guess."""
    sts = sts_tracks(("4a", "es_en"), ("4b", "es_en_mt"), ("5", "en_en"))
    for name in ("Track4b_es-en.tsv", "sts_track5_es-en.tsv", "es_en_4b.tsv", "track_4b_es_en.tsv"):
        assert ignored_file_notes([name], sts) == [
            f"file '{name}' matches no track and was ignored"
        ]
    assert naming_hint(["Track5_en-en.tsv"], sts).endswith("track 'en_en': name it en_en.tsv")


def test_a_name_holding_every_word_of_one_tracks_name_is_a_near_miss():
    """Words in another order or with more words (a team suffix, STS.out for STS.output) were no near
    miss: only the same name loosely was. A name holding the words of two tracks (en_es_en) gets no
    guess, nor one holding no track's words all (csc_test)."""
    tracks = [
        track_from_dict({"id": "en_en", "kind": "similarity", "dataset": "sts"}),
        track_from_dict({"id": "es_en", "kind": "similarity", "dataset": "sts"}),
        track_from_dict(
            {
                "id": "csc_soft",
                "kind": "soft_label",
                "scale": "ordinal",
                "dataset": "csc",
                "labels": ["1", "2"],
                "files": ["csc_*_soft.tsv"],
            }
        ),
        track_from_dict(
            {
                "id": "csc_pe",
                "kind": "perspectivist",
                "scale": "ordinal",
                "dataset": "csc",
                "labels": ["1", "2"],
                "files": ["csc_*_pe.tsv"],
            }
        ),
    ]
    meant = {
        name: naming_hint([name], tracks)
        for name in (
            "CSC_soft_test.tsv",
            "csc_test_soft_final.tsv",
            "STS.out.track5.en-en.txt",
            "en_en_predictions.tsv",
            "csc_test.tsv",
            "en_es_en.tsv",
            "en_es.tsv",
            "notes.txt",
        )
    }
    guess = "name each file after its track (see the starting kit)"
    assert (
        meant
        == {
            "CSC_soft_test.tsv": "file 'CSC_soft_test.tsv' was probably meant for track 'csc_soft': name it csc_soft.tsv",
            "csc_test_soft_final.tsv": "file 'csc_test_soft_final.tsv' was probably meant for track 'csc_soft': name it "
            "csc_soft.tsv",
            "STS.out.track5.en-en.txt": "file 'STS.out.track5.en-en.txt' was probably meant for track 'en_en': name it "
            "en_en.tsv",
            "en_en_predictions.tsv": "file 'en_en_predictions.tsv' was probably meant for track 'en_en': name it "
            "en_en.tsv",
            "en_es.tsv": "file 'en_es.tsv' was probably meant for track 'es_en': name it es_en.tsv",  # the pair reversed
            "csc_test.tsv": "file 'csc_test.tsv' was probably meant for tracks 'csc_soft' and "
            "'csc_pe': name their files csc_soft.tsv and csc_pe.tsv",  # the dataset's tracks
            "en_es_en.tsv": guess,
            "notes.txt": guess,
        }
    )


def test_a_name_fitting_two_tracks_patterns_shortened_is_no_guess():
    """STS.output.track4.es-en.txt (sts2017: track4a is es_en, track4b es_en_mt) was said to be
    meant for es_en, whose name's words it holds, though its track4 is as much track4b's: a word
    shortened is held too, so the name fits both tracks and is no near miss; a name fitting one
    track's pattern only is still one."""
    tracks = [
        track_from_dict(
            {"id": track_id, "kind": "similarity", "dataset": track_id, "files": [name]}
        )
        for track_id, name in (
            ("ar_ar", "STS.output.track1.*.txt"),
            ("es_en", "STS.output.track4a.*.txt"),
            ("es_en_mt", "STS.output.track4b.*.txt"),
        )
    ]
    meant = {  # the name offered keeps the scheme used
        "STS.output.track4.es-en.txt": None,
        "STS.output.track4.txt": None,
        "STS.output.track4b.es-en.txt.txt": ("es_en_mt", "STS.output.track4b.es-en-mt.txt"),
        "STS.output.track1.txt": ("ar_ar", "STS.output.track1.ar-ar.txt"),
    }
    assert {name: naming_hint([name], tracks) for name in meant} == {
        name: f"file {name!r} was probably meant for track '{track[0]}': name it {track[1]}"
        if track
        else "name each file after its track (see the starting kit)"
        for name, track in meant.items()
    }


def test_a_name_of_a_tracks_words_mistyped_is_a_near_miss():
    """Typos were no near miss (irony_sfot.tsv, sarcasm_persp.tsv: "2 files match no track"): a
    name whose words are one track's in order, each mistyped (a transposition), shortened or
    lengthened, is now one, before the names holding a track's words (nli_zh_sotf is
    nli_zh_soft's, not nli_zh's); a name of other words, a change to a short word (pred is not
    pe), or a guess between two tracks is none. Beyond the first few, the near misses are still
    each named with their track."""
    tracks = [
        track_from_dict({"id": track_id, "kind": "similarity", "dataset": "d"})
        for track_id in ("en_en", "es_en", "nli_zh", "nli_zh_soft", "irony_soft", "irony_pe")
        + ("sarcasm_soft", "sarcasm_pe")
    ]
    meant = {
        "irony_sfot.tsv": "irony_soft",
        "sarcasm_persp.tsv": "sarcasm_pe",
        "Irony_Perspectivist.tsv": "irony_pe",
        "sarcsam_soft.tsv": "sarcasm_soft",
        "nli_zh_sotf.tsv": "nli_zh_soft",
        "eng-eng.tsv": "en_en",
    }
    for name in ("predictions.tsv", "irony_pred.tsv", "sarcasm.tsv", "en_ar.tsv", "model.py"):
        meant[name] = None  # other words, a short word changed, two tracks, another pair
    hints = {name: naming_hint([name], tracks) for name in meant}
    assert hints == {
        name: f"file {name!r} was probably meant for track '{track}': name it {track}.tsv"
        if track
        else "name each file after its track (see the starting kit)"
        for name, track in meant.items()
    }
    notes = ignored_file_notes(list(meant), tracks)
    assert notes[5:] == [
        "1 more file named like a track's file was ignored: 'eng-eng.tsv' for track 'en_en'",
        "5 files match no track and were ignored: 'predictions.tsv', 'irony_pred.tsv', "
        "'sarcasm.tsv', 'en_ar.tsv', 'model.py'",
    ]


def test_no_track_file_lists_each_tracks_other_accepted_names():
    """A zip following the 2025 instructions with a team suffix (MP_test_soft_teamX.tsv): the refusal listed
    only the canonical names (mp_soft.tsv), not the 2025 names a participant would recognise."""
    tracks = [
        track_from_dict({"id": "en_en", "kind": "similarity", "dataset": "sts"}),
        track_from_dict(
            {
                "id": "ven_pe",
                "kind": "perspectivist",
                "scale": "multilabel",
                "dataset": "ven",
                "labels": ["a", "b"],
                "files": ["ven_*_pe.tsv", "varierrnli_*_pe.tsv"],
            }
        ),
    ]
    with pytest.raises(SubmissionError) as error:
        refuse_no_track_file("res.zip", tracks, ["VEN_test_pe_teamX.tsv"])
    assert str(error.value) == (
        "res.zip: no prediction file for any track was found; expected files named en_en: en_en.tsv; ven_pe: "
        "ven_pe.tsv or ven_*_pe.tsv or varierrnli_*_pe.tsv (any case; * stands for any text), found "
        "VEN_test_pe_teamX.tsv. File 'VEN_test_pe_teamX.tsv' was probably meant for track 'ven_pe': name it "
        "ven_pe.tsv"
    )
    with pytest.raises(SubmissionError) as error:
        refuse_no_track_file("res.zip", tracks[:1], [])
    assert "expected files named en_en: en_en.tsv, found no files" in str(error.value)


def test_700_ignored_files_are_one_note():
    tracks = [track_from_dict({"id": "en_en", "kind": "similarity", "dataset": "sts"})]
    names = [f"run{k}.log" for k in range(700)] + ["en-en.tsv"]
    assert ignored_file_notes(names, tracks) == [
        "file 'en-en.tsv' matches no track and was ignored; it was probably meant for track 'en_en': name it "
        "en_en.tsv",
        "700 files match no track and were ignored: 'run0.log', 'run1.log', 'run2.log', 'run3.log', 'run4.log' and 695 more",
    ]


def test_700_rows_whose_repeated_annotator_disagrees_are_one_line(tmp_path):
    """Rows written over the release's annotators string (Ann2 listed twice) whose two Ann2 entries differ."""
    items = [
        {
            "id": f"i{k}",
            "texts": ["a", "b"],
            "annotators": ["Ann1", "Ann2", "Ann3"],
            "annotators_listed": ["Ann1", "Ann2", "Ann2", "Ann3"],
            "annotations": [["neutral"], ["entailment", "neutral"], ["neutral"]],
        }
        for k in range(700)
    ]
    path = tmp_path / "f.tsv"
    path.write_text(
        "".join(f"i{k}\t[[0, 0, 0, 0], [0, 1, 0, 0], [1, 1, 1, 1]]\n" for k in range(700)),
        encoding="utf-8",
    )
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "f.tsv", build_gold(VEN_PE, items, "gold"))
    text = str(error.value)
    assert len(text.splitlines()) == 1, text
    assert text.startswith(
        "f.tsv: annotator Ann2 is given different entries at positions 2 and 3, on 700 lines (lines 1, 2, 3, 4, "
        "5 and 695 more; items 'i0', 'i1', 'i2', 'i3', 'i4', ...); expected one entry per annotator (3: Ann1, Ann2, "
        "Ann3), or one per name of the release's annotators list (4: Ann1, Ann2, Ann2, Ann3) with equal "
        "entries for a repeated annotator"
    ), text


def test_every_near_miss_gets_a_hint_and_sp_is_spanish():
    tracks = [
        track_from_dict({"id": track_id, "kind": "similarity", "dataset": "sts"})
        for track_id in ("en_en", "es_es", "es_en")
    ]
    assert naming_hint(["sp-en.tsv", "notes.txt", "sp_sp.tsv", "en-en.tsv"], tracks) == (
        "file 'sp-en.tsv' was probably meant for track 'es_en': name it es_en.tsv; "
        "file 'sp_sp.tsv' was probably meant for track 'es_es': name it es_es.tsv; "
        "file 'en-en.tsv' was probably meant for track 'en_en': name it en_en.tsv"
    )
    assert naming_hint(["en-en.tsv"], tracks) == (
        "file 'en-en.tsv' was probably meant for track 'en_en': name it en_en.tsv"
    )
    assert ignored_file_notes(["sp-en.tsv"], tracks) == [
        "file 'sp-en.tsv' matches no track and was ignored; it was probably meant for track "
        "'es_en': name it es_en.tsv"
    ]


def test_sts2017_output_names_take_any_language_part_as_the_sys_names_do(tmp_path):
    import yaml

    from codajudge.formats.archive import locate_track_files

    edition = yaml.safe_load(
        (Path(__file__).resolve().parents[1] / "editions" / "sts2017" / "edition.yaml").read_text(
            encoding="utf-8"
        )
    )
    tracks = [
        track_from_dict({"id": t["id"], "kind": t["kind"], "dataset": "d", "files": t["files"]})
        for t in edition["tracks"]
    ]
    for name in ("STS.output.track4a.sp-en.txt", "STS.sys.track3.sp-sp.txt"):
        (tmp_path / name).write_text("1\n", encoding="utf-8")
    claimed, unclaimed = locate_track_files(tmp_path, tracks)
    assert {t: str(p) for t, p in claimed.items()} == {
        "es_en": "STS.output.track4a.sp-en.txt",
        "es_es": "STS.sys.track3.sp-sp.txt",
    }
    assert unclaimed == []


def sts2017_tracks():
    import yaml

    edition = yaml.safe_load(
        (Path(__file__).resolve().parents[1] / "editions" / "sts2017" / "edition.yaml").read_text(
            encoding="utf-8"
        )
    )
    return [
        track_from_dict({"id": t["id"], "kind": t["kind"], "dataset": "d", "files": t["files"]})
        for t in edition["tracks"]
    ]


def test_a_2017_file_whose_language_part_is_another_tracks_is_noted_as_a_likely_swap(tmp_path):
    """sub_lang_mismatch: STS.sys.track5.es-es.txt and STS.sys.track3.en-en.txt were scored
    silently (any language part is taken): each gets a note naming the track its number gives and
    the one its language part names. 4b's es-en, and sp-sp for track 3, are their own tracks'."""
    from codajudge.formats.archive import find_track_files

    tracks = sts2017_tracks()
    names = [
        "STS.sys.track5.es-es.txt",
        "STS.sys.track3.en-en.txt",
        "STS.sys.track4b.es-en.txt",
        "STS.output.track4a.sp-en.txt",
        "STS.sys.track1.ar-ar.txt",
    ]
    for name in names:
        (tmp_path / name).write_text("1\n", encoding="utf-8")
    found = find_track_files(tmp_path, tracks, lambda dataset: [])
    assert found.ignored_notes({}) == [
        f"file {name!r} was read for track '{own}', as its number says ({pattern}), but its "
        f"language part {part!r} is that of track '{other}' ({other}.tsv): if two files' names "
        "are swapped, each is scored against the other track's gold; check that it holds the "
        f"predictions of track '{own}'"
        for name, own, pattern, part, other in [
            ("STS.sys.track3.en-en.txt", "es_es", "STS.sys.track3.*.txt", "en-en", "en_en"),
            ("STS.sys.track5.es-es.txt", "en_en", "STS.sys.track5.*.txt", "es-es", "es_es"),
        ]
    ]


PAR_PE = track_from_dict(
    {
        "id": "par_pe",
        "kind": "perspectivist",
        "scale": "ordinal",
        "dataset": "par",
        "labels": [str(i) for i in range(-5, 6)],
    }
)
INDICES_HINT = (
    "Every entry of the file is a whole number in 0..10: these look like label indices; write the "
    "label values -5..5 instead (value = labels[index], here index - 5)"
)


def test_label_indices_written_as_strings_get_the_indices_hint(tmp_path):
    assert refusal(PAR_PE, 3, ["10", "0", "10", "3"], tmp_path).endswith(INDICES_HINT)
    assert refusal(PAR_PE, 3, [10, 0, 10, 3], tmp_path).endswith(INDICES_HINT)
    assert "label indices" not in refusal(PAR_PE, 3, ["10", "x", "10", "3"], tmp_path)


def test_multilabel_rows_of_label_indices_get_the_indices_hint(tmp_path):
    message = refusal(VEN_PE, 3, [[2], [2], [1]], tmp_path)
    assert message.endswith(
        "Every annotator's entry is a list of whole numbers in 0..2: these look like label "
        'indices; write each annotator\'s labels by name, e.g. [["neutral"], ["neutral"]] '
        "(index i is labels[i] in the order contradiction, entailment, neutral)"
    )
    assert "label indices" not in refusal(VEN_PE, 3, [[1], [0], [1]], tmp_path)


def test_several_broken_files_are_grouped_by_file_with_caps():
    from codajudge.errors import FileRefusals, Problem, ProblemCollector

    def broken(name: str, count: int):
        collector = ProblemCollector(name)
        for k in range(count):
            collector.add(f"problem {k}", line=k + 1)
        collector.raise_if_any()

    refusals = FileRefusals()
    for k in range(12):
        refusals.attempt(broken, f"f{k}.tsv", 6 if k == 0 else 1)
    with pytest.raises(SubmissionError) as error:
        refusals.raise_if_any()
    lines = str(error.value).split("\n")
    assert lines[0] == "12 files have problems; each file's first ones are shown:"
    assert lines[1:5] == [
        "f0.tsv, line 1: problem 0",
        "f0.tsv, line 2: problem 1",
        "f0.tsv, line 3: problem 2",
        "... and 3 more problems in f0.tsv not shown",
    ]
    assert lines[5:14] == [f"f{k}.tsv, line 1: problem 0" for k in range(1, 10)]
    assert lines[14:] == ["... and 2 more files with problems not shown"]
    one = FileRefusals()
    one.attempt(broken, "a.tsv", 1)
    with pytest.raises(SubmissionError) as error:
        one.raise_if_any()
    assert str(error.value) == Problem("a.tsv", "problem 0", line=1).render()


def test_counts_agree_with_their_words():
    """'1 of the track's 574 items has', '1 soft label ... was', '2 values were': a count's noun and
    verb agree with it wherever a message formats one."""
    from codajudge.errors import ProblemCollector
    from codajudge.formats.coverage import missing_items
    from codajudge.formats.layout import comments_note
    from codajudge.formats.notes import VALUE_NOTES, note_warnings

    problems = ProblemCollector("f.tsv")
    missing_items(["a", "b", "c"], [0, 1], problems)
    assert problems.problems[0].message.startswith("1 of the track's 3 items has no prediction")
    problems = ProblemCollector("f.tsv")
    missing_items(["a"], [], problems)
    assert problems.problems[0].message.startswith("1 of the track's 1 item has no prediction")
    assert note_warnings([ReadNote(PYTHON_LITERAL)], VALUE_NOTES) == [
        "1 value was not JSON but a Python literal (str() of a list: single quotes, tuples) and "
        "was read as such; json.dumps(x) writes JSON"
    ]
    assert note_warnings([ReadNote(RENORMALISED)] * 2, VALUE_NOTES) == [
        "2 soft labels summed to within 0.02 of 1 and were renormalised"
    ]
    assert note_warnings([ReadNote(LEADING_BIN_WITH_MASS, mass=0.01)], VALUE_NOTES) == [
        "1 soft label had an extra leading bin (one value more than the track's labels, the 2025 "
        "practice-phase layout) holding a little probability, at most 0.01; it was dropped and "
        "the row renormalised"
    ]
    assert comments_note(1).startswith("1 comment line starting with '#' was skipped")


def test_every_kit_error_survives_a_process_pool_as_it_is():
    """A kit error raised in a worker process reaches the parent pickled: the same type, the same
    text and the same fields, whatever its constructor takes."""
    import pickle

    from codajudge.errors import BuildProblems, ConfigError, Problem, SeveralFilesError
    from codajudge.importers import PartlyRead, SplitAbsent

    problems = [Problem("a.tsv", "bad value", line=3, expected="a number", found="'x'")]
    errors = [
        SubmissionError(problems, 4),
        ConfigError(problems),
        BuildProblems(problems, unchecked="the data"),
        SeveralFilesError([SubmissionError(problems), ConfigError(problems)], unit="track"),
        PartlyRead(problems, 1, [{"id": "1"}]),
        SplitAbsent(problems),
    ]
    for error in errors:
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error) and back.render() == error.render(), type(error)
        fields = {key: value for key, value in vars(error).items() if key != "errors"}
        assert {key: vars(back)[key] for key in fields} == fields
        inner = [e.render() for e in getattr(error, "errors", [])]
        assert [e.render() for e in getattr(back, "errors", [])] == inner


def _met_at(places) -> str:
    """One problem met at each (line, item) of ``places``, as a collector joins it, rendered."""
    from codajudge.errors import Problem

    first, *rest = [Problem("f.tsv", "bad value", line=n, item=i) for n, i in places]
    for other in rest:
        first = first.joined(other)
    return first.render()


def test_a_count_names_lines_or_items_only_when_each_time_had_its_own():
    """Seven times on three lines are neither seven lines nor seven items; ten items over two lines
    are ten items; a list of every line there is ends without ', ...'."""
    seven = [(1, "a"), (1, "a"), (2, "b"), (2, "b"), (3, "c"), (3, "c"), (3, "c")]
    assert _met_at(seven) == "f.tsv: bad value, 7 times (lines 1, 2, 3; items 'a', 'b', 'c')"
    ten = [(1 + k // 5, f"i{k}") for k in range(10)]
    assert _met_at(ten) == (
        "f.tsv: bad value, on 10 items (lines 1, 2; items 'i0', 'i1', 'i2', 'i3', 'i4' and 5 more)"
    )
    eight = [(k, f"i{k}") for k in range(1, 9)]
    assert _met_at(eight).startswith(
        "f.tsv: bad value, on 8 lines (lines 1, 2, 3, 4, 5 and 3 more;"
    )


NLI_SOFT = track_from_dict(
    {
        "id": "nli_soft",
        "kind": "soft_label",
        "scale": "categorical",
        "dataset": "nli",
        "labels": list(NLI.labels),
    }
)


def test_soft_label_keys_in_the_annotations_words_name_the_labels(tmp_path):
    """OCNLI's Chinese words as the keys of a soft label get the hint they get as hard labels."""
    message = refusal(NLI_SOFT, 2, {"蕴含": 0.6, "中立": 0.2, "矛盾": 0.2}, tmp_path)
    assert message.endswith(
        "found '中立, 矛盾, 蕴含' on line 1. Write the track's labels, not the annotation's words: "
        "entailment for 蕴含, neutral for 中立, contradiction for 矛盾"
    )


@pytest.mark.parametrize(
    ("track", "other", "value", "example"),
    [
        (NLI_SOFT, NLI, "contradiction", "[0.3333, 0.3333, 0.3334]"),
        (NLI, NLI_SOFT, "[0.2, 0.5, 0.3]", "entailment"),
    ],
)
def test_a_file_of_another_tracks_values_names_that_tracks_file(
    track, other, value, example, tmp_path
):
    """Hard labels in the soft-label track's file, or probability vectors in the label track's: the
    refusal names the track whose values the file holds, and its file."""
    path = tmp_path / "f.tsv"
    path.write_text("".join(f"i{k}\t{value}\n" for k in range(3)), encoding="utf-8")
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "f.tsv", gold_of(track, 3), tracks=[track, other, MP_PE])
    assert str(error.value).endswith(
        f"The file seems to hold the values of track {other.id!r}: write them in {other.id}.tsv "
        f"and this track's values (such as {example}) in {track.id}.tsv, each file named after "
        "its own track only"
    )


@pytest.mark.parametrize(
    "layout, written",
    [
        ("one JSON array of records", lambda records: json.dumps(records)),
        ("JSON lines", lambda records: "".join(json.dumps(r) + "\n" for r in records)),
    ],
)
def test_labels_in_a_json_file_read_by_the_soft_track_are_not_called_invalid_json(
    tmp_path, layout, written
):
    """n_array: snli.json, a JSON array of label records [{"id", "label"}, ...], was refused as the
    soft track's "not valid JSON (Expecting value)", though the file is valid JSON: the value is
    named a JSON string in the file's layout, and the fix a file per track."""
    path = tmp_path / "f.json"
    path.write_text(written([{"id": f"i{k}", "label": "neutral"} for k in range(3)]), "utf-8")
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "f.json", gold_of(NLI_SOFT, 3), tracks=[NLI_SOFT, NLI])
    message = str(error.value)
    assert "not valid JSON" not in message
    assert (
        f"f.json: value is a JSON string in {layout}, not a value of this track, on 3 " in message
    )
    assert message.endswith(
        "The file seems to hold the values of track 'nli': write them in nli.tsv (ID<TAB>VALUE "
        "lines, or JSON lines) and this track's values (such as [0.3333, 0.3333, 0.3334]) in "
        "nli_soft.tsv, each file named after its own track only"
    )


def test_an_empty_json_document_is_named_empty_not_a_line_of_no_keys(tmp_path):
    """z_doc_emptyobj: snli.json holding {} was refused as 'a JSON line must hold exactly "id"
    and one value ... found keys .' with a pandas hint."""
    path = tmp_path / "f.jsonl"
    path.write_text("{}\n", encoding="utf-8")
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "f.jsonl", gold_of(NLI, 2))
    assert str(error.value).startswith(
        "f.jsonl, line 1: an empty JSON object {}: no id and no prediction; expected"
    ), str(error.value)


def test_a_label_in_another_case_and_an_abbreviation_get_each_their_fix(tmp_path):
    """'ENTAILMENT' and 'E' both name a label, by different mistakes (case, an abbreviation): a
    regression trial's file got the case's fix only."""
    path = tmp_path / "f.tsv"
    values = ["ENTAILMENT", "E", "NEUTRAL", "N"]
    path.write_text("".join(f"i{k}\t{v}\n" for k, v in enumerate(values)), encoding="utf-8")
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "f.tsv", gold_of(NLI, 4), tracks=[NLI])
    message = str(error.value)
    assert "Labels are matched exactly: write 'entailment'" in message
    assert "for 'E' on line 2, write labels in full" in message, message


def test_labels_refused_for_different_fixes_get_each_fix_once(tmp_path):
    """A model's labels alternating between 1 and 'Entailment' (a class index, a label in another
    case): one problem on 6 lines whose hint gives both fixes, each named once, with its value."""
    path = tmp_path / "f.tsv"
    values = ["1", "Entailment", "2", "Neutral", "1", "Entailment"]
    path.write_text("".join(f"i{k}\t{v}\n" for k, v in enumerate(values)), encoding="utf-8")
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "f.tsv", gold_of(NLI, 6), tracks=[NLI])
    message = str(error.value)
    assert "label outside the track's label set, on 6 lines" in message
    assert message.count("abels are names, not class indices") == 1
    assert message.count("labels are matched exactly") == 1
    assert message.endswith(
        "your model's own label order may differ); for 'Entailment' on line 2, labels are matched "
        "exactly: write 'entailment' (case and spaces count)"
    )


def test_a_comment_line_in_a_file_of_a_track_without_comments_is_told_so(tmp_path):
    """regress-c: routing passed over '# run 1' and named snli_nli.tsv, whose reader then refused
    the line with "the id and the value look separated by spaces": a '#' line is told it is a
    comment, which only SemEval's positional files may hold."""
    track = next(t for t in NLI_TRACKS if t.id == "snli_nli")
    (tmp_path / "snli_nli.tsv").write_text("# run 1\na1\tneutral\na2\tentailment\n")
    with pytest.raises(SubmissionError) as refused:
        read_prediction(tmp_path / "snli_nli.tsv", "snli_nli.tsv", track, ItemKeys(["a1", "a2"]))
    message = str(refused.value)
    assert "line 1" in message and "A comment line: only SemEval's positional" in message
    assert "separated by spaces" not in message


@pytest.mark.parametrize("written", ["EN-TEST-{k}", "En-Test-{k}"])
def test_ids_that_differ_from_the_tracks_only_by_case_are_named_so(written, tmp_path):
    """Upper-cased ids ('EN-TEST-10' for 'en-test-10') were told to be the track's ids with an
    extra prefix 'EN-TEST-', without their prefix 'en-test-': the case is named, before any prefix,
    whether every line or one of them is re-cased."""
    path = tmp_path / "f.tsv"
    path.write_text("".join(f"{written.format(k=k)}\tneutral\n" for k in range(10, 13)))
    items = [{"id": f"en-test-{k}", "texts": ["a", "b"], "label": "neutral"} for k in range(10, 13)]
    hint = f"differ from the track's only by case ({written.format(k=10)!r} for 'en-test-10')"
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "f.tsv", build_gold(NLI, items, "g"))
    message = str(error.value)
    assert "none of the ids in this file belong to the track" in message
    assert "The ids " + hint + ": write them as the input file gives them" in message, message
    assert "prefix" not in message
    path.write_text("en-test-10\tneutral\nen-test-11\tneutral\nEN-TEST-12\tneutral\n")
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "f.tsv", build_gold(NLI, items, "g"))
    assert "('EN-TEST-12' for 'en-test-12')" in str(error.value)


STS_TRACKS = [
    track_from_dict({"id": tid, "kind": "similarity", "dataset": tid, "files": [f"{tid}.tsv"]})
    for tid in ("en_en", "es_es")
]


def _refusal_of(tmp_path: Path, names: list[str], zipped: bool) -> str:
    """The refusal of a submission of the files ``names`` (each one line) for ``STS_TRACKS``, as a
    zip extracted for its tracks or as a folder."""
    from codajudge.formats.archive import locate_track_files

    (tmp_path / "out").mkdir()
    with zipfile.ZipFile(tmp_path / "sub.zip", "w") as zf:
        for entry in names:
            zf.writestr(entry, "1\t0.5\n")
            (tmp_path / "out" / entry).write_text("1\t0.5\n", encoding="utf-8")
    with pytest.raises(SubmissionError) as refused:
        if zipped:
            safe_extract(tmp_path / "sub.zip", tmp_path / "x", "sub.zip", STS_TRACKS)
        else:
            locate_track_files(tmp_path / "out", STS_TRACKS)
    return str(refused.value)


@pytest.mark.parametrize(
    ("name", "odd"),
    [("en_en\u200b.tsv", "\\u200b"), ("\uff45n_en.tsv", "\uff45"), ("EN_EN.tsv ", "\\x20")],
)
@pytest.mark.parametrize("zipped", [False, True])
def test_a_track_file_name_but_for_look_alike_characters_is_refused_with_the_rename(
    tmp_path, name, odd, zipped
):
    """Hostile trial 62 (B_zwsp.zip, C_nfkc.zip): en_en\\u200b.tsv and a full-width ｅn_en.tsv were
    ignored ("matches no track") and the submission scored without them, while 'en_en.tsv ' was
    refused: a name that codajudge rank's look-alike folding (name_as_read) makes a track's, of a
    track given no file, refuses the submission with the rename, in a folder and in a zip
    extracted for its tracks alike."""
    message = _refusal_of(tmp_path, ["es_es.tsv", name], zipped)
    assert (
        "only by characters invisible or look-alike, or spaces at either end: track 'en_en' "
        in message
    )
    assert f"found 1 such character: {odd}. Rename it en_en.tsv" in message, message


def test_a_look_alike_of_a_track_given_a_file_and_other_names_are_noted_escaped_once(tmp_path):
    """A look-alike of a track's name beside that track's file is a note, not a refusal; an
    ignored name is shown escaped once (en_en\\u200b.tsv, not en_en\\\\u200b.tsv)."""
    from codajudge.formats.archive import locate_track_files

    for entry in ("en_en.tsv", "en_en\u200b.tsv", "notes\u200b.txt"):
        (tmp_path / entry).write_text("1\t0.5\n", encoding="utf-8")
    claimed, unclaimed = locate_track_files(tmp_path, STS_TRACKS)
    found = FoundFiles(STS_TRACKS, claimed, unclaimed, [])
    notes = "\n".join(found.ignored_notes({"en_en": "en_en.tsv"}))
    assert "'en_en\\u200b.tsv'" in notes and "'notes\\u200b.txt'" in notes, notes
    assert "\\\\" not in notes


@pytest.mark.parametrize("zipped", [False, True])
def test_every_track_given_by_two_files_is_named_in_one_refusal(tmp_path, zipped):
    """STS 2017 trial 62 (v/runs): each of 7 tracks given by a run1 and a run2 file was refused
    for its first track alone; every such track is named, with its files, in one refusal."""
    names = [f"{tid}.tsv" for tid in ("en_en", "es_es")] + ["EN_EN.TSV", "Es_Es.tsv"]
    assert _refusal_of(tmp_path, names, zipped) == (
        "track 'en_en' by EN_EN.TSV, en_en.tsv; track 'es_es' by Es_Es.tsv, es_es.tsv: 2 tracks "
        "are given by more than one file; expected exactly one file per track, found 4 files. For "
        "each track, remove all but one of them"
    )


@pytest.mark.parametrize(
    ("name", "missing", "rename"),
    [
        ("STS.output.track1.txt", ["ar_ar"], "STS.output.track1.ar-ar.txt"),
        ("STS.output.track4.es-en.txt", ["es_en"], "STS.output.track4a.es-en.txt"),
        ("sp-en.tsv", ["es_en"], "es_en.tsv"),
    ],
)
def test_a_file_the_kit_ties_to_one_track_given_none_refuses_with_a_name_in_its_scheme(
    name, missing, rename
):
    """STS 2017 trial 62 (v/nolang, v/track4): STS.output.track1.txt was noted "probably meant for
    track 'ar_ar': name it ar_ar.tsv" and the run scored unranked without it: a file the kit ties
    to one track given no file refuses the submission, offered a name in its own scheme; tied to
    two tracks (track4 beside neither 4a nor 4b) it stays a note naming both."""
    tracks = sts2017_tracks()
    given = {t.id: f"{t.id}.tsv" for t in tracks if t.id not in missing}
    found = FoundFiles(tracks, {}, [name], [])
    with pytest.raises(SubmissionError) as refused:
        found.refuse_meant(given)
    message = str(refused.value)
    assert message.startswith(
        f"{name}: the file matches no track only by the form of its name: track '{missing[0]}' "
        "has no file, and this one would be ignored: the submission would be scored without "
        f"track '{missing[0]}'"
    )
    assert message.endswith(f"found the name {name!r}. Rename it {rename}"), message


def test_a_file_tied_to_two_tracks_stays_a_note_naming_both_in_its_scheme():
    """STS.output.track4.es-en.txt beside neither track 4a's file nor 4b's: a note naming both."""
    tracks = sts2017_tracks()
    given = {t.id: f"{t.id}.tsv" for t in tracks if t.id not in ("es_en", "es_en_mt")}
    found = FoundFiles(tracks, {}, ["STS.output.track4.es-en.txt"], [])
    found.refuse_meant(given)
    assert found.ignored_notes(given)[0].endswith(
        "name their files STS.output.track4a.es-en.txt and STS.output.track4b.es-en-mt.txt"
    )


def _edition_tracks(edition: str) -> list:
    import yaml

    path = Path(__file__).resolve().parents[1] / "editions" / edition / "edition.yaml"
    return [
        track_from_dict({k: v for k, v in t.items() if k != "title"})
        for t in yaml.safe_load(path.read_text(encoding="utf-8"))["tracks"]
    ]


@pytest.mark.parametrize(
    ("edition", "name", "left_out"),
    [
        ("lewidi2025", "mp_soft.tsv.bak", "mp"),
        ("lewidi2025", "results/mp_soft_dev.tsv", "mp"),
        ("lewidi2023", "MD-Agreement_dev_results.tsv", "md_agreement"),
    ],
)
def test_a_file_of_a_track_left_out_with_a_word_of_its_own_stays_a_note(edition, name, left_out):
    """Regression trial of the landed round: a team leaving a track out on purpose, with a backup
    or a dev file of it in the zip, was refused and told to rename that file as the track's (so to
    submit dev predictions as test ones); a name holding a word of its own stays a note, as it was
    before the round."""
    tracks = _edition_tracks(edition)
    given = {t.id: f"{t.id}.tsv" for t in tracks if t.dataset != left_out}
    found = FoundFiles(tracks, {}, [name], [])
    found.refuse_meant(given)
    assert any("probably meant for" in note for note in found.ignored_notes(given))


@pytest.mark.parametrize(
    "name", ["HS-Brexit_result.tsv", "HS_Brexit_results.tsv", "HSBrexit_results.tsv"]
)
def test_a_near_miss_of_lewidi2023s_results_name_is_offered_that_name(name):
    """LeWiDi 2023 trial 62: HS-Brexit_result.tsv and HS_Brexit_results.tsv were told "name their
    files hs_brexit_soft.tsv and hs_brexit_hard.tsv" (two files for the one the participant
    wrote); every near miss of the 2023 layout's name is offered that name, which the dataset's
    tracks share, and refused as the suffix near miss is."""
    import yaml

    edition = Path(__file__).resolve().parents[1] / "editions" / "lewidi2023" / "edition.yaml"
    tracks = [
        track_from_dict({k: v for k, v in t.items() if k != "title"})
        for t in yaml.safe_load(edition.read_text(encoding="utf-8"))["tracks"]
    ]
    given = {t.id: f"{t.id}.tsv" for t in tracks if t.dataset != "hs_brexit"}
    found = FoundFiles(tracks, {}, [name], [])
    assert naming_hint([name], tracks).endswith(": rename it HS-Brexit_results.tsv")
    with pytest.raises(SubmissionError) as refused:
        found.refuse_meant(given)
    assert str(refused.value).endswith(
        f"found the name {name!r}. Rename it HS-Brexit_results.tsv"
    ), str(refused.value)
    # the name both tracks read is listed once (it was twice, after "a name tracks ... read")
    assert (
        "expected a name that tracks 'hs_brexit_soft' and 'hs_brexit_hard' read: "
        "hs_brexit_soft.tsv or HS-Brexit_results.tsv or hs_brexit_hard.tsv (any case), found"
    ) in str(refused.value)


@pytest.mark.parametrize("top", ["", "sub/"])
def test_track_files_read_from_a_sub_folder_beside_the_top_ones_are_noted(top):
    """z/partial_old.zip: en_en.tsv and ar_ar.tsv at the root, older files of 5 tracks in old/,
    had all 7 scored without a word. The files read from folders other than the shallowest one
    holding a track's file are noted once, counted, each with its track; one folder (a zip's
    wrapper folder included) gives no note."""
    tracks = sts2017_tracks()
    files = {t.id: Path(f"{top}{t.id}.tsv") for t in tracks}
    assert FoundFiles(tracks, files, [], []).ignored_notes({}) == []
    for tid in ("ar_en", "tr_en"):
        files[tid] = Path(f"{top}old/{tid}.tsv")
    notes = FoundFiles(tracks, files, [], []).ignored_notes({})
    assert notes == [
        "the files of 2 tracks were read from folders below one holding other track files (which "
        f"give 5 tracks): {top}old/ar_en.tsv for track 'ar_en', {top}old/tr_en.tsv for track "
        "'tr_en'; if they are older files, remove them to leave those tracks out"
    ]


def test_track_files_in_folders_side_by_side_get_no_note():
    """Regression trial (q_split2): sts/en_en.tsv and nli/nli_zh.tsv, nothing at the root, were
    told to remove sts/en_en.tsv as older files: the Data page allows the tracks' files in
    different folders, and only a folder below one holding track files is noted."""
    tracks = sts2017_tracks()
    files = {t.id: Path(f"{'sts' if k % 2 else 'more'}/{t.id}.tsv") for k, t in enumerate(tracks)}
    assert FoundFiles(tracks, files, [], []).ignored_notes({}) == []


def test_a_file_named_as_the_tasks_input_is_noted_as_such_never_offered_the_output_name():
    """z6/gs_name.zip: STS 2017's input file STS.input.track5.en-en.txt beside the other tracks'
    files was refused "Rename it STS.output.track5.en-en.txt". A name saying input where the
    names of the tracks it is like say output is the task's input: noted as such, not refused,
    and no hint offers it the output name."""
    tracks = sts2017_tracks()
    name = "STS.input.track5.en-en.txt"
    given = {t.id: f"{t.id}.tsv" for t in tracks if t.id != "en_en"}
    found = FoundFiles(tracks, {tid: Path(f) for tid, f in given.items()}, [name], [])
    found.refuse_meant(given)
    assert found.ignored_notes(given) == [
        f"file '{name}' matches no track and was ignored: it is named as the task's input "
        "('input' where the names of track 'en_en' say 'output'), not as predictions; leave it "
        "out of the submission"
    ]
    assert "STS.output" not in naming_hint([name], tracks)
