"""The solo game as an OpenSpiel Python game (``python_heritage``), for OpenSpiel's algorithms.

OpenSpiel (google-deepmind/open_spiel) runs its algorithms on any game that implements its
small state protocol; this adapter wraps our engine (`solver.engine.state.GameState`) in it, so that
OpenSpiel's Python ``MCTSBot`` (`open_spiel.python.algorithms.mcts`) can play our game as a
benchmark baseline (`benchmarks.baselines`).

The game as OpenSpiel sees it (`GAME_TYPE`, `game_info`):

* one player, sequential, deterministic (the deal, the decks and the die rolls are fixed by the
  setup's seeds: RULES.md section 3), perfect information for the player's planning purposes;
* actions are the engine's codes ``kind << 10 | value`` (`solver.engine.actions`), all below
  `solver.engine.actions.ACTION_SPACE`; the legal ones are listed in ascending order, as OpenSpiel
  asks;
* terminal reward only, in ``[0, 1]`` as UCT expects, of one of two kinds (`REWARDS`):
  ``shaped`` (the default, `shaped_reward`): the order in which NRPA ranks finished lines
  (`solver.search.nrpa`): every line meeting every goal chest (RULES.md section 8) above every
  line missing one, then more VP, a missed line losing one VP per unit of goal shortfall;
  ``binary`` (`binary_reward`, the baseline before issue 13): ``clip(VP / 100, 0, 1)`` when
  every goal is met, ``0`` when one is missed;
* game parameters: ``trial`` (0: none), ``hand`` (``"1"``-``"4"`` or ``"draw"``), ``seed``,
  ``position`` (a position file, `puzzles.lines.load_position`; it replaces the others)
  and ``reward`` (``"shaped"`` or ``"binary"``).

`make_game(root=state)` builds the game from any engine position, which is how the benchmark
uses it. The adapter counts the engine decisions applied through it and remembers the best
goal-meeting terminal any state of the game reached (`PlayoutLog`): MCTS's rollouts are lines
too, and the benchmark reports them.

open-spiel is an optional dependency (``pip install 'heritage[bench]'``). This module imports
without it; `load_pyspiel` and `make_game` raise `OpenSpielUnavailable` then. The game is
registered with OpenSpiel only when `register` is called (no import side effect).
"""

from __future__ import annotations

import copy
import functools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from puzzles.deal import build_setup, load_cards
from puzzles.lines import load_position_file
from solver.engine.actions import ACTION_SPACE
from solver.engine.goal_check import goal_shortfall
from solver.engine.newgame import new_game
from solver.engine.state import GameState

GAME_NAME = "python_heritage"
#: Longest game OpenSpiel is told about; real games take about 55-150 decisions.
MAX_GAME_LENGTH = 2000
#: Binary reward: VP of a reward of 1 (rewards are clipped to [0, 1]).
VP_SCALE = 100.0
#: Shaped reward: a line meeting every goal scores in [MET_FLOOR, 1], one missing a goal in
#: [0, MISSED_CEILING]; the gap between them keeps the two apart after rounding.
MET_FLOOR = 0.5
MISSED_CEILING = 0.45
#: Shaped reward: the VP (less shortfall, for a missed line) at the middle of its range, and the
#: VP over which the logistic rises from about 27% to 73% of it (real lines score 40-100 VP).
VP_CENTRE = 50.0
VP_WIDTH = 25.0
#: Default game parameters (``trial`` 0 means no trial).
DEFAULT_PARAMS: dict[str, Any] = {"trial": 1, "hand": "1", "seed": 0, "position": "",
                                  "reward": "shaped"}


class OpenSpielUnavailable(ImportError):
    """The ``open-spiel`` package is not installed (it is the optional extra ``bench``)."""


def available() -> bool:
    """True when ``pyspiel`` can be imported."""
    try:
        load_pyspiel()
    except OpenSpielUnavailable:
        return False
    return True


def load_pyspiel() -> ModuleType:
    """The ``pyspiel`` module, or `OpenSpielUnavailable` naming the install command."""
    try:
        import pyspiel  # lazy: open-spiel is optional (the extra ``bench``)
    except ImportError as exc:
        raise OpenSpielUnavailable(
            "open-spiel is not installed: pip install 'heritage[bench]' (or pip install "
            f"open-spiel) to use the OpenSpiel adapter ({exc})") from None
    module: ModuleType = pyspiel
    return module


