"""``heritage campaign``: Campaign mode (RULES.md section 10) across games, kept in a file.

    heritage campaign new camp.json --seed 7            # all 15 chests unrevealed
    heritage campaign next camp.json --out g1.json      # the next game (5 chests revealed)
    heritage campaign solve camp.json --node-limit 50000 --out g1-line.json  # solve it
    heritage campaign play camp.json --out g1-line.json # play it (random policy), or yourself
    heritage campaign record camp.json g1-line.json     # decks, VP, rank, achieved goals updated
    heritage campaign show camp.json

The goal choice (1-5 of the revealed chests) and the mid-game revision are decisions inside the
game (notation ``chest:Б``); a game line is checked by replaying it before it is recorded.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated

import typer

from cli.common import (
    Output,
    check_out,
    domain_errors,
    fail,
    line_text,
    new_position,
    write_out,
)
from cli.lineview import print_goals, print_score
from cli.options import (
    SOLVE_BOUND,
    BoundOption,
    CardsOption,
    ChestsOption,
    DealOptions,
    DieSeedOption,
    JsonOption,
    NodeLimitOption,
    NotationOption,
    PlotOption,
    PolicySeedOption,
    ShowDealOption,
    SolveOptions,
    TimeLimitOption,
    ViewOptions,
    WorkersOption,
    check_seed,
)
from cli.play import play_random
from cli.solve import solve_position
from puzzles import campaign as C
from puzzles.chests import DEFAULT
from puzzles.deal import load_cards, setup_from_json
from puzzles.lines import book_for, read_line_file
from puzzles.table import STAND_IN_NOTE, chest_effect_text, chest_goal_text, has_stand_ins
from solver.engine.actions import (
    CHEST,
    CHEST_LETTERS,
    CHEST_PICK,
    CHEST_TRANSLIT,
    DONE,
    chest_index,
    code,
)
from solver.engine.frames import D_CHEST_GOALS
from solver.engine.record import GameRecord

campaign_app = typer.Typer(
    name="campaign",
    help="Campaign mode: a campaign-state file (chest decks 1/2/3, games, last VP, goals "
    "achieved out of 15); build the next game, solve it, play it, record it.",
    no_args_is_help=True,
    add_completion=False,
)

CampaignFile = Annotated[Path, typer.Argument(metavar="CAMPAIGN.json",
                                              help="The campaign-state file.")]


def _show(c: C.Campaign, out: Output) -> None:
    rank = C.rank_for(c.last_vp)
    out.line(f"Campaign (seed {c.seed}{', Worthiest Heir' if c.worthiest_heir else ''}): "
             f"{c.status}; {len(c.games)} game(s) played; goals achieved {c.achieved}/15")
    last = "-" if c.last_vp is None else str(c.last_vp)
    if c.status == "playing":
        out.line(f"Last VP {last}: rank {rank.name} (next game: {rank.extra_discards} more "
                 f"card(s) discarded, time card in space {rank.time_space})")
    else:
        out.line(f"Last VP {last}: rank {rank.name} (the campaign is {c.status}: no next game)")
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
    seed: Annotated[int, typer.Option("--seed", metavar="SEED", callback=check_seed,
                                      help="Seed of the chest reveals and deals.")] = 0,
    chests: ChestsOption = None,
    worthiest_heir: Annotated[
        bool, typer.Option("--worthiest-heir",
                           help="Take all 5 revealed chests each game; win in 3 games.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Start a campaign: all 15 chests unrevealed, no game played."""
    C.check_writable(path)
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
    seed: Annotated[int | None, typer.Option(
        "--seed", metavar="SEED", callback=check_seed,
        help="Seed of the deal (default: derived from the campaign seed and game number).")] = None,
    die_seed: DieSeedOption = None,
    cards: CardsOption = None,
    out_file: Annotated[Path | None, typer.Option(
        "--out", metavar="FILE", help="Write the game as a position (its setup, no decision "
        "yet) here: 'heritage solve --from FILE' and 'heritage play' files take it.")] = None,
    json_output: JsonOption = False,
) -> None:
    """Build the next game's setup: draw 10, 5 chests revealed (D17) to choose goals from in the
    game, achieved chests under the board, the last game's rank. The campaign file records it."""
    check_out(out_file)
    c = C.load(path)
    _, card_sets = load_cards(cards)
    setup = C.next_setup(c, seed=seed, die_seed=die_seed, card_sets=card_sets,
                         campaign_file=str(path))
    C.save(c, path)
    position = new_position(setup, goals=[])
    write_out(out_file, line_text(position, out_file), "position")
    if json_output:
        typer.echo(line_text(position, None), nl=False)
        return
    out = Output()
    rank = C.rank_for(c.last_vp)
    out.line(f"Game {len(c.games) + 1}: seed {setup.seed}; rank {rank.name}: keep "
             f"{6 - setup.extra_discards} of 10, time card in space {setup.time_space}")
    data = setup.chest_data
    assert data is not None
    for ch in setup.revealed:
        out.line(f"  revealed {chest_goal_text(data[CHEST_LETTERS.index(ch)])}")
    for ch in setup.under:
        out.line(f"  under the board {chest_effect_text(data[CHEST_LETTERS.index(ch)])}")
    if has_stand_ins(setup):
        out.line(STAND_IN_NOTE)


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
    check_out(out_file)
    c = C.load(path)
    if c.next_game is None:
        fail(f"{path}: field 'next_game' = null: run `heritage campaign next` first")
    setup = setup_from_json(c.next_game, f"{path}: next_game")
    book = book_for(setup, path.parent)
    record = play_random(setup, book, setup.seed if policy_seed is None else policy_seed)
    write_out(out_file, line_text(record.to_json(), out_file))
    if json_output:
        typer.echo(line_text(record.to_json(), None), nl=False)
        return
    out = Output()
    print_score(out, record.state.score())
    print_goals(out, record)


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
    c = C.record_game(c, data, str(game), base_dir=game.parent, campaign_file=str(path))
    C.save(c, path)
    if json_output:
        typer.echo(json.dumps(c.to_json(), indent=1, ensure_ascii=False))
        return
    _show(c, Output())


