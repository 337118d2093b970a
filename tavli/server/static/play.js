// The board page (board.html): draws the match the server sends, and lets the player on turn roll, move and confirm.
//
// The server is authoritative (docs/web.md): the page only proposes. A move is built here step by
// step from the server's tree of legal steps, can be taken back, and is sent whole on Confirm.
import { BoardView, diceFaces, other, portraitScreen } from "/static/board.js";
import { ChatPanel } from "/static/chat.js";
import { ClockView } from "/static/clock.js";
import { $, botName, colorName, diceText, gameName, playWords, poolName, signed } from "/static/common.js";
import { checkGame, rematchToken, spectatorRematchToken } from "/static/fairdice.js";
import { keepMine, mineOf, onWhoChanges, shownName } from "/static/session.js";
import { StepInput } from "/static/steps.js";
import { language, languageSwitch, num, sayable, t, translatePage } from "/static/strings.js";

const view = new BoardView($("board"));
// each player's clock in his row, and again over the board on a phone (its first screen)
const clocks = [new ClockView({ white: $("clock-white"), black: $("clock-black") }),
  new ClockView({ white: $("strip-clock-white"), black: $("strip-clock-black") })];
const pings = new Map();   // ping id -> when it was sent, for the round trip
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
const sideways = window.matchMedia("(max-height: 500px) and (orientation: landscape)");  // tavli.css's phone held sideways

const matchId = decodeURIComponent(location.pathname.split("/").pop());
$("download-record").href = `/api/matches/${encodeURIComponent(matchId)}/record`;
$("download-record").download = `tavli-${matchId}.json`;
const linkParams = new URLSearchParams(location.hash.slice(1));
// the board's address alone opens the seat this browser plays (its token kept at the first visit);
// with no token at all it watches the match, if the match may be watched (docs/web.md)
const token = linkParams.get("t") || mineOf(matchId) || "";
// Two players on one device: the link holds both seats' tokens (t2 the second), the page keeps a
// connection for each and shows the state of the seat that is to act.
const token2 = linkParams.get("t2") || "";
const hotSeat = token2 !== "";

// What the page holds between messages and clicks, in one place: every field it changes as it goes.
const page = {
  state: null,             // the last state from the server
  previous: null,          // the state before it
  latest: {},              // two players on one device: each seat's last state
  gaveUp: false,           // the page stopped connecting: true, or the key of why (said again at a language switch)
  finishedSeen: null,      // how many finished games were announced (null: none counted yet)
  reviewing: null,         // the index of a game just finished whose final position stays on the board
  autoRollSent: -1,        // the state (its seq) whose roll auto-roll sent
  animateSteps: [],        // steps to animate at the next drawing: [from, to, color]
  rolled: false,           // the dice are new at the next drawing
  matchOverClosed: false,  // the match-over card closed to see the board: its summary a click away
  connectedOnce: false,    // a state has come since the page opened
  hint: null,              // the coach's last answer for this turn: {seq, plays}
  tutorPlay: null,         // a play waiting for the tutor's check before it is sent
  chances: null,           // the last chances of winning the match from the server
  chancesAsked: null,      // what this connection last asked the server: true, false or null (nothing yet)
  wasMyTurn: false,        // the last state was the player's to act on: a new turn is signalled once
  autoPlayed: -1,          // the state (its seq) whose only play was made by itself (once)
  madePublic: false,       // this page made the match public (the states keep the settings they began with)
  toastTimer: null,        // the timer that hides the toast
  audio: null,             // the sounds' AudioContext, made at the player's first gesture (wakeAudio)
  gestured: false,         // the player has clicked, tapped or pressed a key here: sound is allowed
};
const input = new StepInput(() => page.state?.legal);  // the steps made on the board this turn, not yet confirmed
const connections = [];    // one per seat held here: {token, socket, retry, seat}
const chat = new ChatPanel({ matchId, send: (message) => send(message), toast: (text) => toast(text) });

// -- board settings, kept in this browser ---------------------------------------------------------
const SETTINGS = {  // element id: [localStorage key, default]
  "set-home": ["tavli:home", "right"],
  "set-numbers": ["tavli:numbers", "1"],
  "set-auto-confirm": ["tavli:auto-confirm", "0"],
  "set-auto-bearoff": ["tavli:auto-bearoff", "0"],
  "set-speed": ["tavli:speed", "1"],
};
/** Whether the page follows Tavli TV (``/tv``): when its match ends it goes on to the next. */
const TV = new URLSearchParams(location.search).has("tv");
const TV_NEXT_MS = 10_000;

function setting(id) {
  const [key, fallback] = SETTINGS[id];
  return localStorage.getItem(key) ?? fallback;
}
function showSettings() {
  for (const id of Object.keys(SETTINGS)) {
    const box = $(id);
    if (box.type === "checkbox") box.checked = setting(id) === "1";
    else box.value = setting(id);
  }
}

