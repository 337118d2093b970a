// A tournament's page (/tournaments/ID; docs/tournaments.md): its name, format, settings and how it
// stands; Join and Withdraw for a signed-in player (Pause and Come back in an arena), the organiser's
// Start now, Cancel and Remove a player; the players; a knockout's bracket drawn as one (a column a
// round, a box a pairing, the winner marked; wider than the screen, it scrolls to the round being
// played until the reader scrolls it himself), or, for the other formats, the standings and each
// round's pairings with their result and why they were made, in words. The player's own match in
// play is marked, with the way to his board. The page follows /ws/tournament/ID and draws each state
// it is sent, reconnecting as notes.js does for the lobby.
// Names are data: set as text, never as markup.
import { $, clockName, gamesName, textLink } from "/static/common.js";
import { button, dateTimeText, errorWords, send, sessionBar, shownName } from "/static/session.js";
import { languageSwitch, num, say, t, translatePage } from "/static/strings.js";

const ID = decodeURIComponent(location.pathname.slice("/tournaments/".length).replace(/\/+$/, ""));
const PATH = `/api/tournaments/${encodeURIComponent(ID)}`;
// the tie-breaks the standings may give, in the order they count (docs/tournaments.md, "Standings")
// (an arena's wins and run of wins are no tie-breaks: its points alone order it, then the rating)
const TIEBREAKS = ["buchholz", "median_buchholz", "sonneborn_berger", "wins", "streak", "rating"];
const NO_SUCH = 4404;  // the close code of a socket for a tournament that does not exist
const ENDINGS_REVIEWED = new Set(["played", "resigned", "left", "time"]);  // a match played, if only in part

let tour = null;        // the tournament as the server last told it
let me = null;          // who is signed in here (null: a guest)
let bar = null;         // the header's session bar (its login form)
let socket = null;
let retry = 0;
let cancelAsked = false;          // the organiser pressed Cancel once: "Yes, cancel it" shows
const opened = new Set();         // the rounds' boxes the reader opened (or closed): kept across redraws
const closed = new Set();
const followed = [];              // each bracket's scroll as the page last set it to follow the play

function el(tag, className = "", text = null) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null) node.textContent = text;  // text, never markup
  return node;
}

/** A player's name as nodes to append: a link to his page (every player has an account). */
function who(name) { return shownName(name, true); }

/** Seconds since 1970 of an ISO time the server sent. */
function seconds(iso) { return Date.parse(iso) / 1000; }

/** h:mm:ss (or m:ss) of `s` seconds, for the time an arena has left. */
function clockText(s) {
  const whole = Math.max(0, Math.floor(s));
  const h = Math.floor(whole / 3600), m = Math.floor(whole / 60) % 60, sec = whole % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}

/** A figure of the standings: whole as it is, else with one decimal in the page's language. */
function figure(x) { return Number.isInteger(x) ? String(x) : num(x, 1); }

const active = (p) => !p.withdrawn;
const playing = () => (tour?.players ?? []).filter(active);
/** How many play: before the start "3 of 8", after it everyone who took part. */
function countText() {
  if (tour.status === "open") return t("tourPlayersOf", { n: playing().length, max: tour.max_players });
  return String(tour.players.length);
}

/** Every pairing of the tournament with its round: [{round, pairing}], oldest round first. */
function pairings() {
  return (tour?.rounds ?? []).flatMap((round) => round.pairings.map((pairing) => ({ round, pairing })));
}

/** Whether a pairing is still played (a match, no result yet). */
const inPlay = (p) => p.match && p.winner === null && p.ending === null;

/** The signed-in player's match in play, if he has one: {round, pairing}. */
function myMatch() {
  if (me === null) return null;
  const mine = pairings().filter(({ pairing }) => inPlay(pairing) && [pairing.white, pairing.black].includes(me));
  return mine.at(-1) ?? null;
}

// -- the head: name, status, settings, the buttons ------------------------------------------------------

