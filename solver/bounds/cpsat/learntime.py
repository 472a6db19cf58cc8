"""Learns in time: when each technology is learned, and its requirement on that moment's
counts (relaxation 11).

11. **Learn time.** The rest of the game is cut into *learn points*: point ``j`` is the
    decline and technology phases of slot ``j - 1`` followed by the action and Timeline phases
    of slot ``j`` (a last point after the last slot only if its decline phase moves monuments;
    the game's last decline ends it at once, D8). Within a point the Past does not change and
    lost knowledge does not grow (both grow only in decline phases, RULES.md section 4C; a
    Learn in a decline phase is read on the counts after all of that phase's declines, an
    overestimate). Every technology whose requirement asks at least some Past or technology
    count (they never go down) or lost knowledge, not met already, gets one Boolean per
    point, "learned by then" (never going back to 0); the others are counted per type,
    learned by each point. Then:

    * **Learns per point** (RULES.md section 5, Learn, and the effects that grant one): at
      most the Learns granted by the decline effects of the monuments declining in slot
      ``j - 1`` (section 4C step 2: a decline effect applies as its monument declines), plus
      slot ``j``'s Learn actions, plus one Learn per Timeline grant that fires in slot ``j``'s
      Timeline phase (a Timeline effect fires once per Timeline phase of its card, section
      4B; at most its activations in all; only where its condition holds on the point's
      counts, and, with creation times, only once its card is created and, for a monument,
      not declined), plus a share of the untimed grants. The untimed grants (immediate
      effects at a Create, which may come in any phase; triggers; technologies' own effects;
      chests, usable at their moment; decline effects of cards that may discard themselves,
      C25-C29) are shared out freely over the points, at most their total.
    * **Requirements on the counts of the point** (section 5: "a technology whose requirement
      you meet", read when it is learned): point ``j`` sees the Past of now plus the declines
      of slots before ``j`` (the action and Timeline phases come before the decline phase,
      section 4; a Learn during slot ``j - 1``'s decline phase sees at most all of its
      declines); technologies count those owned now and those learned at that point or
      earlier (the technology itself included, as on the final counters); lost knowledge at a point
      is at most lost knowledge now plus the knowledge the monuments declined by then can carry
      (lost knowledge grows only at a decline, by the tokens on the declining monument, at most its
      printed or current knowledge: `solver.engine.decline`; a card discarded instead, C25-C29,
      reaches the Past only without knowledge, relaxation 6). "Most of a type" reads as the total,
      "fewest of a type" as every type. The counts never go down, so a requirement met when
      learned holds at every later point too: each clause is asked at every point of
      ``learned by then`` (the stronger linear form of the same rule: a fractional Learn
      cannot hide in the early points). A Learn that ignores requirements (M34) is exempt:
      each clause is asked of ``learned by then - learned free``. Candi Sukuh (D19) lowers
      each value by 1 where the model may have it in the Timeline
      (`technologies.candi_lowering`).
    * **"At most" lost knowledge** (Rosetta Stone, T37): lost knowledge when it is learned is
      at least lost knowledge now less every lost knowledge removed in the whole game (it only
      goes down by a removal, `step_discard_lost`), which the model's knowledge step
      (relaxation 6) writes as ``lost peak - lost final``.

    A real line maps every Learn to the point of its moment; each requirement it met then
    holds on the point's counts, which are at least the real counts (technologies learned at
    the same point all count, before or after it); so every line of the engine is a
    solution. Nothing here reads the hand, the artifacts or the Timeline:
    those clauses stay checked on the final counters (`technologies.require_at_end`).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.bounds.cpsat.context import KIND_KEYS, Context, LinExpr
from solver.bounds.cpsat.creation import CreationTimes
from solver.bounds.cpsat.schedule import END
from solver.bounds.cpsat.variables import (
    Effects,
    Knowledge,
    Monuments,
    Technologies,
    TurnActions,
    Var,
)
from solver.engine.cards import MONUMENT_KINDS, TECH_TYPE_NAMES, Card, Clause

PAST_KEYS = tuple(f"past.{k}" for k in KIND_KEYS) + ("past.any", "past.endgame")
TECH_KEYS = tuple(f"techs.{k}" for k in TECH_TYPE_NAMES) + ("techs.any",)
GROWING = frozenset((*PAST_KEYS, *TECH_KEYS, "past.min_type", "past.max_type", "techs.min_type",
                     "techs.max_type", "lost"))  # the counters read at a learn point


@dataclass(frozen=True)
class LearnTimes:
    """The learn points and what is learned at each.

    :param points: the number of learn points.
    :param timed: per technology whose requirement reads a growing count, one Boolean per
        point: learned at that point or earlier.
    :param others: per technology type, the other technologies of that type learned by each
        point.
    :param of_type: per technology type, every technology of that type learned by each point
        (from now on; those owned now not counted).
    :param in_decline: per slot, the most Learns its decline phase can hold: the Learns its
        declining monuments grant, plus every grant that is not timed (an immediate effect of a
        card a decline effect creates, a trigger, a technology's effect, a chest).
    """

    points: int
    timed: dict[int, list[Var]]
    others: dict[int, list[Var]]
    of_type: dict[int, list[LinExpr]]
    in_decline: list[LinExpr]


def learn_points(ctx: Context) -> int:
    """One point per slot (its actions and Timeline phase, after the previous slot's decline),
    and one more after the last slot if its decline phase moves monuments."""
    return ctx.n_slots + (1 if ctx.slots[-1].decline else 0)


def growing_clauses(card: Card, relax: int) -> list[tuple[str, int]]:
    """The "at least" clauses of a requirement on the Past or technology counts (which never
    go down) or on lost knowledge (whose most by each point is known), with their values
    less Candi Sukuh's 1 (`relax`, D19)."""
    out = []
    for cl in card.requirement:
        if cl.op == "<=":
            continue
        value = cl.value - relax
        if value > 0 and cl.counter in GROWING:
            out.append((cl.counter, value))
    return out


def _open_clauses(ctx: Context, card: Card, relax: int) -> list[tuple[str, int]]:
    """The growing clauses of a requirement that the counts of now do not already meet (one
    met now is met at every point: the point's count is at least the count of now, so its
    constraint would be void)."""
    st, cards = ctx.state, ctx.cards
    own = TECH_TYPE_NAMES[card.kind]

    def now(counter: str) -> int:
        if counter == "lost":
            return st.lost
        if counter in ("past.any", "past.max_type"):
            return len(st.past)
        if counter == "past.endgame":
            return sum(1 for c in st.past if cards[c].activation == "endgame")
        if counter == "past.min_type":
            return min(st.count_past(k) for k in MONUMENT_KINDS)
        if counter.startswith("past."):
            return st.count_past(MONUMENT_KINDS[KIND_KEYS.index(counter[5:])])
        per = [sum(1 for t in st.techs if cards[t].kind == k) + (1 if n == own else 0)
               for k, n in enumerate(TECH_TYPE_NAMES)]
        if counter == "techs.min_type":
            return min(per)
        if counter in ("techs.any", "techs.max_type"):
            return len(st.techs) + (1 if counter == "techs.any" else 0)
        return per[TECH_TYPE_NAMES.index(counter[6:])] if counter[6:] in TECH_TYPE_NAMES \
            else 0

    return [(c, v) for c, v in growing_clauses(card, relax)
            if now(c) < v + (1 if c in (f"techs.{own}", "techs.any") else 0)]


class _Counts:
    """Upper bounds on the growing counts at each learn point (see the module)."""

    def __init__(self, ctx: Context, monuments: Monuments, points: int) -> None:
        self.ctx, self.monuments, self.points = ctx, monuments, points
        self._past: dict[str, list[LinExpr]] = {}

    def _declined(self, key: str, weight: dict[int, int]) -> list[LinExpr]:
        """Per point, the weighted count of monuments declined by then (running totals)."""
        ctx, n = self.ctx, self.ctx.n_slots
        per: list[LinExpr] = [0] * n
        for c, w in weight.items():
            for fate, v in self.monuments.fate[c].items():
                if fate != END and w:
                    per[fate[1]] = per[fate[1]] + w * v
        top = max(1, sum(weight.values()))
        after = ctx.running_totals(per, f"lt_{key}_by", top)
        return [0] + [after[j - 1] for j in range(1, self.points)]

    def past(self, key: str) -> list[LinExpr]:
        """``past.<type>``, ``past.any`` or ``past.endgame`` at each point."""
        got = self._past.get(key)
        if got is not None:
            return got
        st, cards = self.ctx.state, self.ctx.cards
        mons = self.monuments.cards
        if key == "past.any":
            now, pick = len(st.past), list(mons)
        elif key == "past.endgame":
            now = sum(1 for c in st.past if cards[c].activation == "endgame")
            pick = [c for c in mons if cards[c].activation == "endgame"]
        else:
            k = MONUMENT_KINDS[KIND_KEYS.index(key.split(".")[1])]
            now, pick = st.count_past(k), [c for c in mons if cards[c].kind == k]
        got = [now + x for x in self._declined(key.replace(".", "_"), {c: 1 for c in pick})]
        self._past[key] = got
        return got

    def lost(self) -> list[LinExpr]:
        """Lost knowledge at each point, at most: now plus the knowledge on the monuments
        declined by then (current tokens, or printed knowledge; none for C25-C29)."""
        got = self._past.get("lost")
        if got is None:
            st, cards, mons = self.ctx.state, self.ctx.cards, self.monuments
            weight = {c: 0 if c in mons.vanished else
                      (st.tokens[c] if c in mons.space_now else cards[c].knowledge)
                      for c in mons.cards}
            got = [st.lost + x for x in self._declined("lost", weight)]
            self._past["lost"] = got
        return got


def learn_in_time(ctx: Context, techs: Technologies, turns: TurnActions,
                  monuments: Monuments, effects: Effects, knowledge: Knowledge,
                  times: CreationTimes | None) -> LearnTimes:
    """Relaxation 11 (see the module): learn points, Learns per point, and requirements on
    the counts of the point."""
    m, cards = ctx.model, ctx.cards
    st = ctx.state
    points = n_pts = learn_points(ctx)
    relax = 1 if ctx.reach.candi else 0  # Candi Sukuh may be reached (D19)
    counts = _Counts(ctx, monuments, points)
    timed: dict[int, list[Var]] = {}  # learned by point j (monotone in j)
    others_of: dict[int, list[int]] = {k: [] for k in range(len(TECH_TYPE_NAMES))}
    for t in techs.learnable:
        if _open_clauses(ctx, cards[t], relax):
            ys = [m.new_bool_var(f"lt_{cards[t].code}_by{j}") for j in range(n_pts)]
            for j in range(1, n_pts):
                m.add(ys[j - 1] <= ys[j])
            m.add(ys[-1] == techs.learned[t])
            timed[t] = ys
        else:
            others_of[cards[t].kind].append(t)
    others: dict[int, list[Var]] = {}  # per type, the others learned by point j
    for k, ts in others_of.items():
        if ts:
            us = [m.new_int_var(0, len(ts), f"lt_other{k}_by{j}") for j in range(n_pts)]
            for j in range(1, n_pts):
                m.add(us[j - 1] <= us[j])
            m.add(us[-1] == sum(techs.learned[t] for t in ts))
            others[k] = us

    tech_counts: dict[str, list[LinExpr]] = {}

    def tech_count(key: str) -> list[LinExpr]:
        """Technologies of a type (or of any) owned now or learned by each point."""
        got = tech_counts.get(key)
        if got is None:
            kinds = range(len(TECH_TYPE_NAMES)) if key == "techs.any" else \
                [TECH_TYPE_NAMES.index(key.split(".")[1])]
            owned = sum(1 for t in st.techs if cards[t].kind in kinds)
            got = [ctx.as_var(owned + sum(ys[j] for t, ys in timed.items()
                                          if cards[t].kind in kinds)
                              + sum(others[k][j] for k in kinds if k in others),
                              f"lt_{key.replace('.', '_')}_by{j}") for j in range(n_pts)]
            tech_counts[key] = got
        return got

    in_decline = _grant_learns(ctx, techs, turns, monuments, effects, times, counts, points,
                               timed, others)

    # Requirements on the counts of the point, asked at every point from the one it is
    # learned at (the counts never go down: the stronger linear form of the same rule).
    for t, ys in timed.items():
        card = cards[t]
        free = techs.learned_free.get(t, 0)
        own = f"techs.{TECH_TYPE_NAMES[card.kind]}"
        for counter, value in _open_clauses(ctx, card, relax):
            # the value as printed, less 1 only where the model has Candi Sukuh in the
            # Timeline (`techs.lowered`, 0 when none can be reached)
            for j, y in enumerate(ys):
                z = y - free
                for cnt, need in _reads(counter, value + relax, own, counts, tech_count):
                    m.add(cnt[j] >= need * z - techs.lowered)
    _at_most_lost(ctx, techs, knowledge)
    of_type = {k: [sum(ys[j] for t, ys in timed.items() if cards[t].kind == k)
                   + (others[k][j] if k in others else 0) for j in range(n_pts)]
               for k in range(len(TECH_TYPE_NAMES))}
    return LearnTimes(points=points, timed=timed, others=others, of_type=of_type,
                      in_decline=in_decline)


def _reads(counter: str, value: int, own: str, counts: _Counts,
           tech_count: object) -> list[tuple[list[LinExpr], int]]:
    """The (count per point, least value) pairs a growing clause asks of a technology learned
    at a point: a technology's own type and ``techs.any`` count it too (one more)."""
    assert callable(tech_count)
    if counter in PAST_KEYS:
        return [(counts.past(counter), value)]
    if counter == "past.min_type":
        return [(counts.past(f"past.{k}"), value) for k in KIND_KEYS]
    if counter == "past.max_type":
        return [(counts.past("past.any"), value)]
    if counter == "lost":
        return [(counts.lost(), value)]
    if counter in TECH_KEYS:
        extra = 1 if counter in (own, "techs.any") else 0
        return [(tech_count(counter), value + extra)]
    if counter == "techs.min_type":
        return [(tech_count(f"techs.{k}"), value + (1 if f"techs.{k}" == own else 0))
                for k in TECH_TYPE_NAMES]
    if counter == "techs.max_type":
        return [(tech_count("techs.any"), value)]
    return []


def _grant_learns(ctx: Context, techs: Technologies, turns: TurnActions,
                  monuments: Monuments, effects: Effects, times: CreationTimes | None,
                  counts: _Counts, points: int, timed: dict[int, list[Var]],
                  others: dict[int, list[Var]]) -> list[LinExpr]:
    """Learns per point (see the module): the previous slot's decline grants, the slot's
    Learn actions and Timeline grants, and the untimed grants shared out freely. Returns,
    per slot, its decline grants plus the untimed grants (`LearnTimes.in_decline`)."""
    m, cards, slots = ctx.model, ctx.cards, ctx.slots
    by_point: list[LinExpr] = [0] * points  # learned by each point
    for ys in [*timed.values(), *others.values()]:
        by_point = [a + y for a, y in zip(by_point, ys, strict=True)]
    at_point = [by_point[0]] + [by_point[j] - by_point[j - 1] for j in range(1, points)]
    grants: list[LinExpr] = [turns.learns[i] for i in range(len(slots))] + [0] * (
        points - len(slots))
    untimed: LinExpr = 0
    declining: list[LinExpr] = [0] * len(slots)  # per slot, its decline grants
    top = len(techs.learnable)
    for card, moment, k, act in effects.learning:
        if (moment == "decline" and card in monuments.fate and card not in monuments.vanished
                and all(f[1] + 1 < points for f in monuments.fate[card] if f != END)):
            for fate, v in monuments.fate[card].items():
                if fate != END:
                    grants[fate[1] + 1] = grants[fate[1] + 1] + k * v
                    declining[fate[1]] = declining[fate[1]] + k * v
        elif moment == "timeline" and card >= 0:
            condition = _timeline_condition(ctx, card)
            fires: list[Var] = []
            for i, sl in enumerate(slots):
                if not sl.timeline:
                    continue
                b = m.new_bool_var(f"lt_fires_{cards[card].code}_{i}")
                for cl in condition:
                    for cnt, need in _reads(cl.counter, cl.value, "", counts, lambda _: [0]):
                        m.add(cnt[i] >= need * b)
                in_play = _in_play(ctx, times, monuments, card, i)
                if in_play is not None:
                    m.add(b <= in_play)
                grants[i] = grants[i] + k * b
                fires.append(b)
            if fires:
                m.add(sum(fires) <= act)
        else:
            untimed = untimed + k * act
    share: list[LinExpr] = [0] * points
    if not isinstance(untimed, int) or untimed:
        share = [m.new_int_var(0, top, f"lt_share{j}") for j in range(points)]
        m.add(sum(share) <= untimed)
    for j in range(points):
        if not isinstance(at_point[j], int):
            m.add(at_point[j] <= grants[j] + share[j])
    return [d + untimed for d in declining]


def _timeline_condition(ctx: Context, card: int) -> list[Clause]:
    """The growing "at least" clauses (Past, lost knowledge) of a card's Timeline effect that
    grants Learns, when it has exactly one (else none: no condition is assumed)."""
    parts = [e for e, g in ctx.facts[card].parts if e.moment == "timeline" and g.learn
             and e.trigger is None]
    if len(parts) != 1:
        return []
    return [cl for cl in parts[0].condition if cl.op in (">=", "==") and cl.value > 0
            and cl.counter in GROWING and not cl.counter.startswith("techs.")]


def _in_play(ctx: Context, times: CreationTimes | None, monuments: Monuments, card: int,
             i: int) -> LinExpr | None:
    """With creation times, 1 if `card` can be in play in slot `i`'s Timeline phase: created
    by then and, for a monument, not declined earlier (a card in play now: always); None when
    its creation is not timed."""
    if card in monuments.space_now or card in ctx.reach.on_board:
        return None
    if times is None or (card not in times.monuments and card not in times.artifacts):
        return None
    gone = sum(v for f, v in monuments.fate.get(card, {}).items() if f != END and f[1] < i)
    return times.by(card, i) - gone


def _at_most_lost(ctx: Context, techs: Technologies, knowledge: Knowledge) -> None:
    """An "at most N lost knowledge" clause (T37): lost knowledge when learned is at least
    lost knowledge now less all that is removed in the game (``lost peak - lost final``); a
    free Learn (M34) is exempt. The same rule for an effect's condition:
    `effects.lost_comes_down`."""
    m, st = ctx.model, ctx.state
    for t in techs.learnable:
        for cl in ctx.cards[t].requirement:
            if cl.counter != "lost" or cl.op != "<=" or st.lost <= cl.value:
                continue
            removed = knowledge.lost_peak - knowledge.lost_final
            free = techs.learned_free.get(t, 0)
            m.add(st.lost - removed - cl.value
                  <= (st.lost - cl.value) * (1 - techs.learned[t] + free))
