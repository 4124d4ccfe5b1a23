"""scripts/train_multimodal.py end to end on tiny settings: stage 1 (projector on captions) and stage 2 (projector
and language model on questions) train on the shared engine, the loss goes down, a resumed run logs the losses of
an uninterrupted one, and the saved model answers held-out questions through the public API as the run scored."""
import json
from pathlib import Path

import pytest
import torch

import zoo
from data.images import load_preprocess_config
from data.llava_processor import LlavaProcessor, clip_transform
from data.scene_dataset import ShapeScenes
from data.scenes import DEFAULT_KINDS, PROMPT_FORMAT, normalize_answer
from data.tokenization import load_tokenizer
from tests.helpers import stop_after_checkpoint
from zoo.cli import chat, train_multimodal  # scripts/train_multimodal.py and chat.py wrap their mains
from zoo.generation import GenerationConfig

TINY = ["--scenes", "60", "--eval-scenes", "4", "--batch-size", "16", "--vocab-size", "300", "--warmup", "2",
        "--no-progress", "--threads", "1"]


def train_losses(out: Path) -> dict[int, float]:
    return {r["step"]: r["loss"] for r in map(json.loads, (out / "metrics.jsonl").read_text().splitlines())
            if r["split"] == "train"}


@pytest.fixture(scope="module")
def stage1(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("stage1")
    train_multimodal.main([*TINY, "--stage", "1", "--steps", "3", "--eval-every", "0", "--out", str(out)])
    return out


def test_stage1_trains_the_projector_alone(stage1):
    summary = json.loads((stage1 / "summary.json").read_text())
    assert summary["stage"] == 1 and summary["steps"] == 3 and sorted(train_losses(stage1)) == [1, 2, 3]
    trained = zoo.load_pretrained(stage1 / "model")
    torch.manual_seed(0)  # the script's seed: the same initial weights
    fresh = zoo.create_model("llava_scenes")
    for name, p in trained.state_dict().items():
        assert torch.equal(p, fresh.state_dict()[name]) != name.startswith("projector."), name
    for name in ("tokenizer.json", "preprocess_config.json"):
        assert (stage1 / "model" / name).is_file()
    assert load_tokenizer(stage1 / "model").vocab_size <= 300 < trained.config.image_token_id


def test_stage2_learns_resumes_and_answers_through_the_public_api(stage1, tmp_path, monkeypatch):
    args = [*TINY, "--stage", "2", "--init", str(stage1), "--steps", "60", "--lr", "5e-3", "--eval-every", "30",
            "--eval-batches", "1"]
    straight = tmp_path / "straight"
    summary = train_multimodal.main([*args, "--out", str(straight)])
    losses = train_losses(straight)
    assert sorted(losses) == list(range(1, 61))
    first, last = sum(losses[s] for s in range(1, 6)) / 5, sum(losses[s] for s in range(56, 61)) / 5
    assert last < 0.5 * first, (first, last)  # ln 512 = 6.2 at the start; worked relation answers are a dozen tokens
    assert summary == json.loads((straight / "summary.json").read_text())
    for split in ("val", "phrasing", "test"):
        scores = summary[f"{split}_acc"]
        assert 0.0 <= scores["overall"] <= 1.0 and set(scores) - {"overall"} <= set(DEFAULT_KINDS)
    rows = [json.loads(line) for line in (straight / "answers.jsonl").read_text().splitlines()]
    asked = [split for split in ("val", "phrasing", "test") if any(r["split"] == split and r["kind"] == "relation"
                                                                   for r in rows)]
    assert asked and all(f"{split}_worked" in summary for split in asked)
    for split in asked:  # each part of the worked relation answers, from answers.jsonl
        relation = [r for r in rows if r["split"] == split and r["kind"] == "relation"]
        worked = summary[f"{split}_worked"]["relation"]
        assert worked["questions"] == len(relation)
        assert worked["verdict"] == sum(r["answer"].split(": ")[1] == r["predicted"].split(": ")[-1].strip()
                                        for r in relation) / len(relation)

    resumed = tmp_path / "resumed"
    stop_after_checkpoint(monkeypatch, lambda: train_multimodal.main([*args, "--save-every", "35", "--out",
                                                                      str(resumed)]))  # killed at step 35
    assert max(train_losses(resumed)) == 35
    train_multimodal.main([*args, "--out", str(resumed), "--resume"])
    assert train_losses(resumed) == losses  # bit for bit: data order, RNG, optimizer

    # The saved model, its tokenizer and preprocessing answer the held-out questions as the run scored them.
    directory = straight / "model"
    model = zoo.load_pretrained(directory).eval()
    pre = load_preprocess_config(directory, model.config.vision)
    processor = LlavaProcessor(load_tokenizer(directory), model.config.image_token_id, model.num_image_tokens,
                               clip_transform(pre["size"], mean=pre["mean"], std=pre["std"]))
    rows = [json.loads(line) for line in (straight / "answers.jsonl").read_text().splitlines()]
    test = ShapeScenes("test", 4, image_size=pre["size"])
    assert [r["prompt"] for r in rows if r["split"] == "test"] == [s.prompt for s in test]
    samples = [test[i] for i in range(3)]
    inputs = processor([s.prompt for s in samples], [[s.image] for s in samples])
    out = zoo.generate(model, inputs["input_ids"], 24, attention_mask=inputs["attention_mask"],
                       pixel_values=inputs["pixel_values"], eos_id=processor.eos_id)
    for row, tokens in zip([r for r in rows if r["split"] == "test"], out[:, inputs["input_ids"].shape[1]:].tolist()):
        tokens = tokens[:tokens.index(processor.eos_id)] if processor.eos_id in tokens else tokens
        assert processor.tokenizer.decode(tokens) == row["predicted"]
        assert row["correct"] == (normalize_answer(row["predicted"]) == normalize_answer(row["answer"]))
    test_rows = [r for r in rows if r["split"] == "test"]
    assert summary["test_acc"]["overall"] == pytest.approx(sum(r["correct"] for r in test_rows) / len(test_rows))


def test_tower_from_a_vit(tmp_path):
    """--tower: a grey ViT's weights become the tower (patch projection repeated over RGB, divided by 3)."""
    torch.manual_seed(1)
    vit = zoo.create_model("vit_tiny_patch2_8", image_size=48, patch_size=16)
    vit.save_pretrained(tmp_path / "vit")
    out = tmp_path / "run"
    summary = train_multimodal.main([*TINY, "--stage", "1", "--tower", str(tmp_path / "vit"), "--steps", "1",
                                     "--eval-every", "0", "--out", str(out)])
    assert summary["tower"] == str(tmp_path / "vit")
    tower = zoo.load_pretrained(out / "model").vision_tower
    vit_state = vit.state_dict()
    for name, p in tower.state_dict().items():
        if name != "patch_embed.proj.weight":
            assert torch.equal(p, vit_state[name]), name
    grey = vit.patch_embed.proj.weight  # (D, 1, P, P)
    assert torch.allclose(tower.patch_embed.proj.weight, grey.repeat(1, 3, 1, 1) / 3)


def test_sincos_tower_positions():
    """--tower-positions sincos: the tower's patch positions become 2-D sin-cos values, the class token's stays,
    and nothing else in the model moves; stage 2 refuses it (its --init holds a tower)."""
    from backbones.positions import sincos_2d

    model = zoo.create_model("llava_scenes")
    before = {k: v.clone() for k, v in model.state_dict().items()}
    train_multimodal.sincos_tower_positions(model)
    embed = model.vision_tower.patch_embed
    assert torch.equal(embed.pos_embed[0, 1:], sincos_2d(3, 3, 128)) and embed.pos_prefix == 1
    changed = [k for k, v in model.state_dict().items() if not torch.equal(v, before[k])]
    assert changed == ["vision_tower.patch_embed.pos_embed"]
    assert torch.equal(embed.pos_embed[0, 0], before["vision_tower.patch_embed.pos_embed"][0, 0])
    with pytest.raises(SystemExit, match="--tower-positions"):
        train_multimodal.main(["--stage", "2", "--init", "somewhere", "--tower-positions", "sincos"])


def test_grey_tower_filters():
    """--tower-filters half-grey: the first half of the patch filters equal over the colour channels (so one
    shape gives them the same map in any colour), the rest untouched, nothing else moves; refused with --init
    and with a trained --tower."""
    model = zoo.create_model("llava_scenes")
    before = {k: v.clone() for k, v in model.state_dict().items()}
    train_multimodal.grey_tower_filters(model)
    weight, old = model.vision_tower.patch_embed.proj.weight, before["vision_tower.patch_embed.proj.weight"]
    assert torch.allclose(weight[:64], old[:64].mean(1, keepdim=True).expand(-1, 3, -1, -1) * 3 ** 0.5)
    assert torch.equal(weight[64:], old[64:]) and not torch.equal(weight[:64], old[:64])
    assert [k for k, v in model.state_dict().items() if not torch.equal(v, before[k])] == \
        ["vision_tower.patch_embed.proj.weight"]
    mask = torch.zeros(1, 3, 16, 16)
    mask[..., 4:12, 4:12] = 1
    red, blue = mask * torch.tensor([1.0, 0, 0]).view(1, 3, 1, 1), mask * torch.tensor([0, 0, 1.0]).view(1, 3, 1, 1)
    conv = torch.nn.functional.conv2d
    assert torch.allclose(conv(red, weight[:64]), conv(blue, weight[:64]))
    assert not torch.allclose(conv(red, weight[64:]), conv(blue, weight[64:]))
    with pytest.raises(SystemExit, match="--tower-filters"):
        train_multimodal.main(["--stage", "2", "--init", "somewhere", "--tower-filters", "half-grey"])
    with pytest.raises(SystemExit, match="--tower-filters"):
        train_multimodal.main(["--stage", "1", "--tower", "somewhere", "--tower-filters", "half-grey"])


def test_stage2_needs_init():
    with pytest.raises(SystemExit, match="--init"):
        train_multimodal.main(["--stage", "2", "--steps", "1"])


@pytest.mark.slow
def test_same_script_under_torchrun_ddp(stage1, tmp_path):
    """DESIGN's scale-out: the unchanged script under torchrun, 2 CPU processes, gloo (stage 2 from stage 1)."""
    import subprocess
    import sys

    out = tmp_path / "ddp"
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2",
           str(train_multimodal.__file__), *TINY, "--stage", "2", "--init", str(stage1), "--steps", "3",
           "--eval-every", "0", "--device", "cpu", "--out", str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert sorted(train_losses(out)) == [1, 2, 3]
    assert zoo.load_pretrained(out / "model").config.family == "llava"


def test_kinds_and_prompt_choose_what_is_asked_and_how(stage1, tmp_path):
    """--kinds trains and scores those kinds alone; --prompt puts the image where it says, in training, in the
    scoring and in the saved model's prompt_format.json, which scripts/chat.py follows; stage 2 takes --init's
    format unless told."""
    from data.llava_processor import PROMPT_FILE, load_prompt_format, save_prompt_format

    assert json.loads((stage1 / "model" / PROMPT_FILE).read_text()) == {"prompt_format": PROMPT_FORMAT}
    out = tmp_path / "run"
    args = [*TINY, "--stage", "2", "--steps", "2", "--eval-every", "0", "--kinds", "positions,relation"]
    summary = train_multimodal.main([*args, "--init", str(stage1), "--prompt", "image-first", "--out", str(out)])
    rows = [json.loads(line) for line in (out / "answers.jsonl").read_text().splitlines()]
    assert rows and {r["kind"] for r in rows} <= {"positions", "relation"} and set(summary["val_acc"]) > {"overall"}
    assert summary["kinds"] == ["positions", "relation"]
    assert all(r["prompt"].startswith("<image>\n") and r["prompt"].endswith("?\nanswer:") for r in rows)
    assert all(" and " in r["answer"] and 3 <= len(r["answer"].split()) <= 5 for r in rows if r["kind"] == "positions")
    model, processor, size, prompt_format = chat.load(str(out / "model"))
    assert prompt_format == summary["prompt_format"] == train_multimodal.PROMPTS["image-first"]
    conversation = chat.Conversation(model, processor, chat.load_image("scene:val:0", size),
                                     GenerationConfig(max_new_tokens=2), prompt_format=prompt_format)
    ids = conversation._turn_ids("where is the red circle?")
    start = 1 if processor.bos_id is not None else 0
    assert ids[start:start + model.num_image_tokens] == [model.config.image_token_id] * model.num_image_tokens
    # stage 2 from the image-first model, no --prompt: its format; every --prompt is a format the model can keep
    again = train_multimodal.main([*args, "--init", str(out), "--out", str(tmp_path / "again")])
    assert again["prompt_format"] == prompt_format
    for name, prompt_format in train_multimodal.PROMPTS.items():
        save_prompt_format(prompt_format, tmp_path)
        assert load_prompt_format(tmp_path, "") == prompt_format, name


def test_bad_kinds_are_named():
    with pytest.raises(SystemExit, match=r"--kinds colour,positons: unknown \['positons'\]; expected a non-empty"):
        train_multimodal.parse_args(["--stage", "1", "--kinds", "colour,positons"])


def test_default_sets_ask_the_six_measured_kinds():
    items = ShapeScenes("train", 40).items
    assert items and {qa.kind for _, qa in items} == set(DEFAULT_KINDS)


def test_text_depth_sets_the_language_models_layers_in_stage_1_only(tmp_path):
    out = tmp_path / "deep"
    train_multimodal.main([*TINY, "--stage", "1", "--steps", "1", "--eval-every", "0", "--text-depth", "2",
                           "--out", str(out)])
    model = zoo.load_pretrained(out / "model")
    assert model.config.text.depth == 2 != zoo.create_model("llava_scenes").config.text.depth
    assert len(model.language_model.transformer.blocks) == 2
    with pytest.raises(SystemExit, match="--text-depth"):
        train_multimodal.parse_args(["--stage", "2", "--init", str(out), "--text-depth", "6"])
    with pytest.raises(SystemExit, match="--text-depth must be at least 1"):
        train_multimodal.parse_args(["--stage", "1", "--text-depth", "0"])