// -- connection ---------------------------------------------------------------------------------
function connect(conn) {
  if (page.gaveUp) return;
  setStatus(conn.retry ? t("reconnecting") : t("connecting"));
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(matchId)}`);
  conn.socket = socket;
  socket.addEventListener("open", () => {
    conn.retry = 0;
    conn.byAccount = false;
    page.chancesAsked = null;
    // the player's name from the start page, for his opponent to see (two players here: none)
    const name = hotSeat ? "" : localStorage.getItem("tavli:name") || "";
    const who = conn.token ? { token: conn.token } : {};  // no token: a spectator, by the address alone
    socket.send(JSON.stringify({ type: "hello", ...who, steps: true, ...(name ? { name } : {}) }));
    chat.reconnected();
    ping(socket);
  });
  socket.addEventListener("message", (event) => {
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    if (msg.type === "state") arrive(conn, msg);
    else if (msg.type === "pong") heardPong(msg);
    else if (msg.type === "hint") receiveHint(msg);
    else if (msg.type === "chances") receiveChances(msg);
    else if (msg.type === "error") serverError(msg);
    else if (msg.type === "joined") conn.byAccount = msg.by === "account";  // no token of the seat here
    else if (msg.type === "chat" || msg.type === "muted") chat.receive(msg);
  });
  socket.addEventListener("close", () => {
    if (page.gaveUp) return;
    conn.retry += 1;
    setStatus(conn.retry > 6 && !page.connectedOnce ? t("unreachable") : t("reconnecting"));
    setTimeout(() => connect(conn), Math.min(5000, 250 * 2 ** Math.min(conn.retry, 5)));
  });
}

/** A ping, to measure the connection's round trip (the clocks take half of it off each state). */
function ping(socket) {
  if (socket.readyState !== WebSocket.OPEN) return;
  const id = `ping-${Math.random().toString(36).slice(2, 10)}`;
  pings.set(id, performance.now());
  socket.send(JSON.stringify({ type: "ping", id }));
}

function heardPong(msg) {
  const sent = pings.get(msg.id);
  if (sent === undefined) return;
  pings.delete(msg.id);
  for (const view of clocks) view.roundTrip(performance.now() - sent);
}

/** Send on the connection of the seat shown: the one to act. */
function send(message) {
  const conn = connections.find((c) => c.seat === page.state?.you) || connections[0];
  if (conn.socket && conn.socket.readyState === WebSocket.OPEN) conn.socket.send(JSON.stringify(message));
}

/** A state from one of the connections; with two seats here, the page follows the seat to act. */
function arrive(conn, msg) {
  conn.seat = msg.you;
  // a seat played here: kept, for "my matches" and for the account a guest may make later
  if (msg.you !== "spectator" && conn.token === token && !hotSeat && !conn.byAccount) keepMine(matchId, token);
  if (!hotSeat) { receive(msg); return; }
  page.latest[msg.you] = msg;
  const shown = page.latest[actor(msg)];
  if (shown && shown.seq === msg.seq && shown !== page.state) receive(shown);
}

/** Two players on one device: the seat whose turn it is, or who is to answer an offer. */
function actor(s) {
  if (s.offer) return s.offer.from === "white" ? "black" : "white";
  if (s.over) return page.state ? page.state.you : s.you;
  return s.turn;
}

/** A link that cannot open this match: say so in words, with the way back to the start page. */
function badLink(why, title = "badLinkTitle") {
  page.gaveUp = why;
  $("bad-link-title").dataset.i18n = title;  // the language switch says it again from there
  $("bad-link-title").textContent = t(title);
  for (const conn of connections) if (conn.socket) conn.socket.close();
  $("bad-link-text").textContent = t(why);
  $("bad-link").hidden = false;
  setStatus(t(why));
}

/** A rated match's seat that only its account's player plays: say why, with the way to log in
 * and come back to this board. */
function needLogin(msg) {
  page.gaveUp = true;
  for (const conn of connections) if (conn.socket) conn.socket.close();
  $("need-login-text").textContent = sayable(msg.reason) ?? (language() === "en" ? msg.message : t("loginToPlay"));
  const back = `/match/${encodeURIComponent(matchId)}#t=${encodeURIComponent(token)}`;
  $("need-login-link").href = `/?login&next=${encodeURIComponent(back)}`;
  $("need-login").hidden = false;
  setStatus(t("loginToPlay"));
}

function serverError(msg) {
  if (msg.id === "tutor" && page.tutorPlay !== null) {  // the tutor could not check: the play goes as it is
    const play = page.tutorPlay;
    page.tutorPlay = null;
    if (page.state.can_play) send({ type: "play", seq: page.state.seq, play });
    return;
  }
  if (msg.code === "bad-token" || (!page.state && msg.code === "bad-message")) { badLink("badLink"); return; }
  if (msg.code === "private") { badLink("privateMatch", "privateMatchTitle"); return; }
  if (msg.code === "login") { needLogin(msg); return; }
  if (msg.code === "stale") return;
  // why, in the page's language; where that language has no words for it, the code's words
  const words = t(`error-${msg.code}`);
  const rule = msg.code === "illegal" && page.state ? ruleOf(msg.reason, page.state.game.variant) : null;
  toast(sayable(msg.reason) ?? (language() === "en" || words === `error-${msg.code}` ? msg.message : words),
    rule && { href: `/rules#${rule}`, text: t("ruleLink") });
}

/** The rule on the rules page (its id) that a refused play broke, from the reason's English
 * templates, the reasons within it included; null where the refusal is no rule's (a typing slip). */
const RULES_OF_REASONS = [
  [/pass|both dice|as many as the position|higher die/, "common-dice"],
  [/bear off/, "common-bearoff"],
  [/from the bar|on the bar/, "portes-bar"],
  [/pinned/, "plakoto-pin"],
  [/first checker/, "fevga-first"],
  [/six points/, "fevga-primes"],
  [/is blocked/, "{game}-open"],
];
function ruleOf(reason, game) {
  const templates = [];
  const collect = (r) => {
    if (!r || typeof r !== "object") return;
    if (r.template) templates.push(r.template);
    for (const value of Object.values(r.params || {})) collect(value);
  };
  collect(reason);
  for (const [pattern, rule] of RULES_OF_REASONS) {
    if (templates.some((text) => pattern.test(text))) return rule.replace("{game}", game);
  }
  return null;
}

function receive(next) {
  page.connectedOnce = true;
  const sameTurn = page.state && next.seq === page.state.seq;
  page.previous = page.state;
  page.state = next;
  window.tavliState = next;
  if (!sameTurn) input.clear();
  if (page.previous && next.seq > page.previous.seq) noticeChanges(page.previous, next);
  announceGames();
  // watching by the address, or playing by the account signed in: the rematch's address too
  if (page.state.rematch && (!token || connections.some((c) => c.byAccount))) {
    location.assign(`/match/${encodeURIComponent(page.state.rematch)}`);
    return;
  }
  if (page.state.rematch && token) {  // on to the rematch: players in their swapped seats, spectators watching
    const next = (held) => page.state.you === "spectator" ? spectatorRematchToken(held, page.state.rematch) : rematchToken(held, page.state.rematch);
    const hash = hotSeat ? `t=${next(token)}&t2=${next(token2)}` : `t=${next(token)}`;
    location.assign(`/match/${encodeURIComponent(page.state.rematch)}#${hash}`);
    return;
  }
  askChances();
  for (const view of clocks) view.update(page.state.clock || null, page.state.over);
  if (!hotSeat) chat.follow(page.state);  // two players on one device talk face to face
  render();
  autoBearOff();
  if (page.state.can_roll && $("auto-roll").checked && page.autoRollSent !== page.state.seq && page.reviewing === null) {
    page.autoRollSent = page.state.seq;
    setTimeout(() => { if (page.state.can_roll && page.state.seq === page.autoRollSent) roll(); }, 350);
  }
}

/** What changed since the last state: moves to animate, new dice, an offer answered. */
function noticeChanges(before, after) {
  const sameGame = before.game.index === after.game.index;
  const seen = sameGame ? before.game.moves.length : 0;
  const fresh = after.game.moves.slice(seen);
  for (const m of fresh) {
    if ((m.color === before.you || hotSeat) && sameGame && before.legal) continue;  // made here, already drawn step by step
    for (const [from, to] of m.steps) page.animateSteps.push([from, to, m.color]);
  }
  if (after.dice && (!before.dice || !sameGame || before.seq !== after.seq) && JSON.stringify(before.dice) !== JSON.stringify(after.dice)) page.rolled = true;
  if (after.dice && !before.dice) page.rolled = true;
  if (page.rolled) sound("dice");
  else if (fresh.length) sound("move");
  if (before.offer && !after.offer && before.offer.from === before.you && after.game.index === before.game.index
      && !after.over) toast(t("offerDeclined"));
}

function undo() {
  input.undo();
  render();
}

