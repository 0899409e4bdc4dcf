// "New game, same three": the same players, the same rules, the same league
// (and, outside a league, the same visibility), with the roles decided anew
// by a cut (R9, R28, R36) or given (the roles for the first hand, R11, R28
// or R36 from there).

import { leagueKey } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { seatsOf, roleWord } from "./words.js";
import { cutFieldset, cutWords, howSwitch, readCut, rolesFieldset, startGame } from "./seats.js";

/** The rematch disclosure of a game screen; leagueName is the game's league's, if known. */
export function rematchPart(game, name, leagueName) {
  const state = { how: "cut" };
  const body = h("div", { class: "rematch-body" });
  const status = h("div", { class: "rematch-status", role: "status", "aria-live": "polite" });
  const seated = game.roles || game.first_roles;

  const cutPart = () => cutFieldset("rematch-cut", game.players.map(name), cutWords(game.rules && game.rules.preset));

  const ROLES = seatsOf(game); // box, captain, sitter; or dealer, non_dealer (R28); or dealer, non_dealer, sitter (R36)
  const rolesPart = () =>
    rolesFieldset("rematch-role", ROLES, roleWord, (role) => game.players.map((id) => h("option", { value: id, selected: seated[role] === id }, name(id))));

  async function start(event) {
    event.preventDefault();
    const request = { players: [...game.players], rules: { ...game.rules } };
    if (state.how === "cut") {
      const { cut, problem } = readCut(body, "rematch-cut", game.players, name);
      if (problem) return replace(status, problem);
      request.cut = cut;
    } else {
      request.roles = Object.fromEntries(ROLES.map((role) => [role, Number(body.querySelector(`#rematch-role-${role}`).value)]));
      if (new Set(Object.values(request.roles)).size !== ROLES.length) return replace(status, h("p", { class: "problem", role: "alert" }, t(ROLES.length === 2 ? "start.need_two" : "start.need_three")));
    }
    if (game.league_id) request.league_id = game.league_id;
    else if (game.visibility === "private") request.visibility = "private";
    await startGame(request, game.league_id ? leagueKey(game.league_id) : null, name, status);
  }

  function draw() {
    replace(
      body,
      h("p", { class: "hint" }, t("rematch.help", { league: game.league_id && leagueName ? t("rematch.in_league", { name: leagueName }) : "" })),
      howSwitch(state, draw),
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
