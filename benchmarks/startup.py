"""Start-up time of the command line: ``heritage --help`` (target: under 0.3 s) and ``heritage
play``, each in a fresh process, against a bare ``python -c pass`` for scale.

Each command runs `--runs` times in a new interpreter (``python -c "from cli.app import main;
main()" ARGS``, the console script's own entry point, so no shell wrapper is timed); the
median wall-clock time and the median CPU time (user + system, which a loaded machine disturbs
less) are reported, with the modules of OR-Tools, pandas, networkx, SciPy, NumPy and
matplotlib the command imported (none is expected for ``--help`` and ``play``).

Run from the repository root::

    python -m benchmarks.startup [--runs N] [--json]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_HELP_SECONDS = 0.3
HEAVY = ("ortools", "pandas", "networkx", "scipy", "numpy", "matplotlib", "pyspiel")

#: What each measured command runs in a fresh interpreter; the heavy modules it imported are
#: printed on stderr at exit.
PROBE = """
import atexit, sys
def _heavy():
    found = sorted({m.split('.')[0] for m in sys.modules} & set(%r))
    sys.stderr.write('HEAVY:' + ','.join(found) + '\\n')
atexit.register(_heavy)
sys.argv = ['heritage'] + %r
from cli.app import main
main()
"""

COMMANDS = {
    "python -c pass": None,
    "heritage --help": ["--help"],
    "heritage play": ["play", "--hand", "1", "--seed", "0"],
}


def measure(args: list[str] | None, runs: int) -> dict[str, object]:
    """Median wall and CPU seconds of `runs` fresh processes, and the heavy modules loaded."""
    code = "pass" if args is None else PROBE % (HEAVY, args)
    walls, cpus, heavy = [], [], ""
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                              text=True, check=False)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        for line in proc.stderr.splitlines():
            if line.startswith("HEAVY:"):
                heavy = line[len("HEAVY:"):]
    return {"wall_median": round(statistics.median(walls), 3),
            "wall_min": round(min(walls), 3),
            "cpu_median": round(statistics.median(cpus), 3),
            "heavy_modules": [m for m in heavy.split(",") if m]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="fresh processes per command")
    parser.add_argument("--json", action="store_true", help="print JSON")
    ns = parser.parse_args(argv)
    results = {name: measure(args, ns.runs) for name, args in COMMANDS.items()}
    help_ok = (results["heritage --help"]["wall_median"]  # type: ignore[operator]
               < TARGET_HELP_SECONDS)
    if ns.json:
        print(json.dumps({"runs": ns.runs, "target_help_seconds": TARGET_HELP_SECONDS,
                          "help_under_target": help_ok, "results": results}, indent=2))
        return 0
    print(f"{'command':<18} {'wall median':>11} {'wall min':>9} {'cpu median':>10}  heavy modules")
    for name, r in results.items():
        print(f"{name:<18} {r['wall_median']:>10.3f}s {r['wall_min']:>8.3f}s "
              f"{r['cpu_median']:>9.3f}s  "
              f"{', '.join(r['heavy_modules']) or '-'}")  # type: ignore[arg-type]
    print(f"heritage --help under {TARGET_HELP_SECONDS} s (median wall): "
          f"{'yes' if help_ok else 'NO'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
