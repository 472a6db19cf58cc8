"""How many builder cards can leave the deck until the Timeline phase begins, given the cards
that may enter play (`action_takes`; the rules it counts are `solver.bounds.takes`').

`solver.bounds.splitplay.closed_take` asks it again and again about one position, each round
with more cards that may enter play: what it reads of the position alone (the Past, the
technologies and their draws, the stack, the steps under way, the cities in the Timeline) is
worked out once (`TakeContext`) and only the builder cards of each round are counted anew.
"""

from __future__ import annotations

from solver.bounds.reachable import UNBOUNDED, Reach, ReachSummary
from solver.bounds.takes import DRAW_MAX, TakeTable, flight_takes
from solver.bounds.techtakes import TechTakes, tech_takes
from solver.engine.cards import CITY
from solver.engine.frames import (
    D_ACTION,
    D_EXCAVATE,
    D_KENSINGTON,
    F_EXCAVATE_DRAW,
    F_EXCAVATE_TRIGGERS,
)
from solver.engine.state import HAND_LIMIT, GameState


class TakeContext:
    """What `action_takes` reads of a position and of the technologies that may still enter
    the collection (`techs_open`, None: any), whatever cards enter play: its `TechTakes`
    (`tech`); the cards in play; the action choices and Excavates left; what the stack and the
    chests take (`flight_takes`); the room in the hand; the cities.
    `reach_summary`: the `ReachSummary` of the action phase that the rounds of
    `solver.bounds.splitplay.closed_take` read (kept here by the first of them); `rounds`:
    those rounds' cards and counts (kept by them)."""

    def __init__(self, st: GameState, table: TakeTable,
                 techs_open: frozenset[int] | None = None,
                 parts: dict[tuple[object, ...], TechTakes] | None = None) -> None:
        """`parts`: the `TechTakes` already worked out (`tech_takes`; e.g.
        `ReachMemo.tech_takes`)."""
        self.reach_summary: ReachSummary | None = None
        #: the rounds of `closed_take` worked out: by the count taken, the cards that may
        #: enter play and their `reach` (the same for every split)
        self.rounds: dict[int, tuple[set[int], Reach]] = {}
        self.tech = tech_takes(st, table.actors, techs_open, parts)
        self.in_play = set(st.in_play())
        actions = under_way = 0
        for fr in st.stack:
            kind = fr[0]
            if kind == D_ACTION:
                actions += 1
            elif kind in (D_EXCAVATE, F_EXCAVATE_TRIGGERS, F_EXCAVATE_DRAW, D_KENSINGTON):
                under_way += 1
        self.actions, self.under_way = actions, under_way
        self.flight, self.flight_out = flight_takes(st)
        self.room = max(0, HAND_LIMIT - len(st.hand))
        self.cities = -1
        if any(self.tech.tc):
            book = st.book
            self.cities = sum(1 for c in (*st.monuments(), *st.limbo)
                              if book.kinds[c] == CITY and not book.cards[c].is_tech)


def action_takes(st: GameState, table: TakeTable, r: Reach, present: set[int],
                 room: int | None = None, techs_open: frozenset[int] | None = None,
                 context: TakeContext | None = None) -> int:
    """The most builder cards that can leave the deck from `st` (in this turn's action phase,
    or with it over) until its Timeline phase begins, while only the builder cards of `present`
    enter play (`solver.bounds.takes`): `r` is `reach` over the rest of the action phase with
    the same cards. A builder card not in `present` never acts (a technology may: any not
    learned may be learned).

    Draws into the hand are bounded twice (the smaller counts): by what the actions and effects
    can draw, and by the hand (D4: it never holds more than 10, and it grows only by draws and
    kept looks, section 5): the room in it now plus the cards that can leave it (each Create
    its card and cost, each Archive action at most 10, each effect its discards and costs, each
    decision on the stack that removes cards from the hand at most 10). With few action choices
    left (`r.splits`), each split of them into Creates, Learns, Archives and others (Excavate,
    Search) is bounded on its own and the largest kept; a split's Creates are at most its
    Creates of monuments plus of artifacts less its Create actions (each Create action is of
    one kind, and `reach` counts it in both). `room`, when given, replaces the room in the hand
    now (a caller bounding several hands at once passes the most any of them has).
    `techs_open`, when given: the technologies that may still enter the collection (as
    `reach` is told); one not learned and not among them never acts. A technology's draw per
    city in the Timeline (Mystery School's) draws at most the cities there or between zones
    now plus the split's Creates of monuments (only a Create puts one there). `context`: the
    `TakeContext` of `st`, `table` and `techs_open`, when the caller keeps one."""
    if max(r.creates, r.art_creates, r.learns) >= UNBOUNDED:
        return UNBOUNDED
    ctx = context if context is not None else TakeContext(st, table, techs_open)
    tech = ctx.tech
    if tech.unbounded or ctx.flight >= UNBOUNDED:
        return UNBOUNDED
    past, in_play = tech.past, ctx.in_play
    outs = table.create_out
    create_out = 0
    for c in present:
        if 0 <= c < len(outs) and c not in in_play and outs[c] > create_out:
            create_out = outs[c]
    i0 = i1 = i2 = 0
    c0, c1, c2, l0, l1, l2, x0, x1, x2 = tech.tech_sums
    for a in table.actors:
        c = a[0]
        if a[1] or c in past or c not in present:
            continue
        i0, i1, i2 = max(i0, a[3]), max(i1, a[4]), max(i2, a[5])
        if a[2]:
            return UNBOUNDED
        c0 += a[6]
        c1 += a[7]
        c2 += a[8]
        l0 += a[9]
        l1 += a[10]
        l2 += a[11]
        x0 += a[12]
        x1 += a[13]
        x2 += a[14]
    top0, top1, top2 = tech.top0, tech.top1, tech.top2
    actions, under_way = ctx.actions, ctx.under_way
    flight, flight_out = ctx.flight, ctx.flight_out
    if room is None:
        room = ctx.room
    # (Creates, Learns, Archive actions, other actions, Creates of monuments) of each split
    cases: list[tuple[int, int, int, int, int]] = []
    if r.splits:
        for creating, _, other, mon, learns, art, _, _ in r.splits:
            for archives in range(other + 1):
                cases.append((mon + art - creating, learns, archives, other - archives, mon))
    else:  # every action counts as an Archive and as an Excavate
        cases.append((r.creates + r.art_creates, r.learns, actions, actions, r.creates))
    cities = ctx.cities
    best = 0
    for creates, learns, archives, digs, mon in cases:
        digs += under_way
        k = min(learns, len(tech.t0))
        if cities >= 0:
            top0 = tech.top_less(DRAW_MAX - min(DRAW_MAX, cities + mon))
        drawn = DRAW_MAX * digs + creates * (i0 + c0) + learns * l0 + top0[k] + digs * x0
        looked = creates * (i1 + c1) + learns * l1 + top1[k] + digs * x1
        out = (HAND_LIMIT * archives + creates * create_out + flight_out
               + creates * (i2 + c2) + learns * l2 + top2[k] + digs * x2)
        best = max(best, min(drawn, room + out) + looked + flight)
    return min(best, UNBOUNDED)
