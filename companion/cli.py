"""The `companion` command line: one entry point, subcommands discovered from `commands/`.

Every module in `companion.commands` defines `register(subparsers)` and adds its own parser(s),
with `set_defaults(run=callable)`; a callable takes the parsed namespace and returns an exit
code. Commands that share a group (`bench vision`, `bench rules`, `score hexapod`...) get the
group's sub-parsers from `group()`, so each feature owns one module and none edits another's.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
import weakref
from collections.abc import Sequence

from . import __version__, commands

# Each parser's command groups, kept with the parser itself: a key by id() outlives the parser
# it named, and a new parser given the same id took the old one's groups ("conflicting
# subparser" when tests build parsers one after another).
_GROUPS: weakref.WeakKeyDictionary[argparse._SubParsersAction,
                                   dict[str, argparse._SubParsersAction]] = (
    weakref.WeakKeyDictionary())


def group(subparsers: argparse._SubParsersAction, name: str, help_text: str):
    """The sub-parsers of command group `name` (created on first use)."""
    groups = _GROUPS.setdefault(subparsers, {})
    if name not in groups:
        parser = subparsers.add_parser(name, help=help_text, description=help_text)
        parser.set_defaults(run=lambda args, p=parser: (p.print_help(), 2)[1])
        groups[name] = parser.add_subparsers(title=f"{name} commands", metavar="WHAT")
    return groups[name]


def build_parser() -> argparse.ArgumentParser:
    """The full parser with every discovered subcommand."""
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Table Companion: a camera referee for card games at a real table.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run = getattr(args, "run", None)
    if run is None:
        parser.print_help()
        return 2
    try:
        code = int(run(args) or 0)
        sys.stdout.flush()  # surface a closed pipe here, not at interpreter exit
        return code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`companion … | head`): stop quietly, as Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
