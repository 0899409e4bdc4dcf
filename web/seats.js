// How a new game seats its players (R9, R28, R36): by a cut of one card
// each, or by roles given. The start screen and the rematch both ask it this way.

import { ApiError, api } from "./api.js";
import { parseCard } from "./cards.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { problemView } from "./words.js";

/** The cut/roles switch: state.how is "cut" or "roles"; draw() shows the change. */
export const howSwitch = (state, draw) =>
  h(
    "div",
    { class: "segmented", role: "group", "aria-label": t("start.how") },
    [["cut", t("start.by_cut")], ["roles", t("start.by_roles")]].map(([how, label]) =>
      h("button", { type: "button", "data-how": how, "aria-pressed": state.how === how ? "true" : "false", onclick: () => { state.how = how; draw(); } }, label),
    ),
  );

/** What a cut decides under a preset (R9, R28, R36): the legend and the help of its fieldset. */
export const cutWords = (preset) => {
  if (preset === "cutthroat") return { legend: t("start.cut_legend_cutthroat"), help: t("start.cut_help_cutthroat") };
  if (preset && preset !== "three_handed") return { legend: t("start.cut_legend_two"), help: t("start.cut_help_two") };
  return { legend: t("start.cut_legend"), help: t("start.cut_help") };
};

/** One card field a player, its ids `${prefix}-${i}`; labels are the players' names; words: cutWords(preset). */
export const cutFieldset = (prefix, labels, words) =>
  h(
    "fieldset",
    {},
    h("legend", {}, words.legend),
    h("p", { class: "hint" }, words.help),
    labels.map((label, i) =>
      h(
        "div",
        { class: "field" },
        h("label", { for: `${prefix}-${i}` }, t("start.cut_of", { name: label })),
        h("input", { id: `${prefix}-${i}`, name: `${prefix}-${i}`, type: "text", autocomplete: "off", autocapitalize: "characters", spellcheck: "false", placeholder: "KS" }),
      ),
    ),
  );

/** One select a role, its id `${prefix}-${role}`; choices(role) gives its options. */
export const rolesFieldset = (prefix, roles, word, choices) =>
  h(
    "fieldset",
    {},
    h("legend", {}, t("start.roles_legend")),
    roles.map((role) =>
      h("div", { class: "field" }, h("label", { for: `${prefix}-${role}` }, word(role)), h("select", { id: `${prefix}-${role}` }, choices(role))),
    ),
  );

/**
 * The cut read from its fields: {cut} with a card a player, or {problem} to
 * show, naming the first player whose card is not a card (R3).
 */
export function readCut(root, prefix, players, name) {
  const cut = {};
  for (const [i, id] of players.entries()) {
    const text = root.querySelector(`#${prefix}-${i}`).value;
    if (!parseCard(text)) return { problem: h("p", { class: "problem", role: "alert" }, t("start.cut_not_card", { name: name(id), text })) };
    cut[id] = text;
  }
  return { cut };
}

/** Creates the game and opens it; a refusal is shown in status (a tied cut names who cuts again). */
export async function startGame(request, key, name, status) {
  try {
    const game = await api.createGame(request, key);
    location.hash = `game=${game.id}`;
  } catch (error) {
    const p = (error && error.problem) || {};
    const again = p.players ? h("p", {}, t("start.cut_again", { names: p.players.map(name).join(", ") })) : null;
    replace(status, problemView(error instanceof ApiError ? error : { network: true }, again));
  }
}
