"""What only the kit can check: each phase's reference data scored as a perfect submission (every
metric at its best, every leaderboard column a key the scorer writes, sorted in its metric's
direction), each dataset's gold with the item ids of the same task's input data, no public file
carrying hidden gold, and the phases against ``phase_gold``'s third rule: before the evaluation
ends, no hidden-gold phase scores items that a later hidden-gold phase scores (Codabench v2
bundles; a post-campaign phase, one starting after the evaluation ends, is exempt). Items are the
same when their texts are (``text_key``, the texts read from the task's input data), or their ids
when the input data has no texts for them."""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import itertools
from contextlib import suppress
from pathlib import Path
from types import ModuleType
from typing import Callable, NamedTuple

from ...assets import kit_command
from ...errors import KitError, Problem, counted
from ...formats.archive import safe_extract
from ...fields import did_you_mean
from ...formats.items import read_items
from ...metrics import get as get_metric
from ...scoring import Result
from ...spec import PHASES, read_spec
from ..build import gold_problems, score_gold
from ..compose import score_rows
from ..leaks import HiddenSplit, check_public_tree, read_known_leaks, text_key
from ..phase_gold import later_hidden_pairs, rescored
from .findings import Findings, as_int, relative_path, scratch_folder
from .v2 import phase_dates, references as scored_references


def _gold_digest(folder: Path) -> str:
    """The digest of the folder's ``*.jsonl`` regular files, names and bytes (a folder, a link or a
    pipe of such a name in a bundle it did not build is not read: a pipe would block)."""
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.jsonl")):
        if path.is_file() and not path.is_symlink():
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _folder(root: Path, value, work: Path) -> Path | None:
    """A folder of the bundle as it is, a zip extracted into a new folder of ``work`` (as a
    submission is: ``safe_extract``); None when it is not there or cannot be extracted."""
    path = relative_path(root, value)
    if path is None or path.is_dir():
        return path
    if not path.is_file():  # absent, or a pipe or device that opening would block on
        return None
    target = work / str(len(list(work.iterdir())))
    with suppress(KitError):  # a zip that extraction refuses: nothing to read
        safe_extract(path, target, str(value))
        return target
    return None


class Reference(NamedTuple):
    """A scored phase's reference data: ``where`` its path in the bundle, ``result`` its gold
    scored as a perfect submission (its spec and each track's gold), ``digest`` its gold files'
    (``_gold_digest``), ``items`` each dataset's items with the texts of the same task's input
    items of the same ids (reference data holds no texts), so that a public file holding them under
    new ids is found by its texts."""

    where: str
    result: Result
    digest: str
    items: dict[str, list[dict]]


def _items(folder: Path, inputs: tuple, where: str, dataset: str, findings: Findings) -> list:
    """The reference items of ``dataset``, with the texts of the input items of the same ids
    (``inputs``: the input data's folder, None without one, and its path), whose ids they must
    have: every submission predicts the input items, and the scorer refuses other ids."""
    name, (input_folder, shown) = f"{dataset}.jsonl", inputs
    items, texts = read_items(folder / name, f"{where}/{name}", texts=False), {}
    if input_folder is not None and (input_folder / name).is_file():
        with suppress(KitError):  # an input file that does not read: its own finding says so
            input_items = read_items(input_folder / name, texts=False)
            texts = {it["id"]: it["texts"] for it in input_items if "texts" in it}
            _check_ids((f"{where}/{name}", items), (f"{shown}/{name}", input_items), findings)
    return [dict(it, texts=texts[it["id"]]) if it["id"] in texts else it for it in items]


def _check_ids(gold: tuple[str, list], inputs: tuple[str, list], findings: Findings) -> None:
    """A finding when the reference items (``gold``: their file and the items) have other ids than
    the input items (``inputs``, the same)."""
    (gold_file, gold_ids), (input_file, input_ids) = [
        (file, {str(it["id"]) for it in items}) for file, items in (gold, inputs)
    ]
    if gold_ids != input_ids:
        found = f"{counted(len(gold_ids), 'id')} in {gold_file}"
        for only, file in ((gold_ids - input_ids, gold_file), (input_ids - gold_ids, input_file)):
            if only:
                found += f"; {len(only)} only in {file}, e.g. {', '.join(sorted(only)[:3])}"
        message = "the gold's item ids are not those of the input data: every submission would fail"
        expected = f"the {counted(len(input_ids), 'id')} of {input_file}"
        hint = "point the task's reference_data and input_data at the same phase's folders, or "
        hint += f"rebuild the bundle with {kit_command('build')}"
        findings.add(gold_file, message, expected=expected, found=found, hint=hint)


