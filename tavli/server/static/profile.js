// A player's page (/@/NAME): his rating in each pool with its chart, his record by game, his
// error-rate trend, the tournaments he played or plays (his place in each finished one) and every
// match he played, each with its board, review and record; and, for a signed-in player on
// another's page, Challenge (notes.js).
// Names are data: each is set as text, never as markup.
import { $, POOLS, gameName, gamesName, poolName, signed, textLink } from "/static/common.js";
import { GAMES } from "/static/games.js";
import { challengeForm } from "/static/notes.js";
import { dateText, mineOf, opponentName, sessionBar } from "/static/session.js";
import { languageSwitch, num, say, t, translatePage } from "/static/strings.js";
import { tournamentLine } from "/static/tourlist.js";

const SVG = "http://www.w3.org/2000/svg";
const name = decodeURIComponent(location.pathname.slice("/@/".length));
let player = null;  // the page's data, from /api/players/NAME
let me = null;      // who is signed in here (null: a guest)

function svg(tag, attributes) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, String(value));
  return el;
}

/**
 * A small line chart of `values` (oldest first), labelled with its lowest and highest value as
 * `label` writes them. One value: a dot. The line's scale is the values' own, padded, so that a
 * few points of change show.
 */
function lineChart(values, label, testid) {
  const width = 320, height = 90, left = 44, pad = 8;
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "line-chart", role: "img", "data-testid": testid });
  chart.append(svg("rect", { x: left, y: 0, width: width - left, height, class: "chart-bg" }));
  const low = Math.min(...values), high = Math.max(...values), span = high - low || 1;
  const x = (i) => left + pad + (values.length === 1 ? (width - left - 2 * pad) / 2 : i * (width - left - 2 * pad) / (values.length - 1));
  const y = (v) => (high === low ? height / 2 : height - pad - (v - low) / span * (height - 2 * pad));
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  chart.append(svg("polyline", { points, class: "chart-line" }));
  const last = values.length - 1;
  chart.append(svg("circle", { cx: x(last).toFixed(1), cy: y(values[last]).toFixed(1), r: 3, class: "chart-dot" }));
  for (const [v, at] of high === low ? [[high, height / 2 + 4]] : [[high, pad + 4], [low, height - pad]]) {
    const text = svg("text", { x: left - 4, y: at, class: "chart-label" });
    text.textContent = label(v);
    chart.append(text);
  }
  return chart;
}

function cell(row, content, label) {
  const td = row.insertCell();
  if (content !== "") td.append(content);  // an empty cell stays :empty (a phone leaves it out)
  td.dataset.label = t(label);  // a phone shows each cell under its column's name
  return td;
}

function renderRatings() {
  const box = $("ratings");
  box.replaceChildren();
  for (const pool of POOLS) {
    const r = player.ratings[pool];
    if (!r) continue;
    const card = document.createElement("div");
    card.className = "rating";
    card.dataset.testid = `rating-${pool}`;
    const head = document.createElement("h3");
    head.textContent = poolName(pool);
    const figure = document.createElement("p");
    const shown = document.createElement("strong");
    shown.className = "rating-shown";
    shown.dataset.testid = `rating-shown-${pool}`;
    shown.textContent = r.shown;
    figure.append(shown, ` ${t(r.matches === 1 ? "ratingLineOne" : "ratingLine", { deviation: Math.round(r.deviation), n: r.matches })}`);
    card.append(head, figure);
    const history = (player.history[pool] || []).map((point) => point.rating);
    if (history.length) card.append(lineChart([1500, ...history], (v) => String(Math.round(v)), `chart-${pool}`));
    box.append(card);
  }
  const pools = Object.keys(player.ratings);
  $("no-ratings").hidden = pools.length > 0;
  $("provisional-note").hidden = !pools.some((pool) => player.ratings[pool].provisional);
}

