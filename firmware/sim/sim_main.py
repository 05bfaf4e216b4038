"""Boots the real firmware on the simulated RP2040, under MicroPython.

Run by host/sim/firmware_process.py as
    micropython sim_main.py FIRMWARE_DIR SENSOR_FD LED_FD
with the working directory holding board_config.json (the Pico's filesystem)
and stdin/stdout on a pseudo-terminal (the USB serial port). The interpreter is
the unix port, or the WebAssembly port through emulator/micropython_wasm.mjs
where the unix port is not installed (off x86_64): the same arguments either way.

SENSOR_FD carries the board's wiring from the test process, as little-endian
messages that each replace the previous wiring:
    b"D" n, then n x (row GPIO u8, column GPIO mask u32)   closed switches
    b"A" adc GPIO u8, S0..S3 GPIOs 4 x u8, n, then n x (enable GPIO u8,
         16 x channel value u16)                           multiplexed sensors
LED_FD receives b"L" count u16 bpp u8 then the strip's bytes at each write().
"""

import select
import struct
import sys
import time

import fake_machine
import fake_neopixel
import sim_micropython

sys.path.insert(0, sys.argv[1])
sys.modules["micropython"] = sim_micropython
sys.modules["machine"] = fake_machine
sys.modules["neopixel"] = fake_neopixel

REFRESH_US = 200


class SensorFeed:
    """Applies wiring messages from the test process, at most every REFRESH_US."""

    def __init__(self, file, gpio):
        self.file = file
        self.gpio = gpio
        self.poll = select.poll()
        self.poll.register(self.file, select.POLLIN)
        self.due = time.ticks_us()

    def refresh(self):
        now = time.ticks_us()
        if time.ticks_diff(now, self.due) < 0:
            return
        self.due = time.ticks_add(now, REFRESH_US)
        while self.poll.poll(0):
            kind = self.read(1)
            if kind == b"D":
                count = self.read(1)[0]
                self.gpio.set_switches([struct.unpack("<BI", self.read(5)) for _ in range(count)])
            elif kind == b"A":
                head = self.read(6)
                muxes = []
                for _ in range(head[5]):
                    enable = self.read(1)[0]
                    muxes.append((enable, struct.unpack("<16H", self.read(32))))
                self.gpio.set_muxes(head[0], head[1:5], muxes)
            else:
                raise SystemExit(f"sensor feed closed or garbled: {kind!r}")

    def read(self, n):
        data = b""
        while len(data) < n:
            chunk = self.file.read(n - len(data))
            if not chunk:
                return b""
            data += chunk
        return data


class InterruptingReader:
    """The USB port's receive side: like a Pico, Ctrl-C raises KeyboardInterrupt
    unless micropython.kbd_intr(-1) turned that off."""

    def __init__(self, stream):
        self.stream = stream

    def readinto(self, buf, n):
        got = self.stream.readinto(buf, n)
        char = sim_micropython.interrupt_char
        if got and char >= 0:
            for i in range(got):
                if buf[i] == char:
                    raise KeyboardInterrupt
        return got


if sys.platform == "webassembly":
    # MicroPython's WebAssembly port in node (emulator/micropython_wasm.mjs), where no unix port
    # is installed: streams over the process's descriptors, and no viper emitter.
    import hotloops_plain
    import wasm_host

    wasm_host.install()
    sys.modules["hotloops"] = hotloops_plain
    usb_in = usb_poll = wasm_host.HostStream(0)
    usb_out = wasm_host.HostStream(1)
    feed = wasm_host.HostStream(int(sys.argv[2]))
    sink = wasm_host.HostStream(int(sys.argv[3]))
else:
    usb_poll, usb_in, usb_out = sys.stdin, sys.stdin.buffer, sys.stdout.buffer
    feed = open(int(sys.argv[2]), "rb")  # noqa: SIM115 (open for the whole run)
    sink = open(int(sys.argv[3]), "wb")  # noqa: SIM115 (open for the whole run)
fake_machine.gpio.feed = SensorFeed(feed, fake_machine.gpio)
fake_neopixel.sink = sink

import device  # noqa: E402
import usb_port  # noqa: E402

try:
    device.main(usb_port.UsbPort(usb_poll, InterruptingReader(usb_in), usb_out))
except KeyboardInterrupt:
    # What a Pico shows when Ctrl-C stops its program: the REPL, which sends no frames.
    usb_out.write(b"Traceback (most recent call last):\r\nKeyboardInterrupt: \r\n>>> ")
    while True:
        time.sleep(1)