@campaign_app.command("solve")
@domain_errors
def solve_command(
    path: CampaignFile,
    goals: Annotated[str | None, typer.Option(
        "--goals", metavar="Б,В|B,V",
        help="Fix the goal choice: the revealed chests to take as goals (letters in Cyrillic or "
        "Latin, e.g. B,V). Default: the choice is part of the solve.")] = None,
    time_limit: TimeLimitOption = None,
    node_limit: NodeLimitOption = None,
    workers: WorkersOption = 1,
    bound: BoundOption = SOLVE_BOUND,
    json_output: Annotated[bool, typer.Option("--json", help="Print the line file with status, "
                                              "vp, bound, gap, nodes and seconds.")] = False,
    out_file: Annotated[Path | None, typer.Option(
        "--out", metavar="FILE", help="Also write the JSON result here (a line file that "
        "'heritage campaign record' accepts once the game is played).")] = None,
    notation: NotationOption = False,
    show_deal: ShowDealOption = False,
    plot: PlotOption = None,
) -> None:
    """Solve the campaign's next game (run 'campaign next' first): the goal choice among the
    revealed chests, the keep, every action and the mid-game goal revision are decisions of the
    solve, which finds the line meeting every chosen goal with the most VP."""
    c = C.load(path)
    if c.next_game is None:
        fail(f"{path}: field 'next_game' = null: run `heritage campaign next` first")
    game = c.next_game

    def root() -> GameRecord:
        setup = setup_from_json(game, f"{path}: next_game")
        record = GameRecord.new(setup, book_for(setup, path.parent))
        if goals is not None:
            choose_goals(record, goals)
        return record

    opts = SolveOptions(DealOptions(), None, time_limit, node_limit, workers, bound)
    solve_position(root, opts, ViewOptions(notation, show_deal, plot), json_output, out_file)


def choose_goals(record: GameRecord, goals: str) -> None:
    """Take the given revealed chests as the game's goals (the first decisions of a campaign
    game, RULES.md section 10), in rising letter order as the engine asks them.

    :raises CampaignError: a letter that is not a chest, or not revealed in this game."""
    letters = []
    for word in (w for w in re.split(r"[\s,]+", goals) if w):
        k = chest_index(word)
        if k is None:
            raise C.CampaignError(f"--goals: {word!r} is not a chest letter "
                                  f"({' '.join(CHEST_LETTERS)}, or {' '.join(CHEST_TRANSLIT)})")
        if k in letters:
            raise C.CampaignError(f"--goals: chest {CHEST_LETTERS[k]} is given twice")
        letters.append(k)
    if not letters:
        raise C.CampaignError("--goals: give at least one chest letter")
    revealed = record.setup.revealed_indices()
    for k in sorted(set(letters)):
        if k not in revealed:
            shown = " ".join(CHEST_LETTERS[r] for r in revealed)
            raise C.CampaignError(f"--goals: chest {CHEST_LETTERS[k]} is not revealed in this "
                                  f"game (revealed: {shown})")
        action = code(CHEST, CHEST_PICK + k)
        if action not in record.state.legal:
            raise C.CampaignError(f"--goals: chest {CHEST_LETTERS[k]} cannot be chosen here "
                                  "(Worthiest Heir takes every revealed chest)")
        record.apply(action)
    pending = record.state.pending()
    if pending is not None and pending[0] == D_CHEST_GOALS and DONE in record.state.legal:
        record.apply(DONE)
