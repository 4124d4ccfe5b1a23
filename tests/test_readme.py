"""Every ```python block in README.md and in the guides under docs/ runs, so the documented API cannot drift
from the code.

The rules the README and the guides are written to:

- Each block runs on its own: in a fresh namespace (no names from earlier blocks), with the repository
  root as working directory, one test per block. A block imports what it uses and builds its own inputs.
- Blocks use tiny presets and small inputs: each must finish within BLOCK_TIMEOUT_S on a busy 2-core CPU.
- A block that cannot run here (it needs a GPU, a downloaded checkpoint, minutes of compute) is marked on
  the line just before its fence with `<!-- doc-test: skip (the reason) -->` (or the older spelling
  `<!-- readme-test: skip (the reason) -->`); the test is skipped with that reason. Any other `doc-test:` or
  `readme-test:` comment there is an error, so a typo cannot silently skip a block.
- Only fences opened exactly with ```python count; ```bash, ``` and other blocks are not run.

Tracebacks point at the Markdown file's own line numbers.
"""
from __future__ import annotations

import re
import signal
import textwrap
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest
import torch

from tests.helpers import ROOT

README = ROOT / "README.md"
DOCS = [README, *sorted((ROOT / "docs").rglob("*.md"))]  # the guides and the dated notes
BLOCK_TIMEOUT_S = 120
SKIP = re.compile(r"<!--\s*(?:doc|readme)-test:\s*skip\s*\((?P<reason>.+)\)\s*-->")
MARKER = re.compile(r"<!--\s*(?:doc|readme)-test:")


@dataclass(frozen=True)
class Block:
    index: int
    line: int  # 1-based line of the first code line in its file
    code: str
    marker: str | None  # the comment on the line before the fence, if it is a doc-test / readme-test one
    path: Path = README

    @property
    def id(self) -> str:
        first = next((s.strip() for s in self.code.splitlines() if s.strip()), "")
        return f"{self.path.relative_to(ROOT).as_posix()}-{self.index}-L{self.line}-{first[:40]}"


def python_blocks(text: str, path: Path = README) -> list[Block]:
    """The ```python blocks of a Markdown text (the file at `path`), in order."""
    lines, blocks, i = text.splitlines(), [], 0
    while i < len(lines):
        fence = lines[i].strip()
        if not fence.startswith("```"):
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == "```"), None)
        if end is None:
            raise ValueError(f"{path.name}:{i + 1}: code fence never closed")
        if fence == "```python":
            before = lines[i - 1].strip() if i > 0 else ""
            code = textwrap.dedent("\n".join(lines[i + 1:end]) + "\n")  # a fence may sit in a list item
            blocks.append(Block(len(blocks), i + 2, code,
                                before if MARKER.match(before) else None, path))
        i = end + 1
    return blocks


BLOCKS = [block for path in DOCS for block in python_blocks(path.read_text(encoding="utf-8"), path)]


class BlockTimeout(Exception):
    pass


def run_block(block: Block) -> dict:
    """Execute one block in a fresh namespace; line numbers in errors are its file's."""
    path = block.path
    source = "\n" * (block.line - 1) + block.code
    namespace = {"__name__": "__readme__", "__file__": str(path)}

    def expire(signum, frame):
        raise BlockTimeout(f"{path.name}:{block.line}: block ran over {BLOCK_TIMEOUT_S} s; "
                           "use a tinier preset or mark it `<!-- doc-test: skip (reason) -->`")

    code = compile(source, str(path), "exec")
    if threading.current_thread() is not threading.main_thread():  # SIGALRM handlers live in the main thread
        exec(code, namespace)
        return namespace
    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(BLOCK_TIMEOUT_S)
    try:
        exec(code, namespace)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return namespace


def test_readme_has_python_blocks():
    assert any(b.path == README for b in BLOCKS), "README.md has no ```python blocks: nothing documents the API"


