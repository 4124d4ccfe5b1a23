#!/usr/bin/env python
"""Attention maps from the math backend, rendered to PNG.

    # ViT: which patches the class token looks at, per head, over the image
    python scripts/visualize_attention.py --model runs/fmnist/model --data fashion-mnist --index 3 --out runs/attn
    python scripts/visualize_attention.py --model runs/digits/model --image my_digit.png --layer 0
    # text (gpt / llama / bert): which tokens a word attends to, per head
    python scripts/visualize_attention.py --model runs/gpt/model --word it \\
        --text "The animal did not cross the street because it was too tired"

--model: a save_pretrained directory, an HF directory, or a preset (random weights: only
useful to see the plumbing), as every zoo subcommand takes it (zoo.cli.models). Text models need
a tokenizer: the model directory's or --tokenizer.

How the weights are obtained: a forward hook on the chosen block's self-attention takes
that layer's input, recomputes q, k, v with the layer's own projections (and RoPE), and
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

from data.images import denormalize, eval_transform, image_split, load_preprocess_config, preprocess_config
from data.tokenization import load_tokenizer
from data.vision import read_image
from zoo.cli.common import parser, run
from zoo.cli.models import load_model as load_any_model

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
    text.add_argument("--word", default="it", help="the token whose attention row is drawn")
    text.add_argument("--occurrence", type=int, default=1, help="which occurrence of --word (1 = first)")
    text.add_argument("--tokenizer", help="tokenizer.json, vocab.txt or a directory (default: the model's)")
    return p.parse_args(argv)


# ----------------------------------------------------------------------------- the weights


@contextmanager
def recorded_attention(model: torch.nn.Module, layer: int):
    """Inside `with`, each forward stores block `layer`'s weights (B, H, T, T) in the yielded dict["weights"]."""
    blocks = model.transformer.blocks
    if not -len(blocks) <= layer < len(blocks):
        raise ValueError(f"--layer {layer} is out of range: the model has {len(blocks)} blocks (0..{len(blocks) - 1})")
    attn = blocks[layer].attn
    if model.transformer.has_cache:
        raise ValueError("the model has a KV cache set up; call clear_cache() before drawing attention")
    record: dict[str, torch.Tensor] = {}

    def hook(module, args, kwargs, output):
        with torch.no_grad():
            out, weights = module.forward_with_weights(args[0], mask=kwargs.get("mask"),
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
    return load_any_model(source, ("vit", *TEXT_FAMILIES))


# ----------------------------------------------------------------------------- ViT


@torch.no_grad()
def image_attention(model, pixels: torch.Tensor, layer: int) -> tuple[torch.Tensor, torch.Tensor]:
    """pixels (1, C, H, W) -> (weights (H, N, N) of block `layer`, logits (num_classes,))."""
    with recorded_attention(model, layer) as record:
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
    with recorded_attention(model, layer) as record:
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
    for h, row in enumerate(weights[:, query]):
        top = row.topk(min(3, len(tokens)))
        print(f"  head {h}: " + ", ".join(f"{tokens[i]!r} {v:.2f}" for v, i in zip(top.values.tolist(),
                                                                                 top.indices.tolist())))
    return {"paths": [path], "weights": weights, "tokens": tokens, "query": query, "layer": layer}


def main(argv=None) -> dict:
    args = parse_args(argv)
    model = load_model(args.model)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if model.config.family == "vit":
        return vit_main(args, model, out)
    return text_main(args, model, out)


if __name__ == "__main__":
    sys.exit(run(main))
