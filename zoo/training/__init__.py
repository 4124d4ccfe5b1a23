"""The one training engine every script uses (text, vision, audio, multimodal).

    from zoo.training import TrainConfig, make_eval_fn, train
    from zoo.training.tasks import causal_lm_loss
    result = train(model, stream, causal_lm_loss, TrainConfig(steps=600, lr=3e-3))

engine (the loop), config (TrainConfig, TrainResult), schedule (AdamW groups, warmup-cosine, the Transformer's
inverse square root), averaging (the mean of a run's last checkpoints' weights), batches
(devices, counts, make_eval_fn), distributed (ranks and collectives), sharded (FSDP2), checkpoint (training
state, RNG, metrics log), run_dir (the output folder: its files, its lock), interrupt (Ctrl-C and SIGTERM
save and stop), provenance (what tokens and tokenizers were made from), tasks (loss and evaluation
functions per task), cli (the flags every training script shares).
"""
from zoo.training.averaging import average_checkpoints, last_checkpoints
from zoo.training.batches import make_eval_fn, move_to_device
from zoo.training.checkpoint import plot_losses
from zoo.training.config import TrainConfig, TrainResult
from zoo.training.distributed import DistContext, distributed_context, is_main_process
from zoo.training.engine import CheckpointWriteError, train
from zoo.training.interrupt import TrainingInterrupted
from zoo.training.run_dir import RunDirError
from zoo.training.schedule import InverseSqrt, WarmupCosine, cosine_factor, lr_factor, paper_peak_lr, param_groups

__all__ = ["CheckpointWriteError", "DistContext", "InverseSqrt", "RunDirError", "TrainConfig", "TrainResult",
           "TrainingInterrupted", "WarmupCosine", "average_checkpoints", "cosine_factor", "distributed_context",
           "is_main_process", "last_checkpoints", "lr_factor", "make_eval_fn", "move_to_device", "paper_peak_lr",
           "param_groups", "plot_losses", "train"]
