"""The models a server holds, one per name, each with what its endpoints need:

    Generator     GPT, LLaMA: tokenizer, chat template, and a continuous-batching Engine (completions, chat)
    Embedder      BERT: tokenizer and the checkpoint's pooling, for zoo.embed (embeddings)
    VisionChat    LLaVA: tokenizer, image preprocessing and prompt format; zoo.generate with pixel_values, one
                  request at a time under a lock (the Engine does not batch LLaVA: its prefill splices images)
    Whisper and any other family are held as plain models, for routers of their own (zoo.serving.audio).

    served = load("tiny", "runs/demo/text/model", ServeOptions(slots=8))
"""
from __future__ import annotations

import base64
import binascii
import io
import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import torch
from torch import nn

import zoo
from data.chat_template import end_of_turn_ids
from data.tokenization import Tokenizer, load_tokenizer
from zoo.cli.chat import load as load_llava
from zoo.cli.common import DTYPES, UsageError
from zoo.cli.models import load_model, tokenizer_source
from zoo.sentence_embedding import load_sentence_model
from zoo.serving.engine import Engine
from zoo.serving.openai_schema import model_not_found
from zoo.serving.requests import InvalidRequest

GENERATORS = ("gpt", "llama")
QUANTIZE = ("int8", "int4")
OTHER_ROUTERS = ("whisper",)  # families held as plain models for a router of their own (zoo.serving.audio)


@dataclass(frozen=True)
class ServeOptions:
    """How models are loaded and served (scripts/serve.py's flags)."""
    device: str = "cpu"
    dtype: str = "fp32"
    pack: bool = False
    quantize: str | None = None
    slots: int = 8
    max_queue: int = 64
    prefill_chunk: int = 256
    compile: bool = False
    image_root: str | None = None  # LLaVA: the directory local image paths may name (None: data: URIs only)


@dataclass
class Served:
    name: str
    model: nn.Module
    families: ClassVar[str] = "any family"  # what the kind serves, for errors

    @property
    def family(self) -> str | None:
        return getattr(getattr(self.model, "config", None), "family", None)

    def close(self, timeout: float | None = None) -> None:
        """Finish what runs (at most `timeout` seconds), then stop."""


@dataclass
class Generator(Served):
    tokenizer: Tokenizer = None
    engine: Engine = None
    families: ClassVar[str] = "the GPT or LLaMA family"
    end_of_turn: tuple[int, ...] = ()  # the ids that end a chat reply (the template's end-of-turn token, EOS)

    @property
    def context(self) -> int:
        return self.engine.context

    def close(self, timeout: float | None = None) -> None:
        self.engine.shutdown(timeout)


@dataclass
class Embedder(Served):
    tokenizer: Tokenizer = None
    max_length: int = 512
    families: ClassVar[str] = "the BERT family"
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass
class VisionChat(Served):
    processor: object = None
    prompt_format: str = ""
    image_root: Path | None = None
    families: ClassVar[str] = "the LLaVA family"
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def tokenizer(self) -> Tokenizer:
        return self.processor.tokenizer

    def image(self, url: str, param: str):
        """A PIL image from a data: URI, or from a file under the server's --image-root."""
        from PIL import Image, UnidentifiedImageError

        if url.startswith("data:"):
            header, _, payload = url.partition(",")
            if not header.endswith(";base64"):
                raise InvalidRequest(f"{param}: a data: URI must be base64 (data:image/png;base64,...)", param)
            try:
                source = io.BytesIO(base64.b64decode(payload, validate=True))
            except binascii.Error as error:
                raise InvalidRequest(f"{param}: the data: URI is not valid base64 ({error})", param) from None
        else:
            path = Path(url.removeprefix("file://"))
            if self.image_root is None:
                raise InvalidRequest(f"{param}: this server reads images from data: URIs only (start it with "
                                     "--image-root DIR to allow local files under DIR)", param)
            path = (self.image_root / path).resolve()
            if not path.is_relative_to(self.image_root) or not path.is_file():
                raise InvalidRequest(f"{param}: {url!r} is not a file under the server's --image-root", param)
            source = path
        try:
            with Image.open(source) as image:
                image.load()
                return image.convert("RGB")
        except (UnidentifiedImageError, OSError, ValueError) as error:
            raise InvalidRequest(f"{param}: the image cannot be read ({error}); expected PNG, JPEG or another "
                                 "format PIL reads", param) from None


