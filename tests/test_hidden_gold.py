"""The results of a hidden-gold phase cannot be probed for single items' gold (issue 13, item 2).

The differencing attack: two submissions that differ in a few predictions, one per annotator (or
per language, per genre). The leaderboard's scores move by the changes' sum, which the submission
limits bound; any other output that moves (a per-annotator error, a group's score, an interval, a
count in a plot) would tell each change's effect on its own, that is the gold of single items.
Policy (docs/participant-checks.md, "Results page in hidden-gold phases"): in such a phase the page,
scores.json, scores.txt and the program's messages of two submissions may differ only in the
leaderboard's scores. On the practice phase (public gold) the same pair does show the difference,
which shows that the attack is a real one.
"""

import json
import math
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from codajudge import report
from codajudge.programs.score import main as score_main
from codajudge.scoring import score_folder
from codajudge.spec import read_spec
from codajudge.tracks import PRECISION
from test_report_html import make_phase

NLI = ["entailment", "neutral", "contradiction"]


def lines_of(path: Path) -> list:
    """The lines of a file the kit (or the test) wrote, split at "\n" only: U+2028 and U+0085 are text."""
    return path.read_text(encoding="utf-8").removesuffix("\n").split("\n")


def _flip_one_label_per_annotator(res: Path) -> int:
    """persp.tsv: for every annotator, flip one of their labels (the first item they label)."""
    lines = lines_of(res / "persp.tsv")
    rows = lines_of(res.parent / "ref" / "mp.jsonl")
    gold = {json.loads(line)["id"]: json.loads(line) for line in rows}
    done, out = set(), []
    for line in lines:
        item_id, value = line.split("\t")
        labels = json.loads(value)
        for k, name in enumerate(gold[item_id]["annotators"]):
            if name not in done:
                done.add(name)
                labels[k] = str(1 - int(labels[k]))
        out.append(f"{item_id}\t{json.dumps(labels)}")
    (res / "persp.tsv").write_text("\n".join(out) + "\n")
    return len(done)


def _change_one_per_group(res: Path, file: str, dataset: str, key: str, change) -> int:
    """In ``file``, change the prediction of the first item of each ``key`` group (language or genre)."""
    gold = [json.loads(line) for line in lines_of(res.parent / "ref" / f"{dataset}.jsonl")]
    first = {}
    for item in gold:
        first.setdefault(item.get(key), item["id"])
    targets = set(first.values())
    out = []
    for line in lines_of(res / file):
        item_id, value = line.split("\t")
        out.append(f"{item_id}\t{change(value) if item_id in targets else value}")
    (res / file).write_text("\n".join(out) + "\n")
    return len(targets)


ATTACKS = {
    "one_label_per_annotator": lambda res: _flip_one_label_per_annotator(res),
    "one_score_per_language": lambda res: _change_one_per_group(
        res, "sim.tsv", "sim", "lang", lambda v: f"{float(v) + 2.5:.4f}"
    ),
    "one_label_per_genre": lambda res: _change_one_per_group(
        res, "nli.tsv", "nli", "genre", lambda v: NLI[(NLI.index(v) + 1) % 3]
    ),
}


def _score(root: Path, capsys) -> dict:
    out = root / "out"
    assert score_main([str(root), str(out)]) == 0
    printed = capsys.readouterr()
    return {
        "scores": json.loads((out / "scores.json").read_text()),
        "txt": (out / "scores.txt").read_text(),
        "page": (out / "detailed_results.html").read_text(encoding="utf-8"),
        "stdout": printed.out,
        "stderr": printed.err,
    }


def _without_scores(run: dict) -> dict:
    """Every output with each leaderboard score, in every rendering the kit prints, blanked out."""
    renderings = set()
    for value in run["scores"].values():
        renderings |= {repr(value), f"{value:.6f}", f"{value:.4f}"}
    pattern = re.compile("|".join(re.escape(r) for r in sorted(renderings, key=len, reverse=True)))
    return {key: pattern.sub("<score>", run[key]) for key in ("txt", "page", "stdout", "stderr")}


def _pair(tmp_path: Path, hide_gold: bool, attack: str, capsys):
    first = tmp_path / f"{hide_gold}-a"
    make_phase(first, hide_gold=hide_gold, seed=4)
    second = tmp_path / f"{hide_gold}-b"
    shutil.copytree(first / "ref", second / "ref")
    shutil.copytree(first / "res", second / "res")
    changes = ATTACKS[attack](second / "res")
    assert changes >= 2  # several changes at once: only their sum may show
    return _score(first, capsys), _score(second, capsys)


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_two_submissions_differ_only_in_the_leaderboard_scores(tmp_path, capsys, attack):
    a, b = _pair(tmp_path, True, attack, capsys)
    assert list(a["scores"]) == list(b["scores"])
    assert a["scores"] != b["scores"]  # the changes do move the leaderboard
    assert _without_scores(a) == _without_scores(b)


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_the_same_pair_is_told_apart_where_the_gold_is_public(tmp_path, capsys, attack):
    """The practice page shows per-item detail on purpose: the attack sees more than the scores there."""
    a, b = _pair(tmp_path, False, attack, capsys)
    assert _without_scores(a)["page"] != _without_scores(b)["page"]


