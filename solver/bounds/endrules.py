"""The end-game rules of the Past at their best: the range each counter a rule reads can still
end in (`CounterRanges`) and a rule's most over that range (`effect_max`), for the simple
bound (`solver.bounds.simple`). End-game rules read the final position (RULES.md section 7).
"""

from __future__ import annotations

from typing import Final

from solver.engine.cards import Card
from solver.engine.conditions import count
from solver.engine.state import GameState

OTHER_CAP: Final = 60  # any other counter an end-game rule reads: a generous cap
TIMELINE_PLACES: Final = 12  # 6 spaces of 2 places (RULES.md section 2)


def reads_techs(card: Card) -> bool:
    """Whether an end-game rule of `card` reads a technology counter."""
    return any(e.score is not None and any(
        x is not None and x.startswith("techs.") for x in (e.score.per, e.score.counter))
        for e in card.effects)


class CounterRanges:
    """The range ``(lo, hi)`` each counter of an end-game rule can still end in (RULES.md
    section 7: rules read the final position): a Past count grows only by the declines still
    possible and never shrinks (the Past is never left); a technology count grows only by
    the Learns still reachable (the collection never loses one); a Timeline count grows only by
    Creates of monuments, and shrinks only by declines (none left: it cannot shrink); lost
    knowledge ends between its current value less the removals still reachable and its current
    value plus what declines can add (none left: it cannot grow). Any other counter: 0 to
    `OTHER_CAP`."""

    def __init__(self, st: GameState, declines: int, learns: int, creates: int, lost_lo: int,
                 lost_hi: int) -> None:
        self.st = st
        self.declines = declines
        self.learns = learns
        self.creates = creates
        self.lost = (lost_lo, lost_hi)
        self.known: dict[str, tuple[int, int]] = {}

    def of(self, counter: str, source: int) -> tuple[int, int]:
        if counter == "lost":
            return self.lost
        if counter.startswith(("past.", "techs.", "timeline.")):  # no source: read once
            known = self.known.get(counter)
            if known is None:
                known = self.known[counter] = self._range(counter, source)
            return known
        return self._range(counter, source)

    def _range(self, counter: str, source: int) -> tuple[int, int]:
        if counter.startswith("past."):
            now = count(self.st, counter, source)
            hi = now + self.declines
            if counter == "past.min_type":  # complete trios: a third of the Past at most
                hi = min(hi, (len(self.st.past) + self.declines) // 3)
            return now, hi
        if counter.startswith("techs."):
            now = count(self.st, counter, source)
            hi = now + self.learns
            if counter == "techs.min_type":
                hi = min(hi, (len(self.st.techs) + self.learns) // 3)
            return now, hi
        if counter.startswith("timeline."):
            now = count(self.st, counter, source)
            return (now if self.declines == 0 else 0,
                    min(TIMELINE_PLACES, now + self.creates))
        return 0, OTHER_CAP


def effect_max(card: Card, ranges: CounterRanges) -> int:
    """The most an end-game rule can be worth with its counter anywhere in its range: a rule
    "k per counted thing" at an end of the range; a tiered rule (the highest tier reached)
    changes value only at its thresholds, so its best is at an end of the range or at one of
    its thresholds inside it."""
    total = 0
    for e in card.effects:
        r = e.score
        if r is None:
            continue
        if r.per is not None:
            lo, hi = ranges.of(r.per, card.index)
            total += max(r.times * lo, r.times * hi)
        elif r.tiers and r.counter is not None:
            lo, hi = ranges.of(r.counter, card.index)
            points = [v for v in (lo, hi, *(t for t, _ in r.tiers)) if lo <= v <= hi]
            total += max(tier_vp(r.tiers, v) for v in points)
        elif r.tiers:
            total += max(vp for _, vp in r.tiers)
        else:
            total += r.fixed
    return total


def tier_vp(tiers: tuple[tuple[int, int], ...], value: int) -> int:
    """The VP of a tiered rule at `value` (`solver.engine.scoring.score_rule`)."""
    vp = 0
    for at_least, points in tiers:
        if value >= at_least:
            vp = points
    return vp
