"""bench/lora.py: every side starts from the same weights (the same first loss) and trains what it says; the
section end to end on tiny presets (no timing asserted)."""
from __future__ import annotations

import pytest
import torch

import zoo
from bench import lora
from tests.helpers import markdown_tables


@pytest.mark.parametrize("name", ["gpt_tiny", "bert_tiny", "vit_tiny_patch4_28"])
def test_every_side_starts_from_the_same_loss_and_trains_its_own_parameters(name):
    inputs = lora.make_inputs(name, 2, 16)
    losses, trainable = {}, {}
    for side in lora.SIDES:
        torch.manual_seed(1)
        model = lora.adapted(name, side, rank=4)
        params = [p for p in model.parameters() if p.requires_grad]
        optimizer = torch.optim.AdamW(params, lr=1e-3, weight_decay=0.0)
        step = lora.step_fn(model, inputs, optimizer, side.startswith("ours"), vit="pixels" in inputs)
        losses[side] = [step().item() for _ in range(2)]
        trainable[side] = sum(p.numel() for p in params)
    first = losses[lora.PEFT_LORA][0]
    assert all(abs(loss[0] - first) <= 1e-4 for loss in losses.values()), losses  # B = 0: the base model's loss
    assert all(loss[1] < loss[0] for loss in losses.values()), losses  # the step moved what it trains
    assert trainable["ours full"] == trainable["transformers full"]
    c = zoo.model_info(name)["config"]
    layers, dim, r = c["depth"], c["dim"], 4
    adapters = 4 * layers * 2 * r * dim  # q, k, v, o: A (r, D) and B (D, r) each
    if name.startswith("gpt"):  # peft: one adapter on the fused c_attn (D -> 3D) and one on attn.c_proj
        assert trainable[lora.PEFT_LORA] == layers * (r * 4 * dim + 2 * r * dim)
    else:
        head = (dim + 1) * c["num_classes"] if name.startswith("vit") else 0  # ViT's classifier trains in full
        assert trainable[lora.OURS_LORA] == trainable[lora.PEFT_LORA] == adapters + head
    assert trainable[lora.OURS_LORA] == adapters + (head if name.startswith("vit") else 0)


@pytest.mark.slow
def test_lora_section_end_to_end_on_tiny_presets():
    """Every side in its processes (two spawned per side: the memory probe and the timed one, ~75 s on 2 busy
    cores): the sides' first losses agree, and the report's tables are well formed, a side table per model and a
    target row per model."""
    config = lora.LoRABench(("gpt_tiny", "vit_tiny_patch4_28"), lora_rank=4, lora_warmup=0, lora_repeats=2,
                            lora_transformers_full=False, batch=2, seq=16, fused_adamw=True, threads=1)
    result = lora.run(config)
    assert list(result["models"]) == ["gpt_tiny", "vit_tiny_patch4_28"]
    for m in result["models"].values():
        assert list(m["sides"]) == list(lora.SIDES[:3]) and all(len(t) == 2 for t in m["times"].values())
        assert all(s["loss_diff"] <= 1e-4 and s["peak_bytes"] > 0 for s in m["sides"].values())
        assert 0 < m["optimizer_ratio"] < 1 and m["speed"]["ratio"] > 0 and m["ceiling"] > 0
    tables = markdown_tables(lora.report(result, config))
    assert len(tables) == 3
    assert [row[0] for row in tables[0][1:]] == list(lora.SIDES[:3])
    assert [row[0] for row in tables[-1][1:]] == ["gpt_tiny", "vit_tiny_patch4_28"]
