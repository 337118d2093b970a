// The board page (board.html): draws the match the server sends, and lets the player on turn roll, move and confirm.
//
// The server is authoritative (docs/web.md): the page only proposes. A move is built here step by
// step from the server's list of legal step orders, can be taken back, and is sent whole on Confirm.
import { checkGame, rematchToken } from "/static/fairdice.js";
import { language, languageSwitch, t, translatePage } from "/static/strings.js";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

// Board geometry, in two coordinates: `a` along the board (the 12 columns of points, the bar and the
// tray) and `c` across it (the two rows of points facing each other). On a wide screen `a` runs left
// to right (viewBox 1000 x 760); on a phone held upright the board turns a quarter so that each point
// is a row at least 40 px tall (viewBox 620 x 1000, `a` top to bottom).
const LANDSCAPE = {
  A: 1000, C: 760, frameA: 22, pointW: 66, barA: 418, barW: 56, rightA: 474, trayA: 884, trayW: 94,
  frameC: 26, pointH: 292, R: 31, barR: 28, die: 62, label: 16, off: 16,
};
const PORTRAIT = {
  A: 1000, C: 620, frameA: 10, pointW: 73, barA: 448, barW: 40, rightA: 488, trayA: 926, trayW: 64,
  frameC: 28, pointH: 236, R: 35, barR: 22, die: 56, label: 19, off: 14,
};
let G = LANDSCAPE;
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

const matchId = decodeURIComponent(location.pathname.split("/").pop());
$("download-record").href = `/api/matches/${encodeURIComponent(matchId)}/record`;
$("download-record").download = `tavli-${matchId}.json`;
const token = new URLSearchParams(location.hash.slice(1)).get("t") || "";

let state = null;          // the last state from the server
let previous = null;       // the state before it
let made = [];             // steps made on the board this turn, not yet confirmed: [from, to, hit]
let selected = null;       // the point whose checker is picked up
let dragFrom = null;
let socket = null;
let retry = 0;
let gaveUp = false;
let finishedSeen = null;   // finished games already announced
let reviewing = null;      // a game just finished whose final position stays on the board
let autoRollSent = -1;
let animateSteps = [];     // steps to animate at the next drawing: [from, to, color]
let rolled = false;        // the dice are new at the next drawing
let matchOverClosed = false;
let connectedOnce = false;

// -- connection ---------------------------------------------------------------------------------
function connect() {
  if (gaveUp) return;
  setStatus(retry ? t("reconnecting") : t("connecting"));
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(matchId)}`);
  socket.addEventListener("open", () => {
    retry = 0;
    send({ type: "hello", token, steps: true });
  });
  socket.addEventListener("message", (event) => {
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    if (msg.type === "state") receive(msg);
    else if (msg.type === "error") serverError(msg);
  });
  socket.addEventListener("close", () => {
    if (gaveUp) return;
    retry += 1;
    setStatus(retry > 6 && !connectedOnce ? t("unreachable") : t("reconnecting"));
    setTimeout(connect, Math.min(5000, 250 * 2 ** Math.min(retry, 5)));
  });
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

/** A link that cannot open this match: say so in words, with the way back to the start page. */
function badLink(why) {
  gaveUp = true;
  if (socket) socket.close();
  $("bad-link-text").textContent = t(why);
  $("bad-link").hidden = false;
  setStatus(t(why));
}

function serverError(msg) {
  if (msg.code === "bad-token" || (!state && msg.code === "bad-message")) { badLink("badLink"); return; }
  if (msg.code === "stale") return;
  // in English the server's own line (it says why); in Greek the code's words
  const words = t(`error-${msg.code}`);
  toast(language() === "en" || words === `error-${msg.code}` ? msg.message : words);
}

function receive(next) {
  connectedOnce = true;
  const sameTurn = state && next.seq === state.seq;
  previous = state;
  state = next;
  window.tavliState = next;
  if (!sameTurn) { made = []; selected = null; }
  if (previous && next.seq > previous.seq) noticeChanges(previous, next);
  announceGames();
  if (state.rematch && token && state.you !== "spectator") {
    location.assign(`/match/${encodeURIComponent(state.rematch)}#t=${rematchToken(token, state.rematch)}`);
    return;
  }
  render();
  if (state.can_roll && $("auto-roll").checked && autoRollSent !== state.seq && reviewing === null) {
    autoRollSent = state.seq;
    setTimeout(() => { if (state.can_roll && state.seq === autoRollSent) roll(); }, 350);
  }
}

