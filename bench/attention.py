"""Time and peak memory of `attend()` per backend, from short to long sequences, on any device; whether the
memory-efficient backends grow linearly in the sequence where `math` grows quadratically.

    rows, markdown = section(quick=False, device="cpu", png="attention.png")   # the benchmark section
    rows = sweep(Sweep(device="cuda", lengths=(512, 1024, 16384)))             # or its parts
    print(report(rows, config), summary_report(summarize(rows))); plot(rows, "attention.png")

One row per (backend, length, case): forward seconds (median of `repeats` after a warm-up), forward +
backward seconds, and the peak memory the forward allocated above its inputs (bench/attention_memory.py:
the profiler's allocation events on CPU, the allocator's peak on CUDA). A backend that cannot run a case
(xformers on CPU, math out of memory, math past `math_cap_bytes`) gives a row whose note says why its cells
are empty; a math row carries the analytic peak (`estimate_bytes`) whether it ran or not, and the summary
measures the others against it where math did not run.
"""
from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass, replace

import torch

from backbones.attention import BACKENDS, attend, available_backends
from backbones.inference import attention_kernel
from bench.attention_memory import GIB, math_forward_bytes, peak_bytes
from bench.report import table
from bench.timing import interleaved, synchronized


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
# On a CPU, math's scores at 16k tokens cost 10 bytes x heads x 16k^2 (bf16): 4 heads keep the shorter lengths
# in reach; 256 query channels in every case, so head width and GQA change the kernel, not the arithmetic.
CPU_CASES = (Case(4, 4, 64, False), Case(4, 4, 64, True), Case(2, 2, 128, True), Case(4, 1, 64, True))


@dataclass(frozen=True)
class Sweep:
    device: str = "cpu"
    dtype: torch.dtype = torch.bfloat16
    lengths: tuple[int, ...] = (512, 1024, 2048, 4096, 8192, 16384)
    cases: tuple[Case, ...] = CASES
    backends: tuple[str, ...] = BACKENDS
    batch: int = 1
    repeats: int = 5
    repeat_seconds: float | None = None  # fewer repeats where they would take longer than this (at least 1)
    math_cap_bytes: int | None = None  # math is not run where its analytic peak exceeds this
    train_up_to: int | None = None  # forward + backward timed up to this length (None: every length)


# The sections' defaults: scripts/benchmark.py --only attention [--quick] [--device cuda]
CPU = Sweep(cases=CPU_CASES, repeat_seconds=6.0, math_cap_bytes=6 * GIB, train_up_to=4096)
CUDA = Sweep(device="cuda")
QUICK = Sweep(lengths=(512, 1024), cases=(Case(4, 4, 64, False), Case(4, 1, 64, True)), repeats=2,
              math_cap_bytes=6 * GIB, train_up_to=512)


def settings(quick: bool, device: str) -> Sweep:
    """The section's sweep for a device: QUICK's shapes on it, else CPU or CUDA."""
    if quick:
        return replace(QUICK, device=device)
    return CUDA if torch.device(device).type == "cuda" else replace(CPU, device=device)


def section(quick: bool = False, device: str = "cpu", png: str | None = None, log=print) -> tuple[list[dict], str]:
    """The benchmark section: sweep, then the rows and their Markdown (the table and the summary that checks
    the linear-against-quadratic claim); the log-log plot written to `png` if given."""
    config = settings(quick, device)
    rows = sweep(config, log)
    if png:
        plot(rows, png)
    plotted = f"\nLog-log plot: {png}\n" if png else ""
    return rows, report(rows, config) + "\n\n" + summary_report(summarize(rows)) + plotted


def _timed(fn, device: str, repeats: int, budget: float | None) -> dict:
    """Seconds of up to `repeats` calls after one warm-up (kernels chosen, workspaces allocated), fewer where
    `repeats` calls would take longer than `budget` seconds: {"s": median, "iqr": (q1, q3), "n": calls timed}."""
    fn = synchronized(fn, device)
    start = time.perf_counter()
    fn()
    if budget is not None:
        repeats = max(1, min(repeats, int(budget / (time.perf_counter() - start))))
    times = sorted(interleaved({"fn": fn}, 0, repeats)["fn"])
    quartiles = statistics.quantiles(times, n=4, method="inclusive") if len(times) > 1 else [times[0]] * 3
    return {"s": statistics.median(times), "iqr": (quartiles[0], quartiles[2]), "n": repeats}


