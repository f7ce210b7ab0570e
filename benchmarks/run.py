#!/usr/bin/env python3
"""Performance benchmark: ``python3 benchmarks/run.py`` (about 5 minutes on 2 cores; not a test).

Measures every case in a fresh worker process, prints a table (time, peak memory, ratios) and exits
non-zero when a target is missed. ``--only CASE`` runs some cases; ``--list`` names them.

Cases: the scoring program on the evaluation phase of each shipped edition (built from
``../shared/data``, or taken from ``--bundles DIR``; skipped with the reason when the data is absent),
a baseline's predictions as the submission; the scoring program on 1,000,000 similarity pairs
(SemEval positional and id<TAB>value, synthetic from a fixed seed); 1,000 bootstrap resamples of
100,000 items for every kind and scale; 50 systems x 4 tracks x 10,000 items ranked with paired
tests between all pairs; the cosine baseline on 100,000 English pairs.

Targets: an edition's scoring at most 1.8 x the CPU time of importing what it must import
(``python3 -c "import numpy, yaml"``, plus the scipy module its metrics use); the 1,000,000 pairs at
most 3 x the CPU time of their parse floor (``benchmarks/floor.py``: the stdlib reading the same
files, in a fresh interpreter as the scoring program) and below 600 MB; loop ratio (a per-item
Python loop / the kit, same data) >= 20 for every LeWiDi metric; bootstrap < 20 x scoring once;
peak memory < 1.5 GB; the ranking case <= 30 s and <= 600 MB, reported as scoring, ranks with
intervals and paired tests; cosine baseline >= 1/30 of a plain set-cosine's throughput; all cases
within 10 minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks.report import check_targets, machine_line, render_table  # noqa: E402

ORDER = (
    "edition_default",
    "edition_sts2017",
    "edition_ocnli",
    "edition_lewidi2025",
    "edition_chaosnli",
    "edition_lewidi2023",
    "score_similarity_positional",
    "score_similarity_id_tab",
    "bootstrap",
    "ranking",
    "cosine",
)
MARK = "BENCH-ROWS "


def run_worker(case: str, workdir: Path) -> list[dict]:
    """Run one case in a fresh interpreter; its rows, or one failed row with the error's end."""
    proc = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).resolve()),
            "--worker",
            case,
            "--workdir",
            str(workdir),
        ],
        capture_output=True,
        text=True,
        cwd=str(REPO),
    )
    for line in proc.stdout.splitlines():
        if line.startswith(MARK):
            return json.loads(line[len(MARK) :])
    return [
        {
            "case": case,
            "error": (proc.stderr or proc.stdout).strip()[-1500:] or f"exit {proc.returncode}",
        }
    ]


def worker(case: str, workdir: Path) -> int:
    from benchmarks.cases import lazy_cases

    rows = lazy_cases()[case](workdir)
    print(MARK + json.dumps(rows), flush=True)
    return 0


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=ORDER, help="run only these cases")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    parser.add_argument("--json", type=Path, help="also write the rows to this file")
    parser.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="a fraction of the documented sizes, for a quick look (default 1)",
    )
    parser.add_argument(
        "--bundles",
        type=Path,
        help="editions already built (DIR/E/E, as build_bundle.py --out DIR/E writes), not rebuilt",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--workdir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args.worker, args.workdir)
    if args.list:
        print("\n".join(ORDER))
        return 0
    os.environ["CODAJUDGE_BENCH_SCALE"] = repr(args.scale)
    if args.bundles:
        os.environ["CODAJUDGE_BENCH_BUNDLES"] = str(args.bundles.resolve())
    print(machine_line() + (f", sizes x {args.scale:g}" if args.scale != 1 else ""), flush=True)
    started = time.perf_counter()
    rows: list[dict] = []
    workdir = Path(tempfile.mkdtemp(prefix="codajudge-bench-"))
    try:
        for case in args.only or ORDER:
            case_started = time.perf_counter()
            new = run_worker(case, workdir)
            print(
                f"  {case}: {time.perf_counter() - case_started:.1f} s", file=sys.stderr, flush=True
            )
            rows.extend(new)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    total = time.perf_counter() - started
    print(render_table(rows))
    misses = check_targets(rows, total, complete=not args.only and args.scale == 1)
    print(f"\nwhole benchmark: {total:.0f} s")
    for line in misses:
        print(f"TARGET MISSED: {line}")
    if args.json:
        args.json.write_text(
            json.dumps({"machine": machine_line(), "total_seconds": total, "rows": rows}, indent=1)
        )
    print("all targets met" if not misses else f"{len(misses)} target(s) missed")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
