"""The sides of the translation section (bench.translation), each in a spawned process of its own.

    weights = prepare(config, workdir)     # one transformers directory, and CTranslate2's fp32 and int8 conversions
    with Worker(partial(side, "ours packed", weights, config), threads) as worker:   # bench.workers
        done = run_pass(worker, batches)   # a Pass: seconds, translations, output tokens

A side is a name and a function texts -> (translations, output tokens), text in and text out as its users call
it: ours (zoo.generate on the model's MarianSentencePiece), transformers' MarianTokenizer and
MarianMTModel.generate, CTranslate2's Translator.translate_batch on SentencePiece pieces. Every side reads the
same transformers directory (ours through zoo.from_hf, CTranslate2 through its converter) and decodes alike:
beam 4, length penalty 0.6, at most max_tokens - 1 tokens before the EOS (the last step of ours and of
transformers is the forced EOS of Marian's config; CTranslate2, which forces none, stops one step earlier).
Pad is never generated: ours and transformers ban it (Opus-MT's bad_words_ids), CTranslate2's Marian loader
drops it from the vocabulary. That loader also starts the decoder from a zero vector (Marian's convention)
where ours and transformers embed <pad>: the same model only where the <pad> row is zero (Weights.pad_row_norm;
--quick's model has it zero, and CTranslate2 fp32 then writes ours' tokens).

Why a process each: CTranslate2 slows torch down in a process it has run in (bench.workers says how much), and
the same two libraries meet here. Each process loads its model at its first pass and keeps it, so the section
can still alternate the sides from one timed pass to the next (load from other processes then hits every side
alike); a pass is timed inside its process.
"""
from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import torch
from torch import nn

import zoo
from bench.config import TranslationBench
from bench.report import BenchmarkError
from bench.workers import Worker
from data.marian_tokenizer import MarianSentencePiece, train_joint_vocabulary
from data.parallel import PARALLEL_EXTRACT, read_pairs
from zoo.convert.hf_marian import to_transformers
from zoo.marian import Marian

SIDES = ("ours fp32", "ours packed", "ours bf16 packed", "ours int8 packed", "transformers fp32", "CTranslate2 fp32",
         "CTranslate2 int8")
OURS = SIDES[:4]
BEAMS, LENGTH_PENALTY = 4, 0.6
CT2_TYPES = {"CTranslate2 fp32": "float32", "CTranslate2 int8": "int8"}  # side -> quantization and compute_type
# --quick's model: marian_tiny on a joint vocabulary trained on the first verses of the shipped extract.
QUICK_VOCAB, QUICK_VERSES, QUICK_POSITIONS = 200, 48, 512  # its verses are long in pieces of so small a vocabulary

Translate = Callable[[list[str]], tuple[list[str], int]]  # texts -> (translations, output tokens)


@dataclass(frozen=True)
class Weights:
    """Where every side finds the same weights, and what they are."""
    transformers: Path          # save_pretrained of to_transformers(model) and the model's tokenizer files
    ct2: dict[str, Path]        # CTranslate2 side -> its conversion of that directory
    parameters: int
    vocab_size: int
    pad_row_norm: float         # of the <pad> word vector, ours' and transformers' first decoder input


@dataclass(frozen=True)
class Pass:
    """One pass of a side over every batch: its seconds (timed in its process), translations in the order of
    the batches, and output tokens (EOS and padding not counted)."""
    seconds: float
    texts: list[str]
    tokens: int


# ----------------------------------------------------------------------------- the weights


