// The board in the browser: draws what the server says, sends what the player does.
// The page keeps no game state of its own: every "picture" message is the whole truth,
// and every click is sent as a gesture for the server's simulated hands to interpret.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const SIDE_COLOURS = {
  kingofrings: ["#f2efe6", "#2b2b2b"],
  desdemona: ["#1d1d1d", "#f4f4f4"],
  spacetiles: ["#f08a24", "#7b4bc4"],
  flipfour: ["#d8262e", "#f2c230"],
};
const RINGS = {
  ring_silver: { colour: "#c9c9c9", radius: 0.34, width: 0.07, label: "silver ring" },
  ring_blue: { colour: "#2a6fdb", radius: 0.36, width: 0.09, label: "blue ring" },
  ring_bigblue: { colour: "#123f99", radius: 0.4, width: 0.13, label: "big blue ring" },
};
const GLYPHS = { knight: "\u265E", queen: "\u265B" };
const HEX_RADIUS = 1 / Math.sqrt(3);
const DRAG_PX = 6;

let layout = null;
let picture = null;
let socket = null;
let drag = null;

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function hexPoints(radius) {
  const points = [];
  for (let i = 0; i < 6; i++) {
    const angle = Math.PI / 6 + (i * Math.PI) / 3;
    points.push(`${(radius * Math.cos(angle)).toFixed(4)},${(radius * Math.sin(angle)).toFixed(4)}`);
  }
  return points.join(" ");
}

function sideName(colour) {
  return colour === null || colour === undefined ? "" : layout.sides[colour];
}

function parseThing(text) {
  const [kind, colour] = text.split(":");
  return { kind, colour: colour === undefined ? null : Number(colour) };
}

function describeThing(text) {
  const { kind, colour } = parseThing(text);
  const name = RINGS[kind] ? RINGS[kind].label : kind;
  return colour === null ? name : `${sideName(colour)} ${name}`;
}

// --- drawing one object ------------------------------------------------------------------------
function drawThing(text, parent, lift) {
  const { kind, colour } = parseThing(text);
  const g = el("g", { class: `thing ${kind}`, transform: `translate(0 ${-lift})`, "data-thing": text }, parent);
  const fill = colour === null ? "#888" : SIDE_COLOURS[layout.game][colour];
  const edge = colour === 1 && layout.game === "desdemona" ? "#555" : "#111";
  if (RINGS[kind]) {
    const ring = RINGS[kind];
    el("circle", { r: ring.radius, fill: "none", stroke: ring.colour, "stroke-width": ring.width }, g);
  } else if (kind === "tile") {
    el("polygon", { points: hexPoints(HEX_RADIUS * 0.9), fill: "#5b7a99", stroke: "#2c3e50", "stroke-width": 0.03 }, g);
  } else {
    const radius = kind === "stone" || kind === "queen" ? 0.36 : 0.3;
    el("circle", { r: radius, fill, stroke: edge, "stroke-width": 0.03 }, g);
    if (GLYPHS[kind]) {
      const glyph = el("text", {
        "text-anchor": "middle", "dominant-baseline": "central", "font-size": 0.42,
        fill: colour === 0 && layout.game !== "desdemona" ? "#222" : colour === 1 && layout.game === "desdemona" ? "#222" : "#eee",
      }, g);
      glyph.textContent = GLYPHS[kind];
    }
  }
  return g;
}

function drawStack(stack, parent) {
  stack.forEach((text, level) => drawThing(text, parent, level * 0.05));
  if (stack.length > 2) {  // a tall stack: how many objects it holds
    const badge = el("g", { class: "badge", transform: "translate(0.3 -0.3)" }, parent);
    el("circle", { r: 0.13, fill: "#fff", stroke: "#333", "stroke-width": 0.02 }, badge);
    const t = el("text", { "text-anchor": "middle", "dominant-baseline": "central", "font-size": 0.16 }, badge);
    t.textContent = String(stack.length);
  }
}

function icon(text) {
  const svg = el("svg", { class: "icon", viewBox: "-0.5 -0.55 1 1" });
  drawThing(text, svg, 0);
  return svg;
}

