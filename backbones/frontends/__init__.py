"""Front-ends: turn raw inputs (token ids, pixels, audio) into (B, N, D) tokens."""
from backbones.frontends.audio import AudioConvStem
from backbones.frontends.patches import PatchEmbedding, SpectrogramPatchEmbedding
from backbones.frontends.tokens import TokenEmbedding

__all__ = ["AudioConvStem", "PatchEmbedding", "SpectrogramPatchEmbedding", "TokenEmbedding"]
