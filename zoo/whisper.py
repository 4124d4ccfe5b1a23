"""Whisper (Radford et al. 2022): an encoder-decoder Transformer from log-mel frames to text tokens.

    mel (B, M, 2N) -> AudioConvStem (conv, GELU, strided conv, GELU, + sinusoid positions) -> (B, N, D)
        -> encoder: pre-LN Blocks -> final norm -> audio features (B, N, D)
    tokens (B, T) -> token embedding + learned positions -> (B, T, D)
        -> decoder: pre-LN Blocks [causal self-attention, cross-attention to the audio features, MLP]
        -> final norm -> logits through the token embedding matrix (tied) -> (B, T, V)

Every attention's k_proj has no bias (q, v and the output do). Checked against
openai-whisper's `Whisper` and transformers' WhisperForConditionalGeneration
(tests/zoo/test_parity_audio.py); converters: zoo/convert/openai_whisper.py, hf_whisper.py.

Decoding: `make_cache` gives a session the decoder's preallocated self-attention cache; the
cross-attention keys and values are computed from the audio features once, at input_pos 0, and
reused for every later token.

Legend: B batch, M mel bins, N audio tokens (mel frames / 2), T decoder tokens, S cache length,
D width, V vocabulary.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import torch

from backbones.block import BlockSpec
from backbones.frontends.audio import AudioConvStem
from backbones.frontends.checks import check_token_layout
from backbones.frontends.tokens import TokenEmbedding
from backbones.init import init_weights
from backbones.kv_cache import DecoderCache
from backbones.masks import encoder_mask
from backbones.transformer import CachedDecoding, Transformer, decoder_forward
from data.whisper_tokenizer import load_whisper_tokenizer
from heads.lm import CausalLMHead
from zoo.pretrained import ZooModel
from zoo.registry import register_family, register_model


@dataclass(frozen=True)
class WhisperConfig:
    """Defaults are whisper tiny. Each field with openai-whisper's ModelDimensions | HF WhisperConfig name."""
    family: ClassVar[str] = "whisper"
    n_mels: int = 80              # n_mels | num_mel_bins
    audio_ctx: int = 1500         # n_audio_ctx | max_source_positions: audio tokens = mel frames / 2
    text_ctx: int = 448           # n_text_ctx | max_target_positions: decoder positions
    vocab_size: int = 51865       # n_vocab | vocab_size: 51864 English-only, 51865 multilingual
    dim: int = 384                # n_audio_state = n_text_state | d_model (one width: cross-attention needs it)
    audio_heads: int = 6          # n_audio_head | encoder_attention_heads
    audio_depth: int = 4          # n_audio_layer | encoder_layers
    text_heads: int = 6           # n_text_head | decoder_attention_heads
    text_depth: int = 4           # n_text_layer | decoder_layers
    audio_mlp_hidden: int = 1536  # 4 x dim in openai-whisper | encoder_ffn_dim
    text_mlp_hidden: int = 1536   # 4 x dim in openai-whisper | decoder_ffn_dim
    act: str = "gelu"             # the MLPs' activation | activation_function (the conv stem is always GELU)
    norm_eps: float = 1e-5
    dropout: float = 0.0
    # (decoder layer, head) pairs whose cross-attention follows the alignment of text to audio (word timestamps):
    # openai-whisper's `alignment_heads` | generation_config.json `alignment_heads`; () where the checkpoint
    # names none
    alignment_heads: tuple[tuple[int, int], ...] = ()
    # Fields a saved config.json may lack (zoo.registry.config_from_dict): added after the first release, their
    # defaults give the model saved before them. alignment_heads: none, the word timestamps' heads are unknown.
    optional_fields: ClassVar[tuple[str, ...]] = ("alignment_heads",)

    def __post_init__(self):
        pairs = tuple(tuple(int(i) for i in pair) for pair in self.alignment_heads)  # JSON gives lists
        for pair in pairs:
            if len(pair) != 2 or not (0 <= pair[0] < self.text_depth and 0 <= pair[1] < self.text_heads):
                raise ValueError(f"alignment head {list(pair)} is not a (layer, head) pair of the decoder's "
                                 f"{self.text_depth} layers x {self.text_heads} heads")
        object.__setattr__(self, "alignment_heads", pairs)


