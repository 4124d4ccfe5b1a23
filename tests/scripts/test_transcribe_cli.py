"""zoo transcribe (zoo/cli/transcribe.py, scripts/transcribe.py): openai-whisper's flags in both spellings, audio
collection, --model dispatch, and a run with a stub in place of zoo.transcribe (the CLI tested without a model)."""
import json

import numpy as np
import pytest
import torch

import zoo
from tests.helpers import load_script
from zoo.cli import transcribe as script
from zoo.cli.models import load_run_directory
from zoo.generation.transcribe_options import fallback_temperatures
from zoo.generation.transcripts import FORMATS, render


def test_the_script_is_the_subcommand():
    assert load_script("transcribe").main is script.main

SPELLINGS = [  # (openai-whisper's flag = the attribute, value, parsed)
    ("beam_size", "3", 3), ("best_of", "None", None), ("patience", "2.0", 2.0), ("output_dir", "out", "out"),
    ("output_format", "srt", "srt"), ("initial_prompt", "Hi.", "Hi."), ("task", "translate", "translate"),
    ("condition_on_previous_text", "False", False), ("temperature_increment_on_fallback", "None", None),
    ("compression_ratio_threshold", "None", None), ("logprob_threshold", "-0.5", -0.5),
    ("no_speech_threshold", "0.3", 0.3), ("verbose", "False", False), ("batch_size", "4", 4),
    ("dtype", "bf16", "bf16"), ("threads", "1", 1), ("device", "cpu", "cpu"), ("language", "English", "en"),
]


def parse(*extra):
    return script.parse_args(["talk.wav", "--model", "whisper_tiny", *extra])


@pytest.mark.parametrize("name,value,want", SPELLINGS, ids=[s[0] for s in SPELLINGS])
def test_both_spellings(name, value, want):
    assert getattr(parse(f"--{name}", value), name) == want
    assert getattr(parse(f"--{name.replace('_', '-')}", value), name) == want


def test_defaults_and_openai_whisper_values(capsys):
    args = parse()
    assert (args.beam_size, args.best_of, args.temperature, args.condition_on_previous_text, args.verbose,
            args.output_format, args.output_dir, args.language, args.task) == (5, 5, 0.0, True, True, "all", ".",
                                                                               None, "transcribe")
    assert parse("-o", "x", "-f", "json", "--compile").output_dir == "x"
    assert parse("--language", "de").language == "de" and parse("--language", "None").language is None
    for bad in (["--condition_on_previous_text", "false"], ["--verbose", "1"], ["--language", "klingon"],
                ["--output_format", "docx"], ["--batch-size", "0"], ["--temperature_increment_on_fallback", "0"]):
        with pytest.raises(SystemExit):
            parse(*bad)
    assert "expected True or False" in capsys.readouterr().err


def test_temperature_schedule_is_openai_whisper_s():
    assert fallback_temperatures(0.0, 0.2) == tuple(np.arange(0.0, 1.0 + 1e-6, 0.2))  # its CLI's expression
    assert len(fallback_temperatures(0.0, 0.2)) == 6 and fallback_temperatures(0.5, None) == (0.5,)
    options = script.transcribe_options(parse("--temperature", "0.4", "--beam-size", "None"))
    assert options["temperature"] == tuple(np.arange(0.4, 1.0 + 1e-6, 0.2)) and options["beam_size"] is None
    assert "compile" not in options and script.transcribe_options(parse("--compile"))["compile"] is True


