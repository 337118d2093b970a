// The moderators' page (/moderation; docs/cafe.md, "Moderators"): the open reports, oldest first,
// each with whom it names, who made it, why, his note, the match and its chat; and what a moderator
// may do of it: warn the player (in words he reads), close his chat for a while, give his account
// another name, close the account, or dismiss the report. Under them the moderators' log, newest
// first. Anyone else reads one line saying whose page this is.
// Every name, note and chat line is data: set as text, never as markup.
import { $, colorName, textLink } from "/static/common.js";
import { CHAT } from "/static/games.js";
import { button, dateTimeText, errorWords, playerLink, send, sessionBar, shownName } from "/static/session.js";
import { language, languageSwitch, say, t, translatePage } from "/static/strings.js";

const MUTE_DAYS = [1, 7, 30];
const NAME_LENGTH = 20;   // an account's longest name (tavli.server.cafe.accounts)

let data = null;          // the last answer of /api/moderation
const drafts = new Map(); // report id → the action being written: {action, words, days, name, reason, sure}
const errors = new Map(); // report id → the words of its last refused action
const busy = new Set();   // report ids whose action is on its way

function el(tag, className = "", text = null) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null) node.textContent = text;  // text, never markup
  return node;
}

/** "1 day", "7 days". */
function daysText(n) { return n === 1 ? t("modDay") : t("modDays", { n }); }

