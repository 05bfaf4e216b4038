// The board in the browser: draws what the server says, sends what the player does.
// The page keeps no game state of its own: every "picture" message is the whole truth,
// and every click is sent as a gesture for the server's simulated hands to interpret.
// A replay of a past game ("replay" messages, asked for by this page alone) is drawn on the same
// board instead of the live picture until "Back to the game"; meanwhile the board takes no input.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
// How each object looks and is called comes with the layout, from the game's own description.
const HEX_RADIUS = 1 / Math.sqrt(3);
const DRAG_PX = 6;
const LEVEL_RISE = 0.05;
const STACK_RISE = 0.15;
const RETRY_MS = [500, 1000, 2000, 4000];

let layout = null;
let picture = null;
let replay = null;  // the past game's step drawn instead of the live board, or null
let replaying = null;  // the id of the past game asked for or shown, or null: a late answer is dropped
let socket = null;
let drag = null;
let retries = 0;

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
  const object = layout.objects[kind];
  if (!object) return kind;
  return object.names[colour === null ? 0 : colour] || object.noun;
}

// A colour of a look by the colour the object shows (the first for a neutral object).
function byColour(list, colour, fallback) {
  if (!list || !list.length) return fallback;
  return list[colour === null ? 0 : Math.min(colour, list.length - 1)];
}

function connected() {
  return socket !== null && socket.readyState === WebSocket.OPEN && picture !== null;
}

// --- drawing objects -----------------------------------------------------------------------------
function drawThing(text, parent, lift) {
  const { kind, colour } = parseThing(text);
  const g = el("g", { class: `thing ${kind}`, transform: `translate(0 ${-lift})`, "data-thing": text }, parent);
  const look = layout.objects[kind] || { shape: "disc", size: 0.3, fills: ["#888"], edges: ["#111"], width: 0.03 };
  const fill = byColour(look.fills, colour, "#888");
  const edge = byColour(look.edges, colour, "#111");
  if (look.shape === "ring") {
    el("circle", { r: look.size, fill: "none", stroke: fill, "stroke-width": look.width }, g);
  } else if (look.shape === "hex") {
    el("polygon", { points: hexPoints(look.size), fill, stroke: edge, "stroke-width": look.width }, g);
  } else {
    el("circle", { r: look.size, fill, stroke: edge, "stroke-width": look.width }, g);
    if (look.glyph) {
      const glyph = el("text", {
        "text-anchor": "middle", "dominant-baseline": "central", "font-size": 0.42, fill: byColour(look.glyph_inks, colour, "#222"),
      }, g);
      glyph.textContent = look.glyph;
    }
  }
  return g;
}

// Each object of a stack a little above the one under it, the whole stack within its cell (a knight may
// win a dozen rings).
function drawStack(stack, parent) {
  const rise = stack.length > 1 ? Math.min(LEVEL_RISE, STACK_RISE / (stack.length - 1)) : 0;
  stack.forEach((text, level) => drawThing(text, parent, level * rise));
}

function icon(text) {
  const svg = el("svg", { class: "icon", viewBox: "-0.5 -0.55 1 1", "aria-hidden": "true" });
  drawThing(text, svg, 0);
  return svg;
}

// A light's meaning as a shape, so that it never depends on colour alone.
function drawSymbol(meaning, parent) {
  const ink = { stroke: "#111", "stroke-width": 0.045, fill: "none", "stroke-linecap": "round", "stroke-linejoin": "round" };
  if (meaning === "put") {
    el("path", { d: "M -0.07 0 H 0.07 M 0 -0.07 V 0.07", ...ink }, parent);
  } else if (meaning === "lift") {
    el("path", { d: "M 0 0.08 V -0.08 M -0.06 -0.02 L 0 -0.08 L 0.06 -0.02", ...ink }, parent);
  } else if (meaning === "remove") {
    el("path", { d: "M -0.06 -0.06 L 0.06 0.06 M 0.06 -0.06 L -0.06 0.06", ...ink }, parent);
  } else if (meaning === "turn") {
    el("path", { d: "M 0.07 0.01 A 0.07 0.07 0 1 1 0.02 -0.065 M 0.02 -0.065 L 0.07 -0.085 M 0.02 -0.065 L 0.045 -0.02", ...ink }, parent);
  } else if (meaning === "result") {
    const star = [];
    for (let i = 0; i < 10; i++) {
      const r = i % 2 ? 0.04 : 0.095;
      const a = -Math.PI / 2 + (i * Math.PI) / 5;
      star.push(`${(r * Math.cos(a)).toFixed(3)},${(r * Math.sin(a)).toFixed(3)}`);
    }
    el("polygon", { points: star.join(" "), fill: "#111" }, parent);
  } else {
    const t = el("text", { "text-anchor": "middle", "dominant-baseline": "central", "font-size": 0.17, "font-weight": 700, fill: "#111" }, parent);
    t.textContent = meaning === "wrong" ? "!" : "?";
  }
}

