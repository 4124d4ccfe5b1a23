"""Speculative decoding: greedy output equals the target's own, sampling follows the target's distribution."""
import copy
import math

import pytest
import torch
from scipy import stats

import zoo
from zoo.generation import GenerationConfig, generate, next_token_probs
from zoo.generation.speculative import _verify, speculative_generate


@pytest.fixture(autouse=True)
def _one_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # 2 shared cores; tiny models gain nothing from more
    yield
    torch.set_num_threads(threads)


def randomized(model, seed, std):
    """Weights wider than the init's 0.02, so the models are confident and disagree with each other."""
    torch.manual_seed(seed)
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0, std)
    return model.eval()


def perturbed(model, seed, std):
    """A copy with noise on every weight: a draft that agrees with the model often, not always."""
    model = copy.deepcopy(model)
    torch.manual_seed(seed)
    with torch.no_grad():
        for p in model.parameters():
            p.add_(torch.randn_like(p) * std)
    return model


@pytest.fixture(scope="module", params=["gpt_tiny", "llama_tiny"])
def models(request):
    target = randomized(zoo.create_model(request.param, depth=2), 0, 0.1)
    unrelated = randomized(zoo.create_model(request.param, depth=1, dim=64), 1, 0.1)
    noise = {"gpt_tiny": 0.02, "llama_tiny": 0.005}[request.param]  # acceptance between 0.4 and 0.85
    return target, {"copy": copy.deepcopy(target), "perturbed": perturbed(target, 2, noise), "unrelated": unrelated}


@torch.no_grad()
def greedy_rounds_by_recompute(target, draft, prompt, max_new, k):
    """Speculative greedy without any cache: (tokens, proposed, accepted), the oracle for the cached one."""
    tokens, proposed, accepted = prompt, 0, 0
    while (done := tokens.shape[1] - prompt.shape[1]) < max_new:
        seq = tokens
        for _ in range(min(k, max_new - done - 1)):
            seq = torch.cat([seq, draft(seq)[:, -1:].argmax(-1)], dim=1)
        best = target(seq)[0, tokens.shape[1] - 1:].argmax(-1)  # target's choice after each prefix
        drafted, n = seq.shape[1] - tokens.shape[1], 0
        while n < drafted and best[n] == seq[0, tokens.shape[1] + n]:
            n += 1
        tokens = torch.cat([seq[:, :tokens.shape[1] + n], best[n].view(1, 1)], dim=1)
        proposed, accepted = proposed + drafted, accepted + n
    return tokens, proposed, accepted


def count_fed_tokens(model):
    fed = []
    handle = model.register_forward_pre_hook(lambda module, args: fed.append(args[0].shape[1]))
    return fed, handle


@pytest.mark.parametrize("k", [1, 3, 5])
@pytest.mark.parametrize("prompt_len", [1, 6])
@pytest.mark.parametrize("draft_kind", ["copy", "perturbed", "unrelated"])
def test_greedy_equals_plain_greedy(models, draft_kind, prompt_len, k):
    target, drafts = models
    prompt = torch.randint(0, 4096, (1, prompt_len), generator=torch.Generator().manual_seed(prompt_len))
    max_new = 11  # not a multiple of any round's k + 1
    want = generate(target, prompt, max_new)
    fed, handle = count_fed_tokens(target)
    try:
        got, st = speculative_generate(target, drafts[draft_kind], prompt, GenerationConfig(max_new_tokens=max_new), k)
    finally:
        handle.remove()
    assert torch.equal(got, want)
    assert st.proposed > 0 and st.acceptance_rate == st.accepted / st.proposed
    # Every position is fed to the target once, plus the rejected drafts: no prefix is recomputed.
    assert sum(fed) == prompt_len + max_new - 1 + st.proposed - st.accepted
    assert st.target_forwards == len(fed)
    # The cached draft proposes what it would from scratch (its cache follows the rewinds too).
    assert (st.proposed, st.accepted) == greedy_rounds_by_recompute(target, drafts[draft_kind], prompt, max_new, k)[1:]
    if draft_kind == "copy":
        assert st.acceptance_rate == 1.0
        assert st.proposed == st.accepted == max_new - math.ceil(max_new / (k + 1))
        # prefill + one forward per round of k drafted tokens and the bonus one
        assert st.target_forwards == 1 + math.ceil(max_new / (k + 1))
    elif draft_kind == "perturbed":
        assert 0.0 < st.acceptance_rate < 1.0  # accepts and rejects: both caches get rewound
    else:
        assert st.acceptance_rate < 0.5
        assert st.target_forwards > 1 + math.ceil(max_new / (k + 1))


