#!/usr/bin/env python
"""Attention maps from the math backend, rendered to PNG.

    # ViT: which patches the class token looks at, per head, over the image
    python scripts/visualize_attention.py --model runs/fmnist/model --data fashion-mnist --index 3 --out runs/attn
    python scripts/visualize_attention.py --model runs/digits/model --image my_digit.png --layer 0
    # text (gpt / llama / bert): which tokens a word attends to, per head
    python scripts/visualize_attention.py --model runs/gpt/model --word it \\
        --text "The animal did not cross the street because it was too tired"
    # translation (marian): the cross-attention grid of the translation, and the encoder row of one word
    python scripts/visualize_attention.py --model runs/marian/model --word it --beam-size 4 \\
        --text "The animal did not cross the street because it was too tired."

--model: a save_pretrained directory, an HF directory, or a preset (random weights: only
useful to see the plumbing), as every zoo subcommand takes it (zoo.cli.models). Text models need
a tokenizer: the model directory's or --tokenizer.

A Marian (the 2017 Transformer; its directory brings its tokenizer, or --tokenizer names a
Marian tokenizer directory) translates --text (greedy, or --beam-size beams; zoo translate's
budget of new tokens), then runs the source and its translation through the model once more,
teacher-forced, to draw two pictures of layer --layer: the decoder's cross-attention as a grid,
a row per target token (the weights of the decoder position that predicted it) and a column per
source token, heads averaged or --head H alone; and, as the paper's figures 3-5, the encoder
self-attention row of --word (a piece's text, or an integer: the piece's index), each head and
their mean. The tick labels are the SentencePiece pieces ("▁" starts a word).

How the weights are obtained: a forward hook on the chosen block's self-attention (or a
decoder block's cross-attention) takes that layer's inputs (and the encoder's memory for
cross-attention), recomputes q, k, v with the layer's own projections (and RoPE), and
calls backbones.attention.attend_math -- the reference the fast backends are tested
against -- with the mask and causal flag the layer received. The hook then checks that
those weights, applied to v and projected, give the layer's actual output, so what is
drawn is what the model computed. Nothing in the model is switched or patched.
"""
from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import torch

import zoo
from data.images import denormalize, eval_transform, image_split, load_preprocess_config, preprocess_config
from data.marian_tokenizer import MarianSentencePiece
from data.tokenization import load_tokenizer
from data.vision import read_image
from zoo.cli.common import parser, run
from zoo.cli.models import load_model as load_any_model
from zoo.cli.translate import new_token_budget, source_ids

TEXT_FAMILIES = ("gpt", "llama", "bert")


def parse_args(argv=None):
    p = parser(__doc__)
    p.add_argument("--model", required=True, help="checkpoint directory (ours or HF) or a preset name")
    p.add_argument("--layer", type=int, default=-1, help="block index (negative counts from the last)")
    p.add_argument("--out", default="runs/attention", help="folder for the PNGs")
    vit = p.add_argument_group("ViT input (one of)")
    vit.add_argument("--image", help="an image file (converted to the model's channels and size)")
    vit.add_argument("--data", help="digits | fashion-mnist | an image folder: take its test image --index")
    vit.add_argument("--index", type=int, default=0)
    text = p.add_argument_group("text input")
    text.add_argument("--text", default="The animal did not cross the street because it was too tired.")
    text.add_argument("--word", default="it", help="the token whose attention row is drawn (marian: a piece's "
                      "text or its index)")
    text.add_argument("--occurrence", type=int, default=1, help="which occurrence of --word (1 = first)")
    text.add_argument("--tokenizer", help="tokenizer.json, vocab.txt or a directory (default: the model's; "
                      "marian: a Marian tokenizer directory)")
    marian = p.add_argument_group("translation (marian)")
    marian.add_argument("--beam-size", type=int, default=1, help="beams for the translation (1: greedy)")
    marian.add_argument("--length-penalty", type=float, default=0.6, help="beam scores: sum log p / length ** this")
    marian.add_argument("--head", type=int, default=None, help="draw this cross-attention head (default: the mean "
                        "of the heads)")
    return p.parse_args(argv)


