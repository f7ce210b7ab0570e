"""``codajudge check BUNDLE|EDITION [--data DIR]``: check a bundle or an edition before building or uploading.

A folder holding ``competition.yaml`` (or its zip) is a bundle: it is checked as Codabench will read
it. A folder holding ``edition.yaml`` (or that file) is an edition: with ``--data DIR`` everything the
build's dry run checks (the config, every dataset's files, every split, every track's gold, the
leaderboard's keys, the leaks, the pages), writing nothing; without it, the config alone.

Prints one line per problem and exits 1 when there is any; prints a one-line summary otherwise.
The same check runs as ``python3 build_bundle.py --check BUNDLE``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..assets import kit_command
from ..errors import UsageError, counted
from .common import argument_parser, run_parsed


def is_edition_config(path: Path) -> bool:
    """An ``edition.yaml`` (or a folder holding one and no ``competition.yaml``), not a bundle."""
    if path.is_dir():
        return (path / "edition.yaml").is_file() and not (path / "competition.yaml").exists()
    return path.suffix in (".yaml", ".yml") and path.name != "competition.yaml"


def check_edition(path: Path, data: str | None = None) -> int:
    """The edition config against the schema and the cross-field rules, as the builder reads it;
    with ``data``, its data and the built bundle too, as the build's dry run."""
    from ..bundle.build import config_notes
    from ..bundle.edition import load_edition
    from .build import checked_data, dry_run

    if data is None:
        edition = load_edition(path)
        for note in config_notes(edition, f"<out>/{edition.name}.zip"):
            print(f"note: {note}")
        print(
            f"{path}: edition {edition.name}: no problems found in its config; its data was not "
            f"checked (give --data DIR, the folder its dataset paths are relative to)"
        )
        return 0
    edition, data_root, read = checked_data(path, data)
    then = f"build it: {kit_command('build')} --edition {path} --data {data} --out dist"
    return dry_run(edition, data_root, read, then)


def check(bundle: str, data: str | None = None) -> int:
    """A bundle (Codabench v2 or CodaLab v1.5) or an edition checked, its problems printed."""
    if is_edition_config(Path(bundle)):
        return check_edition(Path(bundle), data)
    if data is not None:
        raise UsageError.single(
            bundle,
            "--data is for an edition (a folder holding edition.yaml), not a built bundle",
            hint="drop --data, or name the edition's folder",
        )
    from ..bundle.check import check_bundle, v2
    from ..legacy import check as legacy_check

    notes: list[str] = []
    problems = check_bundle(Path(bundle), (v2, legacy_check), notes)
    print("".join(f"note: {note}\n" for note in notes), end="")
    if problems:
        print("\n".join(problems))
        found = counted(len(problems), "problem")
        print(f"{bundle}: {found}; fix them before uploading", file=sys.stderr)
        return 1
    print(f"{bundle}: ok, no problems found")
    return 0


def main(argv: list[str] | None = None, prog: str = "codajudge check") -> int:
    parser = argument_parser(prog, __doc__, epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument(
        "bundle",
        metavar="BUNDLE|EDITION",
        help="a bundle (a folder holding competition.yaml, or its zip), or an edition (a folder "
        "holding edition.yaml, or that file)",
    )
    parser.add_argument(
        "--data",
        metavar="DIR",
        help="for an edition: the folder its dataset paths are relative to; its data is then "
        "checked too (without it, the config alone)",
    )
    return run_parsed(parser, argv, lambda args: check(args.bundle, args.data))
