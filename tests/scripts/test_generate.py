"""scripts/generate.py: our checkpoint + tokenizer -> text, in every decoding mode."""
from pathlib import Path

import pytest
import torch

import zoo
from data.text import KJV_EXTRACT
from data.tokenization import train_bpe
from tests.helpers import load_script
from zoo.cli.common import run

script = load_script("generate")


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    directory = tmp_path_factory.mktemp("model")
    text = Path(KJV_EXTRACT).read_text()[:200_000]
    tokenizer = train_bpe([text], vocab_size=500)
    torch.manual_seed(0)  # the same random weights every run
    zoo.create_model("gpt_tiny", vocab_size=tokenizer.vocab_size).save_pretrained(directory)
    tokenizer.save(directory)
    return directory


def test_modes(model_dir, capsys):
    base = ["--model", str(model_dir), "--max-new-tokens", "6", "--no-eos"]
    greedy = script.main([*base, "--prompt", "And God said"])
    assert greedy[0].startswith("And God said") and len(greedy[0]) > len("And God said")
    streamed = script.main([*base, "--prompt", "And God said", "--stream"])
    assert streamed == greedy  # streaming prints the same text as it comes
    assert "And God said" in capsys.readouterr().out
    batch = script.main([*base, "--prompt", "And God said", "--prompt", "In the beginning God", "--num-beams", "2"])
    assert len(batch) == 2 and batch[1].startswith("In the beginning God")
    sampled = script.main([*base, "--prompt", "And", "--do-sample", "--top-k", "20", "--seed", "3"])
    assert sampled == script.main([*base, "--prompt", "And", "--do-sample", "--top-k", "20", "--seed", "3"])
    assert script.main([*base, "--prompt", "And God said", "--pack"]) == greedy  # packed weights, same tokens
    # bf16: oneDNN's kernel rounds differently from torch's, so near-ties may flip; the text must still come
    bf16 = script.main([*base, "--prompt", "And God said", "--dtype", "bf16", "--pack"])
    assert bf16[0].startswith("And God said") and len(bf16[0]) > len("And God said")


def test_stream_of_a_prompt_with_special_tokens(model_dir, capsys):
    """Decoding skips the prompt's <|endoftext|>, so its text is shorter than the prompt: the stream must print
    the new tokens' text all the same, the text the batch path gives."""
    base = ["--model", str(model_dir), "--max-new-tokens", "8", "--no-eos"]
    prompt = "<|endoftext|>And God<|endoftext|> said"
    whole = script.main([*base, "--prompt", prompt])
    capsys.readouterr()
    assert whole[0].startswith(prompt) and len(whole[0]) > len(prompt) + 2
    assert script.main([*base, "--prompt", prompt, "--stream"]) == whole
    assert capsys.readouterr().out == whole[0] + "\n"


def test_bad_prompt_and_missing_tokenizer(model_dir):
    with pytest.raises(SystemExit, match="must not be empty"):
        script.main(["--model", str(model_dir), "--prompt", ""])
    with pytest.raises(SystemExit, match="--tokenizer"):
        script.main(["--model", "gpt_tiny", "--prompt", "x"])


@pytest.mark.parametrize("flags,words", [
    (["--top-k", "-1"], "GenerationConfig.top_k=-1: expected an int >= 0"),
    (["--num-beams", "0"], "GenerationConfig.num_beams=0: expected an int >= 1"),
    (["--do-sample", "--temperature", "nan"], "GenerationConfig.temperature=nan: expected a finite number > 0"),
    (["--top-p", "2"], "GenerationConfig.top_p=2.0: expected a number in (0, 1]"),
    (["--stream", "--min-p", "1"], "GenerationConfig.min_p=1.0: expected a number in [0, 1)"),
])
def test_a_generation_flag_out_of_range_is_one_line(model_dir, capsys, flags, words):
    argv = ["--model", str(model_dir), "--prompt", "And God said", "--max-new-tokens", "2", *flags]
    assert run(script.main, argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err