/** How the tournament stands, in words: "Taking players · starts when full: 3 of 8 players". */
function statusText() {
  const parts = [t(`tourStatus-${tour.status}`)];
  if (tour.status === "open") {
    parts.push(tour.starts_at ? t("tourStartsAt", { date: dateTimeText(seconds(tour.starts_at)) })
      : t("tourStartsWhenFull", { n: playing().length, max: tour.max_players }));
  } else if (tour.status === "running") {
    if (tour.ends_at) parts.push(t("tourTimeLeft", { time: clockText(seconds(tour.ends_at) - Date.now() / 1000) }));
    else if (tour.started) parts.push(t("tourStartedAt", { date: dateTimeText(seconds(tour.started)) }));
  } else if (tour.status === "finished" && tour.finished) {
    parts.push(t("tourFinishedAt", { date: dateTimeText(seconds(tour.finished)) }));
  }
  return parts.join(" · ");
}

/** The time a player has to come to his board: whole minutes as such, anything else in seconds
 * (a quarter of a minute is "15 s", never "0.25 min"). */
function forfeitTime(minutes) {
  return Number.isInteger(minutes) ? t("minutes", { n: minutes }) : t("seconds", { n: Math.round(minutes * 60) });
}

function fact(list, key, ...content) {
  const said = el("dd");
  said.append(...content);
  list.append(el("dt", "", t(key)), said);
  return said;
}

function renderFacts() {
  const list = $("tour-facts");
  list.replaceChildren();
  fact(list, "tourFormat", t(`tourFormat-${tour.format}`)).dataset.testid = "tour-format";
  const matches = [`${gamesName(tour.games)} ${t("toPoints", { n: tour.length })}`, clockName(tour.clock),
    tour.rated ? t("ratedMark") : t("casual")];
  fact(list, "tourMatches", matches.join(" · ")).dataset.testid = "tour-matches";
  if (tour.final_length) fact(list, "tourFinal", t("toPoints", { n: tour.final_length }));
  fact(list, "players", countText());
  if (tour.rounds_planned && tour.format !== "arena") fact(list, "tourRounds", String(tour.rounds_planned));
  if (tour.minutes) fact(list, "tourTime", t("minutes", { n: tour.minutes }));
  if (tour.groups) fact(list, "tourGroupsTitle", t("tourGroupsFact", { groups: tour.groups, qualify: tour.qualify ?? 1 }));
  if (tour.format === "knockout" && tour.seeding) fact(list, "tourSeeding", t(`tourSeeding-${tour.seeding}`));
  if (tour.consolation) fact(list, "tourConsolation", t("tourYes"));
  fact(list, "tourOrganiser", ...who(tour.organiser)).dataset.testid = "tour-organiser-name";
  $("tour-forfeit").textContent = t("tourForfeitFact", { time: forfeitTime(tour.forfeit_minutes) });
}

/** Send an action (`method` `path` with `body`): the tournament the answer holds is drawn at once
 * (the socket says it again); a refusal is said in words under the buttons. */
async function act(method, path, body = {}) {
  const buttons = [...document.querySelectorAll("#head button")];
  for (const b of buttons) b.disabled = true;
  say($("tour-error"));
  let ok = false, answer = {};
  try {
    [ok, answer] = await send(method, path, body);
  } catch {
    answer = {};
  }
  for (const b of buttons) b.disabled = false;
  if (!ok) {
    $("tour-error").textContent = errorWords(answer, "tourActionFailed");
    return false;
  }
  if (answer?.id === ID && answer.status) tour = answer;
  render();
  return true;
}

