"""What the benchmark ran on, and how busy the machine was meanwhile.

Load from other processes hits both sides of an interleaved run alike; `others_share` says how much
there was, so a table can warn that its absolute numbers are low.
"""
from __future__ import annotations

import getpass
import os
import platform
import tempfile
import time
from pathlib import Path

import torch

from backbones.inference import gemv

# `scripts/benchmark.py --isa avx2` on an AVX-512 host: every side limited to AVX2 by its own switch (ours,
# torch's kernels and inductor's code, oneDNN, MKL, CTranslate2), so the run measures the paths an AVX2-only host
# takes, at this host's memory speed and clock: a stand-in for one, labelled "forced" in the tables.
# Inductor's compiled code goes to a cache of its own, apart from the host's AVX-512 builds: a forced Whisper run
# sharing the host's cache died inside an inductor cpp_wrapper library ("trap stack segment"; cause not pinned down).
FORCED_ISA = {"avx2": {gemv.ISA_VARIABLE: "avx2", "ATEN_CPU_CAPABILITY": "avx2", "ONEDNN_MAX_CPU_ISA": "AVX2",
                       "MKL_ENABLE_INSTRUCTIONS": "AVX2", "CT2_FORCE_CPU_ISA": "AVX2",
                       "TORCHINDUCTOR_CACHE_DIR": os.path.join(tempfile.gettempdir(),
                                                               f"torchinductor_{getpass.getuser()}_avx2")}}


def machine() -> dict:
    """CPU model, cores, ISA (AMX or AVX512-BF16 noted: they decide bf16 numbers), torch threads and library
    versions."""
    info: dict[str, str] = {}
    if os.path.exists("/proc/cpuinfo"):
        with open("/proc/cpuinfo") as f:
            first = f.read().split("\n\n")[0]
        info = {k.strip(): v.strip() for k, v in (line.split(":", 1) for line in first.splitlines() if ":" in line)}
    isa = torch.backends.cpu.get_cpu_capability()
    if gemv.has_cpu_flag("amx_bf16"):
        isa += ", AMX-BF16"  # bf16 matmuls run on AMX tiles
    elif gemv.has_cpu_flag("avx512_bf16"):
        isa += ", AVX512-BF16"  # bf16 dot products in vector registers: native bf16 in oneDNN and zoo::gemv
    if os.environ.get(gemv.ISA_VARIABLE):
        isa += ", forced"  # FORCED_ISA: the CPU has more
    versions = {}
    for lib in ("transformers", "timm"):
        try:
            versions[lib] = __import__(lib).__version__
        except ImportError:
            versions[lib] = None
    return {"cpu": info.get("model name", platform.processor()), "cores": len(os.sched_getaffinity(0)), "isa": isa,
            "threads": torch.get_num_threads(), "torch": torch.__version__, **versions,
            "python": platform.python_version()}


def device_line(device: str) -> str:
    """"Device: ..." for a table run on `device`: the GPU's name (or the CPU model) and the library versions."""
    name = torch.cuda.get_device_name(device) if torch.device(device).type == "cuda" else machine()["cpu"]
    versions = {}
    for lib in ("xformers", "transformers"):
        try:
            versions[lib] = __import__(lib).__version__
        except ImportError:
            versions[lib] = "not installed"
    return (f"Device: {name}; torch {torch.__version__} (CUDA {torch.version.cuda}), xformers {versions['xformers']}, "
            f"transformers {versions['transformers']}")


def cpu_seconds() -> tuple[float, float, float]:
    """(wall clock, CPU seconds used by every process on the machine, CPU seconds used by this one and the
    children it has waited for: a section's own subprocesses are not "other processes")."""
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:9]]  # user nice system idle iowait irq softirq steal
    busy = (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")
    return time.perf_counter(), busy, sum(os.times()[:4])


def others_share(start: tuple[float, float, float]) -> float:
    """Fraction of the CPUs that OTHER processes used since `start` (from cpu_seconds()): they slow both sides."""
    wall, busy, own = (e - s for e, s in zip(cpu_seconds(), start))
    return max(0.0, busy - own) / (wall * (os.cpu_count() or 1))


def last_level_cache_bytes() -> int | None:
    """The largest CPU cache Linux reports (on a VM: the host's, shared with other guests)."""
    sizes = []
    for path in Path("/sys/devices/system/cpu/cpu0/cache").glob("index*/size"):
        text = path.read_text().strip()
        scale = {"K": 2**10, "M": 2**20, "G": 2**30}.get(text[-1], 1)
        sizes.append(int(text.rstrip("KMG")) * scale)
    return max(sizes) if sizes else None
