"""``codajudge check`` (and ``build_bundle.py --check``) on a corpus of broken bundles: each defect is
found with its own message, a clean bundle (folder and zip) has none, and the command line prints
one line per problem and exits 1. Built from a small generated edition, so ../shared is not needed."""

import hashlib
import json
import os
import shutil
from contextlib import contextmanager
from functools import partial
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from codajudge.bundle.check import check_bundle, v2
from codajudge.legacy import check as legacy_check
from codajudge.programs.check import main as check_main
from codajudge.bundle.zipdet import tree_files, write_zip

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def small(bundles):
    summaries = bundles.small(), bundles.small(legacy=True)
    with unchanged(*(summary.tree for summary in summaries)):
        yield summaries


@contextmanager
def unchanged(*trees: Path):
    """Fails when the shared bundles at ``trees`` changed: a broken copy's files are hard links to
    theirs (``linked_copy``), so a mutation that wrote to a file in place without ``own`` would
    change them for every later test."""
    before = [tree_digest(tree) for tree in trees]
    yield
    assert [tree_digest(tree) for tree in trees] == before, "a case changed a shared bundle"


def tree_digest(tree: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(tree.rglob("*")):
        if path.is_file():
            digest.update(f"{path.relative_to(tree)}\0".encode() + path.read_bytes())
    return digest.hexdigest()


def linked_copy(tree: Path, target: Path) -> Path:
    """``tree`` at ``target``, its files hard links to ``tree``'s: a full copy per case was about
    half of a case's CPU time. A mutation makes a file its own (``own``) before changing it."""
    shutil.copytree(tree, target, copy_function=os.link)
    return target


def own(path: Path) -> Path:
    """``path``, a file of a linked copy, replaced by a copy of its bytes, so that changing it in
    place leaves the shared bundle as it is; a path that is no link is returned as it is."""
    if path.exists() and path.stat().st_nlink > 1:
        data = path.read_bytes()
        path.unlink()
        path.write_bytes(data)
    return path


# --- mutations ---------------------------------------------------------------------------------------


def edit_yaml(change):
    def mutate(tree: Path):
        path = tree / "competition.yaml"
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        change(doc)
        own(path).write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")

    return mutate


def edit_text(old: str, new: str, file: str = "competition.yaml"):
    def mutate(tree: Path):
        path = tree / file
        text = path.read_text(encoding="utf-8")
        assert old in text, old
        own(path).write_text(text.replace(old, new, 1), encoding="utf-8")

    return mutate


def write_file(relative: str, text: str):
    def mutate(tree: Path):
        own(tree / relative).write_text(text, encoding="utf-8")

    return mutate


def write_bytes(relative: str, data: bytes):
    def mutate(tree: Path):
        own(tree / relative).write_bytes(data)

    return mutate


def remove(relative: str):
    def mutate(tree: Path):
        path = tree / relative
        shutil.rmtree(path) if path.is_dir() else path.unlink()

    return mutate


def symlink_loop_logo(tree: Path):
    """The logo named through a link to itself: resolving the path fails rather than ends."""
    (tree / "loop").symlink_to("loop")
    edit_yaml(lambda d: d.update(image="loop/logo.png"))(tree)


def phase(index: int, **changes):
    def change(doc):
        for key, value in changes.items():
            if value is None:
                doc["phases"][index].pop(key, None)
            else:
                doc["phases"][index][key] = value

    return edit_yaml(change)


def add_column(**column):
    return edit_yaml(lambda doc: doc["leaderboards"][0]["columns"].append(column))


def gold_in_the_starting_kit(tree: Path):
    shutil.copyfile(
        tree / "reference_data" / "evaluation" / "sim.jsonl", tree / "starting_kit" / "extra.jsonl"
    )


def gold_as_a_prediction_file(tree: Path):
    lines = (
        (tree / "reference_data" / "evaluation" / "sim.jsonl")
        .read_text(encoding="utf-8")
        .split("\n")[:-1]
    )
    rows = [yaml.safe_load(line) for line in lines]
    own(tree / "starting_kit" / "sim.tsv").write_text(
        "".join(f"{r['id']}\t{r['score']}\n" for r in rows)
    )


def drop_solution_task(doc):
    doc["solutions"][0]["tasks"] = [0, 9]


def gold_in_the_scoring_program(tree: Path):
    shutil.copytree(tree / "reference_data" / "evaluation", tree / "scoring_program" / "gold")


#: "Billion laughs": nine levels of ten aliases, 10**9 strings from a few hundred bytes.
ALIAS_BOMB = "a0: &a0 lol\n" + "".join(
    f"a{k}: &a{k} [{', '.join([f'*a{k - 1}'] * 10)}]\n" for k in range(1, 10)
)


def drop_last_line(file: str):
    def mutate(tree: Path):
        lines = (tree / file).read_text(encoding="utf-8").splitlines(keepends=True)
        own(tree / file).write_text("".join(lines[:-1]), encoding="utf-8")

    return mutate


def append_text(text: str, file: str):
    def mutate(tree: Path):
        with open(own(tree / file), "a", encoding="utf-8") as f:
            f.write(text)

    return mutate


V2_CASES = {
    "overlapping phases": (
        phase(1, start="2027-01-15 00:00:00"),
        "starts before phase 'Practice' ends",
    ),
    "end before start": (phase(0, end="2026-12-01 00:00:00"), "ends before it starts"),
    "unquoted date and time": (
        edit_text("start: '2027-02-01 00:00:00'", "start: 2027-02-01 08:30:00"),
        "unquoted date and time",
    ),
    "not a date": (phase(0, start="next monday"), "not a date; expected 'YYYY-MM-DD HH:MM:SS'"),
    "date with a time zone": (phase(0, start="2027-01-01T00:00:00+02:00"), "date with a time zone"),
    "queue that is not a UUID": (
        edit_yaml(lambda d: d.update(queue="my-gpu-queue")),
        "queue: not the vhost of a Codabench queue (a UUID)",
    ),
    "contact email that is no address": (
        edit_yaml(lambda d: d.update(contact_email="not-an-email")),
        "contact_email: not an e-mail address",
    ),
    "month-first date": (
        phase(0, start="3-15-2027"),
        "phases[0].start: a date with its day and month in an ambiguous order (Codabench reads the "
        "first number as the month when it can be one); expected '2027-03-15 00:00:00', the same "
        "date as 'YYYY-MM-DD HH:MM:SS' (UTC), found '3-15-2027'",
    ),
    "day-first date and time": (
        phase(0, start="15/3/2027 18:30"),
        "expected '2027-03-15 18:30:00', the same date as",
    ),
    "day and month that are no date": (
        phase(0, start="13-13-2027"),
        "phases[0].start: not a date; expected 'YYYY-MM-DD HH:MM:SS' (UTC), found '13-13-2027'",
    ),
    "no end before the next phase": (
        phase(0, end=None),
        "has no end but phase 'Evaluation' follows it",
    ),
    "no start": (phase(2, start=None), "a phase needs a 'start' date"),
    "singular leaderboard key": (
        edit_yaml(lambda d: d.update(leaderboard={"title": "x"})),
        "unknown top-level key 'leaderboard'",
    ),
    "unknown phase key": (
        phase(1, max_submissions_per_person=3),
        "unknown phase key 'max_submissions_per_person'",
    ),
    "flag that is not a boolean": (
        edit_yaml(lambda d: d.update(registration_auto_approve="yes")),
        "'registration_auto_approve' must be true or false",
    ),
    "time limit zero": (
        phase(0, execution_time_limit=0),
        "'execution_time_limit' must be an integer > 0",
    ),
    "phase names an unknown task": (
        phase(1, tasks=[7]),
        "the phase names tasks that do not exist",
    ),
    "solution names an unknown task": (
        edit_yaml(drop_solution_task),
        "the solution names tasks that do not exist",
    ),
    "ingestion beside the reference data": (
        edit_yaml(lambda d: d["tasks"][1].update(ingestion_only_during_scoring=True)),
        "ingestion_only_during_scoring runs the ingestion program, and the participant code it runs",
    ),
    "missing reference data": (
        edit_yaml(lambda d: d["tasks"][1].update(reference_data="reference_data/nope")),
        "reference_data not found in the bundle",
    ),
    "no scoring program metadata": (
        remove("scoring_program/metadata.yaml"),
        "scoring program has no file named exactly 'metadata.yaml' or 'metadata' at its root",
    ),
    "metadata without a command": (
        write_file("ingestion_program/metadata.yaml", "description: x\n"),
        "ingestion program's metadata.yaml: no 'command' to run",
    ),
    "command runs a missing script": (
        remove("scoring_program/score.py"),
        "scoring program's command runs a script the program does not have",
    ),
    "scoring program without its engine": (
        remove("scoring_program/codajudge"),
        "scoring program's score.py imports the codajudge engine, but the program has no "
        "codajudge folder beside it",
    ),
    "ingestion program without its engine": (
        remove("ingestion_program/codajudge"),
        "ingestion program's ingest.py imports the codajudge engine",
    ),
    "scoring command passing its folders swapped": (
        write_file(
            "scoring_program/metadata.yaml",
            "command: python3 /app/program/score.py /app/output /app/input\n",
        ),
        "tasks[0]: scoring program's command passes the worker's folders out of order: its script "
        "would read the wrong folder and every submission would fail; expected /app/input "
        "/app/output or $input $output (input, then output folder), found /app/output /app/input",
    ),
    "ingestion command passing its legacy folders swapped": (
        write_file(
            "ingestion_program/metadata.yaml",
            "command: python3 $program/ingest.py $output $input $submission_program\n",
        ),
        "ingestion program's command passes the worker's folders out of order: its script would "
        "read the wrong folder and every submission would fail; expected /app/input_data "
        "/app/output or $input $output (input, then output folder), found $output $input",
    ),
    "shell syntax without a shell": (
        write_file(
            "scoring_program/metadata.yaml", "command: cd /app/program && python3 score.py\n"
        ),
        "uses shell syntax but is not run by a shell",
    ),
    "leaderboard key the scorer never writes": (
        add_column(title="Typo", key="sim_pearsn", index=99, sorting="desc"),
        "leaderboards[0].columns[10]: the column shows no key the scoring program writes: it would "
        "stay empty; expected a key the scoring program writes, found 'sim_pearsn' (did you mean "
        "'sim_pearson'?)",
    ),
    "duplicate column keys": (
        add_column(title="Again", key="primary", index=98),
        "column keys must be unique",
    ),
    "duplicate column indexes": (
        add_column(title="Again", key="again", index=0),
        "column indexes must be unique, found 0 more than once",
    ),
    "negative column precision": (
        edit_yaml(lambda d: d["leaderboards"][0]["columns"][0].update(precision=-1)),
        "leaderboards[0].columns[0]: column 'precision' (decimal places shown) must be an integer "
        ">= 0, found -1",
    ),
    "unknown submission rule": (
        edit_yaml(lambda d: d["leaderboards"][0].update(submission_rule="Force Last")),
        "unknown submission_rule",
    ),
    "column title too long": (
        add_column(title="X" * 40, key="sim_pearson2", index=97),
        "'title' is longer than 36 characters",
    ),
    "logo missing": (remove("logo.png"), "the competition logo is required"),
    "logo path holding a NUL byte": (
        edit_yaml(lambda d: d.update(image="logo\0.png")),
        "found 'logo\\x00.png'",
    ),
    "logo path through a symlink loop": (symlink_loop_logo, "found 'loop/logo.png'"),
    "empty terms page": (write_file("pages/terms.md", "\n"), "page file is empty"),
    "terms page not UTF-8": (
        write_bytes("pages/terms.md", b"# Terms\n\nCaf\xe9\n"),
        "pages/terms.md, line 3: file is not UTF-8 text; expected UTF-8, found byte 0xe9",
    ),
    "competition.yaml not UTF-8": (
        write_bytes("competition.yaml", b"version: 2\ntitle: Caf\xe9\n"),
        "competition.yaml, line 2: file is not UTF-8 text; expected UTF-8, found byte 0xe9",
    ),
    "program metadata not UTF-8": (
        write_bytes("scoring_program/metadata.yaml", b"command: python3 score.py\n# caf\xe9\n"),
        "scoring program's metadata.yaml, line 2: file is not UTF-8 text; expected UTF-8, found "
        "byte 0xe9 at offset 31",
    ),
    "unsupported version": (edit_text("version: 2", "version: 2.0"), "unsupported 'version'"),
    "empty docker image": (
        edit_yaml(lambda d: d.update(docker_image="")),
        "competition.yaml: 'docker_image' is empty: Codabench then has no image that can run the "
        "kit; expected Python >= 3.9, numpy, scipy and PyYAML, found '' (write the kit's image, "
        "docker_image: codalab/codalab-legacy:py312)",
    ),
    "no docker image (Codabench's py37)": (
        edit_yaml(lambda d: d.pop("docker_image")),
        "'docker_image' is absent: Codabench then runs the programs in its default image, "
        "codalab/codalab-legacy:py37, whose Python 3.7 cannot run the kit; expected an image with "
        "Python >= 3.9, numpy, scipy and PyYAML (add the kit's image, docker_image: "
        "codalab/codalab-legacy:py312)",
    ),
    "a codalab-legacy image below py39": (
        edit_yaml(lambda d: d.update(docker_image="codalab/codalab-legacy:py37")),
        "'docker_image' runs Python 3.7, which cannot run the kit",
    ),
    "alias bomb in competition.yaml": (
        append_text(ALIAS_BOMB, "competition.yaml"),
        "competition.yaml: not valid YAML, found its aliases expand to more",
    ),
    "nesting too deep in competition.yaml": (
        # twice the depth the loader reaches (about 450 levels); deeper only costs the scanner time
        write_file("competition.yaml", "[" * 1000 + "]" * 1000),
        "competition.yaml: not valid YAML, found nested too deeply",
    ),
    "alias bomb in a program's metadata": (
        append_text(ALIAS_BOMB, "scoring_program/metadata.yaml"),
        "metadata.yaml: not valid YAML, found its aliases expand",
    ),
    "impossible date in a program's metadata": (
        append_text("released: 2020-13-45\n", "scoring_program/metadata.yaml"),
        "metadata.yaml: not valid YAML, found month must be in 1..12",
    ),
    "key given twice": (
        edit_text("title: Small test edition", "title: Small test edition\ntitle: Again"),
        "key 'title' given twice",
    ),
    "reference data without task.json": (
        remove("reference_data/evaluation/task.json"),
        "has no task.json, which the scoring program reads",
    ),
    "input data without a dataset's items": (
        remove("input_data/evaluation/sim.jsonl"),
        "input_data/evaluation/sim.jsonl: the input data file is missing; expected the public items",
    ),
    "input data without a dataset's training file": (
        remove("input_data/practice/sim.train.jsonl"),
        "input_data/practice/sim.train.jsonl: the input data file is missing; expected the training",
    ),
    "task scoring another phase's reference data": (
        edit_yaml(lambda d: d["tasks"][1].update(reference_data="reference_data/practice")),
        "phase 'Evaluation': its reference data and input data were built for different phases "
        "(their task.json's 'phase'), found reference_data/practice of phase 'practice'",
    ),
    "task reading another phase's input data": (
        edit_yaml(lambda d: d["tasks"][1].update(input_data="input_data/practice")),
        "input_data/practice of phase 'practice' (check the phase's 'tasks' and the task's",
    ),
    "phase running another phase's task": (
        phase(1, tasks=[0]),
        "phase 'Evaluation': scores the same data as phase 'Practice'",
    ),
    "time limit edited away from task.json's": (
        phase(1, execution_time_limit=300),
        "phase 'Evaluation': execution_time_limit differs from the one the programs keep to "
        "(task.json); expected 120 s, as reference_data/evaluation/task.json says, found 300 s",
    ),
    "gold cut short of the input items": (
        drop_last_line("reference_data/evaluation/sim.jsonl"),
        "reference_data/evaluation/sim.jsonl: the gold's item ids are not those of the input data: "
        "every submission would fail; expected the 14 ids of input_data/evaluation/sim.jsonl, "
        "found 13 ids in reference_data/evaluation/sim.jsonl; 1 only in input_data/evaluation/sim.jsonl, e.g. sim-test-013",
    ),
    "gold of another phase's items": (
        edit_yaml(lambda d: d["tasks"][0].update(reference_data="reference_data/evaluation")),
        "reference_data/evaluation/sim.jsonl: the gold's item ids are not those of the input data",
    ),
    "input data line not JSON": (
        write_file("input_data/evaluation/sim.jsonl", '{"id": "sim-0"}\n{not json\n'),
        "input_data/evaluation/sim.jsonl, line 2: public input item is not a JSON object of public fields",
    ),
    "gold item file in the starting kit": (
        gold_in_the_starting_kit,
        "public item file carries the hidden gold",
    ),
    "gold in a program made available": (
        gold_in_the_scoring_program,
        "scoring_program/gold/sim.jsonl: public item file carries the hidden gold",
    ),
    "gold as a prediction file in the starting kit": (
        gold_as_a_prediction_file,
        "public file reproduces the hidden gold of track 'sim",
    ),
}


def without_metadata_file(tree: Path):
    """A v1.5 program zip whose command is only in metadata.yaml (CodaLab reads a file named metadata)."""
    path = tree / "scoring_program.zip"
    with zipfile.ZipFile(path) as archive:
        files = {n: archive.read(n) for n in archive.namelist() if not n.endswith("/")}
    command = yaml.safe_load(files.pop("metadata", b"") or files.get("metadata.yaml", b"")) or {}
    files["metadata.yaml"] = yaml.safe_dump(command).encode()
    path.unlink()
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)


