// Who is logged in, on every page that shows it: the header's bar (the name and Log out, or Log in
// and Sign up with their small form), and the seats this browser holds, which a guest's sign-up or
// login gives to his new account; and who this browser is, told to each of its pages as it changes.
import { language, sayable, t } from "/static/strings.js";

const MINE = "tavli:mine:";

/** Remember that this browser plays a seat of `match` with `token` (the link holds it only in its
 * hash, which nothing else keeps). */
export function keepMine(match, token) {
  if (match && token) localStorage.setItem(MINE + match, token);
}

/** The seat token this browser holds for `match`, or null. */
export function mineOf(match) {
  return localStorage.getItem(MINE + match);
}

/** Every seat this browser holds: [{match, token}]. */
export function heldMatches() {
  const held = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key?.startsWith(MINE)) held.push({ match: key.slice(MINE.length), token: localStorage.getItem(key) });
  }
  return held;
}

// Who this browser is (a login, a sign-up, a logout, an account deleted) reaches every page of it
// that is open: each reopens its sockets, which the server knows a person by when they open.
const whoListeners = [];
const whoChannel = typeof BroadcastChannel === "function" ? new BroadcastChannel("tavli:who") : null;
whoChannel?.addEventListener("message", (event) => tellWho(event.data?.name ?? null));

function tellWho(name) {
  for (const heard of whoListeners) heard(name);
}

/** Call `heard(name)` whenever who this browser is changes, on this page or another of its pages
 * (`name`: the account's, null: a guest). */
export function onWhoChanges(heard) {
  whoListeners.push(heard);
}

/** This browser is `name` now (null: a guest again): this page and its other open pages are told. */
export function whoChanged(name) {
  whoChannel?.postMessage({ name });
  tellWho(name);
}

/** This page is `name`'s now (null: a guest's), its other pages untold: each learns it for itself
 * (an account closed by a moderator: the server closes each page's sockets). */
export function whoChangedHere(name) {
  tellWho(name);
}

/** The name of the player logged in here, or null for a guest. */
export async function whoAmI() {
  try {
    const answer = await fetch("/api/session", { cache: "no-store" });
    return (await answer.json()).name ?? null;
  } catch {
    return null;
  }
}

/** The link to a player's page. */
export function playerLink(name) {
  const a = document.createElement("a");
  a.href = `/@/${encodeURIComponent(name)}`;
  a.textContent = name;  // a name is data: text, never markup
  return a;
}

/** A player's name as the pages show it, as nodes to append: an account's links to his page; a
 * guest's is followed by a grey "guest", so that no guest passes for a player with an account. */
export function shownName(name, account) {
  if (account) return [name === "(deleted)" ? t("deletedPlayer") : playerLink(name)];  // no account name has brackets
  const mark = document.createElement("span");
  mark.className = "guest-mark";
  mark.textContent = t("guestMark");
  return [name, " ", mark];  // the name is text, never markup
}

/** A match's opponent as nodes to append (a players' list's `{kind, level, name, account}`): a bot
 * by its level, a person by his name as shown, "human" where he gave none. */
export function opponentName(opponent) {
  if (opponent.kind === "bot") return [t("bot", { level: t(`level-${opponent.level}`) })];
  return opponent.name ? shownName(opponent.name, opponent.account) : [t("human")];
}

/** A date (seconds since 1970) as the page's language writes it, short: 6 Dec 2026. */
export function dateText(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(language() === "el" ? "el-GR" : "en-GB",
    { day: "numeric", month: "short", year: "numeric" });
}