/** Join, Withdraw, Pause and Come back; for a guest, the way to log in. */
function renderActions() {
  const box = $("tour-actions");
  const note = $("tour-note");
  box.replaceChildren();
  note.hidden = true;
  const arena = tour.format === "arena";
  const takes = tour.status === "open" || (arena && tour.status === "running");
  const mine = tour.players.find((p) => p.name === me && active(p));
  if (me === null) {
    if (takes) {
      say(note, "tourSignInToJoin");
      note.hidden = false;
      box.append(button("logIn", "tour-log-in", () => bar.open("login"), "secondary"),
        button("signUp", "tour-sign-up", () => bar.open("signup"), "secondary"));
    }
    return;
  }
  if (!mine) {
    if (takes && playing().length < tour.max_players) {
      box.append(button("join", "tour-join", () => act("POST", `${PATH}/join`), "primary"));
    }
    return;
  }
  if (tour.status === "open") {
    say(note, "tourYouAreIn");
    note.hidden = false;
    box.append(button("tourWithdraw", "tour-withdraw", () => act("DELETE", `${PATH}/join`), "secondary"));
  } else if (arena && tour.status === "running") {
    if (mine.paused) {
      say(note, "tourPausedNote");
      note.hidden = false;
    }
    box.append(mine.paused
      ? button("tourComeBack", "tour-resume", () => act("POST", `${PATH}/pause`, { paused: false }), "primary")
      : button("tourPause", "tour-pause", () => act("POST", `${PATH}/pause`, { paused: true }), "secondary"),
    button("tourLeave", "tour-leave", () => act("DELETE", `${PATH}/join`), "secondary"));
  }
}

/** The organiser's buttons while the tournament is not over: Start now (before it starts), Cancel
 * (asked twice), Remove a player. */
function renderOrganiser() {
  const live = tour.status === "open" || tour.status === "running";
  $("tour-organiser").hidden = !(me !== null && me === tour.organiser && live);
  if ($("tour-organiser").hidden) return;
  $("tour-start").hidden = tour.status !== "open";
  $("tour-cancel").hidden = cancelAsked;
  $("tour-cancel-sure").hidden = !cancelAsked;
  const who = $("tour-remove-who");
  const chosen = who.value;
  who.replaceChildren(...playing().map((p) => new Option(p.name, p.name)));
  if (playing().some((p) => p.name === chosen)) who.value = chosen;
  $("tour-remove").hidden = playing().length === 0;
}

function renderHead() {
  $("head").hidden = false;
  $("tour-name").textContent = tour.name;
  $("tour-status").textContent = statusText();
  document.body.dataset.status = tour.status;  // before the start the players come first (tavli.css)
  const winner = tour.status === "finished" ? (tour.standings ?? []).find((s) => s.place === 1) : null;
  $("tour-winner").hidden = !winner;
  if (winner) $("tour-winner").textContent = t("tourWinner", { name: winner.name });
  $("tour-record").href = `${PATH}/record`;
  renderFacts();
  renderActions();
  renderOrganiser();
}

// -- the player's own match ----------------------------------------------------------------------------

function renderYours() {
  const now = myMatch();
  $("your-match").hidden = !now;
  if (!now) return;
  const { round, pairing } = now;
  const opponent = pairing.white === me ? pairing.black : pairing.white;
  $("your-match-text").textContent = tour.format === "arena" ? t("tourYourArenaMatch", { name: opponent })
    : t("tourYourMatch", { round: round.number, name: opponent });
  $("your-board").href = `/match/${encodeURIComponent(pairing.match)}`;
}

// -- a pairing: its names, its result, why it was made, its links ---------------------------------------

/** Why a pair was made, in words (docs/tournaments.md, "Pairing"). */
function whyWords(why) {
  const rule = why?.rule;
  const [a, b] = why?.seeds ?? why?.scores ?? why?.from ?? [];
  if (rule === "bye") {
    if (why.seed !== undefined) return t("tourWhyByeSeed", { seed: why.seed });
    if (why.score !== undefined) return t("tourWhyByeScore", { score: figure(why.score) });
    return t("tourWhy-bye");
  }
  if (rule === "round-robin") return t("tourWhy-round-robin", { round: why.round });
  const known = ["seed", "lot", "bracket", "consolation", "score-group", "near-score", "repeat", "arena", "only-two-waiting"];
  if (!known.includes(rule)) return t("tourWhy-other");
  return t(`tourWhy-${rule}`, { a: a === undefined ? "" : figure(a), b: b === undefined ? "" : figure(b) });
}

