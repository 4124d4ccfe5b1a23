"""Light augmentation of a 16 kHz waveform: speed, additive noise at an SNR, gain. Seeded, so repeatable.

    rng = np.random.default_rng(0)
    aug = draw_augmentation(rng)             # Augmentation(snr_db=17.3, gain_db=-2.1, speed=1.04)
    noisy = augment(wave, aug, rng)          # speed, then white noise at snr_db, then gain

Speed is resampling (pitch moves with it, as with a tape played faster): the wave is read as if
sampled at SAMPLE_RATE * speed and resampled to SAMPLE_RATE, so its length is divided by speed.
Speeds are rounded to 0.01 so that the two rates share a factor of 160 and the resampling
filter stays small. Noise is white Gaussian, scaled so that the ratio of the wave's mean power to
the noise's drawn samples is exactly snr_db. Gain multiplies by 10 ** (gain_db / 20); augment
lowers a drawn gain that would push the peak past PEAK_LIMIT, so nothing is clipped when written
as 16-bit PCM.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
import torchaudio

from data.audio_io import SAMPLE_RATE

SNR_RANGE_DB = (10.0, 30.0)
GAIN_RANGE_DB = (-6.0, 6.0)
SPEED_RANGE = (0.9, 1.1)
PEAK_LIMIT = 0.99  # largest |sample| augment leaves (16-bit PCM clips at 1.0)


@dataclass(frozen=True)
class Augmentation:
    snr_db: float  # signal-to-noise ratio of the added white noise, dB
    gain_db: float
    speed: float  # > 1 is faster and shorter


def draw_augmentation(rng: np.random.Generator) -> Augmentation:
    """An augmentation drawn uniformly from SNR_RANGE_DB, GAIN_RANGE_DB and SPEED_RANGE (speed to 0.01)."""
    return Augmentation(snr_db=round(float(rng.uniform(*SNR_RANGE_DB)), 2),
                        gain_db=round(float(rng.uniform(*GAIN_RANGE_DB)), 2),
                        speed=round(float(rng.uniform(*SPEED_RANGE)), 2))


def change_speed(wave: torch.Tensor, speed: float) -> torch.Tensor:
    """wave (samples,) played speed times faster: (round(samples / speed),) up to the resampler's rounding."""
    if speed <= 0:
        raise ValueError(f"speed must be positive, got {speed}")
    rate = round(SAMPLE_RATE * speed)
    if rate == SAMPLE_RATE:
        return wave.clone()
    return torchaudio.functional.resample(wave, rate, SAMPLE_RATE)


def add_noise(wave: torch.Tensor, snr_db: float, rng: np.random.Generator) -> torch.Tensor:
    """wave (samples,) plus white Gaussian noise whose power is the wave's mean power / 10 ** (snr_db / 10)."""
    noise = torch.from_numpy(rng.standard_normal(wave.shape[0]).astype(np.float32))
    signal_power = wave.double().pow(2).mean()
    scale = torch.sqrt(signal_power / (noise.double().pow(2).mean() * 10 ** (snr_db / 10)))
    return wave + (noise.double() * scale).float()


def apply_gain(wave: torch.Tensor, gain_db: float) -> torch.Tensor:
    return wave * 10 ** (gain_db / 20)


def augment(wave: torch.Tensor, aug: Augmentation, rng: np.random.Generator) -> torch.Tensor:
    """wave at aug.speed, with noise at aug.snr_db, then aug.gain_db (lowered to keep the peak <= PEAK_LIMIT)."""
    noisy = add_noise(change_speed(wave, aug.speed), aug.snr_db, rng)
    peak = float(noisy.abs().max())
    headroom_db = 20 * np.log10(PEAK_LIMIT / peak) if peak > 0 else aug.gain_db
    return apply_gain(noisy, min(aug.gain_db, headroom_db))