/** A moment (seconds since 1970) as the page's language writes it, to the minute: 6 Dec 2026, 14:05. */
export function dateTimeText(seconds) {
  return new Date(seconds * 1000).toLocaleString(language() === "el" ? "el-GR" : "en-GB",
    { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
}

/** A server's error answer in the page's language: its reason, or else `fallback`'s words. */
export function errorWords(body, fallback) {
  return sayable(body?.reason) ?? (body?.error && language() === "en" ? body.error : t(fallback));
}

/** Send `body` as JSON with `method` to `path`: [ok, answer's JSON]. */
export async function send(method, path, body) {
  const answer = await fetch(path, { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return [answer.ok, await answer.json().catch(() => ({}))];
}

/** A button with the words of ``key`` (kept in the page's language) and a test id. */
export function button(key, testid, onClick, style = "quiet") {
  const b = document.createElement("button");
  b.type = "button";
  b.className = style;
  b.dataset.testid = testid;
  b.dataset.i18n = key;
  b.textContent = t(key);
  b.addEventListener("click", onClick);
  return b;
}

function field(key, input) {
  const label = document.createElement("label");
  const words = document.createElement("span");
  words.dataset.i18n = key;
  words.textContent = t(key);
  label.append(words, input);
  return label;
}

function input(testid, type, autocomplete) {
  const box = document.createElement("input");
  Object.assign(box, { type, autocomplete, required: true });
  box.dataset.testid = testid;
  return box;
}

/**
 * The header's bar in `nav`: the player's name and Log out, or Log in and Sign up. `changed(name)`
 * is told of who is here once the server has said, then of every login, sign-up and logout (null:
 * a guest again), on this page or another of this browser's. Returns {open(kind), ready}: open the form from elsewhere ("login" or "signup";
 * the start page does when a board sent the player to log in), and a promise of the first name.
 */
export function sessionBar(nav, changed = () => {}) {
  const form = loginForm(whoChanged);
  onWhoChanges(async (name) => { await draw(name); changed(name); });
  nav.closest("header").after(form.element);  // under the header, not in its row
  async function draw(name) {
    nav.replaceChildren();
    if (name) {
      const me = playerLink(name);
      me.dataset.testid = "me";
      const account = document.createElement("a");
      account.href = "/account";
      account.dataset.i18n = "account";
      account.dataset.testid = "account-link";
      account.textContent = t("account");
      nav.append(me, account, button("logOut", "log-out", async () => {
        await send("DELETE", "/api/session", {}).catch(() => {});
        whoChanged(null);
      }));
    } else {
      nav.append(button("logIn", "log-in", () => form.open("login")), button("signUp", "sign-up", () => form.open("signup")));
    }
  }
  const ready = whoAmI().then(async (name) => { await draw(name); changed(name); return name; });
  return { open: form.open, ready };
}

/** The small form of a login or a sign-up; `done(name)` once the server has said yes. */
function loginForm(done) {
  const element = document.createElement("form");
  element.className = "card session-form";
  element.dataset.testid = "session-form";
  element.hidden = true;
  const title = document.createElement("h2");
  const name = input("account-name", "text", "username");
  name.maxLength = 20;
  const password = input("account-password", "password", "current-password");
  password.minLength = 8;
  const submit = document.createElement("button");
  submit.type = "submit";
  submit.className = "primary";
  submit.dataset.testid = "session-submit";
  const error = document.createElement("p");
  error.className = "error";
  error.dataset.testid = "session-error";
  error.setAttribute("role", "alert");
  const row = document.createElement("div");
  row.className = "row";
  row.append(submit, button("cancel", "session-cancel", () => { element.hidden = true; }));
  element.append(title, field("accountName", name), field("password", password), row, error);
  let kind = "login";
  function open(which) {
    kind = which;
    for (const [el, key] of [[title, which === "login" ? "logIn" : "signUp"], [submit, which === "login" ? "logIn" : "signUp"]]) {
      el.dataset.i18n = key;
      el.textContent = t(key);
    }
    password.autocomplete = which === "login" ? "current-password" : "new-password";
    error.textContent = "";
    element.hidden = false;
    name.focus();
  }
  element.addEventListener("submit", async (event) => {
    event.preventDefault();
    submit.disabled = true;
    error.textContent = "";
    try {
      const path = kind === "login" ? "/api/session" : "/api/accounts";
      // the seats this browser played as a guest go to the account
      const [ok, body] = await send("POST", path, { name: name.value.trim(), password: password.value, matches: heldMatches().slice(0, 200) });  // account_api.MOST_KEPT
      if (!ok) throw body;
      element.hidden = true;
      password.value = "";
      await done(body.name);
    } catch (body) {
      error.textContent = errorWords(body, kind === "login" ? "loginFailed" : "signUpFailed");
    }
    submit.disabled = false;
  });
  return { element, open };
}
