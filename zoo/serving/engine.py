"""Continuous batching (Yu et al. 2022, Orca's iteration-level scheduling; as vLLM, TGI and llama.cpp's server
run it): concurrent generation requests share one model's decoding steps. A request joins the running batch
at the next step and leaves when it is done; no request waits for another to finish.

    engine = Engine(model, slots=8, prefill_chunk=256, max_queue=32)
    engine.start()                                    # the scheduler loop, on its own thread
    handle = engine.submit(prompt_ids, RequestOptions(max_new_tokens=64, temperature=0.0))
    for event in handle: ...                          # TokenEvent ... Finished (zoo.serving.requests)
    engine.shutdown(timeout=30)                       # refuse new requests, finish the others, stop

Rows. The engine owns one KV cache of `slots` rows of `max_len` positions (model.make_cache), allocated once.
A request holds one row per choice (n), taken from the free rows (the lowest first, so the busy rows stay at
the top of the cache) when it is admitted and given back the step it finishes, is cancelled or fails.

Positions. Each row holds its own sequence from cache position 0: no left padding, so a token's cache
slot is its position (learned positions and RoPE alike), as when the request runs alone.

Steps. Each iteration of the scheduler (`step`) retires cancelled requests, admits waiting ones while rows
are free, runs ONE prefill chunk (at most `prefill_chunk` prompt tokens of the oldest request still
prefilling: on its first row alone, through the ordinary cached forward with bottom-right causality), and
then ONE decoding step for every row that has a token to feed. So a newcomer's long prompt holds the others
back by at most one chunk per token. A prompt is prefilled once; its other choices copy its cache row.

The decoding step feeds a (rows, 1) batch: each row's last token at its own cache slot (input_pos and
positions a (rows, 1) tensor; KVCache.update writes each row at its own slot) over the cache's first L
positions, L one past the longest row, with a (rows, 1, 1, L) mask letting each row see its own slots
0..length only. (When every row of the step holds as many tokens, one client's steps, it is zoo.generate's
call: an int input_pos, no mask, so the attention kernels that take no mask serve it.) The batch spans rows
0..the highest decoding row; rows in between that are free or still prefilling feed a dummy token at their
next unwritten slot, which their next write overwrites before anything reads it (their output is dropped).

Sampling is per request: its own processors (temperature, top-k, top-p: zoo.generation.sampling) and its own
torch.Generator, so a seeded request draws the same tokens whatever runs beside it; greedy rows take the
argmax as zoo.generate does. The model is called as zoo.generate calls it, so packed (zoo.pack_for_inference),
bf16 and int8 (zoo.quantize) models run the batched step unchanged; with compile=True the step runs through
torch.compile over every row and the whole cache (fixed shapes).

Failures stay with their request: an exception while prefilling or sampling a request (its stop_check, say)
finishes that request with reason "error" and frees its rows; one inside the shared decoding forward finishes
the requests of that step. The loop goes on either way.

Other families would join at the prefill: a LLaVA request prefills on its prompt with the images spliced in
(its decoding steps are text steps); an encoder-decoder needs a cross-attention cache row per request.

Legend: R rows in a step (the batch), L cache positions a step reads, V vocabulary.
"""
from __future__ import annotations

import bisect
import itertools
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import torch
from torch import nn

from zoo.generation.compiled import compiled_step
from zoo.generation.sampling import choose
from zoo.serving.requests import (
    EngineClosed,
    Finished,
    InvalidRequest,
    QueueFull,
    RequestHandle,
    RequestOptions,
    TokenEvent,
    prompt_ids,
)

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class StepEvent:
    """What one scheduler step ran, for an observer (tests, logs, metrics): kind "prefill" (`tokens` prompt
    tokens of request `requests[0]`, from prompt position `start`) or "decode" (one token for each of `tokens`
    rows, of the requests `requests`)."""
    kind: str
    requests: tuple[int, ...]
    tokens: int
    start: int = 0


@dataclass
class _Row:
    """One choice of an admitted request, on cache row `slot`."""
    slot: int
    index: int
    tokens: list[int] = field(default_factory=list)
    done: bool = False


@dataclass
class _Running:
    """An admitted request: its rows, how much of its prompt is in the cache, its sampling state."""
    handle: RequestHandle
    prompt: torch.Tensor  # (1, T)
    rows: list[_Row]
    generator: torch.Generator
    prefilled: int = 0

    @property
    def decoding(self) -> bool:
        return self.prefilled == self.prompt.shape[1]

    @property
    def live(self) -> list[_Row]:
        return [row for row in self.rows if not row.done]


