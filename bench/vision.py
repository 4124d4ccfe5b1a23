"""Vision: our ViT against timm on the same weights (zoo.from_timm): inference at two batch sizes (ours,
ours packed, timm, interleaved three ways) and a training step."""
from __future__ import annotations

import copy

import torch

import zoo
from bench.config import ModelBench
from bench.forward import three_ways
from bench.references import check_close, timm_pair
from bench.report import ratio_cells, table
from bench.timing import autocast
from bench.train import classifier_train_rows

TARGET = 1.0  # ours / timm
# (timm model, inference batch sizes, training batch): the full run and --quick
FULL = ("vit_base_patch16_224", (1, 32), 8)
QUICK = ("vit_tiny_patch16_224", (1, 4), 2)


def run(config: ModelBench, quick: bool = False) -> dict:
    """Inference rows (batch x dtype) and training rows (dtype); uses config's dtypes, repeats,
    train_repeats and fused_adamw."""
    name, batches, train_batch = QUICK if quick else FULL
    ours, ref = timm_pair(name)
    forward_rows = run_forward(name, ours, ref, batches, config)
    train_rows = run_train(ref, train_batch, config)
    return {"model": name, "forward": forward_rows, "train": train_rows}


def run_forward(name: str, ours, ref, batches: tuple[int, ...], config: ModelBench) -> list[dict]:
    packed = zoo.pack_for_inference(copy.deepcopy(ours))
    rows = []
    for batch in batches:
        pixels = torch.randn(batch, 3, 224, 224, generator=torch.Generator().manual_seed(batch))
        for dtype in config.dtypes:
            def forward(model, dtype=dtype):
                with torch.inference_mode(), autocast(dtype):
                    return model(pixels)
            want = forward(ref)
            diff = max(check_close(name, dtype, forward(ours), want), check_close(name, dtype, forward(packed), want))
            repeats = max(3, config.repeats // (4 if batch > 8 else 1))
            row = three_ways(ours, packed, ref, forward, batch, 1, repeats)
            rows.append({"batch": batch, "dtype": dtype, "max_abs_diff": diff, **row})
            print(f"  vision forward b{batch} {dtype}: ratio {row['ratio']:.2f}, packed {row['packed']['ratio']:.2f}",
                  flush=True)
    del packed
    return rows


def run_train(ref, train_batch: int, config: ModelBench) -> list[dict]:
    """forward + cross-entropy (ClassifierHead.loss) + backward + AdamW, ours (converted from ref) vs a copy of ref."""
    labels = torch.randint(0, 1000, (train_batch,), generator=torch.Generator().manual_seed(0))
    pixels = torch.randn(train_batch, 3, 224, 224, generator=torch.Generator().manual_seed(0))
    return classifier_train_rows(lambda: {"ours": zoo.from_timm(ref), "ref": copy.deepcopy(ref)}, pixels, labels,
                                 config, "vision")


def report(result: dict) -> str:
    import timm

    train_batch = result["train"][0]["batch"] if result["train"] else None
    return "\n".join([
        f"\n### Vision: {result['model']}, ours vs timm {timm.__version__} on the same weights (zoo.from_timm)\n",
        "Inference, torch.inference_mode (bf16: autocast per call), 224 x 224 images\n",
        table(["batch", "dtype", "ours img/s", "packed img/s", "timm img/s", "ours/timm (IQR)", "packed/timm (IQR)",
               "target", "met", "ceiling", "max abs diff"],
              [[r["batch"], r["dtype"], f"{r['ours_tok_s']:,.1f}", f"{r['packed']['ours_tok_s']:,.1f}",
                f"{r['ref_tok_s']:,.1f}", ratio_cells(r, TARGET)[0], *ratio_cells(r["packed"], TARGET),
                f"{r['ceiling']:.2f}x", f"{r['max_abs_diff']:.1e}"] for r in result["forward"]]),
        f"\nTraining step (forward + cross-entropy + backward + AdamW), batch {train_batch}\n",
        table(["dtype", "ours img/s", "timm img/s", "ours/timm (IQR)", "target", "met", "ceiling"],
              [[r["dtype"], f"{r['ours_tok_s']:,.2f}", f"{r['ref_tok_s']:,.2f}", *ratio_cells(r, TARGET),
                f"{r['ceiling']:.2f}x"] for r in result["train"]])])