/** The result of a pairing in words: "ann won (on time)", "in play", "bye". */
function resultWords(p) {
  if (p.black === null) return t("tourBye");
  if (p.winner === null) return p.ending === "forfeit" ? t("tourNobodyCame") : p.match ? t("tourInPlay") : "";
  const won = t("tourWon", { name: p.winner });
  return ["resigned", "left", "time", "forfeit"].includes(p.ending) ? `${won} (${t(`tourEnding-${p.ending}`)})` : won;
}

/** The way to a pairing's match: the player's board while he plays it, "Watch" while anyone else
 * plays it, its review once it is over. */
function pairingLinks(p) {
  const links = el("span", "links");
  if (!p.match) return links;
  const at = `/match/${encodeURIComponent(p.match)}`;
  if (inPlay(p)) {
    const mine = me !== null && [p.white, p.black].includes(me);
    links.append(mine ? textLink(at, "tourGoToBoard", "tour-board-link") : textLink(at, "watchIt", "tour-watch-link"));
  } else if (ENDINGS_REVIEWED.has(p.ending)) {
    links.append(textLink(`${at}/review`, "review", "tour-review-link"));
  }
  return links;
}

function pairingClasses(node, p) {
  if (me !== null && [p.white, p.black].includes(me)) node.classList.add("own");  // not .mine: the start page's card
  if (inPlay(p)) node.classList.add("playing");
}

// -- a knockout's bracket --------------------------------------------------------------------------------

/** A round's name in a bracket of `count` rounds: the final, the semi-finals, the quarter-finals, or
 * its number. */
function bracketRoundName(index, count) {
  const fromEnd = count - 1 - index;
  if (fromEnd === 0) return t("tourFinal");
  if (fromEnd === 1) return t("tourSemiFinals");
  if (fromEnd === 2) return t("tourQuarterFinals");
  return t("tourRoundN", { n: index + 1 });
}

/** One side of a box: the name (a bye's "bye", a pairing to come "to be decided"), the winner marked. */
function boxSide(name, p, testid) {
  const side = el("div", "bout-side");
  side.dataset.testid = testid;
  const who = el("bdi", "bout-name", name ?? t(p && p.black === null && testid === "bout-black" ? "tourBye" : "tourToCome"));
  if (name === null) side.classList.add("empty");
  side.append(who);
  if (p?.winner && name !== null) {
    if (p.winner === name) {
      side.classList.add("won");
      side.append(el("span", "bout-mark", "✓"));
    } else {
      side.classList.add("lost");
    }
  }
  if (name !== null && name === me) side.classList.add("me");
  return side;
}

/** A pairing's box: both names, the winner marked, why it was made, its links. `p` null: a pairing
 * still to come, between `names` where the rounds before have told them. */
function bout(p, names) {
  const box = el("div", "bout");
  box.dataset.testid = "bout";
  if (p) {
    if (p.match) box.dataset.match = p.match;
    pairingClasses(box, p);
    if (p.black === null) box.classList.add("bye");
    if (p.winner) box.classList.add("over");
    box.append(boxSide(p.white, p, "bout-white"), boxSide(p.black, p, "bout-black"));
    const foot = el("div", "bout-foot");
    const result = resultWords(p);
    if (p.black !== null && result) foot.append(el("span", "bout-result", result));
    foot.append(el("span", "bout-why", whyWords(p.why)), pairingLinks(p));
    box.append(foot);
  } else {
    box.classList.add("to-come");
    box.append(boxSide(names[0], null, "bout-white"), boxSide(names[1], null, "bout-black"));
  }
  return box;
}

/** The rounds of one bracket drawn as a bracket: a column a round, its boxes between the two of the
 * round before that feed it, the rounds still to come as empty boxes. */
