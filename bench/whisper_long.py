"""Whisper on one long file, waveform to words: ours against faster-whisper and openai-whisper on the same weights.

    audio, reference = long_speech(300, seed=0)    # the shipped human recordings, shuffled, with pauses and silences
    result = run(WhisperLongBench(...))            # prints progress lines
    print(report(result, config))

The audio is real human speech: the 16 Asterisk prompts of data/speech_tiny/asr (split "human") joined in a
seeded shuffled order, again and again, with pauses of 0.3-2 s between them and, at every LONG_EVERY-th pause, a
silence of 5-30 s (what voice-activity detection is there to skip), until the file is long enough; its reference
transcript is their texts in that order, for the word error rate (jiwer, on data.audio_tasks.normalize_text).

The weights: the real Whisper base (zoo.real_weights, faster-whisper's CTranslate2 directory): ours loads it with
zoo.from_ct2, faster-whisper reads the same directory (compute_type int8, its best CPU path), openai-whisper's
Whisper gets ours' tensors (zoo.convert.openai_whisper.openai_state_dict) and its alignment heads. Or a random
shape of bench.whisper_refs (the --quick run: "micro"): the same weights on all three sides, and each window's
tokens capped (random weights never end a window), so only the plumbing and the table are checked.

Sides, every one greedy at temperature 0 (no sampled fallback: runs repeat exactly), language "en", word timestamps:

    batched     ours: zoo.transcribe(wave, batch_size=8) (VAD chunks of at most 30 s, each decoded once, as
                one batch of 8, no text carried), fp32, packed (zoo.pack_for_inference) and bf16 weights packed
                (whisper_sides.bf16_packed; not compiled: chunk batches and lengths vary); faster-whisper's
                BatchedInferencePipeline (int8, batch 8). Both without timestamp tokens, as faster-whisper's
                batched default (words still get their times from the alignment heads).
    sequential  ours: zoo.transcribe(vad_filter=True) (faster-whisper's vad_filter), the same three; faster-whisper's
                WhisperModel.transcribe(vad_filter=True) int8; openai-whisper's transcribe (no VAD: it has none).
    costs       ours batched and sequential without word timestamps, ours sequential without VAD, and the
                detector alone (data.vad.speech_timestamps): what words and VAD cost as a share of ours' time.

Every side runs once (its first call, which gives its text and WER), then all are timed interleaved.
"""
from __future__ import annotations

import argparse
import base64
import copy
import gc
import gzip
import inspect
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

import zoo
from bench.config import _from_args
from bench.machine import cpu_seconds, others_share
from bench.report import BenchmarkError, ratio_cell, table, target_verdict
from bench.timing import interleaved, summarize
from bench.whisper_refs import SHAPES, build
from bench.whisper_sides import bf16_packed
from data.audio import SAMPLE_RATE
from data.audio_tasks import normalize_text
from data.speech import SPEECH_TINY, load_manifest, load_row_audio
from data.vad import speech_timestamps

BATCH_SIZE = 8
PAUSE_S = (0.3, 2.0)          # between two recordings
LONG_SILENCE_S = (5.0, 30.0)  # at every LONG_EVERY-th pause
LONG_EVERY = 10
LONG_FROM = 4                 # the first long silence: after the 5th recording (a --quick file has one too)
DITHER = 1e-4                 # the silences' noise floor (digital zeros are not what a microphone records)
# (ours, faster-whisper, ours/faster-whisper at least): from the issue; met when the best of ours' variants reaches it
TARGETS = {"batched": (("ours batched fp32", "ours batched packed", "ours batched bf16 packed"),
                       "faster-whisper batched int8", 1.3),
           "sequential": (("ours sequential fp32", "ours sequential packed", "ours sequential bf16 packed"),
                          "faster-whisper sequential int8", 1.2)}
DECODE = {"language": "en", "temperature": 0.0}  # every side: greedy, no fallback


@dataclass(frozen=True)
class WhisperLongBench:
    """The long-file section's runtime options; field names are scripts/benchmark.py's flags."""
    whisper_long_weights: str          # "base": the real Whisper base; or a random shape of whisper_refs.SHAPES
    whisper_long_audio_s: float        # the file is at least this long
    whisper_long_repeats: int          # timed transcriptions per side, interleaved
    whisper_long_openai: bool          # also openai-whisper's transcribe (sequential, the slowest side)
    whisper_long_tokens: int | None    # tokens per window at most (random weights never end one); None: no cap
    whisper_long_seed: int             # the order of the recordings and the pauses
    whisper_long_dir: str | None       # the real base's joined directory (None: a temporary folder)

    from_args = classmethod(_from_args)


