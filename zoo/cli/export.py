"""Export a model's forward with torch.export (a .pt2 program) and to ONNX, with dynamic batch and sequence axes,
named inputs and a `logits` output, each checked against eager at the traced shape and two others.

    zoo export --model gpt_tiny --out runs/export/gpt_tiny                  # a preset (random weights)
    zoo export --model runs/demo/text/model --out runs/export/text          # a save_pretrained directory
    zoo export --model path/to/hf_vit --out runs/export/vit --format onnx   # an HF directory
    zoo export --model whisper_micro --format pt2 --batch-size 2 --seq-len 4

--model takes every form the other subcommands take (zoo.cli.models). The inputs have the names transformers
gives them: input_ids, attention_mask (BERT), position_ids (decoders: positions as an input keep the sequence
axis dynamic), decoder_input_ids, pixel_values (ViT, CLIP, LLaVA), input_features (Whisper's log-mel),
input_values (AST's spectrogram); the output is logits. Each family's non-token shapes come from its config (a
ViT's image size, Whisper's mel frames, AST's frames); --seq-len sets only the token inputs. The batch axis and
the token axis are dynamic; an axis the model's code would fix while tracing is exported static and said so
in export.json.

The program is traced at --batch-size x --seq-len (at least 2 each: torch.export specialises a size-1 axis;
--seq-len at most the model's positions, and for LLaVA at least its image's placeholders + 1) and checked, the
.pt2 loaded back and the ONNX file in onnxruntime (where it is installed), on the traced inputs and at two other
shapes along the dynamic axes (new draws of the images and audio): max abs difference from eager at most
--atol, over outputs that must be finite on both sides. Attention runs on --attention (sdpa exports; xformers
does not). Writes into --out (checked before the model loads): model.pt2 (torch.export.load reads it),
model.onnx, export.json (inputs and their axes, checks, differences, versions).
"""
from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import torch
from torch import nn
from torch.export import Dim

from backbones.attention import set_attention_backend
from zoo.cli.common import UsageError, add_runtime_arguments, apply_threads, parser, place
from zoo.cli.models import load_model, model_kind
from zoo.cli.outputs import output_dir
from zoo.io import atomic_write_text

FORMATS = ("pt2", "onnx")
SEQ_LEN = 8  # the token inputs' traced length unless told (or the model's shortest, if longer)
ONNX_NAMES = {"pixels": "pixel_values", "mel": "input_features", "spectrogram": "input_values"}  # ours -> HF's
TOKEN_INPUTS = ("input_ids", "attention_mask", "position_ids", "decoder_input_ids")


def parse_args(argv=None):
    p = parser(__doc__)
    p.add_argument("--model", required=True, help="preset, save_pretrained, HF or CTranslate2 directory, .pt file")
    p.add_argument("--out", required=True, type=Path, help="directory for model.pt2, model.onnx, export.json")
    p.add_argument("--format", choices=[*FORMATS, "both"], default="both")
    p.add_argument("--batch-size", type=int, default=2, help="the traced batch (at least 2)")
    p.add_argument("--seq-len", type=int, default=None,
                   help=f"the traced token inputs' length, 2 to the model's positions (LLaVA: at least its image's "
                        f"placeholders + 1); default {SEQ_LEN}, or the model's shortest if longer")
    p.add_argument("--attention", default="sdpa", choices=["sdpa", "math"], help="attention backend to export")
    p.add_argument("--atol", type=float, default=1e-4, help="largest max-abs difference from eager accepted")
    p.add_argument("--seed", type=int, default=0)
    add_runtime_arguments(p)
    args = p.parse_args(argv)
    try:
        check_sizes(args.batch_size, args.seq_len, names=("--batch-size", "--seq-len"))  # before the model loads
    except ValueError as error:
        raise UsageError(str(error)) from None
    return args


