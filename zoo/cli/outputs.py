"""Where a subcommand writes: its output directory, checked before any work, so that a run never does all its
work and then fails to write it.

    out = output_dir(args.out, "--out", ["model.pt2", "export.json"])

The directory is created if it is not there and a file is created and removed in it. A path that is a file,
sits under a file or cannot be created or written into, or a directory standing where one of the run's files
goes, is a UsageError: one line naming the flag, what it got and what it needs.
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from zoo.cli.common import UsageError


def output_dir(path: str | os.PathLike[str], flag: str, names: Iterable[str] = ()) -> Path:
    """`path` as a directory that exists and takes new files; `names`: the files the run writes into it."""
    directory = Path(path)
    given = f"{flag} {os.fspath(path)!r}"
    if directory.exists() and not directory.is_dir():
        raise UsageError(f"{given} is a file: expected a directory to write into (an existing one or a new path)")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as error:
        raise UsageError(f"{given} cannot be written into ({error.strerror or error}): expected a directory "
                         "that can be created and written to") from None
    taken = [name for name in names if (directory / name).is_dir()]
    if taken:
        raise UsageError(f"{given} has directories where the outputs go ({', '.join(taken)}): expected files "
                         "there, or nothing")
    return directory
