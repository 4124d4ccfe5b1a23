"""Transcribe (or translate) audio files with a Whisper model into txt, vtt, srt, tsv and json files.

    zoo transcribe talk.flac --model path/to/tiny.pt --language en --output_dir out
    zoo transcribe recordings/ --model path/to/hf_whisper --output-format srt --beam-size 5
    zoo transcribe talk.flac --model path/to/faster-whisper-base   # a CTranslate2 directory
    zoo transcribe a.wav b.wav --model whisper_tiny --batch-size 2   # preset: random weights

openai-whisper's `whisper` command, on zoo.transcribe: the flags it shares take openai-whisper's names,
defaults and value syntax (--beam_size None, --condition_on_previous_text False), in either spelling
(--beam_size or --beam-size). --model is a preset name (random weights, for trying the pipeline), an HF,
CTranslate2 (faster-whisper) or save_pretrained directory, or an openai-whisper .pt checkpoint
(zoo.cli.models); one that does not exist or fails to load is named in one line. A directory argument stands for the
audio files directly inside it (wav flac ogg mp3 m4a opus aiff). Outputs are named after each audio file
(talk.flac -> out/talk.srt). --word_timestamps True times every word; --highlight_words, --max_line_width,
--max_line_count and --max_words_per_line then re-flow the srt and vtt cues as openai-whisper's writers do
(they need --word_timestamps True, as in openai-whisper). --batch-size > 1 decodes that many files together.
A file that fails (unreadable, not audio, empty) is reported in one line and skipped, as openai-whisper does,
and its batch's other files are still transcribed; the exit status is then 1. --output_dir is created and
checked before the model loads: one that is a file or cannot be written to is named in one line.
"""
from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

import torch
from tqdm import tqdm

import zoo
from data.vad import vad_options
from data.whisper_tokenizer import LANGUAGES, TO_LANGUAGE_CODE
from zoo.cli.common import METAVARS, add_runtime_arguments, apply_threads, parser, place
from zoo.cli.common import flag as dashed_flag
from zoo.cli.models import LOADERS, create_preset
from zoo.cli.models import load_model as load_any_model
from zoo.cli.models import model_kind as any_model_kind
from zoo.cli.outputs import output_dir
from zoo.generation.transcribe_options import fallback_temperatures
from zoo.generation.transcripts import (
    FORMATS,
    WORD_OPTIONS,
    clashing_outputs,
    collect_audio_files,
    expand_formats,
    format_timestamp,
    output_stem,
    write_result,
)
from zoo.generation.word_timing import APPEND_PUNCTUATIONS, PREPEND_PUNCTUATIONS
from zoo.registry import ConfigError

__all__ = ["LOADERS", "create_preset", "load_model", "main", "model_kind", "parse_args", "transcribe_options",
           "writer_options"]


def str2bool(text: str) -> bool:
    """openai-whisper's booleans: exactly "True" or "False"."""
    if text not in ("True", "False"):
        raise argparse.ArgumentTypeError(f"expected True or False, got {text!r}")
    return text == "True"


def optional_int(text: str) -> int | None:
    return None if text == "None" else int(text)


def optional_float(text: str) -> float | None:
    return None if text == "None" else float(text)


def language_code(text: str) -> str | None:
    """A language code or name (any case) -> its code; "None" detects the language."""
    if text == "None":
        return None
    code = TO_LANGUAGE_CODE.get(text.lower(), text.lower())
    if code not in LANGUAGES:
        raise argparse.ArgumentTypeError(f"unknown language {text!r}: expected a code ({', '.join(LANGUAGES)}) "
                                         "or a language name")
    return code


METAVARS = {**METAVARS, str2bool: "True|False", optional_int: "INT|None", optional_float: "FLOAT|None",
            language_code: "LANG"}


def vad_json(text: str) -> dict:
    """--vad_parameters: a JSON object of VadOptions fields (checked by name and range by data.vad)."""
    try:
        parameters = json.loads(text)
    except json.JSONDecodeError as error:
        raise argparse.ArgumentTypeError(f"not JSON ({error}): expected an object such as "
                                         '\'{"min_silence_duration_ms": 500}\'') from None
    if not isinstance(parameters, dict):
        raise argparse.ArgumentTypeError(f"expected a JSON object of VAD options, got {type(parameters).__name__}")
    try:
        vad_options(parameters)
    except (TypeError, ValueError) as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return parameters


