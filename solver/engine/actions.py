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
CHEST      ``!chest:Б``      use / order a chest effect (solo modes); the letter may be
           ``chest:Б``       typed in Latin (``!chest:B``, ``chest:Zh``); choose a chest: a
                             campaign goal, or a goal to give up
=========  ================  ==============================================
"""

from __future__ import annotations

from typing import Final

from solver.engine.cards import CardBook

SHIFT: Final = 10
VALUE_MASK: Final = (1 << SHIFT) - 1

ACT: Final = 0
CARD: Final = 1
SPACE: Final = 2
CTRL: Final = 3
TARGET: Final = 4
ORDER: Final = 5
NUMBER: Final = 6
TILE: Final = 7
CHEST: Final = 8
KIND_COUNT: Final = 9
ACTION_SPACE: Final = KIND_COUNT << SHIFT  # every action code is below this

CREATE: Final = 0
LEARN: Final = 1
ARCHIVE: Final = 2
EXCAVATE: Final = 3
SEARCH: Final = 4
ACT_NAMES: Final = ("create", "learn", "archive", "excavate", "search")

DONE_V: Final = 0
YES_V: Final = 1
NO_V: Final = 2
CTRL_NAMES: Final = ("done", "yes", "no")
TILE_NAMES: Final = ("A", "B", "C")
CHEST_LETTERS: Final = "АБВГДЕЖЗИКЛМНОП"
#: The Latin transliteration of each chest letter, accepted wherever a letter is typed
#: (``!chest:B`` is ``!chest:Б``; case does not matter).
CHEST_TRANSLIT: Final = ("A", "B", "V", "G", "D", "E", "Zh", "Z", "I", "K", "L", "M", "N", "O", "P")
# CHEST values from here choose a chest ("chest:Б"); below, use one ("!chest:Б")
CHEST_PICK: Final = 16


def code(kind: int, value: int) -> int:
    """The integer code of one option."""
    return (kind << SHIFT) | value


#: ``code(KIND, 0)`` of the kinds whose options the hot decisions list: ``code(KIND, v)`` is
#: ``KIND_CODE | v`` (no call per option).
CARD_CODE: Final = CARD << SHIFT
SPACE_CODE: Final = SPACE << SHIFT
TARGET_CODE: Final = TARGET << SHIFT
ORDER_CODE: Final = ORDER << SHIFT


def kind_of(action: int) -> int:
    return action >> SHIFT


def value_of(action: int) -> int:
    return action & VALUE_MASK


DONE: Final = code(CTRL, DONE_V)
YES: Final = code(CTRL, YES_V)
NO: Final = code(CTRL, NO_V)
ACT_CREATE: Final = code(ACT, CREATE)
ACT_LEARN: Final = code(ACT, LEARN)
ACT_ARCHIVE: Final = code(ACT, ARCHIVE)
ACT_EXCAVATE: Final = code(ACT, EXCAVATE)
ACT_SEARCH: Final = code(ACT, SEARCH)


class NotationError(ValueError):
    """A decision's notation could not be read."""


def chest_index(text: str) -> int | None:
    """The index of a chest letter given in Cyrillic (``Б``) or in its Latin transliteration
    (``B``, ``Zh``, any case), or None.

    >>> chest_index("Б"), chest_index("zh"), chest_index("Q")
    (1, 6, None)
    """
    t = text.strip()
    if len(t) == 1 and t in CHEST_LETTERS:
        return CHEST_LETTERS.index(t)
    upper = [x.upper() for x in CHEST_TRANSLIT]
    return upper.index(t.upper()) if t.upper() in upper else None


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
        if t.startswith("!chest:") and (k := chest_index(t[7:])) is not None:
            return code(CHEST, k)
        if t.startswith("chest:") and (k := chest_index(t[6:])) is not None:
            return code(CHEST, CHEST_PICK + k)
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


#: How a card code is spelled: a letter, then letters, digits, ``_`` or ``-`` (``C5``, ``X1``).
CARD_CODE_CHARS: Final = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def card_code_problem(word: str, is_code: bool = True) -> str | None:
    """Why `word` cannot name a card (its code, or with `is_code` False its id), or None.

    A card's code is written in lines as the card itself, and after ``@`` or ``!``
    (`Notation.parse`); a code that reads as another decision (``done``, ``s3``, ``create``,
    ``#3``, ``tileA``) would make a line ambiguous, so it is refused. An id is only looked up
    by name (hand and deck files), so only the notation words are refused for it.

    >>> card_code_problem("X1") is None
    True
    >>> card_code_problem("s3")
    "reads as the notation of a Timeline space ('s3'); choose another code"
    """
    w = word.strip()
    if is_code and (not w or w[0] not in CARD_CODE_CHARS or w[0].isdigit() or w[0] in "_-"
                    or not set(w) <= CARD_CODE_CHARS):
        return "a card code is a letter then letters, digits, '_' or '-' (like C5 or X1)"
    what = None
    if w in ACT_NAMES:
        what = "an action"
    elif w in CTRL_NAMES:
        what = "a control word"
    elif w.startswith("tile") and w[4:] in TILE_NAMES:
        what = "a technology tile"
    elif len(w) >= 2 and w[0] == "s" and w[1:].isdigit():
        what = "a Timeline space"
    elif len(w) >= 2 and w[0] == "#" and w[1:].isdigit():
        what = "a number"
    elif w.startswith(("@", "!", "chest:")):
        what = "a target, an order or a chest"
    if what is None:
        return None
    return f"reads as the notation of {what} ({w!r}); choose another code"
