"""Whisper's parts, timed apart on the same weights: the encoder forward and the decoder (greedy tokens/s
from encoder outputs, the cross-attention keys and values computed once) at each batch size, ours (as
created and packed) against openai-whisper and transformers; and the log-mel of 30 s of audio, ours
(data.audio) against openai-whisper's (with transformers' and faster-whisper's feature extractors beside).
"""
from __future__ import annotations

import copy
import statistics

import numpy as np
import torch

import zoo
from bench.config import WhisperBench
from bench.references import check_close
from bench.report import ratio_cell, table
from bench.timing import interleaved, summarize
from bench.whisper_refs import WhisperModels, synthetic_audio
from bench.whisper_sides import ForcedDecoding, hf_decoder, openai_decoder, ours_decoder, same_tokens
from data.audio import SAMPLE_RATE, log_mel_spectrogram, pad_or_trim

REFERENCES = ("openai-whisper", "transformers")


def batch_mels(batch: int) -> torch.Tensor:
    """(B, n_mels, 3000): B different synthetic 30 s clips."""
    return torch.stack([log_mel_spectrogram(pad_or_trim(synthetic_audio(30, seed=10 + i))) for i in range(batch)])


def rows_of(times: dict, work: int, sides: tuple[str, ...]) -> dict:
    """Each side's median seconds, and ours' (and packed's) speed-up over each reference."""
    out = {"median_s": {k: statistics.median(v) for k, v in times.items()}, "work": work, "times": times}
    for ours in sides:
        for ref in REFERENCES:
            out[f"{ours}|{ref}"] = {k: v for k, v in summarize(times, work, ours=ours, ref=ref).items() if k != "times"}
    return out


@torch.inference_mode()
def encoder(sides: WhisperModels, packed, mel: torch.Tensor, warmup: int, repeats: int) -> dict:
    fns = {"ours": lambda: sides.ours.encode(mel), "ours packed": lambda: packed.encode(mel),
           "openai-whisper": lambda: sides.openai.encoder(mel),
           "transformers": lambda: sides.hf.model.encoder(mel).last_hidden_state}
    want = fns["ours"]()
    diffs = {k: check_close(f"{sides.name} encoder batch {mel.shape[0]}", "fp32", fn(), want, f"ours and {k}")
             for k, fn in fns.items()}
    return {**rows_of(interleaved(fns, warmup, repeats), mel.shape[0], ("ours", "ours packed")), "max_abs_diff": diffs}


def decoder(sides: WhisperModels, packed, features: torch.Tensor, forced: ForcedDecoding, warmup: int,
            repeats: int) -> dict:
    fns = {"ours": ours_decoder(sides.ours, forced), "ours packed": ours_decoder(packed, forced),
           "openai-whisper": openai_decoder(sides.openai, forced), "transformers": hf_decoder(sides.hf, forced)}
    want = fns["ours"](features)
    for name, fn in fns.items():
        same_tokens(f"{sides.name} decoder batch {features.shape[0]} ({name})", fn(features), want, forced, exact=True)
    times = interleaved({k: (lambda fn=fn: fn(features)) for k, fn in fns.items()}, warmup, repeats)
    return rows_of(times, features.shape[0] * forced.tokens, ("ours", "ours packed"))


def fw_log_mel(faster, audio: np.ndarray) -> np.ndarray:
    """In a faster-whisper worker (whisper_refs.load_ct2): its FeatureExtractor's (80, 3000) of the first 30 s."""
    return faster.feature_extractor(audio)[:, :3000]


def log_mel(sides: WhisperModels, warmup: int, repeats: int) -> dict:
    """30 s of audio to the (80, 3000) log-mel, each library's own way (faster-whisper's in its fp32 worker,
    where that started)."""
    import transformers
    import whisper

    audio = synthetic_audio(30, seed=2)
    hf = transformers.WhisperFeatureExtractor(feature_size=80)
    fns = {"ours": lambda: log_mel_spectrogram(pad_or_trim(audio)),
           "openai-whisper": lambda: whisper.log_mel_spectrogram(whisper.pad_or_trim(audio)),
           "transformers": lambda: hf(audio, sampling_rate=SAMPLE_RATE, return_tensors="pt").input_features[0]}
    if "fp32" in sides.ct2_models():
        fns["faster-whisper"] = sides.ct2["fp32"].bind(fw_log_mel, audio)
    want = fns["ours"]()
    got = {k: torch.as_tensor(np.asarray(fn())) for k, fn in fns.items()}
    diffs = {k: check_close("log-mel", "fp32", got[k], want, f"ours and {k}") for k in REFERENCES}
    # faster-whisper builds its own mel filters and STFT (numpy): its features differ by ~0.03 by design.
    diffs.update({k: (got[k] - want).abs().max().item() for k in got if k not in diffs and k != "ours"})
    return {**rows_of(interleaved(fns, warmup, repeats), 1, ("ours",)), "max_abs_diff": diffs}


