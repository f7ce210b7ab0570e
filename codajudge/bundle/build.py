"""Building a bundle: import and validate everything first, then write the tree and the zip.

Order matters: nothing is written until the config, every dataset split, every track's gold, the
leaderboard keys (checked against what the scorer really writes for a perfect submission) and the
absence of gold in public files have all been checked.
"""

from __future__ import annotations

import functools
import hashlib
import json
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, NamedTuple

import yaml

from .. import __version__, kinds
from ..baselines import baseline_class
from ..assets import CACHES, PACKAGE, kit_root
from ..errors import BuildProblems, ConfigError, KitError, Problem, counted
from ..formats.coverage import write_left_out_ids, write_other_phase_ids
from ..formats.items import GROUP_FIELDS, public_view, reference_view, write_items
from ..formats.write import write_prediction
from ..gold import gold_as_values
from ..importers import PartlyRead, item_lines, load_split, missing_releases, split_source
from ..metrics import get as get_metric
from ..metrics.edition_module import code_failure, metrics_of, module_lines, own_module_of
from ..metrics.edition_module import direction_problems, property_problems
from ..stats.metric_checks import statistics_problems
from ..scoring import load_gold, score_folder, scored_subset
from ..spec import read_spec, write_spec
from ..tracks import dataset_label_tracks
from ..untrusted import remove_entry
from .baselines_run import (
    BaselineScores,
    Samples,
    baseline_scores,
    run_baseline,
    sample_baseline,
    write_missing_track_scores,
    write_solutions,
)
from .check.programs import PROGRAMS
from .compose import competition_yaml, score_rows
from .data_checks import Golds, constant_gold_problems, empty_split_problems, split_golds
from .data_checks import unused_label_notes
from .edition import BUILT_PAGES, Edition, Phase, split_text
from .leaks import (
    HiddenSplit,
    check_public_tree,
    concerns_file,
    text_key,
    texts_ordered,
    write_known_leaks,
)
from .phase_gold import hidden_splits, item_problems
from .pages import (
    LOCAL_PHASE,
    LOCAL_SAMPLE,
    PRACTICE_SAMPLE,
    DataFacts,
    LocalScore,
    generated_pages,
    render,
)
from .prose import Templates, own_page_text
from .sample import sampled_items, smallest_keys
from .placeholders import reused_page_notes
from .schedule import past_phase_notes
from .zipdet import tree_files, write_zip

REPO_ROOT = kit_root()


@dataclass
class EditionData:
    """Items per split and dataset: ``splits['train']['sts_en'] -> [item, ...]``, and their gold."""

    splits: dict[str, dict[str, list[dict]]]
    #: every track's gold on every split read that has its dataset's items (``split_golds``)
    golds: Golds
    repeats: list[Repeats] = field(default_factory=list)
    baseline_scores: BaselineScores = field(default_factory=dict)
    #: baseline -> why it is not run (it learns from a training split the edition does not have)
    skipped_baselines: dict[str, str] = field(default_factory=dict)
    #: baseline -> why it cannot differ from another on some tracks (the Baselines page says it)
    alike_baselines: dict[str, str] = field(default_factory=dict)
    #: the leaks found in the files the edition's ``known_leaks`` declares (built on purpose)
    known_leaks: list[Problem] = field(default_factory=list)
    #: the kit's local phase's items (``local_splits``), None when it has none
    local: dict[str, dict[str, list[dict]]] | None = None
    #: split -> dataset -> (the split ``exclude`` names, the ids of the items it left out)
    left_out: dict[str, dict[str, tuple[str, list[str]]]] = field(default_factory=dict)


def baseline_reasons(edition: Edition, data: EditionData) -> tuple[dict[str, str], dict[str, str]]:
    """(the edition's baselines that need training data on a track whose dataset has none, and
    why; those run that cannot differ from another on some tracks, their items having fewer texts
    than the baseline compares (cosine_bow on one text), and why)."""
    prose = Templates.of(edition.folder)
    without_train = [t for t in edition.tracks if not data.splits["train"].get(t.dataset)]
    most_texts: dict[str, int] = {}  # dataset -> the most texts an item of it has, in any split
    for split in data.splits.values():
        for dataset, items in split.items():
            counts = [len(item.get("texts") or []) for item in items]
            most_texts[dataset] = max([most_texts.get(dataset, 0), *counts])
    skipped, alike = {}, {}
    for name in edition.baselines:
        model = baseline_class(name)
        untrained = next((t for t in without_train if model(t.to_dict()).needs_training), None)
        # every track's dataset has items in a scored split (``import_data``)
        short = [t.title for t in edition.tracks if most_texts[t.dataset] < model.texts_compared]
        if untrained:
            skipped[name] = prose.fill(
                "baselines/untrained_reason", dataset=untrained.dataset, track=untrained.title
            )
        elif short:  # a baseline not run is alike nothing
            alike[name] = prose.fill(
                "baselines/alike_reason",
                tracks=", ".join(short),
                texts=model.texts_compared,
                like=model.alike_without_texts,
            )
    return skipped, alike


