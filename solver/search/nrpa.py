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
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from solver.frozen import Frozen
from solver.rng import Stream
from solver.search.protocol import Game, PlainGame, PuzzleState

S = TypeVar("S", bound=PuzzleState)

#: Per step with a real choice: the option codes, their biases (None without), the chosen index.
Trace = list[tuple[list[Hashable], list[float] | None, int]]


@dataclass(frozen=True)
class NRPAConfig(Frozen):
    """NRPA parameters in one place.

    :param level: nesting level of each restart (2 is a good default for ~75-decision games).
    :param iterations: searches of level ``n-1`` per level ``n`` (Rosin used 100).
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


class _Stop(Exception):
    """The budget ran out."""


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
        self._code: Callable[[S, int], Hashable] = self.game.policy_code
        self._bias: Callable[[S, int], float] | None = (
            self.game.policy_bias if config.use_bias and self.game.has_prior else None)

    # -------------------------------------------------------------- level 0

    def playout(self, policy: dict[Hashable, float]) -> tuple[float, Trace]:
        """One playout: its score and its trace (per step: the option codes, their biases and
        the index of the chosen option)."""
        cfg = self.config
        st = self.root.clone()
        seq: list[int] = []
        trace: Trace = []
        code = self._code
        bias = self._bias
        stream = self.stream
        while not st.is_terminal():
            legal = st.legal_actions()
            cs = [code(st, a) for a in legal]
            if bias is not None:
                bs: list[float] | None = [bias(st, a) for a in legal]
                weights = [math.exp(policy.get(c, 0.0) + b) for c, b in zip(cs, bs, strict=True)]  # type: ignore[arg-type]
            else:
                bs = None
                weights = [math.exp(policy.get(c, 0.0)) for c in cs]
            r = (stream.next64() / 2.0**64) * sum(weights)
            i = 0
            acc = weights[0]
            while acc < r and i < len(weights) - 1:
                i += 1
                acc += weights[i]
            st.apply(legal[i])
            seq.append(legal[i])
            if len(cs) > 1:
                trace.append((cs, bs, i))
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

    def adapt(self, policy: dict[Hashable, float], trace: Trace) -> dict[Hashable, float]:
        """Move the policy toward the best sequence (Rosin's Adapt; with biases, the gradient
        of GNRPA), from the trace recorded by the playout so the sequence is not replayed."""
        alpha = self.config.alpha
        new = dict(policy)
        for cs, bs, i in trace:
            if bs is None:
                ws = [math.exp(policy.get(c, 0.0)) for c in cs]
            else:
                ws = [math.exp(policy.get(c, 0.0) + b) for c, b in zip(cs, bs, strict=True)]
            z = sum(ws)
            new[cs[i]] = new.get(cs[i], 0.0) + alpha
            for c, w in zip(cs, ws, strict=True):
                new[c] = new.get(c, 0.0) - alpha * w / z
        return new

    def level(self, n: int, policy: dict[Hashable, float]) -> tuple[float, Trace]:
        if n == 0:
            return self.playout(policy)
        best_score = -math.inf
        best_trace: Trace = []
        for _ in range(self.config.iterations):
            score, trace = self.level(n - 1, policy)
            if score >= best_score:
                best_score, best_trace = score, trace
            policy = self.adapt(policy, best_trace)
        return best_score, best_trace

    def run(self) -> Incumbent:
        """Restart level-`level` searches until the budget runs out (at least one playout)."""
        try:
            while True:
                self.level(self.config.level, {})
                if self.config.max_nodes is None and self.config.max_seconds is None \
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
        if inc.value > out.value or (not out.found and not inc.found and inc.failed_value > out.failed_value):
            out = inc
    return out
