"""The heat map of a sweep report (PNG, matplotlib: the optional extra ``plot``).

Trials down, hands across. Each cell's colour is the share of deals won (``rate_low``, from 0%
white-yellow to 100% dark green); its top part is hatched in proportion to the share of deals
still unknown (so a cell hatched from the top down to 40% has 40% unknowns, and its winnable
rate lies between its colour and colour + 40%). Each cell is labelled with the rate (a range
while unknowns remain), the number of deals, and the unknown share.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.sweep.plan import SweepError
from benchmarks.sweep.report import hand_key, percent, rate_text


def plot_heatmap(summary: Sequence[dict[str, Any]], path: Path, title: str) -> None:
    """Draw the heat map of one setting's summary into `path`.

    :raises SweepError: matplotlib is not installed, or the file cannot be written."""
    try:
        import matplotlib  # lazy: matplotlib is optional (the extra ``plot``)
    except ImportError:
        raise SweepError("--plot: needs matplotlib: pip install 'heritage[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: after choosing the Agg backend
    from matplotlib.patches import Rectangle  # lazy: matplotlib is optional

    trials = sorted({int(s["trial"]) for s in summary})
    hands = sorted({str(s["hand"]) for s in summary}, key=hand_key)
    cells = {(int(s["trial"]), str(s["hand"])): s for s in summary}
    fig, ax = plt.subplots(figsize=(1.9 * len(hands) + 2.2, 0.95 * len(trials) + 1.6))
    cmap = plt.get_cmap("YlGn")
    for i, trial in enumerate(trials):
        for j, hand in enumerate(hands):
            s = cells.get((trial, hand))
            if s is None:
                ax.add_patch(Rectangle((j, i), 1, 1, facecolor="#dddddd", edgecolor="white"))
                ax.text(j + 0.5, i + 0.5, "no deals", ha="center", va="center", fontsize=8)
                continue
            rate = float(s["rate_low"])
            ax.add_patch(Rectangle((j, i), 1, 1, facecolor=cmap(rate), edgecolor="white",
                                   linewidth=2))
            unknown = s["unknown"] / s["deals"]
            if unknown > 0:
                ax.add_patch(Rectangle((j, i), 1, unknown, facecolor="none", hatch="///",
                                       edgecolor="#555555", linewidth=0))
            dark = rate > 0.6
            ax.text(j + 0.5, i + 0.5,
                    f"{rate_text(s)}\n{s['deals']} deals, {percent(unknown)} unknown",
                    ha="center", va="center", fontsize=7.5,
                    color="white" if dark else "black",
                    bbox={"facecolor": cmap(rate), "edgecolor": "none", "alpha": 0.8, "pad": 1})
    ax.set_xlim(0, len(hands))
    ax.set_ylim(len(trials), 0)
    ax.set_xticks([j + 0.5 for j in range(len(hands))],
                  [f"hand {h}" if h != "draw" else "draw 10 keep 6" for h in hands])
    ax.set_yticks([i + 0.5 for i in range(len(trials))], [f"trial {t}" for t in trials])
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)
    mappable = plt.cm.ScalarMappable(cmap=cmap, norm=matplotlib.colors.Normalize(0, 100))
    fig.colorbar(mappable, ax=ax, label="deals won (%); hatched: share unknown", shrink=0.85)
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=120)
    except OSError as exc:
        raise SweepError(f"--plot: cannot write {path} ({exc.strerror})") from None
    finally:
        plt.close(fig)
