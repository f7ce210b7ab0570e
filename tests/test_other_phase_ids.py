"""A file of another phase's items is named as that phase's, whatever refused it and however it is
laid out: by its ids (ID<TAB>VALUE lines, a header first, JSON lines; refused for its ids or for
having too many lines) or, a positional file, by its number of lines (issue 39)."""

import json

import pytest

from codajudge.errors import SubmissionError
from codajudge.formats import coverage
from codajudge.formats.coverage import OtherPhases, id_hash
from codajudge.formats.submission import ItemKeys, read_prediction
from codajudge.tracks import track_from_dict

TRACKS = {
    "similarity": {"id": "sim", "kind": "similarity", "dataset": "sim"},
    "soft_label": {
        "id": "mp_soft",
        "kind": "soft_label",
        "scale": "categorical",
        "dataset": "sim",
        "labels": ["0", "1"],
    },
}
VALUES = {"similarity": "3.5", "soft_label": "[0.5, 0.5]"}
#: This phase's items, and the other phase's: more than this phase's lines bound allows.
OWN_IDS = [f"own-{i}" for i in range(3)]
OTHER_IDS = [f"test-{i}" for i in range(1010)]
PHASES = {"evaluation": {"sim": frozenset(map(id_hash, OTHER_IDS))}}
HINT = (
    "These are the ids of the evaluation phase; submit predictions for this phase's items "
    "(input_data sim.jsonl of this phase)"
)


def refusal(tmp_path, kind: str, text: str) -> str:
    track = track_from_dict(TRACKS[kind])
    keys = ItemKeys(OWN_IDS, elsewhere=OtherPhases(track, PHASES))
    (tmp_path / "file.tsv").write_text(text, encoding="utf-8")
    with pytest.raises(SubmissionError) as refused:
        read_prediction(tmp_path / "file.tsv", "file.tsv", track, keys)
    return refused.value.render()


def id_lines(kind: str, ids) -> str:
    return "".join(f"{item}\t{VALUES[kind]}\n" for item in ids)


@pytest.mark.parametrize("kind", sorted(TRACKS))
@pytest.mark.parametrize("count", [5, len(OTHER_IDS)])
def test_another_phases_ids_are_named_whatever_the_file_was_refused_for(tmp_path, kind, count):
    """5 lines: none of the ids is the track's; all of them: more lines than the track allows
    (the MP files of the evaluation phase sent to LeWiDi's local phase)."""
    message = refusal(tmp_path, kind, id_lines(kind, OTHER_IDS[:count]))
    assert HINT in message


@pytest.mark.parametrize("kind", sorted(TRACKS))
def test_another_phases_ids_under_a_header_are_named(tmp_path, kind):
    message = refusal(tmp_path, kind, "id\tvalue\n" + id_lines(kind, OTHER_IDS))
    assert HINT in message


def test_another_phases_ids_in_json_lines_are_named(tmp_path):
    lines = "".join(json.dumps({"id": item, "soft_label": [0.5, 0.5]}) + "\n" for item in OTHER_IDS)
    assert HINT in refusal(tmp_path, "soft_label", lines)


@pytest.mark.parametrize("kind", sorted(TRACKS))
def test_another_phases_ids_with_a_few_of_this_phases_among_them_are_named(tmp_path, kind):
    """OCNLI's practice file on the evaluation phase: its ids (train's, 0..50k) are mostly the
    practice phase's, one of its first lines ('88') a dev id too: the majority names the phase."""
    ids = [*OTHER_IDS[:6], OWN_IDS[0], *OTHER_IDS[6:40]]
    assert HINT in refusal(tmp_path, kind, id_lines(kind, ids))


def test_ids_of_no_phase_get_no_phase_hint(tmp_path):
    message = refusal(
        tmp_path, "similarity", id_lines("similarity", [f"x{i}" for i in range(1010)])
    )
    assert "phase" not in message


def test_a_positional_file_as_long_as_another_phases_items_is_named(tmp_path):
    track = track_from_dict({**TRACKS["similarity"], "positional": True})
    phases = {"evaluation": {"sim": frozenset(map(id_hash, OTHER_IDS[:5]))}}
    keys = ItemKeys(OWN_IDS, elsewhere=OtherPhases(track, phases))
    (tmp_path / "sim.txt").write_text("3.5\n" * 5, encoding="utf-8")
    with pytest.raises(SubmissionError) as refused:
        read_prediction(tmp_path / "sim.txt", "sim.txt", track, keys)
    assert refused.value.render() == (
        "sim.txt: wrong number of lines for the SemEval positional format; expected 3 lines (one "
        "score per pair, in input order), found 5 non-blank lines. The file has as many lines as "
        "the evaluation phase has items: if it holds that phase's predictions, submit predictions "
        "for this phase's items (input_data sim.jsonl of this phase); or write ID<TAB>SCORE lines, "
        "which are matched by id"
    )


