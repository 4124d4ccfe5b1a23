"""transformers BertForMaskedLM / BertModel / BertForSequenceClassification -> zoo.bert.Bert.

The head is chosen from the weights present: `cls.predictions.*` -> MLM,
`classifier.*` -> classifier with its classes, only `pooler.*` -> the pooled
output (num_classes=0, HF's `pooler_output`).
"""
from __future__ import annotations

from typing import Any

import torch

from zoo.bert import BertConfig
from zoo.convert.common import UnsupportedConfigError, hf_activation, key_map, rename_all, require

_PREFIX = "bert."  # BertFor* wrap a BertModel named `bert`


def config_from_hf(cfg: dict[str, Any], state: dict[str, torch.Tensor]) -> BertConfig:
    require(cfg, "position_embedding_type", ("absolute", None), "absolute")
    act = hf_activation(cfg, "hidden_act", "gelu")
    require(cfg, "is_decoder", (False, None))
    require(cfg, "add_cross_attention", (False, None))
    keys = {k.removeprefix(_PREFIX) for k in state}
    if any(k.startswith("cls.predictions.") for k in keys):
        head, num_classes = "mlm", 0
    elif "classifier.weight" in keys:
        head, num_classes = "classifier", state["classifier.weight"].shape[0]
    elif "pooler.dense.weight" in keys:
        head, num_classes = "classifier", 0
    else:
        raise UnsupportedConfigError("BERT checkpoint has no MLM head, classifier or pooler weights; "
                                     "expected cls.predictions.*, classifier.* or pooler.dense.*")
    return BertConfig(vocab_size=cfg["vocab_size"], max_positions=cfg["max_position_embeddings"],
                      type_vocab_size=cfg.get("type_vocab_size", 2), dim=cfg["hidden_size"],
                      depth=cfg["num_hidden_layers"], num_heads=cfg["num_attention_heads"],
                      mlp_hidden=cfg["intermediate_size"], act=act,
                      norm_eps=cfg.get("layer_norm_eps", 1e-12), dropout=cfg.get("hidden_dropout_prob", 0.1),
                      attn_dropout=cfg.get("attention_probs_dropout_prob", 0.1), head=head,
                      num_classes=num_classes, pad_id=cfg.get("pad_token_id") or 0)


_TOP = {
    "embeddings.word_embeddings.weight": "embed.tokens.weight",
    "embeddings.position_embeddings.weight": "embed.positions.weight",
    "embeddings.token_type_embeddings.weight": "embed.token_types.weight",
    "embeddings.LayerNorm.weight": "embed.norm.weight",
    "embeddings.LayerNorm.bias": "embed.norm.bias",
    "pooler.dense.weight": "head.pre_logits.fc.weight",
    "pooler.dense.bias": "head.pre_logits.fc.bias",
    "classifier.weight": "head.fc.weight",
    "classifier.bias": "head.fc.bias",
    "cls.predictions.transform.dense.weight": "head.dense.weight",
    "cls.predictions.transform.dense.bias": "head.dense.bias",
    "cls.predictions.transform.LayerNorm.weight": "head.norm.weight",
    "cls.predictions.transform.LayerNorm.bias": "head.norm.bias",
    "cls.predictions.decoder.weight": "head.decoder.weight",
    "cls.predictions.bias": "head.decoder.bias",
    "cls.predictions.decoder.bias": "head.decoder.bias",  # the same tensor as cls.predictions.bias
    "embeddings.position_ids": None,       # buffers of older checkpoints
    "embeddings.token_type_ids": None,
}
_BLOCK = {"attention.self.query": "attn.q_proj", "attention.self.key": "attn.k_proj",
          "attention.self.value": "attn.v_proj", "attention.output.dense": "attn.o_proj",
          "attention.output.LayerNorm": "norm1", "intermediate.dense": "ffn.fc1",
          "output.dense": "ffn.fc2", "output.LayerNorm": "norm2"}


_RENAME = key_map(_TOP, r"encoder\.layer", _BLOCK, prefix=_PREFIX)
# A pooler in an MLM checkpoint (BertForPreTraining-style) has no place in ours.
_RENAME_MLM = key_map({**_TOP, **{k: None for k in _TOP if k.startswith("pooler.")}}, r"encoder\.layer", _BLOCK,
                      prefix=_PREFIX)


def convert_state_dict(state: dict[str, torch.Tensor], config: BertConfig, source: str) -> dict[str, torch.Tensor]:
    return rename_all(state, _RENAME_MLM if config.head == "mlm" else _RENAME, source)
