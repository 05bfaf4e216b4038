"""The loops every scan period runs, compiled to machine code by MicroPython's viper emitter.

Each function here does exactly what its plain Python reference does (named in its docstring,
kept where the firmware had it, and checked equal on random inputs under the unix port by
tests/firmware/viper_reference.py): the scan, classifying the Hall readings, debouncing, and
packing and framing the STATE that reports a change (and COBS-decoding the commands that come
in). The bytecode versions cost ~40 us a sensor or a byte on a Pico at 125 MHz, these a few.
The two scans touch the RP2040's registers directly (SIO, ADC, TIMER), so they run on the rp2
port only; the rest runs on any MicroPython with viper. Nothing here allocates: viper's ints
are machine words and the arrays are read through pointers.

Viper takes at most four arguments, so some functions take the object whose arrays they work on.
ptr8/ptr16/ptr32 and the int/bool annotations are viper's own types, known to its compiler.
"""

# ruff: noqa: F821, RUF046, SIM109
# (ptr8, ptr16, ptr32 are viper's compiler built-ins; in viper int() turns an object into a
# machine word, and "x in (a, b)" would test against a tuple object rather than two words.)

import micropython
from micropython import const

_EMPTY = const(0)
_NORTH = const(1)
_SOUTH = const(2)
_WEAK = const(3)

# Word offsets into SIO (0xD0000000), ADC (0x4004C000) and TIMER (0x40054000).
_GPIO_IN = const(1)
_GPIO_OUT_SET = const(5)
_GPIO_OUT_CLR = const(6)
_GPIO_OUT_XOR = const(7)
_ADC_CS = const(0)
_ADC_RESULT = const(1)
_ADC_CS_READY = const(0x100)
_TIMERAWL = const(10)
_POLLIN = const(1)  # select.POLLIN


@micropython.viper
def classify_cells(raw, zero, codes, limits):
    """calibration.classify_cells: codes[i] from raw[i] - zero[i] and codes[i] for every cell;
    limits holds threshold, strong_threshold (0: none), hysteresis."""
    reading = ptr16(raw)
    zeros = ptr16(zero)
    code = ptr8(codes)
    lim = ptr32(limits)
    threshold = lim[0]
    strong = lim[1]
    hysteresis = lim[2]
    for i in range(int(len(codes))):
        delta = reading[i] - zeros[i]
        magnitude = delta
        if delta < 0:
            magnitude = 0 - delta
        previous = code[i]
        enter = threshold
        if previous != _EMPTY:
            enter = threshold - hysteresis
        if magnitude < enter:
            code[i] = _EMPTY
            continue
        if strong:
            enter = strong
            if previous == _NORTH or previous == _SOUTH:
                enter = strong - hysteresis
            if magnitude < enter:
                code[i] = _WEAK
                continue
        if delta < 0:
            code[i] = _NORTH
        else:
            code[i] = _SOUTH


@micropython.viper
def update_cells(debouncer, raw, elapsed_us: int) -> bool:
    """debounce.update_cells: one scan's values (bytes) into a CellDebouncer, elapsed_us clamped."""
    values = ptr8(raw)
    cooked = ptr8(debouncer.cooked)
    last = ptr8(debouncer._last)
    counters = ptr32(debouncer._counters)
    debounce_us = int(debouncer.debounce_us)
    pending = int(debouncer._pending)
    changed = False
    for i in range(int(debouncer.count)):
        now = values[i]
        if now != last[i]:
            last[i] = now
            if now == cooked[i]:
                if counters[i]:
                    counters[i] = 0
                    pending -= 1
            else:
                if not counters[i]:
                    pending += 1
                counters[i] = debounce_us
        elif counters[i]:
            left = counters[i] - elapsed_us
            if left <= 0:
                counters[i] = 0
                pending -= 1
                cooked[i] = now
                changed = True
            else:
                counters[i] = left
    debouncer._pending = pending
    return changed