def test_an_index_column_of_another_phases_ids_before_this_phases_ids_gets_no_phase_hint(tmp_path):
    """df.to_csv(sep='\\t') with its index 0..N-1: the index, not the file, matches another phase's
    ids 0..M (OCNLI's evaluation phase); the file's ids are this phase's."""
    track = track_from_dict(TRACKS["soft_label"])
    phases = {"evaluation": {"sim": frozenset(id_hash(str(i)) for i in range(10))}}
    keys = ItemKeys(OWN_IDS, elsewhere=OtherPhases(track, phases))
    lines = "".join(f"{i}\t{item}\t3.5\n" for i, item in enumerate(OWN_IDS))
    (tmp_path / "sim.tsv").write_text("\tid\tscore\n" + lines, encoding="utf-8")
    with pytest.raises(SubmissionError) as refused:
        read_prediction(tmp_path / "sim.tsv", "sim.tsv", track, keys)
    assert "index=False" in refused.value.render()
    assert "phase" not in refused.value.render()


@pytest.mark.parametrize(
    "row, message",
    [
        (
            "0\t0.5\t0.5",
            "the file looks like the LeWiDi 2023 layout (hard label<TAB>p0<TAB>p1 rows, no id), "
            "which this track does not read; expected lines such as 'own-0'<TAB>[0.5, 0.5], found "
            "'0' on 6 of its 6 lines, such as '0\\t0.5\\t0.5' (a hard label, then probabilities)",
        ),
        (
            "0\t[0.5, 0.5]",
            "the first column repeats one value on half its lines or more: it holds no item ids; "
            "expected lines such as 'own-0'<TAB>[0.5, 0.5], found '0' on 6 of its 6 lines",
        ),
    ],
)
def test_a_first_column_repeating_one_value_is_no_ids_even_when_another_phase_has_that_id(
    tmp_path, row, message
):
    """A LeWiDi 2023 file (hard label, then probabilities, no id) sent to a 2025 soft track: its
    label '0' is an MP evaluation id, but a value on every line is no id of any phase."""
    track = track_from_dict(TRACKS["soft_label"])
    phases = {"evaluation": {"sim": frozenset(id_hash(str(i)) for i in range(10))}}
    keys = ItemKeys(OWN_IDS, elsewhere=OtherPhases(track, phases))
    (tmp_path / "mp_soft.tsv").write_text(f"{row}\n" * 6, encoding="utf-8")
    with pytest.raises(SubmissionError) as refused:
        read_prediction(tmp_path / "mp_soft.tsv", "mp_soft.tsv", track, keys)
    assert refused.value.render() == (
        f"mp_soft.tsv: {message}. Write one line per item: its id (the 'id' field of the input "
        "file), a tab and its value, as in 'own-0'<TAB>[0.5, 0.5]"
    )


#: Two tracks of another part of this phase (hard labels and soft labels of "rte"), and its ids.
OTHER_PART_TRACKS = [
    track_from_dict({"id": "rte_nli", "kind": "classification", "dataset": "rte", "labels": ["0", "1"]}),
    track_from_dict(
        {"id": "rte_soft", "kind": "soft_label", "scale": "categorical", "dataset": "rte", "labels": ["0", "1"]}
    ),
]  # fmt: skip
PART_IDS = [f"rte-{i}" for i in range(4)]
OTHER_TRACK_HINT = (
    "These are ids of track 'rte_soft' (part 'rte' of this phase): write their predictions in "
    "rte_soft.tsv, and in this file this track's items only"
)


@pytest.mark.parametrize("own", [0, len(OWN_IDS)], ids=["only-the-other-part", "both-parts"])
def test_ids_of_another_tracks_items_of_this_phase_name_that_track_and_its_file(tmp_path, own):
    """A soft-label file holding the ids of another part's items of this phase (a ChaosNLI MNLI
    file sent as the SNLI one, or both parts in one file): the refusal names the track of that part
    and of the same kind, with its file name, whether no id or only some are this track's."""
    track = track_from_dict(TRACKS["soft_label"])
    parts = {"rte": (lambda: PART_IDS, None), "sim": (lambda: OWN_IDS, None)}
    elsewhere = OtherPhases(track, {}, parts)
    keys = ItemKeys(OWN_IDS, elsewhere=elsewhere, tracks=[track, *OTHER_PART_TRACKS])
    path = tmp_path / "file.tsv"
    path.write_text(id_lines("soft_label", OWN_IDS[:own] + PART_IDS), encoding="utf-8")
    with pytest.raises(SubmissionError) as refused:
        read_prediction(path, "file.tsv", track, keys)
    assert OTHER_TRACK_HINT in refused.value.render()