/** What changed since the last state: moves to animate, new dice, an offer answered. */
function noticeChanges(before, after) {
  const sameGame = before.game.index === after.game.index;
  const seen = sameGame ? before.game.moves.length : 0;
  const fresh = after.game.moves.slice(seen);
  for (const m of fresh) {
    if (m.color === before.you && sameGame && before.legal) continue;  // made here, already drawn step by step
    for (const [from, to] of m.steps) animateSteps.push([from, to, m.color]);
  }
  if (after.dice && (!before.dice || !sameGame || before.seq !== after.seq) && JSON.stringify(before.dice) !== JSON.stringify(after.dice)) rolled = true;
  if (after.dice && !before.dice) rolled = true;
  if (rolled) sound("dice");
  else if (fresh.length) sound("move");
  if (before.offer && !after.offer && before.offer.from === before.you && after.game.index === before.game.index
      && !after.over) toast(t("offerDeclined"));
}

// -- moves built on the board -------------------------------------------------------------------
function sameStep(a, b) { return a[0] === b[0] && a[1] === b[1]; }

function candidates() {
  const orders = state?.legal?.orders || [];
  return orders.filter((o) => o.steps.length >= made.length && made.every((s, i) => sameStep(s, o.steps[i])));
}

function nextSteps() {
  return candidates().filter((o) => o.steps.length > made.length).map((o) => o.steps[made.length]);
}

function completePlay() {
  const done = candidates().find((o) => o.steps.length === made.length);
  return done ? state.legal.plays[done.play] : null;
}

function sources() { return new Set(nextSteps().map((s) => s[0])); }

function targetsFrom(point) {
  return new Set(nextSteps().filter((s) => s[0] === point).map((s) => s[1]));
}

function makeStep(from, to) {
  const step = nextSteps().find((s) => s[0] === from && s[1] === to);
  if (!step) return;
  made.push(step);
  selected = null;
  const left = [...sources()];
  if (left.length === 1) selected = left[0];
  animateSteps.push([from, to, state.turn]);
  sound("move");
  render();
}

function undo() {
  made.pop();
  selected = null;
  render();
}

function confirmMove() {
  const play = completePlay();
  if (play !== null) send({ type: "play", seq: state.seq, play });
}

function roll() { send({ type: "roll", seq: state.seq }); }

function claim() { send({ type: "claim", seq: state.seq }); }

/** The board after the steps made so far: counts per point in White's numbering, bar, off, pins. */
function boardModel(g) {
  const points = g.points.map((p) => ({ ...p }));
  const bar = { ...g.bar }, off = { ...g.off };
  if (g !== state.game) return { points, bar, off };
  const me = state.turn, them = me === "white" ? "black" : "white";
  for (const [from, to, hit] of made) {
    if (from === 25) bar[me] -= 1;
    else {
      const p = points[from - 1];
      p[me] -= 1;
      if (p[me] === 0 && p.pinned === them) p.pinned = null;
    }
    if (to === 0) { off[me] += 1; continue; }
    const q = points[to - 1];
    if (hit && state.game.variant === "plakoto") q.pinned = them;
    else if (hit) { q[them] -= 1; bar[them] += 1; }
    q[me] += 1;
  }
  return { points, bar, off };
}

// -- drawing ------------------------------------------------------------------------------------
function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.append(node);
  return node;
}

/** Screen coordinates of the board point (a, c). */
function xy(a, c) { return G === PORTRAIT ? [G.C - c, a] : [a, c]; }

/** An SVG rect spanning a0..a1 along and c0..c1 across. */
function rectAC(a0, c0, a1, c1, attrs, parent) {
  const [x0, y0] = xy(a0, c0), [x1, y1] = xy(a1, c1);
  return el("rect", { x: Math.min(x0, x1), y: Math.min(y0, y1), width: Math.abs(x1 - x0), height: Math.abs(y1 - y0), ...attrs }, parent);
}

function viewer() { return state.you === "black" ? "black" : "white"; }
function other(color) { return color === "white" ? "black" : "white"; }

/** Where White's point p stands: its column centre along the board and whether it is in the far row. */
function place(p) {
  const q = viewer() === "black" ? 25 - p : p;
  const far = q >= 13;
  const idx = far ? q - 13 : 12 - q;
  const half = idx < 6 ? 0 : 1;
  const a = (half ? G.rightA : G.frameA) + (idx % 6) * G.pointW + G.pointW / 2;
  return { a, far, column: idx };
}

