#!/usr/bin/env python
"""`zoo train-translation` (zoo/cli/train_translation.py) as a script: the 2017 Transformer on a parallel corpus.

    python scripts/train_translation.py --help
"""
import sys

from zoo.cli.common import run
from zoo.cli.train_translation import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(run(main))
