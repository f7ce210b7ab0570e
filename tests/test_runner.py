"""The local runner (issue 3): both steps as on Codabench, the time limit, no reference data for
submitted code, and the leaderboard row."""

import io
import json
import re
import time
from contextlib import redirect_stdout
from pathlib import Path
from typing import NamedTuple

import pytest

from codajudge.errors import ConfigError, SubmissionError
from codajudge.programs import run_local


@pytest.fixture(scope="module")
def bundle(bundles):
    return bundles.small()


REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "baseline, phase",
    [("most_frequent", "practice"), ("cosine_bow", "evaluation"), ("random", "post-campaign")],
)
def test_every_baseline_and_every_phase_of_the_default_bundle_run(baseline, phase, bundles):
    """The repository root is the default edition's bundle: each baseline runs, and each phase, once
    (a build already runs every baseline on every phase through the ingestion program). The practice
    phase's run is the one test_root_bundle and test_metrics_library take (``bundles.run``)."""
    scores, _ = bundles.run(REPO, f"baseline:{baseline}", phase)
    keys = [c["key"] for c in bundle_columns(REPO)]
    assert list(scores) == keys


def test_baselines_on_a_small_edition_cover_every_kind(bundle):
    scores = run_local.run_once(bundle.tree, "baseline:most_frequent", "evaluation")
    assert list(scores) == [c["key"] for c in bundle_columns(bundle.tree)]


def bundle_columns(tree: Path):
    import yaml

    return yaml.safe_load((tree / "competition.yaml").read_text())["leaderboards"][0]["columns"]


