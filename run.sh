#!/usr/bin/env bash
# Quick start, part 1: install what is needed, build the default bundle, and run the three baselines
# through the local runner on the evaluation phase, printing their scores per track.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/venv.sh requirements.txt
python -m codajudge baselines --out dist "$@"
