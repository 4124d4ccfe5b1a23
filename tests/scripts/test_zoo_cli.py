"""The `zoo` command (zoo/cli/): its subcommands, defaults in every --help, one loader for every model form with
one-line errors (exit status 2) for a missing path or a hub id, both spellings of the decoding flags, and
`zoo generate` on a preset and on an HF directory with its tokens per second."""
import importlib
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import zoo
from data.text import KJV_EXTRACT
from data.tokenization import train_bpe
from tests.helpers import eager_compiled_steps, load_script, tiny_hf_decoder
from zoo.cli import generate, main
from zoo.cli.common import HelpFormatter, parser
from zoo.cli.models import load_model

HELP_WITH_DEFAULTS = ("generate", "chat", "transcribe", "export", "train-text", "train-vision", "train-audio",
                      "train-multimodal")
LOADING = {  # subcommand -> the rest of a command line that reaches the model loader
    "generate": ["--prompt", "x"], "chat": ["scene:val:0", "a question"], "transcribe": ["talk.wav"],
    "export": ["--out", "unused"]}


@pytest.fixture(scope="module")
def tokenizer_file(tmp_path_factory):
    directory = tmp_path_factory.mktemp("tokenizer")
    train_bpe([Path(KJV_EXTRACT).read_text()[:100_000]], vocab_size=300).save(directory)
    return directory


def test_zoo_help_lists_the_subcommands(capsys):
    assert main.main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in main.COMMANDS:
        assert f"\n  {name} " in out
    assert main.main([]) == 2 and main.main(["fly"]) == 2
    assert "unknown subcommand 'fly'" in capsys.readouterr().err


