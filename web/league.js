// Leagues: standings (sorted as the API sorts), head to head, a player's
// history, and the exports.

import { ApiError, api, leagueKey, shareLeagueKey } from "./api.js";
import { issueButton, pageBase, shareLink, unreachableNote } from "./share.js";
import { membersSection, newLeagueForm } from "./leagues-new.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { PRESETS, problemView } from "./words.js";

const SORTS = [
  "rating", "games_won", "win_rate", "total_points", "games_played", "hands_won", "gins",
  "undercuts_made", "knocks", "boxes", "average_points_per_hand_won", "average_knocker_deadwood",
  "longest_streak", "current_streak", "name",
];
const COLUMNS = ["games_played", "games_won", "win_rate", "total_points", "hands_won", "gins", "undercuts_made", "knocks"];
// R27: the standings can be narrowed to any preset; the two-player ones count boxes (R29), and the
// hands a player sat out (R8, R36) show once someone has sat one out
const columnsOf = (items) => [
  ...COLUMNS,
  ...(items.some((s) => s.boxes) ? ["boxes"] : []),
  ...(items.some((s) => s.hands_sat_out) ? ["hands_sat_out"] : []),
];

const fmt = (v) => (v === null || v === undefined ? "–" : typeof v === "number" && !Number.isInteger(v) ? v.toFixed(2) : String(v));

function table(items, leagueId) {
  const columns = columnsOf(items);
  return h(
    "div",
    { class: "wide", tabindex: 0, role: "region", "aria-label": t("league.standings") }, // scrolled sideways by keyboard too
    h(
      "table",
      { class: "standings" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("league.player")), h("th", { scope: "col" }, t("league.rating")), columns.map((c) => h("th", { scope: "col" }, t(`league.${c}`))))),
      h(
        "tbody",
        {},
        items.map((s) =>
          h(
            "tr",
            { "data-player": s.player_id },
            h("th", { scope: "row" }, h("a", { href: `#league=${leagueId}&player=${s.player_id}`, class: "link" }, s.name)),
            h("td", {}, fmt(s.rating && s.rating.ordinal)),
            columns.map((c) => h("td", {}, fmt(s[c]))),
          ),
        ),
      ),
    ),
  );
}

export async function leagueScreen(root, params) {
  const status = h("div", { class: "status", role: "status", "aria-live": "polite" });
  const leagueId = Number(params.get("league")) || null;
  replace(root, h("h1", {}, t("league.title")), status);
  try {
    const leagues = await api.leagues();
    if (!leagueId) {
      root.append(
        leagues.length
          ? h("ul", { class: "leagues" }, leagues.map((l) => h("li", {}, h("a", { href: `#league=${l.id}`, class: "link" }, l.name))))
          : h("p", {}, t("league.none")),
        newLeagueForm(),
      );
      return;
    }
    const league = await api.league(leagueId);
    const names = {};
    for (const id of league.members) names[id] = (await api.player(id)).name;
    const playerId = Number(params.get("player")) || null;
    root.append(h("h2", {}, league.name));
    if (playerId) return playerHistory(root, league, playerId, names);

    const sort = params.get("sort") || "rating";
    const order = params.get("order") || (sort === "name" ? "asc" : "desc");
    const preset = PRESETS.includes(params.get("preset")) ? params.get("preset") : "";
    const standings = await api.standings(leagueId, sort, order, preset);
    const go = (changes) => {
      const next = { sort, order, preset, ...changes };
      location.hash = `league=${leagueId}&sort=${next.sort}&order=${next.order}${next.preset ? `&preset=${next.preset}` : ""}`;
    };
    const presetSelect = h(
      "select",
      { id: "preset-filter", "aria-describedby": "rating-note", onchange: (e) => go({ preset: e.target.value }) },
      h("option", { value: "" }, t("league.all_presets")),
      PRESETS.map((p) => h("option", { value: p, selected: p === preset }, t(`preset.${p}`))),
    );
    const sortSelect = h(
      "select",
      { id: "sort", onchange: (e) => go({ sort: e.target.value }) },
      SORTS.map((s) => h("option", { value: s, selected: s === sort }, t(`league.${s}`))),
    );
    const orderSelect = h(
      "select",
      { id: "order", onchange: (e) => go({ order: e.target.value }) },
      ["desc", "asc"].map((o) => h("option", { value: o, selected: o === order }, t(`league.order_${o}`))),
    );
    const urls = api.exportUrls(leagueId);
    const a = h("select", { id: "h2h-a" }, league.members.map((id, i) => h("option", { value: id, selected: i === 0 }, names[id])));
    const b = h("select", { id: "h2h-b" }, league.members.map((id, i) => h("option", { value: id, selected: i === 1 }, names[id])));
    const h2h = h("div", { class: "h2h", "aria-live": "polite" });
    root.append(
      h("h3", {}, t("league.standings")),
      h("div", { class: "field" }, h("label", { for: "preset-filter" }, t("start.preset")), presetSelect),
      h("p", { class: "hint", id: "rating-note" }, t("league.rating_note")),
      h("div", { class: "field" }, h("label", { for: "sort" }, t("league.sort")), sortSelect),
      h("div", { class: "field" }, h("label", { for: "order" }, t("league.order")), orderSelect),
      table(standings.items, leagueId),
      h("h3", {}, t("league.head_to_head")),
      h("div", { class: "field" }, h("label", { for: "h2h-a" }, t("league.a")), a),
      h("div", { class: "field" }, h("label", { for: "h2h-b" }, t("league.b")), b),
      h("button", {
        type: "button",
        class: "secondary",
        onclick: async () => {
          try {
            const result = await api.headToHead(leagueId, a.value, b.value, preset);
            replace(h2h, h("p", {}, t("league.games_together", { n: result.games })), table(result.items, leagueId));
          } catch (error) {
            replace(h2h, problemView(error));
          }
        },
      }, t("league.compare")),
      h2h,
      leagueKey(leagueId) ? membersSection(league, names) : null,
      league.visibility === "private" ? spectatorSection(leagueId, status) : null,
      h("h3", {}, t("league.exports")),
      h("p", {}, exportLink(leagueId, "json", urls.json, status), " · ", exportLink(leagueId, "csv", urls.csv, status)),
    );
  } catch (error) {
    replace(status, problemView(error instanceof ApiError ? error : { network: true }));
  }
}

