"""The README's "Making a new edition", step by step, as an organiser would run it: copy the default
edition, edit its name, title and dates, replace a dataset's data with new kit item files, build with
the command line, check it with build_bundle.py --check (and the offline Codabench validator when
present), and run a baseline as a participant."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import shared_checker

REPO = Path(__file__).resolve().parents[1]
WORDS = (
    "river stone light music window garden paper coffee train bridge winter market road song cloud "
    "table city night bird field"
).split()


def run(*command: str, cwd: Path) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, *command], capture_output=True, text=True, cwd=cwd)
    assert done.returncode == 0, f"{command}:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr
    return done


def similarity_items(rng: random.Random, split: str, n: int) -> list:
    """Pairs whose gold is the share of shared words x 5, so word overlap predicts it well."""
    items = []
    for i in range(n):
        first = rng.sample(WORDS, 6)
        kept = rng.randint(0, 6)
        second = first[:kept] + rng.sample([w for w in WORDS if w not in first], 6 - kept)
        rng.shuffle(second)
        items.append(
            {
                "id": f"new-{split}-{i}",
                "texts": [" ".join(first), " ".join(second)],
                "lang": "en",
                "score": round(5 * kept / 6, 2),
            }
        )
    return items


@pytest.fixture(scope="module")
def organiser(tmp_path_factory):
    """Steps 1-5, in a temporary folder; returns (the built bundle folder, the zip, the config)."""
    if not (REPO / "editions" / "default" / "data").is_dir():
        pytest.skip("editions/default/data is not there yet")
    work = tmp_path_factory.mktemp("organiser")
    # 1. copy the default edition
    edition = work / "myedition"
    shutil.copytree(REPO / "editions" / "default", edition)
    # 2. edit name, title and dates
    path = edition / "edition.yaml"
    config = yaml.safe_load(path.read_text(encoding="utf-8"))
    config["name"] = "myedition"
    config["title"] = "My shared task 2028"
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
    # 3. replace a dataset's data with new kit item files
    dataset = config["datasets"]["sts_en"]["path"]
    rng = random.Random(2028)
    for split, n in (("train", 60), ("dev", 40), ("test", 50)):
        rows = similarity_items(rng, split, n)
        (edition / dataset / f"{split}.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8"
        )
    # 4. build
    out = work / "dist"
    done = run(
        str(REPO / "build_bundle.py"), "--edition", str(edition), "--out", str(out), cwd=work
    )
    assert "edition myedition: My shared task 2028" in done.stdout
    # 5. check, with the kit's own checker
    zip_path = out / "myedition.zip"
    checked = run(str(REPO / "build_bundle.py"), "--check", str(zip_path), cwd=work)
    assert "ok, no problems found" in checked.stdout
    return out / "myedition", zip_path, config


def test_the_offline_codabench_validator_agrees(organiser):
    """The second opinion of step 5, when ../shared/tools is beside the repository."""
    _, zip_path, _ = organiser
    checked = run(str(shared_checker()), "--strict", str(zip_path), cwd=zip_path.parent)
    assert "0 error(s), 0 runtime problem(s), 0 warning(s)" in checked.stdout


def test_the_new_edition_carries_its_name_title_dates_and_data(organiser):
    tree, _, config = organiser
    doc = yaml.safe_load((tree / "competition.yaml").read_text(encoding="utf-8"))
    assert doc["title"] == "My shared task 2028"
    assert [p["start"] for p in doc["phases"]] == [p["start"] for p in config["phases"]]
    gold = [
        json.loads(line)
        for line in (tree / "reference_data" / "evaluation" / "sts_en.jsonl")
        .read_text(encoding="utf-8")
        .split("\n")
        if line
    ]
    assert [g["id"] for g in gold] == [f"new-test-{i}" for i in range(50)]


def test_a_participant_runs_the_cosine_baseline_on_the_practice_phase(organiser, tmp_path):
    """6. python3 starting_kit/run_local.py dist/myedition.zip baseline:cosine_bow --phase practice"""
    _, zip_path, config = organiser
    done = run(
        str(REPO / "starting_kit" / "run_local.py"),
        str(zip_path),
        "baseline:cosine_bow",
        "--phase",
        "practice",
        "--output",
        str(tmp_path / "out"),
        cwd=tmp_path,
    )
    assert "baseline:cosine_bow on the practice phase" in done.stdout
    scores = json.loads((tmp_path / "out" / "scores.json").read_text(encoding="utf-8"))
    track = next(t["id"] for t in config["tracks"] if t["dataset"] == "sts_en")
    # The new data's gold is the word overlap, which the cosine baseline measures: a high correlation.
    assert scores[f"{track}_pearson"] > 0.8
    assert set(scores) >= {"primary", f"{track}_pearson"}
