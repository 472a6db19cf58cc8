"""Card effects: how often each can fire and what it yields at most (relaxation 5, effects).

5. **Effects** (the second half of relaxation 5; actions: `solver.bounds.cpsat.turns`).
   Effects give at most their printed gains per activation
   (`solver.bounds.cpsat.resources`): immediate ones once per creation (or Learn), decline ones
   once per decline, Timeline ones once per Timeline phase in play (at most 6 by the slides
   alone; at most 12 monuments and the free artifact spaces are in play at a phase), triggers
   once per event while in play (`activate_effects`); an effect with a price in cards from the
   hand yields only where paid, and the cards paid leave the hand (`paid_from_hand`). An
   effect whose condition reads a counter that never goes down fires only if the final
   counter meets it (`link_conditions`); one that needs monuments in the Timeline only if
   those there now and those still to be created are enough (`created_into`); one gated on
   "at most N lost knowledge" only if the effects that discard lost knowledge can bring it
   down to N (`lost_comes_down`); and a Timeline effect (or Poulnabrone's extra Create, M36)
   that needs a Past count fires only in turns where the Past already reached it
   (`solver.bounds.cpsat.timing`).
"""

from __future__ import annotations

from dataclasses import fields, replace

from solver.bounds.cpsat.artifacts import artifact_spaces
from solver.bounds.cpsat.context import KIND_KEYS, Context, LinExpr
from solver.bounds.cpsat.facts import grows_by_creation, is_monotone
from solver.bounds.cpsat.fates import landings
from solver.bounds.cpsat.resources import Gains, hand_payment, typed_payment
from solver.bounds.cpsat.schedule import END, SPACES
from solver.bounds.cpsat.variables import (
    Artifacts,
    Effects,
    Events,
    FinalCounters,
    Monuments,
    Specials,
    Technologies,
    TurnActions,
    Var,
)
from solver.engine.cards import (
    ARTIFACT,
    MONUMENT_KINDS,
    TECH_TYPE_NAMES,
    Clause,
    Effect,
    all_steps,
)

POOLS = tuple(f.name for f in fields(Gains))


def count_events(ctx: Context, monuments: Monuments, techs: Technologies) -> Events:
    """The events that triggered effects count (RULES.md section 5: "each time you LEARN /
    CREATE"): Learns (in all and per technology type) and monument creations (per type and
    in all)."""
    cards, learned = ctx.cards, techs.learned
    learns_of_type = {k: ctx.as_var(sum(learned[t] for t in techs.learnable
                                        if cards[t].kind == k), f"learned_{name}")
                      for k, name in enumerate(TECH_TYPE_NAMES)}
    learns = ctx.as_var(sum(learned.values()), "learned")
    of_kind = {k: ctx.as_var(sum(monuments.created[c] for c in monuments.cards
                                 if cards[c].kind == k), f"created_{name}")
               for k, name in zip(MONUMENT_KINDS, KIND_KEYS, strict=True)}
    total = ctx.as_var(sum(of_kind.values()), "created_monuments")
    return Events(learns_of_type=learns_of_type, learns=learns, monuments_of_kind=of_kind,
                  monuments_created=total)


