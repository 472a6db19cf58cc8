"""Every pyramid card (P1-P36): its effect, exact and tested (issue "Every base-game card effect").

Each test builds a position with `tests.builder.position`, reaches the card's activation moment
the way the rules do (Create for immediate effects, the Timeline phase, the decline phase with
the card in space 1, the triggering action, or final scoring), and asserts the exact change:
knowledge on named monuments, lost knowledge, hand, Past, technologies, score rows, and the
options offered, in notation. Card texts: `puzzles/data/cards/base.json` and
`/work/shared/reference/base-cards.json`; rules: RULES.md (sections and D-decisions) and
`reference/card-clarifications.md`.

Phases run on from the tested moment: after a Timeline phase the decline phase runs (space 1 is
kept empty so that only the slide happens), then the technology phase and the next turn's first
action. Knowledge is stored per card, so the slide does not change the counts asserted here.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from solver.engine import flow
from solver.engine.frames import (
    D_ACTION,
    F_DECLINE_PHASE,
    F_TECH_PHASE,
    F_TURN_END,
)
from solver.engine.sheet import ScoreSheet
from solver.engine.state import CHEST_BASE, EMPTY, GameState
from tests.builder import codes, idx, names_of, play, position, tile_codes, tok

# ------------------------------------------------------------------ helpers


def hand(st: GameState) -> list[str]:
    """The hand's codes in the engine's order (by card index, e.g. ["C1", "A1"]), unlike
    `tests.builder.hand`, which sorts them as strings."""
    return codes(st, st.hand)


def past(st: GameState) -> list[str]:
    return codes(st, st.past)


def techs(st: GameState) -> list[str]:
    return codes(st, st.techs)


def place(st: GameState, code: str) -> tuple[int, int]:
    """(space, row) of a Timeline monument; (0, 0) when it is not in the Timeline."""
    return st.place_of(idx(st, code))


def at_action(st: GameState, turn: int) -> bool:
    """The state waits for the first action of `turn` (the tested phase is over)."""
    fr = st.pending()
    return fr is not None and fr[0] == D_ACTION and fr[1] == 0 and st.turn == turn


def resume_decline(st: GameState) -> GameState:
    """Run the decline phase (then the technology phase) of a position that was built at the
    action phase and then edited (for zones the builder cannot set, e.g. technology discards)."""
    st.stack = [(F_TURN_END,), (F_TECH_PHASE,), (F_DECLINE_PHASE,)]
    flow.settle(st)
    return st


def T(*numbers: int) -> list[str]:
    """Technology codes T<n>."""
    return [f"T{n}" for n in numbers]


# ================================================================== end-game cards
# RULES.md section 7: row 2 scores the end-game effects of monuments in the Past only.

ENDGAME_CASES: list[tuple[str, str, Sequence[str], Sequence[str], dict[int, list[str]], int]] = [
    # (id, card, other Past cards, technologies, Timeline, expected score().effects)
    # P1 Pyramid of Khafre: 5 VP with 8-11 technologies, 12 VP with 12 or more.
    ("P1-7-techs", "P1", [], T(*range(1, 8)), {}, 0),
    ("P1-8-techs", "P1", [], T(*range(1, 9)), {}, 5),
    ("P1-11-techs", "P1", [], T(*range(1, 12)), {}, 5),
    ("P1-12-techs", "P1", [], T(*range(1, 13)), {}, 12),
    # P2 Pyramid of Pepi II: 6 VP with 7 or more cities in the Past (cities without end-game VP).
    ("P2-6-cities", "P2", ["C6", "C7", "C8", "C9", "C10", "C11"], [], {}, 0),
    ("P2-7-cities", "P2", ["C6", "C7", "C8", "C9", "C10", "C11", "C12"], [], {}, 6),
    # P3 Meidum Pyramid: 4 VP with 3-4 secret technologies, 7 VP with 5 or more.
    ("P3-2-secret", "P3", [], T(10, 11, 1, 2, 3), {}, 0),
    ("P3-3-secret", "P3", [], T(10, 11, 12), {}, 4),
    ("P3-4-secret", "P3", [], T(10, 11, 12, 13), {}, 4),
    ("P3-5-secret", "P3", [], T(10, 11, 12, 13, 14), {}, 7),
    # P4 Palenque: 4 VP with 3-4 writing technologies, 7 VP with 5 or more.
    ("P4-2-writing", "P4", [], T(19, 20, 10, 11, 12), {}, 0),
    ("P4-3-writing", "P4", [], T(19, 20, 21), {}, 4),
    ("P4-4-writing", "P4", [], T(19, 20, 21, 22), {}, 4),
    ("P4-5-writing", "P4", [], T(19, 20, 21, 22, 23), {}, 7),
    # P5 Cahuachi Pyramids: 2 VP per complete trio of technology types.
    ("P5-no-writing", "P5", [], T(1, 2, 10, 11), {}, 0),
    ("P5-1-trio", "P5", [], T(1, 2, 10, 11, 19), {}, 2),
    ("P5-2-trios", "P5", [], T(1, 2, 10, 11, 19, 20), {}, 4),
    # P6 Great Ziggurat of Ur: 2 VP per complete trio of monument types in the Past (itself counts).
    ("P6-alone", "P6", [], [], {}, 0),
    ("P6-1-trio", "P6", ["C6", "M8"], [], {}, 2),
    ("P6-1-trio-2-2-1", "P6", ["P7", "C6", "C7", "M8"], [], {}, 2),
    ("P6-2-trios", "P6", ["P7", "C6", "C7", "M8", "M9"], [], {}, 4),
    # P32 Comalcalco Temple: 1 VP per end-game monument in the Past, itself included
    # (P1, M2, M19 are end-game cards that score 0 here; P7 and C6 are not end-game cards).
    ("P32-alone", "P32", [], [], {}, 1),
    ("P32-4-endgame", "P32", ["P1", "M2", "M19", "P7", "C6"], [], {}, 4),
    # P36 Janggun-chong: 6 VP with at least 3 monuments still in the Timeline.
    ("P36-2-in-timeline", "P36", [], [], {2: ["C6"], 3: ["C7"]}, 0),
    ("P36-3-in-timeline", "P36", [], [], {2: ["C6"], 3: ["C7"], 5: ["M8"]}, 6),
]


@pytest.mark.parametrize(
    ("card", "others", "owned", "timeline", "expected"),
    [pytest.param(*case[1:], id=case[0]) for case in ENDGAME_CASES],
)
def test_endgame_card_in_past_scores_its_effect(
    card: str, others: Sequence[str], owned: Sequence[str], timeline: dict[int, list[str]],
    expected: int,
) -> None:
    """P1-P6, P32, P36 (end-game): with the card in the Past, score row 2 (effects) is exactly
    the printed VP for the position (RULES.md section 7); the other Past cards score 0."""
    st = position(hand=["C1"], past=[card, *others], techs=owned, timeline=timeline)
    assert st.score().effects == expected


@pytest.mark.parametrize("card", ["P1", "P2", "P3", "P4", "P5", "P6", "P32", "P36"])
def test_endgame_card_in_timeline_scores_nothing(card: str) -> None:
    """P1-P6, P32, P36: an end-game card still in the Timeline scores no effect VP, only +1 as a
    Timeline monument (RULES.md section 7, rows 2 and 4), even where its condition holds."""
    st = position(
        hand=["C1"],
        timeline={2: [card], 3: ["C6"], 5: ["M8"]},
        past=["C7", "C8", "C9", "C10", "C11", "C12", "C13", "M2", "M9", "P7", "P9"],
        techs=T(1, 2, 3, 10, 11, 12, 13, 14, 19, 20, 21, 22, 23),
    )
    sheet = st.score()
    assert sheet.effects == 0
    assert sheet.timeline == 3


def test_p36_game_end_full_score_sheet() -> None:
    """P36 Janggun-chong at the real end of the game (D8: the third time the time card is in
    space 1 the game ends at once, space-1 monuments stay): 6 VP with 3 Timeline monuments,
    and the five rows of RULES.md section 7 are exact."""
    st = position(hand=["C1"], timeline={1: ["TIME", "C6"], 3: ["C7"], 5: ["M8"]},
                  past=["P36"], tokens={"C6": 2}, lost=3, time_visits=2, phase="decline")
    assert st.is_terminal()
    assert st.score() == ScoreSheet(past=1, effects=6, technologies=0, timeline=3,
                                    lost_knowledge=-3)


# ================================================================== P7 Pyramid of the Niches


def test_p7_niches_learns_a_qualifying_level2_and_orders_the_rest() -> None:
    """P7 (decline): look at the top 7 Level II technologies (T28-T34 here), learn one whose
    requirement is met (offered: exactly those), the other 6 go to the bottom of the Level II
    deck in the chosen order (clarifications P7). Then P7's knowledge becomes lost (section 4C)."""
    st = position(hand=["C4"], timeline={1: ["P7"]}, tokens={"P7": 3},
                  past=["C1", "C2", "C3"], lost=9, phase="decline")
    # T30 (9+ lost), T31 (3+ end-game Past cards: C1-C3), T34 (3+ Past cities) qualify;
    # T28 (4 artifacts), T29 (7 of a type), T32 (4 pyramids), T33 (3 ancient) do not.
    assert names_of(st) == ["T30", "T31", "T34"]
    play(st, "T34")
    assert techs(st) == ["T34"]
    assert names_of(st) == ["T28", "T29", "T30", "T31", "T32", "T33"]
    play(st, "T33", "T28", "T32", "T29", "T31")  # the last one, T30, goes under them all
    deck2 = codes(st, st.tech_decks[1])
    assert deck2[:6] == ["T30", "T31", "T29", "T32", "T28", "T33"]
    assert deck2[6:] == T(*range(45, 34, -1))  # the untouched rest, T35 on top
    assert st.limbo == []
    assert past(st) == ["C1", "C2", "C3", "P7"]
    assert st.lost == 12
    assert st.score().technologies == 2  # T34 Golden Mean is worth 2 VP


