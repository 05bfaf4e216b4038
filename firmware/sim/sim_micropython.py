"""Stands in for the ``micropython`` module in the simulator, remembering
kbd_intr so the simulated USB port interrupts on Ctrl-C the way a Pico does."""

from micropython import const, mem_info

interrupt_char = 3

__all__ = ["const", "interrupt_char", "kbd_intr", "mem_info"]


def kbd_intr(char):
    global interrupt_char
    interrupt_char = char
