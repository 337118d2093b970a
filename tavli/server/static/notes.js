// A person's own notes on every page of the café (docs/cafe.md, "Challenges"): one WebSocket a page,
// /ws/lobby, opened here for every page by the common head. The start page's carries the lobby's
// seeks and counts too (lobby.js listens with `onLobby`); every other page's (`?only=notes`, for a
// signed-in player) only what is his: his match made (the page goes to its board), the challenges
// he is sent (a card: Accept, Decline) and those he sent (Cancel; the answer told in words), and a
// moderator's notices (a warning, his chat closed, his account renamed: a card until he says "I
// understand"), and his tournament's pairing (the page goes to his board: docs/tournaments.md). A
// later note of one person's (a daily turn) is a type of message and its handler here. His account
// closed by a moderator, the server closes the socket with code 4003: the page says so once. Names
// are data: set as text, never as markup.
import { $, clockName, gamesName } from "/static/common.js";
import { CLOCK_PRESETS, GAMES } from "/static/games.js";
import { button, dateTimeText, keepMine, onWhoChanges, whoAmI, whoChanged, whoChangedHere } from "/static/session.js";
import { sayable, t } from "/static/strings.js";

const START = document.body.classList.contains("start-page");
const PERSONAL = new Set(["paired", "challenges", "challenge", "challenge-gone", "notice", "tournament-match"]);
const ACCOUNT_CLOSED = 4003;  // the close code of a socket whose account a moderator closed
const lobbyListeners = [];
let held = [];              // the lobby's messages that came before lobby.js listened
let socket = null;
let retry = 0;
let challenges = new Map(); // id → a challenge sent or received, as the server shows it
let told = [];              // challenges gone, said in words: [{id, key, name}]
let notices = new Map();    // id → a moderator's notice not yet acknowledged
let closedAccount = false;  // this page was told its account is closed (said once)

/** `listener(message)` hears the lobby's messages (the start page's seeks, counts, players). */
export function onLobby(listener) {
  lobbyListeners.push(listener);
  for (const message of held) listener(message);
  held = [];
}

/** A match made for this person: on to its board (from whatever page he is on). */
function paired(seat) {
  keepMine(seat.match, seat.token);
  location.assign(seat.play);
}

/** Open this page's connection; `previous` (the one it replaces) is closed once it is open. */
function connect(previous = null) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  // the start page takes the lobby's news gathered (a quarter of a second at a time): fewer messages
  const mine = new WebSocket(`${scheme}://${location.host}/ws/lobby${START ? "?batch=1" : "?only=notes"}`);
  socket = mine;
  mine.addEventListener("open", () => { retry = 0; previous?.close(); });
  mine.addEventListener("message", (event) => {
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    if (msg.type === "paired") { paired(msg); return; }  // a match made for who this browser was, too
    if (socket !== mine) return;  // the rest is the new connection's to say
    if (PERSONAL.has(msg.type)) { heard(msg); return; }
    for (const news of msg.type === "batch" ? msg.messages : [msg]) {
      if (lobbyListeners.length) for (const listener of lobbyListeners) listener(news);
      else held.push(news);
    }
  });
  mine.addEventListener("close", (event) => {
    previous?.close();
    if (event.code === ACCOUNT_CLOSED) { accountClosed(); return; }
    if (socket !== mine) return;
    retry += 1;
    setTimeout(() => { if (socket === mine) connect(); }, Math.min(5000, 250 * 2 ** Math.min(retry, 5)));
  });
}

/** No connection (a guest off the start page has no notes). */
function disconnect() {
  const old = socket;
  socket = null;
  old?.close();
}

/** A moderator closed this account: said once, and the page is a guest's from now (his sessions
 * are over: no connection of his to open again). */
function accountClosed() {
  if (closedAccount) return;
  closedAccount = true;
  whoChangedHere(null);
}

/** A tournament paired this player: on to his board, from whatever page he is on (unless he is
 * there already). A signed-in player's session takes his seat there: no token to keep. */
function tournamentMatch(msg) {
  const board = `/match/${encodeURIComponent(msg.match)}`;
  if (location.pathname !== board) location.assign(board);
}

function heard(msg) {
  if (msg.type === "tournament-match") { tournamentMatch(msg); return; }
  if (msg.type === "notice") notices.set(msg.notice.id, msg.notice);
  else if (msg.type === "challenges") challenges = new Map(msg.challenges.map((c) => [c.id, c]));
  else if (msg.type === "challenge") challenges.set(msg.challenge.id, msg.challenge);
  else if (msg.type === "challenge-gone") {
    challenges.delete(msg.id);
    const key = goneWords(msg);
    if (key) told = [...told.filter((n) => n.id !== msg.id), { id: msg.id, key, name: msg.mine ? msg.to : msg.from }];
  }
  render();
}

