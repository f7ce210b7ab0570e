"""``codajudge schema``: the edition config's JSON Schema, for editors that complete and check
``edition.yaml`` (the same table the builder validates with; see ``docs/edition-config.md``).

    codajudge schema                 # print it (docs/edition.schema.json is this output)
    codajudge schema --markdown      # the key reference of docs/edition-config.md instead
"""

from __future__ import annotations

import json

from ..bundle.schema import json_schema, markdown_reference
from .common import argument_parser, run_parsed


def schema_text() -> str:
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"


def run(markdown: bool) -> int:
    print(markdown_reference() if markdown else schema_text(), end="")
    return 0


def main(argv: list[str] | None = None, prog: str = "codajudge schema") -> int:
    parser = argument_parser(prog, __doc__)
    parser.add_argument(
        "--markdown", action="store_true", help="the key reference as Markdown tables instead"
    )
    return run_parsed(parser, argv, lambda args: run(args.markdown))
