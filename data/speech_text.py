"""What the synthetic voices say: keyword classes, and short sentences from the shipped text corpora.

A transcript must be exactly what is spoken, so only plain text is kept (is_plain_text): words of
letters with an inner apostrophe or hyphen ("Atlanta's", "over-all"), each optionally followed by
one of , . ; : ? !, separated by single spaces. Anything a synthesizer would expand or skip
(digits, symbols, brackets, dashes, quotes) rules a sentence out rather than being rewritten.

Sentences: the KJV extract's verses (one per line, no verse numbers) split after . ? !, and the
Brown extract's sentences with their tags stripped (data.text), double quotes dropped. Those that
end in . ? ! (not a heading) and have min_words..max_words words are kept, each once, in corpus
order; choose_sentences draws half from each corpus.
"""
from __future__ import annotations

import os
import re

import numpy as np

from data.text import BROWN_EXTRACT, KJV_EXTRACT, brown_texts, detokenize, read_documents

DIGITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
LETTERS = tuple("abcdefghijklmnopqrstuvwxyz")  # spoken as letter names: a single letter is spelled
COMMANDS = ("yes", "no", "up", "down", "left", "right", "on", "off", "stop", "go", "back", "next")
KEYWORDS = DIGITS + LETTERS + COMMANDS  # the 48 keyword classes; each class's text is its name

_PLAIN = re.compile(r"^[A-Za-z]+(?:['-][A-Za-z]+)*[,.;:?!]?(?: [A-Za-z]+(?:['-][A-Za-z]+)*[,.;:?!]?)*$")
_SENTENCE_END = re.compile(r"(?<=[.?!]) +")


def is_plain_text(text: str) -> bool:
    """True when text is words and light punctuation only, so that it is read out exactly as written."""
    return bool(_PLAIN.match(text))


def _keep(sentence: str, min_words: int, max_words: int) -> bool:
    return (is_plain_text(sentence) and sentence.endswith((".", "?", "!"))
            and min_words <= sentence.count(" ") + 1 <= max_words)


def kjv_sentences(path: str | os.PathLike = KJV_EXTRACT, min_words: int = 3, max_words: int = 15) -> list[str]:
    """Plain sentences of a KJV text file (one verse per line), in order, without repeats."""
    found = {}
    for verse in read_documents(path, split="line"):
        for sentence in _SENTENCE_END.split(verse):
            if _keep(sentence, min_words, max_words):
                found.setdefault(sentence, None)
    return list(found)


def brown_sentences(root: str | os.PathLike = BROWN_EXTRACT, min_words: int = 3, max_words: int = 15) -> list[str]:
    """Plain sentences of a Brown corpus folder (tags stripped, quotes dropped), in file order, without repeats."""
    found = {}
    for text in brown_texts(root):
        for words in text.sentences:
            sentence = " ".join(detokenize(words).replace('"', " ").split())
            if _keep(sentence, min_words, max_words):
                found.setdefault(sentence, None)
    return list(found)


def choose_sentences(n: int, rng: np.random.Generator, kjv: list[str], brown: list[str]) -> list[str]:
    """n sentences, half (rounded up) from kjv and the rest from brown, drawn without replacement."""
    n_kjv = (n + 1) // 2
    if n_kjv > len(kjv) or n - n_kjv > len(brown):
        raise ValueError(f"asked for {n} sentences, but the corpora have {len(kjv)} (KJV) and {len(brown)} "
                         "(Brown) plain ones in the word range")
    picked = [kjv[i] for i in rng.choice(len(kjv), n_kjv, replace=False)]
    picked += [brown[i] for i in rng.choice(len(brown), n - n_kjv, replace=False)]
    order = rng.permutation(n)
    return [picked[i] for i in order]
