"""data.marian_tokenizer: ids, batches and decoding equal to transformers' MarianTokenizer; joint-vocabulary
training that transformers loads; errors for broken directories."""
from __future__ import annotations

import itertools
import json
import shutil
import warnings

import pytest
import torch

from data.marian_tokenizer import (
    CONFIG,
    SOURCE_SPM,
    TARGET_SPM,
    TARGET_VOCAB,
    VOCAB,
    MarianSentencePiece,
    marian_vocab,
    train_joint_vocabulary,
)

transformers = pytest.importorskip("transformers")
pytest.importorskip("sentencepiece")

VOCAB_SIZE = 240

# Parallel phrase lists: every 23rd of the 15 x 15 x 30 (subject, verb, object) sentences, a third as questions.
EN = ("the cat|my brother|the old woman|our teacher|a small child|the doctor|her friend|the farmer|this student|"
      "your neighbour|the baker|a tired soldier|the young queen|my grandmother|the fisherman",
      "sees|wants|buys|finds|likes|sells|paints|carries|forgets|brings|washes|opens|breaks|borrows|describes",
      "the green apple|a new house|the red car|some fresh bread|the train station|a cold drink|the yellow book|"
      "a heavy box|the blue window|an empty bottle|the white horse|a long letter|the quiet garden|a broken chair|"
      "the silver spoon|a warm jacket|the narrow bridge|a strange key|the wooden table|a sweet orange|"
      "the dark forest|a clean shirt|the famous painting|a rusty bicycle|the kitchen knife|a golden ring|"
      "the morning newspaper|a purple umbrella|the village church|a wild strawberry")
ES = ("el gato|mi hermano|la anciana|nuestro profesor|un niño pequeño|la médica|su amiga|el granjero|"
      "este estudiante|tu vecino|el panadero|un soldado cansado|la joven reina|mi abuela|el pescador",
      "ve|quiere|compra|encuentra|prefiere|vende|pinta|lleva|olvida|trae|lava|abre|rompe|pide prestado|describe",
      "la manzana verde|una casa nueva|el coche rojo|un poco de pan fresco|la estación de tren|una bebida fría|"
      "el libro amarillo|una caja pesada|la ventana azul|una botella vacía|el caballo blanco|una carta larga|"
      "el jardín tranquilo|una silla rota|la cuchara de plata|una chaqueta caliente|el puente estrecho|"
      "una llave extraña|la mesa de madera|una naranja dulce|el bosque oscuro|una camisa limpia|el cuadro famoso|"
      "una bicicleta oxidada|el cuchillo de cocina|un anillo de oro|el periódico de la mañana|un paraguas morado|"
      "la iglesia del pueblo|una fresa silvestre")


def _sentences(parts: tuple[str, str, str], question: tuple[str, str]) -> list[str]:
    out = []
    for subject, verb, obj in itertools.islice(itertools.product(*(p.split("|") for p in parts)), 0, None, 23):
        subject = subject[0].upper() + subject[1:]
        out.append(f"{subject} {verb} {obj}." if len(out) % 3 else f"{question[0]}{subject} {verb} {obj}{question[1]}")
    return out


ENGLISH = _sentences(EN, ("", "?"))
SPANISH = _sentences(ES, ("¿", "?"))

CASES = [
    "The cat sees the green apple.",
    "¿La médica quiere una bebida fría?",
    "Un niño pequeño, ¡qué bien! (sí) - 'no'; \"quizá\"...",
    "Ωmega ☃ 漢字 Zürich naïve Œuvre",            # characters the model never saw
    ">>es<< The doctor buys some bread.",
    ">>fr<<el gato",
    ">>xx<< a code not in the vocabulary",
    " >>es<< a leading space makes it text",
    ">>es<<",
    ">> not << a code",
    "",
    "   ",
    "tabs\tand\nnewlines  and   spaces",
    "THE RED CAR",
    "specials </s> inside <pad> text <unk> here",
    "</s>>>es<< after a special",
    "<s> is no special",
]


@pytest.fixture(scope="module")
def joint_dir(tmp_path_factory):
    directory = tmp_path_factory.mktemp("marian") / "joint"
    train_joint_vocabulary(ENGLISH, SPANISH, directory, VOCAB_SIZE, language_codes=("es", "fr"),
                           source_lang="en", target_lang="es")
    return directory


def _hf(directory):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Recommended: pip install sacremoses."
        return transformers.MarianTokenizer.from_pretrained(str(directory))