class Named(nn.Module):
    """The model's forward under the exported input names (keyword arguments, a None one not passed)."""

    def __init__(self, model: nn.Module, to_model: dict[str, str]):
        super().__init__()
        self.model, self.to_model = model, to_model

    def forward(self, input_ids=None, attention_mask=None, position_ids=None, decoder_input_ids=None,
                pixel_values=None, input_features=None, input_values=None) -> torch.Tensor:
        given = dict(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids,
                     decoder_input_ids=decoder_input_ids, pixel_values=pixel_values, input_features=input_features,
                     input_values=input_values)
        return self.model(**{self.to_model[k]: v for k, v in given.items() if v is not None})


def takes_tokens(model: nn.Module) -> bool:
    example = model.example_inputs(batch_size=2)
    return "input_ids" in example or "decoder_input_ids" in example


def min_seq_len(model: nn.Module) -> int:
    return max(2, getattr(model, "min_seq_len", 1))


def max_seq_len(model: nn.Module) -> int:
    """The longest token inputs: the model's positions (a BERT keeps them in its config)."""
    return getattr(model, "max_positions", None) or model.config.max_positions


def check_sizes(batch_size: int, seq_len: int | None, model: nn.Module | None = None,
                names: tuple[str, str] = ("batch_size", "seq_len")) -> int:
    """The traced token length: seq_len, or SEQ_LEN (the model's shortest if longer) for None. A ValueError
    names a size below 2 (torch.export fixes a size-1 axis), and, given a model with token inputs, a seq_len
    below its shortest or above its positions."""
    for name, value in zip(names, (batch_size, seq_len)):
        if value is not None and value < 2:
            raise ValueError(f"{name} {value}: expected at least 2 (torch.export would fix a size-1 axis)")
    if model is None or not takes_tokens(model):
        return SEQ_LEN if seq_len is None else seq_len
    shortest, longest = min_seq_len(model), max_seq_len(model)
    if seq_len is None:
        return max(SEQ_LEN, shortest)
    if seq_len < shortest:
        raise ValueError(f"{names[1]} {seq_len}: expected at least {shortest}, the {type(model).__name__}'s "
                         "shortest token input")
    if seq_len > longest:
        raise ValueError(f"{names[1]} {seq_len}: expected at most the {type(model).__name__}'s {longest} positions")
    return seq_len


def example_inputs(model: nn.Module, batch_size: int, seq_len: int, seed: int = 0) -> dict[str, torch.Tensor]:
    """The exported inputs, by their exported names: token inputs of seq_len, the others (images, log-mels,
    spectrograms) at their config's size, drawn from `seed` (token ids: where the model draws them from
    torch's global seed)."""
    torch.manual_seed(seed)
    tokens = takes_tokens(model)
    example = model.example_inputs(batch_size=batch_size, seq_len=seq_len) if tokens else \
        model.example_inputs(batch_size=batch_size)  # a ViT's seq_len would resize the image: never
    generator = torch.Generator().manual_seed(seed)  # example_inputs draws its images from a fixed seed
    inputs = {ONNX_NAMES.get(k, k): v if k in TOKEN_INPUTS else torch.randn(v.shape, generator=generator)
              for k, v in example.items()}
    if "input_ids" in inputs and "positions" in inspect.signature(model.forward).parameters:
        inputs["position_ids"] = torch.arange(seq_len).expand(batch_size, seq_len)  # (B, T)
    weight = next(model.parameters())
    return {k: v.to(weight.device, weight.dtype if v.is_floating_point() else v.dtype) for k, v in inputs.items()}


def named_model(model: nn.Module) -> Named:
    names = {ONNX_NAMES.get(k, k): k for k in model.example_inputs(batch_size=2)}
    names["position_ids"] = "positions"
    return Named(model, names)


def dynamic_shapes(inputs: dict[str, torch.Tensor], axes: tuple[str, ...]) -> dict[str, dict[int, Any]]:
    """Which axis of each input is dynamic: axis 0 (the batch) of each, axis 1 (the sequence) of the token
    inputs; a LLaVA's images (pixel_values beside input_ids) keep their count."""
    shapes = {}
    for name, value in inputs.items():
        dims = {}
        if "batch" in axes and not (name == "pixel_values" and "input_ids" in inputs):
            dims[0] = Dim.DYNAMIC
        if "sequence" in axes and name in TOKEN_INPUTS:
            dims[1] = Dim.DYNAMIC
        shapes[name] = dims or None
    return shapes


