#!/usr/bin/env python
"""Train an audio model on the shared engine, from scratch, on a speech manifest (data/speech.py's format).

    python scripts/train_audio.py --task keywords --out runs/keywords          # AST keyword spotting
    python scripts/train_audio.py --task asr --out runs/asr                    # Whisper speech recognition
    python scripts/train_audio.py --task asr --data data/full/speech/asr ...   # the full set (`make data`)
    torchrun --nproc_per_node 2 scripts/train_audio.py ...                     # the same script, DDP

keywords: an AST (default ast_tiny) classifies digits, letters and command words; its head is sized to the
training classes. Scored on the held-out voices ("test") and on the human recordings ("human"): accuracy
and confusion matrices.
asr: a small Whisper (default whisper_micro, 10 s window) learns the transcripts, with a byte-level BPE
learned from the training transcripts (--tokenizer corpus, --text-vocab tokens plus Whisper's control and
timestamp tokens: the model carries it and saves it beside its weights) or openai-whisper's English
vocabulary (--tokenizer whisper: 50k tokens, a much slower softmax); scored by transcribing the held-out voices, the
human prompts and val (training voices, unseen sentences) with zoo.transcribe (greedy, no timestamps), then word
error rate by jiwer on normalised text. --ctc-weight w (default 0.3) trains a CTC head on the encoder beside the
decoder's cross-entropy, (1 - w) CE + w CTC (hybrid CTC/attention, heads/ctc.py): the decoder alone can lower its
loss from the text, the CTC term only from the audio. The head is for training only: model/ holds the Whisper.

During training the held-out figures (keywords: loss and accuracy; asr: the decoder's cross-entropy) are taken
on --eval-split, by default "val" (training voices, sentences or clips not trained on), so settings are
chosen without the test voices; the final scores are on "test" and "human" (keywords also "val").

--data defaults to data/full/speech/<task> when `make data` built it, else the tiny set shipped in
data/speech_tiny/<task> (data.speech.speech_dir). Outputs in --out: checkpoint.pt,
metrics.jsonl, loss.png, summary.json, model/ (save_pretrained; keywords also labels.json), and
confusion_<split>.png (keywords) or transcripts.jsonl (asr).

    python scripts/train_audio.py --task asr --evaluate runs/asr/model --beam-size 5 --out runs/asr  # rescore
    python scripts/train_audio.py --task asr --init runs/asr/model --out runs/asr2 --lr 3e-4   # fine-tune

--evaluate scores a saved recogniser without training (evaluation_<greedy|beamN>.json in --out), or a
checkpoint a run kept (--keep-last; --evaluate runs/asr/checkpoint-1200.pt with the run's --data, --model and
--text-vocab), so a learning curve can be read in WER. --init
starts asr from a saved Whisper (save_pretrained, or an HF WhisperForConditionalGeneration directory) and the
tokenizer it carries (else openai-whisper's for its vocabulary), its config as saved (--model, --tokenizer and
--dropout are for fresh models).
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import torch
from torch import nn

import zoo
from data.audio_tasks import (
    ASR_SPEC_AUGMENT,
    KeywordSet,
    SpecAugment,
    SpeechSet,
    keyword_classes,
    lm_corpus,
    normalize_text,
    select,
    waveforms,
)
from data.loader import BatchStream, iterate_once
from data.speech import load_manifest, speech_dir
from data.whisper_vocab import train_whisper_tokenizer
from zoo.generation.ngram import NgramLM, ShallowFusion
from zoo.generation.whisper_decode import default_tokenizer, tokenizer_for_vocab
from zoo.io import loading
from zoo.training import is_main_process, train
from zoo.training.asr import WithCTC, asr_loss
from zoo.training.cli import add_training_arguments, start_run, train_config
from zoo.training.tasks import classification_loss, evaluate_classifier, held_out_loss, plot_confusion

TASKS = {"keywords": "ast_tiny", "asr": "whisper_micro"}
_SPLIT_NAMES = {"val": "training voices, other utterances", "test": "held-out voices", "human": "human recordings"}
ENGLISH_VOCAB = 51864  # openai-whisper's English-only tokenizer (gpt2 + specials + timestamps)


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--task", choices=sorted(TASKS), required=True)
    p.add_argument("--data", help="a folder with manifest.jsonl (default: the full set if built, else the shipped one)")
    p.add_argument("--model", help=f"registered preset (default: {TASKS})")
    p.add_argument("--eval-split", choices=["val", "test"], default="val",
                   help="the split scored during training (val: training voices, other utterances; test: held-out "
                        "voices, which the final scores also use)")
    p.add_argument("--eval-limit", type=int, default=0, help="transcribe at most this many rows per split (0: all)")
    p.add_argument("--spec-augment", action=argparse.BooleanOptionalAction, default=False,
                   help="time shift (keywords) and frequency / time masks on the training spectrograms (off: on "
                        "the full keyword set it slowed learning severalfold in the first 300 steps); asr: "
                        "data.audio_tasks.ASR_SPEC_AUGMENT")
    p.add_argument("--tokenizer", choices=["corpus", "whisper"], default="corpus",
                   help="asr: a BPE learned from the training transcripts, or openai-whisper's English one")
    p.add_argument("--text-vocab", type=int, default=512, help="asr, --tokenizer corpus: BPE text tokens")
    p.add_argument("--beam-size", type=int, default=None,
                   help="asr: score with beam search of this width (default: greedy), as openai-whisper's option")
    p.add_argument("--lm-weight", type=float, default=0.0,
                   help="asr scoring: shallow fusion of a token n-gram LM (zoo.generation.ngram) with this weight, "
                        "fitted on data.audio_tasks.lm_corpus less every held-out transcript (0: none)")
    p.add_argument("--lm-order", type=int, default=6, help="asr scoring: the n-gram LM's order")
    p.add_argument("--evaluate", metavar="MODEL",
                   help="asr: no training; score a saved model (model/ of an earlier run) or a training checkpoint "
                        "(its checkpoint.pt or checkpoint-<step>.pt, with the run's --model and --text-vocab) on "
                        "test, human and val")
    p.add_argument("--init", metavar="MODEL_DIR",
                   help="asr: start from this saved Whisper (ours or an HF directory) and its tokenizer")
    p.add_argument("--ctc-weight", type=float, default=0.3,
                   help="asr: weight of the auxiliary CTC loss on the encoder (0: cross-entropy alone)")
    add_training_arguments(p, steps=600, batch_size=32, lr=1e-3, warmup=60, weight_decay=0.05,
                           eval_every=100, eval_batches=0, save_every=200, out="runs/audio")
    args = p.parse_args(argv)
    if not 0.0 <= args.ctc_weight < 1.0 or args.lm_weight < 0 or args.lm_order < 1 or args.eval_limit < 0:
        raise SystemExit("expected --ctc-weight in [0, 1) (the decoder's share is 1 - w), --lm-weight >= 0, "
                         f"--lm-order >= 1 and --eval-limit >= 0; got {args.ctc_weight}, {args.lm_weight}, "
                         f"{args.lm_order} and {args.eval_limit}")
    args.data = Path(args.data or speech_dir(args.task))
    args.model = args.model or TASKS[args.task]
    if args.init and args.task != "asr":
        raise SystemExit(f"--init starts a speech recogniser from a saved Whisper: use it with --task asr "
                         f"(--task {args.task} trains a fresh {args.model})")
    family = zoo.model_info(args.model)["family"]
    if family != {"keywords": "ast", "asr": "whisper"}[args.task]:
        raise SystemExit(f"--model {args.model} is a {family} model; --task {args.task} trains "
                         f"{'an ast' if args.task == 'keywords' else 'a whisper'} model")
    return args


def _overrides(args) -> dict:
    return {"dropout": args.dropout} if args.dropout is not None else {}


def _stream(dataset, args, ctx, collate=None) -> BatchStream:
    extra = {"collate_fn": collate} if collate else {}
    return BatchStream(dataset, min(args.batch_size, len(dataset)), seed=args.seed, rank=ctx.rank,
                       world_size=ctx.world_size, **extra)


def run_keywords(args, rows: list[dict], ctx) -> dict:
    classes = keyword_classes(rows)
    model = zoo.create_model(args.model, **_overrides(args))
    model.reset_head(len(classes))
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

    result = train(model, _stream(sets["train"], args, ctx), classification_loss(args.label_smoothing),
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
              f"({_SPLIT_NAMES[split]}; {sets[split].dropped} rows "
              "of classes not trained dropped)")
    model.save_pretrained(out / "model")
    (out / "model" / "labels.json").write_text(json.dumps({"labels": classes, "features": "ast",
                                                          "max_length": frames}, indent=1) + "\n")
    return summary


def decoding_options(beam_size: int | None = None) -> dict:
    """zoo.transcribe's options for scoring: greedy (or beam search), no timestamps, one segment per clip, no
    fallbacks.

    suppress_blank is off: openai-whisper bans the bare space as the first token (in its GPT-2 vocabulary a
    transcript starts with " word" tokens), but every transcript here is " " + text, which a character
    vocabulary writes as the bare space first."""
    return dict(temperature=0.0, without_timestamps=True, condition_on_previous_text=False,
                compression_ratio_threshold=None, logprob_threshold=None, no_speech_threshold=None,
                suppress_blank=False, beam_size=beam_size)


def word_error_rate(model, rows: list[dict], root: Path, limit: int, beam_size: int | None = None,
                    fusion: ShallowFusion | None = None) -> tuple[float, list[dict]]:
    """Transcribe rows with zoo.transcribe (decoding_options, and the language model's fusion if any), score WER."""
    import jiwer

    rows = rows[:limit] if limit else rows
    results = zoo.transcribe(model, waveforms(rows, root), batch_size=16, shallow_fusion=fusion,
                             **decoding_options(beam_size))
    pairs = [{"audio": row["audio"], "voice": row["voice"], "reference": normalize_text(row["text"]),
              "hypothesis": normalize_text(result["text"])} for row, result in zip(rows, results)]
    return jiwer.wer([p["reference"] for p in pairs], [p["hypothesis"] or "<empty>" for p in pairs]), pairs


@torch.no_grad()
def ctc_word_error_rate(trained: WithCTC, dataset: SpeechSet, limit: int) -> float:
    """A diagnostic beside the decoder's WER: the CTC head's best path over the encoder (no decoder, no
    zoo.transcribe), so a gap between the two tells the acoustic model from the decoder."""
    import jiwer

    trained.eval()
    rows = dataset.rows[:limit] if limit else dataset.rows
    hypotheses = []
    for lo in range(0, len(rows), 32):
        mel = dataset.mels[lo: min(lo + 32, len(rows))]
        ids = trained.ctc.greedy(trained.ctc(trained.model.encode(mel)))
        hypotheses += [normalize_text(trained.model.tokenizer.decode(row)) or "<empty>" for row in ids]
    return jiwer.wer([normalize_text(row["text"]) for row in rows], hypotheses)


def asr_tokenizer(args, rows: list[dict]):
    if args.tokenizer == "whisper":
        return tokenizer_for_vocab(ENGLISH_VOCAB)
    return train_whisper_tokenizer([normalize_text(row["text"]) for row in select(rows, "train")], args.text_vocab)


def asr_model(args, rows: list[dict]):
    """(model, tokenizer): a fresh --model with a tokenizer for it, or --init's Whisper with the one it carries."""
    if not args.init:
        tokenizer = asr_tokenizer(args, rows)
        model = zoo.create_model(args.model, vocab_size=tokenizer.vocab_size, **_overrides(args))
        model.tokenizer = tokenizer  # zoo.transcribe uses it; save_pretrained stores it
        return model, tokenizer
    with loading(f"--init {args.init}"):
        model = zoo.load_directory(args.init)
    if not hasattr(model, "encode") or not hasattr(model, "decode"):
        raise SystemExit(f"--init {args.init}: a {type(model).__name__}, not a Whisper (encoder-decoder) model")
    try:
        model.tokenizer = default_tokenizer(model)
    except ValueError as error:
        raise SystemExit(f"--init {args.init}: {error}") from None
    return model, model.tokenizer


def run_asr(args, rows: list[dict], ctx) -> dict:
    model, tokenizer = asr_model(args, rows)
    window, n_mels, text_ctx = 2 * model.config.audio_ctx, model.config.n_mels, model.config.text_ctx
    augment = SpecAugment(**ASR_SPEC_AUGMENT) if args.spec_augment else None
    sets = {split: SpeechSet(select(rows, split), args.data, tokenizer, window, n_mels, text_ctx,
                             spec_augment=augment if split == "train" else None)
            for split in ("train", "val", "test", "human")}
    collate = sets["train"].collate
    if ctx.is_main:
        print(f"{args.init or args.model}: {sum(p.numel() for p in model.parameters()) / 1e6:.2f}M parameters, "
              f"{tokenizer}; "
              + ", ".join(f"{len(s)} {k} ({s.dropped} too long)" for k, s in sets.items()))

    trained = WithCTC(model) if args.ctc_weight > 0 else model  # the CTC head trains beside, is not saved
    loss_fn = asr_loss(args.ctc_weight, trained.ctc if args.ctc_weight > 0 else None)

    def eval_fn(m):  # the decoder's held-out cross-entropy, whatever the training mix (m: what is trained,
        # called as a whole, as FSDP's sharded root needs)
        return {"loss": held_out_loss(m, iterate_once(sets[args.eval_split], 64, collate), asr_loss())}

    result = train(trained, _stream(sets["train"], args, ctx, collate), loss_fn, train_config(args),
                   eval_fn=eval_fn if len(sets[args.eval_split]) else None)
    if not is_main_process():
        return {}
    with_ctc = result.model if isinstance(result.model, WithCTC) else None
    model = with_ctc.model if with_ctc is not None else result.model  # --fsdp: gathered whole
    summary = {"task": "asr", "model": args.init or args.model, "data": str(args.data), "steps": result.step,
               "train_loss": result.train_loss, "wall_s": result.wall_time,
               **score_asr(args, model, sets, with_ctc)}
    model.save_pretrained(Path(args.out) / "model")
    return summary


def score_asr(args, model, sets: dict[str, SpeechSet], with_ctc: WithCTC | None = None,
              transcripts: str = "transcripts.jsonl") -> dict:
    """WER on the test, human and val splits by zoo.transcribe (each pair in --out/transcripts), and the CTC
    head's best path where there is one. val (training voices, unseen sentences) beside test (unseen voices and
    sentences) tells the errors of new voices from those of new words."""
    model.eval()
    scores, fusion = {"beam_size": args.beam_size}, None
    if args.lm_weight:
        scored = [row["text"] for row in load_manifest(args.data) if row["split"] != "train"]  # all held out
        texts = [model.tokenizer.encode(" " + text) for text in lm_corpus(scored)]
        fusion = ShallowFusion(NgramLM.fit(texts, args.lm_order, model.tokenizer.eot, model.config.vocab_size),
                               args.lm_weight)
        scores.update(lm_weight=args.lm_weight, lm_order=args.lm_order, lm_sentences=len(texts))
    with open(Path(args.out) / transcripts, "w") as f:
        for split in ("test", "human", "val"):
            if not len(sets.get(split, ())):
                continue
            wer, pairs = word_error_rate(model, sets[split].rows, args.data, args.eval_limit, args.beam_size, fusion)
            for pair in pairs:
                f.write(json.dumps({"split": split, **pair}) + "\n")
            scores.update({f"{split}_wer": wer, f"{split}_rows": len(pairs)})
            if with_ctc is not None:
                wer_ctc = ctc_word_error_rate(with_ctc, sets[split], args.eval_limit)
                scores[f"{split}_ctc_wer"] = wer_ctc
                print(f"{split} CTC best-path WER {wer_ctc:.3f} (the encoder's CTC head alone, a diagnostic)")
            print(f"{split} WER {wer:.3f} on {len(pairs)} clips "
                  f"({_SPLIT_NAMES[split]}), e.g. "
                  f"{pairs[0]['reference']!r} -> {pairs[0]['hypothesis']!r}")
    return scores


def checkpoint_recogniser(args, rows: list[dict], path: Path) -> tuple[nn.Module, WithCTC | None]:
    """A fresh run's training checkpoint (checkpoint.pt or a kept checkpoint-<step>.pt) as (Whisper, WithCTC or
    None): --model and the tokenizer rebuilt from the training rows as the run built them (so pass the run's
    --model, --tokenizer and --text-vocab), the weights, and the CTC head when the run trained one."""
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # noqa: BLE001 - any unreadable file gets the same message
        raise SystemExit(f"--evaluate {path}: not a readable training checkpoint ({error})") from None
    if not isinstance(state, dict) or "model" not in state:
        raise SystemExit(f"--evaluate {path}: not a training checkpoint (expected the engine's checkpoint.pt, "
                         "with the model's weights under 'model')")
    model, _ = asr_model(args, rows)
    trained = WithCTC(model) if any(key.startswith("ctc.") for key in state["model"]) else model
    try:
        trained.load_state_dict(state["model"])
    except RuntimeError as error:
        raise SystemExit(f"--evaluate {path}: its weights do not fit --model {args.model} with this tokenizer "
                         f"({model.tokenizer}); pass the run's --model, --tokenizer, --text-vocab\n{error}") from None
    print(f"{path}: step {state.get('step')}")
    return model, trained if isinstance(trained, WithCTC) else None


def evaluate_asr(args, rows: list[dict]) -> dict:
    """--evaluate: a saved Whisper (with the tokenizer it was trained with), or a training checkpoint of a run
    (checkpoint_recogniser), scored as a run's end does, into --out/evaluation_<greedy|beamN>.json (for a
    checkpoint: evaluation_<its name>_<greedy|beamN>.json) and its transcripts beside it."""
    path, with_ctc = Path(args.evaluate), None
    if path.is_file():
        model, with_ctc = checkpoint_recogniser(args, rows, path)
    else:
        with loading(f"--evaluate {path}"):
            model = zoo.load_pretrained(path)
        if getattr(model, "tokenizer", None) is None:
            raise SystemExit(f"--evaluate {path}: the model has no tokenizer saved beside it")
    window, n_mels, text_ctx = 2 * model.config.audio_ctx, model.config.n_mels, model.config.text_ctx
    sets = {split: SpeechSet(select(rows, split), args.data, model.tokenizer, window, n_mels, text_ctx,
                             limit=args.eval_limit) for split in ("test", "human", "val")}  # the clips scored
    name = "_".join(["evaluation"] + ([path.stem] if path.is_file() else [])
                    + [f"beam{args.beam_size}" if args.beam_size else "greedy"]
                    + ([f"lm{args.lm_order}x{args.lm_weight:g}"] if args.lm_weight else []))
    summary = {"task": "asr", "evaluated": str(args.evaluate), "data": str(args.data),
               **score_asr(args, model, sets, with_ctc, transcripts=f"{name}_transcripts.jsonl")}
    (Path(args.out) / f"{name}.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def main(argv=None) -> dict:
    args = parse_args(argv)
    if args.evaluate:
        if args.task != "asr":
            raise SystemExit("--evaluate scores a speech recogniser: use it with --task asr")
        Path(args.out).mkdir(parents=True, exist_ok=True)  # a run's own summary and transcripts stay as they are
        return evaluate_asr(args, load_manifest(args.data))
    out, _, ctx = start_run(args)
    rows = load_manifest(args.data)
    summary = (run_keywords if args.task == "keywords" else run_asr)(args, rows, ctx)
    if summary:
        (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


if __name__ == "__main__":
    main()