@pytest.mark.parametrize("draft_kind", ["copy", "unrelated"])
def test_greedy_stops_like_generate(models, draft_kind):
    target, drafts = models
    prompt = torch.randint(0, 4096, (1, 4), generator=torch.Generator().manual_seed(0))
    free = generate(target, prompt, 12)
    eos, stop = int(free[0, 9]), tuple(free[0, 7:9].tolist())
    unseen = next(i for i in range(4096) if i not in free[0].tolist())  # a second EOS id, inside the vocabulary
    cases = [dict(eos_id=eos), dict(stop_sequences=(stop,)), dict(repetition_penalty=1.5),
             dict(eos_id=(unseen, eos), repetition_penalty=1.5)]
    for options in cases:
        want = generate(target, prompt, 12, **options)
        got, _ = speculative_generate(target, drafts[draft_kind], prompt,
                                      GenerationConfig(max_new_tokens=12, **options), 3)
        assert torch.equal(got, want), options
        assert want.shape[1] < free.shape[1] or not torch.equal(want, free), options  # each option made a difference


def test_max_new_tokens_one_and_left_padding(models):
    target, drafts = models
    prompt = torch.randint(1, 4096, (1, 7), generator=torch.Generator().manual_seed(1))
    got, st = speculative_generate(target, drafts["copy"], prompt, GenerationConfig(max_new_tokens=1), 4)
    assert torch.equal(got, generate(target, prompt, 1))
    assert st.proposed == 0 and st.acceptance_rate == 0.0
    padded = torch.cat([torch.zeros(1, 3, dtype=torch.long), prompt], dim=1)
    mask = (padded != 0).long()
    for draft in drafts.values():
        got, _ = speculative_generate(target, draft, padded, GenerationConfig(max_new_tokens=9), 3,
                                      attention_mask=mask)
        assert torch.equal(got, generate(target, padded, 9, attention_mask=mask))
        assert torch.equal(got[:, 3:], generate(target, prompt, 9))


# ----------------------------------------------------------------------------- sampling

VOCAB = 8


def tiny(seed, std=0.3):
    return randomized(zoo.create_model("gpt_tiny", vocab_size=VOCAB, depth=1, dim=32, num_heads=2), seed, std)


def exact_distribution(model, prompt, config, n):
    """P(x1..xn | prompt) for all VOCAB**n continuations: the product of the processed conditionals."""
    continuations = torch.cartesian_prod(*[torch.arange(VOCAB)] * n)  # (VOCAB**n, n)
    ids = torch.cat([prompt.expand(len(continuations), -1), continuations], dim=1)
    t = prompt.shape[1]
    with torch.no_grad():
        logits = model(ids)  # (VOCAB**n, t + n, V)
    prob = torch.ones(len(continuations), dtype=torch.float64)
    for j in range(n):
        for row in range(len(continuations)):
            p = next_token_probs(logits[row:row + 1, t - 1 + j], ids[row:row + 1, :t + j], config)[0]
            prob[row] *= float(p[continuations[row, j]])
    return prob


def chi_square_pvalue(counts, expected_prob):
    """Cells expected < 5 times are pooled into one (chosen from the expectation alone, not the data)."""
    expected = expected_prob * counts.sum()
    big = expected >= 5
    observed = torch.cat([counts[big], counts[~big].sum(0, keepdim=True)])
    expected = torch.cat([expected[big], expected[~big].sum(0, keepdim=True)])
    return stats.chisquare(observed.numpy(), expected.numpy() * observed.sum().item() / expected.sum().item()).pvalue


def sequence_index(tokens):
    index = 0
    for token in tokens:
        index = index * VOCAB + int(token)
    return index


def test_speculative_sampling_follows_the_target_distribution():
    target = tiny(0)
    draft = copy.deepcopy(target)  # a perturbed copy: agrees often, not always
    torch.manual_seed(5)
    with torch.no_grad():
        for p in draft.parameters():
            p.add_(torch.randn_like(p) * 0.2)
    config = GenerationConfig(max_new_tokens=3, do_sample=True, temperature=0.9, top_k=6, repetition_penalty=1.3)
    prompt = torch.tensor([[3, 1]])
    want = exact_distribution(target, prompt, config, 3)
    draft_only = exact_distribution(draft, prompt, config, 3)
    assert abs(float(want.sum()) - 1) < 1e-5
    assert 0.5 * float((want - draft_only).abs().sum()) > 0.2  # the draft alone is far from the target

    # 1500 runs (~4 s): with ~50 chi-square cells, n x chi2-distance >~ 50 is caught at p < 1e-3,
    # so a bias of total variation >~ 0.1 (chi2 >= 4 TV^2) fails the test.
    n = 1500
    counts = torch.zeros(VOCAB ** 3, dtype=torch.float64)
    generator = torch.Generator().manual_seed(0)
    proposed = accepted = 0
    for _ in range(n):
        out, st = speculative_generate(target, draft, prompt, config, 2, generator=generator)
        assert out.shape == (1, 5)
        counts[sequence_index(out[0, 2:])] += 1
        proposed, accepted = proposed + st.proposed, accepted + st.accepted
    assert 0.2 < accepted / proposed < 0.95  # both the accept and the reject paths ran often
    assert chi_square_pvalue(counts, want) > 1e-3

    # Power: n draws from the draft's own distribution are rejected by the same test.
    control = torch.multinomial(draft_only, n, replacement=True, generator=torch.Generator().manual_seed(1))
    assert chi_square_pvalue(torch.bincount(control, minlength=VOCAB ** 3).double(), want) < 1e-6


