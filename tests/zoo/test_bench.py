"""zoo/bench.py: the side-by-side timing the benchmark scripts share."""
import pytest
import torch

from zoo.bench import (autocast, interleaved, machine, matmul_seconds, ratio_cells, reference_pair, summarize,
                        table)


def test_interleaved_alternates_sides_and_times_every_call():
    calls = []
    times = interleaved({"ours": lambda: calls.append("o"), "ref": lambda: calls.append("r")}, warmup=1, repeats=4)
    assert calls == ["o", "r"] + ["o", "r", "r", "o", "o", "r", "r", "o"]  # warm-up, then ABBA
    assert {k: len(v) for k, v in times.items()} == {"ours": 4, "ref": 4}
    assert all(t >= 0 for v in times.values() for t in v)


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


def test_matmul_seconds_counts_only_the_arithmetic_kernels():
    a = torch.randn(256, 256)
    assert matmul_seconds(lambda: a + a) == 0.0
    mm = matmul_seconds(lambda: (a @ a).relu())
    assert mm > 0.0
    both = matmul_seconds(lambda: [a @ a for _ in range(4)])
    assert both > mm  # four GEMMs take longer than one
