"""Nested Rollout Policy Adaptation (Rosin, IJCAI 2011) over any `PuzzleState`.

NRPA learns a playout policy toward the best sequence found so far: level 0 is one playout that
picks each action with probability proportional to ``exp(weight[code])``; level ``n`` runs
`iterations` searches of level ``n-1``, keeps the best sequence, and after each one moves the
policy toward it (``adapt``). It needs a stable code per action: the `Game` gives a
context-aware one with ``policy_code(state, action)`` (`PlainGame`: the action integer).

Solutions must be feasible (every goal met). Infeasible playouts still count, scored
``value - infeasible_penalty`` so that the policy is pulled toward lines that meet the goals
first and score well second; the best feasible and the best infeasible line are both kept.

Determinism: all randomness comes from one `solver.rng.Stream`; with a node limit (decisions
played) the result depends only on the root, the configuration and the seed.
"""

from __future__ import annotations

import math
import time
from bisect import bisect_left
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, chain, repeat
from operator import add, itemgetter, mul, neg, truediv
from typing import Any, Generic, TypeVar

from solver.frozen import Frozen
from solver.rng import Stream
from solver.search.collector import young_collections_only
from solver.search.protocol import Game, PlainGame, PuzzleState

S = TypeVar("S", bound=PuzzleState)

#: Per step with a real choice: the option codes, their prior factors ``exp(bias)`` (None
#: without a prior), the index of the chosen option.
Trace = list[tuple[Sequence[Hashable], Sequence[float] | None, int]]
#: A trace laid flat for `NRPA.adapt`: the option codes, their prior factors (1.0 without a
#: prior), each step's slice of them, the per-option step getter, the update-order getter, the
#: codes in update order, and the distinct codes.
_Layout = tuple[list[Hashable], list[float], list[slice], Callable[[list[float]], Any],
                Callable[[list[float]], Any], list[Hashable], list[Hashable]]


@dataclass(frozen=True)
class NRPAConfig(Frozen):
    """NRPA parameters in one place.

    :param level: nesting level of each restart (2 is a good default for ~75-decision games).
    :param iterations: searches of level ``n-1`` per level ``n`` (Rosin used 100).
    :param first_iterations: `iterations` of the restarts that begin before any goal-meeting
        line is known (``None``: `iterations`): short restarts hunt for a first goal-meeting
        line over many fresh policies, longer ones then improve on it.
    :param alpha: step size of the policy adaptation.
    :param max_nodes: total decisions played over all playouts (``None``: no limit).
    :param max_seconds: wall-clock budget (``None``: none; not deterministic).
    :param infeasible_penalty: subtracted from the value of a playout that misses a goal.
    :param seed: seed of the playout stream.
    :param stop_when_found: stop at the first feasible line (winnability checks).
    :param use_bias: add the game's ``policy_bias(action)`` to the weights (GNRPA, Cazenave
        2020): a prior that the learned weights then correct.
    """

    level: int = 2
    iterations: int = 30
    first_iterations: int | None = None
    alpha: float = 1.0
    max_nodes: int | None = None
    max_seconds: float | None = None
    infeasible_penalty: float = 1000.0
    seed: int = 0
    stop_when_found: bool = False
    use_bias: bool = True


@dataclass
class Incumbent:
    """The best lines found so far (shared with progress reporting)."""

    value: float = -math.inf  # best feasible value
    line: list[int] = field(default_factory=list)
    failed_value: float = -math.inf  # best infeasible value (no goal-meeting line yet)
    failed_line: list[int] = field(default_factory=list)
    nodes: int = 0
    playouts: int = 0
    found_at: float = 0.0  # seconds from the start when `value` was found

    @property
    def found(self) -> bool:
        return self.value > -math.inf


def _getter(indices: list[int]) -> Callable[[list[float]], Any]:
    """``lambda xs: tuple(xs[i] for i in indices)``, in C (`operator.itemgetter` gives a tuple
    for two or more indices; one index is padded and cut)."""
    if len(indices) >= 2:
        return itemgetter(*indices)
    pick = itemgetter(*indices, *indices)
    return lambda xs: pick(xs)[:1]


