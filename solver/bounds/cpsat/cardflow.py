"""Cards over the turns: drawn, held, paid, and dug out of the deck (relaxation 4).

4. **Cards.** A card is created only if it can be in hand: in hand now, or at deck position p
   when at least p + 1 cards can have left the deck by that turn (every search, excavation,
   earlier decline draw, plus every other effect's draws and reveals whenever they happen); the
   discard pile only after a reshuffle (then cards that leave play may be created again,
   `solver.bounds.cpsat.reshuffle`; `dig_for_cards`, `from_discard`). Per turn, the cards used
   by then (monuments due to decline by then with their discards and the least distance part
   of them, archived cards) never exceed the starting hand plus the cards drawn so far, and
   the cards banked from searches, excavations and earlier declines never exceed 10 (D4;
   `hold_cards`); the cards used in all never exceed what can leave the hand (creations with
   their costs, Archives, effects' discards: `most_spent`), so a line cannot bank draws
   beyond 10 by "using" cards it never spends. Other effects' gains count from the start
   (earlier than the engine allows: an overestimate; `effect_draws`), except that a slot's
   actions spend no card a Timeline effect draws in that slot or later
   (`draws_before_timeline`, where no Create can happen outside the actions) and, with Learns
   in time, no card that a later Learn makes an effect draw (`learndraws`).
"""

from __future__ import annotations

from solver.bounds.cpsat.context import Context, LinExpr
from solver.bounds.cpsat.resources import HAND_LIMIT
from solver.bounds.cpsat.schedule import END, SPACES
from solver.bounds.cpsat.variables import (
    Artifacts,
    Draws,
    Effects,
    Events,
    Monuments,
    RunningTotals,
    SlotDeclines,
    Specials,
    Technologies,
    TurnActions,
    Var,
)


def _most_cards(ctx: Context) -> int:
    """An upper bound on any count of cards the flow variables hold."""
    st = ctx.state
    return 10 * (ctx.actions_left + 10) + len(st.deck) + len(st.discard) + len(st.hand)


def effect_draws(ctx: Context, effects: Effects, by_phase: bool = False) -> Draws:
    """Cards drawn (and taken off the deck) by effects: in all, at most their gains plus
    Elongated Skulls' draws, counted from the start; those of unconditional decline effects
    per decline slot (RULES.md section 4C step 2: in that decline phase). With `by_phase`,
    also the draws before each slot's Timeline phase (`draws_before_timeline`)."""
    m, gains, big = ctx.model, effects.gains, _most_cards(ctx)
    by_effects = m.new_int_var(0, big, "effect_draws")
    dug_by_effects = m.new_int_var(0, big, "effect_depth")
    elongated = m.new_int_var(0, big, "elongated_draws")
    m.add(by_effects <= gains["draw"] + elongated)
    m.add(dug_by_effects <= gains["depth"] + elongated)
    in_decline: list[LinExpr] = []
    dug_in_decline: list[LinExpr] = []
    for i in range(ctx.n_slots):
        if effects.decline_draws.get(i):
            d = m.new_int_var(0, big, f"decline_draws{i}")
            dd = m.new_int_var(0, big, f"decline_depth{i}")
            m.add(d <= sum(effects.decline_draws[i]))
            m.add(dd <= sum(effects.decline_depth[i]))
            in_decline.append(d)
            dug_in_decline.append(dd)
        else:
            in_decline.append(0)
            dug_in_decline.append(0)
    before = draws_before_timeline(ctx, effects, by_effects, elongated) \
        if by_phase and actions_use_the_cards(effects) else None
    return Draws(by_effects=by_effects, dug_by_effects=dug_by_effects, elongated=elongated,
                 in_decline=in_decline, dug_in_decline=dug_in_decline, before_timeline=before)


def _live(act: LinExpr) -> bool:
    """Whether an activation count may be non-zero (not the constant 0)."""
    return not (isinstance(act, int) and act == 0)


def actions_use_the_cards(effects: Effects) -> bool:
    """Whether every card a line spends within a slot, other than the prices and discards of
    effects (Planetary Stone, Tulum, T17: counted only in the last slot, `pay_for_cards`),
    leaves the hand during the slot's actions: no Create can happen in a Timeline or decline
    phase. So Creates may be granted only by effects that fire inside an action (a card's
    immediate effect, a trigger, a technology's effect), and those of a technology or a
    trigger only if no Learn can come from a Timeline or decline effect or a chest (a chest's
    lightning effect applies at any moment, RULES.md section 8; a decline's move spends no
    card)."""
    grants = {moment for _, moment, _, act in effects.granting if _live(act)}
    learns = {moment for _, moment, _, act in effects.learning if _live(act)}
    if grants - {"immediate", "trigger", "learn"}:
        return False
    return not (learns - {"immediate", "trigger", "learn"} and grants & {"learn", "trigger"})


