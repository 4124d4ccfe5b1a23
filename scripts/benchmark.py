"""Benchmark our models against transformers on CPU: forward throughput, one training step, and
learning (gpt_tiny trained by our engine as ours and as transformers' GPT2LMHeadModel).

Fair by construction: the transformers model is built from a config with random
weights and converted with `zoo.from_hf`, so both sides hold the same weights;
their outputs are checked to agree before anything is timed. Both run in the
same process, interleaved (ours, ref, then ref, ours, ...) so that load from
other processes hits both alike, and we report medians after warm-up. Dropout
is off on both sides (so the training losses can be compared too).

The "ceiling" column is Amdahl's bound on the ratio: the reference's median time
over the time it spends in GEMMs and attention kernels (torch.profiler). Any
implementation that runs the same arithmetic with the same kernels is slower than
those kernels alone, so a target above the ceiling is out of reach by design.

    python scripts/benchmark.py                    # the README tables (about 10 minutes on 2 cores)
    python scripts/benchmark.py --quick            # smoke test on the tiny presets, < 60 s
    python scripts/benchmark.py --only forward --dtypes bf16 --batch 8 --seq 256 --json bench.json

Prints Markdown tables ready to paste into the README.
"""
from __future__ import annotations

import argparse
import copy
import gc
import json
import statistics
from pathlib import Path

import torch
import transformers

import zoo
from heads.classification import ClassifierHead
from heads.lm import CausalLMHead, shift_targets
from zoo.training.tasks import causal_lm_loss, mlm_loss, model_inputs
from zoo.bench import (DTYPES, autocast, cpu_seconds, interleaved, machine, matmul_seconds, others_share,
                       ratio_cells, reference_pair, summarize, table)

transformers.logging.set_verbosity_error()

TARGETS = {"forward": 1.2, "train": 1.1}  # ours / transformers, from the performance issue
TOLERANCE = {"fp32": 1e-3, "bf16": 0.1}   # max |ours - ref| over the logits (bf16: relative to max |ref|)
# Shapes and repeats: the README run, and --quick (explicit flags win over either).
FULL = {"models": ["gpt2", "bert_base"], "batch": 4, "seq": 128, "warmup": 2, "repeats": 10, "train_repeats": 8}
QUICK = {"models": ["gpt_tiny", "bert_tiny"], "batch": 2, "seq": 32, "warmup": 1, "repeats": 3, "train_repeats": 3}


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


# --- the two sections ---------------------------------------------------------------------------

def ceiling(times: dict[str, list[float]], ref_fn) -> dict:
    """The most any implementation of the reference's GEMMs could gain over it: its median time / the
    time it spends in those GEMMs (zoo.bench.matmul_seconds). A target above this cannot be met by
    writing the same model better; only by doing less arithmetic or using faster kernels."""
    ref_matmul_s = matmul_seconds(ref_fn)
    return {"ref_matmul_s": ref_matmul_s, "ceiling": statistics.median(times["ref"]) / ref_matmul_s}


def check_close(name: str, dtype: str, got: torch.Tensor, want: torch.Tensor) -> float:
    diff = (got.float() - want.float()).abs().max().item()
    limit = TOLERANCE[dtype] * (want.float().abs().max().item() if dtype != "fp32" else 1.0)
    if not diff <= limit:
        raise SystemExit(f"{name} {dtype}: ours and transformers disagree (max abs diff {diff:.3g} > {limit:.3g}); "
                         "not timing different computations")
    return diff


def three_ways(ours, packed, ref, forward, work: int, warmup: int, repeats: int) -> dict:
    """forward(model) timed for ours, ours packed (zoo.pack_for_inference) and the reference, interleaved:
    summarize() of ours vs ref, with packed's numbers under "packed", and the ceiling."""
    times = interleaved({"ours": lambda: forward(ours), "packed": lambda: forward(packed),
                         "ref": lambda: forward(ref)}, warmup, repeats)
    return {**summarize(times, work), "packed": summarize(times, work, ours="packed"),
            **ceiling(times, lambda: forward(ref))}


