"""Every family's tiny preset on a CUDA device computes the same through xformers, sdpa and math.

Skipped without a GPU (CI has none); a session lent one runs this file there. Each model runs in bf16
autocast with every attention layer routed through one backend (`set_attention_backend`); the logits are
compared with the math backend's, relative to their scale. A decoder also decodes through its KV cache
(prefill, then one token at a time) on each backend, which exercises the bottom-right causal chunk.
"""
import pytest
import torch

import zoo
from backbones import set_attention_backend
from backbones.attention import _xops
from tests.helpers import tiny_presets

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
BACKENDS = [pytest.param("xformers", marks=pytest.mark.skipif(_xops is None, reason="xformers is not importable")),
            "sdpa"]
TINY = tiny_presets()
RELATIVE = 3e-2  # bf16 logits of a few layers: differences in rounding order only


def _logits(model, backend, inputs):
    set_attention_backend(model, backend)
    with torch.inference_mode(), torch.autocast("cuda", dtype=torch.bfloat16):
        return model(**inputs).float()


def _assert_near(got, want, what):
    diff = (got - want).abs().max().item()
    scale = want.abs().max().item()
    assert diff <= RELATIVE * max(scale, 1.0), f"{what}: max abs diff {diff:.3g} against logits up to {scale:.3g}"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", TINY)
def test_forward_equals_math(name, backend):
    torch.manual_seed(0)
    model = zoo.create_model(name).cuda().eval()
    inputs = {k: v.cuda() for k, v in model.example_inputs(batch_size=3, seq_len=24).items()}
    _assert_near(_logits(model, backend, inputs), _logits(model, "math", inputs), f"{name} {backend}")


def _decode_logits(model, backend, ids, mask, new_tokens):
    """Prefill the padded prompts, then feed the math backend's greedy tokens one at a time: every step's logits."""
    set_attention_backend(model, backend)
    b, t = ids.shape
    model.setup_cache(b, t + new_tokens, dtype=torch.bfloat16)
    steps = []
    with torch.inference_mode(), torch.autocast("cuda", dtype=torch.bfloat16):
        logits = model(ids, attention_mask=mask, input_pos=0)[:, -1].float()
        for i in range(new_tokens):
            steps.append(logits)
            token = logits.argmax(-1, keepdim=True)
            mask = torch.cat([mask, torch.ones_like(token)], dim=1)
            logits = model(token, attention_mask=mask, input_pos=t + i)[:, -1].float()
    model.clear_cache()
    return torch.stack(steps, 1)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["gpt_tiny", "llama_tiny"])
def test_cached_decoding_equals_math(name, backend):
    torch.manual_seed(0)
    model = zoo.create_model(name).cuda().eval()
    ids = torch.randint(0, model.vocab_size, (3, 17), device="cuda")
    mask = torch.ones_like(ids)
    mask[1, :6] = 0  # left padding, as batched generation has
    want = _decode_logits(model, "math", ids, mask, 12)
    _assert_near(_decode_logits(model, backend, ids, mask, 12), want, f"{name} {backend} cached decoding")


@pytest.mark.parametrize("backend", BACKENDS)
def test_generate_runs_on_each_backend(backend):
    """zoo.generate end to end on the GPU: greedy tokens of a backend and of math agree on most positions
    (bf16 near-ties may flip a token late; the step logits are compared exactly above)."""
    torch.manual_seed(0)
    model = zoo.create_model("llama_tiny").cuda().eval()
    ids = torch.randint(0, model.vocab_size, (2, 9), device="cuda")
    out = {}
    for b in (backend, "math"):
        set_attention_backend(model, b)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            out[b] = zoo.generate(model, ids, 16)
    assert out[backend].shape == out["math"].shape == (2, 9 + 16)
    assert torch.equal(out[backend][:, :9], ids)
    assert (out[backend] == out["math"]).float().mean().item() >= 0.9
