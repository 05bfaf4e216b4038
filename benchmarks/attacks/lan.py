"""LAN lockout: guessers at many addresses send wrong pairing codes while the owner pairs with the right one.

On a real page server (served on every address, as `page = "0.0.0.0:8765"` does; the traffic goes
to 127.0.0.1 only, each guesser from its own loopback address), guessers send wrong codes as fast as
they can while the owner, now and then, opens the pairing URL - sometimes mistyping first, as people
do.  Every owner's try with the right code must pair at once (303 and the cookie).  Then the same
pairing rules run an hour of simulated minutes against thousands of addresses: the codes checked
in any minute must stay under the ceiling plus one per address new that minute, and the owner must
always be heard.
"""

from __future__ import annotations

import http.client
import random
import threading
import time
from pathlib import Path

from attacks.common import Budget, Table
from host.web.access import FAILURE_WINDOW_S, GRACE, MAX_ALL_FAILURES, MAX_FAILURES, Pairing
from host.web.server import PageServer

GUESSERS = 24
STEPS = 12  # moments a simulated minute is cut into; every guesser tries at each


def _get(port: int, path: str, source: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    try:
        conn.request("GET", path, headers={"Host": f"127.0.0.1:{port}"})
        answer = conn.getresponse()
        answer.read()
        return answer.status, answer.getheader("Set-Cookie") or ""
    finally:
        conn.close()


def _live(budget: Budget, table: Table) -> None:
    with PageServer("0.0.0.0", 0) as server:
        assert server.pairing is not None
        code, port = server.pairing.code, server.port
        wrong = "A" * len(code) if code != "A" * len(code) else "B" * len(code)
        stop = threading.Event()
        sent = [0] * GUESSERS
        refused = [0] * GUESSERS

        def guess(index: int) -> None:
            while not stop.is_set():
                status, _ = _get(port, f"/pair?code={wrong}", f"127.0.0.{2 + index}")
                sent[index] += 1
                refused[index] += status == 429

        threads = [threading.Thread(target=guess, args=(i,), daemon=True) for i in range(GUESSERS)]
        for thread in threads:
            thread.start()
        rng = random.Random(budget.seed)
        slowest = 0.0
        for trial in budget.trials():
            time.sleep(rng.uniform(0.05, 0.3))
            owner = f"127.0.1.{trial % 250 + 1}"  # a phone, a tablet, a laptop: each its own address
            if rng.random() < 0.3:
                _get(port, "/pair?code=MISTYPED", owner)
            started = time.monotonic()
            status, cookie = _get(port, f"/pair?code={code.lower() if rng.random() < 0.5 else code}", owner)
            slowest = max(slowest, time.monotonic() - started)
            paired = status == 303 and "magboard_pair=" in cookie
            table.tried("the owner pairs while guessers guess", None if paired else f"answered {status}")
        stop.set()
        for thread in threads:
            thread.join(timeout=15)
    table.figures["wrong codes sent"] = sum(sent)
    table.figures["answered 429 (wait)"] = sum(refused)
    table.figures["the owner's slowest pairing"] = f"{slowest * 1000:.0f} ms"


def _simulated(budget: Budget, table: Table) -> None:
    """An hour of minutes, each with guessers old and new; the owner tries once a minute."""
    now = [0.0]
    pairing = Pairing(clock=lambda: now[0])
    rng = random.Random(budget.seed)
    wrong = "A" * len(pairing.code) if pairing.code != "A" * len(pairing.code) else "B" * len(pairing.code)
    addresses = 0
    worst = 0
    for minute in range(60):
        if minute >= 10 and budget.left() <= 0:
            break
        fresh = rng.choice((0, 10, 100, 500))
        known = [f"10.{minute}.{i // 250}.{i % 250}" for i in range(fresh)]
        addresses += fresh
        checked = 0
        owner_at = rng.randrange(STEPS)
        for step in range(STEPS):
            now[0] = (minute * STEPS + step) * FAILURE_WINDOW_S / STEPS
            for address in known + [f"10.200.0.{i}" for i in range(GUESSERS)]:
                if not pairing.paused(address):
                    pairing.pair(wrong, address)
                    checked += 1
            if step == owner_at:
                owner = f"192.168.1.{minute % 200 + 2}"
                if rng.random() < 0.3:
                    pairing.pair(wrong, owner)  # a typo first
                heard = pairing.pair(pairing.code, owner) is not None
                table.tried(
                    "the owner pairs (simulated minute)", None if heard else f"minute {minute}: refused"
                )
        bound = MAX_ALL_FAILURES + GRACE * (fresh + GUESSERS) + MAX_FAILURES * GUESSERS
        worst = max(worst, checked)
        table.tried(
            "codes checked in a minute stay bounded", None if checked <= bound else f"{checked} > {bound}"
        )
    table.figures["simulated minutes"] = minute + 1
    table.figures["simulated addresses"] = addresses + GUESSERS
    table.figures["most codes checked in a simulated minute"] = worst
    table.figures["rules"] = (
        f"{MAX_FAILURES} per address, {MAX_ALL_FAILURES} from all per {FAILURE_WINDOW_S:g} s"
        f" (beyond it an address with {GRACE} wrong codes waits)"
    )


def run(budget: Budget, work: Path) -> Table:
    table = Table("LAN lockout: guessers at many addresses, the owner with the code")
    _live(Budget(budget.seconds / 2, budget.count, budget.seed), table)
    _simulated(budget, table)
    return table
