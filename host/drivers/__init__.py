"""The Pi's real LED and button drivers, behind the small interfaces in ``interfaces``.

Pi-only packages (Blinka's neopixel, neopixel_spi, RPi.GPIO / rpi-lgpio) are
imported only when a driver is opened, so this package imports anywhere.
"""
