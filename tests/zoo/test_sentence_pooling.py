"""zoo.embed on tiny random BERTs in sentence-transformers directories: every pooling mode its Pooling module
defines (alone, and several concatenated), with and without Normalize, equals SentenceTransformer(dir).encode; the
pooling travels with the model through save_pretrained / load_pretrained; ids give the texts' embeddings; a model
with no encoder output (a GPT) is refused."""
import json

import pytest
import torch
import transformers

import zoo
from data.tokenization import BERT_SPECIALS, load_tokenizer
from zoo.sentence_pooling import SentencePooling, read_sentence_pooling

transformers.logging.set_verbosity_error()
WORDS = "the a cat dog sat on mat ran fast slow big small red blue and or".split()
SENTENCES = ["the cat sat on the mat", "a dog ran fast", "big red dog and small blue cat", "cat", "",
             "the the the a a mat mat ran and or big small red blue slow fast"]


def st_directory(path, modes, normalize: bool, legacy: bool = False, max_seq_length: int = 12):
    """A random BertModel, its vocab.txt and sentence-transformers' files naming `modes`."""
    torch.manual_seed(len(path.name))
    config = transformers.BertConfig(vocab_size=len(BERT_SPECIALS) + len(WORDS), hidden_size=32, num_hidden_layers=2,
                                     num_attention_heads=2, intermediate_size=64, max_position_embeddings=64)
    transformers.BertModel(config).eval().save_pretrained(path)
    (path / "vocab.txt").write_text("\n".join([*BERT_SPECIALS, *WORDS]) + "\n")
    (path / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": "BertTokenizer", "do_lower_case": True}))
    modules = [{"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
               {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"}]
    if normalize:
        modules.append({"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"})
        (path / "2_Normalize").mkdir()
    (path / "modules.json").write_text(json.dumps(modules))
    (path / "1_Pooling").mkdir()
    pooling = ({f"pooling_mode_{m}_tokens" if m not in ("cls", "lasttoken") else
                {"cls": "pooling_mode_cls_token", "lasttoken": "pooling_mode_lasttoken"}[m]: True for m in modes}
               if legacy else {"pooling_mode": list(modes)})
    (path / "1_Pooling" / "config.json").write_text(json.dumps({"word_embedding_dimension": 32, **pooling}))
    (path / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": max_seq_length}))
    return path


def reference(path) -> torch.Tensor:
    st = pytest.importorskip("sentence_transformers")
    return torch.as_tensor(st.SentenceTransformer(str(path), device="cpu").encode(SENTENCES, batch_size=4))


@pytest.mark.parametrize("modes,normalize,legacy", [
    (("mean",), False, False), (("cls",), False, False), (("max",), False, False), (("mean",), True, True),
    (("cls",), True, True), (("max",), True, True), (("mean_sqrt_len_tokens",), False, False),
    (("weightedmean",), False, False), (("lasttoken",), False, False), (("cls", "max", "mean"), True, True),
    (("mean", "cls"), False, False)])
def test_each_pooling_equals_sentence_transformers(tmp_path, modes, normalize, legacy):
    path = st_directory(tmp_path / "st", modes, normalize, legacy)
    model = zoo.from_hf(path)
    assert model.sentence_pooling.modes == modes and model.sentence_pooling.normalize == normalize
    got = zoo.embed(model, load_tokenizer(path), SENTENCES, batch_size=4)  # cut at max_seq_length 12, as encode
    want = reference(path)
    assert got.shape == want.shape == (len(SENTENCES), 32 * len(modes))
    assert (got - want).abs().max().item() <= 1e-5


def test_the_pooling_survives_save_and_load(tmp_path):
    path = st_directory(tmp_path / "st", ("cls", "max"), normalize=True, max_seq_length=9)
    model = zoo.from_hf(path)
    tokenizer = load_tokenizer(path)
    model.save_pretrained(tmp_path / "ours")
    again = zoo.load_pretrained(tmp_path / "ours")
    assert again.sentence_pooling == model.sentence_pooling == SentencePooling(("cls", "max"), True, 9, 32)
    assert read_sentence_pooling(tmp_path / "ours") == model.sentence_pooling
    assert torch.equal(zoo.embed(again, tokenizer, SENTENCES), zoo.embed(model, tokenizer, SENTENCES))
    assert (zoo.embed(again, tokenizer, SENTENCES) - reference(path)).abs().max().item() <= 1e-5


def test_ids_and_a_padded_tensor_give_the_texts_embeddings(tmp_path):
    path = st_directory(tmp_path / "st", ("mean",), normalize=True)
    model, tokenizer = zoo.from_hf(path), load_tokenizer(path)
    texts = zoo.embed(model, tokenizer, SENTENCES[:3])
    ids = [tokenizer.encode(s) for s in SENTENCES[:3]]
    assert torch.allclose(zoo.embed(model, None, ids), texts, atol=1e-6)
    width = max(map(len, ids))
    tensor = torch.tensor([row + [0] * (width - len(row)) for row in ids])
    mask = torch.tensor([[1] * len(row) + [0] * (width - len(row)) for row in ids])
    assert torch.allclose(zoo.embed(model, None, tensor, attention_mask=mask, batch_size=2), texts, atol=1e-6)
    raw = zoo.embed(model, tokenizer, SENTENCES[:3], normalize=False)
    assert torch.allclose(torch.nn.functional.normalize(raw, dim=-1), texts, atol=1e-6)


def test_a_plain_bert_is_mean_pooled_and_not_normalised_as_sentence_transformers_does(tmp_path):
    path = st_directory(tmp_path / "st", ("mean",), normalize=False)
    for name in ("modules.json", "sentence_bert_config.json"):
        (path / name).unlink()
    model = zoo.from_hf(path)
    assert getattr(model, "sentence_pooling", None) is None
    got = zoo.embed(model, load_tokenizer(path), SENTENCES)
    assert (got - reference(path)).abs().max().item() <= 1e-5


def test_a_model_without_an_encoder_output_is_refused():
    with pytest.raises(ValueError, match=r"embed pools a text encoder's token features \(families: bert\); got a "
                                         r"GPT \(family 'gpt'\), which has no encoder output"):
        zoo.embed(zoo.create_model("gpt_tiny"), None, [[1, 2, 3]])
    with pytest.raises(ValueError, match="texts need a tokenizer"):
        zoo.embed(zoo.create_model("bert_tiny"), None, ["a text"])
