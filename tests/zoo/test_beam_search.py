"""Beam search equals transformers' beam search on the same weights."""
import pytest
import torch
import transformers

from tests.helpers import tiny_hf_decoder
from zoo.generation import generate

transformers.logging.set_verbosity_error()


@pytest.fixture(scope="module", params=["gpt2", "llama"])
def pair(request):
    return tiny_hf_decoder(request.param)


PROMPT = torch.randint(1, 97, (2, 6), generator=torch.Generator().manual_seed(3))


def hf_beams(ref, n, eos=None, **kw):
    eos_list = list(eos) if isinstance(eos, tuple) else eos
    pad = eos[0] if isinstance(eos, tuple) else (eos if eos is not None else 0)
    with torch.no_grad():
        return ref.generate(PROMPT, attention_mask=torch.ones_like(PROMPT), max_new_tokens=n, do_sample=False,
                            eos_token_id=eos_list, pad_token_id=pad, **kw)


@pytest.mark.parametrize("options", [
    dict(num_beams=3),
    dict(num_beams=4, length_penalty=0.5),
    dict(num_beams=2, repetition_penalty=1.3),
])
def test_beams_without_eos(pair, options):
    ref, ours = pair
    assert torch.equal(generate(ours, PROMPT, 10, **options), hf_beams(ref, 10, **options))


@pytest.mark.parametrize("early_stopping,length_penalty", [(False, 1.0), (True, 1.0), ("never", 2.0),
                                                           (False, -1.0)])
def test_beams_that_finish_early(pair, early_stopping, length_penalty):
    ref, ours = pair
    plain = generate(ours, PROMPT, 10, num_beams=3)
    eos = (int(plain[0, 8]), int(plain[1, 9]))  # tokens the beams really produce, so hypotheses do finish
    options = dict(num_beams=3, early_stopping=early_stopping, length_penalty=length_penalty)
    got = generate(ours, PROMPT, 10, eos_id=eos, **options)
    assert torch.equal(got, hf_beams(ref, 10, eos=eos, **options))
    if length_penalty == 1.0:  # long hypotheses are not favoured, so a finished one wins somewhere
        assert torch.isin(got[:, 6:], torch.tensor(eos)).any()


def test_beam_search_reorders_the_cache_instead_of_recomputing(pair, monkeypatch):
    _, ours = pair
    calls = []
    original = ours.forward
    monkeypatch.setattr(ours, "forward", lambda ids, **kw: calls.append(ids.shape) or original(ids, **kw))
    generate(ours, PROMPT, 5, num_beams=3)
    assert calls[0] == (6, 6) and all(shape == (6, 1) for shape in calls[1:])  # prefill, then 1 token per beam


def test_beam_search_rejects_sampling_and_stop_sequences(pair):
    _, ours = pair
    with pytest.raises(ValueError, match="do_sample"):
        generate(ours, PROMPT, 4, num_beams=2, do_sample=True)
    with pytest.raises(ValueError, match="stop_sequences"):
        generate(ours, PROMPT, 4, num_beams=2, stop_sequences=((1, 2),))
