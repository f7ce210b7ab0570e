"""``codajudge schema``: the edition config's JSON Schema, for editors that complete and check
``edition.yaml`` (the same table the builder validates with; see ``docs/edition-config.md``).

    codajudge schema                 # print it (docs/edition.schema.json is this output)
    codajudge schema --markdown      # the key reference of docs/edition-config.md instead
    codajudge schema --write-docs    # rewrite both in the repository's docs/ (after a new metric)
"""

from __future__ import annotations

import json

from ..bundle.build import REPO_ROOT
from ..bundle.schema import json_schema, markdown_reference
from ..errors import ConfigError
from .common import argument_parser, run_parsed

#: The heading of docs/edition-config.md's generated section: the tables follow its paragraph.
REFERENCE_HEADING = "\n## Reference\n"


def schema_text() -> str:
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"


def write_docs() -> int:
    """Rewrite docs/edition.schema.json and the reference tables that end docs/edition-config.md
    (what the registry, the kinds and the schema generate: a new metric's name among them)."""
    docs = REPO_ROOT / "docs"
    reference = docs / "edition-config.md"
    text = reference.read_text(encoding="utf-8") if reference.is_file() else ""
    if REFERENCE_HEADING not in text:
        raise ConfigError.single(
            str(reference),
            "has no '## Reference' section to rewrite",
            expected="the docs/edition-config.md of a checkout of the kit's repository",
            hint="run --write-docs in a checkout of the kit's repository",
        )
    tables = text.index("\n#### ", text.index(REFERENCE_HEADING)) + 1
    reference.write_text(text[:tables] + markdown_reference(), encoding="utf-8")
    (docs / "edition.schema.json").write_text(schema_text(), encoding="utf-8")
    print(f"wrote {docs / 'edition.schema.json'} and {reference}'s reference tables")
    return 0


def run(markdown: bool, docs: bool) -> int:
    if docs:
        return write_docs()
    print(markdown_reference() if markdown else schema_text(), end="")
    return 0


def main(argv: list[str] | None = None, prog: str = "codajudge schema") -> int:
    parser = argument_parser(prog, __doc__)
    parser.add_argument(
        "--markdown", action="store_true", help="the key reference as Markdown tables instead"
    )
    parser.add_argument(
        "--write-docs",
        action="store_true",
        help="rewrite docs/edition.schema.json and docs/edition-config.md's reference tables",
    )
    return run_parsed(parser, argv, lambda args: run(args.markdown, args.write_docs))
