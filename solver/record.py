"""Game records and the line-file JSON contract.

A *line* is the list of decisions of one game, in notation (`solver.actions`), grouped by turn:
``line[t]`` holds the decisions taken while ``state.turn == t``; ``line[0]`` holds the setup
decisions (keep 6 of 10, RULES.md section 3.4). Only real choices are written: a decision with a
single option is taken by the engine itself (`solver.flow`), so it never appears in a line.

A line file is one JSON object::

    {"setup": {...Setup.to_json()...},
     "line": [[...turn 0...], [...turn 1...], ...],
     "score": {"past": 29, "effects": 18, "technologies": 31, "timeline": 1,
               "lost_knowledge": -32, "total": 47},
     "goals": [...]}

``score`` is the five-row score sheet (RULES.md section 7, D1) of the final position (``null``
for an unfinished position), ``goals`` the trial goals (`solver.goals.goals_json`, empty without
a trial). `replay` checks a whole game; `load_position` reads a setup plus a line prefix.

A replay refuses a line whose card sets changed since it was written (the card indices, and so
the deal, depend on the exact files: their sha256 is in the setup).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.actions import NotationError
from solver.cards import CardBook
from solver.errors import CardDataError, HeritageError, IllegalActionError, SetupError
from solver.frames import DECISION_NAMES
from solver.setup import Setup, new_game
from solver.state import GameState

SCORE_ROWS = ("past", "effects", "technologies", "timeline", "lost_knowledge", "total")


class LineError(HeritageError, ValueError):
    """A line file that cannot be replayed.

    ``malformed`` is True when the file itself is unusable (wrong shape, a bad setup, a card set
    that changed or cannot be read): nothing can be said about the game. It is False when the
    file is well formed but the game it describes is not legal (an illegal step, an unfinished
    game, a wrong claimed score)."""

    def __init__(self, message: str, malformed: bool) -> None:
        super().__init__(message)
        self.malformed = malformed


def goals_json(st: GameState) -> list[Any]:
    """The trial goals of a position, from `solver.goals.goals_json` when the trial layer
    provides it (RULES.md section 8), else an empty list."""
    from solver import goals

    hook = getattr(goals, "goals_json", None)
    if hook is None:
        return []
    result = hook(st)
    return list(result)


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


# ---------------------------------------------------------------------------- reading lines

def _malformed(message: str) -> LineError:
    return LineError(message, malformed=True)


def _card_set_path(name: str, base_dir: Path | None) -> Path:
    from puzzles.cardsets import resolve_set

    path = resolve_set(name)
    if base_dir is not None and not path.is_absolute() and not path.exists():
        alt = base_dir / path
        if alt.exists():
            return alt
    return path


def book_for(setup: Setup, base_dir: Path | None = None) -> CardBook:
    """The card book a setup was dealt with, refusing changed card sets.

    Names ``base`` and ``heritage`` are the built-in sets; any other name is a file path
    (relative paths are tried from the working directory, then from `base_dir`).

    :raises LineError: no card set named, a set unreadable or malformed, or its sha256 differs."""
    from puzzles.cardsets import load_book

    if not setup.card_sets:
        raise _malformed("setup.card_sets: empty; name the card sets the line was played with")
    paths = [str(_card_set_path(name, base_dir)) for name, _ in setup.card_sets]
    try:
        book = load_book(paths)
    except CardDataError as exc:
        raise _malformed(f"setup.card_sets: {exc}") from None
    for (name, want), (_, have) in zip(setup.card_sets, book.sets, strict=True):
        if want != have:
            raise _malformed(
                f"setup.card_sets: card set {name} has changed since this line was written "
                f"(sha256 {have[:12]}..., the line expects {want[:12]}...)")
    return book


def _setup_of(data: Any) -> Setup:
    if not isinstance(data, dict):
        raise _malformed(f"expected a JSON object with 'setup' and 'line', got {_short(data)}")
    if "setup" not in data:
        raise _malformed("setup: missing")
    try:
        return Setup.from_json(data["setup"])
    except SetupError as exc:
        raise _malformed(f"setup: {exc}" if not str(exc).startswith("setup") else str(exc)) from None


def _line_of(data: dict[str, Any]) -> list[list[str]]:
    if "line" not in data:
        raise _malformed("line: missing")
    line = data["line"]
    if not isinstance(line, list):
        raise _malformed(f"line: expected a list of turns, got {_short(line)}")
    for t, turn in enumerate(line):
        if not isinstance(turn, list):
            raise _malformed(f"line[{t}]: expected a list of decisions, got {_short(turn)}")
        for k, text in enumerate(turn):
            if not isinstance(text, str):
                raise _malformed(f"line[{t}][{k}]: expected a decision in notation, got {_short(text)}")
    return line


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if value is not None else "null"
    return text if len(text) <= 40 else text[:37] + "..."


def _deal(data: Any, base_dir: Path | None) -> tuple[GameRecord, list[list[str]]]:
    setup = _setup_of(data)
    line = _line_of(data)
    book = book_for(setup, base_dir)
    try:
        record = GameRecord.new(setup, book)
    except SetupError as exc:
        raise _malformed(f"setup: {exc}") from None
    return record, line


def _follow(record: GameRecord, line: Sequence[Sequence[str]]) -> None:
    """Apply the decisions of `line` to `record`, each under the turn it is written in.

    :raises LineError: (not malformed) at the first decision that is not legal there."""
    st = record.state
    for t, turn in enumerate(line):
        for k, text in enumerate(turn, start=1):
            where = f"turn {t}, decision {k}"
            if st.is_terminal():
                raise LineError(f"{where}: {text!r} comes after the end of the game", False)
            if st.turn < t:
                raise LineError(
                    f"turn {st.turn}: the line gives no more decisions but the game waits "
                    f"({pending_name(st)}; legal: {legal_text(st)})", False)
            if st.turn > t:
                raise LineError(
                    f"{where}: {text!r} comes after turn {t} ended (the game is at turn "
                    f"{st.turn})", False)
            try:
                action = st.string_to_action(text)
            except NotationError:
                action = -1
            if action not in st.legal:
                raise LineError(
                    f"{where}: {text!r} is not legal here ({pending_name(st)}; legal: "
                    f"{legal_text(st)})", False)
            record.apply(action)


def load_position(data: Any, base_dir: Path | None = None) -> GameRecord:
    """A position: the setup dealt and a prefix of its line applied (it may be unfinished).

    :raises LineError: a malformed file (``malformed``) or an illegal decision (not)."""
    record, line = _deal(data, base_dir)
    _follow(record, line)
    return record


def replay(data: Any, base_dir: Path | None = None) -> tuple[GameRecord | None, str | None]:
    """Check a whole game: deal the setup, apply every decision checking its legality, require
    the end of the game, compare the claimed score and goals with the recomputed ones.

    Returns ``(record, None)`` for a valid line. Otherwise the error message, with ``None`` as
    the record when the file itself is unusable (malformed, card set changed), else the record
    as far as it could be replayed."""
    try:
        record, line = _deal(data, base_dir)
    except LineError as exc:
        return None, str(exc)
    try:
        _follow(record, line)
    except LineError as exc:
        return record, str(exc)
    st = record.state
    if not st.is_terminal():
        return record, (
            f"turn {st.turn}: the line ends before the game is over ({pending_name(st)}; "
            f"legal: {legal_text(st)})")
    claimed = data.get("score")
    if claimed is not None:
        if not isinstance(claimed, dict):
            return None, f"score: expected an object of the five rows and total, got {_short(claimed)}"
        have = st.score().as_dict()
        for row in SCORE_ROWS:
            if row in claimed and claimed[row] != have[row]:
                return record, (
                    f"score: the line claims {row} {_short(claimed[row])}, the replay scores "
                    f"{have[row]}")
        unknown = sorted(set(claimed) - set(SCORE_ROWS))
        if unknown:
            return None, f"score: unknown row {unknown[0]!r}"
    claimed_goals = data.get("goals")
    if claimed_goals is not None:
        have_goals = goals_json(st)
        if claimed_goals != have_goals:
            return record, (
                f"goals: the line claims {_short(claimed_goals)}, the replay gives "
                f"{_short(have_goals)}")
    return record, None
