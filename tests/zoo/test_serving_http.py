"""The OpenAI-compatible server (zoo.serving.app) on loopback: the real `openai` client parses what the zoo's
Python API gives for the same request (greedy tokens, text, embeddings); concurrent clients, a malformed and a
cancelled request among them, get what they would alone; a full queue answers 429 and loses nothing; 400, 401,
404 and 503 bodies are OpenAI's. Servers run in a thread (uvicorn) on a free port; every client call has a
timeout and every loop a bound; nothing is timed."""
import base64
import contextlib
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
import torch

import zoo
from data.text import KJV_EXTRACT
from data.tokenization import train_bpe
from tests.helpers import one_step_llava, randomize
from zoo.sentence_embedding import load_sentence_model
from zoo.serving.app import create_app
from zoo.serving.engine import Engine
from zoo.serving.served import Generator, ServeOptions, load

openai = pytest.importorskip("openai")
uvicorn = pytest.importorskip("uvicorn")

WAIT = 120  # seconds: the bound on every client call, never reached when the server works
CHATML = ("{%- for message in messages %}{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + "
          "'<|im_end|>' + '\\n' }}{%- endfor %}{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}"
          "{%- endif %}")


def text_model_dir(path: Path, preset: str, chat_template: str | None = CHATML) -> Path:
    tokenizer = train_bpe([Path(KJV_EXTRACT).read_text()[:100_000]], vocab_size=400,
                          special_tokens=["<|endoftext|>", "<|im_start|>", "<|im_end|>"])
    tokenizer.chat_template = chat_template
    randomize(zoo.create_model(preset, vocab_size=tokenizer.vocab_size), std=0.1).save_pretrained(path)
    tokenizer.save(path)
    return path


def bert_dir(path: Path) -> Path:
    zoo.create_model("bert_tiny", vocab_size=40, depth=1).save_pretrained(path)
    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + [f"w{i}" for i in range(35)]
    (path / "vocab.txt").write_text("\n".join(words) + "\n")
    return path


@contextlib.contextmanager
def serving(app):
    """uvicorn on a free loopback port in a thread -> the base URL; stopped on exit."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(400):
        if server.started or not thread.is_alive():
            break
        time.sleep(0.05)
    assert server.started, "the server did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(WAIT)


def client(url: str, key: str = "unused") -> "openai.OpenAI":
    return openai.OpenAI(base_url=f"{url}/v1", api_key=key, timeout=WAIT, max_retries=0)


def post(url: str, path: str, body, headers: dict | None = None) -> tuple[int, dict, dict]:
    """(status, JSON body, headers) of a raw POST (errors included)."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data, {"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            return response.status, json.loads(response.read()), response.headers
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), error.headers


def get(url: str, path: str, headers: dict | None = None) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url + path, headers=headers or {}), timeout=WAIT) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.fixture(scope="module")
def dirs(tmp_path_factory):
    root = tmp_path_factory.mktemp("serving")
    return {"gpt": text_model_dir(root / "gpt", "gpt_tiny"), "llama": text_model_dir(root / "llama", "llama_tiny"),
            "plain": text_model_dir(root / "plain", "gpt_tiny", chat_template=None), "bert": bert_dir(root / "bert")}


@pytest.fixture(scope="module")
def server(dirs):
    options = ServeOptions(slots=6, max_queue=256)
    models = {name: load(name, str(path), options) for name, path in dirs.items()}
    with serving(create_app(models)) as url:
        yield url, models


def alone(served: Generator, prompt: list[int], new: int, stop_ids) -> list[int]:
    """zoo.generate's greedy new tokens for one prompt, up to and with its first stop id."""
    tokens = zoo.generate(served.model, torch.tensor([prompt]), new)[0, len(prompt):].tolist()
    ends = [i for i, t in enumerate(tokens) if t in stop_ids]
    return tokens[:ends[0] + 1] if ends else tokens


