"""LLaVA (Liu et al. 2023, "Visual Instruction Tuning"; LLaVA-1.5: Liu et al. 2024): a CLIP vision tower, a
projector and a LLaMA decoder, joined at the token embeddings.

    pixel_values (M, C, S, S) -> ClipVisionTower.image_features (hidden state vision_feature_layer,
        class token dropped or kept) -> (M, N, Dv) -> Projector -> (M, N, D)
    input_ids (B, T) with N image_token_id placeholders per image -> token embeddings (B, T, D)
        -> splice_images: each image's features at its placeholders -> Llama blocks -> final norm -> logits (B, T, V)

Parts: the tower is zoo/clip.py's, built with only the blocks image_features runs (LLaVA reads layer -2 of
CLIP's 24: the last block and the pooled head's post_layernorm would get no gradient and only take memory;
converting a checkpoint drops them), the projector and splice are heads/fusion.py's, the language model
is zoo/llama.py's Llama, whole (its embedding, blocks, head and KV cache).

Batches: samples may hold different numbers of images, none included (images fill the samples' placeholders
in order). Left-padded prompts take their positions from the attention mask (a real token's position is
the number of real tokens before it), so a padded batch gives each sample what it gives alone. The original
LLaVA code and transformers' forward count the padding as positions (transformers' `generate` does not):
with RoPE that shifts all of a sample's positions by its padding, which leaves the math unchanged but not
the rounding, so in half precision batched answers can differ from single ones.

Decoding: the model is a decoder like Llama (make_cache, cache=, input_pos). Image
features go in with the chunk that holds their placeholders, usually the prompt at input_pos 0; the cache
keeps them, so later tokens (and later turns without images) never re-encode an image. `bind_images(pixels)`
gives zoo.generate a decoder-only view (ImageConditioned) that encodes the images once and splices them at the
prefill: `zoo.generate(model, input_ids, 20, pixel_values=pixels, attention_mask=mask)`.

Checked against transformers 5 LlavaForConditionalGeneration (tests/zoo/test_parity_llava.py); converter in
zoo/convert/hf_llava.py.

Legend: B batch, T tokens, S cache length, M images, N features per image, Dv tower width, D width, V vocabulary.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import ClassVar

import torch
from torch import nn

from backbones.frontends.checks import check_mask, check_tensor, check_token_layout
from backbones.init import init_weights
from backbones.kv_cache import DecoderCache
from backbones.masks import positions_skipping_padding
from heads.fusion import PROJECTORS, Projector, check_placeholders, placeholder_counts, repeat_images, splice_images
from zoo.clip import (
    ClipVisionConfig,
    ClipVisionTower,
    blocks_to_run,
    clip_vit_large_patch14_336,
    clip_vit_tiny_patch8_32,
)
from zoo.generation.conditioned import BoundDecoder
from zoo.llama import Llama, LlamaConfig, llama_tiny
from zoo.pretrained import ZooModel
from zoo.registry import register_family, register_model


def vicuna_7b() -> LlamaConfig:
    """LLaVA-1.5-7B's language model: LLaMA-7B's shape with 64 more tokens (32064, the image placeholder among
    them) and 4096 positions."""
    return LlamaConfig(vocab_size=32064, max_positions=4096, dim=4096, depth=32, num_heads=32, num_kv_heads=32,
                       mlp_hidden=11008, norm_eps=1e-5)


@dataclass(frozen=True)
class LlavaConfig:
    """Defaults are llava-1.5-7b. The language model's and the tower's own configs (vision None: no tower, text
    only), the placeholder id (transformers' image_token_id / image_token_index) and the projector (transformers'
    projector_hidden_act, multimodal_projector_bias; its projector is always "mlp"). The feature layer and
    select strategy are the tower's (ClipVisionConfig.vision_feature_layer, vision_feature_select_strategy)."""
    family: ClassVar[str] = "llava"
    text: LlamaConfig = field(default_factory=vicuna_7b)
    vision: ClipVisionConfig | None = field(default_factory=clip_vit_large_patch14_336)
    image_token_id: int = 32000
    projector: str = "mlp"          # linear (LLaVA-1) | mlp: linear -> act -> linear (LLaVA-1.5)
    projector_act: str = "gelu"
    projector_bias: bool = True

    def __post_init__(self):
        # config.json holds the parts as dicts (dataclasses.asdict): rebuild them
        if isinstance(self.text, dict):
            object.__setattr__(self, "text", LlamaConfig(**self.text))
        if isinstance(self.vision, dict):
            object.__setattr__(self, "vision", ClipVisionConfig(**self.vision))
        if not 0 <= self.image_token_id < self.text.vocab_size:
            raise ValueError(f"image_token_id {self.image_token_id} is outside the language model's vocabulary "
                             f"(vocab_size {self.text.vocab_size}): the placeholder must be a token id")
        if self.projector not in PROJECTORS:
            raise ValueError(f"projector must be one of {PROJECTORS}, got {self.projector!r}")

    @property
    def dim(self) -> int:
        """The language model's width: forward_features gives (B, T, dim)."""
        return self.text.dim