@pytest.fixture(scope="module")
def pair(joint_dir):
    return MarianSentencePiece.from_directory(joint_dir), _hf(joint_dir)


def _assert_same(ours: MarianSentencePiece, hf, texts=CASES, targets=CASES) -> None:
    for text in texts:
        assert ours.encode(text) == hf(text)["input_ids"], text
    for text in targets:
        ids = hf(text_target=text)["input_ids"]
        assert ours.encode_target(text) == ids, text
        for skip in (True, False):
            assert ours.decode(ids, skip_special_tokens=skip) == hf.decode(ids, skip_special_tokens=skip), text
    every_id = list(range(ours.target_vocab_size))  # each piece, special and language code, once
    for skip in (True, False):
        assert ours.decode(every_id, skip_special_tokens=skip) == hf.decode(every_id, skip_special_tokens=skip)


def test_ids_and_decoding_equal_transformers(pair):
    ours, hf = pair
    _assert_same(ours, hf)
    assert ours.encode(CASES[:3]) == hf(CASES[:3])["input_ids"]
    assert ours.encode("") == [ours.eos_id]
    assert ours.encode("Ωmega")[:-1].count(ours.unk_id) >= 1


def test_special_ids_and_vocab_layout(pair, joint_dir):
    ours, hf = pair
    vocab = json.loads((joint_dir / VOCAB).read_text(encoding="utf-8"))
    assert len(vocab) == ours.vocab_size == hf.vocab_size == len(hf) == VOCAB_SIZE
    assert (vocab["</s>"], vocab["<unk>"], vocab["<pad>"]) == (0, 1, VOCAB_SIZE - 1)
    assert [vocab[">>es<<"], vocab[">>fr<<"]] == [VOCAB_SIZE - 3, VOCAB_SIZE - 2]
    assert (ours.eos_id, ours.unk_id, ours.pad_id) == (hf.eos_token_id, hf.unk_token_id, hf.pad_token_id)
    assert ours.decoder_start_id == ours.pad_id == VOCAB_SIZE - 1
    assert ours.target_vocab_size == VOCAB_SIZE


def test_batch_equals_transformers_padding(pair):
    ours, hf = pair
    texts, targets = CASES[:6], CASES[6:12]
    got = ours.batch(texts, text_target=targets)
    want = hf(texts, text_target=targets, padding=True, return_tensors="pt")
    assert set(got) == {"input_ids", "attention_mask", "labels"}
    for key in got:
        assert torch.equal(got[key], want[key]), key
    assert got["input_ids"][0, -1] == ours.pad_id  # right padding
    plain = ours.batch(texts)
    assert set(plain) == {"input_ids", "attention_mask"}
    rows = got["labels"]
    for skip in (True, False):
        assert ours.batch_decode(rows, skip_special_tokens=skip) == hf.batch_decode(rows, skip_special_tokens=skip)


def test_training_round_trips_and_is_deterministic(pair, joint_dir, tmp_path):
    ours, hf = pair
    for text in ENGLISH[::37] + SPANISH[::37]:
        assert ours.decode(ours.encode(text)) == text == hf.decode(hf(text)["input_ids"], skip_special_tokens=True)
    # Language codes in the training text are not learnt as pieces: the same files come out.
    coded = [f">>es<< {text}" for text in ENGLISH]
    again = train_joint_vocabulary(coded, SPANISH, tmp_path / "again", VOCAB_SIZE, language_codes=("es", "fr"),
                                   source_lang="en", target_lang="es")
    assert sorted(p.name for p in (tmp_path / "again").iterdir()) == sorted(p.name for p in joint_dir.iterdir())
    for path in joint_dir.iterdir():
        assert (tmp_path / "again" / path.name).read_bytes() == path.read_bytes(), path.name
    assert again.source_spm == again.target_spm == ours.source_spm


def test_saved_directories_load_both_ways(pair, tmp_path):
    ours, hf = pair
    ours.save(tmp_path / "ours")
    _assert_same(MarianSentencePiece.from_directory(tmp_path / "ours"), _hf(tmp_path / "ours"), CASES[:5], CASES[:5])
    hf.save_pretrained(str(tmp_path / "hf"))  # transformers' layout: added_tokens_decoder, no special_tokens_map
    _assert_same(MarianSentencePiece.from_directory(tmp_path / "hf"), hf, CASES[:5], CASES[:5])


