// The start page's lobby: the seeks listed live (pushed over /ws/lobby, the page's one connection,
// which notes.js opens and keeps), a seek posted, cancelled or accepted in one click, "play now", the
// counts of players online and matches in play, the players online by name, each to be challenged;
// the page goes to the board as soon as the server says a match is made (docs/cafe.md, "Lobby").
import { $, clockName, gamesName } from "/static/common.js";
import { challengeForm, onLobby } from "/static/notes.js";
import { keepMine, onWhoChanges, playerLink, shownName } from "/static/session.js";
import { sayable, t } from "/static/strings.js";

let seeks = [];            // as the server lists them, oldest first
let counts = null;         // {online, playing}
let players = [];          // the names of the signed-in players online, A to Z
let bot = null;            // a bot offered after waiting alone in "play now": {level, rating}
let loggedIn = () => false;
let myName = () => null;

/** Start the lobby; ``isLoggedIn()`` says whether a rated seek may be posted, ``me()`` who is
 * signed in here (null: a guest), who may challenge the players online but himself. */
export function startLobby(isLoggedIn, me = () => null) {
  loggedIn = isLoggedIn;
  myName = me;
  $("seek-post").addEventListener("click", () => postSeek("/api/seeks"));
  $("seek-play-now").addEventListener("click", () => postSeek("/api/play"));
  $("seek-bot").addEventListener("click", playBot);
  onLobby(heard);
  // who this browser is changed: notes.js opens the connection again as him (his seeks, his
  // pairings; a guest's seek goes with him: docs/cafe.md, "Lobby")
  onWhoChanges(() => { bot = null; $("lobby-challenge").replaceChildren(); });
}

function heard(msg) {
  if (msg.type === "seeks") {
    seeks = msg.seeks;
    counts = { online: msg.online, playing: msg.playing };
    players = msg.players ?? [];
  } else if (msg.type === "seek") seeks = [...seeks.filter((s) => s.id !== msg.seek.id), msg.seek];
  else if (msg.type === "gone") seeks = seeks.filter((s) => s.id !== msg.id);
  else if (msg.type === "counts") { counts = { online: msg.online, playing: msg.playing }; players = msg.players ?? players; }
  else if (msg.type === "bot") bot = { level: msg.level, rating: msg.rating };
  renderLobby();
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

/** A player online: his name, linked to his page, and Challenge (for a signed-in player, not himself). */
function playerRow(name) {
  const li = document.createElement("li");
  li.dataset.testid = "player-online";
  li.append(playerLink(name));
  if (loggedIn() && name !== myName()) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary small";
    button.dataset.testid = "player-challenge";
    button.textContent = t("challenge");
    button.addEventListener("click", () => challengeForm($("lobby-challenge"), name));
    li.append(button);
  }
  return li;
}

export function renderLobby() {
  $("players-online").replaceChildren(...players.map(playerRow));
  $("players-none").hidden = players.length > 0;
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
