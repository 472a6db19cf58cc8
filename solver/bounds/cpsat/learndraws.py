"""The cards that Learns make effects draw, booked by slot (relaxation 11 with relaxation 4).

An effect that draws "each time you LEARN" (Dogon Mythology, A18: 2 cards per Ancient
technology; Voynich Manuscript, A19: 2 per Secret one) fires once per Learn of its type while
its card is in play (RULES.md section 5, Learn: the "each time you LEARN" effects apply with
the Learn). Relaxation 4 (`cardflow.hold_cards`) counts every effect's draws from the start,
so a model line could pay turn 15's Creates with the cards turn 16's Learns will draw. With
Learns in time (`learntime.learn_in_time`), a slot's cards are held to the Learns made by its
end instead:

* the Learns made by the end of slot ``i`` are those of the learn points up to ``i`` (point
  ``i`` ends with slot ``i``'s Timeline phase) plus those of slot ``i``'s decline phase, which
  only its declining monuments' grants and the untimed grants can make
  (`learntime.LearnTimes.in_decline`: no action and no Timeline effect happens there, RULES.md
  section 4C);
* such an effect fires by then at most once per Learn of its type made by then, and at most
  its activations in all;
* so the cards used by the end of slot ``i`` (`cardflow.hold_cards`) are at most the hand
  now, the cards drawn by actions and decline effects by then, every other effect's draws
  (counted from the start, as before), and these effects' draws of the activations fired by
  then.

For a real line, take each effect's activations as its activations in the line and the share
fired by the end of slot ``i`` as those fired by then: each is at most the Learns of its type
made by then, and each activation draws at most its cards (fewer into a full hand, D4), so
every line of the engine is a solution. The last slot is not written: by its end every Learn
is made.
"""

from __future__ import annotations

from solver.bounds.cpsat.cardflow import through_hand
from solver.bounds.cpsat.context import Context, LinExpr
from solver.bounds.cpsat.learntime import LearnTimes
from solver.bounds.cpsat.variables import Draws, Effects, RunningTotals, Var
from solver.engine.cards import TECH_TYPE_NAMES


def draw_on_learns(ctx: Context, effects: Effects, learned: LearnTimes, totals: RunningTotals,
                   draws: Draws, used: list[Var]) -> None:
    """The rows of the module: for every slot but the last, the cards used by its end come
    out of the draws of the Learns made by then (see the module)."""
    m, cards = ctx.model, ctx.cards
    on_learn = [(c, k, act, e.trigger.tech_type) for c, moment, k, act, e in effects.drawing
                if moment == "trigger" and e is not None and e.trigger is not None
                and e.trigger.event == "learn"]
    if not on_learn:
        return
    top = ctx.pool_size
    everything = effects.gains["draw"] + draws.elongated
    for i in range(ctx.n_slots - 1):
        of_any: LinExpr = sum(learned.of_type[k][i] for k in range(len(TECH_TYPE_NAMES)))
        late: LinExpr = 0  # the draws of the activations after slot i
        for c, k, act, kind in on_learn:
            made = (of_any if kind is None else learned.of_type[kind][i]) \
                + learned.in_decline[i]
            fired = m.new_int_var(0, top, f"learn_draws_{cards[c].code}_{i}")
            m.add(fired <= act)
            m.add(fired <= made)
            late = late + k * (act - fired)
        m.add(used[i] <= through_hand(ctx, totals, draws, i, everything - late))
