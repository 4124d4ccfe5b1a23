"""Ask a trained LLaVA about an image, streaming its answer; --interactive keeps the conversation going.

    zoo chat photo.png "what colour is the circle?" --model runs/vl2/model
    zoo chat scene:test:3 "how many shapes are there?" --model runs/vl2     # held-out scene 3 (data/scenes.py)
    zoo chat scene:val:0 --interactive --model runs/vl2                     # one question per line, empty: quit

--model (required: there is no LLaVA a normal run is sure to have written; `zoo train-multimodal` makes one):
a save_pretrained directory of scripts/train_multimodal.py (or its run directory), which holds the
tokenizer (tokenizer.json), the pixel preprocessing (preprocess_config.json) and the prompt format it was
trained with (prompt_format.json; where there is none, data.scenes.PROMPT_FORMAT: "{question}\\n<image>\\nanswer:",
the question first, so the image tokens can read it). IMAGE: a file, or scene:SPLIT:INDEX for a shape scene
drawn at the model's image size.

The conversation lives in one decoding Session (zoo.generation) on the model bound to its image
(`Llava.bind_images`): the image is encoded and spliced once, at the first turn's prefill; every later turn
(the model's prompt format with its image slot empty: "{question}\\n\\nanswer:" by default) is appended to
the same KV cache after the previous answer and its end token, so
nothing is re-encoded or re-read. When the cache (the model's positions) cannot hold another turn, the
conversation starts again from the image and the new question (said on stderr).
"""
from __future__ import annotations

import sys
from pathlib import Path

import torch

from data.images import load_preprocess_config
from data.llava_processor import LlavaProcessor, clip_transform, load_prompt_format
from data.scene_dataset import ShapeScenes
from data.scenes import IMAGE_MARKER, PROMPT_FORMAT
from data.text_stream import TextStream
from data.tokenization import load_tokenizer
from data.vision import UnreadableImageError, read_image
from zoo.cli.common import UsageError, add_runtime_arguments, apply_threads, device_of, flag, parser, place
from zoo.cli.models import load_model, model_kind
from zoo.generation import GenerationConfig, Session, choose


def parse_args(argv=None):
    p = parser(__doc__)
    p.add_argument("image", help="an image file, or scene:SPLIT:INDEX (a shape scene)")
    p.add_argument("question", nargs="?", help="the first question (--interactive: then read more from stdin)")
    p.add_argument("--model", required=True,
                   help="a LLaVA directory: train_multimodal.py's model/ or its run directory")
    p.add_argument("--interactive", action="store_true", help="keep asking: one question per line, empty to quit")
    flag(p, "max_new_tokens", type=int, default=40)
    flag(p, "do_sample", action="store_true", help="sample (default: greedy)")
    p.add_argument("--temperature", type=float, default=1.0)
    flag(p, "top_k", type=int, default=0, help="0: off")
    p.add_argument("--seed", type=int, default=0)
    add_runtime_arguments(p)
    args = p.parse_args(argv)
    if not args.question and not args.interactive:
        p.error("a question is required (or --interactive)")
    return args


def load_image(source: str, size: int):
    """A PIL image: a file (fully decoded here, so a damaged one is named now), or scene:SPLIT:INDEX drawn at
    `size` pixels. A file that is missing or cannot be read is a UsageError naming it."""
    if source.startswith("scene:"):
        split, _, index = source[len("scene:"):].partition(":")
        if not index.isdigit():
            raise UsageError(f"image {source!r}: expected scene:SPLIT:INDEX, e.g. scene:test:3")
        try:
            scenes = ShapeScenes(split, int(index) + 1, image_size=size)
        except ValueError as error:  # an unknown split, named with the known ones
            raise UsageError(f"image {source!r}: {error}") from error
        return scenes.image(int(index))
    if not Path(source).is_file():
        raise UsageError(f"image {source!r} is not a file (or scene:SPLIT:INDEX)")
    try:
        return read_image(source)
    except UnreadableImageError as error:
        raise UsageError(f"image {source!r} cannot be read as an image ({error.__cause__}); expected a PNG, "
                         "JPEG or other file PIL reads") from error