function confirmMove() {
  const play = input.play();
  if (play !== null) submitPlay(play);
}

/** A move typed in notation: the server reads it as it reads any (13/7/1, 8/4(2)) and says why not. */
function typedMove(event) {
  event.preventDefault();
  const play = $("typed-play").value.trim().replace(/\s+/g, " ");
  if (!play || !page.state.can_play) return;
  $("typed-play").value = "";
  input.clear();
  submitPlay(play);
}

function submitPlay(play) {
  if (page.state.coach && $("tutor").checked) {  // the tutor looks at the play first
    page.tutorPlay = play;
    send({ type: "hint", id: "tutor", play });
    return;
  }
  send({ type: "play", seq: page.state.seq, play });
}

// -- the coach: hints and the tutor ---------------------------------------------------------------
function askHint() { send({ type: "hint", id: "hint" }); }

function receiveHint(msg) {
  if (msg.seq !== page.state.seq) return;  // an answer for a turn already gone
  if (msg.id === "tutor") {
    const play = page.tutorPlay;
    page.tutorPlay = null;
    if (play === null || !msg.checked) return;  // (a typed play comes back in the server's notation)
    if (msg.checked.skill === "blunder") {
      const best = msg.plays[0];
      $("tutor-text").textContent = t("tutorAsk", { loss: num(msg.checked.loss, 3), best: moveText({ steps: best.steps }) });
      $("tutor-panel").dataset.play = play;
      $("tutor-panel").hidden = false;
    } else send({ type: "play", seq: page.state.seq, play });
    return;
  }
  page.hint = msg;
  renderHint();
}

function renderHint() {
  const show = page.hint !== null && page.hint.seq === page.state.seq && page.state.can_play && page.reviewing === null;
  $("hints-card").hidden = !show;
  if (!show) return;
  $("hints-title").textContent = t("hintTitle", { dice: diceText(page.hint.dice) });
  const list = $("hints");
  list.innerHTML = "";
  for (const p of page.hint.plays) {
    const li = document.createElement("li");
    const loss = p.loss > 0 ? ` (−${num(p.loss, 3)})` : "";
    li.textContent = `${moveText({ steps: p.steps })}  ${signed(p.equity)}${loss}`;
    list.append(li);
  }
}

// -- the chances of winning the match: on for spectators, a choice for players against a bot ------
function chancesKey() { return page.state.you === "spectator" ? "tavli:chances-watch" : "tavli:chances"; }
function chancesAllowed() {
  if (!page.state) return false;
  if (page.state.you === "spectator") return true;
  return page.state.players[page.state.you === "white" ? "black" : "white"].kind === "bot";
}
function chancesWanted() {
  if (!chancesAllowed()) return false;
  const stored = localStorage.getItem(chancesKey());
  return page.state.you === "spectator" ? stored !== "0" : stored === "1";
}
/** Tell the server whether this connection wants the chances, when that changes. */
function askChances() {
  const wanted = chancesWanted();
  if (wanted === page.chancesAsked || (!wanted && page.chancesAsked === null)) return;
  page.chancesAsked = wanted;
  send({ type: "chances", on: wanted });
}
function receiveChances(msg) {
  if (page.chances && msg.seq < page.chances.seq) return;  // an older one, overtaken
  page.chances = msg;
  window.tavliChances = msg;
  renderChances();
}
function renderChances() {
  const on = chancesWanted() && page.chances !== null;
  $("chances-label").hidden = !chancesAllowed();
  $("chances-on").checked = chancesWanted();
  $("chances").hidden = !on;
  if (!on) return;
  const pct = (x) => num(100 * x, 1);
  $("chances-bar-white").style.width = `${100 * page.chances.white}%`;
  $("chances-white").textContent = t("chancesSide", { who: colorName("white"), pct: pct(page.chances.white) });
  $("chances-black").textContent = t("chancesSide", { who: colorName("black"), pct: pct(page.chances.black) });
}

function roll() { send({ type: "roll", seq: page.state.seq }); }

function claim() { send({ type: "claim", seq: page.state.seq }); }

/** The board after the steps made so far: counts per point in White's numbering, bar, off, pins. */
function boardModel(g) {
  if (g !== page.state.game) return { points: g.points.map((p) => ({ ...p })), bar: { ...g.bar }, off: { ...g.off } };
  return input.board(g, page.state.turn, page.state.game.variant);
}

// -- drawing (the board itself: board.js) ------------------------------------------------------
function viewer() { return page.state.you === "black" ? "black" : "white"; }

function label(p) { return view.label(p); }

function render() {
  if (!page.state) return;
  const portrait = portraitScreen();
  document.body.classList.toggle("portrait", portrait);
  const shown = page.reviewing !== null ? page.state.games[page.reviewing] : null;
  const game = shown && shown.final ? shown.final : page.state.game;
  view.mirror = setting("set-home") === "left";
  view.reset(portrait, viewer(), game.black_numbers);  // the finished game's numbering, whatever comes next
  $("board").classList.toggle("no-numbers", setting("set-numbers") !== "1");
  const live = game === page.state.game;
  const model = boardModel(game);
  const selected = input.selected;
  const targets = selected === null || !live ? new Set() : input.targetsFrom(selected);
  const from = page.state.can_play && live ? input.sources() : new Set();
  const last = live ? lastMove() : null;
  const lastPoints = new Set((last?.steps || []).flatMap(([a, b]) => [a, b]));
  const tops = view.drawPosition(model, { last: lastPoints, targets, sources: from, selected, turn: page.state.turn });
  $("board").setAttribute("aria-label", describe(model));

  if (live) drawDice();
  animate(tops);
  renderPanel();
}

/** The board in words, for a screen reader: each side's checkers point by point, in the numbering
 * drawn (the viewer's), then the bar and those borne off; the viewer's side first. */
function describe(model) {
  const sides = viewer() === "black" ? ["black", "white"] : ["white", "black"];
  return sides.map((color) => {
    const parts = [];
    for (let p = 24; p >= 1; p--) {
      const spot = model.points[p - 1];
      if (!spot[color]) continue;
      const where = String(label(p));
      parts.push(spot.pinned === color ? t("describePinned", { p: where, n: spot[color] }) : t("describePoint", { p: where, n: spot[color] }));
    }
    parts.sort((a, b) => parseInt(b, 10) - parseInt(a, 10));  // from his far side home, in the labels drawn
    if (model.bar[color]) parts.push(t("describeBar", { n: model.bar[color] }));
    if (model.off[color]) parts.push(t("describeOff", { n: model.off[color] }));
    return t("describeSide", { who: colorName(color), points: parts.join(", ") });
  }).join(". ");
}

/** The dice of the side to move, high first; doubles as four dice, those used greyed. */
function drawDice() {
  if (!page.state.dice) return;
  const values = diceFaces(page.state.dice);
  const used = page.state.can_play ? input.usedDice(values) : new Array(values.length).fill(false);
  view.drawDice(values, page.state.turn, { used, right: page.state.turn === viewer(), rolling: page.rolled });
  page.rolled = false;
}

