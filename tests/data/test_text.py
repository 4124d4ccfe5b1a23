"""data.text: plain-text reading and the Brown corpus genre-classification split."""
from __future__ import annotations

import collections

import pytest

from data.text import (
    BROWN_EXTRACT,
    KJV_EXTRACT,
    brown_documents,
    brown_split,
    brown_texts,
    detokenize,
    normalize_whitespace,
    read_brown_categories,
    read_brown_file,
    read_documents,
)


def test_normalize_whitespace():
    assert normalize_whitespace("  a \t b\r\nc  \u00a0d\r\n\n") == "a b\nc d"
    assert normalize_whitespace("x\n\n\ny") == "x\n\n\ny"  # blank lines survive (they split documents)


def test_read_documents_split_modes(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("one  line\nsecond line\n\n\nnext   doc\n")
    b.write_text("\r\nthird\r\n")
    assert read_documents(a) == ["one line\nsecond line", "next doc"]
    assert read_documents([a, b]) == ["one line\nsecond line", "next doc", "third"]
    assert read_documents([str(a), b], split="line") == ["one line", "second line", "next doc", "third"]
    assert read_documents(a, split="file") == ["one line\nsecond line\n\n\nnext doc"]
    with pytest.raises(ValueError, match="split"):
        read_documents(a, split="para")


def test_read_errors_name_the_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="absent.txt"):
        read_documents(tmp_path / "absent.txt")
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("caf\xe9".encode("latin-1"))
    with pytest.raises(ValueError, match="latin1.txt.*UTF-8"):
        read_documents(latin1)


def test_kjv_extract_is_chapters_of_verses():
    chapters = read_documents(KJV_EXTRACT)
    # Genesis 50, Exodus 40, Ruth 4, Esther 10, Proverbs 31, Ecclesiastes 12,
    # Song of Solomon 8, Jonah 4, Matthew 28, Mark 16, John 21, Revelation 22.
    assert len(chapters) == 246
    assert chapters[0].split("\n")[0] == "In the beginning God created the heaven and the earth."
    assert len(chapters[0].split("\n")) == 31  # Genesis 1 has 31 verses
    assert chapters[-1].endswith("The grace of our Lord Jesus Christ be with you all. Amen.")


def test_detokenize():
    words = ["He", "said", ",", "``", "no", "evidence", "''", "(", "none", ")", "."]
    assert detokenize(words) == 'He said, "no evidence" (none).'


def test_read_brown_file_strips_tags(tmp_path):
    f = tmp_path / "cx01"
    f.write_text("\n\n\tThe/at jury/nn said/vbd ``/`` 1/2/cd ''/'' ./.\n\n\n\tIt/pps ended/vbd ./.\n")
    assert read_brown_file(f) == [["The", "jury", "said", "``", "1/2", "''", "."], ["It", "ended", "."]]


def test_brown_categories_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="cats.txt"):
        read_brown_categories(tmp_path)
    (tmp_path / "cats.txt").write_text("ca01 news\nca02\n")
    with pytest.raises(ValueError, match="cats.txt:2"):
        read_brown_categories(tmp_path)
    (tmp_path / "cats.txt").write_text("ca01 news\n")
    with pytest.raises(FileNotFoundError, match="ca01"):
        brown_texts(tmp_path)


def test_brown_extract_is_balanced():
    docs = brown_documents(BROWN_EXTRACT)
    counts = collections.Counter(cat for _, cat in docs)
    assert len(counts) == 15 and set(counts.values()) == {6}
    text, cat = docs[0]
    assert cat == "news"
    assert text.startswith("The Fulton County Grand Jury said Friday an investigation of Atlanta's")
    assert "/at" not in text and "``" not in text


@pytest.fixture(scope="module")
def split():
    return brown_split(BROWN_EXTRACT, unit="chunk", chunk_words=64, test_fraction=0.2, seed=0)


def test_brown_split_by_document(split):
    assert not set(split.train_files) & set(split.test_files)
    assert len(split.train_files) + len(split.test_files) == 90
    assert len(split.test_files) == 15  # round(0.2 * 6) = 1 file per genre
    assert {split.labels[y] for _, y in split.test} == set(split.labels)
    assert split.labels == sorted(split.labels) and len(split.labels) == 15
    assert all(5 <= len(text.split()) <= 64 for text, _ in split.train[:200])


def test_brown_split_is_deterministic(split):
    again = brown_split(BROWN_EXTRACT, unit="chunk", chunk_words=64, test_fraction=0.2, seed=0)
    assert again.test_files == split.test_files and again.train[:50] == split.train[:50]
    other = brown_split(BROWN_EXTRACT, unit="chunk", chunk_words=64, test_fraction=0.2, seed=1)
    assert other.test_files != split.test_files


def test_brown_sentence_units():
    s = brown_split(BROWN_EXTRACT, unit="sentence", min_words=5)
    assert len(s.train) > 5000
    assert all(len(text.split()) >= 5 for text, _ in s.train)
    with pytest.raises(ValueError, match="unit"):
        brown_split(BROWN_EXTRACT, unit="word")