def tiny_random(workdir: Path) -> nn.Module:
    """marian_tiny with random weights, and a tokenizer trained on the first QUICK_VERSES verse pairs of the
    shipped extract. Its weights are drawn at std 0.3, not the 0.02 of init_weights, as tests/zoo/test_marian
    does: near-uniform logits would let last-bit differences between the libraries pick other beams. Its <pad>
    row is zero, as in Marian's models, so that CTranslate2 (which starts from a zero vector) runs the same model."""
    pairs = read_pairs(PARALLEL_EXTRACT, "train")[:QUICK_VERSES]
    tokenizer = train_joint_vocabulary([s for s, _ in pairs], [t for _, t in pairs], workdir / "tokenizer",
                                       QUICK_VOCAB, source_lang="en", target_lang="es")
    torch.manual_seed(0)
    model = zoo.create_model("marian_tiny", vocab_size=tokenizer.vocab_size, pad_id=tokenizer.pad_id,
                             eos_id=tokenizer.eos_id, max_positions=QUICK_POSITIONS).eval()
    with torch.no_grad():
        for p in model.parameters():
            if p.dim() == 2:
                p.normal_(std=0.3)
        model.decoder_embed.tokens.weight[tokenizer.pad_id] = 0
    model.tokenizer = tokenizer
    return model


def model_missing(model: str) -> str | None:
    """Why --translation-model cannot be loaded (None where it is "tiny" or a directory): scripts/benchmark.py
    asks before any section runs."""
    if model == "tiny" or Path(model).is_dir():
        return None
    return (f"--translation-model {model!r} is not a directory: train one with the zoo train-translation command "
            "(it writes model/ and model-hf/), pass another with --translation-model DIR, or 'tiny' (a tiny random "
            "Marian, as --quick)")


def trained(directory: str) -> nn.Module:
    """The Marian (and its tokenizer) in a zoo or transformers directory."""
    if model_missing(directory):
        raise BenchmarkError(model_missing(directory))
    model = zoo.load_directory(directory)
    if not isinstance(model, Marian) or getattr(model, "tokenizer", None) is None:
        raise BenchmarkError(f"--translation-model {directory!r} holds a {type(model).__name__} without a Marian "
                             "tokenizer: expected a Marian directory with source.spm, target.spm and vocab.json")
    return model.float().eval()


@contextmanager
def quiet_transformers() -> Iterator[None]:
    """transformers without its progress bars (saving, loading weights) and MarianTokenizer's advice to install
    sacremoses (which its encoding never calls), restored after."""
    from transformers.utils import logging

    bars = logging.is_progress_bar_enabled()
    logging.disable_progress_bar()
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Recommended: pip install sacremoses")
            yield
    finally:
        if bars:
            logging.enable_progress_bar()


def prepare(config: TranslationBench, workdir: Path) -> Weights:
    """The model (trained, or --quick's tiny random one) saved once as a transformers Marian directory under
    workdir, and converted from it by CTranslate2's TransformersConverter, fp32 and int8."""
    from ctranslate2.converters import TransformersConverter

    model = tiny_random(workdir) if config.translation_model == "tiny" else trained(config.translation_model)
    directory = workdir / "transformers"
    ct2 = {name: workdir / name.replace(" ", "-") for name in CT2_TYPES}
    with quiet_transformers():
        to_transformers(model).save_pretrained(directory)
        model.tokenizer.save(directory)
        for name, quantization in CT2_TYPES.items():
            TransformersConverter(str(directory)).convert(str(ct2[name]), quantization=quantization, force=True)
    pad_row = model.decoder_embed.tokens.weight[model.config.pad_id]
    return Weights(directory, ct2, sum(p.numel() for p in model.parameters()), model.config.vocab_size,
                   float(pad_row.detach().norm()))


# ----------------------------------------------------------------------------- the sides: texts -> translations


def output_tokens(ids: torch.Tensor, eos_id: int, pad_id: int) -> int:
    """Tokens of generated rows (B, T) without the decoder start: neither EOS nor the padding after it."""
    return int(((ids != eos_id) & (ids != pad_id)).sum())


def ours_side(model: nn.Module, config: TranslationBench) -> Translate:
    tokenizer, c = model.tokenizer, model.config
    options = {"num_beams": BEAMS, "length_penalty": LENGTH_PENALTY, "forced_eos_id": c.eos_id}

    def run(texts: list[str]) -> tuple[list[str], int]:
        batch = tokenizer.batch(texts)
        with torch.inference_mode():
            out = zoo.generate(model, batch["input_ids"], config.translation_max_tokens,
                               attention_mask=batch["attention_mask"], **options)[:, 1:]  # (B, new)
        return tokenizer.batch_decode(out), output_tokens(out, c.eos_id, c.pad_id)
    return run


