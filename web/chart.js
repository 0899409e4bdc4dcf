// The running-score chart: one line a player, hand numbers along the bottom,
// a score axis up the side, the target dashed across.

import { h, svg } from "./dom.js";
import { t } from "./i18n.js";

export const COLORS = ["#0b5394", "#a61c00", "#38761d"];

/** About four round steps from 0 to `top`: 25 for 100, 50 for 150, 5 for 20. */
export function scoreTicks(top) {
  const raw = top / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const ticks = [];
  for (let v = 0; v <= top + 1e-9; v += step) ticks.push(Math.round(v));
  return ticks;
}

export function chart(game, hands, name) {
  const width = 320;
  const height = 190;
  const left = 34; // the score labels
  const right = 10;
  const top = 18; // the axis title
  const bottom = 34; // the hand numbers and their title
  const target = game.rules.target_score;
  const highest = Math.max(target, ...Object.values(game.scores));
  const n = Math.max(1, hands.length);
  const x = (i) => left + ((width - left - right) * i) / n;
  const y = (score) => height - bottom - ((height - top - bottom) * score) / highest;
  const every = Math.ceil(hands.length / 10); // at most about ten hand numbers
  const lines = game.players.map((id, k) => {
    const points = [[x(0), y(0)], ...hands.map((hand, i) => [x(i + 1), y(hand.scores[String(id)])])];
    return svg("polyline", {
      points: points.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" "),
      fill: "none",
      stroke: COLORS[k],
      "stroke-width": 2.5,
      "data-player": id,
    });
  });
  const scoreAxis = svg(
    "g",
    { class: "score-axis", "font-size": 10, fill: "#333", "text-anchor": "end" },
    scoreTicks(highest).map((v) => [
      svg("line", { x1: left - 3, x2: width - right, y1: y(v), y2: y(v), stroke: "#e0e0e0" }),
      svg("text", { x: left - 5, y: y(v) + 3.5, "data-score": v }, String(v)),
    ]),
    svg("text", { x: 2, y: 11, "text-anchor": "start", class: "axis-title" }, t("chart.score_axis")),
  );
  const handAxis = svg(
    "g",
    { class: "hand-axis", "font-size": 10, fill: "#333", "text-anchor": "middle" },
    hands.map((hand, i) =>
      (i + 1) % every === 0 || i === hands.length - 1
        ? svg("text", { x: x(i + 1), y: height - bottom + 13, "data-hand": hand.number }, String(hand.number))
        : null,
    ),
    svg("text", { x: left + (width - left - right) / 2, y: height - 4, class: "axis-title" }, t("chart.hand_axis")),
  );
  return h(
    "figure",
    { class: "chart" },
    svg(
      "svg",
      { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": t("chart.label") },
      scoreAxis,
      svg("line", { x1: left, x2: width - right, y1: y(target), y2: y(target), stroke: "#595959", "stroke-dasharray": "4 3" }),
      svg("text", { x: width - right, y: y(target) - 4, "font-size": 11, fill: "#333", "text-anchor": "end" }, t("chart.target", { target })),
      svg("line", { x1: left, x2: width - right, y1: y(0), y2: y(0), stroke: "#595959" }),
      svg("line", { x1: left, x2: left, y1: top, y2: y(0), stroke: "#595959" }),
      handAxis,
      lines,
    ),
    h(
      "figcaption",
      {},
      game.players.map((id, k) => {
        const swatch = h("span", { class: "swatch", "aria-hidden": "true" });
        swatch.style.background = COLORS[k];
        return h("span", { class: "legend" }, swatch, name(id));
      }),
    ),
  );
}