# ----------------------------------------------------------------------------- the weights


@contextmanager
def recorded_attention(stack: torch.nn.Module, layer: int, part: str = "attn", name: str = "the model"):
    """Inside `with`, each forward of the Transformer `stack` stores the weights (B, H, Tq, Tk) of block `layer`'s
    `part` (its self-attention, or a decoder's "cross_attn") in the yielded dict["weights"]."""
    blocks = stack.blocks
    if not -len(blocks) <= layer < len(blocks):
        raise ValueError(f"--layer {layer} is out of range: {name} has {len(blocks)} blocks (0..{len(blocks) - 1})")
    attn = getattr(blocks[layer], part)
    if stack.has_cache:
        raise ValueError("the model has a KV cache set up; call clear_cache() before drawing attention")
    record: dict[str, torch.Tensor] = {}

    def hook(module, args, kwargs, output):
        with torch.no_grad():  # args: the queries' input, and a cross-attention's context
            out, weights = module.forward_with_weights(*args, mask=kwargs.get("mask"),
                                                       causal=kwargs.get("causal", False),
                                                       positions=kwargs.get("positions"))
        if not torch.allclose(out, output, atol=1e-4, rtol=1e-3):
            raise RuntimeError(f"layer {layer}: attention recomputed with attend_math differs from the layer's "
                               f"output by {(out - output).abs().max().item():.2e} (is the model in eval mode?)")
        record["weights"] = weights.detach().float()

    handle = attn.register_forward_hook(hook, with_kwargs=True)
    try:
        yield record
    finally:
        handle.remove()


def load_model(source: str) -> torch.nn.Module:
    """--model in eval mode, of a family whose attention is drawn (a preset warns that its weights are random)."""
    return load_any_model(source, ("vit", *TEXT_FAMILIES, "marian"))


# ----------------------------------------------------------------------------- ViT


@torch.no_grad()
def image_attention(model, pixels: torch.Tensor, layer: int) -> tuple[torch.Tensor, torch.Tensor]:
    """pixels (1, C, H, W) -> (weights (H, N, N) of block `layer`, logits (num_classes,))."""
    with recorded_attention(model.transformer, layer) as record:
        logits = model(pixels)
    return record["weights"][0], logits[0]


def patch_maps(model, weights: torch.Tensor, grid: tuple[int, int]) -> torch.Tensor:
    """(H, N, N) -> (H, gh, gw): the class token's weights on the patches (with mean pooling and no
    class token: the mean over patch queries of the weights each patch receives)."""
    prefix = model.num_prefix_tokens
    rows = weights[:, 0, prefix:] if model.config.class_token else weights[:, prefix:, prefix:].mean(1)
    return rows.reshape(-1, *grid)  # (H, gh, gw)


def render_image_attention(image: torch.Tensor, maps: torch.Tensor, path: Path, title: str) -> Path:
    """image (C, H, W) in [0, 1], maps (heads, gh, gw): the image, the head mean, each head, overlaid."""
    from matplotlib.figure import Figure

    panels = [("image", None), ("mean of heads", maps.mean(0))] + [(f"head {h}", m) for h, m in enumerate(maps)]
    fig = Figure(figsize=(2.2 * len(panels), 2.6), dpi=100)
    shown = image.permute(1, 2, 0).numpy()
    for i, (name, m) in enumerate(panels):
        ax = fig.add_subplot(1, len(panels), i + 1)
        ax.imshow(shown[..., 0] if shown.shape[-1] == 1 else shown, cmap="gray", vmin=0, vmax=1,
                  extent=(0, 1, 1, 0))
        if m is not None:
            ax.imshow(m.numpy(), cmap="inferno", alpha=0.6, extent=(0, 1, 1, 0), interpolation="nearest")
            name += f"\nmax {m.max().item():.2f}"
        ax.set_title(name, fontsize=8)
        ax.axis("off")
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path)
    return path


