"""SemEval-2017 STS output files when the track's item ids are numbers ("0".."249").

A positional file (one score per line in input order, an optional confidence column) must not be
taken for ID<TAB>SCORE lines because its integer scores look like ids: the layout is decided once
per file. Gold is the sts2017 release's en-en track (skipped when ../shared is absent), or a
synthetic track of the same ids.
"""

from pathlib import Path

import numpy as np
import pytest

from codajudge.bundle.edition import load_edition
from codajudge.errors import SubmissionError
from codajudge.scoring import read_track_file
from codajudge.gold import build_gold
from codajudge.importers import load_split
from codajudge.tracks import Track

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data"


@pytest.fixture(scope="module")
def gold():
    if not (DATA / "sts2017").is_dir():
        pytest.skip("../shared/data/sts2017 not found: the release lives beside the repository")
    edition = load_edition(REPO / "editions" / "sts2017")
    track = next(t for t in edition.tracks if t.id == "en_en")
    items = load_split(edition.datasets["sts_en_en"], DATA, "test")
    assert items[0]["id"] == "0" and len(items) == 250
    return build_gold(track, items, "gold")


def pearson(a, b) -> float:
    return float(np.corrcoef(a, b)[0, 1])


def write(tmp_path: Path, text: str, newline: str = "\n") -> Path:
    path = tmp_path / "STS.output.track5.en-en.txt"
    path.write_bytes(text.replace("\n", newline).encode("utf-8"))
    return path


def test_integer_scores_one_per_line_are_positional(gold, tmp_path):
    """Misreading 1: every line was refused with "line has no tab" (its score read as an id)."""
    scores = np.rint(gold.gold)
    prediction = read_track_file(write(tmp_path, "".join(f"{s:.0f}\n" for s in scores)), "f", gold)
    assert prediction.format == "positional"
    assert np.array_equal(prediction.values, scores)
    assert pearson(prediction.values, gold.gold) > 0.95


def test_integer_scores_with_a_confidence_column_are_positional(gold, tmp_path):
    """Misreading 2: "score<TAB>confidence" lines were taken for "id<TAB>value" pairs."""
    scores = np.rint(gold.gold)
    text = "".join(f"{s:.0f}\t{50 + k % 50}\n" for k, s in enumerate(scores))
    prediction = read_track_file(write(tmp_path, text), "f", gold)
    assert prediction.format == "positional" and np.array_equal(prediction.values, scores)


def test_clipped_scores_with_confidence_and_crlf_are_positional(gold, tmp_path):
    """Misreading 3: a mix of clipped integers (0, 5) and decimals, CRLF line ends."""
    scores = np.clip(gold.gold * 1.3 - 0.5, 0, 5).round(2)
    text = "".join((f"{s:g}" if s in (0, 5) else f"{s:.2f}") + "\t100\n" for s in scores)
    prediction = read_track_file(write(tmp_path, text, "\r\n"), "f", gold)
    assert prediction.format == "positional"
    assert np.allclose(prediction.values, scores)
    assert pearson(prediction.values, gold.gold) == pytest.approx(pearson(scores, gold.gold))


def test_id_lines_with_number_ids_are_still_matched_by_id(gold, tmp_path):
    order = np.random.default_rng(1).permutation(len(gold.ids))
    text = "".join(f"{gold.ids[k]}\t{gold.gold[k]:.1f}\n" for k in order)
    prediction = read_track_file(write(tmp_path, text), "f", gold)
    assert prediction.format == "id"
    assert np.allclose(prediction.values, np.round(gold.gold, 1))


def test_id_lines_missing_an_item_report_the_missing_item(gold, tmp_path):
    text = "".join(f"{i}\t{s:.2f}\n" for i, s in zip(gold.ids[1:], gold.gold[1:]))
    with pytest.raises(SubmissionError) as error:
        read_track_file(write(tmp_path, text), "f", gold)
    assert str(error.value) == (
        "f: 1 of the track's 250 items has no prediction (the file has 249 of them): "
        "'0'. Predict every item listed in the track's input file"
    )


def test_a_file_readable_both_ways_is_refused_with_both_readings():
    track = Track(id="t", kind="similarity", dataset="d", positional=True)
    items = [{"id": str(k), "texts": ["a", "b"], "score": float(k)} for k in range(5)]
    gold = build_gold(track, items, "gold")
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.tsv"
        path.write_text("0\t3\n1\t2\n2\t4\n3\t1\n4\t0\n", encoding="utf-8")
        with pytest.raises(SubmissionError) as error:
            read_track_file(path, "t.tsv", gold)
        assert str(error.value) == (
            "t.tsv: the file can be read two ways: its first column holds every item id once, and could also "
            "be the scores of a positional file; expected ID<TAB>SCORE lines (matched by id, e.g. '0'<TAB>3.2) "
            "or one score per line in input order (SemEval positional, an optional confidence column), found "
            "5 lines of two numbers. Write the ID<TAB>SCORE lines with a header line 'id<TAB>score' to mean "
            "ids, or give the scores with decimals (3.0) to mean positional"
        )
        path.write_text("id\tscore\n0\t3\n1\t2\n2\t4\n3\t1\n4\t0\n", encoding="utf-8")
        assert read_track_file(path, "t.tsv", gold).values.tolist() == [3, 2, 4, 1, 0]