/** The words for a challenge gone, for the one it is told to (none where he did it himself). */
function goneWords(msg) {
  if (msg.why === "accepted") return null;  // the page goes to the board
  if (msg.mine) return msg.why === "cancelled" ? null : `challengeGoneMine-${msg.why}`;
  return msg.why === "declined" ? null : `challengeGone-${msg.why}`;
}

/** What a challenge asks for, in words: "5 points of Tavli, Kafeneio 8 s + 1 min, rated". */
function challengeWhat(c) {
  return t("challengeWhat", { n: c.length, games: gamesName(c.games), clock: clockName(c.clock),
    rated: c.rated ? t("ratedMark") : t("casual") });
}

function line(text, testid) {
  const p = document.createElement("p");
  p.textContent = text;  // a name in it is text, never markup
  if (testid) p.dataset.testid = testid;
  return p;
}

async function post(method, path) {
  const answer = await fetch(path, { method, headers: { "Content-Type": "application/json" },
    body: method === "POST" ? "{}" : undefined }).catch(() => null);
  return [answer, answer ? await answer.json().catch(() => ({})) : {}];
}

/** A challenge received: Accept (on to the board) or Decline; one sent: Cancel. */
function challengeCard(c) {
  const card = document.createElement("div");
  card.className = `note-card${c.mine ? " mine" : ""}`;
  card.dataset.testid = c.mine ? "challenge-sent" : "challenge-card";
  const error = line("", "challenge-card-error");
  error.className = "error";
  const path = `/api/challenges/${encodeURIComponent(c.id)}`;
  const act = (run) => async (event) => {
    for (const b of card.querySelectorAll("button")) b.disabled = true;
    const [answer, body] = await run();
    if (answer?.ok) return;
    error.textContent = sayable(body.reason) ?? t("startFailed");
    for (const b of card.querySelectorAll("button")) b.disabled = false;
    event.target.focus();
  };
  const row = document.createElement("div");
  row.className = "row";
  if (c.mine) {
    card.append(line(t("challengeSent", { name: c.to, what: challengeWhat(c) }), "challenge-text"));
    row.append(button("cancel", "challenge-cancel", act(async () => {
      const done = await post("DELETE", path);
      if (done[0]?.ok) { challenges.delete(c.id); render(); }
      return done;
    }), "secondary"));
  } else {
    card.append(line(t("challengeFrom", { name: c.from, what: challengeWhat(c) }), "challenge-text"));
    row.append(button("accept", "challenge-accept", act(async () => {
      const done = await post("POST", `${path}/accept`);
      if (done[0]?.ok) paired(done[1]);
      return done;
    }), "primary"), button("decline", "challenge-decline", act(async () => {
      const done = await post("POST", `${path}/decline`);
      if (done[0]?.ok) { challenges.delete(c.id); render(); }
      return done;
    }), "secondary"));
  }
  card.append(row, error);
  return card;
}

/** A moderator's notice, in words: his warning's own words, the chat closed until when, the new
 * name. */
function noticeWords(notice) {
  if (notice.action === "mute") return t("noticeMute", { date: dateTimeText(notice.until) });
  if (notice.action === "rename") return t("noticeRename", { name: notice.name });
  return notice.note;
}

/** A notice, until "I understand" (the server then sends it no more). */
function noticeCard(notice) {
  const card = document.createElement("div");
  card.className = "note-card notice";
  card.dataset.testid = "notice-card";
  card.setAttribute("role", "alert");
  const title = line(t(notice.action === "warn" ? "noticeWarnTitle" : "noticeTitle"), "notice-title");
  title.className = "notice-title";
  const words = line(noticeWords(notice), "notice-text");
  words.dir = "auto";
  // a mute's or a renaming's reason, as the moderator gave it (a warning's words are its text)
  const reason = notice.action !== "warn" && notice.note ? line(t("noticeReason", { reason: notice.note }), "notice-reason") : null;
  if (reason) reason.dir = "auto";
  const error = line("", "notice-error");
  error.className = "error";
  const seen = button("noticeSeen", "notice-seen", async () => {
    seen.disabled = true;
    const [answer, body] = await post("POST", `/api/notices/${encodeURIComponent(notice.id)}/seen`);
    if (answer?.ok) {
      notices.delete(notice.id);
      render();
      if (notice.action === "rename") whoChanged(notice.name);  // the header's name, on each of his pages
      return;
    }
    error.textContent = sayable(body.reason) ?? t("requestFailed");
    seen.disabled = false;
  }, "primary");
  card.append(...[title, words, reason, seen, error].filter(Boolean));
  return card;
}