def _spm(directory, texts, vocab_size):
    return train_joint_vocabulary(texts, [], directory, vocab_size).source_spm


def test_other_target_model_and_separate_vocabs(tmp_path):
    source, target = _spm(tmp_path / "en", ENGLISH, 120), _spm(tmp_path / "es", SPANISH, 150)
    # Opus-MT's usual layout: two SentencePiece models, one vocab.json over the pieces of both.
    joint = dict(marian_vocab(source))
    for piece in marian_vocab(target):
        joint.setdefault(piece, len(joint))
    joint["<pad>"] = joint.pop("<pad>")
    joint = {token: i for i, token in enumerate(joint)}
    # Separate vocabularies of different sizes: the source's pad id is not the target's.
    layouts = {"joint": ({VOCAB: joint}, {}),
               "separate": ({VOCAB: marian_vocab(source), TARGET_VOCAB: marian_vocab(target)},
                            {"separate_vocabs": True})}
    for name, (vocabs, config) in layouts.items():
        directory = tmp_path / name
        directory.mkdir()
        (directory / SOURCE_SPM).write_bytes(source)
        (directory / TARGET_SPM).write_bytes(target)
        for file, vocab in vocabs.items():
            (directory / file).write_text(json.dumps(vocab), encoding="utf-8")
        (directory / CONFIG).write_text(json.dumps({"source_lang": "en", "target_lang": "es", **config}))
        ours, hf = MarianSentencePiece.from_directory(directory), _hf(directory)
        _assert_same(ours, hf)
        assert (ours.pad_id, ours.vocab_size) == (hf.pad_token_id, hf.vocab_size)
        ids = hf(text_target=SPANISH[:2], padding=True)["input_ids"]
        assert ours.batch_decode(ids) == hf.batch_decode(ids, skip_special_tokens=True)
    assert ours.target_vocab_size == len(marian_vocab(target)) != ours.vocab_size


@pytest.mark.parametrize("missing", [SOURCE_SPM, TARGET_SPM, VOCAB])
def test_missing_file_is_named(joint_dir, tmp_path, missing):
    directory = tmp_path / "broken"
    shutil.copytree(joint_dir, directory)
    (directory / missing).unlink()
    with pytest.raises(FileNotFoundError, match=rf"has no {missing}: a Marian directory holds source\.spm"):
        MarianSentencePiece.from_directory(directory)


def test_missing_target_vocab_and_directory(joint_dir, tmp_path):
    directory = tmp_path / "separate"
    shutil.copytree(joint_dir, directory)
    config = json.loads((directory / CONFIG).read_text())
    (directory / CONFIG).write_text(json.dumps(config | {"separate_vocabs": True}))
    with pytest.raises(FileNotFoundError, match=f"has no {TARGET_VOCAB}"):
        MarianSentencePiece.from_directory(directory)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        MarianSentencePiece.from_directory(tmp_path / "nowhere")


def test_vocab_without_specials_or_bad_ids(joint_dir, tmp_path):
    directory = tmp_path / "vocab"
    shutil.copytree(joint_dir, directory)
    vocab = json.loads((directory / VOCAB).read_text(encoding="utf-8"))
    del vocab["<pad>"]
    (directory / VOCAB).write_text(json.dumps(vocab))
    with pytest.raises(ValueError, match=r"vocab\.json lacks the special tokens \['<pad>'\]"):
        MarianSentencePiece.from_directory(directory)
    (directory / VOCAB).write_text(json.dumps(vocab | {"<pad>": 0}))
    with pytest.raises(ValueError, match="more than one token"):
        MarianSentencePiece.from_directory(directory)
    (directory / SOURCE_SPM).write_bytes(b"not a model")
    (directory / VOCAB).write_text(json.dumps(vocab | {"<pad>": len(vocab)}))
    with pytest.raises(ValueError, match="source.spm is not a SentencePiece model"):
        MarianSentencePiece.from_directory(directory)


def test_training_errors(tmp_path, pair):
    with pytest.raises(ValueError, match="no training text"):
        train_joint_vocabulary(["", " "], [], tmp_path / "empty", 100)
    with pytest.raises(ValueError, match="cannot train a unigram model of 5000 pieces"):
        train_joint_vocabulary(ENGLISH, SPANISH, tmp_path / "big", 5000)
    with pytest.raises(ValueError, match="not in the vocabulary"):
        pair[0].decode([VOCAB_SIZE])
