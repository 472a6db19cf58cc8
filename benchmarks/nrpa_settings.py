"""NRPA's level and iterations at a solve's real budget: VP by decisions played, per setting.

    python -m benchmarks.nrpa_settings [--nodes 4000000] [--settings 2x30,2x60,2x30-60]
                                       [--deals t1-h1,t2-h3] [--seed 0] [--checkpoints 1,2,3.5]
                                       [--json] [--out FILE.jsonl]

Each run is NRPA alone (`solver.search.nrpa`, one process, the solve's hooks without a bound
plan: `solver.game.HeritageGame`) from a deal's start, with a node limit (decisions played), so
the figures do not depend on the machine or its load. A setting ``LxI`` is level ``L`` with
``I`` iterations per level; ``LxF-I`` runs ``F`` iterations in the restarts that begin before
any goal-meeting line is known (`NRPAConfig.first_iterations`) and ``I`` after. A run's history
of improvements gives the VP it had at each checkpoint (millions of decisions) too: a run cut at
a checkpoint is the prefix of the full run (the node limit is checked after each playout).

The table: per setting, the mean VP over the deals at each checkpoint (``(kx)``: k deals with no
goal-meeting line yet, left out of the mean), then per deal the final VP of each setting. A 60 s
`heritage solve` with 2 workers gives each worker about 3.5M decisions (compiled build).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.solve_table import select_deals  # noqa: E402
from benchmarks.suite import Instance  # noqa: E402
from solver.game import HeritageGame  # noqa: E402
from solver.search.nrpa import NRPA, Incumbent, NRPAConfig  # noqa: E402

SETTING = re.compile(r"(\d+)x(?:(\d+)-)?(\d+)")


@dataclass(frozen=True)
class Setting:
    """NRPA's level, iterations and the hunting restarts' iterations (None: the same)."""

    level: int
    iterations: int
    first_iterations: int | None = None

    @property
    def name(self) -> str:
        first = "" if self.first_iterations is None else f"{self.first_iterations}-"
        return f"{self.level}x{first}{self.iterations}"


def parse_settings(text: str) -> list[Setting]:
    """``2x30,2x30-60`` as settings.

    :raises ValueError: an item that is not ``LxI`` or ``LxF-I`` with positive numbers."""
    out = []
    for item in text.split(","):
        m = SETTING.fullmatch(item.strip())
        if m is None or int(m[1]) < 1 or int(m[3]) < 1 or (m[2] is not None and int(m[2]) < 1):
            raise ValueError(f"--settings: {item!r} is not LEVELxITERATIONS or "
                             f"LEVELxFIRST-ITERATIONS with positive numbers, e.g. 2x30-60")
        out.append(Setting(int(m[1]), int(m[3]), None if m[2] is None else int(m[2])))
    return out


def run(inst: Instance, setting: Setting, nodes: int, seed: int) -> dict[str, Any]:
    """One NRPA run on the deal `inst`: its final VP and its history of improvements."""
    history: list[tuple[int, float]] = []

    def improve(inc: Incumbent) -> None:
        if inc.found and (not history or inc.value > history[-1][1]):
            history.append((inc.nodes, inc.value))

    cfg = NRPAConfig(level=setting.level, iterations=setting.iterations,
                     first_iterations=setting.first_iterations, max_nodes=nodes, seed=seed)
    inc = NRPA(inst.root(), cfg, on_improve=improve, game=HeritageGame()).run()
    return {"deal": inst.id, "setting": setting.name, "seed": seed, "nodes": inc.nodes,
            "playouts": inc.playouts, "vp": inc.value if inc.found else None,
            "history": history}


def vp_at(row: dict[str, Any], nodes: float) -> float | None:
    """The best VP the run `row` had after `nodes` decisions (None: no goal-meeting line)."""
    value = None
    for n, v in row["history"]:
        if n <= nodes:
            value = v
    return value


def table(rows: Sequence[dict[str, Any]], checkpoints: Sequence[float]) -> str:
    """The mean VP per setting at each checkpoint, then each deal's final VP per setting."""
    settings = list(dict.fromkeys(r["setting"] for r in rows))
    deals = list(dict.fromkeys(r["deal"] for r in rows))
    by = {(r["setting"], r["deal"]): r for r in rows}
    lines = ["setting   " + "".join(f"{c:>12g}M" for c in checkpoints)]
    for s in settings:
        cells = []
        for c in checkpoints:
            got = [vp_at(by[s, d], c * 1e6) for d in deals if (s, d) in by]
            vals = [v for v in got if v is not None]
            miss = len(got) - len(vals)
            mean = f"{sum(vals) / len(vals):.1f}" if vals else "-"
            cells.append(f"{mean + (f' ({miss}x)' if miss else ''):>13}")
        lines.append(f"{s:<10}" + "".join(cells))
    lines.append("")
    lines.append("deal      " + "".join(f"{s:>10}" for s in settings))
    for d in deals:
        cells = []
        for s in settings:
            v = by[s, d]["vp"] if (s, d) in by else None
            cells.append(f"{'-' if v is None else f'{v:g}':>10}")
        lines.append(f"{d:<10}" + "".join(cells))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.nrpa_settings",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=4_000_000,
                        help="decisions per run (default 4M: a 60 s solve's worker)")
    parser.add_argument("--settings", default="2x30,2x60,2x30-60",
                        help="LEVELxITERATIONS or LEVELxFIRST-ITERATIONS, comma separated")
    parser.add_argument("--deals", default=None, help="deal ids, e.g. t1-h1,t2-h3 "
                        "(default: trials 1-6 x --hands)")
    parser.add_argument("--hands", default="1,3", help="premade hands (default 1,3)")
    parser.add_argument("--seed", type=int, default=0, help="NRPA seed (the deals: seed 0)")
    parser.add_argument("--checkpoints", default="0.5,1,2,3.5",
                        help="millions of decisions at which the mean VP is read")
    parser.add_argument("--json", action="store_true", help="print one JSON object per run")
    parser.add_argument("--out", type=Path, default=None, help="append the runs as JSON lines")
    args = parser.parse_args(argv)
    try:
        settings = parse_settings(args.settings)
        deals = select_deals(args.deals, "1,2,3,4,5,6", args.hands, seed=0)
    except ValueError as exc:
        parser.error(str(exc))
    try:
        checkpoints = [float(c) for c in args.checkpoints.split(",")]
    except ValueError:
        parser.error(f"--checkpoints: {args.checkpoints!r} is not a comma-separated list of "
                     f"numbers (millions of decisions), e.g. 0.5,1,2")
    if args.nodes < 1:
        parser.error(f"--nodes must be at least 1, got {args.nodes}")
    rows = []
    for setting in settings:
        for inst in deals:
            row = run(inst, setting, args.nodes, args.seed)
            rows.append(row)
            if args.json:
                print(json.dumps(row), flush=True)
            if args.out is not None:
                with args.out.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(row) + "\n")
    if not args.json:
        print(table(rows, list(dict.fromkeys([*checkpoints, args.nodes / 1e6]))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