@micropython.viper
def update_rows(debouncer, raw, elapsed_us: int) -> bool:
    """debounce.update_rows: one scan's row bit masks (array "H") into a RowDebouncer, elapsed_us
    clamped."""
    values = ptr16(raw)
    cooked_rows = ptr16(debouncer.cooked)
    last_rows = ptr16(debouncer._last)
    pending_rows = ptr16(debouncer._pending)
    counters = ptr32(debouncer._counters)
    cols = int(debouncer.cols)
    debounce_us = int(debouncer.debounce_us)
    changed = False
    for r in range(int(debouncer.rows)):
        now = values[r]
        last = last_rows[r]
        pending = pending_rows[r]
        if now == last and not pending:
            continue
        cooked = cooked_rows[r]
        moved = now ^ last
        running = pending & ~moved
        base = r * cols
        if running:
            for c in range(cols):
                bit = 1 << c
                if running & bit:
                    left = counters[base + c] - elapsed_us
                    if left <= 0:
                        counters[base + c] = 0
                        pending &= ~bit
                        cooked = (cooked & ~bit) | (now & bit)
                        changed = True
                    else:
                        counters[base + c] = left
        if moved:
            differs = now ^ cooked
            pending &= ~(moved & ~differs)
            start = moved & differs
            if start:
                for c in range(cols):
                    if start & (1 << c):
                        counters[base + c] = debounce_us
                pending |= start
        cooked_rows[r] = cooked
        last_rows[r] = now
        pending_rows[r] = pending
    return changed


@micropython.viper
def scan_rows(matrix, out):
    """matrix_scan.DigitalMatrix.scan on the RP2040's registers, waiting matrix.settle_us after
    each row is driven low before reading the columns (the pull-ups lift a column a switch of
    the previous row held low)."""
    sio = ptr32(0xD0000000)
    timer = ptr32(0x40054000)
    rows_out = ptr16(out)
    moves = ptr32(matrix._moves)
    col_bits = ptr32(matrix._col_bits)
    cols = int(matrix.cols)
    settle = int(matrix.settle_us)
    shift = int(matrix._shift)
    mask = int(matrix._mask)
    consecutive = bool(matrix._consecutive)
    sio[_GPIO_OUT_CLR] = int(matrix._first_row)
    for r in range(int(matrix.rows)):
        if r:
            sio[_GPIO_OUT_XOR] = moves[r]
        if settle:
            # TIMERAWL counts whole microseconds: more than settle ticks means at least settle us.
            start = timer[_TIMERAWL]
            while timer[_TIMERAWL] - start <= settle:
                pass
        level = sio[_GPIO_IN]
        if consecutive:
            rows_out[r] = (~level >> shift) & mask
        else:
            bits = 0
            for c in range(cols):
                if not level & col_bits[c]:
                    bits |= 1 << c
            rows_out[r] = bits
    sio[_GPIO_OUT_SET] = int(matrix._last_row)


@micropython.viper
def scan_muxes(matrix, raw):
    """hall_scan.AnalogMatrix.scan on the RP2040's registers: one GPIO_OUT_XOR write moves to the
    next sensor, then matrix.settle_us for the multiplexer's output to settle, then one ADC
    conversion, scaled to read_u16 units as machine.ADC.read_u16 scales it."""
    sio = ptr32(0xD0000000)
    adc = ptr32(0x4004C000)
    timer = ptr32(0x40054000)
    readings = ptr16(raw)
    moves = ptr32(matrix._moves)
    settle = int(matrix.settle_us)
    convert = int(matrix._adc_start)
    sio[_GPIO_OUT_CLR] = int(matrix._first_mux)
    for i in range(int(matrix.count)):
        sio[_GPIO_OUT_XOR] = moves[i]
        if settle:
            start = timer[_TIMERAWL]
            while timer[_TIMERAWL] - start <= settle:
                pass
        adc[_ADC_CS] = convert
        while not adc[_ADC_CS] & _ADC_CS_READY:
            pass
        value = adc[_ADC_RESULT]
        readings[i] = (value << 4) | (value >> 8)
    sio[_GPIO_OUT_SET] = int(matrix._last_mux)


@micropython.viper
def pack_cells_2bit(values, count: int, buf, off: int) -> int:
    """messages.pack_cells_2bit: cell i of values at bits 2 * (i % 4) of buf[off + i // 4]."""
    cells = ptr8(values)
    out = ptr8(buf)
    acc = 0
    shift = 0
    for i in range(count):
        acc |= cells[i] << shift
        shift += 2
        if shift == 8:
            out[off] = acc
            off += 1
            acc = 0
            shift = 0
    if shift:
        out[off] = acc
        off += 1
    return off


@micropython.viper
def pack_rows_1bit(sensor, buf, off: int) -> int:
    """messages.pack_rows_1bit(sensor.debouncer.cooked, sensor.rows, sensor.cols, buf, off): cell
    r * cols + c as bit (i % 8) of buf[off + i // 8]."""
    rows_bits = ptr16(sensor.debouncer.cooked)
    out = ptr8(buf)
    ncols = int(sensor.cols)
    acc = 0
    nbits = 0
    for r in range(int(sensor.rows)):
        acc |= rows_bits[r] << nbits
        nbits += ncols
        while nbits >= 8:
            out[off] = acc & 0xFF
            off += 1
            acc >>= 8
            nbits -= 8
    if nbits:
        out[off] = acc
        off += 1
    return off