def bench_forward(name: str, args) -> list[dict]:
    """Ours as created, ours after zoo.pack_for_inference (a second model: the same weights, packed),
    and transformers, interleaved three ways."""
    ours, ref = reference_pair(name)
    packed = zoo.pack_for_inference(copy.deepcopy(ours))
    inputs = model_inputs(make_batch(ours, args.batch, args.seq, args.attention_mask == "ones"))
    rows = []
    for dtype in args.dtypes:
        def forward(model, dtype=dtype):
            # A fresh autocast region per call, as an inference loop has: the weights' bf16 casts are
            # part of the cost (one region around every call would cache them).
            with torch.inference_mode(), autocast(dtype):
                return model(**inputs)
        want = forward(ref).logits
        diff = check_close(name, dtype, forward(ours), want)
        packed_diff = check_close(f"{name} packed", dtype, forward(packed), want)
        row = three_ways(ours, packed, ref, forward, args.batch * args.seq, args.warmup, args.repeats)
        rows.append({"model": name, "dtype": dtype, "max_abs_diff": diff, "packed_max_abs_diff": packed_diff, **row})
        print(f"  forward {name} {dtype}: ratio {row['ratio']:.2f}, packed {row['packed']['ratio']:.2f}", flush=True)
    del packed
    gc.collect()
    return rows


def train_step(model, batch, optimizer, dtype: str, ours: bool) -> torch.Tensor:
    """forward + cross-entropy + backward + AdamW step; returns the loss."""
    optimizer.zero_grad(set_to_none=True)
    with autocast(dtype):
        if ours:
            loss = (causal_lm_loss if model.config.family != "bert" else mlm_loss)(model, batch)
            loss = loss[0] if isinstance(loss, tuple) else loss
        else:  # the same cross-entropy our heads compute, on the reference's logits
            loss = CausalLMHead.loss(model(**model_inputs(batch)).logits, batch["labels"])
    loss.backward()
    optimizer.step()
    return loss.detach()


def bench_train(name: str, args) -> list[dict]:
    rows = []
    for dtype in args.dtypes:
        ours, ref = reference_pair(name)  # fresh weights per dtype: the steps before change them
        batch = make_batch(ours, args.batch, args.seq, args.attention_mask == "ones")
        models = {"ours": ours.train(), "ref": ref.train()}
        opts = {k: torch.optim.AdamW(m.parameters(), lr=1e-4, weight_decay=0.01, fused=args.fused_adamw or None)
                for k, m in models.items()}
        step = {k: (lambda k=k: train_step(models[k], batch, opts[k], dtype, ours=k == "ours")) for k in models}
        losses = {k: fn().item() for k, fn in step.items()}  # first step: same weights, so the same loss
        diff = abs(losses["ours"] - losses["ref"])
        if diff > TOLERANCE[dtype] * (1.0 if dtype == "fp32" else abs(losses["ref"])):
            raise SystemExit(f"{name} {dtype}: training losses disagree: {losses}")
        times = interleaved(step, max(args.warmup - 1, 0), args.train_repeats)
        rows.append({"model": name, "dtype": dtype, "loss_diff": diff, **summarize(times, args.batch * args.seq),
                     **ceiling(times, step["ref"])})
        print(f"  train {name} {dtype}: ratio {rows[-1]['ratio']:.2f}", flush=True)
        del ours, ref, models, opts, step
        gc.collect()
    return rows


# --- reporting ----------------------------------------------------------------------------------

