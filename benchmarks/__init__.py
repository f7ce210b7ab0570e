"""Performance benchmark of the kit (``python3 benchmarks/run.py``); see ``run.py``."""
