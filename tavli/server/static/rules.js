// The rules page (rules.html): the three games, what they share, a match and the house rules, in the
// page's language (the words in strings.js, keys rules-… and rulesFig-…), each game with small
// boards drawn by board.js from White's side. Every section and every rule a refusal can point to
// has an id, so that /rules#plakoto-pin opens there (the board page links an illegal move's reason
// to its rule).
import { BoardView } from "/static/board.js";
import { $ } from "/static/common.js";
import { languageSwitch, t, translatePage } from "/static/strings.js";

/** Each section: its id, its title's key, its rules (each a paragraph with an id) and its boards. */
const SECTIONS = [
  { id: "common", title: "rulesCommon", rules: ["common-points", "common-dice", "common-bearoff", "common-win"] },
  { id: "portes", title: "game-portes", rules: ["portes-start", "portes-open", "portes-bar"],
    boards: ["portes-start", "portes-hit"] },
  { id: "plakoto", title: "game-plakoto", rules: ["plakoto-start", "plakoto-pin", "plakoto-bearoff", "plakoto-mother"],
    boards: ["plakoto-start", "plakoto-pin", "plakoto-mother"] },
  { id: "fevga", title: "game-fevga", rules: ["fevga-start", "fevga-open", "fevga-first", "fevga-primes"],
    boards: ["fevga-start", "fevga-lead"] },
  { id: "match", title: "rulesMatch", rules: ["match-start", "match-points"] },
  { id: "house", title: "houseRules", rules: ["house-order", "house-mother", "house-primes"] },
  { id: "clocks", title: "rulesClocks", rules: ["clocks-how", "clocks-presets", "clocks-time"] },
  { id: "ratings", title: "rulesRatings", rules: ["ratings-what", "ratings-rated", "ratings-sure"] },
];

/** White's number of the point Black numbers q: opposite directions in Portes and Plakoto, the
 * same direction from diagonally opposite corners in Fevga. */
function whitePoint(game, q) { return game !== "fevga" ? 25 - q : q > 12 ? q - 12 : q + 12; }

/**
 * A board for a drawing: `white` and `black` map points to checkers, each side in its own numbering;
 * `pinned` lists White's points where the lone checker of the other colour is pinned under
 * `pinned`'s owner; `bar` the checkers on the bar.
 */
function board(game, white, black, { pinned = {}, bar = {} } = {}) {
  const points = Array.from({ length: 24 }, () => ({ white: 0, black: 0, pinned: null }));
  for (const [p, n] of Object.entries(white)) points[p - 1].white = n;
  for (const [q, n] of Object.entries(black)) points[whitePoint(game, Number(q)) - 1].black = n;
  for (const [p, color] of Object.entries(pinned)) points[p - 1].pinned = color;
  const blackNumbers = Array.from({ length: 24 }, (_, i) => (game !== "fevga" ? 24 - i : i + 1 > 12 ? i + 1 - 12 : i + 13));
  return { points, black_numbers: blackNumbers, bar: { white: 0, black: 0, ...bar }, off: { white: 0, black: 0 } };
}

const PORTES = { 24: 2, 13: 5, 8: 3, 6: 5 };

/** The boards, by name: the position and the points to mark. */
const BOARDS = {
  "portes-start": () => [board("portes", PORTES, PORTES), []],
  // White played 13/7*: Black's lone checker on his 18-point (White's 7) went to the bar
  "portes-hit": () => [board("portes", { 24: 2, 13: 4, 8: 3, 7: 1, 6: 5 }, { 24: 2, 13: 5, 8: 3, 6: 4 }, { bar: { black: 1 } }), [13, 7]],
  "plakoto-start": () => [board("plakoto", { 24: 15 }, { 24: 15 }), []],
  // White's checker on his 20-point sits on a lone Black checker (Black's 5)
  "plakoto-pin": () => [board("plakoto", { 24: 13, 20: 1, 16: 1 }, { 24: 13, 5: 1, 15: 1 }, { pinned: { 20: "black" } }), [20]],
  // White sits on Black's mother (Black's 24, White's 1) and has left his own 24-point
  "plakoto-mother": () => [board("plakoto", { 1: 1, 6: 5, 5: 4, 4: 3, 3: 2 }, { 24: 1, 18: 4, 12: 4, 8: 3, 2: 3 },
    { pinned: { 1: "black" } }), [1]],
  "fevga-start": () => [board("fevga", { 24: 15 }, { 24: 15 }), []],
  // each side's first checker away; one checker holds its point against the other side
  "fevga-lead": () => [board("fevga", { 24: 14, 15: 1 }, { 24: 14, 18: 1 }), [15, 6]],
};

function render() {
  const nav = $("rules-nav");
  nav.replaceChildren(...SECTIONS.map((s) => {
    const a = document.createElement("a");
    a.href = `#${s.id}`;
    a.textContent = t(s.title);
    return a;
  }));
  const root = $("rules");
  root.innerHTML = "";
  for (const s of SECTIONS) {
    const section = document.createElement("section");
    section.className = "card rules-section";
    section.id = s.id;
    section.dataset.testid = `rules-${s.id}`;
    const h2 = document.createElement("h2");
    h2.textContent = t(s.title);
    section.append(h2);
    for (const rule of s.rules) {
      const p = document.createElement("p");
      p.id = rule;
      p.textContent = t(`rules-${rule}`);
      section.append(p);
    }
    if (s.boards) {
      const figures = document.createElement("div");
      figures.className = "rules-boards";
      for (const name of s.boards) figures.append(figure(name));
      section.append(figures);
    }
    root.append(section);
  }
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

/** One small board with its caption. */
function figure(name) {
  const fig = document.createElement("figure");
  fig.dataset.testid = `board-${name}`;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("role", "img");
  const caption = document.createElement("figcaption");
  caption.textContent = t(`rulesFig-${name}`);
  svg.setAttribute("aria-label", caption.textContent);
  fig.append(svg, caption);
  const [model, last] = BOARDS[name]();
  const view = new BoardView(svg);
  view.reset(false, "white", model.black_numbers);
  view.drawPosition(model, { last: new Set(last) });
  return fig;
}

languageSwitch($("lang"), () => render());
translatePage();
render();
