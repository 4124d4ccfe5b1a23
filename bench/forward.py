"""Forward throughput: ours as created, ours after zoo.pack_for_inference, and transformers on the same
weights, interleaved three ways after checking that their logits agree."""
from __future__ import annotations

import copy
import gc

import torch

import zoo
from bench.config import ModelBench
from bench.references import check_close, reference_pair
from bench.report import ratio_cells, table
from bench.timing import autocast, ceiling, interleaved, summarize
from heads.lm import shift_targets
from zoo.training.tasks import model_inputs

TARGET = 1.2  # ours / transformers, from the performance issue


def make_batch(model, batch: int, seq: int, attention_mask: bool) -> dict[str, torch.Tensor]:
    """Inputs and training labels: next tokens for decoders, 15 % masked positions for BERT."""
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(0, model.config.vocab_size, (batch, seq), generator=g)
    if model.config.family == "bert":
        labels = torch.where(torch.rand(batch, seq, generator=g) < 0.15, ids, -100)
    else:
        labels = shift_targets(ids)
    out = {"input_ids": ids, "labels": labels}
    if attention_mask:
        out["attention_mask"] = torch.ones_like(ids)
    return out


def three_ways(ours, packed, ref, forward, work: int, warmup: int, repeats: int) -> dict:
    """forward(model) timed for ours, ours packed (zoo.pack_for_inference) and the reference, interleaved:
    summarize() of ours vs ref, with packed's numbers under "packed", and the ceiling."""
    times = interleaved({"ours": lambda: forward(ours), "packed": lambda: forward(packed),
                         "ref": lambda: forward(ref)}, warmup, repeats)
    return {**summarize(times, work), "packed": summarize(times, work, ours="packed"),
            **ceiling(times, lambda: forward(ref))}


def run(name: str, config: ModelBench) -> list[dict]:
    """One row per dtype for preset `name`: ours, ours packed (a second model: the same weights, packed)
    and transformers."""
    ours, ref = reference_pair(name)
    packed = zoo.pack_for_inference(copy.deepcopy(ours))
    inputs = model_inputs(make_batch(ours, config.batch, config.seq, config.attention_mask == "ones"))
    rows = []
    for dtype in config.dtypes:
        def forward(model, dtype=dtype):
            # A fresh autocast region per call, as an inference loop has: the weights' bf16 casts are
            # part of the cost (one region around every call would cache them).
            with torch.inference_mode(), autocast(dtype):
                return model(**inputs)
        want = forward(ref).logits
        diff = check_close(name, dtype, forward(ours), want)
        packed_diff = check_close(f"{name} packed", dtype, forward(packed), want)
        row = three_ways(ours, packed, ref, forward, config.batch * config.seq, config.warmup, config.repeats)
        rows.append({"model": name, "dtype": dtype, "max_abs_diff": diff, "packed_max_abs_diff": packed_diff, **row})
        print(f"  forward {name} {dtype}: ratio {row['ratio']:.2f}, packed {row['packed']['ratio']:.2f}", flush=True)
    del packed
    gc.collect()
    return rows


def report(rows: list[dict], config: ModelBench) -> str:
    head = (f"\nForward, torch.inference_mode (bf16: torch.autocast per call), {config.shape()}; "
            f"{config.repeats} interleaved runs per side, medians; ratios are medians over pairs. "
            "\"packed\": the same model after zoo.pack_for_inference\n")
    return head + "\n" + table(
        ["model", "dtype", "ours tok/s", "packed tok/s", "transformers tok/s", "ours/ref (IQR)", "packed/ref (IQR)",
         "target", "met", "ceiling", "max abs diff"],
        [[r["model"], r["dtype"], f"{r['ours_tok_s']:,.0f}", f"{r['packed']['ours_tok_s']:,.0f}",
          f"{r['ref_tok_s']:,.0f}", ratio_cells(r, TARGET)[0], *ratio_cells(r["packed"], TARGET),
          f"{r['ceiling']:.2f}x", f"{max(r['max_abs_diff'], r['packed_max_abs_diff']):.1e}"] for r in rows])
