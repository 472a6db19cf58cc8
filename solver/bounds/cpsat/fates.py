"""The fates of the monuments: created when, declining when, or staying in the Timeline
(relaxations 2 and 3).

A monument's *fate* is declining into the Past in a given decline phase, staying in the
Timeline to the end, being discarded by its own decline effect (C25-C29), or nothing.

2. **Decline capacity.** Space 1 holds two monuments, one while the time card is in it (section
   2; D12's third row needs Potala Palace, so with Potala Palace still to create every
   capacity is 2). A monument can *enter* space 1 during a decline phase only by the decline
   effect of the card declining then (a Create, a move, or a Learn of a technology that
   moves), and while that effect resolves space 1 holds the declining card and at most one
   more: so a phase declines at most `cap` monuments plus one per such effect declining in it
   (`limit_declines`); the entries by Learns are at most the technologies learned that move
   or create (each learned once, its immediate effect resolving inside one decline effect).
3. **Timing and cost.** A monument created in space s at turn u declines at u + s - 1 (the
   slides, `schedule.TimelineGraph`); the discard cost is ``discard_cost + |s - start|``
   (section 5). For each fate the model charges the smallest cost of any (turn, space) that
   leads there and asks the card to be available by the latest such turn (a decoupling: at
   least as permissive; `reachable_fates`). Potala Palace (one skipped slide, only if it is
   created) and moves and swaps widen the fates: every fate reached only by a reposition, and
   every distance cost waived (at most 5 a monument), takes one of the move/swap activations
   of the cards played (`choose_fates`, `distance_costs`).
"""

from __future__ import annotations

from solver.bounds.cpsat.context import Context, LinExpr
from solver.bounds.cpsat.reshuffle import more_lives
from solver.bounds.cpsat.resources import vanishes
from solver.bounds.cpsat.schedule import END, SPACES
from solver.bounds.cpsat.variables import (
    MOVED,
    SHIFTED,
    Fate,
    Monuments,
    Route,
    SlotDeclines,
    Technologies,
    Var,
)


def reachable_fates(ctx: Context, c: int, space: int) -> dict[Fate, Route]:
    """Relaxation 3: ``{fate: Route(least extra discard cost, latest creation slot, how)}``
    where `how` is `NATURAL` (the slides alone, RULES.md section 4C step 3), `SHIFTED` (only
    if Potala Palace holds the Timeline back one turn, C30) or `MOVED` (only if the monument
    is moved or swapped; no distance cost). `space` > 0: the monument is in the Timeline
    there now."""
    card, g = ctx.cards[c], ctx.schedule.graph
    out: dict[Fate, Route] = {}

    def note(fate: Fate, extra: int | None, slot: int, how: int) -> None:
        old = out.get(fate)
        if old is None or how < old.how:
            out[fate] = Route(extra, max(slot, old.latest) if old else slot, how)
        elif how == old.how and extra is not None and old.cost is not None:
            out[fate] = Route(min(old.cost, extra), max(old.latest, slot), how)
        else:
            out[fate] = Route(old.cost, max(old.latest, slot), old.how)

    shift = (0, 1) if ctx.reach.potala else (0,)
    if space:
        for k in shift:
            note(g.fate(0, space + k), 0, 0, k)
    else:
        spaces = [card.starting_space] if card.locked else list(range(1, SPACES + 1))
        for i in range(ctx.n_slots):
            for s in spaces:
                for k in shift:
                    note(g.fate(i, s + k), abs(s - card.starting_space), i, k)
    if ctx.reach.movers:
        for j in ctx.schedule.decline_slots:
            note(("past", j), None, 0 if space else j, MOVED)
        note(END, None, 0 if space else ctx.n_slots - 1, MOVED)
    return out


