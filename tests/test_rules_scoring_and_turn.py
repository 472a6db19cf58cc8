"""Scoring, decline and turn rules that the other rules tests left unchecked.

- Final scoring (RULES.md section 7): rows 2 (end-game effects) and 4 (+1 per Timeline monument)
  are those of the position scored, also when the same state was scored earlier in the game
  (the engine remembers a score sheet on the state: `solver.engine.scoring.score_sheet`).
- The decline phase (section 4C): after a monument declines, every Timeline monument can be moved
  again; after a card is discarded instead of declining (C25-C29) the next monument of space 1
  declines into the Past; Potala Palace (C30) skips the decline of a later turn too, and does
  not when created during a decline phase; the 3rd visit of the time card ends the game (D8).
- The turn (section 4): the second action of every turn, the technology phase on tile B (4D),
  the middle-of-the-game flip with the Level II deck exhausted (sections 5 and 6), and a
  Timeline chest under the board ordered with the Timeline effects (section 8, D15, D16).
"""

from __future__ import annotations

import dataclasses

import pytest

from puzzles.chests import load_chests
from solver.engine import flow
from solver.engine.actions import CHEST_LETTERS
from solver.engine.frames import (
    D_ACTION,
    F_DECLINE_PHASE,
    F_TIMELINE_PHASE,
    F_TURN_END,
)
from solver.engine.state import EMPTY
from tests.builder import STOP, book, codes, idx, layout, names_of, play, position, tile_codes

# ---------------------------------------------------------------- final scoring (section 7)


@pytest.mark.parametrize(("past", "effects_before", "effects_after"), [
    (["P36"], 0, 6),  # Janggun-chong: 6 VP with at least 3 monuments in the Timeline
    (["M33"], 2, 3),  # Merchants' Table: 1 extra VP per Timeline monument
    (["M7"], 1, 1),  # Circles of Mpumalanga: reads the Past only
])
def test_final_score_counts_the_timeline_at_the_end_after_an_earlier_score(
        past: list[str], effects_before: int, effects_after: int) -> None:
    """Section 7, rows 2 and 4: the end-game effects of P36 / M33 and the +1 per Timeline
    monument count the Timeline of the final position. The state is scored on turn 16 before
    its actions (2 Timeline monuments), then C3 is created and the game ends in the decline
    phase (D8) with 3 Timeline monuments and the same Past, technologies and lost knowledge:
    its sheet must not be the one of the earlier score."""
    st = position(hand=["C1", "C3", "C4"], timeline={1: ["TIME"], 3: ["M1"], 4: ["C5"]},
                  past=past, time_visits=2, turn=16)
    before = st.score()
    assert (before.effects, before.timeline) == (effects_before, 2)
    play(st, "create", "C3", "search")  # C3 in space 5, paid with C1 and C4
    assert st.is_terminal()
    assert layout(st) == {1: ["TIME"], 3: ["M1"], 4: ["C5"], 5: ["C3"]}
    after = st.score()
    assert (after.effects, after.timeline) == (effects_after, 3)
    assert after.total == before.total + (effects_after - effects_before) + 1


# ---------------------------------------------------------------- decline phase (section 4C)


def test_monument_declined_after_a_discarded_one_goes_to_the_past() -> None:
    """Section 4C.2 and C25 Llaqtapata: C25 still holding knowledge is discarded instead of
    declining (its knowledge back to the reserve); Abu Gorab (C2), declining next from space 1,
    goes to the Past and its knowledge becomes lost knowledge."""
    st = position(timeline={1: ["C25", "C2"]}, tokens={"C25": 2, "C2": 1}, phase="decline")
    assert names_of(st) == ["!C25", "!C2"]
    play(st, "!C25")
    assert st.turn == 2
    assert codes(st, st.past) == ["C2"]
    assert codes(st, st.discard) == ["C25"]
    assert st.lost == 1


def test_after_a_decline_every_timeline_monument_can_be_moved_again() -> None:
    """Section 4C.2 / targets: only the card whose decline effect is resolving is immune to
    move and swap. After M1 declined on turn 1, Piri Reis Map (A13) may move Abu Gorab (C2,
    no knowledge) in turn 2's Timeline phase."""
    st = position(timeline={1: ["M1"], 3: ["C2"]}, tokens={"M1": 1}, artifacts=["A13"],
                  phase="decline")
    assert codes(st, st.past) == ["M1"] and layout(st) == {2: ["C2"], 3: ["TIME"]}
    play(st, "search", "search")
    assert names_of(st) == ["yes", "no"]  # A13: you may move a monument holding no knowledge
    play(st, "yes", "s3")  # C2, the only monument without knowledge, to space 3
    assert st.turn == 3
    assert layout(st) == {2: ["TIME", "C2"]}  # moved to space 3, then slid (else in space 1)


