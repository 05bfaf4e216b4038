"""Runs at boot on the Pico: the scanner, forever (see device.py)."""

import device

device.main()