def transformers_side(directory: Path, config: TranslationBench) -> Translate:
    """MarianMTModel.generate with Marian's generation config (forced EOS) and Opus-MT's ban on pad."""
    import transformers

    transformers.logging.set_verbosity_error()
    with quiet_transformers():
        tokenizer = transformers.MarianTokenizer.from_pretrained(directory)
        model = transformers.MarianMTModel.from_pretrained(directory).eval()
    g = model.generation_config
    options = {"num_beams": BEAMS, "length_penalty": LENGTH_PENALTY, "do_sample": False,
               "max_new_tokens": config.translation_max_tokens, "bad_words_ids": [[g.pad_token_id]],
               "forced_eos_token_id": g.forced_eos_token_id}

    def run(texts: list[str]) -> tuple[list[str], int]:
        batch = tokenizer(texts, padding=True, return_tensors="pt")
        with torch.inference_mode():
            out = model.generate(**batch, **options)[:, 1:]  # (B, new)
        return tokenizer.batch_decode(out, skip_special_tokens=True), output_tokens(out, g.eos_token_id,
                                                                                    g.pad_token_id)
    return run


def ct2_side(directory: Path, compute_type: str, tokenizer_dir: Path, config: TranslationBench,
             threads: int) -> Translate:
    """Translator.translate_batch on the SentencePiece pieces of the same tokenizer (EOS appended, as Opus-MT's
    users feed it); each batch is passed as it comes (max_batch_size 0: no re-batching)."""
    import ctranslate2

    translator = ctranslate2.Translator(str(directory), device="cpu", compute_type=compute_type, inter_threads=1,
                                        intra_threads=threads)
    tokenizer = MarianSentencePiece.from_directory(tokenizer_dir)
    pieces = {i: piece for piece, i in tokenizer.vocab.items()}
    options = {"beam_size": BEAMS, "length_penalty": LENGTH_PENALTY,
               "max_decoding_length": config.translation_max_tokens - 1}

    def run(texts: list[str]) -> tuple[list[str], int]:
        source = [[pieces[i] for i in ids] for ids in tokenizer.encode(texts)]
        best = [r.hypotheses[0] for r in translator.translate_batch(source, **options)]
        return [tokenizer.decode([tokenizer.vocab[p] for p in h]) for h in best], sum(len(h) for h in best)
    return run


def side(name: str, weights: Weights, config: TranslationBench, threads: int) -> Translate:
    """The function of side `name` (one of SIDES), on the model it loads."""
    if name in CT2_TYPES:
        return ct2_side(weights.ct2[name], CT2_TYPES[name], weights.transformers, config, threads)
    if name == "transformers fp32":
        return transformers_side(weights.transformers, config)
    model = zoo.from_hf(weights.transformers).float().eval()
    if name == "ours packed":
        model = zoo.pack_for_inference(model)
    elif name == "ours bf16 packed":  # as whisper_sides.bf16_packed, without the copy: this process has one side
        model = zoo.pack_for_inference(model.to(torch.bfloat16))
    elif name == "ours int8 packed":  # zoo.quantize's defaults: int8 weights, int8 activations per row
        model = zoo.pack_for_inference(zoo.quantize(model, "int8"))
    return ours_side(model, config)


# ----------------------------------------------------------------------------- one process per side


def translate_all(translate: Translate, batches: list[list[str]]) -> list[tuple[list[str], int]]:
    """In a side's worker: every batch, in order."""
    return [translate(batch) for batch in batches]


def run_pass(worker: Worker, batches: list[list[str]]) -> Pass:
    """A pass of the side in `worker` (a Worker of partial(side, name, weights, config)) over every batch,
    timed in its process."""
    done, seconds = worker.timed(translate_all, batches)
    return Pass(seconds, [text for texts, _ in done for text in texts], sum(tokens for _, tokens in done))
