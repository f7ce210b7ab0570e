"""Pages an edition must not ship: placeholders written by ``codajudge new``, and the default
edition's overview or terms under another edition's name (their text, data and licence are the sample
data's, the wrong ones for any other edition); and a note on a page that is mostly another shipped
edition's (``reused_page_notes``)."""

from collections.abc import Iterator
from functools import cache
from pathlib import Path

from ..assets import kit_root
from ..errors import Problem, plural
from .config_yaml import load_config_yaml

#: The first line of every page ``codajudge new`` writes; the organiser removes it with the text.
PLACEHOLDER_MARK = "<!-- codajudge: placeholder page, replace it with the edition's own text -->"
#: The ``title`` (``{name}``: the edition's) and ``description`` that ``codajudge new`` writes.
PLACEHOLDER_TEXTS = {
    "title": "{name}: a new shared task",
    "description": "One paragraph: what is predicted, from which data.",
}


def _normalised(text: str) -> str:
    return " ".join(text.split())


def _lines(text: str) -> list[str]:
    """The non-blank lines of ``text``, white space folded."""
    return [line for line in map(_normalised, text.split("\n")) if line]


@cache
def _shipped_pages(root: Path) -> dict[tuple[str, str], set[str]]:
    """Each page of an edition under ``root``'s ``editions/`` (the edition's folder name, the page's
    ``pages/NAME.md``) -> its non-blank lines, each page read once."""
    return {
        (path.parent.parent.name, f"pages/{path.name}"): set(
            _lines(path.read_text(encoding="utf-8", errors="replace"))
        )
        for path in sorted(root.glob("editions/*/pages/*.md"))
    }


def page_problems(edition_name: str, folder: Path, files: list[str]) -> Iterator[Problem]:
    """One problem per page file (relative to ``folder``, each a regular file inside it) that is a
    placeholder, or still mostly a default page: more than half of its non-blank lines are lines of
    the default edition's overview or terms (an edited title does not make the page the edition's)."""
    defaults = {  # the default edition's page -> its lines (none in a kit without editions)
        page: lines
        for (edition, page), lines in _shipped_pages(kit_root()).items()
        if edition == "default" and edition_name != "default"
    }
    for path in (Path(folder) / name for name in files):
        text = path.read_text(encoding="utf-8", errors="replace")
        if PLACEHOLDER_MARK in _normalised(text):
            message = "the page is still the placeholder 'codajudge new' wrote"
            hint = "write the edition's own text and delete the placeholder line"
            yield Problem(str(path), message, hint=hint)
            continue
        lines = _lines(text)
        for name, default_lines in defaults.items():
            same = sum(line in default_lines for line in lines)
            if 2 * same > len(lines):
                yield Problem(
                    str(path),
                    f"the page is still mostly the default edition's {name} (its sample data, "
                    "dates and licence)",
                    expected="at most half of its non-blank lines the default page's",
                    found=f"{same} of its {len(lines)} non-blank lines",
                    hint=f"write edition '{edition_name}'s own page",
                )
                break


def _texts(config: Path) -> dict[str, str]:
    """The hand-written texts of an edition config (its ``title``, ``description`` and each
    phase's), by the key messages name, white space folded; empty ones left out."""
    raw = load_config_yaml(config)[1]
    texts = {"title": raw.get("title"), "description": raw.get("description")}
    texts |= {
        f"phases ({p['id']}) description": p.get("description") for p in raw.get("phases") or []
    }
    return {key: _normalised(str(text)) for key, text in texts.items() if text}


def _reused_text_notes(edition, others: list[str]) -> list[str]:
    """A note when hand-written texts of ``edition``'s config (``_texts``) are still word for word
    those of a shipped edition among ``others``: the one (or those) sharing the most of them. They
    ship in competition.yaml."""
    texts = _texts(Path(edition.config))
    same = {
        other: [key for key, text in texts.items() if shipped.get(key) == text]
        for other, shipped in ((o, _texts(kit_root() / "editions" / o)) for o in others)
    }
    most = max(map(len, same.values()), default=0)
    if not most:
        return []
    named = [other for other in others if len(same[other]) == most]
    editions = f"{plural(len(named), 'edition')} {', '.join(map(repr, named))}"
    return [
        f"{Path(edition.config).name}: {most} of its {len(texts)} hand-written texts "
        f"({', '.join(same[named[0]])}; competition.yaml shows them) are still word for word "
        f"those of {editions}: reusing an edition? make them describe this one"
    ]


def reused_page_notes(edition) -> list[str]:
    """A note per page of ``edition`` (its terms and pages) that is mostly (more than half of its
    non-blank lines) a page of a shipped edition of another name: an edition copied from one keeps
    its dates, limits and tracks; and then a note on the config's hand-written texts still a
    shipped edition's (``_reused_text_notes``): for an edition outside the kit's editions/ folder
    any shipped edition's of another name, its pages rewritten or not; for one inside it, the
    edition its pages were copied from (the shipped editions are not compared with each other).
    Not refused: a sibling edition may share text on purpose."""
    notes, copied_from = [], set()
    for name in [edition.terms, *(page["file"] for page in edition.pages)]:
        lines = _lines((edition.folder / name).read_text(encoding="utf-8", errors="replace"))
        shared = [
            (sum(line in shipped for line in lines), other, page)
            for (other, page), shipped in _shipped_pages(kit_root()).items()
            if other != edition.name
        ]
        same, other, page = max(shared, default=(0, "", ""))
        if 2 * same > len(lines):
            notes.append(
                f"{name} is mostly {page} of edition {other!r} ({same} of its {len(lines)} "
                "non-blank lines: its dates, limits and tracks): reusing an edition? make it "
                "describe this one"
            )
            copied_from.add(other)
    shipped = kit_root() / "editions"
    if Path(edition.folder).resolve().parent != shipped.resolve():
        copied_from = {p.parent.name for p in shipped.glob("*/edition.yaml")} - {edition.name}
    return notes + _reused_text_notes(edition, sorted(copied_from))


def text_problems(raw: dict) -> list[Problem]:
    """One problem per config key (``title``, ``description``) still holding the text
    ``codajudge new`` wrote there: it would ship in ``competition.yaml``."""
    return [
        Problem(
            key,
            f"'{key}' is still the placeholder 'codajudge new' wrote",
            found=repr(raw[key]),
            hint=f"write the edition's own {key}",
        )
        for key, placeholder in PLACEHOLDER_TEXTS.items()
        if _normalised(str(raw.get(key, ""))) == placeholder.format(name=raw.get("name"))
    ]
