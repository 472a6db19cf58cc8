"""NRPA (`solver.search.nrpa`) against a straightforward reference implementation.

The search keeps cached ``exp`` factors, asks the game for the codes and prior factors of a
whole decision at once and adapts its policy in place; the standard algorithm (Rosin 2011;
with a prior, GNRPA) copies the policy at every adaptation and reads the old one. These tests
pin that both play the same playouts and return the same lines, on a small toy puzzle over the
search protocol, with and without a prior.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence

import pytest

from solver.rng import Stream
from solver.search import nrpa as nrpa_module
from solver.search.nrpa import NRPA, NRPAConfig, Policy, Trace
from solver.search.protocol import PlainGame


class Digits:
    """A toy puzzle: twelve decisions; at step ``k`` pick a digit among ``1 + (k * 7) % 4``
    options (one-option steps included); the score weighs each digit by its step and by the
    previous digit; a line is feasible when its digit sum is not a multiple of 4."""

    STEPS = 12

    def __init__(self, picks: tuple[int, ...] = ()) -> None:
        self.picks = list(picks)

    def legal_actions(self) -> list[int]:
        k = len(self.picks)
        return [] if k >= self.STEPS else list(range(1 + (k * 7) % 4))

    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise ValueError(action)
        self.picks.append(action)

    def clone(self) -> Digits:
        return Digits(tuple(self.picks))

    def is_terminal(self) -> bool:
        return len(self.picks) >= self.STEPS

    def value(self) -> float:
        prev, total = 1, 0.0
        for k, d in enumerate(self.picks):
            total += d * ((k % 5) + 1) * (1 + (prev == 2))
            prev = d
        return total

    def feasible(self) -> bool:
        return sum(self.picks) % 4 != 0

    def key(self) -> Hashable:
        return tuple(self.picks)

    def action_to_string(self, action: int) -> str:
        return str(action)


class PriorGame(PlainGame[Digits]):
    """Context codes (the step and the digit) and a prior that prefers small digits late."""

    has_prior = True

    def policy_code(self, state: Digits, action: int) -> Hashable:
        return (len(state.picks), action)

    def policy_bias(self, state: Digits, action: int) -> float:
        return -0.4 * action if len(state.picks) > 6 else 0.3 * action

    def policy_codes(self, state: Digits, legal: Sequence[int]) -> Sequence[Hashable]:
        return [self.policy_code(state, a) for a in legal]

    def policy_factors(self, state: Digits, legal: Sequence[int]) -> Sequence[float] | None:
        return [math.exp(self.policy_bias(state, a)) for a in legal]

    def shortfall(self, state: Digits) -> float:
        return float(sum(state.picks) % 4 == 0)


class Reference:
    """NRPA as published: a level copies its policy at each adaptation (``new = dict(policy)``)
    and computes the probabilities on the old one; a playout draws with the running sum of
    ``exp(weight + bias)``. Same stream use, budget and tie rule as `NRPA`."""

    def __init__(self, root: Digits, cfg: NRPAConfig, game: PlainGame[Digits]) -> None:
        self.root, self.cfg, self.game = root, cfg, game
        self.stream = Stream(cfg.seed, "nrpa", 0)
        self.value, self.line = -math.inf, list[int]()
        self.nodes = self.playouts = 0
        self.use_bias = cfg.use_bias and game.has_prior

    def bias(self, st: Digits, a: int) -> float:
        return self.game.policy_bias(st, a) if self.use_bias else 0.0

    def playout(self, policy: dict[Hashable, float]
                ) -> tuple[float, list[tuple[list[Hashable], list[float], int]]]:
        st, seq, trace = self.root.clone(), list[int](), []
        while not st.is_terminal():
            legal = st.legal_actions()
            cs = [self.game.policy_code(st, a) for a in legal]
            bs = [self.bias(st, a) for a in legal]
            ws = [math.exp(policy.get(c, 0.0) + b) for c, b in zip(cs, bs, strict=True)]
            r = (self.stream.next64() / 2.0**64) * sum(ws)
            i, acc = 0, ws[0]
            while acc < r and i < len(ws) - 1:
                i += 1
                acc += ws[i]
            st.apply(legal[i])
            seq.append(legal[i])
            if len(cs) > 1:
                trace.append((cs, bs, i))
        self.nodes += len(seq)
        self.playouts += 1
        value = st.value()
        if st.feasible():
            if value > self.value:
                self.value, self.line = value, seq
            score = value
        else:
            score = value - self.cfg.infeasible_penalty - self.game.shortfall(st)
        if self.cfg.max_nodes is not None and self.nodes >= self.cfg.max_nodes:
            raise StopIteration
        return score, trace

    def adapt(self, policy: dict[Hashable, float],
              trace: list[tuple[list[Hashable], list[float], int]]) -> dict[Hashable, float]:
        new = dict(policy)
        for cs, bs, i in trace:
            ws = [math.exp(policy.get(c, 0.0) + b) for c, b in zip(cs, bs, strict=True)]
            z = sum(ws)
            new[cs[i]] = new.get(cs[i], 0.0) + self.cfg.alpha
            for c, w in zip(cs, ws, strict=True):
                new[c] = new.get(c, 0.0) - self.cfg.alpha * w / z
        return new

    def level(self, n: int, policy: dict[Hashable, float], iterations: int
              ) -> tuple[float, list[tuple[list[Hashable], list[float], int]]]:
        if n == 0:
            return self.playout(policy)
        best, best_trace = -math.inf, []
        for _ in range(iterations):
            score, trace = self.level(n - 1, policy, iterations)
            if score >= best:
                best, best_trace = score, trace
            policy = self.adapt(policy, best_trace)
        return best, best_trace

    def run(self) -> Reference:
        try:
            while True:  # before any goal-meeting line: the hunting restarts' iterations
                first = self.cfg.first_iterations
                hunting = first is not None and self.value == -math.inf
                self.level(self.cfg.level, {},
                           first if hunting and first is not None else self.cfg.iterations)
        except StopIteration:
            pass
        return self


CASES = [(level, iterations, seed, nodes) for level, iterations in ((1, 20), (2, 6), (3, 3))
         for seed in (0, 7) for nodes in (600, 2_500)]


@pytest.mark.parametrize(("level", "iterations", "seed", "nodes"), CASES)
def test_same_lines_as_the_reference_without_prior(level: int, iterations: int, seed: int,
                                                   nodes: int) -> None:
    cfg = NRPAConfig(level=level, iterations=iterations, seed=seed, max_nodes=nodes)
    ref = Reference(Digits(), cfg, PlainGame()).run()
    inc = NRPA(Digits(), cfg).run()
    assert (inc.value, inc.line, inc.nodes, inc.playouts) == (ref.value, ref.line, ref.nodes,
                                                              ref.playouts)


@pytest.mark.parametrize(("level", "iterations", "seed", "nodes"), CASES)
def test_same_lines_as_the_reference_with_prior(level: int, iterations: int, seed: int,
                                                nodes: int) -> None:
    cfg = NRPAConfig(level=level, iterations=iterations, seed=seed, max_nodes=nodes, alpha=0.7)
    ref = Reference(Digits(), cfg, PriorGame()).run()
    inc = NRPA(Digits(), cfg, game=PriorGame()).run()
    assert (inc.value, inc.line, inc.nodes, inc.playouts) == (ref.value, ref.line, ref.nodes,
                                                              ref.playouts)


@pytest.mark.parametrize(("level", "iterations", "seed", "nodes"), CASES)
def test_hunting_restarts_run_first_iterations(level: int, iterations: int, seed: int,
                                               nodes: int) -> None:
    """`first_iterations`: the restarts that begin before any goal-meeting line run that many
    iterations per level, the later ones `iterations`, as in the reference (whose feasibility
    rule leaves some playouts infeasible)."""
    cfg = NRPAConfig(level=level, iterations=iterations, first_iterations=2, seed=seed,
                     max_nodes=nodes)
    ref = Reference(Digits(), cfg, PriorGame()).run()
    inc = NRPA(Digits(), cfg, game=PriorGame()).run()
    assert (inc.value, inc.line, inc.nodes, inc.playouts) == (ref.value, ref.line, ref.nodes,
                                                              ref.playouts)


def test_first_iterations_change_the_search() -> None:
    """The hunting restarts' iterations are used: on some case the run differs from the one
    without them (a test above that ignored them would still pass against a reference that
    ignored them too)."""
    differs = 0
    for level, iterations, seed, nodes in CASES:
        plain = NRPAConfig(level=level, iterations=iterations, seed=seed, max_nodes=nodes)
        hunt = NRPAConfig(level=level, iterations=iterations, first_iterations=2, seed=seed,
                          max_nodes=nodes)
        a = NRPA(Digits(), plain, game=PriorGame()).run()
        b = NRPA(Digits(), hunt, game=PriorGame()).run()
        differs += (a.value, a.line) != (b.value, b.line)
    assert differs > 0


@pytest.mark.parametrize("alpha", [1.0, 0.7, 2.5])
def test_in_place_adapt_gives_the_standard_weights_bit_for_bit(alpha: float) -> None:
    """Many adaptations of one policy, in place and by copy, with codes repeated within a
    trace (the case where reading updated weights would differ): the same floats, with the
    default step (where the in-place version skips ``alpha * w``) and with others."""
    cfg = NRPAConfig(level=1, iterations=1, seed=3, max_nodes=10**9, alpha=alpha)
    run, ref = NRPA(Digits(), cfg), Reference(Digits(), cfg, PlainGame())
    policy, standard = Policy(), dict[Hashable, float]()
    stream = Stream(11, "test", 0)
    for _ in range(40):
        trace: list[tuple[Sequence[Hashable], Sequence[float] | None, int]] = []
        for _step in range(15):
            n = 2 + stream.below(3)
            cs: list[Hashable] = [stream.below(6) * 10 + j for j in range(n)]
            trace.append((cs, None, stream.below(n)))
        run.adapt(policy, trace)
        standard = ref.adapt(standard, [(list(cs), [0.0] * len(cs), i) for cs, _, i in trace])
    assert policy.weights == standard
    assert policy.factors == {c: math.exp(w) for c, w in standard.items()}


@pytest.mark.parametrize("use_bias", [False, True])
def test_adapt_with_the_playouts_weights_is_adapt(use_bias: bool) -> None:
    """`adapt` given the weights the playout just drew from (`last_weights`, the level-1
    shortcut) gives the very floats of `adapt` computing them again."""
    cfg = NRPAConfig(level=1, iterations=1, seed=5, max_nodes=10**9, use_bias=use_bias)
    run = NRPA(Digits(), cfg, game=PriorGame())
    reused, computed = Policy(), Policy()
    for _ in range(25):
        _, trace = run.playout(reused)
        run.adapt(reused, trace, run.last_weights)
        run.adapt(computed, trace)
        assert reused.weights == computed.weights and reused.factors == computed.factors


def plain_adapt(policy: Policy, trace: Trace, alpha: float) -> None:
    """`NRPA.adapt` as a plain loop (the version before the flat layout): each step's
    factors-times-prior first, then per step the chosen code's ``+ alpha`` and each option's
    ``- alpha * w / z``, the factor refreshed after each update."""
    weights, factors = policy.weights, policy.factors
    now = [[factors.get(c, 1.0) * (1.0 if fs is None else fs[j]) for j, c in enumerate(cs)]
           for cs, fs, _ in trace]
    for (cs, _, i), ws in zip(trace, now, strict=True):
        z = sum(ws)
        weights[cs[i]] = weights.get(cs[i], 0.0) + alpha
        for c, w in zip(cs, ws, strict=True):
            weights[c] = weights.get(c, 0.0) - alpha * w / z
            factors[c] = math.exp(weights[c])


@pytest.mark.parametrize("alpha", [1.0, 0.9])
def test_adapt_toward_the_same_traces_again_and_again_is_the_plain_loop(alpha: float) -> None:
    """A level-1 search adapts toward its best trace many times: the plain loop the first
    time, then the flat layout made once per trace (`NRPA._layout`, kept by identity for the
    last few traces) give the floats of the reference loop every time, with prior factors,
    traces alternating, more traces than are kept."""
    run = NRPA(Digits(), NRPAConfig(level=1, iterations=1, seed=3, max_nodes=10**9, alpha=alpha))
    policy, plain = Policy(), Policy()
    stream = Stream(12, "test", 0)
    traces: list[Trace] = []
    for _ in range(6):
        trace: Trace = []
        for _step in range(9):
            n = 2 + stream.below(4)
            cs: list[Hashable] = [stream.below(5) * 10 + j for j in range(n)]
            fs = None if stream.below(2) else [0.5 + stream.below(7) / 4 for _ in range(n)]
            trace.append((cs, fs, stream.below(n)))
        traces.append(trace)
    for k in range(90):
        trace = traces[(k // 3) ** 2 % len(traces)]  # each 3 times in a row, some again later
        run.adapt(policy, trace)
        plain_adapt(plain, trace, alpha)
        assert policy.weights == plain.weights and policy.factors == plain.factors
    assert len(run._layouts) == 4  # the flat path ran (from a trace's second adaptation)


def test_the_layout_getters_take_one_index_too() -> None:
    assert nrpa_module._getter([2])([5.0, 6.0, 7.0]) == (7.0,)
    assert nrpa_module._getter([2, 0])([5.0, 6.0, 7.0]) == (7.0, 5.0)
