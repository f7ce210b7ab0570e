"""``codajudge rank --run-code`` (issue 40): each code submission is run through its phase's
prediction step in the bubblewrap sandbox and its predictions ranked; without a sandbox nothing
runs and the organiser is told how to install one."""

import json
import os
import shutil
import sys
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from codajudge.cli import main as cli
from codajudge.runner import sandbox
from codajudge.runner.local import phase_task
from codajudge.runner.local import sandbox_refusal
from codajudge.spec import read_spec

REPO = Path(__file__).resolve().parents[1]
REFERENCE = REPO / "reference_data" / "evaluation"
SANDBOX_REASON = sandbox_refusal(phase_task(REPO, "evaluation"))
needs_bwrap = pytest.mark.skipif(
    SANDBOX_REASON is not None, reason=f"no working sandbox here: {SANDBOX_REASON}"
)

#: A code submission that predicts as the most-frequent baseline, and fails at once where it can
#: see the bundle's reference data (which the sandbox leaves out).
BLIND_BASELINE = """
import os
from codajudge.baselines import baseline_class

if os.path.exists({reference!r}):
    raise RuntimeError("the reference data is visible")
Model = baseline_class("most_frequent")
"""
#: A code submission that leaves a mark on the organiser's disk when it is imported.
MARKING = "open({marker!r}, 'w').write('ran')\nModel = None\n"


def write_zip(path: Path, files: dict) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return path


def rank(submissions: Path, out: Path, *options: str) -> int:
    args = ["rank", str(submissions), str(REFERENCE), "--out", str(out), "--resamples", "50"]
    return cli(args + ["--jobs", "1", *options])


@needs_bwrap
def test_code_submissions_run_in_the_sandbox_and_are_ranked_with_the_others(tmp_path, capsys):
    submissions = tmp_path / "final"
    submissions.mkdir()
    write_zip(
        submissions / "blind.zip", {"model.py": BLIND_BASELINE.format(reference=str(REFERENCE))}
    )
    write_zip(submissions / "crash.zip", {"model.py": "raise RuntimeError('boom')\n"})
    folder = submissions / "random-folder"
    folder.mkdir()
    (folder / "model.py").write_text(
        "from codajudge.baselines import baseline_class\nModel = baseline_class('random')\n"
    )
    code = rank(submissions, tmp_path / "out", "--run-code")
    err = " ".join(capsys.readouterr().err.split())
    assert code == 0, err
    assert "blind: running its code in the sandbox (phase Evaluation, 600 s)" in err
    assert "blind: prediction step ok" in err
    assert "crash: NOT SCORED: ingestion_status.json: the prediction step failed: model.py" in err
    assert "RuntimeError: boom" in err
    ranking = (tmp_path / "out" / "ranking.md").read_text(encoding="utf-8")
    assert "| blind |" in ranking.replace("\\_", "_") and "| random-folder |" in ranking
    assert "--run-code" in ranking.split("\n\n")[1]  # the command that reproduces it
    with open(tmp_path / "out" / "ranking.csv", encoding="utf-8") as table:
        assert "crash" in table.read()


@needs_bwrap
def test_the_notes_of_a_prediction_output_the_ranker_made_are_shown(tmp_path, capsys):
    """Under --run-code the ingestion status is the kit's own (the ranker ran the step): its notes
    are listed, whether the outputs are scored in this process or in a pool of workers."""
    submissions = tmp_path / "final"
    for name in ("coder-a", "coder-b"):
        (submissions / name).mkdir(parents=True)
        (submissions / name / "model.py").write_text(
            "from codajudge.baselines import baseline_class\nModel = baseline_class('random')\n"
        )
        (submissions / name / "en_en.tsv").write_text("id\tscore\n")
    for jobs in ("1", "2"):
        assert rank(submissions, tmp_path / jobs, "--run-code", "--jobs", jobs) == 0
        err = " ".join(capsys.readouterr().err.split())
        note = "so it was run as a code submission and its prediction file 'en_en.tsv' was ignored"
        assert err.count(note) == 2, err
        assert note in (tmp_path / jobs / "ranking.csv").read_text(encoding="utf-8")


def test_without_bwrap_nothing_runs_and_the_message_says_how_to_install_it(
    tmp_path, capsys, monkeypatch
):
    submissions = tmp_path / "final"
    submissions.mkdir()
    marker = tmp_path / "ran"
    write_zip(submissions / "team-a.zip", {"model.py": MARKING.format(marker=str(marker))})
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs-here"))
    code = rank(submissions, tmp_path / "out", "--run-code")
    err = " ".join(capsys.readouterr().err.split())
    assert code == 1
    assert "code submissions are run only in the sandbox" in err
    assert "bubblewrap (bwrap) is not installed" in err
    assert "apt-get install bubblewrap" in err
    assert not marker.exists() and not (tmp_path / "out").exists()