// --- the board ---------------------------------------------------------------------------------
function buildBoard() {
  const board = document.getElementById("board");
  board.textContent = "";
  const xs = layout.cells.map((c) => c.x);
  const ys = layout.cells.map((c) => c.y);
  const pad = layout.drawing === "square" ? 0.6 : 0.75;
  const minX = Math.min(...xs) - pad;
  const minY = Math.min(...ys) - pad;
  const width = Math.max(...xs) - Math.min(...xs) + 2 * pad;
  const height = Math.max(...ys) - Math.min(...ys) + 2 * pad;
  board.setAttribute("viewBox", `${minX} ${minY} ${width} ${height}`);
  const where = Object.fromEntries(layout.cells.map((c) => [c.name, c]));
  if (layout.drawing === "point") {
    for (const [a, b] of layout.links) {
      el("line", { class: "point-line", x1: where[a].x, y1: where[a].y, x2: where[b].x, y2: where[b].y }, board);
    }
  }
  for (const cell of layout.cells) {
    const g = el("g", { class: "cell", "data-cell": cell.name, transform: `translate(${cell.x} ${cell.y})` }, board);
    if (layout.drawing === "square") {
      const q = Math.round(cell.x);
      const r = Math.round(-cell.y);
      if ((q + r) % 2 === 0) g.classList.add(layout.game === "kingofrings" ? "blue" : "dark");
      el("rect", { class: "bg", x: -0.5, y: -0.5, width: 1, height: 1 }, g);
      el("rect", { class: "led", x: -0.46, y: -0.46, width: 0.92, height: 0.92, rx: 0.12 }, g);
      el("rect", { class: "hit", x: -0.5, y: -0.5, width: 1, height: 1 }, g);
    } else if (layout.drawing === "hex") {
      el("polygon", { class: "bg", points: hexPoints(HEX_RADIUS) }, g);
      el("polygon", { class: "led", points: hexPoints(HEX_RADIUS * 0.92) }, g);
      el("polygon", { class: "hit", points: hexPoints(HEX_RADIUS) }, g);
    } else {
      el("circle", { class: "bg", r: 0.12 }, g);
      el("circle", { class: "led", r: 0.44 }, g);
      el("circle", { class: "hit", r: 0.45 }, g);
    }
    el("g", { class: "pieces" }, g);
    if (layout.drawing === "square") el("rect", { class: "led-ring", x: -0.44, y: -0.44, width: 0.88, height: 0.88, rx: 0.12 }, g);
    else if (layout.drawing === "hex") el("polygon", { class: "led-ring", points: hexPoints(HEX_RADIUS * 0.84) }, g);
    else el("circle", { class: "led-ring", r: 0.42 }, g);
    const corner = layout.drawing === "point" ? { x: 0.2, y: 0.46 } : layout.drawing === "hex" ? { x: -0.16, y: 0.4 } : { x: -0.44, y: 0.44 };
    const label = el("text", { class: "label", ...corner }, g);
    label.textContent = cell.name;
    g.addEventListener("pointerdown", (event) => startDrag(event, { cell: cell.name }));
    g.addEventListener("contextmenu", (event) => {
      event.preventDefault();
      gesture({ verb: "turn", cell: cell.name });
    });
  }
}

function buildTray() {
  const tray = document.getElementById("tray");
  tray.textContent = "";
  for (const text of layout.tray) {
    const item = document.createElement("button");
    item.className = "tray-item";
    item.dataset.thing = text;
    item.title = `take a ${describeThing(text)} from the box (or put back what you hold)`;
    item.appendChild(icon(text));
    const count = document.createElement("span");
    count.className = "count";
    item.appendChild(count);
    item.addEventListener("pointerdown", (event) => startDrag(event, { thing: text }));
    tray.appendChild(item);
  }
}

function drawPicture() {
  for (const g of document.querySelectorAll("#board .cell")) {
    const name = g.dataset.cell;
    const pieces = g.querySelector(".pieces");
    pieces.textContent = "";
    drawStack(picture.cells[name] || [], pieces);
    const light = picture.leds[name];
    const led = g.querySelector(".led");
    const ring = g.querySelector(".led-ring");
    if (light) {
      if (g.dataset.blink !== light.blink) {
        // Blink in step with every other lit cell, as the board's LEDs do (one clock for the frame).
        const period = light.period_ms || 1;
        g.style.setProperty("--period", `${period}ms`);
        g.style.setProperty("--phase", `-${performance.now() % period}ms`);
      }
      g.dataset.led = light.meaning;
      g.dataset.blink = light.blink;
      if (light.period_ms) g.dataset.blinking = "true"; else delete g.dataset.blinking;
      if (light.dim) g.dataset.dim = "true"; else delete g.dataset.dim;
      led.setAttribute("fill", `rgb(${light.rgb.join(",")})`);
      ring.setAttribute("stroke", `rgb(${light.rgb.join(",")})`);
    } else {
      delete g.dataset.led;
      delete g.dataset.blink;
      delete g.dataset.blinking;
      delete g.dataset.dim;
    }
    g.classList.toggle("changed", picture.changed.includes(name));
  }
  const hand = document.getElementById("hand");
  hand.textContent = "";
  hand.dataset.held = picture.held.join(" ");
  for (const text of picture.held) {
    const item = document.createElement("span");
    item.title = describeThing(text);
    item.appendChild(icon(text));
    hand.appendChild(item);
  }
  if (!picture.held.length) hand.textContent = "nothing";
  for (const item of document.querySelectorAll(".tray-item")) {
    const count = picture.box[item.dataset.thing];
    item.dataset.count = count;
    item.querySelector(".count").textContent = `${describeThing(item.dataset.thing)} \u00d7${count}`;
  }
  const status = document.getElementById("status");
  status.textContent = picture.status;
  status.dataset.state = picture.state;
  status.dataset.pending = picture.pending || "";
  document.getElementById("message").textContent = picture.message;
  document.getElementById("to-move").textContent = picture.to_move === null ? "-" : layout.sides[picture.to_move];
  document.getElementById("score").textContent = picture.score ? picture.score.join(" : ") : "-";
  const [best, ...line] = picture.hint;
  document.getElementById("hint").textContent = best ? best + (line.length ? ` (then ${line.join(" ")})` : "") : "-";
  const moves = document.getElementById("moves");
  moves.textContent = "";
  for (const text of picture.moves) {
    const li = document.createElement("li");
    li.textContent = text;
    moves.appendChild(li);
  }
  document.body.dataset.ply = String(picture.moves.length);
  showAi(picture.ai);
}

