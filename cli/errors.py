"""How the command line answers what goes wrong before or around a command, in one line.

`OneLineGroup` is the top-level Click group of ``heritage``: a usage error Click finds (an
option that is not a number, a value out of range, an unknown option or command, a missing
argument) prints one line on stderr, ``error: heritage play: Invalid value for '--trial': 'x'
is not a valid integer. (heritage play --help)``, and exits 2, as every other bad input does
(`cli.common.fail`); Typer's boxed message is not used. Ctrl-C while a command loads or works,
outside a search (which keeps its best line: `solver.solve`), prints one line and exits 130.

This module imports only Click and Typer, so that ``heritage --help`` stays quick.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperGroup

#: Click's exceptions, from wherever Typer takes Click (recent Typer versions vendor it).
_CLICK = sys.modules[typer.BadParameter.__module__]
ClickException: Any = _CLICK.ClickException
UsageError: Any = _CLICK.UsageError
NoArgsIsHelpError: Any = getattr(_CLICK, "NoArgsIsHelpError", ())

#: Exit code of a command stopped by Ctrl-C before it had a result (128 + SIGINT, as shells do).
EXIT_INTERRUPTED = 130
#: A process whose reader closed its output pipe, as the shell reports one killed by SIGPIPE
#: (128 + 13).
EXIT_BROKEN_PIPE = 141
EXIT_USAGE = 2
INTERRUPTED = "error: interrupted (Ctrl-C) before a result"
#: Usage messages quote the value given; a line longer than this is cut.
MAX_LINE = 400


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= MAX_LINE else line[:MAX_LINE] + "..."


def given_value(exc: Any, args: list[str]) -> str | None:
    """The value the user gave to the option a Click error is about, found in `args` (recent
    Click messages no longer quote it), or None."""
    opts = getattr(getattr(exc, "param", None), "opts", None) or ()
    for k, word in enumerate(args):
        for opt in opts:
            if word == opt and k + 1 < len(args):
                return args[k + 1]
            if word.startswith(opt + "="):
                return word[len(opt) + 1:]
    return None


def usage_line(exc: Any, args: list[str] | None = None) -> str:
    """The one line of a Click error: the command, Click's message (with the value given),
    where the help is."""
    ctx = getattr(exc, "ctx", None)
    where = ctx.command_path if ctx is not None else "heritage"
    message = exc.format_message().replace("Value error, ", "")  # a validator's prefix
    value = given_value(exc, args or [])
    if value is not None and repr(value) not in message:
        message = f"{message.rstrip('.')}; got {value[:80]!r}"
    hint = f" ({where} --help)" if isinstance(exc, UsageError) else ""
    return _one_line(f"error: {where}: {message}{hint}")


class OneLineGroup(TyperGroup):
    """A Typer group whose errors outside the commands are one line (module docstring)."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        code: Any
        try:
            code = super().main(args=args, prog_name=prog_name, complete_var=complete_var,
                                standalone_mode=False, windows_expand_args=windows_expand_args,
                                **extra)
        except NoArgsIsHelpError as exc:  # "heritage" alone: the help
            exc.show()
            code = exc.exit_code
        except ClickException as exc:
            typer.echo(usage_line(exc, list(sys.argv[1:] if args is None else args)), err=True)
            code = exc.exit_code
        except typer.Abort:  # end of input at a prompt
            typer.echo("error: aborted (end of input)", err=True)
            code = 1
        if not isinstance(code, int):
            code = 0
        if standalone_mode:
            sys.exit(code)
        return code

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None,
                     **extra: Any) -> Any:
        """Parsing the options (Typer loads its coercion lazily): Ctrl-C here is answered in one
        line (Typer would exit 130 silently)."""
        try:
            return super().make_context(info_name, args, parent, **extra)
        except KeyboardInterrupt:
            typer.echo(INTERRUPTED, err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None

    def invoke(self, ctx: Any) -> Any:
        """Loading and running a command: Ctrl-C outside a search is answered in one line; a
        reader that closed the pipe (``heritage cards | head``) ends the command quietly with
        `EXIT_BROKEN_PIPE` (Click would exit 1, the "no" of check and verify)."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            typer.echo(INTERRUPTED, err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except BrokenPipeError:
            # nothing more can be said on stdout, and the flush at exit must not fail on it
            with contextlib.suppress(OSError, ValueError):  # a stdout with no file (tests)
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(EXIT_BROKEN_PIPE) from None
