"""What the real platforms do with a bundle (issue 12): solution names, the kit's own time limit
below the phase's, submitted html removed from the prediction output, whole-word column titles for
every shipped edition, the ``queue`` key, the legacy v1.5 ``metadata`` files and pages, no
participant code beside the reference data on either platform (issue 22: the v1.5 bundle takes
result submissions only; the v2 prediction step gets the input data only), and the honest
repository root (entry scripts that say it is the source tree; generated-file markers).

Expected values are written out here from the platforms' rules (Codabench's 36-character column
title, the v1 worker's ``metadata`` file name), not read back from the builder.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from codajudge.bundle.compose import competition_yaml, leaderboard_columns
from codajudge.bundle.edition import load_edition
from codajudge.errors import ConfigError, SubmissionError
from codajudge.metrics import get as get_metric
from codajudge.programs.ingest import code_time_limit, main as ingest_main, time_limit_of
from codajudge.spec import read_spec
from test_ingestion import SMALL_TRACKS, make_phase, write_submission

REPO = Path(__file__).resolve().parents[1]
EDITIONS = sorted(p.parent.name for p in (REPO / "editions").glob("*/edition.yaml"))
QUEUE = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"


def edited_default(tmp_path: Path, change) -> Path:
    folder = tmp_path / "edition"
    shutil.copytree(REPO / "editions" / "default", folder, ignore=shutil.ignore_patterns("data"))
    config = yaml.safe_load((folder / "edition.yaml").read_text(encoding="utf-8"))
    change(config)
    (folder / "edition.yaml").write_text(
        yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8"
    )
    return folder


# ---------------------------------------------------------------- solutions have names


def test_root_solutions_are_named_after_their_baseline():
    doc = yaml.safe_load((REPO / "competition.yaml").read_text(encoding="utf-8"))
    raw = yaml.safe_load(
        (REPO / "editions" / "default" / "edition.yaml").read_text(encoding="utf-8")
    )
    baselines = raw.get("baselines", ["random", "most_frequent", "cosine_bow"])
    assert [s["name"] for s in doc["solutions"]] == baselines
    assert [s["path"] for s in doc["solutions"]] == [f"solutions/{b}" for b in baselines]
    assert all(s["description"] for s in doc["solutions"])


# ---------------------------------------------------------------- the time-limit margin


@pytest.mark.parametrize(
    "phase_limit, code_limit", [(600, 540), (3600, 3540), (240, 180), (120, 90), (4, 3)]
)
def test_code_gets_the_phase_limit_minus_the_scoring_margin(phase_limit, code_limit):
    assert code_time_limit(phase_limit) == code_limit


def test_task_json_limit_is_the_phases_and_an_option_can_only_lower_it(tmp_path):
    spec = read_spec(make_phase(tmp_path, tracks=SMALL_TRACKS, execution_time_limit=600)["input"])
    assert time_limit_of(spec, None) == 540
    assert time_limit_of(spec, 30) == 30
    assert time_limit_of(spec, 900) == 540


def test_shipped_task_json_carries_the_phase_limit():
    for phase in ("practice", "evaluation", "post-campaign"):
        spec = read_spec(REPO / "input_data" / phase)
        raw = yaml.safe_load(
            (REPO / "editions" / "default" / "edition.yaml").read_text(encoding="utf-8")
        )
        expected = next(p for p in raw["phases"] if p["id"] == phase).get(
            "execution_time_limit", 600
        )
        assert spec.extra["execution_time_limit"] == expected
        assert time_limit_of(spec, None) == expected - 60


SLOW = (
    "import time\nclass Model:\n    def __init__(self, track):\n        pass\n"
    "    def fit(self, items):\n        time.sleep(60)\n    def predict(self, items):\n        return []\n"
)


def test_a_submission_past_the_kits_limit_fails_before_the_phase_limit(tmp_path, capfd):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS, execution_time_limit=8)
    out = tmp_path / "out"
    assert (
        ingest_main([str(phase["input"]), str(out), str(write_submission(tmp_path / "sub", SLOW))])
        == 2
    )
    err = capfd.readouterr().err
    assert "the code submission ran past the time limit of 6 s" in err
    assert "minus up to 60 s kept for checking its predictions" in err and "Traceback" not in err
    assert not list(out.glob("*.tsv"))


def test_the_time_limit_advice_names_where_the_limit_is_read_and_why_60_s_are_kept():
    """The README told organisers to raise the phase's execution_time_limit (Codabench's editor does
    not move the kit's limit, read from the built input data's task.json) and said the 60 s were
    kept for the scoring step (a job of its own, with its own limit): every text says the kit's
    own reason and the edition config's rebuild."""
    texts = {
        path: (REPO / path).read_text(encoding="utf-8")
        for path in (
            "README.md",
            "codajudge/templates/kit_readme.md",
            "codajudge/programs/ingest.py",
        )
    }
    for path, text in texts.items():
        flat = " ".join(text.split())
        assert "kept for scoring" not in flat and "for the scoring step" not in flat, path
    readme = " ".join(texts["README.md"].split())
    assert (
        "for longer runs change the phase's `execution_time_limit` in the edition config, rebuild"
        in readme
    )


