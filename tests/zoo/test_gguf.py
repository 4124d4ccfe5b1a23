"""zoo.from_gguf against the gguf package's own dequantization and transformers' GGUF loading.

The files are written here, as llama.cpp's converter writes them, from a random tiny transformers Llama: q and k
permuted to the interleaved rotary layout, weights quantised by the gguf package (Q8_0, Q4_0, Q4_1), or, for the
K-quants, which it only reads, blocks of random bits with sane float16 scales.
"""
from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
import torch

import zoo
from backbones.quantized import QuantizedEmbedding, QuantizedLinear
from zoo.convert.common import UnsupportedConfigError
from zoo.io import CorruptCheckpointError

gguf = pytest.importorskip("gguf")
transformers = pytest.importorskip("transformers")
T = gguf.GGMLQuantizationType

BYTES = [chr(c) for c in range(33, 127)]  # a tiny gpt2-type vocabulary: printable bytes, then the specials
SPECIALS = ["<|endoftext|>", "<|im_start|>"]
CHAT_TEMPLATE = "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}{% endfor %}"
HF_NAMES = {"model.embed_tokens.weight": "token_embd.weight", "model.norm.weight": "output_norm.weight",
            "lm_head.weight": "output.weight"}
HF_BLOCK = {"input_layernorm": "attn_norm", "post_attention_layernorm": "ffn_norm", "self_attn.q_proj": "attn_q",
            "self_attn.k_proj": "attn_k", "self_attn.v_proj": "attn_v", "self_attn.o_proj": "attn_output",
            "mlp.gate_proj": "ffn_gate", "mlp.up_proj": "ffn_up", "mlp.down_proj": "ffn_down"}


def hf_llama(tie: bool = False, seed: int = 0):
    torch.manual_seed(seed)
    config = transformers.LlamaConfig(vocab_size=len(BYTES) + len(SPECIALS), hidden_size=256, intermediate_size=512,
                                      num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                                      max_position_embeddings=64, rms_norm_eps=1e-5, rope_theta=10000.0,
                                      tie_word_embeddings=tie)
    model = transformers.LlamaForCausalLM(config).eval()
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(std=0.2) if p.dim() == 2 else p.uniform_(0.5, 1.5)
    return model


def gguf_name(hf_name: str) -> str:
    if hf_name in HF_NAMES:
        return HF_NAMES[hf_name]
    block, rest = re.fullmatch(r"model\.layers\.(\d+)\.(.+)\.weight", hf_name).groups()
    return f"blk.{block}.{HF_BLOCK[rest]}.weight"


