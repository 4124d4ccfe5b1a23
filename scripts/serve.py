#!/usr/bin/env python
"""`zoo serve` (zoo/cli/serve.py) as a script: an OpenAI-compatible HTTP server for the zoo's models.

    python scripts/serve.py --model runs/demo/text/model --port 8000
"""
import sys

from zoo.cli.common import run
from zoo.cli.serve import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(run(main))