def parse_model_flag(value: str) -> tuple[str, str]:
    """--model PATH or NAME=PATH -> (name, path); the name defaults to the directory's (or preset's) name."""
    name, sep, path = value.partition("=")
    if sep and name and not Path(value).exists():
        return name, path
    return Path(value.rstrip("/")).name or value, value


def load(name: str, source: str, options: ServeOptions) -> Served:
    """One model, loaded and placed as the options say, as what its family serves."""
    if options.dtype not in DTYPES:
        raise UsageError(f"--dtype {options.dtype!r}: expected one of {', '.join(DTYPES)}")
    if options.quantize not in (None, *QUANTIZE):
        raise UsageError(f"--quantize {options.quantize!r}: expected one of {', '.join(QUANTIZE)}")
    family = _family(source) if Path(source).is_dir() else None
    if family == "llava":
        return _vision_chat(name, source, options)
    if family == "bert":
        return _embedder(name, source, options)
    model = load_model(source).to(device=options.device, dtype=DTYPES[options.dtype]).eval()
    if getattr(model.config, "family", None) in GENERATORS:
        return _generator(name, source, model, options)
    family = getattr(model.config, "family", None)
    if family == "bert":
        raise UsageError(f"--model {source!r}: embeddings need a BERT directory with its tokenizer, not a preset")
    if family not in OTHER_ROUTERS:
        raise UsageError(f"--model {source!r} holds a {family} model, which no endpoint serves; expected GPT or "
                         "LLaMA (completions, chat), BERT (embeddings), LLaVA (chat) or Whisper (audio)")
    return Served(name, model)


def _family(directory: str) -> str | None:
    """The family a directory's config.json names (ours: "family"; HF's: "model_type")."""
    config = Path(directory) / "config.json"
    if not config.is_file():
        return None
    data = json.loads(config.read_text())
    return data.get("family") or data.get("model_type")


def _optimise(model: nn.Module, options: ServeOptions) -> nn.Module:
    if options.quantize:
        model = zoo.quantize(model, options.quantize)
    if options.pack:
        model = zoo.pack_for_inference(model)
    return model


def _generator(name: str, source: str, model: nn.Module, options: ServeOptions) -> Generator:
    where = tokenizer_source(source, None)
    if where is None:
        raise UsageError(f"--model {source!r}: a preset has no tokenizer; serve a directory that holds one")
    tokenizer = load_tokenizer(where)
    engine = Engine(_optimise(model, options), slots=options.slots, max_queue=options.max_queue,
                    prefill_chunk=options.prefill_chunk, compile=options.compile)
    end_of_turn = end_of_turn_ids(tokenizer) if tokenizer.chat_template is not None else ()
    return Generator(name, engine.model, tokenizer, engine.start(), end_of_turn)


def _embedder(name: str, source: str, options: ServeOptions) -> Embedder:
    model, tokenizer, max_length = load_sentence_model(source)
    model = model.to(device=options.device, dtype=DTYPES[options.dtype]).eval()
    return Embedder(name, model, tokenizer, max_length)


def _vision_chat(name: str, source: str, options: ServeOptions) -> VisionChat:
    model, processor, _, prompt_format = load_llava(source)
    model = model.to(device=options.device, dtype=DTYPES[options.dtype]).eval()
    root = Path(options.image_root).resolve() if options.image_root else None
    return VisionChat(name, model, processor, prompt_format, root)


def find(models: dict[str, Served], name: str, kinds: tuple[type, ...], endpoint: str) -> Served:
    """The model a request names, if it serves `endpoint`: a 404 model_not_found for an unknown name (as
    OpenAI's API), a 400 naming the endpoints of its family for a model that does not serve this one."""
    served = models.get(name)
    if served is None:
        raise model_not_found(name)
    if not isinstance(served, kinds):
        raise InvalidRequest(f"model {name!r} ({served.family}) does not serve {endpoint}; expected a model of "
                             f"{' or '.join(kind.families for kind in kinds)}", "model")
    return served


@torch.inference_mode()
def close_all(models: dict[str, Served], timeout: float | None) -> None:
    for served in models.values():
        served.close(timeout)
