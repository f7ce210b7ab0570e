"""Exit codes that blame the right party (issue 13, item 4): 2 for the submission, 1 for the
bundle, 3 for the kit. Participant code cannot shift the blame: a ``predict()`` result that fails
while it is read, a forged ``report.json`` in the ingestion work folder, a garbled progress file;
and a folder name that is not UTF-8 does not crash the results page."""

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from codajudge.programs.ingest import main
from test_ingestion import (
    SMALL_TRACKS,
    assert_failed_cleanly,
    make_phase,
    run_scoring_program,
    write_submission,
)

REPO = Path(__file__).resolve().parents[1]

HEADER = (
    "import json, os, sys\nclass Model:\n    def __init__(self, track):\n        self.track = track\n"
    "    def fit(self, items):\n        pass\n"
)

#: name -> (predict body, needles in the message). Each must give exit 2, never 1 or 3.
PARTICIPANT_FAILURES = {
    "iteration_raises": (
        "    def predict(self, items):\n"
        "        class Bad(list):\n"
        "            def __iter__(self):\n"
        "                raise ZeroDivisionError('broken iterator')\n"
        "        return Bad([1.0] * len(items))\n",
        ["reading what Model.predict returned failed with ZeroDivisionError: broken iterator"],
    ),
    "float_raises": (
        "    def predict(self, items):\n"
        "        import numbers\n"
        "        class Num(numbers.Real):\n"
        "            def __float__(self):\n"
        "                raise KeyError('no float')\n"
        "        Num.__abstractmethods__ = frozenset()\n"
        "        return [Num() for _ in items]\n",
        ["reading what Model.predict returned failed with KeyError"],
    ),
    "str_raises": (
        "    def predict(self, items):\n"
        "        class Odd:\n"
        "            def __str__(self):\n"
        "                raise RuntimeError('no str')\n"
        "            __repr__ = __str__\n"
        "        return [Odd() for _ in items]\n",
        ["not a number", "Odd"],
    ),
    "forged_config_report": (
        "    def predict(self, items):\n"
        "        work = sys.argv[3]\n"
        "        problem = {'file': 'task.json', 'message': 'BUNDLE IS BROKEN, blame the organisers'}\n"
        "        open(os.path.join(work, 'report.json'), 'w').write(json.dumps(\n"
        "            {'status': 'failed', 'kind': 'config', 'omitted': 0, 'problems': [problem]}))\n"
        "        os._exit(0)\n",
        ["the process running the code submission failed"],
    ),
    "forged_internal_report": (
        "    def predict(self, items):\n"
        "        open(os.path.join(sys.argv[3], 'report.json'), 'w').write(json.dumps(\n"
        "            {'status': 'failed', 'kind': 'internal', 'message': 'a bug in the kit, honest'}))\n"
        "        os._exit(3)\n",
        ["the process running the code submission failed", "a bug in the kit, honest"],
    ),
    "garbage_report": (
        "    def predict(self, items):\n"
        "        open(os.path.join(sys.argv[3], 'report.json'), 'wb').write(b'\\xff\\x00{not json')\n"
        "        open(os.path.join(sys.argv[3], 'progress.txt'), 'wb').write(b'\\xff\\xfe' * 5000)\n"
        "        os._exit(1)\n",
        ["stopped unexpectedly"],
    ),
    "forged_ok_without_files": (
        "    def predict(self, items):\n"
        "        open(os.path.join(sys.argv[3], 'report.json'), 'w').write('{\"status\": \"ok\"}')\n"
        "        os._exit(0)\n",
        ["'sts.tsv' cannot be kept"],
    ),
}


@pytest.mark.parametrize("case", sorted(PARTICIPANT_FAILURES))
def test_participant_caused_failures_exit_2(tmp_path, capfd, case):
    body, needles = PARTICIPANT_FAILURES[case]
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    out = tmp_path / "out"
    submission = write_submission(tmp_path / "sub", HEADER + body)
    code = main([str(phase["input"]), str(out), str(submission)])
    err = capfd.readouterr().err
    message = assert_failed_cleanly(out, err, code, needles)
    assert code == 2, err
    assert message.startswith("ingestion program: the submission was not accepted:"), message
    assert (
        "the bundle or its data has a problem" not in message and "internal error (" not in message
    )
    assert not (out / "internal_error.txt").exists()
    scored = run_scoring_program(tmp_path, out)
    assert scored.returncode == 2 and "prediction step failed" in scored.stderr


