"""Subcommands of `magboard`: each module defines ``register(subparsers)``.

A module registers one or more subparsers and sets ``run`` (a function taking
the parsed arguments and returning the exit status) with ``set_defaults``.
"""