def test_potala_skips_the_decline_of_a_turn_after_a_decline_phase() -> None:
    """Section 4C (C30 Potala Palace): created outside a decline phase, no monument declines
    or slides that turn, also on turn 2 after turn 1's decline phase has run (M2 declined,
    M1 slid to space 1)."""
    st = position(hand=["C30", "C19", "M8"], timeline={1: ["M2"], 2: ["M1"]},
                  tokens={"M1": 1}, time_space=5, phase="decline", deck_top=["A1"])
    assert st.turn == 2 and codes(st, st.past) == ["M2"]
    assert layout(st) == {1: ["M1"], 4: ["TIME"]}
    play(st, "create", "C30", "s3", "search")
    assert st.turn == 3
    assert layout(st) == {1: ["M1"], 3: ["C30", "TIME"]}
    assert codes(st, st.past) == ["M2"] and st.lost == 0


def test_potala_created_during_a_decline_phase_does_not_make_a_potala_turn() -> None:
    """Section 4C and clarifications C30: Potala Palace created during a decline phase (M11's
    Create) skips nothing; the turn is not marked as a Potala turn (`GameState.potala`, "created
    outside a decline phase this turn"), checked before the turn ends."""
    st = position(hand=["C30"], timeline={1: ["M11"]}, pending=[STOP, (F_DECLINE_PHASE,)])
    assert names_of(st) == ["C30", "no"]
    play(st, "C30")
    assert st.pending() == STOP
    assert layout(st) == {2: ["C30"], 3: ["TIME"]} and codes(st, st.past) == ["M11"]
    assert not st.potala


def test_third_visit_of_the_time_card_ends_the_game_with_nothing_declining() -> None:
    """D8: the 3rd time the time card is in space 1 the game ends at once: the monument in
    space 1 does not decline, no technology phase, and no decline phase is under way."""
    st = position(timeline={1: ["M1", "TIME"]}, tokens={"M1": 2}, time_visits=2,
                  tiles=["T1", "T2", "T3", "T4", "T5", "T6", "T28", "T29", "T30"],
                  phase="decline")
    assert st.is_terminal() and st.pending() is None
    assert st.past == [] and st.lost == 0 and layout(st) == {1: ["M1", "TIME"]}
    assert st.die_pos == 0
    assert not st.in_decline


# ---------------------------------------------------------------- the turn (section 4)


def test_every_turn_offers_a_first_and_a_second_action() -> None:
    """Section 4A: two actions each turn. The second action of turn 2 is the same decision as
    the second action of turn 1 (``(D_ACTION, 1)``)."""
    st = position(hand=["C1"])
    assert st.pending() == (D_ACTION, 0)
    play(st, "search")
    assert st.pending() == (D_ACTION, 1)
    play(st, "search")
    assert st.turn == 2 and st.pending() == (D_ACTION, 0)
    play(st, "search")
    assert st.pending() == (D_ACTION, 1)


def test_every_turn_offers_a_second_action_with_chests_under_the_board() -> None:
    """Section 4A with effect chests under the board (section 8): still two actions, the
    second being the same decision as on a turn without chests (``(D_ACTION, 1)``)."""
    st = position(hand=["C1"])
    st.setup = dataclasses.replace(st.setup, under=("Б",), chest_data=load_chests())
    st.chests_under = [CHEST_LETTERS.index("Б")]
    flow.settle(st)
    for _ in range(2):  # turn 1 then turn 2: search twice, skipping the lightning windows
        assert st.pending() == (D_ACTION, 0)
        play(st, "search")
        assert st.pending() == (D_ACTION, 1)
        play(st, "search")
        while st.pending() != (D_ACTION, 0):
            play(st, "done")
    assert st.turn == 3


