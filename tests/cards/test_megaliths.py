"""Every megalith card (M1-M36): its effect, exactly, as the engine applies it.

Each test builds a position with `tests.builder.position`, reaches the card's activation moment
the way a player does (Create for immediate effects, ``phase="timeline"`` / ``"decline"`` for
Timeline and decline effects, the triggering action for "each time" effects, final scoring for
end-game effects) and asserts the exact outcome. Rules: RULES.md (sections cited per test) and
`reference/card-clarifications.md` ("Megaliths").
"""

from __future__ import annotations

import pytest

from solver.engine.create import legal_spaces
from solver.engine.frames import D_ACTION
from solver.engine.sheet import ScoreSheet
from solver.engine.state import GameState
from tests.builder import codes, hand, idx, layout, names_of, play, position, tok

# ------------------------------------------------------------------ helpers (this file only)


def past(st: GameState) -> set[str]:
    return set(codes(st, st.past))


def at_action(st: GameState, which: int) -> bool:
    """The pending decision is the choice of action `which` (0 = first, 1 = second) of a turn."""
    fr = st.pending()
    return fr is not None and fr[0] == D_ACTION and fr[1] == which


# Non-end-game monuments to fill the Past with, so that only the card under test scores row 2.
PLAIN_MEGALITHS = ["M8", "M9", "M10", "M11", "M12", "M13", "M14"]
PLAIN_PYRAMIDS = ["P7", "P8", "P9", "P10"]


# ================================================================== end-game cards (row 2)
# RULES.md section 7: row 2 is the VP of end-game effects of monuments in the Past only.

ENDGAME_CASES = [
    # (card, other Past cards, techs, lost, Timeline, expected row 2)
    pytest.param("M1", [], ["T1", "T10", "T19"], 0, {}, 2, id="M1-one-trio"),
    pytest.param("M1", [], ["T1", "T2", "T10", "T11", "T19", "T20", "T3"], 0, {}, 4,
                 id="M1-two-trios"),
    pytest.param("M1", [], ["T1", "T2", "T10", "T11"], 0, {}, 0, id="M1-no-writing"),
    pytest.param("M2", [], [], 15, {}, 9, id="M2-lost-15"),
    pytest.param("M2", [], [], 40, {}, 9, id="M2-lost-40"),
    pytest.param("M2", [], [], 14, {}, 0, id="M2-lost-14"),
    pytest.param("M3", PLAIN_PYRAMIDS[:3] + ["C12"], [], 0, {}, 3, id="M3-three-pyramids"),
    pytest.param("M3", ["C12", "M8"], [], 0, {}, 0, id="M3-no-pyramid"),
    pytest.param("M4", PLAIN_MEGALITHS[:6], [], 0, {}, 6, id="M4-itself-and-6-megaliths"),
    pytest.param("M4", PLAIN_MEGALITHS[:5] + ["C12"], [], 0, {}, 0, id="M4-6-megaliths"),
    pytest.param("M5", [], ["T1", "T2"], 0, {}, 0, id="M5-2-ancient"),
    pytest.param("M5", [], ["T1", "T2", "T3"], 0, {}, 4, id="M5-3-ancient"),
    pytest.param("M5", [], ["T1", "T2", "T3", "T4", "T10", "T19"], 0, {}, 4, id="M5-4-ancient"),
    pytest.param("M5", [], ["T1", "T2", "T3", "T4", "T5"], 0, {}, 7, id="M5-5-ancient"),
    pytest.param("M5", [], ["T1", "T2", "T3", "T4", "T5", "T28"], 0, {}, 7, id="M5-6-ancient"),
    pytest.param("M6", [], ["T19", "T20", "T1", "T10"], 0, {}, 0, id="M6-2-writing"),
    pytest.param("M6", [], ["T19", "T20", "T21"], 0, {}, 4, id="M6-3-writing"),
    pytest.param("M6", [], ["T19", "T20", "T21", "T22"], 0, {}, 4, id="M6-4-writing"),
    pytest.param("M6", [], ["T19", "T20", "T21", "T22", "T40"], 0, {}, 7, id="M6-5-writing"),
    pytest.param("M7", ["M8", "M9", "P7"], [], 0, {}, 3, id="M7-itself-and-2-megaliths"),
    pytest.param("M7", ["C12", "P7"], [], 0, {}, 1, id="M7-itself-only"),
    pytest.param("M19", [], [], 10, {}, 4, id="M19-lost-10"),
    pytest.param("M19", [], [], 9, {}, 0, id="M19-lost-9"),
    pytest.param("M32", [], [], 20, {}, 12, id="M32-lost-20"),
    pytest.param("M32", [], [], 19, {}, 0, id="M32-lost-19"),
    pytest.param("M33", [], [], 0, {2: ["C12"], 3: ["M8", "P7"]}, 3, id="M33-3-in-timeline"),
    pytest.param("M33", [], [], 0, {}, 0, id="M33-empty-timeline"),
]