class _Activations:
    """The activation variables of the effects, with the condition literals they need."""

    def __init__(self, ctx: Context, monuments: Monuments, artifacts: Artifacts,
                 techs: Technologies, events: Events, turns: TurnActions,
                 reshuffle: Var | None) -> None:
        self.ctx, self.monuments, self.artifacts = ctx, monuments, artifacts
        self.techs, self.events, self.turns, self.reshuffle = techs, events, turns, reshuffle
        self.conditions: list[tuple[Var, Effect]] = []
        self.in_play: dict[int, LinExpr] = {}

    def reads(self, clause: Clause) -> bool:
        """Whether the model gates an effect on `clause` (`link_conditions`): one that can
        only grow, or one on the Timeline that the Timeline does not meet now (`needs`)."""
        return is_monotone(clause) or any(
            now < need for now, _, need in needs(self.ctx, self.monuments, self.events, clause))

    def gated(self, base: LinExpr, top: int, e: Effect, name: str) -> LinExpr:
        """The activations of effect `e`: at most `base`, and none unless its condition can
        hold at the end (see `activate_effects`)."""
        if not any(self.reads(c) for c in e.condition):
            return base
        m = self.ctx.model
        b = m.new_bool_var(f"cond_{name}")
        act = m.new_int_var(0, max(1, top), f"act_{name}")
        m.add(act <= base)
        m.add(act <= max(1, top) * b)
        self.conditions.append((b, e))
        return act

    def timeline(self, base: LinExpr, phases: int, e: Effect, name: str) -> Var:
        """The activations of a Timeline effect as a variable: at most `base`, at most once
        per Timeline phase (one card is in play once at a time, RULES.md section 4B), and
        gated on its condition as `gated`; `creation.timeline_in_play` bounds it by the
        phases its card is in play."""
        m = self.ctx.model
        act = m.new_int_var(0, max(1, phases), f"act_{name}")
        m.add(act <= base)
        gated = self.gated(act, phases, e, f"{name}_tl")
        if gated is not act:
            m.add(act == gated)
        return act

    def triggered(self, c: int, e: Effect, name: str) -> Var:
        """A triggered effect fires at most once per event, and only while its card is in
        play (RULES.md section 5: "each time you CREATE / LEARN / EXCAVATE")."""
        m, actions = self.ctx.model, self.ctx.actions_left
        arts, ev = self.artifacts, self.events
        t = e.trigger
        assert t is not None
        events: LinExpr
        lives = 1 + (actions if self.reshuffle is not None else 0)
        if t.event == "learn":
            events = ev.learns if t.tech_type is None else ev.learns_of_type[t.tech_type]
            top = len(self.techs.learnable)
        elif t.event == "excavate":
            events = sum(self.turns.excavations)
            top = actions
        elif t.kind == ARTIFACT:
            events = arts.created_total
            top = len(arts.new) * lives + len(arts.created_again) * actions
        elif t.spaces:
            events = landings(self.ctx, self.monuments, t.spaces, t.monument_type)
            top = len(self.monuments.cards) * lives
        else:
            events = ev.monuments_created if t.monument_type is None \
                else ev.monuments_of_kind[t.monument_type]
            top = len(self.monuments.cards) * lives
            if t.kind is None:
                events = events + arts.created_total
                top += len(arts.new) * lives + len(arts.created_again) * actions
        top = max(1, top)
        act = m.new_int_var(0, top, f"trig_{name}")
        m.add(act <= events)
        m.add(act <= top * self.in_play[c])
        if any(self.reads(cl) for cl in e.condition):
            b = m.new_bool_var(f"cond_{name}")
            m.add(act <= top * b)
            self.conditions.append((b, e))
        return act

    def timeline_phases(self, c: int, flexible: bool) -> int:
        """Timeline phases a monument can spend in the Timeline: from its creation (or now) to
        its decline, at most 6 by the slides alone (RULES.md section 4C step 3)."""
        sch = self.ctx.schedule
        phases = sch.timeline_phases
        if flexible:
            return phases
        space_now = self.monuments.space_now
        if c in space_now:
            j = sch.graph.decline_slot(0, space_now[c])
            return phases if j is None else sch.timeline_phases_through(j)
        return min(SPACES, phases)


