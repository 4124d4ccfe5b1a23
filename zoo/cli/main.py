"""The `zoo` command: `zoo SUBCOMMAND [options]`, one subcommand per job of the scripts.

Each subcommand is a module with `main(argv)`; `zoo SUBCOMMAND --help` shows its options and their defaults.
`zoo bench` runs the repository's scripts/benchmark.py (the benchmarks are not installed): it needs a
checkout, and says so in one line without one.
"""
from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path

from zoo.cli.common import run

# name -> (module with main(argv), or "scripts/<file>" in the repository; one line of help)
COMMANDS = {
    "generate": ("zoo.cli.generate", "text from a decoder (GPT, LLaMA): sampling, beams, speculative, tokens/s"),
    "chat": ("zoo.cli.chat", "ask a LLaVA about an image, streaming its answers"),
    "transcribe": ("zoo.cli.transcribe", "Whisper transcripts (txt vtt srt tsv json), openai-whisper's flags"),
    "export": ("zoo.cli.export", "torch.export (.pt2) and ONNX with dynamic axes, checked against eager"),
    "train-text": ("zoo.cli.train_text", "train GPT / LLaMA (causal LM), BERT (masked LM, classification)"),
    "train-vision": ("zoo.cli.train_vision", "train or fine-tune a ViT image classifier"),
    "train-audio": ("zoo.cli.train_audio", "train keyword spotting (AST) or speech recognition (Whisper)"),
    "train-multimodal": ("zoo.cli.train_multimodal", "train a LLaVA in its two stages on shape scenes"),
    "train-translation": ("zoo.cli.train_translation", "train the 2017 Transformer to translate (BLEU, chrF)"),
    "translate": ("zoo.cli.translate", "translate sentences with a Marian model (beams, batches, files or stdin)"),
    "serve": ("zoo.cli.serve", "an OpenAI-compatible HTTP server: completions, chat, embeddings, audio"),
    "search": ("zoo.cli.search", "semantic search over sentences with a sentence-embedding model"),
    "bench": ("scripts/benchmark.py", "the benchmark tables (bench/, not installed: needs a checkout)"),
}
REPOSITORY = Path(__file__).resolve().parents[2]  # the checkout, where zoo is installed from one (pip -e)


def usage() -> str:
    width = max(map(len, COMMANDS))
    lines = [f"  {name:<{width}}  {text}" for name, (_, text) in COMMANDS.items()]
    return ("usage: zoo SUBCOMMAND [options]   (zoo SUBCOMMAND --help: its options and defaults)\n\n"
            "Text, vision and audio Transformers on one block library.\n\nsubcommands:\n" + "\n".join(lines))


def script_main(name: str, relative: str):
    """scripts/<file>'s main, loaded from the checkout; None where there is no checkout (an installed zoo)."""
    path = REPOSITORY / relative
    if not path.is_file():
        return None
    if str(REPOSITORY) not in sys.path:
        sys.path.insert(0, str(REPOSITORY))  # the scripts import bench/, which sits beside zoo/
    spec = importlib.util.spec_from_file_location(f"zoo_script_{name.replace('-', '_')}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.main


def main(argv: list[str] | None = None) -> int:
    """Run `zoo SUBCOMMAND ...` (argv: the words after `zoo`; default the command line); the exit status."""
    from_command_line = argv is None
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(usage())
        return 0 if argv else 2
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"zoo: unknown subcommand {name!r}; expected one of {', '.join(COMMANDS)} (zoo --help)",
              file=sys.stderr)
        return 2
    if from_command_line:
        sys.argv[0] = f"zoo {name}"  # every subcommand's usage line (argparse's prog) reads "zoo NAME"
    target = COMMANDS[name][0]
    if target.startswith("scripts/"):
        command = script_main(name, target)
        if command is None:
            print(f"zoo {name} runs {target} from a repository checkout, and this zoo is installed without one",
                  file=sys.stderr)
            return 2
    else:
        command = importlib.import_module(target).main
    return run(command, rest)


if __name__ == "__main__":
    sys.exit(main())