/** Slide the checkers just moved from where they were (short; none with reduced motion). */
function animate(tops) {
  const steps = page.animateSteps;
  page.animateSteps = [];
  const speed = Number(setting("set-speed"));
  if (reducedMotion.matches || !steps.length || !(speed > 0)) return;
  steps.forEach(([from, to, color], i) => {
    const node = to === 0 ? tops[`off-${color}`] : tops[to];
    if (!node || from === undefined) return;
    const G = view.G;
    const [fx, fy] = from === 25 ? view.xy(G.barA + G.barW / 2, G.C / 2) : view.slot(from, 0, 1);
    const box = node.getBBox();
    const dx = fx - (box.x + box.width / 2), dy = fy - (box.y + box.height / 2);
    node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
      { duration: 220 * speed, delay: i * 180 * speed, easing: "ease-out", fill: "backwards" });
  });
}

/** The last move of the game shown (the opponent's, or the last one for a spectator). */
function lastMove() {
  const moves = page.state.game.moves;
  for (let i = moves.length - 1; i >= 0; i--) {
    if (moves[i].color !== page.state.you || page.state.you === "spectator") return moves[i];
  }
  return null;
}

/** The name of the person who plays `color`, where the page knows it (a bot's seat has none). */
function nameOf(color) {
  const p = page.state.players[color];
  return p && p.kind !== "bot" && p.name ? p.name : null;
}

/** The player of `color` in a word: his name where it is known, else his colour. */
function whoName(color) { return nameOf(color) ?? colorName(color); }

/** A viewer who plays a seat of his own here (not a spectator, not two players on one device). */
function ownSeat() { return page.state.you !== "spectator" && !hotSeat; }

/** The string `key` about the player of `color`: its "…Named" words with his name where it is
 * known ("Nikos to play"; Greek says a name otherwise than a colour), else with his colour. */
function tWho(key, color, vars = {}) {
  const name = nameOf(color);
  return name ? t(`${key}Named`, { ...vars, who: name }) : t(key, { ...vars, who: colorName(color) });
}

/** "Black played 6-3: 13/7 13/10 · " when the opponent moved last, to lead the status line. */
function theirLast() {
  const m = page.state.game.moves[page.state.game.moves.length - 1];
  if (!m || m.color === page.state.you) return "";
  return `${tWho("played", m.color, { dice: diceText(m.dice), play: moveText(m) })} · `;
}

/** A play in standard notation from the mover's side (common.js, playWords); m.color is the mover
 * (the side on turn if none). */
function moveText(m, blackNumbers = page.state.game.black_numbers) {
  return playWords(m.steps, m.color || page.state.turn, blackNumbers);
}

function openingText(g, index) {
  if (!g.opening.length) {
    const starter = g.moves.length ? g.moves[0].color : page.state.turn;
    return tWho("openingWinner", starter);
  }
  const ties = g.opening.filter(([w, b]) => w === b).map(([w]) => w);
  const [w, b] = g.opening[g.opening.length - 1];
  const decided = t("openingRoll", { w, b, who: colorName(w > b ? "white" : "black") });
  return ties.length ? `${t("openingTies", { list: ties.join(", ") })} · ${decided}` : decided;
}

/** The endings that are one player's doing: whose, the reader is told. */
const SOMEONES = new Set(["resigned", "resigned-gammon", "resigned-match", "claimed", "time"]);

/** Why a game ended, in words; a game resigned for 2 points is a gammon resigned. A resignation, an
 * absence or a clock run out is the loser's: to him it is his own ("your time ran out"), to the
 * others the opponent's, by name where it is known ("Nikos's time ran out"). */
function whyText(r) {
  const why = r.why === "resigned" && r.points === 2 ? "resigned-gammon" : r.why;
  if (!SOMEONES.has(why) || !r.winner) return t(`why-${why}`);
  const loser = other(r.winner);
  if (ownSeat() && page.state.you === loser) return t(`why-${why}-you`);
  const name = nameOf(loser);
  return name ? t(`why-${why}-named`, { who: name }) : t(`why-${why}`);
}

function resultText(g) {
  const r = g.result;
  if (!r) return "";
  const variant = gameName(g.variant);
  if (!r.winner) return t("gameTied", { n: g.index + 1, variant, why: whyText(r) });
  const vars = { n: g.index + 1, variant, points: r.points, pts: r.points === 1 ? t("point") : t("pointsWord"),
    why: whyText(r) };
  return ownSeat() && r.winner === page.state.you ? t("gameWonYou", vars) : tWho("gameWon", r.winner, vars);
}

/** The game the panel shows: the one going on, or the one just finished, as it ended, until the
 * player goes on (its name, pips and turns, while the next game may have begun already). */
function panelGame() {
  const g = page.reviewing !== null ? page.state.games[page.reviewing] : null;
  if (!g || !g.final || !g.turns) return page.state.game;
  return { index: g.index, variant: g.variant, moves: g.turns, pips: g.final.pips, black_numbers: g.final.black_numbers,
    result: g.result, finished: g };
}

/** A rated match's player's rating in its pool, after his name: " (1623)", or " (1500?)" while
 * it is provisional, as the leaderboard marks it (the state's `players.*.rating`); nothing in a
 * casual match or for a guest. The rating the match began with, even once it is over. */
function seatRating(p, color) {
  if (!p.rating) return [];
  const mark = document.createElement("span");
  mark.className = "seat-rating";
  mark.dataset.testid = `rating-${color}`;
  mark.textContent = `(${p.rating.shown})`;
  const games = page.state.settings.games;  // a rated match's pool: one game alone, or the three in turn
  mark.title = [t("seatRatingTitle", { pool: poolName(games.length === 1 ? games[0] : "tavli") }),
    p.rating.provisional ? t("provisionalNote") : ""].filter(Boolean).join(" ");
  return [" ", mark];
}

