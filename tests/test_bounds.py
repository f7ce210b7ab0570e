"""Memory and disk bounded per submission (issue 13, item 3).

The scoring program runs as the platform runs it, in a subprocess whose address space is capped at
1 GB (``resource.RLIMIT_AS``): a 30 MB file of 3-byte lines and a zip bomb split into entries of at
most 10 MiB (600 MiB from a few hundred KB) are refused with exit 2 and a participant message, not
a MemoryError or a traceback. The bounds themselves (lines and bytes per track, extracted entries)
are checked directly too.
"""

import functools
import io
import os
import resource
import struct
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

import numpy as np
import pytest

from codajudge.errors import SubmissionError
from codajudge.formats import archive, textfile
from codajudge.spec import read_spec

REPO = Path(__file__).resolve().parents[1]
REF = REPO / "reference_data" / "evaluation"
LIMIT = 1024**3


def _cap_memory():
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def _score_capped(tmp_path: Path, res_files: dict, ref: Path = REF):
    """The scoring program on ``res_files`` (name -> bytes or a writer) under a 1 GB address space."""
    res = tmp_path / "input" / "res"
    res.mkdir(parents=True)
    for name, content in res_files.items():
        if callable(content):
            content(res / name)
        else:
            (res / name).write_bytes(content)
    os.symlink(ref, tmp_path / "input" / "ref")
    return subprocess.run(
        [
            sys.executable,
            str(REPO / "scoring_program" / "score.py"),
            str(tmp_path / "input"),
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        preexec_fn=_cap_memory,
    )


def _assert_refused(done, *needles):
    assert done.returncode == 2, done.stderr[-3000:]
    assert (
        "Traceback" not in done.stderr
        and "internal error" not in done.stderr
        and "out of memory" not in done.stderr
    )
    for needle in needles:
        assert needle in done.stderr, done.stderr[-3000:]


def _track_file():
    spec = read_spec(REF)
    return spec.tracks[0]


@pytest.fixture(scope="module")
def big_ref(tmp_path_factory):
    """A phase with a 2,000-item similarity track: 30 MB is then within its byte bound (126 MiB), so
    it is the line bound that refuses the file."""
    from test_ingestion import ALL_TRACKS, make_phase

    return make_phase(
        tmp_path_factory.mktemp("big"), tracks=ALL_TRACKS[:1], n_test=2000, n_train=5
    )["ref"]


@functools.lru_cache(maxsize=1)
def _short_lines(count: int) -> bytes:
    """``count`` 3-byte lines of two random letters (they compress about 2:1, as text does)."""
    lines = np.array([[a, b, 10] for a in range(97, 123) for b in range(97, 123)], dtype=np.uint8)
    return lines[np.random.default_rng(3).integers(0, len(lines), count)].tobytes()


def test_a_30_mb_file_of_3_byte_lines_is_refused_under_1_gb(tmp_path, big_ref):
    done = _score_capped(tmp_path, {"sts.tsv": _short_lines(10 * 1024 * 1024)}, big_ref)
    _assert_refused(
        done, "sts.tsv: file has too many lines", "at most 5,000 lines for a track of 2,000 items"
    )


def test_a_30_mb_file_of_3_byte_lines_in_a_zip_is_refused_under_1_gb(tmp_path, big_ref):
    def write(path):
        # the fastest level: how well the entry is compressed does not matter to its line count
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
            zf.writestr("sts.tsv", _short_lines(10 * 1024 * 1024))

    done = _score_capped(tmp_path, {"submission.zip": write}, big_ref)
    _assert_refused(done, "sts.tsv: file has too many lines")


def test_a_30_mb_file_for_a_small_track_is_refused_by_its_byte_bound(tmp_path):
    track = _track_file()
    done = _score_capped(tmp_path, {f"{track.id}.tsv": b"ab\n" * (10 * 1024 * 1024)})
    _assert_refused(done, f"{track.id}.tsv: file is too large", "for a track of")


def _split_bomb(path: Path, names):
    """Entries of 10 MiB of zeros each (each under the per-entry ratio check's threshold), written
    as zipfile writes them at its default level, the chunk compressed once for all of them."""
    chunk = b"\0" * (10 * 1024 * 1024)
    compressor = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)
    deflated = compressor.compress(chunk) + compressor.flush()
    # version 2.0, no flags, deflated, 1980-01-01 00:00, crc, compressed and full size
    fields = (20, 0, zipfile.ZIP_DEFLATED, 0, 0x21, zlib.crc32(chunk), len(deflated), len(chunk))
    local, central = io.BytesIO(), io.BytesIO()
    for name in map(str.encode, names):
        offset = local.tell()
        local.write(struct.pack("<4s5H3L2H", b"PK\x03\x04", *fields, len(name), 0) + name)
        local.write(deflated)
        # made by unix (3) zip 2.0, no extra, comment, disk or internal attributes: a -rw-r--r-- file
        entry = (0x314, *fields, len(name), 0, 0, 0, 0, 0o100644 << 16, offset)
        central.write(struct.pack("<4s6H3L5H2L", b"PK\x01\x02", *entry) + name)
    count, size = len(names), central.tell()
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, count, count, size, local.tell(), 0)
    path.write_bytes(local.getvalue() + central.getvalue() + end)