def corrupt_metadata_file(tree: Path):
    """A v1.5 program zip whose metadata file does not read back: its bytes no longer match its
    checksum (a zip damaged in transfer)."""
    path = tree / "scoring_program.zip"
    with zipfile.ZipFile(path) as archive:
        files = {n: archive.read(n) for n in archive.namelist() if not n.endswith("/")}
    path.unlink()
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    body = path.read_bytes()
    path.unlink()
    path.write_bytes(body.replace(files["metadata"], files["metadata"].upper(), 1))


def legacy_phase(number: int, **changes):
    def change(doc):
        doc["phases"][number].update(changes)

    return edit_yaml(change)


def evaluation_gold_in_the_kit(tree: Path, entry: str = "leak.jsonl"):
    """A CodaLab v1.5 bundle publishes its starting kit as one zip: a file inside it is public,
    whatever its name (a participant's unzip tool also opens dotfiles and __MACOSX entries)."""
    with zipfile.ZipFile(tree / "reference_data_evaluation.zip") as reference:
        gold = next(n for n in reference.namelist() if n.endswith(".jsonl"))
        text = reference.read(gold)
    with zipfile.ZipFile(own(tree / "starting_kit.zip"), "a") as kit:
        kit.writestr(entry, text)


def gold_beside_an_escaping_entry(tree: Path):
    """A zip a submission's extraction refuses as a whole still has readable public entries."""
    evaluation_gold_in_the_kit(tree, entry="../up.txt")
    evaluation_gold_in_the_kit(tree, entry="gold.jsonl")


