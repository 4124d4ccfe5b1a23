"""data.images / data.vision: transforms give what the model expects, IDX round trip and damage, digits split,
class folders (and their unreadable files), ImageDataset items and errors."""
from __future__ import annotations

import gzip

import numpy as np
import pytest
import torch

import zoo
from data.images import (
    IMAGENET_MEAN,
    Augment,
    ImageDataset,
    eval_transform,
    image_split,
    load_preprocess_config,
    preprocess_config,
    save_preprocess_config,
    train_transform,
)
from data.loader import BatchStream, iterate_once
from data.vision import (
    UnreadableImageError,
    fashion_mnist,
    image_folder,
    read_idx,
    sklearn_digits,
    stratified_split,
    write_idx,
)

# ----------------------------------------------------------------------------- transforms


def test_preprocess_config_defaults():
    grey = preprocess_config(zoo.create_model("vit_tiny_patch4_28").config)
    assert grey == {"size": 28, "mean": (0.5,), "std": (0.5,), "interpolation": "bilinear", "in_chans": 1,
                    "crop_pct": 1.0}
    rgb = preprocess_config(zoo.model_info("vit_tiny_patch16_224")["config"])  # a config dict works too
    assert rgb["mean"] == IMAGENET_MEAN and rgb["in_chans"] == 3 and rgb["size"] == 224 and rgb["crop_pct"] == 0.9
    assert preprocess_config(zoo.model_info("vit_tiny_patch2_8")["config"], mean=(0.1,))["mean"] == (0.1,)
    with pytest.raises(ValueError, match="one value per channel"):
        preprocess_config(zoo.model_info("vit_tiny_patch2_8")["config"], mean=(0.1, 0.2, 0.3))
    with pytest.raises(ValueError, match="unknown key"):
        preprocess_config(zoo.model_info("vit_tiny_patch2_8")["config"], colour=True)


def test_preprocess_config_saved_and_hf(tmp_path):
    config = zoo.model_info("vit_tiny_patch4_28")["config"]
    cfg = preprocess_config(config, mean=(0.3,), std=(0.2,))
    save_preprocess_config(cfg, tmp_path)
    assert load_preprocess_config(tmp_path, config) == cfg
    hf = tmp_path / "hf"
    hf.mkdir()
    (hf / "preprocessor_config.json").write_text('{"image_mean": [0.5, 0.5, 0.5], "image_std": [0.5, 0.5, 0.5], '
                                                 '"size": {"height": 224, "width": 224}, "resample": 2}')
    loaded = load_preprocess_config(hf, zoo.model_info("vit_tiny_patch16_224")["config"])
    assert loaded["mean"] == (0.5,) * 3 and loaded["interpolation"] == "bilinear" and loaded["size"] == 224


@pytest.mark.parametrize("name", ["vit_tiny_patch2_8", "vit_tiny_patch4_28"])
def test_transforms_give_what_the_model_expects(name):
    torch.manual_seed(0)
    model = zoo.create_model(name).eval()
    cfg = preprocess_config(model.config)
    size = cfg["size"]
    image = torch.randint(0, 256, (size + 4, size + 2), dtype=torch.uint8)  # grey, not the model's size
    image[0, 0], image[1, 1] = 0, 255
    evaluated = eval_transform(cfg)(image)
    assert evaluated.shape == (1, size, size) and evaluated.dtype == torch.float32
    augmented = train_transform(cfg, Augment(crop_padding=2, degrees=10, hflip=True, erase=0.5))(image)
    assert augmented.shape == (1, size, size) and augmented.dtype == torch.float32
    exact = torch.randint(0, 256, (1, size, size), dtype=torch.uint8)
    exact[0, 0, 0], exact[0, 0, 1] = 0, 255
    pixels = eval_transform(cfg)(exact)
    # uint8 -> [0, 1] -> (x - 0.5) / 0.5: exactly [-1, 1]
    assert torch.allclose(pixels, exact.float() / 255 * 2 - 1, atol=1e-6)
    assert pixels.min() == -1 and pixels.max() == 1
    assert torch.equal(train_transform(cfg)(exact), pixels)  # Augment() adds nothing random
    logits = model(torch.stack([evaluated, augmented]))
    assert logits.shape == (2, 10) and torch.isfinite(logits).all()