# ---------------------------------------------------------------- submitted html leaves the output


def test_submitted_html_is_removed_from_the_prediction_output(tmp_path, capfd):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    assert ingest_main(["--baseline", "random", str(phase["input"]), str(tmp_path / "made")]) == 0
    submission = tmp_path / "sub"
    submission.mkdir()
    shutil.copyfile(tmp_path / "made" / "sts.tsv", submission / "sts.tsv")
    (submission / "detailed_results.html").write_text("<html>not the kit's results</html>")
    (submission / "inner").mkdir()
    (submission / "inner" / "Page.HTM").write_text("<html></html>")
    out = tmp_path / "out"
    # what Codabench's worker does with a submission without 'metadata': its files land in the output
    shutil.copytree(submission, out)
    capfd.readouterr()
    assert ingest_main([str(phase["input"]), str(out), str(submission)]) == 0
    assert not [p for p in out.rglob("*") if p.suffix.lower() in (".html", ".htm")]
    assert (out / "sts.tsv").is_file()
    # the worker's copy goes quietly: the submission's own note names each page, once
    printed = capfd.readouterr().out
    assert "2 files match no track and were ignored" in printed
    assert [printed.count(repr(page)) for page in ("detailed_results.html", "inner/Page.HTM")] == [
        1,
        1,
    ]


def test_a_run_by_hand_leaves_what_the_output_folder_held_before(tmp_path, capfd):
    """By hand (the starting kit's README), OUTPUT may be any folder: its own html pages, links and
    sub-folders stay; only what the step itself writes is removed."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    out = tmp_path / "out"
    (out / "sub").mkdir(parents=True)
    (out / "sub" / "report.html").write_text("<html>mine</html>")
    (out / "index.htm").write_text("<html>mine</html>")
    (out / "latest").symlink_to(tmp_path)
    assert ingest_main(["--baseline", "random", str(phase["input"]), str(out)]) == 0
    assert (out / "sub" / "report.html").read_text() == "<html>mine</html>"
    assert (out / "index.htm").is_file() and (out / "latest").is_symlink()
    assert (out / "sts.tsv").is_file() and "removed" not in capfd.readouterr().out


def test_the_readme_says_which_html_the_ingestion_program_removes(tmp_path, capfd):
    """Trial 58, item 2: the README said the ingestion program "deletes every html file from its
    output"; it removes only what the run put there, a file at a path the submission also has
    taken for the worker's copy: the README says so, and the program does it."""
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    assert "deletes every html file" not in readme
    assert "all but those the output held before the run, unchanged since, at a path the " in readme
    assert "a file at a path the submission also has is taken for the worker's copy" in readme
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    submission = write_submission(
        tmp_path / "sub", "from codajudge.baselines import Random as Model\n"
    )
    (submission / "page.html").write_text("<html>submitted</html>")
    out = tmp_path / "out"
    out.mkdir()
    (out / "page.html").write_text("<html>a copy</html>")
    (out / "mine.html").write_text("<html>mine</html>")
    assert ingest_main([str(phase["input"]), str(out), str(submission)]) == 0
    assert (
        not (out / "page.html").exists() and (out / "mine.html").read_text() == "<html>mine</html>"
    )


