// The start page's lobby: the seeks listed live (pushed over /ws/lobby), a seek posted, cancelled or
// accepted in one click, "play now", the counts of players online and matches in play; the page
// goes to the board as soon as the server says a match is made (docs/cafe.md, "Lobby").
import { $, gamesName } from "/static/common.js";
import { CLOCK_PRESETS } from "/static/games.js";
import { keepMine, onWhoChanges, shownName } from "/static/session.js";
import { sayable, t } from "/static/strings.js";

let seeks = [];            // as the server lists them, oldest first
let counts = null;         // {online, playing}
let bot = null;            // a bot offered after waiting alone in "play now": {level, rating}
let loggedIn = () => false;
let socket = null;
let retry = 0;

/** Start the lobby; ``isLoggedIn()`` says whether a rated seek may be posted. */
export async function startLobby(isLoggedIn) {
  loggedIn = isLoggedIn;
  $("seek-post").addEventListener("click", () => postSeek("/api/seeks"));
  $("seek-play-now").addEventListener("click", () => postSeek("/api/play"));
  $("seek-bot").addEventListener("click", playBot);
  try { await fetch("/api/seeks", { cache: "no-store" }); } catch { /* the socket says it again */ }
  connect();
  onWhoChanges(reopen);
}

/** Who this browser is changed: the server knows the person of a lobby connection from its
 * cookies as it opens, so a new one is opened as him (his seeks, his pairings), and the old one
 * closed once it is open (a guest's seek goes with him: docs/cafe.md, "Lobby"). */
function reopen() {
  bot = null;
  connect(socket);
}

/** Open the lobby's connection; `previous` (the one it replaces) is closed once it is open. */
function connect(previous = null) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const mine = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
  socket = mine;
  mine.addEventListener("open", () => { retry = 0; previous?.close(); });
  mine.addEventListener("message", (event) => {
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    if (msg.type === "paired") { paired(msg); return; }  // a match made for who this browser was, too
    if (socket !== mine) return;  // the rest is the new connection's to say
    if (msg.type === "seeks") { seeks = msg.seeks; counts = { online: msg.online, playing: msg.playing }; }
    else if (msg.type === "seek") seeks = [...seeks.filter((s) => s.id !== msg.seek.id), msg.seek];
    else if (msg.type === "gone") seeks = seeks.filter((s) => s.id !== msg.id);
    else if (msg.type === "counts") counts = { online: msg.online, playing: msg.playing };
    else if (msg.type === "bot") bot = { level: msg.level, rating: msg.rating };
    renderLobby();
  });
  mine.addEventListener("close", () => {
    previous?.close();
    if (socket !== mine) return;
    retry += 1;
    setTimeout(() => connect(), Math.min(5000, 250 * 2 ** Math.min(retry, 5)));
  });
}

/** A match made for this player: on to its board. */
function paired(seat) {
  keepMine(seat.match, seat.token);
  location.assign(seat.play);
}

function request() {
  const name = localStorage.getItem("tavli:name") || "";
  return {
    length: Number($("seek-length").value), games: $("seek-games").value, clock: $("seek-clock").value,
    ...(loggedIn() && $("seek-rated").checked ? { rated: true } : {}),
    ...(name && !loggedIn() ? { name } : {}),
  };
}

async function postSeek(path) {
  $("seek-error").textContent = "";
  bot = null;
  const answer = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(request()) }).catch(() => null);
  const body = answer ? await answer.json().catch(() => ({})) : {};
  if (answer && answer.ok && body.paired) { paired(body.paired); return; }
  if (!answer || !answer.ok) $("seek-error").textContent = sayable(body.reason) ?? t("startFailed");
  else if (!seeks.some((s) => s.id === (body.seek || body).id)) seeks = [...seeks, body.seek || body];
  renderLobby();
}

async function cancel(id, button) {
  button.disabled = true;
  await fetch(`/api/seeks/${encodeURIComponent(id)}`, { method: "DELETE" }).catch(() => null);
  seeks = seeks.filter((s) => s.id !== id);
  bot = null;
  renderLobby();
}

async function accept(id, button) {
  button.disabled = true;
  $("seek-error").textContent = "";
  const name = localStorage.getItem("tavli:name") || "";
  const answer = await fetch(`/api/seeks/${encodeURIComponent(id)}/accept`, { method: "POST",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(name && !loggedIn() ? { name } : {}) })
    .catch(() => null);
  const body = answer ? await answer.json().catch(() => ({})) : {};
  if (answer && answer.ok) { paired(body); return; }
  $("seek-error").textContent = answer?.status === 409 ? t("seekTaken") : (sayable(body.reason) ?? t("startFailed"));
  button.disabled = false;
}

/** Alone too long in "play now": the bot offered, a match against it made at once. */
async function playBot() {
  const mine = seeks.find((s) => s.mine);
  if (mine) await fetch(`/api/seeks/${encodeURIComponent(mine.id)}`, { method: "DELETE" }).catch(() => null);
  const { length, games } = request();
  const answer = await fetch("/api/matches", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ opponent: bot.level, length, games }) }).catch(() => null);
  if (answer && answer.ok) paired(await answer.json());
}

function clockName(clock) {
  if (!clock) return t("clock-none");
  for (const [name, [d, r]] of Object.entries(CLOCK_PRESETS)) {
    if (clock.delay === d && clock.reserve === r) return t(`clockShort-${name}`);
  }
  return t("clockCustom", { delay: clock.delay, reserve: clock.reserve });
}

function seekRow(s) {
  const li = document.createElement("li");
  li.dataset.testid = "seek";
  const about = document.createElement("span");
  about.append(...(s.name ? shownName(s.name, s.account) : [t("guest")]), ` (${s.rating}) · `,
    [gamesName(s.games), t("toPoints", { n: s.length }), clockName(s.clock), s.rated ? t("ratedMark") : t("casual"),
      ...(s.range ? [t("ratingRange", { low: s.range[0], high: s.range[1] })] : []),
      ...(s.quick ? [t("playNowMark")] : [])].join(" · "));
  const button = document.createElement("button");
  button.type = "button";
  if (s.mine) {
    button.textContent = t("cancel");
    button.dataset.testid = "seek-cancel";
    button.className = "secondary";
    button.addEventListener("click", () => cancel(s.id, button));
  } else {
    button.textContent = t("accept");
    button.dataset.testid = "seek-accept";
    button.addEventListener("click", () => accept(s.id, button));
  }
  li.append(about, button);
  return li;
}

export function renderLobby() {
  $("seek-list").replaceChildren(...seeks.map(seekRow));
  $("seek-none").hidden = seeks.length > 0;
  $("seek-rated-label").hidden = !loggedIn();
  $("lobby-counts").textContent = counts
    ? [t(counts.online === 1 ? "lobbyOnlineOne" : "lobbyOnline", counts),
       t(counts.playing === 1 ? "lobbyPlayingOne" : "lobbyPlaying", counts)].join(" · ")
    : "";
  const waiting = seeks.find((s) => s.mine);
  $("seek-waiting").hidden = !waiting;
  $("seek-bot").hidden = !bot;
  if (bot) $("seek-bot").textContent = t("playBot", { level: t(`level-${bot.level}`), rating: bot.rating });
}
