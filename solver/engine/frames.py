"""The kinds of frames on the engine's stack of pending work.

The engine keeps the rest of the turn as a stack of small tuples ``(KIND, *args)``. Automatic
frames (``F_``) do their work when they reach the top; decision frames (``D_``) wait for the
player. Tuples are immutable, so cloning a state copies the stack list and nothing else.
"""

from __future__ import annotations

from typing import Any

Frame = tuple[Any, ...]
# (automatic handlers, option generators, choice handlers) of one module, by frame kind
Registry = tuple[dict[int, Any], dict[int, Any], dict[int, Any]]

# Automatic frames.
(
    F_TURN_START, F_TURN_END, F_TIMELINE_PHASE, F_DECLINE_PHASE, F_DECLINE_NEXT, F_DECLINE_CARD,
    F_DECLINE_FINISH, F_ELONGATED, F_SLIDE, F_TECH_PHASE, F_PLACE, F_EFFECT, F_STEPS,
    F_LEARN_TRIGGERS, F_EXCAVATE_DRAW, F_EXCAVATE_TRIGGERS, F_END_GAME, F_REVEAL_DISCARD,
    F_ARCHIVE_REMOVE, F_AFTER_CREATE,
) = range(20)

# Decision frames.
(
    D_KEEP, D_ACTION, D_ORDER, D_DECLINE_ORDER, D_FLIP, D_CREATE_CARD, D_CREATE_SPACE, D_PAY,
    D_ARCHIVE, D_REMOVE, D_EXCAVATE, D_KENSINGTON, D_LEARN, D_YESNO, D_TARGET, D_MOVE_SPACE,
    D_NUMBER, D_PICK, D_DISCARD_VAR, D_TECH_PICK, D_BOTTOM, D_ARTIFACT_PAY,
) = range(100, 122)

# Decision frames of the solo modes (chest cards: solver.engine.chests).
D_CHEST_WINDOW, D_CHEST_USE, D_CHEST_GOALS, D_CHEST_REVISE = range(122, 126)

DECISION_NAMES = {
    D_KEEP: "keep 6 of 10",
    D_ACTION: "choose an action",
    D_ORDER: "order simultaneous effects",
    D_DECLINE_ORDER: "order the declines of space 1",
    D_FLIP: "flip a Level I tile (middle of the game)",
    D_CREATE_CARD: "choose a card to create",
    D_CREATE_SPACE: "choose a Timeline space",
    D_PAY: "discard a card to pay",
    D_ARCHIVE: "archive a card (or done)",
    D_REMOVE: "remove a knowledge token",
    D_EXCAVATE: "how many Past monuments to excavate",
    D_KENSINGTON: "Kensington Runestone instead of drawing?",
    D_LEARN: "choose a technology",
    D_YESNO: "use an optional effect?",
    D_TARGET: "choose a monument",
    D_MOVE_SPACE: "choose a destination space",
    D_NUMBER: "choose a number",
    D_PICK: "keep a revealed card",
    D_DISCARD_VAR: "discard a card (or done)",
    D_TECH_PICK: "choose an available technology",
    D_BOTTOM: "put a revealed technology at the bottom",
    D_ARTIFACT_PAY: "discard one of your artifacts (or done)",
    D_CHEST_WINDOW: "use a lightning chest (or done)",
    D_CHEST_USE: "use this chest's effect now?",
    D_CHEST_GOALS: "choose a revealed chest as a goal (or done)",
    D_CHEST_REVISE: "discard a goal chest (or done)",
}


def is_decision(frame: Frame) -> bool:
    return bool(frame[0] >= 100)