@pytest.mark.parametrize(("card", "others", "techs", "lost", "tl", "expected"), ENDGAME_CASES)
def test_endgame_card_scores_from_the_past(card: str, others: list[str], techs: list[str],
                                           lost: int, tl: dict[int, list[str]],
                                           expected: int) -> None:
    """M1 M2 M3 M4 M5 M6 M7 M19 M32 M33 (end-game, RULES.md section 7 row 2): with the card in
    the Past, row 2 is exactly its printed rule (M1: 2 per ancient+secret+writing trio; M2: 9 at
    15+ lost; M3: 1 per Past pyramid; M4: 6 at 7+ Past megaliths, itself counted; M5/M6: 4 for
    3-4, 7 for 5+ ancient/writing techs; M7: 1 per Past megalith, itself counted; M19: 4 at 10+
    lost; M32: 12 at 20+ lost; M33: 1 extra per Timeline monument). The other rows are the
    usual ones (M33 stacks with row 4, clarifications)."""
    st = position(past=[card, *others], techs=techs, lost=lost, timeline=tl, time_space=6)
    sheet = st.score()
    assert sheet.effects == expected
    assert sheet.past == sum(st.card(c).vp for c in st.past)
    assert sheet.timeline == sum(len(v) for v in tl.values())
    assert sheet.lost_knowledge == -lost


@pytest.mark.parametrize(("card", "others", "techs", "lost", "expected_if_past"), [
    ("M1", [], ["T1", "T10", "T19"], 0, 2),
    ("M2", [], [], 15, 9),
    ("M3", ["P7", "P8"], [], 0, 2),
    ("M4", PLAIN_MEGALITHS, [], 0, 6),
    ("M5", [], ["T1", "T2", "T3", "T4", "T5"], 0, 7),
    ("M6", [], ["T19", "T20", "T21", "T22", "T23"], 0, 7),
    ("M7", ["M8", "M9"], [], 0, 3),
    ("M19", [], [], 10, 4),
    ("M32", [], [], 20, 12),
    ("M33", [], [], 0, 2),
])
def test_endgame_card_in_timeline_scores_nothing(card: str, others: list[str], techs: list[str],
                                                 lost: int, expected_if_past: int) -> None:
    """M1 M2 M3 M4 M5 M6 M7 M19 M32 M33 (RULES.md section 7; clarifications "end-game effects of
    Past cards only"): in the Timeline the card scores only its +1 of row 4, never row 2, even
    where the same position with it in the Past (`expected_if_past`) would score."""
    st = position(past=others, techs=techs, lost=lost, timeline={2: [card], 3: ["C12"]},
                  time_space=6)
    assert st.score() == ScoreSheet(
        past=sum(st.card(c).vp for c in st.past), effects=0,
        technologies=sum(st.card(t).vp for t in st.techs), timeline=2, lost_knowledge=-lost)
    # Control: the same card with the same facts in the Past does score (the C12 it counts
    # with M33 stays in the Timeline).
    in_past = position(past=[card, *others], techs=techs, lost=lost,
                       timeline={2: ["C12"], 3: ["C13"]} if card == "M33" else {}, time_space=6)
    assert in_past.score().effects == expected_if_past


def test_m33_stacks_with_the_timeline_row() -> None:
    """M33 Merchants' Table (clarifications: stacks with the normal +1 per Timeline monument):
    4 monuments in the Timeline score 4 in row 4 and 4 more in row 2; the total adds M33's 1
    printed VP and the lost knowledge."""
    st = position(past=["M33"], lost=2, timeline={2: ["C12", "M8"], 3: ["P7"], 5: ["C13"]},
                  time_space=6)
    assert st.score() == ScoreSheet(past=1, effects=4, technologies=0, timeline=4,
                                    lost_knowledge=-2)
    assert st.score().total == 7


# ================================================================== decline cards
# RULES.md section 4C step 2: the decline effect applies, then the card's knowledge becomes
# lost knowledge and it goes to the Past. The builder's phase="decline" runs the decline phase,
# the slide, the technology phase, and stops at the next turn's first action.


@pytest.mark.parametrize(("lost", "expected_lost"), [(10, 3 + 2), (4, 0 + 2), (7, 0 + 2)])
def test_m8_removes_7_lost_knowledge_with_5_megaliths_in_past(lost: int,
                                                              expected_lost: int) -> None:
    """M8 Dolmen of Gochang (decline; RULES.md D6, D22): with 5 megaliths already in the Past,
    7 lost knowledge are removed (as far as possible), then its own 2 tokens become lost."""
    st = position(timeline={1: ["M8"]}, tokens={"M8": 2}, lost=lost,
                  past=["M9", "M10", "M11", "M12", "M13"], phase="decline")
    assert at_action(st, 0) and st.turn == 2
    assert st.lost == expected_lost
    assert past(st) == {"M8", "M9", "M10", "M11", "M12", "M13"}
    assert layout(st) == {3: ["TIME"]}


def test_m8_does_not_count_itself() -> None:
    """M8 Dolmen of Gochang (clarifications: decline checks don't count the declining card):
    4 megaliths in the Past plus M8 itself is not enough; nothing is removed."""
    st = position(timeline={1: ["M8"]}, tokens={"M8": 2}, lost=10,
                  past=["M9", "M10", "M11", "M12", "P7"], phase="decline")
    assert st.lost == 12
    assert past(st) == {"M8", "M9", "M10", "M11", "M12", "P7"}


