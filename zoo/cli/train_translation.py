"""Train the 2017 Transformer to translate (zoo.marian's presets: transformer_base, transformer_big, transformer_small,
opus_mt, marian_tiny) on a verse-aligned parallel corpus, with the paper's recipe, on the shared engine.

    zoo train-translation --out runs/mt                                  # en -> es on the shipped extract
    zoo train-translation --data data/full/parallel/kjv-rv1909 --vocab-size 8000 --time-budget 60 \\
        --eval-at-minutes 15 30 60 --dtype bf16 --out runs/mt-full       # the full corpus (`make data`)
    zoo train-translation --source es --target en ...                    # the other direction
    zoo train-translation --model marian_tiny --steps 300 --warmup 100 --out runs/mt-tiny   # a CPU try
    torchrun --nproc_per_node 2 scripts/train_translation.py ...         # the same command, DDP (or --fsdp)

The recipe ("Attention is all you need", Vaswani et al. 2017, sections 5 and 6): one joint SentencePiece
vocabulary of both languages (--vocab-size, trained on the train split; data/marian_tokenizer.py, MarianMT's
layout) shared by the source and target embeddings and the output layer; batches of sentence pairs of similar
length with at most --max-tokens padded tokens per side (data/token_batches.py; the paper's held about 25,000
over 8 GPUs); Adam with betas (0.9, 0.98) and eps 1e-9, no weight decay, no gradient clipping; the inverse
square-root schedule, 4000 warmup steps, its peak lr d_model^-0.5 * warmup^-0.5 unless --lr is given
(zoo/training/schedule.py); the preset's dropout (0.1 base, 0.3 big); label smoothing 0.1; the final model the
average of the last --average checkpoints (the paper's base models: the last 5, written 10 minutes apart:
--average 5 --keep-last 5 and a --save-every of that many steps); beam search of 4 with length penalty 0.6
(zoo/training/translation.py).

Held-out scores: BLEU and chrF (sacrebleu) of the valid split during training, on --eval-limit sentences spread
over it, when the run's clock passes each of --eval-at-minutes and every --eval-every steps (by default 1000, or
none when --eval-at-minutes is given; metrics.jsonl's eval records carry the run's "elapsed" seconds,
evaluations included); at the end on all of valid and test.

--data: a folder of {train,valid,test}.{SOURCE,TARGET}, one sentence per line, aligned by line (data/parallel.py);
by default the shipped extract (data/corpus/parallel); the full corpus is data/full/parallel/kjv-rv1909 after
`make data`. Pairs with a side longer than the model's positions or --max-tokens are left out of training.

Outputs in --out (default runs/translation/SOURCE-TARGET): tokenizer/ (the joint vocabulary: a later run into the
same --out reuses it only where made from the same train split and settings, zoo/training/provenance.py; a fresh
run makes it again, --resume refuses), checkpoint.pt (and the checkpoint-<step>.pt --keep-last keeps),
metrics.jsonl, loss.png, translations.jsonl (the final valid and test translations), summary.json, model/
(save_pretrained with the tokenizer beside: zoo.load_pretrained, zoo translate) and model-hf/ (transformers'
MarianMTModel and MarianTokenizer directory).

--lora R trains rank-R adapters over the frozen model instead (zoo/training/lora.py): checkpoints hold them alone,
and model/ holds them in peft's format beside lora_base.json, which names the base (base/ inside it for a fresh
preset); zoo.training.lora.load_trained loads it back.
"""
from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import torch

import zoo
from data.marian_tokenizer import MarianSentencePiece, train_joint_vocabulary
from data.parallel import PARALLEL_EXTRACT, SPLITS, ParallelCorpusError, check_split, read_pairs
from data.token_batches import PairCollator, TokenBatchStream
from zoo.cli.common import UsageError, parser
from zoo.convert.hf_marian import to_transformers
from zoo.training import average_checkpoints, is_main_process, last_checkpoints, paper_peak_lr, train
from zoo.training.batches import autocast_for
from zoo.training.cli import add_training_arguments, exportable, reusable_for, start_run, with_lora
from zoo.training.lora import load_checkpoint_state, save_model
from zoo.training.provenance import fingerprint, remake
from zoo.training.translation import encode_pairs, evaluate_translation, label_smoothed_loss, spread

TRANSLATIONS = "translations.jsonl"