function cellShape(kind, radius, attrs, parent) {
  if (layout.drawing === "square") {
    const half = radius;
    return el("rect", { class: kind, x: -half, y: -half, width: 2 * half, height: 2 * half, rx: 0.1, ...attrs }, parent);
  }
  if (layout.drawing === "hex") return el("polygon", { class: kind, points: hexPoints(radius * 2 * HEX_RADIUS), ...attrs }, parent);
  return el("circle", { class: kind, r: radius * 0.88, ...attrs }, parent);
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
  board.setAttribute("aria-label", `the ${layout.name} board`);
  const where = Object.fromEntries(layout.cells.map((c) => [c.name, c]));
  if (layout.drawing === "point") {
    for (const [a, b] of layout.links) {
      el("line", { class: "point-line", x1: where[a].x, y1: where[a].y, x2: where[b].x, y2: where[b].y }, board);
    }
  }
  for (const cell of layout.cells) {
    const g = el("g", { class: "cell", "data-cell": cell.name, transform: `translate(${cell.x} ${cell.y})` }, board);
    if (layout.drawing === "square") {
      const square = el("rect", { class: "bg", x: -0.5, y: -0.5, width: 1, height: 1 }, g);
      if (cell.colour) square.style.fill = cell.colour;
    } else if (layout.drawing === "hex") {
      el("polygon", { class: "bg", points: hexPoints(HEX_RADIUS) }, g);
    } else {
      el("circle", { class: "bg", r: 0.16 }, g);
    }
    // The last move tints the cell under its pieces; a hex's tile covers it, so there it outlines on top.
    if (layout.drawing !== "hex") cellShape("last", 0.5, {}, g);
    if (layout.drawing !== "point") cellShape("led", 0.46, {}, g);
    el("g", { class: "pieces" }, g);
    if (layout.drawing === "hex") cellShape("last", 0.4, {}, g);
    el("g", { class: "ghost" }, g);
    cellShape("led-ring", 0.44, {}, g);
    cellShape("decided", 0.4, {}, g);
    el("circle", { class: "dot", r: 0.13 }, g);
    cellShape("capture", 0.47, {}, g);
    const corner = layout.drawing === "hex" ? { x: 0.22, y: -0.2 } : { x: 0.3, y: -0.3 };
    const badge = el("g", { class: "symbol", transform: `translate(${corner.x} ${corner.y})` }, g);
    el("circle", { class: "symbol-bg", r: 0.13 }, badge);
    el("g", { class: "symbol-mark" }, badge);
    el("g", { class: "points" }, g);
    const at = layout.drawing === "point" ? { x: 0, y: 0 } : layout.drawing === "hex" ? { x: -0.16, y: 0.4 } : { x: -0.44, y: 0.44 };
    const label = el("text", { class: "label", ...at }, g);
    if (layout.drawing === "point") {
      label.setAttribute("text-anchor", "middle");
      label.setAttribute("dominant-baseline", "central");
    }
    label.textContent = cell.name;
    cellShape("hit", 0.5, {}, g);
    // The keyboard too: Tab to a cell, Enter or Space clicks it.
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    g.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      clickCell(cell.name);
    });
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
    item.type = "button";
    item.className = "tray-item";
    item.dataset.thing = text;
    item.title = `take a ${describeThing(text)} (or put back what you hold)`;
    item.appendChild(icon(text));
    const count = document.createElement("span");
    count.className = "count";
    item.appendChild(count);
    item.addEventListener("pointerdown", (event) => startDrag(event, { thing: text }));
    tray.appendChild(item);
  }
}

