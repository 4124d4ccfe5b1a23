"""zoo export (zoo/cli/export.py, scripts/export.py): torch.export of every family's forward on its tiny preset,
saved and loaded back, equals eager; ONNX with named inputs, a logits output and dynamic batch and sequence axes
runs in onnxruntime as eager at shapes other than the traced one; any model form on the command line."""
import json
import subprocess
import sys

import numpy as np
import pytest
import torch

import zoo
from tests.helpers import ROOT, load_script, tiny_hf_decoder, tiny_presets
from zoo.cli import export

ONNX_IN_CI = ("gpt_tiny", "bert_tiny", "vit_tiny_patch2_8", "whisper_micro", "llava_tiny")  # the rest: -m slow


@pytest.mark.parametrize("name", tiny_presets())
def test_torch_export_round_trip_equals_eager(name, tmp_path):
    model = zoo.create_model(name)
    report = export.export(model, tmp_path, ("pt2",), atol=1e-5)
    assert report["pt2"]["max_abs_diff"] <= 1e-5 and len(report["checked_shapes"]) == 3
    program = torch.export.load(tmp_path / "model.pt2").module()
    inputs = export.example_inputs(model, 2, 8, seed=7)  # not one of the draws export checked
    with torch.no_grad():
        torch.testing.assert_close(program(**inputs), export.named_model(model)(**inputs), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", [n if n in ONNX_IN_CI else pytest.param(n, marks=pytest.mark.slow)
                                  for n in tiny_presets()])
def test_onnx_export_runs_in_onnxruntime_as_eager(name, tmp_path):
    pytest.importorskip("onnxruntime")
    report = export.export(zoo.create_model(name), tmp_path, ("onnx",), atol=1e-4)
    assert report["onnx"]["max_abs_diff"] <= 1e-4 and (tmp_path / "model.onnx").stat().st_size > 0
    assert list(report["onnx"]["outputs"]) == ["logits"] and "batch" in report["dynamic_axes"]
    if name.startswith(("bert", "whisper")):  # learned positions from the sequence length stay symbolic
        assert report["dynamic_axes"] == ["batch", "sequence"] and not report["static_axes"]


@pytest.mark.parametrize("name,inputs", [("gpt_tiny", {"input_ids", "position_ids"}),
                                         ("vit_tiny_patch2_8", {"pixel_values"})])
def test_onnx_round_trip_at_two_other_shapes(name, inputs, tmp_path):
    """A text model and a ViT: named inputs, dynamic axes named batch (and sequence), and onnxruntime equal to
    eager at two shapes the export was not traced at; the ViT's image keeps its config's size."""
    ort = pytest.importorskip("onnxruntime")
    model = zoo.create_model(name).eval()
    report = export.export(model, tmp_path, ("onnx",), batch_size=2, seq_len=6)
    session = ort.InferenceSession(str(tmp_path / "model.onnx"), providers=["CPUExecutionProvider"])
    assert {i.name for i in session.get_inputs()} == inputs and [o.name for o in session.get_outputs()] == ["logits"]
    shapes = {i.name: i.shape for i in session.get_inputs()}
    if name == "gpt_tiny":
        assert report["dynamic_axes"] == ["batch", "sequence"] and shapes["input_ids"] == ["batch", "sequence"]
    else:
        assert shapes["pixel_values"] == ["batch", 1, 8, 8]  # vit_tiny_patch2_8: 8 x 8 grey, whatever --seq-len
    for batch, seq in ((1, 3), (4, 13)):
        x = export.example_inputs(model, batch, seq, seed=batch)
        got = session.run(["logits"], {k: v.numpy() for k, v in x.items()})[0]
        with torch.no_grad():
            want = export.named_model(model)(**x).numpy()
        assert got.shape == want.shape and got.shape[0] == batch
        np.testing.assert_allclose(got, want, atol=1e-4)


def test_any_model_form_on_the_command_line(tmp_path, capsys):
    zoo.create_model("bert_tiny").save_pretrained(tmp_path / "bert")
    assert export.main(["--model", str(tmp_path / "bert"), "--out", str(tmp_path / "x"), "--format", "pt2",
                        "--batch-size", "2", "--seq-len", "5"]) == 0
    report = json.loads((tmp_path / "x" / "export.json").read_text())
    assert report["family"] == "bert" and report["inputs"]["input_ids"]["shape"] == [2, 5]
    assert "attention_mask" in report["inputs"] and "max abs diff" in capsys.readouterr().out
    reference, _ = tiny_hf_decoder("gpt2")
    reference.save_pretrained(tmp_path / "hf_gpt2")  # an HF directory: once refused as "not a zoo config"
    export.main(["--model", str(tmp_path / "hf_gpt2"), "--out", str(tmp_path / "y"), "--format", "pt2"])
    assert json.loads((tmp_path / "y" / "export.json").read_text())["family"] == "gpt"


@pytest.mark.parametrize("model,message", [("no_such_model", "is neither a preset nor an existing path"),
                                           ("openai/whisper-base", "looks like a hub id"),
                                           ("runs/no/such/dir", "does not exist")])
def test_a_model_that_is_not_there_is_one_line_and_status_2(model, message, tmp_path):
    proc = subprocess.run([sys.executable, "scripts/export.py", "--model", model, "--out", str(tmp_path / "y")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and message in proc.stderr and "expected a preset" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert load_script("export").main is export.main
