// The board page (board.html): draws the match the server sends, and lets the player on turn roll, move and confirm.
//
// The server is authoritative (docs/web.md): the page only proposes. A move is built here step by
// step from the server's list of legal step orders, can be taken back, and is sent whole on Confirm.
import { languageSwitch, t, translatePage } from "/static/strings.js";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

// Board geometry, in the SVG's viewBox (1000 x 760).
const FRAME = 22, POINT_W = 66, BAR_X = 418, BAR_W = 56, RIGHT_X = 474, TRAY_X = 884, TRAY_W = 94;
const TOP = 22, BOTTOM = 738, POINT_H = 300, R = 31;

const matchId = decodeURIComponent(location.pathname.split("/").pop());
$("download-record").href = `/api/matches/${encodeURIComponent(matchId)}/record`;
$("download-record").download = `tavli-${matchId}.json`;
const token = new URLSearchParams(location.hash.slice(1)).get("t") || "";

let state = null;          // the last state from the server
let made = [];             // steps made on the board this turn, not yet confirmed: [from, to, hit]
let selected = null;       // the point whose checker is picked up
let dragFrom = null;
let socket = null;
let retry = 0;
let gaveUp = false;
let finishedSeen = null;   // finished games already announced
let autoRollSent = -1;

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
    setStatus(t("reconnecting"));
    setTimeout(connect, Math.min(5000, 250 * 2 ** Math.min(retry, 5)));
  });
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function serverError(msg) {
  if (msg.code === "bad-token") {
    gaveUp = true;
    setStatus(t("badLink"));
    socket.close();
    return;
  }
  if (msg.code !== "stale") toast(msg.message);
}

