"""What the LEDs say: one meaning per colour, urgency by blink speed.

A scene says, for each cell that should light, what it means; ``frame`` turns
a scene into colours at a moment in time, so blinking needs no state.  The
page's legend and the terminal's words come from ``LEGEND`` here too, so the
board, the page and the README can never disagree about what a colour means.

Hints use the same colours, dimmed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

RGB = tuple[int, int, int]


class Meaning(Enum):
    """What a lit cell asks of the player (or tells them).  The value is the name in JSON and scripts."""

    PUT = "put"
    LIFT = "lift"
    REMOVE = "remove"
    TURN = "turn"
    WRONG = "wrong"
    CHOOSE = "choose"
    RESULT = "result"

    @property
    def colour(self) -> RGB:
        return COLOURS[self]

    @property
    def words(self) -> str:
        return WORDS[self]


class Blink(Enum):
    """How urgent a light is: steady information, a slow instruction, a fast mistake."""

    STEADY = "steady"
    SLOW = "slow"
    FAST = "fast"

    @property
    def period_ms(self) -> int:
        """One on-off cycle; 0 for a steady light."""
        return PERIOD_MS[self]


COLOURS: dict[Meaning, RGB] = {
    Meaning.PUT: (0, 255, 0),
    Meaning.LIFT: (255, 200, 0),
    Meaning.REMOVE: (255, 0, 255),
    Meaning.TURN: (255, 100, 0),
    Meaning.WRONG: (255, 0, 0),
    Meaning.CHOOSE: (0, 80, 255),
    Meaning.RESULT: (255, 255, 255),
}
COLOUR_NAMES: dict[Meaning, str] = {
    Meaning.PUT: "green",
    Meaning.LIFT: "yellow",
    Meaning.REMOVE: "magenta",
    Meaning.TURN: "orange",
    Meaning.WRONG: "red",
    Meaning.CHOOSE: "blue",
    Meaning.RESULT: "white",
}
WORDS: dict[Meaning, str] = {
    Meaning.PUT: "put a piece here",
    Meaning.LIFT: "lift the piece here",
    Meaning.REMOVE: "take this off the board",
    Meaning.TURN: "turn this over",
    Meaning.WRONG: "this cell is wrong",
    Meaning.CHOOSE: "choose: tap a cell or press Confirm",
    Meaning.RESULT: "the game is over: what decided it",
}
PERIOD_MS: dict[Blink, int] = {Blink.STEADY: 0, Blink.SLOW: 1000, Blink.FAST: 250}
BLINK_WORDS: dict[Blink, str] = {
    Blink.STEADY: "steady: information (where a lifted piece may go)",
    Blink.SLOW: "slow blink: something to do (the AI's move, what is left of a turn)",
    Blink.FAST: "fast blink: a mistake to put right",
}
DIM = 0.25


@dataclass(frozen=True)
class LegendEntry:
    """One line of the legend: a meaning, its colour and what it asks."""

    meaning: Meaning
    colour_name: str
    rgb: RGB
    words: str


LEGEND: tuple[LegendEntry, ...] = tuple(
    LegendEntry(meaning, COLOUR_NAMES[meaning], COLOURS[meaning], WORDS[meaning]) for meaning in Meaning
)


@dataclass(frozen=True)
class Light:
    meaning: Meaning
    blink: Blink = Blink.STEADY
    dim: bool = False

    def colour_at(self, t_ms: int) -> RGB:
        period = self.blink.period_ms
        if period and t_ms % period >= period // 2:
            return (0, 0, 0)
        r, g, b = COLOURS[self.meaning]
        if self.dim:
            return (int(r * DIM), int(g * DIM), int(b * DIM))
        return (r, g, b)

    def describe(self) -> str:
        """The light in words, as the terminal lists it: 'put (slow, dim)'."""
        extra = [
            w for w in (self.blink.value if self.blink is not Blink.STEADY else "", "dim" * self.dim) if w
        ]
        return self.meaning.value + (f" ({', '.join(extra)})" if extra else "")


Scene = Mapping[str, Light]  # cell name -> light


def frame(scene: Scene, t_ms: int) -> dict[str, RGB]:
    """The colour of every lit cell at ``t_ms`` (cells not listed are off)."""
    out = {}
    for cell, light in scene.items():
        colour = light.colour_at(t_ms)
        if colour != (0, 0, 0):
            out[cell] = colour
    return out
