#!/usr/bin/env python3
"""Codabench ingestion program: ``python3 ingest.py INPUT_DATA OUTPUT SUBMISSION`` (see judgekit.programs.ingest).

In the bundle the engine ``judgekit`` sits beside this file; in the repository it is one folder up.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE if os.path.isdir(os.path.join(HERE, "judgekit")) else os.path.dirname(HERE))

from judgekit.programs.ingest import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
