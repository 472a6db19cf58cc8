"""The technology row, the lost-knowledge row and the Past's end-game rules that read technology
counts, rated together after the last decline with a few Learns left (`solver.bounds.simple`):
a Learn adds one technology of one type, so it cannot raise every type count, take the best VP
and remove lost knowledge all at once (RULES.md sections 5 and 7, D22)."""

from __future__ import annotations

from typing import Final

from solver.bounds.activators import LOST, Activator
from solver.bounds.endrules import tier_vp
from solver.bounds.reachable import ReachMemo
from solver.bounds.techtakes import prefix_sums
from solver.engine import actions as A
from solver.engine.cards import Card
from solver.engine.frames import D_LEARN
from solver.engine.state import GameState

#: `few_learns` answers kept in a memo before it starts afresh.
TECH_ROWS_KEPT: Final = 1 << 14


def few_learns(st: GameState, tech_readers: frozenset[int],
               techs_by_vp: tuple[tuple[int, int], ...], learns: int,
               later: set[int] | None = None,
               removals: dict[int, int] | None = None,
               memo: ReachMemo | None = None) -> int | None:
    """The most the technology VP still to come plus the end-game rules of the Past that read
    technology counters can reach when at most `learns` more technologies can be learned and
    no monument can still decline (the Past is final: RULES.md section 4C, only a decline moves
    a card to the Past); None when such a rule reads another counter than those of
    `TYPE_COUNTS`.

    The collection then ends as it is or with up to `learns` technologies more (it never loses
    one). The counters of `TYPE_COUNTS` depend only on how many technologies of each type the
    collection holds, so for each count of new technologies by type the rules have one value
    and the technology row is at most the VP of the best ones of each type: the maximum over
    every such count (at most `learns` in all, no more of a type than there are candidates)
    bounds every line, instead of each row at its own best (a Learn adds 1 to one type's
    counter, not to all three). When every rule grows with its counter (`grows`) and no
    candidate is worth less than 0 VP, one technology more never lowers the value, so only
    the counts that learn as many as possible are rated. At the Learn itself with one Learn
    left (``D_LEARN`` on top) the technology is one of its options (section 5: an available
    technology whose requirement is met), so only those are candidates; elsewhere only those
    of `later` (`solver.bounds.simple`'s `_learnable_later`) when it is given. `tech_readers`:
    the pool's monuments whose end-game rule reads a technology counter; `techs_by_vp`: (VP,
    index) of the pool's technologies, highest VP first.

    With `removals` (`tech_removals`), each technology is worth its VP plus the lost knowledge
    its own effects remove (a point of the lost-knowledge row each, section 7): the caller
    then subtracts the lost knowledge left by every other removal.

    `memo` (one game's: `tech_readers` and `techs_by_vp` are its own) keeps the answers by
    what they read of `st`: the Past's readers, the collection, and at a Learn with one left
    its options."""
    if memo is None:
        return _few_learns(st, tech_readers, techs_by_vp, learns, later, removals)
    options = (tuple(st.legal_actions()) if learns == 1 and st.stack
               and st.stack[-1][0] == D_LEARN else None)
    key = (frozenset(c for c in st.past if c in tech_readers), frozenset(st.techs), learns,
           None if later is None else frozenset(later),
           None if removals is None else tuple(sorted(removals.items())), options)
    rows = memo.tech_rows
    if key in rows:
        return rows[key]
    value = _few_learns(st, tech_readers, techs_by_vp, learns, later, removals)
    if len(rows) >= TECH_ROWS_KEPT:
        rows.clear()
    rows[key] = value
    return value


