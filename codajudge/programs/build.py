"""``build_bundle.py``: turn an edition config and its data into a Codabench bundle.

python3 build_bundle.py [--edition NAME|CONFIG] [--data DIR] [--out DIR]
python3 build_bundle.py --sync-root     # regenerate the default edition's files at the repository root
python3 build_bundle.py --check-root    # fail if they are out of date (run by the tests)
python3 build_bundle.py --edition NAME --data DIR --dry-run   # read and validate a release, write nothing
python3 build_bundle.py --check BUNDLE  # check a built bundle (folder or zip), as codajudge check
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from ..bundle.build import REPO_ROOT, build, config_notes, import_data, kit_warnings
from ..bundle.build import known_leak_notes, write_tree
from .. import __version__
from ..assets import is_source_checkout
from ..bundle.edition import load_edition
from ..bundle.data_checks import unused_label_notes
from ..bundle.prose import Templates
from ..bundle.zipdet import tree_files
from ..errors import ConfigError, Problem, first_few
from ..untrusted import remove_entry
from .common import argument_parser, run_parsed

#: What the repository root holds of the default edition's bundle (the rest is source).
ROOT_GENERATED = (
    "competition.yaml",
    "logo.png",
    "pages",
    "reference_data",
    "input_data",
    "solutions",
)
#: What ``--sync-root`` writes at the repository root and ``--check-root`` compares.
ROOT_FILES = ROOT_GENERATED + (".gitattributes",)


#: The command's on/off options and their help.
SWITCHES = {
    "--legacy": "write a CodaLab v1.5 bundle instead",
    "--sync-root": "regenerate the default edition at the repo root",
    "--check-root": "check the repo root is up to date",
    "--dry-run": "read and validate the edition and its data; write nothing",
}


def edition_path(value: str) -> Path:
    """A config file or edition folder given as a path, else the edition of that name in ``editions/``
    (a folder of that name without edition.yaml in the working folder, such as a built bundle's tree
    ``sts2017/``, does not hide it)."""
    candidate = Path(value)
    if candidate.is_file() or (candidate / "edition.yaml").is_file():
        return candidate
    editions = REPO_ROOT / "editions"
    for found in (editions / value, candidate):  # the named edition first
        if found.exists():
            return found
    known = sorted(p.name for p in editions.iterdir() if (p / "edition.yaml").is_file())
    raise ConfigError.single(
        "--edition",
        "no such edition or config file",
        expected=" | ".join(known) + " or a path",
        found=repr(value),
    )


def _contents(path: Path) -> dict[str, bytes]:
    """The file at ``path`` (key ''), or every file below the folder at ``path`` by its relative
    path (caches left out); nothing when there is nothing at ``path``."""
    if path.is_file():
        return {"": path.read_bytes()}
    return {relative: full.read_bytes() for relative, full in tree_files(path).items()}


def gitattributes_text(tree: Path) -> str:
    """The root's ``.gitattributes``: every generated path marked ``linguist-generated``."""
    lines = [Templates().fill("builder/gitattributes")]
    lines += [
        f"/{name}{'/**' if (tree / name).is_dir() else ''} linguist-generated=true"
        for name in ROOT_GENERATED
    ]
    return "\n".join(lines) + "\n"


def sync_root(check_only: bool) -> int:
    with tempfile.TemporaryDirectory(prefix="codajudge-root-") as tmp:
        edition = load_edition(REPO_ROOT / "editions" / "default")
        tree = Path(tmp) / "default"
        write_tree(edition, import_data(edition, edition.folder), tree)
        (tree / ".gitattributes").write_text(gitattributes_text(tree), encoding="utf-8")
        stale = []
        for name in ROOT_FILES:
            built, kept = _contents(tree / name), _contents(REPO_ROOT / name)
            differing = sorted(rel for rel in {*built, *kept} if built.get(rel) != kept.get(rel))
            stale += [f"{name}/{rel}".rstrip("/") for rel in differing]
        prose = Templates()
        if check_only:
            if stale:
                files = "  " + first_few(stale, 20, sep="\n  ")
                print(prose.fill("builder/root_stale", files=files), file=sys.stderr)
                return 1
            print(prose.fill("builder/root_fresh"))
            return 0
        for name in ROOT_FILES:
            target = REPO_ROOT / name
            remove_entry(target)
            (shutil.copytree if (tree / name).is_dir() else shutil.copyfile)(tree / name, target)
        print(prose.fill("builder/root_written", files=", ".join(ROOT_FILES), root=REPO_ROOT))
        return 0


def checked_data(config: Path, data: str | None):
    """The edition at ``config``, its data root (``data``, default its folder) and its data: every
    problem of the configuration and the data is raised together (``bundle.build.import_data``)."""
    found: list[Problem] = []
    edition = load_edition(config, found)
    data_root = Path(data) if data else edition.folder
    return edition, data_root, import_data(edition, data_root, found)


def dry_run(edition, data_root: Path, data, then: str = "drop --dry-run to build") -> int:
    """Everything a build validates (config, every split, gold, leaderboard keys, leaks), in a
    temporary folder that is removed: nothing is written where the organiser looks; ``then``: what
    to do next, in the closing line."""
    with tempfile.TemporaryDirectory(prefix="codajudge-dry-run-") as tmp:
        write_tree(edition, data, Path(tmp) / edition.name)
    notes = config_notes(edition, f"<out>/{edition.name}.zip")
    notes += unused_label_notes(edition.tracks, data.golds) + known_leak_notes(edition, data)
    for note in notes:
        print(f"note: {note}")
    for warning in kit_warnings(edition, data):
        print(warning)
    prose = Templates.of(edition.folder)
    print(prose.fill("builder/dry_run", name=edition.name, data=data_root, then=then))
    return 0


def run(args) -> int:
    if args.check:
        from .check import check

        return check(args.check)
    if args.sync_root or args.check_root:
        if not is_source_checkout():
            raise ConfigError.single(
                "--sync-root/--check-root",
                "only in a source checkout of the repository",
                found=f"an installed kit in {REPO_ROOT}",
            )
        return sync_root(check_only=args.check_root)
    edition, data_root, data = checked_data(edition_path(args.edition), args.data)
    if args.dry_run:
        return dry_run(edition, data_root, data)
    builder = build
    if args.legacy:  # CodaLab v1.5's builder, imported only for it
        from ..legacy.build import build_legacy as builder
    print(builder(edition, data_root, Path(args.out), data).render())
    return 0


def main(argv: list[str] | None = None, prog: str = "build_bundle.py") -> int:
    parser = argument_parser(prog, __doc__, epilog=__doc__)
    parser.add_argument(
        "--edition", default="default", help="edition name (editions/NAME) or a config path"
    )
    parser.add_argument(
        "--data",
        help="folder the edition's dataset paths are relative to (default: the edition's folder)",
    )
    parser.add_argument("--out", default="dist", help="output folder (default: dist)")
    for flag, text in SWITCHES.items():
        parser.add_argument(flag, action="store_true", help=text)
    parser.add_argument(
        "--check", metavar="BUNDLE", help="check a built bundle (folder or zip) and exit"
    )
    parser.add_argument("--version", action="version", version=f"codajudge {__version__}")
    return run_parsed(parser, argv, run)
