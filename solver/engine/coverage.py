"""Which card effects the engine implements (the effect interpreter's step ops and specials).

A card with an effect outside these sets is listed by `heritage cards --missing`, kept out of a
restricted game (`Setup.restricted`), and raises `EffectNotImplementedError` when it would
resolve. The effect interpreter's dispatch is the source of truth: `tests/cards/test_coverage.py`
checks that these sets are exactly the ops of `solver.engine.effects.STEP_HANDLERS` and the
specials of its `SPECIAL_HANDLERS` and `STANDING_SPECIALS`. They are written out here, not
imported: the interpreter sits above `solver.engine.state`, which reaches this module through
`solver.engine.setup`, so importing the interpreter here would close an import loop.
"""

from __future__ import annotations

from solver.engine.cards import Card

IMPLEMENTED_OPS = frozenset({
    "draw", "remove_knowledge", "discard_lost", "swap", "move", "straighten", "create", "learn",
    "archive", "reveal_keep", "reveal_until", "niches", "ancient_greek", "discard_hand", "pay",
    "bury_tech", "vanish_if_knowledge", "hold_tech", "gain_held_tech",
})
IMPLEMENTED_SPECIALS = frozenset({
    "potala_skip_decline", "candi_sukuh", "kensington_runestone", "phaistos_disc",
    "elongated_skulls", "poulnabrone",
})


def card_implemented(card: Card) -> bool:
    """True when the engine implements every effect of the card."""
    for e in card.effects:
        if e.special is not None and e.special not in IMPLEMENTED_SPECIALS:
            return False
        for step in e.steps:
            if step.op not in IMPLEMENTED_OPS:
                return False
            if any(t.op not in IMPLEMENTED_OPS for t in step.then):
                return False
    return True
