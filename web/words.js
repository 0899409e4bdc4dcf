// The page's own words for what the API answers: roles, outcomes, problems.

import { problemKind } from "./api.js";
import { h } from "./dom.js";
import { face, isRed } from "./cards.js";
import { has, language, t } from "./i18n.js";

export const ROLES = ["box", "captain", "sitter"];

export const roleWord = (role) => t(`role.${role}`);
/** A player named with his seat: "Tom (captain)", never a bare role. */
export const whoWord = (name, role) => t("queue.who", { name, role: roleWord(role).toLocaleLowerCase(language()) });
export const outcomeWord = (outcome) => t(`outcome.${outcome}`);

/** A problem in the page's words (per problem type and rule), the API's detail beneath. */
export function problemView(error, extra = null) {
  const problem = (error && error.problem) || {};
  const kind = error && error.network ? "network" : problemKind(problem);
  let words;
  if (/^R\d+$/.test(kind)) {
    words = has(`rule.${kind}`) ? t(`rule.${kind}`) : t("problem.rule", { rule: kind });
    words = `${words} (${kind})`;
  } else if (has(`problem.${kind}`)) {
    words = t(`problem.${kind}`);
  } else {
    words = t("problem.other", { status: problem.status || "?" });
  }
  return h(
    "div",
    { class: "problem", role: "alert" },
    h("p", { class: "problem-words" }, words),
    extra,
    problem.detail ? h("p", { class: "problem-detail", lang: "en" }, problem.detail) : null,
  );
}

export function cardFace(card, attrs = {}) {
  return h("span", { class: `card ${isRed(card) ? "red" : "black"}`, ...attrs }, face(card));
}

export function cardRow(cards, label) {
  return h("span", { class: "cards", "aria-label": label || null }, (cards || []).map((c) => cardFace(c)));
}