def test_the_installed_console_script():
    command = Path(sys.executable).parent / "zoo"
    if not command.exists():
        pytest.skip("the zoo console script is not installed in this environment (pip install -e .)")
    proc = subprocess.run([str(command), "--help"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "train-audio" in proc.stdout and "export" in proc.stdout


@pytest.mark.parametrize("name", HELP_WITH_DEFAULTS)
def test_each_subcommand_help_shows_defaults(name, capsys):
    with pytest.raises(SystemExit) as done:
        main.main([name, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "(default:" in out and "--model" in out
    if name not in ("train-text", "train-vision", "train-multimodal"):  # their runtime flags: the training ones
        assert "--device" in out and "--threads" in out and "--dtype" in out


def test_defaults_are_shown_without_help_text_too(capsys):
    p = parser("doc")
    p.add_argument("--steps", type=int, default=0)
    p.add_argument("--flag", action="store_true")
    p.add_argument("--name", help="already says %(default)s", default="a")
    assert p.formatter_class is HelpFormatter
    text = p.format_help()
    assert "--steps STEPS  (default: 0)" in text and "already says a\n" in text and "--flag\n" in text


def test_bench_without_a_checkout_says_so_in_one_line(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(main, "REPOSITORY", tmp_path)
    assert main.main(["bench"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "repository checkout" in err


@pytest.mark.parametrize("name", sorted(LOADING))
@pytest.mark.parametrize("model,message", [("openai/whisper-base", "looks like a hub id"),
                                           ("runs/no/such/model", "does not exist")])
def test_a_missing_path_or_a_hub_id_is_one_line_and_status_2(name, model, message, capsys):
    assert main.main([name, *LOADING[name], "--model", model]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err and repr(model) in err
    assert "expected a preset" in err and "local directory" in err


def test_one_loader_for_every_form(tmp_path):
    zoo.create_model("vit_tiny_patch2_8").save_pretrained(tmp_path / "ours")
    reference, _ = tiny_hf_decoder("llama")
    reference.save_pretrained(tmp_path / "hf")
    assert load_model(str(tmp_path / "ours")).config.family == "vit"
    assert load_model(str(tmp_path / "hf")).config.family == "llama"
    with pytest.warns(UserWarning, match="random weights"):
        assert not load_model("gpt_tiny").training
    with pytest.raises(SystemExit, match="is a vit preset, not a whisper one") as wrong:
        load_model("vit_tiny_patch2_8", ("whisper",))
    assert wrong.value.code == 2
    with pytest.raises(SystemExit, match="holds a vit model; expected gpt or llama"):
        load_model(str(tmp_path / "ours"), ("gpt", "llama"))
    (tmp_path / "weights.bin").write_bytes(b"")
    with pytest.raises(SystemExit, match="not an openai-whisper .pt checkpoint"):
        load_model(str(tmp_path / "weights.bin"))


def test_generate_on_a_preset_with_both_spellings(tokenizer_file, capsys):
    base = ["--model", "gpt_tiny", "--tokenizer", str(tokenizer_file), "--prompt", "And God said", "--no-eos",
            "--seed", "1"]
    dashed = generate.main([*base, "--max-new-tokens", "5", "--do-sample", "--top-k", "10"])
    underscored = generate.main([*base, "--max_new_tokens", "5", "--do_sample", "--top_k", "10"])
    assert dashed == underscored and dashed[0].startswith("And God said")
    err = capsys.readouterr().err
    assert err.count("decoding: 5 new tokens in") == 2 and "tokens/s" in err


def test_generate_on_an_hf_directory(tokenizer_file, tmp_path, capsys):
    import transformers

    reference = transformers.GPT2LMHeadModel(transformers.GPT2Config(
        vocab_size=300, n_positions=64, n_embd=32, n_layer=2, n_head=4, bos_token_id=0, eos_token_id=0))
    reference.save_pretrained(tmp_path / "hf")  # transformers' own files: config.json, model.safetensors
    (tmp_path / "hf" / "tokenizer.json").write_bytes((tokenizer_file / "tokenizer.json").read_bytes())
    texts = generate.main(["--model", str(tmp_path / "hf"), "--prompt", "In the", "--prompt", "And", "--no-eos",
                           "--max-new-tokens", "4", "--threads", "1", "--device", "cpu"])
    assert len(texts) == 2 and texts[0].startswith("In the")
    assert "decoding: 8 new tokens in" in capsys.readouterr().err


def test_generate_reports_the_first_compiled_call_apart(tokenizer_file, monkeypatch, capsys):
    steps = eager_compiled_steps(monkeypatch)  # compile=True's fixed-shape steps, run eagerly (fast)
    base = ["--model", "gpt_tiny", "--tokenizer", str(tokenizer_file), "--prompt", "And", "--no-eos",
            "--max-new-tokens", "3"]
    assert generate.main([*base, "--compile"]) == generate.main(base)
    err = capsys.readouterr().err
    assert "one-time: first call (torch.compile)" in err and err.count("tokens/s") == 2 and steps


def test_chat_and_transcribe_take_the_underscored_spelling():
    from zoo.cli import chat, transcribe

    assert chat.parse_args(["x.png", "q", "--model", "m", "--max_new_tokens", "3", "--top_k", "2"]).max_new_tokens == 3
    args = transcribe.parse_args(["a.wav", "--model", "m", "--beam_size", "2", "--output-dir", "o"])
    assert (args.beam_size, args.output_dir) == (2, "o")


def test_training_subcommands_run_from_the_library(tmp_path):
    summary_dir = tmp_path / "run"
    assert main.main(["train-vision", "--steps", "2", "--batch-size", "8", "--eval-every", "0", "--no-progress",
                      "--threads", "1", "--warmup", "1", "--out", str(summary_dir)]) == 0
    assert (summary_dir / "model" / "config.json").is_file()
    torch.set_num_threads(torch.get_num_threads())  # --threads 1 applies to this process: nothing to restore


def test_every_script_is_a_wrapper_of_a_subcommand():
    """scripts/<name>.py runs the installed subcommand's main (zoo/cli/<name>.py): nothing but the benchmarks
    (not installed) lives only in scripts/."""
    for name, (target, _) in main.COMMANDS.items():
        if target.startswith("scripts/"):
            assert name == "bench"
            continue
        module = importlib.import_module(target)
        script = load_script(target.rsplit(".", 1)[1])
        assert script.main is module.main, name
