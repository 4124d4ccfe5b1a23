"""Whisper over HTTP: OpenAI's `POST /v1/audio/transcriptions` and `/v1/audio/translations`, on zoo.transcribe.

    app.include_router(audio_router({"whisper-base": model}, options={"beam_size": 5}))

    client.audio.transcriptions.create(model="whisper-base", file=open("talk.flac", "rb"),
                                       response_format="verbose_json", timestamp_granularities=["word"])

A request is a multipart upload with OpenAI's fields: `file` (any audio data.audio_io.load_audio decodes: wav,
flac, ogg, mp3, ...), `model`, `language` (a code, or a name), `prompt`, `temperature`, `response_format`
(json | text | srt | vtt | verbose_json) and `timestamp_granularities[]` (segment and/or word); one extension,
`vad_filter` (true | false, faster-whisper's and speaches' name), transcribes only the speech Silero VAD finds
(it needs the silero-vad package). The translation endpoint takes the same fields and translates into English
(zoo.transcribe's task "translate").

Each request is one zoo.transcribe call on the decoded waveform with openai-whisper's options: language,
initial_prompt = prompt, temperature = the fallback schedule from `temperature` up to 1.0 in steps of 0.2 (the
`whisper` command's), word_timestamps when `word` is asked for, vad_filter; `options` of audio_router adds
server-wide zoo.transcribe options (beam_size, vad_parameters, thresholds, ...) under every request's.

Responses, as OpenAI's:
- json: {"text", "usage": {"type": "duration", "seconds"}}; text: the text and a newline (text/plain);
- verbose_json: {"task", "language" (its English name, "english"), "duration" (s), "text", "segments": [{"id",
  "seek", "start", "end", "text", "tokens", "temperature", "avg_logprob", "compression_ratio",
  "no_speech_prob"}], "words": [{"word", "start", "end"}], "usage"}; "segments" unless only words were asked for,
  "words" when they were;
- srt and vtt: the subtitles zoo transcribe writes (zoo.generation.transcripts.render), cued by words when
  words were asked for, as the command line with --word_timestamps True.
The text is stripped of the space Whisper starts it with, and so is each word; segments' texts are as decoded.
Unlike OpenAI's API, word timestamps are taken with every format (OpenAI's wants verbose_json).

Errors are zoo.serving.requests.InvalidRequest, each naming its field (the server answers 400 with OpenAI's
error body): no file, an empty or undecodable one, a file over `max_bytes`, an unknown response_format,
granularity or language, a temperature outside [0, 1], a model not served or not a Whisper model.

Transcription runs in a worker thread (the event loop goes on serving other requests), one request at a time
per model: a lock per model, taken in the worker once the upload is decoded, so a bad file is refused at once
even while its model is busy. Nothing is batched across requests (the text Engine's continuous batching is for
decoder-only models).
"""
from __future__ import annotations

import math
import os
import tempfile
import threading
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

import torch
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from torch import nn

from data.audio_io import SAMPLE_RATE, load_audio
from data.vad import silero_weights_path, vad_options
from data.whisper_tokenizer import LANGUAGES, TO_LANGUAGE_CODE
from zoo.generation.transcribe import transcribe
from zoo.generation.transcribe_options import TranscribeOptions, check_decode_options, fallback_temperatures
from zoo.generation.transcripts import render
from zoo.generation.whisper_decode import DecodingOptions
from zoo.serving.requests import InvalidRequest

RESPONSE_FORMATS = ("json", "text", "srt", "vtt", "verbose_json")
GRANULARITIES = ("segment", "word")
TEMPERATURE_INCREMENT = 0.2  # the fallback schedule's step (openai-whisper's command line)
MAX_BYTES = 25 * 1024 * 1024  # OpenAI's limit on an upload
SEGMENT_FIELDS = ("id", "seek", "start", "end", "text", "tokens", "temperature", "avg_logprob", "compression_ratio",
                  "no_speech_prob")
# zoo.transcribe options each request sets from its fields, so not server options.
PER_REQUEST = ("language", "task", "initial_prompt", "temperature", "word_timestamps")


@dataclass(frozen=True)
class AudioRequest:
    """One request's fields, checked (OpenAI's names; `granularities` from timestamp_granularities[])."""
    model: str
    task: str = "transcribe"
    language: str | None = None
    prompt: str | None = None
    temperature: float = 0.0
    response_format: str = "json"
    granularities: frozenset[str] = frozenset()
    vad_filter: bool | None = None  # None: the server's options decide

    @property
    def words(self) -> bool:
        return "word" in self.granularities

    def transcribe_options(self) -> dict[str, Any]:
        """zoo.transcribe's keyword options for this request (the server's options go under them)."""
        options = dict(task=self.task, language=self.language, initial_prompt=self.prompt,
                       temperature=fallback_temperatures(self.temperature, TEMPERATURE_INCREMENT))
        if self.words:
            options["word_timestamps"] = True
        if self.vad_filter is not None:
            options["vad_filter"] = self.vad_filter
        return options