LEGACY_CASES = {
    "v1.5 codalab-legacy image below py39": (
        edit_yaml(lambda d: d.update(competition_docker_image="codalab/codalab-legacy:py37")),
        "'competition_docker_image' runs Python 3.7, which cannot run the kit",
    ),
    "v1.5 blank docker image": (
        edit_yaml(lambda d: d.update(competition_docker_image=" ")),
        "competition.yaml: 'competition_docker_image' is empty: Codabench then has no image",
    ),
    "v1.5 column naming its board without the anchor": (
        edit_text("leaderboard: *id001", "leaderboard: Results"),
        "the column points at no declared leaderboard; expected leaderboard: *ANCHOR of a "
        "leaderboard with a label, found leaderboard: 'Results' (write the anchor",
    ),
    "v1.5 program zip without metadata": (
        without_metadata_file,
        "scoring program has no file named exactly 'metadata' at its root, found 'metadata.yaml'",
    ),
    "v1.5 distance column sorted as a score": (
        edit_yaml(lambda d: d["leaderboard"]["columns"]["sar_soft_awd"].update(sort="desc")),
        "leaderboard.columns.sar_soft_awd: column 'sar_soft_awd' ranks its metric 'awd', lower is "
        "better, in reverse: the best runs would rank last; expected sort: asc, found sort: desc",
    ),
    "v1.5 column label too long": (
        edit_yaml(lambda d: d["leaderboard"]["columns"]["primary"].update(label="L" * 40)),
        "leaderboard.columns.primary: 'label' is longer than 36 characters, found 40 characters",
    ),
    "v1.5 column sort unknown": (
        edit_yaml(lambda d: d["leaderboard"]["columns"]["primary"].update(sort="descending")),
        "leaderboard.columns.primary: unknown sort; expected desc | asc, found 'descending'",
    ),
    "v1.5 phases less than a day apart": (
        legacy_phase(2, start_date="2027-01-01 12:00:00"),
        "must start more than a day after the previous one",
    ),
    "v1.5 phase without an integer phasenumber": (
        legacy_phase(2, phasenumber="two"),
        "phases[2]: a v1.5 phase needs a mapping with an integer 'phasenumber', found "
        "phasenumber: 'two'",
    ),
    "v1.5 phase numbered as another": (
        legacy_phase(2, phasenumber=1),
        "phases: phasenumber 1 used by phases '1' and '2'; expected each phase its own phasenumber",
    ),
    "v1.5 phase scoring another phase's data": (
        legacy_phase(
            2, reference_data="reference_data_practice.zip", input_data="input_data_practice.zip"
        ),
        "scores the same data as phase 'Practice'; expected each phase its own data (only the "
        "post-campaign phase's may be scored again, after the evaluation), found "
        "reference_data_practice.zip of phase 'practice', input_data_practice.zip of phase "
        "'practice' (check the phase's reference_data and input_data zips, or rebuild",
    ),
    "v1.5 phase without a label": (legacy_phase(1, label=""), "a phase needs a 'label'"),
    "v1.5 phase with an empty scoring program": (
        legacy_phase(1, scoring_program=""),
        "a phase needs a 'scoring_program'",
    ),
    "v1.5 pages without terms": (
        edit_yaml(lambda d: d["html"].pop("terms")),
        "html: no 'terms' page",
    ),
    "v1.5 pages without overview": (
        edit_yaml(lambda d: d["html"].pop("overview")),
        "html: no 'overview' page: CodaLab v1.5's upload fails without one, found evaluation, "
        "terms, data",
    ),
    "v1.5 pages with Data for data": (
        edit_yaml(lambda d: d["html"].update(Data=d["html"].pop("data"))),
        "Data (rename 'Data' to 'data')",
    ),
    "v1.5 top-level key misspelt": (
        edit_yaml(lambda d: d.update(has_registraton=False)),
        "competition.yaml: unknown top-level key 'has_registraton': CodaLab v1.5 refuses a key its "
        "Competition model has not (a TypeError on upload) (did you mean 'has_registration'?)",
    ),
    "v1.5 phase key misspelt": (
        legacy_phase(2, max_submission_per_day=3),
        "phases[2]: unknown phase key 'max_submission_per_day': CodaLab v1.5 refuses a key its "
        "CompetitionPhase model has not (a FieldError on upload) (did you mean "
        "'max_submissions_per_day'?)",
    ),
    "v1.5 max_submissions as text": (
        legacy_phase(2, max_submissions="hundred"),
        "phases[2]: 'max_submissions' must be an integer > 0, found 'hundred'",
    ),
    "v1.5 max_submissions_per_day of 0 (no submission let in)": (
        legacy_phase(1, max_submissions_per_day=0),
        "phases[1]: 'max_submissions_per_day' must be an integer > 0, found 0",
    ),
    "v1.5 phase label too long": (
        legacy_phase(1, label="L" * 51),
        "phases[1]: 'label' is longer than 50 characters, found 51 characters",
    ),
    "v1.5 column numeric_format out of range": (
        edit_yaml(lambda d: d["leaderboard"]["columns"]["primary"].update(numeric_format=12)),
        "leaderboard.columns.primary: 'numeric_format' (the decimal places shown) must be an "
        "integer from 1 to 10, found 12",
    ),
    "v1.5 column numeric_format of 5,000 digits as text": (
        edit_yaml(
            lambda d: d["leaderboard"]["columns"]["primary"].update(numeric_format="9" * 5000)
        ),
        "leaderboard.columns.primary: 'numeric_format' (the decimal places shown) must be an "
        "integer from 1 to 10, found '99999",
    ),
    "v1.5 program as a folder": (
        legacy_phase(1, scoring_program="logo.png"),
        "scoring_program is a plain file",
    ),
    "v1.5 program zip whose metadata does not read back": (
        corrupt_metadata_file,
        "scoring program is not a readable zip",
    ),
    "v1.5 phase with an ingestion program": (
        legacy_phase(2, ingestion_program="scoring_program.zip"),
        "a CodaLab v1.5 phase with an ingestion program lets participant code read the phase's "
        "reference data",
    ),
    "v1.5 starting kit holding the evaluation's gold": (
        evaluation_gold_in_the_kit,
        "starting_kit.zip:leak.jsonl: public file reproduces the hidden gold of track",
    ),
    "v1.5 starting kit holding the evaluation's gold in a dotfile": (
        partial(evaluation_gold_in_the_kit, entry=".cache/leak.jsonl"),
        "starting_kit.zip:.cache/leak.jsonl: public file reproduces the hidden gold of track",
    ),
    "v1.5 starting kit a submission's extraction refuses, holding the evaluation's gold": (
        gold_beside_an_escaping_entry,
        "starting_kit.zip:gold.jsonl: public file reproduces the hidden gold of track",
    ),
    "v1.5 starting kit holding the evaluation's gold in __MACOSX": (
        partial(evaluation_gold_in_the_kit, entry="__MACOSX/._leak.jsonl"),
        "starting_kit.zip:__MACOSX/._leak.jsonl: public file reproduces the hidden gold",
    ),
}