def vit_main(args, model, out: Path) -> dict:
    directory = Path(args.model)
    pre = load_preprocess_config(directory, model.config) if directory.is_dir() else preprocess_config(model.config)
    classes = None
    if args.image:
        image = read_image(args.image, "L" if pre["in_chans"] == 1 else "RGB")
        source = Path(args.image).name
    elif args.data:
        split = image_split(args.data, in_chans=pre["in_chans"])
        if not 0 <= args.index < len(split.test_labels):
            raise SystemExit(f"--index {args.index}: the {args.data} test split has {len(split.test_labels)} images")
        image, classes = split.test_images[args.index], split.classes
        source = f"{args.data} test #{args.index} ({classes[int(split.test_labels[args.index])]})"
    else:
        raise SystemExit("a ViT needs an input: --image FILE or --data NAME [--index I]")
    pixels = eval_transform(pre)(image)[None]  # (1, C, H, W)
    weights, logits = image_attention(model, pixels, args.layer)
    p = model.config.patch_size
    grid = (pixels.shape[-2] // p, pixels.shape[-1] // p)
    maps = patch_maps(model, weights, grid)
    layer = args.layer % len(model.transformer.blocks)
    predicted = int(logits.argmax()) if model.config.num_classes else None
    label = f", predicted {classes[predicted] if classes and predicted < len(classes) else predicted}" \
        if predicted is not None else ""
    query = "class token" if model.config.class_token else "mean patch query"
    path = render_image_attention(denormalize(pixels[0], pre), maps, out / f"vit_layer{layer}.png",
                                  f"{source}: {query} -> patches, layer {layer}{label}")
    print(f"wrote {path}")
    return {"paths": [path], "weights": weights, "maps": maps, "layer": layer}


# ----------------------------------------------------------------------------- text


def display_token(piece: str) -> str:
    """Byte-level BPE marks a leading space with 'Ġ', WordPiece a continuation with '##'."""
    return piece.replace("Ġ", "").replace("Ċ", "\\n").removeprefix("##") or piece


def find_word(tokens: list[str], word: str, occurrence: int = 1) -> int:
    hits = [i for i, t in enumerate(tokens) if t.lower() == word.lower()]
    if len(hits) < occurrence or occurrence < 1:
        raise SystemExit(f"--word {word!r} (occurrence {occurrence}) is not one token of the text; "
                         f"its tokens are {tokens}")
    return hits[occurrence - 1]


@torch.no_grad()
def text_attention(model, input_ids: torch.Tensor, layer: int) -> torch.Tensor:
    """input_ids (1, T) -> weights (H, T, T) of block `layer`."""
    with recorded_attention(model.transformer, layer) as record:
        model.forward_features(input_ids)
    return record["weights"][0]


def render_text_attention(tokens: list[str], query: int, rows: torch.Tensor, path: Path, title: str) -> Path:
    """rows (heads, T): each head's weights from token `query` to every token, as a heatmap with values."""
    from matplotlib.figure import Figure

    data = torch.cat([rows, rows.mean(0, keepdim=True)]).numpy()  # (heads + 1, T)
    labels = [f"head {h}" for h in range(len(rows))] + ["mean"]
    fig = Figure(figsize=(max(6.0, 0.55 * len(tokens) + 1.5), 0.45 * len(labels) + 1.8), dpi=100)
    ax = fig.add_subplot()
    ax.imshow(data, cmap="Blues", vmin=0, vmax=max(float(data.max()), 1e-6), aspect="auto")
    ax.set_xticks(range(len(tokens)), tokens, rotation=60, ha="right", fontsize=8)
    ax.set_yticks(range(len(labels)), labels, fontsize=8)
    ax.get_xticklabels()[query].set_color("red")
    for (i, j), value in np.ndenumerate(data):
        if value >= 0.01:
            ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=6,
                    color="white" if value > 0.6 * data.max() else "black")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path)
    return path


