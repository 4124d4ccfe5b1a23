"""Side-by-side timing for the benchmark scripts (scripts/benchmark*.py): ours against a reference,
measured in one process, interleaved, on the same weights.

    ours, ref = reference_pair("gpt2")           # transformers model + its zoo.from_hf conversion
    times = interleaved({"ours": f, "ref": g}, warmup=2, repeats=10)
    row = summarize(times, work=batch * seq)     # medians, and ours' speed-up as the median over pairs

Load from other processes hits both sides alike, because the calls alternate
(ABBA); `others_share` says how busy the machine was meanwhile, `machine()`
what it was. Speed targets live here as ratios, never as timed tests.
"""
from __future__ import annotations

import os
import platform
import statistics
import time
import warnings
from collections.abc import Callable
from contextlib import nullcontext

import torch

import zoo
from zoo.registry import config_from_dict

DTYPES = {"fp32": None, "bf16": torch.bfloat16}
NO_DROPOUT = {"gpt": {"dropout": 0.0}, "bert": {"dropout": 0.0, "attn_dropout": 0.0}}


# ----------------------------------------------------------------------------- the references


def _hf_gpt2(c) -> torch.nn.Module:
    import transformers

    return transformers.GPT2LMHeadModel(transformers.GPT2Config(
        vocab_size=c.vocab_size, n_positions=c.max_positions, n_embd=c.dim, n_layer=c.depth, n_head=c.num_heads,
        n_inner=c.mlp_hidden, layer_norm_epsilon=c.norm_eps, activation_function="gelu_new",
        tie_word_embeddings=c.tie_embeddings, resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0))


def _hf_bert(c) -> torch.nn.Module:
    import transformers

    return transformers.BertForMaskedLM(transformers.BertConfig(
        vocab_size=c.vocab_size, hidden_size=c.dim, num_hidden_layers=c.depth, num_attention_heads=c.num_heads,
        intermediate_size=c.mlp_hidden, hidden_act=c.act, max_position_embeddings=c.max_positions,
        type_vocab_size=c.type_vocab_size, layer_norm_eps=c.norm_eps,
        hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0))


REFERENCES = {"gpt": _hf_gpt2, "bert": _hf_bert}


def reference_pair(name: str) -> tuple[torch.nn.Module, torch.nn.Module]:
    """(ours, ref) for preset `name`, dropout off: a random-weight transformers model and its from_hf conversion."""
    info = zoo.model_info(name)
    if info["family"] not in REFERENCES:
        raise ValueError(f"no transformers reference for {name!r} (family {info['family']!r}); "
                         f"expected a preset of {sorted(REFERENCES)}")
    preset = config_from_dict(info["family"], {**info["config"], **NO_DROPOUT[info["family"]]})
    torch.manual_seed(0)
    ref = REFERENCES[info["family"]](preset).eval()
    ours = zoo.from_hf(ref).eval()
    if ours.config != preset:  # the conversion must give back exactly the preset we claim to benchmark
        raise SystemExit(f"{name}: from_hf gave {ours.config}, expected {preset}")
    return ours, ref


def autocast(dtype: str):
    """torch.autocast on CPU for "bf16", nothing for "fp32"."""
    if dtype not in DTYPES:
        raise ValueError(f"dtype must be one of {list(DTYPES)}, got {dtype!r}")
    return torch.autocast("cpu", dtype=DTYPES[dtype]) if DTYPES[dtype] else nullcontext()


# ----------------------------------------------------------------------------- timing


def interleaved(fns: dict[str, Callable[[], object]], warmup: int, repeats: int) -> dict[str, list[float]]:
    """Seconds per call for each fn, alternating ABBA so neither side always runs first."""
    for _ in range(warmup):
        for fn in fns.values():
            fn()
    times: dict[str, list[float]] = {name: [] for name in fns}
    names = list(fns)
    for r in range(repeats):
        for name in names if r % 2 == 0 else names[::-1]:
            start = time.perf_counter()
            fns[name]()
            times[name].append(time.perf_counter() - start)
    return times


