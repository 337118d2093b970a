// The leaderboard (/leaderboard?pool=POOL): the players of a pool, those with a settled rating
// first, best first and ranked, then the provisional ones (a "?" after the rating, no rank), each
// name a link to his page.
import { $, POOLS, poolName } from "/static/common.js";
import { playerLink, sessionBar } from "/static/session.js";
import { languageSwitch, say, translatePage } from "/static/strings.js";

let board = null;  // the last answer of /api/leaderboard

function poolOptions() {
  const chosen = $("pool").value || new URLSearchParams(location.search).get("pool") || "tavli";
  $("pool").replaceChildren(...POOLS.map((pool) => new Option(poolName(pool), pool)));
  $("pool").value = POOLS.includes(chosen) ? chosen : "tavli";
}

function render() {
  const rows = $("leader-rows");
  rows.replaceChildren();
  for (const p of board?.players ?? []) {
    const row = rows.insertRow();
    row.dataset.testid = `leader-${p.name}`;
    if (p.provisional) row.className = "provisional";
    row.insertCell().textContent = p.rank === null ? "" : String(p.rank);  // a provisional rating has no rank yet
    row.insertCell().append(playerLink(p.name));
    const deviation = document.createElement("span");
    deviation.className = "deviation";  // a phone leaves it out: the names need the room
    deviation.textContent = ` ± ${Math.round(p.deviation)}`;
    row.insertCell().append(p.shown, deviation);
    row.insertCell().textContent = String(p.matches);
  }
  const none = board !== null && board.players.length === 0;
  $("no-leaders").hidden = !none;
  $("provisional-leaders").hidden = !(board?.players ?? []).some((p) => p.provisional);
  $("leader-rows").closest("table").hidden = none;
}

async function load() {
  const pool = $("pool").value;
  history.replaceState(null, "", `?pool=${pool}`);
  say($("error"));
  try {
    const answer = await fetch(`/api/leaderboard?pool=${pool}`, { cache: "no-store" });
    if (!answer.ok) throw new Error();
    board = await answer.json();
  } catch {
    say($("error"), "loadFailed");
    board = null;
  }
  render();
}

$("pool").addEventListener("change", load);
languageSwitch($("lang"), () => { poolOptions(); render(); });
translatePage();
poolOptions();
sessionBar($("session"));
load();