def report(results: dict, args) -> None:
    m = results["machine"]
    print(f"\nMachine: {m['cpu']}, {m['cores']} cores ({m['isa']}), torch threads {m['threads']}, torch {m['torch']}, "
          f"transformers {m['transformers']}, Python {m['python']}; other processes used "
          f"{results['others_cpu_share']:.0%} of the CPUs meanwhile")
    if results["others_cpu_share"] > 0.1:
        print("Warning: other processes were busy; ours and transformers ran interleaved, so the ratios stay "
              "comparable, but the absolute numbers are low and noisier.")
    shape = f"batch {args.batch} x {args.seq} tokens, attention_mask={args.attention_mask}"
    ratio_head = ["ours/ref (IQR)", "target", "met", "ceiling"]
    if results.get("forward"):
        print(f"\nForward, torch.inference_mode (bf16: torch.autocast per call), {shape}; "
              f"{args.repeats} interleaved runs per side, medians; ratios are medians over pairs. "
              "\"packed\": the same model after zoo.pack_for_inference\n")
        print(table(["model", "dtype", "ours tok/s", "packed tok/s", "transformers tok/s", "ours/ref (IQR)",
                     "packed/ref (IQR)", "target", "met", "ceiling", "max abs diff"],
                    [[r["model"], r["dtype"], f"{r['ours_tok_s']:,.0f}", f"{r['packed']['ours_tok_s']:,.0f}",
                      f"{r['ref_tok_s']:,.0f}", ratio_cells(r, TARGETS["forward"])[0],
                      *ratio_cells(r["packed"], TARGETS["forward"]), f"{r['ceiling']:.2f}x",
                      f"{max(r['max_abs_diff'], r['packed_max_abs_diff']):.1e}"]
                     for r in results["forward"]]))
    if results.get("train"):
        adamw = "fused AdamW" if args.fused_adamw else "AdamW"
        print(f"\nTraining step (forward + cross-entropy + backward + {adamw}), {shape}; "
              f"{args.train_repeats} interleaved steps per side, medians; ours/ref is the median over pairs\n")
        print(table(["model", "dtype", "ours steps/s", "ours tok/s", "transformers tok/s", *ratio_head, "loss diff"],
                    [[r["model"], r["dtype"], f"{1 / r['ours_s']:.2f}", f"{r['ours_tok_s']:,.0f}",
                      f"{r['ref_tok_s']:,.0f}", *ratio_cells(r, TARGETS["train"]), f"{r['ceiling']:.2f}x",
                      f"{r['loss_diff']:.1e}"]
                     for r in results["train"]]))

# ----------------------------------------------------------------------------- learning (ours vs transformers)


def learning(args) -> dict:
    """Train gpt_tiny and the same configuration as transformers' GPT2LMHeadModel through the ONE engine,
    same tokenizer, data order, seed and steps; compare held-out loss (target: ours within 2%)."""
    import math
    import tempfile

    import transformers

    from data.lm_dataset import tokenize_to_file, train_val_split
    from data.loader import BatchStream, iterate_once
    from data.text import KJV_EXTRACT
    from data.tokenization import train_bpe
    from heads.lm import CausalLMHead
    from zoo.training.tasks import causal_lm_loss, held_out_loss
    from zoo.training import TrainConfig, train

    steps = 40 if args.quick else args.learn_steps
    work = Path(tempfile.mkdtemp(prefix="bench_learning_"))
    tokenizer = train_bpe(str(KJV_EXTRACT), vocab_size=4096)
    tokenize_to_file(str(KJV_EXTRACT), tokenizer, work / "tokens.bin")
    train_set, val_set = train_val_split(work / "tokens.bin", 128, val_fraction=0.1)
    config = zoo.model_info("gpt_tiny")["config"]

    def hf_model():
        cfg = transformers.GPT2Config(vocab_size=tokenizer.vocab_size, n_positions=config["max_positions"],
                                      n_embd=config["dim"], n_layer=config["depth"], n_head=config["num_heads"],
                                      resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0)
        return transformers.GPT2LMHeadModel(cfg)

    def hf_loss(model, batch):
        return CausalLMHead.loss(model(batch["input_ids"]).logits, batch["labels"])

    results = {}
    for name, build, loss_fn in (("ours", lambda: zoo.create_model("gpt_tiny", vocab_size=tokenizer.vocab_size),
                                  causal_lm_loss), ("transformers", hf_model, hf_loss)):
        torch.manual_seed(0)
        model = build()
        run = TrainConfig(steps=steps, lr=3e-3, warmup_steps=steps // 10, eval_every=0, save_every=0,
                          out=str(work / name), seed=0, progress=False)
        result = train(model, BatchStream(train_set, 16, seed=0), loss_fn, run)
        model.eval()
        held_out = held_out_loss(model, iterate_once(val_set, 32), loss_fn)
        results[name] = {"train_loss": result.train_loss, "held_out_loss": held_out,
                         "held_out_ppl": math.exp(held_out), "wall_s": result.wall_time}
    ratio = results["ours"]["held_out_loss"] / results["transformers"]["held_out_loss"]
    print(f"\n### Learning: gpt_tiny vs transformers GPT2LMHeadModel, {steps} steps, batch 16 x 128, KJV extract\n")
    print("| model | final train loss | held-out loss | held-out ppl | wall s |\n|---|---|---|---|---|")
    for name, r in results.items():
        print(f"| {name} | {r['train_loss']:.4f} | {r['held_out_loss']:.4f} | {r['held_out_ppl']:.1f} | "
              f"{r['wall_s']:.0f} |")
    print(f"\nheld-out loss ours / transformers = {ratio:.4f} (target within 2%: "
          f"{'met' if abs(ratio - 1) <= 0.02 else 'NOT met'})")
    return {"steps": steps, **results, "loss_ratio": ratio}