def test_p7_niches_nothing_qualifies_all_seven_go_to_the_bottom() -> None:
    """P7: when no revealed technology's requirement is met nothing is learned; the 7 still go
    to the bottom of the Level II deck in the player's order."""
    st = position(hand=["C4"], timeline={1: ["P7"]}, phase="decline")
    assert names_of(st) == T(28, 29, 30, 31, 32, 33, 34)
    play(st, "T28", "T29", "T30", "T31", "T32", "T33")
    assert techs(st) == []
    assert codes(st, st.tech_decks[1])[:7] == T(34, 33, 32, 31, 30, 29, 28)
    assert len(st.tech_decks[1]) == 18


def test_p7_niches_with_candi_sukuh_relaxes_the_requirement() -> None:
    """P7 with P19 Candi Sukuh in the Timeline (clarifications P7, D19): T34 needs 3 Past cities;
    with 2 it is learnable because Candi Sukuh lowers one value by 1 (the only option: taken)."""
    st = position(hand=["C4"], timeline={1: ["P7"], 4: ["P19"]}, past=["C6", "C7"],
                  time_space=5, phase="decline")
    assert techs(st) == ["T34"]
    assert names_of(st) == T(28, 29, 30, 31, 32, 33)


def test_p7_niches_without_candi_sukuh_two_cities_do_not_qualify() -> None:
    """P7: the same position without Candi Sukuh: T34 (3 Past cities) is not learnable."""
    st = position(hand=["C4"], timeline={1: ["P7"], 4: ["P9"]}, past=["C6", "C7"],
                  time_space=5, phase="decline")
    assert names_of(st) == T(28, 29, 30, 31, 32, 33, 34)


def test_p7_niches_empty_level2_deck_does_nothing() -> None:
    """P7: nothing happens if the Level II deck is empty, even when its discard pile is not
    (clarifications P7): no reshuffle, no learn."""
    st = position(hand=["C4"], timeline={1: ["P7"]}, tokens={"P7": 1})
    st.tech_discards[1] = st.tech_decks[1]
    st.tech_decks[1] = []
    resume_decline(st)
    assert techs(st) == []
    assert st.tech_decks[1] == []
    assert len(st.tech_discards[1]) == 18
    assert past(st) == ["P7"]
    assert st.lost == 1
    assert at_action(st, 2)


def test_p7_niches_short_deck_reveals_what_there_is() -> None:
    """P7: with fewer than 7 Level II cards in the deck, all of them are looked at."""
    st = position(hand=["C4"], timeline={1: ["P7"]}, past=["C1", "C2", "C3"])
    st.tech_decks[1] = [idx(st, "T40"), idx(st, "T34"), idx(st, "T41")]  # T41 on top
    resume_decline(st)
    assert techs(st) == ["T34"]  # the only one whose requirement is met
    assert names_of(st) == ["T40", "T41"]
    play(st, "T41")
    assert codes(st, st.tech_decks[1]) == ["T40", "T41"]


# ================================================================== P8 Pyramid of Userkaf


def test_p8_userkaf_opponents_only_changes_nothing_in_solo() -> None:
    """P8 (decline): "each opponent discards an artifact" does nothing in solo (RULES.md section
    11): the player's artifacts and hand stay; only the normal decline happens."""
    st = position(hand=["C1"], timeline={1: ["P8"]}, tokens={"P8": 3},
                  artifacts=["A1", "A5"], phase="decline")
    assert codes(st, st.board_artifacts()) == ["A1", "A5"]
    assert hand(st) == ["C1"]
    assert st.discard == []
    assert past(st) == ["P8"]
    assert st.lost == 3
    assert at_action(st, 2)


# ================================================================== P9 Caral, P10 Teotihuacan


def test_p9_caral_may_learn_a_technology_whose_requirement_is_met() -> None:
    """P9 (decline): you may learn one technology meeting its requirement (clarifications P9).
    T2 (2 Past pyramids) is not offered with 1; the Learn's effect (T9: remove 2 lost) happens
    before Caral's own knowledge becomes lost."""
    st = position(hand=["C1"], timeline={1: ["P9"]}, tokens={"P9": 2}, past=["P1"], lost=5,
                  tiles=["T2", "T5", "T9", None, None, None, None, None, None], phase="decline")
    assert names_of(st) == ["T5", "T9", "no"]
    play(st, "T9")
    assert techs(st) == ["T9"]
    assert st.lost == 5 - 2 + 2
    assert past(st) == ["P1", "P9"]


def test_p9_caral_declined() -> None:
    """P9: declining the optional Learn learns nothing."""
    st = position(hand=["C1"], timeline={1: ["P9"]}, tokens={"P9": 2}, past=["P1"], lost=5,
                  tiles=["T2", "T5", "T9", None, None, None, None, None, None], phase="decline")
    play(st, "no")
    assert techs(st) == []
    assert st.lost == 7
    assert at_action(st, 2)


