// What the pages share besides their words (strings.js): the element of an id, a link, and the
// names and numbers they show (games, pools, colours, bots, dice, plays, signed values) in the
// page's language. Nothing here touches the page until it is called, so that a test can import it
// (tests/test_static_js.py runs it in node).
import { playText } from "/static/board.js";
import { CLOCK_PRESETS, GAMES } from "/static/games.js";
import { num, t } from "/static/strings.js";

/** The page's element with `id`. */
export const $ = (id) => document.getElementById(id);

/** A link to `href` with `key`'s words (and a test id where one is given). */
export function textLink(href, key, testid = null) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = t(key);
  if (testid !== null) a.dataset.testid = testid;
  return a;
}

/** The rating pools, as the server has them (tavli.server.play.seats.POOLS): the three games
 * together, then each game. */
export const POOLS = ["tavli", ...GAMES];

/** A game's name: "portes" is Portes, Πόρτες. */
export function gameName(game) { return t(`game-${game}`); }

/** Whether `games` are a Tavli match's: the three games in turn, in their order. */
export function isTavli(games) { return games.join(",") === GAMES.join(","); }

/** A match's games in words: `tavli`'s words for the three in turn, else each game's name. */
export function gamesName(games, tavli = "orderTavli") {
  return isTavli(games) ? t(tavli) : games.map(gameName).join(", ");
}

/** A clock in words: a preset's short name ("Kafeneio 8 s + 1 min"), its figures, or "No clock". */
export function clockName(clock) {
  if (!clock) return t("clock-none");
  for (const [name, [d, r]] of Object.entries(CLOCK_PRESETS)) {
    if (clock.delay === d && clock.reserve === r) return t(`clockShort-${name}`);
  }
  return t("clockCustom", { delay: clock.delay, reserve: clock.reserve });
}

/** A rating pool's name: the three games together, or one game's. */
export function poolName(pool) { return pool === "tavli" ? t("pool-tavli") : gameName(pool); }

/** "white" or "black" in words. */
export function colorName(color) { return t(color); }

/** "Bot (expert)": the level as a word of the sentence. */
export function botName(level) { return t("bot", { level: t(`level-${level}`).toLowerCase() }); }

/** A roll, high die first: "6-3" from [3, 6] or "3-6". */
export function diceText(dice) {
  const [a, b] = typeof dice === "string" ? dice.split("-").map(Number) : dice;
  return `${Math.max(a, b)}-${Math.min(a, b)}`;
}

/** A play in the page's words, from the mover's side as the library writes it (board.js, playText):
 * 8/2(3), bar/22*; "no play" for none. `steps` are in White's numbering. */
export function playWords(steps, mover, blackNumbers) {
  if (!steps.length) return t("noPlay");
  return playText(steps, mover, blackNumbers, { bar: t("barName"), off: t("offName") });
}

/** `x` signed, with `digits` decimals as the page's language writes them: +0.125, −1,5 (a minus
 * sign, not a hyphen). */
export function signed(x, digits = 3) { return (x >= 0 ? "+" : "−") + num(Math.abs(x), digits); }
