"""Artifacts: which are created, and the artifact spaces that hold them (RULES.md sections 2
and 5).

An artifact is created at most once unless it can leave the board (its own effect, or another
card's payment, P13) and come back after a reshuffle (relaxation 4). When it can be in hand
(its deck position) is checked in `cardflow.dig_for_cards`.
"""

from __future__ import annotations

from solver.bounds.cpsat.context import Context, LinExpr
from solver.bounds.cpsat.goals import goal_chests
from solver.bounds.cpsat.reshuffle import more_lives
from solver.bounds.cpsat.resources import self_discard_artifact
from solver.bounds.cpsat.variables import Artifacts, Var
from solver.engine.state import EMPTY


def choose_artifacts(ctx: Context, reshuffle: Var | None) -> Artifacts:
    """A Boolean per artifact that can still be created (RULES.md section 5, Create an
    artifact); more creations only for one that can
    leave the board and come back after a reshuffle; the artifacts on the board now created
    again on the same terms."""
    m, cards, reach = ctx.model, ctx.cards, ctx.reach
    new = sorted(c for c in reach.positions if cards[c].is_artifact)
    first_created: dict[int, Var] = {}
    created: dict[int, LinExpr] = {}  # creations still to come
    freed: list[LinExpr] = []
    for a in new:
        first = m.new_bool_var(f"art_{cards[a].code}")
        first_created[a] = first
        recyclable = reach.recycle_all or self_discard_artifact(cards[a])
        created[a] = first + (more_lives(ctx, reshuffle, cards[a].code, first)
                              if recyclable else 0)
        if self_discard_artifact(cards[a]):
            freed.append(created[a])
    again: dict[int, LinExpr] = {}  # artifacts on the board created again
    for a in reach.on_board:
        if reach.recycle_all or self_discard_artifact(cards[a]):
            again[a] = more_lives(ctx, reshuffle, f"again_{cards[a].code}", 1)
        if self_discard_artifact(cards[a]):
            freed.append(1 + again.get(a, 0))
    total = ctx.as_var(sum(created.values()) + sum(again.values()), "created_artifacts")
    return Artifacts(new=new, first_created=first_created, created=created,
                     created_again=again, created_total=total, freed_by_own_effect=freed)


def artifact_spaces(ctx: Context) -> int:
    """Artifact spaces for artifacts: 5 less the goal chests there, plus those a campaign's
    revision may still free (RULES.md sections 2, 6 and 8)."""
    st = ctx.state
    return 5 - len(st.goal_chests) + (
        max(0, len(st.goal_chests) - 1) if goal_chests(st, ctx.phase)[1] else 0)


def limit_artifact_spaces(ctx: Context, artifacts: Artifacts,
                          freed_by_paying: list[LinExpr]) -> None:
    """Artifact spaces: 5, less the goal chests; a space frees when its artifact leaves
    (RULES.md sections 2 and 5: an artifact needs a free space)."""
    st = ctx.state
    free = sum(1 for x in st.artifacts if x == EMPTY)
    chests = max(0, len(st.goal_chests) - 1) if goal_chests(st, ctx.phase)[1] else 0
    ctx.model.add(artifacts.created_total <= free + sum(artifacts.freed_by_own_effect)
                  + sum(freed_by_paying) + chests)
