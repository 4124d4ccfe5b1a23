"""The OpenAI-compatible HTTP server (FastAPI): every loaded model with its family's endpoints.

    app = create_app({"tiny": load("tiny", "runs/demo/text/model", ServeOptions())}, api_key="sk-local")
    uvicorn.run(app, port=8000)            # scripts/serve.py does this, with SIGTERM draining (zoo.cli.serve)

Endpoints: GET /health (no key needed; 503 while draining, so a load balancer stops sending requests),
GET /v1/models, GET /v1/models/{id}, POST /v1/completions and /v1/chat/completions (zoo.serving.text_routes),
POST /v1/embeddings (BERT, zoo.embed), and /v1/audio/transcriptions and /v1/audio/translations
(zoo.serving.audio's `audio_router(models)`: it transcribes with the Whisper models among them).

Errors are OpenAI's body {"error": {"message", "type", "param", "code"}} on every route: InvalidRequest (from
the engine, the schema or any router) is a 400 naming its field, an unknown model a 404 model_not_found, a full
queue a 429 with Retry-After, a missing or wrong key (with api_key) a 401, a draining server a 503, a failure
inside a request a 500 that ends only that request. One log line per request (logger "zoo.serving.http"):
model, endpoint, status, prompt and completion tokens, time to first token, total latency.

The server holds no state between requests: replicas behind a load balancer need no coordination.
"""
from __future__ import annotations

import asyncio
import hmac
import logging
import math
import threading
import time
from contextlib import asynccontextmanager

import numpy as np
from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

import zoo
from zoo.serving import openai_schema as api
from zoo.serving.audio import audio_router
from zoo.serving.requests import EngineClosed, InvalidRequest, QueueFull
from zoo.serving.served import Embedder, Generator, Served, close_all, find
from zoo.serving.text_routes import read_json, text_router

logger = logging.getLogger("zoo.serving.http")


class Draining:
    """The server's shutdown state: once `start`ed, new requests get 503; in-flight ones finish (each model's
    close, at most `timeout` seconds, then what is left is cancelled)."""

    def __init__(self, models: dict[str, Served]):
        self.models, self.active = models, False
        self._lock = threading.Lock()
        self._done = threading.Event()

    def start(self, timeout: float | None) -> None:
        """Refuse new requests, finish the others (blocks until they are done or cancelled)."""
        with self._lock:
            first, self.active = not self.active, True
        if first:
            close_all(self.models, timeout)
            self._done.set()
        self._done.wait()


def create_app(models: dict[str, Served], *, api_key: str | None = None, shutdown_timeout: float = 30.0) -> FastAPI:
    """The app serving `models` (name -> served model, zoo.serving.served.load). With api_key, every /v1 route
    needs `Authorization: Bearer <api_key>`. On the app's shutdown (lifespan), each model finishes its requests
    for at most shutdown_timeout seconds."""
    draining = Draining(models)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        await asyncio.to_thread(draining.start, shutdown_timeout)

    app = FastAPI(title="zoo", lifespan=lifespan)
    app.state.models, app.state.draining = models, draining
    app.add_middleware(RequestLog)
    _error_handlers(app)
    guard = Depends(_guard(api_key, draining))

    @app.get("/health")
    async def health():
        stats = {name: s.engine.stats for name, s in models.items() if isinstance(s, Generator)}
        body = {"status": "draining" if draining.active else "ok", "models": stats}
        return JSONResponse(body, 503 if draining.active else 200)

    @app.get("/v1/models", dependencies=[guard])
    async def list_models():
        return {"object": "list", "data": [_model_card(s) for s in models.values()]}

    @app.get("/v1/models/{name:path}", dependencies=[guard])
    async def model(name: str):
        if name not in models:
            raise api.model_not_found(name)
        return _model_card(models[name])

    @app.post("/v1/embeddings", dependencies=[guard])
    async def embeddings(request: Request):
        body = api.parse(api.EmbeddingRequest, await read_json(request))
        served = find(models, body.model, (Embedder,), "/v1/embeddings")
        request.state.log.update(model=body.model)
        vectors, tokens = await asyncio.to_thread(_embed, served, body.inputs)
        request.state.log.update(prompt_tokens=tokens)
        return api.embedding_response(body.model, vectors, body.encoding_format, tokens)

    app.include_router(text_router(models), dependencies=[guard])
    app.include_router(audio_router({name: s.model for name, s in models.items()}), dependencies=[guard])
    return app


