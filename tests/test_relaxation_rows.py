"""Rows of the relaxation that bind at the model's optimum, on small positions.

Each position was found by session 55's differential search (built positions with one or two
turns left, the model solved to optimality with and without one row; the first position where
the row lowered the optimum, shrunk by removing cards while it still did), or built by hand for
a row added later, and is checked against the exact search. Where the model is not exact at
the position, the test asserts the exact optimum <= the bound <= the model's optimum with the
row: a change that loosens the row fails, one that tightens the model elsewhere passes.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

import solver.bounds.cpsat.relaxation as relaxation
from benchmarks.prove_from import given_lines
from solver.bounds.cpsat.relaxation import RelaxConfig, relax
from solver.bounds.cpsat.schedule import phase_of
from solver.engine.state import GameState
from tests.builder import position
from tests.test_relaxation import exact

LINES = Path(__file__).resolve().parent.parent / "benchmarks" / "lines" / "session8-t60.jsonl"

DEFAULT = RelaxConfig(max_deterministic_time=1.0)
TIMED = RelaxConfig(max_deterministic_time=1.0, timed=True)


def _bound(st: GameState, config: RelaxConfig) -> int:
    """The model's proven optimum at `st` (asserted optimal)."""
    phase = phase_of(st)
    assert phase is not None
    r = relax(st, phase, config)
    assert r.optimal and r.bound is not None
    return r.bound


def test_poulnabrone_needs_eleven_in_the_past_for_a_granted_create_too() -> None:
    """The last turn, an empty Past, and in hand Dolmen of Menga (M18: on creation, create one
    more monument), Poulnabrone Dolmen (M36: with 11 or more cards in the Past, one more Create
    per monument created), Llaqtapata (C25), Osirion (C1) and Olmec Heads (A23: a card per
    megalith created). The best line scores 3, and so does the model
    (`timing.poulnabrone_turns`: Poulnabrone's extra Creates from granted Creates only once 11
    are in the Past; without that clause it said 4)."""
    st = position(hand=["M18", "M36", "C25", "C1", "A23"], tiles=[None] * 9, time_space=1,
                  time_visits=2, turn=16)
    assert exact(st) == (True, 3.0)
    assert _bound(st, DEFAULT) == 3


def test_a_vanishing_city_reaches_the_past_only_without_knowledge() -> None:
    """Turn 15, an empty board, and in hand Karnak Temple (C27: 8 knowledge; at its decline
    it is discarded if it still holds any, RULES.md section 5), Inwa (C33, 6 knowledge) and
    Ollantaytambo (C6: Timeline phase, each adjacent city loses 1). The best line scores 3;
    the model 8, because a vanishing card reaches the Past only with all its knowledge
    removed (`knowledge.lose_knowledge`'s `need`; without it the model said 10)."""
    st = position(hand=["C27", "C33", "C6"], tiles=[None] * 9, time_space=2, time_visits=2,
                  turn=15)
    assert exact(st) == (True, 3.0)
    assert 3 <= _bound(st, DEFAULT) <= 8


def test_distance_costs_are_paid_by_the_decline() -> None:
    """Turn 15, Llaqtapata (C25) in hand, Mohenjo-daro (C8, 2 knowledge) in space 4 and five
    monuments in the Past, one straight: the best line scores 7. The model's line creates two
    monuments with two Create actions and declines one in turn 15. The model says 12 with or
    without creation times: the cards used by the end of a turn cover the distance part of the
    discard costs of the new monuments declining by then (RULES.md section 5: paid at the
    Create, which comes before the decline; `cardflow.hold_cards`, `fates.declines_by_slot`).
    Without that row it said 14 untimed, and 12 only with creation times and the hand by
    turn (`handtime.balance_hand`)."""
    st = position(hand=["C25"], timeline={4: ["C8"]}, tokens={"C8": 2},
                  past=["C14", "P12", "C13", "P9", "P26"], rotated=4, tiles=[None] * 9,
                  time_space=2, time_visits=2, turn=15)
    assert exact(st) == (True, 7.0)
    assert 7 <= _bound(st, DEFAULT) <= 12
    assert 7 <= _bound(st, replace(TIMED, hand_by_turn=False)) <= 12


