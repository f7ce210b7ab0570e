"""The words of the generated pages, the starting kit's README and the legacy HTML pages: Markdown
templates in the package's ``templates/`` folder, whose ``$fields`` (``string.Template``) the
builder fills from the edition, its tracks, kinds and metrics. Python chooses which templates a page
uses and fills per-track or per-phase templates in a loop; the templates hold prose and fields only.

An edition folder's ``templates/NAME.md`` is used in place of the kit's template ``NAME.md`` (the
fields each template receives: docs/edition-config.md, "Page templates")."""

from __future__ import annotations

from pathlib import Path

from ..kinds import Kind
from ..texts import Templates, utf8_text


def listed(names: list[str]) -> str:
    """``a, b and c``."""
    return "".join(names) if len(names) < 2 else f"{', '.join(names[:-1])} and {names[-1]}"


def kind_text(templates: Templates, kind: Kind, part: str, **fields: object) -> str:
    """A kind's own text, template ``kinds/KIND_PART``, filled with ``fields`` and the kind's
    ``page_fields``."""
    return templates.fill(f"kinds/{kind.name}_{part}", **kind.page_fields, **fields)


def own_page_text(folder: Path, source: str) -> str:
    """The text of an edition's own page ``source`` (relative to the edition's ``folder``), refused
    unless UTF-8; its line ends kept as written."""
    path = folder / source
    return utf8_text(path.read_bytes(), str(path))
