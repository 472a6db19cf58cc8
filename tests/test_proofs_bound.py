"""The simple bound's facts of time and counts (`solver.bounds.simple` and its counting helper
`solver.bounds.reachable`), tests that mutation runs of them found missing: how many decline
phases are still to come at each phase of the turns before the last, what one run of an effect
and a Timeline effect over the phases to come can bring, and positions where a count the bound
takes was once mistaken and the bound fell below the exact optimum (each found by comparing
every mutant's bound with the optimum of a plain complete search on ~2,000 end-game
positions)."""

from __future__ import annotations

from typing import Any

from solver.bounds.activators import step_gains
from solver.bounds.poolfacts import pool_facts
from solver.bounds.reachable import reach
from solver.bounds.simple import decline_phases_left, last_decline_now, simple_upper_bound
from solver.engine import actions as A
from solver.engine.cards import ARTIFACT
from solver.engine.frames import (
    D_ACTION,
    D_CREATE_CARD,
    D_DISCARD_VAR,
    D_EXCAVATE,
    D_LEARN,
    F_DECLINE_PHASE,
    F_TECH_PHASE,
    F_TIMELINE_PHASE,
)
from solver.engine.state import GameState
from tests.builder import book, idx, names_of, play, position
from tests.test_endgame import plain_optimum


def _turn(turn: int, phase: str = "action", **zones: Any) -> GameState:
    """A position of `turn` of a 16-turn game (the time card started in space 4: RULES.md section
    4, D8) at `phase`, the time card where it is at that turn (space 2 on turn 15, 3 on 14)."""
    space, visits = {1: (4, 0), 14: (3, 2), 15: (2, 2), 16: (1, 2)}[turn]
    return position(time_space=space, time_visits=visits, turn=turn, phase=phase, **zones)


def test_decline_phases_left_counts_this_turns_until_it_is_over() -> None:
    """Each turn but the last ends with a decline phase that moves monuments to the Past; the last
    turn's ends the game at once (D8). So turn 1 has 15 to come, turn 14's action phase has 2 (its
    own and turn 15's); turn 15 has 1 until its decline phase is over: at its actions, at its
    Timeline phase (the order of two Timeline effects to choose: the decline phase is still queued)
    and during it (the order of two declining monuments, RULES.md section 4C); the last turn has
    none. `last_decline_now`: the one left is this turn's."""
    cases = {
        "turn 1, actions": _turn(1, hand=["C1"]),
        "turn 14, actions": _turn(14, hand=["C1"]),
        "turn 15, actions": _turn(15, hand=["C1"]),
        "turn 15, Timeline phase": _turn(15, "timeline", timeline={2: ["C3", "P31"],
                                                                   3: ["C4", "C9"]}),
        "turn 15, decline phase": _turn(15, "decline", timeline={1: ["M1", "P5"], 3: ["C3"]}),
        "turn 16, actions": _turn(16, hand=["C1"]),
    }
    assert names_of(cases["turn 15, Timeline phase"]) == ["!P31", "!C9"]
    declining = cases["turn 15, decline phase"]
    assert declining.in_decline and sorted(names_of(declining)) == ["!M1", "!P5"]
    assert {name: decline_phases_left(st) for name, st in cases.items()} == {
        "turn 1, actions": 15, "turn 14, actions": 2, "turn 15, actions": 1,
        "turn 15, Timeline phase": 1, "turn 15, decline phase": 1, "turn 16, actions": 0}
    assert {name: last_decline_now(st) for name, st in cases.items()} == {
        "turn 1, actions": False, "turn 14, actions": False, "turn 15, actions": True,
        "turn 15, Timeline phase": True, "turn 15, decline phase": True, "turn 16, actions": False}


def test_the_last_turns_splits_refine_the_bound_never_raise_it() -> None:
    """The last turn, its one action a Learn from the tiles under way (The Number Pi, Sator
    Square, Ancient Greek or Nicolas Flammel, who removes the one lost knowledge: D22, score
    row 5), Sumerian Tablets drawing a card per Learn: the optimum is the score plus that
    removal. The bound counted with each split of the actions left and the cards it alone can
    bring into play (`solver.bounds.splitplay`) and the bound without it are both admissible,
    so the bound is the smaller: here the optimum itself (the split count alone said 1 more)."""
    st = position(hand=[], timeline={3: ["M27"]}, tokens={"M27": 2}, lost=1,
                  artifacts=["A3", "A20", "A6"], past=["C34", "M32"],
                  techs=["T6", "T10", "T12", "T13", "T14", "T17", "T19", "T26"],
                  tiles=["T22", "T5", "T11", None, "T18", "T16", "T32", "T30", "T36"],
                  time_space=1, time_visits=2, turn=16,
                  deck_top=["C13", "A4", "C27", "A17", "M3", "C20"],
                  pending=[(F_TECH_PHASE,), (F_DECLINE_PHASE,), (F_TIMELINE_PHASE,),
                           (D_LEARN, False, False, 1)])
    assert names_of(st) == ["T5", "T11", "T16", "T22"]
    complete, best = plain_optimum(st)
    assert complete and best == st.score().total + 1
    assert simple_upper_bound(st, pool_facts(st)) == best


