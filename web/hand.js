// Record (or correct) a hand: by cards with a 52-card picker, by counts (R25),
// or a draw (R12). Cards are previewed by the referee before anything is saved.

import { ApiError, api, etagOf, newIdempotencyKey, writeKey } from "./api.js";
import { canonical, face, isRed, parseCards } from "./cards.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { OWNER, cardPicker } from "./picker.js";
import { enqueue, hasWaiting, nextSeats, projection, setSeatsAfter } from "./queue.js";
import { cardFace, isCutthroat, knockerSeats, otherSeat, outcomeWord, problemView, roleWord, whoWord } from "./words.js";
import { countsRuling, handTerms } from "./presets.js";

/** The rules whose knock limit a refused knock cites: R14, R33 (the up-card), R35 (straight), R32 (big gin). */
const LIMIT_RULES = ["R14", "R32", "R33", "R35"];

function blank() {
  return {
    mode: "cards",
    knocker: "box",
    target: "k",
    assign: {}, // card -> k | d | x
    declare: false,
    group: "k", // what a tap in declare mode builds: k (knocker meld), d (defender meld), l (layoffs)
    pending: [],
    layoffMeld: 0,
    kMelds: [],
    dMelds: [],
    layoffs: [],
    kCount: "",
    dCount: "",
    upcard: "", // R33: the hand's up-card (Oklahoma)
    bigGin: false, // R32: the knocker melds 11 cards, with no discard
    fresh: true, // a new hand: in Oklahoma its up-card is tapped first
    preview: null,
    correcting: null,
    typing: false, // the typed-cards fields are open
  };
}

const owned = (s, who) => canonical(Object.keys(s.assign).filter((c) => s.assign[c] === who));
const melded = (s) => new Set([...s.kMelds.flat(), ...s.dMelds.flat(), ...s.layoffs.map((l) => l.card)]);

/** The API body for the hand as entered, played in `seating` (the API
 * refuses it when the seats have moved meanwhile, R11, R28). */
export function handBody(s, seating, rules = {}) {
  if (s.mode === "draw") return { outcome: "draw", seating };
  const upcard = rules.preset === "oklahoma" && s.upcard ? { upcard: s.upcard } : {}; // R33
  if (s.mode === "counts") {
    return {
      knocker: s.knocker,
      knocker_deadwood_count: Number(s.kCount),
      defender_deadwood_count: Number(s.dCount),
      ...upcard,
      ...(s.bigGin && rules.big_gin_bonus ? { big_gin: true } : {}), // R32
      seating,
    };
  }
  const discard = s.bigGin ? null : owned(s, "x")[0]; // R32: a big gin has no discard
  const knockerHand = { cards: owned(s, "k") };
  if (discard) knockerHand.discard = discard;
  const defenderHand = { cards: owned(s, "d") };
  if (s.declare && s.kMelds.length) knockerHand.melds = s.kMelds;
  if (s.declare && s.dMelds.length) defenderHand.melds = s.dMelds;
  if (s.declare && s.kMelds.length && s.layoffs.length) defenderHand.layoffs = s.layoffs;
  return { knocker: s.knocker, knocker_hand: knockerHand, defender_hand: defenderHand, ...upcard, seating };
}

