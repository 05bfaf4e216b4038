// An emulated Raspberry Pi Pico: MicroPython's own rp2 port running in rp2040js, wired to a board.
//
//   node pico.mjs --uf2 FILE --bootrom FILE --flash FILE --serial-fd N --control-fd N [--fs-image FILE]
//
// The Pico's USB CDC serial is bridged to --serial-fd (the master side of a pseudo-terminal the
// caller made, so pyserial and mpremote open the other side as they open a Pico). --control-fd
// --flash is the chip's 2 MiB flash, kept on disk (made from the UF2 and the optional littlefs
// --fs-image when it does not exist yet), so it survives power cuts as a Pico's does. --control-fd
// carries JSON lines both ways; times t are emulated nanoseconds:
//   in:  {op: 'wire', kind: 'switches', switches: [[row GPIO, column mask]], columns, rows} or
//        {op: 'wire', kind: 'muxes', adc, select: [S0..S3], muxes: [[enable GPIO, [16 values]]]};
//        {op: 'leds', pin}; {op: 'power_cycle'}; {op: 'trace', on}; {op: 'time', tag}; {op: 'settle'}
//   out: {event: 'boot', reason}, {event: 'usb', t}, {event: 'leds', pin, t, data: GRB hex};
//        while tracing {event: 'wired', t}, {event: 'tx', t, n}, {event: 'rx', t, n} and
//        {event: 'frame', t, data: a COBS frame to the host, hex}; {event: 'time', t, tag};
//        {event: 'settle', reads, min_gap_ns}: reads since the last report and the least time from a
//        select-line change to a read (see SettleWatch).
//
// rp2040js leaves gaps that a real Pico fills, filled here: flash erase and program (the boot
// ROM's flash_range_erase and flash_range_program run in JS, with NOR semantics), the 512-byte
// CDC receive FIFO (input is fed as it drains), pull resistors (a switch matrix decides its
// column levels from the rows driven, the closed switches and the pull-ups), a watchdog reset
// (the chip boots again with its flash kept) and real-time pacing (emulated time never runs
// ahead of the wall clock, so heartbeats and timeouts keep their meaning).

import fs from 'node:fs';
import tty from 'node:tty';
import { BasePeripheral, GPIOPinState, RP2040, USBCDC } from 'rp2040js';

const FLASH_BASE = 0x10000000;
const FS_OFFSET = 0xa0000; // MicroPython RPI_PICO: littlefs2 from here to the end of the 2 MiB flash
const WATCHDOG_BASE = 0x40058;
const SIO_GPIO_IN = 0x004;
const ROSC_BASE = 0x40060;
const VREG_AND_CHIP_RESET_BASE = 0x40064;
const FLASH_SIZE = 2 * 1024 * 1024;
const CYCLE_NS = 8; // 125 MHz
const BATCH_NS = 1_000_000; // emulated time run between looks at the outside world
const MAX_LAG_NS = 50_000_000; // a slower emulation drops its debt rather than racing to catch up
const WS2812_LATCH_NS = 50_000; // a data line low this long ends a NeoPixel frame
const WS2812_ONE_NS = 625; // a high pulse longer than this is a 1 bit (0: 400 ns, 1: 800 ns)
const SERIAL_QUEUE_MAX = 1 << 16; // bytes towards the host kept while it does not read

function options(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || argv[i + 1] === undefined) {
      throw new Error(`bad argument ${argv[i]}: expected --name value pairs`);
    }
    out[argv[i].slice(2)] = argv[i + 1];
  }
  for (const key of ['uf2', 'bootrom', 'flash', 'serial-fd', 'control-fd']) {
    if (out[key] === undefined) throw new Error(`missing --${key}`);
  }
  return out;
}

function loadUf2(flash, data) {
  for (let off = 0; off + 512 <= data.length; off += 512) {
    const block = new DataView(data.buffer, data.byteOffset + off, 512);
    if (block.getUint32(0, true) !== 0x0a324655 || block.getUint32(4, true) !== 0x9e5d5157) {
      throw new Error(`UF2 block at byte ${off}: bad magic`);
    }
    const target = block.getUint32(12, true) - FLASH_BASE;
    const size = block.getUint32(16, true);
    flash.set(data.subarray(off + 32, off + 32 + size), target);
  }
}

/** The boot ROM's function table: code ('R' | 'E' << 8, ...) -> address of the function. */
function romFunctions(bootrom) {
  const half = (addr) => (bootrom[addr >> 2] >>> ((addr & 2) * 8)) & 0xffff;
  const table = new Map();
  for (let entry = half(0x14); half(entry) !== 0; entry += 4) {
    table.set(half(entry), half(entry + 2) & ~1);
  }
  return table;
}

