"""Text the kit writes from its own parts: Markdown templates whose ``$fields`` are filled by
``string.Template`` (one reading rule for the builder's pages and messages, ``bundle.prose``, which
looks in an edition's own templates first, and for the ranking tool's outputs, ``stats``), and CSV
tables."""

import csv
import io
from collections.abc import Iterable, Sequence
from pathlib import Path

from .errors import ConfigError

#: The kit's templates, shipped in the package (package data of the wheel).
KIT_TEMPLATES = Path(__file__).resolve().parent / "templates"


def filled(text: str, source: str, fields: dict[str, object]) -> str:
    """Template ``text`` (of the file ``source``) without its final line end, each ``$field``
    replaced; a ConfigError naming ``source`` for an unknown field or a lone ``$``."""
    import string  # here: the scoring program writes CSV through this module and fills no template

    # line ends as Python's text files read them: a template saved on Windows fills alike
    text = text.replace("\r\n", "\n").replace("\r", "\n").removesuffix("\n")
    try:
        return string.Template(text).substitute(fields)
    except KeyError as unknown:
        raise ConfigError.single(
            source,
            f"the template names an unknown field ${unknown.args[0]}",
            expected="fields among " + (", ".join(f"${f}" for f in fields) or "none"),
        ) from None
    except ValueError as bad:
        raise ConfigError.single(
            source, f"a '$' starts no field ({bad})", hint="write $$ for a dollar sign"
        ) from None


def kit_text(name: str, /, **fields: object) -> str:
    """The kit's template ``name`` (``ranking/intervals``), filled with ``fields``."""
    path = KIT_TEMPLATES / f"{name}.md"
    return filled(path.read_text(encoding="utf-8"), str(path), fields)


def csv_text(columns: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A CSV table of ``columns`` and ``rows`` (lines ending in \\n, as every CSV file the kit
    writes)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerows([columns, *rows])
    return out.getvalue()