def test_completions_equal_zoo_generate(server):
    url, models = server
    for name in ("gpt", "llama"):
        served = models[name]
        ids = served.tokenizer.encode("And God said", add_special_tokens=False)
        want = alone(served, ids, 12, {served.tokenizer.eos_id})
        reply = client(url).completions.create(model=name, prompt="And God said", max_tokens=12, temperature=0,
                                               logprobs=2)
        choice = reply.choices[0]
        assert choice.text == served.tokenizer.decode(want)
        assert choice.logprobs.tokens == [served.tokenizer.decode([t], skip_special_tokens=False) for t in want]
        assert all(len(top) == 2 for top in choice.logprobs.top_logprobs)
        assert choice.finish_reason == ("length" if len(want) == 12 else "stop")
        assert (reply.usage.prompt_tokens, reply.usage.completion_tokens) == (len(ids), len(want))
        # token ids as the prompt, streamed: the same text in pieces
        pieces = [c.choices[0].text for c in client(url).completions.create(
            model=name, prompt=ids, max_tokens=12, temperature=0, stream=True)]
        assert "".join(pieces) == choice.text


def test_chat_with_and_without_streaming_equals_the_template_and_zoo_generate(server):
    url, models = server
    served = models["gpt"]
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "And God said"}]
    ids = served.tokenizer.apply_chat_template(messages, add_generation_prompt=True)
    want = alone(served, ids, 10, set(served.end_of_turn))
    reply = client(url).chat.completions.create(model="gpt", messages=messages, max_completion_tokens=10,
                                                temperature=0, logprobs=True, top_logprobs=3)
    assert reply.choices[0].message.content == served.tokenizer.decode(want)
    assert reply.choices[0].message.role == "assistant"
    assert [e.token for e in reply.choices[0].logprobs.content] == [
        served.tokenizer.decode([t], skip_special_tokens=False) for t in want]
    assert all(len(e.top_logprobs) == 3 for e in reply.choices[0].logprobs.content)
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens) == (len(ids), len(want))
    chunks = list(client(url).chat.completions.create(model="gpt", messages=messages, max_tokens=10, temperature=0,
                                                      stream=True, stream_options={"include_usage": True}))
    assert chunks[0].choices[0].delta.role == "assistant"
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == reply.choices[0].message.content
    assert chunks[-2].choices[0].finish_reason == reply.choices[0].finish_reason
    assert chunks[-1].choices == [] and chunks[-1].usage.completion_tokens == len(want)


def test_stop_strings_are_cut_as_openai_cuts_them(server):
    url, models = server
    served = models["gpt"]
    full = client(url).completions.create(model="gpt", prompt="In the beginning", max_tokens=16, temperature=0)
    text = full.choices[0].text
    stop = text[len(text) // 2:len(text) // 2 + 2]
    assert stop.strip(), text
    cut = client(url).completions.create(model="gpt", prompt="In the beginning", max_tokens=16, temperature=0,
                                         stop=[stop, "never appears"])
    assert cut.choices[0].text == text[:text.find(stop)] and cut.choices[0].finish_reason == "stop"
    streamed = client(url).completions.create(model="gpt", prompt="In the beginning", max_tokens=16, temperature=0,
                                              stop=stop, stream=True)
    assert "".join(c.choices[0].text for c in streamed) == cut.choices[0].text
    assert served.engine.stats["rows_free"] == served.engine.slots


def test_n_seed_and_several_prompts(server):
    url, _ = server
    c = client(url)
    one = c.completions.create(model="llama", prompt="And", max_tokens=6, temperature=1.0, seed=7, n=3)
    again = c.completions.create(model="llama", prompt="And", max_tokens=6, temperature=1.0, seed=7, n=3)
    assert [x.text for x in one.choices] == [x.text for x in again.choices] and len(one.choices) == 3
    batch = c.completions.create(model="llama", prompt=["And", "In the"], max_tokens=4, temperature=0, n=2)
    assert [x.index for x in batch.choices] == [0, 1, 2, 3]
    assert batch.choices[0].text == batch.choices[1].text and batch.choices[2].text == batch.choices[3].text


def test_embeddings_equal_zoo_embed(server, dirs):
    url, _ = server
    model, tokenizer, _ = load_sentence_model(dirs["bert"])
    texts = ["w1 w2 w3", "w4", "w5 w6 w7 w8 w9"]
    want = zoo.embed(model, tokenizer, texts).numpy()
    reply = client(url).embeddings.create(model="bert", input=texts)  # the client asks for base64
    got = np.array([e.embedding for e in reply.data], dtype=np.float32)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-6)
    assert reply.usage.prompt_tokens == sum(len(tokenizer.encode(t)) for t in texts)
    status, body, _ = post(url, "/v1/embeddings", {"model": "bert", "input": "w1 w2 w3", "encoding_format": "float"})
    assert status == 200 and np.allclose(body["data"][0]["embedding"], want[0], atol=1e-6)
    ids = tokenizer.encode("w4")
    status, body, _ = post(url, "/v1/embeddings", {"model": "bert", "input": [ids], "encoding_format": "base64"})
    vector = np.frombuffer(base64.b64decode(body["data"][0]["embedding"]), dtype="<f4")
    assert status == 200 and np.allclose(vector, want[1], atol=1e-6)