def import_data(
    edition: Edition, data_root: Path, found: list[Problem] | None = None
) -> EditionData:
    """Read every split every phase needs (and train, unless a dataset has none) through the
    datasets' importers, and check every dataset's files, every split and every track's gold
    together (``split_golds`` builds each track's gold of each split read); ``found``: the
    config's problems, reported with theirs in one ``BuildProblems``."""
    needed = ["train"] + sorted({p.split for p in edition.phases})
    problems: list[Problem] = list(found or []) + missing_releases(
        edition.datasets, data_root, edition.folder
    )
    splits: dict[str, dict[str, list[dict]]] = {s: {} for s in needed}
    held: dict[str, set[tuple]] = {}  # split -> the texts it holds in any dataset, as read
    for dataset, source in sorted(edition.datasets.items()):
        if missing_releases({dataset: source}, data_root):
            continue  # reported above
        for split, items in _dataset_splits(edition, dataset, data_root, needed, problems).items():
            held.setdefault(split, set()).update(map(text_key, items))
            if split in needed and not (split == "train" and source.get("train") == "none"):
                splits[split][dataset] = items
    left_out: dict[str, dict[str, tuple[str, list[str]]]] = {}  # split -> dataset -> its ids
    for dataset, source in edition.datasets.items():  # the texts another split holds, left out
        for split, other in (source.get("exclude") or {}).items():
            if dataset in splits.get(split, {}):
                texts, items = held.get(other, set()), splits[split][dataset]
                splits[split][dataset] = [it for it in items if text_key(it) not in texts]
                ids = [it["id"] for it in items if text_key(it) in texts]
                left_out.setdefault(split, {})[dataset] = (other, ids)
    place = functools.partial(data_place, edition, data_root)  # (dataset, split) -> where
    lines = functools.partial(item_lines, edition.datasets, data_root)  # (dataset, split, ids)
    # a scored split (every one after train) needs items; a dataset may have no training items
    problems += empty_split_problems(edition.datasets, splits, needed[1:], place)
    unread = len(problems) > len(found or [])
    repeats = [] if unread else check_repeats(edition, splits, problems, place, lines)
    if not unread:  # which phases score the same items, by their texts
        problems.extend(item_problems(edition.phases, splits))
    golds = split_golds(edition.tracks, splits, place, problems, lines)
    problems += constant_gold_problems(edition.phases, golds, place)
    if problems:  # what a dataset not read, or problems in the data read, leave unchecked
        unchecked = "builder/unchecked_unread" if unread else "builder/unchecked_unbuilt"
        raise BuildProblems(problems, unchecked=Templates.of(edition.folder).fill(unchecked))
    local = local_splits(edition, splits["train"])
    return EditionData(splits, golds, repeats, local=local, left_out=left_out)


def data_place(edition: Edition, data_root: Path, dataset: str, split: str) -> str:
    """Where ``dataset``'s ``split`` items come from, for the data checks' messages: the file and
    the dataset's key (``data/items.csv (dataset 'pairs', dev split)``)."""
    path = split_source(edition.datasets[dataset], split).get("path")
    file = f"{Path(data_root) / path} " if path else ""
    return f"{file}(dataset '{dataset}', {split} split)"


def located(problem: Problem, dataset: str, source, config: str, split: str) -> Problem:
    """An importer's ``problem`` naming the dataset's key: a problem in a release file keeps its
    file, one in the dataset's options (``datasets (importer X)``) is the config's, with the
    ``split``'s file; a split without one is said so, with the path the other splits' paths give
    it by their names (``m/dis_test.csv`` -> ``m/dis_dev.csv``), not another split's file."""
    if not problem.file.startswith("datasets"):
        return replace(problem, file=f"{problem.file} (dataset '{dataset}')")
    path = split_source(source, split).get("path")
    named = [(s, v["path"]) for s, v in source.get("splits", {}).items() if s in v.get("path", "")]
    guess = [split.join(other.rsplit(s, 1)) for s, other in named]  # the last mention replaced
    reading = f" (path {path})" if path else f" ({split} split: no path"
    if not path:
        reading += f"; by the other splits' names, {guess[0]})" if guess else ")"
    return replace(problem, file=f"{config}: datasets '{dataset}'{reading}")


def _dataset_splits(
    edition: Edition, dataset: str, data_root: Path, needed: list[str], problems: list[Problem]
) -> dict[str, list[dict]]:
    """split -> items of ``dataset``: each split read (with its tracks' label set) and each split its
    ``exclude`` names, before any ``exclude`` is applied (``import_data`` does, across datasets). A
    split's problems, naming the dataset (``located``), are added to ``problems`` and do not stop
    the others from being read; the rows a table could read are kept (``PartlyRead``), a split that
    could not be read at all is left out."""
    source, where = edition.datasets[dataset], f"datasets '{dataset}'"
    labels = dataset_label_tracks(edition.tracks, dataset)
    read: dict[str, list[dict]] = {}
    # ``train: none``: ChaosNLI's participants train on SNLI and MNLI themselves
    wanted = [s for s in needed if not (s == "train" and source.get("train") == "none")]
    excluded_by = source.get("exclude") or {}
    for split in wanted + sorted(set(excluded_by.values()) - set(wanted)):
        sample = source.get("sample", {}).get(split)  # a seeded sample of another split's items
        try:
            of = sample["of"] if sample else split
            items = load_split(split_source(source, of), data_root, of, where, labels)
            read[split] = sampled_items(items, split, sample, where) if sample else items
        except ConfigError as e:  # a release cut by 'split' is read once per split
            if isinstance(e, PartlyRead) and e.items:  # the rows read are checked too; a split
                # whose every row was refused is not also said to have no items
                read[split] = e.items
            new = [located(p, dataset, source, edition.config, of) for p in e.problems]
            problems.extend(p for p in new if p not in problems)
    return read