def test_a_sandbox_that_cannot_start_refuses_too(tmp_path, capsys, monkeypatch):
    submissions = tmp_path / "final"
    submissions.mkdir()
    marker = tmp_path / "ran"
    write_zip(submissions / "team-a.zip", {"model.py": MARKING.format(marker=str(marker))})
    broken = tmp_path / "bwrap"
    broken.write_text(
        "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n"
    )
    broken.chmod(0o755)
    monkeypatch.setenv(sandbox.BWRAP_ENV, str(broken))
    assert rank(submissions, tmp_path / "out", "--run-code") == 1
    err = " ".join(capsys.readouterr().err.split())
    assert "bwrap does not work on this machine: bwrap: setting up uid map" in err
    assert "apt-get install bubblewrap" in err and not marker.exists()


def test_run_code_needs_the_reference_folder_inside_its_bundle(tmp_path, capsys):
    submissions = tmp_path / "final"
    submissions.mkdir()
    write_zip(submissions / "team-a.zip", {"model.py": "Model = None\n"})
    reference = shutil.copytree(REFERENCE, tmp_path / "alone" / "evaluation")
    args = ["rank", str(submissions), str(reference), "--out", str(tmp_path / "out")]
    assert cli(args + ["--run-code"]) == 1
    err = " ".join(capsys.readouterr().err.split())
    assert f"{reference}: --run-code needs the bundle this reference folder belongs to" in err
    assert "BUNDLE/reference_data/PHASE" in err


def test_a_failed_prediction_output_is_told_by_its_failure_not_as_code_to_run(tmp_path, capsys):
    """The platform's worker copies a code submission's files into its prediction output: one
    holding model.py beside its ingestion status is a prediction output, ranked by its status."""
    submissions = tmp_path / "final"
    output = submissions / "team-a"
    output.mkdir(parents=True)
    (output / "model.py").write_text("Model = None\n")
    status = {"status": "failed", "message": "model.py: out of memory", "tracks": []}
    (output / "ingestion_status.json").write_text(json.dumps(status))
    assert rank(submissions, tmp_path / "out") == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "team-a: NOT SCORED: ingestion_status.json: the prediction step failed" in err
    assert "a code submission (it holds model.py)" not in err


def test_the_sandbox_starts_python_through_a_linked_environment_at_its_real_place(
    tmp_path, monkeypatch
):
    """A project's ``.venv`` that links to an environment elsewhere: the sandbox mounts the real
    folder, so the command names the interpreter there (its own name kept, for ``pyvenv.cfg``)."""
    real = tmp_path / "env" / "bin"
    real.mkdir(parents=True)
    (real / "python").symlink_to(sys.executable)
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / ".venv").symlink_to(tmp_path / "env")
    monkeypatch.setattr(sys, "executable", str(tmp_path / "project" / ".venv" / "bin" / "python"))
    args = sandbox.command("bwrap", [sys.executable, "-c", "pass"], None)
    python = os.path.realpath(real) + "/python"
    assert args[-3:] == [python, "-c", "pass"]
    assert args[args.index("--") + 1] == python  # the limiter, which then starts the command


def test_a_run_stopped_at_the_phase_limit_is_told_so(tmp_path, monkeypatch):
    """The ingestion program stops code before the phase's limit and says so; a step killed at the
    phase's limit itself is reported with that limit, and a status file its code may have left
    (not the kit's, which the killed step never wrote) is not scored."""
    from codajudge.programs import rank
    from codajudge.runner.local import StepResult

    output = tmp_path / "res"
    output.mkdir()
    forged = {"status": "ok", "message": "forged", "tracks": ["en_en"]}
    (output / "ingestion_status.json").write_text(json.dumps(forged))
    stopped = StepResult(-9, "", "", True, 600.2, 600)
    monkeypatch.setattr(rank, "predict", lambda task, path, work, limit: (output, stopped, None))
    task = SimpleNamespace(time_limit=600)
    assert rank.run_code(task, tmp_path / "a.zip", tmp_path / "w") == (
        None,
        "its code ran past the phase's time limit of 600 s",
    )


def test_a_run_that_ends_without_a_status_under_set_limits_names_them(tmp_path, monkeypatch):
    """A limit the organiser set too low leaves the step no room to start (numpy's import): the
    run not ranked names the limits and their variables, with the value as the sandbox reads it."""
    from codajudge.programs import rank
    from codajudge.runner.local import StepResult

    ended = StepResult(1, "", "OpenBLAS error: Memory allocation still failed", False, 0.4, 600)
    monkeypatch.setattr(rank, "predict", lambda task, path, work, limit: (tmp_path, ended, None))
    task = SimpleNamespace(time_limit=600)
    monkeypatch.delenv("CODAJUDGE_LIMIT_MEMORY_MIB", raising=False)
    _, said = rank.run_code(task, tmp_path / "a.zip", tmp_path / "w")
    assert "CODAJUDGE_LIMIT" not in said
    monkeypatch.setenv("CODAJUDGE_LIMIT_MEMORY_MIB", " 7 ")
    _, said = rank.run_code(task, tmp_path / "a.zip", tmp_path / "w")
    assert "without an ingestion status" in said
    assert "memory: 7 MiB (CODAJUDGE_LIMIT_MEMORY_MIB)" in said