def test_models_and_health(server):
    url, models = server
    assert sorted(m.id for m in client(url).models.list()) == sorted(models)
    status, body = get(url, "/health")
    assert status == 200 and body["status"] == "ok" and body["models"]["gpt"]["slots"] == 6


@pytest.mark.parametrize("body,status,param,words", [
    ({"model": "nope", "prompt": "x"}, 404, "model", "does not exist"),
    ({"model": "gpt", "prompt": "x", "temperature": 3}, 400, "temperature", "less than or equal to 2"),
    ({"model": "gpt", "prompt": "x", "max_tokens": 0}, 400, "max_tokens", "greater than or equal to 1"),
    ({"model": "gpt", "prompt": "x", "max_tokens": 300}, 400, "max_tokens", "256 tokens. However, you requested 301"),
    ({"model": "gpt", "prompt": "x", "stop": ["a", "b", "c", "d", "e"]}, 400, "stop", "at most 4"),
    ({"model": "gpt", "prompt": [99999]}, 400, "prompt", "outside the model's vocabulary"),
    ({"model": "gpt"}, 400, "prompt", "field required"),
    ({"model": "bert", "prompt": "x"}, 400, "model", "does not serve /v1/completions"),
    ({"model": "gpt", "prompt": "x", "presence_penalty": 0.5}, 400, "presence_penalty", "not supported"),
])
def test_completion_errors_are_openai_bodies_naming_the_field(server, body, status, param, words):
    url, _ = server
    got, answer, _ = post(url, "/v1/completions", body)
    assert got == status, answer
    error = answer["error"]
    assert error["param"] == param and words in error["message"], error
    assert error["type"] == "invalid_request_error"
    if status == 404:
        assert error["code"] == "model_not_found"


@pytest.mark.parametrize("body,param,words", [
    ({"model": "plain", "messages": [{"role": "user", "content": "hi"}]}, "model", "has no chat template"),
    ({"model": "gpt", "messages": []}, "messages", "at least 1"),
    ({"model": "gpt", "messages": [{"role": "wizard", "content": "hi"}]}, "messages[0].role", "must be one of"),
    ({"model": "gpt", "messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}]},
     "messages[0].content[0]", "text only"),
    ({"model": "gpt", "messages": [{"role": "user", "content": "hi"}], "top_logprobs": 2}, "top_logprobs",
     "needs logprobs"),
    ({"model": "gpt", "messages": [{"role": "user", "content": "hi " * 300}]}, "messages", "no room for a reply"),
])
def test_chat_errors_name_the_field(server, body, param, words):
    url, _ = server
    status, answer, _ = post(url, "/v1/chat/completions", body)
    assert status == 400 and answer["error"]["param"] == param and words in answer["error"]["message"], answer


def test_malformed_json_and_unknown_routes(server):
    url, _ = server
    status, answer, _ = post(url, "/v1/completions", b"{not json")
    assert status == 400 and "not valid JSON" in answer["error"]["message"]
    status, answer = get(url, "/v1/nothing-here")
    assert status == 404 and "error" in answer


def test_the_audio_routes_are_served_and_an_unknown_model_is_a_404(server):
    """The app includes zoo.serving.audio's router: its unknown model is the same 404 model_not_found as the text
    routes' (a multipart upload naming a model no one serves)."""
    url, _ = server
    boundary = "zoo-test-boundary"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\nwhisper-large\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.wav\"\r\n"
            f"Content-Type: audio/wav\r\n\r\nRIFF\r\n--{boundary}--\r\n").encode()
    request = urllib.request.Request(url + "/v1/audio/transcriptions", data=body,
                                     headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=60)
    error = json.loads(caught.value.read())["error"]
    assert caught.value.code == 404 and error["code"] == "model_not_found" and error["param"] == "model"


