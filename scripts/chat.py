#!/usr/bin/env python
"""`zoo chat` (zoo/cli/chat.py) as a script: ask a trained LLaVA about an image, streaming its answer.

    python scripts/chat.py scene:test:3 "how many shapes are there?" --model runs/vl2/model
"""
import sys

from zoo.cli.chat import main
from zoo.cli.common import run

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(run(main))
