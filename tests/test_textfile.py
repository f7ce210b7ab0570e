"""The text-file reader: one reader, each rule stated once, and the same outcomes as recorded.

``hostile/expected_textfile.json`` holds the reader's outcomes (values digest or full message) over
the hostile corpus, seeded awkward inputs at several block sizes and bounds, and the bounds cases,
recorded before the reader's two paths became one (``hostile/textfile_outcomes.py``).
"""

from __future__ import annotations

from hostile import textfile_outcomes

#: Outcomes that changed on purpose since the recording, with why.
CHANGED = {}


def test_outcomes_are_the_recorded_ones():
    now = textfile_outcomes.record()
    recorded = textfile_outcomes.expected()
    assert now.keys() == recorded.keys()
    differ = {case_id: (recorded[case_id], now[case_id]) for case_id in now
              if now[case_id] != CHANGED.get(case_id, recorded[case_id])}
    assert not differ, differ