def flag(p, name: str, *short: str, **kwargs) -> None:
    """--name-with-hyphens and openai-whisper's --name_with_underscores for one option."""
    if kwargs.get("action") is None and "choices" not in kwargs:
        kwargs.setdefault("metavar", METAVARS.get(kwargs.get("type"), "TEXT"))
    dashed_flag(p, name, *short, **kwargs)


def add_word_arguments(p: argparse.ArgumentParser) -> None:
    """openai-whisper's word-timestamp flags, and its writers' word options."""
    w = p.add_argument_group("word timestamps")
    flag(w, "word_timestamps", type=str2bool, default=False,
         help="time each word (cross-attention alignment) and cue subtitles by words")
    flag(w, "prepend_punctuations", default=PREPEND_PUNCTUATIONS, help="joined to the next word")
    flag(w, "append_punctuations", default=APPEND_PUNCTUATIONS, help="joined to the previous word")
    flag(w, "highlight_words", type=str2bool, nargs="?", const=True, default=False,
         help="underline each word as it is spoken in srt and vtt (bare flag: True)")
    flag(w, "max_line_width", type=optional_int, default=None, help="characters in a line before it breaks")
    flag(w, "max_line_count", type=optional_int, default=None, help="lines in a cue (with --max_line_width)")
    flag(w, "max_words_per_line", type=optional_int, default=None,
         help="words in a cue (no effect with --max_line_width)")
    flag(w, "hallucination_silence_threshold", type=optional_float, default=None,
         help="seconds: skip silence this long before a likely hallucination")


def add_vad_arguments(p: argparse.ArgumentParser) -> None:
    """faster-whisper's voice-activity detection, and its batched long-form."""
    v = p.add_argument_group("voice-activity detection (faster-whisper's)")
    flag(v, "vad_filter", type=str2bool, default=False,
         help="transcribe only the speech Silero VAD finds; times stay the audio's")
    flag(v, "vad_parameters", type=vad_json, default=None, metavar="JSON",
         help='its options by faster-whisper\'s names, e.g. \'{"min_silence_duration_ms": 500}\'')
    flag(v, "chunk_batch_size", type=int, default=0,
         help="batched long-form: each file's speech in chunks of at most 30 s, this many decoded at once, no "
              "text carried between them (faster-whisper's BatchedInferencePipeline); 0: off")


