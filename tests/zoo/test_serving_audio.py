"""The audio endpoints (zoo/serving/audio.py) over loopback HTTP: the real `openai` client's transcriptions and
translations in every response format equal zoo.transcribe's result on the same file and options (text,
segments' times and text, words, subtitles); uploads in wav, flac and mp3; bad requests answered 400 with
OpenAI's error body naming the field; transcription off the event loop, one request at a time per model. The
models are tiny random Whisper models (tests.helpers.tiny_openai_whisper), plus the real Whisper base on a
shipped human recording where it is installed."""
import contextlib
import json
import re
import socket
import threading
import time
import urllib.error
import urllib.request
import uuid

import fastapi
import numpy as np
import openai
import pytest
import soundfile
import torch
import uvicorn

import zoo
from data.speech import SPEECH_TINY
from tests.helpers import gated_chirp, tiny_openai_whisper
from zoo.generation.transcripts import render
from zoo.serving import audio
from zoo.serving.audio import audio_router
from zoo.serving.requests import InvalidRequest

# Random weights: no fallbacks, no silence, short windows (fast, and the same in both calls).
SERVER = dict(compression_ratio_threshold=None, logprob_threshold=None, no_speech_threshold=None, sample_len=40)
SCHEDULE = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)  # temperature 0's fallbacks, as the `whisper` command's


def app_for(models, **kwargs) -> fastapi.FastAPI:
    """A FastAPI app with the audio router, InvalidRequest mapped to OpenAI's 400 body (as the server's app)."""
    app = fastapi.FastAPI()
    app.include_router(audio_router(models, **kwargs))

    @app.exception_handler(InvalidRequest)
    async def invalid(_, error: InvalidRequest):
        return fastapi.responses.JSONResponse(status_code=400, content={"error": {
            "message": str(error), "type": "invalid_request_error", "param": error.param, "code": error.code}})

    return app


@contextlib.contextmanager
def serving(app):
    """uvicorn serving `app` on a free loopback port, in a thread; yields its base URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


def post(url: str, fields: dict, file: tuple[str, bytes] | None = None, timeout: float = 60) -> tuple[int, bytes]:
    """A multipart POST with the standard library (bad requests the openai client would not send)."""
    boundary = uuid.uuid4().hex
    parts = []
    for name, values in fields.items():
        for value in values if isinstance(values, list) else [values]:
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    if file is not None:
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{file[0]}"\r\n'
                     f"Content-Type: application/octet-stream\r\n\r\n".encode() + file[1] + b"\r\n")
    body = b"".join(parts) + f"--{boundary}--\r\n".encode()
    request = urllib.request.Request(url, data=body, method="POST",
                                     headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@pytest.fixture(scope="module")
def whisper_model():
    return tiny_openai_whisper(51865, eot_scale=12)[1]


@pytest.fixture(scope="module")
def audio_files(tmp_path_factory):
    """Six seconds of gated chirp in noise as wav, flac and mp3 (16 kHz), and 1 s of it at 8 kHz in wav."""
    folder = tmp_path_factory.mktemp("audio")
    wave = gated_chirp(6)
    files = {}
    for fmt in ("wav", "flac", "mp3"):
        files[fmt] = folder / f"chirp.{fmt}"
        soundfile.write(files[fmt], wave, 16000, format=fmt.upper())
    files["wav8k"] = folder / "chirp8k.wav"
    soundfile.write(files["wav8k"], wave[:16000:2], 8000)
    return files


@pytest.fixture(scope="module")
def server(whisper_model):
    models = {"whisper": whisper_model, "gpt": zoo.create_model("gpt_tiny")}
    with serving(app_for(models, options=SERVER)) as url:
        yield url


@pytest.fixture(scope="module")
def client(server):
    return openai.OpenAI(base_url=server + "/v1", api_key="unused", max_retries=0, timeout=120)


def expected(model, path, **options):
    """zoo.transcribe's result for what the endpoint is sent (the options it is documented to pass)."""
    return zoo.transcribe(model, str(path), **{**SERVER, "temperature": SCHEDULE, **options})


def upload(path):
    return (path.name, path.read_bytes())


# ------------------------------------------------------------------------ every format, through the openai client


