"""When Learn triggers are collected, what "add it to your collection" is, and when revealed
cards reach the discard pile: three rules found by review (issue 12).

* Learn triggers (RULES.md section 5; clarifications "Ordering": the technology's effect first,
  then the Learn triggers): the cards that react are those in play when the technology enters
  the collection. An artifact that T22 Ancient Greek creates during its own effect was not in
  play then, so it does not react to the Learn of T22 - whatever granted that Learn (the Learn
  action, P20 Borobudur, A12 Pachamama, A33 Michaux, A16 Crystal Skull, M34 Montguyon).
* Abu Simbel (RULES.md section 12): "add it to your collection" is not a Learn: no Learn
  trigger reacts, and Candi Sukuh (D19, "at each Learn") does not lower the requirement.
* Revealed cards (clarifications "Reshuffle", P33, T22): a card set aside and not kept goes to
  the discard pile as soon as it is set aside, so a reshuffle later in the same effect (the
  deck running out) shuffles it in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from solver.engine import flow
from solver.engine.cards import KIND_NAMES
from solver.engine.frames import D_ACTION, F_DECLINE_PHASE, F_TIMELINE_PHASE
from solver.engine.state import GameState
from solver.rng import shuffled
from tests.builder import STOP, codes, hand, idx, names_of, play, position

FILLERS = ["T9", "T26"]  # no requirement, no effect on the zones checked here
TILES_T22 = ["T9", "T26", None, "T22", None, None, None, None, None]
TEN = ["C20", "C21", "C22", "C23", "C24", "C25", "C26", "C27", "C28"]  # nine cities: no artifact
HERITAGE = ("base", "heritage")


def board(st: GameState) -> list[str]:
    return codes(st, st.board_artifacts())


def greek_top(artifact: str) -> list[str]:
    """Eleven deck cards, top first: T22 sets the first ten aside, `artifact` among them (the
    only one it can create), and the eleventh (C30) is the next card drawn."""
    return ["C20", "C21", artifact, *TEN[2:], "C30"]


def run_phase(frame: tuple[Any, ...], prepare: Callable[[GameState], None] | None = None,
              **kw: Any) -> GameState:
    """Run only `frame` (a phase) of the position, then stop at STOP; `prepare` may change the
    state before the phase starts."""
    st = position(pending=[STOP], **kw)
    if prepare is not None:
        prepare(st)
    st.stack.append(frame)
    flow.settle(st)
    return st


def only_the_top(n: int) -> Callable[[GameState], None]:
    """Keep only the top `n` cards in the deck: the other builder cards are out of the game."""
    def prepare(st: GameState) -> None:
        st.deck = st.deck[-n:]
    return prepare


# ----------------------------------------------------------------- T22 and its own Learn

@pytest.mark.parametrize("artifact", ["A17", "A20"])
def test_t22_artifact_created_by_its_effect_does_not_draw_for_the_learn(artifact: str) -> None:
    """A17 Glozel (each writing Learn: draw 2) and A20 Sumerian Tablets (each Learn: draw 1)
    created by T22 were not in play when T22 (writing) was learned: they draw nothing."""
    st = position(tiles=TILES_T22, deck_top=greek_top(artifact))
    play(st, "learn", "T22")
    assert board(st) == [artifact]
    assert hand(st) == []
    assert st.stack[-1][0] == D_ACTION


def test_t22_nimrud_lens_created_by_its_effect_offers_no_removal() -> None:
    """A30 Nimrud Lens (each Learn: you may remove 1 knowledge) created by T22 does not react
    to the Learn of T22: no removal is offered; the next decision is the second action."""
    st = position(hand=["C10"], timeline={2: ["C1"]}, tokens={"C1": 3}, tiles=TILES_T22,
                  deck_top=greek_top("A30"))
    play(st, "learn", "T22")  # A30 alone can be created; its cost 1 is C10
    assert board(st) == ["A30"]
    assert st.tokens[idx(st, "C1")] == 3
    assert st.stack[-1][0] == D_ACTION
    assert "@C1" not in names_of(st)


def test_t22_learn_triggers_in_play_resolve_after_its_effect() -> None:
    """A20 on the board when T22 is learned reacts, after T22's effect: it draws the card under
    the ten set aside (C30); the A17 that T22 creates draws nothing."""
    st = position(artifacts=["A20"], tiles=TILES_T22, deck_top=greek_top("A17"))
    play(st, "learn", "T22")
    assert board(st) == ["A20", "A17"]
    assert hand(st) == ["C30"]


# ----------------------------------------------------------------- the same through granted Learns

def _through_p20() -> GameState:
    """P20 Borobudur: creating A1 grants a Learn; T22 is chosen; the A20 it creates is an
    artifact Create too, so P20 offers its Learn again: declined."""
    st = position(hand=["A1"], timeline={3: ["P20"]}, tiles=TILES_T22,
                  deck_top=greek_top("A20"))
    play(st, "create", "T22", "no")  # A1 is the only card: created at once
    return st


def _through_a12() -> GameState:
    """A12 Pachamama (Timeline phase, 5 pyramids in the Past): the optional Learn."""
    st = run_phase((F_TIMELINE_PHASE,), artifacts=["A12"], past=["P1", "P2", "P3", "P4", "P5"],
                   tiles=TILES_T22, deck_top=greek_top("A20"))
    play(st, "T22")
    return st


def _through_a33() -> GameState:
    """A33 Michaux (Timeline phase, 17 lost knowledge): the optional Learn."""
    st = run_phase((F_TIMELINE_PHASE,), artifacts=["A33"], lost=17, tiles=TILES_T22,
                   deck_top=greek_top("A20"))
    play(st, "T22")
    return st


def _through_a16() -> GameState:
    """A16 Crystal Skull: an Excavate of 3 draws 6, then the mandatory Learn (T22)."""
    draw6 = ["C1", "C2", "C3", "C4", "C5", "C6"]
    st = position(pending=[STOP, (D_ACTION, 0)], artifacts=["A16"], past=["M1", "M2", "M3"],
                  tiles=TILES_T22, deck_top=[*draw6, *greek_top("A20")])
    play(st, "excavate", "#3", "T22")
    return st


def _through_m34() -> GameState:
    """M34 Montguyon (decline): the optional Learn ignoring requirements."""
    st = run_phase((F_DECLINE_PHASE,), timeline={1: ["M34"]}, tiles=TILES_T22,
                   deck_top=greek_top("A20"))
    play(st, "T22")
    return st


GRANTED: dict[str, tuple[Callable[[], GameState], list[str], list[str]]] = {
    # source: (the position after T22 is learned through it, board, hand)
    "P20": (_through_p20, ["A1", "A20"], []),
    "A12": (_through_a12, ["A12", "A20"], []),
    "A33": (_through_a33, ["A33", "A20"], []),
    "A16": (_through_a16, ["A16", "A20"], ["C1", "C2", "C3", "C4", "C5", "C6"]),
    "M34": (_through_m34, ["A20"], []),
}


@pytest.mark.parametrize("source", list(GRANTED))
def test_t22_through_a_granted_learn_created_artifact_does_not_react(source: str) -> None:
    """T22 learned through a granted Learn: the A20 it creates draws nothing for that Learn."""
    make, want_board, want_hand = GRANTED[source]
    st = make()
    assert "T22" in codes(st, st.techs)
    assert board(st) == want_board
    assert hand(st) == want_hand


# ----------------------------------------------------------------- Abu Simbel's technology

def _holding(techs: list[str], **kw: Any) -> GameState:
    tiles = ["T1", "T2", "T3", "T4", "T5", "T6", "HT1", "T28", "T29"]
    st = position(hand=["H1", "C1", "C2", "C3", "C4"], tiles=tiles, techs=techs, names=HERITAGE,
                  **kw)
    play(st, "create", "H1", "s1", "HT1")
    return st


FIVE_WRITING = ["T19", "T20", "T21", "T22", "T23"]


def _decline(st: GameState) -> GameState:
    """Take Search as the second action: the turn's phases run (Abu Simbel declines) up to
    the first action of the next turn."""
    turn = st.turn
    play(st, "search")
    assert st.turn == turn + 1 and st.stack[-1][0] == D_ACTION
    return st


def test_abu_simbel_adds_its_technology_without_learn_triggers() -> None:
    """A20 (each Learn: draw 1) and A17 (each writing Learn: draw 2) on the board: South
    Arabian Writing (writing) joins the collection at Abu Simbel's decline, which is not a
    Learn, so neither draws."""
    st = _holding(FIVE_WRITING, artifacts=["A20", "A17"])
    before = len(st.hand)
    st = _decline(st)
    assert "HT1" in codes(st, st.techs)
    assert len(st.hand) == before + 1  # the Search only


def test_abu_simbel_requirement_is_not_lowered_by_candi_sukuh() -> None:
    """Four writing technologies and Candi Sukuh (P19) in the Timeline: at a Learn D19 would
    lower the 5 to 4, but adding Abu Simbel's technology is not a Learn: it is discarded."""
    st = _holding(FIVE_WRITING[:4] + ["T10"], timeline={4: ["P19"]})
    st = _decline(st)
    assert "HT1" not in codes(st, st.techs)
    assert "HT1" in codes(st, st.tech_discards[1])


