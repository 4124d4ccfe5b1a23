"""Image datasets: IDX files (Fashion-MNIST), scikit-learn's digits, and class-folder trees of image files.

Every reader returns images and labels the same way: images as a uint8 tensor
(N, H, W) for grey sets, or a lazy sequence of PIL images (`FolderImages`) for
folders, and labels as an int64 tensor (N,). Damaged or missing input raises an
error that names the file and says what was expected.

IDX is Yann LeCun's MNIST format (also Fashion-MNIST's, Xiao et al. 2017): a
4-byte magic number (0, 0, type code, number of dims), one big-endian int32 per
dim, then the values in C order, big-endian. Checked against torchvision's
`read_sn3_pascalvincent_tensor` on the real Fashion-MNIST files.
"""
from __future__ import annotations

import gzip
import os
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch

from data.text import FULL_DIR

PathLike = str | os.PathLike

FASHION_MNIST_DIR = FULL_DIR / "fashion-mnist"                     # scripts/get_data.sh fashion-mnist
DEBIAN_FASHION_MNIST_DIR = Path("/usr/share/datasets/fashion-mnist")  # apt install dataset-fashion-mnist
FASHION_MNIST_CLASSES = ("T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                         "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot")
IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff", ".webp", ".ppm", ".pgm")

# IDX type code -> big-endian numpy dtype
_IDX_TYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


class UnreadableImageError(ValueError):
    """An image file that cannot be decoded (the message names it)."""


# ----------------------------------------------------------------------------- IDX


def read_idx(path: PathLike) -> np.ndarray:
    """An IDX file (raw or gzip, detected from its first bytes) as a numpy array of its type and dims."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"IDX file {str(path)!r} does not exist")
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (EOFError, OSError, zlib.error) as error:
            raise ValueError(f"{str(path)!r} is a damaged or truncated gzip file ({error})") from error
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0 or raw[2] not in _IDX_TYPES:
        raise ValueError(f"{str(path)!r} is not an IDX file: magic number {raw[:4].hex() or 'missing'}, "
                         f"expected 0000 + a type code in {[hex(t) for t in _IDX_TYPES]} + the number of dims")
    dtype, ndim = np.dtype(_IDX_TYPES[raw[2]]), raw[3]
    header = 4 + 4 * ndim
    if len(raw) < header:
        raise ValueError(f"{str(path)!r} is truncated: its header needs {header} bytes for {ndim} dims, "
                         f"the file has {len(raw)}")
    dims = tuple(int(d) for d in np.frombuffer(raw, ">i4", count=ndim, offset=4))
    expected = header + int(np.prod(dims, dtype=np.int64)) * dtype.itemsize
    if len(raw) != expected:
        what = "truncated" if len(raw) < expected else "longer than its header says"
        raise ValueError(f"{str(path)!r} is {what}: dims {dims} of {dtype.str} need {expected} bytes, "
                         f"the (decompressed) file has {len(raw)}")
    return np.frombuffer(raw, dtype, offset=header).reshape(dims).astype(dtype.newbyteorder("="))


def write_idx(path: PathLike, array: np.ndarray, compress: bool | None = None) -> Path:
    """Write `array` as IDX (gzip if compress, default: the name ends in .gz). For tests and exports."""
    path = Path(path)
    array = np.asarray(array)
    code = next((c for c, t in _IDX_TYPES.items() if np.dtype(t).newbyteorder("=") == array.dtype), None)
    if code is None:
        raise ValueError(f"IDX cannot store dtype {array.dtype}; use one of {sorted(set(_IDX_TYPES.values()))}")
    blob = bytes([0, 0, code, array.ndim]) + np.asarray(array.shape, ">i4").tobytes() \
        + array.astype(np.dtype(_IDX_TYPES[code])).tobytes()
    path.write_bytes(gzip.compress(blob) if (path.suffix == ".gz" if compress is None else compress) else blob)
    return path


# ----------------------------------------------------------------------------- Fashion-MNIST


def _idx_file(root: Path, stem: str) -> Path:
    for name in (f"{stem}.gz", stem):
        if (root / name).is_file():
            return root / name
    raise FileNotFoundError(
        f"Fashion-MNIST file {stem}(.gz) not found in {str(root)!r}. Run `make data` "
        f"(or `scripts/get_data.sh fashion-mnist`) to fetch it into {FASHION_MNIST_DIR}, "
        f"or install the Debian package dataset-fashion-mnist ({DEBIAN_FASHION_MNIST_DIR}).")


def fashion_mnist(root: PathLike | None = None, split: str = "train") -> tuple[torch.Tensor, torch.Tensor]:
    """(uint8 images (N, 28, 28), int64 labels (N,)): 60000 train / 10000 test, classes FASHION_MNIST_CLASSES.

    root=None looks in data/full/fashion-mnist, then in the Debian package's folder.
    """
    if split not in ("train", "test"):
        raise ValueError(f"split must be 'train' or 'test', got {split!r}")
    if root is None:
        root = next((d for d in (FASHION_MNIST_DIR, DEBIAN_FASHION_MNIST_DIR) if d.is_dir()), FASHION_MNIST_DIR)
    root, prefix = Path(root), "train" if split == "train" else "t10k"
    images_path = _idx_file(root, f"{prefix}-images-idx3-ubyte")
    labels_path = _idx_file(root, f"{prefix}-labels-idx1-ubyte")
    images, labels = read_idx(images_path), read_idx(labels_path)
    if images.ndim != 3 or images.shape[1:] != (28, 28) or images.dtype != np.uint8:
        raise ValueError(f"{str(images_path)!r} holds {images.dtype} images of shape {images.shape}, "
                         "expected uint8 (N, 28, 28)")
    if labels.shape != (len(images),) or labels.size and labels.max() >= len(FASHION_MNIST_CLASSES):
        raise ValueError(f"{str(labels_path)!r} holds labels of shape {labels.shape} (max "
                         f"{labels.max() if labels.size else None}); expected ({len(images)},) in 0..9")
    return torch.from_numpy(images.copy()), torch.from_numpy(labels.astype(np.int64))


# ----------------------------------------------------------------------------- scikit-learn digits


def stratified_split(labels: Sequence[int] | torch.Tensor, test_fraction: float = 0.2,
                     seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(train indices, test indices), sorted: round(test_fraction * n) of each class's n examples go to test
    (at least one, never all). Depends only on the labels, test_fraction and seed."""
    if not 0.0 < test_fraction < 1.0:
        raise ValueError(f"test_fraction must be in (0, 1), got {test_fraction}")
    labels = np.asarray(labels)
    test = []
    for c in np.unique(labels):
        members = np.flatnonzero(labels == c)
        if len(members) < 2:
            raise ValueError(f"class {c} has {len(members)} example(s); a stratified split needs at least 2")
        rng = np.random.default_rng(np.random.SeedSequence((seed, int(c))))
        n_test = min(len(members) - 1, max(1, round(test_fraction * len(members))))
        test.append(rng.permutation(members)[:n_test])
    test_idx = np.sort(np.concatenate(test))
    return np.setdiff1d(np.arange(len(labels)), test_idx), test_idx


def sklearn_digits(split: str = "train", seed: int = 0,
                   test_fraction: float = 0.2) -> tuple[torch.Tensor, torch.Tensor]:
    """scikit-learn's 1797 handwritten digits: uint8 images (N, 8, 8) (its 0..16 scaled to 0..255), labels 0..9.

    split "train" / "test" is a stratified split (see `stratified_split`), "all" everything.
    """
    try:
        from sklearn.datasets import load_digits
    except ImportError as error:
        raise ImportError("the digits dataset comes with scikit-learn: pip install scikit-learn") from error
    digits = load_digits()
    images = torch.from_numpy(np.rint(digits.images * (255.0 / 16.0)).astype(np.uint8))  # (1797, 8, 8)
    labels = torch.from_numpy(digits.target.astype(np.int64))
    if split == "all":
        return images, labels
    if split not in ("train", "test"):
        raise ValueError(f"split must be 'train', 'test' or 'all', got {split!r}")
    train_idx, test_idx = stratified_split(labels, test_fraction, seed)
    idx = torch.from_numpy(train_idx if split == "train" else test_idx)
    return images[idx], labels[idx]


# ----------------------------------------------------------------------------- class folders


def read_image(path: PathLike, mode: str | None = None):
    """A PIL image, fully decoded (and converted to `mode`, e.g. "L" or "RGB"); errors name the file."""
    from PIL import Image, UnidentifiedImageError

    path = Path(path)
    try:
        with Image.open(path) as image:
            image.load()
            return image.convert(mode) if mode and image.mode != mode else image.copy()
    except FileNotFoundError:
        raise
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as error:
        raise UnreadableImageError(f"cannot read image file {str(path)!r}: {error}") from error


class FolderImages(Sequence):
    """Image files read lazily (PIL, converted to `mode`) when indexed; `paths[i]` names image i."""

    def __init__(self, paths: Sequence[PathLike], mode: str | None = "RGB"):
        self.paths, self.mode = [Path(p) for p in paths], mode

    def __len__(self) -> int:
        return len(self.paths)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return FolderImages(self.paths[i], self.mode)
        return read_image(self.paths[i], self.mode)

    def subset(self, indices) -> FolderImages:
        return FolderImages([self.paths[int(i)] for i in indices], self.mode)


def image_folder(root: PathLike, mode: str | None = "RGB",
                 check: bool = True) -> tuple[FolderImages, torch.Tensor, list[str]]:
    """torchvision-ImageFolder layout: root/<class>/<image>. Returns (images, labels (N,), class names).

    Classes are the sorted subfolder names; files without an image extension
    (IMAGE_EXTENSIONS) and hidden files are skipped. check=True opens every
    file's header now, so a damaged file fails here, by name, not mid-training.
    """
    from PIL import Image, UnidentifiedImageError

    root = Path(root)
    if not root.is_dir():
        raise FileNotFoundError(f"image folder {str(root)!r} does not exist")
    classes = sorted(d.name for d in root.iterdir() if d.is_dir() and not d.name.startswith("."))
    if not classes:
        raise ValueError(f"image folder {str(root)!r} has no class subfolders; expected root/<class>/<image files>")
    paths, labels = [], []
    for label, name in enumerate(classes):
        files = sorted(p for p in (root / name).rglob("*") if p.is_file() and not p.name.startswith(".")
                       and p.suffix.lower() in IMAGE_EXTENSIONS)
        if not files:
            raise ValueError(f"class folder {str(root / name)!r} has no image files ({', '.join(IMAGE_EXTENSIONS)})")
        paths += files
        labels += [label] * len(files)
    if check:
        for path in paths:
            try:
                with Image.open(path) as image:
                    image.verify()
            except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as error:
                raise UnreadableImageError(f"cannot read image file {str(path)!r}: {error}") from error
    return FolderImages(paths, mode), torch.tensor(labels, dtype=torch.int64), classes
