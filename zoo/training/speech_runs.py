"""What the two speech tasks' runs share (zoo.training.keywords, zoo.training.speech_recognition): the names of
the scored splits, the preset overrides a run asks for, and this rank's stream of training batches."""
from __future__ import annotations

from data.loader import BatchStream

SPLIT_NAMES = {"val": "training voices, other utterances", "test": "held-out voices", "human": "human recordings"}


def model_overrides(args) -> dict:
    """The preset's fields a run overrides: --dropout, where given."""
    return {"dropout": args.dropout} if args.dropout is not None else {}


def batch_stream(dataset, args, ctx, collate=None) -> BatchStream:
    """This rank's shuffled training batches (--batch-size, at most the set's size; --seed)."""
    extra = {"collate_fn": collate} if collate else {}
    return BatchStream(dataset, min(args.batch_size, len(dataset)), seed=args.seed, rank=ctx.rank,
                       world_size=ctx.world_size, **extra)
