"""bench: the side-by-side timing, references, reports and options the benchmark scripts share."""
import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path

import pytest
import torch

import bench
import zoo
from backbones.inference.torch_private import mkldnn_bf16_supported
from bench import (
    autocast,
    interleaved,
    machine,
    machine_line,
    matmul_seconds,
    ratio_cells,
    reference_pair,
    summarize,
    table,
    timing,
)
from bench.cli import QUICK, add_generation_arguments, generation_config
from bench.generation import SECTIONS, decode_bf16, speculative
from bench.generation.bound import bytes_per_token
from bench.generation.decode import check_same_tokens, first_calls_checked, first_difference
from bench.generation.speculative_measure import parse_overrides
from bench.report import BenchmarkError
from tests.helpers import markdown_tables as table_rows


class FakeClock:
    """Stands in for the `time` module inside bench.timing: only the functions below move it."""

    def __init__(self):
        self.now = 0.0

    def perf_counter(self):
        return self.now

    def costs(self, seconds):
        """A function that takes seconds(i) on its i-th call (warm-up included)."""
        calls = []

        def fn():
            calls.append(None)
            self.now += seconds(len(calls))
        return fn


def test_interleaved_alternates_sides_abba():
    calls = []
    times = interleaved({"ours": lambda: calls.append("o"), "ref": lambda: calls.append("r")}, warmup=1, repeats=4)
    assert calls == ["o", "r"] + ["o", "r", "r", "o", "o", "r", "r", "o"]  # warm-up, then ABBA
    assert {k: len(v) for k, v in times.items()} == {"ours": 4, "ref": 4}
    calls.clear()
    interleaved({name: (lambda name=name: calls.append(name)) for name in "abc"}, warmup=0, repeats=2)
    assert calls == ["a", "b", "c", "c", "b", "a"]