def test_a_baseline_child_still_reports_a_broken_bundle_as_the_bundle_s(tmp_path, capfd):
    """The trusted path is unchanged: broken input data read by a baseline is exit 1."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    (phase["input"] / "nli.jsonl").write_text("{not json\n", encoding="utf-8")
    code = main(["--baseline", "most_frequent", str(phase["input"]), str(tmp_path / "out")])
    assert code == 1 and "organisers must fix" in capfd.readouterr().err


def test_broken_input_data_under_a_code_submission_is_the_bundle_s(tmp_path, capfd):
    """Checked by the parent before the participant's code runs, so still exit 1."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    (phase["input"] / "nli.jsonl").write_text("{not json\n", encoding="utf-8")
    body = "    def predict(self, items):\n        return [1.0 for _ in items]\n"
    submission = write_submission(tmp_path / "sub", HEADER + body)
    code = main([str(phase["input"]), str(tmp_path / "out"), str(submission)])
    assert code == 1 and "organisers must fix" in capfd.readouterr().err


def _practice_submission(tmp_path: Path, folder: bytes, file_name: str = "{track}.tsv"):
    """A perfect submission of the practice phase's first track, as ``file_name`` ("{track}"
    standing for its id) in the folder ``folder`` (bytes: any name) of ``tmp_path/input/res``,
    beside a link to the reference data; the track returned."""
    from codajudge.formats.write import write_prediction
    from codajudge.gold import gold_as_values
    from codajudge.scoring import load_gold
    from codajudge.spec import read_spec

    ref = REPO / "reference_data" / "practice"
    spec = read_spec(ref)
    track = spec.tracks[0]
    gold = load_gold(spec, ref)[track.id]
    folder = os.fsdecode(os.path.join(os.fsencode(tmp_path / "input" / "res"), folder))
    os.makedirs(folder)
    write_prediction(
        Path(folder) / file_name.format(track=track.id), track, gold.ids, gold_as_values(gold)
    )
    os.symlink(ref, tmp_path / "input" / "ref")
    return track


def _score(tmp_path: Path, stdout=subprocess.PIPE, **env: str) -> subprocess.CompletedProcess:
    """The scoring program run in a process on ``tmp_path/input`` into ``tmp_path/out``."""
    score_py = str(REPO / "scoring_program" / "score.py")
    command = [sys.executable, score_py, str(tmp_path / "input"), str(tmp_path / "out")]
    environment = {**os.environ, **env}
    return subprocess.run(
        command, stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=300, env=environment
    )


def test_a_non_utf8_folder_name_does_not_crash_the_results_page(tmp_path):
    track = _practice_submission(tmp_path, b"pr\xe9dictions")
    done = _score(tmp_path)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "out" / "detailed_results.html").read_text(encoding="utf-8")
    assert "pr\\udce9dictions" in page or "pr\\xe9dictions" in page
    assert json.loads((tmp_path / "out" / "scores.json").read_text())[
        f"{track.id}_pearson"
    ] == pytest.approx(1.0)


def test_a_non_ascii_file_name_is_escaped_on_a_stdout_that_cannot_write_it(tmp_path):
    """A note quoting a file name stdout's encoding lacks (a worker with LANG=C): the name is
    escaped as stderr does, and the submission scored, not an internal error."""
    track = _practice_submission(tmp_path, b"", "{track}.tsv")
    unnamed = tmp_path / "input" / "res" / "预测.tsv"
    unnamed.write_bytes((tmp_path / "input" / "res" / f"{track.id}.tsv").read_bytes())
    done = _score(tmp_path, PYTHONIOENCODING="ascii")
    assert done.returncode == 0, done.stderr
    assert "note: file '\\u9884\\u6d4b.tsv' matches no track" in done.stdout
    assert (tmp_path / "out" / "scores.json").is_file()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_log_that_cannot_be_written_is_the_platform_s_and_leaves_no_scores(tmp_path):
    """stdout on a full disk: exit 1 with the platform's message, and the outputs agree (no
    scores.json beside a page saying the submission was not scored), not an internal error."""
    _practice_submission(tmp_path, b"")
    with open("/dev/full", "w") as full:
        done = _score(tmp_path, stdout=full)
    assert done.returncode == 1, done.stderr
    platform = "scoring program: the platform could not write the program's output or log, found"
    assert f"{platform} No space left on device" in done.stderr, done.stderr
    assert not (tmp_path / "out" / "scores.json").exists()
    page = (tmp_path / "out" / "detailed_results.html").read_text(encoding="utf-8")
    assert "not scored" in page


