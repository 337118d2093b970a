// The tournaments as the lists show them (the list page, /tournaments, and the start page's box): each
// a line from its summary in GET /api/tournaments, its name a link to its page. Names are data: set
// as text, never as markup.
import { clockName, gamesName } from "/static/common.js";
import { dateTimeText } from "/static/session.js";
import { t } from "/static/strings.js";

/** Seconds since 1970 of an ISO time the server sent. */
export function isoSeconds(iso) { return Date.parse(iso) / 1000; }

/** How many players a summary counts (its list of players, or their number). */
export function playerCount(s) {
  if (Array.isArray(s.players)) return s.players.filter((p) => !p.withdrawn).length;
  return s.players ?? s.player_count ?? 0;
}

/** How a tournament stands, in words: when it starts, the time an arena has left, when it ended. */
export function standsText(s) {
  if (s.status === "open") {
    return s.starts_at ? t("tourStartsAt", { date: dateTimeText(isoSeconds(s.starts_at)) })
      : t("tourStartsWhenFull", { n: playerCount(s), max: s.max_players });
  }
  if (s.status === "running") {
    if (s.ends_at) {
      const left = Math.max(0, Math.round((isoSeconds(s.ends_at) - Date.now() / 1000) / 60));
      return t("tourTimeLeft", { time: t("minutes", { n: left }) });
    }
    return t("tourPlayerCount", { n: playerCount(s) });
  }
  if (s.status === "finished") {
    const when = s.finished ? t("tourFinishedAt", { date: dateTimeText(isoSeconds(s.finished)) }) : t("tourStatus-finished");
    return s.winner ? `${when} · ${t("tourWinner", { name: s.winner })}` : when;
  }
  return t(`tourStatus-${s.status}`);
}

/** A list's line of a tournament (`testid`: the line's, the link's is `testid-link`) and the link to
 * its page, its name as text. */
export function tournamentLine(s, testid) {
  const item = document.createElement("li");
  item.dataset.testid = testid;
  item.dataset.id = s.id;
  const link = document.createElement("a");
  link.href = `/tournaments/${encodeURIComponent(s.id)}`;
  link.textContent = s.name;
  link.dir = "auto";
  link.dataset.testid = `${testid}-link`;
  link.className = "tour-link";
  return { item, link };
}

/** A tournament's list item: its name (a link to its page), then its format, its matches (unless
 * `short`) and how it stands. */
export function tournamentItem(s, short = false) {
  const { item, link } = tournamentLine(s, "tour");
  item.dataset.testid = "tour-item";
  const about = document.createElement("span");
  const matches = s.games && !short ? `${gamesName(s.games)} ${t("toPoints", { n: s.length })}` : null;
  const words = [t(`tourFormat-${s.format}`), matches, s.clock !== undefined && !short ? clockName(s.clock) : null,
    s.rated ? t("ratedMark") : null, standsText(s)].filter(Boolean);
  const rest = document.createElement("span");
  rest.className = "muted";
  rest.textContent = ` · ${words.join(" · ")}`;
  about.append(link, rest);
  item.append(about);
  return item;
}
