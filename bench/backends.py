"""Model throughput per attention backend on any device, against the reference on the same weights.

    rows = run("gpt2", DeviceBench(device="cuda"))

Ours is timed once per backend that can run (xformers needs CUDA and a half dtype; math and sdpa run
anywhere), routed with `set_attention_backend`; the reference (transformers with its default attention,
timm) is timed in the same interleaved run, and every backend's logits are checked against the
reference's before anything is timed. Rows: forward (inference_mode) and, for text models, one training
step (forward + cross-entropy + backward + AdamW), each with tokens (or images) per second, the ratio to the
reference as the median over pairs, and the peak memory one call allocated (CUDA only).
"""
from __future__ import annotations

import gc
from dataclasses import dataclass

import torch

from backbones import set_attention_backend
from backbones.attention import BACKENDS, available_backends
from bench.forward import make_batch
from bench.references import check_close, reference_pair, timm_pair
from bench.report import table
from bench.timing import DTYPES, autocast, interleaved, peak_bytes, summarize, synchronized
from bench.train import train_step
from zoo.training.tasks import model_inputs


@dataclass(frozen=True)
class DeviceBench:
    device: str = "cpu"
    dtypes: tuple[str, ...] = ("bf16", "fp32")
    batch: int = 8
    seq: int = 512
    images: int = 64          # vision batch
    warmup: int = 3
    repeats: int = 10
    train: bool = True


def _pair(name: str, config: DeviceBench):
    """(ours, ref, inputs, work per call, is_text)."""
    if name.startswith("vit"):
        ours, ref = timm_pair(name)
        size = ref.default_cfg["input_size"]
        pixels = torch.randn(config.images, *size, generator=torch.Generator().manual_seed(1))
        return ours, ref, {"pixels": pixels.to(config.device)}, config.images, False
    ours, ref = reference_pair(name)
    batch = {k: v.to(config.device) for k, v in make_batch(ours, config.batch, config.seq, False).items()}
    return ours, ref, batch, config.batch * config.seq, True


def _backends(inputs_like: torch.Tensor, dtype: str) -> list[str]:
    probe = inputs_like.new_zeros(1, 1, 1, 8, dtype=DTYPES[dtype] or torch.float32)
    return [b for b in BACKENDS if available_backends(probe)[b] is None]


def _side(side: str, dtype: str, summary: dict, peak: int | None, kind: str, name: str) -> dict:
    return {"model": name, "kind": kind, "dtype": dtype, "side": side, "seconds": summary["ours_s"],
            "per_s": summary["ours_tok_s"], "ratio": summary["ratio"], "iqr": summary["pair_ratio_iqr"],
            "peak_bytes": peak}


def _forward_rows(name, ours, ref, inputs, work, is_text, dtype, config) -> list[dict]:
    device = config.device
    ref_inputs = model_inputs(inputs) if is_text else inputs

    def call(model, is_ours):
        with torch.inference_mode(), autocast(dtype, device):
            if is_text:
                out = model(**ref_inputs)
                return out if is_ours else out.logits
            return model(inputs["pixels"])

    want = call(ref, False)
    fns = {}
    for backend in _backends(next(iter(inputs.values())), dtype):
        set_attention_backend(ours, backend)
        check_close(f"{name} {backend}", dtype, call(ours, True), want)
        fns[backend] = synchronized(lambda b=backend: (set_attention_backend(ours, b), call(ours, True)), device)
    fns["ref"] = synchronized(lambda: call(ref, False), device)
    peaks = {side: peak_bytes(fn, device) for side, fn in fns.items()}
    times = interleaved(fns, config.warmup, config.repeats)
    return [_side(side, dtype, summarize(times, work, ours=side), peaks[side], "forward", name)
            for side in fns]


def _train_rows(name, ours, ref, batch, work, dtype, config) -> list[dict]:
    device = config.device
    models = {"ours": ours.train(), "ref": ref.train()}
    opts = {k: torch.optim.AdamW(m.parameters(), lr=1e-5, fused=True) for k, m in models.items()}
    fns = {}
    for backend in _backends(batch["input_ids"], dtype):
        def step(b=backend):
            set_attention_backend(ours, b)
            return train_step(ours, batch, opts["ours"], dtype, ours=True, device=device)
        fns[backend] = synchronized(step, device)
    fns["ref"] = synchronized(lambda: train_step(ref, batch, opts["ref"], dtype, ours=False, device=device), device)
    peaks = {side: peak_bytes(fn, device) for side, fn in fns.items()}
    times = interleaved(fns, config.warmup, config.repeats)
    ours.eval(), ref.eval()
    return [_side(side, dtype, summarize(times, work, ours=side), peaks[side], "train", name)
            for side in fns]


def _logged(rows: list[dict], log) -> list[dict]:
    for r in rows:
        log(f"  {r['kind']} {r['model']} {r['dtype']} {r['side']}: {r['per_s']:,.0f}/s, x{r['ratio']:.2f} of ref")
    return rows


def run(name: str, config: DeviceBench, log=print) -> list[dict]:
    ours, ref, inputs, work, is_text = _pair(name, config)
    ours, ref = ours.to(config.device).eval(), ref.to(config.device).eval()
    rows = []
    for dtype in config.dtypes:  # every forward first: the training steps change both sides' weights
        rows += _logged(_forward_rows(name, ours, ref, inputs, work, is_text, dtype, config), log)
    for dtype in config.dtypes if config.train and is_text else ():
        rows += _logged(_train_rows(name, ours, ref, inputs, work, dtype, config), log)
    del ours, ref
    gc.collect()
    if torch.device(config.device).type == "cuda":
        torch.cuda.empty_cache()
    return rows


def report(rows: list[dict], config: DeviceBench) -> str:
    head = (f"\nThroughput per attention backend, {config.device}: text batch {config.batch} x {config.seq} tokens, "
            f"vision batch {config.images} images; bf16 = torch.autocast per call; {config.repeats} interleaved "
            "calls per side, medians; x ref = median over pairs of the reference's time over ours "
            "(reference: transformers with its default attention, or timm)\n")
    cells = [[r["model"], r["kind"], r["dtype"], r["side"], f"{r['per_s']:,.0f}",
              "1" if r["side"] == "ref" else f"**{r['ratio']:.2f}x** ({r['iqr'][0]:.2f}-{r['iqr'][1]:.2f})",
              "n/a" if r["peak_bytes"] is None else f"{r['peak_bytes'] / 2**20:,.0f}"] for r in rows]
    return head + "\n" + table(["model", "pass", "dtype", "attention", "tokens or images /s", "x ref (IQR)",
                                "peak MiB"], cells)