def draws_before_timeline(ctx: Context, effects: Effects, by_effects: Var,
                          elongated: Var) -> list[Var]:
    """Per slot, the most cards effects can have drawn before its Timeline phase: every draw
    of an effect other than a Timeline effect (counted from the start, as `through_hand`
    does), and a Timeline effect's draws only in the Timeline phases of earlier slots, once a
    phase (RULES.md section 4: the actions come before the Timeline phase, where every
    Timeline effect in play activates once)."""
    m, sch, big = ctx.model, ctx.schedule, _most_cards(ctx)
    timeline = [(k, act) for _, moment, k, act, _ in effects.drawing
                if moment == "timeline" and _live(act)]
    late = sum(k * act for k, act in timeline)
    out: list[Var] = []
    for i in range(ctx.n_slots):
        phases = sch.timeline_phases_through(i - 1) if i else 0
        early: LinExpr = 0
        for j, (k, act) in enumerate(timeline if phases else []):
            v = m.new_int_var(0, big, f"timeline_draws_before{i}_{j}")
            m.add(v <= k * act)
            m.add(v <= k * phases)
            early = early + v
        b = m.new_int_var(0, big, f"effect_draws_before{i}")
        m.add(b <= by_effects)
        m.add(b <= effects.gains["draw"] + elongated - late + early)
        out.append(b)
    return out


def running_totals(ctx: Context, turns: TurnActions, declines: SlotDeclines,
                   draws: Draws) -> RunningTotals:
    """Per slot, the totals from now to its end of the Creates, the new monuments due and
    their cards, the archived cards, the cards drawn (Searches, excavations, declines), the
    cards dug, the declines and the rotations (bookkeeping for `hold_cards` and
    `dig_for_cards`; no rule of its own)."""
    n, big = ctx.n_slots, _most_cards(ctx)
    t = turns
    return RunningTotals(
        creates=ctx.running_totals(t.creates, "creates_by", 2 * n),
        due=ctx.running_totals(declines.new, "due_by", big),
        due_cards=ctx.running_totals(declines.new_cards, "due_cards_by", big),
        due_distance=ctx.running_totals(declines.distance, "due_distance_by", big),
        archived=ctx.running_totals(t.archived, "archived_by", big),
        drawn=ctx.running_totals([t.searched[i] + t.excavated[i] for i in range(n)],
                                 "drawn_by", big),
        decline_drawn=ctx.running_totals(draws.in_decline, "decline_drawn_by", big),
        dug=ctx.running_totals([t.searched[i] + t.excavated[i] + draws.dug_in_decline[i]
                                for i in range(n)], "dug_by", big),
        declined=ctx.running_totals(declines.declined, "declined_by", big),
        rotated=ctx.running_totals(t.rotated, "rotated_by", big),
    )


def through_hand(ctx: Context, totals: RunningTotals, draws: Draws, i: int,
                 by_effects: LinExpr | None = None) -> LinExpr:
    """The most cards that can have been in the hand by the end of slot `i`: the hand at the
    phase plus every card drawn by then (actions, decline effects) and the other effects'
    draws, counted from the start (RULES.md section 5: cards enter the hand only by draws);
    `by_effects`, where given, replaces the last (a tighter count of them by then)."""
    effects_drew = draws.by_effects if by_effects is None else by_effects
    return ctx.phase.hand + totals.drawn[i] + totals.decline_drawn[i] + effects_drew


def archive_by_effects(ctx: Context, effects: Effects) -> Var:
    """Cards archived by effects: at most 10 per granted Archive (D4)."""
    v = ctx.model.new_int_var(0, _most_cards(ctx), "archived_free")
    ctx.model.add(v <= HAND_LIMIT * effects.gains["archive"])
    return v


def limit_creations(ctx: Context, totals: RunningTotals, effects: Effects, specials: Specials,
                    events: Events, artifacts: Artifacts) -> LinExpr:
    """Creates: the Create actions plus the granted ones (RULES.md section 5), monuments and
    artifacts apart and together. Returns the granted monument Creates."""
    m, gains, creates = ctx.model, effects.gains, totals.creates[-1]
    granted_mon = gains["create_mon"] + specials.poulnabrone
    m.add(events.monuments_created <= creates + granted_mon)
    m.add(artifacts.created_total <= creates + gains["create_art"])
    m.add(events.monuments_created + artifacts.created_total
          <= creates + granted_mon + gains["create_art"])
    return granted_mon


