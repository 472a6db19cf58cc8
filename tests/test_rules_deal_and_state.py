"""Setup (RULES.md section 3), Campaign ranks and goals (section 10), the Timeline (section 2,
D5), technology tiles and decks (sections 3.1 and 5), goal comparisons (section 8) and the
engine's own contracts (position key, copies, handler table, observed play).

Each test here pins a behaviour that a surviving mutant of `solver.engine.newgame`,
`solver.engine.state`, `solver.engine.flow` or `solver.engine.cards` changed without any rules
test noticing. Positions use real cards of `puzzles/data/cards/base.json`.
"""

from __future__ import annotations

import pytest

from puzzles.chests import load_chests
from solver.engine import newgame
from solver.engine.cards import CardBook, Clause
from solver.engine.errors import SetupError
from solver.engine.flow import PHASE_MODULES, RULES, Auto, Rules
from solver.engine.frames import D_KEEP, D_PAY, Frame
from solver.engine.goals import comparisons, parse_goal
from solver.engine.newgame import deal_decks, new_game
from solver.engine.setup import Setup
from solver.engine.state import EMPTY, GameState
from solver.rng import shuffled
from tests.builder import book, codes, idx, names_of, play, position

BOOK = book()
LEVEL1 = [c.code for c in BOOK.cards if c.is_tech and c.level == 1]
LEVEL2 = [c.code for c in BOOK.cards if c.is_tech and c.level == 2]


def indices(card_codes: list[str] | tuple[str, ...]) -> list[int]:
    return [idx(BOOK, c) for c in card_codes]


def pending_kind(st: GameState) -> int | None:
    top = st.pending()
    return None if top is None else top[0]


# ---------------------------------------------------------------- section 3.1: technology decks


def test_technology_decks_given_in_part_put_those_cards_on_top_the_rest_shuffled() -> None:
    """Section 3.1 (`Setup.tech_deck_1` / `tech_deck_2`): given technology cards are the top of
    their level's deck, top first; the rest of that deck is shuffled from the seed (stream
    ``tech1`` / ``tech2``, `solver.rng`). The first 3 Level I cards fill tile A, the next tile B,
    the first Level II cards tile C (section 3.2)."""
    top1 = ("T9", "T3", "T17", "T22")
    top2 = ("T40", "T30")
    setup = Setup(hand="1", seed=7, tech_deck_1=top1, tech_deck_2=top2)
    decks = deal_decks(setup, BOOK)
    rest1 = sorted(set(indices(LEVEL1)) - set(indices(top1)))
    rest2 = sorted(set(indices(LEVEL2)) - set(indices(top2)))
    assert decks.tech1 == shuffled(7, "tech1", 0, rest1) + indices(top1)[::-1]
    assert decks.tech2 == shuffled(7, "tech2", 0, rest2) + indices(top2)[::-1]

    st = new_game(setup, BOOK)
    assert codes(st, st.tiles[0:3]) == list(top1[:3])
    assert st.card(st.tiles[3]).code == top1[3]
    assert codes(st, st.tiles[6:8]) == list(top2)


@pytest.mark.parametrize(("field", "given", "message"), [
    ("tech_deck_1", ("T99",), "tech_deck_1: unknown technology 'T99'"),
    ("tech_deck_1", ("C5",), "tech_deck_1: unknown technology 'C5'"),
    ("tech_deck_1", ("T28",), "tech_deck_1: card T28 is a Level II technology, not Level I"),
    ("tech_deck_2", ("T1",), "tech_deck_2: card T1 is a Level I technology, not Level II"),
    ("tech_deck_1", ("T1", "T2", "T1"), "tech_deck_1: card T1 appears twice"),
])
def test_a_technology_order_that_does_not_fit_its_deck_is_refused(
        field: str, given: tuple[str, ...], message: str) -> None:
    """Section 3.1: an explicit technology order must name technologies of that deck's level,
    each once; otherwise the deal is refused with a message naming the field and the card."""
    with pytest.raises(SetupError) as err:
        new_game(Setup(hand="1", seed=1, **{field: given}), BOOK)  # type: ignore[arg-type]
    assert str(err.value) == message


@pytest.mark.skipif(not newgame.__file__.endswith(".py"),
                    reason="a patched Setup.card_pool cannot reach the compiled build's calls "
                           "(CI runs this file on the sources too)")
