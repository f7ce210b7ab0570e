"""SemEval STS releases (2012-2017): ``STS.input.<track>.txt`` pairs and ``STS.gs.<track>.txt`` gold.

Options of the dataset's source mapping:

- ``path``: the release folder (relative to the edition root);
- ``track``: the file infix, e.g. ``track1.ar-ar``;
- ``lang``: the item language, e.g. ``ar-ar`` (default: the part of ``track`` after its last dot);
- ``fallback``: optional mapping ``train``/``dev`` -> another dataset source (any importer), because
  the STS 2017 release has only a test split; e.g. ``{train: {importer: stsb, path: data/stsbenchmark}}``.

Input lines are exactly two tab-separated texts (no ids, no CSV quoting: sentences contain ``"``);
gold is one number per line (0-5). Item ids are the 0-based line index as a string, as in STS-B's
``track5.en-en`` rows. Only pairs that have gold are kept: gold line *i* belongs to input line *i*,
so a gold file shorter than the input covers its first lines. STS 2017 track 6 (tr-en) has 500
input lines for 250 gold scores, and the gold belongs to the first 250 lines (the official scorer
reads only as many lines as there are gold scores), so that track yields 250 items. A blank gold
line marks a pair without gold, as in the 2012-2016 releases.
"""

from pathlib import Path
from collections.abc import Iterator

from ..errors import ConfigError, ProblemCollector
from ..formats.values import ValueProblem, parse_number
from ..formats.textfile import utf8_text
from . import SplitAbsent
from . import load_split as load_any

WHERE = "datasets (importer semeval_sts)"
RELEASE_SPLIT = "test"


def read_release_lines(path: Path) -> list[str]:
    """The physical lines of a UTF-8 release file (BOM and CR removed; no line after a final newline).

    Line *k* (1-based, as in messages) is ``lines[k - 1]``; blank lines are kept because positional
    releases give them meaning."""
    if not path.is_file():
        raise ConfigError.single(
            str(path), "release file not found", hint="check the dataset's 'path' option"
        )
    lines = [line.rstrip("\r") for line in utf8_text(path.read_bytes(), str(path)).split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def parse_gold_score(text: str, lineno: int, problems: ProblemCollector):
    """The gold score on one line as a float, or None after recording a located problem."""
    try:
        return parse_number(text)
    except ValueProblem as e:
        problems.add(f"gold score is {e.message}", line=lineno, expected=e.expected, found=e.found)
        return None


def tab_fields(
    path: Path, names: tuple[str, ...], problems: ProblemCollector, more: bool = False
) -> Iterator[tuple[int, list[str]]]:
    """(0-based line index, its fields ``names``) of each line of ``path`` cut at TAB alone (no CSV
    quoting: sentences contain ``"``): as many fields as ``names`` (at least as many, the first
    taken, when ``more``); another count is a located problem."""
    for index, line in enumerate(read_release_lines(path)):
        fields = line.split("\t")
        if len(fields) == len(names) or (more and len(fields) > len(names)):
            yield index, fields[: len(names)]
            continue
        problems.add(
            "wrong number of tab-separated fields",
            line=index + 1,
            expected=f"{'at least ' if more else ''}{len(names)} ({', '.join(names)})",
            found=str(len(fields)),
            hint="split on TAB only; do not apply CSV quoting",
        )


def _load_release(source: dict, root: Path) -> list[dict]:
    """The test items of one track: pairs aligned with gold by line, pairs without gold left out."""
    folder = Path(root) / source["path"]
    track = source["track"]
    lang = source.get("lang") or track.rsplit(".", 1)[-1]
    input_path = folder / f"STS.input.{track}.txt"
    gold_path = folder / f"STS.gs.{track}.txt"
    problems = ProblemCollector(str(input_path))
    pairs = [fields for _, fields in tab_fields(input_path, ("sentence1", "sentence2"), problems)]
    problems.raise_if_any(ConfigError)
    problems = ProblemCollector(str(gold_path))  # gold by line; None where the line is blank
    lines = enumerate(read_release_lines(gold_path), start=1)
    scores = [parse_gold_score(line, n, problems) if line.strip() else None for n, line in lines]
    problems.raise_if_any(ConfigError)
    if len(scores) > len(pairs):
        raise ConfigError.single(
            str(gold_path),
            "more gold scores than input pairs",
            expected=f"at most {len(pairs)} lines (as in {input_path.name})",
            found=f"{len(scores)} lines",
        )
    return [
        {"id": str(index), "texts": pairs[index], "lang": lang, "score": score}
        for index, score in enumerate(scores)
        if score is not None
    ]


def load_split(source: dict, root: Path, split: str) -> list[dict]:
    """Items of ``split``: the release for ``test``, the ``fallback`` source for ``train``/``dev``
    (any importer; the schema has checked that it maps train/dev to dataset sources)."""
    if split == RELEASE_SPLIT:
        return _load_release(source, root)
    fallback = source.get("fallback") or {}
    if split not in fallback:
        raise SplitAbsent.single(
            WHERE,
            f"the SemEval STS release has no {split} split",
            expected=f"split {RELEASE_SPLIT!r}, or a 'fallback' source for {split!r}",
            found=repr(split),
            hint="e.g. fallback: {%s: {importer: stsb, path: data/stsbenchmark}}" % split,
        )
    return load_any(fallback[split], root, split, where=f"{WHERE}, fallback.{split}")
