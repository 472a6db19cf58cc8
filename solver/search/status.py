"""The status words every solver reports, and the exit codes the command line maps them to.

The words are the same for every method (CP-SAT, the exhaustive search, ...), so the methods of
one puzzle can be compared and a script can read either:

* ``OPTIMAL``: a solution was found and proven best;
* ``FEASIBLE``: a solution was found but the proof was cut short (node or time limit);
* ``INFEASIBLE``: proven that no solution exists;
* ``UNKNOWN``: the limit was reached before any solution or proof.
"""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    """The outcome of a solve, named by the word the CLI prints."""

    OPTIMAL = "OPTIMAL"
    FEASIBLE = "FEASIBLE"
    INFEASIBLE = "INFEASIBLE"
    UNKNOWN = "UNKNOWN"

    @property
    def has_solution(self) -> bool:
        """True when the solver returns a solution (``OPTIMAL`` or ``FEASIBLE``)."""
        return self in (Status.OPTIMAL, Status.FEASIBLE)

    @property
    def exit_code(self) -> int:
        """The process exit code of the command line for this status (see `exit_code`)."""
        return exit_code(self)


#: Exit code of a usage or input error (bad option value, unknown name); not a solver status.
EXIT_USAGE_ERROR = 2

_EXIT_CODES: dict[Status, int] = {
    Status.OPTIMAL: 0,
    Status.FEASIBLE: 0,
    Status.INFEASIBLE: 1,
    Status.UNKNOWN: 3,
}


def exit_code(status: Status) -> int:
    """The exit code of a solve: 0 when a solution was found, 1 when proven infeasible, 3 unknown.

    >>> exit_code(Status.INFEASIBLE)
    1
    """
    return _EXIT_CODES[status]


def search_status(complete: bool, found: bool) -> Status:
    """The status of a branch and bound that stopped (`complete`: searched through) having
    `found` a line better than its incumbent or not: a complete search that found none proves
    that nothing beats the incumbent (``INFEASIBLE`` in that sense; the caller holding the
    incumbent's line makes it ``OPTIMAL``).

    >>> search_status(True, False)
    <Status.INFEASIBLE: 'INFEASIBLE'>
    """
    if complete:
        return Status.OPTIMAL if found else Status.INFEASIBLE
    return Status.FEASIBLE if found else Status.UNKNOWN
