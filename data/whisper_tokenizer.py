"""Whisper's tokenizer: GPT-2 byte-level BPE plus Whisper's special tokens.

Ids come in three ranges, the layout openai-whisper's `get_encoding` and HF's
Whisper tokenizer.json share:

    0 .. n_bpe-1     byte-level BPE tokens (gpt2.tiktoken: 50256, multilingual.tiktoken: 50257)
    eot = n_bpe      <|endoftext|>, <|startoftranscript|>, one <|xx|> per language,
                     <|translate|>, <|transcribe|>, <|startoflm|>, <|startofprev|>,
                     <|nospeech|> (HF's older files: <|nocaptions|>), <|notimestamps|>
    timestamp_begin  1501 timestamps <|0.00|> .. <|30.00|>, 0.02 s apart

Encoding runs on the HF `tokenizers` library. A `.tiktoken` file lists
base64(token bytes) and rank; tiktoken merges the adjacent pair whose
concatenation has the lowest rank. We give `tokenizers` the same BPE: tokens
written as GPT-2's byte-level characters, and one merge (left, right) for every
split of every token into two tokens, ordered by the merged token's rank; with
`ignore_merges` a pre-token that is itself a token is taken whole, as tiktoken
does. The pre-tokenizer is `ByteLevel(use_regex=True)`, whose split pattern is
the one openai-whisper gives tiktoken.

Checked against openai-whisper 20250625's `get_tokenizer` (ids for English-only
and multilingual vocabularies, every special id, sot_sequence, non_speech_tokens,
decode, decode_with_timestamps) and transformers 5's `WhisperTokenizer` reading
our tokenizer.json (tests/data/test_whisper_tokenizer.py).
"""
from __future__ import annotations

import base64
import binascii
import importlib.util
import json
import os
import re
from collections.abc import Iterable
from functools import cached_property, lru_cache
from pathlib import Path

import tokenizers
from tokenizers import AddedToken, decoders, models, pre_tokenizers

# Language tokens follow <|startoftranscript|> in this order. v1/v2 multilingual
# vocabularies have the first 99 (51865 ids), large-v3 all 100 (51866 ids).
LANGUAGES = {
    "en": "english", "zh": "chinese", "de": "german", "es": "spanish", "ru": "russian",
    "ko": "korean", "fr": "french", "ja": "japanese", "pt": "portuguese", "tr": "turkish",
    "pl": "polish", "ca": "catalan", "nl": "dutch", "ar": "arabic", "sv": "swedish",
    "it": "italian", "id": "indonesian", "hi": "hindi", "fi": "finnish", "vi": "vietnamese",
    "he": "hebrew", "uk": "ukrainian", "el": "greek", "ms": "malay", "cs": "czech",
    "ro": "romanian", "da": "danish", "hu": "hungarian", "ta": "tamil", "no": "norwegian",
    "th": "thai", "ur": "urdu", "hr": "croatian", "bg": "bulgarian", "lt": "lithuanian",
    "la": "latin", "mi": "maori", "ml": "malayalam", "cy": "welsh", "sk": "slovak",
    "te": "telugu", "fa": "persian", "lv": "latvian", "bn": "bengali", "sr": "serbian",
    "az": "azerbaijani", "sl": "slovenian", "kn": "kannada", "et": "estonian", "mk": "macedonian",
    "br": "breton", "eu": "basque", "is": "icelandic", "hy": "armenian", "ne": "nepali",
    "mn": "mongolian", "bs": "bosnian", "kk": "kazakh", "sq": "albanian", "sw": "swahili",
    "gl": "galician", "mr": "marathi", "pa": "punjabi", "si": "sinhala", "km": "khmer",
    "sn": "shona", "yo": "yoruba", "so": "somali", "af": "afrikaans", "oc": "occitan",
    "ka": "georgian", "be": "belarusian", "tg": "tajik", "sd": "sindhi", "gu": "gujarati",
    "am": "amharic", "yi": "yiddish", "lo": "lao", "uz": "uzbek", "fo": "faroese",
    "ht": "haitian creole", "ps": "pashto", "tk": "turkmen", "nn": "nynorsk", "mt": "maltese",
    "sa": "sanskrit", "lb": "luxembourgish", "my": "myanmar", "bo": "tibetan", "tl": "tagalog",
    "mg": "malagasy", "as": "assamese", "tt": "tatar", "haw": "hawaiian", "ln": "lingala",
    "ha": "hausa", "ba": "bashkir", "jw": "javanese", "su": "sundanese", "yue": "cantonese",
}
# Language name (and openai-whisper's aliases) -> code.
TO_LANGUAGE_CODE = {name: code for code, name in LANGUAGES.items()} | {
    "burmese": "my", "valencian": "ca", "flemish": "nl", "haitian": "ht", "letzeburgesch": "lb",
    "pushto": "ps", "panjabi": "pa", "moldavian": "ro", "moldovan": "ro", "sinhalese": "si",
    "castilian": "es", "mandarin": "zh", "iw": "he",  # iw: Hebrew's code before 1989, in HF's older files
}

