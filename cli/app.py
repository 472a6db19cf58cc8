"""The `heritage` command line: a thin Typer layer over `solver` and `puzzles`."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="heritage",
    help="Exact rules engine and solver for the solo modes of Ancient Knowledge: Heritage.",
    no_args_is_help=True,
    add_completion=False,
)


def _mount_subcommands() -> None:
    from cli.antike import antike_app

    app.add_typer(antike_app, name="antike")


def main() -> None:
    """Console-script entry point."""
    try:
        _mount_subcommands()
    except ImportError:  # pragma: no cover - while a sub-app is being written
        pass
    app()


if __name__ == "__main__":
    main()