def parse_args(argv=None) -> argparse.Namespace:
    p = parser(__doc__)  # zoo.cli.common: defaults shown in --help
    p.add_argument("--data", default=str(PARALLEL_EXTRACT), help="a folder of {train,valid,test}.{SOURCE,TARGET}")
    p.add_argument("--source", default="en", help="the source language: the suffix of its files in --data")
    p.add_argument("--target", default="es", help="the target language: the suffix of its files in --data")
    p.add_argument("--model", default="transformer_base", help="a marian preset (zoo.list_models())")
    p.add_argument("--vocab-size", type=int, default=4000, help="entries of the joint vocabulary")
    p.add_argument("--max-tokens", type=int, default=4096,
                   help="a training batch's padded tokens per side (rows x longest sentence), per rank")
    p.add_argument("--average", type=int, default=1, metavar="K",
                   help="the final model: the mean of the last K checkpoints' weights (needs --keep-last >= K)")
    p.add_argument("--beam-size", type=int, default=4, help="evaluation: beam search of this width (1: greedy)")
    p.add_argument("--length-penalty", type=float, default=0.6,
                   help="evaluation: beam scores are log-probability / length ** this")
    p.add_argument("--eval-limit", type=int, default=200,
                   help="evaluations during training: this many valid sentences, spread over it (0: all)")
    p.add_argument("--eval-at-minutes", type=float, nargs="+", default=(), metavar="MIN",
                   help="evaluate also when the run's clock passes each of these minutes")
    add_training_arguments(p, steps=100_000, batch_size=None, lr=None, warmup=4000, weight_decay=0.0,
                           label_smoothing=0.1, eval_every=None, save_every=1000, out=None,
                           schedule="inverse_sqrt", betas=(0.9, 0.98), eps=1e-9)
    p.set_defaults(grad_clip=0.0)  # the paper clips no gradients
    args = p.parse_args(argv)
    if args.eval_every is None:  # a curve at --eval-at-minutes only, unless steps are asked for too
        args.eval_every = 0 if args.eval_at_minutes else 1000
    return args


def check_data(args) -> None:
    """--data holds the language pair's files of every split, each pair of files of equal length."""
    if not Path(args.data).is_dir():
        raise UsageError(f"--data {args.data!r}: no such folder; expected a folder of "
                         f"{{train,valid,test}}.{{{args.source},{args.target}}}")
    for split in SPLITS:
        try:
            check_split(args.data, split, (args.source, args.target))
        except ParallelCorpusError as error:
            raise UsageError(f"--data: {error}") from None


def check_options(args) -> None:
    """The options this script adds, checked before anything is written."""
    presets = [name for name in zoo.list_models() if zoo.model_info(name)["family"] == "marian"]
    if args.model not in presets:
        what = f"a {zoo.model_info(args.model)['family']} model" if args.model in zoo.list_models() else "no preset"
        raise UsageError(f"--model {args.model}: {what}; expected a marian preset ({', '.join(presets)})")
    if args.source == args.target:
        raise UsageError(f"--source {args.source} --target {args.target}: the same language; expected two "
                         "different ones")
    for name, low in (("vocab_size", 8), ("max_tokens", 1), ("beam_size", 1), ("eval_limit", 0), ("average", 1)):
        if getattr(args, name) < low:
            raise UsageError(f"--{name.replace('_', '-')} {getattr(args, name)}: expected an integer >= {low}")
    check_data(args)
    check_average(args)


def check_average(args) -> None:
    """--average K: the run keeps K whole checkpoints (--keep-last), and saves K times where --steps says."""
    k = args.average
    if k == 1:
        return
    if k > args.keep_last:
        raise UsageError(f"--average {k}: averaging the last {k} checkpoints needs them kept; expected --keep-last "
                         f">= {k} (got {args.keep_last})")
    if args.fsdp:
        raise UsageError(f"--average {k} with --fsdp: its checkpoints are sharded over the ranks, and averaging "
                         "reads whole ones; expected DDP (no --fsdp) or --average 1")
    saves = math.ceil(args.steps / args.save_every) if args.save_every else 1
    if not args.time_budget and saves < k:
        raise UsageError(f"--average {k}: --steps {args.steps} with --save-every {args.save_every} saves {saves} "
                         f"checkpoint(s); expected --average <= {saves} or a smaller --save-every")