def add_arguments(p: argparse.ArgumentParser, full: dict, quick: dict) -> None:
    g = p.add_argument_group("whisper long-file benchmark (--only whisper_long)")
    g.add_argument("--whisper-long-weights", choices=["base", *sorted(SHAPES)],
                   help=f"the real Whisper base, or a random shape (default {full['whisper_long_weights']}; "
                        f"--quick: {quick['whisper_long_weights']})")
    g.add_argument("--whisper-long-audio-s", type=float, help="seconds of speech and silence, at least "
                   f"(default {full['whisper_long_audio_s']}; --quick: {quick['whisper_long_audio_s']})")
    g.add_argument("--whisper-long-repeats", type=int, help="timed transcriptions per side "
                   f"(default {full['whisper_long_repeats']})")
    g.add_argument("--whisper-long-openai", action=argparse.BooleanOptionalAction,
                   help="also openai-whisper's transcribe (default on)")
    g.add_argument("--whisper-long-tokens", type=int, help="tokens per window at most (default: no cap; --quick: "
                   f"{quick['whisper_long_tokens']}, random weights never end a window)")
    g.add_argument("--whisper-long-seed", type=int, default=0, help="order of the recordings and pauses (default 0)")
    g.add_argument("--whisper-long-dir", help="join the real Whisper base here (default: a temporary folder)")


# ----------------------------------------------------------------------------- the audio


def long_speech(seconds: float, seed: int, folder: Path = SPEECH_TINY / "asr") -> tuple[np.ndarray, str, dict]:
    """(16 kHz float32 audio of at least `seconds`, its reference transcript, what it holds): the human
    recordings in shuffled rounds, pauses between them, a long silence at every LONG_EVERY-th pause."""
    rows = load_manifest(folder, "human")
    if not rows:
        raise BenchmarkError(f"no human recordings in {folder}: the long-file section needs them")
    waves = [load_row_audio(folder, row).numpy().astype(np.float32) for row in rows]
    rng = np.random.default_rng(seed)
    pieces, texts, total, pauses, silences, speech = [], [], 0, 0, [], 0
    while total < seconds * SAMPLE_RATE:
        for i in rng.permutation(len(rows)):
            pieces.append(waves[i])
            texts.append(rows[i]["text"])
            speech += len(waves[i])
            long = pauses % LONG_EVERY == LONG_FROM
            gap = rng.uniform(*(LONG_SILENCE_S if long else PAUSE_S))
            silences += [gap] if long else []
            pieces.append(DITHER * rng.standard_normal(int(gap * SAMPLE_RATE)).astype(np.float32))
            pauses += 1
            total = sum(len(p) for p in pieces)
            if total >= seconds * SAMPLE_RATE:
                break
    audio = np.concatenate(pieces)
    info = {"audio_s": len(audio) / SAMPLE_RATE, "speech_s": speech / SAMPLE_RATE, "recordings": len(texts),
            "long_silences_s": [round(s, 1) for s in silences]}
    return audio, " ".join(texts), info


def word_error_rate(reference: str, hypothesis: str) -> float:
    import jiwer

    return jiwer.wer(normalize_text(reference), normalize_text(hypothesis) or "<empty>")


# ----------------------------------------------------------------------------- the models


@dataclass
class LongModels:
    """Ours, faster-whisper's WhisperModel (int8) and openai-whisper's Whisper (or None) on one set of weights."""
    name: str
    ours: torch.nn.Module
    faster: object
    openai: torch.nn.Module | None


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


def load_models(config: WhisperLongBench, workdir: Path, threads: int) -> LongModels:
    from faster_whisper import WhisperModel

    if config.whisper_long_weights == "base":
        from zoo.real_weights import whisper_base_ct2

        directory = whisper_base_ct2(Path(config.whisper_long_dir or workdir) / "whisper-base")
        ours = zoo.from_ct2(directory).float().eval()
        openai = openai_twin(ours) if config.whisper_long_openai else None
    else:  # a random shape: whisper_refs's sides, the CTranslate2 int8 conversion of the same weights
        sides = build(config.whisper_long_weights, workdir, threads)
        if "int8" not in sides.ct2_models():
            raise BenchmarkError(f"faster-whisper int8 cannot run here: {sides.ct2['int8']}")
        directory, ours, openai = sides.directory / "ct2-int8", sides.ours, sides.openai
        openai = openai if config.whisper_long_openai else None
    faster = WhisperModel(str(directory), device="cpu", compute_type="int8", cpu_threads=threads)
    return LongModels(config.whisper_long_weights, ours, faster, openai)


# ----------------------------------------------------------------------------- the sides: audio -> text


def capped(config: WhisperLongBench, library: str) -> dict:
    """The window cap in each library's name (none for real weights)."""
    n = config.whisper_long_tokens
    return {} if n is None else ({"max_new_tokens": n} if library == "faster-whisper" else {"sample_len": n})


