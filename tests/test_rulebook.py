"""The examples of the Heritage rulebook and the rules it states for solo play, on real cards.

Sources: `shared/seeds/heritage-rulebook.txt` (solo turn, technology phase, time card, Potala
Palace), `shared/RULES.md` sections 3-7 and the decisions it cites. Every position is built from
real cards of `puzzles/data/cards/base.json` and run through the engine; nothing is scored by
hand except the expected numbers, whose arithmetic each docstring shows.
"""

from __future__ import annotations

from puzzles.cardsets import load_book
from solver.engine.frames import D_ACTION, D_FLIP
from solver.engine.newgame import new_game
from solver.engine.setup import Setup, turns_for
from solver.engine.state import GameState
from solver.rng import Stream
from tests.builder import codes, idx, names_of, play, position, tile_codes

BOOK = load_book(["base"])
START_TILES = ["T1", "T2", "T3", "T4", "T5", "T6", "T28", "T29", "T30"]


def random_game(seed: int, hand: str = "1", time_space: int = 4) -> tuple[GameState, list[int]]:
    """Play a whole game with the policy stream of `seed`; return the end state and the time
    card's space at the first action of every turn."""
    st = new_game(Setup(hand=hand, seed=seed, time_space=time_space), BOOK)
    policy = Stream(seed, "policy", 0)
    spaces: list[int] = []
    last_turn = 0
    while not st.is_terminal():
        top = st.pending()
        if top is not None and top[0] == D_ACTION and st.turn != last_turn:
            last_turn = st.turn
            spaces.append(st.time_space)
        legal = st.legal_actions()
        st.apply(legal[policy.below(len(legal))])
    return st, spaces


# ---------------------------------------------------------------- final scoring (section 7, D1)


def test_campaign_example_scores_29_18_31_1_minus_32_total_47() -> None:
    """The campaign example's sheet (rulebook, "Campaign Results"): 29 + 18 + 31 + 1 - 32 = 47.

    Past (8 monuments), printed VP: Atlantis C29 12 + Babylon C28 10 + Sacsayhuaman C23 6 +
    Comalcalco P32 1 (+ 0 for M2, M19, M6, P4) = 29.
    End-game effects: Menhir di Monte Corru M2 (lost >= 15) 9 + Dolmen of Fontanaccia M19
    (lost >= 10) 4 + Comalcalco P32 (1 per end-game monument in the Past: M2 M19 M6 P4 P32) 5
    + Dolmen of Ganghwa M6 and Palenque P4 (3+ writing: only 1) 0 = 18.
    Level II technologies: T34..T39 (2+2+2+4+3+5) + Imhotep T28 3 + Plato T29 4 + Thoth T30 2
    + Phoenician Alphabet T44 4 = 31. One monument left in the Timeline: +1. Lost 32: -32.
    The game ends (third time the time card is in space 1) and the sheet is read."""
    st = position(
        past=["M2", "M19", "P32", "M6", "P4", "C29", "C28", "C23"],
        techs=["T34", "T35", "T36", "T37", "T38", "T39", "T28", "T29", "T30", "T44"],
        timeline={1: ["TIME"], 3: ["P31"]}, tokens={"P31": 4}, lost=32,
        time_visits=2, tile_level=(1, 2, 2), phase="decline",
    )
    assert st.is_terminal()
    sheet = st.score()
    rows = (sheet.past, sheet.effects, sheet.technologies, sheet.timeline, sheet.lost_knowledge)
    assert rows == (29, 18, 31, 1, -32)
    assert sheet.total == 47
    assert sheet.as_dict() == {"past": 29, "effects": 18, "technologies": 31, "timeline": 1,
                               "lost_knowledge": -32, "total": 47}


def test_trial_example_scores_39_25_11_5_minus_4_total_76() -> None:
    """The trial 2 example's sheet (rulebook, "Trial example"): 39 + 25 + 11 + 5 - 4 = 76.

    Past (10 monuments), printed VP: Atlantis C29 12 + Babylon C28 10 + Karnak C27 8 +
    Llaqtapata C25 6 + Merchants' Table M33 1 + Janggun-chong P36 1 + Comalcalco P32 1 = 39.
    End-game effects: Merchants' Table M33 (1 per Timeline monument) 5 + Janggun-chong P36
    (3+ Timeline monuments) 6 + Meidum P3 and Abu Gorab C2 (3 secret technologies) 4 + 4 +
    Comalcalco P32 (end-game monuments in the Past: M33 P36 P3 C2 P32 M6) 6 + Dolmen of
    Ganghwa M6 (1 writing technology) 0 = 25. Technologies: Ari-kat T39 5 + Alchemy T37 4 +
    Golden Mean T34 2 + Ancient Hebrew T21 (Level I) 0 = 11. Five Timeline monuments, their
    knowledge costing nothing: +5. Lost 4: -4."""
    st = position(
        past=["M33", "P36", "P3", "C2", "P32", "M6", "C29", "C28", "C27", "C25"],
        techs=["T39", "T37", "T34", "T21"],
        timeline={1: ["TIME"], 2: ["C6"], 3: ["M4", "C7"], 5: ["P30"], 6: ["M20"]},
        tokens={"C7": 6, "P30": 2}, lost=4, time_visits=2, tile_level=(1, 2, 2), phase="decline",
    )
    assert st.is_terminal()
    sheet = st.score()
    rows = (sheet.past, sheet.effects, sheet.technologies, sheet.timeline, sheet.lost_knowledge)
    assert rows == (39, 25, 11, 5, -4)
    assert sheet.total == 76