def test_a_split_of_the_last_actions_is_left_out_only_when_another_covers_it() -> None:
    """The last turn, two action choices left (RULES.md section 5), lost knowledge 5, the tiles
    holding Arabic Numerals (a removal of 3: D22), Meidum Pyramid and the Voynich Manuscript in
    hand: the bound takes the largest over the splits of the actions into Creates, Learns and
    others, and leaves a split out only when another has at least as many Creates, Learns and
    removals and the same technologies. Comparing one split's removals with another's
    technology count instead dropped the split the optimum follows and put the bound 1 below it
    (a random game's position, found by the mutation run)."""
    st = position(hand=["P3", "A19"], timeline={1: ["TIME", "C16"]}, tokens={"C16": 2},
                  past=["M21", "P21"], rotated=2, lost=5,
                  techs=["T9", "T10", "T12", "T16", "T20"],
                  tiles=["T3", "T2", "T22", "T1", "T19", "T23", "T32", "T39", "T44"],
                  deck_top=["A13", "A35", "M6", "C17", "A16", "P32", "M30", "P13"],
                  discard=["C11", "P10", "P14", "A24", "M22", "M15", "C36", "C20", "P36", "P1",
                           "P8", "P29", "A11", "C33", "M5", "M34"],
                  time_space=1, time_visits=2, turn=16)
    assert names_of(st) == ["create", "learn", "archive", "search"]
    complete, best = plain_optimum(st)
    assert complete and best is not None
    assert simple_upper_bound(st, pool_facts(st)) >= best


def test_an_at_most_requirement_is_met_after_the_removals_still_reachable() -> None:
    """The last turn, two Learns (RULES.md section 5) and 5 lost knowledge: Mercury removes 2
    (D22), after which Alchemy's requirement (7 monuments in the Past and at most 3 lost
    knowledge) is met and its 4 VP count. Lost knowledge ends at least at its value now less the
    removals still reachable, so that floor (5 - 2 = 3) decides Alchemy's "at most" clause; a
    floor of the value plus the removals left Alchemy out and put the bound 4 below the
    optimum."""
    st = position(hand=[], past=["C4", "C5", "C6", "C7", "C8", "C9", "C10"], lost=5,
                  tiles=["T9", "T2", "T6", None, None, None, "T37", "T30", None],
                  time_space=1, time_visits=2, turn=16, deck_top=["C11", "C12"],
                  pending=[(F_TECH_PHASE,), (F_DECLINE_PHASE,), (F_TIMELINE_PHASE,),
                           (D_LEARN, False, False, 2)])
    assert names_of(st) == ["T6", "T9"]
    complete, best = plain_optimum(st)
    assert complete and best == st.score().total + 2 + 4
    assert simple_upper_bound(st, pool_facts(st)) >= best


def test_a_card_in_hand_that_buries_technologies_opens_the_level_ii_deck() -> None:
    """The last turn, two actions: Candi Kethek (in hand, cost 0) buries 2 available
    technologies when created (RULES.md section 5); burying two of the Level II tile's three
    leaves one, so the tile is discarded and refilled from the Level II deck (section 4D), whose
    top is Hieroglyphs (4 VP; 5 megaliths in the Past: met), which the second action learns.
    In the last turn only the technologies on the tiles, or turned up by the refills still to
    come, can enter the collection (`solver.bounds.techrow.last_turn_techs`): a builder card that
    may enter play counts its burials. Told no builder card may, the bound left Hieroglyphs out
    and fell 4 below the optimum."""
    st = position(hand=["P35"], past=["M2", "M3", "M4", "M5", "M6"], rotated=5,
                  tiles=["T1", "T2", "T3", "T7", "T8", "T10", "T30", "T34", "T38"],
                  time_space=1, time_visits=2, turn=16, deck_top=["C11", "C12"])
    level_ii = st.tech_decks[1]
    hieroglyphs = idx(st, "T45")
    level_ii.remove(hieroglyphs)
    level_ii.append(hieroglyphs)  # the top of the deck is the end of the list
    assert names_of(st) == ["create", "learn", "archive", "search"]
    complete, best = plain_optimum(st)
    assert complete and best == st.score().total + 1 + 4  # P35 in the Timeline, Hieroglyphs
    assert simple_upper_bound(st, pool_facts(st)) >= best


