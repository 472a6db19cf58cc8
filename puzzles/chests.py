"""Load and validate chest files (RULES.md section 8; format in `puzzles/data/CHEST_FORMAT.md`).

The project ships `puzzles/data/chests.json`: the 15 chests with what the rulebook says about
them and documented stand-ins for the rest. A user replaces it with a file of the same shape
(``--chests FILE``). Every error is a `ChestDataError` naming the file, the chest, the field and
the value.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from puzzles.cardsets import _Ctx, _step
from puzzles.jsonfile import read_json, unknown_field
from solver.engine.actions import CHEST_LETTERS, chest_index
from solver.engine.cards import Step
from solver.engine.chestcards import Chest, ChestDataError, ChestSet, Part
from solver.engine.chests import CHEST_MOMENTS
from solver.engine.errors import CardDataError, quote
from solver.engine.goals import GoalError, parse_goal

DEFAULT = "default"
DEFAULT_PATH = Path(__file__).parent / "data" / "chests.json"
CHESTS_FORMAT = "heritage-chests"
TRANSLIT = ("A", "B", "V", "G", "D", "E", "ZH", "Z", "I", "K", "L", "M", "N", "O", "P")
FORBIDDEN_OPS = ("hold_tech", "gain_held_tech", "vanish_if_knowledge")
CARD_ONLY_COUNTERS = ("self.tokens", "adj.city", "adj.megalith", "adj.pyramid", "adj.any",
                      "adj.max_type")


def letter_index(text: str) -> int | None:
    """The index of a chest letter, given in Cyrillic (``Б``) or transliterated (``B``, ``ZH``;
    RULES.md section 1), or None."""
    return chest_index(text)


def to_letter(text: str, where: str, field: str) -> str:
    """A canonical (Cyrillic) letter, or a `ChestDataError` naming where and the value."""
    k = letter_index(text) if isinstance(text, str) else None
    if k is None:
        raise ChestDataError(
            f"{where}: field {field!r} = {quote(text)}: not a chest letter "
            f"({' '.join(CHEST_LETTERS)}, or {' '.join(TRANSLIT)})")
    return CHEST_LETTERS[k]


def resolve(name: str) -> Path:
    return DEFAULT_PATH if name == DEFAULT else Path(name)


def _fail(path: str, who: str, field: str, value: Any, why: str) -> ChestDataError:
    return ChestDataError(f"{path}: chest {who}: field {field!r} = {quote(value)}: {why}")


def check_format(data: dict[str, Any], where: str, name: str, version: int = 1) -> None:
    """A data file's ``format`` and ``version``, when given, must be the ones this engine
    reads (CHEST_FORMAT.md); a file without them is read as version `version`.

    :raises ChestDataError: naming the file, the field and the value."""
    fmt = data.get("format", name)
    if fmt != name:
        raise ChestDataError(f"{where}: field 'format' = {quote(fmt)}: expected {name!r}")
    have = data.get("version", version)
    if have != version or isinstance(have, bool):
        raise ChestDataError(f"{where}: field 'version' = {quote(have)}: this engine reads "
                             f"version {version}")


def _part(path: str, who: str, field: str, obj: dict[str, Any]) -> Part:
    stand_in = obj.get("stand_in", False)
    inferred = obj.get("inferred", False)
    if not isinstance(stand_in, bool) or not isinstance(inferred, bool):
        raise _fail(path, who, f"{field}.stand_in", stand_in, "expected true or false")
    reason = obj.get("reason", obj.get("source", ""))
    if not isinstance(reason, str):
        raise _fail(path, who, f"{field}.reason", reason, "expected a string")
    if (stand_in or inferred) and not reason.strip():
        raise _fail(path, who, f"{field}.reason", reason, "a stand-in needs a one-line reason")
    return Part(stand_in=stand_in or inferred, inferred=inferred, reason=reason)


def _text_part(path: str, who: str, field: str, v: Any) -> tuple[Any, Part]:
    """A part given as a plain value (a user's known fact) or as an object with provenance."""
    if isinstance(v, dict) and field == "goal" and "text" not in v and (
            {"and", "or", "counter"} & set(v)):
        return v, Part(stand_in=False, reason="given by the user's chest file")  # a goal tree
    if isinstance(v, dict):
        if "text" not in v:
            raise _fail(path, who, f"{field}.text", None, "missing")
        return v["text"], _part(path, who, field, v)
    return v, Part(stand_in=False, reason="given by the user's chest file")


def _check_step(path: str, who: str, step: Step, i: int) -> None:
    """Chest effects have no card of their own: no "this card", no adjacency (section 8)."""
    field = f"effect.steps[{i}]"
    if step.op in FORBIDDEN_OPS:
        raise _fail(path, who, f"{field}.op", step.op, "needs a card of its own; not for chests")
    if step.target == "self" and step.op == "remove_knowledge":
        raise _fail(path, who, f"{field}.target", "self", "a chest is not a monument")
    if step.filter.adjacent or step.filter.other:
        raise _fail(path, who, f"{field}.filter", "adjacent/other", "a chest has no place")
    if step.per in CARD_ONLY_COUNTERS:
        raise _fail(path, who, f"{field}.per", step.per, "counts around a card; not for chests")
    if step.cost == "discard_self":
        raise _fail(path, who, f"{field}.cost", "discard_self", "the chest is discarded anyway")
    for j, t in enumerate(step.then):
        _check_step(path, who, t, j)


def _chest(path: str, d: Any, pos: int) -> Chest:
    if not isinstance(d, dict):
        raise ChestDataError(f"{path}: field 'chests[{pos}]' = {quote(d)}: expected an object")
    ch = to_letter(d.get("letter"), f"{path}: chests[{pos}]", "letter")  # type: ignore[arg-type]
    unknown = unknown_field(d, ("letter", "name", "goal", "effect", "note"))
    if unknown is not None:
        raise _fail(path, ch, unknown, d[unknown], "unknown field")
    name, name_part = _text_part(path, ch, "name", d.get("name"))
    if not isinstance(name, str) or not name.strip():
        raise _fail(path, ch, "name", name, "expected a non-empty string")
    goal_src, goal_part = _text_part(path, ch, "goal", d.get("goal"))
    try:
        goal = parse_goal(goal_src)
    except GoalError as exc:
        raise _fail(path, ch, "goal", goal_src, str(exc)) from None
    eff = d.get("effect")
    if not isinstance(eff, dict):
        raise _fail(path, ch, "effect", eff, "expected an object with moment, text and steps")
    moment = eff.get("moment")
    if moment not in CHEST_MOMENTS:
        raise _fail(path, ch, "effect.moment", moment,
                    f"expected one of {', '.join(CHEST_MOMENTS)}")
    text = eff.get("text")
    if not isinstance(text, str) or not text.strip():
        raise _fail(path, ch, "effect.text", text, "expected a non-empty string")
    raw_steps = eff.get("steps")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise _fail(path, ch, "effect.steps", raw_steps, "expected a non-empty list of steps")
    ctx = _Ctx(path, f"chest {ch}")
    try:
        steps = tuple(_step(ctx, s) for s in raw_steps)
    except CardDataError as exc:
        raise ChestDataError(str(exc)) from None
    for i, s in enumerate(steps):
        _check_step(path, ch, s, i)
    effect_part = (_part(path, ch, "effect", eff) if "stand_in" in eff or "reason" in eff
                   or "source" in eff
                   else Part(stand_in=False, reason="given by the user's chest file"))
    return Chest(letter=ch, index=CHEST_LETTERS.index(ch), name=name.strip(), goal=goal,
                 moment=moment, steps=steps, effect_text=text.strip(), name_part=name_part,
                 goal_part=goal_part, effect_part=effect_part)


def load_chests(name: str = DEFAULT) -> ChestSet:
    """Load a chest file (``default`` = the shipped one): exactly the 15 letters, once each."""
    path = resolve(name)
    data, raw = read_json(path, ChestDataError, "chest file")
    where = str(path) if name != DEFAULT else "puzzles/data/chests.json"
    if not isinstance(data, dict) or not isinstance(data.get("chests"), list):
        raise ChestDataError(f"{where}: field 'chests' missing: a chest file is an object with "
                             "a list 'chests' of 15 chests")
    check_format(data, where, CHESTS_FORMAT)
    chests: dict[int, Chest] = {}
    for pos, d in enumerate(data["chests"]):
        c = _chest(where, d, pos)
        if c.index in chests:
            raise _fail(where, c.letter, "letter", c.letter, "appears twice")
        chests[c.index] = c
    missing = [CHEST_LETTERS[k] for k in range(15) if k not in chests]
    if missing:
        raise ChestDataError(f"{where}: field 'chests': letter {missing[0]} is missing "
                             "(a chest file lists all 15 chests)")
    source = DEFAULT if name == DEFAULT else str(path)
    return ChestSet(tuple(chests[k] for k in range(15)), source, hashlib.sha256(raw).hexdigest(),
                    _same_game_as(where, data.get("same_game_as", [])))


def _same_game_as(where: str, v: Any) -> tuple[str, ...]:
    """The ``same_game_as`` field: the sha256 (64 lowercase hex digits) of earlier revisions of
    the file that play the same game."""
    if not isinstance(v, list) or not all(
            isinstance(h, str) and re.fullmatch("[0-9a-f]{64}", h) for h in v):
        raise ChestDataError(f"{where}: field 'same_game_as' = {quote(v)}: expected a list of "
                             "sha256 hashes (64 lowercase hex digits)")
    return tuple(v)


def chest_json(c: Chest) -> dict[str, Any]:
    """One chest for listings (`heritage trials --json`)."""
    return {
        "letter": c.letter, "translit": TRANSLIT[c.index], "name": c.name,
        "goal": c.goal_text, "moment": c.moment, "effect": c.effect_text,
        "stand_in": {"name": c.name_part.stand_in, "goal": c.goal_part.stand_in,
                     "effect": c.effect_part.stand_in},
        "inferred": {"name": c.name_part.inferred, "goal": c.goal_part.inferred},
    }
