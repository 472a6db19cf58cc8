"""The kinds of frames on the engine's stack of pending work.

The engine keeps the rest of the turn as a stack of small tuples ``(KIND, *args)``. Automatic
frames (``F_``) do their work when they reach the top; decision frames (``D_``) wait for the
player. Tuples are immutable, so cloning a state copies the stack list and nothing else.
"""

from __future__ import annotations

from typing import Any, Final

Frame = tuple[Any, ...]
# (automatic handlers, option generators, choice handlers) of one module, by frame kind
Registry = tuple[dict[int, Any], dict[int, Any], dict[int, Any]]

# Automatic frames.
F_TURN_START: Final = 0
F_TURN_END: Final = 1
F_TIMELINE_PHASE: Final = 2
F_DECLINE_PHASE: Final = 3
F_DECLINE_NEXT: Final = 4
F_DECLINE_CARD: Final = 5
F_DECLINE_FINISH: Final = 6
F_ELONGATED: Final = 7
F_SLIDE: Final = 8
F_TECH_PHASE: Final = 9
F_PLACE: Final = 10
F_EFFECT: Final = 11
F_STEPS: Final = 12
F_LEARN_TRIGGERS: Final = 13
F_EXCAVATE_DRAW: Final = 14
F_EXCAVATE_TRIGGERS: Final = 15
F_END_GAME: Final = 16
F_REVEAL_DISCARD: Final = 17
F_ARCHIVE_REMOVE: Final = 18
F_AFTER_CREATE: Final = 19

# Decision frames.
D_KEEP: Final = 100
D_ACTION: Final = 101
D_ORDER: Final = 102
D_DECLINE_ORDER: Final = 103
D_FLIP: Final = 104
D_CREATE_CARD: Final = 105
D_CREATE_SPACE: Final = 106
D_PAY: Final = 107
D_ARCHIVE: Final = 108
D_REMOVE: Final = 109
D_EXCAVATE: Final = 110
D_KENSINGTON: Final = 111
D_LEARN: Final = 112
D_YESNO: Final = 113
D_TARGET: Final = 114
D_MOVE_SPACE: Final = 115
D_NUMBER: Final = 116
D_PICK: Final = 117
D_DISCARD_VAR: Final = 118
D_TECH_PICK: Final = 119
D_BOTTOM: Final = 120
D_ARTIFACT_PAY: Final = 121

# Decision frames of the solo modes (chest cards: solver.engine.chests).
D_CHEST_WINDOW: Final = 122
D_CHEST_USE: Final = 123
D_CHEST_GOALS: Final = 124
D_CHEST_REVISE: Final = 125

DECISION_NAMES: Final = {
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
