#!/usr/bin/env bash
# Quick start, part 2: install what the tests need and run them (extra arguments go to pytest).
set -euo pipefail
cd "$(dirname "$0")"
source scripts/venv.sh requirements-dev.txt
python -m pytest -q -n auto --dist loadgroup --durations=10 "$@"