function buildLegend() {
  const legend = document.getElementById("legend");
  legend.textContent = "";
  for (const entry of layout.legend) {
    const li = document.createElement("li");
    li.dataset.meaning = entry.meaning;
    const svg = el("svg", { class: "swatch", viewBox: "-0.5 -0.5 1 1", "aria-hidden": "true" });
    const rgb = `rgb(${entry.rgb.join(",")})`;
    el("rect", { x: -0.42, y: -0.42, width: 0.84, height: 0.84, rx: 0.1, fill: rgb, "fill-opacity": 0.35, stroke: rgb, "stroke-width": 0.08 }, svg);
    const badge = el("g", { transform: "scale(2.6)" }, svg);
    el("circle", { r: 0.13, fill: rgb, stroke: "#111", "stroke-width": 0.02 }, badge);
    drawSymbol(entry.meaning, badge);
    li.appendChild(svg);
    const words = document.createElement("span");
    words.textContent = `${entry.colour}: ${entry.words}`;
    li.appendChild(words);
    legend.appendChild(li);
  }
  for (const entry of layout.blinks) {
    const li = document.createElement("li");
    li.className = `blink-${entry.blink}`;
    li.textContent = entry.words;
    legend.appendChild(li);
  }
  const dot = document.createElement("li");
  dot.textContent = "a dot: where the piece you hold may go; a faint piece: what the lights ask to put there;"
    + " a shaded cell: the last move";
  legend.appendChild(dot);
}

function drawCell(g, picture) {
  const name = g.dataset.cell;
  const stack = picture.cells[name] || [];
  const pieces = g.querySelector(".pieces");
  pieces.textContent = "";
  drawStack(stack, pieces);
  const ghost = g.querySelector(".ghost");
  ghost.textContent = "";
  const wanted = picture.ghosts[name];
  if (wanted && wanted.length) drawThing(wanted[wanted.length - 1], ghost, 0);
  const light = picture.leds[name];
  const ring = g.querySelector(".led-ring");
  const led = g.querySelector(".led");
  const symbol = g.querySelector(".symbol");
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
    const rgb = `rgb(${light.colour.join(",")})`;
    if (led) led.setAttribute("fill", rgb);
    ring.setAttribute("stroke", rgb);
    symbol.querySelector(".symbol-bg").setAttribute("fill", rgb);
    const mark = symbol.querySelector(".symbol-mark");
    if (mark.dataset.meaning !== light.meaning) {
      mark.textContent = "";
      drawSymbol(light.meaning, mark);
      mark.dataset.meaning = light.meaning;
    }
  } else {
    for (const key of ["led", "blink", "blinking", "dim"]) delete g.dataset[key];
  }
  // A dot where the piece goes onto the cell (empty, or a ring or tile nobody owns: it stands on that);
  // a ring where it takes the place of a player's piece.
  const target = picture.targets.includes(name);
  const top = stack.length ? parseThing(stack[stack.length - 1]) : null;
  const onto = !top || top.colour === null;
  g.classList.toggle("target", target && onto);
  g.classList.toggle("target-occupied", target && !onto);
  g.classList.toggle("last-move", picture.last_move.includes(name));
  g.classList.toggle("decided", Boolean(picture.over && picture.over.cells.includes(name)));
  g.classList.toggle("changed", picture.changed.includes(name));
  const unseen = picture.unseen[name];
  g.classList.toggle("unseen", Boolean(unseen));
  if (unseen) g.dataset.unseen = unseen; else delete g.dataset.unseen;
  const said = stack.length ? stack.map(describeThing).join(" under ") : "empty";
  const meaning = light && layout.legend.find((entry) => entry.meaning === light.meaning);
  g.setAttribute(
    "aria-label",
    `${name}: ${said}${meaning ? `; light: ${meaning.words}` : ""}${unseen ? `; ${unseen}` : ""}`,
  );
  const points = g.querySelector(".points");
  points.textContent = "";
  const holder = picture.stacks[name];
  if (holder) {
    const badge = el("g", { class: "badge", transform: "translate(-0.3 -0.3)" }, points);
    el("circle", { r: 0.15, fill: "#f7d774", stroke: "#333", "stroke-width": 0.02 }, badge);
    const t = el("text", { "text-anchor": "middle", "dominant-baseline": "central", "font-size": 0.15, "font-weight": 700 }, badge);
    t.textContent = String(holder.points);
    const title = el("title", {}, badge);
    title.textContent = holder.words;
    const pips = Math.min(holder.count, 7);
    for (let i = 0; i < pips; i++) {
      el("circle", { class: "pip", cx: (i - (pips - 1) / 2) * 0.1, cy: 0.4, r: 0.035 }, points);
    }
  }
}

