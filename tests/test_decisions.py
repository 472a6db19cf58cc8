"""One test per decision D1..D22 of RULES.md section 13: the engine does what each one says.

Each test is named after its decision and cites it; positions use real cards of
`puzzles/data/cards/base.json` (tests/builder.position). D14, D16 and D17 are tested through the
solo-modes layer (`puzzles.chests`, `puzzles.campaign`, `solver.engine.chests`,
`solver.engine.goals`).
"""

from __future__ import annotations

import dataclasses

import pytest

from puzzles.campaign import new_campaign, reveal
from puzzles.cardsets import load_book
from puzzles.chests import load_chests
from solver.engine import actions as A
from solver.engine import flow
from solver.engine.actions import CHEST_LETTERS
from solver.engine.chests import place_goal
from solver.engine.conditions import count
from solver.engine.frames import D_ACTION, D_ORDER
from solver.engine.goal_check import evaluate
from solver.engine.learn import learnable
from solver.engine.newgame import new_game
from solver.engine.setup import Setup
from solver.engine.sheet import ScoreSheet
from solver.engine.state import CHEST_BASE, EMPTY, GameState
from tests.builder import codes, idx, names_of, play, position, tile_codes

TILES = ["T1", "T2", "T3", "T4", "T5", "T6", "T28", "T29", "T30"]


def rows(st: GameState) -> tuple[int, int, int, int, int]:
    s = st.score()
    return (s.past, s.effects, s.technologies, s.timeline, s.lost_knowledge)


def learnable_codes(st: GameState) -> list[str]:
    return codes(st, learnable(st, False))


# ---------------------------------------------------------------- D1


def test_d1_five_score_rows_plus_one_per_timeline_monument_no_artifact_penalty() -> None:
    """D1: the sheet has exactly five rows; each Timeline monument is +1 (not -1); artifacts on
    the board cost nothing."""
    fields = [f.name for f in dataclasses.fields(ScoreSheet)]
    assert fields == ["past", "effects", "technologies", "timeline", "lost_knowledge"]
    st = position(timeline={2: ["C6"], 3: ["M1", "M3"]}, artifacts=["A1", "A5", "A8"])
    assert rows(st) == (0, 0, 0, 3, 0)
    assert st.score().total == 3


# ---------------------------------------------------------------- D2


def test_d2_knowledge_on_create_archive_removes_decline_loses_learn_is_free() -> None:
    """D2: Toniná (P31) enters with its 4 knowledge; archiving 2 cards removes 2; the 2 left on
    it become lost knowledge when it declines; learning a technology costs no card and no
    knowledge (only its requirement)."""
    st = position(hand=["P31", "C1", "C2", "C3"], timeline={1: ["C5"]}, time_space=6)
    play(st, "create", "P31", "s4")
    assert st.tokens[idx(st, "P31")] == 4
    play(st, "archive", "C1", "C2", "done")  # 2 tokens, only P31 holds any: automatic
    assert st.tokens[idx(st, "P31")] == 2
    assert codes(st, st.discard) == ["C1", "C2"]
    assert st.lost == 0 and codes(st, st.past) == ["C5"]  # C5 held no knowledge

    st = position(timeline={1: ["P31"]}, tokens={"P31": 2}, phase="decline")
    assert codes(st, st.past) == ["P31"] and st.lost == 2

    st = position(hand=["C1", "C2"], tiles=["T26", "T9", None, None, None, None, None, None, None],
                  lost=3, timeline={3: ["P31"]}, tokens={"P31": 4})
    play(st, "learn", "T26")  # Cretan Hieroglyphs: an opponents-only effect, so nothing else
    assert codes(st, st.techs) == ["T26"]
    assert codes(st, st.hand) == ["C1", "C2"]
    assert st.lost == 3 and st.tokens[idx(st, "P31")] == 4


# ---------------------------------------------------------------- D3