def check_content(doc: dict, root: Path, findings: Findings, platform: ModuleType) -> None:
    with scratch_folder("codajudge-content-") as work:
        references: dict[str, Reference] = {}
        metrics: dict[str, str] = {}  # each score key the scorer writes -> its metric's name
        # each folder of the bundle, or zip extracted, once for the wiring and the gold's checks
        opened = functools.cache(functools.partial(_folder, root, work=work))
        _check_wiring(doc, platform, opened, findings)
        for value, (where, folder, inputs) in _folders(doc, platform, opened, findings).items():
            try:
                result = score_gold(folder)
            except KitError as e:
                findings.problems += [Problem(where, p.render()) for p in e.problems]
                continue
            # the columns are compared with the keys of every phase at once, below
            findings.problems += gold_problems(result, list(result.scores()), where)
            datasets = {track.dataset for track in result.spec.tracks}
            items = {name: _items(folder, inputs, where, name, findings) for name in datasets}
            references[value] = Reference(where, result, _gold_digest(folder), items)
            metrics.update({key: metric for key, _, metric in score_rows(result.spec.tracks)})
        sortings = platform.column_sortings(doc)
        _check_column_keys(platform.score_keys(doc), sortings, metrics, findings)
        _check_sortings(sortings, metrics, findings)
        if findings.layout_sound():
            paths = [relative_path(root, value) for value in platform.published_paths(doc)]
            public = sorted({path for path in paths if path is not None and path.exists()})
            _check_leaks(root, references, public, _public_gold_digests(root, work), findings)
        if findings.layout_sound() and platform.HAS_PHASE_ENDS:
            check_rescored(doc, references, findings)


def _check_column_keys(columns: list, sortings: dict, metrics: dict, findings: Findings) -> None:
    """A finding for each of the leaderboard's ``columns`` that shows no key the scorer writes
    (``metrics``' keys), at its place (``sortings``: ``_check_sortings``'). A key the scorer writes
    with no column is none: Codabench leaves it out of the leaderboard."""
    for key in [key for key in columns if key not in metrics]:
        hint = did_you_mean(key, list(metrics)) or "remove the column"
        message = "the column shows no key the scoring program writes: it would stay empty"
        expected = "a key the scoring program writes"
        place = sortings[key][0]
        findings.add_rule_break(place, message, expected=expected, found=repr(key), hint=hint)


def _check_sortings(sortings: dict, metrics: dict[str, str], findings: Findings) -> None:
    """A finding for each of the leaderboard's columns (``sortings``: key -> (its place, the name
    of its sorting key, its sorting)) that ranks a score (``metrics``: key -> its metric's name)
    against its metric's direction."""
    for key, (place, name, sorting) in sortings.items():
        higher = key in metrics and get_metric(metrics[key]).higher_is_better
        right, better = ("desc", "higher") if higher else ("asc", "lower")
        if key in metrics and sorting != right:
            message = f"column {key!r} ranks its metric {metrics[key]!r}, {better} is better, in "
            message += "reverse: the best runs would rank last"
            expected, found = f"{name}: {right}", f"{name}: {sorting}"
            findings.add_rule_break(place, message, expected=expected, found=found)


def _folders(
    doc: dict, platform: ModuleType, opened: Callable, findings: Findings
) -> dict[str, tuple[str, Path, tuple]]:
    """reference_data path -> (its display, its folder, (the folder of the same task's input data,
    None without one, and its display)) of every scored phase's reference data that has a
    task.json (``opened``: a path of the bundle -> its folder, ``_folder``)."""
    folders = {}
    for phase, value, inputs, _ in platform.references(doc):
        if value in folders:
            continue
        folder = opened(value)
        if folder is None or not (folder / "task.json").is_file():
            findings.add(
                str(value),
                f"reference data of phase {phase!r} has no task.json, which the scoring "
                "program reads",
                hint=f"build the bundle with {kit_command('build')}",
            )
            continue
        folders[value] = (str(value), folder, (opened(inputs), str(inputs)))
    return folders


