"""Greedy decoding with int8 and int4 weights: ours (zoo.quantize, packed, compiled) against our bf16, CTranslate2
int8 (its Generator on its conversion of the same transformers directory) and transformers fp32, per model and
batch, interleaved as the other decode sections.

Quantised weights decode other tokens than fp32 where the top two logits are close, so, as in the bf16 section,
every side decodes the same fixed number of new tokens (EOS off) and the first token where it parts from
transformers' fp32 is recorded instead of stopping the run.
"""
from __future__ import annotations

import copy
import gc
import importlib.util
import tempfile
from functools import partial
from pathlib import Path

import torch

import zoo
from bench.config import GenerationBench
from bench.generation.common import prompt_ids
from bench.generation.decode import new_token_differences, ref_generate, timed_row
from bench.report import ratio_cells, table, target_verdict
from bench.workers import Worker
from zoo.generation import generate

SIDES = {"ours": "bf16", "int8": "int8", "int4": "int4", "CTranslate2 int8": "ct2"}  # row key -> fn name
TARGETS = {"int8/bf16": 1.5, "int8/CTranslate2 int8": 2.0, "int4/int8": 1.3}  # from the quantisation issue


def skip_reason() -> str | None:
    if importlib.util.find_spec("ctranslate2") is None:  # not imported here: bench.workers says why
        return "ctranslate2 is not installed (requirements-test.txt)"
    return None


def save_transformers(ref, directory: Path) -> Path:
    """`ref` as a transformers directory, with a vocabulary of placeholder tokens ("t0", "t1", ...: random weights
    have no tokenizer, and CTranslate2 takes tokens as strings)."""
    import tokenizers
    import transformers

    vocab = {f"t{i}": i for i in range(ref.config.vocab_size)}
    backend = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab, unk_token="t0"))
    ref.save_pretrained(directory)
    transformers.PreTrainedTokenizerFast(tokenizer_object=backend, unk_token="t0", bos_token="t1",
                                         eos_token="t2").save_pretrained(directory)
    return directory


def ct2_generator(directory: str, threads: int):
    """In a worker (bench.workers says why): CTranslate2's Generator on its int8 conversion of the transformers
    `directory`, made here."""
    import ctranslate2
    from ctranslate2.converters import TransformersConverter

    converted = f"{directory}-ct2-int8"
    TransformersConverter(directory).convert(converted, quantization="int8", force=True)
    return ctranslate2.Generator(converted, device="cpu", compute_type="int8", inter_threads=1, intra_threads=threads)


def ct2_generate(generator, ids: torch.Tensor, new: int) -> torch.Tensor:
    """Prompt + `new` greedy tokens, as ours returns them: exactly `new` (min_length = max_length: EOS cannot end
    it) after each row (B, T) -> (B, T + new)."""
    results = generator.generate_batch([[f"t{i}" for i in row] for row in ids.tolist()], max_length=new,
                                       min_length=new, sampling_topk=1, include_prompt_in_result=False, end_token=[])
    return torch.cat([ids, torch.tensor([r.sequences_ids[0] for r in results])], dim=1)


def run(config: GenerationBench, pairs: dict) -> dict:
    """{"rows": one per model and batch} (or {"skipped": why}). pairs: {model: reference_pair(model)}, fp32."""
    reason = skip_reason()
    if reason:
        print(f"  decode quantized: skipped ({reason})", flush=True)
        return {"skipped": reason}
    rows = []
    for name in config.gen_models:
        ours, ref = pairs[name]
        models = {"bf16": copy.deepcopy(ours).to(torch.bfloat16), "int8": zoo.quantize(copy.deepcopy(ours), "int8"),
                  "int4": zoo.quantize(copy.deepcopy(ours), "int4")}
        weight_bytes = {side: sum(t.numel() * t.element_size() for t in [*m.parameters(), *m.buffers()])
                        for side, m in {"fp32": ours, **models}.items()}
        models = {side: zoo.pack_for_inference(m) for side, m in models.items()}
        with tempfile.TemporaryDirectory() as workdir:
            directory = save_transformers(ref, Path(workdir) / "hf")
            with Worker(partial(ct2_generator, str(directory))) as ct2:
                for batch in config.gen_batches:
                    rows.append(run_batch(config, name, models, ref, ct2, batch) | {"weight_bytes": weight_bytes})
        del models
        gc.collect()
    return {"rows": rows}