def activate_effects(ctx: Context, monuments: Monuments, artifacts: Artifacts,
                     techs: Technologies, events: Events, turns: TurnActions,
                     reshuffle: Var | None, per_phase: bool = False) -> Effects:
    """Sum, over every card that can be in play, its gains times its activations.

    Activations (RULES.md sections 4B, 4C, 5): an immediate effect once per creation (per
    Learn for a technology); a decline effect once per decline; a Timeline effect once per
    Timeline phase in play (at most 6 by the slides alone, and at most 12 monuments and the
    free artifact spaces in play per phase); a trigger once per event while in play. An effect
    whose condition reads a counter that never goes down (Past, technologies, artifacts ever
    on the board, the highest lost knowledge) fires only if the final counter meets it. The
    draws of an unconditional decline effect are counted in its decline slot. With `per_phase`
    (always sound; used near the end and with creation times, relaxation 10), each Timeline
    effect's activations are a variable, at most one per Timeline phase (one card is in play
    once at a time, even one created again after a reshuffle). An effect with a price in cards
    from the hand (`resources.hand_payment`) yields only in the activations paid
    (`paid_from_hand`)."""
    st, m, cards, facts, sch = ctx.state, ctx.model, ctx.cards, ctx.facts, ctx.schedule
    actions, phases = ctx.actions_left, sch.timeline_phases
    pool: dict[str, list[LinExpr]] = {k: [] for k in POOLS}
    timed: list[tuple[LinExpr, Effect, str]] = []  # Timeline effects: (activations, ...)
    builders = len(st.deck) + len(st.discard)

    granting: list[tuple[int, str, int, LinExpr]] = []
    learning: list[tuple[int, str, int, LinExpr]] = []
    drawing: list[tuple[int, str, int, LinExpr, Effect | None]] = []
    late_lost: list[LinExpr] = []  # lost knowledge removed by effects other than declines'
    paid: list[LinExpr] = []  # cards paid from the hand by effects with a price
    paid_by_type: dict[int, list[LinExpr]] = {}  # the same, of one card type (A7)

    def add(g: Gains, act: LinExpr, card: int = -1, moment: str = "",
            e: Effect | None = None) -> None:
        if e is not None:
            act = paid_from_hand(ctx, e, act, paid, paid_by_type)
        if g.depth > builders:  # a reveal through the whole deck (P33) digs no deeper
            g = replace(g, depth=builders)
        if g.create_mon or g.create_art:
            granting.append((card, moment, g.create_mon + g.create_art, act))
        if g.learn:
            learning.append((card, moment, g.learn, act))
        if g.draw:
            drawing.append((card, moment, g.draw, act, e))
        if g.lost and moment != "decline":
            late_lost.append(g.lost * act)
        for key in POOLS:
            v = getattr(g, key)
            if v:
                pool[key].append(v * act)

    add(ctx.chest_gains, 1)
    decline_draws: dict[int, list[LinExpr]] = {j: [] for j in sch.decline_slots}
    decline_depth: dict[int, list[LinExpr]] = {j: [] for j in sch.decline_slots}
    flexible = ctx.reach.movers or ctx.reach.potala
    acts = _Activations(ctx, monuments, artifacts, techs, events, turns, reshuffle)
    in_play = acts.in_play
    tl_mon: list[LinExpr] = []
    tl_art: list[LinExpr] = []
    freed_by_paying: list[LinExpr] = []
    reveals: list[tuple[int, int, Var]] = []
    for c in monuments.cards:
        f = facts[c]
        created = monuments.created[c]
        in_play[c] = created + (1 if c in monuments.space_now else 0)
        for k, (e, g) in enumerate(f.parts):
            name = f"{cards[c].code}_{k}"
            if e.trigger is not None:
                act = acts.triggered(c, e, name)
            elif e.moment == "immediate":
                act = acts.gated(created, actions + 1, e, name)
            elif e.moment == "decline":
                if not e.condition and c not in monuments.vanished and (g.draw or g.depth):
                    g = replace(g, depth=min(g.depth, builders))
                    reveal = any(s.op == "reveal_until" for s in all_steps(e.steps))
                    for fate, v in monuments.fate[c].items():
                        if fate != END:
                            decline_draws[fate[1]].append(g.draw * v)
                            if reveal:  # a variable: `deckorder.bound_reveals`
                                d = m.new_int_var(0, g.depth, f"reveal_{name}_{fate[1]}")
                                m.add(d <= g.depth * v)
                                reveals.append((c, fate[1], d))
                                decline_depth[fate[1]].append(d)
                            else:
                                decline_depth[fate[1]].append(g.depth * v)
                    g = replace(g, draw=0, depth=0)
                act = acts.gated(monuments.in_past[c] + monuments.vanished.get(c, 0),
                                 actions + 2, e, name)
            elif e.moment == "timeline":
                cap = acts.timeline_phases(c, flexible)
                act = acts.timeline(cap * in_play[c], phases, e, name) if per_phase \
                    else acts.gated(cap * in_play[c], cap * (actions + 2), e, name)
                tl_mon.append(act)
                timed.append((act, e, name))
            else:
                continue
            add(g, act, c, "trigger" if e.trigger is not None else e.moment, e)
            if f.frees_artifacts and e.moment != "timeline":
                freed_by_paying.append(5 * act)
    for a in ctx.reach.on_board + artifacts.new:
        made = artifacts.created.get(a, 0) + artifacts.created_again.get(a, 0)
        in_play[a] = made + (1 if a in ctx.reach.on_board else 0)
        for k, (e, g) in enumerate(facts[a].parts):
            name = f"{cards[a].code}_{k}"
            if e.trigger is not None:
                act = acts.triggered(a, e, name)
            elif e.moment == "immediate":
                act = acts.gated(made, actions + 1, e, name)
            elif e.moment == "timeline":
                act = acts.timeline(phases * in_play[a], phases, e, name) if per_phase \
                    else acts.gated(phases * in_play[a], phases * (actions + 2), e, name)
                tl_art.append(act)
                timed.append((act, e, name))
            else:
                continue
            add(g, act, a, "trigger" if e.trigger is not None else e.moment, e)
    for t in techs.learnable:
        for k, (e, g) in enumerate(facts[t].parts):
            if e.moment == "immediate" and e.trigger is None:
                name = f"{cards[t].code}_{k}"
                act = acts.gated(techs.learned[t], 1, e, name)
                most = timeline_draws_most(ctx, e, monuments, events)
                if most is None or not g.draw:
                    add(g, act, t, "learn", e)
                    continue
                # Mystery School (T13): 1 card per city in the Timeline when learned; the
                # pools get its bounded draws, `drawing` keeps the most per Learn (handtime)
                d = m.new_int_var(0, g.draw, f"draws_{name}")
                m.add(d <= g.draw * act)
                m.add(d <= most)
                add(replace(g, draw=0, depth=0), act, t, "learn", e)
                pool["draw"].append(d)
                pool["depth"].append(d)
                drawing.append((t, "learn", g.draw, act, e))
    # At most 12 monuments and the free artifact spaces are in play at each Timeline phase.
    if tl_mon:
        m.add(sum(tl_mon) <= 2 * SPACES * phases)
    if tl_art:
        m.add(sum(tl_art) <= artifact_spaces(ctx) * phases)
    return Effects(gains={k: sum(v) if v else 0 for k, v in pool.items()},
                   conditions=acts.conditions, timed=timed, decline_draws=decline_draws,
                   decline_depth=decline_depth, in_play=in_play,
                   freed_by_paying=freed_by_paying, granting=granting, learning=learning,
                   drawing=drawing, reveals=reveals, late_lost=sum(late_lost),
                   paid_from_hand=sum(paid),
                   paid_by_type={k: sum(v) for k, v in paid_by_type.items()})