def test_model_dispatch(tmp_path, monkeypatch):
    (tmp_path / "hf").mkdir()
    (tmp_path / "hf" / "config.json").write_text(json.dumps({"model_type": "whisper"}))
    checkpoint = tmp_path / "tiny.pt"
    checkpoint.write_bytes(b"not read here")
    assert script.model_kind("whisper_tiny") == "preset"
    assert script.model_kind(str(tmp_path / "hf")) == "directory"
    assert script.model_kind(str(checkpoint)) == "whisper"
    assert script.LOADERS["directory"] is load_run_directory and script.LOADERS["whisper"] is zoo.from_whisper
    calls = []
    for kind in script.LOADERS:
        monkeypatch.setitem(script.LOADERS, kind, lambda source, kind=kind: calls.append((kind, source))
                            or torch.nn.Linear(2, 2))
    for source in ("whisper_micro", str(tmp_path / "hf"), str(checkpoint)):
        model = script.load_model(parse("--model", source, "--device", "cpu", "--dtype", "bf16"))
        assert not model.training and model.weight.dtype == torch.bfloat16
    assert calls == [("preset", "whisper_micro"), ("directory", str(tmp_path / "hf")), ("whisper", str(checkpoint))]
    for bad, message in (("gpt_tiny", "not a whisper one"), ("no_such_model", "neither"),
                         (str(tmp_path / "hf" / "config.json"), ".pt")):
        with pytest.raises(SystemExit, match=message):
            script.model_kind(bad)


def test_a_preset_warns_that_its_weights_are_random(monkeypatch):
    monkeypatch.setattr(zoo, "create_model", lambda name: torch.nn.Linear(2, 2))
    with pytest.warns(UserWarning, match="random weights"):
        script.create_preset("whisper_micro")


def test_a_preset_is_drawn_from_its_seed_and_leaves_the_random_stream_alone():
    torch.manual_seed(1)
    first = script.load_any_model("whisper_micro", seed=3)
    after = torch.rand(4)  # the stream went on from where it was: the preset's draws were apart from it
    torch.manual_seed(1)
    assert torch.equal(torch.rand(4), after)
    torch.rand(1000)  # wherever the stream stands, the seed names the same preset
    again = script.load_any_model("whisper_micro", seed=3)
    other = script.load_any_model("whisper_micro", seed=4)
    tensors = [m.state_dict() for m in (first, again, other)]
    assert all(torch.equal(tensors[0][k], tensors[1][k]) for k in tensors[0])
    assert not all(torch.equal(tensors[0][k], tensors[2][k]) for k in tensors[0])


def stub_result(path):
    name = str(path).rsplit("/", 1)[-1]
    return {"text": f" Ünïcode {name}", "language": "en",
            "segments": [{"id": 0, "seek": 0, "start": 0.0, "end": 3661.5, "text": f" Ünïcode {name}",
                          "tokens": [1, 2], "temperature": 0.0, "avg_logprob": -0.1, "compression_ratio": 1.0,
                          "no_speech_prob": 0.0}]}


@pytest.fixture
def audio_dir(tmp_path):
    directory = tmp_path / "audio"
    directory.mkdir()
    for name in ("a.wav", "b.flac", "c.mp3", "notes.txt", "cover.jpg"):
        (directory / name).write_bytes(b"")  # the stub never reads them
    return directory


@pytest.fixture
def stub(monkeypatch):
    calls = []

    def transcribe(model, audio, **options):
        calls.append((audio, options))
        return [stub_result(a) for a in audio] if isinstance(audio, list) else stub_result(audio)

    monkeypatch.setattr(zoo, "transcribe", transcribe, raising=False)
    monkeypatch.setitem(script.LOADERS, "preset", lambda name: torch.nn.Linear(2, 2))
    return calls


