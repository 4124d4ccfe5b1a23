"""Where a subcommand writes: its output directory, checked before any work, so that a run never does all its
work and then fails to write it.

    out = output_dir(args.out, "--out", ["model.pt2", "export.json"])

The directory is zoo.io.output_folder's (created where missing, written into once). A path that is a file, sits
under a file or cannot be created or written into, or a directory standing where one of the run's files goes,
is a UsageError: one line naming the flag, what it got and what it needs.
"""
from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from zoo.cli.common import UsageError
from zoo.io import OutputFolderError, output_folder


def output_dir(path: str | os.PathLike[str], flag: str, names: Iterable[str] = ()) -> Path:
    """`path` as a directory that exists and takes new files; `names`: the files the run writes into it."""
    try:
        directory = output_folder(path)
    except OutputFolderError as error:
        raise UsageError(f"{flag} {error}") from None
    taken = [name for name in names if (directory / name).is_dir()]
    if taken:
        raise UsageError(f"{flag} {os.fspath(path)!r} has directories where the outputs go ({', '.join(taken)}): "
                         "expected files there, or nothing")
    return directory
