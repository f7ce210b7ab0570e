"""Tiny inline-SVG charts for the detailed results page (scatter, heat map, grouped bar chart) and the
ranking page (intervals per system).

Output is a self-contained ``<svg>`` element (no scripts, fonts or external references); every
label is escaped. Sizes are in CSS pixels. Numbers are drawn with at most 4 significant decimals.
"""

from __future__ import annotations

import html
import math
import sys
from typing import NamedTuple
from collections.abc import Callable, Sequence

import numpy as np

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")
#: A scatter plot keeps at most this many points (an evenly spaced subset beyond it).
MAX_SCATTER_POINTS = 5000
_FONT = "font-family='sans-serif' font-size='11'"
#: A scatter plot's size in CSS pixels.
SCATTER_WIDTH, SCATTER_HEIGHT = 380, 320
#: A bar chart's height in CSS pixels (its width follows its categories).
BAR_CHART_HEIGHT = 280


#: A numeric axis: the values it shows, ``(lo, hi)`` (its title is drawn apart).
Axis = tuple[float, float]
#: A heat map's counts, rows top to bottom, each row's cells left to right.
Matrix = Sequence[Sequence[float]]
#: A bar chart's values: one sequence per series (its name in the legend), one value per category.
Series = dict[str, Sequence[float]]


class Box(NamedTuple):
    """A rectangle in CSS pixels: its top-left corner and its size. As a plot's area, it places
    values: ``x`` from its left edge (an axis's ``lo``) rightwards, ``y`` from its bottom edge up."""

    left: float
    top: float
    width: float
    height: float

    def x(self, value: float, axis: Axis) -> float:
        return self.left + _share(value, *axis) * self.width

    def y(self, value: float, axis: Axis) -> float:
        return self.top + self.height - _share(value, *axis) * self.height


class IntervalRow(NamedTuple):
    """One row of an interval chart: its label, its value, its interval ``(low, high)`` or None,
    and its group (a ranking's significance cluster, numbered from 0), which gives its colour."""

    label: str
    value: float
    interval: Sequence[float] | None
    group: int


#: Every label and title is text, escaped for an attribute or an element alike.
_e = html.escape


def _num(x: float) -> str:
    """A coordinate with two decimals (keeps the page small and deterministic)."""
    return f"{x:.2f}"


def _line(x1, y1, x2, y2, stroke: str, extra: str = "") -> str:
    """A line from (x1, y1) to (x2, y2), the coordinates as given."""
    return f"<line x1='{x1}' y1='{y1}' x2='{x2}' y2='{y2}' stroke='{stroke}'{extra}/>"


def _rect(box: Box, fill: str, extra: str = "", tooltip: str = "") -> str:
    """A rectangle over ``box``, its numbers as given; ``tooltip`` (HTML) its title, if any."""
    left, top, width, height = box
    start = f"<rect x='{left}' y='{top}' width='{width}' height='{height}' fill='{fill}'{extra}"
    return f"{start}><title>{tooltip}</title></rect>" if tooltip else f"{start}/>"


def nice_ticks(lo: float, hi: float) -> list[float]:
    """About 5 round tick values covering [lo, hi], finite with ``lo < hi`` (as every axis here:
    ``_padded_range``'s or from 0 to a positive top)."""
    raw = hi / 4 - lo / 4  # each divided first: hi - lo overflows near the largest float
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    ticks = []
    value = math.ceil(lo / step - 1e-9) * step
    while value <= hi + 1e-9 * step:
        ticks.append(round(value, 10))
        value += step
    return ticks


def _tick_label(value: float) -> str:
    return f"{value:.4g}"


def _text(x, y, label, anchor: str = "middle", extra: str = "") -> str:
    """``label`` (escaped) at ``x``, ``y`` as they print; ``extra`` attributes after the font's."""
    return f"<text x='{x}' y='{y}' text-anchor='{anchor}' {_FONT}{extra}>{_e(label)}</text>"


def _x_title(box: Box, label) -> str:
    """An x axis's title, centred below the plot's ``box``."""
    return _text(f"{box.left + box.width / 2:.0f}", box.top + box.height + 32, label)


def _svg(width: int, height: int, title: str, body: list[str]) -> str:
    size = f"width='{width}' height='{height}' viewBox='0 0 {width} {height}'"
    head = f"<svg {size} role='img' aria-label='{_e(title)}' class='plot'>"
    heading = _text(f"{width / 2:.0f}", 14, title, extra=" font-weight='bold'")
    return f"{head}<title>{_e(title)}</title>{heading}{''.join(body)}</svg>"


