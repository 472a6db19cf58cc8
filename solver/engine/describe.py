"""Turn-by-turn wording of a game, for people.

`describe_line` replays a line (`solver.engine.record`) with the engine and groups the decisions of
each game action and phase into one phrase with card names, e.g. ``Create Ellora Caves (C5) in
space 5, discarding Menhir di Monte Corru Tundu (M2) and Pyramid of Khafre (P1)``. It reads the
pending decision frame (`solver.engine.frames`) to know what each decision means, and it also shows the
decisions the engine took by itself because they had a single option (a forced space, a forced
discard): they are part of what happened even though a line does not write them.

Each turn ends with a summary (hand size, knowledge on the Timeline, lost knowledge) and what the
automatic phases did: the die roll and the discarded technologies (RULES.md section 4D), the
time card and the monuments that declined to the Past (section 4C).

To see those automatic steps the walker watches the engine loop (`solver.engine.flow.Rules`
with an `Observer`): it is told of every decision, explicit or forced, and runs each automatic
frame itself; `tests/test_record.py` checks that it reaches exactly the positions of a plain
replay.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from solver.engine import actions as A
from solver.engine.cards import CardBook
from solver.engine.create import create_cost
from solver.engine.errors import IllegalActionError
from solver.engine.flow import RULES, Auto
from solver.engine.frames import (
    D_ACTION,
    D_ARCHIVE,
    D_ARTIFACT_PAY,
    D_BOTTOM,
    D_CREATE_CARD,
    D_CREATE_SPACE,
    D_DECLINE_ORDER,
    D_DISCARD_VAR,
    D_EXCAVATE,
    D_FLIP,
    D_KEEP,
    D_KENSINGTON,
    D_LEARN,
    D_MOVE_SPACE,
    D_NUMBER,
    D_ORDER,
    D_PAY,
    D_PICK,
    D_REMOVE,
    D_TARGET,
    D_TECH_PICK,
    D_YESNO,
    DECISION_NAMES,
    F_DECLINE_FINISH,
    F_DECLINE_PHASE,
    F_ELONGATED,
    F_TECH_PHASE,
    F_TIMELINE_PHASE,
    F_TURN_END,
    F_TURN_START,
    Frame,
)
from solver.engine.newgame import new_game
from solver.engine.setup import Setup
from solver.engine.state import CHEST_BASE, EMPTY, GameState
from solver.engine.targets import (
    MOVE,
    PAIR_FIRST,
    PAIR_SECOND,
    REMOVE_ONE,
    SWAP_FIRST,
    SWAP_SECOND,
    SWAP_SELF,
)
from solver.engine.techeffects import BURY

# Decision kinds whose consecutive choices read as one clause ("discarding A and B").
_RUNS = frozenset({D_KEEP, D_PAY, D_ARCHIVE, D_REMOVE, D_PICK, D_BOTTOM, D_DISCARD_VAR,
                   D_ARTIFACT_PAY})
_GROUP_PREFIX = {"setup": "Setup: ", "timeline": "Timeline phase: ", "decline": "Decline: "}


@dataclass
class TurnReport:
    """What happened in one turn: the phrases of its decisions, the automatic events, and the
    position after the turn."""

    turn: int
    phrases: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    hand: int = 0
    timeline_knowledge: int = 0
    lost: int = 0
    over: bool = False

    @property
    def title(self) -> str:
        return "Setup" if self.turn == 0 else f"Turn {self.turn}"

    def summary(self) -> str:
        """One line: hand size, knowledge on the Timeline, lost knowledge after the turn."""
        return (f"hand {self.hand}, knowledge on the Timeline {self.timeline_knowledge}, "
                f"lost knowledge {self.lost}")


@dataclass(frozen=True)
class Decision:
    """One decision taken: its frame, the option, and whether the player chose it (False: the
    engine took the only option)."""

    frame: Frame
    action: int
    explicit: bool


@dataclass
class _Group:
    kind: str  # setup, action, timeline, decline, tech, other
    steps: list[Decision] = field(default_factory=list)
    hand_before: frozenset[int] = frozenset()
    tokens_before: dict[int, int] = field(default_factory=dict)


class _Walker:
    """Runs the engine loop step by step, noting every decision and automatic event."""

    def __init__(self, st: GameState) -> None:
        self.st = st
        self.reports: list[TurnReport] = [TurnReport(st.turn)]
        self.group: _Group | None = None
        self.turn_open = True

    # ------------------------------------------------------------------ the engine loop

    def apply(self, action: int) -> None:
        """`Rules.apply`, watched."""
        RULES.apply(self.st, action, observer=self)

    def settle(self) -> None:
        """`Rules.settle`, watched."""
        RULES.settle(self.st, observer=self)

    # ------------------------------------------------------------------ bookkeeping

    def _begin(self, kind: str) -> None:
        self._end_group()
        st = self.st
        self.group = _Group(kind, hand_before=frozenset(st.hand),
                            tokens_before={m: st.tokens[m] for m in st.monuments()})

    def _end_group(self) -> None:
        g = self.group
        self.group = None
        if g is None or not g.steps:
            return
        st = self.st
        text = render_group(st.book, g.kind, g.steps)
        text += _removed_clause(st, g)
        gained = len(set(self.st.hand) - g.hand_before)
        if gained and g.kind != "setup":
            text += f" (+{gained} card{'s' if gained > 1 else ''})"
        self.reports[-1].phrases.append(text)

    def _close_turn(self) -> None:
        if not self.turn_open:
            return
        self._end_group()
        st = self.st
        rep = self.reports[-1]
        rep.hand = len(st.hand)
        rep.timeline_knowledge = st.timeline_tokens()
        rep.lost = st.lost
        rep.over = st.is_terminal()
        self.turn_open = False

    def _event(self, text: str) -> None:
        self.reports[-1].events.append(text)

    def note(self, fr: Frame, action: int, explicit: bool) -> None:
        kind = fr[0]
        if kind == D_ACTION:
            self._begin("action")
        elif kind == D_KEEP and (self.group is None or self.group.kind != "setup"):
            self._begin("setup")
        elif self.group is None:
            self._begin("other")
        assert self.group is not None
        self.group.steps.append(Decision(fr, action, explicit))

    def auto(self, fr: Frame, run: Auto) -> None:
        st = self.st
        kind = fr[0]
        if kind == F_TURN_START:
            self._close_turn()
            run(st, fr)
            self.reports.append(TurnReport(st.turn))
            self.turn_open = True
        elif kind == F_TURN_END:
            run(st, fr)
            self._close_turn()
        elif kind == F_TIMELINE_PHASE:
            self._begin("timeline")
            run(st, fr)
        elif kind == F_DECLINE_PHASE:
            self._begin("decline")
            space, visits = st.time_space, st.time_visits
            run(st, fr)
            if st.over:
                self._event("the time card is in space 1 for the third time: the game ends "
                            "(no decline, no technology phase)")
                return
            if space == 1:
                self._event(f"the time card goes to the Past ({visits + 1} of 2)")
            if st.potala:
                self._event("Potala Palace: no monument declines this turn")
        elif kind == F_DECLINE_FINISH:
            card = fr[1]
            was_there, lost = st.in_timeline(card), st.lost
            run(st, fr)
            if was_there and card in st.past:
                lost_now = st.lost - lost
                what = f" ({lost_now} knowledge lost)" if lost_now else ""
                self._event(f"{name(st.book, card)} declines to the Past{what}")
            elif was_there and card in st.discard:
                self._event(f"{name(st.book, card)} is discarded instead of declining")
        elif kind == F_TECH_PHASE:
            self._begin("tech")
            roll = st.setup.rolls[st.die_pos]
            before = list(st.tiles)
            run(st, fr)
            gone = [c for c in before if c != EMPTY and c not in st.tiles]
            new = [c for c in st.tiles if c != EMPTY and c not in before]
            text = f"die {roll}: " + (
                "discard " + _and([name(st.book, c) for c in gone]) if gone
                else "empty slot, nothing discarded")
            if new:
                tiles = sorted({st.tiles.index(c) // 3 for c in new})
                text += "; tile " + _and([A.TILE_NAMES[t] for t in tiles]) + " refilled"
            self._event(text)
        elif kind == F_ELONGATED:
            hand = len(st.hand)
            run(st, fr)
            if len(st.hand) > hand:
                self._event(f"Elongated Skulls: draw {len(st.hand) - hand}")
        else:
            run(st, fr)

    def finish(self) -> list[TurnReport]:
        self._close_turn()
        return [r for r in self.reports if r.turn > 0 or r.phrases or r.events]


# ---------------------------------------------------------------------------- wording

def _removed_clause(st: GameState, g: _Group) -> str:
    """Knowledge removed from monuments still in the Timeline during a group, when the removal
    was (at least partly) automatic and so not spelled out by the decisions."""
    removed: list[int] = []
    for m, before in g.tokens_before.items():
        if st.in_timeline(m) and st.tokens[m] < before:
            removed.extend([m] * (before - st.tokens[m]))
    chosen = sum(1 for s in g.steps if s.frame[0] == D_REMOVE and s.action != A.DONE)
    if len(removed) <= chosen:
        return ""
    words = _counted(st.book, removed)
    return ("; knowledge removed in all: " if chosen else "; remove knowledge from ") + words


def name(book: CardBook, card: int) -> str:
    """``Ellora Caves (C5)``; a chest card's effect (source ``CHEST_BASE + k``): ``chest Б``."""
    if card >= CHEST_BASE:
        return "chest " + A.CHEST_LETTERS[card - CHEST_BASE]
    c = book.cards[card]
    return f"{c.name} ({c.code})"


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _counted(book: CardBook, cards: Sequence[int]) -> str:
    """``Luxor Temple (P3) x2 and Tonina (C12)``: cards in first-seen order with counts."""
    order: list[int] = []
    counts: dict[int, int] = {}
    for c in cards:
        if c not in counts:
            order.append(c)
            counts[c] = 0
        counts[c] += 1
    return _and([name(book, c) + (f" x{counts[c]}" if counts[c] > 1 else "") for c in order])


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def render_group(book: CardBook, kind: str, steps: Sequence[Decision]) -> str:
    """One phrase for the decisions of one action or phase, clauses joined by ``; ``."""
    clauses: list[str] = []
    order_rest: tuple[object, ...] | None = None  # queue left by the last ordering choice
    decline_orders = 0
    cost = 0  # cards the Create just chosen costs: the next discards pay for it
    i = 0
    while i < len(steps):
        s = steps[i]
        fr, action = s.frame, s.action
        v = A.value_of(action)
        dk = fr[0]
        if dk in _RUNS:
            j = i
            while j < len(steps) and steps[j].frame[0] == dk:
                j += 1
            run = steps[i:j]
            cards = [A.value_of(r.action) for r in run
                     if A.kind_of(r.action) in (A.CARD, A.TARGET)]
            i = j
            if dk == D_PAY and cost:
                _attach(clauses, ", discarding " + _and([name(book, c) for c in cards[:cost]]))
                cards = cards[cost:]
            cost = 0
            if cards or dk != D_PAY:
                _run_clause(book, dk, cards, clauses)
            continue
        i += 1
        cost = 0
        if dk == D_ACTION and A.kind_of(action) == A.CHEST:  # a lightning chest (solver.engine.chests)
            clauses.append("use " + name(book, CHEST_BASE + v))
        elif dk == D_ACTION:
            if action == A.ACT_SEARCH or i == len(steps):  # else the next decision says it
                clauses.append(A.ACT_NAMES[v])
        elif dk == D_CREATE_CARD:
            clauses.append("create nothing" if action == A.NO else f"create {name(book, v)}")
            if action != A.NO and book.cards[v].is_artifact:
                cost = book.cards[v].discard_cost
        elif dk == D_CREATE_SPACE:
            _attach(clauses, f" in space {v}")
            card = book.cards[fr[1]]
            cost = create_cost(card.discard_cost, card.starting_space, v)
        elif dk == D_LEARN:
            clauses.append("learn nothing" if action == A.NO else f"learn {name(book, v)}")
        elif dk == D_EXCAVATE:
            clauses.append(f"excavate {v}")
        elif dk == D_KENSINGTON:
            clauses.append("Kensington Runestone: remove up to 6 knowledge instead of drawing"
                           if action == A.YES else "draw (not Kensington Runestone)")
        elif dk == D_YESNO:
            src = name(book, fr[1])
            clauses.append(f"use {src}" if action == A.YES else f"do not use {src}")
        elif dk == D_TARGET:
            _target_clause(book, fr, v, clauses)
        elif dk == D_MOVE_SPACE:
            _attach(clauses, f" to space {v}")
        elif dk == D_NUMBER:
            clauses.append(f"discard {v} lost knowledge")
        elif dk == D_TECH_PICK:
            verb = "bury" if fr[1] == BURY else "learn"
            clauses.append(f"{verb} {name(book, v)}")
        elif dk == D_ORDER:
            queue = fr[1]
            first = order_rest is None or tuple(order_rest) != tuple(queue)
            if A.kind_of(action) == A.CHEST:  # a Timeline chest in the order (solver.engine.chests)
                v += CHEST_BASE
            pos = next(n for n, item in enumerate(queue) if item[0] == v)
            order_rest = queue[:pos] + queue[pos + 1:]
            who = name(book, v)
            if first:
                clauses.append(f"{who} first" if len(queue) > 1 else who)
            else:
                clauses.append(f"then {who}")
        elif dk == D_DECLINE_ORDER:
            who = name(book, v)
            clauses.append(f"{who} declines first" if decline_orders == 0 else f"then {who}")
            decline_orders += 1
        elif dk == D_FLIP:
            clauses.append(f"middle of the game: flip tile {A.TILE_NAMES[v]} to Level II")
        else:
            what = DECISION_NAMES.get(dk, "decision")
            try:
                text = A.Notation(book).render(action)
            except (A.NotationError, IndexError):
                text = str(action)
            clauses.append(f"{what}: {text}")
    if not clauses:
        return ""
    text = "; ".join(clauses)
    text = _GROUP_PREFIX.get(kind, "") + text
    return text[0].upper() + text[1:]


