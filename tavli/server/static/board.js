// The board page (match.html): shows the match the server sends and lets the player
// on turn roll, build a move step by step, take steps back, and confirm.
//
// The server is authoritative (docs/web.md). The page keeps no match of its own: every
// `state` is drawn as it comes. While the player builds a move, the steps made so far are
// applied to a copy of the board; nothing is sent until Confirm sends the whole play.
import {
  colorName, errorText, languageSelect, levelName, onLangChange, reasonText, t, translatePage, variantName,
} from "/static/i18n.js";

const NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const BAR = 25, OFF = 0;

// ---- board geometry, in the SVG's viewBox ------------------------------------------------
const FR = 30;                         // frame thickness
const PW = 62;                         // width of a point
const HALF = 6 * PW;                   // one table (six points)
const BARW = 62;                       // the bar between the tables
const TRAYW = 78;                      // the bear-off tray
const LX = FR, BX = LX + HALF, RX = BX + BARW, FIELD_END = RX + HALF;
const TX = FIELD_END + FR, W = TX + TRAYW + FR;
const FY = FR, FH = 680, H = FY + FH + FR, MID = FY + FH / 2;
const PH = 272;                        // height of a triangle
const R = 29;                          // checker radius
const SHOWN = 5;                       // checkers drawn on a point before a count is written
const COL_H = FH / 2 - 8;              // a point's clickable column
const PIN_OFFSET = 0.55;               // how far a pinning checker sits over the pinned one (in diameters)

// ---- page state --------------------------------------------------------------------------
const matchId = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop() || "");
const token = new URLSearchParams(location.hash.slice(1)).get("t") || "";

let state = null;          // the last state from the server
let board = null;          // the board drawn: the state's, with the steps made so far applied
let made = [];             // steps made this turn, not yet sent: [from, to, hit]
let selected = null;       // the point (White's numbering, 25 = bar) whose checker is picked up
let sending = false;       // an action is on its way; the next state answers it
let drag = null;           // {from, x0, y0, moved, wasSelected, ghost}
let socket = null;
let attempt = 0;
let retryTimer = null;
let retryAt = 0;
let gaveUp = false;
let connection = "connecting"; // connecting | open | reconnecting | failed
let fatal = "";
let lastMessageAt = 0;
let autoRollTimer = null;
let autoRolledSeq = -1;
let toastTimer = null;
let gameOverTimer = null;
let matchOverClosed = false;
let messageId = 0;

// ---- small helpers -----------------------------------------------------------------------
function svg(tag, attrs = {}, parent = null) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  if (parent) parent.append(el);
  return el;
}

function html(tag, attrs = {}, text = null) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  if (text !== null) el.textContent = text;
  return el;
}

const other = (color) => (color === "white" ? "black" : "white");
const isSeat = (you) => you === "white" || you === "black";
const diceText = (dice) => (Array.isArray(dice) ? dice.join("-") : "");
const storageGet = (key) => { try { return localStorage.getItem(key); } catch { return null; } };
const storageSet = (key, value) => { try { localStorage.setItem(key, value); } catch { /* private mode */ } };

function steps(order) {
  if (Array.isArray(order)) return order;           // [[from, to, hit], ...]
  return order && Array.isArray(order.steps) ? order.steps : [];
}

function orders() {
  const legal = state && state.legal;
  if (!legal || !Array.isArray(legal.orders)) return [];
  return legal.orders.map((o, i) => ({ play: Array.isArray(o) ? i : o.play, steps: steps(o) }));
}

const sameStep = (a, b) => a[0] === b[0] && a[1] === b[1] && Boolean(a[2]) === Boolean(b[2]);
const startsWith = (list, prefix) => prefix.every((s, i) => list[i] && sameStep(list[i], s));

// ---- whose view --------------------------------------------------------------------------
function viewer() { return state && state.you === "black" ? "black" : "white"; }
function mover() { return state ? state.turn : "white"; }

// A point of White's numbering in the viewer's own numbering (the number he reads).
function own(p, color = viewer()) {
  if (p === BAR || p === OFF || color === "white") return p;
  const numbers = state && state.game && state.game.black_numbers;
  return Array.isArray(numbers) && numbers[p - 1] ? numbers[p - 1] : 25 - p;
}

// Where a point (viewer's number) is drawn: White's layout, 1–6 bottom right … 19–24 top right.
function column(slot) {
  if (slot <= 6) return { x: RX + (6 - slot) * PW, top: false };
  if (slot <= 12) return { x: LX + (12 - slot) * PW, top: false };
  if (slot <= 18) return { x: LX + (slot - 13) * PW, top: true };
  return { x: RX + (slot - 19) * PW, top: true };
}

function stackY(top, index) { return top ? FY + R + index * 2 * R : FY + FH - R - index * 2 * R; }

// ---- the board model ---------------------------------------------------------------------
function boardOf(s) {
  const g = s.game || {};
  const points = [];
  for (let i = 0; i < 24; i++) {
    const pt = (g.points && g.points[i]) || {};
    points.push({ white: pt.white | 0, black: pt.black | 0, pinned: pt.pinned || null });
  }
  const bar = g.bar || {}, off = g.off || {};
  return { points, bar: { white: bar.white | 0, black: bar.black | 0 }, off: { white: off.white | 0, black: off.black | 0 } };
}

function applyStep(b, color, step, variant) {
  const [from, to, hit] = step;
  const opp = other(color);
  if (from === BAR) b.bar[color] = Math.max(0, b.bar[color] - 1);
  else if (from >= 1 && from <= 24) {
    const pt = b.points[from - 1];
    pt[color] = Math.max(0, pt[color] - 1);
    if (pt[color] === 0 && pt.pinned === opp) pt.pinned = null;   // the pin ends when the last pinner leaves
  }
  if (to === OFF) { b.off[color] += 1; return; }
  if (to < 1 || to > 24) return;
  const pt = b.points[to - 1];
  if (hit && variant === "plakoto") pt.pinned = opp;
  else if (hit && pt[opp] > 0) { b.bar[opp] += pt[opp]; pt[opp] = 0; }
  pt[color] += 1;
}

function pipsOf(b, color) {
  let total = b.bar[color] * 25;
  for (let p = 1; p <= 24; p++) total += b.points[p - 1][color] * own(p, color);
  return total;
}

// The steps possible now: the next step of every legal order that starts with the steps made.
function candidates() {
  if (!canMove()) return [];
  const k = made.length, out = [];
  for (const o of orders()) {
    if (o.steps.length <= k || !startsWith(o.steps, made)) continue;
    const step = o.steps[k];
    if (!out.some((s) => sameStep(s, step))) out.push(step);
  }
  return out;
}

function completeOrder() {
  if (!canMove() || made.length === 0) return null;
  return orders().find((o) => o.steps.length === made.length && startsWith(o.steps, made)) || null;
}

function canMove() {
  return Boolean(state && !sending && isSeat(state.you) && state.can_play && state.legal && state.turn === state.you);
}

