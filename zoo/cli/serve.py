"""Serve models over HTTP with OpenAI's API (FastAPI + uvicorn; docs/serving.md).

    zoo serve --model runs/demo/text/model --port 8000
    zoo serve --model chat=path/to/hf_llama --model minilm=path/to/all-MiniLM-L6-v2 --api-key sk-local \\
        --slots 16 --max-queue 64 --dtype bf16 --pack

--model PATH or NAME=PATH, repeated: each model is served under its name (default: its directory's name), with
its family's endpoints: GPT / LLaMA completions and chat (continuous batching over --slots cache rows, at most
--max-queue requests waiting, 429 past that), BERT embeddings, LLaVA chat with images, Whisper audio.
SIGTERM (or Ctrl-C): new requests get 503, those in flight finish for at most --shutdown-timeout seconds (what
is left is cancelled, its streams ended cleanly), then the process exits 0; a second Ctrl-C quits at once.
"""
from __future__ import annotations

import logging
import signal
import sys
import threading

import uvicorn

from zoo.cli.common import add_runtime_arguments, apply_threads, device_of, parser
from zoo.serving.served import QUANTIZE, ServeOptions, load, parse_model_flag


def parse_args(argv=None):
    p = parser(__doc__)
    p.add_argument("--model", action="append", required=True, metavar="[NAME=]PATH",
                   help="a model directory (or preset) to serve, under NAME; repeat for several")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--api-key", help="require `Authorization: Bearer KEY` on /v1 routes (401 without it)")
    p.add_argument("--slots", type=int, default=8, help="cache rows per text model: choices decoded at once")
    p.add_argument("--max-queue", type=int, default=64, help="requests waiting for rows before 429")
    p.add_argument("--prefill-chunk", type=int, default=256, help="prompt tokens per prefill step")
    p.add_argument("--shutdown-timeout", type=float, default=30.0, help="seconds in-flight requests may take "
                   "after SIGTERM")
    p.add_argument("--image-root", help="LLaVA: a directory whose files image_url may name (default: data: "
                   "URIs only)")
    p.add_argument("--pack", action="store_true", help="zoo.pack_for_inference on the text decoders")
    p.add_argument("--quantize", choices=QUANTIZE, help="zoo.quantize on the text decoders")
    p.add_argument("--compile", action="store_true", help="the engine's decoding step through torch.compile")
    p.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    add_runtime_arguments(p, dtypes=("fp32", "bf16", "fp16"))
    return p.parse_args(argv)


def build(args):
    """The app for the parsed flags (models loaded)."""
    from zoo.serving.app import create_app

    options = ServeOptions(device=str(device_of(args)), dtype=args.dtype, pack=args.pack, quantize=args.quantize,
                           slots=args.slots, max_queue=args.max_queue, prefill_chunk=args.prefill_chunk,
                           compile=args.compile, image_root=args.image_root)
    sources = {}
    for value in args.model:
        name, path = parse_model_flag(value)
        if name in sources:
            raise SystemExit(f"--model {value!r}: the name {name!r} is taken; use NAME=PATH")
        sources[name] = path
    models = {name: load(name, path, options) for name, path in sources.items()}
    return create_app(models, api_key=args.api_key, shutdown_timeout=args.shutdown_timeout)


def main(argv=None) -> int:
    args = parse_args(argv)
    apply_threads(args)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = build(args)
    server = DrainingServer(uvicorn.Config(app, host=args.host, port=args.port, log_level=args.log_level,
                                           timeout_graceful_shutdown=args.shutdown_timeout + 5),
                            app.state.draining, args.shutdown_timeout)
    server.run()
    return 0


class DrainingServer(uvicorn.Server):
    """uvicorn's Server, with SIGTERM (and a first Ctrl-C) draining before it stops: requests in flight finish
    (at most `timeout` seconds) while new ones get 503, then uvicorn shuts down as usual (exit status 0)."""

    def __init__(self, config: uvicorn.Config, draining, timeout: float):
        super().__init__(config)
        self.draining, self.timeout, self.drain_started = draining, timeout, False

    def handle_exit(self, sig, frame) -> None:
        if self.drain_started:  # a second signal: quit now
            self.should_exit = self.force_exit = True
            return
        self.drain_started = True
        print(f"zoo serve: {signal.Signals(sig).name}: draining (at most {self.timeout:g} s), then exiting",
              file=sys.stderr, flush=True)
        threading.Thread(target=self._drain, name="zoo-serve-drain", daemon=True).start()

    def _drain(self) -> None:
        self.draining.start(self.timeout)
        self.should_exit = True
