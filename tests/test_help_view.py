"""Every command's ``--help`` (`cli.helpview`): no type column for a flag, no 20-digit range
beside a seed, a group's subcommands summarised on one line each."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from cli.app import COMMANDS, app
from cli.helpview import summary, tidy_help

RUNNER = CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1"})


def _paths() -> list[list[str]]:
    """Every command and subcommand of `heritage`, as the words that name it."""
    paths: list[list[str]] = []
    for command in COMMANDS:
        loaded = command.load()
        paths.append([command.name])
        paths.extend([command.name, sub] for sub in getattr(loaded, "commands", {}))
    return paths


PATHS = _paths()


def test_every_command_is_reached() -> None:
    names = {" ".join(p) for p in PATHS}
    assert {"solve", "play", "campaign next", "sweep run", "antike plan"} <= names


@pytest.mark.parametrize("words", PATHS, ids=[" ".join(p) for p in PATHS])
def test_help_shows_no_bool_type_and_no_seed_range(words: list[str]) -> None:
    result = RUNNER.invoke(app, [*words, "--help"])
    assert result.exit_code == 0, result.output
    assert "<bool>" not in result.stdout
    assert "<int range>" not in result.stdout
    assert str(2**64 - 1) not in result.stdout


def test_seed_shows_its_name() -> None:
    text = RUNNER.invoke(app, ["solve", "--help"]).stdout
    assert any("--seed" in line and "SEED" in line for line in text.splitlines())


def test_summary_joins_the_first_paragraph() -> None:
    assert summary("Update the campaign: goals to deck 2, chests\n    under the board.\n\n"
                   "More words.") == "Update the campaign: goals to deck 2, chests under the board."
    assert summary("  One line.  ") == "One line."


def _group(name: str) -> Any:
    return next(c for c in COMMANDS if c.name == name).load()


@pytest.mark.parametrize("name", [c.name for c in COMMANDS if c.group])
def test_subcommands_are_summarised_on_one_line(name: str) -> None:
    group = _group(name)
    for sub in group.commands.values():
        assert sub.short_help == summary(sub.help)
        assert "\n" not in sub.short_help


def test_campaign_listing_does_not_break_mid_sentence() -> None:
    """The docstring of ``campaign record`` breaks its line after "under"; the listing reads on
    ("under the board" on one line at 100 columns)."""
    text = RUNNER.invoke(app, ["campaign", "--help"]).stdout
    assert "under the board" in text


def test_tidy_help_keeps_a_given_metavar_and_short_help() -> None:
    group = _group("campaign")
    sub = next(iter(group.commands.values()))
    sub.short_help = "Mine."
    flag = next(p for p in sub.params if getattr(p, "is_flag", False))
    flag.metavar = "X"
    tidy_help(group)
    assert sub.short_help == "Mine." and flag.metavar == "X"
