// The page's own words for what the API answers: roles, outcomes, problems,
// and a ruling's explanation step by step.

import { problemKind } from "./api.js";
import { h } from "./dom.js";
import { face, isRed } from "./cards.js";
import { has, language, t } from "./i18n.js";

export const ROLES = ["box", "captain", "sitter"];
/** R28: the seats of a two-player hand. */
export const TWO_SEATS = ["dealer", "non_dealer"];
/** R36: the seats of a cutthroat hand: two play it, the third sits it out. */
export const CUTTHROAT_SEATS = ["dealer", "non_dealer", "sitter"];
/** The presets the page plays (R27), the default first. */
export const PRESETS = ["three_handed", "classic", "straight", "oklahoma", "hollywood", "cutthroat"];

/** A game whose hands are two-player hands, dealer against non-dealer (R27, R28, R36); a game with no preset is three-handed. */
export const isTwoPlayer = (game) => Boolean(game && game.rules && game.rules.preset && game.rules.preset !== "three_handed");
/** R36: a cutthroat game, three players of whom two play each hand. */
export const isCutthroat = (game) => Boolean(game && game.rules && game.rules.preset === "cutthroat");
/** The seats of a preset's hands, in the order shown. */
export const presetSeats = (preset) => (preset === "cutthroat" ? CUTTHROAT_SEATS : preset && preset !== "three_handed" ? TWO_SEATS : ROLES);
/** How many players a preset's game has: three-handed and cutthroat three, the others two. */
export const playerCount = (preset) => (presetSeats(preset).length === 2 ? 2 : 3);
/** The seats of a game's hands, in the order shown. */
export const seatsOf = (game) => presetSeats(game && game.rules && game.rules.preset);
/** The seats a knocker may sit in (R8: never the sitter). */
export const knockerSeats = (game) => (isTwoPlayer(game) ? TWO_SEATS : ["box", "captain"]);
const OTHER = { box: "captain", captain: "box", dealer: "non_dealer", non_dealer: "dealer" };
/** The defender of a hand knocked from `seat`. */
export const otherSeat = (seat) => OTHER[seat];
export const presetWord = (preset) => t(`preset.${preset || "three_handed"}`);

export const roleWord = (role) => t(`role.${role}`);
/** A player named with his seat: "Tom (captain)", never a bare role. */
export const whoWord = (name, role) => t("queue.who", { name, role: roleWord(role).toLocaleLowerCase(language()) });
export const outcomeWord = (outcome) => t(`outcome.${outcome}`);

/** The main line of a problem, by its type (and a rule break by its rule), never the API's detail. */
export function problemWords(error) {
  const problem = (error && error.problem) || {};
  if (error && error.network) return t("problem.network");
  const kind = problemKind(problem);
  if (/^R\d+$/.test(kind)) {
    const words = has(`rule.${kind}`) ? t(`rule.${kind}`) : t("problem.rule", { rule: kind });
    return `${words} (${kind})`;
  }
  if (has(`problem.${kind}`)) return t(`problem.${kind}`);
  const status = Number(problem.status || (error && error.status)) || 0;
  if (has(`problem.status_${status}`)) return t(`problem.status_${status}`);
  if (status >= 500) return t("problem.status_5xx", { status });
  return t("problem.other", { status: status || "?" });
}

/** Who sits where, by name: "Box: Ann · Captain: Bob · Sitter: Cy" (the sitter last, R8, R36). */
export const seatingWords = (seating, name) =>
  ["box", "captain", ...TWO_SEATS, "sitter"].filter((role) => seating[role] !== undefined).map((role) => `${roleWord(role)}: ${name(seating[role])}`).join(" · ");

/**
 * A problem in the page's words (per problem type and rule), with `extra`
 * (the page's own account, with names) beneath; the API's detail, in English,
 * is kept in a "details" disclosure, never as the main line. With `name`
 * (player id -> name), a problem that names seats says who sits in them.
 */
export function problemView(error, extra = null, name = null) {
  const problem = (error && error.problem) || {};
  const seated = name && problem.seating && typeof problem.seating === "object"
    ? h("p", { class: "problem-seating" }, t("problem.seating_now", { seating: seatingWords(problem.seating, name) }))
    : null;
  return h(
    "div",
    { class: "problem", role: "alert", "data-kind": error && error.network ? "network" : problemKind(problem) },
    h("p", { class: "problem-words" }, problemWords(error)),
    seated,
    extra,
    problem.detail
      ? h(
          "details",
          { class: "problem-more" },
          h("summary", {}, t("problem.details")),
          h("p", { class: "problem-detail", lang: "en" }, problem.detail),
        )
      : null,
  );
}

export function cardFace(card, attrs = {}) {
  return h("span", { class: `card ${isRed(card) ? "red" : "black"}`, ...attrs }, face(card));
}

export function cardRow(cards, label) {
  return h("span", { class: "cards", "aria-label": label || null }, (cards || []).map((c) => cardFace(c)));
}

const cardsText = (cards) => (cards && cards.length ? cards.map(face).join(" ") : "–");
const meldsText = (melds) => (melds && melds.length ? melds.map((m) => `[${cardsText(m)}]`).join(" ") : "–");

/** One step of a ruling's explanation in the page's words, its rule after it
 * (`name`: player id -> name, for the result's steps, R29-R31). */
export function stepWords(step, name = null) {
  const p = step.params || {};
  const who = (id) => (name ? name(id) : String(id));
  const values = {
    ...p,
    player: p.player === undefined ? "" : who(p.player),
    loser: p.loser === undefined ? "" : who(p.loser),
    other: p.other === undefined ? "" : who(p.other), // R36: the second player shut out
    card: p.card ? face(p.card) : "",
    up_card: p.up_card ? face(p.up_card) : "", // R33
    melds: meldsText(p.melds),
    deadwood: cardsText(p.deadwood),
    onto: cardsText(p.onto),
    meld: p.meld === undefined ? "" : p.meld + 1,
    layoffs: (p.layoffs || []).map((l) => `${face(l.card)}→${l.meld + 1}`).join(" ") || "–",
  };
  const key = `step.${step.code}`;
  const words = has(key) ? t(key, values) : step.text;
  return `${words} (${step.rule})`;
}
