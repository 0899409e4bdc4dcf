// The 52-card picker for two hands and a discard, as the record form has it:
// tap a target (knocker, defender, discard), then its cards.

import { RANKS, SUITS, SYMBOL, canonical, face } from "./cards.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";

const OWNER = { k: "knocker", d: "defender", x: "discard" };
const LIMIT = { k: 10, d: 10, x: 1 };

/** A picker in `root`; labels() gives the knocker's and defender's names. Returns {cards(), clear()}. */
export function twoHandPicker(root, labels) {
  let assign = {}; // card -> k | d | x
  let target = "k";
  const owned = (who) => canonical(Object.keys(assign).filter((c) => assign[c] === who));

  function tap(card) {
    const owner = assign[card];
    if (owner && owner !== target) return;
    if (owner === target) delete assign[card];
    else {
      if (owned(target).length >= LIMIT[target]) return;
      assign[card] = target;
      if (owned(target).length === LIMIT[target] && target !== "x") target = target === "k" ? "d" : "x";
    }
    draw();
  }

  function draw() {
    const { knocker, defender } = labels();
    replace(
      root,
      h(
        "div",
        { class: "segmented targets", role: "group", "aria-label": t("cards.tapping_for") },
        [
          ["k", t("cards.target_knocker", { name: knocker, n: owned("k").length })],
          ["d", t("cards.target_defender", { name: defender, n: owned("d").length })],
          ["x", t("cards.target_discard", { n: owned("x").length })],
        ].map(([which, label]) =>
          h("button", { type: "button", "data-target": which, "aria-pressed": target === which ? "true" : "false", onclick: () => { target = which; draw(); } }, label),
        ),
      ),
      h(
        "div",
        { class: "picker", role: "group", "aria-label": t("cards.picker") },
        SUITS.map((suit) =>
          h(
            "div",
            { class: `suit-row ${suit === "H" || suit === "D" ? "red" : "black"}`, role: "group", "aria-label": t(`suit.${suit}`) },
            RANKS.map((rank) => {
              const card = rank + suit;
              const owner = assign[card];
              return h(
                "button",
                {
                  type: "button",
                  class: `pick ${owner ? `own-${owner}` : ""}`,
                  "data-card": card,
                  "aria-pressed": owner === target ? "true" : "false",
                  "aria-label": `${face(card)}${owner ? ` (${t(`cards.owner_${OWNER[owner]}`)})` : ""}`,
                  disabled: Boolean(owner && owner !== target),
                  onclick: () => tap(card),
                },
                h("span", { "aria-hidden": "true" }, rank, h("small", {}, SYMBOL[suit])),
              );
            }),
          ),
        ),
      ),
    );
  }

  draw();
  return {
    cards: () => ({ knocker: owned("k"), defender: owned("d"), discard: owned("x")[0] || null }),
    clear: () => {
      assign = {};
      target = "k";
      draw();
    },
    redraw: draw,
  };
}
