"""The model table (bench/models.py): its quick run gives one row per registered preset with positive finite
figures where timed, realistic presets their parameters and FLOPs without allocating them, MFU = FLOPs x
throughput / peak, CPU peak memory as the allocator sees it, and a well-formed Markdown report (and JSON)."""
import json
import math
import resource

import pytest
import torch

import zoo
from bench import models
from bench.flops import forward_flops
from bench.models_timing import cpu_peak_bytes

CEILINGS = {"probes": {"matmul fp32 n=256": {"median": 40.0}, "matmul fp32 n=512": {"median": 50.0},
                       "matmul bf16 n=256": {"median": 120.0}, "copy": {"median": 9.0}}}
PEAKS = {"fp32": 50e9, "bf16": 120e9}


@pytest.fixture(scope="module")
def quick():
    torch.manual_seed(0)
    config = models.ModelsConfig.quick()
    return config, models.run(config, ceilings=CEILINGS, log=lambda *_: None)


def by_name(rows):
    return {r["model"]: r for r in rows}


def test_one_row_per_registered_preset_and_the_tiny_ones_timed(quick):
    config, rows = quick
    assert [r["model"] for r in rows] == zoo.list_models()
    for r in rows:
        assert r["params"] > 0 and r["weight_bytes"] >= 4 * r["params"] * 0.9
        assert r["flops_per_sample"] and all(f > 0 for f in r["flops_per_sample"].values())
        assert r["timed"] == (r["model"] in models.QUICK_PRESETS), (r["model"], r["note"])
        assert bool(r["rows"]) == r["timed"]


def test_timed_figures_are_positive_and_finite(quick):
    _, rows = quick
    for r in rows:
        for t in r["rows"]:
            values = [t[k] for k in ("seconds", "samples_s", "tokens_s", "flops", "mfu")] + t["samples_s_iqr"]
            assert all(v > 0 and math.isfinite(v) for v in values), (r["model"], t)
            assert t["peak_bytes"] > 0, (r["model"], t)
            if t["ratio"] is not None:
                assert t["ratio"] > 0 and math.isfinite(t["ratio"])


def test_every_dtype_region_and_cpu_backend_appears(quick):
    _, rows = quick
    gpt = by_name(rows)["gpt_tiny"]
    seen = {(t["kind"], t["dtype"], t["region"], t["backend"]) for t in gpt["rows"] if t["shape"] == "2x16"}
    for backend in ("sdpa", "math"):
        assert ("forward", "fp32", "-", backend) in seen
        for region in ("per call", "one region"):
            assert ("forward", "bf16", region, backend) in seen and ("forward", "bf16_packed", region, backend) in seen
        assert ("train", "fp32", "-", backend) in seen and ("train", "bf16", "per call", backend) in seen
    assert not any(backend == "xformers" for *_, backend in seen)  # no CPU kernels
    assert ("forward", "fp32", "-", "ref") in seen and ("train", "bf16", "per call", "ref") in seen


def test_references_on_the_same_weights(quick):
    _, rows = quick
    named = by_name(rows)
    for name in ("gpt_tiny", "llama_tiny", "bert_tiny", "ast_tiny", "clip_vit_tiny_patch8_32", "llava_tiny"):
        assert named[name]["reference"] == "transformers", named[name]["reference"]
    assert named["whisper_micro"]["reference"] == "openai-whisper", named["whisper_micro"]["reference"]
    assert named["vit_tiny_patch4_28"]["reference"].startswith("no reference")
    for t in named["gpt_tiny"]["rows"]:
        assert (t["ratio"] is None) == (t["backend"] == "ref")
        if t["kind"] == "forward":  # every side's output checked against the reference's
            assert t["backend"] == "ref" or t["max_abs_diff"] is not None
    for kind in ("forward", "train"):  # training: the first steps' losses, on the same weights
        assert any(t["max_abs_diff"] is not None for t in named["gpt_tiny"]["rows"] if t["kind"] == kind)


def test_mfu_is_flops_times_throughput_over_the_peak(quick):
    _, rows = quick
    assert models.matmul_peaks(CEILINGS) == PEAKS
    gpt = by_name(rows)["gpt_tiny"]
    config = zoo.create_model("gpt_tiny").config
    for t in gpt["rows"]:
        batch, seq = map(int, t["shape"].split("x"))
        assert t["flops"] == forward_flops(config, batch, seq) * (3 if t["kind"] == "train" else 1)
        peak = PEAKS["fp32" if t["dtype"] == "fp32" else "bf16"]
        assert t["mfu"] == pytest.approx(t["flops"] * (t["samples_s"] / batch) / peak)
        assert t["tokens_s"] == pytest.approx(t["samples_s"] * seq)