def test_cli_on_the_zip_prints_the_leaderboard_row_and_keeps_outputs(bundle, tmp_path, capsys):
    code = run_local.main(
        [
            str(bundle.zip_path),
            "baseline:cosine_bow",
            "--phase",
            "practice",
            "--output",
            str(tmp_path / "out"),
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "Primary score" in printed and "sim Pearson r" in printed
    # each score's direction and range, read from the zip's extracted task.json before it goes
    assert re.search(r"\n  sim Pearson r +-?\d\.\d{4}  \(higher is better, -1 to 1\)\n", printed)
    kept = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert kept == [
        "detailed_results.csv",  # the practice phase's gold is public
        "detailed_results.html",
        "predictions",
        "scores.json",
        "scores.txt",
    ]
    assert (tmp_path / "out" / "predictions" / "sim.tsv").is_file()
    assert json.loads((tmp_path / "out" / "scores.json").read_text())["primary"] >= -1


def test_starting_kit_is_a_bundle_of_the_practice_phase(bundle, kit_result_run):
    """The kit's result submission's run is the one shared with the test below."""
    kit = bundle.tree / "starting_kit"
    scores = run_local.run_once(
        kit, str(kit / "sample_submissions" / "code_submission"), "practice"
    )
    assert "sim_pearson" in scores
    scores = json.loads((kit_result_run.output / "scores.json").read_text())
    assert "var_pe_mer" in scores
    with pytest.raises(ConfigError, match="no such phase"):
        run_local.run_once(kit, "baseline:random", "evaluation")


def _counting(reads: list):
    """Path.read_bytes that appends each competition.yaml it reads to ``reads``."""
    read_bytes = Path.read_bytes

    def counting(self, *args, **kwargs):
        if self.name == "competition.yaml":
            reads.append(self)
        return read_bytes(self, *args, **kwargs)

    return counting


class KitRun(NamedTuple):
    """run_local.py on the starting kit's result submission, its practice phase, outputs kept."""

    code: int
    printed: str
    yaml_reads: int
    output: Path


@pytest.fixture(scope="module")
def kit_result_run(bundle, tmp_path_factory):
    """run_local.py on the starting kit's result submission (``KitRun``), counting the reads of
    competition.yaml."""
    kit = bundle.tree / "starting_kit"
    output = tmp_path_factory.mktemp("kit_result") / "out"
    reads = []
    printed = io.StringIO()
    submission = str(kit / "sample_submissions" / "result_submission.zip")
    args = [str(kit), submission, "--phase", "practice", "--output", str(output)]
    with pytest.MonkeyPatch.context() as patch, redirect_stdout(printed):
        patch.setattr(Path, "read_bytes", _counting(reads))
        code = run_local.main(args)
    return KitRun(code, printed.getvalue(), len(reads), output)


def test_run_local_reads_competition_yaml_once(bundle, kit_result_run, monkeypatch, capsys):
    """A run (the kit's result submission's, shared with the test above), and a starting kit's
    answer about a phase it does not hold (its phases listed), use the competition.yaml read first."""
    kit = bundle.tree / "starting_kit"
    reads = []
    monkeypatch.setattr(Path, "read_bytes", _counting(reads))
    assert run_local.main([str(kit), "baseline:random", "--phase", "evaluation"]) == 2
    assert "expected --phase practice" in capsys.readouterr().err and len(reads) == 1
    assert kit_result_run.code == 0
    assert "Primary score" in kit_result_run.printed and kit_result_run.yaml_reads == 1


def _code_submission(folder: Path, body: str) -> str:
    folder.mkdir()
    (folder / "model.py").write_text(body)
    return str(folder)


def test_submitted_code_cannot_read_the_reference_data(bundle, tmp_path):
    ref = bundle.tree / "reference_data" / "evaluation"
    body = f"""
import os
class Model:
    def __init__(self, track):
        self.track = track
    def fit(self, items):
        pass
    def predict(self, items):
        os.listdir({str(ref)!r})
        return open({str(ref / "sim.jsonl")!r}).read()
"""
    submission = _code_submission(tmp_path / "peek", body)
    with pytest.raises(SubmissionError, match="reference data is not readable|FileNotFoundError"):
        run_local.run_once(bundle.tree, submission, "evaluation")


def test_code_that_sleeps_past_the_limit_is_stopped(bundle, tmp_path):
    body = """
import time
class Model:
    def __init__(self, track):
        pass
    def fit(self, items):
        time.sleep(60)
    def predict(self, items):
        return []
"""
    submission = _code_submission(tmp_path / "sleepy", body)
    start = time.monotonic()
    with pytest.raises(SubmissionError, match="time limit"):
        run_local.run_once(bundle.tree, submission, "practice", time_limit=3)
    assert time.monotonic() - start < 30


def test_missing_bundle_and_unknown_phase_are_clear(bundle, capsys, tmp_path):
    """A BUNDLE argument that is not a bundle (nothing there, not a zip, a submission's zip) is a
    usage error naming it, not a refused submission nor the organisers' problem."""
    import zipfile

    assert (
        run_local.main(["/nonexistent/bundle.zip", "baseline:random", "--phase", "practice"]) == 2
    )
    assert capsys.readouterr().err == (
        "run_local.py: BUNDLE /nonexistent/bundle.zip: not a bundle; expected a bundle folder or "
        "zip, or the starting kit folder, found nothing at this path. Check the path: the bundle "
        "comes first, then the submission\n"
    )
    (tmp_path / "text.zip").write_text("not a zip", encoding="utf-8")
    with zipfile.ZipFile(tmp_path / "submission.zip", "w") as archive:
        archive.writestr("en_en.tsv", "id\t1\n")
    for given in ("text.zip", "submission.zip"):
        path = tmp_path / given
        assert run_local.main([str(path), "baseline:random", "--phase", "practice"]) == 2
        assert capsys.readouterr().err.startswith(f"run_local.py: BUNDLE {path}: not a bundle")
    assert run_local.main([str(bundle.tree), "baseline:random", "--phase", "final"]) != 0
    err = capsys.readouterr().err
    assert "no such phase" in err and "Traceback" not in err


def test_result_zip_with_a_top_folder_runs_through_both_steps(tmp_path):
    """As on Codabench, the worker copies the result files to the prediction output beside the
    ingestion program's own checked copies; only the latter are scored."""
    import zipfile
    from codajudge.formats.write import write_prediction
    from codajudge.gold import gold_as_values
    from codajudge.scoring import load_gold
    from codajudge.spec import read_spec

    ref = REPO / "reference_data" / "practice"
    spec = read_spec(ref)
    golds = load_gold(spec, ref)
    track = next(t for t in spec.tracks if t.id == "en_en")
    write_prediction(
        tmp_path / "en_en.tsv", track, golds["en_en"].ids, gold_as_values(golds["en_en"])
    )
    with zipfile.ZipFile(tmp_path / "sub.zip", "w") as zf:
        zf.write(tmp_path / "en_en.tsv", "my_team/en_en.tsv")
    scores = run_local.run_once(REPO, str(tmp_path / "sub.zip"), "practice")
    assert scores["en_en_pearson"] == pytest.approx(1.0)


def test_one_slug_rule_names_phases_and_legacy_pages(tmp_path):
    """``confine.slug``: runs of letters and digits, lowercased, joined by '-'. A phase is found by
    its slug, whatever the case and punctuation typed; a legacy page is named by its file's slug."""
    from types import SimpleNamespace

    import yaml

    from codajudge.legacy.build import page_texts
    from codajudge.confine import slug
    from codajudge.runner.local import phase_task

    assert slug("Post-campaign") == slug(" post_CAMPAIGN!") == "post-campaign"
    assert slug("Data and formats") == "data-and-formats" and slug("-_-") == ""
    doc = {
        "phases": [{"name": "Post-campaign", "tasks": [0]}],
        "tasks": [{"index": 0, "scoring_program": "scoring_program"}],
        "terms": "pages/terms.md",
        "pages": [
            {"title": "Getting started", "file": "pages/Getting Started.md"},
            {"title": "Odd", "file": "pages/__.md"},
        ],
    }
    (tmp_path / "pages").mkdir()
    for name in ("terms.md", "Getting Started.md", "__.md", "overview.md"):
        (tmp_path / "pages" / name).write_text(f"# {name}\n", encoding="utf-8")
    (tmp_path / "competition.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    for typed in ("post-campaign", "Post campaign", "POST_CAMPAIGN"):
        assert phase_task(tmp_path, typed).name == "Post-campaign"
    with pytest.raises(ConfigError, match="no such phase"):
        phase_task(tmp_path, "post")
    pages = page_texts(SimpleNamespace(title="T", description=None, folder=tmp_path), tmp_path)
    assert list(pages) == ["terms", "getting-started", "page", "overview"]


HAND_EDITED = {
    "a task index no task has": {"phases": [{"name": "P", "tasks": [3]}], "tasks": [{"index": 0}]},
    "a phase without tasks": {"phases": [{"name": "P"}], "tasks": [{"index": 0}]},
    "a time limit in words": {
        "phases": [{"name": "P", "tasks": [0], "execution_time_limit": "ten minutes"}],
        "tasks": [{"index": 0}],
    },
    "a phase that is a list": {"phases": [["P"]]},
}


@pytest.mark.parametrize("case", sorted(HAND_EDITED))
def test_a_hand_edited_competition_yaml_is_refused_with_the_checker_to_run(tmp_path, case):
    """What the checker would refuse in detail stops the local runner with a located refusal that
    says to run it, never an internal error."""
    import yaml

    from codajudge.runner.local import phase_task

    (tmp_path / "competition.yaml").write_text(yaml.safe_dump(HAND_EDITED[case]), "utf-8")
    with pytest.raises(ConfigError) as refused:
        phase_task(tmp_path, "P")
    assert str(refused.value).startswith(
        f"{tmp_path / 'competition.yaml'}: phase 'P' cannot be run"
    )
    assert f"'codajudge check {tmp_path}' lists what is wrong in it" in str(refused.value)
    if case == "a task index no task has":
        assert "it names task 3, which no task has" in str(refused.value)


def test_a_bundle_s_yaml_that_is_not_utf8_is_refused_naming_the_line_and_byte(tmp_path):
    from codajudge.runner.local import program_command, read_competition

    (tmp_path / "competition.yaml").write_bytes(b"title: x\nlogo: caf\xe9.png\n")
    with pytest.raises(ConfigError, match=r"competition.yaml, line 2: file is not UTF-8 text"):
        read_competition(tmp_path)
    (tmp_path / "metadata.yaml").write_bytes(b"\xef\xbb\xbfcommand: python3 caf\xe9.py\n")
    with pytest.raises(
        ConfigError, match=r"^scoring program.s metadata.yaml, line 1: .*0xe9 at offset 23"
    ):
        program_command(tmp_path, "", is_scoring=True)


def test_a_bundle_s_alias_bomb_is_refused_not_expanded(tmp_path):
    """The local runner reads competition.yaml as the bundle checker does: bounded."""
    from codajudge.runner.local import read_competition

    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)]
    (tmp_path / "competition.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"competition.yaml: not valid YAML.*alias bomb"):
        read_competition(tmp_path)


def test_kept_outputs_replace_a_link_or_a_folder_at_their_names(tmp_path):
    """``--output`` replaces whatever stands at a kept name: a link is removed, not written
    through (its target outside the folder is left as it was), and a folder is replaced."""
    from types import SimpleNamespace

    step, predictions, out, outside = (tmp_path / n for n in ("step", "pred", "out", "outside"))
    for folder in (step, predictions, out, outside):
        folder.mkdir()
    (step / "scores.json").write_text('{"new": 1}')
    (step / "scores.txt").write_text("new")
    (predictions / "sim.tsv").write_text("1\t2\n")
    (outside / "target.json").write_text("outside")
    (out / "scores.json").symlink_to(outside / "target.json")
    (out / "scores.txt").mkdir()
    (out / "scores.txt" / "old").write_text("old")
    (out / "predictions").symlink_to(outside)
    run_local.keep_outputs(SimpleNamespace(output=step, predictions=predictions), out, ["sim"])
    assert (outside / "target.json").read_text() == "outside"
    assert sorted(p.name for p in outside.iterdir()) == ["target.json"]
    for name, text in (("scores.json", '{"new": 1}'), ("scores.txt", "new")):
        assert not (out / name).is_symlink() and (out / name).read_text() == text
    assert not (out / "predictions").is_symlink()
    assert (out / "predictions" / "sim.tsv").read_text() == "1\t2\n"


@pytest.mark.parametrize("legacy", [False, True], ids=["v2", "legacy"])
def test_the_readme_s_zip_of_output_predictions_is_scored_as_results(bundles, tmp_path, legacy):
    """Trial 61, item 1: ``--output``'s predictions/ held the baseline's model.py and the worker's
    metadata, so the README's zip of that folder was run as a code submission (its prediction
    files ignored); it holds the prediction files only, and the README's zip of it, every file it
    holds, is scored as results, with the run's scores, in both kits."""
    import shlex
    import zipfile

    if legacy:
        kit = tmp_path / "kit"
        with zipfile.ZipFile(bundles.small(legacy=True).tree / "starting_kit.zip") as zf:
            zf.extractall(kit)
    else:
        kit = bundles.small().tree / "starting_kit"
    out = tmp_path / "out"
    scores = run_local.run_once(kit, "baseline:cosine_bow", "practice", output=out)
    kept = sorted(p.name for p in (out / "predictions").iterdir())
    assert kept and all(name.endswith(".tsv") for name in kept), kept
    readme = (kit / "README.md").read_text(encoding="utf-8")
    zips = [line for line in readme.splitlines() if " zip -r " in line]
    assert zips, "the kit README zips no folder"
    for line in zips:  # each zip command of the README, on the folder --output kept
        words = shlex.split(line.split("&&")[1])
        left_out = set(words[words.index("-x") + 1 :]) if "-x" in words else set()
        submission = tmp_path / f"zip{zips.index(line)}.zip"
        with zipfile.ZipFile(submission, "w") as archive:
            for name in sorted(set(kept) - left_out):
                archive.write(out / "predictions" / name, name)
        notes: list[str] = []
        assert run_local.run_once(kit, str(submission), "practice", notes=notes) == scores
        assert not [note for note in notes if "model.py" in note], notes


@pytest.mark.parametrize("legacy", [False, True], ids=["v2", "legacy"])
def test_every_zip_command_of_the_kit_readme_has_one_form(bundles, legacy):
    """Trial 61, item 3: the kit READMEs zipped results two ways, with ``-x
    ingestion_status.json`` ("Submitting on CodaLab") and without it ("Check a submission before
    uploading"), and the evaluation section said "zip them" of a folder holding the status file;
    every zip command of both kits' READMEs is one form, which leaves the status file out."""
    import zipfile

    tree = bundles.small(legacy=legacy).tree
    if legacy:
        with zipfile.ZipFile(tree / "starting_kit.zip") as zf:
            readme = zf.read("README.md").decode("utf-8")
    else:
        readme = (tree / "starting_kit" / "README.md").read_text(encoding="utf-8")
    zips = [line for line in readme.splitlines() if "zip -r" in line or "zip them" in line]
    assert len(zips) >= 2, zips
    form = "zip -r ../my_submission.zip . -x ingestion_status.json && cd .."
    assert [line for line in zips if form not in line] == []
