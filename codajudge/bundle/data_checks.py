"""The checks of a release's content, as an edition declares and ships it.

A ``datasets`` entry's rules that span several of its options, checked when the config is loaded
(before any file is read): the shares of ``split`` add up to 1, ``split`` and per-split ``splits``
are not both given, ``split`` reads every per-split file given, a split does not exclude itself, a
``sample`` is of another split that is no sample itself, and a ``table`` dataset names its file(s)
(``dataset_problems``).

Then every split an edition ships is checked like gold, the public training split included: labels
in the track's set, gold of a kind with a ``range`` (similarity) inside the track's (``split_golds``,
which returns the gold it builds for the rest of the build). An id twice within a split is refused
by the importer reading it. Ids may repeat across splits (OCNLI numbers each file from 0; ocnli
scores its dev file as test too); an item shared between a public and a hidden-gold split is
refused by ``build.check_repeats``.
A track's label that no split's gold gives any item is noted (``unused_label_notes``).
A track whose array gold on a phase's split is one value on every item is refused
(``constant_gold_problems``): no metric's ranking of it means anything.
"""

import functools
from collections.abc import Callable, Iterator

import numpy as np

from .. import kinds
from ..errors import MAX_PLACES_SHOWN, ConfigError, Problem, counted, first_few, plural
from ..gold import GoldTrack, build_gold
from ..importers.cut import shares_problem
from ..tracks import Track

#: (split, track id) -> the track's gold on that split
Golds = dict[tuple[str, str], GoldTrack]


def empty_split_problems(
    datasets: dict, splits: dict, scored: list[str], place
) -> Iterator[Problem]:
    """A problem per dataset and ``scored`` split without items (``splits``: split -> dataset ->
    items; ``place(dataset, split)`` names where they come from): the items each split got, the
    shares that cut them, and the fix."""
    for split in scored:
        for dataset in [dataset for dataset, items in splits[split].items() if not items]:
            cut = datasets[dataset].get("split")
            counts = {s: len(by[dataset]) for s, by in splits.items() if dataset in by}
            got = ", ".join(f"{s} {n}" for s, n in counts.items())
            shares = ", ".join(f"{key}: {value}" for key, value in (cut or {}).items())
            yield Problem(
                place(dataset, split),
                f"the {split} split has no items",
                expected="at least one item in each scored split",
                found=f"{counted(sum(counts.values()), 'item')}: {got}"
                + (f" (split: {{{shares}}})" if cut else ""),
                hint="give the dataset more items, other shares in 'split' or another 'seed' "
                "there (docs/edition-config.md, 'split')"
                if cut
                else f"give the {split} split items (its file, or a 'where' keeping some)",
            )


def range_problems(
    track: Track, gold: GoldTrack, where: str, lines: Callable = lambda ids: {}
) -> Iterator[Problem]:
    """For a kind with ``has_range``, ``gold`` outside the track's declared ``range`` (default 0-5),
    each item with its line (``lines``: ids -> their lines in the file, where known)."""
    if not kinds.of(track).has_range:
        return
    lo, hi = track.score_range
    if outside := np.flatnonzero((gold.gold < lo) | (gold.gold > hi)).tolist():
        line_of = lines([gold.ids[i] for i in outside[:MAX_PLACES_SHOWN]])
        on_line = {item: f" on line {line}" for item, line in line_of.items()}
        found = [
            f"{gold.ids[i]!r} ({gold.gold[i]:g}){on_line.get(gold.ids[i], '')}" for i in outside
        ]
        yield Problem(
            where,
            f"{track.kind} gold outside the track's range on {counted(len(outside), 'item')}",
            expected=f"scores from {lo:g} to {hi:g} (track '{track.id}' range)",
            found=first_few(found),
            hint="correct the data, or declare the scale with the track key range: [LOW, HIGH]",
        )


