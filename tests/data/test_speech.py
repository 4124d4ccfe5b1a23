"""data.speech and its parts: the shipped tiny speech sets (always), and building sets with espeak-ng, flite and
the Asterisk prompts (skipped, saying why, where `make data` has not unpacked them)."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest
import soundfile
import torch

from data import speech_asterisk as asterisk
from data.speech import (
    KINDS,
    MANIFEST,
    MANIFEST_KEYS,
    SPEECH_TINY,
    SpeechSetConfig,
    build_speech_set,
    choose_speakers,
    load_manifest,
    load_row_audio,
    plan_asr,
    plan_keywords,
    speech_dir,
)
from data.speech_augment import (
    PEAK_LIMIT,
    Augmentation,
    add_noise,
    apply_gain,
    augment,
    change_speed,
    draw_augmentation,
)
from data.speech_synth import (
    ESPEAK_ACCENTS,
    FLITE_VOICES,
    Speaker,
    Voice,
    find_tools,
    held_out_timbres,
    is_held_out,
    parse_voice,
    synthesize,
    trim_silence,
)
from data.speech_text import DIGITS, KEYWORDS, LETTERS, brown_sentences, choose_sentences, is_plain_text, kjv_sentences
from tests.helpers import load_script

TOOLS = find_tools()
HAVE_ASTERISK = (asterisk.ASTERISK_DIR / asterisk.TRANSCRIPTS).is_file()
needs_tools = pytest.mark.skipif(
    set(TOOLS.engines) != {"espeak", "flite"},
    reason="espeak-ng and flite are not on PATH nor in data/full/speech/tools (run `make data` or "
           "scripts/get_data.sh speech; CI's clean clone has neither)")
needs_asterisk = pytest.mark.skipif(
    not HAVE_ASTERISK, reason="no Asterisk prompts in data/full/speech/asterisk (run scripts/get_data.sh speech)")
QUANTUM = 1 / 32768  # one step of the 16-bit FLAC files


def _synthetic(rows):
    return [r for r in rows if r["source"] != "asterisk"]


def _timbres(rows, splits):
    return {parse_voice(r["voice"]).speaker.timbre for r in _synthetic(rows) if r["split"] in splits}


def _prompt(row):
    return row["audio"].removeprefix("human/").removesuffix(".flac")


# ----------------------------------------------------------------------------- the shipped tiny sets


@pytest.mark.parametrize("kind", KINDS)
def test_shipped_set_loads_and_every_file_matches_its_row(kind):
    folder = SPEECH_TINY / kind
    rows = load_manifest(folder)
    assert {r["split"] for r in rows} == {"train", "val", "test", "human"}
    assert {r["source"] for r in rows} == {"espeak", "flite", "asterisk"}
    for row in rows:
        assert tuple(row) == MANIFEST_KEYS
        info = soundfile.info(str(folder / row["audio"]))
        assert (info.samplerate, info.channels, info.format, info.subtype) == (16000, 1, "FLAC", "PCM_16")
        assert info.frames / 16000 == pytest.approx(row["seconds"], abs=1e-9), row["audio"]
        if kind == "keywords":
            assert row["label"] in KEYWORDS and row["text"] == row["label"]
        else:
            assert row["label"] is None and is_plain_text(row["text"])
    assert load_manifest(folder, split="human") == [r for r in rows if r["split"] == "human"]
    wave = load_row_audio(folder, rows[0])
    assert wave.dtype == torch.float32 and wave.shape == (round(rows[0]["seconds"] * 16000),)


def _shipped_classes() -> list[str]:
    """The classes the shipped keyword set was built with (a subset of KEYWORDS: its README says which)."""
    return json.loads((SPEECH_TINY / "keywords" / "build.json").read_text())["config"]["keywords"].split()


def test_shipped_keywords_cover_every_class():
    rows = load_manifest(SPEECH_TINY / "keywords")
    classes = _shipped_classes()
    assert set(classes) <= set(KEYWORDS) and set(DIGITS) <= set(classes)
    for split in ("train", "test"):
        assert sorted({r["label"] for r in rows if r["split"] == split}) == sorted(classes)
    human = sorted(r["label"] for r in rows if r["split"] == "human")
    assert human == sorted(c for c in DIGITS + LETTERS if c in classes)  # the recordings of its classes


@pytest.mark.parametrize("kind", KINDS)
def test_shipped_held_out_voices_never_in_train(kind):
    rows = load_manifest(SPEECH_TINY / kind)
    assert _timbres(rows, {"test"}) and not _timbres(rows, {"test"}) & _timbres(rows, {"train", "val"})
    for row in _synthetic(rows):
        assert is_held_out(parse_voice(row["voice"])) == (row["split"] == "test"), row


@pytest.mark.parametrize("kind", KINDS)
def test_shipped_human_rows_carry_the_asterisk_transcripts(kind):
    transcripts = asterisk.read_transcripts(SPEECH_TINY / asterisk.TRANSCRIPTS)  # a copy of the package's file
    human = [r for r in load_manifest(SPEECH_TINY / kind) if r["source"] == "asterisk"]
    assert human and all(r["split"] == "human" and r["voice"] == asterisk.VOICE for r in human)
    for row in human:
        assert row["text"] == asterisk.spoken_text(transcripts[_prompt(row)])
    if kind == "keywords":
        classes = set(_shipped_classes())
        wanted = {prompt: label for prompt, label in asterisk.keyword_prompts(transcripts) if label in classes}
        assert wanted == {_prompt(r): r["label"] for r in human}


def test_sentence_prompts_are_plain_speech_with_a_recording(tmp_path):
    """A prompt the transcripts list without a sound under the root (Debian's package lacks one) is left out, as
    are letters and text that is not plain speech."""
    transcripts = {"hello-world": "Hello world.", "no-sound": "Please try later.", "letters/a": "A",
                   "digits/5": "5", "odd": "Press <pound>."}
    for key in ("hello-world", "letters/a", "digits/5", "odd"):
        path = asterisk.prompt_path(key, tmp_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")
    assert asterisk.sentence_prompts(transcripts, tmp_path) == ["hello-world"]


def test_speech_dir_falls_back_to_the_shipped_set(tmp_path, monkeypatch):
    import data.speech
    monkeypatch.setattr(data.speech, "SPEECH_FULL", tmp_path)
    assert speech_dir("asr") == SPEECH_TINY / "asr"
    (tmp_path / "asr").mkdir()
    (tmp_path / "asr" / MANIFEST).write_text("")
    assert speech_dir("asr") == tmp_path / "asr"
    with pytest.raises(ValueError, match="kind"):
        speech_dir("music")


def test_load_manifest_names_the_file_and_line(tmp_path):
    soundfile.write(str(tmp_path / "a.flac"), np.zeros(160, np.float32), 16000)
    good = {"audio": "a.flac", "text": "yes", "label": "yes", "voice": "flite:slt:s150", "source": "flite",
            "split": "train", "seconds": 0.01}
    bad_rows = {"not JSON": "{", "keys": json.dumps({**good, "extra": 1}), "missing.flac": json.dumps(
        {**good, "audio": "missing.flac"}), "inside the folder": json.dumps({**good, "audio": "../a.flac"}),
        "split one of": json.dumps({**good, "split": "dev"}), "seconds": json.dumps({**good, "seconds": 0})}
    for message, bad in bad_rows.items():
        (tmp_path / MANIFEST).write_text(json.dumps(good) + "\n" + bad + "\n")
        with pytest.raises(ValueError, match=rf"manifest.jsonl:2: .*{message}"):
            load_manifest(tmp_path)
    with pytest.raises(FileNotFoundError, match="no speech manifest"):
        load_manifest(tmp_path / "nowhere")


# ----------------------------------------------------------------------------- voices, text, plans (no tools)


def test_voice_ids_round_trip():
    for voice in (Voice("espeak", "en-gb-scotland+m3", 150, 60), Voice("espeak", "en-us", 210, 30),
                  Voice("flite", "slt", 160)):
        assert parse_voice(str(voice)) == voice
    assert str(Voice("flite", "kal16", 175)) == "flite:kal16:s175"
    for bad in ("espeak:en-us:s150", "human:allison", "flite:slt:s150:p50", "espeak:en us:s1:p2"):
        with pytest.raises(ValueError):
            parse_voice(bad)


def test_held_out_rule_takes_whole_timbres():
    assert Speaker("espeak", "en-us+m3").timbre == Speaker("espeak", "en-gb+m7").timbre == "espeak:m"
    assert Speaker("espeak", "en-029").timbre == "espeak:default"
    assert Speaker("flite", "kal16").timbre == Speaker("flite", "kal").timbre == "flite:kal"
    held = held_out_timbres()
    assert sum(t.startswith("espeak:") for t in held) == 14 and sum(t.startswith("flite:") for t in held) == 1
    for timbre in held:  # every accent of a held-out variant family is held out
        if timbre.startswith("espeak:") and timbre != "espeak:default":
            family = timbre.removeprefix("espeak:")
            assert all(is_held_out(Speaker("espeak", f"{accent}+{family}")) for accent in ESPEAK_ACCENTS)


def test_choose_speakers_holds_out_a_fifth_and_mixes_engines():
    speakers = choose_speakers(20, seed=3)
    assert len(set(speakers)) == 20 and sum(map(is_held_out, speakers)) == 4
    assert {s.engine for s in speakers} == {"espeak", "flite"}
    assert choose_speakers(20, seed=3) == speakers and choose_speakers(20, seed=4) != speakers
    assert {s.engine for s in choose_speakers(6, 0, engines=("espeak",))} == {"espeak"}
    with pytest.raises(ValueError, match="at least 2"):
        choose_speakers(1, 0)


def test_plans_are_deterministic_and_hold_out_whole_voices():
    config = SpeechSetConfig(seed=0, voices=30, per_class=30, sentences=300)
    keywords = plan_keywords(config)
    assert plan_keywords(config) == keywords and plan_keywords(SpeechSetConfig(seed=1, voices=30)) != keywords
    assert len(keywords) == 48 * 30 and len({p.audio for p in keywords}) == len(keywords)
    for plan in (keywords, plan_asr(config)):
        held = {p.voice.speaker.timbre for p in plan if p.split == "test"}
        trained = {p.voice.speaker.timbre for p in plan if p.split in ("train", "val")}
        assert held and trained and not held & trained
        assert all(len(p.augmentations) == (p.split == "train") for p in plan)
    subset = plan_keywords(SpeechSetConfig(seed=0, voices=30, per_class=30, keywords=("yes", "no")))
    assert [p.voice for p in subset if p.label == "no"] != [p.voice for p in keywords if p.label == "no"]
    with pytest.raises(ValueError, match="not keyword classes"):
        plan_keywords(SpeechSetConfig(keywords=("maybe",)))


def test_asr_readings_keep_each_sentence_in_one_split():
    one = plan_asr(SpeechSetConfig(seed=0, voices=30, sentences=120))
    three = plan_asr(SpeechSetConfig(seed=0, voices=30, sentences=120, readings=3))
    assert len(three) == 3 * len(one) and len({p.audio for p in three}) == len(three)
    assert [p for p in three if "-r" not in p.audio] == one  # the first reading is the one-reading set's row
    splits, speakers = {}, {}
    for p in three:
        splits.setdefault(p.text, set()).add(p.split)
        speakers.setdefault(p.text, set()).add(p.voice.speaker)
    assert all(len(s) == 1 for s in splits.values()) and all(len(s) == 3 for s in speakers.values())
    with pytest.raises(ValueError, match="readings"):
        plan_asr(SpeechSetConfig(readings=0))


def test_sentences_are_plain_and_short():
    kjv, brown = kjv_sentences(), brown_sentences()
    assert "In the beginning God created the heaven and the earth." in kjv
    assert len(kjv) > 2000 and len(brown) > 3000
    for sentence in kjv + brown:
        assert is_plain_text(sentence) and 3 <= len(sentence.split()) <= 15 and sentence[-1] in ".?!"
    assert is_plain_text("Atlanta's over-all jury said, Let there be light: yes!")
    for bad in ("Chapter 3 begins.", "He said, \"no\".", "dogs/nns bark", "a -- b", "[beep]", "press * now"):
        assert not is_plain_text(bad)
    picked = choose_sentences(10, np.random.default_rng(0), kjv, brown)
    assert len(picked) == 10 and sum(s in kjv for s in picked) == 5
    assert picked == choose_sentences(10, np.random.default_rng(0), kjv, brown)


# ----------------------------------------------------------------------------- augmentation


def _tone(hz=440.0, seconds=1.0):
    t = torch.arange(round(16000 * seconds)) / 16000
    return 0.3 * torch.sin(2 * math.pi * hz * t)


def test_noise_is_at_the_asked_snr():
    wave = _tone()
    for snr in (5.0, 20.0):
        noisy = add_noise(wave, snr, np.random.default_rng(0))
        measured = 10 * math.log10(wave.pow(2).mean() / (noisy - wave).pow(2).mean())
        assert measured == pytest.approx(snr, abs=0.01)
    assert torch.equal(add_noise(wave, 10, np.random.default_rng(1)), add_noise(wave, 10, np.random.default_rng(1)))


def test_gain_is_exact_and_speed_scales_duration_and_pitch():
    wave = _tone()
    assert torch.allclose(apply_gain(wave, 6.0), wave * 10 ** 0.3, rtol=0, atol=0)
    assert torch.allclose(apply_gain(wave, -20.0) * 10, wave, atol=1e-7)
    for speed in (0.9, 1.1):
        faster = change_speed(wave, speed)
        assert abs(faster.shape[0] - 16000 / speed) <= 1
        peak_hz = torch.fft.rfft(faster).abs().argmax().item() * 16000 / faster.shape[0]
        assert peak_hz == pytest.approx(440 * speed, abs=2)


def test_augment_is_seeded_and_never_clips():
    loud = _tone() / 0.3 * 0.98
    aug = Augmentation(snr_db=20.0, gain_db=6.0, speed=1.05)
    out = augment(loud, aug, np.random.default_rng(5))
    assert torch.equal(out, augment(loud, aug, np.random.default_rng(5)))
    assert out.abs().max() <= PEAK_LIMIT + 1e-6
    drawn = [draw_augmentation(np.random.default_rng(s)) for s in range(50)]
    assert all(10 <= a.snr_db <= 30 and -6 <= a.gain_db <= 6 and 0.9 <= a.speed <= 1.1 for a in drawn)


def test_trim_silence_keeps_the_sound_and_a_pad():
    wave = torch.cat([torch.zeros(8000), _tone(seconds=0.5), torch.zeros(8000)])
    trimmed = trim_silence(wave, pad_seconds=0.05)
    assert trimmed.shape[0] == 8000 + 2 * 800 and torch.equal(trimmed[800:-800], wave[8000:16000])
    assert torch.equal(trim_silence(torch.zeros(1000)), torch.zeros(1000))


# ----------------------------------------------------------------------------- building sets (needs the tools)


def test_cli_without_tools_says_to_run_make_data(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(SystemExit, match="make data"):
        load_script("make_speech_data").main(["--out", str(tmp_path), "--tools-dir", str(tmp_path / "none")])


@needs_tools
def test_cli_builds_once_then_keeps_an_up_to_date_set(tmp_path, capsys):
    args = ["--kind", "keywords", "--out", str(tmp_path), "--voices", "2", "--per-class", "2", "--keywords", "go",
            "stop", "--human", "0", "--augment", "0"]
    cli = load_script("make_speech_data")
    cli.main(args)
    assert "keywords: 4 utterances" in capsys.readouterr().out
    assert len(load_manifest(tmp_path / "keywords")) == 4
    cli.main(args)
    assert "already built" in capsys.readouterr().out
    cli.main(args + ["--force"])
    assert "keywords: 4 utterances" in capsys.readouterr().out


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Small keyword and ASR sets: twice with seed 0, once with seed 1."""
    if set(TOOLS.engines) != {"espeak", "flite"}:
        pytest.skip("espeak-ng and flite are not on PATH nor in data/full/speech/tools (run `make data`)")
    human = 2 if HAVE_ASTERISK else 0
    sets = {}
    for name, seed in (("a", 0), ("b", 0), ("c", 1)):
        config = SpeechSetConfig(seed=seed, voices=5, per_class=3, keywords=("yes", "no", "seven", "q"),
                                 sentences=6, max_words=8, human=human, augment=1)
        for kind in KINDS:
            build_speech_set(kind, tmp_path_factory.getbasetemp() / name / kind, config, TOOLS, jobs=2)
        sets[name] = tmp_path_factory.getbasetemp() / name
    return sets


def _files(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@needs_tools
def test_build_is_deterministic_for_a_seed(built):
    for kind in KINDS:
        same, other = _files(built["a"] / kind), _files(built["b"] / kind)
        assert same == other and len(same) > 10
        assert _files(built["c"] / kind)[MANIFEST] != same[MANIFEST]


@needs_tools
@pytest.mark.parametrize("kind", KINDS)
def test_built_set_holds_out_voices_and_augments_train(built, kind):
    rows = load_manifest(built["a"] / kind)
    assert _timbres(rows, {"test"}) and not _timbres(rows, {"test"}) & _timbres(rows, {"train", "val"})
    by_audio = {r["audio"]: r for r in rows}
    copies = [r for r in rows if "-aug" in r["audio"]]
    assert copies and all(r["split"] == "train" for r in copies)
    for copy in copies:
        clean = by_audio[copy["audio"].replace("-aug1", "")]
        assert (clean["text"], clean["voice"], clean["split"]) == (copy["text"], copy["voice"], "train")
        assert 1 / 1.1 - 0.01 <= copy["seconds"] / clean["seconds"] <= 1 / 0.9 + 0.01


@needs_tools
@pytest.mark.parametrize("kind", KINDS)
def test_built_audio_is_the_row_text_in_the_row_voice(built, kind):
    folder = built["a"] / kind
    clean = [r for r in _synthetic(load_manifest(folder)) if "-aug" not in r["audio"]]
    for row in clean[:8]:
        expected = trim_silence(synthesize(row["text"], parse_voice(row["voice"]), TOOLS)).clamp(-1, 1)
        stored = load_row_audio(folder, row)
        assert stored.shape == expected.shape and (stored - expected).abs().max() <= QUANTUM, row


@needs_tools
@needs_asterisk
@pytest.mark.parametrize("kind", KINDS)
def test_built_human_rows_are_the_asterisk_recordings(built, kind):
    transcripts = asterisk.read_transcripts(asterisk.ASTERISK_DIR / asterisk.TRANSCRIPTS)
    folder = built["a"] / kind
    human = [r for r in load_manifest(folder) if r["split"] == "human"]
    assert len(human) == 2
    for row in human:
        assert row["text"] == asterisk.spoken_text(transcripts[_prompt(row)])
        assert (load_row_audio(folder, row) - asterisk.load_prompt(_prompt(row))).abs().max() <= QUANTUM


@needs_tools
def test_every_accent_and_flite_voice_speaks_longer_for_longer_text():
    voices = [Voice("espeak", accent, 175, 50) for accent in ESPEAK_ACCENTS]
    voices += [Voice("flite", name, 175) for name in FLITE_VOICES]
    for voice in voices:
        short = trim_silence(synthesize("yes", voice, TOOLS))
        long = trim_silence(synthesize("yes, we will go back up the left road to the next town", voice, TOOLS))
        assert 0.1 < short.shape[0] / 16000 < 1.5 and long.shape[0] > 3 * short.shape[0], voice
    slow, fast = (synthesize("go back now", Voice("espeak", "en-us", s, 50), TOOLS) for s in (120, 240))
    assert slow.shape[0] > 1.5 * fast.shape[0]


def test_spec_augment_shifts_and_masks_within_bounds():
    from data.audio_tasks import SpecAugment

    x = torch.arange(128 * 128, dtype=torch.float32).view(128, 128)
    torch.manual_seed(0)
    out = SpecAugment(shift=10, masks=2, freq_width=16, time_width=12)(x)
    assert out.shape == x.shape and not torch.equal(out, x) and torch.equal(x, torch.arange(128 * 128.0).view(128, 128))
    filled = out == x.mean()
    bands, spans = filled.all(0), filled.all(1)  # whole bins (frequency masks), whole frames (time masks)
    assert bands.sum() <= 2 * 16 and spans.sum() <= 2 * 12 and (bands.any() or spans.any())
    assert torch.equal(filled, bands[None, :] | spans[:, None])  # nothing masked outside them
    kept = ~filled
    assert any(torch.equal(out[kept], x.roll(s, dims=0)[kept]) for s in range(-10, 11))  # rolled in time
    torch.manual_seed(0)
    assert torch.equal(SpecAugment(shift=10, masks=2, freq_width=16, time_width=12)(x), out)  # seeded
