"""The constraint layer's bound on a position: cached, deterministic, and always sound.

`relaxed_bound(state)` answers, for any position:

* at the end of the game: the exact score (or ``-inf`` when a goal is missed);
* at a phase boundary (`solver.bounds.cpsat.schedule.phase_of`): the CP-SAT relaxation's proven
  bound (`solver.bounds.cpsat.relaxation`), never above the simple bound of `solver.bounds`;
  ``infeasible`` when the relaxation proves that no line meets every goal (then the bound is
  ``-inf``), and the relaxation's plan;
* anywhere else (inside an action or an effect): the simple bound.

Everything a solve's bound remembers belongs to one `CpsatBound` object, made by the solve and
passed in: its cache (by the search's position key, `CpsatBound.keyed_by`: positions with equal
keys have equal futures, so one's bound is the other's), its budget for the calls inside one
exact search,
the incumbent's value (its threshold) and the latest plan. Two solves never share one, so two
solves in one process answer as two processes would. The CP-SAT budget is deterministic
(`RelaxConfig`: one worker, a fixed seed, a deterministic time limit), so a node-limited search
that uses the bound is reproducible. `CpsatBound.plan_order` turns the latest plan into move
ordering: hints only, every action is still searched.
"""

from __future__ import annotations

import math
import time
from bisect import bisect_left, insort
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

from solver.bounds.cpsat.relaxation import PlanStep, RelaxConfig, relax
from solver.bounds.cpsat.resources import UnsupportedCardError
from solver.bounds.cpsat.schedule import Phase, build_schedule, phase_of
from solver.bounds.poolfacts import PoolFacts, PoolFactsCache
from solver.bounds.simple import as_bound, simple_upper_bound
from solver.bounds.simplegate import SimpleGate, SimpleGatePolicy
from solver.engine import actions as A
from solver.engine.frames import D_ACTION, D_CREATE_CARD, D_CREATE_SPACE, D_LEARN
from solver.engine.state import GameState
from solver.search.interrupt import Interrupt

CACHE_SIZE = 50_000


@dataclass(frozen=True)
class BoundResult:
    """A bound on the final VP of every goal-meeting line from a position.

    :param bound: the bound (``-inf`` when no line can meet the goals).
    :param infeasible: proven: no line from the position meets every goal.
    :param plan: the relaxation's creations (empty when it did not run).
    :param source: ``"exact"`` (game over), ``"cpsat"``, ``"simple"`` (not a phase boundary,
        or a card the relaxation cannot bound).
    """

    bound: float
    infeasible: bool
    plan: tuple[PlanStep, ...] = ()
    techs: tuple[int, ...] = ()
    source: str = "simple"
    stats: dict[str, float] = field(default_factory=dict)


class BoundCache:
    """Bounds by position key, least recently used first out."""

    def __init__(self, capacity: int = CACHE_SIZE) -> None:
        self.capacity = capacity
        self.entries: OrderedDict[object, BoundResult] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: object) -> BoundResult | None:
        r = self.entries.get(key)
        if r is None:
            self.misses += 1
            return None
        self.hits += 1
        self.entries.move_to_end(key)
        return r

    def put(self, key: object, result: BoundResult) -> None:
        self.entries[key] = result
        if len(self.entries) > self.capacity:
            self.entries.popitem(last=False)

    def clear(self) -> None:
        self.entries.clear()
        self.hits = self.misses = 0


