"""Every base-game artifact card (A1-A36): its effect, exact and tested.

Each test builds a position with `tests.builder.position`, reaches the card's activation moment
(the Timeline phase, a Create, a Learn, an Excavate, the decline phase) and asserts the exact
change: knowledge on named monuments, lost knowledge, hand contents, Past, rotated count,
technologies, and the options offered, in notation. Rules: RULES.md sections 4-5 and D-decisions;
card behaviour: reference/card-clarifications.md ("Artefacts"); the card text: base-cards.json.

Timeline effects are run with `timeline_phase`, which runs only the Timeline phase (section 4B)
and stops at a sentinel, so nothing of the decline or technology phases blurs the result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from solver.engine import flow
from solver.engine.cards import ARTIFACT
from solver.engine.frames import D_ACTION, F_DECLINE_PHASE, F_TIMELINE_PHASE
from solver.engine.state import CHEST_BASE, EMPTY, TIME, GameState
from tests.builder import STOP, at_stop, book, codes, hand, idx, names_of, play, position, tok

# ----------------------------------------------------------------------------- helpers

def run_phase(frame: tuple[Any, ...], prepare: Callable[[GameState], None] | None = None,
              **kw: Any) -> GameState:
    """A position (builder keywords) that runs only `frame` (a phase) and then stops at STOP.
    `prepare` may adjust the state before the phase starts."""
    st = position(pending=[STOP], **kw)
    assert at_stop(st)
    if prepare is not None:
        prepare(st)
    st.stack.append(frame)
    flow.settle(st)
    return st


def timeline_phase(prepare: Callable[[GameState], None] | None = None, **kw: Any) -> GameState:
    """Run the Timeline phase (RULES.md section 4B) of the position, and nothing after it."""
    return run_phase((F_TIMELINE_PHASE,), prepare, **kw)


def decline_phase(prepare: Callable[[GameState], None] | None = None, **kw: Any) -> GameState:
    """Run the decline phase (RULES.md section 4C) of the position, slide included."""
    return run_phase((F_DECLINE_PHASE,), prepare, **kw)


def space_of(st: GameState, code: str) -> tuple[int, int]:
    """(space, row) of a Timeline monument; (0, 0) when it is not in the Timeline."""
    return st.place_of(idx(st, code))


def board(st: GameState) -> list[str]:
    return codes(st, st.board_artifacts())


def tech_codes(st: GameState) -> list[str]:
    return codes(st, st.techs)


def discard(st: GameState) -> list[str]:
    return sorted(codes(st, st.discard))


# Monuments used as plain fixtures have no Timeline, immediate or anytime effect of their own
# (end-game cards: C1-C5, M1-M7, P1-P6), so the artifact under test is the only thing at work.


# ============================================================================ Timeline phase

# ---------------------------------------------------------------- A1 Disk of Sabu

def test_A1_removes_one_lost_knowledge_with_four_past_megaliths() -> None:
    """A1: with at least 4 megaliths in the Past, discard 1 lost knowledge (Timeline phase)."""
    st = timeline_phase(artifacts=["A1"], past=["M1", "M2", "M3", "M4"], lost=3)
    assert at_stop(st)
    assert st.lost == 2


@pytest.mark.parametrize(("past", "lost", "after"), [
    (["M1", "M2", "M3", "C1", "P1"], 3, 3),  # only 3 megaliths: the condition fails
    (["M1", "M2", "M3", "M4"], 0, 0),  # no lost knowledge: as far as possible (D6, D22)
], ids=["A1-three-megaliths", "A1-no-lost-knowledge"])
def test_A1_does_nothing_otherwise(past: list[str], lost: int, after: int) -> None:
    """A1: fewer than 4 Past megaliths -> nothing; with 0 lost knowledge there is nothing to
    discard (lost knowledge never goes below 0, D22)."""
    st = timeline_phase(artifacts=["A1"], past=past, lost=lost)
    assert at_stop(st)
    assert st.lost == after


def test_A1_counts_rotated_megaliths() -> None:
    """A1: rotated (excavated) megaliths are still in the Past and count (clarifications:
    rotated cards keep their icons)."""
    st = timeline_phase(artifacts=["A1"], past=["M1", "M2", "M3", "M4"], rotated=4, lost=1)
    assert st.lost == 0


# ---------------------------------------------------------------- A2 Sarcophagus of Saqqara

def test_A2_removes_one_knowledge_then_draws() -> None:
    """A2: with at least 3 cities in the Timeline, remove 1 knowledge from one monument (only
    monuments holding knowledge are offered), then draw 1 card."""
    st = timeline_phase(artifacts=["A2"], timeline={2: ["C1"], 3: ["C2"], 5: ["C3", "M1"]},
                        tokens={"C1": 2, "C3": 1, "M1": 3}, deck_top=["P1"])
    assert names_of(st) == ["@C1", "@C3", "@M1"]
    play(st, "@M1")
    assert at_stop(st)
    assert (tok(st, "C1"), tok(st, "C2"), tok(st, "C3"), tok(st, "M1")) == (2, 0, 1, 2)
    assert hand(st) == ["P1"]


def test_A2_draws_even_without_knowledge_to_remove() -> None:
    """A2: the two parts apply as far as possible (D6): no knowledge anywhere, still draw 1."""
    st = timeline_phase(artifacts=["A2"], timeline={2: ["C1"], 3: ["C2"], 5: ["C3"]},
                        deck_top=["P1"])
    assert at_stop(st)
    assert hand(st) == ["P1"]


def test_A2_needs_three_timeline_cities() -> None:
    """A2: 2 cities in the Timeline (3 in the Past do not count) -> nothing."""
    st = timeline_phase(artifacts=["A2"], timeline={2: ["C1"], 3: ["C2"], 5: ["M1"]},
                        past=["C3", "C4", "C5"], tokens={"C1": 2, "M1": 3}, deck_top=["P1"])
    assert at_stop(st)
    assert (tok(st, "C1"), tok(st, "M1")) == (2, 3)
    assert hand(st) == []


# ---------------------------------------------------------------- A3 Planetary Stone

def a3_position() -> GameState:
    return timeline_phase(artifacts=["A3"], hand=["C1", "C2", "C3"],
                          timeline={2: ["M1"], 3: ["M2"]}, tokens={"M1": 2, "M2": 2})


def test_A3_yes_discards_two_then_removes_up_to_three() -> None:
    """A3: you may discard 2 cards (chosen in rising order); then remove up to 3 knowledge split
    over your monuments (token by token, non-decreasing place order)."""
    st = a3_position()
    assert names_of(st) == ["yes", "no"]
    play(st, "yes")
    assert names_of(st) == ["C1", "C2"]  # the first of two discards cannot be the last card
    play(st, "C1")
    assert names_of(st) == ["C2", "C3"]
    play(st, "C3")
    assert names_of(st) == ["@M1", "@M2", "done"]
    play(st, "@M1", "@M2")
    assert names_of(st) == ["@M2", "done"]  # M1 is before M2: no going back
    play(st, "@M2")
    assert at_stop(st)
    assert (tok(st, "M1"), tok(st, "M2")) == (1, 0)
    assert hand(st) == ["C2"]
    assert discard(st) == ["C1", "C3"]


def test_A3_yes_may_stop_early() -> None:
    """A3: "up to 3": the player may stop after any token (``done``)."""
    st = a3_position()
    play(st, "yes", "C2", "@M2", "done")  # after C2, C3 is the only card left: taken at once
    assert at_stop(st)
    assert (tok(st, "M1"), tok(st, "M2")) == (2, 1)
    assert hand(st) == ["C1"]


def test_A3_no_changes_nothing() -> None:
    """A3: optional: declined, no card is discarded and no knowledge removed."""
    st = a3_position()
    play(st, "no")
    assert at_stop(st)
    assert (tok(st, "M1"), tok(st, "M2")) == (2, 2)
    assert hand(st) == ["C1", "C2", "C3"]


def test_A3_not_offered_with_one_card_in_hand() -> None:
    """A3: the cost is exactly 2 cards: with 1 card in hand it cannot be paid, not offered."""
    st = timeline_phase(artifacts=["A3"], hand=["C1"], timeline={2: ["M1"]}, tokens={"M1": 2})
    assert at_stop(st)
    assert hand(st) == ["C1"]
    assert tok(st, "M1") == 2


# ---------------------------------------------------------------- A4 Disks of Bayan Kara Ula

def test_A4_removes_one_with_each_type_in_timeline() -> None:
    """A4: a city, a megalith and a pyramid in the Timeline -> remove 1 knowledge from one
    monument (those holding knowledge are the targets)."""
    st = timeline_phase(artifacts=["A4"], timeline={2: ["C1"], 3: ["M1"], 5: ["P1", "P2"]},
                        tokens={"C1": 1, "M1": 0, "P1": 2, "P2": 4})
    assert names_of(st) == ["@C1", "@P1", "@P2"]
    play(st, "@P2")
    assert at_stop(st)
    assert (tok(st, "C1"), tok(st, "M1"), tok(st, "P1"), tok(st, "P2")) == (1, 0, 2, 3)


def test_A4_needs_all_three_types() -> None:
    """A4: no pyramid in the Timeline (one in the Past does not count) -> nothing."""
    st = timeline_phase(artifacts=["A4"], timeline={2: ["C1"], 3: ["M1"], 5: ["C2"]},
                        past=["P1"], tokens={"C1": 1, "M1": 2, "C2": 3})
    assert at_stop(st)
    assert (tok(st, "C1"), tok(st, "M1"), tok(st, "C2")) == (1, 2, 3)


# ---------------------------------------------------------------- A5 Ica Stones

def test_A5_draws_with_three_artifacts_itself_included() -> None:
    """A5: at least 3 artifacts on the board (A5 itself counts) -> draw 1 card."""
    st = timeline_phase(artifacts=["A5", "A26", "A28"], deck_top=["C1"])
    assert at_stop(st)
    assert hand(st) == ["C1"]


def test_A5_two_artifacts_draw_nothing() -> None:
    """A5: 2 artifacts on the board -> nothing (artifacts in hand do not count)."""
    st = timeline_phase(artifacts=["A5", "A26"], hand=["A28"], deck_top=["C1"])
    assert at_stop(st)
    assert hand(st) == ["A28"]


def test_A5_chest_cards_are_not_artifacts() -> None:
    """A5 with D11: a chest card in an artifact space is not an artifact: 2 artifacts and a
    chest card -> nothing."""
    def chest(st: GameState) -> None:
        st.artifacts[2] = CHEST_BASE + 0

    st = timeline_phase(chest, artifacts=["A5", "A26"], deck_top=["C1"])
    assert at_stop(st)
    assert hand(st) == []


# ---------------------------------------------------------------- A6 Antikythera Mechanism

def test_A6_moves_space1_monument_with_four_knowledge_to_space3() -> None:
    """A6: a space-1 monument holding 4+ knowledge must move to space 3 (lower place if free),
    knowledge with it."""
    st = timeline_phase(artifacts=["A6"], timeline={1: ["C1"]}, tokens={"C1": 4})
    assert at_stop(st)
    assert space_of(st, "C1") == (3, 0)
    assert tok(st, "C1") == 4
    assert st.space_monuments(1) == []


def test_A6_upper_place_of_space3() -> None:
    """A6: space 3's lower place is taken: the monument goes to the upper place."""
    st = timeline_phase(artifacts=["A6"], timeline={1: ["C1"], 3: ["M1"]}, tokens={"C1": 5})
    assert space_of(st, "C1") == (3, 1)
    assert space_of(st, "M1") == (3, 0)


