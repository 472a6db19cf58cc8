"""Final scoring: the five rows of the score sheet (RULES.md section 7, D1).

1. VP printed on monuments in the Past. 2. VP from end-game effects of monuments in the Past.
3. VP of Level II technologies. 4. +1 per monument still in the Timeline. 5. -1 per lost
knowledge. The rulebook's sheets 29/18/31/1/-32 (47) and 39/25/11/5/-4 (76) are these rows.
"""

from __future__ import annotations

from solver.engine.cards import Score
from solver.engine.conditions import count
from solver.engine.sheet import ScoreSheet
from solver.engine.state import GameState


def score_rule(st: GameState, rule: Score, source: int) -> int:
    """VP of one end-game rule: fixed, k per counted thing, or the highest tier reached."""
    if rule.per is not None:
        return rule.times * count(st, rule.per, source)
    if rule.tiers and rule.counter is not None:
        value = count(st, rule.counter, source)
        vp = 0
        for at_least, points in rule.tiers:
            if value >= at_least:
                vp = points
        return vp
    return rule.fixed


def effect_vp(st: GameState, card: int) -> int:
    total = 0
    for e in st.book.cards[card].effects:
        if e.score is not None:
            total += score_rule(st, e.score, card)
    return total


def score_sheet(st: GameState) -> ScoreSheet:
    """The five rows for the current position (meaningful at the end of the game)."""
    cards = st.book.cards
    return ScoreSheet(
        past=sum(cards[c].vp for c in st.past),
        effects=sum(effect_vp(st, c) for c in st.past),
        technologies=sum(cards[t].vp for t in st.techs),
        timeline=sum(1 for _ in st.monuments()),
        lost_knowledge=-st.lost,
    )
