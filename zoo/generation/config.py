"""The decoding options of every strategy, as a frozen dataclass (as openai-whisper's DecodingOptions).

Every option is checked here, once, whichever entry point (zoo.generate, zoo.stream, beam_search,
speculative_generate, a command line) built it: its type against the annotation (zoo.registry.check_values,
as for every config), then its range; an error names the option, the value and what it should be.
Sequences of ids become tuples. What needs the model (ids inside its vocabulary) is `check_ids`, which
each strategy calls with its model's vocabulary size.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

from zoo.registry import ConfigError, check_ranges, check_values


@dataclass(frozen=True)
class GenerationConfig:
    max_new_tokens: int = 32
    do_sample: bool = False
    temperature: float = 1.0          # 0 only when greedy (where it is unused)
    top_k: int = 0                    # keep the k most likely tokens; 0 = off
    top_p: float = 1.0                # nucleus: smallest set with this much probability; 1.0 = off
    min_p: float = 0.0                # drop tokens below min_p x the top token's probability; 0 = off
    repetition_penalty: float = 1.0   # CTRL (Keskar et al. 2019): divide positive / multiply negative logits
    eos_id: int | tuple[int, ...] | None = None        # one id or several
    stop_sequences: tuple[tuple[int, ...], ...] = ()   # stop once a row ends with any of these
    pad_id: int | None = None         # what a stopped row yields; None: the first EOS id, else 0
    bad_words_ids: tuple[tuple[int, ...], ...] = ()    # never generate these sequences (a last token banned
                                                       # where the rest precedes it), as transformers
    no_repeat_ngram_size: int = 0     # never repeat an n-gram of this size in a row (prompt included); 0 = off
    forced_eos_id: int | None = None  # the last step (max_new_tokens) can only give this id, as transformers
    num_beams: int = 1
    length_penalty: float = 1.0       # beam score = sum log p / (new tokens ** length_penalty)
    early_stopping: bool | str = False  # True | False | "never", as in transformers
    compile: bool = False             # one-token steps through torch.compile (fixed shapes); see session.Session

    def __post_init__(self):
        for name in ("do_sample", "compile"):  # a NumPy bool (temperature > 0 on a NumPy float) is a bool here
            value = getattr(self, name)
            if type(value).__module__ == "numpy" and value in (True, False):
                object.__setattr__(self, name, bool(value))
        check_values(GenerationConfig, {f.name: getattr(self, f.name) for f in fields(self)}, "GenerationConfig")
        if isinstance(self.eos_id, list):  # a list from JSON or a caller: one tuple type from here on
            object.__setattr__(self, "eos_id", tuple(self.eos_id))
        object.__setattr__(self, "stop_sequences", tuple(map(tuple, self.stop_sequences)))
        object.__setattr__(self, "bad_words_ids", tuple(map(tuple, self.bad_words_ids)))
        sampling = self.do_sample
        check_ranges(self, [
            ("max_new_tokens", lambda n: n >= 1, "an int >= 1"), ("top_k", lambda k: k >= 0, "an int >= 0"),
            ("num_beams", lambda n: n >= 1, "an int >= 1"),
            ("temperature", lambda t: t > 0 if sampling else t >= 0,
             "a finite number > 0 when sampling" if sampling else "a finite number >= 0"),
            ("top_p", lambda p: 0 < p <= 1, "a number in (0, 1]"),
            ("min_p", lambda p: 0 <= p < 1, "a number in [0, 1)"),
            ("repetition_penalty", lambda r: r > 0, "a finite number > 0"),
            ("length_penalty", lambda _: True, "a finite number"),
            ("early_stopping", lambda e: isinstance(e, bool) or e == "never", "True, False or 'never'"),
            ("eos_id", lambda _: all(i >= 0 for i in self.eos_ids), "token ids >= 0"),
            ("stop_sequences", lambda stops: all(s and min(s) >= 0 for s in stops),
             "non-empty sequences of token ids >= 0"),
            ("bad_words_ids", lambda bad: all(s and min(s) >= 0 for s in bad), "non-empty sequences of token ids >= 0"),
            ("no_repeat_ngram_size", lambda n: n >= 0, "an int >= 0"),
            ("pad_id", lambda i: i is None or i >= 0, "a token id >= 0 or None"),
            ("forced_eos_id", lambda i: i is None or i >= 0, "a token id >= 0 or None")])

    @classmethod
    def from_options(cls, **options) -> "GenerationConfig":
        """GenerationConfig(**options), an unknown option named among the known ones."""
        hint = " (transformers' eos_token_id is eos_id here)" if "eos_token_id" in options else ""
        try:
            check_values(cls, options, cls.__name__)
        except ConfigError as error:
            raise ConfigError(f"{error}{hint}") from None
        return cls(**options)

    @property
    def pad(self) -> int:
        """The id a stopped row yields (and finished beams are padded with)."""
        return self.pad_id if self.pad_id is not None else self.eos_ids[0] if self.eos_ids else 0

    @property
    def bans(self) -> bool:
        """Whether any option masks tokens out (bad words, repeated n-grams, a forced EOS)."""
        return bool(self.bad_words_ids or self.no_repeat_ngram_size or self.forced_eos_id is not None)

    @property
    def eos_ids(self) -> tuple[int, ...]:
        return () if self.eos_id is None else (self.eos_id,) if isinstance(self.eos_id, int) else tuple(self.eos_id)

    def check_ids(self, vocab_size: int) -> None:
        """Every id the options name (eos_id, stop_sequences) lies in the model's vocabulary [0, vocab_size):
        one outside it would never be generated, so the decoding would never stop there."""
        named = (("eos_id", self.eos_ids), ("stop_sequences", sum(self.stop_sequences, ())),
                 ("bad_words_ids", sum(self.bad_words_ids, ())),
                 ("forced_eos_id", () if self.forced_eos_id is None else (self.forced_eos_id,)))
        for name, ids in named:
            outside = [i for i in ids if i >= vocab_size]
            if outside:
                raise ConfigError(f"GenerationConfig.{name}={getattr(self, name)!r} holds {outside[0]}, outside the "
                                  f"model's vocabulary; expected token ids in [0, {vocab_size})")

