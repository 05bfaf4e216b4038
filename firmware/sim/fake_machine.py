"""A simulated RP2040 standing in for MicroPython's ``machine`` module.

It models what the firmware touches: GPIOs (Pin, and the SIO registers
through mem32: GPIO_IN, GPIO_OUT and GPIO_OE with their SET/CLR/XOR aliases)
and the ADC, wired to a board of

- switches with diodes: a closed switch lets a low row GPIO pull a column
  GPIO low (the column reads high through its pull-up otherwise), or
- analog multiplexers: S0..S3 shared, one active-low enable each, all outputs
  joined on one ADC pin; the enabled multiplexer passes its selected channel.

An input with no pull-up and nothing pulling it reads 0, so a firmware that
forgets the pull-ups sees every switch closed. Every register access, pin
call and ADC read is counted (for the benchmarks). ``gpio.feed``, when set,
is asked to refresh the wiring before each sample (the simulator's side
channel from the test process). Runs under MicroPython and CPython.
"""

SIO_BASE = 0xD0000000
GPIO_COUNT = 30
_ALL = (1 << GPIO_COUNT) - 1
_ADC_GPIOS = (26, 27, 28, 29)
RESET_EXIT_CODE = 3

_GPIO_IN = SIO_BASE + 0x004
_GPIO_OUT = SIO_BASE + 0x010
_GPIO_OUT_SET = SIO_BASE + 0x014
_GPIO_OUT_CLR = SIO_BASE + 0x018
_GPIO_OUT_XOR = SIO_BASE + 0x01C
_GPIO_OE = SIO_BASE + 0x020
_GPIO_OE_SET = SIO_BASE + 0x024
_GPIO_OE_CLR = SIO_BASE + 0x028
_GPIO_OE_XOR = SIO_BASE + 0x02C


class Gpio:
    """The chip's GPIO state and the board wired to it."""

    def __init__(self):
        self.feed = None
        self.reset()

    def reset(self):
        """Power-on state: every pin an input without pulls, nothing wired, counters zero."""
        self.out = 0
        self.oe = 0
        self.pull_up = 0
        self.pull_down = 0
        self.switches = []
        self.adc_pin = -1
        self.select_bits = []
        self.muxes = []
        self.reset_counters()

    def reset_counters(self):
        self.register_reads = 0
        self.register_writes = 0
        self.pin_calls = 0
        self.adc_reads = 0

    def set_switches(self, switches):
        """switches: (row GPIO, column GPIO bit mask) pairs, one per row with a closed switch."""
        self.switches = [(1 << row, columns) for row, columns in switches]

    def set_muxes(self, adc_pin, select_pins, muxes):
        """muxes: (enable GPIO, [16 channel values]) per multiplexer."""
        self.adc_pin = adc_pin
        self.select_bits = [1 << p for p in select_pins]
        self.muxes = [(1 << enable, list(values)) for enable, values in muxes]

    def level(self):
        """What GPIO_IN reads now."""
        if self.feed is not None:
            self.feed.refresh()
        low = self.oe & ~self.out
        pulled = 0
        for row_bit, columns in self.switches:
            if low & row_bit:
                pulled |= columns
        inputs = ~self.oe & _ALL
        return (self.out & self.oe) | (inputs & self.pull_up & ~pulled)

    def adc(self, pin):
        """What the ADC reads on GPIO pin (read_u16 units)."""
        if self.feed is not None:
            self.feed.refresh()
        if pin != self.adc_pin:
            return 0
        driven_high = self.out & self.oe
        channel = 0
        for i in range(len(self.select_bits)):
            if driven_high & self.select_bits[i]:
                channel |= 1 << i
        enabled_low = self.oe & ~self.out
        total = 0
        count = 0
        for enable_bit, values in self.muxes:
            if enabled_low & enable_bit:
                total += values[channel]
                count += 1
        if count == 0:
            return 0
        return total // count

    def write_register(self, address, value):
        self.register_writes += 1
        value &= _ALL
        if address == _GPIO_OUT:
            self.out = value
        elif address == _GPIO_OUT_SET:
            self.out |= value
        elif address == _GPIO_OUT_CLR:
            self.out &= ~value
        elif address == _GPIO_OUT_XOR:
            self.out ^= value
        elif address == _GPIO_OE:
            self.oe = value
        elif address == _GPIO_OE_SET:
            self.oe |= value
        elif address == _GPIO_OE_CLR:
            self.oe &= ~value
        elif address == _GPIO_OE_XOR:
            self.oe ^= value
        else:
            raise ValueError(f"simulated RP2040: cannot write register 0x{address:08x}")

    def read_register(self, address):
        self.register_reads += 1
        if address == _GPIO_IN:
            return self.level()
        if address == _GPIO_OUT:
            return self.out
        if address == _GPIO_OE:
            return self.oe
        raise ValueError(f"simulated RP2040: cannot read register 0x{address:08x}")


