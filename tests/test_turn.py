"""The turn (RULES.md section 4) and the five actions (section 5), on real cards.

Phases: actions, Timeline phase, decline phase, technology phase. Actions: Create (cost,
places, artifacts), Learn (requirement, tile refill, reshuffle), Archive (distribution),
Excavate, Search; the hand limit and the reshuffle of the builder deck.
"""

from __future__ import annotations

from solver.engine.frames import D_ACTION, D_ARCHIVE, D_DECLINE_ORDER, D_REMOVE
from solver.engine.state import EMPTY, GameState
from solver.rng import shuffled
from tests.builder import codes, idx, names_of, play, position, tile_codes

TILES = ["T1", "T2", "T3", "T4", "T5", "T6", "T28", "T29", "T30"]


def tokens(st: GameState, *cards: str) -> list[int]:
    return [st.tokens[idx(st, c)] for c in cards]


# ---------------------------------------------------------------- the turn


def test_a_turn_is_two_actions_then_the_three_phases() -> None:
    """Section 4: two actions (the same one twice is allowed), then the Timeline phase (Toniná
    P31 draws 1), the decline phase (space 1 declines, everything slides left) and the
    technology phase (one roll); then the next turn."""
    st = position(hand=["C1"], timeline={1: ["M1"], 2: ["P31"], 5: ["C5", "C2"]},
                  tokens={"M1": 2}, tiles=TILES, dice=(4,) * 16)
    assert st.turn == 1 and st.pending() == (D_ACTION, 0)
    play(st, "search")
    assert st.pending() == (D_ACTION, 1)
    play(st, "search")
    assert st.turn == 2 and st.pending() == (D_ACTION, 0)
    assert len(st.hand) == 4  # 1 + 2 searches + Toniná
    assert codes(st, st.past) == ["M1"] and st.lost == 2
    assert codes(st, st.spaces[0]) == ["P31"]
    assert codes(st, st.spaces[2]) == ["TIME"]
    assert codes(st, st.spaces[3]) == ["C5", "C2"]  # rows kept
    assert st.time_space == 3
    assert st.die_pos == 1 and tile_codes(st)[3] is None


def test_timeline_phase_ignores_cards_out_of_play() -> None:
    """Section 4B: only Timeline monuments and board artifacts activate: Toniná (P31) in the
    Past draws nothing, La Maná (A8) in hand asks nothing."""
    st = position(hand=["C1", "A8"], past=["P31"], timeline={3: ["M3"]}, phase="timeline")
    assert codes(st, st.hand) == ["C1", "A8"]
    assert st.pending() == (D_ACTION, 0) and st.turn == 2


def test_timeline_effects_of_artifacts_and_monuments_together() -> None:
    """Timeline effects of monuments and artifacts activate once each: Toniná (P31, draw 1)
    and Incahuasi Quipus (A10, lost <= 3 and a Past monument: draw 1), in the player's order."""
    st = position(timeline={3: ["P31"]}, artifacts=["A10"], past=["M1"], phase="timeline")
    assert names_of(st) == ["!P31", "!A10"]
    play(st, "!A10")
    assert codes(st, st.hand) == ["C1", "C2"]


# ---------------------------------------------------------------- decline phase


def test_decline_knowledge_becomes_lost_and_the_upper_card_slides_down() -> None:
    """Section 4C.2: the declining monument's knowledge becomes lost knowledge; it goes to the
    Past straight. Two monuments in space 1: the player orders them."""
    st = position(timeline={1: ["C5", "M1"], 2: ["P1", "P2"]}, tokens={"C5": 3, "M1": 1},
                  rotated=0, phase="decline")
    assert st.pending() == (D_DECLINE_ORDER,)
    assert names_of(st) == ["!C5", "!M1"]
    play(st, "!M1")
    assert codes(st, st.past) == ["C5", "M1"] and st.rotated == 0
    assert st.lost == 4
    assert codes(st, st.spaces[0]) == ["P1", "P2"]
    assert tokens(st, "C5", "M1") == [0, 0]