def test_an_unknown_id_of_no_other_part_gets_no_other_tracks_hint(tmp_path):
    track = track_from_dict(TRACKS["soft_label"])
    elsewhere = OtherPhases(track, {}, {"rte": (lambda: PART_IDS, None)})
    keys = ItemKeys(OWN_IDS, elsewhere=elsewhere, tracks=[track, *OTHER_PART_TRACKS])
    path = tmp_path / "file.tsv"
    path.write_text(id_lines("soft_label", OWN_IDS + ["alien"]), encoding="utf-8")
    with pytest.raises(SubmissionError) as refused:
        read_prediction(path, "file.tsv", track, keys)
    assert "rte_soft" not in refused.value.render()


def test_the_phase_parts_are_every_tracks_dataset_given_or_not():
    """An id of a part no file is given for is named too: the ingestion knows every part's ids,
    read only when a hint asks for them (a dataset no file gives is not read to score others)."""
    from codajudge.formats.archive import phase_parts

    tracks = [track_from_dict(TRACKS["soft_label"]), *OTHER_PART_TRACKS]
    read = []

    def ids_of(dataset):
        read.append(dataset)
        return [dataset + "-0"]

    parts = phase_parts(tracks, {"mp_soft": "file.tsv"}, ids_of)
    assert {d: file for d, (_, file) in parts.items()} == {"sim": "file.tsv", "rte": None}
    assert read == []
    assert {d: ids() for d, (ids, _) in parts.items()} == {"sim": ["sim-0"], "rte": ["rte-0"]}


LINE_NUMBERS = (
    "The first column holds the line numbers ('{}' to '{}', in order: a DataFrame's index or a "
    "counter), not the track's ids; write one line per item: its id (the 'id' field of the input "
    "file), a tab and its value, as in {!r}<TAB>"
)


@pytest.mark.parametrize("start", [0, 1])
@pytest.mark.parametrize("own", [["15567", "16009", "20773"], ["15567", "2", "20773"]])
@pytest.mark.parametrize("other", [None, range(3000), range(3), range(4)])
def test_ids_that_are_the_line_numbers_are_named_so_or_as_another_phases_whole_file(
    tmp_path, start, own, other
):
    """o_pd_series_tab, vo/lineno0: a pandas Series written with its index (0, 1, 2, ...) as ids,
    on OCNLI's practice phase, was told "These are the ids of the evaluation phase" (OCNLI's
    evaluation ids are 0..2999), then the line-number hint and that phase's too: contradictory.
    Only ids that are exactly the other phase's whole id set are its file (that phase's hint
    alone); any other run of line numbers gets the line-number hint alone."""
    track = track_from_dict(TRACKS["soft_label"])
    phases = {"evaluation": {"sim": frozenset(map(id_hash, map(str, other or ())))}}
    keys = ItemKeys(own, elsewhere=OtherPhases(track, phases if other else {}))
    (tmp_path / "file.tsv").write_text(id_lines("soft_label", range(start, start + 3)))
    with pytest.raises(SubmissionError) as refused:
        read_prediction(tmp_path / "file.tsv", "file.tsv", track, keys)
    whole = other == range(start, start + 3)
    hint = LINE_NUMBERS.format(start, start + 2, own[0])
    first = refused.value.render().splitlines()[0]
    assert (hint in first) != whole and first.count("evaluation phase") == int(whole)
    assert not whole or ". These are the ids of the evaluation phase; submit" in first


@pytest.mark.parametrize("kind", sorted(TRACKS))
@pytest.mark.parametrize(
    ("foreign", "counts"),
    [([], "2 of the 2 unknown ids are"), (["alien"], "2 of the 3 unknown ids are")],
)
def test_unknown_ids_among_this_phases_that_are_another_phases_are_counted_and_named(
    tmp_path, kind, foreign, counts
):
    """t61 tsv_all1514 (a whole ChaosNLI part: this phase's items and the practice phase's 300)
    and OCNLI extra.zip (a dev file and 20 practice ids): the other phase's ids, a few among this
    phase's whole file, are counted and their phase named on the unknown-id lines, by id only."""
    ids = [*OWN_IDS, OTHER_IDS[0], *foreign, OTHER_IDS[1]]
    message = refusal(tmp_path, kind, id_lines(kind, ids))
    assert "unknown id: not an item of this track, on " + str(2 + len(foreign)) in message
    assert f"{counts} the evaluation phase's items: remove them; a model run over" in message


