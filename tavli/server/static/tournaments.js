// The tournaments (/tournaments; docs/tournaments.md): those taking players (soonest first), those
// being played and those just finished, each a link to its page; and, for a signed-in player, the
// form that creates one (every field of POST /api/tournaments, each format's own shown with it), on
// to its page once it is made.
import { $ } from "/static/common.js";
import { errorWords, send, sessionBar } from "/static/session.js";
import { languageSwitch, t, translatePage } from "/static/strings.js";
import { tournamentItem } from "/static/tourlist.js";

let listed = null;  // the last answer of GET /api/tournaments
let me = null;      // who is signed in here (null: a guest)

function renderList() {
  const all = listed?.tournaments ?? [];
  for (const [key, statuses] of [["open", ["open"]], ["running", ["running"]], ["finished", ["finished", "cancelled"]]]) {
    const shown = all.filter((s) => statuses.includes(s.status));
    $(`${key}-tours`).replaceChildren(...shown.map((s) => tournamentItem(s)));
    $(`${key}-none`).hidden = listed === null || shown.length > 0;
  }
}

async function loadList() {
  if (document.hidden && listed !== null) return;
  try {
    const answer = await fetch("/api/tournaments", { cache: "no-store" });
    if (!answer.ok) throw new Error();
    listed = await answer.json();
    $("list-error").textContent = "";
  } catch {
    $("list-error").textContent = t("loadFailed");
  }
  renderList();
}

// -- the form: a new tournament --------------------------------------------------------------------------

/** The form's fields for the format chosen: a knockout's final and consolation, a Swiss's rounds, an
 * arena's minutes, a round-robin's groups; the time it starts where one is asked for. */
function showFields() {
  const format = $("format").value;
  for (const label of document.querySelectorAll("#create [data-for]")) label.hidden = label.dataset.for !== format;
  $("rounds").required = format === "swiss";
  $("minutes").required = format === "arena";
  $("max-players").max = format === "arena" ? "1000" : "256";  // an arena takes up to 1,000
  $("format-about").textContent = t(`tourAbout-${format}`);
  const at = document.querySelector("#create input[name=start]:checked").value === "at";
  $("starts-at-label").hidden = !at;
  $("starts-at").required = at;
}

/** A number field's value, or null where it is left empty. */
function number(id) {
  const value = $(id).value.trim();
  return value === "" ? null : Number(value);
}

/** The body of POST /api/tournaments from the form (docs/tournaments.md, "The API"). */
function request() {
  const format = $("format").value;
  const body = {
    name: $("tour-name-input").value.trim(), format, length: number("length"), games: $("games").value,
    clock: $("clock").value, rated: $("rated").checked, max_players: number("max-players"),
    forfeit_minutes: number("forfeit"),
  };
  if (document.querySelector("#create input[name=start]:checked").value === "at") {
    body.starts_at = new Date($("starts-at").value).toISOString();  // the time the player chose, in his own zone
  } else {
    body.start = "when-full";
  }
  if (format === "knockout") {
    body.consolation = $("consolation").checked;
    body.seeding = $("seeding").value;
    if (number("final-length") !== null) body.final_length = number("final-length");
  } else if (format === "swiss") {
    body.rounds = number("rounds");
  } else if (format === "arena") {
    body.minutes = number("minutes");
  } else if (format === "round-robin") {
    if (number("groups") !== null) {  // the top of each group go on: a round-robin alone has none
      body.groups = number("groups");
      if (number("qualify") !== null) body.qualify = number("qualify");
    }
  }
  return body;
}

async function create(event) {
  event.preventDefault();
  const sendButton = $("create-send");
  $("create-error").textContent = "";
  const at = document.querySelector("#create input[name=start]:checked").value === "at";
  if (at && Number.isNaN(new Date($("starts-at").value).getTime())) {
    $("create-error").textContent = t("tourNeedTime");
    return;
  }
  sendButton.disabled = true;
  sendButton.textContent = t("tourCreating");
  try {
    const [ok, made] = await send("POST", "/api/tournaments", request());
    if (!ok) throw made;
    location.assign(`/tournaments/${encodeURIComponent(made.id)}`);
    return;
  } catch (refused) {
    $("create-error").textContent = errorWords(refused, "tourCreateFailed");
  }
  sendButton.disabled = false;
  sendButton.textContent = t("tourCreateSend");
}

/** The form for a signed-in player; a guest reads how to become one. */
function showForm() {
  $("create").hidden = me === null;
  $("create-guest").hidden = me !== null;
  $("create-guest-buttons").hidden = me !== null;
}

$("format").addEventListener("change", showFields);
for (const radio of document.querySelectorAll("#create input[name=start]")) radio.addEventListener("change", showFields);
$("create").addEventListener("submit", create);
languageSwitch($("lang"), () => { renderList(); showFields(); });
translatePage();
showFields();
const bar = sessionBar($("session"), (name) => { me = name; showForm(); });
$("create-log-in").addEventListener("click", () => bar.open("login"));
$("create-sign-up").addEventListener("click", () => bar.open("signup"));
loadList();
setInterval(loadList, 10000);
