"""Game records and the line-file JSON contract.

A *line* is the list of decisions of one game, in notation (`solver.engine.actions`), grouped by
turn: ``line[t]`` holds the decisions taken while ``state.turn == t``; ``line[0]`` holds the setup
decisions (keep 6 of 10, RULES.md section 3.4). Only real choices are written: a decision with a
single option is taken by the engine itself (`solver.engine.flow`), so it never appears in a line.

A line file is one JSON object::

    {"format": 4,
     "setup": {...Setup.to_json()...},
     "line": [[...turn 0...], [...turn 1...], ...],
     "score": {"past": 29, "effects": 18, "technologies": 31, "timeline": 1,
               "lost_knowledge": -32, "total": 47},
     "goals": [...]}

``score`` is the five-row score sheet (RULES.md section 7, D1) of the final position (``null``
for an unfinished position), ``goals`` the trial goals (`solver.engine.goal_check.goals_json`, empty
without a trial). ``format`` is the version of this contract (`LINE_FORMAT`); a file without it
is format 1, read as before: format 2 names the data files of the setup (a card-set file, a chest
or trial file) by paths relative to the line file, and gives one die roll per technology phase
exactly; format 3 adds the lightning windows between two effects resolving in the player's order
and between two declines (`solver.engine.chests`), format 4 the other lightning windows of the
decline phase and the one before the middle-of-game flip: a line of an earlier format is read
with ``done`` at the windows it did not know (`solver.engine.chests.window_since`). Every later
change to the contract bumps it. Reading and checking line files is
`puzzles.lines` (`replay`, `load_position`); their claims, `puzzles.claims`.

A replay refuses a line whose card sets changed since it was written (the card indices, and so
the deal, depend on the exact files: their sha256 is in the setup).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from solver.engine.actions import NotationError
from solver.engine.cards import CardBook
from solver.engine.errors import HeritageError, IllegalActionError
from solver.engine.frames import DECISION_NAMES
from solver.engine.goal_check import goals_json
from solver.engine.newgame import new_game
from solver.engine.setup import Setup
from solver.engine.state import GameState

SCORE_ROWS = ("past", "effects", "technologies", "timeline", "lost_knowledge", "total")
#: The line-file format this engine writes (module docstring); it reads formats 1 to this.
LINE_FORMAT = 4


class LineError(HeritageError, ValueError):
    """A line file that cannot be replayed.

    ``malformed`` is True when the file itself is unusable (wrong shape, a bad setup, a card set
    that changed or cannot be read): nothing can be said about the game. It is False when the
    file is well formed but the game it describes is not legal (an illegal step, an unfinished
    game, a wrong claimed score)."""

    def __init__(self, message: str, malformed: bool) -> None:
        super().__init__(message)
        self.malformed = malformed


@dataclass
class GameRecord:
    """One game: its setup, the engine state, and the decisions taken so far by turn."""

    setup: Setup
    state: GameState
    line: list[list[str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._pad()

    @staticmethod
    def new(setup: Setup, book: CardBook) -> GameRecord:
        """Deal the game of `setup` (RULES.md section 3) and start an empty record."""
        return GameRecord(setup, new_game(setup, book))

    @property
    def book(self) -> CardBook:
        return self.state.book

    def _pad(self) -> None:
        """Keep one (possibly empty) list per turn from 0 to the current turn."""
        while len(self.line) <= self.state.turn:
            self.line.append([])

    def apply(self, action: int) -> None:
        """Take one option of the pending decision and write it under the current turn.

        :raises IllegalActionError: the action is not an option of the pending decision."""
        st = self.state
        if action not in st.legal:
            raise IllegalActionError(
                f"{action_name(st, action)!r} is not legal here (legal: {legal_text(st)})")
        text = st.action_to_string(action)
        self._pad()
        self.line[st.turn].append(text)
        st.apply(action)
        self._pad()

    def apply_notation(self, text: str) -> None:
        """Take a decision given in notation (``"create"``, ``"C5"``, ``"s3"``...).

        :raises IllegalActionError: it names nothing, or nothing legal here."""
        try:
            action = self.state.string_to_action(text)
        except NotationError:
            raise IllegalActionError(
                f"{text!r} is not legal here (legal: {legal_text(self.state)})") from None
        self.apply(action)

    def clone(self) -> GameRecord:
        return GameRecord(self.setup, self.state.clone(), [list(t) for t in self.line])

    def decisions(self) -> Iterator[tuple[int, int, str]]:
        """(turn, 1-based index within the turn, notation) of every recorded decision."""
        for t, turn in enumerate(self.line):
            for k, text in enumerate(turn, start=1):
                yield t, k, text

    def score_json(self) -> dict[str, int] | None:
        """The five rows and the total, or None while the game is not over."""
        if not self.state.is_terminal():
            return None
        return self.state.score().as_dict()

    def to_json(self) -> dict[str, Any]:
        """The line-file object (module docstring)."""
        self._pad()
        return {
            "format": LINE_FORMAT,
            "setup": self.setup.to_json(),
            "line": [list(t) for t in self.line],
            "score": self.score_json(),
            "goals": goals_json(self.state),
        }


def action_name(st: GameState, action: int) -> str:
    try:
        return st.action_to_string(action)
    except (NotationError, IndexError):
        return str(action)


def legal_text(st: GameState) -> str:
    """The pending decision's options in notation, for messages."""
    if not st.legal:
        return "none, the game is over" if st.is_terminal() else "none"
    return ", ".join(st.action_to_string(a) for a in st.legal)


def pending_name(st: GameState) -> str:
    fr = st.pending()
    if fr is None:
        return "nothing (the game is over)"
    return DECISION_NAMES.get(fr[0], "a decision")


def dumps(data: dict[str, Any]) -> str:
    """A line file as text: indented JSON with each turn of the line on one row (stable, so
    the same game always gives the same bytes)."""
    parts = []
    for key, value in data.items():
        if key == "line" and isinstance(value, list) and value:
            rows = ",\n    ".join(json.dumps(t, ensure_ascii=False) for t in value)
            text = "[\n    " + rows + "\n  ]"
        else:
            text = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  ")
        parts.append(f"  {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n}\n"