def test_realistic_presets_are_counted_without_allocating():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB
    row = models.describe("llava_v1_5_7b", models.ModelsConfig())
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert row["params"] > 6e9 and not row["timed"]
    assert row["note"].startswith("not timed: ") and "GB of weights" in row["note"]
    assert grown < 2**20, f"describing a 7B preset took {grown / 2**20:.1f} GiB"  # its fp32 weights are 28 GB
    assert all(f > 1e12 for f in row["flops_per_sample"].values())


def test_default_config_times_the_base_sizes_not_the_7b():
    config = models.ModelsConfig()
    for name in ("gpt2", "bert_base", "vit_base_patch16_224", "whisper_base", "llama_135m"):
        assert models.describe(name, config)["timed"], name
    assert not models.describe("llava_v1_5_7b", config)["timed"]
    shapes = list(models.describe("gpt2", config)["flops_per_sample"])
    assert shapes == ["1x256", "4x128"]


def test_cpu_peak_memory_counts_what_a_call_holds_at_once():
    mib = 2**20

    def two_in_turn():
        a = torch.ones(mib // 4)  # 1 MiB of fp32, freed before the next
        del a
        b = torch.ones(mib // 4)
        return b.sum()

    def two_at_once():
        a, b = torch.ones(mib // 4), torch.ones(mib // 4)
        return a.sum() + b.sum()

    assert mib <= cpu_peak_bytes(two_in_turn) < 1.5 * mib
    assert 2 * mib <= cpu_peak_bytes(two_at_once) < 2.5 * mib


def test_report_is_well_formed_markdown(quick):
    config, rows = quick
    text = models.report(rows, config)
    tables = [block.strip().splitlines() for block in text.split("\n\n") if block.strip().startswith("|")]
    assert len(tables) == 3
    for lines in tables:
        assert lines[1].startswith("|---")
        assert len({line.count("|") for line in lines}) == 1, lines[:3]
    assert len(tables[0]) == 2 + len(rows)
    with_reference = {r["model"] for r in rows if any(t["backend"] == "ref" for t in r["rows"])}
    assert {line.split("|")[1].strip() for line in tables[1][2:]} == with_reference
    assert len(tables[2]) == 2 + sum(len(r["rows"]) for r in rows)
    assert "2 x 16" in text and "one region" in text and "per call" in text
    json.dumps(rows)  # the benchmark script's --json writes them as they are


def _timing(kind, dtype, backend, ratio, mfu, region="-", shape="4x128"):
    return {"kind": kind, "dtype": dtype, "backend": backend, "ratio": ratio, "mfu": mfu, "region": region,
            "shape": shape}


def test_targets_pick_the_best_variant_and_judge_it():
    """fp32 forward against 1.0x, bf16 (autocast or packed, per region) against 1.2x; the ceiling is 1 / the
    reference's MFU; gpt2's fp32 training step against 50% MFU."""
    gpt2 = {"model": "gpt2", "rows": [
        _timing("forward", "fp32", "ref", None, 0.8), _timing("forward", "fp32", "sdpa", 1.1, 0.88),
        _timing("forward", "fp32", "math", 0.9, 0.72),
        _timing("forward", "bf16", "ref", None, 0.25, "per call"),
        _timing("forward", "bf16", "sdpa", 1.1, 0.27, "per call"),
        _timing("forward", "bf16_packed", "sdpa", 1.5, 0.37, "per call"),
        _timing("train", "fp32", "ref", None, 0.40), _timing("train", "fp32", "sdpa", 1.2, 0.48),
        _timing("train", "fp32", "math", 1.0, 0.41)]}
    text = models._targets_table([gpt2, {"model": "gpt_x", "rows": []}])
    lines = [line for line in text.splitlines() if line.startswith("| gpt2")]
    assert lines[0].split(" | ")[1:] == ["forward 4x128", "fp32", "fp32 sdpa", "**1.10x**", "80%", "1.25x",
                                         ">= 1.0x", "yes |"]
    assert lines[1].split(" | ")[1:] == ["forward 4x128", "bf16, per call", "bf16_packed sdpa", "**1.50x**",
                                         "25%", "4.00x", ">= 1.2x", "yes |"]
    assert lines[2].split(" | ")[1:] == ["train step 4x128", "fp32", "fp32 sdpa", "MFU **48%**", "-", "-",
                                         ">= 50% MFU", "no |"]
    assert len(lines) == 3


def _only(rows, timed):
    """The quick run's rows as a run that timed only `timed` would give them: the others not in its list."""
    return [dict(r) if r["model"] in timed else {**r, "timed": False, "note": models.NOT_LISTED, "rows": []}
            for r in rows]


def test_merge_keeps_presets_an_earlier_run_timed_and_names_each_run(quick):
    """A CPU measures the table in parts: run 2 times bert_tiny, run 1's gpt_tiny stays with run 1's stamp; a
    preset run 2 leaves untimed for another reason (here: too large) is run 2's row, not run 1's."""
    config, rows = quick
    first = {"command": "python scripts/benchmark.py --only models --model-timed gpt_tiny", "date": "2026-12-01 10:00",
             "warmup": 1, "repeats": 2}
    second = {**first, "command": first["command"].replace("gpt_tiny", "bert_tiny llama_tiny"),
              "date": "2026-12-01 11:30"}
    stored = models.merge(_only(rows, {"gpt_tiny", "llama_tiny"}), [], first)
    now = _only(rows, {"bert_tiny"})
    too_large = {**by_name(now)["llama_tiny"], "note": "not timed: 0.0 GB of weights (more than max_params 1)"}
    now = [too_large if r["model"] == "llama_tiny" else r for r in now]
    merged = by_name(models.merge(now, json.loads(json.dumps(stored)), second))
    assert merged["gpt_tiny"]["timed"] and merged["gpt_tiny"]["run"] == first
    assert merged["gpt_tiny"]["rows"] == by_name(rows)["gpt_tiny"]["rows"]
    assert merged["bert_tiny"]["timed"] and merged["bert_tiny"]["run"] == second
    assert not merged["llama_tiny"]["timed"] and "max_params" in merged["llama_tiny"]["note"]
    assert not merged["ast_tiny"]["timed"] and "run" not in merged["ast_tiny"]
    text = models.report(list(merged.values()), config)
    preset_table = [line.split("|") for line in text.splitlines() if line.startswith("| ") and line.count("|") == 8]
    cells = {c[1].strip(): c[-2].strip() for c in preset_table}
    assert cells["gpt_tiny"] == "yes (run 1)" and cells["bert_tiny"] == "yes (run 2)"
    assert f"1. 2026-12-01 10:00, 1 warm-up and 2 timed calls per side: `{first['command']}`" in text
    assert f"2. 2026-12-01 11:30, 1 warm-up and 2 timed calls per side: `{second['command']}`" in text
    assert "per run, below the preset table" in text


def test_model_flags_narrow_the_full_config():
    import argparse

    from bench.cli import add_models_arguments, models_config
    p = argparse.ArgumentParser()
    add_models_arguments(p)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--device", default="cpu")
    config = models_config(p.parse_args(["--model-timed", "gpt2", "bert_base", "--model-repeats", "4",
                                         "--model-max-params", "2e8", "--model-backends", "sdpa"]))
    assert config.timed == ("gpt2", "bert_base") and config.repeats == 4 and config.max_params == 2e8
    assert config.backends == ("sdpa",) and config.warmup == models.ModelsConfig().warmup
    assert config.text_shapes == models.ModelsConfig().text_shapes
    assert models_config(p.parse_args(["--quick"])) == models.ModelsConfig.quick()


def test_a_llava_tower_read_at_its_patch_embeddings_has_its_reference():
    """llava_scenes reads its tower at layer 0 (the patch embeddings), which transformers 5.24 turns into
    output_hidden_states=0, asking for no hidden state; the case asks for all of them, and both sides agree."""
    from bench.models_cases import Shape, build_case
    case = build_case("llava_scenes", Shape("2x(9+8)", 2, 8), "cpu")
    assert case.reference == "transformers"
    with torch.inference_mode():
        want, got = case.ref_out(case.ref), case.ours_out(case.ours)
    assert want.shape == got.shape == (2, 17, 512)
    torch.testing.assert_close(got, want, atol=1e-4, rtol=0)