@pytest.mark.parametrize("program", ["scoring_program/score.py", "ingestion_program/ingest.py"])
def test_both_programs_name_a_missing_input_folder_the_same_way_first(tmp_path, program):
    """``score.py /nonexistent OUT`` said "ref/task.json: the task spec is missing" (a relative path,
    the folder given unnamed) while ingest.py said "/nonexistent: no such folder": both now refuse
    the folder as given, first (exit 2), and leave OUT unmade."""
    missing, out = tmp_path / "nonexistent", tmp_path / "out"
    name = "scoring" if "score" in program else "ingestion"
    submission = [] if name == "scoring" else [str(tmp_path)]
    command = [sys.executable, str(REPO / program), str(missing), str(out), *submission]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    first = done.stderr.strip().splitlines()[0]
    assert done.returncode == 2, done.stderr
    assert first.startswith(f"{name} program: {missing}: no such folder. Give the folder"), first
    assert not out.exists()


def test_output_whose_reader_has_gone_stops_quietly():
    """``codajudge schema | head -1``: the reader closes the pipe; the command stops as a pipe's
    writer killed by SIGPIPE does (exit 141, not Ctrl-C's 130; nothing on stderr), not with an internal error."""
    read_end, write_end = os.pipe()
    command = [sys.executable, "-m", "codajudge", "schema"]  # 100 KB: more than a pipe holds
    run = subprocess.Popen(command, cwd=REPO, stdout=write_end, stderr=subprocess.PIPE)
    os.close(write_end)
    os.close(read_end)
    _, stderr = run.communicate(timeout=60)
    assert (run.returncode, stderr.decode()) == (141, "")


def test_a_scoring_run_whose_reader_has_gone_is_no_interrupt(tmp_path):
    """``score.py ... | head -1`` exited 130, Ctrl-C's code: a reader gone is no interrupt; the
    run stopped by it (its first note was the last line read) exits 141, a SIGPIPE's, quietly."""
    _practice_submission(tmp_path, b"")
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = _score(tmp_path, stdout=write_end)
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (141, "")


def test_a_program_whose_reader_has_gone_after_its_work_exits_with_its_code(monkeypatch):
    """Only the log's last lines lost (the flush after the work fails): the work's own code."""
    import io

    from codajudge.programs.common import run_guarded

    class Gone(io.StringIO):
        def flush(self):
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", Gone())
    assert run_guarded(lambda: print("primary: 0.5") or 0, "scoring program") == 0
    assert run_guarded(lambda: print("refused") or 2, "scoring program") == 2


def _no_space_left(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("output", ["a_file", "a_file/below", "full_disk"])
def test_an_output_folder_that_cannot_be_written_is_the_bundle_s(tmp_path, capfd, output):
    """Both programs: exit 1 and the folder named, never an internal error (exit 3) or a
    traceback, whether it cannot be made (a file stands at its path, or above it) or written
    into (a full disk, or a read-only folder, past the check before the code runs)."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    (tmp_path / "a_file").write_text("", encoding="utf-8")
    (tmp_path / "res").mkdir()
    assert main(["--baseline", "most_frequent", str(phase["input"]), str(tmp_path / "res")]) == 0
    capfd.readouterr()
    with pytest.MonkeyPatch.context() as patch:
        if output == "full_disk":  # the writes fail, not the check of the folder
            patch.setattr(os, "replace", _no_space_left)
        code = main(["--baseline", "most_frequent", str(phase["input"]), str(tmp_path / output)])
        scored = run_scoring_program(tmp_path, tmp_path / "res", tmp_path / output)
    err = capfd.readouterr().err
    why = {"a_file": "File exists", "a_file/below": "Not a directory"}.get(output, "No space")
    expected = f"{tmp_path / output}: cannot write to the output folder, found {why}"
    for exit_code, message in ((code, err), (scored.returncode, scored.stderr)):
        assert exit_code == 1 and "organisers must fix it):\n" + expected in message, message
        assert "internal error" not in message and "Traceback" not in message


def test_an_internal_error_blames_neither_the_reader_s_edition_nor_their_submission(
    tmp_path, monkeypatch, capsys
):
    """The organiser's commands (check, build) say the edition and its data are not at fault; the
    programs a participant's submission goes through (ingestion, scoring, run) the submission."""
    from codajudge.cli import main as cli
    from codajudge.programs import check, score

    def crash(*args, **kwargs):
        raise KeyError("1.0")

    monkeypatch.setattr(check, "check", crash)
    monkeypatch.setattr(score, "score_submission", crash)
    assert cli(["check", "edition", "--data", "data"]) == 3
    said = capsys.readouterr().err
    assert "not in your edition or data; please report it." in said and "submission" not in said
    assert score.main([str(tmp_path / "input"), str(tmp_path / "output")]) == 3
    assert "not in your submission; please report it to the organisers." in capsys.readouterr().err