function renderPanel() {
  const s = page.state;
  const game = panelGame();
  const variant = gameName(game.variant);
  const number = document.createElement("span");
  number.className = "game-number";
  number.textContent = `${t("gameNumber", { n: game.index + 1 })} · `;
  $("game-name").replaceChildren(number, variant);  // the number gives way on a narrow screen
  $("score").innerHTML = "";
  $("score").append(dot("white"), ` ${t("score", { w: s.score.white, b: s.score.black, n: s.settings.length })} `, dot("black"));
  $("watching").hidden = s.you !== "spectator";
  document.body.classList.toggle("clocked", !!s.clock);  // a phone shows the clocks over the board
  for (const color of ["white", "black"]) {
    const p = s.players[color];
    const mine = s.you === color && !hotSeat;
    const row = $(`player-${color}`);
    // a bot is always there: only a person's presence is news; an account's name links to his
    // page, a guest's is marked as one
    const named = p.name && p.kind !== "bot" ? [...shownName(p.name, p.account), ...seatRating(p, color)] : null;
    const who = named ? (mine ? [...named, ` (${t("you")})`] : named) : [mine ? t("you") : t("human")];
    // the player's own presence is no news to him
    const presence = mine ? [] : [` · ${p.connected ? t("connected") : p.joined ? t("away") : t("notJoined")}`];
    if (p.kind === "bot") row.querySelector(".name").textContent = `${colorName(color)} · ${botName(p.level)}`;
    else row.querySelector(".name").replaceChildren(`${colorName(color)} · `, ...who, ...presence);
    const onTurn = s.turn === color && !s.over && !s.waiting && game === s.game;
    row.classList.toggle("on-turn", onTurn);
    // a phone's strip over the board: the name (or the colour), the clock, whose turn it is
    const chip = $(`chip-${color}`);
    const chipName = chip.querySelector(".chip-name");
    chipName.textContent = p.kind === "bot" ? botName(p.level) : p.name || (mine ? t("you") : colorName(color));
    if (p.kind !== "bot" && p.name && p.rating) {  // the rating under the name, so that neither crowds out the other
      const [name, rating] = [document.createElement("span"), document.createElement("span")];
      name.textContent = p.name;
      rating.className = "chip-rating";
      rating.dataset.testid = `chip-rating-${color}`;
      rating.textContent = p.rating.shown;
      chipName.replaceChildren(name, rating);
    }
    chip.title = row.querySelector(".name").textContent;
    chip.classList.toggle("on-turn", onTurn);
    chip.classList.toggle("away", p.kind !== "bot" && !mine && !p.connected);
    $(`pips-${color}`).textContent = `${game.pips[color]} ${t("pips")}`;
  }
  // no roll-off to show before both players are here
  $("opening").textContent = game.finished ? resultText(game.finished) : s.waiting ? "" : openingText(s.game, s.game.index);
  const list = $("moves");
  list.innerHTML = "";
  for (const m of game.moves) {
    const li = document.createElement("li");
    li.className = m.color;
    li.textContent = `${whoName(m.color)} ${diceText(m.dice)}: ${moveText(m, game.black_numbers)}`;
    list.append(li);
  }
  list.scrollTop = list.scrollHeight;
  $("commitment").textContent = s.game.commitment || "";
  $("rules-link").href = `/rules#${game.variant}`;
  $("rules-link").textContent = t("rulesFor", { game: variant });

  const mine = s.you === s.turn && !s.over;
  const complete = input.play();
  const myOffer = s.offer && s.offer.from === s.you;
  const frozen = page.reviewing !== null;
  $("roll").hidden = !s.can_roll || myOffer || frozen;
  $("undo").hidden = !(s.can_play && input.made.length > 0) || frozen;
  $("hint").hidden = !(s.coach && s.can_play) || myOffer || frozen;
  $("tutor-label").hidden = !s.coach || s.you === "spectator";
  $("coach-badge").hidden = !s.coach;
  $("rated-badge").hidden = !s.settings.rated;
  $("game-over-review").hidden = s.you === "spectator";
  if (!s.can_play) $("tutor-panel").hidden = true;
  renderHint();
  $("confirm").hidden = !(s.can_play && complete !== null) || myOffer || frozen;
  $("typed").hidden = !s.can_play || !!myOffer || frozen;
  $("resign").hidden = s.you === "spectator" || s.over || frozen || s.waiting;
  // free before both players have played: no result, nothing rated
  $("abort").hidden = !s.can_abort || frozen;
  $("abort").title = t("abortTitle");
  if (!s.can_abort) $("abort-confirm").hidden = true;
  $("match-summary").hidden = !(s.over && page.matchOverClosed);  // the summary, a click away after "See the board"
  if (s.over) $("resign-confirm").hidden = true;
  $("resign").disabled = !!s.offer;
  for (const points of ["1", "2"]) document.querySelector(`[data-resign="${points}"]`).disabled = !s.can_resign;
  $("auto-roll-label").hidden = s.you === "spectator";
  $("notify-label").hidden = s.you === "spectator" || !("Notification" in window);  // a spectator has no turn
  renderChances();
  renderClaim();

  // an offer of the opponent's, to answer
  const theirOffer = s.offer && s.offer.from !== s.you && s.you !== "spectator" && s.offer.kind === "resign";
  $("offer").hidden = !theirOffer;
  if (theirOffer) $("offer-text").textContent = tWho("offerResign", s.offer.from, {
    points: s.offer.points, pts: s.offer.points === 1 ? t("point") : t("pointsWord") });

  renderWaiting();
  signalTurn();
  let status;
  if (s.waiting) status = s.you === "spectator" ? t("waitingBoth") : t("waitingTitle");
  else if (s.aborted) status = t("matchAborted");
  else if (s.over) status = s.you === "spectator" || hotSeat ? tWho("matchOver", s.winner, { w: s.score.white, b: s.score.black }) : (s.winner === s.you ? t("youWin") : t("youLose"));
  else if (frozen) status = resultText(s.games[page.reviewing]);
  else if (myOffer) status = t("offerWaiting");
  else if (theirOffer) status = t("offerToAnswer");
  else if (mine && s.can_roll) status = theirLast() + (hotSeat ? t("seatRoll", { who: colorName(s.you) }) : t("yourRoll"));
  else if (mine && s.can_play) {
    const dice = diceText(s.dice);
    status = complete !== null ? t("confirmMove") : theirLast() + (hotSeat ? t("seatMove", { who: colorName(s.you), dice }) : t("yourMove", { dice }));
  }
  else {
    const lastOne = s.game.moves[s.game.moves.length - 1];
    const who = s.players[s.turn];
    status = lastOne && lastOne.color === s.you && !lastOne.play ? `${t("passed", { dice: lastOne.dice.join("-") })} · ` : "";
    status += who.kind === "bot" ? t("thinking", { who: colorName(s.turn) }) : tWho("waiting", s.turn);
  }
  // the roll-off, in one line on the board while the game has no move yet; on a phone held
  // sideways the board has no free line, and the status beside it says it first
  const banner = $("banner");
  const opening = !(frozen || s.over || s.waiting || s.game.moves.length > 0 || !!s.dice && s.can_play);
  banner.hidden = !opening || sideways.matches;
  if (opening) banner.textContent = openingText(s.game, s.game.index);
  setStatus(opening && sideways.matches ? `${banner.textContent} · ${status}` : status);

  renderLinks();
  renderMatchOver();
}

/** The links this browser was given when it made the match ({friend, watch, open}), or null. */
function madeLinks() { return JSON.parse(localStorage.getItem(`tavli:links:${matchId}`) || "null"); }

/** Whether this page has an invitation to send: the match was made here for a friend or for anyone
 * (not a bot, not the lobby), and the opponent has not come yet. An open seat, once taken, stays
 * taken even while its taker is away. */
