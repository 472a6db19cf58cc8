"""``solve --plot``: the picture of a line shows one bar per monument created and a score curve
ending at the line's VP (`cli.lineplot`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.app import app
from cli.lineplot import figure_of, monument_bars
from puzzles.lines import load_position
from solver.engine.describe import describe_line

matplotlib = pytest.importorskip("matplotlib")  # the optional extra ``plot``
RUNNER = CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1"})


def test_solve_plot_draws_the_line(tmp_path: Path) -> None:
    png = tmp_path / "line.png"
    result = RUNNER.invoke(app, ["solve", "--trial", "1", "--seed", "2", "--node-limit", "2000",
                                 "--bound", "simple", "--plot", str(png), "--json"])
    assert result.exit_code == 0, result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads(result.stdout)
    record = load_position(data)
    reports = describe_line(record.setup, record.book, record.line)
    created = [card for r in reports for card, _ in r.created]
    fig = figure_of(reports, record.book)
    axes = {ax.get_gid(): ax for ax in fig.axes}
    bars = [p for p in axes["monuments"].patches if p.get_height() == pytest.approx(0.7)]
    assert len(bars) == len(created) == len(monument_bars(reports)) > 0
    curve = axes["score"].lines[0]
    assert list(curve.get_xdata()) == list(range(1, 17))
    assert curve.get_ydata()[-1] == data["vp"] == data["score"]["total"]
    marks = sum(len(r.artifacts) + len(r.learned) for r in reports)
    assert len(axes["cards"].lines) == marks
    matplotlib.pyplot.close(fig)


def test_plot_to_an_unwritable_file_exits_2(tmp_path: Path) -> None:
    result = RUNNER.invoke(app, ["solve", "--trial", "1", "--node-limit", "500", "--bound",
                                 "simple", "--plot", str(tmp_path / "no" / "such" / "dir.png")])
    assert result.exit_code == 2 and "--plot: cannot write" in result.stderr
    assert result.stdout == ""  # refused before the search
