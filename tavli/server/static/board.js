// The board drawing shared by the board page (play.js) and the review page (review.js): the frame,
// the points with their checkers, the bar, the trays and the dice, in SVG.
//
// Board geometry, in two coordinates: `a` along the board (the 12 columns of points, the bar and the
// tray) and `c` across it (the two rows of points facing each other). On a wide screen `a` runs left
// to right (viewBox 1000 x 760); on a phone held upright the board turns a quarter so that each point
// is a row at least 40 px tall (viewBox 620 x 1000, `a` top to bottom).
export const LANDSCAPE = {
  A: 1000, C: 760, frameA: 22, pointW: 66, barA: 418, barW: 56, rightA: 474, trayA: 884, trayW: 94,
  frameC: 26, pointH: 292, R: 31, barR: 28, die: 62, label: 16, off: 16,
};
export const PORTRAIT = {
  A: 1000, C: 620, frameA: 10, pointW: 73, barA: 448, barW: 40, rightA: 488, trayA: 926, trayW: 64,
  frameC: 28, pointH: 236, R: 35, barR: 22, die: 56, label: 19, off: 14,
};
const SVG = "http://www.w3.org/2000/svg";

/** Whether the screen is a phone held upright (the board is then drawn turned a quarter). */
export function portraitScreen() { return window.innerWidth < 700 && window.innerHeight > window.innerWidth * 1.1; }

export function other(color) { return color === "white" ? "black" : "white"; }

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.append(node);
  return node;
}

/** One SVG board seen from one side: `viewer` ("white" or "black") sits at the near edge. */
export class BoardView {
  constructor(svg) {
    this.svg = svg;
    this.G = LANDSCAPE;
    this.viewer = "white";
    this.blackNumbers = [];
    this.mirror = false;  // the viewer's home on the left (a board setting): the board drawn mirrored
  }

  /** Clear the board for a new drawing, upright on phones. */
  reset(portrait, viewer, blackNumbers) {
    this.G = portrait ? PORTRAIT : LANDSCAPE;
    this.viewer = viewer;
    this.blackNumbers = blackNumbers || [];
    const G = this.G;
    this.svg.setAttribute("viewBox", portrait ? `0 0 ${G.C} ${G.A}` : `0 0 ${G.A} ${G.C}`);
    this.svg.innerHTML = "";
    this.drawDefs();
  }

  /** Screen coordinates of the board point (a, c). */
  xy(a, c) {
    const along = this.mirror ? this.G.A - a : a;  // mirrored along the board, the numbers still upright
    return this.G === PORTRAIT ? [this.G.C - c, along] : [along, c];
  }

  /** An SVG rect spanning a0..a1 along and c0..c1 across. */
  rectAC(a0, c0, a1, c1, attrs, parent) {
    const [x0, y0] = this.xy(a0, c0), [x1, y1] = this.xy(a1, c1);
    return el("rect", { x: Math.min(x0, x1), y: Math.min(y0, y1), width: Math.abs(x1 - x0), height: Math.abs(y1 - y0), ...attrs }, parent);
  }

  /** Where White's point p stands: its column centre along the board and whether it is in the far row. */
  place(p) {
    const G = this.G;
    const q = this.viewer === "black" ? 25 - p : p;
    const far = q >= 13;
    const idx = far ? q - 13 : 12 - q;
    const half = idx < 6 ? 0 : 1;
    const a = (half ? G.rightA : G.frameA) + (idx % 6) * G.pointW + G.pointW / 2;
    return { a, far, column: idx };
  }

  /** The centre of the k-th checker (from the base) of a stack of `shown` on a point. */
  slot(p, k, shown) {
    const G = this.G;
    const { a, far } = this.place(p);
    const half = G.C / 2 - G.frameC;
    const spacing = Math.min(2 * G.R, (half - 2 * G.R - 4) / Math.max(1, shown - 1));
    const c = far ? G.frameC + G.R + k * spacing : G.C - G.frameC - G.R - k * spacing;
    return this.xy(a, c);
  }

  /** A point's number as its viewer counts. */
  label(p) { return this.viewer === "black" && this.blackNumbers.length ? this.blackNumbers[p - 1] : p; }

  drawChecker(parent, [x, y], color, r = this.G.R, extra = {}) {
    const g = el("g", { class: `checker ${color}`, "data-checker": "", "data-color": color, ...extra }, parent);
    el("circle", { cx: x, cy: y, r: r - 1, fill: `url(#shade-${color})` }, g);
    el("circle", { cx: x, cy: y, r: r * 0.62, class: "ring" }, g);
    return g;
  }