class Whisper(CachedDecoding, ZooModel):
    # A Whisper may carry its tokenizer (`model.tokenizer`: converted checkpoints, a model trained with its own
    # vocabulary); save_pretrained writes it beside the weights and load_pretrained reads it back with this.
    load_tokenizer = staticmethod(load_whisper_tokenizer)

    def __init__(self, config: WhisperConfig):
        super().__init__()
        self.config = config

        def spec(heads: int, mlp_hidden: int, cross: bool) -> BlockSpec:
            return BlockSpec(dim=config.dim, num_heads=heads, mlp_hidden=mlp_hidden, act=config.act,
                             norm_eps=config.norm_eps, k_bias=False, cross_attention=cross,
                             dropout=config.dropout, attn_dropout=config.dropout)

        self.audio_embed = AudioConvStem(config.n_mels, config.dim, config.audio_ctx)
        self.encoder = Transformer.from_spec(spec(config.audio_heads, config.audio_mlp_hidden, False),
                                             config.audio_depth)
        self.embed = TokenEmbedding(config.vocab_size, config.dim, max_positions=config.text_ctx,
                                    dropout=config.dropout)
        self.decoder = Transformer.from_spec(spec(config.text_heads, config.text_mlp_hidden, True),
                                             config.text_depth)
        self.head = CausalLMHead(config.dim, config.vocab_size)
        init_weights(self, std=0.02)
        self.head.tie_to(self.embed.tokens)  # Whisper's output projection IS the token embedding

    positions_owner = "the decoder's"

    @property
    def decoder_stack(self) -> Transformer:
        return self.decoder

    @property
    def max_positions(self) -> int:
        """Decoder positions (text_ctx): prompt + generated tokens must fit."""
        return self.config.text_ctx

    @property
    def vocab_size(self) -> int:
        return self.config.vocab_size

    def encode(self, mel: torch.Tensor) -> torch.Tensor:
        """mel (B, n_mels, 2 audio_ctx) -> audio features (B, audio_ctx, D), after the encoder's final norm."""
        return self.encoder(self.audio_embed(mel))

    def decode_features(self, tokens: torch.Tensor, audio_features: torch.Tensor | None = None, *,
                        source_mask: torch.Tensor | None = None, attention_mask: torch.Tensor | None = None,
                        positions: torch.Tensor | None = None, input_pos: int | torch.Tensor | None = None,
                        cache: DecoderCache | None = None) -> torch.Tensor:
        """tokens (B, T), audio_features (B, N, D) -> decoder features (B, T, D) after the final norm.

        audio_features may hold one row per audio for B = A x G token rows (G beams or samples of each
        audio, adjacent): cross-attention then reads each audio's keys for its G rows without repeating them.
        source_mask (A, N) marks the audio frames to read (1) where some are padding; None reads all.

        Without a cache, audio_features are required. With one (a session's from make_cache, or the model's
        from setup_cache), input_pos is where the chunk starts; at input_pos 0 the audio features (re)fill
        the cross-attention cache, later chunks reuse it (audio_features may then be None). attention_mask
        (B, S+T) marks real tokens (1) and left padding (0) over every key; positions (B, T) or (T,) default
        to input_pos .. input_pos+T-1.
        """
        name = "decoder tokens (decoder_input_ids)"
        check_token_layout(tokens, name, self.max_positions, input_pos)  # before the audio check reads its batch
        if audio_features is not None:
            self._check_audio_features(tokens, audio_features)
        return decoder_forward(self.embed, self.decoder, tokens, max_positions=self.max_positions,
                               attention_mask=attention_mask, positions=positions, input_pos=input_pos, cache=cache,
                               context=audio_features, context_mask=encoder_mask(source_mask),
                               context_name="audio_features (B, N, D) = encode(mel)", name=name)

    def decode(self, tokens: torch.Tensor, audio_features: torch.Tensor | None = None, *,
               source_mask: torch.Tensor | None = None, attention_mask: torch.Tensor | None = None,
               positions: torch.Tensor | None = None, input_pos: int | torch.Tensor | None = None,
               logits_to_keep: int | None = None, cache: DecoderCache | None = None) -> torch.Tensor:
        """-> logits (B, T, V), or (B, logits_to_keep, V) for the last tokens only. As decode_features."""
        features = self.decode_features(tokens, audio_features, source_mask=source_mask,
                                        attention_mask=attention_mask, positions=positions, input_pos=input_pos,
                                        cache=cache)
        return self.forward_head(features if logits_to_keep is None else features[:, -logits_to_keep:])

    def forward_features(self, mel: torch.Tensor, decoder_input_ids: torch.Tensor,
                         attention_mask: torch.Tensor | None = None) -> torch.Tensor:
        """mel (B, n_mels, 2 audio_ctx), decoder_input_ids (B, T) -> decoder features (B, T, D)."""
        return self.decode_features(decoder_input_ids, self.encode(mel), attention_mask=attention_mask)

    def forward_head(self, features: torch.Tensor) -> torch.Tensor:
        return self.head(features)  # (B, T, V)

    def forward(self, mel: torch.Tensor, decoder_input_ids: torch.Tensor,
                attention_mask: torch.Tensor | None = None) -> torch.Tensor:
        """mel (B, n_mels, 2 audio_ctx), decoder_input_ids (B, T) -> logits (B, T, V) (teacher forcing)."""
        return self.forward_head(self.forward_features(mel, decoder_input_ids, attention_mask))

    def _check_audio_features(self, tokens: torch.Tensor, audio_features: torch.Tensor) -> None:
        shape = tuple(audio_features.shape)
        if (audio_features.dim() != 3 or not shape[0] or tokens.shape[0] % shape[0]
                or shape[2] != self.config.dim):
            raise ValueError(f"audio_features must be (batch {tokens.shape[0]} or a divisor of it: one row per audio "
                             f"for its beams, audio tokens, dim {self.config.dim}) like encode(mel); got shape {shape}")

    def example_inputs(self, batch_size: int = 2, seq_len: int = 8) -> dict[str, torch.Tensor]:
        """Valid forward() keyword arguments: random mel (B, n_mels, 2 audio_ctx) and seq_len decoder tokens."""
        generator = torch.Generator().manual_seed(0)
        mel = torch.randn(batch_size, self.config.n_mels, self.audio_embed.num_frames, generator=generator)
        tokens = torch.randint(0, self.config.vocab_size, (batch_size, seq_len), generator=generator)
        return {"mel": mel, "decoder_input_ids": tokens}

    def no_weight_decay(self) -> set[str]:
        return {"embed.positions.weight"}


