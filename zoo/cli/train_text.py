"""Train text models on the shared engine: causal-LM pre-training (gpt, llama),
masked-LM pre-training (bert) and sequence-classification fine-tuning (bert).

    python scripts/train_text.py --model gpt_tiny --data data/corpus/kjv_extract.txt --steps 600 --out runs/gpt
    python scripts/train_text.py --model bert_tiny --data data/corpus/kjv_extract.txt --steps 500 --out runs/mlm
    python scripts/train_text.py --task cls --model bert_tiny --init runs/mlm/model --out runs/cls   # Brown genres
    torchrun --nproc_per_node 2 scripts/train_text.py ...        # the same script, DDP

A tokenizer is trained on --data unless --tokenizer (or --init's directory) has one.
Outputs in --out: tokenizer/, tokens.bin, checkpoint.pt, metrics.jsonl, loss.png, model/. A later run into the
same --out (--resume, or --overwrite) reuses tokenizer/ and tokens.bin only where they were made from the same
--data and tokenizer settings (zoo/training/provenance.py): a fresh run makes them again, a resumed one refuses.

--lora R trains rank-R adapters over the frozen model instead (zoo/training/lora.py), with cls's new head in full:
checkpoints hold them alone, and model/ holds them in peft's format beside lora_base.json, which names the base
(base/ inside it for a fresh preset); zoo.training.lora.load_trained loads it back.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
from pathlib import Path

import torch

import zoo
from data.collate import ClassificationCollator, MLMCollator
from data.lm_dataset import SpecialWrapped, tokenize_to_file, train_val_split
from data.loader import BatchStream, default_stack, iterate_once
from data.text import BROWN_EXTRACT, brown_split
from data.tokenization import Tokenizer, load_tokenizer, train_bpe, train_wordpiece
from zoo.cli.common import UsageError, parser
from zoo.generation import generate
from zoo.io import loading
from zoo.training import TrainConfig, is_main_process, make_eval_fn, train
from zoo.training.cli import add_training_arguments, reusable_for, start_run, with_lora
from zoo.training.lora import load_trained, save_model, trained_family
from zoo.training.provenance import remake
from zoo.training.tasks import (
    causal_lm_loss,
    classification_loss,
    evaluate_classifier,
    held_out_loss,
    mlm_loss,
    plot_confusion,
)

TASKS = {"gpt": "clm", "llama": "clm", "bert": "mlm"}


def parse_args(argv=None) -> argparse.Namespace:
    p = parser(__doc__)  # zoo.cli.common: defaults shown in --help
    p.add_argument("--model", default="gpt_tiny", help="registered preset (zoo.list_models())")
    p.add_argument("--task", choices=["clm", "mlm", "cls"], help="default: clm for gpt/llama, mlm for bert")
    p.add_argument("--data", help="plain text file (clm/mlm) or Brown corpus folder (cls; default: shipped extract)")
    p.add_argument("--tokenizer", help="tokenizer.json, vocab.txt or an HF directory")
    p.add_argument("--vocab-size", type=int, help="vocabulary of a newly trained tokenizer (default: the preset's)")
    p.add_argument("--init", help="start from a save_pretrained or HF directory (fine-tuning)")
    p.add_argument("--block-size", type=int, default=128, help="tokens per training sequence")
    add_training_arguments(p, steps=500, batch_size=16, lr=1e-3, warmup=50, weight_decay=0.1, out="runs/text")
    p.add_argument("--sample", type=int, default=0, help="clm: print this many sampled tokens at the end")
    p.add_argument("--prompt", default="And God said")
    return p.parse_args(argv)


def has_tokenizer(directory) -> bool:
    return bool(directory) and any((Path(directory) / n).exists() for n in ("tokenizer.json", "vocab.txt"))


def get_tokenizer(args, out: Path, kind: str, texts_for_training, data) -> Tokenizer:
    """--tokenizer, else the --init directory's, else this run's own where made from `data` with these settings,
    else a new one trained on `texts_for_training` (and kept in out/tokenizer, recorded)."""
    if args.tokenizer:
        return load_tokenizer(args.tokenizer)
    if has_tokenizer(args.init):
        return load_tokenizer(args.init)
    own = out / "tokenizer"
    settings = {"kind": kind, "vocab_size": args.vocab_size or zoo.model_info(args.model)["config"]["vocab_size"]}
    if has_tokenizer(own) and reusable_for(args, own, data, settings):
        return load_tokenizer(own)
    tokenizer = (train_bpe if kind == "bpe" else train_wordpiece)(texts_for_training, vocab_size=settings["vocab_size"])
    if is_main_process():
        remake(own, data, settings, lambda: tokenizer.save(own))
    return tokenizer


def build_model(args, **config):
    """A fresh preset, or --init: our save_pretrained directory, an HF one or a LoRA run's (merged)."""
    if args.init:
        with loading(f"--init {args.init}"):
            return load_trained(args.init, merge=True)
    if args.dropout is not None:
        config["dropout"] = args.dropout
    return zoo.create_model(args.model, **config)


