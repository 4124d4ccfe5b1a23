"""OpenAI's HTTP API as the server speaks it: the request bodies it accepts (checked, each error naming its field,
as zoo.serving.requests.InvalidRequest) and the response bodies and stream chunks it writes, in the shapes of
OpenAI's API reference (https://platform.openai.com/docs/api-reference) that the `openai` client parses.

    body = parse(ChatRequest, await request.json())       # InvalidRequest(param="temperature") on a bad field
    chat_response(id, name, choices, usage(prompt, completion))

Fields OpenAI has and the zoo does not serve (presence and frequency penalties, logit_bias, tools, echo, suffix,
best_of other than n, embedding dimensions) are refused by name rather than ignored; unknown fields are ignored,
as OpenAI ignores them.
"""
from __future__ import annotations

import base64
import time
import uuid
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from zoo.serving.requests import MAX_TOP_LOGPROBS, InvalidRequest

MAX_STOP = 4  # stop strings per request, as OpenAI's API
MAX_COMPLETION_LOGPROBS = 5  # /v1/completions' logprobs, as OpenAI's API
ROLES = ("system", "developer", "user", "assistant", "tool")


class _Request(BaseModel):
    model_config = ConfigDict(extra="ignore")


class StreamOptions(_Request):
    include_usage: bool = False


class _Generation(_Request):
    """What completions and chat share: sampling, stops, streaming."""
    model: str
    temperature: float | None = Field(None, ge=0, le=2)
    top_p: float | None = Field(None, gt=0, le=1)
    n: int | None = Field(None, ge=1, le=128)
    stream: bool | None = False
    stream_options: StreamOptions | None = None
    stop: str | list[str] | None = Field(None, validate_default=True)  # -> a list
    seed: int | None = None
    presence_penalty: float | None = None
    frequency_penalty: float | None = None
    logit_bias: dict[str, float] | None = None
    user: str | None = None

    @field_validator("stop")
    @classmethod
    def _stop(cls, stop):
        stops = [stop] if isinstance(stop, str) else stop or []
        if len(stops) > MAX_STOP or not all(stops):
            raise ValueError(f"expected at most {MAX_STOP} non-empty strings")
        return stops

    def check(self) -> None:
        """What a field's type cannot say (InvalidRequest: pydantic would wrap a ValueError raised inside it)."""
        for name in ("presence_penalty", "frequency_penalty"):
            if getattr(self, name):
                raise InvalidRequest(f"{name} is not supported by this server; expected 0 or none", name)
        if self.logit_bias:
            raise InvalidRequest("logit_bias is not supported by this server", "logit_bias")
        if self.stream_options is not None and not self.stream:
            raise InvalidRequest("stream_options is only allowed when stream is true", "stream_options")

    @property
    def include_usage(self) -> bool:
        return bool(self.stream_options and self.stream_options.include_usage)


class CompletionRequest(_Generation):
    """POST /v1/completions."""
    prompt: str | list[str] | list[int] | list[list[int]]
    max_tokens: int | None = Field(16, ge=1)
    logprobs: int | None = Field(None, ge=0, le=MAX_COMPLETION_LOGPROBS)
    echo: bool | None = False
    suffix: str | None = None
    best_of: int | None = None

    def check(self) -> None:
        super().check()
        if self.echo:
            raise InvalidRequest("echo is not supported by this server", "echo")
        if self.suffix:
            raise InvalidRequest("suffix is not supported by this server", "suffix")
        if self.best_of is not None and self.best_of != (self.n or 1):
            raise InvalidRequest("best_of other than n is not supported by this server", "best_of")
        if self.prompt in ("", []) or (isinstance(self.prompt, list) and any(p in ("", []) for p in self.prompt)):
            raise InvalidRequest("prompt is empty; expected text or token ids", "prompt")

    @property
    def prompts(self) -> list[str | list[int]]:
        """One entry per prompt: a text or a list of token ids."""
        if isinstance(self.prompt, str) or (self.prompt and isinstance(self.prompt[0], int)):
            return [self.prompt]
        return list(self.prompt)


class ChatRequest(_Generation):
    """POST /v1/chat/completions (messages checked by `messages()`: their content parts need more than a type)."""
    messages: list[dict[str, Any]] = Field(min_length=1)
    max_tokens: int | None = Field(None, ge=1)
    max_completion_tokens: int | None = Field(None, ge=1)
    logprobs: bool | None = False
    top_logprobs: int | None = Field(None, ge=0, le=MAX_TOP_LOGPROBS)
    tools: list | None = None

    def check(self) -> None:
        super().check()
        if self.tools:
            raise InvalidRequest("tools are not supported by this server", "tools")
        if self.top_logprobs is not None and not self.logprobs:
            raise InvalidRequest("top_logprobs needs logprobs set to true", "top_logprobs")

    @property
    def limit(self) -> int | None:
        """The most new tokens asked for (max_completion_tokens, or the older max_tokens), and its field."""
        return self.max_completion_tokens if self.max_completion_tokens is not None else self.max_tokens

    @property
    def limit_field(self) -> str:
        return "max_completion_tokens" if self.max_completion_tokens is not None else "max_tokens"