def test_every_created_monument_has_a_creation_turn() -> None:
    """Turn 15, an empty board, and in hand Pyramids of Xi'an (P23: on creation it trades
    places with another monument), Pyramid of the Niches (P7) and Luxor Temple (C7). The best
    line scores 3; the model 7 untimed and 4 with creation times, because each monument it
    creates is created in one turn (`creation.creation_times`: its turn Booleans sum to its
    creation; without that, a created monument escaped every per-turn row and the model said
    7)."""
    st = position(hand=["P23", "P7", "C7"], tiles=[None] * 9, time_space=2, time_visits=2,
                  turn=15)
    assert exact(st, 50_000) == (True, 3.0)  # about 40,000 nodes
    assert 3 <= _bound(st, TIMED) <= 4 < _bound(st, DEFAULT)


def test_a_card_from_the_deck_is_created_only_once_drawn() -> None:
    """Turn 15, Babylon (C28) in hand, Merchants' Table (M33: 1 VP more per monument left in
    the Timeline) in space 1 with 2 knowledge, and Luxor Temple (C7) then Easter Island (C24)
    on the deck. The best line scores 3; the model 5 untimed and 4 with creation times,
    because a card at depth p is created in a turn only once p + 1 cards have left the deck by
    its end (`creation.arrive_in_time`, RULES.md section 5: cards are drawn from the top;
    without it the model created Easter Island in turn 15 and said 5)."""
    st = position(hand=["C28"], timeline={1: ["M33"]}, tokens={"M33": 2},
                  deck_top=["C7", "C24"], tiles=[None] * 9, time_space=2, time_visits=2,
                  turn=15)
    assert exact(st) == (True, 3.0)
    assert 3 <= _bound(st, TIMED) <= 4 < _bound(st, DEFAULT)


def test_an_artifact_deep_in_the_deck_needs_the_deck_dug_that_far() -> None:
    """Turn 15, an empty hand and Past, Tulum (C35, 1 knowledge) in space 2, and
    Mohenjo-daro, Aramu Muru, Machu Picchu then Piri Reis Map (A13) on the deck. The best line
    scores 2; the model 5, because an artifact four cards deep is created only once four
    cards have left the deck (`cardflow.dig_for_cards`; without that row the model created
    it and Machu Picchu beside it and said 6)."""
    st = position(timeline={2: ["C35"]}, tokens={"C35": 1},
                  deck_top=["C8", "M9", "C26", "A13"], tiles=[None] * 9, time_space=2,
                  time_visits=2, turn=15)
    assert exact(st) == (True, 2.0)
    assert 2 <= _bound(st, DEFAULT) <= 5


def test_a_full_hand_draws_nothing_whatever_the_deck_holds() -> None:
    """The last turn, 10 artifacts in hand, the five artifact spaces full, two straight
    monuments in the Past, and Menhir of Kerloas (M14, locked in space 3, no discard cost)
    second on the deck under an artifact. An Excavate would draw 4 cards but the hand holds 10,
    so it draws none (D4), nor does a Search: no Create is possible, the score stays 1. With 8
    cards in hand, the Excavate draws M14 and a Create puts it in the Timeline: 2. The model
    says 1 at 10 cards because the cards a line uses are at most what can leave its hand
    (`cardflow.most_spent`: here M14 and its cost), so it draws at most one card into a full
    hand (without that cap the model said 2)."""
    board = ["A24", "A26", "A28", "A36", "A34"]
    hand = ["A1", "A4", "A6", "A9", "A11", "A13", "A30", "A16", "A25", "A33"]
    top = ["A35", "M14", "A5", "A7", "A8", "A10", "A14", "A17", "A18", "A19", "A20"]

    def holding(n: int) -> GameState:
        return position(hand=hand[:n], artifacts=board, past=["C14", "P12"],
                        tiles=[None] * 9, time_space=1, time_visits=2, turn=16, deck_top=top)

    full, roomy = holding(10), holding(8)
    assert exact(full) == (True, 1.0) and exact(roomy) == (True, 2.0)
    assert _bound(full, DEFAULT) == _bound(full, TIMED) == 1
    assert _bound(roomy, DEFAULT) == 2


def test_planetary_stone_removes_only_what_its_two_cards_pay_for() -> None:
    """Turn 15 at its Timeline phase, Mohenjo-daro (C8, 5 VP) in space 1 with 3 knowledge,
    Planetary Stone (A3: discard 2 cards, then remove up to 3 knowledge) on the board, and
    three monuments that cost nothing more to create in hand (M10, M25, M28). The best line
    pays two of them to A3, so C8 declines with no knowledge, and creates the third in turn
    16: 6 (without A3, 4). The model says 6 because A3's removals come only with its price,
    two cards out of the hand (`effects.paid_from_hand`; without it the model removed the 3
    for free and still created two monuments: 7)."""
    def holding(artifacts: list[str]) -> GameState:
        return position(hand=["M10", "M25", "M28"], timeline={1: ["C8"]}, tokens={"C8": 3},
                        artifacts=artifacts, tiles=[None] * 9, time_space=2, time_visits=2,
                        turn=15, phase="timeline", deck_top=["C3", "C4", "C5"])

    stone, bare = holding(["A3"]), holding([])
    assert exact(stone) == (True, 6.0) and exact(bare) == (True, 4.0)
    assert _bound(stone, DEFAULT) == _bound(stone, TIMED) == 6


