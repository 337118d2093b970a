// The position page (position.html): any position and roll, its plays ranked by the network's
// search (GET /api/position, docs/web.md). The address keeps what is asked and shown
// (#position=...&dice=3-1&depth=1&play=0), so a position can be shared; the review page links here.
import { BoardView, diceFaces, portraitScreen } from "/static/board.js";
import { $, colorName, gameName, signed } from "/static/common.js";
import { languageSwitch, num, say, t, translatePage } from "/static/strings.js";

const view = new BoardView($("board"));
const STARTS = {
  portes: "portes 2b....5w.3w...5b5w...3b.5b....2w w 0:0 0:0",
  plakoto: "plakoto 15b......................15w w 0:0 0:0",
  fevga: "fevga ...........15b...........15w w 0:0 0:0",
};

let found = null;  // the latest analysis shown
let playIndex = 0;
let asked = 0;     // the latest request: an older answer arriving late is not drawn

function pct(x) { return `${num(100 * x, 1)}%`; }

const LENGTHS = Array.from({ length: 26 }, (_, n) => n);  // 0: points per game; matches to 1 to 25 points

/** What the form asks: the position, the roll, the search and the match score. */
function asking() {
  return { position: $("position").value.trim(), dice: $("dice").value.trim(), depth: $("depth").value,
    length: $("length").value, white: $("white").value || "0", black: $("black").value || "0", order: $("order").value };
}

/** Put `ask` in the form (what is asked stays there, to be put right if it is wrong). */
function fill(ask) {
  $("position").value = ask.position;
  $("dice").value = ask.dice;
  $("depth").value = String(ask.depth);
  $("length").value = LENGTHS.includes(Number(ask.length)) ? String(Number(ask.length)) : "0";
  $("white").value = String(ask.white ?? 0);
  $("black").value = String(ask.black ?? 0);
  $("order").value = ask.order === "single" ? "single" : "tavli";
  showScore();
}

function showScore() {
  for (const el of document.querySelectorAll(".match-only")) el.hidden = $("length").value === "0";
}

/** The query of `ask`: the score only for a match. */
function query(ask) {
  const { position, dice, depth, length, white, black, order } = ask;
  return new URLSearchParams(Number(length) ? { position, dice, depth, length, white, black, order } : { position, dice, depth });
}

/** Analyse what `ask` names and show play `k`; a bad request keeps what is shown. */
async function analyse(ask, k = 0) {
  const request = ++asked;
  say($("error"));
  fill(ask);
  $("analyse").disabled = true;
  try {
    const answer = await fetch(`/api/position?${query(ask)}`);
    const body = await answer.json().catch(() => ({}));
    if (request !== asked) return;
    if (!answer.ok) {
      // the reason is said in the page's language too, and again when it is switched
      say($("error"), body.error ? "positionRefused" : "positionFailed", { reason: body.reason ?? body.error });
      return;
    }
    found = body;
    if (setup) toggleSetup();  // the analysis of what was set up
    playIndex = Math.max(0, Math.min(found.plays.length - 1, k));
    $("dice").value = found.dice;
    remember();
    render();
  } catch {
    if (request === asked) say($("error"), "positionFailed");
  } finally {
    if (request === asked) $("analyse").disabled = false;
  }
}

function remember() {
  const address = query({ ...asking(), dice: found.dice, depth: String(found.depth) });
  address.set("play", String(playIndex));
  history.replaceState(null, "", `#${address}`);
}