class Repeats(NamedTuple):
    """Items of a hidden-gold split whose texts (``text_key``) are also those of an item of a public
    split (train, or a split whose gold ships on purpose): ``found`` of them, ``declared`` allowed by
    the dataset's ``known_repeats``. ``example``: (the scored item's id, the public split, its id)."""

    dataset: str
    split: str
    found: int
    declared: int
    example: tuple[str, str, str] | None = None

    def render(self, prose: Templates = Templates()) -> str:
        """The build summary's line (``builder/repeats``, of ``prose``: the edition's templates)."""
        return prose.fill("builder/repeats", **self._asdict())


def _repeat_problem(repeats: Repeats, public: list[str], place, lines) -> Problem:
    """The refusal of ``repeats`` beyond those declared: the scored item's file and line, and the
    public item's it repeats (``place``, ``lines``: ``data_place``, ``importers.item_lines``)."""
    scored_id, public_split, public_id = repeats.example
    line = lines(repeats.dataset, public_split, [public_id]).get(public_id)
    where = place(repeats.dataset, public_split) + (f", line {line}" if line else "")
    return Problem(
        place(repeats.dataset, repeats.split),
        f"{repeats.split} items with the texts of items of a public split ({', '.join(public)}): "
        f"{repeats.found}, more than the {repeats.declared} declared, so their gold would leak",
        line=lines(repeats.dataset, repeats.split, [scored_id]).get(scored_id),
        item=scored_id,
        expected=f"at most {repeats.declared} repeated items ('known_repeats')",
        found=f"{repeats.split} item {scored_id!r} has the texts of {public_split} item "
        f"{public_id!r} ({where})",
        hint=f"remove the item from one split; only if the release really repeats items, declare "
        f"them with 'known_repeats: {{{repeats.split}: {repeats.found}}}' on the dataset",
    )


def check_repeats(edition: Edition, splits, problems: list[Problem], place, lines) -> list[Repeats]:
    """Public splits (train and any split whose gold is public) against every hidden-gold split, by
    texts (in either order where the dataset's kinds score a pair as its swap, ``texts_ordered``):
    repeats beyond a dataset's ``known_repeats`` are refused, naming the files and lines
    (``place``, ``lines``: ``data_place``, ``importers.item_lines``); all of them are reported."""
    hidden = sorted(hidden_splits(edition.phases))
    public = {"train"} | {p.split for p in edition.phases if p.public_gold} - set(hidden)
    report: list[Repeats] = []
    for dataset, source in sorted(edition.datasets.items()):
        # the schema has checked its shape: splits to whole numbers from 0
        declared = source.get("known_repeats") or {}
        key = functools.partial(text_key, ordered=texts_ordered(edition.tracks, dataset))
        problems += [
            Problem(
                f"datasets '{dataset}'",
                f"'known_repeats' names split {name!r}, whose gold no phase hides",
                expected=", ".join(hidden) or "a split of a hidden-gold phase",
            )
            for name in sorted(set(declared) - set(hidden))
        ]
        # texts -> (the first public split holding them, its item's id), whatever the ids (releases
        # copy items under new ids); items without texts left out
        first: dict[tuple, tuple[str, str]] = {}
        for name in sorted(public):
            for row in splits.get(name, {}).get(dataset, []):
                first.setdefault(key(row), (name, str(row["id"])))
        for split in hidden:
            items = splits[split][dataset]
            repeated = [item for item in items if any(key(item)) and key(item) in first]
            example = (str(repeated[0]["id"]), *first[key(repeated[0])]) if repeated else None
            repeats = Repeats(dataset, split, len(repeated), declared.get(split, 0), example)
            if repeats.found > repeats.declared:
                problems.append(_repeat_problem(repeats, sorted(public), place, lines))
            if repeats.found or repeats.declared:
                report.append(repeats)
    return report


def write_phase_data(edition: Edition, data: EditionData, phase: Phase, root: Path) -> None:
    """reference_data/<phase>/ (gold) and input_data/<phase>/ (public items + training split)."""
    # the other phases' ids are public (both programs name them), the kit's local phase's too
    phases = edition.phases + local_phases(edition, data)
    every_split = {**data.splits, **(data.local or {})}
    # the local phase's training items leave its own out
    splits = every_split if phase.split == LOCAL_PHASE else data.splits
    spec = edition.spec(phase)
    # a hidden-gold phase's results page names the phases whose pages show what it leaves out
    spec.extra["public_gold_phases"] = [p.id for p in phases if p.public_gold]
    ref, inp = root / "reference_data" / phase.id, root / "input_data" / phase.id
    for folder in (ref, inp):
        folder.mkdir(parents=True)
        write_spec(folder, spec)
        write_other_phase_ids(folder, phase.split, phases, every_split)
        write_left_out_ids(folder, phase.split, data.left_out.get(phase.split, {}))
    # the texts are public inputs: the reference data of a hidden-gold phase holds the gold only
    for dataset in sorted({t.dataset for t in edition.tracks}):
        items = splits[phase.split][dataset]
        write_items(ref / f"{dataset}.jsonl", [reference_view(it, spec.hide_gold) for it in items])
        write_items(inp / f"{dataset}.jsonl", [public_view(it, spec.hide_gold) for it in items])
        write_items(inp / f"{dataset}.train.jsonl", splits["train"].get(dataset, []))


def score_gold(ref: Path):
    """The scorer's Result for the gold of ``ref`` submitted as predictions (a perfect submission)."""
    spec = read_spec(ref)
    with tempfile.TemporaryDirectory(prefix="codajudge-gold-") as tmp:
        golds = load_gold(spec, ref)
        for track in spec.tracks:
            gold = golds[track.id]
            write_prediction(Path(tmp) / track.file_names[0], track, gold.ids, gold_as_values(gold))
        return score_folder(spec, ref, Path(tmp), gold=golds)