/**
 * A private league's spectator link: its standings and games, read with a
 * share key in the fragment. The phone with the write key issues it once
 * (label "spectators") and keeps it; the same label again would rotate it.
 */
function spectatorSection(leagueId, status) {
  const section = h("section", { class: "share", "aria-labelledby": "league-share-title" });
  const draw = () => {
    const share = shareLeagueKey(leagueId);
    const items = [h("h3", { id: "league-share-title" }, t("share.title")), unreachableNote(), h("p", {}, t("league.spectator"))];
    if (share) {
      const link = `${pageBase()}#league=${leagueId}&share=${encodeURIComponent(share)}`;
      items.push(
        shareLink({
          href: link,
          text: t("share.spectator_link"),
          className: "spectator-link",
          label: t("league.spectator"),
          qr: { summary: t("share.spectator_qr"), label: t("league.spectator_qr_label"), className: "spectator-qr" },
        }),
      );
    } else if (leagueKey(leagueId)) {
      items.push(
        issueButton("make-spectator-link", t("share.make_spectator_link"), () => api.leagueSpectatorKey(leagueId), (view) => replace(status, view), draw),
      );
    }
    replace(section, items); // a private league read here was read with one of the two keys
  };
  draw();
  return section;
}

/**
 * An export as a link the page follows itself: it fetches with the key this
 * phone holds (a private league's export needs it, and a link cannot carry
 * it) and saves the answer as a file.
 */
function exportLink(leagueId, kind, href, status) {
  return h(
    "a",
    {
      href,
      class: `link export-${kind}`,
      download: "",
      onclick: async (event) => {
        event.preventDefault();
        try {
          const { blob, name } = await api.exportFile(leagueId, kind);
          const url = URL.createObjectURL(blob);
          const save = h("a", { href: url, download: name, hidden: true });
          document.body.append(save);
          save.click();
          save.remove();
          setTimeout(() => URL.revokeObjectURL(url), 60000); // after the browser has taken it
        } catch (error) {
          replace(status, problemView(error instanceof ApiError ? error : { network: true }));
        }
      },
    },
    t(`league.export_${kind}`),
  );
}

async function playerHistory(root, league, playerId, names) {
  const games = (await api.leagueGames(league.id, playerId)).items;
  root.append(
    h("h3", {}, t("league.history_of", { name: names[playerId] || `#${playerId}` })),
    h("p", {}, h("a", { href: `#league=${league.id}`, class: "link" }, t("league.back"))),
    games.length
      ? h(
          "ul",
          { class: "history-games" },
          games.map((g) =>
            h(
              "li",
              {},
              h("a", { href: `#game=${g.id}`, class: "link" }, t("start.game_n", { id: g.id })),
              " ",
              g.players.map((id) => `${names[id] || `#${id}`} ${g.scores[String(id)]}`).join(" · "),
              g.winner ? ` · ${t("board.winner", { name: names[g.winner] || `#${g.winner}` })}` : "",
            ),
          ),
        )
      : h("p", {}, t("league.no_games")),
  );
}