/** The centre of the k-th checker (from the base) of a stack of `shown` on a point. */
function slot(p, k, shown) {
  const { a, far } = place(p);
  const half = G.C / 2 - G.frameC;
  const spacing = Math.min(2 * G.R, (half - 2 * G.R - 4) / Math.max(1, shown - 1));
  const c = far ? G.frameC + G.R + k * spacing : G.C - G.frameC - G.R - k * spacing;
  return xy(a, c);
}

function label(p) { return viewer() === "black" ? state.game.black_numbers[p - 1] : p; }

function drawChecker(parent, [x, y], color, r = G.R, extra = {}) {
  const g = el("g", { class: `checker ${color}`, "data-checker": "", "data-color": color, ...extra }, parent);
  el("circle", { cx: x, cy: y, r: r - 1, fill: `url(#shade-${color})` }, g);
  el("circle", { cx: x, cy: y, r: r * 0.62, class: "ring" }, g);
  return g;
}

function drawDefs(svg) {
  const defs = el("defs", {}, svg);
  for (const [color, hi, lo] of [["white", "#ffffff", "#d8cfbf"], ["black", "#5a5450", "#141210"]]) {
    const grad = el("radialGradient", { id: `shade-${color}`, cx: "38%", cy: "32%", r: "75%" }, defs);
    el("stop", { offset: "0%", "stop-color": hi }, grad);
    el("stop", { offset: "100%", "stop-color": lo }, grad);
  }
  const die = el("linearGradient", { id: "die-face", x1: "0", y1: "0", x2: "1", y2: "1" }, defs);
  el("stop", { offset: "0%", "stop-color": "#ffffff" }, die);
  el("stop", { offset: "100%", "stop-color": "#e4dccd" }, die);
}

