"""The objective: the five rows of the final score (relaxation 8).

8. **Scoring.** The five rows of section 7 on the final counters; an end-game rule ``k per X``
   is at most ``k * X`` and at most ``k * cap`` when the card reaches the Past; a tiered rule
   pays a tier only if its threshold is reached.
"""

from __future__ import annotations

from solver.bounds.cpsat.context import Context, LinExpr
from solver.bounds.cpsat.resources import counter_cap
from solver.bounds.cpsat.variables import FinalCounters, Monuments, Technologies, Var


def maximize_score(ctx: Context, monuments: Monuments, techs: Technologies,
                   final: FinalCounters) -> LinExpr:
    """Relaxation 8 (RULES.md section 7): printed VP of the Past monuments, their end-game
    rules, technologies' VP, +1 per Timeline monument, -1 per lost knowledge; the model
    maximizes it. The score is also the counter ``vp`` (for goals that read it)."""
    st, cards, cnt = ctx.state, ctx.cards, final.values
    past_vp = sum(cards[c].vp for c in st.past) + sum(cards[c].vp * monuments.in_past[c]
                                                      for c in monuments.cards)
    effects: list[LinExpr] = []
    for c in st.past:
        effects += _score_card(ctx, final, c, 1)
    for c in monuments.cards:
        if ctx.facts[c].scores:
            effects += _score_card(ctx, final, c, monuments.in_past[c])
    tech_vp = sum(cards[t].vp for t in st.techs) + sum(cards[t].vp * techs.learned[t]
                                                       for t in techs.learnable)
    vp = past_vp + sum(effects) + tech_vp + cnt["timeline.any"] - cnt["lost"]
    cnt["vp"] = vp
    ctx.model.maximize(vp)
    return vp


def _score_card(ctx: Context, final: FinalCounters, c: int, flag: LinExpr) -> list[LinExpr]:
    """An end-game rule of a (possibly) Past card, at most what the final counters pay."""
    m, cnt = ctx.model, final.values
    out: list[LinExpr] = []
    for k, r in enumerate(ctx.facts[c].scores):
        name = f"score_{ctx.cards[c].code}_{k}"
        if r.per is not None:
            cap = max(0, r.times * counter_cap(r.per, ctx.pool_size))
            v = m.new_int_var(0, cap, name)
            m.add(v <= r.times * cnt[r.per])
            m.add(v <= cap * flag)
            out.append(v)
        elif r.tiers and r.counter is not None:
            chosen: list[tuple[Var, int]] = []
            for i, (at_least, vp) in enumerate(r.tiers):
                b = m.new_bool_var(f"{name}_tier{i}")
                m.add(cnt[r.counter] >= at_least).only_enforce_if(b)
                chosen.append((b, vp))
            m.add(sum(b for b, _ in chosen) <= flag)
            out.append(sum(vp * b for b, vp in chosen))
        else:
            out.append(r.fixed * flag)
    return out
