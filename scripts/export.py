#!/usr/bin/env python
"""Export a zoo model's forward with torch.export (a .pt2 program) and to ONNX, each checked against eager.

    python scripts/export.py gpt_tiny --out runs/export/gpt_tiny                  # a registered preset (random weights)
    python scripts/export.py runs/demo/text/model --out runs/export/text        # a save_pretrained directory
    python scripts/export.py whisper_micro --format pt2 --batch-size 1 --seq-len 4

The inputs are the model's `example_inputs(batch_size, seq_len)` (token ids, pixels, a log-mel or a
spectrogram, as the family takes them); the program is exported for exactly those shapes. Attention runs on
--attention (default sdpa: torch's SDPA exports; xformers does not). Each export is checked by running it on
the example inputs and on a second draw of the same shapes against the eager model (max abs difference at
most --atol); ONNX runs through onnxruntime when it is installed. Writes into --out: model.pt2
(torch.export.save; torch.export.load reads it), model.onnx, export.json (shapes, differences, versions).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import torch
from torch import nn

import zoo
from backbones.attention import set_attention_backend
from zoo.io import atomic_write_text, loading

FORMATS = ("pt2", "onnx")


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", help="a registered model name (zoo.list_models()) or a save_pretrained directory")
    p.add_argument("--out", required=True, type=Path, help="directory for model.pt2, model.onnx, export.json")
    p.add_argument("--format", choices=[*FORMATS, "both"], default="both")
    p.add_argument("--batch-size", type=int, default=2)
    p.add_argument("--seq-len", type=int, default=8, help="tokens for text inputs (LLaVA: at least its image's)")
    p.add_argument("--attention", default="sdpa", choices=["sdpa", "math"], help="attention backend to export")
    p.add_argument("--atol", type=float, default=1e-4, help="largest max-abs difference from eager accepted")
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args(argv)


def load_model(source: str) -> nn.Module:
    """A save_pretrained directory, or a registered preset with random weights."""
    if Path(source).is_dir():
        with loading(source):
            return zoo.load_pretrained(source)
    if source not in zoo.list_models():
        raise SystemExit(f"export.py: {source!r} is neither a directory nor a registered model; registered: "
                         f"{', '.join(zoo.list_models())}")
    return zoo.create_model(source)


def example_inputs(model: nn.Module, batch_size: int, seq_len: int, seed: int) -> dict[str, torch.Tensor]:
    torch.manual_seed(seed)
    return model.example_inputs(batch_size=batch_size, seq_len=max(seq_len, getattr(model, "min_seq_len", 1)))


def max_diff(got: torch.Tensor, want: torch.Tensor) -> float:
    if tuple(got.shape) != tuple(want.shape):
        raise RuntimeError(f"the export gives shape {tuple(got.shape)}, eager {tuple(want.shape)}")
    return float((got.float() - want.float()).abs().max())


def export_pt2(model: nn.Module, inputs: dict, checks: list[dict], path: Path) -> dict[str, Any]:
    """torch.export.export for the inputs' shapes, saved, loaded back and run on every check input."""
    program = torch.export.export(model, (), kwargs=inputs)
    torch.export.save(program, path)
    loaded = torch.export.load(path).module()
    with torch.no_grad():
        diffs = [max_diff(loaded(**x), model(**x)) for x in checks]
    return {"file": path.name, "max_abs_diff": max(diffs)}


def export_onnx(model: nn.Module, inputs: dict, checks: list[dict], path: Path) -> dict[str, Any]:
    """torch.onnx.export (the dynamo exporter), then onnxruntime on every check input where it is installed."""
    program = torch.onnx.export(model, (), kwargs=inputs, dynamo=True, verbose=False)
    program.save(str(path))
    try:
        import onnxruntime
    except ImportError:
        return {"file": path.name, "max_abs_diff": None, "checked": "onnxruntime is not installed"}
    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    diffs = []
    for x in checks:
        got = session.run(None, {n: x[n].numpy() for n in names})[0]
        with torch.no_grad():
            diffs.append(max_diff(torch.from_numpy(got), model(**x)))
    return {"file": path.name, "max_abs_diff": max(diffs), "inputs": names}


def export(model: nn.Module, out: Path, formats: tuple[str, ...] = FORMATS, batch_size: int = 2, seq_len: int = 8,
           attention: str = "sdpa", atol: float = 1e-4, seed: int = 0) -> dict[str, Any]:
    """Export `model` in each format into `out`, check each against eager; returns (and writes) export.json's
    content. RuntimeError when an export differs from eager by more than atol."""
    model = model.eval()
    set_attention_backend(model, attention)
    inputs = example_inputs(model, batch_size, seq_len, seed)
    checks = [inputs, example_inputs(model, batch_size, seq_len, seed + 1)]  # a second draw: nothing baked in
    out.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {
        "model": type(model).__name__, "family": getattr(model.config, "family", None),
        "inputs": {k: {"shape": list(v.shape), "dtype": str(v.dtype)} for k, v in inputs.items()},
        "attention": attention, "torch": torch.__version__}
    exporters = {"pt2": export_pt2, "onnx": export_onnx}
    for fmt in formats:
        result = exporters[fmt](model, inputs, checks, out / f"model.{fmt}")
        report[fmt] = result
        if result["max_abs_diff"] is not None and result["max_abs_diff"] > atol:
            raise RuntimeError(f"{fmt}: the exported program differs from eager by {result['max_abs_diff']:.3g} "
                               f"(more than --atol {atol})")
    atomic_write_text(out / "export.json", json.dumps(report, indent=2) + "\n")
    return report


def main(argv=None) -> int:
    args = parse_args(argv)
    model = load_model(args.model)
    formats = FORMATS if args.format == "both" else (args.format,)
    report = export(model, args.out, formats, args.batch_size, args.seq_len, args.attention, args.atol, args.seed)
    for fmt in formats:
        r = report[fmt]
        diff = "not checked" if r["max_abs_diff"] is None else f"max abs diff {r['max_abs_diff']:.2e} vs eager"
        print(f"{args.out / r['file']}: {diff}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