def feature_tower(config: ClipVisionConfig) -> ClipVisionTower:
    """The CLIP tower as LLaVA runs it: blocks 1..L only (L from vision_feature_layer), no pooled head. Its own
    config says depth L, features from its last block; the LLaVA config keeps the full tower's numbers."""
    depth = blocks_to_run(config.vision_feature_layer, config.depth)
    tower = ClipVisionTower(dataclasses.replace(config, depth=depth, vision_feature_layer=depth))
    tower.head = nn.Identity()  # post_layernorm acts on the pooled class token, which LLaVA never reads
    return tower


class Llava(ZooModel):
    def __init__(self, config: LlavaConfig):
        super().__init__()
        self.config = config
        vision = config.vision
        self.vision_tower = feature_tower(vision) if vision is not None else None
        self.projector = None
        if vision is not None:
            self.projector = Projector(vision.dim, config.text.dim, config.projector, config.projector_act,
                                       config.projector_bias)
            init_weights(self.projector, std=0.02)
        self.language_model = Llama(config.text)

    # --------------------------------------------------------------------------- images

    @property
    def num_image_tokens(self) -> int:
        """Placeholders (image features) per image; 0 without a tower."""
        return self.vision_tower.num_image_tokens if self.vision_tower is not None else 0

    def encode_images(self, pixel_values: torch.Tensor) -> torch.Tensor:
        """pixel_values (M, C, S, S) at the tower's image size -> projected image features (M, N, D)."""
        check_tensor(pixel_values, "pixel_values", "(images, C, S, S)")
        if self.vision_tower is None:
            raise ValueError(f"pixel_values of shape {tuple(pixel_values.shape)} given, but this LLaVA has no vision "
                             "tower (config.vision is None): it takes input_ids only")
        try:
            features = self.vision_tower.image_features(pixel_values)  # (M, N, Dv)
        except (TypeError, ValueError) as error:
            raise type(error)(f"pixel_values: {error}") from error
        return self.projector(features)  # (M, N, D)

    def bind_images(self, pixel_values: torch.Tensor, num_prompts: int | None = None) -> "ImageConditioned":
        """The decoder conditioned on these images, for zoo.generate and its strategies (see ImageConditioned)."""
        if self.vision_tower is None:
            self.encode_images(pixel_values)  # raises: no tower
        return ImageConditioned(self, pixel_values, num_prompts)

    # --------------------------------------------------------------------------- forward

    def forward_features(self, input_ids: torch.Tensor, pixel_values: torch.Tensor | None = None,
                         attention_mask: torch.Tensor | None = None, positions: torch.Tensor | None = None,
                         input_pos: int | torch.Tensor | None = None, *,
                         image_features: torch.Tensor | None = None, cache: DecoderCache | None = None,
                         sparse_grad: bool = False) -> torch.Tensor:
        """input_ids (B, T), pixel_values (M, C, S, S) or None -> (B, T, D) after the final norm.

        attention_mask (B, S+T) marks real tokens (1) and padding (0) over every key; positions (B, T) default
        to each real token's count of real tokens before it (from the mask), else input_pos .. input_pos+T-1.
        image_features (M, N, D): already encoded images (encode_images) instead of pixel_values.
        cache: a decoding session's (make_cache), input_pos where the chunk starts in it. sparse_grad: as
        CausalLM.forward_features (the tied head follows).
        Placeholders in a chunk without images are an error at the start of a sequence (input_pos None or 0);
        later chunks treat them as ordinary tokens (a generated token may be that id, as in transformers).
        """
        lm = self.language_model
        check_token_layout(input_ids, max_positions=lm.max_positions, start=input_pos)  # before any image is read
        x = lm.embed_tokens(input_ids, sparse_grad=sparse_grad)  # (B, T, D)
        if pixel_values is not None:
            if image_features is not None:
                raise ValueError("pass pixel_values or image_features, not both")
            image_features = self.encode_images(pixel_values)
        if positions is None and attention_mask is not None and not isinstance(input_pos, torch.Tensor):
            check_mask(attention_mask, input_ids.shape[0], (input_pos or 0) + input_ids.shape[1])  # before counting
            positions = positions_skipping_padding(attention_mask)[:, -input_ids.shape[1]:]  # (B, T)
        starts = input_pos is None or (isinstance(input_pos, int) and input_pos == 0)
        if image_features is not None or starts:
            x = splice_images(x, input_ids, self.config.image_token_id, image_features)  # (B, T, D)
        return lm.forward_features(input_ids, attention_mask, positions, input_pos, cache=cache, inputs_embeds=x)

    def forward_head(self, features: torch.Tensor) -> torch.Tensor:
        return self.language_model.forward_head(features)  # (B, T, V)

    def forward(self, input_ids: torch.Tensor, pixel_values: torch.Tensor | None = None,
                attention_mask: torch.Tensor | None = None, positions: torch.Tensor | None = None,
                input_pos: int | torch.Tensor | None = None, logits_to_keep: int | None = None, *,
                image_features: torch.Tensor | None = None, cache: DecoderCache | None = None) -> torch.Tensor:
        """-> logits (B, T, V), or (B, logits_to_keep, V) for the last tokens only. As forward_features."""
        features = self.forward_features(input_ids, pixel_values, attention_mask, positions, input_pos,
                                         image_features=image_features, cache=cache, sparse_grad=True)
        return self.forward_head(features if logits_to_keep is None else features[:, -logits_to_keep:])

    # --------------------------------------------------------------------------- decoding

    def make_cache(self, batch_size: int, max_len: int, dtype: torch.dtype | None = None) -> DecoderCache:
        return self.language_model.make_cache(batch_size, max_len, dtype)

    def setup_cache(self, batch_size: int, max_len: int, dtype: torch.dtype | None = None) -> None:
        self.language_model.setup_cache(batch_size, max_len, dtype)

    def clear_cache(self) -> None:
        self.language_model.clear_cache()

    def reorder_cache(self, index: torch.Tensor) -> None:
        self.language_model.reorder_cache(index)

    @property
    def max_positions(self) -> int:
        return self.language_model.max_positions

    @property
    def vocab_size(self) -> int:
        return self.language_model.vocab_size

    # --------------------------------------------------------------------------- contracts

    @property
    def min_seq_len(self) -> int:
        """The shortest example_inputs: one image's placeholders and a text token."""
        return self.num_image_tokens + 1

    def example_inputs(self, batch_size: int = 2, seq_len: int | None = None) -> dict[str, torch.Tensor]:
        """Valid forward() keyword arguments: seq_len tokens (default one image's placeholders + 8) per sample;
        sample 0 starts with one image (if there is a tower), the others are text only."""
        n = self.num_image_tokens
        seq_len = n + 8 if seq_len is None else seq_len
        if seq_len < self.min_seq_len:
            raise ValueError(f"seq_len {seq_len} cannot hold one image's {n} placeholders and a text token")
        generator = torch.Generator().manual_seed(0)
        ids = torch.randint(0, self.vocab_size, (batch_size, seq_len), generator=generator)
        ids[ids == self.config.image_token_id] = 0
        inputs = {"input_ids": ids}
        if self.vision_tower is not None:
            ids[0, :n] = self.config.image_token_id
            c = self.config.vision
            inputs["pixel_values"] = torch.randn(1, c.in_chans, c.image_size, c.image_size, generator=generator)
        return inputs

    def no_weight_decay(self) -> set[str]:
        if self.vision_tower is None:
            return set()
        return {f"vision_tower.{name}" for name in self.vision_tower.no_weight_decay()}


