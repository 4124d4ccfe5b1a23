"""Synthetic voices: espeak-ng and flite, run as programs, and which voices are held out.

    tools = find_tools()                                   # on PATH, else data/full/speech/tools/bin
    voice = Voice("espeak", "en-us+f3", speed=150, pitch=60)
    wave = synthesize("the quick brown fox", voice, tools)  # mono 16 kHz float32 (samples,)
    str(voice) == "espeak:en-us+f3:s150:p60" and parse_voice(str(voice)) == voice

Speakers: every English accent of espeak-ng (8; its mbrola voices need the mbrola program and are
left out) with each of its voice variants (formant, pitch and voicing settings; none = the accent's
default), and flite's built-in voices (awb_time only says the time and is left out). Speed is in
words per minute (espeak-ng's -s; flite's duration_stretch = FLITE_WPM / speed) and pitch is
espeak-ng's -p (0-99, 50 its default; flite has no comparable setting, so its voices carry none).

Held out: whole timbres, never single utterances. A timbre is an espeak-ng variant family (the
variant with its trailing number dropped: m1..m8 are one family, so are klatt..klatt6, in every
accent) or a flite speaker (kal and kal16 are the same man at 8 and 16 kHz). Within each engine
the timbres are ranked by the SHA-256 of their name and the first HELD_OUT_FRACTION of them (at
least one) are held out: a fixed rule that depends on no seed and no list of available voices,
so the keyword and ASR sets hold out the same voices.

The programs are deterministic (the same text and voice give the same wav, byte for byte); their
output (22050 Hz for espeak-ng, 8 or 16 kHz for flite) is read with soundfile and resampled to
16 kHz by data.audio_io.load_audio.
"""
from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soundfile
import torch

from data.audio_io import SAMPLE_RATE, load_audio

TOOLS_DIR = Path(__file__).resolve().parent / "full" / "speech" / "tools"  # scripts/get_data.sh speech
ESPEAK_ACCENTS = ("en-us", "en-gb", "en-gb-scotland", "en-gb-x-gbclan", "en-gb-x-gbcwmd", "en-gb-x-rp",
                  "en-029", "en-us-nyc")
# espeak-ng 1.51's voices/!v, less "Mr serious" (a space in its name) and "fast" (a test variant);
# "" is the accent's own default voice.
ESPEAK_VARIANTS = (
    "", "Alex", "Alicia", "Andrea", "Andy", "Annie", "AnxiousAndy", "Demonic", "Denis", "Diogo", "Gene",
    "Gene2", "Henrique", "Hugo", "Jacky", "Lee", "Marco", "Mario", "Michael", "Mike", "Nguyen",
    "RicishayMax", "RicishayMax2", "RicishayMax3", "Storm", "Tweaky", "UniRobot", "adam", "anika",
    "anikaRobot", "announcer", "antonio", "aunty", "belinda", "benjamin", "boris", "caleb", "croak",
    "david", "ed", "edward", "edward2", "f1", "f2", "f3", "f4", "f5", "grandma", "grandpa", "gustave",
    "iven", "iven2", "iven3", "iven4", "john", "kaukovalta", "klatt", "klatt2", "klatt3", "klatt4",
    "klatt5", "klatt6", "linda", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "marcelo", "max",
    "michel", "miguel", "norbert", "pablo", "paul", "pedro", "quincy", "rob", "robert", "robosoft",
    "robosoft2", "robosoft3", "robosoft4", "robosoft5", "robosoft6", "robosoft7", "robosoft8", "sandro",
    "shelby", "steph", "steph2", "steph3", "travis", "victor", "whisper", "whisperf", "zac")
FLITE_VOICES = ("kal", "kal16", "awb", "rms", "slt")
ENGINES = ("espeak", "flite")
HELD_OUT_FRACTION = 0.2  # of each engine's timbres
SPEED_RANGE = (140, 210)  # words per minute drawn for an utterance (espeak-ng's default is 175)
PITCH_RANGE = (30, 70)  # espeak-ng -p drawn for an utterance (0-99, default 50)
FLITE_WPM = 175  # the rate taken as flite's own (duration_stretch 1)
_PROGRAMS = {"espeak": "espeak-ng", "flite": "flite"}
_VOICE_ID = re.compile(r"^(espeak|flite):([A-Za-z0-9+_-]+):s(\d+)(?::p(\d+))?$")