def scatter(x: Sequence[float], y: Sequence[float], x_label: str, y_label: str, title: str) -> str:
    """Points (x_i, y_i), finite (the readers refuse others), with axes and ticks; more than
    ``MAX_SCATTER_POINTS`` are thinned evenly."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.size > MAX_SCATTER_POINTS:
        step = int(math.ceil(x.size / MAX_SCATTER_POINTS))
        x, y = x[::step], y[::step]
        title = f"{title} (every {step}th point)"
    left, right, top, bottom = 48, 12, 24, 40
    box = Box(left, top, SCATTER_WIDTH - left - right, SCATTER_HEIGHT - top - bottom)
    x_axis, y_axis = _padded_range(x), _padded_range(y)
    body = [_rect(box, "none", " stroke='#999'")] + _x_ticks(box, x_axis, grid=False)
    body += _y_ticks(box, y_axis, grid=False) + [_x_title(box, x_label), _y_title(box, y_label)]
    points = "".join(
        f"<circle cx='{_num(box.x(a, x_axis))}' cy='{_num(box.y(b, y_axis))}' r='2.5'/>"
        for a, b in zip(x, y)
    )
    body.append(f"<g fill='{PALETTE[0]}' fill-opacity='0.55'>{points}</g>")
    return _svg(SCATTER_WIDTH, SCATTER_HEIGHT, title, body)


def _padded_range(values: np.ndarray) -> Axis:
    """The axis range of finite ``values`` (some: every chart drawing one has a point or a row):
    theirs, 4% wider on each side (1 wide if they are equal, wider where 0.5 is lost in rounding),
    within the finite floats. Computed on halves, which no difference of finite floats overflows."""
    lo, hi = float(values.min()), float(values.max())
    half_span = hi / 2 - lo / 2
    pad = half_span * 0.08 if half_span >= 5e-13 else max(0.5, abs(lo) * 1e-9)
    return max(lo - pad, -sys.float_info.max), min(hi + pad, sys.float_info.max)


def _share(value: float, lo: float, hi: float) -> float:
    """Where ``value`` lies between ``lo`` (0) and ``hi`` (1), ``hi > lo``; computed on halves, so
    that it is finite for any finite floats."""
    return (value / 2 - lo / 2) / (hi / 2 - lo / 2)


def _y_title(box: Box, label, x: int = 12, extra: str = "") -> str:
    """A y axis's title at ``x`` along the left edge, read bottom to top, centred on the plot's
    ``box``; ``extra`` attributes after the font's."""
    y = f"{box.top + box.height / 2:.0f}"
    return _text(x, y, label, extra=f"{extra} transform='rotate(-90 {x} {y})'")


def _y_ticks(box: Box, axis: Axis, grid: bool = True) -> list[str]:
    """The ticks and labels of a y axis along the plot's left edge: each a grid line across the
    plot, or (not ``grid``) a short mark left of it."""
    left = box.left
    start, end, colour = (left, left + box.width, "#eee") if grid else (left - 4, left, "#666")
    ys = [(box.y(t, axis), t) for t in nice_ticks(*axis)]
    return [
        _line(start, _num(y), end, _num(y), colour)
        + _text(left - (5 if grid else 6), _num(y + 4), _tick_label(t), "end")
        for y, t in ys
    ]


def _blue(share: float) -> str:
    """White to dark blue for a share in [0, 1] (a count over the largest count)."""
    white, dark_blue = (247, 251, 255), (8, 69, 148)
    return "#" + "".join(f"{int(round(w - share * (w - d))):02x}" for w, d in zip(white, dark_blue))


def heatmap(
    cells: Matrix, labels: Sequence[str], row_title: str, column_title: str, title: str
) -> str:
    """A square matrix of counts, ``labels`` along both sides: darker is larger.

    Rows run top to bottom, columns left to right; every count is printed in its cell.
    Cells are as wide as the longest label needs.
    """
    n = len(labels)
    longest = max([len(str(label)) for label in labels] + [1])
    cell_w = int(max(46, 7 * longest + 10))
    cell_h = 40
    left = 8 + 7 * max(longest, 4) + 22
    top = 58
    width = max(left + n * cell_w + 12, 8 * len(title) + 20)
    height = top + n * cell_h + 12
    top_value = max([v for row in cells for v in row] + [0]) or 1.0
    centres = [f"{left + j * cell_w + cell_w / 2:.0f}" for j in range(n)]
    body = []
    for i, row in enumerate(cells):
        y = top + i * cell_h
        middle = f"{y + cell_h / 2 + 4:.0f}"
        body.append(_text(left - 6, middle, labels[i], "end"))
        for j, value in enumerate(row):  # shaded by its share of the largest, its count printed
            share = value / top_value
            cell = Box(left + j * cell_w, y, cell_w, cell_h)
            body.append(_rect(cell, _blue(share), " stroke='#fff'"))
            ink = "#fff" if share > 0.55 else "#222"
            body.append(_text(centres[j], middle, _tick_label(value), extra=f" fill='{ink}'"))
    body += [_text(x, top - 6, label) for x, label in zip(centres, labels)]
    italic = " font-style='italic'"
    body.append(_text(f"{left + n * cell_w / 2:.0f}", top - 24, column_title, extra=italic))
    body.append(_y_title(Box(left, top, n * cell_w, n * cell_h), row_title, 10, italic))
    return _svg(width, height, title, body)