def test_interleaved_times_each_call_of_its_own_side_after_the_warmup(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(timing, "time", clock)
    # ours' i-th call takes i seconds, ref's always 10: the warm-up calls (1, 2) must not be in the times
    times = interleaved({"ours": clock.costs(lambda i: float(i)), "ref": clock.costs(lambda i: 10.0)},
                        warmup=2, repeats=4)
    assert times == {"ours": [3.0, 4.0, 5.0, 6.0], "ref": [10.0] * 4}


def test_a_side_twice_as_slow_gives_ratio_two(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(timing, "time", clock)
    times = interleaved({"ours": clock.costs(lambda i: 0.5), "ref": clock.costs(lambda i: 1.0)}, warmup=1, repeats=5)
    row = summarize(times, work=8)
    assert row["ratio"] == pytest.approx(2.0) and row["pair_ratio_iqr"] == pytest.approx([2.0, 2.0])
    assert row["ours_tok_s"] == pytest.approx(16.0) and row["ref_tok_s"] == pytest.approx(8.0)


def test_interleaved_measures_at_least_the_time_a_call_sleeps():
    times = interleaved({"sleep": lambda: time.sleep(0.02), "nothing": lambda: None}, warmup=0, repeats=3)
    assert min(times["sleep"]) >= 0.0199
    assert min(times["nothing"]) < 0.02 <= min(times["sleep"])


def test_summarize_takes_the_median_over_pairs():
    # ours is twice as fast in three pairs, and one pair is disturbed on our side only
    times = {"ours": [1.0, 1.0, 1.0, 4.0], "ref": [2.0, 2.0, 2.0, 2.0]}
    row = summarize(times, work=100)
    assert row["ratio"] == pytest.approx(2.0)
    assert row["ours_s"] == pytest.approx(1.0) and row["ref_s"] == pytest.approx(2.0)
    assert row["ours_tok_s"] == pytest.approx(100.0) and row["ref_tok_s"] == pytest.approx(50.0)
    lo, hi = row["pair_ratio_iqr"]
    assert lo < 2.0 <= hi
    assert ratio_cells(row, 1.5)[-1] == "yes" and ratio_cells(row, 2.5)[-1] == "no"


def test_summarize_any_two_named_sides():
    times = {"ours": [1.0] * 3, "packed": [0.5] * 3, "ref": [2.0] * 3}
    row = summarize(times, work=10, ours="packed")
    assert row["ratio"] == pytest.approx(4.0) and row["ours_tok_s"] == pytest.approx(20.0)
    assert set(row["times"]) == {"packed", "ref"}
    assert summarize(times, work=10, ours="packed", ref="ours")["ratio"] == pytest.approx(2.0)


@pytest.mark.parametrize("name", ["gpt_tiny", "bert_tiny"])
def test_reference_pair_holds_the_same_weights(name):
    ours, ref = reference_pair(name)
    ids = torch.randint(0, ours.config.vocab_size, (2, 9))
    with torch.no_grad():
        assert torch.allclose(ours(ids), ref(ids).logits, atol=1e-4)
    assert not ours.training and not ref.training


def test_reference_pair_rejects_a_family_without_reference():
    with pytest.raises(ValueError, match="no transformers reference for 'vit_tiny_patch2_8'"):
        reference_pair("vit_tiny_patch2_8")


def test_autocast_machine_and_table():
    with autocast("bf16"):
        assert torch.get_autocast_dtype("cpu") == torch.bfloat16 and torch.is_autocast_enabled("cpu")
    with autocast("fp32"):
        assert not torch.is_autocast_enabled("cpu")
    with pytest.raises(ValueError, match="dtype must be one of"):
        autocast("fp8")
    m = machine()
    assert m["cores"] >= 1 and m["torch"] == torch.__version__
    assert table(["a", "b"], [[1, 2]]) == "| a | b |\n|---|---|\n| 1 | 2 |"
    line = machine_line(m, 0.25)
    assert line.startswith(f"Machine: {m['cpu']}, {m['cores']} cores") and "used 25% of the CPUs" in line


def test_matmul_seconds_counts_only_the_arithmetic_kernels():
    a = torch.randn(256, 256)
    assert matmul_seconds(lambda: a + a) == 0.0
    mm = matmul_seconds(lambda: (a @ a).relu())
    assert mm > 0.0
    many = matmul_seconds(lambda: [a @ a for _ in range(32)])
    assert many > mm  # 32 GEMMs take longer than one, even on a busy machine (4 did not always)


def test_generation_options_fill_from_the_preset_and_explicit_flags_win():
    p = argparse.ArgumentParser()
    add_generation_arguments(p)
    p.add_argument("--quick", action="store_true")
    args = p.parse_args(["--quick", "--gen-prompt", "5", "--spec-train-steps", "7"])
    config = generation_config(args)
    assert config.gen_prompt == 5 and args.gen_prompt == 5  # the flag, not QUICK's
    assert config.gen_models == tuple(QUICK["gen_models"]) and config.gen_sections == SECTIONS
    native_bf16 = mkldnn_bf16_supported()  # bf16 training only where the CPU runs it natively
    assert config.spec_draft_steps == 14 and config.spec_dir is None
    assert config.spec_train_dtype == ("bf16" if native_bf16 else "fp32")
    explicit = generation_config(p.parse_args(["--quick", "--spec-train-dtype", "bf16"]))
    assert explicit.spec_train_dtype == "bf16"


def test_bytes_per_token_reads_every_weight_once_and_one_position_row():
    model = zoo.create_model("gpt_tiny")
    table_ = model.embed.positions.weight  # (max_positions, dim)
    weights = sum(p.numel() for p in model.parameters())
    assert bytes_per_token(model) == 4 * (weights - (table_.shape[0] - 1) * table_.shape[1])
    assert bytes_per_token(model.to(torch.bfloat16)) * 2 == bytes_per_token(model.float())


def test_parse_overrides():
    assert parse_overrides("depth=4, dim=256,,eps=1e-5,p=0.5") == {"depth": 4, "dim": 256, "eps": 1e-5, "p": 0.5}


def test_the_bench_modules_set_no_globals(monkeypatch):
    """The CLIs raise dynamo's cache limit in main(); running any bench module's top level must leave it alone."""
    files = sorted(Path(bench.__file__).parent.rglob("*.py"))
    assert len(files) > 10
    with torch._dynamo.config.patch(recompile_limit=3):  # cache_size_limit is its alias
        for i, path in enumerate(files):  # each run afresh, under a name of its own (removed after the test)
            spec = importlib.util.spec_from_file_location(f"fresh_bench_module_{i}", path)
            module = importlib.util.module_from_spec(spec)
            monkeypatch.setitem(sys.modules, spec.name, module)  # dataclasses look their module up there
            spec.loader.exec_module(module)
        assert torch._dynamo.config.recompile_limit == 3


def test_token_checks_name_the_earliest_differing_position_and_bf16_records_it():
    ref = torch.tensor([[1, 2, 3, 4], [1, 2, 3, 4]])
    ours = torch.tensor([[1, 2, 3, 9], [1, 2, 9, 4]])  # row 1 parts first (token 2), though row 0 comes first
    assert first_difference(ours, ref) == (1, 2) and first_difference(ref, ref.clone()) is None
    with pytest.raises(BenchmarkError, match="differ first at row 1, token 2"):
        check_same_tokens("x", ours, ref, (2, 4))
    assert check_same_tokens("x", ours, ref, (2, 4), exact=False) == (1, 2)
    with pytest.raises(BenchmarkError, match="stopped early"):  # a shape mismatch stays an error in bf16
        check_same_tokens("x", ours[:, :3], ref[:, :3], (2, 4), exact=False)
    fns = {"same": ref.clone, "other": lambda: ours}
    with pytest.raises(BenchmarkError):
        first_calls_checked("x", fns, fns, ref, (2, 4))
    differences = {}
    seconds = first_calls_checked("x", fns, fns, ref, (2, 4), differences)
    assert differences == {"same": None, "other": (1, 2)} and set(seconds) == set(fns)


def test_decode_bf16_is_a_section_and_says_why_where_bf16_is_emulated(monkeypatch):
    assert SECTIONS.index("decode_bf16") == SECTIONS.index("decode") + 1
    monkeypatch.setattr(decode_bf16, "mkldnn_bf16_supported", lambda: False)
    p = argparse.ArgumentParser()
    add_generation_arguments(p)
    p.add_argument("--quick", action="store_true")
    config = generation_config(p.parse_args(["--quick"]))
    result = decode_bf16.run(config, pairs={})  # measures nothing, so needs no models
    assert result == {"skipped": decode_bf16.skip_reason()} and "AVX512-BF16 or AMX" in result["skipped"]
    text = decode_bf16.report(result, config)
    assert text.startswith("\n### Greedy decoding in bf16")
    assert text.endswith(f"Skipped on this machine: {result['skipped']}.")
    assert "|" not in text


def test_speculative_merge_keeps_the_families_a_run_left_out():
    """A run that measured whisper keeps gpt and llama from the stored results, in table order, and stamps only
    its own family with its command; a family measured again replaces the stored one."""
    stored = {"families": {"gpt": {"family": "gpt", "rows": [1], "run": {"command": "first"}},
                           "llama": {"family": "llama", "rows": [2], "run": {"command": "first"}}}}
    now = {"families": {"whisper": {"family": "whisper", "rows": [3]}}}
    merged = speculative.merge(now, stored, {"command": "second"})["families"]
    assert list(merged) == ["gpt", "llama", "whisper"]
    assert merged["gpt"] == stored["families"]["gpt"] and merged["whisper"]["run"] == {"command": "second"}
    again = speculative.merge({"families": {"gpt": {"family": "gpt", "rows": [4]}}}, {"families": merged},
                              {"command": "third"})["families"]
    assert again["gpt"] == {"family": "gpt", "rows": [4], "run": {"command": "third"}}
    assert again["whisper"] == merged["whisper"] and list(again) == ["gpt", "llama", "whisper"]
    assert speculative.merge(now, {}, {"command": "x"})["families"].keys() == {"whisper"}


@pytest.mark.slow  # trains a draft and a target per family in child processes (about 3 minutes on 2 cores)
def test_speculative_section_quick_for_each_family(tmp_path):
    """The speculative section in quick mode: a draft and a target trained per family (a few steps), greedy
    speculative output asserted equal to plain greedy inside run(), one table per family."""
    p = argparse.ArgumentParser()
    add_generation_arguments(p)
    p.add_argument("--quick", action="store_true")
    config = generation_config(p.parse_args(["--quick", "--spec-train-steps", "4", "--spec-whisper-steps", "4", "8",
                                             "--spec-k", "2",
                                             "--spec-new-tokens", "8", "--spec-prompts", "1", "--spec-repeats", "1",
                                             "--spec-train-dtype", "fp32", "--spec-dir", str(tmp_path)]))
    result = speculative.run(config)
    families = ["gpt", "llama", "whisper"]
    assert list(result["families"]) == families
    text = speculative.report(result, config)
    for family in families:
        s = result["families"][family]
        for model in ("draft", "target"):
            saved = json.loads((tmp_path / family / model / "model" / "config.json").read_text())
            assert saved["family"] == family, saved
        assert 0.0 <= s["rows"][0]["acceptance_rate"] <= 1.0 and s["rows"][0]["tok_s"] > 0
        assert f"### Speculative decoding (greedy), {family}: target" in text
        [header, row] = [r for r in table_rows(text) if r[0][0] == "k"][families.index(family)]
        assert header[:4] == ["k", "tok/s", "speed-up vs plain", "acceptance rate"] and row[0] == "2"