def test_p9_caral_requirement_met_is_offered() -> None:
    """P9: with 2 pyramids in the Past, T2 Aristotle (2 Past pyramids) is offered too."""
    st = position(hand=["C1"], timeline={1: ["P9"]}, past=["P1", "P2"],
                  tiles=["T2", "T5", "T9", None, None, None, None, None, None], phase="decline")
    assert names_of(st) == ["T2", "T5", "T9", "no"]


def test_p9_caral_nothing_learnable_asks_nothing() -> None:
    """P9: with no technology whose requirement is met, there is no decision."""
    st = position(hand=["C1"], timeline={1: ["P9"]}, past=["P1"],
                  tiles=["T2", None, None, None, None, None, None, None, None], phase="decline")
    assert techs(st) == []
    assert past(st) == ["P1", "P9"]
    assert at_action(st, 2)


def test_p10_teotihuacan_two_learns_with_refill_between() -> None:
    """P10 (decline): up to two Learns one after the other; learning T9 leaves tile A with one
    card, which is discarded and the tile refilled (T1-T3), so the second Learn offers the new
    cards (clarifications P10; RULES.md section 5, Learn)."""
    st = position(hand=["C4"], timeline={1: ["P10"]}, tokens={"P10": 2}, lost=5,
                  artifacts=["A1", "A5", "A8"],
                  tiles=["T5", "T9", None, None, None, None, None, None, None],
                  deck_top=["M1", "M2", "M3"], dice=(6,) * 16, phase="decline")
    assert names_of(st) == ["T5", "T9", "no"]
    play(st, "T9")
    assert st.lost == 3
    assert tile_codes(st)[:3] == ["T1", "T2", "T3"]
    assert codes(st, st.tech_discards[0]) == ["T5"]
    # T1 needs 3 artifacts (met), T2 needs 2 Past pyramids (not met), T3 has no requirement.
    assert names_of(st) == ["T1", "T3", "no"]
    play(st, "T1")  # Anaximenes: draw 3
    assert techs(st) == ["T1", "T9"]
    assert hand(st) == ["C4", "M1", "M2", "M3"]
    assert st.lost == 5
    assert past(st) == ["P10"]


def test_p10_teotihuacan_one_learn_then_stop() -> None:
    """P10: the second Learn is optional too."""
    st = position(hand=["C4"], timeline={1: ["P10"]}, lost=5,
                  tiles=["T5", "T9", "T19", None, None, None, None, None, None],
                  phase="decline")
    play(st, "T9")
    assert names_of(st) == ["T5", "T19", "no"]
    play(st, "no")
    assert techs(st) == ["T9"]
    assert st.lost == 3


def test_p10_teotihuacan_declined() -> None:
    """P10: "no" at the first Learn learns nothing."""
    st = position(hand=["C4"], timeline={1: ["P10"]}, lost=5,
                  tiles=["T5", "T9", "T19", None, None, None, None, None, None],
                  phase="decline")
    play(st, "no")
    assert techs(st) == []
    assert st.lost == 5
    assert at_action(st, 2)


# ================================================================== locked cards


@pytest.mark.parametrize(("card", "space"), [("P10", 6), ("P19", 4), ("P20", 3)])
def test_locked_pyramid_goes_only_to_its_starting_space(card: str, space: int) -> None:
    """P10 (space 6), P19 (space 4), P20 (space 3) are locked: a Create may only use the starting
    space (RULES.md section 5), so the space is not a choice; P10 still pays its printed 1."""
    st = position(hand=[card, "C1", "C2"], time_space=2)
    play(st, "create", card)
    if card == "P10":
        assert names_of(st) == ["C1", "C2"]  # paying the printed discard cost
        play(st, "C1")
    assert place(st, card) == (space, 0)


@pytest.mark.parametrize(("card", "space"), [("P10", 6), ("P19", 4), ("P20", 3)])
def test_locked_pyramid_cannot_be_created_when_its_space_is_full(card: str, space: int) -> None:
    """P10, P19, P20: with their starting space full they cannot be created at all."""
    st = position(hand=[card, "P18", "C1"], timeline={space: ["M5", "M6"]}, time_space=2)
    play(st, "create")
    assert names_of(st) == ["C1", "P18"]


# ================================================================== P11 Pyramid of Coba


def test_p11_coba_removes_up_to_four_lost_knowledge() -> None:
    """P11 (decline): with 3 megaliths in the Past, remove up to 4 lost knowledge; the player
    picks how many (D22: 0..4). Coba's own knowledge becomes lost afterwards."""
    st = position(hand=["C1"], timeline={1: ["P11"]}, tokens={"P11": 2},
                  past=["M1", "M2", "M3"], lost=6, phase="decline")
    assert names_of(st) == ["#0", "#1", "#2", "#3", "#4"]
    play(st, "#3")
    assert st.lost == 6 - 3 + 2


def test_p11_coba_zero_is_allowed() -> None:
    """P11: "up to" allows removing none (D22)."""
    st = position(hand=["C1"], timeline={1: ["P11"]}, tokens={"P11": 2},
                  past=["M1", "M2", "M3"], lost=6, phase="decline")
    play(st, "#0")
    assert st.lost == 8


def test_p11_coba_at_most_the_lost_knowledge_there_is() -> None:
    """P11: with 2 lost knowledge, the choice is 0..2."""
    st = position(hand=["C1"], timeline={1: ["P11"]}, past=["M1", "M2", "M3"], lost=2,
                  phase="decline")
    assert names_of(st) == ["#0", "#1", "#2"]


def test_p11_coba_condition_fails_with_two_megaliths() -> None:
    """P11: with only 2 megaliths in the Past nothing happens (no decision)."""
    st = position(hand=["C1"], timeline={1: ["P11"]}, tokens={"P11": 2},
                  past=["M1", "M2", "P1"], lost=6, phase="decline")
    assert st.lost == 8
    assert at_action(st, 2)


# ================================================================== P12 Gunung Padang


def test_p12_gunung_padang_moves_the_other_space1_card_out() -> None:
    """P12 (decline): move another Timeline monument to a free place of another space (locks
    ignored). Moving the other space-1 card out saves it from this decline (clarifications P12)."""
    st = position(hand=["C4"], timeline={1: ["P12", "C1"], 3: ["M5"]},
                  tokens={"P12": 2, "C1": 3, "M5": 1}, phase="decline")
    assert names_of(st) == ["!P12", "!C1"]
    play(st, "!P12")
    assert names_of(st) == ["@C1", "@M5"]  # never P12 itself
    play(st, "@C1")
    assert names_of(st) == ["s2", "s3", "s4", "s5", "s6"]  # s4 holds the time card only
    play(st, "s2")
    assert past(st) == ["P12"]
    assert st.lost == 2
    assert place(st, "C1") == (1, 0)  # s2 after the slide
    assert tok(st, "C1") == 3


def test_p12_gunung_padang_moving_a_card_into_space1_makes_it_decline() -> None:
    """P12: a monument moved into space 1 declines right after (RULES.md section 4C, clarif.)."""
    st = position(hand=["C4"], timeline={1: ["P12"], 3: ["M5"]},
                  tokens={"P12": 2, "M5": 1}, phase="decline")
    assert names_of(st) == ["s1", "s2", "s4", "s5", "s6"]  # the only target, M5, was taken
    play(st, "s1")
    assert past(st) == ["M5", "P12"]
    assert st.lost == 3
    assert list(st.monuments()) == []


