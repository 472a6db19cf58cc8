"""Playing a line at the table (`puzzles.table`, `heritage deal`, the real-deal options): the
header names the trial and its chests with stand-in marks; the deal lists every pile top first
as the engine deals it; real deals (deck, dice, time card, partial technology deck orders) are
validated, carried in line files and replayed; ``--cards`` adds to the base set."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.app import app
from puzzles.deal import DealError, build_setup, load_cards
from puzzles.lines import load_position, replay
from puzzles.table import deal_of, header_lines
from solver.engine.newgame import new_game
from solver.engine.setup import Setup
from solver.engine.state import EMPTY

RUNNER = CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1"})
BOOK, SETS = load_cards(None)


def run(*args: str) -> Any:
    return RUNNER.invoke(app, list(args))


def one_line_error(result: Any, *parts: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for part in parts:
        assert part in lines[0], (part, lines[0])


# ------------------------------------------------------------------ the header


def test_the_header_names_the_trial_its_chests_the_hand_and_the_seeds() -> None:
    setup = build_setup(BOOK, SETS, hand="1", seed=0, trial=2)
    lines = header_lines(setup, BOOK)
    assert lines[0] == "Trial 2: Buried Artifacts"
    assert lines[1].startswith("Goal chests (artifact spaces): В Chest from Mirina: at least 5 "
                               "monuments in the Timeline~; Г Standard of Ur~: at least 6 "
                               "pyramids in the Past~")
    assert lines[2].startswith("Effect chests (under the board, each usable once): "
                               "Б Casket of Lefkadia*: ")
    assert lines[2].endswith("*")  # stand-in effect texts are marked
    assert lines[3].startswith("Hand (premade hand 1): Ellora Caves (C5), ")
    assert lines[4] == "Deal seed 0; die seed 0; time card in space 4 (16 turns); cards base"


def test_solve_prints_the_header_the_deal_and_a_goals_table_with_its_footnote() -> None:
    result = run("solve", "--trial", "1", "--seed", "0", "--node-limit", "2000", "--deal",
                 "--notation")
    assert result.exit_code == 0, result.output
    out = result.stdout.splitlines()
    assert out[1] == "Trial 1: New Era"
    assert out.index("The deal") < out.index("Turn 1")
    goals = out.index("Goals")
    assert out[goals + 2].split()[:4] == ["А", "Chest", "of", "Tutankhamun*"]
    assert out[goals + 3].startswith("* stand-in: the rulebook does not print this chest text")
    assert "[create " in result.stdout  # --notation


# ------------------------------------------------------------------ the deal


def test_the_deal_is_the_engines_deal_top_first() -> None:
    setup = build_setup(BOOK, SETS, hand="1", seed=5)
    deal = deal_of(setup, BOOK)
    st = new_game(setup, BOOK)
    code = {c.index: c.code for c in BOOK.cards}
    assert list(deal.builder) == [code[c] for c in reversed(st.deck)]
    assert list(deal.tiles["A"] + deal.tiles["B"] + deal.tiles["C"]) == [
        code[c] for c in st.tiles if c != EMPTY]
    assert list(deal.tech_deck_1[6:]) == [code[c] for c in reversed(st.tech_decks[0])]
    assert list(deal.tech_deck_2[3:]) == [code[c] for c in reversed(st.tech_decks[1])]
    assert deal.dice == setup.rolls and len(deal.hand) == 6


def test_heritage_deal_json_stacks_the_same_game(tmp_path: Path) -> None:
    """The deal printed by ``heritage deal --json``, given back as explicit orders (a real
    table's deal), plays the same game as the seed."""
    result = run("deal", "--hand", "2", "--seed", "7", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    deal = data["deal"]
    assert set(deal) == {"hand", "builder_deck", "tiles", "tech_deck_1", "tech_deck_2", "dice"}
    deck = tmp_path / "deck.txt"
    deck.write_text(" ".join(deal["builder_deck"]), encoding="utf-8")
    by_seed = json.loads(run("play", "--hand", "2", "--seed", "7", "--json").stdout)
    by_order = run("play", "--hand", "2", "--seed", "99", "--policy-seed", "7", "--deck",
                   str(deck), "--dice", ",".join(map(str, deal["dice"])), "--tech-deck-1",
                   ",".join(deal["tech_deck_1"]), "--tech-deck-2", ",".join(deal["tech_deck_2"]),
                   "--json")
    assert by_order.exit_code == 0, by_order.output
    assert json.loads(by_order.stdout)["line"] == by_seed["line"]
    text = run("deal", "--hand", "2", "--seed", "7").stdout
    assert "Builder deck, top first (138 cards): " in text and "Tile C: " in text
    assert f"Die rolls, one per technology phase: {', '.join(map(str, deal['dice']))}" in text
    position = json.loads(run("deal", "--trial", "1", "--json").stdout)
    assert load_position(position).state.turn == 1  # a position solve --from accepts


# ------------------------------------------------------------------ real deals


def test_partial_technology_orders_are_dealt_carried_and_replayed(tmp_path: Path) -> None:
    setup = build_setup(BOOK, SETS, hand="1", seed=3, tech_deck_1="T3,T17,T23,T22",
                        tech_deck_2="T30")
    st = new_game(setup, BOOK)
    code = {c.index: c.code for c in BOOK.cards}
    assert [code[c] for c in st.tiles[:4]] == ["T3", "T17", "T23", "T22"]
    assert code[st.tiles[6]] == "T30"
    plain = new_game(build_setup(BOOK, SETS, hand="1", seed=3), BOOK)
    assert sorted(st.tech_decks[0] + st.tiles[:6]) == sorted(plain.tech_decks[0] + plain.tiles[:6])
    again = Setup.from_json(setup.to_json())
    assert (again.tech_deck_1, again.tech_deck_2) == (setup.tech_deck_1, setup.tech_deck_2)
    assert setup.to_json()["tech_deck_1"] == ["T3", "T17", "T23", "T22"]
    result = run("play", "--hand", "1", "--seed", "3", "--tech-deck-1", "T3,T17,T23,T22",
                 "--tech-deck-2", "T30", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["setup"]["tech_deck_2"] == ["T30"]
    record, error = replay(data)
    assert error is None and record is not None
    line = tmp_path / "line.json"
    line.write_text(result.stdout, encoding="utf-8")
    assert run("verify", str(line)).exit_code == 0
    order = tmp_path / "tech.txt"
    order.write_text("T3\nT17\n", encoding="utf-8")
    assert build_setup(BOOK, SETS, tech_deck_1=str(order)).tech_deck_1 == ("T3", "T17")


@pytest.mark.parametrize("command", ["play", "solve", "check", "deal"])
@pytest.mark.parametrize(("args", "parts"), [
    (["--tech-deck-1", "T30"], ["--tech-deck-1", "T30", "Level II"]),
    (["--tech-deck-2", "T3"], ["--tech-deck-2", "T3", "Level I"]),
    (["--tech-deck-1", "T3,T9,T3"], ["--tech-deck-1", "T3", "twice"]),
    (["--tech-deck-1", "X9"], ["--tech-deck-1", "X9"]),
    (["--dice", "1,9"], ["--dice", "9"]),
])
def test_real_deal_options_are_checked_naming_the_card(command: str, args: list[str],
                                                       parts: list[str]) -> None:
    one_line_error(run(command, *args), *parts)


def test_solve_and_check_take_a_real_deal(tmp_path: Path) -> None:
    rest = [c.code for c in BOOK.builders if c.starting_hand != 1][::-1]
    deck = tmp_path / "deck.json"
    deck.write_text(json.dumps(rest), encoding="utf-8")
    for command, space, trial in (("solve", 3, []), ("check", 4, ["--trial", "1"])):
        dice = [3] * (14 if space == 3 else 15)  # 15 turns: no trial (a trial has 16)
        result = run(command, *trial, "--deck", str(deck), "--dice", ",".join(map(str, dice)),
                     "--time-space", str(space), "--tech-deck-1", "T3", "--node-limit", "1500",
                     "--bound", "simple", "--json")
        assert result.exit_code in (0, 3), result.output
        setup = json.loads(result.stdout)["setup"]
        assert setup["deck"] == rest and setup["dice"] == dice
        assert setup["time_space"] == space and setup["tech_deck_1"] == ["T3"]
    bad = tmp_path / "bad.txt"
    bad.write_text("C1 C2", encoding="utf-8")
    one_line_error(run("solve", "--deck", str(bad)), "bad.txt", "not a permutation")


# ------------------------------------------------------------------ card sets


def test_cards_heritage_adds_to_the_base_set() -> None:
    book, sets = load_cards(["heritage"])
    assert [n for n, _ in sets] == ["base", "heritage"]
    assert len(book.builders) == len(BOOK.builders) + 1 and book.lookup("H1") is not None
    data = json.loads(run("play", "--cards", "heritage", "--hand", "draw", "--json").stdout)
    assert [s["name"] for s in data["setup"]["card_sets"]] == ["base", "heritage"]
    assert data["score"] is not None
    listed = json.loads(run("cards", "--cards", "heritage", "--json").stdout)
    assert len(listed) == len(book)
    only = json.loads(run("cards", "--cards", "heritage", "--no-base", "--json").stdout)
    assert {c["code"] for c in only} == {"H1", "HT1"}


def test_a_card_set_that_leaves_no_game_is_refused() -> None:
    one_line_error(run("play", "--cards", "heritage", "--no-base"), "--cards", "heritage",
                   "a game needs")
    one_line_error(run("solve", "--cards", "heritage", "--no-base"), "--cards")
    one_line_error(run("play", "--no-base"), "--no-base")
    book, sets = load_cards(["heritage"], no_base=True)
    with pytest.raises(DealError, match="--cards"):
        build_setup(book, sets, hand="draw")