function render() {
  if (!state) return;
  const portrait = window.innerWidth < 700 && window.innerHeight > window.innerWidth * 1.1;
  G = portrait ? PORTRAIT : LANDSCAPE;
  document.body.classList.toggle("portrait", portrait);
  const svg = $("board");
  svg.setAttribute("viewBox", portrait ? `0 0 ${G.C} ${G.A}` : `0 0 ${G.A} ${G.C}`);
  svg.innerHTML = "";
  drawDefs(svg);
  const shown = reviewing !== null ? state.games[reviewing] : null;
  const game = shown && shown.final ? shown.final : state.game;
  const live = game === state.game;
  const model = boardModel(game);
  const targets = selected === null || !live ? new Set() : targetsFrom(selected);
  const from = state.can_play && live ? sources() : new Set();
  const last = live ? lastMove() : null;
  const lastPoints = new Set((last?.steps || []).flatMap(([a, b]) => [a, b]));
  const tops = {};

  el("rect", { x: 0, y: 0, width: portrait ? G.C : G.A, height: portrait ? G.A : G.C, rx: 18, class: "frame" }, svg);
  rectAC(G.frameA, G.frameC, G.barA, G.C - G.frameC, { class: "felt" }, svg);
  rectAC(G.rightA, G.frameC, G.rightA + 6 * G.pointW, G.C - G.frameC, { class: "felt" }, svg);
  rectAC(G.barA, G.frameC, G.barA + G.barW, G.C - G.frameC, { class: "bar" }, svg);
  rectAC(G.trayA, G.frameC, G.trayA + G.trayW, G.C - G.frameC, { class: "tray" }, svg);

  for (let p = 1; p <= 24; p++) {
    const { a, far, column } = place(p);
    const group = el("g", { "data-point": p, class: "point" }, svg);
    const base = far ? G.frameC : G.C - G.frameC;
    const tip = far ? G.frameC + G.pointH : G.C - G.frameC - G.pointH;
    const corners = [xy(a - G.pointW / 2 + 2, base), xy(a + G.pointW / 2 - 2, base), xy(a, tip)];
    el("polygon", {
      points: corners.map(([x, y]) => `${x},${y}`).join(" "),
      class: `triangle ${column % 2 ? "dark" : "light"}${lastPoints.has(p) ? " last" : ""}`,
    }, group);
    const mid = G.C / 2;
    rectAC(a - G.pointW / 2, far ? G.frameC : mid, a + G.pointW / 2, far ? mid : G.C - G.frameC, { class: "hit" }, group);
    const [lx, ly] = xy(a, far ? G.frameC / 2 : G.C - G.frameC / 2);
    const num = el("text", { x: lx, y: ly, class: "label", "font-size": G.label, "dominant-baseline": "central" }, group);
    num.textContent = String(label(p));
    const spot = model.points[p - 1];
    const layers = [];
    if (spot.pinned) {
      const pinner = other(spot.pinned);
      layers.push([spot.pinned, spot[spot.pinned]], [pinner, spot[pinner]]);
    } else {
      for (const color of ["white", "black"]) if (spot[color]) layers.push([color, spot[color]]);
    }
    const total = layers.reduce((n, [, c]) => n + c, 0);
    const count = Math.min(total, 5);
    let k = 0;
    for (const [color, n] of layers.filter(([, c]) => c > 0)) {
      for (let i = 0; i < n; i++, k++) {
        if (k >= 5) continue;
        const node = drawChecker(group, slot(p, k, count), color, G.R, k === 0 && layers.length > 1 ? { "data-pinned": "" } : {});
        tops[p] = node;
      }
    }
    if (total > 5) {
      const [tx, ty] = slot(p, 4, count);
      const text = el("text", { x: tx, y: ty, class: "count", "dominant-baseline": "central" }, group);
      text.textContent = String(total);
    }
    if (targets.has(p)) group.classList.add("target");
    if (from.has(p)) group.classList.add("source");
    if (selected === p) group.classList.add("selected");
  }

  // the bar: the viewer's own checkers in the near half, the opponent's in the far half
  const barGroup = el("g", { "data-point": 25, class: "point barpoint" }, svg);
  rectAC(G.barA, G.frameC, G.barA + G.barW, G.C - G.frameC, { class: "hit" }, barGroup);
  const mine = viewer(), theirs = other(mine);
  for (const [color, far] of [[theirs, true], [mine, false]]) {
    const n = model.bar[color];
    for (let i = 0; i < Math.min(n, 4); i++) {
      const c = far ? G.C / 2 - 50 - i * 2 * G.barR : G.C / 2 + 50 + i * 2 * G.barR;
      const node = drawChecker(barGroup, xy(G.barA + G.barW / 2, c), color, G.barR);
      if (color === mine || color === state.turn) tops[`bar-${color}`] = node;
    }
    if (n > 4) {
      const [tx, ty] = xy(G.barA + G.barW / 2, far ? G.C / 2 - 50 - 3 * 2 * G.barR : G.C / 2 + 50 + 3 * 2 * G.barR);
      el("text", { x: tx, y: ty, class: "count", "dominant-baseline": "central" }, barGroup).textContent = String(n);
    }
  }
  if (from.has(25)) barGroup.classList.add("source");
  if (selected === 25) barGroup.classList.add("selected");

  // the trays: the viewer's borne-off checkers in the near half, the opponent's in the far half
  const tray = el("g", { "data-point": 0, class: "point traypoint" }, svg);
  rectAC(G.trayA, G.frameC, G.trayA + G.trayW, G.C - G.frameC, { class: "hit" }, tray);
  for (const [color, far] of [[theirs, true], [mine, false]]) {
    for (let i = 0; i < model.off[color]; i++) {
      const c = far ? G.frameC + 4 + i * (G.off + 3) : G.C - G.frameC - 4 - G.off - i * (G.off + 3);
      const node = rectAC(G.trayA + 8, c, G.trayA + G.trayW - 8, c + G.off,
        { rx: 4, class: `offchecker ${color}`, "data-off": color, fill: `url(#shade-${color})` }, tray);
      tops[`off-${color}`] = node;
    }
  }
  if (targets.has(0)) tray.classList.add("target");

  if (live) drawDice(svg);
  animate(tops);
  renderPanel();
}

