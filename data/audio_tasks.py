"""Datasets for the audio training tasks, built from a speech manifest (data/speech.py's format: one JSON
row per utterance with "audio", "text", "label", "voice", "source", "split", "seconds").

    classes = keyword_classes(rows)                                    # sorted labels of the training rows
    train = KeywordSet(select(rows, "train"), root, classes, max_length=128)   # AST inputs + labels
    train = SpeechSet(select(rows, "train"), root, tokenizer, window_frames=1000, n_mels=80)  # Whisper's

Features are computed once, when a set is built (the sets are small, and the builder already wrote the
augmented training copies), so an epoch costs only the model (and, with spec_augment, each training item's
masks as it is read). Transcripts are normalised the same way for
training and for scoring (`normalize_text`): lower case, letters, digits and apostrophes.
"""
from __future__ import annotations

import re
from pathlib import Path

import torch

from data.ast_features import ast_features
from data.audio import HOP_LENGTH, log_mel_spectrogram, pad_or_trim
from data.collate import pad_sequences
from data.speech import load_row_audio
from data.speech_text import brown_sentences, kjv_sentences
from data.text import BROWN_EXTRACT, FULL_DIR, KJV_EXTRACT
from data.whisper_tokenizer import WhisperTokenizer

IGNORE = -100  # label of positions that are not predicted (the prompt, the padding)


def normalize_text(text: str) -> str:
    """"Hello, World!  It's 3." -> "hello world it's 3": what the ASR model learns and what WER compares."""
    text = re.sub(r"[^a-z0-9' ]+", " ", text.lower().replace("-", " "))
    return " ".join(word.strip("'") for word in text.split() if word.strip("'"))


def lm_corpus(exclude: list[str], kjv: str | Path | None = None, brown: str | Path | None = None) -> list[str]:
    """Text for a recogniser's language model (zoo.generation.ngram): the plain sentences of any length of the KJV
    and the Brown corpus (data.speech_text; by default the full corpora of scripts/get_data.sh where fetched,
    else the shipped extracts), normalised, each once, without any that is among `exclude` once normalised
    (the transcripts scored: the model is then scored on sentences its language model never read)."""
    kjv = kjv or next(p for p in (FULL_DIR / "kjv" / "kjv.txt", KJV_EXTRACT) if p.exists())
    brown = brown or next(p for p in (FULL_DIR / "brown", BROWN_EXTRACT) if p.exists())
    held = {normalize_text(text) for text in exclude}
    found = dict.fromkeys(normalize_text(s) for s in kjv_sentences(kjv, 1, 10_000) + brown_sentences(brown, 1, 10_000))
    return [s for s in found if s and s not in held]


def select(rows: list[dict], *splits: str) -> list[dict]:
    """The rows of the given splits, in manifest order."""
    return [row for row in rows if row["split"] in splits]


def keyword_classes(rows: list[dict]) -> list[str]:
    """The sorted keyword labels of the training rows (the classifier's classes)."""
    classes = sorted({row["label"] for row in select(rows, "train") if row.get("label")})
    if not classes:
        raise ValueError("the manifest has no labelled training rows: expected a keyword set (rows with \"label\")")
    return classes


class SpecAugment:
    """Training-time augmentation of a (frames, bins) spectrogram (Park et al. 2019, plus a time shift):
    the clip rolled by up to `shift` frames, then `masks` bands of up to `freq_width` bins and `masks` spans
    of up to `time_width` frames set to the mean. Draws from torch's global generator, which the training
    engine saves and restores, so a resumed run draws the same masks."""

    def __init__(self, shift: int = 10, masks: int = 2, freq_width: int = 16, time_width: int = 12):
        self.shift, self.masks, self.freq_width, self.time_width = shift, masks, freq_width, time_width

    def __call__(self, spectrogram: torch.Tensor) -> torch.Tensor:
        frames, bins = spectrogram.shape
        x = spectrogram.roll(int(torch.randint(-self.shift, self.shift + 1, ())), dims=0)
        fill = x.mean()
        x = x.clone()
        for _ in range(self.masks):
            for axis, size, width in ((1, bins, self.freq_width), (0, frames, self.time_width)):
                w = int(torch.randint(0, width + 1, ()))
                start = int(torch.randint(0, size - w + 1, ()))
                x.narrow(axis, start, w).fill_(fill)
        return x


# For Whisper's 80 log-mel bins at 100 frames a second, on a clip's own frames: no time shift (a transcript has
# no slack at its ends), two masks of up to 10 bins (an eighth of the band) and two of up to 0.2 s.
ASR_SPEC_AUGMENT = dict(shift=0, masks=2, freq_width=10, time_width=20)


class KeywordSet(torch.utils.data.Dataset):
    """AST inputs (max_length frames x 128 Kaldi bins, normalised) and class indices of keyword rows.

    Rows whose label is not among `classes` are dropped (counted in `dropped`): a held-out set can only be
    scored on the classes the model was trained for. spec_augment: applied to each item as it is read
    (the training set's)."""

    def __init__(self, rows: list[dict], root: str | Path, classes: list[str], max_length: int,
                 num_mel_bins: int = 128, chunk: int = 64, spec_augment: SpecAugment | None = None):
        self.spec_augment = spec_augment
        index = {name: i for i, name in enumerate(classes)}
        kept = [row for row in rows if row.get("label") in index]
        self.dropped = len(rows) - len(kept)
        self.rows = kept
        paths = [str(Path(root) / row["audio"]) for row in kept]
        parts = [ast_features(paths[i:i + chunk], num_mel_bins=num_mel_bins, max_length=max_length)
                 for i in range(0, len(paths), chunk)]
        self.features = torch.cat(parts) if parts else torch.empty(0, max_length, num_mel_bins)  # (N, T, F)
        self.labels = torch.tensor([index[row["label"]] for row in kept], dtype=torch.long)  # (N,)

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i: int) -> dict[str, torch.Tensor]:
        features = self.features[i]
        if self.spec_augment is not None:
            features = self.spec_augment(features)
        return {"spectrogram": features, "labels": self.labels[i]}