def trace(wrapped: Named, inputs: dict) -> tuple[torch.export.ExportedProgram, tuple[str, ...], list[str]]:
    """torch.export with the batch and sequence axes dynamic (sequence: where there are token inputs), or as many
    of them as the model's code allows: (program, dynamic axes, why each dropped one is static)."""
    notes = []
    tokens = any(name in TOKEN_INPUTS for name in inputs)
    for axes in (("batch", "sequence"), ("batch",), ())[0 if tokens else 1:]:
        try:
            return torch.export.export(wrapped, (), kwargs=inputs, dynamic_shapes=dynamic_shapes(inputs, axes)), \
                axes, notes
        except Exception as error:  # noqa: BLE001 - torch.export's constraint errors have no one class
            if not axes:
                raise
            lines = str(error).splitlines() or [type(error).__name__]
            reason = next((line.strip(" -").split(" If you")[0] for line in lines if "specialized" in line), lines[0])
            notes.append(f"{axes[-1]} axis static: {reason}")
    raise AssertionError("unreachable")


def check_shapes(model: nn.Module, batch_size: int, seq_len: int, axes: tuple[str, ...]) -> list[tuple[int, int]]:
    """Two (batch, seq) pairs other than the traced one, along the dynamic axes: one larger, one smaller (the
    sequence within the model's shortest and longest)."""
    bigger_b, smaller_b = (batch_size + 1, batch_size - 1) if "batch" in axes else (batch_size, batch_size)
    if "sequence" in axes:
        longest = max_seq_len(model)
        bigger_t = min(seq_len + 3, longest)
        smaller_t = seq_len - 3 if seq_len - 3 >= min_seq_len(model) else min(seq_len + 1, longest)
    else:
        bigger_t = smaller_t = seq_len
    return [pair for pair in [(bigger_b, bigger_t), (smaller_b, smaller_t)] if pair != (batch_size, seq_len)]


def max_diff(got: torch.Tensor, want: torch.Tensor) -> float:
    """The largest |export - eager|; a RuntimeError for another shape, or for a NaN or inf on either side
    (a NaN compares as no difference)."""
    if tuple(got.shape) != tuple(want.shape):
        raise RuntimeError(f"the export gives shape {tuple(got.shape)}, eager {tuple(want.shape)}")
    for side, output in (("eager", want), ("the export", got)):
        if not torch.isfinite(output).all():
            raise RuntimeError(f"{side} gives non-finite logits (NaN or inf) at shape {tuple(output.shape)}: "
                               "expected finite ones to compare the export against eager")
    return float((got.float() - want.float()).abs().max())


def check_pt2(program, checks: list[dict], wrapped: Named, path: Path) -> dict[str, Any]:
    """Save the program, load it back and run it on every check input."""
    torch.export.save(program, path)
    loaded = torch.export.load(path).module()
    with torch.no_grad():
        diffs = [max_diff(loaded(**x), wrapped(**x)) for x in checks]
    return {"file": path.name, "max_abs_diff": max(diffs)}


def check_onnx(program, checks: list[dict], wrapped: Named, path: Path) -> dict[str, Any]:
    """torch.onnx.export of the program (dynamic axes named batch / sequence), then onnxruntime on every check
    input where it is installed."""
    onnx_program = torch.onnx.export(program, (), dynamo=True, output_names=["logits"], verbose=False)
    onnx_program.save(str(path))
    name_axes(path, checks[0])
    try:
        import onnxruntime
    except ImportError:
        return {"file": path.name, "max_abs_diff": None, "checked": "onnxruntime is not installed"}
    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    diffs = []
    for x in checks:
        got = session.run(["logits"], {n: x[n].cpu().numpy() for n in names})[0]
        with torch.no_grad():
            diffs.append(max_diff(torch.from_numpy(got), wrapped(**x).cpu()))
    return {"file": path.name, "max_abs_diff": max(diffs), "inputs": names,
            "shapes": {i.name: i.shape for i in session.get_inputs()},
            "outputs": {o.name: o.shape for o in session.get_outputs()}}


