"""Fixtures the Whisper test modules share: each module says how its reference models are built (`_models`)."""
import pytest


@pytest.fixture(scope="module")
def multilingual(request):
    """The module's (reference, ours, ...) for a multilingual vocabulary (51865 tokens, 99 languages)."""
    return request.module._models(51865)


@pytest.fixture(scope="module")
def english(request):
    """The same for an English-only vocabulary (51864 tokens)."""
    return request.module._models(51864)