// The dice the steps made have used (for dimming them), by distance in the mover's numbering.
function usedDice(dice, color) {
  const list = dice.length === 2 && dice[0] === dice[1] ? [dice[0], dice[0], dice[0], dice[0]] : dice.slice();
  const used = list.map(() => false);
  for (const [from, to] of made) {
    const distance = own(from, color) - own(to, color);
    let k = list.findIndex((d, i) => !used[i] && d === distance);
    if (k < 0 && to === OFF) {
      let best = -1;
      list.forEach((d, i) => { if (!used[i] && d > distance && (best < 0 || d < list[best])) best = i; });
      k = best;
    }
    if (k < 0) k = used.indexOf(false);
    if (k >= 0) used[k] = true;
  }
  return { list, used };
}

// ---- wood, drawn once into images ----------------------------------------------------------
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

function woodTexture(w, h, base, dark, light, seed, lines) {
  try {
    const c = document.createElement("canvas");
    c.width = w; c.height = h;
    const g = c.getContext("2d");
    if (!g) return null;
    g.fillStyle = base;
    g.fillRect(0, 0, w, h);
    const rand = rng(seed);
    for (let i = 0; i < lines; i++) {
      const y0 = rand() * h, amp = 1 + rand() * 5, f1 = 0.002 + rand() * 0.01, f2 = 0.02 + rand() * 0.03;
      const phase = rand() * 6.28;
      g.strokeStyle = rand() < 0.65 ? dark : light;
      g.globalAlpha = 0.04 + rand() * 0.12;
      g.lineWidth = 0.6 + rand() * 2.6;
      g.beginPath();
      for (let x = -10; x <= w + 10; x += 6) {
        const y = y0 + Math.sin(x * f1 + phase) * amp * 3 + Math.sin(x * f2 + phase * 2) * amp * 0.4;
        if (x === -10) g.moveTo(x, y); else g.lineTo(x, y);
      }
      g.stroke();
    }
    g.globalAlpha = 1;
    return c.toDataURL("image/png");
  } catch {
    return null;
  }
}

let textures = null;
function woodImages() {
  if (!textures) {
    textures = {
      frame: woodTexture(W, H, "#5a3218", "#2c160a", "#8a5630", 7, 260),
      field: woodTexture(HALF, FH, "#d5ab6e", "#8d5f2c", "#f0cf95", 11, 170),
      bar: woodTexture(BARW, FH, "#4d2a14", "#24110a", "#7d4a26", 5, 90),
    };
  }
  return textures;
}

// ---- drawing -----------------------------------------------------------------------------
function defs(root) {
  const d = svg("defs", {}, root);
  const grad = (id, stops, attrs = {}) => {
    const g = svg(attrs.radial ? "radialGradient" : "linearGradient", { id, ...(attrs.radial ? { cx: "38%", cy: "34%", r: "70%" } : attrs) }, d);
    for (const [offset, color, opacity] of stops) svg("stop", { offset, "stop-color": color, "stop-opacity": opacity ?? 1 }, g);
  };
  grad("g-white", [["0%", "#fffdf6"], ["55%", "#f1e7d2"], ["100%", "#cdbd9d"]], { radial: true });
  grad("g-black", [["0%", "#5a4539"], ["50%", "#2c1f18"], ["100%", "#0d0806"]], { radial: true });
  grad("g-tri-a", [["0%", "#f3e6c4"], ["100%", "#dcc89a"]], { x1: 0, y1: 0, x2: 0, y2: 1 });
  grad("g-tri-b", [["0%", "#8e2b1e"], ["100%", "#6a1c12"]], { x1: 0, y1: 0, x2: 0, y2: 1 });
  grad("g-shade-top", [["0%", "#000", 0.35], ["100%", "#000", 0]], { x1: 0, y1: 0, x2: 0, y2: 1 });
  grad("g-shade-side", [["0%", "#000", 0.28], ["12%", "#000", 0], ["88%", "#000", 0], ["100%", "#000", 0.28]], { x1: 0, y1: 0, x2: 1, y2: 0 });
  grad("g-die-white", [["0%", "#ffffff"], ["100%", "#e9e2d4"]], { x1: 0, y1: 0, x2: 1, y2: 1 });
  grad("g-die-black", [["0%", "#3b2c24"], ["100%", "#140d09"]], { x1: 0, y1: 0, x2: 1, y2: 1 });
  grad("g-tray", [["0%", "#1c100a"], ["100%", "#2d1a0f"]], { x1: 0, y1: 0, x2: 0, y2: 1 });
  const f = svg("filter", { id: "f-shadow", x: "-30%", y: "-30%", width: "160%", height: "160%" }, d);
  svg("feDropShadow", { dx: 0, dy: 2.2, stdDeviation: 1.8, "flood-color": "#000", "flood-opacity": 0.45 }, f);
  const fl = svg("filter", { id: "f-lift", x: "-40%", y: "-40%", width: "180%", height: "180%" }, d);
  svg("feDropShadow", { dx: 0, dy: 7, stdDeviation: 5, "flood-color": "#000", "flood-opacity": 0.5 }, fl);
}

function drawFrame(root) {
  const tex = woodImages();
  const frame = svg("g", { class: "frame" }, root);
  svg("rect", { x: 0, y: 0, width: W, height: H, rx: 16, fill: "#5a3218" }, frame);
  if (tex.frame) svg("image", { href: tex.frame, x: 0, y: 0, width: W, height: H, preserveAspectRatio: "none", "clip-path": "inset(0 round 16px)" }, frame);
  svg("rect", { x: 1.5, y: 1.5, width: W - 3, height: H - 3, rx: 15, fill: "none", stroke: "#2a1408", "stroke-width": 3 }, frame);
  svg("rect", { x: 6, y: 6, width: W - 12, height: H - 12, rx: 12, fill: "none", stroke: "#9a663b", "stroke-opacity": 0.35, "stroke-width": 1.5 }, frame);
  for (const x of [LX, RX]) {
    svg("rect", { x, y: FY, width: HALF, height: FH, fill: "#d5ab6e" }, frame);
    if (tex.field) svg("image", { href: tex.field, x, y: FY, width: HALF, height: FH, preserveAspectRatio: "none" }, frame);
  }
  svg("rect", { x: BX, y: FY - 4, width: BARW, height: FH + 8, fill: "#4d2a14" }, frame);
  if (tex.bar) svg("image", { href: tex.bar, x: BX, y: FY - 4, width: BARW, height: FH + 8, preserveAspectRatio: "none" }, frame);
  svg("rect", { x: BX, y: FY - 4, width: BARW, height: FH + 8, fill: "url(#g-shade-side)" }, frame);
  for (const y of [MID - 120, MID + 96]) {          // the hinges
    svg("rect", { x: BX + BARW / 2 - 5, y, width: 10, height: 24, rx: 2, fill: "#b08a4a", stroke: "#5c4220", "stroke-width": 1 }, frame);
  }
  svg("rect", { x: TX, y: FY, width: TRAYW, height: FH, rx: 6, fill: "url(#g-tray)" }, frame);
  svg("line", { x1: TX + 6, x2: TX + TRAYW - 6, y1: MID, y2: MID, stroke: "#6d4526", "stroke-width": 3 }, frame);
}

function drawInsetShade(root) {
  // a little depth on the playing field, over the triangles and under the checkers
  for (const x of [LX, RX]) {
    svg("rect", { x, y: FY, width: HALF, height: 22, fill: "url(#g-shade-top)", "pointer-events": "none" }, root);
    svg("rect", { x, y: FY, width: HALF, height: FH, fill: "none", stroke: "#3a1e0c", "stroke-width": 2, "pointer-events": "none" }, root);
  }
}