function renderRecord() {
  const rows = $("record-rows");
  rows.replaceChildren();
  for (const game of GAMES) {
    const tally = player.record[game] || { won: 0, lost: 0, gammons: 0 };
    const row = rows.insertRow();
    row.dataset.testid = `record-${game}`;
    for (const value of [gameName(game), tally.won, tally.lost, tally.gammons]) row.insertCell().textContent = String(value);
  }
  renderEndings();
  $("walkovers").textContent = t("walkovers", { time: player.lost_on_time, left: player.lost_by_leaving });
  // a match with no decision to analyse has no rate (null): it is no point of the chart
  const rates = player.error_trend.map((point) => point.error_rate).filter((rate) => rate !== null);
  $("trend").replaceChildren(...(rates.length ? [lineChart(rates, (v) => num(v, 1), "trend-chart")] : []));
  $("no-trend").hidden = rates.length > 0;
}

/** How the games he won and lost ended, all games together: on the board, by resignation, on
 * time, by a claim (his opponent away). Only the first say anything of the board; the gammons
 * above count only those. */
function renderEndings() {
  const rows = $("ending-rows");
  rows.replaceChildren();
  const endings = player.endings || { won: {}, lost: {} };
  for (const ending of ["played", "resigned", "time", "claimed"]) {
    const row = rows.insertRow();
    row.dataset.testid = `ending-${ending}`;
    for (const value of [t(`ending-${ending}`), endings.won[ending] ?? 0, endings.lost[ending] ?? 0]) {
      row.insertCell().textContent = String(value);
    }
  }
}

/** An error rate as the page writes it; "–" for a side with no decision to analyse. */
function rateText(rate) {
  return rate === null || rate === undefined ? "–" : num(rate, 1);
}

function opponentOf(m) {
  const who = document.createElement("span");
  who.append(...opponentName(m.opponent));
  return who;
}

/** Board, review and record: the board with the seat's token where this browser plays it, or
 * with none for a match in play that the one looking plays (his account opens his seat), the
 * review and the record for anyone. */
function linksOf(m) {
  const span = document.createElement("span");
  span.className = "links";
  const token = mineOf(m.id);
  if (token) span.append(textLink(`${m.board}#t=${encodeURIComponent(token)}`, "boardLink"));
  else if (m.yours && m.result === "playing") span.append(textLink(m.board, "boardLink"));
  span.append(textLink(m.review + (token ? `#t=${encodeURIComponent(token)}` : ""), "review"), textLink(m.record, "recordLink"));
  if (m.private && m.result !== "playing") span.append(publicButton(m));
  return span;
}

/** A private match is listed only to its players (docs/web.md): once it is over, either may
 * open it to everyone (the session says who he is). */
function publicButton(m) {
  const button = document.createElement("button");
  button.className = "link";
  button.dataset.testid = "make-public";
  button.textContent = t("makePublic");
  button.addEventListener("click", async () => {
    button.disabled = true;
    const answer = await fetch(`/api/matches/${encodeURIComponent(m.id)}/public`, { method: "POST" }).catch(() => null);
    if (answer?.ok) { m.private = false; renderMatches(); return; }
    button.disabled = false;
    button.textContent = t("makePublicFailed");
  });
  return button;
}

function matchRow(rows, m) {
  const row = rows.insertRow();
  row.dataset.testid = `match-${m.id}`;
  cell(row, dateText(m.date), "colDate");
  cell(row, opponentOf(m), "opponent").dataset.testid = "opponent";
  cell(row, String(m.length ?? ""), "colLength");
  cell(row, m.games ? gamesName(m.games, "pool-tavli") : "", "games");
  cell(row, m.score ? `${m.score.player}–${m.score.opponent}` : "", "colScore");
  const marks = [m.rated ? ` · ${t("ratedMark")}` : "", m.private ? ` · ${t("privateMark")}` : ""].join("");
  const result = cell(row, t(`result-${m.result}`) + marks, "colResult");
  result.dataset.testid = "result";
  result.className = `result-${m.result}`;
  const change = m.rating ? m.rating.after - m.rating.before : null;
  cell(row, m.rating ? `${Math.round(m.rating.after)} (${signed(change, 1)})` : "", "colRating")
    .dataset.testid = "rating-change";
  cell(row, m.error_rate ? `${rateText(m.error_rate.player)} · ${rateText(m.error_rate.opponent)}` : "", "colErrors")
    .dataset.testid = "error-rates";
  cell(row, linksOf(m), "colLinks");
}

