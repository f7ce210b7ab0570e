"""``ingestion_status.json`` (programs/status.py): one schema, written by the ingestion program and
read, as untrusted, by the scoring program and the ranking tool."""

import json
import os

from codajudge.programs.status import (
    MAX_STATUS_BYTES,
    UNREADABLE,
    UNREADABLE_MESSAGE,
    IngestionStatus,
    read_status,
    write_status,
)

NAME = "ingestion_status.json"


def test_written_status_reads_back_with_every_field(tmp_path):
    status = IngestionStatus(
        "ok", "done", ("sim", "nli"), ("file 'x' ignored",), {"sim": "Sim.TSV"}
    )
    write_status(tmp_path, status)
    assert json.loads((tmp_path / NAME).read_text(encoding="utf-8"))["status"] == "ok"
    assert read_status(tmp_path) == status
    assert read_status(tmp_path).status == "ok"


def test_a_failed_status_is_not_ok_and_keeps_its_message(tmp_path):
    message = "ingestion program: the submission was not accepted:\nx"
    write_status(tmp_path, IngestionStatus("failed", message))
    status = read_status(tmp_path)
    assert status.status != "ok"
    assert status.message.endswith("accepted:\nx")


def test_no_file_is_no_status(tmp_path):
    assert read_status(tmp_path) is None


def _unreadable(tmp_path, make) -> IngestionStatus:
    make(tmp_path / NAME)
    return read_status(tmp_path)


def test_what_is_no_small_json_object_is_unreadable(tmp_path):
    makers = {
        "not json": lambda p: p.write_text("{oops"),
        "a list": lambda p: p.write_text("[1, 2]"),
        "too large": lambda p: p.write_text(
            json.dumps({"status": "ok", "message": "x" * MAX_STATUS_BYTES})
        ),
        "a link": lambda p: os.symlink(p.parent / "elsewhere.json", p),
        "deep": lambda p: p.write_text("[" * 50_000 + "]" * 50_000),
    }
    (tmp_path / "elsewhere.json").write_text('{"status": "ok", "message": ""}')
    for what, make in makers.items():
        folder = tmp_path / what.replace(" ", "_")
        folder.mkdir()
        status = _unreadable(folder, make)
        assert status == IngestionStatus(UNREADABLE, UNREADABLE_MESSAGE), what
        assert status.status != "ok"


def test_fields_of_the_wrong_shape_are_dropped_and_long_ones_cut(tmp_path):
    document = {
        "status": "ok",
        "tracks": ["sim", 3],
        "notes": ["n\x1b[31m" + "y" * 1000] * 50,
        "names": {"sim": "a" * 1000, "nli": 7},
    }
    (tmp_path / NAME).write_text(json.dumps(document))
    status = read_status(tmp_path)
    assert status.tracks is None  # not every entry is a track id
    assert status.message == "no message"
    assert len(status.notes) == 20
    assert all(len(note) <= 303 and "\x1b" not in note for note in status.notes)
    assert list(status.names) == ["sim"] and len(status.names["sim"]) <= 203