class ImageConditioned(BoundDecoder):
    """A Llava bound to pixel_values (M, C, S, S), seen as a decoder-only model by zoo.generate's Session:
    `model(tokens, attention_mask=, positions=, input_pos=, logits_to_keep=, cache=)`, make_cache,
    max_positions, vocab_size.

    The images are encoded once, at the first chunk (the prompt, input_pos 0), and spliced there; later chunks
    read them from the KV cache. num_prompts: the prompts the images belong to (None: the session's rows); a
    session of B = num_prompts x G rows holds G adjacent copies of each prompt (beams, samples, as
    `repeat_interleave` and beam_search lay them out), and each copy reads its prompt's image features again:
    indexed, not re-encoded. An nn.Module holding the model, so `.eval()`, `.training` and `.parameters()`
    reach it; pixels and features are plain attributes, not state.
    """

    def __init__(self, model: Llava, pixel_values: torch.Tensor, num_prompts: int | None = None):
        super().__init__(model)
        self.pixel_values = pixel_values  # (M, C, S, S)
        self.num_prompts = num_prompts
        self.features: torch.Tensor | None = None  # (M, N, D) once encoded

    def forward(self, tokens: torch.Tensor, *, attention_mask: torch.Tensor | None = None,
                positions: torch.Tensor | None = None, input_pos: int | torch.Tensor | None = None,
                logits_to_keep: int | None = None, cache: DecoderCache | None = None) -> torch.Tensor:
        """tokens (B, T) -> logits (B, T, V); the image features go in with the first chunk only."""
        first = input_pos is None or (isinstance(input_pos, int) and input_pos == 0)
        return self.model(tokens, attention_mask=attention_mask, positions=positions, input_pos=input_pos,
                          logits_to_keep=logits_to_keep, image_features=self._features_for(tokens) if first else None,
                          cache=cache)

    def _features_for(self, tokens: torch.Tensor) -> torch.Tensor:
        """The image features of the session's rows, in row order: (M x G, N, D) for G copies of each prompt."""
        if self.features is None:
            self.features = self.model.encode_images(self.pixel_values)  # (M, N, D)
        rows, prompts = tokens.shape[0], self.num_prompts or tokens.shape[0]
        if rows % prompts:
            raise ValueError(f"a session of {rows} rows for {prompts} prompts: expected a whole number of rows per "
                             "prompt (beams, samples)")
        copies = rows // prompts
        if copies == 1:
            return self.features  # splice_images checks the rows against the images
        counts = placeholder_counts(tokens[::copies], self.model.config.image_token_id)  # (prompts,)
        images, tokens_per_image = self.features.shape[:2]
        check_placeholders(counts, images, tokens_per_image, self.model.config.image_token_id)
        return self.features[repeat_images(counts, copies, tokens_per_image).to(self.features.device)]


