// The review page (review.html): a finished match (or the finished games of one going on, for its
// players) stepped turn by turn, each play against the best few with their values and the loss, the
// chances of winning through the game, and each player's error rate, errors, blunders and luck.
// The analysis is made on the server (GET /api/matches/{id}/analysis, docs/web.md); this page asks
// for it until it is ready, showing the progress. At /review, without a match, it reviews a match
// file the player opens instead (POST /api/review): a match record or a GNU Backgammon .mat file.
import { BoardView, diceFaces, el, portraitScreen } from "/static/board.js";
import { $, botName, colorName, diceText, gameName, isTavli, playWords, signed } from "/static/common.js";
import { languageSwitch, num, say, t, translatePage } from "/static/strings.js";

const view = new BoardView($("board"));
const parts = location.pathname.split("/");
const matchId = decodeURIComponent(parts[parts.length - 2] || "");
const token = new URLSearchParams(location.hash.slice(1)).get("t") || "";

let review = null;   // the analysis from the server
let frames = [];     // every step: {game, k} with k = -1 for a game's first position, else decision k's result
let at = 0;          // the frame shown
let byGame = [];     // each game's decisions
let progress = null; // the last progress answer, while the analysis is made

async function load() {
  let answer;
  try {
    answer = await fetch(`/api/matches/${encodeURIComponent(matchId)}/analysis`,
      { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  } catch {
    setTimeout(load, 2000);
    return;
  }
  let body = null;
  try { body = await answer.json(); } catch { body = null; }
  if (answer.status === 404 || answer.status === 403 || !body) {
    showError(answer.status === 403 ? "reviewNotYet" : "badLink");
    return;
  }
  if (answer.status === 202) {
    progress = body;
    renderProgress();
    setTimeout(load, 500);
    return;
  }
  if (answer.status !== 200) { showError("reviewFailed"); return; }
  if (body.status === "empty") { showError("reviewEmpty"); return; }
  shown(body);
}

/** Show a review (the analysis's JSON) from its first position. */
function shown(body) {
  document.body.classList.remove("no-review");
  progress = null;
  $("progress").hidden = true;
  review = body;
  window.tavliReview = body;
  byGame = review.games.map((g) => review.decisions.filter((d) => d.game === g.game));
  frames = [];
  review.games.forEach((g, i) => {
    frames.push({ game: i, k: -1 });
    byGame[i].forEach((_, k) => frames.push({ game: i, k }));
  });
  at = 0;
  render();
}

function showError(key) {
  $("bad-link-text").textContent = t(key);
  $("bad-link").hidden = false;
  $("progress").hidden = true;
}

function renderProgress() {
  $("progress").hidden = !progress;
  if (!progress) return;
  const { done, total } = progress;
  $("progress-text").textContent = total ? t("analysing", { done, total }) : t("analysisQueued");
  $("progress-bar").value = total ? done / total : 0;
  $("status").textContent = $("progress-text").textContent;
}

function variantName(v) { return gameName(v.split(",")[0].trim()); }

/** A play from the mover's side, as the library writes it (common.js, playWords): 8/2(3), bar/22*. */
function stepsText(steps, mover, board) { return playWords(steps, mover, board.black_numbers); }

function go(index) {
  if (!review) return;
  at = Math.max(0, Math.min(frames.length - 1, index));
  render();
}

function render() {
  if (!review) { renderProgress(); return; }
  const frame = frames[at];
  const game = review.games[frame.game];
  const decisions = byGame[frame.game];
  const decision = frame.k >= 0 ? decisions[frame.k] : null;
  const portrait = portraitScreen();
  document.body.classList.toggle("portrait", portrait);
  const board = decision ? decision.board : game.start;
  const side = review.you === "black" ? "black" : "white";  // a player sees the board from his side
  view.reset(portrait, side, board.black_numbers);
  const last = new Set((decision?.steps || []).flatMap(([a, b]) => [a, b]));
  view.drawPosition(board, { last });
  if (decision) view.drawDice(diceFaces(decision.dice.split("-").map(Number)), decision.player, { right: decision.player === side });

  const number = document.createElement("span");
  number.className = "game-number";
  number.textContent = `${t("gameNumber", { n: game.game + 1 })} · `;
  $("game-name").replaceChildren(number, variantName(game.variant));  // the number gives way on a narrow screen
  let white = 0, black = 0;
  for (const g of review.games.slice(0, frame.game)) {
    if (g.winner === "white") white += g.points;
    if (g.winner === "black") black += g.points;
  }
  $("score").textContent = t("score", { w: white, b: black, n: review.length });
  renderDecision(game, decision, frame);
  renderChart(frame.game, frame.k);
  renderMoves(frame.game, frame.k);
  renderStats();
  $("first").disabled = $("back").disabled = at === 0;
  $("forward").disabled = $("last").disabled = at === frames.length - 1;
}

function renderDecision(game, decision, frame) {
  const body = $("candidates");
  body.innerHTML = "";
  $("decision").className = `card decision ${decision?.skill || ""}`;
  // a game's first play is an opening roll from the start: the opening tables have it (standard rules only)
  const opening = decision?.turn === 1 && !game.variant.includes(",");
  $("opening").hidden = !opening;
  if (opening) $("opening-link").href = `/openings#${game.variant}/${diceText(decision.dice)}/0`;
  // any decision on the position page, searched 2 plies deep
  $("analyse-position").hidden = !decision;
  if (decision) {
    const address = new URLSearchParams({ position: decision.position, dice: diceText(decision.dice), depth: "2" });
    const order = review.order && isTavli(review.order) ? "tavli" : review.order?.length === 1 ? "single" : null;
    if (decision.away && order) {  // at the decision's score, in a match of an order the page knows
      const [mine, theirs] = decision.away.map((need) => review.length - need);
      const [white, black] = decision.player === "white" ? [mine, theirs] : [theirs, mine];
      for (const [k, v] of Object.entries({ length: review.length, white, black, order })) address.set(k, String(v));
    }
    $("position-link").href = `/position#${address}`;
  }
  if (!decision) {
    $("decision-title").textContent = t("gameStart", { n: game.game + 1 });
    $("decision-note").textContent = "";
    $("status").textContent = t("reviewHelp");
    return;
  }
  $("decision-title").textContent = t("turnTitle", { n: decision.turn, who: colorName(decision.player), dice: diceText(decision.dice) });
  const best = decision.candidates[0]?.equity ?? 0;
  const match = decision.mwc_loss !== undefined;  // analysed at a match score: ranked by the chance of winning it
  $("mwc-head").hidden = !match;
  decision.candidates.forEach((c, i) => {
    const tr = document.createElement("tr");
    if (c.play === decision.played) tr.className = "played";
    const loss = c.play === decision.played ? -decision.loss : c.loss !== undefined ? -c.loss : c.equity - best;
    const cells = [String(i + 1), stepsText(c.steps, decision.player, decision.board), signed(c.equity), i === 0 ? "" : signed(loss)];
    if (match) cells.push(c.mwc === undefined ? "" : `${num(100 * c.mwc, 1)}%`);
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    body.append(tr);
  });
  let note;
  if (decision.forced) note = t("forced");
  else if (decision.skill) note = t(`skill-${decision.skill}`, { loss: num(decision.loss, 3) });
  else note = decision.loss > 0 ? t("goodPlay", { loss: num(decision.loss, 3) }) : t("bestPlay");
  if (match && !decision.forced && decision.mwc_loss > 0) note += ` ${t("mwcLost", { mwc: num(100 * decision.mwc_loss, 2) })}`;
  note += ` · ${t("luckOf", { luck: signed(decision.luck) })}`;
  $("decision-note").textContent = note;
  const played = t("playedText", { who: colorName(decision.player), dice: diceText(decision.dice), play: stepsText(decision.steps, decision.player, decision.board) });
  $("status").textContent = frame.k === byGame[frame.game].length - 1 && game.winner
    ? `${played} · ${t("gameEnd", { who: colorName(game.winner), points: game.points })}` : played;
}

/** White's chances of winning through the game shown, the mistakes marked; a click jumps there. */
function renderChart(g, k) {
  const svg = $("chart");
  svg.innerHTML = "";
  const decisions = byGame[g];
  const W = 300, H = 120, pad = 6;
  const x = (i) => pad + (W - 2 * pad) * (decisions.length ? i / decisions.length : 0);
  const y = (p) => pad + (H - 2 * pad) * (1 - p);
  el("rect", { x: 0, y: 0, width: W, height: H, class: "chart-bg" }, svg);
  el("line", { x1: pad, x2: W - pad, y1: y(0.5), y2: y(0.5), class: "chart-mid" }, svg);
  const pts = [[x(0), y(0.5)], ...decisions.map((d, i) => [x(i + 1), y(d.white_win)])];
  el("polyline", { points: pts.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" "), class: "chart-line" }, svg);
  el("line", { x1: x(k + 1), x2: x(k + 1), y1: pad, y2: H - pad, class: "chart-now", "data-testid": "chart-now" }, svg);
  decisions.forEach((d, i) => {
    if (!d.skill) return;
    el("circle", { cx: x(i + 1), cy: y(d.white_win), r: d.skill === "blunder" ? 4.5 : 3.5, class: `chart-mark ${d.skill}`, "data-skill": d.skill }, svg);
  });
  svg.onclick = (event) => {
    const box = svg.getBoundingClientRect();
    const i = Math.round(((event.clientX - box.left) / box.width * W - pad) / (W - 2 * pad) * decisions.length) - 1;
    goToBoard(frames.findIndex((f) => f.game === g && f.k === Math.max(-1, Math.min(decisions.length - 1, i))));
  };
}

/** Go to a decision chosen below the board (a move, a mark on the chart): on a screen where the
 * board is above the lists, bring it back into view to show the position. */
function goToBoard(index) {
  go(index);
  if (window.matchMedia("(max-width: 800px)").matches) $("board-area").scrollIntoView({ block: "start" });
}

function renderMoves(g, k) {
  const tabs = $("games");
  tabs.innerHTML = "";
  review.games.forEach((game, i) => {
    const b = document.createElement("button");
    b.className = `tab${i === g ? " on" : ""}`;
    b.textContent = `${i + 1}. ${variantName(game.variant)}`;
    b.addEventListener("click", () => go(frames.findIndex((f) => f.game === i)));
    tabs.append(b);
  });
  tabs.hidden = review.games.length < 2;
  const list = $("moves");
  list.innerHTML = "";
  byGame[g].forEach((d, i) => {
    const li = document.createElement("li");
    li.className = `${d.player} ${d.skill}${i === k ? " now" : ""}`;
    li.dataset.skill = d.skill;
    li.textContent = `${colorName(d.player)} ${diceText(d.dice)}: ${stepsText(d.steps, d.player, d.board)}${d.skill ? ` (${t(`mark-${d.skill}`)})` : ""}`;
    li.addEventListener("click", () => goToBoard(frames.findIndex((f) => f.game === g && f.k === i)));
    list.append(li);
    // the list scrolls within itself: scrolling the page would take the board away at each step
    if (i === k) requestAnimationFrame(() => { list.scrollTop = li.offsetTop - list.offsetTop - list.clientHeight / 2; });
  });
}

/** Each player's figures under his name, a row each: the name takes the table's width, so that the
 * figures' columns fit beside the board at 1366 px and on a phone, in Greek too. */
function renderStats() {
  const table = $("stats");
  for (const old of table.querySelectorAll("tbody")) old.remove();
  for (const color of ["white", "black"]) {
    const p = review.players[color];
    // a person's name as the record has it ("human" where he gave none)
    const who = p.kind === "bot" ? botName(p.level) : p.name && p.name !== "human" ? p.name : t("human");
    const body = document.createElement("tbody");
    body.dataset.testid = `stats-${color}`;
    const name = document.createElement("th");
    name.colSpan = 5;
    name.className = "who";
    name.textContent = `${colorName(color)} · ${who}`;
    const head = document.createElement("tr");
    head.append(name);
    const tr = document.createElement("tr");
    const cells = [num(p.error_rate, 1), String(p.errors), String(p.blunders), signed(p.luck, 2)];
    if (p.mwc_loss !== undefined) cells.splice(1, 0, num(100 * p.mwc_loss, 1));
    $("mwc-stats-head").hidden = p.mwc_loss === undefined;
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    body.append(head, tr);
    table.append(body);
  }
}

$("first").addEventListener("click", () => go(0));
$("back").addEventListener("click", () => go(at - 1));
$("forward").addEventListener("click", () => go(at + 1));
$("last").addEventListener("click", () => go(frames.length - 1));
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: frames.length - 1 };
  if (event.key in moves) { event.preventDefault(); go(moves[event.key]); }
  if (event.key === "ArrowUp" || event.key === "ArrowDown") {  // the previous or next mistake
    event.preventDefault();
    const step = event.key === "ArrowDown" ? 1 : -1;
    for (let i = at + step; i >= 0 && i < frames.length; i += step) {
      const f = frames[i];
      if (f.k >= 0 && byGame[f.game][f.k].skill) { go(i); break; }
    }
  }
});
window.addEventListener("resize", () => render());
languageSwitch($("lang"), () => render());
translatePage();

