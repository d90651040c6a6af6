"""Subcommands of the `companion` CLI, one module per feature (see `companion.cli`).

Modules here import their heavy dependencies (OpenCV, Flask...) inside the command function,
so that `companion --help` and the rules commands start fast.
"""