def test_p12_gunung_padang_moves_a_locked_monument() -> None:
    """P12: locks are ignored: Teotihuacan (locked in 6) may be moved."""
    st = position(hand=["C4"], timeline={1: ["P12"], 6: ["P10"]}, phase="decline")
    assert names_of(st) == ["s1", "s2", "s3", "s4", "s5"]  # s4: the time card and a free place
    play(st, "s3")
    assert place(st, "P10") == (2, 0)


def test_p12_gunung_padang_alone_does_nothing() -> None:
    """P12: with no other monument in the Timeline there is nothing to move."""
    st = position(hand=["C4"], timeline={1: ["P12"]}, tokens={"P12": 1}, phase="decline")
    assert past(st) == ["P12"]
    assert st.lost == 1
    assert at_action(st, 2)


# ================================================================== P13 Yonaguni


def test_p13_yonaguni_discards_artifacts_for_four_knowledge_each() -> None:
    """P13 (immediate): you may discard any number of your artifacts; Yonaguni loses 4 knowledge
    for each (clarifications P13). Created with 14, two artifacts discarded: 6."""
    st = position(hand=["P13", "C1"], artifacts=["A1", "A5", "A8"])
    play(st, "create", "P13", "s4")
    assert tok(st, "P13") == 14
    assert names_of(st) == ["yes", "no"]
    play(st, "yes")
    assert names_of(st) == ["@A1", "@A5", "@A8"]
    play(st, "@A1")
    assert names_of(st) == ["@A5", "@A8", "done"]
    play(st, "@A8")  # chosen in rising order: nothing is left after A8, so the choice ends
    assert tok(st, "P13") == 6
    assert codes(st, st.board_artifacts()) == ["A5"]
    assert codes(st, st.discard) == ["A1", "A8"]


def test_p13_yonaguni_declined_keeps_fourteen() -> None:
    """P13: declining keeps the artifacts and the 14 knowledge."""
    st = position(hand=["P13", "C1"], artifacts=["A1"])
    play(st, "create", "P13", "s4", "no")
    assert tok(st, "P13") == 14
    assert codes(st, st.board_artifacts()) == ["A1"]


def test_p13_yonaguni_four_artifacts_floor_at_zero() -> None:
    """P13: 4 artifacts discarded would remove 16; Yonaguni holds 14 and ends with 0 (D6)."""
    st = position(hand=["P13", "C1"], artifacts=["A1", "A5", "A8", "A14"])
    play(st, "create", "P13", "s4", "yes", "@A1", "@A5", "@A8", "@A14")
    assert tok(st, "P13") == 0
    assert st.board_artifacts() == []


def test_p13_yonaguni_without_artifacts_asks_nothing() -> None:
    """P13: with no artifact on the board the "you may" is not offered."""
    st = position(hand=["P13", "C1"])
    play(st, "create", "P13", "s4")
    assert tok(st, "P13") == 14
    assert st.pending() == (D_ACTION, 1)


def test_p13_yonaguni_cannot_discard_a_chest_card() -> None:
    """P13 with a goal chest in an artifact space: a chest card is not an artifact and artifact
    effects cannot discard it (D11). Only A1 can go (the one choice is taken): 14 - 4 = 10."""
    st = position(hand=["P13", "C1"], artifacts=["A1"])
    st.artifacts[1] = CHEST_BASE + 0
    play(st, "create", "P13", "s4", "yes")
    assert tok(st, "P13") == 10
    assert st.artifacts == [EMPTY, CHEST_BASE + 0, EMPTY, EMPTY, EMPTY]


def test_p13_yonaguni_only_a_chest_asks_nothing() -> None:
    """P13: with only a chest card in the artifact spaces there is nothing to discard (D11)."""
    st = position(hand=["P13", "C1"])
    st.artifacts[0] = CHEST_BASE + 1
    play(st, "create", "P13", "s4")
    assert tok(st, "P13") == 14
    assert st.pending() == (D_ACTION, 1)


# ================================================================== P14 Tikal Temple I


def test_p14_tikal_may_learn_on_creation() -> None:
    """P14 (immediate): you may learn one technology meeting its requirement (clarif. P14):
    T2 (2 Past pyramids) is not offered with 1; T5 removes 1 lost and draws 1."""
    st = position(hand=["P14", "C1"], past=["P1"], lost=2, deck_top=["M1"],
                  tiles=["T2", "T5", "T9", None, None, None, None, None, None])
    play(st, "create", "P14", "s3")
    assert names_of(st) == ["T5", "T9", "no"]
    play(st, "T5")
    assert techs(st) == ["T5"]
    assert st.lost == 1
    assert hand(st) == ["C1", "M1"]


def test_p14_tikal_declined() -> None:
    """P14: "no" learns nothing."""
    st = position(hand=["P14", "C1"], past=["P1"], lost=2,
                  tiles=["T2", "T5", "T9", None, None, None, None, None, None])
    play(st, "create", "P14", "s3", "no")
    assert techs(st) == []
    assert st.lost == 2
    assert tile_codes(st)[:3] == ["T2", "T5", "T9"]


# ================================================================== P15 Xixia Wangling


def xixia_position(**tokens: int) -> GameState:
    """P15 goes to the upper place of space 2: adjacent are M5 (below it), C2 (upper place of
    space 1) and C5 (upper place of space 3); C1 and M6 are diagonal, not adjacent (D5)."""
    tk = {"C1": 4, "C2": 4, "M5": 2, "M6": 4, "C5": 5}
    tk.update(tokens)
    st = position(hand=["P15", "C3", "C6"], timeline={1: ["C1", "C2"], 2: ["M5"], 3: ["M6", "C5"]},
                  tokens=tk, time_space=5)
    play(st, "create", "P15", "s2")
    return st


def test_p15_xixia_targets_exactly_the_adjacent_monuments() -> None:
    """P15 (immediate): up to 3 knowledge from one adjacent monument; every adjacent monument
    with knowledge is a target, one with fewer than 3 too (D21)."""
    st = xixia_position()
    assert place(st, "P15") == (2, 1)
    assert names_of(st) == ["@C2", "@M5", "@C5"]


def test_p15_xixia_removes_three() -> None:
    """P15: three tokens from C5 (5 -> 2); nobody else changes."""
    st = xixia_position()
    play(st, "@C5")
    assert names_of(st) == ["@C5", "done"]
    play(st, "@C5", "@C5", "@C5")
    assert tok(st, "C5") == 2
    assert [tok(st, c) for c in ("C1", "C2", "M5", "M6", "P15")] == [4, 4, 2, 4, 3]


def test_p15_xixia_up_to_allows_fewer() -> None:
    """P15: "up to 3": the player may stop after one token."""
    st = xixia_position()
    play(st, "@C2", "@C2", "done")
    assert tok(st, "C2") == 4 - 1


def test_p15_xixia_small_neighbour_loses_what_it_has() -> None:
    """P15: M5 holds 2: both go, and the removal ends there."""
    st = xixia_position()
    play(st, "@M5", "@M5", "@M5")
    assert tok(st, "M5") == 0
    assert st.pending() == (D_ACTION, 1)