@pytest.mark.parametrize("wrong", ["input", "submission"])
def test_a_refused_argument_writes_and_removes_nothing(tmp_path, capfd, wrong):
    """Every argument is checked before OUTPUT is made, cleaned or given a status file."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    kept, new = tmp_path / "kept", tmp_path / "new" / "out"
    (kept / "sub").mkdir(parents=True)
    (kept / "sub" / "report.html").write_text("<html>mine</html>")
    given = {"input": str(tmp_path / "nonexistent"), "submission": str(phase["input"])}
    submission = str(tmp_path / "sumbission.zip")
    for out in (kept, new):
        assert ingest_main([given[wrong], str(out), submission]) == 2
    err = capfd.readouterr().err
    assert "no such folder" in err if wrong == "input" else "nothing is at this path" in err
    assert [p.name for p in kept.rglob("*")] == ["sub", "report.html"]
    assert not (tmp_path / "new").exists()


# ---------------------------------------------------------------- column titles


@pytest.mark.parametrize("name", EDITIONS)
def test_every_shipped_column_title_is_whole_words_within_36_characters(name):
    edition = load_edition(REPO / "editions" / name)
    columns = leaderboard_columns(edition)[1:]
    assert len(columns) == sum(len(t.metrics) for t in edition.tracks)
    pairs = [(t, m) for t in edition.tracks for m in t.metrics]
    for column, (track, metric) in zip(columns, pairs):
        title = column["title"]
        assert len(title) <= 36, title
        found = get_metric(metric)
        allowed = {
            f"{track.title} {found.title}",
            f"{track.title} {found.short_title or found.title}",
        }
        assert title in allowed, title
        if len(f"{track.title} {found.title}") <= 36:
            assert title == f"{track.title} {found.title}"  # the full title whenever it fits


def test_a_track_title_too_long_for_any_column_title_is_refused(tmp_path):
    long_title = "A very long track title of forty chars!"
    folder = edited_default(tmp_path, lambda c: c["tracks"][0].update(title=long_title))
    with pytest.raises(ConfigError) as caught:
        load_edition(folder)
    text = str(caught.value)
    assert "title is too long" in text and repr(long_title) in text and "36" in text


# ---------------------------------------------------------------- the queue key


def test_queue_goes_from_the_edition_to_competition_yaml(tmp_path):
    edition = load_edition(edited_default(tmp_path, lambda c: c.update(queue=QUEUE.upper())))
    assert edition.queue == QUEUE
    assert competition_yaml(edition, [])["queue"] == QUEUE
    assert "queue" not in competition_yaml(load_edition(REPO / "editions" / "default"), [])


@pytest.mark.parametrize("value", ["my-gpu-queue", 42, "", ["x"]])
def test_a_queue_that_is_not_a_vhost_uuid_is_refused(tmp_path, value):
    with pytest.raises(ConfigError) as caught:
        load_edition(edited_default(tmp_path, lambda c: c.update(queue=value)))
    assert "'queue' must be the vhost of a Codabench queue (a UUID)" in str(caught.value)


@pytest.mark.parametrize("value", ["not-an-email", "organisers at example.org", "me@example"])
def test_a_contact_email_that_is_no_address_is_refused_by_the_edition_and_the_bundle_check(
    tmp_path, value
):
    """Codabench's Competition.contact_email is an EmailField: the upload fails on another form."""
    with pytest.raises(ConfigError) as caught:
        load_edition(edited_default(tmp_path, lambda c: c.update(contact_email=value)))
    assert "'contact_email' must be an e-mail address" in str(caught.value)
    assert (
        load_edition(
            edited_default(tmp_path / "ok", lambda c: c.update(contact_email="me@example.org"))
        ).contact_email
        == "me@example.org"
    )


def test_a_time_limit_above_the_shared_queue_s_needs_a_queue_in_the_edition_too(tmp_path):
    """The edition's check applies the bundle checker's rule, so what it passes the zip's check
    passes too: without a ``queue``, a phase runs at most 600 s."""

    def slow(config, queue=None):
        config["phases"][1]["execution_time_limit"] = 900
        if queue:
            config["queue"] = queue

    with pytest.raises(ConfigError) as caught:
        load_edition(edited_default(tmp_path / "shared", slow))
    assert (
        "edition.yaml: phases (evaluation): execution_time_limit above what the shared queue "
        "allows; expected at most 600 s, or a 'queue' of your own, found 900 s"
    ) in str(caught.value)
    own = load_edition(edited_default(tmp_path / "own", lambda c: slow(c, QUEUE)))
    assert own.phases[1].execution_time_limit == 900


# ---------------------------------------------------------------- the repository root is the source tree

ENTRY_SCRIPTS = [
    ("scoring_program", "score.py", "upload the bundle built by build_bundle.py"),
    ("ingestion_program", "ingest.py", "upload the bundle built by build_bundle.py"),
    ("starting_kit", "run_local.py", "bundle built by build_bundle.py"),
]


