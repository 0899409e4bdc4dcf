// The cards of a dispute, as the disputing side gives them: the knocker's 10,
// the defender's 10 and the discard, tapped on the page's one card picker.

import { canonical } from "./cards.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { cardPicker } from "./picker.js";

const LIMIT = { k: 10, d: 10, x: 1 };

/** Two hands and a discard in `root`; labels() gives the knocker's and defender's names. Returns {cards(), redraw()}. */
export function twoHandPicker(root, labels) {
  const assign = {}; // card -> k | d | x
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
      cardPicker({
        card: (c) => ({ owner: assign[c], pressed: assign[c] === target, disabled: Boolean(assign[c] && assign[c] !== target) }),
        onTap: tap,
        legend: ["k", "d", "x"],
      }),
    );
  }

  draw();
  return {
    cards: () => ({ knocker: owned("k"), defender: owned("d"), discard: owned("x")[0] || null }),
    redraw: draw,
  };
}