def test_comment_lines_are_skipped_as_the_official_scorer_skips_them(gold, tmp_path):
    """correlation.pl skips lines starting with '#' (``next if /^\\#/``): a run's name on the first line."""
    scores = gold.gold.round(4)
    text = "# team X run 1\n" + "".join(f"{s:.4f}\n" for s in scores)
    prediction = read_track_file(write(tmp_path, text), "f", gold)
    assert prediction.format == "positional" and np.array_equal(prediction.values, scores)
    assert prediction.warnings == [
        "1 comment line starting with '#' was skipped (SemEval's scorer, correlation.pl, skips them too)"
    ]


def numbered(n: int = 250, **track) -> object:
    """The gold of a synthetic similarity track of ``n`` items whose ids are "0".."n-1", as sts2017's."""
    scores = np.random.default_rng(0).uniform(0, 5, n).round(2).tolist()
    items = [{"id": str(k), "texts": ["a", "b"], "score": s} for k, s in enumerate(scores)]
    track = Track(id="t", kind="similarity", dataset="d", positional=True, **track)
    return build_gold(track, items, "gold")


@pytest.mark.parametrize("header", ["", "id\tscore\n"])
def test_an_id_column_with_one_id_repeated_is_read_by_id(header, tmp_path):
    """Id 7 written as 5: not "each once", so the file was read positionally, the ids scored as the
    predictions and the scores as confidences (Pearson r -0.11, accepted), even under an id header."""
    gold = numbered()
    ids = [5 if k == 7 else k for k in range(250)]
    text = header + "".join(f"{k}\t{s:.2f}\n" for k, s in zip(ids, gold.gold))
    with pytest.raises(SubmissionError) as error:
        read_track_file(write(tmp_path, text), "f", gold)
    line = 8 + bool(header)
    assert str(error.value) == (
        f"f, line {line}, item '5': duplicate id; expected each id on one line only, found '5' again "
        f"(first seen on line {line - 2}). Keep one line per item\n"
        "f: 1 of the track's 250 items has no prediction (the file has 249 of them): '7'. Predict "
        "every item listed in the track's input file"
    )
    scores = np.rint(
        gold.gold
    )  # whole 0-5 scores and a confidence: few distinct values, positional
    text = "".join(f"{s:.0f}\t{k}\n" for k, s in enumerate(scores))
    assert read_track_file(write(tmp_path, text), "f", gold).values.tolist() == scores.tolist()


@pytest.mark.parametrize("separator", ["", " "], ids=["tab lost", "a space"])
def test_an_id_file_with_a_line_whose_tab_was_lost_is_read_by_id(separator, tmp_path):
    """``52.025`` for ``5<TAB>2.025`` on one line of 250: the ids were no longer "every line tabbed",
    so the file was read positionally, the ids scored as the predictions (r 0.07, no note). The
    file is an id file; that line is refused at its line, and its item named as missing."""
    gold = numbered()
    lines = [f"{k}\t{s:.2f}\n" for k, s in enumerate(gold.gold)]
    lines[5] = lines[5].replace("\t", separator)
    with pytest.raises(SubmissionError) as error:
        read_track_file(write(tmp_path, "".join(lines)), "f", gold)
    problems = str(error.value).split("\n")
    assert problems[0].startswith(
        f"f, line 6: line has no tab; expected ID<TAB>VALUE such as ID<TAB>3.2, or one score per "
        f"line in input order (SemEval positional), found {lines[5].strip()!r}"
    )
    if separator:  # the item the line starts with is that line's: not also listed as missing
        assert len(problems) == 1
    else:
        assert problems[1].startswith("f: 1 of the track's 250 items has no prediction")
    # half the lines without a tab: no id file (read positionally, as before)
    half = "".join(line.replace("\t", "") if k % 2 else line for k, line in enumerate(lines))
    assert read_track_file(write(tmp_path, half), "f", gold).format == "positional"


