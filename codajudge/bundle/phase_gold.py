"""Which gold a configuration may publish, and which phases may score the same items (issue 34).

Codabench offers every phase's files from day one, so gold is public or hidden for the whole
competition. Three rules, checked on the config (``config_problems``: split names, ``sample`` and
``exclude``) and again on the items once read (``item_problems``: by texts, ``text_key``):

1. A split is hidden when any phase hides it, whatever order the phases come in: no phase may
   publish the gold of a split another phase hides (``public_gold: true`` on the same split).
2. A split that shares items with a hidden split is never public: the training split and a
   public-gold phase's split may not be a ``sample`` of a hidden split (``known_repeats`` counts a
   release's own repeats, never the items a sample copies).
3. Before the evaluation ends, no hidden-gold phase scores items that a later hidden-gold phase
   scores, in any dataset: its scores, one submission after another, would reveal the later
   phase's gold. A post-campaign phase (one that starts after the evaluation ends,
   ``post_campaign``) is exempt: by then the evaluation's gold has done its work.

A dataset's ``exclude: {SPLIT: OTHER}`` leaves out of SPLIT the items whose texts OTHER holds in any
dataset, which makes two splits disjoint (``sample`` + ``exclude`` hold a part out of a split).
"""

import itertools
from collections.abc import Iterator, Sequence

from ..errors import Problem, first_few
from .leaks import text_key
from .prose import listed

PUBLISH_KEY = "public_gold"


def hidden_splits(phases: Sequence) -> set[str]:
    """The splits some phase hides the gold of (a split is hidden when any phase hides it)."""
    return {phase.split for phase in phases if phase.hide_gold}


def post_campaign(phases: Sequence) -> set[str]:
    """The ids of the phases that start after the evaluation ends: the end of the phase
    ``evaluation``, else of the last phase that has an end (none when no phase has one)."""
    ends = [phase.end for phase in phases if phase.end is not None]
    evaluation = [phase.end for phase in phases if phase.id == "evaluation" and phase.end]
    end = (evaluation or ends or [None])[-1]
    return {phase.id for phase in phases if end is not None and phase.start > end}


def shared_items(source: dict, first: str, second: str) -> str:
    """Why two different splits ``first`` and ``second`` of one dataset hold the same items by its
    config ('' when nothing says so): one a ``sample`` of the other (or both of one split), unless
    ``exclude`` leaves one's items out of the other (the callers report a split scored twice
    themselves)."""
    excluded = source.get("exclude") or {}
    if excluded.get(first) == second or excluded.get(second) == first:
        return ""
    # split -> the split it samples (the schema has checked each entry is a mapping with 'of')
    sampled = {split: entry["of"] for split, entry in (source.get("sample") or {}).items()}
    for sample, of in ((first, second), (second, first)):
        if sampled.get(sample) == of:
            return f"its {sample} split is a sample of its {of} split"
    if sampled.get(first) and sampled.get(first) == sampled.get(second):
        return f"its {first} and {second} splits are both samples of its {sampled[first]} split"
    return ""


def _dataset_sharing(datasets: dict[str, dict], first: str, second: str) -> list[tuple[str, str]]:
    """(dataset, why) of the datasets whose splits ``first`` and ``second`` share items."""
    reasons = [(name, shared_items(source, first, second)) for name, source in datasets.items()]
    return [(name, why) for name, why in sorted(reasons) if why]


def config_problems(phases: Sequence, datasets: dict[str, dict]) -> Iterator[Problem]:
    """Rules 1, 2 and 3 on the config, each problem naming both phases (or the dataset and the
    phase) and the key to change."""
    # (split, the phase publishing its gold) of every public split: train (no phase) first; a
    # phase hiding the same split (rule 1), or a hidden split sharing items with it (rule 2)
    for split, publisher in [("train", None)] + [(p.split, p) for p in phases if p.public_gold]:
        for hidden in sorted(hidden_splits(phases)):
            hiders = [p for p in phases if p.hide_gold and p.split == hidden]
            if hidden == split:
                yield _public_on_hidden_split(publisher, hiders)
                continue
            for name, why in _dataset_sharing(datasets, split, hidden):
                yield _public_sample(name, why, split, publisher, hiders)
    for earlier, later in later_hidden_pairs(phases):  # rule 3
        if earlier.split == later.split:
            yield _rescored(earlier, later, "", f"both score the {later.split} split")
            continue
        for dataset, why in _dataset_sharing(datasets, earlier.split, later.split):
            yield _rescored(earlier, later, dataset, why)


def _hide(phases: Sequence) -> str:
    """ "phase 'evaluation' hides" or "phases 'evaluation' and 'post-campaign' hide"."""
    quoted = [repr(phase.id) for phase in phases]
    return f"phase {quoted[0]} hides" if len(quoted) == 1 else f"phases {listed(quoted)} hide"


def _public_on_hidden_split(publisher, hiders: Sequence) -> Problem:
    return Problem(
        f"phases ({publisher.id})",
        f"phase {publisher.id!r} publishes the gold of the {publisher.split} split "
        f"({PUBLISH_KEY}: true), which {_hide(hiders)}: the starting kit would hold that gold "
        "from day one",
        expected=f"{PUBLISH_KEY}: false on phase {publisher.id!r}, or another split",
        found=f"{PUBLISH_KEY}: true, split: {publisher.split}",
        hint="Codabench offers every phase's files from day one; to publish test gold after the "
        "evaluation, rebuild then with the evaluation phase's gold public and upload that bundle "
        "(README, 'publishing the test gold after the evaluation')",
    )