register_family(LlavaConfig, Llava)


@register_model
def llava_tiny() -> LlavaConfig:
    """For tests and training here: clip_vit_tiny_patch8_32's tower (32x32 images, 16 image tokens, features from
    its second-to-last of 3 layers, 64 wide), LLaVA-1.5's projector, llama_tiny's decoder (4 layers x 128, 4096
    tokens, 256 positions). The placeholder is the last token id, which a tokenizer of fewer tokens never makes."""
    text = llama_tiny()
    return LlavaConfig(text=text, vision=clip_vit_tiny_patch8_32(), image_token_id=text.vocab_size - 1)


@register_model
def llava_v1_5_7b() -> LlavaConfig:
    """llava-hf/llava-1.5-7b-hf's shape: CLIP ViT-L/14-336 (576 image tokens from layer -2), a 2-layer GELU
    projector, a 7B LLaMA (Vicuna-7B: 32 layers x 4096, 32064 tokens, 4096 positions), placeholder 32000.
    7.05B parameters (transformers' 7.06B less the tower's unused last block and post_layernorm); build it on
    the meta device to count them without allocating."""
    return LlavaConfig(text=vicuna_7b(), vision=clip_vit_large_patch14_336(), image_token_id=32000)


@register_model
def llava_scenes() -> LlavaConfig:
    """For the shape scenes (data/scenes.py; scripts/train_multimodal.py): 48x48 images in a 3x3 grid of
    16-pixel patches, one per scene cell (9 image tokens), a 2-layer x 128 tower read at layer 0 (its patch
    embeddings after the pre-norm: no block runs, so each image token holds its own cell only), LLaVA-1.5's
    projector, a 4-layer x 128 LLaMA over 512 tokens (a BPE of the scenes' texts; the placeholder is id 511)
    and 128 positions."""
    vision = ClipVisionConfig(image_size=48, patch_size=16, dim=128, depth=2, num_heads=4, mlp_ratio=2.0,
                              vision_feature_layer=0)
    text = dataclasses.replace(llama_tiny(), vocab_size=512, max_positions=128, depth=4)
    return LlavaConfig(text=text, vision=vision, image_token_id=text.vocab_size - 1)
