"""Labelled speech sets made offline: keywords and short sentences in synthetic voices, plus human prompts.

    folder = speech_dir("keywords")                  # the full set if `make data` built it, else the shipped one
    rows = load_manifest(folder, split="train")      # checked rows (dicts), see below
    wave = load_row_audio(folder, rows[0])           # mono 16 kHz float32 (samples,)
    build_speech_set("asr", "out/asr", SpeechSetConfig(seed=0, sentences=500), find_tools())  # after make data

A set is a folder of 16 kHz mono 16-bit FLAC files and manifest.jsonl, one JSON object per
utterance with exactly MANIFEST_KEYS:
    audio    path of the FLAC file, relative to the folder ("train/yes_0003.flac")
    text     the transcript, as spoken ("yes", "q", "And God saw the light, that it was good.")
    label    keyword class (KEYWORDS) in a keyword set; null in an ASR set
    voice    "espeak:en-us+f3:s150:p60", "flite:slt:s160" (data.speech_synth.parse_voice) or "human:allison"
    source   "espeak", "flite" or "asterisk"
    split    "train", "val" (training voices, other utterances), "test" (held-out voices only) or
             "human" (Asterisk recordings)
    seconds  duration, samples / 16000
and build.json, the config and synthesizer versions that made it.

Keywords (KEYWORDS, 48 classes): each class said per_class times, the speakers taken in turn;
the Asterisk digits and letters as "human". ASR: `sentences` plain sentences from the shipped
KJV and Brown extracts (data.speech_text), at most max_seconds long, each said by `readings`
speakers (the first taken in turn; a sentence's speakers are all held out or all training ones);
`human` Asterisk prompts with a plain transcript. Speakers: data.speech_synth; val_fraction of
the utterances of training voices (of each class, for keywords) go to val. Synthetic audio is trimmed of its silent ends
(data.speech_synth.trim_silence); each train utterance also gets `augment` copies ("-aug1"...)
with noise, gain and speed (data.speech_augment). A set is a pure function of its config and the
synthesizer versions: every random draw comes from a generator seeded by (seed, set, row), so
the same seed gives byte-identical files.
"""
from __future__ import annotations

import json
import os
import shutil
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import soundfile
import torch

from data import speech_asterisk as asterisk
from data.audio_io import SAMPLE_RATE, load_audio
from data.speech_augment import Augmentation, augment, draw_augmentation
from data.speech_synth import (
    ENGINES,
    HELD_OUT_FRACTION,
    Speaker,
    SpeechTools,
    Voice,
    all_speakers,
    is_held_out,
    synthesize,
    trim_silence,
)
from data.speech_text import KEYWORDS, brown_sentences, choose_sentences, kjv_sentences
from data.text import BROWN_EXTRACT, KJV_EXTRACT

MANIFEST = "manifest.jsonl"
BUILD = "build.json"
MANIFEST_KEYS = ("audio", "text", "label", "voice", "source", "split", "seconds")
SOURCES = ("espeak", "flite", "asterisk")
SPLITS = ("train", "val", "test", "human")
KINDS = ("keywords", "asr")
SPEECH_TINY = Path(__file__).resolve().parent / "speech_tiny"  # shipped with the repo
SPEECH_FULL = Path(__file__).resolve().parent / "full" / "speech"  # built by `make data`
_STREAMS = {"keywords": 1, "asr": 2}  # separate random streams per set kind
FLITE_EVERY = 4  # one speaker in FLITE_EVERY is flite's, while flite has any left


@dataclass(frozen=True)
class SpeechSetConfig:
    seed: int = 0
    voices: int = 60  # synthetic speakers; round(voices * HELD_OUT_FRACTION) of them (>= 1) held out
    per_class: int = 100  # keywords: utterances of each class
    keywords: tuple[str, ...] = KEYWORDS
    sentences: int = 2000  # asr: synthetic sentences
    readings: int = 1  # asr: speakers who say each sentence (all of the same split's voices)
    min_words: int = 3
    max_words: int = 15
    max_seconds: float = 8.0  # asr: longer synthetic sentences (before augmentation) are dropped
    human: int | None = None  # Asterisk rows to add; None: all that fit (asr: at most max_seconds)
    augment: int = 1  # augmented copies of each train utterance
    val_fraction: float = 0.1  # of the utterances of training voices
    kjv: str = str(KJV_EXTRACT)
    brown: str = str(BROWN_EXTRACT)
    asterisk_dir: str = field(default=str(asterisk.ASTERISK_DIR), compare=False)


