"""Technologies: which are learned, and their requirements (relaxation 7).

7. **Technologies.** Only those on the tiles or dealt by the refills the remaining departures
   can cause, in deck order (`reach.dealt_technologies`). A technology is learned only if its
   requirement holds for the *final* counters (Past and technology counts never go down, so a
   requirement met when learned still holds at the end; "at most" clauses are dropped; lost
   knowledge uses its largest possible value, artifacts every artifact ever on the board), or
   by a Learn that ignores requirements (M34). Candi Sukuh (P19) lowers every threshold by 1,
   but only where the model has it in the Timeline now or creates it (`candi_lowering`; D19
   lowers one value, so lowering all of them only widens the model). Learns are at most the
   Learn actions plus the granted Learns.
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


def choose_technologies(ctx: Context, monuments: Monuments,
                        candi_created: bool = True) -> Technologies:
    """A Boolean per technology that can still be learned (RULES.md section 5, Learn): those
    whose requirement the largest counters can meet (`schedule.TechGraph`), or any when some
    Learn may ignore requirements (M34): then learned <= requirement met + learned free. With
    `candi_created`, Candi Sukuh lowers requirements only where the model creates it
    (`candi_lowering`); else as soon as one can be reached."""
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
                        learned_free=learned_free,
                        lowered=candi_lowering(ctx, monuments) if candi_created else relax)


def candi_lowering(ctx: Context, monuments: Monuments) -> LinExpr:
    """1 when Candi Sukuh may lower a requirement (D19: at a Learn while it is in the
    Timeline): a card with that ability in the Timeline now gives 1; one that is not there
    lowers only if it is created from now on (a monument enters the Timeline only by a
    Create, RULES.md section 5), so the model's 0/1 is at most its creations. A reachable
    one the model does not follow (not among its monuments) gives 1, as before."""
    if not ctx.reach.candi:
        return 0
    candis = [c for c in ctx.reach.playable() if "candi_sukuh" in ctx.facts[c].specials]
    if any(c in monuments.space_now or c in ctx.state.limbo for c in candis):
        return 1
    if any(c not in monuments.created for c in candis if not ctx.cards[c].is_tech):
        return 1
    made = [monuments.created[c] for c in candis if not ctx.cards[c].is_tech]
    if not made:
        return 0
    low = ctx.model.new_bool_var("candi_lowers")
    ctx.model.add(low <= sum(made))
    return low


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
    low = techs.lowered  # 1 only if Candi Sukuh may be in the Timeline (`candi_lowering`)
    for t in techs.learnable:
        card = cards[t]
        req = techs.requirement_met[t]
        own = (f"techs.{TECH_TYPE_NAMES[card.kind]}", "techs.any")
        for clause in card.requirement:
            if clause.op == "<=":
                continue
            counter, value = clause.counter, clause.value
            if value <= 0:
                continue
            if counter.startswith(("past.", "techs.")) and counter in cnt:
                extra = 1 if counter in own else 0
                m.add(cnt[counter] >= (value + extra) * req - low)
            elif counter == "lost":
                m.add(final.lost_peak >= value * req - low)
            elif counter == "artifacts":
                m.add(final.artifacts_ever >= value * req - low)
            elif counter_cap(counter, ctx.pool_size) < value - relax:
                m.add(req == 0)
            elif counter_cap(counter, ctx.pool_size) < value:
                m.add(req <= low)


def require_hand(ctx: Context, techs: Technologies, entering: LinExpr) -> None:
    """Relaxation 7 for a requirement on the hand (Astrology T36: 10 cards in hand; RULES.md
    section 5, Learn: the requirement is met when you learn): the hand then holds at most the
    cards in it now plus every card that can still enter it (`entering`,
    `cardflow.through_hand`), so the technology is learned only if that
    reaches the requirement (one less with Candi Sukuh, D19). "At most" clauses are dropped."""
    m, cards = ctx.model, ctx.cards
    for t in techs.learnable:
        for clause in cards[t].requirement:
            if clause.counter == "hand" and clause.op == ">=" and clause.value > 0:
                m.add(entering >= clause.value * techs.requirement_met[t] - techs.lowered)
