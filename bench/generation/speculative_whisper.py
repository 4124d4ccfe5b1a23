"""Speculative decoding (greedy) for Whisper: a whisper_micro draft (2 + 2 layers x 128) and a target with the
same window and a deeper, wider decoder (config.spec_whisper_target), both trained on the speech set
(data.speech.speech_dir: the full one where `make data` built it, else the shipped one) by
scripts/train_audio.py with ONE tokenizer, learned here from the training transcripts and carried by both
models (--init). Each held-out clip ("test": voices not trained on) is one prompt: Whisper's start of
transcript without timestamps, then greedy tokens to end of text; a timed call encodes the clip (the target's
encoder, and the draft's for speculative decoding) and decodes through zoo.generate on the decoders bound to
the audio (EncoderConditioned), the path zoo.generate's draft_model takes for encoder-decoders. openai-whisper's
logit rules (zoo.transcribe) are not applied: transcribe takes no draft."""
from __future__ import annotations

import json
from pathlib import Path

import torch

import zoo
from bench.config import GenerationBench
from bench.generation.speculative_measure import SCRIPTS, k_table, measure, parse_overrides, train_script
from bench.report import BenchmarkError
from data.audio_tasks import SpeechSet, normalize_text, select
from data.speech import load_manifest, speech_dir
from data.whisper_vocab import train_whisper_tokenizer
from zoo.generation import EncoderConditioned

TRAIN_AUDIO = SCRIPTS / "train_audio.py"
DRAFT = "whisper_micro"
WINDOW = "audio_ctx=300"  # 6 s windows for draft and target: the clips here last 1-4 s (whisper_mini_6s's reason)
CHARACTERS = 256  # text tokens: the byte alphabet alone, i.e. characters, as the best ASR recipe (--text-vocab 256)


def train_models(config: GenerationBench, work: Path, data: Path, rows: list[dict]):
    """The draft and the target ({DRAFT} with WINDOW, the target also with config.spec_whisper_target), from
    initial models that carry one tokenizer, trained into `work`; reused if present there."""
    def common(steps: int) -> list[str]:
        return ["--task", "asr", "--data", str(data), "--steps", str(steps), "--batch-size", "16",
                "--warmup", str(max(1, min(60, steps // 5))), "--eval-every", "0", "--save-every", "0",
                "--eval-limit", str(config.spec_prompts), "--dtype", config.spec_train_dtype, "--no-progress"]

    tokenizer = train_whisper_tokenizer([normalize_text(r["text"]) for r in select(rows, "train")], CHARACTERS)
    overrides = {"draft": parse_overrides(WINDOW),
                 "target": {**parse_overrides(WINDOW), **parse_overrides(config.spec_whisper_target)}}
    steps = dict(zip(("target", "draft"), config.spec_whisper_steps))
    wall = {}
    for name in ("draft", "target"):
        if (work / name / "model" / "config.json").exists():
            continue
        init = zoo.create_model(DRAFT, vocab_size=tokenizer.vocab_size, **overrides[name])
        init.tokenizer = tokenizer  # save_pretrained stores it; train_audio --init takes it
        init.save_pretrained(work / f"{name}_init")
        wall[name] = train_script(["--init", str(work / f"{name}_init"), "--out", str(work / name),
                                   *common(steps[name])], TRAIN_AUDIO)
    summaries = {k: json.loads((work / k / "summary.json").read_text()) for k in ("draft", "target")}
    models = {k: zoo.load_pretrained(work / k / "model").eval() for k in ("draft", "target")}
    if models["draft"].tokenizer.encode(" and it was so") != models["target"].tokenizer.encode(" and it was so"):
        raise BenchmarkError(f"speculative whisper: the draft and target in {work} were trained with different "
                             f"tokenizers; delete the folder to train both again")
    return models, summaries, wall


def run(config: GenerationBench, work: Path, family: str = "whisper") -> dict:
    data = speech_dir("asr")
    rows = load_manifest(data)
    models, summaries, wall = train_models(config, work, data, rows)
    target, draft = models["target"], models["draft"]
    tokenizer = target.tokenizer
    clips = SpeechSet(select(rows, "test")[:config.spec_prompts], data, tokenizer, 2 * target.config.audio_ctx,
                      target.config.n_mels, target.config.text_ctx)
    if len(clips) == 0:
        raise BenchmarkError(f"speculative whisper: no test clip of {data} fits a {target.config.audio_ctx * 2 // 100} "
                             f"s window")

    def bound(model, mel):  # the decoder bound to the clip's audio, encoded now
        return lambda: EncoderConditioned(model, model.encode(mel[None]))

    cases = [(bound(target, clips.mels[i]), bound(draft, clips.mels[i]),
              torch.tensor([clips.tokens[i][:clips.prompt_lengths[i]]])) for i in range(len(clips))]
    n = min(config.spec_new_tokens, target.config.text_ctx - max(clips.prompt_lengths))  # the decoder's positions
    measured = measure(config, cases, n, eos_id=tokenizer.eot)
    reference = measured.pop("reference")
    start = clips.prompt_lengths[0]
    result = {"family": family, "work_dir": str(work), "data": str(data.relative_to(SCRIPTS.parent)),
              "summaries": summaries,
              "train_wall_s": wall, **measured, "train_steps": config.spec_whisper_steps[0],
              "draft_steps": config.spec_whisper_steps[1], "target_overrides": config.spec_whisper_target,
              "sample": tokenizer.decode([t for t in reference[0][0, start:].tolist() if t < tokenizer.eot]),
              "sample_reference": normalize_text(clips.rows[0]["text"]),
              "params_m": {k: sum(p.numel() for p in m.parameters()) / 1e6 for k, m in models.items()}}
    print(f"  speculative whisper: plain {result['plain_tok_s']:.1f} tok/s, best k speed-up "
          f"{max(r['speedup'] for r in result['rows']):.2f}x", flush=True)
    return result


def report(s: dict) -> str:
    d, t, run = s["summaries"]["draft"], s["summaries"]["target"], s["settings"]
    return "\n".join([
        f"\n### Speculative decoding (greedy), whisper: target {s['params_m']['target']:.1f}M params ({DRAFT} "
        f"{WINDOW},{s['target_overrides']}) with draft {DRAFT} {WINDOW} {s['params_m']['draft']:.1f}M, trained "
        f"{s['train_steps']} and {s['draft_steps']} steps ({run['dtype']}, batch 16) on "
        f"`{s['data']}`, one character tokenizer; {s['prompts']} held-out-voice clips, greedy to end of text (at most "
        f"{s['new_tokens']} tokens: {s['tokens']} in all), batch 1; each call encodes its clip; "
        f"{run['repeats']} interleaved runs, medians\n",
        f"Word error rate (zoo.transcribe, first {run['prompts']} test clips): target {t['test_wer']:.3f}, "
        f"draft {d['test_wer']:.3f}. Plain greedy: target {s['plain_tok_s']:.1f} tok/s, draft alone "
        f"{s['draft_tok_s']:.1f} tok/s. Speculative outputs identical to plain greedy (asserted; timed through "
        "generate(draft_model=) on the decoders bound to the audio, without openai-whisper's logit rules).\n",
        k_table(s), f"\nSample (target greedy, first clip): {s['sample'][:240]!r} (said: {s['sample_reference']!r})"])
