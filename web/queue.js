// Hands saved without a connection wait here (the phone's storage), each with
// its Idempotency-Key, so that sending one twice records it once. A hand the
// server refuses stays, with the reason, until the table decides.

import { ApiError, api, etagOf, store } from "./api.js";

const all = () => store.get("queue", []);
const save = (items) => store.set("queue", items);

export const queuedFor = (gameId) => all().filter((item) => item.gameId === gameId);

/** A hand behind others in the queue is checked against the game as the one
 * before it leaves it (null: the ETag at the time it is sent). */
export function enqueue(gameId, body, idempotencyKey, ifMatch) {
  const behind = queuedFor(gameId).length > 0;
  const item = { gameId, body, idempotencyKey, ifMatch: behind ? null : ifMatch, refused: null };
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

/** A refused hand sent again as the next hand: the game as it is now. */
export const retryQueued = (idempotencyKey, gameId) =>
  update(idempotencyKey, (item) => ({ ...item, refused: null, ifMatch: etagOf(gameId) }));

/** Send this game's waiting hands in order; returns those recorded. Stops at
 * the first that cannot reach the server (it throws), marks refusals. */
export async function flushQueue(gameId, currentGame) {
  const sent = [];
  for (const item of queuedFor(gameId)) {
    if (item.refused) continue;
    const game = currentGame();
    if (!game) break;
    try {
      await api.recordHand(game, item.body, item.idempotencyKey, item.ifMatch || etagOf(gameId));
      removeQueued(item.idempotencyKey);
      sent.push(item);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status >= 500 || error.status === 429) break; // try again later
      update(item.idempotencyKey, (it) => ({ ...it, refused: error.problem }));
    }
  }
  return sent;
}