@dataclass(frozen=True)
class BoundPolicy:
    """Where branch and bound asks CP-SAT (tuned numbers in one place).

    :param root: the budget of the root call (the reported bound, INFEASIBLE proofs, the plan).
    :param near_root: the root call's budget where the root is within `horizon` turns of the
        end: the models are small there, and a line that reaches the root's bound ends the
        exact search at once (`solve` passes it as `SearchConfig.ceiling`). Measured (session
        51, the suite's lines from turn 15, 60 s, 2 workers): 5.0 s proves t4-h3 (its bound 84,
        its best line's VP) in 32 s, open at 60 s with 1.0 s; the other proofs 0-2 s slower.
    :param node: the budget of a call inside the search (small: it runs many times).
    :param horizon: inside the search, CP-SAT runs at every phase boundary (`phase_of`: a
        turn's start, between its actions, between Timeline effects, between declines) with at
        most this many turns left (the relaxation is tight there; earlier, the simple bound).
    :param budget: CP-SAT deterministic time for all the node calls of one exact search; once
        spent, the simple bound (deterministic, so node-limited runs stay reproducible).
    :param calls: the most node calls of one exact search (None: no cap; each builds a model,
        ~20-60 ms, and cached answers cost nothing).
    :param gate_calls: after this many calls at one kind of boundary (`boundary_kind`) in one
        exact search, CP-SAT is asked there only while at least `gate_rate` of its answers
        pruned (were at or below the incumbent): where it rarely prunes, a call costs more than
        the subtree it would cut (the last turn's Timeline phase: a few orders left). Counts,
        not time: node-limited runs stay reproducible. The counts are kept for the whole solve
        (its exact searches one after another ask at the same kinds of boundary).
    :param gap_calls: after this many calls at one kind of boundary, CP-SAT is not asked there
        when the simple bound exceeds the incumbent by more than `gap_slack` times the most
        CP-SAT has ever brought the simple bound down at that kind (a call that cannot prune
        costs a model and cuts nothing). Deterministic: values and counts, not time.
    :param dear_calls: after this many calls at one kind of boundary, CP-SAT is not asked there
        when its calls took more than `dear_time` deterministic seconds each on average: such
        a call costs more than the subtree it can cut. The kinds with as many turns left are
        also counted together, and close together: turn 15 has several kinds (actions left,
        Timeline phase, declining), and three calls at each had a polish's 5-s search from
        turn 15 spend 2.4-4.8 s in 6-8 calls (session 52). Measured (session 10, compiled, the
        kept lines of session 8): at the Timeline phase of turn 15 a call takes ~0.09
        deterministic s (~0.5 s of wall time) and prunes 81% of the positions, where the
        search below one takes ~0.05 s; the searches from turn 15 on t3-h1, t3-h4 and t6-h4
        were proven in 36-48 s with the simple bound alone and stayed open at 60 s with
        CP-SAT asked there. At turn 16 a call takes ~0.005 s. Deterministic (CP-SAT's own
        deterministic time, one worker).
    :param prune_chance: after `gap_calls` calls at one kind of boundary, CP-SAT is asked there
        only where at least this share of its answers at that kind came down from the simple
        bound by the gap between the simple bound and the incumbent (the chance it prunes,
        judged by what it did: a call that likely does not prune costs a model, ~50-100 ms of
        wall time at turn 16 for ~0.007 deterministic s, and cuts nothing). Deterministic:
        values and counts, not time.
    """

    root: RelaxConfig = RelaxConfig(max_deterministic_time=1.0)
    near_root: RelaxConfig = RelaxConfig(max_deterministic_time=5.0)
    node: RelaxConfig = RelaxConfig(max_deterministic_time=0.1)
    horizon: int = 2
    budget: float = 2.0
    calls: int | None = None
    gate_calls: int = 40
    gate_rate: float = 0.5
    gap_calls: int = 10
    gap_slack: float = 1.5
    dear_calls: int = 3
    dear_time: float = 0.03
    prune_chance: float = 0.5


def _dear(policy: BoundPolicy, calls: float, spent: float) -> bool:
    """Whether `calls` CP-SAT calls that took `spent` deterministic seconds in all close the
    dear gate (`BoundPolicy.dear_calls`, `BoundPolicy.dear_time`)."""
    return calls >= policy.dear_calls and spent > policy.dear_time * calls


