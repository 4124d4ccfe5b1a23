"""The 2017 Transformer family (zoo.marian) against transformers' MarianMTModel on random weights: the encoder
output and the decoder logits (tied and untied heads, one or two word matrices, scaled embeddings or not,
a non-zero final_logits_bias), zoo.generate's greedy and beam-4 tokens on a padded batch, cached decoding
against recompute, packing and the fixed-shape (compile=True) steps, save/load, and bad input."""
import copy

import pytest
import torch

import zoo
from tests.helpers import eager_compiled_steps
from zoo.convert.hf_marian import to_transformers
from zoo.marian import shift_right

transformers = pytest.importorskip("transformers")

PAD = 96


def hf_marian(seed: int = 0, std: float = 0.3, **overrides) -> torch.nn.Module:
    """A tiny random MarianMTModel with weights large enough that the output depends on the source."""
    torch.manual_seed(seed)
    config = dict(vocab_size=PAD + 1, d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4,
                  decoder_attention_heads=4, encoder_ffn_dim=64, decoder_ffn_dim=48, max_position_embeddings=64,
                  pad_token_id=PAD, eos_token_id=0, decoder_start_token_id=PAD, scale_embedding=True,
                  activation_function="swish", dropout=0.1)
    hf = transformers.MarianMTModel(transformers.MarianConfig(**{**config, **overrides})).eval()
    with torch.no_grad():
        for name, p in hf.named_parameters():
            if p.dim() == 2 and "embed_positions" not in name:
                p.normal_(std=std)
        hf.final_logits_bias.normal_(std=0.5)
        hf.final_logits_bias[0, 0] += 2.5  # EOS likely enough that beams finish at different lengths
    return hf


def padded_source(rows: int = 3, length: int = 9, seed: int = 1, high: int = 90) -> tuple[torch.Tensor, torch.Tensor]:
    generator = torch.Generator().manual_seed(seed)
    source = torch.randint(1, high, (rows, length), generator=generator)
    mask = torch.ones_like(source)
    mask[1, 6:] = 0
    mask[2, 3:] = 0
    return source.masked_fill(mask == 0, PAD), mask


@pytest.mark.parametrize("shared, tied, scaled", [(True, True, True), (True, False, False), (False, True, True),
                                                  (False, False, True)])