def token_file(args, out: Path, tokenizer: Tokenizer) -> Path:
    """--data tokenized into out/tokens.bin (rank 0), or the file an earlier run made from the same data with the
    same tokenizer."""
    path = out / "tokens.bin"
    settings = {"tokenizer": hashlib.sha256(tokenizer.backend.to_str().encode()).hexdigest()}
    if not reusable_for(args, path, args.data, settings) and is_main_process():
        remake(path, args.data, settings, lambda: tokenize_to_file(args.data, tokenizer, path))
    return path


def tokenized(args, out: Path, task: str, ctx) -> tuple[Tokenizer, Path]:
    """The tokenizer and the token file, made (or found reusable) by rank 0 first; the other ranks then load
    what it made."""
    def make():
        tokenizer = get_tokenizer(args, out, "bpe" if task == "clm" else "wordpiece", args.data, args.data)
        return tokenizer, token_file(args, out, tokenizer)

    made = make() if ctx.is_main else None
    if ctx.is_distributed:
        torch.distributed.barrier()
    return made or make()


def check_data(path: str | None) -> None:
    """--data for clm/mlm: a text file with something in it."""
    if not path:
        raise UsageError("--data: required for clm/mlm training; expected a plain text file")
    file = Path(path)
    if not file.is_file():
        raise UsageError(f"--data {path!r}: {'a folder' if file.is_dir() else 'no such file'}; expected a plain "
                         "text file")
    size = file.stat().st_size
    if size == 0 or (size < 1 << 20 and not file.read_text(encoding="utf-8", errors="replace").strip()):
        raise UsageError(f"--data {path!r} is empty ({size} bytes{', whitespace only' if size else ''}); expected "
                         "a plain text file of documents")


def check_sample(args, tokenizer: Tokenizer, model) -> None:
    """--sample fits the model's positions after the prompt (checked before training, not after it)."""
    prompt = len(tokenizer.encode(args.prompt, add_special_tokens=False))
    if not prompt:
        raise UsageError(f"--prompt {args.prompt!r}: no tokens; expected some text to sample after")
    if prompt + args.sample > model.max_positions:
        raise UsageError(f"--sample {args.sample}: with the prompt's {prompt} tokens that exceeds {args.model}'s "
                         f"{model.max_positions} positions; expected at most {model.max_positions - prompt}")


def language_modelling(args, config: TrainConfig, out: Path, task: str, ctx):
    tokenizer, path = tokenized(args, out, task, ctx)
    rank, world = ctx.rank, ctx.world_size
    model = build_model(args, vocab_size=tokenizer.vocab_size)
    block = args.block_size if task == "clm" else args.block_size - 2  # mlm: [CLS] block [SEP]
    if task == "clm" and block > model.max_positions:
        raise SystemExit(f"--block-size {block} exceeds {args.init or args.model}'s {model.max_positions} positions")
    if args.sample:
        check_sample(args, tokenizer, model)
    model = with_lora(args, model, out, base=args.init)
    try:
        train_set, val_set = train_val_split(path, block, val_fraction=0.1)
    except ValueError as error:  # fewer tokens than a block in either part
        raise UsageError(f"--data {args.data!r}: too short for --block-size {args.block_size} ({error}); expected "
                         "a longer text or a smaller --block-size") from None
    if task == "clm":
        collate, loss_fn = None, causal_lm_loss
    else:
        train_set, val_set = (SpecialWrapped(d, tokenizer.cls_id, tokenizer.sep_id) for d in (train_set, val_set))
        collate, loss_fn = MLMCollator(tokenizer, seed=args.seed + rank), mlm_loss
    kw = {"collate_fn": collate} if collate else {}
    stream = BatchStream(train_set, args.batch_size, seed=args.seed, rank=rank, world_size=world, **kw)
    val_kw = {"collate_fn": MLMCollator(tokenizer, seed=1234)} if collate else {}
    val_stream = BatchStream(val_set, args.batch_size, seed=1, **val_kw)
    eval_fn = make_eval_fn(val_stream, loss_fn, args.eval_batches, perplexity=True)
    print(f"{args.init or args.model} ({task}): {sum(p.numel() for p in model.parameters()) / 1e6:.2f}M parameters, "
          f"vocab {tokenizer.vocab_size}, {len(train_set)} train / {len(val_set)} held-out sequences")
    result = train(model, stream, loss_fn, config, eval_fn=eval_fn)
    model = result.model  # with --fsdp: the parameters gathered whole (rank 0)
    if not is_main_process():
        return
    model.eval()
    eval_collate = MLMCollator(tokenizer, seed=1234) if task == "mlm" else default_stack  # fixed masks
    held_out = held_out_loss(model, iterate_once(val_set, args.batch_size, eval_collate), loss_fn)
    summary = {"model": args.init or args.model, "task": task, "steps": result.step, "train_loss": result.train_loss,
               "held_out_loss": held_out, "held_out_ppl": math.exp(held_out), "wall_s": result.wall_time}
    print(f"held-out loss {held_out:.4f} (a uniform guess over the {tokenizer.vocab_size}-token vocabulary: "
          f"{math.log(tokenizer.vocab_size):.4f}), perplexity {math.exp(held_out):.2f}; "
          f"{result.step} steps in {result.wall_time:.0f} s")
    save_model(model, out / "model")
    tokenizer.save(out / "model")
    if task == "clm" and args.sample:
        prompt = torch.tensor([tokenizer.encode(args.prompt, add_special_tokens=False)])
        text = generate(model.cpu(), prompt, args.sample, do_sample=True, top_k=40, temperature=0.8,
                        generator=torch.Generator().manual_seed(args.seed))
        summary["sample"] = tokenizer.decode(text[0].tolist())
        print_sample(summary["sample"], f"prompt {args.prompt!r}, {args.sample} sampled tokens, top-k 40, "
                     "temperature 0.8")
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")