function bracket(rounds, planned) {
  const first = rounds[0]?.pairings.length ?? 0;
  const size = 2 ** Math.ceil(Math.log2(Math.max(1, first)));
  const count = Math.max(rounds.length, planned ?? 0, Math.round(Math.log2(size)) + 1);
  const grid = el("div", "bracket");
  grid.dataset.testid = "bracket";
  let previous = [];  // the winners of the column before, box by box (null: not known yet)
  for (let index = 0; index < count; index++) {
    const boxes = Math.max(1, size / 2 ** index);
    const shown = rounds[index]?.pairings ?? [];
    const column = el("div", "bracket-round");
    column.dataset.testid = "bracket-round";
    const title = el("h3", "bracket-title", bracketRoundName(index, count));
    const slots = el("div", "bracket-slots");
    const winners = [];
    let feed = null;
    for (let k = 0; k < boxes; k++) {
      const p = shown[k] ?? null;
      const names = [previous[2 * k] ?? null, previous[2 * k + 1] ?? null];
      const slot = el("div", "slot");
      slot.append(bout(p, names));
      winners.push(p ? p.winner : null);
      if (index < count - 1 && boxes > 1) {  // two boxes feed one of the next round: joined by a line
        if (k % 2 === 0) {
          feed = el("div", "feed");
          slots.append(feed);
        }
        feed.append(slot);
      } else {
        slots.append(slot);
      }
    }
    if (index > 0) column.classList.add("fed");
    column.append(title, slots);
    grid.append(column);
    previous = winners;
  }
  const scroll = el("div", "bracket-scroll");
  scroll.append(grid);
  return scroll;
}

/** Where a bracket's box (`scroll`) scrolls to follow the play: the newest round paired (once it is
 * over, the final) in view with the round before it, as two columns fill a phone's screen. */
function playLeft(scroll) {
  const columns = [...scroll.querySelectorAll(".bracket-round")];
  const newest = columns.findLastIndex((column) => column.querySelector(".bout:not(.to-come)"));
  const shown = columns[Math.max(0, newest - 1)];
  if (!shown) return 0;
  return shown.getBoundingClientRect().left - scroll.getBoundingClientRect().left + scroll.scrollLeft;
}

/** The brackets of a knockout (and its consolation), or of a round-robin's knockout after its groups. */
function renderBracket() {
  const stages = tour.format === "knockout" ? ["main", "consolation"] : ["knockout"];
  const shown = tour.format === "knockout" || (tour.rounds ?? []).some((r) => r.stage === "knockout");
  $("bracket-card").hidden = !shown;
  if (!shown) return;
  const kept = [...document.querySelectorAll("#brackets .bracket-scroll")].map((s) => s.scrollLeft);
  const box = $("brackets");
  box.replaceChildren();
  for (const stage of stages) {
    const rounds = (tour.rounds ?? []).filter((r) => r.stage === stage).sort((x, y) => x.number - y.number);
    if (!rounds.length) continue;
    if (stage !== "main" || tour.format !== "knockout") {
      box.append(el("h3", "bracket-stage", t(stage === "consolation" ? "tourConsolationBracket" : "tourKnockoutBracket")));
    }
    box.append(bracket(rounds, stage === "main" ? tour.rounds_planned : null));
  }
  $("bracket-later").hidden = box.childElementCount > 0;
  // the reader's own scroll is kept; left where the page put it, the bracket follows the play
  [...box.querySelectorAll(".bracket-scroll")].forEach((s, k) => {
    if (kept[k] !== undefined && Math.abs(kept[k] - (followed[k] ?? 0)) > 1) {
      s.scrollLeft = kept[k];
      return;
    }
    s.scrollLeft = playLeft(s);
    followed[k] = s.scrollLeft;
  });
}

// -- the standings and the rounds (Swiss, round-robin, arena) ---------------------------------------------

/** The standings: place, name, points and the tie-breaks; a round-robin in groups has each group's
 * players together, placed within it. */