def broken_copy(tree: Path, mutate, target: Path) -> Path:
    mutate(linked_copy(tree, target))
    return target


def test_the_corpus_has_twenty_defects_each_with_its_own_message():
    cases = {**V2_CASES, **LEGACY_CASES}
    assert len(cases) >= 20
    messages = [expected for _, expected in cases.values()]
    assert len(set(messages)) == len(messages)


def test_a_clean_bundle_has_no_problem_as_folder_and_as_zip(small, capsys):
    """The zip through the command's own code (``codajudge check``, which ``build_bundle.py
    --check`` calls too), in this process: it finds nothing, says so and exits 0."""
    summary, _ = small
    assert check_bundle(summary.tree) == []
    assert check_main([str(summary.zip_path)]) == 0
    assert capsys.readouterr().out == f"{summary.zip_path}: ok, no problems found\n"


@pytest.mark.parametrize("case", sorted(V2_CASES))
def test_each_v2_defect_is_found(case, small, tmp_path):
    mutate, expected = V2_CASES[case]
    problems = check_bundle(broken_copy(small[0].tree, mutate, tmp_path / "bundle"))
    assert any(expected in line for line in problems), "\n".join(problems) or "no problem found"
    assert all("\n" not in line for line in problems)


@pytest.mark.parametrize("case", sorted(LEGACY_CASES))
def test_each_legacy_defect_is_found(case, small, tmp_path):
    mutate, expected = LEGACY_CASES[case]
    bundle = broken_copy(small[1].tree, mutate, tmp_path / "bundle")
    problems = check_bundle(bundle, (v2, legacy_check))
    assert any(expected in line for line in problems), "\n".join(problems) or "no problem found"


