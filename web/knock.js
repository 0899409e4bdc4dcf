// "Can I knock?": 10 or 11 cards in, the referee's verdict out (POST /referee/knock).

import { ApiError, api } from "./api.js";
import { canonical, parseCards } from "./cards.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { cardPicker } from "./picker.js";
import { cardFace, problemView } from "./words.js";

export function knockScreen(root) {
  let chosen = [];
  const result = h("div", { class: "verdict-box", "aria-live": "polite" });
  const grid = h("div", { class: "picker-box" });
  const input = h("input", { id: "knock-typed", type: "text", autocomplete: "off", spellcheck: "false" });
  const count = h("p", { class: "count" });

  function draw() {
    replace(count, t("knock.chosen", { n: chosen.length }));
    replace(
      grid,
      cardPicker({
        card: (card) => {
          const on = chosen.includes(card);
          return { owner: on ? "k" : null, pressed: on, disabled: !on && chosen.length >= 11 };
        },
        onTap: (card) => {
          chosen = chosen.includes(card) ? chosen.filter((c) => c !== card) : [...chosen, card];
          draw();
        },
        named: false,
        remaining: chosen.length < 10 ? t("picker.more_knock", { n: 10 - chosen.length }) : null,
        clear: {
          label: t("picker.clear_all"),
          disabled: chosen.length === 0,
          onClear: () => {
            chosen = [];
            replace(result);
            draw();
          },
        },
      }),
    );
  }

  async function ask() {
    try {
      const v = await api.refereeKnock({ cards: chosen });
      const arrangement = (a) =>
        h(
          "div",
          { class: "spread" },
          a.melds.map((m) => h("span", { class: "meld" }, m.map((c) => cardFace(c)))),
          a.deadwood.length ? h("span", { class: "deadwood" }, a.deadwood.map((c) => cardFace(c))) : null,
        );
      replace(
        result,
        h("p", { class: `verdict ${v.valid ? "yes" : "no"}`, "data-valid": String(v.valid) }, h("strong", {}, v.valid ? t("knock.yes") : t("knock.no"))),
        v.discard ? h("p", {}, t("knock.discard"), " ", cardFace(v.discard)) : null,
        arrangement(v),
        h("p", {}, t("preview.deadwood", { count: v.deadwood_count })),
        !v.valid && v.rule ? h("p", {}, `${t(`rule.${v.rule}`)} (${v.rule})`) : null,
        v.reason ? h("p", { class: "problem-detail", lang: "en" }, v.reason) : null,
        v.legal_arrangement ? [h("p", {}, t("illegal.legal")), arrangement(v.legal_arrangement)] : null,
        v.better ? [h("p", { class: "better" }, t("knock.better")), arrangement(v.better)] : null,
      );
    } catch (error) {
      replace(result, problemView(error instanceof ApiError ? error : { network: true }));
    }
  }

  draw();
  replace(
    root,
    h("h1", {}, t("knock.title")),
    h("p", {}, t("knock.help")),
    count,
    grid,
    h(
      "details",
      { class: "typing" },
      h("summary", {}, t("cards.type_them")),
      h("label", { for: "knock-typed" }, t("knock.typed")),
      input,
      h("button", {
        type: "button",
        class: "secondary",
        onclick: () => {
          const { cards, bad } = parseCards(input.value);
          if (bad.length) return replace(result, h("p", { class: "problem", role: "alert" }, t("cards.not_cards", { bad: bad.join(" ") })));
          chosen = canonical([...new Set(cards)]).slice(0, 11);
          draw();
        },
      }, t("cards.use_typed")),
    ),
    h("div", { class: "buttons" }, h("button", { type: "button", class: "primary", id: "ask-knock", onclick: ask }, t("knock.ask"))),
    result,
  );
}
