// The account page (/account): change the password, or delete the account (its password again,
// and a box ticked: it cannot be undone); for a moderator, the way to the moderators' page.
import { $ } from "/static/common.js";
import { errorWords, send, sessionBar, whoChanged } from "/static/session.js";
import { languageSwitch, say, translatePage } from "/static/strings.js";

/** What the page shows: the forms to a player, a word to log in to a guest; and to a moderator
 * the link to his page. */
async function show(name) {
  $("guest").hidden = !!name;
  $("password-form").hidden = $("delete-form").hidden = !name;
  $("moderation").hidden = true;
  if (!name) return;
  const me = await fetch("/api/session", { cache: "no-store" }).then((a) => (a.ok ? a.json() : {})).catch(() => ({}));
  $("moderation").hidden = me.moderator !== true;
}

/** Say `key`'s words in `el`, as good news or as an error. */
function tell(el, key, bad, words = null) {
  el.classList.toggle("error", bad);
  if (words === null) say(el, key);
  else { say(el); el.textContent = words; }
}

$("password-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const [ok, body] = await send("POST", "/api/account/password",
    { password: $("old-password").value, new_password: $("new-password").value }).catch(() => [false, {}]);
  tell($("password-said"), "passwordChanged", !ok, ok ? null : errorWords(body, "requestFailed"));
  if (ok) $("old-password").value = $("new-password").value = "";
});

$("delete-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const [ok, body] = await send("DELETE", "/api/account", { password: $("delete-password").value }).catch(() => [false, {}]);
  if (ok) { whoChanged(null); location.assign("/"); return; }  // this browser's other pages: a guest's now
  tell($("delete-said"), null, true, errorWords(body, "requestFailed"));
});

languageSwitch($("lang"));
translatePage();
sessionBar($("session"), show);
