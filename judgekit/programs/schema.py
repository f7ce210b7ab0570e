"""``judgekit schema``: the edition config's JSON Schema, for editors that complete and check
``edition.yaml`` (the same table the builder validates with; see ``docs/edition-config.md``).

    judgekit schema                 # print it
    judgekit schema --out FILE      # write it (docs/edition.schema.json is this output)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import List, Optional

from .common import run_guarded


def schema_text() -> str:
    from ..bundle.schema import json_schema

    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"


def run(out: Optional[str]) -> int:
    text = schema_text()
    if out is None:
        print(text, end="")
    else:
        Path(out).write_text(text, encoding="utf-8")
        print(f"wrote {out}")
    return 0


def main(argv: Optional[List[str]] = None, prog: str = "judgekit schema") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="write the schema to this file instead of printing it")
    args = parser.parse_args(argv)
    return run_guarded(lambda: run(args.out), prog)