def choose_fates(ctx: Context, reshuffle: Var | None) -> Monuments:
    """One Boolean per reachable fate of each monument that can still matter, at most one
    true (RULES.md sections 4C and 5); a monument in the Timeline now has exactly one fate
    (or vanishes, C25-C29). A
    vanishing card goes to the discard pile, so it is created again only after a reshuffle
    (relaxation 4). Fates that need a skipped slide need Potala Palace created again (C30)."""
    st, m, cards = ctx.state, ctx.model, ctx.cards
    space_now = {c: st.place_of(c)[0] for c in ctx.reach.in_timeline}
    new = sorted(c for c in ctx.reach.positions if cards[c].is_monument)
    monuments = sorted(space_now) + new
    fate_of: dict[int, dict[Fate, Var]] = {}
    routes: dict[int, dict[Fate, Route]] = {}
    shifted: list[Var] = []
    created: dict[int, LinExpr] = {}  # creations still to come (activations)
    in_past: dict[int, LinExpr] = {}
    at_end: dict[int, LinExpr] = {}
    vanished: dict[int, LinExpr] = {}
    needs_move: list[Var] = []  # fates reached only by a move or a swap
    distance: list[LinExpr] = []  # distance costs of the fates (section 5)
    for c in monuments:
        card = cards[c]
        info = reachable_fates(ctx, c, space_now.get(c, 0))
        routes[c] = info
        fv = {fate: m.new_bool_var(f"f_{card.code}_{fate[-1]}") for fate in
              sorted(info, key=str)}
        fate_of[c] = fv
        in_past[c] = sum(v for fate, v in fv.items() if fate != END)
        at_end[c] = fv.get(END, 0)
        fates = sum(fv.values())
        m.add(fates <= 1)
        if vanishes(card):
            first = m.new_bool_var(f"vanish_{card.code}")
            more = more_lives(ctx, reshuffle, f"vanish_{card.code}", first)
            vanished[c] = first + more
            if c in space_now:
                m.add(fates + first >= 1)
                if reshuffle is None:
                    m.add(fates + first <= 1)
                # Staying in the Timeline is no creation: a fate after this life needs it
                # gone first and created again (fates + first - 1 is 1 exactly then).
                created[c] = more + (fates + first - 1 if reshuffle is not None else 0)
            else:
                if reshuffle is None:
                    m.add(fates + first <= 1)
                created[c] = fates + first + more
        elif c in space_now:
            m.add(fates == 1)
            created[c] = 0
        else:
            created[c] = fates
        shifted += [v for fate, v in fv.items() if info[fate].how == SHIFTED]
        needs_move += [v for fate, v in fv.items() if info[fate].how == MOVED]
        if c not in space_now:
            distance += [e * fv[fate] for fate, (e, _, _) in info.items() if e]
    # Fates that need a skipped slide: only if Potala Palace is created again (C30).
    potala = sum(created[c] for c in new if "potala_skip_decline" in ctx.facts[c].specials)
    for v in shifted:
        m.add(v <= potala)
    return Monuments(space_now=space_now, cards=monuments, new=new, fate=fate_of,
                     routes=routes, in_past=in_past, at_end=at_end, vanished=vanished,
                     created=created, needs_move=needs_move, distance_costs=distance)


def declines_by_slot(ctx: Context, monuments: Monuments) -> SlotDeclines:
    """Per decline slot: every monument declining then (RULES.md section 4C step 2), the new
    ones among them (created by then), the cards those cost (the card and its discards), and
    the least distance part of their discard costs (section 5: the route of the fate, relaxation
    3; paid at the Create, by the end of the decline slot; a moved monument's may be saved,
    `cardflow.hold_cards`)."""
    n, cards = ctx.n_slots, ctx.cards
    due: list[LinExpr] = [0] * n
    due_cards: list[LinExpr] = [0] * n
    distance: list[LinExpr] = [0] * n
    declined: list[LinExpr] = [0] * n
    for c in monuments.cards:
        for fate, v in monuments.fate[c].items():
            if fate == END:
                continue
            j = fate[1]
            declined[j] = declined[j] + v
            if c not in monuments.space_now:
                due[j] = due[j] + v
                due_cards[j] = due_cards[j] + (1 + cards[c].discard_cost) * v
                cost = monuments.routes[c][fate].cost
                if cost:
                    distance[j] = distance[j] + cost * v
    return SlotDeclines(declined=declined, new=due, new_cards=due_cards, distance=distance)