@pytest.mark.parametrize("tabs", [True, False], ids=["tabbed", "spaced"])
def test_line_numbers_with_a_line_whose_tab_was_lost_are_never_scored(tabs, tmp_path):
    """Line numbers where the ids are words, one line's tab lost: a positional reading took the line
    numbers for the scores (the one line not a whole number let the file through). Tabbed, they are
    refused as unknown ids and that line as one without a tab; spaced, as line numbers."""
    gold = numbered()
    items = [
        {"id": f"dev-{k}", "texts": ["a", "b"], "score": float(s)} for k, s in enumerate(gold.gold)
    ]
    gold = build_gold(gold.track, items, "gold")
    separator = "\t" if tabs else " "
    lines = [f"{k + 1}{separator}{s:.2f}\n" for k, s in enumerate(gold.gold)]
    lines[5] = lines[5].replace(separator, "")
    with pytest.raises(SubmissionError) as error:
        read_track_file(write(tmp_path, "".join(lines)), "f", gold)
    if tabs:
        assert str(error.value).startswith(
            "f: unknown id: not an item of this track, on 249 lines (lines 1, 2, 3, 4, 5 and 244 more; "
            "items '1', '2', '3', '4', '5', ...)"
        )
        assert "f, line 6: line has no tab; expected ID<TAB>VALUE" in str(error.value)
        return
    assert str(error.value).startswith(
        "f: the first column holds whole numbers, each once, up to 250: item ids or line numbers"
    )


@pytest.mark.parametrize(
    "text, release, problem",
    [
        (
            "{}250\t1.0\n251\t1.0\n",
            None,
            "f: unknown id: not an item of this track, on 2 lines (lines {}, {}; items '250', '251')",
        ),
        ("{}abc\t1.0\n", None, "f, line {}, item 'abc': unknown id: not an item of this track"),
        ("{}5\t1.0\n", None, "f, line {}, item '5': duplicate id;"),
        ("{}" + "".join(f"{k}\t1.0\n" for k in range(250, 500)), 500, "f: unknown id:"),
    ],
    ids=["unknown ids", "a word", "a repeated id", "the release's 500 ids"],
)
@pytest.mark.parametrize("header", ["", "id\tscore\n"], ids=["", "header"])
def test_extra_lines_after_every_id_get_the_id_readers_messages(
    text, release, problem, header, tmp_path
):
    """Ids 0..249 then unknown ids, a word or a repeated id: the file was read positionally and
    refused as one line too many (or as "whole numbers, each once ... not scores")."""
    gold = numbered(release_lines=release)
    lines = header + "".join(f"{k}\t{s:.2f}\n" for k, s in enumerate(gold.gold))
    with pytest.raises(SubmissionError) as error:
        read_track_file(write(tmp_path, text.format(lines)), "f", gold)
    first = 251 + bool(header)
    assert str(error.value).startswith(problem.format(first, first + 1))


def test_a_tabbed_file_of_ids_out_of_the_tracks_range_is_refused_as_ids(tmp_path):
    """``1000<TAB>4.222``: ids offset by 1000 were refused as "whole numbers ... not scores ... write
    each item's id and a tab before its score", though the file has tabs and ids; they are unknown
    ids, refused with the track's range."""
    gold = numbered()
    text = "".join(f"{k + 1000}\t{s:.2f}\n" for k, s in enumerate(gold.gold))
    with pytest.raises(SubmissionError) as error:
        read_track_file(write(tmp_path, text), "f", gold)
    assert str(error.value) == (
        "f: none of the ids in this file belong to the track; expected lines such as '0'<TAB>3.2, "
        "found ids such as '1000' on line 1. The track has 250 items, ids '0' to '249'"
    )


def test_shuffled_whole_number_ids_read_as_ids_say_so(tmp_path):
    """Ranks 0..249 of one's system, a confidence after each (the trial's ``35<TAB>74``): every id
    once, out of order, so the file could be positional; the id reading is noted with the way to
    mean either, and an id file in the input order gets no note."""
    gold = numbered()
    ranks = np.random.default_rng(2).permutation(250)
    path = tmp_path / "t.tsv"
    path.write_text("".join(f"{r}\t{50 + r % 51}\n" for r in ranks), encoding="utf-8")
    prediction = read_track_file(path, "t.tsv", gold)
    assert prediction.format == "id"
    assert prediction.warnings == [
        f"the first column holds each of the track's 250 item ids once, out of the input order "
        f"(such as '{ranks[0]}' on line 1), and was read as each line's item id, the second column "
        "as its score (ID<TAB>SCORE); if the first column is your scores (one per line in input "
        "order, a confidence after it), give them as scores from 0 to 5 with decimals (whole "
        "numbers each once, such as ranks, are read as ids); to keep the id reading without this "
        "note, start the file with the header line 'id<TAB>score'"
    ]
    path.write_text("".join(f"{k}\t{s}\n" for k, s in enumerate(gold.gold)), encoding="utf-8")
    assert read_track_file(path, "t.tsv", gold).warnings == []
    # sorted as text ('sort -k1,1': 0, 1, 10, 100, ...): an ordinary id file, no note
    lines = sorted(f"{k}\t{s}\n" for k, s in enumerate(gold.gold))
    path.write_text("".join(lines), encoding="utf-8")
    assert read_track_file(path, "t.tsv", gold).warnings == []
    # the example is the first line out of order, not a line in order
    lines = [f"{k}\t{s}\n" for k, s in enumerate(gold.gold)]
    lines[3:5] = lines[4], lines[3]
    path.write_text("".join(lines), encoding="utf-8")
    assert "(such as '4' on line 4)" in read_track_file(path, "t.tsv", gold).warnings[0]
    path.write_text("id\tscore\n" + "".join(f"{r}\t3.5\n" for r in ranks), encoding="utf-8")
    assert read_track_file(path, "t.tsv", gold).warnings == [
        "the first line was read as a header and skipped"
    ]