def run_batch(config: GenerationBench, name: str, models: dict, ref, ct2: Worker, batch: int) -> dict:
    ids = prompt_ids(models["bf16"].config.vocab_size, batch, config.gen_prompt)
    new = config.gen_new_tokens
    fns = {side: (lambda m=model: generate(m, ids, new, compile=True)) for side, model in models.items()}
    fns |= {"ct2": ct2.bind(ct2_generate, ids, new), "ref": lambda: ref_generate(ref, ids, new)}
    differences = {}
    row, first_call = timed_row(config, f"decode quantized {name} batch {batch}", fns, SIDES, ids, differences)
    speeds = {key: (row if key == "ours" else row[key])["ours_tok_s"] for key in SIDES}
    return {"model": name, "batch": batch, **row, "compile_s": {s: first_call[s] for s in models},
            "first_difference": new_token_differences(differences, SIDES, ids.shape[1]),
            "targets": {"int8/bf16": speeds["int8"] / speeds["ours"],
                        "int8/CTranslate2 int8": speeds["int8"] / speeds["CTranslate2 int8"],
                        "int4/int8": speeds["int4"] / speeds["int8"]}}


def report(result: dict, config: GenerationBench) -> str:
    new = config.gen_new_tokens
    head = (f"\n### Greedy decoding with int8 / int4 weights, {config.gen_prompt}-token prompt + {new} new tokens "
            f"(prefill included); {config.gen_repeats} interleaved calls per side, medians\n")
    if "skipped" in result:
        return head + f"\nSkipped on this machine: {result['skipped']}."
    rows = result["rows"]
    return "\n".join([
        head,
        "ours bf16 / int8 / int4: `model.to(torch.bfloat16)`, `zoo.quantize(model, 'int8')` (int8 activations per "
        "row), `zoo.quantize(model, 'int4')` (groups of 32, int8 activations per row), each after "
        "`zoo.pack_for_inference` and decoded with `generate(..., compile=True)` (the first call, which compiles, is "
        "not timed); CTranslate2 int8: `ctranslate2.Generator(compute_type='int8')` on its conversion of the same "
        "transformers directory, in a process of its own (bench/workers.py says why), timed there; "
        "transformers: fp32 `generate`. Speeds are new tokens per second; x/ref is over transformers fp32. The "
        "first new token where a side's greedy tokens part from transformers' fp32 (counted from 0, and the row) "
        "is listed\n",
        table(["model", "batch", "bf16 tok/s", "int8 tok/s", "int4 tok/s", "CTranslate2 int8 tok/s",
               "transformers fp32 tok/s", "bf16/ref", "int8/ref", "int4/ref", "CTranslate2 int8/ref",
               "first new token differing (bf16, int8, int4, CTranslate2)"],
              [[r["model"], r["batch"], f"{r['ours_tok_s']:,.1f}",
                *(f"{r[k]['ours_tok_s']:,.1f}" for k in ("int8", "int4", "CTranslate2 int8")), f"{r['ref_tok_s']:,.1f}",
                ratio_cells(r, 1.0)[0], *(ratio_cells(r[k], 1.0)[0] for k in ("int8", "int4", "CTranslate2 int8")),
                ", ".join("none" if at is None else f"{at[1]} of {new} (row {at[0]})"
                          for at in r["first_difference"].values())] for r in rows]),
        "\nTargets (ratios of the medians above):\n",
        table(["model", "batch", *(f"{k} (target {v}x)" for k, v in TARGETS.items())],
              [[r["model"], r["batch"], *(f"{r['targets'][k]:.2f}x " + target_verdict(r["targets"][k], v)[1]
                                          for k, v in TARGETS.items())] for r in rows]),
        "\nWeight bytes (parameters and buffers before packing; the embedding tables stay fp32 in int8 / int4, and a "
        "tied head gets integers of its own): "
        + "; ".join(f"{r['model']}: " + ", ".join(f"{side} {b / 2**20:,.1f} MiB"
                                                  for side, b in r["weight_bytes"].items())
                    for r in rows[::max(1, len(config.gen_batches))]),
    ])
