// The 52-card picker, one for every screen that takes cards by tapping: the
// hand form (the knocker's, the defender's cards, the discard, the declared
// melds and layoffs) and "Can I knock?".

import { RANKS, SUITS, SYMBOL, face } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

export const OWNER = { k: "knocker", d: "defender", x: "discard" };

/**
 * The picker's grid. `card(c)` says how card `c` stands: `{owner, pressed,
 * disabled, inMeld}` (owner: k, d or x, or none); `onTap(c)` is called on a tap.
 * `named`: a card's name says whose it is ("7♥ (knocker)").
 */
export function cardPicker({ card, onTap, named = true }) {
  return h(
    "div",
    { class: "picker", role: "group", "aria-label": t("cards.picker") },
    SUITS.map((suit) =>
      h(
        "div",
        { class: `suit-row ${suit === "H" || suit === "D" ? "red" : "black"}`, role: "group", "aria-label": t(`suit.${suit}`) },
        RANKS.map((rank) => {
          const c = rank + suit;
          const { owner, pressed, disabled, inMeld } = card(c);
          return h(
            "button",
            {
              type: "button",
              class: `pick ${owner ? `own-${owner}` : ""} ${inMeld ? "in-meld" : ""}`,
              "data-card": c,
              "aria-pressed": pressed ? "true" : "false",
              "aria-label": `${face(c)}${owner && named ? ` (${t(`cards.owner_${OWNER[owner]}`)})` : ""}`,
              disabled: Boolean(disabled),
              onclick: () => onTap(c),
            },
            h("span", { "aria-hidden": "true" }, rank, h("small", {}, SYMBOL[suit])),
          );
        }),
      ),
    ),
  );
}
