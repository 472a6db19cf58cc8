"""Engine speed: random full games per second and decisions per second, on one core.

Each game ``g`` deals ``Setup(hand="draw", seed=S + g)`` (draw 10, keep 6) and plays it to the
end with the random policy of ``heritage play`` (`solver.search.playout.random_playout`, stream
``(S + g, "policy", 0)``), so the work is the same on every run; only the time varies. Loading
the card book is not timed.

Run from the repository root (it measures the sources, interpreted) or, after ``pip install .``,
from any other directory (it measures the installed build: compiled where a C compiler exists;
README, "Builds"); the output names the build::

    python -m benchmarks.engine [--games N] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from puzzles.cardsets import load_book  # noqa: E402
from solver.buildinfo import current_build  # noqa: E402
from solver.engine.newgame import new_game  # noqa: E402
from solver.engine.setup import Setup  # noqa: E402
from solver.rng import Stream  # noqa: E402
from solver.search.playout import random_playout  # noqa: E402


def run(games: int, seed: int) -> dict[str, float | int]:
    """Play `games` random games; return the counts, the time and the rates."""
    book = load_book(["base"])
    decisions = 0
    start = time.perf_counter()
    for g in range(games):
        st = new_game(Setup(hand="draw", seed=seed + g), book)
        decisions += len(random_playout(st, Stream(seed + g, "policy", 0)))
    seconds = time.perf_counter() - start
    return {
        "games": games,
        "decisions": decisions,
        "seconds": round(seconds, 4),
        "games_per_second": round(games / seconds, 1),
        "decisions_per_second": round(decisions / seconds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games to play (default 300)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    result = run(args.games, args.seed)
    build = current_build().kind
    if args.json:
        print(json.dumps({**result, "build": build}))
    else:
        print(f"{result['games']} random games, {result['decisions']} decisions in "
              f"{result['seconds']} s (one core, the {build} build)")
        print(f"{result['games_per_second']} games/s, {result['decisions_per_second']} "
              "decisions/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
