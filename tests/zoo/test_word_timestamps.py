"""Word-level timestamps (zoo/generation/word_timing.py, hallucination.py) against openai-whisper's
`transcribe(word_timestamps=True)` on the same weights and alignment heads: random tiny models (the same words,
times and segments), the real Whisper base on Asterisk's human recordings (the same words, 95% of the times
within 20 ms); the pieces (DTW, median filter, word split, punctuation) against openai-whisper's; the subtitle
writers' word options against openai-whisper's writers on the same result."""
import base64
import dataclasses
import gzip

import numpy as np
import pytest
import torch
import torch.nn.functional as F
import whisper
from whisper import timing as openai_timing
from whisper.tokenizer import get_tokenizer
from whisper.utils import get_writer

import zoo
from data.audio import SAMPLE_RATE
from data.whisper_tokenizer import load_whisper_tokenizer
from tests.helpers import gated_chirp, openai_twin, tiny_openai_whisper
from zoo.generation import word_timing as wt
from zoo.generation.transcripts import render

NO_THRESHOLDS = dict(compression_ratio_threshold=None, logprob_threshold=None, no_speech_threshold=None)
EXACT = ("id", "seek", "start", "end", "text", "tokens", "temperature")


def _models(n_vocab: int, seed: int = 0, heads=((1, 0), (1, 2), (0, 3))):
    """A tiny random openai-whisper (2 decoder layers x 4 heads) with alignment heads set, and ours from it."""
    ref, _ = tiny_openai_whisper(n_vocab, eot_scale=12, seed=seed)
    mask = np.zeros((ref.dims.n_text_layer, ref.dims.n_text_head), dtype=bool)
    for layer, head in heads:
        mask[layer, head] = True
    ref.set_alignment_heads(base64.b85encode(gzip.compress(mask.tobytes())))
    ours = zoo.from_whisper(ref)
    assert ours.config.alignment_heads == tuple(sorted(heads))
    return ref, ours


def _both(models, audio, **options):
    ref, ours = models
    torch.manual_seed(0)
    expected = whisper.transcribe(ref, audio, fp16=False, word_timestamps=True, **options)
    torch.manual_seed(0)
    got = zoo.transcribe(ours, audio, word_timestamps=True, **options)
    return expected, got


def _assert_same(expected: dict, got: dict) -> int:
    """Same segments and words (text exactly, times to 10 ms, probabilities to 1e-4); the number of words."""
    assert [{k: s[k] for k in EXACT} for s in got["segments"]] == \
        [{k: s[k] for k in EXACT} for s in expected["segments"]]
    assert got["text"] == expected["text"]
    count = 0
    for e, g in zip(expected["segments"], got["segments"]):
        assert [w["word"] for w in g["words"]] == [w["word"] for w in e["words"]]
        for we, wg in zip(e["words"], g["words"]):
            assert wg["start"] == pytest.approx(we["start"], abs=0.0101)
            assert wg["end"] == pytest.approx(we["end"], abs=0.0101)
            assert wg["probability"] == pytest.approx(we["probability"], abs=1e-4)
            assert type(wg["start"]) is float and type(wg["probability"]) is float
        count += len(g["words"])
    return count


# ------------------------------------------------------------------------ random tiny models


@pytest.fixture(scope="module")
def multilingual():
    return _models(51865)


# Random weights sample words of every script (and pieces of them) at temperature 1, draw for draw as openai-whisper
# from the same seed; without timestamps a window is one segment of 60 tokens. Greedy decoding with timestamps
# gives one-token segments, whose starts and ends the words move.
SAMPLED = dict(temperature=1.0, without_timestamps=True, sample_len=60, **NO_THRESHOLDS)
GREEDY = dict(temperature=0.0, sample_len=40, **NO_THRESHOLDS)


@pytest.mark.parametrize("case", ["sampled", pytest.param("timestamps", marks=pytest.mark.slow)])
def test_words_match_openai_whisper(multilingual, case):
    """Two windows and more: the same words, times (exactly) and segments (words move the seek too)."""
    expected, got = _both(multilingual, gated_chirp(40), language="en", **(SAMPLED if case == "sampled" else GREEDY))
    assert _assert_same(expected, got) >= (60 if case == "sampled" else 6)
    assert len({s["seek"] for s in got["segments"]}) >= 2
    exact = [(w["start"], w["end"]) for s in got["segments"] for w in s["words"]]
    assert exact == [(w["start"], w["end"]) for s in expected["segments"] for w in s["words"]]