/** The dice of the side to move, high first; doubles as four dice, those used greyed. */
function drawDice(svg) {
  if (!state.dice) return;
  const [d1, d2] = state.dice;
  const values = d1 === d2 ? [d1, d1, d1, d1] : [Math.max(d1, d2), Math.min(d1, d2)];
  const used = new Array(values.length).fill(false);
  if (state.can_play) {
    for (const [from, to] of made) {  // mark the die each step used (a bear-off may use a larger die)
      // steps are in White's numbering, where the two sides run opposite ways
      const exact = from === 25 ? [25 - to, to] : to === 0 ? [from, 25 - from] : [Math.abs(from - to)];
      let i = values.findIndex((v, k) => !used[k] && exact.includes(v));
      if (i < 0) i = values.findIndex((v, k) => !used[k] && v >= Math.min(...exact));
      if (i < 0) i = used.indexOf(false);
      if (i >= 0) used[i] = true;
    }
  }
  const D = G.die, gap = 12;
  const mineToMove = state.turn === viewer();
  const start = mineToMove ? G.rightA : G.frameA;
  const span = values.length * D + (values.length - 1) * gap;
  const a0 = start + (6 * G.pointW - span) / 2;
  values.forEach((value, i) => {
    const [x, y] = xy(a0 + i * (D + gap) + D / 2, G.C / 2);
    const g = el("g", { class: `die ${state.turn}${used[i] ? " used" : ""}${rolled ? " rolling" : ""}`, "data-die": value }, svg);
    el("rect", { x: x - D / 2, y: y - D / 2, width: D, height: D, rx: D / 6, ...(state.turn === "white" ? { fill: "url(#die-face)" } : {}) }, g);
    const s = D / 60;
    const pips = { 1: [[30, 30]], 2: [[16, 16], [44, 44]], 3: [[16, 16], [30, 30], [44, 44]],
      4: [[16, 16], [44, 16], [16, 44], [44, 44]], 5: [[16, 16], [44, 16], [30, 30], [16, 44], [44, 44]],
      6: [[16, 14], [44, 14], [16, 30], [44, 30], [16, 46], [44, 46]] }[value];
    for (const [px, py] of pips) el("circle", { cx: x - D / 2 + px * s, cy: y - D / 2 + py * s, r: 5.6 * s, class: "pip" }, g);
  });
  rolled = false;
}

/** Slide the checkers just moved from where they were (short; none with reduced motion). */
function animate(tops) {
  const steps = animateSteps;
  animateSteps = [];
  if (reducedMotion.matches || !steps.length) return;
  steps.forEach(([from, to, color], i) => {
    const node = to === 0 ? tops[`off-${color}`] : tops[to];
    if (!node || from === undefined) return;
    const [fx, fy] = from === 25 ? xy(G.barA + G.barW / 2, G.C / 2) : slot(from, 0, 1);
    const box = node.getBBox();
    const dx = fx - (box.x + box.width / 2), dy = fy - (box.y + box.height / 2);
    node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
      { duration: 220, delay: i * 180, easing: "ease-out", fill: "backwards" });
  });
}

/** The last move of the game shown (the opponent's, or the last one for a spectator). */
function lastMove() {
  const moves = state.game.moves;
  for (let i = moves.length - 1; i >= 0; i--) {
    if (moves[i].color !== state.you || state.you === "spectator") return moves[i];
  }
  return null;
}

function colorName(color) { return t(color); }

/** "Black played 6-3: 13/7 13/10 · " when the opponent moved last, to lead the status line. */
function theirLast() {
  const m = state.game.moves[state.game.moves.length - 1];
  if (!m || m.color === state.you) return "";
  return `${t("played", { who: colorName(m.color), dice: `${Math.max(...m.dice)}-${Math.min(...m.dice)}`, play: moveText(m) })} · `;
}

/** A move in the numbering drawn on the board (the viewer's): 24/18 13/11*, bar/22, 6/off. */
function moveText(m) {
  if (!m.steps.length) return t("noPlay");
  const name = (p) => (p === 25 ? t("barName") : p === 0 ? t("offName") : String(label(p)));
  return m.steps.map(([a, b, hit]) => `${name(a)}/${name(b)}${hit ? "*" : ""}`).join(" ");
}

function openingText(g, index) {
  if (!g.opening.length) {
    const starter = g.moves.length ? g.moves[0].color : state.turn;
    return t("openingWinner", { who: colorName(starter) });
  }
  const ties = g.opening.filter(([w, b]) => w === b).map(([w]) => w);
  const [w, b] = g.opening[g.opening.length - 1];
  const decided = t("openingRoll", { w, b, who: colorName(w > b ? "white" : "black") });
  return ties.length ? `${t("openingTies", { list: ties.join(", ") })} · ${decided}` : decided;
}

function resultText(g) {
  const r = g.result;
  if (!r) return "";
  const variant = t(g.variant[0].toUpperCase() + g.variant.slice(1));
  if (!r.winner) return t("gameTied", { n: g.index + 1, variant, why: t(`why-${r.why}`) });
  return t("gameWon", { who: colorName(r.winner), n: g.index + 1, variant, points: r.points,
    pts: r.points === 1 ? t("point") : t("pointsWord"), why: t(`why-${r.why}`) });
}

