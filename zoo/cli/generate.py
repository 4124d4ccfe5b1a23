"""Generate text from a decoder (GPT, LLaMA): a preset, our save_pretrained directory or an HF one.

    zoo generate --model runs/demo/text/model --prompt "And God said" --max-new-tokens 60 \\
        --do-sample --top-k 40 --temperature 0.8 --seed 0 --stream
    zoo generate --model path/to/hf_gpt2 --prompt "Hello" --prompt "Two prompts" --num-beams 4
    zoo generate --model runs/big/model --draft runs/demo/text/model --num-draft-tokens 4 --prompt "In the"
    zoo generate --model path/to/hf_chat_model --chat --system "Answer briefly." --max-new-tokens 200

The tokenizer comes from --tokenizer or the model directory (tokenizer.json / vocab.txt). Several --prompt
values are decoded as one left-padded batch. The decoding options also take the underscored spelling of
transformers' generate and litgpt (--max_new_tokens, --top_k, ...). On stderr: the new tokens per second, with
one-time costs apart (packing, which builds the zoo's kernels; with --compile, a first call that compiles).

--chat renders the whole conversation through the checkpoint's chat template (chat_template.jinja or
tokenizer_config.json's, as transformers' apply_chat_template) every turn and streams the reply, which ends at the
end-of-text token or the template's end-of-turn token (data.chat_template.end_of_turn_ids). Where the
conversation no longer fits the model's positions with --max-new-tokens, its oldest turns are dropped (said on
stderr); the system message stays.
"""
from __future__ import annotations

import sys
import time

import torch

import zoo
from data.chat_template import end_of_turn_ids
from data.text_stream import TextStream
from data.tokenization import load_tokenizer
from zoo.cli.common import DTYPES, add_runtime_arguments, apply_threads, flag, parser, place
from zoo.cli.models import load_model, tokenizer_source
from zoo.generation import GenerationConfig, generate, stream

DECODERS = ("gpt", "llama")


def parse_args(argv=None):
    p = parser(__doc__)
    p.add_argument("--model", required=True, help="preset, save_pretrained or HF directory")
    p.add_argument("--tokenizer", help="tokenizer.json, vocab.txt or a directory (default: the model's)")
    p.add_argument("--prompt", action="append", default=[], help="repeat for a batch (--chat: the first turns)")
    p.add_argument("--chat", action="store_true", help="a conversation on the checkpoint's chat template: one "
                   "message per line from stdin (after any --prompt), replies streamed; an empty line or EOF ends it")
    p.add_argument("--system", help="--chat: the system message")
    flag(p, "max_new_tokens", type=int, default=50)
    flag(p, "do_sample", action="store_true", help="sample (default: greedy)")
    p.add_argument("--temperature", type=float, default=1.0)
    flag(p, "top_k", type=int, default=0, help="0: off")
    flag(p, "top_p", type=float, default=1.0)
    flag(p, "min_p", type=float, default=0.0)
    flag(p, "repetition_penalty", type=float, default=1.0)
    flag(p, "num_beams", type=int, default=1)
    flag(p, "length_penalty", type=float, default=1.0)
    flag(p, "early_stopping", choices=["true", "false", "never"], default="false")
    p.add_argument("--stop", action="append", default=[], help="stop once the text ends with this string")
    p.add_argument("--no-eos", action="store_true", help="do not stop at the tokenizer's end-of-text token")
    p.add_argument("--draft", help="draft model for speculative decoding (same tokenizer; any --model form)")
    p.add_argument("--num-draft-tokens", type=int, default=4)
    p.add_argument("--compile", action="store_true", help="decode through torch.compile (fixed-shape steps; "
                   "the first call compiles, reported apart, then each token costs less)")
    p.add_argument("--pack", action="store_true", help="zoo.pack_for_inference on the model (and draft): "
                   "weight copies laid out for the CPU GEMM library, bf16 batch-1 products through zoo::gemv; "
                   "faster bf16 and batched decoding, more memory")
    p.add_argument("--no-gemv", action="store_true", help="with --pack: bf16 batch-1 products on torch's kernels "
                   "(oneDNN) rather than zoo::gemv")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--stream", action="store_true", help="print tokens as they are generated (batch of one)")
    add_runtime_arguments(p, dtypes=tuple(DTYPES))
    return p.parse_args(argv)


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


def prepare(source: str, args) -> torch.nn.Module:
    """--model or --draft loaded, placed on --device in --dtype, and packed with --pack (timed: a one-time cost). A
    preset's random weights follow --seed."""
    model = place(load_model(source, DECODERS, seed=args.seed), args)
    if args.pack:
        start = time.perf_counter()
        model = zoo.pack_for_inference(model, gemv=not args.no_gemv)
        print(f"one-time: packing {source} (weights laid out, kernels built) {time.perf_counter() - start:.2f} s",
              file=sys.stderr)
    return model


def new_tokens(out: torch.Tensor, width: int, eos_id: int | None) -> int:
    """Tokens generated past the prompts, each row counted up to its end token (finished rows are padded)."""
    count = 0
    for row in out[:, width:].tolist():
        count += row.index(eos_id) + 1 if eos_id is not None and eos_id in row else len(row)
    return count


def report_speed(tokens: int, seconds: float, what: str = "decoding") -> None:
    print(f"{what}: {tokens} new tokens in {seconds:.2f} s, {tokens / max(seconds, 1e-9):.1f} tokens/s "
          "(prefill included)", file=sys.stderr)


