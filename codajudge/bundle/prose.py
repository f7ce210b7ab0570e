"""The words of the generated pages, the starting kit's README and the legacy HTML pages: Markdown
templates in the package's ``templates/`` folder, whose ``$fields`` (``string.Template``) the
builder fills from the edition, its tracks, kinds and metrics. Python chooses which templates a page
uses and fills per-track or per-phase templates in a loop; the templates hold prose and fields only.

An edition folder's ``templates/NAME.md`` is used in place of the kit's template ``NAME.md`` (the
fields each template receives: docs/edition-config.md, "Page templates")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ..errors import Problem
from ..fields import closest, did_you_mean
from ..kinds import REGISTRY as KINDS
from ..kinds import Kind
from ..metrics.base import REGISTRY as METRICS
from ..texts import EDITION_TEMPLATES, KIT_TEMPLATES, Templates, utf8_text


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


def override_problems(folder: Path) -> Iterator[Problem]:
    """One problem per file under the edition's ``templates/`` that replaces no kit template (a
    misspelt name would leave the kit's text in use without a word), naming the closest one. A
    registered metric's ``metrics/NAME.md`` and a registered kind's ``kinds/KIND_PART.md`` are read
    when there is one, the kit's or not (docs/templates.md)."""
    own = Path(folder) / EDITION_TEMPLATES
    kit = [path.relative_to(KIT_TEMPLATES).as_posix() for path in KIT_TEMPLATES.rglob("*.md")]
    known = set(kit) | {f"metrics/{metric}.md" for metric in METRICS}
    for path in sorted(own.rglob("*")) if own.is_dir() else ():
        name = path.relative_to(own).as_posix()
        kind_part = name.endswith(".md") and name.startswith(tuple(f"kinds/{k}_" for k in KINDS))
        if path.is_file() and name not in known and not kind_part:
            yield Problem(
                str(path),
                "the file replaces no template of the kit: the kit's own text would be used",
                expected=f"{EDITION_TEMPLATES}/NAME.md, NAME a template of codajudge/templates "
                "(docs/templates.md)",
                hint=_meant_template(name, sorted(kit)) or "remove the file or correct its name",
            )


def _meant_template(name: str, kit: list[str]) -> str | None:
    """The hint naming the kit template ``name`` probably means: one of the same file name in
    another folder (``metric.md`` for ``evaluation/metric.md``), the closest of them; else the
    closest name of all (``did_you_mean``)."""
    base = name.rsplit("/", 1)[-1].lower()
    same = [known for known in kit if known.rsplit("/", 1)[-1].lower() == base]
    if not same:
        return did_you_mean(name, kit)
    meant = closest(name, same) or same[0]
    return f"did you mean '{meant}'? (the kit's template of that file name, in its folder)"
