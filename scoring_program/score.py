#!/usr/bin/env python3
"""Codabench scoring program: ``python3 score.py INPUT OUTPUT`` (see judgekit.programs.score).

Reads INPUT/ref (gold and task.json) and INPUT/res (the submission or the prediction step's output);
writes OUTPUT/scores.json, OUTPUT/scores.txt and OUTPUT/detailed_results.html, or on any problem a
clear message on stderr, a non-zero exit and no scores.json.

In the bundle the engine ``judgekit`` sits beside this file; in the repository it is one folder up.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE if os.path.isdir(os.path.join(HERE, "judgekit")) else os.path.dirname(HERE))

from judgekit.programs.score import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
