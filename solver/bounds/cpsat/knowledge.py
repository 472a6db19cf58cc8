"""Knowledge on the declining monuments, and lost knowledge (relaxation 6).

6. **Knowledge.** Declining monuments hold, all together, at least their entering knowledge
   (printed, less the largest discount and every reducer that can be in play) minus every
   removal (archived cards and removal effects at their most), and at most their printed (or
   current) knowledge. Lost knowledge = lost now + knowledge of declined monuments - lost
   knowledge removed (never below 0). C25-C29 reach the Past only with all knowledge removed.
"""

from __future__ import annotations

from solver.bounds.cpsat.context import Context, LinExpr
from solver.bounds.cpsat.resources import counter_cap
from solver.bounds.cpsat.variables import (
    Draws,
    Effects,
    Knowledge,
    Monuments,
    Specials,
    TurnActions,
    Var,
)
from solver.engine.cards import Card


def largest_discount(card: Card, pool_size: int) -> int:
    """The most knowledge a card's own discounts can take off at its Create (section 5)."""
    cut = 0
    for e in card.effects:
        d = e.discount
        if d is not None:
            cut += d.fixed if d.per is None else d.times * counter_cap(d.per, pool_size)
    return cut


def lose_knowledge(ctx: Context, monuments: Monuments, turns: TurnActions,
                   archived_by_effects: Var, effects: Effects, specials: Specials,
                   draws: Draws) -> Knowledge:
    """Relaxation 6 (RULES.md sections 4C step 2 and 5, D2): knowledge on declining monuments,
    in aggregate: at least the entering knowledge of each less all removals used, at most the
    printed (or current) knowledge; a card that vanishes with knowledge (C25-C29) reaches the
    Past only with all of it removed. Elongated Skulls draws at most 2 cards per 3 knowledge
    converted."""
    st, m, cards = ctx.state, ctx.model, ctx.cards
    reducers: list[tuple[int, int, int]] = []  # (card, monument type or -1, amount)
    for x in ctx.reach.playable():
        for e in cards[x].effects:
            r = e.reduction
            if r is not None:
                reducers.append((x, -1 if r.monument_type is None else r.monument_type,
                                 r.amount))
    low: list[LinExpr] = []
    high: list[LinExpr] = []
    need: list[LinExpr] = []
    for c in monuments.cards:
        card = cards[c]
        if c in monuments.space_now:
            kmax = kmin = st.tokens[c]
        else:
            kmax = card.knowledge
            cut = largest_discount(card, ctx.pool_size) + sum(
                a for x, t, a in reducers if x != c and t in (-1, card.kind))
            kmin = max(0, kmax - cut)
        in_past = monuments.in_past[c]
        if kmin:
            low.append(kmin * in_past)
        if c in monuments.vanished:
            if kmin:
                need.append(kmin * in_past)
        elif kmax:
            high.append(kmax * in_past)
    removal = (sum(turns.archived) + archived_by_effects + effects.gains["remove"]
               + 6 * specials.kensington)
    top = sum(st.tokens[c] for c in monuments.space_now) + sum(cards[c].knowledge
                                                               for c in monuments.new)
    removed = m.new_int_var(0, top, "removed")
    m.add(removed <= removal)
    if need:
        m.add(removed >= sum(need))
    converted = m.new_int_var(0, top, "converted")
    m.add(converted <= sum(high) if high else converted == 0)
    if low:
        m.add(converted >= sum(low) - removed)
    lost_peak = st.lost + converted
    lost_final = m.new_int_var(0, st.lost + top, "lost_final")
    lost_removed = m.new_int_var(0, st.lost + top, "lost_removed")
    m.add(lost_removed <= effects.gains["lost"])
    m.add(st.lost + converted - lost_removed == lost_final)
    if specials.elongated_skulls:
        now = st.converted if ctx.phase.declining else 0
        m.add(2 * (converted + now) >= 3 * draws.elongated)
        m.add(10**4 * sum(specials.elongated_skulls) >= draws.elongated)
    else:
        m.add(draws.elongated == 0)
    return Knowledge(converted=converted, lost_peak=lost_peak, lost_final=lost_final)
