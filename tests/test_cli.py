"""The ``codajudge`` command (python -m codajudge in a checkout; the console script after pip install),
its version, the dry run, and the one-line message every entry point gives when numpy, scipy or
PyYAML is missing (never a traceback)."""

import os
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from codajudge import __version__, cli

REPO = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(REPO)}


def codajudge(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "codajudge", *args], capture_output=True, text=True, cwd=cwd, env=ENV
    )


def test_help_lists_every_subcommand(capsys):
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    for command in ("build", "check", "run", "score", "rank"):
        assert f"  {command} " in out


def test_the_readme_lists_the_commands_the_help_lists():
    """The README's ``codajudge --help  # build, check, ...`` line names every command, in the
    help's order, and no other."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    line = next(line for line in readme.splitlines() if line.startswith("codajudge --help"))
    assert line.split("#", 1)[1].strip().split(", ") == list(cli.COMMANDS)


def test_the_ingest_usage_shows_the_submission_or_a_baseline():
    """``codajudge ingest INPUT_DATA OUTPUT SUBMISSION`` takes ``--baseline NAME`` read as if all three
    went with --baseline: the README and the command's doc show the choice, as the parser makes it
    ("give either a submission folder or --baseline, not both")."""
    usage = re.compile(r"codajudge ingest INPUT_DATA OUTPUT SUBMISSION ?(\| ?--baseline NAME)?")
    for text in ((REPO / "README.md").read_text(encoding="utf-8"), cli.__doc__):
        found = usage.findall(text)
        assert found and all(found), found


def test_every_option_a_command_s_help_names_is_documented(capsys):
    """Each option of each command (its ``--help``) is named in the README or docs/."""
    option = re.compile(r"(?<![\w-])--[a-z][\w-]*")
    text = (REPO / "README.md").read_text(encoding="utf-8")
    text += "".join(p.read_text(encoding="utf-8") for p in (REPO / "docs").glob("*.md"))
    documented = set(option.findall(text))
    for command in cli.COMMANDS:
        with pytest.raises(SystemExit):
            cli.main([command, "--help"])
        assert set(option.findall(capsys.readouterr().out)) <= documented, command


def test_the_version_is_defined_once_and_shown_everywhere(tmp_path):
    assert codajudge("--version", cwd=tmp_path).stdout.strip() == f"codajudge {__version__}"
    done = subprocess.run(
        [sys.executable, str(REPO / "build_bundle.py"), "--version"], capture_output=True, text=True
    )
    assert done.stdout.strip() == f"codajudge {__version__}"
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert (
        'version = {attr = "codajudge.__version__"}' in text
        and "\nversion =" not in text.split("[tool")[0]
    )


def test_an_unknown_subcommand_is_one_clear_line_and_a_usage_mistake(capsys):
    """Exit 2, as a sub-command's usage mistake (argparse's code); no command at all is one too."""
    assert cli.main(["buidl"]) == 2
    assert capsys.readouterr().err.startswith("codajudge: unknown command 'buidl'; expected one of")
    assert cli.main([]) == 2 and capsys.readouterr().out.startswith("usage: codajudge COMMAND")


SUBCOMMANDS = list(cli.COMMANDS)
SCRIPTS = {
    "build": "build_bundle.py",
    "check": "codajudge check",
    "run": "run_local.py",
    "score": "score.py",
    "ingest": "ingest.py",
    "rank": "rank_submissions.py",
    "new": "codajudge new",
    "baselines": "codajudge baselines",
    "schema": "codajudge schema",
}


def exit_code(call) -> int:
    try:
        return call()
    except SystemExit as e:
        return e.code


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_a_subcommand_names_itself_in_its_usage_and_error_lines(command, capsys):
    """``codajudge run --help`` says ``usage: codajudge run``, not the script it runs (run_local.py)."""
    assert exit_code(lambda: cli.main([command, "--help"])) == 0
    assert capsys.readouterr().out.startswith(f"usage: codajudge {command} ")
    assert exit_code(lambda: cli.main([command, "--no-such-option"])) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith(f"usage: codajudge {command} ") and f"\ncodajudge {command}: error: " in err
    ), err


@pytest.mark.parametrize("command", sorted(set(SUBCOMMANDS) - {"check"}))
def test_a_script_run_directly_keeps_its_own_name(command, capsys):
    module = importlib.import_module(cli.module_of(command))
    assert exit_code(lambda: module.main(["--help"])) == 0
    assert capsys.readouterr().out.startswith(f"usage: {SCRIPTS[command]} ")


@pytest.mark.parametrize(
    "command, args",
    [
        ("run", ["no-such-bundle", "no-such-submission", "--phase", "practice"]),
        ("rank", ["no-such-submissions", "no-such-reference"]),
        ("score", ["no-such-input", "{out}"]),
        ("ingest", ["no-such-input", "{out}", "no-such-submission"]),
        ("build", ["--edition", "no-such-edition", "--dry-run"]),
    ],
)
def test_a_subcommand_names_itself_when_it_refuses_its_input(
    command, args, tmp_path, capsys, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    code = cli.main([command, *(arg.format(out=tmp_path / "out") for arg in args)])
    err = capsys.readouterr().err
    assert code in (1, 2) and err.startswith(f"codajudge {command}: "), err


def test_the_dry_run_validates_and_writes_nothing(tmp_path, monkeypatch, capsys):
    """On the small test edition (every kind of track), in this process: the dry run is the
    builder's code, which the default edition's build runs too (test_editions)."""
    from small_edition import make_edition

    edition = make_edition(tmp_path / "edition")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    assert cli.main(["build", "--edition", str(edition), "--dry-run"]) == 0
    assert "complete and valid; nothing was written" in capsys.readouterr().out
    assert list(work.iterdir()) == []
    assert sorted(path.name for path in edition.iterdir()) == [
        "data",
        "edition.yaml",
        "logo.png",
        "pages",
    ]


def test_the_dry_run_reports_a_missing_release_once_with_the_folder_searched(tmp_path):
    done = codajudge(
        "build", "--edition", "sts2017", "--data", str(tmp_path), "--dry-run", cwd=tmp_path
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if "release not found" in line]
    # two releases (STS 2017 for the test split, STS Benchmark for train and dev), seven tracks: two lines
    assert len(lines) == 2, done.stderr
    assert all(f"--data folder {tmp_path}" in line for line in lines)
    assert "STS.input.<track>.txt" in lines[0] and "stswiki" in lines[0]
    assert "sts-train.csv" in lines[1] and "Stsbenchmark.tar.gz" in lines[1]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "edition", sorted(path.name for path in (REPO / "editions").iterdir() if path.is_dir())
)
def test_every_shipped_edition_with_an_empty_data_folder_names_its_releases(
    edition, tmp_path, monkeypatch, capsys
):
    """Every shipped edition's releases missing from --data (an empty folder, as the release folder
    itself is), and every importer's: the chaosnli and ocnli importers' split_file took four
    arguments where missing_releases gave two, an internal error (exit 3)."""
    from codajudge.importers import IMPORTERS, missing_releases

    monkeypatch.chdir(tmp_path)
    assert cli.main(["build", "--edition", edition, "--data", str(tmp_path), "--dry-run"]) == 1
    assert "release not found in the --data folder" in capsys.readouterr().err
    for importer in IMPORTERS:
        source = {"importer": importer, "path": "release", "files": {"test": ["a", "b"]}}
        [problem] = missing_releases({"d": source}, tmp_path)
        assert "release not found in the --data folder" in problem.render(), importer


def test_a_build_without_data_says_to_pass_data_not_that_data_was_searched(
    tmp_path, monkeypatch, capsys
):
    """o_nodata: ``build --edition ocnli`` without --data said "release not found in the --data
    folder .../editions/ocnli", an option never passed; it names the edition's folder as --data's
    default and says to pass --data DIR, the folder holding the dataset's path (ocnli/)."""
    monkeypatch.chdir(tmp_path)
    assert cli.main(["build", "--edition", "ocnli", "--dry-run"]) == 1
    [line] = [line for line in capsys.readouterr().err.splitlines() if "release not found" in line]
    folder = REPO / "editions" / "ocnli"
    assert f"release not found in the edition's folder {folder} (the default of --data)" in line
    assert "Pass --data DIR, the folder holding ocnli/; download it from https://" in line
    assert "the --data folder" not in line


