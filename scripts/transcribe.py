#!/usr/bin/env python
"""`zoo transcribe` (zoo/cli/transcribe.py) as a script: openai-whisper's `whisper` command on zoo.transcribe.

    python scripts/transcribe.py talk.flac --model path/to/tiny.pt --language en --output_dir out
"""
import sys

from zoo.cli.common import run
from zoo.cli.transcribe import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(run(main))