def test_every_monument_in_the_timeline_counts_the_first_card_too() -> None:
    """The Timeline row (RULES.md section 7, row 4: 1 VP per monument in the Timeline) counts
    every monument in it, Osirion too, the book's card 0: left out, the bound fell 1 below the
    optimum (two monuments in the Timeline, two actions left)."""
    st = position(hand=[], timeline={2: ["C1"], 3: ["C3"]}, time_space=1, time_visits=2,
                  turn=16, deck_top=["C11", "C12"])
    assert idx(st, "C1") == 0
    complete, best = plain_optimum(st)
    assert complete and best is not None and best >= st.score().total
    assert simple_upper_bound(st, pool_facts(st)) >= best


def test_removals_by_cards_and_by_technologies_share_the_lost_knowledge() -> None:
    """The last turn, two Learns (requirements ignored), 10 lost knowledge, Ishibutai Kofun in
    the Timeline (its Timeline effect discards 1 lost knowledge while there are 5 or more) and
    removals among the technologies (Mercury 2, Arabic Numerals 3; D22) beside VP (Phoenician
    Alphabet and Hieroglyphs 4, Thoth 2): each technology is rated at its VP plus its removal,
    and the lost knowledge left by every other removal is the lost knowledge now less the
    card's removal. Counted as the lost knowledge now plus it, the bound fell 2 below the
    optimum (which it meets here)."""
    st = position(hand=[], timeline={4: ["M29"]}, past=["C4"], lost=10,
                  tiles=["T9", "T23", None, None, None, None, "T44", "T30", "T45"],
                  time_space=1, time_visits=2, turn=16, deck_top=["C6", "C7"],
                  pending=[(F_TECH_PHASE,), (F_DECLINE_PHASE,), (F_TIMELINE_PHASE,),
                           (D_LEARN, False, True, 2)])
    assert names_of(st) == ["T9", "T23", "T30", "T44", "T45"]
    complete, best = plain_optimum(st)
    assert complete and best is not None
    assert simple_upper_bound(st, pool_facts(st)) == best


def test_an_excavate_under_way_counts_for_its_triggers() -> None:
    """The last turn, an Excavate under way (how many Past monuments to rotate, one already
    rotated) with Kensington Runestone in play: with exactly 2 rotated it may remove up to 6
    lost knowledge instead of the draw (A25). The Excavate on the stack counts as one more for
    the "each time you EXCAVATE" gains, however many Excavate actions are left (none here)."""
    st = position(past=["C5", "C7", "M30"], rotated=1, artifacts=["A25", "A13"], lost=8,
                  techs=["T6", "T9", "T10", "T11", "T12", "T13", "T17", "T21", "T22", "T26",
                         "T42"],
                  tiles=[None, "T19", "T4", "T5", "T7", "T25", None, "T44", "T45"],
                  deck_top=["M10", "C14", "P14", "A31", "P4", "P11", "M2", "M5", "P6", "A16",
                            "P22", "M12", "P13", "A23", "M9", "A2"],
                  discard=["P18", "A8", "M18", "A4", "P31", "C28", "C3", "P10", "A20", "C35",
                           "M11", "M35", "M20", "P15", "A7", "A14", "A28", "A34", "P17", "C6",
                           "P7", "M4"],
                  time_space=1, time_visits=2, turn=16,
                  pending=[(F_TECH_PHASE,), (F_DECLINE_PHASE,), (F_TIMELINE_PHASE,),
                           (D_ACTION, 1), (D_EXCAVATE,)])
    complete, best = plain_optimum(st)
    assert complete and best is not None and best > st.score().total
    assert simple_upper_bound(st, pool_facts(st)) >= best


def test_a_create_of_an_artifact_under_way_sets_off_its_triggers() -> None:
    """The last turn, no action left, Diquís Stone Spheres just created and its Create of an
    artifact from the hand under way (the card still to choose): Borobudur Temple in play learns
    on each Create of an artifact, here Golden Mean (3 cities in the Past: 2 VP). The Create on
    the stack counts as a Create of an artifact, not of a monument."""
    st = position(hand=["A22", "A23"], timeline={2: ["M16"], 3: ["P20"]},
                  past=["C1", "C2", "C3"], tiles=[None] * 6 + ["T34", None, None],
                  time_space=1, time_visits=2, turn=16, deck_top=["C16", "C17"],
                  pending=[(F_TECH_PHASE,), (F_DECLINE_PHASE,), (F_TIMELINE_PHASE,),
                           (D_CREATE_CARD, ARTIFACT, None, True, idx(book(), "M16"), ())])
    complete, best = plain_optimum(st)
    assert complete and best == st.score().total + 2
    assert simple_upper_bound(st, pool_facts(st)) >= best


