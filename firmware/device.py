"""The firmware's main loop: scan, debounce, report, obey, at a fixed period.

Every period: one scan of the sensors (debounced per cell), a STATE frame if
the settled state changed, the commands waiting on the USB port (a bounded
number of bytes, never blocking), a HEARTBEAT when due (and no cell is waiting
out its debounce time; its STATE the period after), then a sleep until the next
deadline. Nothing in play allocates memory - the periods, STATEs, HEARTBEATs,
and the PINGs, GET_STATEs and LED frames served - so the garbage collector
never pauses a scan; only the text of a HELLO, LOG or NAK, and SET_CONFIG, do.

A missing or broken board_config.json does not stop the loop: the device still
answers HELLO_REQ (status "config invalid"), logs the reason and sends
heartbeats, so the host can tell the user what to fix.
"""

import array
import os
import sys
import time

import boardconfig
import messages
import wire
from messages import (
    ACK,
    CAP_LEDS,
    CAP_LEVELS,
    CAP_POLARITY,
    GET_STATE,
    HEARTBEAT,
    HELLO,
    HELLO_REQ,
    LED_FRAME,
    LED_SHOW,
    LOG,
    LOG_ERROR,
    LOG_INFO,
    LOG_WARNING,
    NAK,
    PING,
    PING_MAX,
    PROTOCOL_VERSION,
    REASON_BAD_LENGTH,
    REASON_BAD_VERSION,
    REASON_CONFIG_INVALID,
    REASON_NO_LEDS,
    REASON_OUT_OF_RANGE,
    REASON_UNKNOWN_TYPE,
    SENSOR_HALL_ANALOG,
    SENSOR_NONE,
    SET_CONFIG,
    STATE,
    STATUS_CONFIG_INVALID,
    STATUS_OK,
)

try:
    from gc import mem_free
except ImportError:

    def mem_free():
        return 0


FIRMWARE_VERSION = (0, 1, 0)
MAX_RX_PAYLOAD = 1024
MAX_TX_PAYLOAD = 320
# Reading commands holds the scan: read and collected in bytecode, a received byte cost 0.1-0.5 ms
# at 125 MHz (measured on the emulated Pico), and a 19-LED frame read in one period held the scan
# ~40 ms; the viper loops (hotloops.read_waiting, collect_frame) cut that, but the USB port's calls
# stay, one poll and one read a byte. A period reads at most 32 bytes, RX_BYTES_LATE at a time and
# beyond the first RX_BYTES_LATE only while its time lasts, so a frame coming in delays the next
# scan by a few bytes' worth at most and still moves on when periods run late.
RX_BYTES_PER_PERIOD = 32
RX_BYTES_LATE = 4
# A heartbeat due while a cell's debounce time runs waits until it has run out (and the STATE of
# the change has gone): its period, longer than the others, would otherwise hold up that STATE
# when the time ran out during it. At most this long, so that a contact chattering for ever
# cannot stop the heartbeats the host's 3 s silence timeout counts on.
HEARTBEAT_WAIT_MS = 100


