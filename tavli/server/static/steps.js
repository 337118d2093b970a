// A play built on the board step by step from the server's tree of legal steps (docs/web.md,
// "legal"): the match page and the openings practice both use it. Points are in White's numbering:
// 25 is the bar, 0 borne off; a step is [from, to, hit].

function sameStep(a, b) { return a[0] === b[0] && a[1] === b[1]; }

/** The point (White's numbering) under a pointer event, or null. */
function pointAt(event) {
  const node = document.elementFromPoint(event.clientX, event.clientY);
  const group = node && node.closest("[data-point]");
  return group ? Number(group.dataset.point) : null;
}

/** A checker of point `from` carried under the pointer: a copy of the stack's top checker follows
 * it (the copy lets events through, so that the release finds the point beneath), the checker
 * itself greyed where it stood until the drop. */
function startDrag(svg, from, event) {
  const stack = svg.querySelector(`[data-point="${from}"]`);
  const checkers = stack ? stack.querySelectorAll("[data-checker]") : [];
  const top = checkers[checkers.length - 1];
  if (!top) return null;
  if (event.pointerId !== undefined && svg.setPointerCapture) {
    try { svg.setPointerCapture(event.pointerId); } catch { /* a synthetic event: no capture */ }
  }
  const box = top.getBBox();
  const centre = [box.x + box.width / 2, box.y + box.height / 2];
  const ghost = top.cloneNode(true);
  ghost.classList.add("drag-ghost");
  ghost.setAttribute("data-testid", "drag-ghost");
  ghost.removeAttribute("data-checker");
  let moved = false;
  const toSvg = (e) => {
    const m = svg.getScreenCTM();
    if (!m) return centre;
    const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return [pt.x, pt.y];
  };
  return {
    follow(e) {
      const [x, y] = toSvg(e);
      if (!moved && Math.hypot(x - centre[0], y - centre[1]) < 4) return;  // a click, not a drag yet
      moved = true;
      const node = svg.querySelector(`[data-point="${from}"] [data-checker]:last-of-type`);
      if (node) node.classList.add("lifted");
      if (!ghost.isConnected) svg.append(ghost);  // a redraw meanwhile: on top again
      ghost.setAttribute("transform", `translate(${x - centre[0]} ${y - centre[1]})`);
    },
    drop() { ghost.remove(); },
  };
}

export class StepInput {
  /** `legal()` gives the legal plays now ({plays, tree}), or null while there is nothing to play. */
  constructor(legal) {
    this.legal = legal;
    this.made = [];        // the steps made so far
    this.selected = null;  // the point whose checker is picked up
    this.dragFrom = null;  // the point a drag started from
  }

  /** Take steps from clicks and drags on `svg` (a BoardView's) while `enabled()`: a press on a
   * checker that can move picks it up and, held, drags it under the pointer or the finger; a press
   * on a point it can reach, or a drag's release there, makes the step. `changed(step)` follows each
   * press: the step made, or null. */
  listen(svg, enabled, changed) {
    svg.addEventListener("pointerdown", (event) => {
      for (const a of document.getAnimations()) a.finish();  // a click skips the animations
      if (!enabled()) return;
      const p = pointAt(event);
      if (p === null) return;
      if (this.selected !== null && this.targetsFrom(this.selected).has(p)) {
        const from = this.selected;
        if (this.step(from, p)) changed([from, p]);
        return;
      }
      this.selected = this.sources().has(p) ? p : null;
      this.dragFrom = this.selected;
      changed(null);  // redraws the board: the checker to drag is the new drawing's
      if (this.dragFrom !== null) this.drag = startDrag(svg, this.dragFrom, event);
    });
    svg.addEventListener("pointermove", (event) => { if (this.drag) this.drag.follow(event); });
    const release = (event) => {
      const from = this.dragFrom;
      this.dragFrom = null;
      this.drag?.drop();
      this.drag = null;
      if (from === null || !enabled() || event.type === "pointercancel") return;
      const p = pointAt(event);
      if (p !== null && p !== from && this.step(from, p)) changed([from, p]);
    };
    svg.addEventListener("pointerup", release);
    svg.addEventListener("pointercancel", release);
  }

  clear() {
    this.made = [];
    this.selected = null;
  }

  /** The node of the tree reached by the steps made so far; null if none. */
  node() {
    const tree = this.legal()?.tree;
    if (!tree) return null;
    let node = tree[0];
    for (const s of this.made) {
      const edge = node.next.find((e) => sameStep(e, s));
      if (!edge) return null;
      node = tree[edge[3]];
    }
    return node;
  }

  nextSteps() { return (this.node()?.next || []).map((e) => e.slice(0, 3)); }

  /** The play the steps made complete, or null. */
  play() {
    const node = this.node();
    return node && node.play !== null ? this.legal().plays[node.play] : null;
  }

  sources() { return new Set(this.nextSteps().map((s) => s[0])); }

  targetsFrom(point) { return new Set(this.nextSteps().filter((s) => s[0] === point).map((s) => s[1])); }

  /** Make the step from `from` to `to` if it is legal now; the only checker left to move is picked up. */
  step(from, to) {
    const step = this.nextSteps().find((s) => s[0] === from && s[1] === to);
    if (!step) return false;
    this.made.push(step);
    const left = [...this.sources()];
    this.selected = left.length === 1 ? left[0] : null;
    return true;
  }

  undo() {
    this.made.pop();
    this.selected = null;
  }

  /** The board `g` (board_json) of `variant` after the steps made so far by `turn`: counts per point,
   * bar, off, pins. */
  board(g, turn, variant) {
    const points = g.points.map((p) => ({ ...p }));
    const bar = { ...g.bar }, off = { ...g.off };
    const them = turn === "white" ? "black" : "white";
    for (const [from, to, hit] of this.made) {
      if (from === 25) bar[turn] -= 1;
      else {
        const p = points[from - 1];
        p[turn] -= 1;
        if (p[turn] === 0 && p.pinned === them) p.pinned = null;
      }
      if (to === 0) { off[turn] += 1; continue; }
      const q = points[to - 1];
      if (hit && variant === "plakoto") q.pinned = them;
      else if (hit) { q[them] -= 1; bar[them] += 1; }
      q[turn] += 1;
    }
    return { points, bar, off };
  }

  /** Which of the dice `values` (high first, four for doubles) the steps made have used. */
  usedDice(values) {
    const used = new Array(values.length).fill(false);
    for (const [from, to] of this.made) {  // a bear-off may use a larger die
      // steps are in White's numbering, where the two sides run opposite ways
      const exact = from === 25 ? [25 - to, to] : to === 0 ? [from, 25 - from] : [Math.abs(from - to)];
      let i = values.findIndex((v, k) => !used[k] && exact.includes(v));
      if (i < 0) i = values.findIndex((v, k) => !used[k] && v >= Math.min(...exact));
      if (i < 0) i = used.indexOf(false);
      if (i >= 0) used[i] = true;
    }
    return used;
  }
}
