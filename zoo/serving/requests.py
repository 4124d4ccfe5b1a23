"""What a client hands the serving engine and what it gets back: the options of one generation request (checked,
each error naming its field), the events streamed to it, and the handle it reads them from, in a thread or in
an asyncio task.

    handle = engine.submit([464, 3290, 318], RequestOptions(max_new_tokens=32, temperature=0.0))
    for event in handle:                      # or: async for event in handle
        if isinstance(event, TokenEvent): ...  # event.index (which of the n choices), event.token, event.logprob
        else: ...                              # Finished: event.index, event.reason ("stop" | "length" | ...)
    handle.cancel()                           # the client went away: its rows are freed at the next step

The events of one request arrive in order; its stream ends after each of its n choices has finished.
"""
from __future__ import annotations

import asyncio
import math
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import torch

from zoo.generation.config import GenerationConfig

StopCheck = Callable[[list[int]], bool]  # a choice's new tokens so far -> whether to stop there

MAX_TOP_LOGPROBS = 20  # as OpenAI's API


class InvalidRequest(ValueError):
    """A request the engine refuses at submit: `param` names the field (the server's 400 body names it too);
    `code`, where OpenAI's API has one ("context_length_exceeded")."""

    def __init__(self, message: str, param: str, code: str | None = None):
        super().__init__(message)
        self.param, self.code = param, code


class QueueFull(RuntimeError):
    """The engine's queue of waiting requests is full: try again in about `retry_after` seconds (HTTP 429)."""

    def __init__(self, message: str, retry_after: float):
        super().__init__(message)
        self.retry_after = retry_after


class EngineClosed(RuntimeError):
    """The engine is shutting down (or shut down) and takes no new request (HTTP 503)."""


@dataclass(frozen=True)
class RequestOptions:
    """One generation request's options (OpenAI's names where it has the option).

    temperature 0 is greedy (argmax, as zoo.generate without do_sample); above 0 samples, after top_k and
    top_p, from the request's own torch.Generator seeded with `seed` (None: a fresh random seed), so a seeded
    request draws the same tokens whatever else runs beside it. n choices share the prompt's prefill and one
    generator. A choice stops at any of `stop_ids` (EOS), at the end of any of `stop_sequences` (token ids), or
    when `stop_check(its new tokens)` says so (the server's text stop strings); the stopping token is streamed
    like the others and the Finished event says which stop matched. logprobs: None, or how many alternatives
    (0..20) each token event lists besides the chosen token's own log-probability.
    """
    max_new_tokens: int = 16
    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = 0
    seed: int | None = None
    n: int = 1
    stop_ids: tuple[int, ...] = ()
    stop_sequences: tuple[tuple[int, ...], ...] = ()
    stop_check: StopCheck | None = None
    logprobs: int | None = None

    def __post_init__(self):
        object.__setattr__(self, "stop_ids", _ids(self.stop_ids, "stop_ids"))
        if not isinstance(self.stop_sequences, Sequence) or isinstance(self.stop_sequences, str):
            raise InvalidRequest(f"stop_sequences must be a list of token-id lists, got {self.stop_sequences!r}",
                                 "stop_sequences")
        object.__setattr__(self, "stop_sequences", tuple(_ids(s, "stop_sequences") for s in self.stop_sequences))
        _check(_whole(self.max_new_tokens) and self.max_new_tokens >= 1, "max_new_tokens", self.max_new_tokens,
               "an int >= 1")
        _check(_number(self.temperature) and self.temperature >= 0, "temperature", self.temperature,
               "a finite number >= 0 (0: greedy)")
        _check(_number(self.top_p) and 0 < self.top_p <= 1, "top_p", self.top_p, "a number in (0, 1]")
        _check(_whole(self.top_k) and self.top_k >= 0, "top_k", self.top_k, "an int >= 0 (0: off)")
        _check(self.seed is None or _whole(self.seed), "seed", self.seed, "an int or None")
        _check(_whole(self.n) and self.n >= 1, "n", self.n, "an int >= 1")
        _check(all(self.stop_sequences), "stop_sequences", self.stop_sequences, "non-empty sequences of token ids")
        _check(self.stop_check is None or callable(self.stop_check), "stop_check", self.stop_check,
               "a callable (new tokens -> bool) or None")
        _check(self.logprobs is None or (_whole(self.logprobs) and 0 <= self.logprobs <= MAX_TOP_LOGPROBS),
               "logprobs", self.logprobs, f"None or an int in [0, {MAX_TOP_LOGPROBS}]")

    @property
    def greedy(self) -> bool:
        return self.temperature == 0

    def generation_config(self) -> GenerationConfig:
        """The zoo's decoding options for the sampling processors (zoo.generation.sampling)."""
        return GenerationConfig(max_new_tokens=self.max_new_tokens, do_sample=not self.greedy,
                                temperature=self.temperature if not self.greedy else 1.0, top_p=self.top_p,
                                top_k=self.top_k)


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _check(ok: bool, name: str, value, expected: str) -> None:
    if not ok:
        raise InvalidRequest(f"{name}={value!r} is invalid; expected {expected}", name)


def _ids(ids, name: str) -> tuple[int, ...]:
    if isinstance(ids, torch.Tensor):
        ids = ids.tolist()
    if isinstance(ids, (str, bytes)) or not isinstance(ids, Sequence) or not all(_whole(i) and i >= 0 for i in ids):
        raise InvalidRequest(f"{name} must hold token ids (ints >= 0), got {ids!r}", name)
    return tuple(ids)