def paid_from_hand(ctx: Context, e: Effect, act: LinExpr, paid: list[LinExpr],
                   paid_by_type: dict[int, list[LinExpr]]) -> LinExpr:
    """The activations of effect `e` that yield: all of `act`, or for an effect with a price of
    N cards from the hand only those paid, a variable at most `act`. An activation not paid
    yields nothing (the engine's `costs.step_pay`), so a line's paid activations are a value
    of the variable. The N cards each are added to `paid` where the effect's draws do not net
    them (`resources.hand_payment`: Planetary Stone, A3; they leave the hand:
    `cardflow.pay_for_cards`), and to `paid_by_type` where they must be of one type
    (`resources.typed_payment`: Moai Statue, A7, 2 artifact cards; `deckorder.pay_in_kind`)."""
    price, typed = hand_payment(e), typed_payment(e)
    if not price and typed is None:
        return act
    use = ctx.model.new_int_var(0, _most_activations(ctx), "paid_activations")
    ctx.model.add(use <= act)
    if price:
        paid.append(price * use)
    if typed is not None:
        kind, n = typed
        paid_by_type.setdefault(kind, []).append(n * use)
    return use


def _most_activations(ctx: Context) -> int:
    """A cap on any effect's activations: one per Timeline phase per life, at most 1 + the
    actions left lives (a card created again after a reshuffle)."""
    return max(1, ctx.schedule.timeline_phases * (ctx.actions_left + 2))


