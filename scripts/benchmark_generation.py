#!/usr/bin/env python
"""Benchmark text generation on CPU: our `zoo.generation` against transformers' `generate`.

Sections (each prints a Markdown table with its targets beside the numbers):

1. decode   greedy decoding throughput (new tokens / s, prefill included), ours (as created, packed,
            compiled) vs transformers, same weights (a random-weight GPT2LMHeadModel converted with
            `zoo.from_hf`), outputs checked identical first; interleaved, medians.
2. bound    this machine's memory bandwidth, and the tokens/s it allows at batch 1 when every
            weight is read once per token (the LM head reads the whole tied embedding); ours as a %.
3. bf16     our decoding with bf16 weights vs our fp32, batch 1.
4. context  the cost of one cached decoding step at position ~1000 vs ~100 (`Session.feed`).
5. speculative  a gpt_tiny draft and a larger target trained on the shipped KJV extract by the
            engine (scripts/train_text.py); greedy speculative vs plain greedy target decoding.

    python scripts/benchmark_generation.py              # the full run (~20 min on 2 idle cores, compiling included)
    python scripts/benchmark_generation.py --quick      # smoke test, < 60 s
    python scripts/benchmark.py --only generation       # the same, from the main benchmark

The fairness rules are scripts/benchmark.py's, whose helpers this module imports.
"""
from __future__ import annotations

import argparse
import copy
import gc
import inspect
import json
import re
import statistics
import tempfile
import time
from pathlib import Path

import torch

from zoo.bench import cpu_seconds, interleaved, machine, others_share, ratio_cells, reference_pair, summarize, table
import zoo
from zoo.generation import Session, GenerationConfig, generate

SECTIONS = ("decode", "bound", "bf16", "context", "speculative")
TARGETS = {  # from the generation-performance issue
    "decode": {"gpt_tiny": 2.0, "gpt2": 1.2},  # ours / transformers tokens/s
    "bound": 0.80,        # ours / bandwidth bound, batch 1 fp32      } these three are set for gpt2 (memory-bound);
    "bf16": 1.8,          # ours bf16 / ours fp32 tokens/s, batch 1   } other models (--quick's gpt_tiny) show
    "context": 1.5,       # step cost at ~1000 / at ~100 (at most)    } no target
    "speculative": 1.5,   # speculative / plain greedy tokens/s (best k)
}
TARGET_MODEL = "gpt2"  # the model the bound / bf16 / context targets are set for

# Shapes and repeats for the full run and --quick (explicit --gen-* flags win over either).
FULL = {"gen_models": ["gpt_tiny", "gpt2"], "gen_batches": [1, 8], "gen_prompt": 16, "gen_new_tokens": 128,
        "gen_warmup": 1, "gen_repeats": 5, "bandwidth_mb": 1024, "context_positions": [100, 1000],
        "context_steps": 20, "spec_train_steps": 250, "spec_target": "depth=12,dim=512,num_heads=8,mlp_hidden=2048",
        "spec_k": [2, 4, 6], "spec_prompts": 4, "spec_new_tokens": 128, "spec_repeats": 3}
