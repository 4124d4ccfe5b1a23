"""POST /v1/completions and POST /v1/chat/completions: OpenAI's text generation endpoints on the zoo's decoders.

GPT and LLaMA requests run on the model's continuous-batching Engine (zoo.serving.engine): each prompt of a
request is one engine request with its n choices, its sampling options and its stops (EOS for completions; the
chat template's end-of-turn ids for chat; the request's stop strings, whose text is cut from the reply as
OpenAI's API cuts it). Chat renders the messages with the checkpoint's chat template (add_generation_prompt).
LLaVA chat requests (image_url content parts) run zoo.generate with the images' pixel_values, one request at a
time under the model's lock, in a worker thread; a stream then sends the finished reply token by token.

A client that disconnects cancels its engine requests (RequestHandle.cancel), which frees their rows at the
engine's next step; a request the engine ends with an error answers 500 (a stream: an error event), and the
engine goes on with the others.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import torch
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, StreamingResponse

import zoo
from data.chat_template import ChatTemplateError
from data.scenes import IMAGE_MARKER
from zoo.serving import openai_schema as api
from zoo.serving.choice_text import ChoiceText, stop_check
from zoo.serving.requests import Finished, InvalidRequest, RequestHandle, RequestOptions, TokenEvent
from zoo.serving.served import Generator, Served, VisionChat, find

logger = logging.getLogger("zoo.serving.http")
DISCONNECT_POLL = 0.25  # seconds between checks that a non-streaming client is still there
FINISH_REASONS = {"stop": "stop", "length": "length", "cancelled": "abort"}


def text_router(models: dict[str, Served]) -> APIRouter:
    router = APIRouter()

    @router.post("/v1/completions")
    async def completions(request: Request):
        body = api.parse(api.CompletionRequest, await read_json(request))
        served = find(models, body.model, (Generator,), "/v1/completions")
        prompts = [_prompt_ids(served, p, "prompt") for p in body.prompts]
        limit = body.max_tokens if body.max_tokens is not None else 16
        stops = (served.tokenizer.eos_id,) if served.tokenizer.eos_id is not None else ()
        job = Job(served, prompts, _options(served, body, prompts, limit, "max_tokens", stops, body.logprobs),
                  body.stop, "text_completion", body.include_usage)
        return await respond(request, job, body.stream)

    @router.post("/v1/chat/completions")
    async def chat(request: Request):
        body = api.parse(api.ChatRequest, await read_json(request))
        served = find(models, body.model, (Generator, VisionChat), "/v1/chat/completions")
        messages = api.messages(body.messages)
        top = (body.top_logprobs or 0) if body.logprobs else None
        if isinstance(served, VisionChat):
            return await vision_chat(request, served, body, messages, top)
        prompt = _chat_prompt(served, messages)
        options = _options(served, body, [prompt], body.limit, body.limit_field, served.end_of_turn, top)
        job = Job(served, [prompt], options, body.stop, "chat.completion", body.include_usage)
        return await respond(request, job, body.stream)

    return router


async def read_json(request: Request):
    try:
        return json.loads(await request.body())
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise InvalidRequest(f"the request body is not valid JSON ({error})", None) from None


def _prompt_ids(served: Generator, prompt: str | list[int], param: str) -> list[int]:
    if isinstance(prompt, str):
        ids = served.tokenizer.encode(prompt, add_special_tokens=False)
        if not ids:
            raise InvalidRequest(f"{param} encodes to no tokens", param)
        return ids
    vocab = served.model.vocab_size
    if any(i < 0 or i >= vocab for i in prompt):
        raise InvalidRequest(f"{param} holds token ids outside the model's vocabulary [0, {vocab})", param)
    return list(prompt)


def _chat_text(content: str | list[dict] | None, where: str) -> str:
    """A message's content as text: its text parts joined by newlines (image parts are refused)."""
    if content is None or isinstance(content, str):
        return content
    for j, part in enumerate(content):
        if part["type"] != "text":
            raise InvalidRequest(f"{where}.content[{j}]: this model takes text only (image parts need a LLaVA)",
                                 f"{where}.content[{j}]")
    return "\n".join(part["text"] for part in content)


def _chat_prompt(served: Generator, messages: list[dict]) -> list[int]:
    if served.tokenizer.chat_template is None:
        raise InvalidRequest(f"model {served.name!r} has no chat template (its checkpoint has neither "
                             "chat_template.jinja nor a \"chat_template\" in tokenizer_config.json); use "
                             "/v1/completions", "model")
    messages = [{**m, "content": _chat_text(m["content"], f"messages[{i}]")} for i, m in enumerate(messages)]
    try:
        return served.tokenizer.apply_chat_template(messages, add_generation_prompt=True)
    except ChatTemplateError as error:
        raise InvalidRequest(f"messages: {error}", "messages") from None


