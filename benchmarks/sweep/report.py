"""The report of a sweep: per trial and hand, how often the trial can be won, with what VP.

For the n deals of a trial and hand (one budget, bound, heritage version and data):

* ``won``: a witness line meets every goal; ``unwinnable``: proven that no line does;
  ``unknown``: neither within the budget;
* the winnable rate is known only as a range while unknowns remain: ``rate_low = won / n`` (every
  unknown deal unwinnable), ``rate_high = (n - unwinnable) / n`` (every unknown deal winnable);
* its 95% confidence interval: ``ci_low``, the lower end of the Clopper-Pearson ("exact")
  interval of ``won`` successes in n, and ``ci_high``, the upper end of the interval of
  ``n - unwinnable`` in n (`scipy.stats.binomtest(k, n).proportion_ci(0.95, method="exact")`),
  so that ``ci_low <= rate_low <= rate_high <= ci_high``. Clopper-Pearson inverts the binomial
  test exactly: its coverage is at least 95% for every rate (Wilson's is 95% only on average),
  at the price of a slightly wider interval;
* ``mean_vp`` and ``median_vp`` of the witness lines found, and ``proven_optimal``: how many of
  them were proven optimal (the exact search finished);
* ``seeds``: how many builder decks (seeds) the deals use. The interval counts the n deals as
  independent draws; deals that share a deck and differ only in their die seed are not (a
  deck that wins with one die tends to win with another), so where ``seeds < deals`` the
  interval is too narrow, and the report says so (`shared_decks`).

Rows of different budgets, bounds, heritage versions or data answer different questions: each
such *setting* gets its own table.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

#: Confidence level of the intervals.
CONFIDENCE = 0.95
#: The scipy method of the interval (Clopper-Pearson).
CI_METHOD = "exact"
#: The order hands are listed in.
HAND_ORDER = ("1", "2", "3", "4", "draw")

Setting = tuple[str, str, str, str]  # budget, bound, heritage version, data sha256


def interval(successes: int, n: int) -> tuple[float, float]:
    """The 95% Clopper-Pearson interval of `successes` in `n` trials.

    >>> [round(x, 4) for x in interval(0, 10)]
    [0.0, 0.3085]"""
    from scipy.stats import binomtest  # lazy: scipy.stats takes over a second to import

    ci = binomtest(successes, n).proportion_ci(confidence_level=CONFIDENCE, method=CI_METHOD)
    return float(ci.low), float(ci.high)


def hand_key(hand: str) -> tuple[int, str]:
    return (HAND_ORDER.index(hand), hand) if hand in HAND_ORDER else (len(HAND_ORDER), hand)


def summarize(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One object per setting, trial and hand (module docstring), in setting, trial and hand
    order."""
    groups: dict[tuple[Setting, int, str], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        setting = (row["budget"], row["bound"], row["version"], row["data_sha256"])
        groups[(setting, int(row["trial"]), str(row["hand"]))].append(row)
    out = []
    for (setting, trial, hand) in sorted(groups, key=lambda k: (k[0], k[1], hand_key(k[2]))):
        group = groups[(setting, trial, hand)]
        n = len(group)
        won = sum(1 for r in group if r["status"] == "won")
        unwinnable = sum(1 for r in group if r["status"] == "unwinnable")
        vps = [int(r["vp"]) for r in group if r["status"] == "won" and r["vp"] is not None]
        ci_low = interval(won, n)[0]
        ci_high = interval(n - unwinnable, n)[1]
        out.append({
            "trial": trial, "hand": hand, "deals": n, "won": won, "unwinnable": unwinnable,
            "unknown": n - won - unwinnable, "rate_low": won / n,
            "rate_high": (n - unwinnable) / n, "ci_low": ci_low, "ci_high": ci_high,
            "mean_vp": statistics.fmean(vps) if vps else None,
            "median_vp": statistics.median(vps) if vps else None,
            "proven_optimal": sum(1 for r in group if r["solve_status"] == "OPTIMAL"),
            "seeds": len({int(r["seed"]) for r in group}),
            "budget": setting[0], "bound": setting[1], "version": setting[2],
            "data_sha256": setting[3], "ci_method": "clopper-pearson",
        })
    return out


def shared_decks(summary: Sequence[dict[str, Any]]) -> str | None:
    """The warning for groups whose deals share builder decks (module docstring), or None."""
    shared = [s for s in summary if s["seeds"] < s["deals"]]
    if not shared:
        return None
    named = ", ".join(f"trial {s['trial']} hand {s['hand']} ({s['deals']} deals on "
                      f"{s['seeds']} decks)" for s in shared[:3])
    more = f" and {len(shared) - 3} more" if len(shared) > 3 else ""
    return (f"note: {named}{more}: deals that differ only in their die seed share a deck, so "
            "they are not independent and the 95% CI, which counts them as independent, is too "
            "narrow; sweep more --seeds with one die seed each for an interval that holds")


def settings(summary: Sequence[dict[str, Any]]) -> list[Setting]:
    """The settings of a summary, in order."""
    return list(dict.fromkeys((s["budget"], s["bound"], s["version"], s["data_sha256"])
                              for s in summary))


def percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def rate_text(s: dict[str, Any]) -> str:
    """The winnable rate: one figure, or a range while unknowns remain."""
    if s["rate_low"] == s["rate_high"]:
        return percent(s["rate_low"])
    return f"{percent(s['rate_low'])}-{percent(s['rate_high'])}"


COLUMNS = ("trial", "hand", "deals", "won", "unwinnable", "unknown", "winnable rate",
           "95% CI", "mean VP", "median VP", "optimal")


def table_rows(summary: Sequence[dict[str, Any]]) -> list[list[str]]:
    """The report table's cells (one setting's summary)."""
    def vp(x: float | None) -> str:
        return "-" if x is None else f"{x:.1f}"

    return [[str(s["trial"]), s["hand"], str(s["deals"]), str(s["won"]), str(s["unwinnable"]),
             str(s["unknown"]), rate_text(s), f"{percent(s['ci_low'])}-{percent(s['ci_high'])}",
             vp(s["mean_vp"]), vp(s["median_vp"]), str(s["proven_optimal"])]
            for s in summary]


def setting_title(setting: Setting) -> str:
    budget, bound, version, data = setting
    kind, _, amount = budget.partition("=")
    words = f"node limit {amount}" if kind == "nodes" else f"time limit {amount} s"
    return f"heritage {version}, data {data[:12]}, {words} per deal, bound {bound}"


def plain_table(title: str, rows: Sequence[Sequence[str]]) -> str:
    """A report table as aligned plain text (numbers right-aligned)."""
    widths = [max([len(c)] + [len(r[i]) for r in rows]) for i, c in enumerate(COLUMNS)]
    lines = [title]
    for cells in [list(COLUMNS), *rows]:
        lines.append("  ".join(
            c.ljust(w) if i < 2 else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip())
    return "\n".join(lines)
