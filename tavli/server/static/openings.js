// The openings page (openings.html): the plays of every opening roll of Portes, Plakoto and Fevga,
// valued by rollouts (GET /api/openings/{game} and /api/openings/{game}/{roll}, docs/web.md). The
// address keeps what is shown (#plakoto/6-5/1: the game, the roll and the play), so it can be shared.
import { BoardView, diceFaces, portraitScreen } from "/static/board.js";
import { $, gameName, signed } from "/static/common.js";
import { GAMES } from "/static/games.js";
import { languageSwitch, num, t, translatePage } from "/static/strings.js";

const view = new BoardView($("board"));

const overviews = {};  // game -> its tables in brief: each roll's best play
const details = {};    // "game/roll" -> the plays of the roll
let game = GAMES[0];
let rollIndex = 0;     // in the overview's rolls
let playIndex = 0;     // in the roll's plays
let shown = 0;         // the latest request: an older answer arriving late is not drawn

function value(p) { return p.equity === null ? "" : `${signed(p.equity)} ± ${num(p.ci95, 3)}`; }

async function fetchJson(url) {
  const answer = await fetch(url);
  if (!answer.ok) throw new Error(`${url}: ${answer.status}`);
  return answer.json();
}

async function overview(g) {
  overviews[g] ??= await fetchJson(`/api/openings/${g}`);
  return overviews[g];
}

async function detail(g, roll) {
  const key = `${g}/${roll}`;
  details[key] ??= await fetchJson(`/api/openings/${g}/${roll}`);
  return details[key];
}

/** Show `g`'s roll (by index, or by name like "6-5") and play, loading what is missing. */
async function show(g, roll, k = 0) {
  const request = ++shown;
  try {
    const brief = await overview(g);
    const i = typeof roll === "string" ? brief.rolls.findIndex((r) => r.roll === roll) : roll;
    const index = Math.max(0, Math.min(brief.rolls.length - 1, i < 0 ? 0 : i));
    const plays = await detail(g, brief.rolls[index].roll);
    if (request !== shown) return;
    game = g;
    rollIndex = index;
    playIndex = Math.max(0, Math.min(plays.plays.length - 1, k));
    history.replaceState(null, "", `#${game}/${brief.rolls[rollIndex].roll}/${playIndex}`);
    render();
  } catch {
    if (request !== shown) return;
    $("bad-link-text").textContent = t("openingsFailed");
    $("bad-link").hidden = false;
  }
}

function current() {
  const brief = overviews[game];
  const roll = brief?.rolls[rollIndex];
  return { brief, roll, plays: roll && details[`${game}/${roll.roll}`] };
}

function render() {
  const { brief, roll, plays } = current();
  if (!plays) return;
  const play = plays.plays[playIndex];
  const portrait = portraitScreen();
  document.body.classList.toggle("portrait", portrait);
  view.reset(portrait, "white", play.board.black_numbers);
  view.drawPosition(play.board, { last: new Set(play.steps.flatMap(([a, b]) => [a, b])) });
  view.drawDice(diceFaces(roll.roll.split("-").map(Number)), "white", { right: true });
  $("game-name").textContent = gameName(game);

  const tabs = $("games");
  tabs.replaceChildren(...GAMES.map((g) => {
    const b = document.createElement("button");
    b.className = `tab${g === game ? " on" : ""}`;
    b.dataset.game = g;
    b.textContent = gameName(g);
    b.addEventListener("click", () => { if (g !== game) show(g, roll.roll); });
    return b;
  }));

  $("roll-title").textContent = t("openingTitle", { game: gameName(game), dice: roll.roll });
  const best = plays.plays[0];
  $("plays").replaceChildren(...plays.plays.map((p, i) => {
    let against = "";
    if (i > 0) {
      against = p.trials ? `${signed(p.diff)} ± ${num(p.diff_ci95, 3)}${p.separated ? "" : " ≈"}`
        : `(${signed(p.ply2 - best.ply2)})`;
    }
    return row([p.play, value(p), against, signed(p.ply2)], i === playIndex ? "played" : "",
      () => show(game, rollIndex, i));
  }));
  const notes = [plays.legal === 1 ? t("onlyPlay") : t("trialsPerPlay", { trials: best.trials })];
  if (plays.legal > plays.plays.length) notes.push(t("morePlays", { n: plays.legal - plays.plays.length }));
  $("roll-note").textContent = notes.join(" ");

  $("rolls").replaceChildren(...brief.rolls.map((r, i) =>
    row([r.roll, r.best.play, value(r.best)], i === rollIndex ? "played" : "", () => show(game, i))));
  $("practice-link").href = `/practice#${game}`;
  $("mean").textContent = brief.mean === null ? "" : t("openingMean", { game: gameName(game), mean: signed(brief.mean) });
  $("method").textContent = t("openingsMethod", { level: t(`level-${brief.level}`) });

  let status;
  if (playIndex === 0) status = t("openingBest", { dice: roll.roll, play: play.play, value: value(play) });
  else if (play.trials) {
    status = t("openingOther", { dice: roll.roll, play: play.play, diff: `${signed(play.diff)} ± ${num(play.diff_ci95, 3)}` });
    if (!play.separated) status += ` (${t("notSeparated")})`;
  } else status = t("openingPly2", { dice: roll.roll, play: play.play, diff: signed(play.ply2 - best.ply2) });
  $("status").textContent = status;
  $("back").disabled = rollIndex === 0;
  $("forward").disabled = rollIndex === brief.rolls.length - 1;
  window.tavliOpenings = { game, roll: roll.roll, play: play.play };  // what is shown, for tests and tools
}

function row(cells, className, onClick) {
  const tr = document.createElement("tr");
  tr.className = className;
  tr.tabIndex = 0;
  for (const text of cells) {
    const td = document.createElement("td");
    td.textContent = text;
    tr.append(td);
  }
  tr.addEventListener("click", onClick);
  tr.addEventListener("keydown", (e) => { if (e.key === "Enter") onClick(); });
  return tr;
}

$("back").addEventListener("click", () => show(game, rollIndex - 1));
$("forward").addEventListener("click", () => show(game, rollIndex + 1));
document.addEventListener("keydown", (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || e.target instanceof HTMLSelectElement) return;
  const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
  if (!moves || !overviews[game]) return;
  e.preventDefault();
  if (moves[0]) show(game, rollIndex + moves[0]);
  else show(game, rollIndex, playIndex + moves[1]);
});
window.addEventListener("resize", render);
languageSwitch($("lang"), render);
translatePage();

/** Show what the address names (#plakoto/6-5/1), the first roll of Portes where it names nothing known. */
function fromAddress() {
  const [g, roll, k] = decodeURIComponent(location.hash.slice(1)).split("/");
  show(GAMES.includes(g) ? g : GAMES[0], roll || 0, Number(k) || 0);
}

window.addEventListener("hashchange", fromAddress);  // an address typed or followed on this page
fromAddress();
