"""The model table: one row per registered preset, tiny to realistic, with its parameters and analytic forward
FLOPs per sample; for each preset small enough to time here, forward and training-step throughput, peak
memory and model FLOPs utilisation for every attention backend that can run and every dtype, against the
reference on the same weights, interleaved in one process.

    config = models.ModelsConfig.quick() if quick else models.ModelsConfig(device=device)
    rows = models.run(config, ceilings=results["ceilings"])    # ceilings.run(): the CPU's matmul peaks
    print(models.report(rows, config))

- Parameters and FLOPs come from a build on the meta device (nothing allocated: llava_v1_5_7b's 7B
  parameters cost nothing); FLOPs are bench.flops' count of one forward (a training step: 3x).
- A preset is timed when it has at most `max_params` parameters (and `timed`, if given, names it); the others'
  rows say "not timed" and why. What is timed, how, and how peak memory is read: bench/models_timing.py;
  the references and each family's inputs: bench/models_cases.py.
- MFU = analytic FLOPs of a call / its median time / the measured matmul peak of its dtype: on the CPU the
  best torch.mm figure of that dtype from bench.ceilings (passed in as `ceilings`), on CUDA torch.mm on
  the device, measured here.
"""
from __future__ import annotations

import copy
import gc
import statistics
from dataclasses import dataclass

import torch

import zoo
from bench.flops import image_tokens
from bench.models_cases import Shape, build_case, pair, shape_flops, tokens_per_sample
from bench.models_timing import forward_rows, train_rows
from bench.report import BenchmarkError, table
from bench.timing import interleaved, synchronized
from zoo.registry import config_from_dict, model_bytes

QUICK_PRESETS = ("gpt_tiny", "llama_tiny", "bert_tiny", "vit_tiny_patch4_28", "clip_vit_tiny_patch8_32", "ast_tiny",
                 "whisper_micro", "llava_tiny")
TEXT = ("gpt", "llama", "bert")
FIXED_INPUT = ("vit", "clip", "ast")  # an image or spectrogram of the configured size per sample
NOT_LISTED = "not timed: not in this run's list"


@dataclass(frozen=True)
class ModelsConfig:
    device: str = "cpu"
    presets: tuple[str, ...] | None = None   # rows to give; None: every registered preset
    timed: tuple[str, ...] | None = None     # presets to time (those within max_params); None: all within it
    dtypes: tuple[str, ...] = ("fp32", "bf16", "bf16_packed")
    backends: tuple[str, ...] | None = None  # attention backends to time; None: each that can run
    regions: tuple[str, ...] = ("per call", "one region")  # how bf16's torch.autocast wraps forward calls
    text_shapes: tuple[tuple[int, int], ...] = ((1, 256), (4, 128))  # (batch, tokens): text, decoders, LLaVA
    image_batches: tuple[int, ...] = (1, 4)  # samples per call for ViT, CLIP and AST
    train: bool = True
    warmup: int = 2
    repeats: int = 6
    max_params: float = 150e6  # times gpt2, bert_base, vit_base, whisper_base, llama_135m on the CPU

    @classmethod
    def quick(cls, device: str = "cpu") -> "ModelsConfig":
        """Every preset's row, the tiny presets timed at small shapes: a smoke test of the same code."""
        return cls(device=device, timed=QUICK_PRESETS, text_shapes=((2, 16),), image_batches=(2,),
                   warmup=1, repeats=2)


def shapes_for(preset, config: ModelsConfig) -> list[Shape]:
    """The shapes a preset is timed (and its FLOPs counted) at, labelled samples x tokens per sample."""
    family = preset.family
    if family in FIXED_INPUT:
        return [Shape(f"{b}x{tokens_per_sample(preset, Shape('', b))}", b) for b in config.image_batches]
    shapes = {}
    for b, s in config.text_shapes:
        if family == "llava":  # one image's placeholders, then the text
            n = image_tokens(preset.vision)
            s = max(1, min(s, preset.text.max_positions - n))
            shapes[f"{b}x({n}+{s})"] = Shape(f"{b}x({n}+{s})", b, s)
            continue
        s = min(s, preset.text_ctx if family == "whisper" else preset.max_positions)
        shapes[f"{b}x{s}"] = Shape(f"{b}x{s}", b, s)
    return list(shapes.values())