def text_main(args, model, out: Path) -> dict:
    source = args.tokenizer or (args.model if Path(args.model).is_dir() else None)
    if source is None:
        raise SystemExit("a preset has no tokenizer: pass --tokenizer")
    tokenizer = load_tokenizer(source)
    ids = tokenizer.encode(args.text)  # BERT: [CLS] ... [SEP]; BPE: the pieces
    if not ids:
        raise SystemExit("--text encodes to no tokens")
    tokens = [display_token(tokenizer.id_to_token(i)) for i in ids]
    query = find_word(tokens, args.word, args.occurrence)
    weights = text_attention(model, torch.tensor([ids]), args.layer)
    layer = args.layer % len(model.transformer.blocks)
    name = "".join(ch for ch in args.word if ch.isalnum()) or "word"
    # A causal model's row is zero past the query: draw the keys it can see.
    keys = int(torch.nonzero(weights[:, query].amax(0)).max()) + 1
    title = f"{model.config.family}: what {args.word!r} (token {query}) attends to, layer {layer}"
    path = render_text_attention(tokens[:keys], query, weights[:, query, :keys],
                                 out / f"text_layer{layer}_{name}.png", title)
    print(f"wrote {path}")
    print_top_keys(tokens, weights[:, query])
    return {"paths": [path], "weights": weights, "tokens": tokens, "query": query, "layer": layer}


def print_top_keys(tokens: list[str], rows: torch.Tensor) -> None:
    """rows (heads, T): each head's three most attended tokens."""
    for h, row in enumerate(rows):
        top = row.topk(min(3, len(tokens)))
        print(f"  head {h}: " + ", ".join(f"{tokens[i]!r} {v:.2f}" for v, i in zip(top.values.tolist(),
                                                                                 top.indices.tolist())))


# ----------------------------------------------------------------------------- Marian (translation)


def marian_tokenizer(args, model) -> MarianSentencePiece:
    """--tokenizer (a Marian tokenizer directory), else the one the model directory brought."""
    if args.tokenizer:
        return MarianSentencePiece.from_directory(args.tokenizer)
    if getattr(model, "tokenizer", None) is None:
        raise SystemExit(f"--model {args.model!r} has no tokenizer: expected a Marian directory with source.spm, "
                         "target.spm and vocab.json, or --tokenizer naming one")
    return model.tokenizer


def marian_pieces(tokenizer: MarianSentencePiece, ids: list[int], target: bool = False) -> list[str]:
    """The vocabulary's pieces of `ids` (the target vocabulary's where the two are separate)."""
    vocab = tokenizer.target_vocab if target and tokenizer.target_vocab is not None else tokenizer.vocab
    pieces = {i: piece for piece, i in vocab.items()}
    return [pieces[i] for i in ids]


def find_piece(pieces: list[str], word: str, occurrence: int = 1) -> int:
    """--word as an index into the pieces (an integer), or as a piece's text ("it" finds "▁it")."""
    if word.lstrip("-").isdigit():
        index = int(word)
        if not -len(pieces) <= index < len(pieces):
            raise SystemExit(f"--word {index} is out of range: the text has {len(pieces)} pieces {pieces}")
        return index % len(pieces)
    return find_word([p.removeprefix("\u2581") or p for p in pieces], word, occurrence)


@torch.no_grad()
def translation_attention(model, source: torch.Tensor, target: torch.Tensor, layer: int
                          ) -> tuple[torch.Tensor, torch.Tensor]:
    """source (1, S), target (1, 1 + N) from the decoder start -> (encoder self-attention (H, S, S), decoder
    cross-attention (H, N, S)) of block `layer`, teacher-forced: row t is the position that predicted target
    token t + 1."""
    with recorded_attention(model.encoder, layer, name="the encoder") as encoder, \
            recorded_attention(model.decoder, layer, "cross_attn", name="the decoder") as cross:
        model(source, decoder_input_ids=target[:, :-1])
    return encoder["weights"][0], cross["weights"][0]