def audio_router(models: Mapping[str, nn.Module], *, options: Mapping[str, Any] | None = None,
                 max_bytes: int = MAX_BYTES) -> APIRouter:
    """The two audio endpoints for `models` (served name -> loaded zoo model; only Whisper models transcribe).

    options: zoo.transcribe keyword options for every request (beam_size, best_of, vad_filter,
    vad_parameters, compression_ratio_threshold, ...), checked here; the fields a request sets (language, task,
    prompt, temperature, word timestamps) cannot be among them. max_bytes: the largest upload taken."""
    server = server_options(options)
    locks = {name: threading.Lock() for name in models}
    router = APIRouter()

    def run(name: str, data: bytes, filename: str, request: AudioRequest) -> tuple[dict, float]:
        wave = decode_upload(data, filename)
        with locks[name]:
            result = transcribe(models[name], wave, **{**server, **request.transcribe_options()})
        return result, wave.shape[0] / SAMPLE_RATE

    async def handle(http: Request, task: str) -> Response:
        form = await read_form(http)
        request = parse_request(form, task)
        log = getattr(http.state, "log", None)  # the app's request log (zoo.serving.app's middleware), if any
        log = log if isinstance(log, dict) else {}
        log.update(model=request.model)
        whisper_model(models, request.model)
        upload = form.get("file")
        if not isinstance(upload, UploadFile):
            raise InvalidRequest("file is missing: expected an audio file uploaded as multipart/form-data field "
                                 "'file'", param="file")
        data = await read_upload(upload, max_bytes)
        result, duration = await run_in_threadpool(run, request.model, data, upload.filename or "", request)
        log.update(audio_seconds=round(duration, 3))
        return respond(result, duration, request)

    @router.post("/v1/audio/transcriptions")
    async def transcriptions(http: Request) -> Response:
        return await handle(http, "transcribe")

    @router.post("/v1/audio/translations")
    async def translations(http: Request) -> Response:
        return await handle(http, "translate")

    return router


def server_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The server-wide zoo.transcribe options, checked as zoo.transcribe checks them (ValueError or TypeError,
    naming the option) before any request comes."""
    options = dict(options or {})
    taken = sorted(set(options) & set(PER_REQUEST))
    if taken:
        raise ValueError(f"audio_router options {taken} are set by each request; leave them out")
    loop_names = {f.name for f in fields(TranscribeOptions)} - {"one_window", "verbose"}  # no printing here
    decode_names = {f.name for f in fields(DecodingOptions)} - {"temperature", "prompt"}
    known = loop_names | decode_names | {"vad_filter", "vad_parameters", "compile"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise ValueError(f"unknown audio_router options {unknown}; expected zoo.transcribe's: {sorted(known)}")
    loop = TranscribeOptions(**{k: v for k, v in options.items() if k in loop_names})
    check_decode_options({k: v for k, v in options.items() if k in decode_names}, loop)
    vad_options(options.get("vad_parameters"))
    if options.get("vad_filter") and not vad_available():
        raise ValueError("audio_router option vad_filter=True needs Silero VAD's weights: pip install silero-vad")
    return options


async def read_form(http: Request) -> FormData:
    """The request's multipart (or url-encoded) fields; a body that is neither holds none."""
    try:
        return await http.form()
    except Exception as error:  # noqa: BLE001 - starlette's parsers raise several kinds for a malformed body
        raise InvalidRequest(f"the request body is not a readable multipart/form-data upload ({error}); expected "
                             "the audio as field 'file'", param="file") from None


def _text(form: FormData, name: str) -> str | None:
    value = form.get(name)
    if value is not None and not isinstance(value, str):
        raise InvalidRequest(f"{name} must be a text field, got a file upload", param=name)
    return value


async def read_upload(upload: UploadFile, max_bytes: int) -> bytes:
    """The uploaded bytes, refused (naming `file`) past max_bytes, by the size starlette spooled where it says
    one, before they are read into memory."""
    data = b"" if upload.size is not None and upload.size > max_bytes else await upload.read(max_bytes + 1)
    if (upload.size is not None and upload.size > max_bytes) or len(data) > max_bytes:
        size = f"{upload.size} bytes" if upload.size is not None else "over the limit"
        raise InvalidRequest(f"file {upload.filename!r} is {size}; the limit is {max_bytes} bytes", param="file")
    return data


def parse_request(form: FormData, task: str) -> AudioRequest:
    """The request's fields, checked, each error naming its field (the file is read later)."""
    model = _text(form, "model")
    if not model:
        raise InvalidRequest("model is missing: expected the name of a served Whisper model", param="model")
    response_format = _text(form, "response_format") or "json"
    if response_format not in RESPONSE_FORMATS:
        raise InvalidRequest(f"response_format={response_format!r} is not supported; expected one of "
                             f"{', '.join(RESPONSE_FORMATS)}", param="response_format")
    granularities = [g for key in ("timestamp_granularities[]", "timestamp_granularities")
                     for g in form.getlist(key)]
    bad = [g for g in granularities if g not in GRANULARITIES]
    if bad:
        raise InvalidRequest(f"timestamp_granularities[] holds {bad[0]!r}; expected {' and/or '.join(GRANULARITIES)}",
                             param="timestamp_granularities[]")
    return AudioRequest(model=model, task=task, language=parse_language(_text(form, "language")),
                        prompt=_text(form, "prompt") or None,
                        temperature=parse_temperature(_text(form, "temperature")), response_format=response_format,
                        granularities=frozenset(granularities), vad_filter=parse_vad(_text(form, "vad_filter")))


