"""Who may talk to the page server: the names it answers to, and pairing on the network.

A browser sends the name it used in the Host header. A page on another site
that rebinds its own DNS name to this machine's address still sends its own
name, so a request is served only under one of this machine's names or
addresses: that check alone stops DNS rebinding, on the loopback and on the LAN.

On the loopback only the people at this machine can connect. Served on the
network, anyone there could, so a browser must pair first: the terminal
shows a random code (and a URL and QR code carrying it); the pairing page
exchanges it for a cookie (HttpOnly, so no script reads it; SameSite=Strict,
so no other site's page sends it) that lets that browser press the buttons.
Without it the page only watches.

Wrong codes are counted per client address: MAX_FAILURES a minute from one
address and that address waits, so a neighbour guessing never locks out the
owner (a count shared by everyone did: one device sending a wrong code every
quarter second kept pairing paused for all).  Against many addresses at once
there is a ceiling, MAX_ALL_FAILURES a minute from everyone: beyond it an
address waits once it gave GRACE wrong codes, while one with fewer is still
heard - so the owner gets in even after a typo or two, and guessers get at
most the ceiling plus GRACE guesses per address a minute, against 2**40 codes.
"""

from __future__ import annotations

import contextlib
import ipaddress
import secrets
import socket
import time
from collections import deque
from collections.abc import Callable
from functools import cache
from http.cookies import CookieError, SimpleCookie

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread
CODE_LENGTH = 8  # 40 bits: with MAX_FAILURES a minute, guessing takes longer than the universe has
COOKIE = "magboard_pair"
MAX_FAILURES = 10  # wrong codes per FAILURE_WINDOW_S from one address before that address waits
MAX_ALL_FAILURES = 100  # from every address together, before those with GRACE wrong codes of their own wait
GRACE = 3  # wrong codes an address may give while the ceiling is reached: a typo or two
FAILURE_WINDOW_S = 60.0
MAX_CLIENTS = 4096  # addresses remembered with their wrong codes; the one longest quiet is forgotten first


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_unspecified(host: str) -> bool:
    """0.0.0.0 or ::, which serve every address of the machine."""
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


@cache
def _bindable(address: str) -> bool:
    """Whether address is one of this machine's own (only those can be bound to)."""
    ip = ipaddress.ip_address(address)
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((address, 0))
    except OSError:
        return False
    return True


def own_names() -> frozenset[str]:
    """The names this machine answers to: localhost, its host name, that name on mDNS, its FQDN."""
    hostname = socket.gethostname().lower().rstrip(".")
    names = {"localhost", hostname, f"{hostname}.local"}
    with contextlib.suppress(OSError):
        names.add(socket.getfqdn().lower().rstrip("."))
    return frozenset(name for name in names if name)


def is_own_address(host: str) -> bool:
    """An IP address of this machine (never 0.0.0.0 or ::, which no page is served under)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return not ip.is_unspecified and (ip.is_loopback or _bindable(str(ip)))


def is_own_host(host: str) -> bool:
    """A name or address that is this machine's own."""
    return host.lower().rstrip(".") in own_names() or is_own_address(host)


def split_host(value: str) -> tuple[str, str]:
    """A Host header's name and port ("" when absent): "[::1]:80" -> ("::1", "80")."""
    if value.startswith("["):
        name, _, rest = value[1:].partition("]")
        return name, rest.removeprefix(":")
    if value.count(":") > 1:  # a bare IPv6 address
        return value, ""
    name, _, port = value.partition(":")
    return name, port


def network_address() -> str:
    """The address phones on the network reach this machine at (its host name if none is known)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET: picks the outgoing interface, sends nothing
        address: str = probe.getsockname()[0]
        if not ipaddress.ip_address(address).is_unspecified:
            return address
    return f"{socket.gethostname()}.local"


def client_address(address: str) -> str:
    """A peer's address as pairing counts it: an IPv4 address reached over IPv6 as itself."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address
    mapped = ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) else None
    return str(mapped or ip)


class Pairing:
    """The pairing code of one server run, the browsers that gave it, and the wrong codes of late."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        self._tokens: set[str] = set()
        self._failures: dict[str, deque[float]] = {}  # per address, the one quiet longest first
        self._all: deque[float] = deque()
        self._clock = clock

    @staticmethod
    def _age(times: deque[float], now: float) -> deque[float]:
        while times and now - times[0] > FAILURE_WINDOW_S:
            times.popleft()
        return times

    def _forget(self, now: float) -> None:
        """Wrong codes older than the window no longer count, nor addresses left without any."""
        self._age(self._all, now)
        while self._failures:
            client, times = next(iter(self._failures.items()))  # the one whose last wrong code is oldest
            if self._age(times, now):
                break
            del self._failures[client]

    def paused(self, client: str) -> bool:
        """Whether ``client`` must wait: too many wrong codes from it, or from everyone and GRACE from it.

        A client with fewer than GRACE wrong codes of its own in the window is always heard.
        """
        now = self._clock()
        self._forget(now)
        own = len(self._age(self._failures.get(client, deque()), now))
        return own >= MAX_FAILURES or (own >= GRACE and len(self._all) >= MAX_ALL_FAILURES)

    def pair(self, code: str, client: str) -> str | None:
        """A new cookie value for the right code, else None (and the wrong code counts against client)."""
        if self.paused(client):
            return None
        if secrets.compare_digest(code.strip().upper().encode(), self.code.encode()):
            token = secrets.token_urlsafe(32)
            self._tokens.add(token)
            return token
        now = self._clock()
        times = self._failures.pop(client, deque())
        times.append(now)
        self._failures[client] = times  # now the most recent
        self._all.append(now)
        if len(self._failures) > MAX_CLIENTS:
            del self._failures[next(iter(self._failures))]
        return None

    def paired(self, cookie_headers: list[str]) -> bool:
        """Whether the request's cookies include one this pairing gave out."""
        for header in cookie_headers:
            cookies = SimpleCookie()
            try:
                cookies.load(header)
            except CookieError:
                continue
            morsel = cookies.get(COOKIE)
            value = morsel.value.encode() if morsel is not None else b""
            if value and any(secrets.compare_digest(value, t.encode()) for t in self._tokens):
                return True
        return False

    @staticmethod
    def set_cookie(token: str) -> str:
        return f"{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/"