class CpsatBound:
    """The constraint layer's bound for one solve: it owns its cache, its budget, the
    incumbent's value and the latest plan (see the module)."""

    name = "cpsat"
    cycle_free = False  # its models and graphs leave cycles (~48k objects in 10 s, session 46)

    def __init__(self, policy: BoundPolicy | None = None, cache_size: int = CACHE_SIZE,
                 stop: Interrupt | None = None, deadline: float | None = None,
                 root_seconds: float | None = None,
                 simple_gate: SimpleGatePolicy | None = None) -> None:
        self.policy = policy or BoundPolicy()
        # A solve's limits: Ctrl-C, the end of its time limit (`time.monotonic()`), the most
        # wall-clock seconds of the root call. None: the deterministic budgets alone.
        self.stop = stop
        self.deadline = deadline
        self.root_seconds = root_seconds
        self.cache = BoundCache(cache_size)
        self.threshold = -math.inf  # a value some line is known to reach (the incumbent)
        self.spent_time = 0.0  # deterministic time of the current exact search's node calls
        self.spent_calls = 0
        # boundary kind: [calls, prunes, the most CP-SAT brought the simple bound down,
        # deterministic time of its calls]
        self.gate: dict[tuple[int, ...], list[float]] = {}
        # turns left: [calls, their deterministic time] at every kind with that many turns left
        self.turns_gate: dict[int, list[float]] = {}
        # boundary kind: how far below the simple bound CP-SAT's answers came, ascending
        self.closed: dict[tuple[int, ...], list[float]] = {}
        self.plan: tuple[PlanStep, ...] = ()
        self.techs: tuple[int, ...] = ()
        self.pool = PoolFactsCache()
        self.simple_gate = SimpleGate(simple_gate)
        # turns left by what decides them (`_kind`)
        self.slots: dict[tuple[bool, bool, bool, int, int, int, bool], int] = {}
        self.key: Callable[[GameState], Hashable] = GameState.key

    def keyed_by(self, key: Callable[[GameState], Hashable]) -> None:
        """Cache by `key` (the search's transposition key: equal keys, equal futures)."""
        self.key = key

    def start_search(self, incumbent: float | None) -> None:
        """Start an exact search: tell the node bound a value a line is known to reach (where
        the simple bound is already at or below it, the search prunes anyway and CP-SAT is not
        asked) and give its node calls a fresh `BoundPolicy.budget`."""
        self.threshold = -math.inf if incumbent is None else incumbent
        self.spent_time = 0.0
        self.spent_calls = 0
        self.simple_gate.start_search(incumbent)

    def improved(self, value: float) -> None:
        """The search's incumbent rose to `value`: CP-SAT is weighed against it (where the
        simple bound is at or below it the search prunes anyway), and so is the simple
        bound's gate."""
        self.threshold = max(self.threshold, value)
        self.simple_gate.improved(value)

    def root(self, st: GameState) -> BoundResult:
        """The bound of the position a solve starts from, with the root budget (`near_root`
        within `BoundPolicy.horizon` turns of the end; at most `root_seconds` of a time-limited
        solve)."""
        phase = phase_of(st)
        near = phase is not None and self._kind(st, phase) is not None
        pol = self.policy
        return self.relaxed(st, pol.near_root if near else pol.root, self.root_seconds)

    def upper_bound(self, st: GameState) -> float:
        """The bound branch and bound uses at a node: CP-SAT at every phase boundary near the
        end (`BoundPolicy.horizon`; never above the simple bound), else the simple bound where
        it pays (`solver.bounds.simplegate`; ``inf`` where it does not)."""
        pol = self.policy
        if st.over:
            return self.relaxed(st, pol.node).bound
        phase = phase_of(st)
        kind = self._kind(st, phase) if phase is not None else None
        if kind is None or self._shut(kind):
            # no CP-SAT call here: the simple bound where it pays (`solver.bounds.simplegate`)
            return self.simple_gate.bound(st, self.pool)
        facts = self.pool.facts(st)
        simple = as_bound(simple_upper_bound(st, facts, self.pool.memo,
                                             refine_above=self.threshold))
        window = self.simple_gate.window(st, self.pool)
        if window is not None:
            simple = min(simple, as_bound(window))
        if simple <= self.threshold:
            return simple
        key = (self.key(st), pol.node)
        hit = self.cache.get(key)
        if hit is not None:  # a cached answer costs nothing
            return min(simple, hit.bound)
        seen = self.gate.setdefault(kind, [0.0, 0.0, 0.0, 0.0])
        if seen[0] >= pol.gap_calls and simple - self.threshold > pol.gap_slack * seen[2]:
            return simple
        closed = self.closed.setdefault(kind, [])
        if seen[0] >= pol.gap_calls and (
                len(closed) - bisect_left(closed, simple - self.threshold)
                < pol.prune_chance * len(closed)):
            return simple  # CP-SAT rarely closed a gap this wide at this kind of boundary
        r = self.relaxed(st, pol.node)
        spent = r.stats.get("deterministic_time", 0.0)
        self.spent_time += spent
        self.spent_calls += 1
        seen[3] += spent
        turns = self.turns_gate.setdefault(kind[0], [0.0, 0.0])
        turns[0] += 1
        turns[1] += spent
        bound = min(simple, r.bound)
        seen[0] += 1
        seen[1] += bound <= self.threshold
        if bound > -math.inf:
            seen[2] = max(seen[2], simple - bound)
        insort(closed, simple - bound if bound > -math.inf else math.inf)
        return bound

    def _kind(self, st: GameState, phase: Phase) -> tuple[int, int, int, int] | None:
        """The kind of phase boundary `st` is (`BoundPolicy.gate_calls`: turns left, actions
        left, Timeline phase to come, declining), or None beyond the horizon. The count of turns
        left is kept by what decides it (`build_schedule`: the time card, the turn, the
        phase, Potala Palace)."""
        at = (phase.setup, phase.decline, phase.declining,
              st.setup.time_space if phase.setup else st.time_space, st.time_visits, st.turn,
              st.potala)
        slots = self.slots.get(at)
        if slots is None:
            slots = self.slots[at] = len(build_schedule(st, phase, True).slots)
        if slots > self.policy.horizon:
            return None
        return (slots, phase.actions, int(phase.timeline), int(phase.declining))

    def _shut(self, kind: tuple[int, int, int, int]) -> bool:
        """CP-SAT is not asked at this kind of boundary whatever the simple bound says: the
        search's budget is spent, or the gate of `BoundPolicy` closed (it rarely pruned here,
        or its calls cost too much here or at all the kinds with as many turns left)."""
        pol = self.policy
        if self.spent_time >= pol.budget or (
                pol.calls is not None and self.spent_calls >= pol.calls):
            return True
        turns = self.turns_gate.get(kind[0])
        if turns is not None and _dear(pol, turns[0], turns[1]):
            return True
        seen = self.gate.get(kind)
        if seen is None:
            return False
        if seen[0] >= pol.gate_calls and seen[1] < pol.gate_rate * seen[0]:
            return True
        return _dear(pol, seen[0], seen[3])

    def relaxed(self, st: GameState, config: RelaxConfig | None = None,
                max_seconds: float | None = None) -> BoundResult:
        """The constraint layer's bound on `st` (see the module); cached by the position key
        (`keyed_by`) and the budget. Within a solve's time limit each call gets at most the time
        left (and `max_seconds`); after the limit, or once Ctrl-C stopped the solve, the simple
        bound."""
        if self.deadline is not None:
            left = self.deadline - time.monotonic()
            max_seconds = left if max_seconds is None else min(max_seconds, left)
        result = relaxed_bound(st, config, self.cache, self.stop, max_seconds,
                               self.pool.facts(st), self.key)
        self._remember(result)
        return result

    def _remember(self, result: BoundResult) -> None:
        if result.plan or result.techs:
            self.plan = result.plan
            self.techs = result.techs

    def plan_order(self, st: GameState, actions: Sequence[int]) -> Sequence[int]:
        """Move ordering from the latest plan (`plan_order`)."""
        return plan_order(self.plan, self.techs, st, actions)


