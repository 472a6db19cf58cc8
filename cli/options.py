"""The options the `heritage` commands share, each defined once as a Typer ``Annotated`` type,
and the small dataclasses that carry a command's options to the library.

A command lists the options it takes with these types (``hand: HandOption = "1"``), so that
``play``, ``solve``, ``check`` and ``campaign`` spell, document and parse an option the same
way; options that mean something else in one command (``--json``, ``--out``, the campaign's
seeds) stay with that command.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

# ------------------------------------------------------------------ the deal

TrialOption = Annotated[int | None, typer.Option(
    "--trial", metavar="N",
    help="Trial N of the Trial Table (heritage trials): its goal chests must all be met (hard "
    "constraints of a solve), its effect chests are usable.")]
HandOption = Annotated[str, typer.Option(
    "--hand", metavar="{1,2,3,4,draw,FILE}",
    help="Premade starting hand 1-4, 'draw' (draw 10, keep 6: a decision of the game, part of "
    "a solution), or a file listing 6 card codes.")]
SeedOption = Annotated[int, typer.Option(
    "--seed", help="Seed of the deal (builder and technology decks, and the die unless "
    "--die-seed).")]
DieSeedOption = Annotated[int | None, typer.Option(
    "--die-seed", help="Seed of the die rolls (default: --seed).")]
DeckOption = Annotated[Path | None, typer.Option(
    "--deck", metavar="FILE",
    help="Explicit builder deck: a file listing every remaining deck card, top first.")]
DiceOption = Annotated[str | None, typer.Option(
    "--dice", metavar="2,5,1,...",
    help="Explicit die rolls (1-6), one per technology phase; overrides --die-seed.")]
TimeSpaceOption = Annotated[int, typer.Option(
    "--time-space", min=3, max=4,
    help="Timeline space of the time card at setup: 4 (16 turns) or 3 (15).")]
PolicySeedOption = Annotated[int | None, typer.Option(
    "--policy-seed", help="Seed of the random policy (default: the seed of the deal, --seed).")]

# ------------------------------------------------------------------ data files

CardsOption = Annotated[list[str] | None, typer.Option(
    "--cards", metavar="SET",
    help="Card set to play with: 'base', 'heritage' or a card-set JSON file "
    "(puzzles/data/CARD_FORMAT.md). Repeat to add sets. Default: base.")]
ChestsOption = Annotated[Path | None, typer.Option(
    "--chests", metavar="FILE",
    help="A chest file replacing the shipped chests (puzzles/data/CHEST_FORMAT.md).")]
TrialsOption = Annotated[Path | None, typer.Option(
    "--trials", metavar="FILE",
    help="A trial-table file replacing the shipped one (puzzles/data/CHEST_FORMAT.md).")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON on stdout instead of text.")]

# ------------------------------------------------------------------ a solve

TimeLimitOption = Annotated[float | None, typer.Option(
    "--time-limit", metavar="SECONDS", help="Wall-clock budget (not reproducible across machines; "
    "use --node-limit for that).")]
NodeLimitOption = Annotated[int | None, typer.Option(
    "--node-limit", metavar="K", help="Budget in search nodes (decisions played by the heuristic "
    "plus positions of the exact search): the same inputs give the same line. Default 200000 "
    "when no --time-limit is given.")]
WorkersOption = Annotated[int, typer.Option(
    "--workers", metavar="W", help="Processes for the heuristic search.")]
BoundOption = Annotated[str, typer.Option(
    "--bound", metavar="{simple,cpsat}", help="Bound of the exact search: 'simple', or 'cpsat' "
    "(the constraint layer: a tighter bound near the end, an INFEASIBLE proof at the start "
    "when the goals cannot be met, a plan that orders the search).")]
FromOption = Annotated[Path | None, typer.Option(
    "--from", metavar="POSITION.json", help="Solve from a position: a line file whose line is a "
    "prefix of a game (its setup replaces the deal options).")]


@dataclass(frozen=True)
class DealOptions:
    """The deal options of a command (`puzzles.deal.build_setup` reads them)."""

    hand: str = "1"
    seed: int = 0
    die_seed: int | None = None
    deck: Path | None = None
    dice: str | None = None
    time_space: int = 4
    trial: int | None = None
    cards: list[str] | None = None
    chests: Path | None = None
    trials: Path | None = None


@dataclass(frozen=True)
class SolveOptions:
    """The options ``solve`` and ``check`` share: the deal (or ``--from``) and the budget."""

    deal: DealOptions
    from_file: Path | None = None
    time_limit: float | None = None
    node_limit: int | None = None
    workers: int = 1
    bound: str = "simple"
