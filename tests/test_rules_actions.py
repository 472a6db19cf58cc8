"""Rules of the actions that the card tests left unchecked at their edges (mutation testing).

Create (RULES.md section 5: cost = discard cost + distance, a locked card only in its starting
space), Learn (section 5: a requirement met exactly; Candi Sukuh's lowering by exactly 1 of one
"at least" value, D19, also for Pyramid of the Niches P7), Archive and mandatory knowledge
removal (section 5, D2, D6: "as far as possible"), and effect costs paid from hand (C35 Tulum,
T17 Earthquake Engineering, A3 Planetary Stone: card-clarifications.md), including the first
cards of the book (C1, C2), which a card-order cursor must not skip.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solver.engine import flow
from solver.engine.frames import D_ACTION, F_DECLINE_PHASE, F_TIMELINE_PHASE
from solver.engine.state import GameState
from tests.builder import STOP, at_stop, codes, idx, names_of, play, position, tok

# ------------------------------------------------------------------ helpers

def one_action(**kw: Any) -> GameState:
    """A position at an action choice; the engine stops after that one action."""
    return position(pending=[STOP, (D_ACTION, 0)], **kw)


def timeline_phase(**kw: Any) -> GameState:
    """A position at the start of the Timeline phase; the engine stops right after it."""
    return position(pending=[STOP, (F_TIMELINE_PHASE,)], **kw)


def niches_decline(level2_top_first: Sequence[str], **kw: Any) -> GameState:
    """P7 Pyramid of the Niches declines from space 1 with Candi Sukuh (P19) in the Timeline
    and exactly these Level II technologies in the deck (the first on top)."""
    timeline = {1: ["P7"], 4: ["P19"]}
    st = position(timeline=timeline, time_space=5, **kw)
    st.tech_decks[1] = [idx(st, t) for t in reversed(level2_top_first)]
    st.stack = [STOP, (F_DECLINE_PHASE,)]
    flow.settle(st)
    return st


# ------------------------------------------------------------------ Create

def test_create_not_offered_when_the_only_free_spaces_cost_more_than_the_hand() -> None:
    """RULES.md section 5, Create: the cost is discard cost + |space - starting space|. C1
    (cost 1, starting space 4) with 1 other card in hand can only go to space 4; space 4 is
    full, so C1 cannot be created even though spaces 2, 3, 5 and 6 are free (they would cost
    2 or 3). C3 (cost 2) is not affordable either: Create is not an action option."""
    st = position(hand=["C1", "C3"], timeline={4: ["M8"]}, time_space=4)
    assert codes(st, st.spaces[3]) == ["M8", "TIME"]
    assert "create" not in names_of(st)
    assert names_of(st) == ["archive", "search"]


def test_create_locked_monument_with_exactly_its_cost_in_other_cards() -> None:
    """RULES.md section 5, Create: a locked card goes to its starting space only, and is
    affordable when the other cards in hand are exactly its discard cost. M9 (locked, space 3,
    cost 1) with one other card (C3): it is placed in space 3 and C3 is discarded."""
    st = one_action(hand=["C3", "M9"], time_space=6)
    play(st, "create")  # M9 is the only creatable card, space 3 its only space: both taken
    assert at_stop(st)
    assert codes(st, st.spaces[2]) == ["M9"]
    assert codes(st, st.discard) == ["C3"]
    assert st.hand == [] and st.limbo == []


# ------------------------------------------------------------------ Learn

def test_learn_is_an_action_when_a_requirement_is_met_exactly() -> None:
    """RULES.md section 5, Learn: the requirement is "at least": T2 Aristotle (2 pyramids in
    the Past) with exactly 2 Past pyramids, the only available technology, makes Learn legal."""
    st = position(hand=["C1"], past=["P1", "P2"],
                  tiles=[None, "T2", None, None, None, None, None, None, None])
    assert "learn" in names_of(st)
    play(st, "learn")  # T2 is the only option: taken
    assert codes(st, st.techs) == ["T2"]


def test_candi_sukuh_does_not_lower_a_requirement_by_two() -> None:
    """RULES.md D19: Candi Sukuh (P19) in the Timeline lowers one "at least" value by 1, not
    2: T2 Aristotle (2 Past pyramids) is not offered with no Past pyramid; the fillers without
    requirement (T9, T26) are."""
    st = position(hand=["C1"], timeline={4: ["P19"]}, time_space=5,
                  tiles=["T9", "T26", None, "T2", None, None, None, None, None])
    play(st, "learn")
    assert names_of(st) == ["T9", "T26"]


def test_niches_with_candi_sukuh_two_values_short_stay_unmet() -> None:
    """P7 Pyramid of the Niches (card-clarifications: "Candi Sukuh applies") and D19: only one
    "at least" value may be lowered. T39 Ari-kat (3 cities, 3 megaliths, 3 pyramids in the Past)
    with 2 cities and 2 megaliths is short on two values: not learnable. T40 Chinese Alphabet
    (3 Past megaliths) with 2 is met once lowered: the only option, learned."""
    st = niches_decline(["T39", "T40"], hand=["C20"],
                        past=["C1", "C2", "M1", "M2", "P1", "P2", "P3", "P4"])
    assert codes(st, st.techs) == ["T40"]
    assert at_stop(st)


def test_niches_with_candi_sukuh_lowers_a_value_by_one_only() -> None:
    """P7 with Candi Sukuh (D19: lower by 1): T28 Imhotep (4 artifacts) with 2 artifacts on
    the board stays unmet; T40 (3 Past megaliths) with 2 is met once lowered and learned."""
    st = niches_decline(["T28", "T40"], hand=["C20"], artifacts=["A1", "A2"],
                        past=["M1", "M2"])
    assert codes(st, st.techs) == ["T40"]
    assert at_stop(st)


# ------------------------------------------------------------------ Archive

def test_archive_second_token_may_come_from_the_last_monument_holding_enough() -> None:
    """RULES.md section 5, Archive (D2): the knowledge removed is distributed as the player
    chooses. Archiving 2 cards with M1 (space 2) holding 2 and M3 (space 3) holding 1: after a
    first token from M1, the second may come from M1 or from M3 (1 token is enough)."""
    st = position(hand=["C1", "C2", "C3"], timeline={2: ["M1"], 3: ["M3"]},
                  tokens={"M1": 2, "M3": 1}, time_space=6)
    play(st, "archive", "C1", "C2", "done")
    # the first token can only come from M1 (from M3 on, 1 is too few for 2): taken at once
    assert tok(st, "M1") == 1
    assert names_of(st) == ["@M1", "@M3"]
    play(st, "@M3")
    assert (tok(st, "M1"), tok(st, "M3")) == (1, 0)


# ------------------------------------------------------------------ costs paid from hand

def test_tulum_may_discard_the_first_cards_of_the_book() -> None:
    """C35 Tulum (clarifications: mandatory, discard 1 hand card every Timeline phase): any
    card of the hand may be chosen, C1 and C2 included."""
    st = timeline_phase(hand=["C1", "C2"], timeline={4: ["C35"]}, time_space=6)
    assert names_of(st) == ["C1", "C2"]
    play(st, "C1")
    assert at_stop(st)
    assert codes(st, st.hand) == ["C2"] and codes(st, st.discard) == ["C1"]


def test_earthquake_engineering_may_discard_the_first_cards_of_the_book() -> None:
    """T17 Earthquake Engineering (clarifications: discard 0-3 cards, draw as many): every card
    of the hand is offered, C1 and C2 included; discarding C1 and C2 draws 2."""
    st = position(hand=["C1", "C2", "C3"], deck_top=["C20", "C21", "C22"],
                  tiles=["T9", "T26", None, "T17", None, None, None, None, None])
    play(st, "learn", "T17")
    assert names_of(st) == ["C1", "C2", "C3", "done"]
    play(st, "C1", "C2", "done")
    assert codes(st, st.hand) == ["C3", "C20", "C21"]
    assert codes(st, st.discard) == ["C1", "C2"]


def test_planetary_stone_offered_with_exactly_two_cards_in_hand() -> None:
    """A3 Planetary Stone (clarifications: optional, discard exactly 2 cards, then remove up
    to 3): with exactly 2 cards in hand the cost can be paid, so it is offered; accepted, both
    cards go and M1 loses up to 3 knowledge."""
    st = timeline_phase(artifacts=["A3"], hand=["C1", "C2"], timeline={2: ["M1"]},
                        tokens={"M1": 4})
    assert names_of(st) == ["yes", "no"]
    play(st, "yes")  # both cards are the only possible payment: discarded at once
    assert codes(st, st.discard) == ["C1", "C2"] and st.hand == []
    play(st, "@M1", "@M1", "@M1")
    assert at_stop(st)
    assert tok(st, "M1") == 1