def test_technology_roll_4_refills_tile_b_left_with_one_card() -> None:
    """Section 4D: roll 4 discards the Level I card in tile B's first slot (T4); tile B is then
    left with exactly one card (T5): it is discarded and tile B is filled with 3 new cards."""
    st = position(tiles=["T1", "T2", "T3", "T4", "T5", None, "T28", "T29", "T30"],
                  phase="tech", dice=(4,) * 16)
    assert codes(st, st.tech_discards[0]) == ["T4", "T5"]
    assert tile_codes(st) == ["T1", "T2", "T3", "T6", "T7", "T8", "T28", "T29", "T30"]


def test_flipped_tile_stays_empty_when_no_level_ii_cards_remain() -> None:
    """Section 6 (flip: discard the tile's cards, fill it with 3 Level II cards) with section 5's
    refill rule: with fewer than 3 Level II cards left in deck and discard, the flipped tile A
    stays empty; the game goes on."""
    lv2 = [c.code for c in book().cards if c.is_tech and c.level == 2]
    st = position(past=["M2", "M3", "M4", "M5", "M6", "M7"], timeline={1: ["M1"]},
                  techs=lv2[3:], tiles=["T1", "T2", "T3", "T4", "T5", "T6", *lv2[:3]],
                  phase="decline")
    assert names_of(st) == ["tileA", "tileB"]
    play(st, "tileA")
    assert st.tile_level == [2, 1, 2]
    assert st.tiles[:3] == [EMPTY, EMPTY, EMPTY]
    assert codes(st, st.tech_discards[0]) == ["T1", "T2", "T3"]
    assert names_of(st) == ["learn", "excavate", "search"]


def test_a_timeline_chest_a_is_ordered_with_the_timeline_effects() -> None:
    """Section 8, D15, D16: an effect chest under the board with the Timeline moment joins the
    Timeline phase's order; used, it applies and is discarded. Chest file replaced (the chest
    data are user data, section 8): А carries И's effect (remove 2 knowledge from one
    monument)."""
    data = load_chests()
    i = data.chests[CHEST_LETTERS.index("И")]
    a = dataclasses.replace(data.chests[0], moment=i.moment, steps=i.steps,
                            effect_text=i.effect_text)
    custom = dataclasses.replace(data, chests=(a, *data.chests[1:]))
    st = position(hand=["C1"], timeline={3: ["C5"], 4: ["M31"]}, tokens={"C5": 5}, lost=2,
                  pending=[STOP])
    st.setup = dataclasses.replace(st.setup, under=("А",), chest_data=custom)
    st.chests_under = [0]
    st.stack = [(F_TURN_END,), STOP, (F_TIMELINE_PHASE,)]
    flow.settle(st)
    assert names_of(st) == ["!M31", "!chest:А"]
    play(st, "!chest:А", "yes")
    assert st.pending() == STOP
    assert st.tokens[idx(st, "C5")] == 3
    assert st.chests_under == [] and st.lost == 1


def test_an_artifact_discarded_during_the_timeline_phase_does_not_activate() -> None:
    """Section 4B: the Timeline effects of artifacts *on the board* activate; one that leaves
    the board before its turn in the player's order does not. Chest file replaced (section 8):
    М, under the board with the Timeline moment, carries Ж's effect (create a monument). Used
    first, it creates Yonaguni (P13), whose optional effect discards Incahuasi Quipus (A10)
    from the board (P13 loses 4 knowledge): A10, queued, then draws nothing."""
    data = load_chests()
    create = data.chests[CHEST_LETTERS.index("Ж")]
    m = dataclasses.replace(data.chests[CHEST_LETTERS.index("М")], steps=create.steps,
                            effect_text=create.effect_text)
    custom = dataclasses.replace(
        data, chests=tuple(m if c.letter == "М" else c for c in data.chests))
    st = position(hand=["P13"], past=["M1"], artifacts=["A10"], pending=[STOP])
    st.setup = dataclasses.replace(st.setup, under=("М",), chest_data=custom)
    st.chests_under = [CHEST_LETTERS.index("М")]
    st.stack = [(F_TURN_END,), STOP, (F_TIMELINE_PHASE,)]
    flow.settle(st)
    assert names_of(st) == ["!A10", "!chest:М"]
    play(st, "!chest:М", "yes")  # P13 created in space 4, its starting space
    assert layout(st) == {4: ["TIME", "P13"]}
    play(st, "yes")  # P13: discard A10 from the board
    assert st.pending() == STOP
    assert codes(st, st.discard) == ["A10"] and st.tokens[idx(st, "P13")] == 10
    assert st.hand == []  # A10 left the board before its turn: no draw
