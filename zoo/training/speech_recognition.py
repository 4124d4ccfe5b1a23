"""Speech recognition: a small Whisper learns the transcripts of a speech manifest (`zoo train-audio --task asr`),
with a byte-level BPE learned from the training transcripts or openai-whisper's English vocabulary, and an
optional CTC head on the encoder (zoo.training.asr). Scored by transcribing test (held-out voices), human and val
(training voices, unseen sentences) with zoo.transcribe (greedy or beam search, optionally fused with a token
n-gram LM), then the word error rate by jiwer on normalised text; `evaluate_asr` rescores a saved model or a
training checkpoint without training."""
from __future__ import annotations

import json
from pathlib import Path

import torch
from torch import nn

import zoo
from data.audio_tasks import ASR_SPEC_AUGMENT, SpecAugment, SpeechSet, lm_corpus, normalize_text, select, waveforms
from data.loader import iterate_once
from data.speech import load_manifest
from data.whisper_vocab import train_whisper_tokenizer
from zoo.convert.hf_whisper import save_transformers
from zoo.generation.ngram import NgramLM, ShallowFusion
from zoo.generation.whisper_decode import default_tokenizer, tokenizer_for_vocab
from zoo.io import CheckpointError, load_torch_checkpoint, loading
from zoo.training import is_main_process, train
from zoo.training.asr import WithCTC, asr_loss
from zoo.training.cli import exportable, train_config, with_lora
from zoo.training.lora import load_trained, save_model
from zoo.training.speech_runs import SPLIT_NAMES, batch_stream, model_overrides
from zoo.training.tasks import held_out_loss

ENGLISH_VOCAB = 51864  # openai-whisper's English-only tokenizer (gpt2 + specials + timestamps)


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
    """(model, tokenizer): a fresh --model with a tokenizer for it, or --init's Whisper (our, a LoRA run's (merged)
    or an HF directory, a CTranslate2 / faster-whisper one, an openai-whisper .pt) with the tokenizer and special
    tokens it carries."""
    if not args.init:
        tokenizer = asr_tokenizer(args, rows)
        model = zoo.create_model(args.model, vocab_size=tokenizer.vocab_size, **model_overrides(args))
        model.tokenizer = tokenizer  # zoo.transcribe uses it; save_pretrained stores it
        return model, tokenizer
    with loading(f"--init {args.init}"):
        init = Path(args.init)
        model = zoo.from_whisper(init) if init.is_file() and init.suffix == ".pt" else load_trained(init, merge=True)
    if not hasattr(model, "encode") or not hasattr(model, "decode"):
        raise SystemExit(f"--init {args.init}: a {type(model).__name__}, not a Whisper (encoder-decoder) model")
    try:
        model.tokenizer = default_tokenizer(model)
    except ValueError as error:
        raise SystemExit(f"--init {args.init}: {error}") from None
    return model, model.tokenizer


def run_asr(args, rows: list[dict], ctx) -> dict:
    """Train a fresh --model (or --init's Whisper) on the manifest's training rows, with the CTC head beside it
    when --ctc-weight > 0, score it (score_asr) and save model/ in --out; the summary (rank 0; {} on the others)."""
    model, tokenizer = asr_model(args, rows)
    # --lora: an --init directory is the base; a fresh model or an openai-whisper file is written as one
    model = with_lora(args, model, args.out, base=args.init if args.init and Path(args.init).is_dir() else None)
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

    result = train(trained, batch_stream(sets["train"], args, ctx, collate), loss_fn, train_config(args),
                   eval_fn=eval_fn if len(sets[args.eval_split]) else None)
    if not is_main_process():
        return {}
    with_ctc = result.model if isinstance(result.model, WithCTC) else None
    model = with_ctc.model if with_ctc is not None else result.model  # --fsdp: gathered whole
    summary = {"task": "asr", "model": args.init or args.model, "data": str(args.data), "steps": result.step,
               "train_loss": result.train_loss, "wall_s": result.wall_time,
               **score_asr(args, model, sets, with_ctc)}
    save_model(model, Path(args.out) / "model")
    if args.init and (plain := exportable(args, model, "model-hf")) is not None:
        save_transformers(plain, Path(args.out) / "model-hf")  # a fine-tuned checkpoint, for the tools people use
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
                  f"({SPLIT_NAMES[split]}), e.g. "
                  f"{pairs[0]['reference']!r} -> {pairs[0]['hypothesis']!r}")
    return scores


def checkpoint_recogniser(args, rows: list[dict], path: Path) -> tuple[nn.Module, WithCTC | None]:
    """A fresh run's training checkpoint (checkpoint.pt or a kept checkpoint-<step>.pt) as (Whisper, WithCTC or
    None): --model and the tokenizer rebuilt from the training rows as the run built them (so pass the run's
    --model, --tokenizer and --text-vocab), the weights, and the CTC head when the run trained one."""
    try:
        state = load_torch_checkpoint(path)
    except (CheckpointError, FileNotFoundError) as error:  # missing, damaged, or a pickle that would run code
        raise SystemExit(f"--evaluate {path}: not a readable training checkpoint: {error}") from None
    if not isinstance(state, dict) or "model" not in state:
        raise SystemExit(f"--evaluate {path}: not a training checkpoint (expected the engine's checkpoint.pt, "
                         "with the model's weights under 'model')")
    if "lora_base" in state:
        raise SystemExit(f"--evaluate {path}: a LoRA run's checkpoint holds its adapters only; evaluate the run's "
                         "model/ (the adapter over its base)")
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
    """--evaluate: a saved Whisper (our, an HF or a CTranslate2 directory, with its tokenizer), or a training
    checkpoint of a run
    (checkpoint_recogniser), scored as a run's end does, into --out/evaluation_<greedy|beamN>.json (for a
    checkpoint: evaluation_<its name>_<greedy|beamN>.json) and its transcripts beside it."""
    path, with_ctc = Path(args.evaluate), None
    if path.is_file():
        model, with_ctc = checkpoint_recogniser(args, rows, path)
    else:
        with loading(f"--evaluate {path}"):
            model = load_trained(path)  # ours (a LoRA run's too), an HF or a CTranslate2 directory
        if getattr(model, "tokenizer", None) is None:
            try:
                model.tokenizer = default_tokenizer(model)  # an HF directory without tokenizer.json
            except ValueError as error:
                raise SystemExit(f"--evaluate {path}: the model has no tokenizer saved beside it ({error})") from None
    window, n_mels, text_ctx = 2 * model.config.audio_ctx, model.config.n_mels, model.config.text_ctx
    sets = {split: SpeechSet(select(rows, split), args.data, model.tokenizer, window, n_mels, text_ctx,
                             limit=args.eval_limit) for split in args.eval_splits}  # the clips scored
    name = "_".join(["evaluation"] + ([path.stem] if path.is_file() else [])
                    + [f"beam{args.beam_size}" if args.beam_size else "greedy"]
                    + ([f"lm{args.lm_order}x{args.lm_weight:g}"] if args.lm_weight else []))
    summary = {"task": "asr", "evaluated": str(args.evaluate), "data": str(args.data),
               **score_asr(args, model, sets, with_ctc, transcripts=f"{name}_transcripts.jsonl")}
    (Path(args.out) / f"{name}.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary
