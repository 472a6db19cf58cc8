"""Setups from what a user gives: a line file's ``setup`` object (with the chest file it names
loaded here, so that the engine reads no files).
"""

from __future__ import annotations

from typing import Any

from puzzles.chests import load_chests
from solver.engine.chestcards import ChestDataError
from solver.engine.errors import SetupError
from solver.engine.setup import Setup


def setup_from_json(data: Any, where: str = "setup") -> Setup:
    """`Setup.from_json` with the chest file the setup names (``chests.file``) loaded.

    :raises SetupError: the setup is malformed or its chest file cannot be read."""
    chest_data = None
    if isinstance(data, dict):
        chests = data.get("chests")
        if isinstance(chests, dict) and (chests.get("goals") or chests.get("under")
                                         or chests.get("revealed")):
            name = chests.get("file")
            try:
                chest_data = load_chests("default" if name is None else str(name))
            except ChestDataError as exc:
                raise SetupError(f"{where}: {exc}") from None
    return Setup.from_json(data, where, chest_data=chest_data)