def _scores_on_gold(result):
    """(track id, metric, its score, the track's scored gold, its number of labels) of every score
    in ``result``."""
    for track_id, tr in result.tracks.items():
        gold, _, _ = scored_subset(tr.gold, tr.gold.gold)
        for name, value in tr.scores.items():
            yield track_id, get_metric(name), value, gold, len(tr.track.labels)


def gold_problems(result, columns: list[str], where: str) -> list[Problem]:
    """The problems of ``result``, the gold of ``where`` scored as a submission: the scorer's keys
    must be the leaderboard's ``columns``, in their order, and every metric at its value on the gold
    (the best end of its range, or what the metric states, ``Metric.gold_value``, within its
    tolerance)."""
    written = list(result.scores())
    differ = Problem(
        "leaderboard",
        "the scorer's keys differ from the leaderboard columns",
        expected=", ".join(columns),
        found=", ".join(written),
        hint=f"{_key_differences(columns, written)}; checked on {where}",
    )
    problems = [] if written == columns else [differ]
    for track_id, metric, value, gold, n_labels in _scores_on_gold(result):
        best = metric.gold_value(gold, n_labels)
        if abs(value - best) > max(1e-9, metric.on_gold_tolerance):
            problems.append(
                Problem(
                    where,
                    f"gold scored against itself is not perfect on track '{track_id}'",
                    expected=f"{metric.name} = {best:g}",
                    found=f"{value:.6g}",
                    hint=_imperfect_gold_hint(metric, value, n_labels),
                )
            )
    return problems


def _imperfect_gold_hint(metric, value: float, n_labels: int) -> str | None:
    """Why the gold may score ``value`` with ``metric``, not its best: the direction flipped (the
    worst end), or an edition's own metric without ``on_gold``; None for another kit metric."""
    if abs(value - metric.worst(n_labels)) <= 1e-9:
        other = "LOWER" if metric.higher_is_better else "HIGHER"
        return (
            f"the gold scores the worst end of the range: is {metric.name}'s direction {other}? "
            f"({metric.module_file} registers {metric.direction.upper()})"
        )
    module = own_module_of(metric.name)
    if not module:
        return None
    if metric.on_gold is not None:
        return (
            f"{module} registers {metric.name}'s on_gold, whose value for this gold is not what "
            f"the metric scores it ({value:.6g}): correct on_gold (the metric's value when the "
            "gold is submitted) or widen on_gold_tolerance"
        )
    return (
        f"{module} registers {metric.name} without on_gold: where the "
        "gold's best value is not the range's end, declare on_gold (and on_gold_tolerance) as "
        "the README's 'An edition's own metric' says"
    )


def _key_differences(columns: list[str], written: list[str]) -> str:
    """What tells the leaderboard's ``columns`` and the scorer's ``written`` keys apart: the keys
    each lacks, else their order."""
    differences = [f"no scorer key for column {key!r}" for key in columns if key not in written]
    differences += [f"no column for scorer key {key!r}" for key in written if key not in columns]
    return "; ".join(differences) or "the same keys in another order"


def check_keys_with_gold(edition: Edition, phase: Phase, root: Path) -> None:
    """Score the gold as a submission: the scorer's keys must be the leaderboard's, every score perfect,
    the edition's own metrics well behaved on it (``metrics.edition_module.property_problems``, then
    ``stats.metric_checks.statistics_problems``), and every metric's direction such that a
    prediction other than the gold does not score better (``direction_problems``)."""
    module_file = str(edition.folder / edition.metrics_module.get("file", ""))
    try:
        result = score_gold(root / "reference_data" / phase.id)
    except Exception as error:  # an edition's own metric failing on its gold is the edition's
        doing = f"scoring the gold of phase {phase.id!r}"
        refused = isinstance(error, KitError) and not module_lines(error, module_file)
        if isinstance(error, ConfigError) or not (edition.metrics_module or refused):
            raise
        if refused:  # no participant's mistake: the kit wrote this submission from the config
            found, hint = error.render()[-800:], "correct the edition's config accordingly"
            raise ConfigError.single(
                f"edition {edition.name}", f"{doing} was refused", found=found, hint=hint
            )
        raise code_failure(error, module_file, doing) from None
    columns = [key for key, _, _ in score_rows(edition.tracks)]
    # the edition's own metrics (``metrics_module``) on each track's gold that names them: the
    # registry's basic properties, first (a declared range the gold's score falls outside is why
    # the gold's score is not the range's end)
    own = metrics_of(edition.metrics_module.get("source"))
    problems: list[Problem] = []
    # a direction the other way, told after the gold's own check (which names it where the gold
    # scores the range's worst end); every metric, the kit's too
    flipped: list[Problem] = []
    for track_id, metric, _, gold, n_labels in _scores_on_gold(result):
        doing = f"metric {metric.name!r} on track {track_id!r}"
        where = f"{module_file if metric.name in own else metric.module_file}: {doing}"
        try:
            # the statistics layer's checks assume the basic properties
            if metric.name in own:
                found = property_problems(metric, gold, n_labels, track_id)
                problems += [Problem(where, m) for m in found or statistics_problems(metric, gold)]
            flipped += [Problem(where, m) for m in direction_problems(metric, gold, track_id)]
        except Exception as error:  # the organiser's code: its failure is theirs to fix
            if metric.name not in own:
                raise
            raise code_failure(error, module_file, doing) from None
    problems += gold_problems(result, columns, f"phase {phase.id!r}") + flipped
    if problems:
        raise ConfigError(problems[:1])