def _attach(clauses: list[str], text: str) -> None:
    if clauses:
        clauses[-1] += text
    else:
        clauses.append(text.strip())


def _run_clause(book: CardBook, dk: int, cards: list[int], clauses: list[str]) -> None:
    names = [name(book, c) for c in cards]
    if dk == D_KEEP:
        clauses.append("keep " + _and(names))
    elif dk == D_PAY:
        clauses.append("discard " + _and(names))
    elif dk == D_ARCHIVE:
        if not cards:
            clauses.append("archive nothing")
        else:
            clauses.append(f"archive {_plural(len(cards), 'card')} ({_and(names)})")
    elif dk == D_REMOVE:
        clauses.append("remove knowledge from " + _counted(book, cards) if cards
                       else "remove no knowledge")
    elif dk == D_PICK:
        clauses.append("keep " + _and(names))
    elif dk == D_BOTTOM:
        clauses.append(f"put {_and(names)} under the Level II deck, in that order")
    elif dk == D_DISCARD_VAR:
        clauses.append("discard " + _and(names) if cards else "discard nothing")
    elif dk == D_ARTIFACT_PAY:
        clauses.append("discard the artifact" + ("s " if len(cards) > 1 else " ") + _and(names))


def _target_clause(book: CardBook, fr: Frame, target: int, clauses: list[str]) -> None:
    purpose = fr[2]
    src, who = name(book, fr[1]), name(book, target)
    if purpose in (REMOVE_ONE, PAIR_FIRST):
        clauses.append(f"{src} takes knowledge from {who}")
    elif purpose == PAIR_SECOND:
        _attach(clauses, f" and {who}")
    elif purpose == SWAP_SELF:
        clauses.append(f"swap {src} with {who}")
    elif purpose == SWAP_FIRST:
        clauses.append(f"swap {who}")
    elif purpose == SWAP_SECOND:
        _attach(clauses, f" with {who}")
    elif purpose == MOVE:
        fixed = fr[4]
        clauses.append(f"move {who}" + (f" to space {fixed}" if fixed else ""))
    else:
        clauses.append(f"choose {who}")


# ---------------------------------------------------------------------------- entry points

def describe_line(setup: Setup, book: CardBook,
                  line: Sequence[Sequence[str]]) -> list[TurnReport]:
    """The turn-by-turn reports of a line (a whole game or a prefix).

    :raises IllegalActionError: a decision of the line is not legal (check with
        `solver.engine.record.replay` first)."""
    walker = _Walker(new_game(setup, book))
    st = walker.st
    for t, turn in enumerate(line):
        for k, text in enumerate(turn, start=1):
            try:
                action = st.string_to_action(text)
            except A.NotationError:
                action = -1
            if st.turn != t or action not in st.legal:
                raise IllegalActionError(f"turn {t}, decision {k}: {text!r} is not legal here")
            walker.apply(action)
    return walker.finish()


def walk_state(setup: Setup, book: CardBook, line: Sequence[Sequence[str]]) -> GameState:
    """The position the describing walker reaches (for the test that it follows the engine)."""
    walker = _Walker(new_game(setup, book))
    for turn in line:
        for text in turn:
            walker.apply(walker.st.string_to_action(text))
    return walker.st
