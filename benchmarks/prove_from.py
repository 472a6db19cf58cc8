"""From which turn can the solve prove a line's continuation optimal within a budget?

    python -m benchmarks.prove_from [--time-limit 60] [--bound cpsat]
        [--instances 1:1,2:3,5:2 | --suite [--subset core6]] [--from-turn 16] [--down-to 14]
        [--workers 2] [--policy node=0.3 --policy budget=10 ...]

For each trial:hand instance (seed 0), or each deal of the bench suite, a line is found with
NRPA (`--nrpa-nodes` decisions, deterministic); then, for turn T = `--from-turn`, T - 1, ...
down to `--down-to`, the position at the start of turn T on that line is solved (exact search
first with the whole budget, the line's continuation as the incumbent) until a turn is not
proven OPTIMAL. Per line: the earliest turn proven; at the end, the lower median of those (a
line never proven ranks last), and how many lines were proven from the start of the last turn
and of the turn before it. `--policy FIELD=VALUE` sets a field of the cpsat bound's
`BoundPolicy` (a budget such as `node` in deterministic seconds; `none` for a field
that may be None), for experiments without a rebuild.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.suite import load_suite  # noqa: E402
from puzzles.deal import build_setup, load_cards  # noqa: E402
from puzzles.lines import actions_of_format  # noqa: E402
from solver.bounds.cpsat.bound import BoundPolicy  # noqa: E402
from solver.bounds.cpsat.relaxation import RelaxConfig  # noqa: E402
from solver.engine.newgame import new_game  # noqa: E402
from solver.engine.setup import turns_for  # noqa: E402
from solver.engine.state import GameState  # noqa: E402
from solver.game import HeritageGame  # noqa: E402
from solver.search.nrpa import NRPA, NRPAConfig  # noqa: E402
from solver.search.status import Status  # noqa: E402
from solver.solve import SolveConfig, solve  # noqa: E402


def roots(args: argparse.Namespace) -> list[tuple[str, GameState]]:
    """The instances to measure: (name, root position)."""
    if args.suite:
        return [(i.id, i.root()) for i in load_suite().select(args.subset)
                if i.kind == "deal"]
    book, card_sets = load_cards(["base"])
    out = []
    for item in args.instances.split(","):
        trial, hand = item.split(":")
        setup = build_setup(book, card_sets, hand=hand, seed=0, trial=int(trial))
        out.append((f"t{trial}-h{hand}-s0", new_game(setup, book)))
    return out


def given_lines(path: Path) -> list[tuple[str, GameState, list[int]]]:
    """The goal-meeting lines of a ``solve_table --out`` file: (deal id, root, line); a row
    without ``line_format`` was written before format 3 (`puzzles.lines.actions_of_format`)."""
    book, card_sets = load_cards(["base"])
    out = []
    for text in path.read_text(encoding="utf-8").splitlines():
        if not text.strip():
            continue
        row = json.loads(text)
        if not row.get("line"):
            continue
        setup = build_setup(book, card_sets, hand=str(row["hand"]), seed=int(row["seed"]),
                            trial=int(row["trial"]))
        root = new_game(setup, book)
        line = actions_of_format(root, [int(a) for a in row["line"]],
                                 int(row.get("line_format", 2)))
        out.append((str(row["deal"]), root, line))
    return out


def prove_line(name: str, root: GameState, args: argparse.Namespace,
               given: list[int] | None = None) -> dict[str, object]:
    """The earliest turn from whose start the line's continuation is proven optimal. The line
    is `given` (a solve's line, from ``--lines``) or found by NRPA with ``--nrpa-nodes``."""
    if given is not None:
        line = given
    else:
        inc = NRPA(root, NRPAConfig(max_nodes=args.nrpa_nodes), game=HeritageGame()).run()
        line = inc.line if inc.found else inc.failed_line  # a line missing a goal is proven too
    starts: dict[int, int] = {}
    st = root.clone()
    for i, a in enumerate(line):
        starts.setdefault(st.turn, i)
        st.apply(a)
    line_vp = (st.value() if st.feasible() else None) if st.is_terminal() else None
    last = turns_for(root.setup.time_space)
    earliest = None
    rows = []
    for turn in range(min(args.from_turn, last), args.down_to - 1, -1):
        if turn not in starts:
            continue
        pos = root.clone()
        for a in line[:starts[turn]]:
            pos.apply(a)
        t0 = time.monotonic()
        res = solve(pos, SolveConfig(time_limit=None if args.node_limit else args.time_limit,
                                     node_limit=args.node_limit,
                                     exact_first_phases=99, exact_first_share=1.0,
                                     bound=args.bound, workers=args.workers,
                                     bound_policy=args.policy),
                    incumbent=line[starts[turn]:])
        dt = time.monotonic() - t0
        rows.append({"turn": turn, "status": res.status.value, "vp": res.value,
                     "nodes": res.nodes, "seconds": round(dt, 1)})
        print(f"{name}: from turn {turn:2}: {res.status.value:<8} VP {res.value} "
              f"(line {line_vp}) nodes {res.nodes:,} {dt:.1f} s", flush=True)
        if res.status not in (Status.OPTIMAL, Status.INFEASIBLE):
            break
        earliest = turn
    print(f"{name}: earliest turn proven optimal within {budget(args)}: {earliest}", flush=True)
    return {"instance": name, "line_vp": line_vp, "earliest": earliest, "last_turn": last,
            "rows": rows}


def whole(text: str, least: int) -> int:
    """`text` as a whole number of at least `least` (argparse reports anything else)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if n < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}, got {n}")
    return n


def positive(text: str) -> int:
    """A node budget: a whole number of at least 1."""
    return whole(text, 1)


def policy_of(items: list[str]) -> BoundPolicy:
    """`BoundPolicy()` with each ``FIELD=VALUE`` of `items` set: a `RelaxConfig` field (`root`,
    `near_root`, `node`) takes its deterministic seconds; ``none`` sets a field whose default
    is None (`calls`); other values take the default's type.

    :raises ValueError: an unknown field or a value of the wrong kind (named)."""
    policy = defaults = BoundPolicy()
    known = [f.name for f in fields(BoundPolicy)]
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or name not in known:
            raise ValueError(f"--policy {item!r}: expected FIELD=VALUE with FIELD one of "
                             f"{', '.join(known)}")
        old = getattr(policy, name)
        may_be_none = getattr(defaults, name) is None
        value: Any
        try:
            if isinstance(old, RelaxConfig):
                value = replace(old, max_deterministic_time=float(text))
            elif text.lower() == "none" and may_be_none:
                value = None
            elif isinstance(old, float):
                value = float(text)
            else:  # an int field, or `calls` (a count whose default is None)
                value = int(text)
        except ValueError:
            raise ValueError(f"--policy {item!r}: {text!r} is not a value for {name}") from None
        changes: dict[str, Any] = {name: value}
        policy = replace(policy, **changes)
    return policy


def budget(args: argparse.Namespace) -> str:
    """The budget of one position's search, in words."""
    return f"{args.node_limit:,} nodes" if args.node_limit else f"{args.time_limit:g} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--node-limit", type=positive, default=None,
                        help="a node budget a position instead of the time limit: the same "
                             "answer on every machine (with --bound simple; CP-SAT calls are "
                             "deterministic too, but slow the run)")
    parser.add_argument("--instances", default="1:1,2:3,5:2")
    parser.add_argument("--suite", action="store_true", help="the bench suite's deals instead")
    parser.add_argument("--subset", default=None, help="a subset of the suite (with --suite)")
    parser.add_argument("--nrpa-nodes", type=int, default=100_000)
    parser.add_argument("--bound", choices=("simple", "cpsat"), default="cpsat")
    parser.add_argument("--workers", type=positive, default=1,
                        help="processes of the exact search (with --time-limit)")
    parser.add_argument("--from-turn", type=int, default=16)
    parser.add_argument("--down-to", type=int, default=1)
    parser.add_argument("--json", type=Path, help="write the per-line results here")
    parser.add_argument("--lines", type=Path,
                        help="prove the lines of a `benchmarks.solve_table --out` file (its "
                             "goal-meeting lines; deals it did not win are skipped)")
    parser.add_argument("--deals", default=None,
                        help="with --lines: only these deal ids (comma-separated, e.g. t2-h2-s0)")
    parser.add_argument("--policy", action="append", default=[], metavar="FIELD=VALUE",
                        help="with --bound cpsat: a BoundPolicy field (e.g. node=0.3, "
                             "budget=10); repeat for more")
    args = parser.parse_args(argv)
    if args.policy and args.bound != "cpsat":
        parser.error("--policy: only with --bound cpsat")
    try:
        args.policy = policy_of(args.policy) if args.policy else None
    except ValueError as e:
        parser.error(str(e))
    if args.lines:
        wanted = set(args.deals.split(",")) if args.deals else None
        lines = given_lines(args.lines)
        unknown = sorted((wanted or set()) - {name for name, _, _ in lines})
        if unknown:
            parser.error(f"--deals: no line for {', '.join(unknown)} in {args.lines} "
                         f"(deal ids look like t2-h2-s0)")
        results = [prove_line(name, root, args, line) for name, root, line in lines
                   if wanted is None or name in wanted]
    else:
        results = [prove_line(name, root, args) for name, root in roots(args)]
    n = len(results)
    if not n:
        return 0
    earliest = [r["earliest"] for r in results]
    last = [r["last_turn"] for r in results]
    never = 99  # a line proven from no turn ranks after every turn
    turns = [e if isinstance(e, int) else never for e in earliest]
    lasts = [t if isinstance(t, int) else never for t in last]
    # the lower median: at least half the lines are proven from this turn on (the mean of two
    # middle ranks would report a turn no line has, 57 between 15 and "never")
    median = statistics.median_low(turns)
    last_ok = sum(1 for e, t in zip(turns, lasts, strict=True) if e <= t)
    before_ok = sum(1 for e, t in zip(turns, lasts, strict=True) if e <= t - 1)
    print(f"lines: {n}; proven from the start of the last turn: {last_ok}/{n} "
          f"({100 * last_ok / n:.0f}%); from the turn before: {before_ok}/{n} "
          f"({100 * before_ok / n:.0f}%); median earliest turn proven: "
          f"{'none' if median == never else median} ({args.bound} bound, "
          f"{budget(args)} a position)")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
