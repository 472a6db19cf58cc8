"""``heritage play``: deal one game and play it with a policy, printing the game turn by turn.

The only policy for now is ``random``: at each decision it takes ``legal[k]`` with ``k`` drawn
from its own SplitMix64 stream ``(policy_seed, "policy", 0)`` (`solver.rng`), so a seed means
the same game everywhere. ``heritage solve`` will replace this command as the main job once the
solver exists.
"""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from cli.common import (
    CardsOption,
    Output,
    domain_errors,
    fail,
    load_cards,
    note,
    read_json,
    write_out,
)
from cli.trials import ChestsOption, TrialsOption
from puzzles.chests import DEFAULT
from puzzles.trials import with_trial
from solver.engine.cards import CardBook
from solver.engine.coverage import card_implemented
from solver.engine.describe import TurnReport, describe_line
from solver.engine.errors import SetupError
from solver.engine.goal_check import goals_json
from solver.engine.record import GameRecord, dumps
from solver.engine.scoring import ScoreSheet
from solver.engine.setup import Setup
from solver.rng import Stream

PREMADE = ("1", "2", "3", "4", "draw")
SCORE_LABELS = (
    ("past", "Monuments in the Past"),
    ("effects", "End-game effects"),
    ("technologies", "Technologies"),
    ("timeline", "Monuments in the Timeline"),
    ("lost_knowledge", "Lost knowledge"),
)


class Policy(StrEnum):
    RANDOM = "random"


def read_codes(path: Path, option: str) -> tuple[str, ...]:
    """Card codes or ids from a file: a JSON list (or an object with a ``cards`` list), or
    text with codes separated by spaces, commas or lines (``#`` starts a comment)."""
    if not path.is_file():
        what = "1, 2, 3, 4, draw or a readable file" if option == "--hand" else "a readable file"
        fail(f"{option}: {str(path)!r} is not {what}")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"{option}: cannot read {path} ({exc})")
    if text.lstrip().startswith(("[", "{")):
        data = read_json(path)
        if isinstance(data, dict):
            data = data.get("cards")
        if not isinstance(data, list) or not all(isinstance(c, str) for c in data):
            fail(f"{path}: expected a JSON list of card codes, or an object with a 'cards' list")
        return tuple(data)
    words: list[str] = []
    for row in text.splitlines():
        words += [w for w in re.split(r"[\s,]+", row.split("#", 1)[0]) if w]
    return tuple(words)


def parse_dice(text: str) -> tuple[int, ...]:
    values = []
    for word in (w.strip() for w in text.split(",")):
        if not word.lstrip("-").isdigit():
            fail(f"--dice: {word!r} is not a whole number (expected values 1-6 like 2,5,1)")
        values.append(int(word))
    return tuple(values)


def build_setup(hand: str, seed: int, die_seed: int | None, deck: Path | None,
                dice: str | None, time_space: int, card_sets: tuple[tuple[str, str], ...],
                book: CardBook) -> Setup:
    """The `Setup` of the options (RULES.md section 3), or exit 2 naming the bad input."""
    hand_cards: tuple[str, ...] = ()
    hand_spec = hand
    if hand not in PREMADE:
        hand_cards = read_codes(Path(hand), "--hand")
        hand_spec = "list"
    deck_cards = read_codes(deck, "--deck") if deck is not None else None
    restricted = any(not card_implemented(c) for c in book.cards)
    if restricted:
        lacking = sum(1 for c in book.cards if not card_implemented(c))
        note(f"note: {lacking} card{'' if lacking == 1 else 's'} without an implemented effect "
             "left out of the deal (restricted_to_implemented)")
    source = {"hand": hand if hand_spec == "list" else "--hand",
              "deck": str(deck), "dice": "--dice", "time_space": "--time-space"}
    try:
        setup = Setup(hand=hand_spec, hand_cards=hand_cards, seed=seed, die_seed=die_seed,
                      deck=deck_cards, dice=None if dice is None else parse_dice(dice),
                      time_space=time_space, card_sets=card_sets, restricted=restricted)
        GameRecord.new(setup, book)  # deal once to check the hand and the deck
    except SetupError as exc:
        field, _, rest = str(exc).partition(": ")
        fail(f"{source[field]}: {rest}" if field in source and rest else str(exc))
    return setup


def play_random(setup: Setup, book: CardBook, policy_seed: int) -> GameRecord:
    """Play a whole game choosing uniformly among the legal options (its own stream)."""
    record = GameRecord.new(setup, book)
    stream = Stream(policy_seed, "policy", 0)
    st = record.state
    while not st.is_terminal():
        legal = st.legal_actions()
        record.apply(legal[stream.below(len(legal))])
    return record


