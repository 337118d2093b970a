// The start page: choose the opponent, the length, the games and the house rules; create the match;
// or take the seat of an open match, one that anyone on this server may join; log in or sign up;
// find the matches this browser or this account played, and the tournaments taking players, being
// played or just finished.
import { $, botName, gamesName, textLink } from "/static/common.js";
import { GAMES } from "/static/games.js";
import { renderLobby, startLobby } from "/static/lobby.js";
import { dateText, heldMatches, keepMine, mineOf, opponentName, sessionBar, shownName } from "/static/session.js";
import { language, languageSwitch, sayable, t, translatePage } from "/static/strings.js";
import { isoSeconds, tournamentItem } from "/static/tourlist.js";

let me = null;  // the name of the player logged in here (null: a guest)

async function loadLevels() {
  const select = $("opponent");
  let levels = [], chosen = "expert";
  try {
    const answer = await fetch("/api/levels");
    const body = await answer.json();
    levels = body.levels;
    chosen = body.default;
  } catch {
    levels = [{ name: "expert", description: "" }];
  }
  select.innerHTML = "";
  for (const level of levels) {
    const name = t(`level-${level.name}`), about = t(`levelDesc-${level.name}`);
    const option = new Option(`${name.startsWith("level-") ? level.name : name} — ${about.startsWith("levelDesc-") ? level.description : about}`, level.name);
    select.append(option);
  }
  select.append(new Option(t("friend"), "friend"));
  select.append(new Option(t("hotSeat"), "here"));
  select.append(new Option(t("anyone"), "anyone"));
  select.value = chosen;
}

/** The player's name, as typed and remembered in this browser (empty: none). */
function playerName() {
  const name = $("name").value.trim();
  localStorage.setItem("tavli:name", name);
  return name;
}

function request() {
  const length = $("length").value === "other" ? Number($("length-other").value) : Number($("length").value);
  const games = $("games").value === "custom" ? $("games-custom").value.trim() : $("games").value;
  // two players here: no one name for the page; logged in: the account's name
  const name = $("opponent").value === "here" || me ? "" : playerName();
  return {
    ...(name ? { name } : {}),
    ...(!$("rated-label").hidden && $("rated").checked ? { rated: true } : {}),
    ...(!$("private-label").hidden && $("private").checked ? { private: true } : {}),
    // two players on this device: a match between friends whose page holds both seats
    opponent: $("opponent").value === "here" ? "friend" : $("opponent").value, length, games, seat: $("seat").value,
    mother_pin: $("mother-pin").value,
    prime_limits: $("prime-limits").checked,
    prime_in_opponent_start: $("prime-in-start").checked,
    coach: $("coach").checked,
    ...(!$("clock-label").hidden ? { clock: $("clock").value } : {}),
  };
}

