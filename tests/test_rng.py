"""Deterministic randomness (RULES.md section 3.1): SplitMix64 streams, exact bounded integers,
Fisher-Yates shuffles, and the same deal for the same seed on every machine."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from puzzles.cardsets import load_book
from solver.engine.newgame import new_game
from solver.engine.setup import Setup
from solver.rng import (
    GOLDEN,
    MASK64,
    Stream,
    die_rolls,
    fnv1a64,
    mix64,
    shuffled,
)

BOOK = load_book(["base"])


def plain_splitmix64(seed: int, n: int) -> list[int]:
    """The reference SplitMix64 generator (Steele, Lea & Flood 2014; Vigna's splitmix64.c):
    state += golden gamma, output mix(state)."""
    state, out = seed, []
    for _ in range(n):
        state = (state + GOLDEN) & MASK64
        out.append(mix64(state))
    return out


# ---------------------------------------------------------------- known values


def test_mix64_matches_the_published_splitmix64_outputs() -> None:
    """Published reference outputs of splitmix64.c: seed 0 gives 0xE220A8397B1DCDAF,
    0x6E789E6AA1B965F4, 0x06C45D188009454F; seed 1234567 gives 6457827717110365317,
    3203168211198807973, 9817491932198370423, 4593380528125082431, 16408922859458223821."""
    assert plain_splitmix64(0, 3) == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    assert plain_splitmix64(1234567, 5) == [
        6457827717110365317, 3203168211198807973, 9817491932198370423,
        4593380528125082431, 16408922859458223821,
    ]


def test_fnv1a64_test_vectors() -> None:
    """FNV-1a 64-bit test vectors (Fowler, Noll, Vo): "" -> offset basis, "a", "foobar"."""
    assert fnv1a64("") == 0xCBF29CE484222325
    assert fnv1a64("a") == 0xAF63DC4C8601EC8C
    assert fnv1a64("foobar") == 0x85944171F73967E8


def test_stream_regression_values() -> None:
    """The documented stream derivation, pinned: a change here changes every seeded deal."""
    s = Stream(0, "builder", 0)
    assert [s.next64() for _ in range(3)] == [
        0x67CAB19B9B38E96F, 0x6D66E3772D9A09D1, 0xC1B30B614720E33A]
    s = Stream(1, "die", 0)
    assert [s.next64() for _ in range(3)] == [
        0x3257BCD87C4D0104, 0x35BB375864E3A112, 0x2EE22990DB901EF5]
    s = Stream(0, "builder-reshuffle", 1)
    assert [s.next64() for _ in range(2)] == [0xD5CBC5F242AF5D0A, 0x25A0B923B14C4D30]
    assert die_rolls(0, 15) == (4, 2, 5, 1, 4, 3, 5, 1, 3, 4, 6, 4, 1, 5, 2)
    assert shuffled(0, "builder", 0, list(range(10))) == [5, 6, 0, 1, 4, 9, 3, 8, 2, 7]


def test_stream_state_follows_the_documented_formula() -> None:
    """Initial state mix(mix(seed) ^ fnv1a64(purpose) ^ mix(index + 1)), then SplitMix64."""
    for seed, purpose, index in ((0, "builder", 0), (99, "tech2", 3), (2**64 - 1, "policy", 7)):
        state = mix64(mix64(seed) ^ fnv1a64(purpose) ^ mix64(index + 1))
        s = Stream(seed, purpose, index)
        assert [s.next64() for _ in range(4)] == plain_splitmix64(state, 4)


def test_streams_of_different_purposes_and_indices_differ() -> None:
    firsts = {Stream(5, p, i).next64() for p in ("builder", "tech1", "tech2", "die", "policy")
              for i in range(4)}
    assert len(firsts) == 20


# ---------------------------------------------------------------- below() and shuffles


def test_below_is_in_range_and_uniform() -> None:
    """below(n) is exactly uniform (rejection sampling): a chi-square test over 60,000 rolls of
    a die stays far below the 0.1% critical value (20.5 for 5 degrees of freedom); the stream is
    fixed, so the test is deterministic."""
    s = Stream(2024, "uniformity", 0)
    rolls = [s.below(6) for _ in range(60_000)]
    assert set(rolls) == set(range(6))
    counts = Counter(rolls)
    expected = 10_000
    chi2 = sum((counts[k] - expected) ** 2 / expected for k in range(6))
    assert chi2 < 20.5
    for n in (1, 2, 3, 7, 1000, 2**63 + 5):
        assert all(0 <= s.below(n) < n for _ in range(200))
    assert all(s.below(1) == 0 for _ in range(10))


def test_below_rejects_empty_ranges() -> None:
    s = Stream(0, "x", 0)
    for n in (0, -3):
        with pytest.raises(ValueError):
            s.below(n)


def test_fisher_yates_gives_permutations_all_equally_likely() -> None:
    """A shuffle is a permutation of its input; over many streams all 24 orders of 4 items
    appear with near-equal frequency (chi-square, 23 degrees of freedom, 0.1%: 49.7)."""
    items = ["a", "b", "c", "d"]
    seen: Counter[tuple[str, ...]] = Counter()
    for seed in range(24_000):
        out = Stream(seed, "perm", 0).shuffled(items)
        assert sorted(out) == items
        seen[tuple(out)] += 1
    assert set(seen) == set(itertools.permutations(items))
    chi2 = sum((n - 1000) ** 2 / 1000 for n in seen.values())
    assert chi2 < 49.7
    assert items == ["a", "b", "c", "d"]  # the input is not changed


def test_shuffled_copies_and_keeps_every_card() -> None:
    cards = list(range(144))
    out = shuffled(17, "builder", 0, cards)
    assert sorted(out) == cards and out != cards
    assert out == shuffled(17, "builder", 0, cards)


# ---------------------------------------------------------------- same seed, same deal


def test_same_seed_same_deal_different_seed_different_deal() -> None:
    for hand in ("1", "draw"):
        a = new_game(Setup(hand=hand, seed=123), BOOK)
        b = new_game(Setup(hand=hand, seed=123), BOOK)
        c = new_game(Setup(hand=hand, seed=124), BOOK)
        assert a.key() == b.key()
        assert (a.deck, a.tiles, a.tech_decks, a.hand) == (b.deck, b.tiles, b.tech_decks, b.hand)
        assert a.deck != c.deck
        assert a.setup.rolls == b.setup.rolls


def test_deal_is_the_documented_shuffle_of_the_sorted_cards() -> None:
    """The builder deck is Stream(seed, "builder", 0) shuffling the card indices in rising
    order (the top is the list's end); technologies likewise with "tech1" / "tech2"."""
    st = new_game(Setup(hand="1", seed=9), BOOK)
    rest = sorted(c.index for c in BOOK.builders if c.starting_hand != 1)
    assert st.deck == shuffled(9, "builder", 0, rest)
    level1 = sorted(c.index for c in BOOK.technologies if c.level == 1)
    level2 = sorted(c.index for c in BOOK.technologies if c.level == 2)
    deck1 = shuffled(9, "tech1", 0, level1)
    deck2 = shuffled(9, "tech2", 0, level2)
    # tiles A, B, C were filled from the tops (list ends), slot by slot
    assert st.tiles[:6] == deck1[::-1][:6]
    assert st.tiles[6:] == deck2[::-1][:3]
    assert st.tech_decks == [deck1[:-6], deck2[:-3]]


def test_die_seed_defaults_to_the_game_seed() -> None:
    assert Setup(seed=5).rolls == die_rolls(5, 15)
    assert Setup(seed=5, die_seed=6).rolls == die_rolls(6, 15)
    assert Setup(seed=5, time_space=3).rolls == die_rolls(5, 14)
    assert all(1 <= r <= 6 for r in die_rolls(77, 500))
