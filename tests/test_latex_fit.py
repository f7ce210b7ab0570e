"""ranking.tex fits an ACL two-column page (issue 38): A4, 2.5 cm margins, two columns of 219 pt
0.6 cm apart, booktabs. Each track's table fits one column; a table wider than a column spans
both (``table*``), or stays in one with ``--latex-width 1``; none has an overfull box."""

import dataclasses
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from codajudge.stats.bootstrap import Interval
from codajudge.stats.ranking import GroupRow, OverallRow, RankedSystem, TrackRanking
from codajudge.stats.latex import render_latex
from codajudge.spec import NORMALISED, PrimaryRule, TaskSpec
from codajudge.stats.tables import GroupTable, RankingReport, Settings
from codajudge.tracks import tracks_from_list

NORMALISED_MEAN = PrimaryRule(mean=NORMALISED)

ACL_PAGE = (
    "\\documentclass[11pt,twocolumn]{article}\n"
    "\\usepackage[a4paper,margin=2.5cm]{geometry}\n"
    "\\setlength{\\columnsep}{0.6cm}\n"
    "\\usepackage{booktabs}\n\\usepackage[T1]{fontenc}\n\\usepackage{graphicx}\n"
    "\\begin{document}\n\\typeout{COLUMNWIDTH=\\the\\columnwidth}\n\\input{fragment}\n\\end{document}\n"
)


def _track(track_id, title, kind, scale, labels, metric):
    spec = {"id": track_id, "title": title, "kind": kind, "dataset": track_id}
    if labels:
        spec.update(scale=scale, labels=labels)
    (track,) = tracks_from_list([spec])
    return track


def _ranking(track, metric, values, higher):
    rows = []
    for rank, (system, value) in enumerate(values.items(), start=1):
        interval = Interval(value, value - 0.0123, value + 0.0234)
        p = None if rank == 1 else 0.0123 * rank
        rows.append(RankedSystem(system, value, rank, rank == 1, p, interval))
    return TrackRanking(track, metric, "wilcoxon" if not higher else "williams", None, rows)


SYSTEMS = ["team_alpha_run2", "BaselineCosine", "gold_noise_0.3", "uncertainty-ens", "random"]


def _sts_report():
    tracks = [
        _track(t, f"STS {t}", "similarity", None, None, "pearson") for t in ("en_en", "es_es")
    ]
    rankings = {
        t.id: _ranking(t, "pearson", {s: 0.85 - 0.1 * k for k, s in enumerate(SYSTEMS)}, True)
        for t in tracks
    }
    overall = [OverallRow(s, k + 1, k + 1.0, 0.85 - 0.1 * k) for k, s in enumerate(SYSTEMS)]
    return RankingReport(
        TaskSpec("sts2017", "STS 2017", "evaluation", tracks), "sig", rankings, overall
    )


LEWIDI = {
    "csc": ("CSC", "ordinal", [str(i) for i in range(1, 7)]),
    "mp": ("MP", "categorical", ["0", "1"]),
    "par": ("Paraphrase", "ordinal", [str(i) for i in range(-5, 6)]),
    "ven": ("VariErrNLI", "multilabel", ["contradiction", "entailment", "neutral"]),
}


def _lewidi_report():
    tracks = []
    for key, (title, scale, labels) in LEWIDI.items():
        tracks.append(_track(f"{key}_soft", f"{title} soft", "soft_label", scale, labels, ""))
        tracks.append(_track(f"{key}_pe", f"{title} persp.", "perspectivist", scale, labels, ""))
        tracks[-1] = dataclasses.replace(tracks[-1], primary=False)
    rankings = {
        t.id: _ranking(
            t, t.main_metric, {s: 0.1234 + 0.1 * k for k, s in enumerate(SYSTEMS)}, False
        )
        for t in tracks
    }
    overall = [OverallRow(s, k + 1, k + 1.0, 0.1234 * (k + 1)) for k, s in enumerate(SYSTEMS)]
    groups = []
    for name, suffix in (("Task A (soft labels)", "_soft"), ("Task B (perspectivist)", "_pe")):
        ids = [t.id for t in tracks if t.id.endswith(suffix)]
        rows = [GroupRow(s, k + 1, k + 1.0, {t: k + 1 for t in ids}) for k, s in enumerate(SYSTEMS)]
        rows[-1].stand_ins = [ids[0]]
        groups.append(GroupTable(name, "mean_rank", ids, rows))
    spec = TaskSpec("lewidi2025", "LeWiDi 2025", "evaluation", tracks, primary_rule=NORMALISED_MEAN)
    return RankingReport(spec, "sig", rankings, overall, groups=groups)


def _compile(fragment: str, folder: Path) -> str:
    """The log of an ACL-like page holding ``fragment``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "fragment.tex").write_text(fragment, encoding="utf-8")
    (folder / "page.tex").write_text(ACL_PAGE, encoding="utf-8")
    done = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "page"],
        cwd=folder,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=120,
    )
    log = (folder / "page.log").read_text(errors="replace")
    assert done.returncode == 0, done.stdout[-3000:]
    return log


def _tables(fragment: str):
    return re.findall(r"\\begin\{(table\*?)\}\[t\](.*?)\\end\{table\*?\}", fragment, flags=re.S)


@pytest.mark.parametrize("width", ["auto", "1", "2"])
@pytest.mark.parametrize("make", [_sts_report, _lewidi_report])
def test_every_table_fits_a_two_column_acl_page(make, width, tmp_path):
    report = make()
    report.settings = Settings(latex_width=width)
    fragment = render_latex(report)
    tables = _tables(fragment)
    tracks = len(report.rankings)
    assert len(tables) == 1 + len(report.groups) + tracks
    assert all(env == "table" for env, _ in tables[-tracks:])  # a track's table: one column
    wide = [env for env, _ in tables[: 1 + len(report.groups)]]
    if width == "1":
        assert set(wide) == {"table"}
    else:  # automatic: the overall and group tables are wider than a column
        assert set(wide) == {"table*"}
    for _, body in tables:
        assert body.count("\\cjfit{") == 1 and "\\small" in body
    if shutil.which("pdflatex") is None:
        return
    log = _compile(fragment, tmp_path / "tex")
    assert "COLUMNWIDTH=219.0" in log.replace("pt", "")  # the column ACL geometry gives
    assert "Overfull \\hbox" not in log and "Overfull \\vbox" not in log
    # in one column (--latex-width 1) a wide table is scaled down; otherwise every table fits as it is
    assert ("a table scaled" in log) == (width == "1"), log.count("a table scaled")


def test_the_overall_table_leaving_out_tracks_says_so_in_the_tex_and_the_readme():
    """ranking.tex's overall table shows the primary tracks only when groups have tables (for the
    page's width) where the pages show every track: a comment before it names the 4 left out, and
    the README says it (a trial found them said to hold "the same tables")."""
    from pathlib import Path

    fragment = render_latex(_lewidi_report())
    overall = fragment[: fragment.index("tab:ranking-overall")]
    comment = "% the overall table shows the primary tracks only, to fit the page's width"
    assert comment in overall and "left out has its own table" in overall
    assert overall.rstrip().count("\n% ") >= 1 and "csc_pe, mp_pe, par_pe, ven_pe" in overall
    readme = " ".join((Path(__file__).resolve().parent.parent / "README.md").read_text().split())
    assert "ranking.tex's overall table shows the primary tracks only" in readme