def distance_costs(ctx: Context, monuments: Monuments, moves: LinExpr) -> Var:
    """Relaxation 3: the distance part of the discard costs (RULES.md section 5). A moved
    monument takes a fate the slides alone do not reach, or saves the distance part of its
    discard cost (at most 5: spaces 1-6); repositioned monuments are at most the move/swap
    activations."""
    m, n_mons = ctx.model, len(monuments.cards)
    waived: LinExpr = 0
    if monuments.needs_move or (ctx.reach.movers and monuments.distance_costs):
        waived = m.new_int_var(0, n_mons, "moved_to_save")
        m.add(sum(monuments.needs_move) + waived <= moves)
    extra = m.new_int_var(0, 5 * n_mons, "distance_costs")
    m.add(extra >= sum(monuments.distance_costs) - 5 * waived)
    return extra


def limit_declines(ctx: Context, monuments: Monuments, techs: Technologies,
                   declined: list[LinExpr]) -> None:
    """Relaxation 2: decline capacity (RULES.md sections 2 and 4C). A monument enters space 1
    during a decline phase only by the decline effect of the card declining then (a Create, a
    move, or a Learn of a technology that moves), one per such effect: space 1 holds the
    declining card and at most one more while its effect resolves. A Create's entry is a new
    monument that may be created in space 1 (not one locked elsewhere); a move's, a monument
    already in the Timeline. At the end the Timeline
    holds at most 12 places less the time card's (a third row only with Potala Palace, D12)."""
    st, m, facts = ctx.state, ctx.model, ctx.facts
    movers = [t for t in techs.learnable
              if facts[t].immediate.moves or facts[t].immediate.create_mon]
    slots = ctx.schedule.decline_slots
    entering: dict[int, LinExpr] = {j: 0 for j in slots}
    by_creates: dict[int, LinExpr] = {j: 0 for j in slots}  # entries a decline Create makes
    by_moves: dict[int, LinExpr] = {j: 0 for j in slots}  # entries a decline move makes
    by_learns: dict[int, LinExpr] = {j: 0 for j in slots}
    vanish_entries: LinExpr = 0
    for c in monuments.cards:
        d = facts[c].decline
        direct = bool(d.create_mon or d.moves)
        if direct or (d.learn and movers):
            for fate, v in monuments.fate[c].items():
                if fate != END:
                    j = fate[1]
                    if direct:
                        entering[j] = entering[j] + v
                        if d.create_mon:
                            by_creates[j] = by_creates[j] + v
                        if d.moves:
                            by_moves[j] = by_moves[j] + v
                    else:
                        by_learns[j] = by_learns[j] + v
            vanish_entries = vanish_entries + monuments.vanished.get(c, 0)
    # An entry by a decline Learn is the immediate effect of the technology learned, resolved
    # inside that decline effect (one entry at most, see above): each technology is learned
    # once, so at most one entry per moving or creating technology learned.
    learn_entries: list[LinExpr] = []
    for j in slots:
        if not isinstance(by_learns[j], int):
            e = m.new_int_var(0, 2 * SPACES, f"learn_entries{j}")
            m.add(e <= by_learns[j])
            entering[j] = entering[j] + e
            by_creates[j] = by_creates[j] + e
            by_moves[j] = by_moves[j] + e
            learn_entries.append(e)
    if learn_entries:
        m.add(sum(learn_entries) <= sum(techs.learned[t] for t in movers))
    for j in slots:
        if not isinstance(declined[j], int):
            entries = space_one_entries(ctx, monuments, j, entering[j], by_creates[j],
                                        by_moves[j])
            m.add(declined[j] <= ctx.slots[j].cap + entries + vanish_entries)
    third = any(len(s) > 2 for s in st.spaces)
    m.add(sum(monuments.at_end[c] for c in monuments.cards)
          <= 2 * SPACES - 1 + (1 if ctx.reach.potala or third else 0))


