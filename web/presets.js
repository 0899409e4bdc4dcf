// The presets a game may be played under (R27) and their options, as the
// rules' table gives them (RULES.md, "Variants"): the start screen asks for
// them, the scoreboard says them, and a hand by counts is scored with them
// as the API scores it (R25, R29, R32, R33).

/** option -> [least, most] for a whole number, a list of choices, or "bool" (on/off). */
export const OPTION_RANGES = {
  target_score: [10, 1000],
  knock_limit: [0, 10],
  gin_bonus: [0, 100],
  undercut_bonus: [0, 100],
  big_gin_bonus: [0, 100],
  next_dealer: ["winner", "loser", "alternate"],
  box_bonus: [0, 100],
  gin_boxes: [1, 4],
  undercut_boxes: [1, 4],
  boxes_immediate: "bool",
  game_bonus: [0, 500],
  shutout: ["double", "plus_100", "none"],
  ace: ["gin_only", "one"],
  spades_double: ["off", "points", "all"],
};

const HAND = ["target_score", "knock_limit", "gin_bonus", "undercut_bonus", "big_gin_bonus"];
const TWO_PLAYER = ["next_dealer", "box_bonus", "gin_boxes", "undercut_boxes", "boxes_immediate", "game_bonus", "shutout"];

/** preset -> its options in the order shown (three_handed: the four of R14-R20, as before presets). */
export const PRESET_OPTIONS = {
  three_handed: ["target_score", "knock_limit", "gin_bonus", "undercut_bonus"],
  classic: [...HAND, ...TWO_PLAYER],
  straight: [...HAND, ...TWO_PLAYER],
  oklahoma: [...HAND.filter((o) => o !== "knock_limit"), ...TWO_PLAYER, "ace", "spades_double"],
  hollywood: [...HAND, ...TWO_PLAYER], // R34: each column a classic game
  cutthroat: [...HAND, ...TWO_PLAYER.filter((o) => o !== "next_dealer")], // R36: the loser sits out, the sitter deals
};

const DEFAULTS = {
  target_score: 100,
  knock_limit: 10,
  gin_bonus: 25,
  undercut_bonus: 25,
  big_gin_bonus: 0,
  next_dealer: "winner",
  box_bonus: 25,
  gin_boxes: 1,
  undercut_boxes: 1,
  boxes_immediate: false,
  game_bonus: 100,
  shutout: "double",
  ace: "gin_only",
  spades_double: "points",
};
const PRESET_DEFAULTS = {
  three_handed: { undercut_bonus: 10 },
  classic: {},
  straight: { knock_limit: 0 }, // R35
  oklahoma: { target_score: 150 }, // R33
  hollywood: {},
  cutthroat: {},
};

/** An option's default under a preset. */
export const optionDefault = (preset, name) => (name in PRESET_DEFAULTS[preset] ? PRESET_DEFAULTS[preset][name] : DEFAULTS[name]);

const RANK_VALUE = { A: 1, J: 10, Q: 10, K: 10 };

/**
 * What a hand is judged by (R14, R33): its knock limit, and what a spade
 * up-card doubles (points, boxes). `upcard` is a card such as "7S" (Oklahoma).
 */
export function handTerms(rules, upcard) {
  if (rules.preset !== "oklahoma") return { limit: rules.knock_limit, points: 1, boxes: 1 };
  if (!upcard) return { limit: 10, points: 1, boxes: 1 }; // the most an up-card allows, until it is given
  const rank = upcard.slice(0, -1);
  const value = RANK_VALUE[rank] || Number(rank);
  const limit = value === 1 ? (rules.ace === "one" ? 1 : 0) : value; // R2, R33
  const spade = upcard.slice(-1) === "S";
  return {
    limit,
    points: spade && rules.spades_double !== "off" ? 2 : 1,
    boxes: spade && rules.spades_double === "all" ? 2 : 1,
  };
}

/**
 * R16-R18 (R32 for a big gin) on two counts, as the API scores a hand by
 * counts (R25); under a two-player preset with its boxes (R29) and the spade
 * double (R33).
 */
export function countsRuling(rules, k, d, { upcard = null, bigGin = false } = {}) {
  const terms = handTerms(rules, upcard);
  let r;
  if (bigGin) r = { outcome: "gin", scorer: "knocker", points: d + rules.big_gin_bonus, big_gin: true };
  else if (k === 0) r = { outcome: "gin", scorer: "knocker", points: d + rules.gin_bonus };
  else if (k < d) r = { outcome: "knock", scorer: "knocker", points: d - k };
  else r = { outcome: "undercut", scorer: "defender", points: rules.undercut_bonus + k - d };
  if (!rules.preset || rules.preset === "three_handed") return r;
  const boxes = r.outcome === "gin" ? rules.gin_boxes : r.outcome === "undercut" ? rules.undercut_boxes : 1;
  return { ...r, base_points: r.points, points: r.points * terms.points, boxes: boxes * terms.boxes };
}