function drawChecker(parent, color, cx, cy, attrs = {}) {
  const g = svg("g", { class: `checker ${color}`, "data-checker": "", "data-color": color, ...attrs }, parent);
  svg("circle", { cx, cy, r: R - 0.5, fill: `url(#g-${color})`, stroke: color === "white" ? "#9f8d6b" : "#000", "stroke-width": 1.5, filter: "url(#f-shadow)" }, g);
  svg("circle", { cx, cy, r: R * 0.68, fill: "none", stroke: color === "white" ? "#c9b893" : "#574437", "stroke-width": 1.6, "stroke-opacity": 0.9 }, g);
  svg("circle", { cx, cy, r: R * 0.36, fill: "none", stroke: color === "white" ? "#d9cbab" : "#45352b", "stroke-width": 1 }, g);
  return g;
}

function drawCount(parent, n, cx, cy, color) {
  const text = svg("text", { class: "count", x: cx, y: cy + 7, "text-anchor": "middle", fill: color === "white" ? "#3b2a1a" : "#f4e9d4" }, parent);
  text.textContent = String(n);
  return text;
}

function drawDie(parent, value, cx, cy, size, color, used) {
  const g = svg("g", { class: `die ${color}${used ? " used" : ""}`, "data-die": value }, parent);
  svg("rect", { x: cx - size / 2, y: cy - size / 2, width: size, height: size, rx: size * 0.18, fill: `url(#g-die-${color})`, stroke: color === "white" ? "#a99d86" : "#000", "stroke-width": 1.5, filter: "url(#f-shadow)" }, g);
  const pip = color === "white" ? "#1d1511" : "#f5ecd9";
  const o = size * 0.26;
  const spots = {
    1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
    5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
  }[value] || [];
  for (const [dx, dy] of spots) svg("circle", { cx: cx + dx * o, cy: cy + dy * o, r: size * 0.09, fill: pip }, g);
  return g;
}

function drawDiceRow(parent, values, cx, cy, color, used = []) {
  const size = values.length > 2 ? 44 : 52, gap = 12;
  const width = values.length * size + (values.length - 1) * gap;
  values.forEach((v, i) => drawDie(parent, v, cx - width / 2 + size / 2 + i * (size + gap), cy, size, color, used[i]));
}

// Where the top checker of a stack sits (index in checker diameters from the edge).
function stackIndex(pt, color) {
  const base = pt.pinned && pt.pinned !== color ? PIN_OFFSET : 0;
  return base + Math.min(pt[color], SHOWN) - 1;
}

// The frame and its wood are drawn once; everything on them is drawn again for each change.
function layer() {
  const svgRoot = $("board");
  let dyn = svgRoot.querySelector(":scope > g.dyn");
  if (!dyn) {
    svgRoot.textContent = "";
    svgRoot.setAttribute("viewBox", `0 0 ${W} ${H}`);
    defs(svgRoot);
    drawFrame(svgRoot);
    dyn = svg("g", { class: "dyn" }, svgRoot);
  } else {
    dyn.textContent = "";
  }
  return dyn;
}

function render() {
  if (!$("board")) return;
  const root = layer();
  if (!state || !board) {
    drawLabels(root, "white");
    return;
  }
  const you = viewer();
  const variant = state.game && state.game.variant;
  const next = candidates();
  const sources = new Set(next.map((s) => s[0]));
  if (selected !== null && !sources.has(selected)) selected = null;
  if (selected === null && sources.size === 1 && !drag) selected = [...sources][0];
  const targets = new Map();
  if (selected !== null) for (const s of next) if (s[0] === selected && !targets.has(s[1])) targets.set(s[1], s);
  const last = lastOpponentMove();
  const mine = mover();
  $("board").classList.toggle("interactive", canMove());

  const points = svg("g", { class: "points" }, root);
  for (let p = 1; p <= 24; p++) {
    const slot = own(p);
    const { x, top } = column(slot);
    const pt = board.points[p - 1];
    const classes = ["point"];
    if (sources.has(p)) classes.push("source");
    if (selected === p) classes.push("selected");
    if (targets.has(p)) classes.push("target");
    if (last.to.has(p)) classes.push("last-to");
    if (last.from.has(p)) classes.push("last-from");
    const g = svg("g", { class: classes.join(" "), "data-point": p }, points);
    const tip = top ? FY + PH : FY + FH - PH;
    const base = top ? FY : FY + FH;
    const fill = slot % 2 ? "url(#g-tri-a)" : "url(#g-tri-b)";
    svg("polygon", { class: "tri", points: `${x + 2},${base} ${x + PW - 2},${base} ${x + PW / 2},${tip}`, fill, stroke: "#000", "stroke-opacity": 0.25, "stroke-width": 1 }, g);
    if (targets.has(p)) svg("polygon", { class: "glow", points: `${x + 2},${base} ${x + PW - 2},${base} ${x + PW / 2},${tip}` }, g);
    svg("rect", { class: "hit", x, y: top ? FY : FY + FH - COL_H, width: PW, height: COL_H, fill: "transparent" }, g);
    const cx = x + PW / 2;
    const owner = pt.white > 0 ? (pt.pinned === "white" && pt.black > 0 ? "black" : "white") : pt.black > 0 ? "black" : null;
    if (pt.pinned && pt[pt.pinned] > 0) {
      drawChecker(g, pt.pinned, cx, stackY(top, 0), { class: `checker ${pt.pinned} pinned` });
    }
    if (owner) {
      const n = pt[owner] - (pt.pinned === owner ? 1 : 0);
      const start = pt.pinned && pt.pinned !== owner ? PIN_OFFSET : 0;
      const shown = Math.min(n, SHOWN);
      for (let i = 0; i < shown; i++) {
        const lifted = drag && drag.moved && drag.from === p && i === shown - 1 && owner === mine;
        const c = drawChecker(g, owner, cx, stackY(top, start + i), lifted ? { opacity: 0.25 } : {});
        if (i === shown - 1) c.classList.add("top");
      }
      if (n > SHOWN) drawCount(g, n, cx, stackY(top, start + SHOWN - 1), owner);
    }
    if (targets.has(p)) drawGhost(g, p, targets.get(p), cx, top, variant);
    if (last.to.has(p) && owner) {
      const i = stackIndex(pt, owner);
      svg("circle", { class: "last-ring", cx, cy: stackY(top, Math.max(0, i)), r: R + 3 }, g);
    }
    if (last.from.has(p)) {
      const i = owner ? stackIndex(pt, owner) + 1 : 0;
      if (i < SHOWN) svg("circle", { class: "last-ghost", cx, cy: stackY(top, i), r: R - 3 }, g);
    }
  }
  drawInsetShade(root);
  drawBar(root, sources, you, last);
  drawTrays(root, targets, you, last);
  drawLabels(root, you);
  drawDice(root, you);
  if (selected !== null) markSelected(root);
  if (drag && drag.ghost) $("board").append(drag.ghost);   // keep the checker in hand on top
}