function renderPanel() {
  const s = state;
  const variant = s.game.variant[0].toUpperCase() + s.game.variant.slice(1);
  const number = document.createElement("span");
  number.className = "game-number";
  number.textContent = `${t("gameNumber", { n: s.game.index + 1 })} · `;
  $("game-name").replaceChildren(number, t(variant));  // the number gives way on a narrow screen
  $("score").innerHTML = "";
  $("score").append(dot("white"), ` ${t("score", { w: s.score.white, b: s.score.black, n: s.settings.length })} `, dot("black"));
  $("watching").hidden = s.you !== "spectator";
  for (const color of ["white", "black"]) {
    const p = s.players[color];
    const who = p.kind === "bot" ? t("bot", { level: t(`level-${p.level}`) }) : (s.you === color ? t("you") : t("human"));
    const row = $(`player-${color}`);
    row.querySelector(".name").textContent = `${colorName(color)} · ${who} · ${p.connected ? t("connected") : t("away")}`;
    row.classList.toggle("on-turn", s.turn === color && !s.over);
    $(`pips-${color}`).textContent = `${s.game.pips[color]} ${t("pips")}`;
  }
  $("opening").textContent = openingText(s.game, s.game.index);
  const list = $("moves");
  list.innerHTML = "";
  for (const m of s.game.moves) {
    const li = document.createElement("li");
    li.className = m.color;
    li.textContent = `${colorName(m.color)} ${Math.max(...m.dice)}-${Math.min(...m.dice)}: ${moveText(m)}`;
    list.append(li);
  }
  list.scrollTop = list.scrollHeight;
  $("commitment").textContent = s.game.commitment || "";

  const mine = s.you === s.turn && !s.over;
  const complete = completePlay();
  const myOffer = s.offer && s.offer.from === s.you;
  const frozen = reviewing !== null;
  $("roll").hidden = !s.can_roll || myOffer || frozen;
  $("undo").hidden = !(s.can_play && made.length > 0) || frozen;
  $("confirm").hidden = !(s.can_play && complete !== null) || myOffer || frozen;
  $("resign").hidden = s.you === "spectator" || s.over || frozen;
  $("resign").disabled = !!s.offer;
  for (const points of ["1", "2"]) document.querySelector(`[data-resign="${points}"]`).disabled = !s.can_resign;
  $("auto-roll-label").hidden = s.you === "spectator";
  renderClaim();

  // an offer of the opponent's, to answer
  const theirOffer = s.offer && s.offer.from !== s.you && s.you !== "spectator" && s.offer.kind === "resign";
  $("offer").hidden = !theirOffer;
  if (theirOffer) $("offer-text").textContent = t("offerResign", {
    who: colorName(s.offer.from), points: s.offer.points, pts: s.offer.points === 1 ? t("point") : t("pointsWord") });

  let status;
  if (s.over) status = s.you === "spectator" ? t("matchOver", { who: colorName(s.winner), w: s.score.white, b: s.score.black }) : (s.winner === s.you ? t("youWin") : t("youLose"));
  else if (frozen) status = resultText(s.games[reviewing]);
  else if (myOffer) status = t("offerWaiting");
  else if (theirOffer) status = t("offerToAnswer");
  else if (mine && s.can_roll) status = theirLast() + t("yourRoll");
  else if (mine && s.can_play) status = complete !== null ? t("confirmMove") : theirLast() + t("yourMove", { dice: `${Math.max(...s.dice)}-${Math.min(...s.dice)}` });
  else {
    const lastOne = s.game.moves[s.game.moves.length - 1];
    const who = s.players[s.turn];
    status = lastOne && lastOne.color === s.you && !lastOne.play ? `${t("passed", { dice: lastOne.dice.join("-") })} · ` : "";
    status += who.kind === "bot" ? t("thinking", { who: colorName(s.turn) }) : t("waiting", { who: colorName(s.turn) });
  }
  setStatus(status);

  // the roll-off, in one line on the board while the game has no move yet
  const banner = $("banner");
  banner.hidden = frozen || s.over || s.game.moves.length > 0 || !!s.dice && s.can_play;
  if (!banner.hidden) banner.textContent = openingText(s.game, s.game.index);

  const links = JSON.parse(localStorage.getItem(`tavli:links:${matchId}`) || "null");
  $("share").hidden = !links || s.you === "spectator";
  if (links) {
    $("share-friend-row").hidden = !links.friend;
    $("share-friend").value = links.friend ? location.origin + links.friend : "";
    $("share-watch").value = location.origin + links.watch;
  }
  renderMatchOver();
}

