"""bench/serving.py: the word tokenizer both servers read, and the section end to end on gpt_tiny."""
from __future__ import annotations

import pytest

from bench import serving
from bench.config import ServingBench


def test_word_tokenizer_is_one_token_a_word_over_the_whole_vocabulary(tmp_path):
    """Both servers read it as transformers' fast tokenizer: a prompt of P words is P ids, every id decodes to its
    word, and the last id is the end of text (the model's eos)."""
    from transformers import AutoTokenizer

    serving.word_tokenizer(100, tmp_path)
    tokenizer = AutoTokenizer.from_pretrained(tmp_path)
    text = serving.prompts(100, 6, 1, seed=0)[0]
    ids = tokenizer(text)["input_ids"]
    assert len(ids) == 6 and all(0 < i < 99 for i in ids)
    assert tokenizer.decode(ids) == text and tokenizer.eos_token_id == 99 and len(tokenizer) == 100


@pytest.mark.slow
def test_serving_section_quick(tmp_path):
    """Ours and transformers' continuous-batching server on gpt_tiny, 1 and 2 clients: every round counts the
    tokens asked for, and the report has both sides and the 8-client target row only where 8 clients ran."""
    config = ServingBench(("gpt_tiny",), (1, 2), 4, 6, 1, 1, True, 1)
    result = serving.run(config)
    sides = result["models"]["gpt_tiny"]
    assert set(sides) == set(serving.SIDES) and set(sides["transformers serve"]) == {1, 2}
    for per in sides.values():
        assert all(s["tokens_per_s"] > 0 and s["ttft_p50"] > 0 for s in per.values())
    text = serving.report(result, config)
    assert "| ours | 2 |" in text and "ours at 8 clients" not in text
