#!/usr/bin/env python
"""`zoo search` (zoo/cli/search.py) as a script: semantic search with a sentence-embedding model.

    python scripts/search.py --help
"""
import sys

from zoo.cli.common import run
from zoo.cli.search import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(run(main))
