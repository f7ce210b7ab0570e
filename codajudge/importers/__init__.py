"""Release importers: each turns one official release format into the kit's items (``formats.items``).

An edition's ``datasets`` section names an importer and its options per dataset; ``load_split``
returns the items of one split (``train``, ``dev`` or ``test``). An importer knows its release's
quirks and nothing about Codabench. A new one is a module here, named in ``RELEASES``.

Contract of every importer module: ``load_split(source: dict, root: Path, split: str) -> List[dict]``
where ``source`` is the dataset's mapping from the edition config (``path`` relative to ``root``,
plus the importer's own options), raising ``ConfigError`` with the file and the problem. The table
importer, which takes an item's label from its annotations' majority, takes a fourth argument, the
dataset's tracks with labels (the first's ``LabelSet`` counts the votes, so that texts naming one
label are one vote; every annotation is checked against each track's set).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from collections.abc import Callable, Iterable, Sequence

from ..confine import lexical_escapes, require_inside
from ..errors import ConfigError, Problem, counted, first_few, plural
from ..formats.items import duplicate_id
from .cut import split_of

SPLITS = ("train", "dev", "test")
#: Other names of a split a release or another toolkit uses -> the kit's (the config's hints).
SPLIT_SYNONYMS = {"validation": "dev", "valid": "dev", "val": "dev", "development": "dev"}

#: importer name -> (the release it reads and the files it expects under the dataset's ``path``,
#: where the release is published), for the "release not found" messages; ``{files}``: the files
#: of the splits the edition reads there, by the importer's ``split_file``.
RELEASES: dict[str, tuple] = {
    "kit": (
        "kit item files train.jsonl, dev.jsonl, test.jsonl (see codajudge/formats/items.py)",
        "the edition's own data folder",
    ),
    "semeval_sts": (
        "the SemEval-2017 Task 1 test data: STS.input.<track>.txt and STS.gs.<track>.txt side by "
        "side (the files of Sts2017.eval.v1.1.zip and Sts2017.gs.zip)",
        "the STS wiki, https://ixa2.si.ehu.eus/stswiki (CC BY-SA 4.0)",
    ),
    "stsb": (
        "the STS Benchmark: {files} (folder stsbenchmark/ of Stsbenchmark.tar.gz)",
        "https://ixa2.si.ehu.eus/stswiki/images/4/48/Stsbenchmark.tar.gz",
    ),
    "ocnli": (
        "OCNLI: dev.json and train.10k.json (or train.json), the files of data/ocnli/",
        "https://github.com/CLUEbenchmark/OCNLI (CC BY-NC 2.0)",
    ),
    "chaosnli": (
        "ChaosNLI: chaosNLI_snli.jsonl and chaosNLI_mnli_m.jsonl (from chaosNLI_v1.0.zip)",
        "https://github.com/easonnie/ChaosNLI (CC BY-NC 4.0)",
    ),
    "lewidi": (
        "LeWiDi 2025: one folder per dataset (CSC, MP, Paraphrase, VariErrNLI) with "
        "<Dataset>_<split>.json, and data_practice_phase.zip for the CSC and MP training splits; "
        "LeWiDi 2023: <Dataset>_dataset/<Dataset>_<split>.json (ArMIS, ConvAbuse, HS-Brexit, "
        "MD-Agreement)",
        "https://github.com/Le-Wi-Di/le-wi-di.github.io, folder LeWiDi_3-2025 (2025) or "
        "LeWiDi_2-2023 (2023)",
    ),
    "table": (
        "the organiser's own CSV, TSV, JSON-lines or JSON file(s) named by 'path' or 'splits'",
        "the organiser's own data",
    ),
}
#: The importers' names: each is the module of that name in this package, imported when a dataset
#: names it, so that one broken importer cannot break the others.
IMPORTERS = tuple(RELEASES)
OWN_DATA_HINT = "put the file there, or correct the dataset's 'path' (relative to --data)"


def unique_items(
    rows: Iterable[tuple[int, dict]], build: Callable, problems, hint: str | None = None
) -> list[dict]:
    """The items ``build(row, at)`` makes of a release file's ``rows`` ((line number, row) pairs;
    ``at``: the problems of that line, None: no item), in order, each id once: a repeated id is a
    located problem naming the line where the id was first seen (``problems``: the file's
    ProblemCollector), with ``hint`` when given (the file's likely layout)."""
    items: list[dict] = []
    first_line: dict[str, int] = {}
    for lineno, row in rows:
        item = build(row, problems.at(lineno))
        if item is None:
            continue
        first = first_line.setdefault(item["id"], lineno)
        if first == lineno:
            items.append(item)
        else:
            duplicate_id(problems, lineno, item["id"], first, *([hint] if hint else []))
    return items


class PartlyRead(ConfigError):
    """A release file's problems, with the ``items`` of its rows that had none, so that the data
    checks still check those in the same run (``bundle.build.import_data``)."""

    def __init__(self, problems: list[Problem], omitted: int, items: list[dict]):
        self.items = items
        super().__init__(problems, omitted)


class SplitAbsent(ConfigError):
    """The dataset's config gives no source for this split (e.g. no train file): a train split may
    be absent, a scored one may not."""


def split_source(source: dict, split: str) -> dict:
    """A dataset's source for one split: the entries of its optional ``splits: {SPLIT: {...}}`` mapping
    replace the dataset's own (e.g. a training file that came only in another archive); the schema
    has checked their shape."""
    merged = {k: v for k, v in source.items() if k != "splits"}
    return merged | source.get("splits", {}).get(split, {})


def missing_releases(datasets: dict, root: Path, own: Path | None = None) -> list[Problem]:
    """One problem per release folder or file that is not under the --data folder ``root`` (not one per
    track or split), naming the folder searched, what was expected there and where it is published
    (or that it is in ``own``, the edition's folder, the default of --data)."""
    missing: dict[str, tuple[str, list[str], dict]] = {}  # path -> importer, datasets, files read
    for key, source in datasets.items():
        for sub, splits in sources_read(source):
            path = sub.get("path")
            if isinstance(path, str) and not (Path(root) / path).exists():
                importer = sub.get("importer", "kit")
                entry = missing.setdefault(path, (importer, [], {}))
                entry[1].append(f"'{key}'")
                entry[2].update(dict.fromkeys(_split_files(importer, sub, splits)))
    problems = []
    for path, (importer, keys, files) in sorted(missing.items()):
        if any(path.startswith(other.rstrip("/") + "/") for other in missing if other != path):
            continue  # inside a missing folder already reported
        what, published = RELEASES[importer]  # the schema has refused an unknown importer
        what = what.format(files=", ".join(files))
        named = list(dict.fromkeys(keys))  # a dataset naming the path for several splits once
        hint = f"download it from {published}" if importer != "table" else OWN_DATA_HINT
        if own is not None and (Path(own) / path).exists():
            hint = f"it is in the edition's own folder: leave out --data (its default), or pass --data {own}"
        searched, hint = _searched(root, own, path, hint)
        problems.append(
            Problem(
                f"{Path(root) / path} ({plural(len(named), 'dataset')} {', '.join(named)})",
                f"release not found in {searched}",
                expected=f"{path}: {what}",
                hint=hint,
            )
        )
    return problems


def _searched(root: Path, own: Path | None, path: str, hint: str) -> tuple[str, str]:
    """The folder a missing release was searched in, and the message's ``hint``: when ``root`` is
    the edition's own folder ``own`` (--data's default, likely not given), the hint first says to
    pass --data, the folder holding the dataset's ``path``."""
    if own is None or Path(own).resolve() != Path(root).resolve():
        return f"the --data folder {root}", hint
    folder = path if Path(path).suffix else f"{path.rstrip('/')}/"
    return (
        f"the edition's folder {root} (the default of --data)",
        f"pass --data DIR, the folder holding {folder}; {hint}",
    )


def sources_read(source: dict) -> list[tuple[dict, list[str]]]:
    """(source, the splits read from it) of a dataset's ``source``: its own for the splits no
    ``fallback`` or ``splits`` entry names, and each of those for its split (the schema has checked
    their shapes)."""
    named = {**source.get("fallback", {}), **source.get("splits", {})}
    found = [(source, [split for split in SPLITS if split not in named])]
    found += [(sub, [split]) for split, sub in source.get("fallback", {}).items()]
    return found + [(split_source(source, split), [split]) for split in source.get("splits", {})]


def _split_files(importer: str, source: dict, splits: list[str]) -> list[str]:
    """The files ``importer`` reads for ``splits`` of ``source`` (its ``split_file(source, split)``:
    a name or a list of names), in the order of SPLITS; none for a split it has no file for, or an
    importer whose files are not one per split."""
    split_file = getattr(importlib.import_module(f"{__name__}.{importer}"), "split_file", None)
    if split_file is None:
        return []
    files: list[str] = []
    for split in [split for split in SPLITS if split in splits]:
        try:
            names = split_file(source, split)
        except SplitAbsent:  # e.g. ChaosNLI's train, which its 'files' does not name
            continue
        files += [names] if isinstance(names, str) else names
    return files


def gold_choices(source: dict) -> list[tuple[str, dict[str, str]]]:
    """What the dataset's options choose as its gold, for the Data page: per part, the name of its
    template under ``templates/importers/`` (``IMPORTER_PART``) and its fields; none when the
    importer states no choices (its own ``gold_choices``) or the options choose the default."""
    return _importer_of(source, "gold_choices", [])


def labels_given(source: dict) -> bool:
    """Whether every item of the dataset has a gold ``label`` given by its release (never null,
    as a hard label with ties broken by the organisers): the importer's own ``labels_given`` for
    each source the dataset reads (``sources_read``); False (some item may have no majority, and
    is not scored) for an importer that states none."""
    return all(_importer_of(sub, "labels_given", False) for sub, _ in sources_read(source))


def _importer_of(source: dict, name: str, default):
    """The importer's own function ``name`` of ``source``, applied to it; ``default`` when the
    importer has none."""
    module = importlib.import_module(f"{__name__}.{source.get('importer', 'kit')}")
    return getattr(module, name, lambda _: default)(source)


def item_lines(datasets: dict, root: Path, dataset: str, split: str, ids) -> dict[str, int]:
    """The line of each of ``ids`` in the file of ``split`` of ``datasets[dataset]``, for a data
    check's refusal: by the importer's own ``item_lines`` (the table importer's), else none."""
    source = split_source(datasets[dataset], split)
    module = importlib.import_module(f"{__name__}.{source.get('importer', 'kit')}")
    lines = getattr(module, "item_lines", None)
    return lines(source, Path(root), ids) if lines and "path" in source else {}


def load_split(
    source: dict, root: Path, split: str, where: str = "datasets", labels: Sequence = ()
) -> list[dict]:
    """The items of ``split``; ``labels``: the dataset's tracks with labels
    (``dataset_label_tracks``), for an importer that takes a majority of annotations and checks
    them (the table importer)."""
    # everything an importer reads lies inside ``root``: no option absolute or climbing with '..',
    # the release ``path`` (every file below it) inside once links are resolved; nested sources
    # (``fallback``) are checked when their own turn comes
    problems = list(lexical_escapes(source, where, "the data folder"))
    if problems:
        raise ConfigError(problems)
    if "path" in source:
        require_inside(source["path"], root, where, "path", f"the data folder ({root})")
    module = importlib.import_module(f"{__name__}.{source.get('importer', 'kit')}")
    try:
        if isinstance(source.get("split"), dict):
            return cut_release(module, source, Path(root), split, where, labels)
        return _filtered(module, source, Path(root), split, labels)
    except SplitAbsent:
        if split == "train":  # a dataset without training data: baselines that need it say so
            return []
        raise


def none_kept(where: dict, values: list[dict], of: str, display: str) -> SplitAbsent:
    """The problem of a ``where`` that kept none of the items read from ``of`` (the split or file),
    listing the values each of its fields has there (``values``: per item, field -> its text); a
    SplitAbsent, so that a scored split is refused and train has no items (``load_split``)."""
    shown = {key: sorted({v[key] for v in values if v[key] is not None}) for key in where}
    return SplitAbsent.single(
        display,
        f"'where' kept none of the {counted(len(values), 'item')} of {of}",
        expected="; ".join(f"{k} among {first_few(v, 10) or 'no value'}" for k, v in shown.items()),
        found=", ".join(f"{key}: {wanted!r}" for key, wanted in where.items()),
        hint="correct 'where' to values the field has, spelled as listed",
    )


def _filtered(module, source: dict, root: Path, split: str, labels) -> list[dict]:
    """The importer's items of ``split``, with the dataset's ``where`` applied: by the table importer
    to its rows (so that it may name any column of the file), which also takes the majority label in
    ``labels``."""
    if module.__name__ == f"{__name__}.table":
        return module.load_split(source, root, split, labels)
    items = module.load_split(source, root, split)
    if source.get("where"):
        display = f"datasets (importer {source.get('importer')})"
        items = keep_where(items, source["where"], display, f"the {split} split")
    return items


def cut_release(module, source: dict, root: Path, split: str, where: str, labels) -> list[dict]:
    """The items ``split: {...}`` assigns to ``split`` from one release (``where`` applied first)."""
    shares = source["split"]
    if not shares.get(split):
        raise SplitAbsent.single(
            where,
            f"'split' gives the {split} split no share",
            hint=f"add {split}: SHARE to the dataset's 'split'",
        )

    def in_split(item: dict) -> bool:
        return split_of(item["id"], shares) == split

    try:
        items = _filtered(module, source, root, shares.get("from", "test"), labels)
    except PartlyRead as error:  # the items read are cut as well, for the data checks
        error.items = list(filter(in_split, error.items))
        raise
    return list(filter(in_split, items))


def keep_where(items: list[dict], where: dict, display: str, of: str = "the split") -> list[dict]:
    """The items whose field matches ``where`` (a value or a list of values per field); a field no
    item has, or a ``where`` keeping none of the items of ``of``, is refused rather than keeping
    nothing without a word (``none_kept``)."""
    for key in where:
        if items and not any(key in it for it in items):
            raise ConfigError.single(
                display,
                f"'where' names a field no item has: {key!r}",
                expected="one of " + ", ".join(sorted({k for it in items for k in it})),
            )
    values = [{key: value_text(it.get(key)) for key in where} for it in items]
    kept = [it for it, texts in zip(items, values) if where_keeps(texts, where)]
    if items and not kept:
        raise none_kept(where, values, of, display)
    return kept


def value_text(value) -> str | None:
    """A field's value as ``where`` compares it: its text, None for no value."""
    return None if value is None else str(value)


def where_keeps(texts: dict[str, str | None], where: dict) -> bool:
    """Whether each field's text in ``texts`` (``value_text``; None: no value) is what ``where``
    wants of it: a value, or one of a list of values."""
    return all(texts[k] in (v if isinstance(v, list) else [v]) for k, v in where.items())
