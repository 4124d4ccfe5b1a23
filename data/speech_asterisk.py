"""Human speech: the English prompts of Asterisk, recorded by Allison Smith (CC BY-SA 3.0).

Debian's asterisk-core-sounds-en-wav has 568 prompts as 8 kHz 16-bit mono wav files under
en_US_f_Allison/ (digits/5.wav, letters/q.wav, vm-goodbye.wav, ...); asterisk-core-sounds-en has their
transcripts in core-sounds-en.txt.gz, one "path-without-.wav: transcript" line each, ";" starting a
comment. scripts/get_data.sh speech puts both in data/full/speech/asterisk/.

    transcripts = read_transcripts(ASTERISK_DIR / TRANSCRIPTS)   # {"digits/5": "five", ...}
    wave = load_prompt("digits/5")                               # mono 16 kHz float32 (samples,)

Keyword prompts: digits/0..9 (labels zero..nine) and letters/a..z. Sentence prompts: every other
prompt whose transcript is plain text (data.speech_text.is_plain_text), whitespace collapsed;
tones, "[...]" and "(... silence)" notes, and prompts that read out digits or symbols are left out.
"""
from __future__ import annotations

import gzip
import os
from pathlib import Path

import soundfile
import torch

from data.audio_io import load_audio
from data.speech_text import DIGITS, LETTERS, is_plain_text

ASTERISK_DIR = Path(__file__).resolve().parent / "full" / "speech" / "asterisk"  # scripts/get_data.sh speech
TRANSCRIPTS = "core-sounds-en.txt.gz"
SOUNDS = "en_US_f_Allison"
VOICE = "human:allison"


def read_transcripts(path: str | os.PathLike) -> dict[str, str]:
    """{prompt path without .wav: transcript as written} from core-sounds-en.txt(.gz)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no Asterisk transcripts at {str(path)!r}: run `make data` "
                                "(scripts/get_data.sh speech) to fetch asterisk-core-sounds-en")
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        lines = f.read().splitlines()
    transcripts = {}
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.startswith(";"):
            continue
        key, sep, text = line.partition(": ")
        if not sep or not key:
            raise ValueError(f"{path}:{n}: expected 'prompt: transcript', got {line!r}")
        transcripts[key] = text.strip()
    return transcripts


def spoken_text(transcript: str) -> str:
    """A transcript as the text of a row: whitespace collapsed ("Thank you.  Goodbye." -> one space)."""
    return " ".join(transcript.split())


def keyword_prompts(transcripts: dict[str, str]) -> list[tuple[str, str]]:
    """(prompt, keyword class) for the digits 0-9 and the letters a-z, in that order."""
    prompts = [(f"digits/{i}", word) for i, word in enumerate(DIGITS)]
    prompts += [(f"letters/{letter}", letter) for letter in LETTERS]
    missing = [key for key, _ in prompts if key not in transcripts]
    if missing:
        raise KeyError(f"the Asterisk transcripts lack the keyword prompts {missing}")
    return prompts


def sentence_prompts(transcripts: dict[str, str], root: str | os.PathLike = ASTERISK_DIR) -> list[str]:
    """The prompts (sorted) whose transcript is plain speech, the letters/ folder aside, and whose recording is
    under `root`: the transcripts list one prompt (pls-try-call-later) that the Debian package has no sound of."""
    return sorted(key for key, text in transcripts.items()
                  if not key.startswith("letters/") and is_plain_text(spoken_text(text))
                  and prompt_path(key, root).is_file())


def prompt_path(key: str, root: str | os.PathLike = ASTERISK_DIR) -> Path:
    return Path(root) / SOUNDS / f"{key}.wav"


def prompt_seconds(key: str, root: str | os.PathLike = ASTERISK_DIR) -> float:
    """A prompt's duration from its header, without decoding it."""
    return soundfile.info(str(prompt_path(key, root))).duration


def load_prompt(key: str, root: str | os.PathLike = ASTERISK_DIR) -> torch.Tensor:
    """A prompt ("digits/5") as a mono 16 kHz float32 waveform (samples,), resampled from 8 kHz."""
    samples, rate = soundfile.read(str(prompt_path(key, root)), dtype="float32")
    return load_audio(samples, sample_rate=rate)