function inviting(s, links) {
  if (s.you === "spectator" || links === null || !(links.friend || links.open)) return false;
  const opponent = s.players[other(s.you)];
  return opponent.kind !== "bot" && !opponent.joined;
}

/** The invitation card while there is someone to invite; the spectators' link, a line at the foot
 * (the address alone where this browser has no link and the match is not private). */
function renderLinks() {
  const s = page.state;
  const links = madeLinks();
  const invite = inviting(s, links);
  $("share").hidden = !invite;
  if (invite) {
    $("share-friend-row").hidden = !links.friend;
    $("share-open").hidden = !links.open;
    $("share-friend").value = links.friend ? location.origin + links.friend : "";
  }
  const watch = links?.watch ? location.origin + links.watch
    : s.settings.private ? "" : `${location.origin}/match/${encodeURIComponent(matchId)}`;
  $("watch-line").hidden = !watch || s.you === "spectator";
  $("share-watch").value = watch;
}

/** The waiting room: until both players are here, the invitation to send, on the board itself; a
 * match with nothing to send (the lobby's) waits for its opponent, by name where it is known. */
function renderWaiting() {
  const s = page.state;
  const links = madeLinks();
  $("waiting").hidden = !s.waiting || s.you === "spectator";  // a spectator reads it in the status line
  if (!s.waiting) return;
  const sendable = s.you !== "spectator" && links !== null && (links.friend || links.open);
  const opponent = s.you === "spectator" ? null : s.players[other(s.you)];
  $("waiting-text").textContent = links?.open ? t("waitingOpen") : sendable ? t("waitingFriend")
    : opponent?.name ? t("awaitNamed", { who: opponent.name }) : t("awaitOpponent");
  $("invite").hidden = !sendable;
  if (sendable && !$("invite").dataset.done) $("invite").textContent = navigator.share ? t("shareInvite") : t("copyInvite");
}

/** The link that invites the opponent: the friend's seat, or the start page where the open seat is listed. */
function inviteLink() {
  const links = madeLinks();
  return links?.friend ? location.origin + links.friend : `${location.origin}/`;
}

async function invite() {
  const url = inviteLink();
  if (navigator.share) {  // the phone's share sheet: a message, a chat, whatever the friend reads
    try { await navigator.share({ title: t("title"), text: t("inviteText"), url }); return; } catch { /* closed: copy instead */ }
  }
  try { await navigator.clipboard.writeText(url); } catch { /* no clipboard: the link shows in the Invite card */ }
  const button = $("invite");
  button.dataset.done = "1";
  button.textContent = t("copied");
  setTimeout(() => { delete button.dataset.done; renderWaiting(); }, 1500);
}