@pytest.mark.parametrize("block", BLOCKS, ids=[b.id for b in BLOCKS])
def test_readme_block_runs(block: Block, monkeypatch):
    if block.marker is not None:
        skip = SKIP.fullmatch(block.marker)
        assert skip, (f"{block.path.name}:{block.line - 1}: {block.marker!r} is not "
                      "`<!-- doc-test: skip (reason) -->`")
        pytest.skip(f"{block.path.name}:{block.line}: {skip['reason'].strip()}")
    monkeypatch.chdir(ROOT)
    threads = torch.get_num_threads()
    try:
        run_block(block)
    finally:
        torch.set_num_threads(threads)  # a block may set its own; the other tests run on one


# ----------------------------------------------------------------------------- the runner itself


SAMPLE = """\
Text.

```python
x = 1
```

```bash
exit 1
```

<!-- readme-test: skip (needs a GPU (CUDA)) -->
```python
import torch; torch.ones(1, device="cuda")
```

```
plain fence
```
<!-- readme-test: skipp (typo) -->
```python
y = x
```

<!-- doc-test: skip (needs a downloaded checkpoint) -->
```python
z = 1
```
"""


def test_blocks_are_found_with_their_lines_and_markers():
    blocks = python_blocks(SAMPLE)
    assert [(b.index, b.line, b.code) for b in blocks] == [
        (0, 4, "x = 1\n"), (1, 13, 'import torch; torch.ones(1, device="cuda")\n'), (2, 21, "y = x\n"),
        (3, 26, "z = 1\n")]
    assert blocks[0].marker is None
    assert SKIP.fullmatch(blocks[1].marker)["reason"] == "needs a GPU (CUDA)"
    assert blocks[2].marker is not None and SKIP.fullmatch(blocks[2].marker) is None  # reported, not run
    assert SKIP.fullmatch(blocks[3].marker)["reason"] == "needs a downloaded checkpoint"  # the new spelling
    with pytest.raises(ValueError, match="never closed"):
        python_blocks("```python\nx = 1\n")


def test_blocks_run_in_fresh_namespaces_and_errors_name_the_readme_line():
    first, _, last, _ = python_blocks(SAMPLE)
    assert run_block(first)["x"] == 1
    with pytest.raises(NameError) as info:
        run_block(last)  # `x` from the first block is not visible
    frame = info.traceback[-1]
    assert Path(frame.path) == README and frame.lineno + 1 == last.line


def test_a_guide_block_names_its_own_file():
    guide = ROOT / "docs" / "guide.md"
    _, _, last, _ = python_blocks(SAMPLE, guide)
    assert last.id.startswith("docs/guide.md-2-L21")
    with pytest.raises(NameError) as info:
        run_block(last)
    assert Path(info.traceback[-1].path) == guide


# ----------------------------------------------------------------------------- the docs' size and links


LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")


def test_readme_and_benchmarks_stay_short():
    """The README reads in ten minutes; BENCHMARKS.md is the summary, the full tables live in benchmarks/."""
    words = len(README.read_text(encoding="utf-8").split())
    assert words <= 2000, f"README.md has {words} words; move detail to docs/ (at most 2,000)"
    lines = len((ROOT / "BENCHMARKS.md").read_text(encoding="utf-8").splitlines())
    assert lines <= 300, f"BENCHMARKS.md has {lines} lines; the full tables belong in benchmarks/<machine>/"


@pytest.mark.parametrize("path", [ROOT / "BENCHMARKS.md", *DOCS, *sorted((ROOT / "benchmarks").glob("*/README.md"))],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_resolve(path: Path):
    text = path.read_text(encoding="utf-8")
    broken = [m["target"] for m in LINK.finditer(text)
              if "://" not in m["target"] and not m["target"].startswith(("#", "mailto:"))
              and not (path.parent / m["target"].split("#")[0]).exists()]
    assert not broken, f"{path.relative_to(ROOT)}: links to missing files {broken}"
