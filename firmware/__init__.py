"""The MicroPython firmware for the Pico, kept here as package data.

Nothing in this package runs on the host: the host only locates these files
(to copy them to a Pico, or to run them under the MicroPython interpreter in
the simulator). On the device the modules sit flat in the root of the
filesystem and import each other by bare name; ``sim/`` holds the simulated
RP2040 used by the tests and the simulator and is never copied to a device.
"""

DEVICE_FILES = (
    "main.py",
    "device.py",
    "boardconfig.py",
    "messages.py",
    "wire.py",
    "cobs.py",
    "debounce.py",
    "calibration.py",
    "matrix_scan.py",
    "hall_scan.py",
    "hotloops.py",
    "leds.py",
    "usb_port.py",
)