def transcript_tokens(tokenizer: WhisperTokenizer, text: str) -> tuple[list[int], int]:
    """(decoder tokens: the prompt without timestamps, the text, end of text; prompt length).

    The prompt is what zoo.transcribe gives the decoder with without_timestamps=True: the start-of-transcript
    sequence (language and task for a multilingual tokenizer) and <|notimestamps|>."""
    language = "en" if tokenizer.multilingual else None
    prompt = list(tokenizer.sot_sequence(language=language)) + [tokenizer.no_timestamps]
    return prompt + tokenizer.encode(" " + text) + [tokenizer.eot], len(prompt)


def window_mel(wave: torch.Tensor, window_frames: int, n_mels: int) -> torch.Tensor:
    """The encoder input zoo.transcribe (and openai-whisper's transcribe) gives a clip that fits one window:
    the log-mel of the clip followed by silence, cut after the clip's own frames, then padded with zeros
    to window_frames. Not the log-mel of the padded clip: that fills the rest of the window with the
    80 dB floor (about -0.6 after the scaling), a padding the model would then never see when it transcribes.
    wave (samples,) -> (n_mels, window_frames)."""
    frames = wave.shape[-1] // HOP_LENGTH
    mel = log_mel_spectrogram(wave, n_mels, padding=window_frames * HOP_LENGTH)  # (n_mels, frames + window)
    return pad_or_trim(mel[:, :frames], window_frames)


class SpeechSet(torch.utils.data.Dataset):
    """Whisper inputs: log-mel of each clip padded to the encoder's window (window_mel), decoder tokens and labels (the
    next token; the prompt and padding ignored). Clips longer than the window or transcripts longer than
    text_ctx are dropped (counted in `dropped`). spec_augment: applied to each clip's own frames as it is read
    (the training set's; ASR_SPEC_AUGMENT): masks land on speech, filled with its mean, and the zeros after it
    stay zeros, as zoo.transcribe feeds them. limit: stop reading once this many rows are kept (0: read all), so
    the first `limit` clips are the same whether or not the rest of the split is read."""

    def __init__(self, rows: list[dict], root: str | Path, tokenizer: WhisperTokenizer, window_frames: int,
                 n_mels: int, text_ctx: int, spec_augment: SpecAugment | None = None, limit: int = 0):
        if limit < 0:
            raise ValueError(f"limit must be at least 0 (0: every row), got {limit}")
        self.tokenizer, self.spec_augment = tokenizer, spec_augment
        window = window_frames * HOP_LENGTH  # samples
        self.rows, self.tokens, self.prompt_lengths, self.frames = [], [], [], []
        # Filled in place (the rows that fit, then cut to them): no list of mels stacked at the end, which would
        # hold every mel twice at its peak (a 30k-clip set is 5.8 GB once).
        mels = torch.zeros(min(len(rows), limit or len(rows)), n_mels, window_frames)
        read = 0
        for row in rows:
            if len(self.rows) == len(mels):
                break
            read += 1
            wave = load_row_audio(root, row)
            tokens, prompt = transcript_tokens(tokenizer, normalize_text(row["text"]))
            if wave.shape[0] > window or len(tokens) > text_ctx:
                continue
            mels[len(self.rows)] = window_mel(wave, window_frames, n_mels)  # (n_mels, window_frames)
            self.rows.append(row)
            self.tokens.append(tokens)
            self.prompt_lengths.append(prompt)
            self.frames.append(min(wave.shape[0] // HOP_LENGTH, window_frames))  # the clip's; zeros after them
        self.dropped = read - len(self.rows)  # of the rows read
        self.mels = mels[:len(self.rows)]  # (N, n_mels, window_frames); the dropped rows' slots stay unused

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i: int) -> dict:
        mel = self.mels[i]  # (n_mels, window_frames)
        if self.spec_augment is not None:  # the clip's frames only: the zeros after them stay what transcribe feeds
            n = self.frames[i]
            mel = torch.cat([self.spec_augment(mel[:, :n].T).T, mel[:, n:]], dim=1)
        return {"mel": mel, "tokens": self.tokens[i], "prompt": self.prompt_lengths[i]}

    def collate(self, items: list[dict]) -> dict[str, torch.Tensor]:
        """Pad the token rows (with end of text, ignored by the labels) and stack the mels."""
        ids, mask = pad_sequences([item["tokens"] for item in items], self.tokenizer.eot)  # (B, T)
        labels = torch.full_like(ids, IGNORE)
        labels[:, :-1] = torch.where(mask[:, 1:].bool(), ids[:, 1:], IGNORE)
        for row, item in enumerate(items):
            labels[row, :item["prompt"] - 1] = IGNORE  # the prompt is given, never predicted
        return {"mel": torch.stack([item["mel"] for item in items]), "decoder_input_ids": ids, "labels": labels}


def waveforms(rows: list[dict], root: str | Path) -> list[torch.Tensor]:
    """Each row's 16 kHz mono waveform."""
    return [load_row_audio(root, row) for row in rows]
