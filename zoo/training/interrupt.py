"""Ctrl-C and SIGTERM during training: finish the step, save a checkpoint, exit with 128 + the signal.

A user pressing Ctrl-C (SIGINT), or a scheduler ending the job (SLURM, Kubernetes and torchrun send SIGTERM
before SIGKILL), expects the steps done so far to be kept. For the length of `train`, `StopSignals` replaces
the handlers of both with one that only notes the signal. The loop reads it at the next step boundary, where
the ranks agree on it (`agreed_signal`, a MAX over ranks: a signal that reaches one rank stops every rank after
the same step), saves through the usual atomic checkpoint writer, and raises `TrainingInterrupted`: a
SystemExit whose code is 130 for SIGINT and 143 for SIGTERM, the status a shell gives a process ended by
that signal. Signals after the first are noted and ignored, so a second Ctrl-C while the checkpoint is
written cannot stop the save halfway; kill -9 still stops at once, losing the steps since the last checkpoint.

Handlers can only be set from the main thread: `train` called from another thread keeps the default ones.
"""
from __future__ import annotations

import os
import signal
import threading
from pathlib import Path
from typing import Any

import torch

from zoo.training.distributed import DistContext, max_over_ranks

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class TrainingInterrupted(SystemExit):
    """Training stopped by a signal after `step`, saved in `checkpoint`; exit status 128 + the signal."""

    def __init__(self, signum: int, step: int, checkpoint: Path) -> None:
        super().__init__(128 + signum)
        self.signum, self.step, self.checkpoint = signum, step, checkpoint

    def __str__(self) -> str:
        return (f"{signal.Signals(self.signum).name}: stopped after step {self.step}, checkpoint saved to "
                f"{str(self.checkpoint)!r}; rerun with --resume (resume=True) to continue exactly")


class StopSignals:
    """SIGINT and SIGTERM noted in `received` (the first one's number, 0 for none) while the block runs; the
    previous handlers come back at its end. `announce`: say on stderr what happens next (rank 0)."""

    def __init__(self, announce: bool = True) -> None:
        self.announce, self.received = announce, 0
        self.previous: dict[int, Any] = {}

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():
            for signum in SIGNALS:
                self.previous[signum] = signal.signal(signum, self.note)
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, handler in self.previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)

    def note(self, signum: int, frame: object) -> None:
        name = signal.Signals(signum).name
        if self.received:
            message = f"{name} again: still finishing the step and saving the checkpoint (kill -9 stops at once)"
        else:
            self.received = signum
            message = f"{name}: finishing this step, then saving a checkpoint and exiting"
        if self.announce:
            try:
                os.write(2, f"\n{message}\n".encode())  # unbuffered: safe whatever the interrupted code printed
            except OSError:  # no stderr: the stop itself must not fail
                pass


def agreed_signal(received: int, ctx: DistContext, device: torch.device) -> int:
    """The signal every rank stops for after this step (0: none): the largest any rank has received."""
    return int(max_over_ranks(float(received), ctx, device))