def describe(name: str, config: ModelsConfig) -> dict:
    """A preset's row without timings: parameters and bytes from a meta-device build, FLOPs per sample at
    each shape, and whether it will be timed (and why not)."""
    info = zoo.model_info(name)
    preset = config_from_dict(info["family"], info["config"])
    with torch.device("meta"):
        model = zoo.create_model(name)
    params, nbytes = sum(p.numel() for p in model.parameters()), model_bytes(model)
    del model
    shapes = shapes_for(preset, config)
    if config.timed is not None and name not in config.timed:
        note = NOT_LISTED
    elif params > config.max_params:
        note = f"not timed: {nbytes / 1e9:.1f} GB of weights (more than max_params {config.max_params:.3g})"
    else:
        note = ""
    return {"model": name, "family": info["family"], "params": params, "weight_bytes": nbytes,
            "flops_per_sample": {s.label: shape_flops(preset, s) // s.batch for s in shapes},
            "timed": not note, "note": note, "reference": None, "rows": []}


def matmul_peaks(ceilings: dict) -> dict[str, float]:
    """{"fp32", "bf16"}: FLOP/s, the best median torch.mm figure of each dtype in a ceilings.run() result."""
    peaks = {}
    for dtype in ("fp32", "bf16"):
        figures = [f["median"] * 1e9 for name, f in ceilings["probes"].items() if name.startswith(f"matmul {dtype} ")]
        if figures:
            peaks[dtype] = max(figures)
    return peaks


def device_matmul_peaks(device: str, n: int = 8192, repeats: int = 5) -> dict[str, float]:
    """{"fp32", "bf16"}: FLOP/s of torch.mm of two (n, n) matrices on `device`, medians of interleaved calls."""
    operands = {d: [torch.randn(n, n, device=device, dtype=t) for _ in range(2)]
                for d, t in (("fp32", torch.float32), ("bf16", torch.bfloat16))}
    fns = {d: synchronized(lambda a=a, b=b: torch.mm(a, b), device) for d, (a, b) in operands.items()}
    times = interleaved(fns, 2, repeats)
    return {d: 2 * n**3 / statistics.median(t) for d, t in times.items()}


def _peaks(config: ModelsConfig, ceilings: dict | None) -> dict[str, float] | None:
    if torch.device(config.device).type == "cuda":
        return device_matmul_peaks(config.device)
    return matmul_peaks(ceilings) if ceilings else None


def _time_preset(row: dict, config: ModelsConfig, peaks: dict | None, log) -> None:
    """Fill row["rows"] (and its reference) with every timed figure of the preset at each of its shapes."""
    name, device = row["model"], config.device
    info = zoo.model_info(name)
    shapes = shapes_for(config_from_dict(info["family"], info["config"]), config)
    ours, ref, reference = pair(name)
    ours, ref = ours.to(device), None if ref is None else ref.to(device)
    row["reference"] = reference
    packed = zoo.pack_for_inference(copy.deepcopy(ours), gemv=False) if "bf16_packed" in config.dtypes else None
    for shape in shapes:
        case = build_case(name, shape, device, built=(ours, ref, reference))
        timings = forward_rows(name, case, packed, config, peaks)
        timings += train_rows(name, case, config, peaks) if config.train else []
        for t in timings:
            t.update(shape=shape.label, peak_flops=(peaks or {}).get("fp32" if t["dtype"] == "fp32" else "bf16"))
        row["rows"] += timings
        best = max((t["samples_s"] for t in timings if t["kind"] == "forward" and t["backend"] != "ref"), default=0)
        log(f"  models {name} {shape.label}: {len(timings)} rows, best forward {best:,.1f} samples/s; {reference}")
    del ours, ref, packed
    gc.collect()
    if torch.device(device).type == "cuda":
        torch.cuda.empty_cache()


def run(config: ModelsConfig = ModelsConfig(), ceilings: dict | None = None, log=print) -> list[dict]:
    """One dict per preset (config.presets, or every registered one): model, family, params, weight_bytes,
    flops_per_sample {shape: FLOPs}, timed, note, reference, and rows: one per timed figure (shape, kind
    forward | train, dtype, region, backend (or "ref"), seconds, samples_s (IQR), tokens_s, flops, mfu,
    ratio (reference's time over this side's, median over pairs; IQR), peak_bytes, max_abs_diff).
    ceilings: a bench.ceilings.run() result, the CPU's matmul peaks for MFU (None: no MFU on the CPU)."""
    peaks = _peaks(config, ceilings)
    rows = []
    for name in config.presets or zoo.list_models():
        row = describe(name, config)
        rows.append(row)
        if not row["timed"]:
            continue
        try:
            _time_preset(row, config, peaks, log)
        except BenchmarkError as error:  # ours and the reference disagree: nothing of this preset is timed
            row.update(timed=False, note=f"not timed: {error}", rows=[])
            log(f"  models {name}: {error}")
    return rows


def merge(rows: list[dict], stored: list[dict], run: dict) -> list[dict]:
    """This run's rows, each one it timed stamped with `run` (its command, date and time, warm-up and repeats), and each
    preset it left out of its list (ModelsConfig.timed) taken from `stored`, the merged rows of earlier runs on
    the same machine, where one of them timed it: a CPU measures the table in parts. A preset this run timed, or
    left untimed for another reason (too large, ours and the reference disagree), is this run's row."""
    earlier = {r["model"]: r for r in stored if r.get("timed")}
    merged = []
    for row in rows:
        if row["timed"]:
            row = {**row, "run": run}
        elif row["note"] == NOT_LISTED and row["model"] in earlier:
            row = earlier[row["model"]]
        merged.append(row)
    return merged


def _runs(rows: list[dict]) -> list[dict]:
    """The distinct runs that timed `rows` (merge's stamps), oldest first ("date": ISO date and time)."""
    runs = []
    for r in rows:
        if r.get("run") and r["run"] not in runs:
            runs.append(r["run"])
    return sorted(runs, key=lambda run: run["date"])


def _millions(n: int) -> str:
    return f"{n / 1e9:,.2f}B" if n >= 1e9 else f"{n / 1e6:,.2f}M"


def _timed_cell(r: dict, runs: list[dict]) -> str:
    if not r["timed"]:
        return r["note"].removeprefix("not timed: ")
    return f"yes (run {runs.index(r['run']) + 1})" if r.get("run") in runs else "yes"


def _preset_table(rows: list[dict]) -> str:
    runs = _runs(rows)
    cells = [[r["model"], r["family"], _millions(r["params"]), f"{r['weight_bytes'] / 1e9:,.3f}",
              "; ".join(f"{shape}: {f / 1e9:,.3g}" for shape, f in r["flops_per_sample"].items()),
              r["reference"] or "-", _timed_cell(r, runs)] for r in rows]
    text = table(["model", "family", "params", "weights GB (fp32)", "forward GFLOP per sample (shape)", "reference",
                  "timed"], cells)
    if runs:
        text += "\n\nRuns (each timed the presets that name it):\n\n" + "\n".join(
            f"{i}. {run['date']}, {run['warmup']} warm-up and {run['repeats']} timed calls per side: "
            f"`{run['command']}`" for i, run in enumerate(runs, 1))
    return text


def _ratio(t: dict) -> str:
    if t["backend"] == "ref":
        return "1"
    if t["ratio"] is None:
        return "no reference"
    return f"**{t['ratio']:.2f}x** ({t['ratio_iqr'][0]:.2f}-{t['ratio_iqr'][1]:.2f})"


def _timing_table(rows: list[dict]) -> str:
    cells = []
    for r in rows:
        for t in r["rows"]:
            lo, hi = t["samples_s_iqr"]
            cells.append([r["model"], t["shape"], t["kind"], t["dtype"], t["region"], t["backend"],
                          f"{t['samples_s']:,.2f} ({lo:,.2f}-{hi:,.2f})", f"{t['tokens_s']:,.0f}", _ratio(t),
                          "n/a" if t["mfu"] is None else f"{100 * t['mfu']:.1f}%",
                          f"{t['peak_bytes'] / 2**20:,.1f}"])
    return table(["model", "shape", "pass", "dtype", "bf16 autocast", "attention", "samples/s (IQR)", "tokens/s",
                  "x ref (IQR)", "MFU", "peak MiB"], cells)


# The targets: forward ours/ref per dtype; a gpt2 training step's fp32 MFU on the CPU.
FORWARD_TARGETS = {"fp32": 1.0, "bf16": 1.2}
TRAIN_MFU_TARGET = ("gpt2", 0.5)


def _targets_table(rows: list[dict]) -> str:
    """Per preset with a reference, shape and dtype (bf16: per autocast region): our best forward (over
    backends, and bf16 autocast / packed) against the target; ceiling = the ratio ours would reach at the
    measured matmul peak (1 / the reference's MFU), which says when the reference leaves nothing to win.
    Then the gpt2 training step's best fp32 MFU."""
    cells = []
    for r in rows:
        groups: dict[tuple, list[dict]] = {}
        for t in r["rows"]:
            if t["kind"] == "forward":
                groups.setdefault((t["shape"], t["dtype"].split("_")[0], t["region"]), []).append(t)
        for (shape, dtype, region), ts in groups.items():
            ours = [t for t in ts if t["backend"] != "ref" and t["ratio"] is not None]
            ref = next((t for t in ts if t["backend"] == "ref"), None)
            if not ours or ref is None:
                continue
            best, target = max(ours, key=lambda t: t["ratio"]), FORWARD_TARGETS[dtype]
            ceiling = f"{1 / ref['mfu']:.2f}x" if ref["mfu"] else "n/a"
            cells.append([r["model"], f"forward {shape}", dtype + ("" if region == "-" else f", {region}"),
                          f"{best['dtype']} {best['backend']}", f"**{best['ratio']:.2f}x**",
                          "n/a" if ref["mfu"] is None else f"{100 * ref['mfu']:.0f}%", ceiling, f">= {target}x",
                          "yes" if best["ratio"] >= target else "no"])
    name, goal = TRAIN_MFU_TARGET
    for r in rows:
        train = [t for t in r["rows"] if r["model"] == name and t["kind"] == "train" and t["dtype"] == "fp32"
                 and t["backend"] != "ref" and t["mfu"] is not None]
        for shape in dict.fromkeys(t["shape"] for t in train):
            best = max((t for t in train if t["shape"] == shape), key=lambda t: t["mfu"])
            cells.append([name, f"train step {shape}", "fp32", f"{best['dtype']} {best['backend']}",
                          f"MFU **{100 * best['mfu']:.0f}%**", "-", "-", f">= {goal:.0%} MFU",
                          "yes" if best["mfu"] >= goal else "no"])
    if not cells:
        return "Targets: no preset with a reference was timed."
    return "Targets (the issue's): forward >= 1.0x the reference in fp32 and >= 1.2x in bf16; a gpt2 training " \
           "step >= 50% fp32 MFU on the CPU.\n\n" + table(
               ["model", "what", "dtype", "ours (best)", "ours/ref", "ref MFU", "ceiling", "target", "met"], cells)


def _peak_line(rows: list[dict]) -> str:
    peaks = {t["dtype"].split("_")[0]: t["peak_flops"] for r in rows for t in r["rows"] if t["peak_flops"]}
    if not peaks:
        return "MFU: n/a (no measured matmul peak was given)."
    figures = ", ".join(f"{d} {p / 1e9:,.1f} GFLOP/s" for d, p in sorted(peaks.items()))
    return (f"MFU = analytic FLOPs per call (bench.flops; a training step 3x the forward) / median time / the "
            f"measured torch.mm peak of the dtype ({figures}).")


def _calls(rows: list[dict], config: ModelsConfig) -> str:
    if _runs(rows):
        return "Warm-up and timed calls (per run, below the preset table)"
    return f"{config.warmup} warm-up and {config.repeats} timed calls"


def report(rows: list[dict], config: ModelsConfig) -> str:
    """Markdown: how it was measured, a table with one row per preset, and one with every timed figure."""
    text = ", ".join(f"{b} x {s}" for b, s in config.text_shapes)
    head = (f"\n### Model table ({config.device})\n\nShapes: samples x tokens per sample. Text (GPT, LLaMA, BERT) "
            f"batch {text} tokens (capped at the preset's positions); Whisper: the same decoder tokens (capped at "
            "text_ctx) over the full mel window of 2 x audio_ctx frames; LLaVA: one image per sample, its "
            "placeholders then the text tokens; ViT, CLIP: one image at the configured size per sample, AST one "
            f"spectrogram (batches {', '.join(map(str, config.image_batches))}), tokens = patches + prefix tokens. "
            "Forward: torch.inference_mode. Training step: forward + cross-entropy + backward + fused AdamW "
            "(causal LMs: their own loss from the features). fp32; bf16 = torch.autocast, either one region per "
            "call (weight casts paid by every call) or one region around all the timed calls (autocast caches the "
            "weights' casts); training steps always a region per step; bf16_packed = autocast on the model after "
            "zoo.pack_for_inference (inference only). Every side's output is checked against the reference's "
            f"first. {_calls(rows, config)} per side, all sides of a row group "
            "interleaved (ABBA) in one process; medians, spread = IQR; x ref = median over pairs of the "
            "reference's time over ours. Peak MiB: one call's allocation peak above what was allocated before "
            "it (CUDA: the caching allocator; CPU: torch.profiler's memory events). " + _peak_line(rows) + "\n")
    return head + "\n" + _preset_table(rows) + "\n\n" + _targets_table(rows) + "\n\n" + _timing_table(rows)