def parse_args(argv=None) -> argparse.Namespace:
    p = parser(__doc__)
    p.add_argument("audio", nargs="+", help="audio files, or directories of them")
    flag(p, "model", required=True, metavar="MODEL",
         help="preset, HF, CTranslate2 or save_pretrained directory, or .pt file")
    flag(p, "output_dir", "-o", default=".", metavar="DIR", help="directory to write the transcripts into")
    flag(p, "output_format", "-f", default="all", choices=[*FORMATS, "all"])
    flag(p, "verbose", type=str2bool, default=True, help="print each segment as its file is done")
    flag(p, "task", default="transcribe", choices=["transcribe", "translate"])
    flag(p, "language", type=language_code, default=None, help="code or name; default: detect it")
    flag(p, "temperature", type=float, default=0.0)
    flag(p, "best_of", type=optional_int, default=5, help="candidates when sampling (temperature > 0)")
    flag(p, "beam_size", type=optional_int, default=5, help="beams when temperature is 0 (None: greedy)")
    flag(p, "patience", type=float, default=None, help="beam search patience (default 1.0)")
    flag(p, "initial_prompt", default=None, help="text to prompt the first window with")
    flag(p, "condition_on_previous_text", type=str2bool, default=True)
    flag(p, "temperature_increment_on_fallback", type=optional_float, default=0.2,
         help="temperature step when a window fails the thresholds below (None: no fallback)")
    flag(p, "compression_ratio_threshold", type=optional_float, default=2.4)
    flag(p, "logprob_threshold", type=optional_float, default=-1.0)
    flag(p, "no_speech_threshold", type=optional_float, default=0.6)
    flag(p, "clip_timestamps", default="0",
         help="start,end,start,end,... seconds of the clips to transcribe (the last end: the audio's)")
    add_word_arguments(p)
    add_vad_arguments(p)
    g = p.add_argument_group("zoo")
    flag(g, "batch_size", type=int, default=1, help="files decoded together")
    flag(g, "compile", action="store_true", help="decode through torch.compile (the first window compiles)")
    add_runtime_arguments(p, underscores=True)
    args = p.parse_args(argv)
    if args.batch_size < 1 or args.chunk_batch_size < 0:
        p.error(f"--batch-size must be at least 1 and --chunk-batch-size at least 0, got {args.batch_size} and "
                f"{args.chunk_batch_size}")
    if args.temperature_increment_on_fallback is not None and args.temperature_increment_on_fallback <= 0:
        p.error(f"--temperature_increment_on_fallback must be positive or None, got "
                f"{args.temperature_increment_on_fallback}")
    for option in WORD_OPTIONS:
        value = getattr(args, option)
        if value and not args.word_timestamps:
            p.error(f"--{option} requires --word_timestamps True")
        if option != "highlight_words" and value is not None and value <= 0:
            p.error(f"--{option} must be positive or None, got {value}")
    if args.hallucination_silence_threshold is not None and not args.word_timestamps:
        warnings.warn("--hallucination_silence_threshold has no effect without --word_timestamps True", stacklevel=2)
    if args.max_line_count and not args.max_line_width:
        warnings.warn("--max_line_count has no effect without --max_line_width", stacklevel=2)
    if args.max_words_per_line and args.max_line_width:
        warnings.warn("--max_words_per_line has no effect with --max_line_width", stacklevel=2)
    return args


def model_kind(source: str) -> str:
    """What --model names (zoo.cli.models.model_kind, Whisper models only): "preset", "directory" or "whisper"."""
    return any_model_kind(source, ("whisper",))


def load_model(args: argparse.Namespace) -> torch.nn.Module:
    """--model (zoo.cli.models.load_model), on --device in --dtype."""
    return place(load_any_model(args.model, ("whisper",)), args)


def transcribe_options(args: argparse.Namespace) -> dict:
    """zoo.transcribe's keyword options (openai-whisper's names) from the parsed flags."""
    options = dict(task=args.task, language=args.language,
                   temperature=fallback_temperatures(args.temperature, args.temperature_increment_on_fallback),
                   best_of=args.best_of, beam_size=args.beam_size, patience=args.patience,
                   initial_prompt=args.initial_prompt, condition_on_previous_text=args.condition_on_previous_text,
                   compression_ratio_threshold=args.compression_ratio_threshold,
                   logprob_threshold=args.logprob_threshold, no_speech_threshold=args.no_speech_threshold,
                   clip_timestamps=args.clip_timestamps)
    if args.word_timestamps:
        options.update(word_timestamps=True, prepend_punctuations=args.prepend_punctuations,
                       append_punctuations=args.append_punctuations,
                       hallucination_silence_threshold=args.hallucination_silence_threshold)
    if args.vad_filter:
        options.update(vad_filter=True, vad_parameters=args.vad_parameters)
    if args.chunk_batch_size:  # one file at a time (run), its chunks in batches
        options.update(batch_size=args.chunk_batch_size, vad_parameters=args.vad_parameters)
    if args.compile:
        options["compile"] = True
    return options


def writer_options(args: argparse.Namespace) -> dict:
    """The writers' word options (openai-whisper's) from the parsed flags."""
    return {name: getattr(args, name) for name in WORD_OPTIONS}


def get_transcribe():
    """zoo.transcribe, looked up at run time, with a clear exit where this checkout lacks it."""
    transcribe = getattr(zoo, "transcribe", None)
    if transcribe is None:
        raise SystemExit("zoo.transcribe is not available in this checkout (zoo/generation/transcribe.py); "
                         "this script writes its results and cannot run without it")
    return transcribe