class EmbeddingRequest(_Request):
    """POST /v1/embeddings."""
    model: str
    input: str | list[str] | list[int] | list[list[int]]
    encoding_format: Literal["float", "base64"] = "float"
    dimensions: int | None = None
    user: str | None = None

    def check(self) -> None:
        if self.dimensions is not None:
            raise InvalidRequest("dimensions is not supported: the model's embeddings have one width", "dimensions")
        if self.input in ("", []) or (isinstance(self.input, list) and any(i in ("", []) for i in self.input)):
            raise InvalidRequest("input is empty; expected non-empty text or token ids", "input")

    @property
    def inputs(self) -> list[str | list[int]]:
        if isinstance(self.input, str) or isinstance(self.input[0], int):
            return [self.input]
        return list(self.input)


_PATH_WORDS = {"role", "content", "type", "text", "image_url", "url", "include_usage"}


def parse(kind: type[BaseModel], body: Any):
    """A request body (parsed JSON) -> the request; InvalidRequest naming the first bad field."""
    if not isinstance(body, dict):
        raise InvalidRequest(f"the request body must be a JSON object, got {type(body).__name__}", None)
    try:
        request = kind.model_validate(body)
    except ValidationError as error:
        first = error.errors()[0]
        loc = first["loc"]
        param = str(loc[0]) if loc else None
        for part in loc[1:]:  # indices and sub-fields; pydantic's union tags ('str', 'list[int]') are left out
            if isinstance(part, int):
                param += f"[{part}]"
            elif part in _PATH_WORDS:
                param += f".{part}"
        got = f" (got {first['input']!r})" if "input" in first and first["type"] != "missing" else ""
        message = first["msg"] if first["type"] != "missing" else "field required"
        raise InvalidRequest(f"{param}: {message}{got}"[:500], param) from None
    request.check()
    return request


def messages(raw: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Chat messages checked: each a role and a content (text, or a list of OpenAI content parts: text and
    image_url). Text parts are kept as parts here; the caller joins or renders them."""
    out = []
    for i, message in enumerate(raw):
        where = f"messages[{i}]"
        role = message.get("role")
        if role not in ROLES:
            raise InvalidRequest(f"{where}.role must be one of {', '.join(ROLES)}, got {role!r}", f"{where}.role")
        content = message.get("content")
        if content is None and role != "assistant":
            raise InvalidRequest(f"{where}.content is required for role {role!r}", f"{where}.content")
        if isinstance(content, list):
            content = [_part(part, f"{where}.content[{j}]") for j, part in enumerate(content)]
        elif content is not None and not isinstance(content, str):
            raise InvalidRequest(f"{where}.content must be a string or a list of content parts, got "
                                 f"{type(content).__name__}", f"{where}.content")
        out.append({**message, "content": content})
    return out


def _part(part: Any, where: str) -> dict[str, str]:
    """One content part -> {"type": "text", "text": ...} or {"type": "image_url", "url": ...}."""
    kind = part.get("type") if isinstance(part, dict) else None
    if kind == "text" and isinstance(part.get("text"), str):
        return {"type": "text", "text": part["text"]}
    if kind == "image_url":
        image = part.get("image_url")
        url = image.get("url") if isinstance(image, dict) else image
        if isinstance(url, str) and url:
            return {"type": "image_url", "url": url}
        raise InvalidRequest(f"{where}.image_url must be {{\"url\": \"data:... or a file path\"}}, got {image!r}",
                             f"{where}.image_url")
    raise InvalidRequest(f"{where} must be {{\"type\": \"text\", \"text\": ...}} or {{\"type\": \"image_url\", "
                         f"\"image_url\": {{\"url\": ...}}}}, got {part!r}"[:500], where)


class APIError(Exception):
    """An error the server answers with `status` and OpenAI's error body (a 404 model_not_found, a 401, ...);
    InvalidRequest is the 400 one."""

    def __init__(self, status: int, message: str, param: str | None = None, code: str | None = None,
                 kind: str = "invalid_request_error", headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.message, self.param, self.code, self.kind = status, message, param, code, kind
        self.headers = headers or {}


def model_not_found(name: str) -> APIError:
    return APIError(404, f"The model `{name}` does not exist or you do not have access to it.", "model",
                    "model_not_found")


# ----------------------------------------------------------------------------- responses


def request_id(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex}"


def usage(prompt_tokens: int, completion_tokens: int) -> dict[str, int]:
    return {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens}


def error_body(message: str, param: str | None = None, code: str | None = None,
               kind: str = "invalid_request_error") -> dict[str, Any]:
    """OpenAI's error body."""
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}