// A live picture: drawn on the board unless a replay is shown there.
function drawPicture() {
  if (!replay) drawBoard(picture);
  drawHand();
  drawTray();
  drawStatus();
  document.body.dataset.ply = String(picture.ply);
  document.body.dataset.kind = picture.intent.kind;
  showAi(picture.ai);
  if (replay) drawReplayLive();
}

// The cells, the players and the moves of a picture, live or replayed.
function drawBoard(shown) {
  for (const g of document.querySelectorAll("#board .cell")) drawCell(g, shown);
  drawPlayers(shown);
  drawMoves(shown);
}

function drawHand() {
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
}

function drawTray() {
  for (const item of document.querySelectorAll(".tray-item")) {
    const entry = picture.tray[item.dataset.thing];
    item.hidden = !entry;
    if (!entry) continue;
    item.dataset.count = entry.count;
    // A two-sided object's one box is counted once, under its first compartment: the other has no words.
    const name = describeThing(item.dataset.thing);
    const words = entry.words.replace(/^[^:]*: /, "");
    item.querySelector(".count").textContent = words ? `${name}: ${words}` : name;
    item.setAttribute("aria-label", `take a ${name}` + (entry.words ? ` (${entry.words})` : " (the same box)"));
  }
}

function drawStatus() {
  const status = document.getElementById("status");
  status.textContent = picture.status;
  status.dataset.kind = picture.intent.kind;
  status.dataset.move = picture.intent.move || picture.intent.shown || "";
  status.dataset.spoken = picture.spoken;  // said aloud by speak.js when Speak is on
  // Why the game ended, unless the status line says it already.
  const over = document.getElementById("over");
  over.hidden = !picture.over || picture.status.includes(picture.over.reason);
  over.textContent = picture.over ? picture.over.reason : "";
  document.getElementById("message").textContent = picture.message;
  // What the sensors cannot see is a note under the board, not an alarm above it: nothing asks for it.
  const unseenCells = Object.keys(picture.unseen);
  const unseen = document.getElementById("unseen");
  unseen.hidden = !unseenCells.length;
  unseen.textContent = unseenCells.length
    ? `Not seen by the sensors (dotted blue): ${unseenCells.map((c) => `${c}: ${picture.unseen[c]}`).join("; ")}.`
    : "";
  const live = connected() && !replay;
  for (const button of document.querySelectorAll("[data-button]")) {
    button.disabled = !live || !picture.intent.buttons.includes(button.dataset.button);
  }
  const setup = document.getElementById("setup");
  const whose = picture.ai.name ? `${picture.ai.name}'s` : "the AI's";
  setup.textContent = picture.intent.kind === "ai_move" ? `Make ${whose} move` : "Set up the board";
  setup.disabled = !live || !picture.setup;
  for (const control of document.querySelectorAll("#move-form input, #move-form button, #level")) {
    control.disabled = !live;
  }
  // The tray gives only what the game can still give; with something in the hand any of it takes that back.
  for (const item of document.querySelectorAll(".tray-item")) {
    item.disabled = !live || (item.dataset.count === "0" && !picture.held.length);
  }
  // The past games are read from the board's computer too: nothing to ask while it is out of reach.
  for (const control of document.querySelectorAll(".past-game, #past-refresh")) control.disabled = !connected();
  if (replay) drawReplaySteps();
}

