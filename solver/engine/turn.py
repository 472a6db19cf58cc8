"""The turn (RULES.md section 4): start, action phase, Timeline phase, technology phase, end.

The decline phase is in `solver.engine.decline`; the five actions in their own modules.
"""

from __future__ import annotations

from solver.engine import actions as A
from solver.engine.archive import start_archive
from solver.engine.chests import (
    SINCE_BETWEEN,
    lightning_options,
    start_revision,
    timeline_items,
    use_chest,
)
from solver.engine.create import any_creatable, start_create
from solver.engine.frames import (
    D_ACTION,
    D_CHEST_USE,
    D_CHEST_WINDOW,
    D_EXCAVATE,
    D_FLIP,
    D_KEEP,
    D_ORDER,
    F_DECLINE_PHASE,
    F_EFFECT,
    F_TECH_PHASE,
    F_TIMELINE_PHASE,
    F_TURN_END,
    F_TURN_START,
    Frame,
    Registry,
)
from solver.engine.learn import any_learnable, start_learn
from solver.engine.state import CHEST_BASE, EMPTY, TIME, GameState


def turn_start(st: GameState, fr: Frame) -> None:
    """Start of a turn: a time card waiting in the Past returns to space 6 (a third row there
    if both places are taken, D12); then two actions, the Timeline, decline and technology
    phases."""
    st.turn += 1
    st.potala = False
    if st.time_space == 0:
        st.time_space = 6
        st.spaces[5] = st.spaces[5] + (TIME,)
    if st.chests_under:  # a lightning window before each phase (solver.engine.chests)
        st.stack.extend((
            (F_TURN_END,), (F_TECH_PHASE,), (D_CHEST_WINDOW,), (F_DECLINE_PHASE,),
            (D_CHEST_WINDOW,), (F_TIMELINE_PHASE,), (D_CHEST_WINDOW,), (D_ACTION, 1), (D_ACTION, 0),
        ))
        return
    st.stack.extend((
        (F_TURN_END,), (F_TECH_PHASE,), (F_DECLINE_PHASE,), (F_TIMELINE_PHASE,),
        (D_ACTION, 1), (D_ACTION, 0),
    ))


def turn_end(st: GameState, fr: Frame) -> None:
    st.stack.append((F_TURN_START,))


# ---------------------------------------------------------------- setup decision: keep 6 of 10

def keep_options(st: GameState, fr: Frame) -> list[int]:
    """Draw 10, keep 6 (RULES.md section 3.4): the kept cards are chosen one at a time in rising
    card order, so each set of 6 is reached by exactly one sequence."""
    _, to_keep, last, kept = fr
    hand = st.hand
    n = len(hand)
    return [A.CARD_CODE | c for i, c in enumerate(hand)
            if c > last and c not in kept and n - i >= to_keep]


def keep_choose(st: GameState, fr: Frame, action: int) -> None:
    _, to_keep, _, kept = fr
    c = A.value_of(action)
    kept = kept + (c,)
    if to_keep > 1:
        st.stack.append((D_KEEP, to_keep - 1, c, kept))
        return
    for card in [h for h in st.hand if h not in kept]:
        st.discard_from_hand(card)


# ---------------------------------------------------------------- action phase

def action_options(st: GameState, fr: Frame) -> list[int]:
    """The five actions (RULES.md section 5); Search is always possible (at 10 cards or with no
    cards left it draws nothing), so a turn can always go on."""
    out = []
    if any_creatable(st):
        out.append(A.ACT_CREATE)
    if any_learnable(st):
        out.append(A.ACT_LEARN)
    if st.hand:
        out.append(A.ACT_ARCHIVE)
    if len(st.past) > st.rotated:
        out.append(A.ACT_EXCAVATE)
    out.append(A.ACT_SEARCH)
    if st.chests_under:  # lightning chests may be used before an action (solver.engine.chests)

        out.extend(lightning_options(st))
    return out


def action_choose(st: GameState, fr: Frame, action: int) -> None:

    v = A.value_of(action)
    if A.kind_of(action) == A.CHEST:  # a lightning chest: the action is still to choose

        st.stack.append(fr)
        use_chest(st, v)
        return
    if v == A.CREATE:
        start_create(st, None, None, optional=False, granted_by=-1)
    elif v == A.LEARN:
        start_learn(st, optional=False, ignore_requirements=False, count=1)
    elif v == A.ARCHIVE:
        start_archive(st, optional=False)
    elif v == A.EXCAVATE:
        st.stack.append((D_EXCAVATE,))
    else:
        st.draw(1)


# ---------------------------------------------------------------- Timeline phase