def test_d3_45_technologies_on_three_tiles_of_three_slots() -> None:
    """D3: 27 Level I (9 a type) and 18 Level II (6 a type); tiles A and B hold 3 Level I cards,
    tile C 3 Level II cards at the start."""
    book = load_book(["base"])
    techs = book.technologies
    assert len(techs) == 45
    for level, per_type in ((1, 9), (2, 6)):
        for kind in range(3):
            assert sum(1 for t in techs if t.level == level and t.kind == kind) == per_type
    st = new_game(Setup(seed=7), book)
    assert len(st.tiles) == 9 and EMPTY not in st.tiles
    assert [book[c].level for c in st.tiles] == [1, 1, 1, 1, 1, 1, 2, 2, 2]
    assert st.tile_level == [1, 1, 2]
    assert len(st.tech_decks[0]) == 21 and len(st.tech_decks[1]) == 15


# ---------------------------------------------------------------- D4


def test_d4_every_draw_or_take_stops_at_ten() -> None:
    """D4: no discard-down. Hermes Trismegistus (T3) with 9 in hand: 5 revealed, only 1 kept,
    4 discarded; Thales (T4) with 10 in hand: the 8 looked at are all discarded, none kept;
    Jericho's draw 6 with 8 in hand draws 2."""
    nine = [f"C{i}" for i in range(1, 10)]
    st = position(hand=nine, tiles=["T3"] + [None] * 8)
    play(st, "learn")  # the only technology: taken automatically
    assert names_of(st) == ["C10", "C11", "C12", "C13", "C14"]
    play(st, "C12")
    assert len(st.hand) == 10 and idx(st, "C12") in st.hand
    assert codes(st, st.discard) == ["C10", "C11", "C13", "C14"]

    ten = [f"C{i}" for i in range(1, 11)]
    st = position(hand=ten, tiles=["T4"] + [None] * 8)
    hand = list(st.hand)
    play(st, "learn")
    assert st.hand == hand and st.limbo == []
    assert codes(st, st.discard) == [f"C{i}" for i in range(11, 19)]

    st = position(hand=nine[:8], timeline={1: ["C17"]}, phase="decline")
    assert len(st.hand) == 10


# ---------------------------------------------------------------- D5


def test_d5_adjacency_is_orthogonal() -> None:
    """D5: the other place of the same space and the same row of the spaces left and right;
    no diagonals. Ollantaytambo (C6, lower place of space 3) takes 1 from each adjacent city:
    C1 above it, C2 (space 2, lower), C4 (space 4, lower), not C3 (space 4, upper: diagonal)."""
    st = position(timeline={2: ["C2"], 3: ["C6", "C1"], 4: ["C4", "C3"]},
                  tokens={"C1": 2, "C2": 2, "C3": 2, "C4": 2, "C6": 2}, time_space=6)
    assert sorted(codes(st, st.adjacent(idx(st, "C6")))) == ["C1", "C2", "C4"]
    assert sorted(codes(st, st.adjacent(idx(st, "C1")))) == ["C3", "C6"]
    st = position(timeline={2: ["C2"], 3: ["C6", "C1"], 4: ["C4", "C3"]},
                  tokens={"C1": 2, "C2": 2, "C3": 2, "C4": 2, "C6": 2}, time_space=6,
                  phase="timeline")
    left = {c: st.tokens[idx(st, c)] for c in ("C1", "C2", "C3", "C4", "C6")}
    assert left == {"C1": 1, "C2": 1, "C3": 2, "C4": 1, "C6": 2}


# ---------------------------------------------------------------- D6


def test_d6_effects_apply_as_far_as_possible_and_you_may_is_optional() -> None:
    """D6: Mercury (T9, "discard 2 lost knowledge") with 1 lost removes that 1; Luxor (C7, lose
    3 with 2+ adjacent pyramids) holding 2 loses both. La Maná (A8, "you may discard 1 to draw
    1") asks yes/no; "no" leaves the hand as it was."""
    st = position(hand=["C1", "C2"], tiles=["T9", "T26"] + [None] * 7, lost=1)
    play(st, "learn", "T9")
    assert st.lost == 0

    st = position(timeline={2: ["P1"], 3: ["C7", "P32"]}, tokens={"C7": 2}, time_space=6,
                  phase="timeline")
    assert st.tokens[idx(st, "C7")] == 0

    st = position(hand=["C1", "C2"], artifacts=["A8"], phase="timeline")
    assert names_of(st) == ["yes", "no"]
    play(st, "no")
    assert codes(st, st.hand) == ["C1", "C2"]
    st = position(hand=["C1", "C2"], artifacts=["A8"], phase="timeline")
    play(st, "yes", "C2")
    assert codes(st, st.hand) == ["C1", "C3"]  # C3: the deck top