def joint_vocabulary(args, out: Path, train_pairs: list[tuple[str, str]]) -> MarianSentencePiece:
    """out/tokenizer: this run's own where an earlier run made it from the same train split with the same
    settings, else one trained on both sides of the train split (rank 0 writes it)."""
    own, data = out / "tokenizer", Path(args.data)
    source_file = data / f"train.{args.source}"
    settings = {"kind": "joint sentencepiece unigram", "vocab_size": args.vocab_size, "source": args.source,
                "target": args.target, f"train.{args.target}": fingerprint(data / f"train.{args.target}")["sha256"]}
    if (own / "vocab.json").is_file() and reusable_for(args, own, source_file, settings):
        return MarianSentencePiece.from_directory(own)

    def write():
        train_joint_vocabulary([s for s, _ in train_pairs], [t for _, t in train_pairs], own, args.vocab_size,
                               source_lang=args.source, target_lang=args.target)

    try:
        remake(own, source_file, settings, write)
    except ValueError as error:  # SentencePiece: a vocabulary larger than the text allows
        raise UsageError(f"--vocab-size {args.vocab_size}: {error}") from None
    return MarianSentencePiece.from_directory(own)


def shared_vocabulary(args, out: Path, train_pairs: list[tuple[str, str]], ctx) -> MarianSentencePiece:
    """The joint vocabulary, made (or found reusable) by rank 0 first; the other ranks then read what it made."""
    made = joint_vocabulary(args, out, train_pairs) if ctx.is_main else None
    if ctx.is_distributed:
        torch.distributed.barrier()
    return made or joint_vocabulary(args, out, train_pairs)


def build_model(args, tokenizer: MarianSentencePiece):
    """The preset on the tokenizer's vocabulary (its size, pad and EOS ids), carrying the tokenizer."""
    overrides = {"vocab_size": tokenizer.vocab_size, "pad_id": tokenizer.pad_id, "eos_id": tokenizer.eos_id}
    if args.dropout is not None:
        overrides["dropout"] = args.dropout
    model = zoo.create_model(args.model, **overrides)
    model.tokenizer = tokenizer  # save_pretrained writes it beside the weights
    return model


def training_stream(args, tokenizer: MarianSentencePiece, model, train_pairs, ctx) -> tuple[TokenBatchStream, int]:
    """The token-count batches of the train split (rank's share) and how many pairs were left out as too long."""
    bound = min(model.config.max_positions, args.max_tokens)
    encoded = [pair for pair in encode_pairs(tokenizer, train_pairs) if max(map(len, pair)) <= bound]
    if not encoded:
        raise UsageError(f"--max-tokens {args.max_tokens}: every training pair has a side longer than "
                         f"{bound} tokens; expected a larger --max-tokens")
    collate = PairCollator(tokenizer.pad_id, model.config.start_id)
    stream = TokenBatchStream(encoded, [(len(s), len(t)) for s, t in encoded], args.max_tokens, collate,
                              seed=args.seed, rank=ctx.rank, world_size=ctx.world_size)
    return stream, len(train_pairs) - len(encoded)


def described(split: str, scores: dict, args) -> str:
    return (f"{split} BLEU {scores['bleu']:.2f}, chrF {scores['chrf']:.2f} on {scores['sentences']} sentences "
            f"(beam {args.beam_size}, length penalty {args.length_penalty:g}); nll {scores['nll']:.3f}/token")


def main(argv=None) -> dict:
    args = parse_args(argv)
    check_options(args)
    args.out = args.out or f"runs/translation/{args.source}-{args.target}"
    if args.lr is None:  # the paper's: d_model^-0.5 * warmup^-0.5, the lr at the end of warmup
        args.lr = paper_peak_lr(zoo.model_info(args.model)["config"]["dim"], max(args.warmup, 1))
    with start_run(args) as (out, config, ctx):  # --out held by this run; joins torchrun's group
        return train_translation(args, out, config, ctx)