def test_rgb_pipeline_resizes_and_normalises_with_imagenet_stats():
    cfg = preprocess_config(zoo.model_info("vit_tiny_patch16_224")["config"], size=32)
    image = torch.full((3, 40, 60), 128, dtype=torch.uint8)
    pixels = eval_transform(cfg)(image)
    assert pixels.shape == (3, 32, 32)
    expected = (128 / 255 - torch.tensor(IMAGENET_MEAN)) / torch.tensor(cfg["std"])
    assert torch.allclose(pixels.mean((1, 2)), expected, atol=1e-4)
    crop = train_transform(cfg, Augment(scale=(0.3, 1.0), hflip=True))(image)
    assert crop.shape == (3, 32, 32)


def test_wrong_channel_count_names_the_shape():
    cfg = preprocess_config(zoo.model_info("vit_tiny_patch4_28")["config"])
    with pytest.raises(ValueError, match=r"\(3, 28, 28\).*in_chans=1"):
        eval_transform(cfg)(torch.zeros(3, 28, 28, dtype=torch.uint8))
    dataset = ImageDataset(torch.zeros(2, 3, 28, 28, dtype=torch.uint8), [0, 1], eval_transform(cfg))
    with pytest.raises(ValueError, match=r"image 1: .*\(3, 28, 28\)"):
        dataset[1]


# ----------------------------------------------------------------------------- IDX


@pytest.mark.parametrize("suffix", ["", ".gz"])
def test_idx_round_trip(tmp_path, suffix):
    images = np.random.default_rng(0).integers(0, 256, (5, 3, 4), dtype=np.uint8)
    labels = np.arange(5, dtype=np.int32) * -70000  # big-endian int32 with negative values
    write_idx(tmp_path / f"images{suffix}", images)
    write_idx(tmp_path / f"labels{suffix}", labels)
    read = read_idx(tmp_path / f"images{suffix}")
    assert read.dtype == np.uint8 and read.shape == (5, 3, 4) and np.array_equal(read, images)
    assert np.array_equal(read_idx(tmp_path / f"labels{suffix}"), labels)
    # The bytes are exactly LeCun's layout: magic 0x00000803 for 3-D unsigned bytes, then the dims.
    raw = (tmp_path / f"images{suffix}").read_bytes()
    raw = gzip.decompress(raw) if suffix else raw
    assert raw[:16] == bytes([0, 0, 8, 3]) + (5).to_bytes(4, "big") + (3).to_bytes(4, "big") + (4).to_bytes(4, "big")


def test_idx_damage_is_named(tmp_path):
    good = write_idx(tmp_path / "good.idx", np.zeros((4, 2, 2), np.uint8))
    (tmp_path / "short.idx").write_bytes(good.read_bytes()[:-3])
    with pytest.raises(ValueError, match=r"short.idx.*truncated.*\(4, 2, 2\)"):
        read_idx(tmp_path / "short.idx")
    (tmp_path / "bad_magic.idx").write_bytes(b"\x1f\x00\x08\x03" + good.read_bytes()[4:])
    with pytest.raises(ValueError, match="bad_magic.idx.*not an IDX file"):
        read_idx(tmp_path / "bad_magic.idx")
    (tmp_path / "short_header.idx").write_bytes(good.read_bytes()[:9])
    with pytest.raises(ValueError, match="short_header.idx.*truncated"):
        read_idx(tmp_path / "short_header.idx")
    gz = write_idx(tmp_path / "cut.gz", np.zeros((50, 9), np.uint8))
    gz.write_bytes(gz.read_bytes()[:-12])
    with pytest.raises(ValueError, match="cut.gz.*gzip"):
        read_idx(gz)
    with pytest.raises(FileNotFoundError, match="absent.idx"):
        read_idx(tmp_path / "absent.idx")


def test_fashion_mnist_reader_on_small_files_and_missing_data(tmp_path):
    rng = np.random.default_rng(1)
    write_idx(tmp_path / "t10k-images-idx3-ubyte.gz", rng.integers(0, 256, (6, 28, 28), dtype=np.uint8))
    write_idx(tmp_path / "t10k-labels-idx1-ubyte.gz", np.array([0, 1, 2, 9, 3, 3], np.uint8))
    images, labels = fashion_mnist(tmp_path, "test")
    assert images.shape == (6, 28, 28) and images.dtype == torch.uint8 and labels.tolist() == [0, 1, 2, 9, 3, 3]
    with pytest.raises(FileNotFoundError, match="make data"):
        fashion_mnist(tmp_path, "train")
    write_idx(tmp_path / "t10k-labels-idx1-ubyte.gz", np.array([0, 1], np.uint8))
    with pytest.raises(ValueError, match="t10k-labels.*expected \\(6,\\)"):
        fashion_mnist(tmp_path, "test")