def test_p15_xixia_no_adjacent_knowledge_nothing_happens() -> None:
    """P15: with no adjacent monument holding knowledge there is no decision."""
    st = xixia_position(C2=0, M5=0, C5=0)
    assert st.pending() == (D_ACTION, 1)
    assert [tok(st, c) for c in ("C1", "M6")] == [4, 4]


# ================================================================== P16 Nubian Pyramids


def test_p16_nubian_may_create_an_artifact_paying_its_cost() -> None:
    """P16 (immediate): you may create one artifact from hand, paying its discard cost
    (clarifications M16/P16). A12 costs 3: all 3 other cards are discarded."""
    st = position(hand=["P16", "C1", "C2", "A1", "A12"], past=["M1"])
    play(st, "create", "P16", "s2")
    assert names_of(st) == ["A1", "A12", "no"]
    play(st, "A12")
    assert codes(st, st.board_artifacts()) == ["A12"]
    assert hand(st) == []
    assert codes(st, st.discard) == ["C1", "C2", "A1"]


def test_p16_nubian_declined() -> None:
    """P16: "no" creates nothing."""
    st = position(hand=["P16", "C1", "A1"])
    play(st, "create", "P16", "s2", "no")
    assert st.board_artifacts() == []
    assert hand(st) == ["C1", "A1"]


def test_p16_nubian_unaffordable_artifact_not_offered() -> None:
    """P16: A12 (cost 3) with only 1 other card in hand cannot be paid: no decision."""
    st = position(hand=["P16", "C1", "A12"])
    play(st, "create", "P16", "s2")
    assert st.board_artifacts() == []
    assert hand(st) == ["C1", "A12"]
    assert st.pending() == (D_ACTION, 1)


def test_p16_nubian_no_free_artifact_space() -> None:
    """P16: with 5 artifacts on the board no artifact can be created."""
    st = position(hand=["P16", "C1", "A1"], artifacts=["A5", "A8", "A14", "A27", "A35"])
    play(st, "create", "P16", "s2")
    assert hand(st) == ["C1", "A1"]
    assert st.pending() == (D_ACTION, 1)


# ================================================================== P17 The Queen's Pyramids


@pytest.mark.parametrize(
    ("past_cards", "timeline", "expected"),
    [
        pytest.param([], {}, 5, id="P17-no-pyramid"),
        pytest.param(["C6", "M8"], {}, 5, id="P17-other-types-do-not-count"),
        pytest.param(["P1", "P2"], {}, 3, id="P17-2-pyramids"),
        pytest.param(["P1", "P2", "P4", "P5", "P6", "P7"], {}, 0, id="P17-6-pyramids-floor-0"),
        pytest.param(["P1", "P2"], {5: ["C34"]}, 2, id="P17-stacks-with-C34"),
    ],
)
def test_p17_queens_pyramids_enters_with_one_less_per_past_pyramid(
    past_cards: list[str], timeline: dict[int, list[str]], expected: int,
) -> None:
    """P17 (self discount): created with 5 knowledge less 1 per pyramid in the Past, stacking
    with reductions in play (C34), floored at 0 (RULES.md section 5; clarifications)."""
    st = position(hand=["P17", "C1"], past=past_cards, timeline=timeline)
    play(st, "create", "P17", "s3")
    assert tok(st, "P17") == expected


# ================================================================== P18 Pyramid of Nice


def test_p18_nice_targets_any_monument_with_knowledge_itself_included() -> None:
    """P18 (immediate): remove 1 knowledge from any Timeline monument, P18 itself included
    (clarifications P18); M5 holds none and is not a target."""
    st = position(hand=["P18", "C1"], timeline={3: ["C2"], 5: ["M5"]}, tokens={"C2": 3})
    play(st, "create", "P18", "s1")
    assert names_of(st) == ["@P18", "@C2"]
    play(st, "@C2")
    assert tok(st, "C2") == 2
    assert tok(st, "P18") == 2


def test_p18_nice_on_itself() -> None:
    """P18: choosing itself leaves it with 1."""
    st = position(hand=["P18", "C1"], timeline={3: ["C2"]}, tokens={"C2": 3})
    play(st, "create", "P18", "s1", "@P18")
    assert tok(st, "P18") == 1
    assert tok(st, "C2") == 3


def test_p18_nice_alone_removes_from_itself() -> None:
    """P18: the only monument with knowledge is itself: mandatory, no choice."""
    st = position(hand=["P18", "C1"])
    play(st, "create", "P18", "s1")
    assert tok(st, "P18") == 1


# ================================================================== P19 Candi Sukuh


@pytest.mark.parametrize(
    ("tech", "kw", "with_sukuh"),
    [
        # T2 Aristotle: 2 Past pyramids; 1 is enough with Candi Sukuh, 0 is not.
        pytest.param("T2", {"past": ["P1"]}, True, id="P19-T2-1-pyramid"),
        pytest.param("T2", {"past": []}, False, id="P19-T2-0-pyramids"),
        # T7 Melchizedek: one of each type in the Past; one type may be missing (D19).
        pytest.param("T7", {"past": ["C6", "P1"]}, True, id="P19-T7-one-type-missing"),
        pytest.param("T7", {"past": ["C6"]}, False, id="P19-T7-two-types-missing"),
        # T36 Astrology: 10 cards in hand; 9 with Candi Sukuh (D19).
        pytest.param("T36", {"hand": [f"C{n}" for n in range(1, 10)]}, True, id="P19-T36-9"),
        pytest.param("T36", {"hand": [f"C{n}" for n in range(1, 9)]}, False, id="P19-T36-8"),
        # T37 Alchemy: 7 Past and at most 3 lost: only the "at least" value is lowered.
        pytest.param("T37", {"past": ["C6", "C7", "C8", "C9", "C10", "C11"], "lost": 3}, True,
                     id="P19-T37-6-past"),
        pytest.param("T37", {"past": ["C6", "C7", "C8", "C9", "C10", "C11"], "lost": 4}, False,
                     id="P19-T37-lost-4-not-relaxed"),
        # T8 Ptolemy: at most 1 card in hand, unchanged by Candi Sukuh (D19: not stricter).
        pytest.param("T8", {"hand": ["C1"]}, True, id="P19-T8-1-card"),
        pytest.param("T8", {"hand": ["C1", "C2"]}, False, id="P19-T8-2-cards"),
        # T39 Ari-kat: 3 of each type; one type may have 2.
        pytest.param("T39", {"past": ["C6", "C7", "C8", "M8", "M9", "M10", "P1", "P2"]}, True,
                     id="P19-T39-one-type-at-2"),
        pytest.param("T39", {"past": ["C6", "C7", "C8", "M8", "M9", "P1", "P2"]}, False,
                     id="P19-T39-two-types-at-2"),
    ],
)
def test_p19_candi_sukuh_lowers_one_requirement_value(
    tech: str, kw: dict[str, object], with_sukuh: bool,
) -> None:
    """P19 (anytime): while in the Timeline, at each Learn one "at least" value of the
    requirement may be lowered by 1 (D19). Without P19 in play none of these is learnable."""
    hand_cards = kw.get("hand", ["C20"])
    past_cards = kw.get("past", [])
    lost = kw.get("lost", 0)
    assert isinstance(hand_cards, list) and isinstance(past_cards, list)
    assert isinstance(lost, int)
    tile_row: list[str | None] = [tech, None, None, None, None, None, None, None, None]
    st = position(hand=hand_cards, past=past_cards, lost=lost, tiles=tile_row,
                  timeline={4: ["P19"]}, time_space=5)
    assert ("learn" in names_of(st)) is with_sukuh
    if with_sukuh:
        play(st, "learn")
        assert tech in techs(st)
    without = position(hand=hand_cards, past=past_cards, lost=lost, tiles=tile_row,
                       timeline={4: ["P9"]}, time_space=5)
    assert ("learn" in names_of(without)) is (tech == "T8" and with_sukuh)


