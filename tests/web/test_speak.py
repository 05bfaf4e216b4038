"""The page's Speak switch: the browser says what the board wants, in the voice's words, newest first.

The browser's speech synthesis is replaced by a recorder before the page
loads (a headless Chromium has no voices), so the test hears exactly what the
page asks it to say, and when it cuts a sentence short.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

from tests.web.conftest import screenshots, served

WAIT_MS = 30_000
RECORDER = """
window.__said = [];
window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; } };
Object.defineProperty(window, "speechSynthesis", {
  configurable: true,
  value: { speak: (u) => window.__said.push(u.text), cancel: () => window.__said.push("<cut>") },
});
"""


def said(page: Any) -> list[str]:
    return list(page.evaluate("window.__said"))


def test_the_speak_switch_says_each_new_sentence_with_its_moves_in_words(page: Any, tmp_path: Path) -> None:
    page.add_init_script(RECORDER)
    with served("desdemona", tmp_path) as url:
        page.goto(url)
        page.wait_for_selector("#status[data-kind='your_turn']", timeout=WAIT_MS)
        assert said(page) == []  # off until the player asks
        page.click("#speak")
        first = page.inner_text("#status")
        assert first.startswith("Black to move:")
        assert said(page) == ["<cut>", first]  # a sentence with no move is said as written
        page.fill("#move-text", "a4-a6")
        page.click("#move-form button[type=submit]")
        page.wait_for_selector("#status[data-kind='ai_move']", timeout=WAIT_MS)
        move = str(page.get_attribute("#status", "data-move"))
        # Desdemona's notation (RULES.md): queen from-to, then '/' and the shot's square (or 'x' a capture).
        source, target, how, stone = re.fullmatch(r"([a-j]\d+)-([a-j]\d+)([/x])([a-j]\d+)", move).groups()
        words = {"/": "shot on", "x": "capture with a stone on"}[how]
        page.wait_for_function("window.__said.some(s => s.startsWith('The AI plays'))", timeout=WAIT_MS)
        heard = said(page)
        ai = next(s for s in heard if s.startswith("The AI plays"))
        assert ai.startswith(f"The AI plays {source} to {target}, {words} {stone} for White: ")
        assert move not in ai and ai == page.get_attribute("#status", "data-spoken")
        # Each sentence cuts the one before it; none is said twice in a row.
        assert heard[::2] == ["<cut>"] * (len(heard) // 2)
        sentences = heard[1::2]
        assert all(a != b for a, b in itertools.pairwise(sentences))
        screenshots(page, "speak-on")
        # Remembered: a page opened again with the switch on says what the board wants now.
        page.reload()
        page.wait_for_function("window.__said.length >= 2", timeout=WAIT_MS)
        assert page.is_checked("#speak")
        assert said(page)[-1] == page.get_attribute("#status", "data-spoken")
        page.click("#speak")
        assert said(page)[-1] == "<cut>"  # switched off mid-sentence: silence at once
        page.reload()
        page.wait_for_selector("#status[data-kind]", timeout=WAIT_MS)
        assert not page.is_checked("#speak") and said(page) == []


def test_the_speak_switch_is_accessible(page: Any, tmp_path: Path) -> None:
    from axe_playwright_python.sync_playwright import Axe

    page.add_init_script(RECORDER)
    with served("kingofrings", tmp_path, "--humans") as url:
        page.goto(url)
        page.wait_for_selector("#status[data-kind='your_turn']", timeout=WAIT_MS)
        assert page.get_by_role("switch", name=re.compile("^Speak")).count() == 1
        found = Axe().run(page).response["violations"]
        serious = [v["id"] for v in found if v["impact"] in ("serious", "critical")]
        assert serious == []
