"""Tokenizers for the text models: train byte-level BPE or WordPiece, load HF files.

Everything runs on the HF `tokenizers` library; this module only chooses the
pieces (normalizer, pre-tokenizer, model, post-processor, decoder) and wraps
the result in a small `Tokenizer` class with the special ids a training script
needs.

- `train_bpe` is GPT-2's recipe: no normalizer, byte-level pre-tokenizer over
  the 256-byte alphabet (so nothing is ever unknown), `<|endoftext|>` special.
- `train_wordpiece` is BERT's: BertNormalizer (lowercase), BertPreTokenizer,
  WordPiece with `##` continuations, `[CLS] A [SEP] (B [SEP])` post-processing.
- `load_tokenizer` reads tokenizer.json (file or HF model directory), a BERT
  vocab.txt, or a GPT-2 vocab.json + merges.txt.

Checked against transformers 5 `BertTokenizer` (same ids as ours built from the
same vocab.txt, cased and uncased) and against the original tokenizer for the
save/load and vocab.json + merges.txt round trips (tests/data/test_tokenization.py).
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

import tokenizers
from tokenizers import decoders, models, normalizers, pre_tokenizers, processors, trainers

from data.chat_template import render_chat_template

EOT = "<|endoftext|>"
CHAT_TEMPLATE_NAME = "chat_template.jinja"
BERT_SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")

# Token strings tried, in order, for each special role when no config names it.
_ROLE_CANDIDATES: dict[str, tuple[str, ...]] = {
    "pad": ("[PAD]", "<pad>", "<|pad|>"),
    "eos": (EOT, "</s>", "<|end_of_text|>", "<eos>"),
    "bos": ("<s>", "<|begin_of_text|>", "<bos>"),
    "unk": ("[UNK]", "<unk>"),
    "cls": ("[CLS]",),
    "sep": ("[SEP]",),
    "mask": ("[MASK]", "<mask>"),
}

PathLike = str | os.PathLike


class Tokenizer:
    """A `tokenizers.Tokenizer` plus the special-token ids (None where absent).

    `encode` applies the post-processor (BERT: adds [CLS]/[SEP]; byte-level
    BPE: adds nothing); pass add_special_tokens=False for raw pieces.
    """

    def __init__(self, backend: tokenizers.Tokenizer, special_tokens: dict[str, str] | None = None,
                 chat_template: str | None = None):
        # HF tokenizer.json files can carry fixed padding/truncation (all-MiniLM's
        # pads every text to 128). transformers ignores those and so do we:
        # encode gives the text's ids, collators pad and truncate.
        backend.no_padding()
        backend.no_truncation()
        self.backend = backend
        # The checkpoint's Jinja chat template (transformers' apply_chat_template renders it), or None.
        self.chat_template = chat_template
        roles = {role: _find_token(backend, cands) for role, cands in _ROLE_CANDIDATES.items()}
        # An explicit mapping (from tokenizer_config.json) beats the guesses.
        for role, token in (special_tokens or {}).items():
            if role in roles and backend.token_to_id(token) is not None:
                roles[role] = token
        self.special_tokens = {role: tok for role, tok in roles.items() if tok is not None}
        ids = {role: backend.token_to_id(tok) for role, tok in self.special_tokens.items()}
        self.pad_id: int | None = ids.get("pad")
        self.eos_id: int | None = ids.get("eos")
        self.bos_id: int | None = ids.get("bos")
        self.unk_id: int | None = ids.get("unk")
        self.cls_id: int | None = ids.get("cls")
        self.sep_id: int | None = ids.get("sep")
        self.mask_id: int | None = ids.get("mask")

    @property
    def vocab_size(self) -> int:
        return self.backend.get_vocab_size(with_added_tokens=True)

    @property
    def special_ids(self) -> set[int]:
        """Ids of every special token (roles above plus tokens added as special)."""
        added = {i for i, tok in self.backend.get_added_tokens_decoder().items() if tok.special}
        return added | {self.backend.token_to_id(t) for t in self.special_tokens.values()}

    def encode(self, text: str, pair: str | None = None, add_special_tokens: bool = True) -> list[int]:
        return self.backend.encode(text, pair, add_special_tokens=add_special_tokens).ids

    def encode_pair(self, text: str, pair: str) -> tuple[list[int], list[int]]:
        """(input_ids, token_type_ids) for a sentence pair, specials included."""
        enc = self.backend.encode(text, pair)
        return enc.ids, enc.type_ids

    def encode_batch(self, texts: Sequence[str], add_special_tokens: bool = True) -> list[list[int]]:
        return [e.ids for e in self.backend.encode_batch(list(texts), add_special_tokens=add_special_tokens)]

    def decode(self, ids: Sequence[int], skip_special_tokens: bool = True) -> str:
        return self.backend.decode([int(i) for i in ids], skip_special_tokens=skip_special_tokens)

    def apply_chat_template(self, conversation: list[dict], add_generation_prompt: bool = False,
                            tokenize: bool = True, chat_template: str | None = None, **kwargs) -> list[int] | str:
        """The conversation ([{"role": ..., "content": ...}, ...]) through the checkpoint's chat template, as
        transformers' method of that name: the token ids (tokenize=True; the template writes the special tokens,
        so none are added) or the text. add_generation_prompt ends with the assistant's turn header; kwargs
        (tools, documents, ...) reach the template beside the special tokens (bos_token, eos_token, ...)."""
        template = chat_template or self.chat_template
        if template is None:
            raise ValueError("this tokenizer has no chat template: its checkpoint has no chat_template.jinja nor a "
                             "\"chat_template\" in tokenizer_config.json; pass chat_template=")
        specials = {f"{role}_token": token for role, token in self.special_tokens.items()}
        text = render_chat_template(template, conversation, add_generation_prompt=add_generation_prompt,
                                    **{**specials, **kwargs})
        return self.encode(text, add_special_tokens=False) if tokenize else text

    def token_to_id(self, token: str) -> int | None:
        return self.backend.token_to_id(token)

    def id_to_token(self, idx: int) -> str | None:
        return self.backend.id_to_token(idx)

    def save(self, directory: PathLike) -> Path:
        """Write `directory/tokenizer.json` (and a tokenizer_config.json naming the
        special tokens, so HF and `load_tokenizer` agree on the roles; chat_template.jinja where
        there is a chat template); returns the json path."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / "tokenizer.json"
        self.backend.save(str(path))
        config = {f"{role}_token": tok for role, tok in self.special_tokens.items()}
        (directory / "tokenizer_config.json").write_text(json.dumps(config, indent=2) + "\n")
        if self.chat_template is not None:  # where transformers 5 saves it
            (directory / CHAT_TEMPLATE_NAME).write_text(self.chat_template, encoding="utf-8")
        return path

    def __repr__(self) -> str:
        return f"Tokenizer(model={type(self.backend.model).__name__}, vocab_size={self.vocab_size})"


