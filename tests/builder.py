"""Build arbitrary positions for rule tests: name the cards in each zone, the rest is the deck.

Example::

    st = position(hand=["C5", "M2"], timeline={3: ["C7"], 4: ["P18"]}, tokens={"C7": 5},
                  past=["M1", "M3"], lost=2, techs=["T1"], deck_top=["C1", "C2"])

The state is settled at the pending decision given by `pending` (default: the first action of a
turn); `phase="timeline"` / `"decline"` / `"tech"` runs from the start of that phase instead.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from puzzles.cardsets import load_book
from puzzles.chests import DEFAULT_PATH
from solver.engine import flow
from solver.engine.cards import CardBook
from solver.engine.frames import (
    D_ACTION,
    D_YESNO,
    F_DECLINE_PHASE,
    F_TECH_PHASE,
    F_TIMELINE_PHASE,
    F_TURN_END,
    Frame,
)
from solver.engine.newgame import new_game
from solver.engine.setup import Setup
from solver.engine.state import EMPTY, TIME, GameState


@lru_cache(maxsize=4)
def book(names: tuple[str, ...] = ("base",)) -> CardBook:
    return load_book(list(names))


def idx(st_or_book: GameState | CardBook, code: str) -> int:
    b = st_or_book.book if isinstance(st_or_book, GameState) else st_or_book
    card = b.lookup(code)
    assert card is not None, code
    return card.index


def position(
    hand: Sequence[str] = (),
    timeline: Mapping[int, Sequence[str]] | None = None,
    tokens: Mapping[str, int] | None = None,
    past: Sequence[str] = (),
    rotated: int = 0,
    artifacts: Sequence[str] = (),
    lost: int = 0,
    techs: Sequence[str] = (),
    tiles: Sequence[str | None] | None = None,
    deck_top: Sequence[str] = (),
    discard: Sequence[str] = (),
    time_space: int = 4,
    time_visits: int = 0,
    turn: int = 1,
    midgame: bool | None = None,
    tile_level: Sequence[int] = (1, 1, 2),
    phase: str = "action",
    pending: Iterable[Frame] | None = None,
    dice: Sequence[int] = (1,) * 16,
    names: tuple[str, ...] = ("base",),
) -> GameState:
    """A settled state with exactly these cards in these zones (see the module docstring).

    Builder cards not named go to the deck below `deck_top` in card order; technologies not
    named go to their decks. `timeline` maps a space to its items from the lower place up;
    the string ``"TIME"`` puts the time card there (else it goes to `time_space`)."""
    b = book(names)
    st = new_game(Setup(hand="1", seed=0, dice=tuple(dice)), b)
    named: set[int] = set()

    def ids(codes: Iterable[str]) -> list[int]:
        out = [idx(b, c) for c in codes]
        for i in out:
            assert i not in named, f"{b[i].code} named twice"
            named.add(i)
        return out

    st.hand = sorted(ids(hand))
    st.spaces = [(), (), (), (), (), ()]
    has_time = False
    for space, items in (timeline or {}).items():
        row: list[int] = []
        for code in items:
            if code == "TIME":
                row.append(TIME)
                has_time = True
            else:
                row.extend(ids([code]))
        st.spaces[space - 1] = tuple(row)
    st.time_space = time_space
    if not has_time and time_space:
        st.spaces[time_space - 1] = st.spaces[time_space - 1] + (TIME,)
    elif has_time:
        st.time_space = next(s + 1 for s in range(6) if TIME in st.spaces[s])
    st.tokens = [0] * len(b)
    for code, n in (tokens or {}).items():
        st.tokens[idx(b, code)] = n
    st.past = sorted(ids(past))
    st.rotated = rotated
    arts = ids(artifacts)
    st.artifacts = arts + [EMPTY] * (5 - len(arts))
    st.lost = lost
    st.techs = sorted(ids(techs))
    st.tile_level = list(tile_level)
    if tiles is not None:
        st.tiles = [EMPTY if t is None else ids([t])[0] for t in tiles]
    else:
        st.tiles = [EMPTY] * 9
    top = ids(deck_top)
    st.discard = ids(discard)
    rest_builders = [c.index for c in b.cards if not c.is_tech and c.index not in named]
    st.deck = rest_builders[::-1] + top[::-1]  # top of the deck is the end of the list
    rest1 = [c.index for c in b.cards if c.is_tech and c.level == 1 and c.index not in named]
    rest2 = [c.index for c in b.cards if c.is_tech and c.level == 2 and c.index not in named]
    st.tech_decks = [rest1[::-1], rest2[::-1]]
    st.tech_discards = [[], []]
    st.limbo = []
    st.turn = turn
    st.time_visits = time_visits
    st.midgame = (len(st.past) >= 7) if midgame is None else midgame
    st.over = False
    if pending is not None:
        st.stack = [(F_TURN_END,), *pending]
    elif phase == "action":
        st.stack = [(F_TURN_END,), (F_TECH_PHASE,), (F_DECLINE_PHASE,), (F_TIMELINE_PHASE,),
                    (D_ACTION, 1), (D_ACTION, 0)]
    elif phase == "timeline":
        st.stack = [(F_TURN_END,), (F_TECH_PHASE,), (F_DECLINE_PHASE,), (F_TIMELINE_PHASE,)]
    elif phase == "decline":
        st.stack = [(F_TURN_END,), (F_TECH_PHASE,), (F_DECLINE_PHASE,)]
    elif phase == "tech":
        st.stack = [(F_TURN_END,), (F_TECH_PHASE,)]
    else:
        raise ValueError(phase)
    flow.settle(st)
    return st


def play(st: GameState, *moves: str) -> GameState:
    """Apply decisions given in notation (``"create"``, ``"C5"``, ``"s3"``, ``"@C7"``...)."""
    for m in moves:
        a = st.string_to_action(m)
        assert a in st.legal, f"{m} not legal; legal: {names_of(st)}"
        st.apply(a)
    return st


def names_of(st: GameState) -> list[str]:
    """The pending decision's options in notation."""
    return [st.action_to_string(a) for a in st.legal]