const MAX_FILE_BYTES = 1 << 20;  // as the server's limit

/** Review the match file chosen: its text to the server, which answers with the review or one line why not. */
async function reviewFile(file) {
  say($("file-error"));
  if (file.size > MAX_FILE_BYTES) {
    say($("file-error"), "fileTooLarge");
    return;
  }
  $("file").disabled = true;
  $("file-status").textContent = t("analysingFile", { name: file.name });
  try {
    // the file's bytes as they are: the server reads UTF-8, or Latin-1 as GNU Backgammon may write
    const answer = await fetch("/api/review", { method: "POST", body: file, headers: { "Content-Type": "text/plain" } });
    const body = await answer.json().catch(() => null);
    if (answer.ok && body) {
      shown(body);
      $("status").textContent = t("fileReviewed", { name: file.name });
    } else {
      // what was shown before stays; the reason is said in the page's language
      say($("file-error"), body?.error ? "fileRefused" : "reviewFailed", { reason: body?.reason ?? body?.error });
    }
  } catch {
    say($("file-error"), "reviewFailed");
  } finally {
    $("file").disabled = false;
    $("file").value = "";  // the same file may be chosen again
    $("file-status").textContent = "";
  }
}

if (matchId) load();
else {  // /review: a match file from the player's computer; until one is reviewed, only the file card
  $("file-card").hidden = false;
  document.body.classList.add("no-review");
  $("file").addEventListener("change", () => { if ($("file").files.length) reviewFile($("file").files[0]); });
  // or a file dropped anywhere on the page
  document.addEventListener("dragover", (e) => { e.preventDefault(); document.body.classList.add("dropping"); });
  document.addEventListener("dragleave", (e) => { if (!e.relatedTarget) document.body.classList.remove("dropping"); });
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    document.body.classList.remove("dropping");
    const file = e.dataTransfer?.files[0];
    if (file && !$("file").disabled) reviewFile(file);
  });
}