function drawPlayers(picture) {
  const list = document.getElementById("players");
  list.textContent = "";
  for (const player of picture.players) {
    const li = document.createElement("li");
    li.dataset.side = player.side;
    if (player.to_move) li.classList.add("to-move");
    li.appendChild(icon(`${layout.player_kind}:${player.side}`));
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = player.name + (player.ai ? " (AI)" : "") + (player.to_move ? " \u2014 to move" : "");
    li.appendChild(who);
    const facts = document.createElement("span");
    facts.className = "hand";
    facts.textContent = player.hand.map((h) => h.words).join(", ");
    li.appendChild(facts);
    list.appendChild(li);
  }
  document.getElementById("supply").textContent = picture.supply.join(", ");
  const score = document.getElementById("score");
  score.textContent = picture.score ? `Score: ${picture.score}` : "";
  const [best, ...line] = picture.hint || [];
  document.getElementById("hint").textContent = best ? best + (line.length ? ` (then ${line.join(" ")})` : "") : "-";
}

function drawMoves(picture) {
  const body = document.querySelector("#moves tbody");
  body.textContent = "";
  let current = null;
  picture.turns.forEach((plies, index) => {
    const row = document.createElement("tr");
    const number = document.createElement("th");
    number.scope = "row";
    number.textContent = `${index + 1}.`;
    row.appendChild(number);
    plies.forEach((text, side) => {
      const cell = document.createElement("td");
      cell.className = "ply";
      cell.dataset.side = side;
      const ply = 2 * index + side + 1;
      if (replay) {
        // In a replay each move is a step to go to.
        const step = document.createElement("button");
        step.type = "button";
        step.className = "ply-step";
        step.textContent = text;
        step.title = `the position after move ${ply}`;
        step.addEventListener("click", () => askReplay(replay.game.id, ply));
        cell.appendChild(step);
        if (ply === picture.ply) {
          cell.classList.add("current");
          current = cell;
        }
      } else {
        cell.textContent = text;
      }
      row.appendChild(cell);
    });
    body.appendChild(row);
  });
  const box = document.getElementById("moves-box");
  if (current) current.scrollIntoView({ block: "nearest" });
  else if (!replay) box.scrollTop = box.scrollHeight;  // the latest move in view
  else box.scrollTop = 0;
}

function showAi(ai) {
  const level = document.getElementById("level");
  // An engine (GTP) that plays instead of the built-in AI is named, and has no level of ours.
  document.getElementById("level-cell").hidden = document.getElementById("level-row").hidden =
    ai.side === null || ai.level === null;
  const pace = ai.nodes ? `, ${ai.nodes} nodes a move` : ai.seconds ? `, ${ai.seconds} s a move` : "";
  const side = ai.side === null ? "" : layout.sides[ai.side];
  // An engine that has stopped plays no more, and the built-in AI only once Confirm takes the offer.
  document.getElementById("ai").textContent = ai.side === null
    ? "off (two players)"
    : ai.stopped
      ? `${ai.stopped} has stopped; on Confirm the built-in AI plays ${side}${pace}`
      : (ai.name ? `${ai.name} ` : "") + `plays ${side}${pace}`;
  if (ai.level !== null && document.activeElement !== level) level.value = String(ai.level);
}

function showLayout() {
  document.title = `${layout.name} - magboard`;
  document.getElementById("title").textContent = layout.name;
  document.getElementById("board-name").textContent = layout.board + (layout.simulated ? " (simulated)" : "");
  document.body.classList.toggle("simulated", layout.simulated);
  document.body.dataset.game = layout.game;
  document.body.dataset.drawing = layout.drawing;
  // A Pass button only for a game where a player may pass while other moves are legal.
  document.body.classList.toggle("passes", layout.voluntary_pass);
  document.querySelector('[data-button="pass"]').hidden = !layout.voluntary_pass;
  const style = document.documentElement.style;
  style.setProperty("--side-0", layout.side_colours[0]);
  style.setProperty("--side-1", layout.side_colours[1]);
  document.getElementById("side-0").textContent = layout.sides[0];
  document.getElementById("side-1").textContent = layout.sides[1];
  document.getElementById("move-text").placeholder = `e.g. ${layout.notation}`;
  // Turning over is offered only where something has two sides, as the legend's "turn" light is.
  const turning = Object.values(layout.objects).some((object) => object.role === "reversible");
  document.getElementById("help").textContent = layout.simulated
    ? "Click a piece to lift it, click a cell to put down all you hold, or drag it: a click lifts what a hand would"
      + (layout.carries ? ` (${layout.carries} on its owner's turn)` : "")
      + ". Shift-click lifts the top object alone, onto what you hold"
      + (turning ? "; right-click turns a piece over." : ".")
      + " The tray is the box: click it to take a piece while there is one, or to put back what you hold; drag a piece onto it to take it off the board. When the board asks which move you made, click a lit cell to tap it."
    : "This page mirrors the real board: play on the board. Cells whose sensors disagree with the game are outlined in red.";
  buildBoard();
  buildTray();
  buildLegend();
}

