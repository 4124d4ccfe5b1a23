"""llama.cpp's GGUF files -> zoo.llama.Llama, with the tokenizer they carry: `zoo.from_gguf(path)`.

The file is read with the `gguf` package's reader (memory-mapped); a truncated download is an error naming the
file and its size. Agrees with transformers'
GGUF loading (`from_pretrained(dir, gguf_file=)`, modeling_gguf_pytorch_utils.py) on the config, the weights
and the q/k rows; tests/zoo/test_gguf.py holds us to it.

Tensor types:
- F32, F16, BF16: stored as they are read, as float32;
- Q4_0 (blocks of 32 weights, one float16 scale each, w = d * (q - 8)) and Q8_0 (w = d * q, q int8): kept as
  QuantizedLinear layers (and the table as a QuantizedEmbedding, which a tied head reads as llama.cpp's does),
  int4 or int8 with groups of 32, the very integers and scales (zoo.quantize's schemes are their arithmetic), so
  a weight costs 4.5 or 8.5 bits in memory as on disk. A model keeps one scheme: where a file mixes the two, the
  one more matrices have stays, the other is dequantized;
- every other type the `gguf` package dequantizes (Q4_1, Q4_K, Q6_K, Q5_*, ...): dequantized to float32 by its
  own code, and a warning lists them.

GGUF stores q and k the way llama.cpp's converter permuted them for its interleaved (pairwise) rotary layout;
our RotaryEmbedding, as transformers', rotates halves, so their rows go back: in each head, row 2i + j of the
file is row i + j * head_dim / 2 of ours.
"""
from __future__ import annotations

import os
import warnings
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import torch

from zoo.convert.common import UnsupportedConfigError, build_converted
from zoo.io import CorruptCheckpointError
from zoo.llama import LlamaConfig

ARCHITECTURES = ("llama",)
GROUP = 32  # Q4_0's block: the inputs per scale
PLAIN = ("F32", "F16", "BF16")  # read as they are: nothing to note
SUPPORTED = "F32, F16, BF16 and the block types (Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q2_K to Q6_K, IQ*)"

TABLE = "token_embd.weight"
_TOP = {TABLE: "embed.tokens.weight", "output_norm.weight": "transformer.norm.weight",
        "output.weight": "head.proj.weight"}
_BLOCK = {"attn_norm": "norm1", "ffn_norm": "norm2", "attn_q": "attn.q_proj", "attn_k": "attn.k_proj",
          "attn_v": "attn.v_proj", "attn_output": "attn.o_proj", "ffn_gate": "ffn.gate", "ffn_up": "ffn.up",
          "ffn_down": "ffn.down"}


def from_gguf(path: str | os.PathLike, activations: str = "int8") -> torch.nn.Module:
    """A LLaMA-family GGUF file -> our Llama in eval mode, its tokenizer as `model.tokenizer` (with the file's
    chat template; None where the file has no vocabulary). Q4_0 / Q8_0 linear weights stay integers (module
    docstring); other quantised types are dequantized, with a warning naming them. activations: what the integer
    layers multiply, "int8" (quantised per row on the fly, as llama.cpp multiplies Q4_0 and Q8_0 weights by Q8
    activations; our fast kernel) or "float" (exact: transformers' dequantized model's output up to summation
    order). Raises FileNotFoundError, CorruptCheckpointError for a file that is not GGUF or is truncated,
    UnsupportedConfigError for an architecture, tensor type or feature we do not run."""
    import gguf  # the reader and the dequantizers; an optional dependency of the zoo

    from data.gguf_tokenizer import tokenizer_from_gguf

    path = Path(path)
    reader = open_gguf(path)
    meta = metadata(reader)
    source = repr(str(path))
    config = config_from_gguf(meta, {t.name for t in reader.tensors}, source)
    state: dict[str, torch.Tensor] = {}
    native = native_type(reader)  # the block type kept as integers: Q4_0 or Q8_0, whichever more layers have
    kept: list[str] = []
    tables: list[str] = []
    dequantized: dict[str, list[str]] = defaultdict(list)
    for tensor in reader.tensors:
        name = our_name(tensor.name, source)
        kind = gguf.GGMLQuantizationType(tensor.tensor_type)
        shape = tuple(int(d) for d in reversed(tensor.shape))  # GGUF lists the fastest dimension first
        if kind.name == native and len(shape) == 2:  # a Linear's weight or the embedding table
            layer = name[:-len(".weight")]
            state[layer + ".qweight"], state[layer + ".scales"] = NATIVE[native][1](np.asarray(tensor.data), shape)
            (tables if tensor.name == TABLE else kept).append(layer)
            continue
        try:
            values = gguf.quants.dequantize(np.asarray(tensor.data), kind)
        except NotImplementedError as error:
            raise UnsupportedConfigError(f"{source}: tensor {tensor.name!r} is of type {kind.name}, which the gguf "
                                         f"package cannot dequantize; supported: {SUPPORTED}") from error
        if kind.name not in PLAIN:
            dequantized[kind.name].append(tensor.name)
        state[name] = torch.from_numpy(np.array(values, dtype=np.float32)).reshape(shape)  # a copy: off the map
    for name in list(state):  # q and k back from llama.cpp's interleaved rotary layout
        projection = name.rpartition(".")[0]
        if projection.endswith((".attn.q_proj", ".attn.k_proj")):
            heads = config.num_heads if projection.endswith("q_proj") else config.num_kv_heads
            state[name] = unpermute_rotary(state[name], heads)
    if dequantized:
        listed = "; ".join(f"{kind}: {len(names)} ({', '.join(names[:3])}{', ...' if len(names) > 3 else ''})"
                           for kind, names in sorted(dequantized.items()))
        warnings.warn(f"{source}: tensors dequantized to float32 (zoo keeps one of Q4_0 and Q8_0 as integers, "
                      f"{native or 'neither here'}): {listed}", stacklevel=2)
    if tables and config.tie_embeddings:  # llama.cpp multiplies by token_embd's integers: so does our head
        kept.append("head.proj")
    quantization = (None if not kept + tables else {"scheme": NATIVE[native][0], "group_size": GROUP,
                                                    "activations": activations, "modules": kept,
                                                    "embeddings": tables})
    model = build_converted(config, state, source, quantization)
    # A file without a vocabulary (llama.cpp writes one always; other tools may not) loads without a tokenizer.
    model.tokenizer = tokenizer_from_gguf(meta) if "tokenizer.ggml.tokens" in meta else None
    return model


