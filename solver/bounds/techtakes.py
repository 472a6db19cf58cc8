"""What `solver.bounds.actiontakes.action_takes` reads of the Past, the technologies learned and
those that may still enter the collection (`TechTakes`), kept apart from the rest of a position
so that positions of one turn share it (`solver.bounds.reachable.ReachMemo.tech_takes` holds
them: this module imports neither, so the memo can name the type without an import loop).
"""

from __future__ import annotations

from typing import Final

from solver.engine.state import GameState

#: The most `TechTakes` a memo keeps (`tech_takes`)
TECH_TAKES_KEPT: Final = 4096


class TechTakes:
    """What `action_takes` reads of the Past, the technologies learned and those that may still
    enter the collection (`techs_open`, None: any): the cards in the Past; whether an actor out
    of the Past takes an unbounded count; each technology's (drawn, looked at, out of hand)
    when learned, for those not learned (`top0`, `top1`, `top2`: the sums of the largest 0, 1,
    2, ...; `tc` their city draws); the sums, per Create, Learn and Excavate, of the triggers
    of the technologies out of the Past (learned or not: a technology not learned may be
    learned). The Past and the collection change only at a decline and a Learn, so positions
    of one turn share one (`tech_takes`)."""

    def __init__(self, st: GameState, actors: tuple[tuple[int, ...], ...],
                 techs_open: frozenset[int] | None = None) -> None:
        """`actors`: `solver.bounds.takes.TakeTable.actors`."""
        past = set(st.past)
        techs = set(st.techs)
        self.past = past
        self.unbounded = False
        t0: list[int] = []
        t1: list[int] = []
        t2: list[int] = []
        tc: list[int] = []  # the city draws of each of t0
        sums = [0] * 9  # (drawn, looked at, out) on a Create, on a Learn, on an Excavate
        for a in actors:
            c = a[0]
            if c in past or not a[1]:
                continue
            if c not in techs:
                if techs_open is not None and c not in techs_open:
                    continue
                t0.append(a[3])
                t1.append(a[4])
                t2.append(a[5])
                tc.append(a[15])
            if a[2]:
                self.unbounded = True
            for k in range(9):
                sums[k] += a[6 + k]
        self.tech_sums = sums
        self.t0, self.tc = t0, tc
        self.top0, self.top1, self.top2 = prefix_sums(t0), prefix_sums(t1), prefix_sums(t2)
        #: `top0` by what a city draw takes less than 10 (filled as asked, `top_less`)
        self.tops: dict[int, list[int]] = {}

    def top_less(self, cut: int) -> list[int]:
        """`top0` with each technology's draws less its city draws times `cut`."""
        top = self.tops.get(cut)
        if top is None:
            top = prefix_sums([v - n * cut for v, n in zip(self.t0, self.tc, strict=True)])
            self.tops[cut] = top
        return top


def tech_takes(st: GameState, actors: tuple[tuple[int, ...], ...],
               techs_open: frozenset[int] | None,
               kept: dict[tuple[object, ...], TechTakes] | None = None) -> TechTakes:
    """The `TechTakes` of `st`: the one in `kept` for its Past, collection and `techs_open`,
    else a new one (added to `kept`, which holds at most `TECH_TAKES_KEPT`)."""
    if kept is None:
        return TechTakes(st, actors, techs_open)
    key = (tuple(st.past), tuple(st.techs), techs_open)
    part = kept.get(key)
    if part is None:
        part = TechTakes(st, actors, techs_open)
        if len(kept) >= TECH_TAKES_KEPT:
            kept.clear()
        kept[key] = part
    return part


def prefix_sums(values: list[int]) -> list[int]:
    """The sums of the 0, 1, 2, ... largest of `values`."""
    out = [0]
    for v in sorted(values, reverse=True):
        out.append(out[-1] + v)
    return out