def _inputs(length: int, case: Case, config: Sweep) -> list[torch.Tensor]:
    g = torch.Generator(device=config.device).manual_seed(0)
    # (B, T, heads, Dh), to be transposed to (B, heads, T, Dh): the layout MultiHeadAttention hands attend()
    return [torch.randn(config.batch, length, n, case.head_dim, generator=g, device=config.device,
                        dtype=config.dtype).requires_grad_() for n in (case.heads, case.kv_heads, case.kv_heads)]


def _skip(backend: str, length: int, case: Case, config: Sweep, row: dict) -> str | None:
    """Why not to run: the backend cannot take these inputs, or math would pass the memory cap."""
    probe = torch.empty(0, case.heads, 0, case.head_dim, device=config.device, dtype=config.dtype)
    if (reason := available_backends(probe)[backend]) is not None:
        return reason
    if backend == "math" and config.math_cap_bytes is not None and row["estimate_bytes"] > config.math_cap_bytes:
        return f"not run: would need {row['estimate_bytes'] / GIB:.1f} GiB (cap {config.math_cap_bytes / GIB:.1f} GiB)"
    return None


def measure(backend: str, length: int, case: Case, config: Sweep) -> dict:
    """One row: forward and forward+backward seconds and forward peak memory, or why it could not run."""
    row = {"backend": backend, "length": length, "peak_bytes": None, "forward_s": None, "train_s": None,
           "case": case.label, "causal": case.causal, "head_dim": case.head_dim, "heads": case.heads,
           "kv_heads": case.kv_heads}
    if backend == "math":
        row["estimate_bytes"] = math_forward_bytes(config.batch, case.heads, length, case.head_dim, config.dtype,
                                                   case.causal)
    if (reason := _skip(backend, length, case, config, row)) is not None:
        return {**row, "note": reason}
    leaves = _inputs(length, case, config)
    q, k, v = (t.transpose(1, 2) for t in leaves)  # (B, heads, T, Dh)

    def forward():
        with torch.no_grad():
            return attend(q, k, v, causal=case.causal, backend=backend)

    def train():
        attend(q, k, v, causal=case.causal, backend=backend).sum().backward()
        for leaf in leaves:
            leaf.grad = None

    with torch.no_grad():  # which kernel attend() hands the forward to: ours where it takes the inputs
        ours = backend == "sdpa" and attention_kernel.bf16_applies(q, k, v, None, case.causal, 0.0)
    row["kernel"] = "zoo::bf16_attention" if ours else None
    phases = [("peak_bytes", lambda: peak_bytes(forward, config.device)),
              ("forward", lambda: _timed(forward, config.device, config.repeats, config.repeat_seconds))]
    if config.train_up_to is None or length <= config.train_up_to:
        phases.append(("train", lambda: _timed(train, config.device, config.repeats, config.repeat_seconds)))
    for key, phase in phases:
        try:
            result = phase()
        except torch.OutOfMemoryError:
            row["note"] = "backward out of memory" if key == "train" else "out of memory"
            for leaf in leaves:
                leaf.grad = None
            break
        if key == "peak_bytes":
            row[key] = result
        else:
            row[f"{key}_s"], row[f"{key}_iqr"] = result["s"], result["iqr"]
            row.setdefault("repeats", result["n"])
    q = k = v = leaves = None  # the closures above hold them: free the inputs before the cache is emptied
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


def _spread_cell(row: dict, key: str) -> str:
    """Median ms with its interquartile range: "1.234 (1.200-1.300)"."""
    if row.get(f"{key}_s") is None:
        return "n/a"
    low, high = row[f"{key}_iqr"]
    return f"{row[f'{key}_s'] * 1e3:.3f} ({low * 1e3:.3f}-{high * 1e3:.3f})"


def _line(row: dict) -> str:
    return (f"  attention {row['case']} T={row['length']} {row['backend']}: forward "
            f"{_cell(row['forward_s'], 1e3, '.2f')} ms, train {_cell(row['train_s'], 1e3, '.2f')} ms, peak "
            f"{_cell(row['peak_bytes'], 2**-20, ',.0f')} MiB {row.get('note', '')}".rstrip())


