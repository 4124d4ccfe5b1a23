"""A checkpoint's sentence pooling, as sentence-transformers records it, carried by the model that loads it.

A sentence-transformers directory is an HF one plus its pipeline (Reimers and Gurevych 2019):

    modules.json                  [Transformer (path ""), Pooling ("1_Pooling"), Normalize ("2_Normalize"), ...]
    1_Pooling/config.json         {"pooling_mode": "mean"} or, older, {"pooling_mode_mean_tokens": true, ...}
    sentence_bert_config.json     {"max_seq_length": 256}

`read_sentence_pooling` turns those into a `SentencePooling`; `zoo.from_hf` and `zoo.load_pretrained` attach it
to the model (`model.sentence_pooling`) and `save_pretrained` writes it back in the same files, so `zoo.embed`
pools a model as its checkpoint says after any round trip. Reading refuses only a file that is not JSON:
transformers loads such a directory's BERT whatever its pipeline says, and so do we. What embed cannot apply (a
mode sentence-transformers does not define, a Dense or other module) is kept, and refused by
`SentencePooling.check` when embedding.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from heads.pooling import POOLING_MODES
from zoo.io import CorruptCheckpointError, atomic_write_text

MODULES = "modules.json"
ST_CONFIG = "sentence_bert_config.json"
POOLING_DIR = "1_Pooling"   # where sentence-transformers saves its Pooling module (modules.json names it)
# sentence-transformers' older config: one boolean per mode, concatenated in this order.
LEGACY_MODE_KEYS = {"pooling_mode_cls_token": "cls", "pooling_mode_max_tokens": "max",
                    "pooling_mode_mean_tokens": "mean", "pooling_mode_mean_sqrt_len_tokens": "mean_sqrt_len_tokens",
                    "pooling_mode_weightedmean_tokens": "weightedmean", "pooling_mode_lasttoken": "lasttoken"}
_ST = "sentence_transformers.models."


@dataclass(frozen=True)
class SentencePooling:
    """modes: heads.pooling.pool's modes; normalize: L2 after pooling (a Normalize module);
    max_seq_length: tokens per text, specials included (None: the model's positions);
    dim: the features' width the Pooling config names (None: unchecked);
    other_modules: (type, path) of modules embed does not apply (a Dense projection, ...)."""
    modes: tuple[str, ...] = ("mean",)
    normalize: bool = False
    max_seq_length: int | None = None
    dim: int | None = None
    other_modules: tuple[tuple[str, str], ...] = ()

    def check(self, dim: int, source: str = "the model's sentence_pooling") -> None:
        """Refuse what embed cannot compute as sentence-transformers would, naming it."""
        unknown = [m for m in self.modes if m not in POOLING_MODES]
        if unknown or not self.modes:
            raise ValueError(f"{source}: pooling mode {', '.join(map(repr, unknown)) or 'none'} is not supported; "
                             f"supported: {', '.join(POOLING_MODES)}")
        if self.other_modules:
            listed = ", ".join(f"{kind} ({path!r})" for kind, path in self.other_modules)
            raise ValueError(f"{source}: modules.json lists {listed}, which embed does not apply; supported: "
                             "Transformer, Pooling, Normalize")
        if self.dim is not None and self.dim != dim:
            raise ValueError(f"{source}: the Pooling config's embedding dimension is {self.dim}, but the model's "
                             f"features are {dim} wide")


def read_sentence_pooling(directory: str | Path) -> SentencePooling | None:
    """The directory's sentence-transformers pipeline, or None where it has no modules.json."""
    directory = Path(directory)
    modules = _read(directory / MODULES)
    if modules is None:
        return None
    if not isinstance(modules, list) or not all(isinstance(m, dict) for m in modules):
        raise CorruptCheckpointError(f"{str(directory / MODULES)!r} is not a list of modules "
                                     '([{"type": ..., "path": ...}, ...])')
    modes: tuple[str, ...] = ("mean",)  # sentence-transformers' default Pooling
    normalize, dim, others = False, None, []
    for module in sorted(modules, key=lambda m: m.get("idx", 0)):
        kind, path = str(module.get("type", "")), str(module.get("path", ""))
        name = kind.rsplit(".", 1)[-1]
        if name == "Transformer" and path in ("", "."):
            continue
        if name == "Pooling":
            modes, dim = _pooling_config(_read(directory / path / "config.json") or {})
        elif name == "Normalize":
            normalize = True
        else:  # another module, or a Transformer in a subfolder (not the weights this directory holds)
            others.append((kind, path))
    settings = _read(directory / ST_CONFIG) or {}
    length = settings.get("max_seq_length") if isinstance(settings, dict) else None
    return SentencePooling(modes, normalize, length if isinstance(length, int) else None, dim, tuple(others))


def attach_sentence_pooling(model, directory: str | Path):
    """The model, carrying the directory's sentence pooling (`model.sentence_pooling`) where it has one."""
    pooling = read_sentence_pooling(directory)
    if pooling is not None:
        model.sentence_pooling = pooling
    return model


def _pooling_config(config: dict) -> tuple[tuple[str, ...], int | None]:
    """(modes, dim) of a Pooling config.json, in either of sentence-transformers' spellings."""
    mode = config.get("pooling_mode")
    if isinstance(mode, str):
        modes = (mode,)
    elif isinstance(mode, list):
        modes = tuple(str(m) for m in mode)
    else:  # the older booleans; none set means the default, mean
        modes = tuple(m for key, m in LEGACY_MODE_KEYS.items() if config.get(key) is True) or ("mean",)
    dim = config.get("embedding_dimension", config.get("word_embedding_dimension"))
    return modes, dim if isinstance(dim, int) else None


def write_sentence_pooling(pooling: SentencePooling, directory: str | Path) -> None:
    """modules.json, 1_Pooling/config.json and sentence_bert_config.json, as sentence-transformers writes them
    (the other modules are listed, so a model reloaded from here still refuses to embed without them)."""
    directory = Path(directory)
    modules = [("Transformer", ""), ("Pooling", POOLING_DIR)]
    if pooling.normalize:
        modules.append(("Normalize", "2_Normalize"))
    entries = [{"type": _ST + kind, "path": path} for kind, path in modules]
    entries += [{"type": kind, "path": path} for kind, path in pooling.other_modules]
    for idx, entry in enumerate(entries):
        entry.update(idx=idx, name=str(idx))
    atomic_write_text(directory / MODULES, json.dumps(entries, indent=2) + "\n")
    (directory / POOLING_DIR).mkdir(exist_ok=True)
    config = {"pooling_mode": pooling.modes[0] if len(pooling.modes) == 1 else list(pooling.modes),
              "include_prompt": True}
    if pooling.dim is not None:
        config["embedding_dimension"] = pooling.dim
    atomic_write_text(directory / POOLING_DIR / "config.json", json.dumps(config, indent=2) + "\n")
    if pooling.max_seq_length is not None:
        atomic_write_text(directory / ST_CONFIG, json.dumps({"max_seq_length": pooling.max_seq_length}) + "\n")


def _read(path: Path):
    """A JSON file's value, or None where there is none."""
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise CorruptCheckpointError(f"{str(path)!r} is not valid JSON ({error})") from error
