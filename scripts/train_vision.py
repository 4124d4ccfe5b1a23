#!/usr/bin/env python
"""`zoo train-vision` (zoo/cli/train_vision.py) as a script: train or fine-tune a ViT image classifier.

    python scripts/train_vision.py --help
"""
import sys

from zoo.cli.common import run
from zoo.cli.train_vision import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(run(main))