def name_axes(path: Path, inputs: dict[str, torch.Tensor]) -> None:
    """Rename the exporter's symbols (s44, s70) to batch and sequence throughout the ONNX graph."""
    import onnx

    model = onnx.load(str(path))
    names = {}
    for value in model.graph.input:
        for axis, dim in enumerate(value.type.tensor_type.shape.dim):
            if dim.dim_param and axis < 2:
                names.setdefault(dim.dim_param, ("batch", "sequence")[axis])
    for value in [*model.graph.input, *model.graph.output, *model.graph.value_info]:
        for dim in value.type.tensor_type.shape.dim:
            if dim.dim_param in names:
                dim.dim_param = names[dim.dim_param]
    onnx.save(model, str(path))


def export(model: nn.Module, out: Path, formats: tuple[str, ...] = FORMATS, batch_size: int = 2,
           seq_len: int | None = None, attention: str = "sdpa", atol: float = 1e-4, seed: int = 0) -> dict[str, Any]:
    """Export `model` in each format into `out` and check each against eager (module docstring); returns (and
    writes) export.json's content. ValueError for sizes check_sizes refuses; RuntimeError when an export
    differs from eager by more than atol, or either gives a NaN or inf."""
    seq_len = check_sizes(batch_size, seq_len, model)
    model = model.eval()
    set_attention_backend(model, attention)
    wrapped = named_model(model)
    inputs = example_inputs(model, batch_size, seq_len, seed)
    program, axes, notes = trace(wrapped, inputs)
    shapes = check_shapes(model, batch_size, seq_len, axes)
    checks = [inputs] + [example_inputs(model, b, t, seed + 1 + i) for i, (b, t) in enumerate(shapes)]
    out.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {
        "model": type(model).__name__, "family": getattr(model.config, "family", None),
        "inputs": {k: {"shape": list(v.shape), "dtype": str(v.dtype)} for k, v in inputs.items()},
        "outputs": ["logits"], "dynamic_axes": list(axes), "static_axes": notes,
        "checked_shapes": [{k: list(v.shape) for k, v in x.items()} for x in checks], "attention": attention,
        "torch": torch.__version__}
    checkers = {"pt2": check_pt2, "onnx": check_onnx}
    for fmt in formats:
        result = checkers[fmt](program, checks, wrapped, out / f"model.{fmt}")
        report[fmt] = result
        if result["max_abs_diff"] is not None and result["max_abs_diff"] > atol:
            raise RuntimeError(f"{fmt}: the exported program differs from eager by {result['max_abs_diff']:.3g} "
                               f"(more than --atol {atol})")
    atomic_write_text(out / "export.json", json.dumps(report, indent=2) + "\n")
    return report


def main(argv=None) -> int:
    args = parse_args(argv)
    formats = FORMATS if args.format == "both" else (args.format,)
    model_kind(args.model)  # a --model that is not there is said before --out is made
    output_dir(args.out, "--out", [*(f"model.{fmt}" for fmt in formats), "export.json"])
    apply_threads(args)
    model = place(load_model(args.model), args)
    if not hasattr(model, "example_inputs"):
        raise UsageError(f"--model {args.model!r}: a {type(model).__name__} has no example_inputs to trace with")
    try:
        seq_len = check_sizes(args.batch_size, args.seq_len, model, names=("--batch-size", "--seq-len"))
    except ValueError as error:
        raise UsageError(str(error)) from None
    report = export(model, args.out, formats, args.batch_size, seq_len, args.attention, args.atol, args.seed)
    print(f"dynamic axes: {', '.join(report['dynamic_axes']) or 'none'}"
          + "".join(f"; {note}" for note in report["static_axes"]))
    shapes = "; ".join(", ".join(f"{name} {shape}" for name, shape in x.items()) for x in report["checked_shapes"])
    print(f"checked at: {shapes}")
    for fmt in formats:
        r = report[fmt]
        diff = "not checked" if r["max_abs_diff"] is None else f"max abs diff {r['max_abs_diff']:.2e} vs eager"
        print(f"{args.out / r['file']}: {diff}")
    return 0
