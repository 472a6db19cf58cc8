"""Technologies: which are learned, and their requirements (relaxation 7).

7. **Technologies.** Only those on the tiles or dealt by the refills the remaining departures
   can cause, in deck order (`reach.dealt_technologies`). A technology is learned only if its
   requirement holds for the *final* counters (Past and technology counts never go down, so a
   requirement met when learned still holds at the end; "at most" clauses are dropped; lost
   knowledge uses its largest possible value, artifacts every artifact ever on the board), or
   by a Learn that ignores requirements (M34). Candi Sukuh (P19) lowers every threshold by 1.
   Learns are at most the Learn actions plus the granted Learns.
"""

from __future__ import annotations

from solver.bounds.cpsat.context import KIND_KEYS, Context, LinExpr
from solver.bounds.cpsat.resources import HAND_LIMIT, counter_cap
from solver.bounds.cpsat.schedule import END, TechGraph
from solver.bounds.cpsat.variables import (
    FinalCounters,
    Monuments,
    Technologies,
    TurnActions,
    Var,
)
from solver.engine.cards import MONUMENT_KINDS, TECH_TYPE_NAMES


def static_caps(ctx: Context, monuments: Monuments) -> dict[str, int]:
    """The largest value each Past counter can reach (for the requirement graph): every
    decline still possible (section 4C), all the knowledge that can still be lost."""
    st, cards = ctx.state, ctx.cards
    declines = sum(s.cap for s in ctx.slots if s.decline) + ctx.reach.entries
    can = [c for c in monuments.cards if any(f != END for f in monuments.routes[c])]
    caps = {}
    for k, name in zip(MONUMENT_KINDS, KIND_KEYS, strict=True):
        caps[f"past.{name}"] = st.count_past(k) + min(
            declines, sum(1 for c in can if cards[c].kind == k))
    caps["past.any"] = len(st.past) + min(declines, len(can))
    caps["past.max_type"] = max(caps[f"past.{n}"] for n in KIND_KEYS)
    caps["past.min_type"] = min(caps[f"past.{n}"] for n in KIND_KEYS)
    caps["past.endgame"] = caps["past.any"]
    caps["lost"] = st.lost + sum(st.tokens[c] for c in monuments.space_now) + sum(
        cards[c].knowledge for c in can if c not in monuments.space_now)
    caps["artifacts"] = 5
    caps["hand"] = HAND_LIMIT
    return caps


def choose_technologies(ctx: Context, monuments: Monuments) -> Technologies:
    """A Boolean per technology that can still be learned (RULES.md section 5, Learn): those
    whose requirement the largest counters can meet (`schedule.TechGraph`), or any when some
    Learn may ignore requirements (M34): then learned <= requirement met + learned free."""
    st, m, cards, facts = ctx.state, ctx.model, ctx.cards, ctx.facts
    tg = TechGraph(st.book, ctx.reach.techs)
    relax = 1 if ctx.reach.candi else 0
    free = ctx.chest_gains.learn_free + sum(
        facts[c].immediate.learn_free + facts[c].decline.learn_free
        + facts[c].timeline.learn_free + sum(g.learn_free for _, g in facts[c].triggers)
        for c in ctx.reach.playable())
    learnable = tg.learnable(static_caps(ctx, monuments), st.techs, relax, free)
    learned = {t: m.new_bool_var(f"z_{cards[t].code}") for t in learnable}
    learned_free: dict[int, Var] = {}
    requirement_met: dict[int, LinExpr]
    if free:  # some Learn may ignore the requirement (M34): z <= requirement met + free
        requirement_met = {t: m.new_bool_var(f"req_{cards[t].code}") if cards[t].requirement
                           else learned[t] for t in learnable}
        learned_free = {t: m.new_bool_var(f"free_{cards[t].code}") for t in learnable
                        if cards[t].requirement}
        for t, fv in learned_free.items():
            m.add(learned[t] <= requirement_met[t] + fv)
    else:
        requirement_met = dict(learned)
    return Technologies(learnable=learnable, learned=learned, requirement_met=requirement_met,
                        learned_free=learned_free)


def limit_learns(ctx: Context, techs: Technologies, turns: TurnActions,
                 gains: dict[str, LinExpr]) -> None:
    """Learns are at most the Learn actions plus the granted Learns (RULES.md section 5); those
    that ignore requirements at most the effects that grant them (M34)."""
    m = ctx.model
    m.add(sum(techs.learned.values()) <= sum(turns.learns) + gains["learn"])
    if techs.learned_free:
        m.add(sum(techs.learned_free.values()) <= gains["learn_free"])


def require_at_end(ctx: Context, techs: Technologies, final: FinalCounters) -> None:
    """Relaxation 7 (RULES.md section 5, Learn: a technology whose requirement you meet; D19
    for Candi Sukuh): a requirement met when learned still holds on the final monotone
    counters (Past, technologies, artifacts ever on the board, the highest lost knowledge);
    "at most" clauses and counters that go down are dropped. A technology's own type and
    ``techs.any`` count it too, so they need one more."""
    m, cards, cnt = ctx.model, ctx.cards, final.values
    relax = 1 if ctx.reach.candi else 0
    for t in techs.learnable:
        card = cards[t]
        req = techs.requirement_met[t]
        own = (f"techs.{TECH_TYPE_NAMES[card.kind]}", "techs.any")
        for clause in card.requirement:
            if clause.op == "<=":
                continue
            counter, value = clause.counter, clause.value - relax
            if value <= 0:
                continue
            if counter.startswith(("past.", "techs.")) and counter in cnt:
                extra = 1 if counter in own else 0
                m.add(cnt[counter] >= (value + extra) * req)
            elif counter == "lost":
                m.add(final.lost_peak >= value * req)
            elif counter == "artifacts":
                m.add(final.artifacts_ever >= value * req)
            elif counter_cap(counter, ctx.pool_size) < value:
                m.add(req == 0)