class Device:
    """One board's firmware. port has read_into(buf, limit) -> int (the bytes waiting, up
    to limit, read into buf; 0 when none are) and write(buf, length); clock has MicroPython's ticks_* and
    sleep_us (the time module on the device)."""

    def __init__(self, port, clock, config, config_error=None, boot_id=None):
        self.port = port
        self.clock = clock
        self.rx = wire.FrameReceiver(MAX_RX_PAYLOAD)
        self._incoming = bytearray(RX_BYTES_LATE)
        self._led_header = array.array("i", (0, 0, 0))
        self.tx = wire.FrameWriter(MAX_TX_PAYLOAD)
        if boot_id is None:
            boot_id = int.from_bytes(os.urandom(4), "little")
        self.boot_id = boot_id
        self.config = config
        self.config_error = config_error
        self.sensor = None
        self.leds = None
        self.debounce_ms = 5
        self.scan_period_us = 1000
        self.heartbeat_ms = 1000
        if config is not None:
            self.debounce_ms = config.debounce_ms
            self.scan_period_us = config.scan_period_us
            self.heartbeat_ms = config.heartbeat_ms
            self._set_up_hardware(config)
        self.generation = 0
        self.settled_ms = 0
        self.deadline_misses = 0
        self.rx_rejected = 0
        self.rx_overflows = 0
        self.naks = 0
        self._scans = 0
        self._max_scan_us = 0
        self._warmup = 0
        self._warmup_extra = 0
        self._seconds = 0
        self._millis = 0
        # The HEARTBEAT's counters, filled in place (a tuple a heartbeat would be garbage). Its free
        # heap bytes are measured only after something that allocates (the text of a HELLO, LOG or
        # NAK; SET_CONFIG's values): gc.mem_free() walks the whole heap's block table, 8.5 ms on
        # the emulated Pico, and every other path of the loop allocates nothing, so the figure
        # stands until then. Measured every heartbeat, it held up about one change in 60 by that.
        self._counters = [0] * 7
        self._free_bytes = 0
        self._heap_touched = True
        self._state_due = False  # a STATE the next period (one follows each HEARTBEAT)
        now_us = clock.ticks_us()
        now_ms = clock.ticks_ms()
        self._deadline = now_us
        self._last_scan_us = now_us
        self._last_ms = now_ms
        self._last_heartbeat_ms = now_ms
        self._next_heartbeat_ms = clock.ticks_add(now_ms, self.heartbeat_ms)

    def _set_up_hardware(self, config):
        try:
            if config.sensor == SENSOR_HALL_ANALOG:
                import hall_scan

                self.sensor = hall_scan.HallSensor(config)
            else:
                import matrix_scan

                self.sensor = matrix_scan.DigitalSensor(config)
            if config.led_pin is not None:
                import leds

                self.leds = leds.PicoLeds(config.led_pin, config.led_count)
        except (ValueError, OSError, ImportError) as exc:
            self.sensor = None
            self.leds = None
            self.config_error = f"could not set up the pins of {boardconfig.CONFIG_FILE}: {exc}"

    # --- the loop ---------------------------------------------------------------

    def start(self):
        """Introduce the device; the first STATE follows once the sensors have
        been scanned for a whole debounce time."""
        self.send_hello()
        if self.config_error:
            self.log(LOG_ERROR, self.config_error)
            return
        config = self.config
        kind = "hall_analog" if config.sensor == SENSOR_HALL_ANALOG else "reed"
        version = ".".join(str(part) for part in FIRMWARE_VERSION)
        self.log(
            LOG_INFO,
            f"magboard firmware {version}: board {config.board}, {config.rows}x{config.cols} {kind}",
        )
        if config.sensor == SENSOR_HALL_ANALOG and not config.calibrated:
            self.log(LOG_WARNING, f"no calibration in {boardconfig.CONFIG_FILE}: every zero is mid-scale")
        self._warmup = self.debounce_ms * 1000 // self.scan_period_us + 2
        # Late periods run back to back: count on the cells, not on the scans, before the
        # first STATE - but never wait forever on a chattering contact.
        self._warmup_extra = 100 * self._warmup

    def run(self):
        while True:
            self.step()

    def step(self):
        """One period: scan, report, serve commands, wait for the deadline."""
        clock = self.clock
        start = clock.ticks_us()
        sensor = self.sensor
        if sensor is not None:
            changed = sensor.update(clock.ticks_diff(start, self._last_scan_us))
            self._last_scan_us = start
            self._scans += 1
            took = clock.ticks_diff(clock.ticks_us(), start)
            if took > self._max_scan_us:
                self._max_scan_us = took
            if self._warmup:
                self._warmup -= 1
                if not self._warmup and self._warmup_extra and sensor.settling():
                    self._warmup = 1
                    self._warmup_extra -= 1
                if not self._warmup:
                    self.settled_ms = self.uptime_ms()
                    self.send_state()
            elif changed:
                self.generation += 1
                self.settled_ms = self.uptime_ms()
                self.send_state()
            elif self._state_due:
                self.send_state()
        if not self._warmup:
            self._serve_commands()
        late = clock.ticks_diff(clock.ticks_ms(), self._next_heartbeat_ms)
        if late >= 0 and (late >= HEARTBEAT_WAIT_MS or sensor is None or not sensor.settling()):
            self._heartbeat()
        self._wait_for_deadline()

    def _advance_uptime(self):
        """Counted up from the millisecond ticks when asked (a STATE, a heartbeat: at least once a
        heartbeat period, well within the ticks' wrap), not every period: the loop's bytecode beside
        the scan is what a reed build's period is made of."""
        now = self.clock.ticks_ms()
        self._millis += self.clock.ticks_diff(now, self._last_ms)
        self._last_ms = now
        while self._millis >= 1000:
            self._millis -= 1000
            self._seconds += 1

    def uptime_ms(self):
        self._advance_uptime()
        return self._seconds * 1000 + self._millis

    def _wait_for_deadline(self):
        clock = self.clock
        self._deadline = clock.ticks_add(self._deadline, self.scan_period_us)
        wait = clock.ticks_diff(self._deadline, clock.ticks_us())
        if wait > 0:
            clock.sleep_us(wait)
        elif wait < 0:
            self.deadline_misses += 1
            if -wait > self.scan_period_us:
                self._deadline = clock.ticks_us()

    def _heartbeat(self):
        clock = self.clock
        self._advance_uptime()
        now = self._last_ms
        elapsed = clock.ticks_diff(now, self._last_heartbeat_ms)
        rate = self._scans * 1000 // elapsed if elapsed > 0 else 0
        self._last_heartbeat_ms = now
        self._next_heartbeat_ms = clock.ticks_add(self._next_heartbeat_ms, self.heartbeat_ms)
        if clock.ticks_diff(now, self._next_heartbeat_ms) >= 0:
            self._next_heartbeat_ms = clock.ticks_add(now, self.heartbeat_ms)
        if self._heap_touched:
            self._heap_touched = False
            self._free_bytes = mem_free()
        counters = self._counters
        counters[0] = rate
        counters[1] = self._max_scan_us
        counters[2] = self.deadline_misses
        counters[3] = self.rx_rejected
        counters[4] = self.rx_overflows
        counters[5] = self.naks
        counters[6] = self._free_bytes
        self._scans = 0
        self._max_scan_us = 0
        payload = self.tx.payload
        self._send(HEARTBEAT, messages.pack_heartbeat(payload, 4, self.boot_id, self.uptime_ms(), counters))
        # The STATE that follows it goes out the next period, after a scan: sent in this one, the
        # two frames made a period of ~1.7 ms on the emulated desdemona-reed, which held up by
        # that much a change whose debounce time ran out during it.
        self._state_due = self.sensor is not None and not self._warmup

    # --- frames out ---------------------------------------------------------------

    def _send(self, msg_type, body_end):
        tx = self.tx
        self.port.write(tx.frame, tx.encode(msg_type, body_end))

    def send_hello(self):
        self._heap_touched = True
        config = self.config
        sensor = self.sensor
        caps = 0
        if self.leds is not None:
            caps |= CAP_LEDS
        if sensor is not None and sensor.bits == 2:
            caps |= CAP_POLARITY
            if config.strong_threshold:
                caps |= CAP_LEVELS
        if sensor is None:
            status, kind, rows, cols, bits = STATUS_CONFIG_INVALID, SENSOR_NONE, 0, 0, 0
        else:
            status, kind, rows, cols, bits = STATUS_OK, config.sensor, config.rows, config.cols, sensor.bits
        end = messages.pack_hello(
            self.tx.payload,
            4,
            FIRMWARE_VERSION,
            self.boot_id,
            status,
            kind,
            rows,
            cols,
            bits,
            caps,
            0 if self.leds is None else self.leds.count,
            (self.debounce_ms, self.scan_period_us, self.heartbeat_ms),
            config.board if config is not None else "",
        )
        self._send(HELLO, end)

    def send_state(self):
        self._state_due = False
        sensor = self.sensor
        payload = self.tx.payload
        end = messages.pack_state_header(
            payload, 4, self.boot_id, self.generation, self.settled_ms, sensor.rows, sensor.cols, sensor.bits
        )
        self._send(STATE, sensor.pack(payload, end))

    def log(self, level, text):
        self._heap_touched = True
        self._send(LOG, messages.pack_log(self.tx.payload, 4, level, text))

    def _ack(self, seq, msg_type, echo_len=0):
        payload = self.tx.payload
        self._send(ACK, messages.pack_ack(payload, 4, seq, msg_type, self.rx.buf, wire.HEADER, echo_len))

    def _nak(self, seq, msg_type, reason, text):
        self.naks += 1
        self._heap_touched = True
        self._send(NAK, messages.pack_nak(self.tx.payload, 4, seq, msg_type, reason, text))

    # --- commands in ----------------------------------------------------------------

    def _serve_commands(self):
        port = self.port
        rx = self.rx
        clock = self.clock
        incoming = self._incoming
        count = port.read_into(incoming, RX_BYTES_LATE)
        if not count:  # most periods: nothing waiting
            return
        until = clock.ticks_add(self._deadline, self.scan_period_us)
        read = 0
        while True:
            read += count
            at = 0
            while at < count:
                at = rx.feed(incoming, at, count)
                length = rx.result
                if length > 0:
                    self._obey(length)
                elif length == wire.ERR_OVERFLOW:
                    self.rx_overflows += 1
                elif length < 0:
                    self.rx_rejected += 1
            if read >= RX_BYTES_PER_PERIOD or clock.ticks_diff(until, clock.ticks_us()) <= 0:
                return
            count = port.read_into(incoming, RX_BYTES_LATE)
            if not count:
                return

    def _obey(self, length):
        buf = self.rx.buf
        msg_type = buf[1]
        seq = buf[2] | (buf[3] << 8)
        body = length - wire.HEADER - wire.TRAILER
        if buf[0] != PROTOCOL_VERSION:
            problem = f"protocol version {buf[0]}, expected {PROTOCOL_VERSION}"
            self._nak(seq, msg_type, REASON_BAD_VERSION, problem)
        elif msg_type == HELLO_REQ or msg_type == GET_STATE:  # noqa: SIM109 (a tuple would be built each time)
            if body:
                self._nak(seq, msg_type, REASON_BAD_LENGTH, f"this command has no body, got {body} bytes")
            elif msg_type == HELLO_REQ:
                self.send_hello()
                if self.config_error:
                    self.log(LOG_ERROR, self.config_error)
            elif self.sensor is None:
                self._nak(seq, msg_type, REASON_CONFIG_INVALID, self.config_error)
            else:
                self.send_state()
        elif msg_type == SET_CONFIG:
            self._set_config(seq, body)
        elif msg_type == PING:
            if body > PING_MAX:
                problem = f"PING carries at most {PING_MAX} bytes, got {body}"
                self._nak(seq, msg_type, REASON_BAD_LENGTH, problem)
            else:
                self._ack(seq, msg_type, body)
        elif msg_type == LED_FRAME:
            self._led_frame(seq, body)
        else:
            self._nak(seq, msg_type, REASON_UNKNOWN_TYPE, f"unknown message type 0x{msg_type:02x}")

    def _set_config(self, seq, body):
        self._heap_touched = True
        values = messages.parse_set_config(self.rx.buf, wire.HEADER, body)
        if values is None:
            self._nak(seq, SET_CONFIG, REASON_BAD_LENGTH, f"SET_CONFIG has a 6-byte body, got {body}")
            return
        debounce_ms = values[0] or self.debounce_ms
        scan_period_us = values[1] or self.scan_period_us
        heartbeat_ms = values[2] or self.heartbeat_ms
        problem = boardconfig.check_timing(debounce_ms, scan_period_us, heartbeat_ms)
        if problem:
            self._nak(seq, SET_CONFIG, REASON_OUT_OF_RANGE, problem)
            return
        self.debounce_ms = debounce_ms
        if self.sensor is not None:
            self.sensor.set_debounce_ms(debounce_ms)
        self.scan_period_us = scan_period_us
        if heartbeat_ms != self.heartbeat_ms:
            self.heartbeat_ms = heartbeat_ms
            self._next_heartbeat_ms = self.clock.ticks_add(self.clock.ticks_ms(), heartbeat_ms)
        self._ack(seq, SET_CONFIG)

    def _led_frame(self, seq, body):
        leds = self.leds
        if leds is None:
            self._nak(seq, LED_FRAME, REASON_NO_LEDS, "the Pico drives no LEDs here (led_pin is null)")
            return
        header = self._led_header
        if not messages.parse_led_header(self.rx.buf, wire.HEADER, body, header):
            self._nak(seq, LED_FRAME, REASON_BAD_LENGTH, f"LED_FRAME is 3 bytes then 3 per LED, got {body}")
            return
        flags = header[0]
        first = header[1]
        count = header[2]
        if first + count > leds.count:
            self._nak(
                seq,
                LED_FRAME,
                REASON_OUT_OF_RANGE,
                f"LEDs {first}..{first + count - 1} do not exist: led_count is {leds.count}",
            )
            return
        leds.set_rgb(self.rx.buf, wire.HEADER + 3, first, count)
        if flags & LED_SHOW:
            leds.show()
        self._ack(seq, LED_FRAME)


def build(port, clock, path=boardconfig.CONFIG_FILE, boot_id=None):
    """A started Device for the configuration file at path."""
    try:
        config = boardconfig.load(path)
        error = None
    except boardconfig.ConfigError as exc:
        config = None
        error = str(exc)
    device = Device(port, clock, config, error, boot_id)
    device.start()
    return device


def main(port=None):
    """Run forever on the device. Ctrl-C (0x03) must not stop the scanner: it
    is just a byte of some binary frame."""
    import machine
    import micropython
    import usb_port

    micropython.kbd_intr(-1)
    if port is None:
        port = usb_port.UsbPort(sys.stdin, sys.stdin.buffer, sys.stdout.buffer)
    device = build(port, time)
    try:
        device.run()
    except Exception as exc:  # a firmware bug: say so, then start afresh with a new boot id
        device.log(LOG_ERROR, f"firmware fault, restarting: {exc!r}")
        time.sleep_ms(200)
        machine.reset()
