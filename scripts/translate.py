#!/usr/bin/env python
"""`zoo translate` (zoo/cli/translate.py) as a script: a Marian model's translations, one a line.

    python scripts/translate.py --model runs/marian/model --input data/corpus/parallel/test.en --output test.hyp
"""
import sys

from zoo.cli.common import run
from zoo.cli.translate import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(run(main))
