"""Opening a submission (programs/opening.py): the ingestion program and the scoring program read
a zip, a folder and a folder holding one zip alike, and say the same about a lone .tar."""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from codajudge.errors import SubmissionError
from codajudge.formats.archive import find_track_files
from codajudge.programs import ingest, score
from codajudge.programs.common import own_words
from codajudge.programs.opening import open_submission
from codajudge.runner.local import place_submission
from test_ingestion import SMALL_TRACKS, make_phase

MODEL = (
    "class Model:\n    def __init__(self, track):\n        self.track = track\n"
    "    def fit(self, items):\n        pass\n"
    "    def predict(self, items):\n        return None if self.track['id'] != 'sts' else "
    "[0.5] * len(items)\n"
)


def _zip(path: Path, entries: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    return path


def _tar(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(path, "w") as tf:
        data = b"x\t1\n"
        info = tarfile.TarInfo("sts.tsv")
        info.size = len(data)
        tf.addfile(info, io.BytesIO(data))
    return path


def test_a_folder_is_used_as_it_is(tmp_path):
    folder = tmp_path / "sub"
    folder.mkdir()
    (folder / "sts.tsv").write_text("a\t1\n")
    (folder / "notes.txt").write_text("x")
    assert open_submission(folder, tmp_path) == (folder, [])


@pytest.mark.parametrize("layout", ["zip", "folder holding the zip"])
def test_a_zip_and_a_folder_holding_only_a_zip_are_extracted(tmp_path, layout):
    archive = _zip(tmp_path / "given" / "Run 1.zip", {"model.py": MODEL, "__MACOSX/._x": "x"})
    path = archive if layout == "zip" else archive.parent
    work = tmp_path / "work"
    work.mkdir()
    folder, warnings = open_submission(path, work)
    assert folder == work / "submission"
    assert (folder / "model.py").read_text() == MODEL
    opened = "the submission holds only the zip 'Run 1.zip': its files were read"
    assert warnings == ([] if layout == "zip" else [opened])


def test_a_zip_beside_other_files_is_said_to_be_a_nested_archive_not_opened(tmp_path):
    phase = make_phase(tmp_path / "phase", tracks=SMALL_TRACKS)
    folder = tmp_path / "sub"
    _zip(folder / "inner.zip", {"nli.tsv": "a\tx\n"})
    (folder / "sts.tsv").write_text("a\t1\n")
    found = find_track_files(folder, phase["spec"].tracks, ids_of=lambda dataset: [])
    assert set(found.files) == {"sts"}
    not_opened = "nested archive 'inner.zip' ignored: put the prediction files in the zip itself"
    assert found.ignored_notes({"sts": "sts.tsv"}) == [not_opened]


def test_a_zip_the_v1_worker_extracted_beside_itself_is_said_to_be_read(tmp_path):
    """CodaLab v1.5's worker extracts a submission's top-level ``inner.zip`` into ``inner/``
    (worker.py get_bundle) and leaves the zip: the files read are the folder's, and the note says
    so rather than that the zip was ignored."""
    phase = make_phase(tmp_path / "phase", tracks=SMALL_TRACKS)
    folder = tmp_path / "res"
    _zip(folder / "inner.zip", {"sts.tsv": "a\t1\n"})
    (folder / "inner").mkdir()
    (folder / "inner" / "sts.tsv").write_text("a\t1\n")
    found = find_track_files(folder, phase["spec"].tracks, ids_of=lambda dataset: [])
    assert {track: str(path) for track, path in found.files.items()} == {"sts": "inner/sts.tsv"}
    assert found.ignored_notes({"sts": "inner/sts.tsv"}) == [
        "nested archive 'inner.zip' was not opened: the platform extracted it into the folder "
        "'inner/', whose files were read"
    ]


def test_only_the_tracks_files_are_extracted_when_the_tracks_are_given(tmp_path):
    phase = make_phase(tmp_path / "phase", tracks=SMALL_TRACKS)
    archive = _zip(tmp_path / "res" / "s.zip", {"sts.tsv": "a\t1\n", "other.txt": "x"})
    folder, warnings = open_submission(archive.parent, tmp_path, phase["spec"].tracks)
    assert sorted(p.name for p in folder.iterdir()) == ["sts.tsv"]
    opened = "the submission holds only the zip 's.zip': its files were read"
    assert warnings == [opened, "file 'other.txt' matches no track and was ignored"]


def test_nothing_at_the_path_is_named(tmp_path):
    missing = tmp_path / "sumbission.zip"
    with pytest.raises(SubmissionError) as caught:
        open_submission(missing, tmp_path)
    assert caught.value.render() == f"{missing}: nothing is at this path. Check the path"
    with pytest.raises(SubmissionError) as local:
        place_submission(str(missing), tmp_path / "placed")
    assert local.value.render() == caught.value.render()


@pytest.mark.parametrize(
    "kind, head",
    [("gzip", b"\x1f\x8b\x08"), ("7z", b"7z\xbc\xaf\x27\x1c\x00"), ("RAR", b"Rar!\x1a\x07")],
)
def test_another_archive_named_zip_is_named_by_its_first_bytes(kind, head, tmp_path):
    """A gzip, 7z or RAR file named .zip was refused with zipfile's 'File is not a zip file'."""
    archive = tmp_path / "submission.zip"
    archive.write_bytes(head + bytes(300))
    with pytest.raises(SubmissionError) as caught:
        open_submission(archive, tmp_path)
    assert caught.value.render() == (
        f"submission.zip: not a valid zip archive, found a {kind} archive (by its first bytes). Only zip "
        "is read: unpack it, then zip the files with 'zip -r submission.zip FILES'"
    )


@pytest.mark.parametrize(
    "cut, found, hint",
    [
        (
            500,
            "a zip cut short or damaged: it begins as a zip, but its list of files, at its end, "
            "is missing or unreadable",
            "It was probably cut short by an upload, download or copy",
        ),
        (0, "an empty file", "Create it with 'zip -r submission.zip FILES'"),
        (
            None,
            "a file that does not begin as a zip",
            "Create it with 'zip -r submission.zip FILES'",
        ),
    ],
)
def test_a_file_that_does_not_open_as_a_zip_is_told_what_it_is(cut, found, hint, tmp_path):
    """A trial's zip cut short at 500 bytes was refused with Python's 'File is not a zip file':
    the refusal now says what the file is (a zip cut short, an empty file, no zip) and how to make
    it right, in the kit's words only."""
    archive = tmp_path / "submission.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as made:
        for k in range(12):
            made.writestr(f"track{k}.tsv", "".join(f"i{n}\t{n * k % 7}\n" for n in range(200)))
    whole = archive.read_bytes()
    archive.write_bytes(whole[:cut] if cut is not None else b"id\tvalue\n" + whole[:40])
    with pytest.raises(SubmissionError) as caught:
        open_submission(archive, tmp_path)
    text = caught.value.render()
    assert text.startswith(f"submission.zip: not a valid zip archive, found {found}. {hint}")
    assert "File is not a zip file" not in text


def test_a_tar_named_zip_is_named_by_its_first_bytes(tmp_path):
    archive = tmp_path / "submission.zip"
    _tar(archive)
    with pytest.raises(SubmissionError) as caught:
        open_submission(archive, tmp_path)
    assert "found a tar archive (by its first bytes)" in caught.value.render()


def test_a_mistyped_submission_path_given_to_the_ingestion_program(tmp_path, capfd):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    missing = tmp_path / "sumbission.zip"
    code = ingest.main([str(phase["input"]), str(tmp_path / "out"), str(missing)])
    assert code == 2
    err = capfd.readouterr().err
    assert f"{missing}: nothing is at this path. Check the path" in err
    assert "mounts" not in err


def _program_messages(tmp_path: Path, capfd, layout) -> list:
    """What the ingestion program and the scoring program say about the same submission folder."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    submission = tmp_path / "submission"
    layout(submission)
    messages = []
    assert ingest.main([str(phase["input"]), str(tmp_path / "out"), str(submission)]) == 2
    messages.append(own_words(capfd.readouterr().err))
    scoring_input = tmp_path / "scoring_input"
    scoring_input.mkdir()
    (scoring_input / "ref").symlink_to(phase["ref"], target_is_directory=True)
    (scoring_input / "res").symlink_to(submission, target_is_directory=True)
    assert score.main([str(scoring_input), str(tmp_path / "scores")]) == 2
    messages.append(own_words(capfd.readouterr().err))
    return messages


def test_a_lone_tar_gets_the_same_message_from_both_programs(tmp_path, capfd):
    messages = _program_messages(tmp_path, capfd, lambda folder: _tar(folder / "preds.tar"))
    expected = (
        "preds.tar: only zip archives are read; expected a .zip file or the submission's files "
        "themselves, found a .tar file. Zip the files with 'zip -r submission.zip FILES'"
    )
    assert messages == [expected, expected]


def test_a_zip_inside_the_zip_is_said_once_by_both_programs(tmp_path, capfd):
    def layout(folder: Path) -> None:
        inner = _zip(folder.parent / "inner.zip", {"model.py": MODEL})
        _zip(folder / "outer.zip", {"inner.zip": inner.read_bytes()})

    messages = _program_messages(tmp_path, capfd, layout)
    expected = (
        "outer.zip: the zip holds no file but an archive inside it, found 'inner.zip'. "
        "Put the files themselves in the zip: an archive inside a zip is not opened"
    )
    assert messages == [expected, expected]
    assert "nested archive" not in messages[0]


def test_a_zip_with_a_bad_crc_is_named_damaged_in_words_not_python_s(tmp_path):
    """Trial 58, item 4: a zip whose file fails its CRC showed "(BadZipFile: Bad CRC-32 for file
    'en_en.tsv')"; every program now says what it is (a damaged file inside the zip, named) and
    the fix (create the zip again)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("en_en.tsv", "id\tscore\n")
    data = buffer.getvalue().replace(b"id\tscore", b"id\tscorf")
    (tmp_path / "crc.zip").write_bytes(data)
    with pytest.raises(SubmissionError) as refused:
        open_submission(tmp_path / "crc.zip", tmp_path)
    message = refused.value.render()
    assert "a damaged file inside the zip" in message and "'en_en.tsv'" in message, message
    assert (
        "Create the zip again" in message and "BadZipFile" not in message and "CRC" not in message
    )


def test_a_zip_entry_declaring_more_bytes_than_it_holds_is_refused_as_damaged(tmp_path):
    """Trial 62 (hostile, O_bigdecl_defl.zip): a deflated entry whose declared size (local header
    and central directory) is larger than its data was extracted short and scored, while the
    reverse was refused as damaged; the bytes written must now equal the declared size."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("en_en.tsv", "id\tscore\n1\t0.5\n")
    data = bytearray(buffer.getvalue())
    info = zipfile.ZipFile(buffer).getinfo("en_en.tsv")
    real = info.file_size.to_bytes(4, "little")
    declared = (info.file_size + 1000).to_bytes(4, "little")
    at = info.header_offset + 22  # the local header's uncompressed size
    data[at : at + 4] = declared
    central = data.rindex(b"PK\x01\x02")
    assert data[central + 24 : central + 28] == real
    data[central + 24 : central + 28] = declared
    (tmp_path / "big.zip").write_bytes(bytes(data))
    with pytest.raises(SubmissionError) as refused:
        open_submission(tmp_path / "big.zip", tmp_path)
    message = refused.value.render()
    assert "a damaged file inside the zip" in message and "'en_en.tsv'" in message, message