# ---------------------------------------------------------------- technology phase (section 4D)


def test_technology_die_example_of_the_rulebook() -> None:
    """Rulebook, Technology Phase example: a 2 discards the card in slot 2 of tile A; a 2 again
    finds the slot empty and does nothing; a 3 discards slot 3, which leaves tile A with one
    card: it is discarded too and 3 new Level I cards are revealed (from the deck top)."""
    st = position(tiles=START_TILES, dice=(2, 2, 3) + (1,) * 13, phase="tech")
    assert st.die_pos == 1
    assert tile_codes(st) == ["T1", None, "T3", "T4", "T5", "T6", "T28", "T29", "T30"]
    assert codes(st, st.tech_discards[0]) == ["T2"]

    play(st, "search", "search")  # turn 2 ends with a second 2: an empty slot
    assert st.die_pos == 2
    assert tile_codes(st) == ["T1", None, "T3", "T4", "T5", "T6", "T28", "T29", "T30"]
    assert codes(st, st.tech_discards[0]) == ["T2"]

    top3 = codes(st, st.tech_decks[0][-3:][::-1])
    assert top3 == ["T7", "T8", "T9"]
    play(st, "search", "search")  # turn 3 ends with a 3
    assert st.die_pos == 3
    assert tile_codes(st) == ["T7", "T8", "T9", "T4", "T5", "T6", "T28", "T29", "T30"]
    assert codes(st, st.tech_discards[0]) == ["T2", "T3", "T1"]
    assert st.tech_discards[1] == []


def test_die_on_tile_b_uses_slots_4_to_6() -> None:
    """Slots of tile B are marked 4-6 (section 4D): a 6 discards tile B's third card."""
    st = position(tiles=START_TILES, dice=(6,) * 16, phase="tech")
    assert tile_codes(st) == ["T1", "T2", "T3", "T4", "T5", None, "T28", "T29", "T30"]
    assert codes(st, st.tech_discards[0]) == ["T6"]


# ---------------------------------------------------------------- the length of a game


def test_sixteen_turns_from_space_4() -> None:
    """The time card starts in space 4: the game lasts 16 turns and ends in turn 16's decline
    phase (no technology phase then: 15 rolls used). The time card's space at the start of each
    turn's actions: 4 3 2 1 | 6 5 4 3 2 1 | 6 5 4 3 2 1 (two stays in the Past in between)."""
    assert turns_for(4) == 16
    for seed in (0, 1, 2, 3):
        for hand in ("1", "draw"):
            st, spaces = random_game(seed, hand, 4)
            assert st.turn == 16
            assert st.time_visits == 3
            assert st.die_pos == 15
            assert st.stack == []
            assert spaces == [4, 3, 2, 1, 6, 5, 4, 3, 2, 1, 6, 5, 4, 3, 2, 1]


def test_fifteen_turns_from_space_3() -> None:
    """From space 3 (campaign ranks) the game lasts 15 turns (section 4)."""
    assert turns_for(3) == 15
    for seed in (0, 1, 2, 3):
        st, spaces = random_game(seed, "2", 3)
        assert st.turn == 15
        assert st.time_visits == 3
        assert st.die_pos == 14
        assert spaces == [3, 2, 1, 6, 5, 4, 3, 2, 1, 6, 5, 4, 3, 2, 1]


def test_the_past_does_not_end_a_solo_game() -> None:
    """"The number of cards in your Past does not affect the end of the game": 14 monuments in
    the Past and the game goes on to the next turn."""
    past = ["C1", "C2", "C3", "C4", "C5", "M1", "M3", "M4", "M5", "M6", "P1", "P2", "P3"]
    st = position(past=past, timeline={1: ["P4"]}, tile_level=(1, 2, 2), phase="decline")
    assert len(st.past) == 14
    assert not st.is_terminal()
    assert st.turn == 2 and st.pending() == (D_ACTION, 0)


