"""The click options of campaigns (``simulate``, ``balance``, ``coverage``): ``--engine``, ``--jobs``,
``--address``, ``--results`` and ``--resume``; the runs are :mod:`bgrules.runners.campaign_cli`'s."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click

from bgrules.runners.campaign_cli import ENGINES


def engine_options(fn: Callable[..., None]) -> Callable[..., None]:
    """``--engine``, ``--jobs``, ``--address``, ``--results`` and ``--resume`` (parameters ``engine``,
    ``jobs``, ``address``, ``results``, ``resume``)."""
    options = [
        click.option(
            "--engine",
            type=click.Choice(ENGINES),
            default="local",
            show_default=True,
            help="where the games' shards run: local worker processes (--jobs) or Ray tasks (--address); "
            "the results are the same either way (docs/campaigns.md)",
        ),
        click.option(
            "--jobs",
            "-j",
            type=int,
            default=None,
            help="local worker processes for the shards [default: 1]; the results are the same whatever N",
        ),
        click.option(
            "--address",
            default=None,
            metavar="ADDR",
            help="--engine ray: the Ray cluster's address (host:port, ray://host:port or auto) "
            "[default: start a local Ray]",
        ),
        click.option(
            "--results",
            type=click.Path(path_type=Path),
            default=None,
            metavar="FILE",
            help="append each finished shard to FILE as it finishes (JSON lines; a new file)",
        ),
        click.option(
            "--resume",
            type=click.Path(path_type=Path),
            default=None,
            metavar="FILE",
            help="continue the campaign of results file FILE: only its missing shards run, appended to it",
        ),
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


__all__ = ["engine_options"]