def hold_cards(ctx: Context, totals: RunningTotals, draws: Draws, effects: Effects,
               granted_mon: LinExpr, paid: list[LinExpr] | None = None) -> list[Var]:
    """Relaxation 4, per slot: the cards used by then (never fewer later) cover the monuments
    due by then (created by a Create by then) with their discards and the archived cards,
    and with the distance part of those discards too but 5 per move or swapped monument (a
    reposition saves at most 5, spaces 1-6; `fates.declines_by_slot`),
    and never exceed the starting hand plus the cards drawn; the cards banked from actions and
    earlier declines never exceed 10 (D4). Where every card a slot spends, but effects' prices
    and discards, leaves the hand in its actions (`draws.before_timeline`, written by
    `effect_draws` only then), the cards used by a slot before the last are those its actions
    and earlier slots spend, so they come out of the hand, the actions' draws, earlier
    declines' draws and the effects' draws before its Timeline phase (RULES.md section 4: the
    actions come first); the last slot's count also holds the effects' prices. Excavation
    rotates straight Past monuments only (D7): those there now, declined before, or
    straightened. Returns the cards used by each slot."""
    st, m, n, big = ctx.state, ctx.model, ctx.n_slots, _most_cards(ctx)
    hand0 = ctx.phase.hand
    used = [m.new_int_var(0, big, f"used{i}") for i in range(n)]
    straight0 = len(st.past) - st.rotated
    for i in range(n):
        if i:
            m.add(used[i] >= used[i - 1])
        m.add(totals.creates[i] + granted_mon >= totals.due[i])
        m.add(used[i] >= totals.due_cards[i] + totals.archived[i])
        # ... and their distance costs, but those a move saved (at most 5 a move, RULES.md
        # section 5: spaces 1-6; relaxation 3)
        m.add(used[i] >= totals.due_cards[i] + totals.due_distance[i] + totals.archived[i]
              - 5 * effects.gains["moves"])
        if paid is not None:  # relaxation 10: cards paid at the Create
            m.add(used[i] >= paid[i] + totals.archived[i])
        m.add(used[i] <= through_hand(ctx, totals, draws, i))
        if draws.before_timeline is not None and i < n - 1:
            # the cards a slot's actions spend come before its Timeline and decline draws
            m.add(used[i] <= hand0 + totals.drawn[i] + (totals.decline_drawn[i - 1] if i else 0)
                  + draws.before_timeline[i])
        m.add(hand0 + totals.drawn[i] + (totals.decline_drawn[i - 1] if i else 0) - used[i]
              <= HAND_LIMIT)
        # Excavation rotates straight Past monuments only (D7): those declined before.
        m.add(totals.rotated[i] <= straight0 + (totals.declined[i - 1] if i else 0)
              + effects.gains["straighten"])
    return used


def pay_for_cards(ctx: Context, monuments: Monuments, artifacts: Artifacts,
                  techs: Technologies, totals: RunningTotals, draws: Draws,
                  used: list[Var], distance: Var, archived_by_effects: Var,
                  effects: Effects) -> Var:
    """Every creation costs its card and its discards (RULES.md section 5; distance costs
    apart), every archived card one, every paid activation of an effect with a price its
    cards (`effects.paid_from_hand`); all of them come out of the cards used by the end.
    Ancient Greek creates its artifact from the revealed cards, not from the hand. The cards
    used are also at most what can leave the hand (`most_spent`). Returns the hand at the
    end."""
    m, cards = ctx.model, ctx.cards
    greek = greek_creations(ctx, techs)
    paid = (sum((1 + cards[c].discard_cost) * monuments.created[c] for c in monuments.new)
            + distance
            + sum((1 + cards[a].discard_cost) * artifacts.created[a] for a in artifacts.new)
            + totals.archived[-1] + archived_by_effects - greek)
    m.add(used[-1] >= paid + effects.paid_from_hand)
    m.add(used[-1] <= most_spent(ctx, monuments, artifacts, totals, archived_by_effects,
                                 effects.gains["shed"]))
    hand_final = m.new_int_var(0, HAND_LIMIT, "hand_final")
    m.add(hand_final == through_hand(ctx, totals, draws, -1) - used[-1])
    return hand_final


