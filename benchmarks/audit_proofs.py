"""Audit the solver's proofs near the end of a game against a search that trusts nothing.

    python -m benchmarks.audit_proofs [--lines FILE.jsonl] [--deals t1-h1-s1,t2-hdraw-s2]
        [--from-turn 16] [--walks 2] [--plain-nodes 300000] [--nrpa-nodes 100000]
        [--walk-seed 0] [--turn-starts] [--only t1-h1-s0] [--parallel SECONDS] [--json]

Every OPTIMAL or INFEASIBLE the solver prints rests on its bounds (the simple bound, the CP-SAT
relaxation), on the dominance rules and on the search key that merges positions. Each is
argued and tested on generated positions; this audit checks them together on positions of
real games. The positions: every decision of a line from the start of turn `--from-turn` on
(`--turn-starts`: only each turn's start), and `--walks` random walks of 1-6 decisions off the
line from each of those turns' starts (deterministic: `--walk-seed`). The lines: a
``solve_table --out`` file (`--lines`), or NRPA lines found on the named deals (`--nrpa-nodes`
decisions; a line missing a goal is used too: its positions test INFEASIBLE).

At each position the plain exhaustive search (`solver.search.protocol.PlainGame`: no bound,
the engine's exact key, no dominance, no move ordering) gives the optimum when it completes
within `--plain-nodes`; the position is skipped otherwise. Then, against that optimum:

- the simple bound, and the CP-SAT relaxation at a phase boundary asked directly (not through
  the solve's min with the simple bound, which would hide it), must not be below it, and the
  relaxation must not say INFEASIBLE where a goal-meeting line exists;
- ``solve`` with each bound (exact search first, `--plain-nodes` nodes) must report the
  optimum when it says OPTIMAL, INFEASIBLE only where no goal-meeting line exists, and never
  a line above the optimum;
- with ``--parallel SECONDS``, the same checks of ``solve`` with each bound in two processes
  under a time limit (`solver.search.parallel`: the tree cut at a frontier, one transposition
  table a process for the subtrees it takes, the best value shared; a node limit keeps a solve
  in one process, so the checks above never reach it). Its rows' claims depend on timing.

One row per position (``--json``: JSON lines), then a summary. Exit 0 when every check held, 1
when one failed (its row says which), 2 bad input. Deterministic: node budgets and seeds only
(each row's ``plain_seconds``, the plain search's wall time, is the one figure that varies).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.prove_from import given_lines, positive, whole  # noqa: E402
from benchmarks.solve_table import select_deals  # noqa: E402
from benchmarks.suite import Instance  # noqa: E402
from solver.bounds.bound import make_bound  # noqa: E402
from solver.bounds.cpsat.relaxation import Relaxation, RelaxConfig  # noqa: E402
from solver.bounds.cpsat.resources import UnsupportedCardError  # noqa: E402
from solver.bounds.cpsat.schedule import phase_of  # noqa: E402
from solver.engine.state import GameState  # noqa: E402
from solver.game import HeritageGame  # noqa: E402
from solver.rng import Stream  # noqa: E402
from solver.search.exhaustive import SearchConfig, search  # noqa: E402
from solver.search.nrpa import NRPA, NRPAConfig  # noqa: E402
from solver.search.protocol import PlainGame  # noqa: E402
from solver.search.status import Status  # noqa: E402
from solver.solve import SolveConfig, solve  # noqa: E402

#: CP-SAT's budget when the relaxation is asked directly (deterministic time, seconds)
RELAX = RelaxConfig(max_deterministic_time=0.5)
BOUNDS = ("simple", "cpsat")


def file_lines(path: Path, only: set[str] | None = None,
               ) -> list[tuple[str, GameState, list[int]]]:
    """The lines of a ``solve_table --out`` file (`prove_from.given_lines`): (deal id, root,
    line); `only`: of these deals alone."""
    return [item for item in given_lines(path) if only is None or item[0] in only]


def nrpa_lines(deals: Sequence[Instance], nodes: int,
               ) -> Iterator[tuple[str, GameState, list[int]]]:
    """NRPA's line on each deal (goal-meeting, else the best that misses a goal)."""
    for inst in deals:
        root = inst.root()
        inc = NRPA(root, NRPAConfig(max_nodes=nodes), game=HeritageGame()).run()
        yield inst.id, root, list(inc.line if inc.found else inc.failed_line)


