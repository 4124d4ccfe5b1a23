#!/usr/bin/env python
"""`zoo train-multimodal` (zoo/cli/train_multimodal.py) as a script: a LLaVA in two stages on shape scenes.

    python scripts/train_multimodal.py --help
"""
import sys

from zoo.cli.common import run
from zoo.cli.train_multimodal import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(run(main))
