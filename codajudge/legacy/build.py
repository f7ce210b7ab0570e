"""A legacy CodaLab v1.5 bundle of an edition (``build_bundle.py --legacy``).

The v2 tree is built first by the same code (so every check of a v2 build holds: config, gold,
leaderboard keys, baselines, no hidden gold in public files), then re-packed as v1.5 expects:

- ``competition.yaml`` without ``version``: ``html`` pages, ``competition_docker_image``, numbered
  ``phases`` with ``phasenumber``/``label``/``start_date``, and the leaderboard in v1.5 form
  (``leaderboards`` + ``columns`` pointing at it), with the same column keys as the v2 bundle;
- every program and data set as a ``.zip`` inside the bundle, files at the zip's root (CodaLab
  required zips): ``scoring_program.zip``, ``reference_data_<phase>.zip``, ``input_data_<phase>.zip``
  and ``starting_kit.zip``;
- the pages as HTML (CodaLab shows page files as HTML), converted from the v2 bundle's Markdown;
- the scoring command with CodaLab's ``$program``-style variables, which Codabench also substitutes,
  in a file named exactly ``metadata`` at the program zip's root: the v1 compute worker reads no
  other name (Codabench reads ``metadata`` too when there is no ``metadata.yaml``);
- the extra pages keyed by their titles, since v1.5 (and Codabench's v1 unpacker) shows a page's
  ``html`` key as its tab title; ``overview``, ``evaluation``, ``terms`` and ``data`` are the keys
  v1.5 requires and labels itself.

**Result submissions only.** A legacy phase has no ingestion program and is ``is_scoring_only``:
on v1.5 no participant code runs, and code submissions are for the Codabench (v2) bundle. The
reason is the v1.5 platform's own layout, which no program of the kit can repair:

- for a phase with an ingestion program the site puts the phase's reference data into the
  prediction run (codalab-competitions ``codalab/apps/web/tasks.py:165-176``, ``hidden_ref``) and the
  v1 worker mounts it into the ingestion container beside the run folder
  (competitions-v1-compute-worker ``worker.py:325-331``, ``:587``), where the ingestion program runs
  the participant's ``model.py``: the hidden gold is one ``open("../../hidden_ref/...")`` away;
- that container's ``PYTHONPATH`` holds the submission's folder (``worker.py:591``), so a
  ``sitecustomize.py`` or ``json.py`` in the zip runs inside ``ingest.py`` before any kit code;
- a submission whose ``metadata`` has a ``command`` is also started in a container of its own with
  the whole run folder, ``ingestion_program/`` included, mounted read-write (``worker.py:481-536``).

A child process without permissions stops none of these, so the ingestion program is left out
rather than hardened. ``is_scoring_only: true`` (the model's default, ``models.py:889``, written out
so that the intent is visible) makes v1.5 skip the prediction step (``tasks.py:758-786``): every zip
goes to the scoring program as results.

What v1.5 cannot say: a phase ends when the next one starts (Codabench's v1 unpacker ends it one
day before; the timeline page says both), there is no submission rule such as ``Force_Last`` (see
``placement_keys`` for the keys that stand for one) and no solutions.
"""

from __future__ import annotations

import html
import re
import shutil
from dataclasses import replace
from pathlib import Path

import yaml

from ..bundle.check.opening import KIT_PHASES_FILE
from ..bundle.build import (
    BuildSummary,
    EditionData,
    import_data,
    publish,
    with_notes,
    write_tree,
    write_yaml,
)
from ..bundle.compose import leaderboard_columns
from ..bundle.edition import Edition
from ..bundle.leaks import write_known_leaks
from ..bundle.baselines_run import sample_baseline
from ..bundle.pages import LOCAL_PHASE, evaluation_section, timeline_page
from ..bundle.prose import Templates
from ..bundle.zipdet import tree_files, write_zip
from ..confine import slug
from ..spec import SCORING_ONLY, read_spec, write_spec
from .check import V15_PAGES

# --- Markdown -> HTML, for the subset the kit's pages use -----------------------------------------


def _inline(text: str) -> str:
    """Escape, then render `code`, **bold**, *italic*, [text](url) and <url>."""
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"<em>\1</em>", out)
    out = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", r'<a href="\2">\1</a>', out)
    return re.sub(r"&lt;(https?://[^\s&]+)&gt;", r'<a href="\1">\1</a>', out)


