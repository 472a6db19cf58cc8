"""The two plots of ``heritage bench`` (PNG, matplotlib; one pair per budget).

``anytime-{budget}s.png`` (anytime profile): for each contender, the mean over the instances of
the best VP with every goal met found by time ``t``, as a fraction of the instance's best known
VP (``max(0, VP) / best``, 0 before the first goal-meeting line), against ``t`` on a log scale.
Instances whose best known VP is not positive are left out (the fraction means nothing there).
The exact search reports its line only when it stops, so its curve steps at the end of its runs.

``profile-{budget}s.png`` (performance profile, Dolan and More 2002): for each contender, the
fraction of instances on which its VP is within a factor ``tau`` of the best known,
``best / VP <= tau``; a contender that found no goal-meeting line (or a VP of 0 or less) on an
instance never reaches it. The curve at ``tau = 1`` is the share of instances where it found the
best known line; its height at the right is the share it won at all.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: Earliest time shown on the anytime plot (seconds; the axis is logarithmic).
T_MIN = 0.01
#: Points per anytime curve.
SAMPLES = 200
#: Right end of the performance profile's tau axis (log 2 scale).
TAU_MAX = 16.0
#: Line styles, so that curves lying on each other stay visible.
STYLES = ("-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)))


def _fraction_at(rec: dict[str, Any], best: float, t: float) -> float:
    """The fraction of the best known VP that `rec` had reached by time `t`."""
    vp = None
    for when, value in rec["trace"]:
        if when <= t:
            vp = value
    return 0.0 if vp is None else max(0.0, vp) / best


def anytime_curves(records: Sequence[dict[str, Any]], best_known: dict[str, float | None],
                   budget: float, solvers: Sequence[str]
                   ) -> dict[str, tuple[list[float], list[float]]]:
    """Per contender: sample times and the mean fraction of the best known VP at each."""
    top = max(budget, T_MIN * 10)
    ts = [T_MIN * (top / T_MIN) ** (k / (SAMPLES - 1)) for k in range(SAMPLES)]
    curves = {}
    for name in solvers:
        recs = [r for r in records if r["solver"] == name and r["budget"] == budget
                and (best_known.get(r["instance"]) or 0) > 0]
        if not recs:
            continue
        ys = [sum(_fraction_at(r, float(best_known[r["instance"]] or 0), t) for r in recs)
              / len(recs) for t in ts]
        curves[name] = (ts, ys)
    return curves


def profile_curves(records: Sequence[dict[str, Any]], best_known: dict[str, float | None],
                   budget: float, solvers: Sequence[str]
                   ) -> dict[str, tuple[list[float], list[float]]]:
    """Per contender: tau values and the fraction of instances with ``best / VP <= tau``."""
    taus = [TAU_MAX ** (k / (SAMPLES - 1)) for k in range(SAMPLES)]
    curves = {}
    for name in solvers:
        recs = [r for r in records if r["solver"] == name and r["budget"] == budget
                and (best_known.get(r["instance"]) or 0) > 0]
        if not recs:
            continue
        ratios = []
        for r in recs:
            best = float(best_known[r["instance"]] or 0)
            ratios.append(best / r["vp"] if r["vp"] is not None and r["vp"] > 0 else math.inf)
        ys = [sum(1 for x in ratios if x <= tau + 1e-9) / len(ratios) for tau in taus]
        curves[name] = (taus, ys)
    return curves


def plot_all(records: Sequence[dict[str, Any]], best_known: dict[str, float | None],
             budgets: Sequence[float], solvers: Sequence[str], out: Path) -> list[Path]:
    """Draw both plots for every budget into `out`; returns the files written.

    :raises ImportError: matplotlib is not installed."""
    import matplotlib  # lazy: matplotlib is optional (the extra ``bench``)

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: after choosing the Agg backend

    files = []
    for budget in budgets:
        n = len({r["instance"] for r in records if r["budget"] == budget
                 and (best_known.get(r["instance"]) or 0) > 0})
        fig, ax = plt.subplots(figsize=(8, 4.5))
        for k, (name, (xs, ys)) in enumerate(anytime_curves(records, best_known, budget,
                                                            solvers).items()):
            ax.step(xs, ys, where="post", label=name, linestyle=STYLES[k % len(STYLES)])
        ax.set_xscale("log")
        ax.set_xlim(T_MIN, max(budget, T_MIN * 10) * 1.05)
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("time (s, log scale)")
        ax.set_ylabel("mean fraction of the best known VP")
        ax.set_title(f"Anytime profile, {budget:g} s per instance ({n} instances)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5))
        path = out / f"anytime-{budget:g}s.png"
        fig.tight_layout()
        fig.savefig(path, dpi=120)
        plt.close(fig)
        files.append(path)

        fig, ax = plt.subplots(figsize=(8, 4.5))
        for k, (name, (xs, ys)) in enumerate(profile_curves(records, best_known, budget,
                                                            solvers).items()):
            ax.step(xs, ys, where="post", label=name, linestyle=STYLES[k % len(STYLES)])
        ax.set_xscale("log", base=2)
        ax.set_xlim(1.0, TAU_MAX)
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("tau: within a factor tau of the best known VP (log 2 scale)")
        ax.set_ylabel("fraction of instances")
        ax.set_title(f"Performance profile, {budget:g} s per instance ({n} instances)")
        ax.grid(True, alpha=0.3)
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5))
        path = out / f"profile-{budget:g}s.png"
        fig.tight_layout()
        fig.savefig(path, dpi=120)
        plt.close(fig)
        files.append(path)
    return files
