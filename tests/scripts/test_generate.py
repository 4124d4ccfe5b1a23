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


CHATML = ("{%- for message in messages %}{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + "
          "'<|im_end|>' + '\\n' }}{%- endfor %}{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}"
          "{%- endif %}")


@pytest.fixture(scope="module")
def chat_dir(tmp_path_factory):
    """A tiny GPT whose tokenizer has ChatML's special tokens and template."""
    directory = tmp_path_factory.mktemp("chat")
    tokenizer = train_bpe([Path(KJV_EXTRACT).read_text()[:100_000]], vocab_size=400,
                          special_tokens=["<|endoftext|>", "<|im_start|>", "<|im_end|>"])
    tokenizer.chat_template = CHATML
    torch.manual_seed(0)
    zoo.create_model("gpt_tiny", vocab_size=tokenizer.vocab_size).save_pretrained(directory)
    tokenizer.save(directory)
    return directory


def test_chat_keeps_the_conversation_on_the_template(chat_dir, monkeypatch, capsys):
    import io
    import sys

    import zoo.cli.generate as generate_module
    from data.tokenization import load_tokenizer

    prompts, original = [], generate_module.stream
    monkeypatch.setattr(generate_module, "stream", lambda model, ids, *a, **k: prompts.append(ids[0].tolist())
                        or original(model, ids, *a, **k))
    monkeypatch.setattr(sys, "stdin", io.StringIO("And God said\nwhat then?\n\nnot read\n"))
    replies = script.main(["--model", str(chat_dir), "--chat", "--system", "Be brief.", "--prompt", "In the",
                           "--max-new-tokens", "5"])
    assert len(replies) == 3 == len(prompts)
    out = capsys.readouterr().out
    assert all(reply in out for reply in replies)
    tokenizer = load_tokenizer(chat_dir)
    messages = [{"role": "system", "content": "Be brief."}]
    for turn, reply, ids in zip(["In the", "And God said", "what then?"], replies, prompts):
        messages.append({"role": "user", "content": turn})
        want = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
        assert tokenizer.decode(ids, skip_special_tokens=False) == want
        messages.append({"role": "assistant", "content": reply})
    assert "<|im_end|>" not in "".join(replies)


def test_chat_without_a_template_is_refused_naming_the_files(model_dir):
    with pytest.raises(SystemExit, match=r"--chat: the tokenizer of .* has no chat template \(neither "
                                         "chat_template.jinja nor"):
        script.main(["--model", str(model_dir), "--chat"])
    with pytest.raises(SystemExit, match=r"--prompt is required \(or --chat\)"):
        script.main(["--model", str(model_dir)])
