"""`magboard engines`: the Go engines magboard knows by name, which of them are installed, and whether
each answers the Go Text Protocol on our boards (host/peers/gtp/named.py)."""

from __future__ import annotations

import argparse

from engines import registry
from engines.gtp import gtp_facts
from host.peers.gtp.named import ENGINES, answers, where
from host.peers.gtp.protocol import GtpError
from host.shown import shown

DEFAULT_LEVEL = 10  # `magboard play`'s


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("engines", help="the Go engines known by name (--engine NAME): found, and answering?")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    games = [(g, f) for g, f in ((g, gtp_facts(registry.make(g))) for g in registry.available()) if f]
    facts = [f for _, f in games]
    for engine in ENGINES:
        path = where(engine.name)
        if path is None:
            print(f"{engine.name}: not found: {engine.words}")
            continue
        line = engine.line(DEFAULT_LEVEL, facts[0].rules) if facts else engine.name
        try:
            said = f"answers: {answers(line, facts)}"
        except GtpError as exc:
            print(shown(f"{engine.name}: {path}: does not answer: {exc}"))
            continue
        uses = "; ".join(f"magboard play {g} --engine {engine.name}" for g, _ in games)
        print(shown(f"{engine.name}: {path}: {said} ({uses})"))
    return 0