def split_golds(
    tracks: list[Track],
    splits: dict[str, dict[str, list[dict]]],
    place: Callable[[str, str], str],
    problems: list[Problem],
    lines: Callable = lambda dataset, split, ids: {},
) -> Golds:
    """The gold of every track on every split of its dataset that has items, train included; every
    problem of those splits (ids repeated, gold unreadable or out of range) added to ``problems``.
    ``place``: (dataset, split) -> the file and key the problems name (``build.data_place``);
    ``lines``: (dataset, split, ids) -> their lines there (``importers.item_lines``)."""
    golds: Golds = {}
    for split, datasets in splits.items():
        for dataset, items in sorted(datasets.items()):
            where = place(dataset, split)
            for track in [track for track in tracks if track.dataset == dataset and items]:
                try:
                    golds[(split, track.id)] = build_gold(track, items, where)
                except ConfigError as e:
                    problems.extend(e.problems)
                    continue
                located = functools.partial(lines, dataset, split)
                problems.extend(range_problems(track, golds[(split, track.id)], where, located))
    return golds


def constant_gold_problems(phases, golds: Golds, place: Callable[[str, str], str]) -> list[Problem]:
    """A problem per track whose array gold (scores, labels, soft labels) on a phase's split is one
    value on every scored item (2 items or more): predicting that value everywhere, without reading
    an item, scores as the gold does and a correlation is undefined, so no metric's ranking says
    anything of the systems (nor can the builder check a metric's direction on it).
    ``place``: (dataset, split) -> where the items come from (``build.data_place``)."""
    named: dict[str, list[str]] = {}  # split -> the phases scoring it
    for phase in phases:
        named.setdefault(phase.split, []).append(repr(phase.id))
    problems = []
    for (split, _), gold in golds.items():
        values = gold.gold[gold.scored] if isinstance(gold.gold, np.ndarray) else []
        if split not in named or len(values) < 2 or (values != values[0]).any():
            continue
        n, ids = len(values), named[split]
        message = f"track '{gold.track.id}': the gold of {plural(len(ids), 'phase')} "
        message += f"{', '.join(ids)} is one value on all {counted(n, 'scored item')}"
        found = f"{_gold_value(gold.track, values[0])} on each of the {n}"
        expected = "gold that differs between items (2 values at least)"
        where = place(gold.track.dataset, split)
        problems.append(Problem(where, message, expected=expected, found=found, hint=ONE_VALUE))
    return problems


#: Why a gold of one value is refused, and the fix (``constant_gold_problems``).
ONE_VALUE = (
    "no prediction can be told from another by the items: predicting that value everywhere scores "
    "as the gold does (a correlation is undefined), so no metric's ranking of the track means "
    "anything; give the split items of different gold, or score the track on another split"
)


def _gold_value(track: Track, value) -> str:
    """One item's gold, as a message shows it: a label's name, a score, a soft label's shares."""
    if np.ndim(value):
        return str(np.round(value, 4).tolist())
    if track.labels and isinstance(value, np.integer):
        return repr(track.labels[int(value)])
    return f"{float(value):g}"


def unused_label_notes(tracks: list[Track], golds: Golds) -> list[str]:
    """A note per label of a track that the track's gold gives no item in any split (no majority
    label, annotation or share of it): a misspelt or extra label is still one participants are
    asked for (a soft label's values, the Data page)."""
    notes = []
    for track in [track for track in tracks if track.labels]:
        used = np.zeros(len(track.labels), dtype=bool)
        for gold in [gold for (_, track_id), gold in golds.items() if track_id == track.id]:
            # label indices (-1: no majority); 0/1 choices or shares per label; multilabel
            # [P(not chosen), P(chosen)] pairs. A PerAnnotator keeps its rows in ``values``.
            values = np.asarray(getattr(gold.gold, "values", gold.gold))
            if values.ndim == 1:
                used[values[values >= 0].astype(int)] = True
            else:
                used |= ((values[..., 1] if values.ndim == 3 else values) > 0).any(axis=0)
        notes += [
            f"track '{track.id}': label {label!r} is no gold item's, in any split, yet participants "
            "are asked for it; correct its spelling or remove it from the track's 'labels'"
            for label, seen in zip(track.labels, used)
            if not seen
        ]
    return notes


