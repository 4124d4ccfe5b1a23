#!/usr/bin/env python
"""`zoo generate` (zoo/cli/generate.py) as a script: text from a decoder, its tokens per second on stderr.

    python scripts/generate.py --model runs/demo/text/model --prompt "And God said" --max-new-tokens 60 --stream
"""
import sys

from zoo.cli.common import run
from zoo.cli.generate import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(run(main))
