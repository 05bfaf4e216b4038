"""Runs at boot on the Pico: the scanner, forever (see device.py).

Ctrl-C is turned off before anything else: the host may already be sending
frames while the modules compile, and a 0x03 byte in one of them must not stop
the boot. One that arrived before even that is dropped here with its
KeyboardInterrupt.
"""

import micropython

while True:
    try:
        micropython.kbd_intr(-1)
        import device

        break
    except KeyboardInterrupt:
        pass

device.main()
