"""scripts/benchmark.py --only whisper_long: the long-file section end to end on whisper_micro's random weights
(--quick, a shorter file), its tables well formed and every side's WER a number; and the long file itself."""
import dataclasses
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


def test_chosen_sides_add_the_references_and_costs_keep_what_ran():
    from bench.config import WhisperLongBench
    from bench.whisper_long import chosen_sides, costs

    config = WhisperLongBench("micro", 20.0, 1, False, 8, 0, None, ("VAD alone", "ours sequential int8 packed"))
    assert chosen_sides(config) == ["ours sequential int8 packed", "faster-whisper sequential int8", "VAD alone"]
    every = dataclasses.replace(config, whisper_long_sides=None)
    assert chosen_sides(every) == [s for s in SIDES if s != "openai-whisper"]
    assert chosen_sides(dataclasses.replace(every, whisper_long_openai=True)) == SIDES
    compiled = dataclasses.replace(config, whisper_long_sides=("ours batched int8 packed+compiled",))
    assert chosen_sides(compiled) == ["faster-whisper batched int8", "ours batched int8 packed+compiled"]
    times = {"ours sequential fp32": [4.0, 6.0], "VAD alone": [0.5]}
    assert costs(times) == {"VAD (detector alone), sequential": {"with_s": 5.0, "without_s": 4.5, "share": 0.1}}


@pytest.mark.slow  # about two minutes: a spawned process a side
def test_whisper_long_sides_narrow_the_run(capsys):
    """--whisper-long-sides runs those sides, with the faster-whisper side each of ours is compared with; the targets
    are those whose sides ran, and the cost table, whose sides did not, is left out."""
    benchmark.main(["--quick", "--only", "whisper_long", "--whisper-long-audio-s", "20", "--whisper-long-sides",
                    "ours batched int8 packed", "VAD alone"])
    sides, targets = tables(capsys.readouterr().out)
    assert [row[0] for row in sides[1:]] == ["ours batched int8 packed", "faster-whisper batched int8", "VAD alone"]
    assert [row[:3] for row in targets[1:]] == [["batched int8", "ours batched int8 packed",
                                                 "faster-whisper batched int8"]]


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
