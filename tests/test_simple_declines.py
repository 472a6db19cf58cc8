"""The simple bound's declines: each monument still to decline brings its own printed VP and
its own end-game rule, so the bound takes the largest sums of the two over the cards
(`solver.bounds.simple._declined_max`), not the largest VP and the first end-game rules
separately; a card adds a decline beyond space 1's two places only if its effect can put a
monument into the Timeline (`solver.bounds.movers.puts_monument`: not a Create of an
artifact)."""

from __future__ import annotations

import itertools

import pytest

from solver.bounds.endrules import CounterRanges, effect_max
from solver.bounds.movers import puts_monument
from solver.bounds.poolfacts import pool_facts
from solver.bounds.simple import _declined_max, decline_phases_left, simple_upper_bound
from solver.engine.state import GameState
from tests.builder import idx, position
from tests.test_endgame import plain_optimum, random_line
from tests.test_relaxation import endgame


def _turn15_decline(space1: list[str], past: list[str]) -> GameState:
    return position(hand=[], timeline={1: space1, 3: ["C3"]}, past=past, techs=["T1", "T2", "T5"],
                    time_space=2, time_visits=2, turn=15, phase="decline",
                    deck_top=["C6", "C7", "C8", "C9"])


def test_declined_max_takes_the_largest_sums_of_vp_and_effect() -> None:
    """Any order of the candidates gives the sum of the largest (VP + effect) values; a card
    with no end-game rule brings its VP only."""
    st = _turn15_decline(["M1", "P5"], ["P1"])
    facts = pool_facts(st)
    cards = st.book.cards
    ranges = CounterRanges(st, 2, 4, 2, 0, 50)
    future = [c for c in facts.monuments if c not in set(st.past)]
    values = sorted((facts.vp[c] + (effect_max(cards[c], ranges) if c in facts.endgame else 0)
                     for c in future), reverse=True)
    for k in (0, 1, 2, 5):
        expect = sum(values[:k])
        assert _declined_max(future, k, facts, cards, ranges) == expect
        assert _declined_max(future[::-1], k, facts, cards, ranges) == expect
    endgame_cards = [c for c in future if c in facts.endgame]
    best = max(endgame_cards, key=lambda c: facts.vp[c] + effect_max(cards[c], ranges))
    assert _declined_max([best], 3, facts, cards, ranges) == facts.vp[best] + effect_max(
        cards[best], ranges)


@pytest.mark.parametrize("space1", [["M1", "P5"], ["P4", "C2"], ["C1", "P1"]])
def test_bound_at_the_last_decline_at_least_the_optimum(space1: list[str]) -> None:
    """Turn 15's decline phase (the last that moves monuments to the Past, D8) with end-game
    monuments in space 1: the bound is at least the optimum of a search with no bound."""
    st = _turn15_decline(space1, ["P1", "M3"] if "P1" not in space1 else ["M3"])
    assert decline_phases_left(st) == 1
    complete, best = plain_optimum(st)
    assert complete and best is not None
    assert simple_upper_bound(st, pool_facts(st)) >= best
    assert idx(st, space1[0]) in st.spaces[0]


@pytest.mark.parametrize("seed", range(24))
def test_bound_at_least_the_optimum_two_turns_from_the_end(seed: int) -> None:
    """Generated positions with two turns left (`tests.test_relaxation.endgame`) and those
    along a random line from them: the bound is never below the exact optimum."""
    st = endgame(seed)
    facts = pool_facts(st)
    for pos in random_line(st, seed, 10)[::2]:
        complete, best = plain_optimum(pos)
        if complete and best is not None:
            assert simple_upper_bound(pos, facts) >= best, (seed, pos.turn)


def test_a_create_of_an_artifact_is_no_mover() -> None:
    """Diquís Stone Spheres and the Nubian Pyramids create an artifact (into an artifact space,
    RULES.md section 5): they add no decline. Dolmen of Menga and Masuda Iwafune create a
    monument, Ajanta Caves and Gunung Padang move one, Lopburi Temple swaps: each may."""
    st = _turn15_decline(["M1", "P5"], [])
    cards = {c.name: c for c in st.book.cards}

    def puts(name: str) -> bool:
        return any(puts_monument(e.steps) for e in cards[name].effects)

    assert not puts("Diquís Stone Spheres")
    assert not puts("Nubian Pyramids")
    for name in ("Dolmen of Menga", "Masuda Iwafune", "Ajanta Caves", "Gunung Padang",
                 "Lopburi Temple", "Menhirs of Monteneuf"):
        assert puts(name), name


def test_declined_max_with_late_creates_is_the_best_choice() -> None:
    """With `late`, up to that many decliners may be any of `others` (monuments created after
    the action phase): the sum is the best over every choice of at most `declines` decliners,
    at most `late` of them from `others` (worked out here by trying every choice)."""
    st = _turn15_decline(["M1", "P5"], ["P1"])
    facts = pool_facts(st)
    cards = st.book.cards
    ranges = CounterRanges(st, 2, 4, 2, 0, 50)

    def worth(c: int) -> int:
        return facts.vp[c] + (effect_max(cards[c], ranges) if c in facts.endgame else 0)

    ranked = sorted((c for c in facts.monuments if c not in set(st.past)), key=worth)
    future = [ranked[i] for i in (20, 50, 75, 90)]
    others = [ranked[i] for i in (5, -1, 30, -5, 60)]  # worth unordered
    assert worth(others[3]) > worth(future[-1]) > worth(others[2]) > worth(others[0])
    for declines in range(0, 5):
        for late in range(0, 4):
            best = max(sum(map(worth, near)) + sum(map(worth, far))
                       for j in range(min(late, declines) + 1)
                       for far in itertools.combinations(others, j)
                       for near in itertools.combinations(future, min(declines - j, len(future))))
            assert _declined_max(future, declines, facts, cards, ranges, others, late) == best, (
                declines, late)