def parse_language(text: str | None) -> str | None:
    """An ISO-639-1 code (OpenAI's) or a language's name, any case -> Whisper's code; empty: detect it."""
    if not text:
        return None
    code = TO_LANGUAGE_CODE.get(text.lower(), text.lower())
    if code not in LANGUAGES:
        raise InvalidRequest(f"language={text!r} is not a language Whisper knows; expected an ISO-639-1 code "
                             "such as 'en' or 'de' (or its name)", param="language")
    return code


def parse_temperature(text: str | None) -> float:
    if text is None or text == "":
        return 0.0
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.0 <= value <= 1.0:
        raise InvalidRequest(f"temperature={text!r} is invalid; expected a number between 0 and 1", param="temperature")
    return value


def parse_vad(text: str | None) -> bool | None:
    """vad_filter (an extension of OpenAI's fields): true | false, and true only where Silero VAD is installed."""
    if text is None or text == "":
        return None
    if text.lower() not in ("true", "false", "1", "0"):
        raise InvalidRequest(f"vad_filter={text!r} is invalid; expected true or false", param="vad_filter")
    on = text.lower() in ("true", "1")
    if on and not vad_available():
        raise InvalidRequest("vad_filter=true is not available on this server: Silero VAD's weights come with the "
                             "silero-vad package, which is not installed", param="vad_filter")
    return on


def vad_available() -> bool:
    """Whether Silero VAD's weights are installed (the silero-vad package), so vad_filter can be on."""
    try:
        silero_weights_path()
    except (ImportError, FileNotFoundError):
        return False
    return True


def whisper_model(models: Mapping[str, nn.Module], name: str) -> nn.Module:
    """The served model of that name, if it is a Whisper model (a 400 naming `model` if not)."""
    if name not in models:
        raise InvalidRequest(f"model {name!r} is not served here; served: {', '.join(models) or 'none'}",
                             param="model", code="model_not_found")
    model = models[name]
    family = getattr(getattr(model, "config", None), "family", None)
    if family != "whisper":
        raise InvalidRequest(f"model {name!r} ({family or type(model).__name__}) does not transcribe audio; the "
                             "audio endpoints take a Whisper model", param="model")
    return model


def decode_upload(data: bytes, filename: str) -> torch.Tensor:
    """The uploaded bytes as a 16 kHz waveform (samples,), by data.audio_io.load_audio (through a temporary
    file, whose suffix is the upload's); an empty or undecodable upload is a 400 naming `file`."""
    if not data:
        raise InvalidRequest(f"file {filename!r} is empty (0 bytes); expected audio", param="file")
    suffix = os.path.splitext(os.path.basename(filename))[1][:16]
    with tempfile.TemporaryDirectory(prefix="zoo-audio-") as folder:
        path = os.path.join(folder, "upload" + suffix)
        with open(path, "wb") as out:
            out.write(data)
        try:
            return load_audio(path)
        except ValueError as error:  # UnreadableAudioError, no samples, NaN or infinite samples
            why = str(error).replace(repr(path), "").replace(path, "")
            raise InvalidRequest(f"file {filename!r} ({len(data)} bytes) could not be decoded as audio: {why}",
                                 param="file") from None


def _number(value: float) -> float | None:
    """A float JSON can hold (OpenAI's clients read null where ours would be NaN or infinite)."""
    return value if math.isfinite(value) else None


def verbose_body(result: dict, duration: float, request: AudioRequest) -> dict:
    """OpenAI's verbose_json from zoo.transcribe's result."""
    language = "en" if request.task == "translate" else result["language"]
    body: dict[str, Any] = {"task": request.task, "language": LANGUAGES.get(language, language),
                            "duration": duration, "text": result["text"].strip()}
    if not request.granularities or "segment" in request.granularities:
        body["segments"] = [{k: _number(s[k]) if isinstance(s[k], float) else s[k] for k in SEGMENT_FIELDS}
                            for s in result["segments"]]
    if request.words:
        body["words"] = [{"word": w["word"].strip(), "start": w["start"], "end": w["end"]}
                         for s in result["segments"] for w in s.get("words", [])]
    return body


def respond(result: dict, duration: float, request: AudioRequest) -> Response:
    """The response in the request's format."""
    usage = {"type": "duration", "seconds": duration}
    fmt = request.response_format
    if fmt == "text":
        return PlainTextResponse(result["text"].strip() + "\n")
    if fmt in ("srt", "vtt"):
        return PlainTextResponse(render(result, fmt))
    if fmt == "verbose_json":
        return JSONResponse({**verbose_body(result, duration, request), "usage": usage})
    return JSONResponse({"text": result["text"].strip(), "usage": usage})