QUICK = {"gen_models": ["gpt_tiny"], "gen_batches": [1, 8], "gen_prompt": 8, "gen_new_tokens": 32,
         "gen_warmup": 1, "gen_repeats": 3, "bandwidth_mb": 256, "context_positions": [20, 200],
         "context_steps": 8, "spec_train_steps": 15, "spec_target": "depth=4,dim=256,num_heads=4,mlp_hidden=1024",
         "spec_k": [2, 4], "spec_prompts": 2, "spec_new_tokens": 32, "spec_repeats": 2}


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The generation benchmark's flags (prefixed, so they sit beside scripts/benchmark.py's)."""
    g = p.add_argument_group("generation benchmark")
    g.add_argument("--gen-sections", nargs="+", choices=SECTIONS, help=f"default all: {' '.join(SECTIONS)}")
    g.add_argument("--gen-models", nargs="+", help=f"presets to decode (default {FULL['gen_models']}; the last "
                   "is used for the bound, bf16 and context sections)")
    g.add_argument("--gen-batches", nargs="+", type=int, help=f"batch sizes (default {FULL['gen_batches']})")
    g.add_argument("--gen-prompt", type=int, help=f"prompt tokens (default {FULL['gen_prompt']})")
    g.add_argument("--gen-new-tokens", type=int, help=f"new tokens per sequence (default {FULL['gen_new_tokens']})")
    g.add_argument("--gen-warmup", type=int, help="untimed generate calls per side (default 1)")
    g.add_argument("--gen-repeats", type=int, help=f"timed generate calls per side (default {FULL['gen_repeats']})")
    g.add_argument("--bandwidth-mb", type=int, help="buffer size of the bandwidth probes in MiB (default 1024)")
    g.add_argument("--context-positions", nargs=2, type=int, help="short and long cache positions "
                   f"(default {FULL['context_positions']})")
    g.add_argument("--context-steps", type=int, help="timed single-token steps per position (default 20)")
    g.add_argument("--spec-train-steps", type=int, help="training steps of the target (default "
                   f"{FULL['spec_train_steps']}: with the draft's, about 5 minutes on 2 cores)")
    g.add_argument("--spec-draft-steps", type=int, help="training steps of the draft (default: 2x "
                   "--spec-train-steps; a gpt_tiny step costs ~1/8 of the default target's)")
    g.add_argument("--spec-target", help="gpt_tiny overrides for the target, e.g. depth=8,dim=384,num_heads=6,mlp_hidden=1536")
    g.add_argument("--spec-k", nargs="+", type=int, help=f"draft tokens per round (default {FULL['spec_k']})")
    g.add_argument("--spec-prompts", type=int, help="held-out KJV prompts (default 4)")
    g.add_argument("--spec-new-tokens", type=int, help="new tokens per prompt (default 128)")
    g.add_argument("--spec-repeats", type=int, help="timed runs per variant (default 3)")
    g.add_argument("--spec-train-dtype", choices=["fp32", "bf16"], default="bf16",
                   help="training precision of the draft and target (default bf16: AMX makes it ~2x faster)")
    g.add_argument("--spec-dir", help="train into / reuse models from this folder (default: a new temp folder)")


def fill_defaults(args: argparse.Namespace) -> argparse.Namespace:
    for key, default in (QUICK if getattr(args, "quick", False) else FULL).items():
        if getattr(args, key, None) is None:
            setattr(args, key, default)
    if getattr(args, "gen_sections", None) is None:
        args.gen_sections = list(SECTIONS)
    if getattr(args, "spec_draft_steps", None) is None:
        args.spec_draft_steps = 2 * args.spec_train_steps
    return args


# --- 1. decoding throughput ---------------------------------------------------------------------

def prompt_ids(vocab_size: int, batch: int, length: int) -> torch.Tensor:
    return torch.randint(0, vocab_size, (batch, length), generator=torch.Generator().manual_seed(batch))


def ref_generate(ref, ids: torch.Tensor, new: int) -> torch.Tensor:
    return ref.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=new, min_new_tokens=new,
                        do_sample=False, eos_token_id=None, pad_token_id=0)


def check_same_tokens(what: str, ours: torch.Tensor, ref: torch.Tensor, expected_shape: tuple) -> None:
    for side, out in (("ours", ours), ("transformers", ref)):
        if tuple(out.shape) != expected_shape:
            raise SystemExit(f"{what}: {side} returned shape {tuple(out.shape)}, expected {expected_shape} "
                             "(stopped early?); not timing different work")
    if not torch.equal(ours, ref):
        row, col = (ours != ref).nonzero()[0].tolist()
        raise SystemExit(f"{what}: greedy outputs differ first at row {row}, token {col}; "
                         "not timing different computations")


def packed_copy(model):
    """The same weights after zoo.pack_for_inference: the inference configuration we recommend."""
    return zoo.pack_for_inference(copy.deepcopy(model))


# Beside ours as created: zoo.pack_for_inference; generate(compile=True); both (packed layers inside the
# compiled step: batch-1 products go to zoo::gemv, backbones/gemv.py).
VARIANTS = ("packed", "compiled", "packed+compiled")
# One compiled graph per model structure, dtype, packing and batch: the full run needs more than dynamo's
# default 8 per code object, past which it would silently run the step eagerly.
torch._dynamo.config.cache_size_limit = 64


def dtype_variants(ours) -> dict:
    """{"fp32", "fp32 packed", "bf16", "bf16 packed"} -> model: ours in fp32 and bf16 weights, each as
    created and after zoo.pack_for_inference (the bound and bf16 sections time the same set)."""
    ours_bf16 = copy.deepcopy(ours).to(torch.bfloat16)
    return {"fp32": ours, "fp32 packed": packed_copy(ours), "bf16": ours_bf16, "bf16 packed": packed_copy(ours_bf16)}


def decode_fns(models: dict, variants: list[str], ids: torch.Tensor, new: int) -> dict:
    """{variant: generate call}: a variant ending in "compiled" decodes its model without that suffix
    (e.g. "fp32 packed+compiled" -> models["fp32 packed"]) with compile=True."""
    fns = {}
    for name in variants:
        base = re.sub(r"[ +]?compiled$", "", name)
        fns[name] = lambda m=models[base], c=name != base: generate(m, ids, new, compile=c)
    return fns


def bench_decode(args, pairs: dict) -> list[dict]:
    """Ours as created, packed, compiled and both, and transformers: interleaved five ways, outputs
    checked identical; the compiled variants' first calls (which compile) are timed apart."""
    rows = []
    for name in args.gen_models:
        ours, ref = pairs[name]
        packed = packed_copy(ours)
        for batch in args.gen_batches:
            ids = prompt_ids(ours.config.vocab_size, batch, args.gen_prompt)
            new = args.gen_new_tokens
            fns = {"ours": lambda: generate(ours, ids, new), "packed": lambda: generate(packed, ids, new),
                   "compiled": lambda: generate(ours, ids, new, compile=True),
                   "packed+compiled": lambda: generate(packed, ids, new, compile=True),
                   "ref": lambda: ref_generate(ref, ids, new)}
            want = fns["ref"]()
            first_call = {}
            for side in ("ours", *VARIANTS):
                start = time.perf_counter()
                check_same_tokens(f"{name} batch {batch} ({side})", fns[side](), want, (batch, ids.shape[1] + new))
                first_call[side] = time.perf_counter() - start
            times = interleaved(fns, args.gen_warmup, args.gen_repeats)
            row = {"model": name, "batch": batch, **summarize(times, batch * new),
                   "compile_s": first_call["compiled"], "packed_compile_s": first_call["packed+compiled"]}
            for variant in VARIANTS:
                row[variant] = summarize(times, batch * new, ours=variant)
            rows.append(row)
            print(f"  decode {name} batch {batch}: ours {row['ours_tok_s']:.1f} tok/s, ratio {row['ratio']:.2f}, "
                  + ", ".join(f"{v} {row[v]['ratio']:.2f}" for v in VARIANTS), flush=True)
        del packed
    return rows


