"""A verse-aligned English-Spanish Bible: King James Version and Reina-Valera 1909, split by book.

The text comes from the SWORD modules `engKJV2006eb` (Debian `sword-text-kjv`) and `spaRV1909eb`
(`sword-text-sparv`), printed by Debian's `diatheke -f plain` (scripts/get_data.sh bible-parallel):
one `Book chapter:verse: text` line per verse, 31,102 per module, book names in English for both,
with markup left in the text (Strong's numbers as ` <G0846>` tokens in the Spanish; pilcrows and a
USFM `\\nd` marker in the KJV) and lines that are not verses (psalm titles, repeated stale before
later verses so that they cannot be attached to one; blank lines; `(moduleName)` at the end).

Both modules claim the KJV versification, but the Spanish follows its own numbering in places:
- it leaves 18 verses empty (Jonah 1:17 is its Jonah 2:1, Job 38:39-41 its Job 39:1-3, ...) and the
  verses around them are shifted; elsewhere it draws a verse boundary a clause or a verse away
  (1 Kings 22:43-53). `align_verses` drops the chapters around an empty verse and the pairs that a
  length-based alignment (Gale & Church 1993, "A program for aligning sentences in bilingual
  corpora") does not match one-to-one in place;
- it keeps inside verses what the KJV module has outside them: psalm superscriptions in verse 1,
  Psalm 119's Hebrew letters, the subscriptions after the last "Amén." of the Pauline letters.
  `strip_rv1909_additions` removes them.

On disk, a corpus is a folder of `{split}.en`, `{split}.es` (one verse per line, aligned by line)
and `{split}.ref` (`Book chapter:verse` of each line) for the splits train, valid and test. The
split is by book, so no held-out verse shares a book with training text. `python -m data.parallel
build` writes the full corpus (data/full/parallel/kjv-rv1909); `python -m data.parallel extract`
cuts the shipped extract (data/corpus/parallel) from it.
"""
from __future__ import annotations

import argparse
import math
import os
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

PARALLEL_EXTRACT = Path(__file__).resolve().parent / "corpus" / "parallel"   # shipped with the repo
PARALLEL_FULL = Path(__file__).resolve().parent / "full" / "parallel" / "kjv-rv1909"  # scripts/get_data.sh

PathLike = str | os.PathLike
Ref = tuple[str, int, int]            # (book as diatheke prints it, chapter, verse)
VersePair = tuple[Ref, str, str]      # (reference, source text, target text)

# The 66 books in canonical order, spelled as diatheke's English locale prints them for both modules.
BOOKS = (
    "Genesis", "Exodus", "Leviticus", "Numbers", "Deuteronomy", "Joshua", "Judges", "Ruth",
    "I Samuel", "II Samuel", "I Kings", "II Kings", "I Chronicles", "II Chronicles", "Ezra", "Nehemiah",
    "Esther", "Job", "Psalms", "Proverbs", "Ecclesiastes", "Song of Solomon", "Isaiah", "Jeremiah",
    "Lamentations", "Ezekiel", "Daniel", "Hosea", "Joel", "Amos", "Obadiah", "Jonah", "Micah", "Nahum",
    "Habakkuk", "Zephaniah", "Haggai", "Zechariah", "Malachi",
    "Matthew", "Mark", "Luke", "John", "Acts", "Romans", "I Corinthians", "II Corinthians", "Galatians",
    "Ephesians", "Philippians", "Colossians", "I Thessalonians", "II Thessalonians", "I Timothy",
    "II Timothy", "Titus", "Philemon", "Hebrews", "James", "I Peter", "II Peter", "I John", "II John",
    "III John", "Jude", "Revelation of John",
)
_BOOK_INDEX = {book: i for i, book in enumerate(BOOKS)}

# The held-out books, fixed so that scores stay comparable across runs and commits: two Old Testament
# and three New Testament books each. Every other book is train.
TEST_BOOKS = ("Ruth", "Jonah", "Mark", "Philippians", "James")
VALID_BOOKS = ("Esther", "Joel", "Colossians", "I Peter", "Titus")
SPLITS = ("train", "valid", "test")

# The shipped extract: these whole train books, and the first EXTRACT_HELD_OUT_PAIRS pairs of each
# held-out book (so 5 x 40 = 200 pairs per held-out split when no book is shorter).
EXTRACT_TRAIN_BOOKS = ("Genesis", "Matthew", "Ecclesiastes")
EXTRACT_HELD_OUT_PAIRS = 40