def test_v15_rule_breaks_do_not_hide_the_content_checks(small, tmp_path):
    """An ingestion program on a phase and an unknown phase key leave the bundle readable: the
    reversed sort the content checks find is said in the same run (README: one line per problem)."""

    def break_rules(doc):
        doc["phases"][2].update(ingestion_program="scoring_program.zip", colour="red")
        doc["leaderboard"]["columns"]["primary"]["sort"] = "asc"

    bundle = broken_copy(small[1].tree, edit_yaml(break_rules), tmp_path / "bundle")
    problems = check_bundle(bundle, (v2, legacy_check))
    assert len(problems) == 3, "\n".join(problems)
    assert "a CodaLab v1.5 phase with an ingestion program" in problems[1]
    assert problems[2].startswith("leaderboard.columns.primary: column 'primary' ranks its metric")


@pytest.mark.parametrize("version", [2, "2"])
def test_a_v15_bundle_under_version_2_is_one_problem_naming_the_cause(version, small, tmp_path):
    edit = edit_yaml(lambda d: d.update(version=version))
    bundle = broken_copy(small[1].tree, edit, tmp_path / "bundle")
    assert check_bundle(bundle, (v2, legacy_check)) == [
        "competition.yaml: 'version: 2' makes the file a Codabench bundle; expected Codabench's "
        "form (pages, tasks, leaderboards, phases as a list), found CodaLab v1.5 form (html, "
        "leaderboard, phases as a mapping) (remove 'version' for a CodaLab v1.5 bundle, or write "
        "the bundle in Codabench's form)"
    ]


