"""The Whisper benchmark's sides, all on ONE set of random weights: openai-whisper's `Whisper` (built from
ModelDimensions and randomised), ours (zoo.from_whisper), transformers' WhisperForConditionalGeneration
(ours' tensors under transformers' names, zoo.convert.hf_whisper.to_transformers) and CTranslate2's conversions
of the saved transformers directory (`TransformersConverter`, fp32 and int8, each read by faster-whisper in a
worker process of its own: bench.workers), and the check that they compute the same.

    with build("tiny", workdir, threads) as sides:  # .openai, .ours, .hf, .ct2 {"fp32": a Worker or why not}
        diffs = check_sides(sides, mel)              # BenchmarkError where any side's encoder or logits differ

Random weights never end a sequence on their own (or end it at once): every side is given the same
forced length, with every token from <|endoftext|> on suppressed (`forced_suppress`), so each decodes
exactly the text tokens it is asked for.
"""
from __future__ import annotations

import dataclasses
import importlib.util
import shutil
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

import zoo
from bench.references import check_close
from bench.workers import Worker
from data.audio import SAMPLE_RATE
from data.whisper_tokenizer import WhisperTokenizer

# Benchmark shapes -> the preset whose width, heads and depth they take. Every shape reads 30 s windows
# (audio_ctx 1500) with openai-whisper's multilingual vocabulary: openai-whisper's decode, transcribe and
# tokenizer need both. "micro" is whisper_micro's 2 + 2 layers x 128, for the --quick run.
SHAPES = {"micro": "whisper_micro", "tiny": "whisper_tiny", "base": "whisper_base"}
WINDOW = {"n_mels": 80, "audio_ctx": 1500, "text_ctx": 448, "vocab_size": 51865}
WEIGHT_STD = 0.1  # every tensor ~ N(0, 0.1), as tests/helpers.randomize: nothing zero or one hides a mix-up
PROMPT_LANGUAGE = "en"

@dataclass
class WhisperModels:
    """One shape's models on the same weights; ct2 maps "fp32" / "int8" to a bench.workers.Worker holding
    faster-whisper's WhisperModel on CTranslate2's conversion (`faster_whisper_model`), or to the reason it
    cannot run here (a string). Its workers stop at close (or the end of a `with`)."""
    name: str
    openai: nn.Module
    ours: nn.Module
    hf: nn.Module
    directory: Path                      # the transformers directory (and its ct2-* conversions)
    ct2: dict[str, Any] = field(default_factory=dict)

    @property
    def tokenizer(self) -> WhisperTokenizer:
        return self.ours.tokenizer

    def ct2_models(self) -> dict[str, Worker]:
        """The CTranslate2 workers that started (without the reasons of those that did not)."""
        return {k: v for k, v in self.ct2.items() if not isinstance(v, str)}

    def close(self) -> None:
        for worker in self.ct2_models().values():
            worker.close()

    def __enter__(self) -> WhisperModels:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def dims_for(name: str):
    """openai-whisper ModelDimensions for a benchmark shape (SHAPES): the preset's width, heads and depth."""
    from whisper.model import ModelDimensions

    if name not in SHAPES:
        raise ValueError(f"unknown Whisper benchmark shape {name!r}; expected one of {sorted(SHAPES)}")
    c = {**zoo.model_info(SHAPES[name])["config"], **WINDOW}
    return ModelDimensions(n_mels=c["n_mels"], n_audio_ctx=c["audio_ctx"], n_audio_state=c["dim"],
                           n_audio_head=c["audio_heads"], n_audio_layer=c["audio_depth"], n_vocab=c["vocab_size"],
                           n_text_ctx=c["text_ctx"], n_text_state=c["dim"], n_text_head=c["text_heads"],
                           n_text_layer=c["text_depth"])


def random_openai(name: str, seed: int = 0) -> nn.Module:
    """openai-whisper's Whisper in shape `name`, every tensor random, in eval mode."""
    import whisper

    torch.manual_seed(seed)
    model = whisper.model.Whisper(dims_for(name))
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0, WEIGHT_STD)
    return model.eval()