def test_messages_show_the_participant_s_values_never_the_gold(tmp_path, capsys):
    """A refused value is quoted as written; the gold of the item appears nowhere in the message."""
    make_phase(tmp_path, hide_gold=True, seed=4)
    gold = {
        json.loads(line)["id"]: json.loads(line)
        for line in lines_of(tmp_path / "ref" / "sim.jsonl")
    }
    lines = lines_of(tmp_path / "res" / "sim.tsv")
    item_id = lines[5].split("\t")[0]
    lines[5] = f"{item_id}\tnan"
    (tmp_path / "res" / "sim.tsv").write_text("\n".join(lines) + "\n")
    assert score_main([str(tmp_path), str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert item_id in err and "nan" in err
    value = gold[item_id]["score"]
    assert not {repr(value), f"{value:.4f}", f"{value:.3f}", f"{value:g}"} & set(
        re.findall(r"\d+\.\d+", err)
    )


def test_a_hidden_gold_phase_writes_no_other_output_file(tmp_path, capsys):
    """The three files compared above are all there is: no per-item CSV (report.DETAILED_CSV)
    reaches the output of a hidden-gold phase, while the practice phase does get one."""
    hidden = _pair(tmp_path, True, "one_label_per_annotator", capsys)[0]
    assert hidden["scores"]
    written = sorted(p.name for p in (tmp_path / "True-a" / "out").iterdir())
    assert written == ["detailed_results.html", "scores.json", "scores.txt"]
    public = _pair(tmp_path, False, "one_label_per_annotator", capsys)[0]
    assert public["scores"]
    assert (tmp_path / "False-a" / "out" / "detailed_results.csv").is_file()


#: A number written with more decimals than the leaderboard shows.
FINER_THAN_LEADERBOARD = re.compile(rf"\d\.\d{{{PRECISION + 1},}}")


def _full_precision_scores(root: Path) -> dict:
    """The phase's scores as the scoring engine computes them, before anything is written."""
    return score_folder(read_spec(root / "ref"), root / "ref", root / "res").scores()


def test_a_hidden_gold_phase_shows_every_score_at_the_leaderboard_s_precision(tmp_path, capsys):
    """Issue 34, item 2: further digits of a score over hidden items tell crafted submissions
    their gold, so scores.json, scores.txt, the page and the log of a hidden-gold phase (as
    task.json says) show each score rounded to the leaderboard's precision and no more."""
    make_phase(tmp_path, hide_gold=True, seed=4)
    full = _full_precision_scores(tmp_path)
    rounded = {key: round(value, PRECISION) for key, value in full.items()}
    assert rounded != full  # the digits the rule drops are there to drop
    run = _score(tmp_path, capsys)
    assert run["scores"] == rounded
    assert run["txt"] == "".join(f"{key}: {value!r}\n" for key, value in rounded.items())
    assert run["stdout"].splitlines()[-len(rounded) :] == [
        f"{key}: {value:.{PRECISION}f}" for key, value in rounded.items()
    ]
    assert all(f"{value:.{PRECISION}f}" in run["page"] for value in rounded.values())
    run["json"] = (tmp_path / "out" / "scores.json").read_text()
    for output in ("json", "txt", "page", "stdout", "stderr"):
        assert not FINER_THAN_LEADERBOARD.search(run[output]), output


def test_a_public_gold_phase_keeps_full_precision(tmp_path, capsys):
    make_phase(tmp_path, hide_gold=False, seed=4)
    full = _full_precision_scores(tmp_path)
    run = _score(tmp_path, capsys)
    assert run["scores"] == full
    assert run["txt"] == "".join(f"{key}: {value!r}\n" for key, value in full.items())
    assert FINER_THAN_LEADERBOARD.search((tmp_path / "out" / "scores.json").read_text())


def test_a_hidden_score_that_rounds_to_zero_is_written_without_its_sign():
    """-0.0 would tell that the score was below zero, one more thing than the leaderboard shows."""
    result = SimpleNamespace(
        spec=SimpleNamespace(hide_gold=True),
        scores=lambda: {"primary": -0.00004, "sim_pearson": -0.00005001},
    )
    published = report.published_scores(result)
    assert published == {"primary": 0.0, "sim_pearson": -0.0001}
    assert math.copysign(1.0, published["primary"]) == 1.0
    assert report.scores_txt_text(published) == "primary: 0.0\nsim_pearson: -0.0001\n"
    assert report.score_log_lines(result) == ["primary: 0.0000", "sim_pearson: -0.0001"]


def test_every_phase_of_a_built_bundle_lists_the_public_gold_phases(bundles):
    """task.json's ``public_gold_phases``, which a hidden-gold page names as the pages that show
    it all: the phases, the starting kit's local one included, whose task.json says hide_gold false."""
    tree = bundles.small().tree
    specs = [json.loads(p.read_text()) for p in sorted(tree.glob("**/reference_data/*/task.json"))]
    public = {spec["phase"] for spec in specs if not spec["hide_gold"]}
    assert public and any(spec["hide_gold"] for spec in specs)
    assert all(sorted(spec["public_gold_phases"]) == sorted(public) for spec in specs)
