"""English-to-Spanish translation, text to text: ours against transformers and CTranslate2 on the same weights.

    result = run(TranslationBench(...))     # prints progress lines
    print(report(result, config))

The sentences: `translation_sentences` held-out verses, evenly spaced over the test split of the full corpus
(data/full/parallel/kjv-rv1909, scripts/get_data.sh bible-parallel: five books never trained on), or of the
shipped extract (data/corpus/parallel, 181 pairs) where the full corpus is missing, as the table then says. They
are sorted once by source length in tokens (shortest first, ties in corpus order) and cut into consecutive
batches, so that a batch holds sentences of about one length, as CTranslate2's own re-batching would make
them; every side gets the same batches.

The weights: a trained Marian (--translation-model, default runs/translation/en-es/model, the zoo
train-translation command's output), or with --quick a tiny random one (bench.translation_sides.tiny_random;
random weights never end a translation, so every one runs to the token cap: only the plumbing and the table
are checked). Saved once as a transformers directory, which every side reads.

Sides (bench.translation_sides): ours fp32, packed (zoo.pack_for_inference), bf16 weights packed and int8
packed (zoo.quantize's defaults);
transformers' MarianMTModel.generate fp32; CTranslate2's Translator fp32 and int8 (the same model only where
the <pad> word vector is zero: translation_sides says why, the table says whether it is). Each runs in a spawned
process of its own (translation_sides says why): first an untimed pass over every sentence at the largest
batch size (it also takes the process's one-time costs: tens of seconds on a first call were seen), whose
translations are scored (sacrebleu's BLEU and chrF against the references, and how many
differ from transformers' fp32 text: ours fp32 should differ in none), then `translation_repeats` timed passes
per batch size, the sides alternating in order and reverse order; medians, and ours' speed-up as the median
over passes paired in order (bench.timing.summarize).

Targets (the issue's): ours (the best of its variants) at least 1.5x transformers, and faster than CTranslate2
fp32, at each batch size.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
from contextlib import ExitStack
from functools import partial
from pathlib import Path

import torch

from bench.config import TranslationBench
from bench.machine import cpu_seconds, machine, others_share
from bench.report import machine_line, ratio_cell, table, target_verdict
from bench.timing import summarize
from bench.translation_sides import (
    BEAMS,
    LENGTH_PENALTY,
    OURS,
    QUICK_VERSES,
    QUICK_VOCAB,
    SIDES,
    Pass,
    prepare,
    run_pass,
    side,
)
from bench.workers import Worker
from data.marian_tokenizer import MarianSentencePiece
from data.parallel import PARALLEL_EXTRACT, PARALLEL_FULL, read_pairs

REFERENCES = ("transformers fp32", "CTranslate2 fp32", "CTranslate2 int8")
TARGETS = {"transformers fp32": 1.5, "CTranslate2 fp32": 1.0}  # ours (best variant) / reference at least


def add_arguments(p: argparse.ArgumentParser, full: dict, quick: dict) -> None:
    g = p.add_argument_group("translation benchmark (--only translation)")
    g.add_argument("--translation-model", help="a zoo or transformers Marian directory with its tokenizer, or "
                   f"'tiny': a tiny random Marian (default {full['translation_model']}; --quick: "
                   f"{quick['translation_model']})")
    g.add_argument("--translation-sentences", type=int, help="held-out verses to translate "
                   f"(default {full['translation_sentences']}; --quick: {quick['translation_sentences']})")
    g.add_argument("--translation-batches", nargs="+", type=int, help="sentences per call, each size timed "
                   f"(default {full['translation_batches']}; --quick: {quick['translation_batches']})")
    g.add_argument("--translation-max-tokens", type=int, help="max_new_tokens on every side "
                   f"(default {full['translation_max_tokens']}; --quick: {quick['translation_max_tokens']})")
    g.add_argument("--translation-repeats", type=int, help="timed passes per side and batch size "
                   f"(default {full['translation_repeats']}; --quick: {quick['translation_repeats']})")
    g.add_argument("--translation-sides", nargs="+", choices=SIDES, metavar="SIDE",
                   help=f"the sides to run, transformers fp32 among them (default all: {', '.join(SIDES)})")


# ----------------------------------------------------------------------------- the sentences


def held_out(count: int) -> tuple[list[tuple[str, str]], str]:
    """(`count` (English, Spanish) test pairs evenly spaced over the split, where they come from)."""
    full = (PARALLEL_FULL / "test.en").is_file()
    pairs = read_pairs(PARALLEL_FULL if full else PARALLEL_EXTRACT, "test")
    where = (f"the full corpus's test split (data/full/parallel/{PARALLEL_FULL.name})" if full else
             f"the shipped extract's test split ({PARALLEL_FULL} is missing: scripts/get_data.sh bible-parallel)")
    if count >= len(pairs):
        return pairs, where + ("" if count == len(pairs) else f", all {len(pairs)} of its pairs")
    return [pairs[i * len(pairs) // count] for i in range(count)], where


def by_length(pairs: list[tuple[str, str]], tokenizer: MarianSentencePiece) -> list[tuple[str, str]]:
    lengths = [len(ids) for ids in tokenizer.encode([source for source, _ in pairs])]
    return [pairs[i] for i in sorted(range(len(pairs)), key=lengths.__getitem__)]  # stable: ties in corpus order


# ----------------------------------------------------------------------------- measure


def scores(first: dict[str, Pass], references: list[str]) -> dict[str, dict]:
    """Each side's untimed pass: BLEU, chrF, translations unlike transformers' fp32 ones, output tokens."""
    import sacrebleu

    baseline = first["transformers fp32"].texts
    return {name: {"bleu": sacrebleu.corpus_bleu(p.texts, [references]).score,
                   "chrf": sacrebleu.corpus_chrf(p.texts, [references]).score,
                   "unlike_transformers": sum(a != b for a, b in zip(p.texts, baseline)), "tokens": p.tokens,
                   "first_pass_s": p.seconds} for name, p in first.items()}


def timed(workers: dict[str, Worker], batches: dict[int, list[list[str]]], repeats: int) -> tuple[dict, dict]:
    """({batch: {side: seconds per pass}}, {batch: {side: output tokens}}): the sides (the workers' keys) alternate,
    forward on even passes and backward on odd ones."""
    sides = list(workers)
    times = {size: {name: [] for name in sides} for size in batches}
    tokens: dict[int, dict[str, int]] = {size: {} for size in batches}
    for r in range(repeats):
        for size, chunks in batches.items():
            for name in sides if r % 2 == 0 else sides[::-1]:
                done = run_pass(workers[name], chunks)
                times[size][name].append(done.seconds)
                tokens[size][name] = done.tokens
            print(f"  translation pass {r + 1}, batch {size}: " + ", ".join(
                f"{name} {times[size][name][-1]:.2f} s" for name in sides), flush=True)
    return times, tokens


def chosen_sides(config: TranslationBench) -> tuple[list[str], list[str], list[str]]:
    """(the sides to run in SIDES' order, ours among them, the references among them); transformers fp32 is the
    one every translation is compared with, so it always runs."""
    sides = [name for name in SIDES if name in (config.translation_sides or SIDES) or name == "transformers fp32"]
    return sides, [name for name in OURS if name in sides], [name for name in REFERENCES if name in sides]


def run(config: TranslationBench) -> dict:
    start_cpu = cpu_seconds()
    sides, ours, references = chosen_sides(config)
    pairs, where = held_out(config.translation_sentences)
    threads = torch.get_num_threads()
    with tempfile.TemporaryDirectory(prefix="zoo-bench-translation-") as tmp:
        weights = prepare(config, Path(tmp))
        pairs = by_length(pairs, MarianSentencePiece.from_directory(weights.transformers))
        sources, n = [source for source, _ in pairs], len(pairs)
        batches = {size: [sources[i:i + size] for i in range(0, n, size)] for size in config.translation_batches}
        with ExitStack() as stack:
            workers = {name: stack.enter_context(Worker(partial(side, name, weights, config), threads))
                       for name in sides}
            first = {name: run_pass(workers[name], batches[max(batches)]) for name in sides}
            print("  translation untimed pass: " + ", ".join(f"{k} {p.seconds:.2f} s" for k, p in first.items()),
                  flush=True)
            times, tokens = timed(workers, batches, config.translation_repeats)
    speed = {size: {name: {"median_s": statistics.median(t), "sentences_s": n / statistics.median(t),
                           "tokens_s": tokens[size][name] / statistics.median(t)} for name, t in by_side.items()}
             for size, by_side in times.items()}
    ratios = {size: {f"{o}|{ref}": summarize(times[size], n, ours=o, ref=ref) for o in ours for ref in references}
              for size in times}
    return {"model": config.translation_model, "parameters": weights.parameters, "vocab_size": weights.vocab_size,
            "pad_row_norm": weights.pad_row_norm,
            "sentences": n, "source": where, "scores": scores(first, [target for _, target in pairs]),
            "translations": {name: p.texts for name, p in first.items()}, "speed": speed, "times": times,
            "ratios": ratios, "ours": ours, "references": references, "machine": machine(),
            "others_cpu_share": others_share(start_cpu)}


# ----------------------------------------------------------------------------- report


def score_rows(result: dict) -> list[list]:
    return [[name, f"{s['bleu']:.1f}", f"{s['chrf']:.1f}", s["unlike_transformers"], s["tokens"]]
            for name, s in result["scores"].items()]


def speed_rows(result: dict) -> list[list]:
    rows = []
    for size, by_side in result["speed"].items():
        for name, s in by_side.items():
            versus = [ratio_cell(result["ratios"][size][f"{name}|{ref}"], digits=2, bold=False)
                      if name in result["ours"] else "-" for ref in result["references"]]
            rows.append([name, size, f"{s['median_s']:.2f}", f"{s['sentences_s']:.2f}", f"{s['tokens_s']:.1f}",
                         *versus])
    return rows


def target_rows(result: dict) -> list[list]:
    rows = []
    for size, ratios in result["ratios"].items():
        for ref, target in TARGETS.items():
            if ref not in result["references"] or not result["ours"]:
                continue
            best = max(result["ours"], key=lambda o: ratios[f"{o}|{ref}"]["ratio"])
            r = ratios[f"{best}|{ref}"]
            rows.append([size, best, ref, f"**{ratio_cell(r, digits=2, bold=False)}**",
                         *target_verdict(r["ratio"], target)])
    return rows


def report(result: dict, config: TranslationBench) -> str:
    if result["model"] == "tiny":
        weights = (f"a tiny random Marian (marian_tiny, {result['parameters'] / 1e6:.2f}M parameters, a "
                   f"{QUICK_VOCAB}-piece vocabulary trained on {QUICK_VERSES} verses of the shipped extract; every "
                   "translation runs to the token cap: the scores mean nothing, the plumbing is what runs)")
    else:
        weights = (f"the trained Marian {result['model']} ({result['parameters'] / 1e6:.1f}M parameters, "
                   f"{result['vocab_size']} pieces)")
    head = (f"\n### Translation, English to Spanish: {result['sentences']} held-out verses of {result['source']}, "
            f"{weights}; beam {BEAMS}, length penalty {LENGTH_PENALTY}, at most {config.translation_max_tokens} "
            "new tokens; sentences sorted by source length once and cut into the same batches for every side; "
            "each side in a spawned process of its own: an untimed pass at batch "
            f"{max(config.translation_batches)} (its translations scored), then {config.translation_repeats} "
            "timed passes per batch size, the sides alternating; medians; speed-up = the reference's time / "
            "ours, median over passes paired in order (IQR)\n")
    n = result["sentences"]
    quality = table(["side", "BLEU", "chrF", f"translations unlike transformers fp32's (of {n})", "output tokens"],
                    score_rows(result))
    speed = table(["side", "batch", "s", "sentences/s", "tokens/s",
                   *(f"speed-up vs {r} (IQR)" for r in result["references"])], speed_rows(result))
    targets = table(["batch", "ours (best variant)", "reference", "ours/ref (IQR)", "target", "met"],
                    target_rows(result))
    pad = result["pad_row_norm"]
    start = ("zero in this model: every side runs the same model" if pad == 0 else
             f"not zero in this model (norm {pad:.3g}): CTranslate2's first decoder input differs from the others', "
             "so its translations are another model's")
    note = ("Tokens: each side's output pieces, EOS not counted. CTranslate2 stops one token before the cap where "
            "ours and transformers write their forced EOS. It starts the decoder from a zero vector (Marian's "
            f"convention) where ours and transformers embed <pad>; that row is {start}.")
    return "\n".join([head, quality, "", speed, "", targets, "", note,
                      machine_line(result["machine"], result["others_cpu_share"])])
