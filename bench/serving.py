"""Serving: the zoo's OpenAI-compatible server (scripts/serve.py) against transformers' own (`transformers serve`),
on the same weights, streaming completions to 1, 4, 8 and 16 concurrent clients on loopback.

    result = run(ServingBench(...))       # prints progress lines
    print(report(result, config))

Sides: ours (scripts/serve.py --pack, a cache row per client of the largest round), `transformers serve`
(one request at a time: generate per request; up to 4 clients) and `transformers serve --continuous-batching`
(its paged-attention scheduler).

The weights: a preset (gpt2, llama_135m; --quick gpt_tiny) with random weights as transformers'
model (bench.references.reference_pair), saved once as a transformers directory that both servers load,
with a word-level tokenizer of the model's whole vocabulary (`w<id>`; no trained tokenizer of that size
ships offline). A token is then one word, so both servers' text streams (which hold text back to a
space) send one chunk a token, and a prompt of P words is P tokens.

Each side is a server process of its own, started, warmed up (one untimed request: ours compiles nothing
unless asked, transformers' loads its model on the first request), then given each client count in
turn; the sides alternate, in order and reversed, `serving_repeats` times. A client sends
`serving_requests` streaming greedy completions one after another (each a prompt of `serving_prompt`
random words and max_tokens `serving_new_tokens`, stream_options.include_usage); a round's aggregate
tokens/s is every completion token of its clients over the round's wall time. Time to first token is from
sending the request to the first chunk with text; inter-token latency is the gap between successive text
chunks of a stream. Random weights rarely choose the end-of-text word, so completions run their length;
the tables count the tokens each server's usage reports.

The target (issue 44): ours' aggregate tokens/s at 8 clients at least 3x ours' at one client.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch

from bench.config import ServingBench
from bench.report import BenchmarkError, table, yes_no

ROOT = Path(__file__).resolve().parents[1]
SIDES = ("ours", "transformers serve", "transformers serve --continuous-batching")
TARGET_CLIENTS, TARGET = 8, 3.0  # aggregate tokens/s at 8 clients over one client's
START_TIMEOUT_S, REQUEST_TIMEOUT_S = 300, 600
SERIAL_CLIENTS = 4  # `transformers serve` without continuous batching answers one request at a time: past this many
                    # clients a round only queues (and takes minutes), so its rounds stop here
EOS_WORD, UNK_WORD = "<|endoftext|>", "<unk>"


def add_arguments(p: argparse.ArgumentParser, full: dict, quick: dict) -> None:
    g = p.add_argument_group("serving benchmark (--only serving)")
    g.add_argument("--serving-models", nargs="+", help=f"presets to serve (default {full['serving_models']}; "
                   f"--quick: {quick['serving_models']})")
    g.add_argument("--serving-clients", nargs="+", type=int, help="concurrent streaming clients per round "
                   f"(default {full['serving_clients']})")
    g.add_argument("--serving-prompt", type=int, help=f"prompt tokens (default {full['serving_prompt']})")
    g.add_argument("--serving-new-tokens", type=int,
                   help=f"max_tokens a request (default {full['serving_new_tokens']})")
    g.add_argument("--serving-requests", type=int, help="requests per client per round, one after another "
                   f"(default {full['serving_requests']})")
    g.add_argument("--serving-repeats", type=int, help=f"rounds per side (default {full['serving_repeats']})")
    g.add_argument("--serving-transformers", action=argparse.BooleanOptionalAction,
                   help="also transformers' own server, `transformers serve` (default on)")


# ----------------------------------------------------------------------------- the weights


def word_tokenizer(vocab_size: int, directory: Path) -> None:
    """A word-level tokenizer of `vocab_size` words saved in `directory` as transformers' fast tokenizer:
    id 0 is <unk>, the last id <|endoftext|> (GPT-2's end-of-text id), every other id i the word `w<i>`."""
    from tokenizers import Tokenizer, pre_tokenizers
    from tokenizers.models import WordLevel

    vocab = {f"w{i}": i for i in range(1, vocab_size - 1)} | {UNK_WORD: 0, EOS_WORD: vocab_size - 1}
    tokenizer = Tokenizer(WordLevel(vocab, unk_token=UNK_WORD))
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer.save(str(directory / "tokenizer.json"))
    (directory / "tokenizer_config.json").write_text(json.dumps({
        "tokenizer_class": "PreTrainedTokenizerFast", "eos_token": EOS_WORD, "bos_token": EOS_WORD,
        "unk_token": UNK_WORD, "model_max_length": 1 << 20}))


def prepare(name: str, workdir: Path) -> tuple[Path, int]:
    """(the transformers directory of preset `name` with random weights and a word tokenizer, its vocabulary)."""
    from bench.references import reference_pair

    torch.manual_seed(0)
    _, reference = reference_pair(name)
    directory = workdir / name
    end = reference.config.vocab_size - 1  # the tokenizer's <|endoftext|>
    for config in (reference.config, reference.generation_config):
        config.bos_token_id = config.eos_token_id = end
    reference.save_pretrained(directory)
    word_tokenizer(reference.config.vocab_size, directory)
    return directory, reference.config.vocab_size


def prompts(vocab_size: int, words: int, count: int, seed: int) -> list[str]:
    generator = torch.Generator().manual_seed(seed)
    ids = torch.randint(1, vocab_size - 1, (count, words), generator=generator)
    return [" ".join(f"w{i}" for i in row.tolist()) for row in ids]


# ----------------------------------------------------------------------------- the servers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_command(side: str, directory: Path, name: str, port: int, slots: int) -> list[str]:
    if side == "ours":  # packed (our recommended inference layout), a cache row for every client
        return [sys.executable, str(ROOT / "scripts" / "serve.py"), "--model", f"{name}={directory}",
                "--host", "127.0.0.1", "--port", str(port), "--pack", "--slots", str(slots), "--log-level", "warning"]
    return [sys.executable, "-c", "from transformers.cli.transformers import main; main()", "serve",
            str(directory), "--device", "cpu", "--host", "127.0.0.1", "--port", str(port),
            "--log-level", "warning", *(["--continuous-batching"] if side.endswith("--continuous-batching") else [])]


class Server:
    """A server process on a free loopback port, up once GET /v1/models answers; stopped (SIGTERM, then
    SIGKILL) on exit. Its log goes to a file, shown in the error if it dies."""

    def __init__(self, side: str, directory: Path, name: str, threads: int, slots: int, log: Path):
        self.side, self.port, self.log = side, free_port(), log
        self.model = name if side == "ours" else str(directory)  # transformers serve names a model by its path
        env = {**os.environ, "OMP_NUM_THREADS": str(threads), "TOKENIZERS_PARALLELISM": "false"}
        with open(log, "w") as out:
            self.process = subprocess.Popen(server_command(side, directory, name, self.port, slots), stdout=out,
                                            stderr=subprocess.STDOUT, env=env, cwd=ROOT)
        self.url = f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Server:
        import httpx2 as httpx  # the HTTP client the openai package is built on

        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BenchmarkError(f"the {self.side} server exited ({self.process.returncode}) before answering: "
                                     f"{self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/v1/models", timeout=5).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        self.__exit__()
        raise BenchmarkError(f"the {self.side} server did not answer in {START_TIMEOUT_S} s: "
                             f"{self.log.read_text()[-2000:]}")

    def __exit__(self, *exc) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


async def stream_completion(client, server: Server, prompt: str, new_tokens: int) -> dict:
    """One streaming greedy completion: {"ttft", "gaps" (s between text chunks), "tokens" (usage's)}."""
    body = {"model": server.model, "prompt": prompt, "max_tokens": new_tokens, "temperature": 0, "stream": True,
            "stream_options": {"include_usage": True}}
    sent, times, tokens = time.perf_counter(), [], None
    async with client.stream("POST", f"{server.url}/v1/completions", json=body) as response:
        if response.status_code != 200:
            raise BenchmarkError(f"{server.side}: POST /v1/completions answered {response.status_code}: "
                                 f"{(await response.aread()).decode()[:500]}")
        async for line in response.aiter_lines():
            if not line.startswith("data: ") or line == "data: [DONE]":
                continue
            chunk = json.loads(line[6:])
            if chunk.get("usage"):
                tokens = chunk["usage"]["completion_tokens"]
            if any(choice.get("text") for choice in chunk.get("choices") or []):
                times.append(time.perf_counter())
    if not times or tokens is None:
        raise BenchmarkError(f"{server.side}: a stream ended without text or usage")
    return {"ttft": times[0] - sent, "gaps": [b - a for a, b in zip(times, times[1:])], "tokens": tokens}


async def one_round(server: Server, clients: int, texts: list[str], config: ServingBench) -> dict:
    """`clients` clients at once, each sending config.serving_requests completions in turn."""
    import httpx2 as httpx

    async def client_loop(client, c: int) -> list[dict]:
        return [await stream_completion(client, server, texts[(c * config.serving_requests + r) % len(texts)],
                                        config.serving_new_tokens) for r in range(config.serving_requests)]

    limits = httpx.Limits(max_connections=clients + 4)
    async with httpx.AsyncClient(timeout=REQUEST_TIMEOUT_S, limits=limits) as client:
        start = time.perf_counter()
        done = await asyncio.gather(*(client_loop(client, c) for c in range(clients)))
        wall = time.perf_counter() - start
    requests = [r for per_client in done for r in per_client]
    return {"wall": wall, "tokens": sum(r["tokens"] for r in requests), "ttft": [r["ttft"] for r in requests],
            "gaps": [g for r in requests for g in r["gaps"]]}


# ----------------------------------------------------------------------------- the run


def run(config: ServingBench) -> dict:
    sides = SIDES if config.serving_transformers else SIDES[:1]
    result = {"models": {}}
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        for name in config.serving_models:
            directory, vocab_size = prepare(name, work)
            texts = prompts(vocab_size, config.serving_prompt, max(config.serving_clients) * config.serving_requests,
                            seed=1)
            rounds = {side: {c: [] for c in config.serving_clients if c <= SERIAL_CLIENTS or side != SIDES[1]}
                      for side in sides}
            for repeat in range(config.serving_repeats):
                for side in sides if repeat % 2 == 0 else sides[::-1]:
                    log = work / f"{side.replace(' ', '-')}.log"
                    with Server(side, directory, name, config.threads, max(config.serving_clients), log) as server:
                        asyncio.run(one_round(server, 1, texts[:1], config))  # warm-up, untimed
                        for clients in rounds[side]:
                            measured = asyncio.run(one_round(server, clients, texts, config))
                            rounds[side][clients].append(measured)
                            print(f"  serving {name} {side} {clients} clients: "
                                  f"{measured['tokens'] / measured['wall']:.1f} tok/s", flush=True)
            result["models"][name] = {side: {c: summary(r) for c, r in per.items()} for side, per in rounds.items()}
    return result


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary(rounds: list[dict]) -> dict:
    """A side's rounds at one client count: the median round's tokens/s, and latency percentiles over all."""
    ttft = [t for r in rounds for t in r["ttft"]]
    gaps = [g for r in rounds for g in r["gaps"]]
    return {"tokens_per_s": statistics.median(r["tokens"] / r["wall"] for r in rounds),
            "ttft_p50": percentile(ttft, 0.5), "ttft_p99": percentile(ttft, 0.99),
            "itl_p50": percentile(gaps, 0.5) if gaps else float("nan"),
            "itl_p99": percentile(gaps, 0.99) if gaps else float("nan"), "rounds": len(rounds)}


def report(result: dict, config: ServingBench) -> str:
    ms = lambda s: f"{1000 * s:.0f}"  # noqa: E731
    parts = []
    for name, sides in result["models"].items():
        rows, targets = [], []
        for side, per in sides.items():
            one = per[min(per)]["tokens_per_s"]
            for clients, s in per.items():
                ours = sides["ours"].get(clients) if side != "ours" else None
                rows.append([side, clients, f"{s['tokens_per_s']:.1f}", f"{s['tokens_per_s'] / one:.2f}x",
                             f"{ours['tokens_per_s'] / s['tokens_per_s']:.2f}x" if ours else "-",
                             ms(s["ttft_p50"]), ms(s["ttft_p99"]), ms(s["itl_p50"]), ms(s["itl_p99"])])
            if side == "ours" and TARGET_CLIENTS in per and 1 in per:
                scale = per[TARGET_CLIENTS]["tokens_per_s"] / per[1]["tokens_per_s"]
                targets.append([name, f"**{scale:.2f}x**", f">= {TARGET:.0f}x", yes_no(scale >= TARGET)])
        parts += [f"\n#### {name}: streaming greedy completions, {config.serving_prompt} prompt tokens, "
                  f"{config.serving_new_tokens} new, {config.serving_requests} a client\n",
                  "Each server is a process of its own, so the machine line's share of other processes counts "
                  "them.\n",
                  table(["server", "clients", "tokens/s (all clients)", "vs 1 client", "ours / this server",
                         "TTFT p50 ms", "TTFT p99 ms", "ITL p50 ms", "ITL p99 ms"], rows)]
        if targets:
            parts += ["\n", table(["model", "ours at 8 clients / ours at 1", "target", "met"], targets)]
    return "\n".join(parts)