def test_p19_candi_sukuh_in_the_past_does_not_relax() -> None:
    """P19: the effect works only while the card is in the Timeline (clarifications, passive
    effects): in the Past it counts as a pyramid but lowers nothing (T2 needs 2: P19 + P1 = 2
    is met; T32 Akhenaten needs 4 Past pyramids: 3 is not)."""
    st = position(hand=["C1"], past=["P19", "P1", "P2"],
                  tiles=["T32", None, None, None, None, None, None, None, None])
    assert "learn" not in names_of(st)


# ================================================================== P20 Borobudur Temple


def test_p20_borobudur_artifact_create_grants_an_optional_learn() -> None:
    """P20 (anytime): each time you create an artifact, you may learn one technology meeting its
    requirement (clarifications P20)."""
    st = position(hand=["A1", "C1"], timeline={3: ["P20"]}, lost=4,
                  tiles=["T2", "T5", "T9", None, None, None, None, None, None])
    play(st, "create", "A1")
    assert names_of(st) == ["T5", "T9", "no"]
    play(st, "T9")
    assert techs(st) == ["T9"]
    assert st.lost == 2
    assert codes(st, st.board_artifacts()) == ["A1"]


def test_p20_borobudur_declined() -> None:
    """P20: the Learn is optional."""
    st = position(hand=["A1", "C1"], timeline={3: ["P20"]}, lost=4,
                  tiles=["T5", "T9", None, None, None, None, None, None, None])
    play(st, "create", "A1", "no")
    assert techs(st) == []
    assert st.lost == 4


def test_p20_borobudur_monument_create_does_not_trigger() -> None:
    """P20: creating a monument is not creating an artifact: no Learn is offered."""
    st = position(hand=["P18", "C1"], timeline={3: ["P20"]}, tokens={"P20": 4},
                  tiles=["T5", "T9", None, None, None, None, None, None, None])
    play(st, "create", "P18", "s1", "@P18")
    assert techs(st) == []
    assert st.pending() == (D_ACTION, 1)


def test_p20_borobudur_fires_on_a_nested_artifact_create() -> None:
    """P20 with P16 Nubian Pyramids: the artifact created by P16's effect triggers P20 too."""
    st = position(hand=["P16", "A1", "C1"], timeline={3: ["P20"]}, lost=4,
                  tiles=["T5", "T9", None, None, None, None, None, None, None])
    play(st, "create", "P16", "s2", "A1")
    assert names_of(st) == ["T5", "T9", "no"]
    play(st, "T9")
    assert techs(st) == ["T9"]
    assert st.lost == 2


def test_p20_borobudur_not_in_play_does_nothing() -> None:
    """P20 in the Past (not in play) grants nothing."""
    st = position(hand=["A1", "C1"], past=["P20"],
                  tiles=["T5", "T9", None, None, None, None, None, None, None])
    play(st, "create", "A1")
    assert techs(st) == []
    assert st.pending() == (D_ACTION, 1)


# ================================================================== P21 Phimeanakas


def test_p21_phimeanakas_ancient_learn_removes_one_then_draws_one() -> None:
    """P21 (anytime): each time you learn an ancient technology, remove 1 knowledge from one of
    your monuments (itself included), then draw 1; the technology's own effect comes first
    (clarifications, Ordering: Learn)."""
    st = position(hand=["C2"], timeline={3: ["C1"], 5: ["P21"]}, tokens={"C1": 3, "P21": 2},
                  lost=2, deck_top=["M1", "M2"],
                  tiles=["T5", "T21", None, None, None, None, None, None, None])
    play(st, "learn", "T5")  # Nicolas Flammel: remove 1 lost, draw 1 (M1)
    assert st.lost == 1
    assert hand(st) == ["C2", "M1"]
    assert names_of(st) == ["@C1", "@P21"]
    play(st, "@C1")
    assert tok(st, "C1") == 2
    assert tok(st, "P21") == 2
    assert hand(st) == ["C2", "M1", "M2"]


def test_p21_phimeanakas_granted_learn_triggers_it() -> None:
    """P21: a Learn granted by an effect (P14 Tikal's) triggers it too (clarifications P21)."""
    st = position(hand=["P14", "C2"], timeline={5: ["P21"]}, tokens={"P21": 2}, lost=2,
                  deck_top=["M1", "M2"],
                  tiles=["T5", "T21", None, None, None, None, None, None, None])
    play(st, "create", "P14", "s3", "T5")
    assert names_of(st) == ["@P14", "@P21"]
    play(st, "@P14")
    assert (tok(st, "P14"), tok(st, "P21")) == (3, 2)
    assert hand(st) == ["C2", "M1", "M2"]
    assert st.lost == 1


def test_p21_phimeanakas_other_types_do_not_trigger() -> None:
    """P21: a writing technology (T21: draw 1) does not trigger it."""
    st = position(hand=["C2"], timeline={3: ["C1"], 5: ["P21"]}, tokens={"C1": 3, "P21": 2},
                  deck_top=["M1", "M2"],
                  tiles=["T5", "T21", None, None, None, None, None, None, None])
    play(st, "learn", "T21")
    assert hand(st) == ["C2", "M1"]
    assert tok(st, "C1") == 3
    assert tok(st, "P21") == 2
    assert st.pending() == (D_ACTION, 1)


def test_p21_phimeanakas_without_knowledge_still_draws() -> None:
    """P21: with no knowledge on the Timeline the removal does nothing; the draw still happens
    (effects apply as far as possible, D6)."""
    st = position(hand=["C2"], timeline={5: ["P21"]}, lost=2, deck_top=["M1", "M2"],
                  tiles=["T5", "T21", None, None, None, None, None, None, None])
    play(st, "learn", "T5")
    assert hand(st) == ["C2", "M1", "M2"]


# ================================================================== P22 Sneferu's Pyramid


@pytest.mark.parametrize(
    ("card", "space", "timeline", "past_cards", "expected"),
    [
        pytest.param("C7", "s3", {5: ["P22"]}, [], 9, id="P22-city-10-to-9"),
        pytest.param("M8", "s4", {5: ["P22"]}, [], 3, id="P22-megalith-unchanged"),
        pytest.param("P28", "s3", {5: ["P22"]}, [], 2, id="P22-pyramid-unchanged"),
        pytest.param("C7", "s3", {5: ["P22"], 6: ["C24"]}, [], 8, id="P22-stacks-with-C24"),
        pytest.param("C7", "s3", {}, ["P22"], 10, id="P22-in-past-no-effect"),
    ],
)
def test_p22_sneferu_cities_enter_with_one_less(
    card: str, space: str, timeline: dict[int, list[str]], past_cards: list[str], expected: int,
) -> None:
    """P22 (anytime): while in play, every city you create gets 1 knowledge fewer; other types
    are not reduced; it stacks with C24 (RULES.md section 5)."""
    st = position(hand=[card, "C1"], timeline=timeline, past=past_cards)
    play(st, "create", card, space)
    assert tok(st, card) == expected