def _flops(row: dict, train: bool) -> float:
    """softmax(QK^T)V's two products (4 T^2 Dh H per batch row; half under causality); backward twice that."""
    flops = 4 * row["length"] ** 2 * row["head_dim"] * row["heads"] * (0.5 if row["causal"] else 1.0)
    return flops * (3.5 if train else 1.0)  # FlashAttention-2's accounting: backward = 2.5 forward


def report(rows: list[dict], config: Sweep) -> str:
    """The rows as one Markdown table, under a line that says how they were measured."""
    cpu = torch.device(config.device).type == "cpu"
    threads = f", {torch.get_num_threads()} threads" if cpu else ""
    fewer = (f" (fewer where they would take over {config.repeat_seconds:g} s; the `n` column)"
             if config.repeat_seconds else "")
    train = f"; fwd+bwd timed up to {config.train_up_to} tokens" if config.train_up_to else ""
    probe = "torch.profiler's allocation events" if cpu else "the CUDA allocator's peak"
    head = (f"\nattend() per backend, {config.device}{threads}, {str(config.dtype).removeprefix('torch.')}, batch "
            f"{config.batch}; median of {config.repeats} after a warm-up{fewer}{train}, interquartile range in "
            f"brackets. sdpa (zoo::bf16_attention): attend()'s sdpa backend hands that forward to our kernel on a CPU "
            f"with AVX512-BF16 and without AMX "
            f"(backbones/inference/attention_kernel.py; with gradients too where kv heads equal query heads, its "
            f"backward torch's flash kernel's). \"peak\": memory the "
            f"forward allocated above its inputs ({probe}); TFLOP/s counts the two products only (causal: half)\n")
    cells = []
    for r in rows:
        fwd_tflops = None if r["forward_s"] is None else _flops(r, False) / r["forward_s"] / 1e12
        train_tflops = None if r["train_s"] is None else _flops(r, True) / r["train_s"] / 1e12
        backend = f"{r['backend']} ({r['kernel']})" if r.get("kernel") else r["backend"]
        cells.append([r["case"], r["length"], backend, _spread_cell(r, "forward"),
                      _cell(fwd_tflops, 1, ".3f"), r.get("repeats", "-"), _spread_cell(r, "train"),
                      _cell(train_tflops, 1, ".3f"), _cell(r["peak_bytes"], 2**-20, ",.1f"), r.get("note") or "-"])
    return head + "\n" + table(["case", "tokens", "backend", "forward ms", "fwd TFLOP/s", "n", "fwd+bwd ms",
                                "fwd+bwd TFLOP/s", "peak MiB", "note"], cells)


