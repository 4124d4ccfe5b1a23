"""Whisper speed on CPU: ours against openai-whisper, transformers and faster-whisper (CTranslate2, fp32 and
int8), every side on the same random weights (whisper_refs), checked to agree before anything is timed,
then timed interleaved, greedy, with the token count forced (whisper_sides). faster-whisper runs in a worker
process per type (bench.workers says why), and its calls are timed there.

    window      one 30 s window, waveform to tokens (log-mel + encoder + N tokens): ours as created,
                packed, packed and compiled, bf16 (autocast; bf16 weights packed, and compiled) against each reference;
                ours' time per stage                                                      (this module)
    parts       encoder forward and decoder tokens/s at batch 1 and 8; log-mel speed    (whisper_parts)
    transcribe  many short files batched vs file by file; minutes of audio: real-time factors
                                                                                        (whisper_transcribe)

    results = run(WhisperBench(...))         # prints progress lines
    print(report(results, config))

The window section runs on every shape of config.whisper_models, the other two on the first.
"""
from __future__ import annotations

import copy
import gc
import statistics
import tempfile
import time
from pathlib import Path

import torch

import zoo
from bench import whisper_parts, whisper_transcribe
from bench.config import WhisperBench
from bench.report import ratio_cell, table, target_verdict
from bench.timing import interleaved, summarize, timed
from bench.whisper_refs import WhisperModels, build, check_sides, describe, synthetic_audio
from bench.whisper_sides import (
    ForcedDecoding,
    bf16_packed,
    calibrate_ct2,
    ct2_window,
    hf_window,
    openai_window,
    ours_window,
    same_tokens,
)
from bench.workers import bind
from data.audio import log_mel_spectrogram, pad_or_trim
from zoo.generation.whisper_decode import decode

# From the Whisper speed issue: (our variants, reference, ours/reference at least). A target is met when the
# best of its variants reaches it.
FP32 = ("ours fp32", "ours fp32 packed", "ours fp32 packed+compiled")
TARGETS = ((FP32, "openai-whisper", 1.6), (FP32, "transformers", 1.6),
           (("ours bf16 packed+compiled",), "faster-whisper int8", 1.0),
           (("ours int8 packed+compiled",), "faster-whisper int8", 1.3))  # the quantisation issue's
REFERENCES = ("openai-whisper", "transformers", "faster-whisper fp32", "faster-whisper int8")
# WhisperModels that must give ours' fp32 tokens exactly; the others (bf16, int8) round differently: their leading
# tokens equal to ours' are reported.
EXACT = ("ours fp32 packed", "ours fp32 packed+compiled", "openai-whisper", "transformers", "faster-whisper fp32")


def ours_models(ours) -> dict[str, torch.nn.Module]:
    """Ours as created, packed (zoo.pack_for_inference), with bf16 weights packed (the same weights:
    whisper_sides.bf16_packed), and in int8 (zoo.quantize's defaults) packed."""
    return {"fp32": ours, "packed": zoo.pack_for_inference(copy.deepcopy(ours)), "bf16 packed": bf16_packed(ours),
            "int8 packed": zoo.pack_for_inference(zoo.quantize(copy.deepcopy(ours), "int8"))}


def window_fns(sides: WhisperModels, forced: ForcedDecoding, compile: bool) -> dict:
    """{side: Window}: our variants (the compiled ones when `compile`), then the references that can run."""
    models = ours_models(sides.ours)
    fns = {"ours fp32": ours_window(models["fp32"], forced),
           "ours fp32 packed": ours_window(models["packed"], forced),
           "ours fp32 packed+compiled": ours_window(models["packed"], forced, compile=True),
           "ours bf16 autocast": ours_window(models["fp32"], forced, dtype="bf16"),
           "ours bf16 packed+compiled": ours_window(models["bf16 packed"], forced, compile=True),
           "ours int8 packed+compiled": ours_window(models["int8 packed"], forced, compile=True),
           "openai-whisper": openai_window(sides.openai, forced),
           "transformers": hf_window(sides.hf, sides.directory, forced)}
    if not compile:
        fns = {k: v for k, v in fns.items() if "compiled" not in k}
    for kind, worker in sides.ct2_models().items():
        fns[f"faster-whisper {kind}"] = worker.bind(ct2_window, forced)
    return fns


def first_calls(fns: dict, audio, forced: ForcedDecoding) -> tuple[dict, dict]:
    """Each side's first call (the compiled ones compile in it), checked against ours fp32: (seconds, leading
    tokens equal to ours'). BenchmarkError where a side decodes another count, or an exact side other tokens."""
    seconds, leading, want = {}, {}, None
    for name, fn in fns.items():
        tokens, seconds[name] = timed(bind(fn, audio))
        want = want or tokens  # "ours fp32" comes first
        leading[name] = same_tokens(name, [tokens], [want], forced, exact=name in EXACT)
    return seconds, leading


def stage_shares(ours, audio, forced: ForcedDecoding, warmup: int, repeats: int) -> dict:
    """Ours fp32 split into log-mel, encoder and decoding (from the encoder output), interleaved: each stage's
    median seconds and its share of their sum."""
    mel = log_mel_spectrogram(pad_or_trim(audio))
    with torch.inference_mode():
        features = ours.encode(mel[None])  # (1, N, D)
    options = forced.ours()

    def encoder():
        with torch.inference_mode():
            return ours.encode(mel[None])
    times = interleaved({"log-mel": lambda: log_mel_spectrogram(pad_or_trim(audio)), "encoder": encoder,
                         "decoding": lambda: decode(ours, features, options)}, warmup, repeats)
    medians = {k: statistics.median(v) for k, v in times.items()}
    total = sum(medians.values())
    return {k: {"s": s, "share": s / total} for k, s in medians.items()}


