"""The technologies the tiles can still deal, followed card by card (relaxation 7, with
`technologies` and `tiles`): a technology not on a tile now is learned only after the
departures from its level's tiles that bring it there.

RULES.md section 5 (Learn) and 4D: a technology leaves a tile when it is learned or when the
technology phase's die discards the card in its slot; a tile left with exactly one card
discards it and is refilled with 3 cards from the top of its level's deck, and an empty deck is
replaced by its discard pile shuffled (section 3 step 1: a seeded shuffle of the sorted pile,
`GameState.reshuffle_tech`). After the middle of the game (section 6) the die acts on Level II
only (D9), and its rolls are the deal's. So from a position, level by level, every sequence of
departures can be followed exactly, each a Learn of any card on the level's tiles (the card
leaves) or the next die roll (its slot's card, if any, goes to the discard pile): a
breadth-first walk of those sequences gives, for each card, the fewest departures before it
shows on a tile. Which cards a reshuffle brings back, and in what order, depends on the pile
at that moment, so the walk keeps one *scenario* per content of the first reshuffle's pile.

In the model, one scenario at most is chosen (none: no reshuffle), a card is learned only in a
scenario where it shows, and a learned card's departures before it are counted by the
level's Learns plus the die rolls left (Level II), at least its fewest in that scenario plus
its own Learn. Any line maps onto this: its first reshuffle (if any) is a scenario of the walk,
and every departure it makes is one of those counted. A walk that would pass `MAX_STATES`
positions stops; every card it has not reached by then counts the depth it stopped at, in an
extra scenario open to every card (sound, looser). Scenarios whose needs are all at least
another's are dropped (a line in one also satisfies the other's constraints). Which cards
were learned when a card shows is known too (a position of the walk tells them): a card is
learned only with one of the least such sets (`learn_sets`, session 49; t3-h3's turn-15 plan
learned Ari-kat, T39, after a reshuffle that needs two cards of tile B learned first, with
one).

The rule is left out wherever a departure of another kind may come: before the middle of the
game (the flip deals a tile), with a technology in limbo or a tile operation under way, a
chest that takes technologies, or a die roll the deal does not hold. An effect that buries,
holds or reveals technologies (Candi Kethek P35, Latin Alphabet T27, the Pyramid of the Niches
P7: `tiles.takes`) voids the rule only in the model's lines where its card is created or
learned (`_takers`; before session 49, wherever it could be); a decline effect that does so
(P7's look at the Level II deck: `tiles.takes` counts no decline effect, none running in the
last turn), in those where its card declines into the Past, while a decline phase is still
to come.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from solver.bounds.cpsat.context import Context, LinExpr
from solver.bounds.cpsat.tiles import takes
from solver.bounds.cpsat.variables import Monuments, Technologies
from solver.bounds.simple import decline_phases_left
from solver.bounds.techrow import TILE_OPS, chests_take_techs, tile_ops_under_way
from solver.engine.cards import all_steps
from solver.engine.state import GameState
from solver.rng import shuffled

#: The most least sets of Learns kept for one card (more: no such rule for it).
MAX_SETS: Final = 32
#: The most positions one walk visits (0.1-0.2 s a level in pure Python on the suite's turn-15
#: starts, cached by the technology state); deeper cards count the depth reached (the extra
#: scenario of the module).
MAX_STATES: Final = 20_000

# tiles (9 slots, -1 empty), deck (top last), discard pile, reshuffles, die rolls used,
# the first reshuffle's pile (None before it)
_Walk = tuple[tuple[int, ...], tuple[int, ...], frozenset[int], int, int, tuple[int, ...] | None]
# scenario -> card -> fewest departures before it shows; the depth a cut walk stopped at
Depths = tuple[dict[tuple[int, ...] | None, dict[int, int]], int | None]
# card -> the least sets of cards learned before it shows within the walk's complete depth;
# that depth (None: the whole walk)
LearnSets = tuple[dict[int, list[frozenset[int]]], int | None]

_CACHE: dict[tuple[object, ...], tuple[Depths, LearnSets]] = {}  # a pure cache (by its key)
_CACHE_SIZE: Final = 256


def die_slots(st: GameState, dice: int) -> tuple[int, ...] | None:
    """The slots the next `dice` rolls hit (`GameState.die_slot`: after the middle of the game,
    where the limits hold), or None if the deal holds fewer rolls."""
    rolls = st.setup.rolls[st.die_pos:st.die_pos + dice]
    if len(rolls) < dice:
        return None
    return tuple(st.die_slot(roll) for roll in rolls)


def _depart(w: _Walk, slot: int, learned: bool, seed: int, purpose: str) -> _Walk:
    """The position after the card in `slot` leaves (learned, or discarded by the die), with the
    tile rule and a refill (reshuffling the pile when the deck runs out) as the engine's
    `GameState.check_tile` / `fill_tile` / `reshuffle_tech` do, on the walk's compact tuples
    (tests/test_relaxation_techdeal.py plays the engine's own against it)."""
    ts, deck, pile, n, used, first = w
    tiles = list(ts)
    card = tiles[slot]
    tiles[slot] = -1
    if not learned:
        pile = pile | {card}
    k = slot // 3
    left = [c for c in tiles[3 * k:3 * k + 3] if c >= 0]
    if len(left) == 1:
        pile = pile | {left[0]}
        tiles[3 * k:3 * k + 3] = [-1, -1, -1]
        if len(deck) + len(pile) >= 3:
            cards = list(deck)
            for j in range(3):
                if not cards:
                    order = sorted(pile)
                    if first is None:
                        first = tuple(order)
                    cards = shuffled(seed, purpose, n, order)
                    n += 1
                    pile = frozenset()
                tiles[3 * k + j] = cards.pop()
            deck = tuple(cards)
    return tuple(tiles), deck, pile, n, used, first


def walk(st: GameState, level: int, slots: tuple[int, ...],
         max_states: int = MAX_STATES) -> Depths:
    """For each scenario (the first reshuffle's pile; None: before any), the fewest departures
    from the tiles of `level` before each card shows on one, and the depth the walk stopped at
    (None: it was complete). Cached by its inputs."""
    return _walked(st, level, slots, max_states)[0]


def learn_sets(st: GameState, level: int, slots: tuple[int, ...],
               max_states: int = MAX_STATES) -> LearnSets:
    """For each card of `level` not on a tile now, the least sets of cards learned from the
    level's tiles before it shows on one within the departures the walk followed to the end
    (a line that learns it after no more departures has learned one of them first), and that
    number of departures (None: all of them; a cut walk followed every sequence of one less
    than the depth it stopped at); none for a card with more than `MAX_SETS`. The cards
    learned by a position of the walk are those of the level that are neither on the tiles,
    in the deck nor in the discard pile, whatever the order of the departures."""
    return _walked(st, level, slots, max_states)[1]


def _least(masks: set[int], bits: Sequence[int]) -> list[frozenset[int]] | None:
    """The sets of `masks` (bit i: card ``bits[i]``) that hold no other one, smallest first;
    None if there are more than `MAX_SETS`."""
    kept: list[int] = []
    for x in sorted(masks, key=lambda x: (x.bit_count(), x)):
        if not any(k & x == k for k in kept):
            if len(kept) == MAX_SETS:
                return None
            kept.append(x)
    return [frozenset(c for i, c in enumerate(bits) if x >> i & 1) for x in kept]


def _walked(st: GameState, level: int, slots: tuple[int, ...],
            max_states: int) -> tuple[Depths, LearnSets]:
    """`walk` and `learn_sets`, from one breadth-first walk."""
    key = (st.setup.seed, level, tuple(st.tile_level), tuple(st.tiles),
           tuple(st.tech_decks[level - 1]), tuple(sorted(st.tech_discards[level - 1])),
           st.reshuffles[level], slots, max_states)
    got = _CACHE.get(key)
    if got is not None:
        return got
    purpose = "tech1-reshuffle" if level == 1 else "tech2-reshuffle"
    seed = st.setup.seed
    mine = [k for k in range(3) if st.tile_level[k] == level]
    start: _Walk = (tuple(st.tiles), tuple(st.tech_decks[level - 1]),
                    frozenset(st.tech_discards[level - 1]), st.reshuffles[level], 0, None)
    depths: dict[tuple[int, ...] | None, dict[int, int]] = {
        None: {c: 0 for k in mine for c in st.tiles[3 * k:3 * k + 3] if c >= 0}}
    frontier = [start]
    depth = 0
    cut: int | None = None
    bits = sorted(c for c in (*start[0], *start[1], *start[2]) if c >= 0
                  and st.book.cards[c].level == level)
    bit = {c: 1 << i for i, c in enumerate(bits)}
    # every position reached, with the cards it has learned as bits (they follow from it)
    learned_by = {start: 0}
    on_tiles = frozenset(depths[None])
    shows: dict[int, set[int]] = {}  # card -> the cards learned where it shows, as bits
    while frontier and cut is None:
        nxt: list[_Walk] = []
        for w in frontier:
            ts, used, mask = w[0], w[4], learned_by[w]
            moves = [(_depart(w, 3 * k + j, True, seed, purpose), mask | bit[ts[3 * k + j]])
                     for k in mine for j in range(3) if ts[3 * k + j] >= 0]
            if used < len(slots):
                sl = slots[used]
                after = _depart(w, sl, False, seed, purpose) \
                    if st.tile_level[sl // 3] == level and ts[sl] >= 0 else w
                moves.append(((*after[:4], used + 1, after[5]), mask))
            for w2, learned in moves:
                if w2 in learned_by:
                    continue
                learned_by[w2] = learned
                shown = depths.setdefault(w2[5], {})
                for k in mine:
                    for c in w2[0][3 * k:3 * k + 3]:
                        if c >= 0:
                            shown.setdefault(c, depth + 1)
                            if c not in on_tiles:
                                shows.setdefault(c, set()).add(learned)
                nxt.append(w2)
            if len(learned_by) > max_states:
                cut = depth + 1
                break
        frontier = nxt
        depth += 1
    least_sets: dict[int, list[frozenset[int]]] = {}
    for c, xs in shows.items():
        least = _least(xs, bits)
        if least is not None:
            least_sets[c] = least
    sets: LearnSets = (least_sets, None if cut is None else cut - 1)
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.clear()
    _CACHE[key] = ((depths, cut), sets)
    return (depths, cut), sets


def _needs(depths: Depths, cards: Sequence[int]) -> tuple[dict[int, int], list[dict[int, int]]]:
    """(each card's fewest departures with no reshuffle, then one map per scenario kept): a
    card missing from a map never shows in that scenario. Dominated scenarios are dropped."""
    by_scenario, cut = depths
    before = by_scenario.get(None, {})
    scenarios: list[dict[int, int]] = []
    for sc, shown in by_scenario.items():
        if sc is None:
            continue
        need: dict[int, int] = {}
        for c in cards:
            seen = [d for d in (shown.get(c), before.get(c)) if d is not None]
            if cut is not None:
                seen.append(cut)  # not reached within the walk: at least its depth
            if seen:
                need[c] = min(seen)
        scenarios.append(need)
    if cut is not None:
        scenarios.append({c: min(cut, before.get(c, cut)) for c in cards})
    unique = {tuple(sorted(s.items())): s for s in scenarios}
    ordered = sorted(unique.values(), key=lambda s: (-len(s), sum(s.values())))
    kept: list[dict[int, int]] = []
    for s in ordered:
        if not any(s.keys() <= k.keys() and all(k[c] <= d for c, d in s.items()) for k in kept):
            kept.append(s)
    none = {c: before[c] for c in cards if c in before}
    return none, kept


def _decline_takers(ctx: Context, monuments: Monuments) -> LinExpr | None:
    """True exactly in the model's lines where a monument whose decline effect takes
    technologies (`TILE_OPS`: the Pyramid of the Niches' look at the Level II deck) declines
    into the Past in a decline phase still to come (None when none can). Both ways: a line
    with no such decline keeps the deal rule (the module's argument holds for it), so the
    model may not stand the rule aside for free (t3-h2's turn-15 start: 79 with the escape
    free, 78, the line's VP, with it tied to a decline)."""
    if not decline_phases_left(ctx.state):
        return None
    takers = [c for c in sorted(monuments.in_past) if any(
        e.moment == "decline" and any(s.op in TILE_OPS for s in all_steps(e.steps))
        for e in ctx.cards[c].effects)]
    if not takers:
        return None
    some = ctx.model.new_bool_var("deal_decline_taker")
    for c in takers:
        ctx.model.add(some >= monuments.in_past[c])
    _only_with_a_decline(ctx, some, [monuments.in_past[c] for c in takers])
    return some


def _takers(ctx: Context, taken: LinExpr, niches: LinExpr) -> LinExpr | None:
    """True only in the model's lines where an effect takes technologies off the tiles
    (`tiles.takes`: Candi Kethek, P35, created; Latin Alphabet, T27, learned), None when
    none can: a line where none does keeps the deal rule, so the rule stands aside only
    where one may."""
    if isinstance(taken, int) and isinstance(niches, int) and taken == niches == 0:
        return None
    some = ctx.model.new_bool_var("deal_taker")
    ctx.model.add(some <= taken + niches)
    return some


def _escape(ctx: Context, escapes: list[LinExpr | None]) -> LinExpr | None:
    """True only where one of `escapes` is (the rule does not bind: module); None if none
    can be."""
    some = [e for e in escapes if e is not None]
    if len(some) <= 1:
        return some[0] if some else None
    either = ctx.model.new_bool_var("deal_escape")
    ctx.model.add(either <= sum(some))
    return either


def _only_with_a_decline(ctx: Context, escape: LinExpr, declines: list[LinExpr]) -> None:
    """The escape of `_decline_takers` false where none of `declines` happens."""
    ctx.model.add(escape <= sum(declines))


def limit_deals(ctx: Context, techs: Technologies, monuments: Monuments) -> None:
    """The constraints of the module (where they hold: see its last paragraph)."""
    st, m, cards = ctx.state, ctx.model, ctx.cards
    if (st.over or not st.midgame or st.limbo or chests_take_techs(st)
            or tile_ops_under_way(st)):
        return
    counted = takes(ctx, techs, monuments)
    if counted is None:
        return
    dice = sum(1 for sl in ctx.slots if not sl.ends)
    slots = die_slots(st, dice)
    if slots is None:
        return
    held = {t for _, t in st.held}
    escape = _escape(ctx, [_decline_takers(ctx, monuments), _takers(ctx, *counted)])
    for level in (1, 2):
        mine = [t for t in techs.learnable if cards[t].level == level and t not in held]
        if not mine:
            continue
        depths, sets = _walked(st, level, slots, MAX_STATES)  # one walk: both answers
        none, scenarios = _needs(depths, mine)
        if all(none.get(t, 1) == 0 for t in mine):
            continue  # every card is on a tile now
        rolls = sum(1 for s in slots if st.tile_level[s // 3] == level)
        departures: LinExpr = sum(techs.learned[t] for t in mine) + rolls
        chosen = [m.new_bool_var(f"deal{level}_{i}") for i in range(len(scenarios))]
        m.add(sum(chosen) <= 1)
        no_reshuffle: LinExpr = 1 - sum(chosen)
        # No walk shows any card of the level (its tiles empty for good): each is forced
        # out below, and the big-M is never read.
        big = 2 + max([*none.values(), *(d for sc in scenarios for d in sc.values())],
                      default=0)
        for t in mine:
            if none.get(t) == 0:
                continue  # on a tile now (it shows at depth 0 in every scenario)
            open_to: list[LinExpr] = []
            need: LinExpr = 0
            if t in none:
                open_to.append(no_reshuffle)
                need = need + (none[t] + 1) * no_reshuffle
            for z, sc in zip(chosen, scenarios, strict=True):
                if t in sc:
                    open_to.append(z)
                    need = need + (sc[t] + 1) * z
            x = techs.learned[t]
            rules = [x == 0] if not open_to else [
                x <= sum(open_to), departures >= need - big * (1 - x)]
            for rule in rules:
                if escape is None:
                    m.add(rule)
                else:
                    m.add(rule).only_enforce_if(~escape)
            if open_to and t in sets[0]:
                _learned_first(ctx, t, sets[0][t], sets[1], techs, departures, escape)


def _learned_first(ctx: Context, t: int, sets: list[frozenset[int]], depth: int | None,
                   techs: Technologies, departures: LinExpr, escape: LinExpr | None) -> None:
    """A card not on a tile now is learned only if one of the least sets of cards learned
    before it shows (`learn_sets`) is learned too: only Learns and die rolls take cards off
    the tiles (RULES.md section 4D), so the cards a line has learned when `t` first shows hold
    one of them, and a Learn is never undone. Where the walk was cut (`depth` departures
    followed to the end), a line may also bring `t` later, after at least `depth` + 1
    departures, then its own Learn: `departures` (the level's Learns and die rolls) at least
    `depth` + 2. A set with a card the model cannot learn is out; an empty set (the die rolls
    alone bring `t`) leaves nothing to say."""
    m, learned = ctx.model, techs.learned
    if frozenset() in sets:
        return
    code = ctx.cards[t].code
    some: list[LinExpr] = []
    for i, x in enumerate(sets):
        if not all(c in learned for c in x):
            continue
        y = m.new_bool_var(f"first_{code}_{i}")
        for c in sorted(x):
            m.add(y <= learned[c])
        some.append(y)
    if depth is not None:
        late = m.new_bool_var(f"late_{code}")
        m.add(departures >= depth + 2).only_enforce_if(late)
        some.append(late)
    rule = m.add(learned[t] <= sum(some))
    if escape is not None:
        rule.only_enforce_if(~escape)
