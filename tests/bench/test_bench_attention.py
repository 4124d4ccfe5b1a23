"""bench/attention.py and attention_memory.py: the CPU memory probe on known allocations, math's analytic
peak against its measurement, the quick section (rows, quadratic math against linear sdpa, the skip past the
memory cap, the Markdown and the PNG)."""
import re
from dataclasses import replace

import pytest
import torch

from backbones.inference import attention_kernel, gemv
from bench import attention
from bench.attention_memory import GIB, cpu_peak_bytes, math_forward_bytes, peak_bytes
from tests.helpers import markdown_tables as table_rows

MIB = 2**20


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    png = tmp_path_factory.mktemp("attention") / "attention.png"
    rows, markdown = attention.section(quick=True, device="cpu", png=str(png), log=lambda line: None)
    return rows, markdown, png


def _peak(rows, backend, length, case=attention.QUICK.cases[0].label):
    [row] = [r for r in rows if (r["backend"], r["length"], r["case"]) == (backend, length, case)]
    return row["peak_bytes"]


def test_cpu_probe_reads_a_known_allocation():
    """64 MiB allocated and freed reads 64 MiB; two alive at once 128 MiB; one after the other 64 MiB; a tensor
    that existed before the call, freed inside it, does not count (nor take the count below zero)."""
    n = 64 * MIB

    def one():
        torch.ones(n, dtype=torch.uint8)

    def two_at_once():
        a = torch.ones(n, dtype=torch.uint8)
        b = torch.ones(n, dtype=torch.uint8)
        del a, b

    def in_turn():
        for _ in range(3):
            torch.ones(n, dtype=torch.uint8)

    held = [torch.ones(n, dtype=torch.uint8)]

    def free_held():
        held.clear()
        torch.ones(n // 2, dtype=torch.uint8)

    assert abs(cpu_peak_bytes(one) - n) <= 0.01 * n
    assert abs(cpu_peak_bytes(two_at_once) - 2 * n) <= 0.01 * n
    assert abs(cpu_peak_bytes(in_turn) - n) <= 0.01 * n
    assert abs(cpu_peak_bytes(free_held) - n // 2) <= 0.01 * n
    assert peak_bytes(one, "cpu") == cpu_peak_bytes(one)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("causal", [False, True])
def test_math_estimate_matches_its_measured_peak(dtype, causal):
    """math_forward_bytes, which decides what is not run, is within 2% of the probe's reading at 512 tokens."""
    q, k, v = (torch.randn(1, 4, 512, 64, dtype=dtype) for _ in range(3))
    measured = cpu_peak_bytes(lambda: attention.attend(q, k, v, causal=causal, backend="math"))
    estimate = math_forward_bytes(1, 4, 512, 64, dtype, causal)
    assert abs(measured / estimate - 1) < 0.02, (measured, estimate)


def test_quick_section_times_and_measures_sdpa_and_math(quick):
    rows, _, _ = quick
    ran = [r for r in rows if r["backend"] in ("sdpa", "math")]
    assert {(r["backend"], r["length"]) for r in ran} == {(b, n) for b in ("sdpa", "math") for n in (512, 1024)}
    assert all(r["forward_s"] > 0 and r["peak_bytes"] > 0 and r["repeats"] >= 1 for r in ran)
    assert all(r["forward_iqr"][0] <= r["forward_s"] <= r["forward_iqr"][1] for r in ran)  # each with its spread
    assert all(r["train_s"] > 0 for r in ran if r["length"] == 512)  # QUICK times fwd+bwd up to 512 tokens only
    assert all(r["train_s"] is None for r in ran if r["length"] == 1024)
    assert all(r["note"] == "xformers has no kernels for device cpu" for r in rows if r["backend"] == "xformers")


def test_math_grows_quadratically_and_sdpa_linearly(quick):
    """Doubling the tokens: math's peak x4 (its (T, T) scores), sdpa's far less. Not exactly x2 at these
    lengths: torch's CPU flash kernel tiles 512 queries by 64 and 1024 by 256, so its scratch grows with the
    tile (x2.7-2.9 on an AVX512-BF16 EPYC, under x2.6 on the AMX Xeon); 1024 -> 2048 is x1.47 on that EPYC. The full
    run fits the exponent over 2k-16k (0.77-0.87 measured)."""
    rows, _, _ = quick
    for case in attention.QUICK.cases:
        math_growth = _peak(rows, "math", 1024, case.label) / _peak(rows, "math", 512, case.label)
        sdpa_growth = _peak(rows, "sdpa", 1024, case.label) / _peak(rows, "sdpa", 512, case.label)
        assert 3.6 < math_growth < 4.4, (case, math_growth)
        assert 1.5 < sdpa_growth < 3.2 and sdpa_growth < 0.8 * math_growth, (case, sdpa_growth, math_growth)
    summary = attention.summarize(rows)
    exponents = {s["backend"]: s["memory_exponent"] for s in summary if s["case"] == attention.QUICK.cases[0].label}
    assert abs(exponents["math"] - 2) < 0.2 and 0.6 < exponents["sdpa"] < 1.7, exponents


def test_math_past_the_cap_is_not_run_and_says_why():
    """The CPU default's math at 16k tokens (4 heads, bf16: 10 GiB of scores) is a row with a reason, not a run;
    so is any shape past a smaller cap."""
    row = attention.measure("math", 16384, attention.CPU_CASES[0], attention.CPU)
    assert row["note"] == "not run: would need 10.0 GiB (cap 6.0 GiB)"
    assert row["peak_bytes"] is None and row["forward_s"] is None and row["train_s"] is None
    assert row["estimate_bytes"] == math_forward_bytes(1, 4, 16384, 64, torch.bfloat16, False) > 6 * GIB
    small = replace(attention.QUICK, math_cap_bytes=MIB)
    assert attention.measure("math", 256, attention.QUICK.cases[0], small)["note"].startswith("not run: would need")
    assert attention.measure("sdpa", 256, attention.QUICK.cases[0], small)["peak_bytes"] > 0  # the cap is math's


def test_summary_measures_against_math_or_its_estimate():
    """Where math did not run at the longest length, the fraction is against its estimate and the text says so."""
    rows = [{"case": "c", "backend": b, "length": n, "peak_bytes": p, "forward_s": p / 1e9}
            for b, n, p in (("sdpa", 512, 1e6), ("sdpa", 1024, 2e6), ("math", 512, 4e7))]
    rows.append({"case": "c", "backend": "math", "length": 1024, "peak_bytes": None, "forward_s": None,
                 "estimate_bytes": 1.6e8})
    rows[2]["estimate_bytes"] = 4e7
    sdpa, math_row = attention.summarize(rows)
    assert sdpa["fraction"] == pytest.approx(2e6 / 1.6e8) and not sdpa["math_measured"]
    assert sdpa["memory_exponent"] == pytest.approx(1.0) and math_row["peak_bytes"] is None
    text = attention.summary_report([sdpa, math_row])
    assert "(estimate: not run)" in text and "Claim met: 1 of 1" in text and "1.000-1.000 x that estimate" in text


def test_exponent_of_power_laws():
    assert attention.exponent([(n, 3 * n) for n in (128, 256, 512)]) == pytest.approx(1.0)
    assert attention.exponent([(n, n * n) for n in (128, 256, 512)]) == pytest.approx(2.0)
    assert attention.exponent([(128, 1.0)]) is None


def test_markdown_tables_are_well_formed(quick):
    rows, markdown, png = quick
    sweep_table, summary_table = table_rows(markdown)
    assert sweep_table[0] == ["case", "tokens", "backend", "forward ms", "fwd TFLOP/s", "n", "fwd+bwd ms",
                              "fwd+bwd TFLOP/s", "peak MiB", "note"]
    assert len(sweep_table) == 1 + len(rows)
    timed = [row for row in sweep_table[1:] if row[3] != "n/a"]
    assert timed and all(re.fullmatch(r"\d+\.\d{3} \(\d+\.\d{3}-\d+\.\d{3}\)", row[3]) for row in timed)
    assert summary_table[0][:3] == ["case", "backend", "tokens"]
    assert {row[1] for row in summary_table[1:]} == {"sdpa", "math"}
    assert all(row[6] == "yes" for row in summary_table[1:] if row[1] == "sdpa")
    assert f"Log-log plot: {png}" in markdown


def test_png_is_written(quick):
    _, _, png = quick
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


@pytest.mark.skipif(gemv.unsupported_reason(torch.bfloat16) is not None, reason="no bf16 zoo operators here")
def test_rows_name_our_kernel_where_sdpa_hands_the_forward_to_it(monkeypatch):
    """With the zoo operators loaded, bf16 sdpa forwards on an AVX512-BF16 CPU without AMX run
    zoo::bf16_attention: the row and the table say so; fp32 and math rows, and any row on an AMX CPU, name no
    kernel of ours."""
    assert gemv.available(torch.bfloat16)
    monkeypatch.setattr(attention_kernel, "ROUTE_BF16", True)  # as on a CPU without AMX
    case = attention.QUICK.cases[0]
    row = attention.measure("sdpa", 256, case, attention.QUICK)
    assert row["kernel"] == "zoo::bf16_attention" and row["forward_s"] > 0
    assert attention.measure("math", 256, case, attention.QUICK)["kernel"] is None
    assert attention.measure("sdpa", 256, case, replace(attention.QUICK, dtype=torch.float32))["kernel"] is None
    [header, line] = table_rows(attention.report([row], attention.QUICK))[0]
    assert line[header.index("backend")] == "sdpa (zoo::bf16_attention)"
    monkeypatch.setattr(attention_kernel, "ROUTE_BF16", False)  # as on an AMX CPU
    assert attention.measure("sdpa", 256, case, attention.QUICK)["kernel"] is None
