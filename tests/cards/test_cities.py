"""Every city card (C1-C36): its effect, exact, through the engine.

Each test builds a position with `tests.builder.position`, reaches the card's activation moment
the way the game does (Create for immediate effects, the Timeline phase, the decline phase, a
Learn for triggers, final scoring for end-game effects) and asserts the exact outcome.

Rules cited: RULES.md (sections and decisions D1-D22), card-clarifications.md ("Cities"), and
the card facts of reference/base-cards.json.

To see the state right after the part under test, the position puts a waiting decision
(`STOP`) under it: the engine stops there instead of running on into the next phase or turn
(where, for example, an action decision with the single option "search" would be taken
automatically and draw a card).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from solver.engine.frames import D_ACTION, F_DECLINE_PHASE, F_TECH_PHASE, F_TIMELINE_PHASE
from solver.engine.state import GameState
from tests.builder import STOP, at_stop, codes, idx, layout, names_of, play, position, tok

REFERENCE = Path("/work/shared/reference/base-cards.json")
BASE = Path(__file__).resolve().parents[2] / "puzzles" / "data" / "cards" / "base.json"

CITIES = [f"C{n}" for n in range(1, 37)]


# ------------------------------------------------------------------ helpers

def one_action(**kw: Any) -> GameState:
    """A position at an action choice; the engine stops after that one action."""
    return position(pending=[STOP, (D_ACTION, 0)], **kw)


def one_turn(**kw: Any) -> GameState:
    """A position at the first action of a turn; the engine stops after the technology phase."""
    return position(pending=[STOP, (F_TECH_PHASE,), (F_DECLINE_PHASE,), (F_TIMELINE_PHASE,),
                             (D_ACTION, 1), (D_ACTION, 0)], **kw)


def timeline_phase(**kw: Any) -> GameState:
    """A position at the start of the Timeline phase; the engine stops right after it."""
    return position(pending=[STOP, (F_TIMELINE_PHASE,)], **kw)


def decline_phase(**kw: Any) -> GameState:
    """A position at the start of the decline phase; the engine stops after the slide."""
    return position(pending=[STOP, (F_DECLINE_PHASE,)], **kw)


def hand(st: GameState) -> list[str]:
    """The hand's codes in the engine's order (by card index, e.g. ["M1", "A1"]), unlike
    `tests.builder.hand`, which sorts them as strings."""
    return codes(st, st.hand)


def past(st: GameState) -> list[str]:
    return codes(st, st.past)


# ------------------------------------------------------------------ card facts


def _reference_cities() -> dict[str, dict[str, Any]]:
    data = json.loads(REFERENCE.read_text(encoding="utf-8"))
    return {f"C{c['number']}": c for c in data["builders"] if c["type"] == "city"}


def _encoded_builders() -> dict[str, dict[str, Any]]:
    data = json.loads(BASE.read_text(encoding="utf-8"))
    return {c["code"]: c for c in data["builders"]}


@pytest.mark.parametrize("code", CITIES)
def test_city_facts_match_reference(code: str) -> None:
    """C1-C36: name, cost, starting space, knowledge, VP, lock and activation moment are the
    reference facts (RULES.md section 1: numbers and moments are facts to carry over), and the
    loaded card book holds them."""
    ref = _reference_cities()[code]
    enc = _encoded_builders()[code]
    assert (enc["name"], enc["type"], enc["discard_cost"], enc["starting_space"],
            enc["knowledge"], enc["vp"], enc["locked"], enc["activation"]) == (
        ref["name"], "city", ref["discard_cost"], ref["starting_space"], ref["knowledge"],
        ref["vp"], ref["locked_space"], ref["activation"])
    st = position()
    card = st.book[idx(st, code)]
    assert (card.discard_cost, card.starting_space, card.knowledge, card.vp, card.locked,
            card.activation) == (ref["discard_cost"], ref["starting_space"], ref["knowledge"],
                                 ref["vp"], ref["locked_space"], ref["activation"])


# ------------------------------------------------------------------ end-game cities (C1-C5)

ANCIENT = ["T3", "T4", "T5", "T6", "T9", "T8"]
SECRET = ["T10", "T11", "T12", "T13", "T14", "T16"]


@pytest.mark.parametrize(("card", "own", "other"),
                         [("C1", ANCIENT, SECRET), ("C2", SECRET, ANCIENT)],
                         ids=["C1-ancient", "C2-secret"])
@pytest.mark.parametrize(("n", "vp"), [(2, 0), (3, 4), (4, 4), (5, 7), (6, 7)])
def test_C1_C2_osirion_abu_gorab_tiers(card: str, own: list[str], other: list[str], n: int,
                                       vp: int) -> None:
    """C1 Osirion / C2 Abu Gorab, end game (RULES.md section 7 row 2): 4 VP with 3 or 4
    technologies of its type, 7 VP with 5 or more; technologies of another type do not count."""
    st = position(past=[card], techs=own[:n] + other[:4], time_space=6)
    assert st.score().effects == vp


@pytest.mark.parametrize("card,techs", [("C1", ANCIENT[:5]), ("C2", SECRET[:5])])
def test_C1_C2_score_nothing_from_timeline(card: str, techs: list[str]) -> None:
    """C1 / C2: end-game effects count only for Past monuments (RULES.md section 7 row 2); in
    the Timeline the card scores its +1 of row 4 only."""
    st = position(timeline={3: [card]}, techs=techs, time_space=6)
    sheet = st.score()
    assert (sheet.past, sheet.effects, sheet.timeline) == (0, 0, 1)


@pytest.mark.parametrize(("pasts", "vp"), [
    (["C3", "C12", "M8", "M10", "M11"], 3),  # megaliths are the most numerous
    (["C3", "C12", "C13", "M8"], 3),  # cities, Göbekli Tepe itself included
    (["C3"], 1),
], ids=["megaliths", "cities-self-counted", "alone"])
def test_C3_gobekli_tepe_scores_most_numerous_type(pasts: list[str], vp: int) -> None:
    """C3 Göbekli Tepe, end game: 1 VP per Past monument of the chosen type; the best choice is
    the most numerous type (clarifications: C3 scores it automatically), itself included."""
    assert position(past=pasts, time_space=6).score().effects == vp


def test_C3_gobekli_tepe_scores_nothing_from_timeline() -> None:
    """C3 in the Timeline: no end-game VP (RULES.md section 7 row 2)."""
    st = position(timeline={5: ["C3"]}, past=["M8", "M10", "M11"], time_space=6)
    assert (st.score().effects, st.score().timeline) == (0, 1)


@pytest.mark.parametrize(("pasts", "vp"), [
    (["C4", "C12", "M8", "M10", "P7"], 2),
    (["C4", "C12", "M8", "M10", "P7", "P8"], 4),
    (["C4", "C12", "M8", "M10"], 0),
], ids=["one-trio", "two-trios", "no-pyramid"])
def test_C4_byblos_scores_trios(pasts: list[str], vp: int) -> None:
    """C4 Byblos, end game: 2 VP per set of one city, one megalith and one pyramid in the Past
    (itself counted as a city)."""
    assert position(past=pasts, time_space=6).score().effects == vp


def test_C4_byblos_scores_nothing_from_timeline() -> None:
    """C4 in the Timeline: no end-game VP, though the Past holds a trio."""
    st = position(timeline={5: ["C4"]}, past=["C12", "M8", "P7"], time_space=6)
    assert (st.score().effects, st.score().timeline) == (0, 1)


def test_C5_ellora_caves_scores_past_cities() -> None:
    """C5 Ellora Caves, end game: 1 VP per city in the Past, itself included; megaliths not."""
    st = position(past=["C5", "C12", "C13", "M8"], time_space=6)
    assert st.score().effects == 3


def test_C5_ellora_caves_scores_nothing_from_timeline() -> None:
    """C5 in the Timeline: no end-game VP."""
    st = position(timeline={5: ["C5"]}, past=["C12", "C13"], time_space=6)
    assert (st.score().effects, st.score().timeline) == (0, 1)


# ------------------------------------------------------------------ Timeline-phase cities


def test_C6_ollantaytambo_adjacent_cities_lose_one() -> None:
    """C6 Ollantaytambo, Timeline phase: every city orthogonally adjacent to it loses 1 (D5:
    the other place of its space and the same row left and right; no diagonals); megaliths,
    diagonal cities and cities without knowledge are untouched (clarifications: automatic)."""
    st = timeline_phase(
        timeline={1: ["C16", "C17"], 2: ["C6", "C12"], 3: ["M8", "C19"]},
        tokens={"C16": 2, "C17": 2, "C6": 2, "C12": 0, "M8": 3, "C19": 4}, time_space=6)
    assert at_stop(st)
    assert {c: tok(st, c) for c in ("C16", "C17", "C6", "C12", "M8", "C19")} == {
        "C16": 1, "C17": 2, "C6": 2, "C12": 0, "M8": 3, "C19": 4}


def test_C6_ollantaytambo_upper_row() -> None:
    """C6 in an upper place: its neighbours are the lower card of its space and the upper
    cards of the spaces left and right (D5)."""
    st = timeline_phase(
        timeline={2: ["C16", "C17"], 3: ["C19", "C6"], 4: ["C20", "C21"]},
        tokens={"C16": 2, "C17": 2, "C19": 3, "C6": 2, "C20": 2, "C21": 4}, time_space=6)
    assert at_stop(st)
    assert {c: tok(st, c) for c in ("C16", "C17", "C19", "C20", "C21")} == {
        "C16": 2, "C17": 1, "C19": 2, "C20": 2, "C21": 3}


@pytest.mark.parametrize("space2", [["M8", "P1"], ["M8"]], ids=["pyramid-diagonal", "one-pyramid"])
def test_C7_luxor_temple_needs_two_adjacent_pyramids(space2: list[str]) -> None:
    """C7 Luxor Temple, condition fails: only one pyramid is adjacent (a diagonal one does not
    count, D5), so it keeps its knowledge."""
    st = timeline_phase(timeline={2: space2, 3: ["C7", "P36"]}, tokens={"C7": 10},
                        time_space=6)
    assert at_stop(st)
    assert tok(st, "C7") == 10


@pytest.mark.parametrize(("before", "after"), [(10, 7), (2, 0)])
def test_C7_luxor_temple_two_adjacent_pyramids(before: int, after: int) -> None:
    """C7 Luxor Temple, Timeline phase: with 2 adjacent pyramids it loses 3 knowledge (only its
    own; as far as possible, D6); the pyramids keep theirs."""
    st = timeline_phase(timeline={2: ["P1"], 3: ["C7", "P36"]},
                        tokens={"C7": before, "P1": 3, "P36": 3}, time_space=6)
    assert at_stop(st)
    assert (tok(st, "C7"), tok(st, "P1"), tok(st, "P36")) == (after, 3, 3)


@pytest.mark.parametrize(("left", "after"), [("M8", 7), ("P1", 9)],
                         ids=["two-megaliths", "all-different"])
def test_C8_mohenjo_daro_two_adjacent_of_one_type(left: str, after: int) -> None:
    """C8 Mohenjo-daro, Timeline phase: if 2 of its adjacent monuments share a type it loses 2
    knowledge; three neighbours of three different types are not enough."""
    st = timeline_phase(timeline={4: [left], 5: ["C8", "M1"], 6: ["C16"]},
                        tokens={"C8": 9, left: 3, "M1": 4}, time_space=1)
    assert at_stop(st)
    assert (tok(st, "C8"), tok(st, left), tok(st, "M1")) == (after, 3, 4)


@pytest.mark.parametrize(("lost", "pasts", "drawn"), [
    (2, ["M8"], True), (0, ["M8"], True), (3, ["M8"], False), (2, [], False),
], ids=["lost2", "lost0", "lost3-fails", "empty-past-fails"])
def test_C9_petra_draws_one(lost: int, pasts: list[str], drawn: bool) -> None:
    """C9 Petra, Timeline phase: with at most 2 lost knowledge and at least 1 Past monument,
    draw 1 card; otherwise nothing."""
    st = timeline_phase(hand=["M1"], timeline={4: ["C9"]}, tokens={"C9": 1}, lost=lost,
                        past=pasts, deck_top=["A1", "A2"], time_space=6)
    assert at_stop(st)
    assert hand(st) == (["M1", "A1"] if drawn else ["M1"])


@pytest.mark.parametrize(("order", "drawn"), [(["!M31", "!C9"], True), (["!C9", "!M31"], False)],
                         ids=["M31-first", "C9-first"])
def test_C9_petra_condition_read_when_it_resolves(order: list[str], drawn: bool) -> None:
    """C9 with 3 lost knowledge and M31 (Timeline: remove 1 lost knowledge): the player orders
    the Timeline effects (D15) and Petra's condition is read when it resolves
    (clarifications: Timeline phase), so M31 first lets Petra draw."""
    st = timeline_phase(timeline={2: ["M31"], 4: ["C9"]}, lost=3, past=["M8"],
                        deck_top=["A1"], time_space=6)
    assert names_of(st) == ["!M31", "!C9"]
    play(st, *order[:1])
    assert at_stop(st)  # the last effect needs no choice
    assert (st.lost, hand(st)) == (2, ["A1"] if drawn else [])


def test_C9_petra_hand_limit() -> None:
    """C9 Petra with 10 cards in hand: the draw stops at 10 (D4)."""
    ten = ["M1", "M2", "M3", "M4", "M5", "M6", "M7", "M9", "M10", "M11"]
    st = timeline_phase(hand=ten, timeline={4: ["C9"]}, past=["M8"], deck_top=["A1"],
                        time_space=6)
    assert at_stop(st)
    assert hand(st) == ten


def test_C10_parthenon_removes_up_to_two_split() -> None:
    """C10 Parthenon, Timeline phase: with 11+ knowledge on the whole Timeline (itself
    included) remove up to 2, split over any monuments: token by token in place order, with
    "done" to stop (clarifications C10)."""
    st = timeline_phase(timeline={2: ["C19"], 3: ["C10"], 5: ["P36"]},
                        tokens={"C19": 6, "C10": 4, "P36": 1}, time_space=6)
    assert names_of(st) == ["@C19", "@C10", "@P36", "done"]
    play(st, "@C19")
    assert names_of(st) == ["@C19", "@C10", "@P36", "done"]
    play(st, "@P36")
    assert at_stop(st)
    assert (tok(st, "C19"), tok(st, "C10"), tok(st, "P36")) == (5, 4, 0)


def test_C10_parthenon_may_remove_nothing() -> None:
    """C10: "up to": the player may stop at once (D6, D22)."""
    st = timeline_phase(timeline={2: ["C19"], 3: ["C10"]}, tokens={"C19": 7, "C10": 4},
                        time_space=6)
    play(st, "done")
    assert at_stop(st)
    assert (tok(st, "C19"), tok(st, "C10")) == (7, 4)


def test_C10_parthenon_needs_eleven() -> None:
    """C10, condition fails: 10 knowledge on the Timeline is not enough; nothing is asked."""
    st = timeline_phase(timeline={2: ["C19"], 3: ["C10"]}, tokens={"C19": 6, "C10": 4},
                        time_space=6)
    assert at_stop(st)
    assert (tok(st, "C19"), tok(st, "C10")) == (6, 4)


def test_C35_tulum_discards_a_chosen_card() -> None:
    """C35 Tulum, Timeline phase: discard 1 card of the player's choice from hand (mandatory,
    clarifications C35)."""
    st = timeline_phase(hand=["M1", "P36"], timeline={4: ["C35"]}, tokens={"C35": 1},
                        time_space=6)
    assert names_of(st) == ["M1", "P36"]
    play(st, "P36")
    assert at_stop(st)
    assert (hand(st), codes(st, st.discard)) == (["M1"], ["P36"])


@pytest.mark.parametrize(("held", "left"), [(["M1"], []), ([], [])], ids=["last-card", "empty"])
def test_C35_tulum_single_or_no_card(held: list[str], left: list[str]) -> None:
    """C35: with one card it must go (no choice); with none, nothing happens (D6)."""
    st = timeline_phase(hand=held, timeline={4: ["C35"]}, time_space=6)
    assert at_stop(st)
    assert (hand(st), codes(st, st.discard)) == (left, held)


def test_C35_tulum_is_locked_in_space_4() -> None:
    """C35 Tulum is locked: it may only be created in space 4 (RULES.md section 5), and it
    cannot be created at all when space 4 is full, though other spaces are affordable."""
    cards = ["C35", "M8", "M1", "P36", "C12"]
    st = one_action(hand=cards, time_space=6)
    play(st, "create", "C35")  # space 4 taken at once: the only legal space
    assert at_stop(st)
    assert layout(st) == {4: ["C35"], 6: ["TIME"]}
    assert hand(st) == ["C12", "M1", "M8", "P36"]
    full = one_action(hand=cards, timeline={4: ["C16", "C17"]}, time_space=6)
    play(full, "create")
    assert "C35" not in names_of(full)


@pytest.mark.parametrize(("cities", "after"), [(["C12", "C13", "C14", "C16"], 6),
                                               (["C12", "C13", "C14", "M8"], 8)],
                         ids=["four-cities", "three-cities-fails"])
def test_C36_cyrene_needs_four_past_cities(cities: list[str], after: int) -> None:
    """C36 Cyrene, Timeline phase: with 4+ cities in the Past (not the Timeline, clarifications
    C36) it loses 2 knowledge; with 3 nothing happens."""
    st = timeline_phase(timeline={3: ["C36"], 4: ["C19", "C20"]}, tokens={"C36": 8},
                        past=cities, time_space=6)
    assert at_stop(st)
    assert tok(st, "C36") == after


# ------------------------------------------------------------------ Learn trigger (C11)


def test_C11_warangal_secret_learn_removes_and_draws() -> None:
    """C11 Warangal: each time you learn a secret technology, remove 1 knowledge from one
    monument of your choice (any, itself included), then draw 1 card (clarifications C11)."""
    st = one_action(timeline={2: ["M8"], 3: ["C11"]}, tokens={"M8": 3, "C11": 2},
                    tiles=["T12", "T9", None, None, None, None, None, None, None],
                    deck_top=["A1", "A2"], time_space=6)
    play(st, "learn")
    assert names_of(st) == ["T9", "T12"]
    play(st, "T12")  # secret; its own effect removes nothing (no artifacts)
    assert names_of(st) == ["@M8", "@C11"]
    play(st, "@M8")
    assert at_stop(st)
    assert (tok(st, "M8"), tok(st, "C11"), hand(st), codes(st, st.techs)) == (
        2, 2, ["A1"], ["T12"])


def test_C11_warangal_draws_even_without_knowledge() -> None:
    """C11: with no knowledge on the Timeline the removal finds no target, the draw still
    happens (D6)."""
    st = one_action(timeline={3: ["C11"]},
                    tiles=["T12", "T9", None, None, None, None, None, None, None],
                    deck_top=["A1"], time_space=6)
    play(st, "learn", "T12")
    assert at_stop(st)
    assert hand(st) == ["A1"]


def test_C11_warangal_after_a_granted_learn() -> None:
    """C11 also triggers on a Learn granted by another card (M34's decline Learn, ignoring
    requirements; clarifications C11: granted ones included)."""
    st = decline_phase(timeline={1: ["M34"], 3: ["C11"]}, tokens={"M34": 0, "C11": 2},
                       tiles=["T12", "T9", None, None, None, None, None, None, None],
                       deck_top=["A1"], time_space=6)
    assert names_of(st) == ["T9", "T12", "no"]
    play(st, "T12")  # C11 is the only monument with knowledge: no target choice
    assert at_stop(st)
    assert (tok(st, "C11"), hand(st), codes(st, st.techs), past(st)) == (
        1, ["A1"], ["T12"], ["M34"])


@pytest.mark.parametrize("tech", ["T9", "T26"], ids=["ancient", "writing"])
def test_C11_warangal_ignores_other_types(tech: str) -> None:
    """C11, trigger fails: learning an ancient or writing technology does nothing."""
    st = one_action(timeline={2: ["M8"], 3: ["C11"]}, tokens={"M8": 3, "C11": 2},
                    tiles=["T12", tech, None, None, None, None, None, None, None],
                    deck_top=["A1"], time_space=6)
    play(st, "learn", tech)
    assert at_stop(st)
    assert (tok(st, "M8"), tok(st, "C11"), hand(st)) == (3, 2, [])


# ------------------------------------------------------------------ immediate cities


@pytest.mark.parametrize(("lost", "after"), [(3, 2), (1, 0), (0, 0)])
def test_C12_timbuktu_discards_one_lost_knowledge(lost: int, after: int) -> None:
    """C12 Timbuktu, on Create: remove 1 lost knowledge (as far as possible, D22)."""
    st = one_action(hand=["C12", "M8"], lost=lost, time_space=6)
    play(st, "create", "C12", "s1")
    assert at_stop(st)
    assert (st.lost, tok(st, "C12"), layout(st)[1]) == (after, 2, ["C12"])


@pytest.mark.parametrize(("card", "space"), [("C13", 4), ("C14", 5)])
def test_C13_C14_swap_targets_every_other_monument(card: str, space: int) -> None:
    """C13 Lopburi Temple / C14 Bagan, on Create: mandatory swap with any other monument of
    the Timeline, space 1 and locked cards included (clarifications C13/C14); the two exchange
    exact places and keep their knowledge."""
    st = one_action(hand=[card, "M8"], timeline={1: ["C16"], 2: ["M1", "C21"]},
                    tokens={"C16": 2, "M1": 4, "C21": 4}, time_space=6)
    play(st, "create", card, f"s{space}")
    assert names_of(st) == ["@C16", "@M1", "@C21"]
    play(st, "@C21")
    assert at_stop(st)
    assert layout(st) == {1: ["C16"], 2: ["M1", card], space: ["C21"], 6: ["TIME"]}
    assert (tok(st, "C21"), tok(st, card)) == (4, st.book[idx(st, card)].knowledge)


@pytest.mark.parametrize(("card", "space"), [("C13", 4), ("C14", 5)])
def test_C13_C14_swap_within_its_space(card: str, space: int) -> None:
    """C13 / C14 created in an upper place: a swap with the lower card of the same space
    exchanges their rows; with one other monument there is no choice."""
    st = one_action(hand=[card, "M8"], timeline={space: ["P36"]}, tokens={"P36": 3},
                    time_space=6)
    play(st, "create", card, f"s{space}")
    assert at_stop(st)
    assert layout(st)[space] == [card, "P36"]


@pytest.mark.parametrize(("card", "space"), [("C13", 4), ("C14", 5)])
def test_C13_C14_swap_alone(card: str, space: int) -> None:
    """C13 / C14 with no other monument: nothing to swap (D6)."""
    st = one_action(hand=[card, "M8"], time_space=6)
    play(st, "create", card, f"s{space}")
    assert at_stop(st)
    assert layout(st) == {space: [card], 6: ["TIME"]}


def test_C20_tiwanaku_other_cities_lose_one() -> None:
    """C20 Tiwanaku, on Create: every other city in the Timeline loses 1 (automatic); not
    itself, not megaliths, never below 0 (clarifications C20)."""
    st = one_action(hand=["C20", "M8"], timeline={1: ["C9"], 3: ["C12", "M1"]},
                    tokens={"C9": 3, "C12": 0, "M1": 3}, time_space=6)
    play(st, "create", "C20", "s2")
    assert at_stop(st)
    assert {c: tok(st, c) for c in ("C9", "C12", "M1", "C20")} == {
        "C9": 2, "C12": 0, "M1": 3, "C20": 2}


SELF_DISCOUNT = [
    # card, its space, knowledge with the condition met / not met, the setup for each
    ("C22", 2, 1, 6, {"past": ["C12", "C13", "C14"]}, {"past": ["C12", "C13", "M10"]}),
    ("C23", 3, 2, 8, {"past": ["C12", "C13", "C14"]}, {"past": ["C12", "C13", "M10"]}),
    ("C33", 2, 1, 6, {"techs": ["T10", "T11", "T12"]}, {"techs": ["T10", "T11", "T9"]}),
]


@pytest.mark.parametrize(("card", "space", "met", "unmet", "yes", "no"), SELF_DISCOUNT,
                         ids=["C22", "C23", "C33"])
def test_C22_C23_C33_self_discount(card: str, space: int, met: int, unmet: int,
                              yes: dict[str, list[str]], no: dict[str, list[str]]) -> None:
    """C22 Baalbek (3+ Past cities: 5 fewer), C23 Sacsayhuamán (3+ Past cities: 6 fewer), C33
    Inwa (3+ secret technologies: 5 fewer): the discount is read at creation (clarifications:
    self-discounts); without the condition the card enters with its printed knowledge."""
    for setup, expected in ((yes, met), (no, unmet)):
        st = one_action(hand=[card, "M8"], time_space=6, **setup)
        play(st, "create", card, f"s{space}")
        assert at_stop(st)
        assert tok(st, card) == expected


def test_C23_C24_self_discount_stacks_with_reducers() -> None:
    """C23 with C24 Easter Island in the Timeline: 8 - 6 - 1 = 1 (clarifications: discounts
    stack with reducers)."""
    st = one_action(hand=["C23", "M8"], timeline={5: ["C24"]}, past=["C12", "C13", "C14"],
                    time_space=6)
    play(st, "create", "C23", "s3")
    assert tok(st, "C23") == 1


def test_C22_C24_C18_self_discount_floors_at_zero() -> None:
    """C22 with C24 and C18 (a city in the Past): 6 - 5 - 1 - 1 = -1, floored at 0 (RULES.md
    section 5)."""
    st = one_action(hand=["C22", "M8"], timeline={5: ["C24"], 6: ["C18"]},
                    past=["C12", "C13", "C14"], time_space=4)
    play(st, "create", "C22", "s2")
    assert tok(st, "C22") == 0


def test_C30_potala_skips_the_decline_phase() -> None:
    """C30 Potala Palace, on Create outside a decline phase: the turn's decline is skipped, no
    monument declines or slides; only the time card slides (RULES.md section 4C, section 11)."""
    st = one_turn(hand=["C30", "C19", "M8"], timeline={1: ["M1"]}, tokens={"M1": 1},
                  deck_top=["A1"])
    play(st, "create", "C30", "s3", "search")
    assert at_stop(st)
    assert layout(st) == {1: ["M1"], 3: ["C30", "TIME"]}
    assert (past(st), st.lost, tok(st, "M1"), st.time_space) == ([], 0, 1, 3)


def test_C30_potala_control_turn_declines() -> None:
    """C30 control: the same turn creating another city: M1 declines, everything slides."""
    st = one_turn(hand=["C30", "C19", "M8"], timeline={1: ["M1"]}, tokens={"M1": 1},
                  deck_top=["A1"])
    play(st, "create", "C19", "s3", "search")
    assert at_stop(st)
    assert layout(st) == {2: ["C19"], 3: ["TIME"]}
    assert (past(st), st.lost) == (["M1"], 1)


def test_C30_potala_in_space_1_survives() -> None:
    """C30 created into space 1 (2 discards for the distance) does not decline that turn: the
    decline is skipped (clarifications C30)."""
    st = one_turn(hand=["C30", "C19", "M8", "M1"], deck_top=["A1"])
    play(st, "create", "C30", "s1", "C19", "M1", "search")
    assert at_stop(st)
    assert layout(st) == {1: ["C30"], 3: ["TIME"]}
    assert (past(st), st.lost, tok(st, "C30"), hand(st)) == ([], 0, 3, ["M8", "A1"])


def test_C30_potala_time_card_in_space_1_still_leaves() -> None:
    """C30 with the time card in space 1: step 1 of the decline still happens (the time card
    goes to the Past, its first visit); the monument in space 1 does not decline (RULES.md
    section 4C)."""
    st = one_turn(hand=["C30", "C19", "M8"], timeline={1: ["M1"]}, tokens={"M1": 1},
                  time_space=1, deck_top=["A1"])
    play(st, "create", "C30", "s3", "search")
    assert at_stop(st)
    assert layout(st) == {1: ["M1"], 3: ["C30"]}
    assert (st.time_space, st.time_visits, past(st), st.lost) == (0, 1, [], 0)


def test_C30_potala_nested_create_also_skips() -> None:
    """C30 created by another card's granted Create (M18) outside a decline phase also skips
    the decline (clarifications C30: nested Creates included)."""
    st = one_turn(hand=["M18", "C30", "C19"], timeline={1: ["M1"]}, deck_top=["A1"])
    play(st, "create", "M18", "s6", "C30", "s3", "search")
    assert at_stop(st)
    assert layout(st) == {1: ["M1"], 3: ["C30", "TIME"], 6: ["M18"]}
    assert past(st) == []


def test_C30_potala_created_during_decline_skips_nothing() -> None:
    """C30 created during a decline phase (M11's optional Create) skips nothing: the decline
    goes on and everything slides (clarifications C30)."""
    st = decline_phase(hand=["C30"], timeline={1: ["M11"]})
    assert names_of(st) == ["C30", "no"]
    play(st, "C30")  # space 3, the only affordable space, is taken at once
    assert at_stop(st)
    assert layout(st) == {2: ["C30"], 3: ["TIME"]}
    assert past(st) == ["M11"]


def test_C31_philae_two_cities_up_to_three_each() -> None:
    """C31 Philae, on Create with 4+ cities in the Timeline (itself included): choose 2 cities
    with knowledge (itself allowed), each loses up to 3 (D20): chosen in place order, then
    token by token with "done"."""
    st = one_action(hand=["C31", "M8"], timeline={1: ["C9"], 2: ["C12"], 4: ["C20"]},
                    tokens={"C9": 5, "C12": 2, "C20": 4}, time_space=6)
    play(st, "create", "C31", "s3")
    assert names_of(st) == ["@C9", "@C12", "@C31"]
    play(st, "@C9")
    assert names_of(st) == ["@C12", "@C31", "@C20"]
    play(st, "@C20")
    assert names_of(st) == ["@C9", "done"]
    play(st, "@C9", "@C9", "@C9")  # the third token ends C9's share: no fourth is offered
    assert names_of(st) == ["@C20", "done"]
    play(st, "@C20", "done")
    assert at_stop(st)
    assert {c: tok(st, c) for c in ("C9", "C12", "C31", "C20")} == {
        "C9": 2, "C12": 2, "C31": 3, "C20": 3}


def test_C31_philae_needs_four_cities() -> None:
    """C31, condition fails: 3 cities in the Timeline (a megalith does not count): nothing."""
    st = one_action(hand=["C31", "P36"], timeline={1: ["C9"], 2: ["C12"], 4: ["M1"]},
                    tokens={"C9": 5, "C12": 2, "M1": 4}, time_space=6)
    play(st, "create", "C31", "s3")
    assert at_stop(st)
    assert {c: tok(st, c) for c in ("C9", "C12", "C31", "M1")} == {
        "C9": 5, "C12": 2, "C31": 3, "M1": 4}


def test_C32_persepolis_archive_yes() -> None:
    """C32 Persepolis, on Create: the player may take a full Archive (clarifications C32):
    discarding 1 card removes 1 knowledge from a monument of the player's choice."""
    st = one_action(hand=["C32", "M1", "P36"], timeline={2: ["M8"]}, tokens={"M8": 2},
                    time_space=6)
    play(st, "create", "C32", "s3")
    assert names_of(st) == ["M1", "P36", "no"]
    play(st, "M1", "done")
    assert names_of(st) == ["@M8", "@C32"]
    play(st, "@M8")
    assert at_stop(st)
    assert (tok(st, "M8"), tok(st, "C32"), hand(st), codes(st, st.discard)) == (
        1, 3, ["P36"], ["M1"])


def test_C32_persepolis_archive_no() -> None:
    """C32: declining the Archive changes nothing."""
    st = one_action(hand=["C32", "M1", "P36"], timeline={2: ["M8"]}, tokens={"M8": 2},
                    time_space=6)
    play(st, "create", "C32", "s3", "no")
    assert at_stop(st)
    assert (tok(st, "M8"), tok(st, "C32"), hand(st), st.discard) == (2, 3, ["M1", "P36"], [])


# ------------------------------------------------------------------ reducers (anytime)


@pytest.mark.parametrize(("pasts", "created", "space", "expected"), [
    (["C12"], "C19", "s3", 2),
    (["M10"], "C19", "s3", 3),
    (["C12"], "M8", "s4", 3),
], ids=["city-in-past", "no-city-in-past-fails", "megalith-unaffected"])
def test_C18_angkor_wat_reduction(pasts: list[str], created: str, space: str,
                                  expected: int) -> None:
    """C18 Angkor Wat, while in the Timeline: once the Past holds a city, every other city
    created enters with 1 knowledge fewer; megaliths are not affected (clarifications C18)."""
    st = one_action(hand=["C19", "M8"], timeline={6: ["C18"]}, past=pasts, time_space=4)
    play(st, "create", created, space)
    assert tok(st, created) == expected


@pytest.mark.parametrize(("created", "space", "expected"), [("C19", "s3", 2), ("M8", "s4", 3)],
                         ids=["city", "megalith-unaffected"])
def test_C24_easter_island_reduction(created: str, space: str, expected: int) -> None:
    """C24 Easter Island, while in the Timeline: every other city created enters with 1
    knowledge fewer (no condition); megaliths are not affected."""
    st = one_action(hand=["C19", "M8"], timeline={5: ["C24"]}, time_space=6)
    play(st, "create", created, space)
    assert tok(st, created) == expected


def test_C18_C24_reducers_stack() -> None:
    """C18 + C24 together (a city in the Past): a created city gets 2 fewer (3 - 2 = 1)."""
    st = one_action(hand=["C19", "M8"], timeline={5: ["C24"], 6: ["C18"]}, past=["C12"],
                    time_space=4)
    play(st, "create", "C19", "s3")
    assert tok(st, "C19") == 1


@pytest.mark.parametrize("card", ["C18", "C24"])
def test_C18_C24_reducer_does_not_reduce_itself(card: str) -> None:
    """C18 / C24: "your other cities": the new card never reduces itself (clarifications:
    entering tokens)."""
    st = one_action(hand=[card, "M8"], past=["C12"], time_space=4)
    play(st, "create", card, "s6" if card == "C18" else "s5")
    assert tok(st, card) == st.book[idx(st, card)].knowledge


def test_C24_reducer_out_of_play_does_nothing() -> None:
    """C24 in the Past (not in play) reduces nothing (clarifications: passive effects work
    only from the Timeline or the artifact row)."""
    st = one_action(hand=["C19", "M8"], past=["C24"], time_space=6)
    play(st, "create", "C19", "s3")
    assert tok(st, "C19") == 3


@pytest.mark.parametrize(("created", "space", "expected"), [("P36", "s2", 2), ("C19", "s3", 3)],
                         ids=["pyramid", "city-unaffected"])
def test_C34_kom_ombo_reduction(created: str, space: str, expected: int) -> None:
    """C34 Temple of Kom Ombo, while in the Timeline: every pyramid created enters with 1
    knowledge fewer; cities are not affected."""
    st = one_action(hand=["P36", "C19"], timeline={5: ["C34"]}, time_space=6)
    play(st, "create", created, space)
    assert tok(st, created) == expected


# ------------------------------------------------------------------ decline cities


def test_C15_ajanta_caves_moves_a_card_into_space_1() -> None:
    """C15 Ajanta Caves, on decline: move another monument to a free place of another space
    (mandatory; clarifications C15); a card moved into space 1 declines right after it
    (RULES.md section 4C)."""
    st = decline_phase(timeline={1: ["C15"], 3: ["M1"], 4: ["P36"]},
                       tokens={"C15": 2, "M1": 1, "P36": 3})
    assert layout(st)[4] == ["P36", "TIME"]
    assert names_of(st) == ["@M1", "@P36"]
    play(st, "@M1")
    assert names_of(st) == ["s1", "s2", "s5", "s6"]  # s3 is its own space; s4 is full
    play(st, "s1")
    assert at_stop(st)
    assert (past(st), st.lost) == (["C15", "M1"], 3)
    assert layout(st) == {3: ["P36", "TIME"]}


def test_C15_ajanta_caves_saves_the_other_space_1_card() -> None:
    """C15 declining first may move the other space-1 monument out: it does not decline this
    turn (clarifications C15)."""
    st = decline_phase(timeline={1: ["C15", "M8"]}, tokens={"C15": 2, "M8": 3}, time_space=6)
    assert names_of(st) == ["!C15", "!M8"]
    play(st, "!C15")  # M8 is the only other monument: no target choice
    assert names_of(st) == ["s2", "s3", "s4", "s5", "s6"]
    play(st, "s5")
    assert at_stop(st)
    assert (past(st), st.lost, tok(st, "M8")) == (["C15"], 2, 3)
    assert layout(st) == {4: ["M8"], 5: ["TIME"]}


def test_C15_ajanta_caves_alone() -> None:
    """C15 with no other monument: nothing to move (D6); it declines normally."""
    st = decline_phase(timeline={1: ["C15"]}, tokens={"C15": 2}, time_space=6)
    assert at_stop(st)
    assert (past(st), st.lost) == (["C15"], 2)


@pytest.mark.parametrize(("card", "n"), [("C16", 4), ("C17", 6)])
def test_C16_C17_draw_on_decline(card: str, n: int) -> None:
    """C16 Heracleion (draw 4) / C17 Jericho (draw 6), on decline; then it goes to the Past
    and its knowledge becomes lost knowledge (RULES.md section 4C)."""
    top = ["A1", "A2", "A3", "A4", "A5", "A6", "A7"]
    st = decline_phase(hand=["M1"], timeline={1: [card]}, tokens={card: 2}, deck_top=top)
    assert at_stop(st)
    assert hand(st) == ["M1", *top[:n]]
    assert (past(st), st.lost) == ([card], 2)


@pytest.mark.parametrize("card", ["C16", "C17"])
def test_C16_C17_draw_on_decline_hand_limit(card: str) -> None:
    """C16 / C17 with 8 cards in hand: the draw stops at 10 (D4)."""
    held = ["M1", "M2", "M3", "M4", "M5", "M6", "M7", "M9"]
    st = decline_phase(hand=held, timeline={1: [card]}, deck_top=["A1", "A2", "A3"])
    assert at_stop(st)
    assert hand(st) == [*held, "A1", "A2"]


def test_C19_derinkuyu_targets_cities_with_six() -> None:
    """C19 Derinkuyu, on decline: remove 4 knowledge from one city holding 6 or more, itself
    included (clarifications C19); a megalith or a city with 5 is not a target."""
    st = decline_phase(timeline={1: ["C19"], 2: ["C9", "M1"], 3: ["C7"]},
                       tokens={"C19": 6, "C9": 5, "M1": 8, "C7": 10}, time_space=6)
    assert names_of(st) == ["@C19", "@C7"]
    play(st, "@C19")
    assert at_stop(st)
    assert (st.lost, past(st), tok(st, "C7"), tok(st, "C9"), tok(st, "M1")) == (
        2, ["C19"], 10, 5, 8)


def test_C19_derinkuyu_on_another_city() -> None:
    """C19 choosing another city: that city loses 4; Derinkuyu's own 6 become lost."""
    st = decline_phase(timeline={1: ["C19"], 3: ["C7"]}, tokens={"C19": 6, "C7": 10},
                       time_space=6)
    play(st, "@C7")
    assert at_stop(st)
    assert (st.lost, tok(st, "C7")) == (6, 6)


def test_C19_derinkuyu_no_target() -> None:
    """C19, no city with 6: nothing is removed (D6)."""
    st = decline_phase(timeline={1: ["C19"], 3: ["C7"]}, tokens={"C19": 5, "C7": 5},
                       time_space=6)
    assert at_stop(st)
    assert (st.lost, tok(st, "C7")) == (5, 5)


def test_C21_mycenae_is_locked_in_space_6() -> None:
    """C21 Mycenae is locked: only space 6 is legal (so only its printed cost of 1 discard is
    paid, though 5 cards could pay for other spaces); with space 6 full it cannot be created."""
    cards = ["C21", "M8", "M1", "P36", "C12", "C13"]
    st = one_action(hand=cards, time_space=4)
    play(st, "create", "C21")  # space 6 taken at once: the only legal space
    assert names_of(st) == ["C12", "C13", "M1", "M8", "P36"]  # its printed cost: 1 discard
    play(st, "M1")
    assert at_stop(st)
    assert layout(st) == {4: ["TIME"], 6: ["C21"]}
    assert (hand(st), codes(st, st.discard)) == (["C12", "C13", "M8", "P36"], ["M1"])
    full = one_action(hand=cards, timeline={6: ["C16", "C17"]}, time_space=4)
    play(full, "create")
    assert "C21" not in names_of(full)


def test_C21_mycenae_strips_other_monuments() -> None:
    """C21, on decline: remove up to 7 knowledge in all from OTHER monuments, split (token by
    token in place order); declining first it can strip the other space-1 card, whose lost
    knowledge drops (clarifications C21)."""
    st = decline_phase(timeline={1: ["C21", "C7"], 2: ["M8"]},
                       tokens={"C21": 4, "C7": 10, "M8": 3}, time_space=6)
    play(st, "!C21")
    assert names_of(st) == ["@C7", "@M8", "done"]
    play(st, *["@C7"] * 6, "@M8")  # the 7th token ends the removal
    assert at_stop(st)
    assert (st.lost, past(st), tok(st, "M8")) == (4 + 4, ["C7", "C21"], 2)


def test_C21_mycenae_may_remove_nothing() -> None:
    """C21: "7 or less": the player may stop at once."""
    st = decline_phase(timeline={1: ["C21"], 2: ["M8"]}, tokens={"C21": 4, "M8": 3},
                       time_space=6)
    play(st, "done")
    assert at_stop(st)
    assert (st.lost, tok(st, "M8")) == (4, 3)


VANISHING = ["C25", "C26", "C27", "C28", "C29"]


@pytest.mark.parametrize("card", VANISHING)
def test_C25_to_C29_discarded_with_knowledge(card: str) -> None:
    """C25 Llaqtapata, C26 Machu Picchu, C27 Karnak Temple, C28 Babylon, C29 Atlantis, on
    decline with knowledge left: the card is discarded, not put in the Past; its knowledge
    returns to the reserve, not to lost knowledge (clarifications C25-C29)."""
    st = decline_phase(timeline={1: [card]}, tokens={card: 1}, lost=2, time_space=6)
    assert at_stop(st)
    assert (past(st), st.lost, codes(st, st.discard), tok(st, card)) == ([], 2, [card], 0)
    assert st.score().past == 0


@pytest.mark.parametrize("card", VANISHING)
def test_C25_to_C29_decline_when_empty(card: str) -> None:
    """C25-C29 with no knowledge: they go to the Past and score their printed VP."""
    st = decline_phase(timeline={1: [card]}, tokens={card: 0}, time_space=6)
    assert at_stop(st)
    assert (past(st), st.lost, st.discard) == ([card], 0, [])
    assert st.score().past == st.book[idx(st, card)].vp


def test_C25_C21_vanishing_checked_when_its_decline_resolves() -> None:
    """C25 after Mycenae (C21) stripped it in the same decline phase: the check is made when
    C25's own decline resolves, so with 0 left it reaches the Past (clarifications C25-C29)."""
    st = decline_phase(timeline={1: ["C21", "C25"]}, tokens={"C21": 0, "C25": 6}, time_space=6)
    play(st, "!C21", *["@C25"] * 6)
    assert at_stop(st)
    assert (past(st), st.lost) == (["C21", "C25"], 0)


def test_C25_C21_vanishing_first_then_mycenae() -> None:
    """C25 declining before Mycenae with knowledge: discarded; Mycenae then finds no target."""
    st = decline_phase(timeline={1: ["C21", "C25"]}, tokens={"C21": 1, "C25": 6}, time_space=6)
    play(st, "!C25")
    assert at_stop(st)
    assert (past(st), st.lost, codes(st, st.discard)) == (["C21"], 1, ["C25"])


@pytest.mark.parametrize(("knowledge", "flip"), [(1, False), (0, True)],
                         ids=["discarded-no-flip", "declined-7th"])
def test_C29_discarded_card_is_not_a_past_monument(knowledge: int, flip: bool) -> None:
    """C29 Atlantis with 6 monuments in the Past: discarded with knowledge, it is not the 7th
    Past monument and the middle of the game does not begin; with none it is, and the flip of
    tile A or B is asked (RULES.md section 6; clarifications C25-C29)."""
    six = ["C12", "C13", "C14", "M8", "M10", "P7"]
    st = decline_phase(timeline={1: ["C29"]}, tokens={"C29": knowledge}, past=six, time_space=6)
    assert (st.midgame, len(st.past)) == ((True, 7) if flip else (False, 6))
    if flip:
        assert names_of(st) == ["tileA", "tileB"]
    else:
        assert at_stop(st)
