"""The sides of the long-file Whisper section (bench.whisper_long), each timed in a process of its own.

    weights = prepare(config, workdir, threads)        # the directories every side loads (joined / converted once)
    result = time_interleaved(names, weights, config, audio, threads)   # {side: {"first_call_s", "times", "text", ...}}

A side is a name ("ours sequential bf16 packed", "faster-whisper batched int8", ...) and a function audio -> {"text",
"segments"}. Each side runs in a fresh spawned process (a bench.workers.Worker) that loads only the weights it
needs and makes one untimed first call (its text, WER and words come from it). The processes stay open, and
`repeats` rounds then time every side once each, the order reversed every other round: a pass over the whole
file takes 10-30 s, and the host's speed drifts by more than the sides differ over minutes (1.3-1.4x on the
AVX2 EPYC), which side-by-side passes minutes apart would read as a difference between the sides.

Why a process each: timed in one process, interleaved, a side ran 1.2-1.3x slower after another library's
transcription of the same file had run there (ours sequential bf16 packed: 8.3 s alone, 10.2 s after one
faster-whisper transcription; AVX512-BF16 EPYC, 2 cores), and stayed slower, though no other thread was busy;
the memory-bound decoding steps were what slowed. A user runs one library in a process, so that is what is timed.
"""
from __future__ import annotations

import base64
import copy
import gzip
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from functools import cached_property, partial
from pathlib import Path

import numpy as np
import torch

import zoo
from bench.config import WhisperLongBench
from bench.report import BenchmarkError
from bench.whisper_sides import bf16_packed
from bench.workers import Worker, call
from data.vad import speech_timestamps

BATCH_SIZE = 8
DECODE = {"language": "en", "temperature": 0.0}  # every side: greedy, no fallback
COMPARED = ["ours batched fp32", "ours batched packed", "ours batched bf16 packed", "ours batched int8 packed",
            "faster-whisper batched int8", "ours sequential fp32", "ours sequential packed",
            "ours sequential bf16 packed", "ours sequential int8 packed", "faster-whisper sequential int8"]
# zoo.transcribe(compile=True): run when named only (the first call compiles each batch size and cache length anew)
COMPILED = ["ours batched int8 packed+compiled", "ours sequential int8 packed+compiled"]
COSTS = ["ours batched fp32, no words", "ours sequential fp32, no words", "ours sequential fp32, no VAD", "VAD alone"]


def side_names(openai: bool, compiled: bool = False) -> list[str]:
    """The compared sides (the compiled ones if asked), openai-whisper's if asked, then the cost rows, in the order
    they run."""
    return [*COMPARED, *(COMPILED if compiled else []), *(["openai-whisper"] if openai else []), *COSTS]


@dataclass(frozen=True)
class Weights:
    """Where every side finds the same weights: ours (a CTranslate2 or transformers directory) and
    faster-whisper's CTranslate2 directory (int8, its best CPU path)."""
    ours_dir: Path
    ours_format: str        # "ct2" (zoo.from_ct2) or "hf" (zoo.from_hf)
    faster_dir: Path


def prepare(config: WhisperLongBench, workdir: Path, threads: int) -> Weights:
    """The real base joined once (zoo.real_weights), or a random shape saved and converted once (whisper_refs)."""
    if config.whisper_long_weights == "base":
        from zoo.real_weights import whisper_base_ct2

        directory = whisper_base_ct2(Path(config.whisper_long_dir or workdir) / "whisper-base")
        return Weights(directory, "ct2", directory)
    from bench.whisper_refs import build

    with build(config.whisper_long_weights, workdir, threads) as sides:  # its int8 worker converts ct2-int8
        if "int8" not in sides.ct2_models():
            raise BenchmarkError(f"faster-whisper int8 cannot run here: {sides.ct2['int8']}")
        return Weights(sides.directory, "hf", sides.directory / "ct2-int8")


class LongModels:
    """The models of one side's process, each loaded when first asked for."""

    def __init__(self, weights: Weights, threads: int):
        self.weights, self.threads = weights, threads

    @cached_property
    def ours(self) -> torch.nn.Module:
        load = zoo.from_ct2 if self.weights.ours_format == "ct2" else zoo.from_hf
        return load(self.weights.ours_dir).float().eval()

    @cached_property
    def packed(self) -> torch.nn.Module:
        return zoo.pack_for_inference(copy.deepcopy(self.ours))

    @cached_property
    def bf16(self) -> torch.nn.Module:
        return bf16_packed(self.ours)

    @cached_property
    def int8(self) -> torch.nn.Module:
        return zoo.pack_for_inference(zoo.quantize(copy.deepcopy(self.ours), "int8"))

    @cached_property
    def faster(self):
        from faster_whisper import WhisperModel

        return WhisperModel(str(self.weights.faster_dir), device="cpu", compute_type="int8", cpu_threads=self.threads)

    @cached_property
    def openai(self) -> torch.nn.Module:
        return openai_twin(self.ours)