def test_a_monument_moved_into_space_1_declines_in_the_same_phase() -> None:
    """Ajanta Caves (C15) moves another monument as it declines; moved into space 1, that one
    declines right after it (clarifications, decline phase)."""
    st = position(timeline={1: ["C15"], 3: ["M1"]}, tokens={"M1": 2, "C15": 1}, phase="decline")
    assert names_of(st) == ["s1", "s2", "s4", "s5", "s6"]  # M1 is the only other monument
    play(st, "s1")
    assert codes(st, st.past) == ["C15", "M1"]
    assert st.lost == 3
    assert all(items == () for i, items in enumerate(st.spaces) if i != 2)


def test_vanishing_city_is_discarded_and_its_knowledge_is_not_lost() -> None:
    """Llaqtapata (C25) declining with knowledge is discarded: no Past card, no lost
    knowledge; with none it goes to the Past."""
    st = position(timeline={1: ["C25"]}, tokens={"C25": 2}, phase="decline")
    assert st.past == [] and st.lost == 0 and codes(st, st.discard) == ["C25"]
    st = position(timeline={1: ["C25"]}, tokens={"C25": 0}, phase="decline")
    assert codes(st, st.past) == ["C25"] and st.discard == []


def test_slide_with_an_empty_space_1() -> None:
    """Everything slides one space left even when space 1 is empty (section 4C.3)."""
    st = position(timeline={2: ["C5"], 6: ["M1", "M3"]}, phase="decline")
    assert codes(st, st.spaces[0]) == ["C5"]
    assert codes(st, st.spaces[4]) == ["M1", "M3"]
    assert st.spaces[5] == ()
    assert st.past == []


# ---------------------------------------------------------------- technology phase


def test_tech_phase_refill_reshuffles_the_level_discards() -> None:
    """A tile left with one card is refilled; when the deck runs out the level's discard pile
    is shuffled (stream "tech1-reshuffle", 0) into a new deck (section 5, Learn)."""
    st = position(tiles=["T1", None, "T3", *TILES[3:]], dice=(3,) * 16, phase="action")
    level1_rest = list(st.tech_decks[0])
    st.tech_discards[0] = level1_rest[:-1]  # all but the top card are in the discard pile
    st.tech_decks[0] = level1_rest[-1:]
    play(st, "search", "search")  # roll 3: T3 discarded, T1 alone: discarded, refill
    top = level1_rest[-1]
    new_deck = shuffled(0, "tech1-reshuffle", 0, sorted(level1_rest[:-1] + [idx(st, "T3"),
                                                                             idx(st, "T1")]))
    assert st.tiles[:3] == [top, new_deck[-1], new_deck[-2]]
    assert st.tech_decks[0] == new_deck[:-2]
    assert st.tech_discards[0] == []
    assert st.reshuffles == [0, 1, 0]


def test_tile_stays_empty_when_fewer_than_3_cards_remain() -> None:
    """With fewer than 3 cards in the level's deck and discard pile, the tile stays empty."""
    st = position(tiles=["T1", None, "T3", *TILES[3:]], dice=(3,) * 16, phase="action")
    st.tech_decks[0] = []
    st.tech_discards[0] = []
    play(st, "search", "search")  # T3 and T1 discarded: 2 cards in all
    assert tile_codes(st)[:3] == [None, None, None]
    assert codes(st, st.tech_discards[0]) == ["T3", "T1"]


# ---------------------------------------------------------------- Create


def test_create_artifact_costs_its_printed_discard_into_the_next_free_space() -> None:
    """Section 5: an artifact costs its printed discard (Pachamama A12: 3) and takes the next
    free artifact space; with every space taken no artifact can be created."""
    st = position(hand=["A12", "C1", "C2", "C3", "C4"], artifacts=["A1", "A2"])
    play(st, "create", "A12")
    assert names_of(st) == ["C1", "C2"]  # 3 of 4 in rising order
    play(st, "C1")
    assert names_of(st) == ["C2", "C3"]
    play(st, "C3")  # then C4 is forced
    assert codes(st, st.hand) == ["C2"]
    assert codes(st, st.discard) == ["C1", "C3", "C4"]
    assert codes(st, st.board_artifacts()) == ["A1", "A2", "A12"]
    assert st.artifacts[3:] == [EMPTY, EMPTY]

    st = position(hand=["A12", "A8", "C1", "C2", "C3"],
                  artifacts=["A1", "A2", "A3", "A4", "A5"])
    play(st, "create")
    assert names_of(st) == ["C1", "C2", "C3"]