# ---------------------------------------------------------------- D7


def test_d7_excavate_rotates_past_monuments_and_moves_nothing() -> None:
    """D7: Excavate rotates straight monuments already in the Past (how many: the player's
    choice, 1..straight ones) and draws 2 for each; the Past and the Timeline keep their cards."""
    st = position(hand=["C1"], past=["M1", "M3", "M4"], rotated=1, timeline={2: ["P31"]})
    play(st, "excavate")
    assert names_of(st) == ["#1", "#2"]
    play(st, "#2")
    assert st.rotated == 3
    assert codes(st, st.past) == ["M1", "M3", "M4"]
    assert codes(st, st.spaces[1]) == ["P31"]
    assert codes(st, st.hand) == ["C1", "C2", "C3", "C4", "C5"]
    assert "excavate" not in names_of(st)  # all rotated now


# ---------------------------------------------------------------- D8


def test_d8_third_time_in_space_1_ends_the_game_at_once() -> None:
    """D8: the third time the time card is in space 1 the game ends: space 1's monuments do not
    decline (they score +1 each), no technology phase (the die is not rolled)."""
    st = position(timeline={1: ["C5", "TIME"], 2: ["M1"]}, tokens={"C5": 3}, time_visits=2,
                  tiles=TILES, phase="decline")
    assert st.is_terminal() and st.pending() is None and st.legal_actions() == []
    assert st.time_visits == 3
    assert codes(st, st.spaces[0]) == ["C5", "TIME"]
    assert st.past == [] and st.lost == 0
    assert st.die_pos == 0 and tile_codes(st) == TILES
    assert rows(st) == (0, 0, 0, 2, 0)

    # the first and second times, the time card goes to the Past and space 1 declines
    st = position(timeline={1: ["C5", "TIME"]}, tokens={"C5": 3}, time_visits=1, phase="decline")
    assert st.time_visits == 2 and st.time_space == 6 and st.turn == 2
    assert codes(st, st.past) == ["C5"] and st.lost == 3


# ---------------------------------------------------------------- D9


@pytest.mark.parametrize(
    ("tile_level", "roll", "slot"),
    [
        ((2, 1, 2), 2, 1),  # A flipped keeps 1-3
        ((2, 1, 2), 5, 7),  # B stayed Level I: tile C takes 4-6
        ((1, 2, 2), 5, 4),  # B flipped keeps 4-6
        ((1, 2, 2), 2, 7),  # A stayed Level I: tile C takes 1-3
    ],
)
def test_d9_after_the_flip_the_die_hits_level_ii_slots(tile_level: tuple[int, int, int],
                                                       roll: int, slot: int) -> None:
    """D9: after the flip the die acts on Level II slots only: the flipped tile keeps its
    numbers, tile C takes the numbers of the tile that stayed Level I."""
    level2 = ["T31", "T32", "T33"]
    tiles: list[str] = (level2 + ["T4", "T5", "T6"] if tile_level[0] == 2
                        else ["T1", "T2", "T3"] + level2) + ["T28", "T29", "T30"]
    st = position(tiles=tiles, tile_level=tile_level, midgame=True, dice=(roll,) * 16,
                  phase="tech")
    expected: list[str | None] = list(tiles)
    expected[slot] = None
    assert tile_codes(st) == expected
    assert codes(st, st.tech_discards[1]) == [tiles[slot]]
    assert st.tech_discards[0] == []


# ---------------------------------------------------------------- D10