def most_spent(ctx: Context, monuments: Monuments, artifacts: Artifacts,
               totals: RunningTotals, archived_by_effects: Var, effects_shed: LinExpr) -> LinExpr:
    """The most cards that can leave the hand from now on (D4 with `hold_cards`). A card
    leaves the hand only when it is created (the card, its printed discards and its distance
    cost: at most the farthest space from its starting space, none for a locked monument,
    RULES.md section 5), archived (by an Archive action or effect, D2), or discarded by an
    effect (`resources.Gains.shed`; the draw-10-keep-6 and campaign discards before turn 1
    are out of `Phase.hand` already). Counted without Ancient Greek's saving (its artifact
    comes from the revealed cards: fewer cards leave, never more). So the cards a line uses,
    and with them what its hand can bank (the hand holds at most 10, D4: a draw into a full
    hand draws nothing), are at most this."""
    cards = ctx.cards

    def farthest(c: int) -> int:
        start = cards[c].starting_space
        return 0 if cards[c].locked else max(start - 1, SPACES - start)

    return (sum((1 + cards[c].discard_cost + farthest(c)) * monuments.created[c]
                for c in monuments.cards)
            + sum((1 + cards[a].discard_cost) * artifacts.created[a] for a in artifacts.new)
            + sum((1 + cards[a].discard_cost) * v for a, v in artifacts.created_again.items())
            + totals.archived[-1] + archived_by_effects + effects_shed)


def greek_creations(ctx: Context, techs: Technologies) -> LinExpr:
    """Artifacts created by Ancient Greek from the revealed cards (not from the hand): at most
    one per learned Ancient Greek."""
    cards = ctx.cards
    return sum(techs.learned[t] for t in techs.learnable
               if any(s.op == "ancient_greek" for e in cards[t].effects for s in e.steps))


def dig_for_cards(ctx: Context, monuments: Monuments, artifacts: Artifacts,
                  totals: RunningTotals, draws: Draws, reshuffle: Var | None,
                  from_pile: bool = False) -> None:
    """Relaxation 4: a card deep in the deck needs the deck dug that far by its turn (the
    latest slot of its fate's route); a reshuffle needs the whole deck dug (RULES.md section
    5: cards are drawn from the top; an empty deck is refilled from the discard pile). With
    `from_pile`, a card of the discard pile needs the reshuffle (`from_discard`)."""
    st, m, reach, n = ctx.state, ctx.model, ctx.reach, ctx.n_slots
    dug = [totals.dug[i] + draws.dug_by_effects for i in range(n)]
    # Cards revealed in a decline phase help only a Create made later in that phase (a
    # decline effect's Create, M11): without one, count them from the next turn on.
    same = [dug[i] - (draws.dug_in_decline[i] if not reach.entries else 0) for i in range(n)]
    for c in monuments.new:
        p = reach.positions[c]
        if p < 0:
            continue
        for fate, v in monuments.fate[c].items():
            i = monuments.routes[c][fate].latest
            m.add((same[i] if fate != END else dug[i]) >= (p + 1) * v)
        if c in monuments.vanished:
            first = monuments.vanished[c] if reshuffle is None \
                else _first_vanishing(ctx, monuments, c)
            m.add(dug[-1] >= (p + 1) * first)
    for a in artifacts.new:
        p = reach.positions[a]
        if p >= 0:
            m.add(dug[-1] >= (p + 1) * artifacts.first_created[a])
    if reshuffle is not None:
        m.add(dug[-1] >= (len(st.deck) + 1) * reshuffle)
        if from_pile:
            from_discard(ctx, monuments, artifacts, reshuffle)


def from_discard(ctx: Context, monuments: Monuments, artifacts: Artifacts,
                 reshuffle: Var) -> None:
    """Relaxation 4: a card in the discard pile now is created only after the discard pile
    comes back (RULES.md section 5: "An empty builder deck is refilled by shuffling its
    discard pile"; `GameState.take_top` is the only way out of the pile, and no effect takes a
    card from it): each of its fates, its vanishing (C25-C29, every life) and an artifact's
    first creation need `reshuffle` (the Boolean `dig_for_cards` ties to the whole deck dug).
    Its position (the deck's size, `Reach.positions`) asks the same depth, but only in
    proportion to its own fraction in the LP; tying it to the one Boolean is tighter there
    (`RelaxConfig.discard_turns`)."""
    m, pile = ctx.model, set(ctx.state.discard)
    for c in monuments.new:
        if c in pile:
            for v in monuments.fate[c].values():
                m.add(v <= reshuffle)
            if c in monuments.vanished:  # at most one creation per action after the first
                m.add(monuments.vanished[c] <= (1 + ctx.actions_left) * reshuffle)
    for a in artifacts.new:
        if a in pile:
            m.add(artifacts.first_created[a] <= reshuffle)


def _first_vanishing(ctx: Context, monuments: Monuments, c: int) -> Var:
    """The first vanishing of a card (its first creation) as a Boolean."""
    first = monuments.vanished[c]
    assert not isinstance(first, int)
    b = ctx.model.new_bool_var(f"vanished_{ctx.cards[c].code}")
    ctx.model.add(first <= ctx.actions_left * b + b)
    return b