@pytest.mark.slow
def test_hallucination_silence_threshold_matches_openai_whisper(multilingual):
    """Random weights make anomalous words (improbable, instantaneous): text is dropped and seeks move as
    openai-whisper's."""
    for options in (SAMPLED, GREEDY):
        expected, got = _both(multilingual, gated_chirp(40, seed=1), language="en", hallucination_silence_threshold=0.5,
                              **options)
        _assert_same(expected, got)
        plain = zoo.transcribe(multilingual[1], gated_chirp(40, seed=1), language="en", word_timestamps=True, **options)
        assert len(got["segments"]) < len(plain["segments"]) or got["text"] != plain["text"]


@pytest.mark.slow
@pytest.mark.parametrize("case", ["punctuation", "japanese", "clips_beams", "english_only"])
def test_more_options_match_openai_whisper(case):
    if case == "english_only":
        models = _models(51864, seed=1)
    else:
        models = _models(51865, seed=0 if case == "clips_beams" else 2, heads=((0, 1), (1, 3)))
    options = {"punctuation": dict(SAMPLED, language="en", prepend_punctuations="\"'(",
                                   append_punctuations=".,!?"),
               "japanese": dict(SAMPLED, language="ja"),
               "clips_beams": dict(GREEDY, language="de", clip_timestamps="3,25", beam_size=2),
               "english_only": SAMPLED}[case]
    expected, got = _both(models, gated_chirp(35, seed=2), **options)
    assert _assert_same(expected, got) >= (3 if case == "clips_beams" else 20)


@pytest.mark.slow
def test_batch_equals_alone(multilingual):
    ours = multilingual[1]
    audios = [gated_chirp(40), gated_chirp(25, seed=1)]
    options = dict(GREEDY, temperature=1e-5, without_timestamps=True, language="en", word_timestamps=True)
    alone = [zoo.transcribe(ours, a, **options) for a in audios]
    together = zoo.transcribe(ours, audios, **options)
    for a, b in zip(alone, together):
        assert [[(w["word"], w["start"], w["end"]) for w in s["words"]] for s in a["segments"]] == \
            [[(w["word"], w["start"], w["end"]) for w in s["words"]] for s in b["segments"]]


def test_default_heads_are_the_last_half_of_the_decoder():
    ref, _ = tiny_openai_whisper(51865, eot_scale=12)
    ours = zoo.from_whisper(ref)  # openai-whisper's default mask: every head of the second layer
    assert wt.alignment_heads(ours) == [(1, 0), (1, 1), (1, 2), (1, 3)]
    ours.config = dataclasses.replace(ours.config, alignment_heads=())
    assert wt.alignment_heads(ours) == [(1, 0), (1, 1), (1, 2), (1, 3)]


def test_heads_outside_the_decoder_are_refused(multilingual):
    ours = multilingual[1]
    config = ours.config
    object.__setattr__(config, "alignment_heads", ((5, 1),))  # a config edited past its checks
    try:
        with pytest.raises(ValueError, match="word_timestamps"):
            zoo.transcribe(ours, gated_chirp(5), word_timestamps=True)
    finally:
        object.__setattr__(config, "alignment_heads", ((0, 3), (1, 0), (1, 2)))


# ------------------------------------------------------------------------ the real Whisper base


@pytest.fixture(scope="module")
def base(whisper_base_ct2):
    torch.set_num_threads(2)  # a real model: both cores pay here (conftest's one thread is for tiny ones)
    yield zoo.from_ct2(whisper_base_ct2)
    torch.set_num_threads(1)