def relaxed_bound(st: GameState, config: RelaxConfig | None = None,
                  cache: BoundCache | None = None, stop: Interrupt | None = None,
                  max_seconds: float | None = None, facts: PoolFacts | None = None,
                  key_of: Callable[[GameState], Hashable] = GameState.key) -> BoundResult:
    """The constraint layer's bound on `st` (see the module), cached in `cache` (if given) by
    `key_of(st)` (a key whose equal values mean equal futures) and the budget. With `stop`
    raised or no time left (`max_seconds` <= 0) CP-SAT is not asked: the simple bound, not
    cached. `facts`: the game's `PoolFacts` for the simple bound."""
    if st.over:
        value = float(st.score().total) if st.feasible() else -math.inf
        return BoundResult(value, value == -math.inf, source="exact")
    cfg = config or RelaxConfig()
    key = (key_of(st), cfg)
    if cache is not None:
        hit = cache.get(key)
        if hit is not None:
            return hit
    simple = as_bound(simple_upper_bound(st, facts))
    if simple == -math.inf:  # no count still reachable meets every goal: proven, no call
        return BoundResult(simple, True, source="simple")
    if (stop is not None and stop.is_set()) or (max_seconds is not None and max_seconds <= 0):
        return BoundResult(simple, False, source="simple")
    phase = phase_of(st)
    result: BoundResult
    if phase is None:
        result = BoundResult(simple, False, source="simple")
    else:
        try:
            r = relax(st, phase, cfg, stop, max_seconds)
        except UnsupportedCardError:
            result = BoundResult(simple, False, source="simple")
        else:
            if r.infeasible:
                result = BoundResult(-math.inf, True, source="cpsat", stats=r.stats)
            else:
                b = simple if r.bound is None else min(simple, float(r.bound))
                result = BoundResult(b, False, r.plan, r.techs, "cpsat", r.stats)
    if cache is not None and not (stop is not None and stop.is_set()):
        cache.put(key, result)
    return result


