"""Markdown for the benchmark tables: a table, the ratio / target / met cells, the machine line; and the
error a section raises when the two sides it would time do not compute the same thing."""
from __future__ import annotations

import json


class BenchmarkError(RuntimeError):
    """Ours and the reference disagree (outputs, losses, shapes), or a section cannot run as configured:
    nothing is timed. The benchmark CLIs turn it into an exit with its message."""


def table(headers: list[str], rows: list[list]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    return "\n".join(lines + ["| " + " | ".join(map(str, row)) + " |" for row in rows])


def met(ok: bool) -> str:
    return "yes" if ok else "no"


def ratio_cells(row: dict, target: float) -> list[str]:
    """["**1.234x** (IQR)", ">= target", "yes"/"no"] for a summarize() row."""
    lo, hi = row["pair_ratio_iqr"]
    return [f"**{row['ratio']:.3f}x** ({lo:.2f}-{hi:.2f})", f">= {target}x", met(row["ratio"] >= target)]


def machine_line(m: dict, others_share: float) -> str:
    """"Machine: ..." for a machine() dict and the CPU share other processes used during the run."""
    return (f"Machine: {m['cpu']}, {m['cores']} cores ({m['isa']}), torch threads {m['threads']}, torch {m['torch']}, "
            f"transformers {m['transformers']}, Python {m['python']}; other processes used {others_share:.0%} of the "
            "CPUs meanwhile")


def run_cli(main) -> None:
    """A benchmark script's entry point: main(), and a BenchmarkError (the two sides disagree, nothing was
    timed) as an exit with its message instead of a traceback."""
    try:
        main()
    except BenchmarkError as error:
        raise SystemExit(str(error)) from None


def write_json(path: str | None, results: dict) -> None:
    """Every measurement, for --json (nothing when path is None)."""
    if path:
        with open(path, "w") as f:
            json.dump(results, f, indent=1, default=str)
