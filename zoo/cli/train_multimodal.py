"""Train a LLaVA on the shared engine, in LLaVA's two stages, on shape scenes whose answers can be checked.

    python scripts/train_multimodal.py --stage 1 --out runs/vl1                     # projector on captions
    python scripts/train_multimodal.py --stage 2 --init runs/vl1 --out runs/vl2     # + LM on questions
    torchrun --nproc_per_node 2 scripts/train_multimodal.py ...                     # the same script, DDP

Stage 1 trains the projector alone (tower and language model frozen) on image-caption pairs; stage 2 starts
from a stage-1 output (--init: its directory or its model/) and trains projector and language model, the
tower frozen, on question-answer pairs with the loss on the answer tokens only (LlavaProcessor's
training_batch). Data: data/scene_dataset.py's ShapeScenes (train split), optionally with data/image_qa.py's
Fashion-MNIST / digits items mixed in (--extra digits). Scored by greedy generation through zoo.generate
(pixel_values=) on held-out questions, exact match after normalize_answer, per question kind, on three splits
(data/scenes.py): "val" (unseen layouts), "phrasing" (unseen layouts asked with the held-out phrasings) and
"test" (the held-out phrasings about held-out colour-shape pairs, a systematic-generalisation probe).

Model: --model, default llava_scenes (zoo/llava.py): 48-pixel images cut into one 16-pixel patch per scene
cell, a 4 x 128 LLaMA. By default prompts put the question before the image (data.scenes.PROMPT_FORMAT), so
the image tokens can read it; --prompt image-first / question-twice change that (stage 2 takes --init's
prompt_format.json unless told). The tokenizer is a byte-level BPE (data.tokenization's train_bpe) trained on
the train split's texts only (captions, questions, answers) by stage 1 and carried from there. The training
scenes' pixels are kept once made (ShapeScenes' cache_images).

The tower: random weights by default, frozen in both stages and read at layer 0 (a fixed random projection of
each cell's pixels, layer-normed); --tower-positions and --tower-filters set its position table and how many
of its patch filters are grey. Or --tower DIR, a ViT trained by scripts/train_vision.py (grey presets get
their patch projection repeated over RGB / 3; scenes are resized to the ViT's size). The language model starts
from random weights. Why these defaults, and the measured recipe: docs/training-recipes.md and
docs/notes/2026-12-06-vision-language-recipe.md.

--kinds picks the question kinds (positions, which and beside are off by default) and --prompt where the image
goes (saved as model/prompt_format.json, which scripts/chat.py follows).

Outputs in --out: tokenizer/, checkpoint.pt, metrics.jsonl, loss.png, summary.json (its kinds and prompt
format; stage 2: accuracy per kind on val, phrasing and test), answers.jsonl (stage 2: each held-out answer)
and model/ (save_pretrained + tokenizer.json + preprocess_config.json + prompt_format.json).

--lora R trains rank-R adapters over the frozen model instead (zoo/training/lora.py); by default on the language
model's attention, with the projector in full: checkpoints hold them alone, and model/ holds them in peft's format
beside lora_base.json, which names the base (base/ inside it for a fresh preset); zoo.training.lora.load_trained
loads it back.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
from collections import defaultdict
from pathlib import Path

import torch

import zoo
from backbones.positions import sincos_2d
from data.image_qa import LabelledImageQA
from data.images import load_preprocess_config, preprocess_config, save_preprocess_config
from data.llava_processor import (
    CLIP_MEAN,
    CLIP_STD,
    LlavaProcessor,
    clip_transform,
    load_prompt_format,
    save_prompt_format,
)
from data.loader import BatchStream, iterate_once
from data.scene_dataset import ShapeScenes
from data.scene_questions import worked_breakdown
from data.scenes import DEFAULT_KINDS, KINDS, PROMPT_FORMAT, check_kinds, normalize_answer
from data.tokenization import Tokenizer, load_tokenizer, train_bpe
from heads.lm import CausalLMHead
from zoo.cli.common import parser
from zoo.clip import ClipVisionConfig
from zoo.io import loading
from zoo.llava import Llava
from zoo.training import is_main_process, train
from zoo.training.batches import LOSS_WEIGHT
from zoo.training.cli import add_training_arguments, reusable_for, start_run, with_lora
from zoo.training.lora import BASE_NAME, load_trained, save_model
from zoo.training.provenance import remake
from zoo.training.tasks import held_out_loss

SPLITS = ("val", "phrasing", "test")  # unseen layouts; + held-out phrasings; + held-out colour-shape pairs
PROMPTS = {"question-first": PROMPT_FORMAT, "image-first": "{image}\n{question}\nanswer:",
           "question-twice": "{question}\n{image}\n{question}\nanswer:"}
MIN_DRAW = 48  # scenes are drawn at least this large, then resized to the tower's size (a small ViT's 8 px)
# --lora's default targets: the language model's attention (the tower stays frozen, the projector trains in full)
LANGUAGE_MODEL_ATTENTION = [f"language_model.*.attn.{proj}" for proj in ("q_proj", "k_proj", "v_proj", "o_proj")]


def parse_args(argv=None) -> argparse.Namespace:
    p = parser(__doc__)  # zoo.cli.common: defaults shown in --help
    p.add_argument("--stage", type=int, choices=[1, 2], required=True)
    p.add_argument("--init", help="stage 2: a stage-1 output directory (or its model/)")
    p.add_argument("--model", default="llava_scenes", help="registered LLaVA preset (stage 1)")
    p.add_argument("--tower", help="stage 1: start the tower from a ViT directory (scripts/train_vision.py)")
    p.add_argument("--tower-positions", choices=["random", "sincos"], default="random",
                   help="stage 1, random tower: its learned position embeddings as initialised (std 0.02, weak "
                        "against the patch features) or set to 2-D sin-cos positions (MAE's), which carry each "
                        "image token's row and column into its features as a trained tower's positions do")
    p.add_argument("--tower-filters", choices=["random", "half-grey"], default="random",
                   help="stage 1, random tower: its patch filters as drawn, or half of them made grey (each the mean "
                        "of its three colour channels, rescaled): those answer to a shape's outline whatever its "
                        "colour, as a trained network's first-layer edge filters do, and the other half keep colour")
    p.add_argument("--text-depth", type=int, help="stage 1: the language model's layers (default: the preset's)")
    p.add_argument("--vocab-size", type=int, default=384, help="BPE tokens (stage 1; below the placeholder id)")
    p.add_argument("--scenes", type=int, default=12000, help="training scenes")
    p.add_argument("--questions-per-scene", type=int, default=4)
    p.add_argument("--prompt", choices=sorted(PROMPTS),
                   help="where the image goes: after the question (question-first, PROMPT_FORMAT), before it, or "
                        "between two copies of it (default: --init's prompt_format.json, else question-first)")
    p.add_argument("--kinds", default=",".join(DEFAULT_KINDS),
                   help="comma-separated question kinds trained and scored (stage 2; stage 1 learns its BPE from "
                        "their texts too), of " + ",".join(KINDS) + "; the default is the measured runs' six "
                        "(data.scenes.DEFAULT_KINDS): positions, which and beside are asked on request")
    p.add_argument("--eval-scenes", type=int, default=250,
                   help="scenes per held-out split (--questions-per-scene each, where the kinds apply)")
    p.add_argument("--extra", default="", help="comma-separated image_qa sources mixed in: digits,fashion-mnist")
    p.add_argument("--extra-limit", type=int, default=1000, help="images per extra source")
    add_training_arguments(p, steps=1000, batch_size=64, lr=3e-3, warmup=50, weight_decay=0.05, label_smoothing=None,
                           eval_every=250, eval_batches=4, save_every=500, out="runs/multimodal")
    args = p.parse_args(argv)
    if args.stage == 2 and not args.init:
        raise SystemExit("--stage 2 starts from a stage-1 output: pass --init DIR")
    if args.init and (args.tower or args.tower_positions != "random" or args.tower_filters != "random"
                      or args.text_depth is not None):
        raise SystemExit("--tower, --tower-positions, --tower-filters and --text-depth start a new model (stage 1); "
                         "--init already holds one")
    if args.tower and args.tower_filters != "random":
        raise SystemExit("--tower-filters shapes a random tower; --tower brings trained filters")
    if args.text_depth is not None and args.text_depth < 1:
        raise SystemExit(f"--text-depth must be at least 1 layer, got {args.text_depth}")
    args.extra = [s for s in args.extra.split(",") if s]
    try:
        args.kinds = check_kinds(k for k in args.kinds.split(",") if k)
    except ValueError as e:
        raise SystemExit(f"--{e}") from None
    saved = load_prompt_format(model_dir(args.init), PROMPT_FORMAT) if args.init else PROMPT_FORMAT
    args.prompt_format = PROMPTS[args.prompt] if args.prompt else saved
    if args.init and args.prompt_format != saved:
        print(f"--prompt {args.prompt}: {args.init} was trained with {saved!r}", flush=True)
    return args


# ----------------------------------------------------------------------------- model, tokenizer


def model_dir(directory: str | Path) -> Path:
    """A run's model/ (a whole model, or a --lora run's adapter), given the run's directory or model/ itself."""
    inner = Path(directory) / "model"
    return inner if any((inner / name).is_file() for name in ("config.json", BASE_NAME)) else Path(directory)


