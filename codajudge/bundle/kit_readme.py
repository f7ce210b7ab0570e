"""The starting kit's README, one per edition: its first command, its own file names and item ids
(taken from the sample submission the build wrote), and the names of the pages that document them.

The template is ``starting_kit/README.md``; each ``{{name}}`` in it is replaced here. Every command
the README shows is one the kit runs: where no phase can be scored in the kit (no training split
for a local phase, practice gold hidden), the commands check formats with the ingestion program.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Tuple

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


@dataclass(frozen=True)
class KitFacts:
    """What the README says of one edition's kit: ``score`` (what it can score, ``LocalScore``),
    ``examples`` (file name -> its first line, one file per kind of track, from the sample the
    README checks: ``checked_sample``), ``pages`` (the bundle's pages: title and file),
    ``other_names`` (the tracks' other accepted file names), ``sample_baseline`` (the baseline
    whose predictions the samples are), ``baselines`` (the baselines the edition runs),
    ``positional`` (whether a track takes one value per line in input order, as SemEval's)."""

    score: LocalScore
    examples: Dict[str, str]
    pages: List[dict]
    other_names: List[str]
    sample_baseline: str = "cosine_bow"
    baselines: List[str] = field(default_factory=lambda: ["random", "most_frequent", "cosine_bow"])
    positional: bool = True


def checked_sample(score: LocalScore) -> str:
    """The sample result submission the README's check command takes: the local phase's when
    the kit has one, else the practice phase's."""
    return LOCAL_SAMPLE if score.has_local else PRACTICE_SAMPLE


#: Where a track takes SemEval's positional files (``KitFacts.positional``).
POSITIONAL = (
    "For similarity tracks the SemEval format also works: one score per line, in input order.\n"
)


def _page(pages: List[dict], name: str) -> str:
    for page in pages:
        if page["file"].endswith("/" + name):
            return f"*{page['title']}* page, `{page['file']}`"
    return f"`pages/{name}`"


def format_check(submission: str, output: str = "checked") -> str:
    """The ingestion program checking ``submission`` on the practice data, without scores."""
    return f"python3 ingestion_program/ingest.py input_data/practice {output} {submission}"


#: The command that checks a submission's format when no phase can be scored in the kit.
FORMAT_CHECK = format_check(PRACTICE_SAMPLE)

NOTHING_SCORED = (
    "This edition has no training split, so its starting kit has no local validation split "
    "with gold, and the practice gold is hidden: no phase can be scored here."
)

#: What a run of ``run_local.py`` does and prints, after the kit's first commands.
TWO_STEPS = """Each command runs Codabench's two steps on your machine: the prediction step (the ingestion program
runs the submission with the phase's input data, never the gold) and the scoring step (the scoring
program compares the predictions with the gold). It prints the leaderboard row. Add `--output out`
to keep `scores.json`, `detailed_results.html` (open it in a browser), `detailed_results.csv`
(every item's gold, your prediction and its error) and the predictions.
"""

#: What the format check does and prints, where nothing can be scored.
PREDICTION_STEP_ONLY = """This is Codabench's prediction step alone (the ingestion program, which never reads the gold): it
refuses a submission with the platform's messages, or copies its files into `checked/` and prints
the tracks it holds predictions for. It prints no score.
"""


#: The baselines the first commands run, in this order, when the edition runs them.
FIRST_BASELINES = ("cosine_bow", "most_frequent", "random")


def _intro(score: LocalScore) -> str:
    if not score.first_phase:
        return (
            "It is itself a small competition bundle of the practice phase, whose gold is hidden: "
            "it checks a submission's format and coverage exactly as the platform will, but "
            "scores nothing (see below)."
        )
    practice = (
        "the practice phase with its public gold"
        if score.practice_public
        else "the practice phase's public data"
    )
    held = (
        f"a local validation phase with its gold, and {practice}" if score.has_local else practice
    )
    return (
        f"It is itself a small competition bundle ({held}), so you can score yourself with the "
        "platform's own programs."
    )


def _first_commands(facts: KitFacts) -> str:
    score = facts.score
    if not score.first_phase:
        return (
            f"{NOTHING_SCORED} The first command checks a submission's format and coverage on "
            f"the practice data, without scores:\n\n```\n{FORMAT_CHECK}\n```\n\n"
            + PREDICTION_STEP_ONLY
        )
    names = [name for name in FIRST_BASELINES if name in facts.baselines] or ["random"]
    lines = [
        f"python3 run_local.py . baseline:{name} --phase {score.first_phase}" for name in names
    ]
    scored = what_is_scored(score, "They score")
    return "```\n" + "\n".join(lines) + "\n```\n\n" + scored + "\n" + TWO_STEPS


def _sizes(score: LocalScore) -> str:
    sizes = ", ".join(f"{d} {n}" for d, n in sorted(score.local_items.items()))
    if not score.local_scored:
        return f"items per dataset: {sizes}"
    fewer = [f"track {title} scores {n}" for title, n in score.local_scored.items()]
    return (
        f"items per dataset: {sizes}; of these, {listed(fewer)}: the items with the gold "
        "each track needs"
    )


def _shared_text(score: LocalScore) -> str:
    """The sentence on datasets whose local items are the same, '' when there are none."""
    if not score.shared:
        return ""
    groups = [listed(list(group)) for group in score.shared]
    return (
        f" The datasets {'; '.join(groups)} share one training source, so their local items are "
        "the same and a system scores alike on their tracks of one kind: there the local phase "
        "tests a system end to end, not how it does on each track's own data."
    )


def listed(names: List[str]) -> str:
    """``a, b and c``."""
    return names[0] if len(names) < 2 else f"{', '.join(names[:-1])} and {names[-1]}"


def what_is_scored(score: LocalScore, subject: str) -> str:
    """One paragraph on the phase the kit scores, opening with ``subject`` ("They score")."""
    if not score.has_local:
        return f"{subject} the practice phase against its public gold.\n"
    text = (
        f"{subject} the **local** phase: a validation split held out of the training data "
        f"({_sizes(score)}), chosen by a seeded hash of the item ids. In that run the "
        "training data (`input_data/local/*.train.jsonl`) leaves these items out, so a model "
        "never trains on what it is scored on."
        + _shared_text(score)
        + " Its gold is training gold, public anyway; it is not the platform's practice gold"
    )
    if score.practice_public:
        return text + ". `--phase practice` scores the practice phase against its public gold.\n"
    return text + ", which stays hidden (`--phase practice` says so).\n"


def _examples(facts: KitFacts) -> str:
    """One small block per example file, its name above it."""
    blocks = [f"`{name}`:\n\n```\n{line}\n```" for name, line in facts.examples.items()]
    return "\n\n".join(blocks)


def _samples(facts: KitFacts) -> str:
    """What each sample result submission is for, with a command that takes it."""
    score, baseline = facts.score, facts.sample_baseline
    practice = (
        f"`{PRACTICE_SAMPLE}` holds the {baseline} baseline's predictions of the practice phase"
    )
    if not score.first_phase:
        return (
            f"{practice}: a complete example, to upload to the platform's practice phase (its "
            f"gold is hidden, so this kit checks it without scores: `{FORMAT_CHECK}`)."
        )
    if score.practice_public and not score.has_local:
        return (
            f"{practice}: a complete example "
            f"(`python3 run_local.py . {PRACTICE_SAMPLE} --phase practice` scores it)."
        )
    local = (
        f"`{LOCAL_SAMPLE}` is a complete example for the local phase (the {baseline} baseline's "
        f"predictions of its items): `python3 run_local.py . {LOCAL_SAMPLE} --phase local` "
        f"scores it. {practice}, the ids the platform's practice phase takes: upload it there"
    )
    if score.practice_public:
        return local + " (here `--phase practice` scores it)."
    return local + " (its gold is hidden, so this kit does not score it)."


def _code_command(score: LocalScore) -> str:
    submission = "sample_submissions/code_submission"
    if not score.first_phase:
        return format_check(submission, "predictions")
    return f"python3 run_local.py . {submission} --phase {score.first_phase}"


def _check_command(score: LocalScore) -> str:
    if not score.first_phase:
        return format_check("my_submission.zip")
    return f"python3 run_local.py . my_submission.zip --phase {score.first_phase}"


def _check_note(score: LocalScore) -> str:
    """What the check command does, where it does not score."""
    if score.first_phase:
        return ""
    return (
        "It checks the zip against the practice phase's items (the kit scores nothing: "
        "see above); for another phase, give that phase's data in place of "
        "`input_data/practice`.\n\n"
    )


def _evaluation_baseline(facts: KitFacts) -> str:
    """A baseline the edition runs, for the evaluation-phase commands (cosine_bow when run)."""
    if "cosine_bow" in facts.baselines or not facts.baselines:
        return "cosine_bow"
    return facts.baselines[0]


def render(template: str, facts: KitFacts) -> str:
    """The README for one edition from ``template``."""
    values = {
        "intro": _intro(facts.score),
        "run_heading": "Run the baselines and the scorer"
        if facts.score.first_phase
        else "Check a submission's format (nothing is scored here)",
        "first_commands": _first_commands(facts),
        "code_command": _code_command(facts.score),
        "check_command": _check_command(facts.score),
        "check_note": _check_note(facts.score),
        "evaluation_baseline": _evaluation_baseline(facts),
        "data_page": _page(facts.pages, "data.md"),
        "evaluation_page": _page(facts.pages, "evaluation.md"),
        "terms_page": _page(facts.pages, "terms.md"),
        "examples": _examples(facts),
        "checked_sample": checked_sample(facts.score),
        "samples": _samples(facts),
        "positional": POSITIONAL if facts.positional else "",
        "other_names": _other_names(facts),
    }
    for key, value in values.items():
        template = template.replace("{{" + key + "}}", value)
    return template


def _other_names(facts: KitFacts) -> str:
    names = list(dict.fromkeys(facts.other_names))  # tracks of one file share its names
    if not names:
        return ""
    overview = facts.pages[0] if facts.pages else None
    where = f" (the *{overview['title']}* page, `{overview['file']}`, explains them)"
    return (
        " This edition also accepts these file names: "
        + ", ".join(f"`{n}`" for n in names)
        + (where if overview else "")
        + "."
    )
