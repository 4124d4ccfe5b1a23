"""A benchmark side in a spawned process of its own: built there once, then called, each call timed there.

    with Worker(partial(ct2_generator, directory)) as ct2:     # factory(threads) -> the side, built at the first call
        tokens, seconds = ct2.timed(ct2_generate, ids, 8)      # ct2_generate(side, ids, 8) in the worker
        generate = ct2.bind(ct2_generate, ids, 8)              # a Remote: generate() -> tokens; interleaved
        times = interleaved({"ct2": generate, ...}, 1, 5)      #   (bench.timing) times it in the worker

Why: CTranslate2 (and faster-whisper, which runs it) slows torch down in the process it has run in. It bundles a
second OpenMP runtime; after its first call each of torch's parallel regions there costs ~50 us more for the
rest of the process (a 64 x 576 add went from 4 to 53 us), which halved our decoding speed in the sides timed
after it (Whisper greedy decoding 84 -> 46 tokens/s); a long-file transcription ran 1.2-1.3x slower after one of
faster-whisper's. A user runs one library in a process, so every CTranslate2 side runs in a worker, and the
translation and long-file Whisper sections put every side in one.

A call's seconds are measured in the worker around fn(side, *args) alone, as bench.timing times a side in its
own process: the pickling of arguments and results between the processes is not in them, so ratios against
in-process sides stay fair. Factories, fns, arguments and results cross by pickle: module-level functions,
functools.partial of them, tensors, arrays, dataclasses.
"""
from __future__ import annotations

import functools
import multiprocessing
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

import torch

Factory = Callable[[int], Any]  # threads -> the side (a model, a pipeline, a function)

_side: list = []  # in a worker process: its side, once its first call has built it


def _run(factory: Factory, threads: int, fn: Callable, args: tuple) -> tuple[Any, float]:
    """In the worker: the side (built at the first call, after torch's threads are set), then fn(side, *args)
    timed alone."""
    if not _side:
        torch.set_num_threads(threads)
        _side.append(factory(threads))
    start = time.perf_counter()
    out = fn(_side[0], *args)
    return out, time.perf_counter() - start


def call(side: Callable, *args) -> Any:
    """The fn for a side that is itself the function: side(*args)."""
    return side(*args)


def _nothing(side: Any) -> None:
    return None


class Worker:
    """One side in a spawned process, kept until close (or the end of a `with`). factory(threads) builds it
    there at the first call, with torch's threads set to `threads` (default: this process's); a CTranslate2
    factory gives its runtime the same number."""

    def __init__(self, factory: Factory, threads: int | None = None):
        self.factory, self.threads = factory, threads or torch.get_num_threads()
        self.pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))

    def timed(self, fn: Callable, *args) -> tuple[Any, float]:
        """(fn(side, *args), its seconds measured in the worker); what fn or the factory raises is raised here."""
        return self.pool.submit(_run, self.factory, self.threads, fn, args).result()

    def call(self, fn: Callable, *args) -> Any:
        """fn(side, *args) in the worker, untimed: checks, calibration."""
        return self.timed(fn, *args)[0]

    def bind(self, fn: Callable, *args) -> Remote:
        return Remote(self, fn, args)

    def start(self) -> Worker:
        """Build the side now (raises what the factory raises), not at the first timed call."""
        self.call(_nothing)
        return self

    def close(self) -> None:
        self.pool.shutdown()

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@dataclass(frozen=True)
class Remote:
    """fn(side, *args) in `worker`, as a function of the arguments still to come: remote(*more) gives its
    output, remote.timed(*more) the output and the seconds measured in the worker."""
    worker: Worker
    fn: Callable
    args: tuple = ()

    def __call__(self, *more) -> Any:
        return self.timed(*more)[0]

    def timed(self, *more) -> tuple[Any, float]:
        return self.worker.timed(self.fn, *self.args, *more)

    def bind(self, *more) -> Remote:
        return replace(self, args=(*self.args, *more))


def bind(fn: Callable, *args) -> Callable:
    """fn with args bound: a Remote stays one (timed in its worker), any other fn becomes a functools.partial."""
    return fn.bind(*args) if isinstance(fn, Remote) else functools.partial(fn, *args)