def _check_wiring(doc: dict, platform: ModuleType, opened: Callable, findings: Findings) -> None:
    """Each scored phase's reference and input data are the data built for one kit phase (their
    task.json's ``phase``), no two phases score the same kit phase's data, and the phase's
    execution_time_limit is the one its task.json gives the programs (``opened``: a path of the
    bundle -> its folder, ``_folder``)."""
    scored_by: dict[str, str] = {}
    seen: list[str] = []  # the kit phase of each phase's data, in phase order
    for name, *values, phase in platform.references(doc):
        specs = {}
        for value in [value for value in values if value and opened(value) is not None]:
            with suppress(KitError):  # a task.json that does not read: its own finding says so
                specs[value] = read_spec(opened(value))
        found = ", ".join(f"{value} of phase {spec.phase!r}" for value, spec in specs.items())
        kit_phases = {spec.phase for spec in specs.values()}
        rebuild = f"rebuild the bundle with {kit_command('build')}"
        hint = f"check {platform.PHASE_DATA_KEYS}, or {rebuild}"
        if len(kit_phases) > 1:
            findings.add(
                f"phase {name!r}",
                "its reference data and input data were built for different phases (their "
                "task.json's 'phase')",
                found=found,
                hint=hint,
            )
        elif kit_phases and scored_by.setdefault(min(kit_phases), name) != name:
            kit_phase, first = min(kit_phases), scored_by[min(kit_phases)]
            repeat = f"scores the same data as phase {first!r}"
            # scored again after the evaluation, the post-campaign's gold hides nothing still to come
            if kit_phase == PHASES[-1] and "evaluation" in seen[: seen.index(kit_phase)]:
                note = f"phase {name!r} {repeat} ({found}), after the evaluation: accepted; "
                findings.notes.append(note + f"its detailed results name phase {kit_phase!r}")
            else:
                findings.add(
                    f"phase {name!r}",
                    repeat,
                    expected="each phase its own data (only the post-campaign phase's may be "
                    "scored again, after the evaluation)",
                    found=found,
                    hint=hint,
                )
        seen.extend(kit_phases)
        limit = as_int(phase.get("execution_time_limit", platform.DEFAULT_TIME_LIMIT))
        _check_time_limit(name, limit, specs, findings)


def _check_time_limit(name: str, limit, specs: dict, findings: Findings) -> None:
    """The phase's execution_time_limit (``limit``, None when the yaml has none) is the one of each
    task.json (``specs``, by folder), which the ingestion program keeps to."""
    for value, spec in specs.items():
        kit_limit = spec.extra.get("execution_time_limit")
        if limit is not None and kit_limit is not None and kit_limit != limit:
            findings.add(
                f"phase {name!r}",
                "execution_time_limit differs from the one the programs keep to (task.json)",
                expected=f"{kit_limit} s, as {value}/task.json says",
                found=f"{limit!r} s in competition.yaml",
                hint="change execution_time_limit in the edition and rebuild, or edit both",
            )
            return


def _check_leaks(
    root: Path,
    references: dict[str, Reference],
    public: list[Path],
    public_gold: dict[str, str],
    findings: Findings,
) -> None:
    """No ``public`` file or folder carries the gold of a phase (``references``: reference_data
    path -> its Reference), except the starting kit a public-gold phase's (``public_gold``:
    ``_public_gold_digests``), and no phase hides the gold the starting kit holds."""
    hidden: dict[str, HiddenSplit] = {}
    seen = set(public_gold)
    for reference in references.values():
        spec = reference.result.spec
        if spec.hide_gold and reference.digest in public_gold:
            kit = public_gold[reference.digest]
            findings.add(
                reference.where,
                f"phase {spec.phase!r} hides its gold (task.json: hide_gold), but {kit}, which "
                "participants have from day one, holds the same gold",
                expected=f"no public-gold phase on the split phase {spec.phase!r} hides",
                found=f"{kit} equal to {reference.where}",
                hint="in the edition, set public_gold: false on the phase whose gold the kit "
                "holds (or give it another split) and rebuild",
            )
        if reference.digest in seen:
            continue
        seen.add(reference.digest)
        for track_id, scored in reference.result.tracks.items():
            items = reference.items[scored.track.dataset]
            hidden[f"{track_id} ({reference.where})"] = HiddenSplit(scored.gold, items)
    if not hidden:
        return
    known = read_known_leaks(root)
    findings.unless_refused(check_public_tree, public, hidden, root, known, known_must_exist=False)