def _find_token(backend: tokenizers.Tokenizer, candidates: Iterable[str]) -> str | None:
    return next((t for t in candidates if backend.token_to_id(t) is not None), None)


# ----------------------------------------------------------------------------- training

def _train(backend: tokenizers.Tokenizer, source, trainer) -> None:
    """Train from a path, a list of paths, or an iterable of strings."""
    files = _as_files(source)
    if files is not None:
        backend.train([str(f) for f in files], trainer)
    else:
        backend.train_from_iterator(source, trainer)


def _as_files(source) -> list[Path] | None:
    """The files `source` names, or None when it is an iterable of texts.

    A single str/Path is always a path; a list counts as paths when every item
    is a Path or an existing file (a list of sentences is not).
    """
    if isinstance(source, (str, os.PathLike)):
        items = [source]
    elif isinstance(source, (list, tuple)) and source and all(
            isinstance(s, os.PathLike) or (isinstance(s, str) and os.path.isfile(s)) for s in source):
        items = list(source)
    else:
        return None
    paths = [Path(s) for s in items]
    for p in paths:
        if not p.is_file():
            raise FileNotFoundError(f"training file {str(p)!r} does not exist (expected a text file)")
    return paths


def train_bpe(files_or_iterator, vocab_size: int, special_tokens: Sequence[str] = (EOT,),
              min_frequency: int = 2) -> Tokenizer:
    """GPT-2 style byte-level BPE. The 256 byte symbols are always in the vocab."""
    floor = 256 + len(special_tokens)
    if vocab_size < floor:
        raise ValueError(f"vocab_size={vocab_size} is too small for byte-level BPE: "
                         f"expected at least {floor} (256 bytes + {len(special_tokens)} special tokens)")
    backend = tokenizers.Tokenizer(models.BPE())
    # add_prefix_space=False as in GPT-2; use_regex=True keeps GPT-2's split pattern.
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    backend.decoder = decoders.ByteLevel()
    backend.post_processor = processors.ByteLevel(trim_offsets=False)
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, min_frequency=min_frequency, special_tokens=list(special_tokens),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    _train(backend, files_or_iterator, trainer)
    return Tokenizer(backend)