_VERSE_LINE = re.compile(r"^\s*(?P<book>\S.*?) (?P<chapter>\d+):(?P<verse>\d+):(?: (?P<text>.*))?$")
_STRONGS = re.compile(r"\s*<[GH]\d+[a-z]?>")       # " <G0846>": the number and the space before it
_TAG = re.compile(r"<[^<>]*>")                     # any other markup tag
_USFM = re.compile(r"\\\+?[a-z]+\d*\*?\s?")       # "\nd " (divine name) and other USFM markers
_SPACES = re.compile(r"\s+")


def clean_verse(text: str) -> str:
    """Verse text without markup (tags, Strong's numbers, USFM markers, pilcrows), NFC, spaces collapsed."""
    text = _STRONGS.sub("", text)
    text = _TAG.sub("", text)
    text = _USFM.sub("", text)
    text = text.replace("\u00b6", " ")
    return _SPACES.sub(" ", unicodedata.normalize("NFC", text)).strip()


def parse_diatheke(text: str) -> dict[Ref, str]:
    """{(book, chapter, verse): cleaned text} from `diatheke -f plain` output, in the order printed.

    Lines that are not `Book ch:v: text` with a known book (titles, blank lines, the module name)
    are skipped; a verse printed twice is an error. A verse may be empty.
    """
    verses: dict[Ref, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        m = _VERSE_LINE.match(line)
        if m is None or m["book"] not in _BOOK_INDEX:
            continue
        ref = (m["book"], int(m["chapter"]), int(m["verse"]))
        if ref in verses:
            raise ValueError(f"line {number}: {format_ref(ref)} printed twice")
        verses[ref] = clean_verse(m["text"] or "")
    return verses


def format_ref(ref: Ref) -> str:
    """`I Peter 1:1` for ("I Peter", 1, 1)."""
    return f"{ref[0]} {ref[1]}:{ref[2]}"


def parse_ref(text: str) -> Ref:
    """("I Peter", 1, 1) for `I Peter 1:1`; ValueError for anything else."""
    book, _, numbers = text.rpartition(" ")
    chapter, _, verse = numbers.partition(":")
    if book not in _BOOK_INDEX or not chapter.isdigit() or not verse.isdigit():
        raise ValueError(f"{text!r} is not a reference like 'I Peter 1:1'")
    return book, int(chapter), int(verse)


def ref_order(ref: Ref) -> tuple[int, int, int]:
    """Sort key: canonical book order, then chapter and verse."""
    return _BOOK_INDEX[ref[0]], ref[1], ref[2]


# ----------------------------------------------------------------------------- the Spanish module's extras

# Psalm 119's section letters, as the RV 1909 module spells them at verses 1, 9, ..., 169.
PSALM_119_LETTERS = ("ALEPH", "BETH", "GIMEL", "DALETH", "HE", "VAU", "ZAIN", "CHETH", "TETH", "JOD", "CAPH",
                     "LAMED", "MEM", "NUN", "SAMECH", "AIN", "PE", "TZADDI", "COPH", "RESH", "SIN", "TAU")
# Letters whose last verse the RV 1909 ends with a subscription ("... Amén. Escrita de Roma ...").
SUBSCRIBED_EPISTLES = ("Romans", "I Corinthians", "II Corinthians", "Galatians", "Ephesians", "Philippians",
                       "Colossians", "I Thessalonians", "II Thessalonians", "I Timothy", "II Timothy", "Titus",
                       "Philemon", "Hebrews")
# The RV prints a chapter's first word in capitals ("BIENAVENTURADO", "A TI", "¿POR qué"); in a psalm's
# verse 1, whatever comes before that word is the superscription.
_CHAPTER_START = re.compile(r"(?:^|(?<=[.:;,?!] ))(?:A )?[¿¡(]?[A-ZÁÉÍÓÚÑÜ]{2,}\b")
_AMEN = "Amén."
_HALLELUJAH = "Aleluya. "   # opens Psalms 111-113, 135, 146, 148-150; the KJV has "Praise ye the LORD." there


def strip_rv1909_additions(verses: dict[Ref, str]) -> tuple[dict[Ref, str], Counter]:
    """The RV 1909 verses without the text the KJV module keeps outside its verses, and what was removed.

    Removes psalm superscriptions from verse 1, Psalm 119's letter headings, and the subscriptions
    after the last "Amén." of the Pauline letters and Hebrews.
    """
    out = dict(verses)
    removed: Counter = Counter()
    for ref, text in verses.items():
        book, chapter, verse = ref
        if book == "Psalms" and chapter == 119 and (verse - 1) % 8 == 0 and verse <= 169:
            letter = re.match(re.escape(PSALM_119_LETTERS[(verse - 1) // 8]) + r"\.? ", text)
            if letter:
                text = text[letter.end():]
                removed["Psalm 119 letter headings"] += 1
        if book == "Psalms" and verse == 1:
            start = _CHAPTER_START.search(text)
            if start and start.start() > 0 and text[:start.start()] != _HALLELUJAH:
                text = text[start.start():]
                removed["psalm superscriptions"] += 1
        out[ref] = text
    last: dict[str, Ref] = {}   # each letter's last verse with text
    for ref in sorted(out, key=ref_order):
        if ref[0] in SUBSCRIBED_EPISTLES and out[ref]:
            last[ref[0]] = ref
    for ref in last.values():
        amen = out[ref].rfind(_AMEN)
        if amen >= 0 and out[ref][amen + len(_AMEN):]:
            out[ref] = out[ref][:amen + len(_AMEN)]
            removed["epistle subscriptions"] += 1
    return out, removed


# ----------------------------------------------------------------------------- alignment

# Gale & Church (1993): the target length of a bead is normal around ratio * source length with
# variance S2 * source length (they measured S2 = 6.8 characters); the bead kinds' prior probabilities.
_GC_VARIANCE = 6.8
_GC_BEADS = {(1, 1): 0.89, (1, 0): 0.0099, (0, 1): 0.0099, (2, 1): 0.089 / 2, (1, 2): 0.089 / 2, (2, 2): 0.011}
SHIFT_BAND = 12   # the largest verse shift looked for (the RV's Job 40 is five verses off the KJV's)


def _bead_cost(source_chars: int, target_chars: int, ratio: float, prior: float) -> float:
    mean = (source_chars + target_chars / ratio) / 2
    z = abs(target_chars - ratio * source_chars) / math.sqrt(max(mean, 1.0) * _GC_VARIANCE)
    return -math.log(prior) - math.log(max(math.erfc(z / math.sqrt(2)), 1e-300))


def in_place(source_chars: Sequence[int], target_chars: Sequence[int], ratio: float = 1.0) -> list[bool]:
    """Whether the cheapest Gale-Church alignment pairs source[i] with target[i] one-to-one, for each i.

    A monotone alignment of the two length sequences into beads of 1-1, 1-0, 0-1, 2-1, 1-2 and 2-2
    items, at most SHIFT_BAND items off the diagonal; ratio = expected target / source length.
    """
    n, m = len(source_chars), len(target_chars)
    src, tgt = [0], [0]   # prefix sums
    for k in source_chars:
        src.append(src[-1] + k)
    for k in target_chars:
        tgt.append(tgt[-1] + k)
    cost = {(0, 0): 0.0}
    back: dict[tuple[int, int], tuple[int, int]] = {}
    for i in range(n + 1):
        for j in range(max(0, i - SHIFT_BAND), min(m, i + SHIFT_BAND) + 1):
            for (di, dj), prior in _GC_BEADS.items():
                before = cost.get((i - di, j - dj))
                if before is None:
                    continue
                c = before + _bead_cost(src[i] - src[i - di], tgt[j] - tgt[j - dj], ratio, prior)
                if c < cost.get((i, j), math.inf):
                    cost[(i, j)], back[(i, j)] = c, (di, dj)
    if (n, m) not in back and (n, m) != (0, 0):
        raise ValueError(f"{n} source and {m} target items are more than SHIFT_BAND = {SHIFT_BAND} apart")
    kept = [False] * n
    i, j = n, m
    while i or j:
        di, dj = back[(i, j)]
        if (di, dj) == (1, 1) and i == j:
            kept[i - 1] = True
        i, j = i - di, j - dj
    return kept


@dataclass(frozen=True)
class Alignment:
    """Verse pairs by reference, in canonical order, and the references that gave no pair, by reason."""

    pairs: list[VersePair]
    empty: list[Ref]          # on both sides, empty on at least one
    renumbered: list[Ref]     # in a chapter with an empty verse, or in the chapter after one
    shifted: list[Ref]        # elsewhere, but a length check finds the texts do not correspond
    source_only: list[Ref]
    target_only: list[Ref]

    def dropped(self) -> dict[str, list[Ref]]:
        """The references without a pair, by reason."""
        return {"empty": self.empty, "renumbered": self.renumbered, "shifted": self.shifted,
                "source only": self.source_only, "target only": self.target_only}


def align_verses(source: dict[Ref, str], target: dict[Ref, str]) -> Alignment:
    """Pair the verses of the same reference that both have text, where the numberings agree.

    Where they differ, one side leaves a verse empty (at the end of a chapter, in the RV 1909) and
    moves its text into the next chapter or merges it with a neighbour, and the verses around it are
    shifted: the chapter with the empty verse and the chapter after it are dropped whole, since
    lengths alone cannot always tell where a shift ends (Job 39's poetry). Elsewhere, the verses
    both sides have are aligned by length per book (`in_place`, the length ratio being the texts'
    own), and a pair is kept when that alignment matches its two verses one-to-one in place.
    """
    both = sorted(source.keys() & target.keys(), key=ref_order)
    ratio = sum(len(target[r]) for r in both) / max(1, sum(len(source[r]) for r in both))
    empty = [r for r in both if not (source[r] and target[r])]
    near_empty = {(b, c + k) for b, c, _ in empty for k in (0, 1)}
    pairs: list[VersePair] = []
    renumbered: list[Ref] = []
    shifted: list[Ref] = []
    for book in BOOKS:
        refs = [r for r in both if r[0] == book]
        flags = in_place([len(source[r]) for r in refs], [len(target[r]) for r in refs], ratio)
        for ref, ok in zip(refs, flags):
            if not (source[ref] and target[ref]):
                continue
            if ref[:2] in near_empty:
                renumbered.append(ref)
            elif ok:
                pairs.append((ref, source[ref], target[ref]))
            else:
                shifted.append(ref)
    return Alignment(pairs=pairs, empty=empty, renumbered=renumbered, shifted=shifted,
                     source_only=sorted(source.keys() - target.keys(), key=ref_order),
                     target_only=sorted(target.keys() - source.keys(), key=ref_order))


# ----------------------------------------------------------------------------- splits on disk

class ParallelCorpusError(ValueError):
    """A parallel corpus folder is missing a file, or a split's files disagree in length."""


def split_of(book: str) -> str:
    """"test", "valid" or "train" for a book of BOOKS."""
    if book not in _BOOK_INDEX:
        raise ValueError(f"unknown book {book!r}; expected one of BOOKS (as diatheke prints them)")
    return "test" if book in TEST_BOOKS else "valid" if book in VALID_BOOKS else "train"


def write_corpus(directory: PathLike, pairs: Iterable[VersePair], source: str = "en",
                 target: str = "es") -> dict[str, int]:
    """Write `{split}.{source}`, `{split}.{target}` and `{split}.ref` for every split; pairs per split."""
    by_split: dict[str, list[VersePair]] = {split: [] for split in SPLITS}
    for pair in pairs:
        for text in pair[1:]:
            if not text or "\n" in text:
                raise ValueError(f"{format_ref(pair[0])}: a verse must be one non-empty line, got {text!r}")
        by_split[split_of(pair[0][0])].append(pair)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    for split, chunk in by_split.items():
        for suffix, column in ((source, [s for _, s, _ in chunk]), (target, [t for _, _, t in chunk]),
                               ("ref", [format_ref(r) for r, _, _ in chunk])):
            (directory / f"{split}.{suffix}").write_text("".join(line + "\n" for line in column), encoding="utf-8")
    return {split: len(chunk) for split, chunk in by_split.items()}


def _read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def check_split(directory: PathLike, split: str, languages: Sequence[str] = ("en", "es")) -> int:
    """The number of pairs in a split, after checking that each language's file exists and all agree."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    directory = Path(directory)
    expected = ", ".join(f"{split}.{lang}" for lang in languages)
    counts: dict[Path, int] = {}
    for lang in languages:
        path = directory / f"{split}.{lang}"
        if not path.is_file():
            raise ParallelCorpusError(
                f"{str(path)!r} is missing: a parallel corpus folder holds {expected} (one verse per line, "
                f"aligned by line) for each of {', '.join(SPLITS)}; `scripts/get_data.sh bible-parallel` "
                f"writes the full one, data/corpus/parallel is the shipped extract")
        counts[path] = len(_read_lines(path))
    (first, n_first), *others = counts.items()
    for path, n in others:
        if n != n_first:
            raise ParallelCorpusError(f"{str(first)!r} has {n_first} lines but {str(path)!r} has {n}: "
                                      "the files of a split must be aligned line by line")
    return n_first


def read_pairs(directory: PathLike, split: str, source: str = "en", target: str = "es") -> list[tuple[str, str]]:
    """(source, target) verse pairs of one split of a corpus folder, in file order."""
    check_split(directory, split, (source, target))
    directory = Path(directory)
    return list(zip(_read_lines(directory / f"{split}.{source}"), _read_lines(directory / f"{split}.{target}")))


def read_refs(directory: PathLike, split: str, language: str = "en") -> list[Ref]:
    """The reference of each line of a split (its `.ref` file, checked against `{split}.{language}`)."""
    check_split(directory, split, (language, "ref"))
    return [parse_ref(line) for line in _read_lines(Path(directory) / f"{split}.ref")]


# ----------------------------------------------------------------------------- building

def build(english: str, spanish: str) -> tuple[Alignment, Counter]:
    """The KJV / RV 1909 alignment from the two modules' diatheke output, and what was stripped from the Spanish."""
    spanish_verses, stripped = strip_rv1909_additions(parse_diatheke(spanish))
    return align_verses(parse_diatheke(english), spanish_verses), stripped


def extract(full_dir: PathLike, out_dir: PathLike) -> dict[str, int]:
    """Write the small extract (EXTRACT_TRAIN_BOOKS whole, the first pairs of each held-out book)."""
    chosen: list[VersePair] = []
    for split in SPLITS:
        taken: Counter = Counter()
        for ref, en, es in zip(read_refs(full_dir, split), *zip(*read_pairs(full_dir, split))):
            book = ref[0]
            if split == "train" and book not in EXTRACT_TRAIN_BOOKS:
                continue
            if split != "train" and taken[book] >= EXTRACT_HELD_OUT_PAIRS:
                continue
            taken[book] += 1
            chosen.append((ref, en, es))
    return write_corpus(out_dir, chosen)


def _build_command(args: argparse.Namespace) -> None:
    english = Path(args.english).read_text(encoding="utf-8")
    spanish = Path(args.spanish).read_text(encoding="utf-8")
    alignment, stripped = build(english, spanish)
    counts = write_corpus(args.out, alignment.pairs)
    dropped = alignment.dropped()
    with open(Path(args.out) / "dropped.tsv", "w", encoding="utf-8") as f:
        for reason, refs in dropped.items():
            f.writelines(f"{format_ref(ref)}\t{reason}\n" for ref in refs)
    print(f"pairs: {sum(counts.values())} ({', '.join(f'{s} {n}' for s, n in counts.items())}) in {args.out}")
    print("dropped: " + ", ".join(f"{reason} {len(refs)}" for reason, refs in dropped.items()) + " (dropped.tsv)")
    print("removed from the Spanish: " + ", ".join(f"{what} {n}" for what, n in sorted(stripped.items())))


def main(argv: Sequence[str] | None = None) -> None:
    """`build` (the full corpus from diatheke output) and `extract` (the shipped extract from it)."""
    parser = argparse.ArgumentParser(prog="python -m data.parallel", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    b = commands.add_parser("build", help="the corpus folder from `diatheke -f plain` output of both modules")
    b.add_argument("--english", required=True, help="diatheke output of engKJV2006eb")
    b.add_argument("--spanish", required=True, help="diatheke output of spaRV1909eb")
    b.add_argument("--out", required=True, help="folder for {train,valid,test}.{en,es,ref} and dropped.tsv")
    e = commands.add_parser("extract", help="the small extract from a full corpus folder")
    e.add_argument("--full", default=str(PARALLEL_FULL), help="the full corpus folder")
    e.add_argument("--out", default=str(PARALLEL_EXTRACT), help="where to write the extract")
    args = parser.parse_args(argv)
    if args.command == "build":
        _build_command(args)
    else:
        counts = extract(args.full, args.out)
        print(f"extract: {', '.join(f'{s} {n}' for s, n in counts.items())} pairs in {args.out}")


if __name__ == "__main__":
    main()
