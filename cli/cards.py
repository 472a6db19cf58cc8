"""``heritage cards``: list the cards of the chosen card sets, or those the engine lacks."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated, Any

import typer

from cli.common import Output, domain_errors
from cli.options import CardsOption, JsonOption
from puzzles.deal import load_cards
from solver.engine.cards import Card
from solver.engine.coverage import card_implemented


class CardType(StrEnum):
    """Builder card types, then technology types."""

    CITY = "city"
    MEGALITH = "megalith"
    PYRAMID = "pyramid"
    ARTIFACT = "artifact"
    ANCIENT = "ancient"
    SECRET = "secret"
    WRITING = "writing"


def card_json(card: Card) -> dict[str, Any]:
    """The facts of one card, as `heritage cards --json` prints them."""
    out: dict[str, Any] = {
        "code": card.code, "id": card.id, "name": card.name, "type": card.type_name,
        "set": card.set_name, "activation": card.activation, "text": card.text,
        "implemented": card_implemented(card),
    }
    if card.is_tech:
        out |= {"level": card.level, "requirement": card.requirement_text,
                "requirement_clauses": [str(c) for c in card.requirement], "vp": card.vp}
    else:
        out |= {"cost": card.discard_cost, "starting_hand": card.starting_hand}
        if card.is_monument:
            out |= {"space": card.starting_space, "locked": card.locked,
                    "knowledge": card.knowledge, "vp": card.vp}
    return out


def _builder_row(c: Card) -> list[str]:
    if c.is_monument:
        space = f"{c.starting_space} locked" if c.locked else str(c.starting_space)
        knowledge, vp = str(c.knowledge), str(c.vp)
    else:
        space = knowledge = vp = "-"
    return [c.code, c.name, c.type_name, str(c.discard_cost), space, knowledge, vp,
            c.activation, c.text]


def _tech_row(c: Card) -> list[str]:
    return [c.code, c.name, c.type_name, "I" if c.level == 1 else "II",
            c.requirement_text or "-", str(c.vp), c.activation, c.text]


@domain_errors
def cards_command(
    card_type: Annotated[
        CardType | None, typer.Option("--type", case_sensitive=False,
                                      help="Only cards of this type.")
    ] = None,
    missing: Annotated[
        bool,
        typer.Option(
            "--missing",
            help="Only cards whose effect the engine does not implement (prints nothing "
            "when every card is implemented; --json: an empty list).",
        ),
    ] = False,
    json_output: JsonOption = False,
    cards: CardsOption = None,
    no_base: Annotated[bool, typer.Option(
        "--no-base", help="List the --cards sets only, without the base set (any set, "
        "playable or not).")] = False,
) -> None:
    """List the cards: code, name, type, cost, space, knowledge, VP, activation and text
    (technologies: level, requirement and VP)."""
    book, _ = load_cards(cards, no_base)
    chosen = [c for c in book.cards
              if (card_type is None or c.type_name == card_type.value)
              and (not missing or not card_implemented(c))]
    if json_output:
        typer.echo(json.dumps([card_json(c) for c in chosen], indent=2, ensure_ascii=False))
        return
    if missing and not chosen:
        return
    out = Output()
    builders = [c for c in chosen if not c.is_tech]
    techs = [c for c in chosen if c.is_tech]
    if builders:
        out.table(f"Builder cards ({len(builders)})",
                  ["code", "name", "type", "cost", "space", "knowledge", "VP", "activation",
                   "text"],
                  [_builder_row(c) for c in builders], right=("cost", "knowledge", "VP"))
    if builders and techs:
        out.line()
    if techs:
        out.table(f"Technologies ({len(techs)})",
                  ["code", "name", "type", "level", "requirement", "VP", "activation", "text"],
                  [_tech_row(c) for c in techs], right=("VP",))
    if not chosen:
        out.line("no cards")