  drawDefs() {
    const defs = el("defs", {}, this.svg);
    for (const [color, hi, lo] of [["white", "#ffffff", "#d8cfbf"], ["black", "#5a5450", "#141210"]]) {
      const grad = el("radialGradient", { id: `shade-${color}`, cx: "38%", cy: "32%", r: "75%" }, defs);
      el("stop", { offset: "0%", "stop-color": hi }, grad);
      el("stop", { offset: "100%", "stop-color": lo }, grad);
    }
    const die = el("linearGradient", { id: "die-face", x1: "0", y1: "0", x2: "1", y2: "1" }, defs);
    el("stop", { offset: "0%", "stop-color": "#ffffff" }, die);
    el("stop", { offset: "100%", "stop-color": "#e4dccd" }, die);
  }

  /** The frame, the points and their checkers, the bar and the trays of `model` ({points, bar, off}
   * in White's numbering). `marks`: `last` (points of the last move), `targets`, `sources`, `selected`,
   * `turn`. Returns the top checker of each point, bar and tray (to animate). */
  drawPosition(model, marks = {}) {
    const G = this.G, svg = this.svg, portrait = G === PORTRAIT;
    const { last = new Set(), targets = new Set(), sources = new Set(), selected = null, turn = null } = marks;
    const tops = {};
    el("rect", { x: 0, y: 0, width: portrait ? G.C : G.A, height: portrait ? G.A : G.C, rx: 18, class: "frame" }, svg);
    this.rectAC(G.frameA, G.frameC, G.barA, G.C - G.frameC, { class: "felt" }, svg);
    this.rectAC(G.rightA, G.frameC, G.rightA + 6 * G.pointW, G.C - G.frameC, { class: "felt" }, svg);
    this.rectAC(G.barA, G.frameC, G.barA + G.barW, G.C - G.frameC, { class: "bar" }, svg);
    this.rectAC(G.trayA, G.frameC, G.trayA + G.trayW, G.C - G.frameC, { class: "tray" }, svg);

    for (let p = 1; p <= 24; p++) {
      const { a, far, column } = this.place(p);
      const group = el("g", { "data-point": p, class: "point" }, svg);
      const base = far ? G.frameC : G.C - G.frameC;
      const tip = far ? G.frameC + G.pointH : G.C - G.frameC - G.pointH;
      const corners = [this.xy(a - G.pointW / 2 + 2, base), this.xy(a + G.pointW / 2 - 2, base), this.xy(a, tip)];
      el("polygon", {
        points: corners.map(([x, y]) => `${x},${y}`).join(" "),
        class: `triangle ${column % 2 ? "dark" : "light"}${last.has(p) ? " last" : ""}`,
      }, group);
      const mid = G.C / 2;
      this.rectAC(a - G.pointW / 2, far ? G.frameC : mid, a + G.pointW / 2, far ? mid : G.C - G.frameC, { class: "hit" }, group);
      const [lx, ly] = this.xy(a, far ? G.frameC / 2 : G.C - G.frameC / 2);
      const num = el("text", { x: lx, y: ly, class: "label", "font-size": G.label, "dominant-baseline": "central" }, group);
      num.textContent = String(this.label(p));
      const spot = model.points[p - 1];
      const layers = [];
      if (spot.pinned) {
        const pinner = other(spot.pinned);
        layers.push([spot.pinned, spot[spot.pinned]], [pinner, spot[pinner]]);
      } else {
        for (const color of ["white", "black"]) if (spot[color]) layers.push([color, spot[color]]);
      }
      const total = layers.reduce((n, [, c]) => n + c, 0);
      const count = Math.min(total, 5);
      let k = 0;
      for (const [color, n] of layers.filter(([, c]) => c > 0)) {
        for (let i = 0; i < n; i++, k++) {
          if (k >= 5) continue;
          tops[p] = this.drawChecker(group, this.slot(p, k, count), color, G.R, k === 0 && layers.length > 1 ? { "data-pinned": "" } : {});
        }
      }
      if (total > 5) {
        const [tx, ty] = this.slot(p, 4, count);
        el("text", { x: tx, y: ty, class: "count", "dominant-baseline": "central" }, group).textContent = String(total);
      }
      if (targets.has(p)) group.classList.add("target");
      if (sources.has(p)) group.classList.add("source");
      if (selected === p) group.classList.add("selected");
    }

    // the bar: the viewer's own checkers in the near half, the opponent's in the far half
    const barGroup = el("g", { "data-point": 25, class: "point barpoint" }, svg);
    this.rectAC(G.barA, G.frameC, G.barA + G.barW, G.C - G.frameC, { class: "hit" }, barGroup);
    const mine = this.viewer, theirs = other(mine);
    for (const [color, far] of [[theirs, true], [mine, false]]) {
      const n = model.bar[color];
      for (let i = 0; i < Math.min(n, 4); i++) {
        const c = far ? G.C / 2 - 50 - i * 2 * G.barR : G.C / 2 + 50 + i * 2 * G.barR;
        const node = this.drawChecker(barGroup, this.xy(G.barA + G.barW / 2, c), color, G.barR);
        if (color === mine || color === turn) tops[`bar-${color}`] = node;
      }
      if (n > 4) {
        const [tx, ty] = this.xy(G.barA + G.barW / 2, far ? G.C / 2 - 50 - 3 * 2 * G.barR : G.C / 2 + 50 + 3 * 2 * G.barR);
        el("text", { x: tx, y: ty, class: "count", "dominant-baseline": "central" }, barGroup).textContent = String(n);
      }
    }
    if (sources.has(25)) barGroup.classList.add("source");
    if (selected === 25) barGroup.classList.add("selected");

    // the trays: the viewer's borne-off checkers in the near half, the opponent's in the far half
    const tray = el("g", { "data-point": 0, class: "point traypoint" }, svg);
    this.rectAC(G.trayA, G.frameC, G.trayA + G.trayW, G.C - G.frameC, { class: "hit" }, tray);
    for (const [color, far] of [[theirs, true], [mine, false]]) {
      for (let i = 0; i < model.off[color]; i++) {
        const c = far ? G.frameC + 4 + i * (G.off + 3) : G.C - G.frameC - 4 - G.off - i * (G.off + 3);
        tops[`off-${color}`] = this.rectAC(G.trayA + 8, c, G.trayA + G.trayW - 8, c + G.off,
          { rx: 4, class: `offchecker ${color}`, "data-off": color, fill: `url(#shade-${color})` }, tray);
      }
    }
    if (targets.has(0)) tray.classList.add("target");
    return tops;
  }

