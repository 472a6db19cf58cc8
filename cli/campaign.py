"""``heritage campaign``: Campaign mode (RULES.md section 10) across games, kept in a file.

    heritage campaign new camp.json --seed 7            # all 15 chests unrevealed
    heritage campaign next camp.json --out g1.json      # the next game's setup (5 chests revealed)
    heritage campaign play camp.json --out g1-line.json # play it (random policy), or play it yourself
    heritage campaign record camp.json g1-line.json     # decks, VP, rank, achieved goals updated
    heritage campaign show camp.json

The goal choice (1-5 of the revealed chests) and the mid-game revision are decisions inside the
game (notation ``chest:Б``); a game line is checked by replaying it before it is recorded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from cli.common import Output, domain_errors, fail, write_out
from cli.options import CardsOption, ChestsOption, DieSeedOption, JsonOption, PolicySeedOption
from cli.play import play_random, print_score
from puzzles import campaign as C
from puzzles.chests import DEFAULT
from puzzles.deal import load_cards, setup_from_json
from puzzles.lines import book_for, read_line_file
from solver.engine.actions import CHEST_LETTERS
from solver.engine.record import dumps

campaign_app = typer.Typer(
    name="campaign",
    help="Campaign mode: a campaign-state file (chest decks 1/2/3, games, last VP, goals "
    "achieved out of 15); build the next game's setup, play it, record it.",
    no_args_is_help=True,
    add_completion=False,
)

CampaignFile = Annotated[Path, typer.Argument(metavar="CAMPAIGN.json", help="The campaign-state file.")]


def _show(c: C.Campaign, out: Output) -> None:
    rank = C.rank_for(c.last_vp)
    out.line(f"Campaign (seed {c.seed}{', Worthiest Heir' if c.worthiest_heir else ''}): "
             f"{c.status}; {len(c.games)} game(s) played; goals achieved {c.achieved}/15")
    last = "-" if c.last_vp is None else str(c.last_vp)
    out.line(f"Last VP {last}: rank {rank.name} (next game: {rank.extra_discards} more card(s) "
             f"discarded, time card in space {rank.time_space})")
    rows = [["unrevealed", " ".join(c.decks["unrevealed"]) or "-"],
            ["1 (may be tried again)", " ".join(c.decks["1"]) or "-"],
            ["2 (achieved, under the board next)", " ".join(c.decks["2"]) or "-"],
            ["3 (used up)", " ".join(c.decks["3"]) or "-"]]
    out.table("Chest decks", ["deck", "chests"], rows)
    if c.games:
        out.table("Games", ["game", "VP", "goals", "met"],
                  [[str(g["game"]), str(g["vp"]), " ".join(g["goals"]), " ".join(g["met"])]
                   for g in c.games], right=("game", "VP"))
    if c.next_game is not None:
        ch = c.next_game.get("chests", {})
        out.line(f"Next game pending: revealed {' '.join(ch.get('revealed', []))}; under the "
                 f"board {' '.join(ch.get('under', [])) or '-'}")


@campaign_app.command("new")
@domain_errors
def new_command(
    path: CampaignFile,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the chest reveals and deals.")] = 0,
    chests: ChestsOption = None,
    worthiest_heir: Annotated[
        bool, typer.Option("--worthiest-heir",
                           help="Take all 5 revealed chests each game; win in 3 games.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Start a campaign: all 15 chests unrevealed, no game played."""
    if path.exists() and not force:
        fail(f"{path}: exists; use --force to start a new campaign over it")
    c = C.new_campaign(seed, DEFAULT if chests is None else str(chests), worthiest_heir)
    C.save(c, path)
    _show(c, Output())


@campaign_app.command("show")
@domain_errors
def show_command(path: CampaignFile, json_output: JsonOption = False) -> None:
    """Print the campaign's state."""
    c = C.load(path)
    if json_output:
        typer.echo(json.dumps(c.to_json(), indent=1, ensure_ascii=False))
        return
    _show(c, Output())


@campaign_app.command("next")
@domain_errors
def next_command(
    path: CampaignFile,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the deal (default: "
                                             "derived from the campaign seed and game number).")] = None,
    die_seed: DieSeedOption = None,
    cards: CardsOption = None,
    out_file: Annotated[Path | None, typer.Option("--out", metavar="FILE",
                                                  help="Write the setup JSON here.")] = None,
    json_output: JsonOption = False,
) -> None:
    """Build the next game's setup: draw 10, 5 chests revealed (D17) to choose goals from in the
    game, achieved chests under the board, the last game's rank. The campaign file records it."""
    c = C.load(path)
    _, card_sets = load_cards(cards)
    setup = C.next_setup(c, seed=seed, die_seed=die_seed, card_sets=card_sets)
    C.save(c, path)
    text = json.dumps(setup.to_json(), indent=1, ensure_ascii=False) + "\n"
    write_out(out_file, text, "setup")
    if json_output:
        typer.echo(text, nl=False)
        return
    out = Output()
    rank = C.rank_for(c.last_vp)
    out.line(f"Game {len(c.games) + 1}: seed {setup.seed}; rank {rank.name}: keep "
             f"{6 - setup.extra_discards} of 10, time card in space {setup.time_space}")
    data = setup.chest_data
    assert data is not None
    for ch in setup.revealed:
        chest = data[CHEST_LETTERS.index(ch)]
        out.line(f"  revealed {ch} {chest.name}: goal {chest.goal_text}")
    for ch in setup.under:
        chest = data[CHEST_LETTERS.index(ch)]
        out.line(f"  under the board {ch} {chest.name}: [{chest.moment}] {chest.effect_text}")


@campaign_app.command("play")
@domain_errors
def play_command(
    path: CampaignFile,
    policy_seed: PolicySeedOption = None,
    out_file: Annotated[Path | None, typer.Option("--out", metavar="FILE",
                                                  help="Write the game's line file here.")] = None,
    json_output: JsonOption = False,
) -> None:
    """Play the pending game with the random policy and print (or write) its line file."""
    c = C.load(path)
    if c.next_game is None:
        fail(f"{path}: field 'next_game' = null: run `heritage campaign next` first")
    setup = setup_from_json(c.next_game)
    book = book_for(setup, path.parent)
    record = play_random(setup, book, setup.seed if policy_seed is None else policy_seed)
    text = dumps(record.to_json())
    write_out(out_file, text)
    if json_output:
        typer.echo(text, nl=False)
        return
    out = Output()
    for g in record.to_json()["goals"]:
        out.line(f"goal {g['chest']}: {g['goal']}: {'met' if g['met'] else 'NOT met'}")
    print_score(out, record.state.score())


@campaign_app.command("record")
@domain_errors
def record_command(
    path: CampaignFile,
    game: Annotated[Path, typer.Argument(metavar="GAME.json",
                                         help="The finished game's line file.")],
    json_output: JsonOption = False,
) -> None:
    """Update the campaign from a finished game: achieved goals to deck 2, chests that were under
    the board to deck 3, the others back to deck 1; VP and rank; a failed goal ends the campaign,
    all 15 achieved wins it."""
    c = C.load(path)
    data = read_line_file(game)
    c = C.record_game(c, data, str(game), base_dir=game.parent)
    C.save(c, path)
    if json_output:
        typer.echo(json.dumps(c.to_json(), indent=1, ensure_ascii=False))
        return
    _show(c, Output())
