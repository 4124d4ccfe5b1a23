"""MarianMT (Opus-MT) tokenizer on the `sentencepiece` package, and joint-vocabulary training in its layout.

A Marian tokenizer directory holds

    source.spm          SentencePiece model that segments source text
    target.spm          SentencePiece model that segments target text (Opus-MT: often another model)
    vocab.json          piece -> model id. These are the ids of the model's embeddings, not SentencePiece's
                        own ids; Opus-MT's: "</s>" 0, "<unk>" 1, the pieces, "<pad>" last
    target_vocab.json   the decoder's vocabulary, only where tokenizer_config.json sets separate_vocabs
    tokenizer_config.json, special_tokens_map.json   source_lang / target_lang, the special tokens' names

Encoding follows transformers' `MarianTokenizer`:

1. the text is split around the added tokens (the specials "</s>", "<unk>", "<pad>", any extra special
   tokens the config names), each of which is its own id wherever it stands;
2. a remaining chunk that begins with ">>" is cut after the first "<<": that prefix (">>es<<") is one token,
   looked up in the vocabulary like a piece. Only at the very start of a chunk: " >>es<<" is plain text;
3. the rest is segmented by SentencePiece (source.spm for source text, target.spm for target text; the best
   segmentation, never sampled) and each piece looked up in vocab.json (target_vocab.json for target text
   when the vocabularies are separate); a piece the vocabulary lacks is "<unk>";
4. "</s>" is appended; there is no start token. MarianMT's decoder starts from "<pad>".

transformers' `MarianTokenizer.normalize` (Moses punctuation, when sacremoses is installed) is never called
on its encoding path, so text is not normalised here either.

Decoding, as transformers: special ids are dropped (skip_special_tokens; "<unk>" counts as special), the
pieces between the remaining specials go through SentencePiece's decoder, each special is written out
followed by a space, "▁" becomes a space and the ends are stripped. The joint vocabulary decodes with
source.spm (transformers' default), separate vocabularies with target.spm.

Checked against transformers 5's `MarianTokenizer` on the same directory: source and target ids, padded
batches, decoding, separate vocabularies, and directories written by `train_joint_vocabulary`
(tests/data/test_marian_tokenizer.py).
"""
from __future__ import annotations

import io
import itertools
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import sentencepiece
import torch

from data.collate import pad_sequences
from data.tokenization import _config_specials, _read_config

SOURCE_SPM, TARGET_SPM = "source.spm", "target.spm"
VOCAB, TARGET_VOCAB = "vocab.json", "target_vocab.json"
CONFIG, SPECIAL_TOKENS_MAP = "tokenizer_config.json", "special_tokens_map.json"
WORD_BOUNDARY = "\u2581"  # SentencePiece's "▁"
LAYOUT = (f"a Marian directory holds {SOURCE_SPM}, {TARGET_SPM} and {VOCAB} (plus {TARGET_VOCAB} where "
          f"{CONFIG} sets separate_vocabs), as an Opus-MT model's does")

# transformers' clean_up_tokenization, applied where tokenizer_config.json asks for it.
_CLEAN_UP = ((" .", "."), (" ?", "?"), (" !", "!"), (" ,", ","), (" ' ", "'"), (" n't", "n't"),
             (" 'm", "'m"), (" 's", "'s"), (" 've", "'ve"), (" 're", "'re"))

PathLike = str | os.PathLike


