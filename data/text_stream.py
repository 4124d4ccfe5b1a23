"""Text of generated tokens as they come, for printing while a decoder runs.

Decoding one token at a time and printing each piece is wrong in two ways: a byte-level BPE token can hold part
of a character's UTF-8 bytes (decoded alone it is U+FFFD), and a later token can change how the last word reads
(WordPiece's "##" continuations, SentencePiece's spaces). Decoding the whole text each step and slicing by the
prompt's length is wrong too: the decoded text of a prompt with special tokens is shorter than the prompt (they
are skipped), so the slice starts past the new text. `TextStream` decodes only the generated tokens, all of them
each step, and hands out the part that can no longer change, as transformers' `TextStreamer` does: everything up
to the last space, a whole line at a newline, and what is left at `end()`.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from data.tokenization import Tokenizer


class TextStream:
    """tokens in with `put`, text out once it is final; the pieces joined equal `tokenizer.decode(tokens)`.

        stream = TextStream(tokenizer)
        for token in zoo.stream(model, ids, config):
            print(stream.put([int(token[0])]), end="", flush=True)
        print(stream.end())
    """

    def __init__(self, tokenizer: Tokenizer, skip_special_tokens: bool = True):
        self.tokenizer, self.skip_special_tokens = tokenizer, skip_special_tokens
        self.tokens: list[int] = []   # the tokens since the last newline (and that line's last token)
        self.printed = 0              # characters of decode(self.tokens) already handed out

    def _decode(self, tokens: list[int]) -> str:
        return self.tokenizer.decode(tokens, skip_special_tokens=self.skip_special_tokens)

    def put(self, tokens: Iterable[int]) -> str:
        """The text the new tokens make final ("" while a word or a character is still incomplete)."""
        self.tokens += [int(t) for t in tokens]
        text = self._decode(self.tokens)
        pending = text[self.printed:]
        if text.endswith("\n"):
            # A line is final: start again from its last token, so the next one decodes in its context.
            piece = pending
            self.tokens = self.tokens[-1:]
            self.printed = len(self._decode(self.tokens))
        elif pending and (_is_cjk(pending[-1]) or all(c.isspace() or unicodedata.category(c)[0] in "LMN"
                                                       for c in pending)):
            # Letters, marks and digits only: no partial character (U+FFFD is a symbol), no spacing to come.
            piece = pending
            self.printed += len(piece)
        else:
            piece = text[self.printed:text.rfind(" ") + 1]  # up to the last space; "" if that was printed
            self.printed += len(piece)
        return piece

    def end(self) -> str:
        """The text not yet handed out; the stream is ready for another generation."""
        piece = self._decode(self.tokens)[self.printed:] if self.tokens else ""
        self.tokens, self.printed = [], 0
        return piece


def _is_cjk(char: str) -> bool:
    """A CJK ideograph: each is a word, so it is final at once (TextStreamer's _is_chinese_char)."""
    cp = ord(char)
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF or 0x2A700 <= cp <= 0x2B73F
            or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF or 0xF900 <= cp <= 0xFAFF
            or 0x2F800 <= cp <= 0x2FA1F)