def test_v15_counts_as_digits_in_text_pass_as_v15_stores_them(small, tmp_path):
    """v1.5's PositiveIntegerFields and Codabench's serializers store '3' as 3: the limits and a
    column's numeric_format may be quoted; other text stays refused (LEGACY_CASES)."""

    def quote_counts(doc):
        phase = doc["phases"][1]
        for key in ("max_submissions", "max_submissions_per_day", "execution_time_limit"):
            phase[key] = str(phase[key])
        doc["leaderboard"]["columns"]["primary"]["numeric_format"] = "4"

    quoted = broken_copy(small[1].tree, edit_yaml(quote_counts), tmp_path / "bundle")
    assert check_bundle(quoted, (v2, legacy_check)) == []


def fourth_phase_copying(copied: int):
    """A fourth v1.5 phase, 'Again', with phase ``copied``'s zips, starting after the others."""

    def add_phase(doc):
        copy = {"phasenumber": 4, "label": "Again", "start_date": "2027-06-01 00:00:00"}
        doc["phases"][4] = {**doc["phases"][copied], **copy}

    return edit_yaml(add_phase)


def test_a_v15_phase_repeating_the_post_campaign_data_is_a_note_the_evaluation_data_refused(
    small, tmp_path
):
    """After the evaluation the post-campaign's data may be scored again (v1.5 runs it); the
    evaluation's may not, as a practice phase wired to it could not be told apart."""
    notes = []
    again = broken_copy(small[1].tree, fourth_phase_copying(3), tmp_path / "post")
    assert check_bundle(again, (v2, legacy_check), notes=notes) == []
    assert notes == [
        "phase 'Again' scores the same data as phase 'Post-campaign' (reference_data_post-campaign"
        ".zip of phase 'post-campaign', input_data_post-campaign.zip of phase 'post-campaign'), "
        "after the evaluation: accepted; its detailed results name phase 'post-campaign'"
    ]
    again = broken_copy(small[1].tree, fourth_phase_copying(2), tmp_path / "evaluation")
    assert any(
        line.startswith("phase 'Again': scores the same data as phase 'Evaluation'; expected")
        for line in check_bundle(again, (v2, legacy_check))
    )


def test_an_image_the_kit_does_not_know_is_a_note_and_its_own_images_pass(small, tmp_path):
    """codalab-legacy py39 and py312 pass silently; another image passes with a note on what it
    must hold, which ``codajudge check`` prints."""
    for image in ("codalab/codalab-legacy:py39", "codalab/codalab-legacy:py312", "python:3.9"):
        notes = []
        edit = edit_yaml(lambda d: d.update(docker_image=image))
        assert check_bundle(broken_copy(small[0].tree, edit, tmp_path / image), notes=notes) == []
        assert notes == (
            []
            if "legacy" in image
            else [
                "competition.yaml: 'docker_image' 'python:3.9' is not an image the kit knows: it must "
                "hold Python >= 3.9, numpy, scipy and PyYAML (the kit's image is "
                "codalab/codalab-legacy:py312)"
            ]
        )


def test_a_column_precision_of_digits_as_text_passes_as_codabench_reads_it(small, tmp_path):
    edit = edit_yaml(lambda d: d["leaderboards"][0]["columns"][0].update(precision="4"))
    assert check_bundle(broken_copy(small[0].tree, edit, tmp_path / "bundle")) == []