def test_json_and_text(client, whisper_model, audio_files):
    want = expected(whisper_model, audio_files["wav"], language="en", initial_prompt="Hello there.")
    assert want["text"].strip()  # random weights say something
    got = client.audio.transcriptions.create(model="whisper", file=upload(audio_files["wav"]), language="en",
                                             prompt="Hello there.")
    assert got.text == want["text"].strip()
    assert got.usage.seconds == pytest.approx(6.0)
    text = client.audio.transcriptions.create(model="whisper", file=upload(audio_files["wav"]), language="en",
                                              prompt="Hello there.", response_format="text")
    assert text == want["text"].strip() + "\n"


def _same_segments(got, want) -> None:
    assert len(got) == len(want["segments"]) > 0
    for g, w in zip(got, want["segments"]):
        g = g if isinstance(g, dict) else g.model_dump()
        assert {k: g[k] for k in audio.SEGMENT_FIELDS} == {k: w[k] for k in audio.SEGMENT_FIELDS}


def test_verbose_json_with_segments_and_words(client, whisper_model, audio_files):
    want = expected(whisper_model, audio_files["wav"], language="en", word_timestamps=True)
    got = client.audio.transcriptions.create(model="whisper", file=upload(audio_files["wav"]), language="en",
                                             response_format="verbose_json",
                                             timestamp_granularities=["word", "segment"])
    assert (got.text, got.language, got.duration) == (want["text"].strip(), "english", pytest.approx(6.0))
    assert got.model_extra["task"] == "transcribe"
    _same_segments(got.segments, want)
    words = [(w["word"].strip(), w["start"], w["end"]) for s in want["segments"] for w in s["words"]]
    assert words and [(w.word, w.start, w.end) for w in got.words] == words


def test_verbose_json_words_alone_and_segments_alone(client, whisper_model, audio_files):
    got = client.audio.transcriptions.create(model="whisper", file=upload(audio_files["wav"]), language="en",
                                             response_format="verbose_json", timestamp_granularities=["word"])
    assert got.segments is None and got.words  # OpenAI's: words only when only words are asked for
    plain = expected(whisper_model, audio_files["wav"], language="en")
    got = client.audio.transcriptions.create(model="whisper", file=upload(audio_files["wav"]), language="en",
                                             response_format="verbose_json")
    assert got.words is None and got.text == plain["text"].strip()
    _same_segments(got.segments, plain)


@pytest.mark.parametrize("fmt", ["srt", "vtt"])
@pytest.mark.parametrize("words", [False, True], ids=["segments", "words"])
def test_subtitles(client, whisper_model, audio_files, fmt, words):
    """The subtitles `zoo transcribe` writes for the same result: cued by segments, or by words when asked."""
    want = expected(whisper_model, audio_files["flac"], language="en", **({"word_timestamps": True} if words else {}))
    got = client.audio.transcriptions.create(model="whisper", file=upload(audio_files["flac"]), language="en",
                                             response_format=fmt,
                                             **({"timestamp_granularities": ["word"]} if words else {}))
    assert got == render(want, fmt)
    stamp = r"\d\d:\d\d\.\d{3}" if fmt == "vtt" else r"\d\d:\d\d:\d\d,\d{3}"
    assert re.match((r"WEBVTT\n\n" if fmt == "vtt" else r"1\n") + f"{stamp} --> {stamp}\n", got), got


def test_translations(client, whisper_model, audio_files):
    want = expected(whisper_model, audio_files["wav"], task="translate", language="es")
    assert want["text"] != expected(whisper_model, audio_files["wav"], language="es")["text"]
    got = client.audio.translations.create(model="whisper", file=upload(audio_files["wav"]),
                                           response_format="verbose_json", extra_body={"language": "es"})
    assert (got.text, got.language, got.model_extra["task"]) == (want["text"].strip(), "english", "translate")
    _same_segments(got.segments, want)
    srt = client.audio.translations.create(model="whisper", file=upload(audio_files["wav"]), response_format="srt",
                                           extra_body={"language": "es"})
    assert srt == render(want, "srt")


def test_language_is_detected_when_not_given(client, whisper_model, audio_files):
    want = expected(whisper_model, audio_files["wav"])
    got = client.audio.transcriptions.create(model="whisper", file=upload(audio_files["wav"]),
                                             response_format="verbose_json")
    assert got.language == audio.LANGUAGES[want["language"]] and got.text == want["text"].strip()