def permute(w: np.ndarray, heads: int) -> np.ndarray:
    """llama.cpp's convert_hf_to_gguf permutation of q / k rows (rotate-half -> interleaved pairs)."""
    return w.reshape(heads, 2, w.shape[0] // heads // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def k_quant_blocks(rows: int, cols: int, kind, seed: int) -> np.ndarray:
    """Random Q4_K / Q6_K data (blocks of 256 inputs: the model is 256 wide) with finite float16 scales: the gguf
    package dequantizes them, but cannot write them."""
    block, size = gguf.GGML_QUANT_SIZES[kind]
    rng = np.random.default_rng(seed)
    data = rng.integers(0, 256, (rows, cols // block, size), dtype=np.uint8)
    scales = rng.uniform(0.001, 0.01, (rows, cols // block)).astype(np.float16).view(np.uint8).reshape(rows, -1, 2)
    if kind == T.Q4_K:  # d and dmin lead each block
        data[..., 0:2], data[..., 2:4] = scales, scales
    else:  # Q6_K: d ends each block
        data[..., -2:] = scales
    return data.reshape(rows, -1)


def write_gguf(path, hf, types=None, arch: str = "llama", tokenizer: bool = True, extra=None) -> None:
    """hf's weights as llama.cpp writes them; types maps a GGUF-name regex to a tensor type (default F32)."""
    c = hf.config
    writer = gguf.GGUFWriter(str(path), arch)
    writer.add_context_length(c.max_position_embeddings)
    writer.add_embedding_length(c.hidden_size)
    writer.add_block_count(c.num_hidden_layers)
    writer.add_feed_forward_length(c.intermediate_size)
    writer.add_head_count(c.num_attention_heads)
    writer.add_head_count_kv(c.num_key_value_heads)
    writer.add_rope_dimension_count(c.hidden_size // c.num_attention_heads)
    writer.add_rope_freq_base(c.rope_theta if hasattr(c, "rope_theta") else c.rope_parameters["rope_theta"])
    writer.add_layer_norm_rms_eps(c.rms_norm_eps)
    if tokenizer:
        writer.add_tokenizer_model("gpt2")
        writer.add_token_list(BYTES + SPECIALS)
        writer.add_token_types([1] * len(BYTES) + [3] * len(SPECIALS))
        writer.add_token_merges([])
        writer.add_eos_token_id(len(BYTES))
        writer.add_bos_token_id(len(BYTES))
        writer.add_chat_template(CHAT_TEMPLATE)
    for key, value in (extra or {}).items():
        writer.add_uint32(key, value)
    for seed, (hf_name, tensor) in enumerate(hf.state_dict().items()):
        if c.tie_word_embeddings and hf_name == "lm_head.weight":
            continue
        name, w = gguf_name(hf_name), tensor.float().numpy()
        if name.endswith(("attn_q.weight", "attn_k.weight")):
            w = permute(w, c.num_attention_heads if "attn_q" in name else c.num_key_value_heads)
        kind = next((k for pattern, k in (types or {}).items() if re.search(pattern, name)), T.F32)
        if w.ndim == 1 or kind == T.F32:
            writer.add_tensor(name, np.ascontiguousarray(w))
        elif kind == T.F16:
            writer.add_tensor(name, w.astype(np.float16))
        elif kind in (T.Q4_K, T.Q6_K):
            writer.add_tensor(name, k_quant_blocks(*w.shape, kind, seed), raw_dtype=kind)
        else:
            writer.add_tensor(name, gguf.quants.quantize(w, kind), raw_dtype=kind)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def their_gguf_model(path):
    return transformers.LlamaForCausalLM.from_pretrained(path.parent, gguf_file=path.name).eval()


MIXED = {r"attn_q": T.Q8_0, r"attn_k|attn_v|ffn_gate|ffn_down": T.Q4_0, r"attn_output": T.Q4_1,
         r"ffn_up": T.Q4_K, r"output\.weight": T.Q6_K, r"token_embd": T.F16}


def test_f32_file_gives_the_source_model(tmp_path):
    hf = hf_llama()
    write_gguf(tmp_path / "m.gguf", hf)
    ours = zoo.from_gguf(tmp_path / "m.gguf")
    ids = torch.randint(0, hf.config.vocab_size, (2, 12), generator=torch.Generator().manual_seed(0))
    with torch.no_grad():
        torch.testing.assert_close(ours(ids), hf(ids).logits, atol=1e-4, rtol=0)
    assert not ours.config.tie_embeddings and ours.config.num_kv_heads == 2


Q8_0 = {r"attn|ffn|output\.weight": T.Q8_0, r"token_embd": T.Q8_0}  # llama.cpp's Q8_0 file: all but the norms
BLOCK_LINEARS = ("attn.q_proj", "attn.k_proj", "attn.v_proj", "attn.o_proj", "ffn.gate", "ffn.up", "ffn.down")
CASES = {  # types, the one kept as integers, what the warning lists, the integer layers
    "mixed": (MIXED, T.Q4_0, r"Q4_0.*Q4_1: 2.*Q4_K: 2.*Q6_K: 1.*Q8_0: 2",
              {f"transformer.blocks.{i}.{p}" for i in range(2) for p in ("attn.k_proj", "attn.v_proj", "ffn.gate",
                                                                          "ffn.down")}),
    "q8_0": (Q8_0, T.Q8_0, None,
             {f"transformer.blocks.{i}.{p}" for i in range(2) for p in BLOCK_LINEARS} | {"head.proj"}),
}


def dequantizing(listed: str | None):
    """Expect from_gguf's warning listing the dequantized types (`listed`, a pattern), or no warning (None)."""
    if listed is None:
        return warnings.catch_warnings(action="error")
    return pytest.warns(UserWarning, match=r"dequantized to float32 .zoo keeps one of Q4_0 and Q8_0 as integers, "
                        + listed)


@pytest.mark.parametrize("case", list(CASES))
def test_quantized_tensors_equal_gguf_dequantization_and_logits_transformers(tmp_path, case):
    """Each weight equals the gguf package's dequantization of what is stored (q / k rows unpermuted) bit for bit,
    Q4_0 or Q8_0 layers stay integers; the logits and greedy tokens equal transformers' model loaded from the same
    file."""
    types, native, listed, integer_layers = CASES[case]
    hf = hf_llama(tie=False)
    path = tmp_path / f"{case}.gguf"
    write_gguf(path, hf, types)
    with dequantizing(listed):
        ours = zoo.from_gguf(path, activations="float")
    c = hf.config
    stored = {t.name: t for t in gguf.GGUFReader(path).tensors}
    for name, tensor in stored.items():
        want = gguf.quants.dequantize(np.asarray(tensor.data), tensor.tensor_type).reshape(
            [int(d) for d in reversed(tensor.shape)])
        if name.endswith(("attn_q.weight", "attn_k.weight")):
            heads = c.num_attention_heads if "attn_q" in name else c.num_key_value_heads
            want = want.reshape(heads, want.shape[0] // heads // 2, 2, -1).swapaxes(1, 2).reshape(want.shape)
        module_name = zoo.convert.gguf.our_name(name, "test")[:-len(".weight")]
        module = ours.get_submodule(module_name) if "norm" not in name else None
        if isinstance(module, (QuantizedLinear, QuantizedEmbedding)):
            assert tensor.tensor_type == native and module.scheme == {T.Q4_0: "int4", T.Q8_0: "int8"}[native]
            got = module.dequantize()
        else:
            assert tensor.tensor_type != native
            got = ours.state_dict()[module_name + ".weight"]
        assert torch.equal(got, torch.from_numpy(np.array(want, dtype=np.float32))), name
    assert {n for n, m in ours.named_modules() if isinstance(m, QuantizedLinear)} == integer_layers

    theirs = their_gguf_model(path)
    ids = torch.randint(0, c.vocab_size, (2, 10), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        want = theirs(ids).logits  # up to ~700: float32 summation order over 256-512 inputs, 1e-5 of the largest
        torch.testing.assert_close(ours(ids), want, atol=1e-5 * float(want.abs().max()), rtol=0)
    want = theirs.generate(ids[:1], max_new_tokens=8, do_sample=False)
    assert torch.equal(zoo.generate(ours, ids[:1], 8), want)

    with dequantizing(listed):  # the default: int8 activations, as llama.cpp's x Q8
        fast = zoo.from_gguf(path)
    assert all(m.activations == "int8" for m in fast.modules() if isinstance(m, QuantizedLinear))
    seen = {}
    hooks = [m.register_forward_hook(lambda m, args, out: seen.__setitem__(m, (args[0], out)))
             for m in fast.modules() if isinstance(m, QuantizedLinear)]
    with torch.no_grad():
        exact, rounded = ours(ids), fast(ids)
        for layer, (x, out) in seen.items():  # each layer: its input rounded to 8 bits a row, times q * s
            step = x.abs().amax(-1, keepdim=True) / 127
            want = torch.round(x / step) * step @ layer.dequantize().t()
            torch.testing.assert_close(out, want, atol=1e-5 * float(want.abs().max()), rtol=0)
    for hook in hooks:
        hook.remove()
    # The model's output moves further: 8-bit activations through random weights of std 0.2 (zoo.quantize's int8
    # with int8 activations moves this model's logits by 8% of their norm).
    assert 0 < float((rounded - exact).norm() / exact.norm()) < 0.12


def test_tied_file_and_save_load_round_trip(tmp_path):
    """A tied Q4_0 file (no output.weight): the table stays int4 and the head reads its integers, saved once."""
    hf = hf_llama(tie=True, seed=1)
    path = tmp_path / "tied.gguf"
    write_gguf(path, hf, {r"attn|ffn|token_embd": T.Q4_0})
    ours = zoo.from_gguf(path, activations="float")  # exact: transformers' output up to summation order
    assert ours.config.tie_embeddings
    assert isinstance(ours.embed.tokens, QuantizedEmbedding) and ours.head.proj.qweight is ours.embed.tokens.qweight
    ours.save_pretrained(tmp_path / "saved")
    again = zoo.load_pretrained(tmp_path / "saved").eval()
    assert isinstance(again.get_submodule("transformer.blocks.0.attn.q_proj"), QuantizedLinear)
    ids = torch.arange(20)[None] % hf.config.vocab_size
    with torch.no_grad():
        assert torch.equal(again(ids), ours(ids))
        want = their_gguf_model(path)(ids).logits
        torch.testing.assert_close(ours(ids), want, atol=1e-5 * float(want.abs().max()), rtol=0)
    assert again.tokenizer.encode("hi<|im_start|>", add_special_tokens=False) == ours.tokenizer.encode(
        "hi<|im_start|>", add_special_tokens=False)
    assert ours.tokenizer.chat_template == again.tokenizer.chat_template == CHAT_TEMPLATE  # chat_template.jinja


def test_bad_files_are_named(tmp_path):
    hf = hf_llama()
    good = tmp_path / "good.gguf"
    write_gguf(good, hf, {r"attn_q": T.Q8_0})
    data = good.read_bytes()

    truncated = tmp_path / "truncated.gguf"
    truncated.write_bytes(data[:len(data) - 100])
    size = len(data) - 100
    with pytest.raises(CorruptCheckpointError, match=rf"truncated.gguf' \({size} bytes\).* truncated \(a tensor"):
        zoo.from_gguf(truncated)
    header_only = tmp_path / "header.gguf"
    header_only.write_bytes(data[:200])
    with pytest.raises(CorruptCheckpointError, match="header.gguf.*truncated"):
        zoo.from_gguf(header_only)
    (tmp_path / "not.gguf").write_bytes(b"PK\x03\x04 a zip file")
    with pytest.raises(CorruptCheckpointError, match=r"not a GGUF file: it starts with b'PK\\x03\\x04'"):
        zoo.from_gguf(tmp_path / "not.gguf")
    with pytest.raises(FileNotFoundError, match="missing.gguf"):
        zoo.from_gguf(tmp_path / "missing.gguf")

    write_gguf(tmp_path / "qwen.gguf", hf, arch="qwen2")
    with pytest.raises(UnsupportedConfigError, match=r"architecture 'qwen2' is not supported.*\['llama'\]"):
        zoo.from_gguf(tmp_path / "qwen.gguf")

    writer = gguf.GGUFWriter(str(tmp_path / "int.gguf"), "llama")
    for key, value in dict(context_length=64, embedding_length=8, block_count=1, feed_forward_length=16).items():
        getattr(writer, f"add_{key}")(value)
    writer.add_head_count(2)
    writer.add_vocab_size(4)
    writer.add_tensor("token_embd.weight", np.ones((4, 8), dtype=np.int8), raw_dtype=T.I8)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    with pytest.raises(UnsupportedConfigError, match="'token_embd.weight' is of type I8, which the gguf package"):
        zoo.from_gguf(tmp_path / "int.gguf")


def test_a_file_without_a_vocabulary_loads_without_a_tokenizer(tmp_path):
    hf = hf_llama()
    write_gguf(tmp_path / "bare.gguf", hf, tokenizer=False, extra={"llama.vocab_size": hf.config.vocab_size})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ours = zoo.from_gguf(tmp_path / "bare.gguf")
    assert ours.tokenizer is None and ours.config.vocab_size == hf.config.vocab_size
