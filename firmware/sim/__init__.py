"""A simulated RP2040 and the launcher that boots the firmware on it.

Never copied to a device. The modules are MicroPython-compatible: the tests
import them under CPython, host/sim/firmware_process.py runs them under the
real MicroPython interpreter.
"""