def test_verify_step_turns_draft_samples_into_target_samples():
    """The accept / residual step alone: draft x ~ q, output ~ p exactly, even where q or p is zero."""
    p = torch.tensor([0.5, 0.2, 0.2, 0.1, 0.0], dtype=torch.float64)
    q = torch.tensor([0.1, 0.6, 0.0, 0.1, 0.2], dtype=torch.float64)
    generator = torch.Generator().manual_seed(0)
    drafts = torch.multinomial(q, 10000, replacement=True, generator=generator)
    out = torch.tensor([x if (y := _verify(p, q, x, generator)) is None else y for x in drafts.tolist()])
    counts = torch.bincount(out, minlength=5).double()
    assert counts[4] == 0  # a token the target never picks never comes out
    assert stats.chisquare(counts[:4].numpy(), (p[:4] * 10000).numpy()).pvalue > 1e-3
    raw = torch.bincount(drafts, minlength=5)[:4].double()  # control: the drafts themselves fail the test
    assert stats.chisquare(raw.numpy(), (p[:4] * raw.sum()).numpy()).pvalue < 1e-6


def test_sampling_is_reproducible_with_a_generator(models):
    target, drafts = models
    prompt = torch.randint(0, 4096, (1, 5), generator=torch.Generator().manual_seed(2))
    # temperature 3 over 50 tokens: no token is near-certain, so 10 samples repeat greedy or another seed's
    # only with negligible probability (and the seeds are fixed: the outcome is the same every run).
    config = GenerationConfig(max_new_tokens=10, do_sample=True, top_k=50, temperature=3.0)

    def sample(seed):
        return speculative_generate(target, drafts["unrelated"], prompt, config, 3,
                                    generator=torch.Generator().manual_seed(seed))

    runs = [sample(7) for _ in range(2)]
    assert torch.equal(runs[0][0], runs[1][0]) and runs[0][1] == runs[1][1]
    assert runs[0][0].shape == (1, 15)
    assert not torch.equal(sample(8)[0], runs[0][0])  # the generator is used
    assert not torch.equal(generate(target, prompt, 10), runs[0][0])  # do_sample is not ignored


# ----------------------------------------------------------------------------- bad input


def test_bad_inputs_raise_clear_errors(models):
    target, drafts = models
    draft = drafts["unrelated"]
    prompt = torch.randint(0, 4096, (1, 4))
    config = GenerationConfig(max_new_tokens=4)
    with pytest.raises(ValueError, match=r"batch size 1.*input_ids has batch size 2"):
        speculative_generate(target, draft, prompt.repeat(2, 1), config)
    with pytest.raises(ValueError, match=r"num_draft_tokens must be >= 1, got 0"):
        speculative_generate(target, draft, prompt, config, num_draft_tokens=0)
    other_vocab = zoo.create_model("gpt_tiny", vocab_size=100, depth=1, dim=32, num_heads=2)
    with pytest.raises(ValueError, match=r"draft_model's vocabulary \(100 tokens\).*target model's \(4096 tokens\)"):
        speculative_generate(target, other_vocab, prompt, config)
    with pytest.raises(ValueError, match=r"different module"):
        speculative_generate(target, target, prompt, config)
    with pytest.raises(ValueError, match=r"num_beams"):
        speculative_generate(target, draft, prompt, GenerationConfig(max_new_tokens=4, num_beams=2))
    with pytest.raises(ValueError, match=r"exceeds the model's 256 positions"):
        speculative_generate(target, draft, prompt, GenerationConfig(max_new_tokens=253))
    short = zoo.create_model("gpt_tiny", depth=1, dim=32, num_heads=2, max_positions=8)
    with pytest.raises(ValueError, match=r"draft_model: .*exceeds the model's 8 positions"):
        speculative_generate(target, short, prompt, GenerationConfig(max_new_tokens=5))
