"""Whisper transcription speed: many short files through zoo.transcribe as one batch against file by file
(and openai-whisper's transcribe file by file), and minutes of audio: the real-time factor (seconds of
compute per second of audio) of zoo.transcribe against openai-whisper's transcribe, which give the same
segments on the same weights (checked), with transformers' long-form generate and faster-whisper's
transcribe beside them (their own windowing and rules: their token counts are reported, not forced equal).
faster-whisper runs in its worker process (whisper_refs.load_ct2; bench.workers says why), timed there.

Greedy at temperature 0 only (no fallback), no conditioning on previous text, no silence or log-prob
rules, no timestamps, every special token suppressed: each 30 s window decodes exactly the forced count.
"""
from __future__ import annotations

import statistics

import numpy as np

import zoo
from bench.config import WhisperBench
from bench.report import BenchmarkError, table
from bench.timing import interleaved, summarize
from bench.whisper_refs import WhisperModels, synthetic_audio
from bench.whisper_sides import ForcedDecoding, bf16_packed, calibrate_ct2
from bench.workers import bind
from data.audio import SAMPLE_RATE, log_mel_spectrogram, pad_or_trim

BATCH_SIZE = 8  # audios zoo.transcribe decodes together


def options(forced: ForcedDecoding) -> dict:
    """The transcribe options ours and openai-whisper share (openai-whisper's names)."""
    return {"language": "en", "temperature": 0.0, "condition_on_previous_text": False, "without_timestamps": True,
            "sample_len": forced.tokens, "suppress_tokens": list(forced.suppress), "compression_ratio_threshold": None,
            "logprob_threshold": None, "no_speech_threshold": None}


def ours_fn(model, forced: ForcedDecoding, batch_size: int | None = None):
    kw = options(forced)
    return lambda audio: zoo.transcribe(model, audio, batch_size=batch_size, **kw)


def bf16_name(compile: bool) -> str:
    return "ours bf16 packed" + ("+compiled" if compile else "")


def ours_bf16_fn(sides: WhisperModels, forced: ForcedDecoding, compile: bool):
    """zoo.transcribe on ours with bf16 weights, packed (and its encoder and decoding steps compiled): the
    configuration the window table times against faster-whisper int8. Its segments round differently from
    fp32's; with every special token suppressed it decodes the same count. -> audio -> its tokens."""
    model = bf16_packed(sides.ours)
    kw = options(forced)

    def run(audio: np.ndarray) -> list[int]:  # the decoded tokens, as the other libraries' sides give them
        return [t for s in zoo.transcribe(model, audio, compile=compile, **kw)["segments"] for t in s["tokens"]]
    return run


def openai_fn(model, forced: ForcedDecoding):
    import whisper

    kw = {**options(forced), "fp16": False, "verbose": None}
    return lambda audio: whisper.transcribe(model, audio, **kw)


def hf_long_fn(sides: WhisperModels, forced: ForcedDecoding):
    """transformers' long-form generate over the whole log-mel: it requires timestamps (its rules then place
    them), so only <|endoftext|> and the other non-timestamp special tokens are suppressed."""
    import transformers

    extractor = transformers.WhisperFeatureExtractor.from_pretrained(sides.directory)
    suppress = list(range(forced.eot, sides.tokenizer.timestamp_begin))

    def run(audio: np.ndarray) -> list[int]:
        inputs = extractor(audio, sampling_rate=SAMPLE_RATE, return_tensors="pt", truncation=False,
                           padding="longest", return_attention_mask=True)
        out = sides.hf.generate(inputs.input_features, attention_mask=inputs.attention_mask, language="en",
                                task="transcribe", return_timestamps=True, condition_on_prev_tokens=False,
                                temperature=0.0, max_new_tokens=forced.tokens, suppress_tokens=suppress)
        return [t for t in out[0].tolist() if t != forced.eot]
    return run