def test_A6_player_chooses_when_both_qualify() -> None:
    """A6: both space-1 monuments hold 4+: the player chooses which one moves; the other stays."""
    st = timeline_phase(artifacts=["A6"], timeline={1: ["C1", "C2"]},
                        tokens={"C1": 4, "C2": 6})
    assert names_of(st) == ["@C1", "@C2"]
    play(st, "@C2")
    assert at_stop(st)
    assert space_of(st, "C2") == (3, 0)
    assert space_of(st, "C1") == (1, 0)


@pytest.mark.parametrize(("timeline", "tokens", "time_space"), [
    ({1: ["C1"]}, {"C1": 3}, 4),  # 3 knowledge: not enough
    ({1: ["C1"], 3: ["M1"]}, {"C1": 4}, 3),  # space 3 full (M1 and the time card)
    ({2: ["C1"]}, {"C1": 6}, 4),  # not in space 1
], ids=["A6-three-knowledge", "A6-space3-full", "A6-not-space1"])
def test_A6_otherwise_nothing_happens(timeline: dict[int, list[str]], tokens: dict[str, int],
                                      time_space: int) -> None:
    """A6: fewer than 4 knowledge, space 3 full, or not in space 1 -> nothing happens."""
    st = timeline_phase(artifacts=["A6"], timeline=timeline, tokens=tokens,
                        time_space=time_space)
    assert at_stop(st)
    space = next(iter(timeline))
    assert space_of(st, "C1") == (space, 0)