@pytest.mark.parametrize("batch_size", [1, 2])
def test_run_writes_the_transcripts(audio_dir, tmp_path, stub, batch_size, capsys):
    out = tmp_path / "out"
    written = script.main([str(audio_dir), "--model", "whisper_micro", "--output-dir", str(out), "--batch-size",
                           str(batch_size), "--device", "cpu", "--beam_size", "2", "--language", "en"])
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{s}.{f}" for s in "abc" for f in FORMATS)
    assert sorted(written) == sorted(out.iterdir())
    for stem, suffix in (("a", "wav"), ("b", "flac"), ("c", "mp3")):
        for fmt in FORMATS:
            assert (out / f"{stem}.{fmt}").read_text(encoding="utf-8") == render(stub_result(f"{stem}.{suffix}"), fmt)
    audio = [call[0] for call in stub]
    if batch_size == 1:
        assert audio == [str(audio_dir / n) for n in ("a.wav", "b.flac", "c.mp3")]  # directory: audio files only
    else:
        assert audio == [[str(audio_dir / "a.wav"), str(audio_dir / "b.flac")], str(audio_dir / "c.mp3")]
    options = stub[0][1]
    assert options["beam_size"] == 2 and options["language"] == "en" and options["task"] == "transcribe"
    assert options["temperature"] == fallback_temperatures(0.0, 0.2) and options["condition_on_previous_text"]
    assert "[00:00.000 --> 01:01:01.500] Ünïcode a.wav" in capsys.readouterr().out  # --verbose True (default)


def test_one_format_and_a_failing_file(audio_dir, tmp_path, stub, monkeypatch, capsys):
    def flaky(model, audio, **options):
        if audio.endswith("b.flac"):
            raise RuntimeError("cannot decode b")
        return stub_result(audio)

    monkeypatch.setattr(zoo, "transcribe", flaky)
    out = tmp_path / "out"
    with pytest.raises(SystemExit, match="1 of 3 audio files failed"):
        script.main([str(audio_dir), "--model", "whisper_micro", "-o", str(out), "-f", "srt", "--verbose", "False",
                     "--device", "cpu"])
    assert sorted(p.name for p in out.iterdir()) == ["a.srt", "c.srt"]
    captured = capsys.readouterr()
    assert "Skipping" in captured.err and "cannot decode b" in captured.err and "Ünïcode" not in captured.out


def test_refusals(audio_dir, tmp_path, stub, monkeypatch):
    base = ["--model", "whisper_micro", "-o", str(tmp_path / "out")]
    with pytest.raises(SystemExit, match="missing.wav"):
        script.main([str(tmp_path / "missing.wav"), *base])
    (tmp_path / "a.flac").write_bytes(b"")
    with pytest.raises(SystemExit, match="same transcripts"):
        script.main([str(audio_dir / "a.wav"), str(tmp_path / "a.flac"), *base])
    monkeypatch.delattr(zoo, "transcribe", raising=False)
    with pytest.raises(SystemExit, match="zoo.transcribe is not available"):
        script.main([str(audio_dir), *base])
    assert not (tmp_path / "out").exists()


@pytest.fixture
def reading_stub(stub, monkeypatch):
    """zoo.transcribe as far as files go: it reads every audio of its call first (load_audio's errors, as the real
    one's Transcriber.start), then returns a result per file."""
    from data.audio_io import load_audio

    def transcribe(model, audio, **options):
        stub.append((audio, options))
        for path in audio if isinstance(audio, list) else [audio]:
            load_audio(path)
        return [stub_result(a) for a in audio] if isinstance(audio, list) else stub_result(audio)

    monkeypatch.setattr(zoo, "transcribe", transcribe)
    return stub