NUM_TIMESTAMPS = 1501          # <|0.00|> .. <|30.00|>
TIME_PRECISION = 0.02          # seconds per timestamp step
MULTILINGUAL_MIN_VOCAB = 51865  # openai-whisper: is_multilingual = n_vocab >= 51865
LAYOUT_FILE = "whisper_special_tokens.json"

# Role -> token text, in id order between eot and the first language / after the last one.
_HEAD = {"eot": "<|endoftext|>", "sot": "<|startoftranscript|>"}
_TAIL = {"translate": "<|translate|>", "transcribe": "<|transcribe|>", "sot_lm": "<|startoflm|>",
         "sot_prev": "<|startofprev|>", "no_speech": "<|nospeech|>", "no_timestamps": "<|notimestamps|>"}
_OLD_NO_SPEECH = "<|nocaptions|>"  # <|nospeech|>'s name in HF's earlier Whisper files

PathLike = str | os.PathLike


def timestamp_text(index: int) -> str:
    """The text of timestamp token `index` (0..1500): "<|1.08|>" for 54."""
    return f"<|{index * TIME_PRECISION:.2f}|>"


def special_token_names(num_languages: int = 99) -> list[str]:
    """Every special token text in id order, starting at eot (openai-whisper's order)."""
    if not 0 <= num_languages <= len(LANGUAGES):
        raise ValueError(f"num_languages={num_languages} is out of range: expected 0..{len(LANGUAGES)}")
    languages = [f"<|{code}|>" for code in list(LANGUAGES)[:num_languages]]
    return [*_HEAD.values(), *languages, *_TAIL.values(), *map(timestamp_text, range(NUM_TIMESTAMPS))]


# ----------------------------------------------------------------------------- BPE from ranks

def _byte_symbols() -> list[str]:
    """GPT-2's reversible byte -> character map, by byte value: printable Latin-1 bytes stand for
    themselves; the 68 others (controls, space, DEL, NBSP, soft hyphen) take U+0100, U+0101, ... in order."""
    printable = {*range(0x21, 0x7F), *range(0xA1, 0xAD), *range(0xAE, 0x100)}
    moved = iter(range(0x100, 0x200))
    return [chr(b) if b in printable else chr(next(moved)) for b in range(256)]


def read_tiktoken(path: PathLike) -> dict[bytes, int]:
    """Ranks from a `.tiktoken` file: one `base64(token bytes) rank` per line; ranks must be 0..n-1."""
    ranks: dict[bytes, int] = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                token, rank = line.split()
                # Not validate=True: multilingual.tiktoken's "= 50256" is bare padding (an empty token).
                ranks[base64.b64decode(token)] = int(rank)
            except (ValueError, binascii.Error) as e:
                raise ValueError(f"{path}: line {number} is {line.strip()[:60]!r}: "
                                 f"expected 'base64-token rank' ({e})") from e
    if sorted(ranks.values()) != list(range(len(ranks))):
        raise ValueError(f"{path}: ranks must be 0..{len(ranks) - 1}, each once (a truncated or corrupt file?)")
    return ranks


def bpe_from_ranks(ranks: dict[bytes, int]) -> tokenizers.Tokenizer:
    """A byte-level BPE `tokenizers.Tokenizer` that encodes as tiktoken does with these ranks."""
    symbols = _byte_symbols()

    def text(token: bytes) -> str:
        return "".join(symbols[b] for b in token)

    vocab = {text(token): rank for token, rank in ranks.items()}
    # tiktoken merges any adjacent pair whose concatenation is a token, so every split of a token into
    # two tokens is a merge, ranked by the merged token. (Two splits of one token pending at once: tiktoken
    # takes the leftmost, we the lower split; ~400k stress texts never told the two apart.)
    merges = sorted((rank, ranks[token[:i]], text(token[:i]), text(token[i:]))
                    for token, rank in ranks.items() for i in range(1, len(token))
                    if token[:i] in ranks and token[i:] in ranks)
    backend = tokenizers.Tokenizer(models.BPE(vocab, [(a, b) for _, _, a, b in merges], ignore_merges=True))
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    backend.decoder = decoders.ByteLevel()
    return backend


