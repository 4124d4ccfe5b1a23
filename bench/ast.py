"""Audio classification: our AST against transformers' ASTForAudioClassification on the same weights
(zoo.from_hf of a random-weight reference): inference (ours, ours packed, transformers, interleaved three
ways) and a training step, on spectrograms of the preset's shape."""
from __future__ import annotations

import copy

import torch

import zoo
from bench.config import ModelBench
from bench.forward import three_ways
from bench.references import ast_pair, check_close
from bench.report import ratio_cells, table, target_verdict
from bench.timing import autocast
from bench.train import classifier_train_rows

TARGETS = {"fp32": 1.0, "bf16": 1.2}  # ours / transformers, from the audio issue
# (preset, inference batch sizes, training batch): the full run and --quick
FULL = ("ast_base_audioset", (1, 8), 4)
QUICK = ("ast_tiny", (1, 4), 2)


def _logits(out):
    return out.logits if hasattr(out, "logits") else out


def _spectrograms(model, batch: int, seed: int) -> torch.Tensor:
    c = model.config
    return torch.randn(batch, c.max_length, c.num_mel_bins, generator=torch.Generator().manual_seed(seed))


def run(config: ModelBench, quick: bool = False) -> dict:
    name, batches, train_batch = QUICK if quick else FULL
    ours, ref = ast_pair(name)
    return {"model": name, "forward": run_forward(name, ours, ref, batches, config),
            "train": run_train(ours, ref, train_batch, config)}


def run_forward(name: str, ours, ref, batches: tuple[int, ...], config: ModelBench) -> list[dict]:
    packed = zoo.pack_for_inference(copy.deepcopy(ours))
    rows = []
    for batch in batches:
        x = _spectrograms(ours, batch, batch)
        for dtype in config.dtypes:
            def forward(model, dtype=dtype):
                with torch.inference_mode(), autocast(dtype):
                    return _logits(model(x))
            want = forward(ref)
            diff = max(check_close(name, dtype, forward(ours), want), check_close(name, dtype, forward(packed), want))
            row = three_ways(ours, packed, ref, forward, batch, 1, max(3, config.repeats // (2 if batch > 1 else 1)))
            rows.append({"batch": batch, "dtype": dtype, "max_abs_diff": diff, **row})
            print(f"  ast forward b{batch} {dtype}: ratio {row['ratio']:.2f}, packed {row['packed']['ratio']:.2f}",
                  flush=True)
    return rows


def run_train(ours, ref, train_batch: int, config: ModelBench) -> list[dict]:
    """forward + cross-entropy (ClassifierHead.loss) + backward + AdamW, each side on its own copy."""
    x = _spectrograms(ours, train_batch, 0)
    labels = torch.randint(0, ours.config.num_classes, (train_batch,), generator=torch.Generator().manual_seed(0))
    return classifier_train_rows(lambda: {"ours": copy.deepcopy(ours), "ref": copy.deepcopy(ref)}, x, labels,
                                 config, "ast")


def report(result: dict) -> str:
    import transformers

    train_batch = result["train"][0]["batch"] if result["train"] else None
    return "\n".join([
        f"\n### Audio classification: {result['model']}, ours vs transformers {transformers.__version__} "
        "ASTForAudioClassification on the same weights (zoo.from_hf)\n",
        "Inference, torch.inference_mode (bf16: autocast per call), spectrograms of the preset's frames x 128 bins\n",
        table(["batch", "dtype", "ours clips/s", "packed clips/s", "transformers clips/s", "ours/ref (IQR)",
               "packed/ref (IQR)", "target", "met (the better of the two)", "ceiling", "max abs diff"],
              [[r["batch"], r["dtype"], f"{r['ours_tok_s']:,.2f}", f"{r['packed']['ours_tok_s']:,.2f}",
                f"{r['ref_tok_s']:,.2f}", ratio_cells(r, TARGETS[r["dtype"]])[0],
                ratio_cells(r["packed"], TARGETS[r["dtype"]])[0],
                *target_verdict(max(r["ratio"], r["packed"]["ratio"]), TARGETS[r["dtype"]]), f"{r['ceiling']:.2f}x",
                f"{r['max_abs_diff']:.1e}"] for r in result["forward"]]),
        "\nceiling: the reference's time over the time it spends in GEMM, convolution and attention kernels "
        "(timing.ceiling), the most the same model on the same kernels could gain; ours goes past it where its "
        "kernels are faster: bf16 attention on an AVX512-BF16 CPU without AMX (zoo::bf16_attention, at inference "
        "and as the forward of a training step, whose backward is torch's flash kernel's; with AMX torch's is "
        "faster and attend() keeps it), and in bf16 the overlapping patch projection as one matmul over unfolded "
        "patches where the reference runs oneDNN's slow one-channel bf16 convolution.",
        f"\nTraining step (forward + cross-entropy + backward + AdamW), batch {train_batch}\n",
        table(["dtype", "ours clips/s", "transformers clips/s", "ours/ref (IQR)", "target", "met", "ceiling"],
              [[r["dtype"], f"{r['ours_tok_s']:,.2f}", f"{r['ref_tok_s']:,.2f}", *ratio_cells(r, TARGETS[r["dtype"]]),
                f"{r['ceiling']:.2f}x"] for r in result["train"]])])
