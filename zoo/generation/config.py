"""The decoding options of every strategy, as a frozen dataclass (as openai-whisper's DecodingOptions)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GenerationConfig:
    max_new_tokens: int = 32
    do_sample: bool = False
    temperature: float = 1.0
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
        checks = [
            (self.max_new_tokens >= 1, "max_new_tokens must be >= 1"),
            (0.0 < self.top_p <= 1.0, "top_p must be in (0, 1]"),
            (0.0 <= self.min_p < 1.0, "min_p must be in [0, 1)"),
            (self.top_k >= 0, "top_k must be >= 0"),
            (self.temperature > 0 or not self.do_sample, "temperature must be > 0 when sampling"),
            (self.repetition_penalty > 0, "repetition_penalty must be > 0"),
            (self.num_beams >= 1, "num_beams must be >= 1"),
            (self.early_stopping in (True, False, "never"), "early_stopping must be True, False or 'never'"),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(f"{message}; got {self}")
        if any(len(s) == 0 for s in self.stop_sequences):
            raise ValueError("stop_sequences must not contain an empty sequence")

    @property
    def eos_ids(self) -> tuple[int, ...]:
        return () if self.eos_id is None else (self.eos_id,) if isinstance(self.eos_id, int) else tuple(self.eos_id)