def write_pages(edition: Edition, data: EditionData, root: Path) -> list[dict]:
    """The logo and every page (the terms, the edition's own pages, the generated ones), each
    marked as generated; returns the pages' entries of competition.yaml, the terms last."""
    (root / "pages").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(edition.folder / edition.logo, root / "logo.png")
    terms = (BUILT_PAGES["terms.md"], "terms.md", own_page_text(edition.folder, edition.terms))
    own = [
        (page["title"], Path(page["file"]).name, own_page_text(edition.folder, page["file"]))
        for page in edition.pages
    ]
    score = local_score(edition, data)
    skipped, alike = data.skipped_baselines, data.alike_baselines
    facts = DataFacts(untrained_datasets(edition, data), annotator_counts(edition, data))
    generated = generated_pages(edition, data.baseline_scores, score, skipped, alike, facts)
    # the generated marker as an HTML comment, which Markdown renders as nothing
    marker = f"<!-- {generated_marker(edition)} -->\n"
    for _, name, text in [terms] + own + generated:
        (root / "pages" / name).write_text(marker + text, encoding="utf-8")
    return [
        {"title": title, "file": f"pages/{name}"} for title, name, _ in own + generated + [terms]
    ]


def untrained_datasets(edition: Edition, data: EditionData) -> list[str]:
    """The datasets of the edition's tracks without training items (none declared, or an empty
    split), sorted."""
    return sorted({t.dataset for t in edition.tracks if not data.splits["train"].get(t.dataset)})


def annotator_counts(edition: Edition, data: EditionData) -> dict[str, int]:
    """Per dataset of a track predicted per annotator, its items' commonest number of annotators
    (any split; items listing none left out): the Data page's example line gives as many labels."""
    datasets = {t.dataset for t in edition.tracks if kinds.of(t).predicts_per_annotator}
    items = {d: [i for split in data.splits.values() for i in split.get(d, [])] for d in datasets}
    sizes = {d: Counter(len(i.get("annotators") or []) for i in its) for d, its in items.items()}
    return {d: max(size, key=lambda n: (n > 0, size[n])) for d, size in sizes.items() if any(size)}


def generated_marker(edition: Edition) -> str:
    """What every generated text file says of itself (a header line where the format allows)."""
    return Templates.of(edition.folder).fill(
        "builder/generated", version=__version__, name=edition.name
    )


def write_yaml(path: Path, doc: dict, edition: Edition) -> None:
    text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=110)
    Path(path).write_text(f"# {generated_marker(edition)}\n" + text, encoding="utf-8")


def hidden_gold(edition: Edition, data: EditionData) -> dict[str, HiddenSplit]:
    """Gold that no public file may contain: every split some phase hides, whatever other phases
    do with it (``phase_gold``)."""
    return {
        f"{track.id} ({split})": HiddenSplit(
            data.golds[(split, track.id)], data.splits[split][track.dataset]
        )
        for split in sorted(hidden_splits(edition.phases))
        for track in edition.tracks
    }


