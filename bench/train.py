"""One training step (forward + cross-entropy + backward + AdamW), ours against transformers on the
same weights; the first step's losses must agree before anything is timed."""
from __future__ import annotations

import gc

import torch

from bench.config import ModelBench
from bench.forward import make_batch
from bench.references import check_close, reference_pair
from bench.report import ratio_cells, table
from bench.timing import autocast, ceiling, interleaved, summarize
from heads.classification import ClassifierHead
from heads.lm import CausalLMHead
from zoo.training.tasks import causal_lm_loss, mlm_loss, model_inputs

TARGET = 1.1  # ours / transformers, from the performance issue


def train_step(model, batch, optimizer, dtype: str, ours: bool, device: str = "cpu") -> torch.Tensor:
    """forward + cross-entropy + backward + AdamW step; returns the loss."""
    optimizer.zero_grad(set_to_none=True)
    with autocast(dtype, device):
        if ours:
            loss = (causal_lm_loss if model.config.family != "bert" else mlm_loss)(model, batch)
            loss = loss[0] if isinstance(loss, tuple) else loss
        else:  # the same cross-entropy our heads compute, on the reference's logits
            loss = CausalLMHead.loss(model(**model_inputs(batch)).logits, batch["labels"])
    loss.backward()
    optimizer.step()
    return loss.detach()


def run(name: str, config: ModelBench) -> list[dict]:
    """One row per dtype for preset `name`, each on fresh weights (the steps before change them)."""
    rows = []
    for dtype in config.dtypes:
        ours, ref = reference_pair(name)
        batch = make_batch(ours, config.batch, config.seq, config.attention_mask == "ones")
        models = {"ours": ours.train(), "ref": ref.train()}
        opts = {k: torch.optim.AdamW(m.parameters(), lr=1e-4, weight_decay=0.01, fused=config.fused_adamw or None)
                for k, m in models.items()}
        step = {k: (lambda k=k: train_step(models[k], batch, opts[k], dtype, ours=k == "ours")) for k in models}
        losses = {k: fn().item() for k, fn in step.items()}  # first step: same weights, so the same loss
        diff = check_close(f"{name} first training loss", dtype, torch.tensor(losses["ours"]),
                           torch.tensor(losses["ref"]), "ours and transformers")
        times = interleaved(step, max(config.warmup - 1, 0), config.train_repeats)
        rows.append({"model": name, "dtype": dtype, "loss_diff": diff, **summarize(times, config.batch * config.seq),
                     **ceiling(times, step["ref"])})
        print(f"  train {name} {dtype}: ratio {rows[-1]['ratio']:.2f}", flush=True)
        ours = ref = models = opts = step = None  # the step closures hold them: free both sides before gc
        gc.collect()
    return rows


def report(rows: list[dict], config: ModelBench) -> str:
    adamw = "fused AdamW" if config.fused_adamw else "AdamW"
    head = (f"\nTraining step (forward + cross-entropy + backward + {adamw}), {config.shape()}; "
            f"{config.train_repeats} interleaved steps per side, medians; ours/ref is the median over pairs\n")
    return head + "\n" + table(
        ["model", "dtype", "ours steps/s", "ours tok/s", "transformers tok/s", "ours/ref (IQR)", "target", "met",
         "ceiling", "loss diff"],
        [[r["model"], r["dtype"], f"{1 / r['ours_s']:.2f}", f"{r['ours_tok_s']:,.0f}", f"{r['ref_tok_s']:,.0f}",
          *ratio_cells(r, TARGET), f"{r['ceiling']:.2f}x", f"{r['loss_diff']:.1e}"] for r in rows])


def classifier_train_rows(make_models, inputs: torch.Tensor, labels: torch.Tensor, config: ModelBench,
                          tag: str) -> list[dict]:
    """A classifier's training step (forward + ClassifierHead.loss + backward + AdamW), ours against the
    reference, one row per dtype: make_models() gives fresh {"ours", "ref"} of the same weights each time."""
    rows = []
    for dtype in config.dtypes:
        models = {k: m.train() for k, m in make_models().items()}
        opts = {k: torch.optim.AdamW(m.parameters(), lr=1e-4, fused=config.fused_adamw or None)
                for k, m in models.items()}

        def step(k, dtype=dtype):
            opts[k].zero_grad(set_to_none=True)
            with autocast(dtype):
                out = models[k](inputs)
                loss = ClassifierHead.loss(getattr(out, "logits", out), labels)
            loss.backward()
            opts[k].step()
        times = interleaved({k: (lambda k=k: step(k)) for k in models}, 1, max(3, config.train_repeats // 2))
        rows.append({"batch": len(labels), "dtype": dtype, **summarize(times, len(labels)),
                     **ceiling(times, lambda: step("ref"))})
        print(f"  {tag} train {dtype}: ratio {rows[-1]['ratio']:.2f}", flush=True)
    return rows