class ToolsMissingError(RuntimeError):
    """A synthesizer program is neither on PATH nor unpacked by scripts/get_data.sh speech."""


@dataclass(frozen=True)
class Speaker:
    """One synthetic speaker: an espeak-ng accent+variant ("en-gb+m3", "en-us") or a flite voice ("slt")."""

    engine: str
    name: str

    @property
    def timbre(self) -> str:
        """The unit held out: "espeak:m" for en-us+m3 and en-gb+m1, "espeak:default", "flite:kal" for kal16."""
        if self.engine == "flite":
            return "flite:" + self.name.removesuffix("16")
        variant = self.name.partition("+")[2]
        return "espeak:" + (variant.rstrip("0123456789") or "default")

    def voice(self, rng: np.random.Generator) -> Voice:
        """This speaker at a speed (and, for espeak-ng, a pitch) drawn from SPEED_RANGE / PITCH_RANGE."""
        speed = int(rng.integers(SPEED_RANGE[0], SPEED_RANGE[1] + 1))
        pitch = int(rng.integers(PITCH_RANGE[0], PITCH_RANGE[1] + 1)) if self.engine == "espeak" else None
        return Voice(self.engine, self.name, speed, pitch)


@dataclass(frozen=True)
class Voice:
    """A speaker at a speed (words per minute) and pitch (espeak-ng only): what one synthesis call uses."""

    engine: str
    name: str
    speed: int = FLITE_WPM
    pitch: int | None = None

    def __post_init__(self):
        if self.engine not in ENGINES:
            raise ValueError(f"voice engine must be one of {ENGINES}, got {self.engine!r}")
        if (self.pitch is None) != (self.engine == "flite"):
            raise ValueError(f"an espeak voice needs a pitch and a flite voice takes none, got {self!r}")

    @property
    def speaker(self) -> Speaker:
        return Speaker(self.engine, self.name)

    def __str__(self) -> str:
        pitch = "" if self.pitch is None else f":p{self.pitch}"
        return f"{self.engine}:{self.name}:s{self.speed}{pitch}"


def parse_voice(text: str) -> Voice:
    """The Voice that str(voice) wrote: "espeak:en-us+f3:s150:p60" or "flite:slt:s160"."""
    match = _VOICE_ID.match(text)
    if match is None:
        raise ValueError(f"not a synthetic voice id: {text!r} (expected 'espeak:<voice>:s<wpm>:p<pitch>' "
                         "or 'flite:<voice>:s<wpm>')")
    engine, name, speed, pitch = match.groups()
    return Voice(engine, name, int(speed), None if pitch is None else int(pitch))


def all_speakers(engines: tuple[str, ...] = ENGINES) -> list[Speaker]:
    """Every speaker of the given engines, in a fixed order (accents x variants, then flite)."""
    speakers = []
    if "espeak" in engines:
        speakers += [Speaker("espeak", accent + (f"+{v}" if v else "")) for accent in ESPEAK_ACCENTS
                     for v in ESPEAK_VARIANTS]
    if "flite" in engines:
        speakers += [Speaker("flite", name) for name in FLITE_VOICES]
    return speakers


@functools.lru_cache(maxsize=None)
def held_out_timbres() -> frozenset[str]:
    """The timbres whose speakers go to test: per engine, the first HELD_OUT_FRACTION by SHA-256 rank."""
    held = set()
    for engine in ENGINES:
        timbres = sorted({s.timbre for s in all_speakers((engine,))},
                         key=lambda t: hashlib.sha256(t.encode()).hexdigest())
        held.update(timbres[:max(1, round(HELD_OUT_FRACTION * len(timbres)))])
    return frozenset(held)


def is_held_out(speaker: Speaker | Voice) -> bool:
    speaker = speaker.speaker if isinstance(speaker, Voice) else speaker
    return speaker.timbre in held_out_timbres()