function render() {
  if (setup) { drawSetup(); return; }
  if (!found) return;
  const portrait = portraitScreen();
  document.body.classList.toggle("portrait", portrait);
  const side = found.turn;  // the board from the side to play, as a player sees his own
  view.reset(portrait, side, found.board.black_numbers);
  const play = found.plays[playIndex];
  view.drawPosition(play ? play.board : found.board, { last: new Set((play?.steps || []).flatMap(([a, b]) => [a, b])) });
  view.drawDice(diceFaces(found.dice.split("-").map(Number)), side, { right: true });
  $("game-name").textContent = gameName(found.game);

  const who = colorName(found.turn);
  $("plays-title").textContent = t("positionTitle", { who, dice: found.dice });
  const match = found.match !== null;
  $("mwc-head").hidden = !match;
  $("plays").replaceChildren(...found.plays.map((p, i) => {
    const cells = [String(i + 1), p.play, signed(p.equity), pct(p.win), ...(match ? [pct(p.mwc)] : []),
      i === 0 ? "" : `−${num(p.loss, 3)}`, t("plies", { n: p.depth })];
    const tr = document.createElement("tr");
    tr.className = [i === playIndex ? "played" : "", p.skill].join(" ").trim();
    tr.tabIndex = 0;
    for (const text of cells) tr.append(Object.assign(document.createElement("td"), { textContent: text }));
    tr.lastChild.className = "ply";
    const choose = () => { playIndex = i; remember(); render(); };
    tr.addEventListener("click", choose);
    tr.addEventListener("keydown", (e) => { if (e.key === "Enter") choose(); });
    return tr;
  }));
  const c = found.chances;
  let chances = t("positionChances", { who, win: pct(c.win), win2: pct(c.win2), lose2: pct(c.lose2),
    equity: signed(c.equity) });
  if (match) {
    const m = found.match;
    chances += ` ${t("positionMatch", { who, mwc: pct(c.mwc), length: m.length, white: m.white, black: m.black, n: m.game })}`;
  }
  $("chances").textContent = chances;
  const code = (text) => Object.assign(document.createElement("code"), { textContent: text });
  $("position-text").replaceChildren(code(found.position),
    ...(found.gnubg_id ? [` · ${t("gnubgId")} `, code(found.gnubg_id)] : []));

  // a start position's first roll: the opening tables have it, valued by rollouts (standard rules)
  const opening = found.position === STARTS[found.game];
  $("opening").hidden = !opening;
  if (opening) $("opening-link").href = `/openings#${found.game}/${found.dice}/0`;

  let status;
  if (!play) status = t("positionNoPlay", { who, dice: found.dice });
  else if (found.plays.length === 1) status = t("positionOnly", { who, dice: found.dice, play: play.play });
  else if (playIndex === 0 && match) status = t("positionBestMatch", { who, dice: found.dice, play: play.play, mwc: pct(play.mwc) });
  else if (playIndex === 0) status = t("positionBest", { who, dice: found.dice, play: play.play, value: signed(play.equity) });
  else if (match) {
    status = t("positionOtherMatch", { who, dice: found.dice, play: play.play, mwc: num(100 * play.mwc_loss, 1) });
  } else status = t("positionOther", { who, dice: found.dice, play: play.play, loss: num(play.loss, 3) });
  $("status").textContent = status;
  $("back").disabled = playIndex === 0;
  $("forward").disabled = playIndex >= found.plays.length - 1;
  // what is shown, for tests and tools
  window.tavliPosition = { position: found.position, dice: found.dice, depth: found.depth, play: play ? play.play : null };
}

function step(by) {
  if (setup || !found || !found.plays.length) return;
  playIndex = Math.max(0, Math.min(found.plays.length - 1, playIndex + by));
  remember();
  render();
}

$("length").replaceChildren(...LENGTHS.map((n) => {
  const option = document.createElement("option");
  option.value = String(n);
  return option;
}));
function nameLengths() {
  for (const option of $("length").options) {
    option.textContent = option.value === "0" ? t("pointsPerGame") : t("matchTo", { n: option.value });
  }
}
nameLengths();
$("length").addEventListener("change", showScore);
$("ask").addEventListener("submit", (e) => {
  e.preventDefault();
  analyse(asking());
});
for (const button of document.querySelectorAll("[data-start]")) {
  button.addEventListener("click", () => {
    $("position").value = STARTS[button.dataset.start];
    $("ask").requestSubmit();
  });
}
// -- setting a position up on the board ---------------------------------------------------------
// Clicks put a checker of the chosen colour on a point (in Plakoto, on a lone opposing checker: a
// pin) or on the bar (Portes), or take one off; the position string follows every click and is
// analysed as any other. The borne-off checkers are the rest of each side's fifteen.
let setup = null;  // while setting up: {game, variant, turn, points, bar, brush}
const other = (color) => (color === "white" ? "black" : "white");

function startSetup() {
  const board = found ? found.board : null;
  setup = {
    game: found ? found.game : "portes", variant: found ? found.variant : "portes", turn: found ? found.turn : "white",
    points: board ? board.points.map((s) => ({ ...s })) : Array.from({ length: 24 }, () => ({ white: 0, black: 0, pinned: null })),
    bar: board ? { ...board.bar } : { white: 0, black: 0 }, brush: "white", blackNumbers: board ? board.black_numbers : null,
  };
  drawSetup();
}

function onBoard(color) {
  return setup.points.reduce((n, s) => n + s[color], 0) + setup.bar[color];
}

/** The position string of what is set up (docs/formats.md). */
function setupText() {
  const token = (s) => {
    if (s.pinned) return `${s[other(s.pinned)]}${other(s.pinned)[0]}${s.pinned[0]}`;
    if (s.white) return `${s.white}w`;
    return s.black ? `${s.black}b` : ".";
  };
  const off = (c) => 15 - onBoard(c);
  return `${setup.variant} ${setup.points.map(token).join("")} ${setup.turn[0]} ` +
    `${setup.bar.white}:${setup.bar.black} ${off("white")}:${off("black")}`;
}