def _bert_pipeline(backend: tokenizers.Tokenizer, lowercase: bool, strip_accents: bool | None = None,
                   chinese_chars: bool = True) -> None:
    # The same pieces as transformers' BertTokenizer / tokenizers' BertWordPieceTokenizer.
    backend.normalizer = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=chinese_chars, strip_accents=strip_accents, lowercase=lowercase)
    backend.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    backend.decoder = decoders.WordPiece(prefix="##")


def _bert_post_processor(backend: tokenizers.Tokenizer, cls: str = "[CLS]", sep: str = "[SEP]") -> None:
    cls_id, sep_id = backend.token_to_id(cls), backend.token_to_id(sep)
    if cls_id is None or sep_id is None:
        raise ValueError(f"a BERT tokenizer needs {cls} and {sep} in its vocabulary")
    backend.post_processor = processors.TemplateProcessing(
        single=f"{cls}:0 $A:0 {sep}:0",
        pair=f"{cls}:0 $A:0 {sep}:0 $B:1 {sep}:1",
        special_tokens=[(cls, cls_id), (sep, sep_id)])


def train_wordpiece(files_or_iterator, vocab_size: int, lowercase: bool = True,
                    special_tokens: Sequence[str] = BERT_SPECIALS, min_frequency: int = 2) -> Tokenizer:
    """BERT style WordPiece; specials get ids 0.. in the order given ([PAD] = 0)."""
    if vocab_size <= len(special_tokens):
        raise ValueError(f"vocab_size={vocab_size} must exceed the {len(special_tokens)} special tokens")
    backend = tokenizers.Tokenizer(models.WordPiece(unk_token="[UNK]"))
    _bert_pipeline(backend, lowercase)
    trainer = trainers.WordPieceTrainer(
        vocab_size=vocab_size, min_frequency=min_frequency, special_tokens=list(special_tokens),
        continuing_subword_prefix="##", show_progress=False)
    _train(backend, files_or_iterator, trainer)
    _bert_post_processor(backend)
    return Tokenizer(backend)


# ----------------------------------------------------------------------------- loading

def _read_config(directory: Path) -> dict:
    """tokenizer_config.json merged with special_tokens_map.json (HF layout), or {}."""
    config: dict = {}
    for name in ("special_tokens_map.json", "tokenizer_config.json"):
        f = directory / name
        if f.is_file():
            try:
                config.update(json.loads(f.read_text(encoding="utf-8")))
            except json.JSONDecodeError as e:
                raise ValueError(f"{f} is not valid JSON: {e}") from e
    return config


def _config_specials(config: dict) -> dict[str, str]:
    """{"eos": "<|endoftext|>", ...} from HF's "eos_token" entries (str or AddedToken dict)."""
    out = {}
    for role in _ROLE_CANDIDATES:
        value = config.get(f"{role}_token")
        if isinstance(value, dict):
            value = value.get("content")
        if isinstance(value, str):
            out[role] = value
    return out


