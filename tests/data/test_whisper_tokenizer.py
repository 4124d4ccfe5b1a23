"""data.whisper_tokenizer against openai-whisper's tiktoken tokenizer and transformers' WhisperTokenizer.

References are built offline: openai-whisper ships gpt2.tiktoken and
multilingual.tiktoken; transformers reads the tokenizer.json we write.
"""
from __future__ import annotations

import json
import random

import pytest

from data.text import KJV_EXTRACT
from data.whisper_tokenizer import (
    LANGUAGES,
    NUM_TIMESTAMPS,
    WhisperTokenizer,
    load_whisper_tokenizer,
    openai_whisper_vocab,
    read_tiktoken,
)

wt = pytest.importorskip("whisper.tokenizer", reason="openai-whisper is the reference")

SENTENCES = [
    "Hello world!",
    " And God said, Let there be light: and there was light.",
    "   leading spaces,\ttabs\nand newlines\n\n",
    "Punctuation... (really?) [yes] {no} -- 'quoted' \"double\" #tag @user 50% $3.14 <<>>",
    "It's, we're, they've, I'm, you'll, he'd; IT'S LOUD",
    "naïve café, déjà vu, Ærøskøbing, São Paulo, Zürich",
    "東京は日本の首都です。北京欢迎你！",
    "서울은 한국의 수도입니다. Москва — столица России. مرحبا بالعالم. नमस्ते दुनिया",
    "emoji 🙂🎉 and music ♪♪ ♩ ♫",
    "1234567890 12,345.67 1st 2nd 3rd",
    " ",
    "",
]
VOCABS = {"english": (False, 99), "multilingual": (True, 99), "large-v3": (True, 100)}


@pytest.fixture(scope="module", params=list(VOCABS))
def pair(request):
    """(ours, openai-whisper's) tokenizer for one vocabulary."""
    multilingual, num_languages = VOCABS[request.param]
    return _ours(request.param), wt.get_tokenizer(multilingual, num_languages=num_languages)


def _ours(name: str) -> WhisperTokenizer:
    multilingual, num_languages = VOCABS[name]
    return load_whisper_tokenizer(multilingual=multilingual, num_languages=num_languages)  # cached


def _stress_texts(ref, n: int = 1500) -> list[str]:
    """KJV lines plus strings glued from random vocabulary tokens (merge-order corner cases)."""
    rng = random.Random(0)
    texts = KJV_EXTRACT.read_text().splitlines()[:300]
    for _ in range(n):
        ids = [rng.randrange(ref.eot) for _ in range(rng.randint(1, 6))]
        texts.append(ref.encoding.decode(ids))  # broken UTF-8 becomes U+FFFD, still a valid text
    return texts


def test_encode_matches_openai_whisper(pair):
    ours, ref = pair
    for text in SENTENCES + _stress_texts(ref):
        assert ours.encode(text) == ref.encode(text), text


def test_special_ids_match_openai_whisper(pair):
    ours, ref = pair
    for role in ("eot", "sot", "sot_prev", "sot_lm", "no_speech", "no_timestamps", "timestamp_begin",
                 "transcribe", "translate"):
        assert getattr(ours, role) == getattr(ref, role), role
    assert ours.vocab_size == ref.encoding.n_vocab
    last = ref.encoding.encode_single_token("<|30.00|>")
    assert last == ours.timestamp_begin + NUM_TIMESTAMPS - 1 == ours.token_to_id("<|30.00|>")
    # openai-whisper lists its language codes in set order; ours are in id order.
    assert set(ours.all_language_codes) == set(ref.all_language_codes)
    assert ours.all_language_codes == tuple(LANGUAGES)[:ref.num_languages]
    assert sorted(ours.all_language_tokens) == sorted(ref.all_language_tokens)
    for code in ours.all_language_codes:
        assert ours.language_token(code) == ref.to_language_token(code), code


@pytest.mark.parametrize("task", ["transcribe", "translate"])
@pytest.mark.parametrize("language", [None, "en", "fr"])
def test_sot_sequence_matches_openai_whisper(pair, language, task):
    ours, ref = pair
    expected = wt.get_tokenizer(ref.encoding.n_vocab >= 51865, num_languages=ref.num_languages,
                                language=language, task=task).sot_sequence
    assert ours.sot_sequence(language, task) == list(expected)


def test_non_speech_tokens_match_openai_whisper(pair):
    ours, ref = pair
    assert ours.non_speech_tokens == ref.non_speech_tokens