# --- 2. the memory-bandwidth bound ----------------------------------------------------------------

def bandwidth_probes(megabytes: int) -> dict:
    """{name: (fn, bytes moved per call)}: copy_ (read + write), a read-only sum, and a matrix-vector
    product (batch-1 decoding's pattern: every weight read once, streamed), on buffers past the caches."""
    n = megabytes * 2**20 // 4
    src, dst = torch.rand(n), torch.empty(n)
    side = int(n ** 0.5)
    matrix, vector = src[:side * side].view(side, side), torch.rand(side)
    return {"copy": (lambda: dst.copy_(src), 2 * n * 4), "read": (lambda: src.sum(), n * 4),
            "matvec": (lambda: torch.mv(matrix, vector), side * side * 4)}


@torch.no_grad()
def bench_bound(args, ours) -> dict:
    """Ours at batch 1 (fp32 and bf16 weights) interleaved with the bandwidth probes, so that both see
    the same load from other processes; bound = the best probe's median GB/s / bytes read per token."""
    probes = bandwidth_probes(args.bandwidth_mb)
    models = dtype_variants(ours)
    variants = ["fp32", "fp32 packed", "fp32 compiled", "fp32 packed+compiled", "bf16", "bf16 packed",
                "bf16 packed+compiled"]
    ids, n = prompt_ids(ours.config.vocab_size, 1, args.gen_prompt), args.gen_new_tokens
    fns = {**decode_fns(models, variants, ids, n), **{name: fn for name, (fn, _) in probes.items()}}
    times = interleaved(fns, args.gen_warmup, args.gen_repeats)
    gb_s = {name: nbytes / statistics.median(times[name]) / 1e9 for name, (_, nbytes) in probes.items()}
    best_gb_s = {name: nbytes / min(times[name]) / 1e9 for name, (_, nbytes) in probes.items()}
    bandwidth = {"buffer_bytes": args.bandwidth_mb * 2**20, **{f"{k}_gb_s": v for k, v in gb_s.items()},
                 "best_gb_s": best_gb_s, "bound_gb_s": max(gb_s.values()),
                 "last_level_cache_bytes": last_level_cache_bytes()}
    rows = []
    for dtype in variants:
        nbytes = bytes_per_token(models[dtype.split()[0]])
        bound, tok_s = bandwidth["bound_gb_s"] * 1e9 / nbytes, n / statistics.median(times[dtype])
        rows.append({"dtype": dtype, "bytes_per_token": nbytes, "bound_tok_s": bound, "ours_tok_s": tok_s,
                     "fraction": tok_s / bound, "times": times[dtype]})
    del probes, models, fns
    gc.collect()
    print(f"  bound: {bandwidth['bound_gb_s']:.1f} GB/s -> {rows[0]['bound_tok_s']:.1f} tok/s; "
          + ", ".join(f"{r['dtype']} {r['fraction']:.0%}" for r in rows), flush=True)
    return {"bandwidth": bandwidth, "rows": rows}


