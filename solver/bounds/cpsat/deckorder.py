"""Cards leave the builder deck from its top, in a known order (relaxation 4 with
`solver.bounds.cpsat.cardflow`): Calakmul's reveal and the Excavates' draws, bounded.

Calakmul (P33, ``reveal_until``, `solver.engine.reveal.step_reveal_until`) turns builder cards
up one at a time from the top of the deck until `count` cards of its type have appeared (or the
hand holds 10). Counted without the deck's order (`resources.step_gains`: the whole deck), one
decline of it lets the model dig through the deck, which makes every card of the deck creatable
and the discard pile come back (a reshuffle, `cardflow.dig_for_cards`). But the deck's order is
part of the position: cards leave the deck only from its top, and the discard pile comes back
only once the deck is empty (RULES.md section 5: "Search: draw 1 card", "An empty builder deck
is refilled by shuffling its discard pile"; `GameState.take_top`); no effect puts a card back
into the builder deck. So a reveal that starts with `q` cards already gone (0 = the top) takes
at most the cards from position `q` to the `count`-th card of its type at or after `q`, and at
most ``R(q)``, the most of that over every start up to `q` (`run_steps`; ``R`` grows with `q`).
Before Calakmul's reveal in the decline phase of slot `i`, at most the cards every other take
removed are gone: the actions' draws through slot `i` (section 4: the actions come before the
decline phase), every decline effect's cards through it, and every other effect's cards at any
time (`bound_reveals`). Once the start
may leave fewer than `count` cards of the type below it, the reveal takes the rest of the
deck, and then the whole discard pile once it comes back (`reshuffle.may_reshuffle`'s Boolean,
which needs the whole deck dug: `cardflow.dig_for_cards`).

An Excavate draws 2 (3) cards per monument it rotates, but every draw stops at 10 in hand (D4):
one takes at most 10 cards off the deck (`limit_excavated`).
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import pairwise

from solver.bounds.cpsat.context import Context, LinExpr
from solver.bounds.cpsat.facts import FactBook
from solver.bounds.cpsat.resources import DECK_ALL, HAND_LIMIT
from solver.bounds.cpsat.variables import Draws, Effects, RunningTotals, TurnActions, Var
from solver.engine.cards import all_steps
from solver.engine.state import GameState


def decline_reveals(facts: FactBook, c: int) -> list[tuple[int, int]]:
    """The ``reveal_until`` steps of card `c`'s decline effects: (monument type, count)."""
    return [(s.monument_type, s.count) for e in facts[c].card.effects
            if e.trigger is None and e.moment == "decline" and e.score is None
            for s in all_steps(e.steps) if s.op == "reveal_until" and s.monument_type is not None]


def other_depth(facts: FactBook, c: int) -> int:
    """The depth of card `c`'s decline effects without its ``reveal_until`` steps (each
    counted as `DECK_ALL` in `resources.step_gains`)."""
    return max(0, facts[c].decline.depth - DECK_ALL * len(decline_reveals(facts, c)))


def type_positions(st: GameState, kind: int) -> list[int]:
    """The positions (0 = the top) of the draw pile's cards of type `kind`, ascending."""
    n = len(st.deck)
    return [p for p in range(n) if st.book.kinds[st.deck[n - 1 - p]] == kind]


def run_steps(st: GameState, kind: int, count: int) -> list[tuple[int, int]]:
    """The step function `R(q)`: the most cards a reveal until `count` cards of type `kind`
    takes off the deck, without a reshuffle, starting with at most `q` cards gone (a maximum
    over more starts as `q` grows), as its breakpoints ``(q_j, R(q_j))`` from ``q_0 = 0``.
    From a start with fewer than `count` cards of the type left, it takes the rest of the
    deck (then the discard pile comes back, or the reveal stops: `step_reveal_until`)."""
    n = len(st.deck)
    at = type_positions(st, kind)
    out: list[tuple[int, int]] = []
    most = 0
    for q in range(n):
        k = bisect_left(at, q)
        run = n - q if k + count - 1 >= len(at) else at[k + count - 1] - q + 1
        if run > most or not out:
            most = max(most, run)
            out.append((q, most))
    return out or [(0, 0)]


