"""Time and peak memory of `attend()` per backend, from short to long sequences, on any device.

    rows = sweep(Sweep(device="cuda", lengths=(512, 1024, 16384)))
    print(report(rows)); plot(rows, "attention.png")

One row per (backend, length, case): forward seconds (median of `repeats` after a warm-up), forward +
backward seconds, and the peak memory the call allocated above its inputs (CUDA: the allocator's peak;
CPU: not measured, None). A backend that cannot run a case (xformers on CPU, math out of memory) gives a
row whose note says why its cells are empty.
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass

import torch

from backbones.attention import BACKENDS, attend, available_backends
from zoo.bench.report import table
from zoo.bench.timing import interleaved, peak_bytes, synchronized


@dataclass(frozen=True)
class Case:
    """One attention shape: heads, key/value heads, head width, causal or not."""

    heads: int
    kv_heads: int
    head_dim: int
    causal: bool

    @property
    def label(self) -> str:
        gqa = f", GQA {self.heads}/{self.kv_heads}" if self.kv_heads != self.heads else ""
        return f"H{self.heads} Dh{self.head_dim}{gqa}{', causal' if self.causal else ''}"


CASES = (Case(16, 16, 64, False), Case(16, 16, 64, True), Case(8, 8, 128, True), Case(32, 8, 64, True))


@dataclass(frozen=True)
class Sweep:
    device: str = "cpu"
    dtype: torch.dtype = torch.bfloat16
    lengths: tuple[int, ...] = (512, 1024, 2048, 4096, 8192, 16384)
    cases: tuple[Case, ...] = CASES
    backends: tuple[str, ...] = BACKENDS
    batch: int = 1
    repeats: int = 5


def _median_seconds(fn, device: str, repeats: int) -> float:
    """Median seconds of `repeats` calls after one warm-up (kernels chosen, workspaces allocated)."""
    return statistics.median(interleaved({"fn": synchronized(fn, device)}, 1, repeats)["fn"])


def measure(backend: str, length: int, case: Case, config: Sweep) -> dict:
    """One row: forward and forward+backward seconds and forward peak memory, or why it could not run."""
    row = {"backend": backend, "length": length, "peak_bytes": None, "forward_s": None, "train_s": None, "case": case.label, "causal": case.causal,
           "head_dim": case.head_dim, "heads": case.heads, "kv_heads": case.kv_heads}
    g = torch.Generator(device=config.device).manual_seed(0)
    heads = (case.heads, case.kv_heads, case.kv_heads)
    # (B, T, heads, Dh) transposed to (B, heads, T, Dh): the layout MultiHeadAttention hands attend()
    leaves = [torch.randn(config.batch, length, n, case.head_dim, generator=g, device=config.device,
                          dtype=config.dtype).requires_grad_() for n in heads]
    q, k, v = (t.transpose(1, 2) for t in leaves)
    reason = available_backends(q)[backend]
    if reason is not None:
        return {**row, "note": reason}

    def forward():
        with torch.no_grad():
            return attend(q, k, v, causal=case.causal, backend=backend)

    def train():
        attend(q, k, v, causal=case.causal, backend=backend).sum().backward()
        for leaf in leaves:
            leaf.grad = None

    phases = (("peak_bytes", lambda: peak_bytes(forward, config.device)),
              ("forward_s", lambda: _median_seconds(forward, config.device, config.repeats)),
              ("train_s", lambda: _median_seconds(train, config.device, config.repeats)))
    for key, phase in phases:
        try:
            row[key] = phase()
        except torch.OutOfMemoryError:
            row["note"] = {"peak_bytes": "out of memory", "forward_s": "out of memory",
                           "train_s": "backward out of memory"}[key]
            for leaf in leaves:
                leaf.grad = None
            if config.device.startswith("cuda"):
                torch.cuda.empty_cache()
            break
    del q, k, v, leaves
    if config.device.startswith("cuda"):
        torch.cuda.empty_cache()
    return row


def sweep(config: Sweep, log=print) -> list[dict]:
    rows = []
    for case in config.cases:
        for length in config.lengths:
            for backend in config.backends:
                rows.append(measure(backend, length, case, config))
                log(_line(rows[-1]))
    return rows


def _cell(value: float | None, scale: float, fmt: str) -> str:
    return "n/a" if value is None else format(value * scale, fmt)


def _line(row: dict) -> str:
    return (f"  attention {row['case']} T={row['length']} {row['backend']}: forward "
            f"{_cell(row['forward_s'], 1e3, '.2f')} ms, train {_cell(row['train_s'], 1e3, '.2f')} ms, peak "
            f"{_cell(row['peak_bytes'], 2**-20, ',.0f')} MiB {row.get('note', '')}".rstrip())


def _flops(row: dict, train: bool) -> float:
    """softmax(QK^T)V's two products (4 T^2 Dh H per batch row; half under causality); backward twice that."""
    flops = 4 * row["length"] ** 2 * row["head_dim"] * row["heads"] * (0.5 if row["causal"] else 1.0)
    return flops * (3.5 if train else 1.0)  # FlashAttention-2's accounting: backward = 2.5 forward


def report(rows: list[dict], config: Sweep) -> str:
    head = (f"\nattend() per backend, {config.device}, {str(config.dtype).removeprefix('torch.')}, batch "
            f"{config.batch}; median of {config.repeats} after a warm-up. \"peak\": memory the forward allocated "
            "above its inputs; TFLOP/s counts the two products only (causal: half)\n")
    cells = []
    for r in rows:
        fwd_tflops = None if r["forward_s"] is None else _flops(r, False) / r["forward_s"] / 1e12
        train_tflops = None if r["train_s"] is None else _flops(r, True) / r["train_s"] / 1e12
        cells.append([r["case"], r["length"], r["backend"], _cell(r["forward_s"], 1e3, ".3f"),
                      _cell(fwd_tflops, 1, ".1f"), _cell(r["train_s"], 1e3, ".3f"), _cell(train_tflops, 1, ".1f"),
                      _cell(r["peak_bytes"], 2**-20, ",.0f"), r.get("note", "-")])
    return head + "\n" + table(["case", "tokens", "backend", "forward ms", "fwd TFLOP/s", "fwd+bwd ms",
                                "fwd+bwd TFLOP/s", "peak MiB", "note"], cells)


def plot(rows: list[dict], path: str) -> None:
    """Log-log forward time and peak memory against length, one line per backend and case."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for case in dict.fromkeys(r["case"] for r in rows):
        for backend in dict.fromkeys(r["backend"] for r in rows):
            mine = [r for r in rows if r["case"] == case and r["backend"] == backend]
            timed = [r for r in mine if r["forward_s"] is not None]
            measured = [r for r in mine if r["peak_bytes"] is not None]
            if timed:
                axes[0].plot([r["length"] for r in timed], [r["forward_s"] * 1e3 for r in timed], marker="o",
                             label=f"{backend}, {case}")
            if measured:
                axes[1].plot([r["length"] for r in measured], [r["peak_bytes"] / 2**20 for r in measured],
                             marker="o", label=f"{backend}, {case}")
    for ax, ylabel in zip(axes, ("forward ms", "peak MiB above inputs")):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("tokens")
        ax.set_ylabel(ylabel)
        ax.grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