@pytest.mark.parametrize("fmt", ["mp3", "wav8k"])
def test_other_audio_files(client, whisper_model, audio_files, fmt):
    """Whatever data.audio_io.load_audio decodes: mp3, and wav at 8 kHz (resampled)."""
    want = expected(whisper_model, audio_files[fmt], language="en")
    got = client.audio.transcriptions.create(model="whisper", file=upload(audio_files[fmt]), language="en",
                                             response_format="verbose_json")
    assert got.text == want["text"].strip()
    _same_segments(got.segments, want)


def test_temperature_starts_the_fallback_schedule(whisper_model, audio_files):
    """temperature t: zoo.transcribe's temperature=(t, t + 0.2, ... <= 1)."""
    request = audio.parse_request(_form(model="whisper", temperature="0.5"), "transcribe")
    assert request.transcribe_options()["temperature"] == pytest.approx((0.5, 0.7, 0.9))
    default = audio.parse_request(_form(model="whisper"), "transcribe")
    assert default.transcribe_options()["temperature"] == pytest.approx(SCHEDULE)


def _form(**fields):
    from starlette.datastructures import FormData

    return FormData(list(fields.items()))


HUMAN = SPEECH_TINY / "asr" / "human" / "conf-now-recording.flac"  # Asterisk's prompt, 2.3 s, 16 kHz


@pytest.mark.skipif(not audio.vad_available(), reason="silero-vad is not installed")
def test_vad_filter(server, whisper_model, audio_files):
    """vad_filter=true (an extension field): zoo.transcribe(vad_filter=True)'s result; noise alone: no segments."""
    for path in (HUMAN, audio_files["wav"]):
        want = expected(whisper_model, path, language="en", vad_filter=True)
        status, body = post(server + "/v1/audio/transcriptions", {"model": "whisper", "language": "en",
                            "vad_filter": "true", "response_format": "verbose_json"}, upload(path))
        assert status == 200
        got = json.loads(body)
        assert got["text"] == want["text"].strip()
        assert [{k: s[k] for k in audio.SEGMENT_FIELDS} for s in got["segments"]] == \
            [{k: s[k] for k in audio.SEGMENT_FIELDS} for s in want["segments"]]
        assert bool(got["segments"]) == (path == HUMAN)


# ------------------------------------------------------------------------ bad requests


def _error(status: int, body: bytes) -> dict:
    assert status == 400, body
    error = json.loads(body)["error"]
    assert set(error) == {"message", "type", "param", "code"} and error["type"] == "invalid_request_error"
    return error


