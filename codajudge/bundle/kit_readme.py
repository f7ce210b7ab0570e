"""The starting kit's README, one per edition: its first command, its own file names and item ids
(taken from the sample submission the build wrote), and the names of the pages that document them.

The template is ``templates/kit_readme.md``, its parts in ``templates/kit_readme/`` (``bundle.prose``).
Every command the README shows is one the kit runs: where no phase can be scored in the kit (no
training split for a local phase, practice gold hidden), the commands check formats with the
ingestion program.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Tuple

from .. import kinds
from .edition import Edition
from .prose import Templates, listed

LOCAL_PHASE = "local"

#: The sample result submission of the platform's first phase (its items' ids): the platform's own.
PRACTICE_SAMPLE = "sample_submissions/result_submission.zip"
#: The sample result submission of the kit's local phase, when the kit has one.
LOCAL_SAMPLE = "sample_submissions/local_result_submission.zip"


@dataclass(frozen=True)
class LocalScore:
    """What a participant can score with the starting kit alone: ``first_phase`` (the phase its
    first commands score: ``local``, ``practice`` when its gold is public, '' when none can be
    scored), ``practice_public`` (whether the practice gold is public), ``local_items`` (dataset ->
    items of the local split), ``local_scored`` (track title -> the local items it scores, for
    the tracks that score fewer than their dataset's: only those items have the gold the track
    needs), ``shared`` (groups of datasets whose local items are the same items, from one
    training source: their tracks' local scores say nothing of each track's own data). Read by
    the kit's README and by the Baselines and Evaluation pages."""

    first_phase: str
    practice_public: bool
    local_items: Dict[str, int]
    local_scored: Dict[str, int] = field(default_factory=dict)
    shared: List[Tuple[str, ...]] = field(default_factory=list)

    @property
    def has_local(self) -> bool:
        return self.first_phase == LOCAL_PHASE

    @property
    def practice_gold(self) -> str:
        """``public`` or ``hidden``: the practice phase's gold, which names the texts saying so."""
        return "public" if self.practice_public else "hidden"


def checked_sample(score: LocalScore) -> str:
    """The sample result submission the README's check command takes: the local phase's when
    the kit has one, else the practice phase's."""
    return LOCAL_SAMPLE if score.has_local else PRACTICE_SAMPLE


def _page(prose: Templates, pages: List[dict], name: str) -> str:
    """The bundle's page ``pages/NAME`` (the builder always writes data, evaluation and terms)."""
    page = next(page for page in pages if page["file"] == f"pages/{name}")
    return prose.fill("kit_readme/page", **page)


#: The baselines the first commands run, in this order, when the edition runs them.
FIRST_BASELINES = ("cosine_bow", "most_frequent", "random")


def _intro(prose: Templates, score: LocalScore) -> str:
    if not score.first_phase:
        return prose.fill("kit_readme/intro_nothing")
    practice = prose.fill(
        "kit_readme/practice_public" if score.practice_public else "kit_readme/practice_data"
    )
    held = prose.fill("kit_readme/with_local", practice=practice) if score.has_local else practice
    return prose.fill("kit_readme/intro", held=held)


def _first_commands(prose: Templates, score: LocalScore, baselines: List[str]) -> str:
    if not score.first_phase:
        return nothing_scored(prose, "kit_readme/first_commands_nothing") + "\n"
    names = [name for name in FIRST_BASELINES if name in baselines] or ["random"]
    lines = [run_command(score, f"baseline:{name}") for name in names]
    scored = what_is_scored(prose, score, prose.fill("kit_readme/they_score"))
    return prose.fill("kit_readme/first_commands", commands="\n".join(lines), scored=scored) + "\n"


def _sizes(prose: Templates, score: LocalScore) -> str:
    """The local items per dataset, and the tracks that score fewer (``kit_readme/sizes_fewer``)."""
    sizes = ", ".join(f"{d} {n}" for d, n in sorted(score.local_items.items()))
    fewer = [
        prose.fill("kit_readme/track_scores", track=title, count=n)
        for title, n in score.local_scored.items()
    ]
    template = "kit_readme/sizes_fewer" if fewer else "kit_readme/sizes"
    return prose.fill(template, sizes=sizes, fewer=listed(fewer))


def what_is_scored(prose: Templates, score: LocalScore, subject: str) -> str:
    """One paragraph on the phase the kit scores (``kit_readme/scored_PHASE``, the kit's first
    phase: local or practice), opening with ``subject`` ("They score")."""
    practice = prose.fill(f"kit_readme/local_practice_{score.practice_gold}")
    groups = "; ".join(listed(list(group)) for group in score.shared)
    # the datasets whose local items are the same
    shared = " " + prose.fill("kit_readme/shared", groups=groups) if score.shared else ""
    return prose.fill(
        f"kit_readme/scored_{score.first_phase}",
        subject=subject,
        sizes=_sizes(prose, score),
        shared=shared,
        practice=practice,
    )