@pytest.mark.parametrize(("with_a6", "lost", "past"), [
    (True, 0, []), (False, 4, ["C1"]),
], ids=["A6-escapes-decline", "A6-absent-declines"])
def test_A6_moved_monument_escapes_this_turns_decline(with_a6: bool, lost: int,
                                                      past: list[str]) -> None:
    """A6 (clarifications): the moved card escapes this turn's decline; it slides with the rest
    (space 3 -> 2). Without A6 it declines: its 4 knowledge become lost knowledge."""
    st = position(artifacts=["A6"] if with_a6 else [], timeline={1: ["C1"]}, tokens={"C1": 4},
                  hand=["M5"], phase="timeline")
    assert st.turn == 2  # the next turn's first action is pending
    assert st.lost == lost
    assert codes(st, st.past) == past
    assert space_of(st, "C1") == ((2, 0) if with_a6 else (0, 0))


# ---------------------------------------------------------------- A7 Moai Statue

def a7_position() -> GameState:
    return timeline_phase(artifacts=["A7"], hand=["A1", "A2", "A3", "C1"],
                          deck_top=["M1", "M2", "M3", "M4", "M5"])


def test_A7_yes_discards_two_artifact_cards_and_draws_four() -> None:
    """A7: you may discard 2 artifact cards from hand (only artifacts are offered); then draw 4."""
    st = a7_position()
    assert names_of(st) == ["yes", "no"]
    play(st, "yes")
    assert names_of(st) == ["A1", "A2"]
    play(st, "A1")
    assert names_of(st) == ["A2", "A3"]
    play(st, "A3")
    assert at_stop(st)
    assert hand(st) == ["A2", "C1", "M1", "M2", "M3", "M4"]
    assert discard(st) == ["A1", "A3"]


def test_A7_no_changes_nothing() -> None:
    """A7: optional: declined, the hand is unchanged."""
    st = a7_position()
    play(st, "no")
    assert at_stop(st)
    assert hand(st) == ["A1", "A2", "A3", "C1"]


def test_A7_needs_two_artifact_cards_in_hand() -> None:
    """A7 (clarifications: needs 2 artifact cards in hand): 1 artifact card and 3 monuments in
    hand -> not offered."""
    st = timeline_phase(artifacts=["A7"], hand=["A1", "C1", "C2", "C3"], deck_top=["M1"])
    assert at_stop(st)
    assert hand(st) == ["A1", "C1", "C2", "C3"]


# ---------------------------------------------------------------- A8 La Maná Pyramid

def test_A8_yes_discards_one_and_draws_one() -> None:
    """A8: you may discard 1 card from hand; if you do, draw 1."""
    st = timeline_phase(artifacts=["A8"], hand=["C1", "C2"], deck_top=["M1"])
    assert names_of(st) == ["yes", "no"]
    play(st, "yes")
    assert names_of(st) == ["C1", "C2"]
    play(st, "C2")
    assert at_stop(st)
    assert hand(st) == ["C1", "M1"]
    assert discard(st) == ["C2"]


def test_A8_no_changes_nothing() -> None:
    """A8: optional: declined, the hand is unchanged."""
    st = timeline_phase(artifacts=["A8"], hand=["C1", "C2"], deck_top=["M1"])
    play(st, "no")
    assert at_stop(st)
    assert hand(st) == ["C1", "C2"]


def test_A8_not_offered_with_empty_hand() -> None:
    """A8: nothing to discard -> no choice, no draw."""
    st = timeline_phase(artifacts=["A8"], deck_top=["M1"])
    assert at_stop(st)
    assert hand(st) == []


# ---------------------------------------------------------------- A9 Tzolk'in

def a9_position(lost: int = 3, past: Sequence[str] = ("M1",)) -> GameState:
    return timeline_phase(artifacts=["A9"], lost=lost, past=past,
                          timeline={2: ["C1"], 3: ["C2"], 5: ["C3"]},
                          tokens={"C1": 2, "C2": 0, "C3": 1})


def test_A9_yes_removes_one_from_a_chosen_monument() -> None:
    """A9: at most 3 lost knowledge and a monument in the Past: you may remove 1 knowledge from
    one monument (those with knowledge are offered)."""
    st = a9_position()
    assert names_of(st) == ["yes", "no"]
    play(st, "yes")
    assert names_of(st) == ["@C1", "@C3"]
    play(st, "@C3")
    assert at_stop(st)
    assert (tok(st, "C1"), tok(st, "C2"), tok(st, "C3")) == (2, 0, 0)


def test_A9_no_changes_nothing() -> None:
    """A9: optional: declined -> nothing."""
    st = a9_position()
    play(st, "no")
    assert at_stop(st)
    assert (tok(st, "C1"), tok(st, "C3")) == (2, 1)


@pytest.mark.parametrize(("lost", "past"), [(4, ("M1",)), (0, ())],
                         ids=["A9-four-lost", "A9-empty-past"])
def test_A9_condition_fails(lost: int, past: tuple[str, ...]) -> None:
    """A9: 4 lost knowledge, or an empty Past -> not offered, nothing happens."""
    st = a9_position(lost, past)
    assert at_stop(st)
    assert (tok(st, "C1"), tok(st, "C3")) == (2, 1)


# ---------------------------------------------------------------- A10 Incahuasi Quipus

def test_A10_draws_with_little_lost_knowledge_and_a_past() -> None:
    """A10: at most 3 lost knowledge and at least 1 Past monument -> draw 1 card."""
    st = timeline_phase(artifacts=["A10"], lost=3, past=["M1"], deck_top=["C1"])
    assert at_stop(st)
    assert hand(st) == ["C1"]


@pytest.mark.parametrize(("lost", "past", "in_hand"), [
    (4, ("M1",), False), (0, (), False), (0, ("M1",), True),
], ids=["A10-four-lost", "A10-empty-past", "A10-in-hand-not-in-play"])
def test_A10_condition_fails(lost: int, past: tuple[str, ...], in_hand: bool) -> None:
    """A10: 4 lost knowledge or an empty Past -> nothing; in hand (not on the board) it does
    nothing either (clarifications: effects work only in the Timeline or artifact row)."""
    st = timeline_phase(artifacts=[] if in_hand else ["A10"], hand=["A10"] if in_hand else [],
                        lost=lost, past=past, deck_top=["C1"])
    assert at_stop(st)
    assert hand(st) == (["A10"] if in_hand else [])


# ---------------------------------------------------------------- A11 Paracas Candelabra

def a11_position(third: str = "P3") -> GameState:
    return timeline_phase(artifacts=["A11"], timeline={2: ["P1"], 3: ["P2", "C1"], 5: [third]},
                          tokens={"P1": 1, "P2": 2, "C1": 3, third: 0})