def test_api_key(dirs):
    models = {"gpt": load("gpt", str(dirs["gpt"]), ServeOptions(slots=2))}
    with serving(create_app(models, api_key="sk-test")) as url:
        with pytest.raises(openai.AuthenticationError) as info:
            client(url, "sk-wrong").models.list()
        assert info.value.status_code == 401 and info.value.body["code"] == "invalid_api_key"
        status, answer, _ = post(url, "/v1/completions", {"model": "gpt", "prompt": "x"})
        assert status == 401 and answer["error"]["type"] == "invalid_request_error"
        assert client(url, "sk-test").completions.create(model="gpt", prompt="And", max_tokens=2).choices
        assert get(url, "/health")[0] == 200  # a load balancer's probe needs no key
    models["gpt"].close(WAIT)


def cancelled_stream(url: str, body: dict, chunks: int) -> list[bytes]:
    """Stream a completion over a raw socket and close it after `chunks` data lines (a client that goes away)."""
    host, port = url.removeprefix("http://").split(":")
    payload = json.dumps({**body, "stream": True}).encode()
    lines = []
    with socket.create_connection((host, int(port)), timeout=WAIT) as sock:
        sock.sendall(b"POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n%s" % (len(payload), payload))
        reader = sock.makefile("rb")
        for line in reader:
            if line.startswith(b"data: "):
                lines.append(line)
                if len(lines) == chunks:
                    break
        reader.close()
    return lines


def test_64_requests_from_16_clients(server):
    """Mixed prompt lengths and limits, half streamed, one malformed, one cancelled halfway by its client: each
    well-formed one gets the greedy tokens it gets alone; the cancelled one's rows are freed early."""
    url, models = server
    served = models["llama"]
    eos = {served.tokenizer.eos_id}
    g = torch.Generator().manual_seed(0)
    jobs = [(torch.randint(3, 400, (int(torch.randint(2, 40, (1,), generator=g)),), generator=g).tolist(),
             int(torch.randint(1, 24, (1,), generator=g))) for _ in range(62)]
    want = [served.tokenizer.decode(alone(served, p, n, eos)) for p, n in jobs]
    steps: list = []
    served.engine.observer = steps.append

    def one(i: int):
        if i == 62:
            return post(url, "/v1/completions", {"model": "llama", "prompt": "x", "top_p": 0})[0]
        if i == 63:
            return cancelled_stream(url, {"model": "llama", "prompt": "And", "max_tokens": 200, "temperature": 0},
                                    chunks=3)
        prompt, new = jobs[i]
        if i % 2:
            chunks = client(url).completions.create(model="llama", prompt=prompt, max_tokens=new, temperature=0,
                                                    stream=True)
            return "".join(c.choices[0].text for c in chunks)
        return client(url).completions.create(model="llama", prompt=prompt, max_tokens=new,
                                              temperature=0).choices[0].text

    try:
        with ThreadPoolExecutor(16) as pool:
            results = list(pool.map(one, range(64), timeout=WAIT * 4))
    finally:
        served.engine.observer = None
    assert results[:62] == want
    assert results[62] == 400 and len(results[63]) == 3
    for _ in range(400):  # the cancelled stream's rows come back once the engine sees the disconnect
        if served.engine.stats["rows_free"] == served.engine.slots:
            break
        time.sleep(0.05)
    assert served.engine.stats == {**served.engine.stats, "rows_free": served.engine.slots, "running": 0}
    decoded: dict[int, int] = {}
    for step in steps:
        for request in step.requests:
            decoded[request] = decoded.get(request, 0) + (step.kind == "decode")
    assert len(decoded) == 63 and max(decoded.values()) < 199  # the cancelled one stopped early


