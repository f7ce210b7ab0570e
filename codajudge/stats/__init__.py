"""Statistics over per-item metric statistics: bootstrap intervals, paired tests, ranks with ties.

Every metric exposes ``item_stats`` (per-item rows) and ``from_stats`` (score from column sums), so
one resampling code path serves every metric. Nothing here reads or writes files.
"""
