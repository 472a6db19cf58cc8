"""The solver on tiny positions: exact search equals brute force, NRPA finds the proven optimum,
dominance rules lose nothing, and node-limited solves are deterministic (issue: Solver)."""

from __future__ import annotations

import math

import pytest

from solver.engine.state import GameState
from solver.game import HeritageGame
from solver.guidance.dominance import prune
from solver.rng import Stream
from solver.search.exhaustive import SearchConfig, search
from solver.search.nrpa import NRPA, NRPAConfig
from solver.search.status import Status
from solver.solve import SolveConfig, solve
from tests.builder import book, position

END_STATE_CAP = 50_000


def tiny_position(seed: int) -> GameState:
    """At most 4 cards in hand, 3 Timeline monuments, 1 or 2 turns left (RULES.md section 4:
    the game ends at the decline phase where the time card is in space 1 for the 3rd time)."""
    b = book()
    rng = Stream(seed, "tiny-position", 0)
    builders = [c for c in b.cards if not c.is_tech]
    monuments = [c for c in builders if c.is_monument]
    pick = rng.shuffled([c.code for c in builders])
    turns_left = 2 if seed % 4 == 3 else 1
    hand = pick[: 1 if turns_left == 2 else 1 + rng.below(3)]
    rest = [c.code for c in rng.shuffled(monuments) if c.code not in hand]
    timeline: dict[int, list[str]] = {}
    for code in rest[:3]:
        s = 1 + rng.below(3)
        if len(timeline.get(s, [])) < 2 - (1 if s == turns_left else 0):
            timeline.setdefault(s, []).append(code)
    tokens = {code: rng.below(4) for items in timeline.values() for code in items}
    past = rest[3:3 + rng.below(4)]
    return position(hand=hand, timeline=timeline, tokens=tokens, past=past,
                    time_space=turns_left, time_visits=2, turn=17 - turns_left, lost=rng.below(3),
                    deck_top=rest[8:14])


def brute_force(st: GameState, counter: list[int]) -> float:
    """The best feasible final VP by enumerating every line (no table, no pruning)."""
    if st.is_terminal():
        counter[0] += 1
        assert counter[0] <= END_STATE_CAP, "position too large for brute force"
        return st.value() if st.feasible() else -math.inf
    best = -math.inf
    for a in st.legal_actions():
        child = st.clone()
        child.apply(a)
        best = max(best, brute_force(child, counter))
    return best


TINY_SEEDS = list(range(30))


@pytest.fixture(scope="module")
def optima() -> dict[int, tuple[float, int]]:
    out = {}
    for seed in TINY_SEEDS:
        counter = [0]
        out[seed] = (brute_force(tiny_position(seed), counter), counter[0])
    return out


@pytest.mark.parametrize("seed", TINY_SEEDS)
def test_branch_and_bound_equals_brute_force(seed: int,
                                             optima: dict[int, tuple[float, int]]) -> None:
    best, end_states = optima[seed]
    assert 1 <= end_states <= END_STATE_CAP
    res = search(tiny_position(seed), game=HeritageGame())
    assert res.status == Status.OPTIMAL
    assert res.value == best


@pytest.mark.parametrize("seed", TINY_SEEDS)
def test_dominance_rules_lose_nothing(seed: int, optima: dict[int, tuple[float, int]]) -> None:
    """Search with the dominance rules (solver.guidance.dominance) equals search without."""
    res = search(tiny_position(seed), order=lambda s, acts: prune(s, acts), game=HeritageGame())
    assert res.value == optima[seed][0]


def test_nrpa_reaches_the_proven_optimum(optima: dict[int, tuple[float, int]]) -> None:
    """The heuristic search finds the optimum on at least 20 tiny positions."""
    hits = 0
    for seed in TINY_SEEDS:
        inc = NRPA(tiny_position(seed),
                   NRPAConfig(level=1, iterations=40, max_nodes=4_000, seed=seed),
                   game=HeritageGame()).run()
        if inc.value == optima[seed][0]:
            hits += 1
    assert hits >= 25


def test_solve_proves_optimal_on_tiny_positions(optima: dict[int, tuple[float, int]]) -> None:
    for seed in TINY_SEEDS[:10]:
        res = solve(tiny_position(seed), SolveConfig(node_limit=400_000))
        assert res.status == Status.OPTIMAL
        assert res.value == optima[seed][0]
        assert res.bound == res.value
        replayed = tiny_position(seed)
        for a in res.line:
            replayed.apply(a)
        assert replayed.is_terminal() and replayed.value() == res.value


def test_node_count_signature() -> None:
    """A deterministic node count for exact search (a rules or search change shows up here)."""
    first = search(tiny_position(3), SearchConfig(), game=HeritageGame())
    again = search(tiny_position(3), SearchConfig(), game=HeritageGame())
    assert first.nodes == again.nodes and first.line == again.line


@pytest.mark.parametrize("workers", [1, 2])
def test_node_limited_solve_is_deterministic(workers: int) -> None:
    from solver.engine.newgame import new_game
    from solver.engine.setup import Setup

    def run() -> tuple[list[int], float | None]:
        st = new_game(Setup(hand="1", seed=5), book())
        res = solve(st, SolveConfig(node_limit=6_000, workers=workers, exact=False))
        return res.line, res.value

    assert run() == run()