def _add_specials(backend: tokenizers.Tokenizer, names: list[str]) -> None:
    """Append `names` at the next ids: control tokens as special, timestamps not (HF's layout)."""
    start = backend.get_vocab_size(with_added_tokens=True)
    control = [n for n in names if not _is_timestamp(n)]
    backend.add_special_tokens([AddedToken(n, normalized=False, special=True) for n in control])
    backend.add_tokens([AddedToken(n, normalized=False, special=False) for n in names if _is_timestamp(n)])
    wrong = [(n, backend.token_to_id(n)) for i, n in enumerate(names, start) if backend.token_to_id(n) != i]
    if wrong:
        raise ValueError(f"special tokens landed on the wrong ids {wrong[:3]}: the vocabulary already "
                         f"has some of them (expected them appended from id {start})")


def _canonical(found: str, expected: str) -> str:
    """`expected` where `found` is an older name for its slot (<|nocaptions|>; <|iw|> or any <|xx|> for a language,
    which is its position, as openai-whisper reads it), else `found`."""
    old_no_speech = found == _OLD_NO_SPEECH and expected == _TAIL["no_speech"]
    language = expected not in (*_HEAD.values(), *_TAIL.values()) and re.fullmatch(r"<\|[a-z]{2,3}\|>", found)
    return expected if old_no_speech or language else found


def _is_timestamp(name: str) -> bool:
    return name.startswith("<|") and name[2:3].isdigit()


# ----------------------------------------------------------------------------- the tokenizer

