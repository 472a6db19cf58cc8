"""Every card has an implemented effect and at least one effect test (issue: every card)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from solver.engine import flow  # noqa: F401  (load the engine first)
from solver.engine.coverage import IMPLEMENTED_OPS, IMPLEMENTED_SPECIALS, card_implemented
from solver.engine.effects import SPECIAL_HANDLERS, STANDING_SPECIALS, STEP_HANDLERS
from tests.builder import book

TEST_FILES = ("test_cities.py", "test_megaliths.py", "test_pyramids.py", "test_artifacts.py",
              "test_technologies.py")


@pytest.mark.parametrize("names", [("base",), ("base", "heritage")])
def test_no_card_lacks_an_effect(names: tuple[str, ...]) -> None:
    missing = [c.code for c in book(names).cards if not card_implemented(c)]
    assert missing == []
    assert len(book(("base",))) == 189


def test_every_base_card_is_named_in_a_card_test() -> None:
    here = Path(__file__).parent
    text = "\n".join((here / f).read_text(encoding="utf-8") for f in TEST_FILES)
    untested = [c.code for c in book(("base",)).cards
                if not re.search(rf"(?<![A-Za-z0-9]){c.code}(?![0-9])", text)]
    assert untested == []


def test_coverage_is_the_interpreter_dispatch() -> None:
    """The step ops and specials that coverage lists are exactly those the effect interpreter
    handles (`solver.engine.effects`): the lists cannot drift from the dispatch."""
    assert set(STEP_HANDLERS) == IMPLEMENTED_OPS
    assert not set(SPECIAL_HANDLERS) & STANDING_SPECIALS
    assert set(SPECIAL_HANDLERS) | STANDING_SPECIALS == IMPLEMENTED_SPECIALS
