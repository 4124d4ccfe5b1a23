"""The text of one generated choice as OpenAI's API returns it: the new tokens decoded (special tokens skipped),
cut before the first stop string (the stop text itself is not returned, as OpenAI does), and handed out in
pieces while it streams.

    text = ChoiceText(tokenizer, stops=["\\n\\n"])
    delta = text.put(token)     # the text that can no longer change ("" while it may still be a stop's start)
    ...
    delta = text.finish()       # the rest; text.text is the whole reply, text.stopped whether a stop string ended it

A piece is held back while the text ends in an incomplete UTF-8 character (decoded as U+FFFD) or in what may
be the start of a stop string, so the pieces joined equal the non-streamed text. (data.text_stream.TextStream
holds text back to the last space, which a terminal wants; a server streams each token's text as it comes.)
`stop_check` is the engine's RequestOptions.stop_check for these stop strings: it runs on the engine's thread
and ends the choice at the token whose text completes a stop string.
"""
from __future__ import annotations

from collections.abc import Sequence

from data.tokenization import Tokenizer

REPLACEMENT = "\ufffd"  # what decoding makes of an incomplete UTF-8 character


def first_stop(text: str, stops: Sequence[str]) -> int | None:
    """Where the earliest stop string starts in `text`, or None."""
    found = [i for i in (text.find(s) for s in stops) if i >= 0]
    return min(found) if found else None


def stop_check(tokenizer: Tokenizer, stops: Sequence[str]):
    """new tokens -> whether their text holds a stop string (None where there are no stops)."""
    if not stops:
        return None
    return lambda tokens: first_stop(tokenizer.decode(tokens), stops) is not None


class ChoiceText:
    """One choice's text, token by token (see the module docstring)."""

    def __init__(self, tokenizer: Tokenizer, stops: Sequence[str] = ()):
        self.tokenizer, self.stops = tokenizer, list(stops)
        self.tokens: list[int] = []
        self.text = ""         # the text so far, cut at a stop string once one is found
        self.sent = 0          # characters of it handed out
        self.stopped = False   # a stop string ended it

    def put(self, token: int) -> str:
        """Add one token -> the new text that is final."""
        if self.stopped:
            return ""
        self.tokens.append(token)
        self.text = self.tokenizer.decode(self.tokens)
        cut = first_stop(self.text, self.stops)
        if cut is not None:
            self.text, self.stopped = self.text[:cut], True
            return self._hand_out(len(self.text))
        end = len(self.text.rstrip(REPLACEMENT))
        end -= self._stop_prefix(self.text[:end])
        return self._hand_out(end)

    def finish(self) -> str:
        """The text not yet handed out (the choice has ended)."""
        return self._hand_out(len(self.text))

    def _stop_prefix(self, text: str) -> int:
        """The length of the longest end of `text` that begins a stop string."""
        longest = 0
        for stop in self.stops:
            for size in range(min(len(stop) - 1, len(text)), longest, -1):
                if text.endswith(stop[:size]):
                    longest = size
                    break
        return longest

    def _hand_out(self, end: int) -> str:
        if end <= self.sent:
            return ""
        piece, self.sent = self.text[self.sent:end], end
        return piece