def test_A11_removes_up_to_two_split() -> None:
    """A11: 3 pyramids in the Timeline -> remove up to 2 knowledge split over any monuments
    (cities too), token by token in place order."""
    st = a11_position()
    assert names_of(st) == ["@P1", "@P2", "@C1", "done"]
    play(st, "@P1", "@C1")
    assert at_stop(st)
    assert (tok(st, "P1"), tok(st, "P2"), tok(st, "C1")) == (0, 2, 2)


def test_A11_may_remove_fewer() -> None:
    """A11: "up to 2": stop after one token, or take none."""
    st = a11_position()
    play(st, "@P2", "done")
    assert (tok(st, "P1"), tok(st, "P2"), tok(st, "C1")) == (1, 1, 3)
    st = a11_position()
    play(st, "done")
    assert at_stop(st)
    assert (tok(st, "P1"), tok(st, "P2"), tok(st, "C1")) == (1, 2, 3)


def test_A11_needs_three_timeline_pyramids() -> None:
    """A11: 2 pyramids in the Timeline -> nothing."""
    st = a11_position(third="M1")
    assert at_stop(st)
    assert (tok(st, "P1"), tok(st, "P2"), tok(st, "C1")) == (1, 2, 3)


# ---------------------------------------------------------------- A12 Pachamama Monolith

PYRAMIDS5 = ["P1", "P2", "P3", "P4", "P5"]
# Tile A: T9 (no requirement), T1 (3 artifacts: unmet), T7 (a Past city, megalith, pyramid: unmet)
TILES_A12 = ["T9", "T1", "T7", None, None, None, None, None, None]


def test_A12_may_learn_a_technology_whose_requirement_is_met() -> None:
    """A12: 5 pyramids in the Past -> you may learn one technology whose requirement you meet
    (only those are offered, and "no")."""
    st = timeline_phase(artifacts=["A12"], past=PYRAMIDS5, tiles=TILES_A12)
    assert names_of(st) == ["T9", "no"]
    play(st, "T9")
    assert at_stop(st)
    assert tech_codes(st) == ["T9"]
    assert codes(st, [t for t in st.tiles if t != EMPTY]) == ["T1", "T7"]


def test_A12_no_learns_nothing() -> None:
    """A12: optional: declined -> no technology."""
    st = timeline_phase(artifacts=["A12"], past=PYRAMIDS5, tiles=TILES_A12)
    play(st, "no")
    assert at_stop(st)
    assert tech_codes(st) == []


def test_A12_needs_five_past_pyramids() -> None:
    """A12: 4 pyramids in the Past -> nothing offered."""
    st = timeline_phase(artifacts=["A12"], past=PYRAMIDS5[:4], tiles=TILES_A12)
    assert at_stop(st)
    assert tech_codes(st) == []


# ---------------------------------------------------------------- A13 Piri Reis Map

def a13_position() -> GameState:
    return timeline_phase(artifacts=["A13"], timeline={2: ["C1"], 3: ["C2"], 5: ["M1"]},
                          tokens={"C1": 0, "C2": 2, "M1": 0})


def test_A13_moves_a_monument_without_knowledge() -> None:
    """A13: you may move a monument holding 0 knowledge (only those are offered) to a free place
    of another space (every space with a free place, its own excepted)."""
    st = a13_position()
    assert names_of(st) == ["yes", "no"]
    play(st, "yes")
    assert names_of(st) == ["@C1", "@M1"]
    play(st, "@C1")
    assert names_of(st) == ["s1", "s3", "s4", "s5", "s6"]
    play(st, "s5")
    assert at_stop(st)
    assert space_of(st, "C1") == (5, 1)
    assert st.space_monuments(2) == []


def test_A13_no_moves_nothing() -> None:
    """A13: optional: declined -> nothing moves."""
    st = a13_position()
    play(st, "no")
    assert at_stop(st)
    assert (space_of(st, "C1"), space_of(st, "M1")) == ((2, 0), (5, 0))


def test_A13_not_offered_when_every_monument_holds_knowledge() -> None:
    """A13: no monument with 0 knowledge -> nothing to move, not offered."""
    st = timeline_phase(artifacts=["A13"], timeline={2: ["C1"]}, tokens={"C1": 1})
    assert at_stop(st)
    assert space_of(st, "C1") == (2, 0)


# ---------------------------------------------------------------- A14 Klerksdorp Spheres

@pytest.mark.parametrize(("lost", "drawn"), [(5, ["C1"]), (9, ["C1"]), (4, [])],
                         ids=["A14-five-lost", "A14-nine-lost", "A14-four-lost"])
def test_A14_draws_with_five_lost_knowledge(lost: int, drawn: list[str]) -> None:
    """A14: at least 5 lost knowledge -> draw 1 card; 4 -> nothing."""
    st = timeline_phase(artifacts=["A14"], lost=lost, deck_top=["C1"])
    assert at_stop(st)
    assert hand(st) == drawn
    assert st.lost == lost


# ---------------------------------------------------------------- A15 Luddite Flute

@pytest.mark.parametrize(("rotated", "after"), [(5, 1), (2, 0)], ids=["A15-five", "A15-two"])
def test_A15_yes_discards_itself_and_straightens_up_to_four(rotated: int, after: int) -> None:
    """A15: you may discard it from the board; then straighten up to 4 rotated Past monuments
    (automatically as many as possible, clarifications)."""
    st = timeline_phase(artifacts=["A15"], past=["M1", "M2", "M3", "M4", "M5"], rotated=rotated)
    assert names_of(st) == ["yes", "no"]
    play(st, "yes")
    assert at_stop(st)
    assert st.rotated == after
    assert board(st) == []
    assert discard(st) == ["A15"]
    assert codes(st, st.past) == ["M1", "M2", "M3", "M4", "M5"]


def test_A15_no_keeps_it() -> None:
    """A15: optional: declined -> it stays on the board, nothing straightened."""
    st = timeline_phase(artifacts=["A15"], past=["M1", "M2", "M3"], rotated=3)
    play(st, "no")
    assert at_stop(st)
    assert st.rotated == 3
    assert board(st) == ["A15"]


# ---------------------------------------------------------------- A21 Baghdad Battery

def a21_position() -> GameState:
    return timeline_phase(artifacts=["A21"], timeline={2: ["C1"], 3: ["M1"], 5: ["P1"]},
                          tokens={"C1": 2, "M1": 3, "P1": 1})


def test_A21_yes_discards_itself_and_removes_up_to_four() -> None:
    """A21: you may discard it from the board; then remove up to 4 knowledge split over your
    monuments."""
    st = a21_position()
    assert names_of(st) == ["yes", "no"]
    play(st, "yes")
    assert board(st) == [] and discard(st) == ["A21"]
    assert names_of(st) == ["@C1", "@M1", "@P1", "done"]
    play(st, "@C1", "@M1", "@M1", "@M1")
    assert at_stop(st)
    assert (tok(st, "C1"), tok(st, "M1"), tok(st, "P1")) == (1, 0, 1)