def test_one_unknown_id_of_another_phase_is_named_in_the_singular(tmp_path):
    message = refusal(tmp_path, "similarity", id_lines("similarity", [*OWN_IDS, OTHER_IDS[5]]))
    assert "1 of the 1 unknown id is the evaluation phase's item: remove them" in message


@pytest.mark.parametrize(
    "name", ["ocnli_50k_predict.json", "ocnli_30k_predict.json", "OCNLI_50k.json", "OCNLI_30k.json"]
)
def test_every_name_clue_gives_ocnli_test_predictions_is_warned_about(name):
    """o_clue30k: ocnli_30k_predict.json (CLUE's file for a model trained on OCNLI's 30k set) on
    OCNLI dev's ids was scored at chance with no note, while ocnli_50k_predict.json had one. Each
    name CLUE gives OCNLI's test predictions (its leaderboard's and OCNLI's README's) gets it."""
    warning = coverage.test_submission_warning(f"sub/{name}", map(str, range(3000)), 0.34, 3)
    assert warning and warning.startswith(f"{name} is the name of the submission file for CLUE's")
    assert coverage.test_submission_warning(name, map(str, range(3000)), 0.9, 3) is None


def test_row_positions_under_an_index_header_are_named_and_the_line_to_write_shown(tmp_path):
    """outside F4: HF run_glue's ``index<TAB>prediction`` (row positions 0..n-1, some of them ids of
    the track's items) was told to write its lines "as in the expected line", on a message that
    shows none: the hint names the row positions and shows the track's line."""
    track = track_from_dict(TRACKS["similarity"])
    own = ["15567", "1", "20773", "7323"]
    (tmp_path / "nli.tsv").write_text("index\tprediction\n" + id_lines("similarity", range(4)))
    with pytest.raises(SubmissionError) as refused:
        read_prediction(tmp_path / "nli.tsv", "nli.tsv", track, ItemKeys(own))
    first = refused.value.render().splitlines()[0]
    assert "unknown id: not an item of this track, on 3 lines" in first
    assert "The first column holds the line numbers ('0' to '3', in order" in first
    assert "expected line" not in first and first.endswith("as in '15567'<TAB>3.2")


def test_ids_the_edition_left_out_of_the_phase_are_counted_with_the_reason(tmp_path):
    """sts2017's practice leaves out 125 STS-B dev pairs (exclude: {dev: test}): a file of every dev
    id was told "unknown id ... Ids look like 'dev-0'", a positional one "expected 1375 lines ...
    found 1500" with no reason. Both now name the items left out, how many and why (ids only)."""
    track = track_from_dict({**TRACKS["similarity"], "positional": True})
    coverage.write_left_out_ids(
        tmp_path, "dev", {"sim": ("test", ["left-0", "left-1"]), "x": ("test", [])}
    )
    phases = coverage.other_phase_ids(tmp_path)
    assert list(phases) == [] and list(phases.left_out) == ["sim"]
    keys = ItemKeys(OWN_IDS, elsewhere=OtherPhases(track, phases))
    ids = [*OWN_IDS, "left-0", "left-1", "alien"]
    (tmp_path / "sim.tsv").write_text(id_lines("similarity", ids), encoding="utf-8")
    with pytest.raises(SubmissionError) as refused:
        read_prediction(tmp_path / "sim.tsv", "sim.tsv", track, keys)
    assert (
        "2 of the 3 unknown ids are items of the dev split that this phase leaves out: the "
        "edition's exclude: {dev: test} leaves out of dev the items whose texts its test split "
        "holds; remove them"
    ) in refused.value.render()
    (tmp_path / "sim.tsv").write_text("3.5\n" * 5, encoding="utf-8")
    with pytest.raises(SubmissionError) as refused:
        read_prediction(tmp_path / "sim.tsv", "sim.tsv", track, keys)
    assert (
        "found 5 non-blank lines. The file has 5 lines, 2 more than this phase's items: as many "
        "as the dev split's items this phase leaves out (the edition's exclude"
    ) in refused.value.render()