def _human_speech(count: int) -> np.ndarray:
    """The first `count` of the shipped human recordings (Asterisk's, data/speech_tiny), joined with half a
    second of silence between them."""
    import soundfile

    from data.speech import SPEECH_TINY, load_manifest

    folder = SPEECH_TINY / "asr"
    gap = np.zeros(SAMPLE_RATE // 2, dtype=np.float32)
    pieces = []
    for row in load_manifest(folder, "human")[:count]:
        audio, rate = soundfile.read(folder / row["audio"], dtype="float32")
        assert rate == SAMPLE_RATE
        pieces += [audio, gap]
    return np.concatenate(pieces)


def _real_words_match(base, count: int) -> None:
    audio = _human_speech(count)
    expected = whisper.transcribe(openai_twin(base, alignment_heads=True), audio, fp16=False, word_timestamps=True)
    got = zoo.transcribe(base, audio, word_timestamps=True)
    assert got["text"] == expected["text"]
    theirs = [w for s in expected["segments"] for w in s["words"]]
    ours = [w for s in got["segments"] for w in s["words"]]
    assert [w["word"] for w in ours] == [w["word"] for w in theirs]
    assert len(ours) >= 4 * count
    times = [(a[key], b[key]) for a, b in zip(ours, theirs) for key in ("start", "end")]
    close = sum(abs(a - b) <= 0.02 + 1e-9 for a, b in times) / len(times)
    print(f"\nwhisper base, {count} human recordings, {len(ours)} words: {close:.1%} of the times within 20 ms")
    assert close >= 0.95


def test_real_base_words_match_openai_whisper(base):
    _real_words_match(base, 4)


@pytest.mark.slow
def test_real_base_subtitles_from_the_command_line(base, whisper_base_ct2, tmp_path):
    """zoo transcribe --word_timestamps True --max_words_per_line 3 --highlight_words on the CTranslate2 directory:
    the srt openai-whisper's command writes for the same weights."""
    import soundfile

    from zoo.cli import transcribe as cli

    audio = _human_speech(4)
    soundfile.write(tmp_path / "human.wav", audio, SAMPLE_RATE, subtype="FLOAT")  # read back exactly
    options = dict(max_words_per_line=3, highlight_words=True)
    cli.main([str(tmp_path / "human.wav"), "--model", str(whisper_base_ct2), "-o", str(tmp_path / "ours"), "-f", "srt",
              "--word_timestamps", "True", "--max_words_per_line", "3", "--highlight_words", "True",
              "--language", "en", "--verbose", "False", "--threads", "2"])
    expected = whisper.transcribe(openai_twin(base, alignment_heads=True), audio, fp16=False, word_timestamps=True,
                                  language="en", temperature=tuple(np.arange(0, 1.0 + 1e-6, 0.2)), best_of=5,
                                  beam_size=5)
    get_writer("srt", str(tmp_path))(expected, "human.wav", **options)
    assert (tmp_path / "ours" / "human.srt").read_text(encoding="utf-8") == \
        (tmp_path / "human.srt").read_text(encoding="utf-8")


@pytest.mark.slow
def test_real_base_words_match_openai_whisper_on_every_recording(base):
    """All 16 shipped recordings: about 48 s, two windows."""
    _real_words_match(base, 16)


# ------------------------------------------------------------------------ pieces


@pytest.mark.parametrize("shape", [(7, 40), (1, 1), (30, 5), (3, 200)])
def test_dtw_equals_openai_whisper(shape):
    rng = np.random.default_rng(sum(shape))
    cost = rng.standard_normal(shape)
    cost[0, :2] = cost[0, 0]  # ties
    want = openai_timing.dtw_cpu(cost)
    rows, cols = wt.dtw(cost)
    assert np.array_equal(rows, want[0]) and np.array_equal(cols, want[1])


def test_median_filter_equals_openai_whisper():
    x = torch.randn(3, 5, 50)
    assert torch.equal(wt.median_filter(x, 7), openai_timing.median_filter(x, 7))
    assert torch.equal(wt.median_filter(x[..., :3], 7), x[..., :3])


@pytest.mark.parametrize("width", [1, 3, 5, 7, 9, 11])
def test_median_filter_is_the_windows_median_exactly(width):
    """The pruned sorting network gives each window's median (torch.median of the reflected windows) bit for bit,
    ties and repeated values included, at every odd width; a NaN in a window gives NaN there, as torch.median."""
    g = torch.Generator().manual_seed(width)
    x = torch.randint(-3, 4, (2, 4, 40), generator=g).float() + torch.randn(2, 4, 40, generator=g) * (width % 3)
    half = width // 2
    windows = F.pad(x.reshape(-1, 1, 40), (half, half), mode="reflect").unfold(-1, width, 1)
    want = windows.median(-1).values.reshape(x.shape)
    assert torch.equal(wt.median_filter(x, width), want)
    x[0, 0, 20] = float("nan")
    got = wt.median_filter(x, width)
    assert got[0, 0, 20 - half:21 + half].isnan().all() and not got[0, 0, :20 - half].isnan().any()
    with pytest.raises(ValueError, match="positive odd number, got 4"):
        wt.median_filter(x, 4)


@pytest.mark.parametrize("language,text", [
    ("en", " Hello, world! It's a \"quoted\" test-case (really)... 3.5 percent"),
    ("ja", "こんにちは、世界。今日は"),
    ("zh", "你好，世界！"),
    ("de", " Grüße aus Köln — naïve café?"),
])
def test_word_split_and_punctuation_equal_openai_whisper(language, text):
    theirs = get_tokenizer(True, language=language, task="transcribe")
    ours = load_whisper_tokenizer()
    tokens = theirs.encode(text) + [theirs.eot]
    assert ours.encode(text) == tokens[:-1]
    words, groups = wt.split_to_words(ours, tokens, language)
    assert (words, groups) == tuple(theirs.split_to_word_tokens(tokens))
    timings = [wt.WordTiming(w, g, 0.0, 1.0, 0.5) for w, g in zip(words, groups)]
    reference = [openai_timing.WordTiming(w, g, 0.0, 1.0, 0.5) for w, g in zip(words, groups)]
    wt.merge_punctuations(timings)
    openai_timing.merge_punctuations(reference, wt.PREPEND_PUNCTUATIONS, wt.APPEND_PUNCTUATIONS)
    assert [(t.word, t.tokens) for t in timings] == [(t.word, t.tokens) for t in reference]


def test_skip_silence_rules():
    """hallucination.py on hand-made windows: an improbable first segment after 5 s of silence drops the
    window and the next one starts at it; one in the middle, with silence around it, is cut with what
    follows; good speech ending 10 s before the window's end moves the seek to its end."""
    from zoo.generation.hallucination import WindowSpan, is_anomaly, skip_silence

    def seg(start, end, probability=0.9):
        words = [{"word": " w", "start": start, "end": end, "probability": probability}]
        return {"start": start, "end": end, "words": words}

    window = WindowSpan(seek=1000, frames=3000, window_frames=3000, content_frames=9000)  # 10 s .. 40 s
    assert is_anomaly(seg(15.0, 15.5, 0.05)) and not is_anomaly(seg(15.0, 15.5))
    assert skip_silence([seg(15.0, 15.5, 0.05), seg(16.0, 17.0)], threshold=2.0, window=window, seek=4000,
                        single_ending=False, last_speech=9.0) == (1500, None)
    assert skip_silence([seg(10.5, 11.0), seg(20.0, 20.5, 0.05), seg(30.0, 31.0)], threshold=2.0, window=window,
                        seek=3100, single_ending=False, last_speech=9.0) == (2000, 1)
    assert skip_silence([seg(10.5, 11.0), seg(12.0, 30.0)], threshold=2.0, window=window, seek=3000,
                        single_ending=False, last_speech=9.0) == (3000, 2)
    assert skip_silence([seg(10.5, 11.0), seg(12.0, 30.0)], threshold=20.0, window=window, seek=3000,
                        single_ending=False, last_speech=9.0) == (4000, 2)


# ------------------------------------------------------------------------ writers


def _word_result() -> dict:
    """Three segments of word timings (one empty), a pause over 3 s, long and short words, punctuation."""
    rng = np.random.default_rng(0)
    vocabulary = [" the", " quick,", " brown", " fox", " jumps", " over", " a", " lazy", " dog.", " extraordinarily",
                  " -->", " 世界", " ok?"]
    segments, t = [], 0.25
    for i, count in enumerate((23, 0, 17)):
        words = []
        for _ in range(count):
            length = float(rng.choice([0.1, 0.3, 0.62]))
            words.append({"word": str(rng.choice(vocabulary)), "start": round(t, 2), "end": round(t + length, 2),
                          "probability": 0.9})
            t += length + float(rng.choice([0.0, 0.0, 0.2, 3.5]))
        text = "".join(w["word"] for w in words)
        segments.append({"id": i, "seek": 0, "start": words[0]["start"] if words else t, "end": round(t, 2),
                         "text": text, "tokens": [], "words": words})
    return {"text": "".join(s["text"] for s in segments), "segments": segments, "language": "en"}


WRITER_OPTIONS = [
    {}, {"highlight_words": True}, {"max_line_width": 24}, {"max_line_width": 24, "max_line_count": 2},
    {"max_line_width": 30, "max_line_count": 1, "highlight_words": True}, {"max_words_per_line": 4},
    {"max_words_per_line": 3, "highlight_words": True}, {"max_words_per_line": 4, "max_line_width": 20},
    {"max_line_count": 2},
]


@pytest.mark.parametrize("fmt", ["srt", "vtt"])
@pytest.mark.parametrize("options", WRITER_OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_writers_equal_openai_whisper(tmp_path, fmt, options):
    result = _word_result()
    get_writer(fmt, str(tmp_path))(result, "talk.wav", **options)
    assert render(result, fmt, **options) == (tmp_path / f"talk.{fmt}").read_text(encoding="utf-8")


def test_writer_options_are_checked():
    with pytest.raises(TypeError, match="max_line_widht"):
        render(_word_result(), "srt", max_line_widht=3)
    with pytest.raises(ValueError, match="max_words_per_line"):
        render(_word_result(), "srt", max_words_per_line=-2)