def exponent(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of log y against log x: ~1 for linear growth, ~2 for quadratic (None under 2 points)."""
    if len(points) < 2:
        return None
    xs, ys = [math.log(x) for x, _ in points], [math.log(y) for _, y in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def summarize(rows: list[dict]) -> list[dict]:
    """Per case and backend that ran: the peak at the case's longest length as a fraction of math's there
    (measured, or its analytic estimate where math did not run), and the growth exponents of peak memory and
    forward time over the longer half of the lengths it ran (at least two), where what grows with the
    sequence outweighs fixed workspaces and call overheads."""
    out = []
    for case in dict.fromkeys(r["case"] for r in rows):
        mine = [r for r in rows if r["case"] == case]
        longest = max(r["length"] for r in mine)
        maths = [r for r in mine if r["backend"] == "math" and r["length"] == longest]
        math_row = maths[0] if maths else {}
        math_bytes = math_row.get("peak_bytes") or math_row.get("estimate_bytes")
        for backend in dict.fromkeys(r["backend"] for r in mine):
            measured = sorted((r for r in mine if r["backend"] == backend and r["peak_bytes"]),
                              key=lambda r: r["length"])
            if not measured:
                continue
            upper = measured[-max(2, (len(measured) + 1) // 2):]
            peak = measured[-1]["peak_bytes"] if measured[-1]["length"] == longest else None
            out.append({"case": case, "backend": backend, "length": longest, "peak_bytes": peak,
                        "math_bytes": math_bytes, "math_measured": bool(math_row.get("peak_bytes")),
                        "fraction": None if peak is None or not math_bytes else peak / math_bytes,
                        "fit_lengths": [r["length"] for r in upper],
                        "memory_exponent": exponent([(r["length"], r["peak_bytes"]) for r in upper]),
                        "time_exponent": exponent([(r["length"], r["forward_s"]) for r in upper]),
                        "estimate_ratio": [r["peak_bytes"] / r["estimate_bytes"] for r in measured
                                           if "estimate_bytes" in r]})
    return out


def summary_report(summary: list[dict]) -> str:
    """The claim, checked: each memory-efficient backend's peak at the longest length is at most a tenth of
    math's, its memory exponent near 1 where math's is near 2."""
    cells, verdicts, estimated = [], [], set()
    for s in summary:
        is_math = s["backend"] == "math"
        if not s["math_measured"] and s["math_bytes"]:
            estimated.add(s["case"])
        math_cell = _cell(s["math_bytes"], 2**-20, ",.1f") + ("" if s["math_measured"] else " (estimate: not run)")
        ok = "-" if is_math or s["fraction"] is None else ("yes" if s["fraction"] <= 0.1 else "no")
        if ok != "-":
            verdicts.append(ok == "yes")
        cells.append([s["case"], s["backend"], s["length"], _cell(s["peak_bytes"], 2**-20, ",.1f"), math_cell,
                      "-" if is_math else _cell(s["fraction"], 1, ".4f"), ok,
                      f"{s['fit_lengths'][0]}-{s['fit_lengths'][-1]}", _cell(s["memory_exponent"], 1, ".2f"),
                      _cell(s["time_exponent"], 1, ".2f")])
    ratios = [x for s in summary for x in s["estimate_ratio"]]
    lines = ["Memory-efficient backends against math at the longest length: peak as a fraction of math's (claim: "
             "at most 1/10), and growth exponents, the least-squares slope of log peak memory / log forward time "
             "against log tokens over the lengths named (1: linear, 2: quadratic).", "",
             table(["case", "backend", "tokens", "peak MiB", "math peak MiB", "fraction of math", "<= 1/10",
                    "fit over", "memory exponent", "time exponent"], cells), ""]
    if verdicts:
        lines.append(f"Claim met: {sum(verdicts)} of {len(verdicts)} backend and case pairs.")
    if estimated:
        checked = (f"; where math ran, its measured peak was {min(ratios):.3f}-{max(ratios):.3f} x that estimate"
                   if ratios else "")
        lines.append(f"math did not run at the longest length in {len(estimated)} case(s) ({'; '.join(estimated)}): "
                     f"its peak there is math_forward_bytes(), the analytic estimate{checked}.")
    return "\n".join(lines)


def plot(rows: list[dict], path: str) -> None:
    """Log-log forward time and peak memory against length: a colour per backend, a line style per case; math's
    analytic peak dashed where it was not run."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(13, 5))
    colours = {b: f"C{i}" for i, b in enumerate(dict.fromkeys(r["backend"] for r in rows))}
    styles = dict(zip(dict.fromkeys(r["case"] for r in rows), ("-", "--", "-.", ":") * 4))
    for case, style in styles.items():
        for backend, colour in colours.items():
            mine = [r for r in rows if r["case"] == case and r["backend"] == backend]
            for ax, key, scale in ((axes[0], "forward_s", 1e3), (axes[1], "peak_bytes", 2**-20)):
                done = [r for r in mine if r[key] is not None]
                if done:
                    ax.plot([r["length"] for r in done], [r[key] * scale for r in done], style, color=colour,
                            marker="o", markersize=3, label=f"{backend}, {case}")
            skipped = [r for r in mine if r["peak_bytes"] is None and "estimate_bytes" in r]
            if skipped:
                axes[1].plot([r["length"] for r in skipped], [r["estimate_bytes"] / 2**20 for r in skipped], "x",
                             color=colour, label=f"{backend} not run (estimate), {case}")
    for ax, ylabel in zip(axes, ("forward ms", "peak MiB above inputs")):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("tokens")
        ax.set_ylabel(ylabel)
        ax.grid(True, which="both", alpha=0.3)
    axes[1].legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