@pytest.mark.parametrize(("setup_args", "message"), [
    ({"hand": "list", "hand_cards": ("C5", "M18", "P18", "P31", "A4", "A8")},
     "hand: card C5 is not in this game's deck"),
    ({"hand": "1"}, "hand: premade hand 1 has 5 cards in this deck, not 6"),
    ({"hand": "2", "tech_deck_1": ("T1",)}, "tech_deck_1: card T1 is not in this game's deck"),
])
def test_a_card_outside_the_games_cards_cannot_be_dealt(
        monkeypatch: pytest.MonkeyPatch, setup_args: dict[str, object], message: str) -> None:
    """Section 3 (restricted games, `Setup.card_pool`): a hand or technology order naming a
    card that is not among this game's cards is refused, and a premade hand missing a card is
    not dealt short. The game's cards here: every base card but C5 and T1."""
    left_out = {idx(BOOK, "C5"), idx(BOOK, "T1")}

    def pool(self: Setup, b: CardBook) -> frozenset[int]:
        return frozenset(range(len(b))) - left_out

    monkeypatch.setattr(Setup, "card_pool", pool)
    with pytest.raises(SetupError) as err:
        new_game(Setup(seed=1, **setup_args), BOOK)  # type: ignore[arg-type]
    assert str(err.value) == message


@pytest.mark.parametrize(("setup_args", "message"), [
    ({"hand": "list", "hand_cards": ("C5", "M18", "P18", "P31", "A4", "X9")},
     "hand: unknown builder card 'X9'"),
    ({"hand": "1", "deck": ("X9",)}, "deck: unknown builder card 'X9'"),
])
def test_an_unknown_builder_card_is_refused_naming_its_field(
        setup_args: dict[str, object], message: str) -> None:
    """Section 3.1/3.4: a listed hand or an explicit deck order naming no builder card is
    refused, and the message names the field."""
    with pytest.raises(SetupError) as err:
        new_game(Setup(seed=1, **setup_args), BOOK)  # type: ignore[arg-type]
    assert str(err.value) == message


def test_an_explicit_deck_order_listing_a_card_twice_is_refused() -> None:
    """Section 3.1: an explicit deck order must be a permutation of the deck; one card listed
    twice (and every card present) says so."""
    hand = {"C5", "M18", "P18", "P31", "A4", "A8"}
    rest = [c.code for c in BOOK.builders if c.code not in hand]
    with pytest.raises(SetupError) as err:
        new_game(Setup(hand="1", seed=1, deck=(*rest, rest[0])), BOOK)
    assert str(err.value) == f"deck: not a permutation of the deck (card {rest[0]} appears twice)"
    with pytest.raises(SetupError) as err:  # one twice in place of another: the twice is named
        new_game(Setup(hand="1", seed=1, deck=(*rest[:-1], rest[0])), BOOK)
    assert str(err.value) == f"deck: not a permutation of the deck (card {rest[0]} appears twice)"


def test_a_hand_card_in_the_deck_order_is_named_as_the_hands() -> None:
    """Section 3.1: a card of the hand listed in the deck is in the hand, not 'not in the
    deck' (it is a builder card of the game)."""
    hand = {"C5", "M18", "P18", "P31", "A4", "A8"}
    rest = [c.code for c in BOOK.builders if c.code not in hand]
    with pytest.raises(SetupError) as err:
        new_game(Setup(hand="1", seed=1, deck=(*rest[:-1], "M18")), BOOK)
    assert str(err.value) == ("deck: not a permutation of the deck (card M18 is in the hand, "
                              "not the deck)")


# ---------------------------------------------------------------- section 10: Campaign setup


def test_campaign_rank_discards_shrink_the_kept_part_of_the_draw() -> None:
    """Sections 3.4 and 10: draw 10 and keep 6, less the rank's extra discards: with 2 more
    discards the player keeps 4 and discards 6."""
    st = new_game(Setup(hand="draw", seed=11, extra_discards=2), BOOK)
    assert len(st.hand) == 10 and pending_kind(st) == D_KEEP
    while pending_kind(st) == D_KEEP:
        st.apply(st.legal[0])
    assert len(st.hand) == 4 and len(st.discard) == 6


def test_campaign_rank_discard_from_a_given_hand_may_be_any_hand_card() -> None:
    """Section 10: a rank's extra discard at setup is a builder card of the player's choice;
    every card of the hand may be discarded, the lowest-numbered ones (C1, C2) too."""
    hand = ("C1", "C2", "C5", "M18", "P18", "A4")
    st = new_game(Setup(hand="list", hand_cards=hand, seed=2, extra_discards=1), BOOK)
    assert pending_kind(st) == D_PAY
    assert sorted(names_of(st)) == sorted(hand)
    play(st, "C1")
    assert codes(st, st.discard) == ["C1"] and len(st.hand) == 5


