"""How far int8 and int4 weights move real outputs from fp32, and what they save: the quantisation issue's accuracy
and memory targets, each measured on what it names.

    perplexity  gpt_tiny trained here on the KJV extract (bench.learning's recipe): held-out perplexity in fp32,
                int8 and int4
    embeddings  the real all-MiniLM-L6-v2: sentence embeddings of data/corpus/sentences.txt, int8 against fp32
    wer         the real Whisper base: zoo.transcribe of the Asterisk human recordings, int8 against fp32
    memory      llama_135m: weight bytes, and peak RSS of a process that builds the model and decodes 16 tokens

zoo.quantize's defaults throughout (int8 activations per row). A part whose data or weights are missing here says
so instead of a figure.
"""
from __future__ import annotations

import copy
import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

import torch

import zoo
from bench.report import table, yes_no
from data.lm_dataset import tokenize_to_file, train_val_split
from data.loader import BatchStream, iterate_once
from data.text import KJV_EXTRACT
from data.tokenization import train_bpe
from zoo.training import TrainConfig, train
from zoo.training.tasks import causal_lm_loss, held_out_loss

SCHEMES = ("int8", "int4")
SENTENCES = Path(__file__).resolve().parents[1] / "data" / "corpus" / "sentences.txt"


def perplexity(steps: int) -> dict:
    """Held-out perplexity of gpt_tiny trained `steps` steps, in fp32 and each scheme."""
    work = Path(tempfile.mkdtemp(prefix="bench_quantized_"))
    tokenizer = train_bpe(str(KJV_EXTRACT), vocab_size=4096)
    tokenize_to_file(str(KJV_EXTRACT), tokenizer, work / "tokens.bin")
    train_set, val_set = train_val_split(work / "tokens.bin", 128, val_fraction=0.1)
    torch.manual_seed(0)
    model = zoo.create_model("gpt_tiny", vocab_size=tokenizer.vocab_size)
    train(model, BatchStream(train_set, 16, seed=0), causal_lm_loss,
          TrainConfig(steps=steps, lr=3e-3, warmup_steps=steps // 10, eval_every=0, save_every=0, out=str(work),
                      seed=0, progress=False))
    model.eval()
    variants = {"fp32": model, **{s: zoo.quantize(copy.deepcopy(model), s) for s in SCHEMES}}
    with torch.no_grad():
        ppl = {name: math.exp(held_out_loss(m, iterate_once(val_set, 32), causal_lm_loss))
               for name, m in variants.items()}
    return {"steps": steps, "ppl": ppl}


def embeddings() -> dict:
    """Cosine of each int8 sentence embedding to its fp32 one (all-MiniLM-L6-v2)."""
    from zoo.real_weights import all_minilm_l6_v2
    from zoo.sentence_embedding import embed, load_sentence_model

    try:
        directory = all_minilm_l6_v2()
    except (ImportError, FileNotFoundError) as error:
        return {"skipped": f"all-MiniLM-L6-v2 is not installed here ({error})"}
    model, tokenizer, max_length = load_sentence_model(directory)
    sentences = [line for line in SENTENCES.read_text(encoding="utf-8").splitlines() if line.strip()]
    result = {"sentences": len(sentences)}
    with torch.no_grad():
        full = embed(model, tokenizer, sentences, max_length=max_length)
        for activations in ("int8", "float"):
            int8 = zoo.quantize(copy.deepcopy(model), "int8", activations=activations)
            cosine = (full * embed(int8, tokenizer, sentences, max_length=max_length)).sum(-1)  # both normalised
            result[activations] = {"min": float(cosine.min()), "mean": float(cosine.mean())}
    return result


def wer(limit: int | None) -> dict:
    """WER of the real Whisper base on the first `limit` Asterisk sentence prompts (None: all 381 that have a
    recording), fp32 and int8 (greedy, no timestamps: zoo.training.speech_recognition's decoding). A 0.5-point
    bound needs them all: the first 60 hold 409 words, so one error there moves the score by 0.24 points; all 381
    hold ~1,720."""
    import jiwer

    from data import speech_asterisk as asterisk
    from data.audio_tasks import normalize_text
    from zoo.real_weights import whisper_base_ct2
    from zoo.training.speech_recognition import decoding_options

    if not (asterisk.ASTERISK_DIR / asterisk.TRANSCRIPTS).is_file():
        return {"skipped": f"the Asterisk recordings are not in {asterisk.ASTERISK_DIR} (scripts/get_data.sh speech)"}
    try:
        model = zoo.from_ct2(whisper_base_ct2(Path(tempfile.gettempdir()) / "zoo-whisper-base")).eval()
    except (ImportError, FileNotFoundError) as error:
        return {"skipped": f"the real Whisper base is not installed here ({error})"}
    transcripts = asterisk.read_transcripts(asterisk.ASTERISK_DIR / asterisk.TRANSCRIPTS)
    keys = asterisk.sentence_prompts(transcripts)[:limit]
    audio = [asterisk.load_prompt(key) for key in keys]
    references = [normalize_text(asterisk.spoken_text(transcripts[key])) for key in keys]
    scores = {}
    for name, variant in (("fp32", model), ("int8", zoo.quantize(copy.deepcopy(model), "int8"))):
        results = zoo.transcribe(variant, audio, batch_size=16, **decoding_options())
        scores[name] = 100 * jiwer.wer(references, [normalize_text(r["text"]) or "<empty>" for r in results])
    return {"prompts": len(keys), "words": sum(len(r.split()) for r in references), "wer": scores}


