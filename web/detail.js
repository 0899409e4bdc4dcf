// A recorded hand opened to its detail: the cards as entered, both spreads
// (melds, layoffs, deadwood) and the referee's explanation, step by step, in
// the page's words (GET /games/{id}/hands/{n}).

import { ApiError, api } from "./api.js";
import { isRed } from "./cards.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { cardFace, otherSeat, outcomeWord, problemView, roleWord, stepWords } from "./words.js";

export const defenderOf = (knocker) => otherSeat(knocker);

/** A side's spread as the referee ruled it: its melds (with the layoffs onto them), then its deadwood. */
export function spreadView(side, layoffs = []) {
  if (!side) return null;
  const onto = (i) => layoffs.filter((l) => l.meld === i).map((l) => l.card);
  return h(
    "div",
    { class: "spread" },
    (side.melds || []).map((m, i) =>
      h(
        "span",
        { class: "meld" },
        m.map((c) => cardFace(c)),
        onto(i).map((c) => cardFace(c, { class: `card layoff ${isRed(c) ? "red" : "black"}`, title: t("preview.laid_off") })),
      ),
    ),
    side.deadwood && side.deadwood.length ? h("span", { class: "deadwood" }, side.deadwood.map((c) => cardFace(c))) : null,
  );
}

/** The ruling's explanation, one step a line. */
export function explanationView(ruling) {
  const steps = (ruling && ruling.explanation) || [];
  if (!steps.length) return null;
  return h("ol", { class: "explanation" }, steps.map((step) => h("li", { "data-code": step.code, "data-rule": step.rule }, stepWords(step))));
}

/** R36: who sat a cutthroat hand out, by name (null for a hand with no sitter beside a dealer). */
export function satOut(hand, name) {
  const seating = (hand && hand.seating) || {};
  if (!("dealer" in seating) || seating.sitter === undefined || seating.sitter === null) return null;
  return h("p", { class: "sat-out", "data-sitter": seating.sitter }, t("detail.sat_out", { name: name(seating.sitter) }));
}

function detailView(hand, name) {
  const r = hand.ruling;
  const input = hand.input || {};
  const parts = [satOut(hand, name)];
  if (hand.mode === "draw") {
    parts.push(h("p", {}, t("detail.draw")));
  } else {
    const knocker = hand.knocker;
    const defender = defenderOf(knocker);
    const who = (role) => `${name(hand.seating[role])} (${roleWord(role)})`;
    parts.push(
      h(
        "p",
        { class: "verdict", "data-outcome": r.outcome },
        h("strong", {}, outcomeWord(r.outcome)),
        " · ",
        t("preview.scores", { name: name(hand.seating[r.scorer === "knocker" ? knocker : defender]), points: r.points }),
      ),
    );
    if (hand.mode === "cards") {
      const k = input.knocker_hand || {};
      const d = input.defender_hand || {};
      parts.push(
        h("h4", {}, t("detail.cards_of", { who: who(knocker) })),
        h("p", { class: "cards knocker-cards" }, (k.cards || []).map((c) => cardFace(c))),
        k.discard || hand.discard ? h("p", {}, t("knock.discard"), " ", cardFace(k.discard || hand.discard)) : null,
        h("h4", {}, t("detail.cards_of", { who: who(defender) })),
        h("p", { class: "cards defender-cards" }, (d.cards || []).map((c) => cardFace(c))),
        h("h4", {}, t("preview.knocker_spread", { name: name(hand.seating[knocker]) })),
        spreadView(r.knocker, (r.defender && r.defender.layoffs) || []),
        h("p", { class: "knocker-deadwood" }, t("preview.deadwood", { count: r.knocker.deadwood_count })),
        h("h4", {}, t("preview.defender_spread", { name: name(hand.seating[defender]) })),
        spreadView(r.defender),
        h("p", { class: "defender-deadwood" }, t("preview.deadwood", { count: r.defender.deadwood_count })),
      );
    } else {
      parts.push(
        h("p", { class: "knocker-deadwood" }, t("detail.counts_of", { who: who(knocker), count: r.knocker.deadwood_count })),
        h("p", { class: "defender-deadwood" }, t("detail.counts_of", { who: who(defender), count: r.defender.deadwood_count })),
      );
    }
  }
  parts.push(h("h4", {}, t("detail.explanation")), explanationView(r));
  return parts;
}

/** A disclosure under a hand's row: opened, it reads the hand and shows it whole. */
export function handDetail(gameId, number, name) {
  const body = h("div", { class: "detail-body", "aria-live": "polite" });
  let read = false;
  return h(
    "details",
    {
      class: "hand-detail",
      ontoggle: async (event) => {
        if (!event.currentTarget.open || read) return;
        read = true;
        replace(body, h("p", { class: "hint" }, t("detail.reading")));
        try {
          replace(body, detailView(await api.hand(gameId, number), name));
        } catch (error) {
          read = false;
          replace(body, problemView(error instanceof ApiError ? error : { network: true }));
        }
      },
    },
    h("summary", {}, t("detail.open", { number })),
    body,
  );
}
