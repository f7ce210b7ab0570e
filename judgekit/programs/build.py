"""``build_bundle.py``: turn an edition config and its data into a Codabench bundle.

    python3 build_bundle.py [--edition NAME|CONFIG] [--data DIR] [--out DIR]
    python3 build_bundle.py --sync-root     # regenerate the default edition's files at the repository root
    python3 build_bundle.py --check-root    # fail if they are out of date (run by the tests)
    python3 build_bundle.py --edition NAME --data DIR --dry-run   # read and validate a release, write nothing
    python3 build_bundle.py --check BUNDLE  # check a built bundle (folder or zip), as judgekit check
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import sys
import tempfile
from pathlib import Path
from typing import List, Optional

from ..bundle.build import REPO_ROOT, build, import_data, write_tree
from .. import __version__
from ..assets import is_source_checkout
from ..bundle.edition import load_edition
from ..errors import ConfigError
from .common import run_guarded

#: What the repository root holds of the default edition's bundle (the rest is source).
ROOT_GENERATED = ("competition.yaml", "logo.png", "pages", "reference_data", "input_data", "solutions")


def edition_path(value: str) -> Path:
    candidate = Path(value)
    if candidate.exists():
        return candidate
    named = REPO_ROOT / "editions" / value
    if named.exists():
        return named
    known = sorted(p.name for p in (REPO_ROOT / "editions").iterdir() if (p / "edition.yaml").is_file())
    raise ConfigError.single("--edition", "no such edition or config file", expected=" | ".join(known) + " or a path",
                             found=repr(value))


def _generated_root_tree(tmp: Path) -> Path:
    edition = load_edition(REPO_ROOT / "editions" / "default")
    tree = tmp / "default"
    write_tree(edition, import_data(edition, edition.folder), tree, with_engine=False)
    return tree


def _differences(a: Path, b: Path) -> List[str]:
    if a.is_file() or b.is_file():
        return [] if a.is_file() and b.is_file() and filecmp.cmp(a, b, shallow=False) else [str(b)]
    comparison = filecmp.dircmp(a, b, ignore=["__pycache__"])
    out = [str(b / n) for n in comparison.left_only + comparison.right_only + comparison.diff_files]
    out += [str(b / n) for n in comparison.funny_files]
    for name in comparison.common_dirs:
        out += _differences(a / name, b / name)
    return out


def sync_root(check_only: bool) -> int:
    with tempfile.TemporaryDirectory(prefix="judgekit-root-") as tmp:
        tree = _generated_root_tree(Path(tmp))
        stale = []
        for name in ROOT_GENERATED:
            stale += _differences(tree / name, REPO_ROOT / name) if (REPO_ROOT / name).exists() else [name]
        if check_only:
            if stale:
                print("the default edition's files at the repository root are out of date:\n  "
                      + "\n  ".join(sorted(stale)[:20]) + "\nrun: python3 build_bundle.py --sync-root", file=sys.stderr)
                return 1
            print("repository root is up to date with editions/default")
            return 0
        for name in ROOT_GENERATED:
            target = REPO_ROOT / name
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()
            (shutil.copytree if (tree / name).is_dir() else shutil.copyfile)(tree / name, target)
        print(f"wrote {', '.join(ROOT_GENERATED)} at {REPO_ROOT}")
        return 0


def dry_run(edition, data_root: Path) -> int:
    """Everything a build validates (config, every split, gold, leaderboard keys, leaks), in a
    temporary folder that is removed: nothing is written where the organiser looks."""
    with tempfile.TemporaryDirectory(prefix="judgekit-dry-run-") as tmp:
        write_tree(edition, import_data(edition, data_root), Path(tmp) / edition.name)
    print(f"edition {edition.name}: the data in {data_root} is complete and valid; nothing was written "
          f"(drop --dry-run to build)")
    return 0


def run(args) -> int:
    if args.check:
        from .check import check
        return check(args.check)
    if args.sync_root or args.check_root:
        if not is_source_checkout():
            raise ConfigError.single("--sync-root/--check-root", "only in a source checkout of the repository",
                                     found=f"an installed kit in {REPO_ROOT}")
        return sync_root(check_only=args.check_root)
    edition = load_edition(edition_path(args.edition))
    data_root = Path(args.data) if args.data else edition.folder
    if args.dry_run:
        return dry_run(edition, data_root)
    if args.legacy:
        from ..bundle.legacy import build_legacy
        summary = build_legacy(edition, data_root, Path(args.out))
    else:
        summary = build(edition, data_root, Path(args.out))
    print(summary.render())
    return 0


def main(argv: Optional[List[str]] = None, prog: str = "build_bundle.py") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--edition", default="default", help="edition name (editions/NAME) or a config path")
    parser.add_argument("--data", help="folder the edition's dataset paths are relative to "
                                       "(default: the edition's folder)")
    parser.add_argument("--out", default="dist", help="output folder (default: dist)")
    parser.add_argument("--legacy", action="store_true", help="write a CodaLab v1.5 bundle instead")
    parser.add_argument("--sync-root", action="store_true", help="regenerate the default edition at the repo root")
    parser.add_argument("--check-root", action="store_true", help="check the repo root is up to date")
    parser.add_argument("--dry-run", action="store_true", help="read and validate the edition and its data; "
                                                               "write nothing")
    parser.add_argument("--check", metavar="BUNDLE", help="check a built bundle (folder or zip) and exit")
    parser.add_argument("--version", action="version", version=f"judgekit {__version__}")
    args = parser.parse_args(argv)
    return run_guarded(lambda: run(args), prog)
