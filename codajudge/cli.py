"""``codajudge``: one command for organisers and participants, a thin layer over the programs.

    codajudge build [--edition NAME|CONFIG] [--data DIR] [--out DIR] [--legacy] [--dry-run]
    codajudge check BUNDLE|EDITION         # a bundle folder or zip before uploading it; an edition.yaml
    codajudge new NAME [--out DIR]         # a new edition folder to fill in
    codajudge baselines [EDITION] [--data DIR] [--phase PHASE]   # build, run every baseline, print the table
    codajudge schema [--markdown]          # the edition config's JSON Schema, for editors
    codajudge run BUNDLE SUBMISSION --phase PHASE [--output DIR]   # the local runner (both steps)
    codajudge score INPUT OUTPUT           # the scoring program's contract (INPUT/ref, INPUT/res)
    codajudge ingest INPUT_DATA OUTPUT SUBMISSION|--baseline NAME   # the ingestion program's contract
    codajudge rank SUBMISSIONS_DIR REFERENCE_DIR --out DIR   # final ranking with statistical ties

``codajudge COMMAND --help`` gives each command's options.
"""

from __future__ import annotations

import sys

from . import __version__

COMMANDS = {
    "build": "build a bundle from an edition (build_bundle.py)",
    "check": "check a bundle folder or zip before uploading it, or an edition config",
    "new": "write a new edition folder to fill in",
    "baselines": "build an edition, run every baseline on a phase and print their scores",
    "schema": "print the edition config's JSON Schema",
    "run": "run a submission through both steps locally (run_local.py)",
    "score": "the scoring program (scoring_program/score.py)",
    "ingest": "the ingestion program (ingestion_program/ingest.py)",
    "rank": "rank final submissions with statistical ties (rank_submissions.py)",
}
#: The commands whose module in ``codajudge.programs`` is not named as the command.
MODULES = {"new": "new_edition", "run": "run_local"}


def module_of(command: str) -> str:
    """The module whose ``main`` runs ``command``."""
    return f"codajudge.programs.{MODULES.get(command, command)}"


def usage() -> str:
    lines = [f"usage: codajudge COMMAND [ARGS]   (codajudge {__version__})", "", "commands:"]
    lines += [f"  {name:<9} {text}" for name, text in COMMANDS.items()]
    lines += [
        "",
        "codajudge COMMAND --help shows the options of one command; codajudge --version the version.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the command; a closed stdout (``codajudge ... --help | head -1``) ends any of them
    quietly, argparse's help and usage included, which are printed before any program's guard."""
    from .errors import stdout_closed

    try:
        try:
            return _run(argv)
        finally:  # what print() left in the buffer fails here, not at exit with a traceback
            sys.stdout.flush()
    except BrokenPipeError:
        return stdout_closed()


def _run(argv: list[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(usage())
        return 0 if argv else 2
    if argv[0] in ("-V", "--version"):
        print(f"codajudge {__version__}")
        return 0
    command, rest = argv[0], argv[1:]
    if command not in COMMANDS:
        print(
            f"codajudge: unknown command {command!r}; expected one of {', '.join(COMMANDS)}\n\n{usage()}",
            file=sys.stderr,
        )
        return 2
    from .deps import require_runtime

    require_runtime(f"codajudge {command}")
    import importlib

    module = importlib.import_module(module_of(command))
    return module.main(rest, prog=f"codajudge {command}")


if __name__ == "__main__":
    sys.exit(main())
