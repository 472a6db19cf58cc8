"""Heritage cards (RULES.md section 12, D13): Abu Simbel and South Arabian Writing in their own
card set, off by default; the card-set format documented with an example user file."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cli.app import app
from puzzles.cardsets import DATA, load_book
from solver.engine.cards import COUNTERS, STEP_OPS
from solver.engine.conditions import count
from solver.engine.frames import D_TECH_PICK
from solver.engine.newgame import new_game
from solver.engine.setup import Setup
from solver.engine.state import EMPTY, GameState
from solver.rng import Stream
from tests.builder import codes, idx, names_of, play, position

HERITAGE = ("base", "heritage")
FIVE_WRITING = ["T19", "T20", "T21", "T22", "T23"]
runner = CliRunner()


def test_heritage_cards_are_off_by_default_and_on_with_the_heritage_set() -> None:
    assert load_book().lookup("H1") is None
    book = load_book(list(HERITAGE))
    abu, saw = book.lookup("H1"), book.lookup("HT1")
    assert abu is not None and saw is not None
    assert (abu.name, abu.set_name, abu.is_monument) == ("Abu Simbel", "heritage", True)
    assert [e.moment for e in abu.effects] == ["immediate", "decline"]  # double activation
    assert (saw.name, saw.level, saw.type_name) == ("South Arabian Writing", 2, "writing")
    assert [str(c) for c in saw.requirement] == ["techs.max_type >= 5"]
    assert len(book) == 191


def test_the_heritage_file_marks_its_stand_ins() -> None:
    data = json.loads((DATA / "heritage.json").read_text(encoding="utf-8"))
    for card in data["builders"] + data["technologies"]:
        assert card["stand_in"] and card["stand_in_reason"].strip()
    assert "requirement" not in data["technologies"][0]["stand_in"]  # printed in the rulebook


def test_techs_max_type_counts_the_most_numerous_technology_type() -> None:
    st = position(techs=["T1", "T2", "T10", *FIVE_WRITING[:3]])
    assert count(st, "techs.max_type", -1) == 3
    assert "techs.max_type" in COUNTERS


def test_abu_simbel_puts_an_available_level_ii_technology_on_itself() -> None:
    """On Create: choose an available Level II technology; it leaves its tile (which is then
    refilled if one card is left, section 5) and sits on Abu Simbel."""
    tiles = ["T1", "T2", "T3", "T4", "T5", "T6", "HT1", "T28", "T29"]
    st = position(hand=["H1", "C1"], tiles=tiles, names=HERITAGE)
    play(st, "create", "H1")  # only its starting space is affordable: C1 pays the cost of 1
    assert codes(st, st.space_monuments(4)) == ["H1"] and codes(st, st.discard) == ["C1"]
    top = st.pending()
    assert top is not None and top[0] == D_TECH_PICK
    assert names_of(st) == ["T28", "T29", "HT1"]  # Level II only
    play(st, "HT1")
    assert st.held == ((idx(st, "H1"), idx(st, "HT1")),)
    assert codes(st, [t for t in st.tiles[6:] if t != EMPTY]) == ["T28", "T29"]
    assert "HT1" not in codes(st, st.available_techs())
    st.zone_of_every_card()
    clone = st.clone()
    assert clone.key() == st.key() and clone.held == st.held


def _abu_declines(techs: list[str]) -> GameState:
    """Abu Simbel created into space 1 holding South Arabian Writing, then its decline."""
    tiles = ["T1", "T2", "T3", "T4", "T5", "T6", "HT1", "T28", "T29"]
    st = position(hand=["H1", "C1", "C2", "C3", "C4"], tiles=tiles, techs=techs, names=HERITAGE)
    play(st, "create", "H1", "s1")  # cost 1 + 3 (space 1): the four other cards
    play(st, "HT1", "search")
    while st.turn == 1:
        st.apply(st.legal[0])
    return st


def test_abu_simbels_technology_joins_the_collection_if_its_requirement_is_met() -> None:
    """The rulebook's example: 5 technologies of the same type when Abu Simbel declines: South
    Arabian Writing joins the collection (and scores in row 3)."""
    st = _abu_declines(FIVE_WRITING)
    assert "H1" in codes(st, st.past)
    assert "HT1" in codes(st, st.techs) and st.held == ()
    assert st.score().technologies == st.card(idx(st, "HT1")).vp
    st.zone_of_every_card()


def test_abu_simbels_technology_is_discarded_if_its_requirement_is_not_met() -> None:
    st = _abu_declines(FIVE_WRITING[:4] + ["T10"])
    assert "H1" in codes(st, st.past)
    assert "HT1" not in codes(st, st.techs) and st.held == ()
    assert "HT1" in codes(st, st.tech_discards[1])
    st.zone_of_every_card()


def test_random_games_with_the_heritage_set_keep_every_card_in_one_place() -> None:
    book = load_book(list(HERITAGE))
    sets = tuple(book.sets)
    held = 0
    for seed in range(120):
        st = new_game(Setup(hand="draw", seed=seed, card_sets=sets), book)
        stream = Stream(seed, "policy", 0)
        while not st.is_terminal():
            st.apply(st.legal[stream.below(len(st.legal))])
            held += bool(st.held)
        st.zone_of_every_card()
    assert held > 0  # Abu Simbel was created and held a technology in some games


def test_the_example_user_set_loads_with_base_and_heritage() -> None:
    path = DATA / "example-user-set.json"
    book = load_book(["base", "heritage", str(path)])
    assert len(book) == 195
    assert [c.code for c in book.cards if c.set_name == "example-user"] == ["X1", "X2", "X3", "XT1"]
    result = runner.invoke(app, ["cards", "--cards", "base", "--cards", "heritage",
                                 "--cards", str(path), "--missing"])
    assert result.exit_code == 0 and result.output == ""  # every effect is implemented


def test_cli_plays_with_the_heritage_set(tmp_path: Path) -> None:
    out = tmp_path / "line.json"
    result = runner.invoke(app, ["play", "--cards", "base", "--cards", "heritage", "--hand",
                                 "draw", "--seed", "2", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [s["name"] for s in data["setup"]["card_sets"]] == ["base", "heritage"]
    assert runner.invoke(app, ["verify", str(out)]).exit_code == 0


def test_card_format_documents_every_step_and_counter() -> None:
    doc = (DATA.parent / "CARD_FORMAT.md").read_text(encoding="utf-8")
    for op in STEP_OPS:
        assert f"`{op}`" in doc, op
    assert "`techs.max_type`" in doc
    assert "example-user-set.json" in doc and "--cards heritage" in doc
