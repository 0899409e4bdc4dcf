// Disputes of recorded hands: open one (who disputes, the claim, and the cards
// as the disputing side gives them), list the game's, and resolve one (upheld
// corrects the hand with the referee's ruling, R26; rejected leaves it). Each
// shows both rulings side by side: as recorded, and the referee's on the
// dispute's cards.

import { ApiError, api, problemKind, writeKey } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { defenderOf, explanationView, satOut } from "./detail.js";
import { twoHandPicker } from "./dispute-cards.js";
import { ROLES, outcomeWord, problemView, roleWord } from "./words.js";

const FIELDS = ["outcome", "scorer", "points", "knocker_deadwood", "defender_deadwood"];

/** The disputes section of a game screen. ctx: game(), hands(), name(id), changed() (after a write). */
export function disputesPart(section, ctx) {
  const status = h("div", { class: "dispute-status", role: "status", "aria-live": "polite" });
  const formBox = h("div", { class: "dispute-form-box" });
  const list = h("div", { class: "dispute-list" });
  let disputes = [];
  let shown = null; // the JSON last drawn: a poll with nothing new leaves what is being typed
  let formFor = null;
  section.hidden = true;
  replace(section, h("h2", { id: "disputes-title" }, t("dispute.title")), status, formBox, list);

  const say = (message) => replace(status, message);
  const handOf = (number) => ctx.hands().find((hand) => hand.number === number) || null;
  const who = (seating, role) => `${ctx.name(seating[role])} (${roleWord(role)})`;

  function showOrHide() {
    section.hidden = !formFor && disputes.length === 0;
  }

  async function refresh({ quiet = false } = {}) {
    try {
      disputes = await api.disputes(ctx.game().id);
    } catch (error) {
      if (!section.hidden && !quiet) say(problemView(error instanceof ApiError ? error : { network: true }));
      return;
    }
    const json = JSON.stringify([disputes, ctx.hands().map((hand) => [hand.number, hand.recorded_at, hand.corrected_at])]);
    if (json !== shown) {
      shown = json;
      drawList();
    }
    showOrHide();
  }

  function open(hand) {
    formFor = hand;
    say(null);
    drawForm();
    showOrHide();
    section.scrollIntoView();
    formBox.querySelector("#dispute-by").focus({ preventScroll: true });
  }

  function close() {
    formFor = null;
    replace(formBox);
    showOrHide();
  }

  function drawForm() {
    const hand = formFor;
    const state = { withCards: false, knocker: hand.knocker || ("dealer" in hand.seating ? "dealer" : "box") };
    const pickerBox = h("div", { class: "dispute-picker" });
    const cardsBox = h("div", { class: "dispute-cards", hidden: true });
    const picker = twoHandPicker(pickerBox, () => ({
      knocker: ctx.name(hand.seating[state.knocker]),
      defender: ctx.name(hand.seating[defenderOf(state.knocker)]),
    }));
    const knockerSelect = h(
      "select",
      { id: "dispute-knocker", onchange: (e) => { state.knocker = e.target.value; picker.redraw(); } },
      ("dealer" in hand.seating ? ["dealer", "non_dealer"] : ["box", "captain"]).map((role) => h("option", { value: role, selected: role === state.knocker }, who(hand.seating, role))),
    );
    replace(cardsBox, h("div", { class: "field" }, h("label", { for: "dispute-knocker" }, t("record.who_knocked")), knockerSelect), pickerBox);
    const claim = h("textarea", { id: "dispute-claim", rows: 3, maxlength: 2000 });
    // the players of the hand dispute it: in cutthroat never the one who sat it out (R36)
    const sides = "dealer" in hand.seating ? ["dealer", "non_dealer"] : ROLES.filter((role) => role in hand.seating);
    const by = h("select", { id: "dispute-by" }, sides.map((role) => h("option", { value: role }, who(hand.seating, role))));

    async function send(event) {
      event.preventDefault();
      const text = claim.value.trim();
      if (!text) return say(h("p", { class: "problem", role: "alert" }, t("dispute.need_claim")));
      const body = { by: by.value, claim: text };
      if (state.withCards) {
        const cards = picker.cards();
        if (cards.knocker.length !== 10 || cards.defender.length !== 10) {
          return say(h("p", { class: "problem", role: "alert" }, t("dispute.need_cards", { k: cards.knocker.length, d: cards.defender.length })));
        }
        body.knocker = state.knocker;
        body.knocker_hand = { cards: cards.knocker };
        if (cards.discard) body.knocker_hand.discard = cards.discard;
        body.defender_hand = { cards: cards.defender };
      }
      try {
        const dispute = await api.openDispute(ctx.game(), hand.number, body);
        close();
        say(h("p", {}, t("dispute.opened", { number: hand.number, name: ctx.name(hand.seating[dispute.by]) })));
        await refresh();
        await ctx.changed();
      } catch (error) {
        say(problemView(error instanceof ApiError ? error : { network: true }, mustGiveCards(error, hand)));
      }
    }

    replace(
      formBox,
      h(
        "form",
        { class: "dispute-form", novalidate: true, onsubmit: send },
        h("h3", {}, t("dispute.open_title", { number: hand.number })),
        satOut(hand, ctx.name),
        h("div", { class: "field" }, h("label", { for: "dispute-by" }, t("dispute.by")), by),
        h("div", { class: "field" }, h("label", { for: "dispute-claim" }, t("dispute.claim")), claim),
        h(
          "label",
          { class: "inline check" },
          h("input", {
            type: "checkbox",
            id: "dispute-with-cards",
            onchange: (e) => { state.withCards = e.target.checked; cardsBox.hidden = !state.withCards; },
          }),
          " ",
          t("dispute.with_cards"),
        ),
        h("p", { class: "hint" }, t(hand.mode === "cards" ? "dispute.cards_help" : "dispute.cards_needed")),
        cardsBox,
        h(
          "div",
          { class: "buttons" },
          h("button", { type: "submit", class: "primary", id: "dispute-send" }, t("dispute.send")),
          h("button", { type: "button", class: "secondary", id: "dispute-cancel", onclick: close }, t("dispute.cancel")),
        ),
      ),
    );
  }

  /** Recorded and disputed, field by field: the names of the scorers, the points, the deadwood. */
  function compare(d) {
    const hand = handOf(d.hand);
    // the hand's own deadwood is the recorded one while the hand is as it was when disputed (not corrected, nor undone and replaced)
    const asDisputed = hand && hand.recorded_at <= d.opened_at && (!hand.corrected_at || hand.corrected_at <= d.opened_at);
    const recordedKnocker = asDisputed ? hand.knocker : d.knocker;
    const seating = hand ? hand.seating : null;
    const scorerName = (scorer, knocker) => {
      if (!scorer || !knocker || !seating) return "–";
      return ctx.name(seating[scorer === "knocker" ? knocker : defenderOf(knocker)]);
    };
    const count = (side) => (side && side.deadwood_count !== undefined && side.deadwood_count !== null ? String(side.deadwood_count) : "–");
    const recorded = {
      outcome: outcomeWord(d.recorded.outcome),
      scorer: scorerName(d.recorded.scorer, recordedKnocker),
      points: String(d.recorded.points),
      knocker_deadwood: asDisputed ? count(hand.ruling.knocker) : "–",
      defender_deadwood: asDisputed ? count(hand.ruling.defender) : "–",
    };
    const r = d.ruling;
    const disputed = {
      outcome: outcomeWord(r.outcome),
      scorer: scorerName(r.scorer, d.knocker),
      points: String(r.points),
      knocker_deadwood: count(r.knocker),
      defender_deadwood: count(r.defender),
    };
    const differs = new Set(d.differences.map((x) => x.field));
    for (const side of ["knocker", "defender"]) {
      const field = `${side}_deadwood`;
      if (recorded[field] !== "–" && recorded[field] !== disputed[field]) differs.add(field);
    }
    return h(
      "table",
      { class: "rulings" },
      h("caption", { class: "visually-hidden" }, t("dispute.side_by_side", { number: d.hand })),
      h("thead", {}, h("tr", {}, h("td", {}), h("th", { scope: "col" }, t("dispute.recorded")), h("th", { scope: "col" }, t("dispute.referee")))),
      h(
        "tbody",
        {},
        FIELDS.map((field) =>
          h(
            "tr",
            { "data-field": field, class: differs.has(field) ? "differs" : null },
            h("th", { scope: "row" }, t(`dispute.field_${field}`)),
            h("td", { class: "recorded" }, recorded[field]),
            h("td", { class: "disputed" }, disputed[field]),
          ),
        ),
      ),
    );
  }

  async function resolve(d, decision, reasonInput) {
    const reason = reasonInput.value.trim();
    const body = { decision };
    if (reason) body.reason = reason;
    try {
      await api.resolveDispute(ctx.game(), d, body);
      say(h("p", {}, t(`dispute.${decision}_done`, { number: d.hand })));
      await ctx.changed();
      await refresh();
    } catch (error) {
      const kind = error instanceof ApiError ? problemKind(error.problem) : null;
      let extra = null;
      if (kind === "stale-dispute") extra = h("p", {}, t("dispute.stale", { number: d.hand }));
      else if (kind === "conflict") extra = h("p", {}, t("dispute.already_resolved", { number: d.hand }));
      say(problemView(error instanceof ApiError ? error : { network: true }, extra));
      try {
        if (error instanceof ApiError && error.status === 412) await ctx.changed(); // another phone wrote first
        await refresh({ quiet: true }); // the problem stays the line shown
      } catch {
        // no signal: the game's next turn reads it again
      }
    }
  }

  function disputeView(d) {
    const hand = handOf(d.hand);
    const byName = hand ? `${ctx.name(hand.seating[d.by])} (${roleWord(d.by)})` : roleWord(d.by);
    const canWrite = Boolean(writeKey(ctx.game()));
    const reason = h("input", { type: "text", id: `reason-${d.id}`, class: "dispute-reason", maxlength: 500, autocomplete: "off" });
    return h(
      "li",
      { class: "dispute", "data-id": d.id, "data-hand": d.hand, "data-status": d.status },
      h("p", { class: "dispute-title" }, h("strong", {}, t("dispute.of_hand", { number: d.hand })), " ", t(`dispute.status_${d.status}`)),
      h("p", { class: "dispute-by" }, t("dispute.says", { name: byName })),
      hand ? satOut(hand, ctx.name) : null,
      h("blockquote", { class: "claim" }, d.claim),
      compare(d),
      h("p", { class: "differs-line" }, t(d.differs ? "dispute.differs" : "dispute.same")),
      h("details", { class: "dispute-explanation" }, h("summary", {}, t("dispute.why")), explanationView(d.ruling)),
      d.status !== "open" && d.reason ? h("p", { class: "dispute-reason-shown" }, t("dispute.reason_was", { reason: d.reason })) : null,
      d.status === "open" && canWrite
        ? h(
            "div",
            { class: "resolve" },
            h("div", { class: "field" }, h("label", { for: `reason-${d.id}` }, t("dispute.reason")), reason),
            h(
              "div",
              { class: "buttons" },
              h("button", { type: "button", class: "primary uphold", onclick: () => resolve(d, "upheld", reason) }, t("dispute.uphold")),
              h("button", { type: "button", class: "secondary reject", onclick: () => resolve(d, "rejected", reason) }, t("dispute.reject")),
            ),
          )
        : null,
    );
  }

  function drawList() {
    replace(list, disputes.length ? h("ol", { class: "disputes" }, disputes.map(disputeView)) : null);
  }

  return { refresh, open };
}

/** A hand recorded by counts or as a draw is disputed with both hands' cards. */
function mustGiveCards(error, hand) {
  const p = (error && error.problem) || {};
  if (p.errors && (p.errors.knocker_hand || p.errors.knocker) && hand.mode !== "cards") return h("p", {}, t("dispute.cards_needed"));
  return null;
}