function dot(color) {
  const span = document.createElement("span");
  span.className = `dot ${color}`;
  return span;
}

function renderMatchOver() {
  const s = state;
  $("match-over").hidden = !s.over || matchOverClosed;
  if (!s.over) return;
  $("match-over-title").textContent = s.you === "spectator" ? t("matchOver", { who: colorName(s.winner), w: s.score.white, b: s.score.black })
    : (s.winner === s.you ? t("youWin") : t("youLose"));
  $("match-over-text").textContent = t("finalScore", { w: s.score.white, b: s.score.black, n: s.settings.length });
  const lastGame = s.games[s.games.length - 1];
  $("match-over-last").textContent = resultText(lastGame);
  $("match-over-seed").textContent = lastGame.seed || "";
  const body = $("games-list");
  body.innerHTML = "";
  for (const g of s.games) {
    const tr = document.createElement("tr");
    const r = g.result || {};
    for (const text of [g.index + 1, t(g.variant[0].toUpperCase() + g.variant.slice(1)),
      r.winner ? colorName(r.winner) : "–", r.points ?? "", r.why ? t(`why-${r.why}`) : ""]) {
      const td = document.createElement("td");
      td.textContent = String(text);
      tr.append(td);
    }
    body.append(tr);
  }
  const offer = s.offer && s.offer.kind === "rematch" ? s.offer : null;
  const player = s.you !== "spectator";
  $("rematch").hidden = !player || !!offer;
  $("rematch-accept").hidden = !(player && offer && offer.from !== s.you);
  $("rematch-decline").hidden = $("rematch-accept").hidden;
  $("rematch-status").textContent = !offer ? "" : offer.from === s.you ? t("rematchWaiting") : t("rematchOffered", { who: colorName(offer.from) });
}

function renderClaim() {
  const button = $("claim");
  const at = state.claim_at;
  button.hidden = at === null || at === undefined || state.over;
  if (button.hidden) return;
  const wait = Math.ceil(at - Date.now() / 1000);
  button.disabled = wait > 0 && !state.can_claim;
  button.textContent = button.disabled ? t("claimIn", { s: wait }) : t("claim");
}

/** A game that has just ended: its final position stays on the board with the result and the seed. */
function announceGames() {
  const finished = state.games.filter((g) => g.result);
  if (finishedSeen === null) { finishedSeen = finished.length; return; }
  if (finished.length > finishedSeen) {
    finishedSeen = finished.length;
    const g = finished[finished.length - 1];
    if (state.over) return;  // the match-over card says it all
    reviewing = g.index;
    $("game-over-text").textContent = resultText(g);
    $("game-over-seed").textContent = g.seed || "";
    $("game-over-verdict").textContent = "";
    $("game-over").hidden = false;
  }
}

/** Recompute a finished game's dice from its revealed seed, here in the browser. */
async function verifyDice(index, verdict) {
  verdict.textContent = "…";
  try {
    const answer = await fetch(`/api/matches/${encodeURIComponent(matchId)}/dice`);
    const record = (await answer.json()).games[index];
    const result = checkGame(record);
    verdict.textContent = result.ok ? t("diceOk", { n: result.dice }) : t("diceBad");
    verdict.className = result.ok ? "ok" : "bad";
  } catch {
    verdict.textContent = t("diceBad");
    verdict.className = "bad";
  }
}

function setStatus(text) { $("status").textContent = text; }

let toastTimer = null;
function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 4000);
}

// -- sounds (off unless the player turns them on; made on the spot by the Web Audio API) ----------
let audio = null;
function sound(kind) {
  if (!$("sounds").checked) return;
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    const clicks = kind === "dice" ? [0, 0.05, 0.11, 0.16] : [0];
    for (const at of clicks) {
      const osc = audio.createOscillator(), gain = audio.createGain();
      osc.type = "triangle";
      osc.frequency.value = kind === "dice" ? 900 + Math.random() * 500 : 320;
      gain.gain.setValueAtTime(0.25, now + at);
      gain.gain.exponentialRampToValueAtTime(0.001, now + at + 0.07);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + at);
      osc.stop(now + at + 0.08);
    }
  } catch { /* no sound on this browser */ }
}

