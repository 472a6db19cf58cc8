"""The last turn's technologies (`solver.bounds.techrow`), the Past's requirements after the last
decline, and the split of the last action choices, in the simple bound (issue 13: a bound at
the last turn's start that prunes the turn-15 search).

RULES.md section 5 (Learn: an available technology; a tile left with one card is refilled with
3 from its level's deck), section 4 (the last turn ends at its decline phase, D8: no decline
and no technology phase), section 4C step 2 (only a decline moves a card to the Past)."""

from __future__ import annotations

import pytest

from solver.bounds.poolfacts import pool_facts
from solver.bounds.reachable import reach
from solver.bounds.simple import (
    _in_play_by_the_end,
    _learnable_later,
    decline_phases_left,
    simple_upper_bound,
)
from solver.bounds.techrow import TileTaker, last_turn_techs, refills, tile_takers
from solver.engine import actions as A
from solver.engine.setup import turns_for
from solver.engine.state import GameState
from tests.builder import idx, position
from tests.test_endgame import SEEDS, plain_optimum, random_line
from tests.test_relaxation import endgame

# tile A (Level I) holds 2 technologies, tile B (Level I) 3, tile C (Level II) 3
TILES = ["T3", "T4", None, "T10", "T11", "T12", "T34", "T45", "T32"]
PAST = ["C18", "C22", "C23"]  # three cities, no end-game rule


def _last_turn(actions_used: int = 0, tiles: list[str | None] | None = None,
               past: list[str] | None = None, timeline: dict[int, list[str]] | None = None,
               ) -> GameState:
    st = position(hand=["C34"], timeline=timeline or {}, past=PAST if past is None else past,
                  tiles=TILES if tiles is None else tiles, time_space=1, time_visits=2, turn=16,
                  deck_top=["C24", "C33", "M9"])
    for _ in range(actions_used):
        st.apply(A.ACT_SEARCH)
    return st


def _row(st: GameState, learns: int) -> frozenset[int] | None:
    """`last_turn_techs` with the cards that may be in play by the end, as the bound asks."""
    facts = pool_facts(st)
    present = _in_play_by_the_end(st, facts, None)
    assert present is not None
    return last_turn_techs(st, learns, facts.tile_takers, facts.chest_takers, present)


def test_refills_count_the_removals_a_tile_needs() -> None:
    """A tile is refilled when it is left with one card: tile A (2 cards) after 1 removal,
    tile B (3) after 2, and a refilled tile after 2 more."""
    st = _last_turn()
    assert [refills(st, r, 1) for r in range(6)] == [0, 1, 1, 2, 2, 3]
    assert [refills(st, r, 2) for r in range(6)] == [0, 0, 1, 1, 2, 2]


def test_the_row_is_the_tiles_and_what_the_refills_before_a_learn_turn_up() -> None:
    """One Learn left: only the technologies on the tiles (a refill it causes comes after it).
    Two: also the top 3 of the Level I deck (tile A is refilled after one removal), none of
    the Level II deck (tile C needs two removals). Nothing learned is a candidate."""
    st = _last_turn()
    on_tiles = {c for c in st.tiles if c >= 0}
    assert _row(st, 1) == frozenset(on_tiles)
    assert _row(st, 2) == frozenset(on_tiles | set(st.tech_decks[0][-3:]))
    three = _row(st, 3)
    assert three is not None and set(st.tech_decks[1][-3:]) <= three
    assert not set(st.tech_decks[1][:-3]) & three


def test_not_in_the_last_turn_no_row() -> None:
    st = position(hand=["C34"], past=PAST, tiles=TILES, time_space=2, time_visits=2, turn=15)
    assert max(st.turn, 1) != turns_for(st.setup.time_space)
    assert last_turn_techs(st, 1, pool_facts(st).tile_takers, False, set()) is None


def test_an_empty_deck_brings_in_its_discards() -> None:
    """A refill that reaches past the deck's bottom reshuffles the level's discards: every
    one of them is a candidate."""
    st = _last_turn()
    st.tech_discards[0] = st.tech_decks[0][:4]
    st.tech_decks[0] = st.tech_decks[0][-2:]
    row = _row(st, 2)
    assert row is not None and set(st.tech_discards[0]) <= row


def test_a_card_that_buries_a_technology_widens_the_row() -> None:
    """Candi Kethek (an immediate effect that buries 2 available technologies) in hand: its
    removals count (two more refills may follow); in the Past it never acts."""
    st = position(hand=["C34", "P35"], past=PAST, tiles=TILES, time_space=1, time_visits=2,
                  turn=16, deck_top=["C24"])
    card = idx(st, "P35")
    assert card in {t.card for t in pool_facts(st).tile_takers}
    wide = _row(st, 1)
    assert wide is not None and set(st.tech_decks[0][-3:]) <= wide
    st.hand.remove(card)
    st.past = sorted([*st.past, card])
    assert _row(st, 1) == frozenset(c for c in st.tiles if c >= 0)


