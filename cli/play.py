"""``heritage play``: deal one game and play it with a policy, printing the game turn by turn
(`cli.lineview` lays it out).

The only policy for now is ``random``: at each decision it takes ``legal[k]`` with ``k`` drawn
from its own SplitMix64 stream ``(policy_seed, "policy", 0)`` (`solver.rng`,
`solver.search.playout`), so a seed means the same game everywhere. ``heritage solve`` finds
the best line of a deal; ``play --interactive`` lets you play it yourself.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from cli.common import (
    Output,
    check_out,
    deal_setup,
    domain_errors,
    fail,
    line_text,
    refuse_deal_beside_from,
    write_out,
)
from cli.lineview import print_game
from cli.options import (
    CardsOption,
    ChestsOption,
    DealOptions,
    DeckOption,
    DiceOption,
    DieSeedOption,
    HandOption,
    NoBaseOption,
    NotationOption,
    PolicySeedOption,
    SeedOption,
    ShowDealOption,
    TechDeck1Option,
    TechDeck2Option,
    TimeSpaceOption,
    TrialOption,
    TrialsOption,
)
from puzzles.table import goal_rows
from solver.engine.cards import CardBook
from solver.engine.record import GameRecord
from solver.engine.setup import Setup
from solver.rng import Stream
from solver.search.playout import random_playout


class Policy(StrEnum):
    RANDOM = "random"


def play_random(setup: Setup, book: CardBook, policy_seed: int) -> GameRecord:
    """Play a whole game choosing uniformly among the legal options
    (`solver.search.playout.random_playout`, stream ``(policy_seed, "policy", 0)``)."""
    record = GameRecord.new(setup, book)
    for action in random_playout(record.state.clone(), Stream(policy_seed, "policy", 0)):
        record.apply(action)
    return record


@domain_errors
def play_command(
    seed: SeedOption = 0,
    hand: HandOption = "1",
    die_seed: DieSeedOption = None,
    deck: DeckOption = None,
    dice: DiceOption = None,
    time_space: TimeSpaceOption = 4,
    policy: Annotated[
        Policy, typer.Option("--policy", help="How decisions are taken.")
    ] = Policy.RANDOM,
    policy_seed: PolicySeedOption = None,
    cards: CardsOption = None,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the game's line file (JSON) instead of the log.")
    ] = False,
    out_file: Annotated[
        Path | None, typer.Option("--out", metavar="FILE", help="Also write the line file here.")
    ] = None,
    trial: TrialOption = None,
    chests: ChestsOption = None,
    trials: TrialsOption = None,
    tech_deck_1: TechDeck1Option = None,
    tech_deck_2: TechDeck2Option = None,
    no_base: NoBaseOption = False,
    notation: NotationOption = False,
    show_deal: ShowDealOption = False,
    interactive: Annotated[bool, typer.Option(
        "--interactive", help="Play the game yourself at the terminal (or from piped answers, "
        "one a line): numbered options, undo, hint, save FILE, quit; the finished game goes "
        "to --out (default heritage-game.json).")] = False,
    from_file: Annotated[Path | None, typer.Option(
        "--from", metavar="POSITION.json", help="With --interactive: go on with a saved game "
        "(its setup replaces the deal options).")] = None,
    hint_time: Annotated[float | None, typer.Option(
        "--hint-time", metavar="SECONDS", help="With --interactive: the solver's budget for a "
        "hint (default 3 s).")] = None,
    hint_nodes: Annotated[int | None, typer.Option(
        "--hint-nodes", metavar="K", help="With --interactive: a hint's budget in search nodes "
        "instead (reproducible).")] = None,
) -> None:
    """Play one seeded game with the random policy: the turn-by-turn log and the score sheet;
    or (--interactive) play it yourself, answer by answer (`cli.interactive`)."""
    del policy  # the only policy so far
    deal = DealOptions(hand=hand, seed=seed, die_seed=die_seed, deck=deck, dice=dice,
                       time_space=time_space, trial=trial, cards=cards, chests=chests,
                       trials=trials, tech_deck_1=tech_deck_1, tech_deck_2=tech_deck_2,
                       no_base=no_base)
    check_out(out_file)
    hints = [o for o, v in (("--hint-time", hint_time), ("--hint-nodes", hint_nodes))
             if v is not None]
    if hints and not interactive:
        fail(f"{' and '.join(hints)} need --interactive (the hints of a game played by hand)")
    if interactive or from_file is not None:  # cli.interactive
        if not interactive or json_output:
            fail("--from needs --interactive" if not interactive
                 else "--json: not with --interactive (the game goes to --out)")
        if notation:
            fail("--notation: not with --interactive (each option shows its notation)")
        if policy_seed is not None:
            fail("--policy-seed: not with --interactive (the random policy's seed; you play)")
        refuse_deal_beside_from(deal, from_file)
        from cli.interactive import play_interactive  # lazy: start-up (no solver)

        play_interactive(deal, from_file, out_file, hint_time, hint_nodes, show_deal=show_deal)
        return
    book, setup = deal_setup(deal)
    record = play_random(setup, book, seed if policy_seed is None else policy_seed)
    write_out(out_file, line_text(record.to_json(), out_file))
    if json_output:
        typer.echo(line_text(record.to_json(), None), nl=False)
        return
    out = Output()
    print_game(out, record, notation=notation, deal=show_deal)
    goals = goal_rows(record.state)  # a trial's goal chests (RULES.md section 8)
    if goals:
        out.line("Trial passed" if all(g[-1] == "met" for g in goals) else "Trial failed")