def timeline_draws_most(ctx: Context, e: Effect, monuments: Monuments,
                        events: Events) -> LinExpr | None:
    """For an effect whose only draw is one card per monument of a type in the Timeline
    (Mystery School T13: cities), the most it can draw: the monuments of that type in the
    Timeline now plus those created from now on (a monument enters the Timeline only by a
    Create, RULES.md section 5); None for any other effect."""
    draws = [s for s in all_steps(e.steps) if s.op == "draw"]
    if len(draws) != 1 or draws[0].per is None or not draws[0].per.startswith("timeline."):
        return None
    name = draws[0].per.removeprefix("timeline.")
    if name not in KIND_KEYS:
        return None
    kind = MONUMENT_KINDS[KIND_KEYS.index(name)]
    cards = ctx.cards
    now = sum(1 for c in monuments.space_now if cards[c].kind == kind)
    return now + events.monuments_of_kind[kind]


def special_cards(ctx: Context, effects: Effects, turns: TurnActions,
                  events: Events, own_creation: bool = False) -> Specials:
    """Cards whose rule is not a list of steps: Kensington Runestone (knowledge removed per
    excavation while in play), Elongated Skulls (draws, bounded in `knowledge`), and
    Poulnabrone Dolmen (M36: one more Create per monument Create it did not grant and that is
    not its own creation (with `own_creation`; `RelaxConfig.discard_turns`), with 11 or more
    in the Past; the turns: `timing.poulnabrone_turns`)."""
    m, cards, in_play = ctx.model, ctx.cards, effects.in_play
    kensington: LinExpr = 0
    elongated: list[LinExpr] = []
    poulnabrone: LinExpr = 0
    poulnabrone_creates: list[Var] = []
    big = ctx.actions_left + 60
    for c in sorted(in_play):
        sp = ctx.facts[c].specials
        if "kensington_runestone" in sp:
            kens = m.new_int_var(0, big, f"kens_{cards[c].code}")
            m.add(kens <= sum(turns.excavations))
            m.add(kens <= big * in_play[c])
            kensington = kensington + kens
        if "elongated_skulls" in sp:
            elongated.append(in_play[c])
        if "poulnabrone" in sp:
            # M36: one more Create per Create it did not grant, with 11 or more in the Past;
            # its own creations are not doubled (card-clarifications, M36: "any monument
            # Create other than itself"): p <= (created - its creations) - p.
            p = m.new_int_var(0, big, f"poul_{cards[c].code}")
            own = in_play[c] - (1 if c in ctx.reach.in_timeline else 0) if own_creation else 0
            m.add(2 * p + own <= events.monuments_created)
            m.add(p <= big * in_play[c])
            poulnabrone_creates.append(p)
            poulnabrone = poulnabrone + p
    return Specials(kensington=kensington, elongated_skulls=elongated, poulnabrone=poulnabrone,
                    poulnabrone_creates=poulnabrone_creates)