def train_translation(args, out: Path, config, ctx) -> dict:
    """Make the vocabulary, train, and (rank 0) average, score and save; the summary ({} on other ranks)."""
    pairs = {split: read_pairs(args.data, split, args.source, args.target) for split in SPLITS}
    tokenizer = shared_vocabulary(args, out, pairs["train"], ctx)
    model = with_lora(args, build_model(args, tokenizer), out)
    stream, dropped = training_stream(args, tokenizer, model, pairs["train"], ctx)
    held_out = spread(pairs["valid"], args.eval_limit)

    def eval_fn(m):  # every rank decodes the same sentences (an FSDP model's ranks must run alike)
        scores, _ = evaluate_translation(m, tokenizer, held_out, args.beam_size, args.length_penalty)
        if ctx.is_main:
            print(described("valid", scores, args))
        return {name: scores[name] for name in ("bleu", "chrf", "nll")}

    if ctx.is_main:
        if args.overwrite:
            (out / TRANSLATIONS).unlink(missing_ok=True)  # an earlier run's (--overwrite clears its results)
        print(f"{args.model} {args.source}->{args.target}: {sum(p.numel() for p in model.parameters()) / 1e6:.2f}M "
              f"parameters, joint vocabulary {tokenizer.vocab_size}, {len(pairs['train']) - dropped} train pairs "
              f"({dropped} too long), {stream.batches_per_epoch} batches of <= {args.max_tokens} tokens per epoch "
              f"per rank, valid {len(pairs['valid'])} / test {len(pairs['test'])} pairs; lr {args.lr:.3g}")
    result = train(model, stream, label_smoothed_loss(args.label_smoothing), config, eval_fn=eval_fn)
    if not is_main_process():
        return {}
    model = result.model  # with --fsdp: the parameters gathered whole (rank 0)
    model.tokenizer = tokenizer
    averaged = average_last(model, out, args.average)
    summary = {"model": args.model, "data": str(args.data), "source": args.source, "target": args.target,
               "vocab_size": tokenizer.vocab_size, "train_pairs": len(pairs["train"]) - dropped,
               "dropped_too_long": dropped, "steps": result.step, "train_loss": result.train_loss,
               "wall_s": result.wall_time, "averaged": averaged, "beam_size": args.beam_size,
               "length_penalty": args.length_penalty, **final_scores(args, model, tokenizer, pairs, out),
               "curve": curve(result.history, args.eval_at_minutes)}
    save(args, model, tokenizer, out)
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def average_last(model, out: Path, k: int) -> list[str]:
    """Load into `model` the mean of the last `k` checkpoints of the run (k > 1), or of as many as it saved where
    a --time-budget ended it before k saves (said in a line); the names of those averaged."""
    if k == 1:
        return []
    for n in range(k, 0, -1):  # the most of the k newest that there are
        try:
            paths = last_checkpoints(out, n)
            break
        except ValueError:
            continue
    load_checkpoint_state(model, average_checkpoints(paths), f"the mean of {len(paths)} checkpoints")
    short = f" (--average {k}: the run saved only {len(paths)})" if len(paths) < k else ""
    print(f"the final model: the mean of {', '.join(p.name for p in paths)}{short}")
    return [p.name for p in paths]


def final_scores(args, model, tokenizer: MarianSentencePiece, pairs: dict, out: Path) -> dict:
    """BLEU, chrF and nll on all of valid and test (printed, one line each), the translations in
    out/translations.jsonl."""
    device = next(model.parameters()).device
    scores = {}
    with open(out / TRANSLATIONS, "w", encoding="utf-8") as f, autocast_for(device, args.dtype):
        for split in ("valid", "test"):
            scores[split], hypotheses = evaluate_translation(model, tokenizer, pairs[split], args.beam_size,
                                                             args.length_penalty)
            print(described(split, scores[split], args))
            for (source, reference), hypothesis in zip(pairs[split], hypotheses):
                f.write(json.dumps({"split": split, "source": source, "reference": reference,
                                    "hypothesis": hypothesis}, ensure_ascii=False) + "\n")
    return scores


def curve(history: list[dict], minutes: tuple[float, ...]) -> list[dict]:
    """The valid scores of the evaluations during training, with the step and the run's clock; where
    --eval-at-minutes was given, the first evaluation at or after each mark is printed."""
    points = [{"step": r["step"], "minutes": r["elapsed"] / 60, "bleu": r["eval_bleu"], "chrf": r["eval_chrf"]}
              for r in history if r.get("split") == "eval" and "eval_bleu" in r]
    for mark in minutes:
        point = next((p for p in points if p["minutes"] >= mark), None)
        if point is not None:
            print(f"valid BLEU at {mark:g} min: {point['bleu']:.2f} (chrF {point['chrf']:.2f}; step {point['step']}, "
                  f"{point['minutes']:.1f} min)")
    return points


def save(args, model, tokenizer: MarianSentencePiece, out: Path) -> None:
    """model/ (ours, or a --lora run's adapter; tokenizer beside) and model-hf/ (transformers' MarianMTModel, a
    --lora run's merged, with the same generation defaults as the evaluation, and the MarianTokenizer files)."""
    save_model(model, out / "model")
    plain = exportable(args, model, "model-hf")
    if plain is None:
        return
    hf = to_transformers(plain)
    beams = {"num_beams": args.beam_size, "length_penalty": args.length_penalty} if args.beam_size > 1 else {}
    hf.generation_config.update(**beams, max_length=model.config.max_positions,  # transformers refuses a
                                bad_words_ids=[[tokenizer.pad_id]])               # length penalty without beams
    hf.save_pretrained(out / "model-hf")
    tokenizer.save(out / "model-hf")
