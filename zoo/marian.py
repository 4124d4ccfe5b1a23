"""The 2017 Transformer (Vaswani et al., "Attention is all you need"): an encoder-decoder that translates, in
the form people hold such models today, transformers' MarianMTModel (the Opus-MT checkpoints).

    source ids (B, S) -> word embeddings x sqrt(D) + sinusoids -> encoder: post-LN Blocks -> memory (B, S, D)
    target ids (B, T) -> word embeddings x sqrt(D) + sinusoids
        -> decoder: post-LN Blocks [causal self-attention, cross-attention to the memory, FFN]
        -> logits through the output matrix (tied to the target embeddings) + final_logits_bias -> (B, T, V)

Post-LN: every sub-layer is x = norm(x + sublayer(x)), and no stack has an embedding or a final norm. The
sinusoids are MarianMT's (the paper's timescales, sines then cosines), positions counted from 0, fixed (not
saved). `share_embeddings`: one matrix for source and target words (one joint vocabulary, the paper's
and Opus-MT's); `tie_embeddings`: the output matrix is the target word matrix. `final_logits_bias` is a saved
buffer, zeros unless a checkpoint brings one. Pad is the vocabulary's last id, never generated, and the
decoder starts from it (`decoder_start_id`). Checked against transformers' MarianMTModel
(tests/zoo/test_marian.py); converter: zoo/convert/hf_marian.py.

Decoding: `bind_source` encodes once and gives the decoder bound to the memory (and its padding), which
every strategy of zoo.generation drives as a decoder-only model; the cross-attention keys and values are
computed once per session, at its first chunk.

Legend: B batch, S source tokens, T target tokens, D width, V target vocabulary.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import torch
from torch import nn

from backbones.block import BlockSpec
from backbones.frontends.checks import check_mask, check_token_layout
from backbones.frontends.tokens import TokenEmbedding
from backbones.init import init_weights
from backbones.kv_cache import DecoderCache
from backbones.masks import encoder_mask
from backbones.positions import SinusoidPositions
from backbones.transformer import CachedDecoding, Transformer, decoder_forward
from data.marian_tokenizer import MarianSentencePiece
from heads.lm import CausalLMHead
from zoo.pretrained import ZooModel
from zoo.registry import ConfigError, register_family, register_model


@dataclass(frozen=True)
class MarianConfig:
    """Defaults are the paper's base model on a 37,000-token joint vocabulary. Each field with transformers'
    MarianConfig name."""
    family: ClassVar[str] = "marian"
    vocab_size: int = 37000          # vocab_size: source words (and target words when shared)
    target_vocab_size: int | None = None  # decoder_vocab_size: None = vocab_size
    dim: int = 512                   # d_model
    encoder_depth: int = 6           # encoder_layers
    decoder_depth: int = 6           # decoder_layers
    encoder_heads: int = 8           # encoder_attention_heads
    decoder_heads: int = 8           # decoder_attention_heads
    encoder_mlp_hidden: int = 2048   # encoder_ffn_dim
    decoder_mlp_hidden: int = 2048   # decoder_ffn_dim
    act: str = "relu"                # activation_function: relu (the paper), silu (Opus-MT's "swish")
    max_positions: int = 512         # max_position_embeddings: source and target positions each
    pad_id: int = 36999              # pad_token_id: the vocabulary's last id
    eos_id: int = 0                  # eos_token_id
    decoder_start_id: int | None = None  # decoder_start_token_id: None = pad_id
    scale_embedding: bool = True     # scale_embedding: word embeddings x sqrt(dim)
    share_embeddings: bool = True    # share_encoder_decoder_embeddings
    tie_embeddings: bool = True      # tie_word_embeddings: output matrix = target word embeddings
    dropout: float = 0.1             # dropout: embeddings and every residual branch
    attn_dropout: float = 0.0        # attention_dropout
    norm_eps: float = 1e-5

    def __post_init__(self):
        target = self.target_vocab
        if self.share_embeddings and target != self.vocab_size:
            raise ConfigError(f"MarianConfig.share_embeddings=True needs one vocabulary; got vocab_size "
                              f"{self.vocab_size} and target_vocab_size {target}")
        for name in ("pad_id", "eos_id", "start_id"):
            value = getattr(self, name)
            if not 0 <= value < target:
                raise ConfigError(f"MarianConfig.{name.replace('start_id', 'decoder_start_id')}={value} is outside "
                                  f"the target vocabulary [0, {target})")

    @property
    def target_vocab(self) -> int:
        return self.vocab_size if self.target_vocab_size is None else self.target_vocab_size

    @property
    def start_id(self) -> int:
        return self.pad_id if self.decoder_start_id is None else self.decoder_start_id


class Marian(CachedDecoding, ZooModel):
    positions_owner = "the decoder's"
    # A Marian may carry its tokenizer (`model.tokenizer`: a converted Marian directory's, a model trained here
    # with its joint vocabulary); save_pretrained writes it beside the weights, load_pretrained reads it back.
    load_tokenizer = staticmethod(MarianSentencePiece.from_directory)
    tokenizer_file = "source.spm"
    # Source sentences differ in length: a compiled decoding step takes the length as dynamic (zoo.generation.compiled).
    context_length_varies = True

    def __init__(self, config: MarianConfig):
        super().__init__()
        self.config = config
        scale = math.sqrt(config.dim) if config.scale_embedding else 1.0

        def embedding(vocab: int) -> TokenEmbedding:
            return TokenEmbedding(vocab, config.dim, dropout=config.dropout, scale=scale,
                                  positions=SinusoidPositions(config.max_positions, config.dim))

        def stack(heads: int, mlp_hidden: int, depth: int, cross: bool) -> Transformer:
            spec = BlockSpec(dim=config.dim, num_heads=heads, mlp_hidden=mlp_hidden, act=config.act,
                             norm_eps=config.norm_eps, post_norm=True, cross_attention=cross,
                             dropout=config.dropout, attn_dropout=config.attn_dropout)
            return Transformer.from_spec(spec, depth, final_norm=False)

        self.embed = embedding(config.vocab_size)
        self.encoder = stack(config.encoder_heads, config.encoder_mlp_hidden, config.encoder_depth, False)
        self.decoder_embed = embedding(config.target_vocab)
        self.decoder = stack(config.decoder_heads, config.decoder_mlp_hidden, config.decoder_depth, True)
        self.head = CausalLMHead(config.dim, config.target_vocab)
        self.register_buffer("final_logits_bias", torch.zeros(config.target_vocab))
        init_weights(self, std=0.02)
        for words in (self.embed.tokens, self.decoder_embed.tokens):  # pad's row: zeros and never trained, as
            if config.pad_id < words.num_embeddings:                 # MarianMT's nn.Embedding(padding_idx=pad)
                words.padding_idx = config.pad_id
                nn.init.zeros_(words.weight[config.pad_id])
        if config.share_embeddings:
            self.decoder_embed.tokens.weight = self.embed.tokens.weight
        if config.tie_embeddings:
            self.head.tie_to(self.decoder_embed.tokens)

    @property
    def decoder_stack(self) -> Transformer:
        return self.decoder

    @property
    def max_positions(self) -> int:
        """Decoder positions: the decoder start token + generated tokens must fit."""
        return self.config.max_positions

    @property
    def vocab_size(self) -> int:
        """The target vocabulary: what the decoder reads and the logits cover."""
        return self.config.target_vocab

    def encode(self, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None) -> torch.Tensor:
        """Source ids (B, S), attention_mask (B, S) (1 token, 0 padding) -> memory (B, S, D)."""
        check_token_layout(input_ids, "input_ids (the source)", self.config.max_positions)
        x = self.embed(input_ids)  # (B, S, D)
        if attention_mask is not None:
            check_mask(attention_mask, *input_ids.shape)
        return self.encoder(x, mask=encoder_mask(attention_mask))

    def decode_features(self, tokens: torch.Tensor, memory: torch.Tensor | None = None, *,
                        source_mask: torch.Tensor | None = None, attention_mask: torch.Tensor | None = None,
                        positions: torch.Tensor | None = None, input_pos: int | torch.Tensor | None = None,
                        cache: DecoderCache | None = None) -> torch.Tensor:
        """Target tokens (B, T), memory (A, S, D) from encode -> decoder features (B, T, D).

        memory may hold one row per source for B = A x G token rows (G beams or samples of each source,
        adjacent); source_mask (A, S) marks its real tokens. With a cache (a session's, from make_cache),
        input_pos is where the chunk starts: at 0 the memory fills the cross-attention cache, later chunks
        reuse it (memory may then be None). attention_mask (B, cached + T) and positions as decoder_forward.
        """
        name = "decoder tokens (decoder_input_ids)"
        return decoder_forward(self.decoder_embed, self.decoder, tokens, max_positions=self.max_positions,
                               attention_mask=attention_mask, positions=positions, input_pos=input_pos, cache=cache,
                               context=memory, context_mask=encoder_mask(source_mask),
                               context_name="the encoder's memory (A, S, D) = encode(input_ids)", name=name)

    def decode(self, tokens: torch.Tensor, memory: torch.Tensor | None = None, *,
               source_mask: torch.Tensor | None = None, attention_mask: torch.Tensor | None = None,
               positions: torch.Tensor | None = None, input_pos: int | torch.Tensor | None = None,
               logits_to_keep: int | None = None, cache: DecoderCache | None = None) -> torch.Tensor:
        """-> logits (B, T, V), or (B, logits_to_keep, V) for the last tokens only. As decode_features."""
        features = self.decode_features(tokens, memory, source_mask=source_mask, attention_mask=attention_mask,
                                        positions=positions, input_pos=input_pos, cache=cache)
        return self.forward_head(features if logits_to_keep is None else features[:, -logits_to_keep:])

    def forward_head(self, features: torch.Tensor) -> torch.Tensor:
        return self.head(features) + self.final_logits_bias  # (B, T, V)

    def forward_features(self, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None,
                         decoder_input_ids: torch.Tensor | None = None) -> torch.Tensor:
        """Source ids (B, S) and their attention_mask, decoder_input_ids (B, T) (the targets shifted right
        behind decoder_start_id: shift_right) -> decoder features (B, T, D), teacher forcing."""
        if decoder_input_ids is None:
            raise ValueError("Marian needs decoder_input_ids (B, T): the target ids shifted right behind "
                             "decoder_start_id (zoo.marian.shift_right(labels, model.config.start_id))")
        memory = self.encode(input_ids, attention_mask)
        return self.decode_features(decoder_input_ids, memory, source_mask=attention_mask)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None,
                decoder_input_ids: torch.Tensor | None = None) -> torch.Tensor:
        """-> logits (B, T, V), teacher forcing; as forward_features."""
        return self.forward_head(self.forward_features(input_ids, attention_mask, decoder_input_ids))

    def bind_source(self, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None):
        """The decoder bound to this source (encoded once): what zoo.generate decodes on."""
        from zoo.generation.conditioned import EncoderConditioned  # generation builds on the models, not back

        return EncoderConditioned(self, self.encode(input_ids, attention_mask), attention_mask)

    def generation_defaults(self) -> dict[str, object]:
        """zoo.generate's options unless the call gives them, those of MarianMT's configs and Opus-MT's
        generation configs: stop at EOS, pad finished rows, never generate pad (bad_words_ids [[pad]]), and EOS
        as the last token at the length limit (forced_eos_token_id)."""
        config = self.config
        return {"eos_id": config.eos_id, "pad_id": config.pad_id, "bad_words_ids": ((config.pad_id,),),
                "forced_eos_id": config.eos_id}

    def example_inputs(self, batch_size: int = 2, seq_len: int = 8) -> dict[str, torch.Tensor]:
        """Valid forward() keyword arguments: random source and target ids, the first source row padded."""
        generator = torch.Generator().manual_seed(0)
        high = min(self.config.vocab_size, self.config.target_vocab) - 1  # below pad
        source = torch.randint(1, high, (batch_size, seq_len), generator=generator)
        mask = torch.ones_like(source)
        mask[0, seq_len // 2:] = 0
        target = torch.randint(1, high, (batch_size, seq_len), generator=generator)
        return {"input_ids": source.masked_fill(mask == 0, self.config.pad_id), "attention_mask": mask,
                "decoder_input_ids": shift_right(target, self.config.start_id)}


def shift_right(labels: torch.Tensor, start_id: int, pad_id: int | None = None) -> torch.Tensor:
    """Target ids (B, T) -> decoder inputs (B, T): start_id, then the targets but the last; -100 (ignored
    label positions) becomes pad_id (default start_id), as transformers' shift_tokens_right."""
    shifted = labels.new_full(labels.shape, start_id)
    shifted[:, 1:] = labels[:, :-1]
    return shifted.masked_fill(shifted == -100, start_id if pad_id is None else pad_id)


register_family(MarianConfig, Marian)


@register_model
def transformer_base() -> MarianConfig:
    """The paper's base model: 6 + 6 layers, d 512, 8 heads, FFN 2048, ReLU, dropout 0.1, one 37,000-token
    joint vocabulary shared by source, target and output (override vocab_size and pad_id to a tokenizer's)."""
    return MarianConfig()


@register_model
def transformer_big() -> MarianConfig:
    """The paper's big model: d 1024, 16 heads, FFN 4096, dropout 0.3."""
    return MarianConfig(dim=1024, encoder_heads=16, decoder_heads=16, encoder_mlp_hidden=4096,
                        decoder_mlp_hidden=4096, dropout=0.3)


@register_model
def transformer_small() -> MarianConfig:
    """The base model halved in width and depth for an hour of two CPU cores: 4 + 4 layers, d 256, 4 heads,
    FFN 1024, an 8,000-token joint vocabulary (override vocab_size and pad_id to the tokenizer's)."""
    return MarianConfig(vocab_size=8000, pad_id=7999, dim=256, encoder_depth=4, decoder_depth=4, encoder_heads=4,
                        decoder_heads=4, encoder_mlp_hidden=1024, decoder_mlp_hidden=1024)


@register_model
def opus_mt() -> MarianConfig:
    """The Opus-MT shape (Helsinki-NLP/opus-mt-en-es and its siblings): the base model with SiLU ("swish")
    and a 65,001-token joint SentencePiece vocabulary (pad 65000, EOS 0), no dropout at inference."""
    return MarianConfig(vocab_size=65001, act="silu", pad_id=65000, dropout=0.0)


@register_model
def marian_tiny() -> MarianConfig:
    """For tests: 2 + 2 layers x 64, 4 heads, a 1,000-token joint vocabulary, 128 positions."""
    return MarianConfig(vocab_size=1000, dim=64, encoder_depth=2, decoder_depth=2, encoder_heads=4,
                        decoder_heads=4, encoder_mlp_hidden=128, decoder_mlp_hidden=128, max_positions=128,
                        pad_id=999, dropout=0.0)
