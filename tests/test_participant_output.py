"""What a code submission prints is kept (issue 26): read from pipes, capped (head and tail, the
rest counted), echoed to the log, saved as participant_output.txt in the prediction output (which
the scorer ignores); a failure comes with the traceback of the participant's own frames; each
track says what it is doing; the local runner's steps are read capped too."""

from __future__ import annotations

import io
import re
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from codajudge.programs.ingest import main
from codajudge.runner.capture import CappedOutput
from codajudge.runner.local import run_step
from codajudge.scoring import score_folder
from codajudge.spec import read_spec
from test_ingestion import ALL_TRACKS, SMALL_TRACKS, make_phase, status_of, write_submission

OUTPUT = "participant_output.txt"
HELPER = "def explode(n):\n    raise ValueError(f'bad value {n}')\n"
LOUD_FAILING_MODEL = (
    "import sys\nfrom helper import explode\n"
    "class Model:\n    def __init__(self, track):\n        pass\n"
    "    def fit(self, items):\n"
    "        for i in range(300_000):\n            print('line', i, 'x' * 40)\n"
    "        print('last words', file=sys.stderr)\n"
    "    def predict(self, items):\n        explode(len(items))\n"
)
CHATTY_MODEL = (
    "class Model:\n    def __init__(self, track):\n        self.track = track\n"
    "    def fit(self, items):\n        print('fitting', self.track['id'])\n"
    "    def predict(self, items):\n"
    "        return [0.5] * len(items) if self.track['id'] == 'sts' else ['neutral'] * len(items)\n"
)


def _folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def test_loud_code_that_raises_leaves_its_output_capped_and_its_traceback(tmp_path, capfd):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    submission = write_submission(tmp_path / "sub", LOUD_FAILING_MODEL)
    (submission / "helper.py").write_text(HELPER, encoding="utf-8")
    out = tmp_path / "out"
    code = main([str(phase["input"]), str(out), str(submission)])
    log = capfd.readouterr()
    assert code == 2
    message = status_of(out)["message"]
    trace = (
        '  File "model.py", line 11, in predict\n    explode(len(items))\n'
        '  File "helper.py", line 2, in explode\n'
        "    raise ValueError(f'bad value {n}')\nValueError: bad value 14"
    )
    for text in (message, log.err):
        assert "track 'sts': Model.predict failed with ValueError: bad value 14" in text
        assert trace in text
        assert not re.search(r'File "[^"]*codajudge', text)  # none of the kit's frames
    saved = (out / OUTPUT).read_text(encoding="utf-8")
    assert saved.startswith("line 0 " + "x" * 40 + "\n")
    assert re.search(r"\n\.\.\. [\d,]+ lines \([\d,]+ bytes\) cut \.\.\.\n", saved)
    assert "line 299999 " in saved and "last words\n" in saved
    assert trace in saved.split("--- the ingestion program's message ---")[1]
    assert len(saved.encode()) < 1.1 * 1024**2
    assert _folder_size(out) < 20 * 1024**2
    assert sorted(p.name for p in out.iterdir()) == ["ingestion_status.json", OUTPUT]
    # the log shows the head and the tail, each line marked as the code's, and the kit's progress
    assert "[your code] line 0 " in log.out and "[your code] last words" in log.err
    assert "track sts: fitting on 30 training items" in log.out
    assert "track sts: predicting 14 items" in log.out
    assert len(log.out.encode()) < 1.5 * 1024**2  # head and tail, each line prefixed
    assert f"what your code printed is in {OUTPUT}" in log.out


def test_output_of_a_successful_run_is_kept_and_ignored_by_the_scorer(tmp_path, capfd):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    submission = write_submission(tmp_path / "sub", CHATTY_MODEL)
    out = tmp_path / "out"
    assert main([str(phase["input"]), str(out), str(submission)]) == 0
    log = capfd.readouterr().out
    assert (out / OUTPUT).read_text(encoding="utf-8") == "fitting sts\nfitting nli\n"
    assert re.search(r"track sts done in [\d.]+ s \(fit [\d.]+ s, predict [\d.]+ s\), 14 ", log)
    result = score_folder(read_spec(phase["ref"]), phase["ref"], out)
    assert sorted(result.tracks) == ["nli", "sts"]
    assert not any(OUTPUT in warning for warning in result.warnings)


