"""The archive and folder readers give the outcomes recorded over the hostile corpus
(``hostile/archive_outcomes.py``): the same warnings, extracted files, notes and full messages."""

import json

from hostile import archive_outcomes


def test_outcomes_are_the_recorded_ones():
    recorded = json.loads(archive_outcomes.EXPECTED.read_text(encoding="utf-8"))
    now = json.loads(json.dumps(archive_outcomes.record()))
    assert now.keys() == recorded.keys()
    assert {k: v for k, v in now.items() if v != recorded[k]} == {}
