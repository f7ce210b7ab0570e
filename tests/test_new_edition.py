"""The README's "Making a new edition", step by step, as an organiser would run it: ``codajudge new``,
a build refused while the pages are placeholders, the pages written, the organiser's own CSV named in
edition.yaml (table importer, where, split), the name, title and dates edited, a build, a check with
build_bundle.py --check (and the offline Codabench validator when present), ``codajudge baselines``,
and a participant running a baseline."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import shutil
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
import yaml

from conftest import shared_checker

REPO = Path(__file__).resolve().parents[1]
WORDS = (
    "river stone light music window garden paper coffee train bridge winter market road song cloud "
    "table city night bird field"
).split()


def in_process(main, args, cwd: Path) -> subprocess.CompletedProcess:
    """``main(args)`` run in ``cwd`` in this process: its exit code and what it printed. An
    exception it lets out fails the test here, as a traceback would have in a process of its own."""
    out, err, here = io.StringIO(), io.StringIO(), os.getcwd()
    os.chdir(cwd)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(list(args))
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def codajudge(*args: str, cwd: Path, ok: bool = True) -> subprocess.CompletedProcess:
    """``codajudge ARGS`` by the command's own ``main`` (test_cli starts ``python -m codajudge``
    as a command of its own)."""
    from codajudge.cli import main

    done = in_process(main, args, cwd)
    assert (done.returncode == 0) == ok, f"{args}:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done


def run(*command: str, cwd: Path) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, *command], capture_output=True, text=True, cwd=cwd)
    assert done.returncode == 0, f"{command}:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr
    return done


def similarity_rows(rng: random.Random, n: int) -> list:
    """Pairs whose gold is the share of shared words x 5 (give or take 0.4: a baseline that reproduced
    the hidden gold exactly would be refused as a leak), so word overlap predicts it well; every
    fourth pair is of another genre, which the edition leaves out with `where`."""
    rows = []
    for i in range(n):
        first = rng.sample(WORDS, 6)
        kept = rng.randint(0, 6)
        second = first[:kept] + rng.sample([w for w in WORDS if w not in first], 6 - kept)
        rng.shuffle(second)
        rows.append(
            {
                "pair_id": f"new-{i}",
                "sentence_a": " ".join(first),
                "sentence_b": " ".join(second),
                "similarity": round(min(5.0, max(0.0, 5 * kept / 6 + rng.uniform(-0.4, 0.4))), 2),
                "genre": "other" if i % 4 == 3 else "main",
            }
        )
    return rows


@pytest.fixture(scope="module")
def organiser(tmp_path_factory):
    """Steps 1-6, in a temporary folder; returns (the built bundle folder, the zip, the config)."""
    work = tmp_path_factory.mktemp("organiser")
    # 1. a new edition folder
    codajudge("new", "myedition", cwd=work)
    edition = work / "myedition"
    # 2. an unchanged build is refused, naming the placeholder pages
    refused = codajudge("build", "--edition", str(edition), "--out", "dist", cwd=work, ok=False)
    for page in ("overview.md", "terms.md"):
        assert f"myedition/pages/{page}: the page is still the placeholder" in refused.stderr
    for key in ("title", "description"):
        assert f"edition.yaml: {key}: '{key}' is still the placeholder" in refused.stderr
    for page, text in (("overview.md", "# My task\n\nPairs.\n"), ("terms.md", "# Terms\n\nCC0.\n")):
        (edition / "pages" / page).write_text(text, encoding="utf-8")
    # 3. the organiser's own CSV, its columns, a filter and a cut into splits
    rng = random.Random(2028)
    rows = similarity_rows(rng, 200)
    with open(edition / "data" / "pairs.csv", "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    path = edition / "edition.yaml"
    config = yaml.safe_load(path.read_text(encoding="utf-8"))
    config["datasets"]["pairs"] = {
        "importer": "table",
        "path": "data/pairs.csv",
        "columns": {"id": "pair_id", "texts": ["sentence_a", "sentence_b"], "score": "similarity"},
        "lang": "en",
        "where": {"genre": "main"},
        "split": {"train": 0.6, "dev": 0.2, "test": 0.2, "seed": 7},
    }
    # 4. title, description and dates
    config["title"] = "My shared task 2028"
    config["description"] = "Similarity of sentence pairs, from the organisers' own table."
    dates = [
        ("2028-01-10 00:00:00", "2028-02-27 23:59:59"),
        ("2028-03-01 00:00:00", "2028-03-10 23:59:59"),
        ("2028-03-11 00:00:00", None),
    ]
    for phase, (start, end) in zip(config["phases"], dates):
        phase["start"] = start
        if end:
            phase["end"] = end
    path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8")
    # 5. build (that a second build gives the same bytes: test_editions, REBUILT)
    built = codajudge(
        "build", "--edition", str(edition), "--data", str(edition), "--out", "dist", cwd=work
    )
    assert "edition myedition: My shared task 2028" in built.stdout
    zip_path = work / "dist" / "myedition.zip"
    # 6. check, with the kit's own checker (build_bundle.py --check's main: test_check_bundle
    # starts the script itself)
    from codajudge.programs.build import main as build_bundle

    checked = in_process(build_bundle, ["--check", str(zip_path)], work)
    assert checked.returncode == 0 and "ok, no problems found" in checked.stdout, checked.stdout
    return work / "dist" / "myedition", zip_path, config


def test_the_offline_codabench_validator_agrees(organiser):
    """The second opinion of step 6, when ../shared/tools is beside the repository."""
    _, zip_path, _ = organiser
    checked = run(str(shared_checker()), "--strict", str(zip_path), cwd=zip_path.parent)
    assert "0 error(s), 0 runtime problem(s), 0 warning(s)" in checked.stdout


def test_the_new_edition_carries_its_name_title_dates_and_data(organiser):
    tree, _, config = organiser
    doc = yaml.safe_load((tree / "competition.yaml").read_text(encoding="utf-8"))
    assert doc["title"] == "My shared task 2028"
    assert [p["start"] for p in doc["phases"]] == [p["start"] for p in config["phases"]]
    counts = {}
    for phase, name in (("practice", "pairs.jsonl"), ("evaluation", "pairs.jsonl")):
        lines = (tree / "reference_data" / phase / name).read_text(encoding="utf-8").split("\n")
        counts[phase] = [json.loads(line)["id"] for line in lines if line]
    train = (tree / "input_data" / "evaluation" / "pairs.train.jsonl").read_text(encoding="utf-8")
    train_ids = [json.loads(line)["id"] for line in train.split("\n") if line]
    # 150 rows of genre main: 90 / 30 / 30, disjoint
    assert (len(train_ids), len(counts["practice"]), len(counts["evaluation"])) == (90, 30, 30)
    everything = train_ids + counts["practice"] + counts["evaluation"]
    assert len(set(everything)) == 150 and all(int(i.split("-")[1]) % 4 != 3 for i in everything)


def test_codajudge_baselines_prints_every_baselines_scores_with_titles(organiser):
    tree, _, _ = organiser
    work = tree.parent.parent
    done = codajudge(
        "baselines", "myedition", "--data", "myedition", "--phase", "practice", cwd=work
    )
    table = done.stdout.split("Baselines on the practice phase of edition 'myedition':")[1]
    assert "random" in table and "most_frequent" in table and "cosine_bow" in table
    assert "Similarity Pearson r" in table and "primary score" in table


def test_a_participant_runs_the_cosine_baseline_on_the_practice_phase(organiser, tmp_path):
    """python3 starting_kit/run_local.py dist/myedition.zip baseline:cosine_bow --phase practice,
    by the script's ``main`` in this process (the script itself: the kit README command below)"""
    from codajudge.programs.run_local import main as run_local

    _, zip_path, config = organiser
    args = [str(zip_path), "baseline:cosine_bow", "--phase", "practice"]
    done = in_process(run_local, [*args, "--output", str(tmp_path / "out")], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "baseline:cosine_bow on the practice phase" in done.stdout
    scores = json.loads((tmp_path / "out" / "scores.json").read_text(encoding="utf-8"))
    track = next(t["id"] for t in config["tracks"] if t["dataset"] == "pairs")
    # The new data's gold is the word overlap, which the cosine baseline measures: a high correlation.
    assert scores[f"{track}_pearson"] > 0.8
    assert set(scores) >= {"primary", f"{track}_pearson"}


def test_a_copy_of_the_default_edition_under_another_name_is_refused_naming_its_pages(tmp_path):
    """The default's overview and terms describe its sample data and licence (CC0); a page still
    mostly theirs is refused, however its title was edited (a new first line once passed)."""
    shutil.copytree(
        REPO / "editions" / "default", tmp_path / "copied", ignore=shutil.ignore_patterns("data")
    )
    path = tmp_path / "copied" / "edition.yaml"
    config = yaml.safe_load(path.read_text(encoding="utf-8"))
    config["name"] = "copied"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    terms = tmp_path / "copied" / "pages" / "terms.md"
    lines = terms.read_text(encoding="utf-8").split("\n")
    terms.write_text("\n".join(["# Terms of Copied 2027"] + lines[1:]), encoding="utf-8")
    done = codajudge("check", str(path), cwd=tmp_path, ok=False)
    assert (
        "copied/pages/overview.md: the page is still mostly the default edition's "
        "pages/overview.md (its sample data, dates and licence); expected at most half of its "
        "non-blank lines the default page's, found 13 of its 13 non-blank lines"
    ) in done.stderr
    assert (
        "copied/pages/terms.md: the page is still mostly the default edition's pages/terms.md"
    ) in done.stderr
    assert "found 6 of its 7 non-blank lines" in done.stderr and done.returncode == 1


def test_a_page_left_from_a_copied_shipped_edition_is_noted_and_no_shipped_edition_has_one(
    tmp_path,
):
    """An edition copied from a shipped one (new name and overview) whose terms are still the old
    edition's (its dates, limits and tracks) is noted, not refused; no shipped edition's page is
    mostly another's."""
    copied = Path(shutil.copytree(REPO / "editions" / "sts2017", tmp_path / "sts2027"))
    config = (copied / "edition.yaml").read_text(encoding="utf-8")
    (copied / "edition.yaml").write_text(config.replace("name: sts2017", "name: sts2027"))
    (copied / "pages" / "overview.md").write_text("# STS 2027\n\nOur own task.\n")
    done = codajudge("check", str(copied), cwd=tmp_path)
    assert (
        done.stdout.startswith(
            "note: pages/terms.md is mostly pages/terms.md of edition 'sts2017' ("
        )
        and "tracks): reusing an edition? make it describe this one" in done.stdout
    )
    assert "overview.md" not in done.stdout and done.returncode == 0
    from codajudge.bundle.edition import load_edition
    from codajudge.bundle.placeholders import reused_page_notes

    for folder in sorted((REPO / "editions").iterdir()):
        assert reused_page_notes(load_edition(folder)) == [], folder.name


def test_codajudge_new_refuses_an_existing_folder_and_a_name_that_is_not_plain(tmp_path):
    (tmp_path / "taken").mkdir()
    done = codajudge("new", "taken", cwd=tmp_path, ok=False)
    # a usage mistake (exit 2), not a problem of a bundle or its data
    assert "taken: already exists" in done.stderr and done.returncode == 2
    assert "bundle" not in done.stderr
    done = codajudge("new", "../out", cwd=tmp_path, ok=False)
    assert "'NAME' must be a plain name" in done.stderr and not (tmp_path.parent / "out").exists()
    # a path as NAME is a usage mistake (exit 2), told the command that writes that folder
    done = codajudge("new", str(tmp_path / "x" / "ed"), cwd=tmp_path, ok=False)
    assert done.returncode == 2 and "organisers must fix" not in done.stderr, done.stderr
    assert f"run codajudge new ed --out {tmp_path / 'x'}" in done.stderr


def _written(work: Path, name: str) -> Path:
    """``codajudge new NAME`` with only its placeholders rewritten (pages, title, description)."""
    codajudge("new", name, cwd=work)
    edition = work / name
    for page in ("overview.md", "terms.md"):
        (edition / "pages" / page).write_text("# Mine\n\nThe task.\n", encoding="utf-8")
    config = edition / "edition.yaml"
    text = config.read_text(encoding="utf-8").replace(f"{name}: a new shared task", "Mine")
    text = text.replace("One paragraph: what is predicted, from which data.", "Pairs scored.")
    config.write_text(text, encoding="utf-8")
    return edition


def test_the_new_editions_kit_scores_its_first_readme_command(organiser, tmp_path):
    """The organiser's steps, then the kit README's first run_local.py command in the starting kit:
    it scores the local phase that ``codajudge new`` declares. (The template's own data, which the
    organiser replaces, is built by the one-text edition below.)"""
    tree, _, _ = organiser
    kit = Path(shutil.copytree(tree / "starting_kit", tmp_path / "starting_kit"))
    readme = (kit / "README.md").read_text(encoding="utf-8")
    first = next(line for line in readme.splitlines() if line.startswith("python3 run_local.py"))
    assert first == "python3 run_local.py . baseline:cosine_bow --phase local"
    done = run(*first.split()[1:], "--output", str(tmp_path / "out"), cwd=kit)
    assert "Similarity Pearson r" in done.stdout
    assert json.loads((tmp_path / "out" / "scores.json").read_text())["sim_pearson"] > 0.5


@pytest.fixture(scope="module")
def one_text_no_local(tmp_path_factory):
    """``codajudge new`` with its items cut to one text and its local phase removed, built: the
    template's own data (which the organiser replaces) through a whole build, and the two things
    such an edition makes the builder say. Returns (the edition folder, the build's output)."""
    work = tmp_path_factory.mktemp("single")
    edition = _written(work, "single")
    config = edition / "edition.yaml"
    text = config.read_text(encoding="utf-8").replace("local: {fraction: 0.2, seed: 1}", "")
    config.write_text(text.replace("texts: [sentence1, sentence2]", "texts: [sentence1]"), "utf-8")
    built = codajudge("build", "--edition", "single", "--data", "single", "--out", "dist", cwd=work)
    return edition, built.stdout


def test_the_builder_warns_when_the_kit_can_score_no_phase_unless_the_edition_says_why(
    one_text_no_local, tmp_path
):
    built, printed = one_text_no_local
    assert "warning: the starting kit can score no phase" in printed
    assert "declare why with 'kit_scores_no_phase: REASON'" in printed
    edition = Path(shutil.copytree(built, tmp_path / "single"))
    config = edition / "edition.yaml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text + "kit_scores_no_phase: the practice gold is the test's\n", "utf-8")
    # with the reason declared, kit_warnings (what the build and the dry run print) gives nothing:
    # asked of the function rather than of a second build
    from codajudge.bundle.build import import_data, kit_warnings
    from codajudge.bundle.edition import load_edition

    declared = load_edition(edition)
    assert kit_warnings(declared, import_data(declared, edition)) == []


@pytest.fixture(scope="module")
def no_train(tmp_path_factory):
    """``codajudge new`` with its one dataset cut without a train share (``local`` still declared):
    (the edition, its data read)."""
    from codajudge.bundle.build import import_data
    from codajudge.bundle.edition import load_edition

    edition = _written(tmp_path_factory.mktemp("notrain"), "notrain")
    config = edition / "edition.yaml"
    text = config.read_text(encoding="utf-8").replace(
        "train: 0.5, dev: 0.25, test: 0.25", "dev: 0.5, test: 0.5"
    )
    config.write_text(text, encoding="utf-8")
    declared = load_edition(edition)
    return declared, import_data(declared, edition)


def test_a_declared_local_split_that_cannot_be_made_is_named_not_asked_for(no_train):
    """``local`` declared, every dataset cut without a train share: the warning names the dataset
    short of training items and why, instead of asking for the ``local`` already there."""
    from codajudge.bundle.build import kit_warnings

    (warning,) = kit_warnings(*no_train)
    assert warning.startswith(
        "warning: 'local' is declared, but dataset 'pairs' (track Similarity) has 0 training items "
        "and a local split needs at least 2"
    )
    assert "add 'local" not in warning


def test_the_data_page_says_which_datasets_have_no_training_split(no_train, tmp_path):
    """Their ``.train.jsonl`` is empty: the Data page says so, as the Baselines page and the kit's
    README do, rather than calling it the training split with gold."""
    from codajudge.bundle.build import write_pages

    write_pages(*no_train, tmp_path)
    page = (tmp_path / "pages" / "data.md").read_text(encoding="utf-8")
    assert "(the training split with gold; empty for `pairs`, which has no training split)" in page


def test_a_legacy_build_prints_the_notes_and_warnings_of_a_codabench_build(one_text_no_local):
    """``--legacy`` builds the same bundle first: its summary says what the v2 build's says."""
    built, printed = one_text_no_local
    legacy = codajudge(
        "build",
        "--edition",
        "single",
        "--data",
        "single",
        "--legacy",
        "--out",
        "legacy",
        cwd=built.parent,
    )
    notes = [line for line in printed.splitlines() if line.lstrip().startswith(("note", "warning"))]
    assert notes and all(line in legacy.stdout for line in notes)


def test_a_kit_without_a_practice_phase_names_the_phase_it_holds_and_its_check_runs(tmp_path):
    """An edition whose first phase is its evaluation (no practice phase) and whose kit scores
    nothing: the kit holds the evaluation phase's data, its sample answers that phase, and the
    README names that phase in every sentence and command; its format check runs as written."""
    edition = _written(tmp_path, "noprac")
    config = edition / "edition.yaml"
    text = config.read_text(encoding="utf-8").replace("local: {fraction: 0.2, seed: 1}", "")
    practice = text[text.index("  - id: practice") : text.index("  - id: evaluation")]
    config.write_text(text.replace(practice, ""), encoding="utf-8")
    codajudge("build", "--edition", "noprac", "--data", "noprac", "--out", "dist", cwd=tmp_path)
    kit = tmp_path / "dist" / "noprac" / "starting_kit"
    assert sorted(p.name for p in (kit / "input_data").iterdir()) == ["evaluation"]
    readme = (kit / "README.md").read_text(encoding="utf-8")
    assert "practice" not in readme
    assert "the evaluation phase" in readme
    check = next(line for line in readme.splitlines() if line.startswith("python3 ingestion"))
    assert check.split()[2] == "input_data/evaluation"
    assert check.split()[-1] == "sample_submissions/result_submission.zip"
    run(*check.split()[1:], cwd=kit)  # exits 0


def test_chaosnli_declares_why_its_kit_scores_no_phase():
    from codajudge.bundle.edition import load_edition

    assert "no training split" in load_edition(REPO / "editions" / "chaosnli").kit_scores_no_phase


def test_the_baselines_page_says_why_cosine_bow_cannot_differ_on_one_text(
    organiser, one_text_no_local
):
    """Items of one text give cosine_bow no pair to compare: it predicts as most_frequent does,
    and the Baselines page says so rather than showing two equal columns without a word; a new
    edition with two texts (the organiser's) says nothing of it."""
    tree, _, _ = organiser
    edition, _ = one_text_no_local
    page = (edition.parent / "dist" / "single" / "pages" / "baselines.md").read_text("utf-8")
    assert (
        "- **cosine_bow** cannot differ from another baseline here: on Similarity, whose items "
        "have fewer than 2 texts, it has nothing to compare and predicts as most_frequent does."
    ) in page
    assert "cannot differ" not in (tree / "pages" / "baselines.md").read_text("utf-8")


def test_the_edition_yaml_header_gives_the_commands_new_prints(tmp_path):
    """Trial 58, item 3: ``new e2 --out DIR`` wrote ``# Build: ... --edition e2 --data e2``, which
    runs from nowhere; the header's commands are those ``new`` prints, which name the folder."""
    done = codajudge("new", "e2", "--out", str(tmp_path / "x"), cwd=tmp_path)
    printed = [line.strip() for line in done.stdout.splitlines()[1:] if line.strip()]
    header = (tmp_path / "x" / "e2" / "edition.yaml").read_text(encoding="utf-8").splitlines()
    said = {line.split(":", 1)[0]: line.split(": ", 1)[1] for line in header[2:4]}
    assert (
        said["# Build"].split("   (")[0] == printed[1]
        and f"--data {tmp_path / 'x' / 'e2'}" in printed[1]
    )
    assert said["# Baselines"] == printed[0].replace(" check ", " baselines ", 1)


def test_a_copied_editions_config_texts_are_noted_though_its_pages_are_its_own(tmp_path):
    """Trial 60: a copy of the default edition outside the kit's editions/ folder, its pages
    rewritten, still had the default's title, description and phases' descriptions word for word,
    without a note; they are compared with every shipped edition's, and rewritten, noted no more."""
    from codajudge.bundle.edition import load_edition
    from codajudge.bundle.placeholders import reused_page_notes

    copied = Path(shutil.copytree(REPO / "editions" / "default", tmp_path / "mine"))
    config = yaml.safe_load((copied / "edition.yaml").read_text(encoding="utf-8"))
    (copied / "edition.yaml").write_text(yaml.safe_dump(config | {"name": "mine"}))
    for page in ("overview", "terms"):
        (copied / "pages" / f"{page}.md").write_text(f"# Mine\n\nMy own {page}.\n")
    assert reused_page_notes(load_edition(copied)) == [
        "edition.yaml: 5 of its 5 hand-written texts (title, description, phases (practice) "
        "description, phases (evaluation) description, phases (post-campaign) description; "
        "competition.yaml shows them) are still word for word those of edition 'default': "
        "reusing an edition? make them describe this one"
    ]
    config |= {"name": "mine", "title": "Mine", "description": "My pairs."}
    for phase in config["phases"]:
        phase["description"] = f"My {phase['id']}."
    (copied / "edition.yaml").write_text(yaml.safe_dump(config))
    assert reused_page_notes(load_edition(copied)) == []


def test_a_copied_editions_config_texts_still_the_old_editions_are_noted_with_its_pages(tmp_path):
    """A copy of a shipped edition (its pages still the old one's) whose phases' descriptions
    still name the old edition's test sets is noted for them too: competition.yaml shows them.
    A text rewritten is not named."""
    copied = Path(shutil.copytree(REPO / "editions" / "sts2017", tmp_path / "sts2028"))
    config = (copied / "edition.yaml").read_text(encoding="utf-8")
    config = config.replace("name: sts2017", "name: sts2028").replace("re-run", "2028")
    (copied / "edition.yaml").write_text(config, encoding="utf-8")
    done = codajudge("check", str(copied), cwd=tmp_path)
    assert (
        "note: edition.yaml: 4 of its 5 hand-written texts (description, phases (practice) "
        "description, phases (evaluation) description, phases (post-campaign) description; "
        "competition.yaml shows them) are still word for word those of edition 'sts2017': "
        "reusing an edition? make them describe this one"
    ) in done.stdout, done.stdout
