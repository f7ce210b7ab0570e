"""``codajudge baselines``: build an edition and print the scores its baselines got on a phase, per
track and metric (the build runs each of them on every phase by the code of the ingestion program's
child, and scores it with the scoring program's code, as Codabench would).

    codajudge baselines [EDITION] [--data DIR] [--phase PHASE] [--out DIR]

EDITION is a name under editions/, a folder or its edition.yaml (default: default); --data the
folder its dataset paths are relative to (default: the edition folder); --phase defaults to
evaluation; the bundle is built in a temporary folder unless --out is given.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from ..bundle.build import build
from ..bundle.edition import load_edition
from ..bundle.pages import score_titles
from ..errors import ConfigError
from .build import edition_path
from .common import argument_parser, run_parsed


def score_table(edition, results: dict[str, dict[str, float]]) -> str:
    """Rows: the primary score, then each track's metrics; one column per baseline."""
    keys = score_titles(edition.tracks, "primary score")
    width = max(len(label) for _, label in keys)
    lines = [f"{'':<{width}}  " + "  ".join(f"{name:>13}" for name in results)]
    for key, label in keys:
        values = [scores.get(key) for scores in results.values()]
        cells = "  ".join(f"{'n/a' if v is None else f'{v:.4f}':>13}" for v in values)
        lines.append(f"{label:<{width}}  {cells}")
    return "\n".join(lines)


def run(args) -> int:
    """Build ``args.edition`` into ``args.out`` (a temporary folder when None) and print the scores
    its baselines got on ``args.phase`` at build time."""
    edition = load_edition(edition_path(args.edition))
    if args.phase not in {p.id for p in edition.phases}:
        raise ConfigError.single(
            "--phase",
            f"edition '{edition.name}' has no such phase",
            expected=" | ".join(p.id for p in edition.phases),
            found=repr(args.phase),
        )
    with tempfile.TemporaryDirectory(prefix="codajudge-baselines-") as tmp:
        out = Path(tmp) if args.out is None else Path(args.out)
        summary = build(edition, Path(args.data) if args.data else edition.folder, out)
    edition = summary.edition  # without the baselines the edition's data cannot train
    print(summary.render(), end="\n\n")
    where = f" ({summary.zip_path})" if args.out is not None else ""
    print(f"Baselines on the {args.phase} phase of edition '{edition.name}'{where}:")
    print(score_table(edition, summary.baseline_scores[args.phase]))
    return 0


def main(argv: list[str] | None = None, prog: str = "codajudge baselines") -> int:
    parser = argument_parser(prog, __doc__)
    parser.add_argument("edition", nargs="?", default="default", help="edition name or folder")
    parser.add_argument("--data", help="folder the edition's dataset paths are relative to")
    parser.add_argument(
        "--phase", default="evaluation", help="the phase scored (default: evaluation)"
    )
    parser.add_argument("--out", help="keep the built bundle in this folder")
    return run_parsed(parser, argv, run)