def _options(served: Generator, body, prompts: list[list[int]], limit: int | None, limit_field: str,
             stop_ids: tuple[int, ...], logprobs: int | None) -> RequestOptions:
    """The engine's options; prompt + new tokens beyond the context is a 400 that says both numbers."""
    longest = max(map(len, prompts))
    context = served.context
    if limit is None:  # chat without a limit: up to the context, as OpenAI's API
        limit = context - longest
        if limit < 1:
            raise InvalidRequest(f"This model's maximum context length is {context} tokens. However, your messages "
                                 f"resulted in {longest} tokens, which leaves no room for a reply.", "messages",
                                 "context_length_exceeded")
    if longest + limit > context:
        raise InvalidRequest(f"This model's maximum context length is {context} tokens. However, you requested "
                             f"{longest + limit} tokens ({longest} in the prompt, {limit} for the completion). "
                             f"Please reduce the prompt or {limit_field}.", limit_field, "context_length_exceeded")
    try:
        return RequestOptions(max_new_tokens=limit, temperature=1.0 if body.temperature is None else body.temperature,
                              top_p=1.0 if body.top_p is None else body.top_p, seed=body.seed, n=body.n or 1,
                              stop_ids=stop_ids, stop_check=stop_check(served.tokenizer, body.stop),
                              logprobs=logprobs)
    except InvalidRequest as error:
        raise InvalidRequest(str(error), {"max_new_tokens": limit_field}.get(error.param, error.param)) from None


# ----------------------------------------------------------------------------- one request's choices


@dataclass
class ChoiceState:
    """One choice being answered: its text (stops cut), its token count, logprob entries not yet sent."""
    text: ChoiceText
    tokens: int = 0
    logprobs: list = field(default_factory=list)
    sent_logprobs: list = field(default_factory=list)
    finish_reason: str | None = None
    error: BaseException | None = None


@dataclass
class Job:
    """One HTTP generation request: its prompts (each an engine request of n choices) and how to answer."""
    served: Generator
    prompts: list[list[int]]
    options: RequestOptions
    stops: list[str]
    kind: str  # "text_completion" | "chat.completion"
    include_usage: bool
    created: int = field(default_factory=lambda: int(time.time()))

    def __post_init__(self):
        self.id = api.request_id("chatcmpl" if self.kind == "chat.completion" else "cmpl")
        self.choices = [ChoiceState(ChoiceText(self.served.tokenizer, self.stops))
                        for _ in range(len(self.prompts) * self.options.n)]

    def token_text(self, token: int) -> str:
        return self.served.tokenizer.decode([token], skip_special_tokens=False)

    def apply(self, prompt: int, event: TokenEvent | Finished) -> tuple[ChoiceState, int, str]:
        """An engine event of prompt `prompt` -> (its choice, the choice's index, the new final text)."""
        index = prompt * self.options.n + event.index
        choice = self.choices[index]
        if isinstance(event, TokenEvent):
            choice.tokens += 1
            if event.logprob is not None:
                top = [(self.token_text(t), lp) for t, lp in event.top_logprobs or ()]
                choice.logprobs.append((self.token_text(event.token), event.logprob, top))
            return choice, index, choice.text.put(event.token)
        if event.reason == "error":
            choice.error = event.error
        choice.finish_reason = FINISH_REASONS.get(event.reason, event.reason)
        return choice, index, choice.text.finish()

    def usage(self) -> dict:
        return api.usage(sum(map(len, self.prompts)), sum(c.tokens for c in self.choices))

    def logprobs_of(self, choice: ChoiceState, entries: list) -> dict | None:
        if self.options.logprobs is None:
            return None
        if self.kind == "chat.completion":
            return api.chat_logprobs(entries)
        sent = sum(len(text) for text, _, _ in choice.sent_logprobs)
        choice.sent_logprobs += entries
        return api.completion_logprobs(entries, sent)


def submit(job: Job) -> list[RequestHandle]:
    """Each prompt to the engine; if one is refused (QueueFull), the others are cancelled and it is raised."""
    handles = []
    try:
        for prompt in job.prompts:
            handles.append(job.served.engine.submit(prompt, job.options))
    except Exception:
        for handle in handles:
            handle.cancel()
        raise
    return handles


async def merged(handles: list[RequestHandle]) -> AsyncIterator[tuple[int, TokenEvent | Finished]]:
    """(prompt index, event) from every handle as they come; leaving early cancels them all."""
    queue: asyncio.Queue = asyncio.Queue()

    async def pump(i: int, handle: RequestHandle) -> None:
        async for event in handle:
            queue.put_nowait((i, event))
        queue.put_nowait((i, None))

    tasks = [asyncio.create_task(pump(i, handle)) for i, handle in enumerate(handles)]
    try:
        remaining = len(handles)
        while remaining:
            i, event = await queue.get()
            if event is None:
                remaining -= 1
            else:
                yield i, event
    finally:
        for task in tasks:
            task.cancel()
        for handle in handles:
            handle.cancel()  # a no-op for a finished request