def test_campaign_goal_choice_offers_every_revealed_chest_the_first_letter_too() -> None:
    """Section 10 (D17): after the draw the player chooses goals among the 5 revealed chests,
    in letter order; chest А (the first letter) is one of the options."""
    setup = Setup(hand="draw", seed=4, revealed=("А", "Б", "В", "Г", "Д"), campaign=True,
                  chest_data=load_chests())
    st = new_game(setup, BOOK)
    assert names_of(st) == ["chest:А", "chest:Б", "chest:В", "chest:Г", "chest:Д"]


# ---------------------------------------------------------------- section 2: the Timeline


def test_timeline_adjacency_reaches_spaces_1_and_6() -> None:
    """Section 2 and D5: adjacency is orthogonal, so a monument in space 1 is adjacent to the
    one in the same row of space 2, and a monument in space 5 to the one in space 6; a card
    outside the Timeline is adjacent to nothing."""
    st = position(hand=["A8"], timeline={1: ["C5"], 2: ["M18"], 5: ["P18"], 6: ["P31"]},
                  time_space=3)
    assert st.adjacent(idx(st, "C5")) == [idx(st, "M18")]
    assert st.adjacent(idx(st, "P18")) == [idx(st, "P31")]
    assert st.adjacent(idx(st, "P31")) == [idx(st, "P18")]
    assert st.adjacent(idx(st, "A8")) == []


def test_a_card_in_hand_or_the_past_is_not_in_the_timeline() -> None:
    """Section 2: the Timeline holds only the monuments created into its spaces."""
    st = position(hand=["C5"], timeline={2: ["M18"]}, past=["P18"])
    assert st.in_timeline(idx(st, "M18"))
    assert not st.in_timeline(idx(st, "C5"))
    assert not st.in_timeline(idx(st, "P18"))


# ---------------------------------------------------------------- section 5: technology tiles


@pytest.mark.parametrize("level", [1, 2])
def test_a_tile_left_with_one_card_refills_when_exactly_three_remain(level: int) -> None:
    """Sections 4D and 5: a tile left with exactly one card discards it and takes 3 new cards
    of its level, reshuffling that level's discard pile when the deck runs out; only with fewer
    than 3 in deck and discard does it stay empty. Here the die (roll 2) takes the second card
    of tile A, so the deck (1 card) and the discard pile (2) hold exactly 3."""
    level_codes = LEVEL1 if level == 1 else LEVEL2
    x, y, z = level_codes[0], level_codes[1], level_codes[2]  # z: the only card left in the deck
    st = position(tiles=[x, y, None, None, None, None, None, None, None], techs=level_codes[3:],
                  tile_level=(level, 1, 2), midgame=level == 2, phase="tech", dice=(2,) * 16)
    lv = level - 1
    assert sorted(codes(st, st.tiles[0:3])) == sorted([x, y, z])
    assert st.tech_decks[lv] == [] and st.tech_discards[lv] == []


def test_a_learn_refills_its_tile_before_the_technologys_own_effect() -> None:
    """Section 5 and the card clarifications ("Tech tiles": each departure that leaves one card):
    Latin Alphabet (T27) taken from tile A with one other card there (T1) refills tile A
    before its immediate effect (bury a Level II technology of the tiles) asks for its pick:
    the other card is already in the discard pile, tile A holds 3 new cards."""
    st = position(past=["P1", "P2", "P3", "M3", "M4"],
                  tiles=["T27", "T1", None, None, None, None, "T43", "T44", None])
    play(st, "learn")  # T27 the one technology learnable: taken at once
    assert idx(st, "T27") in st.techs and names_of(st) == ["T43", "T44"]  # the bury's pick
    assert idx(st, "T1") in st.tech_discards[0]
    assert EMPTY not in st.tiles[0:3]