def test_A21_yes_may_remove_fewer() -> None:
    """A21: "up to 4": the artifact is gone even if fewer (here 1) are removed."""
    st = a21_position()
    play(st, "yes", "@M1", "done")
    assert at_stop(st)
    assert (tok(st, "C1"), tok(st, "M1"), tok(st, "P1")) == (2, 2, 1)
    assert board(st) == []


def test_A21_no_keeps_it() -> None:
    """A21: optional: declined -> it stays, no knowledge removed."""
    st = a21_position()
    play(st, "no")
    assert at_stop(st)
    assert board(st) == ["A21"]
    assert (tok(st, "C1"), tok(st, "M1"), tok(st, "P1")) == (2, 3, 1)


# ---------------------------------------------------------------- A27 Iron Pillar of Delhi

def test_A27_two_monuments_in_space1_remove_one_and_draw() -> None:
    """A27: 2 monuments in space 1 -> remove 1 knowledge from one monument (any space), then
    draw 1 card."""
    st = timeline_phase(artifacts=["A27"], timeline={1: ["C1", "C2"], 3: ["M1"]},
                        tokens={"C1": 1, "C2": 0, "M1": 2}, deck_top=["P1"])
    assert names_of(st) == ["@C1", "@M1"]
    play(st, "@M1")
    assert at_stop(st)
    assert (tok(st, "C1"), tok(st, "M1")) == (1, 1)
    assert hand(st) == ["P1"]


def test_A27_time_card_is_not_a_monument() -> None:
    """A27 with D18: one monument and the time card in space 1 -> nothing."""
    st = timeline_phase(artifacts=["A27"], timeline={1: ["C1", "TIME"], 3: ["M1"]},
                        tokens={"C1": 1, "M1": 2}, deck_top=["P1"])
    assert at_stop(st)
    assert st.spaces[0] == (idx(st, "C1"), TIME)
    assert (tok(st, "C1"), tok(st, "M1")) == (1, 2)
    assert hand(st) == []


# ---------------------------------------------------------------- A31 Saqqara Vases

def a31_position() -> GameState:
    return timeline_phase(artifacts=["A31"], timeline={1: ["C1"], 3: ["M1", "M2"]},
                          tokens={"C1": 3, "M1": 2, "M2": 0})


def test_A31_yes_discards_itself_and_moves_any_monument() -> None:
    """A31: you may discard it from the board; then move any monument (knowledge or not) to a
    free place of another space."""
    st = a31_position()
    assert names_of(st) == ["yes", "no"]
    play(st, "yes")
    assert board(st) == [] and discard(st) == ["A31"]
    assert names_of(st) == ["@C1", "@M1", "@M2"]
    play(st, "@M1")
    assert names_of(st) == ["s1", "s2", "s4", "s5", "s6"]  # s3 is its own space
    play(st, "s1")
    assert at_stop(st)
    assert space_of(st, "M1") == (1, 1)
    assert space_of(st, "M2") == (3, 0)  # the upper card slid down
    assert tok(st, "M1") == 2


def test_A31_no_keeps_it() -> None:
    """A31: optional: declined -> it stays, nothing moves."""
    st = a31_position()
    play(st, "no")
    assert at_stop(st)
    assert board(st) == ["A31"]
    assert space_of(st, "M1") == (3, 0)


# ---------------------------------------------------------------- A33 Michaux Stone

TILES_A33 = ["T9", "T1", "T7", None, None, None, "T30", "T36", None]


def test_A33_may_learn_with_seventeen_lost_knowledge() -> None:
    """A33: 17+ lost knowledge -> you may learn one technology whose requirement you meet
    (here T9 and Thoth T30, lost >= 9; not T1, T7, Astrology T36)."""
    st = timeline_phase(artifacts=["A33"], lost=17, tiles=TILES_A33)
    assert names_of(st) == ["T9", "T30", "no"]
    play(st, "T30")
    assert at_stop(st)
    assert tech_codes(st) == ["T30"]
    assert st.score().technologies == 2


def test_A33_no_learns_nothing() -> None:
    """A33: optional: declined -> nothing learned."""
    st = timeline_phase(artifacts=["A33"], lost=17, tiles=TILES_A33)
    play(st, "no")
    assert at_stop(st)
    assert tech_codes(st) == []


def test_A33_needs_seventeen_lost_knowledge() -> None:
    """A33: 16 lost knowledge -> nothing offered."""
    st = timeline_phase(artifacts=["A33"], lost=16, tiles=TILES_A33)
    assert at_stop(st)
    assert tech_codes(st) == []


# ---------------------------------------------------------------- A35 Assurbanipal's Tablet

@pytest.mark.parametrize(("cards", "after"), [
    ([], ["M1"]), (["C1"], ["C1", "M1"]), (["C1", "C2"], ["C1", "C2"]),
], ids=["A35-empty-hand", "A35-one-card", "A35-two-cards"])
def test_A35_draws_with_at_most_one_card(cards: list[str], after: list[str]) -> None:
    """A35: 0 or 1 card in hand -> draw 1; 2 cards -> nothing."""
    st = timeline_phase(artifacts=["A35"], hand=cards, deck_top=["M1"])
    assert at_stop(st)
    assert hand(st) == after


# ---------------------------------------------------------------- several Timeline effects

def test_timeline_artifacts_resolve_in_the_players_order() -> None:
    """A35 then A10 vs A10 then A35 (D15; conditions are checked when each resolves): with 1
    card in hand, A10 first makes A35's condition (hand <= 1) fail."""
    kw: dict[str, Any] = {"artifacts": ["A35", "A10"], "hand": ["C1"], "past": ["M1"],
                          "deck_top": ["M2", "M3"]}
    st = timeline_phase(**kw)
    assert names_of(st) == ["!A35", "!A10"]
    play(st, "!A10")
    assert at_stop(st)
    assert hand(st) == ["C1", "M2"]
    st = timeline_phase(**kw)
    play(st, "!A35")
    assert at_stop(st)
    assert hand(st) == ["C1", "M2", "M3"]


# ============================================================================ anytime: Create

def one_action(**kw: Any) -> GameState:
    """A position (builder keywords) at a choice of action: one action, then STOP."""
    return position(pending=[STOP, (D_ACTION, 0)], **kw)


def create_only(hand_cards: Sequence[str], **kw: Any) -> GameState:
    """One action to take, with these cards in hand."""
    return one_action(hand=hand_cards, **kw)


