"""Cached decoding equals full recompute: token by token, chunked prefill, left-padded batches."""
import pytest
import torch

import zoo

DECODERS = ["gpt_tiny", "llama_tiny"]


def model_and_ids(name, b=2, t=12):
    torch.manual_seed(0)
    model = zoo.create_model(name).eval()
    return model, torch.randint(0, model.vocab_size, (b, t))


@pytest.mark.parametrize("name", DECODERS)
@pytest.mark.parametrize("chunks", [[5, 1, 1, 1, 1, 1, 1, 1], [4, 4, 4], [1] * 12, [12]])
def test_cached_equals_full_recompute(name, chunks):
    model, ids = model_and_ids(name)
    with torch.no_grad():
        full = model(ids)
        model.setup_cache(batch_size=2, max_len=16)
        pieces, pos = [], 0
        for n in chunks:
            pieces.append(model(ids[:, pos:pos + n], input_pos=pos))
            pos += n
        model.clear_cache()
    torch.testing.assert_close(torch.cat(pieces, dim=1), full, atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize("name", DECODERS)
def test_left_padded_batch_equals_each_prompt_alone(name):
    model, ids = model_and_ids(name, b=2, t=10)
    pad = 4  # row 0 is a 6-token prompt left-padded to 10
    mask = torch.ones_like(ids)
    mask[0, :pad] = 0
    positions = (mask.cumsum(-1) - 1).clamp(min=0)  # positions skip the padding
    with torch.no_grad():
        model.setup_cache(2, 12)
        batch = model(ids, attention_mask=mask, positions=positions, input_pos=0)
        nxt = torch.randint(0, model.vocab_size, (2, 1))
        mask2 = torch.cat([mask, torch.ones(2, 1, dtype=mask.dtype)], dim=1)
        step = model(nxt, attention_mask=mask2, positions=positions[:, -1:] + 1, input_pos=10)
        model.clear_cache()
        alone = model(torch.cat([ids[0:1, pad:], nxt[0:1]], dim=1))
    torch.testing.assert_close(batch[0, pad:], alone[0, :-1], atol=1e-5, rtol=1e-4)
    torch.testing.assert_close(step[0, 0], alone[0, -1], atol=1e-5, rtol=1e-4)


def test_cache_misuse_is_a_clear_error():
    model, ids = model_and_ids("gpt_tiny")
    model.setup_cache(2, 8)
    with pytest.raises(ValueError, match="input_pos"):
        model(ids[:, :4])
    with pytest.raises(ValueError, match="holds 8 positions"):
        model(ids[:, :9], input_pos=0)
    with pytest.raises(ValueError, match="exceeds the model's 256 positions"):
        model.setup_cache(1, 1000)


@pytest.mark.parametrize("name,dtype", [("gpt_tiny", torch.float32), ("llama_tiny", torch.bfloat16)])
def test_cache_is_allocated_once_with_the_documented_size(name, dtype):
    """2 x layers x batch x kv_heads x max_len x head_dim x bytes, and generate allocates it once per call."""
    from zoo.generation import generate

    model, _ = model_and_ids(name)
    cache = model.make_cache(batch_size=3, max_len=40, dtype=dtype)
    caches = [layer.kv for layer in cache.layers]
    attn = model.transformer.blocks[0].attn
    expected = 2 * len(caches) * 3 * attn.num_kv_heads * 40 * attn.head_dim * dtype.itemsize
    assert sum(c.k.nbytes + c.v.nbytes for c in caches) == expected
    assert len(caches) == len(model.transformer.blocks) and not model.transformer.has_cache

    setups = []
    original = model.transformer.make_cache
    model.transformer.make_cache = lambda *a, **k: setups.append(a) or original(*a, **k)
    generate(model, torch.randint(0, 100, (2, 5)), 7)
    assert setups == [(2, 12, None)]  # batch 2, prompt 5 + 7 new tokens, once


def test_cross_attention_cache_stores_each_head_as_one_block():
    """The projection's (A, Tk, Hkv, Dh) output viewed as heads is Tk short runs per head; the cache keeps a
    head-major copy so each decoding step reads a head's keys and values in one sweep (and a compiled step
    never copies them)."""
    from backbones.kv_cache import CrossKVCache

    k, v = (torch.randn(2, 30, 4, 8).transpose(1, 2) for _ in range(2))  # (A, Hkv, Tk, Dh), not contiguous
    cache = CrossKVCache()
    cache.store(k, v, session_rows=4)
    assert cache.k.is_contiguous() and cache.v.is_contiguous()
    assert torch.equal(cache.k, k) and torch.equal(cache.v, v) and cache.session_rows == 4


def test_reorder_moves_only_the_written_positions():
    """Beam search's reorder with the written length: those positions equal a whole-buffer reorder's, for the
    same batch and a different one."""
    from backbones.kv_cache import KVCache

    torch.manual_seed(0)
    for index in (torch.tensor([2, 2, 0, 1]), torch.tensor([3, 1])):
        whole, prefix = KVCache(4, 2, 10, 3), KVCache(4, 2, 10, 3)
        k, v = torch.randn(4, 2, 6, 3), torch.randn(4, 2, 6, 3)
        whole.update(0, k, v)
        prefix.update(0, k, v)
        whole.reorder(index)
        prefix.reorder(index, 6)
        assert prefix.k.shape == whole.k.shape
        assert torch.equal(prefix.k[:, :, :6], whole.k[:, :, :6]) and torch.equal(prefix.v[:, :, :6], whole.v[:, :, :6])


@pytest.mark.parametrize("name", DECODERS)
def test_rows_at_their_own_positions_equal_full_recompute(name):
    """A (B, 1) input_pos: each row writes its next token at its own cache slot and sees its slots only (a
    continuous batch, zoo.serving), through a view of the cache's first rows and positions."""
    model, ids = model_and_ids(name, b=3, t=9)
    lengths = [4, 8, 6]  # tokens each row holds before the step
    with torch.no_grad():
        cache = model.make_cache(4, 16)  # one more row than the step uses: the view leaves it alone
        for row, n in enumerate(lengths):
            model(ids[row:row + 1, :n], input_pos=0, cache=cache.view(slice(row, row + 1)))
        spare = cache.layers[0].kv.k[3].clone()
        slots = torch.tensor(lengths)[:, None]  # (B, 1)
        tokens = ids.gather(1, slots)  # (B, 1): each row's next token
        step = model(tokens, positions=slots, input_pos=slots, cache=cache.view(slice(0, 3), max(lengths) + 1))
        for row, n in enumerate(lengths):
            torch.testing.assert_close(step[row, -1], model(ids[row:row + 1, :n + 1])[0, -1], atol=1e-5, rtol=1e-4)
        assert torch.equal(cache.layers[0].kv.k[3], spare)
        cache.copy_row(1, 3, 9)
        for layer in cache.layers:
            assert torch.equal(layer.kv.k[3, :, :9], layer.kv.k[1, :, :9])
            assert torch.equal(layer.kv.v[3, :, :9], layer.kv.v[1, :, :9])


def test_cache_slots_mask_per_row():
    from backbones.masks import cache_slots_mask

    mask = cache_slots_mask(None, torch.tensor([[1], [3]]), 5)
    assert mask.shape == (2, 1, 1, 5)
    assert mask[:, 0, 0].tolist() == [[True, True, False, False, False], [True, True, True, True, False]]


def test_cross_attention_cache_follows_the_rows_that_stay():
    """3 inputs read by 2 adjacent rows each: beams moving within their input move nothing; dropping an input's
    rows selects the inputs left (their keys once each); rows that no longer fall into whole inputs get one input
    a row. An EncoderConditioned's features and source mask follow the same rule (inputs_read)."""
    from backbones.kv_cache import CrossKVCache, inputs_read
    from zoo.generation.conditioned import EncoderConditioned

    k = torch.arange(3.0)[:, None, None, None].expand(3, 2, 5, 4)  # (A, Hkv, Tk, Dh): input a holds a
    cases = [(torch.tensor([1, 1, 2, 3, 5, 4]), None, [0, 1, 2]),  # beams reorder within their inputs
             (torch.tensor([0, 1, 4, 5]), torch.tensor([0, 2]), [0, 2]),  # input 1 is done: its rows leave
             (torch.tensor([0, 2, 5]), None, [0, 1, 2]),  # one row an input, in order: still nothing moves
             (torch.tensor([0, 2, 3]), torch.tensor([0, 1, 1]), [0, 1, 1]),  # no whole inputs: one input a row
             (torch.tensor([0, 3]), torch.tensor([0, 1]), [0, 1])]
    for index, expected, held in cases:
        select = inputs_read(index, 6, 3)
        assert (select is None) == (expected is None) and (select is None or torch.equal(select, expected))
        cache = CrossKVCache()
        cache.store(k, k, session_rows=6)
        cache.reorder(index)
        assert cache.k[:, 0, 0, 0].tolist() == held and cache.session_rows == index.shape[0]
        bound = EncoderConditioned(torch.nn.Linear(1, 1), torch.arange(3.0)[:, None, None], torch.eye(3))
        bound.reorder_inputs(index, 6)
        assert bound.features[:, 0, 0].tolist() == held and bound.source_mask.argmax(1).tolist() == held