# VmHWM, not getrusage's ru_maxrss: Linux carries ru_maxrss over an exec, so a child would report its parent's peak.
_RSS_SCRIPT = """
import re, sys, torch, zoo
if sys.argv[1]:
    model = zoo.pack_for_inference(zoo.load_pretrained(sys.argv[1]).eval())
    zoo.generate(model, torch.zeros(1, 8, dtype=torch.long), 16)
status = open("/proc/self/status").read()
print(int(re.search(r"VmHWM:\\s+(\\d+) kB", status).group(1)) * 1024)
"""


def peak_rss(directory: str) -> int:
    """Peak RSS of a process that imports zoo and (given a directory) loads that model, packs it and decodes 16
    tokens."""
    out = subprocess.run([sys.executable, "-c", _RSS_SCRIPT, directory], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1])
    return int(out.stdout.strip().splitlines()[-1])


def memory() -> dict:
    """llama_135m: bytes of parameters and buffers, and the peak RSS of loading each variant as saved
    (save_pretrained / load_pretrained), beside that of importing zoo alone."""
    torch.manual_seed(0)
    model = zoo.create_model("llama_135m").eval()
    variants = {"fp32": model, "bf16": copy.deepcopy(model).to(torch.bfloat16),
                **{s: zoo.quantize(copy.deepcopy(model), s) for s in SCHEMES},
                **{f"{s}, tables too": zoo.quantize(copy.deepcopy(model), s, embeddings=True) for s in SCHEMES}}
    weight = {name: sum(t.numel() * t.element_size() for t in [*m.parameters(), *m.buffers()])
              for name, m in variants.items()}
    rss = {"import zoo alone": peak_rss("")}
    with tempfile.TemporaryDirectory() as work:
        for name, variant in variants.items():
            variant.save_pretrained(Path(work) / name)
            rss[name] = peak_rss(str(Path(work) / name))
    return {"weight_bytes": weight, "peak_rss": rss}


def run(quick: bool = False) -> dict:
    parts = {"perplexity": lambda: perplexity(60 if quick else 600), "embeddings": embeddings,
             "wer": lambda: wer(8 if quick else None), "memory": memory}
    results = {}
    for name, part in parts.items():
        results[name] = part()
        print(f"  quantized accuracy {name}: {json.dumps(results[name])[:200]}", flush=True)
    return results


def report(result: dict) -> str:
    rows = []
    ppl = result["perplexity"]["ppl"]
    for scheme, bound in (("int8", 0.01), ("int4", 0.05)):
        change = ppl[scheme] / ppl["fp32"] - 1
        rows.append([f"perplexity, {scheme} vs fp32 (gpt_tiny, {result['perplexity']['steps']} steps)",
                     f"{ppl['fp32']:.2f} -> {ppl[scheme]:.2f} ({change:+.2%})", f"within {bound:.0%}",
                     yes_no(abs(change) <= bound)])
    e = result["embeddings"]
    for activations in ("int8", "float"):
        rows.append([f"all-MiniLM-L6-v2 embeddings, int8 ({activations} activations) vs fp32, cosine"] + (
            [f"skipped: {e['skipped']}", ">= 0.99", "-"] if "skipped" in e else
            [f"min {e[activations]['min']:.4f}, mean {e[activations]['mean']:.4f} ({e['sentences']} sentences)",
             ">= 0.99 (each)", yes_no(e[activations]["min"] >= 0.99)]))
    w = result["wer"]
    rows.append(["Whisper base WER, int8 vs fp32 (Asterisk recordings)"] + (
        [f"skipped: {w['skipped']}", "within 0.5 points", "-"] if "skipped" in w else
        [f"{w['wer']['fp32']:.2f} -> {w['wer']['int8']:.2f} ({w['prompts']} prompts, {w['words']} words)",
         "within 0.5 points",
         yes_no(abs(w["wer"]["int8"] - w["wer"]["fp32"]) <= 0.5)]))
    m = result["memory"]
    for name, how in (("int8", "the table fp32"), ("int8, tables too", "embeddings=True")):
        if name in m["weight_bytes"]:
            share = m["weight_bytes"][name] / m["weight_bytes"]["fp32"]
            rows.append([f"llama_135m weight bytes, int8 ({how}) / fp32", f"{share:.1%}", "at most 27%",
                         yes_no(share <= 0.27)])
    mib = lambda b: f"{b / 2**20:,.0f} MiB"  # noqa: E731
    memory_rows = [[name, mib(m["weight_bytes"][name]) if name in m["weight_bytes"] else "-", mib(m["peak_rss"][name])]
                   for name in m["peak_rss"]]
    return "\n".join([
        "\n### int8 / int4: accuracy and memory against fp32 (zoo.quantize's defaults)\n",
        table(["measure", "figure", "target", "met"], rows),
        "\nllama_135m (in int8 / int4 the embedding table stays fp32 and the tied head gets integers of its own; with "
        "`embeddings=True` (\"tables too\") the table is stored in the scheme and the head reads its integers. Peak "
        "RSS: a process that imports zoo, loads the saved model, packs it and decodes 16 tokens. load_pretrained "
        "builds the model without weights and takes the saved tensors as its own (zoo.io.parameters_on_meta), so a "
        "quantised model never exists in fp32; a bf16 save loads as fp32, the model's dtype)\n",
        table(["weights", "parameters + buffers", "peak RSS"], memory_rows)])