@pytest.mark.parametrize("card", ["M9", "M10", "M14", "M15"])
def test_opponent_only_decline_does_nothing_in_solo(card: str) -> None:
    """M9 Aramu Muru, M10 Fairies' Rock, M14 Kerloas, M15 Barabar Caves (RULES.md section 11:
    effects that target an opponent are ignored): the decline changes nothing but the usual
    move to the Past; hand, deck, discard pile and lost knowledge (M15 moves none of it) stay,
    and no decision is asked."""
    st = position(hand=["C1", "C2"], timeline={1: [card]}, tokens={card: 2}, lost=5,
                  deck_top=["P31"], phase="decline")
    assert at_action(st, 0) and st.turn == 2
    assert set(hand(st)) == {"C1", "C2"}
    assert codes(st, st.deck[-1:]) == ["P31"]
    assert st.discard == []
    assert st.lost == 5 + 2
    assert past(st) == {card}
    assert layout(st) == {3: ["TIME"]}


@pytest.mark.parametrize(("card", "space"), [("M9", 3), ("M13", 6), ("M14", 3)])
def test_locked_megalith_only_in_its_starting_space(card: str, space: int) -> None:
    """M9 (locked in space 3), M13 (locked in space 6), M14 (locked in space 3): a locked card
    may only be created in its starting space (RULES.md section 5, Create)."""
    st = position(hand=[card, "C1", "C2", "C3", "C4", "C5"], time_space=4)
    assert legal_spaces(st, idx(st, card), 5) == [space]
    # The single legal space is taken without asking; then the printed cost is paid.
    paid = {"M9": ["C1"], "M13": ["C1", "C2", "C3", "C4"], "M14": []}[card]
    play(st, "create", card, *paid)
    assert at_action(st, 1)
    assert layout(st)[space] == ([card, "TIME"] if space == 4 else [card])
    assert set(hand(st)) == {"C1", "C2", "C3", "C4", "C5"} - set(paid)


def test_m11_offers_only_creatable_monuments() -> None:
    """M11 Menhirs of Monteneuf (decline; clarifications: an optional Create at normal cost):
    the options are the monuments in hand that can be created now, and "no"; artifacts are not
    offered; C1 (cost 1 + distance) is affordable with the cards left."""
    st = position(hand=["C1", "M10", "M28", "A1"], timeline={1: ["M11"]}, tokens={"M11": 2},
                  phase="decline")
    assert names_of(st) == ["C1", "M10", "M28", "no"]


def test_m11_create_in_space_2_then_slides() -> None:
    """M11 (decline, yes): M10 created in space 2 at cost 0 gets its knowledge, M11 goes to the
    Past (2 lost knowledge), and the slide brings M10 to space 1 (clarifications M11)."""
    st = position(hand=["C1", "M10", "M28"], timeline={1: ["M11"]}, tokens={"M11": 2},
                  phase="decline")
    play(st, "M10", "s2")
    assert at_action(st, 0) and st.turn == 2
    assert layout(st) == {1: ["M10"], 3: ["TIME"]}
    assert tok(st, "M10") == 2
    assert past(st) == {"M11"}
    assert st.lost == 2
    assert set(hand(st)) == {"C1", "M28"}


def test_m11_create_in_space_1_declines_at_once() -> None:
    """M11 (decline, yes; RULES.md 4C, clarifications M11): a card created into space 1 (the
    upper place, above M11) declines right after M11: both reach the Past and both cards'
    knowledge becomes lost. M28 (start 1) costs nothing; M10 (start 2) would cost 1."""
    st = position(hand=["C1", "M10", "M28"], timeline={1: ["M11"]}, tokens={"M11": 2},
                  phase="decline")
    play(st, "M28")
    assert names_of(st) == ["s1", "s2", "s3"]  # 2 cards in hand: at most 2 spaces away
    play(st, "s1")
    assert at_action(st, 0)
    assert past(st) == {"M11", "M28"}
    assert st.lost == 2 + 2  # M11's 2 and M28's printed 2
    assert layout(st) == {3: ["TIME"]}
    assert set(hand(st)) == {"C1", "M10"}


def test_m11_card_created_in_space_1_declines_with_its_effect() -> None:
    """M11 (decline, yes; clarifications M11: "the new card declines immediately afterwards,
    effect included"): M12 (start 2, cost 2) into space 1 costs 3 discards; then M12 declines
    and its own decline effect draws 4 cards."""
    st = position(hand=["M12", "C1", "C2", "C3"], timeline={1: ["M11"]}, tokens={"M11": 1},
                  deck_top=["P31", "P32", "P33", "P34", "P35"], phase="decline")
    play(st, "M12", "s1")  # paying 3 of 3 cards is no choice: all three are discarded
    assert at_action(st, 0)
    assert past(st) == {"M11", "M12"}
    assert set(hand(st)) == {"P31", "P32", "P33", "P34"}
    assert st.lost == 1 + 2
    assert set(codes(st, st.discard)) == {"C1", "C2", "C3"}


def test_m11_paid_create_in_space_1() -> None:
    """M11 (decline, yes): normal cost applies; M10 (start 2, cost 0) into space 1 costs 1
    discard, chosen by the player."""
    st = position(hand=["C1", "C2", "M10"], timeline={1: ["M11"]}, tokens={"M11": 0},
                  phase="decline")
    play(st, "M10", "s1")
    assert names_of(st) == ["C1", "C2"]
    play(st, "C2")
    assert past(st) == {"M11", "M10"}
    assert set(hand(st)) == {"C1"}
    assert codes(st, st.discard) == ["C2"]
    assert st.lost == 2