def _wordpiece_from_vocab(vocab_file: Path, config: dict) -> tokenizers.Tokenizer:
    """Equivalent of tokenizers' BertWordPieceTokenizer(vocab_file, lowercase=...)."""
    # Line number = id, as in transformers' load_vocab (only the newline is stripped).
    lines = vocab_file.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    vocab = {token: i for i, token in enumerate(lines)}
    unk = config.get("unk_token", "[UNK]")
    unk = unk.get("content") if isinstance(unk, dict) else unk
    if unk not in vocab:
        raise ValueError(f"{vocab_file} has no unknown token {unk!r}; expected a BERT vocab.txt")
    backend = tokenizers.Tokenizer(models.WordPiece(vocab, unk_token=unk))
    _bert_pipeline(backend, lowercase=bool(config.get("do_lower_case", True)),
                   strip_accents=config.get("strip_accents"),
                   chinese_chars=bool(config.get("tokenize_chinese_chars", True)))
    # Registering the specials keeps "[MASK]" in raw text from being split into pieces.
    backend.add_special_tokens([t for t in BERT_SPECIALS if t in vocab])
    _bert_post_processor(backend)
    return backend


def _bpe_from_vocab_merges(vocab_file: Path, merges_file: Path) -> tokenizers.Tokenizer:
    """GPT-2's original vocab.json + merges.txt (byte-level BPE)."""
    backend = tokenizers.Tokenizer(models.BPE.from_file(str(vocab_file), str(merges_file)))
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    backend.decoder = decoders.ByteLevel()
    backend.post_processor = processors.ByteLevel(trim_offsets=False)
    vocab = json.loads(vocab_file.read_text(encoding="utf-8"))
    if EOT in vocab:
        backend.add_special_tokens([EOT])
    return backend


def load_tokenizer(path: PathLike) -> Tokenizer:
    """Load a tokenizer from a tokenizer.json file, a directory holding tokenizer.json
    (an HF model directory), vocab.txt (BERT WordPiece; do_lower_case from
    tokenizer_config.json, default True) or vocab.json + merges.txt (GPT-2 BPE)."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"tokenizer path {str(path)!r} does not exist")
    directory = path if path.is_dir() else path.parent
    config = _read_config(directory)
    tokenizer = _load(path, config)
    tokenizer.chat_template = _chat_template(directory, config)
    return tokenizer


def _chat_template(directory: Path, config: dict) -> str | None:
    """The directory's chat template as transformers keeps it: chat_template.jinja (transformers 5), else
    tokenizer_config.json's "chat_template" (a string, or named templates of which "default" is used)."""
    if (directory / CHAT_TEMPLATE_NAME).is_file():
        return (directory / CHAT_TEMPLATE_NAME).read_text(encoding="utf-8")
    template = config.get("chat_template")
    if isinstance(template, list):  # [{"name": ..., "template": ...}]
        template = {t.get("name"): t.get("template") for t in template if isinstance(t, dict)}.get("default")
    return template if isinstance(template, str) else None


def _load(path: Path, config: dict) -> Tokenizer:
    specials = _config_specials(config)
    if path.is_file():
        if path.suffix == ".json" and path.name != "vocab.json":
            return Tokenizer(_from_json(path), specials)
        if path.suffix == ".txt":
            return Tokenizer(_wordpiece_from_vocab(path, config), specials)
        raise ValueError(f"cannot load a tokenizer from {str(path)!r}: expected tokenizer.json, "
                         "vocab.txt, or a directory containing one of them")
    if (path / "tokenizer.json").is_file():
        return Tokenizer(_from_json(path / "tokenizer.json"), specials)
    if (path / "vocab.txt").is_file():
        return Tokenizer(_wordpiece_from_vocab(path / "vocab.txt", config), specials)
    if (path / "vocab.json").is_file() and (path / "merges.txt").is_file():
        return Tokenizer(_bpe_from_vocab_merges(path / "vocab.json", path / "merges.txt"), specials)
    found = sorted(p.name for p in path.iterdir())[:10]
    raise FileNotFoundError(f"no tokenizer in directory {str(path)!r}: expected tokenizer.json, vocab.txt, "
                            f"or vocab.json + merges.txt; found {found}")


def _from_json(path: Path) -> tokenizers.Tokenizer:
    try:
        return tokenizers.Tokenizer.from_file(str(path))
    except Exception as e:  # the Rust side raises a bare Exception for malformed files
        raise ValueError(f"{str(path)!r} is not a valid tokenizer.json: {e}") from e
