"""Greedy decoding throughput (new tokens / s, prefill included): ours as created, packed, compiled and
both, against transformers' generate on the same weights, outputs checked identical first."""
from __future__ import annotations

import time

import torch

from bench.config import GenerationBench
from bench.generation.common import TARGETS, VARIANTS, packed_copy, prompt_ids
from bench.report import BenchmarkError, ratio_cells, table, target_verdict
from bench.timing import interleaved, summarize
from zoo.generation import generate


def ref_generate(ref, ids: torch.Tensor, new: int) -> torch.Tensor:
    return ref.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=new, min_new_tokens=new,
                        do_sample=False, eos_token_id=None, pad_token_id=0)


def first_difference(ours: torch.Tensor, ref: torch.Tensor) -> tuple[int, int] | None:
    """(row, token) of the earliest token position where two equal-shaped outputs differ, None if equal."""
    differs = ours != ref  # (B, T)
    if not differs.any():
        return None
    col = int(differs.any(0).nonzero()[0])
    return int(differs[:, col].nonzero()[0]), col


def check_same_tokens(what: str, ours: torch.Tensor, ref: torch.Tensor, expected_shape: tuple,
                      exact: bool = True) -> tuple[int, int] | None:
    """Raises where a side's shape is not expected_shape, and (exact) where the tokens differ; returns the
    first difference (first_difference), None if equal."""
    for side, out in (("ours", ours), ("transformers", ref)):
        if tuple(out.shape) != expected_shape:
            raise BenchmarkError(f"{what}: {side} returned shape {tuple(out.shape)}, expected {expected_shape} "
                             "(stopped early?); not timing different work")
    at = first_difference(ours, ref)
    if exact and at is not None:
        raise BenchmarkError(f"{what}: greedy outputs differ first at row {at[0]}, token {at[1]}; "
                         "not timing different computations")
    return at


def first_calls_checked(what: str, fns: dict, sides, want: torch.Tensor, expected_shape: tuple,
                        differences: dict | None = None) -> dict[str, float]:
    """Each side's first call (compiled ones compile there), checked against the reference's tokens `want`:
    {side: seconds}. With `differences` (bf16, whose greedy tokens may part from another implementation's),
    tokens that differ are no error: differences[side] = (row, token) where they first do, or None."""
    seconds = {}
    for side in sides:
        start = time.perf_counter()
        at = check_same_tokens(f"{what} ({side})", fns[side](), want, expected_shape, exact=differences is None)
        seconds[side] = time.perf_counter() - start
        if differences is not None:
            differences[side] = at
    return seconds


def new_token_differences(differences: dict, sides: dict[str, str], prompt: int) -> dict:
    """{row key: [row, new token] where that side's tokens first part from the reference's, or None}, from
    first_calls_checked's differences by fn name (token positions counted after the `prompt` tokens)."""
    return {key: None if differences[side] is None else [differences[side][0], differences[side][1] - prompt]
            for key, side in sides.items()}


def timed_row(config: GenerationBench, what: str, fns: dict, sides: dict[str, str], ids: torch.Tensor,
              differences: dict | None = None) -> tuple[dict, dict[str, float]]:
    """Each side checked against fns["ref"] (first_calls_checked), then every fn timed interleaved. sides: row
    key -> name in fns, "ours" first. Returns (row: "ours" summarized at the top level, each other key nested;
    first-call seconds by fn name)."""
    tokens = ids.shape[0] * config.gen_new_tokens
    first_call = first_calls_checked(what, fns, sides.values(), fns["ref"](),
                                     (ids.shape[0], ids.shape[1] + config.gen_new_tokens), differences)
    times = interleaved(fns, config.gen_warmup, config.gen_repeats)
    row = {**summarize(times, tokens, ours=sides["ours"]),
           **{key: summarize(times, tokens, ours=side) for key, side in sides.items() if key != "ours"}}
    print(f"  {what}: ours {row['ours_tok_s']:.1f} tok/s, ratio {row['ratio']:.2f}, "
          + ", ".join(f"{key} {row[key]['ratio']:.2f}" for key in sides if key != "ours"), flush=True)
    return row, first_call


def run(config: GenerationBench, pairs: dict) -> list[dict]:
    """One row per model and batch: ours, its VARIANTS and transformers interleaved five ways; the
    compiled variants' first calls (which compile) are timed apart. pairs: {model: reference_pair(model)}."""
    rows = []
    for name in config.gen_models:
        ours, ref = pairs[name]
        packed = packed_copy(ours)
        for batch in config.gen_batches:
            ids = prompt_ids(ours.config.vocab_size, batch, config.gen_prompt)
            new = config.gen_new_tokens
            fns = {"ours": lambda: generate(ours, ids, new), "packed": lambda: generate(packed, ids, new),
                   "compiled": lambda: generate(ours, ids, new, compile=True),
                   "packed+compiled": lambda: generate(packed, ids, new, compile=True),
                   "ref": lambda: ref_generate(ref, ids, new)}
            row, first_call = timed_row(config, f"decode {name} batch {batch}", fns,
                                        {"ours": "ours", **{v: v for v in VARIANTS}}, ids)
            rows.append({"model": name, "batch": batch, **row, "compile_s": first_call["compiled"],
                         "packed_compile_s": first_call["packed+compiled"]})
        packed = None  # freed before the next model is packed
    return rows


def best_of(row: dict, target: float, variants=VARIANTS) -> list[str]:
    """[ours/ref, each variant/ref, target, met]: met when any configuration reaches the target."""
    cells = [ratio_cells(row, target)[0]] + [ratio_cells(row[v], target)[0] for v in variants]
    best = max([row["ratio"]] + [row[v]["ratio"] for v in variants])
    return [*cells, *target_verdict(best, target)]


def report(rows: list[dict], config: GenerationBench) -> str:
    return "\n".join([
        f"\n### Greedy decoding, {config.gen_prompt}-token prompt + {config.gen_new_tokens} new tokens (prefill "
        f"included), fp32; {config.gen_repeats} interleaved calls per side, medians; ours/ref is the median over "
        "pairs\n",
        "ours: `zoo.generation.generate(model, ids, n)`; transformers: `model.generate(ids, attention_mask="
        "ones, max_new_tokens=n, min_new_tokens=n, do_sample=False)`; outputs identical (checked)\n",
        "packed: the same model after `zoo.pack_for_inference` (inference weight copies, fused q/k/v); "
        "compiled: `generate(..., compile=True)` (fixed-shape steps through torch.compile; its first "
        "call, which compiles, is not timed: see the last column); packed+compiled: both (inside a compiled "
        "step the compiler picks the GEMM layouts: only bf16 one-row products keep a packed path, zoo::gemv)\n",
        table(["model", "batch", "ours new tok/s", *(f"{v} new tok/s" for v in VARIANTS), "transformers new tok/s",
               "ours/ref (IQR)", *(f"{v}/ref (IQR)" for v in VARIANTS), "target", "met",
               "first compiled call (packed)"],
              [[r["model"], r["batch"], f"{r['ours_tok_s']:,.1f}", *(f"{r[v]['ours_tok_s']:,.1f}" for v in VARIANTS),
                f"{r['ref_tok_s']:,.1f}", *best_of(r, TARGETS["decode"].get(r["model"], 1.0)),
                f"{r['compile_s']:.0f} s ({r['packed_compile_s']:.0f} s)"] for r in rows])])