# ---------------------------------------------------------------- A22 Nazca Lines, A23 Olmec

@pytest.mark.parametrize(("art", "card", "drawn"), [
    ("A22", "P9", ["C1"]), ("A22", "M8", []), ("A22", "C9", []),
    ("A23", "M8", ["C1"]), ("A23", "P9", []), ("A23", "C9", []),
], ids=["A22-pyramid", "A22-megalith", "A22-city", "A23-megalith", "A23-pyramid", "A23-city"])
def test_A22_A23_draw_on_creating_their_type(art: str, card: str, drawn: list[str]) -> None:
    """A22: each pyramid you create draws 1 card; A23: each megalith. Other types: nothing."""
    st = create_only([card], artifacts=[art], deck_top=["C1"], time_space=6)
    play(st, "create")
    assert at_stop(st)
    assert space_of(st, card)[0] == st.card(idx(st, card)).starting_space
    assert hand(st) == drawn


def test_A22_not_on_creating_an_artifact() -> None:
    """A22: creating an artifact is not creating a pyramid -> no draw."""
    st = create_only(["A26"], artifacts=["A22"], deck_top=["C1"])
    play(st, "create")
    assert at_stop(st)
    assert board(st) == ["A22", "A26"]
    assert hand(st) == []


# ---------------------------------------------------------------- A24 Genetic Disk

@pytest.mark.parametrize("space", [5, 6], ids=["A24-space5", "A24-space6"])
def test_A24_creating_in_space_5_or_6_removes_up_to_two(space: int) -> None:
    """A24: a monument created into space 5 or 6 -> remove up to 2 knowledge split over your
    monuments (the new one included), token by token, or fewer."""
    st = create_only(["P30", "C2"], artifacts=["A24"], timeline={2: ["C1"]}, tokens={"C1": 3})
    play(st, "create", "P30", f"s{space}")  # s6: one space from its start, C2 discarded
    assert names_of(st) == ["@C1", "@P30", "done"]
    play(st, "@C1", "@P30")
    assert at_stop(st)
    assert (tok(st, "C1"), tok(st, "P30")) == (2, 3)
    assert hand(st) == (["C2"] if space == 5 else [])


def test_A24_may_remove_none() -> None:
    """A24: "you may ... up to 2": ``done`` at once removes nothing."""
    st = create_only(["P30"], artifacts=["A24"], timeline={2: ["C1"]}, tokens={"C1": 3})
    play(st, "create")
    assert names_of(st) == ["@C1", "@P30", "done"]
    play(st, "done")
    assert at_stop(st)
    assert (tok(st, "C1"), tok(st, "P30")) == (3, 4)


def test_A24_other_spaces_do_nothing() -> None:
    """A24: created into space 4 -> nothing."""
    st = create_only(["P31"], artifacts=["A24"], timeline={2: ["C1"]}, tokens={"C1": 3},
                     time_space=6)
    play(st, "create")
    assert at_stop(st)
    assert space_of(st, "P31") == (4, 0)
    assert (tok(st, "C1"), tok(st, "P31")) == (3, 4)


def test_A24_moves_do_not_count() -> None:
    """A24 (clarifications: moves don't count): A13 moving a monument into space 5 -> nothing."""
    st = timeline_phase(artifacts=["A13", "A24"], timeline={2: ["C1"], 3: ["M1"]},
                        tokens={"C1": 0, "M1": 3})
    play(st, "yes", "s5")  # C1 is the only monument without knowledge
    assert at_stop(st)
    assert space_of(st, "C1") == (5, 0)
    assert tok(st, "M1") == 3


# ---------------------------------------------------------------- A26, A28, A36 reductions

@pytest.mark.parametrize(("art", "card", "tokens"), [
    ("A26", "M8", 2), ("A26", "C10", 4), ("A26", "P31", 4),
    ("A28", "C10", 3), ("A28", "M8", 3), ("A28", "P31", 4),
    ("A36", "P31", 3), ("A36", "C10", 4), ("A36", "M8", 3),
], ids=["A26-megalith", "A26-city", "A26-pyramid", "A28-city", "A28-megalith", "A28-pyramid",
        "A36-pyramid", "A36-city", "A36-megalith"])
def test_reducers_one_fewer_knowledge_for_their_type(art: str, card: str, tokens: int) -> None:
    """A26 megaliths, A28 cities, A36 pyramids enter play with 1 knowledge fewer (C10 4, M8 3,
    P31 4 printed); other types are not affected."""
    st = create_only([card], artifacts=[art], time_space=6)
    play(st, "create")
    assert at_stop(st)
    assert tok(st, card) == tokens


def test_reducers_stack_and_floor_at_zero() -> None:
    """A28 stacks with P22 (clarifications: everything stacks): C10 (4) enters with 2; C9
    (1 printed) enters with 0, never below."""
    st = create_only(["C10"], artifacts=["A28"], timeline={5: ["P22"]}, time_space=6)
    play(st, "create")
    assert tok(st, "C10") == 2
    st = create_only(["C9"], artifacts=["A28"], timeline={5: ["P22"]}, time_space=6)
    play(st, "create")
    assert tok(st, "C9") == 0


# ---------------------------------------------------------------- artifact creation costs

@pytest.mark.parametrize(("art", "others", "choose"), [
    ("A12", ["C3", "M13", "M34"], True), ("A33", ["C3", "M13", "M34"], True),
    ("A30", ["M13"], False), ("A1", [], False),
])
def test_artifact_create_cost_is_its_discard_cost(art: str, others: list[str],
                                                  choose: bool) -> None:
    """RULES.md section 5: creating an artifact discards `discard_cost` other cards (A12 3,
    A33 3, A30 1, A1 0; here every other card, so the discards are forced) and puts it in the
    next free artifact space. `choose`: C3 / M34 can be created too, so the card is chosen."""
    assert book()[idx(book(), art)].discard_cost == len(others)
    st = create_only([art, *others], artifacts=["A26"])
    play(st, "create", *([art] if choose else []))
    assert at_stop(st)
    assert board(st) == ["A26", art]
    assert st.artifacts[1] == idx(st, art)
    assert hand(st) == []
    assert discard(st) == others


@pytest.mark.parametrize(("art", "others"), [
    ("A12", ["M13", "M34"]), ("A33", ["M13", "M34"]), ("A30", []),
])
def test_artifact_cannot_be_created_one_card_short(art: str, others: list[str]) -> None:
    """RULES.md section 5: one card short of the discard cost -> no Create (M13 and M34 cost
    more than 2 themselves)."""
    st = create_only([art, *others])
    assert "create" not in names_of(st)


