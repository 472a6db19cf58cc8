"""``heritage antike plan``: output, JSON, exit codes and one-line input errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.antike import antike_app

RUNNER = CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1"})
ISSUE_ARGS = ["plan", "--have", "wheel,sailing", "--others", "sailing,market", "--gold", "20"]
SEED_ARGS = ["plan", "--others", "sailing", "--gold", "13", "--goal", "cheapest"]
SEED_ARGS += ["--want", "navigation"]


def run(*args: str) -> Any:
    return RUNNER.invoke(antike_app, list(args))


def run_json(*args: str) -> dict[str, Any]:
    result = run(*args, "--json")
    data: dict[str, Any] = json.loads(result.stdout)
    data["exit_code"] = result.exit_code
    return data


def test_table_output() -> None:
    result = run(*ISSUE_ARGS)
    assert result.exit_code == 0, result.output
    out = result.stdout
    for text in [
        "have: wheel, sailing",
        "others have: sailing, market",
        "monarchy",
        "roads",
        "gold spent: 17 of 20",
        "scholars: 2",
        "all eight know-hows: no",
        "status: OPTIMAL",
        "methods agree: CP-SAT and search",
    ]:
        assert text in out
    assert run(*ISSUE_ARGS).stdout == out  # deterministic
    assert not set("│┃━─┏┡") & set(out)  # plain text off a terminal, as every command
    assert [line.split()[0] for line in out.splitlines()].count("total") == 1


def test_json_output() -> None:
    data = run_json(*ISSUE_ARGS)
    assert {"status", "goal", "buy", "cost_items", "gold_spent", "scholars", "all_eight"} <= set(
        data
    )
    assert data["exit_code"] == 0
    assert (data["status"], data["goal"], data["buy"]) == (
        "OPTIMAL",
        "scholars",
        ["monarchy", "roads"],
    )
    assert [(i["know_how"], i["price"], i["scholars"]) for i in data["cost_items"]] == [
        ("monarchy", 7, 1),
        ("roads", 10, 1),
    ]
    assert (data["gold_spent"], data["scholars"], data["all_eight"]) == (17, 2, False)
    methods = data["methods"]
    assert set(methods) == {"cp-sat", "search"}
    assert methods["cp-sat"]["buy"] == methods["search"]["buy"] == ["monarchy", "roads"]
    assert methods["cp-sat"]["status"] == methods["search"]["status"] == "OPTIMAL"


def test_seed_example() -> None:
    data = run_json(*SEED_ARGS)
    assert data["buy"] == ["sailing", "navigation"]
    assert [i["price"] for i in data["cost_items"]] == [3, 10]
    assert (data["gold_spent"], data["scholars"]) == (13, 1)


def test_unaffordable_wanted_set_is_infeasible() -> None:
    args = [
        "plan",
        "--gold",
        "12",
        "--goal",
        "cheapest",
        "--want",
        "navigation",
        "--others",
        "sailing",
    ]
    result = run(*args)
    assert result.exit_code == 1
    assert "status: INFEASIBLE" in result.stdout
    assert "cost 13 gold, more than 12" in result.stdout
    data = run_json(*args)
    assert (data["exit_code"], data["status"], data["buy"], data["gold_spent"]) == (
        1,
        "INFEASIBLE",
        [],
        None,
    )


def test_all_eight_flag() -> None:
    data = run_json("plan", "--gold", "68")
    assert data["all_eight"] is True and data["scholars"] == 8
    assert "all eight know-hows: yes" in run("plan", "--gold", "68").stdout


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--gold", "20", "--have", "wheel,steam"], "error: --have: unknown know-how 'steam'"),
        (["--gold", "20", "--others", "Sails"], "error: --others: unknown know-how 'sails'"),
        (
            ["--gold", "20", "--want", "x", "--goal", "cheapest"],
            "error: --want: unknown know-how 'x'",
        ),
        (["--gold", "-5"], "error: --gold: must be a whole number from 0 to 1000000, got '-5'"),
        (["--gold", "lots"], "error: --gold: must be a whole number from 0 to 1000000, got 'lots'"),
        (["--gold", "5", "--goal", "fame"], "error: --goal: must be 'scholars' or 'cheapest'"),
        (["--gold", "5", "--goal", "cheapest"], "error: --want: the 'cheapest' goal needs"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], expected: str) -> None:
    result = run("plan", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(expected)
    assert "Traceback" not in result.output


@pytest.mark.parametrize("option", ["--have", "--others", "--want", "--goal", "--gold"])
def test_a_long_bad_value_is_quoted_short(option: str) -> None:
    """An error quotes at most about 80 characters of a bad value (README, exit codes)."""
    args = ["--gold", "5", option, "z" * 5000] if option != "--gold" else ["--gold", "9" * 5000]
    result = run("plan", *args)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {option}:")
    assert len(lines[0]) < 400 and "(5000 characters)" in lines[0]


def test_mounted_as_heritage_antike() -> None:
    """The main app mounts this one: ``python -m cli.app antike plan`` behaves the same."""
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root), "COLUMNS": "100"}
    done = subprocess.run(
        [sys.executable, "-m", "cli.app", "antike", *SEED_ARGS, "--json"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["gold_spent"] == 13
    bad = subprocess.run(
        [sys.executable, "-m", "cli.app", "antike", "plan", "--gold", "-1"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stderr.strip() == "error: --gold: must be a whole number from 0 to 1000000, got '-1'"