def positions(root: GameState, line: Sequence[int], from_turn: int, walks: int,
              rng: Stream, starts_only: bool = False) -> Iterator[tuple[str, GameState]]:
    """(label, position): each decision of `line` from turn `from_turn` on (`starts_only`:
    each turn's start alone), then `walks` random walks of 1-6 decisions from each of those
    turns' starts on the line."""
    st = root.clone()
    starts: list[tuple[int, GameState]] = []  # (decision index, position) of each turn's start
    turn = -1
    for i, action in enumerate(line):
        if st.is_terminal():
            break
        if st.turn >= from_turn:
            start = st.turn != turn
            if start:
                starts.append((i, st.clone()))
                turn = st.turn
            if start or not starts_only:
                yield f"cut {i}", st.clone()
        st.apply(action)
    for i, at in starts:
        for w in range(walks):
            pos = at.clone()
            for _ in range(1 + rng.below(6)):
                if pos.is_terminal():
                    break
                legal = pos.legal_actions()
                pos.apply(legal[rng.below(len(legal))])
            yield f"walk {i}.{w}", pos


def solve_configs(plain_nodes: int, parallel: float | None,
                  ) -> list[tuple[str, str, SolveConfig]]:
    """(row key, bound, config) of each solve the audit checks: every bound on a node budget
    in one process, then (`parallel` seconds) in two processes under a time limit."""
    out = [(f"solve_{kind}", kind, SolveConfig(node_limit=plain_nodes, exact_first_phases=99,
                                               exact_first_share=1.0, bound=kind, workers=1))
           for kind in BOUNDS]
    if parallel is not None:
        out += [(f"solve_{kind}_w2", kind, SolveConfig(
            time_limit=parallel, node_limit=None, exact_first_phases=99, exact_first_share=1.0,
            bound=kind, workers=2)) for kind in BOUNDS]
    return out


def audit(pos: GameState, plain_nodes: int,
          parallel: float | None = None) -> dict[str, Any] | None:
    """The checks of the module at one position; None when the plain search did not complete.
    The row's ``bad`` lists the checks that failed."""
    t0 = time.monotonic()
    plain = search(pos, SearchConfig(max_nodes=plain_nodes), None, None, PlainGame())
    if plain.status not in (Status.OPTIMAL, Status.INFEASIBLE):
        return None
    truth = plain.value  # None: no goal-meeting line from here
    row: dict[str, Any] = {"turn": pos.turn, "optimum": truth, "plain_nodes": plain.nodes,
                           "plain_seconds": round(time.monotonic() - t0, 2)}
    bad: list[str] = []
    for kind in BOUNDS:
        b = make_bound(kind).upper_bound(pos)
        row[f"bound_{kind}"] = None if math.isinf(b) else b  # None: no goal-meeting line
        if truth is not None and b < truth:
            bad.append(f"the {kind} bound {b} is below the optimum {truth}")
    phase = phase_of(pos)
    if phase is not None:
        try:
            r = Relaxation(pos, phase, RELAX).solve()
        except UnsupportedCardError as error:
            row["relaxation"] = f"not asked: {error}"
        else:
            row["relaxation"] = "INFEASIBLE" if r.infeasible else r.bound
            if truth is not None and r.infeasible:
                bad.append(f"the relaxation says INFEASIBLE; the optimum is {truth}")
            elif truth is not None and r.bound is not None and r.bound < truth:
                bad.append(f"the relaxation's bound {r.bound} is below the optimum {truth}")
    for key, kind, cfg in solve_configs(plain_nodes, parallel):
        res = solve(pos, cfg)
        row[key] = [res.status.value, res.value]
        how = f"--bound {kind}" + (" --workers 2" if cfg.workers > 1 else "")
        if res.status == Status.OPTIMAL and res.value != truth:
            bad.append(f"solve {how}: OPTIMAL {res.value}, the optimum is {truth}")
        elif res.status == Status.INFEASIBLE and truth is not None:
            bad.append(f"solve {how}: INFEASIBLE, the optimum is {truth}")
        elif res.value is not None and (truth is None or res.value > truth):
            bad.append(f"solve {how}: a goal-meeting line of {res.value}, the optimum is {truth}")
    row["bad"] = bad
    return row


