"""The starting kit's README, one per edition: its first command, its own file names and item ids
(taken from the sample submission the build wrote), and the names of the pages that document them.

The template is ``starting_kit/README.md``; each ``{{name}}`` in it is replaced here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List

LOCAL_PHASE = "local"


@dataclass(frozen=True)
class LocalScore:
    """What a participant can score with the starting kit alone: ``first_phase`` (the phase its
    first commands score: ``local``, ``practice`` when its gold is public, '' when none can be
    scored), ``practice_public`` (whether the practice gold is public), ``local_items`` (dataset ->
    items of the local split). Read by the kit's README and by the Baselines page."""

    first_phase: str
    practice_public: bool
    local_items: Dict[str, int]


@dataclass(frozen=True)
class KitFacts:
    """What the README says of one edition's kit: ``score`` (what it can score, ``LocalScore``),
    ``examples`` (file name -> its first line, from the sample submission), ``pages`` (the
    bundle's pages: title and file), ``other_names`` (the tracks' other accepted file names)."""

    score: LocalScore
    examples: Dict[str, str]
    pages: List[dict]
    other_names: List[str]


def _page(pages: List[dict], name: str) -> str:
    for page in pages:
        if page["file"].endswith("/" + name):
            return f"*{page['title']}* page, `{page['file']}`"
    return f"`pages/{name}`"


#: The command that checks a submission's format when no phase can be scored in the kit.
FORMAT_CHECK = (
    "python3 ingestion_program/ingest.py input_data/practice checked "
    "sample_submissions/result_submission.zip"
)

NOTHING_SCORED = (
    "This edition has no training split, so its starting kit has no local validation split "
    "with gold, and the practice gold is hidden: no phase can be scored here."
)


def _first_commands(facts: KitFacts) -> str:
    score = facts.score
    if not score.first_phase:
        return (
            f"{NOTHING_SCORED} The first command checks a submission's format and coverage on "
            f"the practice data, without scores:\n\n```\n{FORMAT_CHECK}\n```\n"
        )
    lines = [
        f"python3 run_local.py . baseline:{name} --phase {score.first_phase}"
        for name in ("cosine_bow", "most_frequent", "random")
    ]
    return "```\n" + "\n".join(lines) + "\n```\n\n" + what_is_scored(score, "They score")


def what_is_scored(score: LocalScore, subject: str) -> str:
    """One paragraph on the phase the kit scores, opening with ``subject`` ("They score")."""
    if score.first_phase != LOCAL_PHASE:
        return f"{subject} the practice phase against its public gold.\n"
    sizes = ", ".join(f"{d} {n}" for d, n in sorted(score.local_items.items()))
    text = (
        f"{subject} the **local** phase: a validation split held out of the training data "
        f"(items per dataset: {sizes}), chosen by a seeded hash of the item ids. In that run the "
        "training data (`input_data/local/*.train.jsonl`) leaves these items out, so a model "
        "never trains on what it is scored on. Its gold is training gold, public anyway; "
        "it is not the platform's practice gold"
    )
    if score.practice_public:
        return text + ". `--phase practice` scores the practice phase against its public gold.\n"
    return text + ", which stays hidden (`--phase practice` says so).\n"


def render(template: str, facts: KitFacts) -> str:
    """The README for one edition from ``template``."""
    values = {
        "first_commands": _first_commands(facts),
        "phase": facts.score.first_phase or "practice",
        "data_page": _page(facts.pages, "data.md"),
        "evaluation_page": _page(facts.pages, "evaluation.md"),
        "terms_page": _page(facts.pages, "terms.md"),
        "examples": "\n".join(line for line in facts.examples.values()),
        "example_files": ", ".join(f"`{name}`" for name in facts.examples),
        "other_names": _other_names(facts),
    }
    for key, value in values.items():
        template = template.replace("{{" + key + "}}", value)
    return template


def _other_names(facts: KitFacts) -> str:
    if not facts.other_names:
        return ""
    overview = facts.pages[0] if facts.pages else None
    where = f" (the *{overview['title']}* page, `{overview['file']}`, explains them)"
    return (
        "This edition also accepts these file names: "
        + ", ".join(f"`{n}`" for n in facts.other_names)
        + (where if overview else "")
        + ".\n"
    )