register_family(WhisperConfig, Whisper)


def _openai(dim: int, heads: int, depth: int, vocab_size: int) -> WhisperConfig:
    """An openai-whisper release's shape: the same width, heads and depth on both sides, MLPs 4 x dim."""
    return WhisperConfig(vocab_size=vocab_size, dim=dim, audio_heads=heads, audio_depth=depth, text_heads=heads,
                         text_depth=depth, audio_mlp_hidden=4 * dim, text_mlp_hidden=4 * dim)


MULTILINGUAL, ENGLISH = 51865, 51864  # vocabulary sizes


@register_model
def whisper_tiny() -> WhisperConfig:
    """openai-whisper tiny, multilingual: 37.2M parameters (as many as openai-whisper's own model)."""
    return _openai(384, 6, 4, MULTILINGUAL)


@register_model
def whisper_tiny_en() -> WhisperConfig:
    """openai-whisper tiny.en: English only."""
    return _openai(384, 6, 4, ENGLISH)


@register_model
def whisper_base() -> WhisperConfig:
    """openai-whisper base, multilingual: 71.8M parameters."""
    return _openai(512, 8, 6, MULTILINGUAL)


@register_model
def whisper_base_en() -> WhisperConfig:
    """openai-whisper base.en: English only."""
    return _openai(512, 8, 6, ENGLISH)


@register_model
def whisper_small() -> WhisperConfig:
    """openai-whisper small, multilingual: 240.6M parameters."""
    return _openai(768, 12, 12, MULTILINGUAL)


@register_model
def whisper_small_en() -> WhisperConfig:
    """openai-whisper small.en: English only."""
    return _openai(768, 12, 12, ENGLISH)


@register_model
def whisper_micro() -> WhisperConfig:
    """For training here: 2 + 2 layers x 128 wide, 10 s clips (1000 mel frames), 128 decoder positions and a
    1024-token vocabulary (override vocab_size to fit the tokenizer)."""
    return WhisperConfig(audio_ctx=500, text_ctx=128, vocab_size=1024, dim=128, audio_heads=4, audio_depth=2,
                         text_heads=4, text_depth=2, audio_mlp_hidden=512, text_mlp_hidden=512)


@register_model
def whisper_mini() -> WhisperConfig:
    """For training here with a stronger encoder than whisper_micro's: 4 + 2 layers x 192 (heads of 64), 10 s
    clips (1000 mel frames), 128 decoder positions (a character-level transcript fits); override vocab_size to
    fit the tokenizer."""
    return WhisperConfig(audio_ctx=500, text_ctx=128, vocab_size=1024, dim=192, audio_heads=3, audio_depth=4,
                         text_heads=3, text_depth=2, audio_mlp_hidden=768, text_mlp_hidden=768)


@register_model
def whisper_mini_6s() -> WhisperConfig:
    """whisper_mini over a 6 s window (600 mel frames, 300 audio positions): the synthetic sentences here last
    3 s on average, so most of a 10 s window is padding the encoder pays for."""
    return WhisperConfig(audio_ctx=300, text_ctx=128, vocab_size=1024, dim=192, audio_heads=3, audio_depth=4,
                         text_heads=3, text_depth=2, audio_mlp_hidden=768, text_mlp_hidden=768)