def timeline_phase(st: GameState, fr: Frame) -> None:
    """Every Timeline effect of a Timeline monument or board artifact activates once, in the
    player's order (RULES.md section 4B, D15); each is queued at the start of the phase and its
    condition is checked when it resolves."""
    queue = timeline_queue(st)
    if queue:
        st.stack.append((D_ORDER, tuple(queue), True))


def timeline_queue(st: GameState) -> list[tuple[int, int]]:
    """The effects the Timeline phase of `st` queues when it starts (section 4B): (card, effect
    index) of each Timeline effect of the cards in play, then the chests under the board with
    the Timeline moment (their index past `CHEST_BASE`, `solver.engine.chests`)."""
    queue: list[tuple[int, int]] = []
    timeline_effects = st.book.timeline_effects
    for c in st.in_play():
        if timeline_effects[c]:
            for i in timeline_effects[c]:
                queue.append((c, i))
    if st.chests_under:
        queue.extend(timeline_items(st))
    return queue


def order_options(st: GameState, fr: Frame) -> list[int]:
    """Simultaneous effects resolve one at a time in the player's order (D15)."""
    seen: list[int] = []
    for c, _ in fr[1]:
        if c not in seen:
            seen.append(c)
    return [A.ORDER_CODE | c if c < CHEST_BASE else A.code(A.CHEST, c - CHEST_BASE)
            for c in seen]


def order_choose(st: GameState, fr: Frame, action: int) -> None:
    """The chosen card's first waiting effect resolves completely (D15); while others wait, a
    lightning window opens after it ("at any moment", RULES.md section 8): each waiting
    effect checks its condition when it resolves, so a chest used between two can change it."""
    _, queue, needs_in_play = fr
    c = A.value_of(action)
    if A.kind_of(action) == A.CHEST:
        c += CHEST_BASE
    pos = 0
    while queue[pos][0] != c:  # the first queued effect of the chosen card (it is queued)
        pos += 1
    item = queue[pos]
    rest = queue[:pos] + queue[pos + 1:]
    if rest:
        st.stack.append((D_ORDER, rest, needs_in_play))
        if st.chests_under:  # a lightning window between two effects (solver.engine.chests)
            st.stack.append((D_CHEST_WINDOW, SINCE_BETWEEN))
    if c >= CHEST_BASE:  # a chest under the board: use it now or keep it (solver.engine.chests)
        st.stack.append((D_CHEST_USE, c - CHEST_BASE))
        return
    if needs_in_play and not (st.in_timeline(c) or c in st.artifacts):
        return  # the card left play before its turn came
    st.stack.append((F_EFFECT, item[0], item[1], 0))


# ---------------------------------------------------------------- technology phase

def tech_phase(st: GameState, fr: Frame) -> None:
    """Roll the die (the next value of the sequence). Before the middle of the game it discards
    the Level I card in the slot with that number (1-3 tile A, 4-6 tile B); after it, only Level
    II cards: the flipped tile keeps its numbers, tile C takes those of the tile that stayed
    Level I (D9). A tile left with exactly one card is discarded and refilled (section 4D)."""
    slot = st.die_slot(st.setup.rolls[st.die_pos])
    st.die_pos += 1
    card = st.tiles[slot]
    if card != EMPTY:
        st.tiles[slot] = EMPTY
        st.discard_tech(card)
        st.check_tile(slot // 3)


# ---------------------------------------------------------------- middle of the game

def flip_options(st: GameState, fr: Frame) -> list[int]:
    return [A.code(A.TILE, 0), A.code(A.TILE, 1)]


def flip_choose(st: GameState, fr: Frame, action: int) -> None:
    """Flip tile A or B to Level II: discard its cards and fill it with 3 Level II cards; the
    other tile keeps refilling with Level I cards (RULES.md section 6, D10)."""
    tile = A.value_of(action)
    for k in range(3):
        c = st.tiles[3 * tile + k]
        if c != EMPTY:
            st.discard_tech(c)
            st.tiles[3 * tile + k] = EMPTY
    st.tile_level[tile] = 2
    st.fill_tile(tile)

    start_revision(st)  # Campaign mode: the goal revision right after the flip (section 6)


def register() -> Registry:
    auto = {
        F_TURN_START: turn_start, F_TURN_END: turn_end, F_TIMELINE_PHASE: timeline_phase,
        F_TECH_PHASE: tech_phase,
    }
    options = {D_KEEP: keep_options, D_ACTION: action_options, D_ORDER: order_options,
               D_FLIP: flip_options}
    choose = {D_KEEP: keep_choose, D_ACTION: action_choose, D_ORDER: order_choose,
              D_FLIP: flip_choose}
    return auto, options, choose