# ================================================================== P23 Pyramids of Xi'an


def test_p23_xian_must_swap_with_any_other_monument() -> None:
    """P23 (immediate): swap with another monument (mandatory, locks ignored, space 1 included:
    clarifications P23). Targets: every other monument; no "no"."""
    st = position(hand=["P23", "C2"], timeline={1: ["C1"], 6: ["P10"]},
                  tokens={"C1": 3, "P10": 2}, time_space=5)
    play(st, "create", "P23", "s4")
    assert names_of(st) == ["@C1", "@P10"]
    play(st, "@P10")
    assert place(st, "P23") == (6, 0)
    assert place(st, "P10") == (4, 0)
    assert (tok(st, "P23"), tok(st, "P10"), tok(st, "C1")) == (1, 2, 3)


def test_p23_xian_swaps_exact_places() -> None:
    """P23: the swap exchanges exact places: P23 takes C1's lower place in space 1."""
    st = position(hand=["P23", "C2"], timeline={1: ["C1"], 4: ["M5"]}, time_space=5)
    play(st, "create", "P23", "s4")  # upper place of space 4
    assert place(st, "P23") == (4, 1)
    play(st, "@C1")
    assert place(st, "P23") == (1, 0)
    assert place(st, "C1") == (4, 1)
    assert place(st, "M5") == (4, 0)


def test_p23_xian_single_other_monument_is_forced() -> None:
    """P23: with one other monument the swap happens without a choice."""
    st = position(hand=["P23", "C2"], timeline={2: ["C1"]}, time_space=5)
    play(st, "create", "P23", "s4")
    assert place(st, "P23") == (2, 0)
    assert place(st, "C1") == (4, 0)


def test_p23_xian_alone_stays() -> None:
    """P23: with no other monument, nothing happens."""
    st = position(hand=["P23", "C2"], time_space=5)
    play(st, "create", "P23", "s4")
    assert place(st, "P23") == (4, 0)
    assert st.pending() == (D_ACTION, 1)


# ================================================================== P24 Pyramid of Tazumal


def test_p24_tazumal_removes_up_to_two_split() -> None:
    """P24 (Timeline): with 11 knowledge on the Timeline (itself included), remove up to 2,
    split freely (clarifications P24): one from C1, one from P24."""
    st = position(hand=["C2"], timeline={2: ["C1"], 3: ["P24"]}, tokens={"C1": 7, "P24": 4},
                  phase="timeline")
    assert names_of(st) == ["@C1", "@P24", "done"]
    play(st, "@C1", "@P24")
    assert (tok(st, "C1"), tok(st, "P24")) == (6, 3)
    assert at_action(st, 2)


def test_p24_tazumal_may_stop_early() -> None:
    """P24: "up to": one token then done (tokens go in non-decreasing place order, so after
    P24, C1 is no longer offered)."""
    st = position(hand=["C2"], timeline={2: ["C1"], 3: ["P24"]}, tokens={"C1": 7, "P24": 4},
                  phase="timeline")
    play(st, "@P24")
    assert names_of(st) == ["@P24", "done"]
    play(st, "done")
    assert (tok(st, "C1"), tok(st, "P24")) == (7, 3)


def test_p24_tazumal_condition_is_checked_when_it_resolves() -> None:
    """P24 ordered after P30 Neferirkare in the same Timeline phase (D15): P30 takes C1 from 11
    to 10 knowledge in all, so Tazumal's condition fails when it resolves (clarifications,
    Timeline phase: conditions are checked at resolution)."""
    st = position(hand=["C2"], timeline={2: ["C1"], 3: ["P24"], 5: ["P30"]},
                  tokens={"C1": 6, "P24": 4, "P30": 1}, phase="timeline")
    assert names_of(st) == ["!P24", "!P30"]
    play(st, "!P30")
    assert names_of(st) == ["@C1", "@P24"]  # other monuments only
    play(st, "@C1")
    assert (tok(st, "C1"), tok(st, "P24"), tok(st, "P30")) == (5, 4, 1)
    assert at_action(st, 2)


def test_p24_tazumal_ordered_first_still_removes() -> None:
    """P24 ordered before P30: 11 knowledge when it resolves, so it removes (up to 2)."""
    st = position(hand=["C2"], timeline={2: ["C1"], 3: ["P24"], 5: ["P30"]},
                  tokens={"C1": 6, "P24": 4, "P30": 1}, phase="timeline")
    play(st, "!P24")
    assert names_of(st) == ["@C1", "@P24", "@P30", "done"]
    play(st, "@P30")  # P30 now holds 0
    assert (tok(st, "C1"), tok(st, "P24"), tok(st, "P30")) == (6, 4, 0)
    assert names_of(st) == ["@C1", "@P24"]  # then P30 resolves
    play(st, "@P24")
    assert (tok(st, "C1"), tok(st, "P24"), tok(st, "P30")) == (6, 3, 0)


def test_p24_tazumal_condition_fails_at_ten() -> None:
    """P24: 10 knowledge on the Timeline: nothing happens."""
    st = position(hand=["C2"], timeline={2: ["C1"], 3: ["P24"]}, tokens={"C1": 6, "P24": 4},
                  phase="timeline")
    assert (tok(st, "C1"), tok(st, "P24")) == (6, 4)
    assert at_action(st, 2)


# ================================================================== P25-P28 adjacent -1


@pytest.mark.parametrize(
    ("card", "loses"),
    [("P25", "M5"), ("P26", "M5"), ("P27", "C2"), ("P28", "C2")],
)
def test_adjacent_type_loses_one(card: str, loses: str) -> None:
    """P25 Chichen Itza, P26 Uxmal (megaliths), P27 Dahshur, P28 Menkaure (cities), Timeline
    phase: every adjacent monument of that type loses 1 (automatic; clarifications). The card
    is in the lower place of space 3: adjacent are C2 (above it), M5 (space 2 lower) and M6
    (space 4 lower, 0 knowledge); C5 and M7 are diagonal (D5)."""
    st = position(hand=["C1"], timeline={2: ["M5", "C5"], 3: [card, "C2"], 4: ["M6", "M7"]},
                  tokens={card: 2, "M5": 2, "C5": 2, "C2": 2, "M6": 0, "M7": 2},
                  time_space=6, phase="timeline")
    after = {c: tok(st, c) for c in (card, "M5", "C5", "C2", "M6", "M7")}
    expected = {card: 2, "M5": 2, "C5": 2, "C2": 2, "M6": 0, "M7": 2}
    expected[loses] = 1
    assert after == expected
    assert at_action(st, 2)


# ================================================================== P29 Djoser, P30 Neferirkare


def test_p29_djoser_removes_one_from_any_itself_included() -> None:
    """P29 (Timeline): with at most 4 lost and a monument in the Past, remove 1 from any
    monument, itself included (clarifications P29)."""
    st = position(hand=["C2"], timeline={3: ["C1"], 5: ["P29"]}, tokens={"C1": 2, "P29": 3},
                  past=["M1"], lost=4, phase="timeline")
    assert names_of(st) == ["@C1", "@P29"]
    play(st, "@P29")
    assert (tok(st, "C1"), tok(st, "P29")) == (2, 2)