def print_result(path: Path, result: dict) -> None:
    tqdm.write(f"{path} ({result.get('language')}):")
    for segment in result["segments"]:
        tqdm.write(f"[{format_timestamp(segment['start'])} --> {format_timestamp(segment['end'])}] "
                   f"{segment['text'].strip()}")


def report_failure(path: Path, error: Exception) -> None:
    """One line on stderr: the file and why it failed (openai-whisper's words, without its traceback)."""
    why = " ".join(str(error).split()) or "no message"
    tqdm.write(f"Skipping {path} due to {type(error).__name__}: {why}", file=sys.stderr)


def transcribe_batch(transcribe, model, batch: list[Path], options: dict) -> list[dict]:
    """One file as a path (openai-whisper's call), several as a list (decoded together): a result per file."""
    if len(batch) == 1:
        return [transcribe(model, str(batch[0]), **options)]
    results = transcribe(model, [str(f) for f in batch], **options)
    if not isinstance(results, list) or len(results) != len(batch):
        raise ValueError(f"zoo.transcribe returned {type(results).__name__} for a list of {len(batch)} audio "
                         "files; expected a list of as many result dicts")
    return results


def transcribe_each(transcribe, model, batch: list[Path], options: dict) -> list[dict | Exception]:
    """A result per file, or the error that file raised alone: a batch that fails is decoded again file by
    file, so one bad file (unreadable, not audio, empty) does not take its neighbours with it. A bad file
    fails as its audio is read, before any decoding, so the batch's failed try costs little."""
    try:
        return transcribe_batch(transcribe, model, batch, options)
    except ConfigError:  # a bad option, the same for every file: one line (zoo.cli.common.run), not per file
        raise
    except Exception as error:  # noqa: BLE001 - any other failure is the file's, reported and skipped
        if len(batch) == 1:
            return [error]
    return [transcribe_each(transcribe, model, [path], options)[0] for path in batch]


def run(transcribe, model, files: list[Path], args: argparse.Namespace) -> tuple[list[Path], list[Path]]:
    """Transcribe `files` in batches and write each result; returns (files written, audio files skipped).
    A file that fails, or whose result cannot be written, is reported and skipped, and its batch's other
    files are not (openai-whisper's CLI goes on to the next file too)."""
    options, written, skipped = transcribe_options(args), [], []
    with tqdm(total=len(files), unit="file", desc="transcribing") as bar:
        files_at_once = 1 if args.chunk_batch_size else args.batch_size  # batched long-form: a file's chunks
        for first in range(0, len(files), files_at_once):
            batch = files[first:first + files_at_once]
            for path, result in zip(batch, transcribe_each(transcribe, model, batch, options)):
                if isinstance(result, Exception):
                    report_failure(path, result)
                    skipped.append(path)
                    continue
                try:
                    written += write_result(result, path, args.output_dir, args.output_format,
                                            **writer_options(args))
                except Exception as error:  # noqa: BLE001
                    report_failure(path, error)
                    skipped.append(path)
                    continue
                if args.verbose:
                    print_result(path, result)
            bar.update(len(batch))
    return written, skipped


def main(argv=None) -> list[Path]:
    """Returns the transcript files written; exits with status 1 after writing if any audio file failed."""
    args = parse_args(argv)
    model_kind(args.model)  # a --model that is not there is said before the audio is looked at
    try:
        files = collect_audio_files(args.audio)
    except (FileNotFoundError, ValueError) as error:
        raise SystemExit(str(error)) from None
    clashes = clashing_outputs(files)
    if clashes:
        raise SystemExit(f"these files would write the same transcripts in {args.output_dir!r}: {clashes}")
    transcribe = get_transcribe()
    formats = expand_formats(args.output_format)
    output_dir(args.output_dir, "--output_dir", [f"{output_stem(f)}.{fmt}" for f in files for fmt in formats])
    apply_threads(args)
    model = load_model(args)
    written, skipped = run(transcribe, model, files, args)
    if skipped:
        raise SystemExit(f"{len(skipped)} of {len(files)} audio files failed: {', '.join(map(str, skipped))}")
    return written
