#!/usr/bin/env python
"""Where a recogniser's word errors come from: the transcripts scripts/train_audio.py wrote (transcripts.jsonl,
or an evaluation_*_transcripts.jsonl of --evaluate), split by split, by voice timbre, and by whether the
training transcripts hold the word.

    python scripts/asr_errors.py runs/asr/transcripts.jsonl --data data/full/speech_corpus/asr
    python scripts/asr_errors.py runs/asr/transcripts.jsonl --data ... --json runs/asr/errors.json

Per split: WER (jiwer, as train_audio.py scores it), then the reference words the training transcripts
hold ("seen") and those they do not ("unseen"): each kind's share of the words and its error rate
(substituted or deleted, by jiwer's alignment; insertions belong to no reference word and are counted apart).
A recogniser that spells only the words it was trained on cannot score a WER under the unseen share times
its unseen error rate. Per timbre (the unit the speech sets hold out, data.speech_synth): the test split's
WER for each held-out voice family, worst first.
"""
from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import jiwer

from data.audio_tasks import normalize_text, select
from data.speech import load_manifest
from data.speech_synth import parse_voice


def timbre(voice: str) -> str:
    """"espeak:en-us+m3:s150:p60" -> "espeak:m"; a voice id that is not a synthetic one (human) as it is."""
    try:
        return parse_voice(voice).speaker.timbre
    except ValueError:
        return voice


def word_errors(pairs: list[dict], vocabulary: set[str]) -> dict:
    """WER of the pairs, and the reference words split by whether `vocabulary` holds them: count and errors."""
    references = [p["reference"] or "<empty>" for p in pairs]
    hypotheses = [p["hypothesis"] or "<empty>" for p in pairs]
    out = jiwer.process_words(references, hypotheses)
    kinds = {"seen": [0, 0], "unseen": [0, 0]}  # words, errors
    for words, chunks in zip(out.references, out.alignments):
        wrong = [False] * len(words)
        for chunk in chunks:
            if chunk.type in ("substitute", "delete"):
                wrong[chunk.ref_start_idx:chunk.ref_end_idx] = [True] * (chunk.ref_end_idx - chunk.ref_start_idx)
        for word, error in zip(words, wrong):
            kind = kinds["seen" if word in vocabulary else "unseen"]
            kind[0] += 1
            kind[1] += error
    total = sum(n for n, _ in kinds.values())
    result = {"clips": len(pairs), "words": total, "wer": out.wer, "insertions": out.insertions}
    for name, (n, errors) in kinds.items():
        result[f"{name}_share"] = n / total if total else 0.0
        result[f"{name}_error_rate"] = errors / n if n else 0.0
    return result


def analyse(transcripts: list[dict], train_rows: list[dict]) -> dict:
    vocabulary = {word for row in train_rows for word in normalize_text(row["text"]).split()}
    by_split: dict[str, list[dict]] = defaultdict(list)
    for pair in transcripts:
        by_split[pair["split"]].append(pair)
    report = {"training_words": len(vocabulary),
              "splits": {split: word_errors(pairs, vocabulary) for split, pairs in by_split.items()}}
    by_timbre: dict[str, list[dict]] = defaultdict(list)
    for pair in by_split.get("test", []):
        by_timbre[timbre(pair["voice"])].append(pair)
    report["test_timbres"] = dict(sorted(((name, {"clips": len(pairs), "wer": word_errors(pairs, vocabulary)["wer"]})
                                          for name, pairs in by_timbre.items()), key=lambda kv: -kv[1]["wer"]))
    return report


def markdown(report: dict) -> str:
    lines = [f"Training transcripts: {report['training_words']} distinct words.", "",
             "| split | clips | WER | words seen in training | their error rate | unseen words | their error rate "
             "| insertions |", "|---|---|---|---|---|---|---|---|"]
    for split, r in report["splits"].items():
        lines.append(f"| {split} | {r['clips']} | **{r['wer']:.3f}** | {r['seen_share']:.1%} "
                     f"| {r['seen_error_rate']:.3f} | {r['unseen_share']:.1%} | {r['unseen_error_rate']:.3f} "
                     f"| {r['insertions']} |")
    if report["test_timbres"]:
        lines += ["", "| held-out timbre (test) | clips | WER |", "|---|---|---|"]
        lines += [f"| {name} | {r['clips']} | {r['wer']:.3f} |" for name, r in report["test_timbres"].items()]
    return "\n".join(lines)


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("transcripts", type=Path, help="a transcripts.jsonl of scripts/train_audio.py")
    p.add_argument("--data", type=Path, required=True, help="the speech set the model was trained on (manifest.jsonl)")
    p.add_argument("--json", type=Path, help="also write the report here")
    args = p.parse_args(argv)
    if not args.transcripts.is_file():
        raise SystemExit(f"{args.transcripts}: no such file (expected a transcripts.jsonl of scripts/train_audio.py)")
    transcripts = [json.loads(line) for line in args.transcripts.read_text().splitlines() if line.strip()]
    missing = {"split", "voice", "reference", "hypothesis"} - set(transcripts[0] if transcripts else {})
    if not transcripts or missing:
        raise SystemExit(f"{args.transcripts}: expected rows with split, voice, reference and hypothesis "
                         f"(scripts/train_audio.py's transcripts), missing {sorted(missing) or 'every row'}")
    report = analyse(transcripts, select(load_manifest(args.data), "train"))
    print(markdown(report))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return report


if __name__ == "__main__":
    main()
