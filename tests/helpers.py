"""Shared test helpers: reference models with random weights, and loading scripts as modules."""
import base64
import gzip
import importlib.util
from pathlib import Path

import numpy as np
import torch
import transformers

ROOT = Path(__file__).resolve().parents[1]


def tiny_presets() -> list[str]:
    """Every family's small presets, as the contract tests run them. whisper_tiny(_en) are openai's 37M-parameter
    releases, whose encoder takes 3000 mel frames (~25 s each on 2 busy cores); whisper_micro (the same
    architecture, 2 + 2 layers x 128) stands in for the family."""
    import zoo

    return sorted(set(zoo.list_models("*tiny*")) - set(zoo.list_models("whisper_tiny*")) | {"whisper_micro"})


def randomize(model, std=0.2, seed=0):
    """References zero-init biases, set norms to 1, LayerScale near 0: randomise every tensor so nothing hides."""
    torch.manual_seed(seed)
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0, std)
    return model.eval()


def tiny_hf_decoder(kind: str, std: float = 0.3):
    """A 2-layer transformers GPT-2 or LLaMA (GQA) over 97 tokens, random weights, and its zoo conversion."""
    import zoo

    torch.manual_seed(0)
    if kind == "gpt2":
        ref = transformers.GPT2LMHeadModel(transformers.GPT2Config(
            vocab_size=97, n_positions=64, n_embd=32, n_layer=2, n_head=4, bos_token_id=0, eos_token_id=0))
    else:
        ref = transformers.LlamaForCausalLM(transformers.LlamaConfig(
            vocab_size=97, hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
            num_key_value_heads=2, max_position_embeddings=64, bos_token_id=0, eos_token_id=0, pad_token_id=0))
    with torch.no_grad():
        for p in ref.parameters():
            p.normal_(0, std)
    return ref.eval(), zoo.from_hf(ref)


def load_script(name: str):
    """scripts/<name>.py as a module (scripts are not a package)."""
    spec = importlib.util.spec_from_file_location(f"script_{name}", ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def eager_compiled_steps(monkeypatch) -> list:
    """Run generate(compile=True)'s fixed-shape steps without compiling them (the compiled run is a slow
    test): returns the list that collects each step's input_pos (tensors, one per step after the prefill)."""
    import zoo.generation.session as session_module

    calls = []

    def eager_step(model):
        def step(*args, **kwargs):
            calls.append(kwargs["input_pos"])
            return model(*args, **kwargs)
        return step

    monkeypatch.setattr(session_module, "compiled_step", eager_step)
    return calls


def tiny_openai_whisper(n_vocab: int, eot_scale: float, seed: int = 0, n_audio_ctx: int = 1500):
    """A 2 + 2 layer, 64-wide openai-whisper with random weights, and ours converted from it (zoo.from_whisper).

    Random weights give near-uniform logits that never end: EOT's embedding is scaled by `eot_scale` so
    sequences end, and <|nospeech|>'s by 60 so its probability at <|startoftranscript|> is not ~0 (it is
    never sampled: nothing else changes). n_audio_ctx < 1500: an encoder window shorter than 30 s."""
    import whisper
    from whisper.model import ModelDimensions
    from whisper.tokenizer import get_tokenizer

    import zoo

    dims = ModelDimensions(n_mels=80, n_audio_ctx=n_audio_ctx, n_audio_state=64, n_audio_head=4, n_audio_layer=2,
                           n_vocab=n_vocab, n_text_ctx=448, n_text_state=64, n_text_head=4, n_text_layer=2)
    ref = randomize(whisper.model.Whisper(dims), std=0.1, seed=seed)
    ref_tokenizer = get_tokenizer(ref.is_multilingual, num_languages=ref.num_languages)
    with torch.no_grad():
        ref.decoder.token_embedding.weight[ref_tokenizer.eot] *= eot_scale
        ref.decoder.token_embedding.weight[ref_tokenizer.no_speech] *= 60
    return ref, zoo.from_whisper(ref)


class Stopped(Exception):
    """Raised by stop_after_checkpoint: the run ended right after writing a checkpoint."""


def stop_after_checkpoint(monkeypatch, run) -> None:
    """Call run() (a training script's main) so that it stops right after its first checkpoint, as if killed
    there; the checkpoint on disk is whole. Raises if the run never saved."""
    import pytest

    from zoo.training import engine

    original = engine._Run.save

    def save_then_stop(self):
        original(self)
        raise Stopped
    with monkeypatch.context() as patch:
        patch.setattr(engine._Run, "save", save_then_stop)
        with pytest.raises(Stopped):
            run()


def markdown_tables(text: str, strict: bool = True) -> list[list[list[str]]]:
    """The Markdown tables in `text`, each as rows of cells (header first, rule dropped), checked well formed:
    a |---| rule under the header, at least one row, every row as wide as the header; strict: no empty cell
    and no NaN."""
    found, current = [], []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            assert line.endswith("|"), line
            current.append([cell.strip() for cell in line[1:-1].split("|")])
        elif current:
            header, rule, *rows = current
            assert rule == ["---"] * len(header) and rows, current
            assert all(len(row) == len(header) for row in rows), current
            if strict:
                assert all(all(row) for row in rows), current
                assert not any("nan" in cell.lower() for row in rows for cell in row), current
            found.append([header, *rows])
            current = []
    return found


def gated_chirp(seconds: float, seed: int = 0) -> np.ndarray:
    """A chirp gated on and off every few seconds, in noise: (samples,) float32 at 16 kHz (random-weight
    transcription tests: windows with and without 'speech')."""
    rng = np.random.default_rng(seed)
    t = np.arange(int(seconds * 16000)) / 16000
    gate = np.sin(2 * np.pi * t / (5 + 2 * seed)) > 0
    wave = 0.3 * np.sin(2 * np.pi * (200 + 40 * t) * t) * gate + 0.05 * rng.standard_normal(t.shape)
    return wave.astype(np.float32)


def openai_twin(ours, alignment_heads: bool = False) -> torch.nn.Module:
    """openai-whisper's Whisper (eval mode) holding our Whisper's weights, and with alignment_heads its
    alignment heads too."""
    import whisper

    from zoo.convert.openai_whisper import openai_state_dict

    c = ours.config
    ref = whisper.model.Whisper(whisper.model.ModelDimensions(c.n_mels, c.audio_ctx, c.dim, c.audio_heads,
                                                              c.audio_depth, c.vocab_size, c.text_ctx, c.dim,
                                                              c.text_heads, c.text_depth))
    missing, unexpected = ref.load_state_dict(openai_state_dict(ours, ref.state_dict()), strict=False)
    assert not missing and not unexpected
    if alignment_heads:
        mask = np.zeros((c.text_depth, c.text_heads), dtype=bool)
        for layer, head in c.alignment_heads:
            mask[layer, head] = True
        ref.set_alignment_heads(base64.b85encode(gzip.compress(mask.tobytes())))
    return ref.eval()


def one_step_llava(out: Path) -> Path:
    """A LLaVA saved by a one-step stage-1 train_multimodal run (20 scenes, a 300-token vocabulary) under `out`:
    a model directory with its tokenizer, image processing and prompt format, in seconds. -> its model/."""
    from zoo.cli import train_multimodal

    train_multimodal.main(["--stage", "1", "--steps", "1", "--scenes", "20", "--eval-scenes", "2", "--batch-size", "8",
                           "--vocab-size", "300", "--eval-every", "0", "--no-progress", "--threads", "1",
                           "--out", str(out)])
    return Path(out) / "model"