def test_a_removed_column_is_valid_and_a_column_no_scorer_writes_is_said_once(small, tmp_path):
    """Codabench leaves a scores.json key with no column out of the leaderboard (a column removed
    on purpose); a column whose key the scorer writes in no phase is one problem, not one a phase."""
    removed = edit_yaml(lambda d: d["leaderboards"][0]["columns"].pop())
    assert check_bundle(broken_copy(small[0].tree, removed, tmp_path / "removed")) == []
    removed = edit_yaml(lambda d: d["leaderboard"]["columns"].pop("var_pe_mer"))
    legacy = broken_copy(small[1].tree, removed, tmp_path / "legacy")
    assert check_bundle(legacy, (v2, legacy_check)) == []
    bogus = add_column(title="Bogus", key="bogus", index=99, sorting="desc")
    problems = check_bundle(broken_copy(small[0].tree, bogus, tmp_path / "bogus"))
    assert problems == [
        "leaderboards[0].columns[10]: the column shows no key the scoring program writes: it would "
        "stay empty; expected a key the scoring program writes, found 'bogus' (remove the column)"
    ]


def test_a_zip_whose_bundle_is_one_folder_down_is_refused(small, tmp_path):
    nested = tmp_path / "wrapped"
    linked_copy(small[0].tree, nested / "small")
    write_zip(tree_files(nested), tmp_path / "wrapped.zip")
    problems = check_bundle(tmp_path / "wrapped.zip")
    assert len(problems) == 1 and "no competition.yaml at the bundle's root" in problems[0]
    assert "'small/competition.yaml'" in problems[0]


