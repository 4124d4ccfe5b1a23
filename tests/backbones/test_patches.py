import pytest
import torch

from backbones.frontends.patches import PatchEmbedding
from backbones.positions import resample_grid_positions, sincos_2d


def images(b=2, c=3, h=32, w=32):
    return torch.randn(b, c, h, w, generator=torch.Generator().manual_seed(0))


@pytest.mark.parametrize("class_token,registers", [(True, 0), (True, 4), (False, 2), (False, 0)])
def test_shapes_and_prefix_count(class_token, registers):
    embed = PatchEmbedding(32, 8, 3, 24, class_token=class_token, num_register_tokens=registers)
    prefix = int(class_token) + registers
    assert embed.num_prefix_tokens == prefix and embed.grid_size == (4, 4)
    assert embed.pos_embed.shape == (1, prefix + 16, 24)
    assert embed(images()).shape == (2, prefix + 16, 24)
    assert embed(images(h=48, w=16)).shape == (2, prefix + 12, 24)  # another size: 6x2 patches


def test_token_order_is_class_registers_patches():
    """timm's order: [cls, registers..., patches]; with no_embed_class the prefix carries no positions."""
    embed = PatchEmbedding(16, 8, 3, 12, num_register_tokens=3, no_embed_class=True)
    with torch.no_grad():
        embed.cls_token.fill_(1.0)
        embed.reg_tokens.copy_(torch.arange(2.0, 5.0)[None, :, None].expand(1, 3, 12))
    out = embed(images(h=16, w=16))  # (2, 1 + 3 + 4, 12)
    assert torch.equal(out[:, 0], torch.ones(2, 12))
    for i in range(3):
        assert torch.equal(out[:, 1 + i], torch.full((2, 12), 2.0 + i))
    patches = embed.proj(images(h=16, w=16)).flatten(2).transpose(1, 2)
    torch.testing.assert_close(out[:, 4:], patches + embed.pos_embed)


def test_learned_positions_cover_the_prefix_unless_no_embed_class():
    x = images(h=16, w=16)
    embed = PatchEmbedding(16, 8, 3, 12, num_register_tokens=1)
    assert embed.pos_embed.shape == (1, 2 + 4, 12)
    out = embed(x)
    torch.testing.assert_close(out[:, 0], embed.cls_token[:, 0].expand(2, 12) + embed.pos_embed[:, 0])
    torch.testing.assert_close(out[:, 1], embed.reg_tokens[:, 0].expand(2, 12) + embed.pos_embed[:, 1])
    assert PatchEmbedding(16, 8, 3, 12, num_register_tokens=1, no_embed_class=True).pos_embed.shape == (1, 4, 12)


def test_sincos_positions_are_fixed_and_recomputed_for_other_grids():
    embed = PatchEmbedding(16, 4, 3, 16, pos_embed="sincos")
    assert embed.pos_embed is None and "sincos" not in embed.state_dict()
    x = images(h=8, w=12)
    patches = embed.proj(x).flatten(2).transpose(1, 2)  # (2, 2*3, 16)
    torch.testing.assert_close(embed(x)[:, 1:], patches + sincos_2d(2, 3, 16))
    assert PatchEmbedding(16, 4, 3, 16, pos_embed="none")(x).shape == (2, 7, 16)


def test_resampling_is_identity_at_the_same_grid_and_keeps_the_prefix():
    pos = torch.randn(1, 2 + 12, 8)
    assert resample_grid_positions(pos, (3, 4), (3, 4), 2) is pos
    out = resample_grid_positions(pos, (3, 4), (6, 2), 2)
    assert out.shape == (1, 2 + 12, 8) and torch.equal(out[:, :2], pos[:, :2])
    assert not torch.allclose(out[:, 2:], pos[:, 2:])  # same count, other grid: resampled
    const = torch.ones(1, 16, 8)  # a constant field stays constant, up or down
    torch.testing.assert_close(resample_grid_positions(const, (4, 4), (7, 5)), torch.ones(1, 35, 8))
    torch.testing.assert_close(resample_grid_positions(const, (4, 4), (2, 3)), torch.ones(1, 6, 8))
    with pytest.raises(ValueError, match=r"1 prefix \+ 3x4 grid = 13.*\(1, 14, 8\)"):
        resample_grid_positions(pos, (3, 4), (2, 2), 1)