def _envelope(id: str, kind: str, model: str, created: int | None) -> dict[str, Any]:
    return {"id": id, "object": kind, "created": created or int(time.time()), "model": model,
            "system_fingerprint": None}


def completion_response(id: str, model: str, choices: list[dict], usage: dict, created: int | None = None) -> dict:
    """choices: [{"index", "text", "logprobs", "finish_reason"}]."""
    return {**_envelope(id, "text_completion", model, created), "choices": choices, "usage": usage}


def completion_chunk(id: str, model: str, created: int, choice: dict | None = None,
                     usage: dict | None = None, include_usage: bool = False) -> dict:
    """One stream chunk: one choice's new text ({"index", "text", "logprobs", "finish_reason"}), or, with
    stream_options.include_usage, the last chunk's usage (no choices); the others carry "usage": null."""
    chunk = {**_envelope(id, "text_completion", model, created), "choices": [choice] if choice else []}
    if include_usage:
        chunk["usage"] = usage
    return chunk


def chat_response(id: str, model: str, choices: list[dict], usage: dict, created: int | None = None) -> dict:
    """choices: [{"index", "text", "logprobs", "finish_reason"}] -> OpenAI's assistant messages."""
    return {**_envelope(id, "chat.completion", model, created), "usage": usage, "choices": [
        {"index": c["index"], "message": {"role": "assistant", "content": c["text"], "refusal": None},
         "logprobs": c["logprobs"], "finish_reason": c["finish_reason"]} for c in choices]}


def chat_chunk(id: str, model: str, created: int, index: int | None = None, delta: dict | None = None,
               logprobs: dict | None = None, finish_reason: str | None = None, usage: dict | None = None,
               include_usage: bool = False) -> dict:
    """One stream chunk: a choice's delta ({"role": "assistant", "content": ""} first, then {"content": ...},
    then {} with its finish_reason), or the usage chunk (no choices)."""
    choices = [] if index is None else [{"index": index, "delta": delta or {}, "logprobs": logprobs,
                                         "finish_reason": finish_reason}]
    chunk = {**_envelope(id, "chat.completion.chunk", model, created), "choices": choices}
    if include_usage:
        chunk["usage"] = usage
    return chunk


def chat_logprobs(entries: list[tuple[str, float, list[tuple[str, float]] | None]]) -> dict:
    """[(token text, logprob, [(alternative text, logprob)])] -> chat's {"content": [...]}."""
    def one(text: str, logprob: float) -> dict:
        return {"token": text, "logprob": logprob, "bytes": list(text.encode("utf-8"))}
    return {"content": [{**one(text, lp), "top_logprobs": [one(t, p) for t, p in top or []]}
                        for text, lp, top in entries], "refusal": None}


def completion_logprobs(entries: list[tuple[str, float, list[tuple[str, float]] | None]], offset: int = 0) -> dict:
    """[(token text, logprob, [(alternative text, logprob)])] -> completions' {"tokens", "token_logprobs",
    "top_logprobs", "text_offset"} (offsets count from `offset`, the text already sent)."""
    offsets, at = [], offset
    for text, _, _ in entries:
        offsets.append(at)
        at += len(text)
    return {"tokens": [text for text, _, _ in entries], "token_logprobs": [lp for _, lp, _ in entries],
            "top_logprobs": [dict(top) if top is not None else None for _, _, top in entries],
            "text_offset": offsets}


def embedding_response(model: str, vectors: np.ndarray, encoding_format: str, prompt_tokens: int) -> dict:
    """vectors (N, D) float32 -> OpenAI's list of embeddings (floats, or base64 of little-endian float32)."""
    def encode(row: np.ndarray):
        if encoding_format == "base64":
            return base64.b64encode(row.astype("<f4").tobytes()).decode("ascii")
        return row.astype(np.float32).tolist()
    return {"object": "list", "model": model,
            "data": [{"object": "embedding", "index": i, "embedding": encode(row)} for i, row in enumerate(vectors)],
            "usage": {"prompt_tokens": prompt_tokens, "total_tokens": prompt_tokens}}
