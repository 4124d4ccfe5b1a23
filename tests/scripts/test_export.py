"""scripts/export.py: torch.export of every family's forward on its tiny preset, saved and loaded back, equals
eager on fresh inputs of the same shapes; ONNX through onnxruntime too; the command line end to end."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import zoo
from tests.helpers import load_script, tiny_presets

export = load_script("export")
ONNX_IN_CI = ("gpt_tiny", "vit_tiny_patch2_8", "whisper_micro", "llava_tiny")  # the rest: -m slow


@pytest.mark.parametrize("name", tiny_presets())
def test_torch_export_round_trip_equals_eager(name, tmp_path):
    model = zoo.create_model(name)
    report = export.export(model, tmp_path, ("pt2",), atol=1e-5)
    assert report["pt2"]["max_abs_diff"] <= 1e-5
    program = torch.export.load(tmp_path / "model.pt2").module()
    inputs = export.example_inputs(model, 2, 8, seed=7)  # not one of the draws export checked
    with torch.no_grad():
        torch.testing.assert_close(program(**inputs), model(**inputs), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", [n if n in ONNX_IN_CI else pytest.param(n, marks=pytest.mark.slow)
                                  for n in tiny_presets()])
def test_onnx_export_runs_in_onnxruntime_as_eager(name, tmp_path):
    pytest.importorskip("onnxruntime")
    report = export.export(zoo.create_model(name), tmp_path, ("onnx",), atol=1e-4)
    assert report["onnx"]["max_abs_diff"] <= 1e-4 and (tmp_path / "model.onnx").stat().st_size > 0


def test_command_line_from_a_saved_directory(tmp_path):
    zoo.create_model("bert_tiny").save_pretrained(tmp_path / "bert")
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "scripts/export.py", str(tmp_path / "bert"), "--out", str(tmp_path / "x"),
                           "--format", "pt2", "--batch-size", "1", "--seq-len", "5"],
                          cwd=root, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads((tmp_path / "x" / "export.json").read_text())
    assert report["family"] == "bert" and report["inputs"]["input_ids"]["shape"] == [1, 5]
    assert "max abs diff" in proc.stdout
    bad = subprocess.run([sys.executable, "scripts/export.py", "no_such_model", "--out", str(tmp_path / "y")],
                         cwd=root, capture_output=True, text=True, timeout=300)
    assert bad.returncode != 0 and "neither a directory nor a registered model" in bad.stderr
