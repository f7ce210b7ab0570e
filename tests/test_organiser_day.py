"""The organiser's day (issue 40): every problem of an edition in one run of ``codajudge check
EDITION --data DIR`` and of ``--dry-run``, each naming its file and line or item, and the dataset's
key."""

import csv
import shutil
from pathlib import Path

import pytest
import yaml

from codajudge.cli import main as cli
from codajudge.errors import MAX_PROBLEMS_PER_FILE, BuildProblems, Problem

REPO = Path(__file__).resolve().parents[1]
WORDS = "the cat dog runs fast slow red blue house car tree sky big small man woman".split()


def _rows(count: int, value):
    return [
        {
            "id": f"p{i:03d}",
            "sentence1": " ".join(WORDS[i % 7 : i % 7 + 5]) + f" {i}",
            "sentence2": " ".join(WORDS[i % 5 : i % 5 + 6]) + f" {i}",
            "value": value(i),
        }
        for i in range(count)
    ]


def _write(path: Path, rows) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def _dataset(path: str, gold: str) -> dict:
    return {
        "importer": "table",
        "path": path,
        "columns": {"id": "id", "texts": ["sentence1", "sentence2"], gold: "value"},
        "lang": "en",
        "split": {"train": 0.5, "dev": 0.25, "test": 0.25, "seed": 1},
    }