def test_the_kits_note_on_renormalised_soft_labels_is_the_kits_not_the_codes(tmp_path, capfd):
    """A model returning soft labels summing to 0.99 that prints nothing: the kit's note that it
    renormalised them was printed on the child's stdout, so the log showed it as '[your code]
    note: ...' and participant_output.txt held it ("your code printed something")."""
    phase = make_phase(tmp_path, tracks=[ALL_TRACKS[1], ALL_TRACKS[2]])
    model = CHATTY_MODEL.replace("print('fitting', self.track['id'])", "pass").replace(
        "[0.5] * len(items) if self.track['id'] == 'sts'",
        "[[0.495, 0.495]] * len(items) if self.track['id'] == 'mp_soft'",
    )
    out = tmp_path / "out"
    assert (
        main([str(phase["input"]), str(out), str(write_submission(tmp_path / "sub", model))]) == 0
    )
    lines = capfd.readouterr().out.splitlines()
    notes = [line for line in lines if "renormalised" in line]
    assert len(notes) == 1 and notes[0].startswith("note: predictions for track 'mp_soft': "), lines
    assert not (out / OUTPUT).exists()
    assert not any(line.startswith("what your code printed") for line in lines)


def test_each_echoed_line_shows_its_control_characters_escaped_behind_the_prefix(tmp_path, capfd):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    forged = "b'\\r\\x1b[2Kscores: 1.0\\tok \\xff\\r\\n'"  # a forged line, tab, invalid byte, CRLF
    forging = f"sys.stdout.buffer.write({forged}) and sys.stdout.flush()"
    model = "import sys\n" + CHATTY_MODEL.replace("print('fitting', self.track['id'])", forging)
    out = tmp_path / "out"
    assert (
        main([str(phase["input"]), str(out), str(write_submission(tmp_path / "sub", model))]) == 0
    )
    log = capfd.readouterr().out
    assert "[your code] \\r\\x1b[2Kscores: 1.0\tok \\xff\n" in log
    assert (out / OUTPUT).read_bytes().startswith(b"\r\x1b[2Kscores: 1.0\tok ")