def summarize(times: dict[str, list[float]], work: int, ours: str = "ours", ref: str = "ref") -> dict:
    """Medians of two sides of an interleaved run (`work` units per call, e.g. tokens) and the speed-up of
    side `ours` over side `ref` as the median over interleaved pairs, with its interquartile range
    (robust to load that drifts). The keys say ours/ref whichever two sides were named."""
    ours_s, ref_s = statistics.median(times[ours]), statistics.median(times[ref])
    pairs = [r / o for o, r in zip(times[ours], times[ref])]  # ours' speed-up in each pair
    q = statistics.quantiles(pairs, n=4, method="inclusive") if len(pairs) > 1 else pairs * 3
    return {"ours_s": ours_s, "ref_s": ref_s, "ours_tok_s": work / ours_s, "ref_tok_s": work / ref_s,
            "ratio": q[1], "pair_ratio_iqr": [q[0], q[2]], "times": {ours: times[ours], ref: times[ref]}}


# The ops that carry a Transformer's arithmetic on CPU: GEMMs, attention kernels, convolutions.
MATMUL_OPS = frozenset({
    "aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::_addmm_activation",
    "aten::_scaled_dot_product_flash_attention_for_cpu", "aten::_scaled_dot_product_flash_attention_for_cpu_backward",
    "aten::mkldnn_convolution", "aten::convolution_backward",
})


def matmul_seconds(fn: Callable[[], object], repeats: int = 3) -> float:
    """Seconds per call that `fn` spends inside MATMUL_OPS (torch.profiler, self CPU time).

    An implementation that runs the same GEMMs cannot take less time than this, so for a
    reference measured at `ref_s` per call, ref_s / matmul_seconds(ref) bounds the speed-up
    anything can have over it (Amdahl): the "ceiling" column of the benchmark tables.
    """
    from torch.profiler import ProfilerActivity, profile

    fn()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Profiler clears events at the end of each cycle": one cycle here
        with profile(activities=[ProfilerActivity.CPU]) as prof:
            for _ in range(repeats):
                fn()
    micros = sum(e.self_cpu_time_total for e in prof.key_averages() if e.key in MATMUL_OPS)
    return micros / 1e6 / repeats


# ----------------------------------------------------------------------------- the machine


def machine() -> dict:
    """CPU model, cores, ISA (AMX noted: it decides bf16 numbers), torch threads and library versions."""
    info: dict[str, str] = {}
    if os.path.exists("/proc/cpuinfo"):
        with open("/proc/cpuinfo") as f:
            first = f.read().split("\n\n")[0]
        info = {k.strip(): v.strip() for k, v in (line.split(":", 1) for line in first.splitlines() if ":" in line)}
    isa = torch.backends.cpu.get_cpu_capability()
    if "amx_bf16" in info.get("flags", "").split():
        isa += ", AMX-BF16"  # bf16 matmuls run on AMX tiles
    versions = {}
    for lib in ("transformers", "timm"):
        try:
            versions[lib] = __import__(lib).__version__
        except ImportError:
            versions[lib] = None
    return {"cpu": info.get("model name", platform.processor()), "cores": len(os.sched_getaffinity(0)), "isa": isa,
            "threads": torch.get_num_threads(), "torch": torch.__version__, **versions,
            "python": platform.python_version()}


def cpu_seconds() -> tuple[float, float, float]:
    """(wall clock, CPU seconds used by every process on the machine, CPU seconds used by this one)."""
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:9]]  # user nice system idle iowait irq softirq steal
    busy = (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")
    return time.perf_counter(), busy, sum(os.times()[:2])


def others_share(start: tuple[float, float, float]) -> float:
    """Fraction of the CPUs that OTHER processes used since `start` (from cpu_seconds()): they slow both sides."""
    wall, busy, own = (e - s for e, s in zip(cpu_seconds(), start))
    return max(0.0, busy - own) / (wall * (os.cpu_count() or 1))


# ----------------------------------------------------------------------------- Markdown


def table(headers: list[str], rows: list[list]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    return "\n".join(lines + ["| " + " | ".join(map(str, row)) + " |" for row in rows])


def ratio_cells(row: dict, target: float) -> list[str]:
    """["**1.234x** (IQR)", ">= target", "yes"/"no"] for a summarize() row."""
    lo, hi = row["pair_ratio_iqr"]
    return [f"**{row['ratio']:.3f}x** ({lo:.2f}-{hi:.2f})", f">= {target}x",
            "yes" if row["ratio"] >= target else "no"]
