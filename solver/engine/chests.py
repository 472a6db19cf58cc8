"""Chest cards in the engine (RULES.md section 8, D11, D16; campaign decisions of section 10).

A chest is one of 15 cards (letters А..П, `solver.engine.actions.CHEST_LETTERS`; the engine stores
the letter's index 0..14). In an artifact space it is a goal (`solver.engine.goals`); under the
board its lower part is an effect, usable once at its activation moment without spending an action,
and discarded after use (D16). Unused effect chests are discarded at the end.

Activation moments the engine knows:

* ``lightning``: "discard this card at any moment to apply its effect" (rulebook,
  Clarifications). Б's effect is one (rulebook, trial 1 setup: it applies when discarded).
* ``timeline``: during the Timeline phase, ordered with the other Timeline effects (D15).

**The lightning windows.** "At any moment" is read as: at any moment the rules hand control to
the player between two steps of play. The engine offers each usable lightning chest

1. as an extra option of every action choice (``D_ACTION``: before the 1st and the 2nd action),
2. at a window decision (``D_CHEST_WINDOW``: the chests, or ``done``) at the start of the
   Timeline phase, of the Decline phase (the last moment before the game can end and the goals
   are checked) and of the Technology phase,
3. at a window decision between two effects that resolve in the player's order (``D_ORDER``:
   the Timeline phase's effects, or a group of simultaneous effects of a Create, a Learn or an
   Excavate, D15): each waiting effect checks its condition when it resolves, so a chest used
   between two can change it (with 6 lost knowledge: Ishibutai Kofun removes 1 at "at least 5",
   chest В discards 3 more, Petra's "at most 2" then draws a card),
4. at a window decision in the decline phase (section 4C): between two monuments of space 1
   that decline (one has declined and freed its place, so a chest's Create may put a monument
   there, to decline now and reach the Past; before the phase the space may be full, after it
   the monument would decline a turn later, or never in the last turn); before the first
   decline when step 1 took the time card out of space 1 (the same for the place it freed);
   after the last decline, before Elongated Skulls (A32) and the slide (a monument created in
   space 1 there declines too; one created in space 2-6 slides with the others),
5. at a window decision between the 7th monument's entering the Past and the middle-of-game
   flip (section 6): a chest's Learn there may take a technology of the tile the flip then
   discards.

Line files before format 3 do not know the windows 3 and the between-declines one of 4
(`SINCE_BETWEEN`); those before format 4 do not know the rest of 4 and 5 (`SINCE_STEPS`):
`puzzles.lines` answers ``done`` there for them (`window_since`). On a turn of Potala Palace
(only step 1 and the time card's slide) no decline-phase window opens but the one at its start.

**No window inside a step.** Between two windows the rules run one step of play as a whole:
one effect from its first instruction to its last ("discard 2 artifact cards; if you do, draw
4" is one effect), a cost being paid, a removal being distributed, one monument's decline with
its conversion, a Learn with its tile's refill (the refill comes with the technology's
departure, card clarifications "Tech tiles"), the technology phase's roll with its refill, the
end of a turn. "At any moment" is read as between such steps, as for any card effect, which
never interrupts another. This reading loses lines a reading "even inside a step" would have,
and they are not lines of this engine: a chest's Learn of a technology whose requirement holds
only halfway through an effect (Ptolemy's "at most 1 card in hand" between A7's discard and
its draw), or of a tile's last card before its departure refills the tile. Where a chest only
adds (cards, removals of knowledge or lost knowledge) and nothing inside the step reads what
it adds, a use inside the step reaches what a use at the window before or after it reaches.
Likewise an action and the first effect it sets off (a Create's placement and its group, D15;
a technology's departure and its immediate effect) run as one: the window before the action
and the one after that effect stand for the moment between them, except where the chest
reads what the action did and that effect reads what the chest changes (О removing knowledge
from the monument just created before a reaction counts it; Ж creating a card that then
misses the group), lines this reading leaves out too.

Goal chests' effects are never usable (section 8), and chests are never offered during setup.
"""

