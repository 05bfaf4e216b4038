// MicroPython's WebAssembly port as a `micropython` command, for the simulated board on any CPU:
//   node micropython_wasm.mjs [-X heapsize=N[K|M]] SCRIPT [ARG ...]
// host/sim/firmware_process.py runs it where no unix port is installed (the PyPI wheels are
// x86_64 only). The port's filesystem is in memory: the script's folder, the folder named by its
// first argument (the firmware) and the working directory's files are copied in, read-only as far
// as the real disk goes. Python reaches the process's real file descriptors through the `host`
// module (firmware/sim/wasm_host.py); everything runs synchronously, as the unix port does.
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const args = process.argv.slice(2);
let heapsize = 1024 * 1024;
if (args[0] === "-X") {
  const match = /^heapsize=(\d+)([KkMm]?)$/.exec(args[1] ?? "");
  if (!match) {
    process.stderr.write(`micropython_wasm: bad -X ${args[1]}\n`);
    process.exit(2);
  }
  heapsize = Number(match[1]) * { "": 1, k: 1024, m: 1024 * 1024 }[match[2].toLowerCase()];
  args.splice(0, 2);
}
if (args.length === 0) {
  process.stderr.write("usage: node micropython_wasm.mjs [-X heapsize=N] SCRIPT [ARG ...]\n");
  process.exit(2);
}
const script = path.resolve(args[0]);

// For reading, a pipe handed over blocking is opened again without blocking, so that `waiting` can look.
const descriptors = new Map();
function descriptor(fd) {
  if (!descriptors.has(fd)) {
    let own = fd;
    if (fd > 2 && fs.fstatSync(fd).isFIFO()) {
      own = fs.openSync(`/proc/self/fd/${fd}`, fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
    }
    descriptors.set(fd, { fd: own, buffered: Buffer.alloc(0), closed: false });
  }
  return descriptors.get(fd);
}

function fill(d) {  // what is waiting, without waiting; false when nothing is
  if (d.buffered.length > 0) return true;
  if (d.closed) return true;  // end of file: a read answers at once, with nothing
  const chunk = Buffer.alloc(4096);
  try {
    const got = fs.readSync(d.fd, chunk, 0, chunk.length, null);
    if (got === 0) d.closed = true;
    d.buffered = chunk.subarray(0, got);
    return true;
  } catch (error) {
    if (error.code === "EAGAIN" || error.code === "EWOULDBLOCK") return false;
    if (error.code === "EIO") {  // a pseudo-terminal whose far end is closed
      d.closed = true;
      return true;
    }
    throw error;
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));
const TICKS_MASK = 2 ** 30 - 1; // MicroPython's ticks period: time.ticks_add and ticks_diff wrap at it
const microseconds = () => process.hrtime.bigint() / 1000n;
const host = {
  ticks_us: () => Number(microseconds() & BigInt(TICKS_MASK)),
  ticks_ms: () => Number((microseconds() / 1000n) & BigInt(TICKS_MASK)),
  sleep_us(us) {
    if (us > 0) Atomics.wait(pause, 0, 0, us / 1000);
  },
  waiting(fd) {
    const d = descriptor(fd);
    return fill(d) && d.buffered.length > 0;
  },
  read(fd, n) {  // up to n bytes, waiting for the first; none at the end of the file
    const d = descriptor(fd);
    while (!fill(d)) Atomics.wait(pause, 0, 0, 1);
    const out = d.buffered.subarray(0, n);
    d.buffered = d.buffered.subarray(out.length);
    return new Uint8Array(out);
  },
  write(fd, hex) {  // the bytes as hex (a Python bytes object reaches JavaScript as a proxy)
    try {
      return fs.writeSync(fd, Buffer.from(hex, "hex")); // as handed over: a pipe's writes wait, as the unix port's do
    } catch (error) {
      if (error.code === "EAGAIN" || error.code === "EWOULDBLOCK" || error.code === "EIO") return -1;
      throw error;
    }
  },
  urandom(n) {
    return new Uint8Array(crypto.randomBytes(n));
  },
};

const mp = await loadMicroPython({
  heapsize,
  stdout: (line) => fs.writeSync(1, `${line}\n`),
  stderr: (line) => fs.writeSync(2, `${line}\n`),
});

function copyFolder(folder) {  // its files (not its subfolders) at the same path in memory
  mp.FS.mkdirTree(folder);
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    if (entry.isFile()) mp.FS.writeFile(path.join(folder, entry.name), fs.readFileSync(path.join(folder, entry.name)));
  }
}
copyFolder(path.dirname(script));
if (args.length > 1 && fs.existsSync(args[1]) && fs.statSync(args[1]).isDirectory()) copyFolder(path.resolve(args[1]));
copyFolder(process.cwd());
mp.FS.chdir(process.cwd());
mp.registerJsModule("host", host);

mp.globals.set("_argv", JSON.stringify(args.map((arg, i) => (i === 0 ? script : arg))));
try {
  mp.runPython(`
import json, sys
sys.argv[:] = json.loads(_argv)
sys.path.insert(0, ${JSON.stringify(path.dirname(script))})
del _argv
with open(sys.argv[0]) as _source:
    _code = _source.read()
exec(compile(_code, sys.argv[0], "exec"), {"__name__": "__main__"})
`);
} catch (error) {
  const text = String(error.message ?? error);
  const exit = /SystemExit: ?(.*)$/m.exec(text);
  if (exit) {
    if (exit[1] && !/^\d+$/.test(exit[1])) process.stderr.write(`${exit[1]}\n`);
    process.exit(exit[1] && /^\d+$/.test(exit[1]) ? Number(exit[1]) : 1);
  }
  process.stderr.write(`${text}\n`);
  process.exit(1);
}
