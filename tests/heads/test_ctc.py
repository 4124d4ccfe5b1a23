"""heads/ctc.py: the CTC head's targets are each row's text tokens in order (specials and ignored positions
dropped), its loss is torch's CTC on them, and it learns to align a toy sequence."""
import pytest
import torch
import torch.nn.functional as F

from heads.ctc import CTCHead


def test_targets_are_the_text_tokens_in_order_and_the_loss_is_torchs():
    torch.manual_seed(0)
    head = CTCHead(dim=8, classes=5)  # tokens 0-4, blank 5; 5 and up in labels are specials (end of text, ...)
    features = torch.randn(2, 12, 8)
    labels = torch.tensor([[-100, 3, 1, 1, 7, -100],
                           [-100, -100, 4, 5, -100, -100]])  # rows' targets: [3, 1, 1] and [4]
    logits = head(features)
    assert logits.shape == (2, 12, 6) and head.blank == 5
    log_probs = logits.log_softmax(-1).transpose(0, 1)
    want = F.ctc_loss(log_probs, torch.tensor([3, 1, 1, 4]), torch.tensor([12, 12]), torch.tensor([3, 1]), blank=5)
    torch.testing.assert_close(head.loss(logits, labels), want)


def test_a_head_learns_to_align_a_toy_sequence():
    """Frames that carry their token's one-hot (with blanks between): the head learns to read them."""
    torch.manual_seed(0)
    head = CTCHead(dim=4, classes=3)
    targets = torch.randint(0, 3, (16, 5))  # (B, T)
    frames = torch.zeros(16, 15, 4)
    frames[:, ::3, :3] = F.one_hot(targets, 3).float()  # token t at frame 3t, the rest empty
    frames[:, :, 3] = 1.0  # a constant input, so the blank can be learned too
    optimizer = torch.optim.Adam(head.parameters(), lr=0.1)
    first = None
    for _ in range(150):
        loss = head.loss(head(frames), targets)
        first = first if first is not None else loss.item()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    assert loss.item() < 0.05 * first
    assert head.greedy(head(frames)) == targets.tolist()


def test_greedy_merges_repeats_then_drops_blanks():
    head = CTCHead(dim=4, classes=3)  # blank = 3
    path = torch.tensor([[0, 0, 3, 0, 1, 1, 3, 3, 2], [3, 3, 3, 3, 3, 3, 3, 3, 3]])
    logits = F.one_hot(path, 4).float()  # (2, 9, 4): each frame's best class is the path's
    assert head.greedy(logits) == [[0, 0, 1, 2], []]


def test_wrong_logits_shape_is_refused():
    head = CTCHead(dim=8, classes=5)
    with pytest.raises(ValueError, match=r"\(batch, frames, 6\)"):
        head.loss(torch.randn(2, 12, 5), torch.zeros(2, 3, dtype=torch.long))
