// The 52-card picker, one for every screen that takes cards by tapping: the
// hand form (the knocker's, the defender's cards, the discard, the declared
// melds and layoffs) and "Can I knock?".
//
// Each hand's cards keep their own colour whatever is being tapped, and a
// mark besides (a shape in the card's corner, the border's pattern), so whose
// a card is never rests on colour alone.

import { RANKS, SUITS, SYMBOL, face } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

export const OWNER = { k: "knocker", d: "defender", x: "discard", u: "upcard" };
export const MARK = { k: "▲", d: "■", x: "✕", meld: "✓", u: "◆" };

const mark = (kind) => h("span", { class: `mark mark-${kind}`, "aria-hidden": "true" }, MARK[kind]);

/**
 * The picker: a line saying what is still to tap (`remaining`, or nothing),
 * a clear button (`clear`: {label, onClear, disabled}), a legend of the
 * owners shown (`legend`: a list of k, d, x, meld) and the grid.
 * `card(c)` says how card `c` stands: `{owner, pressed, disabled, inMeld, upcard}`
 * (owner: k, d or x, or none; upcard: it is the hand's up-card, R33, which
 * may be in either hand too); `onTap(c)` is called on a tap. `named`: a
 * card's name says whose it is ("7♥ (knocker)").
 */
export function cardPicker({ card, onTap, remaining = null, clear = null, legend = [], named = true }) {
  return [
    h(
      "div",
      { class: "picker-bar" },
      h("p", { class: "picker-remaining" }, remaining || ""),
      clear
        ? h(
            "button",
            { type: "button", class: "secondary picker-clear", disabled: Boolean(clear.disabled), onclick: clear.onClear },
            clear.label,
          )
        : null,
    ),
    legend.length
      ? h(
          "ul",
          { class: "picker-legend" },
          legend.map((kind) =>
            h(
              "li",
              { class: `legend-${kind}` },
              h("span", { class: `swatch-card ${kind === "meld" ? "in-meld" : kind === "u" ? "is-upcard" : `own-${kind}`}`, "aria-hidden": "true" }, mark(kind)),
              kind === "meld" ? t("picker.in_meld") : t(`cards.owner_${OWNER[kind]}`),
            ),
          ),
        )
      : null,
    h(
      "div",
      { class: "picker", role: "group", "aria-label": t("cards.picker") },
      SUITS.map((suit) =>
        h(
          "div",
          { class: `suit-row ${suit === "H" || suit === "D" ? "red" : "black"}`, role: "group", "aria-label": t(`suit.${suit}`) },
          RANKS.map((rank) => {
            const c = rank + suit;
            const { owner, pressed, disabled, inMeld, upcard } = card(c);
            const whose = [
              owner && named ? t(`cards.owner_${OWNER[owner]}`) : null,
              upcard ? t("cards.owner_upcard") : null,
              inMeld ? t("picker.in_meld") : null,
            ].filter(Boolean);
            return h(
              "button",
              {
                type: "button",
                class: `pick ${owner ? `own-${owner}` : ""} ${inMeld ? "in-meld" : ""} ${upcard ? "is-upcard" : ""}`,
                "data-card": c,
                "aria-pressed": pressed ? "true" : "false",
                "aria-label": `${face(c)}${whose.length ? ` (${whose.join(", ")})` : ""}`,
                disabled: Boolean(disabled),
                onclick: () => onTap(c),
              },
              h("span", { "aria-hidden": "true" }, rank, h("small", {}, SYMBOL[suit])),
              owner && named ? mark(owner) : null,
              inMeld ? mark("meld") : null,
              upcard ? mark("u") : null,
            );
          }),
        ),
      ),
    ),
  ];
}