def describe_setup(setup: Setup) -> str:
    hand = {"draw": "draw 10, keep 6", "list": "from a file"}.get(setup.hand, f"premade {setup.hand}")
    die = "given" if setup.dice is not None else (
        f"seed {setup.seed if setup.die_seed is None else setup.die_seed}")
    deck = ", deck order given" if setup.deck is not None else ""
    sets = ", ".join(n for n, _ in setup.card_sets)
    return (f"Hand {hand}; seed {setup.seed}{deck}; die {die}; time card in space "
            f"{setup.time_space}; cards {sets}")


def print_log(out: Output, reports: list[TurnReport]) -> None:
    """The turn-by-turn log: the phrases, the automatic events (``-``), the summary (``=``)."""
    for rep in reports:
        out.heading(rep.title)
        for phrase in rep.phrases:
            out.line(f"  {phrase}")
        for event in rep.events:
            out.line(f"  - {event}", style="dim")
        out.line(f"  = {rep.summary()}", style="cyan")


def print_score(out: Output, sheet: ScoreSheet) -> None:
    """The five rows of the score sheet and the total (RULES.md section 7)."""
    values = sheet.as_dict()
    rows = [[label, str(values[key])] for key, label in SCORE_LABELS]
    rows.append(["Total", str(sheet.total)])
    out.table("Score sheet", ["row", "VP"], rows, right=("VP",))


@domain_errors
def play_command(
    seed: Annotated[int, typer.Option("--seed", help="Seed of the deal (builder and "
                                      "technology decks, and the die unless --die-seed).")] = 0,
    hand: Annotated[
        str,
        typer.Option("--hand", metavar="{1,2,3,4,draw,FILE}",
                     help="Premade starting hand 1-4, 'draw' (draw 10, keep 6: a decision), "
                     "or a file listing 6 card codes."),
    ] = "1",
    die_seed: Annotated[
        int | None, typer.Option("--die-seed", help="Seed of the die rolls (default: --seed).")
    ] = None,
    deck: Annotated[
        Path | None,
        typer.Option("--deck", metavar="FILE",
                     help="Explicit builder deck: a file listing every remaining deck card, top "
                     "first."),
    ] = None,
    dice: Annotated[
        str | None,
        typer.Option("--dice", metavar="2,5,1,...",
                     help="Explicit die rolls (1-6), one per technology phase; overrides "
                     "--die-seed."),
    ] = None,
    time_space: Annotated[
        int, typer.Option("--time-space", min=3, max=4,
                          help="Timeline space of the time card at setup: 4 (16 turns) or 3 (15).")
    ] = 4,
    policy: Annotated[
        Policy, typer.Option("--policy", help="How decisions are taken.")
    ] = Policy.RANDOM,
    policy_seed: Annotated[
        int | None, typer.Option("--policy-seed", help="Seed of the policy (default: --seed).")
    ] = None,
    cards: CardsOption = None,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the game's line file (JSON) instead of the log.")
    ] = False,
    out_file: Annotated[
        Path | None, typer.Option("--out", metavar="FILE", help="Also write the line file here.")
    ] = None,
    trial: Annotated[
        int | None, typer.Option("--trial", metavar="N", help="Play trial N of the Trial Table "
                                 "(heritage trials): its goal and effect chests.")
    ] = None,
    chests: ChestsOption = None,
    trials: TrialsOption = None,
) -> None:
    """Play one seeded game with the random policy: the turn-by-turn log and the score sheet."""
    del policy  # the only policy so far
    book, card_sets = load_cards(cards)
    setup = build_setup(hand, seed, die_seed, deck, dice, time_space, card_sets, book)
    if trial is not None:  # RULES.md section 9 (puzzles.trials)
        setup = with_trial(setup, trial, str(chests or DEFAULT), str(trials or DEFAULT))
    record = play_random(setup, book, seed if policy_seed is None else policy_seed)
    text = dumps(record.to_json())
    write_out(out_file, text)
    if json_output:
        typer.echo(text, nl=False)
        return
    out = Output()
    out.line(describe_setup(setup))
    print_log(out, describe_line(setup, book, record.line))
    out.line()
    print_score(out, record.state.score())
    goals = goals_json(record.state)  # a trial's goal chests (RULES.md section 8)
    for g in goals:
        out.line(f"Goal {g['chest']}: {g['goal']}: {'met' if g['met'] else 'NOT met'}")
    if goals:
        out.line("Trial passed" if all(g["met"] for g in goals) else "Trial failed")