function drawGhost(g, p, step, cx, top, variant) {
  const pt = board.points[p - 1];
  const color = mover();
  const hit = step[2];
  let index;
  if (hit && variant === "plakoto") index = PIN_OFFSET;
  else if (hit) index = 0;
  else index = Math.min(stackIndex(pt, color) + 1, SHOWN - 1);
  if (pt[color] === 0 && !hit) index = pt.pinned ? PIN_OFFSET : 0;
  const ghost = svg("g", { class: "ghost", "pointer-events": "none" }, g);
  svg("circle", { cx, cy: stackY(top, index), r: R - 1, fill: `url(#g-${color})`, opacity: 0.55 }, ghost);
  svg("circle", { cx, cy: stackY(top, index), r: R - 1, class: "ghost-ring" }, ghost);
}

function markSelected(root) {
  const g = root.querySelector(`[data-point="${selected}"]`);
  if (!g) return;
  const top = [...g.querySelectorAll(`[data-checker][data-color="${mover()}"]`)].filter((c) => !c.classList.contains("pinned")).pop();
  if (top) top.classList.add("picked");
}

function drawBar(root, sources, you, last) {
  const classes = ["point", "bar"];
  if (sources.has(BAR)) classes.push("source");
  if (selected === BAR) classes.push("selected");
  const g = svg("g", { class: classes.join(" "), "data-point": BAR }, root);
  svg("rect", { class: "hit", x: BX, y: FY, width: BARW, height: FH, fill: "transparent" }, g);
  const cx = BX + BARW / 2;
  // The viewer's checkers wait on the upper half (he enters in the top right table), the opponent's on the lower.
  for (const color of [you, other(you)]) {
    const n = board.bar[color];
    if (!n) continue;
    const up = color === you;
    const shown = Math.min(n, 3);
    for (let i = 0; i < shown; i++) {
      const cy = up ? MID - 34 - R - i * 2 * R : MID + 34 + R + i * 2 * R;
      const lifted = drag && drag.moved && drag.from === BAR && color === mover() && i === shown - 1;
      const c = drawChecker(g, color, cx, cy, lifted ? { opacity: 0.25 } : {});
      if (i === shown - 1) c.classList.add("top");
    }
    if (n > 3) drawCount(g, n, cx, up ? MID - 34 - R - 4 * R : MID + 34 + R + 4 * R, color);
  }
  if (last.from.has(BAR) || last.to.has(BAR)) g.classList.add("last-from");
}

function drawTrays(root, targets, you, last) {
  const half = FH / 2 - 12;
  for (const color of [you, other(you)]) {
    const bottom = color === you;
    const attrs = { class: "tray", "data-tray": color };
    if (bottom) attrs["data-point"] = OFF;
    const classes = ["tray"];
    if (bottom) classes.push("point");
    if (bottom && targets.has(OFF)) classes.push("target");
    if (color !== you && last.to.has(OFF)) classes.push("last-to");
    attrs.class = classes.join(" ");
    const g = svg("g", attrs, root);
    const y0 = bottom ? MID + 8 : FY + 4;
    svg("rect", { class: "hit", x: TX + 2, y: y0, width: TRAYW - 4, height: half, rx: 4, fill: "transparent" }, g);
    if (bottom && targets.has(OFF)) svg("rect", { class: "glow", x: TX + 4, y: y0 + 2, width: TRAYW - 8, height: half - 4, rx: 5 }, g);
    const n = board.off[color];
    const slab = 15, gap = 3.2;
    for (let i = 0; i < n; i++) {
      const y = bottom ? FY + FH - 6 - (i + 1) * (slab + gap) + gap : FY + 6 + i * (slab + gap);
      const c = svg("g", { class: `checker slab ${color}`, "data-checker": "", "data-color": color }, g);
      svg("rect", { x: TX + 9, y, width: TRAYW - 18, height: slab, rx: 5, fill: `url(#g-${color})`, stroke: color === "white" ? "#9f8d6b" : "#000", "stroke-width": 1.2 }, c);
    }
    if (n > 0) {
      const ly = bottom ? FY + FH - 6 - n * (slab + gap) - 8 : FY + 6 + n * (slab + gap) + 20;
      const label = svg("text", { class: "count tray-count", x: TX + TRAYW / 2, y: ly, "text-anchor": "middle" }, g);
      label.textContent = String(n);
    }
  }
}

function drawLabels(root, you) {
  const g = svg("g", { class: "labels", "pointer-events": "none" }, root);
  for (let slot = 1; slot <= 24; slot++) {
    const { x, top } = column(slot);
    const label = svg("text", { x: x + PW / 2, y: top ? FR / 2 + 5 : H - FR / 2 + 5, "text-anchor": "middle", class: "label" }, g);
    label.textContent = String(slot);
  }
  void you;
}

function drawDice(root, you) {
  const g = svg("g", { class: "dice" }, root);
  const myHalf = RX + HALF / 2, theirHalf = LX + HALF / 2;
  if (state.dice && Array.isArray(state.dice) && state.dice.length) {
    const color = state.turn;
    const x = color === you ? myHalf : theirHalf;
    const { list, used } = color === state.you ? usedDice(state.dice, color) : { list: expand(state.dice), used: [] };
    drawDiceRow(g, list, x, MID, color, used);
    return;
  }
  const game = state.game || {};
  const moves = Array.isArray(game.moves) ? game.moves : [];
  const opening = Array.isArray(game.opening) ? game.opening : [];
  if (!moves.length && opening.length && !state.over) {       // the roll-off that decided who starts
    const [w, b] = opening[opening.length - 1];
    drawDie(g, you === "black" ? b : w, myHalf, MID, 50, you === "black" ? "black" : "white", false);
    drawDie(g, you === "black" ? w : b, theirHalf, MID, 50, you === "black" ? "white" : "black", false);
  }
  if (state.can_roll && isSeat(state.you) && !sending) {
    const b = svg("g", { class: "board-roll", role: "button", tabindex: 0 }, g);
    const bx = myHalf, by = MID, bw = 150, bh = 54;
    const offset = !moves.length && opening.length ? 62 : 0;
    svg("rect", { x: bx - bw / 2, y: by - bh / 2 + offset, width: bw, height: bh, rx: 27 }, b);
    const label = svg("text", { x: bx, y: by + 8 + offset, "text-anchor": "middle" }, b);
    label.textContent = t("roll");
  }
}

function expand(dice) {
  return dice.length === 2 && dice[0] === dice[1] ? [dice[0], dice[0], dice[0], dice[0]] : dice.slice();
}

// The opponent's last move (for a spectator: the last move), to mark on the board.
function lastOpponentMove() {
  const from = new Set(), to = new Set();
  if (!state || !state.game || !Array.isArray(state.game.moves) || made.length) return { from, to };
  const moves = state.game.moves;
  const m = moves[moves.length - 1];
  if (!m || (isSeat(state.you) && m.color === state.you) || !Array.isArray(m.steps)) return { from, to };
  for (const [a, b] of m.steps) { from.add(a); to.add(b); }
  for (const [, b] of m.steps) from.delete(b);
  return { from, to };
}

// ---- interaction -------------------------------------------------------------------------
function pointAt(clientX, clientY) {
  const el = document.elementFromPoint(clientX, clientY);
  const g = el && el.closest && el.closest("#board [data-point]");
  return g ? Number(g.getAttribute("data-point")) : null;
}

function isTarget(p) { return selected !== null && candidates().some((s) => s[0] === selected && s[1] === p); }
function isSource(p) { return candidates().some((s) => s[0] === p); }

