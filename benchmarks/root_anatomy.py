"""Where the root relaxation's VP comes from, beside a real line of the same deal (issue 13:
what holds the root bound up).

    python -m benchmarks.root_anatomy [--deals 1:1,2:3] [--dtime 1.0]
        [--lines benchmarks/lines/session5-t60.jsonl] [--cap past.any=20 ...] [--turn 15]

Per deal (trial x premade hand, seed 0): CP-SAT's proven bound and best assignment of the root
relaxation (`ROOT_CONFIG` with `--dtime` deterministic seconds), that assignment's five score
rows (RULES.md section 7: printed VP of the Past, end-game effects, technologies, +1 per
Timeline monument, -1 per lost knowledge) and its counts (monuments created, declined and left
in the Timeline; Create and Learn actions and the Creates and Learns effects grant; effect
draws and their largest sources), and the same rows of the deal's line in `--lines` (a
``solve_table --out`` file). `--cap counter=value` adds ``counter <= value`` on the final
counters (``past.any``, ``techs.any``, ...) or on ``created`` (monuments created),
``learned``, ``draws`` (effect draws), ``moves`` (move/swap activations' gains) or
``granted`` (granted monument Creates, Poulnabrone's included) or ``effect_depth`` (builder
cards effects take off the deck, `cardflow.effect_draws`): a what-if, NOT a sound bound, that
measures how much of the bound a quantity holds up. With `--turn N`, the same at the start of
turn N of each deal's line instead of the root (`--dtime 0.1` is a node's budget there), with
the deck rows: the deepest deck position of a card the assignment creates, the cards dug by
actions and by effects, and the effect draws' largest sources; the rows "line" are then the
whole line's (its final position).

Session 7's finding at turn 15 (2 turns left) of the 24 kept lines: the bound at a node's
budget (0.1 deterministic s) is the root LP's after its cut rounds, far above the model's
optimum (mean bound / line VP 1.14 at 5.0 s, 1.61 at 0.1 s). Fixing groups of variables to
the optimum's values (6 lines, 0.1 s) closes the whole gap with the effect depth alone
(``Draws.dug_by_effects``), not with the deck dug by actions and declines; the same cap as
``--cap effect_depth=K`` on all 24 lines at 0.1 s gives 1.14 (K = 12), 1.17 (24), 1.32 (40):
the effect depth is what a sound constraint has to bind (the assignments at 5.0 s dig at
most ~12 cards by effects and create nothing deeper than position ~11).
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from typing import Any

from ortools.sat.python import cp_model

from benchmarks.prove_from import given_lines
from puzzles.deal import build_setup, load_cards
from solver.bounds.cpsat.relaxation import ROOT_CONFIG, Relaxation
from solver.bounds.cpsat.schedule import END, phase_of
from solver.bounds.cpsat.variables import Variables
from solver.engine import actions as A
from solver.engine.newgame import new_game
from solver.engine.state import GameState

LINES = Path(__file__).parent / "lines" / "session5-t60.jsonl"


def line_rows(root: GameState, line: list[int]) -> dict[str, float]:
    """The five score rows and the counts of a line's final position."""
    st = root.clone()
    acts: dict[int, int] = {}
    for a in line:
        if A.kind_of(a) == A.ACT:
            acts[a] = acts.get(a, 0) + 1
        st.apply(a)
    s = st.score()
    cards = st.book.cards
    return {"vp": float(st.value()), "past_vp": float(sum(cards[c].vp for c in st.past)),
            "endgame": float(s.total - sum(cards[c].vp for c in st.past)
                             - sum(cards[t].vp for t in st.techs)
                             - len(st.monuments()) + st.lost),
            "tech_vp": float(sum(cards[t].vp for t in st.techs)),
            "timeline": float(len(st.monuments())), "lost": float(st.lost),
            "past": float(len(st.past)), "techs": float(len(st.techs)),
            "create_actions": float(acts.get(A.ACT_CREATE, 0)),
            "learn_actions": float(acts.get(A.ACT_LEARN, 0))}


def turn_start(root: GameState, line: list[int], turn: int) -> GameState:
    """The position at the start of `turn` on a line (the root if the line starts later)."""
    st = root.clone()
    for a in line:
        if st.turn >= turn:
            break
        st.apply(a)
    return st


def _cap(r: Relaxation, v: Variables, name: str, value: int) -> None:
    """A what-if cap (see the module): not a rule of the game."""
    m = r.model
    expr: Any
    if name == "created":
        expr = v.events.monuments_created
    elif name == "learned":
        expr = sum(v.technologies.learned.values())
    elif name == "draws":
        expr = v.draws.by_effects
    elif name == "moves":
        expr = v.effects.gains["moves"]
    elif name == "granted":
        expr = v.effects.gains["create_mon"] + v.specials.poulnabrone
    elif name == "effect_depth":
        expr = v.draws.dug_by_effects
    else:
        expr = v.counters.values[name]
    m.add(expr <= value)