function writeRomHalf(bootrom, addr, value) {
  const shift = (addr & 2) * 8;
  bootrom[addr >> 2] = (bootrom[addr >> 2] & ~(0xffff << shift)) | (value << shift);
}

const romCode = (a, b) => a.charCodeAt(0) | (b.charCodeAt(0) << 8);
const BREAK_ERASE = 1;
const BREAK_PROGRAM = 2;

/** Replaces flash_range_erase and flash_range_program with BKPT n; BX LR (done in JS). */
function patchFlashFunctions(bootrom) {
  const table = romFunctions(bootrom);
  for (const [code, brk] of [
    [romCode('R', 'E'), BREAK_ERASE],
    [romCode('R', 'P'), BREAK_PROGRAM],
  ]) {
    const addr = table.get(code);
    if (addr === undefined) throw new Error('boot ROM without flash functions');
    writeRomHalf(bootrom, addr, 0xbe00 | brk);
    writeRomHalf(bootrom, addr + 2, 0x4770);
  }
}

/** rp2040js reads every bit of this block as set, and the boot ROM then halts for a debugger
 * (CHIP_RESET.PSM_RESTART_FLAG): its registers at their reset values instead, HAD_POR after power on. */
class VoltageRegulatorAndChipReset extends BasePeripheral {
  constructor(chip, powerOn) {
    super(chip, 'VREG_AND_CHIP_RESET_BASE');
    this.registers = [0xb1, 0x91, powerOn ? 0x100 : 0];
  }

  readUint32(offset) {
    return offset < 12 ? this.registers[offset >> 2] : 0;
  }

  writeUint32(offset, value) {
    if (offset < 8) this.registers[offset >> 2] = value;
    else if (offset === 8) this.registers[2] &= ~(value & 0x01000000); // PSM_RESTART_FLAG clears on write
  }
}

/** The ring oscillator, which rp2040js leaves unimplemented: MicroPython seeds os.urandom (and so
 * the firmware's boot id) from its RANDOMBIT, which would read 1 for ever. Running and stable, with
 * random bits. */
class RingOscillator extends BasePeripheral {
  constructor(chip) {
    super(chip, 'ROSC_BASE');
  }

  readUint32(offset) {
    if (offset === 0x18) return 0x80001000; // STATUS: STABLE, ENABLED
    if (offset === 0x1c) return Math.random() < 0.5 ? 1 : 0; // RANDOMBIT
    if (offset === 0x00) return 0xfabaa0; // CTRL: ENABLE, FREQ_RANGE LOW
    return 0;
  }

  writeUint32() {}
}

class Control {
  /** JSON lines on one file descriptor, both ways. */
  constructor(fd, onMessage) {
    this.fd = fd;
    this.pending = '';
    this.stream = fs.createReadStream(null, { fd, autoClose: false });
    this.stream.on('data', (chunk) => {
      this.pending += chunk.toString('utf8');
      let nl;
      while ((nl = this.pending.indexOf('\n')) >= 0) {
        const line = this.pending.slice(0, nl);
        this.pending = this.pending.slice(nl + 1);
        if (line.trim()) onMessage(JSON.parse(line));
      }
    });
    this.stream.on('end', () => process.exit(0)); // the harness went away: so does the Pico
    this.stream.on('error', () => process.exit(0));
  }

  send(message) {
    fs.writeSync(this.fd, JSON.stringify(message) + '\n');
  }
}

/** How soon the firmware reads its sensors after switching what they connect to: the emulated time
 * from the last change of a select line (a matrix row; a multiplexer's select or enable) to each
 * read (a GPIO_IN read of the columns; the start of an ADC conversion, when it samples), the least
 * of them and how many since the last report. A real board needs the lines to settle first. */
class SettleWatch {
  constructor(clock) {
    this.clock = clock;
    this.pins = 0; // mask of the select GPIOs
    this.kind = null; // 'switches' (GPIO_IN reads) or 'muxes' (ADC reads)
    this.changedAt = -1;
    this.reset();
  }

  watch(kind, pins) {
    this.kind = kind;
    this.pins = pins >>> 0;
  }

  changed(pin) {
    if (this.pins & (1 << pin)) this.changedAt = this.clock().nanos;
  }

  read(kind) {
    if (kind !== this.kind || this.changedAt < 0) return;
    const gap = this.clock().nanos - this.changedAt;
    this.reads += 1;
    if (this.minGap < 0 || gap < this.minGap) this.minGap = gap;
  }

  report() {
    const out = { event: 'settle', reads: this.reads, min_gap_ns: this.minGap < 0 ? null : this.minGap };
    this.reset();
    return out;
  }

