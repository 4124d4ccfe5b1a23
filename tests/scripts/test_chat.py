"""zoo chat (zoo/cli/chat.py, scripts/chat.py) on a model saved by a one-step train_multimodal.py run: it answers,
streams, and a conversation keeps its KV cache across turns (the image encoded once) with the answers a full
recompute gives."""
import io
import sys

import pytest
import torch

from tests.helpers import load_script, one_step_llava
from zoo.cli import chat
from zoo.cli.common import run
from zoo.generation import GenerationConfig
from zoo.llava import Llava


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    return one_step_llava(tmp_path_factory.mktemp("vl"))


@pytest.fixture
def encodes(monkeypatch) -> list:
    calls = []
    original = Llava.encode_images

    def counted(self, pixel_values):
        calls.append(tuple(pixel_values.shape))
        return original(self, pixel_values)
    monkeypatch.setattr(Llava, "encode_images", counted)
    return calls


def test_answers_a_question_about_an_image_file(model_dir, tmp_path, capsys, encodes):
    from data.scene_dataset import ShapeScenes

    ShapeScenes("test", 1, image_size=64).image(0).save(tmp_path / "scene.png")  # resized to the model's 48
    answers = chat.main([str(tmp_path / "scene.png"), "what colour is the circle?", "--model", str(model_dir),
                         "--max-new-tokens", "5"])
    printed = capsys.readouterr().out
    assert len(answers) == 1 and printed.startswith("Q: what colour is the circle?\nA:")
    assert answers[0] in printed and encodes == [(1, 3, 48, 48)]


def test_interactive_turns_share_one_cache(model_dir, monkeypatch, capsys, encodes):
    monkeypatch.setattr(sys, "stdin", io.StringIO("how many shapes are there?\nis there a red circle?\n\n"))
    answers = chat.main(["scene:val:1", "what colour is the square?", "--model", str(model_dir), "--interactive",
                         "--max-new-tokens", "4"])
    assert len(answers) == 3 and capsys.readouterr().out.count("A:") == 3
    assert len(encodes) == 1  # the image went in once, at the first turn's prefill


def test_cached_turns_equal_a_full_recompute(model_dir, encodes):
    model, processor, size, _ = chat.load(str(model_dir))
    image = chat.load_image("scene:test:2", size)
    conversation = chat.Conversation(model, processor, image, GenerationConfig(max_new_tokens=4,
                                                                               eos_id=processor.eos_id))
    with torch.inference_mode():
        for question in ("where is the red triangle?", "what shape is at the center?", "count the shapes."):
            "".join(conversation.ask(question))
        history, chosen = list(conversation.history), list(conversation.chosen)
        conversation.close()  # frees the cache: the recompute runs without one
        logits = model(torch.tensor([history]), processor.pixel_values([image]))[0]  # (T, V)
    assert len(chosen) >= 3 and len(encodes) == 2  # the conversation's image, then the recompute's
    assert [int(logits[i - 1].argmax()) for i in chosen] == [history[i] for i in chosen]


def test_a_full_cache_starts_again_from_the_image(model_dir, encodes):
    model, processor, size, _ = chat.load(str(model_dir))
    conversation = chat.Conversation(model, processor, chat.load_image("scene:val:0", size),
                                     GenerationConfig(max_new_tokens=30, eos_id=None))
    with torch.inference_mode():
        for _ in range(4):  # ~20 prompt + 30 answer tokens a turn: the third turn does not fit 128 positions
            "".join(conversation.ask("what colour is the circle?"))
    conversation.close()
    assert conversation.restarts >= 1 and len(encodes) == 1 + conversation.restarts


def test_the_model_is_required_and_named_when_missing(tmp_path, capsys):
    assert load_script("chat").main is chat.main
    with pytest.raises(SystemExit):
        chat.parse_args(["scene:val:0", "a question"])
    assert "--model" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="does not exist") as missing:
        chat.main(["scene:val:0", "a question", "--model", str(tmp_path / "vl" / "model")])
    assert missing.value.code == 2
    with pytest.raises(SystemExit, match="is a preset: chat needs a trained LLaVA's directory"):
        chat.main(["scene:val:0", "a question", "--model", "llava_tiny"])


@pytest.mark.parametrize("image,words", [
    ("broken.png", ("image ", "broken.png' cannot be read as an image", "expected a PNG, JPEG")),
    ("missing.png", ("image ", "missing.png' is not a file",)),
    ("scene:test", ("image 'scene:test': expected scene:SPLIT:INDEX",)),
    ("scene:nosplit:1", ("image 'scene:nosplit:1': split must be one of",)),
])
def test_an_unreadable_image_is_one_line_naming_it(model_dir, tmp_path, capsys, image, words):
    (tmp_path / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"not the rest of a PNG")
    source = image if image.startswith("scene:") else str(tmp_path / image)
    assert run(chat.main, [source, "what colour is the circle?", "--model", str(model_dir)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and all(w in err for w in words), err


@pytest.mark.parametrize("flag,value,words", [("--top-k", "-1", "GenerationConfig.top_k=-1: expected an int >= 0"),
                                              ("--max-new-tokens", "0", "max_new_tokens=0: expected an int >= 1"),
                                              ("--temperature", "nan", "temperature=nan: expected a finite")])
def test_a_generation_flag_out_of_range_is_one_line(model_dir, capsys, flag, value, words):
    assert run(chat.main, ["scene:val:0", "a question", "--model", str(model_dir), flag, value]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err
