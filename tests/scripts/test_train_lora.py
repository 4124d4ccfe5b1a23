"""--lora through the training scripts (zoo/training/lora.py): a run's checkpoint holds its adapters alone, its
model/ holds them in peft's format beside lora_base.json and loads back (load_trained) to the model the run scored,
--resume refuses another base and so does loading, QLoRA and a new classifier head train, two DDP processes log
one process's losses, and every script (text, vision, audio, multimodal, translation) takes the options."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import torch

import zoo
from data.lm_dataset import train_val_split
from data.loader import iterate_once
from data.parallel import PARALLEL_EXTRACT, SPLITS
from data.tokenization import train_bpe
from tests.helpers import ROOT, load_script
from tests.scripts.test_ddp_equality import TEXT, single_and_ddp
from tests.scripts.test_train_text import TINY, corpus  # noqa: F401  (the module's corpus fixture)
from tests.scripts.test_train_translation import TINY as MT
from tests.scripts.test_train_vision import digits_test_set
from zoo.cli import train_multimodal, train_text, train_translation
from zoo.cli.common import UsageError
from zoo.cli.models import load_model
from zoo.io import CheckpointMismatchError, load_torch_checkpoint
from zoo.lora import adapted_layers
from zoo.training.lora import BASE_NAME, LoRAConfig, frozen_sha256, load_trained, prepare_lora
from zoo.training.tasks import causal_lm_loss, held_out_loss

train_vision = load_script("train_vision")
train_audio = load_script("train_audio")
SPEECH = ROOT / "data" / "speech_tiny"


def test_a_text_lora_run_saves_its_adapter_and_loads_back_as_the_model_it_scored(corpus, tmp_path):  # noqa: F811
    out = tmp_path / "gpt"
    train_text.main(["--model", "gpt_tiny", "--data", str(corpus), "--out", str(out), "--lora", "4", *TINY])
    model_dir = out / "model"
    assert {"adapter_config.json", "adapter_model.safetensors", BASE_NAME, "tokenizer.json"} <= {
        p.name for p in model_dir.iterdir()}
    assert not (model_dir / "model.safetensors").exists() and (model_dir / "base" / "model.safetensors").is_file()
    reference = json.loads((model_dir / BASE_NAME).read_text())
    assert reference["path"] == "base" and reference["quantization"] is None

    model = load_trained(model_dir).eval()
    assert len(adapted_layers(model)) == 16 and model.lora_base.sha256 == reference["sha256"]
    ckpt = load_torch_checkpoint(out / "checkpoint.pt")
    assert set(ckpt["model"]) == {f"{n}.lora_{w}" for n in adapted_layers(model) for w in "AB"}
    for name, layer in adapted_layers(model).items():  # the adapter written in peft's format is the one trained
        # (GPT-2's q, k and v adapters travel as one c_attn adapter: compare what each adds, s B A)
        trained = ckpt["model"][f"{name}.lora_B"] @ ckpt["model"][f"{name}.lora_A"] * 8 / 4
        torch.testing.assert_close(layer.delta_weight(), trained, rtol=1e-5, atol=1e-7)
    _, val_set = train_val_split(out / "tokens.bin", 32, val_fraction=0.1)
    summary = json.loads((out / "summary.json").read_text())
    held_out = held_out_loss(model, iterate_once(val_set, 4), causal_lm_loss)
    assert held_out == pytest.approx(summary["held_out_loss"], rel=1e-6)

    plain = load_trained(model_dir, merge=True)  # what --init takes: the adapters folded in
    assert not adapted_layers(plain)
    ids = torch.tensor([[5, 6, 7, 8]])
    cli = load_model(str(model_dir))  # every command's --model (generate, chat, serve): merged too
    assert not adapted_layers(cli)
    with torch.no_grad():
        torch.testing.assert_close(plain.eval()(ids), model(ids), rtol=1e-4, atol=1e-5)
        torch.testing.assert_close(cli(ids), model(ids), rtol=1e-4, atol=1e-5)

    train_text.main(["--model", "gpt_tiny", "--data", str(corpus), "--out", str(out), "--lora", "4", "--resume",
                     "--steps", "6", *TINY[2:]])
    assert [r["step"] for r in map(json.loads, (out / "metrics.jsonl").read_text().splitlines())
            if r["split"] == "train"] == [1, 2, 3, 4, 5, 6]

    torch.manual_seed(1)  # the run left the RNG as seed 0 made it: the base's weights would come again
    zoo.create_model("gpt_tiny", vocab_size=400).save_pretrained(model_dir / "base")  # other weights
    with pytest.raises(CheckpointMismatchError, match="changed or replaced"):
        load_trained(model_dir)


def test_resume_over_another_base_is_refused_and_qlora_trains_over_init(corpus, tmp_path):  # noqa: F811
    bases = {}
    for seed in (0, 1):
        torch.manual_seed(seed)
        bases[seed] = tmp_path / f"base{seed}"
        zoo.create_model("gpt_tiny", vocab_size=400).save_pretrained(bases[seed])
    out = tmp_path / "qlora"
    common = ["--data", str(corpus), "--tokenizer", str(tmp_path / "tokenizer.json"), "--lora", "4",
              "--lora-base-quantize", "int8", "--lora-targets", "q_proj", "v_proj", "fc1", "--out", str(out)]
    train_bpe([Path(corpus).read_text()], vocab_size=400).save(tmp_path / "tokenizer.json")
    train_text.main(["--init", str(bases[0]), *common, *TINY])
    reference = json.loads((out / "model" / BASE_NAME).read_text())
    assert reference["path"] == str(bases[0].resolve()) and reference["quantization"]["scheme"] == "int8"
    model = load_trained(out / "model")
    assert type(model.transformer.blocks[0].ffn.fc1).__name__ == "LoRAQuantizedLinear"
    assert type(model.transformer.blocks[0].ffn.fc2).__name__ == "QuantizedLinear"  # frozen, not adapted
    with pytest.raises(CheckpointMismatchError, match="sha256"):
        train_text.main(["--init", str(bases[1]), *common, "--resume", "--steps", "6", *TINY[2:]])


def test_vision_fine_tuning_trains_the_new_head_and_scores_what_it_saves(tmp_path):
    tiny = ["--model", "vit_tiny_patch2_8", "--data", "digits", "--batch-size", "16", "--warmup", "1",
            "--eval-every", "0", "--no-progress", "--steps", "2"]
    train_vision.main([*tiny, "--out", str(tmp_path / "base")])
    out = tmp_path / "lora"
    summary = train_vision.main([*tiny, "--init", str(tmp_path / "base" / "model"), "--lora", "2", "--out", str(out)])
    assert json.loads((out / "model" / BASE_NAME).read_text())["num_classes"] == 10
    saved = load_torch_checkpoint(out / "checkpoint.pt")["model"]
    assert {k for k in saved if not k.endswith(("lora_A", "lora_B"))} == {"head.fc.weight", "head.fc.bias"}
    model = load_trained(out / "model").eval()
    pixels, labels = digits_test_set(tmp_path / "base" / "model")  # the same test split and preprocessing
    with torch.no_grad():
        logits = model(pixels)
    assert (logits.argmax(-1) == labels).float().mean().item() == pytest.approx(summary["test_acc"], abs=1e-6)
    assert torch.nn.functional.cross_entropy(logits, labels).item() == pytest.approx(summary["test_loss"], rel=1e-5)


def test_lora_options_out_of_range_are_usage_errors(corpus, tmp_path):  # noqa: F811
    text = ["--model", "gpt_tiny", "--data", str(corpus), "--out", str(tmp_path / "run"), *TINY]
    for extra, message in ((["--lora-alpha", "8"], "--lora-alpha without --lora"),
                           (["--lora-base-quantize", "int8"], "--lora-base-quantize without --lora"),
                           (["--lora", "0"], "--lora 0: expected a rank >= 1"),
                           (["--lora", "2", "--lora-dropout", "1.5"], r"--lora-dropout 1.5: expected a float in "
                                                                       r"\[0, 1\)"),
                           (["--lora", "2", "--lora-targets", "nothing_here"], "match no Linear layer")):
        with pytest.raises(UsageError, match=message):
            train_text.main([*text, *extra])
    assert not (tmp_path / "run" / "model").exists()  # the targets were refused before the fresh base was written


def test_two_ddp_processes_log_one_process_losses(tmp_path):
    one, two = single_and_ddp("train_text.py", [*TEXT, "--lora", "4", "--lora-dropout", "0"], 4, tmp_path)
    assert len(one) == 4 and two == pytest.approx(one, rel=1e-5, abs=1e-6)
    assert len(adapted_layers(load_trained(tmp_path / "two" / "model"))) == 16


# --------------------------------------------------------------------------- every script takes --lora


def keywords(out: Path) -> None:
    train_audio.main(["--task", "keywords", "--data", str(SPEECH / "keywords"), "--steps", "2", "--batch-size", "16",
                      "--warmup", "1", "--eval-every", "0", "--no-progress", "--threads", "1", "--lora", "2",
                      "--out", str(out)])


def asr(out: Path) -> None:
    train_audio.main(["--task", "asr", "--data", str(SPEECH / "asr"), "--steps", "2", "--batch-size", "8",
                      "--warmup", "1", "--eval-every", "0", "--eval-limit", "1", "--no-progress", "--threads", "1",
                      "--lora", "2", "--out", str(out)])


def multimodal(out: Path) -> None:
    common = ["--scenes", "20", "--eval-scenes", "2", "--batch-size", "8", "--warmup", "1", "--no-progress",
              "--threads", "1", "--steps", "2", "--eval-every", "0", "--lora", "2"]
    stage1 = out.parent / "stage1"
    train_multimodal.main(["--stage", "1", "--vocab-size", "300", *common, "--out", str(stage1)])
    # stage 2 starts from stage 1's base with its adapters merged, and trains adapters of its own
    train_multimodal.main(["--stage", "2", "--init", str(stage1), *common, "--out", str(out)])
    assert json.loads((out / "model" / BASE_NAME).read_text())["path"] == str((stage1 / "model").resolve())


def translation(out: Path, tmp_path: Path) -> None:
    data = tmp_path / "parallel"
    data.mkdir()
    for split in SPLITS:
        for language in ("en", "es"):
            lines = (PARALLEL_EXTRACT / f"{split}.{language}").read_text(encoding="utf-8").splitlines()
            (data / f"{split}.{language}").write_text("\n".join(lines[:200 if split == "train" else 3]) + "\n")
    train_translation.main(["--data", str(data), "--steps", "2", "--eval-every", "0", "--beam-size", "1", *MT,
                            "--save-every", "1", "--keep-last", "2", "--average", "2", "--lora", "2",
                            "--out", str(out)])  # the mean of two LoRA checkpoints: their adapters
    assert json.loads((out / "summary.json").read_text())["averaged"] == ["checkpoint-00000001.pt", "checkpoint.pt"]


@pytest.mark.parametrize("script", [keywords, asr, multimodal, translation])
def test_every_script_trains_adapters_and_saves_them_beside_its_base(script, tmp_path):
    out = tmp_path / "run"
    script(out, tmp_path) if script is translation else script(out)
    model = load_trained(out / "model")
    assert adapted_layers(model) and (model.lora_base.path == "base") == (script is not multimodal)
    ckpt = load_torch_checkpoint(out / "checkpoint.pt")
    assert ckpt["lora_base"]["sha256"] == frozen_sha256(model) == model.lora_base.sha256
    trained = {name for name, p in model.named_parameters() if p.requires_grad}
    # asr trains a CTC head beside the Whisper (WithCTC: the Whisper under "model."), which model/ leaves out
    assert {k.removeprefix("model.") for k in ckpt["model"] if not k.startswith("ctc.")} == trained
    assert len(ckpt["model"]) < len(model.state_dict()) / 2
    shutil.rmtree((tmp_path / "stage1" if script is multimodal else out) / "model" / "base")  # the first base
    with pytest.raises(FileNotFoundError):
        load_trained(out / "model")


def test_a_prepared_model_hashes_what_it_was_given(tmp_path):
    """The hash is of the frozen tensors: the same weights give it whatever the adapters, other weights do not."""
    torch.manual_seed(0)
    model = zoo.create_model("gpt_tiny")
    same = zoo.create_model("gpt_tiny")
    same.load_state_dict(model.state_dict())
    one = prepare_lora(model, LoRAConfig(2, 4.0), tmp_path, tmp_path)
    two = prepare_lora(same, LoRAConfig(8, 16.0, targets=("fc1",)), tmp_path, tmp_path)
    assert one.lora_base.sha256 == two.lora_base.sha256
    with torch.no_grad():
        same.embed.tokens.weight[0, 0] += 1e-3
    assert frozen_sha256(same) != one.lora_base.sha256