def _public_sample(dataset: str, why: str, split: str, publisher, hiders: Sequence) -> Problem:
    hidden = hiders[0].split
    shown, fix = "the training split is public", "sample a split no phase hides"
    if publisher is not None:
        shown = f"phase {publisher.id!r} publishes the {split} gold ({PUBLISH_KEY}: true)"
        fix = f"set {PUBLISH_KEY}: false on phase {publisher.id!r}, or {fix}"
    return Problem(
        f"datasets '{dataset}'",
        f"{why}; {_hide(hiders)} the gold of the {hidden} split and {shown}: a split sharing "
        "items with a hidden split is never public",
        expected=f"a public {split} split that holds none of the {hidden} split's items",
        hint=f"{fix}, or make the splits disjoint (exclude: {{{hidden}: {split}}} leaves the "
        f"{split} items out of the {hidden} split)",
    )


def later_hidden_pairs(phases: Sequence) -> list[tuple[object, object]]:
    """(earlier, later) hidden-gold phases, the later one not post-campaign."""
    after = post_campaign(phases)
    pairs = itertools.combinations([p for p in phases if p.hide_gold], 2)
    return [(earlier, later) for earlier, later in pairs if later.id not in after]


def rescored(where: str, earlier: str, later: str, why: str, found: str, hint: str) -> Problem:
    """Rule 3's problem at ``where``: phase ``earlier`` scores items that the later phase ``later``
    scores, both with gold hidden (phases named as the caller shows them), ``why`` saying how they
    share items, ``found`` an example ('' when none). The builder's ``hint`` says how to change
    the config, the bundle checker's to rebuild; both are told of the post-campaign exemption."""
    return Problem(
        where,
        f"phase {earlier!r} scores items that the later phase {later!r} scores, both with gold "
        f"hidden ({why}): the scores of its submissions would reveal the gold of phase "
        f"{later!r} before the evaluation ends",
        expected=f"phase {earlier!r} scoring no item of phase {later!r}",
        found=found or None,
        hint=f"{hint}; a phase starting after the evaluation ends may score them again",
    )


def _rescored(earlier, later, dataset: str, why: str, example: str = "") -> Problem:
    where = f"datasets '{dataset}'" if dataset else f"phases ({earlier.id})"
    first, second = earlier.split, later.split
    hint = (
        f"make the {first} and {second} splits disjoint: exclude: {{{second}: {first}}} leaves the "
        f"{first} items out of the {second} split (exclude: {{{first}: {second}}} the reverse); or "
        f"score a held-out part of train in phase {earlier.id!r} (sample: {{{first}: {{of: train, "
        f"...}}}} with exclude: {{train: {first}}})"
    )
    return rescored(where, earlier.id, later.id, why, example, hint)


def item_problems(phases: Sequence, splits: dict[str, dict[str, list[dict]]]) -> Iterator[Problem]:
    """Rule 3 on the items read (``splits``: split -> dataset -> items), by texts, across every
    dataset of the edition: what the config cannot tell (one release file read as two splits, a
    release repeating items across splits, two datasets reading one file)."""
    for earlier, later in later_hidden_pairs(phases):
        if earlier.split == later.split:
            continue  # config_problems has refused it
        # texts -> (dataset, id) of the later phase's first item holding them; no texts left out
        later_items: dict[tuple, tuple[str, str]] = {}
        for dataset, items in sorted(splits[later.split].items()):
            for item in items:
                if any(text_key(item)):
                    later_items.setdefault(text_key(item), (dataset, str(item["id"])))
        for dataset, items in sorted(splits[earlier.split].items()):
            shared: dict[str, list[tuple[str, str]]] = {}  # later dataset -> (earlier id, later id)
            for item in items:
                if match := later_items.get(text_key(item)):
                    shared.setdefault(match[0], []).append((str(item["id"]), match[1]))
            for other, pairs in sorted(shared.items()):
                yield _rescored_items(earlier, later, dataset, other, pairs)


def _rescored_items(earlier, later, dataset: str, other: str, pairs: list) -> Problem:
    """Rule 3's problem for the items of ``dataset``'s split that phase ``earlier`` scores with the
    texts of items of ``other``'s split that phase ``later`` scores (``pairs``: their ids)."""
    first, second = earlier.split, later.split
    ids = first_few([repr(scored) for scored, _ in pairs])
    found = f"{len(pairs)} such {first} items ({ids}): {first} item {pairs[0][0]!r} has the texts "
    found += f"of {second} item {pairs[0][1]!r}"
    if other == dataset:
        why = f"its {first} and {second} splits hold items with the same texts"
        return _rescored(earlier, later, dataset, why, found)
    hint = (
        f"leave them out: exclude: {{{first}: {second}}} on dataset '{dataset}' (exclude leaves out "
        f"the items whose texts the {second} split of any dataset holds), or exclude: {{{second}: "
        f"{first}}} on dataset '{other}'"
    )
    why = f"its {first} split holds items with the texts of the {second} split of dataset '{other}'"
    return rescored(
        f"datasets '{dataset}'", earlier.id, later.id, why, f"{found} of '{other}'", hint
    )
