"""``solve --plot FILE.png``: a picture of a line, readable at a glance.

Three panels over the turns of the game:

1. **Monuments**: one bar per monument created, from the turn it enters the Timeline (its
   starting space written on the bar) to the turn it declines to the Past (the knowledge it
   turned into lost knowledge written at the end; an open end when it is still in the Timeline
   at the end of the game). Colours by type: city, megalith, pyramid.
2. **Artifacts and technologies**: a mark for each artifact created and each technology
   learned, at its turn, with its name.
3. **Score**: the running total of the score sheet after each turn (as if the game ended
   there), ending at the line's VP.

The figure is built from the turn reports of `solver.engine.describe` (`figure_of`), so a test
can read its content; matplotlib is an optional extra (``pip install 'heritage[plot]'``).
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.engine.cards import CITY, MEGALITH, PYRAMID, CardBook
from solver.engine.describe import TurnReport
from solver.engine.errors import HeritageError

COLOURS = {CITY: "#4c72b0", MEGALITH: "#8c8c8c", PYRAMID: "#dd8452"}
TYPE_NAMES = {CITY: "city", MEGALITH: "megalith", PYRAMID: "pyramid"}


class PlotError(HeritageError):
    """The picture cannot be drawn (matplotlib missing, or the file cannot be written)."""


@dataclass(frozen=True)
class MonumentBar:
    """One monument's stay in the Timeline."""

    card: int
    space: int  # where it was created
    start: int  # turn created
    end: int  # turn it declined (or the last turn)
    lost: int | None  # knowledge turned into lost knowledge; None: still there at the end


def monument_bars(reports: list[TurnReport]) -> list[MonumentBar]:
    """The monuments of a line, in order of creation."""
    last = max((r.turn for r in reports), default=0)
    open_bars: dict[int, tuple[int, int]] = {}
    bars: list[MonumentBar] = []
    for r in reports:
        for card, space in r.created:
            open_bars[card] = (r.turn, space)
        for card, lost in r.declined:
            if card in open_bars:
                start, space = open_bars.pop(card)
                bars.append(MonumentBar(card, space, start, r.turn, lost))
        for card in r.vanished:
            if card in open_bars:
                start, space = open_bars.pop(card)
                bars.append(MonumentBar(card, space, start, r.turn, 0))
    for card, (start, space) in open_bars.items():
        bars.append(MonumentBar(card, space, start, last, None))
    return sorted(bars, key=lambda b: (b.start, b.card))


def figure_of(reports: list[TurnReport], book: CardBook, title: str = "") -> Any:
    """The matplotlib figure of a line (module docstring); its axes carry the ids
    ``monuments``, ``cards`` and ``score``.

    :raises PlotError: matplotlib is not installed."""
    try:
        import matplotlib  # lazy: optional extra (plot), and start-up time

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # lazy: optional extra (plot), after the Agg backend
        from matplotlib.patches import Patch  # lazy: optional extra (plot)
    except ImportError:
        raise PlotError("--plot: matplotlib is not installed (pip install 'heritage[plot]')"
                        ) from None
    bars = monument_bars(reports)
    turns = [r.turn for r in reports if r.turn > 0]
    last = max(turns, default=1)
    height = max(3.0, 0.32 * len(bars) + 1.0)
    fig, (ax_m, ax_c, ax_s) = plt.subplots(
        3, 1, sharex=True, figsize=(11, height + 5.5),
        gridspec_kw={"height_ratios": [height, 2.2, 2.0]})
    ax_m.set_gid("monuments")
    ax_c.set_gid("cards")
    ax_s.set_gid("score")
    cards = book.cards
    for row, b in enumerate(bars):
        kind = cards[b.card].kind
        ax_m.barh(row, b.end - b.start + 0.8, left=b.start - 0.4, height=0.7,
                  color=COLOURS.get(kind, "#55a868"), edgecolor="black",
                  linestyle="--" if b.lost is None else "-")
        label = f"{cards[b.card].name} (space {b.space})"
        end = "still there" if b.lost is None else f"{b.lost} lost"
        if b.end - b.start >= 3:  # the name fits on the bar
            ax_m.text(b.start - 0.3, row, label, va="center", fontsize=7, color="white")
            ax_m.text(b.end + 0.45, row, end, va="center", fontsize=7)
        else:
            ax_m.text(b.end + 0.45, row, f"{label}: {end}", va="center", fontsize=7)
    ax_m.set_yticks([])
    ax_m.set_ylim(len(bars) - 0.4, -0.6)
    ax_m.set_title(title or "The line: monuments in the Timeline, from creation to decline")
    handles = [Patch(color=c) for c in COLOURS.values()]
    ax_m.legend(handles, list(TYPE_NAMES.values()), loc="upper right", fontsize=7)

    for r in reports:
        for k, card in enumerate(r.artifacts):
            ax_c.plot(r.turn, 1, marker="s", color="#c44e52")
            ax_c.annotate(cards[card].name, (r.turn, 1), xytext=(3, 4 + 9 * k),
                          textcoords="offset points", fontsize=6, rotation=20)
        for k, card in enumerate(r.learned):
            ax_c.plot(r.turn, 0, marker="o", color="#8172b3")
            ax_c.annotate(cards[card].name, (r.turn, 0), xytext=(3, 4 + 9 * k),
                          textcoords="offset points", fontsize=6, rotation=20)
    ax_c.set_yticks([0, 1], ["technologies", "artifacts"])
    ax_c.set_ylim(-0.5, 1.9)

    xs = [r.turn for r in reports if r.turn > 0]
    ys = [r.score for r in reports if r.turn > 0]
    ax_s.plot(xs, ys, marker=".", color="black")
    if xs:
        ax_s.annotate(f"{ys[-1]} VP", (xs[-1], ys[-1]), xytext=(5, 0),
                      textcoords="offset points", fontsize=8)
    ax_s.set_ylabel("score if the game\nended now (VP)", fontsize=8)
    ax_s.set_xlabel("turn")
    ax_s.set_xticks(range(1, last + 1))
    ax_s.set_xlim(0.4, last + 3.5)
    ax_s.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def check_plot(path: Path | None) -> None:
    """Before the work (a solve, a sweep's report, an analysis): the picture can be drawn
    (matplotlib installed) and written where asked (a PNG file name, not a folder, in a folder
    that exists), so a bad ``--plot`` fails at once, not after the search.

    :raises PlotError: naming ``--plot`` and the reason."""
    if path is None:
        return
    if path.is_dir():
        raise PlotError(f"--plot: {path} is a folder; give a file name ending in .png")
    if path.suffix.lower() != ".png":
        raise PlotError(f"--plot: {path}: the picture is a PNG; give a file name ending in .png")
    if importlib.util.find_spec("matplotlib") is None:
        raise PlotError("--plot: matplotlib is not installed (pip install 'heritage[plot]')")
    if not path.parent.is_dir():
        raise PlotError(f"--plot: cannot write {path} (no folder {path.parent})")


def draw_line(reports: list[TurnReport], book: CardBook, path: Path, title: str = "") -> None:
    """Write the picture of a line to `path` (PNG).

    :raises PlotError: matplotlib is missing or the file cannot be written."""
    fig = figure_of(reports, book, title)
    try:
        fig.savefig(path, dpi=110, format="png")
    except OSError as exc:
        raise PlotError(f"--plot: cannot write {path} ({exc.strerror})") from None
    finally:
        import matplotlib.pyplot as plt  # lazy: optional extra (plot)

        plt.close(fig)