def run_until_action(st: GameState) -> GameState:
    """Take the first option until the next action choice (for tests of later phases)."""
    while st.stack and st.stack[-1][0] != D_ACTION and st.legal:
        st.apply(st.legal[0])
    return st


#: A decision frame that always waits (yes/no, no card): pushed under a position's first frame,
#: it is on top when everything under test has resolved.
STOP: Frame = (D_YESNO, -1, (), 0)


def at_stop(st: GameState) -> bool:
    """True when what is under test is over (`STOP` is the pending decision)."""
    return st.pending() == STOP


def codes(st: GameState, cards: Iterable[int]) -> list[str]:
    """The codes of `cards` in their order ("TIME" for the time card)."""
    return ["TIME" if c == TIME else st.card(c).code for c in cards]


def hand(st: GameState) -> list[str]:
    """The hand's codes, sorted as strings (an exact multiset check)."""
    return sorted(codes(st, st.hand))


def tok(st: GameState, code: str) -> int:
    """The knowledge on card `code`."""
    return st.tokens[idx(st, code)]


def layout(st: GameState) -> dict[int, list[str]]:
    """The Timeline: space -> items from the lower place up ("TIME" = the time card)."""
    return {s + 1: codes(st, items) for s, items in enumerate(st.spaces) if items}


def tile_codes(st: GameState) -> list[str | None]:
    """The nine tile places (A, B, C) in order, None where a place is empty."""
    return [None if c == EMPTY else st.card(c).code for c in st.tiles]


def user_set(path: Path, builders: Sequence[dict[str, Any]] = (),
             techs: Sequence[dict[str, Any]] = (), first: bool = False) -> tuple[str, ...]:
    """Write a user card set of `builders` and `techs` (CARD_FORMAT.md) to `path`; the book
    names of the base set and it (listed first with `first`: its cards then take the smallest
    indices, "Sets load in the order given")."""
    path.write_text(json.dumps({"set": path.stem, "version": 1, "builders": list(builders),
                                "technologies": list(techs)}))
    return (str(path), "base") if first else ("base", str(path))


def user_chests(path: Path, changes: Mapping[str, Mapping[str, Any]]) -> str:
    """Write the shipped chest file with the fields of some chests replaced (`changes`: by
    letter, CHEST_FORMAT.md) to `path`, a user's chest file; its name for `load_chests`."""
    data = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    for chest in data["chests"]:
        chest.update(changes.get(chest["letter"], {}))
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)