def prompt_ids(prompt, vocab_size: int) -> tuple[int, ...]:
    """A prompt (a list of ids, or a 1-D tensor, or a (1, T) one) -> a tuple of ids inside the vocabulary."""
    if isinstance(prompt, torch.Tensor) and prompt.dim() == 2 and prompt.shape[0] == 1:
        prompt = prompt[0]
    if isinstance(prompt, torch.Tensor) and prompt.dim() != 1:
        raise InvalidRequest(f"prompt must be one sequence of token ids, got a tensor of shape {tuple(prompt.shape)}",
                             "prompt")
    ids = _ids(prompt, "prompt")
    if not ids:
        raise InvalidRequest("prompt is empty; expected at least one token", "prompt")
    outside = [i for i in ids if i >= vocab_size]
    if outside:
        raise InvalidRequest(f"prompt holds token id {outside[0]}, outside the model's vocabulary; expected ids in "
                             f"[0, {vocab_size})", "prompt")
    return ids


@dataclass(frozen=True)
class TokenEvent:
    """One new token of choice `index`. logprob: its log-probability (of the logits before temperature and
    top-p), with RequestOptions.logprobs; top_logprobs: the `logprobs` likeliest (token, log-probability)."""
    index: int
    token: int
    logprob: float | None = None
    top_logprobs: tuple[tuple[int, float], ...] | None = None


@dataclass(frozen=True)
class Finished:
    """Choice `index` is done. reason: "stop" (a stop id, a stop sequence (`matched`: its ids) or stop_check),
    "length" (max_new_tokens), "cancelled", or "error" (`error`: the exception; the other requests go on)."""
    index: int
    reason: str
    matched: tuple[int, ...] | None = None
    error: BaseException | None = None


Event = TokenEvent | Finished


@dataclass
class Choice:
    """One choice gathered from the events (RequestHandle.result)."""
    tokens: list[int] = field(default_factory=list)
    logprobs: list[float | None] = field(default_factory=list)
    top_logprobs: list[tuple[tuple[int, float], ...] | None] = field(default_factory=list)
    finish_reason: str | None = None
    matched: tuple[int, ...] | None = None
    error: BaseException | None = None


_END = object()  # after the last Finished


class RequestHandle:
    """The client's side of one request: iterate it (a thread: `for`, asyncio: `async for`) for its events,
    `result()` for them all gathered, `cancel()` to stop it. Events are put by the engine's scheduler thread."""

    def __init__(self, request_id: int, prompt: tuple[int, ...], options: RequestOptions,
                 on_cancel: Callable[[], None]):
        self.id, self.prompt, self.options = request_id, prompt, options
        self.cancelled = False
        self._on_cancel = on_cancel
        self._events: queue.SimpleQueue = queue.SimpleQueue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready: asyncio.Event | None = None
        self._done = threading.Event()
        # time.monotonic() at submit, at the first token and at the end (a server's latency logs and metrics).
        self.submitted, self.first_token_at, self.finished_at = time.monotonic(), None, None

    @property
    def done(self) -> bool:
        """Whether every choice has finished (its last event was put; the client may not have read it)."""
        return self._done.is_set()

    def cancel(self) -> None:
        """Stop generating (a client disconnect): the choices still running finish "cancelled" at the engine's
        next step, which frees their rows. Idempotent; nothing happens once the request is done."""
        if not self.cancelled and not self.done:
            self.cancelled = True
            self._on_cancel()

    # The engine's side.
    def put(self, event: Event | object) -> None:
        if self.first_token_at is None and isinstance(event, TokenEvent):
            self.first_token_at = time.monotonic()
        if event is _END:
            self.finished_at = time.monotonic()
            self._done.set()
        self._events.put(event)
        loop = self._loop
        if loop is not None:
            try:
                loop.call_soon_threadsafe(self._ready.set)
            except RuntimeError:  # the client's loop has closed: nobody reads the async side any more
                pass

    def end(self) -> None:
        self.put(_END)

    # The client's side.
    def __iter__(self):
        while (event := self._events.get()) is not _END:
            yield event

    async def __aiter__(self):
        if self._loop is None:
            self._ready = asyncio.Event()
            self._loop = asyncio.get_running_loop()
        while True:
            try:
                event = self._events.get_nowait()
            except queue.Empty:
                self._ready.clear()
                try:  # an event put between the first look and clear() set the flag before it was cleared
                    event = self._events.get_nowait()
                except queue.Empty:
                    await self._ready.wait()
                    continue
            if event is _END:
                return
            yield event

    def result(self, timeout: float | None = None) -> list[Choice]:
        """Every event gathered, one Choice per choice (blocks; TimeoutError past `timeout` seconds)."""
        choices = [Choice() for _ in range(self.options.n)]
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            try:
                event = self._events.get(timeout=None if deadline is None else max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise TimeoutError(f"request {self.id} not finished after {timeout} s") from None
            if event is _END:
                return choices
            _gather(choices, event)

    async def aresult(self) -> list[Choice]:
        """result() for an asyncio task."""
        choices = [Choice() for _ in range(self.options.n)]
        async for event in self:
            _gather(choices, event)
        return choices


def _gather(choices: list[Choice], event: Event) -> None:
    choice = choices[event.index]
    if isinstance(event, TokenEvent):
        choice.tokens.append(event.token)
        choice.logprobs.append(event.logprob)
        choice.top_logprobs.append(event.top_logprobs)
    else:
        choice.finish_reason, choice.matched, choice.error = event.reason, event.matched, event.error