def fw_transcribe(faster, kw: dict, audio: np.ndarray) -> list[int]:
    """In a worker (whisper_refs.load_ct2): faster-whisper's WhisperModel.transcribe, its decoded tokens."""
    segments, _ = faster.transcribe(audio, **kw)
    return [t for s in segments for t in s.tokens]


def faster_whisper_fn(sides: WhisperModels, kind: str, forced: ForcedDecoding):
    """faster-whisper's transcribe in the worker of `kind`: its max_new_tokens is set so that the max_length it
    gives CTranslate2 is the one that decodes the forced count (whisper_sides.calibrate_ct2)."""
    kw = {k: v for k, v in options(forced).items() if k not in ("sample_len", "logprob_threshold")}
    kw.update(beam_size=1, best_of=1, log_prob_threshold=None, vad_filter=False,
              max_new_tokens=forced.ct2_max_length - len(forced.prompt))
    return sides.ct2[kind].bind(fw_transcribe, kw)


def segments(result: dict | list[dict]) -> list:
    results = result if isinstance(result, list) else [result]
    return [[(round(s["start"], 2), round(s["end"], 2), tuple(s["tokens"])) for s in r["segments"]] for r in results]


def check_same(what: str, outputs: dict) -> None:
    """Every side's segments equal the first side's, else BenchmarkError."""
    first, want = next(iter(outputs.items()))
    for name, got in outputs.items():
        if segments(got) != segments(want):
            raise BenchmarkError(f"{what}: {name} and {first} give different segments on the same weights; "
                                 "not timing different computations")


def short_files(sides: WhisperModels, forced: ForcedDecoding, config: WhisperBench) -> dict:
    rng = np.random.default_rng(3)
    files = [synthetic_audio(float(rng.uniform(5, 10)), seed=100 + i) for i in range(config.whisper_files)]
    batched, alone, ref = (ours_fn(sides.ours, forced, BATCH_SIZE), ours_fn(sides.ours, forced),
                           openai_fn(sides.openai, forced))
    fns = {"ours batched": lambda: batched(files), "ours file by file": lambda: [alone(f) for f in files],
           "openai-whisper file by file": lambda: [ref(f) for f in files]}
    check_same(f"{sides.name} short files", {k: fn() for k, fn in fns.items()})
    seconds = sum(len(f) for f in files) / SAMPLE_RATE
    times = interleaved(fns, 0, config.whisper_transcribe_repeats)
    ratios = {k: summarize(times, len(files), "ours batched", k) for k in fns if k != "ours batched"}
    return {"files": len(files), "audio_s": seconds, "tokens_per_file": forced.tokens, "times": times,
            "ratios": ratios}


def long_audio(sides: WhisperModels, forced: ForcedDecoding, config: WhisperBench) -> dict:
    audio = synthetic_audio(config.whisper_long_s, seed=4)
    fns = {"ours": ours_fn(sides.ours, forced), "openai-whisper": openai_fn(sides.openai, forced)}
    outputs = {k: fn(audio) for k, fn in fns.items()}
    check_same(f"{sides.name} {config.whisper_long_s} s", outputs)
    tokens = {k: sum(len(s["tokens"]) for s in out["segments"]) for k, out in outputs.items()}
    bf16 = bf16_name(config.whisper_compile)
    others = {bf16: lambda: ours_bf16_fn(sides, forced, config.whisper_compile),
              "transformers long-form": lambda: hf_long_fn(sides, forced)}
    for kind in sides.ct2_models():
        others[f"faster-whisper {kind}"] = lambda kind=kind: faster_whisper_fn(sides, kind, forced)
    notes = {}
    for name, make in others.items():
        try:
            fn = make()
            tokens[name] = len(fn(audio))
            fns[name] = fn
        except Exception as error:  # a library that cannot run here offline: said in the table
            notes[name] = f"{type(error).__name__}: {str(error).splitlines()[0][:120] if str(error) else ''}"
    times = interleaved({k: bind(fn, audio) for k, fn in fns.items()}, 0, config.whisper_transcribe_repeats)
    ratios = {k: summarize(times, 1, "ours", k) for k in fns if k != "ours"}
    bf16_ratios = {k: summarize(times, 1, bf16, k) for k in fns if k != bf16} if bf16 in fns else {}
    return {"audio_s": config.whisper_long_s, "tokens": tokens, "times": times, "ratios": ratios,
            "bf16_side": bf16, "bf16_ratios": bf16_ratios, "unavailable": notes}