def binary_reward(st: GameState) -> float:
    """The binary terminal reward: VP / `VP_SCALE` clipped to [0, 1] when every goal chest is
    met (RULES.md section 8), else 0; 0 for an unfinished game."""
    if not st.is_terminal() or not st.feasible():
        return 0.0
    return min(1.0, max(0.0, st.value() / VP_SCALE))


def _squash(x: float) -> float:
    """A logistic of `x` into (0, 1), increasing; linear enough over real scores (module
    constants `VP_CENTRE`, `VP_WIDTH`)."""
    z = (x - VP_CENTRE) / VP_WIDTH
    if z < 0:  # the two forms avoid exp overflow at either end
        e = math.exp(z)
        return e / (1.0 + e)
    return 1.0 / (1.0 + math.exp(-z))


def shaped_value(vp: float, goals_met: bool, shortfall: float) -> float:
    """The shaped reward of a finished line, in [0, 1], ordered as NRPA ranks its playouts
    (`solver.search.nrpa.NRPA.playout`: ``VP`` for a line meeting every goal, ``VP - penalty -
    shortfall`` for one missing a goal, the penalty exceeding any VP range):

    * a line meeting every goal scores ``MET_FLOOR + (1 - MET_FLOOR) * squash(VP)`` in
      [`MET_FLOOR`, 1], above any line missing a goal;
    * a line missing a goal scores ``MISSED_CEILING * squash(VP - shortfall)`` in
      [0, `MISSED_CEILING`]: more VP is better, a smaller shortfall is better, one unit of
      shortfall weighing one VP as in NRPA.

    `squash` is a logistic, increasing everywhere, so ties fall where NRPA's scores tie (up to
    floating point far outside the range of real scores)."""
    if goals_met:
        return MET_FLOOR + (1.0 - MET_FLOOR) * _squash(vp)
    return MISSED_CEILING * _squash(vp - shortfall)


def shaped_reward(st: GameState) -> float:
    """The shaped terminal reward (`shaped_value`) of a finished game; 0 for an unfinished one.
    The shortfall is `goal_shortfall`, the measure of NRPA's `solver.game.HeritageGame.shortfall`
    (RULES.md section 8)."""
    if not st.is_terminal():
        return 0.0
    met = st.feasible()
    return shaped_value(st.value(), met, 0.0 if met else float(goal_shortfall(st)))


#: The terminal rewards by name (game parameter ``reward``).
REWARDS: dict[str, Callable[[GameState], float]] = {"shaped": shaped_reward,
                                                   "binary": binary_reward}


def reward(st: GameState, kind: str = "shaped") -> float:
    """The terminal reward of kind `kind` (`REWARDS`) of `st`.

    :raises ValueError: an unknown kind."""
    return reward_function(kind)(st)


def reward_function(kind: str) -> Callable[[GameState], float]:
    """The reward function named `kind` (`REWARDS`).

    :raises ValueError: an unknown kind."""
    try:
        return REWARDS[kind]
    except KeyError:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {kind!r}") from None


@dataclass
class PlayoutLog:
    """What every state of one game object did: engine decisions applied, terminals reached,
    and the best goal-meeting terminal (its VP, its actions from the root, when it was found)."""

    started: float = field(default_factory=time.monotonic)
    decisions: int = 0
    terminals: int = 0
    best_vp: float = -math.inf
    best_line: list[int] = field(default_factory=list)
    found_at: float = 0.0
    improvements: list[tuple[float, float]] = field(default_factory=list)

    def observe(self, st: GameState, line: list[int]) -> None:
        """Record a terminal reached by the actions `line` from the game's root."""
        self.terminals += 1
        if st.feasible() and st.value() > self.best_vp:
            self.best_vp = st.value()
            self.best_line = line
            self.found_at = time.monotonic() - self.started
            self.improvements.append((self.found_at, self.best_vp))


class _Engine:
    """The engine state held by an OpenSpiel state. OpenSpiel clones a Python state by
    deep-copying each attribute; this box copies itself with the engine's cheap `clone` (the
    card book and the setup are shared, never copied) and keeps the game object shared."""

    __slots__ = ("game", "st")

    def __init__(self, st: GameState, game: Any) -> None:
        self.st = st
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.st.clone(), self.game)


def root_from_params(params: dict[str, Any]) -> GameState:
    """The engine position of the game parameters (see the module docstring).

    :raises HeritageError: a bad trial, hand or position file (from the loaders)."""
    position = str(params.get("position") or "")
    if position:
        return load_position_file(Path(position)).state
    book, card_sets = load_cards(["base"])
    trial = int(params.get("trial", 0))
    setup = build_setup(book, card_sets, hand=str(params.get("hand", "1")),
                        seed=int(params.get("seed", 0)), trial=trial or None)
    return new_game(setup, book)


