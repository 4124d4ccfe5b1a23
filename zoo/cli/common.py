"""What every `zoo` subcommand shares: its parser, flags under two spellings, runtime options, usage errors.

A subcommand's parser comes from `parser(doc)`: the description as written and every option's default
in --help. `flag()` adds one option under the dashed spelling (--max-new-tokens) and the underscored one
(--max_new_tokens) where a reference command line spells it so (openai-whisper's `whisper`, litgpt's
`generate`). `add_runtime_arguments` adds --device, --dtype and --threads, `place()` applies them.
A command-line mistake raises `UsageError` (or a ConfigError where the options refuse a flag's value): `run()`
prints its one line and exits with status 2, as argparse does.
"""
from __future__ import annotations

import argparse
import copy
import sys
from collections.abc import Callable

import torch

from zoo.registry import ConfigError

DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}


class UsageError(SystemExit):
    """A command-line mistake (a model that does not exist, a hub id): one line, exit status 2."""

    def __init__(self, message: str):
        super().__init__(2)
        self.message = message

    def __str__(self) -> str:
        return self.message


def run(main: Callable, argv: list[str] | None = None) -> int:
    """Call a subcommand's `main(argv)` as a program: a UsageError, or a ConfigError (a flag's value that the
    options refuse: GenerationConfig.top_k=-1: expected an int >= 0), becomes its line on stderr and status 2."""
    try:
        result = main(argv)
    except (UsageError, ConfigError) as error:
        print(str(error), file=sys.stderr)
        return 2
    return result if isinstance(result, int) else 0


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """The description as written, and every option's default after its help (argparse's
    ArgumentDefaultsHelpFormatter shows it only on options that have help text)."""

    def _format_action(self, action: argparse.Action) -> str:
        shown = action.option_strings and action.help is not argparse.SUPPRESS
        shown = shown and "%(default)" not in (action.help or "")
        if shown and not any(action.default is none for none in (None, False, argparse.SUPPRESS)):
            action = copy.copy(action)
            action.help = f"{action.help or ''} (default: %(default)s)".lstrip()
        return super()._format_action(action)


def parser(doc: str | None) -> argparse.ArgumentParser:
    """A subcommand's parser: `doc` as its description, defaults shown in --help. Its usage line names the
    program as argparse does (the script's file name; `zoo NAME` under the zoo command, which sets argv[0])."""
    return argparse.ArgumentParser(description=doc, formatter_class=HelpFormatter)


def parse_dtype(text: str) -> str:
    if text not in DTYPES:
        raise argparse.ArgumentTypeError(f"expected one of {', '.join(DTYPES)}, got {text!r}")
    return text


METAVARS = {int: "INT", float: "FLOAT", str: "TEXT", None: "TEXT"}


def flag(p, name: str, *short: str, **kwargs) -> None:
    """One option under --name-with-dashes and --name_with_underscores (dest `name`): the second is the
    spelling of the reference command lines (openai-whisper, litgpt), accepted beside ours."""
    spellings = dict.fromkeys([f"--{name.replace('_', '-')}", f"--{name}"])
    if kwargs.get("action") is None and "choices" not in kwargs:
        kwargs.setdefault("metavar", METAVARS.get(kwargs.get("type"), "VALUE"))  # --help lists both spellings
    p.add_argument(*short, *spellings, dest=name, **kwargs)


def add_runtime_arguments(p, dtypes: tuple[str, ...] = ("fp32", "bf16"), underscores: bool = False) -> None:
    """--device, --dtype and --threads, in a group of their own."""
    g = p.add_argument_group("runtime")
    add = (lambda name, **kw: flag(g, name, **kw)) if underscores else \
        (lambda name, **kw: g.add_argument(f"--{name}", **kw))
    add("device", default="auto", metavar="DEVICE", help="cpu | cuda | cuda:N | auto (cuda when there is one)")
    add("dtype", choices=list(dtypes), default="fp32", help="the weights' dtype")
    add("threads", type=int, default=0, metavar="N", help="torch.set_num_threads (0: torch's default)")


def device_of(args: argparse.Namespace) -> torch.device:
    if args.device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        return torch.device(args.device)
    except RuntimeError:
        raise UsageError(f"--device {args.device!r}: expected cpu, cuda, cuda:N or auto") from None


def apply_threads(args: argparse.Namespace) -> None:
    if getattr(args, "threads", None):
        torch.set_num_threads(args.threads)


def place(model: torch.nn.Module, args: argparse.Namespace) -> torch.nn.Module:
    """The model in eval mode on --device in --dtype."""
    return model.to(device=device_of(args), dtype=DTYPES[args.dtype]).eval()
