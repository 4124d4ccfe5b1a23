"""The decoding options of every strategy, as a frozen dataclass (as openai-whisper's DecodingOptions).

Every option is checked here, once, whichever entry point (zoo.generate, zoo.stream, beam_search,
speculative_generate, a command line) built it: an error names the option, the value and what it
should be. Sequences of ids become tuples. What needs the model (ids inside its vocabulary) is
`check_ids`, which each strategy calls with its model's vocabulary size.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, fields
from numbers import Integral, Real


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
    num_beams: int = 1
    length_penalty: float = 1.0       # beam score = sum log p / (new tokens ** length_penalty)
    early_stopping: bool | str = False  # True | False | "never", as in transformers
    compile: bool = False             # one-token steps through torch.compile (fixed shapes); see session.Session

    def __post_init__(self):
        for name, least in (("max_new_tokens", 1), ("top_k", 0), ("num_beams", 1)):
            _check_int(name, getattr(self, name), least)
        greedy = not self.do_sample
        numbers = [("temperature", lambda t: t >= 0 if greedy else t > 0,
                    "a finite number >= 0 (greedy)" if greedy else "a finite number > 0 when sampling"),
                   ("top_p", lambda p: 0 < p <= 1, "a number in (0, 1]"),
                   ("min_p", lambda p: 0 <= p < 1, "a number in [0, 1)"),
                   ("repetition_penalty", lambda r: r > 0, "a finite number > 0"),
                   ("length_penalty", lambda _: True, "a finite number")]
        for name, ok, expected in numbers:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, Real):
                raise TypeError(f"{name} must be {expected}; got {value!r} ({type(value).__name__})")
            if not (math.isfinite(value) and ok(value)):  # NaN fails every comparison: refused here too
                raise ValueError(f"{name} must be {expected}; got {value!r}")
        for name in ("do_sample", "compile"):  # a NumPy bool (temperature > 0 on a NumPy float) is one too
            value = getattr(self, name)
            if not (isinstance(value, bool) or type(value).__module__ == "numpy" and value in (True, False)):
                raise TypeError(f"{name} must be True or False; got {value!r} ({type(value).__name__})")
            object.__setattr__(self, name, bool(value))
        if not (isinstance(self.early_stopping, bool) or self.early_stopping == "never"):
            raise ValueError(f"early_stopping must be True, False or 'never'; got {self.early_stopping!r}")
        if self.eos_id is not None:
            eos = _ids("eos_id", self.eos_id if _is_sequence(self.eos_id) else (self.eos_id,))
            object.__setattr__(self, "eos_id", eos if _is_sequence(self.eos_id) else eos[0])
        if not _is_sequence(self.stop_sequences) or not all(map(_is_sequence, self.stop_sequences)):
            raise TypeError(f"stop_sequences must be a sequence of token id sequences, e.g. ((13, 13),); got "
                            f"{self.stop_sequences!r}")
        stops = tuple(_ids("stop_sequences", s) for s in self.stop_sequences)
        if any(len(s) == 0 for s in stops):
            raise ValueError(f"stop_sequences must not contain an empty sequence; got {self.stop_sequences!r}")
        object.__setattr__(self, "stop_sequences", stops)

    @classmethod
    def from_options(cls, **options) -> "GenerationConfig":
        """GenerationConfig(**options), with an unknown option named among the known ones (transformers'
        eos_token_id is eos_id here)."""
        known = [f.name for f in fields(cls)]
        unknown = [name for name in options if name not in known]
        if unknown:
            hint = " (transformers' eos_token_id is eos_id here)" if "eos_token_id" in unknown else ""
            raise TypeError(f"unknown generation option(s) {', '.join(unknown)}{hint}; expected some of "
                            f"{', '.join(known)}")
        return cls(**options)

    @property
    def eos_ids(self) -> tuple[int, ...]:
        return () if self.eos_id is None else (self.eos_id,) if isinstance(self.eos_id, int) else tuple(self.eos_id)

    def check_ids(self, vocab_size: int) -> None:
        """Every id the options name (eos_id, stop_sequences) lies in the model's vocabulary [0, vocab_size):
        one outside it would never be generated, so the decoding would never stop there."""
        for name, ids in (("eos_id", self.eos_ids), ("stop_sequences", sum(self.stop_sequences, ()))):
            outside = [i for i in ids if i >= vocab_size]
            if outside:
                raise ValueError(f"{name} holds {outside[0]}, outside the model's vocabulary; expected token ids "
                                 f"in [0, {vocab_size})")


def _check_int(name: str, value, least: int) -> None:
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(f"{name} must be an int >= {least}; got {value!r} ({type(value).__name__})")
    if value < least:
        raise ValueError(f"{name} must be an int >= {least}; got {value!r}")


def _is_sequence(value) -> bool:
    return isinstance(value, (tuple, list))


def _ids(name: str, ids) -> tuple[int, ...]:
    """Token ids as a tuple of ints, each an int >= 0."""
    for i in ids:
        _check_int(f"{name} (a token id)", i, 0)
    return tuple(int(i) for i in ids)
