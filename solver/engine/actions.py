"""Decisions as small integers, and their notation.

RULES.md asks that every decision of the rules be a decision of the engine. The engine factors
each game action into small decisions (action type, card, space, each discarded card...), and
every option of every decision is one integer ``kind << 10 | value`` from a bounded global set
(`ACTION_SPACE` codes), stable across runs: OpenSpiel and policy learning need that.

Notation (context-free, round-trips through `parse`):

=========  ================  ==============================================
kind       notation          meaning
=========  ================  ==============================================
ACT        ``create``        an action type (create, learn, archive, excavate, search)
CARD       ``C5``            a card: to create, learn, keep, discard, pick
SPACE      ``s3``            a Timeline space
CTRL       ``done`` ``yes``  end a variable-length choice; accept / decline a "you may"
           ``no``
TARGET     ``@C5``           a monument (or artifact) on the board: take knowledge from it,
                             move it, swap it, discard it
ORDER      ``!C5``           resolve this card's pending effect next (simultaneous effects)
NUMBER     ``#3``            a number (how many Past monuments to excavate, how much lost
                             knowledge to remove)
TILE       ``tileA``         a technology tile (the middle-of-game flip)
CHEST      ``!chest:Б``      use / order a chest effect (solo modes)
           ``chest:Б``       choose a chest: a campaign goal, or a goal to give up
=========  ================  ==============================================
"""

from __future__ import annotations

from solver.engine.cards import CardBook

SHIFT = 10
VALUE_MASK = (1 << SHIFT) - 1

ACT, CARD, SPACE, CTRL, TARGET, ORDER, NUMBER, TILE, CHEST = range(9)
KIND_COUNT = 9
ACTION_SPACE = KIND_COUNT << SHIFT  # every action code is below this

CREATE, LEARN, ARCHIVE, EXCAVATE, SEARCH = range(5)
ACT_NAMES = ("create", "learn", "archive", "excavate", "search")

DONE_V, YES_V, NO_V = 0, 1, 2
CTRL_NAMES = ("done", "yes", "no")
TILE_NAMES = ("A", "B", "C")
CHEST_LETTERS = "АБВГДЕЖЗИКЛМНОП"
CHEST_PICK = 16  # CHEST values from here choose a chest ("chest:Б"); below, use one ("!chest:Б")


def code(kind: int, value: int) -> int:
    """The integer code of one option."""
    return (kind << SHIFT) | value


def kind_of(action: int) -> int:
    return action >> SHIFT


def value_of(action: int) -> int:
    return action & VALUE_MASK


DONE = code(CTRL, DONE_V)
YES = code(CTRL, YES_V)
NO = code(CTRL, NO_V)
ACT_CREATE = code(ACT, CREATE)
ACT_LEARN = code(ACT, LEARN)
ACT_ARCHIVE = code(ACT, ARCHIVE)
ACT_EXCAVATE = code(ACT, EXCAVATE)
ACT_SEARCH = code(ACT, SEARCH)


class NotationError(ValueError):
    """A decision's notation could not be read."""


class Notation:
    """Renders and parses action codes for one card book."""

    def __init__(self, book: CardBook) -> None:
        self.book = book

    def render(self, action: int) -> str:
        kind, value = kind_of(action), value_of(action)
        if kind == ACT:
            return ACT_NAMES[value]
        if kind == CARD:
            return self.book[value].code
        if kind == SPACE:
            return f"s{value}"
        if kind == CTRL:
            return CTRL_NAMES[value]
        if kind == TARGET:
            return "@" + self.book[value].code
        if kind == ORDER:
            return "!" + self.book[value].code
        if kind == NUMBER:
            return f"#{value}"
        if kind == TILE:
            return "tile" + TILE_NAMES[value]
        if kind == CHEST and value >= CHEST_PICK:
            return "chest:" + CHEST_LETTERS[value - CHEST_PICK]
        if kind == CHEST:
            return "!chest:" + CHEST_LETTERS[value]
        raise NotationError(f"no such action code: {action}")

    def parse(self, text: str) -> int:
        """The code of a notation string; raises `NotationError` if it names nothing."""
        t = text.strip()
        if t in ACT_NAMES:
            return code(ACT, ACT_NAMES.index(t))
        if t in CTRL_NAMES:
            return code(CTRL, CTRL_NAMES.index(t))
        if t.startswith("!chest:") and len(t) == 8 and t[7] in CHEST_LETTERS:
            return code(CHEST, CHEST_LETTERS.index(t[7]))
        if t.startswith("chest:") and len(t) == 7 and t[6] in CHEST_LETTERS:
            return code(CHEST, CHEST_PICK + CHEST_LETTERS.index(t[6]))
        if t.startswith("tile") and t[4:] in TILE_NAMES:
            return code(TILE, TILE_NAMES.index(t[4:]))
        if len(t) >= 2 and t[0] == "s" and t[1:].isdigit():
            return code(SPACE, int(t[1:]))
        if len(t) >= 2 and t[0] == "#" and t[1:].isdigit():
            return code(NUMBER, int(t[1:]))
        for prefix, kind in (("@", TARGET), ("!", ORDER), ("", CARD)):
            if prefix and not t.startswith(prefix):
                continue
            card = self.book.lookup(t[len(prefix):])
            if card is not None:
                return code(kind, card.index)
        raise NotationError(f"unknown decision {text!r}")
