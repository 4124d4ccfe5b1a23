"""scripts/serve.py as a process: it serves a saved model on loopback, and SIGTERM during a stream ends that
stream cleanly (its last chunks, then data: [DONE]) before the process exits 0. Every wait is bounded."""
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import torch

import zoo
from data.text import KJV_EXTRACT
from data.tokenization import train_bpe
from tests.helpers import load_script

pytest.importorskip("uvicorn")

ROOT = Path(__file__).resolve().parents[2]
WAIT = 120  # seconds: the bound on every wait, never reached when the server works


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    directory = tmp_path_factory.mktemp("serve")
    tokenizer = train_bpe([Path(KJV_EXTRACT).read_text()[:100_000]], vocab_size=400)
    torch.manual_seed(0)
    zoo.create_model("gpt_tiny", vocab_size=tokenizer.vocab_size).save_pretrained(directory)
    tokenizer.save(directory)
    return directory


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, proc: subprocess.Popen) -> None:
    for _ in range(WAIT * 10):
        assert proc.poll() is None, proc.communicate(timeout=WAIT)[1]
        try:
            with urllib.request.urlopen(url + "/health", timeout=5) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.1)
    raise AssertionError("the server did not come up")


def test_sigterm_during_a_stream_ends_it_cleanly(model_dir):
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, str(ROOT / "scripts" / "serve.py"), "--model", f"tiny={model_dir}",
                             "--port", str(port), "--slots", "2", "--threads", "1", "--shutdown-timeout", "60"],
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        wait_healthy(url, proc)
        body = {"model": "tiny", "prompt": "And God said", "max_tokens": 200, "temperature": 0, "stream": True}
        request = urllib.request.Request(url + "/v1/completions", json.dumps(body).encode(),
                                         {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            lines = [response.readline()]
            proc.send_signal(signal.SIGTERM)
            lines += list(response)
        assert proc.wait(timeout=WAIT) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        out, err = proc.communicate(timeout=WAIT)
    data = [line[6:].strip() for line in lines if line.startswith(b"data: ")]
    assert data[-1] == b"[DONE]"
    chunks = [json.loads(d) for d in data[:-1]]
    assert chunks[-1]["choices"][0]["finish_reason"] in ("length", "stop")
    assert all(c["object"] == "text_completion" for c in chunks)
    assert "SIGTERM: draining" in err
    assert "endpoint=POST /v1/completions status=200" in err  # the request log line


def test_the_script_wraps_zoo_serve_and_refuses_a_taken_name(model_dir):
    from zoo.cli import serve

    assert load_script("serve").main is serve.main
    with pytest.raises(SystemExit, match="the name 'a' is taken"):
        serve.build(serve.parse_args(["--model", f"a={model_dir}", "--model", f"a={model_dir}"]))


def test_a_model_no_endpoint_serves_is_refused_naming_the_families():
    from zoo.cli.common import UsageError
    from zoo.serving.served import ServeOptions, load

    with pytest.raises(UsageError, match="holds a vit model, which no endpoint serves; expected GPT or LLaMA"):
        load("v", "vit_tiny_patch16_224", ServeOptions())