@pytest.mark.parametrize("new", [(2, 3), (6, 5), (1, 7)])
def test_resampling_matches_timm(new):
    from timm.layers import resample_abs_pos_embed

    pos = torch.randn(1, 1 + 16, 8, generator=torch.Generator().manual_seed(0))
    torch.testing.assert_close(resample_grid_positions(pos, (4, 4), new, 1),
                               resample_abs_pos_embed(pos, list(new), (4, 4), num_prefix_tokens=1), atol=0, rtol=0)


def test_bad_inputs_name_the_shape():
    embed = PatchEmbedding(32, 8, 3, 16)
    with pytest.raises(ValueError, match=r"1 channel\(s\) \(shape \(2, 1, 32, 32\)\).*in_chans=3"):
        embed(images(c=1))
    with pytest.raises(ValueError, match=r"image size 30x32 \(pixels shape \(2, 3, 30, 32\)\) is not divisible "
                                         r"by the patch size 8"):
        embed(images(h=30))
    with pytest.raises(ValueError, match=r"pixels must be \(B, C, H, W\); got shape \(3, 32, 32\)"):
        embed(images()[0])
    with pytest.raises(TypeError, match="floating-point.*torch.uint8"):
        embed(torch.zeros(1, 3, 32, 32, dtype=torch.uint8))
    with pytest.raises(ValueError, match="image_size 30x30 is not divisible by the patch size 8"):
        PatchEmbedding(30, 8, 3, 16)
    with pytest.raises(ValueError, match="pos_embed must be one of"):
        PatchEmbedding(32, 8, 3, 16, pos_embed="rope")


def test_default_stride_is_the_patch_and_keeps_image_behaviour():
    embed = PatchEmbedding(32, 8, 3, 16)
    assert embed.stride == (8, 8) and embed.proj.stride == (8, 8) and embed.dist_token is None
    assert set(embed.state_dict()) == {"cls_token", "pos_embed", "proj.weight", "proj.bias"}


def test_overlapping_patches_grid_and_remainder():
    """stride < patch: (size - p) // s + 1 patches per side, as a Conv2d; a too-short remainder is dropped."""
    embed = PatchEmbedding((36, 56), 16, 1, 12, stride=(10, 8))
    assert embed.grid_size == (3, 6) and embed.pos_embed.shape == (1, 1 + 18, 12)
    x = images(c=1, h=40, w=56)  # 40 rows: still 3 patch rows, 4 rows left over
    out = embed(x)
    patches = embed.proj(x).flatten(2).transpose(1, 2)  # (2, 3*6, 12)
    torch.testing.assert_close(out[:, 1:], patches + embed.pos_embed[:, 1:])
    assert embed(images(c=1, h=16, w=24)).shape == (2, 1 + 1 * 2, 12)  # another grid: positions resampled
    with pytest.raises(ValueError, match=r"image size 12x56 \(pixels shape \(2, 1, 12, 56\)\) is smaller than "
                                         r"the patch size 16"):
        embed(images(c=1, h=12, w=56))


def test_distillation_token_follows_the_class_token():
    embed = PatchEmbedding(16, 8, 3, 12, distill_token=True, num_register_tokens=1)
    assert embed.num_prefix_tokens == 3 and embed.pos_embed.shape == (1, 3 + 4, 12)
    with torch.no_grad():
        embed.cls_token.fill_(1.0), embed.dist_token.fill_(2.0), embed.reg_tokens.fill_(3.0)
    out = embed(images(h=16, w=16))
    for i in range(3):  # [class, distillation, register, patches], each with its position
        torch.testing.assert_close(out[:, i], torch.full((2, 12), 1.0 + i) + embed.pos_embed[:, i])