# ----------------------------------------------------------------------------- digits


def test_digits_split_is_deterministic_and_stratified():
    x_train, y_train = sklearn_digits("train", seed=0)
    x_test, y_test = sklearn_digits("test", seed=0)
    assert x_train.dtype == torch.uint8 and x_train.shape[1:] == (8, 8) and x_train.max() == 255
    assert len(x_train) + len(x_test) == 1797
    again = sklearn_digits("test", seed=0)
    assert torch.equal(again[0], x_test) and torch.equal(again[1], y_test)
    assert not torch.equal(sklearn_digits("test", seed=1)[1], y_test)
    train_counts, test_counts = torch.bincount(y_train), torch.bincount(y_test)
    fractions = test_counts / (train_counts + test_counts)
    assert ((fractions - 0.2).abs() < 0.01).all(), fractions
    train_idx, test_idx = stratified_split(torch.cat([y_train, y_test]), 0.2, seed=0)
    assert len(np.intersect1d(train_idx, test_idx)) == 0 and len(train_idx) + len(test_idx) == 1797


# ----------------------------------------------------------------------------- folders


def _png(path, value, size=(6, 5), mode="L"):
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new(mode, size, value).save(path)


def test_image_folder_reads_classes_and_converts(tmp_path):
    for name, value in [("cat", 10), ("dog", 200)]:
        for i in range(3):
            _png(tmp_path / name / f"{i}.png", value, mode="RGB" if i else "L")
    (tmp_path / "cat" / "notes.txt").write_text("not an image")  # skipped: not an image extension
    images, labels, classes = image_folder(tmp_path, mode="L")
    assert classes == ["cat", "dog"] and labels.tolist() == [0, 0, 0, 1, 1, 1]
    assert images[4].mode == "L" and images[4].size == (6, 5)
    cfg = preprocess_config(zoo.model_info("vit_tiny_patch2_8")["config"])
    dataset = ImageDataset(images, labels, eval_transform(cfg))
    item = dataset[4]
    assert item["pixels"].shape == (1, 8, 8) and item["labels"] == 1
    batch = next(BatchStream(dataset, 4, seed=0))
    assert batch["pixels"].shape == (4, 1, 8, 8) and batch["labels"].dtype == torch.int64
    split = image_split(tmp_path, in_chans=3, test_fraction=0.34)
    assert len(split.test_labels) == 2 and sorted(split.test_labels.tolist()) == [0, 1]
    assert split.train_images[0].mode == "RGB"


def test_unreadable_image_file_is_named(tmp_path):
    _png(tmp_path / "a" / "fine.png", 1)
    _png(tmp_path / "b" / "fine.png", 2)
    (tmp_path / "b" / "broken.png").write_bytes(b"\x89PNG not really")
    with pytest.raises(UnreadableImageError, match="broken.png"):
        image_folder(tmp_path)
    images, labels, _ = image_folder(tmp_path, check=False)  # found later, by name, when read
    cfg = preprocess_config(zoo.model_info("vit_tiny_patch16_224")["config"], size=16)
    with pytest.raises(UnreadableImageError, match="broken.png"):
        ImageDataset(images, labels, eval_transform(cfg))[1]
    (tmp_path / "c").mkdir()
    with pytest.raises(ValueError, match="c'? has no image files"):
        image_folder(tmp_path)


# ----------------------------------------------------------------------------- dataset


def test_image_dataset_items_and_errors():
    cfg = preprocess_config(zoo.model_info("vit_tiny_patch2_8")["config"])
    images, labels = sklearn_digits("test")
    dataset = ImageDataset(images, labels, eval_transform(cfg))
    batches = list(iterate_once(dataset, 100))
    assert sum(len(b["labels"]) for b in batches) == len(images)
    assert batches[0]["pixels"].shape == (100, 1, 8, 8) and torch.equal(batches[0]["labels"], labels[:100])
    with pytest.raises(ValueError, match="labels of shape"):
        ImageDataset(images, labels[:-1], eval_transform(cfg))
    with pytest.raises(ValueError, match=r"shape \(8, 8\)"):
        ImageDataset(images[0], labels[:8], eval_transform(cfg))
    grey_as_rgb = image_split("digits", in_chans=3)
    assert grey_as_rgb.train_images.shape[1] == 3 and grey_as_rgb.augment.hflip is False
    with pytest.raises(FileNotFoundError, match="not found.*digits"):
        image_split("no/such/folder")