async function start(event) {
  event.preventDefault();
  const button = $("start");
  $("error").textContent = "";
  button.disabled = true;
  button.textContent = t("starting");
  try {
    const body = request();
    const unknown = body.games.split(",").map((g) => g.trim().toLowerCase()).find((g) => !["tavli", ...GAMES, ""].includes(g));
    if (unknown !== undefined) throw new Error(t("unknownGame", { name: unknown }));
    const answer = await fetch("/api/matches", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    const made = await answer.json().catch(() => ({ error: `HTTP ${answer.status}` }));
    if (!answer.ok) {  // the server's reason in the page's language, or else its gist
      const why = sayable(made.reason) ?? (language() === "en" ? made.error : null);
      throw new Error(why ?? (answer.status === 429 ? t("tooManyMatches") : t("startFailed")));
    }
    const here = $("opponent").value === "here";
    if (!here) keepMine(made.match, made.token);  // two players here: neither seat is one person's
    localStorage.setItem(`tavli:links:${made.match}`, JSON.stringify({ friend: here ? null : made.friend, watch: made.watch, open: made.open }));
    location.assign(here ? `${made.play}&t2=${new URLSearchParams(made.friend.split("#")[1]).get("t")}` : made.play);
  } catch (error) {
    $("error").textContent = error.message;
    button.disabled = false;
    button.textContent = t("start");
  }
}

$("length").addEventListener("change", () => { $("length-other").hidden = $("length").value !== "other"; });
$("games").addEventListener("change", () => { $("games-custom").hidden = $("games").value !== "custom"; });
// the coach is on against bots and off between friends, unless the creator chooses otherwise
let coachChosen = false;
$("coach").addEventListener("change", () => { coachChosen = true; });
$("opponent").addEventListener("change", () => { if (!coachChosen) $("coach").checked = !["friend", "here", "anyone"].includes($("opponent").value); });
$("opponent").addEventListener("change", showRated);
// anyone may watch a match by its address (docs/web.md), unless it is made private: a match between
// friends or against a bot can be; an open or a rated one is always watchable
$("opponent").addEventListener("change", showPrivate);
$("rated").addEventListener("change", showPrivate);
function showPrivate() {
  $("private-label").hidden = $("opponent").value === "anyone" || (!$("rated-label").hidden && $("rated").checked);
}
// a clock between people (the café's by default); a bot needs none
$("opponent").addEventListener("change", showClock);
function showClock() { $("clock-label").hidden = !["friend", "here", "anyone"].includes($("opponent").value); }

/** A rated match is one between two people with accounts: the choice shows only where it can be made. */
function showRated() {
  $("rated-label").hidden = !me || !["friend", "anyone"].includes($("opponent").value);
  showPrivate();
}
$("new-match").addEventListener("submit", start);

// -- open matches: listed while their creators wait, refreshed every few seconds ------------------
let openShown = [];

function waited(seconds) {
  return seconds < 60 ? t("seconds", { n: seconds }) : t("minutes", { n: Math.floor(seconds / 60) });
}

function renderOpen() {
  const list = $("open-list");
  list.innerHTML = "";
  for (const m of openShown) {
    const li = document.createElement("li");
    const about = document.createElement("span");
    const rules = [m.mother_pin !== "double" && m.games.includes("plakoto") ? `${t("motherPin")} ${t(`mother${m.mother_pin[0].toUpperCase()}${m.mother_pin.slice(1)}`)}` : "",
      !m.prime_limits && m.games.includes("fevga") ? t("noPrimeLimits") : ""].filter(Boolean);
    about.append(...(m.name ? [...shownName(m.name, m.account), " · "] : []),
      t("openRow", { games: gamesName(m.games), n: m.length, seat: t(m.seat), wait: waited(m.waiting) })
      + (m.rated ? ` · ${t("ratedMark")}` : "") + (rules.length ? ` · ${rules.join(" · ")}` : ""));
    if (localStorage.getItem(`tavli:links:${m.match}`)) {  // made in this browser: waiting for someone else
      const mine = document.createElement("em");
      mine.textContent = t("yourOpenMatch");
      li.append(about, mine);
    } else {
      const join = document.createElement("button");
      join.textContent = t("join");
      join.dataset.testid = "join";
      join.addEventListener("click", () => takeSeat(m.match, join));
      li.append(about, join);
    }
    list.append(li);
  }
  $("open-none").hidden = openShown.length > 0;
}

/** The list of matches at `url` (`{"matches": [...]}`), handed to `show`; nothing while the page
 * is hidden or when the server does not answer (the list shown stays). */
async function loadMatches(url, show) {
  if (document.hidden) return;
  try {
    const answer = await fetch(url, { cache: "no-store" });
    show((await answer.json()).matches);
  } catch { /* the next refresh tries again */ }
}

function loadOpen() { return loadMatches("/api/open", (found) => { openShown = found; renderOpen(); }); }

async function takeSeat(match, button) {
  button.disabled = true;
  $("open-error").textContent = "";
  try {
    const name = playerName();
    const answer = await fetch(`/api/open/${encodeURIComponent(match)}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(name ? { name } : {}) });
    const seat = await answer.json().catch(() => ({}));
    if (answer.ok) { keepMine(seat.match, seat.token); location.assign(seat.play); return; }
    $("open-error").textContent = answer.status === 409 ? t("seatTaken") : (sayable(seat.reason) ?? t("startFailed"));
  } catch {
    $("open-error").textContent = t("startFailed");
  }
  button.disabled = false;
  loadOpen();
}

// -- matches to watch: the highest rated in play first, then the newest (GET /api/watch) ----------
let watchShown = [];

/** A seat of a match to watch, as nodes to append: the bot's level, or the player's name (a
 * guest's marked) and his rating in the match's pool. */
function watchedSeat(p) {
  if (p.bot) return [botName(p.bot)];
  const who = p.name ? shownName(p.name, p.account) : [t("human")];
  return p.rating === null ? who : [...who, ` (${p.rating}${p.provisional ? "?" : ""})`];
}

function renderWatch() {
  const list = $("watch-list");
  list.innerHTML = "";
  for (const m of watchShown) {
    const li = document.createElement("li");
    li.dataset.testid = "watch-row";
    const about = document.createElement("span");
    about.append(...watchedSeat(m.players.white), ` ${t("versus")} `, ...watchedSeat(m.players.black),
      ` · ${gamesName(m.games)} ${t("toPoints", { n: m.length })}${m.rated ? ` · ${t("ratedMark")}` : ""}`);
    li.append(about, " ", textLink(`/match/${encodeURIComponent(m.match)}`, "watchIt", "watch-link"));
    list.append(li);
  }
  $("watch-none").hidden = watchShown.length > 0;
}

function loadWatch() { return loadMatches("/api/watch", (found) => { watchShown = found; renderWatch(); }); }

// -- tournaments: those taking players, those being played and those just finished, each a link to its page
let toursShown = [];
const TOURS_SHOWN = 6;  // the rest on /tournaments
const JUST_FINISHED = 24 * 3600;  // seconds a finished tournament stays in the box, its winner named

function renderTournaments() {
  $("tour-home-list").replaceChildren(...toursShown.slice(0, TOURS_SHOWN).map((s) => tournamentItem(s, true)));
  $("tour-home-none").hidden = toursShown.length > 0;
}

async function loadTournaments() {
  if (document.hidden) return;
  try {
    const answer = await fetch("/api/tournaments", { cache: "no-store" });
    if (!answer.ok) throw new Error();
    const lately = Date.now() / 1000 - JUST_FINISHED;
    toursShown = (await answer.json()).tournaments.filter((s) => ["open", "running"].includes(s.status)
      || (s.status === "finished" && isoSeconds(s.finished) > lately));
  } catch { /* the next refresh tries again */ }
  renderTournaments();
}

// -- my matches: a guest's from this browser, a player's from his page ------------------------------
let mineShown = [];
const MINE_SHOWN = 10;

async function loadMine() {
  if (me) {
    try {
      const answer = await fetch(`/api/players/${encodeURIComponent(me)}`, { cache: "no-store" });
      mineShown = (await answer.json()).matches.slice(0, MINE_SHOWN);
    } catch { mineShown = []; }
  } else {
    mineShown = await heldByServer();
  }
  renderMine();
}

/** A guest's matches, from the seats this browser holds: the server says, of those whose tokens
 * are still good, who the opponent is, the games and the score (a private match too: the token
 * is his seat's). Without an answer, the matches by their codes. */
async function heldByServer() {
  const held = heldMatches().slice(0, 200);  // the most the server looks at (players.MOST_HELD)
  if (held.length === 0) return [];
  try {
    const answer = await fetch("/api/matches/held", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ matches: held }) });
    if (!answer.ok) throw new Error();
    return (await answer.json()).matches.slice(0, MINE_SHOWN);
  } catch {
    return held.slice(0, MINE_SHOWN).map((h) => ({ id: h.match }));
  }
}

/** One of my matches: who against, how it stands, and the way back to it (its board while it is
 * played, with the seat this browser holds or, on any device, the account's; its review). */
function mineRow(m) {
  const li = document.createElement("li");
  const about = document.createElement("span");
  if (m.opponent) {
    about.append(`${dateText(m.date)} · ${t("versus")} `);
    about.append(...opponentName(m.opponent));
    // the games and the length, the score (his points first) and how it stands
    if (m.games) about.append(` · ${t("mineGames", { games: gamesName(m.games), n: m.length })}`);
    if (m.score) {
      const score = document.createElement("span");
      score.className = "mine-score";  // one piece: a line never breaks at its dash
      score.textContent = `${m.score.player}–${m.score.opponent}`;
      about.append(" · ", score);
    }
    about.append(` · ${t(`result-${m.result}`)}`);
  } else {
    about.textContent = t("matchId", { id: m.id });
  }
  const links = document.createElement("span");
  links.className = "links";
  const token = mineOf(m.id);
  // in play: his board, by the seat's token this browser holds or by the account he is signed in as
  if ((token || m.yours) && !["won", "lost", "aborted"].includes(m.result)) {
    links.append(textLink(`/match/${m.id}${token ? `#t=${token}` : ""}`, "resume", "resume"));
  }
  links.append(textLink(`/match/${m.id}/review${token ? `#t=${token}` : ""}`, "review", "review"));
  li.append(about, links);
  return li;
}

function renderMine() {
  $("mine-list").replaceChildren(...mineShown.map(mineRow));
  $("mine").hidden = mineShown.length === 0;
  $("my-page").hidden = !me;
  if (me) $("my-page").href = `/@/${encodeURIComponent(me)}`;
}

/** A login asked for by another page (a rated match's board): open the form, and go back after. */
const asked = new URLSearchParams(location.search);
const back = sameSite(asked.get("next"));

/** `path` if it leads to a page of this server (never elsewhere: a link could carry any `next`). */
function sameSite(path) {
  if (!path?.startsWith("/")) return null;
  const url = new URL(path, location.origin);
  return url.origin === location.origin ? url.pathname + url.search + url.hash : null;
}

const bar = sessionBar($("session"), (name) => {
  me = name;
  $("name-label").hidden = !!name;
  showRated();
  renderLobby();
  loadMine();
  if (name && back) location.assign(back);
});
bar.ready.then((name) => { if (!name && asked.has("login")) bar.open("login"); });

$("name").value = localStorage.getItem("tavli:name") || "";
languageSwitch($("lang"), () => { loadLevels(); renderOpen(); renderWatch(); renderMine(); renderLobby(); renderTournaments(); });
translatePage();
loadLevels();
loadOpen();
setInterval(loadOpen, 5000);
loadWatch();
setInterval(loadWatch, 15000);
loadTournaments();
setInterval(loadTournaments, 15000);
startLobby(() => !!me, () => me);
