"""``heritage deal``: the whole deal of a setup, to stack a physical game and play a line at the
table (`puzzles.table.Deal`).

It takes the deal options of ``play``/``solve`` and prints the starting hand, the builder deck
(top first), the three technology tiles, both technology decks (top first: their first cards
are the ones on the tiles) and the die roll of each technology phase; ``--json`` prints the
same with the setup (a line file's ``setup`` object: ``heritage solve --from`` accepts the
output of ``--out`` as a position).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cli.common import Output, deal_setup, domain_errors, line_text, new_position, write_out
from cli.lineview import print_deal, print_header
from cli.options import (
    CardsOption,
    ChestsOption,
    DealOptions,
    DeckOption,
    DiceOption,
    DieSeedOption,
    HandOption,
    JsonOption,
    NoBaseOption,
    SeedOption,
    TechDeck1Option,
    TechDeck2Option,
    TimeSpaceOption,
    TrialOption,
    TrialsOption,
)
from puzzles.table import deal_of


@domain_errors
def deal_command(
    trial: TrialOption = None,
    hand: HandOption = "1",
    seed: SeedOption = 0,
    die_seed: DieSeedOption = None,
    deck: DeckOption = None,
    dice: DiceOption = None,
    time_space: TimeSpaceOption = 4,
    tech_deck_1: TechDeck1Option = None,
    tech_deck_2: TechDeck2Option = None,
    cards: CardsOption = None,
    no_base: NoBaseOption = False,
    chests: ChestsOption = None,
    trials: TrialsOption = None,
    json_output: JsonOption = False,
    out_file: Annotated[Path | None, typer.Option(
        "--out", metavar="FILE", help="Also write the JSON (setup and deal) here; it is a "
        "position that 'heritage solve --from' accepts.")] = None,
) -> None:
    """Print the whole deal of these options: hand, builder deck, tiles, technology decks (top
    first) and die rolls, to stack a physical game."""
    book, setup = deal_setup(DealOptions(
        hand=hand, seed=seed, die_seed=die_seed, deck=deck, dice=dice, time_space=time_space,
        trial=trial, cards=cards, chests=chests, trials=trials, tech_deck_1=tech_deck_1,
        tech_deck_2=tech_deck_2, no_base=no_base))
    data = new_position(setup, deal=deal_of(setup, book).to_json())
    write_out(out_file, line_text(data, out_file), "deal")
    if json_output:
        typer.echo(line_text(data, None), nl=False)
        return
    out = Output()
    print_header(out, setup, book)
    print_deal(out, setup, book)