def _table(rows: list[str]) -> list[str]:
    """A Markdown table's rows as HTML; a cell's escaped pipe (``\\|``) is a pipe, in the head too."""
    split = [re.split(r"(?<!\\)\|", row.strip().strip("|")) for row in rows]
    cells = [[c.strip().replace("\\|", "|") for c in row] for row in split]
    body = [r for r in cells[1:] if not all(re.fullmatch(r":?-+:?", c) for c in r)]
    out = ["<table>", "<tr>" + "".join(f"<th>{_inline(c)}</th>" for c in cells[0]) + "</tr>"]
    out += ["<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in body]
    return out + ["</table>"]


#: How each kind of block is written from its lines' texts: a paragraph, a list's items, a
#: table's rows, a fenced code block's lines (kept verbatim), lines already HTML (or blank).
BLOCKS = {
    "paragraph": lambda texts: [f"<p>{_inline(' '.join(texts))}</p>"],
    "list": lambda texts: ["<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in texts) + "</ul>"],
    "table": _table,
    "code": lambda texts: [
        "<pre><code>" + html.escape("\n".join(texts), quote=False) + "</code></pre>"
    ],
    "html": lambda texts: [text for text in texts if text],
}


def _line(line: str) -> tuple[str, str]:
    """The kind of block a page's ``line`` belongs to (a key of ``BLOCKS``) and its text."""
    stripped = line.strip()
    # a one-line comment (the generated marker) stays one; a blank line is HTML of nothing
    if re.fullmatch(r"<!--.*-->", stripped) or not stripped:
        return "html", stripped
    if heading := re.match(r"(#{1,6})\s+(.*)", stripped):
        level = len(heading.group(1))
        return "html", f"<h{level}>{_inline(heading.group(2))}</h{level}>"
    if stripped.startswith("|"):
        return "table", stripped
    if re.match(r"[-*]\s+", stripped):
        return "list", re.sub(r"^[-*]\s+", "", stripped)
    return "paragraph", stripped


def markdown_to_html(text: str, title: str) -> str:
    """A small, dependency-free renderer: headings, paragraphs, lists, tables, fenced code blocks and
    inline marks. A block ends at a line of another kind, or at a fence; an unclosed fence's code
    block ends with the page."""
    body: list[str] = []
    kind, texts = "html", []
    # not splitlines: U+2028 or U+0085 quoted from an item is text ("\r" is stripped)
    for line in text.split("\n"):
        if line.strip().startswith("```"):
            body += BLOCKS[kind](texts)
            kind, texts = "html" if kind == "code" else "code", []
            continue
        new, line_text = ("code", line) if kind == "code" else _line(line)
        if kind == "list" and new == "paragraph" and line.startswith((" ", "\t")):
            # an indented line continues the list's item
            texts[-1] += " " + line_text
            continue
        if new != kind:
            body += BLOCKS[kind](texts)
            kind, texts = new, []
        texts.append(line_text)
    body += BLOCKS[kind](texts)
    return (
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{html.escape(title)}</title></head>\n'
        "<body>\n" + "\n".join(body) + "\n</body></html>\n"
    )


# --- the legacy tree -------------------------------------------------------------------------------


def page_texts(edition: Edition, v2_root: Path) -> dict[str, tuple]:
    """Page key (the file's name: overview, data, evaluation, ...) -> (title, Markdown text) of the v2
    bundle's pages, with an overview in any case."""
    doc = yaml.safe_load((v2_root / "competition.yaml").read_text(encoding="utf-8"))
    pages = {"terms": ("Terms", (v2_root / doc["terms"]).read_text(encoding="utf-8"))}
    for page in doc["pages"]:
        text = (v2_root / page["file"]).read_text(encoding="utf-8")
        pages.setdefault(slug(Path(page["file"]).stem) or "page", (page["title"], text))
    prose = Templates.of(edition.folder)
    description = edition.description or edition.title
    overview = prose.fill("legacy/overview", title=edition.title, description=description)
    pages.setdefault("overview", (prose.fill("legacy/overview_title"), overview + "\n"))
    return pages


def write_html_pages(edition: Edition, v2_root: Path, root: Path) -> dict[str, str]:
    """The v2 bundle's pages as HTML files, the data page ending with the CodaLab note
    ``legacy/submitting``; returns the ``html`` mapping (page key -> file). The pages v1.5 requires
    keep their fixed keys (it labels them itself); the others are keyed by their title, which both
    platforms show as the tab's title."""
    pages = page_texts(edition, v2_root)
    data_title, data_text = pages["data"]
    submitting = Templates.of(edition.folder).fill("legacy/submitting")
    pages["data"] = (data_title, data_text + "\n" + submitting + "\n")
    legacy_timeline = timeline_page(edition, "legacy/timeline", "legacy/timeline_phase")
    pages["timeline"] = (pages.get("timeline", ("Timeline",))[0], legacy_timeline)
    mapping: dict[str, str] = {}
    for name in list(V15_PAGES) + [k for k in pages if k not in V15_PAGES]:
        title, text = pages[name]
        page = markdown_to_html(text, f"{edition.title}: {title}")
        (root / f"{name}.html").write_text(page, encoding="utf-8")
        keyed_by_name = name in V15_PAGES or title in mapping or title in V15_PAGES
        mapping[name if keyed_by_name else title] = f"{name}.html"
    return mapping


def legacy_metadata(program: Path) -> None:
    """The scoring ``program`` folder's ``metadata.yaml`` turned into the ``metadata`` file the v1
    worker reads, its command rewritten to the legacy variables, which Codabench expands to the v2
    command's paths (a legacy phase has no ingestion program: module docstring)."""
    v2_meta = program / "metadata.yaml"
    data = yaml.safe_load(v2_meta.read_text(encoding="utf-8")) or {}
    data["command"] = "python3 $program/score.py $input $output"
    v2_meta.unlink()  # one command only: Codabench would prefer metadata.yaml over metadata
    # the only program file name the v1 compute worker reads
    (program / "metadata").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def legacy_leaderboard(edition: Edition) -> dict:
    """``leaderboard: {leaderboards: {TITLE: {label, rank}}, columns: {key: {leaderboard: *TITLE, ...}}}``.

    Every column refers to the same leaderboard mapping, which YAML writes as an anchor and aliases."""
    board = {"label": edition.leaderboard["title"], "rank": 1}
    columns = {
        column["key"]: {
            "leaderboard": board,
            "label": column["title"],
            "rank": column["index"] + 1,
            "sort": column["sorting"],
            "numeric_format": column["precision"],
        }
        for column in leaderboard_columns(edition)
    }
    return {"leaderboards": {edition.leaderboard["title"]: board}, "columns": columns}


def placement_keys(rule: str) -> tuple[dict, dict]:
    """The v1.5 keys standing for Codabench's ``submission_rule``: (competition keys, each phase's keys).

    v1.5 keeps one board entry per participant (CodaLab's ``add_submission_to_leaderboard``).
    ``force_submission_to_leaderboard`` puts every finished submission there in place of the last
    (Force_Last; Force_Latest_Multiple too, whose several entries v1.5 cannot show); a phase's
    ``force_best_submission_to_leaderboard`` only one that beats it (Force_Best). With neither, as with
    the Add rules, participants put submissions there by hand. Codabench's v1 unpacker reads neither
    key: a legacy bundle uploaded there gets the Add rule (the v2 bundle keeps the rule)."""
    if rule == "Force_Best":
        return {}, {"force_best_submission_to_leaderboard": True}
    if rule.startswith("Force_"):
        return {"force_submission_to_leaderboard": True}, {}
    return {}, {}


def legacy_yaml(edition: Edition, pages: dict[str, str]) -> dict:
    competition_keys, phase_keys = placement_keys(edition.leaderboard["submission_rule"])
    doc = {
        "title": edition.title,
        "description": edition.description or edition.title,
        "image": "logo.png",
        "has_registration": False,
        "competition_docker_image": edition.docker_image,
        "enable_detailed_results": True,
        **competition_keys,
    }
    # v1.5 and Codabench's v1 unpacker read it as the last phase's end
    if edition.phases[-1].end is not None:
        doc["end_date"] = edition.phases[-1].date_text("end")
    doc["html"] = pages
    doc["phases"] = {}
    for number, phase in enumerate(edition.phases, start=1):
        doc["phases"][number] = {
            "phasenumber": number,
            "label": phase.name,
            "description": phase.description or phase.name,
            "start_date": phase.date_text("start"),
            "max_submissions": phase.max_submissions,
            "max_submissions_per_day": phase.max_submissions_per_day,
            "execution_time_limit": phase.execution_time_limit,
            "scoring_program": "scoring_program.zip",
            # result submissions only: v1.5 then skips the prediction step, so no participant
            # code runs and no container holds code and gold together
            "is_scoring_only": True,
            "reference_data": f"reference_data_{phase.id}.zip",
            "input_data": f"input_data_{phase.id}.zip",
            "public_data": f"input_data_{phase.id}.zip",
            "starting_kit": "starting_kit.zip",
            **phase_keys,
        }
    doc["leaderboard"] = legacy_leaderboard(edition)
    return doc


#: The kit README's templates said in their ``legacy`` variant in a v1.5 kit.
LEGACY_WORDS = {
    "kit_readme/programs": "legacy/programs",
    "kit_readme/two_steps": "legacy/two_steps",
    "kit_readme/itself": "legacy/itself",
}


def legacy_kit_readme(text: str, edition: Edition) -> str:
    """The starting kit's README with its evaluation section in the ``legacy`` variant (CodaLab
    v1.5 gives the data as a zip and runs no ingestion program), the sentences ``LEGACY_WORDS`` in
    theirs, and the CodaLab note
    ``legacy/submitting`` before its section on the platform's two kinds of submission, ``## Two
    ways to submit`` (a participant reads that only results are taken before reading how to
    submit); appended when the README has no such section."""
    prose = Templates.of(edition.folder)
    baseline = sample_baseline(edition.baselines)
    text = text.replace(
        evaluation_section(prose, edition, baseline),
        evaluation_section(prose, edition, baseline, legacy=True),
    )
    for v2, v15 in LEGACY_WORDS.items():  # what v1.5 runs, where the v2 README says Codabench's
        text = text.replace(prose.fill(v2), prose.fill(v15))
    note = prose.fill("legacy/submitting") + "\n\n"
    at = text.find("\n## Two ways to submit\n")
    if at < 0:
        return text.rstrip("\n") + "\n\n" + note
    return text[: at + 1] + note + text[at + 1 :]


def write_legacy_tree(edition: Edition, v2_root: Path, root: Path) -> None:
    """Every file of the legacy bundle under ``root`` (new), from a finished v2 tree, a scratch
    copy whose scoring program and starting kit are edited in place before they are zipped."""
    root.mkdir(parents=True)
    shutil.copyfile(v2_root / "logo.png", root / "logo.png")
    pages = write_html_pages(edition, v2_root, root)
    legacy_metadata(v2_root / "scoring_program")
    write_zip(tree_files(v2_root / "scoring_program"), root / "scoring_program.zip")
    readme = v2_root / "starting_kit" / "README.md"
    readme.write_text(legacy_kit_readme(readme.read_text("utf-8"), edition), "utf-8")
    # the input data too, so that the kit's ingestion program refuses a zip of code as v1.5 does;
    # the kit's local phase too, so that every phase of the kit reads a submission as v1.5 does
    # (a folder of model.py alone is run with the note its README promises)
    ids = [phase.id for phase in edition.phases] + [LOCAL_PHASE]
    for data in [v2_root / kind / phase for kind in PHASE_DATA for phase in ids]:
        if data.is_dir():
            mark_scoring_only(data)
    # the kit's phases for its run_local.py, under a name of their own: a competition.yaml of
    # Codabench's form (version 2, ingestion programs) would be taken for this competition's
    kit = v2_root / "starting_kit"
    (kit / "competition.yaml").rename(kit / KIT_PHASES_FILE)
    write_zip(tree_files(kit), root / "starting_kit.zip")
    for phase in edition.phases:
        for kind in ("reference_data", "input_data"):
            write_zip(tree_files(v2_root / kind / phase.id), root / f"{kind}_{phase.id}.zip")
    write_yaml(root / "competition.yaml", legacy_yaml(edition, pages), edition)
    known = edition.known_leaks
    write_known_leaks(root, {legacy_public_path(name): why for name, why in known.items()})


#: The folders of a phase's data whose task.json says ``scoring_only`` (``mark_scoring_only``).
PHASE_DATA = ("reference_data", "input_data", "starting_kit/input_data")


def mark_scoring_only(data: Path) -> None:
    """Mark a phase's ``task.json`` ``scoring_only``: no ingestion program runs before the scoring
    program, which then reads any ingestion status in a submission as the participant's
    (``programs.score.prediction_status``) and refuses a zip of code as results only; the kit's
    ingestion program refuses such a zip too (``programs.ingest``)."""
    spec = read_spec(data)
    write_spec(data, replace(spec, extra={**spec.extra, SCORING_ONLY: True}))


def legacy_public_path(path: str) -> str:
    """A public file's path in the v2 tree as the leak check names it in the legacy bundle: an
    entry of the zip its folder became (``starting_kit/X`` -> ``starting_kit.zip:X``,
    ``input_data/PHASE/X`` -> ``input_data_PHASE.zip:X``); any other path as it is."""
    path = re.sub(r"^starting_kit/", "starting_kit.zip:", path)
    return re.sub(r"^input_data/([^/]*)/", r"input_data_\1.zip:", path)


def build_legacy(
    edition: Edition, data_root: Path, out_dir: Path, data: EditionData | None = None
) -> BuildSummary:
    """Validate and build as for v2, then write ``OUT/<edition>-legacy/`` and
    ``OUT/<edition>-legacy.zip``; ``data``: the edition's data when already read (``import_data``)."""
    data = data or import_data(edition, data_root)

    def write(tree: Path) -> Edition:
        built = write_tree(edition, data, tree.parent / "v2")
        write_legacy_tree(edition, tree.parent / "v2", tree)
        return built

    summary = with_notes(publish(out_dir, f"{edition.name}-legacy", write), data)
    summary.closing = Templates.of(edition.folder).fill("builder/legacy_results_only")
    return summary