/** His account closed by a moderator. */
function closedCard() {
  const card = document.createElement("div");
  card.className = "note-card told";
  card.dataset.testid = "account-closed";
  card.setAttribute("role", "alert");
  const close = button("closeNote", "account-closed-close", () => {
    closedAccount = "said";
    render();
  });
  card.append(line(t("accountClosed"), "account-closed-text"), close);
  return card;
}

function toldCard(note) {
  const card = document.createElement("div");
  card.className = "note-card told";
  card.dataset.testid = "challenge-note";
  const close = button("closeNote", "challenge-note-close", () => {
    told = told.filter((n) => n !== note);
    render();
  });
  card.append(line(t(note.key, { name: note.name }), "challenge-note-text"), close);
  return card;
}

/** The cards, in a corner of whatever page this is. */
function render() {
  let box = $("notes");
  if (!box) {
    box = document.createElement("div");
    box.id = "notes";
    box.className = "notes";
    box.dataset.testid = "notes";
    box.setAttribute("aria-live", "polite");
    document.body.append(box);
  }
  box.replaceChildren(...(closedAccount === true ? [closedCard()] : []), ...[...notices.values()].map(noticeCard),
    ...[...challenges.values()].map(challengeCard), ...told.map(toldCard));
  box.hidden = box.childElementCount === 0;
}

function option(value, key) {
  return new Option(t(key), value);
}

function labelled(key, control) {
  const label = document.createElement("label");
  const words = document.createElement("span");
  words.textContent = t(key);
  label.append(words, control);
  return label;
}

/**
 * The challenge to `name`, chosen in `box` (his page, the lobby's list of players online): the
 * length, the games (the Tavli sequence or one game), the clock, rated or not; Send. `done()` once
 * it is sent (the form is gone then).
 */
export function challengeForm(box, name, done = () => {}) {
  const form = document.createElement("form");
  form.className = "challenge-form";
  form.dataset.testid = "challenge-form";
  const title = line(t("challengeTitle", { name }), "challenge-title");
  title.className = "challenge-title";
  const length = document.createElement("select");
  length.dataset.testid = "challenge-length";
  for (const n of [3, 5, 7]) length.append(new Option(String(n), String(n)));
  length.value = "5";
  const games = document.createElement("select");
  games.dataset.testid = "challenge-games";
  games.append(option("tavli", "orderTavli"), ...GAMES.map((g) => option(g, `game-${g}`)));
  const clock = document.createElement("select");
  clock.dataset.testid = "challenge-clock";
  clock.append(...Object.keys(CLOCK_PRESETS).map((c) => option(c, `clockShort-${c}`)), option("none", "clock-none"));
  const rated = document.createElement("input");
  rated.type = "checkbox";
  rated.dataset.testid = "challenge-rated";
  const ratedLabel = labelled("ratedChoice", rated);
  ratedLabel.className = "check";
  ratedLabel.prepend(rated);
  const send = document.createElement("button");
  send.type = "submit";
  send.className = "primary";
  send.dataset.testid = "challenge-send";
  send.textContent = t("challengeSend");
  const error = line("", "challenge-error");
  error.className = "error";
  error.setAttribute("role", "alert");
  const fields = document.createElement("div");
  fields.className = "seek-form";
  fields.append(labelled("length", length), labelled("games", games), labelled("clock", clock), ratedLabel);
  form.append(title, fields, send, error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    send.disabled = true;
    error.textContent = "";
    const answer = await fetch("/api/challenges", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ to: name, length: Number(length.value), games: games.value, clock: clock.value,
        rated: rated.checked }) }).catch(() => null);
    const body = answer ? await answer.json().catch(() => ({})) : {};
    send.disabled = false;
    if (!answer?.ok) { error.textContent = sayable(body.reason) ?? t("startFailed"); return; }
    challenges.set(body.id, body);
    render();
    form.remove();
    done();
  });
  box.replaceChildren(form);
  length.focus();
}

async function start() {
  if (START) {
    try { await fetch("/api/seeks", { cache: "no-store" }); } catch { /* the socket says it again */ }
    connect();
  } else if (await whoAmI()) {
    connect();
  }
}

// who this browser is changed: the server knows a connection's person from its cookies as it
// opens, so a new one is opened as him, and the old one closed once it is open
onWhoChanges((name) => {
  challenges = new Map();
  told = [];
  notices = new Map();
  render();
  if (START || name) connect(socket);
  else disconnect();
});
// the page's language changed: the cards say it in the new one
new MutationObserver(render).observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
start();