def test_artifact_needs_a_free_artifact_space() -> None:
    """RULES.md section 5: 5 artifacts on the board -> no artifact can be created."""
    st = create_only(["A1"], artifacts=["A26", "A28", "A36", "A29", "A34"])
    assert "create" not in names_of(st)


# ============================================================================ anytime: Learn

LEARN_TECHS = {"ancient": "T9", "secret": "T11", "writing": "T26"}  # no effect of their own here


@pytest.mark.parametrize(("art", "ttype", "n"), [
    ("A17", "writing", 2), ("A17", "ancient", 0), ("A17", "secret", 0),
    ("A18", "ancient", 2), ("A18", "writing", 0), ("A18", "secret", 0),
    ("A19", "secret", 2), ("A19", "ancient", 0), ("A19", "writing", 0),
    ("A20", "ancient", 1), ("A20", "secret", 1), ("A20", "writing", 1),
])
def test_learn_draw_artifacts(art: str, ttype: str, n: int) -> None:
    """A17 writing / A18 ancient / A19 secret: each Learn of that type draws 2 cards; A20: each
    Learn of any type draws 1. T9, T11, T26 do nothing themselves in these positions."""
    tech = LEARN_TECHS[ttype]
    tiles = [tech, "T5", "T6", None, None, None, None, None, None]
    st = one_action(artifacts=[art], tiles=tiles, deck_top=["C1", "C2", "C3"], hand=["M1"])
    play(st, "learn", tech)
    assert at_stop(st)
    assert tech_codes(st) == [tech]
    assert hand(st) == sorted(["M1", *["C1", "C2", "C3"][:n]])


def test_learn_draw_artifacts_stack() -> None:
    """A17 and A20 both trigger on a writing Learn, in the player's order: 2 + 1 cards."""
    tiles = ["T26", "T5", "T6", None, None, None, None, None, None]
    st = one_action(artifacts=["A17", "A20"], tiles=tiles, deck_top=["C1", "C2", "C3", "C4"])
    play(st, "learn", "T26")
    assert names_of(st) == ["!A17", "!A20"]
    play(st, "!A20")
    assert at_stop(st)
    assert hand(st) == ["C1", "C2", "C3"]


def test_A17_after_the_technologys_own_effect() -> None:
    """A17 (clarifications: the tech's effect first, then Learn triggers): T21 Ancient Hebrew
    draws 1 (C1), then A17 draws 2 (C2, C3)."""
    tiles = ["T21", "T5", "T6", None, None, None, None, None, None]
    st = one_action(artifacts=["A17"], tiles=tiles, deck_top=["C1", "C2", "C3", "C4"],
                  hand=["M1"])
    play(st, "learn", "T21")
    assert hand(st) == ["C1", "C2", "C3", "M1"]


# ---------------------------------------------------------------- A30 Nimrud Lens

def a30_position(tokens: dict[str, int] | None = None) -> GameState:
    tiles = ["T9", "T5", "T6", None, None, None, None, None, None]
    return one_action(artifacts=["A30"], tiles=tiles, timeline={2: ["C1"], 3: ["C2"], 5: ["M1"]},
                    tokens={"C1": 2, "C2": 0, "M1": 1} if tokens is None else tokens,
                    hand=["P1"])


def test_A30_yes_removes_one_after_a_learn() -> None:
    """A30: each Learn, you may remove 1 knowledge from one monument (those holding knowledge)."""
    st = a30_position()
    play(st, "learn", "T9")
    assert names_of(st) == ["yes", "no"]
    play(st, "yes")
    assert names_of(st) == ["@C1", "@M1"]
    play(st, "@C1")
    assert at_stop(st)
    assert (tok(st, "C1"), tok(st, "C2"), tok(st, "M1")) == (1, 0, 1)


def test_A30_no_changes_nothing() -> None:
    """A30: optional: declined -> nothing removed."""
    st = a30_position()
    play(st, "learn", "T9", "no")
    assert at_stop(st)
    assert (tok(st, "C1"), tok(st, "M1")) == (2, 1)


def test_A30_not_offered_without_knowledge() -> None:
    """A30: no knowledge on any monument -> no question."""
    st = a30_position({})
    play(st, "learn", "T9")
    assert at_stop(st)
    assert tech_codes(st) == ["T9"]


# ============================================================================ anytime: Excavate

PAST3 = ["M1", "M2", "M3"]


def excavate(arts: Sequence[str], past: Sequence[str] = PAST3, **kw: Any) -> GameState:
    deck = [f"C{i}" for i in range(1, 11)]
    return one_action(artifacts=arts, past=past, deck_top=deck, hand=["P1"], **kw)


# ---------------------------------------------------------------- A16 Crystal Skull

TILES_A16 = ["T9", "T2", "T5", None, None, None, None, None, None]  # T2: 2 Past pyramids


def test_A16_excavating_three_learns_after_the_draw() -> None:
    """A16: an Excavate that rotates 3 or more draws first (6 cards), then a mandatory Learn of
    a technology whose requirement you meet (T2 needs 2 Past pyramids: not offered; no "no")."""
    st = excavate(["A16"], tiles=TILES_A16)
    play(st, "excavate", "#3")
    assert names_of(st) == ["T5", "T9"]
    assert len(st.hand) == 7
    play(st, "T5")  # T5: 1 lost knowledge (none) and draw 1
    assert at_stop(st)
    assert tech_codes(st) == ["T5"]
    assert hand(st) == ["C1", "C2", "C3", "C4", "C5", "C6", "C7", "P1"]
    assert st.rotated == 3


def test_A16_two_rotated_learn_nothing() -> None:
    """A16: rotating 2 -> only the draw (4 cards), no Learn."""
    st = excavate(["A16"], tiles=TILES_A16)
    play(st, "excavate", "#2")
    assert at_stop(st)
    assert tech_codes(st) == []
    assert len(st.hand) == 5


def test_A16_learn_triggers_learn_artifacts() -> None:
    """A16 with A20 (clarifications: every Learn, whatever its source): the granted Learn also
    draws A20's card."""
    st = excavate(["A16", "A20"], tiles=["T9", "T2", "T7", None, None, None, None, None, None])
    play(st, "excavate", "#3")  # only T9 qualifies: learned at once
    assert at_stop(st)
    assert tech_codes(st) == ["T9"]
    assert hand(st) == ["C1", "C2", "C3", "C4", "C5", "C6", "C7", "P1"]


# ---------------------------------------------------------------- A25 Kensington Runestone

def a25_position(arts: Sequence[str] = ("A25",)) -> GameState:
    return excavate(arts, timeline={2: ["C11"], 3: ["M10"]}, tokens={"C11": 3, "M10": 4})