LAYOUTS = {
    "at the root": ["model.py"],
    "one folder down": ["team/model.py", "team/README.md"],
    "two folders down": ["team/submission/model.py"],
    "in __MACOSX only": ["__MACOSX/model.py", "en_en.tsv"],
    "in a hidden folder only": [".cache/model.py", "en_en.tsv"],
    "none": ["en_en.tsv"],
    "beside a track file": ["model.py", "en_en.tsv"],
    "above a track file": ["model.py", "preds/en_en.tsv"],
    "below a track file": ["en_en.tsv", "src/model.py", "README.md"],
}
CODE_LAYOUTS = ("at the root", "one folder down", "two folders down", "beside a track file")


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_rank_takes_as_code_what_the_ingestion_program_runs_as_code(tmp_path, layout):
    """One rule for both: ``holds_code`` (zip and folder) is true exactly where the ingestion
    program finds a model.py to run in the extracted submission."""
    from codajudge.programs.ingest import find_model_folder
    from codajudge.programs.rank import holds_code

    folder = tmp_path / "submission"
    for name in LAYOUTS[layout]:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("Model = None\n")
    tracks = read_spec(REFERENCE).tracks
    runs = find_model_folder(folder, tracks, []) is not None
    zipped = write_zip(
        tmp_path / "submission.zip", dict.fromkeys(LAYOUTS[layout], "Model = None\n")
    )
    assert holds_code(folder, tracks) == holds_code(zipped, tracks) == runs
    assert runs == (layout in CODE_LAYOUTS + ("above a track file",))


def test_a_linked_model_py_is_code_whose_link_the_ingestion_program_names(tmp_path, capsys):
    """A folder whose model.py is a symbolic link is code, as the ingestion program finds it (and
    refuses it, naming the link), not a result submission refused for holding no track file."""
    from codajudge.errors import SubmissionError
    from codajudge.programs.ingest import find_model_folder
    from codajudge.programs.rank import holds_code

    submissions = tmp_path / "final"
    (submissions / "linked").mkdir(parents=True)
    (tmp_path / "model.py").write_text("Model = None\n")
    (submissions / "linked" / "model.py").symlink_to(tmp_path / "model.py")
    tracks = read_spec(REFERENCE).tracks
    assert holds_code(submissions / "linked", tracks)
    with pytest.raises(SubmissionError, match="model.py is a symbolic link"):
        find_model_folder(submissions / "linked", tracks, [])
    assert rank(submissions, tmp_path / "out") == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "linked: NOT SCORED: a code submission (it holds model.py)" in err


def test_run_code_runs_a_code_submission_whatever_status_file_it_holds(tmp_path, monkeypatch):
    """Under --run-code the input is participants' submissions: a zip holding model.py and a
    status file of its own (anyone can write one) is run, with a note, not ranked on its files."""
    from codajudge.programs import rank
    from codajudge.spec import read_spec

    forged = {"status": "ok", "message": "ok", "tracks": [], "notes": [], "names": {}}
    smug = write_zip(
        tmp_path / "smug.zip",
        {"model.py": "Model = None\n", "ingestion_status.json": json.dumps(forged)},
    )
    plain = write_zip(tmp_path / "plain.zip", {"en_en.tsv": "id\tscore\n"})
    output = tmp_path / "output"
    ran = []

    def run_code(task, path, work):
        ran.append(path)
        return output, "ok"

    monkeypatch.setattr(rank, "require_sandbox", lambda task: None)
    monkeypatch.setattr(rank, "run_code", run_code)
    logged = []
    monkeypatch.setattr(rank, "log", logged.append)
    submissions = [("plain", plain), ("smug", smug)]
    kept, failures = rank.run_code_submissions(
        submissions, REFERENCE, read_spec(REFERENCE), tmp_path
    )
    assert ran == [smug] and kept == [("plain", plain), ("smug", output)] and failures == []
    assert any("smug: note: it holds an ingestion_status.json" in line for line in logged)


def test_a_repository_zipped_with_its_predictions_at_the_top_is_ranked_as_results(tmp_path, capsys):
    """Trial 62 (regress-e), item 1: rank scores a zip (and a folder) of a track file at the top
    and src/model.py deeper as results, with the note naming model.py, not as code to run."""
    ids = [json.loads(line)["id"] for line in (REFERENCE / "sts_en.jsonl").open(encoding="utf-8")]
    files = {"en_en.tsv": "".join(f"{i}\t{n % 5}.0\n" for n, i in enumerate(ids))}
    files.update({"README.md": "# us\n", "src/model.py": "Model = None\n"})
    submissions = tmp_path / "final"
    submissions.mkdir()
    write_zip(submissions / "repo.zip", files)
    for relative, text in files.items():
        (submissions / "folder" / relative).parent.mkdir(parents=True, exist_ok=True)
        (submissions / "folder" / relative).write_text(text, encoding="utf-8")
    assert rank(submissions, tmp_path / "out") == 0
    err = " ".join(capsys.readouterr().err.split())
    assert "NOT SCORED" not in err and "(it holds model.py)" not in err
    note = "'src/model.py' not run: the submission's track files are read as results, as 1 of them"
    assert err.count(note) == 2, err