def test_decode_matches_openai_whisper(pair):
    ours, ref = pair
    ts = ours.timestamp_begin
    text = ours.encode(" 東京 is naïve.")
    sequences = [
        [*ours.sot_sequence("fr"), ts, *text, ts + 54, ts + 54, *text, ts + 1500, ours.eot],
        [ours.sot_prev, *ours.encode(" a prompt"), ours.sot, ours.no_timestamps, *text, ours.eot],
        [ours.no_speech, ours.sot_lm, ours.translate, ours.transcribe],
        text[:2] + [ts + 7] + text[2:],  # a timestamp splitting a character's UTF-8 bytes
        [ours.eot - 1, ours.eot],  # multilingual: 50256 is an empty token
    ]
    rng = random.Random(1)
    sequences += [[rng.randrange(ours.vocab_size) for _ in range(rng.randint(1, 12))] for _ in range(300)]
    for ids in sequences:
        assert ours.decode(ids) == ref.decode(ids), ids
        assert ours.decode_with_timestamps(ids) == ref.decode_with_timestamps(ids), ids
    assert "<|1.08|>" in ours.decode_with_timestamps([ts + 54])


def test_special_text_in_input(pair):
    ours, ref = pair
    text = "before<|endoftext|>after <|0.00|>"
    with pytest.raises(ValueError, match="special token"):
        ours.encode(text)
    assert ours.encode(text, allow_special=True) == ref.encoding.encode(text, allowed_special="all")


def test_language_and_task_arguments():
    ours = load_whisper_tokenizer(multilingual=True)
    assert ours.language_token("French") == ours.language_token("fr") == ours.sot + 7
    assert ours.language_token("mandarin") == ours.language_token("zh")
    with pytest.raises(ValueError, match="'yue' is not in this vocabulary"):
        ours.language_token("yue")  # only large-v3's 100-language vocabulary has Cantonese
    assert load_whisper_tokenizer(num_languages=100).language_token("yue") == 50358
    with pytest.raises(ValueError, match="task='summarize'"):
        ours.sot_sequence("en", "summarize")
    with pytest.raises(ValueError, match="outside the vocabulary"):
        ours.decode([1, ours.vocab_size])


def test_save_load_round_trip(pair, tmp_path):
    ours, _ = pair
    ours.save(tmp_path)
    back = load_whisper_tokenizer(tmp_path)
    assert back.layout() == ours.layout()
    assert [back.encode(t) for t in SENTENCES] == [ours.encode(t) for t in SENTENCES]
    assert back.non_speech_tokens == ours.non_speech_tokens
    layout = json.loads((tmp_path / "whisper_special_tokens.json").read_text())
    layout["special_ids"]["eot"] += 1
    (tmp_path / "whisper_special_tokens.json").write_text(json.dumps(layout))
    with pytest.raises(ValueError, match="does not match"):
        load_whisper_tokenizer(tmp_path)


@pytest.mark.parametrize("name", ["english", "multilingual"])
def test_hf_hub_variants(name, tmp_path):
    """HF's earlier Whisper files: <|nocaptions|> for <|nospeech|>, <|iw|> for <|he|>, no timestamp
    tokens, and (English) <|endoftext|> among the BPE tokens; no layout file, so everything is inferred."""
    ours = _ours(name)
    ours.save(tmp_path)
    (tmp_path / "whisper_special_tokens.json").unlink()
    data = json.loads((tmp_path / "tokenizer.json").read_text())
    data["added_tokens"] = [t for t in data["added_tokens"] if t["id"] < ours.timestamp_begin]
    for token in data["added_tokens"]:
        token["content"] = {"<|nospeech|>": "<|nocaptions|>", "<|he|>": "<|iw|>"}.get(token["content"],
                                                                                  token["content"])
    if not ours.multilingual:
        data["model"]["vocab"]["<|endoftext|>"] = ours.eot
    (tmp_path / "tokenizer.json").write_text(json.dumps(data))
    back = load_whisper_tokenizer(tmp_path / "tokenizer.json")
    assert back.layout() == ours.layout()
    assert back.token_to_id("<|nocaptions|>") == ours.no_speech
    ids = [*ours.sot_sequence(), ours.timestamp_begin + 54, *ours.encode(" hi"), ours.eot]
    assert back.decode_with_timestamps(ids) == ours.decode_with_timestamps(ids).replace("nospeech", "nocaptions")
    with pytest.raises(ValueError, match="special token"):
        back.encode("<|endoftext|>")
    if ours.multilingual:  # a language is its slot: "iw" and "he" are one token, where "he" was
        assert back.language_token("iw") == back.language_token("he") == ours.language_token("he")


def test_specials_out_of_order_are_refused(tmp_path):
    """Language slots take any <|xx|> name, but a control token in the wrong slot is an error."""
    ours = _ours("multilingual")
    ours.save(tmp_path)
    (tmp_path / "whisper_special_tokens.json").unlink()
    data = json.loads((tmp_path / "tokenizer.json").read_text())
    swap = {"<|transcribe|>": "<|translate|>", "<|translate|>": "<|transcribe|>"}
    for token in data["added_tokens"]:
        token["content"] = swap.get(token["content"], token["content"])
    (tmp_path / "tokenizer.json").write_text(json.dumps(data))
    with pytest.raises(ValueError, match="not in Whisper's order"):
        load_whisper_tokenizer(tmp_path)


