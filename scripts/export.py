#!/usr/bin/env python
"""`zoo export` (zoo/cli/export.py) as a script: torch.export and ONNX with dynamic axes, checked against eager.

    python scripts/export.py --model gpt_tiny --out runs/export/gpt_tiny
"""
import sys

from zoo.cli.common import run
from zoo.cli.export import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(run(main))
