// Hands saved without a connection wait here (the phone's storage), each with
// its Idempotency-Key, so that sending one twice records it once. A hand the
// server refuses stays, with the reason, until the table decides.
//
// Each queued hand carries the seats it was played in (`body.seating`, which
// the API checks against the game's roles, R11) and, when it is known on the
// phone, how it was judged (`judged`: {scorer, points}), so that the seats of
// the hands behind it can be worked out before anything is sent.

import { ApiError, api, etagOf, newIdempotencyKey, store } from "./api.js";

const all = () => store.get("queue", []);
const save = (items) => store.set("queue", items);

export const queuedFor = (gameId) => all().filter((item) => item.gameId === gameId);
const waitingFor = (gameId) => queuedFor(gameId).filter((item) => !item.refused);

/** The hand waits to be sent: does this game have hands that do? */
export const hasWaiting = (gameId) => waitingFor(gameId).length > 0;

/** A hand behind others in the queue is checked against the game as the one
 * before it leaves it (null: the ETag at the time it is sent). `judged` is
 * {scorer, points} when the phone knows the ruling, else null. */
export function enqueue(gameId, body, idempotencyKey, ifMatch, judged = null) {
  const behind = hasWaiting(gameId);
  const item = { gameId, body, idempotencyKey, ifMatch: behind ? null : ifMatch, refused: null, judged };
  save([...all(), { ...item, queuedAt: new Date().toISOString() }]);
}

function update(idempotencyKey, change) {
  save(
    all()
      .map((item) => (item.idempotencyKey === idempotencyKey ? change(item) : item))
      .filter(Boolean),
  );
}

export const removeQueued = (idempotencyKey) => update(idempotencyKey, () => null);

/**
 * A refused hand sent again as the next hand, by the player who really
 * knocked (`knocker`: his role in `seating`, the seats as they are now): it
 * goes behind what waits, with the seats it is now played in and a fresh
 * Idempotency-Key (its body is another than the one refused). Its ruling
 * stays: the knocker's side scores the same whoever he is.
 */
export function retryQueued(idempotencyKey, knocker, seating) {
  const item = all().find((it) => it.idempotencyKey === idempotencyKey);
  if (!item) return;
  const body = { ...item.body, seating };
  if (body.outcome !== "draw") body.knocker = knocker;
  removeQueued(idempotencyKey);
  save([...all(), { ...item, body, idempotencyKey: newIdempotencyKey(), ifMatch: null, refused: null }]);
}

/** For a hand whose ruling the phone does not know: who sits where after it, as the table says. */
export const setSeatsAfter = (idempotencyKey, seats) =>
  update(idempotencyKey, (item) => ({ ...item, seatsAfter: seats }));

/**
 * The seats after a hand won from seat `winner`; a draw (null) keeps them
 * (R12, R28, R36). Three-handed: R11. Two players: R28 by the rules'
 * next_dealer. Cutthroat: R36, the loser sits out, the player who sat out
 * comes in and deals, and the winner is the non-dealer.
 */
export function nextSeats(seats, winner, rules = {}) {
  if (!winner) return seats;
  if ("dealer" in seats && "sitter" in seats) {
    const loser = winner === "dealer" ? "non_dealer" : "dealer";
    return { dealer: seats.sitter, non_dealer: seats[winner], sitter: seats[loser] };
  }
  if ("dealer" in seats) {
    const loser = winner === "dealer" ? "non_dealer" : "dealer";
    const deals = { winner, loser, alternate: "non_dealer" }[rules.next_dealer || "winner"];
    return deals === "dealer" ? seats : { dealer: seats.non_dealer, non_dealer: seats.dealer };
  }
  if (winner === "box") return { box: seats.box, captain: seats.sitter, sitter: seats.captain };
  return { box: seats.captain, captain: seats.sitter, sitter: seats.box };
}

const OTHER = { box: "captain", captain: "box", dealer: "non_dealer", non_dealer: "dealer" };

/** R11, R28: the winner of a hand is the knocker, unless he is undercut (the defender scores). */
export function winnerRole(body, judged) {
  if (body.outcome === "draw" || !judged || !judged.scorer) return null;
  if (judged.scorer === "knocker") return body.knocker;
  return OTHER[body.knocker];
}

/**
 * The game as it will be once the hands waiting here are recorded, from the
 * last known game: {seats, number, winner, scores, unknown}. `seats` are those
 * of the next hand, null when not known (a hand whose ruling the phone does
 * not know, `unknown` = {item, number, seats it was played in}) or when a
 * queued hand wins the game (`winner`, R20).
 */
export function projection(game) {
  let seats = game.roles;
  let winner = game.winner;
  let unknown = null;
  const scores = { ...game.scores };
  const waiting = waitingFor(game.id);
  let number = game.hands_played;
  for (const item of waiting) {
    number += 1;
    if (!seats) continue;
    const played = item.body.seating || seats;
    if (!item.judged) {
      unknown = { item, number, seats: played };
      seats = item.seatsAfter || null;
      continue;
    }
    const role = winnerRole(item.body, item.judged);
    if (role) {
      const scorer = played[role];
      // R19: never the sitter; R29: box bonuses count at once only by boxes_immediate
      const boxes = game.rules.boxes_immediate ? (item.judged.boxes || 0) * game.rules.box_bonus : 0;
      scores[scorer] = (scores[scorer] || 0) + item.judged.points + boxes;
      if (scores[scorer] >= game.rules.target_score) {
        winner = scorer; // R20: the game ends with this hand
        seats = null;
        continue;
      }
    }
    seats = nextSeats(played, role, game.rules);
  }
  return { seats, number: game.hands_played + waiting.length + 1, winner, scores, unknown: seats ? null : unknown };
}

/** Send this game's waiting hands in order; returns [{item, hand}] for those
 * recorded. Stops at the first that cannot reach the server (`report.offline`)
 * and marks refusals (`report.refused` counts them). */
export async function flushQueue(gameId, currentGame, report = { refused: 0, offline: false }) {
  const sent = [];
  for (const item of queuedFor(gameId)) {
    if (item.refused) continue;
    const game = currentGame();
    if (!game) break;
    try {
      const hand = await api.recordHand(game, item.body, item.idempotencyKey, item.ifMatch || etagOf(gameId));
      removeQueued(item.idempotencyKey);
      sent.push({ item, hand });
    } catch (error) {
      if (!(error instanceof ApiError)) {
        report.offline = true; // sent again on a later turn, with the same Idempotency-Key
        break;
      }
      if (error.status >= 500 || error.status === 429) break; // try again later
      update(item.idempotencyKey, (it) => ({ ...it, refused: error.problem }));
      report.refused += 1;
    }
  }
  return sent;
}