  reset() {
    this.reads = 0;
    this.minGap = -1;
  }
}

/** A diode switch matrix on row outputs and column inputs, and multiplexed Hall sensors on the ADC. */
class Board {
  constructor(settle) {
    this.settle = settle;
    this.switches = new Map(); // row GPIO -> mask of column GPIOs its closed switches join it to
    this.columns = 0; // mask of every column GPIO
    this.analog = null; // { adc, select: [GPIO], muxes: [[enable GPIO, [16 values]]] }
  }

  wire(message) {
    if (message.kind === 'switches') {
      this.switches = new Map(message.switches.map(([row, mask]) => [row, mask >>> 0]));
      this.columns = message.columns >>> 0;
      this.analog = null;
      this.settle.watch('switches', message.rows ?? 0);
    } else if (message.kind === 'muxes') {
      this.analog = { adc: message.adc, select: message.select, muxes: message.muxes };
      this.switches = new Map();
      this.columns = 0;
      const pins = [...message.select, ...message.muxes.map(([enable]) => enable)];
      this.settle.watch('muxes', pins.reduce((mask, pin) => mask | (1 << pin), 0));
    }
  }

  /** Column levels: low where a closed switch meets a row driven low, else what the pulls say. */
  applyColumns(chip) {
    if (!this.columns) return;
    let pulledLow = 0;
    for (const [row, mask] of this.switches) {
      if (chip.gpio[row].value === GPIOPinState.Low) pulledLow |= mask;
    }
    for (let pin = 0; pin < 30; pin++) {
      const bit = 1 << pin;
      if (!(this.columns & bit)) continue;
      const state = chip.gpio[pin].value;
      const floatingHigh = state === GPIOPinState.InputPullUp || state === GPIOPinState.InputBusKeeper;
      // A floating input without a pull-up reads low: a firmware that forgets them sees every switch closed.
      chip.gpio[pin].setInputValue(!(pulledLow & bit) && floatingHigh);
    }
  }

  /** What the ADC's GPIO reads now (read_u16 units): the selected channel of the enabled multiplexers. */
  adcValue(chip, gpio) {
    const analog = this.analog;
    if (!analog || gpio !== analog.adc) return 0;
    let channel = 0;
    analog.select.forEach((pin, i) => {
      if (chip.gpio[pin].value === GPIOPinState.High) channel |= 1 << i;
    });
    let total = 0;
    let count = 0;
    for (const [enable, values] of analog.muxes) {
      if (chip.gpio[enable].value === GPIOPinState.Low) {
        total += values[channel];
        count += 1;
      }
    }
    return count ? Math.floor(total / count) : 0;
  }
}

/** Decodes a WS2812 data line from its edges, timed by the emulated clock. */
class NeoPixelDecoder {
  constructor(clock, onFrame) {
    this.clock = clock;
    this.onFrame = onFrame;
    this.bytes = [];
    this.current = 0;
    this.bits = 0;
    this.risenAt = -1;
    this.fellAt = -1;
  }

  edge(high) {
    const now = this.clock.nanos;
    if (high) {
      this.latchIfIdle(now);
      this.risenAt = now;
    } else if (this.risenAt >= 0) {
      this.current = (this.current << 1) | (now - this.risenAt > WS2812_ONE_NS ? 1 : 0);
      this.bits += 1;
      if (this.bits === 8) {
        this.bytes.push(this.current);
        this.current = 0;
        this.bits = 0;
      }
      this.fellAt = now;
      this.risenAt = -1;
    }
  }

  latchIfIdle(now) {
    if (this.fellAt >= 0 && now - this.fellAt >= WS2812_LATCH_NS && this.risenAt < 0) {
      if (this.bytes.length) this.onFrame(this.bytes);
      this.bytes = [];
      this.current = 0;
      this.bits = 0;
      this.fellAt = -1;
    }
  }
}

class Pico {
  constructor(opts) {
    this.uf2 = fs.readFileSync(opts.uf2);
    const rom = fs.readFileSync(opts.bootrom);
    this.bootrom = new Uint32Array(rom.buffer, rom.byteOffset, rom.byteLength / 4).slice();
    patchFlashFunctions(this.bootrom);
    this.settle = new SettleWatch(() => this.clock);
    this.board = new Board(this.settle);
    this.ledPin = -1;
    this.trace = false;
    this.framing = []; // bytes of the frame towards the host not yet ended (while tracing)
    this.serialFd = Number(opts['serial-fd']);
    this.toHost = [];
    this.toHostBytes = 0;
    this.writing = false;
    this.fromHost = [];
    this.control = new Control(Number(opts['control-fd']), (m) => this.obey(m));
    this.serialIn = new tty.ReadStream(this.serialFd);
    this.serialIn.on('data', (chunk) => {
      for (const byte of chunk) this.fromHost.push(byte);
    });
    this.serialIn.on('error', () => {});
    const image = opts['fs-image'] ? fs.readFileSync(opts['fs-image']) : null;
    this.flash = this.openFlash(opts.flash, this.uf2, image);
    this.boot(true);
  }