def test_a_bad_file_in_a_batch_fails_alone(tmp_path, reading_stub, capsys):
    """--batch-size 2 with a file that is not audio, one without samples and one of zero bytes beside good ones:
    the good ones are written, each bad one is one line on stderr naming it and why, and the exit is non-zero."""
    import soundfile

    files = {name: tmp_path / name for name in ("a.wav", "b.wav", "c.wav", "d.wav", "e.wav")}
    for name in ("a.wav", "d.wav"):
        soundfile.write(files[name], np.zeros(1600, dtype=np.float32), 16000)
    files["b.wav"].write_text("not audio")
    soundfile.write(files["c.wav"], np.zeros(0, dtype=np.float32), 16000)
    files["e.wav"].write_bytes(b"")
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as exit_info:  # batches (a, b), (c, d), (e,)
        script.main([*map(str, files.values()), "--model", "whisper_micro", "-o", str(out), "-f", "txt",
                     "--batch-size", "2", "--verbose", "False"])
    assert exit_info.value.code == f"3 of 5 audio files failed: {files['b.wav']}, {files['c.wav']}, {files['e.wav']}"
    assert sorted(p.name for p in out.iterdir()) == ["a.txt", "d.txt"]
    assert (out / "a.txt").read_text(encoding="utf-8") == render(stub_result(files["a.wav"]), "txt")
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("Skipping")]
    assert len(lines) == 3 and "Traceback" not in "".join(lines)
    for line, name, why in zip(lines, ("b.wav", "c.wav", "e.wav"), ("as audio", "is empty", "as audio")):
        assert line.startswith(f"Skipping {files[name]} due to ") and why in line


def test_a_bad_option_is_one_error_not_a_failure_per_file(tmp_path, capsys):
    """An option zoo.transcribe refuses (a clip that ends before it starts) is the same for every file: one
    ConfigError (zoo.cli.common.run prints it in one line), no file reported as skipped, nothing written."""
    import soundfile

    from zoo.registry import ConfigError

    files = [tmp_path / name for name in ("a.wav", "b.wav")]
    for path in files:
        soundfile.write(path, np.zeros(1600, dtype=np.float32), 16000)
    out = tmp_path / "out"
    with pytest.raises(ConfigError, match="clip_timestamps"):
        script.main([*map(str, files), "--model", "whisper_micro", "-o", str(out), "--clip_timestamps", "5,1",
                     "--verbose", "False"])
    assert "Skipping" not in capsys.readouterr().err and list(out.iterdir()) == []


@pytest.mark.parametrize("where", ["a file", "under a file", "a directory in an output's place"])
def test_an_unusable_output_dir_is_refused_before_any_decoding(audio_dir, tmp_path, stub, where, capsys):
    taken = tmp_path / "taken"
    taken.write_text("keep me")
    output = {"a file": taken, "under a file": taken / "out", "a directory in an output's place": tmp_path / "o"}
    if where.startswith("a directory"):
        (tmp_path / "o" / "b.srt").mkdir(parents=True)
    with pytest.raises(SystemExit) as exit_info:
        script.main([str(audio_dir), "--model", "whisper_micro", "-o", str(output[where]), "-f", "srt"])
    message = str(exit_info.value)
    assert exit_info.value.code == 2 and message.startswith(f"--output_dir {str(output[where])!r}")
    assert "expected" in message and "\n" not in message and stub == []  # nothing decoded
    assert taken.read_text() == "keep me"


# ------------------------------------------------------------------------ word timestamps

WORD_FLAGS = [  # (openai-whisper's flag, value, parsed)
    ("word_timestamps", "True", True), ("prepend_punctuations", "\"(", "\"("), ("append_punctuations", ".,", ".,"),
    ("highlight_words", "True", True), ("max_line_width", "42", 42), ("max_line_count", "2", 2),
    ("max_words_per_line", "None", None), ("hallucination_silence_threshold", "2.5", 2.5),
    ("clip_timestamps", "1,5.5", "1,5.5"),
]


@pytest.mark.parametrize("name,value,want", WORD_FLAGS, ids=[s[0] for s in WORD_FLAGS])
def test_word_flags_in_both_spellings(name, value, want):
    for spelling in (name, name.replace("_", "-")):
        assert getattr(parse("--word_timestamps", "True", f"--{spelling}", value), name) == want


