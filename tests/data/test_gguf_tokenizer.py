"""data.gguf_tokenizer: the same ids, specials and decoding as transformers reading the same GGUF file.

Each case trains a small tokenizer, writes its vocabulary into a real GGUF file (gguf.GGUFWriter),
and compares ours, built from the metadata, with `AutoTokenizer.from_pretrained(dir, gguf_file=...)`.
"""
from __future__ import annotations

import json

import numpy as np
import pytest
import tokenizers
from tokenizers import pre_tokenizers, trainers

from data.gguf_tokenizer import CONTROL, USER_DEFINED, tokenizer_from_gguf
from data.text import KJV_EXTRACT

transformers = pytest.importorskip("transformers")
gguf = pytest.importorskip("gguf")
spm = pytest.importorskip("sentencepiece")

NORMAL, BYTE = 1, 6  # llama.cpp token types
CHAT_TEMPLATE = "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
TEXTS = [
    "In the beginning God created the heaven and the earth.",
    "  two leading spaces, trailing ones   ",
    "line one\nline two\n\n\ttabbed\r\nwindows",
    "naïve café, Ærø, 東京, Привет мир",
    "emoji 🙂👍🏽 and 🤖!",
    "digits 1611 3.14159 1234567890 and it's, they're, I'VE",
    "<|im_start|>user\nHello<|im_end|>\n<|im_start|>assistant\n",
    "inside<|im_end|>text <think>hmm</think> done",
    "<s>bos-looking</s> and <unk> and <|endoftext|>",
    "",
]


@pytest.fixture(scope="module")
def lines() -> list[str]:
    return KJV_EXTRACT.read_text().splitlines()[:400]


def write_gguf(path, metadata: dict) -> None:
    """A GGUF file holding `metadata`, the llama.* keys transformers parses a config from,
    and one tiny tensor."""
    writer = gguf.GGUFWriter(str(path), "llama")
    for key, value in {"llama.context_length": 64, "llama.embedding_length": 8, "llama.block_count": 1,
                       "llama.feed_forward_length": 16, "llama.attention.head_count": 2,
                       "llama.vocab_size": len(metadata["tokenizer.ggml.tokens"])}.items():
        writer.add_uint32(key, value)
    for key, value in metadata.items():
        if isinstance(value, bool):
            writer.add_bool(key, value)
        elif isinstance(value, int):
            writer.add_uint32(key, value)
        elif isinstance(value, str):
            writer.add_string(key, value)
        else:
            writer.add_array(key, value)
    writer.add_tensor("token_embd.weight", np.zeros((4, 8), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def gpt2_metadata(lines: list[str]) -> dict:
    """Byte-level BPE trained here, written the way llama.cpp writes a "gpt2" vocabulary."""
    specials = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
    backend = tokenizers.Tokenizer(tokenizers.models.BPE())
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    backend.train_from_iterator(lines, trainers.BpeTrainer(
        vocab_size=700, special_tokens=specials, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False))
    model = json.loads(backend.to_str())["model"]
    tokens = sorted(model["vocab"], key=model["vocab"].get)
    types = [CONTROL if t in specials else NORMAL for t in tokens]
    # A user-defined token, and a control token stored as plain text (not in the byte
    # alphabet), which llama.cpp files sometimes have.
    tokens += ["<think>", "<|tool 🙂|>"]
    types += [USER_DEFINED, CONTROL]
    return {"tokenizer.ggml.model": "gpt2", "tokenizer.ggml.tokens": tokens, "tokenizer.ggml.token_type": types,
            "tokenizer.ggml.merges": [" ".join(m) for m in model["merges"]],
            "tokenizer.ggml.bos_token_id": 0, "tokenizer.ggml.eos_token_id": 2,
            "tokenizer.ggml.padding_token_id": 0, "tokenizer.chat_template": CHAT_TEMPLATE}


def llama_metadata(lines: list[str], directory) -> dict:
    """A SentencePiece BPE model with byte fallback, written as llama.cpp writes a "llama" vocabulary."""
    from sentencepiece import sentencepiece_model_pb2

    prefix = directory / "sp"
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines), model_prefix=str(prefix), vocab_size=600, model_type="bpe",
        byte_fallback=True, user_defined_symbols=["<think>", "</think>"],
        control_symbols=["<|im_start|>", "<|im_end|>"], minloglevel=2)
    proto = sentencepiece_model_pb2.ModelProto()
    proto.ParseFromString(prefix.with_suffix(".model").read_bytes())
    pieces = list(proto.pieces)
    assert sum(p.type == BYTE for p in pieces) == 256
    return {"tokenizer.ggml.model": "llama", "tokenizer.ggml.tokens": [p.piece for p in pieces],
            "tokenizer.ggml.scores": [p.score for p in pieces],
            "tokenizer.ggml.token_type": [int(p.type) for p in pieces],
            "tokenizer.ggml.bos_token_id": 1, "tokenizer.ggml.eos_token_id": 2,
            "tokenizer.ggml.unknown_token_id": 0}