def planted_edition(folder: Path) -> Path:
    """An edition with five planted problems: a misspelt key in the config, a missing data file,
    and in two other files a duplicate id, a label outside the set and a score outside ``range``."""
    (folder / "pages").mkdir(parents=True)
    (folder / "data").mkdir()
    shutil.copyfile(REPO / "editions" / "default" / "logo.png", folder / "logo.png")
    for page in ("overview", "terms"):
        (folder / "pages" / f"{page}.md").write_text(f"# {page}\n\nThe task.\n")
    scores = _rows(40, lambda i: f"{i % 5}.5")
    scores[17]["value"] = "7.5"  # outside range [0, 5]
    _write(folder / "data" / "scores.csv", scores)
    grades = _rows(40, lambda i: str(1 + i % 5))
    grades[9]["id"] = grades[3]["id"]  # a duplicate id, on line 11
    grades[12]["value"] = "6"  # outside the label set
    _write(folder / "data" / "grades.csv", grades)
    phases = [
        {"id": "practice", "start": "2028-01-10 00:00:00", "end": "2028-02-27 23:59:59"},
        {"id": "evaluation", "start": "2028-03-01 00:00:00", "max_submission_per_day": 2},
    ]
    config = {
        "name": "planted",
        "title": "Planted problems",
        "description": "Five problems planted for the check.",
        "logo": "logo.png",
        "terms": "pages/terms.md",
        "pages": [{"title": "Overview", "file": "pages/overview.md"}],
        "phases": phases,
        "datasets": {
            "scores": _dataset("data/scores.csv", "score"),
            "grades": _dataset("data/grades.csv", "label"),
            "extra": _dataset("data/extra.csv", "score"),
        },
        "tracks": [
            {"id": "sim", "title": "Sim", "kind": "similarity", "dataset": "scores"},
            {
                "id": "grade",
                "title": "Grade",
                "kind": "classification",
                "dataset": "grades",
                "labels": ["1", "2", "3", "4", "5"],
            },
            {"id": "more", "title": "More", "kind": "similarity", "dataset": "extra"},
        ],
        "leaderboard": {"title": "Results", "key": "main"},
        "baselines": ["random"],
    }
    (folder / "edition.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    return folder


def _planted_lines(text: str, folder: Path):
    return {
        "misspelt key": [
            line
            for line in text.splitlines()
            if line.startswith(f"{folder}/edition.yaml: phases[1]")
            and "'max_submission_per_day'" in line
        ],
        "missing file": [
            line
            for line in text.splitlines()
            if line.startswith(f"{folder}/data/extra.csv (dataset 'extra')") and "not found" in line
        ],
        "duplicate id": [
            line
            for line in text.splitlines()
            if line.startswith(f"{folder}/data/grades.csv (dataset 'grades'), line 11")
            and "duplicate id" in line
        ],
        "label": [
            line
            for line in text.splitlines()
            if line.startswith(f"{folder}/data/grades.csv (dataset 'grades'")
            and "item 'p012'" in line
            and "label set" in line
        ],
        "range": [
            line
            for line in text.splitlines()
            if line.startswith(f"{folder}/data/scores.csv (dataset 'scores'")
            and "'p017' (7.5)" in line
        ],
    }


@pytest.mark.parametrize(
    "command",
    [
        ["check", "{f}", "--data", "{f}"],
        ["build", "--edition", "{f}", "--data", "{f}", "--dry-run"],
    ],
    ids=["check", "dry-run"],
)
def test_five_planted_problems_are_reported_in_one_run_each_with_its_file(
    command, tmp_path, capsys
):
    folder = planted_edition(tmp_path / "planted")
    code = cli([part.format(f=folder) for part in command])
    err = capsys.readouterr().err
    assert code == 1
    found = _planted_lines(err, folder)
    assert {name: len(lines) for name, lines in found.items()} == dict.fromkeys(found, 1), err
    assert "not checked: " in err and "Traceback" not in err


def test_check_without_data_checks_the_config_alone_and_says_so(tmp_path, capsys):
    folder = planted_edition(tmp_path / "planted")
    config = yaml.safe_load((folder / "edition.yaml").read_text())
    del config["phases"][1]["max_submission_per_day"]
    (folder / "edition.yaml").write_text(yaml.safe_dump(config))
    assert cli(["check", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "its data was not checked (give --data DIR" in out


def test_check_help_says_which_folder_is_an_edition_and_which_a_bundle(capsys):
    with pytest.raises(SystemExit):
        cli(["check", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "A folder holding competition.yaml (or its zip) is a bundle" in out.replace("``", "")
    assert "A folder holding edition.yaml (or that file) is an edition" in out.replace("``", "")
    assert "--data DIR" in out


@pytest.mark.parametrize(
    "edit, named, place",
    [
        # the importer's own rule across options, located at the dataset's key and release
        (("ven", "hard_gold", "majority"), "hard_gold", " (path lewidi2025): "),
        # a misspelt dataset: the edition schema's choice, with the name meant
        (("par", "dataset", "Paraphrse"), "Did you mean 'Paraphrase'?", ": unknown LeWiDi dataset"),
    ],
)
def test_an_importer_option_problem_names_the_dataset_key_and_its_file(
    edit, named, place, tmp_path, capsys
):
    key, option, value = edit
    folder = tmp_path / "lw"
    shutil.copytree(REPO / "editions" / "lewidi2025", folder)
    config = yaml.safe_load((folder / "edition.yaml").read_text())
    config["datasets"][key][option] = value
    (folder / "edition.yaml").write_text(yaml.safe_dump(config))
    data = REPO.parent / "shared" / "data"
    if not (data / "lewidi2025").is_dir():
        pytest.skip("the LeWiDi 2025 release is not on this machine")
    assert cli(["check", str(folder), "--data", str(data)]) == 1
    err = capsys.readouterr().err
    (line,) = [line for line in err.splitlines() if named in line]
    assert line.startswith(f"{folder}/edition.yaml: datasets '{key}'{place}")


def test_a_problem_that_makes_the_data_unreadable_stops_and_says_what_was_not_checked(
    tmp_path, capsys
):
    folder = planted_edition(tmp_path / "planted")
    config = yaml.safe_load((folder / "edition.yaml").read_text())
    config["tracks"][0]["dataset"] = "nowhere"
    (folder / "edition.yaml").write_text(yaml.safe_dump(config))
    assert cli(["check", str(folder), "--data", str(folder)]) == 1
    err = capsys.readouterr().err
    assert "its dataset is not declared" in err and "'max_submission_per_day'" in err
    assert "not checked: the data" in err and "grades.csv" not in err


def test_problems_are_grouped_by_file_and_capped_per_file_with_the_count_of_the_rest():
    many = [Problem("a.csv (dataset 'a', dev split)", f"problem {i}") for i in range(25)]
    other = [Problem("edition.yaml: phases[0]", "late"), Problem("b.csv", "bad")]
    lines = BuildProblems([many[0], *other, *many[1:]], unchecked="the leaks").render().splitlines()
    assert lines[: MAX_PROBLEMS_PER_FILE + 1][-1] == "... and 5 more problems in a.csv not shown"
    assert lines[MAX_PROBLEMS_PER_FILE + 1 :] == [
        "edition.yaml: phases[0]: late",
        "b.csv: bad",
        "not checked: the leaks",
    ]


# --- plain messages ---------------------------------------------------------------------------------


def _refused(folder: Path, old: str, new: str, capsys) -> str:
    """``codajudge check`` of the planted edition with ``old`` replaced by ``new`` in its config."""
    config = folder / "edition.yaml"
    text = config.read_text().replace("max_submission_per_day", "max_submissions_per_day")
    assert old in text
    config.write_text(text.replace(old, new, 1))
    assert cli(["check", str(folder)]) == 1
    return capsys.readouterr().err


def test_a_yaml_syntax_error_names_its_line_and_a_plain_fix(tmp_path, capsys):
    folder = planted_edition(tmp_path / "planted")
    err = _refused(
        folder, "name: planted\n", "name: planted\nbaselines: [random, cosine_bow\n", capsys
    )
    (line,) = [line for line in err.splitlines() if "not valid YAML" in line]
    assert line.startswith(f"{folder}/edition.yaml, line ")
    assert line.endswith("Close the list opened on line 2 with ]")
    assert "<unicode string>" not in err and "column" not in err


def test_a_duration_given_with_a_unit_says_the_key_takes_seconds(tmp_path, capsys):
    folder = planted_edition(tmp_path / "planted")
    old = "  end: '2028-02-27 23:59:59'\n"
    err = _refused(folder, old, old + "  execution_time_limit: 10m\n", capsys)
    assert "found '10m'. The value is a number of seconds, without a unit: 10m is 600" in err
    assert "without quotes" not in err


def test_a_missing_scale_says_missing_and_what_to_write(tmp_path, capsys):
    folder = planted_edition(tmp_path / "planted")
    old = "- id: sim\n  title: Sim\n  kind: similarity\n"
    err = _refused(folder, old, "- id: sim\n  title: Sim\n  kind: soft_label\n", capsys)
    assert "'scale' is missing: kind soft_label needs one; expected " in err
    assert "Add scale: " in err and "found None" not in err


def test_a_list_of_unquoted_labels_is_one_line_with_the_list_quoted(tmp_path, capsys):
    folder = planted_edition(tmp_path / "planted")
    err = _refused(
        folder,
        "  - '1'\n  - '2'\n  - '3'\n  - '4'\n  - '5'\n",
        "  - 1\n  - 2\n  - 3\n  - 4\n  - 5\n",
        capsys,
    )
    (line,) = [line for line in err.splitlines() if "'labels'" in line]
    assert "'labels' must be strings: 5 entries are not quoted" in line
    assert 'Write labels: ["1", "2", "3", "4", "5"]' in line


@pytest.mark.parametrize("command", ["baselines", "build", "new", "schema", "run", "check"])
def test_every_help_text_states_its_whole_first_paragraph(command, capsys):
    import importlib

    from codajudge.cli import module_of

    with pytest.raises(SystemExit):
        cli([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())
    doc = importlib.import_module(module_of(command)).__doc__
    first = " ".join(doc.strip().split("\n\n")[0].split()).replace("``", "")  # plain text
    assert first in out and first.endswith(".") and "``" not in out


# --- the README's commands ----------------------------------------------------------------------------


def test_the_organiser_sections_run_the_kit_as_the_quick_starts_environment_provides_it():
    """The quick start's environment has no ``codajudge`` script (only ``pip install .`` makes one):
    the organiser's sections, up to the one on installing it, write ``python -m codajudge``."""
    import re

    from codajudge.cli import COMMANDS

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## For organisers", 1)[1].split("## Installing the `codajudge`", 1)[0]
    pattern = rf"(?:^|`)codajudge (?:{'|'.join(COMMANDS)})\b"
    bare = [m.group(0) for m in re.finditer(pattern, section, flags=re.MULTILINE)]
    assert bare == ["`codajudge rank"], bare  # the installed form of the ranking's reproduce line
    assert "python -m codajudge new myedition" in section
    assert "python -m codajudge check myedition --data myedition" in section


# --- ranking code submissions -------------------------------------------------------------------------


def test_rank_explains_that_a_code_submission_is_ranked_by_its_prediction_output(tmp_path, capsys):
    import zipfile

    submissions = tmp_path / "final"
    submissions.mkdir()
    with zipfile.ZipFile(submissions / "team-a.zip", "w") as archive:
        archive.writestr("model.py", "class Model:\n    pass\n")
    reference = REPO / "reference_data" / "evaluation"
    code = cli(["rank", str(submissions), str(reference), "--out", str(tmp_path / "out")])
    err = " ".join(capsys.readouterr().err.split())
    assert code == 2
    assert "team-a: NOT SCORED: a code submission (it holds model.py): the ranking scores" in err
    assert "Download each run's prediction output from Codabench" in err
    assert "no prediction file for any track" not in err


def test_new_prints_its_next_commands_as_the_kit_was_started(tmp_path):
    """Run as ``python -m codajudge`` (the quick start's environment), it says that, not a
    ``codajudge`` script that environment lacks."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "codajudge", "new", "mine"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert "\n  python -m codajudge check mine --data mine\n" in done.stdout
    assert "\n  python -m codajudge build --edition mine --data mine --out dist" in done.stdout
    header = (tmp_path / "mine" / "edition.yaml").read_text()
    assert "# Build: python -m codajudge build --edition mine --data mine --out dist" in header
    assert "# Baselines: python -m codajudge baselines mine --data mine" in header


@pytest.mark.parametrize(
    "started, command, printed",
    [
        ("/x/codajudge/__main__.py", "build", "python -m codajudge build"),
        ("rank_submissions.py", "rank", "python rank_submissions.py"),
        ("../kit/build_bundle.py", "check", "python ../kit/build_bundle.py --check"),
        ("build_bundle.py", "rank", "python -m codajudge rank"),
        ("/usr/local/bin/codajudge", "build", "codajudge build"),
        ("/x/pytest/__main__.py", "build", "codajudge build"),
    ],
)
def test_a_printed_command_names_the_form_that_ran(monkeypatch, started, command, printed):
    """The quick start's environment has no ``codajudge`` script: every command the kit prints
    (a ranking's reproduce line, check's build hint, ``new``'s) is in the form that ran."""
    from codajudge.assets import kit_command

    monkeypatch.setattr("sys.argv", [started])
    assert kit_command(command) == printed


def test_check_with_data_of_a_sound_edition_writes_nothing_and_says_how_to_build(tmp_path, capsys):
    folder = planted_edition(tmp_path / "planted")
    config = yaml.safe_load((folder / "edition.yaml").read_text())
    config["phases"][1]["max_submissions_per_day"] = config["phases"][1].pop(
        "max_submission_per_day"
    )
    del config["datasets"]["extra"], config["datasets"]["grades"]
    config["tracks"] = config["tracks"][:1]
    (folder / "edition.yaml").write_text(yaml.safe_dump(config))
    scores = (folder / "data" / "scores.csv").read_text().replace(",7.5\n", ",2.5\n")
    (folder / "data" / "scores.csv").write_text(scores)
    before = sorted(tmp_path.rglob("*"))
    assert cli(["check", str(folder), "--data", str(folder)]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    build = f"(build it: codajudge build --edition {folder} --data {folder} --out dist)"
    assert "is complete and valid; nothing was written " + build in out
    assert sorted(tmp_path.rglob("*")) == before
