"""The rest of the game as a schedule: turns, phases, decline capacities, Timeline paths, and the
technology requirement graph (networkx).

Nothing here is a choice of the player. Once a position is fixed, the time card moves on its own
(RULES.md section 4C step 1 and step 3; D8, D12, D18): the turns still to play, which of their
decline phases move monuments to the Past and which one ends the game, and where the time card
stands during each action phase, are all known. The constraint layer (`solver.bounds.cpsat`)
reads them from here.

Two graphs:

* The **Timeline schedule** (`TimelineGraph`): a DAG whose nodes are ``(slot, space)`` (a
  monument in that space during the action phase of that turn slot) and two kinds of sinks,
  ``("past", slot)`` (it declines in that slot's decline phase) and ``("end",)`` (it is still in
  the Timeline when the game ends). Edges are the slides of section 4C step 3 (space s to space
  s-1 next turn; space 1 declines). A virtual space 7 models a monument held back one turn by
  Potala Palace (C30: the monuments do not slide that turn). The fate of a monument placed at a
  node is the sink its unique path reaches.
* The **technology requirement graph** (`TechGraph`): a bipartite DiGraph from requirement
  counters to technologies (edge ``counter -> tech`` with the threshold) and from technologies
  to the ``techs.*`` counters they raise. A technology whose requirement cannot be met even when
  every counter takes its largest value, allowing for the technologies that can themselves be
  learned, is dropped; the fixpoint runs over the graph.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import networkx as nx

from solver.engine.cards import TECH_TYPE_NAMES, Card, CardBook
from solver.engine.frames import (
    D_ACTION,
    D_CHEST_GOALS,
    D_CHEST_REVISE,
    D_CHEST_WINDOW,
    D_DECLINE_ORDER,
    D_FLIP,
    D_KEEP,
    D_ORDER,
    D_PAY,
    F_DECLINE_NEXT,
    F_DECLINE_PHASE,
    F_ELONGATED,
    F_SLIDE,
    F_TECH_PHASE,
    F_TIMELINE_PHASE,
    F_TURN_END,
    F_TURN_START,
)
from solver.engine.state import CHEST_BASE, GameState

SPACES = 6
VIRTUAL_SPACE = SPACES + 1  # a monument held back one slide by Potala Palace (C30)
END = ("end",)
MAX_SLOTS = 40  # a game has at most 16 turns; a guard against a malformed position


# ------------------------------------------------------------------ where in the turn we are

@dataclass(frozen=True)
class Phase:
    """The part of the current turn still to play, at a *phase boundary* of the engine.

    Only positions where the stack holds nothing but the turn's own phases (and lightning-chest
    windows) are phase boundaries: the relaxation knows exactly what the rest of the turn can do
    there. Inside an action or an effect it does not (`phase_of` returns None).

    :param actions: actions still to take this turn (0-2).
    :param timeline: this turn's Timeline phase is still to come (or under way).
    :param decline: this turn's decline phase is still to come (its step 1 not yet applied).
    :param declining: this turn's decline phase is under way (step 1 applied, monuments of
        space 1 declining).
    :param setup: the game has not started (keep 6 of 10, campaign goal choice, rank discards).
    :param hand: the hand size once the pending setup decisions are made (else the hand now).
    :param choosing_goals: the campaign goal choice is pending.
    :param revising_goals: the campaign mid-game goal revision is pending.
    """

    actions: int
    timeline: bool
    decline: bool
    declining: bool
    setup: bool
    hand: int
    choosing_goals: bool = False
    revising_goals: bool = False


_BASE = (F_TURN_END, F_TECH_PHASE, F_DECLINE_PHASE, F_TIMELINE_PHASE)


def phase_of(st: GameState) -> Phase | None:
    """The `Phase` of a position at a phase boundary, or None inside an action or effect."""
    if st.over or st.limbo or st.declining >= 0 or st.vanishing >= 0 or not st.stack:
        return None
    frames = [fr for fr in st.stack if fr[0] != D_CHEST_WINDOW]
    kinds = [fr[0] for fr in frames]
    top = st.stack[-1][0]
    if st.turn == 0:
        return _setup_phase(st, frames)
    if st.in_decline:
        return _decline_phase(st, kinds)
    # Case 1: a prefix of the turn's frames, then the pending actions.
    n_actions = 0
    while kinds and kinds[-1] == D_ACTION:
        kinds.pop()
        n_actions += 1
    if tuple(kinds) == _BASE[:len(kinds)] and len(kinds) >= 2:
        if n_actions and top != D_ACTION and top != D_CHEST_WINDOW:
            return None
        if not n_actions and top != D_CHEST_WINDOW:
            return None
        if n_actions and F_TIMELINE_PHASE not in kinds:
            return None
        return Phase(actions=n_actions, timeline=F_TIMELINE_PHASE in kinds,
                     decline=F_DECLINE_PHASE in kinds, declining=False, setup=False,
                     hand=len(st.hand))
    # Case 2: the Timeline phase's order of effects (queued at its start, section 4B).
    if (n_actions == 0 and top == D_ORDER and kinds[:-1] == list(_BASE[:3])
            and _timeline_queue(st, frames[-1])):
        return Phase(actions=0, timeline=True, decline=True, declining=False, setup=False,
                     hand=len(st.hand))
    return None


def _timeline_queue(st: GameState, fr: tuple[object, ...]) -> bool:
    queue = fr[1]
    assert isinstance(queue, tuple)
    cards = st.book.cards
    for c, i in queue:
        if c >= CHEST_BASE:
            continue
        if cards[c].effects[i].moment != "timeline":
            return False
    return True


def _decline_phase(st: GameState, kinds: list[int]) -> Phase | None:
    """Between two declines of space 1 (section 4C step 2): the order of two, the mid-game flip,
    or the campaign goal revision that follows it."""
    head = [F_TURN_END, F_TECH_PHASE, F_SLIDE, F_ELONGATED]
    tails = ([D_DECLINE_ORDER], [F_DECLINE_NEXT, D_FLIP], [F_DECLINE_NEXT, D_CHEST_REVISE])
    if kinds[:4] != head or kinds[4:] not in tails:
        return None
    return Phase(actions=0, timeline=False, decline=False, declining=True, setup=False,
                 hand=len(st.hand), revising_goals=kinds[-1] == D_CHEST_REVISE)


def _setup_phase(st: GameState, frames: list[tuple[object, ...]]) -> Phase | None:
    """Before turn 1 (section 3): keep 6 of 10, discard for a campaign rank, choose goals."""
    kinds = [fr[0] for fr in frames]
    if not kinds or kinds[0] != F_TURN_START:
        return None
    hand = len(st.hand)
    choosing = False
    for fr in frames[1:]:
        kind = fr[0]
        if kind == D_KEEP:
            kept = fr[3]
            assert isinstance(kept, tuple) and isinstance(fr[1], int)
            hand = len(kept) + fr[1]
        elif kind == D_PAY:
            assert isinstance(fr[1], int)
            hand = len(st.hand) - fr[1]
        elif kind == D_CHEST_GOALS:
            choosing = True
        else:
            return None
    return Phase(actions=2, timeline=True, decline=True, declining=False, setup=True,
                 hand=hand, choosing_goals=choosing)


# ------------------------------------------------------------------ the turns still to play

@dataclass(frozen=True)
class Slot:
    """One turn still to play (a *slot* of the schedule).

    :param turn: the turn number.
    :param actions: actions still to take in it.
    :param timeline: its Timeline phase is still to come.
    :param decline: its decline phase moves monuments to the Past (step 2 happens).
    :param ends: its decline phase ends the game (the third time the time card is in space 1).
    :param time_space: the time card's space during the action phase (0: in the Past).
    :param cap: the most monuments that can be in space 1 when its decline phase starts.
    """

    turn: int
    actions: int
    timeline: bool
    decline: bool
    ends: bool
    time_space: int
    cap: int


@dataclass(frozen=True)
class Schedule:
    """The turns still to play and the Timeline DAG over them."""

    slots: tuple[Slot, ...]
    graph: TimelineGraph
    offset: int  # 0 if the current turn's decline is still to come, 1 if it is done

    @property
    def decline_slots(self) -> tuple[int, ...]:
        """Slots whose decline phase moves monuments to the Past."""
        return tuple(i for i, s in enumerate(self.slots) if s.decline)

    @property
    def timeline_phases(self) -> int:
        return sum(1 for s in self.slots if s.timeline)

    @property
    def actions(self) -> int:
        return sum(s.actions for s in self.slots)

    def timeline_phases_through(self, slot: int) -> int:
        """Timeline phases from now up to and including slot `slot`."""
        return sum(1 for s in self.slots[:slot + 1] if s.timeline)


def build_schedule(st: GameState, phase: Phase, potala: bool) -> Schedule:
    """Simulate the time card to the end of the game (RULES.md section 4C, D8).

    `potala` says whether Potala Palace can still be created: then a decline phase may be
    skipped (C30), the time card may sit in a third row (D12), and every space-1 capacity is
    taken as 2.
    """
    ts = st.setup.time_space if phase.setup else st.time_space
    visits = st.time_visits
    turn = 1 if phase.setup else st.turn
    slots: list[Slot] = []
    first = True
    offset = 0
    while len(slots) < MAX_SLOTS:
        if not first:
            turn += 1
            if ts == 0:
                ts = SPACES
        actions = phase.actions if first else 2
        timeline = phase.timeline if first else True
        at_actions = ts
        decline = ends = False
        if first and phase.declining:
            decline = True  # step 1 is done; the slide (time card included) is to come
        elif first and not phase.decline:
            offset = 1  # this turn's decline phase is over
        else:
            if ts == 1:  # step 1: the time card in space 1 (section 4C, D8)
                visits += 1
                if visits >= 3:
                    ends = True
                else:
                    ts = 0
            if not ends:
                if first and st.potala:
                    offset = 1  # Potala Palace created this turn: no decline, no slide (C30)
                else:
                    decline = True
        if (decline or (first and st.potala and not ends)) and ts > 1:
            ts -= 1
        cap = 2 if potala or at_actions != 1 else 1
        if first and phase.declining:
            cap = len(st.space_monuments(1))
        slots.append(Slot(turn, actions, timeline, decline, ends, at_actions, cap))
        first = False
        if ends:
            break
    slot_list = _raise_caps(st, slots, offset)
    return Schedule(tuple(slot_list), TimelineGraph(tuple(slot_list)), offset)


def _raise_caps(st: GameState, slots: list[Slot], offset: int) -> list[Slot]:
    """A diagonal already holding two monuments next to the time card (a third row, D12)
    keeps them: the capacity of its decline slot is at least what is there now."""
    out = list(slots)
    for s in range(1, SPACES + 1):
        i = s - 1 + offset
        if i < len(out) and out[i].decline:
            occupied = len(st.space_monuments(s))
            if occupied > out[i].cap:
                sl = out[i]
                out[i] = Slot(sl.turn, sl.actions, sl.timeline, sl.decline, sl.ends,
                              sl.time_space, occupied)
    return out


# ------------------------------------------------------------------ the Timeline DAG

Node = tuple[Any, ...]


class TimelineGraph:
    """Where a monument placed in a space at a slot ends up, by the slides alone.

    Nodes ``(slot, space)``; a node of a slot whose decline moves monuments goes to
    ``(slot + 1, space - 1)`` or, from space 1, to ``("past", slot)``; in a slot whose decline
    is already done, to ``(slot + 1, space)``; in the slot that ends the game, to ``("end",)``.
    """

    def __init__(self, slots: tuple[Slot, ...]) -> None:
        import networkx as nx  # lazy: start-up time (networkx only when a graph is built)

        g: nx.DiGraph[Node] = nx.DiGraph()
        g.add_node(END)
        last = len(slots) - 1
        for i, sl in enumerate(slots):
            for s in range(1, VIRTUAL_SPACE + 1):
                node = (i, s)
                if sl.ends or i == last:
                    g.add_edge(node, END)
                elif sl.decline:
                    g.add_edge(node, ("past", i) if s == 1 else (i + 1, s - 1))
                else:
                    g.add_edge(node, (i + 1, s))
        self.graph = g
        self._fate: dict[Node, Node] = {}
        for node in reversed(list(nx.topological_sort(g))):
            succ = list(g.successors(node))
            self._fate[node] = node if not succ else self._fate[succ[0]]

    def fate(self, slot: int, space: int) -> Node:
        """The sink reached from ``(slot, space)``: ``("past", j)`` or ``("end",)``."""
        return self._fate[(slot, space)]

    def decline_slot(self, slot: int, space: int) -> int | None:
        """The slot in which a monument at ``(slot, space)`` declines, or None (stays)."""
        f = self.fate(slot, space)
        return None if f == END else int(f[1])


# ------------------------------------------------------------------ technology requirements

@dataclass(frozen=True)
class Need:
    """One ``>=`` clause of a requirement: `counter` must reach `value`."""

    counter: str
    value: int


class TechGraph:
    """Technologies, the counters their requirements read, and the counters they raise."""

    def __init__(self, book: CardBook, techs: Iterable[int]) -> None:
        import networkx as nx  # lazy: start-up time (networkx only when a graph is built)

        g: nx.DiGraph[str] = nx.DiGraph()
        self.book = book
        self.techs = sorted(techs)
        for t in self.techs:
            card = book.cards[t]
            node = _tech_node(card)
            g.add_node(node, tech=t)
            for clause in card.requirement:
                if clause.op in (">=", "=="):
                    g.add_edge(clause.counter, node, value=clause.value)
            for counter in raised_counters(card):
                g.add_edge(node, counter)
        self.graph = g

    def needs(self, tech: int) -> list[Need]:
        """The ``>=`` (and ``==``, read as ``>=``) clauses of a technology's requirement."""
        node = _tech_node(self.book.cards[tech])
        return [Need(str(c), int(d["value"])) for c, _, d in self.graph.in_edges(node, data=True)]

    def learnable(self, caps: Mapping[str, int], owned: Iterable[int], relax: int,
                  free_learns: int) -> list[int]:
        """Technologies whose requirement can be met when every counter not raised by
        technologies takes its cap, and each ``techs.*`` counter counts the `owned` technologies
        and those still in the set (besides the one learned). Iterated to a fixpoint: removing a
        technology lowers the counters it raises. With `free_learns` > 0 (Montguyon Dolmen, M34)
        nothing is removed. `relax` lowers every threshold (Candi Sukuh, P19, D19)."""
        alive = set(self.techs)
        if free_learns > 0:
            return sorted(alive)
        owned = list(owned)
        changed = True
        while changed:
            changed = False
            counts = self._tech_counts(alive, owned)
            for t in sorted(alive):
                card = self.book.cards[t]
                own = set(raised_counters(card))
                for need in self.needs(t):
                    if need.counter in counts:
                        have = counts[need.counter] - (1 if need.counter in own else 0)
                    else:
                        have = caps.get(need.counter, 10**6)
                    if have < need.value - relax:
                        alive.discard(t)
                        changed = True
                        break
        return sorted(alive)

    def _tech_counts(self, alive: set[int], owned: list[int]) -> dict[str, int]:
        counts: dict[str, int] = {}
        for t in [*alive, *owned]:
            for c in raised_counters(self.book.cards[t]):
                counts[c] = counts.get(c, 0) + 1
        for kind in TECH_TYPE_NAMES:
            counts.setdefault(f"techs.{kind}", 0)
        counts["techs.min_type"] = min(counts[f"techs.{k}"] for k in TECH_TYPE_NAMES)
        counts["techs.max_type"] = max(counts[f"techs.{k}"] for k in TECH_TYPE_NAMES)
        counts.setdefault("techs.any", 0)
        return counts


def _tech_node(card: Card) -> str:
    return "tech:" + card.code


def raised_counters(card: Card) -> tuple[str, ...]:
    """The ``techs.*`` counters a technology adds 1 to when learned."""
    return (f"techs.{TECH_TYPE_NAMES[card.kind]}", "techs.any")
