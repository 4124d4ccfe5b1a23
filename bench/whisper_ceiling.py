"""The fp32 ceiling of ours / openai-whisper on one 30 s window, measured in one process:

    python -m bench.whisper_ceiling tiny base

No implementation of the same model beats (its encoder's time, here ours packed: the same kernels as
openai-whisper's) + (N forced tokens x the bytes each token reads / the best measured bandwidth: every decoder
weight, the tied output projection and the cached cross-attention keys and values, once). openai-whisper's whole
window over that floor is the most any fp32 implementation can gain over it here. All timed calls alternate (ABBA).
"""
from __future__ import annotations

import statistics
import sys
import time

import torch

import zoo
from bench import whisper_refs as refs
from bench.generation.bound import bandwidth_probes
from bench.whisper_sides import ForcedDecoding, openai_window
from data.audio import log_mel_spectrogram, pad_or_trim


def decoder_bytes(model) -> int:
    """fp32 bytes one batch-1 token reads: decoder weights without the cross-attention k/v projections (their
    output is cached), the tied embedding once, one row of the position table, and the cached cross-attention
    keys and values (audio_ctx x dim, twice, per layer)."""
    c = model.config
    skip = (".cross_attn.k_proj", ".cross_attn.v_proj")
    weights = sum(p.numel() * 4 for n, p in model.named_parameters()
                  if n.startswith(("decoder", "embed")) and not any(s in n for s in skip))
    cross_cache = 2 * c.text_depth * c.audio_ctx * c.dim * 4
    return weights - (c.text_ctx - 1) * c.dim * 4 + cross_cache


@torch.inference_mode()
def ceiling(name: str, tokens: int = 64, repeats: int = 5) -> dict:
    openai = refs.random_openai(name)
    ours = zoo.from_whisper(openai).eval()
    forced = ForcedDecoding.for_tokenizer(ours.tokenizer, tokens)
    packed = zoo.pack_for_inference(zoo.from_whisper(openai).eval())
    audio = refs.synthetic_audio(30, 0)
    mel = log_mel_spectrogram(pad_or_trim(audio))[None]
    window = openai_window(openai, forced)
    probes = bandwidth_probes(512)
    fns = {"openai window": lambda: window(audio), "ours encoder": lambda: packed.encode(mel),
           **{k: f for k, (f, _) in probes.items()}}
    times: dict[str, list[float]] = {k: [] for k in fns}
    for fn in fns.values():
        fn()
    for r in range(repeats):
        for k in list(fns) if r % 2 == 0 else list(fns)[::-1]:
            start = time.perf_counter()
            fns[k]()
            times[k].append(time.perf_counter() - start)
    med = {k: statistics.median(v) for k, v in times.items()}
    gb_s = max(probes[k][1] / med[k] for k in probes) / 1e9
    decoding = tokens * decoder_bytes(ours) / (gb_s * 1e9)
    return {"model": name, "tokens": tokens, "openai_window_s": med["openai window"],
            "ours_encoder_s": med["ours encoder"], "best_gb_s": gb_s, "decoder_mb_per_token": decoder_bytes(ours) / 1e6,
            "decoding_floor_s": decoding, "ceiling": med["openai window"] / (med["ours encoder"] + decoding)}


def main(names: list[str]) -> None:
    for name in names or ["tiny", "base"]:
        r = ceiling(name)
        print(f"{name}: openai-whisper window {r['openai_window_s']:.3f} s; our encoder {r['ours_encoder_s']:.3f} s; "
              f"best probe {r['best_gb_s']:.1f} GB/s; decoder {r['decoder_mb_per_token']:.0f} MB per token -> "
              f"{r['tokens']} tokens take at least {r['decoding_floor_s']:.3f} s; "
              f"ceiling ours/openai-whisper {r['ceiling']:.2f}x", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
