"""`puzzles.deal`: the setup of the deal options, its errors (naming the option or file, the
field and the value) and its one-line description; the CLI's messages come from here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import puzzles.deal
from puzzles.deal import (
    DealError,
    build_setup,
    describe_setup,
    left_out_note,
    load_cards,
    parse_dice,
    read_codes,
)
from solver.engine.chestcards import ChestDataError
from solver.engine.errors import HeritageError
from solver.engine.setup import Setup

BOOK, CARD_SETS = load_cards(None)


def test_the_default_cards_are_the_base_set_with_its_digest() -> None:
    assert [name for name, _ in CARD_SETS] == ["base"]
    assert CARD_SETS[0][1] == BOOK.sets[0][1]


def test_a_premade_deal_is_the_plain_setup() -> None:
    setup = build_setup(BOOK, CARD_SETS, hand="3", seed=4, trial=2)
    assert setup.hand == "3" and setup.seed == 4 and setup.trial == 2 and setup.goals
    assert setup.card_sets == CARD_SETS and not setup.restricted
    assert describe_setup(build_setup(BOOK, CARD_SETS)) == (
        "Deal seed 0; die seed 0; time card in space 4 (16 turns); cards base")


def test_errors_are_domain_errors_naming_the_option_or_the_file(tmp_path: Path) -> None:
    assert issubclass(DealError, HeritageError) and issubclass(DealError, ValueError)
    with pytest.raises(DealError, match=r"^--dice: value 7 is outside 1-6$"):
        build_setup(BOOK, CARD_SETS, dice=",".join(["7"] * 15))
    with pytest.raises(DealError, match=r"^--dice: 'x' is not a whole number"):
        parse_dice("1,x")
    with pytest.raises(DealError,
                       match=r"^--hand: '7' is not 1, 2, 3, 4, draw or a readable file$"):
        build_setup(BOOK, CARD_SETS, hand="7")
    with pytest.raises(DealError, match=r"^--deck: 'none\.txt' is not a readable file$"):
        read_codes(Path("none.txt"), "--deck")
    hand = tmp_path / "h.txt"
    hand.write_text("C1 C2 C3 C4 C5 X99", encoding="utf-8")
    with pytest.raises(DealError, match=r"h\.txt: unknown builder card 'X99'"):
        build_setup(BOOK, CARD_SETS, hand=str(hand))
    broken = tmp_path / "b.json"
    broken.write_text("[1,", encoding="utf-8")
    with pytest.raises(DealError, match=r"b\.json: not valid JSON \(line 1"):
        read_codes(broken, "--hand")
    with pytest.raises(ChestDataError, match="--trial: 99"):
        build_setup(BOOK, CARD_SETS, trial=99)


def test_codes_files_take_text_or_json(tmp_path: Path) -> None:
    text = tmp_path / "h.txt"
    text.write_text("# mine\nC5 M2, P1\nA1 C7 M3\n", encoding="utf-8")
    listed = tmp_path / "h.json"
    listed.write_text('{"cards": ["C5", "M2", "P1", "A1", "C7", "M3"]}', encoding="utf-8")
    assert read_codes(text, "--hand") == read_codes(listed, "--hand") == (
        "C5", "M2", "P1", "A1", "C7", "M3")
    setup = build_setup(BOOK, CARD_SETS, hand=str(text))
    assert setup.hand == "list" and setup.hand_cards == read_codes(text, "--hand")
    for path in (text, listed):  # saved with a byte-order mark (Notepad's "UTF-8 with BOM")
        bom = tmp_path / f"bom-{path.name}"
        bom.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
        assert read_codes(bom, "--hand") == read_codes(path, "--hand")


def test_cards_without_an_effect_restrict_the_deal_and_earn_a_note(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert left_out_note(BOOK) is None

    def lacks_c5(card: Any) -> bool:
        return bool(card.code != "C5")

    monkeypatch.setattr(puzzles.deal, "card_implemented", lacks_c5)
    assert left_out_note(BOOK) == ("note: 1 card without an implemented effect left out of the "
                                   "deal (restricted_to_implemented)")
    setup: Setup = build_setup(BOOK, CARD_SETS, hand="draw")
    assert setup.restricted
