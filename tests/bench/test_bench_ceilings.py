"""bench/ceilings.py: the machine's matmul and bandwidth figures (quick mode: small sizes, 2 repeats), their
Markdown table, and scripts/benchmark.py --only ceilings."""
import json
import math
import os
import subprocess
import sys

import pytest
import torch

from backbones.inference import gemv
from bench import ceilings
from tests.helpers import ROOT

DTYPES = {torch.float32: "fp32", torch.bfloat16: "bf16"}
HEADER = ["probe", "shape/size", "median", "spread (IQR)", "unit"]


@pytest.fixture(scope="module")
def quick():
    return ceilings.run(quick=True)


def table_rows(text: str) -> list[list[str]]:
    """The one Markdown table in `text` as rows of cells (header and separator included), checked well formed."""
    lines = [line for line in text.splitlines() if line.startswith("|")]
    rows = [[cell.strip() for cell in line[1:-1].split("|")] for line in lines]
    assert all(line.endswith("|") for line in lines) and all(len(row) == len(HEADER) for row in rows), lines
    assert rows[0] == HEADER and rows[1] == ["---"] * len(HEADER)
    return rows


def test_quick_mode_gives_a_positive_finite_figure_for_every_probe(quick):
    n = ceilings.QUICK.gemm[0]
    expected, skipped = [f"matmul fp32 n={n}", f"matmul bf16 n={n}", "copy", "read"], []
    for dtype, name in DTYPES.items():  # zoo::gemv where it runs the dtype, else said why not
        expected.append(f"matvec {name} torch.mv")
        (expected if gemv.available(dtype) else skipped).append(f"matvec {name} zoo::gemv")
    assert list(quick["probes"]) == expected and list(quick["skipped"]) == skipped
    for name, figure in quick["probes"].items():
        lo, hi = figure["iqr"]
        assert all(math.isfinite(x) and x > 0 for x in (figure["median"], lo, hi)), (name, figure)
        assert lo <= figure["median"] <= hi and len(figure["seconds"]) == ceilings.QUICK.repeats
        assert figure["unit"] == ("GFLOP/s" if name.startswith("matmul") else "GB/s")
    assert quick["probes"][f"matmul fp32 n={n}"]["work"] == 2 * n**3
    assert quick["threads"] == torch.get_num_threads() and quick["sizes"]["buffer_mb"] == ceilings.QUICK.buffer_mb


def test_the_table_has_one_row_per_probe(quick):
    text = ceilings.tables(quick)
    header, _, *rows = table_rows(text)
    assert [row[0] for row in rows] == list(quick["probes"])
    assert all(row[-1] in ("GFLOP/s", "GB/s") and float(row[2].strip("*")) > 0 for row in rows)
    assert f"### Machine ceilings (torch threads: {quick['threads']})" in text
    assert text.count("Not measured: ") == len(quick["skipped"])


def test_a_figure_is_work_over_seconds_per_call():
    probe = ceilings.Probe(fn=lambda: None, work=4 * 10**9, unit="GB/s", size="-")
    figure = ceilings.figure(probe, [1.0, 2.0, 4.0])
    assert figure["median"] == 2.0 and figure["iqr"] == [1.5, 3.0]
    assert ceilings.figure(probe, [2.0])["iqr"] == [2.0, 2.0]


def test_benchmark_only_ceilings_quick_prints_the_table(tmp_path):
    env, out = {**os.environ, "OMP_NUM_THREADS": "1"}, tmp_path / "bench.json"
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "benchmark.py"), "--only", "ceilings", "--quick",
                          "--json", str(out)], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "### Machine ceilings (torch threads: 1)" in run.stdout and "\nMachine: " in run.stdout
    _, _, *rows = table_rows(run.stdout)
    names = [row[0] for row in rows]
    assert names[2:4] == ["copy", "read"] and "matvec bf16 torch.mv" in names and names[0].startswith("matmul fp32")
    assert list(json.loads(out.read_text())["ceilings"]["probes"]) == names