def test_m11_declined() -> None:
    """M11 (decline, no): nothing is created; hand and Timeline unchanged but for the decline."""
    st = position(hand=["C1", "M10", "M28"], timeline={1: ["M11"]}, tokens={"M11": 2},
                  phase="decline")
    play(st, "no")
    assert at_action(st, 0)
    assert set(hand(st)) == {"C1", "M10", "M28"}
    assert layout(st) == {3: ["TIME"]}
    assert past(st) == {"M11"}
    assert st.lost == 2


def test_m11_nothing_creatable_asks_nothing() -> None:
    """M11 (decline): with no creatable monument in hand (only an artifact) no decision."""
    st = position(hand=["A1"], timeline={1: ["M11"]}, tokens={"M11": 1}, phase="decline")
    assert at_action(st, 0)
    assert set(hand(st)) == {"A1"}
    assert past(st) == {"M11"}
    assert st.lost == 1


@pytest.mark.parametrize(("start_hand", "drawn"), [
    (["C1", "C2"], ["P31", "P32", "P33", "P34"]),
    (["C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8"], ["P31", "P32"]),
    (["C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9", "C10"], []),
])
def test_m12_draws_4(start_hand: list[str], drawn: list[str]) -> None:
    """M12 Statues of Ramesses II (decline): draw 4, stopping at 10 cards in hand (RULES.md
    D4): 2 -> 6, 8 -> 10 (2 drawn), 10 -> 10 (none)."""
    st = position(hand=start_hand, timeline={1: ["M12"]}, tokens={"M12": 1},
                  deck_top=["P31", "P32", "P33", "P34", "P35"], phase="decline")
    assert set(hand(st)) == set(start_hand) | set(drawn)
    assert past(st) == {"M12"}
    assert st.lost == 1


@pytest.mark.parametrize(("lost", "expected"), [(20, 5 + 3), (35, 20 + 3), (19, 19 + 3),
                                                (18, 18 + 3)])
def test_m13_removes_15_lost_with_20(lost: int, expected: int) -> None:
    """M13 Carnac Standing Stones (decline; clarifications: lost knowledge is read before its
    own tokens are added): 20+ lost -> remove 15, then its 3 tokens are lost; with 18 or 19
    (21 or 22 once its tokens are added) nothing is removed."""
    st = position(timeline={1: ["M13"]}, tokens={"M13": 3}, lost=lost, phase="decline")
    assert st.lost == expected
    assert past(st) == {"M13"}


TILES_FOR_M34 = ["T1", "T2", "T3", "T23", "T24", "T25", "T28", "T29", "T30"]


def test_m34_offers_every_available_technology() -> None:
    """M34 Montguyon Dolmen (decline; clarifications: optional Learn from any tile, ignoring
    requirements): all nine available technologies are offered, though the player meets only
    T3's requirement, and "no"."""
    st = position(timeline={1: ["M34"]}, tokens={"M34": 1}, tiles=TILES_FOR_M34,
                  phase="decline")
    assert names_of(st) == [*TILES_FOR_M34, "no"]


def test_m34_learns_ignoring_requirement() -> None:
    """M34 (decline, yes): T28 (needs 4 artifacts; none here) joins the collection; its tile C
    keeps 2 cards so nothing is refilled; at the end it scores its 3 VP in row 3."""
    st = position(timeline={1: ["M34"]}, tokens={"M34": 1}, tiles=TILES_FOR_M34,
                  phase="decline")
    play(st, "T28")
    assert at_action(st, 0)
    assert codes(st, st.techs) == ["T28"]
    assert codes(st, st.tile_cards(2)) == ["T29", "T30"]
    assert past(st) == {"M34"}
    assert st.score().technologies == 3


def test_m34_declined() -> None:
    """M34 (decline, no): nothing learned."""
    st = position(timeline={1: ["M34"]}, tokens={"M34": 1}, tiles=TILES_FOR_M34,
                  phase="decline")
    play(st, "no")
    assert st.techs == []
    assert past(st) == {"M34"}
    assert st.lost == 1


def test_m34_no_technology_available() -> None:
    """M34 (decline): with empty tiles there is nothing to learn and nothing is asked."""
    st = position(timeline={1: ["M34"]}, tokens={"M34": 1}, phase="decline")
    assert at_action(st, 0)
    assert st.techs == []
    assert past(st) == {"M34"}


# ================================================================== immediate effects


def test_m16_offers_artifacts_only() -> None:
    """M16 Diquís Stone Spheres (immediate; clarifications: an optional artifact Create, pay
    its discard, needs a free slot): the options are the artifacts in hand and "no"."""
    st = position(hand=["M16", "C1", "M10", "A1", "A30"])
    play(st, "create", "M16", "s2")
    assert names_of(st) == ["A1", "A30", "no"]