def bar_chart(
    categories: Sequence[str], series: Series, title: str, y_label: str, y_max: float | None = None
) -> str:
    """Grouped vertical bars: one group per category, one bar per series (with a legend); the
    value axis from 0 to ``y_max`` (by default the largest value)."""
    names = list(series)
    n_cat, n_series = len(categories), max(len(names), 1)
    group_w = max(18 * n_series + 10, 34)
    left, right, top, bottom = 52, 12, 40, 64
    width = max(300, left + right + max(n_cat, 1) * group_w)
    box = Box(left, top, width - left - right, BAR_CHART_HEIGHT - top - bottom)
    base = top + box.height
    values = [float(v) for name in names for v in series[name] if math.isfinite(float(v))]
    # to the largest value, or 1 when none is positive
    axis = (0.0, y_max or max(values + [0.0]) or 1.0)
    body = [_line(left, base, left + box.width, base, "#666"), _line(left, top, left, base, "#666")]
    body += _y_ticks(box, axis)
    slot = box.width / max(n_cat, 1)
    bar_w = max(min((slot - 8) / n_series, 24), 2)
    for c, category in enumerate(categories):
        x0 = left + c * slot + (slot - bar_w * n_series) / 2
        for s, name in enumerate(names):
            v = float(series[name][c])
            if math.isfinite(v):  # a bar a pixel narrower than its slot, from the base up
                y = box.y(min(max(v, 0.0), axis[1]), axis)
                bar = Box(*map(_num, (x0 + s * bar_w, y, bar_w - 1, base - y)))
                tooltip = f"{_e(name)} {_e(category)}: {_e(_tick_label(v))}"
                body.append(_rect(bar, PALETTE[s % len(PALETTE)], tooltip=tooltip))
        cx, cy = f"{left + c * slot + slot / 2:.0f}", base + 12
        body.append(_text(cx, cy, category, "end", f" transform='rotate(-35 {cx} {cy})'"))
    body.extend(
        _rect(Box(left + s * 120, top - 16, 10, 10), PALETTE[s % len(PALETTE)])
        + _text(left + s * 120 + 14, top - 7, name, "start")
        for s, name in enumerate(names)
    )
    return _svg(width, BAR_CHART_HEIGHT, title, body + [_y_title(box, y_label)])


def interval_chart(rows: Sequence[IntervalRow], title: str, x_label: str, shown=None) -> str:
    """One row per ``IntervalRow``, top to bottom: a dot at its value and a bar over its interval,
    coloured by its group, so that the groups and the overlaps of the intervals show at a glance.
    Values are drawn as given; each row's tooltip writes them with ``shown`` (default: as the
    axis's ticks), so that a page can write them as its tables do."""
    row_h, top, bottom, right = 18, 24, 40, 16
    left = 12 + 7 * max([len(_short(row.label)) for row in rows] + [4])
    width = max(left + 320 + right, 8 * len(title) + 20)
    height = top + max(len(rows), 1) * row_h + bottom
    box = Box(left, top, width - left - right, height - top - bottom)
    ends = [float(v) for row in rows if row.interval is not None for v in row.interval]
    axis = _padded_range(np.asarray([float(row.value) for row in rows] + ends, dtype=float))
    body = [_rect(box, "none", " stroke='#999'")] + _x_ticks(box, axis)
    shown = shown or _tick_label
    body += [
        _interval_row(top + (k + 0.5) * row_h, box, axis, row, shown) for k, row in enumerate(rows)
    ]
    return _svg(width, height, title, body + [_x_title(box, x_label)])


def _x_ticks(box: Box, axis: Axis, grid: bool = True) -> list[str]:
    """The ticks and labels of an x axis along the plot's bottom edge: each a grid line across the
    plot, or (not ``grid``) a short mark below it."""
    bottom = box.top + box.height
    start, end, colour = (box.top, bottom, "#eee") if grid else (bottom, bottom + 4, "#666")
    xs = [(_num(box.x(t, axis)), t) for t in nice_ticks(*axis)]
    return [_line(x, start, x, end, colour) + _text(x, bottom + 15, _tick_label(t)) for x, t in xs]


#: A row label longer than this is cut (with an ellipsis) on the chart; its tooltip holds all of it.
MAX_LABEL = 40


def _short(label: str) -> str:
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"


def _interval_row(y: float, box: Box, axis: Axis, row: IntervalRow, shown: Callable) -> str:
    """One system at height ``y``: its label left of ``box``, its interval as a bar and its value
    as a dot; its tooltip writes the values with ``shown``."""
    colour = PALETTE[row.group % len(PALETTE)]
    tip = f"{_e(row.label)}: {_e(shown(float(row.value)))}"
    parts = [_text(box.left - 6, _num(y + 4), _short(row.label), "end")]
    if row.interval is not None:
        low, high = float(row.interval[0]), float(row.interval[1])
        tip += f" [{_e(shown(low))}, {_e(shown(high))}]"
        x1, x2 = _num(box.x(low, axis)), _num(box.x(high, axis))
        parts.append(_line(x1, _num(y), x2, _num(y), colour, " stroke-width='3'"))
    centre = _num(box.x(float(row.value), axis))
    dot = f"<circle cx='{centre}' cy='{_num(y)}' r='4' fill='{colour}'>"
    return "".join(parts) + f"{dot}<title>{tip}</title></circle>"