def _model_card(served: Served) -> dict:
    return {"id": served.name, "object": "model", "created": 0, "owned_by": "zoo", "family": served.family}


def _guard(api_key: str | None, draining: Draining):
    """The dependency of every /v1 route: 503 while draining, 401 without the key."""
    expected = f"Bearer {api_key}".encode() if api_key else None

    async def guard(request: Request) -> None:
        if draining.active:
            raise api.APIError(503, "The server is shutting down and takes no new requests; retry on another "
                               "replica.", kind="server_error", code="shutting_down")
        if expected is not None:
            given = request.headers.get("authorization", "").encode()
            if not hmac.compare_digest(given, expected):
                raise api.APIError(401, "Incorrect or missing API key: send the header `Authorization: Bearer "
                                   "<key>` with the key the server was started with.", code="invalid_api_key")
    return guard


def _embed(served: Embedder, inputs: list[str | list[int]]) -> tuple[np.ndarray, int]:
    """zoo.embed on the inputs (texts tokenized and cut as zoo.embed cuts them) -> (N, D) and the token count."""
    from zoo.sentence_embedding import encode_sentences

    ids = []
    for i, item in enumerate(inputs):
        if isinstance(item, str):
            ids += encode_sentences(served.tokenizer, [item], served.max_length)
        else:
            vocab = served.model.config.vocab_size
            if any(t < 0 or t >= vocab for t in item) or len(item) > served.max_length:
                raise InvalidRequest(f"input[{i}]: token ids must be in [0, {vocab}) and at most "
                                     f"{served.max_length} of them, got {len(item)}", "input")
            ids.append(list(item))
    with served.lock:
        vectors = zoo.embed(served.model, None, ids)
    return vectors.numpy(), sum(map(len, ids))


def _error_handlers(app: FastAPI) -> None:
    def answer(status: int, body: dict, headers: dict | None = None) -> JSONResponse:
        return JSONResponse(body, status, headers=headers)

    @app.exception_handler(api.APIError)
    async def api_error(request, error: api.APIError):
        return answer(error.status, api.error_body(error.message, error.param, error.code, error.kind), error.headers)

    @app.exception_handler(InvalidRequest)
    async def invalid(request, error: InvalidRequest):  # a router's unknown model is OpenAI's 404, as ours
        return answer(404 if error.code == "model_not_found" else 400, api.error_body(str(error), error.param,
                                                                                     error.code))

    @app.exception_handler(QueueFull)
    async def queue_full(request, error: QueueFull):
        return answer(429, api.error_body(str(error), None, "rate_limit_exceeded", "rate_limit_error"),
                      {"Retry-After": str(max(1, math.ceil(error.retry_after)))})

    @app.exception_handler(EngineClosed)
    async def closed(request, error: EngineClosed):
        return answer(503, api.error_body(str(error), None, "shutting_down", "server_error"))

    @app.exception_handler(RequestValidationError)
    async def validation(request, error: RequestValidationError):
        first = error.errors()[0] if error.errors() else {"loc": (), "msg": str(error)}
        loc = [str(part) for part in first["loc"] if part not in ("body", "query", "path", "form")]
        param = ".".join(loc) or None
        return answer(400, api.error_body(f"{param}: {first['msg']}" if param else first["msg"], param))

    @app.exception_handler(HTTPException)
    async def http(request, error: HTTPException):
        kind = "invalid_request_error" if error.status_code < 500 else "server_error"
        return answer(error.status_code, api.error_body(str(error.detail), kind=kind), error.headers)

    @app.exception_handler(Exception)
    async def failure(request, error: Exception):
        logger.exception("request %s %s failed", request.method, request.url.path)
        return answer(500, api.error_body(f"the server failed on this request: {type(error).__name__}: {error}",
                                          kind="server_error"))


class RequestLog:
    """ASGI middleware: one log line per HTTP request once its response is sent (a stream: at its end).
    Handlers add model and token counts to `request.state.log`; the first token's time gives the TTFT."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        start = time.monotonic()
        log: dict = {}
        scope.setdefault("state", {})["log"] = log
        status = [500]

        async def sending(message):
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            first = log.get("first_token")
            ttft = f"{first - start:.3f}s" if first is not None else "-"
            logger.info("model=%s endpoint=%s %s status=%d prompt_tokens=%s completion_tokens=%s ttft=%s "
                        "latency=%.3fs", log.get("model", "-"), scope["method"], scope["path"], status[0],
                        log.get("prompt_tokens", "-"), log.get("completion_tokens", "-"), ttft,
                        time.monotonic() - start)