def test_m16_creates_an_artifact_paying_its_cost() -> None:
    """M16 (immediate, yes): A30 (discard cost 1) is created, paying 1 chosen card."""
    st = position(hand=["M16", "C1", "M10", "A1", "A30"])
    play(st, "create", "M16", "s2", "A30")
    assert names_of(st) == ["C1", "M10", "A1"]
    play(st, "M10")
    assert at_action(st, 1)
    assert codes(st, st.board_artifacts()) == ["A30"]
    assert set(hand(st)) == {"C1", "A1"}
    assert codes(st, st.discard) == ["M10"]
    assert layout(st) == {2: ["M16"], 4: ["TIME"]}
    assert tok(st, "M16") == 3


def test_m16_declined() -> None:
    """M16 (immediate, no): no artifact; the hand keeps both artifacts."""
    st = position(hand=["M16", "C1", "A1", "A30"])
    play(st, "create", "M16", "s2", "no")
    assert at_action(st, 1)
    assert st.board_artifacts() == []
    assert set(hand(st)) == {"C1", "A1", "A30"}


def test_m16_no_free_artifact_space() -> None:
    """M16 (immediate): with all 5 artifact spaces taken nothing is asked."""
    st = position(hand=["M16", "C1", "A1"], artifacts=["A2", "A4", "A5", "A9", "A10"])
    play(st, "create", "M16", "s2")
    assert at_action(st, 1)
    assert set(hand(st)) == {"C1", "A1"}
    assert codes(st, st.board_artifacts()) == ["A2", "A4", "A5", "A9", "A10"]


@pytest.mark.parametrize(("card", "past_cards", "expected"), [
    ("M17", ["M8", "M9", "M10"], 6 - 5),
    ("M17", ["M8", "M9", "C12", "P7"], 6),
    ("M21", ["M8", "M9", "M10", "M11"], 7 - 6),
    ("M21", ["M8", "M9", "M10", "C12"], 7),
])
def test_self_discount_with_past_megaliths(card: str, past_cards: list[str],
                                           expected: int) -> None:
    """M17 Fort Samaipata (5 fewer with 3+ Past megaliths), M21 Baalbek Trilithon (6 fewer with
    4+): the knowledge put on the card at Create (RULES.md section 5)."""
    st = position(hand=[card, "C1"], past=past_cards)
    start = st.card(idx(st, card)).starting_space
    play(st, "create", card, f"s{start}")
    assert at_action(st, 1)
    assert layout(st)[start][0] == card
    assert tok(st, card) == expected


def test_m17_discount_stacks_with_m20_floored_at_0() -> None:
    """M17 with M20 in play (clarifications: self-discounts stack with reducers, floor 0):
    6 - 5 - 1 = 0."""
    st = position(hand=["M17", "C1"], past=["M8", "M9", "M10"], timeline={5: ["M20"]})
    play(st, "create", "M17", "s2")
    assert tok(st, "M17") == 0


def test_m18_offers_monuments_only() -> None:
    """M18 Dolmen of Menga (immediate; clarifications: an optional full Create of any
    monument): the options are the creatable monuments in hand and "no", no artifact."""
    st = position(hand=["M18", "C12", "M10", "P18", "A1"])
    play(st, "create", "M18", "s6")
    assert names_of(st) == ["C12", "M10", "P18", "no"]


def test_m18_extra_create_is_a_full_create() -> None:
    """M18 (immediate, yes): C12 is created in space 1 at its normal cost (0) and its own
    immediate effect (remove 1 lost knowledge) applies."""
    st = position(hand=["M18", "C12", "M10", "A1"], lost=3)
    play(st, "create", "M18", "s6", "C12", "s1")
    assert at_action(st, 1)
    assert layout(st) == {1: ["C12"], 4: ["TIME"], 6: ["M18"]}
    assert tok(st, "C12") == 2 and tok(st, "M18") == 3
    assert st.lost == 2
    assert set(hand(st)) == {"M10", "A1"}


def test_m18_extra_create_pays_distance() -> None:
    """M18 (immediate, yes): M10 (start 2, cost 0) in space 5 costs 3 discards."""
    st = position(hand=["M18", "M10", "C1", "C2", "C3", "C4"])
    play(st, "create", "M18", "s6", "M10", "s5")
    assert names_of(st) == ["C1", "C2"]
    play(st, "C1", "C2", "C3")
    assert layout(st) == {4: ["TIME"], 5: ["M10"], 6: ["M18"]}
    assert set(hand(st)) == {"C4"}
    assert set(codes(st, st.discard)) == {"C1", "C2", "C3"}


def test_m18_declined() -> None:
    """M18 (immediate, no): nothing more is created."""
    st = position(hand=["M18", "C12", "M10"])
    play(st, "create", "M18", "s6", "no")
    assert at_action(st, 1)
    assert layout(st) == {4: ["TIME"], 6: ["M18"]}
    assert set(hand(st)) == {"C12", "M10"}


@pytest.mark.parametrize(("m20_where", "card", "space", "paid", "expected"), [
    ("timeline", "M10", 2, [], 2 - 1),
    ("timeline", "M12", 2, ["C1", "C2"], 2 - 1),
    ("timeline", "P36", 2, [], 3),
    ("timeline", "C12", 1, [], 2),
    ("past", "M10", 2, [], 2),
])
def test_m20_reduces_other_megaliths(m20_where: str, card: str, space: int, paid: list[str],
                                     expected: int) -> None:
    """M20 Colossi of Memnon (anytime, passive; RULES.md section 5): while it is in the
    Timeline, another megalith enters with 1 knowledge fewer; cities and pyramids are not
    affected; from the Past it reduces nothing."""
    in_tl = m20_where == "timeline"
    st = position(hand=[card, "C1", "C2", "C3"], timeline={5: ["M20"]} if in_tl else {},
                  past=[] if in_tl else ["M20"])
    play(st, "create", card, f"s{space}", *paid)
    assert at_action(st, 1)
    assert tok(st, card) == expected


