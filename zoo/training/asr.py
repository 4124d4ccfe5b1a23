"""Joint CTC / attention training of a Whisper (Watanabe et al. 2017's hybrid): a CTC head on the encoder
output beside the decoder, one forward for both, and the weighted loss. scripts/train_audio.py --ctc-weight."""

from __future__ import annotations

import torch
from torch import nn

from heads.ctc import CTCHead
from heads.lm import CausalLMHead
from zoo.training.batches import LOSS_WEIGHT


class WithCTC(nn.Module):
    """A Whisper with a CTC head on its encoder output, for training: forward gives the decoder's logits and
    the head's per-frame logits, so one forward (through DDP's wrapper too) serves both losses."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.model = model
        self.ctc = CTCHead(model.config.dim, model.tokenizer.eot)  # the text tokens come before <|endoftext|>

    def forward(self, mel: torch.Tensor, decoder_input_ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        features = self.model.encode(mel)  # (B, N, D)
        logits = self.model.forward_head(self.model.decode_features(decoder_input_ids, features))  # (B, T, V)
        return logits, self.ctc(features)  # (B, T, V), (B, N, C + 1)

    def unsharded_copy(self) -> "WithCTC":
        """A new WithCTC of the same shapes (fresh weights): what FSDP's end of run gathers the shards into."""
        from zoo.registry import build_model

        model = build_model(self.model.config)
        model.tokenizer = self.model.tokenizer
        return WithCTC(model)


def asr_loss(ctc_weight: float = 0.0, ctc: CTCHead | None = None):
    """The loss of a Whisper (cross-entropy on the next tokens), or of a WithCTC (whose head is `ctc`):
    (1 - ctc_weight) CE + ctc_weight CTC. Without `ctc`, a WithCTC's frame logits are ignored."""
    def loss_fn(model, batch: dict[str, torch.Tensor]):
        out = model(batch["mel"], batch["decoder_input_ids"])
        logits, frames = out if isinstance(out, tuple) else (out, None)  # (B, T, V), (B, N, C + 1)
        labels = batch["labels"]
        predicted = labels != -100
        metrics = {"token_acc": (logits.argmax(-1)[predicted] == labels[predicted]).float().mean()}
        loss = CausalLMHead.loss(logits, labels)
        if ctc is None:  # a token mean: ranks weighed by their tokens (with CTC there is no one count)
            metrics[LOSS_WEIGHT] = predicted.sum()
        else:
            metrics["ce"] = loss.detach()
            metrics["ctc"] = ctc.loss(frames, labels)
            loss = (1 - ctc_weight) * loss + ctc_weight * metrics["ctc"]
            metrics["ctc"] = metrics["ctc"].detach()
        return loss, metrics
    return loss_fn
