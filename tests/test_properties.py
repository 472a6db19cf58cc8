"""Random legal play never breaks an invariant of the rules (hypothesis property tests).

A game is dealt from a random seed, hand (premade 1-4 or draw-10-keep-6) and time-card start
space, and played to the end with the policy stream ``Stream(seed, "policy", 0)``: "uniform"
picks uniformly among the legal options; "builder" (still random, still legal) takes Create at
an action choice 3 times in 4 when it can, else Excavate when it can, else a uniform option, so
that monuments reach the Past, the middle of the game and Potala Palace come up (uniform play
mostly searches: the middle of the game in about 1 game in 40, against 6 in 7). At every
decision the invariants below must hold. The default (CI) run plays a few hundred games;
``-m slow`` plays 5,000.

Invariants (RULES.md sections 2-7, D4, D12, D18):

* every card of the game is in exactly one zone (`GameState.zone_of_every_card`);
* knowledge is never negative, lost knowledge neither; rotated Past monuments <= Past;
* at most two monuments a space; the time card is in exactly the space `time_space` says, and
  it makes a third item of a space only after Potala Palace (C30) was created (D12);
* the hand never holds more than 10 cards (D4); at most 5 artifacts on the board;
* no tile holds exactly one card; a tile's cards are of its level; after the middle of the game
  exactly one of tiles A and B is Level II (sections 4D and 6);
* the options of a decision are distinct, and there are none exactly when the game is over;
* the game ends in the decline phase of turn 16 (time card from space 4) or 15 (from 3): the
  third visit of the time card to space 1, with one technology phase fewer than turns (D8);
* the same seed replays the same game (equal `key()` at every step), and `clone()` is
  independent of its original.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from puzzles.cardsets import load_book
from solver.engine import actions as A
from solver.engine.frames import D_FLIP
from solver.engine.newgame import new_game
from solver.engine.setup import Setup, turns_for
from solver.engine.state import HAND_LIMIT, TIME, GameState
from solver.rng import Stream

BOOK = load_book(["base"])
POTALA = next(c.index for c in BOOK.cards if c.code == "C30")

seeds = hs.integers(min_value=0, max_value=2**64 - 1)
hands = hs.sampled_from(["1", "2", "3", "4", "draw"])
time_spaces = hs.sampled_from([4, 3])
policies = hs.sampled_from(["uniform", "builder"])


def choose(policy: str, stream: Stream, legal: list[int]) -> int:
    """One random legal option under the named policy (module docstring)."""
    if policy == "builder":
        r = stream.below(4)
        if r < 3 and A.ACT_CREATE in legal:
            return A.ACT_CREATE
        if A.ACT_EXCAVATE in legal:
            return A.ACT_EXCAVATE
    return legal[stream.below(len(legal))]


def check_invariants(st: GameState, potala_seen: bool) -> None:
    """Assert every invariant of the module docstring for one position."""
    st.zone_of_every_card()
    assert min(st.tokens) >= 0
    assert st.lost >= 0
    assert 0 <= st.rotated <= len(st.past)
    assert len(st.hand) <= HAND_LIMIT
    assert len(st.board_artifacts()) <= 5
    assert st.past == sorted(st.past) and st.hand == sorted(st.hand)

    times = [s + 1 for s, items in enumerate(st.spaces) for c in items if c == TIME]
    if st.time_space == 0:
        assert times == []
    else:
        assert times == [st.time_space]
    for items in st.spaces:
        monuments = [c for c in items if c != TIME]
        assert len(monuments) <= 2
        assert all(st.card(c).is_monument for c in monuments)
        if len(items) == 3:
            assert TIME in items and potala_seen

    cards = st.book.cards
    for tile in range(3):
        held = st.tile_cards(tile)
        assert len(held) != 1
        assert all(cards[c].level == st.tile_level[tile] for c in held)
    if st.midgame and st.pending() != (D_FLIP,):
        assert sorted(st.tile_level[:2]) == [1, 2] and st.tile_level[2] == 2
    if not st.midgame:
        assert st.tile_level == [1, 1, 2] and len(st.past) < 7
    else:
        assert len(st.past) >= 7

    legal = st.legal_actions()
    assert len(set(legal)) == len(legal)
    assert st.is_terminal() == (legal == [])


def play_checked(seed: int, hand: str, time_space: int,
                 policy_name: str = "uniform") -> list[tuple[object, ...]]:
    """Play one random game checking every invariant; return its sequence of keys."""
    st = new_game(Setup(hand=hand, seed=seed, time_space=time_space), BOOK)
    policy = Stream(seed, "policy", 0)
    clone_check = Stream(seed, "clone-check", 0)
    potala_seen = False
    keys = [st.key()]
    while True:
        potala_seen = potala_seen or st.potala or st.in_timeline(POTALA)
        check_invariants(st, potala_seen)
        if st.is_terminal():
            break
        legal = st.legal_actions()
        if clone_check.below(8) == 0:
            before = st.key()
            other = st.clone()
            other.apply(legal[clone_check.below(len(legal))])
            assert st.key() == before
            assert st.legal_actions() == legal
        st.apply(choose(policy_name, policy, legal))
        keys.append(st.key())
    turns = turns_for(time_space)
    assert st.turn == turns
    assert st.time_visits == 3 and st.time_space == 1
    assert st.die_pos == turns - 1
    assert st.stack == []
    return keys


def replay(seed: int, hand: str, time_space: int,
           policy_name: str = "uniform") -> list[tuple[object, ...]]:
    """The same game again, without checks: its key sequence."""
    st = new_game(Setup(hand=hand, seed=seed, time_space=time_space), BOOK)
    policy = Stream(seed, "policy", 0)
    keys = [st.key()]
    while not st.is_terminal():
        st.apply(choose(policy_name, policy, st.legal_actions()))
        keys.append(st.key())
    return keys


@settings(max_examples=400, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, hand=hands, time_space=time_spaces, policy=policies)
def test_random_play_keeps_every_invariant(seed: int, hand: str, time_space: int,
                                           policy: str) -> None:
    play_checked(seed, hand, time_space, policy)


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, hand=hands, time_space=time_spaces, policy=policies)
def test_same_seed_replays_identically(seed: int, hand: str, time_space: int,
                                       policy: str) -> None:
    """Equal histories give equal keys at every step (and the game is deterministic)."""
    keys = play_checked(seed, hand, time_space, policy)
    assert keys == replay(seed, hand, time_space, policy)


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, hand=hands, steps=hs.integers(min_value=0, max_value=400), policy=policies)
def test_clone_is_independent(seed: int, hand: str, steps: int, policy: str) -> None:
    """Play to a random point, clone, play the clone to the end: the original's key and
    options are unchanged, and the original then plays on exactly as the clone did."""
    st = new_game(Setup(hand=hand, seed=seed), BOOK)
    stream = Stream(seed, "policy", 0)
    for _ in range(steps):
        if st.is_terminal():
            break
        st.apply(choose(policy, stream, st.legal_actions()))
    key, legal = st.key(), list(st.legal_actions())
    other = st.clone()
    assert other.key() == key
    branch = Stream(seed, "branch", 0)
    trail = []
    while not other.is_terminal():
        options = other.legal_actions()
        a = options[branch.below(len(options))]
        trail.append(a)
        other.apply(a)
        assert st.key() == key and st.legal_actions() == legal
    for a in trail:
        st.apply(a)
    assert st.key() == other.key()


@pytest.mark.slow
@settings(max_examples=5000, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, hand=hands, time_space=time_spaces, policy=policies)
def test_random_play_keeps_every_invariant_5000_games(seed: int, hand: str, time_space: int,
                                                      policy: str) -> None:
    play_checked(seed, hand, time_space, policy)