def test_logits_equal_transformers(shared, tied, scaled):
    extra = {} if shared else dict(decoder_vocab_size=80, pad_token_id=79, decoder_start_token_id=79)
    hf = hf_marian(share_encoder_decoder_embeddings=shared, tie_word_embeddings=tied, scale_embedding=scaled,
                   **extra)
    ours = zoo.from_hf(hf)
    assert ours.config.tie_embeddings == tied and ours.config.scale_embedding == scaled
    source, mask = padded_source(high=78)
    target = torch.randint(1, 78, (3, 7), generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        want = hf(input_ids=source, attention_mask=mask, decoder_input_ids=target)
        memory = hf.get_encoder()(input_ids=source, attention_mask=mask).last_hidden_state
        real = mask.bool()
        torch.testing.assert_close(ours.encode(source, mask)[real], memory[real], atol=1e-4, rtol=0)
        torch.testing.assert_close(ours(source, mask, target), want.logits, atol=1e-4, rtol=0)
        back = to_transformers(ours)
        assert torch.equal(back(input_ids=source, attention_mask=mask, decoder_input_ids=target).logits,
                           want.logits)


def test_directory_round_trip_and_save_pretrained(tmp_path):
    hf = hf_marian()
    hf.save_pretrained(tmp_path / "hf")
    ours = zoo.from_hf(tmp_path / "hf")
    ours.save_pretrained(tmp_path / "zoo")
    again = zoo.load_pretrained(tmp_path / "zoo").eval()
    source, mask = padded_source()
    target = shift_right(torch.randint(1, 90, (3, 5)), PAD)
    with torch.no_grad():
        torch.testing.assert_close(again(source, mask, target), hf(input_ids=source, attention_mask=mask,
                                                                   decoder_input_ids=target).logits, atol=1e-4, rtol=0)
    assert torch.equal(again.final_logits_bias, hf.final_logits_bias[0])


@pytest.mark.parametrize("beams", [1, 4])
def test_generate_equals_transformers_on_a_padded_batch(beams):
    hf = hf_marian()
    ours = zoo.from_hf(hf)
    source, mask = padded_source()
    want = hf.generate(input_ids=source, attention_mask=mask, max_new_tokens=12, num_beams=beams, do_sample=False,
                       bad_words_ids=[[PAD]], length_penalty=0.6, early_stopping=False)
    got = zoo.generate(ours, source, 12, attention_mask=mask, num_beams=beams, length_penalty=0.6)
    assert got[:, 0].eq(PAD).all()  # the decoder start, as transformers returns it
    assert torch.equal(got, want)
    assert not got[:, 1:][got[:, 1:] != PAD].eq(PAD).any()


def test_beam_search_drops_the_sources_that_are_done(monkeypatch):
    """A source whose best hypotheses no running beam can beat leaves the search (its rows, cross-attention keys and
    source mask with it), as CTranslate2 drops finished batch entries: the session decodes fewer rows, and every
    translation is still transformers' (which keeps decoding the finished sources, and ignores them)."""
    hf = hf_marian(seed=5)
    ours = zoo.from_hf(hf)
    generator = torch.Generator().manual_seed(7)
    source = torch.randint(1, 90, (6, 9), generator=generator)
    mask = torch.ones_like(source)
    for row, length in enumerate((9, 2, 7, 3, 5, 1)):
        mask[row, length:] = 0
    source = source.masked_fill(mask == 0, PAD)
    rows = []
    decode = ours.decode
    monkeypatch.setattr(ours, "decode", lambda ids, *a, **kw: rows.append(ids.shape[0]) or decode(ids, *a, **kw))
    got = zoo.generate(ours, source, 24, attention_mask=mask, num_beams=4, length_penalty=0.6)
    want = hf.generate(input_ids=source, attention_mask=mask, max_new_tokens=24, num_beams=4, do_sample=False,
                       bad_words_ids=[[PAD]], length_penalty=0.6, early_stopping=False)
    assert torch.equal(got, want)
    assert rows[0] == 24 and min(rows) < 24 and rows == sorted(rows, reverse=True)  # fewer rows as sources finish


def test_no_repeat_ngram_and_forced_eos_equal_transformers():
    hf = hf_marian(seed=3)
    ours = zoo.from_hf(hf)
    source, mask = padded_source()
    for beams in (1, 3):
        want = hf.generate(input_ids=source, attention_mask=mask, max_new_tokens=8, num_beams=beams, do_sample=False,
                           bad_words_ids=[[PAD], [5, 7]], no_repeat_ngram_size=2, forced_eos_token_id=0)
        got = zoo.generate(ours, source, 8, attention_mask=mask, num_beams=beams, no_repeat_ngram_size=2,
                           bad_words_ids=((PAD,), (5, 7)))  # forced_eos_id: the model's default
        assert torch.equal(got, want)


def test_cached_decoding_equals_recompute():
    """The logits of one-token steps on the session's caches (self- and cross-attention) equal the full
    teacher-forced forward's on the tokens generated, the padded source rows included."""
    from zoo.generation import Session

    ours = zoo.from_hf(hf_marian())
    source, mask = padded_source()
    tokens = zoo.generate(ours, source, 10, attention_mask=mask)
    with torch.no_grad():
        full = ours(source, mask, tokens)  # (B, 11, V)
        session = Session(ours.bind_source(source, mask), tokens[:, :1], tokens.shape[1])
        steps = [session.feed(tokens[:, i:i + 1])[:, -1] for i in range(tokens.shape[1])]
    torch.testing.assert_close(torch.stack(steps, 1), full, atol=1e-5, rtol=0)


def test_sampling_never_gives_pad_and_follows_the_seed():
    ours = zoo.from_hf(hf_marian(std=0.05))
    source, mask = padded_source()
    run = lambda: zoo.generate(ours, source, 16, attention_mask=mask, do_sample=True,  # noqa: E731
                               generator=torch.Generator().manual_seed(0))
    first = run()
    assert torch.equal(first, run())
    body = first[:, 1:]
    assert not body[torch.cumsum(body == 0, 1) == 0].eq(PAD).any()  # pad only after EOS


def test_packed_and_fixed_shape_steps_give_the_same_tokens(monkeypatch):
    ours = zoo.from_hf(hf_marian())
    source, mask = padded_source()
    want = zoo.generate(ours, source, 12, attention_mask=mask)
    packed = zoo.pack_for_inference(copy.deepcopy(ours))
    assert torch.equal(zoo.generate(packed, source, 12, attention_mask=mask), want)
    assert torch.equal(zoo.generate(packed, source, 12, attention_mask=mask, num_beams=4),
                       zoo.generate(ours, source, 12, attention_mask=mask, num_beams=4))
    calls = eager_compiled_steps(monkeypatch)
    assert torch.equal(zoo.generate(ours, source, 12, attention_mask=mask, compile=True), want)
    assert calls and all(isinstance(p, torch.Tensor) for p in calls)
    calls.clear()
    assert torch.equal(zoo.generate(ours, source, 12, attention_mask=mask, num_beams=4, compile=True),
                       zoo.generate(ours, source, 12, attention_mask=mask, num_beams=4))
    assert calls


def test_generate_decodes_a_training_model_without_dropout():
    """A model in training mode (as load_pretrained returns it) is encoded and decoded in eval mode, then left
    in training mode: its translations are the eval model's, whatever the strategy."""
    ours = zoo.from_hf(hf_marian(dropout=0.3))
    source, mask = padded_source()
    want = {beams: zoo.generate(ours.eval(), source, 12, attention_mask=mask, num_beams=beams) for beams in (1, 4)}
    ours.train()
    with torch.no_grad():
        assert not torch.equal(ours.encode(source, mask), ours.encode(source, mask))  # dropout is really on
    for beams in (1, 4):
        assert torch.equal(zoo.generate(ours, source, 12, attention_mask=mask, num_beams=beams), want[beams])
        assert ours.training and all(m.training for m in ours.modules())


@pytest.mark.slow
def test_compiled_steps_give_the_eager_tokens():
    """generate(compile=True) really compiled: the padded batch's greedy tokens, packed or not, int8 too, and
    beam search's (its reorders between compiled steps)."""
    ours = zoo.from_hf(hf_marian())
    source, mask = padded_source()
    want = zoo.generate(ours, source, 12, attention_mask=mask)
    assert torch.equal(zoo.generate(ours, source, 12, attention_mask=mask, compile=True), want)
    packed = zoo.pack_for_inference(copy.deepcopy(ours))
    assert torch.equal(zoo.generate(packed, source, 12, attention_mask=mask, compile=True), want)
    quantized = zoo.quantize(copy.deepcopy(ours), "int8")
    assert torch.equal(zoo.generate(quantized, source, 12, attention_mask=mask, compile=True),
                       zoo.generate(quantized, source, 12, attention_mask=mask))
    beams = zoo.generate(packed, source, 12, attention_mask=mask, num_beams=4)
    assert torch.equal(zoo.generate(packed, source, 12, attention_mask=mask, num_beams=4, compile=True), beams)


@pytest.mark.slow
def test_one_compiled_graph_serves_every_source_length():
    """Sources of 10 lengths (more than torch.compile keeps graphs for), batches of one and of three padded ones,
    beams too: compile=True gives the eager tokens every time, and one graph a batch size serves them all (the
    source length is a dynamic size; each length compiling anew used to fail at the ninth)."""
    from torch._dynamo.utils import counters

    torch._dynamo.reset()
    counters.clear()
    packed = zoo.pack_for_inference(zoo.from_hf(hf_marian()))
    for length in range(2, 12):
        source = torch.randint(1, 90, (3, length), generator=torch.Generator().manual_seed(length))
        mask = (torch.arange(length) < torch.tensor([[length], [length - 1], [1]])).long()  # right padding
        source = source.masked_fill(mask == 0, PAD)
        for rows, beams in ((1, 1), (3, 4)):
            args = (source[:rows], 8)
            kw = dict(attention_mask=mask[:rows], num_beams=beams)
            assert torch.equal(zoo.generate(packed, *args, **kw, compile=True), zoo.generate(packed, *args, **kw))
    assert counters["stats"]["unique_graphs"] == 2  # batch 1 (one beam) and batch 3 x 4 beams


def test_presets_build_the_paper_shapes():
    for name, dim, heads, hidden in (("transformer_base", 512, 8, 2048), ("transformer_big", 1024, 16, 4096)):
        model = zoo.create_model(name, vocab_size=1000, pad_id=999, encoder_depth=1, decoder_depth=1)
        block = model.encoder.blocks[0]
        assert block.attn.num_heads == heads and block.ffn.fc1.out_features == hidden
        assert model.embed.tokens.embedding_dim == dim and block.post_norm
        assert model.decoder_embed.tokens.weight is model.embed.tokens.weight is model.head.proj.weight
    tiny = zoo.create_model("marian_tiny")
    assert tiny(**tiny.example_inputs()).shape == (2, 8, 1000)


def test_bad_input_is_named():
    ours = zoo.create_model("marian_tiny").eval()
    with pytest.raises(ValueError, match="too long.*128 positions"):
        zoo.generate(ours, torch.ones(1, 200, dtype=torch.long), 4)
    with pytest.raises(ValueError, match="empty"):
        zoo.generate(ours, torch.ones(1, 0, dtype=torch.long), 4)
    with pytest.raises(ValueError, match="max_new_tokens"):
        zoo.generate(ours, torch.ones(1, 5, dtype=torch.long), 200)
    with pytest.raises(ValueError, match="decoder_input_ids"):
        ours(torch.ones(1, 5, dtype=torch.long))


def test_a_marian_directory_brings_its_tokenizer(tmp_path):
    """from_hf of a directory with source.spm / target.spm / vocab.json carries MarianTokenizer's ids, through
    save_pretrained / load_pretrained too; a directory missing target.spm is refused naming it."""
    from data.marian_tokenizer import train_joint_vocabulary

    english = ["In the beginning God created the heaven and the earth.", "And the earth was without form."] * 40
    spanish = ["EN el principio crió Dios los cielos y la tierra.", "Y la tierra estaba desordenada."] * 40
    train_joint_vocabulary(english, spanish, tmp_path / "hf", 48)
    reference = transformers.MarianTokenizer.from_pretrained(tmp_path / "hf")
    ids = dict(pad_token_id=reference.pad_token_id, decoder_start_token_id=reference.pad_token_id,
               eos_token_id=reference.eos_token_id)
    hf_marian(vocab_size=len(reference), **ids).save_pretrained(tmp_path / "hf")
    ours = zoo.from_hf(tmp_path / "hf")
    ours.save_pretrained(tmp_path / "zoo")
    for model in (ours, zoo.load_pretrained(tmp_path / "zoo")):
        assert model.tokenizer.encode(["And the earth."]) == [reference("And the earth.").input_ids]
    (tmp_path / "hf" / "target.spm").unlink()
    with pytest.raises(FileNotFoundError, match="no target.spm"):
        zoo.from_hf(tmp_path / "hf")
