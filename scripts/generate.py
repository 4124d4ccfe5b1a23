#!/usr/bin/env python
"""Generate text from a preset, one of our checkpoints, or an HF directory.

    python scripts/generate.py --model runs/demo/text/model --prompt "And God said" --max-new-tokens 60 \\
        --do-sample --top-k 40 --temperature 0.8 --seed 0 --stream
    python scripts/generate.py --model path/to/hf_gpt2 --prompt "Hello" --prompt "Two prompts" --num-beams 4
    python scripts/generate.py --model runs/big/model --draft runs/demo/text/model --num-draft-tokens 4 \
        --prompt "In the"

The tokenizer comes from --tokenizer or the model directory (tokenizer.json / vocab.txt).
Several --prompt values are decoded as one left-padded batch.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch

import zoo
from data.tokenization import load_tokenizer
from zoo.generation import GenerationConfig, generate, stream
from zoo.io import loading


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", required=True, help="save_pretrained dir, HF dir, or a preset name (random weights)")
    p.add_argument("--tokenizer", help="tokenizer.json, vocab.txt or a directory (default: the model's)")
    p.add_argument("--prompt", action="append", required=True, help="repeat for a batch")
    p.add_argument("--max-new-tokens", type=int, default=50)
    p.add_argument("--do-sample", action="store_true")
    p.add_argument("--temperature", type=float, default=1.0)
    p.add_argument("--top-k", type=int, default=0)
    p.add_argument("--top-p", type=float, default=1.0)
    p.add_argument("--min-p", type=float, default=0.0)
    p.add_argument("--repetition-penalty", type=float, default=1.0)
    p.add_argument("--num-beams", type=int, default=1)
    p.add_argument("--length-penalty", type=float, default=1.0)
    p.add_argument("--early-stopping", choices=["true", "false", "never"], default="false")
    p.add_argument("--stop", action="append", default=[], help="stop once the text ends with this string")
    p.add_argument("--no-eos", action="store_true", help="do not stop at the tokenizer's end-of-text token")
    p.add_argument("--draft", help="draft model for speculative decoding (same tokenizer)")
    p.add_argument("--num-draft-tokens", type=int, default=4)
    p.add_argument("--dtype", choices=["fp32", "bf16"], default="fp32")
    p.add_argument("--compile", action="store_true", help="decode through torch.compile (fixed-shape steps; "
                   "the first call compiles for ~20-40 s, then each token costs less)")
    p.add_argument("--pack", action="store_true", help="zoo.pack_for_inference on the model (and draft): "
                   "weight copies laid out for the CPU GEMM library, bf16 batch-1 products through zoo::gemv; "
                   "faster bf16 and batched decoding, more memory")
    p.add_argument("--no-gemv", action="store_true", help="with --pack: bf16 batch-1 products on torch's kernels "
                   "(oneDNN) rather than zoo::gemv")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--stream", action="store_true", help="print tokens as they are generated (batch of one)")
    return p.parse_args(argv)


def load_model(source: str) -> torch.nn.Module:
    path = Path(source)
    if not path.is_dir():
        return zoo.create_model(source)
    with loading(source):
        return zoo.load_directory(path)


def batch_prompts(tokenizer, prompts: list[str]) -> tuple[torch.Tensor, torch.Tensor]:
    """Left-pad the prompts into (B, T) ids and their attention mask."""
    encoded = [tokenizer.encode(p, add_special_tokens=False) for p in prompts]
    if any(len(e) == 0 for e in encoded):
        raise SystemExit("--prompt must not be empty (it encodes to no tokens)")
    width = max(map(len, encoded))
    pad = tokenizer.pad_id if tokenizer.pad_id is not None else (tokenizer.eos_id or 0)
    ids = torch.tensor([[pad] * (width - len(e)) + e for e in encoded])
    mask = torch.tensor([[0] * (width - len(e)) + [1] * len(e) for e in encoded])
    return ids, mask


def main(argv=None) -> list[str]:
    args = parse_args(argv)
    model = load_model(args.model).eval()
    tokenizer_source = args.tokenizer or (args.model if Path(args.model).is_dir() else None)
    if tokenizer_source is None:
        raise SystemExit("a preset has no tokenizer: pass --tokenizer")
    tokenizer = load_tokenizer(tokenizer_source)
    if args.dtype == "bf16":
        model = model.to(torch.bfloat16)  # decoding reads every weight per token: half the bytes
    if args.pack:
        model = zoo.pack_for_inference(model, gemv=not args.no_gemv)
    ids, mask = batch_prompts(tokenizer, args.prompt)
    options = dict(do_sample=args.do_sample, temperature=args.temperature, top_k=args.top_k, top_p=args.top_p,
                   min_p=args.min_p, repetition_penalty=args.repetition_penalty, num_beams=args.num_beams,
                   length_penalty=args.length_penalty,
                   early_stopping={"true": True, "false": False}.get(args.early_stopping, "never"),
                   eos_id=None if args.no_eos else tokenizer.eos_id,
                   stop_sequences=tuple(tuple(tokenizer.encode(s, add_special_tokens=False)) for s in args.stop),
                   compile=args.compile)
    generator = torch.Generator().manual_seed(args.seed)
    if args.stream:
        if len(args.prompt) != 1 or args.num_beams > 1 or args.draft:
            raise SystemExit("--stream decodes one prompt, without beams or a draft model")
        config = GenerationConfig(max_new_tokens=args.max_new_tokens, **options)
        new: list[int] = []
        printed = ""
        print(args.prompt[0], end="", flush=True)
        for token in stream(model, ids, config, generator=generator):
            new.append(int(token[0]))
            text = tokenizer.decode(tokenizer.encode(args.prompt[0], add_special_tokens=False) + new)
            sys.stdout.write(text[len(args.prompt[0]) + len(printed):])
            sys.stdout.flush()
            printed = text[len(args.prompt[0]):]
        print()
        return [args.prompt[0] + printed]
    if args.draft:
        draft = load_model(args.draft).eval()
        if args.dtype == "bf16":
            draft = draft.to(torch.bfloat16)
        options.update(draft_model=zoo.pack_for_inference(draft, gemv=not args.no_gemv) if args.pack else draft,
                       num_draft_tokens=args.num_draft_tokens)
    out = generate(model, ids, args.max_new_tokens, attention_mask=mask, generator=generator, **options)
    texts = [tokenizer.decode(row[mask.shape[1]:].tolist()) for row in out]
    for prompt, text in zip(args.prompt, texts):
        print(f"{prompt}{text}\n")
    return [p + t for p, t in zip(args.prompt, texts)]


if __name__ == "__main__":
    main()
