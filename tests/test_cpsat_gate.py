"""Where the node bound asks CP-SAT (`solver.bounds.cpsat.bound.CpsatBound`): the gap gate."""

from __future__ import annotations

from solver.bounds.bound import SimpleBound
from solver.bounds.cpsat.bound import BoundPolicy, CpsatBound, _dear
from solver.bounds.cpsat.relaxation import RelaxConfig
from solver.engine.state import GameState
from solver.game import HeritageGame
from tests.builder import position


def _between_actions(hand: list[str]) -> GameState:
    st = position(hand=hand, timeline={2: ["C3"]}, tokens={"C3": 1}, past=["C4"],
                  time_space=1, time_visits=2, turn=16, deck_top=["C5", "C6"])
    st.apply(st.legal_actions()[-1])  # Search: one action left
    return st


def test_gap_gate_skips_calls_that_cannot_prune() -> None:
    """After `gap_calls` calls at a kind of boundary, CP-SAT is not asked where the simple bound
    exceeds the incumbent by more than `gap_slack` times the most CP-SAT ever closed there; it
    still is where the gap is small. The answer is the simple bound then (sound either way)."""
    pol = BoundPolicy(node=RelaxConfig(max_deterministic_time=0.2), gap_calls=1, gap_slack=1.0)
    bound = CpsatBound(pol)
    game = HeritageGame(bound)
    st = _between_actions(["C1", "M2", "P3"])
    simple = SimpleBound().upper_bound(st)
    bound.start_search(None)
    first = game.upper_bound(st)
    assert bound.spent_calls == 1 and first <= simple
    closed = max(entry[2] for entry in bound.gate.values())
    assert closed == simple - first
    other = _between_actions(["C1", "M2", "P7"])
    bound.start_search(SimpleBound().upper_bound(other) - closed - 1)  # gap above closed
    assert game.upper_bound(other) == SimpleBound().upper_bound(other)
    assert bound.spent_calls == 0
    bound.start_search(SimpleBound().upper_bound(other) - 0.5 * closed)  # within reach
    if closed > 0:
        game.upper_bound(other)
        assert bound.spent_calls == 1


def test_gate_counts_kept_across_searches_of_one_solve() -> None:
    bound = CpsatBound(BoundPolicy(node=RelaxConfig(max_deterministic_time=0.2)))
    game = HeritageGame(bound)
    bound.start_search(None)
    game.upper_bound(_between_actions(["C1", "M2", "P3"]))
    assert bound.gate
    bound.start_search(None)
    assert bound.gate


def _after_one_costly_call(allowed: float, other: GameState) -> tuple[CpsatBound, float]:
    """A bound whose dear gate closes after one call costing more than `allowed`
    deterministic s, after one call between the last turn's actions; and its answer at
    `other`."""
    pol = BoundPolicy(node=RelaxConfig(max_deterministic_time=0.2), dear_calls=1,
                      dear_time=allowed, gap_calls=99)
    bound = CpsatBound(pol)
    game = HeritageGame(bound)
    bound.start_search(None)
    game.upper_bound(_between_actions(["C1", "M2", "P3"]))
    assert bound.spent_calls == 1 and bound.spent_time > 0
    return bound, game.upper_bound(other)


def test_dear_gate_skips_a_kind_whose_calls_cost_too_much() -> None:
    """After `dear_calls` calls at a kind of boundary, CP-SAT is not asked there when its calls
    took more than `dear_time` deterministic seconds each: with no time allowed, one call is
    the last at that kind (the simple bound answers, sound either way); with plenty allowed,
    the next position of the kind is asked too."""
    for allowed, calls in ((0.0, 1), (1e9, 2)):
        other = _between_actions(["C1", "M2", "P7"])
        bound, answer = _after_one_costly_call(allowed, other)
        assert bound.spent_calls == calls
        if calls == 1:
            assert answer == SimpleBound().upper_bound(other)


def _with_michaux(hand: list[str]) -> GameState:
    """The last turn, one action left, Michaux Stone (A33) and Nimrud Lens (A19) in hand: the
    simple bound counts their Learns, CP-SAT sees they cannot all happen."""
    st = position(hand=hand, timeline={2: ["C3"]}, past=["P1", "M1"], techs=["T1", "T9"],
                  time_space=1, time_visits=2, turn=16, deck_top=["C5", "C6"])
    st.apply(st.legal_actions()[-1])  # Search: one action left
    return st


