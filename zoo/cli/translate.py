"""Translate sentences with a Marian model (the 2017 Transformer, zoo.marian), one translation a line.

    zoo translate --model runs/marian/model "In the beginning God created the heaven and the earth."
    zoo translate --model path/to/opus-mt-en-es --input data/corpus/parallel/test.en --output runs/test.hyp
    zoo translate --model runs/marian/model < sentences.txt > translations.txt

--model is a Marian directory that carries its tokenizer (source.spm, target.spm and vocab.json beside the
weights: save_pretrained's, or an HF MarianMT one). The sentences are the TEXT arguments, or the lines of
--input FILE (- is stdin), or of stdin when neither is given. The translations go out in the input's order, one
a line, to stdout or to --output FILE (written atomically once all are done); an empty line stays empty.

Decoding is zoo.translate's (zoo/generation/translate.py): beam search (--beam-size; 1 is greedy), hypotheses
scored sum log p / length ** --length-penalty as transformers' MarianMT, --batch-size sentences at a time,
longest first, put back in input order. --max-new-tokens defaults to 2 x the longest source (in tokens, </s>
included) + 10, at most the decoder's positions less its start token: one budget for the whole input, so that
batching never changes a translation. A sentence longer than the model's source positions is an error naming
its line and token count; --truncate cuts it to fit, warning on stderr.
"""
from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections.abc import Sequence
from pathlib import Path

import torch

import zoo
from zoo.cli.common import DTYPES, UsageError, add_runtime_arguments, apply_threads, flag, parser, place
from zoo.cli.models import load_model, model_kind
from zoo.cli.outputs import output_dir
from zoo.generation import translate as translation
from zoo.io import atomic_write_text

FAMILIES = ("marian",)
EXPECTED = "a Marian directory with its tokenizer (source.spm, target.spm and vocab.json beside the weights)"


def parse_args(argv=None) -> argparse.Namespace:
    p = parser(__doc__)
    p.add_argument("text", nargs="*", metavar="TEXT", help="sentences to translate (default: --input or stdin)")
    p.add_argument("--model", required=True, help="Marian save_pretrained or HF directory, with its tokenizer")
    p.add_argument("-i", "--input", metavar="FILE", help="one sentence a line; - is stdin")
    p.add_argument("-o", "--output", metavar="FILE", help="where the translations go (default: stdout)")
    flag(p, "beam_size", type=int, default=4, help="beams (1: greedy)")
    flag(p, "length_penalty", type=float, default=0.6, help="beam scores: sum log p / length ** this")
    flag(p, "max_new_tokens", type=int, default=None,
         help="target tokens at most (default: 2 x the longest source + 10, within the decoder's positions)")
    flag(p, "batch_size", type=int, default=16, help="sentences decoded together")
    p.add_argument("--truncate", action="store_true", help="cut a sentence longer than the model's source "
                   "positions to fit, with a warning (default: such a sentence is an error)")
    p.add_argument("--pack", action="store_true", help="zoo.pack_for_inference: weight copies laid out for the "
                   "CPU GEMM library (faster CPU decoding, more memory)")
    add_runtime_arguments(p, dtypes=tuple(DTYPES))
    args = p.parse_args(argv)
    for name in ("beam_size", "batch_size", "max_new_tokens"):
        value = getattr(args, name)
        if value is not None and value < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1, got {value}")
    if args.text and args.input is not None:
        p.error("give the sentences as TEXT arguments or as --input FILE, not both")
    return args


def read_lines(source: str) -> list[str]:
    """The lines of a file (- : stdin), without their line ends."""
    try:
        if source == "-":
            return [line.rstrip("\n") for line in sys.stdin]
        with open(source, encoding="utf-8") as f:
            return [line.rstrip("\n") for line in f]
    except (OSError, UnicodeDecodeError) as error:
        why = "is not UTF-8 text" if isinstance(error, UnicodeDecodeError) else f"cannot be read ({error.strerror})"
        raise UsageError(f"--input {source!r} {why}: expected a UTF-8 text file, one sentence a line") from None