def _other_split_problems(source: dict, where: str) -> Iterator[Problem]:
    """``exclude: {SPLIT: OTHER}`` and ``sample: {SPLIT: {of: OTHER, ...}}`` name another split
    than SPLIT, and a sample's OTHER is no sample itself."""
    samples = source.get("sample", {})
    exclude = "exclude: {test: dev}"  # how each option naming another split is written
    sample = "sample: {dev: {of: test, items: 300, seed: 2020}}"
    named = [(f"exclude.{s}", s, other, exclude) for s, other in source.get("exclude", {}).items()]
    named += [(f"sample.{s}.of", s, entry["of"], sample) for s, entry in samples.items()]
    for key, split, other, example in sorted(named):
        if other == split:
            message = f"'{key}' must name another split"
        elif key.startswith("sample") and other in samples:
            message = f"'{key}' names a split that is itself a sample"
        else:
            continue
        yield Problem(where, message, expected=f"e.g. {example}", found=repr(other))


def _train_problems(source: dict, where: str) -> Iterator[Problem]:
    """``train: none`` (no training split) and a train share in ``split`` or a train source in
    ``splits``, whose items the dataset would silently lose."""
    for key, what in (("split", "a train share"), ("splits", "a train source")):
        if source.get("train") == "none" and source.get(key, {}).get("train"):
            yield Problem(
                where,
                f"'train: none' (no training split) and {what} in '{key}' contradict each other",
                found=f"train: none, {key}: {{train: {source[key]['train']!r}}}",
                hint=f"drop 'train: none' to keep a training split, or drop 'train' from '{key}'",
            )


def _unread_sources(source: dict, where: str) -> Iterator[Problem]:
    """With ``split``, a file (``files``) or source (``fallback``) of another release split than
    the one ``split`` cuts (``from``, default test): never read, its items lost without a word."""
    cut = source.get("split", {}).get("from", "test")
    for key in ("files", "fallback") if "split" in source else ():
        for split in sorted(set(source.get(key) or {}) - {cut}):
            yield Problem(
                where,
                f"'{key}' names a {split} source that 'split' never reads: 'split' cuts only the "
                f"{cut} source (its 'from')",
                expected=f"with 'split', a '{key}' entry for {cut} only",
                found=f"{key}.{split}: {source[key][split]!r}",
                hint=f"give {split} a share in 'split' and drop '{key}.{split}' to cut {split} "
                f"from the {cut} source; or drop 'split' to read each split's own source (with "
                f"'sample' + 'exclude' to hold a part of one out, e.g. sample: {{dev: {{of: test, "
                "items: 300, seed: 1}}, exclude: {test: dev})",
            )


def dataset_problems(datasets: dict[str, dict], display: str) -> Iterator[Problem]:
    """The rules spanning several options of each ``datasets`` entry (each passed the schema): the
    shares of ``split`` add up to 1, ``split`` and per-split ``splits`` are not both given, the
    splits named by ``exclude`` and ``sample`` (``_other_split_problems``), ``train: none`` without a
    train in ``split`` or ``splits`` (``_train_problems``), no per-split source that ``split``
    leaves unread (``_unread_sources``), and a table names its file(s): one for all splits, or one
    per split."""
    for dataset_id, source in sorted(datasets.items()):
        where = f"{display}: datasets '{dataset_id}'"
        if "split" in source and (shares := shares_problem(source["split"])):
            yield Problem(where, shares, expected="e.g. split: {train: 0.8, dev: 0.1, test: 0.1}")
        if "split" in source and "splits" in source:
            message = (
                "'split' (cut one release) and 'splits' (one source per split) exclude each other"
            )
            yield Problem(where, message, hint="keep one of them")
        yield from _other_split_problems(source, where)
        yield from _train_problems(source, where)
        yield from _unread_sources(source, where)
        if source.get("importer") == "table" and "path" not in source and "splits" not in source:
            message = "a table dataset needs 'path' (one file) or 'splits' (a file per split)"
            yield Problem(where, message, hint="e.g. path: data/items.csv")