@dataclass(frozen=True)
class Planned:
    """One utterance to render, and the augmented copies made from it."""

    audio: str
    text: str
    label: str | None
    voice: Voice | None  # None for an Asterisk prompt
    split: str
    prompt: str | None = None  # the Asterisk prompt ("digits/5")
    augmentations: tuple[Augmentation, ...] = ()
    seed: tuple[int, ...] = ()

    def row(self, audio: str, wave: torch.Tensor) -> dict:
        source = "asterisk" if self.voice is None else self.voice.engine
        return {"audio": audio, "text": self.text, "label": self.label,
                "voice": asterisk.VOICE if self.voice is None else str(self.voice), "source": source,
                "split": self.split, "seconds": wave.shape[0] / SAMPLE_RATE}


# ----------------------------------------------------------------------------- reading


def speech_dir(kind: str) -> Path:
    """data/full/speech/<kind> when `make data` built it, else the shipped data/speech_tiny/<kind>."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    full = SPEECH_FULL / kind
    return full if (full / MANIFEST).is_file() else SPEECH_TINY / kind


def _check_row(row: object, folder: Path) -> str | None:
    """What is wrong with one manifest row, or None."""
    if not isinstance(row, dict):
        return f"expected a JSON object, got {type(row).__name__}"
    if tuple(row) != MANIFEST_KEYS:
        return f"keys {list(row)}, expected exactly {list(MANIFEST_KEYS)} in that order"
    if not isinstance(row["text"], str) or not row["text"].strip():
        return f"text must be a non-empty string, got {row['text']!r}"
    if row["label"] is not None and not isinstance(row["label"], str):
        return f"label must be a string or null, got {row['label']!r}"
    if row["source"] not in SOURCES or row["split"] not in SPLITS:
        return f"source must be one of {SOURCES} and split one of {SPLITS}, got {row['source']!r}, {row['split']!r}"
    if not isinstance(row["seconds"], (int, float)) or not row["seconds"] > 0:
        return f"seconds must be a positive number, got {row['seconds']!r}"
    audio = row["audio"]
    if not isinstance(audio, str) or os.path.isabs(audio) or ".." in Path(audio).parts:
        return f"audio must be a path inside the folder, got {audio!r}"
    if not (folder / audio).is_file():
        return f"audio file {str(folder / audio)!r} does not exist"
    return None


def load_manifest(folder: str | os.PathLike, split: str | None = None) -> list[dict]:
    """The rows of folder/manifest.jsonl (all, or one split's), each checked: keys, values, audio file present.

    Errors name the file and line."""
    folder = Path(folder)
    path = folder / MANIFEST
    if not path.is_file():
        raise FileNotFoundError(f"no speech manifest at {str(path)!r} (see data/speech_tiny/README.md)")
    if split is not None and split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS} or None, got {split!r}")
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}:{n}: not JSON ({error})") from error
        problem = _check_row(row, folder)
        if problem:
            raise ValueError(f"{path}:{n}: {problem}")
        rows.append(row)
    return [row for row in rows if split is None or row["split"] == split]


def load_row_audio(folder: str | os.PathLike, row: dict) -> torch.Tensor:
    """A row's audio as a mono 16 kHz float32 waveform (samples,)."""
    return load_audio(Path(folder) / row["audio"])


# ----------------------------------------------------------------------------- planning (no audio)


def _interleave(pool: list[Speaker], rng: np.random.Generator) -> list[Speaker]:
    """pool shuffled, each engine on its own, then dealt so that every FLITE_EVERY-th speaker (from
    the second on) is flite's while it has any: flite has 5 speakers to espeak-ng's hundreds."""
    espeak = [pool[i] for i in rng.permutation(len(pool)) if pool[i].engine == "espeak"]
    flite = [pool[i] for i in rng.permutation(len(pool)) if pool[i].engine == "flite"]
    dealt = []
    while espeak or flite:
        take_flite = flite and (len(dealt) % FLITE_EVERY == 1 or not espeak)
        dealt.append((flite if take_flite else espeak).pop(0))
    return dealt


def choose_speakers(n: int, seed: int, engines: tuple[str, ...] = ENGINES) -> list[Speaker]:
    """n speakers of the engines: round(n * HELD_OUT_FRACTION) (at least 1) held-out ones first, then
    training ones. The same (n, seed, engines) give the same list."""
    if n < 2:
        raise ValueError(f"voices must be at least 2 (one held out, one to train on), got {n}")
    speakers = all_speakers(engines)
    if not speakers:
        raise ValueError(f"no speakers: engines {engines} (expected some of {ENGINES})")
    rng = np.random.default_rng([seed, 0])
    held = _interleave([s for s in speakers if is_held_out(s)], rng)
    train = _interleave([s for s in speakers if not is_held_out(s)], rng)
    n_held = max(1, round(n * HELD_OUT_FRACTION))
    return held[:n_held] + train[:n - n_held]


def _val_picks(n: int, fraction: float, rng: np.random.Generator) -> set[int]:
    """Which of n utterances of training voices go to val: fraction * n of them, stochastically rounded
    (so tiny groups still give some), never all n, drawn without replacement."""
    count = min(n - 1, int(np.floor(fraction * n + rng.random()))) if n else 0
    return {int(i) for i in rng.choice(n, count, replace=False)} if count > 0 else set()


def _synthetic(text: str, label: str | None, speaker: Speaker, val: bool, config: SpeechSetConfig,
               seed: tuple[int, ...], stem: str) -> Planned:
    rng = np.random.default_rng(seed)
    voice = speaker.voice(rng)
    split = "test" if is_held_out(speaker) else ("val" if val else "train")
    augmentations = tuple(draw_augmentation(rng) for _ in range(config.augment)) if split == "train" else ()
    return Planned(f"{split}/{stem}.flac", text, label, voice, split, augmentations=augmentations, seed=seed)


def plan_keywords(config: SpeechSetConfig, engines: tuple[str, ...] = ENGINES) -> list[Planned]:
    """The synthetic keyword utterances: class c's j-th by speaker (c + j) % voices, in class order; val
    takes val_fraction of each class's utterances of training voices."""
    unknown = sorted(set(config.keywords) - set(KEYWORDS))
    if unknown:
        raise ValueError(f"keywords {unknown} are not keyword classes (expected some of {KEYWORDS})")
    speakers = choose_speakers(config.voices, config.seed, engines)
    planned = []
    for c, keyword in enumerate(config.keywords):
        stream = (config.seed, _STREAMS["keywords"], KEYWORDS.index(keyword))  # a class's draws ignore the others
        said_by = [speakers[(c + j) % len(speakers)] for j in range(config.per_class)]
        trained = [j for j, speaker in enumerate(said_by) if not is_held_out(speaker)]
        val = {trained[i] for i in _val_picks(len(trained), config.val_fraction, np.random.default_rng(stream))}
        planned += [_synthetic(keyword, keyword, speaker, j in val, config, stream + (j,), f"{keyword}_{j:04d}")
                    for j, speaker in enumerate(said_by)]
    return planned


def plan_asr(config: SpeechSetConfig, engines: tuple[str, ...] = ENGINES) -> list[Planned]:
    """The synthetic sentences: the i-th said first by speaker i % voices, then by `readings` - 1 more speakers
    of the same kind (held out or training), spread over them; val takes val_fraction of the sentences of
    training voices, with all their readings, so a sentence is in one split only."""
    if config.readings < 1:
        raise ValueError(f"readings must be at least 1, got {config.readings}")
    speakers = choose_speakers(config.voices, config.seed, engines)
    rng = np.random.default_rng([config.seed, _STREAMS["asr"]])
    texts = choose_sentences(config.sentences, rng, kjv_sentences(config.kjv, config.min_words, config.max_words),
                             brown_sentences(config.brown, config.min_words, config.max_words))
    said_by = [speakers[i % len(speakers)] for i in range(len(texts))]
    trained = [i for i, speaker in enumerate(said_by) if not is_held_out(speaker)]
    val = {trained[k] for k in _val_picks(len(trained), config.val_fraction, rng)}
    planned = []
    for i, text in enumerate(texts):
        group = [s for s in speakers if is_held_out(s) == is_held_out(said_by[i])]
        first, spacing = group.index(said_by[i]), max(1, len(group) // config.readings)
        for k in range(config.readings):  # reading 0 keeps the seed and name a one-reading set gives it
            seed = (config.seed, _STREAMS["asr"], 1, i) if k == 0 else (config.seed, _STREAMS["asr"], 3, i, k)
            speaker = group[(first + k * spacing) % len(group)]
            stem = f"{i:06d}" + (f"-r{k}" if k else "")
            planned.append(_synthetic(text, None, speaker, i in val, config, seed, stem))
    return planned


def plan_human(kind: str, config: SpeechSetConfig) -> list[Planned]:
    """The Asterisk rows: digit and letter prompts (keywords) or plain-speech prompts of min_words..max_words
    words and at most max_seconds (asr); `human` of them drawn when that is fewer."""
    root = Path(config.asterisk_dir)
    transcripts = asterisk.read_transcripts(root / asterisk.TRANSCRIPTS)
    if kind == "keywords":
        chosen = [(key, label) for key, label in asterisk.keyword_prompts(transcripts) if label in config.keywords]
    else:
        keys = [key for key in asterisk.sentence_prompts(transcripts, root)
                if config.min_words <= len(transcripts[key].split()) <= config.max_words
                and asterisk.prompt_seconds(key, root) <= config.max_seconds]
        chosen = [(key, None) for key in keys]
    if config.human is not None and config.human < len(chosen):
        rng = np.random.default_rng([config.seed, _STREAMS[kind], 2])
        chosen = [chosen[i] for i in sorted(rng.choice(len(chosen), config.human, replace=False))]
    return [Planned(f"human/{key}.flac", asterisk.spoken_text(transcripts[key]), label, None, "human", prompt=key)
            for key, label in chosen]


# ----------------------------------------------------------------------------- rendering


def _write_flac(path: Path, wave: torch.Tensor) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    soundfile.write(str(path), wave.clamp(-1.0, 1.0).numpy(), SAMPLE_RATE, format="FLAC", subtype="PCM_16",
                    compression_level=1.0)  # libFLAC's -8: 3% smaller than the default, same samples


def _render(item: Planned, out: Path, tools: SpeechTools | None, config: SpeechSetConfig) -> list[dict]:
    """Write one planned utterance and its augmented copies; their rows ([] when too long)."""
    if item.voice is None:
        wave = asterisk.load_prompt(item.prompt, config.asterisk_dir)
    else:
        wave = trim_silence(synthesize(item.text, item.voice, tools))
        if item.label is None and wave.shape[0] > config.max_seconds * SAMPLE_RATE:
            return []
    _write_flac(out / item.audio, wave)
    rows = [item.row(item.audio, wave)]
    for k, aug in enumerate(item.augmentations, 1):
        copy = augment(wave, aug, np.random.default_rng(item.seed + (k,)))
        audio = item.audio.removesuffix(".flac") + f"-aug{k}.flac"
        _write_flac(out / audio, copy)
        rows.append(item.row(audio, copy))
    return rows


def build_speech_set(kind: str, out: str | os.PathLike, config: SpeechSetConfig, tools: SpeechTools,
                     jobs: int = 1) -> list[dict]:
    """Build the `kind` set ("keywords" or "asr") into out (replaced when complete); its rows.

    config.human=0 needs no Asterisk sounds. jobs: utterances rendered at once (threads; the result
    does not depend on it)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    plan = (plan_keywords if kind == "keywords" else plan_asr)(config, tools.engines)
    if config.human != 0:
        plan += plan_human(kind, config)
    out = Path(out)
    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        rows = [row for rendered in pool.map(lambda item: _render(item, tmp, tools, config), plan)
                for row in rendered]
    with open(tmp / MANIFEST, "w", encoding="utf-8") as f:
        f.writelines(json.dumps(row) + "\n" for row in rows)
    (tmp / BUILD).write_text(build_info(kind, config, tools), encoding="utf-8")
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)
    return rows


def build_info(kind: str, config: SpeechSetConfig, tools: SpeechTools) -> str:
    """The text of a set's build.json: kind, config (corpus paths relative to the repo) and synthesizer versions.
    A folder whose build.json has this text was built by these."""
    settings = {k: v for k, v in asdict(config).items() if k != "asterisk_dir"}
    settings.update(keywords=" ".join(config.keywords), kjv=_repo_relative(config.kjv),
                    brown=_repo_relative(config.brown))
    return json.dumps({"kind": kind, "config": settings, "tools": tools.versions()}, indent=1) + "\n"


def _repo_relative(path: str) -> str:
    root = Path(__file__).resolve().parents[1]
    resolved = Path(path).resolve()
    return str(resolved.relative_to(root)) if resolved.is_relative_to(root) else path