gpio = Gpio()


def wire_matrix(row_pins, col_pins, closed):
    """Wire a diode matrix: closed[r][c] true = the switch of row r, column c is closed."""
    switches = []
    for r in range(len(row_pins)):
        mask = 0
        for c in range(len(col_pins)):
            if closed[r][c]:
                mask |= 1 << col_pins[c]
        if mask:
            switches.append((row_pins[r], mask))
    gpio.set_switches(switches)


def wire_muxes(select_pins, enable_pins, adc_pin, values):
    """Wire multiplexers: values[m][ch] is what channel ch of multiplexer m reads."""
    muxes = []
    for m in range(len(enable_pins)):
        channels = list(values[m]) + [0] * (16 - len(values[m]))
        muxes.append((enable_pins[m], channels))
    gpio.set_muxes(adc_pin, select_pins, muxes)


class _Mem32:
    def __getitem__(self, address):
        return gpio.read_register(address)

    def __setitem__(self, address, value):
        gpio.write_register(address, value)


mem32 = _Mem32()


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        if type(id) is not int or not 0 <= id < GPIO_COUNT:
            raise ValueError(f"invalid pin {id!r}")
        self.id = id
        self._bit = 1 << id
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        gpio.pin_calls += 1
        bit = self._bit
        if value is not None:
            self._drive(value)
        if mode == Pin.OUT:
            gpio.oe |= bit
        elif mode == Pin.IN:
            gpio.oe &= ~bit
        elif mode != -1:
            raise ValueError(f"simulated RP2040: pin mode {mode!r} is not modelled")
        if pull != -1:
            gpio.pull_up &= ~bit
            gpio.pull_down &= ~bit
            if pull == Pin.PULL_UP:
                gpio.pull_up |= bit
            elif pull == Pin.PULL_DOWN:
                gpio.pull_down |= bit

    def _drive(self, value):
        if value:
            gpio.out |= self._bit
        else:
            gpio.out &= ~self._bit

    def value(self, value=None):
        gpio.pin_calls += 1
        if value is None:
            return 1 if gpio.level() & self._bit else 0
        self._drive(value)
        return None

    def __call__(self, value=None):
        return self.value(value)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class ADC:
    def __init__(self, source):
        if isinstance(source, Pin):
            pin = source.id
        elif type(source) is int and 0 <= source < 4:
            pin = _ADC_GPIOS[source]
        else:
            pin = source
        if pin not in _ADC_GPIOS:
            raise ValueError("Pin doesn't have ADC capabilities")
        self.pin = pin

    def read_u16(self):
        gpio.adc_reads += 1
        return gpio.adc(self.pin)


def reset():
    """The simulated chip stops; the simulator decides whether it boots again."""
    raise SystemExit(RESET_EXIT_CODE)


class FakeClock:
    """MicroPython's time functions on a clock that moves only when slept on or
    advanced; ticks wrap at 2**30 like the device's."""

    PERIOD = 1 << 30

    def __init__(self, start_us=0):
        self.now_us = start_us

    def ticks_us(self):
        return self.now_us % self.PERIOD

    def ticks_ms(self):
        return (self.now_us // 1000) % self.PERIOD

    def ticks_add(self, ticks, delta):
        return (ticks + delta) % self.PERIOD

    def ticks_diff(self, end, start):
        half = self.PERIOD // 2
        return (end - start + half) % self.PERIOD - half

    def sleep_us(self, us):
        self.now_us += us

    def sleep_ms(self, ms):
        self.now_us += ms * 1000

    def advance(self, us):
        self.now_us += us
