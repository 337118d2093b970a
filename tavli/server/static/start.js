// The start page (index.html): choose the opponent, the match and the house rules; create the
// match (POST /api/matches) and go to the board. The links the server answers are kept in
// localStorage ("tavli:match:ID") so that the board can show the invitation and this page the
// matches you created.
import { languageSelect, levelDescription, levelName, onLangChange, t, translatePage, variantName } from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
const NS = "http://www.w3.org/2000/svg";
let levels = [];
let defaultLevel = "expert";
let chosen = null;   // the opponent picked on this page, or last time

function storageGet(key) { try { return localStorage.getItem(key); } catch { return null; } }
function storageSet(key, value) { try { localStorage.setItem(key, value); return true; } catch { return false; } }
function storageRemove(key) { try { localStorage.removeItem(key); } catch { /* nothing kept */ } }

function showError(text) {
  const el = $("error");
  el.textContent = text ? String(text).split("\n")[0] : "";
  el.title = el.textContent;
}

// ---- the opponent list ------------------------------------------------------------------
function fillOpponents() {
  const select = $("opponent");
  const keep = chosen || storageGet("tavli:opponent") || defaultLevel;
  select.textContent = "";
  if (levels.length) {
    const bots = document.createElement("optgroup");
    bots.label = t("opponentBots");
    for (const level of levels) {
      const option = document.createElement("option");
      option.value = level.name;
      option.textContent = levelDescription(level.description)
        ? `${levelName(level.name)} — ${levelDescription(level.description)}` : levelName(level.name);
      bots.append(option);
    }
    select.append(bots);
  }
  const people = document.createElement("optgroup");
  people.label = t("opponentPeople");
  const friend = document.createElement("option");
  friend.value = "friend";
  friend.textContent = t("friend");
  people.append(friend);
  select.append(people);
  const values = [...select.options].map((o) => o.value);
  select.value = values.includes(keep) ? keep : values.includes(defaultLevel) ? defaultLevel : values[0];
}

async function loadLevels() {
  try {
    const answer = await fetch("/api/levels", { headers: { Accept: "application/json" } });
    const data = await answer.json();
    if (!answer.ok) throw new Error(data && data.error ? data.error : `HTTP ${answer.status}`);
    levels = Array.isArray(data.levels) ? data.levels.filter((l) => l && typeof l.name === "string") : [];
    if (typeof data.default === "string") defaultLevel = data.default;
    fillOpponents();
  } catch (err) {
    fillOpponents();
    showError(t("levelsError", { message: err && err.message ? err.message : String(err) }));
  }
}

// ---- the form ---------------------------------------------------------------------------
function syncForm() {
  $("length-other-box").hidden = $("length").value !== "other";
  $("games-custom-box").hidden = $("games").value !== "custom";
}

function requestBody() {
  const lengthChoice = $("length").value;
  let length;
  if (lengthChoice === "other") {
    const text = $("length-other").value.trim();
    length = /^\d+$/.test(text) ? Number(text) : text;
  } else {
    length = Number(lengthChoice);
  }
  let games = $("games").value;
  if (games === "custom") games = $("games-custom").value.toLowerCase().replace(/\s+/g, "");
  return {
    opponent: $("opponent").value,
    length,
    games,
    seat: $("seat").value,
    mother_pin: $("mother-pin").value,
    prime_limits: $("prime-limits").checked,
    prime_in_opponent_start: $("prime-in-opponent-start").checked,
  };
}

function remember(answer, body) {
  const record = {
    match: answer.match, seat: answer.seat, play: answer.play, friend: answer.friend || null, watch: answer.watch || null,
    opponent: body.opponent, length: body.length, games: body.games, created: Date.now(),
  };
  storageSet(`tavli:match:${answer.match}`, JSON.stringify(record));
  storageSet("tavli:opponent", body.opponent);
  storageSet("tavli:form", JSON.stringify(body));
}