def last_level_cache_bytes() -> int | None:
    """The largest CPU cache Linux reports (on a VM: the host's, shared with other guests)."""
    sizes = []
    for path in Path("/sys/devices/system/cpu/cpu0/cache").glob("index*/size"):
        text = path.read_text().strip()
        scale = {"K": 2**10, "M": 2**20, "G": 2**30}.get(text[-1], 1)
        sizes.append(int(text.rstrip("KMG")) * scale)
    return max(sizes) if sizes else None


def bytes_per_token(model) -> int:
    """Weight bytes one batch-1 decoding step reads: every parameter once (model.parameters() counts a
    tied embedding once, and the LM head reads all of it), except position tables, of which one row."""
    total = sum(p.numel() * p.element_size() for p in model.parameters())
    positions = getattr(model.embed, "positions", None)
    if positions is not None:
        w = positions.weight
        total -= (w.shape[0] - 1) * w.shape[1] * w.element_size()
    return total


# --- 3. bf16 weights ----------------------------------------------------------------------------

def bench_bf16(args, ours) -> dict:
    """bf16 weights against fp32: as created, both packed, both packed and compiled (six runs interleaved)."""
    models = dtype_variants(ours)
    ids = prompt_ids(ours.config.vocab_size, 1, args.gen_prompt)
    new = args.gen_new_tokens
    fns = decode_fns(models, [f"{d}{s}" for s in ("", " packed", " packed+compiled") for d in ("fp32", "bf16")],
                     ids, new)
    out = {k: fn()[0, ids.shape[1]:] for k, fn in fns.items()}
    times = interleaved(fns, args.gen_warmup, args.gen_repeats)
    rows = []
    for suffix in ("", " packed", " packed+compiled"):
        agree = int((out["bf16" + suffix] == out["fp32" + suffix]).cumprod(0).sum())
        pair = summarize(times, new, ours="bf16" + suffix, ref="fp32" + suffix)
        rows.append({"variant": suffix.strip() or "as created", **pair,
                     "leading_tokens_equal_fp32": agree})
    print("  bf16: " + ", ".join(f"{r['variant']} {r['ours_tok_s']:.1f} tok/s vs fp32 {r['ref_tok_s']:.1f}"
                                 for r in rows), flush=True)
    result = {"rows": rows, "bf16_bytes_per_token": bytes_per_token(models["bf16"])}
    del models, fns
    gc.collect()
    return result


# --- 4. step cost vs context length -------------------------------------------------------------