def write_starting_kit(
    edition: Edition, data: EditionData, root: Path, bundle_pages: list[dict], samples: Samples
) -> None:
    """The starting kit is itself a small bundle of the practice phase, so the local runner works on it:
    programs with the engine, the practice input data (and its gold when public), run_local.py,
    the sample submissions (``samples``: as ``baseline_scores``, which adds the local phase's; the
    predictions of ``sample_baseline``, one of those the edition runs) and the participant README
    (``pages.render``), which quotes the first lines of the sample its check command takes."""
    kit = root / "starting_kit"
    shutil.copytree(REPO_ROOT / "starting_kit", kit, ignore=shutil.ignore_patterns(*CACHES))
    practice = kit_platform_phases(edition)
    local = local_phases(edition, data)
    # the local phase's data, the baselines' scores there, which its results page shows, and the
    # missing-track rule's scores of its baseline
    for phase in local:
        write_phase_data(edition, data, phase, kit)
    kit_edition = replace(edition, phases=local)
    write_missing_track_scores(kit_edition, kit, baseline_scores(kit_edition, kit, samples))
    # the bundle's programs, pages and logo, written already, and the practice phase's data
    shared = [*PROGRAMS, "pages", *(f"input_data/{p.id}" for p in practice)]
    shared += [f"reference_data/{p.id}" for p in practice if p.public_gold]
    for name in shared:
        shutil.copytree(root / name, kit / name)
    shutil.copyfile(root / "logo.png", kit / "logo.png")
    kit_yaml = competition_yaml(edition, bundle_pages, kit_phases=local + practice)
    write_yaml(kit / "competition.yaml", kit_yaml, edition)
    # load_edition has checked they are relative paths inside the edition folder
    for name in edition.public_files:
        (kit / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(edition.folder / name, kit / name)
    baseline = sample_baseline(edition.baselines)
    files = write_samples(edition, root, samples, baseline)
    # the first non-empty file of each kind of track, in name order (the zip's), by its first line
    kind_of = {t.file_names[0]: kinds.of(t) for t in edition.tracks}
    first: dict[kinds.Kind, str] = {}  # kind -> the name of its first file
    for name in sorted(name for name, content in files.items() if content and name in kind_of):
        first.setdefault(kind_of[name], name)
    examples = {name: files[name].decode("utf-8").splitlines()[0] for name in first.values()}
    readme = render(edition, local_score(edition, data), examples, bundle_pages, baseline)
    (kit / "README.md").write_text(readme, encoding="utf-8")


def local_splits(edition: Edition, train: dict[str, list[dict]]):
    """The kit's local phase's items: ``{'local': held-out ``train`` items, 'train': the rest}`` per
    dataset of a track, each in the release's order: the edition's ``local.fraction`` of the items
    (at least one, never all), those ``sample.smallest_keys`` chooses by ``local.seed``; None when
    the edition declares no ``local`` split or a dataset has fewer than two training items."""
    if edition.local is None:
        return None
    splits: dict[str, dict[str, list[dict]]] = {LOCAL_PHASE: {}, "train": {}}
    for dataset in sorted({t.dataset for t in edition.tracks}):
        items = train.get(dataset, [])
        # int() rounds down: the schema bounds the fraction to 0..0.5
        count = min(max(1, int(edition.local.fraction * len(items))), len(items) - 1)
        if count < 1:
            return None
        chosen = set(smallest_keys(items, edition.local.seed, count))
        splits[LOCAL_PHASE][dataset] = [item for i, item in enumerate(items) if i in chosen]
        splits["train"][dataset] = [item for i, item in enumerate(items) if i not in chosen]
    return splits


def local_phases(edition: Edition, data: EditionData) -> list[Phase]:
    """[the starting kit's phase scoring the local split] (never a platform phase), [] when the kit
    has no local split."""
    first = edition.phases[0]
    local = Phase(
        id=LOCAL_PHASE,
        name="Local",
        start=first.start,
        end=None,
        split=LOCAL_PHASE,
        description="A validation split held out of the training data, gold public (starting kit only)",
        execution_time_limit=first.execution_time_limit,
        public_gold=True,
    )
    return [] if data.local is None else [local]


def kit_platform_phases(edition: Edition) -> list[Phase]:
    """The platform's phases whose data the starting kit holds: those whose gold is public, else
    the first phase. The first of them is the one its README names and its sample result submission
    answers (``LocalScore.phase``)."""
    return [p for p in edition.phases if p.public_gold] or edition.phases[:1]


def local_score(edition: Edition, data: EditionData) -> LocalScore:
    """What the starting kit can score: its local phase when the edition declares one and has the
    training data for it, else its platform phase when that phase's gold is public, else nothing."""
    platform = kit_platform_phases(edition)[0]
    local_items = (data.local or {}).get(LOCAL_PHASE, {})
    counts = {dataset: len(items) for dataset, items in local_items.items()}
    # track title -> how many of its local items it scores, for the tracks that score fewer than
    # all (the others lack the track's gold: no majority label, fewer annotations); the training
    # split's gold marks each item scored or not
    fewer: dict[str, int] = {}
    for track in [track for track in edition.tracks if local_items.get(track.dataset)]:
        gold = data.golds[("train", track.id)]
        scored_ids = {item_id for item_id, scored in zip(gold.ids, gold.scored) if scored}
        scored = sum(item["id"] in scored_ids for item in local_items[track.dataset])
        if scored < len(local_items[track.dataset]):
            fewer[track.title] = scored
    shared, by = same_items(local_items), breakdowns(edition, data)
    return LocalScore(platform.public_gold, counts, fewer, shared, platform.id, by)


def breakdowns(edition: Edition, data: EditionData) -> tuple[str, ...]:
    """The item fields (``GROUP_FIELDS``) by which public-gold detailed results break a track's
    score down (``report.track_visuals``): those with more than one value among a track's items in
    a split such a phase scores (the kit's local phase's too)."""
    splits = [data.splits[p.split] for p in edition.phases if p.public_gold]
    splits += [data.local[LOCAL_PHASE]] if data.local else []
    items = [split.get(t.dataset, []) for split in splits for t in edition.tracks]
    return tuple(f for f in GROUP_FIELDS if any(len({i.get(f) for i in its}) > 1 for its in items))


def same_items(items: dict[str, list[dict]]) -> list[tuple[str, ...]]:
    """The groups of two or more datasets whose ``items`` are equal (ids, texts and gold alike), each
    group's names sorted, the groups in the order of their first name."""
    groups: dict[str, list[str]] = {}
    for dataset in sorted(items):
        groups.setdefault(json.dumps(items[dataset], sort_keys=True), []).append(dataset)
    return [tuple(names) for names in groups.values() if len(names) > 1]


@dataclass
class BuildSummary:
    edition: Edition
    tree: Path
    zip_path: Path
    sha256: str
    sizes: dict[str, int]
    notes: list[str] = field(default_factory=list)  # what the organiser should know: no train split
    repeats: list[Repeats] = field(default_factory=list)
    #: ``scores[phase id][baseline][key]`` (``baseline_scores``)
    baseline_scores: BaselineScores = field(default_factory=dict)
    #: what the platform takes, printed last (a legacy bundle's: result submissions only)
    closing: str = ""

    def render(self) -> str:
        lines = [f"edition {self.edition.name}: {self.edition.title}  (codajudge {__version__})"]
        lines += [
            f"  phase {p.id:<14} {p.date_text('start')} .. {p.date_text('end') or 'open':<19} "
            f"gold: {split_text(self.edition, p)}{' (public)' if p.public_gold else ''}"
            for p in self.edition.phases
        ]
        lines += [
            f"  track {t.id:<14} {t.kind:<14} {t.scale or '':<11} metrics {', '.join(t.metrics)}"
            f"{'  [primary]' if t.primary else ''}"
            for t in self.edition.tracks
        ]
        prose = Templates.of(self.edition.folder)
        lines += [f"  repeats {repeats.render(prose)}" for repeats in self.repeats]
        sizes = ", ".join(f"{k} {v / 1024:.0f} KiB" for k, v in self.sizes.items())
        lines += [f"  sizes: {sizes}"]
        lines += [f"  note: {note}" for note in self.notes]
        lines += [f"  tree   {self.tree}", f"  zip    {self.zip_path}  sha256 {self.sha256}"]
        lines += [self.closing] if self.closing else []
        return "\n".join(lines)


def write_samples(edition: Edition, root: Path, samples: Samples, baseline: str):
    """The starting kit's sample result submissions: ``baseline``'s predictions for its platform
    phase (``PRACTICE_SAMPLE``, ``kit_platform_phases``) and for the kit's local phase when it has
    one (``LOCAL_SAMPLE``, the sample its README's check command takes; the practice sample keeps
    the platform's ids), each kept in ``samples`` (``baseline_scores``), or run here when the
    edition does not run it. Returns the files of the sample the README's check command takes (the
    last written)."""
    kit = root / "starting_kit"
    inputs = {PRACTICE_SAMPLE: root / "input_data" / kit_platform_phases(edition)[0].id}
    if (kit / "input_data" / LOCAL_PHASE).is_dir():
        inputs[LOCAL_SAMPLE] = kit / "input_data" / LOCAL_PHASE
    for name, folder in inputs.items():  # a phase's input folder is named by its id
        with tempfile.TemporaryDirectory(prefix="codajudge-sample-") as tmp:
            files = samples.get(folder.name) or run_baseline(
                baseline, folder, Path(tmp), edition.seed
            )
        write_zip(files, kit / name)
    return files


def _left_out_of_engine(folder: str, names: list[str]) -> set[str]:
    """What a bundle's copy of the engine leaves out (a ``shutil.copytree`` ignore): caches, the
    kit's own files and the page templates, which only the builder reads; the ranking tool's words
    (``templates/ranking``) ship, as ``codajudge rank`` runs from any copy."""
    left_out = shutil.ignore_patterns(*CACHES, "_kit")(folder, names)
    if Path(folder) == PACKAGE / "templates":
        left_out |= set(names) - {"ranking"}
    return left_out


def write_tree(edition: Edition, data: EditionData, root: Path) -> Edition:
    """Every file of the bundle under ``root`` (which must not exist yet). Returns the edition as
    built: baselines that need a training split the edition lacks are left out (the Baselines page
    says why)."""
    data.skipped_baselines, data.alike_baselines = baseline_reasons(edition, data)
    kept = [name for name in edition.baselines if name not in data.skipped_baselines]
    edition = replace(edition, baselines=kept)
    root.mkdir(parents=True)
    for index, phase in enumerate(edition.phases):
        write_phase_data(edition, data, phase, root)
        # a phase scoring a split checked already has the same gold and tracks: the same verdict
        if phase.split not in {earlier.split for earlier in edition.phases[:index]}:
            check_keys_with_gold(edition, phase, root)
    samples: Samples = {}
    data.baseline_scores = baseline_scores(edition, root, samples)
    write_missing_track_scores(edition, root, data.baseline_scores)
    pages = write_pages(edition, data, root)
    for name in PROGRAMS:  # as Codabench mounts it: its own files, and the engine beside them
        shutil.copytree(REPO_ROOT / name, root / name, ignore=shutil.ignore_patterns(*CACHES))
        shutil.copytree(PACKAGE, root / name / "codajudge", ignore=_left_out_of_engine)
    write_solutions(edition, root)
    write_starting_kit(edition, data, root, pages, samples)
    write_yaml(root / "competition.yaml", competition_yaml(edition, pages), edition)
    public = [root / "input_data", root / "starting_kit", root / "pages", root / "solutions"]
    hidden = hidden_gold(edition, data)
    data.known_leaks = check_public_tree(public, hidden, root, edition.known_leaks)
    write_known_leaks(root, edition.known_leaks)
    return edition


def publish(out_dir: Path, name: str, write: Callable[[Path], Edition]) -> BuildSummary:
    """Write ``OUT/<name>/`` and ``OUT/<name>.zip`` in a staging folder beside them, then replace
    the old ones (``name`` is a checked slug; a symbolic link found there is removed, never
    followed); ``write(folder)`` writes the tree and returns the edition it holds. The sizes are in
    bytes: the zip's, and each part's (its folder, or its zips in a legacy bundle)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=out_dir))
    tree, zip_path = out_dir / name, out_dir / f"{name}.zip"
    try:
        edition = write(staging / tree.name)
        files = tree_files(staging / tree.name)
        write_zip(files, staging / zip_path.name)
        sizes = {
            part: sum(
                path.stat().st_size for relative, path in files.items() if relative.startswith(part)
            )
            for part in ("reference_data", "input_data", "starting_kit")
        }
        notes = replaced_other_notes(edition, tree, zip_path)
        for output in (tree, zip_path):
            remove_entry(output)
            (staging / output.name).replace(output)
        record = source_record(tree)
        remove_entry(record)
        record.write_text(config_source(edition), encoding="utf-8")
    finally:  # a cleanup error never hides the build's own (TemporaryDirectory raises it)
        shutil.rmtree(staging, ignore_errors=True)
    sizes["zip"] = zip_path.stat().st_size
    sha256 = hashlib.sha256(zip_path.read_bytes()).hexdigest()
    return BuildSummary(edition, tree, zip_path, sha256, sizes, notes)


def source_record(tree: Path) -> Path:
    """The file beside a built bundle's tree ``OUT/<name>`` naming the config it was built from
    (kept out of the bundle: it is a path on the organiser's machine)."""
    return tree.with_name(f".{tree.name}.source")


def config_source(edition: Edition) -> str:
    return str(Path(edition.config).resolve())


def replaced_other_notes(edition: Edition, tree: Path, zip_path: Path) -> list[str]:
    """A note when the bundle about to be replaced at ``tree`` and ``zip_path`` was built from
    another config than ``edition``'s (an edition folder copied with its ``name`` left), as its
    record says; a bundle without a record (built before the kit kept one) is not judged."""
    record = source_record(tree)
    if not (tree.exists() or zip_path.exists()) or not record.is_file():
        return []
    previous = record.read_text(encoding="utf-8")
    if previous == config_source(edition):
        return []
    prose = Templates.of(edition.folder)
    return [
        prose.fill("builder/replaced_other", tree=tree, previous=previous, config=edition.config)
    ]


def build(
    edition: Edition, data_root: Path, out_dir: Path, data: EditionData | None = None
) -> BuildSummary:
    """Validate everything, then write ``OUT/<edition>/`` and ``OUT/<edition>.zip`` (replacing old
    ones); ``data``: the edition's data when already read (``import_data``)."""
    data = data or import_data(edition, data_root)
    summary = publish(out_dir, edition.name, lambda tree: write_tree(edition, data, tree))
    return with_notes(summary, data)


def with_notes(summary: BuildSummary, data: EditionData) -> BuildSummary:
    """``summary`` of a build of ``data`` (v2 or legacy) with its notes: the datasets without a
    training split (none declared, or an empty one), the baselines left out for it, the known leaks
    and the starting kit's warnings; and the repeats and baseline scores found."""
    edition = summary.edition
    prose = Templates.of(edition.folder)
    untrained = untrained_datasets(edition, data)
    summary.notes += [prose.fill("builder/no_train", dataset=name) for name in untrained]
    summary.notes += [
        prose.fill("builder/not_run", name=name, reason=why)
        for name, why in data.skipped_baselines.items()
    ]
    summary.notes += config_notes(edition, summary.zip_path)
    summary.notes += known_leak_notes(edition, data)
    summary.notes += unused_label_notes(edition.tracks, data.golds) + kit_warnings(edition, data)
    summary.repeats = data.repeats
    summary.baseline_scores = data.baseline_scores
    return summary


def kit_warnings(edition: Edition, data: EditionData) -> list[str]:
    """A warning when the edition declares ``local`` and a dataset of a track has too few training
    items for it (``local_splits``), naming the first; else one when the starting kit can score no
    phase and the edition does not say why (``kit_scores_no_phase``): its participants could check
    no submission before uploading it."""
    prose = Templates.of(edition.folder)
    train = data.splits["train"]
    short = [(t.dataset, t.title) for t in edition.tracks if len(train.get(t.dataset, [])) < 2]
    if edition.local is not None and short:
        dataset, title = min(short)
        items = counted(len(train.get(dataset, [])), "training item")
        return [prose.fill("builder/no_local", dataset=dataset, track=title, items=items)]
    score = local_score(edition, data)
    if score.first_phase or edition.kit_scores_no_phase:
        return []
    return [prose.fill("builder/kit_scores_no_phase", phase=score.phase)]


def config_notes(edition: Edition, zip_path: Path | str) -> list[str]:
    """What the config alone tells the organiser (the check's and the build's notes): phases
    already past, pages copied from a shipped edition, a ``name`` that is not its folder's
    (the bundle, ``zip_path``, is named by it) and datasets no track reads."""
    return (
        past_phase_notes(edition.phases)
        + reused_page_notes(edition)
        + name_notes(edition, zip_path)
        + unused_dataset_notes(edition)
    )


def unused_dataset_notes(edition: Edition) -> list[str]:
    """A note naming the datasets no track reads (the tracks of one removed, the dataset kept): a
    leftover of an edit, its data checked and left out of the bundle. Not refused: a dataset may
    be kept for a track to come."""
    unused = sorted(set(edition.datasets) - {track.dataset for track in edition.tracks})
    if not unused:
        return []
    fill = dict(config=edition.config, names=", ".join(map(repr, unused)), count=len(unused))
    prose = Templates.of(edition.folder)
    return [prose.fill("builder/unused_dataset", declared=len(edition.datasets), **fill)]


def name_notes(edition: Edition, zip_path: Path | str) -> list[str]:
    """A note when the config is ``FOLDER/edition.yaml`` and its ``name`` is not FOLDER: a folder
    copied from another edition with its name left would replace that edition's bundle. Not
    refused: an organiser may name the folder as they like."""
    config = Path(edition.config)
    folder = config.resolve().parent.name
    if config.name != "edition.yaml" or folder == edition.name:
        return []
    prose = Templates.of(edition.folder)
    fill = dict(config=config, name=edition.name, folder=folder, zip=zip_path)
    return [prose.fill("builder/name_not_folder", **fill)]


def known_leak_notes(edition: Edition, data: EditionData) -> list[str]:
    """Each file of the edition's ``known_leaks``, why it is published, and the hidden gold the leak
    check found in it (or that it found none)."""
    prose = Templates.of(edition.folder)
    notes = []
    for name, why in sorted(edition.known_leaks.items()):
        found = [f"{p.message} ({p.found})" for p in data.known_leaks if concerns_file(p, name)]
        found_text = "; ".join(found) or prose.fill("builder/known_leak_none")
        notes.append(prose.fill("builder/known_leak", file=name, reason=why, found=found_text))
    return notes
