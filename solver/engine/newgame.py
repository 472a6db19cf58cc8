"""Dealing a game (RULES.md section 3): decks, tiles, hand, time card, chests, first decision."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from solver.engine.actions import CHEST_LETTERS
from solver.engine.cards import CardBook
from solver.engine.chests import place_goal
from solver.engine.errors import SetupError, quote
from solver.engine.flow import RULES
from solver.engine.frames import D_CHEST_GOALS, D_KEEP, D_PAY, F_TURN_START
from solver.engine.setup import DRAW_SIZE, HAND_SIZE, Setup
from solver.engine.state import EMPTY, TIME, GameState
from solver.frozen import Frozen
from solver.rng import shuffled


def _resolve(book: CardBook, code: str, field_name: str) -> int:
    card = book.lookup(code)
    if card is None or card.is_tech:
        raise SetupError(f"{field_name}: unknown builder card {quote(code)}")
    return card.index


def _deal_chests(st: GameState, setup: Setup) -> None:
    """Goal chests into the artifact spaces from the left, effect chests under the board
    (RULES.md section 3.3); a campaign's goals are a decision
    (`solver.engine.chests.goals_options`)."""
    for ch in setup.goals:
        place_goal(st, CHEST_LETTERS.index(ch))
    st.chests_under = sorted(CHEST_LETTERS.index(ch) for ch in setup.under)


@dataclass(frozen=True)
class Decks(Frozen):
    """The cards of a deal before play (RULES.md section 3): the starting hand (premade or
    listed; empty for draw 10), the builder deck and the two technology decks. Each deck is a
    list whose END is its top, as `GameState` keeps it."""

    hand: list[int]
    builder: list[int]
    tech1: list[int]
    tech2: list[int]


def _tech_order(book: CardBook, pool: list[int], given: tuple[str, ...] | None, level: int,
                seed: int, purpose: str) -> list[int]:
    """A technology deck: the given top cards (top first), the rest shuffled from the seed;
    nothing given, the whole deck shuffled (RULES.md section 3.1)."""
    field_name = f"tech_deck_{level}"
    if given is None:
        return shuffled(seed, purpose, 0, pool)
    top: list[int] = []
    for code in given:
        card = book.lookup(code)
        if card is None or not card.is_tech:
            raise SetupError(f"{field_name}: unknown technology {code!r}")
        if card.level != level:
            raise SetupError(f"{field_name}: card {card.code} is a Level {'I' * card.level} "
                             f"technology, not Level {'I' * level}")
        if card.index not in pool:
            raise SetupError(f"{field_name}: card {card.code} is not in this game's deck")
        if card.index in top:
            raise SetupError(f"{field_name}: card {card.code} appears twice")
        top.append(card.index)
    rest = [i for i in pool if i not in set(top)]
    return shuffled(seed, purpose, 0, rest) + top[::-1]


def deal_decks(setup: Setup, book: CardBook) -> Decks:
    """The hand and the three decks of a setup (RULES.md section 3): a premade hand is taken
    out before the builder deck is shuffled; an explicit deck order replaces the shuffle;
    technology decks may be given in part (`Setup.tech_deck_1`, `Setup.tech_deck_2`).

    :raises SetupError: a hand, deck or technology order that does not fit the card sets."""
    pool = setup.card_pool(book)
    cards = book.cards
    builders = sorted(i for i in pool if not cards[i].is_tech)
    level1 = sorted(i for i in pool if cards[i].is_tech and cards[i].level == 1)
    level2 = sorted(i for i in pool if cards[i].is_tech and cards[i].level == 2)

    hand: list[int] = []
    if setup.hand in ("1", "2", "3", "4"):
        mark = int(setup.hand)
        hand = [i for i in builders if cards[i].starting_hand == mark]
        if len(hand) != HAND_SIZE:
            raise SetupError(f"hand: premade hand {mark} has {len(hand)} cards in this deck, not 6")
    elif setup.hand == "list":
        hand = [_resolve(book, c, "hand") for c in setup.hand_cards]
        if len(hand) != HAND_SIZE or len(set(hand)) != HAND_SIZE:
            raise SetupError(f"hand: needs 6 distinct builder cards, got {list(setup.hand_cards)}")
        missing = [cards[i].code for i in hand if i not in pool]
        if missing:
            raise SetupError(f"hand: card {missing[0]} is not in this game's deck")
    rest = [i for i in builders if i not in set(hand)]

    if setup.deck is not None:
        order = [_resolve(book, c, "deck") for c in setup.deck]
        if sorted(order) != rest:
            extra = sorted(set(order) - set(rest))
            lacking = sorted(set(rest) - set(order))
            twice = [c for c, n in Counter(order).items() if n > 1]  # in the order given
            in_hand = [c for c in extra if c in hand]
            what = (f"card {cards[in_hand[0]].code} is in the hand, not the deck" if in_hand
                    else f"card {cards[extra[0]].code} is not in the deck" if extra
                    else f"card {cards[twice[0]].code} appears twice" if twice
                    else f"card {cards[lacking[0]].code} is missing" if lacking
                    else "wrong length")
            raise SetupError(f"deck: not a permutation of the deck ({what})")
        deck = order[::-1]  # the file lists the top card first; the top is the list's end
    else:
        deck = shuffled(setup.seed, "builder", 0, rest)
    tech1 = _tech_order(book, level1, setup.tech_deck_1, 1, setup.seed, "tech1")
    tech2 = _tech_order(book, level2, setup.tech_deck_2, 2, setup.seed, "tech2")
    return Decks(hand, deck, tech1, tech2)


def new_game(setup: Setup, book: CardBook) -> GameState:
    """Deal a game (RULES.md section 3) and run it to the first decision."""
    decks = deal_decks(setup, book)
    hand, deck = decks.hand, decks.builder

    st = GameState.__new__(GameState)
    st.book = book
    st.setup = setup
    st.rules = RULES
    st.hand = sorted(hand)
    st.deck = deck
    st.discard = []
    st.spaces = [(), (), (), (), (), ()]
    st.tokens = [0] * len(book)
    st.past = []
    st.rotated = 0
    st.artifacts = [EMPTY] * 5
    st.lost = 0
    st.techs = []
    st.tiles = [EMPTY] * 9
    st.tile_level = [1, 1, 2]
    st.tech_decks = [decks.tech1, decks.tech2]
    st.tech_discards = [[], []]
    st.turn = 0
    st.time_space = setup.time_space
    st.spaces[setup.time_space - 1] = (TIME,)
    st.time_visits = 0
    st.die_pos = 0
    st.reshuffles = [0, 0, 0]
    st.stack = [(F_TURN_START,)]
    st.limbo = []
    st.midgame = False
    st.potala = False
    st.in_decline = False
    st.declining = -1
    st.vanishing = -1
    st.converted = 0
    st.over = False
    st.legal = []
    st.chests_under = []
    st.goal_chests = []
    st.flags = 0
    st.held = ()
    st.score_memo = None
    for tile in range(3):
        st.fill_tile(tile)
    _deal_chests(st, setup)
    keep = HAND_SIZE - setup.extra_discards
    if setup.hand == "draw":
        st.draw(DRAW_SIZE)
        st.stack.append((D_KEEP, keep, -1, ()))
    elif setup.extra_discards:
        st.stack.append((D_PAY, setup.extra_discards, -1, None))  # campaign rank (section 10)
    if setup.revealed:  # Campaign: goals are chosen after the draw, before the discards
        st.stack.append((D_CHEST_GOALS, -1, ()))
    RULES.settle(st)
    return st
