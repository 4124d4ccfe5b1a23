"""Train a ViT image classifier on the shared engine: from scratch, or fine-tuned from a checkpoint with a new head.

    python scripts/train_vision.py --model vit_tiny_patch2_8 --data digits --out runs/digits
    python scripts/train_vision.py --model vit_tiny_patch4_28 --data fashion-mnist --steps 6000 --out runs/fmnist
    python scripts/train_vision.py --init runs/fmnist/model --data path/to/images --out runs/mine
    torchrun --nproc_per_node 2 scripts/train_vision.py ...        # the same script, DDP

--data: "digits" (scikit-learn, 8x8), "fashion-mnist" (`make data`, 28x28) or a folder of
class subfolders (root/<class>/<image>, or root/train/... + root/test/...). Images are
resized to the model's size; the pipelines and per-set augmentation are in data/images.py.
--init takes a save_pretrained directory or an HF ViT directory; its classifier is replaced
by one for the dataset's classes (reset_head).

Outputs in --out: checkpoint.pt, metrics.jsonl, loss.png, confusion.png, summary.json and
model/ (save_pretrained + preprocess_config.json, which visualize_attention.py reads).

--lora R trains rank-R adapters over the frozen model instead (zoo/training/lora.py), with the new head in full:
checkpoints hold them alone, and model/ holds them in peft's format beside lora_base.json, which names the base
(base/ inside it for a fresh preset); zoo.training.lora.load_trained loads it back.
"""
from __future__ import annotations

import argparse
import dataclasses
import json

import zoo
from data.images import (
    Augment,
    ImageDataset,
    eval_transform,
    image_split,
    load_preprocess_config,
    preprocess_config,
    save_preprocess_config,
    train_transform,
)
from data.loader import BatchStream, iterate_once
from zoo.cli.common import parser
from zoo.io import loading
from zoo.training import is_main_process, train
from zoo.training.cli import add_training_arguments, start_run, with_lora
from zoo.training.lora import load_trained, save_model
from zoo.training.tasks import classification_loss, evaluate_classifier, plot_confusion


def parse_args(argv=None) -> argparse.Namespace:
    p = parser(__doc__)  # zoo.cli.common: defaults shown in --help
    p.add_argument("--model", default="vit_tiny_patch2_8", help="registered ViT preset (zoo.list_models('vit*'))")
    p.add_argument("--data", default="digits", help="digits | fashion-mnist | an image folder")
    p.add_argument("--init", help="start from a save_pretrained or HF ViT directory (new head)")
    p.add_argument("--test-fraction", type=float, default=0.2, help="digits / a folder without train+test")
    p.add_argument("--split-seed", type=int, default=0, help="the train/test split of digits or a folder")
    add_training_arguments(p, steps=3000, batch_size=64, lr=3e-3, warmup=100, weight_decay=0.05,
                           label_smoothing=0.1, eval_every=250, eval_batches=0, save_every=500, out="runs/vision")
    aug = p.add_argument_group("augmentation (defaults: the dataset's, data/images.py)")
    aug.add_argument("--augment", action=argparse.BooleanOptionalAction, default=True,
                     help="--no-augment: none of the dataset's augmentation (options given below still apply)")
    aug.add_argument("--crop-padding", type=int, help="random crop of the zero-padded image (pixels)")
    aug.add_argument("--scale", type=float, nargs=2, metavar=("MIN", "MAX"), help="RandomResizedCrop area range")
    aug.add_argument("--degrees", type=float, help="random rotation range")
    aug.add_argument("--hflip", action=argparse.BooleanOptionalAction, default=None,
                     help="horizontal flips (on for fashion-mnist; never for digits)")
    aug.add_argument("--erase", type=float, help="random-erasing probability")
    return p.parse_args(argv)