def test_create_knowledge_less_reductions_never_below_zero() -> None:
    """Knowledge put on a new monument: printed, less each reduction in play (Easter Island C24:
    cities -1; Dogu Figurines A28: cities -1), floored at 0 (section 5)."""
    st = position(hand=["C6", "C1"], timeline={5: ["C24"]}, artifacts=["A28"])
    play(st, "create", "C6", "s2")
    assert tokens(st, "C6") == [0]
    st = position(hand=["C5", "C1", "C2"], timeline={4: ["C24"]})
    play(st, "create", "C5")  # only space 5 is affordable; both other cards pay
    assert tokens(st, "C5") == [2]
    assert tokens(st, "C24") == [0]  # the reducer itself was placed with none


# ---------------------------------------------------------------- Learn


def test_learn_needs_the_requirement_and_refills_a_tile_left_with_one() -> None:
    """Section 5: only technologies whose requirement is met are offered (Aristotle T2 needs 2
    Past pyramids, Ptolemy T8 at most 1 card in hand, T28-T30 more than this position has).
    Learning Nicolas Flammel (T5) leaves tile A with T2 alone: it is discarded and 3 new Level
    I cards fill the tile; then T5's effect applies (discard 1 lost knowledge, draw 1)."""
    st = position(hand=["C1", "C2"], lost=1, past=["P1"],
                  tiles=["T2", "T5", None, "T4", "T6", "T8", "T28", "T29", "T30"])
    play(st, "learn")
    assert names_of(st) == ["T4", "T5", "T6"]
    play(st, "T5")
    assert codes(st, st.techs) == ["T5"]
    assert tile_codes(st) == ["T1", "T3", "T7", "T4", "T6", "T8", "T28", "T29", "T30"]
    assert codes(st, st.tech_discards[0]) == ["T2"]
    assert st.lost == 0 and codes(st, st.hand) == ["C1", "C2", "C3"]


def test_learn_is_not_offered_without_a_learnable_technology() -> None:
    st = position(hand=["C1", "C2"], tiles=[None, "T2", None, None, None, None, "T29", None, None])
    assert names_of(st) == ["create", "archive", "search"]


# ---------------------------------------------------------------- Archive


def test_archive_discards_chosen_cards_then_distributes_the_removals() -> None:
    """Section 5, D2: archive one or more cards (chosen in rising order, then ``done``); each
    removes 1 knowledge, distributed by the player one token at a time in place order. M1
    (space 2) holds 1, M3 (space 3) holds 3: two removals give 0/2 or 1/1."""
    st = position(hand=["C1", "C2", "C3"], timeline={2: ["M1"], 3: ["M3"]},
                  tokens={"M1": 1, "M3": 3}, time_space=6)
    play(st, "archive")
    assert st.pending() == (D_ARCHIVE, 0, -1, False)
    assert names_of(st) == ["C1", "C2", "C3"]  # no "done" before the first card
    play(st, "C1")
    assert names_of(st) == ["C2", "C3", "done"]
    play(st, "C3")  # no card after C3: "done" is the only option, taken automatically
    assert codes(st, st.discard) == ["C1", "C3"]
    top = st.pending()
    assert top is not None and top[0] == D_REMOVE
    assert names_of(st) == ["@M1", "@M3"]
    other = st.clone()
    play(st, "@M1")  # then the second token can only come from M3
    assert tokens(st, "M1", "M3") == [0, 2]
    play(other, "@M3")  # then only from M3 on (place order): M3 again
    assert tokens(other, "M1", "M3") == [1, 1]


def test_archive_more_cards_than_knowledge_removes_all() -> None:
    st = position(hand=["C1", "C2", "C3", "C4"], timeline={2: ["M1"], 3: ["M3"]},
                  tokens={"M1": 1, "M3": 1}, time_space=6)
    play(st, "archive", "C1", "C2", "C3", "done")
    assert tokens(st, "M1", "M3") == [0, 0]
    assert codes(st, st.hand) == ["C4"] and st.pending() == (D_ACTION, 1)


