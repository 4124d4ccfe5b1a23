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
                one batch of 8, no text carried), fp32, packed (zoo.pack_for_inference), bf16 weights packed
                (whisper_sides.bf16_packed) and int8 packed (zoo.quantize's defaults); int8 packed+compiled
                (zoo.transcribe(compile=True)) only when named in --whisper-long-sides (chunk batches and prompt
                lengths vary, and each compiles anew in the untimed first call); faster-whisper's
                BatchedInferencePipeline (int8, batch 8). Both without timestamp tokens, as faster-whisper's
                batched default (words still get their times from the alignment heads).
    sequential  ours: zoo.transcribe(vad_filter=True) (faster-whisper's vad_filter), the same ones; faster-whisper's
                WhisperModel.transcribe(vad_filter=True) int8; openai-whisper's transcribe (no VAD: it has none).
    costs       ours batched and sequential without word timestamps, ours sequential without VAD, and the
                detector alone (data.vad.speech_timestamps): what words and VAD cost as a share of ours' time.

Every side runs in a spawned process of its own (bench.whisper_long_sides, which says why): once untimed (its
first call, which gives its text and WER); then rounds time every side once each, interleaved.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

import numpy as np
import torch

from bench.config import WhisperLongBench
from bench.machine import cpu_seconds, others_share
from bench.report import BenchmarkError, ratio_cell, table, target_verdict
from bench.timing import summarize
from bench.whisper_long_sides import BATCH_SIZE, prepare, side_names, time_interleaved
from bench.whisper_refs import SHAPES
from data.audio import SAMPLE_RATE
from data.audio_tasks import normalize_text
from data.speech import SPEECH_TINY, load_manifest, load_row_audio

PAUSE_S = (0.3, 2.0)          # between two recordings
LONG_SILENCE_S = (5.0, 30.0)  # at every LONG_EVERY-th pause
LONG_EVERY = 10
LONG_FROM = 4                 # the first long silence: after the 5th recording (a --quick file has one too)
DITHER = 1e-4                 # the silences' noise floor (digital zeros are not what a microphone records)
# (ours, faster-whisper, ours/faster-whisper at least): from the issue; met when the best of ours' variants reaches it
TARGETS = {"batched": (("ours batched fp32", "ours batched packed", "ours batched bf16 packed"),
                       "faster-whisper batched int8", 1.3),
           "sequential": (("ours sequential fp32", "ours sequential packed", "ours sequential bf16 packed"),
                          "faster-whisper sequential int8", 1.2),
           # the quantisation issue's: int8 against int8, on the same weights
           "batched int8": (("ours batched int8 packed", "ours batched int8 packed+compiled"),
                            "faster-whisper batched int8", 1.3),
           "sequential int8": (("ours sequential int8 packed", "ours sequential int8 packed+compiled"),
                               "faster-whisper sequential int8", 1.3)}


def add_arguments(p: argparse.ArgumentParser, full: dict, quick: dict) -> None:
    g = p.add_argument_group("whisper long-file benchmark (--only whisper_long)")
    g.add_argument("--whisper-long-weights", choices=sorted({"base", *SHAPES}),
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
    g.add_argument("--whisper-long-sides", nargs="+", choices=side_names(True, True), metavar="SIDE",
                   help="the sides to run, with the faster-whisper side each of ours is compared with; the cost rows "
                        f"need theirs (default all but the compiled ones: {', '.join(side_names(True, True))})")


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


# ----------------------------------------------------------------------------- measure


def chosen_sides(config: WhisperLongBench) -> list[str]:
    """The sides to run, in side_names' order: those asked (default all but the compiled ones), and the
    faster-whisper side any of ours asked is compared with."""
    every = side_names(config.whisper_long_openai)
    asked = set(config.whisper_long_sides or every)
    references = {ref for ours, ref, _ in TARGETS.values() if asked & set(ours)}
    return [name for name in side_names(True, True) if name in asked | references]


def costs(times: dict) -> dict:
    """What word timestamps and VAD cost, as shares of ours' time (medians); the rows whose sides ran."""
    med = {k: statistics.median(v) for k, v in times.items()}
    out = {}
    for mode in ("batched", "sequential"):
        if {f"ours {mode} fp32", f"ours {mode} fp32, no words"} <= med.keys():
            full, plain = med[f"ours {mode} fp32"], med[f"ours {mode} fp32, no words"]
            out[f"word timestamps, {mode}"] = {"with_s": full, "without_s": plain, "share": (full - plain) / full}
    seq = med.get("ours sequential fp32")
    if seq is not None and "VAD alone" in med:
        out["VAD (detector alone), sequential"] = {"with_s": seq, "without_s": seq - med["VAD alone"],
                                                   "share": med["VAD alone"] / seq}
    if seq is not None and "ours sequential fp32, no VAD" in med:
        no_vad = med["ours sequential fp32, no VAD"]
        out["VAD (whole file without it), sequential"] = {"with_s": seq, "without_s": no_vad,
                                                          "share": (seq - no_vad) / seq}
    return out


def run(config: WhisperLongBench) -> dict:
    start_cpu = cpu_seconds()
    audio, reference, info = long_speech(config.whisper_long_audio_s, config.whisper_long_seed)
    print(f"  whisper_long: {info['audio_s']:.0f} s of audio, {info['recordings']} recordings, long silences "
          f"{info['long_silences_s']} s", flush=True)
    threads = torch.get_num_threads()
    with tempfile.TemporaryDirectory(prefix="zoo-bench-whisper-long-") as tmp:
        weights = prepare(config, Path(tmp), threads)
        timed = time_interleaved(chosen_sides(config), weights, config, audio, threads)
    times = {name: t["times"] for name, t in timed.items()}
    first = {name: {"first_call_s": t["first_call_s"], "words": t["words"], "text": t["text"],
                    "wer": None if name == "VAD alone" else word_error_rate(reference, t["text"])}
             for name, t in timed.items()}
    ratios = {}
    for ours, ref, _ in TARGETS.values():
        ratios.update({f"{o}|{ref}": summarize(times, 1, ours=o, ref=ref) for o in ours if o in times})
    if "openai-whisper" in times:
        for o in (*TARGETS["batched"][0], *TARGETS["sequential"][0]):
            if o in times:
                ratios[f"{o}|openai-whisper"] = summarize(times, 1, ours=o, ref="openai-whisper")
    return {"weights": config.whisper_long_weights, "audio": info, "reference_words": len(reference.split()),
            "sides": first, "median_s": {k: statistics.median(v) for k, v in times.items()}, "times": times,
            "ratios": ratios, "costs": costs(times), "others_cpu_share": others_share(start_cpu)}


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
    ran = {mode: ([v for v in variants if f"{v}|{ref}" in result["ratios"]], ref, target)
           for mode, (variants, ref, target) in TARGETS.items()}
    ran = {mode: sides for mode, sides in ran.items() if sides[0]}  # the targets whose sides ran
    for mode, (variants, ref, target) in ran.items():
        best = max(variants, key=lambda v: result["ratios"][f"{v}|{ref}"]["ratio"])
        r = result["ratios"][f"{best}|{ref}"]
        rows.append([mode, best, ref, f"**{ratio_cell(r, digits=2, bold=False)}**",
                     *target_verdict(r["ratio"], target)])
    if wer.get("openai-whisper") is not None:
        for mode, (variants, _, _) in ran.items():
            best = min(wer[v] for v in variants)
            rows.append([f"WER, {mode}", " / ".join(variants), "openai-whisper",
                         f"{best:.3f} vs {wer['openai-whisper']:.3f}", "<= openai-whisper's",
                         "yes" if best <= wer["openai-whisper"] else "no"])
    return rows


def report(result: dict, config: WhisperLongBench) -> str:
    a = result["audio"]
    if result["weights"] == "base":
        weights = ("the real Whisper base (ours from faster-whisper's directory: fp32, packed, bf16 weights packed, "
                   "int8 packed (zoo.quantize's defaults); faster-whisper int8 on the same directory"
                   + ("; openai-whisper with ours' tensors)" if "openai-whisper" in result["sides"] else ")"))
    else:
        weights = (f"random weights of shape {result['weights']} on every side (windows capped at "
                   f"{config.whisper_long_tokens} tokens: the WERs mean nothing, the plumbing is what runs)")
    openai = ", openai-whisper on the whole file (no VAD)" if "openai-whisper" in result["sides"] else ""
    head = (f"\n### Whisper long file, waveform to words: {a['audio_s']:.0f} s ({a['speech_s']:.0f} s of human "
            f"speech: {a['recordings']} Asterisk recordings, pauses of 0.3-2 s, silences of {a['long_silences_s']} s; "
            f"{result['reference_words']} reference words), {weights}; greedy, temperature 0, language en, word "
            f"timestamps; batched: batch {BATCH_SIZE} of VAD chunks <= 30 s, no timestamp tokens; sequential: "
            f"zoo.transcribe(vad_filter=True), faster-whisper vad_filter=True{openai}; each side in a process of its "
            f"own: one untimed first call, then {config.whisper_long_repeats} rounds timing every side once "
            "(interleaved, the order reversed every other round), medians; speed-up = "
            "faster-whisper's time / ours, median over runs paired in order (IQR)\n")
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
    parts = [head, sides_table, "", targets, ""]
    if result["costs"]:
        parts += [cost_table, note, ""]
    return "\n".join([*parts, *versus, share])
