"""Effects that need a Past count fire only in turns where the Past has reached it (the last
clause of relaxation 5, `solver.bounds.cpsat.effects`).

The count in a turn is the monuments in the Past now plus those declined in earlier decline
phases (RULES.md section 4C: the Timeline phase and every Create of a turn come before its
decline phase). Timeline effects: one activation per such turn (`gate_timeline_effects`).
Poulnabrone Dolmen (M36): one extra Create per Create action of such a turn, or per granted
Create once it holds (`poulnabrone_turns`). A Timeline effect that needs lost knowledge fires
in the game's last Timeline phase only on the lost knowledge still there (`gate_last_lost`).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.bounds.cpsat.context import KIND_KEYS, Context, LinExpr
from solver.bounds.cpsat.facts import is_monotone
from solver.bounds.cpsat.schedule import END
from solver.bounds.cpsat.variables import Effects, Monuments, Specials, TurnActions, Var
from solver.engine.cards import MONUMENT_KINDS, Clause


@dataclass(frozen=True)
class PastByTurn:
    """Per slot, the Past counts its action and Timeline phases see (``past.any`` always,
    ``past.<type>`` when a Timeline effect's condition reads it)."""

    counts: dict[str, list[LinExpr]]

    def holds_by(self, ctx: Context, name: str, clauses: list[Clause]) -> list[Var]:
        """Per slot with a Timeline phase or actions, a literal that forces `clauses` on the
        Past counts of that slot."""
        m = ctx.model
        out = []
        for i, sl in enumerate(ctx.slots):
            if not sl.timeline and not sl.actions:
                continue
            h = m.new_bool_var(f"holds_{name}_{i}")
            for cl in clauses:
                m.add(self.counts[cl.counter][i] >= cl.value).only_enforce_if(h)
            out.append((i, h))
        return [h for _, h in out]


def past_by_turn(ctx: Context, monuments: Monuments, effects: Effects,
                 declined_by: list[Var]) -> PastByTurn:
    """The Past counts per slot: those of now plus every decline of the earlier slots
    (running totals per monument type only for the types a Timeline condition reads)."""
    st, cards, n = ctx.state, ctx.cards, ctx.n_slots
    counts: dict[str, list[LinExpr]] = {"past.any": [len(st.past)] + [
        len(st.past) + declined_by[i] for i in range(n - 1)]}
    wanted = {cl.counter for _, e, _ in effects.timed for cl in e.condition}
    for k, name in zip(MONUMENT_KINDS, KIND_KEYS, strict=True):
        key = f"past.{name}"
        if key not in wanted:
            continue
        per: list[LinExpr] = [0] * n
        for c in monuments.cards:
            if cards[c].kind == k:
                for fate, v in monuments.fate[c].items():
                    if fate != END:
                        per[fate[1]] = per[fate[1]] + v
        cum = ctx.running_totals(per, f"declined_{name}_by", 10**4)
        counts[key] = [st.count_past(k)] + [st.count_past(k) + cum[i] for i in range(n - 1)]
    return PastByTurn(counts)


def gate_timeline_effects(ctx: Context, effects: Effects, past: PastByTurn) -> None:
    """A Timeline effect whose condition needs a Past count fires at most once per Timeline
    phase of a turn where that count is reached (RULES.md section 4B)."""
    slots = ctx.slots
    for act, e, name in effects.timed:
        clauses = [cl for cl in e.condition if is_monotone(cl) and cl.counter in past.counts]
        if clauses:
            hs = [h for (i, sl), h in zip(
                [(i, sl) for i, sl in enumerate(slots) if sl.timeline or sl.actions],
                past.holds_by(ctx, name, clauses), strict=True) if sl.timeline]
            ctx.model.add(act <= sum(hs))


@dataclass(frozen=True)
class PoulnabroneTurns:
    """Poulnabrone's extra Creates per slot (`slots`: the slots with actions or a Timeline
    phase; `per_slot`: one count each) and those of granted Creates (`granted`)."""

    slots: list[int]
    per_slot: list[Var]
    granted: Var


def poulnabrone_turns(ctx: Context, specials: Specials, turns: TurnActions,
                      effects: Effects, past: PastByTurn) -> PoulnabroneTurns | None:
    """Poulnabrone Dolmen (M36): its extra Creates need 11 or more monuments in the Past: at
    most 2 per turn where that holds (one per Create action), plus the granted Creates once it
    holds."""
    if not specials.poulnabrone_creates:
        return None
    m, slots, top = ctx.model, ctx.slots, ctx.actions_left + 60
    eleven = Clause("past.any", ">=", 11)
    hs = past.holds_by(ctx, "poulnabrone", [eleven])
    act_slots = [i for i, sl in enumerate(slots) if sl.timeline or sl.actions]
    per_slot = []
    for i, h in zip(act_slots, hs, strict=True):
        q = m.new_int_var(0, 2, f"poulnabrone_{i}")
        m.add(q <= turns.creates[i])
        m.add(q <= 2 * h)
        per_slot.append(q)
    rest = m.new_int_var(0, top, "poulnabrone_granted")
    m.add(rest <= effects.gains["create_mon"])
    m.add(rest <= top * hs[-1] if hs else rest == 0)
    m.add(sum(per_slot) + rest >= specials.poulnabrone)
    return PoulnabroneTurns(slots=act_slots, per_slot=per_slot, granted=rest)


def gate_last_lost(ctx: Context, effects: Effects, lost_final: LinExpr) -> None:
    """A Timeline effect that needs at least N lost knowledge fires in the game's last
    Timeline phase only if N <= the final lost knowledge plus what effects other than decline
    effects can still remove.

    RULES.md section 4C and D8: the last turn's decline phase ends the game at its step 1, so
    no monument declines after that Timeline phase and no knowledge becomes lost; lost
    knowledge only goes down from there, by the effects that fire in or after that phase
    (every decline effect fired before it). One activation per Timeline phase (section 4B):
    so at most one of the effect's activations is in the last phase."""
    slots, m = ctx.slots, ctx.model
    if not slots or not slots[-1].timeline or not slots[-1].ends:
        return
    phases = ctx.schedule.timeline_phases
    for act, e, name in effects.timed:
        need = max((cl.value for cl in e.condition
                    if cl.counter == "lost" and cl.op == ">="), default=0)
        if need <= 0:
            continue
        last = m.new_bool_var(f"last_phase_{name}")
        m.add(act <= phases - 1 + last)
        m.add(lost_final + effects.late_lost >= need).only_enforce_if(last)
