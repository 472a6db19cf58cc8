"""Dealing a game (RULES.md section 3): decks, tiles, hand, time card, chests, first decision."""

from __future__ import annotations

from solver.engine.actions import CHEST_LETTERS
from solver.engine.cards import CardBook
from solver.engine.chests import place_goal
from solver.engine.errors import SetupError
from solver.engine.flow import RULES
from solver.engine.frames import D_CHEST_GOALS, D_KEEP, D_PAY, F_TURN_START
from solver.engine.setup import DRAW_SIZE, HAND_SIZE, Setup
from solver.engine.state import EMPTY, TIME, GameState
from solver.rng import shuffled


def _resolve(book: CardBook, code: str, field_name: str) -> int:
    card = book.lookup(code)
    if card is None or card.is_tech:
        raise SetupError(f"{field_name}: unknown builder card {code!r}")
    return card.index


def _deal_chests(st: GameState, setup: Setup) -> None:
    """Goal chests into the artifact spaces from the left, effect chests under the board
    (RULES.md section 3.3); a campaign's goals are a decision (`solver.engine.chests.goals_options`)."""
    for ch in setup.goals:
        place_goal(st, CHEST_LETTERS.index(ch))
    st.chests_under = sorted(CHEST_LETTERS.index(ch) for ch in setup.under)


def new_game(setup: Setup, book: CardBook) -> GameState:
    """Deal a game (RULES.md section 3) and run it to the first decision."""
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
            dup = len(order) != len(set(order))
            what = (f"card {cards[extra[0]].code} is not in the deck" if extra else
                    f"card {cards[lacking[0]].code} is missing" if lacking else
                    "a card appears twice" if dup else "wrong length")
            raise SetupError(f"deck: not a permutation of the deck ({what})")
        deck = order[::-1]  # the file lists the top card first; the top is the list's end
    else:
        deck = shuffled(setup.seed, "builder", 0, rest)

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
    st.tech_decks = [shuffled(setup.seed, "tech1", 0, level1), shuffled(setup.seed, "tech2", 0, level2)]
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
