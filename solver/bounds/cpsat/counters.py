"""The counters of the final position, on which scoring, requirements and goals are read
(relaxations 7, 8 and 9).

The names are those of `solver.engine.goals` (``past.city``, ``timeline.any``, ``techs.level2``,
``lost``, ``hand``, ...). Counters the model does not track take their largest value (an
overestimate), and those of a Past card's own neighbourhood are 0 (a Past card holds no
knowledge and has no neighbours).
"""

from __future__ import annotations

from solver.bounds.cpsat.context import KIND_KEYS, Context, LinExpr
from solver.bounds.cpsat.resources import HAND_LIMIT
from solver.bounds.cpsat.variables import (
    Artifacts,
    FinalCounters,
    Knowledge,
    Monuments,
    Technologies,
    Var,
)
from solver.engine.cards import MONUMENT_KINDS, TECH_TYPE_NAMES


def final_counters(ctx: Context, monuments: Monuments, techs: Technologies,
                   artifacts: Artifacts, knowledge: Knowledge, hand_final: Var,
                   rotated: Var) -> FinalCounters:
    """The final Past, Timeline and technology counts (RULES.md sections 2 and 7), their
    smallest and largest type, lost knowledge, artifacts, hand, Timeline knowledge and
    rotated Past monuments; `rotated` is the monuments the excavations rotate in all."""
    st, m, cards = ctx.state, ctx.model, ctx.cards
    mons, in_past, at_end = monuments.cards, monuments.in_past, monuments.at_end
    learned = techs.learned
    cnt: dict[str, LinExpr] = {}
    for k, name in zip(MONUMENT_KINDS, KIND_KEYS, strict=True):
        cnt[f"past.{name}"] = st.count_past(k) + sum(
            in_past[c] for c in mons if cards[c].kind == k)
        cnt[f"timeline.{name}"] = sum(at_end[c] for c in mons if cards[c].kind == k)
    cnt["past.any"] = len(st.past) + sum(in_past[c] for c in mons)
    cnt["past.endgame"] = sum(1 for c in st.past if cards[c].activation == "endgame") + sum(
        in_past[c] for c in mons if cards[c].activation == "endgame")
    cnt["timeline.any"] = sum(at_end[c] for c in mons)
    for k, name in enumerate(TECH_TYPE_NAMES):
        cnt[f"techs.{name}"] = sum(1 for t in st.techs if cards[t].kind == k) + sum(
            learned[t] for t in techs.learnable if cards[t].kind == k)
    cnt["techs.any"] = len(st.techs) + sum(learned.values())
    for lv in (1, 2):
        cnt[f"techs.level{lv}"] = sum(1 for t in st.techs if cards[t].level == lv) + sum(
            learned[t] for t in techs.learnable if cards[t].level == lv)
    for key in list(cnt):
        cnt[key] = ctx.as_var(cnt[key], key.replace(".", "_"))
    for zone, keys in (("past", KIND_KEYS), ("timeline", KIND_KEYS),
                       ("techs", TECH_TYPE_NAMES)):
        vals = [cnt[f"{zone}.{k}"] for k in keys]
        lo = m.new_int_var(0, 500, f"{zone}_min")
        m.add_min_equality(lo, vals)
        cnt[f"{zone}.min_type"] = lo
        hi = m.new_int_var(0, 500, f"{zone}_max")
        m.add_max_equality(hi, vals)
        cnt[f"{zone}.max_type"] = hi
    cnt["lost"] = knowledge.lost_final
    artifacts_ever = len(ctx.reach.on_board) + artifacts.created_total
    art = m.new_int_var(0, 5, "artifacts_final")
    m.add(art <= artifacts_ever)
    cnt["artifacts"] = art
    cnt["hand"] = hand_final
    hand_art = m.new_int_var(0, HAND_LIMIT, "hand_artifacts")
    m.add(hand_art <= hand_final)
    cnt["hand.artifact"] = hand_art
    tl_tok = m.new_int_var(0, 500, "timeline_tokens")
    m.add(tl_tok <= sum((st.tokens[c] if c in monuments.space_now else cards[c].knowledge)
                        * at_end[c] for c in mons))
    cnt["tl_tokens"] = tl_tok
    rot = m.new_int_var(0, 500, "rotated_final")
    m.add(rot <= st.rotated + rotated)
    m.add(rot <= cnt["past.any"])
    cnt["past.rotated"] = rot
    cnt["space1"] = m.new_int_var(0, 2, "space1_final")
    for name in ("self.tokens", "adj.city", "adj.megalith", "adj.pyramid", "adj.any",
                 "adj.max_type"):
        cnt[name] = 0  # a Past card holds no knowledge and has no neighbours
    return FinalCounters(values=cnt, artifacts_ever=artifacts_ever,
                         lost_peak=knowledge.lost_peak)