@pytest.mark.parametrize(("tile", "purpose"), [(0, "tech1-reshuffle"), (2, "tech2-reshuffle")])
def test_a_technology_reshuffle_uses_its_levels_own_seeded_stream(tile: int, purpose: str) -> None:
    """Sections 3.1 and 5: an empty technology deck is refilled by shuffling its discard pile
    with the game's seed, deterministically: the k-th reshuffle of Level I uses stream
    ``tech1-reshuffle, k``, of Level II ``tech2-reshuffle, k`` (`solver.rng`), and each level
    counts its own reshuffles (`GameState.reshuffles`: builder, Level I, Level II)."""
    st = position()  # tiles empty, every technology in its deck
    lv = 0 if tile == 0 else 1
    pile = sorted(st.tech_decks[lv])
    st.tech_decks[lv] = []
    st.tech_discards[lv] = pile[:]
    st.reshuffles = [3, 1, 2]
    st.fill_tile(tile)
    expected = shuffled(st.setup.seed, purpose, [1, 2][lv], pile)
    assert st.tiles[3 * tile:3 * tile + 3] == expected[::-1][:3]
    assert st.tech_decks[lv] == expected[:-3] and st.tech_discards[lv] == []
    assert st.reshuffles == ([3, 2, 2] if lv == 0 else [3, 1, 3])


# ---------------------------------------------------------------- section 8: goal comparisons


def test_goal_strict_comparisons_are_strict() -> None:
    """Section 8 (chest goals from a data file, `solver.engine.goals`): ``>`` and ``<`` are
    strict: ``lost < 3`` is not met with exactly 3 lost knowledge, ``techs.any > 2`` not with
    exactly 2 technologies."""
    less = next(comparisons(parse_goal("lost < 3")))
    more = next(comparisons(parse_goal("techs.any > 2")))
    assert isinstance(less, Clause) and isinstance(more, Clause)
    assert (less.holds(2), less.holds(3), less.holds(4)) == (True, False, False)
    assert (more.holds(1), more.holds(2), more.holds(3)) == (False, False, True)


# ---------------------------------------------------------------- engine contracts


def test_position_key_tells_apart_knowledge_on_the_first_card() -> None:
    """`GameState.key`: equal keys mean the same future. Knowledge on a Timeline monument
    decides its future (decline turns it into lost knowledge, section 4C), so two positions
    differing only in the knowledge on C1 Osirion (card number 0) have different keys."""
    st = position(timeline={2: ["C1"]}, tokens={"C1": 2})
    other = st.clone()
    other.tokens[idx(st, "C1")] = 3
    assert st.key() != other.key()


def test_position_key_tells_apart_level_one_technology_deck_orders() -> None:
    """`GameState.key`: the order of the Level I technology deck decides which cards refill
    tiles A and B (section 5), so it is part of the position."""
    st = position()
    other = st.clone()
    other.tech_decks[0][-1], other.tech_decks[0][-2] = \
        other.tech_decks[0][-2], other.tech_decks[0][-1]
    assert st.key() != other.key()


def test_a_copied_game_keeps_each_technology_discard_pile() -> None:
    """`GameState.clone`: a copy holds the same Level I and Level II technology discard piles
    (they refill the decks, section 5), independent of the original."""
    st = position()
    st.tech_discards = [[st.tech_decks[0].pop()], [st.tech_decks[1].pop()]]
    copy = st.clone()
    assert copy.tech_discards == st.tech_discards
    copy.tech_discards[0].append(copy.tech_decks[0].pop())
    assert len(st.tech_discards[0]) == 1


def test_the_rules_table_built_anew_equals_the_shared_one() -> None:
    """`solver.engine.flow.Rules`: the handler table merged from the phase modules is the one
    every game plays by (`RULES`), and a frame kind registered twice is refused."""
    fresh = Rules()
    assert (fresh.auto, fresh.options, fresh.choose) == (RULES.auto, RULES.options, RULES.choose)
    with pytest.raises(ValueError, match="registered twice"):
        Rules((PHASE_MODULES[0], PHASE_MODULES[0]))


class _Watcher:
    """A minimal `solver.engine.flow.Observer`: runs each automatic frame."""

    def __init__(self, st: GameState) -> None:
        self.st = st
        self.decisions = 0

    def note(self, fr: Frame, action: int, explicit: bool) -> None:
        self.decisions += 1

    def auto(self, fr: Frame, run: Auto) -> None:
        run(self.st, fr)


def test_an_observed_game_ends_with_no_legal_action() -> None:
    """Section 4 (the game ends after the last turn): played with an observer (as a line is
    described), the finished game offers no action, like an unobserved one."""
    st = position(turn=16, hand=["C5", "M18"])
    watcher = _Watcher(st)
    while not st.is_terminal():
        RULES.apply(st, st.legal[0], watcher)
    assert st.legal == [] and st.legal_actions() == []
    assert watcher.decisions >= 2