def test_a_full_queue_answers_429_and_loses_nothing(dirs):
    """One row, a queue of 2, 8 requests at once: the engine holds still until all 8 are answered or queued,
    so 3 are taken (one for the row, two queued) and 5 get 429 with Retry-After; the taken ones complete."""
    base = load("gpt", str(dirs["gpt"]), ServeOptions(slots=1))
    base.engine.shutdown(WAIT)
    engine = Engine(base.model, slots=1, max_queue=2)  # not started yet
    served = Generator("gpt", base.model, base.tokenizer, engine, base.end_of_turn)
    with serving(create_app({"gpt": served})) as url:
        def one(i):
            # Greedy: sampling (the API's default temperature 1) ends a completion early on a stop token at times.
            return post(url, "/v1/completions", {"model": "gpt", "prompt": f"And {i}", "max_tokens": 4,
                                                 "temperature": 0})

        with ThreadPoolExecutor(8) as pool:
            futures = [pool.submit(one, i) for i in range(8)]
            try:
                for _ in range(400):
                    if sum(f.done() for f in futures) == 5:
                        break
                    time.sleep(0.05)
                refused = [f.result() for f in futures if f.done()]
            finally:
                engine.start()
            answered = [f.result(timeout=WAIT) for f in futures]
        assert len(refused) == 5 and all(status == 429 for status, _, _ in refused)
        assert all(int(headers["Retry-After"]) >= 1 and body["error"]["code"] == "rate_limit_exceeded"
                   for _, body, headers in refused)
        assert sum(status == 200 for status, _, _ in answered) == 3
        assert all(body["usage"]["completion_tokens"] == 4 for status, body, _ in answered if status == 200)
    engine.shutdown(WAIT)