def test_A25_exactly_two_may_remove_up_to_six_instead_of_drawing() -> None:
    """A25: an Excavate of exactly 2: "yes" removes up to 6 knowledge split, and draws nothing."""
    st = a25_position()
    play(st, "excavate", "#2")
    assert names_of(st) == ["yes", "no"]
    play(st, "yes")
    assert names_of(st) == ["@C11", "@M10", "done"]
    play(st, "@C11", "@C11", "@C11", "@M10", "@M10", "@M10")
    assert at_stop(st)
    assert (tok(st, "C11"), tok(st, "M10")) == (0, 1)
    assert hand(st) == ["P1"]
    assert st.rotated == 2


def test_A25_no_draws_as_usual() -> None:
    """A25: "no" -> the normal draw of 4; no knowledge removed."""
    st = a25_position()
    play(st, "excavate", "#2", "no")
    assert at_stop(st)
    assert hand(st) == ["C1", "C2", "C3", "C4", "P1"]
    assert (tok(st, "C11"), tok(st, "M10")) == (3, 4)


@pytest.mark.parametrize(("n", "drawn"), [(1, 2), (3, 6)], ids=["A25-one", "A25-three"])
def test_A25_other_counts_just_draw(n: int, drawn: int) -> None:
    """A25: rotating 1 or 3 -> no choice, the normal draw."""
    st = a25_position()
    play(st, "excavate", f"#{n}")
    assert at_stop(st)
    assert len(st.hand) == 1 + drawn
    assert (tok(st, "C11"), tok(st, "M10")) == (3, 4)


def test_A25_with_A29_no_draws_six() -> None:
    """A25 with A29: declining Kensington's removal draws 3 per rotated card (6)."""
    st = a25_position(("A25", "A29"))
    play(st, "excavate", "#2", "no")
    assert at_stop(st)
    assert len(st.hand) == 7


# ---------------------------------------------------------------- A29 Phaistos Disc

@pytest.mark.parametrize(("n", "drawn"), [(1, 3), (2, 6), (3, 9)],
                         ids=["A29-one", "A29-two", "A29-three"])
def test_A29_excavate_draws_three_per_rotated(n: int, drawn: int) -> None:
    """A29: Excavate draws 3 cards per rotated monument instead of 2."""
    st = excavate(["A29"])
    play(st, "excavate", f"#{n}")
    assert at_stop(st)
    assert hand(st) == sorted([f"C{i}" for i in range(1, drawn + 1)] + ["P1"])


def test_A29_draw_stops_at_ten() -> None:
    """A29 with D4: every draw stops at 10 in hand."""
    st = one_action(artifacts=["A29"], past=PAST3, hand=["P1", "P2", "P3", "P4", "P5"])
    play(st, "excavate", "#2")
    assert len(st.hand) == 10


# ---------------------------------------------------------------- A34 Oronce Finé's Map

def test_A34_does_nothing_in_solo() -> None:
    """A34 (RULES.md section 11: effects on opponents are ignored): an Excavate of exactly 3
    with it on the board is the same as without it: draw 6, nothing else."""
    with_map = excavate(["A34"])
    without = excavate([])
    play(with_map, "excavate", "#3")
    play(without, "excavate", "#3")
    assert at_stop(with_map)
    assert hand(with_map) == hand(without)
    assert len(with_map.hand) == 7
    assert with_map.lost == without.lost == 0
    assert board(with_map) == ["A34"]
    card = book()[idx(book(), "A34")]
    assert [e.opponents_only for e in card.effects] == [True]


# ============================================================================ anytime: decline

# ---------------------------------------------------------------- A32 Elongated Skulls

DECK5 = ["P1", "P2", "P3", "P4", "P5"]


@pytest.mark.parametrize(("knowledge", "drawn"), [(7, 4), (6, 4), (5, 2), (2, 0)],
                         ids=["A32-seven", "A32-six", "A32-five", "A32-two"])
def test_A32_draws_two_per_full_three_lost(knowledge: int, drawn: int) -> None:
    """A32: 2 cards for each full 3 knowledge that became lost knowledge in the decline phase."""
    st = decline_phase(artifacts=["A32"], timeline={1: ["C1"]}, tokens={"C1": knowledge},
                       deck_top=DECK5)
    assert at_stop(st)
    assert st.lost == knowledge
    assert codes(st, st.past) == ["C1"]
    assert hand(st) == DECK5[:drawn]


def test_A32_sums_over_both_declines() -> None:
    """A32: the knowledge of the two space-1 cards is summed (2 + 1 = 3 -> draw 2)."""
    st = decline_phase(artifacts=["A32"], timeline={1: ["C1", "C2"]}, tokens={"C1": 2, "C2": 1},
                       deck_top=DECK5)
    assert names_of(st) == ["!C1", "!C2"]
    play(st, "!C2")
    assert at_stop(st)
    assert st.lost == 3
    assert hand(st) == ["P1", "P2"]


def test_A32_discarded_city_does_not_count() -> None:
    """A32 (clarifications): a C25 Llaqtapata discarded with its knowledge converts nothing."""
    st = decline_phase(artifacts=["A32"], timeline={1: ["C25"]}, tokens={"C25": 6},
                       deck_top=DECK5)
    assert at_stop(st)
    assert st.lost == 0
    assert st.past == []
    assert hand(st) == []


def test_A32_nothing_when_potala_skips_the_decline() -> None:
    """A32 with C30 Potala Palace created this turn: no decline, nothing converted, no draw."""
    st = position(artifacts=["A32"], hand=["C30"], timeline={1: ["C1"]}, tokens={"C1": 6},
                  deck_top=DECK5, pending=[STOP, (F_DECLINE_PHASE,), (D_ACTION, 0)])
    play(st, "create")
    assert at_stop(st)
    assert space_of(st, "C1") == (1, 0)
    assert st.lost == 0
    assert hand(st) == []


def test_A32_not_in_play_without_it() -> None:
    """Without A32 on the board, 6 converted knowledge draw nothing."""
    st = decline_phase(timeline={1: ["C1"]}, tokens={"C1": 6}, deck_top=DECK5)
    assert at_stop(st)
    assert st.lost == 6
    assert hand(st) == []


# ============================================================================ data

def test_book_has_artifacts_A1_to_A36() -> None:
    """Every artifact card A1-A36 is an artifact of the book with exactly one encoded effect
    (none of them has a double activation)."""
    b = book()
    arts = [c for c in b.cards if not c.is_tech and c.kind == ARTIFACT]
    assert [c.code for c in arts] == [f"A{i}" for i in range(1, 37)]
    assert all(len(c.effects) == 1 for c in arts)
