// The board page's chat (docs/cafe.md, "Talk across the table"): the players' table, or the
// spectators' own room; the quick phrases as one-tap buttons (sent by key, said in this page's
// language), a line of text between two signed-in players (or from a signed-in spectator), the
// player's switch that hides written lines (kept in localStorage), his mute of the opponent (kept
// by the server for an account, in localStorage for a guest), and the report dialog.
//
// Every line is text: a name and a message are set with textContent, each in a <bdi> of its own
// inside a line with dir="auto", so that no markup runs and no right-to-left or invisible
// character can reorder the page around it.

import { $, colorName } from "/static/common.js";
import { CHAT } from "/static/games.js";
import { errorWords, send as request, whoAmI } from "/static/session.js";
import { t } from "/static/strings.js";

const TEXT_KEY = "tavli:chat-text";   // "0": written lines hidden (the player's own choice)
const LINES_KEPT = 100;

export class ChatPanel {
  /** `matchId`; `send(message)` on the match's socket; `toast(text)` a passing line. */
  constructor({ matchId, send, toast }) {
    this.matchId = matchId;
    this.send = send;
    this.toast = toast;
    this.rooms = { players: new Map(), spectators: new Map() };  // line id -> line, per room
    this.state = null;
    this.muted = false;
    this.signedIn = false;
    this.reportWho = null;
    whoAmI().then((name) => { this.signedIn = name !== null; this.render(); });
    $("chat-text-off").checked = localStorage.getItem(TEXT_KEY) === "0";
    $("chat-text-off").addEventListener("change", () => {
      localStorage.setItem(TEXT_KEY, $("chat-text-off").checked ? "0" : "1");
      this.render();
    });
    $("chat-mute").addEventListener("change", () => this.mute($("chat-mute").checked));
    $("chat-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = $("chat-text").value.trim();
      if (!text) return;
      this.send({ type: "say", text });
      $("chat-text").value = "";
    });
    $("report-open").addEventListener("click", () => this.openReport(this.opponent()));
    $("report-cancel").addEventListener("click", () => { $("report").hidden = true; });
    $("report-form").addEventListener("submit", (event) => { event.preventDefault(); this.sendReport(); });
  }

  get muteKey() { return `tavli:chat-mute:${this.matchId}`; }

  /** The room this page speaks in: the players' table for a seat, else the spectators'. */
  room() { return this.state && this.state.you !== "spectator" ? "players" : "spectators"; }

  /** A `chat` message (lines, or the lines of a room as the page joins) or `muted`. */
  receive(msg) {
    if (msg.type === "muted") {
      this.muted = msg.on;
      this.render();
      return;
    }
    const room = this.rooms[msg.room];
    if (!room) return;
    if (msg.history) {
      room.clear();
      if (msg.room === "players") this.joined(msg.muted);
    }
    for (const line of msg.lines) room.set(line.id, line);
    while (room.size > LINES_KEPT) room.delete(room.keys().next().value);
    this.render();
  }

  /** A player's page joined: his mute as the server keeps it (an account's), or as this browser
   * kept it (a guest's), sent again. */
  joined(serverMuted) {
    this.muted = serverMuted;
    const s = this.state;
    const guest = s && s.you !== "spectator" && !s.players[s.you].account;
    if (guest && !serverMuted && localStorage.getItem(this.muteKey) === "1") this.mute(true);
  }

  mute(on) {
    this.muted = on;
    if (on) localStorage.setItem(this.muteKey, "1"); else localStorage.removeItem(this.muteKey);
    this.send({ type: "mute", on });
    this.render();
  }

  /** The match's state changed (who plays, whether it is over). */
  follow(state) {
    const first = this.state === null || this.state === undefined;
    this.state = state;
    if (first || this.rejoined) {  // a quiet table sends no lines on joining: the page's own mute goes again
      this.rejoined = false;
      this.joined(this.muted);
    }
    this.render();
  }

  /** The page's socket (re)connected: its next state is a fresh join. */
  reconnected() { this.rejoined = true; }

  /** The opponent of this page's seat, as a report names him. */
  opponent() {
    if (!this.state || this.state.you === "spectator") return null;
    const seat = this.state.you === "white" ? "black" : "white";
    return { name: this.state.players[seat].name || colorName(seat), seat };
  }

  /** Whether this page may write lines of its own: two signed-in players, or a signed-in spectator. */
  canWrite() {
    const s = this.state;
    if (this.room() === "spectators") return this.signedIn;
    return s.players.white.account && s.players.black.account;
  }

  /** Whether the page has a chat at all: a person to talk to, or spectators. */
  shown() {
    const s = this.state;
    if (!s) return false;
    if (this.room() === "spectators") return true;
    return s.players.white.kind === "human" && s.players.black.kind === "human";
  }

  render() {
    const s = this.state;
    $("chat").hidden = !this.shown();
    if ($("chat").hidden) return;
    const mine = this.room();
    const textOff = $("chat-text-off").checked;
    const afterEnd = mine === "players" && s.over && this.rooms.spectators.size > 0;
    $("chat-title").textContent = t(mine === "players" ? "chatTitle" : "chatSpectators");
    const list = $("chat-lines");
    list.replaceChildren();
    const lines = [...this.rooms[mine].values()];
    if (afterEnd) lines.push(...this.rooms.spectators.values());
    for (const line of lines) {
      if (line.text !== null && textOff) continue;
      list.append(this.lineItem(line, mine));
    }
    if (!list.children.length) {
      const none = document.createElement("li");
      none.className = "none";
      none.textContent = t("chatNone");
      list.append(none);
    }
    list.scrollTop = list.scrollHeight;
    this.renderPhrases();
    const write = this.canWrite() && !textOff;
    $("chat-form").hidden = !write;
    const note = $("chat-note");
    note.hidden = write || textOff;
    note.textContent = mine === "players" ? t("chatOnlyPhrases") : t("chatOnlyPhrasesWatch");
    $("chat-mute-label").hidden = mine !== "players";
    $("chat-mute").checked = this.muted;
    $("report-open").hidden = mine !== "players";
    if (this.muted && mine === "players") {
      const muted = document.createElement("li");
      muted.className = "none";
      muted.textContent = t("chatMuted");
      list.append(muted);
    }
  }

  /** One line: who (his name, his seat's colour, or "a spectator") and what, each a <bdi>. */
  lineItem(line, mine) {
    const item = document.createElement("li");
    item.dir = "auto";
    item.dataset.testid = "chat-line";
    item.className = line.phrase !== null ? "phrase" : "text";
    if (line.room !== mine) item.classList.add("other-room");
    const who = document.createElement("bdi");
    who.className = "who";
    who.textContent = line.name ?? (line.seat === "spectator" ? t("chatSpectator") : colorName(line.seat));
    const what = document.createElement("bdi");
    what.className = "what";
    what.dataset.testid = "chat-what";
    what.textContent = line.phrase !== null ? t(`phrase-${line.phrase}`) : line.text;
    item.append(who, ": ", what);
    if (line.room === "spectators" && mine === "spectators" && line.name) {  // a spectator's line can be reported
      const flag = document.createElement("button");
      flag.type = "button";
      flag.className = "link flag";
      flag.textContent = "⚑";
      flag.setAttribute("aria-label", t("report"));
      flag.title = t("report");
      flag.addEventListener("click", () => this.openReport({ name: line.name, seat: "spectator" }));
      item.append(" ", flag);
    }
    return item;
  }

  renderPhrases() {
    const box = $("chat-phrases");
    if (box.children.length !== CHAT.phrases.length) {
      box.replaceChildren(...CHAT.phrases.map((key) => {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "phrase";
        b.dataset.phrase = key;
        b.dataset.testid = `phrase-${key}`;
        b.addEventListener("click", () => this.send({ type: "say", phrase: key }));
        return b;
      }));
    }
    for (const b of box.children) b.textContent = t(`phrase-${b.dataset.phrase}`);
  }

  openReport(who) {
    if (!who) return;
    this.reportWho = who;
    $("report-title").textContent = t("reportTitle", { name: who.name });
    const reasons = $("report-reason");
    reasons.replaceChildren(...CHAT.reasons.map((key) => {
      const option = document.createElement("option");
      option.value = key;
      option.textContent = t(`reason-${key}`);
      return option;
    }));
    $("report-note").value = "";
    $("report-error").hidden = true;
    $("report").hidden = false;
  }

  async sendReport() {
    const who = this.reportWho;
    const [ok, body] = await request("POST", "/api/reports", {
      name: who.name, match: this.matchId, seat: who.seat, reason: $("report-reason").value, note: $("report-note").value });
    if (!ok) {
      $("report-error").textContent = t("reportFailed", { why: errorWords(body, "tryAgain") });
      $("report-error").hidden = false;
      return;
    }
    $("report").hidden = true;
    this.toast(t("reportSent"));
  }
}
