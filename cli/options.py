"""The options the `heritage` commands share, each defined once as a Typer ``Annotated`` type,
and the small dataclasses that carry a command's options to the library.

A command lists the options it takes with these types (``hand: HandOption = "1"``), so that
``play``, ``solve``, ``check`` and ``campaign`` spell, document and parse an option the same
way; options that mean something else in one command (``--json``, ``--out``, the campaign's
seeds) stay with that command.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Annotated

import typer

from solver.search.tt import DEFAULT_MEMORY_MB

# ------------------------------------------------------------------ the deal

TrialOption = Annotated[int | None, typer.Option(
    "--trial", metavar="N",
    help="Trial N of the Trial Table (heritage trials): its goal chests must all be met (hard "
    "constraints of a solve), its effect chests are usable.")]
HandOption = Annotated[str, typer.Option(
    "--hand", metavar="{1,2,3,4,draw,FILE}",
    help="Premade starting hand 1-4, 'draw' (draw 10, keep 6: a decision of the game, part of "
    "a solution), or a file listing 6 card codes.")]
#: Seeds are 64-bit (`solver.rng`): a larger one would silently deal the game of another seed.
SEED_MAX = 2**64 - 1


def check_seed(value: int | None) -> int | None:
    """A seed option's value, refused (exit 2) unless it is 0 to `SEED_MAX`. A check rather than
    Typer's ``min``/``max``, which would print the 20-digit range beside every seed in ``--help``
    (the option shows ``SEED`` there)."""
    if value is not None and not 0 <= value <= SEED_MAX:
        raise typer.BadParameter("a seed is a whole number from 0 to 2^64 - 1")
    return value


SeedOption = Annotated[int, typer.Option(
    "--seed", metavar="SEED", callback=check_seed,
    help="Seed of the deal (builder and technology decks, and the die unless --die-seed), and "
    "of every reshuffle of a deck that runs out during play (also with --deck and "
    "--tech-deck-1/2: a real table's reshuffle differs from there on).")]
DieSeedOption = Annotated[int | None, typer.Option(
    "--die-seed", metavar="SEED", callback=check_seed,
    help="Seed of the die rolls (default: --seed).")]
DeckOption = Annotated[Path | None, typer.Option(
    "--deck", metavar="FILE",
    help="Explicit builder deck: a file listing every remaining deck card, top first.")]
DiceOption = Annotated[str | None, typer.Option(
    "--dice", metavar="2,5,1,...",
    help="Explicit die rolls (1-6), one per technology phase; overrides --die-seed.")]
TimeSpaceOption = Annotated[int, typer.Option(
    "--time-space", metavar="N", min=3, max=4,
    help="Timeline space of the time card at setup: 4 (16 turns) or 3 (15).")]
TechDeck1Option = Annotated[str | None, typer.Option(
    "--tech-deck-1", metavar="T3,T17,...|FILE",
    help="The Level I technology deck, top first, before the tiles are filled (its first 3 "
    "cards fill tile A, the next 3 tile B): card codes, or a file listing them. A partial "
    "order gives the top cards; the rest is shuffled from --seed.")]
TechDeck2Option = Annotated[str | None, typer.Option(
    "--tech-deck-2", metavar="T30,T41,...|FILE",
    help="The Level II technology deck, top first (its first 3 cards fill tile C); partial "
    "orders as --tech-deck-1.")]
PolicySeedOption = Annotated[int | None, typer.Option(
    "--policy-seed", metavar="SEED", callback=check_seed,
    help="Seed of the random policy (default: the seed of the deal: --seed, or the campaign "
    "game's).")]

# ------------------------------------------------------------------ data files

CardsOption = Annotated[list[str] | None, typer.Option(
    "--cards", metavar="SET",
    help="Card set added to the base set: 'heritage' or a card-set JSON file "
    "(puzzles/data/CARD_FORMAT.md). Repeat to add sets. Default: the base set alone.")]
NoBaseOption = Annotated[bool, typer.Option(
    "--no-base", help="Play with the --cards sets only, without the base set (a set that "
    "leaves no playable game is refused).")]
ChestsOption = Annotated[Path | None, typer.Option(
    "--chests", metavar="FILE",
    help="A chest file replacing the shipped chests (puzzles/data/CHEST_FORMAT.md).")]
TrialsOption = Annotated[Path | None, typer.Option(
    "--trials", metavar="FILE",
    help="A trial-table file replacing the shipped one (puzzles/data/CHEST_FORMAT.md).")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON on stdout instead of text.")]

# ------------------------------------------------------------------ printing a line

NotationOption = Annotated[bool, typer.Option(
    "--notation", help="Also print each step's decisions in notation (as the line file "
    "writes them) beside its words.")]
ShowDealOption = Annotated[bool, typer.Option(
    "--deal", help="Print the whole deal above the line (builder deck, technology decks and "
    "tiles, die rolls; top first), to stack a physical game.")]
PlotOption = Annotated[Path | None, typer.Option(
    "--plot", metavar="FILE.png", help="Draw the line: each monument as a bar from its "
    "creation to its decline, artifacts and technologies by turn, the running score "
    "(needs matplotlib: pip install 'heritage\\[plot]').")]

# ------------------------------------------------------------------ a solve

TimeLimitOption = Annotated[float | None, typer.Option(
    "--time-limit", metavar="SECONDS", help="Wall-clock budget of the search, kept by every phase "
    "(CP-SAT calls included) within 5% + 0.5 s; not reproducible across machines (use "
    "--node-limit for that).")]
NodeLimitOption = Annotated[int | None, typer.Option(
    "--node-limit", metavar="K", help="Budget in search nodes (decisions played by the heuristic "
    "plus positions of the exact search), a total over the workers (the heuristic finishes the "
    "playout it is in: up to a playout over it per worker): the same inputs give the same line. "
    "Default 200000 when no --time-limit is given.")]
WorkersOption = Annotated[int, typer.Option(
    "--workers", metavar="W", help="Processes for the heuristic search, and for the exact "
    "search under --time-limit (it cuts the tree into subtrees the processes share out; "
    "node-limited it runs in one process). Under --time-limit at most the cores this process "
    "may use (more are capped, with a note); under a node limit W processes share the cores, "
    "so the same inputs and W give the same line on any machine. At most 256.")]
#: The bound ``solve``, ``check`` and ``campaign solve`` use unless ``--bound`` says otherwise:
#: measured on the 24 trial deals at 30 s and 2 workers (one run a side, compiled), the
#: constraint layer's root bound 434-444 against the simple bound's 552-565, mean VP 69.6
#: against 67.9, the line's last turns proven optimal on 20 deals against 15; node-limited it
#: costs a few seconds more (the root call, ~1 deterministic s) and finds goal-meeting lines the
#: simple bound's search missed. ``sweep`` and ``analyse`` run many solves: they keep "simple".
SOLVE_BOUND = "cpsat"
#: The bound of the commands that run many solves (``sweep``, ``analyse``): cheap per solve.
MANY_SOLVES_BOUND = "simple"
BoundOption = Annotated[str, typer.Option(
    "--bound", metavar="{simple,cpsat}", help="Bound of the exact search: 'cpsat' (the "
    "constraint layer: a far tighter bound, near the end a proof, at the start an INFEASIBLE "
    "proof when the goals cannot be met, a plan that guides the search; a root call of about "
    "a second first) or 'simple' (cheap: for many deals quickly).")]
TTMemoryOption = Annotated[float, typer.Option(
    "--tt-memory", metavar="MB", min=1.0, max=1_048_576.0,
    help="Memory cap of the exact search's transposition table, in MiB (default 1024: a solve "
    "stays under about 2 GB). A full table forgets its oldest positions: a smaller cap can "
    "cost time, never the optimum.")]
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
    tech_deck_1: str | None = None
    tech_deck_2: str | None = None
    no_base: bool = False


def deal_options_given(deal: DealOptions) -> list[str]:
    """The deal options given other than their defaults, as typed (``--trial``...)."""
    default = DealOptions()
    return [f"--{f.name.replace('_', '-')}" for f in fields(DealOptions)
            if getattr(deal, f.name) != getattr(default, f.name)]


@dataclass(frozen=True)
class SolveOptions:
    """The options ``solve`` and ``check`` share: the deal (or ``--from``) and the budget."""

    deal: DealOptions
    from_file: Path | None = None
    time_limit: float | None = None
    node_limit: int | None = None
    workers: int = 1
    bound: str = SOLVE_BOUND
    tt_memory: float = DEFAULT_MEMORY_MB


@dataclass(frozen=True)
class ViewOptions:
    """How a line is printed: with its notation, with the deal above it, and its picture."""

    notation: bool = False
    deal: bool = False
    plot: Path | None = None
