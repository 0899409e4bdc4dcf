// "New game, same three": the same players, the same rules, the same league
// (and, outside a league, the same visibility), with the roles decided anew
// by a cut (R9) or given (the roles for the first hand, R11 from there).

import { ApiError, api, leagueKey } from "./api.js";
import { parseCard } from "./cards.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { ROLES, problemView, roleWord } from "./words.js";

/** The rematch disclosure of a game screen; leagueName is the game's league's, if known. */
export function rematchPart(game, name, leagueName) {
  const state = { how: "cut" };
  const body = h("div", { class: "rematch-body" });
  const status = h("div", { class: "rematch-status", role: "status", "aria-live": "polite" });
  const seated = game.roles || game.first_roles;

  function cutPart() {
    return h(
      "fieldset",
      {},
      h("legend", {}, t("start.cut_legend")),
      h("p", { class: "hint" }, t("start.cut_help")),
      game.players.map((id, i) =>
        h(
          "div",
          { class: "field" },
          h("label", { for: `rematch-cut-${i}` }, t("start.cut_of", { name: name(id) })),
          h("input", { id: `rematch-cut-${i}`, type: "text", autocomplete: "off", autocapitalize: "characters", spellcheck: "false", placeholder: "KS" }),
        ),
      ),
    );
  }

  function rolesPart() {
    return h(
      "fieldset",
      {},
      h("legend", {}, t("start.roles_legend")),
      ROLES.map((role) =>
        h(
          "div",
          { class: "field" },
          h("label", { for: `rematch-role-${role}` }, roleWord(role)),
          h("select", { id: `rematch-role-${role}` }, game.players.map((id) => h("option", { value: id, selected: seated[role] === id }, name(id)))),
        ),
      ),
    );
  }

  async function start(event) {
    event.preventDefault();
    const request = { players: [...game.players], rules: { ...game.rules } };
    if (state.how === "cut") {
      const cut = {};
      for (const [i, id] of game.players.entries()) {
        const text = body.querySelector(`#rematch-cut-${i}`).value;
        if (!parseCard(text)) return replace(status, h("p", { class: "problem", role: "alert" }, t("start.cut_not_card", { name: name(id), text })));
        cut[id] = text;
      }
      request.cut = cut;
    } else {
      request.roles = Object.fromEntries(ROLES.map((role) => [role, Number(body.querySelector(`#rematch-role-${role}`).value)]));
      if (new Set(Object.values(request.roles)).size !== 3) return replace(status, h("p", { class: "problem", role: "alert" }, t("start.need_three")));
    }
    if (game.league_id) request.league_id = game.league_id;
    else if (game.visibility === "private") request.visibility = "private";
    try {
      const created = await api.createGame(request, game.league_id ? leagueKey(game.league_id) : null);
      location.hash = `game=${created.id}`;
    } catch (error) {
      const p = (error && error.problem) || {};
      const again = p.players ? h("p", {}, t("start.cut_again", { names: p.players.map(name).join(", ") })) : null;
      replace(status, problemView(error instanceof ApiError ? error : { network: true }, again));
    }
  }

  function draw() {
    replace(
      body,
      h("p", { class: "hint" }, t("rematch.help", { league: game.league_id && leagueName ? t("rematch.in_league", { name: leagueName }) : "" })),
      h(
        "div",
        { class: "segmented", role: "group", "aria-label": t("start.how") },
        [["cut", t("start.by_cut")], ["roles", t("start.by_roles")]].map(([how, label]) =>
          h("button", { type: "button", "data-how": how, "aria-pressed": state.how === how ? "true" : "false", onclick: () => { state.how = how; draw(); } }, label),
        ),
      ),
      state.how === "cut" ? cutPart() : rolesPart(),
      status,
      h("button", { type: "submit", class: "primary", id: "rematch-start" }, t("rematch.start")),
    );
  }

  draw();
  return h(
    "details",
    { class: "rematch", open: Boolean(game.winner) },
    h("summary", {}, t("rematch.title")),
    h("form", { novalidate: true, onsubmit: start }, body),
  );
}
