"""The runtime options of the benchmark sections, one frozen dataclass per group of sections.

The command-line scripts fill every field (their presets: the full run and --quick) and build these
with `from_args`; the sections read nothing else.
"""
from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass


def fields_from_args(cls, args: argparse.Namespace):
    values = {f.name: getattr(args, f.name) for f in dataclasses.fields(cls)}
    return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in values.items()})


@dataclass(frozen=True)
class ModelBench:
    """forward, train and vision: ours against the reference on the same weights."""

    models: tuple[str, ...]    # text presets with a transformers reference (references.REFERENCES)
    dtypes: tuple[str, ...]    # "fp32", and/or "bf16" under torch.autocast
    batch: int                 # sequences per batch
    seq: int                   # tokens per sequence
    attention_mask: str        # "none": pass no mask; "ones": an all-ones (B, T) mask as a tokenizer would
    warmup: int                # untimed calls per side
    repeats: int               # timed forward calls per side
    train_repeats: int         # timed training steps per side
    fused_adamw: bool          # AdamW(fused=True) on both sides, as zoo/training uses

    from_args = classmethod(fields_from_args)

    def shape(self) -> str:
        return f"batch {self.batch} x {self.seq} tokens, attention_mask={self.attention_mask}"


@dataclass(frozen=True)
class GenerationBench:
    """The generation sections (bench.generation); field names are the command-line flags'."""

    gen_sections: tuple[str, ...]       # of bench.generation.SECTIONS
    gen_models: tuple[str, ...]         # presets to decode; the last one is used for bound, bf16 and context
    gen_batches: tuple[int, ...]
    gen_prompt: int                     # prompt tokens
    gen_new_tokens: int                 # new tokens per sequence
    gen_warmup: int                     # untimed generate calls per side
    gen_repeats: int                    # timed generate calls per side
    bandwidth_mb: int                   # buffer size of the bandwidth probes, MiB
    context_positions: tuple[int, int]  # short and long cache positions
    context_steps: int                  # timed single-token steps per position
    spec_families: tuple[str, ...]      # decoder families to draft for: "gpt", "llama" ({family}_tiny), "whisper"
    spec_train_steps: int               # training steps of the speculative target
    spec_draft_steps: int               # ... and of its draft
    spec_target: str                    # {family}_tiny overrides for the target, "depth=8,dim=384,..."
    spec_whisper_target: str            # whisper_micro overrides for the Whisper target, "text_depth=8,..."
    spec_whisper_steps: tuple[int, int]  # training steps of the Whisper target and of its draft
    spec_k: tuple[int, ...]             # draft tokens per round
    spec_prompts: int                   # held-out prompts
    spec_new_tokens: int                # new tokens per prompt
    spec_repeats: int                   # timed runs per variant
    spec_train_dtype: str               # "fp32" | "bf16"
    spec_dir: str | None                # train into / reuse models from here (None: a new temp folder)

    from_args = classmethod(fields_from_args)


@dataclass(frozen=True)
class WhisperBench:
    """The Whisper sections' runtime options; field names are scripts/benchmark.py's flags."""
    whisper_models: tuple[str, ...]    # shapes of whisper_refs.SHAPES; the first also runs parts and transcribe
    whisper_tokens: int                # forced greedy tokens per 30 s window
    whisper_batches: tuple[int, ...]   # batch sizes of the encoder and decoder timings
    whisper_warmup: int                # untimed calls per side after the checked first one
    whisper_repeats: int               # timed calls per side
    whisper_compile: bool              # also the compiled decoding steps (each first call compiles, ~30 s)
    whisper_files: int                 # short files (5-10 s) for batched transcription
    whisper_file_tokens: int           # forced tokens per short file
    whisper_long_s: int                # seconds of the long audio
    whisper_transcribe_repeats: int    # timed transcriptions per side
    whisper_dir: str | None            # transformers / CTranslate2 directories go here (None: a temp folder)

    from_args = classmethod(fields_from_args)


@dataclass(frozen=True)
class WhisperLongBench:
    """The long-file section's runtime options; field names are scripts/benchmark.py's flags."""
    whisper_long_weights: str          # "base": the real Whisper base; or a random shape of whisper_refs.SHAPES
    whisper_long_audio_s: float        # the file is at least this long
    whisper_long_repeats: int          # timed transcriptions per side, interleaved
    whisper_long_openai: bool          # also openai-whisper's transcribe (sequential, the slowest side)
    whisper_long_tokens: int | None    # tokens per window at most (random weights never end one); None: no cap
    whisper_long_seed: int             # the order of the recordings and the pauses
    whisper_long_dir: str | None       # the real base's joined directory (None: a temporary folder)
    whisper_long_sides: tuple[str, ...] | None = None  # bench.whisper_long_sides.side_names to run (None: all)

    from_args = classmethod(fields_from_args)


@dataclass(frozen=True)
class TranslationBench:
    """The translation section's runtime options; field names are scripts/benchmark.py's flags."""
    translation_model: str             # a zoo or transformers Marian directory; "tiny": a tiny random Marian
    translation_sentences: int         # held-out verses to translate (fewer where the corpus has fewer)
    translation_batches: tuple[int, ...]  # sentences per generate call, each size timed
    translation_max_tokens: int        # max_new_tokens on every side (the last one a forced EOS)
    translation_repeats: int           # timed passes per side and batch size, sides alternating
    translation_sides: tuple[str, ...] | None = None  # bench.translation_sides.SIDES to run (None: all)

    from_args = classmethod(fields_from_args)


@dataclass(frozen=True)
class ServingBench:
    """The serving section's runtime options; field names are scripts/benchmark.py's flags."""
    serving_models: tuple[str, ...]     # presets with a transformers reference (bench.references)
    serving_clients: tuple[int, ...]    # concurrent streaming clients per round
    serving_prompt: int                 # prompt words (= tokens) per request
    serving_new_tokens: int             # max_tokens per request
    serving_requests: int               # requests per client per round, one after another
    serving_repeats: int                # rounds per side and client count, the sides alternating
    serving_transformers: bool          # also transformers' own server
    threads: int                        # torch threads of each server

    from_args = classmethod(fields_from_args)