# ---------------------------------------------------------------- Excavate and Search


def test_excavate_draws_two_per_rotated_monument_three_with_phaistos() -> None:
    """Section 5, D7: Excavate n straight Past monuments: rotate them, draw 2 each (Phaistos
    Disc A29: 3 each)."""
    st = position(hand=["C1"], past=["M1", "M3", "M4"])
    play(st, "excavate")
    assert names_of(st) == ["#1", "#2", "#3"]
    play(st, "#2")
    assert st.rotated == 2 and len(st.hand) == 5
    st = position(hand=["C1"], past=["M1", "M3", "M4"], artifacts=["A29"])
    play(st, "excavate", "#2")
    assert st.rotated == 2 and len(st.hand) == 7


def test_excavate_needs_a_straight_past_monument() -> None:
    st = position(hand=["C1"], past=["M1", "M3"], rotated=2)
    assert "excavate" not in names_of(st)


def test_search_draws_one_and_is_always_legal() -> None:
    """Search draws 1 (the deck top); at 10 cards, or with no card left anywhere, it draws
    nothing but stays legal, so a turn can always go on."""
    st = position(hand=["C5"], deck_top=["P33"])
    play(st, "search")
    assert codes(st, st.hand) == ["C5", "P33"]
    st = position(hand=[f"C{i}" for i in range(1, 11)])
    assert "search" in names_of(st)
    st = position(hand=["C5"])
    st.deck, st.discard = [], []
    play(st, "search")
    assert codes(st, st.hand) == ["C5"]


def test_hand_limit_applies_to_every_draw() -> None:
    """D4: Excavate 3 with 7 in hand draws 3 (not 6); the hand never passes 10."""
    seven = [f"C{i}" for i in range(1, 8)]
    st = position(hand=seven, past=["M1", "M3", "M4"])
    deck_size = len(st.deck)
    play(st, "excavate", "#3")
    assert len(st.hand) == 10 and len(st.deck) == deck_size - 3 and st.rotated == 3


# ---------------------------------------------------------------- reshuffle


def test_empty_builder_deck_is_refilled_from_the_discard_pile() -> None:
    """Section 5: an empty builder deck is refilled by shuffling its discard pile (stream
    "builder-reshuffle", k for the k-th reshuffle, over the cards in rising order)."""
    st = position(hand=["C1"], discard=["M5", "A3", "P7", "C9"])
    st.deck = []
    pile = sorted(st.discard)
    expected = shuffled(0, "builder-reshuffle", 0, pile)
    play(st, "search")
    assert st.hand == sorted([idx(st, "C1"), expected[-1]])
    assert st.deck == expected[:-1]
    assert st.discard == [] and st.reshuffles[0] == 1
    st.deck = []
    st.discard = [idx(st, "C1")]
    play(st, "search")
    assert st.reshuffles[0] == 2 and st.deck == []


# ---------------------------------------------------------------- phase order


def test_timeline_phase_comes_before_the_decline() -> None:
    """Section 4: the Timeline phase resolves before the decline phase: Pyramid of Neferirkare
    (P30: remove 1 from another monument) takes 1 from M1 in space 1 before M1 declines, so
    only 1 knowledge is lost."""
    st = position(timeline={1: ["M1"], 5: ["P30"]}, tokens={"M1": 2}, phase="timeline")
    assert codes(st, st.past) == ["M1"]
    assert st.lost == 1


def test_the_flip_comes_between_two_declines() -> None:
    """Section 6 and the clarifications' per-card decline: the 7th monument entering the Past
    flips a tile at once, before the other monument of space 1 declines."""
    past6 = ["M1", "M3", "M4", "M5", "M6", "M7"]
    st = position(past=past6, timeline={1: ["C5", "C2"]}, tokens={"C2": 1}, tiles=TILES,
                  phase="decline")
    play(st, "!C5")
    assert names_of(st) == ["tileA", "tileB"]
    assert codes(st, st.spaces[0]) == ["C2"] and len(st.past) == 7
    play(st, "tileB")
    assert len(st.past) == 8 and st.lost == 1
    assert st.tile_level == [1, 2, 2]
    assert tile_codes(st)[3:6] == ["T31", "T32", "T33"]