@torch.no_grad()
def bench_context(args, model) -> dict:
    """One cached single-token step at ~short vs ~long positions. Two copies of the model share the
    weights (only the modules are copied, so each has its own KV cache) and step in turn."""
    short, long = args.context_positions
    steps, warmup = args.context_steps, 2
    if long + steps + warmup + 1 > model.max_positions:
        raise SystemExit(f"--context-positions: {long} + {steps + warmup + 1} steps exceeds the model's "
                         f"{model.max_positions} positions")
    shared = {id(p): p for p in model.parameters()}
    decoders, token = {}, torch.tensor([[1]])
    for label, length in (("short", short), ("long", long)):
        copy_ = copy.deepcopy(model, memo=dict(shared)).eval()
        decoders[label] = Session(copy_, prompt_ids(model.config.vocab_size, 1, length), steps + warmup + 1)
        decoders[label].feed(prompt_ids(model.config.vocab_size, 1, length))  # prefill
    times = interleaved({k: (lambda d=d: d.feed(token)) for k, d in decoders.items()}, warmup, steps)
    for d in decoders.values():
        d.close()
    med = {k: statistics.median(v) for k, v in times.items()}
    row = {"short_pos": short, "long_pos": long, "short_ms": med["short"] * 1e3, "long_ms": med["long"] * 1e3,
           "ratio": med["long"] / med["short"], "times": times}
    print(f"  context: {row['short_ms']:.2f} ms at ~{short}, {row['long_ms']:.2f} ms at ~{long}", flush=True)
    return row


# --- 5. speculative decoding --------------------------------------------------------------------

def parse_overrides(text: str) -> dict:
    out = {}
    for item in filter(None, text.split(",")):
        key, value = item.split("=")
        out[key.strip()] = float(value) if "." in value else int(value)
    return out