def test_quoted_scores_get_the_quote_hint_and_a_line_without_tab_names_the_positional_form(
    tmp_path,
):
    """Every line a quoted number (``"0.2174"``) was refused as 250 lines without a tab, the
    positional form left out of the expected lines; one quoted line had no quote hint."""
    gold = numbered(5)
    path = tmp_path / "t.tsv"
    path.write_text("".join(f'"{s}"\n' for s in gold.gold), encoding="utf-8")
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "t.tsv", gold)
    assert str(error.value) == (
        "t.tsv: not a number, on 5 lines (lines 1, 2, 3, 4, 5; items '0', '1', '2', '3', '4'); "
        f"expected a decimal number such as 3.2, found '\"{gold.gold[0]}\"' on line 1. The value "
        "is CSV-quoted: write it without quotes (quoting=csv.QUOTE_NONE, quotechar=None)"
    )
    path.write_text("".join(f"score={s}\n" for s in gold.gold), encoding="utf-8")
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "t.tsv", gold)
    assert str(error.value).startswith(
        "t.tsv: line has no tab, on 5 lines (lines 1, 2, 3, 4, 5); expected ID<TAB>VALUE such as "
        "ID<TAB>3.2, or one score per line in input order (SemEval positional), found "
        f"'score={gold.gold[0]}' on line 1"
    )
    path.write_text('"1.5"\n' + "".join(f"{s}\n" for s in gold.gold[1:]), encoding="utf-8")
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "t.tsv", gold)
    assert str(error.value) == (
        "t.tsv, line 1, item '0': not a number; expected a decimal number such as 3.2, found "
        "'\"1.5\"'. The value is CSV-quoted: write it without quotes (quoting=csv.QUOTE_NONE, quotechar=None)"
    )


def test_unknown_number_ids_name_the_track_items_and_a_shift_by_one(tmp_path):
    """Ids 0..499 on a 250-item track (STS 2017 track 6's release lines) were refused with only
    "Ids look like '0'", then with the track's range only, though 500 positional lines are read
    on their first 250: the release's unscored lines are named, and to drop them (never accepted,
    also when they are all the file has); ids 1..250 had no word of ids starting at 0."""
    gold = numbered(250, release_lines=500)
    path = tmp_path / "t.tsv"
    path.write_text("".join(f"{k}\t{k % 5}.5\n" for k in range(500)), encoding="utf-8")
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "t.tsv", gold)
    assert str(error.value) == (
        "t.tsv: unknown id: not an item of this track, on 250 lines (lines 251, 252, 253, 254, 255 and 245 more"
        "; items '250', '251', '252', '253', '254', ...). The release's input had 500 lines, of which "
        "the first 250 (ids '0' to '249') are the scored items, as a positional file of 500 lines "
        "is read; the file's 250 ids from '250' to '499' are the release's unscored lines: drop "
        "the ids '250' to '499'"
    )
    path.write_text("".join(f"{k}\t{k % 5}.5\n" for k in range(300, 310)), encoding="utf-8")
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "t.tsv", gold)
    assert "the file's 10 ids from '300' to '309' are the release's unscored" in str(error.value)
    path.write_text("".join(f"{k + 1}\t{k % 5}.5\n" for k in range(250)), encoding="utf-8")
    with pytest.raises(SubmissionError) as error:
        read_track_file(path, "t.tsv", gold)
    assert str(error.value).startswith(
        "t.tsv, line 250, item '250': unknown id: not an item of this track. The track has 250 "
        "items, ids '0' to '249': the file's ids ('1' to '250') are shifted by one; write each id "
        "minus 1\n"
    )