@dataclass(frozen=True)
class MarianTokenizerConfig:
    """What tokenizer_config.json and special_tokens_map.json say; transformers' defaults where they are silent.

    extra_special_tokens and added_tokens (non-special added tokens) must be entries of vocab.json.
    """
    unk_token: str = "<unk>"
    eos_token: str = "</s>"
    pad_token: str = "<pad>"
    extra_special_tokens: tuple[str, ...] = ()
    added_tokens: tuple[str, ...] = ()
    source_lang: str | None = None
    target_lang: str | None = None
    separate_vocabs: bool = False
    clean_up_tokenization_spaces: bool = False

    @property
    def special_tokens(self) -> tuple[str, ...]:
        return (self.eos_token, self.unk_token, self.pad_token, *self.extra_special_tokens)

    @classmethod
    def from_json(cls, config: Mapping, where: str) -> MarianTokenizerConfig:
        """Read the merged tokenizer_config.json / special_tokens_map.json of `where` (a directory, for errors)."""
        roles = {f"{role}_token": token for role, token in _config_specials(dict(config)).items()
                 if role in ("unk", "eos", "pad")}
        extra = config.get("extra_special_tokens") or config.get("additional_special_tokens") or []
        extra = list(extra.values()) if isinstance(extra, dict) else list(extra)  # v5 allows {name: token}
        added = list((config.get("added_tokens_decoder") or {}).values())
        for token in [*extra, *added]:
            if isinstance(token, dict) and any(token.get(flag) for flag in ("lstrip", "rstrip", "single_word")):
                raise ValueError(f"{where}: added token {token.get('content')!r} sets lstrip, rstrip or "
                                 "single_word, which this tokenizer does not implement")
        extra = [t["content"] if isinstance(t, dict) else t for t in extra]
        extra += [t["content"] for t in added if t.get("special", False)]
        role_tokens = cls(**roles).special_tokens
        return cls(**roles, extra_special_tokens=tuple(dict.fromkeys(t for t in extra if t not in role_tokens)),
                   added_tokens=tuple(t["content"] for t in added if not t.get("special", False)),
                   source_lang=config.get("source_lang"), target_lang=config.get("target_lang"),
                   separate_vocabs=bool(config.get("separate_vocabs", False)),
                   clean_up_tokenization_spaces=bool(config.get("clean_up_tokenization_spaces", False)))


