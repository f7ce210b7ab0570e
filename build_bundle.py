#!/usr/bin/env python3
"""Build a Codabench bundle from an edition: python3 build_bundle.py --help."""

import sys

from codajudge.programs.build import main

if __name__ == "__main__":
    sys.exit(main())
