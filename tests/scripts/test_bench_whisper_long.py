"""scripts/benchmark.py --only whisper_long: the long-file section end to end on whisper_micro's random weights
(--quick, a shorter file), its tables well formed and every side's WER a number; and the long file itself."""
import json
import math

import pytest

from tests.helpers import load_script
from tests.helpers import markdown_tables as tables

pytest.importorskip("whisper")
pytest.importorskip("faster_whisper")
pytest.importorskip("jiwer")
benchmark = load_script("benchmark")

SIDES = ["ours batched fp32", "ours batched packed", "ours batched bf16 packed", "ours batched int8 packed",
         "faster-whisper batched int8", "ours sequential fp32", "ours sequential packed", "ours sequential bf16 packed",
         "ours sequential int8 packed", "faster-whisper sequential int8", "openai-whisper",
         "ours batched fp32, no words", "ours sequential fp32, no words", "ours sequential fp32, no VAD", "VAD alone"]


def test_whisper_long_quick(tmp_path, capsys):
    out = tmp_path / "whisper_long.json"
    benchmark.main(["--quick", "--only", "whisper_long", "--whisper-long-audio-s", "30", "--json", str(out)])
    sides, targets, costs = tables(capsys.readouterr().out)
    assert sides[0] == ["side", "s", "real-time factor", "first call s", "WER", "words with times",
                        "speed-up vs faster-whisper (IQR)"]
    assert [row[0] for row in sides[1:]] == SIDES and all(len(row) == len(sides[0]) for row in sides)
    assert all(float(row[1]) > 0 for row in sides[1:])
    assert all(math.isfinite(float(row[4])) for row in sides[1:-1]) and sides[-1][4] == "-"  # the VAD has no text
    assert "x (" in sides[1][-1] and sides[5][-1] == "-"  # ours against faster-whisper; faster-whisper itself not
    assert [row[0] for row in targets[1:5]] == ["batched", "sequential", "batched int8", "sequential int8"]
    assert [row[2] for row in targets[1:5]] == ["faster-whisper batched int8", "faster-whisper sequential int8"] * 2
    assert [row[4] for row in targets[1:5]] == [">= 1.3x", ">= 1.2x", ">= 1.3x", ">= 1.3x"]
    assert {r[5] for r in targets[1:]} <= {"yes", "no"}
    assert [row[0] for row in costs[1:]] == ["word timestamps, batched", "word timestamps, sequential",
                                             "VAD (detector alone), sequential",
                                             "VAD (whole file without it), sequential"]
    saved = json.loads(out.read_text())["whisper_long"]
    assert saved["weights"] == "micro" and saved["audio"]["audio_s"] >= 30
    assert all(isinstance(saved["sides"][s]["wer"], float) for s in SIDES[:-1])
    assert all(len(saved["times"][s]) == 1 for s in SIDES)


def test_long_speech_is_the_human_recordings_with_pauses():
    from bench.whisper_long import LONG_SILENCE_S, long_speech
    from data.audio import SAMPLE_RATE

    audio, reference, info = long_speech(40, seed=0)
    again, same_reference, _ = long_speech(40, seed=0)
    assert (audio == again).all() and reference == same_reference  # seeded
    assert len(audio) >= 40 * SAMPLE_RATE and info["audio_s"] == len(audio) / SAMPLE_RATE and info["recordings"] > 5
    assert len(info["long_silences_s"]) == 1 and LONG_SILENCE_S[0] <= info["long_silences_s"][0] <= LONG_SILENCE_S[1]
    assert info["speech_s"] < info["audio_s"] - info["long_silences_s"][0]
    assert long_speech(40, seed=1)[1] != reference  # another order