def test_d10_the_level_i_tile_still_refills_with_level_i_after_the_flip() -> None:
    """D10: tile A stayed Level I after the flip; learning leaves it one card, which is
    discarded, and 3 Level I cards (not Level II) fill it."""
    st = position(hand=["C1"], lost=5, midgame=True, tile_level=(1, 2, 2),
                  tiles=["T5", "T9", None, "T31", "T32", "T33", "T28", "T29", "T30"],
                  past=["M1", "M3", "M4", "M5", "M6", "M7", "M8"])
    play(st, "learn", "T9")
    assert tile_codes(st) == ["T1", "T2", "T3", "T31", "T32", "T33", "T28", "T29", "T30"]
    assert codes(st, st.tech_discards[0]) == ["T5"]
    assert st.lost == 3


# ---------------------------------------------------------------- D11


def test_d11_chest_cards_are_not_artifacts() -> None:
    """D11: chest cards in artifact spaces occupy them but are not artifacts: the `artifacts`
    counter ignores them (Ica Stones A5 needs 3: two artifacts and two chests do not draw),
    Yonaguni (P13) cannot discard them, and with every free space taken no artifact can be
    created."""
    st = position(hand=["P13", "A1", "C1"], artifacts=["A5", "A8"])
    for k in (1, 2, 3):  # goal chests Б В Г into the free artifact spaces, from the left
        place_goal(st, k)
    flow.settle(st)  # the action choice again, with the chests in place
    assert count(st, "artifacts", -1) == 2
    assert codes(st, st.board_artifacts()) == ["A5", "A8"]
    assert st.free_artifact_space() == -1
    play(st, "create")
    assert names_of(st) == ["C1", "P13"]  # A1: no free artifact space
    play(st, "P13", "s4", "yes")
    assert names_of(st) == ["@A5", "@A8"]  # the chests are not offered
    play(st, "@A5", "done")
    assert st.artifacts == [EMPTY, idx(st, "A8"), CHEST_BASE + 1, CHEST_BASE + 2, CHEST_BASE + 3]
    assert st.tokens[idx(st, "P13")] == 10
    st.zone_of_every_card()


# ---------------------------------------------------------------- D12


def test_d12_time_card_third_row_only_after_potala() -> None:
    """D12: after Potala Palace (C30) the time card slides from space 4 into space 3, whose two
    places are taken: it sits in a third row there; the monuments stay two."""
    st = position(hand=["C30", "C1"], timeline={3: ["M1", "M3"], 4: ["TIME"]}, time_space=4)
    play(st, "create", "C30", "s4")  # 1 discard (space 4 is 1 from its starting space 3)
    play(st, "search")
    assert codes(st, st.spaces[2]) == ["M1", "M3", "TIME"]
    assert codes(st, st.spaces[3]) == ["C30"]
    assert st.time_space == 3
    assert not st.has_free_place(3)
    assert [len(st.space_monuments(s)) for s in range(1, 7)] == [0, 0, 2, 1, 0, 0]


# ---------------------------------------------------------------- D13


def test_d13_heritage_cards_are_off_by_default() -> None:
    """D13: the default card book is exactly the 189 base cards (144 builders, 45
    technologies), and a default game deals from them only."""
    book = load_book()
    assert len(book) == 189
    assert len(book.builders) == 144 and len(book.technologies) == 45
    assert {c.set_name for c in book.cards} == {"base"}
    assert [name for name, _ in book.sets] == ["base"]
    assert Setup().card_pool(book) == frozenset(range(189))
    for kind in range(4):
        assert sum(1 for c in book.builders if c.kind == kind) == 36


# ---------------------------------------------------------------- D14