function renderStandings() {
  const shown = tour.format !== "knockout";
  $("standings-card").hidden = !shown;
  if (!shown) return;
  const standings = tour.standings ?? [];
  const grouped = standings.some((s) => s.group);
  const breaks = TIEBREAKS.filter((key) => standings.some((s) => s.tiebreaks && key in s.tiebreaks));
  const head = $("standings-head");
  head.replaceChildren(...["tourPlace", ...(grouped ? ["tourGroup"] : []), "colPlayer", "tourPoints",
    ...breaks.map((k) => `tourTiebreak-${k.replaceAll("_", "-")}`)].map((key) => el("th", "", t(key))));
  breaks.forEach((k, at) => { head.children[head.childElementCount - breaks.length + at].className = `tb-${k}`; });
  const rows = $("standings-rows");
  rows.replaceChildren();
  const places = new Map();  // group → the place of its next row
  for (const s of standings) {
    const row = rows.insertRow();
    row.dataset.testid = "tour-standing";
    if (s.name === me) row.classList.add("me");
    const place = grouped ? (places.get(s.group) ?? 1) : s.place;
    places.set(s.group, place + 1);
    row.insertCell().textContent = String(place);
    if (grouped) row.insertCell().textContent = s.group ?? "";
    row.insertCell().append(...who(s.name));
    row.insertCell().textContent = figure(s.points);
    for (const key of breaks) {
      const value = s.tiebreaks?.[key];
      const cell = row.insertCell();
      cell.className = `tb-${key}`;  // a phone leaves the last tie-breaks out (tavli.css)
      cell.textContent = value === undefined || value === null ? "" : key === "rating" ? String(Math.round(value)) : figure(value);
    }
  }
  const none = standings.length === 0;
  $("no-standings").hidden = !none;
  $("standings-rows").closest("table").hidden = none;
  $("tiebreaks-note").hidden = none || breaks.length === 0 || !["swiss", "round-robin"].includes(tour.format);
}

/** A round's title: its number, and its stage where it has one (a group, the consolation, the
 * knockout after the groups); an arena's wave of pairings. */
function roundTitle(round) {
  if (tour.format === "arena") return t("tourWave", { n: round.number });
  if (round.stage?.startsWith("group-")) return t("tourGroupRound", { group: round.stage.slice(6), n: round.number });
  if (round.stage === "consolation") return t("tourConsolationRound", { n: round.number });
  if (round.stage === "knockout") return t("tourKnockoutRound", { n: round.number });
  return t("tourRoundN", { n: round.number });
}

function pairingLine(p) {
  const item = el("li", "pairing");
  item.dataset.testid = "tour-pairing";
  if (p.match) item.dataset.match = p.match;
  pairingClasses(item, p);
  const names = el("span", "pair-names");
  const white = el("bdi", p.winner === p.white ? "won" : "", p.white);
  names.append(el("span", "dot white"), " ", white);
  if (p.black !== null) {
    names.append(" – ", el("span", "dot black"), " ", el("bdi", p.winner === p.black ? "won" : "", p.black));
  }
  const result = el("span", "pair-result", resultWords(p));
  result.dataset.testid = "tour-pairing-result";
  const why = el("span", "pair-why muted", whyWords(p.why));
  why.dataset.testid = "tour-pairing-why";
  item.append(names, result, why, pairingLinks(p));
  return item;
}