from __future__ import annotations

from typing import Final

from solver.engine import actions as A
from solver.engine.chestcards import Chest
from solver.engine.frames import (
    D_CHEST_GOALS,
    D_CHEST_REVISE,
    D_CHEST_USE,
    D_CHEST_WINDOW,
    D_FLIP,
    D_ORDER,
    F_DECLINE_NEXT,
    F_STEPS,
    Frame,
    Registry,
)
from solver.engine.state import CHEST_BASE, EMPTY, GameState

LIGHTNING: Final = "lightning"
TIMELINE: Final = "timeline"
CHEST_MOMENTS: Final = (LIGHTNING, TIMELINE)
MAX_PER_ZONE: Final = 5  # rulebook: at most 5 chests on the board, at most 5 under it
PICK_BASE: Final = A.CHEST_PICK  # "chest:Б" (choose a chest) vs "!chest:Б" (use its effect)


def chest_of(st: GameState, k: int) -> Chest:
    """Chest `k` of this game's chest data (`Setup.chest_data`)."""
    data = st.setup.chest_data
    assert data is not None, "a game with chests has chest data (Setup.__post_init__)"
    return data.chests[k]


# ------------------------------------------------------------------ effects under the board

def lightning_options(st: GameState) -> list[int]:
    """``!chest:X`` for each chest under the board whose effect is a lightning one (a game
    without chest data knows no effect: nothing is offered)."""
    if not st.chests_under or st.turn < 1 or st.over or st.setup.chest_data is None:
        return []
    return [A.code(A.CHEST, k) for k in st.chests_under if chest_of(st, k).moment == LIGHTNING]


def use_chest(st: GameState, k: int) -> None:
    """Apply a chest's effect and discard the chest (D16). The effect's steps run with the
    source ``CHEST_BASE + k``: no card, so "this card" and adjacency never match."""
    st.chests_under.remove(k)
    steps = chest_of(st, k).steps
    if steps:
        st.stack.append((F_STEPS, CHEST_BASE + k, steps, 0, 0, False))


#: A window frame names the line-file format that brought it (`window_since`): the windows of
#: moments 1-2 are ``(D_CHEST_WINDOW,)`` (every format), those between two effects or two
#: declines ``(D_CHEST_WINDOW, SINCE_BETWEEN)``, the other decline-phase ones and the one
#: before the flip ``(D_CHEST_WINDOW, SINCE_STEPS)``.
SINCE_BETWEEN: Final = 3
SINCE_STEPS: Final = 4


def window_since(st: GameState) -> int:
    """The line-file format that brought the lightning window `st` waits at (0: no window with
    a chest to use is pending; `puzzles.lines` answers ``done`` at a window its line's format
    does not know)."""
    stack = st.stack
    if not stack or stack[-1][0] != D_CHEST_WINDOW or not st.legal:
        return 0
    top = stack[-1]
    return top[1] if len(top) > 1 else 1


def window_options(st: GameState, fr: Frame) -> list[int]:
    """A lightning window: the usable chests, or ``done`` (no chest: the window vanishes)."""
    opts = lightning_options(st)
    return opts + [A.DONE] if opts else []


#: The frames a window within a phase sits on (moments 3-5 of the module): the order of the
#: effects still waiting, the next decline of space 1, the middle-of-game flip.
BETWEEN_FRAMES: Final = frozenset({D_ORDER, F_DECLINE_NEXT, D_FLIP})


def window_between(st: GameState) -> bool:
    """Whether the pending decision is a lightning window between two effects resolving in the
    player's order or between two declines (the windows `solver.engine.turn.order_choose` and
    `solver.engine.decline.decline_next` open; line files before format 3 do not know them,
    `puzzles.lines`)."""
    return window_since(st) == SINCE_BETWEEN


def window_choose(st: GameState, fr: Frame, action: int) -> None:
    """Use a chest (the window stays open for the others) or close the window."""
    if action == A.DONE:
        return
    st.stack.append(fr)  # the window stays open for another chest
    use_chest(st, A.value_of(action))