def bound_reveals(ctx: Context, effects: Effects, totals: RunningTotals, draws: Draws,
                  reshuffle: Var | None) -> None:
    """Relaxation 4 (see the module): a decline reveal until a type in slot `i` starts with
    at most the cards every other take has removed by then gone (the actions' draws through
    slot `i`, every decline effect's cards through it, every other effect's cards at any
    time: ``dug[i] + dug_by_effects`` less its own), so it takes at most `R` of that, the
    deck's step function (`run_steps`), plus its effect's other steps, unless the discard
    pile comes back (`reshuffle`; then the whole of it, only from a start at `bottom_start` or
deeper). Encoded with one Boolean per
    breakpoint (``z_j``: the start reaches ``q_j``, so ``before >= q_j z_j``)."""
    st, m = ctx.state, ctx.model
    builders = len(st.deck) + len(st.discard)
    for c, i, d in effects.reveals:
        steps = decline_reveals(ctx.facts, c)
        if len(steps) != 1:
            continue  # several reveals in one decline: only the whole deck bounds them
        kind, count = steps[0]
        other = other_depth(ctx.facts, c)
        before = totals.dug[i] + draws.dug_by_effects - d + other
        breaks = run_steps(st, kind, count)
        cap: LinExpr = breaks[0][1] + other
        prev_z: Var | None = None
        for j in range(1, len(breaks)):
            q, r = breaks[j]
            z = m.new_bool_var(f"reveal_from_{ctx.cards[c].code}_{i}_{q}")
            m.add(before >= q * z)
            if prev_z is not None:
                m.add(z <= prev_z)
            prev_z = z
            cap = cap + (r - breaks[j - 1][1]) * z
        if reshuffle is not None:  # through the bottom: only from a start at `bottom` or deeper
            w = m.new_bool_var(f"reveal_through_{ctx.cards[c].code}_{i}")
            m.add(before >= bottom_start(st, kind, count) * w)
            m.add(w <= reshuffle)
            cap = cap + builders * w
        m.add(d <= cap)
        m.add_hint(d, 0)  # a first solution sooner (the plan of a short call): no reveal


def bottom_start(st: GameState, kind: int, count: int) -> int:
    """The first start (cards gone) from which fewer than `count` cards of type `kind` are
    left in the deck: only from there can a reveal until them reach its bottom."""
    at = type_positions(st, kind)
    return at[len(at) - count] + 1 if len(at) >= count else 0


def limit_excavated(ctx: Context, turns: TurnActions) -> None:
    """Relaxation 4: an Excavate draws 2 (3) cards per rotated monument, but every draw stops
    at 10 in hand (RULES.md D4, D7; `GameState.draw`), so one takes at most 10 cards off the
    deck (with creation times, `handtime.balance_hand` adds it too)."""
    for i in range(ctx.n_slots):
        ctx.model.add(turns.excavated[i] <= HAND_LIMIT * turns.excavations[i])


def pay_in_kind(ctx: Context, effects: Effects, totals: RunningTotals, draws: Draws,
                reshuffle: Var | None) -> None:
    """A price of N cards of one type from the hand (Moai Statue, A7: "discard 2 artifact
    cards, then draw 4"; `effects.paid_from_hand`) is paid only with cards of that type that
    reach the hand: those in it now and those drawn later. Every card that enters the hand
    comes from the top of the builder deck (RULES.md section 5; no effect takes a card back
    from the discard pile), so a card of the type at position `p` (0 = the top) counts only
    once `p + 1` cards have left the deck by the end of the game (the same depth as
    `cardflow.dig_for_cards`; cards revealed and not kept count too: an upper bound), and
    only if the reach can dig that deep (`reach.read_reach`). The cards paid go to the
    discard pile and may come back after a reshuffle, where the row is lifted."""
    st, m = ctx.state, ctx.model
    if not effects.paid_by_type:
        return
    dug = totals.dug[-1] + draws.dug_by_effects
    for kind, paid in effects.paid_by_type.items():
        now = sum(1 for c in st.hand if st.book.kinds[c] == kind)
        reachable = sorted(p for c, p in ctx.reach.positions.items()  # deeper: never drawn
                           if 0 <= p < len(st.deck) and st.book.kinds[c] == kind)
        # the cards of the type among the top d (a step function of d, j + 1 from depth
        # p_j + 1) are at most its upper concave envelope: a few rows, no Boolean per card
        got = m.new_int_var(0, len(reachable), f"drawn_{kind}")
        for (x1, y1), (x2, y2) in concave_envelope([(0, 0)] + [(p + 1, j + 1)
                                                       for j, p in enumerate(reachable)]):
            m.add((x2 - x1) * got <= (y2 - y1) * dug + y1 * x2 - y2 * x1)
        row = m.add(paid <= now + got)
        if reshuffle is not None:
            row.only_enforce_if(~reshuffle)


Point = tuple[int, int]


def concave_envelope(points: list[Point]) -> list[tuple[Point, Point]]:
    """The segments of the upper concave hull of `points` (x strictly ascending): each
    segment's line lies on or above every point, and so above a step function that rises
    only at the points."""
    hull: list[Point] = []
    for pt in points:
        while len(hull) >= 2:
            (x1, y1), (x2, y2) = hull[-2], hull[-1]
            if (y2 - y1) * (pt[0] - x1) <= (pt[1] - y1) * (x2 - x1):
                hull.pop()
            else:
                break
        hull.append(pt)
    return list(pairwise(hull))