class Engine:
    """Continuous batching on one decoder-only model (see the module docstring).

    slots: cache rows (the most choices decoding at once); max_len: positions per row (prompt + new tokens;
    default and at most the model's); prefill_chunk: the most prompt tokens one step prefills; max_queue: the
    most requests waiting for rows before submit raises QueueFull (whose retry_after is `retry_after` s);
    observer: called with a StepEvent after each prefill chunk and decoding step, on the scheduler's thread;
    compile: the decoding steps run through torch.compile (zoo.generation.compiled) over every row and the
    whole cache, one fixed shape for all steps (the first compiles); prefill chunks stay eager.
    The engine puts the model in eval mode.
    """

    def __init__(self, model: nn.Module, *, slots: int = 8, max_len: int | None = None, prefill_chunk: int = 256,
                 max_queue: int = 64, retry_after: float = 1.0, observer: Callable[[StepEvent], None] | None = None,
                 compile: bool = False):
        for name, value in (("slots", slots), ("prefill_chunk", prefill_chunk), ("max_queue", max_queue)):
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name}={value!r}; expected an int >= 1")
        if hasattr(model, "bind_source") or hasattr(model, "bind_images") or not hasattr(model, "make_cache"):
            raise ValueError(f"the engine serves decoder-only text models (GPT, LLaMA); got {type(model).__name__}, "
                             "which is not one (encoder-decoders and LLaVA are not served yet)")
        self.model = model.eval()
        self.context = min(max_len or model.max_positions, model.max_positions)
        self.slots, self.prefill_chunk, self.max_queue = slots, prefill_chunk, max_queue
        self.retry_after, self.observer = retry_after, observer
        self.device = next(model.parameters()).device
        self.cache = model.make_cache(slots, self.context)
        self.compiled = compiled_step(model) if compile else None
        self.lengths = [0] * slots  # tokens in each row's cache
        self._free = list(range(slots))  # sorted
        self._waiting: deque[RequestHandle] = deque()
        self._running: list[_Running] = []  # in admission order
        self._ids = itertools.count()
        self._lock = threading.Condition()
        self._closing = self._stopping = False
        self._thread: threading.Thread | None = None

    # The clients' side: any thread.
    def submit(self, prompt, options: RequestOptions | None = None, **fields) -> RequestHandle:
        """Queue a request: prompt token ids (a list or a 1-D tensor) and RequestOptions (or its fields as
        keywords) -> its RequestHandle. Raises InvalidRequest (naming the field), QueueFull, EngineClosed."""
        if options is not None and fields:
            raise TypeError("pass RequestOptions or its fields as keywords, not both")
        options = options or RequestOptions(**fields)
        ids = prompt_ids(prompt, self.model.vocab_size)
        self._check(ids, options)
        with self._lock:
            if self._closing:
                raise EngineClosed("the engine is shutting down and takes no new request")
            if self._queued() >= self.max_queue:
                raise QueueFull(f"{self.max_queue} requests are waiting for rows already (the queue bound); retry "
                                f"in {self.retry_after:g} s", self.retry_after)
            handle = RequestHandle(next(self._ids), ids, options, self._wake)
            self._waiting.append(handle)
            self._lock.notify_all()
        return handle

    def _check(self, ids: tuple[int, ...], options: RequestOptions) -> None:
        total = len(ids) + options.max_new_tokens
        if total > self.context:
            raise InvalidRequest(f"prompt ({len(ids)} tokens) + max_new_tokens ({options.max_new_tokens}) = {total} "
                                 f"tokens exceeds the model's context of {self.context} tokens", "max_new_tokens",
                                 "context_length_exceeded")
        if options.n > self.slots:
            raise InvalidRequest(f"n={options.n} exceeds the engine's {self.slots} rows", "n")
        vocab = self.model.vocab_size
        for name, held in (("stop_ids", options.stop_ids), ("stop_sequences", sum(options.stop_sequences, ()))):
            outside = [i for i in held if i >= vocab]
            if outside:
                raise InvalidRequest(f"{name} holds token id {outside[0]}, outside the model's vocabulary; expected "
                                     f"ids in [0, {vocab})", name)

    def _queued(self) -> int:
        """How many submitted requests wait for rows: those the free rows cannot take at the next step (they go
        to the waiting requests in order). A burst that the free rows can take is not queued."""
        free = len(self._free)
        for i, handle in enumerate(self._waiting):
            if handle.options.n > free:
                return len(self._waiting) - i
            free -= handle.options.n
        return 0

    def _wake(self) -> None:
        with self._lock:
            self._lock.notify_all()

    @property
    def stats(self) -> dict[str, int]:
        """Rows in use and free, requests running and waiting (a /health endpoint's numbers)."""
        with self._lock:
            return {"slots": self.slots, "rows_in_use": self.slots - len(self._free), "rows_free": len(self._free),
                    "running": len(self._running), "waiting": len(self._waiting)}

    # The scheduler's side: one thread (start) or the caller's (step).
    @torch.inference_mode()
    def step(self) -> bool:
        """One scheduler iteration: retire cancelled requests, admit waiting ones, one prefill chunk, one
        decoding step. -> whether requests remain (running or waiting)."""
        self._retire_cancelled()
        self._admit()
        prefilling = next((r for r in self._running if not r.decoding), None)
        if prefilling is not None:
            self._prefill_chunk(prefilling)
        if any(r.decoding for r in self._running):
            self._decode()
        with self._lock:
            return bool(self._running or self._waiting)

    def _retire_cancelled(self) -> None:
        with self._lock:
            dropped = [h for h in self._waiting if h.cancelled]
            for handle in dropped:
                self._waiting.remove(handle)
        for handle in dropped:
            for index in range(handle.options.n):
                handle.put(Finished(index, "cancelled"))
            handle.end()
        for running in [r for r in self._running if r.handle.cancelled]:
            for row in running.live:
                self._finish(running, row, "cancelled")

    def _admit(self) -> None:
        with self._lock:
            while self._waiting and self._waiting[0].options.n <= len(self._free):
                handle = self._waiting.popleft()
                slots, self._free = self._free[:handle.options.n], self._free[handle.options.n:]
                generator = torch.Generator(self.device)
                if handle.options.seed is None:
                    generator.seed()
                else:
                    generator.manual_seed(handle.options.seed)
                prompt = torch.tensor([handle.prompt], dtype=torch.long, device=self.device)
                rows = [_Row(slot, index) for index, slot in enumerate(slots)]
                self._running.append(_Running(handle, prompt, rows, generator))

    def _prefill_chunk(self, running: _Running) -> None:
        """The next chunk of a prompt into its first row; after the last, the other rows copy that row and
        every choice samples its first token."""
        start = running.prefilled
        chunk = running.prompt[:, start:start + self.prefill_chunk]  # (1, n)
        first = running.rows[0].slot
        try:
            logits = self.model(chunk, input_pos=start, cache=self.cache.view(slice(first, first + 1)),
                                logits_to_keep=1)[:, -1]  # (1, V)
        except Exception as error:  # noqa: BLE001 (a failure stays with its request)
            self._fail(running, error)
            return
        running.prefilled += chunk.shape[1]
        self.lengths[first] = running.prefilled
        self._observe(StepEvent("prefill", (running.handle.id,), chunk.shape[1], start))
        if running.decoding:
            for row in running.rows[1:]:
                self.cache.copy_row(first, row.slot, running.prefilled)
                self.lengths[row.slot] = running.prefilled
            self._sample(running, logits.expand(len(running.rows), -1))

    def _decode(self) -> None:
        """One token for every decoding row, in one forward over rows 0..the highest of them."""
        stepping = [r for r in self._running if r.decoding]
        rows = [row for r in stepping for row in r.live]
        top = self.slots if self.compiled is not None else max(row.slot for row in rows) + 1
        tokens = torch.zeros(top, 1, dtype=torch.long)  # (R, 1)
        for row in rows:
            tokens[row.slot, 0] = row.tokens[-1]
        lengths = self.lengths[:top]
        slots = torch.tensor(lengths)[:, None].to(self.device)  # (R, 1): each row's next cache slot = its position
        tokens = tokens.to(self.device)
        try:
            if self.compiled is not None:  # every row, the whole cache: the same shapes at every step
                logits = self.compiled(tokens, positions=slots, input_pos=slots, cache=self.cache)[:, -1]
            elif len(rows) == top and len(set(lengths)) == 1:  # rows in step (one client): zoo.generate's call
                cache = self.cache.view(slice(0, top))
                logits = self.model(tokens, input_pos=lengths[0], cache=cache)[:, -1]  # (R, V)
            else:
                cache = self.cache.view(slice(0, top), max(lengths) + 1)
                logits = self.model(tokens, positions=slots, input_pos=slots, cache=cache)[:, -1]  # (R, V)
        except Exception as error:  # noqa: BLE001 (the loop goes on; these requests end)
            for running in stepping:
                self._fail(running, error)
            return
        for row in rows:
            self.lengths[row.slot] += 1
        self._observe(StepEvent("decode", tuple(r.handle.id for r in stepping), len(rows)))
        greedy = logits.max(-1).indices.tolist()  # (R,): zoo.generate's greedy choice
        for running in stepping:
            live = running.live
            index = torch.tensor([row.slot for row in live], device=self.device)
            self._sample(running, logits.index_select(0, index), [greedy[row.slot] for row in live])

    def _sample(self, running: _Running, logits: torch.Tensor, greedy: list[int] | None = None) -> None:
        """Each live choice's next token from its logits (rows, V): streamed, then checked against the stops."""
        options = running.handle.options
        try:
            if options.greedy:
                tokens = greedy if greedy is not None else logits.max(-1).indices.tolist()
            else:
                seen = torch.empty(logits.shape[0], 0, dtype=torch.long, device=logits.device)
                tokens = choose(logits, seen, options.generation_config(), running.generator).tolist()
            logprobs = torch.log_softmax(logits.float(), -1) if options.logprobs is not None else None  # (rows, V)
            for i, (row, token) in enumerate(zip(running.live, tokens)):
                row.tokens.append(token)
                running.handle.put(_token_event(row.index, token, None if logprobs is None else logprobs[i],
                                                options.logprobs))
                stop = self._stop(row, options)
                if stop is not None:
                    self._finish(running, row, *stop)
        except Exception as error:  # noqa: BLE001 (its stop_check, say: this request ends, no other)
            self._fail(running, error)

    @staticmethod
    def _stop(row: _Row, options: RequestOptions) -> tuple[str, tuple[int, ...] | None] | None:
        """(reason, matched stop ids) if the choice ends after its last token, else None."""
        tokens = row.tokens
        if tokens[-1] in options.stop_ids:
            return "stop", (tokens[-1],)
        for sequence in options.stop_sequences:
            if tuple(tokens[-len(sequence):]) == sequence:
                return "stop", sequence
        if options.stop_check is not None and options.stop_check(list(tokens)):
            return "stop", None
        if len(tokens) == options.max_new_tokens:
            return "length", None
        return None

    def _finish(self, running: _Running, row: _Row, reason: str, matched: tuple[int, ...] | None = None,
                error: BaseException | None = None) -> None:
        """A choice ends: its row is free for the next request; the request ends with its last choice."""
        row.done = True
        self.lengths[row.slot] = 0
        with self._lock:
            bisect.insort(self._free, row.slot)
            if not running.live:
                self._running.remove(running)
            self._lock.notify_all()
        running.handle.put(Finished(row.index, reason, matched, error))
        if not running.live:
            running.handle.end()

    def _fail(self, running: _Running, error: BaseException) -> None:
        logger.warning("request %d failed: %s", running.handle.id, error, exc_info=error)
        for row in running.live:
            self._finish(running, row, "error", error=error)

    def _observe(self, event: StepEvent) -> None:
        if self.observer is not None:
            try:
                self.observer(event)
            except Exception:  # noqa: BLE001 (an observer's bug ends no request)
                logger.exception("the engine's observer failed on %s", event)

    # The scheduler's thread.
    def start(self) -> "Engine":
        """Run the scheduler loop on a daemon thread (returns the engine)."""
        if self._thread is not None:
            raise RuntimeError("the engine's scheduler is running already")
        self._thread = threading.Thread(target=self._loop, name="zoo-serving-engine", daemon=True)
        self._thread.start()
        return self

    def _loop(self) -> None:
        while True:
            with self._lock:
                while not (self._running or self._waiting or self._stopping):
                    self._lock.wait()
                if self._stopping:
                    return
            try:
                self.step()
            except Exception as error:  # noqa: BLE001 (a bug of the engine's own: end what runs, keep serving)
                logger.exception("scheduler step failed")
                for running in list(self._running):
                    self._fail(running, error)

    def shutdown(self, timeout: float | None = None) -> None:
        """Refuse new requests (EngineClosed), let the running and waiting ones finish for at most `timeout`
        seconds (None: no limit), cancel what is left, and stop the scheduler."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._lock:
            self._closing = True
            handles = list(self._waiting) + [r.handle for r in self._running]
        for handle in handles:
            self._wait(handle, deadline)
        for handle in handles:
            handle.cancel()
        for handle in handles:
            self._wait(handle, None)
        with self._lock:
            self._stopping = True
            self._lock.notify_all()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _wait(self, handle: RequestHandle, deadline: float | None) -> None:
        """Until the handle is done or the deadline passes, stepping here when no scheduler thread runs."""
        while not handle.done and (deadline is None or time.monotonic() < deadline):
            if self._thread is None:
                self.step()
            else:
                handle._done.wait(None if deadline is None else max(0.0, deadline - time.monotonic()))

    def __enter__(self) -> "Engine":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.shutdown()


def _token_event(index: int, token: int, logprobs: torch.Tensor | None, top: int | None) -> TokenEvent:
    """A TokenEvent, with the token's log-probability and the `top` likeliest alternatives from (V,) logprobs."""
    if logprobs is None:
        return TokenEvent(index, token)
    alternatives = None
    if top:
        values, ids = logprobs.topk(top)
        alternatives = tuple(zip(ids.tolist(), values.tolist()))
    return TokenEvent(index, token, float(logprobs[token]), alternatives)
