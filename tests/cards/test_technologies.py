"""Every technology card (T1-T45), exact and tested.

Each test builds a position with `tests.builder.position`, learns the technology from a tile
("learn", "T5") and asserts the exact change. Sources: RULES.md (sections 5, 7, 11 and the
D-decisions), reference/card-clarifications.md (Technologies), reference/base-cards.json.

Positions put two filler technologies without requirement on tile A (T9 and T26, or T5 and
T21 when the card under test is one of those), the card under test alone on tile B (Level I)
or tile C (Level II). So "learn" always offers a choice, the offered technologies can be read
with `offered`, and learning the card leaves its tile empty (no refill: a tile is refilled
only when exactly one card is left on it, RULES.md section 5).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from solver.engine import flow
from solver.engine.cards import KIND_NAMES
from solver.engine.frames import D_ACTION
from solver.engine.state import CHEST_BASE, GameState
from tests.builder import book, codes, idx, layout, names_of, play, position, tile_codes

REFERENCE = Path("/work/shared/reference/base-cards.json")
BASE = Path(__file__).resolve().parents[2] / "puzzles" / "data" / "cards" / "base.json"
FILLERS = ("T9", "T26")
OTHER_FILLERS = ("T5", "T21")
HAND9 = ["C31", "C32", "C33", "C34", "C35", "C36", "M31", "M32", "M33"]
HAND10 = [*HAND9, "M34"]
TOP = ["C20", "C21", "C22", "C23", "C24", "C25", "C26", "C27", "C28", "C29", "C30"]


# ------------------------------------------------------------------ helpers

def level(code: str) -> int:
    card = book().lookup(code)
    assert card is not None
    return card.level


def tiles_with(*techs: str) -> list[str | None]:
    """Fillers on tile A, the Level I cards under test on tile B, Level II ones on tile C."""
    fillers = OTHER_FILLERS if set(techs) & set(FILLERS) else FILLERS
    tiles: list[str | None] = [fillers[0], fillers[1], None, None, None, None, None, None, None]
    ones = [t for t in techs if level(t) == 1]
    twos = [t for t in techs if level(t) == 2]
    for k, t in enumerate(ones):
        tiles[3 + k] = t
    for k, t in enumerate(twos):
        tiles[6 + k] = t
    return tiles


def at(tech: str, **kw: Any) -> GameState:
    """A position at the first action of a turn with `tech` available on a tile."""
    return position(tiles=tiles_with(tech), **kw)


def hand(st: GameState) -> list[str]:
    """The hand's codes in the engine's order (by card index, e.g. ["C9", "C10"]), unlike
    `tests.builder.hand`, which sorts them as strings."""
    return codes(st, st.hand)


def deck_top(st: GameState, n: int) -> list[str]:
    """The top `n` builder cards, top first."""
    return codes(st, st.deck[::-1][:n])


def tokens(st: GameState, *names: str) -> dict[str, int]:
    return {c: st.tokens[idx(st, c)] for c in names}


def by_number(*names: str) -> list[str]:
    """Technology codes in card order (the order options are offered in)."""
    return sorted(names, key=lambda c: int(c[1:]))


def offered(st: GameState) -> list[str]:
    """The technologies the Learn action offers now (on a copy of the state)."""
    probe = st.clone()
    play(probe, "learn")
    return names_of(probe)


def at_action(st: GameState) -> bool:
    """True when the engine waits for the next action choice (nothing else pending)."""
    return bool(st.stack[-1][0] == D_ACTION)


def snapshot(st: GameState) -> dict[str, object]:
    """Every zone but the technology collection and the tiles."""
    return {
        "hand": hand(st), "deck": codes(st, st.deck), "discard": codes(st, st.discard),
        "timeline": layout(st), "tokens": list(st.tokens), "past": codes(st, st.past),
        "rotated": st.rotated, "artifacts": list(st.artifacts), "lost": st.lost,
    }


def put_chest(st: GameState, slot: int, letter: int = 0) -> None:
    """Put a chest card into an artifact space and recompute the pending options."""
    st.artifacts[slot] = CHEST_BASE + letter
    st.goal_chests = [*st.goal_chests, letter]
    flow.settle(st)


# ------------------------------------------------------------------ "draw N" technologies

DRAWS: list[tuple[str, int, Mapping[str, Any], Mapping[str, Any]]] = [
    # code, cards drawn, a position meeting the requirement exactly, one falling just short
    ("T1", 3, {"artifacts": ["A1", "A2", "A3"]}, {"artifacts": ["A1", "A2"]}),
    ("T2", 3, {"past": ["P1", "P2"], "rotated": 2}, {"past": ["P1", "C1", "M1"]}),
    ("T7", 4, {"past": ["C1", "M1", "P1"]}, {"past": ["C1", "C2", "M1", "M2"]}),
    ("T8", 3, {}, {"hand": ["C10", "C11"]}),
    ("T15", 3, {"past": ["C1", "C2"], "rotated": 1}, {"past": ["C1", "M1", "P1"]}),
    ("T18", 3, {"past": ["C1", "P1"]}, {"past": ["C1", "C2", "M1", "M2"]}),
    ("T24", 3, {"past": ["C1", "M1", "P1", "C2"], "rotated": 4}, {"past": ["C1", "M1", "P1"]}),
    ("T25", 3, {"past": ["M1", "M2"]}, {"past": ["M1", "C1", "P1"]}),
]


@pytest.mark.parametrize(("code", "n", "ok", "short"), DRAWS, ids=[d[0] for d in DRAWS])
def test_draw_technology_draws_the_top_cards(
        code: str, n: int, ok: Mapping[str, Any], short: Mapping[str, Any]) -> None:
    """T1 Anaximenes (3 artifacts), T2 Aristotle (2 pyramids in the Past), T7 Melchizedek (a
    city, a megalith and a pyramid in the Past; draw 4), T8 Ptolemy (0 or 1 card in hand), T15
    Flower of Life (2 cities in the Past), T18 Astronomy (a city and a pyramid in the Past), T24
    Proto-writing (4 monuments in the Past), T25 Coptic Alphabet (2 megaliths in the Past): with
    the requirement met exactly (rotated Past cards count, clarifications), Learn offers the card
    and it draws the top N cards of the builder deck (RULES.md section 5)."""
    st = at(code, hand=["C10"], deck_top=TOP, **ok)
    assert offered(st) == by_number("T9", "T26", code)
    before = snapshot(st)
    play(st, "learn", code)
    assert hand(st) == ["C10", *TOP[:n]]
    assert deck_top(st, 1) == [TOP[n]]
    assert codes(st, st.techs) == [code]
    assert tile_codes(st) == ["T9", "T26", None, None, None, None, None, None, None]
    assert at_action(st)
    after = snapshot(st)
    for zone in ("discard", "timeline", "tokens", "past", "rotated", "artifacts", "lost"):
        assert after[zone] == before[zone], zone


@pytest.mark.parametrize(("code", "n", "ok", "short"), DRAWS, ids=[d[0] for d in DRAWS])
def test_draw_technology_not_offered_when_requirement_fails(
        code: str, n: int, ok: Mapping[str, Any], short: Mapping[str, Any]) -> None:
    """T1, T2, T7, T8, T15, T18, T24, T25: one short of the requirement, Learn does not offer
    the card (RULES.md section 5: a technology whose requirement you meet)."""
    kw = {"hand": ["C10"], **short}
    st = at(code, deck_top=TOP, **kw)
    assert offered(st) == ["T9", "T26"]


def test_t7_draw_stops_at_ten_cards_in_hand() -> None:
    """T7 Melchizedek draws 4, but every draw stops at 10 in hand (RULES.md D4): with 7 cards
    it draws 3 and the 4th card stays on top of the deck."""
    seven = ["C10", "C11", "C12", "C13", "C14", "C15", "C16"]
    st = at("T7", hand=seven, past=["C1", "M1", "P1"], deck_top=TOP)
    play(st, "learn", "T7")
    assert hand(st) == [*seven, *TOP[:3]]
    assert deck_top(st, 1) == [TOP[3]]


def test_t8_ptolemy_with_empty_hand() -> None:
    """T8 Ptolemy: "0 or 1 card in your hand": with no card in hand it is offered and draws 3."""
    st = at("T8", deck_top=TOP)
    play(st, "learn", "T8")
    assert hand(st) == TOP[:3]


# ------------------------------------------------------------------ Candi Sukuh (D19)

RELAXED: list[tuple[str, Mapping[str, Any]]] = [
    # met only with one "at least" value lowered by 1
    ("T1", {"artifacts": ["A1", "A2"]}),
    ("T7", {"past": ["C1", "M1"]}),
    ("T18", {"past": ["C1", "C2"]}),
    ("T23", {"lost": 4}),
    ("T36", {"hand": HAND9}),
    ("T37", {"past": ["C1", "C2", "M1", "M2", "P1", "P2"], "lost": 3}),
    ("T39", {"past": ["C1", "C2", "C3", "M1", "M2", "M3", "P1", "P2"]}),
]


@pytest.mark.parametrize(("code", "kw"), RELAXED, ids=[r[0] for r in RELAXED])
def test_candi_sukuh_lowers_one_at_least_value(code: str, kw: Mapping[str, Any]) -> None:
    """RULES.md D19: with Candi Sukuh (P19) in the Timeline one "at least" value of the
    requirement may be lowered by 1 (T1 2 artifacts; T7 Melchizedek and T18 Astronomy tolerate
    one missing type; T23 4 lost knowledge; T36 Astrology 9 cards; T37 Alchemy 6 monuments with
    at most 3 lost knowledge; T39 Ari-kat one type at 2). Without P19 the card is not offered."""
    without = at(code, **kw)
    assert code not in offered(without)
    with_p19 = at(code, timeline={4: ["P19"]}, **kw)
    assert code in offered(with_p19)


NOT_RELAXED: list[tuple[str, Mapping[str, Any]]] = [
    ("T8", {"hand": ["C10", "C11"]}),  # "at most 1 card": not an "at least" value
    ("T37", {"past": ["C1", "C2", "C3", "M1", "M2", "P1", "P2"], "lost": 4}),  # "at most 3 lost"
    ("T39", {"past": ["C1", "C2", "C3", "M1", "M2", "P1", "P2"]}),  # two values short
    ("T7", {"past": ["C1", "C2"]}),  # two types missing
]


@pytest.mark.parametrize(("code", "kw"), NOT_RELAXED, ids=[f"{r[0]}-{i}" for i, r in
                                                           enumerate(NOT_RELAXED)])
def test_candi_sukuh_does_not_relax_at_most_or_two_values(
        code: str, kw: Mapping[str, Any]) -> None:
    """RULES.md D19: Candi Sukuh lowers only one "at least" value: T8 Ptolemy's "0 or 1 card"
    and T37 Alchemy's "3 lost knowledge or less" stay as printed (the reference's stricter
    Ptolemy is not used), and a requirement short on two values stays unmet (T39, T7)."""
    st = at(code, timeline={4: ["P19"]}, **kw)
    assert code not in offered(st)


def test_t8_candi_sukuh_keeps_ptolemy_at_one_card() -> None:
    """RULES.md D19 (not the clarifications' stricter Ptolemy): with Candi Sukuh in the
    Timeline, T8 Ptolemy is still offered with 1 card in hand and draws 3."""
    st = at("T8", hand=["C10"], timeline={4: ["P19"]}, deck_top=TOP)
    play(st, "learn", "T8")
    assert hand(st) == ["C10", *TOP[:3]]


# ------------------------------------------------------------------ T3 Hermes, T4 Thales

def test_t3_hermes_trismegistus_keeps_two_of_five() -> None:
    """T3 Hermes Trismegistus (RULES.md section 11): reveal the top 5, keep 2, discard the other
    3. The two kept are picked in rising card order (one sequence per pair)."""
    st = at("T3", hand=["C10", "C11"], deck_top=TOP)
    play(st, "learn", "T3")
    assert names_of(st) == TOP[:4]  # the last card cannot be the first of two picks
    play(st, "C21")
    assert names_of(st) == ["C22", "C23", "C24"]
    play(st, "C23")
    assert hand(st) == ["C10", "C11", "C21", "C23"]
    assert codes(st, st.discard) == ["C20", "C22", "C24"]
    assert deck_top(st, 1) == ["C25"]
    assert st.limbo == []
    assert at_action(st)


def test_t3_hermes_trismegistus_takes_one_at_nine_cards() -> None:
    """T3 at 9 cards in hand: the first pick fills the hand, the second is skipped (D4;
    clarifications: "skipped if you're now at 10"), the other 4 are discarded."""
    nine = [f"C{k}" for k in range(1, 10)]
    st = at("T3", hand=nine, deck_top=TOP)
    play(st, "learn", "T3")
    assert names_of(st) == TOP[:5]
    play(st, "C24")
    assert hand(st) == [*nine, "C24"]
    assert codes(st, st.discard) == ["C20", "C21", "C22", "C23"]
    assert deck_top(st, 1) == ["C25"]


def test_t3_hermes_trismegistus_at_ten_cards_discards_all_five() -> None:
    """T3 at 10 cards in hand: the 5 are still revealed, no pick is possible (D4; clarifications:
    anyone holding 10 is skipped) and "the rest are discarded": all 5."""
    ten = [f"C{k}" for k in range(1, 11)]
    st = at("T3", hand=ten, deck_top=TOP)
    play(st, "learn", "T3")
    assert hand(st) == ten
    assert codes(st, st.discard) == TOP[:5]
    assert deck_top(st, 1) == ["C25"]
    assert at_action(st)


def test_t4_thales_keeps_one_of_eight() -> None:
    """T4 Thales: look at the top 8, take 1 (any of them), discard the other 7."""
    st = at("T4", hand=["C10"], deck_top=TOP)
    play(st, "learn", "T4")
    assert names_of(st) == TOP[:8]
    play(st, "C25")
    assert hand(st) == ["C10", "C25"]
    assert codes(st, st.discard) == [c for c in TOP[:8] if c != "C25"]
    assert deck_top(st, 1) == ["C28"]
    assert st.limbo == []


def test_t4_thales_at_ten_cards_discards_all_eight() -> None:
    """T4 Thales at 10 cards in hand: the take stops at 10 (RULES.md D4, Thales named there; not
    the clarifications' "no hand-limit check"), so all 8 looked-at cards are discarded."""
    ten = [f"C{k}" for k in range(1, 11)]
    st = at("T4", hand=ten, deck_top=TOP)
    play(st, "learn", "T4")
    assert hand(st) == ten
    assert codes(st, st.discard) == TOP[:8]
    assert deck_top(st, 1) == ["C28"]
    assert at_action(st)


# ------------------------------------------------------------------ lost knowledge

def test_t5_nicolas_flammel_removes_one_lost_and_draws() -> None:
    """T5 Nicolas Flammel: discard 1 lost knowledge and draw 1 card."""
    st = at("T5", hand=["C10"], lost=3, deck_top=TOP)
    play(st, "learn", "T5")
    assert st.lost == 2
    assert hand(st) == ["C10", "C20"]


def test_t5_nicolas_flammel_without_lost_knowledge_still_draws() -> None:
    """T5 with no lost knowledge: the removal does nothing, the draw still happens (RULES.md D6:
    effects apply as far as possible)."""
    st = at("T5", hand=["C10"], lost=0, deck_top=TOP)
    play(st, "learn", "T5")
    assert st.lost == 0
    assert hand(st) == ["C10", "C20"]


@pytest.mark.parametrize(("lost", "after"), [(3, 1), (2, 0), (1, 0), (0, 0)])
def test_t9_mercury_removes_two_lost_knowledge(lost: int, after: int) -> None:
    """T9 Mercury: discard 2 lost knowledge, as far as possible (RULES.md D22: a plain "discard
    N lost knowledge" removes min(N, lost)); nothing else changes and nothing is asked."""
    st = at("T9", hand=["C10"], lost=lost, deck_top=TOP)
    before = snapshot(st)
    play(st, "learn", "T9")
    assert st.lost == after
    assert at_action(st)
    assert {**snapshot(st), "lost": lost} == before


@pytest.mark.parametrize(("lost", "after"), [(5, 2), (7, 4)])
def test_t23_arabic_numerals_removes_three_lost_knowledge(lost: int, after: int) -> None:
    """T23 Arabic Numerals: requirement 5 lost knowledge; discard 3 lost knowledge."""
    st = at("T23", lost=lost)
    assert offered(st) == ["T9", "T23", "T26"]
    play(st, "learn", "T23")
    assert st.lost == after


def test_t23_arabic_numerals_needs_five_lost_knowledge() -> None:
    """T23 Arabic Numerals: with 4 lost knowledge the requirement fails; it is not offered."""
    st = at("T23", lost=4)
    assert offered(st) == ["T9", "T26"]


# ------------------------------------------------------------------ -1 knowledge on each of a type

EACH = [("T6", "pyramid"), ("T11", "city"), ("T20", "megalith")]
EACH_TIMELINE = {1: ["C1"], 2: ["M1", "C2"], 3: ["P1"], 5: ["M2"], 6: ["P2", "C21"]}
EACH_TOKENS = {"C1": 2, "C2": 0, "C21": 4, "M1": 3, "M2": 0, "P1": 1, "P2": 0}


@pytest.mark.parametrize(("code", "kind"), EACH, ids=[e[0] for e in EACH])
def test_each_monument_of_the_type_loses_one(code: str, kind: str) -> None:
    """T6 Anaximander (pyramids), T11 The Number Pi (cities), T20 Rongorongo Glyphs (megaliths):
    every Timeline monument of that type loses 1 knowledge, automatically (clarifications:
    "automatic -1 on every Timeline monument of that type"); one with none stays at 0, the other
    types are untouched, nothing is asked."""
    st = at(code, hand=["C10"], timeline=EACH_TIMELINE, tokens=EACH_TOKENS)
    play(st, "learn", code)
    expected = dict(EACH_TOKENS)
    for c, n in EACH_TOKENS.items():
        if KIND_NAMES[st.card(idx(st, c)).kind] == kind:
            expected[c] = max(0, n - 1)
    assert tokens(st, *EACH_TOKENS) == expected
    assert st.lost == 0
    assert at_action(st)


@pytest.mark.parametrize(("code", "kind"), EACH, ids=[e[0] for e in EACH])
def test_each_type_without_such_monument_changes_nothing(code: str, kind: str) -> None:
    """T6, T11, T20 with no monument of their type in the Timeline: nothing changes."""
    keep = {"city": ["M1", "P1"], "megalith": ["C1", "P1"], "pyramid": ["C1", "M1"]}[kind]
    st = at(code, timeline={2: keep[:1], 3: keep[1:]}, tokens={keep[0]: 2, keep[1]: 3})
    before = snapshot(st)
    play(st, "learn", code)
    assert snapshot(st) == before


# ------------------------------------------------------------------ T10 Planetary Grid

def test_t10_planetary_grid_targets_and_destinations() -> None:
    """T10 Planetary Grid: move 1 Timeline monument to any other space with a free place
    (mandatory, no "no"; the time card takes a place and is never a target, D18). Every monument
    is offered; then every other space with a free place; the knowledge goes with the card and
    the upper card of the left space slides down (RULES.md section 2)."""
    st = at("T10", hand=["C10"], timeline={1: ["C1"], 3: ["M1", "P1"]},
            tokens={"C1": 1, "M1": 3, "P1": 2})
    play(st, "learn", "T10")
    assert names_of(st) == ["@C1", "@M1", "@P1"]
    play(st, "@M1")
    assert names_of(st) == ["s1", "s2", "s4", "s5", "s6"]
    play(st, "s4")
    assert layout(st) == {1: ["C1"], 3: ["P1"], 4: ["TIME", "M1"]}
    assert tokens(st, "C1", "M1", "P1") == {"C1": 1, "M1": 3, "P1": 2}
    assert at_action(st)


def test_t10_planetary_grid_moves_a_locked_monument() -> None:
    """T10 ignores locks (clarifications: move and swap ignore locks; T10 mandatory): Mycenae
    (C21, locked in space 6), the only monument, must move; spaces 1-5 are offered."""
    st = at("T10", timeline={6: ["C21"]}, tokens={"C21": 4})
    play(st, "learn", "T10")
    assert names_of(st) == ["s1", "s2", "s3", "s4", "s5"]
    play(st, "s2")
    assert layout(st) == {2: ["C21"], 4: ["TIME"]}
    assert tokens(st, "C21") == {"C21": 4}


def test_t10_planetary_grid_without_a_free_place_changes_nothing() -> None:
    """T10 with every place taken (11 monuments and the time card) or with an empty Timeline:
    no move is possible, so nothing happens (RULES.md D6, as far as possible)."""
    full = {1: ["C1", "C2"], 2: ["C3", "C4"], 3: ["M1", "M2"], 4: ["TIME", "M3"],
            5: ["P1", "P2"], 6: ["P3", "C5"]}
    for tl in (full, {}):
        st = at("T10", timeline=tl)
        before = snapshot(st)
        play(st, "learn", "T10")
        assert snapshot(st) == before
        assert at_action(st)


# ------------------------------------------------------------------ T16 Sator Square

def test_t16_sator_square_targets_and_swap() -> None:
    """T16 Sator Square: swap 2 Timeline monuments (mandatory; exact places are exchanged, the
    knowledge goes with the cards, clarifications). The pair is chosen in place order: the
    first pick is any but the last monument, the second any after the first."""
    st = at("T16", hand=["C10"], timeline={2: ["C1"], 3: ["M1", "P1"]},
            tokens={"C1": 1, "M1": 3, "P1": 2})
    play(st, "learn", "T16")
    assert names_of(st) == ["@C1", "@M1"]
    play(st, "@C1")
    assert names_of(st) == ["@M1", "@P1"]
    play(st, "@P1")
    assert layout(st) == {2: ["P1"], 3: ["M1", "C1"], 4: ["TIME"]}
    assert tokens(st, "C1", "M1", "P1") == {"C1": 1, "M1": 3, "P1": 2}
    assert at_action(st)


def test_t16_sator_square_two_monuments_swap_automatically_ignoring_locks() -> None:
    """T16 with exactly two monuments, one locked (C21 Mycenae, space 6): the swap is the only
    outcome and is mandatory (clarifications: locked cards can be included)."""
    st = at("T16", timeline={1: ["C1"], 6: ["C21"]})
    play(st, "learn", "T16")
    assert layout(st) == {1: ["C21"], 4: ["TIME"], 6: ["C1"]}
    assert at_action(st)


def test_t16_sator_square_with_one_monument_changes_nothing() -> None:
    """T16 with a single Timeline monument: no pair to swap, nothing happens."""
    st = at("T16", timeline={2: ["C1"]}, tokens={"C1": 2})
    before = snapshot(st)
    play(st, "learn", "T16")
    assert snapshot(st) == before


def test_t16_sator_square_learned_during_a_decline_cannot_swap_the_declining_card() -> None:
    """T16 learned through Caral's decline (P9, optional Learn): the declining card is immune to
    move and swap (clarifications, decline phase), so the two other monuments swap; then P9 goes
    to the Past with its knowledge lost and the Timeline slides left (RULES.md section 4C)."""
    st = at("T16", hand=["C10"], timeline={1: ["P9"], 2: ["C1"], 3: ["M1"]},
            tokens={"P9": 1, "C1": 2, "M1": 3}, phase="decline")
    assert names_of(st) == ["T9", "T16", "T26", "no"]
    play(st, "T16")
    assert codes(st, st.past) == ["P9"]
    assert st.lost == 1
    assert layout(st) == {1: ["M1"], 2: ["C1"], 3: ["TIME"]}
    assert codes(st, st.techs) == ["T16"]


# ------------------------------------------------------------------ T12 Mummification

def test_t12_mummification_removes_one_per_artifact_split() -> None:
    """T12 Mummification: remove as many knowledge as there are artifacts on the board (2),
    split freely over Timeline monuments, one token at a time in place order; a chest card in an
    artifact space is not an artifact (RULES.md D11)."""
    st = at("T12", hand=["C10"], artifacts=["A1", "A2"], timeline={2: ["C5"], 3: ["M5"]},
            tokens={"C5": 2, "M5": 3})
    put_chest(st, 2)
    play(st, "learn", "T12")
    assert names_of(st) == ["@C5", "@M5"]
    play(st, "@C5")
    assert names_of(st) == ["@C5", "@M5"]
    play(st, "@M5")
    assert tokens(st, "C5", "M5") == {"C5": 1, "M5": 2}
    assert st.lost == 0
    assert at_action(st)


def test_t12_mummification_takes_everything_when_it_can() -> None:
    """T12 with 3 artifacts and 3 knowledge in all: the mandatory removal takes them all, with
    nothing to choose; with one monument holding knowledge, it loses 3 of its 5 automatically."""
    st = at("T12", artifacts=["A1", "A2", "A3"], timeline={2: ["C5"], 3: ["M5"], 5: ["P5"]},
            tokens={"C5": 1, "M5": 2, "P5": 0})
    play(st, "learn", "T12")
    assert tokens(st, "C5", "M5", "P5") == {"C5": 0, "M5": 0, "P5": 0}
    assert at_action(st)
    st = at("T12", artifacts=["A1", "A2", "A3"], timeline={2: ["C5"], 3: ["M5"]},
            tokens={"C5": 5, "M5": 0})
    play(st, "learn", "T12")
    assert tokens(st, "C5", "M5") == {"C5": 2, "M5": 0}
    assert at_action(st)


def test_t12_mummification_without_artifacts_changes_nothing() -> None:
    """T12 with no artifact card on the board (only a chest, D11): nothing is removed."""
    st = at("T12", timeline={2: ["C5"]}, tokens={"C5": 4})
    put_chest(st, 0)
    before = snapshot(st)
    play(st, "learn", "T12")
    assert snapshot(st) == before


# ------------------------------------------------------------------ T13 Mystery School

def test_t13_mystery_school_draws_one_per_timeline_city() -> None:
    """T13 Mystery School: draw 1 card per city in the Timeline (clarifications: Timeline
    cities; the cities in the Past do not count)."""
    st = at("T13", hand=["C10"], timeline={1: ["C1"], 2: ["M1"], 3: ["C2"]},
            past=["C3", "C4", "C5"], deck_top=TOP)
    play(st, "learn", "T13")
    assert hand(st) == ["C10", "C20", "C21"]


def test_t13_mystery_school_without_timeline_city_draws_nothing() -> None:
    """T13 with no city in the Timeline (only in the Past): draws nothing."""
    st = at("T13", hand=["C10"], timeline={2: ["M1"]}, past=["C3"], deck_top=TOP)
    before = snapshot(st)
    play(st, "learn", "T13")
    assert snapshot(st) == before


# ------------------------------------------------------------------ T14 Language of the Birds

def test_t14_language_of_the_birds_targets_and_removal() -> None:
    """T14 Language of the Birds: choose 1 Timeline monument with at least 5 knowledge; it loses
    3. Only monuments holding 5 or more are offered (not one with 4); no "done": the card says
    "discard 3", not "up to", and RULES.md D6 makes a non-"you may" effect mandatory (the
    clarifications' "loses up to 3" is not used)."""
    st = at("T14", hand=["C10"], timeline={1: ["C1"], 2: ["M1"], 3: ["P1"]},
            tokens={"C1": 5, "M1": 4, "P1": 6})
    play(st, "learn", "T14")
    assert names_of(st) == ["@C1", "@P1"]
    play(st, "@P1")
    assert tokens(st, "C1", "M1", "P1") == {"C1": 5, "M1": 4, "P1": 3}
    assert at_action(st)


def test_t14_language_of_the_birds_without_five_knowledge_changes_nothing() -> None:
    """T14 when no monument holds 5 knowledge: nothing happens."""
    st = at("T14", timeline={1: ["C1"], 2: ["M1"]}, tokens={"C1": 4, "M1": 4})
    before = snapshot(st)
    play(st, "learn", "T14")
    assert snapshot(st) == before


def test_t14_language_of_the_birds_resolves_before_learn_triggers() -> None:
    """T14 with Nimrud Lens (A30, "each time you LEARN" you may remove 1): the technology's
    effect comes first, then the Learn triggers (clarifications, ordering). C1 5 -> 2 by T14,
    then 2 -> 1 by A30 (had A30 gone first, C1 would hold 4 and T14 find no target)."""
    st = at("T14", timeline={1: ["C1"]}, tokens={"C1": 5}, artifacts=["A30"])
    play(st, "learn", "T14")
    assert tokens(st, "C1") == {"C1": 2}
    assert names_of(st) == ["yes", "no"]
    play(st, "yes")
    assert tokens(st, "C1") == {"C1": 1}


# ------------------------------------------------------------------ T17 Earthquake Engineering

def test_t17_earthquake_engineering_discard_two_draw_two() -> None:
    """T17 Earthquake Engineering: discard up to 3 cards (chosen one at a time in rising card
    order, "done" to stop), then draw as many as discarded."""
    st = at("T17", hand=["C10", "C11", "C12", "C13"], deck_top=TOP)
    play(st, "learn", "T17")
    assert names_of(st) == ["C10", "C11", "C12", "C13", "done"]
    play(st, "C11")
    assert names_of(st) == ["C12", "C13", "done"]
    play(st, "C12")
    assert names_of(st) == ["C13", "done"]
    play(st, "done")
    assert hand(st) == ["C10", "C13", "C20", "C21"]
    assert codes(st, st.discard) == ["C11", "C12"]
    assert deck_top(st, 1) == ["C22"]
    assert at_action(st)


def test_t17_earthquake_engineering_three_is_the_most() -> None:
    """T17: after the 3rd discard no more card is offered, and 3 are drawn."""
    st = at("T17", hand=["C10", "C11", "C12", "C13", "C14"], deck_top=TOP)
    play(st, "learn", "T17", "C10", "C11", "C12")
    assert hand(st) == ["C13", "C14", "C20", "C21", "C22"]
    assert codes(st, st.discard) == ["C10", "C11", "C12"]
    assert at_action(st)


def test_t17_earthquake_engineering_discarding_nothing_changes_nothing() -> None:
    """T17: "up to 3", so 0 is allowed ("done" at once): nothing is discarded or drawn."""
    st = at("T17", hand=["C10", "C11"], deck_top=TOP)
    before = snapshot(st)
    play(st, "learn", "T17", "done")
    assert snapshot(st) == before


# ------------------------------------------------------------------ T19 Runic Alphabet

@pytest.mark.parametrize(("rotated", "after"), [(3, 1), (2, 0), (1, 0), (0, 0)])
def test_t19_runic_alphabet_straightens_two(rotated: int, after: int) -> None:
    """T19 Runic Alphabet: straighten 2 rotated Past monuments, automatically (clarifications),
    as many as there are."""
    st = at("T19", hand=["C10"], past=["C1", "M1", "P1"], rotated=rotated)
    play(st, "learn", "T19")
    assert st.rotated == after
    assert codes(st, st.past) == ["C1", "M1", "P1"]
    assert at_action(st)


def test_t19_runic_alphabet_makes_excavate_possible_again() -> None:
    """T19: with every Past monument rotated, Excavate is not possible; after straightening,
    those monuments can be excavated again (RULES.md D7)."""
    st = at("T19", hand=["C10"], past=["C1", "M1"], rotated=2)
    assert "excavate" not in names_of(st)
    play(st, "learn", "T19")
    assert st.rotated == 0
    assert "excavate" in names_of(st)


# ------------------------------------------------------------------ T21, T26: opponents

def test_t21_ancient_hebrew_draws_one_and_adds_no_knowledge() -> None:
    """T21 Ancient Hebrew: the knowledge added to opponents' monuments does nothing in solo
    (RULES.md section 11); the player draws 1 card. Own monuments gain nothing."""
    st = at("T21", hand=["C10"], timeline={2: ["C1"]}, tokens={"C1": 2}, deck_top=TOP)
    before = snapshot(st)
    play(st, "learn", "T21")
    assert hand(st) == ["C10", "C20"]
    assert tokens(st, "C1") == {"C1": 2}
    after = snapshot(st)
    for zone in ("discard", "timeline", "tokens", "past", "artifacts", "lost"):
        assert after[zone] == before[zone], zone


def test_t26_cretan_hieroglyphs_does_nothing_in_solo() -> None:
    """T26 Cretan Hieroglyphs (each opponent discards 1 card): nothing in solo (RULES.md section
    11); only the collection and the tile change."""
    st = at("T26", hand=["C10", "C11"], timeline={2: ["C1"]}, tokens={"C1": 2}, lost=2,
            deck_top=TOP)
    before = snapshot(st)
    play(st, "learn", "T26")
    assert snapshot(st) == before
    assert codes(st, st.techs) == ["T26"]
    assert tile_codes(st) == ["T5", "T21", None, None, None, None, None, None, None]
    assert at_action(st)


# ------------------------------------------------------------------ T22 Ancient Greek

GREEK_TOP = ["C20", "A12", "C21", "A30", "M20", "A5", "M21", "P20", "P21", "C22", "C30"]


def test_t22_ancient_greek_creates_one_revealed_artifact() -> None:
    """T22 Ancient Greek: set the top 10 aside; an artifact among them that can be paid must be
    created (no "no"); the player chooses it (A12 costs 3: not payable with 2 cards) and the
    discards; the other 9 are discarded; the hand gets none of them (clarifications)."""
    st = at("T22", hand=["C10", "C11"], deck_top=GREEK_TOP)
    play(st, "learn", "T22")
    assert names_of(st) == ["A30", "A5"]  # in the order revealed
    play(st, "A30")
    assert names_of(st) == ["C10", "C11"]  # A30's discard cost 1
    play(st, "C11")
    assert hand(st) == ["C10"]
    assert codes(st, st.board_artifacts()) == ["A30"]
    # the other nine are discarded as soon as A30 is chosen, then C11 pays for it
    assert codes(st, st.discard) == [*[c for c in GREEK_TOP[:10] if c != "A30"], "C11"]
    assert deck_top(st, 1) == ["C30"]
    assert st.limbo == []
    assert at_action(st)


def test_t22_ancient_greek_single_payable_artifact_is_created_at_once() -> None:
    """T22 with one payable artifact among the 10 (A12 costs 3, A30 costs 1: the hand is empty,
    only the free A5 can be paid): A5 is created without a choice."""
    st = at("T22", deck_top=GREEK_TOP)
    play(st, "learn", "T22")
    assert codes(st, st.board_artifacts()) == ["A5"]
    assert hand(st) == []
    assert codes(st, st.discard) == [c for c in GREEK_TOP[:10] if c != "A5"]


def test_t22_ancient_greek_without_free_artifact_space_discards_all() -> None:
    """T22 with all 5 artifact spaces taken (a chest card occupies one, D11): nothing can be
    created; the 10 cards are discarded."""
    st = at("T22", hand=["C10"], artifacts=["A1", "A2", "A3", "A4"], deck_top=GREEK_TOP)
    put_chest(st, 4)
    play(st, "learn", "T22")
    assert codes(st, st.board_artifacts()) == ["A1", "A2", "A3", "A4"]
    assert hand(st) == ["C10"]
    assert codes(st, st.discard) == GREEK_TOP[:10]
    assert deck_top(st, 1) == ["C30"]


def test_t22_ancient_greek_without_artifact_revealed_discards_all() -> None:
    """T22 when the top 10 hold no artifact: all 10 are discarded, nothing else changes."""
    st = at("T22", hand=["C10"], deck_top=TOP)
    play(st, "learn", "T22")
    assert hand(st) == ["C10"]
    assert codes(st, st.discard) == TOP[:10]
    assert st.board_artifacts() == []


def test_t22_ancient_greek_create_fires_create_triggers() -> None:
    """T22: the artifact Create fires the "each time you CREATE an artifact" effects
    (clarifications; M26 Chabola: remove 1 knowledge, then draw 1 - the 11th card, as the 10
    are set aside)."""
    top = ["C20", "C21", "A5", "C22", "C23", "C24", "C25", "C26", "C27", "C28", "C30"]
    st = at("T22", timeline={2: ["M26"]}, tokens={"M26": 2}, deck_top=top)
    play(st, "learn", "T22")
    assert codes(st, st.board_artifacts()) == ["A5"]
    assert tokens(st, "M26") == {"M26": 1}
    assert hand(st) == ["C30"]
    assert codes(st, st.discard) == [c for c in top[:10] if c != "A5"]


# ------------------------------------------------------------------ T27 Latin Alphabet

LATIN_PAST = ["C1", "C2", "M1", "M2", "P1"]


def test_t27_latin_alphabet_buries_an_available_level_two_technology() -> None:
    """T27 Latin Alphabet (5 monuments in the Past): choose an available Level II technology
    (Level I ones are not offered, no "no") and put it at the bottom of the Level II deck. Tile C
    keeps 2 cards: no refill."""
    tiles = ["T9", "T26", None, "T27", None, None, "T28", "T29", "T30"]
    st = position(tiles=tiles, past=LATIN_PAST)
    top2 = codes(st, st.tech_decks[1][::-1])
    play(st, "learn", "T27")
    assert names_of(st) == ["T28", "T29", "T30"]
    play(st, "T29")
    assert tile_codes(st) == ["T9", "T26", None, None, None, None, "T28", None, "T30"]
    assert codes(st, st.tech_decks[1][::-1]) == [*top2, "T29"]  # top first: T29 at the bottom
    assert st.tech_discards == [[], []]
    assert at_action(st)


def test_t27_latin_alphabet_refills_a_tile_left_with_one_card() -> None:
    """T27: taking one of tile C's two cards leaves one; it is discarded and the tile is filled
    with 3 from the Level II deck (clarifications: then the refill rule applies)."""
    tiles = ["T9", "T26", None, "T27", None, None, "T28", "T29", None]
    st = position(tiles=tiles, past=LATIN_PAST)
    top3 = codes(st, st.tech_decks[1][::-1][:3])
    play(st, "learn", "T27", "T28")
    assert tile_codes(st)[6:] == top3
    assert codes(st, st.tech_discards[1]) == ["T29"]
    assert codes(st, st.tech_decks[1][:1]) == ["T28"]


def test_t27_latin_alphabet_after_the_flip_offers_level_two_on_a_flipped_tile() -> None:
    """T27 after the middle of the game: tile A is Level II; its cards are offered with tile
    C's; tile B's Level I cards are not."""
    tiles = ["T31", "T32", "T33", "T27", "T1", "T2", "T28", None, None]
    st = position(tiles=tiles, past=LATIN_PAST, tile_level=(2, 1, 2))
    play(st, "learn", "T27")
    assert names_of(st) == ["T28", "T31", "T32", "T33"]
    play(st, "T31")
    assert tile_codes(st) == [None, "T32", "T33", None, "T1", "T2", "T28", None, None]
    assert codes(st, st.tech_decks[1][:1]) == ["T31"]


def test_t27_latin_alphabet_without_level_two_available_does_nothing() -> None:
    """T27 with no Level II technology on the tiles: nothing happens (clarifications)."""
    tiles = ["T9", "T26", None, "T27", None, None, None, None, None]
    st = position(tiles=tiles, past=LATIN_PAST)
    deck2 = list(st.tech_decks[1])
    play(st, "learn", "T27")
    assert tile_codes(st) == ["T9", "T26", None, None, None, None, None, None, None]
    assert st.tech_decks[1] == deck2
    assert at_action(st)


def test_t27_latin_alphabet_needs_five_monuments_in_the_past() -> None:
    """T27 requirement: 5 monuments in the Past; with 4 it is not offered."""
    tiles = ["T9", "T26", None, "T27", None, None, "T28", None, None]
    assert offered(position(tiles=tiles, past=LATIN_PAST)) == ["T9", "T26", "T27"]
    st = position(tiles=tiles, past=LATIN_PAST[:4])
    assert offered(st) == ["T9", "T26"]


# ------------------------------------------------------------------ Level II: VP at the end

PAST7 = ["C1", "C2", "M1", "M2", "P1", "P2", "P3"]

LEVEL2: list[tuple[str, int, Mapping[str, Any], list[Mapping[str, Any]]]] = [
    # code, VP, a position meeting the requirement exactly, positions falling just short
    ("T28", 3, {"artifacts": ["A1", "A2", "A3", "A4"]}, [{"artifacts": ["A1", "A2", "A3"]}]),
    ("T29", 4, {"past": [f"M{k}" for k in range(1, 8)], "rotated": 3},
     [{"past": [f"{t}{k}" for t in "CMP" for k in range(1, 7)]}]),
    ("T30", 2, {"lost": 9}, [{"lost": 8}]),
    ("T31", 3, {"past": ["C1", "M2", "P1", "C6"]},
     [{"past": ["C1", "M2", "C6", "M8", "P7", "P8"]}]),
    ("T32", 3, {"past": ["P1", "P2", "P3", "P4"]}, [{"past": ["P1", "P2", "P3", "C1", "M1"]}]),
    ("T33", 2, {"techs": ["T1", "T2", "T3"]}, [{"techs": ["T1", "T2", "T10", "T19"]}]),
    ("T34", 2, {"past": ["C1", "C2", "C3"]}, [{"past": ["C1", "C2", "M1", "P1"]}]),
    ("T35", 2, {"techs": ["T10", "T11", "T12"]}, [{"techs": ["T10", "T11", "T1", "T19"]}]),
    ("T36", 2, {"hand": HAND10}, [{"hand": HAND9}]),
    ("T37", 4, {"past": PAST7, "lost": 3},
     [{"past": PAST7, "lost": 4}, {"past": PAST7[:6], "lost": 0}]),
    ("T38", 3, {"past": ["C1", "C2", "C3", "C4", "C5"]},
     [{"past": ["C1", "C2", "C3", "C4", "M1", "P1"]}]),
    ("T39", 5, {"past": ["C1", "C2", "C3", "M1", "M2", "M3", "P1", "P2", "P3"]},
     [{"past": ["C1", "C2", "C3", "C4", "M1", "M2", "M3", "P1", "P2"]}]),
    ("T40", 2, {"past": ["M1", "M2", "M3"]}, [{"past": ["M1", "M2", "C1", "P1"]}]),
    ("T41", 2, {"techs": ["T19", "T20", "T21"]}, [{"techs": ["T19", "T20", "T1", "T10"]}]),
    ("T42", 2, {"techs": ["T1", "T2", "T10", "T11", "T19", "T20"]},
     [{"techs": ["T1", "T2", "T10", "T11", "T19"]}]),
    ("T43", 2, {"past": [*PAST7, "C3", "M3", "P4"]}, [{"past": [*PAST7, "C3", "M3"]}]),
    ("T44", 4, {"lost": 15}, [{"lost": 14}]),
    ("T45", 4, {"past": ["M1", "M2", "M3", "M4", "M5"]},
     [{"past": ["M1", "M2", "M3", "M4", "C1", "C2", "P1"]}]),
]


@pytest.mark.parametrize(("code", "vp", "ok", "short"), LEVEL2, ids=[x[0] for x in LEVEL2])
def test_level_two_learned_at_its_requirement_scores_its_vp(
        code: str, vp: int, ok: Mapping[str, Any], short: list[Mapping[str, Any]]) -> None:
    """T28 Imhotep 3 (4 artifacts), T29 Plato 4 (7 of one type in the Past), T30 Thoth 2 (9
    lost), T31 Pythagoras 3 (3 end-game monuments in the Past), T32 Akhenaten 3 (4 pyramids),
    T33 Pliny 2 (3 ancient), T34 Golden Mean 2 (3 cities), T35 Royal Cubit 2 (3 secret), T36
    Astrology 2 (10 cards), T37 Alchemy 4 (7 monuments, at most 3 lost), T38 Hermeticism 3 (5
    cities), T39 Ari-kat 5 (3 of each type), T40 Chinese Alphabet 2 (3 megaliths), T41 Emerald
    Tablet 2 (3 writing), T42 Sumerian Cuneiforms 2 (6 technologies), T43 Maya Script 2 (10 in
    the Past), T44 Phoenician Alphabet 4 (15 lost), T45 Hieroglyphs 4 (5 megaliths): offered with
    the requirement met exactly (rotated Past cards count); learning it has no immediate effect
    and its VP go to score row 3 (RULES.md section 7), not to the end-game effects row."""
    st = at(code, deck_top=TOP, **ok)
    assert offered(st) == ["T9", "T26", code]
    before = snapshot(st)
    sheet = st.score()
    assert sheet.technologies == 0  # Level I technologies are worth no VP
    play(st, "learn", code)
    assert snapshot(st) == before
    assert code in codes(st, st.techs)
    assert st.score().technologies == vp
    assert st.score().total == sheet.total + vp  # rows 1, 2, 4 and 5 do not change
    assert at_action(st)


@pytest.mark.parametrize(("code", "vp", "ok", "short"), LEVEL2, ids=[x[0] for x in LEVEL2])
def test_level_two_not_offered_below_its_requirement(
        code: str, vp: int, ok: Mapping[str, Any], short: list[Mapping[str, Any]]) -> None:
    """T28-T45: one short of the requirement (for T37 Alchemy: 4 lost knowledge, or 6 monuments;
    for T28 a chest card does not count as an artifact, D11), Learn does not offer the card."""
    for kw in short:
        st = at(code, **kw)
        assert offered(st) == ["T9", "T26"], kw
    if code == "T28":
        st = at(code, artifacts=["A1", "A2", "A3"])
        put_chest(st, 3)
        assert offered(st) == ["T9", "T26"]


@pytest.mark.parametrize(("code", "vp"), [(x[0], x[1]) for x in LEVEL2],
                         ids=[x[0] for x in LEVEL2])
def test_level_two_scores_once_owned_whatever_the_board(code: str, vp: int) -> None:
    """T28-T45: the requirement is checked only when learning (clarifications); an owned Level
    II technology scores its VP at the end on any board; one left on a tile scores nothing."""
    st = position(techs=[code], lost=20, hand=[])
    assert st.score().technologies == vp
    assert st.score().lost_knowledge == -20
    st = position(tiles=[None] * 6 + [code, None, None])
    assert st.score().technologies == 0


LEVEL1 = [f"T{k}" for k in range(1, 28)]


def test_level_one_technologies_score_nothing() -> None:
    """T1-T27 (Level I) are worth no VP: row 3 counts Level II technologies (RULES.md 7)."""
    st = position(techs=LEVEL1)
    assert st.score().technologies == 0
    assert st.score().total == 0


def test_every_technology_is_tested_here() -> None:
    """Every technology code of the base set appears in this module's tests (the issue's
    coverage rule), and the data lists exactly T1-T45."""
    all_techs = sorted((c.code for c in book().cards if c.is_tech), key=lambda c: int(c[1:]))
    assert all_techs == [f"T{k}" for k in range(1, 46)]
    covered = {d[0] for d in DRAWS} | {x[0] for x in LEVEL2} | {e[0] for e in EACH} | {
        "T3", "T4", "T5", "T9", "T10", "T12", "T13", "T14", "T16", "T17", "T19", "T21", "T22",
        "T23", "T26", "T27"}
    assert covered == set(all_techs)


@pytest.mark.skipif(not REFERENCE.exists(), reason="reference card facts not available")
def test_technology_facts_match_the_reference() -> None:
    """T1-T45: name, type, level, activation and VP of the encoded cards (puzzles/data/cards/
    base.json) are the reference facts (RULES.md section 1: 27 Level I, 9 of each type; 18 Level
    II, 6 of each type; Level II VP as printed "N <VP>", Level I worth 0)."""
    ref = {t["id"].split("_")[0]: t for t in
           json.loads(REFERENCE.read_text(encoding="utf-8"))["technologies"]}
    ours = {t["code"]: t for t in json.loads(BASE.read_text(encoding="utf-8"))["technologies"]}
    assert sorted(ours) == sorted(ref)
    for code, r in ref.items():
        t = ours[code]
        assert (t["name"], t["type"], t["level"], t["activation"]) == (
            r["name"], r["type"], r["level"], r["activation"]), code
        vp = int(r["effect_reference"].split()[0]) if r["level"] == 2 else 0
        assert t["vp"] == vp, code
        assert bool(t["requirement"]) == (r["requirement_reference"] is not None), code
    for lv, per_type in ((1, 9), (2, 6)):
        for kind in ("ancient", "secret", "writing"):
            n = sum(1 for t in ours.values() if t["level"] == lv and t["type"] == kind)
            assert n == per_type, (lv, kind)