def _samples(prose: Templates, score: LocalScore, baseline: str) -> str:
    """What each sample result submission is for (``baseline``'s predictions), with a command that
    takes it: ``kit_readme/samples_PHASE``, the kit's first phase (local, practice, or nothing)."""
    practice = prose.fill("kit_readme/sample_practice", sample=PRACTICE_SAMPLE, baseline=baseline)
    note = prose.fill(f"kit_readme/practice_note_{score.practice_gold}")
    return prose.fill(
        f"kit_readme/samples_{score.first_phase or 'nothing'}",
        local_sample=LOCAL_SAMPLE,
        sample=PRACTICE_SAMPLE,
        format_check=FORMAT_CHECK,
        baseline=baseline,
        practice=practice,
        practice_note=note,
    )


def run_command(score: LocalScore, submission: str, output: str = "checked") -> str:
    """The command scoring ``submission`` on the kit's first phase or, where the kit can score
    none, the ingestion program checking its format on the practice data (writing to ``output``)."""
    if not score.first_phase:
        return f"python3 ingestion_program/ingest.py input_data/practice {output} {submission}"
    return f"python3 run_local.py . {submission} --phase {score.first_phase}"


#: The command that checks a submission's format when no phase can be scored in the kit.
FORMAT_CHECK = run_command(LocalScore("", False, {}), PRACTICE_SAMPLE)


def nothing_scored(prose: Templates, template: str) -> str:
    """Template ``template``: the kit scores no phase (``kit_readme/nothing_scored``), and the
    command that checks a submission's format instead (``FORMAT_CHECK``)."""
    why = prose.fill("kit_readme/nothing_scored")
    return prose.fill(template, nothing_scored=why, format_check=FORMAT_CHECK)


def example_baseline(baselines: List[str]) -> str:
    """A baseline the edition runs, for the commands the pages show (cosine_bow when run)."""
    if "cosine_bow" in baselines or not baselines:
        return "cosine_bow"
    return baselines[0]


def render(
    edition: Edition,
    score: LocalScore,
    examples: Dict[str, str],
    pages: List[dict],
    sample_baseline: str,
) -> str:
    """The README for one edition from template ``kit_readme``: ``score``, what its kit can score;
    ``examples``, file name -> its first line, one file per kind of track, from the sample the
    README checks (``checked_sample``); ``pages``, the bundle's pages (title and file);
    ``sample_baseline``, the baseline whose predictions the samples are."""
    prose = Templates.of(edition.folder)
    baselines = list(edition.baselines)
    # a track taking one value per line in input order, as SemEval's
    positional = any(kinds.of(t).positional_by_default for t in edition.tracks)
    blocks = [f"`{name}`:\n\n```\n{line}\n```" for name, line in examples.items()]
    text = prose.fill(
        "kit_readme",
        intro=_intro(prose, score),
        run_heading=prose.fill(
            "kit_readme/run_heading" if score.first_phase else "kit_readme/check_heading"
        ),
        first_commands=_first_commands(prose, score, baselines),
        code_command=run_command(score, "sample_submissions/code_submission", "predictions"),
        check_command=run_command(score, "my_submission.zip"),
        check_note="" if score.first_phase else prose.fill("kit_readme/check_note") + "\n\n",
        evaluation_baseline=example_baseline(baselines),
        data_page=_page(prose, pages, "data.md"),
        evaluation_page=_page(prose, pages, "evaluation.md"),
        terms_page=_page(prose, pages, "terms.md"),
        examples="\n\n".join(blocks),
        checked_sample=checked_sample(score),
        samples=_samples(prose, score, sample_baseline),
        positional=prose.fill("kit_readme/positional") + "\n" if positional else "",
        other_names=_other_names(prose, edition, pages),
    )
    return text + "\n"


def _other_names(prose: Templates, edition: Edition, pages: List[dict]) -> str:
    """The tracks' other accepted file names, and the first page, which explains them."""
    # tracks of one file share its names
    names = list(dict.fromkeys(name for t in edition.tracks for name in t.file_names[1:]))
    if not names:
        return ""
    # the first page, which explains them (a page entry: its title and file)
    where = " " + prose.fill("kit_readme/other_names_where", **pages[0])
    listed_names = ", ".join(f"`{n}`" for n in names)
    return " " + prose.fill("kit_readme/other_names", names=listed_names, where=where)