# ---------------------------------------------------------------- Potala Palace and the time card


def test_potala_skips_the_decline_but_the_time_card_slides() -> None:
    """Potala Palace (C30) created in the action phase: no monument declines or slides, but the
    time card slides one space (section 11); into a full space it takes a third row (D12)."""
    st = position(hand=["C30"], timeline={1: ["C5"], 2: ["M1", "M3"], 3: ["TIME"]},
                  tokens={"C5": 3, "M1": 2})
    play(st, "create")  # the only card and its only space (3) are taken automatically;
    # the second action, with an empty hand, can only be Search (automatic too)
    assert st.turn == 2
    assert codes(st, st.spaces[0]) == ["C5"]
    assert codes(st, st.spaces[1]) == ["M1", "M3", "TIME"]
    assert codes(st, st.spaces[2]) == ["C30"]
    assert st.time_space == 2
    assert st.tokens[idx(st, "C5")] == 3
    assert st.lost == 0 and st.past == []
    assert not st.potala  # reset for the new turn

    # Next turn, no Potala: C5 declines, and the third row slides with its space.
    play(st, "search", "search")
    assert codes(st, st.past) == ["C5"]
    assert st.lost == 3
    assert codes(st, st.spaces[0]) == ["M1", "M3", "TIME"]
    assert codes(st, st.spaces[1]) == ["C30"]
    assert st.time_space == 1


def test_potala_with_the_time_card_in_space_1() -> None:
    """With the time card in space 1, step 1 still happens under Potala: it goes to the Past
    (first time); space 1's monument does not decline. Next turn it returns to space 6, whose
    two places are taken: a third row there (D12)."""
    st = position(hand=["C30"], timeline={1: ["C5", "TIME"], 6: ["M1", "M3"]}, tokens={"C5": 2})
    play(st, "create")
    assert st.time_visits == 1
    assert codes(st, st.spaces[0]) == ["C5"]
    assert codes(st, st.spaces[5]) == ["M1", "M3", "TIME"]
    assert st.time_space == 6
    assert st.past == [] and st.lost == 0


def test_potala_created_during_a_decline_skips_nothing() -> None:
    """Potala skips the decline only when created outside a decline phase (clarifications,
    C30): created by Menhirs of Monteneuf's (M11) decline Create, the phase goes on."""
    st = position(hand=["C30", "P31"], timeline={1: ["M11"], 2: ["C5"]}, tokens={"C5": 1},
                  phase="decline")
    assert names_of(st) == ["C30", "P31", "no"]
    play(st, "C30", "s3")  # cost 0 at its starting space; s2 would cost 1 (payable with P31)
    assert not st.potala
    assert codes(st, st.past) == ["M11"]
    assert codes(st, st.spaces[0]) == ["C5"]  # slid from space 2
    assert codes(st, st.spaces[1]) == ["C30"]
    assert st.time_space == 3


# ---------------------------------------------------------------- Create cost (section 5)


def test_create_cost_is_discard_cost_plus_distance() -> None:
    """Ellora Caves (C5: cost 2, starting space 5) with 4 other cards: spaces 3, 4, 5, 6 cost 4,
    3, 2, 3; spaces 1 and 2 would cost 6 and 5 and are not offered. Space 4 costs 3 discards,
    which the player picks (one at a time, in rising card order: one sequence per set). The
    time card holds the lower place of space 4, so C5 takes the upper one."""
    st = position(hand=["C5", "M1", "M3", "P31", "P32"])
    play(st, "create", "C5")
    assert names_of(st) == ["s3", "s4", "s5", "s6"]
    play(st, "s4")
    assert names_of(st) == ["M1", "M3"]  # 3 of 4 in rising order: the first is M1 or M3
    play(st, "M1")
    assert names_of(st) == ["M3", "P31"]
    play(st, "P31")  # the last pick (P32, after P31) is forced
    assert codes(st, st.hand) == ["M3"]
    assert codes(st, st.discard) == ["M1", "P31", "P32"]
    assert codes(st, st.spaces[3]) == ["TIME", "C5"]
    assert st.tokens[idx(st, "C5")] == 3
    assert st.pending() == (D_ACTION, 1)


def test_create_at_the_starting_space_costs_the_printed_cost() -> None:
    """Space 5 for Ellora Caves costs its printed 2: the player picks the 2 cards."""
    st = position(hand=["C5", "M1", "M3", "P31", "P32"])
    play(st, "create", "C5", "s5")
    assert names_of(st) == ["M1", "M3", "P31"]
    play(st, "M3")
    assert names_of(st) == ["P31", "P32"]
    play(st, "P32")
    assert codes(st, st.hand) == ["M1", "P31"]
    assert codes(st, st.discard) == ["M3", "P32"]
    assert codes(st, st.spaces[4]) == ["C5"]