def ours_batched(model, config: WhisperLongBench, words: bool = True):
    kw = {**DECODE, **capped(config, "ours"), "without_timestamps": True, "word_timestamps": words}

    def run(audio: np.ndarray) -> dict:
        return zoo.transcribe(model, torch.from_numpy(audio), batch_size=BATCH_SIZE, **kw)
    return run


def ours_sequential(model, config: WhisperLongBench, words: bool = True, vad: bool = True):
    """zoo.transcribe on the whole file: its vad_filter (the speech only), or without VAD."""
    kw = {**DECODE, **capped(config, "ours"), "word_timestamps": words, "vad_filter": vad}

    def run(audio: np.ndarray) -> dict:
        return zoo.transcribe(model, audio, **kw)
    return run


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


def sides(models: LongModels, config: WhisperLongBench) -> dict:
    """{side: audio -> {"text", "segments"}}: the compared sides, then the cost rows."""
    packed, bf16 = zoo.pack_for_inference(copy.deepcopy(models.ours)), bf16_packed(models.ours)
    fns = {"ours batched fp32": ours_batched(models.ours, config),
           "ours batched packed": ours_batched(packed, config),
           "ours batched bf16 packed": ours_batched(bf16, config),
           "faster-whisper batched int8": faster_fn(models.faster, config, batched=True),
           "ours sequential fp32": ours_sequential(models.ours, config),
           "ours sequential packed": ours_sequential(packed, config),
           "ours sequential bf16 packed": ours_sequential(bf16, config),
           "faster-whisper sequential int8": faster_fn(models.faster, config, batched=False)}
    if models.openai is not None:
        fns["openai-whisper"] = openai_fn(models.openai, config)
    fns.update({"ours batched fp32, no words": ours_batched(models.ours, config, words=False),
                "ours sequential fp32, no words": ours_sequential(models.ours, config, words=False),
                "ours sequential fp32, no VAD": ours_sequential(models.ours, config, vad=False),
                "VAD alone": vad_only})
    return fns


# ----------------------------------------------------------------------------- measure


def first_calls(fns: dict, audio: np.ndarray, reference: str) -> dict:
    """Each side's first call: its seconds, WER and words with times."""
    out = {}
    for name, fn in fns.items():
        start = time.perf_counter()
        result = fn(audio)
        seconds = time.perf_counter() - start
        words = sum(len(s.get("words") or ()) for s in result["segments"])
        out[name] = {"first_call_s": seconds, "words": words, "text": result["text"],
                     "wer": None if name == "VAD alone" else word_error_rate(reference, result["text"])}
        print(f"  whisper_long {name}: {seconds:.1f} s first call"
              + ("" if out[name]["wer"] is None else f", WER {out[name]['wer']:.3f}"), flush=True)
    return out


def costs(times: dict) -> dict:
    """What word timestamps and VAD cost, as shares of ours' time (medians)."""
    med = {k: statistics.median(v) for k, v in times.items()}
    out = {}
    for mode in ("batched", "sequential"):
        full, plain = med[f"ours {mode} fp32"], med[f"ours {mode} fp32, no words"]
        out[f"word timestamps, {mode}"] = {"with_s": full, "without_s": plain, "share": (full - plain) / full}
    seq, no_vad = med["ours sequential fp32"], med["ours sequential fp32, no VAD"]
    out["VAD (detector alone), sequential"] = {"with_s": seq, "without_s": seq - med["VAD alone"],
                                               "share": med["VAD alone"] / seq}
    out["VAD (whole file without it), sequential"] = {"with_s": seq, "without_s": no_vad, "share": (seq - no_vad) / seq}
    return out


def run(config: WhisperLongBench) -> dict:
    start_cpu = cpu_seconds()
    audio, reference, info = long_speech(config.whisper_long_audio_s, config.whisper_long_seed)
    print(f"  whisper_long: {info['audio_s']:.0f} s of audio, {info['recordings']} recordings, long silences "
          f"{info['long_silences_s']} s", flush=True)
    with tempfile.TemporaryDirectory(prefix="zoo-bench-whisper-long-") as tmp:
        models = load_models(config, Path(tmp), torch.get_num_threads())
        fns = sides(models, config)
        first = first_calls(fns, audio, reference)
        times = interleaved({k: (lambda fn=fn: fn(audio)) for k, fn in fns.items()}, 0, config.whisper_long_repeats)
    ratios = {}
    for ours, ref, _ in TARGETS.values():
        ratios.update({f"{o}|{ref}": summarize(times, 1, ours=o, ref=ref) for o in ours})
    if "openai-whisper" in times:
        for o in (*TARGETS["batched"][0], *TARGETS["sequential"][0]):
            ratios[f"{o}|openai-whisper"] = summarize(times, 1, ours=o, ref="openai-whisper")
    del fns, models
    gc.collect()
    return {"weights": config.whisper_long_weights, "audio": info, "reference_words": len(reference.split()),
            "sides": first, "median_s": {k: statistics.median(v) for k, v in times.items()}, "times": times,
            "ratios": ratios, "costs": costs(times), "others_cpu_share": others_share(start_cpu),
            "vad_filter_native": "vad_filter" in inspect.signature(zoo.transcribe).parameters}