// -- the turn signal: the tab's title and icon, a sound, a notification -------------------------
const ICON = (fill, ring) => "data:image/svg+xml," + encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="${fill}"`
  + `${ring ? ` stroke="${ring}" stroke-width="1.6"` : ""}/></svg>`);
const QUIET_ICON = ICON("#7a4a23", null), TURN_ICON = ICON("#2f7a3e", "#d9a521");

/** Whether the state asks something of the player here: his roll or move, or an answer. */
function myTurn(s) {
  if (s.you === "spectator" || s.over || s.waiting) return false;
  return s.can_roll || s.can_play || (!!s.offer && s.offer.from !== s.you);
}

/** The title ("● Your turn — Tavli") and the icon say it in the tab bar; a new turn also sounds
 * and, where the player allowed it and looks elsewhere, notifies. */
function signalTurn() {
  const mine = myTurn(page.state);
  document.title = mine ? t("titleTurn", { title: t("title") }) : t("title");
  const icon = document.querySelector("link[rel=icon]");
  if (icon) icon.href = mine ? TURN_ICON : QUIET_ICON;
  if (mine && !page.wasMyTurn && page.connectedOnce && !hotSeat) {
    sound("turn");
    if ($("notify").checked && document.hidden && window.Notification?.permission === "granted") {
      try { new Notification(t("titleTurn", { title: t("title") }), { body: t("notifyBody"), tag: `tavli-${matchId}` }); }
      catch { /* a browser that notifies only from a service worker */ }
    }
  }
  page.wasMyTurn = mine;
}

function dot(color) {
  const span = document.createElement("span");
  span.className = `dot ${color}`;
  return span;
}

function renderMatchOver() {
  const s = page.state;
  $("match-over").hidden = !s.over || page.matchOverClosed;
  if (!s.over) return;
  // Tavli TV (/tv sends a watcher here with ?tv): a while on the result, then the next match worth watching
  if (TV && s.you === "spectator" && page.tvNext === undefined) page.tvNext = setTimeout(() => location.assign("/tv"), TV_NEXT_MS);
  $("match-over-title").textContent = s.aborted ? t("matchAborted")
    : s.you === "spectator" || hotSeat ? tWho("matchOver", s.winner, { w: s.score.white, b: s.score.black })
    : (s.winner === s.you ? t("youWin") : t("youLose"));
  $("match-over-text").textContent = s.aborted ? t("matchAbortedText")
    : t("finalScoreOf", { white: whoName("white"), black: whoName("black"), w: s.score.white, b: s.score.black,
      n: s.settings.length });
  const lastGame = s.games[s.games.length - 1];
  // an aborted match has no game result: who called it off
  $("match-over-last").textContent = !s.aborted ? resultText(lastGame) : !s.aborted_by ? ""
    : ownSeat() && s.aborted_by === s.you ? t("abortedByYou") : tWho("abortedBy", s.aborted_by);
  $("match-over-ratings").hidden = !s.ratings;
  $("match-over-ratings").textContent = ratingsText(s.ratings);
  $("match-over-seed").textContent = lastGame.seed || "";
  const body = $("games-list");
  body.innerHTML = "";
  for (const g of s.games) {
    const tr = document.createElement("tr");
    const r = g.result || {};
    for (const text of [g.index + 1, gameName(g.variant),
      r.winner ? whoName(r.winner) : "–", r.points ?? "", r.why ? whyText(r) : ""]) {
      const td = document.createElement("td");
      td.textContent = String(text);
      tr.append(td);
    }
    body.append(tr);
  }
  const offer = s.offer && s.offer.kind === "rematch" ? s.offer : null;
  const player = s.you !== "spectator" && !s.aborted;  // an aborted match has no rematch and nothing to review
  $("match-over-review").hidden = s.aborted;
  $("rematch").hidden = !player || !!offer;
  $("rematch-accept").hidden = !(player && offer && offer.from !== s.you);
  $("rematch-decline").hidden = $("rematch-accept").hidden;
  $("rematch-status").textContent = !offer ? "" : offer.from === s.you ? t("rematchWaiting") : tWho("rematchOffered", offer.from);
  renderPrivate(s);
}

/** How a rated match moved both players' ratings ("Eleni 1500 → 1662 (+162,3)"), or why it moved
 * none (the farming rules, docs/ratings.md); nothing for a casual match. */
function ratingsText(r) {
  if (!r) return "";
  const pool = poolName(r.pool);
  if (!r.rated) return t(r.why === "often" ? "ratingsNotMovedOften" : "ratingsNotMovedEarly", { pool });
  const moves = ["white", "black"].filter((color) => r[color]).map((color) => {
    const { before, after } = r[color];
    const change = after - before;
    return t("ratingMove", { who: whoName(color), before: Math.round(before), after: Math.round(after),
      change: signed(change, 1) });
  });
  return t("ratingsMoved", { pool, moves: moves.join(" · ") });
}

/** A private match's players may open it to everyone once it is over. */
function renderPrivate(s) {
  const hidden = !s.settings.private || (s.settings.public && !page.madePublic);
  $("private-note").hidden = hidden;
  if (hidden) return;
  $("private-text").textContent = t(page.madePublic ? "madePublic" : "privateMatchNote");
  $("make-public").hidden = page.madePublic || s.you === "spectator";
}

async function makePublic() {
  $("make-public").disabled = true;
  try {
    const answer = await fetch(`/api/matches/${encodeURIComponent(matchId)}/public`, { method: "POST", headers: authorization() });
    page.madePublic = answer.ok;
  } catch { /* said below */ }
  $("make-public").disabled = false;
  renderPrivate(page.state);
  if (!page.madePublic) $("private-text").textContent = t("makePublicFailed");
}

function renderClaim() {
  const button = $("claim");
  const at = page.state.claim_at;
  button.hidden = at === null || at === undefined || page.state.over;
  if (button.hidden) return;
  const wait = Math.ceil(at - Date.now() / 1000);
  button.disabled = wait > 0 && !page.state.can_claim;
  button.textContent = button.disabled ? t("claimIn", { s: wait }) : t("claim");
}

/** A game that has just ended: its final position stays on the board with the result and the seed. */
function announceGames() {
  const finished = page.state.games.filter((g) => g.result);
  if (page.finishedSeen === null) { page.finishedSeen = finished.length; return; }
  if (finished.length > page.finishedSeen) {
    page.finishedSeen = finished.length;
    const g = finished[finished.length - 1];
    if (page.state.over) return;  // the match-over card says it all
    page.reviewing = g.index;
    $("game-over-text").textContent = resultText(g);
    $("game-over-seed").textContent = g.seed || "";
    $("game-over-fair").open = false;
    $("game-over-verdict").textContent = "";
    $("game-over").hidden = false;
  }
}

/** The page's token for the server's reads of the match: a private match's record, dice and
 * review are its players' and spectators' only (docs/web.md). A header, never the address. */
function authorization() { return token ? { Authorization: `Bearer ${token}` } : {}; }

/** Recompute a finished game's dice from its revealed seed, here in the browser. */
async function verifyDice(index, verdict) {
  verdict.textContent = "…";
  try {
    const answer = await fetch(`/api/matches/${encodeURIComponent(matchId)}/dice`, { headers: authorization() });
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

/** A line that goes by itself; `link` ({href, text}) adds a way to read more, and more time to take it. */
function toast(text, link = null) {
  const box = $("toast");
  box.textContent = text;
  if (link) {
    const a = document.createElement("a");
    a.href = link.href;
    a.target = "_blank";  // the rules beside the match, which goes on here
    a.textContent = link.text;
    a.dataset.testid = "toast-rule";
    box.append(a);
  }
  box.hidden = false;
  clearTimeout(page.toastTimer);
  page.toastTimer = setTimeout(() => { box.hidden = true; }, link ? 10000 : 4000);
}

// -- sounds (on unless the player turns them off; made on the spot by the Web Audio API) ---------
// A browser lets a page make sound only once the player has clicked, tapped or pressed a key on
// it: the AudioContext is made (or woken) at that first gesture, and a sound asked for before it
// is left unmade, quietly (no context made too early, so no warning in the console either).
function wakeAudio() {
  if (navigator.userActivation && !navigator.userActivation.isActive) return;  // not a gesture that allows sound
  page.gestured = true;
  if (!$("sounds").checked) return;
  try {
    page.audio = page.audio || new AudioContext();
    if (page.audio.state === "suspended") page.audio.resume().catch(() => {});
  } catch { page.audio = null; /* no sound on this browser */ }
}
for (const kind of ["pointerdown", "pointerup", "click", "keydown", "touchend"]) window.addEventListener(kind, wakeAudio, true);

function sound(kind) {
  if (!$("sounds").checked || !page.gestured) return;
  try {
    page.audio = page.audio || new AudioContext();
    const now = page.audio.currentTime;
    const clicks = kind === "dice" ? [0, 0.05, 0.11, 0.16] : kind === "turn" ? [0, 0.12] : [0];
    for (const at of clicks) {
      const osc = page.audio.createOscillator(), gain = page.audio.createGain();
      osc.type = "triangle";
      osc.frequency.value = kind === "dice" ? 900 + Math.random() * 500 : kind === "turn" ? 660 : 320;
      gain.gain.setValueAtTime(0.25, now + at);
      gain.gain.exponentialRampToValueAtTime(0.001, now + at + 0.07);
      osc.connect(gain).connect(page.audio.destination);
      osc.start(now + at);
      osc.stop(now + at + 0.08);
    }
  } catch { /* no sound on this browser */ }
}

// -- input --------------------------------------------------------------------------------------
input.listen($("board"), () => page.state && page.state.can_play && page.reviewing === null, (step) => {
  if (!step) { render(); return; }
  page.animateSteps.push([step[0], step[1], page.state.turn]);
  sound("move");
  if (setting("set-auto-confirm") === "1") finishForcedSteps();
  render();
  if (setting("set-auto-confirm") === "1" && input.play() !== null && input.nextSteps().length === 0) confirmMove();
});

/** Auto-confirm: the steps left that have one order only are made here, as the player would. */
function finishForcedSteps() {
  for (let guard = 0; guard < 4 && input.play() === null; guard++) {
    const next = input.nextSteps();
    if (next.length !== 1) return;
    input.step(next[0][0], next[0][1]);
    page.animateSteps.push([next[0][0], next[0][1], page.state.turn]);
  }
}

/** Auto bear-off: when the roll leaves one play only and it bears off, it is made at once. */
function autoBearOff() {
  if (setting("set-auto-bearoff") !== "1" || !page.state.can_play || page.reviewing !== null || input.made.length) return;
  const plays = page.state.legal?.plays || [];
  if (plays.length !== 1 || !/off/.test(plays[0]) || page.autoPlayed === page.state.seq) return;
  page.autoPlayed = page.state.seq;
  submitPlay(plays[0]);
}

$("roll").addEventListener("click", roll);
$("hint").addEventListener("click", askHint);
$("hints-close").addEventListener("click", () => { page.hint = null; renderHint(); });
$("invite").addEventListener("click", invite);
for (const id of Object.keys(SETTINGS)) {
  $(id).addEventListener("change", () => {
    const box = $(id);
    localStorage.setItem(SETTINGS[id][0], box.type === "checkbox" ? (box.checked ? "1" : "0") : box.value);
    render();
  });
}
showSettings();
$("notify-label").hidden = !("Notification" in window);
$("notify").checked = localStorage.getItem("tavli:notify") === "1";
$("notify").addEventListener("change", async () => {
  if ($("notify").checked && window.Notification && Notification.permission === "default") {
    await Notification.requestPermission();
  }
  if ($("notify").checked && window.Notification?.permission === "denied") $("notify").checked = false;
  localStorage.setItem("tavli:notify", $("notify").checked ? "1" : "0");
});
$("tutor-play").addEventListener("click", () => {
  $("tutor-panel").hidden = true;
  if (page.state.can_play) send({ type: "play", seq: page.state.seq, play: $("tutor-panel").dataset.play });
});
$("tutor-cancel").addEventListener("click", () => {
  $("tutor-panel").hidden = true;
  input.clear();
  render();
});
$("tutor").checked = localStorage.getItem("tavli:tutor") === "1";
$("tutor").addEventListener("change", () => localStorage.setItem("tavli:tutor", $("tutor").checked ? "1" : "0"));
const reviewLink = `/match/${encodeURIComponent(matchId)}/review`;
$("match-over-review").href = reviewLink;
$("game-over-review").href = `${reviewLink}#t=${encodeURIComponent(token)}`;
$("undo").addEventListener("click", undo);
$("confirm").addEventListener("click", confirmMove);
$("typed").addEventListener("submit", typedMove);
$("claim").addEventListener("click", claim);
$("game-over-close").addEventListener("click", () => {
  $("game-over").hidden = true;
  page.reviewing = null;
  render();
  if (page.state.can_roll && $("auto-roll").checked) roll();
});
$("game-over-check").addEventListener("click", () => verifyDice(page.finishedSeen - 1, $("game-over-verdict")));
$("match-over-check").addEventListener("click", () => verifyDice(page.state.games.length - 1, $("match-over-verdict")));
$("make-public").addEventListener("click", makePublic);
$("download-record").addEventListener("click", async (event) => {
  if (!token) return;  // watched by its address: the link as it is (the match is not private)
  event.preventDefault();  // fetched with the token, which a link cannot send
  const answer = await fetch($("download-record").href, { headers: authorization() });
  if (!answer.ok) return;
  const file = document.createElement("a");
  file.href = URL.createObjectURL(await answer.blob());
  file.download = $("download-record").download;
  file.click();
  setTimeout(() => URL.revokeObjectURL(file.href), 60_000);
});
$("match-over-close").addEventListener("click", () => { page.matchOverClosed = true; renderMatchOver(); renderPanel(); });
$("resign").addEventListener("click", () => { $("resign-menu").hidden = !$("resign-menu").hidden; });
$("abort").addEventListener("click", () => { $("abort-confirm").hidden = false; });
$("abort-yes").addEventListener("click", () => {
  $("abort-confirm").hidden = true;
  send({ type: "abort", seq: page.state.seq });
});
$("abort-no").addEventListener("click", () => { $("abort-confirm").hidden = true; });
$("resign-cancel").addEventListener("click", () => { $("resign-menu").hidden = true; });
for (const button of document.querySelectorAll("[data-resign]")) {
  button.addEventListener("click", () => {
    $("resign-menu").hidden = true;
    $("toast").hidden = true;
    const what = button.dataset.resign;
    if (what === "match") confirmResignMatch();
    else send({ type: "resign", seq: page.state.seq, points: Number(what) });
  });
}
/** The whole match goes at once and for good: the player says so twice, seeing the score it ends at. */
function confirmResignMatch() {
  const winner = page.state.you === "white" ? "black" : "white";
  const score = { ...page.state.score, [winner]: Math.max(page.state.score[winner], page.state.settings.length) };
  $("resign-confirm-text").textContent = tWho("resignMatchAsk", winner, { w: score.white, b: score.black });
  $("resign-confirm").hidden = false;
}
$("resign-confirm-yes").addEventListener("click", () => {
  $("resign-confirm").hidden = true;
  send({ type: "resign", seq: page.state.seq, match: true });
});
$("resign-confirm-no").addEventListener("click", () => { $("resign-confirm").hidden = true; });
$("match-summary").addEventListener("click", () => { page.matchOverClosed = false; renderMatchOver(); renderPanel(); });
$("offer-accept").addEventListener("click", () => send({ type: "answer", seq: page.state.seq, accept: true }));
$("offer-decline").addEventListener("click", () => send({ type: "answer", seq: page.state.seq, accept: false }));
$("rematch").addEventListener("click", () => send({ type: "rematch", seq: page.state.seq }));
$("rematch-accept").addEventListener("click", () => send({ type: "answer", seq: page.state.seq, accept: true }));
$("rematch-decline").addEventListener("click", () => send({ type: "answer", seq: page.state.seq, accept: false }));
$("auto-roll").checked = localStorage.getItem("tavli:auto-roll") === "1";
$("auto-roll").addEventListener("change", () => {
  localStorage.setItem("tavli:auto-roll", $("auto-roll").checked ? "1" : "0");
  if ($("auto-roll").checked && page.state && page.state.can_roll && page.reviewing === null) roll();
});
$("chances-on").addEventListener("change", () => {
  if (!page.state) return;
  localStorage.setItem(chancesKey(), $("chances-on").checked ? "1" : "0");
  askChances();
  renderChances();
});
$("sounds").checked = localStorage.getItem("tavli:sounds") !== "0";  // on unless the player turned them off
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
  if (event.key === "r" && page.state?.can_roll && page.reviewing === null) roll();
  if (event.key === "Enter" && input.play() !== null) confirmMove();
  if ((event.key === "Backspace" || event.key === "u") && input.made.length) undo();
});
window.addEventListener("resize", () => render());
setInterval(() => { if (page.state) renderClaim(); }, 1000);
setInterval(() => { for (const conn of connections) if (conn.socket && page.state?.clock) ping(conn.socket); }, 5000);
languageSwitch($("lang"), () => { render(); chat.render(); if (typeof page.gaveUp === "string") $("bad-link-text").textContent = t(page.gaveUp); });
translatePage();
if (!matchId) badLink("badLink");
else {
  for (const held of hotSeat ? [token, token2] : [token]) connections.push({ token: held, socket: null, retry: 0, seat: null });
  connections.forEach(connect);
  // who this browser is changed (a login or a logout on another of its pages): each connection is
  // opened again, as him (a signed-in player's seat is his account's, on any device)
  onWhoChanges(() => { for (const conn of connections) conn.socket?.close(); });
}