// -- input --------------------------------------------------------------------------------------
function pointAt(event) {
  const node = document.elementFromPoint(event.clientX, event.clientY);
  const group = node && node.closest("[data-point]");
  return group ? Number(group.dataset.point) : null;
}

$("board").addEventListener("pointerdown", (event) => {
  for (const a of document.getAnimations()) a.finish();  // a click skips the animations
  if (!state || !state.can_play || reviewing !== null) return;
  const p = pointAt(event);
  if (p === null) return;
  if (selected !== null && targetsFrom(selected).has(p)) { makeStep(selected, p); return; }
  if (sources().has(p)) { selected = p; dragFrom = p; render(); return; }
  selected = null;
  render();
});

$("board").addEventListener("pointerup", (event) => {
  const from = dragFrom;
  dragFrom = null;
  if (from === null || !state || !state.can_play) return;
  const p = pointAt(event);
  if (p !== null && p !== from && targetsFrom(from).has(p)) makeStep(from, p);
});

$("roll").addEventListener("click", roll);
$("undo").addEventListener("click", undo);
$("confirm").addEventListener("click", confirmMove);
$("claim").addEventListener("click", claim);
$("game-over-close").addEventListener("click", () => {
  $("game-over").hidden = true;
  reviewing = null;
  render();
  if (state.can_roll && $("auto-roll").checked) roll();
});
$("game-over-check").addEventListener("click", () => verifyDice(finishedSeen - 1, $("game-over-verdict")));
$("match-over-check").addEventListener("click", () => verifyDice(state.games.length - 1, $("match-over-verdict")));
$("match-over-close").addEventListener("click", () => { matchOverClosed = true; renderMatchOver(); });
$("resign").addEventListener("click", () => { $("resign-menu").hidden = !$("resign-menu").hidden; });
$("resign-cancel").addEventListener("click", () => { $("resign-menu").hidden = true; });
for (const button of document.querySelectorAll("[data-resign]")) {
  button.addEventListener("click", () => {
    $("resign-menu").hidden = true;
    $("toast").hidden = true;
    const what = button.dataset.resign;
    if (what === "match") send({ type: "resign", seq: state.seq, match: true });
    else send({ type: "resign", seq: state.seq, points: Number(what) });
  });
}
$("offer-accept").addEventListener("click", () => send({ type: "answer", seq: state.seq, accept: true }));
$("offer-decline").addEventListener("click", () => send({ type: "answer", seq: state.seq, accept: false }));
$("rematch").addEventListener("click", () => send({ type: "rematch", seq: state.seq }));
$("rematch-accept").addEventListener("click", () => send({ type: "answer", seq: state.seq, accept: true }));
$("rematch-decline").addEventListener("click", () => send({ type: "answer", seq: state.seq, accept: false }));
$("auto-roll").checked = localStorage.getItem("tavli:auto-roll") === "1";
$("auto-roll").addEventListener("change", () => {
  localStorage.setItem("tavli:auto-roll", $("auto-roll").checked ? "1" : "0");
  if ($("auto-roll").checked && state && state.can_roll && reviewing === null) roll();
});
$("sounds").checked = localStorage.getItem("tavli:sounds") === "1";
$("sounds").addEventListener("change", () => localStorage.setItem("tavli:sounds", $("sounds").checked ? "1" : "0"));
for (const button of document.querySelectorAll("[data-copy]")) {
  button.addEventListener("click", async () => {
    const input = $(button.dataset.copy);
    try { await navigator.clipboard.writeText(input.value); } catch { input.select(); document.execCommand("copy"); }
    button.textContent = t("copied");
    setTimeout(() => { button.textContent = t("copy"); }, 1500);
  });
}
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement) return;
  if (event.key === "r" && state?.can_roll && reviewing === null) roll();
  if (event.key === "Enter" && completePlay() !== null) confirmMove();
  if ((event.key === "Backspace" || event.key === "u") && made.length) undo();
});
window.addEventListener("resize", () => render());
setInterval(() => { if (state) renderClaim(); }, 1000);
languageSwitch($("lang"), () => { render(); if (gaveUp) $("bad-link-text").textContent = t("badLink"); });
translatePage();
if (!token || !matchId) badLink("badLink");
else connect();