function showAi(ai) {
  const level = document.getElementById("level");
  level.closest("dd").hidden = document.getElementById("level-row").hidden = ai.side === null;
  document.getElementById("ai").textContent = ai.side === null
    ? "off (two players)"
    : `plays ${layout.sides[ai.side]}` + (ai.nodes ? `, ${ai.nodes} nodes a move` : ai.seconds ? `, ${ai.seconds} s a move` : "");
  if (ai.level !== null && document.activeElement !== level) level.value = String(ai.level);
}

function showLayout() {
  document.title = `${layout.name} - magboard`;
  document.getElementById("title").textContent = layout.name;
  document.getElementById("board-name").textContent = layout.board + (layout.simulated ? " (simulated)" : "");
  document.body.classList.toggle("simulated", layout.simulated);
  document.body.dataset.game = layout.game;
  document.getElementById("help").textContent = layout.simulated
    ? "Click a piece to lift it, click a cell to put it down, or drag it. Shift-click lifts one more piece onto those in your hand (a stack); right-click turns a piece over. The tray is the box: click it to take a piece, or to put back what you hold; drag a piece onto it to take it off the board."
    : "This page mirrors the real board: play on the board. Cells whose sensors disagree with the game are outlined in red.";
  buildBoard();
  buildTray();
}

// --- what the player does ------------------------------------------------------------------------
function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function gesture(args) {
  send({ type: "gesture", ...args });
}

function targetAt(event) {
  const node = document.elementFromPoint(event.clientX, event.clientY);
  if (!node) return {};
  const cell = node.closest("[data-cell]");
  if (cell) return { cell: cell.dataset.cell };
  if (node.closest("#tray")) return { tray: true };
  return {};
}

function startDrag(event, from) {
  if (event.button !== 0) return;
  event.preventDefault();
  drag = { from, x: event.clientX, y: event.clientY, moved: false, shift: event.shiftKey };
}

window.addEventListener("pointermove", (event) => {
  if (!drag || drag.moved) return;
  if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) >= DRAG_PX) {
    drag.moved = true;
    // Lift at once, so that the LEDs show where the piece may go while it is carried.
    if (drag.from.cell && !picture.held.length) gesture({ verb: "click", cell: drag.from.cell });
    if (drag.from.thing && !picture.held.length) gesture({ verb: "tray", thing: drag.from.thing });
  }
});

window.addEventListener("pointerup", (event) => {
  if (!drag) return;
  const { from, moved, shift } = drag;
  drag = null;
  const to = targetAt(event);
  if (!moved) {
    if (from.cell) gesture({ verb: shift ? "lift" : "click", cell: from.cell });
    else gesture({ verb: "tray", thing: from.thing });
  } else if (to.cell && to.cell !== from.cell) {
    gesture({ verb: "click", cell: to.cell });
  } else if (to.tray) {
    gesture({ verb: "tray", thing: from.thing || "" });
  } else if (to.cell === from.cell && from.cell) {
    gesture({ verb: "click", cell: from.cell });
  }
});

for (const button of document.querySelectorAll("[data-button]")) {
  button.addEventListener("click", () => send({ type: "button", name: button.dataset.button }));
}
document.getElementById("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = document.getElementById("move-text");
  if (input.value.trim()) send({ type: "move", text: input.value.trim() });
  input.value = "";
});
document.getElementById("ai-move").addEventListener("click", () => send({ type: "ai_move" }));
document.getElementById("level").addEventListener("change", (event) => {
  send({ type: "level", level: Number(event.target.value) });
});

// --- the connection ------------------------------------------------------------------------------
function connect() {
  const status = document.getElementById("connection");
  socket = new WebSocket(`ws://${location.host}/ws`);
  socket.addEventListener("open", () => {
    status.textContent = "connected";
    status.dataset.state = "open";
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "layout") {
      layout = message;
      showLayout();
    } else if (message.type === "picture" && layout) {
      picture = message;
      drawPicture();
    } else if (message.type === "error") {
      document.getElementById("message").textContent = message.message;
    }
  });
  socket.addEventListener("close", () => {
    status.textContent = "disconnected: retrying...";
    status.dataset.state = "closed";
    setTimeout(connect, 1000);
  });
}

connect();