class _Stop(Exception):
    """The budget ran out."""


class Policy:
    """A learned policy: the weight of each code and, kept in step, its ``exp`` (the playout's
    factor), so a playout multiplies cached factors instead of calling ``exp`` per option. A
    code never adapted has weight 0 (factor 1)."""

    __slots__ = ("weights", "factors")

    def __init__(self, weights: dict[Hashable, float] | None = None,
                 factors: dict[Hashable, float] | None = None) -> None:
        self.weights: dict[Hashable, float] = {} if weights is None else weights
        self.factors: dict[Hashable, float] = (
            {c: math.exp(w) for c, w in self.weights.items()} if factors is None else factors)

    def copy(self) -> Policy:
        return Policy(dict(self.weights), dict(self.factors))


class NRPA(Generic[S]):
    """One NRPA run from a root position (the root is never changed)."""

    def __init__(self, root: S, config: NRPAConfig,
                 on_improve: Callable[[Incumbent], None] | None = None,
                 should_stop: Callable[[], bool] | None = None,
                 game: Game[S] | None = None) -> None:
        self.root = root
        self.game: Game[S] = game if game is not None else PlainGame()
        self.config = config
        self.stream = Stream(config.seed, "nrpa", 0)
        self.best = Incumbent()
        self.on_improve = on_improve
        self.should_stop = should_stop
        self.start = time.monotonic()
        self._codes: Callable[[S, Sequence[int]], Sequence[Hashable]] = self.game.policy_codes
        #: with the prior: the codes and the prior factors of a decision in one call
        self._choice: Callable[[S, Sequence[int]],
                               tuple[Sequence[Hashable], Sequence[float] | None]] | None = (
            self.game.policy_choice if config.use_bias and self.game.has_prior else None)
        #: per step of the last playout's trace: the factors it drew from (see `adapt`)
        self.last_weights: list[list[float]] = []
        #: the flat layouts of the last traces adapted toward (`_layout`)
        self._layouts: list[tuple[Trace, _Layout]] = []
        self._once: Trace | None = None  # the last trace adapted toward without a layout

    # -------------------------------------------------------------- level 0

    def playout(self, policy: Policy) -> tuple[float, Trace]:
        """One playout: its score and its trace (per step with two or more options: the option
        codes, their prior factors ``exp(bias)`` or None, and the index of the chosen option).

        Option ``i`` is drawn with probability ``exp(w_i + b_i) / sum_j exp(w_j + b_j)`` (learned
        weight plus prior bias), computed as ``factor(w_i) * exp(b_i)`` from the policy's cached
        factors: one draw ``u`` of the stream per decision, the first option whose running sum
        of factors reaches ``u * total``."""
        cfg = self.config
        st = self.root.clone()
        seq: list[int] = []
        trace: Trace = []
        weights: list[list[float]] = []
        codes = self._codes
        choice = self._choice
        next64 = self.stream.next64
        get = policy.factors.get
        ones = repeat(1.0)
        while not st.is_terminal():
            legal = st.legal_actions()
            n = len(legal)
            if n == 1:
                next64()  # the draw a one-option decision always took: same stream, same lines
                action = legal[0]
            else:
                if choice is not None:
                    cs, fs = choice(st, legal)
                else:
                    cs, fs = codes(st, legal), None
                if fs is None:
                    ws = list(map(get, cs, ones))
                else:
                    ws = list(map(mul, map(get, cs, ones), fs))
                sums = list(accumulate(ws))
                r = (next64() / 2.0**64) * sums[-1]
                i = bisect_left(sums, r)
                if i >= n:
                    i = n - 1
                action = legal[i]
                trace.append((cs, fs, i))
                weights.append(ws)
            st.apply(action)
            seq.append(action)
        self.last_weights = weights
        self.best.nodes += len(seq)
        self.best.playouts += 1
        value = st.value()
        if st.feasible():
            if value > self.best.value:
                self.best.value = value
                self.best.line = seq[:]
                self.best.found_at = time.monotonic() - self.start
                if self.on_improve is not None:
                    self.on_improve(self.best)
            score = value
        else:
            if not self.best.found and value > self.best.failed_value:
                self.best.failed_value = value
                self.best.failed_line = seq[:]
                if self.on_improve is not None:
                    self.on_improve(self.best)
            score = value - cfg.infeasible_penalty - self.game.shortfall(st)
        self._check_budget()
        return score, trace

    def _check_budget(self) -> None:
        cfg = self.config
        if cfg.max_nodes is not None and self.best.nodes >= cfg.max_nodes:
            raise _Stop
        if cfg.max_seconds is not None and time.monotonic() - self.start >= cfg.max_seconds:
            raise _Stop
        if self.should_stop is not None and self.should_stop():
            raise _Stop
        if cfg.stop_when_found and self.best.found:
            raise _Stop

    # -------------------------------------------------------------- adaptation

    def adapt(self, policy: Policy, trace: Trace,
              weights_now: Sequence[Sequence[float]] | None = None) -> None:
        """Move `policy` toward the sequence of `trace`, in place: Rosin's Adapt (with prior
        factors, the gradient of GNRPA). As in the standard algorithm, every step's
        probabilities come from the weights *before* this adaptation (the standard version
        reads the old policy and writes a copy): all of them are computed first, then the
        updates are applied in the standard order, so the weights are the very floats the
        copying version gives. A code's cached factor is ``exp`` of its final weight, refreshed
        once per code after all the updates (the copying version's last refresh of it, the same
        float; a code repeats across the steps of a trace).

        `weights_now`: per step, ``factor(code) * prior`` of each option under `policy` as it
        is now (what the playout that made `trace` computed, `last_weights`, when `policy`
        has not changed since): those very floats, so they are not computed again.

        The work runs in C over the trace's flat layout (`_layout`, made once per trace: a
        level-1 search adapts toward the same best trace many times): the options' weights
        (``factor * 1.0`` is the factor: the same float without a prior), each step's total
        ``z`` (``sum`` of its options, in order), then one ordered stream of updates, per step
        the chosen code's ``+ alpha`` then each option's ``- alpha * w / z`` (written
        ``+ -(...)``: IEEE subtraction is addition of the negation, the same float), each
        weight read just before it is written (a lazy ``dict.update``), as in the plain loop.
        With ``alpha == 1.0`` (the default), ``alpha * w`` is ``w`` exactly, so that product
        is skipped."""
        if not trace:
            return
        layout = self._layout(trace)
        if layout is None:
            self._adapt_plain(policy, trace, weights_now)
            return
        codes, priors, slices, z_of, order, stream, touched = layout
        alpha = self.config.alpha
        factors = policy.factors
        if weights_now is None:
            flat = list(map(mul, map(factors.get, codes, repeat(1.0)), priors))
        else:
            flat = list(chain.from_iterable(weights_now))
        zs: list[float] = list(map(sum, map(flat.__getitem__, slices)))
        per_option = z_of(zs)
        if alpha == 1.0:
            deltas = map(neg, map(truediv, flat, per_option))
        else:
            deltas = map(neg, map(truediv, map(mul, repeat(alpha), flat), per_option))
        steps = order([alpha, *deltas])
        weights = policy.weights
        weights.update(zip(stream, map(add, map(weights.get, stream, repeat(0.0)), steps),
                           strict=True))
        factors.update(zip(touched, map(math.exp, map(weights.__getitem__, touched)), strict=True))

    def _adapt_plain(self, policy: Policy, trace: Trace,
                     weights_now: Sequence[Sequence[float]] | None) -> None:
        """`adapt` as a plain loop over the steps (the same floats: the same operations in
        the same order), for a trace adapted toward once (its layout would cost more)."""
        alpha = self.config.alpha
        factors = policy.factors
        if weights_now is None:
            get = factors.get
            ones = repeat(1.0)
            weights_now = [list(map(get, cs, ones)) if fs is None
                           else list(map(mul, map(get, cs, ones), fs)) for cs, fs, _ in trace]
        weights = policy.weights
        wget = weights.get
        unit = alpha == 1.0
        for (cs, _, i), ws in zip(trace, weights_now, strict=True):
            z = sum(ws)
            chosen = cs[i]
            weights[chosen] = wget(chosen, 0.0) + alpha
            if unit:
                for c, w in zip(cs, ws, strict=True):
                    weights[c] = wget(c, 0.0) - w / z
            else:
                for c, w in zip(cs, ws, strict=True):
                    weights[c] = wget(c, 0.0) - alpha * w / z
        touched = dict.fromkeys(chain.from_iterable(map(itemgetter(0), trace)))
        factors.update(zip(touched, map(math.exp, map(weights.__getitem__, touched)), strict=True))

    def _layout(self, trace: Trace) -> _Layout | None:
        """The flat layout of `trace` for `adapt`, made the second time in a row that it is
        asked for (a trace adapted toward once, most new bests, takes the plain loop; the last
        few traces' layouts are kept, by identity: the same trace object, the same layout; no
        result depends on this cache)."""
        for seen, known in self._layouts:
            if seen is trace:
                return known
        if self._once is not trace:
            self._once = trace
            return None
        codes: list[Hashable] = []
        priors: list[float] = []
        slices: list[slice] = []
        step_of: list[int] = []  # per option: its step
        stream: list[Hashable] = []  # the codes in update order: per step, chosen then options
        order: list[int] = []  # per update: 0 (``alpha``) or 1 + the option's flat index
        for k, (cs, fs, i) in enumerate(trace):
            pos = len(codes)
            n = len(cs)
            codes.extend(cs)
            priors.extend(fs if fs is not None else repeat(1.0, n))
            slices.append(slice(pos, pos + n))
            step_of.extend(repeat(k, n))
            stream.append(cs[i])
            stream.extend(cs)
            order.append(0)
            order.extend(range(1 + pos, 1 + pos + n))
        layout: _Layout = (codes, priors, slices, _getter(step_of), _getter(order), stream,
                           list(dict.fromkeys(codes)))
        self._layouts = [(trace, layout), *self._layouts[:3]]
        return layout

    def level(self, n: int, policy: Policy, iterations: int) -> tuple[float, Trace]:
        """A level-`n` search that adapts `policy` in place (the caller's copy: a level gives
        each level below it a copy of its own policy, as in the standard algorithm), each level
        running `iterations` searches of the level below."""
        if n == 0:
            return self.playout(policy)
        best_score = -math.inf
        best_trace: Trace = []
        for _ in range(iterations):
            if n == 1:
                score, trace = self.playout(policy)  # a playout does not change its policy
                if score >= best_score:  # the playout's weights are the policy's: reuse them
                    best_score, best_trace = score, trace
                    self.adapt(policy, best_trace, self.last_weights)
                else:
                    self.adapt(policy, best_trace)
                continue
            score, trace = self.level(n - 1, policy.copy(), iterations)
            if score >= best_score:
                best_score, best_trace = score, trace
            self.adapt(policy, best_trace)
        return best_score, best_trace

    def run(self) -> Incumbent:
        """Restart level-`level` searches until the budget runs out (at least one playout); a
        restart that begins before any goal-meeting line is known runs `first_iterations`."""
        cfg = self.config
        try:
            with young_collections_only():  # the policies and playouts make no cycles
                while True:
                    first = cfg.first_iterations  # before any goal-meeting line: hunting
                    iterations = first if first is not None and not self.best.found \
                        else cfg.iterations
                    self.level(cfg.level, Policy(), iterations)
                    if cfg.max_nodes is None and cfg.max_seconds is None \
                            and self.should_stop is None:
                        break
        except _Stop:
            pass
        return self.best


def nrpa(root: S, config: NRPAConfig | None = None,
         on_improve: Callable[[Incumbent], None] | None = None,
         game: Game[S] | None = None) -> Incumbent:
    """Run NRPA from `root` and return the incumbent."""
    return NRPA(root, config or NRPAConfig(), on_improve, game=game).run()


def best_of(lines: Sequence[Incumbent]) -> Incumbent:
    """The best incumbent of several runs; ties go to the first (deterministic)."""
    out = lines[0]
    for inc in lines[1:]:
        if inc.value > out.value or (not out.found and not inc.found
                                     and inc.failed_value > out.failed_value):
            out = inc
    return out