def test_m20_does_not_reduce_itself() -> None:
    """M20 (clarifications: the new card never reduces itself): created, it gets its 2."""
    st = position(hand=["M20", "C1"])
    play(st, "create", "M20", "s5")
    assert tok(st, "M20") == 2


def test_m23_every_other_megalith_loses_1() -> None:
    """M23 Standing Stones of Stenness (immediate; clarifications: automatic, other megaliths
    only): each other megalith with knowledge loses 1 (none below 0); cities keep theirs; M23
    keeps its own 2. Its cost 1 is paid first."""
    st = position(hand=["M23", "C1", "C2"],
                  timeline={2: ["M10", "C6"], 3: ["M12", "M29"], 6: ["C13"]},
                  tokens={"M10": 2, "C6": 2, "M12": 0, "M29": 1, "C13": 3})
    play(st, "create", "M23", "s5", "C2")
    assert at_action(st, 1)
    assert {c: tok(st, c) for c in ["M10", "C6", "M12", "M29", "C13", "M23"]} == {
        "M10": 1, "C6": 2, "M12": 0, "M29": 0, "C13": 3, "M23": 2}
    assert set(hand(st)) == {"C1"}


@pytest.mark.parametrize("card", ["M24", "M25", "M28"])
def test_opponent_only_immediate_does_nothing_in_solo(card: str) -> None:
    """M24 Tlaloc's Statue, M25 Great Sphinx, M28 Cauria (immediate, opponents only; RULES.md
    section 11): the Create places the card with its knowledge and nothing else happens: no
    decision, no token on any other monument, hand and lost knowledge unchanged."""
    start = {"M24": 3, "M25": 2, "M28": 1}[card]
    st = position(hand=[card, "C1", "C2"], timeline={5: ["M10"]}, tokens={"M10": 1}, lost=2)
    play(st, "create", card, f"s{start}")
    assert at_action(st, 1)
    assert layout(st) == {start: [card], 4: ["TIME"], 5: ["M10"]}
    assert tok(st, card) == st.card(idx(st, card)).knowledge
    assert tok(st, "M10") == 1
    assert set(hand(st)) == {"C1", "C2"}
    assert st.lost == 2
    assert st.discard == []


def test_m27_offers_megaliths_only() -> None:
    """M27 Masuda Iwafune (immediate; clarifications: optional full Create, megaliths only):
    the options are the creatable megaliths in hand and "no"."""
    st = position(hand=["M27", "C12", "M10", "M28", "P18", "A1"])
    play(st, "create", "M27", "s3")
    assert names_of(st) == ["M10", "M28", "no"]


def test_m27_creates_a_megalith() -> None:
    """M27 (immediate, yes): M10 is created in space 2 with its knowledge."""
    st = position(hand=["M27", "C12", "M10"])
    play(st, "create", "M27", "s3", "M10", "s2")
    assert at_action(st, 1)
    assert layout(st) == {2: ["M10"], 3: ["M27"], 4: ["TIME"]}
    assert tok(st, "M10") == 2 and tok(st, "M27") == 2
    assert set(hand(st)) == {"C12"}


def test_m27_declined() -> None:
    """M27 (immediate, no): nothing more is created."""
    st = position(hand=["M27", "C12", "M10"])
    play(st, "create", "M27", "s3", "no")
    assert at_action(st, 1)
    assert set(hand(st)) == {"C12", "M10"}
    assert layout(st) == {3: ["M27"], 4: ["TIME"]}


def test_m27_without_megalith_in_hand() -> None:
    """M27 (immediate): no megalith in hand, no decision (a city is not offered)."""
    st = position(hand=["M27", "C12", "P18"])
    play(st, "create", "M27", "s3")
    assert at_action(st, 1)
    assert set(hand(st)) == {"C12", "P18"}


# ================================================================== "each time" triggers


def test_m22_writing_learn_removes_1_and_draws_1() -> None:
    """M22 Hire Benakal (anytime; clarifications C11/M22/P21: after a writing Learn remove 1,
    then draw 1): learning T21 (writing: draw 1) draws its card first, then M22 asks which
    monument loses 1 (any monument with knowledge, M22 included) and draws 1 more."""
    st = position(hand=["C1"], timeline={3: ["C12"], 5: ["M22"], 6: ["M10"]},
                  tokens={"C12": 3, "M22": 2, "M10": 0}, tiles=["T21", "T5", "T9"] + [None] * 6,
                  deck_top=["P31", "P32", "P33"])
    play(st, "learn", "T21")
    assert names_of(st) == ["@C12", "@M22"]
    play(st, "@C12")
    assert at_action(st, 1)
    assert tok(st, "C12") == 2 and tok(st, "M22") == 2
    assert set(hand(st)) == {"C1", "P31", "P32"}
    assert codes(st, st.techs) == ["T21"]


