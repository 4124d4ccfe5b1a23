"""Keyword spotting: an AST classifies digits, letters and command words from their log-mel spectrograms
(`zoo train-audio --task keywords`). Its head is sized to the training classes; the run is scored on val
(training voices, other clips), the held-out voices ("test") and human recordings ("human"): accuracy and a
confusion matrix per split."""
from __future__ import annotations

import json
from pathlib import Path

import zoo
from data.audio_tasks import KeywordSet, SpecAugment, keyword_classes, select
from data.loader import iterate_once
from zoo.training import is_main_process, train
from zoo.training.cli import train_config, with_lora
from zoo.training.lora import save_model
from zoo.training.speech_runs import SPLIT_NAMES, batch_stream, model_overrides
from zoo.training.tasks import classification_loss, evaluate_classifier, plot_confusion


def run_keywords(args, rows: list[dict], ctx) -> dict:
    """Train --model (an AST, its head sized to the training classes) on the keyword manifest's rows, score it on
    val, test and human, save model/ and labels.json in --out; the summary (rank 0; {} on the others)."""
    classes = keyword_classes(rows)
    model = zoo.create_model(args.model, **model_overrides(args))
    model.reset_head(len(classes))
    model = with_lora(args, model, args.out, new_head=len(classes))
    frames = model.config.max_length
    augment = SpecAugment() if args.spec_augment else None
    sets = {split: KeywordSet(select(rows, split), args.data, classes, frames, spec_augment=augment if split == "train"
                              else None) for split in ("train", "val", "test", "human")}
    if ctx.is_main:
        print(f"{args.model}: {sum(p.numel() for p in model.parameters()) / 1e6:.2f}M parameters, {len(classes)} "
              f"classes; " + ", ".join(f"{len(s)} {k}" for k, s in sets.items()))

    def eval_fn(m):
        result = evaluate_classifier(m, iterate_once(sets[args.eval_split], 256), len(classes))
        return {"loss": result["loss"], "acc": result["acc"]}

    result = train(model, batch_stream(sets["train"], args, ctx), classification_loss(args.label_smoothing),
                   train_config(args), eval_fn=eval_fn if len(sets[args.eval_split]) else None)
    model = result.model  # with --fsdp: the parameters gathered whole (rank 0)
    if not is_main_process():
        return {}
    out = Path(args.out)
    summary = {"task": "keywords", "model": args.model, "data": str(args.data), "steps": result.step,
               "train_loss": result.train_loss, "classes": classes, "wall_s": result.wall_time}
    for split in ("val", "test", "human"):
        if not len(sets[split]):
            continue
        final = evaluate_classifier(model, iterate_once(sets[split], 256), len(classes))
        plot_confusion(final["confusion"], classes, out / f"confusion_{split}.png")
        summary.update({f"{split}_acc": final["acc"], f"{split}_loss": final["loss"],
                        f"{split}_rows": len(sets[split])})
        print(f"{split} accuracy {final['acc']:.4f} on {len(sets[split])} clips "
              f"({SPLIT_NAMES[split]}; {sets[split].dropped} rows "
              "of classes not trained dropped)")
    save_model(model, out / "model")
    (out / "model" / "labels.json").write_text(json.dumps({"labels": classes, "features": "ast",
                                                          "max_length": frames}, indent=1) + "\n")
    return summary