def openai_twin(ours: torch.nn.Module) -> torch.nn.Module:
    """openai-whisper's Whisper holding ours' tensors and alignment heads."""
    import whisper

    from zoo.convert.openai_whisper import openai_state_dict

    c = ours.config
    ref = whisper.model.Whisper(whisper.model.ModelDimensions(c.n_mels, c.audio_ctx, c.dim, c.audio_heads,
                                                              c.audio_depth, c.vocab_size, c.text_ctx, c.dim,
                                                              c.text_heads, c.text_depth))
    missing, unexpected = ref.load_state_dict(openai_state_dict(ours, ref.state_dict()), strict=False)
    if missing or unexpected:
        raise BenchmarkError(f"openai-whisper's Whisper from ours: missing {missing}, unexpected {unexpected}")
    if c.alignment_heads:
        mask = np.zeros((c.text_depth, c.text_heads), dtype=bool)
        for layer, head in c.alignment_heads:
            mask[layer, head] = True
        ref.set_alignment_heads(base64.b85encode(gzip.compress(mask.tobytes())))
    return ref.eval()


# ----------------------------------------------------------------------------- the sides: audio -> text


def capped(config: WhisperLongBench, library: str) -> dict:
    """The window cap in each library's name (none for real weights)."""
    n = config.whisper_long_tokens
    return {} if n is None else ({"max_new_tokens": n} if library == "faster-whisper" else {"sample_len": n})


def ours_batched(model, config: WhisperLongBench, words: bool = True, compile: bool = False):
    """zoo.transcribe(one audio, batch_size=8): VAD chunks of at most a window, each decoded once."""
    kw = {**DECODE, **capped(config, "ours"), "without_timestamps": True, "word_timestamps": words, "compile": compile}
    return lambda audio: zoo.transcribe(model, torch.from_numpy(audio), batch_size=BATCH_SIZE, **kw)


def ours_sequential(model, config: WhisperLongBench, words: bool = True, vad: bool = True, compile: bool = False):
    """zoo.transcribe on the whole file: its vad_filter (the speech only), or without VAD."""
    kw = {**DECODE, **capped(config, "ours"), "word_timestamps": words, "vad_filter": vad, "compile": compile}
    return lambda audio: zoo.transcribe(model, audio, **kw)


def faster_fn(model, config: WhisperLongBench, batched: bool):
    from faster_whisper import BatchedInferencePipeline

    kw = {**DECODE, **capped(config, "faster-whisper"), "beam_size": 1, "word_timestamps": True}
    if batched:
        pipeline = BatchedInferencePipeline(model)

        def call(audio):
            return pipeline.transcribe(audio, batch_size=BATCH_SIZE, without_timestamps=True, **kw)
    else:
        def call(audio):
            return model.transcribe(audio, vad_filter=True, **kw)

    def run(audio: np.ndarray) -> dict:
        segments, _ = call(audio)
        segments = list(segments)  # a generator: decoding happens here
        return {"text": "".join(s.text for s in segments),
                "segments": [{"words": [vars(w) for w in (s.words or ())]} for s in segments]}
    return run


def openai_fn(model, config: WhisperLongBench):
    import whisper

    kw = {**DECODE, **capped(config, "openai"), "word_timestamps": True, "fp16": False, "verbose": None}
    return lambda audio: whisper.transcribe(model, audio, **kw)


def vad_only(audio: np.ndarray) -> dict:
    speech_timestamps(torch.from_numpy(audio))
    return {"text": "", "segments": []}


def side(name: str, weights: Weights, config: WhisperLongBench, threads: int) -> Callable[[np.ndarray], dict]:
    """The function of side `name` (one of side_names), on the models it needs (loaded here)."""
    models = LongModels(weights, threads)
    variants = {"fp32": lambda: models.ours, "packed": lambda: models.packed, "bf16 packed": lambda: models.bf16,
                "int8 packed": lambda: models.int8}
    if name == "VAD alone":
        return vad_only
    if name == "openai-whisper":
        return openai_fn(models.openai, config)
    if name.startswith("faster-whisper"):
        return faster_fn(models.faster, config, batched="batched" in name)
    mode, rest = name.removeprefix("ours ").split(" ", 1)
    variant, _, cost = rest.partition(", ")
    variant, compiled = variant.removesuffix("+compiled"), variant.endswith("+compiled")
    model = variants[variant]()
    if mode == "batched":
        return ours_batched(model, config, words=cost != "no words", compile=compiled)
    return ours_sequential(model, config, words=cost != "no words", vad=cost != "no VAD", compile=compiled)


# ----------------------------------------------------------------------------- timing, one process per side


def time_interleaved(names: list[str], weights: Weights, config: WhisperLongBench, audio: np.ndarray,
                     threads: int) -> dict[str, dict]:
    """Every side in a worker of its own, all kept open: each one's untimed first call (its output kept), then
    config.whisper_long_repeats rounds that time every side once, in the order given on even rounds and reversed on
    odd ones, so the host's drift falls on all sides alike."""
    with ExitStack() as stack:
        workers = {name: stack.enter_context(Worker(partial(side, name, weights, config), threads)) for name in names}
        out = {}
        for name, worker in workers.items():
            result, first = worker.timed(call, audio)
            out[name] = {"first_call_s": first, "times": [], "text": result["text"],
                         "words": sum(len(s.get("words") or ()) for s in result["segments"])}
            print(f"  whisper_long {name}: first call {first:.1f} s", flush=True)
        for r in range(config.whisper_long_repeats):
            for name in names if r % 2 == 0 else names[::-1]:
                out[name]["times"].append(workers[name].timed(call, audio)[1])
            print(f"  whisper_long round {r + 1}: " + ", ".join(f"{name} {out[name]['times'][-1]:.2f} s"
                                                              for name in names), flush=True)
    return out