def hf_from_ours(ours: nn.Module, tokenizer: WhisperTokenizer) -> nn.Module:
    """transformers' Whisper holding our model's tensors (zoo.convert.hf_whisper.to_transformers), with the
    generation config a released checkpoint carries."""
    from zoo.convert.hf_whisper import to_transformers

    hf = to_transformers(ours, decoder_start_token_id=tokenizer.sot, eos_token_id=tokenizer.eot,
                         pad_token_id=tokenizer.eot, bos_token_id=tokenizer.eot)
    set_generation_config(hf.generation_config, tokenizer, ours.config.text_ctx)
    return hf


def set_generation_config(gc, tokenizer: WhisperTokenizer, text_ctx: int) -> None:
    """The fields of a released checkpoint's generation_config.json that transformers' Whisper generate reads,
    with its suppress lists replaced by the forced ones (forced_suppress, blank_suppress)."""
    gc.decoder_start_token_id, gc.eos_token_id, gc.pad_token_id = tokenizer.sot, tokenizer.eot, tokenizer.eot
    gc.lang_to_id = {f"<|{c}|>": i for c, i in zip(tokenizer.all_language_codes, tokenizer.all_language_tokens)}
    gc.task_to_id = {"transcribe": tokenizer.transcribe, "translate": tokenizer.translate}
    gc.no_timestamps_token_id, gc.is_multilingual = tokenizer.no_timestamps, tokenizer.multilingual
    gc.suppress_tokens, gc.begin_suppress_tokens = forced_suppress(tokenizer), blank_suppress(tokenizer)
    gc.max_initial_timestamp_index, gc.max_length = 50, text_ctx


def forced_suppress(tokenizer: WhisperTokenizer) -> list[int]:
    """<|endoftext|>, every other special token and every timestamp: only text tokens can be decoded, so a
    greedy decoder runs exactly as many steps as it is allowed."""
    return list(range(tokenizer.eot, tokenizer.vocab_size))


def blank_suppress(tokenizer: WhisperTokenizer) -> list[int]:
    """What openai-whisper's suppress_blank forbids as the first token: the space, and <|endoftext|>."""
    return tokenizer.encode(" ") + [tokenizer.eot]


def window_prompt(tokenizer: WhisperTokenizer) -> list[int]:
    """<|startoftranscript|><|en|><|transcribe|><|notimestamps|>: every side's initial tokens."""
    return tokenizer.sot_sequence(PROMPT_LANGUAGE, "transcribe") + [tokenizer.no_timestamps]


def save_hf_directory(hf: nn.Module, tokenizer: WhisperTokenizer, directory: Path) -> Path:
    """hf's directory as a hub checkpoint has it: config, generation config and weights, tokenizer.json (ours,
    read back by transformers' WhisperTokenizerFast) and preprocessor_config.json."""
    import transformers

    hf.save_pretrained(directory)
    ours_dir = directory / "zoo-tokenizer"
    path = tokenizer.save(ours_dir)
    transformers.WhisperTokenizerFast(tokenizer_file=str(path)).save_pretrained(directory)
    shutil.rmtree(ours_dir)
    transformers.WhisperFeatureExtractor(feature_size=hf.config.num_mel_bins).save_pretrained(directory)
    return directory


CT2_TYPES = {"fp32": "float32", "int8": "int8"}  # our names -> CTranslate2's quantization / compute_type


def faster_whisper_model(directory: Path, name: str, threads: int):
    """In a worker (bench.workers says why): faster-whisper's WhisperModel on CTranslate2's `name` conversion of
    the transformers `directory`, made here into directory/ct2-<name> with tokenizer.json and
    preprocessor_config.json beside it, as faster-whisper reads them."""
    from ctranslate2.converters import TransformersConverter
    from faster_whisper import WhisperModel

    out = directory / f"ct2-{name}"
    TransformersConverter(str(directory)).convert(str(out), quantization=CT2_TYPES[name], force=True)
    for extra in ("tokenizer.json", "preprocessor_config.json"):
        shutil.copy(directory / extra, out / extra)
    return WhisperModel(str(out), device="cpu", compute_type=CT2_TYPES[name], cpu_threads=threads)