class MarianSentencePiece:
    """transformers' `MarianTokenizer` ids from two serialized SentencePiece models and Marian's vocabularies.

    `target_vocab` is given exactly when the vocabularies are separate (config.separate_vocabs). As in
    transformers, eos_id, pad_id and the other special ids are the source vocabulary's in both directions.
    """

    def __init__(self, source_spm: bytes, target_spm: bytes, vocab: Mapping[str, int],
                 target_vocab: Mapping[str, int] | None = None, config: MarianTokenizerConfig | None = None):
        config = config or MarianTokenizerConfig(separate_vocabs=target_vocab is not None)
        if config.separate_vocabs != (target_vocab is not None):
            raise ValueError(f"separate_vocabs={config.separate_vocabs} but target_vocab is "
                             f"{'missing' if target_vocab is None else 'given'}: expected a target vocabulary "
                             "exactly when the vocabularies are separate")
        self.config = config
        self.source_spm, self.target_spm = bytes(source_spm), bytes(target_spm)
        self.vocab = _checked_vocab(vocab, VOCAB, (*config.special_tokens, *config.added_tokens))
        self.target_vocab = None if target_vocab is None else _checked_vocab(
            target_vocab, TARGET_VOCAB, config.special_tokens[:3])
        self._source = _processor(self.source_spm, SOURCE_SPM)
        self._target = _processor(self.target_spm, TARGET_SPM)
        self._added = {token: self.vocab[token] for token in (*config.special_tokens, *config.added_tokens)}
        self._special_tokens = frozenset(config.special_tokens)
        self._special_ids = frozenset(self._added[t] for t in config.special_tokens)
        # Longest first, so that of two added tokens starting at one place the longer is taken.
        alternatives = sorted(self._added, key=len, reverse=True)
        self._added_pattern = re.compile("(" + "|".join(map(re.escape, alternatives)) + ")")
        decoding = self.target_vocab if config.separate_vocabs else self.vocab
        self._id_to_token = {i: t for t, i in decoding.items()} | {i: t for t, i in self._added.items()}
        self._decoding_spm = self._target if config.separate_vocabs else self._source

    @classmethod
    def from_directory(cls, path: PathLike) -> MarianSentencePiece:
        """Load an Opus-MT / transformers Marian tokenizer directory (see the module docstring)."""
        directory = Path(path)
        if not directory.is_dir():
            raise FileNotFoundError(f"Marian tokenizer directory {str(directory)!r} does not exist or is not a "
                                    f"directory: {LAYOUT}")
        raw = _read_config(directory)
        config = MarianTokenizerConfig.from_json(raw, str(directory))
        names = [SOURCE_SPM, TARGET_SPM, VOCAB, *([TARGET_VOCAB] if config.separate_vocabs else [])]
        for name in names:
            if not (directory / name).is_file():
                found = sorted(p.name for p in directory.iterdir())[:12]
                raise FileNotFoundError(f"Marian tokenizer directory {str(directory)!r} has no {name}: {LAYOUT}; "
                                        f"found {found}")
        vocabs = [_read_vocab(directory / name) for name in names[2:]]
        tokenizer = cls((directory / SOURCE_SPM).read_bytes(), (directory / TARGET_SPM).read_bytes(), vocabs[0],
                        vocabs[1] if config.separate_vocabs else None, config)
        for index, token in (raw.get("added_tokens_decoder") or {}).items():
            if tokenizer.vocab[token["content"]] != int(index):
                raise ValueError(f"{directory / CONFIG} gives {token['content']!r} id {index} but {VOCAB} gives "
                                 f"{tokenizer.vocab[token['content']]}: expected the same id in both")
        return tokenizer

    # -- ids

    @property
    def pad_id(self) -> int:
        return self._added[self.config.pad_token]

    @property
    def eos_id(self) -> int:
        return self._added[self.config.eos_token]

    @property
    def unk_id(self) -> int:
        return self._added[self.config.unk_token]

    @property
    def decoder_start_id(self) -> int:
        """The decoder's first input: MarianMT starts from the pad id (its config's decoder_start_token_id)."""
        return self.pad_id

    @property
    def vocab_size(self) -> int:
        """Entries of vocab.json: the encoder's embedding rows (transformers' `vocab_size`)."""
        return len(self.vocab)

    @property
    def target_vocab_size(self) -> int:
        """Entries of the decoding vocabulary: target_vocab.json where separate, else vocab.json."""
        return len(self.target_vocab if self.target_vocab is not None else self.vocab)

    @property
    def special_ids(self) -> frozenset[int]:
        """Ids decode drops with skip_special_tokens: eos, unk, pad and extra special tokens."""
        return self._special_ids

    # -- text

    def encode(self, text: str | Sequence[str]) -> list[int] | list[list[int]]:
        """Source ids of `text` (a list of texts: one list each), "</s>" appended."""
        if isinstance(text, str):
            return self._encode(text, self._source, self.vocab)
        return [self._encode(t, self._source, self.vocab) for t in text]

    def encode_target(self, text: str | Sequence[str]) -> list[int] | list[list[int]]:
        """Target ids of `text` (transformers' `text_target`), "</s>" appended."""
        vocab = self.target_vocab if self.target_vocab is not None else self.vocab
        if isinstance(text, str):
            return self._encode(text, self._target, vocab)
        return [self._encode(t, self._target, vocab) for t in text]

    def _encode(self, text: str, spm: sentencepiece.SentencePieceProcessor, vocab: Mapping[str, int]) -> list[int]:
        unk = vocab[self.config.unk_token]
        ids = []
        # re.split with one group alternates text, added token, text, ...: odd chunks are added tokens.
        for index, chunk in enumerate(self._added_pattern.split(text)):
            if index % 2:
                ids.append(self._added[chunk])
                continue
            code, rest = _split_language_code(chunk)
            tokens = ([code] if code else []) + (spm.encode(rest, out_type=str) if rest else [])
            ids.extend(self._added.get(t, vocab.get(t, unk)) for t in tokens)
        return ids + [self.eos_id]

    def batch(self, texts: Sequence[str], text_target: Sequence[str] | None = None) -> dict[str, torch.Tensor]:
        """`tokenizer(texts, text_target=..., padding=True, return_tensors="pt")`: input_ids (B, T) and
        attention_mask (B, T), right-padded with pad_id; with text_target also labels (B, T') of the target
        ids, padded with pad_id as transformers pads them (not -100)."""
        input_ids, attention_mask = pad_sequences(self.encode(list(texts)), self.pad_id)
        out = {"input_ids": input_ids, "attention_mask": attention_mask}
        if text_target is not None:
            if len(text_target) != len(texts):
                raise ValueError(f"{len(texts)} texts but {len(text_target)} targets: expected one target each")
            out["labels"] = pad_sequences(self.encode_target(list(text_target)), self.pad_id)[0]
        return out

    def decode(self, ids: Iterable[int] | torch.Tensor, skip_special_tokens: bool = True) -> str:
        """Text of `ids` (a 1-D list or tensor), as transformers' decode with the same skip_special_tokens."""
        ids = ids.tolist() if hasattr(ids, "tolist") else [int(i) for i in ids]
        unknown = [i for i in ids if i not in self._id_to_token]
        if unknown:
            raise ValueError(f"token ids {unknown[:5]} are not in the vocabulary: expected ids of its "
                             f"{len(self._id_to_token)} tokens")
        tokens = [self._id_to_token[i] for i in ids if not (skip_special_tokens and i in self._special_ids)]
        parts = []
        for special, run in itertools.groupby(tokens, key=self._special_tokens.__contains__):
            run = list(run)
            parts.append("".join(t + " " for t in run) if special else self._decoding_spm.decode_pieces(run))
        text = "".join(parts).replace(WORD_BOUNDARY, " ").strip()
        if self.config.clean_up_tokenization_spaces:
            for before, after in _CLEAN_UP:
                text = text.replace(before, after)
        return text

    def batch_decode(self, rows: Iterable[Iterable[int]] | torch.Tensor, skip_special_tokens: bool = True
                     ) -> list[str]:
        """`decode` of each row of a list of id lists or a (B, T) tensor."""
        return [self.decode(row, skip_special_tokens) for row in rows]

    # -- files

    def save(self, directory: PathLike) -> Path:
        """Write the Marian files (source.spm, target.spm, vocab.json, target_vocab.json where separate,
        tokenizer_config.json, special_tokens_map.json) that transformers' MarianTokenizer loads; returns
        the directory."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        (directory / SOURCE_SPM).write_bytes(self.source_spm)
        (directory / TARGET_SPM).write_bytes(self.target_spm)
        _write_json(directory / VOCAB, self.vocab)
        if self.target_vocab is not None:
            _write_json(directory / TARGET_VOCAB, self.target_vocab)
        c = self.config
        roles = {"eos_token": c.eos_token, "unk_token": c.unk_token, "pad_token": c.pad_token}
        added = {str(i): {"content": t, "lstrip": False, "normalized": False, "rstrip": False,
                          "single_word": False, "special": t in self._special_tokens}
                 for t, i in sorted(self._added.items(), key=lambda item: item[1])}
        config = {"tokenizer_class": "MarianTokenizer", "source_lang": c.source_lang, "target_lang": c.target_lang,
                  "separate_vocabs": c.separate_vocabs, **roles, "extra_special_tokens": list(c.extra_special_tokens),
                  "clean_up_tokenization_spaces": c.clean_up_tokenization_spaces, "added_tokens_decoder": added}
        _write_json(directory / CONFIG, config)
        _write_json(directory / SPECIAL_TOKENS_MAP, roles)
        return directory

    def __repr__(self) -> str:
        vocabs = f"{self.vocab_size}+{self.target_vocab_size}" if self.target_vocab is not None else self.vocab_size
        return (f"MarianSentencePiece(vocab_size={vocabs}, source_lang={self.config.source_lang!r}, "
                f"target_lang={self.config.target_lang!r})")


def _split_language_code(text: str) -> tuple[str, str]:
    """(">>es<<", " hola") for ">>es<< hola": a chunk starting with ">>" up to the first "<<"; else ("", text)."""
    end = text.find("<<") if text.startswith(">>") else -1
    return (text[:end + 2], text[end + 2:]) if end >= 0 else ("", text)


def _processor(model: bytes, name: str) -> sentencepiece.SentencePieceProcessor:
    try:
        return sentencepiece.SentencePieceProcessor(model_proto=model)
    except RuntimeError as e:
        raise ValueError(f"{name} is not a SentencePiece model: {e}") from e


def _checked_vocab(vocab: Mapping[str, int], name: str, required: Sequence[str]) -> dict[str, int]:
    """`vocab` as a dict after checking it maps strings to distinct ids >= 0 and holds `required`."""
    vocab = dict(vocab)
    bad = [(t, i) for t, i in vocab.items() if not isinstance(t, str) or isinstance(i, bool)
           or not isinstance(i, int) or i < 0]
    if bad:
        raise ValueError(f"{name} maps {bad[:3]}: expected token strings to ids >= 0")
    if len(set(vocab.values())) != len(vocab):
        seen = sorted(vocab.values())
        twice = sorted({a for a, b in zip(seen, seen[1:]) if a == b})
        raise ValueError(f"{name} gives ids {twice[:5]} to more than one token: expected one token per id")
    missing = [t for t in dict.fromkeys(required) if t not in vocab]
    if missing:
        raise ValueError(f"{name} lacks the special tokens {missing}: a Marian {name} maps every piece and the "
                         "specials to the model's ids (Opus-MT: '</s>' 0, '<unk>' 1, the pieces, '<pad>' last)")
    return vocab


def _read_vocab(path: Path) -> dict:
    try:
        vocab = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ValueError(f"{path} is not valid JSON: {e}") from e
    if not isinstance(vocab, dict):
        raise ValueError(f"{path} holds a {type(vocab).__name__}: expected an object mapping pieces to ids")
    return vocab


def _write_json(path: Path, data) -> None:
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


# ----------------------------------------------------------------------------- training

def marian_vocab(spm_model: bytes, language_codes: Sequence[str] = ()) -> dict[str, int]:
    """Marian's vocab.json for one SentencePiece model: "</s>" 0, "<unk>" 1, every other piece in
    SentencePiece's order (its control pieces <s> </s> left out), the ">>xx<<" tokens of `language_codes`,
    "<pad>" last."""
    sp = _processor(spm_model, "the SentencePiece model")
    pieces = [sp.id_to_piece(i) for i in range(sp.get_piece_size()) if not (sp.is_control(i) or sp.is_unknown(i))]
    tokens = ["</s>", "<unk>", *pieces, *(f">>{code}<<" for code in language_codes), "<pad>"]
    if len(set(tokens)) != len(tokens):
        raise ValueError(f"language codes {list(language_codes)} repeat a token of the vocabulary")
    return {token: i for i, token in enumerate(tokens)}


def train_joint_vocabulary(source_texts: Iterable[str], target_texts: Iterable[str], directory: PathLike,
                           vocab_size: int, *, model_type: str = "unigram", character_coverage: float = 1.0,
                           language_codes: Sequence[str] = (), source_lang: str | None = None,
                           target_lang: str | None = None) -> MarianSentencePiece:
    """Train ONE SentencePiece model on both languages and write it as a Marian directory; returns its tokenizer.

    The model is saved as both source.spm and target.spm, with one vocab.json (`marian_vocab`) of exactly
    `vocab_size` entries, the ">>xx<<" language codes included (Opus-MT's multi-target models start each
    source text with one; they are stripped from the training text). Unigram by default, as Opus-MT. The
    sentences go to SentencePiece in memory (nothing is written but the directory), on one thread and
    unshuffled, so the same texts give the same files.
    """
    codes = tuple(language_codes)
    texts = [text for text in (_split_language_code(t)[1].strip() for t in itertools.chain(source_texts, target_texts))
             if text]
    if not texts:
        raise ValueError("no training text: expected non-empty source or target sentences")
    # SentencePiece's model has <unk> <s> </s> + pieces; vocab.json drops <s> and adds <pad> and the codes.
    pieces = vocab_size - len(codes)
    model = io.BytesIO()
    try:
        sentencepiece.SentencePieceTrainer.train(
            sentence_iterator=iter(texts), model_writer=model, vocab_size=pieces, model_type=model_type,
            character_coverage=character_coverage, unk_id=0, bos_id=1, eos_id=2, pad_id=-1, num_threads=1,
            input_sentence_size=0, shuffle_input_sentence=False, minloglevel=2)
    except RuntimeError as e:
        raise ValueError(f"SentencePiece cannot train a {model_type} model of {pieces} pieces "
                         f"(vocab_size={vocab_size} less {len(codes)} language codes) on {len(texts)} sentences: "
                         f"{e}") from e
    proto = model.getvalue()
    config = MarianTokenizerConfig(source_lang=source_lang, target_lang=target_lang)
    tokenizer = MarianSentencePiece(proto, proto, marian_vocab(proto, codes), config=config)
    tokenizer.save(directory)
    return tokenizer