  /** The flash as it was left, or the UF2 and filesystem image written to an erased chip. */
  openFlash(path, uf2, image) {
    const flash = new Uint8Array(FLASH_SIZE).fill(0xff);
    if (fs.existsSync(path)) {
      flash.set(fs.readFileSync(path).subarray(0, FLASH_SIZE));
    } else {
      loadUf2(flash, uf2);
      if (image) flash.set(image, FS_OFFSET);
      fs.writeFileSync(path, flash);
    }
    this.flashFd = fs.openSync(path, 'r+');
    return flash;
  }

  /** Writes flash bytes start..end through to the file, as the chip keeps them without power. */
  persist(flash, start, end) {
    fs.writeSync(this.flashFd, flash, start, end - start, start);
  }

  /** Power on or reboot: the chip starts afresh from its flash. */
  boot(powerOn) {
    const chip = new RP2040();
    const clock = chip.clock;
    chip.logger = { debug() {}, info() {}, warn() {}, error() {} };
    chip.loadBootrom(this.bootrom);
    chip.flash.set(this.flash);
    this.flash = chip.flash;
    // The boot ROM cannot read boot2 through rp2040js's stub SSI: start at boot2 in flash, as the
    // ROM would once it had copied and checked it.
    chip.core.PC = FLASH_BASE;
    chip.peripherals[VREG_AND_CHIP_RESET_BASE] = new VoltageRegulatorAndChipReset(chip, powerOn);
    chip.peripherals[ROSC_BASE] = new RingOscillator(chip);
    chip.onBreak = (code) => this.romCall(chip, code);
    chip.peripherals[WATCHDOG_BASE].onWatchdogTrigger = () => {
      this.rebootPending = true;
    };
    const adc = chip.adc;
    const sample = adc.onADCRead;
    adc.onADCRead = (channel) => {
      this.settle.read('muxes');
      if (channel < 4) adc.channelValues[channel] = this.board.adcValue(chip, 26 + channel) >> 4;
      sample(channel);
    };
    const sio = chip.sio;
    const sioRead = sio.readUint32.bind(sio);
    sio.readUint32 = (offset) => {
      if (offset === SIO_GPIO_IN) this.settle.read('switches');
      return sioRead(offset);
    };
    for (let pin = 0; pin < 30; pin++) {
      chip.gpio[pin].addListener(() => {
        this.settle.changed(pin);
        this.board.applyColumns(chip);
      });
    }
    const cdc = new USBCDC(chip.usbCtrl);
    cdc.onDeviceConnected = () => {
      this.connected = true;
      this.control.send({ event: 'usb', t: clock.nanos });
    };
    cdc.onSerialData = (buffer) => this.sendToHost(buffer, clock.nanos);
    this.chip = chip;
    this.clock = clock;
    this.cdc = cdc;
    this.connected = false;
    this.rebootPending = false;
    this.decoder = this.ledPin >= 0 ? this.watchLeds(this.ledPin) : null;
    this.fromHost = [];
    this.board.applyColumns(chip);
    this.wallStart = performance.now();
    this.emulatedStart = 0;
  }

  watchLeds(pin) {
    const decoder = new NeoPixelDecoder(this.clock, (bytes) =>
      this.control.send({ event: 'leds', pin, t: this.clock.nanos, data: Buffer.from(bytes).toString('hex') }),
    );
    this.chip.gpio[pin].addListener((state) => decoder.edge(state === GPIOPinState.High));
    return decoder;
  }

  romCall(chip, code) {
    const r = chip.core.registers;
    const flash = chip.flash;
    if (code === BREAK_ERASE) {
      flash.fill(0xff, r[0], r[0] + r[1]);
      this.persist(flash, r[0], r[0] + r[1]);
    } else if (code === BREAK_PROGRAM) {
      const offset = r[0];
      for (let i = 0; i < r[2]; i++) flash[offset + i] &= chip.readUint8(r[1] + i);
      this.persist(flash, offset, offset + r[2]);
    }
  }