def test_draining_refuses_new_requests_and_finishes_the_stream(dirs):
    models = {"gpt": load("gpt", str(dirs["gpt"]), ServeOptions(slots=2))}
    app = create_app(models)
    with serving(app) as url:
        request = urllib.request.Request(url + "/v1/completions", json.dumps(
            {"model": "gpt", "prompt": "And", "max_tokens": 60, "temperature": 0, "stream": True}).encode(),
            {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            first = response.readline()
            drain = threading.Thread(target=app.state.draining.start, args=(WAIT,))
            drain.start()
            for _ in range(200):
                if app.state.draining.active:
                    break
                time.sleep(0.01)
            status, answer, _ = post(url, "/v1/completions", {"model": "gpt", "prompt": "x"})
            assert status == 503 and answer["error"]["code"] == "shutting_down"
            assert get(url, "/health")[0] == 503
            rest = [first] + list(response)
        drain.join(WAIT)
    data = [line[6:].strip() for line in rest if line.startswith(b"data: ")]
    assert data[-1] == b"[DONE]"
    assert json.loads(data[-2])["choices"][0]["finish_reason"] in ("length", "stop")


@pytest.fixture(scope="module")
def llava_dir(tmp_path_factory):
    return one_step_llava(tmp_path_factory.mktemp("vl"))


def test_llava_chat_with_an_image_equals_zoo_generate(llava_dir, tmp_path):
    """image_url as a data: URI and as a file under --image-root: the reply is zoo.generate's on the model's
    prompt format and the image's pixel values; a file outside the root and a request without an image are 400s."""
    import io

    from data.scene_dataset import ShapeScenes
    from data.scenes import IMAGE_MARKER
    from zoo.cli.chat import load as load_llava

    model, processor, size, prompt_format = load_llava(str(llava_dir))
    image = ShapeScenes("test", 1, image_size=size).image(0).convert("RGB")
    question = "what colour is the circle?"
    ids = processor.encode_prompt(prompt_format.format(image=IMAGE_MARKER, question=question), 1)
    tokens = zoo.generate(model.eval(), torch.tensor([ids]), 8, pixel_values=processor.pixel_values([image]),
                          eos_id=processor.eos_id)[0, len(ids):].tolist()
    if processor.eos_id in tokens:
        tokens = tokens[:tokens.index(processor.eos_id) + 1]
    png = io.BytesIO()
    image.save(png, "PNG")
    image.save(tmp_path / "scene.png")
    uri = "data:image/png;base64," + base64.b64encode(png.getvalue()).decode()

    def messages(url):
        return [{"role": "user", "content": [{"type": "text", "text": question},
                                             {"type": "image_url", "image_url": {"url": url}}]}]

    served = load("vl", str(llava_dir), ServeOptions(image_root=str(tmp_path)))
    with serving(create_app({"vl": served})) as url:
        reply = client(url).chat.completions.create(model="vl", messages=messages(uri), max_tokens=8, temperature=0)
        assert reply.choices[0].message.content == processor.tokenizer.decode(tokens)
        assert (reply.usage.prompt_tokens, reply.usage.completion_tokens) == (len(ids), len(tokens))
        chunks = client(url).chat.completions.create(model="vl", messages=messages("scene.png"), max_tokens=8,
                                                     temperature=0, stream=True)
        assert "".join(c.choices[0].delta.content or "" for c in chunks) == reply.choices[0].message.content
        status, answer, _ = post(url, "/v1/chat/completions", {"model": "vl", "messages": messages("../../etc/passwd")})
        assert status == 400 and answer["error"]["param"] == "messages[0].content[1].image_url"
        status, answer, _ = post(url, "/v1/chat/completions",
                                 {"model": "vl", "messages": [{"role": "user", "content": question}]})
        assert status == 400 and "needs an image" in answer["error"]["message"]


def test_a_request_that_fails_answers_500_and_disturbs_no_other(server, monkeypatch):
    """A stop check that raises (on the engine's thread) ends its request with a 500 body, a stream with an error
    event and [DONE]; a request beside it, and the next one, get their tokens."""
    import zoo.serving.choice_text as choice_text

    url, models = server
    original = choice_text.first_stop

    def failing(text, stops):
        if "boom" in stops:
            raise RuntimeError("a stop check failed")
        return original(text, stops)

    monkeypatch.setattr(choice_text, "first_stop", failing)
    want = client(url).completions.create(model="gpt", prompt="And God", max_tokens=8, temperature=0).choices[0].text
    with ThreadPoolExecutor(3) as pool:
        failed = pool.submit(post, url, "/v1/completions", {"model": "gpt", "prompt": "And", "stop": "boom"})
        streamed = pool.submit(cancelled_stream, url, {"model": "gpt", "prompt": "And", "stop": "boom"}, 99)
        beside = pool.submit(lambda: client(url).completions.create(model="gpt", prompt="And God", max_tokens=8,
                                                                    temperature=0).choices[0].text)
        status, answer, _ = failed.result(timeout=WAIT)
        lines = streamed.result(timeout=WAIT)
        assert beside.result(timeout=WAIT) == want
    assert status == 500 and answer["error"]["type"] == "server_error"
    assert b"error" in lines[-2] and lines[-1].strip() == b"data: [DONE]"
    assert client(url).completions.create(model="gpt", prompt="And God", max_tokens=8,
                                          temperature=0).choices[0].text == want
    assert models["gpt"].engine.stats["rows_free"] == models["gpt"].engine.slots


def test_packed_and_quantized_models_serve(dirs):
    """--pack and --quantize reach the engine's model; packed fp32 weights give the same greedy text."""
    plain = load("gpt", str(dirs["gpt"]), ServeOptions(slots=2))
    packed = load("gpt", str(dirs["gpt"]), ServeOptions(slots=2, pack=True))
    quantized = load("gpt", str(dirs["gpt"]), ServeOptions(slots=2, quantize="int8"))
    with serving(create_app({"plain": plain, "packed": packed, "int8": quantized})) as url:
        texts = {name: client(url).completions.create(model=name, prompt="And God said", max_tokens=6,
                                                      temperature=0) for name in ("plain", "packed", "int8")}
    assert texts["packed"].choices[0].text == texts["plain"].choices[0].text
    assert texts["int8"].usage.completion_tokens >= 1
    from backbones.quantized import QuantizedLinear

    assert any(isinstance(m, QuantizedLinear) for m in quantized.model.modules())


def test_a_non_streaming_client_that_leaves_frees_its_rows(server):
    """A client that closes its connection while its (non-streamed) completion decodes: the server sees the
    disconnect and cancels the request, long before its 200 tokens."""
    url, models = server
    served = models["gpt"]
    prompt = served.tokenizer.encode("And", add_special_tokens=False)
    assert len(alone(served, prompt, 240, {served.tokenizer.eos_id})) == 240  # alone, it would decode 239 steps
    steps: list = []
    served.engine.observer = steps.append
    host, port = url.removeprefix("http://").split(":")
    payload = json.dumps({"model": "gpt", "prompt": "And", "max_tokens": 240, "temperature": 0}).encode()
    try:
        with socket.create_connection((host, int(port)), timeout=WAIT) as sock:
            sock.sendall(b"POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Content-Length: %d\r\n\r\n%s" % (len(payload), payload))
            for _ in range(400):  # until it decodes
                if any(step.kind == "decode" for step in steps):
                    break
                time.sleep(0.01)
        for _ in range(400):
            if served.engine.stats["running"] == 0:
                break
            time.sleep(0.05)
    finally:
        served.engine.observer = None
    assert served.engine.stats["rows_free"] == served.engine.slots
    assert 0 < sum(step.kind == "decode" for step in steps) < 239