@pytest.mark.parametrize(
    ("lost", "past_cards"),
    [pytest.param(5, ["M1"], id="P29-lost-5"), pytest.param(0, [], id="P29-empty-past")],
)
def test_p29_djoser_condition_fails(lost: int, past_cards: list[str]) -> None:
    """P29: 5 lost knowledge, or an empty Past: nothing happens."""
    st = position(hand=["C2"], timeline={3: ["C1"], 5: ["P29"]}, tokens={"C1": 2, "P29": 3},
                  past=past_cards, lost=lost, phase="timeline")
    assert (tok(st, "C1"), tok(st, "P29")) == (2, 3)
    assert at_action(st, 2)


def test_p30_neferirkare_removes_one_from_another_monument() -> None:
    """P30 (Timeline): remove 1 from one of your *other* monuments (clarifications P30): P30
    is never a target."""
    st = position(hand=["C2"], timeline={3: ["C1"], 5: ["P30"], 6: ["M5"]},
                  tokens={"C1": 2, "P30": 4, "M5": 1}, phase="timeline")
    assert names_of(st) == ["@C1", "@M5"]
    play(st, "@M5")
    assert (tok(st, "C1"), tok(st, "P30"), tok(st, "M5")) == (2, 4, 0)


def test_p30_neferirkare_alone_does_nothing() -> None:
    """P30: no other monument with knowledge: nothing (P30 keeps its own 4)."""
    st = position(hand=["C2"], timeline={3: ["C1"], 5: ["P30"]}, tokens={"C1": 0, "P30": 4},
                  phase="timeline")
    assert tok(st, "P30") == 4
    assert at_action(st, 2)


# ================================================================== P31 Tonina


def test_p31_tonina_draws_one() -> None:
    """P31 (Timeline): draw 1 card."""
    st = position(hand=["C2"], timeline={4: ["P31"]}, deck_top=["M1", "M2"], time_space=5,
                  phase="timeline")
    assert hand(st) == ["C2", "M1"]
    assert codes(st, st.deck[-1:]) == ["M2"]


def test_p31_tonina_at_ten_cards_draws_nothing() -> None:
    """P31: with 10 cards in hand the draw stops (D4)."""
    ten = [f"C{n}" for n in range(1, 11)]
    st = position(hand=ten, timeline={4: ["P31"]}, deck_top=["M1"], time_space=5,
                  phase="timeline")
    assert hand(st) == ten
    assert codes(st, st.deck[-1:]) == ["M1"]


# ================================================================== P33 Calakmul


def test_p33_calakmul_reveals_until_two_cities() -> None:
    """P33 (decline): turn up cards one at a time until 2 cities: they go to hand, the others
    are discarded (clarifications P33); the next card stays on the deck."""
    st = position(hand=["C1"], timeline={1: ["P33"]}, tokens={"P33": 1},
                  deck_top=["M1", "A1", "C3", "P1", "C4", "C5"], phase="decline")
    assert hand(st) == ["C1", "C3", "C4"]
    assert codes(st, st.discard) == ["M1", "A1", "P1"]
    assert codes(st, st.deck[-1:]) == ["C5"]
    assert past(st) == ["P33"]
    assert st.lost == 1


def test_p33_calakmul_stops_at_ten_cards() -> None:
    """P33: it stops once the hand holds 10 (D4): with 9, one city is taken."""
    nine = [f"M{n}" for n in range(1, 10)]
    st = position(hand=nine, timeline={1: ["P33"]},
                  deck_top=["M10", "A1", "C3", "P1", "C4"], phase="decline")
    assert hand(st) == sorted([*nine, "C3"], key=lambda c: idx(st, c))
    assert codes(st, st.discard) == ["M10", "A1"]
    assert codes(st, st.deck[-1:]) == ["P1"]


def test_p33_calakmul_full_hand_reveals_nothing() -> None:
    """P33: with 10 cards in hand nothing is revealed."""
    ten = [f"M{n}" for n in range(1, 11)]
    st = position(hand=ten, timeline={1: ["P33"]}, deck_top=["C3"], phase="decline")
    assert len(st.hand) == 10
    assert st.discard == []
    assert codes(st, st.deck[-1:]) == ["C3"]


# ================================================================== P34 Plaine Magnien


TOP8 = ["M1", "A1", "C3", "P1", "C4", "C5", "M2", "M3"]


def test_p34_plaine_magnien_keeps_one_of_eight() -> None:
    """P34 (decline): look at the top 8, keep 1, discard the 7 others (clarifications P34)."""
    st = position(hand=["C1"], timeline={1: ["P34"]}, deck_top=TOP8, phase="decline")
    assert names_of(st) == ["C3", "C4", "C5", "M1", "M2", "M3", "P1", "A1"]
    play(st, "P1")
    assert hand(st) == ["C1", "P1"]
    assert sorted(codes(st, st.discard)) == sorted(c for c in TOP8 if c != "P1")
    assert st.limbo == []
    assert codes(st, st.deck[-1:]) == ["C2"]  # the first card of the untouched deck
    assert past(st) == ["P34"]
    assert st.lost == 0


def test_p34_plaine_magnien_full_hand_skipped() -> None:
    """P34: skipped if the hand holds 10 (clarifications P34): no card is looked at."""
    ten = [f"C{n}" for n in range(6, 16)]
    st = position(hand=ten, timeline={1: ["P34"]}, deck_top=TOP8, phase="decline")
    assert hand(st) == ten
    assert st.discard == []
    assert codes(st, st.deck[-8:][::-1]) == TOP8
    assert at_action(st, 2)


# ================================================================== P35 Candi Kethek


def test_p35_candi_kethek_buries_two_available_technologies() -> None:
    """P35 (immediate): pick two available technologies (any tile), one after the other; each
    goes to the bottom of its own level's deck (clarifications P35)."""
    st = position(hand=["P35", "C1"],
                  tiles=["T1", "T2", "T3", "T4", "T5", "T6", "T28", "T29", "T30"])
    play(st, "create", "P35", "s2")
    assert names_of(st) == T(1, 2, 3, 4, 5, 6, 28, 29, 30)
    play(st, "T4")
    assert names_of(st) == T(1, 2, 3, 5, 6, 28, 29, 30)
    play(st, "T29")
    assert tile_codes(st) == ["T1", "T2", "T3", None, "T5", "T6", "T28", None, "T30"]
    assert codes(st, st.tech_decks[0][:1]) == ["T4"]
    assert codes(st, st.tech_decks[1][:1]) == ["T29"]
    assert techs(st) == []
    assert hand(st) == ["C1"]


def test_p35_candi_kethek_refill_between_picks() -> None:
    """P35: the refill rule applies after each pick: burying T1 leaves tile A with T2 alone, so
    T2 is discarded and the tile is refilled (T3, T4, T5), and the second pick may take one."""
    st = position(hand=["P35", "C1"],
                  tiles=["T1", "T2", None, None, None, None, None, None, None])
    play(st, "create", "P35", "s2")
    assert names_of(st) == ["T1", "T2"]
    play(st, "T1")
    assert tile_codes(st)[:3] == ["T3", "T4", "T5"]
    assert codes(st, st.tech_discards[0]) == ["T2"]
    assert names_of(st) == ["T3", "T4", "T5"]
    play(st, "T5")
    assert codes(st, st.tech_decks[0][:2]) == ["T5", "T1"]
    assert tile_codes(st)[:3] == ["T3", "T4", None]