function makeStep(to) {
  const step = candidates().find((s) => s[0] === selected && s[1] === to);
  if (!step) return false;
  made.push(step);
  selected = null;
  refreshBoard();
  return true;
}

function refreshBoard() {
  board = boardOf(state);
  for (const step of made) applyStep(board, state.turn, step, state.game && state.game.variant);
  render();
  renderControls();
  renderPlayers();
}

function svgPoint(evt) {
  const root = $("board");
  const m = root.getScreenCTM();
  if (!m) return { x: 0, y: 0 };
  const p = new DOMPoint(evt.clientX, evt.clientY).matrixTransform(m.inverse());
  return { x: p.x, y: p.y };
}

function onPointerDown(evt) {
  if (evt.button !== undefined && evt.button !== 0) return;
  if (evt.target.closest && evt.target.closest(".board-roll")) { evt.preventDefault(); roll(); return; }
  if (!canMove()) return;
  const p = pointAt(evt.clientX, evt.clientY);
  if (p === null) { if (selected !== null) { selected = null; render(); } return; }
  if (selected !== null && isTarget(p)) {
    evt.preventDefault();
    drag = { from: null, pendingTarget: p };
    return;
  }
  if (isSource(p)) {
    evt.preventDefault();
    const wasSelected = selected === p;
    selected = p;
    drag = { from: p, x0: evt.clientX, y0: evt.clientY, moved: false, wasSelected, ghost: null, pointerId: evt.pointerId };
    try { $("board").setPointerCapture(evt.pointerId); } catch { /* not every pointer can be captured */ }
    render();
    return;
  }
  if (selected !== null) { selected = null; render(); }
}

function onPointerMove(evt) {
  if (!drag || drag.from === null) return;
  const dx = evt.clientX - drag.x0, dy = evt.clientY - drag.y0;
  if (!drag.moved && Math.hypot(dx, dy) < 6) return;
  if (!drag.moved) {
    drag.moved = true;
    render();
    const root = $("board");
    drag.ghost = svg("g", { class: "dragging", "pointer-events": "none", filter: "url(#f-lift)" }, root);
    const c = drawChecker(drag.ghost, mover(), 0, 0);
    c.removeAttribute("data-checker");
  }
  const at = svgPoint(evt);
  drag.ghost.setAttribute("transform", `translate(${at.x} ${at.y}) scale(1.08)`);
  const over = pointAt(evt.clientX, evt.clientY);
  for (const g of document.querySelectorAll("#board .point.hover")) g.classList.remove("hover");
  if (over !== null && isTarget(over)) {
    const g = document.querySelector(`#board [data-point="${over}"]`);
    if (g) g.classList.add("hover");
  }
}

let lastTap = null;   // {point, time}: two quick taps on one checker move it by the higher die

function onPointerUp(evt) {
  const d = drag;
  drag = null;
  if (!d) return;
  const tap = lastTap;
  lastTap = null;
  if (d.pendingTarget !== undefined) {
    const p = pointAt(evt.clientX, evt.clientY);
    if (p === d.pendingTarget) makeStep(p);
    return;
  }
  if (d.ghost) d.ghost.remove();
  if (d.moved) {
    const p = pointAt(evt.clientX, evt.clientY);
    if (p !== null && p !== d.from && isTarget(p)) { makeStep(p); return; }
    render();
    return;
  }
  if (tap && tap.point === d.from && evt.timeStamp - tap.time < 450) { moveByHigherDie(d.from); return; }
  lastTap = { point: d.from, time: evt.timeStamp };
  if (d.wasSelected) selected = null;       // a click on the checker already picked up puts it down
  render();
}

function onPointerCancel() {
  if (drag && drag.ghost) drag.ghost.remove();
  drag = null;
  render();
}

// Double click (two quick taps): move the checker by the higher die it can use.
function moveByHigherDie(p) {
  if (!canMove()) return;
  const color = state.turn;
  const options = candidates().filter((s) => s[0] === p);
  if (!options.length) return;
  const die = (s) => {
    const distance = own(s[0], color) - own(s[1], color);
    if (s[1] !== OFF) return distance;
    const { list, used } = usedDice(state.dice || [], color);
    const left = list.filter((d, i) => !used[i] && d >= distance);
    return left.length ? Math.max(...left) : distance;
  };
  options.sort((a, b) => die(b) - die(a));
  selected = p;
  makeStep(options[0][1]);
}

function undo() {
  if (!made.length || sending) return;
  made.pop();
  selected = null;
  refreshBoard();
}

function confirmPlay() {
  const order = completeOrder();
  if (!order || !state.legal || !Array.isArray(state.legal.plays)) return;
  const play = state.legal.plays[order.play];
  if (typeof play !== "string") return;
  if (send({ type: "play", seq: state.seq, play })) {
    sending = true;
    selected = null;
    renderControls();
    render();
  }
}

function roll() {
  if (!state || !state.can_roll || sending || !isSeat(state.you)) return;
  if (send({ type: "roll", seq: state.seq })) {
    sending = true;
    renderControls();
    render();
  }
}

function claim() {
  if (!state || sending || !isSeat(state.you)) return;
  if (send({ type: "claim", seq: state.seq })) {
    sending = true;
    renderControls();
  }
}

// ---- connection --------------------------------------------------------------------------
function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    toast(t("reconnecting"));
    return false;
  }
  messageId += 1;
  try {
    socket.send(JSON.stringify({ ...message, id: messageId }));
    return true;
  } catch {
    return false;
  }
}