def stream_text(model, tokenizer, ids, args, options, generator) -> list[str]:
    """--stream: one prompt, its text printed as the tokens come (data.text_stream: only the new tokens are
    decoded, so a prompt's special tokens, which decoding skips, do not shift the text)."""
    if len(args.prompt) != 1 or args.num_beams > 1 or args.draft:
        raise SystemExit("--stream decodes one prompt, without beams or a draft model")
    config = GenerationConfig(max_new_tokens=args.max_new_tokens, **options)
    prompt = args.prompt[0]
    text = TextStream(tokenizer)
    pieces: list[str] = []
    print(prompt, end="", flush=True)
    start = time.perf_counter()
    count = 0
    for token in stream(model, ids, config, generator=generator):
        count += 1
        pieces.append(text.put(token.tolist()))
        print(pieces[-1], end="", flush=True)
    pieces.append(text.end())
    print(pieces[-1])
    report_speed(count, time.perf_counter() - start, "streaming (the first call compiles with --compile)"
                 if args.compile else "streaming")
    return [prompt + "".join(pieces)]


def sampling_options(args, tokenizer, eos_id) -> dict:
    """GenerationConfig's fields from the flags."""
    return dict(do_sample=args.do_sample, temperature=args.temperature, top_k=args.top_k, top_p=args.top_p,
                min_p=args.min_p, repetition_penalty=args.repetition_penalty, num_beams=args.num_beams,
                length_penalty=args.length_penalty,
                early_stopping={"true": True, "false": False}.get(args.early_stopping, "never"), eos_id=eos_id,
                stop_sequences=tuple(tuple(tokenizer.encode(s, add_special_tokens=False)) for s in args.stop),
                compile=args.compile)


def user_turns(prompts: list[str]):
    """--prompt values, then stdin's lines until an empty one or EOF ("> " before each where stdin is a terminal)."""
    yield from prompts
    while True:
        if sys.stdin.isatty():
            print("> ", end="", flush=True)
        line = sys.stdin.readline()
        if not line.strip():
            return
        yield line.strip()


def chat(model, tokenizer, args, options, device) -> list[str]:
    """--chat: the replies, each streamed as it comes."""
    if tokenizer.chat_template is None:
        raise SystemExit(f"--chat: the tokenizer of {args.tokenizer or args.model!r} has no chat template (neither "
                         "chat_template.jinja nor a \"chat_template\" in tokenizer_config.json); use --prompt")
    if args.num_beams > 1 or args.draft:
        raise SystemExit("--chat streams one reply at a time, without beams or a draft model")
    config = GenerationConfig(max_new_tokens=args.max_new_tokens, **{**options, "eos_id": end_of_turn_ids(tokenizer)})
    generator = torch.Generator(device).manual_seed(args.seed)
    messages = [{"role": "system", "content": args.system}] if args.system else []
    replies = []
    for turn in user_turns(args.prompt):
        messages.append({"role": "user", "content": turn})
        ids = tokenizer.apply_chat_template(messages, add_generation_prompt=True)
        while len(ids) + args.max_new_tokens > model.max_positions and len(messages) > 1 + bool(args.system):
            del messages[bool(args.system):bool(args.system) + 2]  # the oldest exchange
            print("[the conversation fills the model's positions: its oldest turn is dropped]", file=sys.stderr)
            ids = tokenizer.apply_chat_template(messages, add_generation_prompt=True)
        text, pieces = TextStream(tokenizer), []
        for token in stream(model, torch.tensor([ids], device=device), config, generator=generator):
            if int(token[0]) in config.eos_ids:
                break
            pieces.append(text.put(token.tolist()))
            print(pieces[-1], end="", flush=True)
        pieces.append(text.end())
        print(pieces[-1])
        replies.append("".join(pieces).strip())
        messages.append({"role": "assistant", "content": replies[-1]})
    return replies


def main(argv=None) -> list[str]:
    args = parse_args(argv)
    apply_threads(args)
    model = prepare(args.model, args)
    source = tokenizer_source(args.model, args.tokenizer)
    if source is None:
        raise SystemExit("a preset has no tokenizer: pass --tokenizer")
    tokenizer = load_tokenizer(source)
    device = next(model.parameters()).device
    if args.chat:
        return chat(model, tokenizer, args, sampling_options(args, tokenizer, None), device)
    if not args.prompt:
        raise SystemExit("--prompt is required (or --chat)")
    ids, mask = (t.to(device) for t in batch_prompts(tokenizer, args.prompt))
    eos_id = None if args.no_eos else tokenizer.eos_id
    options = sampling_options(args, tokenizer, eos_id)
    generator = torch.Generator(device).manual_seed(args.seed)
    if args.stream:
        return stream_text(model, tokenizer, ids, args, options, generator)
    if args.draft:
        options.update(draft_model=prepare(args.draft, args), num_draft_tokens=args.num_draft_tokens)
    if args.compile:  # the first call for this batch shape compiles: timed apart, its tokens not kept
        start = time.perf_counter()
        generate(model, ids, args.max_new_tokens, attention_mask=mask,
                 generator=torch.Generator(device).manual_seed(args.seed), **options)
        print(f"one-time: first call (torch.compile) {time.perf_counter() - start:.2f} s", file=sys.stderr)
    start = time.perf_counter()
    out = generate(model, ids, args.max_new_tokens, attention_mask=mask, generator=generator, **options)
    report_speed(new_tokens(out, ids.shape[1], eos_id), time.perf_counter() - start)
    texts = [tokenizer.decode(row[mask.shape[1]:].tolist()) for row in out]
    for prompt, text in zip(args.prompt, texts):
        print(f"{prompt}{text}\n")
    return [p + t for p, t in zip(args.prompt, texts)]
