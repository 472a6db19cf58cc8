"""The last turn's tile refills (relaxation 7, with `technologies`): a technology dealt by a
refill is learned only after the departures that cause it.

RULES.md section 5 (Learn): a tile left with exactly one card is refilled with 3 from the top
of its level's deck. In the last turn no technology phase comes (its decline phase ends the
game at once, D8), so a technology leaves a tile only by a Learn, or by an effect that puts it
under its deck or holds it (``bury_tech``, ``hold_tech``: Candi Kethek P35, Latin Alphabet T27);
the Pyramid of the Niches (P7) learns one of the Level II deck's top 7 without a refill. So,
level by level, with the technologies not on the tiles now called *fresh*:

* a tile's first refill needs all but one of its cards now gone: learned, or taken by an
  effect;
* a later refill needs a refill before it and two fresh cards gone (a refilled tile holds 3);
* fresh cards learned are at most 3 per refill of their level, plus (Level II) one per
  Pyramid of the Niches created;
* the effects take at most their removals per activation: a technology's once it is learned,
  a builder card's once per creation (an immediate effect; one whose effect may run again, or
  one the model cannot count, leaves the whole rule out).

Every line maps onto these counts (each refill and each taken card counted where it happens),
so the constraints only cut assignments no line reaches.
"""

from __future__ import annotations

from solver.bounds.cpsat.context import Context, LinExpr
from solver.bounds.cpsat.reach import tile_facts
from solver.bounds.cpsat.variables import Monuments, Technologies
from solver.bounds.techrow import chests_take_techs, tile_ops_under_way
from solver.engine.setup import turns_for


def takes(ctx: Context, techs: Technologies,
           monuments: Monuments) -> tuple[LinExpr, LinExpr] | None:
    """(technologies the effects can take off the tiles, Learns of the Pyramid of the Niches),
    or None when some effect that may run cannot be counted (see the module)."""
    st = ctx.state
    takers, _, _ = tile_facts(st)
    past, known = set(st.past), set(st.techs)
    in_play = set(st.artifacts) | {c for sp in st.spaces for c in sp}
    taken: LinExpr = 0
    niches: LinExpr = 0
    for t in takers:
        c = t.card
        if c in past or c in known:
            continue  # its immediate effect has run (none is under way: checked by the caller)
        if t.tech:
            if c not in techs.learned:
                continue
            act: LinExpr = techs.learned[c]
        elif c in in_play:
            if t.once:
                continue
            return None
        elif c not in ctx.reach.positions:
            continue  # never reaches the hand
        elif c in monuments.created:
            act = monuments.created[c]
        else:
            return None
        if not t.immediate:
            return None
        taken = taken + (t.removals - t.niches) * act
        if t.niches:
            niches = niches + act
    return taken, niches


def limit_refills(ctx: Context, techs: Technologies, monuments: Monuments) -> None:
    """The constraints of the module, in the last turn only (with nothing under way, no chest
    that takes a technology, no technology in limbo)."""
    st, m, cards = ctx.state, ctx.model, ctx.cards
    if (st.over or max(st.turn, 1) != turns_for(st.setup.time_space) or st.limbo
            or chests_take_techs(st) or tile_ops_under_way(st)):
        return
    counted = takes(ctx, techs, monuments)
    if counted is None:
        return
    taken, niches = counted
    on_tiles = set(st.available_techs())
    fresh_all = [t for t in techs.learnable if t not in on_tiles]
    if not fresh_all:
        return
    top = len(fresh_all) + 3 * 3
    shares: list[LinExpr] = []  # removals by effects, tile by tile and per level's later refills
    for lv in (1, 2):
        fresh = [techs.learned[t] for t in fresh_all if cards[t].level == lv]
        firsts: list[LinExpr] = []
        for k in range(3):
            if st.tile_level[k] != lv:
                continue
            held = [c for c in st.tiles[3 * k:3 * k + 3] if c >= 0]
            if len(held) < 2:
                continue  # an empty tile stays empty
            b = m.new_bool_var(f"refill_{k}")
            y = m.new_int_var(0, 3, f"refill_{k}_taken")
            m.add((len(held) - 1) * b <= sum(techs.learned.get(c, 0) for c in held) + y)
            firsts.append(b)
            shares.append(y)
        if not fresh:
            continue
        later = m.new_int_var(0, top, f"refill_{lv}_later")
        y_later = m.new_int_var(0, top, f"refill_{lv}_later_taken")
        m.add(2 * later <= sum(fresh) + y_later)
        m.add(later <= top * sum(firsts))
        shares.append(y_later)
        m.add(sum(fresh) <= 3 * (sum(firsts) + later) + (niches if lv == 2 else 0))
    m.add(sum(shares) <= taken)
