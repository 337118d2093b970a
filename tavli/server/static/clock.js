// The café clocks on the board page: each side's reserve, and the delay of the running turn
// counted down first, ticking between the server's states (docs/cafe.md, "Clocks").
//
// The server keeps the time; a state says what each side had when it was sent. The page takes
// off what has passed since it arrived, and half the connection's round trip (the time the state
// spent on its way): measured with the protocol's ping, else guessed from the states' arrival.
import { t } from "/static/strings.js";

const LOW_MS = 10000;  // under this a reserve is shown as running low

/** "m:ss" (or "h:mm:ss") of a number of milliseconds, rounded up: a clock shows 0:00 only at the end. */
export function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return `${h ? `${h}:` : ""}${mm}:${String(sec).padStart(2, "0")}`;
}

export class ClockView {
  /** ``elements``: {white, black} elements, one in each player's row. */
  constructor(elements) {
    this.elements = elements;
    this.clock = null;
    this.arrived = 0;
    this.oneWay = null;     // half the last round trip (ms), from the ping
    this.guess = 0;         // without a ping: the smallest lateness seen, a state's own age
    this.timer = null;
  }

  /** A round trip measured (a ping answered): half of it is how old a state is when it comes. */
  roundTrip(ms) { this.oneWay = this.oneWay === null ? ms / 2 : 0.7 * this.oneWay + 0.3 * (ms / 2); }

  /** The clocks of a state just come (null: the match has none). */
  update(clock, over = false) {
    this.clock = clock;
    this.arrived = performance.now();
    this.over = over;
    for (const el of Object.values(this.elements)) el.hidden = !clock;
    clearInterval(this.timer);
    this.timer = null;
    if (!clock) return;
    if (clock.running && !over) this.timer = setInterval(() => this.draw(), 100);
    this.draw();
  }

  /** What ``side`` has left now: {reserve, delay} in ms (delay: of the running turn, else null). */
  left(side) {
    const c = this.clock;
    if (c.running !== side || this.over) return { reserve: c[side], delay: null };
    const late = this.oneWay ?? this.guess;
    let passed = performance.now() - this.arrived + late;
    const delayLeft = Math.max(0, (c.delay_left ?? c.delay) - passed);
    passed = Math.max(0, passed - (c.delay_left ?? c.delay));
    return { reserve: Math.max(0, c[side] - passed), delay: c.delay > 0 ? delayLeft : null };
  }

  draw() {
    if (!this.clock) return;
    for (const [side, el] of Object.entries(this.elements)) {
      const { reserve, delay } = this.left(side);
      const running = this.clock.running === side && !this.over;
      el.classList.toggle("running", running);
      el.classList.toggle("low", reserve < LOW_MS);
      const main = el.querySelector(".reserve"), lag = el.querySelector(".delay");
      main.textContent = clockText(reserve);
      lag.hidden = !running || delay === null || delay <= 0;
      lag.textContent = delay ? `+${Math.ceil(delay / 1000)}` : "";
      el.title = running && delay ? t("clockDelayTitle", { s: Math.ceil(delay / 1000) }) : t("clockTitle");
    }
  }
}