class WhisperTokenizer:
    """Whisper's byte-level BPE with the ids transcription needs.

    `backend` is a `tokenizers.Tokenizer` holding Whisper's special tokens by
    name; their ids are looked up, checked against openai-whisper's layout, and
    timestamps are appended when the file has none (HF's early Whisper files).
    `multilingual` defaults to openai-whisper's rule: vocab_size >= 51865.
    """

    def __init__(self, backend: tokenizers.Tokenizer, *, multilingual: bool | None = None):
        backend.no_padding()
        backend.no_truncation()
        self.backend = backend
        self.eot, self.sot = (self._require(role, name) for role, name in _HEAD.items())
        (self.translate, self.transcribe, self.sot_lm, self.sot_prev, self.no_speech,
         self.no_timestamps) = (self._require(role, name) for role, name in _TAIL.items())  # _TAIL's order
        self.num_languages = self.translate - self.sot - 1
        found = [backend.id_to_token(i) for i in range(self.eot, self.no_timestamps + 1)]
        expected = special_token_names(self.num_languages)[:-NUM_TIMESTAMPS]
        if [_canonical(t, e) for t, e in zip(found, expected)] != expected:
            raise ValueError(f"special tokens are not in Whisper's order: ids {self.eot}.. hold "
                             f"{found[:4]} ... {found[-3:]}, expected {expected[:4]} ... {expected[-3:]}")
        # An HF English vocab has <|endoftext|> among its BPE tokens: make each control token special.
        backend.add_special_tokens([AddedToken(t, normalized=False, special=True) for t in found])
        self.timestamp_begin = self.no_timestamps + 1
        self._ensure_timestamps()
        self.vocab_size = self.timestamp_begin + NUM_TIMESTAMPS
        self.multilingual = self.vocab_size >= MULTILINGUAL_MIN_VOCAB if multilingual is None else multilingual

    def _require(self, role: str, name: str) -> int:
        for candidate in (name, _OLD_NO_SPEECH) if role == "no_speech" else (name,):
            if (idx := self.backend.token_to_id(candidate)) is not None:
                return idx
        raise ValueError(f"not a Whisper vocabulary: it has no {name} token ({role})")

    def _ensure_timestamps(self) -> None:
        first = self.backend.token_to_id(timestamp_text(0))
        if first is None:
            _add_specials(self.backend, [timestamp_text(i) for i in range(NUM_TIMESTAMPS)])
        elif first != self.timestamp_begin:
            raise ValueError(f"<|0.00|> has id {first}: expected {self.timestamp_begin} (after <|notimestamps|>)")
        last = self.backend.token_to_id(timestamp_text(NUM_TIMESTAMPS - 1))
        if last != self.timestamp_begin + NUM_TIMESTAMPS - 1:
            raise ValueError(f"<|30.00|> has id {last}: expected {self.timestamp_begin + NUM_TIMESTAMPS - 1}")

    @classmethod
    def from_tiktoken(cls, path: PathLike, num_languages: int = 99) -> WhisperTokenizer:
        """Build from an openai-whisper `.tiktoken` file plus the specials it appends."""
        backend = bpe_from_ranks(read_tiktoken(path))
        _add_specials(backend, special_token_names(num_languages))
        return cls(backend)

    # -- ids transcription needs

    @property
    def all_language_codes(self) -> tuple[str, ...]:
        return tuple(LANGUAGES)[:self.num_languages]

    @property
    def all_language_tokens(self) -> tuple[int, ...]:
        return tuple(range(self.sot + 1, self.sot + 1 + self.num_languages))

    def language_token(self, language: str) -> int:
        """Id of `<|xx|>` for a code ("fr") or a name ("French")."""
        code = TO_LANGUAGE_CODE.get(language.lower(), language.lower())
        if code not in self.all_language_codes:
            raise ValueError(f"language {language!r} is not in this vocabulary: expected one of its "
                             f"{self.num_languages} codes {', '.join(self.all_language_codes[:8])}, ... or their names")
        return self.sot + 1 + self.all_language_codes.index(code)

    def sot_sequence(self, language: str | None = None, task: str = "transcribe") -> list[int]:
        """The decoder prompt, as openai-whisper's `get_tokenizer(...).sot_sequence`.

        English-only vocabularies: `[sot]` whatever the arguments. Multilingual:
        `[sot, language, task]`, language "en" when None (a placeholder that
        language detection overwrites, as in openai-whisper's decoding).
        """
        if task not in ("transcribe", "translate"):
            raise ValueError(f"task={task!r}: expected 'transcribe' or 'translate'")
        if not self.multilingual:
            return [self.sot]
        task_id = self.transcribe if task == "transcribe" else self.translate
        return [self.sot, self.language_token(language or "en"), task_id]

    @cached_property
    def non_speech_tokens(self) -> tuple[int, ...]:
        """Ids to suppress so the model does not write speaker tags or sound captions: as openai-whisper's
        list, symbols that are one token, with or without a leading space; the first token of the musical
        symbols U+2669..U+266F (a shared UTF-8 prefix is safe within U+2640..U+267F); " -" and " '" (allowed
        inside words, not at their start). Never a white-space token: openai-whisper's vocabularies have none
        here, but in a learned one (bytes, a small BPE) the first token of " -" is the bare space, and
        suppressing it would leave no way to write a word boundary."""
        symbols = list('"#()*+/:;<=>@[\\]^_`{|}~「」『』')
        symbols += "<< >> <<< >>> -- --- -( -[ (' (\" (( )) ((( ))) [[ ]] {{ }} ♪♪ ♪♪♪".split()
        music = set("♩♪♫♬♭♮♯")
        result = {self.encode(" -")[0], self.encode(" '")[0]}
        for symbol in symbols + sorted(music):
            for ids in (self.encode(symbol), self.encode(" " + symbol)):
                if len(ids) == 1 or symbol in music:
                    result.add(ids[0])
        return tuple(sorted(t for t in result if self.decode([t]).strip()))

    # -- text

    def encode(self, text: str, *, allow_special: bool = False) -> list[int]:
        """Byte-level BPE ids of `text`, no specials added.

        Special-token text such as "<|endoftext|>" inside `text` raises, as
        openai-whisper's encode does, unless allow_special=True maps it to its id.
        """
        ids = self.backend.encode(text, add_special_tokens=False).ids
        if not allow_special and any(i >= self.eot for i in ids):
            token = self.backend.id_to_token(next(i for i in ids if i >= self.eot))
            raise ValueError(f"text contains the special token {token}: pass allow_special=True to "
                             "encode it as that token")
        return ids

    def decode(self, ids: Iterable[int]) -> str:
        """Text of `ids` without timestamp tokens; other specials are written out, as
        openai-whisper's decode does. Broken UTF-8 becomes U+FFFD."""
        ids = self._checked(ids)
        return self.backend.decode([i for i in ids if i < self.timestamp_begin], skip_special_tokens=False)

    def decode_with_timestamps(self, ids: Iterable[int]) -> str:
        """Text of `ids` with every token written out, timestamps as "<|1.08|>"."""
        return self.backend.decode(self._checked(ids), skip_special_tokens=False)

    def _checked(self, ids: Iterable[int]) -> list[int]:
        ids = ids.tolist() if hasattr(ids, "tolist") else [int(i) for i in ids]
        bad = [i for i in ids if not 0 <= i < self.vocab_size]
        if bad:
            raise ValueError(f"token ids {bad[:5]} are outside the vocabulary: expected 0..{self.vocab_size - 1}")
        return ids

    def token_to_id(self, token: str) -> int | None:
        return self.backend.token_to_id(token)

    # -- files

    def layout(self) -> dict:
        """The special-token layout `save` writes next to tokenizer.json."""
        roles = {role: getattr(self, role) for role in (*_HEAD, *_TAIL)}
        return {"multilingual": self.multilingual, "num_languages": self.num_languages,
                "vocab_size": self.vocab_size, "timestamp_begin": self.timestamp_begin, "special_ids": roles}

    def save(self, directory: PathLike) -> Path:
        """Write `directory/tokenizer.json` and `directory/whisper_special_tokens.json`; returns the first."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / "tokenizer.json"
        self.backend.save(str(path))
        (directory / LAYOUT_FILE).write_text(json.dumps(self.layout(), indent=2) + "\n")
        return path

    def __repr__(self) -> str:
        kind = "multilingual" if self.multilingual else "English-only"
        return f"WhisperTokenizer({kind}, vocab_size={self.vocab_size}, num_languages={self.num_languages})"


# ----------------------------------------------------------------------------- loading

def openai_whisper_vocab(multilingual: bool = True) -> Path:
    """The `.tiktoken` file the installed openai-whisper ships (without importing it:
    `import whisper` pulls in torch and numba)."""
    spec = importlib.util.find_spec("whisper")
    name = "multilingual" if multilingual else "gpt2"
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    for folder in folders:
        if (path := Path(folder) / "assets" / f"{name}.tiktoken").is_file():
            return path
    raise ModuleNotFoundError(f"cannot find {name}.tiktoken: openai-whisper is not installed "
                              f"(found {folders or 'no whisper package'}). Install openai-whisper or pass "
                              "source= an HF Whisper directory, a tokenizer.json or a .tiktoken file")


@lru_cache(maxsize=4)  # building the BPE takes about a second; the tokenizer is read-only
def _shipped(multilingual: bool, num_languages: int) -> WhisperTokenizer:
    return WhisperTokenizer.from_tiktoken(openai_whisper_vocab(multilingual), num_languages)


def load_whisper_tokenizer(source: PathLike | None = None, *, multilingual: bool = True,
                           num_languages: int = 99) -> WhisperTokenizer:
    """Load Whisper's tokenizer.

    source: None for the vocabulary openai-whisper ships (`multilingual` picks
    multilingual.tiktoken or gpt2.tiktoken, `num_languages` 99, or 100 for
    large-v3); a `.tiktoken` file (plus `num_languages`); an HF Whisper
    directory or a tokenizer.json (the file decides: `multilingual` and
    `num_languages` are ignored; a whisper_special_tokens.json beside it, written
    by `save`, is checked against it).
    """
    if source is None:
        return _shipped(multilingual, num_languages)
    path = Path(source)
    if path.is_file() and path.suffix == ".tiktoken":
        return WhisperTokenizer.from_tiktoken(path, num_languages)
    if path.is_dir():
        if not (path / "tokenizer.json").is_file():
            found = sorted(p.name for p in path.iterdir())[:10]
            raise FileNotFoundError(f"no tokenizer.json in directory {str(path)!r} (found {found}): "
                                    "expected an HF Whisper directory or one written by WhisperTokenizer.save")
        path = path / "tokenizer.json"
    elif not path.is_file():
        raise FileNotFoundError(f"tokenizer source {str(path)!r} does not exist")
    elif path.suffix != ".json":
        raise ValueError(f"cannot load a Whisper tokenizer from {str(path)!r}: expected a directory, "
                         "a tokenizer.json or a .tiktoken file")
    return _from_json(path)


def _from_json(path: Path) -> WhisperTokenizer:
    try:
        backend = tokenizers.Tokenizer.from_file(str(path))
    except Exception as e:  # the Rust side raises a bare Exception for malformed files
        raise ValueError(f"{str(path)!r} is not a valid tokenizer.json: {e}") from e
    layout_path = path.parent / LAYOUT_FILE
    if not layout_path.is_file():
        return WhisperTokenizer(backend)
    try:
        layout = json.loads(layout_path.read_text(encoding="utf-8"))
        tokenizer = WhisperTokenizer(backend, multilingual=bool(layout["multilingual"]))
    except (json.JSONDecodeError, KeyError, TypeError) as e:
        raise ValueError(f"{layout_path} is not a valid Whisper token layout: {e!r}") from e
    if tokenizer.layout() != layout:
        raise ValueError(f"{layout_path} does not match {path}: it says {layout}, the tokenizer has "
                         f"{tokenizer.layout()}")
    return tokenizer