  /** Dice `values` of `color`, on the mover's half (right if `right`); `used[i]` greys die i. */
  drawDice(values, color, { used = [], right = true, rolling = false } = {}) {
    const G = this.G, D = G.die, gap = 12;
    const start = right ? G.rightA : G.frameA;
    const span = values.length * D + (values.length - 1) * gap;
    const a0 = start + (6 * G.pointW - span) / 2;
    values.forEach((value, i) => {
      const [x, y] = this.xy(a0 + i * (D + gap) + D / 2, G.C / 2);
      const g = el("g", { class: `die ${color}${used[i] ? " used" : ""}${rolling ? " rolling" : ""}`, "data-die": value }, this.svg);
      el("rect", { x: x - D / 2, y: y - D / 2, width: D, height: D, rx: D / 6, ...(color === "white" ? { fill: "url(#die-face)" } : {}) }, g);
      const s = D / 60;
      const pips = { 1: [[30, 30]], 2: [[16, 16], [44, 44]], 3: [[16, 16], [30, 30], [44, 44]],
        4: [[16, 16], [44, 16], [16, 44], [44, 44]], 5: [[16, 16], [44, 16], [30, 30], [16, 44], [44, 44]],
        6: [[16, 14], [44, 14], [16, 30], [44, 30], [16, 46], [44, 46]] }[value];
      for (const [px, py] of pips) el("circle", { cx: x - D / 2 + px * s, cy: y - D / 2 + py * s, r: 5.6 * s, class: "pip" }, g);
    });
  }
}

/** The dice as drawn: high first, doubles as four. */
export function diceFaces([d1, d2]) {
  return d1 === d2 ? [d1, d1, d1, d1] : [Math.max(d1, d2), Math.min(d1, d2)];
}

/**
 * A play as the library writes it (tavli.notation), from the mover's side whoever reads it: each
 * side numbers the points from its own home, as every backgammon book and program writes a play.
 * One checker's steps chained (24/14; a hit on the way keeps its point, starred), equal moves
 * counted (8/2(3)), the checkers from the mover's farthest. `steps` are [from, to, hit] in White's
 * numbering (25 the bar, 0 off); `blackNumbers[p - 1]` is Black's number of White's point p;
 * `words` names the bar and off in the page's language.
 */
export function playText(steps, mover, blackNumbers, words = { bar: "bar", off: "off" }) {
  const own = (p) => (p === 25 || p === 0 || mover !== "black" ? p : blackNumbers[p - 1]);
  const name = (p) => (p === 25 ? words.bar : p === 0 ? words.off : String(own(p)));
  const chains = [];  // [[point, hit on landing], ...], the first the source
  for (const [a, b, hit] of steps) {
    const chain = chains.find((c) => c[c.length - 1][0] === a && a !== 0);
    if (chain) chain.push([b, hit]);
    else chains.push([[a, false], [b, hit]]);
  }
  const last = (c) => c[c.length - 1][0];
  chains.sort((x, y) => own(y[0][0]) - own(x[0][0]) || own(last(y)) - own(last(x)));
  const counts = new Map();
  for (const c of chains) {
    const [end, endHit] = c[c.length - 1];
    const hitOnTheWay = c.slice(1, -1).filter(([, hit]) => hit).map(([p]) => `${name(p)}*`);
    const text = [name(c[0][0]), ...hitOnTheWay, `${name(end)}${endHit ? "*" : ""}`].join("/");
    counts.set(text, (counts.get(text) || 0) + 1);
  }
  return [...counts].map(([text, n]) => (n > 1 ? `${text}(${n})` : text)).join(" ");
}