@functools.cache
def _classes() -> tuple[Any, Any, Any]:
    """Define the OpenSpiel game and state classes (once; needs ``pyspiel``)."""
    pyspiel = load_pyspiel()
    game_type = pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Ancient Knowledge: Heritage (solo, trial goals as hard constraints)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=1,
        min_num_players=1,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification=dict(DEFAULT_PARAMS),
    )

    class HeritageGame(pyspiel.Game):  # type: ignore[misc,name-defined]
        """The OpenSpiel game of one engine root position (a deal, or a saved position)."""

        def __init__(self, params: dict[str, Any] | None = None,
                     root: GameState | None = None) -> None:
            merged = dict(DEFAULT_PARAMS)
            merged.update(params or {})
            super().__init__(game_type, game_info(), merged)
            self.root = root.clone() if root is not None else root_from_params(merged)
            self.reward_of = reward_function(str(merged.get("reward") or "shaped"))
            self.log = PlayoutLog()

        def new_initial_state(self) -> HeritageState:
            return HeritageState(self)

    class HeritageState(pyspiel.State):  # type: ignore[misc,name-defined]
        """One position: the engine state in a box (see `_Engine`)."""

        def __init__(self, game: HeritageGame) -> None:
            super().__init__(game)
            self.engine = _Engine(game.root.clone(), game)

        @property
        def st(self) -> GameState:
            """The engine state (do not change it behind OpenSpiel's back)."""
            return self.engine.st

        def current_player(self) -> int:
            return int(pyspiel.PlayerId.TERMINAL) if self.engine.st.is_terminal() else 0

        def _legal_actions(self, player: int) -> list[int]:
            return sorted(self.engine.st.legal_actions())

        def _apply_action(self, action: int) -> None:
            st = self.engine.st
            st.apply(action)
            log = self.engine.game.log
            log.decisions += 1
            if st.is_terminal():
                # OpenSpiel appends the action to the history after this hook returns.
                log.observe(st, [*self.history(), action])

        def _action_to_string(self, player: int, action: int) -> str:
            return self.engine.st.action_to_string(action)

        def is_terminal(self) -> bool:
            return self.engine.st.is_terminal()

        def returns(self) -> list[float]:
            return [self.engine.game.reward_of(self.engine.st)]

        def rewards(self) -> list[float]:
            return self.returns()

        def __str__(self) -> str:
            st = self.engine.st
            if st.is_terminal():
                return f"game over: VP {st.value():g}, goals {'met' if st.feasible() else 'missed'}"
            cards = st.book.cards
            hand = " ".join(cards[c].code for c in st.hand)
            legal = " ".join(st.action_to_string(a) for a in st.legal_actions())
            return (f"turn {st.turn}, hand [{hand}], past {len(st.past)}, lost {st.lost}, "
                    f"history {len(self.history())}; options: {legal}")

    return game_type, HeritageGame, HeritageState


def game_info() -> Any:
    """OpenSpiel's `GameInfo` of the game (module docstring)."""
    pyspiel = load_pyspiel()
    return pyspiel.GameInfo(
        num_distinct_actions=ACTION_SPACE,
        max_chance_outcomes=0,
        num_players=1,
        min_utility=0.0,
        max_utility=1.0,
        utility_sum=None,
        max_game_length=MAX_GAME_LENGTH,
    )


@functools.cache
def register() -> str:
    """Register ``python_heritage`` with OpenSpiel (once), so that
    ``pyspiel.load_game("python_heritage", {...})`` works; returns the name."""
    pyspiel = load_pyspiel()
    game_type, game_class, _ = _classes()
    pyspiel.register_game(game_type, game_class)
    return GAME_NAME


def make_game(root: GameState | None = None, **params: Any) -> Any:
    """A fresh game object: of the engine position `root` (copied), else of `params`; the
    parameter ``reward`` (``"shaped"`` or ``"binary"``) applies either way.

    :raises OpenSpielUnavailable: open-spiel is not installed.
    :raises ValueError: an unknown reward."""
    _, game_class, _ = _classes()
    return game_class(params, root=root)


def engine_state(state: Any) -> GameState:
    """The engine state inside an OpenSpiel state of this game (a copy)."""
    box: _Engine = copy.deepcopy(state.engine)
    return box.st