# ----------------------------------------------------------------------------- vision (ours vs timm)


def vision(args) -> dict:
    """vit_base_patch16_224 against timm on the same weights: inference at batch 1 and 32, a training step."""
    import timm

    name = "vit_tiny_patch16_224" if args.quick else "vit_base_patch16_224"
    batches, train_batch = ((1, 4), 2) if args.quick else ((1, 32), 8)
    torch.manual_seed(0)
    ref = timm.create_model(name, pretrained=False, drop_path_rate=0.0).eval()
    torch.nn.init.normal_(ref.head.weight, std=0.02)  # timm zero-initialises the head: logits would all be 0
    ours = zoo.from_timm(ref).eval()
    packed = zoo.pack_for_inference(copy.deepcopy(ours))
    forward_rows, train_rows = [], []
    for batch in batches:
        pixels = torch.randn(batch, 3, 224, 224, generator=torch.Generator().manual_seed(batch))
        for dtype in args.dtypes:
            def forward(model, dtype=dtype):
                with torch.inference_mode(), autocast(dtype):
                    return model(pixels)
            want = forward(ref)
            diff = max(check_close(name, dtype, forward(ours), want), check_close(name, dtype, forward(packed), want))
            repeats = max(3, args.repeats // (4 if batch > 8 else 1))
            row = three_ways(ours, packed, ref, forward, batch, 1, repeats)
            forward_rows.append({"batch": batch, "dtype": dtype, "max_abs_diff": diff, **row})
            print(f"  vision forward b{batch} {dtype}: ratio {row['ratio']:.2f}, packed {row['packed']['ratio']:.2f}",
                  flush=True)
    labels = torch.randint(0, 1000, (train_batch,), generator=torch.Generator().manual_seed(0))
    pixels = torch.randn(train_batch, 3, 224, 224, generator=torch.Generator().manual_seed(0))
    for dtype in args.dtypes:
        models = {"ours": zoo.from_timm(ref).train(), "ref": copy.deepcopy(ref).train()}
        opts = {k: torch.optim.AdamW(m.parameters(), lr=1e-4, fused=args.fused_adamw or None)
                for k, m in models.items()}

        def step(k, dtype=dtype):
            opts[k].zero_grad(set_to_none=True)
            with autocast(dtype):
                loss = ClassifierHead.loss(models[k](pixels), labels)
            loss.backward()
            opts[k].step()
        times = interleaved({k: (lambda k=k: step(k)) for k in models}, 1, max(3, args.train_repeats // 2))
        train_rows.append({"batch": train_batch, "dtype": dtype, **summarize(times, train_batch),
                           **ceiling(times, lambda: step("ref"))})
        print(f"  vision train {dtype}: ratio {train_rows[-1]['ratio']:.2f}", flush=True)
    print(f"\n### Vision: {name}, ours vs timm {timm.__version__} on the same weights (zoo.from_timm)\n")
    print("Inference, torch.inference_mode (bf16: autocast per call), 224 x 224 images\n")
    print(table(["batch", "dtype", "ours img/s", "packed img/s", "timm img/s", "ours/timm (IQR)", "packed/timm (IQR)",
                 "target", "met", "ceiling", "max abs diff"],
                [[r["batch"], r["dtype"], f"{r['ours_tok_s']:,.1f}", f"{r['packed']['ours_tok_s']:,.1f}",
                  f"{r['ref_tok_s']:,.1f}", ratio_cells(r, 1.0)[0], *ratio_cells(r["packed"], 1.0),
                  f"{r['ceiling']:.2f}x", f"{r['max_abs_diff']:.1e}"] for r in forward_rows]))
    print(f"\nTraining step (forward + cross-entropy + backward + AdamW), batch {train_batch}\n")
    print(table(["dtype", "ours img/s", "timm img/s", "ours/timm (IQR)", "target", "met", "ceiling"],
                [[r["dtype"], f"{r['ours_tok_s']:,.2f}", f"{r['ref_tok_s']:,.2f}", *ratio_cells(r, 1.0),
                  f"{r['ceiling']:.2f}x"] for r in train_rows]))
    del packed
    return {"model": name, "forward": forward_rows, "train": train_rows}


def generation_bench():
    """scripts/benchmark_generation.py (decoding vs transformers' generate, speculative decoding)."""
    import benchmark_generation  # beside this file: on sys.path when run as a script

    return benchmark_generation


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", nargs="+", choices=["forward", "train", "learning", "vision", "generation"],
                   default=["forward", "train", "learning", "vision", "generation"],
                   help="sections to run (default all)")
    p.add_argument("--learn-steps", type=int, default=600, help="learning: steps per model (as make demo)")
    p.add_argument("--models", nargs="+", help=f"presets (default {FULL['models']}; --quick: {QUICK['models']})")
    p.add_argument("--dtypes", nargs="+", choices=list(DTYPES), default=["fp32", "bf16"],
                   help="fp32, and/or bf16 under torch.autocast (default both)")
    p.add_argument("--batch", type=int, help=f"sequences per batch (default {FULL['batch']})")
    p.add_argument("--seq", type=int, help=f"tokens per sequence (default {FULL['seq']})")
    p.add_argument("--attention-mask", choices=["none", "ones"], default="none",
                   help="pass no mask (default), or an all-ones (B, T) mask as a tokenizer would")
    p.add_argument("--warmup", type=int, help=f"untimed calls per side (default {FULL['warmup']})")
    p.add_argument("--repeats", type=int, help=f"timed forward calls per side (default {FULL['repeats']})")
    p.add_argument("--train-repeats", type=int, help=f"timed training steps per side (default {FULL['train_repeats']})")
    p.add_argument("--fused-adamw", action=argparse.BooleanOptionalAction, default=True,
                   help="AdamW(fused=True) on both sides, as zoo/training.py uses (default on)")
    p.add_argument("--threads", type=int, default=torch.get_num_threads(),
                   help=f"torch intra-op threads (default {torch.get_num_threads()})")
    p.add_argument("--quick", action="store_true", help="tiny presets, tiny shapes, few repeats: a smoke test")
    p.add_argument("--json", metavar="OUT", help="also write every measurement here")
    generation_bench().add_arguments(p)
    args = p.parse_args(argv)
    for key, default in (QUICK if args.quick else FULL).items():
        if getattr(args, key) is None:
            setattr(args, key, default)
    return args


def main(argv=None) -> dict:
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    results = {"machine": machine(), "settings": vars(args)}
    start = cpu_seconds()
    for section, bench in (("forward", bench_forward), ("train", bench_train)):
        if section in args.only:
            results[section] = [row for name in args.models for row in bench(name, args)]
    results["others_cpu_share"] = others_share(start)
    report(results, args)
    if "learning" in args.only:
        results["learning"] = learning(args)
    if "vision" in args.only:
        results["vision"] = vision(args)
    if "generation" in args.only:
        results["generation"] = generation_bench().generation(args)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return results


if __name__ == "__main__":
    main()
