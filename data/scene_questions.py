"""Asking and answering questions about a shape scene (data/scenes.py holds the scenes, kinds and phrasings).

    rng = np.random.default_rng(0)
    make_questions(scene, rng, "train", count=4)   # [QA("what colour is the circle?", "red", "colour", ...), ...]
    make_caption(scene, rng, "train")               # QA("describe the image.", "a red circle and ...", "caption")
    answer_query(scene, {"kind": "relation", "a": ("red", "circle"), "b": ("blue", "square"), "rel": "above"})
    worked_parts("is the red circle above the blue square?", answer, predicted)  # {"first cell": True, ...}

A question is drawn as a `query` (what it asks, as data) and the words that fill its phrasing; the answer is
decided from the query and the scene in one place, `answer_query`, so tests can re-derive it from the pixels.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any, Callable, NamedTuple

import numpy as np

from data.scenes import (
    CAPTION_QUESTION,
    DEFAULT_KINDS,
    GRID,
    HELD_OUT_PAIRS,
    NEIGHBOURS,
    NUMBER_WORDS,
    QA,
    TEMPLATES,
    Scene,
    Shape,
    allowed_pairs,
    cell_name,
    describe,
    normalize_answer,
    phrasings,
    with_article,
)

Asked = tuple[dict, dict] | None   # (query, template fields), or None where the kind does not apply to the scene
NOTHING_SHARE = 0.15               # of `beside` questions, those about an empty cell
WORKED_KINDS = ("relation", "which")  # answered worked: both objects at their cells, then the verdict
WAYS = {"left of": "left", "right of": "right", "above": "up", "below": "down"}  # relation -> which's "further ..."


class Cell(NamedTuple):
    row: int
    col: int


CELLS = {cell_name(row, col): Cell(row, col) for row in range(GRID) for col in range(GRID)}  # name -> cell


def _holds(a: Shape | Cell, b: Shape | Cell, rel: str) -> bool:
    """Whether `a` lies `rel` ("left of", "above", ...) `b`: relation's yes, and which's "further" one."""
    return {"left of": a.col < b.col, "right of": a.col > b.col, "above": a.row < b.row, "below": a.row > b.row}[rel]


def _placed(o: Shape) -> str:
    return f"{o.name} at the {cell_name(o.row, o.col)}"


def answer_query(scene: Scene, query: dict) -> str:
    """The answer to a question, from its query and the scene (the one place answers are decided). Relation
    and which answers are worked: "red circle at the top left, blue square at the bottom: yes" (the two
    objects in the order asked, each at its cell, then the verdict), scored whole."""
    objects, kind = scene.objects, query["kind"]
    if kind == "count":
        n = sum(query.get("colour") in (None, o.colour) and query.get("shape") in (None, o.shape) for o in objects)
        return NUMBER_WORDS[n]
    if kind == "exist":
        return "yes" if any(o.pair == tuple(query["pair"]) for o in objects) else "no"
    if kind == "beside":
        a = next(o for o in objects if o.pair == tuple(query["a"]))
        dr, dc = NEIGHBOURS[query["rel"]]
        return next((o.name for o in objects if (o.row, o.col) == (a.row + dr, a.col + dc)), "nothing")
    if kind in ("positions", "relation", "which"):
        a, b = (next(o for o in objects if o.pair == tuple(query[k])) for k in ("a", "b"))
        if kind == "positions":
            return f"{cell_name(a.row, a.col)} and {cell_name(b.row, b.col)}"
        if kind == "which":
            verdict = (a if _holds(a, b, next(r for r, way in WAYS.items() if way == query["way"])) else b).name
        else:
            verdict = "yes" if _holds(a, b, query["rel"]) else "no"
        return f"{_placed(a)}, {_placed(b)}: {verdict}"   # worked: both cells, then the comparison
    target = next(o for o in objects if (o.row, o.col) == tuple(query["cell"]))
    return {"colour": target.colour, "shape": target.shape, "position": cell_name(target.row, target.col)}[kind]


def read_worked(text: str) -> tuple[tuple[str, Cell | None], tuple[str, Cell | None], str] | None:
    """"red circle at the top left, blue square at the bottom: yes" -> (("red circle", Cell(0, 0)), ("blue
    square", Cell(2, 1)), "yes"), normalised; a cell that names none is None; None where the text is not in
    that form (two placed objects, a colon, a verdict)."""
    head, colon, verdict = text.partition(":")
    placed = [part.split(" at ", 1) for part in head.split(",")]
    if not colon or len(placed) != 2 or any(len(p) != 2 for p in placed):
        return None
    a, b = ((normalize_answer(name), CELLS.get(normalize_answer(cell))) for name, cell in placed)
    return a, b, normalize_answer(verdict)


def worked_parts(question: str, answer: str, predicted: str) -> dict[str, bool]:
    """Which parts of a worked relation or which answer (`answer_query`) the prediction got right: each
    object's name and cell, the verdict, and whether the verdict follows from the two cells it wrote itself."""
    truth, guess = read_worked(answer), read_worked(predicted)
    if guess is None:
        return {"first cell": False, "second cell": False, "verdict": False, "verdict follows": False}
    (a, cell_a), (b, cell_b), verdict = guess
    question = normalize_answer(question)
    further = next((rel for rel, way in WAYS.items() if f"further {way}" in question), None)
    rel = further or next(rel for rel in WAYS if f" {rel} " in f" {question} ")
    follows = False
    if cell_a is not None and cell_b is not None:
        if further is None:
            follows = verdict == ("yes" if _holds(cell_a, cell_b, rel) else "no")
        else:   # which: the object further that way, if the two cells it wrote make one so
            follows = verdict == (a if _holds(cell_a, cell_b, rel) else b if _holds(cell_b, cell_a, rel) else None)
    return {"first cell": guess[0] == truth[0], "second cell": guess[1] == truth[1], "verdict": verdict == truth[2],
            "verdict follows": follows}


def worked_breakdown(rows: list[dict]) -> dict[str, dict[str, float]]:
    """Per worked kind (relation, which) among scored rows (dicts of kind, prompt, answer and predicted, as
    scripts/train_multimodal.py's accuracy gives them): the share of answers right in each part (worked_parts),
    and how many answers."""
    parts = defaultdict(list)
    for row in rows:
        if row["kind"] in WORKED_KINDS:
            parts[row["kind"]].append(worked_parts(row["prompt"], row["answer"], row["predicted"]))
    return {kind: {**{part: sum(p[part] for p in got) / len(got) for part in got[0]}, "questions": len(got)}
            for kind, got in sorted(parts.items())}


def _pick(rng: np.random.Generator, items: list, prefer: Callable[[Any], bool] | None = None):
    preferred = [x for x in items if prefer(x)] if prefer else []
    pool = preferred or items
    return pool[int(rng.integers(len(pool)))] if pool else None


def _ask_attribute(scene: Scene, kind: str, rng: np.random.Generator, split: str, held) -> Asked:
    """colour, shape, position and count: one object, or a colour and shape to count."""
    objects = scene.objects
    if kind == "position":
        o = _pick(rng, _unique_pairs(objects), held)
        return None if o is None else ({"kind": kind, "cell": (o.row, o.col)}, {"ref": o.name})
    o = _pick(rng, list(objects), held)
    if kind == "count":
        colour, shape = [(o.colour, None), (None, o.shape), (o.colour, o.shape), (None, None)][int(rng.integers(4))]
        if rng.random() < 0.25:   # sometimes ask about something absent: the answer is zero
            colour, shape = _pick(rng, allowed_pairs(split))
        what = " ".join(w for w in (colour, f"{shape}s" if shape else "shapes") if w)
        return {"kind": kind, "colour": colour, "shape": shape}, {"what": what}
    key = "shape" if kind == "colour" else "colour"   # refer to it by what is not asked
    unique = sum(getattr(p, key) == getattr(o, key) for p in objects) == 1
    noun = "shape" if kind == "colour" else "object"
    ref = (o.shape if kind == "colour" else f"{o.colour} object") if unique and rng.random() < 0.7 \
        else f"{noun} at the {cell_name(o.row, o.col)}"
    return {"kind": kind, "cell": (o.row, o.col)}, {"ref": ref}


def _ask_beside(scene: Scene, rng: np.random.Generator, held) -> Asked:
    """What is in the cell next to one object: a neighbour that is there, or "nothing" one time in NOTHING_SHARE.
    A scene where no object has a neighbour asks none: one-object scenes, which ask no relation, would otherwise
    fill a balanced set's `beside` questions with "nothing" (three in four of them, before this rule)."""
    cells = {(o.row, o.col) for o in scene.objects}

    def ways(o: Shape, taken: bool) -> list[str]:
        return [rel for rel, (dr, dc) in NEIGHBOURS.items() if 0 <= o.row + dr < GRID and 0 <= o.col + dc < GRID
                and ((o.row + dr, o.col + dc) in cells) >= taken]

    unique = _unique_pairs(scene.objects)
    near = [o for o in unique if ways(o, True)]
    if not near:
        return None
    taken = rng.random() >= NOTHING_SHARE
    a = _pick(rng, near if taken else unique, held)   # near is a non-empty part of unique: never None
    rel = _pick(rng, ways(a, taken))
    return {"kind": "beside", "a": a.pair, "rel": rel}, {"ref": a.name, "rel": rel}


def _ask_pair(scene: Scene, kind: str, rng: np.random.Generator, held) -> Asked:
    """positions, relation and which: two objects, each the only one of its colour and shape."""
    unique = _unique_pairs(scene.objects)
    a = _pick(rng, unique, held)
    others = [o for o in unique if o is not a]
    if a is None or not others:
        return None
    b = _pick(rng, others)
    names = {"a": a.name, "b": b.name}
    if kind == "positions":
        return {"kind": kind, "a": a.pair, "b": b.pair}, names
    rels = (["left of", "right of"] if a.col != b.col else []) + (["above", "below"] if a.row != b.row else [])
    rel = rels[int(rng.integers(len(rels)))]
    if kind == "which":   # which of the two lies further that way: the answer names one, so their order is moot
        return {"kind": kind, "a": a.pair, "b": b.pair, "way": WAYS[rel]}, {**names, "way": WAYS[rel]}
    return {"kind": kind, "a": a.pair, "b": b.pair, "rel": rel}, {**names, "rel": rel}


def _ask_exist(scene: Scene, rng: np.random.Generator, split: str) -> Asked:
    present = sorted({o.pair for o in scene.objects})
    absent = [p for p in allowed_pairs(split) if p not in present]
    pool = present if rng.random() < 0.5 or not absent else absent
    pair = _pick(rng, pool, (lambda p: p in HELD_OUT_PAIRS) if split == "test" else None)
    return {"kind": "exist", "pair": pair}, {"pair": with_article(" ".join(pair))}


def _unique_pairs(objects: tuple[Shape, ...]) -> list[Shape]:
    return [o for o in objects if sum(p.pair == o.pair for p in objects) == 1]


def _ask(scene: Scene, kind: str, rng: np.random.Generator, split: str) -> Asked:
    """(query, template fields) for one question of `kind` about `scene`, or None when none applies. On "test",
    questions are about a held-out colour-shape pair where the scene allows."""
    held = (lambda o: o.pair in HELD_OUT_PAIRS) if split == "test" else None
    if kind in ("colour", "shape", "position", "count"):
        return _ask_attribute(scene, kind, rng, split, held)
    if kind == "beside":
        return _ask_beside(scene, rng, held)
    if kind in ("positions", "relation", "which"):
        return _ask_pair(scene, kind, rng, held)
    return _ask_exist(scene, rng, split)


def _template(kind: str, rng: np.random.Generator, split: str) -> int:
    allowed = phrasings(kind, split)
    return allowed[int(rng.integers(len(allowed)))]


def make_questions(scene: Scene, rng: np.random.Generator, split: str, count: int,
                   asked: Counter | None = None, kinds: tuple[str, ...] = DEFAULT_KINDS) -> list[QA]:
    """`count` questions about `scene` (fewer if fewer kinds apply). Each takes the kind asked least so far
    in `asked` (updated; ties in `kinds` order) among those that apply to the scene (relation, which and
    positions need two objects), so a whole set stays balanced across kinds."""
    asked = Counter() if asked is None else asked
    questions: list[QA] = []
    for _ in range(count):
        for kind in sorted(kinds, key=lambda k: (asked[k], kinds.index(k))):
            found = _ask(scene, kind, rng, split)
            if found is not None:
                break
        else:
            break
        query, fields = found
        t = _template(kind, rng, split)
        questions.append(QA(TEMPLATES[kind][t].format(**fields), answer_query(scene, query), kind,
                            f"{kind}/{t}", query))
        asked[kind] += 1
    return questions


def make_caption(scene: Scene, rng: np.random.Generator, split: str) -> QA:
    t = _template("caption", rng, split)
    text = TEMPLATES["caption"][t].format(objects=describe(scene.objects),
                                          objects_at=describe(scene.objects, positions=True))
    return QA(CAPTION_QUESTION, text, "caption", f"caption/{t}", {"kind": "caption"})