@pytest.mark.parametrize("naming", ["unused", "track_in_folders"])
def test_a_bomb_split_into_small_entries_is_refused_under_1_gb(tmp_path, naming):
    track = _track_file()
    names = (
        [f"part{k:02d}.bin" for k in range(60)]
        if naming == "unused"
        else [f"copy{k:02d}/{track.id}.tsv" for k in range(60)]
    )
    done = _score_capped(tmp_path, {"submission.zip": lambda p: _split_bomb(p, names)})
    _assert_refused(done, "submission.zip: archive expands too much (a zip bomb?)")
    assert os.path.getsize(tmp_path / "input" / "res" / "submission.zip") < 2 * 1024 * 1024
    assert not (tmp_path / "out" / "scores.json").exists()


def test_only_the_tracks_files_are_extracted(tmp_path):
    spec = read_spec(REF)
    track = spec.tracks[0]
    with zipfile.ZipFile(tmp_path / "s.zip", "w") as zf:
        zf.writestr(f"team/{track.id}.tsv", "x\t1\n")
        zf.writestr("team/notes.txt", "big notes " * 1000)
        zf.writestr("team/model.bin", b"\1" * 5000)
    target = tmp_path / "out"
    target.mkdir()
    warnings = archive.safe_extract(tmp_path / "s.zip", target, "s.zip", spec.tracks)
    assert sorted(p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file()) == [
        f"team/{track.id}.tsv"
    ]
    assert warnings == [
        "file 'team/notes.txt' matches no track and was ignored",
        "file 'team/model.bin' matches no track and was ignored",
    ]


def test_a_track_given_twice_in_a_zip_is_refused_before_extraction(tmp_path):
    spec = read_spec(REF)
    track = spec.tracks[0]
    with zipfile.ZipFile(tmp_path / "s.zip", "w") as zf:
        zf.writestr(f"a/{track.id}.tsv", "x\t1\n")
        zf.writestr(f"b/{track.id}.tsv", "x\t1\n")
    target = tmp_path / "out"
    target.mkdir()
    with pytest.raises(SubmissionError, match=f"track '{track.id}' is given by more than one file"):
        archive.safe_extract(tmp_path / "s.zip", target, "s.zip", spec.tracks)
    assert not any(target.iterdir())


def test_line_and_byte_bounds_follow_the_track_size(tmp_path):
    path = tmp_path / "t.tsv"
    path.write_text("a\t1\n\n" * 10 + "\n" * 1000, encoding="utf-8")  # 2n + 1000 lines: accepted
    numbers, texts = textfile.read_texts(path, "t.tsv", 10)
    assert len(texts) == 10
    path.write_text("a\t1\n\n" * 10 + "\n" * 1001, encoding="utf-8")
    with pytest.raises(
        SubmissionError,
        match="file has too many lines.*at most 1,020 lines for a track of 10 items",
    ):
        textfile.read_texts(path, "t.tsv", 10)
    path.write_bytes(
        b"a\t1\n" * 10 + b"\xff\n" + b"\n" * 1010
    )  # the first problem in the file is reported
    with pytest.raises(SubmissionError, match="line 11: file is not UTF-8 text"):
        textfile.read_texts(path, "t.tsv", 10)
    path.write_text("a\t" + "1" * (64 * 1024 * 10 + 1024 * 1024) + "\n", encoding="utf-8")
    with pytest.raises(
        SubmissionError,
        match="file is too large; expected at most 1703936 bytes for a track of 10 items",
    ):
        textfile.read_texts(path, "t.tsv", 10)  # 64 KiB per item + 1 MiB
    with open(path, "wb") as f:  # sparse: nothing is really stored
        f.truncate(textfile.MAX_FILE_BYTES + 1)
    with pytest.raises(
        SubmissionError,
        match=f"file is too large; expected at most {textfile.MAX_FILE_BYTES} bytes, ",
    ):
        textfile.read_texts(path, "t.tsv", 10**7)  # a huge track is still capped at MAX_FILE_BYTES
