"""data.text_stream.TextStream: the pieces it hands out, joined, are the decoded tokens; no piece holds half a
character; and they are the pieces transformers' TextStreamer prints for the same tokens."""
import pytest
import torch
import transformers

from data.text_stream import TextStream
from data.tokenization import train_bpe, train_wordpiece

TEXT = ("Café crème, naïve façade: 日本語のテキスト. And God said, Let there be light: and there was light.\n"
        "Zürich über alles? ¿Qué tal? Ελληνικά κείμενα. 🙂 emoji 🚀 rockets.\n") * 4


@pytest.fixture(scope="module", params=["bpe", "wordpiece"])
def tokenizer(request):
    if request.param == "bpe":  # byte-level: few merges, so most characters past ASCII span several tokens
        return train_bpe([TEXT], vocab_size=300)
    return train_wordpiece([TEXT], vocab_size=120, lowercase=False)


def pieces_of(stream, ids):
    pieces = [stream.put([i]) for i in ids]
    return pieces + [stream.end()]


def reference_pieces(tokenizer, ids):
    """What transformers' TextStreamer prints, token by token, on the same tokenizer."""
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tokenizer.backend)
    streamer = transformers.TextStreamer(fast, skip_special_tokens=True)
    printed = []
    streamer.on_finalized_text = lambda text, stream_end=False: printed.append(text)
    for i in ids:
        streamer.put(torch.tensor([i]))
    streamer.end()
    return printed


def test_pieces_join_to_the_decoded_text_without_broken_characters(tokenizer):
    ids = tokenizer.encode(TEXT, add_special_tokens=False)
    assert any("\ufffd" in tokenizer.decode([i]) for i in ids) or tokenizer.backend.model.__class__.__name__ != "BPE"
    pieces = pieces_of(TextStream(tokenizer), ids)
    assert "".join(pieces) == tokenizer.decode(ids)
    assert not any("\ufffd" in piece for piece in pieces)
    assert pieces == reference_pieces(tokenizer, ids)


def test_special_tokens_are_skipped_and_the_stream_is_reusable():
    tokenizer = train_bpe([TEXT], vocab_size=300)
    eot = tokenizer.eos_id
    stream = TextStream(tokenizer)
    first = tokenizer.encode("And God said", add_special_tokens=False)
    assert "".join(pieces_of(stream, [eot, *first, eot])) == "And God said"
    assert "".join(pieces_of(stream, first)) == "And God said"  # end() started it afresh
    kept = TextStream(tokenizer, skip_special_tokens=False)
    assert "".join(pieces_of(kept, [*first, eot])) == "And God said<|endoftext|>"