/** Put a checker of the brush's colour on point `p` (25: the bar), or take one off; false if it cannot be. */
function edit(p) {
  const { brush } = setup;
  if (p === 25) {
    if (brush === "remove") {
      const color = setup.bar.white ? "white" : "black";
      if (!setup.bar[color]) return false;
      setup.bar[color] -= 1;
      return true;
    }
    if (setup.game !== "portes" || onBoard(brush) >= 15) return false;
    setup.bar[brush] += 1;
    return true;
  }
  const s = setup.points[p - 1];
  if (brush === "remove") {
    const top = s.pinned ? other(s.pinned) : s.white ? "white" : "black";
    if (!s[top]) return false;
    s[top] -= 1;
    if (s.pinned && !s[top]) s.pinned = null;  // the pinned checker is free again
    return true;
  }
  if (onBoard(brush) >= 15) return false;
  if (s.pinned) {
    if (s.pinned === brush) return false;  // nothing goes under the checkers on top
  } else if (s[other(brush)]) {
    // only a lone opposing checker can be pinned, by the first checker to land on it (Plakoto)
    if (setup.game !== "plakoto" || s[other(brush)] !== 1 || s[brush]) return false;
    s.pinned = other(brush);
  }
  s[brush] += 1;
  return true;
}

function drawSetup() {
  const portrait = portraitScreen();
  document.body.classList.toggle("portrait", portrait);
  view.reset(portrait, setup.turn, setup.blackNumbers || found?.board.black_numbers);
  const off = { white: 15 - onBoard("white"), black: 15 - onBoard("black") };
  view.drawPosition({ points: setup.points, bar: setup.bar, off });
  $("position").value = setupText();
  for (const b of document.querySelectorAll("[data-brush]")) b.classList.toggle("on", b.dataset.brush === setup.brush);
  $("setup-turn").textContent = t("setupTurn", { who: t(setup.turn) });
  $("status").textContent = t("setupHelp");
  window.tavliSetup = setupText();  // what is set up, for tests and tools
}

function toggleSetup() {
  if (setup) {
    setup = null;
    render();
  } else startSetup();
  $("setup-bar").hidden = !setup;
  $("setup").classList.toggle("on", Boolean(setup));
  $("plays").closest(".card").classList.toggle("stale", Boolean(setup));
}

$("setup").addEventListener("click", toggleSetup);
for (const b of document.querySelectorAll("[data-brush]")) {
  b.addEventListener("click", () => { setup.brush = b.dataset.brush; drawSetup(); });
}
$("setup-turn").addEventListener("click", () => { setup.turn = other(setup.turn); drawSetup(); });
$("setup-clear").addEventListener("click", () => {
  setup.points = setup.points.map(() => ({ white: 0, black: 0, pinned: null }));
  setup.bar = { white: 0, black: 0 };
  drawSetup();
});
$("board").addEventListener("click", (e) => {
  const group = setup && e.target.closest("[data-point]");
  if (!group) return;
  if (edit(Number(group.dataset.point))) drawSetup();
  else if (setup.brush !== "remove" && onBoard(setup.brush) >= 15) $("status").textContent = t("setupFull");
  else $("status").textContent = t("setupCannot");
});

$("back").addEventListener("click", () => step(-1));
$("forward").addEventListener("click", () => step(1));
document.addEventListener("keydown", (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
  const by = { ArrowUp: -1, ArrowDown: 1, ArrowLeft: -1, ArrowRight: 1 }[e.key];
  if (!by) return;
  e.preventDefault();
  step(by);
});
window.addEventListener("resize", render);
languageSwitch($("lang"), () => { nameLengths(); render(); });
translatePage();

/** Analyse what the address names; the start of Portes and 3-1 at 1 ply where it names nothing. */
function fromAddress() {
  const wanted = new URLSearchParams(location.hash.slice(1));
  const depth = ["0", "1", "2"].includes(wanted.get("depth")) ? wanted.get("depth") : "1";
  analyse({ position: wanted.get("position") || STARTS.portes, dice: wanted.get("dice") || "3-1", depth,
    length: wanted.get("length") || "0", white: wanted.get("white") || "0", black: wanted.get("black") || "0",
    order: wanted.get("order") || "tavli" }, Number(wanted.get("play")) || 0);
}

window.addEventListener("hashchange", fromAddress);  // an address typed or followed on this page
fromAddress();