export function handForm(root, ctx) {
  let s = blank();
  let shownFor = null;

  // A correction is played in the hand's own seats; the next hand in the seats
  // the game will have once the hands queued on this phone are recorded (R11).
  const seating = () => (s.correcting ? s.correcting.seating : projection(ctx.game()).seats);
  const defenderRole = () => otherSeat(s.knocker);
  const rules = () => ctx.game().rules;
  const oklahoma = () => rules().preset === "oklahoma";
  const bigGinOn = () => Boolean(rules().big_gin_bonus) && s.bigGin; // R32
  const knockerCount = () => (bigGinOn() ? 11 : 10);
  /** The hand's knock limit: the rules', or in Oklahoma the up-card's (R33; none until it is given). */
  const limitNow = () => handTerms(rules(), s.upcard).limit;
  const counted = (k, d) => countsRuling(rules(), k, d, { upcard: s.upcard || null, bigGin: bigGinOn() });
  const nameIn = (role) => ctx.name(seating()[role]);
  const render = () => draw();

  function set(change) {
    Object.assign(s, change);
    render();
  }

  function tapCard(card) {
    if (!s.declare && s.target === "u") {
      // R33: the up-card may be in either hand (the non-dealer may take it), so it is tapped on its own
      s.upcard = s.upcard === card ? "" : card;
      if (s.upcard && s.mode === "cards" && owned(s, "k").length < knockerCount()) s.target = "k";
      s.preview = null;
      return render();
    }
    if (s.declare) {
      const owner = s.assign[card];
      const want = s.group === "k" ? "k" : "d";
      if (owner !== want || melded(s).has(card)) return;
      s.pending = s.pending.includes(card) ? s.pending.filter((c) => c !== card) : [...s.pending, card];
    } else {
      const owner = s.assign[card];
      if (owner && owner !== s.target) return; // taken by the other hand
      if (owner === s.target) delete s.assign[card];
      else {
        const limit = s.target === "x" ? 1 : s.target === "k" ? knockerCount() : 10;
        if (owned(s, s.target).length >= limit) return;
        s.assign[card] = s.target;
        // a full hand moves on: the knocker's 10 (11 for a big gin), then the defender's 10, then the discard
        if (owned(s, s.target).length === limit && s.target !== "x" && !(s.target === "d" && bigGinOn())) s.target = s.target === "k" ? "d" : "x";
      }
    }
    s.preview = null;
    render();
  }

  /** What is still to tap for the current target or meld, or null. */
  function remaining() {
    if (s.declare) {
      if (s.group === "l") return null;
      const n = 3 - s.pending.length; // R4, R5: three cards at least
      return n > 0 ? t("picker.more_meld", { n }) : t("picker.meld_ready");
    }
    if (s.target === "u") return s.upcard ? t("picker.full_upcard", { card: face(s.upcard), limit: limitNow() }) : t("picker.more_upcard");
    const n = owned(s, s.target).length;
    if (s.target === "x") return n ? t("picker.full_discard") : t("picker.more_discard"); // R21: it may be left out
    const who = OWNER[s.target];
    const full = s.target === "k" ? knockerCount() : 10;
    return n < full ? t(`picker.more_${who}`, { n: full - n }) : t(`picker.full_${who}`);
  }

  /** Clears what is being tapped: the tapped cards of a meld, or the target's cards. */
  function clearing() {
    if (s.declare) {
      return { label: t("picker.clear_tapped"), disabled: s.pending.length === 0, onClear: () => set({ pending: [] }) };
    }
    const target = s.target;
    if (target === "u") return { label: t("picker.clear_upcard"), disabled: !s.upcard, onClear: () => set({ upcard: "", preview: null }) };
    return {
      label: t(`picker.clear_${OWNER[target]}`),
      disabled: owned(s, target).length === 0,
      onClear: () => {
        for (const c of Object.keys(s.assign)) if (s.assign[c] === target) delete s.assign[c];
        // declared melds and layoffs lose the cards they were made of (R22, R23)
        if (target === "k") set({ kMelds: [], layoffs: [], layoffMeld: 0, preview: null });
        else if (target === "d") set({ dMelds: [], layoffs: [], preview: null });
        else set({ preview: null });
      },
    };
  }

  function picker() {
    const taken = melded(s);
    const want = s.group === "k" ? "k" : "d";
    return cardPicker({
      card: (card) => {
        const owner = s.assign[card];
        const upcard = card === s.upcard;
        if (s.declare) return { owner, upcard, inMeld: taken.has(card), disabled: owner !== want || taken.has(card), pressed: s.pending.includes(card) };
        if (s.target === "u") return { owner, upcard, inMeld: taken.has(card), disabled: false, pressed: upcard };
        return { owner, upcard, inMeld: taken.has(card), disabled: Boolean(owner && owner !== s.target), pressed: owner === s.target };
      },
      onTap: tapCard,
      remaining: remaining(),
      clear: clearing(),
      legend: [...(oklahoma() ? ["u"] : []), "k", "d", ...(bigGinOn() ? [] : ["x"]), ...(s.declare ? ["meld"] : [])],
    });
  }

  function typed(who, label, count) {
    const input = h("input", {
      type: "text",
      id: `typed-${who}`,
      autocomplete: "off",
      autocapitalize: "characters",
      spellcheck: "false",
      value: owned(s, who).join(" "),
      "aria-describedby": "typed-help",
    });
    return h(
      "div",
      { class: "typed" },
      h("label", { for: `typed-${who}` }, label, ` (${owned(s, who).length}/${count})`),
      input,
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          onclick: () => {
            const { cards, bad } = parseCards(input.value);
            if (bad.length) return ctx.say(problemView(null, h("p", {}, t("cards.not_cards", { bad: bad.join(" ") }))));
            for (const c of Object.keys(s.assign)) if (s.assign[c] === who) delete s.assign[c];
            const clash = cards.filter((c) => s.assign[c]);
            if (clash.length) ctx.say(h("p", { class: "problem", role: "alert" }, t("cards.taken", { cards: clash.join(" ") })));
            for (const c of cards.filter((c) => !s.assign[c]).slice(0, count)) s.assign[c] = who;
            s.preview = null;
            render();
          },
        },
        t("cards.use_typed"),
      ),
    );
  }

  function declareTools() {
    const kMelds = s.kMelds;
    return h(
      "div",
      { class: "declare" },
      h(
        "div",
        { class: "segmented", role: "group", "aria-label": t("declare.what") },
        [
          ["k", t("declare.knocker_meld")],
          ["d", t("declare.defender_meld")],
          ["l", t("declare.layoff")],
        ].map(([g, label]) =>
          h(
            "button",
            {
              type: "button",
              "data-group": g,
              "aria-pressed": s.group === g ? "true" : "false",
              disabled: g === "l" && kMelds.length === 0,
              onclick: () => set({ group: g, pending: [] }),
            },
            label,
          ),
        ),
      ),
      s.group === "l"
        ? h(
            "label",
            { class: "inline" },
            t("declare.onto_meld"),
            " ",
            h(
              "select",
              { id: "layoff-meld", onchange: (e) => set({ layoffMeld: Number(e.target.value) }) },
              kMelds.map((m, i) =>
                h("option", { value: i, selected: i === s.layoffMeld }, `${i + 1}: ${m.map(face).join(" ")}`),
              ),
            ),
          )
        : null,
      h("p", { class: "hint" }, t(s.group === "l" ? "declare.hint_layoff" : "declare.hint_meld")),
      h("p", {}, t("declare.pending"), " ", s.pending.length ? s.pending.map((c) => cardFace(c)) : "–"),
      h(
        "button",
        {
          type: "button",
          class: "secondary add-meld",
          disabled: s.pending.length === 0,
          onclick: () => {
            const cards = canonical(s.pending);
            if (s.group === "k") s.kMelds = [...s.kMelds, cards];
            else if (s.group === "d") s.dMelds = [...s.dMelds, cards];
            else s.layoffs = [...s.layoffs, ...s.pending.map((card) => ({ card, meld: s.layoffMeld }))];
            set({ pending: [], preview: null });
          },
        },
        s.group === "l" ? t("declare.add_layoff") : t("declare.add_meld"),
      ),
      declaredList(),
    );
  }

  function declaredList() {
    const rows = [];
    s.kMelds.forEach((m, i) => rows.push([t("declare.knocker_meld_n", { n: i + 1 }), m, () => {
      s.kMelds = s.kMelds.filter((_, j) => j !== i);
      s.layoffs = s.layoffs.filter((l) => l.meld !== i).map((l) => ({ ...l, meld: l.meld > i ? l.meld - 1 : l.meld }));
    }]));
    s.dMelds.forEach((m, i) => rows.push([t("declare.defender_meld_n", { n: i + 1 }), m, () => {
      s.dMelds = s.dMelds.filter((_, j) => j !== i);
    }]));
    s.layoffs.forEach((l, i) => rows.push([t("declare.layoff_n", { n: l.meld + 1 }), [l.card], () => {
      s.layoffs = s.layoffs.filter((_, j) => j !== i);
    }]));
    if (!rows.length) return null;
    return h(
      "ul",
      { class: "declared" },
      rows.map(([label, cards, remove]) =>
        h(
          "li",
          {},
          `${label}: `,
          cards.map((c) => cardFace(c)),
          " ",
          h("button", { type: "button", class: "secondary small", onclick: () => { remove(); set({ preview: null }); } }, t("declare.remove")),
        ),
      ),
    );
  }

  function cardsPart() {
    const counts = { k: owned(s, "k").length, d: owned(s, "d").length, x: owned(s, "x").length };
    const targets = [
      oklahoma() ? ["u", s.upcard ? t("cards.target_upcard_is", { card: face(s.upcard) }) : t("cards.target_upcard")] : null,
      ["k", t(bigGinOn() ? "cards.target_knocker_big" : "cards.target_knocker", { name: nameIn(s.knocker), n: counts.k })],
      ["d", t("cards.target_defender", { name: nameIn(defenderRole()), n: counts.d })],
      bigGinOn() ? null : ["x", t("cards.target_discard", { n: counts.x })],
    ].filter(Boolean);
    return [
      bigGinToggle(),
      h(
        "div",
        { class: `segmented targets${targets.length > 3 ? " two-rows" : ""}`, role: "group", "aria-label": t("cards.tapping_for") },
        targets.map(([target, label]) =>
          h(
            "button",
            {
              type: "button",
              "data-target": target,
              "aria-pressed": !s.declare && s.target === target ? "true" : "false",
              onclick: () => set({ target, declare: false, pending: [] }),
            },
            label,
          ),
        ),
      ),
      oklahoma() && s.upcard ? h("p", { class: "upcard-limit", "data-limit": limitNow() }, t("picker.full_upcard", { card: face(s.upcard), limit: limitNow() })) : null,
      picker(),
      h(
        "label",
        { class: "inline check" },
        h("input", {
          type: "checkbox",
          id: "declare",
          checked: s.declare,
          onchange: (e) => set({ declare: e.target.checked, pending: [], preview: null }),
        }),
        " ",
        t("declare.toggle"),
      ),
      s.declare ? declareTools() : null,
      h(
        "details",
        { class: "typing", open: s.typing, ontoggle: (e) => { s.typing = e.target.open; } },
        h("summary", {}, t("cards.type_them")),
        h("p", { id: "typed-help", class: "hint" }, t("cards.typed_help")),
        typed("k", t("cards.knocker_cards"), knockerCount()),
        typed("d", t("cards.defender_cards"), 10),
        bigGinOn() ? null : typed("x", t("cards.discard"), 1),
      ),
    ];
  }

  /** R32: under rules with a big gin bonus, a knocker who melded all 11 cards (and no discard). */
  function bigGinToggle() {
    if (!rules().big_gin_bonus) return null;
    return h(
      "label",
      { class: "inline check big-gin" },
      h("input", {
        type: "checkbox",
        id: "big-gin",
        checked: s.bigGin,
        onchange: (e) => {
          const change = { bigGin: e.target.checked, preview: null };
          if (e.target.checked) {
            for (const c of Object.keys(s.assign)) if (s.assign[c] === "x") delete s.assign[c]; // no discard
            if (s.target === "x") change.target = "k";
            if (s.mode === "counts") change.kCount = "0"; // R32: all 11 meld
          } else {
            // back to 10: the knocker's last tapped card is let go
            const k = owned(s, "k");
            if (k.length > 10) delete s.assign[k[k.length - 1]];
          }
          set(change);
        },
      }),
      " ",
      t("record.big_gin", { bonus: rules().big_gin_bonus }),
    );
  }

  /** R33: the up-card, tapped on a picker of its own when the hand is entered by counts. */
  function upcardPicker() {
    return h(
      "div",
      { class: "upcard-part" },
      h("p", { class: "upcard-title" }, s.upcard ? t("cards.target_upcard_is", { card: face(s.upcard) }) : t("cards.target_upcard")),
      cardPicker({
        card: (card) => ({ owner: null, upcard: card === s.upcard, pressed: card === s.upcard, disabled: false }),
        onTap: (card) => {
          s.upcard = s.upcard === card ? "" : card;
          s.preview = null;
          render();
        },
        remaining: s.upcard ? t("picker.full_upcard", { card: face(s.upcard), limit: limitNow() }) : t("picker.more_upcard"),
        named: false,
      }),
    );
  }

  function countsPart() {
    const limit = bigGinOn() ? 0 : limitNow();
    const field = (id, label, value, max, key) =>
      h(
        "div",
        { class: "field" },
        h("label", { for: id }, label, ` (0–${max})`),
        h("input", {
          type: "number",
          id,
          inputmode: "numeric",
          min: 0,
          max,
          step: 1,
          value,
          oninput: (e) => {
            s[key] = e.target.value;
            s.preview = null;
            replace(previewBox, previewView());
          },
        }),
      );
    return [
      oklahoma() ? upcardPicker() : null,
      bigGinToggle(),
      field("count-knocker", t("counts.knocker", { name: nameIn(s.knocker) }), s.kCount, limit, "kCount"),
      field("count-defender", t("counts.defender", { name: nameIn(defenderRole()) }), s.dCount, 100, "dCount"),
    ];
  }

  function countsValid() {
    if (oklahoma() && !s.upcard) return null; // R33: the limit is the up-card's
    const limit = bigGinOn() ? 0 : limitNow();
    const k = Number(s.kCount);
    const d = Number(s.dCount);
    const whole = (v, max) => /^\d+$/.test(String(v)) && Number(v) <= max;
    return whole(s.kCount, limit) && whole(s.dCount, 100) ? { k, d } : null;
  }

  function previewView() {
    if (s.mode === "counts") {
      const counts = countsValid();
      if (!counts) {
        if (oklahoma() && !s.upcard) return h("p", { class: "hint" }, t("counts.need_upcard"));
        return h("p", { class: "hint" }, t("counts.bounds", { limit: bigGinOn() ? 0 : limitNow() }));
      }
      return rulingView(counted(counts.k, counts.d));
    }
    if (s.mode === "draw") return h("p", {}, t("draw.explain"));
    if (!s.preview) return null;
    if (s.preview.error) return illegalView(s.preview.error);
    return [rulingView(s.preview.ruling, true), arrangedHint(s.preview.ruling, s.preview.arranged)];
  }

  /**
   * A hint when the knocker's declared melds leave the same deadwood as the
   * referee's own arrangement (R24) but score less for him (R22: his choice
   * stands), e.g. a set spread so that the defender could lay off on it.
   */
  function arrangedHint(declared, arranged) {
    if (!arranged || arranged.knocker.deadwood_count !== declared.knocker.deadwood_count) return null;
    const forKnocker = (r) => (r.scorer === "knocker" ? r.points : -r.points);
    const points = forKnocker(arranged) - forKnocker(declared);
    if (points <= 0) return null;
    return h(
      "div",
      { class: "arranged-better", "data-points": points },
      h("p", { class: "better" }, t("preview.arranged_better", { points, count: declared.knocker.deadwood_count })),
      h("div", { class: "spread" }, arranged.knocker.melds.map((m) => h("span", { class: "meld" }, m.map((c) => cardFace(c))))),
    );
  }

  function rulingView(r, withCards = false) {
    const scorerRole = r.scorer === "knocker" ? s.knocker : defenderRole();
    const parts = [
      h(
        "p",
        { class: "verdict", "data-outcome": r.outcome, "data-points": r.points },
        h("strong", {}, r.big_gin ? t("outcome.big_gin") : outcomeWord(r.outcome)),
        " · ",
        t("preview.scores", { name: nameIn(scorerRole), points: r.points }),
        r.boxes ? h("span", { class: "hand-boxes", "data-boxes": r.boxes }, ` · ${t("history.boxes", { count: r.boxes })}`) : null,
      ),
      r.base_points !== undefined && r.base_points !== r.points
        ? h("p", { class: "doubled" }, t("preview.spade_double", { base: r.base_points, points: r.points }))
        : null,
    ];
    if (withCards) {
      const k = r.knocker;
      const d = r.defender;
      const layoffsOn = (i) => (d.layoffs || []).filter((l) => l.meld === i).map((l) => l.card);
      parts.push(
        h("h4", {}, t("preview.knocker_spread", { name: nameIn(s.knocker) })),
        h(
          "div",
          { class: "spread" },
          k.melds.map((m, i) =>
            h("span", { class: "meld" }, m.map((c) => cardFace(c)), layoffsOn(i).map((c) => cardFace(c, { class: `card layoff ${isRed(c) ? "red" : "black"}`, title: t("preview.laid_off") }))),
          ),
          k.deadwood.length ? h("span", { class: "deadwood" }, k.deadwood.map((c) => cardFace(c))) : null,
        ),
        h("p", {}, t("preview.deadwood", { count: k.deadwood_count })),
        h("h4", {}, t("preview.defender_spread", { name: nameIn(defenderRole()) })),
        h(
          "div",
          { class: "spread" },
          (d.melds || []).map((m) => h("span", { class: "meld" }, m.map((c) => cardFace(c)))),
          d.deadwood && d.deadwood.length ? h("span", { class: "deadwood" }, d.deadwood.map((c) => cardFace(c))) : null,
        ),
        (d.layoffs || []).length
          ? h("p", {}, t("preview.layoffs", { cards: d.layoffs.map((l) => `${face(l.card)}→${l.meld + 1}`).join(" ") }))
          : null,
        h("p", {}, t("preview.deadwood", { count: d.deadwood_count })),
      );
      if (k.better) parts.push(h("p", { class: "better" }, t("preview.better_knocker", { count: k.better.deadwood_count })));
      if (d.better) parts.push(h("p", { class: "better" }, t("preview.better_defender", { count: d.better.deadwood_count })));
    }
    return h("div", { class: "ruling" }, parts);
  }

  function illegalView(error) {
    const p = error.problem || {};
    const legal = p.legal_arrangement;
    return problemView(
      error,
      h(
        "div",
        { class: "illegal" },
        p.deadwood !== undefined ? h("p", {}, t("illegal.count", { deadwood: p.deadwood, limit: p.limit })) : null,
        legal
          ? h(
              "div",
              {},
              h("p", {}, t("illegal.legal")),
              h("div", { class: "spread" }, legal.melds.map((m) => h("span", { class: "meld" }, m.map((c) => cardFace(c)))), legal.deadwood.length ? h("span", { class: "deadwood" }, legal.deadwood.map((c) => cardFace(c))) : null),
            )
          : LIMIT_RULES.includes(p.rule) ? h("p", {}, t("illegal.none")) : null,
        LIMIT_RULES.includes(p.rule) ? h("p", {}, t("illegal.not_recorded")) : null,
      ),
    );
  }

  async function preview() {
    if (s.mode !== "cards") return render();
    const { seating: _seats, ...body } = handBody(s, seating(), ctx.game().rules);
    const rules = ctx.game().rules;
    try {
      const ruling = await api.refereeHand({ ...body, rules });
      s.preview = { ruling, arranged: await arrangedRuling(body, rules) };
    } catch (error) {
      if (!(error instanceof ApiError)) return ctx.say(problemView({ network: true }));
      s.preview = { error };
    }
    render();
  }

  /**
   * With the knocker's melds declared, the ruling had the referee arranged
   * them (R24): the same hand without the knocker's melds, nor the layoffs
   * that name them (R23). Null when nothing was declared or it cannot be had:
   * it is only for a hint.
   */
  async function arrangedRuling(body, rules) {
    if (!body.knocker_hand.melds) return null;
    const { melds: _melds, ...knockerHand } = body.knocker_hand;
    const { layoffs: _layoffs, ...defenderHand } = body.defender_hand;
    try {
      return await api.refereeHand({ ...body, knocker_hand: knockerHand, defender_hand: defenderHand, rules });
    } catch {
      return null;
    }
  }

  async function saveHand() {
    const game = ctx.game();
    if (s.mode === "counts" && !countsValid()) return render();
    const body = handBody(s, seating(), game.rules);
    try {
      if (s.correcting) {
        await api.correctHand(game, s.correcting.number, body);
        const number = s.correcting.number;
        s = blank();
        await ctx.saved(t("record.corrected", { number }));
      } else {
        const idempotencyKey = newIdempotencyKey();
        const queue = () => {
          enqueue(game.id, body, idempotencyKey, etagOf(game.id), judged());
          s = { ...blank(), mode: s.mode };
          render();
          return ctx.queued();
        };
        if (hasWaiting(game.id)) return queue(); // behind the hands that wait, never before them
        try {
          await api.recordHand(game, body, idempotencyKey);
        } catch (error) {
          if (error instanceof ApiError) throw error;
          return queue(); // no connection: keep it, send it later
        }
        s = { ...blank(), mode: s.mode }; // the next hand is likely entered the same way
        await ctx.saved(t("record.saved", { number: game.hands_played + 1 }));
      }
    } catch (error) {
      if (error instanceof ApiError && (LIMIT_RULES.includes(error.problem.rule) || error.status === 422)) {
        s.preview = { error };
        render();
        return ctx.say(problemView(error));
      }
      if (error instanceof ApiError && error.status === 409 && error.problem.hands) {
        return ctx.say(problemView(error, h("p", {}, t("problem.409_stranded", { hands: error.problem.hands.join(", ") }))));
      }
      if (!(error instanceof ApiError)) return ctx.say(problemView({ network: true }));
      return ctx.handleWriteError(error); // the hand being entered is kept
    }
  }

  /**
   * How the hand being saved was judged, as far as the phone knows: by counts
   * the page scores it as the API does (R16-R18, R25); by cards only the
   * referee judges (R14, R24), so a hand by cards is known only when it was
   * previewed as it stands (the preview is dropped at every change). Offline,
   * with no preview, nothing is guessed: the hand is queued unjudged, and the
   * form asks who won it before the next hand (the API checks the seats sent,
   * so a wrong answer is refused, never credited to the wrong player).
   */
  function judged() {
    if (s.mode === "draw") return { scorer: null, points: 0 }; // R12
    if (s.mode === "counts") {
      const { scorer, points, boxes } = counted(Number(s.kCount), Number(s.dCount));
      return { scorer, points, boxes };
    }
    const ruling = s.preview && s.preview.ruling;
    return ruling ? { scorer: ruling.scorer, points: ruling.points, boxes: ruling.boxes } : null;
  }

  /** The next hand's seats wait on a queued hand the phone could not judge: who won it? */
  function askSeats(game, unknown) {
    const seats = unknown.seats;
    return replace(
      root,
      h("h2", { id: "record-title" }, t("record.title", { number: projection(game).number })),
      h("p", { class: "seats-unknown" }, t("queue.not_judged", { number: unknown.number })),
      h("p", {}, t("queue.who_won", { number: unknown.number })),
      h(
        "div",
        { class: "segmented who-won", role: "group", "aria-label": t("queue.who_won", { number: unknown.number }) },
        knockerSeats(game).map((role) =>
          h(
            "button",
            {
              type: "button",
              "data-winner": role,
              onclick: () => {
                setSeatsAfter(unknown.item.idempotencyKey, nextSeats(seats, role, game.rules)); // R11, R28
                ctx.queueChanged();
              },
            },
            t("queue.won", { who: whoWord(ctx.name(seats[role]), role) }),
          ),
        ),
      ),
    );
  }

  const previewBox = h("div", { class: "preview", "aria-live": "polite" });

  function draw() {
    const game = ctx.game();
    if (!game) return;
    shownFor = game.version;
    if (!knockerSeats(game).includes(s.knocker)) s.knocker = knockerSeats(game)[0]; // R8, R28
    if (s.fresh && game.rules.preset === "oklahoma" && !s.correcting) s.target = "u"; // R33: the up-card first
    s.fresh = false;
    if (!writeKey(game)) {
      return replace(root, h("h2", { id: "record-title" }, t("record.title_readonly")), h("p", {}, t("record.need_key")));
    }
    if (game.status === "finished" && !s.correcting) {
      return replace(root, h("h2", { id: "record-title" }, t("record.finished")));
    }
    const ahead = projection(game);
    if (!s.correcting && !ahead.seats) {
      if (ahead.unknown) return askSeats(game, ahead.unknown);
      return replace(
        root,
        h("h2", { id: "record-title" }, t("record.finished")),
        h("p", { class: "queued-win" }, t("queue.would_win", { name: ctx.name(ahead.winner) })),
      );
    }
    replace(previewBox, previewView());
    replace(
      root,
      h(
        "h2",
        { id: "record-title" },
        s.correcting ? t("record.title_correct", { number: s.correcting.number }) : t("record.title", { number: ahead.number }),
      ),
      s.correcting
        ? h("button", { type: "button", class: "secondary", onclick: () => { s = blank(); render(); } }, t("record.cancel_correction"))
        : null,
      h(
        "div",
        { class: "segmented modes", role: "group", "aria-label": t("record.how") },
        ["cards", "counts", "draw"].map((mode) =>
          h(
            "button",
            { type: "button", "data-mode": mode, "aria-pressed": s.mode === mode ? "true" : "false", onclick: () => set({ mode, preview: null }) },
            t(`record.mode_${mode}`),
          ),
        ),
      ),
      // R36: the player who sits this hand out is named, and is never a knocker
      isCutthroat(game) && seating().sitter !== undefined
        ? h("p", { class: "sitter-line", "data-sitter": seating().sitter }, t("record.sits_out", { name: nameIn("sitter") }))
        : null,
      s.mode !== "draw"
        ? h(
            "div",
            { class: "segmented knocker", role: "group", "aria-label": t("record.who_knocked") },
            knockerSeats(game).map((role) =>
              h(
                "button",
                { type: "button", "data-knocker": role, "aria-pressed": s.knocker === role ? "true" : "false", onclick: () => set({ knocker: role, preview: null }) },
                t("record.knocked", { role: roleWord(role), name: nameIn(role) }),
              ),
            ),
          )
        : null,
      s.mode === "cards" ? cardsPart() : null,
      s.mode === "counts" ? countsPart() : null,
      previewBox,
      h(
        "div",
        { class: "buttons" },
        s.mode === "cards" ? h("button", { type: "button", class: "secondary", id: "preview", onclick: preview }, t("record.preview")) : null,
        h("button", { type: "button", class: "primary", id: "save", onclick: saveHand }, s.mode === "draw" ? t("record.save_draw") : t("record.save")),
      ),
    );
  }

  return {
    /** Drawn again when the game has changed, or (`force`) its queue. */
    update(game, force = false) {
      if (game && (force || game.version !== shownFor)) draw();
    },
    correct(hand) {
      s = blank();
      s.correcting = hand;
      s.mode = hand.mode;
      const input = hand.input || {};
      if (hand.mode !== "draw") s.knocker = hand.knocker;
      if (input.upcard) s.upcard = input.upcard; // R33
      if (input.big_gin) s.bigGin = true; // R32, by counts
      if (hand.mode === "counts") {
        s.kCount = String(input.knocker_deadwood_count);
        s.dCount = String(input.defender_deadwood_count);
      }
      if (hand.mode === "cards") {
        for (const c of input.knocker_hand.cards) s.assign[c] = "k";
        for (const c of input.defender_hand.cards) s.assign[c] = "d";
        if (input.knocker_hand.discard) s.assign[input.knocker_hand.discard] = "x";
        if (input.knocker_hand.cards.length === 11) s.bigGin = true; // R32
        if (input.knocker_hand.melds || input.defender_hand.melds) {
          s.declare = true;
          s.kMelds = input.knocker_hand.melds || [];
          s.dMelds = input.defender_hand.melds || [];
          s.layoffs = input.defender_hand.layoffs || [];
        }
      }
      draw();
    },
  };
}