def tower_from_vit(config, vit_dir: str) -> tuple[Llava, dict]:
    """A LLaVA of `config` whose tower is the ViT in vit_dir (its blocks up to the feature layer), and the
    pixel preprocessing that ViT was trained with (RGB: a grey ViT's patch projection is repeated / 3)."""
    with loading(f"--vit {vit_dir}"):
        vit = load_trained(vit_dir, merge=True)
    if vit.config.family != "vit":
        raise SystemExit(f"--tower {vit_dir} is a {vit.config.family} model; expected a ViT (train_vision.py)")
    vision = ClipVisionConfig.from_vit(vit.config, num_classes=0, in_chans=3, vision_feature_layer=-1)
    model = Llava(dataclasses.replace(config, vision=vision))
    state = {k: v for k, v in vit.state_dict().items() if not k.startswith("head.")}
    weight = state["patch_embed.proj.weight"]  # (D, C, P, P)
    state["patch_embed.proj.weight"] = weight.repeat(1, 3 // weight.shape[1], 1, 1) / (3 // weight.shape[1])
    missing, _ = model.vision_tower.load_state_dict(state, strict=False)  # the ViT's final norm: unused
    if missing:
        raise SystemExit(f"--tower {vit_dir}: the tower's {missing} are not in the ViT")
    pre = load_preprocess_config(vit_dir, vit.config)
    pre = {**pre, "in_chans": 3, "mean": (pre["mean"][0],) * 3, "std": (pre["std"][0],) * 3}
    return model, pre


def build(args, out: Path) -> tuple[Llava, Tokenizer, dict]:
    """Stage 2: --init's model, tokenizer and preprocessing. Stage 1: a fresh preset (or --tower), the tokenizer
    an earlier run into --out learnt from the same texts (zoo/training/provenance.py) or a new BPE of them."""
    if args.init:
        directory = model_dir(args.init)
        with loading(f"--init {args.init}"):
            model = load_trained(directory, merge=True)
        return model, load_tokenizer(directory), load_preprocess_config(directory, model.config.vision)
    if zoo.model_info(args.model)["family"] != "llava":
        raise SystemExit(f"--model {args.model} is not a LLaVA preset (zoo.list_models('llava*'))")
    model = zoo.create_model(args.model)
    if args.text_depth is not None:
        model = Llava(dataclasses.replace(model.config, text=dataclasses.replace(model.config.text,
                                                                                 depth=args.text_depth)))
    if args.tower:
        model, pre = tower_from_vit(model.config, args.tower)
    else:
        if args.tower_positions == "sincos":
            sincos_tower_positions(model)
        if args.tower_filters == "half-grey":
            grey_tower_filters(model)
        pre = preprocess_config(model.config.vision, mean=CLIP_MEAN, std=CLIP_STD, interpolation="bicubic")
    own = out / "tokenizer"
    settings = {"vocab_size": args.vocab_size, "scenes": args.scenes, "questions_per_scene": args.questions_per_scene,
                "kinds": list(args.kinds), "prompt_format": args.prompt_format, "extra": args.extra,
                "extra_limit": args.extra_limit}  # what training_texts draws the BPE's texts from
    if (own / "tokenizer.json").is_file() and reusable_for(args, own, None, settings):
        return model, load_tokenizer(own), pre
    if args.vocab_size >= model.config.image_token_id:
        raise SystemExit(f"--vocab-size {args.vocab_size} must stay below the placeholder id "
                         f"{model.config.image_token_id}")
    tokenizer = train_bpe(training_texts(args, MIN_DRAW), vocab_size=args.vocab_size)
    if is_main_process():
        remake(own, None, settings, lambda: tokenizer.save(own))
    return model, tokenizer, pre


def sincos_tower_positions(model: Llava) -> None:
    """Set the tower's learned patch positions to fixed 2-D sin-cos values (backbones.positions.sincos_2d; the
    prefix tokens' stay): still a learned parameter, so the model saves and loads as any LLaVA does."""
    embed = model.vision_tower.patch_embed
    with torch.no_grad():
        embed.pos_embed[0, embed.pos_prefix:] = sincos_2d(*embed.grid_size, embed.pos_embed.shape[-1])


def grey_tower_filters(model: Llava, fraction: float = 0.5) -> None:
    """Make the first `fraction` of the tower's patch filters grey: each channel's weights become the mean over
    the channels, times sqrt(channels) (an average of independent draws shrinks by that). A grey filter's
    response to a shape is the same map of its outline whatever the colour, scaled by the colour's contrast
    with the background, so what is learnt of a shape from one colour holds for the others
    (docs/notes/2026-12-06-vision-language-recipe.md)."""
    weight = model.vision_tower.patch_embed.proj.weight  # (D, C, P, P)
    grey = int(weight.shape[0] * fraction)
    with torch.no_grad():
        weight[:grey] = weight[:grey].mean(1, keepdim=True).expand_as(weight[:grey]) * weight.shape[1] ** 0.5


def training_texts(args, image_size: int) -> list[str]:
    """Every text of the train split (captions, questions, answers): what the BPE learns from."""
    texts = []
    for mode in ("caption", "qa"):
        for dataset in datasets(args, "train", mode, image_size, None):
            texts += [f"{dataset.qa(i).question} {dataset.qa(i).answer}" for i in range(len(dataset))]
    return texts


def freeze(model: Llava, stage: int) -> None:
    """Stage 1: the projector alone trains. Stage 2: projector and language model; the tower never does."""
    for name, p in model.named_parameters():
        p.requires_grad = name.startswith("projector.") or (stage == 2 and name.startswith("language_model."))


# ----------------------------------------------------------------------------- data


def datasets(args, split: str, mode: str, image_size: int, transform, num_scenes: int | None = None) -> list:
    scenes = args.scenes if split == "train" else args.eval_scenes
    sets = [ShapeScenes(split, num_scenes or scenes, image_size=image_size, mode=mode, transform=transform,
                        questions_per_scene=args.questions_per_scene, kinds=args.kinds,
                        prompt_format=args.prompt_format,
                        cache_images=split == "train")]
    sets += [LabelledImageQA(source, split, image_size=image_size, mode=mode, transform=transform,
                             limit=args.extra_limit) for source in (args.extra if split == "train" else ())]
    return sets


class Collate:
    """Samples -> LlavaProcessor.training_batch (right-padded; labels on the answer and its eos only)."""

    def __init__(self, processor: LlavaProcessor):
        self.processor = processor

    def __call__(self, samples) -> dict[str, torch.Tensor]:
        batch = self.processor.training_batch([s.prompt for s in samples], [s.answer for s in samples],
                                              [s.image for s in samples])
        return {k: v for k, v in batch.items() if k != "image_counts"}


def answer_loss(model, batch: dict[str, torch.Tensor]):
    """Cross-entropy on the labelled tokens (answers, or captions in stage 1), and their token accuracy."""
    logits = model(batch["input_ids"], batch["pixel_values"], batch["attention_mask"])  # (B, T, V)
    labels = batch["labels"]
    known = labels != -100
    return CausalLMHead.loss(logits, labels), {"token_acc": (logits.argmax(-1)[known] == labels[known]).float().mean(),
                                               LOSS_WEIGHT: known.sum()}  # ranks weighed by their answer tokens


@torch.no_grad()
def answer(model: Llava, processor: LlavaProcessor, prompts: list[str], images: list, max_new_tokens: int = 24) \
        -> list[str]:
    """Greedy answers to a batch of prompts (one image each), left-padded, through zoo.generate."""
    inputs = processor(prompts, [[im] for im in images])
    device = next(model.parameters()).device
    ids, mask = inputs["input_ids"].to(device), inputs["attention_mask"].to(device)
    out = zoo.generate(model, ids, max_new_tokens, attention_mask=mask, eos_id=processor.eos_id,
                       pixel_values=inputs["pixel_values"].to(device))
    tokens = out[:, ids.shape[1]:].tolist()
    return [processor.tokenizer.decode(row[:row.index(processor.eos_id)] if processor.eos_id in row else row)
            for row in tokens]


def accuracy(model: Llava, processor: LlavaProcessor, dataset, limit: int | None = None,
             batch_size: int = 64) -> tuple[dict[str, float], list[dict]]:
    """Exact match after normalize_answer, overall and per kind, over the first `limit` items."""
    n = len(dataset) if limit is None else min(limit, len(dataset))
    rows = []
    for lo in range(0, n, batch_size):
        samples = [dataset[i] for i in range(lo, min(n, lo + batch_size))]
        predicted = answer(model, processor, [s.prompt for s in samples], [s.image for s in samples])
        rows += [{"kind": s.kind, "prompt": s.prompt, "answer": s.answer, "predicted": p,
                  "correct": normalize_answer(p) == normalize_answer(s.answer)} for s, p in zip(samples, predicted)]
    per_kind = defaultdict(list)
    for row in rows:
        per_kind[row["kind"]].append(row["correct"])
    scores = {"overall": sum(r["correct"] for r in rows) / max(len(rows), 1)}
    scores.update({kind: sum(v) / len(v) for kind, v in sorted(per_kind.items())})
    return scores, rows


# ----------------------------------------------------------------------------- main


def evaluate_held_out(model, args, held_out: dict, processor, collate, out: Path) -> dict:
    """Each held-out split's answer loss; stage 2: accuracy per kind (answers.jsonl), stage 1: one caption. A split
    with no items (a few scenes of one object each ask no relation) is left out."""
    summary = {}
    held_out = {split: dataset for split, dataset in held_out.items() if len(dataset)}
    for split, dataset in held_out.items():
        summary[f"{split}_loss"] = held_out_loss(model, iterate_once(dataset, args.batch_size, collate), answer_loss)
    if args.stage == 2:
        with open(out / "answers.jsonl", "w") as f:
            for split, dataset in held_out.items():
                scores, rows = accuracy(model, processor, dataset)
                summary[f"{split}_acc"] = scores
                if worked := worked_breakdown(rows):
                    summary[f"{split}_worked"] = worked
                for row in rows:
                    f.write(json.dumps({"split": split, **row}) + "\n")
                print(f"{split} accuracy {scores['overall']:.3f} on {len(rows)} held-out questions: "
                      + ", ".join(f"{k} {v:.3f}" for k, v in scores.items() if k != "overall"))
    else:
        sample = held_out["test"][0]
        caption = answer(model, processor, [sample.prompt], [sample.image], max_new_tokens=40)[0]
        summary["sample_caption"] = {"reference": sample.answer, "generated": caption}
        print(f"held-out caption loss {summary['test_loss']:.4f}; {sample.answer!r} -> {caption!r}")
    return summary


def main(argv=None) -> dict:
    args = parse_args(argv)
    with start_run(args) as (out, config, ctx):
        return train_stage(args, out, config, ctx)


def train_stage(args, out: Path, config, ctx) -> dict:
    """Build, train and score this stage's LLaVA; its summary (rank 0; {} on the others)."""
    model, tokenizer, pre = build(args, out)
    freeze(model, args.stage)
    model = with_lora(args, model, out, base=model_dir(args.init) if args.init else None,
                      modules_to_save=["projector"], default_targets=LANGUAGE_MODEL_ATTENTION)
    transform = clip_transform(pre["size"], mean=pre["mean"], std=pre["std"], interpolation=pre["interpolation"])
    processor = LlavaProcessor(tokenizer, model.config.image_token_id, model.num_image_tokens, transform)
    mode = "caption" if args.stage == 1 else "qa"
    draw = max(pre["size"], MIN_DRAW)
    train_set = torch.utils.data.ConcatDataset(datasets(args, "train", mode, draw, transform))
    held_out = {split: datasets(args, split, mode, draw, transform)[0] for split in SPLITS}
    collate = Collate(processor)
    stream = BatchStream(train_set, args.batch_size, collate, seed=args.seed, rank=ctx.rank,
                         world_size=ctx.world_size)
    limit = args.eval_batches * args.batch_size or None

    def eval_fn(m):
        loss = held_out_loss(m, iterate_once(held_out["val"], args.batch_size, collate), answer_loss)
        if args.stage == 1:
            return {"loss": loss}
        return {"loss": loss, "acc": accuracy(m, processor, held_out["val"], limit)[0]["overall"]}

    if ctx.is_main:
        trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
        print(f"stage {args.stage} ({args.init or args.model}{', tower ' + args.tower if args.tower else ''}): "
              f"{sum(p.numel() for p in model.parameters()) / 1e6:.2f}M parameters, {trainable / 1e6:.2f}M "
              f"trained; vocab {tokenizer.vocab_size}; {len(train_set)} train / "
              + " / ".join(f"{len(s)} {k}" for k, s in held_out.items()) + f" {mode} items")
    result = train(model, stream, answer_loss, config, eval_fn=eval_fn)
    model = result.model  # with --fsdp: the parameters gathered whole (rank 0)
    if not is_main_process():
        return {}
    model.eval()
    summary = {"stage": args.stage, "model": args.init or args.model, "tower": args.tower or "random",
               "kinds": list(args.kinds), "prompt_format": args.prompt_format,
               "steps": result.step, "train_loss": result.train_loss, "wall_s": result.wall_time,
               "train_items": len(train_set)}
    summary.update(evaluate_held_out(model, args, held_out, processor, collate, out))
    save_model(model, out / "model")
    tokenizer.save(out / "model")
    save_preprocess_config(pre, out / "model")
    save_prompt_format(args.prompt_format, out / "model")
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(f"({result.wall_time:.0f} s)")
    return summary