def test_spectrogram_patches_are_ast_layout():
    """(B, T, F) frames -> the (F, T) plane as a grey image, patch rows over frequency first (transformers' AST)."""
    from backbones.frontends.patches import SpectrogramPatchEmbedding

    embed = SpectrogramPatchEmbedding(56, 36, 16, 12, stride=10, distill_token=True)
    assert embed.image_size == (36, 56) and embed.grid_size == (3, 5) and embed.num_prefix_tokens == 2
    spec = torch.randn(2, 56, 36, generator=torch.Generator().manual_seed(0))
    out = embed(spec)
    assert out.shape == (2, 2 + 15, 12)
    image = spec.transpose(1, 2).unsqueeze(1)  # (2, 1, F, T)
    patches = embed.proj(image).flatten(2).transpose(1, 2)  # (2, 3*5, 12)
    torch.testing.assert_close(out[:, 2:], patches + embed.pos_embed[:, 2:])
    patch = spec[0, 10:26, 20:36].T  # frequency row 2, time column 1 -> token 2 + 2*5 + 1
    want = (embed.proj.weight[:, 0] * patch).sum((1, 2)) + embed.proj.bias + embed.pos_embed[0, 13]
    torch.testing.assert_close(out[0, 13], want)
    with pytest.raises(ValueError, match=r"spectrogram must be \(B, frames, mel bins\); got shape \(56, 36\)"):
        embed(spec[0])
    with pytest.raises(TypeError, match="floating-point.*torch.int64"):
        embed(spec.long())


@pytest.mark.parametrize("case", ["autocast", "bf16 weights", "no bias", "spectrogram"])
def test_overlapping_bf16_patches_unfolded_equal_the_convolution(case, monkeypatch):
    """In bf16 on the CPU overlapping patches are one F.linear over the unfolded image (oneDNN's bf16 Conv2d is
    slow there), and the Conv2d never runs: the same values as the fp32 Conv2d up to bf16 rounding, under
    autocast (gradients for weight, bias and input too) or with bf16 weights, without a bias, for a
    spectrogram's transposed view, with a remainder on both sides."""
    from backbones.frontends.patches import SpectrogramPatchEmbedding

    embed = (SpectrogramPatchEmbedding(57, 37, 16, 12, stride=(10, 8)) if case == "spectrogram"
             else PatchEmbedding((37, 57), 16, 1, 12, stride=(10, 8), bias=case != "no bias"))
    x = torch.randn(2, 57, 37) if case == "spectrogram" else images(c=1, h=37, w=57)  # 2 and 1 left over
    pixels = x.transpose(1, 2).unsqueeze(1) if case == "spectrogram" else x
    want_in = pixels.clone().requires_grad_()
    want = embed.proj(want_in)  # (2, 12, 3, 6), fp32
    convolutions = []
    original = embed.proj.forward
    monkeypatch.setattr(embed.proj, "forward", lambda t: convolutions.append(1) or original(t))
    got_in = pixels.clone().requires_grad_()
    if case == "bf16 weights":
        got = embed.bfloat16().project(got_in.bfloat16())
    else:
        with torch.autocast("cpu", torch.bfloat16):
            got = embed.project(got_in)
            if case == "spectrogram":
                tokens = embed(x)
                torch.testing.assert_close(tokens[:, 1:].float(), (got.flatten(2).mT + embed.pos_embed[:, 1:]).float())
    assert convolutions == [] and got.dtype == torch.bfloat16 and got.shape == want.shape
    torch.testing.assert_close(got.float(), want, rtol=2e-2, atol=2e-2 * want.abs().max().item())
    if case != "bf16 weights":
        got.float().square().sum().backward()
        params = [p for p in (embed.proj.weight, embed.proj.bias) if p is not None]
        grads = [p.grad.clone() for p in params] + [got_in.grad]
        embed.zero_grad()
        want.square().sum().backward()
        for got_grad, want_grad in zip(grads, [p.grad for p in params] + [want_in.grad]):
            torch.testing.assert_close(got_grad, want_grad, rtol=3e-2, atol=3e-2 * want_grad.abs().max().item())


def test_the_convolution_runs_elsewhere(monkeypatch):
    """fp32, non-overlapping patches in bf16, and bf16 pixels for an fp32 model (cast to fp32 first, as
    transformers' ViT casts pixel_values) stay with it."""
    overlapping = PatchEmbedding((36, 56), 16, 1, 12, stride=10)
    tiled = PatchEmbedding(32, 16, 3, 12)
    convolutions = []
    for embed in (overlapping, tiled):
        original = embed.proj.forward
        monkeypatch.setattr(embed.proj, "forward", lambda t, original=original: convolutions.append(1) or original(t))
    overlapping.project(images(c=1, h=36, w=56))
    with torch.autocast("cpu", torch.bfloat16):
        tiled.project(images())
    assert convolutions == [1, 1]
    assert overlapping.project(images(c=1, h=36, w=56).bfloat16()).dtype == torch.float32
    assert convolutions == [1, 1, 1]
    assert overlapping.project(images(b=0, c=1, h=36, w=56)).shape == (0, 12, 3, 5)