@pytest.mark.parametrize("name", ["english", "multilingual"])
def test_transformers_reads_our_tokenizer_json(name, tmp_path):
    transformers = pytest.importorskip("transformers")
    ours = _ours(name)
    path = ours.save(tmp_path / "ours")
    hf_file = transformers.WhisperTokenizerFast(tokenizer_file=str(path))
    # from_pretrained rebuilds the BPE from our vocab and merges (without ignore_merges).
    hf_dir = transformers.WhisperTokenizer.from_pretrained(str(path.parent))
    for text in SENTENCES:
        assert hf_file.encode(text, add_special_tokens=False) == ours.encode(text), text
        assert hf_dir.encode(text, add_special_tokens=False) == ours.encode(text), text
    if ours.multilingual:
        hf_file.set_prefix_tokens(language="french", task="translate")
        assert hf_file.prefix_tokens == [*ours.sot_sequence("fr", "translate"), ours.no_timestamps]
    # And we read the HF layout as transformers writes it (its own post-processor, config files).
    hf_file.save_pretrained(str(tmp_path / "hf"))
    back = load_whisper_tokenizer(tmp_path / "hf")
    assert back.layout() == ours.layout()
    assert [back.encode(t) for t in SENTENCES] == [ours.encode(t) for t in SENTENCES]


def test_byte_symbols_are_gpt2s():
    pytest.importorskip("transformers")
    from tokenizers import pre_tokenizers
    from transformers.convert_slow_tokenizer import bytes_to_unicode

    from data.whisper_tokenizer import _byte_symbols
    assert dict(enumerate(_byte_symbols())) == bytes_to_unicode()
    assert sorted(_byte_symbols()) == sorted(pre_tokenizers.ByteLevel.alphabet())


def test_bad_sources(tmp_path, monkeypatch):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_whisper_tokenizer(tmp_path / "missing")
    with pytest.raises(FileNotFoundError, match="no tokenizer.json"):
        load_whisper_tokenizer(tmp_path)
    lines = openai_whisper_vocab(False).read_text().splitlines()
    truncated = tmp_path / "bad.tiktoken"
    truncated.write_text("\n".join(lines[:100] + lines[101:200]) + "\n")
    with pytest.raises(ValueError, match="ranks must be 0..198"):
        read_tiktoken(truncated)
    truncated.write_text("not base64!! 0\n")
    with pytest.raises(ValueError, match="line 1"):
        read_tiktoken(truncated)
    from data.tokenization import train_bpe
    train_bpe(["some text for a plain GPT-2 style tokenizer"] * 5, vocab_size=300).save(tmp_path / "gpt")
    with pytest.raises(ValueError, match="not a Whisper vocabulary"):
        load_whisper_tokenizer(tmp_path / "gpt")
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    with pytest.raises(ModuleNotFoundError, match="openai-whisper is not installed"):
        openai_whisper_vocab(True)


def test_tiktoken_file_source_and_repr():
    tok = load_whisper_tokenizer(openai_whisper_vocab(False))
    assert isinstance(tok, WhisperTokenizer) and not tok.multilingual
    assert tok.sot_sequence("fr", "translate") == [tok.sot]  # English-only: openai-whisper ignores both
    assert repr(tok) == "WhisperTokenizer(English-only, vocab_size=51864, num_languages=99)"


def test_corpus_tokenizer_has_whispers_layout_and_travels_with_the_model(tmp_path):
    """A BPE learned from transcripts, with Whisper's English-only control tokens and timestamps appended: the
    decoding rules find every id, text round-trips, and save_pretrained / load_pretrained carry it."""
    import zoo
    from data.whisper_vocab import train_whisper_tokenizer
    from zoo.generation.whisper_decode import default_tokenizer

    texts = ["and god said let there be light", "the cat sat on the mat", "one two three four five"] * 20
    tokenizer = train_whisper_tokenizer(texts, text_vocab=300)
    assert not tokenizer.multilingual and tokenizer.num_languages == 0
    assert tokenizer.sot == tokenizer.eot + 1 and tokenizer.sot_sequence() == [tokenizer.sot]
    assert tokenizer.timestamp_begin == tokenizer.no_timestamps + 1 <= 300 + 8  # text, then 8 control tokens
    assert tokenizer.vocab_size == tokenizer.timestamp_begin + 1501
    assert tokenizer.decode(tokenizer.encode(" let there be light")) == " let there be light"
    assert max(tokenizer.encode(" zebra quagga!")) < tokenizer.eot  # unseen words fall back to bytes
    with pytest.raises(ValueError, match="at least 256"):
        train_whisper_tokenizer(texts, text_vocab=100)

    model = zoo.create_model("whisper_micro", vocab_size=tokenizer.vocab_size)
    model.tokenizer = tokenizer
    model.save_pretrained(tmp_path / "m")
    loaded = zoo.load_pretrained(tmp_path / "m")
    assert default_tokenizer(loaded).encode(" the cat") == tokenizer.encode(" the cat")
    assert loaded.tokenizer.vocab_size == loaded.config.vocab_size