def seconds(text: str) -> float:
    """`--parallel`: a number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"expected seconds above 0 and at most 3600, got {text}")
    return value


def walks(text: str) -> int:
    """`--walks`: a whole number of at least 0."""
    return whole(text, 0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=Path, default=None,
                        help="a solve_table --out file: its lines are audited")
    parser.add_argument("--deals", default=None,
                        help="deal ids (t1-h1-s1,t2-hdraw-s2,...: hdraw is draw 10, keep 6): "
                             "NRPA lines on these are audited")
    parser.add_argument("--from-turn", type=positive, default=16)
    parser.add_argument("--walks", type=walks, default=2,
                        help="random walks off the line from each turn start (0 or more)")
    parser.add_argument("--walk-seed", type=int, default=0)
    parser.add_argument("--plain-nodes", type=positive, default=300_000)
    parser.add_argument("--nrpa-nodes", type=positive, default=100_000)
    parser.add_argument("--turn-starts", action="store_true",
                        help="of the line, only the positions at the turns' starts")
    parser.add_argument("--only", default=None,
                        help="with --lines: only these deals of the file (t1-h1-s0,...)")
    parser.add_argument("--parallel", type=seconds, default=None, metavar="SECONDS",
                        help="also check solve in two processes under this time limit")
    parser.add_argument("--json", action="store_true", help="JSON lines instead of text")
    args = parser.parse_args(argv)
    if args.lines is None and args.deals is None:
        parser.error("give --lines FILE or --deals IDS (or both)")
    if args.lines is not None and not args.lines.is_file():
        parser.error(f"--lines: {str(args.lines)!r} is not a readable file")
    sources: list[Iterable[tuple[str, GameState, list[int]]]] = []
    if args.deals is not None:
        try:
            sources.append(nrpa_lines(select_deals(args.deals, "", "", 0), args.nrpa_nodes))
        except ValueError as error:
            parser.error(str(error))
    if args.lines is not None:
        only = None if args.only is None else {d.strip() for d in args.only.split(",")}
        try:
            sources.insert(0, file_lines(args.lines, only))
        except (ValueError, KeyError, TypeError) as error:  # JSON, or a row without its fields
            parser.error(f"--lines: {args.lines}: not a solve_table --out file ({error!r})")
    rng = Stream(args.walk_seed, "audit-proofs-walks", 0)
    counts = {"audited": 0, "skipped": 0, "failed": 0, "optimal": 0, "infeasible": 0}
    for source in sources:
        for deal, root, line in source:
            for label, pos in positions(root, line, args.from_turn, args.walks, rng,
                                          args.turn_starts):
                row = audit(pos, args.plain_nodes, args.parallel)
                if row is None:
                    counts["skipped"] += 1
                    continue
                row = {"deal": deal, "position": label, **row}
                counts["audited"] += 1
                counts["failed"] += bool(row["bad"])
                for key in (k for k in row if k.startswith("solve_")):
                    status = row[key][0]
                    counts["optimal"] += status == Status.OPTIMAL.value
                    counts["infeasible"] += status == Status.INFEASIBLE.value
                print(json.dumps(row) if args.json else _text(row), flush=True)
    summary = (f"audited {counts['audited']} positions ({counts['skipped']} skipped: the plain "
               f"search did not complete); solve's claims checked: {counts['optimal']} OPTIMAL, "
               f"{counts['infeasible']} INFEASIBLE; positions failing a check: "
               f"{counts['failed']}")
    print(json.dumps({"summary": counts}) if args.json else summary, flush=True)
    return 1 if counts["failed"] else 0


def _text(row: dict[str, Any]) -> str:
    opt = "no goal-meeting line" if row["optimum"] is None else f"optimum {row['optimum']:g}"
    bounds = " ".join(f"{k} {_num(row[f'bound_{k}'])}" for k in BOUNDS)
    relax = row.get("relaxation")
    verdict = "FAILED: " + "; ".join(row["bad"]) if row["bad"] else "ok"
    return (f"{row['deal']} {row['position']} (turn {row['turn']}): {opt} "
            f"({row['plain_nodes']:,} plain nodes); bounds {bounds}"
            + ("" if relax is None else f", relaxation {relax}") + f": {verdict}")


def _num(x: float | None) -> str:
    return "none" if x is None else f"{x:g}"


if __name__ == "__main__":
    raise SystemExit(main())
