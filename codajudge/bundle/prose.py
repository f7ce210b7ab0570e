"""The words of the generated pages, the starting kit's README and the legacy HTML pages: Markdown
templates in the package's ``templates/`` folder, whose ``$fields`` (``string.Template``) the
builder fills from the edition, its tracks, kinds and metrics. Python chooses which templates a page
uses and fills per-track or per-phase templates in a loop; the templates hold prose and fields only.

An edition folder's ``templates/NAME.md`` is used in place of the kit's template ``NAME.md`` (the
fields each template receives: docs/edition-config.md, "Page templates")."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from ..errors import ConfigError
from ..formats.textfile import utf8_text
from ..kinds import Kind
from ..texts import KIT_TEMPLATES, filled

#: An edition's own templates, relative to its folder.
EDITION_TEMPLATES = "templates"


class Templates(NamedTuple):
    """Where templates are looked up: the edition's own folder first, then the kit's."""

    folders: tuple[Path, ...] = (KIT_TEMPLATES,)

    @classmethod
    def of(cls, edition_folder: Path) -> Templates:
        """The templates of an edition whose folder is ``edition_folder``: its ``templates/``
        before the kit's."""
        return cls((Path(edition_folder) / EDITION_TEMPLATES, KIT_TEMPLATES))

    def path(self, name: str) -> Path | None:
        """The file of template ``name`` (``evaluation``, ``kinds/similarity_format``), None when
        neither the edition nor the kit has one."""
        candidates = (folder / f"{name}.md" for folder in self.folders)
        return next((path for path in candidates if path.is_file()), None)

    def has(self, name: str) -> bool:
        return self.path(name) is not None

    def fill(self, name: str, /, **fields: object) -> str:
        """Template ``name`` without its file's final line end, each ``$field`` replaced."""
        path = self.path(name)
        if path is None:
            raise ConfigError.single(
                f"{EDITION_TEMPLATES}/{name}.md",
                "no such template",
                expected=f"the file in the edition's {EDITION_TEMPLATES}/ folder or in the kit's "
                f"{KIT_TEMPLATES}",
            )
        return filled(utf8_text(path.read_bytes(), str(path)), str(path), fields)


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