def test_moai_statue_is_paid_with_artifact_cards_only() -> None:
    """Turn 15, Moai Statue (A7: discard 2 artifact cards, then draw 4) on the board, Göbekli
    Tepe (C3, discard cost 2) alone in hand and no artifact card among the deck's top 12. No
    artifact card can reach the hand, so A7 never fires: the best line Searches twice and
    creates C3 in turn 16, 1. The model says 1 because a price in cards of one type is paid
    only with cards of that type that can reach the hand (`deckorder.pay_in_kind`; without it
    the model drew A7's 2 net cards each Timeline phase and created two more monuments: 3).
    With two artifact cards in hand A7 fires in turn 15 and the line creates two monuments: 2,
    the model too."""
    top = ["C1", "C4", "C5", "M7", "P6", "P1", "C2", "M1", "M2", "M3", "M4", "M5"]

    def holding(hand: list[str]) -> GameState:
        return position(hand=hand, artifacts=["A7"], tiles=[None] * 9, time_space=2,
                        time_visits=2, turn=15, deck_top=top)

    bare, paying = holding(["C3"]), holding(["C3", "A1", "A4"])
    assert exact(bare) == (True, 1.0) and exact(paying) == (True, 2.0)
    assert _bound(bare, DEFAULT) == _bound(bare, TIMED) == 1
    assert _bound(paying, DEFAULT) == 2


def test_a_turns_actions_spend_no_card_its_timeline_phase_draws() -> None:
    """Turn 15 with an empty hand, two straight monuments in the Past (Ellora Caves C5, Abu
    Gorab C2), Moai Statue (A7) on the board, six artifacts then Heracleion and the Great
    Sphinx on the deck: the best line scores 1 (the exact search). Cards A7 draws in turn 15's
    Timeline phase can be spent by turn 16's actions only (RULES.md section 4: the actions,
    then the Timeline phase). The model counted every effect's
    draws from the start, so turn 15's actions spent A7's cards too: 8. Now a slot's actions
    spend only the effects' draws before its Timeline phase (`cardflow.draws_before_timeline`,
    written where no Create can happen in a Timeline or decline phase): 5, still above the
    optimum for other reasons."""
    st = position(past=["C5", "C2"], artifacts=["A7"], tiles=[None] * 9, time_space=2,
                  time_visits=2, turn=15, lost=3,
                  deck_top=["A13", "A9", "A28", "A4", "A1", "A11", "C16", "M25"])
    assert exact(st) == (True, 1.0)
    assert 1 <= _bound(st, DEFAULT) <= 5


def test_learns_draw_only_once_made(monkeypatch: pytest.MonkeyPatch) -> None:
    """The turn-15 start of session 8's t1-h3 line (Dogon Mythology, A18, and Voynich
    Manuscript, A19, on the board: 2 cards per Ancient / Secret technology learned; Michaux
    Stone, A33, learns once per Timeline phase; Menhirs of Monteneuf, M11, in space 1 creates
    a monument as it declines): the line scores 87, the solve proves 91 from there. The model
    said 98 paying turn 15's Creates with the cards turn 16's Learns draw; the cards used by
    the end of turn 15 now come only from the Learns made by then (`learndraws.draw_on_learns`,
    RULES.md section 5: the "each time you LEARN" effects apply with the Learn) and the
    distance costs of the monuments declining then (`cardflow.hold_cards`): 96. Each row alone
    leaves 98."""
    name, root, line = given_lines(LINES)[2]
    assert name == "t1-h3-s0"
    st = root.clone()
    for a in line:
        if st.turn == 15:
            break
        st.apply(a)
    phase = phase_of(st)
    assert phase is not None
    cfg = RelaxConfig(max_deterministic_time=10.0)
    r = relax(st, phase, cfg)
    assert r.optimal and r.bound is not None and 87 <= r.bound <= 96
    monkeypatch.setattr(relaxation, "draw_on_learns", lambda *args: None)
    r = relax(st, phase, cfg)
    assert r.optimal and r.bound == 98
