"""hotloops' functions as the firmware's own plain Python references, for a MicroPython without
the viper emitter: the WebAssembly port, which runs the simulated board where no unix port is
installed (sim_main.py puts this module in hotloops' place there).

Each name is the reference its viper twin is checked equal to (tests/firmware/viper_reference.py).
The modules that import hotloops are imported here only when called, as they import this one.
The register scans (scan_rows, scan_muxes) are rp2-only and never asked for off a Pico.
"""

import calibration
import cobs
import messages

classify_cells = calibration.classify_cells
pack_cells_2bit = messages.pack_cells_2bit
cobs_encode_into = cobs.encode_into
cobs_decode_in_place = cobs.decode_in_place


def update_cells(debouncer, raw, elapsed_us):
    import debounce

    return debounce.update_cells(debouncer, raw, elapsed_us)


def update_rows(debouncer, raw, elapsed_us):
    import debounce

    return debounce.update_rows(debouncer, raw, elapsed_us)


def pack_rows_1bit(sensor, buf, off):
    import matrix_scan

    return matrix_scan._pack_rows(sensor, buf, off)


def crc32_into(buf, end):
    import wire

    return wire.crc32_into(buf, end)


def collect_frame(receiver, src, start, end):
    import wire

    return wire.collect(receiver, src, start, end)


def copy_rgb(strip, layout, src, off):
    import leds

    return leds.copy_rgb(strip, layout, src, off)


def read_waiting(port, buf, limit):
    import usb_port

    return usb_port.read_waiting(port, buf, limit)
