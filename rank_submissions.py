#!/usr/bin/env python3
"""Official ranking of a phase's final submissions: python3 rank_submissions.py --help."""

import sys

from codajudge.programs.rank import main

if __name__ == "__main__":
    sys.exit(main())
