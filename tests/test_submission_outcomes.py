"""The submission reader's outcomes over the hostile corpus, fuzzed contents and edited valid files
are the recorded ones (``tests/hostile/expected_submission.json``, written by
``tests/hostile/record_submission.py``): same values, warnings and messages, word for word."""

from __future__ import annotations

import base64
import json

import pytest

from hostile import record_submission as recorded

CASES = json.loads(recorded.EXPECTED.read_text(encoding="utf-8"))


def test_the_recorded_inputs_are_rebuilt_byte_for_byte():
    rebuilt = {name: recorded.sha(data) for name, _, data in recorded.regenerated_inputs()}
    stored = {case["name"]: case["sha"] for case in CASES if "data" not in case}
    assert rebuilt == stored


@pytest.fixture(scope="module")
def inputs():
    data = {name: content for name, _, content in recorded.regenerated_inputs()}
    data.update({case["name"]: base64.b64decode(case["data"]) for case in CASES if "data" in case})
    return data


def test_every_recorded_outcome_is_unchanged(inputs, tmp_path):
    changed = []
    for case in CASES:
        path = tmp_path / f"{case['track']}.tsv"
        path.write_bytes(inputs[case["name"]])
        now = recorded.outcome(lambda: recorded.read(path, case["track"]))
        if now != case["outcome"]:
            changed.append((case["name"], case["outcome"], now))
    assert not changed, changed[:3]
