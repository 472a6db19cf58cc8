"""When each card is created: the time index of the relaxation (relaxation 10).

10. **Creation time.** Every monument that can still be created (one life: not one of C25-C29)
    and every artifact not yet on the board gets one Boolean per turn slot, "first created in
    that turn" (any phase of it: actions, Timeline effects, decline effects); at most one is
    true, exactly when the card is created at all. From them:

    * a monument declines no earlier than the turn it is created in (a card reaches the Past
      from the Timeline, RULES.md section 4C step 2), and, when nothing can move or swap it
      nor hold the Timeline back (no move, no Potala Palace within reach), no later than the
      slides take it from the space it was created in (`TimelineGraph`): the cumulative
      ``created by k => declines by the last decline any (slot <= k, space) reaches``;
    * Creates by the end of each turn are at most the Create actions by then plus every
      granted Create (section 5), and at most the Create actions by then plus the Creates
      granted by then: an immediate effect grants at its card's creation, a decline effect
      at its monument's decline (`granted_by_turn`);
    * a card is paid for when it is created (section 5: the card and ``discard_cost`` other
      cards leave the hand at the Create), so the cards used by each turn cover the creations
      made by then (`cardflow.hold_cards` keeps the balance);
    * a card at deck position p is created only in a turn by which p + 1 cards can have left
      the deck (`cardflow.dig_for_cards` counts the digs);
    * a Timeline effect fires at most once in each Timeline phase its card is in play (section
      4B): in play at a turn means created by then and, for a monument, not declined in an
      earlier turn (the Past keeps its cards: nothing takes a monument out of the Past);
    * Poulnabrone Dolmen's extra Creates (M36) come only in turns by which it has been created
      (its rule acts while it is in play; the turn of its own creation is allowed too), at
      most 2 a turn (one per Create action), and those of granted Creates only once it is
      created (`poulnabrone_in_play`).

    Each constraint holds for the real creation turns of any line of the engine, so adding them
    keeps every line a solution of the model.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.bounds.cpsat.context import Context, LinExpr
from solver.bounds.cpsat.schedule import END, SPACES
from solver.bounds.cpsat.timing import PoulnabroneTurns
from solver.bounds.cpsat.variables import Artifacts, Effects, Monuments, Var


@dataclass(frozen=True)
class CreationTimes:
    """Per timed card, one Boolean per slot: first created in that slot.

    :param monuments: new one-life monuments.
    :param artifacts: artifacts not on the board now.
    """

    monuments: dict[int, list[Var]]
    artifacts: dict[int, list[Var]]

    def by(self, c: int, i: int) -> LinExpr:
        """1 if card `c` is first created in slot `i` or before."""
        xs = self.monuments.get(c) or self.artifacts[c]
        return sum(xs[:i + 1])

    def timed(self) -> list[tuple[int, list[Var]]]:
        """Every timed card with its slot Booleans, monuments first."""
        return [*self.monuments.items(), *self.artifacts.items()]


def creation_times(ctx: Context, monuments: Monuments, artifacts: Artifacts) -> CreationTimes:
    """One Boolean per (card, slot) as in relaxation 10, linked to the card's fate (monuments)
    or its creation (artifacts)."""
    m, cards, n = ctx.model, ctx.cards, ctx.n_slots
    rigid = not (ctx.reach.movers or ctx.reach.potala)
    mons: dict[int, list[Var]] = {}
    for c in monuments.new:
        if c in monuments.vanished:
            continue
        code = cards[c].code
        xs = [m.new_bool_var(f"made_{code}_{i}") for i in range(n)]
        m.add(sum(xs) == monuments.created[c])
        fate = monuments.fate[c]
        for j in range(n):
            declined_by = sum(v for f, v in fate.items() if f != END and f[1] <= j)
            if not isinstance(declined_by, int):
                m.add(declined_by <= sum(xs[:j + 1]))  # declines after its creation
        if rigid:
            spaces = [cards[c].starting_space] if cards[c].locked else range(1, SPACES + 1)
            g = ctx.schedule.graph
            reach: set[tuple[object, ...]] = set()
            for k in range(n):
                reach.update(g.fate(k, s) for s in spaces)
                allowed = sum(v for f, v in fate.items() if f in reach)
                m.add(sum(xs[:k + 1]) <= allowed)
        mons[c] = xs
    arts: dict[int, list[Var]] = {}
    for a in artifacts.new:
        xs = [m.new_bool_var(f"made_{cards[a].code}_{i}") for i in range(n)]
        m.add(sum(xs) == artifacts.first_created[a])
        arts[a] = xs
    return CreationTimes(monuments=mons, artifacts=arts)


def pace_creations(ctx: Context, times: CreationTimes, creates_by: list[Var],
                   granted: LinExpr, granted_by: list[LinExpr] | None = None) -> None:
    """Relaxation 10: first creations by the end of each turn are at most the Create actions
    by then plus all the granted Creates (RULES.md section 5), and at most the Create actions
    by then plus the Creates granted by then (`granted_by`, see `granted_by_turn`)."""
    for i in range(ctx.n_slots):
        made = sum(times.by(c, i) for c, _ in times.timed())
        if not isinstance(made, int):
            ctx.model.add(made <= creates_by[i] + granted)
            if granted_by is not None:
                ctx.model.add(made <= creates_by[i] + granted_by[i])


def granted_by_turn(ctx: Context, times: CreationTimes, monuments: Monuments,
                    artifacts: Artifacts, effects: Effects, poulnabrone: LinExpr,
                    turns: PoulnabroneTurns | None) -> list[LinExpr]:
    """Relaxation 10: per slot, the Creates (monuments and artifacts) granted by its end, at
    most: an immediate effect's Creates once per creation of its card by then (it fires at
    the creation, RULES.md section 5; cards with one timed life only), a decline effect's once
    per decline of its monument by then (section 4C step 2; monuments that do not discard
    themselves), every other grant (Timeline effects, triggers, technologies, chests) in full,
    and Poulnabrone's extra Creates (M36) of the Create actions of the turns by then plus all
    those of granted Creates (all of them when its turns are not known)."""
    one_life = {a for a in artifacts.new
                if artifacts.created[a] is artifacts.first_created[a]}
    out: list[LinExpr] = []
    for i in range(ctx.n_slots):
        total: LinExpr = 0
        for card, moment, k, act in effects.granting:
            if moment == "immediate" and (card in times.monuments or card in one_life):
                total = total + k * times.by(card, i)
            elif (moment == "decline" and card in monuments.fate
                  and card not in monuments.vanished):
                total = total + k * sum(v for f, v in monuments.fate[card].items()
                                        if f != END and f[1] <= i)
            else:
                total = total + k * act
        if turns is None:
            total = total + poulnabrone
        else:
            total = total + turns.granted + sum(
                q for j, q in zip(turns.slots, turns.per_slot, strict=True) if j <= i)
        out.append(total)
    return out


def paid_by(ctx: Context, times: CreationTimes, i: int) -> LinExpr:
    """The cards the timed creations by the end of slot `i` cost (the card and its printed
    discards; distance costs apart): relaxation 10, paid at the Create."""
    cards = ctx.cards
    return sum((1 + cards[c].discard_cost) * times.by(c, i) for c, _ in times.timed())


def arrive_in_time(ctx: Context, times: CreationTimes, dug: list[LinExpr]) -> None:
    """Relaxation 10: a card at deck position p is created in slot i only if p + 1 cards can
    have left the deck by the end of slot i (RULES.md section 5: cards are drawn from the
    top)."""
    m, pos = ctx.model, ctx.reach.positions
    for c, xs in times.timed():
        p = pos.get(c, -1)
        if p < 0:
            continue
        for i, x in enumerate(xs):
            m.add(dug[i] >= (p + 1) * x)


def timeline_in_play(ctx: Context, times: CreationTimes, monuments: Monuments,
                     effects: Effects) -> None:
    """Relaxation 10: a Timeline effect fires at most once per Timeline phase of a turn in which
    its card is in play (RULES.md section 4B): created by then, and for a monument not yet
    declined (a monument in the Past stays there)."""
    m, cards, slots = ctx.model, ctx.cards, ctx.slots
    code_of = {cards[c].code: c for c, _ in times.timed()}
    for c in monuments.space_now:
        code_of[cards[c].code] = c
    for act, _e, name in effects.timed:
        card = code_of.get(name.rsplit("_", 1)[0])
        if card is None or card in monuments.vanished:
            continue
        c = card
        fate = monuments.fate.get(c, {})
        phases: list[LinExpr] = []
        for i, sl in enumerate(slots):
            if not sl.timeline:
                continue
            made = 1 if c in monuments.space_now else times.by(c, i)
            gone = sum(v for f, v in fate.items() if f != END and f[1] < i)
            phases.append(made - gone)
        m.add(act <= sum(phases))


def poulnabrone_in_play(ctx: Context, times: CreationTimes, monuments: Monuments,
                        turns: PoulnabroneTurns | None) -> None:
    """Relaxation 10 for Poulnabrone Dolmen (M36, RULES.md section 5: its extra Create comes
    with a Create made while it is in play): at most 2 extra Creates in a turn by whose end no
    copy has been created (none before), and none from granted Creates unless some copy is
    created by the last turn. A copy in the Timeline now is in play from the start."""
    if turns is None:
        return
    m = ctx.model
    copies = [c for c in monuments.cards if "poulnabrone" in ctx.facts[c].specials]
    if any(c in monuments.space_now or c not in times.monuments for c in copies):
        return  # in play now, or its creations are not timed: the untimed limits hold
    for i, q in zip(turns.slots, turns.per_slot, strict=True):
        made = sum(times.by(c, i) for c in copies)
        m.add(q <= 2 * made)
    last = sum(times.by(c, ctx.n_slots - 1) for c in copies)
    m.add(turns.granted <= (ctx.actions_left + 60) * last)