def train_spec_models(args, work: Path):
    """Train the draft (gpt_tiny, its tokenizer trained on the way) and the target (gpt_tiny with
    --spec-target overrides, the SAME tokenizer) with scripts/train_text.py; reuse them if present."""
    import train_text
    from data.text import KJV_EXTRACT
    from data.tokenization import load_tokenizer

    import zoo

    def common(steps: int) -> list[str]:
        return ["--data", str(KJV_EXTRACT), "--steps", str(steps), "--warmup", str(max(1, min(100, steps // 5))),
                "--eval-every", "0", "--save-every", "0", "--eval-batches", "2", "--dtype", args.spec_train_dtype,
                "--no-progress"]

    wall = {}
    if not (work / "draft" / "model" / "config.json").exists():
        start = time.perf_counter()
        train_text.main(["--model", "gpt_tiny", "--out", str(work / "draft"), *common(args.spec_draft_steps)])
        wall["draft"] = time.perf_counter() - start
    tokenizer = load_tokenizer(work / "draft" / "tokenizer")
    if not (work / "target" / "model" / "config.json").exists():
        start = time.perf_counter()
        init = zoo.create_model("gpt_tiny", vocab_size=tokenizer.vocab_size, **parse_overrides(args.spec_target))
        init.save_pretrained(work / "target_init")
        train_text.main(["--model", "gpt_tiny", "--init", str(work / "target_init"),
                         "--tokenizer", str(work / "draft" / "tokenizer"), "--out", str(work / "target"),
                         *common(args.spec_train_steps)])
        wall["target"] = time.perf_counter() - start
    summaries = {k: json.loads((work / k / "summary.json").read_text()) for k in ("draft", "target")}
    models = {k: zoo.load_pretrained(work / k / "model").eval() for k in ("draft", "target")}
    return models, tokenizer, summaries, wall


def bench_speculative(args) -> dict | None:
    try:
        from zoo.generation.speculative import speculative_generate
    except ImportError as error:
        print(f"\n### Speculative decoding: skipped (zoo.generation.speculative is not available yet: {error})")
        return None
    from data.lm_dataset import train_val_split

    work = Path(args.spec_dir or tempfile.mkdtemp(prefix="bench_spec_"))
    models, tokenizer, summaries, wall = train_spec_models(args, work)
    target, draft = models["target"], models["draft"]
    n = args.spec_new_tokens
    _, held_out = train_val_split(work / "draft" / "tokens.bin", args.gen_prompt, val_fraction=0.1)
    picks = [len(held_out) * (i + 1) // (args.spec_prompts + 1) for i in range(args.spec_prompts)]
    prompts = [held_out[i]["input_ids"][None].long() for i in picks]  # (1, T) each
    config = GenerationConfig(max_new_tokens=n)
    via_generate = "draft_model" in inspect.signature(generate).parameters  # the public entry point, once it exists

    def plain():
        return [generate(target, p, n) for p in prompts]

    def speculative(k):
        if via_generate:
            return [generate(target, p, n, draft_model=draft, num_draft_tokens=k) for p in prompts]
        return [speculative_generate(target, draft, p, config, k)[0] for p in prompts]

    reference = plain()
    stats = {}
    for k in args.spec_k:
        results = [speculative_generate(target, draft, p, config, k) for p in prompts]
        for i, ((tokens, _), want) in enumerate(zip(results, reference)):
            assert torch.equal(tokens, want), f"speculative k={k} differs from plain greedy on prompt {i}"
        if via_generate:
            assert all(torch.equal(a, b) for a, b in zip(speculative(k), reference)), "generate(draft_model=)"
        proposed = sum(s.proposed for _, s in results)
        accepted = sum(s.accepted for _, s in results)
        stats[k] = {"acceptance_rate": accepted / proposed if proposed else 0.0,
                    "target_forwards": sum(s.target_forwards for _, s in results),
                    "draft_forwards": sum(s.draft_forwards for _, s in results)}
    fns = {"plain": plain, "draft_alone": lambda: [generate(draft, p, n) for p in prompts],
           **{f"k={k}": (lambda k=k: speculative(k)) for k in args.spec_k}}
    times = interleaved(fns, 1, args.spec_repeats)
    med = {key: statistics.median(v) for key, v in times.items()}
    tokens = n * len(prompts)
    rows = [{"k": k, "tok_s": tokens / med[f"k={k}"], "speedup": med["plain"] / med[f"k={k}"],
             "pair_speedups": [p / s for p, s in zip(times["plain"], times[f"k={k}"])], **stats[k]}
            for k in args.spec_k]
    result = {"work_dir": str(work), "summaries": summaries, "train_wall_s": wall, "via_generate": via_generate,
              "plain_tok_s": tokens / med["plain"], "draft_tok_s": tokens / med["draft_alone"], "rows": rows,
              "prompts": len(prompts), "new_tokens": n, "times": times,
              "sample": tokenizer.decode(reference[0][0].tolist()),
              "params_m": {k: sum(p.numel() for p in m.parameters()) / 1e6 for k, m in models.items()}}
    print(f"  speculative: plain {result['plain_tok_s']:.1f} tok/s, best k speed-up "
          f"{max(r['speedup'] for r in rows):.2f}x", flush=True)
    return result


# --- reporting ----------------------------------------------------------------------------------

def target_cells(model: str, ok: bool, text: str) -> list[str]:
    return [text, "yes" if ok else "no"] if model == TARGET_MODEL else [f"- ({text} for {TARGET_MODEL})", "-"]


def met(ok: bool) -> str:
    return "yes" if ok else "no"


def best_of(row: dict, target: float) -> list[str]:
    """[ours/ref, each variant/ref, target, met]: met when any configuration reaches the target."""
    cells = [ratio_cells(row, target)[0]] + [ratio_cells(row[v], target)[0] for v in VARIANTS]
    best = max([row["ratio"]] + [row[v]["ratio"] for v in VARIANTS])
    return [*cells, f">= {target}x", met(best >= target)]


def report(results: dict, args) -> None:
    m, new = results["machine"], args.gen_new_tokens
    if results.get("decode"):
        print(f"\n### Greedy decoding, {args.gen_prompt}-token prompt + {new} new tokens (prefill included), fp32; "
              f"{args.gen_repeats} interleaved calls per side, medians; ours/ref is the median over pairs\n")
        print("ours: `zoo.generation.generate(model, ids, n)`; transformers: `model.generate(ids, attention_mask="
              "ones, max_new_tokens=n, min_new_tokens=n, do_sample=False)`; outputs identical (checked)\n")
        print("packed: the same model after `zoo.pack_for_inference` (inference weight copies, fused q/k/v); "
              "compiled: `generate(..., compile=True)` (fixed-shape steps through torch.compile; its first "
              "call, which compiles, is not timed: see the last column); packed+compiled: both, the batch-1 "
              "products then run through zoo::gemv (backbones/gemv.py)\n")
        print(table(["model", "batch", "ours new tok/s", *(f"{v} new tok/s" for v in VARIANTS),
                     "transformers new tok/s", "ours/ref (IQR)", *(f"{v}/ref (IQR)" for v in VARIANTS), "target",
                     "met", "first compiled call (packed)"],
                    [[r["model"], r["batch"], f"{r['ours_tok_s']:,.1f}", *(f"{r[v]['ours_tok_s']:,.1f}" for v in VARIANTS),
                      f"{r['ref_tok_s']:,.1f}", *best_of(r, TARGETS["decode"].get(r["model"], 1.0)),
                      f"{r['compile_s']:.0f} s ({r['packed_compile_s']:.0f} s)"]
                     for r in results["decode"]]))
    if results.get("bound"):
        b = results["bound"]
        bw = b["bandwidth"]
        print(f"\n### Memory-bandwidth bound, {b['model']} batch 1 (every weight read once per token)\n")
        print(f"Bandwidth on a {args.bandwidth_mb} MiB buffer, medians of {args.gen_repeats} calls interleaved "
              f"with ours: copy_ {bw['copy_gb_s']:.1f} GB/s (read + write), read-only sum {bw['read_gb_s']:.1f} GB/s, "
              f"matrix-vector {bw['matvec_gb_s']:.1f} GB/s (best single call {max(bw['best_gb_s'].values()):.1f}); "
              f"the bound uses the highest median, {bw['bound_gb_s']:.1f} GB/s. Ours: `generate`, batch 1, "
              f"{args.gen_prompt}-token prompt + {new} new tokens (prefill included), timed in the same loop.")
        llc = bw["last_level_cache_bytes"]
        if llc:
            print(f"The largest CPU cache reported is {llc / 2**20:.0f} MiB (on a VM, the host's, shared); weights that "
                  "fit in it can beat this DRAM bound.")
        print()
        print(table(["weights", "MB read per token", "bound tok/s", "ours tok/s", "ours % of bound", "target", "met"],
                    [[r["dtype"], f"{r['bytes_per_token'] / 1e6:.1f}", f"{r['bound_tok_s']:.1f}",
                      f"{r['ours_tok_s']:.1f}", f"**{r['fraction']:.0%}**",
                      *(target_cells(b["model"], r["fraction"] >= TARGETS["bound"], f">= {TARGETS['bound']:.0%}")
                        if r["dtype"].startswith("fp32") else ["-", "-"])]
                     for r in b["rows"]]))
    if results.get("bf16"):
        b = results["bf16"]
        print(f"\n### bf16 weights (`model.to(torch.bfloat16)`), {b['model']} batch 1, {new} new tokens; "
              f"{args.gen_repeats} interleaved calls per model (fp32 and bf16, each as created, packed, and packed "
              "+ compiled)\n")
        print(table(["model", "variant", "ours fp32 tok/s", "ours bf16 tok/s", "bf16/fp32 (IQR)", "target", "met",
                     "leading tokens equal to fp32"],
                    [[b["model"], r["variant"], f"{r['ref_tok_s']:.1f}", f"{r['ours_tok_s']:.1f}",
                      f"**{r['ratio']:.2f}x** ({r['pair_ratio_iqr'][0]:.2f}-{r['pair_ratio_iqr'][1]:.2f})",
                      *target_cells(b["model"], r["ratio"] >= TARGETS["bf16"], f">= {TARGETS['bf16']}x"),
                      f"{r['leading_tokens_equal_fp32']} / {new}"] for r in b["rows"]]))
    if results.get("context"):
        r = results["context"]
        print(f"\n### One cached decoding step (`Session.feed`, 1 token), {r['model']} batch 1 fp32; "
              f"{args.context_steps} interleaved steps per position, medians\n")
        print(table(["model", f"ms/step at ~{r['short_pos']}", f"ms/step at ~{r['long_pos']}", "ratio", "target",
                     "met"],
                    [[r["model"], f"{r['short_ms']:.2f}", f"{r['long_ms']:.2f}", f"**{r['ratio']:.2f}**",
                      *target_cells(r["model"], r["ratio"] <= TARGETS["context"], f"<= {TARGETS['context']}")]]))
    if results.get("speculative"):
        s = results["speculative"]
        d, t = s["summaries"]["draft"], s["summaries"]["target"]
        print(f"\n### Speculative decoding (greedy), target {s['params_m']['target']:.1f}M params "
              f"(gpt_tiny {args.spec_target}) with draft gpt_tiny {s['params_m']['draft']:.1f}M, trained "
              f"{args.spec_train_steps} and {args.spec_draft_steps} steps ({args.spec_train_dtype}, batch 16 x 128) "
              f"on the KJV extract, same tokenizer; "
              f"{s['prompts']} held-out prompts x {s['new_tokens']} new tokens, batch 1; "
              f"{args.spec_repeats} interleaved runs, medians\n")
        print(f"Held-out loss: target {t['held_out_loss']:.3f} (ppl {t['held_out_ppl']:.1f}), draft "
              f"{d['held_out_loss']:.3f} (ppl {d['held_out_ppl']:.1f}). Plain greedy: target "
              f"{s['plain_tok_s']:.1f} tok/s, draft alone {s['draft_tok_s']:.1f} tok/s. Speculative outputs "
              f"identical to plain greedy (asserted){' (timed through generate(draft_model=))' if s['via_generate'] else ''}.\n")
        print(table(["k", "tok/s", "speed-up vs plain", "acceptance rate", "target forwards / token", "target", "met"],
                    [[r["k"], f"{r['tok_s']:.1f}", f"**{r['speedup']:.2f}x**", f"{r['acceptance_rate']:.2f}",
                      f"{r['target_forwards'] / (s['prompts'] * s['new_tokens']):.2f}",
                      f">= {TARGETS['speculative']}x", met(r["speedup"] >= TARGETS["speculative"])]
                     for r in s["rows"]]))
        print(f"\nSample (target greedy, first prompt): {s['sample'][:240]!r}")
    share = results["others_cpu_share"]
    print(f"\nMachine: {m['cpu']}, {m['cores']} cores ({m['isa']}), torch threads {m['threads']}, torch {m['torch']}, "
          f"transformers {m['transformers']}, Python {m['python']}; other processes used {share:.0%} of the CPUs "
          f"meanwhile; generation benchmark took {results['wall_s']:.0f} s")
    if share > 0.1:
        print("Warning: other processes were busy; the interleaved ratios stay comparable, but absolute numbers "
              "(and the % of the bandwidth bound) are low and noisier.")


def generation(args) -> dict:
    """Run the generation benchmark; prints Markdown tables, returns every measurement."""
    fill_defaults(args)
    if getattr(args, "threads", None):
        torch.set_num_threads(args.threads)
    results = {"machine": machine()}
    probe = cpu_seconds()
    time.sleep(1.0)
    results["others_cpu_share_at_start"] = busy = others_share(probe)
    if busy > 0.25 and torch.get_num_threads() > 1:
        print(f"Warning: other processes are using {busy:.0%} of the CPUs. With {torch.get_num_threads()} torch threads "
              "each parallel op waits for a thread that shares a core with them: decoding and training run several "
              "times slower (both sides alike, but the run takes much longer). --threads 1 avoids that.", flush=True)
    start, wall = cpu_seconds(), time.perf_counter()
    sections = args.gen_sections
    big = args.gen_models[-1]
    pairs = {}
    if True:  # no inference_mode around it: generate() runs as a user calls it (it uses no_grad itself)
        if {"decode", "bound", "bf16", "context"} & set(sections):
            for name in args.gen_models:
                pairs[name] = reference_pair(name)
        if "decode" in sections:
            results["decode"] = bench_decode(args, pairs)
        if "bf16" in sections:
            results["bf16"] = {**bench_bf16(args, pairs[big][0]), "model": big}
        if "bound" in sections:
            results["bound"] = {**bench_bound(args, pairs[big][0]), "model": big}
        if "context" in sections:
            results["context"] = {**bench_context(args, pairs[big][0]), "model": big}
    del pairs
    gc.collect()
    if "speculative" in sections:
        results["speculative"] = bench_speculative(args)
    results["others_cpu_share"] = others_share(start)
    results["wall_s"] = time.perf_counter() - wall
    report(results, args)
    return results


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arguments(p)
    p.add_argument("--quick", action="store_true", help="gpt_tiny only, short runs: a smoke test (< 60 s)")
    p.add_argument("--threads", type=int, default=torch.get_num_threads(),
                   help=f"torch intra-op threads (default {torch.get_num_threads()})")
    p.add_argument("--json", metavar="OUT", help="also write every measurement here")
    return fill_defaults(p.parse_args(argv))


def main(argv=None) -> dict:
    args = parse_args(argv)
    results = generation(args)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, default=str)
    return results


if __name__ == "__main__":
    main()
