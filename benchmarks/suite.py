"""The benchmark suite as data: trial deals, saved positions with proven optima, and subsets.

The suite file (`puzzles/data/bench_suite.json`, format ``heritage-bench-suite`` version 1)::

    {"deals": {"trials": [1, ..., 6], "hands": ["1", ..., "4"], "seeds": [0]},
     "positions": [{"id": "t1-h1-s0-b12", "file": "bench_positions/t1-h1-s0-b12.json",
                    "optimum": 57, "proof_nodes": 1234, ...}, ...],
     "subsets": {"smoke": [...ids], "core6": [...ids]},
     "smoke": {"budget": 2.0, "engine_games": 100}}

* A *deal* is trial ``t`` (RULES.md section 9: its goal chests are hard constraints) with
  premade starting hand ``h`` and deal seed ``s``: id ``t{t}-h{h}-s{s}``; the suite is the
  product trials x hands x seeds.
* A *position* is a line file (`solver.engine.record.load_position`): a deal plus the first
  decisions of a goal-meeting line, saved under `puzzles/data/bench_positions/`. Its ``optimum``
  (the most VP of a goal-meeting line from there) was proven by the exact search
  (`solver.search.exhaustive`); ``proof_nodes`` is the size of that proof. They are the small
  instances on which every solver's answer is checked: nobody may beat a proven optimum, and a
  solver that says OPTIMAL must hit it.
* ``subsets`` name instance lists (``smoke``: the CI run of about a minute; ``core6``: one deal
  per trial, for long budgets).

Positions are made (and the file rewritten) by ``python -m benchmarks.suite --make-positions``:
for each trial, NRPA with a node limit (deterministic) finds a goal-meeting line; the line is cut
at the earliest decision from which the exact search still proves the optimum within a node
limit (`PositionRecipe`). A change of the card or chest data changes the deals; the positions
then refuse to load (their files name the data's sha256) and must be made again.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from puzzles.deal import build_setup, load_cards  # noqa: E402
from puzzles.jsonfile import read_json  # noqa: E402
from puzzles.lines import load_position  # noqa: E402
from solver.engine.cards import CardBook  # noqa: E402
from solver.engine.errors import HeritageError  # noqa: E402
from solver.engine.goal_check import goals_json  # noqa: E402
from solver.engine.record import GameRecord, dumps  # noqa: E402
from solver.engine.setup import Setup  # noqa: E402
from solver.engine.state import GameState  # noqa: E402
from solver.game import HeritageGame  # noqa: E402
from solver.search.exhaustive import SearchConfig, search  # noqa: E402
from solver.search.nrpa import NRPA, NRPAConfig  # noqa: E402
from solver.search.status import Status  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "puzzles" / "data"
DEFAULT_SUITE = DATA / "bench_suite.json"
FORMAT = "heritage-bench-suite"
VERSION = 1
HANDS = ("1", "2", "3", "4")


class SuiteError(HeritageError, ValueError):
    """A malformed suite file, or an instance that cannot be dealt or loaded."""


@dataclass(frozen=True)
class Instance:
    """One benchmark instance: a root position to solve from.

    :param id: stable name: ``t1-h2-s0`` for a deal, ``t1-h2-s0-b12`` for a position cut 12
        decisions before the end of its line.
    :param kind: ``"deal"`` or ``"position"``.
    :param optimum: the proven best VP with every goal met (positions only).
    """

    id: str
    kind: str
    trial: int
    hand: str
    seed: int
    file: Path | None = None
    optimum: float | None = None
    proof_nodes: int | None = None

    def record(self) -> GameRecord:
        """The root as a game record (setup + the decisions so far), freshly dealt or loaded.

        :raises SuiteError: the position file is missing or no longer loads."""
        if self.kind == "deal":
            return GameRecord.new(deal_setup(self.trial, self.hand, self.seed), _book())
        assert self.file is not None
        try:
            data, _ = read_json(self.file, SuiteError, "position file")
            return load_position(data, self.file.parent)
        except HeritageError as exc:
            raise SuiteError(f"{self.file}: position {self.id} does not load ({exc}); make the "
                             "positions again: python -m benchmarks.suite "
                             "--make-positions") from None

    def root(self) -> GameState:
        """The engine state to solve from."""
        return self.record().state


@dataclass(frozen=True)
class Suite:
    """The parsed suite file."""

    path: Path
    deals: tuple[Instance, ...]
    positions: tuple[Instance, ...]
    subsets: dict[str, tuple[str, ...]] = field(default_factory=dict)
    smoke_budget: float = 2.0
    smoke_engine_games: int = 100

    @property
    def instances(self) -> tuple[Instance, ...]:
        """Every instance: the deals, then the positions."""
        return self.deals + self.positions

    def by_id(self) -> dict[str, Instance]:
        return {i.id: i for i in self.instances}

    def select(self, subset: str | None = None, ids: Sequence[str] = ()) -> list[Instance]:
        """The instances of a named subset and/or explicit ids (suite order), else all.

        :raises SuiteError: an unknown subset or id."""
        table = self.by_id()
        if subset is None and not ids:
            return list(self.instances)
        wanted: list[str] = []
        if subset is not None:
            if subset not in self.subsets:
                raise SuiteError(f"--subset: {subset!r} is not a subset of {self.path.name} "
                                 f"({', '.join(sorted(self.subsets)) or 'none'})")
            wanted.extend(self.subsets[subset])
        for i in ids:
            if i not in table:
                raise SuiteError(f"--instance: {i!r} is not an instance of {self.path.name} "
                                 "(ids look like t1-h2-s0 or t1-h2-s0-b12)")
            wanted.append(i)
        keep = set(wanted)
        return [inst for inst in self.instances if inst.id in keep]


def deal_id(trial: int, hand: str, seed: int) -> str:
    return f"t{trial}-h{hand}-s{seed}"


@functools.cache
def _cards() -> tuple[CardBook, tuple[tuple[str, str], ...]]:
    """The base card book and its card sets (loaded once: the data files do not change)."""
    return load_cards(["base"])


def _book() -> CardBook:
    return _cards()[0]


def deal_setup(trial: int, hand: str, seed: int) -> Setup:
    """The setup of a deal as ``heritage solve --trial T --hand H --seed S`` builds it
    (`puzzles.deal.build_setup`)."""
    book, card_sets = _cards()
    return build_setup(book, card_sets, hand=hand, seed=seed, trial=trial)


def _fail(path: Path, where: str, value: Any, why: str) -> SuiteError:
    return SuiteError(f"{path}: field {where!r} = {value!r}: {why}")


def _int_list(path: Path, where: str, v: Any) -> list[int]:
    if not isinstance(v, list) or not v or not all(isinstance(x, int) and not isinstance(x, bool)
                                                  for x in v):
        raise _fail(path, where, v, "expected a non-empty list of whole numbers")
    return list(v)


def load_suite(path: Path | str = DEFAULT_SUITE) -> Suite:
    """Read and check a suite file (module docstring).

    :raises SuiteError: naming the file, the field and the value."""
    path = Path(path)
    data, _ = read_json(path, SuiteError, "bench suite")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _fail(path, "format", data.get("format") if isinstance(data, dict) else data,
                    f"expected {FORMAT!r}")
    if data.get("version") != VERSION:
        raise _fail(path, "version", data.get("version"), f"expected {VERSION}")
    grid = data.get("deals")
    if not isinstance(grid, dict):
        raise _fail(path, "deals", grid, "expected an object with trials, hands and seeds")
    trials = _int_list(path, "deals.trials", grid.get("trials"))
    seeds = _int_list(path, "deals.seeds", grid.get("seeds"))
    hands = grid.get("hands")
    if not isinstance(hands, list) or not hands or any(h not in HANDS for h in hands):
        raise _fail(path, "deals.hands", hands, "expected a list of premade hands \"1\"-\"4\"")
    deals = tuple(Instance(deal_id(t, h, s), "deal", t, h, s)
                  for t in trials for h in hands for s in seeds)
    positions = []
    if not isinstance(data.get("positions", []), list):
        raise _fail(path, "positions", data["positions"], "expected a list of saved positions")
    for k, p in enumerate(data.get("positions", [])):
        where = f"positions[{k}]"
        if not isinstance(p, dict):
            raise _fail(path, where, p, "expected an object")
        for key in ("id", "file"):
            if not isinstance(p.get(key), str):
                raise _fail(path, f"{where}.{key}", p.get(key), "expected a string")
        opt = p.get("optimum")
        if not isinstance(opt, int | float) or isinstance(opt, bool):
            raise _fail(path, f"{where}.optimum", opt, "expected the proven optimum (a number)")
        for key in ("trial", "seed"):
            if not isinstance(p.get(key), int):
                raise _fail(path, f"{where}.{key}", p.get(key), "expected a whole number")
        positions.append(Instance(p["id"], "position", p["trial"], str(p.get("hand", "")),
                                  p["seed"], file=path.parent / p["file"], optimum=float(opt),
                                  proof_nodes=p.get("proof_nodes")))
    ids = [i.id for i in deals] + [i.id for i in positions]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise _fail(path, "positions", dup[0], "the id appears twice")
    subsets: dict[str, tuple[str, ...]] = {}
    for name, members in (data.get("subsets") or {}).items():
        if not isinstance(members, list) or any(m not in ids for m in members):
            bad = [m for m in members if m not in ids] if isinstance(members, list) else members
            raise _fail(path, f"subsets.{name}", bad,
                        "expected a list of instance ids of the suite")
        subsets[name] = tuple(members)
    smoke = data.get("smoke") or {}
    budget = smoke.get("budget", 2.0)
    games = smoke.get("engine_games", 100)
    if not isinstance(budget, int | float) or budget <= 0:
        raise _fail(path, "smoke.budget", budget, "expected a positive number of seconds")
    if not isinstance(games, int) or games < 1:
        raise _fail(path, "smoke.engine_games", games, "expected a whole number from 1")
    return Suite(path, deals, tuple(positions), subsets, float(budget), games)


# ------------------------------------------------------------------ making the positions


@dataclass(frozen=True)
class PositionRecipe:
    """How `make_positions` builds the saved positions (tuned numbers in one place).

    :param trials: one position set per trial (RULES.md section 9).
    :param hands: premade hands tried in turn for a trial until NRPA finds a goal-meeting line
        (the list is rotated by the trial number so that the trials use different hands).
    :param seed: the deal seed.
    :param nrpa_nodes: node limit of the NRPA run that finds the line (deterministic).
    :param tiers: most nodes an exact proof may take; one position per tier (a small one for
        tests and the smoke run, a larger one), the earliest cut proven within it.
    :param back: how many decisions before the end of the line to cut, tried in rising order
        (the position keeps the line's other decisions, possibly stopping inside a turn).
    """

    trials: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
    hands: tuple[str, ...] = HANDS
    seed: int = 0
    nrpa_nodes: int = 200_000
    tiers: tuple[int, ...] = (5_000, 60_000)
    back: tuple[int, ...] = (2, 3, 4, 6, 8, 10, 12, 15, 18, 21, 25, 30, 35, 40, 50)


@dataclass(frozen=True)
class MadePosition:
    """One proven position: its line file, optimum, proof size, and where it was cut."""

    id: str
    data: dict[str, Any]
    trial: int
    hand: str
    seed: int
    back: int
    optimum: int
    proof_nodes: int
    line_vp: int


def _cut(record: GameRecord, full: GameRecord, back: int) -> dict[str, Any]:
    """The line file of `full` without its last `back` decisions (turn lists kept)."""
    flat = [(t, x) for t, turn in enumerate(full.line) for x in turn]
    keep = flat[:len(flat) - back]
    line: list[list[str]] = [[] for _ in range((keep[-1][0] + 1) if keep else 1)]
    for t, x in keep:
        line[t].append(x)
    data = record.to_json()
    data["line"] = line
    data["score"] = None
    return data


def make_positions_for(trial: int, recipe: PositionRecipe) -> tuple[list[MadePosition], str]:
    """The proven positions of one trial (module docstring) and one line of report."""
    k = (trial - 1) % len(recipe.hands)
    hands = recipe.hands[k:] + recipe.hands[:k]
    for hand in hands:
        record = GameRecord.new(deal_setup(trial, hand, recipe.seed), _book())
        inc = NRPA(record.state, NRPAConfig(max_nodes=recipe.nrpa_nodes, seed=recipe.seed),
                   game=HeritageGame()).run()
        if inc.found:
            break
    else:
        return [], f"trial {trial}: NRPA found no goal-meeting line with any hand"
    full = record.clone()
    for a in inc.line:
        full.apply(a)
    made: list[MadePosition] = []
    for limit in recipe.tiers:
        best: MadePosition | None = None
        for back in recipe.back:
            data = _cut(record, full, back)
            pos = load_position(data)
            tail = inc.line[len(inc.line) - back:]
            game = HeritageGame()
            res = search(pos.state, SearchConfig(max_nodes=limit),
                         order=game.order(pos.state, tail), game=game)
            if res.status != Status.OPTIMAL or res.value is None:
                break
            assert res.value >= inc.value, "the exact search missed the NRPA line"
            data["goals"] = goals_json(pos.state)
            pid = f"{deal_id(trial, hand, recipe.seed)}-b{back}"
            best = MadePosition(pid, data, trial, hand, recipe.seed, back, int(res.value),
                                res.nodes, int(inc.value))
        if best is not None and all(m.id != best.id for m in made):
            made.append(best)
    did = deal_id(trial, hand, recipe.seed)
    text = ", ".join(f"{m.id} optimum {m.optimum} ({m.proof_nodes:,} nodes)" for m in made)
    return made, f"trial {trial}: {did} line {int(inc.value)} VP; " + (text or "no cut proven")


def make_positions(suite_path: Path = DEFAULT_SUITE,
                   recipe: PositionRecipe | None = None) -> list[str]:
    """Make the saved positions of the recipe, write their files and rewrite the suite's
    ``positions`` list; returns one line of report per trial."""
    recipe = recipe or PositionRecipe()
    data = json.loads(suite_path.read_text(encoding="utf-8"))
    folder = suite_path.parent / "bench_positions"
    folder.mkdir(exist_ok=True)
    entries: list[dict[str, Any]] = []
    report = []
    for trial in recipe.trials:
        made, text = make_positions_for(trial, recipe)
        report.append(text)
        for m in made:
            name = f"bench_positions/{m.id}.json"
            (suite_path.parent / name).write_text(dumps(m.data), encoding="utf-8")
            entries.append({"id": m.id, "file": name, "trial": m.trial, "hand": m.hand,
                            "seed": m.seed, "decisions_left_on_line": m.back,
                            "optimum": m.optimum, "proof_nodes": m.proof_nodes,
                            "nrpa_line_vp": m.line_vp})
    data["positions"] = entries
    written = {Path(e["file"]).name for e in entries}
    for stale in sorted(folder.glob("*.json")):
        if stale.name not in written:
            stale.unlink()
            report.append(f"removed {stale.name} (no longer made)")
    ids = {e["id"] for e in entries}
    for name, members in (data.get("subsets") or {}).items():
        gone = [m for m in members if "-b" in m and m not in ids]
        if gone:
            data["subsets"][name] = [m for m in members if m not in gone]
            report.append(f"subset {name}: dropped {', '.join(gone)} (no longer made)")
    suite_path.write_text(suite_text(data), encoding="utf-8")
    return report


def suite_text(data: dict[str, Any]) -> str:
    """A suite object as text: one key a line, one position a line (stable, diff-friendly)."""
    parts = []
    for key, value in data.items():
        if key == "positions" and value:
            rows = ",\n  ".join(json.dumps(p, ensure_ascii=False) for p in value)
            text = "[\n  " + rows + "\n ]"
        elif key == "subsets" and value:
            rows = ",\n  ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in value.items())
            text = "{\n  " + rows + "\n }"
        else:
            text = json.dumps(value, ensure_ascii=False)
        parts.append(f" {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--make-positions", action="store_true",
                        help="make the saved positions and rewrite the suite's position list")
    parser.add_argument("--suite", type=Path, default=DEFAULT_SUITE, help="the suite file")
    args = parser.parse_args(argv)
    if args.make_positions:
        for line in make_positions(args.suite):
            print(line)
        return 0
    suite = load_suite(args.suite)
    for inst in suite.instances:
        extra = f"  optimum {inst.optimum:g}" if inst.optimum is not None else ""
        print(f"{inst.id:16} {inst.kind}{extra}")
    for name, ids in sorted(suite.subsets.items()):
        print(f"subset {name}: {' '.join(ids)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
