"""zoo export (zoo/cli/export.py, scripts/export.py): torch.export of every family's forward on its tiny preset,
saved and loaded back, equals eager; ONNX with named inputs, a logits output and dynamic batch and sequence axes
runs in onnxruntime as eager at shapes other than the traced one; any model form on the command line; each
family's image or audio shape from its config; sizes and --out checked before any work, in one line."""
import json
import subprocess
import sys

import numpy as np
import pytest
import torch

import zoo
from tests.helpers import ROOT, load_script, tiny_hf_decoder, tiny_presets
from zoo.cli import export
from zoo.cli.common import run

ONNX_IN_CI = ("gpt_tiny", "bert_tiny", "vit_tiny_patch2_8", "whisper_micro", "llava_tiny")  # the rest: -m slow


def config_shapes(model) -> dict[str, tuple[int, ...]]:
    """The non-token inputs' shapes past the batch axis, as the family's config sets them."""
    c = model.config
    if c.family in ("vit", "clip"):
        return {"pixel_values": (c.in_chans, c.image_size, c.image_size)}
    if c.family == "ast":
        return {"input_values": (c.max_length, c.num_mel_bins)}
    if c.family == "whisper":
        return {"input_features": (c.n_mels, 2 * c.audio_ctx)}  # two mel frames per audio token
    if c.family == "llava":  # one image, whatever the batch
        return {"pixel_values": (1, c.vision.in_chans, c.vision.image_size, c.vision.image_size)}
    return {}


@pytest.mark.parametrize("name", tiny_presets())
def test_torch_export_round_trip_equals_eager(name, tmp_path):
    """Traced with the family's image or audio shape (never --seq-len's), and checked at two other batches (and
    lengths, for token inputs) on inputs of their own draw."""
    model = zoo.create_model(name)
    report = export.export(model, tmp_path, ("pt2",), atol=1e-5)
    assert report["pt2"]["max_abs_diff"] <= 1e-5 and len(report["checked_shapes"]) == 3
    for checked in report["checked_shapes"]:
        for key, shape in config_shapes(model).items():
            assert tuple(checked[key][-len(shape):]) == shape
    first = [next(iter(x.values())) for x in report["checked_shapes"]]
    assert sorted(shape[0] for shape in first) == [1, 2, 3] or model.config.family == "llava"  # its batch: ids
    if "sequence" in report["dynamic_axes"]:
        lengths = {x[k][1] for x in report["checked_shapes"] for k in x if k in export.TOKEN_INPUTS}
        assert len(lengths) == 3
    program = torch.export.load(tmp_path / "model.pt2").module()
    inputs = export.example_inputs(model, 2, export.check_sizes(2, None, model), seed=7)  # a draw not checked
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


def test_a_digits_vit_directory_is_traced_at_its_image_size(tmp_path, capsys):
    """The issue's case: a ViT for 8 x 8 grey digits was traced at (2, 1, 2, 14), --seq-len's 8 tokens made an
    image, and reported a max abs diff of 0. Its image size and channels come from its config now, whatever
    --seq-len says, and the diff is over the logits of three batches, each its own draw of pixels."""
    zoo.create_model("vit_tiny_patch2_8").save_pretrained(tmp_path / "digits")
    assert export.main(["--model", str(tmp_path / "digits"), "--out", str(tmp_path / "x"), "--format", "pt2",
                        "--seq-len", "8"]) == 0
    printed = capsys.readouterr().out
    assert "checked at: pixel_values [2, 1, 8, 8]; pixel_values [3, 1, 8, 8]; pixel_values [1, 1, 8, 8]" in printed
    assert "max abs diff" in printed
    model = zoo.create_model("vit_tiny_patch2_8")
    draws = [export.example_inputs(model, 2, 8, seed)["pixel_values"] for seed in (0, 1)]
    assert not torch.equal(*draws)


def test_non_finite_logits_are_refused_not_reported_as_equal(tmp_path):
    """A NaN compares as no difference: a model whose logits are NaN once passed every check."""
    model = zoo.create_model("vit_tiny_patch2_8")
    with torch.no_grad():
        model.head.fc.weight[0, 0] = float("nan")
    with pytest.raises(RuntimeError, match="eager gives non-finite logits"):
        export.export(model, tmp_path, ("pt2",))


@pytest.mark.parametrize("model,flags,message", [
    ("gpt_tiny", ["--seq-len", "0"], "--seq-len 0: expected at least 2"),
    ("gpt_tiny", ["--seq-len", "-3"], "--seq-len -3: expected at least 2"),
    ("vit_tiny_patch2_8", ["--batch-size", "0"], "--batch-size 0: expected at least 2"),
    ("gpt_tiny", ["--seq-len", "257"], "--seq-len 257: expected at most the GPT's 256 positions"),
    ("bert_tiny", ["--seq-len", "513"], "--seq-len 513: expected at most the Bert's 512 positions"),
    ("whisper_micro", ["--seq-len", "129"], "--seq-len 129: expected at most the Whisper's 128 positions"),
    ("llava_tiny", ["--seq-len", "8"], "--seq-len 8: expected at least 17"),
])
def test_sizes_out_of_range_are_one_line_before_tracing(model, flags, message, tmp_path, capsys):
    out = tmp_path / "out"
    assert run(export.main, ["--model", model, "--out", str(out), "--format", "pt2", *flags]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(message) and len(err.splitlines()) == 1
    assert not (out / "model.pt2").exists()
    name = flags[0][2:].replace("-", "_")  # export()'s argument: the same check
    with pytest.raises(ValueError, match=message.replace(flags[0], name)):
        export.export(zoo.create_model(model), out, ("pt2",), **{name: int(flags[1])})


def test_the_longest_sequence_exports_and_is_checked_within_the_positions(tmp_path):
    report = export.export(zoo.create_model("whisper_micro"), tmp_path, ("pt2",), seq_len=128)
    assert sorted(x["decoder_input_ids"][1] for x in report["checked_shapes"]) == [125, 128, 128]


@pytest.mark.parametrize("where", ["a file", "under a file", "a directory in an output's place"])
def test_an_unusable_out_is_refused_before_the_model_loads(where, tmp_path, monkeypatch, capsys):
    taken = tmp_path / "taken"
    taken.write_text("keep me")
    out = {"a file": taken, "under a file": taken / "out", "a directory in an output's place": tmp_path / "o"}[where]
    if where.startswith("a directory"):
        (out / "export.json").mkdir(parents=True)
    monkeypatch.setattr(export, "load_model", lambda *args: pytest.fail("the model was loaded"))
    assert run(export.main, ["--model", "gpt_tiny", "--out", str(out), "--format", "pt2"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"--out {str(out)!r}") and "expected" in err and len(err.splitlines()) == 1
    assert taken.read_text() == "keep me"