// --- what the player does ------------------------------------------------------------------------
function send(message) {
  if (!connected()) {
    document.getElementById("message").textContent = "not connected to the board: wait until it is back";
    return;
  }
  socket.send(JSON.stringify(message));
}

// While a replay is shown the board is not the live one: what is done on it is refused, in words.
function refusedInReplay() {
  if (replay) document.getElementById("past-message").textContent = "this is a replay: press \u201cBack to the game\u201d to play";
  return replay !== null;
}

function gesture(args) {
  if (!refusedInReplay()) send({ type: "gesture", ...args });
}

// A click on a cell: a tap where the board asks which move was made, else lift or put down.
function clickCell(cell) {
  const light = picture && picture.leds[cell];
  const asking = picture && picture.intent.kind === "choose" && light && !picture.held.length;
  gesture({ verb: asking ? "tap" : "click", cell });
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
  if (event.button !== 0 || refusedInReplay()) return;
  event.preventDefault();
  drag = { from, x: event.clientX, y: event.clientY, moved: false, shift: event.shiftKey };
}

window.addEventListener("pointermove", (event) => {
  if (!drag || drag.moved || !picture) return;
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
    if (from.cell && shift) gesture({ verb: "lift", cell: from.cell });
    else if (from.cell) clickCell(from.cell);
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
document.getElementById("setup").addEventListener("click", () => send({ type: "setup" }));
document.getElementById("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = document.getElementById("move-text");
  if (input.value.trim()) send({ type: "move", text: input.value.trim() });
  input.value = "";
});
document.getElementById("level").addEventListener("change", (event) => {
  send({ type: "level", level: Number(event.target.value) });
});

// --- past games: the store's list and a replay --------------------------------------------------------
// Questions change nothing: they are answered to this page alone, and a page that only watches may ask.
function ask(message) {
  if (socket === null || socket.readyState !== WebSocket.OPEN) {
    document.getElementById("past-message").textContent = "not connected to the board: wait until it is back";
    return;
  }
  socket.send(JSON.stringify(message));
}

function askReplay(id, step) {
  replaying = id;
  ask({ type: "replay", game: id, step });
}

function gameWords(game) {
  const moves = game.moves === 1 ? "1 move" : `${game.moves} moves`;
  return [`Game ${game.id}`, game.date, game.players.join(" - "), game.state, moves].filter(Boolean).join(" \u00b7 ");
}

function drawPastGames(message) {
  const list = document.getElementById("past-list");
  list.textContent = "";
  document.getElementById("past-message").textContent = "";
  for (const game of message.games) {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "past-game";
    button.dataset.game = game.id;
    button.textContent = gameWords(game);
    button.title = `replay game ${game.id} move by move`;
    button.addEventListener("click", () => askReplay(game.id, 0));
    li.appendChild(button);
    list.appendChild(li);
  }
  const count = document.getElementById("past-count");
  count.textContent = !message.total
    ? `No games of ${layout.name} in the store yet.`
    : message.total > message.games.length
      ? `The ${message.games.length} newest of ${message.total} games of ${layout.name}:`
      : `${message.total} game${message.total === 1 ? "" : "s"} of ${layout.name}, newest first:`;
}

function drawReplay() {
  document.body.classList.add("replaying");
  document.body.dataset.replayGame = String(replay.game.id);
  document.body.dataset.replayStep = String(replay.step);
  document.getElementById("past-message").textContent = "";
  document.getElementById("replay").hidden = false;
  document.getElementById("replay-banner").hidden = false;
  document.getElementById("replay-banner").textContent =
    `Replay of game ${replay.game.id} (${replay.game.players.join(" - ")}${replay.game.date ? `, ${replay.game.date}` : ""}) `
    + `\u2014 not the live board: move ${replay.step} of ${replay.steps}`;
  document.getElementById("replay-status").textContent = replay.status;
  const over = document.getElementById("replay-over");
  over.hidden = !replay.picture.over;
  over.textContent = replay.picture.over ? replay.picture.over.reason : "";
  document.getElementById("board").setAttribute("aria-label", `replay of game ${replay.game.id} after move ${replay.step}`);
  drawReplaySteps();
  for (const button of document.querySelectorAll(".past-game")) {
    button.setAttribute("aria-pressed", String(Number(button.dataset.game) === replay.game.id));
  }
  drawBoard(replay.picture);
  if (picture) drawStatus();
  drawReplayLive();
}

function drawReplaySteps() {
  const steps = { first: 0, previous: replay.step - 1, next: replay.step + 1, last: replay.steps };
  for (const button of document.querySelectorAll("[data-step]")) {
    const to = steps[button.dataset.step];
    button.disabled = !connected() || to < 0 || to > replay.steps || to === replay.step;
  }
}

function drawReplayLive() {
  document.getElementById("replay-live").textContent = picture
    ? `Meanwhile the live game (move ${picture.ply}): ${picture.status}` : "";
}

function stepReplay(which) {
  if (!replay) return;
  const to = { first: 0, previous: replay.step - 1, next: replay.step + 1, last: replay.steps }[which];
  if (to >= 0 && to <= replay.steps && to !== replay.step) askReplay(replay.game.id, to);
}

function backToGame() {
  const left = replay ? replay.game.id : null;
  replay = null;
  replaying = null;
  document.body.classList.remove("replaying");
  delete document.body.dataset.replayGame;
  delete document.body.dataset.replayStep;
  document.getElementById("replay").hidden = true;
  document.getElementById("past-message").textContent = "";
  document.getElementById("replay-banner").hidden = true;
  document.getElementById("board").setAttribute("aria-label", `the ${layout.name} board`);
  for (const button of document.querySelectorAll(".past-game")) button.removeAttribute("aria-pressed");
  if (picture) drawPicture();
  const listed = document.querySelector(`.past-game[data-game="${left}"]`);
  if (listed) listed.focus();  // the keyboard goes on from the game it left
}

for (const button of document.querySelectorAll("[data-step]")) {
  button.addEventListener("click", () => stepReplay(button.dataset.step));
}
document.getElementById("back-to-game").addEventListener("click", backToGame);
document.getElementById("past-refresh").addEventListener("click", () => ask({ type: "past_games" }));
window.addEventListener("keydown", (event) => {
  if (!replay || event.target.closest("input, select, textarea")) return;
  const which = { ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last", Escape: "back" }[event.key];
  if (!which) return;
  event.preventDefault();
  if (which === "back") backToGame(); else stepReplay(which);
});

// --- the connection ------------------------------------------------------------------------------
function showConnection(state) {
  document.body.dataset.connection = state;
  const words = { open: "connected", closed: "disconnected: reconnecting...", connecting: "connecting..." };
  document.getElementById("connection").textContent = words[state];
  document.getElementById("offline").hidden = state !== "closed";
  if (picture) drawStatus();
}

function connect() {
  socket = new WebSocket(`ws://${location.host}/ws`);
  socket.addEventListener("open", () => {
    retries = 0;
    showConnection("open");
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "layout") {
      layout = message;
      showLayout();
      if (replay) drawReplay();  // the board was drawn anew
      ask({ type: "past_games" });
    } else if (message.type === "picture" && layout) {
      const before = picture;
      picture = message;
      drawPicture();
      // The list follows the live game: a move made, a game over or a new game changes its entry.
      if (!before || before.ply !== picture.ply || Boolean(before.over) !== Boolean(picture.over)) {
        ask({ type: "past_games" });
      }
    } else if (message.type === "past_games" && layout) {
      drawPastGames(message);
    } else if (message.type === "replay" && layout) {
      if (message.game.id !== replaying) return;  // asked for before "Back to the game"
      replay = message;
      drawReplay();
    } else if (message.type === "error" && message.about === "past") {
      document.getElementById("past-message").textContent = message.message;
    } else if (message.type === "error") {
      document.getElementById("message").textContent = message.message;
    }
  });
  socket.addEventListener("close", () => {
    drag = null;
    showConnection("closed");
    setTimeout(connect, RETRY_MS[Math.min(retries, RETRY_MS.length - 1)]);
    retries += 1;
  });
}

connect();
