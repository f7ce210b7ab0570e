"""Pages an edition must not ship: placeholders written by ``codajudge new``, and the default
edition's overview or terms under another edition's name (their text, data and licence are the sample
data's, the wrong ones for any other edition)."""

from collections.abc import Iterator
from pathlib import Path

from ..assets import kit_root
from ..errors import Problem

#: The first line of every page ``codajudge new`` writes; the organiser removes it with the text.
PLACEHOLDER_MARK = "<!-- codajudge: placeholder page, replace it with the edition's own text -->"
#: The ``title`` (``{name}``: the edition's) and ``description`` that ``codajudge new`` writes.
PLACEHOLDER_TEXTS = {
    "title": "{name}: a new shared task",
    "description": "One paragraph: what is predicted, from which data.",
}


def _normalised(text: str) -> str:
    return " ".join(text.split())


def page_problems(edition_name: str, folder: Path, files: list[str]) -> Iterator[Problem]:
    """One problem per page file (relative to ``folder``, each a regular file inside it) that is a
    placeholder or a default page."""
    defaults = {}  # the default edition's pages by normalised text (none in a kit without editions)
    for name in ("pages/overview.md", "pages/terms.md") if edition_name != "default" else ():
        path = kit_root() / "editions" / "default" / name
        if path.is_file():
            defaults[_normalised(path.read_text(encoding="utf-8", errors="replace"))] = name
    for path in (Path(folder) / name for name in files):
        text = _normalised(path.read_text(encoding="utf-8", errors="replace"))
        if PLACEHOLDER_MARK in text:
            message = "the page is still the placeholder 'codajudge new' wrote"
            hint = "write the edition's own text and delete the placeholder line"
            yield Problem(str(path), message, hint=hint)
        elif text in defaults:
            wrong = "its sample data, dates and licence"
            message = f"the page is the default edition's {defaults[text]} ({wrong})"
            hint = f"write edition '{edition_name}'s own page"
            yield Problem(str(path), message, hint=hint)


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
