"""Property-based fuzzing (hypothesis, derandomized) of the submission reader and the scoring program.

CI runs a small seeded sample per track kind; set CODAJUDGE_FUZZ_CASES for more, or run the large
campaign with ``python3 tests/hostile/fuzz.py --cases 10000`` (counts are recorded in
docs/participant-checks.md).
"""

from __future__ import annotations

import os
import shutil
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hostile import checks, edition, fuzz
from hostile.reading import GOLD, read
from hostile.zips import make_zip, patch
from codajudge.errors import SubmissionError
from codajudge.metrics import PerAnnotator

CASES = int(os.environ.get("CODAJUDGE_FUZZ_CASES", "60"))
TRACK_IDS = [t["id"] for t in edition.TRACKS]
FUZZ = settings(
    max_examples=CASES * 8,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture(scope="module")
def arena(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz")
    yield fuzz.Arena(root)
    shutil.rmtree(root, ignore_errors=True)


@pytest.mark.parametrize("kind", fuzz.KINDS)
def test_scoring_program_never_breaks_its_promises(kind, arena):
    """Each generated file: exit 0 with finite scores.json, or exit 2 with one clear message naming
    the file; never a traceback, an internal error, NaN or a partial scores.json."""
    counts = Counter()
    fuzz.fuzz_kind(kind, CASES, arena, counts)
    assert counts[(kind, "accepted")] + counts[(kind, "refused")] >= CASES
    assert counts[(kind, "refused")] > 0  # the generator reaches refusals ...
    if CASES >= 60:
        assert counts[(kind, "accepted")] > 0  # ... and accepted files: the properties hold on both


def _finite_values(values) -> bool:
    array = values.values if isinstance(values, PerAnnotator) else values
    return bool(np.all(np.isfinite(np.asarray(array, dtype=float))))


@FUZZ
@given(data=st.data())
def test_reader_returns_aligned_finite_values_or_a_located_refusal(data, tmp_path_factory):
    """read_prediction on any content: an aligned prediction of finite values, or a SubmissionError
    whose every problem names the file (no other exception)."""
    track_id = data.draw(st.sampled_from(TRACK_IDS), label="track")
    content = data.draw(fuzz.submission_bytes(track_id), label="content")
    path = tmp_path_factory.getbasetemp() / f"reader-{track_id}.tsv"
    path.write_bytes(content)
    gold = GOLD[track_id]
    try:
        prediction = read(path, track_id)
    except SubmissionError as e:
        assert e.problems and all(p.file == f"{track_id}.tsv" for p in e.problems)
        return
    assert _finite_values(prediction.values)
    values = prediction.values
    if isinstance(values, PerAnnotator):
        assert values.values.shape[0] == gold.gold.values.shape[0]
    else:
        assert len(values) == len(gold.ids)


#: Entry names of generated archives: the tracks' files, in folders or not, names that escape or
#: clash, archives in the archive, and names that match no track.
ENTRY_NAMES = [f"{t}.tsv" for t in TRACK_IDS] + [
    "SIM.tsv",
    "sub/cls.tsv",
    "sub/sim.tsv",
    "../up.tsv",
    "/tmp/abs.tsv",
    "a/../../b.tsv",
    "C:/drive.tsv",
    "inner.zip",
    "notes.txt",
    "__MACOSX/._sim.tsv",
    "dir/",
]


@st.composite
def archives(draw) -> bytes:
    """A zip of a few entries (files, links, folders) whose headers may then lie."""
    entries = []
    for _ in range(draw(st.integers(0, 4))):
        name = draw(st.sampled_from(ENTRY_NAMES))
        track_id = name.rsplit("/", 1)[-1].split(".")[0].lower()
        content = (
            fuzz.submission_bytes(track_id) if track_id in TRACK_IDS else st.binary(max_size=40)
        )
        kind = draw(st.sampled_from([{}, {}, {}, {"symlink": True}, {"directory": True}]))
        entries.append((name, draw(content), kind))
    data = make_zip(entries)
    if entries and draw(st.integers(0, 3)) == 0:
        field = draw(st.sampled_from(["flag_bits", "method", "crc", "file_size"]))
        data = patch(
            data, draw(st.integers(0, len(entries) - 1)), **{field: draw(st.integers(0, 2**16 - 1))}
        )
    return data


@settings(FUZZ, max_examples=CASES)
@given(data=archives())
def test_any_archive_is_scored_or_refused_with_a_located_message(data, arena):
    """The scoring program on any zip: exit 0 with finite scores, or exit 2 naming the archive or a
    file in it; never a traceback, and nothing written outside the submission's folders."""
    beside = sorted(arena.root.parent.iterdir())
    for folder in (arena.res, arena.output):
        shutil.rmtree(folder, ignore_errors=True)
    arena.res.mkdir(parents=True)
    (arena.res / "submission.zip").write_bytes(data)
    outcome = checks.run_in_process(arena.input, arena.output)
    names = ["submission", "metadata"] + [name.rsplit("/", 1)[-1] for name in ENTRY_NAMES]
    problems = checks.violations(outcome, arena.keys, names)
    assert outcome.code in (0, 2) and not problems, f"{problems}\n{outcome.stderr[:1500]}"
    assert sorted(arena.root.parent.iterdir()) == beside
    assert sorted(p.name for p in arena.root.iterdir()) == ["input", "output"]