def test_the_takers_are_the_cards_that_bury_or_hold() -> None:
    st = _last_turn()
    takers = {st.book.cards[t.card].code for t in tile_takers(st.book.cards, frozenset(
        c.index for c in st.book.cards))}
    assert {"P35", "T27"} <= takers  # Candi Kethek, Latin Alphabet
    assert "P7" not in takers  # the Pyramid of the Niches acts at its decline: none is left


def test_past_requirements_are_final_after_the_last_decline() -> None:
    """Golden Mean (T34) asks for 3 cities in the Past: with 2 it can never be learned again
    (the Past only grows at a decline), unless Candi Sukuh may still lower the value (D19);
    with 3 it is a candidate. The pool's one card with a Learn that ignores requirements, M34
    Montguyon Dolmen, learns at its decline, and the last turn has none (D8): it lifts no
    filter, wherever it is."""
    def later(st: GameState) -> set[int] | None:
        facts = pool_facts(st)
        return _learnable_later(st, facts, _in_play_by_the_end(st, facts, None))

    two = _last_turn(past=["C18", "C22"])
    assert decline_phases_left(two) == 0
    t34 = idx(two, "T34")
    # M34 and Candi Sukuh (P19) anywhere: M34 never acts, P19 may lower the value to 2 (D19)
    anywhere = _learnable_later(two, pool_facts(two))
    assert anywhere is not None and t34 in anywhere
    found = later(two)
    assert found is not None and t34 not in found
    found = later(_last_turn())
    assert found is not None and t34 in found
    found = later(_last_turn(past=["C18", "C22"], timeline={3: ["P19"]}))
    assert found is not None and t34 in found


@pytest.mark.parametrize("past", [PAST, ["C18", "C22"]])
def test_one_action_is_a_create_or_a_learn_not_both(past: list[str]) -> None:
    """One action left, a monument in hand and Golden Mean (2 VP) learnable: the action brings
    the technology or a Timeline monument, not both, so the bound is the optimum (counting
    both would add 1)."""
    st = _last_turn(actions_used=1, past=past)
    facts = pool_facts(st)
    complete, best = plain_optimum(st)
    assert complete and best is not None
    assert simple_upper_bound(st, facts) == best


def test_every_technology_learned_in_the_last_turn_was_in_the_row() -> None:
    """Along random end-game lines: every technology that enters the collection after a
    position of the last turn was in that position's row, with the Learns and the cards in
    play the simple bound uses (some positions with a row and a Learn after them are seen); and
    in its candidates after the Past's and lost knowledge's requirements (`_learnable_later`)."""
    seen = 0
    for seed in SEEDS:
        st = endgame(seed)
        facts = pool_facts(st)
        line = random_line(st, seed, 60)
        final = set(line[-1].techs)
        for pos in line:
            if pos.over or decline_phases_left(pos) != 0:
                continue
            r = reach(pos, facts.activators, 0, facts.poulnabrone)
            present = _in_play_by_the_end(pos, facts, None)
            if present is not None:
                r = reach(pos, facts.activators, 0, facts.poulnabrone, present=present)
            later = _learnable_later(pos, facts, present)
            assert later is None or final - set(pos.techs) <= later, (seed, pos.stack[-1:])
            row = last_turn_techs(pos, r.learns, facts.tile_takers, facts.chest_takers, present)
            if row is None:
                continue
            assert final - set(pos.techs) <= row, (seed, pos.stack[-1:])
            seen += bool(final - set(pos.techs))
    assert seen >= 5


@pytest.mark.parametrize("seed", SEEDS)
def test_bound_at_least_the_optimum_in_the_last_turn(seed: int) -> None:
    """Admissible with the row, the Past's requirements and the splits: at positions of the
    last turn along a random end-game line, never below the optimum of a search with no
    bound."""
    st = endgame(seed)
    facts = pool_facts(st)
    for pos in random_line(st, seed, 30)[::3]:
        if pos.over or max(pos.turn, 1) != turns_for(pos.setup.time_space):
            continue
        complete, best = plain_optimum(pos)
        if not complete or best is None:
            continue
        assert simple_upper_bound(pos, facts) >= best, (seed, pos.stack[-1:])


def test_a_taker_in_play_that_may_act_again_lifts_the_restriction() -> None:
    """A card in play whose effect takes technologies off the tiles at another moment than its
    creation (a Timeline effect: it runs again in this turn's Timeline phase, RULES.md section
    4B) may turn up refills (section 5, Learn): no restriction; one whose only such effect is
    immediate has acted (none)."""
    st = _last_turn(timeline={3: ["C30"]})
    card = idx(st, "C30")
    again = (TileTaker(card, False, 2, False),)
    done = (TileTaker(card, False, 2, True),)
    assert last_turn_techs(st, 1, again, False, None) is None
    assert last_turn_techs(st, 1, done, False, None) == frozenset(c for c in st.tiles if c >= 0)