def test_an_effects_create_of_an_artifact_counts_as_one() -> None:
    """The last action creates Diquís Stone Spheres (chosen, its space and cost still to
    choose): its immediate effect may create an artifact from the hand, on which Borobudur
    Temple learns Golden Mean (2 VP). An effect's Create of an artifact counts as a Create of
    an artifact (not of a monument), at each step until the card is placed."""
    st = position(hand=["M16", "A22", "A23"], timeline={3: ["P20"]}, past=["C1", "C2", "C3"],
                  tiles=[None] * 6 + ["T34", None, None], time_space=1, time_visits=2, turn=16,
                  deck_top=["C16", "C17"],
                  pending=[(F_TECH_PHASE,), (F_DECLINE_PHASE,), (F_TIMELINE_PHASE,),
                           (D_ACTION, 1)])
    st.apply(A.code(A.ACT, A.CREATE))
    st.apply(A.code(A.CARD, idx(st, "M16")))
    for _ in range(2):  # the space, then the cost
        complete, best = plain_optimum(st)
        assert complete and best == 7
        assert simple_upper_bound(st, pool_facts(st)) >= best
        st.apply(st.legal_actions()[0])


def test_a_timeline_effect_counts_once_per_timeline_phase_to_come() -> None:
    """Disk of Sabu in play removes 1 lost knowledge each Timeline phase (A1, 4 megaliths in
    the Past): counted alone (`solver.bounds.reachable.reach` over its effect only), the
    removals still reachable are one per Timeline phase still to come: 3 at turn 14's actions,
    2 at turn 15's, 1 at the last turn's (its Timeline phase runs before the game ends, D8)."""
    for turn, removals in ((14, 3), (15, 2), (16, 1)):
        st = position(timeline={4: ["C3"]}, artifacts=["A1"], past=["M1", "M2", "M3", "M4"],
                      lost=6, time_space=17 - turn, time_visits=2, turn=turn)
        sabu = tuple(a for a in pool_facts(st).activators if a.card == idx(st, "A1"))
        assert reach(st, sabu, decline_phases_left(st), ()).lost_removed == removals, turn


def test_the_gains_of_one_run_of_an_effect_by_kind() -> None:
    """What one run of an effect can bring (`solver.bounds.activators.step_gains`: Creates that
    may be of a monument, Creates that may be of an artifact, Learns, lost knowledge removed):
    Menhirs of Monteneuf creates a monument, Diquís Stone Spheres an artifact from the hand,
    Ancient Greek an artifact from the cards it sets aside, Teotihuacan learns up to two,
    Dolmen of Gochang removes 7 lost knowledge, Mercury 2."""
    cards = book()
    expected = {"M11": (1, 0, 0, 0), "M16": (0, 1, 0, 0), "T22": (0, 1, 0, 0),
                "P10": (0, 0, 2, 0), "M8": (0, 0, 0, 7), "T9": (0, 0, 0, 2)}
    for code, gains in expected.items():
        (effect,) = [e for e in cards[idx(cards, code)].effects if e.steps]
        assert step_gains(effect.steps) == gains, code


def test_the_rest_of_an_effect_waiting_for_its_payment_counts() -> None:
    """Earthquake Engineering (T17), learned with one action left in the last turn: "discard up
    to 3 cards, then draw as many" waits in its payment (``D_DISCARD_VAR``), the draw inside
    it. Discarding one draws Tikal Temple I (P14, the deck's top), whose Create brings a Learn
    of Maya Script (T43, 2 VP, 11 cards in the Past): the bound must see the draw (it took
    no card from the deck and left P14 out, 21 against 22). Found by a hunt for work on the
    stack that the counts leave out, after Poulnabrone Dolmen's queued Create."""
    tiles: list[str | None] = ["T17", "T9", None, None, None, None, "T43", "T44", None]
    st = position(hand=["C1", "C3", "C4"], timeline={1: ["TIME"], 2: ["C5"]},
                  past=["C2", "C11", "C35", "M11", "M17", "M19", "M20", "M22", "P10", "P17", "P8"],
                  deck_top=["P14", "C6", "C7"], lost=3, turn=16, time_visits=2, tiles=tiles,
                  pending=[(F_TECH_PHASE,), (F_DECLINE_PHASE,), (F_TIMELINE_PHASE,),
                           (D_ACTION, 1), (D_ACTION, 0)])
    play(st, "learn", "T17")
    assert st.stack[-1][0] == D_DISCARD_VAR
    for pos in (st, play(st.clone(), "C1")):  # before and after one card paid
        complete, best = plain_optimum(pos)
        assert complete and best == 22.0
        assert simple_upper_bound(pos, pool_facts(pos)) >= best