async function submit(event) {
  event.preventDefault();
  showError("");
  const body = requestBody();
  if (body.games === "") { showError(t("gamesCustomHint")); $("games-custom").focus(); return; }
  if (!Number.isInteger(body.length) || body.length < 1 || body.length > 25) {
    showError(t("lengthInvalid"));
    $("length-other").focus();
    return;
  }
  const button = $("start");
  button.disabled = true;
  button.textContent = t("starting");
  try {
    let answer;
    try {
      answer = await fetch("/api/matches", {
        method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body),
      });
    } catch {
      showError(t("networkError"));
      return;
    }
    let data = null;
    try { data = await answer.json(); } catch { data = null; }
    if (!answer.ok || !data || typeof data.play !== "string") {
      showError((data && data.error) || `HTTP ${answer.status}`);
      return;
    }
    remember(data, body);
    location.assign(data.play);
  } finally {
    button.disabled = false;
    button.textContent = t("start");
  }
}

function restoreForm() {
  let saved = null;
  try { saved = JSON.parse(storageGet("tavli:form") || "null"); } catch { saved = null; }
  if (!saved || typeof saved !== "object") return;
  const lengths = ["1", "3", "5", "7"];
  if (Number.isInteger(saved.length)) {
    if (lengths.includes(String(saved.length))) $("length").value = String(saved.length);
    else { $("length").value = "other"; $("length-other").value = String(saved.length); }
  }
  if (typeof saved.games === "string") {
    if (["tavli", "portes", "plakoto", "fevga"].includes(saved.games)) $("games").value = saved.games;
    else if (saved.games) { $("games").value = "custom"; $("games-custom").value = saved.games; }
  }
  if (["white", "black", "random"].includes(saved.seat)) $("seat").value = saved.seat;
  if (["double", "single", "off"].includes(saved.mother_pin)) $("mother-pin").value = saved.mother_pin;
  if (typeof saved.prime_limits === "boolean") $("prime-limits").checked = saved.prime_limits;
  if (typeof saved.prime_in_opponent_start === "boolean") $("prime-in-opponent-start").checked = saved.prime_in_opponent_start;
  const changed = saved.mother_pin && saved.mother_pin !== "double" || saved.prime_limits === false || saved.prime_in_opponent_start === false;
  if (changed) $("house-rules").open = true;
}

// ---- the matches created in this browser ----------------------------------------------------
function savedMatches() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith("tavli:match:")) continue;
      try {
        const m = JSON.parse(localStorage.getItem(key));
        if (m && typeof m.play === "string") out.push(m);
      } catch { /* a damaged entry is skipped */ }
    }
  } catch { /* no storage */ }
  out.sort((a, b) => (b.created || 0) - (a.created || 0));
  return out;
}

function gamesText(games) {
  if (games === "tavli") return t("gamesTavli").split(/ — | - /)[0];
  return String(games || "").split(",").map(variantName).join(", ");
}

function renderRecent() {
  const list = $("recent-list");
  list.textContent = "";
  const matches = savedMatches();
  for (const old of matches.slice(12)) storageRemove(`tavli:match:${old.match}`);
  const shown = matches.slice(0, 6);
  $("recent").hidden = shown.length === 0;
  const format = new Intl.DateTimeFormat(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" });
  for (const m of shown) {
    const li = document.createElement("li");
    const what = document.createElement("span");
    what.className = "what";
    const opponent = m.opponent === "friend" ? t("yourFriend") : t("bot", { level: levelName(m.opponent) });
    what.textContent = `${gamesText(m.games)} · ${t("matchTo", { n: m.length })} · ${opponent}`;
    const when = document.createElement("span");
    when.className = "when";
    try { when.textContent = format.format(new Date(m.created)); } catch { when.textContent = ""; }
    what.append(when);
    const go = document.createElement("a");
    go.className = "button";
    go.href = m.play;
    go.textContent = t("recentResume");
    const forget = document.createElement("button");
    forget.type = "button";
    forget.textContent = "×";
    forget.title = t("recentForget");
    forget.setAttribute("aria-label", t("recentForget"));
    forget.addEventListener("click", () => { storageRemove(`tavli:match:${m.match}`); renderRecent(); });
    li.append(what, go, forget);
    list.append(li);
  }
}

// ---- the picture ------------------------------------------------------------------------
function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  parent.append(e);
  return e;
}

