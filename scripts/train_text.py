#!/usr/bin/env python
"""`zoo train-text` (zoo/cli/train_text.py) as a script: causal-LM and masked-LM pre-training, classification.

    python scripts/train_text.py --help
"""
import sys

from zoo.cli.common import run
from zoo.cli.train_text import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(run(main))
