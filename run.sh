#!/usr/bin/env bash
# Quick start, part 1: install what is needed, build the default bundle, and print the scores of the
# three baselines (run by the build) on the evaluation phase, per track.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/venv.sh requirements.txt
python -m codajudge baselines --out dist "$@"