def test_m22_single_target_taken_without_asking() -> None:
    """M22 (anytime): with one monument holding knowledge, the token leaves it at once."""
    st = position(timeline={5: ["M22"]}, tokens={"M22": 2},
                  tiles=["T26", "T5", "T9"] + [None] * 6, deck_top=["P31", "P32"])
    play(st, "learn", "T26")
    assert at_action(st, 1)
    assert tok(st, "M22") == 1
    assert set(hand(st)) == {"P31"}


def test_m22_ignores_other_technology_types() -> None:
    """M22 (anytime): an ancient technology (T5: remove 1 lost, draw 1) does not trigger it."""
    st = position(timeline={3: ["C12"], 5: ["M22"]}, tokens={"C12": 3, "M22": 2}, lost=2,
                  tiles=["T21", "T5", "T9"] + [None] * 6, deck_top=["P31", "P32"])
    play(st, "learn", "T5")
    assert at_action(st, 1)
    assert tok(st, "C12") == 3 and tok(st, "M22") == 2
    assert set(hand(st)) == {"P31"}
    assert st.lost == 1


def test_m26_artifact_create_removes_1_and_draws_1() -> None:
    """M26 Chabola de la Hechicera (anytime; clarifications: after each artifact Create remove
    1, then draw 1): creating A1 asks which monument with knowledge loses 1, then draws."""
    st = position(hand=["A1", "C1"], timeline={2: ["M10"], 3: ["C12"], 6: ["M26"]},
                  tokens={"M10": 0, "C12": 2, "M26": 3}, deck_top=["P31"])
    play(st, "create", "A1")
    assert names_of(st) == ["@C12", "@M26"]
    play(st, "@M26")
    assert at_action(st, 1)
    assert tok(st, "C12") == 2 and tok(st, "M26") == 2
    assert set(hand(st)) == {"C1", "P31"}
    assert codes(st, st.board_artifacts()) == ["A1"]


def test_m26_ignores_monument_creates() -> None:
    """M26 (anytime): creating a monument does not trigger it."""
    st = position(hand=["C12", "C1"], timeline={6: ["M26"]}, tokens={"M26": 3},
                  deck_top=["P31"])
    play(st, "create", "C12", "s1")
    assert at_action(st, 1)
    assert tok(st, "M26") == 3
    assert set(hand(st)) == {"C1"}


def test_m26_with_nested_artifact_create_of_m16() -> None:
    """M26 with M16 (clarifications M26: after each artifact Create, nested ones included):
    M16's granted artifact Create triggers M26 (the only monument with knowledge is M16)."""
    st = position(hand=["M16", "A1", "C1"], timeline={6: ["M26"]}, tokens={"M26": 0},
                  deck_top=["P31"])
    play(st, "create", "M16", "s2", "A1")
    assert at_action(st, 1)
    assert tok(st, "M16") == 2
    assert set(hand(st)) == {"C1", "P31"}


# ================================================================== Timeline effects
# RULES.md section 4B. The builder's phase="timeline" resolves the phase (a single effect is
# not a choice), then the decline phase (space 1 is empty), the slide and the technology phase.


@pytest.mark.parametrize(("card", "lost", "past_cards", "expected"), [
    ("M29", 5, [], 4),
    ("M29", 9, [], 8),
    ("M29", 4, [], 4),
    ("M30", 2, ["M8", "M9", "M10"], 1),
    ("M30", 0, ["M8", "M9", "M10"], 0),
    ("M30", 2, ["M8", "M9", "C12"], 2),
    ("M31", 1, [], 0),
    ("M31", 6, [], 5),
    ("M31", 0, [], 0),
])
def test_timeline_lost_knowledge_removal(card: str, lost: int, past_cards: list[str],
                                         expected: int) -> None:
    """M29 Ishibutai Kofun (5+ lost: remove 1), M30 Leshan Giant Buddha (3+ Past megaliths:
    remove 1), M31 Ħaġar Qim (remove 1, as far as possible, RULES.md D22): the lost knowledge
    after one Timeline phase; an unmet condition removes nothing."""
    st = position(hand=["C1"], timeline={3: [card]}, tokens={card: 2}, lost=lost,
                  past=past_cards, phase="timeline")
    assert at_action(st, 0) and st.turn == 2
    assert st.lost == expected
    assert layout(st) == {2: [card], 3: ["TIME"]}
    assert tok(st, card) == 2


def test_m35_adjacent_cities_lose_1() -> None:
    """M35 Ġgantija (Timeline; RULES.md D5, clarifications "adjacent -1 cards"): each city
    orthogonally adjacent (the other place of its space, the same row left and right) with
    knowledge loses 1; diagonal cities, adjacent megaliths, and M35 itself keep theirs."""
    st = position(hand=["P1"],
                  timeline={2: ["C1", "C2"], 3: ["M35", "C3"], 4: ["C4", "C5"], 5: ["C13"]},
                  tokens={"C1": 3, "C2": 3, "M35": 1, "C3": 2, "C4": 0, "C5": 2, "C13": 2},
                  time_space=6, phase="timeline")
    assert at_action(st, 0)
    assert {c: tok(st, c) for c in ["C1", "C2", "M35", "C3", "C4", "C5", "C13"]} == {
        "C1": 2, "C2": 3, "M35": 1, "C3": 1, "C4": 0, "C5": 2, "C13": 2}
    assert layout(st) == {1: ["C1", "C2"], 2: ["M35", "C3"], 3: ["C4", "C5"], 4: ["C13"],
                            5: ["TIME"]}