def test_locked_cards_only_in_their_space_and_full_spaces_not_offered() -> None:
    """Mycenae (C21) is locked in space 6; with space 6 full it cannot be created at all. The
    time card takes one place of its space (section 2): space 4 with the time card and one
    monument is full."""
    st = position(hand=["C21", "C5", "M1", "M3"], timeline={4: ["TIME", "P31"]})
    play(st, "create")
    assert names_of(st) == ["C5", "C21", "M1", "M3"]
    play(st, "C5")
    assert names_of(st) == ["s5", "s6"]  # s4 full (time card + P31); s3/s7 out of reach

    st = position(hand=["C21", "M1", "M3", "M4"], timeline={6: ["P31", "P32"]})
    play(st, "create")
    assert names_of(st) == ["M1", "M3", "M4"]


def test_one_card_hand_creates_only_at_cost_zero() -> None:
    """Unaffordable spaces are not offered: with no other card, Ollantaytambo (C6, cost 0, space
    2) goes only to space 2; Ellora Caves (cost 2) cannot be created."""
    st = position(hand=["C6"])
    play(st, "create")  # the only card and its only space are taken automatically
    # ... and with an empty hand the rest of the turn runs by itself: C6 slid to space 1
    assert st.turn == 2
    assert codes(st, st.spaces[0]) == ["C6"]
    assert st.tokens[idx(st, "C6")] == 2
    st = position(hand=["C5"])
    assert "create" not in names_of(st)


# ---------------------------------------------------------------- the hand limit (D4)


def test_every_draw_stops_at_ten() -> None:
    """Jericho (C17) draws 6 as it declines: with 7 in hand only 3 come (D4); Search at 10
    draws nothing; Excavate with 9 in hand draws 1 though it rotates 1 monument (2 a card)."""
    hand7 = ["C1", "C2", "C3", "C4", "C5", "C6", "C7"]
    st = position(hand=hand7, timeline={1: ["C17"]}, phase="decline")
    assert len(st.hand) == 10
    assert len(st.deck) == 144 - 7 - 1 - 3

    ten = hand7 + ["C8", "C9", "C10"]
    st = position(hand=ten)
    deck = list(st.deck)
    play(st, "search")
    assert len(st.hand) == 10 and st.deck == deck

    st = position(hand=ten[:9], past=["M1", "M3"])
    play(st, "excavate", "#1")
    assert len(st.hand) == 10 and st.rotated == 1


# ---------------------------------------------------------------- middle of the game (section 6)


def test_seventh_monument_flips_a_tile_and_the_die_then_hits_level_ii() -> None:
    """The 7th monument entering the Past lets the player flip tile A or B (D9, D10): tile A
    flipped, its Level I cards are discarded and 3 Level II cards fill it. Then a 5 (tile B's
    numbers) hits tile C's slot 2, and a 2 hits tile A's slot 2: Level II cards only."""
    past6 = ["M1", "M3", "M4", "M5", "M6", "M7"]
    st = position(past=past6, timeline={1: ["C5"]}, tiles=START_TILES, dice=(5, 2) + (1,) * 14,
                  phase="decline")
    assert st.pending() == (D_FLIP,)
    assert names_of(st) == ["tileA", "tileB"]
    assert st.midgame and len(st.past) == 7
    play(st, "tileA")
    assert st.tile_level == [2, 1, 2]
    # flipped tile A: T31 T32 T33 from the Level II deck; roll 5 -> tile C slot 2 (T29)
    assert tile_codes(st) == ["T31", "T32", "T33", "T4", "T5", "T6", "T28", None, "T30"]
    assert codes(st, st.tech_discards[0]) == ["T1", "T2", "T3"]
    assert codes(st, st.tech_discards[1]) == ["T29"]
    play(st, "search", "search")  # roll 2 -> tile A (flipped) slot 2
    assert tile_codes(st) == ["T31", None, "T33", "T4", "T5", "T6", "T28", None, "T30"]
    assert codes(st, st.tech_discards[1]) == ["T29", "T32"]


def test_flip_happens_once() -> None:
    """Only the 7th monument starts the middle of the game: the 8th asks nothing."""
    past7 = ["M1", "M3", "M4", "M5", "M6", "M7", "M8"]
    st = position(past=past7, timeline={1: ["C5"]}, tiles=START_TILES, tile_level=(2, 1, 2),
                  midgame=True, phase="decline")
    assert len(st.past) == 8
    assert st.pending() == (D_ACTION, 0)
    assert st.tile_level == [2, 1, 2]
