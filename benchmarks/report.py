"""The benchmark's table (Markdown, as pasted in the README) and its targets."""

import os
import platform

LOOP_RATIO_MIN = 20.0
BOOTSTRAP_RATIO_MAX = 20.0
PEAK_MB_MAX = 1536.0  # 1.5 GB
THROUGHPUT_RATIO_MIN = 1 / 30
TOTAL_SECONDS_MAX = 600.0


def machine_line() -> str:
    import numpy
    import scipy

    return (
        f"{os.cpu_count()} cores, Python {platform.python_version()}, numpy {numpy.__version__}, "
        f"scipy {scipy.__version__}, {platform.system()} {platform.machine()}"
    )


def _num(value, digits: int = 2) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def _ratios(row: dict) -> str:
    parts = [f"{name} {value:.0f}x" for name, value in sorted(row.get("loop_ratios", {}).items())]
    return ", ".join(parts)


def render_table(rows: list[dict]) -> str:
    """One Markdown row per case: time, peak memory and the ratios that apply to it."""
    lines = [
        "| case | items | time (s) | peak (MB) | floor (s) | floor ratio | bootstrap / scoring once "
        "| loop ratio | notes |",
        "|---|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for row in rows:
        if "error" in row:
            lines.append(
                f"| {row['case']} | | | | | | | | FAILED: {row['error'].splitlines()[-1]} |"
            )
            continue
        if "skipped" in row:
            lines.append(f"| {row['case']} | | | | | | | | skipped: {row['skipped']} |")
            continue
        notes = row.get("detail", "")
        if "score_seconds" in row:
            notes = f"scoring once {row['score_seconds']:.2f} s; " + notes
        if "throughput_ratio" in row:
            notes += f" (ratio 1/{1 / row['throughput_ratio']:.1f})"
        lines.append(
            f"| {row['case']} | {row['items']:,} | {_num(row['seconds'])} | {row['peak_mb']:.0f} | "
            f"{_num(row.get('floor_seconds'))} | {_num(row.get('floor_ratio'))} | "
            f"{_num(row.get('bootstrap_ratio'), 1)} | {_ratios(row)} | {notes} |"
        )
    return "\n".join(lines)


def check_targets(rows: list[dict], total_seconds: float, complete: bool = True) -> list[str]:
    """Every missed target, as a sentence; empty when all are met."""
    misses = []
    for row in rows:
        misses.extend(_row_misses(row))
    if complete and total_seconds > TOTAL_SECONDS_MAX:
        misses.append(f"the whole benchmark took {total_seconds:.0f} s > {TOTAL_SECONDS_MAX:.0f} s")
    return misses


def _row_misses(row: dict) -> list[str]:
    """The missed targets of one benchmark case, as sentences."""
    misses = []
    name = row["case"]
    if "error" in row:
        return [f"{name} failed: {row['error'].splitlines()[-1]}"]
    if "skipped" in row:
        return []
    peak_max = row.get("peak_mb_max", PEAK_MB_MAX)
    if row["peak_mb"] >= peak_max:
        misses.append(f"{name}: peak memory {row['peak_mb']:.0f} MB >= {peak_max:.0f} MB")
    if row.get("seconds_max") is not None and row["seconds"] > row["seconds_max"]:
        misses.append(f"{name}: {row['seconds']:.1f} s > {row['seconds_max']:.0f} s")
    if row.get("floor_ratio_max") is not None and row["floor_ratio"] > row["floor_ratio_max"]:
        misses.append(f"{name}: floor ratio {row['floor_ratio']:.2f} > {row['floor_ratio_max']}")
    for metric, ratio in row.get("loop_ratios", {}).items():
        if ratio < LOOP_RATIO_MIN:
            misses.append(f"{name}: loop ratio of {metric} {ratio:.1f} < {LOOP_RATIO_MIN:.0f}")
    if row.get("bootstrap_ratio") is not None and row["bootstrap_ratio"] >= BOOTSTRAP_RATIO_MAX:
        misses.append(
            f"{name}: bootstrap takes {row['bootstrap_ratio']:.1f} x scoring once "
            f"(>= {BOOTSTRAP_RATIO_MAX:.0f})"
        )
    if row.get("throughput_ratio") is not None and row["throughput_ratio"] < THROUGHPUT_RATIO_MIN:
        misses.append(
            f"{name}: throughput 1/{1 / row['throughput_ratio']:.1f} of the floor (< 1/30)"
        )
    return misses
