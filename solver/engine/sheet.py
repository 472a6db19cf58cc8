"""The score sheet: five rows and their total (RULES.md section 7, D1).

A plain record, below the state, so that the state can name the type of its own score.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from solver.frozen import Frozen


@dataclass(frozen=True)
class ScoreSheet(Frozen):
    past: int
    effects: int
    technologies: int
    timeline: int
    lost_knowledge: int

    @property
    def total(self) -> int:
        return self.past + self.effects + self.technologies + self.timeline + self.lost_knowledge

    def as_dict(self) -> dict[str, int]:
        d = asdict(self)
        d["total"] = self.total
        return d