def _worked_example(timeline_count: int, past_count: int) -> GameState:
    """An ended game with that many monuments in the Timeline and in the Past."""
    past = ["C1", "C2", "C3", "C4", "C5", "M1", "M3", "M4", "M5", "M6", "M7"][:past_count]
    places = ["P1", "P2", "P3", "P4", "P5", "P6"][:timeline_count]
    timeline = {2 + i // 2: places[i:i + 2] for i in range(0, len(places), 2)}
    timeline[1] = ["TIME"]
    return position(past=past, timeline=timeline, time_visits=2, tile_level=(1, 2, 2),
                    phase="decline")


def test_d14_mirina_and_hataui_goals_inferred_from_the_worked_example() -> None:
    """D14: the worked example meets В (Chest from Mirina) and Л (Chest of Hataui) with 5
    monuments in the Timeline and 10 in the Past; their goals are inferred from it and marked
    so. Both hold there; one monument fewer in either zone fails the matching goal."""
    chests = load_chests()
    mirina, hataui = chests[CHEST_LETTERS.index("В")], chests[CHEST_LETTERS.index("Л")]
    assert (mirina.name, hataui.name) == ("Chest from Mirina", "Chest of Hataui")
    assert mirina.goal_part.inferred and hataui.goal_part.inferred
    st = _worked_example(5, 10)
    assert st.is_terminal()
    assert count(st, "timeline.any", -1) == 5 and count(st, "past.any", -1) == 10
    assert evaluate(mirina.goal, st) and evaluate(hataui.goal, st)
    st = _worked_example(4, 10)
    assert not evaluate(mirina.goal, st) and evaluate(hataui.goal, st)
    st = _worked_example(5, 9)
    assert evaluate(mirina.goal, st) and not evaluate(hataui.goal, st)


# ---------------------------------------------------------------- D15


@pytest.mark.parametrize(("first", "hand_after"), [("!M31", 2), ("!C9", 1)])
def test_d15_simultaneous_timeline_effects_in_the_players_order(first: str,
                                                                hand_after: int) -> None:
    """D15: Petra (C9: lost <= 2 and a Past monument: draw 1) and Ħaġar Qim (M31: discard 1
    lost) resolve in the player's order, each completely before the next. Lost 3: Ħaġar Qim
    first brings it to 2 and Petra draws; Petra first draws nothing."""
    st = position(hand=["C1"], timeline={2: ["C9"], 3: ["M31"]}, past=["M1"], lost=3,
                  phase="timeline")
    top = st.pending()
    assert top is not None and top[0] == D_ORDER
    assert names_of(st) == ["!C9", "!M31"]
    play(st, first)  # the other is then the only one: automatic
    assert len(st.hand) == hand_after
    assert st.lost == 2


def test_d15_create_group_in_the_players_order() -> None:
    """D15: the created card's immediate effect and the "each time you CREATE" effects form one
    group in the player's order: Pyramid of Nice (P18: remove 1 from one monument) and Nazca
    Lines (A22: a pyramid created, draw 1). Nazca first: the card is drawn before the removal
    is chosen."""
    st = position(hand=["P18", "C1"], artifacts=["A22"], timeline={2: ["C6"], 3: ["M1"]},
                  tokens={"C6": 2, "M1": 2}, time_space=6)
    play(st, "create", "P18", "s1")
    assert names_of(st) == ["!P18", "!A22"]
    play(st, "!A22")
    assert codes(st, st.hand) == ["C1", "C2"]
    assert names_of(st) == ["@P18", "@C6", "@M1"]
    play(st, "@M1")
    assert st.tokens[idx(st, "M1")] == 1 and st.tokens[idx(st, "P18")] == 2


def test_d15_two_declines_in_the_players_order() -> None:
    """D15: two monuments in space 1 decline one at a time in the player's order: Jericho (C17,
    draw 6) first with 6 in hand draws 4; then Heracleion (C16, draw 4) draws nothing."""
    hand = ["C1", "C2", "C3", "C4", "C5", "C6"]
    st = position(hand=hand, timeline={1: ["C16", "C17"]}, phase="decline")
    assert names_of(st) == ["!C16", "!C17"]
    play(st, "!C17")
    assert len(st.hand) == 10 and codes(st, st.past) == ["C16", "C17"]


# ---------------------------------------------------------------- D16


def test_d16_an_effect_chest_is_used_once_then_discarded() -> None:
    """D16: an effect chest under the board is used at most once; after use it is discarded.
    Chest А (lightning: draw 2) is offered at the action choice; used, it is gone and not
    offered again. Chests unused at the end are discarded."""
    book = load_book()
    st = new_game(Setup(hand="1", seed=0, under=("А", "В"), chest_data=load_chests()), book)
    assert names_of(st) == ["create", "learn", "archive", "search", "!chest:А", "!chest:В"]
    play(st, "!chest:А")
    assert len(st.hand) == 8
    assert st.chests_under == [CHEST_LETTERS.index("В")]
    assert "!chest:А" not in names_of(st)
    assert st.pending() == (D_ACTION, 0)  # using a chest is not an action

    while not st.is_terminal():  # never use В: it is discarded at the end
        legal = [a for a in st.legal_actions() if A.kind_of(a) != A.CHEST]
        st.apply(legal[-1] if A.ACT_SEARCH in legal else legal[0])
    assert st.chests_under == []


# ---------------------------------------------------------------- D17


def test_d17_campaign_reveals_chests_not_achieved_and_not_used() -> None:
    """D17: the chests to reveal are those not yet achieved and not used up (deck 1 and those
    never revealed); if fewer than 5 remain, all of them are revealed."""
    c = new_campaign(seed=3)
    first = reveal(c)
    assert len(first) == 5 and len(set(first)) == 5
    assert set(first) <= set(CHEST_LETTERS)
    c.decks = {"unrevealed": ["А", "Б", "Е", "Ж", "З", "И"], "1": ["В", "К"],
               "2": ["Г", "Д"], "3": ["Л", "М", "Н", "О", "П"]}
    shown = reveal(c)
    assert len(shown) == 5
    assert set(shown) <= {"А", "Б", "Е", "Ж", "З", "И", "В", "К"}
    c.decks = {"unrevealed": ["А"], "1": ["В", "К"], "2": ["Г", "Д", "Е", "Ж"],
               "3": ["Б", "З", "И", "Л", "М", "Н", "О", "П"]}
    assert reveal(c) == ["А", "В", "К"]


# ---------------------------------------------------------------- D18


def test_d18_the_time_card_is_not_a_monument() -> None:
    """D18: the time card is not counted in the Timeline or the Past, is adjacent to nothing,
    cannot be swapped (Lopburi Temple C13 swaps with another monument: only real ones are
    offered), and does not decline (it goes to the Past without entering `past`)."""
    st = position(hand=["C13", "C1"], timeline={3: ["M1"], 4: ["TIME"], 5: ["M3"]})
    assert count(st, "timeline.any", -1) == 2
    play(st, "create", "C13", "s4")
    assert codes(st, st.spaces[3]) == ["TIME", "C13"]
    assert st.adjacent(idx(st, "C13")) == []  # the time card below it is not a neighbour
    assert names_of(st) == ["@M1", "@M3"]
    play(st, "@M3")
    assert codes(st, st.spaces[3]) == ["TIME", "M3"]
    assert codes(st, st.spaces[4]) == ["C13"]

    st = position(timeline={1: ["TIME", "C5"]}, past=["M1"], phase="decline")
    assert codes(st, st.past) == ["C5", "M1"]
    assert st.lost == 0 and st.time_visits == 1 and st.time_space == 6


# ---------------------------------------------------------------- D19


def test_d19_candi_sukuh_lowers_one_at_least_value_by_one() -> None:
    """D19: with Candi Sukuh (P19) in the Timeline one "at least" value drops by 1. Astrology
    (T36, hand >= 10) with 9 cards; Melchizedek (T7) missing one type, not two; Alchemy (T37:
    7+ Past, lost <= 3) with 6 Past, not with 4 lost; Ptolemy (T8, hand <= 1) stays as printed
    (the reference's automatic lowering would make it stricter)."""
    tiles = ["T7", "T8", None, None, None, None, "T36", "T37", None]
    nine = [f"C{i}" for i in range(1, 10)]
    past6 = ["C10", "M1", "M3", "M4", "M5", "M6"]  # a city and megaliths, no pyramid
    st = position(hand=nine, tiles=tiles, past=past6, lost=3)
    assert learnable_codes(st) == []
    st = position(hand=nine, tiles=tiles, past=past6, lost=3, timeline={4: ["P19", "TIME"]})
    assert learnable_codes(st) == ["T7", "T36", "T37"]
    st = position(hand=nine, tiles=tiles, past=past6, lost=4, timeline={4: ["P19", "TIME"]})
    assert learnable_codes(st) == ["T7", "T36"]  # Alchemy's "at most 3" is not lowered
    st = position(hand=nine, tiles=tiles, past=past6[1:], timeline={4: ["P19", "TIME"]})
    assert learnable_codes(st) == ["T36"]  # two types missing for Melchizedek
    st = position(hand=["C1"], tiles=tiles, timeline={4: ["P19", "TIME"]})
    assert learnable_codes(st) == ["T8"]
    st = position(hand=["C1", "C2"], tiles=tiles, timeline={4: ["P19", "TIME"]})
    assert learnable_codes(st) == []


# ---------------------------------------------------------------- D20


def test_d20_philae_each_chosen_city_loses_up_to_3() -> None:
    """D20: Philae (C31) with 4 Timeline cities: choose two cities, each loses up to 3 (never 4
    from one, at most 6 in all)."""
    st = position(hand=["C31", "M1"], timeline={2: ["C1"], 4: ["C2"], 5: ["C5"]},
                  tokens={"C1": 5, "C2": 5}, time_space=6)
    play(st, "create", "C31", "s3")
    assert names_of(st) == ["@C1", "@C31"]  # the pair in place order (C5 holds none)
    play(st, "@C1")
    assert names_of(st) == ["@C31", "@C2"]
    play(st, "@C2")
    assert names_of(st) == ["@C1", "done"]
    play(st, "@C1", "@C1", "@C1")
    assert names_of(st) == ["@C2", "done"]  # a 4th token from C1 is not offered
    play(st, "@C2", "@C2", "@C2")
    assert st.tokens[idx(st, "C1")] == 2 and st.tokens[idx(st, "C2")] == 2
    assert st.tokens[idx(st, "C31")] == 3
    assert st.pending() == (D_ACTION, 1)


# ---------------------------------------------------------------- D21


def test_d21_xixia_any_one_adjacent_monument() -> None:
    """D21: Xixia Wangling (P15) removes up to 3 from any one adjacent monument, also one with
    fewer than 3 while another neighbour holds 3 or more."""
    st = position(hand=["P15", "M1"], timeline={1: ["C1"], 3: ["C2"], 4: ["C3"]},
                  tokens={"C1": 5, "C2": 1, "C3": 4}, time_space=6)
    play(st, "create", "P15", "s2")
    assert names_of(st) == ["@C1", "@C2"]  # C3 is not adjacent
    play(st, "@C2")
    assert names_of(st) == ["@C2", "done"]
    play(st, "@C2")
    assert st.tokens[idx(st, "C2")] == 0 and st.tokens[idx(st, "C1")] == 5


# ---------------------------------------------------------------- D22


def test_d22_coba_up_to_n_and_plain_discard_as_far_as_possible() -> None:
    """D22: Pyramid of Coba (P11, 3+ Past megaliths) discards up to 4 lost: the player picks
    0..min(4, lost). A plain "discard N" (Mercury T9, 2) removes min(N, lost)."""
    megaliths = ["M1", "M3", "M4"]
    st = position(timeline={1: ["P11"]}, past=megaliths, lost=6, phase="decline")
    assert names_of(st) == ["#0", "#1", "#2", "#3", "#4"]
    play(st, "#3")
    assert st.lost == 3
    st = position(timeline={1: ["P11"]}, past=megaliths, lost=2, phase="decline")
    assert names_of(st) == ["#0", "#1", "#2"]
    play(st, "#0")
    assert st.lost == 2

    st = position(hand=["C1", "C2"], tiles=["T9", "T26"] + [None] * 7, lost=5)
    play(st, "learn", "T9")
    assert st.lost == 3
