"""data.lm_dataset: packed token files, memmap blocks, splits and error cases."""
from __future__ import annotations

import json
import pickle

import numpy as np
import pytest
import torch

from data.lm_dataset import PackedLMDataset, read_meta, sidecar_path, tokenize_to_file, train_val_split
from data.text import KJV_EXTRACT, read_documents
from data.tokenization import train_bpe


@pytest.fixture(scope="module")
def docs() -> list[str]:
    return read_documents(KJV_EXTRACT)[:12]   # the first 12 chapters of Genesis


@pytest.fixture(scope="module")
def tokenizer(docs):
    return train_bpe(docs, vocab_size=400)


@pytest.fixture()
def token_file(tmp_path, docs, tokenizer):
    path = tmp_path / "train.bin"
    tokenize_to_file(docs, tokenizer, path)
    return path


def expected_ids(docs, tokenizer) -> list[int]:
    out: list[int] = []
    for d in docs:
        out += tokenizer.encode(d, add_special_tokens=False) + [tokenizer.eos_id]
    return out


def test_file_is_documents_joined_by_eos(token_file, docs, tokenizer):
    meta = read_meta(token_file)
    ids = np.fromfile(token_file, dtype=np.uint16)
    assert ids.tolist() == expected_ids(docs, tokenizer)
    assert meta["dtype"] == "uint16" and meta["count"] == len(ids)
    assert meta["vocab_size"] == 400 and meta["eos_id"] == tokenizer.eos_id and meta["num_documents"] == 12
    assert json.loads(sidecar_path(token_file).read_text()) == meta


def test_from_path_reads_blank_separated_documents(tmp_path, docs, tokenizer):
    src = tmp_path / "corpus.txt"
    src.write_text("\n\n".join(docs[:3]))
    tokenize_to_file(src, tokenizer, tmp_path / "a.bin")
    tokenize_to_file(docs[:3], tokenizer, tmp_path / "b.bin")
    assert (tmp_path / "a.bin").read_bytes() == (tmp_path / "b.bin").read_bytes()


def test_blocks_are_shifted_pairs(token_file, docs, tokenizer):
    ids = torch.tensor(expected_ids(docs, tokenizer))
    T = 32
    ds = PackedLMDataset(token_file, block_size=T)
    assert len(ds) == (len(ids) - 1) // T
    for i in (0, 1, len(ds) - 1):
        item = ds[i]
        assert item["input_ids"].dtype == torch.long and item["input_ids"].shape == (T,)
        assert torch.equal(item["input_ids"], ids[i * T: i * T + T])
        assert torch.equal(item["labels"], ids[i * T + 1: i * T + T + 1])
    assert torch.equal(ds[-1]["input_ids"], ds[len(ds) - 1]["input_ids"])
    with pytest.raises(IndexError):
        ds[len(ds)]


def test_memmap_is_not_copied_into_pickles(token_file):
    ds = PackedLMDataset(token_file, block_size=16)
    first = ds[3]
    assert isinstance(ds.tokens, np.memmap)
    blob = pickle.dumps(ds)
    assert len(blob) < 2000 < token_file.stat().st_size  # a DataLoader worker re-opens the file
    clone = pickle.loads(blob)
    assert torch.equal(clone[3]["input_ids"], first["input_ids"])


def test_start_stop_and_split(token_file):
    count = read_meta(token_file)["count"]
    ids = torch.from_numpy(np.fromfile(token_file, dtype=np.uint16).astype(np.int64))
    part = PackedLMDataset(token_file, block_size=8, start=100, stop=300)
    assert len(part) == (200 - 1) // 8
    assert torch.equal(part[0]["input_ids"], ids[100:108])
    assert int(part[len(part) - 1]["labels"][-1]) == int(ids[100 + len(part) * 8])
    train, val = train_val_split(token_file, block_size=8, val_fraction=0.1)
    assert train.start == 0 and train.stop == val.start and val.stop == count
    assert val.stop - val.start == round(count * 0.1)
    # Training blocks never read a validation token.
    assert train.start + len(train) * 8 + 1 <= val.start


def test_large_vocab_uses_uint32(tmp_path):
    class BigTokenizer:  # the duck-typed interface tokenize_to_file needs
        vocab_size, eos_id = 70_000, 69_999

        def encode_batch(self, texts, add_special_tokens=False):
            return [[65_536 + len(t), 3] for t in texts]

    meta = tokenize_to_file(["ab", "abc"], BigTokenizer(), tmp_path / "big.bin")
    assert meta["dtype"] == "uint32"
    assert np.fromfile(tmp_path / "big.bin", dtype=np.uint32).tolist() == [65_538, 3, 69_999, 65_539, 3, 69_999]
    with pytest.raises(ValueError, match="uint16"):
        tokenize_to_file(["ab"], BigTokenizer(), tmp_path / "small.bin", dtype=np.uint16)


def test_errors(tmp_path, token_file, tokenizer):
    count = read_meta(token_file)["count"]
    with pytest.raises(ValueError, match="fewer than one block"):
        PackedLMDataset(token_file, block_size=count)   # needs count + 1 tokens
    assert len(PackedLMDataset(token_file, block_size=count - 1)) == 1
    with pytest.raises(ValueError, match="start"):
        PackedLMDataset(token_file, block_size=4, start=10, stop=5)
    with pytest.raises(FileNotFoundError, match="nothing.bin"):
        PackedLMDataset(tmp_path / "nothing.bin", block_size=4)
    sidecar_path(token_file).rename(tmp_path / "elsewhere.json")
    with pytest.raises(FileNotFoundError, match="sidecar"):
        PackedLMDataset(token_file, block_size=4)
    (tmp_path / "elsewhere.json").rename(sidecar_path(token_file))
    with open(token_file, "r+b") as f:
        f.truncate(10)
    with pytest.raises(ValueError, match="truncated"):
        PackedLMDataset(token_file, block_size=4)
