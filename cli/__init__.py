"""The `heritage` command line (`cli.app`).

Ctrl-C while the command line itself is still being imported (the first fraction of a second)
ends with one line on stderr, not a traceback: the hook below answers an interrupt that reaches
the top of the program; any other uncaught exception goes to the previous hook. Once a command
runs, `cli.errors.OneLineGroup` answers Ctrl-C, and a search keeps its best line
(`solver.solve`).
"""

from __future__ import annotations

import sys
from types import TracebackType

_previous_hook = sys.excepthook


def _interrupted(kind: type[BaseException], value: BaseException,
                 tb: TracebackType | None) -> None:
    if issubclass(kind, KeyboardInterrupt):
        sys.stderr.write("error: interrupted (Ctrl-C) before a result\n")
        return
    _previous_hook(kind, value, tb)


sys.excepthook = _interrupted