  obey(message) {
    if (message.op === 'wire') {
      this.board.wire(message);
      this.board.applyColumns(this.chip);
      if (this.trace) this.control.send({ event: 'wired', t: this.clock.nanos });
    } else if (message.op === 'leds') {
      this.ledPin = message.pin;
      if (!this.decoder) this.decoder = this.watchLeds(message.pin);
    } else if (message.op === 'trace') {
      this.trace = Boolean(message.on);
      this.framing = [];
    } else if (message.op === 'power_cycle') {
      this.boot(true);
      this.control.send({ event: 'boot', reason: 'power' });
    } else if (message.op === 'time') {
      this.control.send({ event: 'time', t: this.clock.nanos, tag: message.tag });
    } else if (message.op === 'settle') {
      this.control.send({ ...this.settle.report(), t: this.clock.nanos });
    }
  }

  sendToHost(buffer, at) {
    if (this.trace) {
      this.control.send({ event: 'tx', t: at, n: buffer.length });
      this.traceFrames(buffer, at);
    }
    if (this.toHostBytes + buffer.length > SERIAL_QUEUE_MAX) return; // nobody reads: a Pico drops it too
    this.toHost.push(Buffer.from(buffer));
    this.toHostBytes += buffer.length;
    this.flushToHost();
  }

  flushToHost() {
    if (this.writing || !this.toHost.length) return;
    const chunk = Buffer.concat(this.toHost);
    this.toHost = [];
    this.writing = true;
    fs.write(this.serialFd, chunk, (err, written) => {
      this.writing = false;
      if (err && err.code !== 'EAGAIN') return;
      const rest = chunk.subarray(err ? 0 : written);
      this.toHostBytes -= chunk.length - rest.length;
      if (rest.length) this.toHost.unshift(rest);
      if (this.toHost.length) setTimeout(() => this.flushToHost(), err ? 2 : 0);
    });
  }

  /** Reports every frame towards the host (COBS-encoded, without its 0x00 delimiter) with the time
   * of the USB transfer that completed it. */
  traceFrames(buffer, at) {
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      if (buffer[i] !== 0) continue;
      this.framing.push(Buffer.from(buffer.subarray(start, i)));
      const frame = Buffer.concat(this.framing);
      this.framing = [];
      if (frame.length) this.control.send({ event: 'frame', t: at, data: frame.toString('hex') });
      start = i + 1;
    }
    if (start < buffer.length) this.framing.push(Buffer.from(buffer.subarray(start)));
  }

  /** Feeds host bytes into the CDC receive FIFO as it drains (it holds 512 and drops the rest). */
  feedFromHost() {
    if (!this.connected || !this.fromHost.length) return;
    const fifo = this.cdc.txFIFO;
    let n = 0;
    while (n < this.fromHost.length && !fifo.full) {
      this.cdc.sendSerialByte(this.fromHost[n]);
      n += 1;
    }
    if (n) this.fromHost = this.fromHost.slice(n);
    if (n && this.trace) this.control.send({ event: 'rx', t: this.clock.nanos, n });
  }

  /** Runs the chip up to the wall clock (never ahead of it), a batch at a time. */
  run() {
    const { chip, clock } = this;
    const core = chip.core;
    const target = this.emulatedStart + (performance.now() - this.wallStart) * 1e6;
    if (target - clock.nanos > MAX_LAG_NS) this.emulatedStart += target - clock.nanos - MAX_LAG_NS;
    const end = Math.min(target, clock.nanos + BATCH_NS);
    while (clock.nanos < end && !this.rebootPending) {
      if (core.waiting) {
        const next = clock.nanosToNextAlarm;
        if (next <= 0) clock.tick(0); // alarms due now (none at all reads 0 too)
        if (next <= 0 && core.waiting && clock.nanosToNextAlarm <= 0) {
          clock.tick(Math.max(0, end - clock.nanos));
          break;
        }
        if (next <= 0) continue;
        if (clock.nanos + next > end) {
          clock.tick(Math.max(0, end - clock.nanos));
          break;
        }
        clock.tick(next);
      } else {
        clock.tick(core.executeInstruction() * CYCLE_NS);
      }
    }
    if (this.decoder) this.decoder.latchIfIdle(clock.nanos);
    this.feedFromHost();
    if (this.rebootPending) {
      this.boot(false);
      this.control.send({ event: 'boot', reason: 'watchdog' });
    }
    const ahead = clock.nanos - (this.emulatedStart + (performance.now() - this.wallStart) * 1e6);
    if (ahead > 500_000) setTimeout(() => this.run(), ahead / 1e6);
    else setImmediate(() => this.run());
  }
}

const pico = new Pico(options(process.argv.slice(2)));
pico.control.send({ event: 'boot', reason: 'power' });
pico.run();