async def respond(request: Request, job: Job, stream: bool):
    handles = submit(job)
    log = request.state.log
    log.update(model=job.served.name, prompt_tokens=sum(map(len, job.prompts)))
    first = _first_token_recorder(log)
    if stream:
        return StreamingResponse(_stream(job, handles, first, log), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})
    watcher = asyncio.create_task(_cancel_on_disconnect(request, handles))
    try:
        async with contextlib.aclosing(merged(handles)) as events:
            async for prompt, event in events:
                job.apply(prompt, event)
                if isinstance(event, TokenEvent):
                    first()
    finally:
        watcher.cancel()
    log.update(completion_tokens=job.usage()["completion_tokens"])
    failed = next((c.error for c in job.choices if c.error is not None), None)
    if failed is not None:
        return JSONResponse(api.error_body(f"generation failed: {failed}", kind="server_error"), 500)
    choices = [{"index": i, "text": c.text.text, "finish_reason": c.finish_reason,
                "logprobs": job.logprobs_of(c, c.logprobs)} for i, c in enumerate(job.choices)]
    build = api.chat_response if job.kind == "chat.completion" else api.completion_response
    return build(job.id, job.served.name, choices, job.usage(), job.created)


def _first_token_recorder(log: dict) -> Callable[[], None]:
    def record() -> None:
        log.setdefault("first_token", time.monotonic())
    return record


async def _cancel_on_disconnect(request: Request, handles: list[RequestHandle]) -> None:
    while True:
        await asyncio.sleep(DISCONNECT_POLL)
        if await request.is_disconnected():
            for handle in handles:
                handle.cancel()
            return


def _chunk(job: Job, choice: ChoiceState, index: int, piece: str, reason: str | None) -> dict:
    """A stream chunk of one choice: its new text, the logprobs of the tokens since its last chunk."""
    entries, choice.logprobs = choice.logprobs, []
    logprobs = job.logprobs_of(choice, entries)
    if job.kind == "chat.completion":
        return api.chat_chunk(job.id, job.served.name, job.created, index, {"content": piece} if piece else {},
                              logprobs, reason, include_usage=job.include_usage)
    return api.completion_chunk(job.id, job.served.name, job.created, {
        "index": index, "text": piece, "logprobs": logprobs, "finish_reason": reason},
        include_usage=job.include_usage)


def sse(data: dict | str) -> str:
    return f"data: {data if isinstance(data, str) else json.dumps(data)}\n\n"


async def _stream(job: Job, handles: list[RequestHandle], first: Callable[[], None], log: dict):
    """The SSE chunks; a client that leaves cancels the stream's task, and merged() its requests."""
    chat = job.kind == "chat.completion"
    if chat:
        for index in range(len(job.choices)):
            yield sse(api.chat_chunk(job.id, job.served.name, job.created, index, {"role": "assistant", "content": ""},
                                     include_usage=job.include_usage))
    failed = None
    try:
        async with contextlib.aclosing(merged(handles)) as events:
            async for prompt, event in events:
                try:
                    choice, index, piece = job.apply(prompt, event)
                except Exception as error:  # noqa: BLE001 (this stream ends with an error event; the others go on)
                    logger.exception("request %s failed", job.id)
                    failed = error
                    break
                if isinstance(event, TokenEvent):
                    first()
                done = isinstance(event, Finished)
                failed = failed or choice.error
                if not piece and not done or (done and choice.error is not None):
                    continue
                yield sse(_chunk(job, choice, index, piece, choice.finish_reason if done else None))
    finally:
        log.update(completion_tokens=job.usage()["completion_tokens"])
    if failed is not None:
        yield sse(api.error_body(f"generation failed: {failed}", kind="server_error"))
    elif job.include_usage:
        chunk = api.chat_chunk if chat else api.completion_chunk
        yield sse(chunk(job.id, job.served.name, job.created, usage=job.usage(), include_usage=True))
    yield sse("[DONE]")


# ----------------------------------------------------------------------------- LLaVA