function renderRounds() {
  const rounds = (tour.rounds ?? []).filter((r) => tour.format !== "knockout" && r.stage !== "knockout");
  $("rounds-card").hidden = tour.format === "knockout";
  if (tour.format === "knockout") return;
  const box = $("rounds");
  box.replaceChildren();
  const newest = rounds.length ? Math.max(...rounds.map((r) => r.number)) : null;
  // the newest first; a round-robin's groups, whose rounds share their numbers, in their order
  const order = [...rounds].sort((x, y) => y.number - x.number || (x.stage < y.stage ? -1 : x.stage > y.stage ? 1 : 0));
  for (const round of order) {
    const key = `${round.stage}:${round.number}`;
    const details = el("details", "tour-round");
    details.dataset.testid = "tour-round";
    // open: the newest round, and any with a match in play (an arena's earlier waves), unless closed
    details.open = opened.has(key) || (!closed.has(key) && (round.number === newest || round.pairings.some(inPlay)));
    details.addEventListener("toggle", () => {
      (details.open ? opened : closed).add(key);
      (details.open ? closed : opened).delete(key);
    });
    const summary = el("summary", "", roundTitle(round));
    const list = el("ul", "pairings");
    list.append(...round.pairings.map(pairingLine));
    details.append(summary, list);
    box.append(details);
  }
  $("no-rounds").hidden = rounds.length > 0;
}

// -- the players -------------------------------------------------------------------------------------------

function renderPlayers() {
  $("players-card").hidden = false;
  const list = $("players");
  list.replaceChildren();
  for (const p of tour.players) {
    const item = el("li");
    item.dataset.testid = "tour-player";
    item.dataset.name = p.name;
    if (p.name === me) item.classList.add("me");
    if (p.withdrawn) item.classList.add("withdrawn");
    item.append(...who(p.name));
    if (p.rating !== null && p.rating !== undefined) item.append(" ", el("span", "muted", `(${Math.round(p.rating)})`));
    if (p.withdrawn) item.append(" ", el("span", "tour-mark", t("tourWithdrawnMark")));
    else if (p.paused) item.append(" ", el("span", "tour-mark", t("tourPausedMark")));
    list.append(item);
  }
  $("players-count").textContent = countText();
  $("no-players").hidden = tour.players.length > 0;
}

function render() {
  if (!tour) return;
  renderHead();
  renderYours();
  renderBracket();
  renderStandings();
  renderRounds();
  renderPlayers();
  document.body.dataset.loaded = "1";
}

// -- the live connection --------------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const mine = new WebSocket(`${scheme}://${location.host}/ws/tournament/${encodeURIComponent(ID)}`);
  socket = mine;
  mine.addEventListener("open", () => { retry = 0; $("tour-offline").hidden = true; });
  mine.addEventListener("message", (event) => {
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    if (socket !== mine || msg.type !== "tournament" || !msg.tournament) return;
    tour = msg.tournament;
    render();
  });
  mine.addEventListener("close", (event) => {
    if (socket !== mine) return;
    if (event.code === NO_SUCH) {  // gone (the page was loaded as it was being removed): nothing to follow
      $("missing").hidden = false;
      return;
    }
    retry += 1;
    $("tour-offline").hidden = retry < 2;  // a moment's break is not worth a word
    setTimeout(() => { if (socket === mine) connect(); }, Math.min(5000, 250 * 2 ** Math.min(retry, 5)));
  });
}

async function load() {
  try {
    const answer = await fetch(PATH, { cache: "no-store" });
    if (answer.status === 404) {
      $("missing").hidden = false;
      document.body.dataset.loaded = "1";
      return;
    }
    if (!answer.ok) throw new Error();
    tour = await answer.json();
  } catch {
    $("load-error").hidden = false;
  }
  render();
  connect();
}

$("tour-start").addEventListener("click", () => act("POST", `${PATH}/start`));
$("tour-cancel").addEventListener("click", () => { cancelAsked = true; render(); $("tour-cancel-sure").focus(); });
$("tour-cancel-sure").addEventListener("click", async () => { cancelAsked = false; await act("POST", `${PATH}/cancel`); });
$("tour-remove").addEventListener("submit", (event) => {
  event.preventDefault();
  if ($("tour-remove-who").value) act("POST", `${PATH}/remove`, { name: $("tour-remove-who").value });
});
// an arena's time left, each second
setInterval(() => { if (tour?.status === "running" && tour.ends_at) $("tour-status").textContent = statusText(); }, 1000);
languageSwitch($("lang"), render);
translatePage();
bar = sessionBar($("session"), (name) => { me = name; cancelAsked = false; render(); });
load();