def assert_same_as_transformers(metadata: dict, directory) -> None:
    write_gguf(directory / "model.gguf", metadata)
    reference = transformers.AutoTokenizer.from_pretrained(str(directory), gguf_file="model.gguf")
    ours = tokenizer_from_gguf(metadata)
    assert ours.vocab_size == len(reference)
    # The same pipeline: vocabulary, merges in order, pre-tokenizer, decoder, BOS/EOS template.
    ours_json, reference_json = json.loads(ours.backend.to_str()), json.loads(reference.backend_tokenizer.to_str())
    for part in ("model", "normalizer", "pre_tokenizer", "decoder", "post_processor"):
        assert ours_json[part] == reference_json[part], part
    assert ours.chat_template == reference.chat_template == metadata.get("tokenizer.chat_template")
    for role in ("bos", "eos", "unk", "pad"):
        assert getattr(ours, f"{role}_id") == getattr(reference, f"{role}_token_id"), role

    def added(backend):
        return {i: (t.content, t.special) for i, t in backend.get_added_tokens_decoder().items()}
    assert added(ours.backend) == added(reference.backend_tokenizer)
    for text in TEXTS:
        ids = ours.encode(text)
        assert ids == reference.encode(text), text
        assert ours.encode(text, add_special_tokens=False) == reference.encode(text, add_special_tokens=False)
        assert ours.encode(text, "a pair") == reference.encode(text, "a pair"), text
        for skip in (True, False):
            assert ours.decode(ids, skip_special_tokens=skip) == reference.decode(ids, skip_special_tokens=skip)
        # Lossless (byte-level, or byte fallback), except that "llama" loses one leading space, in
        # transformers too: Metaspace adds no "▁" before a space, and decoding strips one.
        expected = text[1:] if metadata["tokenizer.ggml.model"] == "llama" and text.startswith(" ") else text
        assert ours.decode(ours.encode(text, add_special_tokens=False), skip_special_tokens=False) == expected


@pytest.mark.parametrize("pre, add_bos", [("smollm", None), ("llama-bpe", True), ("qwen2", False), ("gpt-4o", None)])
def test_gpt2_matches_transformers(lines, tmp_path, pre, add_bos):
    metadata = gpt2_metadata(lines) | {"tokenizer.ggml.pre": pre}
    if add_bos is not None:
        metadata["tokenizer.ggml.add_bos_token"] = add_bos
    assert_same_as_transformers(metadata, tmp_path)
    ours = tokenizer_from_gguf(metadata)
    assert (ours.encode("amen")[0] == ours.bos_id) is bool(add_bos)
    assert len(ours.encode(" the")) == 1 + bool(add_bos)  # the file's merges are used
    assert ours.token_to_id("<|tool 🙂|>") is None  # the plain-text control token is not added


@pytest.mark.parametrize("flags", [{}, {"tokenizer.ggml.add_bos_token": False, "tokenizer.ggml.add_eos_token": True}])
def test_llama_matches_transformers(lines, tmp_path, flags):
    metadata = llama_metadata(lines, tmp_path) | flags
    assert_same_as_transformers(metadata, tmp_path)
    ours = tokenizer_from_gguf(metadata)
    ids = ours.encode("light 🙂")
    assert (ids[0] == ours.bos_id) is ("tokenizer.ggml.add_bos_token" not in flags)  # BOS by default
    assert (ids[-1] == ours.eos_id) is bool(flags)
    assert ours.id_to_token(ids[-1 - bool(flags)]) == "<0x82>"  # the emoji's last byte, by byte fallback
    assert ours.encode("<think>", add_special_tokens=False) == [ours.token_to_id("<think>")]


def test_llama_merges_from_tied_scores(lines, tmp_path):
    # Coarse scores tie many merges, so the tie-breaks must follow transformers' as well.
    metadata = llama_metadata(lines, tmp_path)
    metadata["tokenizer.ggml.scores"] = [s // 100 for s in metadata["tokenizer.ggml.scores"]]
    assert_same_as_transformers(metadata, tmp_path)


def test_llama_matches_sentencepiece_on_plain_text(lines, tmp_path):
    metadata = llama_metadata(lines, tmp_path)
    sp = spm.SentencePieceProcessor(model_file=str(tmp_path / "sp.model"))
    ours = tokenizer_from_gguf(metadata)
    for text in lines[-50:] + ["naïve café 1611 🙂"]:
        assert ours.encode(text, add_special_tokens=False) == sp.encode(text), text


def test_unsupported_model_architecture_and_missing_keys():
    with pytest.raises(ValueError, match=r"'bert'.*'gpt2', 'llama'"):
        tokenizer_from_gguf({"tokenizer.ggml.model": "bert", "tokenizer.ggml.tokens": ["a"]})
    with pytest.raises(ValueError, match="'gemma2'"):
        tokenizer_from_gguf({"tokenizer.ggml.model": "llama", "general.architecture": "gemma2"})
    with pytest.raises(ValueError, match="tokenizer.ggml.tokens"):
        tokenizer_from_gguf({"tokenizer.ggml.model": "gpt2"})
    with pytest.raises(ValueError, match="tokenizer.ggml.scores"):
        tokenizer_from_gguf({"tokenizer.ggml.model": "llama", "tokenizer.ggml.tokens": ["a"]})