def timeline_items(st: GameState) -> list[tuple[int, int]]:
    """Timeline-phase queue items ``(CHEST_BASE + k, 0)`` for timeline chests under the board
    (they join the Timeline effects in the player's order, D15)."""
    if st.setup.chest_data is None:
        return []
    return [(CHEST_BASE + k, 0) for k in st.chests_under if chest_of(st, k).moment == TIMELINE]


def use_options(st: GameState, fr: Frame) -> list[int]:
    """A Timeline chest's turn: use it now (yes) or keep it (no)."""
    return [A.YES, A.NO] if fr[1] in st.chests_under else []


def use_choose(st: GameState, fr: Frame, action: int) -> None:
    """A timeline chest's turn in the order: the player may use it now (then it is discarded)
    or keep it for a later Timeline phase (it is usable once, D16)."""
    if action == A.YES:
        use_chest(st, fr[1])


def discard_unused_chests(st: GameState) -> None:
    """Effect chests under the board that were not used are discarded at the end (section 8)."""
    st.chests_under.clear()


# ------------------------------------------------------------------ campaign decisions

def place_goal(st: GameState, k: int) -> None:
    """A goal chest goes into the leftmost free artifact space (section 3.3, D11)."""
    st.artifacts[st.free_artifact_space()] = CHEST_BASE + k
    st.goal_chests.append(k)


def goals_options(st: GameState, fr: Frame) -> list[int]:
    """Campaign setup (section 10): choose 1-5 of the revealed chests as goals, one at a time in
    rising letter order (one sequence per set), then ``done``. Worthiest Heir takes all."""
    _, last, chosen = fr
    revealed = st.setup.revealed_indices()
    left = [k for k in revealed if k > last]
    if st.setup.worthiest_heir:  # every revealed chest: nothing to choose
        return [A.code(A.CHEST, PICK_BASE + k) for k in left[:1]]
    opts = [A.code(A.CHEST, PICK_BASE + k) for k in left]
    if chosen:
        opts.append(A.DONE)
    return opts


def goals_choose(st: GameState, fr: Frame, action: int) -> None:
    """A chosen chest goes into the leftmost free artifact space at once."""
    _, _, chosen = fr
    if action == A.DONE:
        return
    k = A.value_of(action) - PICK_BASE
    place_goal(st, k)
    st.stack.append((D_CHEST_GOALS, k, chosen + (k,)))


def revise_options(st: GameState, fr: Frame) -> list[int]:
    """Campaign mid-game revision (section 6): right after the flip, the player may discard
    goal chests from the board, once, one at a time in rising letter order, keeping at least
    one; ``done`` ends it."""
    last = fr[1]
    opts = []
    if len(st.goal_chests) > 1:
        opts = [A.code(A.CHEST, PICK_BASE + k) for k in sorted(st.goal_chests) if k > last]
    return opts + [A.DONE] if opts else []


def revise_choose(st: GameState, fr: Frame, action: int) -> None:
    """A goal given up returns to the box (deck 1) and frees its artifact space (section 6)."""
    if action == A.DONE:
        return

    k = A.value_of(action) - PICK_BASE
    st.goal_chests.remove(k)
    st.artifacts[st.artifacts.index(CHEST_BASE + k)] = EMPTY  # the space is free again
    st.stack.append((D_CHEST_REVISE, k))


def start_revision(st: GameState) -> None:
    """Offer the revision after the middle-of-game flip, in Campaign mode only."""
    if st.setup.campaign and len(st.goal_chests) > 1:
        st.stack.append((D_CHEST_REVISE, -1))


def register() -> Registry:
    """The chest decisions for the engine loop (`solver.engine.flow`)."""
    options = {D_CHEST_WINDOW: window_options, D_CHEST_USE: use_options,
               D_CHEST_GOALS: goals_options, D_CHEST_REVISE: revise_options}
    choose = {D_CHEST_WINDOW: window_choose, D_CHEST_USE: use_choose,
              D_CHEST_GOALS: goals_choose, D_CHEST_REVISE: revise_choose}
    return {}, options, choose