# ----------------------------------------------------------------------------- report


def _fmt_wer(w: float | None) -> str:
    return "-" if w is None else f"{w:.3f}"


def side_rows(result: dict) -> list[list]:
    audio_s, rows = result["audio"]["audio_s"], []
    for name, s in result["median_s"].items():
        ref = next((r for ours, r, _ in TARGETS.values() if name in ours), None)
        key = f"{name}|{ref}"
        rows.append([name, f"{s:.2f}", f"{s / audio_s:.3f}", f"{result['sides'][name]['first_call_s']:.1f}",
                     _fmt_wer(result["sides"][name]["wer"]), result["sides"][name]["words"],
                     ratio_cell(result["ratios"][key], digits=2, bold=False) if key in result["ratios"] else "-"])
    return rows


def target_rows(result: dict) -> list[list]:
    rows = []
    wer = {k: v["wer"] for k, v in result["sides"].items()}
    for mode, (variants, ref, target) in TARGETS.items():
        best = max(variants, key=lambda v: result["ratios"][f"{v}|{ref}"]["ratio"])
        r = result["ratios"][f"{best}|{ref}"]
        rows.append([mode, best, ref, f"**{ratio_cell(r, digits=2, bold=False)}**",
                     *target_verdict(r["ratio"], target)])
    if wer.get("openai-whisper") is not None:
        for mode, (variants, _, _) in TARGETS.items():
            best = min(wer[v] for v in variants)
            rows.append([f"WER, {mode}", " / ".join(variants), "openai-whisper",
                         f"{best:.3f} vs {wer['openai-whisper']:.3f}", "<= openai-whisper's",
                         "yes" if best <= wer["openai-whisper"] else "no"])
    return rows


def report(result: dict, config: WhisperLongBench) -> str:
    a = result["audio"]
    if result["weights"] == "base":
        weights = ("the real Whisper base (ours from faster-whisper's directory: fp32, packed, bf16 weights packed; "
                   "faster-whisper int8 on the same directory; openai-whisper with ours' tensors)")
    else:
        weights = (f"random weights of shape {result['weights']} on every side (windows capped at "
                   f"{config.whisper_long_tokens} tokens: the WERs mean nothing, the plumbing is what runs)")
    vad = "zoo.transcribe(vad_filter=True)" if result["vad_filter_native"] else "keep_speech + zoo.transcribe"
    openai = ", openai-whisper on the whole file (no VAD)" if "openai-whisper" in result["sides"] else ""
    head = (f"\n### Whisper long file, waveform to words: {a['audio_s']:.0f} s ({a['speech_s']:.0f} s of human "
            f"speech: {a['recordings']} Asterisk recordings, pauses of 0.3-2 s, silences of {a['long_silences_s']} s; "
            f"{result['reference_words']} reference words), {weights}; greedy, temperature 0, language en, word "
            f"timestamps; batched: batch {BATCH_SIZE} of VAD chunks <= 30 s, no timestamp tokens; sequential: "
            f"{vad} + restore times, faster-whisper vad_filter=True{openai}; {config.whisper_long_repeats} "
            "interleaved runs per side, medians; speed-up = faster-whisper's time / ours, median over pairs (IQR)\n")
    sides_table = table(["side", "s", "real-time factor", "first call s", "WER", "words with times",
                         "speed-up vs faster-whisper (IQR)"], side_rows(result))
    targets = table(["target", "ours (best variant)", "reference", "ours/ref (IQR)", "target", "met"],
                    target_rows(result))
    cost_table = table(["cost (ours fp32)", "with s", "without s", "share of ours' time"],
                       [[k, f"{v['with_s']:.2f}", f"{v['without_s']:.2f}", f"{v['share']:.0%}"]
                        for k, v in result["costs"].items()])
    versus = [f"{k.split('|')[0]} / openai-whisper: {ratio_cell(r, digits=2, bold=False)}"
              for k, r in result["ratios"].items() if k.endswith("|openai-whisper")]
    note = ("Share: (with - without) / with, ours' medians; the detector alone: its time / ours sequential; a negative "
            "share: ours without it takes longer (Whisper then decodes the silences too).")
    share = f"Other processes used {result['others_cpu_share']:.0%} of the CPUs meanwhile."
    return "\n".join([head, sides_table, "", targets, "", cost_table, note, "", *versus, share])