def _few_learns(st: GameState, tech_readers: frozenset[int],
                techs_by_vp: tuple[tuple[int, int], ...], learns: int,
                later: set[int] | None, removals: dict[int, int] | None) -> int | None:
    """`few_learns` worked out (see there)."""
    cards = st.book.cards
    readers = [cards[c] for c in st.past if c in tech_readers]
    rules: list[tuple[str, int, tuple[tuple[int, int], ...] | None]] = []
    for card in readers:  # (counter, VP per unit, or the tiers): each rule reads one counter
        for e in card.effects:
            r = e.score
            if r is None:
                continue
            if r.per is not None and r.per in TYPE_COUNTS:
                rules.append((r.per, r.times, None))
            elif r.tiers and r.counter is not None and r.counter in TYPE_COUNTS:
                rules.append((r.counter, 0, r.tiers))
            else:
                return None  # a rule that reads something else: not bounded jointly here
    known = set(st.techs)
    pool: list[int] = [c for _, c in techs_by_vp  # highest VP first
                       if c not in known and (later is None or c in later)]
    if learns == 1 and st.stack and st.stack[-1][0] == D_LEARN:
        options = {A.value_of(a) for a in st.legal_actions() if A.kind_of(a) == A.CARD}
        pool = [c for c in pool if c in options]
    by_type: dict[int, list[int]] = {}  # type -> worth of its candidates
    for c in pool:
        kind = cards[c].kind
        worth = cards[c].vp + (removals.get(c, 0) if removals is not None else 0)
        by_type.setdefault(kind if 0 <= kind < 3 else 3, []).append(worth)
    monotone = all(grows(card) for card in readers) and all(
        v >= 0 for vps in by_type.values() for v in vps)
    now = [0, 0, 0]
    for t in st.techs:
        kind = cards[t].kind
        if 0 <= kind < 3:
            now[kind] += 1
    kinds = sorted(by_type)
    gains = [prefix_sums(by_type[k])[:learns + 1] for k in kinds]  # at most `learns` a type
    tops = [len(g) - 1 for g in gains]
    most = min(learns, sum(tops))
    best = -1
    for split in _splits(learns, tops):
        if monotone and sum(split) < most:
            continue  # one more of some type is worth at least as much
        counts = list(now)
        gain = 0
        for i, n in enumerate(split):
            gain += gains[i][n]
            if kinds[i] < 3:
                counts[kinds[i]] += n
        a, sec, w = counts
        value = {"techs.ancient": a, "techs.secret": sec, "techs.writing": w,
                 "techs.any": len(st.techs) + sum(split), "techs.min_type": min(counts),
                 "techs.max_type": max(counts)}
        worth = sum(times * value[counter] if tiers is None else tier_vp(tiers, value[counter])
                    for counter, times, tiers in rules)
        best = max(best, gain + worth)
    return best


#: The technology counters `few_learns` rates jointly: each depends only on how many
#: technologies of each type the collection holds (`solver.engine.conditions`).
TYPE_COUNTS: Final = frozenset({"techs.ancient", "techs.secret", "techs.writing", "techs.any",
                                "techs.min_type", "techs.max_type"})


def tech_removals(st: GameState, activators: tuple[Activator, ...]) -> dict[int, int] | None:
    """With no decline left: the lost knowledge each technology's own effects remove when it
    enters the collection (its immediate ``discard_lost`` steps, D22, with those whose
    condition needs more lost knowledge than there is now left out: lost knowledge never grows
    again, `solver.bounds.reachable`), as `solver.bounds.reachable` counts them; None when a
    technology removes lost knowledge at another moment (its removals are then not its own
    Learn's)."""
    out: dict[int, int] = {}
    for a in activators:
        if not a.tech:
            continue
        if a.unbounded or any(g[LOST] for g in (a.timeline, a.decline, a.on_create,
                                                a.on_excavate)):
            return None
        amount = a.immediate[LOST]
        for need, bucket, g in a.gated:
            if g[LOST] and bucket != "immediate":
                return None
            if need <= st.lost:
                amount += g[LOST]
        if amount:
            out[a.card] = amount
    return out


def grows(card: Card) -> bool:
    """Whether every end-game rule of `card` never falls as its counter grows ("k per
    thing" with k >= 0; tiers whose VP never falls as the threshold rises). The technology
    counters of `TYPE_COUNTS` never fall as one type's count grows, so with such rules (and
    technologies worth at least 0 VP) one more technology never lowers the joint bound."""
    for e in card.effects:
        r = e.score
        if r is None:
            continue
        if r.per is not None and r.times < 0:
            return False
        vps = [vp for _, vp in sorted(r.tiers)]
        if any(vps[i + 1] < vps[i] for i in range(len(vps) - 1)) or any(vp < 0 for vp in vps):
            return False
    return True


def _splits(total: int, tops: list[int]) -> list[tuple[int, ...]]:
    """Every tuple of counts, the i-th at most ``tops[i]``, summing to at most `total`."""
    out: list[tuple[int, ...]] = [()]
    for top in tops:
        out = [(*p, n) for p in out for n in range(min(top, total - sum(p)) + 1)]
    return out
