"""The archive and folder readers give the outcomes recorded over the hostile corpus
(``hostile/archive_outcomes.py``, recorded by ``hostile/recordings.py``): the same warnings,
extracted files, notes and full messages, case by case."""

import pytest

from hostile import archive_outcomes, recordings

RECORDED = recordings.recorded("archive")


@pytest.fixture(scope="module")
def outcomes():
    return recordings.CONCERNS["archive"]()


def test_the_recording_has_every_case(outcomes):
    assert sorted(outcomes) == sorted(RECORDED)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_a_zip_or_folder_reads_as_recorded(name, outcomes):
    assert outcomes[name] == RECORDED[name]


def test_the_recorder_reads_the_corpus():
    assert archive_outcomes.TRACKS