def translate_one(model, tokenizer: MarianSentencePiece, args) -> tuple[torch.Tensor, torch.Tensor]:
    """--text's source ids (1, S) and its translation's ids (1, 1 + N): the decoder start, the new tokens up
    to their EOS."""
    (ids,) = source_ids(tokenizer, [args.text], ["--text"], model.config.max_positions)
    if ids is None:
        raise SystemExit("--text is empty: expected a sentence to translate")
    source = torch.tensor([ids])
    out = zoo.generate(model, source, new_token_budget([len(ids)], model.config.max_positions),
                       num_beams=args.beam_size, length_penalty=args.length_penalty)[0].tolist()
    ends = [i for i, token in enumerate(out[1:], 1) if token == model.config.eos_id]
    return source, torch.tensor([out[:ends[0] + 1] if ends else out])


def render_cross_attention(source: list[str], target: list[str], grid: torch.Tensor, path: Path,
                           title: str) -> Path:
    """grid (N, S): target tokens as rows, source tokens as columns, as the alignment pictures of NMT papers."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(max(4.0, 0.45 * len(source) + 2.0), max(3.0, 0.4 * len(target) + 1.8)), dpi=100)
    ax = fig.add_subplot()
    ax.imshow(grid.numpy(), cmap="Greys", vmin=0, vmax=max(float(grid.max()), 1e-6), aspect="auto")
    ax.set_xticks(range(len(source)), source, rotation=60, ha="right", fontsize=8)
    ax.set_yticks(range(len(target)), target, fontsize=8)
    ax.set_xlabel("source", fontsize=8)
    ax.set_ylabel("translation", fontsize=8)
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path)
    return path


def marian_main(args, model, out: Path) -> dict:
    tokenizer = marian_tokenizer(args, model)
    source, target = translate_one(model, tokenizer, args)
    encoder, cross = translation_attention(model, source, target, args.layer)
    if args.head is not None and not 0 <= args.head < cross.shape[0]:
        raise SystemExit(f"--head {args.head} is out of range: the decoder's cross-attention has {cross.shape[0]} "
                         f"heads (0..{cross.shape[0] - 1})")
    grid = cross.mean(0) if args.head is None else cross[args.head]  # (N, S)
    source_pieces = marian_pieces(tokenizer, source[0].tolist())
    target_pieces = marian_pieces(tokenizer, target[0, 1:].tolist(), target=True)
    query = find_piece(source_pieces, args.word, args.occurrence)
    translation = tokenizer.decode(target[0])
    print(f"translation: {translation}")
    layers = (args.layer % len(model.encoder.blocks), args.layer % len(model.decoder.blocks))
    heads, suffix = ("mean of heads", "") if args.head is None else (f"head {args.head}", f"_head{args.head}")
    grid_path = render_cross_attention(source_pieces, target_pieces, grid, out / f"marian_cross_layer{layers[1]}"
                                       f"{suffix}.png", f"cross-attention, decoder layer {layers[1]}, {heads}")
    name = "".join(ch for ch in args.word if ch.isalnum()) or "word"
    row_path = render_text_attention(source_pieces, query, encoder[:, query],
                                     out / f"marian_encoder_layer{layers[0]}_{name}.png",
                                     f"marian encoder: what {source_pieces[query]!r} (piece {query}) attends to, "
                                     f"layer {layers[0]}")
    print(f"wrote {grid_path}\nwrote {row_path}")
    print_top_keys(source_pieces, encoder[:, query])
    return {"paths": [grid_path, row_path], "grid": grid, "cross": cross, "weights": encoder, "query": query,
            "source_tokens": source_pieces, "target_tokens": target_pieces, "translation": translation,
            "layer": layers}


def main(argv=None) -> dict:
    args = parse_args(argv)
    model = load_model(args.model)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if model.config.family == "vit":
        return vit_main(args, model, out)
    if model.config.family == "marian":
        return marian_main(args, model, out)
    return text_main(args, model, out)


if __name__ == "__main__":
    sys.exit(run(main))
