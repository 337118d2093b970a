// The openings practice (practice.html): an opening roll of Portes, Plakoto or Fevga to play from
// the start on the board, then what the play gives up against the best by the opening tables
// (GET /api/openings/{game}/{roll}/practice, docs/web.md). The address names the game and roll
// (#plakoto/6-5); the tally of each game is kept in the browser (localStorage "tavli:practice").
import { BoardView, diceFaces, portraitScreen } from "/static/board.js";
import { $, gameName } from "/static/common.js";
import { GAMES } from "/static/games.js";
import { StepInput } from "/static/steps.js";
import { languageSwitch, num, t, translatePage } from "/static/strings.js";

const view = new BoardView($("board"));
const TALLY = "tavli:practice";

const quizzes = {};  // "game/roll" -> the roll to practise
let quiz = null;     // the roll being played
let answer = null;   // the index of the play confirmed, once it is
let showBest = false;
let asked = 0;       // the latest request: an older answer arriving late is not drawn
const input = new StepInput(() => (quiz && answer === null ? quiz.legal : null));

/** The next roll of `game`: one the player missed when he asks for those and has some, else as the
 * dice fall (each of the 36 throws equally likely), higher die first. */
function nextRoll(game) {
  const missed = tallies()[game]?.missed || [];
  if ($("missed-only").checked && missed.length) return missed[Math.floor(Math.random() * missed.length)];
  const a = 1 + Math.floor(Math.random() * 6), b = 1 + Math.floor(Math.random() * 6);
  return `${Math.max(a, b)}-${Math.min(a, b)}`;
}

/** Each game's count, as saved in this browser: {played, best, lost, missed}; anything else saved
 * there (an older or edited value) counts as nothing. */
function tallies() {
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(TALLY)); } catch { /* not JSON */ }
  const all = {};
  for (const g of GAMES) {
    const c = saved?.[g];
    if (!c || !Number.isFinite(c.played) || !Number.isFinite(c.best) || !Number.isFinite(c.lost)) continue;
    all[g] = { played: c.played, best: c.best, lost: c.lost, missed: Array.isArray(c.missed) ? c.missed.filter((r) => /^[1-6]-[1-6]$/.test(r)) : [] };
  }
  return all;
}

async function load(game, roll) {
  const request = ++asked;
  const key = `${game}/${roll}`;
  try {
    if (!quizzes[key]) {
      const response = await fetch(`/api/openings/${game}/${encodeURIComponent(roll)}/practice`);
      if (!response.ok) throw new Error(`${key}: ${response.status}`);
      quizzes[key] = await response.json();
    }
    if (request !== asked) return;
    quiz = quizzes[key];
    answer = null;
    showBest = false;
    input.clear();
    history.replaceState(null, "", `#${quiz.game}/${quiz.roll}`);
    $("bad-link").hidden = true;
    render();
  } catch {
    if (request !== asked) return;
    $("bad-link-text").textContent = t("openingsFailed");
    $("bad-link").hidden = false;
  }
}

function confirmPlay() {
  const play = input.play();
  if (play === null || answer !== null) return;
  answer = quiz.legal.plays.indexOf(play);
  input.selected = null;
  const all = tallies();
  const mine = all[quiz.game] || { played: 0, best: 0, lost: 0, missed: [] };
  mine.played += 1;
  mine.best += answer === quiz.best.index ? 1 : 0;
  mine.lost += quiz.losses[answer];
  // a roll missed is dealt again on request until it is played best
  mine.missed = mine.missed.filter((r) => r !== quiz.roll).concat(answer === quiz.best.index ? [] : [quiz.roll]);
  all[quiz.game] = mine;
  localStorage.setItem(TALLY, JSON.stringify(all));
  render();
}

function verdict() {
  const play = quiz.legal.plays[answer];
  const loss = num(quiz.losses[answer], 3);
  if (quiz.legal.plays.length === 1) return `${play}: ${t("onlyPlay")}`;
  if (answer === quiz.best.index) return `${play}: ${t("bestPlay")}`;
  const skill = quiz.skills[answer];
  const judged = skill ? t(`skill-${skill}`, { loss }) : t("goodPlay", { loss });
  return `${play}: ${judged} ${t("practiseBestIs", { play: quiz.best.play })}`;
}