async def vision_chat(request: Request, served: VisionChat, body: api.ChatRequest, messages: list[dict],
                      top: int | None):
    """A LLaVA chat request: zoo.generate with the images, one request at a time (see the module docstring)."""
    if top is not None:
        raise InvalidRequest("logprobs are not served for LLaVA models", "logprobs")
    if (body.n or 1) != 1:
        raise InvalidRequest("n must be 1 for LLaVA models", "n")
    prompt, images = _vision_prompt(served, messages)
    context = served.model.max_positions
    limit = body.limit if body.limit is not None else context - len(prompt)
    if limit < 1 or len(prompt) + limit > context:
        raise InvalidRequest(f"This model's maximum context length is {context} tokens. However, you requested "
                             f"{len(prompt) + max(limit, 0)} tokens ({len(prompt)} in the messages, image tokens "
                             f"included, {limit} for the completion).", body.limit_field, "context_length_exceeded")
    eos = served.processor.eos_id
    tokens = await asyncio.to_thread(_vision_generate, served, prompt, images, limit, body, eos)
    request.state.log.update(model=served.name, prompt_tokens=len(prompt), completion_tokens=len(tokens),
                             first_token=time.monotonic())
    job = _VisionJob(served, body, prompt, tokens, eos, limit)
    return StreamingResponse(job.stream(), media_type="text/event-stream") if body.stream else job.response()


def _vision_prompt(served: VisionChat, messages: list[dict]) -> tuple[list[int], torch.Tensor | None]:
    """The prompt's ids (one placeholder per image feature) and its images' pixel values (M, 3, S, S)."""
    images, texts = [], []
    for i, message in enumerate(messages):
        content = message["content"] or ""
        parts = [{"type": "text", "text": content}] if isinstance(content, str) else content
        for j, part in enumerate(parts):
            if part["type"] == "image_url":
                images.append(served.image(part["url"], f"messages[{i}].content[{j}].image_url"))
        if message["role"] == "user":
            text = " ".join(p["text"] for p in parts if p["type"] == "text")
            texts.append(text.replace(IMAGE_MARKER, ""))
    if not images:
        raise InvalidRequest("a LLaVA chat request needs an image: an image_url content part", "messages")
    if len(images) > 1:
        raise InvalidRequest(f"this LLaVA takes one image per request, got {len(images)}", "messages")
    prompt = served.prompt_format.format(image=IMAGE_MARKER, question="\n".join(texts))
    ids = served.processor.encode_prompt(prompt, 1)
    return ids, served.processor.pixel_values(images)


def _vision_generate(served: VisionChat, prompt: list[int], pixels: torch.Tensor, limit: int,
                     body: api.ChatRequest, eos: int | None) -> list[int]:
    weight = next(served.model.parameters())
    temperature = 1.0 if body.temperature is None else body.temperature
    generator = torch.Generator(weight.device)
    if body.seed is not None:
        generator.manual_seed(body.seed)
    else:
        generator.seed()
    with served.lock:
        out = zoo.generate(served.model, torch.tensor([prompt], device=weight.device), limit,
                           pixel_values=pixels.to(weight.device, weight.dtype), generator=generator,
                           do_sample=temperature > 0, temperature=temperature or 1.0,
                           top_p=1.0 if body.top_p is None else body.top_p, eos_id=eos)
    tokens = out[0, len(prompt):].tolist()
    return tokens[:tokens.index(eos) + 1] if eos is not None and eos in tokens else tokens


@dataclass
class _VisionJob:
    """A finished LLaVA reply, answered in OpenAI's shapes (stop strings cut, as for the other models)."""
    served: VisionChat
    body: api.ChatRequest
    prompt: list[int]
    tokens: list[int]
    eos: int | None
    limit: int

    def __post_init__(self):
        self.id, self.created = api.request_id("chatcmpl"), int(time.time())
        self.text = ChoiceText(self.served.tokenizer, self.body.stop)
        self.pieces = []
        for token in self.tokens:
            self.pieces.append(self.text.put(token))
            if self.text.stopped:
                break
        self.pieces.append(self.text.finish())
        ended = self.text.stopped or (self.eos is not None and self.tokens[-1:] == [self.eos])
        self.finish_reason = "stop" if ended else "length"

    def usage(self) -> dict:
        return api.usage(len(self.prompt), len(self.tokens))

    def response(self) -> dict:
        choice = {"index": 0, "text": self.text.text, "logprobs": None, "finish_reason": self.finish_reason}
        return api.chat_response(self.id, self.served.name, [choice], self.usage(), self.created)

    async def stream(self):
        include = self.body.include_usage
        args = (self.id, self.served.name, self.created)
        yield sse(api.chat_chunk(*args, 0, {"role": "assistant", "content": ""}, include_usage=include))
        for piece in filter(None, self.pieces):
            yield sse(api.chat_chunk(*args, 0, {"content": piece}, include_usage=include))
        yield sse(api.chat_chunk(*args, 0, {}, finish_reason=self.finish_reason, include_usage=include))
        if include:
            yield sse(api.chat_chunk(*args, usage=self.usage(), include_usage=True))
        yield sse("[DONE]")