def test_the_command_prints_one_line_per_problem_and_exits_1(small, tmp_path):
    """build_bundle.py --check, the script itself (test_new_edition runs its ``main`` in process)."""
    broken = broken_copy(
        small[0].tree, phase(0, end=None, execution_time_limit=0), tmp_path / "bundle"
    )
    done = subprocess.run(
        [sys.executable, str(REPO / "build_bundle.py"), "--check", str(broken)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**__import__("os").environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and all(line.startswith("phases[0]") for line in lines), done.stdout
    assert "2 problems;" in done.stderr and "Traceback" not in done.stderr


def test_codajudge_check_prints_one_line_per_problem_and_exits_1(small, tmp_path, capsys):
    """``codajudge check`` by the command's ``main`` in this process (test_cli starts
    ``python -m codajudge`` as a process of its own)."""
    from codajudge.cli import main as codajudge

    broken = broken_copy(
        small[0].tree, phase(0, end=None, execution_time_limit=0), tmp_path / "bundle"
    )
    assert codajudge(["check", str(broken)]) == 1
    printed = capsys.readouterr()
    lines = printed.out.splitlines()
    assert len(lines) == 2 and all(line.startswith("phases[0]") for line in lines), printed.out
    assert "2 problems;" in printed.err


# --- hidden gold in another encoding (issue 22, item 6) ---------------------------------------------


@pytest.fixture(scope="module")
def larger(bundles):
    """The small edition with 60 test items: enough for a correlation or a relabelling to mean
    something (14 are too few to be judged by content)."""
    summary = bundles.small(test_items=60)
    with unchanged(summary.tree):
        yield summary


def _test_items(summary, dataset: str):
    path = summary.edition.folder / "data" / dataset / "test.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def scaled_scores(summary, tree: Path) -> None:
    rows = _test_items(summary, "sim")
    text = "".join(f"{r['id']},{20 * r['score'] + 3}\n" for r in rows)
    own(tree / "starting_kit" / "scores_0_100.csv").write_text(text)


def labels_as_indices(summary, tree: Path) -> None:
    labels = ["entailment", "neutral", "contradiction"]
    rows = [r for r in _test_items(summary, "nli") if r["label"]]
    text = "".join(f"{r['id']}\t{labels.index(r['label'])}\n" for r in rows)
    own(tree / "starting_kit" / "labels.tsv").write_text(text)


def renamed_test_items_in_the_training_file(summary, tree: Path) -> None:
    copies = [dict(r, id=f"extra-{k}") for k, r in enumerate(_test_items(summary, "sim"))]
    path = tree / "input_data" / "evaluation" / "sim.train.jsonl"
    with open(own(path), "a", encoding="utf-8") as f:
        f.write("".join(json.dumps(r) + "\n" for r in copies))


ENCODED_CASES = {
    "scores times 20 plus 3": (
        scaled_scores,
        "hidden gold of track 'sim (reference_data/evaluation)'",
    ),
    "labels as indices": (
        labels_as_indices,
        "hidden gold of track 'nli (reference_data/evaluation)'",
    ),
    "test items renamed in train": (
        renamed_test_items_in_the_training_file,
        "input_data/evaluation/sim.train.jsonl: public item file carries the hidden gold",
    ),
}


def test_the_larger_clean_bundle_has_no_problem(larger):
    """What the cases below find is each one's planted encoding, not a problem of the bundle."""
    assert check_bundle(larger.tree) == []


@pytest.mark.parametrize("case", sorted(ENCODED_CASES))
def test_hidden_gold_in_another_encoding_is_found(case, larger, tmp_path):
    mutate, expected = ENCODED_CASES[case]
    tree = broken_copy(larger.tree, lambda t: mutate(larger, t), tmp_path / "bundle")
    found = "\n".join(check_bundle(tree))
    assert expected in found, found


def test_a_missing_reference_file_is_a_located_problem_beside_competition_yamls(small, tmp_path):
    """Not a raw FileNotFoundError, and not only once competition.yaml's problems are fixed."""
    broken = broken_copy(small[0].tree, phase(0, execution_time_limit=0), tmp_path / "bundle")
    (broken / "reference_data" / "evaluation" / "sim.jsonl").unlink()
    problems = check_bundle(broken)
    assert any("execution_time_limit" in line for line in problems), problems
    assert any(
        line.startswith("reference_data/evaluation/sim.jsonl: the reference data file is missing")
        for line in problems
    ), problems
    assert not any("FileNotFoundError" in line for line in problems)


def test_an_empty_reference_file_of_scores_is_a_problem_not_an_internal_error(small, tmp_path):
    """A score track's gold file with no items is refused by its reading, not by a kit error."""
    broken = linked_copy(small[0].tree, tmp_path / "bundle")
    gold = broken / "reference_data" / "evaluation" / "sim.jsonl"
    gold.unlink()  # a linked copy's file is the original's: replace it, do not write through it
    gold.write_text("", encoding="utf-8")
    problems = check_bundle(broken)
    assert problems, "an empty gold file passed"
    assert not any("internal error" in line or "Error" in line for line in problems), problems


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
@pytest.mark.parametrize("folder", ["reference_data/evaluation", "scoring_program"])
def test_a_bundle_folder_that_is_a_pipe_is_a_problem_not_a_wait(folder, small, tmp_path):
    """A path of the bundle that is neither a folder nor a file (a named pipe) is reported as not
    there; opening it as a zip would block the check for ever."""
    import threading

    broken = linked_copy(small[0].tree, tmp_path / "bundle")
    shutil.rmtree(broken / folder)
    os.mkfifo(broken / folder)
    found: list[list[str]] = []
    checking = threading.Thread(target=lambda: found.append(check_bundle(broken)), daemon=True)
    checking.start()
    checking.join(timeout=120)
    assert found, "the check blocked on the pipe"
    assert any(folder in line for line in found[0]), found[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
@pytest.mark.parametrize("make", [os.mkdir, getattr(os, "mkfifo", None)], ids=["folder", "pipe"])
def test_a_gold_file_name_that_is_no_file_is_not_read(make, small, tmp_path):
    """A folder or a named pipe named like a gold file beside the reference data is left unread
    by the gold digest (reading a pipe blocks for ever, a folder raises)."""
    import threading

    broken = linked_copy(small[0].tree, tmp_path / "bundle")
    make(broken / "reference_data" / "evaluation" / "zz.jsonl")
    found: list[list[str]] = []
    checking = threading.Thread(target=lambda: found.append(check_bundle(broken)), daemon=True)
    checking.start()
    checking.join(timeout=120)
    assert found, "the check blocked on the pipe"
    assert not any("Error" in line or "internal" in line for line in found[0]), found[0]


def test_a_bundle_zip_escaping_its_folder_or_beyond_its_bounds_is_not_extracted(
    tmp_path, monkeypatch
):
    """Nothing is written for a zip with a member outside the bundle, or one declaring more bytes
    than ``MAX_BUNDLE_BYTES`` once extracted (zipfile writes at most the declared sizes)."""
    from codajudge.bundle.check import opening

    path = tmp_path / "bundle.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("competition.yaml", "version: 2\n")
        archive.writestr("../up.txt", "x" * 100)
    assert check_bundle(path) == ["bundle.zip: zip member escapes the bundle, found '../up.txt'"]
    monkeypatch.setattr(opening, "MAX_BUNDLE_BYTES", 100)
    path.unlink()
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("competition.yaml", "version: 2\n")
        archive.writestr("data.txt", "x" * 100)
    (problem,) = check_bundle(path)
    assert problem.startswith("bundle.zip: zip too large for a bundle; expected at most 20000")
    assert problem.endswith("found 2 members declaring 111 bytes")
    assert not (tmp_path / "up.txt").exists()


@pytest.mark.parametrize("legacy", [False, True], ids=["folder", "zip"])
def test_a_script_beyond_the_scanned_bound_is_a_finding_not_read(
    legacy, small, tmp_path, monkeypatch
):
    """The script a program's command runs, larger than ``MAX_SCANNED_BYTES`` (in a folder or a
    zip), is reported, not read: the folder's missing engine, which reading it would find, is not
    reported."""
    from codajudge.bundle.check import programs

    monkeypatch.setattr(programs, "MAX_SCANNED_BYTES", 100)
    bundle = linked_copy(small[legacy].tree, tmp_path / "bundle")
    if not legacy:
        remove("scoring_program/codajudge")(bundle)
    problems = check_bundle(bundle, (v2, legacy_check))
    expected = "scoring program's score.py is too large to check; expected a script of at most 100"
    assert any(expected in line for line in problems), problems
    assert not any("score.py imports the codajudge engine" in line for line in problems), problems


def test_a_rebuild_hint_names_the_build_command_in_the_form_that_ran(small, tmp_path, monkeypatch):
    """The checker's "rebuild the bundle" hint, like every command the kit prints, is in the form
    this process was started with: ``python -m codajudge build`` where no script is installed."""
    monkeypatch.setattr("sys.argv", ["/repo/codajudge/__main__.py"])
    tree = broken_copy(small[0].tree, remove("scoring_program/codajudge"), tmp_path / "bundle")
    problems = [line for line in check_bundle(tree) if "imports the codajudge engine" in line]
    assert problems and all(
        "rebuild the bundle with python -m codajudge build" in line for line in problems
    ), problems