def build_model(args):
    """A fresh preset, or --init (ours or HF); plus its preprocessing config."""
    if args.init:
        if args.dropout is not None:
            raise SystemExit("--dropout overrides a preset's dropout; with --init the saved config's dropout is used")
        with loading(f"--init {args.init}"):
            model = load_trained(args.init, merge=True)
        if model.config.family != "vit":
            raise SystemExit(f"--init {args.init} is a {model.config.family} model; train_vision.py trains ViTs")
        return model, load_preprocess_config(args.init, model.config)
    family = zoo.model_info(args.model)["family"]
    if family != "vit":
        raise SystemExit(f"--model {args.model} is a {family} model; train_vision.py trains ViTs (vit*)")
    model = zoo.create_model(args.model, **({"dropout": args.dropout} if args.dropout is not None else {}))
    return model, preprocess_config(model.config)


def augmentation(args, recommended: Augment) -> Augment:
    """The dataset's recommended augmentation (none with --no-augment), then any option given explicitly."""
    chosen = {"crop_padding": args.crop_padding, "scale": tuple(args.scale) if args.scale else None,
              "degrees": args.degrees, "hflip": args.hflip, "erase": args.erase}
    base = recommended if args.augment else Augment()
    return dataclasses.replace(base, **{k: v for k, v in chosen.items() if v is not None})


def main(argv=None) -> dict:
    args = parse_args(argv)
    with start_run(args) as (out, config, ctx):
        return train_classifier(args, out, config, ctx)


def train_classifier(args, out, config, ctx) -> dict:
    """Build, train and score the classifier; its summary (rank 0; {} on the others)."""
    model, pre = build_model(args)
    split = image_split(args.data, in_chans=pre["in_chans"], seed=args.split_seed,
                        test_fraction=args.test_fraction)
    if args.init or model.config.num_classes != len(split.classes):
        model.reset_head(len(split.classes))  # a new classifier for this dataset's classes
    model = with_lora(args, model, out, base=args.init, new_head=len(split.classes))
    augment = augmentation(args, split.augment)
    train_set = ImageDataset(split.train_images, split.train_labels, train_transform(pre, augment))
    test_set = ImageDataset(split.test_images, split.test_labels, eval_transform(pre))
    n_eval = len(test_set) if not args.eval_batches else min(len(test_set), args.eval_batches * args.batch_size)
    eval_set = ImageDataset(split.test_images[:n_eval], split.test_labels[:n_eval], eval_transform(pre))
    stream = BatchStream(train_set, args.batch_size, seed=args.seed, rank=ctx.rank, world_size=ctx.world_size)

    def eval_fn(m):
        result = evaluate_classifier(m, iterate_once(eval_set, 256), len(split.classes))
        return {"loss": result["loss"], "acc": result["acc"]}

    if ctx.is_main:
        print(f"{args.init or args.model}: {sum(p.numel() for p in model.parameters()) / 1e6:.2f}M parameters, "
              f"{len(split.classes)} classes, {len(train_set)} train / {len(test_set)} test images, "
              f"{pre['size']}x{pre['size']}x{pre['in_chans']}, augment {augment}")
    result = train(model, stream, classification_loss(args.label_smoothing), config, eval_fn=eval_fn)
    model = result.model  # with --fsdp: the parameters gathered whole (rank 0)
    if not is_main_process():
        return {}
    final = evaluate_classifier(model, iterate_once(test_set, 256), len(split.classes))
    print(f"test top-1 accuracy {final['acc']:.1%} on {len(test_set)} held-out images (loss {final['loss']:.4f}); "
          f"{result.step} steps in {result.wall_time:.0f} s")
    plot_confusion(final["confusion"], split.classes, out / "confusion.png")
    save_model(model, out / "model")
    save_preprocess_config(pre, out / "model")
    summary = {"model": args.init or args.model, "data": args.data, "steps": result.step,
               "batch_size": args.batch_size, "train_loss": result.train_loss, "test_acc": final["acc"],
               "test_loss": final["loss"], "test_images": len(test_set), "classes": split.classes,
               "augment": dataclasses.asdict(augment), "wall_s": result.wall_time}
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary

