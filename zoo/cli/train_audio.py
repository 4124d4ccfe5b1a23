"""Train an audio model on the shared engine, from scratch, on a speech manifest (data/speech.py's format).

    zoo train-audio --task keywords --out runs/keywords          # AST keyword spotting
    zoo train-audio --task asr --out runs/asr                    # Whisper speech recognition
    zoo train-audio --task asr --data data/full/speech/asr ...   # the full set (`make data`)
    torchrun --nproc_per_node 2 scripts/train_audio.py ...       # the same command, DDP

Each task is its own library module: zoo/training/keywords.py and zoo/training/speech_recognition.py; this one
parses the options and picks the task.

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

--lora R trains rank-R adapters over the frozen model instead (zoo/training/lora.py), with keywords' head and asr's
CTC head in full: checkpoints hold them alone, and model/ holds them in peft's format beside lora_base.json, which
names the base (base/ inside it for a fresh preset); zoo.training.lora.load_trained loads it back.

    zoo train-audio --task asr --evaluate runs/asr/model --beam-size 5 --out runs/asr  # rescore
    zoo train-audio --task asr --init runs/asr/model --out runs/asr2 --lr 3e-4         # fine-tune

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

import zoo
from data.speech import load_manifest, speech_dir
from zoo.cli.common import UsageError, parser
from zoo.training.cli import add_training_arguments, start_run
from zoo.training.keywords import run_keywords
from zoo.training.speech_recognition import evaluate_asr, run_asr

TASKS = {"keywords": "ast_tiny", "asr": "whisper_micro"}


def parse_args(argv=None) :
    p = parser(__doc__)
    p.add_argument("--task", choices=sorted(TASKS), required=True)
    p.add_argument("--data", help="a folder with manifest.jsonl (default: the full set if built, else the shipped one)")
    p.add_argument("--model", help=f"registered preset (default: {TASKS})")
    p.add_argument("--eval-split", choices=["val", "test"], default="val",
                   help="the split scored during training (val: training voices, other utterances; test: held-out "
                        "voices, which the final scores also use)")
    p.add_argument("--eval-limit", type=int, default=0, help="transcribe at most this many rows per split (0: all)")
    p.add_argument("--eval-splits", nargs="+", choices=("test", "human", "val"), default=["test", "human", "val"],
                   help="asr --evaluate: the splits scored")
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
    p.add_argument("--init", metavar="MODEL",
                   help="asr: fine-tune this Whisper (our or an HF directory, a CTranslate2 / faster-whisper one, an "
                        "openai-whisper .pt) with its tokenizer; writes model/ and, as transformers' directory, "
                        "model-hf/")
    p.add_argument("--ctc-weight", type=float, default=0.3,
                   help="asr: weight of the auxiliary CTC loss on the encoder (0: cross-entropy alone)")
    add_training_arguments(p, steps=600, batch_size=32, lr=1e-3, warmup=60, weight_decay=0.05,
                           eval_every=100, eval_batches=0, save_every=200, out="runs/audio")
    args = p.parse_args(argv)
    if not 0.0 <= args.ctc_weight < 1.0 or args.lm_weight < 0 or args.lm_order < 1 or args.eval_limit < 0:
        raise SystemExit("expected --ctc-weight in [0, 1) (the decoder's share is 1 - w), --lm-weight >= 0, "
                         f"--lm-order >= 1 and --eval-limit >= 0; got {args.ctc_weight}, {args.lm_weight}, "
                         f"{args.lm_order} and {args.eval_limit}")
    if args.task == "asr" and args.label_smoothing:
        raise UsageError(f"--label-smoothing {args.label_smoothing}: --task asr has none (its targets are "
                         "transcripts); expected it with --task keywords only")
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


def main(argv=None) -> dict:
    """Train (or with --evaluate, score) the task; returns its summary (written to --out/summary.json)."""
    args = parse_args(argv)
    if args.evaluate:
        if args.task != "asr":
            raise SystemExit("--evaluate scores a speech recogniser: use it with --task asr")
        Path(args.out).mkdir(parents=True, exist_ok=True)  # a run's own summary and transcripts stay as they are
        return evaluate_asr(args, load_manifest(args.data))
    with start_run(args) as (out, _, ctx):
        rows = load_manifest(args.data)
        summary = (run_keywords if args.task == "keywords" else run_asr)(args, rows, ctx)
        if summary:
            (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
        return summary