def _public_gold_digests(root: Path, work: Path) -> dict[str, str]:
    """Gold shipped on purpose in the starting kit (a public-gold phase's), by digest -> the kit's
    folder holding it."""
    kits = {name: _folder(root, name, work) for name in ("starting_kit", "starting_kit.zip")}
    return {
        _gold_digest(folder): f"{name}/reference_data/{folder.name}"
        for name, kit in kits.items()
        if kit is not None
        for folder in sorted((kit / "reference_data").glob("*"))
        if folder.is_dir()
    }


#: The files a phase's data folder holds for each dataset its task.json names, and what each is.
DATA_FILES = {
    "reference_data": {"{}.jsonl": "the gold"},
    "input_data": {"{}.jsonl": "the public items", "{}.train.jsonl": "the training items"},
}


def check_data_files(root: Path, findings: Findings) -> None:
    """Every file of a phase's reference and input data that its ``task.json`` names (each track's
    ``DATASET.jsonl``, and the input data's ``DATASET.train.jsonl``, empty for a dataset without
    training items) is there, whatever else is wrong: a missing one is a located problem beside
    ``competition.yaml``'s."""
    for part, files in DATA_FILES.items():
        for folder in sorted(spec_file.parent for spec_file in (root / part).glob("*/task.json")):
            where = f"{part}/{folder.name}"
            try:
                datasets = sorted({track.dataset for track in read_spec(folder).tracks})
            except KitError as e:
                findings.problems += [Problem(where, problem.render()) for problem in e.problems]
                continue
            for dataset, (pattern, what) in itertools.product(datasets, files.items()):
                name = pattern.format(dataset)
                if not (folder / name).is_file():
                    findings.add(
                        f"{where}/{name}",
                        f"the {part.replace('_', ' ')} file is missing",
                        expected=f"{what} of dataset '{dataset}', which {where}/task.json names",
                        hint=f"rebuild the bundle with {kit_command('build')}, or restore the file",
                    )


class ScoredPhase(NamedTuple):
    """One phase of the bundle with reference data, as ``phase_gold.later_hidden_pairs``
    reads it: ``id`` its kit id (task.json's ``phase``), ``where`` its reference data's path,
    ``keys`` the key of each item it scores (of a hidden-gold phase only: the public phases'
    items are not the rule's concern): its texts (``text_key``) in any dataset, else its dataset
    and id."""

    id: str
    name: str
    where: str
    start: dt.datetime | None
    end: dt.datetime | None
    hide_gold: bool
    keys: set[tuple]


def _item_key(dataset: str, item: dict) -> tuple:
    """An item's texts, whatever its dataset (two datasets may read one release), else its id."""
    key = text_key(item)
    return key if any(key) else ("id", dataset, str(item["id"]))


def check_rescored(doc: dict, references: dict[str, Reference], findings: Findings) -> None:
    """A finding for each (earlier, later) pair of the dated hidden-gold phases, the later one not
    post-campaign, that score items in common."""
    phases = []
    for name, value, _, phase in scored_references(doc):
        reference = references[value]
        spec = reference.result.spec
        hidden = reference.items.items() if spec.hide_gold else ()
        keys = {_item_key(dataset, item) for dataset, items in hidden for item in items}
        dates = phase_dates(phase, reference.where, Findings())  # (start, end)
        phases.append(ScoredPhase(spec.phase, name, reference.where, *dates, spec.hide_gold, keys))
    for earlier, later in later_hidden_pairs([p for p in phases if p.start is not None]):
        if shared := len(earlier.keys & later.keys):
            why = f"{later.where} holds {shared} of its items"
            fix = "rebuild from an edition whose earlier phase scores items of its own (exclude, "
            fix += "sample; docs/participant-checks.md)"
            problem = rescored(earlier.where, earlier.name, later.name, why, "", fix)
            findings.problems.append(problem)