# ----------------------------------------------------------------- revealed cards and the reshuffle

def test_t22_set_aside_cards_are_in_the_reshuffle_of_a_draw_during_its_effect() -> None:
    """The deck holds exactly T22's ten cards (A5 among them, created at once, cost 0) and the
    discard pile is empty. M26 Chabola reacts to the artifact Create: remove 1, then draw 1 -
    the deck is empty, so the discard pile is shuffled: the nine cards T22 set aside are already
    in it (discarded as soon as set aside), so one of them is drawn."""
    ten = ["C20", "C21", "A5", *TEN[2:]]
    st = position(timeline={2: ["M26"]}, tokens={"M26": 2}, tiles=TILES_T22, deck_top=ten)
    st.deck = st.deck[-10:]  # only the ten: the rest of the builder cards are out of this game
    play(st, "learn", "T22")
    assert board(st) == ["A5"]
    assert st.tokens[idx(st, "M26")] == 1
    assert len(st.hand) == 1 and codes(st, st.hand)[0] in ten
    assert st.reshuffles[0] == 1
    assert sorted(codes(st, st.deck + st.discard)) == sorted(c for c in ten if c != "A5"
                                                             and c not in codes(st, st.hand))


def test_p33_calakmul_revealed_cards_are_in_a_reshuffle_during_its_effect() -> None:
    """P33 Calakmul declines with two non-cities (M10, P1) left in the deck and two cities among
    the discard pile: M10 and P1 are discarded as they are turned up, so the reshuffle when the
    deck runs out shuffles them in with the discard pile; turning up then goes on until the
    second city. The deck afterwards is what is left of that reshuffle."""
    discard = ["C2", "M11", "C3", "M12", "P2", "P3"]
    st = run_phase((F_DECLINE_PHASE,), only_the_top(2), timeline={1: ["P33"]},
                   deck_top=["M10", "P1"], discard=discard)
    reshuffled = shuffled(0, "builder-reshuffle", 0,
                          sorted(idx(st, c) for c in [*discard, "M10", "P1"]))
    deck = list(reshuffled)
    turned: list[int] = []
    cities = 0
    city = KIND_NAMES.index("city")
    while cities < 2:
        c = deck.pop()
        if st.card(c).kind == city:
            cities += 1
        else:
            turned.append(c)
    assert hand(st) == ["C2", "C3"]
    assert st.deck == deck
    assert sorted(st.discard) == sorted(turned)
