"""Text the kit writes from its own parts: Markdown templates whose ``$fields`` are filled by
``string.Template`` (one reader, ``Templates``, for the builder's pages and messages, which looks in
an edition's own templates first, and for the ranking tool's outputs, ``kit_text``, the kit's
templates alone), and CSV tables; ``utf8_text``, the one UTF-8 refusal of every file the kit reads."""

from __future__ import annotations

import codecs
import csv
import io
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from .errors import ConfigError, KitError

#: The kit's templates, shipped in the package (package data of the wheel).
KIT_TEMPLATES = Path(__file__).resolve().parent / "templates"

#: Each lone surrogate as text: a byte of a name that is not UTF-8 (which Python reads as U+DC80 to
#: U+DCFF) as its value, ``\xe9``, any other as ``\ud800``: characters every output and every TeX
#: engine accepts (U+FFFD is not one).
SURROGATES_AS_TEXT = {code: f"\\u{code:04x}" for code in range(0xD800, 0xE000)}
SURROGATES_AS_TEXT.update({0xDC00 + byte: f"\\x{byte:02x}" for byte in range(0x80, 0x100)})


#: The byte-order marks of Unicode's other encodings, UTF-32's first (UTF-16LE's opens UTF-32LE's).
OTHER_BOMS = {
    codecs.BOM_UTF32_LE: "UTF-32",
    codecs.BOM_UTF32_BE: "UTF-32",
    codecs.BOM_UTF16_LE: "UTF-16",
    codecs.BOM_UTF16_BE: "UTF-16",
}


def other_bom(head: bytes) -> tuple[str, str] | None:
    """(encoding, what a refusal found) of a file whose first bytes ``head`` are the byte-order
    mark of UTF-16 or UTF-32 (``a UTF-16 byte-order mark (FF FE)``), else None."""
    for bom, encoding in OTHER_BOMS.items():
        if head.startswith(bom):
            return encoding, f"a {encoding} byte-order mark ({bom.hex(' ').upper()})"
    return None


def utf8_text(
    data: bytes, display: str, refusal: type[KitError] = ConfigError, line: int = 1, offset: int = 0
) -> str:
    """``data``, the bytes of the file ``display`` from byte ``offset`` (on its line ``line``), as
    text, the UTF-8 BOM that opens a file dropped; else ``refusal`` (ConfigError for the organisers'
    files, SubmissionError for a participant's) naming the line and offset of the first byte that
    is not UTF-8, or the byte-order mark of another encoding that opens the file."""
    start = len(codecs.BOM_UTF8) if offset == 0 and data.startswith(codecs.BOM_UTF8) else 0
    try:
        return str(memoryview(data)[start:], "utf-8")
    except UnicodeDecodeError as e:
        at = start + e.start
        bom = other_bom(data) if offset == 0 else None
        raise refusal.single(
            display,
            "file is not UTF-8 text",
            line=line + data.count(b"\n", 0, at),
            expected="UTF-8",
            found=bom[1] if bom else f"byte 0x{data[at]:02x} at offset {offset + at}",
            hint="save the file as UTF-8 (Latin-1 and other encodings are refused)",
        ) from None


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
        """Template ``name`` without its file's final line end, each ``$field`` replaced; a
        ConfigError naming its file for an unknown field or a lone ``$``."""
        import string  # here: the scoring program writes CSV through this module, fills no template

        path = self.path(name)
        if path is None:  # the kit's own folder too: an edition's template or a broken install
            folders = " or ".join(str(folder) for folder in self.folders)
            raise ConfigError.single(
                f"{EDITION_TEMPLATES}/{name}.md",
                "no such template",
                expected=f"the file in {folders}",
            )
        text = utf8_text(path.read_bytes(), str(path))
        # line ends as Python's text files read them: a template saved on Windows fills alike
        text = text.replace("\r\n", "\n").replace("\r", "\n").removesuffix("\n")
        try:
            return string.Template(text).substitute(fields)
        except KeyError as unknown:
            from .fields import did_you_mean  # here: only a refusal needs it

            listed = ", ".join(f"${f}" for f in fields)
            found = f"${unknown.args[0]}"
            raise ConfigError.single(
                str(path),
                "the template names a field it does not receive",
                expected=f"one of its {len(fields)} fields: {listed}"
                if fields
                else "no field: it takes none",
                found=found,
                hint=did_you_mean(found, [f"${f}" for f in fields])
                or "write $$ for a literal dollar sign",
            ) from None
        except ValueError as bad:
            raise ConfigError.single(
                str(path), f"a '$' starts no field ({bad})", hint="write $$ for a dollar sign"
            ) from None


def kit_text(name: str, /, **fields: object) -> str:
    """The kit's template ``name`` (``ranking/intervals``), filled with ``fields``."""
    return Templates((KIT_TEMPLATES,)).fill(name, **fields)


def csv_text(columns: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A CSV table of ``columns`` and ``rows`` (lines ending in \\n, as every CSV file the kit
    writes)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerows([columns, *rows])
    return out.getvalue()