function drawPicture() {
  const root = $("picture");
  if (!root) return;
  const d = el("defs", {}, root);
  const grad = (id, a, b, radial) => {
    const g = el(radial ? "radialGradient" : "linearGradient", radial ? { id, cx: "38%", cy: "34%", r: "70%" } : { id, x1: 0, y1: 0, x2: 0, y2: 1 }, d);
    el("stop", { offset: "0%", "stop-color": a }, g);
    el("stop", { offset: "100%", "stop-color": b }, g);
  };
  grad("p-frame", "#6a3b1c", "#41230f");
  grad("p-field", "#dcb476", "#c7975a");
  grad("p-a", "#f3e6c4", "#dcc89a");
  grad("p-b", "#8e2b1e", "#6a1c12");
  grad("p-w", "#fffdf6", "#cdbd9d", true);
  grad("p-k", "#5a4539", "#0d0806", true);
  el("rect", { x: 0, y: 0, width: 520, height: 300, rx: 14, fill: "url(#p-frame)" }, root);
  el("rect", { x: 16, y: 16, width: 222, height: 268, fill: "url(#p-field)" }, root);
  el("rect", { x: 282, y: 16, width: 222, height: 268, fill: "url(#p-field)" }, root);
  el("rect", { x: 238, y: 12, width: 44, height: 276, fill: "#4d2a14" }, root);
  const pw = 37;
  for (let i = 0; i < 12; i++) {
    const x = i < 6 ? 16 + i * pw : 282 + (i - 6) * pw;
    el("polygon", { points: `${x + 1},16 ${x + pw - 1},16 ${x + pw / 2},126`, fill: i % 2 ? "url(#p-b)" : "url(#p-a)" }, root);
    el("polygon", { points: `${x + 1},284 ${x + pw - 1},284 ${x + pw / 2},174`, fill: i % 2 ? "url(#p-a)" : "url(#p-b)" }, root);
  }
  const stack = (i, n, top, color) => {
    const x = (i < 6 ? 16 + i * pw : 282 + (i - 6) * pw) + pw / 2;
    for (let k = 0; k < n; k++) {
      const y = top ? 34 + k * 34 : 266 - k * 34;
      el("circle", { cx: x, cy: y, r: 17, fill: `url(#p-${color})`, stroke: color === "w" ? "#9f8d6b" : "#000", "stroke-width": 1.2 }, root);
      el("circle", { cx: x, cy: y, r: 11, fill: "none", stroke: color === "w" ? "#c9b893" : "#574437", "stroke-width": 1.2 }, root);
    }
  };
  stack(0, 5, true, "k"); stack(4, 3, false, "k"); stack(6, 5, false, "w"); stack(11, 2, true, "w");
  stack(0, 5, false, "w"); stack(4, 3, true, "w"); stack(6, 5, true, "k"); stack(11, 2, false, "k");
  const die = (x, y, v, rot) => {
    const g = el("g", { transform: `rotate(${rot} ${x} ${y})` }, root);
    el("rect", { x: x - 17, y: y - 17, width: 34, height: 34, rx: 6, fill: "#fffdf6", stroke: "#a99d86" }, g);
    const o = 8.5;
    const spots = { 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]] }[v];
    for (const [dx, dy] of spots) el("circle", { cx: x + dx * o, cy: y + dy * o, r: 3.2, fill: "#1d1511" }, g);
  };
  die(372, 150, 5, -12);
  die(420, 146, 3, 9);
}

// ---- start --------------------------------------------------------------------------------
languageSelect($("lang"));
translatePage();
onLangChange(() => { fillOpponents(); renderRecent(); });
restoreForm();
syncForm();
fillOpponents();
drawPicture();
renderRecent();
$("length").addEventListener("change", () => { syncForm(); if ($("length").value === "other") $("length-other").focus(); });
$("games").addEventListener("change", () => { syncForm(); if ($("games").value === "custom") $("games-custom").focus(); });
$("new-match").addEventListener("submit", submit);
$("opponent").addEventListener("change", () => { chosen = $("opponent").value; });
for (const id of ["opponent", "length", "length-other", "games", "games-custom", "seat"]) $(id).addEventListener("input", () => showError(""));
loadLevels();
