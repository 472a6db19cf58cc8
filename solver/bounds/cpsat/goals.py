"""The goal chests, compiled onto the final counters (relaxation 9).

9. **Goals.** Each goal chest's formula (`solver.engine.goals`) on the same final counters
   (`counters.final_counters`); campaign goals that the mid-game revision may still drop need
   only one of them met.
"""

from __future__ import annotations

from solver.bounds.cpsat.context import Context, LinExpr
from solver.bounds.cpsat.schedule import Phase
from solver.bounds.cpsat.variables import Var
from solver.engine.cards import Clause
from solver.engine.goal_check import chest_goal
from solver.engine.goals import And, Goal
from solver.engine.state import GameState


def goal_chests(st: GameState, phase: Phase) -> tuple[list[int], bool]:
    """The goal chests a line must meet, and whether one of them is enough (a campaign's
    mid-game revision may still discard the others, RULES.md section 6)."""
    letters = list(st.goal_chests)
    if phase.choosing_goals:
        letters += [k for k in st.setup.revealed_indices() if k not in letters]
    one = st.setup.campaign and (phase.revising_goals or phase.choosing_goals
                                 or not st.midgame)
    return letters, one


def require_goals(ctx: Context, counters: dict[str, LinExpr]) -> None:
    """Relaxation 9: every goal chest met at the end (RULES.md section 8), or one of them when
    the campaign's revision may still drop the others (section 6)."""
    letters, one = goal_chests(ctx.state, ctx.phase)
    if not letters:
        return
    lits = [_goal(ctx, counters, chest_goal(ctx.state, k)) for k in letters]
    if one:
        ctx.model.add_bool_or(lits)
    else:
        for b in lits:
            ctx.model.add(b == 1)


def _goal(ctx: Context, counters: dict[str, LinExpr], goal: Goal) -> Var:
    """A literal that, when true, forces the goal on the final counters."""
    m = ctx.model
    b = m.new_bool_var("goal")
    if isinstance(goal, Clause):
        expr, v = counters[goal.counter], goal.value
        bounds = {">=": (v, None), ">": (v + 1, None), "<=": (None, v), "<": (None, v - 1),
                  "==": (v, v)}[goal.op]
        if bounds[0] is not None:
            m.add(expr >= bounds[0]).only_enforce_if(b)
        if bounds[1] is not None:
            m.add(expr <= bounds[1]).only_enforce_if(b)
        return b
    parts = [_goal(ctx, counters, p) for p in goal.parts]
    if isinstance(goal, And):
        for p in parts:
            m.add_implication(b, p)
    else:
        m.add_bool_or(parts).only_enforce_if(b)
    return b