def space_one_entries(ctx: Context, monuments: Monuments, j: int, entering: LinExpr,
                      by_creates: LinExpr, by_moves: LinExpr) -> LinExpr:
    """The monuments that enter space 1 during the decline phase of slot `j` (see
    `limit_declines`): at most one per decline effect that creates, moves or learns a
    technology that does; a Create's entry is a new monument declining then that may be
    created in space 1 (a locked card only in its starting space, RULES.md section 5), the
    other entries are moves of monuments already in the Timeline. The split is written only
    where a monument that no Create can bring in reaches that decline by a move (else it
    cuts nothing, and costs the LP)."""
    m, cards, new = ctx.model, ctx.cards, set(monuments.new)

    def may_enter_created(c: int) -> bool:
        return c not in monuments.space_now and c in new and (
            not cards[c].locked or cards[c].starting_space == 1)

    fate = ("past", j)
    if not any(fate in monuments.routes[c] and monuments.routes[c][fate].how == MOVED
               and not may_enter_created(c) for c in monuments.cards):
        return entering  # every monument that may enter then may be a Create's: no cut
    into_one = sum(monuments.fate[c][fate] for c in monuments.cards
                   if may_enter_created(c) and fate in monuments.fate[c])
    created_in = m.new_int_var(0, 2 * SPACES, f"entries_created{j}")
    moved_in = m.new_int_var(0, 2 * SPACES, f"entries_moved{j}")
    m.add(created_in <= by_creates)
    m.add(created_in <= into_one)
    m.add(moved_in <= by_moves)
    m.add(created_in + moved_in <= entering)
    return created_in + moved_in


def where(ctx: Context, c: int, fate: Fate) -> tuple[int, int]:
    """The (slot, space) of a creation that reaches `fate` at the least distance cost, by the
    slides alone (else the fate's slot and the starting space: a move gets it there)."""
    card, g, n = ctx.cards[c], ctx.schedule.graph, ctx.n_slots
    spaces = [card.starting_space] if card.locked else list(range(1, SPACES + 1))
    best = min(((abs(s - card.starting_space), i, s) for i in range(n) for s in spaces
                if g.fate(i, s) == fate), default=None)
    if best is None:
        return (fate[1] if fate != END else n - 1), card.starting_space
    return best[1], best[2]


def landings(ctx: Context, monuments: Monuments, spaces: tuple[int, ...],
             kind: int | None) -> LinExpr:
    """The creations still to come that can land in one of `spaces` (Genetic Disk, A24: "a
    monument that lands in space 5 or 6"; moves do not count). A locked monument lands only in
    its starting space (RULES.md section 5), and a monument that lands in space s declines,
    by the slides alone, only at the decline phase s - 1 later (section 4C step 3): so only
    the fates a creation there reaches count, and those reached only by a move (which may
    follow such a landing). The lives of a card that vanishes (C25-C29, discarded at its
    decline) all count, and every re-creation of a monument in the Timeline now."""
    cards, g = ctx.cards, ctx.schedule.graph
    shift = (0, 1) if ctx.reach.potala else (0,)
    out: list[LinExpr] = []
    for c in monuments.cards:
        card = cards[c]
        ok = [s for s in spaces if not card.locked or s == card.starting_space]
        if not ok or (kind is not None and card.kind != kind):
            continue
        if c in monuments.space_now:
            out.append(monuments.created[c])
            continue
        land = {g.fate(i, s + k) for i in range(ctx.n_slots) for s in ok for k in shift}
        routes = monuments.routes[c]
        out += [v for fate, v in monuments.fate[c].items()
                if fate in land or routes[fate].how == MOVED]
        if c in monuments.vanished:
            out.append(monuments.vanished[c])
    return sum(out, 0)
