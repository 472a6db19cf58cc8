"""The CP-SAT relaxation's bound at the start of the game, per suite deal (issue 13's target:
root bound / best VP found <= 2 on the mean).

    python -m benchmarks.root_bounds [--deals 1:1,2:3,5:2] [--dtime 1.0] [--json]
    python -m benchmarks.root_bounds --lines t60.jsonl --turns 1,15,16 [--dtime 0.1]

Per deal (trial x premade hand, seed 0): the relaxation's proven bound at the root with the
root budget of a solve (`ROOT_CONFIG` with `--dtime` deterministic seconds, one worker), the
wall-clock seconds of the call (build + solve), and the model's size. `--setting` tries a
CP-SAT setting (`symmetry=2`, `linearization=1`, `presolve=1`, `probing=1`) against the same
budget. This is the bound `heritage solve ... --node-limit 1 --bound cpsat --json` prints,
before the min with the simple bound. With `--lines` (a `benchmarks.solve_table --out` file),
the bound at the start of each of `--turns` on each line instead, beside the line's VP (issue
13's target: <= 1.3 x the line's VP at turn 15); `--limit N` takes the first N lines;
`--simple` gives the simple bound (`solver.bounds.simple`) there instead of CP-SAT's.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path

from benchmarks.prove_from import given_lines
from puzzles.deal import build_setup, load_cards
from solver.bounds.cpsat.relaxation import ROOT_CONFIG, RelaxConfig, relax
from solver.bounds.cpsat.schedule import phase_of
from solver.bounds.simple import simple_upper_bound
from solver.engine.newgame import new_game

ALL = ",".join(f"{t}:{h}" for t in range(1, 7) for h in range(1, 5))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default=ALL, help="trial:hand pairs, comma-separated")
    parser.add_argument("--dtime", type=float, default=ROOT_CONFIG.max_deterministic_time)
    parser.add_argument("--setting", action="append", default=[],
                        help="a RelaxConfig field=value (e.g. symmetry=2)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--lines", type=Path, help="a solve_table --out file")
    parser.add_argument("--turns", default="15,16", help="with --lines: turn starts")
    parser.add_argument("--limit", type=int, default=None, help="with --lines: first N")
    parser.add_argument("--simple", action="store_true",
                        help="with --lines: the simple bound instead of CP-SAT's")
    args = parser.parse_args()
    cfg = replace(ROOT_CONFIG, max_deterministic_time=args.dtime)
    for s in args.setting:
        k, v = s.split("=")
        cfg = replace(cfg, **{k: type(getattr(cfg, k))(int(v))})
    if args.lines:
        turn_bounds(args.lines, [int(t) for t in args.turns.split(",")], cfg, args.limit,
                    args.simple)
        return
    book, card_sets = load_cards(["base"])
    rows = []
    for item in args.deals.split(","):
        trial, hand = (int(x) for x in item.split(":"))
        st = new_game(build_setup(book, card_sets, hand=str(hand), seed=0, trial=trial), book)
        phase = phase_of(st)
        assert phase is not None
        t0 = time.perf_counter()
        r = relax(st, phase, cfg)
        dt = time.perf_counter() - t0
        row = {"deal": f"T{trial} H{hand}", "bound": r.bound, "infeasible": r.infeasible,
               "seconds": round(dt, 2),
               "build_s": round(r.stats.get("build_s", 0.0), 2),
               "variables": int(r.stats.get("variables", 0)),
               "constraints": int(r.stats.get("constraints", 0))}
        rows.append(row)
        if not args.json:
            print(f"{row['deal']:7} bound {r.bound!s:>5}  {dt:6.2f} s  (build "
                  f"{row['build_s']:.2f} s, {row['variables']} vars, "
                  f"{row['constraints']} constraints)", flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        bounds = [r["bound"] for r in rows if isinstance(r["bound"], int)]
        if bounds:
            print(f"mean bound {sum(bounds) / len(bounds):.1f} over {len(bounds)} deals")


def turn_bounds(path: Path, turns: list[int], cfg: RelaxConfig, limit: int | None,
                simple: bool = False) -> None:
    """The bound at the start of each of `turns` on each line of `path`, and its ratio to the
    line's final VP (`simple`: the simple bound instead of the relaxation's)."""
    ratios: dict[int, list[float]] = {t: [] for t in turns}
    for name, root, line in given_lines(path)[:limit]:
        starts: dict[int, int] = {}
        st = root.clone()
        for i, a in enumerate(line):
            starts.setdefault(st.turn, i)
            st.apply(a)
        vp = st.value()
        cells = []
        for t in turns:
            if t not in starts:
                cells.append(f"t{t} -")
                continue
            pos = root.clone()
            for a in line[:starts[t]]:
                pos.apply(a)
            t0 = time.perf_counter()
            if simple:
                bound: int | None = simple_upper_bound(pos)
            else:
                phase = phase_of(pos)
                assert phase is not None
                bound = relax(pos, phase, cfg).bound
            dt = time.perf_counter() - t0
            if isinstance(bound, int):
                ratios[t].append(bound / vp)
            cells.append(f"t{t} {bound!s:>4} ({dt:4.1f} s)")
        print(f"{name:9} VP {vp:3}  " + "  ".join(cells), flush=True)
    for t in turns:
        if ratios[t]:
            print(f"turn {t}: mean bound / VP {sum(ratios[t]) / len(ratios[t]):.2f} "
                  f"over {len(ratios[t])} lines")


if __name__ == "__main__":
    main()