def test_m35_upper_place_neighbours() -> None:
    """M35 in an upper place: its neighbours are the lower card of its space and the upper
    cards left and right; a megalith neighbour is not affected."""
    st = position(timeline={2: ["C1", "C2"], 3: ["C3", "M35"], 4: ["C4", "M10"]},
                  tokens={"C1": 3, "C2": 3, "C3": 2, "C4": 2, "M10": 2, "M35": 1},
                  time_space=6, phase="timeline")
    assert {c: tok(st, c) for c in ["C1", "C2", "C3", "C4", "M10", "M35"]} == {
        "C1": 3, "C2": 2, "C3": 1, "C4": 2, "M10": 2, "M35": 1}


# ================================================================== M36 Poulnabrone Dolmen

ELEVEN_PAST = ["C2", "C3", "C4", "C5", "C6", "P1", "P2", "P3", "P4", "P5", "P6"]


def test_m36_offers_an_extra_monument_create() -> None:
    """M36 Poulnabrone Dolmen (anytime; clarifications M36: with 11+ Past cards, any monument
    Create other than itself grants an optional extra monument Create): creating C12 forms a
    group (C12's effect, M36's) ordered by the player (D15); M36 then offers the monuments in
    hand and "no", never an artifact."""
    st = position(hand=["C12", "M10", "M28", "A1"], timeline={6: ["M36"]}, past=ELEVEN_PAST,
                  lost=1)
    play(st, "create", "C12", "s1")
    assert names_of(st) == ["!C12", "!M36"]
    play(st, "!M36")
    assert names_of(st) == ["M10", "M28", "no"]


def test_m36_extra_create_does_not_retrigger() -> None:
    """M36 (yes): M10 is created in space 2; the Create that M36 granted does not trigger M36
    again, so the turn goes on to the second action."""
    st = position(hand=["C12", "M10", "M28", "A1"], timeline={6: ["M36"]}, past=ELEVEN_PAST,
                  lost=1)
    play(st, "create", "C12", "s1", "!M36", "M10", "s2")
    assert at_action(st, 1)
    assert layout(st) == {1: ["C12"], 2: ["M10"], 4: ["TIME"], 6: ["M36"]}
    assert st.lost == 0  # C12's own effect resolved after M36's
    assert set(hand(st)) == {"M28", "A1"}


def test_m36_declined() -> None:
    """M36 (no): nothing more is created; C12's effect still applies."""
    st = position(hand=["C12", "M10", "A1"], timeline={6: ["M36"]}, past=ELEVEN_PAST, lost=1)
    play(st, "create", "C12", "s1", "!C12", "no")
    assert at_action(st, 1)
    assert st.lost == 0
    assert set(hand(st)) == {"M10", "A1"}


def test_m36_creates_granted_by_the_new_card_trigger_it() -> None:
    """M36 (clarifications: Creates granted by the new card do trigger it): M36 grants M18; M18
    grants M10; M10's Create is not M36's own grant, so M36 offers another Create (P36), whose
    Create (M36's own grant again) offers nothing more."""
    st = position(hand=["C12", "M18", "M10", "P36"], timeline={5: ["M36"]},
                  past=ELEVEN_PAST)
    play(st, "create", "C12", "s1", "!M36", "M18", "s6")
    # M18's own effect: an optional monument Create
    assert names_of(st) == ["M10", "P36", "no"]
    play(st, "M10", "s2")
    # M10 has no immediate effect: M36's grant is the whole Create group
    assert names_of(st) == ["P36", "no"]
    play(st, "P36")  # the last card: only space 2 costs nothing, taken without asking
    assert at_action(st, 1)
    assert layout(st) == {1: ["C12"], 2: ["M10", "P36"], 4: ["TIME"], 5: ["M36"],
                            6: ["M18"]}
    assert st.hand == []


@pytest.mark.parametrize("n_past", [10, 0])
def test_m36_needs_11_past_cards(n_past: int) -> None:
    """M36: with fewer than 11 cards in the Past it grants nothing."""
    st = position(hand=["M28", "M10", "C1"], timeline={6: ["M36"]}, past=ELEVEN_PAST[:n_past])
    play(st, "create", "M28", "s1")
    assert at_action(st, 1)
    assert set(hand(st)) == {"M10", "C1"}


def test_m36_artifact_create_does_not_trigger() -> None:
    """M36: an artifact Create is not a monument Create."""
    st = position(hand=["A1", "M10", "C1"], timeline={6: ["M36"]}, past=ELEVEN_PAST)
    play(st, "create", "A1")
    assert at_action(st, 1)
    assert set(hand(st)) == {"M10", "C1"}


def test_m36_creating_itself_does_not_trigger() -> None:
    """M36: the Create of M36 itself grants nothing ("a monument other than this one")."""
    st = position(hand=["M36", "M10", "C1"], past=ELEVEN_PAST)
    play(st, "create", "M36", "s6")
    assert at_action(st, 1)
    assert layout(st) == {4: ["TIME"], 6: ["M36"]}
    assert set(hand(st)) == {"M10", "C1"}
