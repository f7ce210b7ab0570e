"""The official ranking in Markdown (``ranking.md``) from the table model of ``stats.tables``: the
command that reproduces it, the overall table, each group's and each track's (``page_sections``, as
the HTML page walks them), then the runs kept,
the missing-track rule's runs, the scoring program's notes and the submissions not ranked. Every
name is escaped (``_md``)."""

import re

from . import tables

#: Characters CommonMark/GFM give a meaning to inside a line (emphasis, code, links, images, table
#: cells, strikethrough, headings, math, a block quote after a list item's "- "), each made literal
#: by a backslash: Markdown's own escaping, never HTML entities, which a reader of the file would
#: see as "&quot;". ("+ - ." only matter at the start of a line, where no value is ever written;
#: "( )" only after a link's "]", which is escaped, so that "(×100)" stays as written.)
MARKDOWN_ESCAPES = {ord(ch): "\\" + ch for ch in "\\`*_{}[]#!|~$>"}
#: "<" opening raw HTML or an autolink (a letter, "/" or "?" after it) and "&" opening an entity
#: ("&name;"; "&#" is cut by the escaped "#"), also made literal by a backslash; "<0.0001" and "a&b"
#: stay as written.
HTML_STARTS = re.compile(r"<(?=[A-Za-z/?])|&(?=[A-Za-z0-9]+;)")


def _md(text) -> str:
    """Text shown as itself in Markdown (and the HTML it may contain), on one line."""
    escaped = tables.one_line(text).translate(MARKDOWN_ESCAPES)
    return HTML_STARTS.sub(r"\\\g<0>", escaped)


def md_code(text) -> str:
    """An inline code span that holds ``text`` whatever backticks it contains."""
    text = tables.one_line(text)
    fence = "`" * (max(map(len, re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


STYLE = tables.Style(_md, "**{}**", "\\" + tables.MARK)


def markdown_table(table: tables.Table) -> list[str]:
    """A GFM table: a column's head with its metric's label after a colon; names and intervals
    aligned left, the rest right."""
    header = [c.page_head(_md, ": ") for c in table.columns]
    aligns = ["---" if c.left else "---:" for c in table.columns]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(aligns) + "|"]
    return lines + ["| " + " | ".join(cells) + " |" for cells in table.rows]


def render_markdown(report: tables.RankingReport) -> str:
    out = [tables.header_text(report, "ranking/markdown_header", _md, md_code)]
    for section in tables.page_sections(report, STYLE, f"`{tables.MARK}`"):
        out += ["", f"## {section.heading}", "", section.intro]
        out += [section.note] if section.note else []
        out += [""] + markdown_table(section.table) if section.table.rows else []
        out += ["", section.missing] if section.missing else []
    for heading, intro, items in tables.closing_lists(report, str):
        out += ["", f"## {heading}", ""] + ([intro, ""] if intro else [])
        out += [f"- {_md(item)}" for item in items]
    return "\n".join(out) + "\n"
