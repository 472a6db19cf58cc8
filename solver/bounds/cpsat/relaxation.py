"""A relaxation of the rest of the game as a CP-SAT model: its optimum bounds the final VP.

From a position at a phase boundary (`solver.bounds.cpsat.schedule.phase_of`), the model chooses,
for every monument that can still matter, its *fate*: declining into the Past in a given decline
phase, staying in the Timeline to the end, being discarded by its own decline effect (C25-C29),
or nothing; for every artifact whether it is created; for every technology whether it is
learned; and per remaining turn how many of its actions are Searches, Excavates, Archives,
Learns and Creates. Every constraint is a consequence of the rules (RULES.md sections 4-7) that
any line of the engine satisfies, so the model's optimum (and CP-SAT's proven bound on it, when
it stops early) is at least the final VP of every line that meets all goals. Where the model
proves that no assignment meets the goals, no line does: the position is infeasible.

The relaxations, and why each can only overestimate (each is a constraint the real game obeys,
with the real quantities as a solution; dropping the rest only widens the model), are stated,
numbered, beside the code that makes them:

1. **Schedule**: `solver.bounds.cpsat.turns` (the constants of `schedule.build_schedule`).
2. **Decline capacity**: `solver.bounds.cpsat.fates` (`limit_declines`).
3. **Timing and cost**: `solver.bounds.cpsat.fates` (`reachable_fates`, `choose_fates`,
   `distance_costs`).
4. **Cards**: `solver.bounds.cpsat.cardflow` (and `reach`, `reshuffle`; the deck's order:
   `deckorder`).
5. **Actions and effects**: `solver.bounds.cpsat.turns` (actions),
   `solver.bounds.cpsat.effects` (effects) and `solver.bounds.cpsat.timing` (Past counts by
   turn; the lost knowledge left for the game's last Timeline phase).
6. **Knowledge**: `solver.bounds.cpsat.knowledge`.
7. **Technologies**: `solver.bounds.cpsat.technologies` (a hand-size requirement against the
   cards that can reach the hand; and `reach.dealt_technologies`; the
   last turn's tile refills: `solver.bounds.cpsat.tiles`; the deals followed card by card
   after the middle of the game, die rolls and reshuffles included:
   `solver.bounds.cpsat.techdeal`).
8. **Scoring**: `solver.bounds.cpsat.scoring`.
9. **Goals**: `solver.bounds.cpsat.goals`.
10. **Creation time** (with `RelaxConfig.timed`, or at most `RelaxConfig.timed_turns` turns
    left): `solver.bounds.cpsat.creation`.
11. **Learn time** (at most `RelaxConfig.learn_turns` turns left):
    `solver.bounds.cpsat.learntime`; the cards that Learns make effects draw, by slot:
    `solver.bounds.cpsat.learndraws`.
12. **The hand by turn** (with creation times and `RelaxConfig.hand_by_turn`): Creates, cards
    paid and effect draws in their turn, the hand capped at 10: `solver.bounds.cpsat.handtime`.

`Relaxation.build` adds them in one order (the order of the variables and constraints is part
of what makes CP-SAT's search, with one worker and a fixed seed, reproducible); the variables
are named in `solver.bounds.cpsat.variables`.

A card effect the model cannot bound (an unknown op or special) makes it give up
(`UnsupportedCardError`); the caller then uses the simple bound.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

from solver.bounds.cpsat.artifacts import choose_artifacts, limit_artifact_spaces
from solver.bounds.cpsat.cardflow import (
    archive_by_effects,
    dig_for_cards,
    effect_draws,
    greek_creations,
    hold_cards,
    limit_creations,
    pay_for_cards,
    running_totals,
    through_hand,
)
from solver.bounds.cpsat.context import Context
from solver.bounds.cpsat.counters import final_counters
from solver.bounds.cpsat.creation import (
    arrive_in_time,
    creation_times,
    granted_by_turn,
    pace_creations,
    paid_by,
    poulnabrone_in_play,
    timeline_in_play,
)
from solver.bounds.cpsat.deckorder import bound_reveals, limit_excavated, pay_in_kind
from solver.bounds.cpsat.effects import (
    activate_effects,
    count_events,
    link_conditions,
    special_cards,
)
from solver.bounds.cpsat.facts import FactBook, Facts, card_facts
from solver.bounds.cpsat.fates import (
    choose_fates,
    declines_by_slot,
    distance_costs,
    limit_declines,
    where,
)
from solver.bounds.cpsat.goals import require_goals
from solver.bounds.cpsat.handtime import balance_hand
from solver.bounds.cpsat.knowledge import lose_knowledge
from solver.bounds.cpsat.learndraws import draw_on_learns
from solver.bounds.cpsat.learntime import learn_in_time
from solver.bounds.cpsat.reach import Reach, chest_gains, read_reach
from solver.bounds.cpsat.reshuffle import may_reshuffle
from solver.bounds.cpsat.resources import UnsupportedCardError
from solver.bounds.cpsat.schedule import END, Phase, build_schedule
from solver.bounds.cpsat.scoring import maximize_score
from solver.bounds.cpsat.techdeal import limit_deals
from solver.bounds.cpsat.technologies import (
    choose_technologies,
    limit_learns,
    require_at_end,
    require_hand,
)
from solver.bounds.cpsat.tiles import limit_refills
from solver.bounds.cpsat.timing import (
    gate_last_lost,
    gate_timeline_effects,
    past_by_turn,
    poulnabrone_turns,
)
from solver.bounds.cpsat.turns import take_actions
from solver.bounds.cpsat.variables import Variables
from solver.engine.state import GameState
from solver.search.interrupt import Interrupt

__all__ = [
    "END",
    "Facts",
    "PlanStep",
    "ROOT_CONFIG",
    "Reach",
    "RelaxConfig",
    "Relaxation",
    "Relaxed",
    "UnsupportedCardError",
    "card_facts",
    "load_libraries",
    "relax",
]


@dataclass(frozen=True)
class RelaxConfig:
    """The deterministic budget of one CP-SAT call (tuned numbers in one place).

    :param max_deterministic_time: CP-SAT's deterministic time limit (reproducible, unlike
        wall-clock time); the bound it proves by then is returned.
    :param workers: CP-SAT workers (1: deterministic).
    :param seed: CP-SAT random seed.
    """

    max_deterministic_time: float = 0.1
    workers: int = 1
    seed: int = 0
    presolve: bool = False  # the model is small and linear; presolve costs more than it saves
    linearization: int = 2  # a full linear relaxation: the bound comes from it
    symmetry: int = 0  # CP-SAT's symmetry_level (measured: no gain at the root, see ROOT_CONFIG)
    # Creation times (relaxation 10, `solver.bounds.cpsat.creation`): a turn Boolean per card.
    # Sound, but off by default: with effect gains and Learns still untimed it does not lower
    # the model's optimum, and its larger LP gives a looser bound at the same budget (issue
    # 13's measurements: root 457/456/586 on with 1.0 deterministic s vs 444/450/445 off).
    timed: bool = False
    # ... and on whatever the config when at most this many turns remain: the model is
    # small there and the times pay. Measured at the node budget (0.1 deterministic s) on the
    # 24 lines of session 3's 60 s suite table (`benchmarks.root_bounds --lines t60.jsonl`),
    # mean bound / line VP at the start of turn 16: 1.10 before this round, 1.06 with 1;
    # at turn 15: 1.85 before, 1.80 with 1, 1.88 with 2 (better on 14 of 24 lines, but CP-SAT
    # proves less on the larger model within the budget: 212 vs 124 on t5-h3). The root (16
    # turns left) is not affected.
    timed_turns: int = 1
    # A Timeline effect fires at most once per Timeline phase (one card is in play once at a
    # time, RULES.md section 4B; `effects.activate_effects`'s `per_phase`), always sound; on
    # when at most this many turns remain (and with creation times). Measured like
    # `timed_turns`: turn 15, 1.80 x VP off, 1.78 on (18 of 24 lines lower, 3 higher); the
    # root at 1.0 deterministic s, 6 deals, mean 438.5 off, 439.5 on (T4 H4 438 -> 445):
    # hence not at the root.
    per_phase_turns: int = 2
    # Learns in time (relaxation 11, `solver.bounds.cpsat.learntime`): on when at most this
    # many turns remain. Measured on the 24 lines of session 5's 60 s suite table, mean
    # bound / line VP, off -> on: turn 14 at 1.0 deterministic s 2.38 -> 2.32, at 0.1 s
    # 2.56 -> 2.54; turn 15 at 1.0 s 1.64 -> 1.65, at 0.1 s 1.77 -> 1.76; turn 16 1.05 both;
    # turn 13 (with 4) at 0.1 s 3.24 -> 3.32 (the larger LP does not settle in the budget).
    # The root (24 deals, 1.0 s): 439.2 -> 444.5; at 5.0 s on 4 deals 435.0 -> 436.0: every
    # technology stays learnable in time there (the model's Past fills fast, Learns are
    # cheap), so only the larger LP shows.
    learn_turns: int = 3
    # The hand turn by turn (relaxation 12, `solver.bounds.cpsat.handtime`), with creation
    # times only (so by default in the last turn). Measured (issue 13, 24 suite deals, one
    # worker): the root with creation times at 1.0 deterministic s, mean 439.2 off, 528.7
    # timed, 626.8 timed with this (the LP is not solved within the budget); 6 deals at 3.0
    # s: 436.0 / 439.7 / 441.8, at 5.0 s: 436.0 off, 439.7 timed with this: the LP bound
    # is no lower with times, so creation times stay off at the root. Turn 16 of the 24
    # lines at 0.1 s: bounds summed 1742 without, 1739 with (t1-h4 97 -> 89, t5-h1 70 -> 75).
    # Turn 15 with `timed_turns=2`: at 0.3 s, mean bound / VP 1.75 untimed, 1.74 timed, 1.68
    # timed with this (lower on 22 of 24 lines, bounds summed 2879 -> 2768); at 0.1 s it
    # does not pay (1.77 untimed, 1.88); at 0.2 s, 1.76 -> 1.72: the budget decides.
    hand_by_turn: bool = True
    # CP-SAT's lower-bound tree search (`optimize_with_lb_tree_search`: it branches to raise
    # the proven bound rather than to find solutions) when this many turns remain and the
    # budget is at most `lb_tree_budget` deterministic s. With 2 turns left the budget goes
    # into the root LP's cut rounds (the model's optimum is far lower: 1.14 x VP at 5.0 s on
    # the 24 kept lines at turn 15, 1.27 at 1.0 s, 1.69 at 0.1 s). Measured there (session 7,
    # mean bound / line VP, off -> on): turn 15 at 0.1 s 1.69 -> 1.61, at 0.3 s 1.64 -> 1.54,
    # at 1.0 s 1.27 -> ~1.35 (hence the budget cap); turn 14 at 0.1 s 2.39 -> 2.32; turn 16
    # at 0.1 s 1.038 -> 1.040 (hence not with 1 turn left). The root is not affected.
    lb_tree_turns: tuple[int, ...] = (2, 3)
    lb_tree_budget: float = 0.5
    # Cards of the discard pile only after the reshuffle (`cardflow.from_discard`) and
    # Poulnabrone's own creation not doubled (`effects.special_cards`): always sound, on when
    # at most this many turns remain. Measured (session 7, the 24 kept lines, mean bound /
    # line VP, off -> on): turn 15 at 0.1 s 1.61 -> 1.52, at 0.3 s 1.54 -> 1.36; turn 14 at
    # 0.1 s 2.32 -> 2.29, at 0.3 s 2.23 -> 2.18 (with 3); but with 3 turns left the root call
    # of test_policy's turn-14 position (1.0 s) then finds no solution, so no plan for NRPA
    # (bound 92 vs 85; 84 vs 84 at 2.0 s): a first solution is fragile there.
    discard_turns: int = 2
    # Candi Sukuh lowers requirements only where the model creates it or has it in the
    # Timeline (`technologies.candi_lowering`; else every threshold is 1 lower as soon as one
    # can be reached): always sound, on when at most this many turns remain. Measured
    # (session 26): t3-h2's turn-16 start 80 -> 79 (with the tile refills, 78 = its line);
    # everywhere, the root (24 deals, 1.0 s) 438.1 -> 439.5 (a different LP, not a tighter
    # one) and test_policy's turn-14 root call found no solution (no plan for NRPA).
    candi_turns: int = 2


ROOT_CONFIG = RelaxConfig(max_deterministic_time=1.0)
"""The recommended budget of the root call (`BoundPolicy.root`)."""


@dataclass(frozen=True)
class PlanStep:
    """One step of the relaxation's plan: create `card` at `turn` in `space` (0 for an
    artifact); `fate` is the turn its decline is planned for, or None (stays to the end)."""

    turn: int
    card: int
    code: str
    space: int
    fate: int | None


@dataclass(frozen=True)
class Relaxed:
    """The outcome of one relaxation.

    :param bound: an upper bound on the final VP of every goal-meeting line (None when
        infeasible).
    :param infeasible: proven: no line from the position meets every goal.
    :param plan: the creations of the model's best assignment (hints, never a proof).
    :param techs: technologies learned in that assignment.
    :param optimal: CP-SAT proved its optimum (else `bound` is its best proven bound).
    """

    bound: int | None
    infeasible: bool
    plan: tuple[PlanStep, ...] = ()
    techs: tuple[int, ...] = ()
    optimal: bool = False
    stats: dict[str, float] = field(default_factory=dict)


class Relaxation:
    """Builds and solves the model for one position (see the module).

    Reading the position comes first (card facts, chest gains, the cards within reach, then
    the schedule, which depends on whether Potala Palace is within reach); `build` then adds
    the model's steps in order, and `solve` runs CP-SAT on it.
    """

    def __init__(self, st: GameState, phase: Phase, config: RelaxConfig) -> None:
        self.state = st
        self.phase = phase
        self.config = config
        pool_size = len(st.setup.card_pool(st.book))
        facts = FactBook(st.book, pool_size)
        chest = chest_gains(st, pool_size)
        self.reach = read_reach(st, phase, facts, chest)
        self.schedule = build_schedule(st, phase, self.reach.potala)  # relaxation 1
        from ortools.sat.python import cp_model  # lazy: start-up time (OR-Tools)

        self.model = cp_model.CpModel()
        self.context = Context(state=st, phase=phase, pool_size=pool_size, facts=facts,
                               chest_gains=chest, reach=self.reach, schedule=self.schedule,
                               model=self.model)
        self.variables: Variables | None = None

    def build(self) -> Variables:
        """Variables and constraints, in this order (the numbers are the module's
        relaxations):

        1. the turns' actions (5); the reshuffle (4);
        2. the monuments' fates (3), the artifacts, the technologies (7);
        3. the events triggers count, the effects' activations and the special cards (5);
        4. the cards over the turns: draws, running totals (4), the Past by turn (5),
           Creates, the hand per turn (4; 12 with creation times), distance costs (3),
           payments (4), Learns and a hand-size requirement (7), artifact spaces, decline
           capacity (2), the deck dug (4);
        5. knowledge (6), the lost knowledge of the last Timeline phase (5), the final
           counters, effect conditions (5), requirements (7; and on each learn point's counts,
           11, with at most `learn_turns` turns left, and the draws of Learns by slot), the
           objective (8), the goals (9).
        """
        ctx = self.context
        turns = take_actions(ctx)
        reshuffle = may_reshuffle(ctx)
        monuments = choose_fates(ctx, reshuffle)
        artifacts = choose_artifacts(ctx, reshuffle)
        techs = choose_technologies(ctx, monuments, ctx.n_slots <= self.config.candi_turns)
        limit_refills(ctx, techs, monuments)
        limit_deals(ctx, techs, monuments)
        events = count_events(ctx, monuments, techs)
        timed = self.config.timed or ctx.n_slots <= self.config.timed_turns
        per_phase = timed or ctx.n_slots <= self.config.per_phase_turns
        effects = activate_effects(ctx, monuments, artifacts, techs, events, turns, reshuffle,
                                   per_phase)
        near = ctx.n_slots <= self.config.discard_turns
        specials = special_cards(ctx, effects, turns, events, own_creation=near)
        draws = effect_draws(ctx, effects, by_phase=not timed)
        declines = declines_by_slot(ctx, monuments)
        totals = running_totals(ctx, turns, declines, draws)
        bound_reveals(ctx, effects, totals, draws, reshuffle)  # relaxation 4: the deck's order
        pay_in_kind(ctx, effects, totals, draws, reshuffle)
        limit_excavated(ctx, turns)
        past = past_by_turn(ctx, monuments, effects, totals.declined)
        gate_timeline_effects(ctx, effects, past)
        poulnabrone = poulnabrone_turns(ctx, specials, turns, effects, past)
        archived_by_effects = archive_by_effects(ctx, effects)
        granted_mon = limit_creations(ctx, totals, effects, specials, events, artifacts)
        times = None
        paid = None
        if timed:
            times = creation_times(ctx, monuments, artifacts)
            poulnabrone_in_play(ctx, times, monuments, poulnabrone)
            pace_creations(ctx, times, totals.creates,
                           granted_mon + effects.gains["create_art"],
                           granted_by_turn(ctx, times, monuments, artifacts, effects,
                                           specials.poulnabrone, poulnabrone))
            timeline_in_play(ctx, times, monuments, effects)
            greek = greek_creations(ctx, techs)
            paid = [paid_by(ctx, times, i) - greek for i in range(ctx.n_slots)]
        used = hold_cards(ctx, totals, draws, effects, granted_mon, paid)
        if times is not None and self.config.hand_by_turn:  # relaxation 12
            balance_hand(ctx, turns, times, monuments, artifacts, effects, specials, draws,
                         totals, used, greek, poulnabrone)
        distance = distance_costs(ctx, monuments, effects.gains["moves"])
        hand_final = pay_for_cards(ctx, monuments, artifacts, techs, totals, draws, used,
                                   distance, archived_by_effects, effects)
        limit_learns(ctx, techs, turns, effects.gains)
        require_hand(ctx, techs, through_hand(ctx, totals, draws, -1))
        limit_artifact_spaces(ctx, artifacts, effects.freed_by_paying)
        limit_declines(ctx, monuments, techs, declines.declined)
        dig_for_cards(ctx, monuments, artifacts, totals, draws, reshuffle, from_pile=near)
        if times is not None:
            arrive_in_time(ctx, times, [totals.dug[i] + draws.dug_by_effects
                                        for i in range(ctx.n_slots)])
        knowledge = lose_knowledge(ctx, monuments, turns, archived_by_effects, effects,
                                   specials, draws)
        gate_last_lost(ctx, effects, knowledge.lost_final)
        final = final_counters(ctx, monuments, techs, artifacts, knowledge, hand_final,
                               totals.rotated[-1])
        link_conditions(ctx, effects, final, monuments, events)
        require_at_end(ctx, techs, final)
        if ctx.n_slots <= self.config.learn_turns:  # relaxation 11
            learned = learn_in_time(ctx, techs, turns, monuments, effects, knowledge, times)
            draw_on_learns(ctx, effects, learned, totals, draws, used)
        vp = maximize_score(ctx, monuments, techs, final)
        require_goals(ctx, final.values)
        self.variables = Variables(
            turns=turns, reshuffle=reshuffle, monuments=monuments, artifacts=artifacts,
            technologies=techs, events=events, effects=effects, specials=specials, draws=draws,
            totals=totals, hand_final=hand_final, knowledge=knowledge, counters=final, vp=vp)
        return self.variables

    def solve(self, stop: Interrupt | None = None, max_seconds: float | None = None) -> Relaxed:
        """Build the model and run CP-SAT with the configured deterministic budget, and at most
        `max_seconds` of wall-clock time (a solve's time limit); `stop` (Ctrl-C) ends the call
        at once, as a time limit would. CP-SAT's own Ctrl-C handler is off: it would leave
        SIGINT at the default (the process killed) after the call."""
        started = time.perf_counter()
        variables = self.build()
        built = time.perf_counter()
        from ortools.sat.python import cp_model  # lazy: start-up time (OR-Tools)

        solver = cp_model.CpSolver()
        p = solver.parameters
        p.num_workers = self.config.workers
        p.random_seed = self.config.seed
        p.max_deterministic_time = self.config.max_deterministic_time
        p.cp_model_presolve = self.config.presolve
        p.linearization_level = self.config.linearization
        p.catch_sigint_signal = False
        if max_seconds is not None:
            p.max_time_in_seconds = max(0.001, max_seconds)
        p.symmetry_level = self.config.symmetry
        p.optimize_with_lb_tree_search = self.lb_tree()
        if stop is None:
            code = solver.solve(self.model)
        else:
            with stop.stopping(solver.stop_search):
                if stop.is_set():  # Ctrl-C while the model was built: CP-SAT would not see a
                    # stop asked before its solve began
                    return Relaxed(bound=None, infeasible=False, stats={})
                code = solver.solve(self.model)
        stats = {"build_s": built - started, "solve_s": time.perf_counter() - built,
                 "deterministic_time": solver.deterministic_time,
                 "variables": float(len(self.model.proto.variables)),
                 "constraints": float(len(self.model.proto.constraints))}
        if code == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT rejected the relaxation: {self.model.validate()}")
        if code == cp_model.INFEASIBLE:
            return Relaxed(bound=None, infeasible=True, optimal=True, stats=stats)
        searched = solver.num_branches > 0 or solver.response_proto.num_lp_iterations > 0
        if code == cp_model.UNKNOWN and not searched:
            # Stopped before the search began: CP-SAT then reports a bound of 0, which proves
            # nothing. (Once the search runs, its bound is proven: the LP or propagation.)
            return Relaxed(bound=None, infeasible=False, stats=stats)
        bound = math.floor(solver.best_objective_bound + 1e-6)
        if code == cp_model.UNKNOWN:
            return Relaxed(bound=bound, infeasible=False, stats=stats)
        techs = variables.technologies
        return Relaxed(bound=bound, infeasible=False, plan=self._plan(solver, variables),
                       techs=tuple(t for t in techs.learnable
                                   if solver.boolean_value(techs.learned[t])),
                       optimal=code == cp_model.OPTIMAL, stats=stats)

    def lb_tree(self) -> bool:
        """Whether CP-SAT runs its lower-bound tree search (see `RelaxConfig.lb_tree_turns`)."""
        cfg = self.config
        return (self.context.n_slots in cfg.lb_tree_turns
                and cfg.max_deterministic_time <= cfg.lb_tree_budget)

    def _plan(self, solver: cp_model.CpSolver, variables: Variables) -> tuple[PlanStep, ...]:
        """The creations of the model's assignment, each at the turn and space that reach its
        fate at the least cost (a hint for move ordering, not a line)."""
        cards, slots = self.state.book.cards, self.schedule.slots
        monuments, artifacts = variables.monuments, variables.artifacts
        steps: list[PlanStep] = []
        for c in monuments.new:
            for fate, v in monuments.fate[c].items():
                if solver.boolean_value(v):
                    slot, space = where(self.context, c, fate)
                    steps.append(PlanStep(slots[slot].turn, c, cards[c].code, space,
                                          None if fate == END else slots[fate[1]].turn))
        for a in artifacts.new:
            if solver.boolean_value(artifacts.first_created[a]):
                steps.append(PlanStep(slots[0].turn, a, cards[a].code, 0, None))
        steps.sort(key=lambda s: (s.turn, s.card))
        return tuple(steps)


def load_libraries() -> None:
    """Import OR-Tools and NetworkX now: they load on first use (start-up time of the commands
    that never build a model), which takes a second or two; a time-limited solve loads them
    before its clock starts, so that the limit measures the search."""
    import networkx  # noqa: F401  # lazy: start-up time (see above)
    from ortools.sat.python import cp_model  # noqa: F401  # lazy: start-up time (see above)


def relax(st: GameState, phase: Phase, config: RelaxConfig | None = None,
          stop: Interrupt | None = None, max_seconds: float | None = None) -> Relaxed:
    """Build and solve the relaxation of a position at a phase boundary (see the module);
    `stop` and `max_seconds` as `Relaxation.solve`.

    :raises UnsupportedCardError: a card that can still be played has an effect the model
        cannot bound.
    """
    return Relaxation(st, phase, config or RelaxConfig()).solve(stop, max_seconds)