def run(sides: WhisperModels, config: WhisperBench) -> dict:
    """Encoder and decoder rows per batch size, and the log-mel row."""
    forced = ForcedDecoding.for_tokenizer(sides.tokenizer, config.whisper_tokens)
    packed = zoo.pack_for_inference(copy.deepcopy(sides.ours))
    rows = []
    for batch in config.whisper_batches:
        mel = batch_mels(batch)
        # Fewer calls at large batches, but at least 3: two ABBA pairs put one side at both ends, where a load
        # spike from another process lands on it alone.
        repeats = max(3, config.whisper_repeats // (2 if batch > 4 else 1))
        enc = encoder(sides, packed, mel, config.whisper_warmup, repeats)
        with torch.inference_mode():
            features = sides.ours.encode(mel)  # (B, N, D)
        dec = decoder(sides, packed, features, forced, config.whisper_warmup, repeats)
        rows.append({"batch": batch, "repeats": repeats, "encoder": enc, "decoder": dec})
        print(f"  whisper parts {sides.name} batch {batch}: encoder ours/openai-whisper "
              f"{enc['ours|openai-whisper']['ratio']:.2f}, decoder {dec['ours|openai-whisper']['ratio']:.2f}",
              flush=True)
    mel_row = log_mel(sides, config.whisper_warmup, 4 * config.whisper_repeats)
    return {"shape": sides.name, "tokens": forced.tokens, "rows": rows, "log_mel": mel_row}


def _cell(row: dict, ours: str, ref: str) -> str:
    return ratio_cell(row[f"{ours}|{ref}"], digits=2, bold=False)


def report(result: dict, config: WhisperBench) -> str:
    name, n = result["shape"], result["tokens"]
    sides = ("ours", "ours packed", *REFERENCES)
    ratios = [f"{o}/{r} (IQR)" for o in ("ours", "ours packed") for r in REFERENCES]

    def cells(row: dict, scale) -> list:
        return ([scale(row["median_s"][s], row["work"]) for s in sides]
                + [_cell(row, o, r) for o in ("ours", "ours packed") for r in REFERENCES])
    enc = table(["batch"] + [f"{s} windows/s" for s in sides] + ratios,
                [[r["batch"], *cells(r["encoder"], lambda s, w: f"{w / s:.2f}")] for r in result["rows"]])
    dec = table(["batch"] + [f"{s} tokens/s" for s in sides] + ratios,
                [[r["batch"], *cells(r["decoder"], lambda s, w: f"{w / s:.1f}")] for r in result["rows"]])
    mel = result["log_mel"]
    mel_sides = list(mel["median_s"])
    mel_table = table([f"{s} ms" for s in mel_sides] + ["ours/openai-whisper (IQR)", "ours/transformers (IQR)"]
                      + [f"max abs diff {s}" for s in mel_sides[1:]],
                      [[f"{mel['median_s'][s] * 1e3:.2f}" for s in mel_sides]
                       + [_cell(mel, "ours", r) for r in REFERENCES]
                       + [f"{mel['max_abs_diff'][s]:.1e}" for s in mel_sides[1:]]])
    return "\n".join([
        f"\n### Whisper {name} parts: encoder forward (30 s windows, torch.inference_mode), interleaved, medians\n",
        enc,
        f"\nDecoder: {n} forced greedy tokens per row from encoder outputs (cross-attention keys and values "
        "computed once), each library's decoding loop: ours `decode`, openai-whisper `whisper.decode`, "
        "transformers `generate(encoder_outputs=...)`; tokens identical (checked)\n",
        dec,
        "\nLog-mel of 30 s of audio, (80, 3000), each library's own front-end (ours: data.audio; transformers: "
        "WhisperFeatureExtractor, numpy; faster-whisper: its FeatureExtractor, numpy)\n",
        mel_table])
