"""What the LEDs say: one meaning per colour, urgency by blink speed.

A ``Scene`` says, for each cell that should light, what it means; ``frame``
turns a scene into colours at a moment in time, so blinking needs no state.

Colours (the meaning):        Blink (the urgency):
  green   put a piece here       steady  information (where a lifted piece may go)
  yellow  lift the piece here    slow    an instruction (the AI's move, what is left to do)
  magenta take this off          fast    a mistake to fix
  orange  turn this over
  red     this cell is wrong
  blue    choose: tap a cell or press confirm
  white   the game is over (the winner's pieces)
Hints use the same colours, dimmed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

RGB = tuple[int, int, int]

COLOURS: dict[str, RGB] = {
    "put": (0, 255, 0),
    "lift": (255, 200, 0),
    "remove": (255, 0, 255),
    "turn": (255, 100, 0),
    "wrong": (255, 0, 0),
    "choose": (0, 80, 255),
    "result": (255, 255, 255),
}

STEADY, SLOW, FAST = "steady", "slow", "fast"
PERIOD_MS = {SLOW: 1000, FAST: 250}
DIM = 0.25


@dataclass(frozen=True)
class Light:
    meaning: str  # a key of COLOURS
    blink: str = STEADY
    dim: bool = False

    def colour_at(self, t_ms: int) -> RGB:
        if self.blink != STEADY:
            period = PERIOD_MS[self.blink]
            if t_ms % period >= period // 2:
                return (0, 0, 0)
        r, g, b = COLOURS[self.meaning]
        if self.dim:
            return (int(r * DIM), int(g * DIM), int(b * DIM))
        return (r, g, b)


Scene = Mapping[str, Light]  # cell name -> light


def frame(scene: Scene, t_ms: int) -> dict[str, RGB]:
    """The colour of every lit cell at ``t_ms`` (cells not listed are off)."""
    out = {}
    for cell, light in scene.items():
        colour = light.colour_at(t_ms)
        if colour != (0, 0, 0):
            out[cell] = colour
    return out
