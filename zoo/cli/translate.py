"""Translate sentences with a Marian model (the 2017 Transformer, zoo.marian), one translation a line.

    zoo translate --model runs/marian/model "In the beginning God created the heaven and the earth."
    zoo translate --model path/to/opus-mt-en-es --input data/corpus/parallel/test.en --output runs/test.hyp
    zoo translate --model runs/marian/model < sentences.txt > translations.txt

--model is a Marian directory that carries its tokenizer (source.spm, target.spm and vocab.json beside the
weights: save_pretrained's, or an HF MarianMT one). The sentences are the TEXT arguments, or the lines of
--input FILE (- is stdin), or of stdin when neither is given. The translations go out in the input's order, one
a line, to stdout or to --output FILE (written atomically once all are done); an empty line stays empty.

Decoding is zoo.generate's beam search (--beam-size; 1 is greedy), hypotheses scored sum log p / length **
--length-penalty as transformers' MarianMT. --batch-size sentences are decoded together, taken longest first
(batches of like lengths pad little, and one too big for memory fails at once) and put back in input order.
--max-new-tokens defaults to 2 x the longest source (in tokens, </s> included) + 10, at most the decoder's
positions less its start token: one budget for the whole input, so that batching never changes a translation
(beam search's result depends on the budget when a hypothesis reaches it). A sentence longer than the model's
source positions is an error naming its line and token count; --truncate cuts it to fit, warning on stderr.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import torch
from tqdm import tqdm

import zoo
from data.collate import pad_sequences
from zoo.cli.common import DTYPES, UsageError, add_runtime_arguments, apply_threads, flag, parser, place
from zoo.cli.models import load_model, model_kind
from zoo.cli.outputs import output_dir
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
    """Each sentence's source ids ("</s>" last), None for an empty line. One longer than `max_positions` is
    a UsageError naming it, or with `truncate` cut to fit (its "</s>" kept) with a warning."""
    ids: list[list[int] | None] = [None] * len(sentences)
    nonempty = [i for i, s in enumerate(sentences) if s.strip()]
    for i, row in zip(nonempty, tokenizer.encode([sentences[i] for i in nonempty]) if nonempty else []):
        if len(row) > max_positions:
            what = f"{names[i]} has {len(row)} tokens (</s> included) and the model reads at most {max_positions}"
            if not truncate:
                raise UsageError(f"{what}: split that sentence, or pass --truncate to cut it")
            print(f"warning: {what}: cut to its first {max_positions} (--truncate)", file=sys.stderr)
            row = row[:max_positions - 1] + [tokenizer.eos_id]
        ids[i] = row
    return ids


def new_token_budget(lengths: Sequence[int], max_positions: int, given: int | None = None) -> int:
    """--max-new-tokens, or 2 x the longest source + 10; at most max_positions - 1 (the start token's)."""
    most = max_positions - 1
    if given is not None and given > most:
        raise UsageError(f"--max-new-tokens {given}: the decoder has {max_positions} positions, one for its start "
                         f"token, so at most {most}")
    return given if given is not None else min(2 * max(lengths, default=0) + 10, most)


def batches(ids: Sequence[list[int] | None], batch_size: int) -> Iterator[list[int]]:
    """The indices of the non-empty rows, longest first (stable), in runs of `batch_size`."""
    order = sorted((i for i, row in enumerate(ids) if row is not None), key=lambda i: -len(ids[i]))
    for first in range(0, len(order), batch_size):
        yield order[first:first + batch_size]


@torch.no_grad()
def translate_ids(model, ids: Sequence[list[int] | None], max_new_tokens: int, *, num_beams: int = 4,
                  length_penalty: float = 0.6, batch_size: int = 16, progress: bool = False) -> list[str]:
    """The translation of each row of source ids, in their order ("" for None: an empty line)."""
    device = next(model.parameters()).device
    texts = [""] * len(ids)
    with tqdm(total=sum(row is not None for row in ids), unit="sentence", desc="translating",
              disable=not progress) as bar:
        for batch in batches(ids, batch_size):
            input_ids, mask = pad_sequences([ids[i] for i in batch], model.config.pad_id)  # (B, S) right-padded
            out = zoo.generate(model, input_ids.to(device), max_new_tokens, attention_mask=mask.to(device),
                               num_beams=num_beams, length_penalty=length_penalty)  # (B, 1 + new)
            for i, text in zip(batch, model.tokenizer.batch_decode(out.cpu())):
                texts[i] = text.replace("\n", " ")  # one translation a line, whatever the vocabulary holds
            bar.update(len(batch))
    return texts


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
    texts = translate_ids(model, ids, budget, num_beams=args.beam_size, length_penalty=args.length_penalty,
                          batch_size=args.batch_size, progress=not args.text)
    if args.output is not None:
        atomic_write_text(args.output, "".join(f"{text}\n" for text in texts))
    else:
        sys.stdout.writelines(f"{text}\n" for text in texts)
    return texts