def run_window(sides: WhisperModels, config: WhisperBench) -> dict:
    """One shape: every side's 30 s window, checked, then timed interleaved; ratios of each of our variants
    over each reference; ours' stages."""
    audio = synthetic_audio(30, seed=1)
    forced = ForcedDecoding.for_tokenizer(sides.tokenizer, config.whisper_tokens)
    if "fp32" in sides.ct2_models():
        forced = sides.ct2["fp32"].call(calibrate_ct2, log_mel_spectrogram(pad_or_trim(audio)).numpy(), forced)
    fns = window_fns(sides, forced, config.whisper_compile)
    first_s, leading = first_calls(fns, audio, forced)
    times = interleaved({k: bind(fn, audio) for k, fn in fns.items()}, config.whisper_warmup,
                        config.whisper_repeats)
    ratios = {f"{ours}|{ref}": summarize(times, forced.tokens, ours=ours, ref=ref)
              for ours in fns if ours.startswith("ours") for ref in REFERENCES if ref in fns}
    stages = stage_shares(sides.ours, audio, forced, config.whisper_warmup, config.whisper_repeats)
    del fns
    gc.collect()
    row = {**describe(sides), "tokens": forced.tokens, "ct2_max_length": forced.ct2_max_length,
           "median_s": {k: statistics.median(v) for k, v in times.items()}, "first_call_s": first_s,
           "leading_equal": leading, "ratios": ratios, "stages": stages, "times": times}
    best = max((r for k, r in ratios.items() if k.endswith("|openai-whisper")), key=lambda r: r["ratio"],
               default=None)
    print(f"  whisper window {sides.name}: ours fp32 {row['median_s']['ours fp32']:.2f} s"
          + (f", best ours/openai-whisper {best['ratio']:.2f}" if best else ""), flush=True)
    return row


def run(config: WhisperBench) -> dict:
    """Every section, by shape: {"window": [...], "parts": {...}, "transcribe": {...}}."""
    results: dict = {"window": []}
    with tempfile.TemporaryDirectory(prefix="zoo-bench-whisper-") as tmp:
        workdir = Path(config.whisper_dir or tmp)
        threads = torch.get_num_threads()
        for i, name in enumerate(config.whisper_models):
            start = time.perf_counter()
            with build(name, workdir, threads) as sides:
                audio = synthetic_audio(30, seed=1)
                diffs = check_sides(sides, log_mel_spectrogram(pad_or_trim(audio)))
                row = run_window(sides, config)
                results["window"].append({**row, "max_abs_diff": diffs})
                if i == 0:
                    results["parts"] = whisper_parts.run(sides, config)
                    results["transcribe"] = whisper_transcribe.run(sides, config)
            results["window"][-1]["section_s"] = time.perf_counter() - start
            del sides
            gc.collect()
    return results


def cell(r: dict) -> str:
    return ratio_cell(r, digits=2, bold=False)


def window_report(row: dict, config: WhisperBench) -> str:
    name, n = row["shape"], row["tokens"]
    sides = list(row["median_s"])
    ours = [s for s in sides if s.startswith("ours")]
    refs = [s for s in REFERENCES if s in sides]
    head = (f"\n### Whisper {name} ({row['params_m']:.1f}M parameters): one 30 s window, waveform to {n} forced "
            f"greedy tokens (log-mel + encoder + decoding, no timestamps); {config.whisper_repeats} interleaved "
            "calls per side, medians; ratios are medians over pairs, ours' speed-up over the reference\n")
    sides_table = table(
        ["side", "s / window", "tokens/s", "first call s", f"leading tokens equal to ours fp32 (of {n})"],
        [[s, f"{row['median_s'][s]:.3f}", f"{n / row['median_s'][s]:.1f}", f"{row['first_call_s'][s]:.1f}",
          row["leading_equal"][s]] for s in sides])
    ratio_table = table(["ours"] + [f"vs {r}" for r in refs],
                        [[o] + [cell(row["ratios"][f"{o}|{r}"]) for r in refs] for o in ours])
    stages = row["stages"]
    stage_table = table(["ours fp32 stage", "ms", "share"],
                        [[k, f"{v['s'] * 1e3:.1f}", f"{v['share']:.0%}"] for k, v in stages.items()])
    notes = [f"Unavailable: {k}: {v}" for k, v in row["unavailable"].items()]
    return "\n".join([head, sides_table, "", ratio_table, "", stage_table, *notes])


def target_rows(rows: list[dict]) -> list[list]:
    out = []
    for row in rows:
        for variants, ref, target in TARGETS:
            found = [(row["ratios"][f"{v}|{ref}"], v) for v in variants if f"{v}|{ref}" in row["ratios"]]
            if not found:
                out.append([row["shape"], " / ".join(variants), ref, "not measured", f">= {target}x", "-"])
                continue
            best, variant = max(found, key=lambda f: f[0]["ratio"])
            out.append([row["shape"], variant, ref, f"**{cell(best)}**", *target_verdict(best["ratio"], target)])
    return out


def report(results: dict, config: WhisperBench) -> str:
    parts = [window_report(row, config) for row in results["window"]]
    parts += ["\n### Whisper targets (from the issue): the best of the named variants over the reference, one 30 s "
              "window\n",
              table(["model", "ours (best variant)", "reference", "ours/ref (IQR)", "target", "met"],
                    target_rows(results["window"]))]
    if results.get("parts"):
        parts.append(whisper_parts.report(results["parts"], config))
    if results.get("transcribe"):
        parts.append(whisper_transcribe.report(results["transcribe"], config))
    return "\n".join(parts)
