"""data.collate: padding, BERT 80/10/10 masking statistics, classification batches."""
from __future__ import annotations

import random

import pytest
import torch

from data.collate import IGNORE_INDEX, ClassificationCollator, MLMCollator, pad_sequences

PAD, UNK, CLS, SEP, MASK = 0, 1, 2, 3, 4
VOCAB = 50


def make_batch(rng: random.Random, n: int, max_len: int = 40) -> list[list[int]]:
    """[CLS] words [SEP] with ragged lengths, words drawn from ids 5..VOCAB-1."""
    return [[CLS] + [rng.randrange(5, VOCAB) for _ in range(rng.randrange(3, max_len))] + [SEP]
            for _ in range(n)]


def collator(**kw) -> MLMCollator:
    return MLMCollator(mask_id=MASK, vocab_size=VOCAB, pad_id=PAD, special_ids=[UNK, CLS, SEP], **kw)


def test_pad_sequences():
    ids, mask = pad_sequences([[5, 6, 7], [8]], pad_id=0)
    assert ids.tolist() == [[5, 6, 7], [8, 0, 0]]
    assert mask.tolist() == [[1, 1, 1], [1, 0, 0]]
    ids, _ = pad_sequences([[5, 6, 7]], pad_id=9, pad_to_multiple_of=8)
    assert ids.shape == (1, 8) and ids[0, 3:].tolist() == [9] * 5
    with pytest.raises(ValueError, match="sequence 1"):
        pad_sequences([[1], []], pad_id=0)
    with pytest.raises(ValueError, match="empty batch"):
        pad_sequences([], pad_id=0)


def test_mlm_80_10_10_statistics():
    rng = random.Random(0)
    coll = collator(seed=0)
    selected = masked = randomised = kept = eligible = 0
    for _ in range(150):
        originals = make_batch(rng, 64)
        out = coll(originals)
        orig, _ = pad_sequences(originals, PAD)
        sel = out["labels"] != IGNORE_INDEX
        eligible += int((orig >= 5).sum())
        selected += int(sel.sum())
        masked += int((sel & (out["input_ids"] == MASK)).sum())
        kept += int((sel & (out["input_ids"] == orig)).sum())
        randomised += int((sel & (out["input_ids"] != MASK) & (out["input_ids"] != orig)).sum())
        # Labels hold the original ids exactly where selected.
        assert torch.equal(out["labels"][sel], orig[sel])
        # Unselected positions are untouched.
        assert torch.equal(out["input_ids"][~sel], orig[~sel])
    assert selected > 30_000  # ~0.002 standard error on the ratios below
    assert abs(selected / eligible - 0.15) < 0.005
    assert abs(masked / selected - 0.80) < 0.01
    # A random draw from the 45 word ids equals the original 1/45 of the time.
    p_changed = 0.10 * (1 - 1 / 45)
    assert abs(randomised / selected - p_changed) < 0.008
    assert abs(kept / selected - (0.10 + 0.10 / 45)) < 0.008


def test_specials_and_padding_never_masked():
    rng = random.Random(1)
    coll = collator(seed=1)
    for _ in range(30):
        originals = make_batch(rng, 32)
        out = coll(originals)
        orig, attention = pad_sequences(originals, PAD)
        special = (orig < 5)
        assert torch.equal(out["input_ids"][special], orig[special])   # [CLS], [SEP], [PAD] unchanged
        assert (out["labels"][special] == IGNORE_INDEX).all()
        assert torch.equal(out["attention_mask"], attention)
        # Random replacements are never special tokens.
        changed = (out["input_ids"] != orig) & (out["input_ids"] != MASK)
        assert (out["input_ids"][changed] >= 5).all()


def test_every_batch_has_a_target():
    coll = MLMCollator(mask_id=MASK, vocab_size=VOCAB, pad_id=PAD, special_ids=[CLS, SEP], mlm_probability=0.01)
    for _ in range(50):
        out = coll([[CLS, 7, SEP]])
        assert int((out["labels"] != IGNORE_INDEX).sum()) >= 1
        assert out["labels"][0, 1] == 7


def test_seeded_and_resumable():
    batch = make_batch(random.Random(2), 8)
    a, b, c = collator(seed=5), collator(seed=5), collator(seed=6)
    first = a(batch)
    assert torch.equal(first["input_ids"], b(batch)["input_ids"])
    assert not torch.equal(first["input_ids"], c(batch)["input_ids"])
    state = a.state_dict()
    expected = a(batch)
    b.load_state_dict(state)
    assert torch.equal(b(batch)["labels"], expected["labels"])


def test_mlm_from_tokenizer_and_inputs():
    class Tok:
        mask_id, pad_id, vocab_size, special_ids = MASK, PAD, VOCAB, {CLS, SEP, UNK}

    coll = MLMCollator(Tok(), seed=0)
    assert coll.special_ids == [PAD, UNK, CLS, SEP, MASK]
    out = coll([torch.tensor([CLS, 9, 9, SEP]), {"input_ids": [CLS, 8, SEP]}])
    assert out["input_ids"].shape == (2, 4) and out["input_ids"].dtype == torch.long
    with pytest.raises(ValueError, match="mask_id"):
        MLMCollator(vocab_size=VOCAB, pad_id=PAD)
    with pytest.raises(ValueError, match="outside the vocabulary"):
        coll([[CLS, VOCAB + 3, SEP]])


def test_classification_collator():
    coll = ClassificationCollator(pad_id=PAD, max_length=4, sep_id=SEP)
    out = coll([([CLS, 5, 6, 7, 8, SEP], 2), ([CLS, 9, SEP], 0), ({"input_ids": [CLS, 5], "label": 1})])
    assert out["input_ids"].tolist() == [[CLS, 5, 6, SEP], [CLS, 9, SEP, PAD], [CLS, 5, PAD, PAD]]
    assert out["attention_mask"].tolist() == [[1, 1, 1, 1], [1, 1, 1, 0], [1, 1, 0, 0]]
    assert out["labels"].tolist() == [2, 0, 1] and out["labels"].dtype == torch.long
    plain = ClassificationCollator(pad_id=PAD, max_length=3)(([[5, 6, 7, 8], 1],))
    assert plain["input_ids"].tolist() == [[5, 6, 7]]