def read_sentences(args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """The sentences, and how each is named in messages ("TEXT 2", "--input a.en line 7", "stdin line 7")."""
    if args.text:
        return list(args.text), [f"TEXT {i}" for i in range(1, len(args.text) + 1)]
    source = args.input or "-"
    where = "stdin" if source == "-" else f"--input {source}"
    lines = read_lines(source)
    return lines, [f"{where} line {i}" for i in range(1, len(lines) + 1)]


def load_translator(args: argparse.Namespace) -> torch.nn.Module:
    """--model: a Marian with its tokenizer, on --device in --dtype, packed with --pack."""
    if args.model in zoo.list_models() and not Path(args.model).exists():
        raise UsageError(f"--model {args.model!r} is a preset, with random weights and no tokenizer: expected "
                         f"{EXPECTED}")
    model_kind(args.model, FAMILIES)  # a path that is not there, or a hub id: its one line (zoo.cli.models)
    model = load_model(args.model)  # any family: the check below says what is expected
    family = getattr(getattr(model, "config", None), "family", None)
    if family not in FAMILIES or getattr(model, "tokenizer", None) is None:
        what = "a Marian without its tokenizer" if family in FAMILIES else f"a {family} model"
        raise UsageError(f"--model {args.model!r} holds {what}: expected {EXPECTED}")
    model = place(model, args)
    if args.pack:
        start = time.perf_counter()
        model = zoo.pack_for_inference(model)
        print(f"one-time: packing {args.model} {time.perf_counter() - start:.2f} s", file=sys.stderr)
    return model


def source_ids(tokenizer, sentences: Sequence[str], names: Sequence[str], max_positions: int,
               truncate: bool = False) -> list[list[int] | None]:
    """zoo.generation.translate.source_ids, a sentence too long a UsageError naming its line, a cut one a
    warning line on stderr."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            ids = translation.source_ids(tokenizer, sentences, max_positions, truncate, names)
        except ValueError as error:
            raise UsageError(str(error).replace("truncate=True, --truncate", "pass --truncate")) from None
    for warning in caught:
        print(f"warning: {warning.message} (--truncate)", file=sys.stderr)
    return ids


def new_token_budget(lengths: Sequence[int], max_positions: int, given: int | None = None) -> int:
    """zoo.generation.translate.new_token_budget, a budget past the positions a UsageError naming the flag."""
    try:
        return translation.new_token_budget(lengths, max_positions, given)
    except ValueError as error:
        raise UsageError(f"--{error}".replace("--max_new_tokens", "--max-new-tokens")) from None


def check_output(path: str) -> None:
    """--output before any work: not a directory, in a directory that exists (or can be made) and takes files."""
    if Path(path).is_dir():
        raise UsageError(f"--output {path!r} is a directory: expected a file to write the translations into")
    output_dir(Path(path).parent, "--output's directory")


def main(argv=None) -> list[str]:
    """Returns the translations, one per input sentence."""
    args = parse_args(argv)
    if args.output is not None:
        check_output(args.output)
    sentences, names = read_sentences(args)
    apply_threads(args)
    model = load_translator(args)
    positions = model.config.max_positions
    ids = source_ids(model.tokenizer, sentences, names, positions, args.truncate)
    budget = new_token_budget([len(row) for row in ids if row is not None], positions, args.max_new_tokens)
    texts = translation.translate_ids(model, model.tokenizer, ids, budget, num_beams=args.beam_size,
                                      length_penalty=args.length_penalty, batch_size=args.batch_size,
                                      progress=not args.text)
    if args.output is not None:
        atomic_write_text(args.output, "".join(f"{text}\n" for text in texts))
    else:
        sys.stdout.writelines(f"{text}\n" for text in texts)
    return texts
