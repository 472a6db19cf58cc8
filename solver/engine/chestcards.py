"""Chest cards as data (RULES.md section 8): a chest's goal, its effect and its moment, and the
set of 15 a chest file gives. Loaded by `puzzles.chests`; played by `solver.engine.chests`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from solver.engine.actions import CHEST_LETTERS
from solver.engine.cards import Step
from solver.engine.errors import HeritageError
from solver.engine.goals import Goal
from solver.frozen import Frozen


class ChestDataError(HeritageError, ValueError):
    """A chest or trial file is malformed: names the file, the chest, the field and the value."""


@dataclass(frozen=True, slots=True)
class Part(Frozen):
    """Provenance of one printed part of a chest: known from the rulebook, inferred from its
    worked example, or a stand-in (RULES.md section 8: everything else is unknown)."""

    stand_in: bool = True
    inferred: bool = False
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Chest(Frozen):
    """One chest card: its goal (upper part) and its effect (lower part) with its moment."""

    letter: str
    index: int
    name: str
    goal: Goal
    moment: str
    steps: tuple[Step, ...]
    effect_text: str
    name_part: Part = field(default_factory=Part)
    goal_part: Part = field(default_factory=Part)
    effect_part: Part = field(default_factory=Part)

    @property
    def goal_text(self) -> str:
        return str(self.goal)

    @property
    def inferred(self) -> bool:
        """The goal is inferred from the rulebook's worked example (D14)."""
        return self.goal_part.inferred


@dataclass(frozen=True, slots=True)
class ChestSet(Frozen):
    """The 15 chests of a chest file, indexed by letter (`chests[k]` is letter k)."""

    chests: tuple[Chest, ...]
    source: str  # "default" or the file path
    sha256: str
    #: The sha256 of earlier revisions the file declares the same game (``same_game_as``: only
    #: wording or provenance marks changed), so setups written with them still load.
    same_game_as: tuple[str, ...] = ()

    def matches(self, sha256: str) -> bool:
        """Whether a setup written with the file of hash `sha256` plays this file's game."""
        return sha256 == self.sha256 or sha256 in self.same_game_as

    def __getitem__(self, letter: int) -> Chest:
        return self.chests[letter]

    def __iter__(self) -> Iterator[Chest]:
        return iter(self.chests)

    def __len__(self) -> int:
        return len(self.chests)


def letter(k: int) -> str:
    """The rulebook letter of chest index `k` (RULES.md section 1)."""
    return CHEST_LETTERS[k]