def link_conditions(ctx: Context, effects: Effects, final: FinalCounters,
                    monuments: Monuments, events: Events) -> None:
    """Link each condition literal to the final counters (clauses that can only grow): an
    effect gated on such a clause fires only if the final counter meets it (a condition met
    when the effect fires still holds at the end: the Past, technologies, the highest lost
    knowledge and the artifacts ever on the board never go down, RULES.md sections 4-5); an
    "at least" clause on the Timeline: `created_into`; an "at most" clause on lost
    knowledge: `lost_comes_down`."""
    for b, e in effects.conditions:
        for clause in e.condition:
            if is_monotone(clause):
                ctx.model.add(final.monotone(clause.counter) >= clause.value) \
                    .only_enforce_if(b)
            if grows_by_creation(clause):
                created_into(ctx, monuments, events, b, clause)
            if clause.counter == "lost" and clause.op in ("<=", "<", "=="):
                lost_comes_down(ctx, effects, b, clause)


def created_into(ctx: Context, monuments: Monuments, events: Events, b: Var,
                 clause: Clause) -> None:
    """An effect gated on "at least N" monuments (of a type) in the Timeline (Disks of Bayan
    Kara Ula, A4: a city, a megalith and a pyramid), in space 1 (Iron Pillar of Delhi, A27:
    two) or beside its card (Luxor Temple, C7: two pyramids), or on N knowledge in the
    Timeline (Parthenon, C10: 11), fires only if what the Timeline holds now plus what the
    monuments still to be created bring reaches N (`needs`)."""
    for now, brought, need in needs(ctx, monuments, events, clause):
        if now < need:
            ctx.model.add(now + brought >= need).only_enforce_if(b)


def needs(ctx: Context, monuments: Monuments, events: Events, clause: Clause,
          ) -> list[tuple[int, LinExpr, int]]:
    """What an "at least N" clause on the Timeline needs (`facts.grows_by_creation`), as (what
    the Timeline holds now, what the creations to come bring, the least their sum must
    reach); nothing for other clauses. A monument enters the Timeline only by its creation
    (a Create action, a granted Create, a chest's), with at most its printed knowledge; moves
    and swaps keep it there and add no knowledge (RULES.md section 5). Space 1 and a card's
    neighbours are monuments of the Timeline; the card itself is one of them, not its own
    neighbour (so "at least N neighbours" needs N + 1 there)."""
    if not grows_by_creation(clause):
        return []
    st, cards = ctx.state, ctx.cards
    counter, value = clause.counter, clause.value
    if counter == "tl_tokens":
        brought = sum((cards[c].knowledge * monuments.created[c] for c in monuments.cards
                       if cards[c].knowledge), 0)
        return [(st.timeline_tokens(), brought, value)]
    now = {k: sum(1 for c in st.monuments() if cards[c].kind == k) for k in MONUMENT_KINDS}
    if counter in ("timeline.any", "space1", "adj.any", "adj.max_type"):
        need = value + 1 if counter.startswith("adj.") else value
        return [(sum(now.values()), events.monuments_created, need)]
    key = counter.split(".")[1]
    kinds = MONUMENT_KINDS if key == "min_type" \
        else [k for k, name in zip(MONUMENT_KINDS, KIND_KEYS, strict=True) if name == key]
    assert kinds, counter
    return [(now[k], events.monuments_of_kind[k], value) for k in kinds]


def lost_comes_down(ctx: Context, effects: Effects, b: Var, clause: Clause) -> None:
    """An effect gated on "at most N lost knowledge" (Pyramid of Djoser, P29) fires only if
    the lost knowledge now, less every lost knowledge the effects can discard, is at most N:
    the lost knowledge goes down only by such discards (RULES.md section 7 row 5, D22). The
    same rule for a technology's requirement: `learntime._at_most_lost` (it reads the lost
    knowledge the model removes, ``lost peak - lost final``; this reads the most the effects
    can discard, which bounds it)."""
    most = clause.value - 1 if clause.op == "<" else clause.value
    if ctx.state.lost > most:
        ctx.model.add(ctx.state.lost - effects.gains["lost"] <= most).only_enforce_if(b)