def anatomy(st: GameState, dtime: float, caps: list[tuple[str, int]], **cfg: Any) -> dict[str, Any]:
    """Solve the root relaxation and read its best assignment (see the module)."""
    phase = phase_of(st)
    assert phase is not None
    r = Relaxation(st, phase, replace(ROOT_CONFIG, max_deterministic_time=dtime, **cfg))
    v = r.build()
    for name, value in caps:
        _cap(r, v, name, value)
    s = cp_model.CpSolver()
    p = s.parameters
    p.num_workers, p.random_seed, p.max_deterministic_time = 1, 0, dtime
    p.cp_model_presolve, p.linearization_level = False, ROOT_CONFIG.linearization
    p.symmetry_level = ROOT_CONFIG.symmetry
    code = s.solve(r.model)
    out: dict[str, Any] = {"bound": s.best_objective_bound, "status": s.status_name(code)}
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return out

    def val(e: Any) -> int:
        return e if isinstance(e, int) else int(s.value(e))

    cards, mons, techs = st.book.cards, v.monuments, v.technologies
    past = [c for c in mons.cards if val(mons.in_past[c])]
    learned = [t for t in techs.learnable if val(techs.learned[t])]
    timeline = sum(val(mons.at_end[c]) for c in mons.cards)
    lost = val(v.counters.values["lost"])
    past_vp = sum(cards[c].vp for c in past) + sum(cards[c].vp for c in st.past)
    tech_vp = sum(cards[t].vp for t in learned) + sum(cards[t].vp for t in st.techs)
    vp = s.objective_value
    made = [c for c in mons.new if any(val(x) for x in mons.fate[c].values())] + [
        a for a in v.artifacts.new if val(v.artifacts.first_created[a])]
    deepest = max((r.reach.positions[c] for c in made), default=-1)
    draws = sorted(((k * val(a), cards[c].code if c >= 0 else "chest", moment)
                    for c, moment, k, a, _ in v.effects.drawing if val(a)), reverse=True)
    learns = sorted(((k * val(a), cards[c].code if c >= 0 else "chest", moment)
                     for c, moment, k, a in v.effects.learning if val(a)), reverse=True)
    out.update({
        "vp": vp, "past_vp": past_vp, "tech_vp": tech_vp, "timeline": timeline, "lost": lost,
        "endgame": vp - past_vp - tech_vp - timeline + lost,
        "past": len(past) + len(st.past), "techs": len(learned) + len(st.techs),
        "created": val(v.events.monuments_created),
        "artifacts": val(v.artifacts.created_total),
        "create_actions": sum(val(x) for x in v.turns.creates),
        "learn_actions": sum(val(x) for x in v.turns.learns),
        "granted_creates": val(v.effects.gains["create_mon"]),
        "poulnabrone": val(v.specials.poulnabrone),
        "granted_learns": val(v.effects.gains["learn"]),
        "effect_draws": val(v.draws.by_effects), "moves": val(v.effects.gains["moves"]),
        "declines": [sum(val(x) for c in mons.cards for f, x in mons.fate[c].items()
                         if f != END and f[1] == j) for j in range(r.context.n_slots)],
        "top_draws": draws[:5], "top_learns": learns[:5],
        "deepest": deepest, "dug_by_actions": val(v.totals.dug[-1]),
        "effect_depth": val(v.draws.dug_by_effects),
    })
    return out


ROWS = ("vp", "past_vp", "endgame", "tech_vp", "timeline", "lost", "past", "techs",
        "create_actions", "learn_actions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default=",".join(f"{t}:{h}" for t in range(1, 7)
                                                    for h in range(1, 5)),
                        help="trial:hand pairs, comma-separated (default: the 24 suite deals)")
    parser.add_argument("--dtime", type=float, default=ROOT_CONFIG.max_deterministic_time)
    parser.add_argument("--lines", type=Path, default=LINES)
    parser.add_argument("--cap", action="append", default=[], help="counter=value (what-if)")
    parser.add_argument("--turn", type=int, default=None,
                        help="at the start of this turn of each deal's line (not the root)")
    args = parser.parse_args()
    caps = [(c.split("=")[0], int(c.split("=")[1])) for c in args.cap]
    lines = {name: (root, line) for name, root, line in given_lines(args.lines)} \
        if args.lines.exists() else {}
    book, card_sets = load_cards(["base"])
    sums: dict[str, list[float]] = {}
    for item in args.deals.split(","):
        trial, hand = (int(x) for x in item.split(":"))
        st = new_game(build_setup(book, card_sets, hand=str(hand), seed=0, trial=trial), book)
        real = lines.get(f"t{trial}-h{hand}-s0")
        if args.turn is not None:
            if real is None:
                continue
            st = turn_start(*real, args.turn)
        a = anatomy(st, args.dtime, caps)
        print(f"T{trial} H{hand}: bound {a['bound']:.0f} ({a['status']})")
        r = line_rows(*real) if real else {}
        sums.setdefault("bound", []).append(a["bound"])
        if "vp" in a:
            for k in ROWS:
                sums.setdefault(k, []).append(a[k])
                if k in r:
                    sums.setdefault(f"line {k}", []).append(r[k])
            print("  " + "  ".join(f"{k} {a[k]:.0f}/{r[k]:.0f}" if k in r else f"{k} {a[k]:.0f}"
                                   for k in ROWS) + "   (model/line)")
            print("  " + "  ".join(f"{k} {a[k]}" for k in (
                "created", "artifacts", "granted_creates", "poulnabrone", "granted_learns",
                "effect_draws", "moves")))
            print(f"  declines per turn {a['declines']}")
            print(f"  deepest deck position created {a['deepest']} (deck {len(st.deck)}), "
                  f"dug by actions {a['dug_by_actions']}, by effects {a['effect_depth']}")
            print(f"  most draws (cards x activations) {a['top_draws']}")
            print(f"  most granted Learns {a['top_learns']}")
    print("mean: " + "  ".join(f"{k} {sum(x) / len(x):.1f}" for k, x in sums.items()))


if __name__ == "__main__":
    main()