def test_a_missing_release_named_for_several_splits_of_one_dataset_names_it_once(tmp_path):
    from codajudge.importers import missing_releases

    source = {"importer": "table", "path": "nope.csv", "splits": {"test": {"format": "csv"}}}
    [problem] = missing_releases({"a": source}, tmp_path)
    assert problem.file == f"{tmp_path / 'nope.csv'} (dataset 'a')"


def test_a_missing_release_lists_the_files_the_edition_reads_there(tmp_path):
    """STS 2017 reads only train and dev of the STS Benchmark (its datasets' fallback): the
    message named sts-test.csv too, though a folder without it passes."""
    from codajudge.importers import missing_releases

    stsb = {"importer": "stsb", "path": "stsbenchmark"}
    fallback = {"importer": "semeval_sts", "path": "sts2017", "track": "track1.ar-ar"}
    fallback["fallback"] = {"train": stsb, "dev": stsb}
    own = {**stsb, "path": "own", "files": {"test": "mine.tsv"}}
    problems = missing_releases({"a": fallback, "b": own}, tmp_path)
    expected = {problem.file.split(" (")[0]: problem.expected for problem in problems}
    assert expected[str(tmp_path / "stsbenchmark")] == (
        "stsbenchmark: the STS Benchmark: sts-train.csv, sts-dev.csv (folder stsbenchmark/ of "
        "Stsbenchmark.tar.gz)"
    )
    assert "sts-train.csv, sts-dev.csv, mine.tsv (" in expected[str(tmp_path / "own")]