# ----------------------------------------------------------------------------- the programs


@dataclass(frozen=True)
class SpeechTools:
    """The synthesizer programs found (a path, or None when absent)."""

    espeak: str | None
    flite: str | None

    @property
    def engines(self) -> tuple[str, ...]:
        return tuple(engine for engine in ENGINES if getattr(self, engine) is not None)

    def program(self, engine: str) -> str:
        path = getattr(self, engine)
        if path is None:
            raise ToolsMissingError(f"{_PROGRAMS[engine]} not found on PATH nor in {TOOLS_DIR / 'bin'}: "
                                    "run `make data` (or scripts/get_data.sh speech) to unpack it, no root needed")
        return path

    def versions(self) -> dict[str, str]:
        """{engine: version} of the programs found ("1.51", "2.2"): which build made a data set."""
        commands = {"espeak": ["--version"], "flite": ["--version"]}
        found = {}
        for engine in self.engines:
            out = subprocess.run([self.program(engine)] + commands[engine], capture_output=True, text=True).stdout
            match = re.search(r"text-to-speech: (\S+)|flite-(\d[\w.]*)", out)
            found[engine] = next(g for g in match.groups() if g) if match else "unknown"
        return found


def find_tools(tools_dir: str | os.PathLike = TOOLS_DIR) -> SpeechTools:
    """espeak-ng and flite: the ones on PATH when there, else the wrappers in tools_dir/bin."""
    found = {}
    for engine, program in _PROGRAMS.items():
        unpacked = Path(tools_dir) / "bin" / program
        found[engine] = shutil.which(program) or (str(unpacked) if os.access(unpacked, os.X_OK) else None)
    return SpeechTools(**found)


def synthesize(text: str, voice: Voice, tools: SpeechTools | None = None) -> torch.Tensor:
    """text spoken by voice: a mono 16 kHz float32 waveform (samples,), silences at both ends kept."""
    if not text.strip():
        raise ValueError(f"synthesize: text is empty ({text!r})")
    tools = find_tools() if tools is None else tools
    program = tools.program(voice.engine)
    with tempfile.TemporaryDirectory(prefix="synth-") as tmp:
        wav, script = os.path.join(tmp, "out.wav"), os.path.join(tmp, "text.txt")
        with open(script, "w", encoding="utf-8") as f:  # text through a file: never parsed as options
            f.write(text)
        if voice.engine == "espeak":
            command = [program, "-v", voice.name, "-s", str(voice.speed), "-p", str(voice.pitch), "-f", script,
                       "-w", wav]
        else:
            command = [program, "-voice", voice.name, "--setf", f"duration_stretch={FLITE_WPM / voice.speed:.4f}",
                       "-f", script, "-o", wav]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0 or not os.path.isfile(wav):
            raise RuntimeError(f"{program} failed for voice {voice} (exit {done.returncode}): "
                               f"{done.stderr.strip()[-500:]}")
        samples, rate = soundfile.read(wav, dtype="float32")
    if samples.size == 0:
        raise ValueError(f"{voice} made no audio for {text!r}")
    return load_audio(samples, sample_rate=rate)


def trim_silence(wave: torch.Tensor, threshold_db: float = -40.0, pad_seconds: float = 0.05,
                 frame_seconds: float = 0.01) -> torch.Tensor:
    """wave (samples,) without the silence at its ends: frames quieter than threshold_db below the loudest
    frame are cut, pad_seconds kept on each side. A wave with no frame above the threshold is returned whole."""
    frame = round(frame_seconds * SAMPLE_RATE)
    n = wave.shape[0] // frame
    if n == 0:
        return wave
    rms = wave[: n * frame].reshape(n, frame).pow(2).mean(dim=1).sqrt()  # (frames,)
    loud = torch.nonzero(rms > rms.max() * 10 ** (threshold_db / 20)).flatten()
    if loud.numel() == 0:
        return wave
    pad = round(pad_seconds * SAMPLE_RATE)
    start = max(0, int(loud[0]) * frame - pad)
    end = min(wave.shape[0], (int(loud[-1]) + 1) * frame + pad)
    return wave[start:end].clone()