def run(sides: WhisperModels, config: WhisperBench) -> dict:
    forced = ForcedDecoding.for_tokenizer(sides.tokenizer, config.whisper_file_tokens)
    short = short_files(sides, forced, config)
    print(f"  whisper transcribe {sides.name}: batched / file by file "
          f"{short['ratios']['ours file by file']['ratio']:.2f}", flush=True)
    long_forced = ForcedDecoding.for_tokenizer(sides.tokenizer, config.whisper_tokens)
    if "fp32" in sides.ct2_models():
        mel = log_mel_spectrogram(pad_or_trim(synthetic_audio(30, seed=1))).numpy()
        long_forced = sides.ct2["fp32"].call(calibrate_ct2, mel, long_forced)
    long = long_audio(sides, long_forced, config)
    print(f"  whisper transcribe {sides.name} {config.whisper_long_s} s: ours/openai-whisper "
          f"{long['ratios']['openai-whisper']['ratio']:.2f}", flush=True)
    return {"shape": sides.name, "short": short, "long": long, "long_tokens": config.whisper_tokens}


def _cell(r: dict) -> str:
    return f"**{r['ratio']:.2f}x** ({r['pair_ratio_iqr'][0]:.2f}-{r['pair_ratio_iqr'][1]:.2f})"


def report(result: dict, config: WhisperBench) -> str:
    short, long = result["short"], result["long"]
    med = {k: statistics.median(v) for k, v in short["times"].items()}
    short_table = table(["side", "s", "real-time factor", "ours batched speed-up (IQR)"],
                        [[k, f"{s:.2f}", f"{s / short['audio_s']:.3f}",
                          "-" if k == "ours batched" else _cell(short["ratios"][k])] for k, s in med.items()])
    lmed = {k: statistics.median(v) for k, v in long["times"].items()}
    bf16, bf16_ratios = long.get("bf16_side"), long.get("bf16_ratios", {})

    def speed_up(side: str, ours: str, ratios: dict) -> str:
        if side not in ratios:
            return "-"
        same = long["tokens"][side] == long["tokens"][ours]
        return _cell(ratios[side]) + ("" if same else " (other token count)")
    columns = ["side", "s", "real-time factor", "tokens decoded", "ours speed-up (IQR)"]
    columns += [f"{bf16} speed-up (IQR)"] if bf16_ratios else []
    long_table = table(columns, [[k, f"{s:.2f}", f"{s / long['audio_s']:.3f}", long["tokens"][k],
                                  speed_up(k, "ours", long["ratios"])]
                                 + ([speed_up(k, bf16, bf16_ratios)] if bf16_ratios else []) for k, s in lmed.items()])
    notes = [f"Unavailable: {k}: {v}" for k, v in long["unavailable"].items()]
    return "\n".join([
        f"\n### Whisper {result['shape']} transcription: {short['files']} files of 5-10 s ({short['audio_s']:.0f} s "
        f"in all), {short['tokens_per_file']} forced tokens each; zoo.transcribe(files, batch_size={BATCH_SIZE}) vs "
        f"file by file; segments identical (checked); {config.whisper_transcribe_repeats} interleaved runs, medians\n",
        short_table,
        f"\n{long['audio_s']} s of audio, {result['long_tokens']} forced tokens per 30 s window (no timestamps) for "
        "ours, openai-whisper (same segments, checked) and faster-whisper; ours in bf16 (packed; compiled in the full "
        "run) decodes the same count with bf16 rounding; transformers' long-form generate needs timestamps, so its "
        "rules and token count differ\n",
        long_table, *notes])