function receive(next) {
  const sameTurn = state && next.seq === state.seq;
  state = next;
  window.tavliState = next;
  if (!sameTurn) { made = []; selected = null; }
  announceGames();
  render();
  if (state.can_roll && $("auto-roll").checked && autoRollSent !== state.seq) {
    autoRollSent = state.seq;
    setTimeout(() => { if (state.can_roll && state.seq === autoRollSent) roll(); }, 350);
  }
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
function boardModel() {
  const g = state.game;
  const points = g.points.map((p) => ({ ...p }));
  const bar = { ...g.bar }, off = { ...g.off };
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
    if (hit && g.variant === "plakoto") q.pinned = them;
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

function viewer() { return state.you === "black" ? "black" : "white"; }

/** Where White's point p stands on the screen: its column centre and whether it is on the top row. */
function place(p) {
  const q = viewer() === "black" ? 25 - p : p;
  const top = q >= 13;
  const idx = top ? q - 13 : 12 - q;
  const half = idx < 6 ? 0 : 1;
  const x = (half ? RIGHT_X : FRAME) + (idx % 6) * POINT_W + POINT_W / 2;
  return { x, top, column: idx };
}

function label(p) {
  return viewer() === "black" ? state.game.black_numbers[p - 1] : p;
}

function drawChecker(parent, x, y, color, extra = {}) {
  return el("circle", { cx: x, cy: y, r: R - 1, class: `checker ${color}`, "data-checker": "", "data-color": color, ...extra }, parent);
}

function drawStack(group, x, top, layers) {
  // layers: [[color, count], ...] from the bottom of the stack up (a pinned checker first)
  let k = 0;
  const total = layers.reduce((n, [, c]) => n + c, 0);
  for (const [color, count] of layers) {
    for (let i = 0; i < count; i++, k++) {
      if (k >= 5) continue;
      const y = top ? TOP + R + k * 2 * R : BOTTOM - R - k * 2 * R;
      drawChecker(group, x, y, color, k === 0 && layers.length > 1 ? { "data-pinned": "" } : {});
    }
  }
  if (total > 5) {
    const y = top ? TOP + R + 4 * 2 * R : BOTTOM - R - 4 * 2 * R;
    const text = el("text", { x, y: y + 7, class: "count" }, group);
    text.textContent = String(total);
  }
}

function render() {
  if (!state) return;
  const svg = $("board");
  svg.innerHTML = "";
  const model = boardModel();
  const targets = selected === null ? new Set() : targetsFrom(selected);
  const canMove = state.can_play;
  const from = canMove ? sources() : new Set();
  const last = lastOpponentPoints();

  el("rect", { x: 0, y: 0, width: 1000, height: 760, rx: 18, class: "frame" }, svg);
  el("rect", { x: FRAME, y: TOP, width: BAR_X - FRAME, height: BOTTOM - TOP, class: "felt" }, svg);
  el("rect", { x: RIGHT_X, y: TOP, width: BAR_X - FRAME, height: BOTTOM - TOP, class: "felt" }, svg);
  el("rect", { x: BAR_X, y: TOP, width: BAR_W, height: BOTTOM - TOP, class: "bar" }, svg);
  el("rect", { x: TRAY_X, y: TOP, width: TRAY_W, height: BOTTOM - TOP, class: "tray" }, svg);

  for (let p = 1; p <= 24; p++) {
    const { x, top, column } = place(p);
    const group = el("g", { "data-point": p, class: "point" }, svg);
    const tipY = top ? TOP + POINT_H : BOTTOM - POINT_H;
    const baseY = top ? TOP : BOTTOM;
    el("polygon", {
      points: `${x - POINT_W / 2 + 2},${baseY} ${x + POINT_W / 2 - 2},${baseY} ${x},${tipY}`,
      class: `triangle ${column % 2 ? "dark" : "light"}${last.has(p) ? " last" : ""}`,
    }, group);
    el("rect", { x: x - POINT_W / 2, y: top ? TOP : BOTTOM - POINT_H - 40, width: POINT_W, height: POINT_H + 40, class: "hit" }, group);
    const num = el("text", { x, y: top ? 15 : 754, class: "label" }, group);
    num.textContent = String(label(p));
    const spot = model.points[p - 1];
    const layers = [];
    if (spot.pinned) {
      const pinner = spot.pinned === "white" ? "black" : "white";
      layers.push([spot.pinned, spot[spot.pinned]], [pinner, spot[pinner]]);
    } else {
      for (const color of ["white", "black"]) if (spot[color]) layers.push([color, spot[color]]);
    }
    drawStack(group, x, top, layers.filter(([, c]) => c > 0));
    if (targets.has(p)) group.classList.add("target");
    if (from.has(p)) group.classList.add("source");
    if (selected === p) group.classList.add("selected");
  }

  // the bar: the viewer's own checkers in the upper half, the opponent's in the lower
  const barGroup = el("g", { "data-point": 25, class: "point barpoint" }, svg);
  el("rect", { x: BAR_X, y: TOP, width: BAR_W, height: BOTTOM - TOP, class: "hit" }, barGroup);
  const mine = viewer(), theirs = mine === "white" ? "black" : "white";
  for (const [color, topHalf] of [[mine, true], [theirs, false]]) {
    for (let i = 0; i < Math.min(model.bar[color], 4); i++) {
      const y = topHalf ? 300 - i * 2 * R : 460 + i * 2 * R;
      drawChecker(barGroup, BAR_X + BAR_W / 2, y, color);
    }
    if (model.bar[color] > 4) {
      const text = el("text", { x: BAR_X + BAR_W / 2, y: (topHalf ? 300 - 3 * 2 * R : 460 + 3 * 2 * R) + 7, class: "count" }, barGroup);
      text.textContent = String(model.bar[color]);
    }
  }
  if (from.has(25)) barGroup.classList.add("source");
  if (selected === 25) barGroup.classList.add("selected");

  // the trays: the viewer's borne-off checkers at the bottom, the opponent's at the top
  const tray = el("g", { "data-point": 0, class: "point traypoint" }, svg);
  el("rect", { x: TRAY_X, y: TOP, width: TRAY_W, height: BOTTOM - TOP, class: "hit" }, tray);
  for (const [color, atBottom] of [[mine, true], [theirs, false]]) {
    for (let i = 0; i < model.off[color]; i++) {
      const y = atBottom ? BOTTOM - 20 - i * 20 : TOP + 4 + i * 20;
      el("rect", { x: TRAY_X + 10, y, width: TRAY_W - 20, height: 16, rx: 4, class: `offchecker ${color}`, "data-off": color }, tray);
    }
  }
  if (targets.has(0)) tray.classList.add("target");

  drawDice(svg);
  renderPanel();
}

function drawDice(svg) {
  if (!state.dice) return;
  const used = made.length;
  const color = state.turn;
  const x0 = state.turn === viewer() ? RIGHT_X + 120 : FRAME + 120;
  state.dice.forEach((value, i) => {
    const g = el("g", { class: `die ${color}${state.can_play && used >= (state.dice[0] === state.dice[1] ? 2 * (i + 1) : i + 1) ? " used" : ""}`, "data-die": value }, svg);
    const x = x0 + i * 80, y = 350;
    el("rect", { x, y, width: 60, height: 60, rx: 10 }, g);
    const pips = { 1: [[30, 30]], 2: [[16, 16], [44, 44]], 3: [[16, 16], [30, 30], [44, 44]],
      4: [[16, 16], [44, 16], [16, 44], [44, 44]], 5: [[16, 16], [44, 16], [30, 30], [16, 44], [44, 44]],
      6: [[16, 14], [44, 14], [16, 30], [44, 30], [16, 46], [44, 46]] }[value];
    for (const [px, py] of pips) el("circle", { cx: x + px, cy: y + py, r: 6, class: "pip" }, g);
  });
}

function lastOpponentPoints() {
  const moves = state.game.moves;
  const me = state.you;
  for (let i = moves.length - 1; i >= 0; i--) {
    if (moves[i].color !== me) return new Set(moves[i].steps.flatMap(([a, b]) => [a, b]).filter((p) => p >= 1 && p <= 24));
    if (me === "spectator") break;
  }
  return new Set();
}

function colorName(color) { return t(color); }

function renderPanel() {
  const s = state;
  const variant = s.game.variant[0].toUpperCase() + s.game.variant.slice(1);
  $("game-name").textContent = t("gameOf", { n: s.game.index + 1, variant: t(variant) });
  $("score").textContent = `${t("white")} ${t("score", { w: s.score.white, b: s.score.black, n: s.settings.length })} ${t("black")}`;
  $("watching").hidden = s.you !== "spectator";
  for (const color of ["white", "black"]) {
    const p = s.players[color];
    const who = p.kind === "bot" ? t("bot", { level: p.level }) : (s.you === color ? t("you") : t("human"));
    const row = $(`player-${color}`);
    row.querySelector(".name").textContent = `${colorName(color)} · ${who} · ${p.connected ? t("connected") : t("away")}`;
    row.classList.toggle("on-turn", s.turn === color && !s.over);
    $(`pips-${color}`).textContent = `${s.game.pips[color]} ${t("pips")}`;
  }
  const list = $("moves");
  list.innerHTML = "";
  for (const [w, b] of s.game.opening) {
    const li = document.createElement("li");
    li.className = "opening";
    li.textContent = t("opening", { w, b });
    list.append(li);
  }
  for (const m of s.game.moves) {
    const li = document.createElement("li");
    li.className = m.color;
    li.textContent = `${colorName(m.color)} ${m.dice[0]}-${m.dice[1]}: ${m.play || t("noPlay")}`;
    list.append(li);
  }
  list.scrollTop = list.scrollHeight;
  $("commitment").textContent = s.game.commitment || "";

  const mine = s.you === s.turn && !s.over;
  const complete = completePlay();
  $("roll").hidden = !s.can_roll;
  $("undo").hidden = !(s.can_play && made.length > 0);
  $("confirm").hidden = !(s.can_play && complete !== null);
  $("auto-roll-label").hidden = s.you === "spectator";
  renderClaim();

  let status;
  if (s.over) status = s.winner === s.you ? t("youWin") : (s.you === "spectator" ? t("matchOver", { who: colorName(s.winner), w: s.score.white, b: s.score.black }) : t("youLose"));
  else if (mine && s.can_roll) status = t("yourRoll");
  else if (mine && s.can_play) status = complete !== null ? t("confirmMove") : t("yourMove", { dice: s.dice.join("-") });
  else {
    const lastMove = s.game.moves[s.game.moves.length - 1];
    const other = s.players[s.turn];
    status = lastMove && lastMove.color === s.you && !lastMove.play ? t("passed", { dice: lastMove.dice.join("-") }) + " · " : "";
    status += other.kind === "bot" ? t("thinking", { who: colorName(s.turn) }) : t("waiting", { who: colorName(s.turn) });
  }
  setStatus(status);

  const links = JSON.parse(localStorage.getItem(`tavli:links:${matchId}`) || "null");
  $("share").hidden = !links || s.you === "spectator";
  if (links) {
    $("share-friend-row").hidden = !links.friend;
    $("share-friend").value = links.friend ? location.origin + links.friend : "";
    $("share-watch").value = location.origin + links.watch;
  }
  $("match-over").hidden = !s.over;
  if (s.over) {
    $("match-over-title").textContent = s.winner === s.you ? t("youWin") : (s.you === "spectator" ? "" : t("youLose"));
    $("match-over-text").textContent = t("matchOver", { who: colorName(s.winner), w: s.score.white, b: s.score.black });
  }
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

function announceGames() {
  const finished = state.games.filter((g) => g.result);
  if (finishedSeen === null) { finishedSeen = finished.length; return; }
  if (finished.length > finishedSeen) {
    finishedSeen = finished.length;
    const g = finished[finished.length - 1];
    const r = g.result;
    $("game-over-text").textContent = t("gameOver", {
      who: r.winner ? colorName(r.winner) : "–", n: g.index + 1, points: r.points, s: r.points === 1 ? "" : "s", reason: r.reason,
    });
    $("game-over-seed").textContent = g.seed || "";
    $("game-over-check").href = `/api/matches/${encodeURIComponent(matchId)}/dice`;
    $("game-over").hidden = state.over;
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

// -- input --------------------------------------------------------------------------------------
function pointAt(event) {
  const node = document.elementFromPoint(event.clientX, event.clientY);
  const group = node && node.closest("[data-point]");
  return group ? Number(group.dataset.point) : null;
}

$("board").addEventListener("pointerdown", (event) => {
  if (!state || !state.can_play) return;
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
$("game-over-close").addEventListener("click", () => { $("game-over").hidden = true; });
$("auto-roll").checked = localStorage.getItem("tavli:auto-roll") === "1";
$("auto-roll").addEventListener("change", () => {
  localStorage.setItem("tavli:auto-roll", $("auto-roll").checked ? "1" : "0");
  if ($("auto-roll").checked && state && state.can_roll) roll();
});
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
  if (event.key === "r" && state?.can_roll) roll();
  if (event.key === "Enter" && completePlay() !== null) confirmMove();
  if ((event.key === "Backspace" || event.key === "u") && made.length) undo();
});
setInterval(() => { if (state) renderClaim(); }, 1000);
languageSwitch($("lang"), render);
translatePage();
connect();
