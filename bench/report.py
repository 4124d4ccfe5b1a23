"""Markdown for the benchmark tables: a table, the ratio / target / met cells, the machine line; and the
error a section raises when the two sides it would time do not compute the same thing.

Every table() built inside `with recording() as tables:` is also kept there as headers and rows, which is
how scripts/benchmark.py --write-benchmarks gets each section's tables as data (bench/document.py)
without changing what the sections print."""
from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


class BenchmarkError(RuntimeError):
    """Ours and the reference disagree (outputs, losses, shapes), or a section cannot run as configured:
    nothing is timed. The benchmark CLIs turn it into an exit with its message."""


@dataclass(frozen=True)
class Table:
    """One table() call: its header and rows as the cells' text, and the Markdown it returned."""
    headers: list[str]
    rows: list[list[str]]
    markdown: str


_RECORDINGS: list[list[Table]] = []  # the open recording() blocks, innermost last


@contextmanager
def recording() -> Iterator[list[Table]]:
    """A list that collects every table() built inside the block, in order (nested blocks each get them)."""
    tables: list[Table] = []
    _RECORDINGS.append(tables)
    try:
        yield tables
    finally:
        _RECORDINGS[:] = [r for r in _RECORDINGS if r is not tables]


def table(headers: list[str], rows: list[list]) -> str:
    headers, rows = [str(h) for h in headers], [[str(cell) for cell in row] for row in rows]
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    text = "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])
    for tables in _RECORDINGS:
        tables.append(Table(headers, rows, text))
    return text


def yes_no(ok: bool) -> str:
    return "yes" if ok else "no"


def ratio_cell(row: dict, digits: int = 3, bold: bool = True) -> str:
    """"**1.234x** (lo-hi)": a summarize() row's median ratio and the interquartile range of its pairs."""
    lo, hi = row["pair_ratio_iqr"]
    ratio = f"{row['ratio']:.{digits}f}x"
    return f"{f'**{ratio}**' if bold else ratio} ({lo:.2f}-{hi:.2f})"


def target_verdict(value: float, target: float) -> list[str]:
    """[">= target", "yes"/"no"]: the target a ratio is held to, and whether it meets it."""
    return [f">= {target}x", yes_no(value >= target)]


def ratio_cells(row: dict, target: float) -> list[str]:
    """["**1.234x** (IQR)", ">= target", "yes"/"no"] for a summarize() row."""
    return [ratio_cell(row), *target_verdict(row["ratio"], target)]


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
