"""A game a person plays with the engine as referee: answers, undo and hints.

A `Session` holds the game record (`solver.engine.record.GameRecord`) and takes the player's
answers to the pending decision: the number of an option in the list `options` shows (1 is the
first), or the option's notation (``create``, ``C5``, ``s3``...). Only real choices are asked:
a decision with a single option is taken by the engine itself (`solver.engine.flow`), so undo
takes back the last decision the player took, with the forced steps after it.

A hint is a solve (`solver.solve.solve`) from the current position within a small budget: the
first decision of the best line found, and that line's final VP and goals.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.analysis.position import option_phrase
from solver.engine.actions import NotationError
from solver.engine.errors import HeritageError, IllegalActionError
from solver.engine.record import GameRecord
from solver.search.status import Status
from solver.solve import SolveConfig, solve


class AnswerError(HeritageError, ValueError):
    """An answer that names no option of the pending decision."""


@dataclass(frozen=True)
class Option:
    """One option of the pending decision, as the player sees it."""

    number: int  # 1-based
    action: int
    notation: str
    phrase: str


@dataclass(frozen=True)
class Hint:
    """The solver's advice: the first decision of the best line found from the position."""

    option: Option
    vp: int  # the final VP of that line
    goals_met: bool
    status: Status  # OPTIMAL: proven best from here; else the best found within the budget
    nodes: int


class Session:
    """One game being played (see the module)."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record

    @property
    def over(self) -> bool:
        return self.record.state.is_terminal()

    @property
    def decisions(self) -> int:
        """How many decisions the player took so far."""
        return sum(len(turn) for turn in self.record.line)

    def options(self) -> list[Option]:
        """The options of the pending decision, numbered from 1 in the engine's order."""
        st = self.record.state
        return [Option(n, a, st.action_to_string(a), option_phrase(st, a))
                for n, a in enumerate(st.legal, start=1)]

    def parse(self, answer: str) -> Option:
        """The option an answer names: its number, or its notation.

        :raises AnswerError: it names no option (the message lists the valid answers)."""
        options = self.options()
        text = answer.strip()
        if not options:
            raise AnswerError("the game is over: there is no decision to take")
        if text.isdigit():
            n = int(text)
            if 1 <= n <= len(options):
                return options[n - 1]
            raise AnswerError(f"{text!r}: choose a number from 1 to {len(options)}")
        try:
            action = self.record.state.string_to_action(text)
        except NotationError:
            action = -1
        for opt in options:
            if opt.action == action:
                return opt
        valid = ", ".join(o.notation for o in options)
        raise AnswerError(f"{text!r} is not an option here (answer 1-{len(options)} or one "
                          f"of: {valid})")

    def take(self, option: Option) -> None:
        """Take an option of the pending decision."""
        try:
            self.record.apply(option.action)
        except IllegalActionError as exc:  # an option of an older position
            raise AnswerError(str(exc)) from None

    def undo(self) -> bool:
        """Take back the last decision the player took (False: none to take back). The game
        is dealt again and replayed without it, so forced steps are undone with it."""
        line = [list(turn) for turn in self.record.line]
        while line and not line[-1]:
            line.pop()
        if not line:
            return False
        line[-1].pop()
        fresh = GameRecord.new(self.record.setup, self.record.book)
        for turn in line:
            for text in turn:
                fresh.apply_notation(text)
        self.record = fresh
        return True

    def hint(self, config: SolveConfig) -> Hint | None:
        """The best next decision within the budget of `config` (None at the end of the
        game). Ctrl-C stops the search and gives the best found so far."""
        st = self.record.state
        if st.is_terminal():
            return None
        res = solve(st, config)
        vp: float | None = res.value
        line, goals = res.line, True
        if vp is None:
            vp, line, goals = res.failed_value, res.failed_line, False
        if not line or vp is None:
            return None
        option = next(o for o in self.options() if o.action == line[0])
        return Hint(option, int(vp), goals, res.status, res.nodes)