def test_word_flags_defaults_and_refusals(capsys):
    args = parse()
    assert (args.word_timestamps, args.highlight_words, args.max_line_width, args.max_line_count,
            args.max_words_per_line, args.hallucination_silence_threshold) == (False, False, None, None, None, None)
    assert args.prepend_punctuations == "\"'“¿([{-" and args.append_punctuations == "\"'.。,，!！?？:：”)]}、"
    assert "word_timestamps" not in script.transcribe_options(args)
    assert parse("--word_timestamps", "True", "--highlight_words").highlight_words is True  # bare: True
    for bad in (["--highlight_words", "True"], ["--max_line_width", "30"], ["--max_words_per_line", "3"],
                ["--word_timestamps", "True", "--max_line_width", "0"]):
        with pytest.raises(SystemExit):
            parse(*bad)
    assert "--highlight_words requires --word_timestamps True" in capsys.readouterr().err
    with pytest.warns(UserWarning, match="no effect without --max_line_width"):
        parse("--word_timestamps", "True", "--max_line_count", "2")
    with pytest.warns(UserWarning, match="no effect with --max_line_width"):
        parse("--word_timestamps", "True", "--max_line_width", "20", "--max_words_per_line", "2")


def words_result(path):
    result = stub_result(path)
    words = [{"word": w, "start": 0.5 * i, "end": 0.5 * i + 0.4, "probability": 0.9}
             for i, w in enumerate([" Ünïcode", " words", " in", " a", " row,", " timed."])]
    result["segments"][0].update(words=words, start=0.0, end=2.9)
    return result


def test_run_with_word_timestamps(audio_dir, tmp_path, stub, monkeypatch):
    monkeypatch.setattr(zoo, "transcribe", lambda model, audio, **options: stub.append((audio, options))
                        or words_result(audio))
    out = tmp_path / "out"
    script.main([str(audio_dir / "a.wav"), "--model", "whisper_micro", "-o", str(out), "--device", "cpu",
                 "--word-timestamps", "True", "--highlight-words", "True", "--max_words_per_line", "4",
                 "--append_punctuations", ".", "--hallucination_silence_threshold", "3", "--verbose", "False"])
    options = stub[0][1]
    assert options["word_timestamps"] is True and options["append_punctuations"] == "."
    assert options["hallucination_silence_threshold"] == 3.0 and options["prepend_punctuations"] == "\"'“¿([{-"
    for fmt in ("srt", "vtt"):
        want = render(words_result("a.wav"), fmt, highlight_words=True, max_words_per_line=4)
        assert (out / f"a.{fmt}").read_text(encoding="utf-8") == want and "<u>row,</u>" in want
    assert json.loads((out / "a.json").read_text())["segments"][0]["words"][1]["word"] == " words"


def test_vad_flags_reach_transcribe(audio_dir, tmp_path, stub):
    """--vad_filter / --vad_parameters go to zoo.transcribe by faster-whisper's names; --chunk_batch_size makes
    each file batched long-form (one file per call, batch_size = the chunks decoded at once)."""
    base = [str(audio_dir), "--model", "whisper_micro", "-o", str(tmp_path / "out"), "--verbose", "False"]
    script.main([*base, "--vad_filter", "True", "--vad-parameters", '{"min_silence_duration_ms": 500}',
                 "--batch-size", "2"])
    assert [options["vad_filter"] for _, options in stub] == [True, True]
    assert stub[0][1]["vad_parameters"] == {"min_silence_duration_ms": 500}
    stub.clear()
    script.main([*base, "--chunk-batch-size", "4", "--batch-size", "2"])
    assert [(isinstance(audio, str), options["batch_size"]) for audio, options in stub] == [(True, 4)] * 3
    assert "vad_filter" not in stub[0][1]


@pytest.mark.parametrize("text,message", [('{"treshold": 0.5}', "treshold"), ("{min_silence", "not JSON"),
                                          ("[1, 2]", "JSON object"), ('{"threshold": 2}', "threshold")])
def test_bad_vad_parameters_are_named(text, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        script.parse_args(["a.wav", "--model", "m", "--vad_parameters", text])
    assert exit_info.value.code == 2 and message in capsys.readouterr().err
