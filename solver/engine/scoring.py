"""Final scoring: the five rows of the score sheet (RULES.md section 7, D1).

1. VP printed on monuments in the Past. 2. VP from end-game effects of monuments in the Past.
3. VP of Level II technologies. 4. +1 per monument still in the Timeline. 5. -1 per lost
knowledge. The rulebook's sheets 29/18/31/1/-32 (47) and 39/25/11/5/-4 (76) are these rows.
"""

from __future__ import annotations

from typing import Final

from solver.engine.cards import Score
from solver.engine.conditions import Counts
from solver.engine.sheet import ScoreSheet
from solver.engine.state import GameState


def score_rule(counts: Counts, rule: Score, source: int) -> int:
    """VP of one end-game rule: fixed, k per counted thing, or the highest tier reached."""
    if rule.per is not None:  # (what `read_counter` names)
        return rule.times * counts.at(rule.per, source)
    if rule.tiers and rule.counter is not None:
        value = counts.at(rule.counter, source)
        vp = 0
        for at_least, points in rule.tiers:
            if value >= at_least:
                vp = points
        return vp
    return rule.fixed


#: Counters that read only the Past, the technologies and the lost knowledge
#: (`solver.engine.conditions.COUNTERS`), with the cards' printed facts.
KEYED_COUNTERS: Final = frozenset({
    "past.city", "past.megalith", "past.pyramid", "past.any", "past.max_type", "past.min_type",
    "past.endgame", "techs.ancient", "techs.secret", "techs.writing", "techs.any",
    "techs.min_type", "techs.max_type", "lost",
})
#: Counters that read only the Timeline's places.
TIMELINE_COUNTERS: Final = frozenset({
    "timeline.city", "timeline.megalith", "timeline.pyramid", "timeline.any",
    "timeline.min_type", "space1",
})


def read_counter(rule: Score) -> str | None:
    """The counter an end-game rule reads (`score_rule`), or None for a fixed value."""
    if rule.per is not None:
        return rule.per
    if rule.tiers and rule.counter is not None:
        return rule.counter
    return None


def score_sheet(st: GameState) -> ScoreSheet:
    """The five rows for the current position (meaningful at the end of the game). The
    counters the end-game rules read are computed once for all the Past monuments (`Counts`:
    the state does not change while it is scored).

    The sheet is remembered on the state (`GameState.score_memo`, copied by `clone`) with the
    facts it was computed from: the Past, the technologies and the lost knowledge, and the
    Timeline's places when a rule read them. It is remembered only when every end-game rule it
    evaluated reads those facts alone (`KEYED_COUNTERS`, `TIMELINE_COUNTERS`). The rules
    evaluated are those of the Past's cards, which are part of the key, so a later position
    with the same key evaluates the same rules on the same facts: same Past, effects and
    technologies rows, and the same lost-knowledge row; the Timeline row is counted anew."""
    key = (tuple(st.past), tuple(st.techs), st.lost)
    monuments = len(st.monuments())
    memo = st.score_memo
    if memo is not None and memo[0] == key and (memo[1] is None or memo[1] == tuple(st.spaces)):
        sheet = memo[2]
        if sheet.timeline == monuments:
            return sheet
        sheet = ScoreSheet(past=sheet.past, effects=sheet.effects,
                           technologies=sheet.technologies, timeline=monuments,
                           lost_knowledge=sheet.lost_knowledge)
        st.score_memo = (key, memo[1], sheet)
        return sheet
    cards = st.book.cards
    counts = Counts(st)
    keyed = True
    spaces: tuple[tuple[int, ...], ...] | None = None
    past = effects = 0
    for c in st.past:
        card = cards[c]
        past += card.vp
        for e in card.effects:
            rule = e.score
            if rule is not None:
                effects += score_rule(counts, rule, c)
                read = read_counter(rule)
                if read is None or read in KEYED_COUNTERS:
                    continue
                if read in TIMELINE_COUNTERS:
                    spaces = tuple(st.spaces)
                else:
                    keyed = False
    sheet = ScoreSheet(
        past=past,
        effects=effects,
        technologies=sum(cards[t].vp for t in st.techs),
        timeline=monuments,
        lost_knowledge=-st.lost,
    )
    if keyed:
        st.score_memo = (key, spaces, sheet)
    return sheet