@pytest.mark.parametrize("folder, script, says", ENTRY_SCRIPTS)
def test_an_entry_script_without_the_engine_says_so_in_one_line(tmp_path, folder, script, says):
    # the folder as a platform mounts it on its own (e.g. /app/program), with no codajudge beside or above
    mounted = tmp_path / "app" / "program"
    shutil.copytree(
        REPO / folder, mounted, ignore=shutil.ignore_patterns("__pycache__", "sample_submissions")
    )
    done = subprocess.run(
        [sys.executable, str(mounted / script), "in", "out"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and says in done.stderr and "source tree" in done.stderr
    assert "Traceback" not in done.stderr


def test_every_generated_root_file_says_where_it_comes_from():
    marker = "Generated by codajudge"
    assert (
        (REPO / "competition.yaml")
        .read_text(encoding="utf-8")
        .splitlines()[0]
        .startswith(f"# {marker}")
    )
    for page in (REPO / "pages").glob("*.md"):
        first = page.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith(f"<!-- {marker}") and "edition 'default'" in first, page
    for model in (REPO / "solutions").glob("*/model.py"):
        assert "Generated by build_bundle.py" in model.read_text(encoding="utf-8")
    for spec in list((REPO / "input_data").glob("*/task.json")) + list(
        (REPO / "reference_data").glob("*/task.json")
    ):
        assert read_spec(spec.parent).edition == "default"
    attributes = (REPO / ".gitattributes").read_text(encoding="utf-8")
    for name in (
        "competition.yaml",
        "logo.png",
        "pages/**",
        "reference_data/**",
        "input_data/**",
        "solutions/**",
    ):
        assert f"/{name} linguist-generated=true" in attributes


# ---------------------------------------------------------------- Codabench v2: no gold beside code


def codabench_step_bundles(task: dict, is_scoring: bool) -> set:
    """The bundles Codabench sends a step of a submission to ``task`` (codabench
    src/apps/competitions/tasks.py:173-181, written out; the submission or the scoring program is
    the step's ``program``, 185-187)."""
    bundles = {"program"}
    during_scoring = bool(task.get("ingestion_only_during_scoring"))
    if task.get("ingestion_program") and during_scoring == is_scoring:
        bundles.add("ingestion_program")
    if task.get("input_data") and (not is_scoring or during_scoring):
        bundles.add("input_data")
    if is_scoring and task.get("reference_data"):
        bundles.add("reference_data")
    return bundles


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_v2_prediction_step_never_receives_reference_data(edition):
    """Participant code runs where the ingestion program runs. Each task runs it in the prediction
    step (no ingestion_only_during_scoring), which gets the input data and never the reference data;
    the reference data goes to the scoring step, whose program is the kit's scorer (and whose
    ``/app/input`` mount, compute_worker.py:926-944, only the scoring step has)."""
    doc = competition_yaml(load_edition(REPO / "editions" / edition), [])
    for task in doc["tasks"]:
        assert task["ingestion_program"] and task["input_data"] and task["reference_data"]
        assert not task.get("ingestion_only_during_scoring"), task["name"]
        assert codabench_step_bundles(task, is_scoring=False) == {
            "program",
            "ingestion_program",
            "input_data",
        }
        assert "ingestion_program" not in codabench_step_bundles(task, is_scoring=True)


def test_the_checker_refuses_a_task_that_ingests_beside_the_reference_data():
    from codajudge.bundle.check.findings import Findings
    from codajudge.bundle.check.v2 import _check_tasks

    findings = Findings()
    task = {
        "index": 0,
        "name": "t",
        "ingestion_program": "p",
        "ingestion_only_during_scoring": True,
    }
    _check_tasks([task], Path("."), findings)
    assert findings.lines()[0] == (
        "tasks[0]: ingestion_only_during_scoring runs the ingestion program, and the participant "
        "code it runs, in the scoring step beside the reference data; expected "
        "ingestion_only_during_scoring absent or false, found true"
    )


# ---------------------------------------------------------------- CodaLab v1.5 (legacy) bundles


@pytest.fixture(scope="module")
def legacy_tree(bundles):
    return bundles.small(legacy=True).tree


def test_legacy_programs_carry_the_metadata_file_the_v1_worker_reads(legacy_tree):
    with zipfile.ZipFile(legacy_tree / "scoring_program.zip") as zf:
        names = zf.namelist()
        assert "metadata" in names and "metadata.yaml" not in names
        command = yaml.safe_load(zf.read("metadata"))["command"]
    assert command == "python3 $program/score.py $input $output"


def test_legacy_phases_take_result_submissions_only(legacy_tree):
    """Issue 22 item 1: for a phase with an ingestion program v1.5 mounts the reference data where
    participant code runs (codalab-competitions tasks.py:165-176, v1 worker.py:325-331 and 587), so
    no legacy phase has one, and each is is_scoring_only (no prediction step, tasks.py:758-786)."""
    doc = yaml.safe_load((legacy_tree / "competition.yaml").read_text(encoding="utf-8"))
    for number, phase in doc["phases"].items():
        assert "ingestion_program" not in phase, f"phase {number}"
        assert phase["is_scoring_only"] is True, f"phase {number}"
    assert not (legacy_tree / "ingestion_program.zip").exists()


def _zip_bytes(files: dict) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return buffer.getvalue()


KIT_CODE = REPO / "starting_kit" / "sample_submissions" / "code_submission"
#: Submissions that would read the gold wherever v1.5 lets participant code run beside it.
V15_ATTACKS = {
    "the kit's code submission": {
        "model.py": (KIT_CODE / "model.py").read_text(encoding="utf-8"),
        "metadata": (KIT_CODE / "metadata").read_text(encoding="utf-8"),
    },
    "a metadata with its own command": {
        "model.py": "print(open('../../hidden_ref/sim.jsonl').read())\n",
        "metadata": "command: python3 $program/model.py\n",
    },
    "a sitecustomize.py that runs inside ingest.py": {
        "sitecustomize.py": "import glob; print(glob.glob('/tmp/codalab/hidden_ref/*'))\n",
        "model.py": "class Model: pass\n",
        "metadata": "description: x\n",
    },
}


@pytest.mark.parametrize("scoring_only", [True, False], ids=["scoring-only", "editor-flipped"])
@pytest.mark.parametrize("attack", sorted(V15_ATTACKS))
def test_no_v15_container_running_participant_code_reaches_the_gold(
    legacy_tree, tmp_path, scoring_only, attack
):
    """The v1 worker's layout, emulated from its source (tests/v1_worker_layout.py), for every phase
    of the legacy bundle, also after an organiser unticks "Results Scoring Only" in v1.5's phase
    editor (codalab-competitions forms.py:79): no container running participant code mounts a
    file of the phase's reference data."""
    from v1_worker_layout import prediction_containers, reachable_gold

    doc = yaml.safe_load((legacy_tree / "competition.yaml").read_text(encoding="utf-8"))
    submission = _zip_bytes(V15_ATTACKS[attack])
    for number, phase in doc["phases"].items():
        phase = dict(phase, is_scoring_only=scoring_only)
        containers = prediction_containers(legacy_tree, phase, submission, tmp_path / f"p{number}")
        assert reachable_gold(legacy_tree, phase, containers) == {}, f"phase {number}"


def test_the_v15_emulation_finds_the_gold_beside_an_ingestion_program(legacy_tree, tmp_path):
    """The emulation's own check, on the layout the legacy bundle had before issue 22: a phase with
    an ingestion program puts the reference data in the ingestion container, and codajudge check
    refuses such a phase."""
    from codajudge.bundle.check import check_bundle, v2
    from codajudge.legacy import check as legacy_check
    from v1_worker_layout import prediction_containers, reachable_gold

    tree = tmp_path / "bundle"
    shutil.copytree(legacy_tree, tree)
    (tree / "ingestion_program.zip").write_bytes(
        _zip_bytes(
            {
                "metadata": "command: python3 $ingestion_program/ingest.py $input $output\n",
                "ingest.py": "",
            }
        )
    )
    doc = yaml.safe_load((tree / "competition.yaml").read_text(encoding="utf-8"))
    phase = dict(doc["phases"][2], ingestion_program="ingestion_program.zip", is_scoring_only=False)
    submission = _zip_bytes(V15_ATTACKS["the kit's code submission"])
    containers = prediction_containers(tree, phase, submission, tmp_path / "run")
    found = reachable_gold(tree, phase, containers)
    assert list(found) == ["the ingestion program running model.py"]
    assert all("/hidden_ref/" in path for path in found["the ingestion program running model.py"])
    doc["phases"][2] = phase
    (tree / "competition.yaml").write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    problems = check_bundle(tree, (v2, legacy_check))
    assert len(problems) == 1 and problems[0].startswith("phases[2]: a CodaLab v1.5 phase with an")
    assert "found ingestion_program: ingestion_program.zip" in problems[0]


@pytest.mark.parametrize("status", ["ok", "failed"])
def test_a_legacy_phase_ignores_a_status_file_in_the_upload(legacy_tree, tmp_path, status):
    """No ingestion program runs before v1.5's scoring, so an ingestion_status.json in a result
    submission is the participant's: every track is scored, its notes and failure are not heeded
    and a note says it was ignored."""
    from codajudge.programs.score import IGNORED_STATUS, score_submission_folder

    ref, res = tmp_path / "ref", tmp_path / "res"
    zipfile.ZipFile(legacy_tree / "reference_data_practice.zip").extractall(ref)
    with zipfile.ZipFile(legacy_tree / "starting_kit.zip") as kit:
        sample = kit.read("sample_submissions/result_submission.zip")
    zipfile.ZipFile(io.BytesIO(sample)).extractall(res)
    spec = read_spec(ref)
    first = spec.tracks[0].id
    forged = dict(status=status, message="x", tracks=[first], notes=["you won"], names={first: "f"})
    (res / "ingestion_status.json").write_text(json.dumps(forged), encoding="utf-8")
    result = score_submission_folder(spec, ref, res)
    assert list(result.tracks) == [track.id for track in spec.tracks]
    assert result.warnings == [IGNORED_STATUS]


def test_legacy_kit_says_codalab_takes_result_submissions_only(legacy_tree):
    with zipfile.ZipFile(legacy_tree / "starting_kit.zip") as zf:
        readme = zf.read("README.md").decode("utf-8")
    note = readme.index("## Submitting on CodaLab")
    assert note < readme.index("## Two ways to submit")  # read before how to submit
    assert "result submissions only" in readme[note:] and "hidden_ref" in readme[note:]
    assert "ingestion_program/ingest.py EVALUATION_DATA predictions" in readme[note:]


def test_the_legacy_kit_ships_no_codabench_competition_yaml_and_still_runs_locally(
    legacy_tree, tmp_path
):
    """The v1.5 starting_kit.zip shipped the Codabench competition.yaml (version 2, ingestion
    programs), which v1.5 participants took for the competition's: its local phases are
    run_local.yaml now, which its run_local.py reads, and its README names no competition.yaml."""
    kit = tmp_path / "kit"
    with zipfile.ZipFile(legacy_tree / "starting_kit.zip") as zf:
        zf.extractall(kit)
    assert not (kit / "competition.yaml").exists() and (kit / "run_local.yaml").is_file()
    assert "competition.yaml" not in (kit / "README.md").read_text(encoding="utf-8")
    command = [sys.executable, str(kit / "run_local.py"), str(kit), "baseline:random"]
    done = subprocess.run(
        [*command, "--phase", "practice"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr


def test_the_legacy_kit_scores_a_zip_of_code_and_predictions_as_v15_does(legacy_tree, tmp_path):
    """Trial 60, item 1: run_local.py ran the model.py of a zip that also held prediction files, a
    score v1.5 never gives (it scores the prediction files); in a scoring-only phase the zip is
    scored as results, model.py noted as ignored, and a zip of model.py alone is refused."""
    from codajudge.programs.run_local import run_once

    kit = tmp_path / "kit"
    with zipfile.ZipFile(legacy_tree / "starting_kit.zip") as zf:
        zf.extractall(kit)
    results = kit / "sample_submissions" / "result_submission.zip"
    model = (kit / "sample_submissions" / "code_submission" / "model.py").read_bytes()
    both, code = tmp_path / "both.zip", tmp_path / "code.zip"
    with zipfile.ZipFile(results) as source, zipfile.ZipFile(both, "w") as target:
        for name in source.namelist():
            target.writestr(name, source.read(name))
        target.writestr("model.py", model)
    with zipfile.ZipFile(code, "w") as target:
        target.writestr("model.py", model)
    notes: list[str] = []
    assert run_once(kit, str(both), "practice", notes=notes) == run_once(
        kit, str(results), "practice"
    )
    assert "file 'model.py' matches no track and was ignored" in notes
    assert not [note for note in notes if "holds only the zip" in note]
    with pytest.raises(SubmissionError, match="the zip holds model.py, a code submission, and no"):
        run_once(kit, str(code), "practice")


def test_the_legacy_kit_scores_a_folder_of_code_and_predictions_as_its_zip(legacy_tree, tmp_path):
    """Trial 60 (regression), legacy2: run_local.py scored a zip of model.py and prediction files
    as results (what v1.5 gives) but ran the folder of the same files as code; in a scoring-only
    phase both are scored as results, and a folder of model.py alone is still run as code, with a
    note that v1.5 takes the prediction files it writes."""
    from codajudge.programs.run_local import run_once

    kit = tmp_path / "kit"
    with zipfile.ZipFile(legacy_tree / "starting_kit.zip") as zf:
        zf.extractall(kit)
    results = kit / "sample_submissions" / "result_submission.zip"
    code = kit / "sample_submissions" / "code_submission"
    both = tmp_path / "both"
    with zipfile.ZipFile(results) as source:
        source.extractall(both)
    shutil.copyfile(code / "model.py", both / "model.py")
    notes: list[str] = []
    assert run_once(kit, str(both), "practice", notes=notes) == run_once(
        kit, str(results), "practice"
    )
    assert "file 'model.py' matches no track and was ignored" in notes
    notes.clear()
    run_once(kit, str(code), "practice", notes=notes)
    assert [note for note in notes if "CodaLab v1.5 runs no code" in note]
    readme = " ".join((kit / "README.md").read_text(encoding="utf-8").split())
    assert "`run_local.py` and `ingest.py` read a folder so too" in readme


def test_the_legacy_kit_notes_a_folder_run_as_code_in_every_phase(tmp_path):
    """Trial 61, item 2: the legacy kit's README says a folder of model.py and no prediction file
    "is run as code, with a note"; the note was printed in the practice phase only, not in the
    local one (whose data did not say the phase is v1.5's, scoring only). Every phase of the kit
    prints it, and refuses a zip of model.py alone as v1.5 does."""
    from codajudge.bundle.edition import load_edition
    from codajudge.legacy.build import build_legacy
    from codajudge.programs.run_local import run_once
    from small_edition import make_edition

    folder = make_edition(tmp_path / "edition")
    config = yaml.safe_load((folder / "edition.yaml").read_text(encoding="utf-8"))
    config["local"] = {"fraction": 0.25, "seed": 1}  # the small edition with a local phase
    (folder / "edition.yaml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    edition = load_edition(folder)
    kit = tmp_path / "kit"
    with zipfile.ZipFile(
        build_legacy(edition, folder, tmp_path / "dist").tree / "starting_kit.zip"
    ) as zf:
        zf.extractall(kit)
    readme = " ".join((kit / "README.md").read_text(encoding="utf-8").split())
    assert "one with `model.py` and no prediction file is run as code, with a note," in readme
    code = kit / "sample_submissions" / "code_submission"
    zipped = tmp_path / "code.zip"
    with zipfile.ZipFile(zipped, "w") as target:
        target.write(code / "model.py", "model.py")
    phases = yaml.safe_load((kit / "run_local.yaml").read_text(encoding="utf-8"))["phases"]
    names = [phase["name"].split(" - ")[-1].lower() for phase in phases]
    assert "local" in names and "practice" in names, names
    for phase in names:
        notes: list[str] = []
        run_once(kit, str(code), phase, notes=notes)
        assert [note for note in notes if "CodaLab v1.5 runs no code" in note], (phase, notes)
        with pytest.raises(SubmissionError, match="the zip holds model.py, a code submission"):
            run_once(kit, str(zipped), phase)


def test_the_legacy_kit_readme_says_v15_runs_only_the_scoring_program(legacy_tree):
    """Trial 60, item 2: the v1.5 kit's README said it holds "the same ingestion and scoring
    programs the platform runs" and that each command "runs Codabench's two steps"; it says what
    v1.5 runs (the scoring program) and that the first step only checks and copies result files."""
    with zipfile.ZipFile(legacy_tree / "starting_kit.zip") as zf:
        readme = " ".join(zf.read("README.md").decode("utf-8").split())
    assert "ingestion and scoring programs the platform runs" not in readme
    assert "Codabench's two steps" not in readme
    assert "CodaLab v1.5 runs only the scoring program" in readme
    assert "the ingestion program only checks the prediction files and copies them" in readme


def test_the_legacy_kit_names_run_local_yaml_where_it_says_its_phases(legacy_tree, tmp_path):
    """Trial 60, item 3: the v1.5 kit holds run_local.yaml (its phases), but its README said "It is
    itself a small competition bundle" naming no file, and ``run_local.py --help`` named only
    competition.yaml: both name run_local.yaml."""
    kit = tmp_path / "kit"
    with zipfile.ZipFile(legacy_tree / "starting_kit.zip") as zf:
        zf.extractall(kit)
    readme = (kit / "README.md").read_text(encoding="utf-8")
    assert (
        "With `run_local.yaml`, the phases its `run_local.py` reads, it is itself a small" in readme
    )
    command = [sys.executable, str(kit / "run_local.py"), "--help"]
    shown = subprocess.run(command, capture_output=True, text=True, timeout=60).stdout
    assert "run_local.yaml in a CodaLab v1.5 kit" in " ".join(shown.split())


def test_legacy_kit_readme_and_input_data_are_true_for_v15(legacy_tree):
    """v1.5's Files tab gives the evaluation data as input_data_evaluation.zip and runs no ingestion
    program: the kit's README says so (its ``legacy`` variant), and each phase's input data marks
    the phase results-only, for the kit's ingestion program to refuse a zip of code as v1.5 does."""
    with zipfile.ZipFile(legacy_tree / "starting_kit.zip") as zf:
        readme = zf.read("README.md").decode("utf-8")
    section = readme[readme.index("## The evaluation phase") :]
    assert "input_data/evaluation` in the bundle" not in section
    assert "the same ingestion program the platform" not in section
    assert "ingest.py input_data_evaluation.zip checked my_submission.zip" in section
    for data in sorted(legacy_tree.glob("input_data_*.zip")):
        with zipfile.ZipFile(data) as zf:
            assert json.loads(zf.read("task.json"))["scoring_only"] is True, data.name


def test_legacy_pages_say_how_to_submit_and_what_the_platforms_do_with_dates(legacy_tree):
    doc = yaml.safe_load((legacy_tree / "competition.yaml").read_text(encoding="utf-8"))
    html = doc["html"]
    assert {"overview", "evaluation", "terms", "data", "Baselines", "Timeline"} <= set(html)
    data = (legacy_tree / html["data"]).read_text(encoding="utf-8")
    assert "Submitting on CodaLab" in data and "<strong>result submissions only</strong>" in data
    assert "<code>hidden_ref</code>" in data
    timeline = (legacy_tree / html["Timeline"]).read_text(encoding="utf-8")
    # small edition: practice 2027-01-01.., evaluation starts 2027-02-01, post-campaign 2027-02-15
    assert "<td>2027-02-01 00:00:00</td><td>2027-01-31 00:00:00</td>" in timeline
    assert "<td>2027-02-15 00:00:00</td><td>2027-02-14 00:00:00</td>" in timeline
    assert doc["force_submission_to_leaderboard"] is True
    assert "&lt;!--" not in data  # the generated marker stays an HTML comment, never shown as text


def test_the_sample_code_submission_carries_a_commandless_metadata():
    meta = yaml.safe_load(
        (REPO / "starting_kit" / "sample_submissions" / "code_submission" / "metadata").read_text(
            encoding="utf-8"
        )
    )
    assert set(meta) == {"description"}


def test_legacy_bundles_pass_the_kits_own_checker(legacy_tree, tmp_path, capsys):
    # codajudge check refuses a legacy program zip without 'metadata'; the legacy zip passes it (a
    # folder is opened as its zip is: test_check_bundle checks the v2 bundle in both forms)
    from codajudge.bundle.zipdet import tree_files, write_zip
    from codajudge.programs.check import main as check_main

    target = tmp_path / "small-legacy-check.zip"
    write_zip(tree_files(legacy_tree), target)
    assert check_main([str(target)]) == 0, capsys.readouterr()
    assert "ok, no problems found" in capsys.readouterr().out


def test_the_kit_readme_says_checked_holds_the_tracks_files_by_their_ids():
    """``ingest.py ... checked my.zip`` writes ``<track_id>.tsv`` files, not the submitted ones: the
    README said it "copies its files into checked/"; each of its 3 sentences says what it writes."""
    templates = REPO / "codajudge" / "templates"
    names = ("kit_readme/first_commands_nothing", "kit_readme/evaluation_hidden")
    for name in (*names, "legacy/evaluation_hidden"):
        text = " ".join((templates / f"{name}.md").read_text(encoding="utf-8").split())
        assert "copies its files" not in text, name
        assert "into `checked/` as `<track_id>.tsv` (not under the names in the zip)" in text, name
