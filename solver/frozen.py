"""Frozen dataclasses that pickle alike in both builds (README, "Builds").

Positions, setups and search results cross process boundaries (the NRPA workers of
`solver.solve`, the analysis pool, sweeps), so they must pickle. The default way restores an
object's fields one `setattr` at a time, which a frozen dataclass refuses once mypyc has
compiled it. A `Frozen` dataclass is pickled instead as a call of its class with its ``init``
fields; the other fields are derived in ``__post_init__`` and come back the same. Interpreted
or compiled, the copy equals the original.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


class Frozen:
    """Base of the frozen dataclasses of the compiled rooms (see the module)."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        dataclass_instance: Any = self
        values = tuple(getattr(self, f.name) for f in fields(dataclass_instance) if f.init)
        return rebuilt, (type(self), values)


def rebuilt(cls: Any, values: tuple[Any, ...]) -> Any:
    """An instance of the dataclass `cls` made from its ``init`` field values, in order."""
    return cls(*values)