def test_chance_gate_asks_only_where_cpsat_closed_such_gaps() -> None:
    """After `gap_calls` calls at a kind of boundary, CP-SAT is not asked where fewer than
    `prune_chance` of its answers there came down by the gap between the simple bound and the
    incumbent (it would rarely prune); where they did, it is. Deterministic: the answers seen,
    not time."""
    pol = BoundPolicy(node=RelaxConfig(max_deterministic_time=0.2), gap_calls=1,
                      gap_slack=1e9, prune_chance=0.5)
    bound = CpsatBound(pol)
    game = HeritageGame(bound)
    st = _with_michaux(["A33", "A19", "C2"])
    bound.start_search(None)
    closed = SimpleBound().upper_bound(st) - game.upper_bound(st)
    assert bound.spent_calls == 1 and closed > 0 and [closed] in bound.closed.values()
    other = _with_michaux(["A33", "A19", "C1"])
    simple = SimpleBound().upper_bound(other)
    bound.start_search(simple - closed - 1)  # wider than any gap CP-SAT closed here
    assert game.upper_bound(other) == simple
    assert bound.spent_calls == 0
    bound.start_search(simple - closed)  # as wide as one it closed
    game.upper_bound(other)
    assert bound.spent_calls == 1


def test_the_root_call_near_the_end_has_its_own_budget() -> None:
    """`BoundPolicy.near_root`: the root call of a position within `horizon` turns of the end
    uses it (the bound a line can reach to end the exact search); earlier, `root`."""
    pol = BoundPolicy(root=RelaxConfig(max_deterministic_time=0.05),
                      near_root=RelaxConfig(max_deterministic_time=0.06))
    near = CpsatBound(pol)
    near.root(_between_actions(["C1", "M2", "P3"]))
    assert [key[1] for key in near.cache.entries if isinstance(key, tuple)] == [pol.near_root]
    far = CpsatBound(pol)
    far.root(position(hand=["C1", "M2", "P3"], timeline={2: ["C3"]}, past=["C4"],
                      time_space=4, time_visits=0, turn=5, deck_top=["C5", "C6"]))
    assert [key[1] for key in far.cache.entries if isinstance(key, tuple)] == [pol.root]


def test_dear_gate_closes_every_kind_with_as_many_turns_left() -> None:
    """The dear gate also counts all the kinds of boundary with the same turns left together:
    once CP-SAT's calls there cost more than `dear_time` each on average (turn 15: ~0.1
    deterministic s, ~0.4 s of wall time a call), it is not asked at another kind with that many
    turns left either (a turn's start after a call between its actions); with the time allowed,
    it is."""
    start = position(hand=["C1", "M2", "P7"], timeline={2: ["C3"]}, tokens={"C3": 1},
                     past=["C4"], time_space=1, time_visits=2, turn=16, deck_top=["C5", "C6"])
    for allowed, calls in ((0.0, 1), (1e9, 2)):
        bound, answer = _after_one_costly_call(allowed, start)
        assert bound.spent_calls == calls
        if calls == 1:
            assert answer == SimpleBound().upper_bound(start)
        else:  # another kind, with as many turns left
            assert len(bound.gate) == 2 and len({kind[0] for kind in bound.gate}) == 1


def test_dear_means_more_than_dear_time_a_call_once_there_are_dear_calls() -> None:
    """The dear gate closes after at least `dear_calls` calls that took more than `dear_time`
    deterministic seconds each on average: not before, and not at exactly that average."""
    pol = BoundPolicy(dear_calls=2, dear_time=0.5)
    assert not _dear(pol, 1, 100.0)
    assert not _dear(pol, 2, 1.0)
    assert _dear(pol, 2, 1.01)
    assert _dear(pol, 3, 1.6)


def _two_turns_left(hand: list[str]) -> GameState:
    """Turn 15 of 16 (the time card on space 2 after two visits), at its start."""
    return position(hand=hand, timeline={2: ["C3"]}, tokens={"C3": 1}, past=["C4"],
                    time_space=2, time_visits=2, turn=15, deck_top=["C5", "C6"])


def test_dear_gate_counts_each_call_once_by_the_turns_left() -> None:
    """The dear gate by turns left counts calls, one each, under the turns left (not the
    actions left): with two turns left, after one call between turn 15's actions (one action
    left), turn 15's start (two actions left, another kind) is not asked when one call with no
    time allowed closes the gate, and is asked when the gate needs two calls."""
    for dear_calls, calls in ((1, 1), (2, 2)):
        pol = BoundPolicy(node=RelaxConfig(max_deterministic_time=0.2), dear_calls=dear_calls,
                          dear_time=0.0, gap_calls=99)
        bound = CpsatBound(pol)
        game = HeritageGame(bound)
        bound.start_search(None)
        between = _two_turns_left(["C1", "M2", "P3"])
        between.apply(between.legal_actions()[-1])  # Search: one action left
        game.upper_bound(between)
        start = _two_turns_left(["C1", "M2", "P7"])
        game.upper_bound(start)
        assert bound.spent_calls == calls
        assert len({kind[0] for kind in bound.gate}) == 1
