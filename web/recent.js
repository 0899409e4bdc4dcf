// "Games on this phone": each game this phone has opened, with its players'
// names, its date, the scores and whether it is in play or won.

import { api, store } from "./api.js";
import { h, replace } from "./dom.js";
import { language, t } from "./i18n.js";

const names = new Map(); // player id -> name, read once per page

async function nameOf(id) {
  if (!names.has(id)) names.set(id, (await api.player(id)).name);
  return names.get(id);
}

async function line(id, item) {
  const game = await api.game(id, { fresh: true });
  const who = await Promise.all(game.players.map(nameOf));
  const date = new Date(game.played_at).toLocaleDateString(language(), { year: "numeric", month: "short", day: "numeric" });
  const scores = game.players.map((p, i) => `${who[i]} ${game.scores[String(p)]}`).join(" · ");
  const winner = game.winner ? who[game.players.indexOf(game.winner)] : null;
  replace(
    item,
    h("a", { href: `#game=${id}`, class: "link" }, t("start.game_n", { id })),
    h("p", { class: "recent-line" }, who.join(", "), " · ", h("time", { datetime: game.played_at }, date)),
    h(
      "p",
      { class: "recent-scores", "data-status": game.status },
      scores,
      " · ",
      game.winner ? t("start.recent_finished", { name: winner }) : t("start.recent_in_progress"),
    ),
  );
}

/** The section, or null when this phone has opened no game; each line fills in as its game is read. */
export function recentGames() {
  const games = store.get("games", []);
  if (!games.length) return null;
  const items = games.map((id) => {
    const item = h("li", { "data-game": id }, h("a", { href: `#game=${id}`, class: "link" }, t("start.game_n", { id })));
    line(id, item).catch(() => {}); // no signal, or gone: the game's number alone
    return item;
  });
  return h("section", { class: "recent" }, h("h2", {}, t("start.recent")), h("ul", {}, items));
}