def test_a_release_missing_from_data_but_in_the_edition_s_own_folder_says_so(tmp_path):
    """``--data`` naming another folder than the edition's own, which holds the release."""
    from codajudge.importers import missing_releases

    own = tmp_path / "edition"
    (own / "data" / "pairs").mkdir(parents=True)
    [problem] = missing_releases({"a": {"path": "data/pairs"}}, tmp_path / "other", own)
    assert "release not found in the --data folder" in problem.render()
    assert (
        f"It is in the edition's own folder: leave out --data (its default), or pass --data {own}"
        in problem.render()
    )


ENTRY_POINTS = {
    "build_bundle.py": [str(REPO / "build_bundle.py"), "--help"],
    "rank_submissions.py": [str(REPO / "rank_submissions.py"), "--help"],
    "score.py": [str(REPO / "scoring_program" / "score.py"), "in", "out"],
    "ingest.py": [str(REPO / "ingestion_program" / "ingest.py"), "in", "out", "sub"],
    "run_local.py": [str(REPO / "starting_kit" / "run_local.py"), "--help"],
    "codajudge": ["-m", "codajudge", "build", "--help"],
    "run.sh": ["-m", "codajudge", "baselines", "--help"],
}


CASES = [(entry, "scipy") for entry in sorted(ENTRY_POINTS)] + [
    ("score.py", "numpy"),
    ("build_bundle.py", "yaml"),
]


@pytest.mark.parametrize("entry, package", CASES)
def test_a_missing_library_is_one_line_naming_what_to_install(entry, package, tmp_path):
    """The library is blocked as if not installed (sys.modules[name] = None makes its import fail)."""
    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(f"import sys\nsys.modules[{package!r}] = None\n")
    env = {**ENV, "PYTHONPATH": f"{blocker}{os.pathsep}{REPO}"}
    done = subprocess.run(
        [sys.executable, *ENTRY_POINTS[entry]],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    name = {"yaml": "PyYAML"}.get(package, package)
    assert (
        f"missing Python package(s) {name}" in lines[0]
        and "pip install numpy scipy pyyaml" in lines[0]
    )


PROGRAM_STUBS = ("score.py", "ingest.py", "run_local.py")
OLD_PYTHON = Path.home() / ".pyenv" / "versions" / "3.7.16" / "bin" / "python"


def _too_old_python_runs(entry: str) -> list[list[str]]:
    """An entry file run by Python 3.7 (CodaLab's default image), as a real 3.7 where the machine
    has one and always with a faked sys.version_info: what the program sees first."""
    script = ENTRY_POINTS[entry][0]
    fake = (
        "import runpy, sys; sys.version_info = (3, 7, 16, 'final', 0); "
        f"sys.argv = [{script!r}, 'in', 'out', 'sub']; runpy.run_path(sys.argv[0], run_name='__main__')"
    )
    runs = [[sys.executable, "-c", fake]]
    if OLD_PYTHON.is_file():
        runs.append([str(OLD_PYTHON), script, "in", "out", "sub"])
    return runs


@pytest.mark.parametrize("entry", PROGRAM_STUBS)
def test_a_python_older_than_the_kits_minimum_is_one_line_naming_the_image(entry, tmp_path):
    """Python 3.7 stopped in a SyntaxError traceback once numpy, scipy and yaml imported: the entry
    file refuses first, naming the interpreter, pyproject's minimum and the fix (exit 1)."""
    minimum = re.search(r'requires-python = ">=([\d.]+)"', (REPO / "pyproject.toml").read_text())[1]
    for command in _too_old_python_runs(entry):
        done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=ENV)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 1 and len(lines) == 1, done.stderr
        assert f"Python {minimum} or newer needed" in lines[0] and "found Python 3.7.16" in lines[0]
        fix = "python3.12" if entry == "run_local.py" else "codalab/codalab-legacy:py312"
        assert fix in lines[0]