def load_ct2(directory: Path, threads: int) -> dict[str, Worker | str]:
    """{"fp32", "int8"} -> a started Worker holding faster_whisper_model(directory, name), or why it could not be
    built. Neither library is imported in this process."""
    missing = [m for m in ("ctranslate2", "faster_whisper") if importlib.util.find_spec(m) is None]
    if missing:
        return dict.fromkeys(CT2_TYPES, f"not installed ({', '.join(missing)}): pip install -r requirements-test.txt")
    workers: dict[str, Worker | str] = {}
    for name in CT2_TYPES:
        worker = Worker(partial(faster_whisper_model, directory, name), threads)
        try:
            workers[name] = worker.start()
        except Exception as error:  # a converter or runtime that cannot handle it: reported in the table
            worker.close()
            workers[name] = f"{type(error).__name__}: {str(error).splitlines()[0][:120]}"
    return workers


def ct2_encode(faster, mel: np.ndarray) -> np.ndarray:
    """In the worker: CTranslate2's encoder output (B, N, D) on mel (B, n_mels, 3000)."""
    import ctranslate2

    return np.array(faster.model.encode(ctranslate2.StorageView.from_array(mel), to_cpu=True))


def build(name: str, workdir: Path, threads: int, seed: int = 0) -> WhisperModels:
    """Every side of shape `name` on the same random weights (transformers' directory under workdir/name)."""
    ref = random_openai(name, seed)
    ours = zoo.from_whisper(ref).eval()
    hf = hf_from_ours(ours, ours.tokenizer)
    directory = save_hf_directory(hf, ours.tokenizer, Path(workdir) / name)
    return WhisperModels(name, ref, ours, hf, directory, load_ct2(directory, threads))


@torch.inference_mode()
def check_sides(sides: WhisperModels, mel: torch.Tensor) -> dict[str, float]:
    """Encoder outputs (ours, openai-whisper, transformers, CTranslate2 fp32) and decoder logits over random
    tokens (ours, openai-whisper, transformers) on one mel (n_mels, 3000); their max abs differences."""
    mel = mel[None]  # (1, n_mels, 3000)
    tokens = torch.randint(0, sides.tokenizer.eot, (1, 24), generator=torch.Generator().manual_seed(0))  # (1, T)
    features = sides.ours.encode(mel)  # (1, N, D)
    logits = sides.ours.decode(tokens, features)  # (1, T, V)
    n = sides.name
    diffs = {"encoder openai": check_close(f"{n} encoder", "fp32", features, sides.openai.encoder(mel),
                                           "ours and openai-whisper"),
             "encoder transformers": check_close(f"{n} encoder", "fp32", features,
                                                 sides.hf.model.encoder(mel).last_hidden_state,
                                                 "ours and transformers"),
             "logits openai": check_close(f"{n} logits", "fp32", logits,
                                          sides.openai.decoder(tokens, sides.openai.encoder(mel)),
                                          "ours and openai-whisper"),
             "logits transformers": check_close(f"{n} logits", "fp32", logits,
                                                sides.hf(input_features=mel, decoder_input_ids=tokens).logits,
                                                "ours and transformers")}
    if "fp32" in sides.ct2_models():
        out = torch.from_numpy(sides.ct2["fp32"].call(ct2_encode, mel.numpy()))
        diffs["encoder ctranslate2"] = check_close(f"{n} encoder", "fp32", out, features, "ours and CTranslate2 fp32")
    return diffs


def synthetic_audio(seconds: float, seed: int) -> np.ndarray:
    """A synthetic 16 kHz float32 signal: a few tones that glide, under noise (nothing downloaded)."""
    rng = np.random.default_rng(seed)
    t = np.arange(int(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    wave = 0.05 * rng.standard_normal(t.shape)
    for f in rng.uniform(150, 2000, size=3):
        wave += 0.1 * np.sin(2 * np.pi * f * t * (1 + 0.05 * np.sin(2 * np.pi * 0.3 * t)))
    return wave.astype(np.float32)


def describe(sides: WhisperModels) -> dict:
    """The shape and what could not run, for the JSON and the report."""
    d = sides.openai.dims
    return {"shape": sides.name, "dims": dataclasses.asdict(d) if dataclasses.is_dataclass(d) else dict(vars(d)),
            "params_m": sum(p.numel() for p in sides.ours.parameters()) / 1e6,
            "unavailable": {k: v for k, v in sides.ct2.items() if isinstance(v, str)}}