function connect() {
  clearTimeout(retryTimer);
  retryTimer = null;
  if (gaveUp) return;
  if (!token) {
    gaveUp = true;
    fatal = t("noToken");
    connection = "failed";
    renderStatus();
    return;
  }
  connection = attempt ? "reconnecting" : "connecting";
  renderStatus();
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  let ws;
  try {
    ws = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(matchId)}`);
  } catch {
    scheduleReconnect();
    return;
  }
  socket = ws;
  ws.addEventListener("open", () => {
    if (ws !== socket) return;
    lastMessageAt = Date.now();
    try { ws.send(JSON.stringify({ type: "hello", token, steps: true })); } catch { /* the close event follows */ }
  });
  ws.addEventListener("message", (event) => {
    if (ws !== socket) return;
    lastMessageAt = Date.now();
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    if (!msg || typeof msg !== "object") return;
    try {
      if (msg.type === "state") receive(msg);
      else if (msg.type === "error") serverError(msg);
    } catch (err) {
      console.error(err);             // a message the page cannot draw must not stop the page
    }
  });
  ws.addEventListener("close", () => {
    if (ws !== socket) return;
    socket = null;
    sending = false;
    if (!gaveUp) scheduleReconnect();
  });
  ws.addEventListener("error", () => { /* the close event follows and reconnects */ });
}

function scheduleReconnect() {
  attempt += 1;
  connection = "reconnecting";
  const delay = Math.min(10000, 400 * 2 ** Math.min(attempt - 1, 5)) * (0.75 + Math.random() * 0.5);
  retryAt = Date.now() + delay;
  clearTimeout(retryTimer);
  retryTimer = setTimeout(connect, delay);
  renderStatus();
  renderControls();
}

function reconnectNow() {
  if (gaveUp || (socket && socket.readyState <= WebSocket.OPEN)) return;
  attempt = Math.max(attempt, 1);
  connect();
}

// A connection that has gone silent is closed so that a fresh one is opened.
setInterval(() => {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  if (Date.now() - lastMessageAt > 45000) { try { socket.close(); } catch { /* already closing */ } return; }
  try { socket.send(JSON.stringify({ type: "ping" })); } catch { /* the close event follows */ }
}, 20000);

setInterval(() => {
  if (connection === "reconnecting") renderStatus();
  if (state && state.claim_at) { renderStatus(); renderControls(); }
}, 1000);

window.addEventListener("online", reconnectNow);
document.addEventListener("visibilitychange", () => { if (!document.hidden) reconnectNow(); });

function serverError(msg) {
  const code = String(msg.code || "");
  if (code === "bad-token") {
    gaveUp = true;
    fatal = t("badLink");
    connection = "failed";
    try { socket && socket.close(); } catch { /* closing anyway */ }
    renderStatus();
    renderControls();
    return;
  }
  sending = false;
  if (code === "stale" || code === "illegal") { made = []; selected = null; }
  toast(errorText(code, String(msg.message || "")));
  if (state) refreshBoard();
}

function receive(s) {
  if (!s.game || !Array.isArray(s.game.points)) return;
  const previous = state;
  const sameTurn = previous && previous.seq === s.seq && previous.match === s.match;
  state = s;
  window.tavliState = s;
  connection = "open";
  attempt = 0;
  fatal = "";
  sending = false;
  if (!sameTurn) {
    made = [];
    selected = null;
  } else if (made.length && !orders().some((o) => startsWith(o.steps, made))) {
    made = [];
    selected = null;
  }
  announcePasses(previous, s);
  refreshBoard();
  renderInfo();
  renderMoves();
  renderGames();
  renderOverlays(previous);
  renderStatus();
  scheduleAutoRoll();
}

function announcePasses(previous, s) {
  if (!previous || previous.seq === s.seq) return;
  const moves = s.game.moves || [];
  const before = previous.game && previous.game.index === s.game.index ? (previous.game.moves || []).length : 0;
  for (const m of moves.slice(before)) {
    if (m && m.play === "") toast(passText(m), "info");
  }
}

function passText(m) {
  if (isSeat(state.you) && m.color === state.you) return t("youPassed", { dice: diceText(m.dice) });
  return t("otherPassed", { who: colorName(m.color), dice: diceText(m.dice) });
}

function scheduleAutoRoll() {
  clearTimeout(autoRollTimer);
  if (!state || !state.can_roll || !isSeat(state.you) || !$("auto-roll").checked) return;
  if (autoRolledSeq === state.seq) return;
  const seq = state.seq;
  autoRollTimer = setTimeout(() => {
    if (state && state.seq === seq && state.can_roll && $("auto-roll").checked && !sending) {
      autoRolledSeq = seq;
      roll();
    }
  }, 450);
}

// ---- the panels around the board ------------------------------------------------------------
function playerName(color) {
  const info = (state.players && state.players[color]) || {};
  if (state.you === color) return t("you");
  if (info.kind === "bot") return t("bot", { level: levelName(info.level) });
  if (isSeat(state.you)) return t("yourFriend");
  return t("player");
}

function renderPlayers() {
  if (!state) return;
  const you = viewer();
  const rows = { top: other(you), bottom: you };
  for (const [where, color] of Object.entries(rows)) {
    const row = $(`player-${where}`);
    if (!row) continue;
    const info = (state.players && state.players[color]) || {};
    row.dataset.color = color;
    row.classList.toggle("on-turn", !state.over && state.turn === color);
    row.querySelector(".swatch").className = `swatch ${color}`;
    row.querySelector(".name").textContent = playerName(color);
    row.querySelector(".colour").textContent = colorName(color);
    const online = info.kind === "bot" || Boolean(info.connected);
    const conn = row.querySelector(".conn");
    conn.classList.toggle("online", online);
    conn.textContent = "";
    conn.append(html("span", { class: "conn-text" }, online ? t("connected") : t("away")));
    conn.title = online ? t("connected") : t("away");
    conn.dataset.testid = `conn-${color}`;
    const pips = row.querySelector(".pips");
    pips.setAttribute("data-testid", `pips-${color}`);
    pips.id = `pips-${color}`;
    const value = made.length ? pipsOf(board, color) : (state.game.pips ? state.game.pips[color] : pipsOf(board, color));
    pips.querySelector(".value").textContent = String(value);
    row.querySelector(".points").textContent = String((state.score && state.score[color]) ?? 0);
  }
}

function renderInfo() {
  if (!state) return;
  const g = state.game, settings = state.settings || {};
  $("game-name").textContent = t("gameOf", { n: (g.index | 0) + 1, variant: variantName(g.variant) });
  const score = $("score");
  score.textContent = "";
  const w = (state.score && state.score.white) ?? 0, b = (state.score && state.score.black) ?? 0;
  score.append(html("span", { class: "swatch white", "aria-hidden": "true" }), html("b", { class: "nums" }, `${w} – ${b}`),
    html("span", { class: "swatch black", "aria-hidden": "true" }),
    html("small", { class: "match-to" }, ` · ${t("matchTo", { n: settings.length ?? "?" })}`));
  $("watching").hidden = state.you !== "spectator";
  document.body.classList.toggle("spectator", state.you === "spectator");
  document.title = `${t("gameOf", { n: (g.index | 0) + 1, variant: variantName(g.variant) })} · ${t("appName")}`;
  // the sequence of games
  const seq = $("sequence");
  seq.textContent = "";
  const games = Array.isArray(settings.games) && settings.games.length ? settings.games : [g.variant];
  const index = g.index | 0;
  // the games so far and what comes next: a whole round of the order, or one game more
  const count = state.over ? index + 1 : games.length === 1 ? index + 1 : Math.max(games.length, index + 2);
  const first = Math.max(0, count - 8);
  for (let i = first; i < count; i++) {
    const name = games[i % games.length];
    const chip = html("li", { class: `chip${i === index ? " current" : ""}${i < index ? " done" : ""}` }, `${i + 1} · ${variantName(name)}`);
    seq.append(chip);
  }
  $("rules").textContent = rulesText(g.rules);
  $("commitment").textContent = g.commitment || "—";
  $("commitment").title = g.commitment || "";
  $("dice-link").href = `/api/matches/${encodeURIComponent(state.match || matchId)}/dice`;
  renderPlayers();
}

function rulesText(rules) {
  if (typeof rules !== "string") return "";
  const parts = rules.split(",").slice(1).map((opt) => {
    const [key, value] = opt.split("=");
    if (key === "mother_pin") return `${t("motherPin")}: ${t({ double: "motherDouble", single: "motherSingle", off: "motherOff" }[value] || value)}`;
    if (key === "prime_limits") return `${t("primeLimits")}: ${value === "off" ? "✗" : "✓"}`;
    if (key === "prime_in_opponent_start") return `${t("primeInStart")}: ${value === "off" ? "✗" : "✓"}`;
    return opt;
  });
  return parts.join(" · ");
}

function renderMoves() {
  if (!state) return;
  const list = $("moves");
  const game = state.game;
  list.textContent = "";
  const opening = Array.isArray(game.opening) ? game.opening : [];
  for (const roll of opening) {
    if (!Array.isArray(roll)) continue;
    const [w, b] = roll;
    list.append(html("li", { class: "opening" }, w === b ? t("openingTie", { w }) : t("opening", { w, b })));
  }
  const moves = Array.isArray(game.moves) ? game.moves : [];
  moves.forEach((m, i) => {
    if (!m) return;
    const li = html("li", { class: `move ${m.color}${m.play === "" ? " pass" : ""}` });
    li.append(html("span", { class: "n" }, `${i + 1}.`), html("span", { class: `swatch ${m.color}`, title: colorName(m.color) }),
      html("span", { class: "dice-text" }, diceText(m.dice)), html("span", { class: "play" }, m.play === "" ? t("noPlay") : String(m.play)));
    if (i === moves.length - 1 && (!isSeat(state.you) || m.color !== state.you)) li.classList.add("last");
    list.append(li);
  });
  $("moves-empty").hidden = moves.length > 0 || opening.length > 0;
  list.scrollTop = list.scrollHeight;
}

function renderGames() {
  if (!state) return;
  const list = $("games-list");
  list.textContent = "";
  const games = Array.isArray(state.games) ? state.games : [];
  for (const g of games) {
    if (!g || !g.result) continue;              // the finished games, with their seeds
    const li = html("li", {});
    li.append(html("span", { class: "g-name" }, `${(g.index | 0) + 1} · ${variantName(g.variant)}`));
    const r = g.result;
    li.append(html("span", { class: "g-result" }, r.winner ? `${colorName(r.winner)} +${r.points}` : t("tieGame")));
    if (g.seed) {
      const seed = html("code", { class: "seed", title: g.seed }, `${t("seed")}: ${g.seed.slice(0, 12)}…`);
      li.append(seed);
    }
    list.append(li);
  }
}

function statusText() {
  if (fatal) return fatal;
  if (connection === "connecting") return t("connecting");
  if (connection === "reconnecting") {
    const s = Math.ceil((retryAt - Date.now()) / 1000);
    return s > 1 ? t("reconnectingIn", { s }) : t("reconnecting");
  }
  if (!state) return t("connecting");
  if (state.over) return t("matchOverShort");
  const turn = state.turn, you = state.you;
  const info = (state.players && state.players[turn]) || {};
  if (isSeat(you) && turn === you) {
    if (sending) return t("sending");
    if (state.can_roll) return t("yourRoll");
    if (state.can_play) {
      if (completeOrder()) return t("confirmMove");
      return made.length ? t("yourMoveMore", { dice: diceText(state.dice) }) : t("yourMove", { dice: diceText(state.dice) });
    }
  }
  if (isSeat(you) && turn !== you) {
    if (waitingForFriend()) return t("waitingFriend");
    const claimNote = claimText();
    if (claimNote) return claimNote;
    if (info.kind === "human" && !info.connected) return t("opponentAway");
  }
  if (info.kind === "bot") return t("botThinking", { who: colorName(turn) });
  return state.dice ? t("waitingFor", { who: colorName(turn) }) : t("waitingRoll", { who: colorName(turn) });
}

// The friend has never come: the match has not moved since it was created.
function waitingForFriend() {
  if (!state || !isSeat(state.you) || state.over) return false;
  const opp = other(state.you);
  const info = (state.players && state.players[opp]) || {};
  return info.kind === "human" && !info.connected && !(state.game.index | 0) && !(state.game.moves || []).length;
}

function claimText() {
  if (!state || !isSeat(state.you) || state.turn === state.you || state.over) return "";
  if (state.can_claim || claimDue()) return t("claimNow");
  if (state.claim_at) return t("claimIn", { s: Math.max(0, Math.ceil(state.claim_at - Date.now() / 1000)) });
  return "";
}

function claimDue() { return Boolean(state && state.claim_at && Date.now() / 1000 >= state.claim_at); }

function renderStatus() {
  const el = $("status");
  el.textContent = statusText();
  el.classList.toggle("warn", connection !== "open");
  el.classList.toggle("your-turn", Boolean(state && connection === "open" && isSeat(state.you) && state.turn === state.you && !state.over));
  const note = $("note");
  const moves = state && state.game && Array.isArray(state.game.moves) ? state.game.moves : [];
  const last = moves[moves.length - 1];
  let text = "";
  if (last && last.play === "" && !state.over) text = passText(last);
  else if (waitingForFriend()) text = claimText();
  note.textContent = text;
  note.hidden = !text;
  $("invite-copy").hidden = !(waitingForFriend() && $("share-friend").value);
  document.body.dataset.connection = connection;
}

function renderControls() {
  const player = Boolean(state && isSeat(state.you) && !state.over && connection === "open");
  const myTurn = player && state.turn === state.you;
  $("roll").hidden = !(myTurn && state.can_roll);
  $("roll").disabled = sending;
  $("undo").hidden = !(myTurn && state.can_play && made.length > 0);
  $("undo").disabled = sending;
  $("confirm").hidden = !(myTurn && state.can_play && completeOrder());
  $("confirm").disabled = sending;
  $("claim").hidden = !(player && !myTurn && (state.can_claim || claimDue()));
  $("claim").disabled = sending;
  $("auto-roll-box").hidden = !(state && isSeat(state.you) && !state.over);
  // no step orders from the server: pick the play from the list instead
  const fallback = $("plays");
  const noOrders = myTurn && state.can_play && state.legal && !Array.isArray(state.legal.orders) && Array.isArray(state.legal.plays);
  fallback.hidden = !noOrders;
  if (noOrders && fallback.dataset.seq !== String(state.seq)) {
    fallback.dataset.seq = String(state.seq);
    fallback.textContent = "";
    state.legal.plays.forEach((p, i) => fallback.append(html("option", { value: i }, p)));
  }
  renderStatus();
}

function renderOverlays(previous) {
  if (!state) return;
  const games = Array.isArray(state.games) ? state.games : [];
  const finished = games.filter((g) => g && g.result);
  const key = `tavli:seen:${state.match || matchId}`;
  const seen = Number(storageGet(key) ?? -1);
  const latest = finished.length ? finished[finished.length - 1] : null;
  if (state.over) {
    if (latest) storageSet(key, String(latest.index));
    hideGameOver();
    if (!matchOverClosed) showMatchOver(latest);
    $("show-result").hidden = !matchOverClosed;
    return;
  }
  $("match-over").hidden = true;
  $("show-result").hidden = true;
  if (latest && latest.index > seen) {
    storageSet(key, String(latest.index));
    // someone who opens the match long after the game ended does not need the announcement
    const fresh = previous || (state.game.moves || []).length < 3;
    if (fresh) showGameOver(latest);
  }
  void previous;
}

function resultLine(result) {
  if (!result) return "";
  if (!result.winner) return t("tieGame");
  const points = result.points === 1 ? t("pointWon") : t("pointsWon", { n: result.points });
  let who;
  if (isSeat(state.you)) who = result.winner === state.you ? t("youWonGame") : t("youLostGame");
  else who = t("colorWonGame", { color: colorName(result.winner) });
  return `${who} · ${points}`;
}

function scoreText() {
  const w = (state.score && state.score.white) ?? 0, b = (state.score && state.score.black) ?? 0;
  return `${colorName("white")} ${w} – ${b} ${colorName("black")}`;
}

function fillSeed(container, game) {
  container.textContent = "";
  if (!game || !game.seed) return;
  container.append(html("span", { class: "label" }, `${t("seed")}: `), html("code", { class: "seed", title: game.seed }, game.seed));
  const a = html("a", { href: `/api/matches/${encodeURIComponent(state.match || matchId)}/dice`, target: "_blank", rel: "noopener", "data-testid": "check-dice" }, t("checkDice"));
  container.append(document.createTextNode(" "), a);
}

function showGameOver(game) {
  const box = $("game-over");
  box.querySelector(".title").textContent = `${t("gameOverTitle", { n: (game.index | 0) + 1 })} · ${variantName(game.variant)}`;
  box.querySelector(".headline").textContent = resultLine(game.result);
  box.querySelector(".headline").className = `headline ${game.result && isSeat(state.you) && game.result.winner === state.you ? "won" : ""}`;
  box.querySelector(".reason").textContent = reasonText(game.result && game.result.reason);
  box.querySelector(".score-now").textContent = t("scoreNow", { score: scoreText() });
  box.querySelector(".next").textContent = t("nextGame", { n: (state.game.index | 0) + 1, variant: variantName(state.game.variant) });
  fillSeed(box.querySelector(".seed-line"), game);
  box.hidden = false;
  const bar = box.querySelector(".countdown");
  bar.classList.remove("run");
  void bar.offsetWidth;            // restart the animation
  bar.classList.add("run");
  clearTimeout(gameOverTimer);
  gameOverTimer = setTimeout(hideGameOver, 12000);
}

function hideGameOver() {
  clearTimeout(gameOverTimer);
  $("game-over").hidden = true;
}

function showMatchOver(game) {
  const box = $("match-over");
  const winner = state.winner;
  let title;
  if (isSeat(state.you)) title = winner === state.you ? t("youWonMatch") : t("youLostMatch");
  else title = t("colorWonMatch", { color: colorName(winner) });
  box.querySelector(".headline").textContent = title;
  box.querySelector(".headline").className = `headline ${isSeat(state.you) && winner === state.you ? "won" : ""}`;
  const w = (state.score && state.score.white) ?? 0, b = (state.score && state.score.black) ?? 0;
  const final = box.querySelector(".final");
  final.textContent = "";
  final.append(html("span", { class: "swatch white" }), html("b", {}, String(w)), document.createTextNode(" – "),
    html("b", {}, String(b)), html("span", { class: "swatch black" }));
  const last = box.querySelector(".last-game");
  last.textContent = game ? `${t("gameOverTitle", { n: (game.index | 0) + 1 })} · ${variantName(game.variant)}: ${resultLine(game.result)} (${reasonText(game.result && game.result.reason)})` : "";
  fillSeed(box.querySelector(".seed-line"), game);
  box.hidden = false;
}

let toastQueue = [];
function toast(text, kind = "error") {
  const el = $("toast");
  if (!text) return;
  if (!el.hidden && toastQueue.length < 3 && el.textContent !== text) { toastQueue.push([text, kind]); return; }
  el.textContent = text;
  el.className = `toast ${kind}`;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    el.hidden = true;
    const nextToast = toastQueue.shift();
    if (nextToast) setTimeout(() => toast(...nextToast), 150);
  }, kind === "info" ? 4500 : 3500);
}

// ---- the invitation panel ------------------------------------------------------------------
function renderShare() {
  let links = null;
  try { links = JSON.parse(storageGet(`tavli:match:${matchId}`) || "null"); } catch { links = null; }
  const panel = $("share");
  if (!links || typeof links !== "object" || (!links.friend && !links.watch)) { panel.hidden = true; return; }
  const full = (path) => (path ? new URL(path, location.origin).href : "");
  panel.hidden = false;
  $("share-friend").value = full(links.friend);
  $("share-friend-row").hidden = !links.friend;
  $("share-watch").value = full(links.watch);
  $("share-play").value = full(links.play || `${location.pathname}${location.hash}`);
  if (!links.friend) panel.querySelector(".hint").hidden = true;
}

async function copyFrom(input, button, label = "copy") {
  const text = input.value;
  let ok = false;
  try {
    if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(text); ok = true; }
  } catch { ok = false; }
  if (!ok) {
    input.focus();
    input.select();
    try { ok = document.execCommand("copy"); } catch { ok = false; }
  }
  if (ok) {
    button.textContent = t("copied");
    button.classList.add("done");
    setTimeout(() => { button.textContent = t(label); button.classList.remove("done"); }, 1600);
  }
}

// ---- start -----------------------------------------------------------------------------------
function init() {
  languageSelect($("lang"));
  translatePage();
  onLangChange(() => {
    render();
    if (state) { renderInfo(); renderMoves(); renderGames(); renderControls(); }
    renderStatus();
    if (state && !$("game-over").hidden) { const g = state.games.filter((x) => x.result).pop(); if (g) showGameOver(g); }
    if (state && state.over && !$("match-over").hidden) showMatchOver(state.games.filter((x) => x.result).pop());
  });
  const auto = $("auto-roll");
  auto.checked = storageGet("tavli:autoroll") === "1";
  auto.addEventListener("change", () => { storageSet("tavli:autoroll", auto.checked ? "1" : "0"); scheduleAutoRoll(); });
  $("roll").addEventListener("click", roll);
  $("undo").addEventListener("click", undo);
  $("confirm").addEventListener("click", confirmPlay);
  $("claim").addEventListener("click", claim);
  $("plays").addEventListener("change", () => {
    const i = Number($("plays").value);
    const play = state && state.legal && state.legal.plays[i];
    if (typeof play === "string" && send({ type: "play", seq: state.seq, play })) { sending = true; renderControls(); }
  });
  $("game-over-close").addEventListener("click", hideGameOver);
  $("match-over-close").addEventListener("click", () => { matchOverClosed = true; $("match-over").hidden = true; $("show-result").hidden = false; });
  $("show-result").addEventListener("click", () => { matchOverClosed = false; renderOverlays(state); });
  $("invite-copy").addEventListener("click", () => copyFrom($("share-friend"), $("invite-copy"), "copyInvite"));
  for (const button of document.querySelectorAll("[data-copy]")) {
    button.addEventListener("click", () => copyFrom($(button.dataset.copy), button));
  }
  const root = $("board");
  root.addEventListener("pointerdown", onPointerDown);
  root.addEventListener("pointermove", onPointerMove);
  root.addEventListener("pointerup", onPointerUp);
  root.addEventListener("pointercancel", onPointerCancel);
  root.addEventListener("keydown", (e) => { if ((e.key === "Enter" || e.key === " ") && e.target.closest(".board-roll")) roll(); });
  document.addEventListener("keydown", (e) => {
    if (e.target && /^(INPUT|SELECT|TEXTAREA|BUTTON|A|SUMMARY)$/.test(e.target.tagName)) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Escape") { if (!$("game-over").hidden) hideGameOver(); else if (selected !== null) { selected = null; render(); } }
    else if ((e.key === "r" || e.key === "R") && state && state.can_roll) roll();
    else if ((e.key === "Backspace" || e.key === "u" || e.key === "U") && made.length) { e.preventDefault(); undo(); }
    else if (e.key === "Enter" && completeOrder() && !$("confirm").hidden) { e.preventDefault(); confirmPlay(); }
  });
  renderShare();
  render();
  renderControls();
  connect();
}

init();