class Conversation:
    """One image, several turns, one KV cache (see the module docstring)."""

    def __init__(self, model, processor: LlavaProcessor, image, config: GenerationConfig,
                 generator: torch.Generator | None = None, prompt_format: str = PROMPT_FORMAT):
        self.model, self.processor, self.config, self.generator = model, processor, config, generator
        self.prompt_format = prompt_format
        weight = next(model.parameters())
        self.device = weight.device
        self.pixels = processor.pixel_values([image]).to(self.device, weight.dtype)  # (1, 3, S, S)
        self.session: Session | None = None
        self.restarts = 0
        self.history: list[int] = []    # the tokens in the cache, in order
        self.chosen: list[int] = []     # the indices in history of the tokens the model chose

    def _turn_ids(self, question: str) -> list[int]:
        if self.session is None:
            return self.processor.encode_prompt(self.prompt_format.format(image=IMAGE_MARKER, question=question), 1)
        ids = self.processor.encode_prompt(self.prompt_format.format(image="", question=question), 0)
        return ids[1:] if self.processor.bos_id is not None else ids  # a later turn continues the sequence

    def ask(self, question: str):
        """Yield the answer's text piece by piece as its tokens are chosen."""
        ids = self._turn_ids(question)
        budget = self.config.max_new_tokens + 1  # the answer and its end token
        if self.session is not None and self.session.length + len(ids) + budget > self.model.max_positions:
            print(f"[the conversation fills the model's {self.model.max_positions} positions: starting again "
                  "from the image]", file=sys.stderr)
            self.close()
            self.restarts += 1
            ids = self._turn_ids(question)
        prompt = torch.tensor([ids], device=self.device)
        if self.session is None:
            room = self.model.max_positions - len(ids)
            if room < self.config.max_new_tokens:
                raise SystemExit(f"the prompt ({len(ids)} tokens) and --max-new-tokens {self.config.max_new_tokens} "
                                 f"do not fit the model's {self.model.max_positions} positions")
            self.session = Session(self.model.bind_images(self.pixels), prompt, room)
        logits = self.session.feed(prompt, keep=1)[:, -1]  # (1, V)
        self.history += ids
        tokens, eos = prompt, set(self.config.eos_ids or ())
        text = TextStream(self.processor.tokenizer)
        for _ in range(self.config.max_new_tokens):
            token = choose(logits, tokens, self.config, self.generator)  # (1,)
            tokens = torch.cat([tokens, token[:, None]], dim=1)
            logits = self.session.feed(token[:, None])[:, -1]  # in the cache, the end token too
            self.chosen.append(len(self.history))
            self.history.append(int(token))
            if int(token) in eos:
                break
            yield text.put([int(token)])  # "" while a word or a character is incomplete
        yield text.end()

    def close(self) -> None:
        if self.session is not None:
            self.session.close()
            self.session = None
            self.history, self.chosen = [], []


def load(model_path: str):
    """(model, processor, image size, prompt format) of a LLaVA directory (or a run directory holding model/)."""
    directory = Path(model_path)
    directory = directory / "model" if (directory / "model" / "config.json").is_file() else directory
    if not directory.is_dir() and model_kind(model_path, ("llava",)) == "preset":
        raise UsageError(f"--model {model_path!r} is a preset: chat needs a trained LLaVA's directory, whose "
                         "tokenizer and pixel preprocessing it reads (scripts/train_multimodal.py writes one)")
    model = load_model(str(directory), ("llava",))
    pre = load_preprocess_config(directory, model.config.vision)
    transform = clip_transform(pre["size"], mean=pre["mean"], std=pre["std"], interpolation=pre["interpolation"])
    processor = LlavaProcessor(load_tokenizer(directory), model.config.image_token_id, model.num_image_tokens,
                               transform)
    return model, processor, pre["size"], load_prompt_format(directory, PROMPT_FORMAT)


@torch.inference_mode()
def main(argv=None) -> list[str]:
    args = parse_args(argv)
    apply_threads(args)
    model, processor, size, prompt_format = load(args.model)
    model = place(model, args)
    # A flag out of range (--top-k -1) is GenerationConfig's ConfigError: common.run's one line, status 2.
    config = GenerationConfig(max_new_tokens=args.max_new_tokens, do_sample=args.do_sample,
                              temperature=args.temperature, top_k=args.top_k, eos_id=processor.eos_id)
    chat = Conversation(model, processor, load_image(args.image, size), config,
                        torch.Generator(device_of(args)).manual_seed(args.seed), prompt_format)
    answers = []
    question = args.question
    try:
        while True:
            if question is None or not question.strip():
                if not args.interactive:
                    break
                print("> ", end="", flush=True)
                question = sys.stdin.readline().strip()
                if not question:
                    break
            print(f"Q: {question}\nA:", end="", flush=True)
            pieces = []
            for piece in chat.ask(question):
                pieces.append(piece)
                print(piece, end="", flush=True)
            print()
            answers.append("".join(pieces).strip())
            question = None
            if not args.interactive:
                break
    finally:
        chat.close()
    return answers
