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

from hostile import edition, fuzz
from codajudge.errors import SubmissionError
from codajudge.scoring import read_track_file
from codajudge.gold import build_gold
from codajudge.metrics import PerAnnotator
from codajudge.spec import spec_from_dict

CASES = int(os.environ.get("CODAJUDGE_FUZZ_CASES", "60"))
SPEC = spec_from_dict(edition.spec(), "task.json")
GOLD = {t.id: build_gold(t, edition.items_of(t.id), "gold") for t in SPEC.tracks}
TRACK_IDS = [t["id"] for t in edition.TRACKS]


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


@settings(
    max_examples=CASES * 8,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
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
        prediction = read_track_file(path, f"{track_id}.tsv", gold)
    except SubmissionError as e:
        assert e.problems and all(p.file == f"{track_id}.tsv" for p in e.problems)
        return
    assert _finite_values(prediction.values)
    values = prediction.values
    if isinstance(values, PerAnnotator):
        assert values.values.shape[0] == gold.gold.values.shape[0]
    else:
        assert len(values) == len(gold.ids)