def test_the_missing_library_line_names_run_sh_only_where_it_is(tmp_path, monkeypatch, capsys):
    """A starting kit, a bundle's program or an installed kit has no run.sh: the line names it
    (by its path) only beside the running package, in the organisers' repository."""
    from codajudge import deps

    monkeypatch.setattr(deps.importlib.util, "find_spec", lambda name: None)
    for root, shown in ((tmp_path, False), (REPO, True)):
        monkeypatch.setattr(deps, "REPO_ROOT", str(root))
        with pytest.raises(SystemExit):
            deps.require_runtime("run_local.py")
        line = capsys.readouterr().err
        assert "pip install numpy scipy pyyaml" in line
        assert (f"or run 'bash {Path(root) / 'run.sh'}', which sets up .venv" in line) is shown
        assert ("run.sh" in line) is shown


@pytest.mark.parametrize(
    "args", [["--help"], ["--version"]] + [[c, "--help"] for c in cli.COMMANDS]
)
def test_a_closed_stdout_ends_any_command_quietly(args, tmp_path):
    """``codajudge --help | head -1`` ended in a BrokenPipeError traceback: here the pipe's reader
    is gone before the command starts, so that every write fails."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "codajudge", *args],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
            env=ENV,
        )
    finally:
        os.close(write)
    # 141 (stdout_closed), or 0 where argparse swallowed the failed write of a long help
    assert done.stderr == "" and done.returncode in (0, 141)


def test_a_built_trees_folder_in_the_working_folder_does_not_hide_the_edition(
    tmp_path, monkeypatch
):
    """``build_bundle.py --out .`` leaves the tree ``default/`` there; a second ``--edition default`` (the
    legacy build, say) read that folder as the config and failed: "default/edition.yaml: cannot read"."""
    from codajudge.programs.build import REPO_ROOT, edition_path

    (tmp_path / "default").mkdir()
    monkeypatch.chdir(tmp_path)
    assert edition_path("default") == REPO_ROOT / "editions" / "default"
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "edition.yaml").write_text("name: mine\n", encoding="utf-8")
    assert edition_path("mine") == Path("mine")


def test_run_local_help_says_the_phases_are_the_bundles_and_names_local(capsys):
    """``run_local.py --help``: the phases come from the bundle or kit given; a starting kit's is
    ``local``; no example scores the practice phase, which most kits cannot score."""
    from codajudge.programs import run_local

    assert exit_code(lambda: run_local.main(["--help"])) == 0
    text = " ".join(capsys.readouterr().out.split())
    phases = "a phase of BUNDLE (its competition.yaml, or run_local.yaml in a CodaLab v1.5 kit)"
    assert phases in text and "local" in text
    assert "``" not in text  # trial 60, item 4: plain text, not the docstring's reST marks
    from codajudge.programs import ingest

    assert exit_code(lambda: ingest.main(["--help"])) == 0
    assert "``" not in capsys.readouterr().out
    assert "PHASE is one of BUNDLE's phases" in text
    assert "--phase practice" not in text and "bundle of the practice phase" not in text
    script = (REPO / "starting_kit" / "run_local.py").read_text(encoding="utf-8")
    assert "--phase practice" not in script and "--phase local" in script