function renderMatches() {
  const rows = $("match-rows");
  rows.replaceChildren();
  for (const m of player.matches) matchRow(rows, m);
  $("no-matches").hidden = player.matches.length > 0;
  rows.closest("table").hidden = player.matches.length === 0;
}

/** A place as the page's language writes it: 1st, 2nd, 3rd, 11th, 22nd; 1η, 2η. */
function ordinal(n) {
  const last = n % 10, tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : last === 1 ? "st" : last === 2 ? "nd" : last === 3 ? "rd" : "th";
  return t(`ordinal-${suffix}`, { n });
}

/** A tournament of his: its name (a link to its page), its format, and his place once it is
 * finished ("2nd of 8"), else how it stands. */
function tournamentOf(s) {
  const { item, link } = tournamentLine(s, "player-tour");
  const about = document.createElement("span");
  const place = document.createElement("strong");
  place.dataset.testid = "player-tour-place";
  place.textContent = s.status === "finished" && s.place ? t("tourPlaceOf", { place: ordinal(s.place), n: s.players })
    : t(`tourStatus-${s.status}`);
  const format = document.createElement("span");
  format.className = "muted";
  format.textContent = ` · ${t(`tourFormat-${s.format}`)} · `;
  about.append(link, format, place);
  if (s.finished) {
    const when = document.createElement("span");
    when.className = "muted";
    when.textContent = ` · ${dateText(Date.parse(s.finished) / 1000)}`;
    about.append(when);
  }
  item.append(about);
  return item;
}

function renderTournaments() {
  const listed = player.tournaments ?? [];
  $("tournament-rows").replaceChildren(...listed.map(tournamentOf));
  $("tournament-rows").hidden = listed.length === 0;
  $("no-tournaments").hidden = listed.length > 0;
}

/** Challenge: for a signed-in player on another player's page. */
function renderChallenge() {
  const other = player && me && player.name.toLowerCase() !== me.toLowerCase();
  $("challenge-open").hidden = !other || $("challenge-box").firstChild !== null;
  if (!other) $("challenge-box").replaceChildren();
}

function render() {
  renderChallenge();
  if (!player) return;
  $("player-name").textContent = player.name;
  document.title = `${player.name} · ${t("title")}`;
  $("joined").textContent = t("joined", { date: dateText(player.joined) });
  renderRatings();
  renderRecord();
  renderTournaments();
  renderMatches();
  for (const id of ["player", "records", "tournaments-card", "matches-card"]) $(id).hidden = false;
}

async function load() {
  try {
    const answer = await fetch(`/api/players/${encodeURIComponent(name)}`, { cache: "no-store" });
    if (answer.status === 404) throw new Error("noPlayer");
    if (!answer.ok) throw new Error("loadFailed");
    player = await answer.json();
  } catch (error) {
    say($("missing"), error.message === "noPlayer" ? "noPlayer" : "loadFailed");
    $("missing").hidden = false;
    return;
  }
  render();
}

/** The challenge's form, in place of its button until it is sent. */
function openChallenge() {
  $("challenge-open").hidden = true;
  challengeForm($("challenge-box"), player.name, renderChallenge);
}

languageSwitch($("lang"), () => { render(); if ($("challenge-box").firstChild) openChallenge(); });
translatePage();
$("challenge-open").addEventListener("click", openChallenge);
sessionBar($("session"), (name) => { me = name; renderChallenge(); });
load();