@micropython.viper
def cobs_encode_into(src, length: int, dst, at: int) -> int:
    """cobs.encode_into: src[0:length] COBS-encoded into dst from index at; the index after it."""
    data = ptr8(src)
    out = ptr8(dst)
    code_at = at
    end = at + 1
    code = 1
    i = 0
    while i < length:
        byte = data[i]
        i += 1
        if byte:
            out[end] = byte
            end += 1
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code = 1
                code_at = end
                if i < length:
                    end += 1
        else:
            out[code_at] = code
            code = 1
            code_at = end
            end += 1
    out[code_at] = code
    return end


@micropython.viper
def cobs_decode_in_place(buf, length: int) -> int:
    """cobs.decode_in_place: buf[0:length] decoded into buf from 0; the length, or -1 if not COBS."""
    data = ptr8(buf)
    i = 0
    out = 0
    while i < length:
        code = data[i]
        if code == 0:
            return -1
        i += 1
        end = i + code - 1
        if end > length:
            return -1
        while i < end:
            byte = data[i]
            if byte == 0:
                return -1
            data[out] = byte
            out += 1
            i += 1
        if code != 0xFF and i < length:
            data[out] = 0
            out += 1
    return out


@micropython.viper
def copy_rgb(strip, layout, src, off: int):
    """leds.copy_rgb: RGB triplets from src[off:] into the strip's buffer in its wire order;
    layout (array "i") holds bytes per LED, the red, green and blue offsets, first LED, count."""
    out = ptr8(strip)
    lay = ptr32(layout)
    data = ptr8(src)
    bpp = lay[0]
    r = lay[1]
    g = lay[2]
    b = lay[3]
    j = lay[4] * bpp
    for _ in range(lay[5]):
        out[j + r] = data[off]
        out[j + g] = data[off + 1]
        out[j + b] = data[off + 2]
        off += 3
        j += bpp


@micropython.viper
def crc32_into(buf, end: int) -> bool:
    """wire.crc32_into: zlib's CRC-32 of buf[0:end] written little-endian at buf[end]; whether
    those four bytes held it already (bit by bit: no table, no big int, no slice allocated).
    The words are masked to 32 bits, as the unix port's are 64."""
    data = ptr8(buf)
    poly = (uint(0xEDB8) << 16) | uint(0x8320)
    ones = (uint(0xFFFF) << 16) | uint(0xFFFF)
    crc = ones
    for i in range(end):
        crc ^= uint(data[i])
        for _ in range(8):
            crc = (crc >> 1) ^ (poly & (uint(0) - (crc & 1)))
    crc ^= ones
    held = True
    for k in range(4):
        byte = (crc >> (8 * k)) & 0xFF
        if uint(data[end + k]) != byte:
            held = False
            data[end + k] = byte
    return held


@micropython.viper
def collect_frame(receiver, src, start: int, end: int) -> int:
    """wire.collect: src[start:end] appended to a FrameReceiver's frame up to the first delimiter
    or overflowing byte; its index, or end (an overlong frame's bytes skipped)."""
    data = ptr8(src)
    i = start
    if bool(receiver._dropping):
        while i < end and data[i]:
            i += 1
        return i
    buf = ptr8(receiver.buf)
    length = int(receiver._length)
    capacity = int(receiver._capacity)
    while i < end:
        byte = data[i]
        if not byte or length == capacity:
            break
        buf[length] = byte
        length += 1
        i += 1
    receiver._length = length
    return i


@micropython.viper
def read_waiting(port, buf, limit: int) -> int:
    """usb_port.read_waiting: up to limit of the bytes waiting on a UsbPort into buf, one poll
    and one 1-byte readinto each (the calls are the port's; the loop around them is compiled)."""
    out = ptr8(buf)
    poll = port._poll
    reader = port._reader
    byte = port._byte
    one = ptr8(byte)
    n = 0
    while n < limit:
        ready = 0
        for entry in poll.ipoll(0):
            ready = int(entry[1]) & _POLLIN
        if not ready:
            break
        try:
            if not reader.readinto(byte, 1):
                break
        except OSError:
            break
        out[n] = one[0]
        n += 1
    return n