def degenerate(text: str) -> str | None:
    """Why a generated text is not worth showing (next to nothing, or a word or phrase looping), else None."""
    words = text.split()
    if len(words) < 4:
        return f"only {len(words)} words"
    for n in (1, 2, 3):  # the same n words four times in a row
        for i in range(len(words) - 4 * n + 1):
            if words[i:i + n] * 4 == words[i:i + 4 * n]:
                return f"it repeats {' '.join(words[i:i + n])!r} over and over"
    if len(set(words)) < 0.25 * len(words):
        return f"only {len(set(words))} distinct words in {len(words)}"
    return None


def print_sample(text: str, how: str) -> None:
    """The sample under a line saying what it is, indented; a degenerate one is withheld, with the reason."""
    reason = degenerate(text)
    if reason:
        print(f"sample ({how}) withheld: {reason}")
        return
    print(f"sample ({how}):")
    for line in text.splitlines():
        print(f"  {line}")


def classification(args, config: TrainConfig, out: Path, ctx):
    split = brown_split(args.data or BROWN_EXTRACT, unit="chunk", chunk_words=args.block_size // 2)
    tokenizer = get_tokenizer(args, out, "wordpiece", (text for text, _ in split.train), args.data or BROWN_EXTRACT)
    encode = lambda rows: [(tokenizer.encode(t), y) for t, y in rows]  # noqa: E731
    train_set, test_set = encode(split.train), encode(split.test)
    model = build_model(args, vocab_size=tokenizer.vocab_size, head="classifier", num_classes=len(split.labels))
    if args.init:
        model.reset_head(len(split.labels))
    model = with_lora(args, model, out, base=args.init, new_head=len(split.labels))
    collate = ClassificationCollator(tokenizer.pad_id, max_length=args.block_size, sep_id=tokenizer.sep_id)
    rank, world = ctx.rank, ctx.world_size
    stream = BatchStream(train_set, args.batch_size, collate_fn=collate, seed=args.seed, rank=rank, world_size=world)

    def eval_fn(m):
        result = evaluate_classifier(m, iterate_once(test_set, 64, collate), len(split.labels))
        return {"loss": result["loss"], "acc": result["acc"]}

    print(f"{args.init or args.model} genre classification: {len(split.labels)} genres, {len(train_set)} train / "
          f"{len(test_set)} test chunks (split by file)")
    result = train(model, stream, classification_loss(args.label_smoothing), config, eval_fn=eval_fn)
    model = result.model  # with --fsdp: the parameters gathered whole (rank 0)
    if not is_main_process():
        return
    final = evaluate_classifier(model, iterate_once(test_set, 64, collate), len(split.labels))
    chance = max(torch.bincount(torch.tensor([y for _, y in test_set])).tolist()) / len(test_set)
    print(f"test accuracy {final['acc']:.3f} (majority class {chance:.3f}), loss {final['loss']:.4f}")
    plot_confusion(final["confusion"], split.labels, out / "confusion.png")
    save_model(model, out / "model")
    tokenizer.save(out / "model")
    (out / "summary.json").write_text(json.dumps(
        {"model": args.init or args.model, "task": "cls", "steps": result.step, "test_acc": final["acc"],
         "majority_baseline": chance, "labels": split.labels, "wall_s": result.wall_time}, indent=2) + "\n")


def main(argv=None) -> None:
    args = parse_args(argv)
    # --init's model is the one trained (its family from its config files); else the --model preset
    family = trained_family(args.init) if args.init else zoo.model_info(args.model)["family"]
    model = args.init or args.model
    task = args.task or TASKS.get(family)
    if task is None or (task != "clm" and family != "bert") or (task == "clm" and family == "bert"):
        raise SystemExit(f"--task {task} does not fit model {model} (family {family})")
    if args.sample < 0:
        raise UsageError(f"--sample {args.sample}: expected a number of tokens >= 0")
    if args.sample and task != "clm":
        raise UsageError(f"--sample {args.sample}: --task {task} does not generate; expected it with --task clm only")
    if args.label_smoothing and task != "cls":
        raise UsageError(f"--label-smoothing {args.label_smoothing}: --task {task} has no label smoothing (its "
                         "targets are tokens); expected it only with --task cls")
    if task != "cls":
        check_data(args.data)
    with start_run(args) as (out, config, ctx):  # --out held by this run; joins torchrun's group
        if task == "cls":
            classification(args, config, out, ctx)
        else:
            language_modelling(args, config, out, task, ctx)
