"""The goal language of goal chests (RULES.md section 8); evaluation is `solver.engine.goal_check`.

A chest in an artifact space shows a goal, checked at the end of the game: every goal met means
the trial is passed (section 9) or the campaign game is won (section 10). Goals are data, never
code (STYLE.md habit 4): a goal is a small declarative formula,

    goal       := conjunction ("or" conjunction)*
    conjunction:= atom ("and" atom)*
    atom       := comparison | "(" goal ")"
    comparison := COUNTER OP INTEGER           OP: >= <= == > <

for example ``timeline.any >= 5 and past.any >= 10`` or
``past.pyramid >= 6 or (techs.level2 >= 3 and lost <= 4)``. The same goal may be given as a JSON
tree: ``{"and": [g, ...]}``, ``{"or": [g, ...]}``, ``{"counter": c, "op": o, "value": n}`` or a
clause list ``[c, o, n]`` (the shape of card conditions, `puzzles/data/CARD_FORMAT.md`).

Three consumers read the same structure (`Goal`): the engine evaluates it at the end
(`solver.engine.goal_check`: `goals_met`, `goals_json`); a search reads its counters
(`Goal.counters`) for bounds; the CP-SAT layer compiles each comparison into a linear constraint on
the counter's defining sum (`COUNTERS[name]`, a `CounterSpec` that says which zone, which card
attribute and which aggregate a counter is) and each and/or into a Boolean conjunction/disjunction.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Union

from solver.engine.cards import CLAUSE_OPS, Clause
from solver.engine.errors import HeritageError, quote


class GoalError(HeritageError, ValueError):
    """A goal that does not parse, or names an unknown counter."""


# ------------------------------------------------------------------ counters

@dataclass(frozen=True, slots=True)
class CounterSpec:
    """What a goal counter counts, in a form a constraint model can compile.

    `zone` is where the counted things are (``past``, ``timeline``, ``techs``, ``board``,
    ``hand``, ``score``); `attr`/`value` select cards by an attribute (``type`` = a monument or
    technology type, ``level`` = a technology level, ``rotated`` = an excavated Past monument);
    `agg` is ``count`` (how many selected cards), ``max_type``/``min_type`` (the largest/smallest
    count over the three types of the zone), or ``value`` (a number of the zone: ``lost``,
    ``artifacts``, ``tokens``, ``total``).
    """

    name: str
    zone: str
    agg: str
    attr: str | None = None
    value: str | int | bool | None = None
    text: str = ""


def _spec(name: str, zone: str, agg: str, attr: str | None = None,
          value: str | int | bool | None = None, text: str = "") -> CounterSpec:
    return CounterSpec(name, zone, agg, attr, value, text)


COUNTERS: dict[str, CounterSpec] = {s.name: s for s in (
    _spec("past.city", "past", "count", "type", "city", "cities in the Past"),
    _spec("past.megalith", "past", "count", "type", "megalith", "megaliths in the Past"),
    _spec("past.pyramid", "past", "count", "type", "pyramid", "pyramids in the Past"),
    _spec("past.any", "past", "count", text="monuments in the Past"),
    _spec("past.max_type", "past", "max_type", text="Past monuments of the most numerous type"),
    _spec("past.min_type", "past", "min_type",
          text="complete trios (city, megalith, pyramid) in the Past"),
    _spec("past.endgame", "past", "count", "activation", "endgame",
          text="Past monuments with a final-scoring effect"),
    _spec("past.rotated", "past", "count", "rotated", True, "excavated (rotated) Past monuments"),
    _spec("timeline.city", "timeline", "count", "type", "city", "cities in the Timeline"),
    _spec("timeline.megalith", "timeline", "count", "type", "megalith",
          "megaliths in the Timeline"),
    _spec("timeline.pyramid", "timeline", "count", "type", "pyramid", "pyramids in the Timeline"),
    _spec("timeline.any", "timeline", "count", text="monuments in the Timeline"),
    _spec("timeline.min_type", "timeline", "min_type", text="complete trios in the Timeline"),
    _spec("techs.ancient", "techs", "count", "type", "ancient", "ancient technologies"),
    _spec("techs.secret", "techs", "count", "type", "secret", "secret technologies"),
    _spec("techs.writing", "techs", "count", "type", "writing", "writing technologies"),
    _spec("techs.any", "techs", "count", text="technologies in the collection"),
    _spec("techs.min_type", "techs", "min_type", text="complete technology trios"),
    _spec("techs.max_type", "techs", "max_type", text="technologies of the most numerous type"),
    _spec("techs.level1", "techs", "count", "level", 1, "Level I technologies"),
    _spec("techs.level2", "techs", "count", "level", 2, "Level II technologies"),
    _spec("artifacts", "board", "value", "artifacts", text="artifact cards on the board"),
    _spec("lost", "board", "value", "lost", text="lost knowledge"),
    _spec("tl_tokens", "timeline", "value", "tokens", text="knowledge on Timeline monuments"),
    _spec("hand", "hand", "count", text="cards in hand"),
    _spec("vp", "score", "value", "total", text="victory points (the five score rows)"),
)}


# ------------------------------------------------------------------ the goal tree

OPS = CLAUSE_OPS


@dataclass(frozen=True, slots=True)
class And:
    """Every part holds."""

    parts: tuple[Goal, ...]

    def __str__(self) -> str:
        return " and ".join(f"({p})" if isinstance(p, Or) else str(p) for p in self.parts)


@dataclass(frozen=True, slots=True)
class Or:
    """At least one part holds."""

    parts: tuple[Goal, ...]

    def __str__(self) -> str:
        return " or ".join(str(p) for p in self.parts)


Goal = Union[Clause, And, Or]  # noqa: UP007 (a runtime alias used by isinstance-free code)


def comparisons(goal: Goal) -> Iterator[Clause]:
    """Every comparison of the goal, left to right."""
    if isinstance(goal, Clause):
        yield goal
    else:
        for p in goal.parts:
            yield from comparisons(p)


def counters_of(goal: Goal) -> frozenset[str]:
    """The counters a goal reads (what a search or a constraint model must track)."""
    return frozenset(c.counter for c in comparisons(goal))


def to_json(goal: Goal) -> Any:
    """The JSON tree of a goal (`parse_goal` reads it back)."""
    if isinstance(goal, Clause):
        return {"counter": goal.counter, "op": goal.op, "value": goal.value}
    key = "and" if isinstance(goal, And) else "or"
    return {key: [to_json(p) for p in goal.parts]}


# ------------------------------------------------------------------ parsing

_TOKEN = re.compile(r"\s*(?:(>=|<=|==|>|<)|(\()|(\))|(-?[0-9]+)|([A-Za-z_][A-Za-z0-9_.]*))")
#: The deepest nesting of parentheses (text) or of and/or (JSON tree) a goal may have: real goals
#: nest one or two levels; a limit keeps a malformed file from exhausting the recursion.
MAX_GOAL_DEPTH = 16
#: The largest number a goal may compare with (either sign): every counter of the game stays far
#: below it (189 cards, a few hundred VP), and the constraint layer takes it as a coefficient.
MAX_GOAL_VALUE = 10_000


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise GoalError(f"goal {quote(text)}: cannot read {quote(text[pos:].strip())}")
        out.append(m.group(0).strip())
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.i = 0
        self.depth = 0

    def fail(self, why: str) -> GoalError:
        return GoalError(f"goal {quote(self.text)}: {why}")

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> str:
        t = self.peek()
        if t is None:
            raise self.fail("ends too early")
        self.i += 1
        return t

    def goal(self) -> Goal:
        parts = [self.conj()]
        while self.peek() == "or":
            self.i += 1
            parts.append(self.conj())
        return parts[0] if len(parts) == 1 else Or(tuple(parts))

    def conj(self) -> Goal:
        parts = [self.atom()]
        while self.peek() == "and":
            self.i += 1
            parts.append(self.atom())
        return parts[0] if len(parts) == 1 else And(tuple(parts))

    def atom(self) -> Goal:
        t = self.take()
        if t == "(":
            self.depth += 1
            if self.depth > MAX_GOAL_DEPTH:
                raise self.fail(f"parentheses nest deeper than {MAX_GOAL_DEPTH} levels")
            g = self.goal()
            self.depth -= 1
            if self.take() != ")":
                raise self.fail("a '(' is not closed")
            return g
        if t not in COUNTERS:
            raise self.fail(f"unknown counter {t!r} (known: {', '.join(COUNTERS)})")
        op = self.take()
        if op not in OPS:
            raise self.fail(f"expected a comparison (>= <= == > <) after {t}, got {op!r}")
        n = self.take()
        if not n.lstrip("-").isascii() or not n.lstrip("-").isdigit():
            raise self.fail(f"expected a whole number after {t} {op}, got {n!r}")
        if abs(int(n)) > MAX_GOAL_VALUE:
            raise self.fail(f"the number {n} must be at most {MAX_GOAL_VALUE:,} (either sign)")
        return Clause(t, op, int(n))


def parse_goal(source: Any, depth: int = 0) -> Goal:
    """A goal from its text or its JSON tree; raises `GoalError` naming what is wrong (a tree
    nested deeper than `MAX_GOAL_DEPTH` too)."""
    if depth > MAX_GOAL_DEPTH:
        raise GoalError(f"goal: and/or nest deeper than {MAX_GOAL_DEPTH} levels")
    if isinstance(source, str):
        p = _Parser(source)
        if not p.toks:
            raise GoalError("goal '': empty")
        g = p.goal()
        if p.peek() is not None:
            raise p.fail(f"unexpected {p.peek()!r}")
        return g
    if isinstance(source, list) and len(source) == 3 and not isinstance(source[0], (list, dict)):
        return parse_goal({"counter": source[0], "op": source[1], "value": source[2]}, depth)
    if isinstance(source, dict):
        if set(source) == {"and"} or set(source) == {"or"}:
            key = next(iter(source))
            parts = source[key]
            if not isinstance(parts, list) or not parts:
                raise GoalError(f"goal {quote(source)}: {key!r} needs a non-empty list")
            sub = tuple(parse_goal(p, depth + 1) for p in parts)
            if len(sub) == 1:
                return sub[0]
            return And(sub) if key == "and" else Or(sub)
        if set(source) == {"counter", "op", "value"}:
            c, op, v = source["counter"], source["op"], source["value"]
            if c not in COUNTERS:
                raise GoalError(f"goal {quote(source)}: unknown counter {quote(c)}")
            if op not in OPS:
                raise GoalError(f"goal {quote(source)}: unknown comparison {quote(op)}")
            if not isinstance(v, int) or isinstance(v, bool):
                raise GoalError(f"goal {quote(source)}: value {quote(v)} is not a whole number")
            if abs(v) > MAX_GOAL_VALUE:
                raise GoalError(f"goal {quote(source)}: value {v} must be at most "
                                f"{MAX_GOAL_VALUE:,} (either sign)")
            return Clause(c, op, v)
    raise GoalError(f"goal {quote(source)}: expected text, {{'and': [...]}}, {{'or': [...]}} "
                    "or {'counter', 'op', 'value'}")