function render() {
  if (!quiz) return;
  const portrait = portraitScreen();
  document.body.classList.toggle("portrait", portrait);
  view.reset(portrait, "white", quiz.start.black_numbers);
  const dice = diceFaces(quiz.roll.split("-").map(Number));
  if (showBest) {
    view.drawPosition(quiz.best.board, { last: new Set(quiz.best.steps.flatMap(([a, b]) => [a, b])) });
    view.drawDice(dice, "white", { right: true });
  } else {
    const live = answer === null;
    const selected = live ? input.selected : null;
    view.drawPosition(input.board(quiz.start, "white", quiz.game), {
      targets: selected === null ? new Set() : input.targetsFrom(selected),
      sources: live ? input.sources() : new Set(), selected, turn: "white",
      last: live ? new Set() : new Set(input.made.flatMap(([a, b]) => [a, b])),
    });
    view.drawDice(dice, "white", { right: true, used: input.usedDice(dice) });
  }
  $("game-name").textContent = gameName(quiz.game);
  $("games").replaceChildren(...GAMES.map((g) => {
    const b = document.createElement("button");
    b.className = `tab${g === quiz.game ? " on" : ""}`;
    b.dataset.game = g;
    b.textContent = gameName(g);
    b.addEventListener("click", () => { if (g !== quiz.game) load(g, nextRoll(g)); });
    return b;
  }));
  $("roll-title").textContent = t("practiseTitle", { game: gameName(quiz.game), dice: quiz.roll });

  const complete = input.play();
  const answered = answer !== null;
  $("undo").hidden = answered || input.made.length === 0;
  $("confirm").hidden = answered || complete === null;
  $("next").hidden = !answered;
  $("switch").hidden = !answered || answer === quiz.best.index;
  $("again").hidden = $("switch").hidden;
  $("switch").textContent = t(showBest ? "showMine" : "showBest");
  $("in-tables").hidden = !answered;
  $("in-tables").href = `/openings#${quiz.game}/${quiz.roll}/0`;
  $("verdict").textContent = answered ? verdict() : "";
  $("verdict").className = `verdict ${answered ? quiz.skills[answer] : ""}`;
  if (answered) $("status").textContent = showBest ? t("practiseShowingBest", { play: quiz.best.play }) : verdict();
  else $("status").textContent = complete === null ? t("practiseMove", { dice: quiz.roll }) : t("practiseConfirm", { play: complete });

  const mine = tallies()[quiz.game];
  $("tally").textContent = mine?.played
    ? t("practiseTally", { game: gameName(quiz.game), n: mine.played, best: mine.best, lost: num(mine.lost, 3),
      mean: num(mine.lost / mine.played, 3) })
    : t("practiseNoTally", { game: gameName(quiz.game) });
  $("reset").hidden = !mine?.played;
  const missed = mine?.missed?.length || 0;
  $("missed").textContent = missed ? t("practiseMissed", { n: missed, rolls: mine.missed.join(", ") }) : "";
  $("missed-choice").hidden = missed === 0;
  // what is shown, for tests and tools
  window.tavliPractice = { game: quiz.game, roll: quiz.roll, play: answered ? quiz.legal.plays[answer] : complete,
    answered, loss: answered ? quiz.losses[answer] : null };
}

input.listen($("board"), () => quiz !== null && answer === null && !showBest, () => render());
$("undo").addEventListener("click", () => { input.undo(); render(); });
$("confirm").addEventListener("click", confirmPlay);
$("next").addEventListener("click", () => load(quiz.game, nextRoll(quiz.game)));
$("switch").addEventListener("click", () => { showBest = !showBest; render(); });
$("again").addEventListener("click", () => load(quiz.game, quiz.roll));
$("missed-only").checked = localStorage.getItem("tavli:practice-missed") === "1";
$("missed-only").addEventListener("change", () => {
  localStorage.setItem("tavli:practice-missed", $("missed-only").checked ? "1" : "0");
});
$("reset").addEventListener("click", () => {
  const all = tallies();
  delete all[quiz.game];
  localStorage.setItem(TALLY, JSON.stringify(all));
  render();
});
document.addEventListener("keydown", (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || e.target instanceof HTMLSelectElement) return;
  if (e.key === "Enter" && answer === null && input.play() !== null) { e.preventDefault(); confirmPlay(); }
  else if (e.key === "Enter" && answer !== null) { e.preventDefault(); load(quiz.game, nextRoll(quiz.game)); }
  else if ((e.key === "Backspace" || e.key === "u") && answer === null && input.made.length) { input.undo(); render(); }
});
window.addEventListener("resize", render);
languageSwitch($("lang"), render);
translatePage();

/** Practise what the address names (#plakoto/6-5), or a random roll of it (of Portes if none). */
function fromAddress() {
  const [g, roll] = decodeURIComponent(location.hash.slice(1)).split("/");
  const game = GAMES.includes(g) ? g : GAMES[0];
  load(game, roll || nextRoll(game));
}

window.addEventListener("hashchange", fromAddress);  // an address typed or followed on this page
fromAddress();
