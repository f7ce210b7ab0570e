"""``codajudge new NAME``: write a new edition folder to fill in, then build it with ``codajudge build``.

    codajudge new NAME [--out DIR]      # writes DIR/NAME/ (default: ./NAME)

The folder holds ``edition.yaml`` (every key commented; a ``table`` dataset reading
``data/items.csv``; a ``local`` phase, so that the starting kit scores), an example CSV to replace
with the edition's own data, the kit's logo, and ``pages/overview.md`` and ``pages/terms.md`` marked
as placeholders: the builder refuses to ship them, or the placeholder ``title`` and
``description``, until they are rewritten (see ``bundle/placeholders.py``). Their words are the
kit's templates ``templates/new_edition/`` (``config``, ``overview``, ``terms``).
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

from ..assets import kit_command, kit_root
from ..bundle.prose import Templates
from ..confine import slug_problem
from ..errors import UsageError
from ..formats.items import read_items
from ..texts import csv_text
from .common import argument_parser, run_parsed


def example_csv() -> str:
    """The example table: the default edition's English sample pairs."""
    folder = kit_root() / "editions" / "default" / "data" / "sts_en"
    splits = ("train", "dev", "test")
    items = [item for split in splits for item in read_items(folder / f"{split}.jsonl")]
    rows = [[item["id"], *item["texts"][:2], item["score"]] for item in items]
    return csv_text(["id", "sentence1", "sentence2", "score"], rows)


def write_edition(name: str, out: Path) -> Path:
    """The new edition's folder ``out/name`` (refused if it exists or the name is not plain)."""
    from ..bundle.placeholders import PLACEHOLDER_MARK, PLACEHOLDER_TEXTS

    problem = slug_problem(name, name, "NAME")
    if problem is not None:  # a path as NAME: its last part is the name, the rest is --out
        path = Path(name)
        if path.parent.name:
            fix = f"{kit_command('new')} {path.name} --out {path.parent}"
            problem = replace(problem, hint=f"to write the folder {name}, run {fix}")
        raise UsageError([problem])
    folder = Path(out) / name
    if folder.exists():
        raise UsageError.single(str(folder), "already exists", hint="choose another NAME or --out")
    title = PLACEHOLDER_TEXTS["title"].format(name=name)
    (folder / "pages").mkdir(parents=True)
    (folder / "data").mkdir()
    kit = Templates()
    description = PLACEHOLDER_TEXTS["description"]
    fields = dict(name=name, title=title, description=description, **next_commands(folder))
    config = kit.fill("new_edition/config", **fields)
    overview = kit.fill("new_edition/overview", mark=PLACEHOLDER_MARK, title=title)
    terms = kit.fill("new_edition/terms", mark=PLACEHOLDER_MARK)
    (folder / "edition.yaml").write_text(config + "\n", encoding="utf-8")
    (folder / "pages" / "overview.md").write_text(overview + "\n", encoding="utf-8")
    (folder / "pages" / "terms.md").write_text(terms + "\n", encoding="utf-8")
    (folder / "data" / "items.csv").write_text(example_csv(), encoding="utf-8")
    shutil.copyfile(kit_root() / "editions" / "default" / "logo.png", folder / "logo.png")
    return folder


def kit_form() -> str:
    """The kit's command as this process was started (``python -m codajudge`` or ``codajudge``), for
    the commands ``new`` prints and writes into ``edition.yaml``."""
    return kit_command("new").rsplit(" ", 1)[0]


def next_commands(folder: Path) -> dict[str, str]:
    """The commands that check, build and score the baselines of the new edition ``folder``, as
    ``new`` prints them and as ``edition.yaml``'s header says them: the same words, which run from
    where ``new`` ran."""
    kit = kit_form()
    return {
        "check": f"{kit} check {folder} --data {folder}",
        "build": f"{kit} build --edition {folder} --data {folder} --out dist",
        "baselines": f"{kit} baselines {folder} --data {folder}",
    }


def run(args) -> int:
    folder = write_edition(args.name, Path(args.out))
    print(Templates().fill("new_edition/next_steps", folder=folder, **next_commands(folder)))
    return 0


def main(argv: list[str] | None = None, prog: str = "codajudge new") -> int:
    parser = argument_parser(prog, __doc__)
    parser.add_argument("name", help="the edition's name (a plain folder name)")
    parser.add_argument("--out", default=".", help="the folder to write NAME/ in (default: .)")
    return run_parsed(parser, argv, run)