BAD = {
    "no file": ({"model": "whisper"}, None, "file", "file is missing"),
    "empty file": ({"model": "whisper"}, ("empty.wav", b""), "file", "empty (0 bytes)"),
    "not audio": ({"model": "whisper"}, ("notes.wav", b"these are not the samples you want" * 20), "file",
                  "could not be decoded"),
    "no samples": ({"model": "whisper"}, "SILENT", "file", "0 samples"),
    "unknown format": ({"model": "whisper", "response_format": "docx"}, "OK", "response_format", "docx"),
    "unknown granularity": ({"model": "whisper", "timestamp_granularities[]": ["word", "letter"]}, "OK",
                            "timestamp_granularities[]", "letter"),
    "no model": ({}, "OK", "model", "model is missing"),
    "unknown model": ({"model": "whisper-large"}, "OK", "model", "not served"),
    "not whisper": ({"model": "gpt"}, "OK", "model", "does not transcribe"),
    "temperature": ({"model": "whisper", "temperature": "1.5"}, "OK", "temperature", "between 0 and 1"),
    "language": ({"model": "whisper", "language": "klingon"}, "OK", "language", "klingon"),
    "vad_filter": ({"model": "whisper", "vad_filter": "maybe"}, "OK", "vad_filter", "true or false"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_requests_name_the_field(server, audio_files, tmp_path, case):
    fields, file, param, words = BAD[case]
    if file == "OK":
        file = upload(audio_files["wav"])
    elif file == "SILENT":
        soundfile.write(tmp_path / "none.wav", np.zeros(0, dtype=np.float32), 16000)
        file = upload(tmp_path / "none.wav")
    for endpoint in ("transcriptions", "translations"):
        error = _error(*post(f"{server}/v1/audio/{endpoint}", fields, file))
        assert error["param"] == param and words in error["message"], error
    if case == "unknown model":
        assert error["code"] == "model_not_found"


def test_the_openai_client_sees_the_400(client):
    with pytest.raises(openai.BadRequestError) as caught:
        client.audio.transcriptions.create(model="gpt", file=("a.wav", b"RIFF"))
    assert caught.value.body["param"] == "model" and "'gpt'" in caught.value.body["message"]


def test_a_json_body_is_refused_naming_file(server):
    request = urllib.request.Request(server + "/v1/audio/transcriptions", data=b'{"model": "whisper"}',
                                     headers={"Content-Type": "application/json"}, method="POST")
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=30)
    assert json.loads(caught.value.read())["error"]["param"] in ("file", "model")


def test_an_upload_over_the_limit_is_refused(whisper_model, audio_files):
    with serving(app_for({"whisper": whisper_model}, options=SERVER, max_bytes=1000)) as url:
        error = _error(*post(url + "/v1/audio/transcriptions", {"model": "whisper"}, upload(audio_files["wav"])))
    assert error["param"] == "file" and "limit is 1000 bytes" in error["message"]


def test_server_options_are_checked_up_front(whisper_model):
    with pytest.raises(ValueError, match="language"):
        audio_router({"w": whisper_model}, options={"language": "en"})
    with pytest.raises(ValueError, match="beam_sizes"):
        audio_router({"w": whisper_model}, options={"beam_sizes": 5})
    with pytest.raises(ValueError, match="no_speech_threshold"):
        audio_router({"w": whisper_model}, options={"no_speech_threshold": 2.0})
    with pytest.raises(ValueError, match="min_silence"):
        audio_router({"w": whisper_model}, options={"vad_parameters": {"min_silence": 1}})


# ------------------------------------------------------------------------ off the event loop, one at a time per model


def test_transcription_runs_in_a_worker_one_per_model(whisper_model, audio_files, monkeypatch):
    """While two requests wait on a slow transcription of one model, the server answers a third request, and
    the model's two transcriptions never overlap; a second model's does not wait for them."""
    release, running, overlaps, lock = threading.Event(), [], [], threading.Lock()

    def slow(model, wave, **options):
        with lock:
            running.append(model)
            overlaps.append(running.count(model))
        release.wait(timeout=30)
        with lock:
            running.remove(model)
        return {"text": " done", "segments": [], "language": "en"}

    monkeypatch.setattr(audio, "transcribe", slow)
    other = tiny_openai_whisper(51865, eot_scale=12, seed=1)[1]
    with serving(app_for({"a": whisper_model, "b": other}, options=SERVER)) as url:
        results = {}

        def call(key, name):
            results[key] = post(url + "/v1/audio/transcriptions", {"model": name}, upload(audio_files["wav"]))

        threads = [threading.Thread(target=call, args=(key, name)) for key, name in (("a1", "a"), ("a2", "a"))]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 20
        while not running and time.monotonic() < deadline:
            time.sleep(0.01)
        assert running == [whisper_model]
        # the loop is free: a bad request is answered, and model b transcribes beside a
        status, _ = post(url + "/v1/audio/transcriptions", {"model": "a", "response_format": "docx"},
                         upload(audio_files["wav"]), timeout=10)
        assert status == 400
        call_b = threading.Thread(target=call, args=("b", "b"))
        call_b.start()
        while len(running) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert sorted(map(id, running)) == sorted([id(whisper_model), id(other)])  # a's second one waits
        release.set()
        for thread in [*threads, call_b]:
            thread.join(timeout=30)
    assert max(overlaps) == 1 and len(overlaps) == 3
    assert all(results[key] == (200, b'{"text":"done","usage":{"type":"duration","seconds":6.0}}') for key in results)


# ------------------------------------------------------------------------ the real Whisper base


def test_real_base_transcribes_a_human_recording(whisper_base_ct2):
    """A shipped Asterisk prompt through the endpoint (server defaults): zoo.transcribe's text."""
    torch.set_num_threads(2)
    try:
        base = zoo.from_ct2(whisper_base_ct2)
        path = HUMAN
        want = zoo.transcribe(base, str(path), language="en")
        with serving(app_for({"whisper-base": base})) as url:
            client = openai.OpenAI(base_url=url + "/v1", api_key="unused", max_retries=0, timeout=300)
            got = client.audio.transcriptions.create(model="whisper-base", file=upload(path), language="en")
    finally:
        torch.set_num_threads(1)
    assert got.text == want["text"].strip() and "recorded" in got.text