def plan_order(plan: tuple[PlanStep, ...], techs: tuple[int, ...], st: GameState,
               actions: Sequence[int]) -> Sequence[int]:
    """Move ordering from a plan: at an action choice, Create first when the plan creates
    something this turn or earlier with the card in hand; at a Create, the planned cards
    (earliest first) and their planned spaces; at a Learn, the planned technologies. The
    result is a permutation of `actions` (hints, never pruning)."""
    if len(actions) < 2 or not st.stack:
        return actions
    if not plan and not techs:
        return actions
    kind = st.stack[-1][0]
    preferred: list[int] = []
    if kind == D_ACTION:
        due = [s for s in plan if s.turn <= st.turn and s.card in st.hand]
        if due:
            preferred = [A.ACT_CREATE]
        elif any(t in st.available_techs() for t in techs):
            preferred = [A.ACT_LEARN]
    elif kind == D_CREATE_CARD:
        preferred = [A.code(A.CARD, s.card) for s in plan]
    elif kind == D_CREATE_SPACE:
        card = st.stack[-1][1]
        preferred = [A.code(A.SPACE, s.space) for s in plan if s.card == card and s.space]
    elif kind == D_LEARN:
        preferred = [A.code(A.CARD, t) for t in techs]
    if not preferred:
        return actions
    present = set(actions)
    first = [a for a in dict.fromkeys(preferred) if a in present]
    if not first:
        return actions
    chosen = set(first)
    return [*first, *(a for a in actions if a not in chosen)]
