"""BERT (Devlin et al. 2019): word + position + token-type embeddings, post-LN encoder.

Heads: masked LM (tied decoder, `head="mlm"`) or sequence classification
(`head="classifier"`: [CLS] -> pooler dense+tanh -> dropout -> linear; with
num_classes=0 it returns the pooled [CLS] vector, as HF's `pooler_output`).
Checked against transformers' BertForMaskedLM and BertModel.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

import torch
from torch import nn

from backbones.block import BlockSpec
from backbones.frontends.checks import check_mask, check_token_layout
from backbones.frontends.tokens import TokenEmbedding
from backbones.init import init_weights
from backbones.masks import encoder_mask
from backbones.norms import LayerNorm
from backbones.transformer import Transformer
from heads.classification import ClassifierHead, PreLogits
from heads.mlm import MLMHead
from zoo.pretrained import ZooModel
from zoo.registry import register_family, register_model


@dataclass(frozen=True)
class BertConfig:
    family: ClassVar[str] = "bert"
    vocab_size: int = 30522
    max_positions: int = 512
    type_vocab_size: int = 2
    dim: int = 768
    depth: int = 12
    num_heads: int = 12
    mlp_hidden: int = 3072
    act: str = "gelu"
    norm_eps: float = 1e-12
    dropout: float = 0.1
    attn_dropout: float = 0.1
    head: str = "mlm"          # "mlm" | "classifier"
    num_classes: int = 0       # classifier only; 0 returns the pooled [CLS] features
    pad_id: int = 0


class Bert(ZooModel):
    def __init__(self, config: BertConfig):
        super().__init__()
        if config.head not in ("mlm", "classifier"):
            raise ValueError(f"BertConfig.head must be 'mlm' or 'classifier', got {config.head!r}")
        self.config = config
        self.embed = TokenEmbedding(config.vocab_size, config.dim, max_positions=config.max_positions,
                                    type_vocab_size=config.type_vocab_size,
                                    norm=LayerNorm(config.dim, eps=config.norm_eps), dropout=config.dropout)
        spec = BlockSpec(dim=config.dim, num_heads=config.num_heads, mlp_hidden=config.mlp_hidden,
                         act=config.act, norm_eps=config.norm_eps, post_norm=True,
                         dropout=config.dropout, attn_dropout=config.attn_dropout)
        self.transformer = Transformer.from_spec(spec, config.depth, final_norm=False)
        self.head = self._make_head(config)
        init_weights(self, std=0.02)

    def _make_head(self, config: BertConfig) -> nn.Module:
        if config.head == "mlm":
            head = MLMHead(config.dim, config.vocab_size, act=config.act, norm_eps=config.norm_eps)
            head.tie_to(self.embed.tokens)
            return head
        return ClassifierHead(config.dim, config.num_classes, pool="cls", pre_logits=PreLogits(config.dim),
                              dropout=config.dropout)

    def forward_features(self, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None,
                         token_type_ids: torch.Tensor | None = None, *, sparse_grad: bool = False) -> torch.Tensor:
        """input_ids (B, T) -> (B, T, D). Padded rows are masked out as keys, so real rows are unaffected.

        sparse_grad: the word embeddings' gradient may leave sparse (TokenEmbedding.lookup), for forward(), which
        applies the MLM head tied to them next; other callers keep it dense, as CausalLM's forward_features."""
        check_token_layout(input_ids, max_positions=self.config.max_positions)
        check_mask(attention_mask, *input_ids.shape)
        mask = encoder_mask(attention_mask)
        x = self.embed(input_ids, token_type_ids=token_type_ids,
                       sparse_grad=sparse_grad and isinstance(self.head, MLMHead))  # (B, T, D)
        return self.transformer(x, mask=mask)

    def forward_head(self, features: torch.Tensor) -> torch.Tensor:
        return self.head(features)  # MLM (B, T, V) | classifier (B, C)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None,
                token_type_ids: torch.Tensor | None = None, predict: torch.Tensor | None = None) -> torch.Tensor:
        """-> MLM logits (B, T, V) | classifier logits (B, C).

        predict (B, T) bool: run the MLM head only where it is True and return (N, V) logits for those
        N positions in row-major order. Masked-LM training predicts ~15% of the tokens, so this skips
        most of the vocabulary projection (the largest GEMM) and its backward.
        """
        features = self.forward_features(input_ids, attention_mask, token_type_ids, sparse_grad=True)
        if predict is not None:
            if not isinstance(self.head, MLMHead):
                raise ValueError("predict= selects masked-LM positions; this model has a classifier head")
            if predict.shape != input_ids.shape or predict.dtype != torch.bool:
                raise ValueError(f"predict must be a bool tensor shaped like input_ids {tuple(input_ids.shape)}, "
                                 f"got {predict.dtype} {tuple(predict.shape)}")
            features = features[predict]  # (N, D)
        return self.forward_head(features)

    def reset_head(self, num_classes: int) -> None:
        """Switch to (or resize) the sequence-classification head; the pooler is kept if present."""
        device = next(iter(self.embed.tokens.state_dict().values())).device  # a weight, or integers (quantised)
        if isinstance(self.head, ClassifierHead):
            self.head.reset(num_classes)
        else:
            self.head = ClassifierHead(self.config.dim, num_classes, pool="cls", pre_logits=PreLogits(self.config.dim),
                                       dropout=self.config.dropout).to(device)
            init_weights(self.head, std=0.02)
        self.config = dataclasses.replace(self.config, head="classifier", num_classes=num_classes)

    def example_inputs(self, batch_size: int = 2, seq_len: int = 8) -> dict[str, torch.Tensor]:
        """Valid forward() keyword arguments, for contract tests and benchmarks."""
        attention_mask = torch.ones(batch_size, seq_len, dtype=torch.long)
        attention_mask[-1, seq_len // 2:] = 0  # one padded row
        return {"input_ids": torch.randint(0, self.config.vocab_size, (batch_size, seq_len)),
                "attention_mask": attention_mask}

    def no_weight_decay(self) -> set[str]:
        return {"embed.positions.weight", "embed.token_types.weight"}


register_family(BertConfig, Bert)


@register_model
def bert_tiny() -> BertConfig:
    """google/bert_uncased_L-2_H-128_A-2 shape."""
    return BertConfig(dim=128, depth=2, num_heads=2, mlp_hidden=512)


@register_model
def bert_base() -> BertConfig:
    """bert-base-uncased shape, 110M parameters."""
    return BertConfig()