/** The time of day of a moment (seconds since 1970): 14:05. */
function timeText(seconds) {
  return new Date(seconds * 1000).toLocaleTimeString(language() === "el" ? "el-GR" : "en-GB",
    { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
}

/** Whether the account's chat is closed now. */
function muted(account) { return account?.chat_banned_until != null && account.chat_banned_until * 1000 > Date.now(); }

/** A field of a report: its name, then what it says. */
function field(list, key, ...content) {
  const term = el("dt", "", t(key));
  const said = el("dd");
  said.append(...content);
  list.append(term, said);
  return said;
}

/** Who is reported: his account's page (as it is named now), or a guest's name; and the name the
 * report gave where the account has another now. */
function reportedWho(r) {
  const who = el("span", "mod-reported");
  who.dataset.testid = "report-reported";
  if (!r.account) {
    who.append(...shownName(r.reported, false));
    return who;
  }
  if (r.account.closed) who.append(t("deletedPlayer"));
  else who.append(playerLink(r.account.name));
  if (r.account.closed || r.account.name !== r.reported) {
    who.append(" ", el("span", "muted", t("modReportedAs", { name: r.reported })));
  }
  return who;
}

/** The account's state: closed, or its chat closed until when. */
function accountState(r) {
  if (!r.account) return null;
  if (r.account.closed) return t("modClosed");
  if (muted(r.account)) return t("modMutedUntil", { date: dateTimeText(r.account.chat_banned_until) });
  return null;
}

/** One line of the match's chat: its room, who, what (a quick phrase in this page's words, a line
 * of text as it was written), when; the reported player's own lines marked. */
function chatLine(line, r) {
  const item = el("li");
  item.dir = "auto";
  item.dataset.testid = "report-chat-line";
  const name = line.name ?? (line.seat === "spectator" ? t("chatSpectator") : colorName(line.seat));
  if (line.name !== null && [r.reported, r.account?.name].includes(line.name)) item.classList.add("by-reported");
  const room = el("span", `mod-room room-${line.room}`, t(`modRoom-${line.room}`));
  const who = el("bdi", "who", name);
  const what = el("bdi", "what", line.phrase !== null ? t(`phrase-${line.phrase}`) : line.text);
  what.dataset.testid = "report-chat-what";
  what.classList.add(line.phrase !== null ? "phrase" : "text");
  const when = el("span", "muted small mod-when", timeText(line.at));
  when.title = dateTimeText(line.at);
  item.append(room, " ", who, ": ", what, " ", when);
  return item;
}

/** The action's form under the report: what it asks, and its button. */
function actionForm(r, draft) {
  const form = el("form", "mod-form");
  form.dataset.testid = "report-form";
  const keep = (key) => (event) => { draft[key] = event.target.type === "checkbox" ? event.target.checked : event.target.value; };
  const labelled = (key, control, testid) => {
    const label = el("label");
    control.dataset.testid = testid;
    control.addEventListener("input", keep(control.dataset.key));
    control.addEventListener("change", keep(control.dataset.key));
    label.append(el("span", "", t(key)), control);
    return label;
  };
  const text = (key, value, { area = false, max = CHAT.note, required = false } = {}) => {
    const box = document.createElement(area ? "textarea" : "input");
    if (!area) box.type = "text";
    box.dataset.key = key;
    box.value = value ?? "";
    box.maxLength = max;
    box.required = required;
    if (area) box.rows = 3;
    return box;
  };
  const name = r.account?.name ?? r.reported;
  const parts = [];
  if (draft.action === "warn") {
    parts.push(labelled("modWarnWords", text("words", draft.words, { area: true, required: true }), "mod-warn-words"));
  } else if (draft.action === "mute") {
    const days = document.createElement("select");
    days.dataset.key = "days";
    days.append(...MUTE_DAYS.map((n) => new Option(daysText(n), String(n))));
    days.value = String(draft.days ?? 1);
    parts.push(labelled("modMuteFor", days, "mod-mute-days"));
  } else if (draft.action === "rename") {
    const box = text("name", draft.name, { max: NAME_LENGTH, required: true });
    box.autocomplete = "off";
    parts.push(labelled("modNewName", box, "mod-new-name"));
  } else if (draft.action === "close") {
    parts.push(el("p", "", t("modCloseText", { name })));
  }
  if (draft.action !== "warn") {
    parts.push(labelled("modReason", text("reason", draft.reason), "mod-reason"));
  }
  if (draft.action === "close") {
    const sure = document.createElement("input");
    sure.type = "checkbox";
    sure.required = true;
    sure.checked = !!draft.sure;
    sure.dataset.key = "sure";
    const label = labelled("modCloseSure", sure, "mod-close-sure");
    label.className = "check";
    label.prepend(sure);
    parts.push(label);
  }
  const submit = el("button", draft.action === "close" ? "danger" : "primary", t(`modSend-${draft.action}`));
  submit.type = "submit";
  submit.dataset.testid = "mod-send";
  submit.disabled = busy.has(r.id);
  const row = el("div", "row wrap");
  row.append(submit, button("cancel", "mod-cancel", () => { drafts.delete(r.id); errors.delete(r.id); render(); }, "secondary"));
  form.append(...parts, row);
  form.addEventListener("submit", (event) => { event.preventDefault(); act(r, draft); });
  return form;
}

/** The buttons of what may be done of a report: only Dismiss where no account stands behind it
 * (a guest) or it is closed already. */
function actions(r) {
  const row = el("div", "row wrap mod-actions");
  const open = (action) => () => {
    drafts.set(r.id, { ...(drafts.get(r.id)?.action === action ? drafts.get(r.id) : {}), action });
    errors.delete(r.id);
    render();
    document.querySelector(`[data-testid=report-${r.id}] .mod-form input, [data-testid=report-${r.id}] .mod-form textarea,`
      + ` [data-testid=report-${r.id}] .mod-form select`)?.focus();
  };
  if (r.account && !r.account.closed) {
    row.append(button("modWarn", "mod-warn", open("warn"), "secondary"),
      button("modMute", "mod-mute", open("mute"), "secondary"));
    if (muted(r.account)) row.append(button("modUnmute", "mod-unmute", open("unmute"), "secondary"));
    row.append(button("modRename", "mod-rename", open("rename"), "secondary"),
      button("modClose", "mod-close", open("close"), "danger"));
  }
  const dismiss = button("modDismiss", "mod-dismiss", () => act(r, { action: "dismiss" }), "quiet");
  row.append(dismiss);
  for (const b of row.querySelectorAll("button")) {
    b.classList.add("small");
    b.disabled = busy.has(r.id);
  }
  return row;
}

function reportCard(r) {
  const card = el("article", "mod-report");
  card.dataset.testid = `report-${r.id}`;
  card.dataset.report = String(r.id);
  const head = el("h3", "mod-head");
  const reason = el("span", "mod-reason-words", t(`reason-${r.reason}`));
  reason.dataset.testid = "report-reason";
  head.append(reason, " ", el("span", "muted small", dateTimeText(r.at)));
  const facts = el("dl", "mod-facts");
  field(facts, "modPlayer", reportedWho(r));
  const state = accountState(r);
  if (state) field(facts, "modState", state).dataset.testid = "report-state";
  field(facts, "modBy", r.reporter_name ? playerLink(r.reporter_name) : t("modGuest")).dataset.testid = "report-by";
  if (r.note) {
    const note = field(facts, "modNote", el("bdi", "", r.note));
    note.dataset.testid = "report-note";
    note.dir = "auto";
  }
  if (r.match) {
    const links = el("span", "links");
    const id = encodeURIComponent(r.match);
    links.append(textLink(`/match/${id}`, "boardLink", "report-board"), " · ", textLink(`/match/${id}/review`, "review", "report-review"));
    field(facts, "modMatch", links);
  }
  card.append(head, facts);
  if (r.match) {
    const chat = el("div", "mod-chat");
    chat.append(el("h4", "", t("modChat")));
    if (r.chat.length) {
      const list = el("ol", "mod-chat-lines");
      list.dataset.testid = "report-chat";
      list.append(...r.chat.map((line) => chatLine(line, r)));
      chat.append(list);
    } else {
      chat.append(el("p", "muted small", t("chatNone")));
    }
    card.append(chat);
  }
  card.append(actions(r));
  const draft = drafts.get(r.id);
  if (draft && draft.action !== "dismiss") card.append(actionForm(r, draft));
  const error = el("p", "error", errors.get(r.id) ?? "");
  error.dataset.testid = "report-error";
  error.setAttribute("role", "alert");
  card.append(error);
  return card;
}

/** A logged action in words: "Chat closed for 7 days", "Renamed Troll → Player7". */
function didWords(entry) {
  const d = entry.detail ?? {};
  if (entry.action === "mute") return t("modDid-mute", { days: daysText(Number(d.days ?? 0)) });
  if (entry.action === "rename") return t("modDid-rename", { from: d.from ?? entry.account ?? "", to: d.to ?? "" });
  return t(`modDid-${entry.action}`);
}

function logEntry(entry) {
  const item = el("li");
  item.dataset.testid = "log-entry";
  item.dataset.action = entry.action;
  const line = el("p");
  line.dir = "auto";
  line.append(el("strong", "", didWords(entry)));
  if (entry.account && entry.action !== "rename") line.append(" · ", el("bdi", "", entry.account));
  const moderator = entry.moderator === "(deleted)" ? t("deletedPlayer") : entry.moderator;  // a closed moderator's
  line.append(" · ", el("bdi", "", t("modByWho", { name: moderator })));
  if (entry.report !== null && entry.report !== undefined) line.append(" · ", t("modReportNumber", { n: entry.report }));
  item.append(line, el("p", "muted small", dateTimeText(entry.at)));
  if (entry.note) {
    const note = el("p", "mod-log-note", entry.note);
    note.dir = "auto";
    note.dataset.testid = "log-note";
    item.append(note);
  }
  return item;
}

function render() {
  const show = data !== null;
  $("reports-card").hidden = $("log-card").hidden = !show;
  if (!show) return;
  // an action's report gone from the list takes its draft with it
  const open = new Set(data.reports.map((r) => r.id));
  for (const id of [...drafts.keys()]) if (!open.has(id)) drafts.delete(id);
  $("reports").replaceChildren(...data.reports.map(reportCard));
  $("no-reports").hidden = data.reports.length > 0;
  $("log").replaceChildren(...data.log.map(logEntry));
  $("no-log").hidden = data.log.length > 0;
}

/** Post the action `draft` of report `r`; the list again once it is done, the reason beside it
 * where it is refused. */
async function act(r, draft) {
  const body = { action: draft.action, report: r.id, note: (draft.action === "warn" ? draft.words : draft.reason) ?? "" };
  if (draft.action !== "dismiss") body.account = r.account.id;
  if (draft.action === "mute") body.days = Number(draft.days ?? 1);
  if (draft.action === "rename") body.name = (draft.name ?? "").trim();
  busy.add(r.id);
  errors.delete(r.id);
  render();
  const [ok, answer] = await send("POST", "/api/moderation/actions", body).catch(() => [false, {}]);
  busy.delete(r.id);
  if (ok) {
    drafts.delete(r.id);
    await load();
    return;
  }
  errors.set(r.id, errorWords(answer, "requestFailed"));
  render();
}

async function load() {
  let answer;
  try {
    answer = await fetch("/api/moderation", { cache: "no-store" });
  } catch {
    answer = null;
  }
  const forbidden = answer !== null && (answer.status === 401 || answer.status === 403);
  $("forbidden").hidden = !forbidden;
  $("error").hidden = true;
  if (answer?.ok) {
    data = await answer.json().catch(() => null);
  } else {
    data = null;
  }
  if (!forbidden && data === null) {
    say($("error"), "loadFailed");
    $("error").hidden = false;
  }
  document.body.dataset.loaded = "1";  // the tests wait for it
  render();
}

languageSwitch($("lang"), render);
translatePage();
// who is here decides what the page shows: load again at each login or logout
sessionBar($("session"), () => { load(); });