def open_gguf(path: Path):
    """The file's GGUFReader; a missing file, a foreign one or a truncated one is a clear error."""
    import gguf

    if not path.is_file():
        raise FileNotFoundError(f"GGUF file {str(path)!r} not found")
    size = path.stat().st_size
    with path.open("rb") as handle:
        magic = handle.read(4)
    if magic != b"GGUF":
        raise CorruptCheckpointError(f"{str(path)!r} ({size} bytes) is not a GGUF file: it starts with {magic!r}, "
                                     "expected b'GGUF'")
    try:
        return gguf.GGUFReader(path)
    except (ValueError, IndexError, TypeError, OverflowError) as error:  # the reader shapes every tensor's bytes
        raise CorruptCheckpointError(f"cannot read GGUF file {str(path)!r} ({size} bytes): {error}. It is truncated "
                                     "(a tensor or the header runs past the end of the file) or damaged.") from error


def metadata(reader) -> dict[str, Any]:
    """The file's key/value metadata as Python values (strings, numbers, lists)."""
    return {key: field.contents() for key, field in reader.fields.items() if not key.startswith("GGUF.")}


def config_from_gguf(meta: dict[str, Any], tensors: set[str], source: str) -> LlamaConfig:
    """transformers' reading of llama.* keys: sizes, heads, RoPE base, norm epsilon, context; the head is tied
    to the embedding when the file has no output.weight."""
    arch = meta.get("general.architecture")
    if arch not in ARCHITECTURES:
        raise UnsupportedConfigError(f"{source}: GGUF architecture {arch!r} is not supported by from_gguf; "
                                     f"supported: {list(ARCHITECTURES)}")

    def get(key: str, default: Any = KeyError) -> Any:
        value = meta.get(f"{arch}.{key}", default)
        if value is KeyError:
            raise UnsupportedConfigError(f"{source}: GGUF metadata has no {arch}.{key}, which a {arch} model needs")
        return value

    dim, heads = int(get("embedding_length")), int(get("attention.head_count"))
    head_dim = int(get("attention.key_length", dim // heads))
    rotary = int(get("rope.dimension_count", head_dim))
    if rotary != head_dim:
        raise UnsupportedConfigError(f"{source}: {arch}.rope.dimension_count {rotary} rotates part of each "
                                     f"{head_dim}-wide head; from_gguf supports whole-head RoPE")
    scaling = get("rope.scaling.type", "none")
    if scaling != "none" or "rope_freqs.weight" in tensors:
        raise UnsupportedConfigError(f"{source}: the model scales RoPE ({arch}.rope.scaling.type {scaling!r}"
                                     f"{', rope_freqs.weight' if 'rope_freqs.weight' in tensors else ''}); "
                                     "supported: none")
    vocab = get("vocab_size", None)
    if vocab is None:
        vocab = len(meta.get("tokenizer.ggml.tokens") or []) or None
    if vocab is None:
        raise UnsupportedConfigError(f"{source}: GGUF metadata has neither {arch}.vocab_size nor tokenizer.ggml.tokens")
    return LlamaConfig(vocab_size=int(vocab), max_positions=int(get("context_length")), dim=dim,
                       depth=int(get("block_count")), num_heads=heads,
                       num_kv_heads=int(get("attention.head_count_kv", heads)),
                       head_dim=head_dim if head_dim != dim // heads else None,
                       mlp_hidden=int(get("feed_forward_length")), rope_base=float(get("rope.freq_base", 10000.0)),
                       norm_eps=float(get("attention.layer_norm_rms_epsilon", 1e-5)),
                       attention_bias="blk.0.attn_q.bias" in tensors, mlp_bias="blk.0.ffn_up.bias" in tensors,
                       tie_embeddings="output.weight" not in tensors)


def our_name(name: str, source: str) -> str:
    """llama.cpp's tensor name -> ours (blk.3.attn_q.weight -> transformer.blocks.3.attn.q_proj.weight)."""
    if name in _TOP:
        return _TOP[name]
    parts = name.split(".")
    if len(parts) == 4 and parts[0] == "blk" and parts[1].isdigit() and parts[2] in _BLOCK:
        return f"transformer.blocks.{parts[1]}.{_BLOCK[parts[2]]}.{parts[3]}"
    raise UnsupportedConfigError(f"{source}: tensor {name!r} is not part of a llama model as from_gguf reads it "
                                 f"(token_embd, output_norm, output, blk.N.{{{', '.join(_BLOCK)}}})")


def native_type(reader) -> str | None:
    """"Q4_0" or "Q8_0": the one more matrices of the file have (a model keeps one integer scheme), or None."""
    counts = Counter(t.tensor_type.name for t in reader.tensors if len(t.shape) == 2 and t.tensor_type.name in NATIVE)
    return max(counts, key=counts.get) if counts else None


def q8_0_as_int8(blocks: np.ndarray, shape: tuple[int, int]) -> tuple[torch.Tensor, torch.Tensor]:
    """Q8_0 data (N, K / 32 x 34 bytes: a float16 d, then 32 int8 q) -> our int8 in groups of 32 (qweight (N, K)
    int8, scales (N, K / 32) float32): the same q and d."""
    n, k = shape
    raw = np.ascontiguousarray(blocks, dtype=np.uint8).reshape(n, k // GROUP, 34)
    scales = raw[..., :2].copy().view(np.float16).astype(np.float32).reshape(n, k // GROUP)
    qweight = raw[..., 2:].copy().view(np.int8).reshape(n, k)
    return torch.from_numpy(qweight), torch.from_numpy(scales)


def q4_0_as_int4(blocks: np.ndarray, shape: tuple[int, int]) -> tuple[torch.Tensor, torch.Tensor]:
    """Q4_0 data (N, K / 32 x 18 bytes: a float16 d, then 16 bytes holding element j in the low nibble of byte j
    and element j + 16 in its high nibble) -> our int4 (qweight (N, K / 2) uint8, even inputs in the low nibble;
    scales (N, K / 32) float32): the same q - 8 and d."""
    n, k = shape
    raw = np.ascontiguousarray(blocks, dtype=np.uint8).reshape(n, k // GROUP, 18)
    scales = raw[..., :2].copy().view(np.float16).astype(np.float32).reshape(n, k // GROUP)
    packed = raw[..., 2:]  # (N, K/32, 16)
    q = np.concatenate([packed & 0x0F, packed >> 4], axis=-1).reshape(n, k)  # element order within each block
    qweight = q[:, 0::2] | (q[:, 1::2] << 4)
    return torch.from_numpy(np.ascontiguousarray(qweight)), torch.from_numpy(scales)


def unpermute_rotary(weight: torch.Tensor, heads: int) -> torch.Tensor:
    """Rows (heads x head_dim, ...) of llama.cpp's interleaved layout -> the rotate-half layout (its inverse of
    convert_hf_to_gguf's permute; transformers' _reverse_permute_weights)."""
    rows = weight.shape[0]
    return weight.reshape(heads, rows // heads // 2, 2, *weight.shape[1:]).transpose(1, 2).reshape(weight.shape)


NATIVE = {"Q4_0": ("int4", q4_0_as_int4), "Q8_0": ("int8", q8_0_as_int8)}  # block type -> our scheme, converter
