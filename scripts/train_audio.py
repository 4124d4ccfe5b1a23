#!/usr/bin/env python
"""`zoo train-audio` (zoo/cli/train_audio.py) as a script: keyword spotting (zoo/training/keywords.py) or speech
recognition (zoo/training/speech_recognition.py) on the shared engine, under torchrun too.

    python scripts/train_audio.py --task keywords --out runs/keywords
    torchrun --nproc_per_node 2 scripts/train_audio.py --task asr --out runs/asr
"""
import sys

from zoo.cli.common import run
from zoo.cli.train_audio import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(run(main))