def test_a_line_the_code_writes_on_the_kits_pipe_is_echoed_as_the_codes(tmp_path, capfd):
    """The child's pipe for the kit's lines (its last argument) is open to the code, which runs in
    the child: a line not of the child's own forms (progress, notes) is shown as the code's, so a
    forged 'scoring program: ...' line gets the prefix (a trial wrote one through fd 4)."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    forging = "os.write(int(sys.argv[-1]), b'scoring program: FORGED\\n')"
    model = "import os, sys\n" + CHATTY_MODEL.replace("print('fitting', self.track['id'])", forging)
    out = tmp_path / "out"
    submission = write_submission(tmp_path / "sub", model)
    assert main([str(phase["input"]), str(out), str(submission)]) == 0
    lines = capfd.readouterr().out.splitlines()
    assert "[your code] scoring program: FORGED" in lines
    assert "scoring program: FORGED" not in lines
    assert any(line.startswith("track ") and "fitting" in line for line in lines)


def test_the_codes_lines_and_the_kits_never_run_into_one_line(monkeypatch):
    """The pipes' reader threads print at once: print() wrote a line and its end apart, and a trial
    saw '[your code] note: my owntrack snli_nli: fitting on 0 training items'."""
    import threading
    import time

    from codajudge.programs import supervisor

    class Slow(io.StringIO):
        def write(self, text):
            time.sleep(0.0001)  # room for the other thread between a line and its end
            return super().write(text)

    stream = Slow()
    monkeypatch.setattr(supervisor.sys, "stdout", stream)
    code = threading.Thread(
        target=lambda: [supervisor._echo(stream, b"mine\n") for _ in range(200)]
    )
    kit = threading.Thread(
        target=lambda: [
            supervisor._print_kit_line(b"track t: fitting on 1 item\n") for _ in range(200)
        ]
    )
    for thread in (code, kit):
        thread.start()
    for thread in (code, kit):
        thread.join()
    lines = stream.getvalue().splitlines()
    assert set(lines) == {"[your code] mine", "track t: fitting on 1 item"} and len(lines) == 400


def test_a_thread_the_code_leaves_running_does_not_hold_the_run_to_its_time_limit(tmp_path, capfd):
    """Every track done, the child waited for a non-daemon thread of the code until the time limit,
    and the run was refused as "past the time limit (... reading what Model.predict returned)"
    (a trial's thread sleeping forever). The child ends once its report is written."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    sleeper = "import threading, time\nthreading.Thread(target=time.sleep, args=(600,)).start()\n"
    submission = write_submission(tmp_path / "sub", sleeper + CHATTY_MODEL)
    out = tmp_path / "out"
    assert main([str(phase["input"]), str(out), str(submission), "--time-limit", "30"]) == 0
    assert status_of(out)["status"] == "ok"


def test_quiet_code_leaves_no_output_file_and_a_planted_one_is_removed(tmp_path, capfd):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    quiet = CHATTY_MODEL.replace("print('fitting', self.track['id'])", "pass")
    submission = write_submission(tmp_path / "sub", quiet)
    out = tmp_path / "out"
    out.mkdir()
    (out / OUTPUT).write_text("a previous run's output", encoding="utf-8")
    assert main([str(phase["input"]), str(out), str(submission)]) == 0
    assert not (out / OUTPUT).exists()


def test_quiet_code_that_fails_is_not_said_to_have_printed(tmp_path, capfd):
    """The file then holds only the program's message, and the log does not point to it as the
    code's output."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    quiet = CHATTY_MODEL.replace("print('fitting', self.track['id'])", "1 / 0")
    submission = write_submission(tmp_path / "sub", quiet)
    out = tmp_path / "out"
    assert main([str(phase["input"]), str(out), str(submission)]) == 2
    assert "what your code printed" not in capfd.readouterr().out
    saved = (out / OUTPUT).read_text(encoding="utf-8")
    assert saved.startswith("\n--- the ingestion program's message ---\n")
    assert saved.endswith("ZeroDivisionError: division by zero\n")


def test_a_time_out_says_the_limit_the_track_and_the_step_and_keeps_the_output(tmp_path, capfd):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    model = (
        "import time\nclass Model:\n    def __init__(self, track):\n        pass\n"
        "    def fit(self, items):\n        print('fit started', flush=True)\n"
        "        time.sleep(60)\n    def predict(self, items):\n        return []\n"
    )
    submission = write_submission(tmp_path / "sub", model)
    out = tmp_path / "out"
    assert main([str(phase["input"]), str(out), str(submission), "--time-limit", "8"]) == 2
    err = capfd.readouterr().err
    saved = (out / OUTPUT).read_text(encoding="utf-8")
    assert saved.startswith("fit started\n")
    assert "ran past the time limit of 8 s (while running track 'sts': Model.fit)" in err
    assert err.count("ran past the time limit") == 1
    assert "Make fit() and predict() faster" in err


def test_capped_output_keeps_head_and_tail_and_counts_the_cut():
    echoed = []
    capture = CappedOutput(head_bytes=10, tail_bytes=8)
    for i in range(10):
        capture.add(f"{i}{i}{i}\n".encode(), echoed.append)
    assert echoed == [b"000\n", b"111\n"]
    assert capture.text() == "000\n111\n... 6 lines (24 bytes) cut ...\n888\n999\n"
    assert (capture.lines, capture.bytes) == (10, 40)


def test_a_line_split_between_head_and_tail_is_kept_whole_when_nothing_is_cut():
    """A line break begins the note on a cut; with nothing cut, no line break is added."""
    capture = CappedOutput(head_bytes=4, tail_bytes=8)
    capture.add(b"abcd")
    capture.add(b"efg\n")
    assert capture.text() == "abcdefg\n"


def test_a_step_that_prints_without_end_is_read_capped(tmp_path):
    code = "import sys\nfor i in range(400_000):\n    print(i, 'y' * 30)\nprint('end', file=sys.stderr)"
    result = run_step([sys.executable, "-c", code], tmp_path, 60)
    assert result.exit_code == 0
    assert result.stdout.startswith("0 " + "y" * 30 + "\n")
    assert result.stdout.endswith(f"399999 {'y' * 30}\n") and " cut ...\n" in result.stdout
    assert len(result.stdout) < 1.1 * 1024**2
    assert result.stderr == "end\n"


def test_the_local_runner_keeps_the_output_and_says_where(tmp_path, capsys):
    from codajudge.programs import run_local

    repo = Path(__file__).resolve().parents[1]
    model = (
        "class Model:\n    def __init__(self, track):\n        pass\n"
        "    def fit(self, items):\n        print('hello from fit')\n        1 / 0\n"
        "    def predict(self, items):\n        return None\n"
    )
    submission = write_submission(tmp_path / "sub", model)
    output = tmp_path / "kept"
    args = [str(repo), str(submission), "--phase", "practice", "--output", str(output)]
    assert run_local.main(args) == 2
    captured = capsys.readouterr()
    kept = output / "predictions" / OUTPUT
    assert f"what your code printed is in {kept}\n" in captured.out
    saved = kept.read_text(encoding="utf-8")
    assert saved.startswith("hello from fit\n")
    assert '  File "model.py", line 6, in fit\n    1 / 0\n' in saved
    assert saved.endswith("ZeroDivisionError: division by zero\n")
    assert "ZeroDivisionError: division by zero" in captured.err
    assert '  File "model.py", line 6, in fit' in captured.err


def test_a_class_of_another_name_is_named_in_the_refusal(tmp_path, capfd):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    code = CHATTY_MODEL.replace(
        "class Model:", "import json\nclass Helper:\n    pass\nclass MyModel:"
    )
    submission = write_submission(tmp_path / "sub", code)
    out = tmp_path / "out"
    assert main([str(phase["input"]), str(out), str(submission)]) == 2
    assert (
        "model.py: no class named Model; expected class Model, found class MyModel (with fit and "
        "predict). Rename it Model, or add the line 'Model = MyModel' after it"
    ) in capfd.readouterr().err


def test_prediction_files_beside_model_py_get_a_note(tmp_path, capfd):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    submission = write_submission(tmp_path / "sub", CHATTY_MODEL)
    (submission / "results").mkdir()
    (submission / "results" / "sts.tsv").write_text("x\t1\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main([str(phase["input"]), str(out), str(submission)]) == 0
    note = (
        "the submission holds model.py, so it was run as a code submission and its prediction "
        "file 'results/sts.tsv' was ignored; to submit those files instead, leave model.py out"
    )
    assert f"note: {note}\n" in capfd.readouterr().out
    assert note in status_of(out)["notes"]
    result = score_folder(read_spec(phase["ref"]), phase["ref"], out, ["sts", "nli"])
    assert sorted(result.tracks) == ["nli", "sts"]


def test_the_note_on_prediction_files_beside_model_py_counts_those_it_leaves_out(tmp_path, capfd):
    """A trial's code submission held the sample's 12 result files beside model.py: the note
    named 5 of them and said nothing of the other 7; a cut list says how many it left out."""
    phase = make_phase(tmp_path, tracks=ALL_TRACKS)
    submission = write_submission(tmp_path / "sub", CHATTY_MODEL)
    for track in ALL_TRACKS:
        (submission / f"{track['id']}.tsv").write_text("x\t1\n", encoding="utf-8")
    main([str(phase["input"]), str(tmp_path / "out"), str(submission)])
    listed = re.search(r"its prediction files (.*) were ignored", capfd.readouterr().out)
    assert listed and listed[1].count(".tsv'") == 5 and listed[1].endswith(" and 3 more")


def test_an_error_while_importing_model_py_comes_with_its_traceback(tmp_path, capfd):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    submission = write_submission(tmp_path / "sub", "import helper\n" + CHATTY_MODEL)
    (submission / "helper.py").write_text("TABLE = {}\nVALUE = TABLE['missing']\n")
    out = tmp_path / "out"
    assert main([str(phase["input"]), str(out), str(submission)]) == 2
    err = capfd.readouterr().err
    assert "importing model.py failed with KeyError: 'missing'" in err
    assert (
        '  File "model.py", line 1, in <module>\n    import helper\n'
        '  File "helper.py", line 2, in <module>\n'
    ) in err
    assert "frozen" not in err and not re.search(r'File "[^"]*codajudge', err)


def test_the_local_runners_time_out_says_the_limit_the_track_and_what_to_do(timed_out_run):
    """The run shared with the test below: a model that prints, then sleeps past the limit."""
    _, _, err = timed_out_run
    assert "the code submission ran past the time limit of 6 s (while running track '" in err
    assert "': fitting). Make fit() and predict() faster" in err
    assert err.count("ran past the time limit") == 1  # said once


PRINTS_THEN_SLEEPS = (
    "import time\nclass Model:\n    def __init__(self, track):\n        pass\n"
    "    def fit(self, items):\n        print('fit started', flush=True)\n"
    "        time.sleep(60)\n    def predict(self, items):\n        return None\n"
)


@pytest.fixture(scope="module")
def timed_out_run(tmp_path_factory):
    """run_local.py on the practice phase with a model that prints, then sleeps past a 6 s limit,
    its outputs kept: (the output folder, what it printed on stdout, on stderr)."""
    from codajudge.programs import run_local

    repo = Path(__file__).resolve().parents[1]
    work = tmp_path_factory.mktemp("timed_out")
    submission = write_submission(work / "sleepy", PRINTS_THEN_SLEEPS)
    output = work / "kept"
    args = [str(repo), str(submission), "--phase", "practice", "--time-limit", "6"]
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = run_local.main(args + ["--output", str(output)])
    assert code == 2
    return output, out.getvalue(), err.getvalue()


def test_the_output_is_kept_when_the_worker_kills_the_prediction_step(tmp_path):
    """The worker kills the whole step (SIGKILL, as Codabench kills the container) before the
    ingestion program's own limit: what the code printed until then is in the output folder."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    submission = write_submission(tmp_path / "sub", PRINTS_THEN_SLEEPS)
    out = tmp_path / "out"
    program = Path(__file__).resolve().parents[1] / "ingestion_program" / "ingest.py"
    args = [sys.executable, str(program), str(phase["input"]), str(out), str(submission)]
    result = run_step(args, tmp_path, 8)
    assert result.timed_out
    assert "[your code] fit started" in result.stdout
    assert (out / OUTPUT).read_text(encoding="utf-8") == "fit started\n"
    assert [p.name for p in out.iterdir()] == [OUTPUT]  # no temporary file left beside it


def test_the_local_runners_time_out_keeps_what_the_code_printed(timed_out_run):
    output, out, err = timed_out_run
    kept = output / "predictions" / OUTPUT
    assert kept.read_text(encoding="utf-8") == "fit started\n"
    assert f"what your code printed is in {kept}\n" in out
    assert "the code submission ran past the time limit of 6 s (while running track '" in err
    assert "': fitting). Make fit() and predict() faster" in err
    assert err.count("ran past the time limit") == 1


FLOODS_THE_KIT_PIPE = (
    "import os, sys\nclass Model:\n    def __init__(self, track):\n"
    "        fd = int(sys.argv[-1])  # the kit's pipe\n"
    "        if track['id'] == 'sts':\n"
    "            for i in range(3000):\n                os.write(fd, b'k' * 100 + b'\\n')\n"
    "    def fit(self, items):\n        pass\n"
    "    def predict(self, items):\n"
    "        return [0.5] * len(items) if len(items) and 'nli' not in str(items[0]) else None\n"
)


def test_progress_lines_are_printed_after_a_flood_of_the_kits_pipe(tmp_path, capfd):
    """Code can write to the kit's pipe too (it runs in the same process); 300 KB of other lines
    there crowd out none of the progress lines that come after them."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    submission = write_submission(tmp_path / "sub", FLOODS_THE_KIT_PIPE)
    main([str(phase["input"]), str(tmp_path / "out"), str(submission)])
    log = capfd.readouterr().out
    assert "k" * 100 + "\n" in log and log.count("k" * 100) < 3000  # the flood is capped
    assert "track sts: fitting on 30 training items\n" in log
    assert "track sts: predicting 14 items\n" in log
    assert "track nli: fitting on 30 training items\n" in log


def test_a_flood_of_progress_lines_keeps_its_start_and_its_end(capsys):
    from codajudge.programs.supervisor import KitLines

    lines = KitLines()
    for i in range(20_000):
        lines.add(f"note: other line {i}\n".encode())
    for i in range(20_000):
        lines.add(f"track t{i}: fitting on 3 training items\n".encode())
    lines.progress.echo_tail()
    log = capsys.readouterr().out
    assert "track t0: fitting on 3 training items\n" in log
    assert log.endswith("track t19999: fitting on 3 training items\n")
    assert re.search(r"\n\.\.\. [\d,]+ lines \([\d,]+ bytes\) cut \.\.\.\n", log)
    assert len(log.encode()) < 400 * 1024


def test_the_interface_hint_never_names_model_py_with_a_capital(tmp_path, capfd):
    """Docs trial: the hint of a model.py without class Model began "Model.py must define" (a
    message's hint begins with a capital), the very name the docs list as a wrong file name."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    submission = write_submission(tmp_path / "sub", "import sys\n")
    assert main([str(phase["input"]), str(tmp_path / "out"), str(submission)]) == 2
    err = capfd.readouterr().err
    assert "Define in model.py a class Model with __init__(self, track)" in err, err
    assert "Model.py" not in err
