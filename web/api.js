// The one module that speaks the public API (/api/v1, openapi.yaml): keys from
// the phone's storage, If-Match from the last ETag, a fresh Idempotency-Key per
// intended write, problem+json kept whole for the page to put in its own words.
// Keys only ever travel in the Authorization header, never in a URL.
// Nothing here leaves the page's origin.

const BASE = "/api/v1";
const STORE = "ginref.";

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || String(status));
    this.status = status;
    this.problem = problem;
  }
}

/** The phone's own storage: keys, the language, the queue. */
export const store = {
  get(name, fallback = null) {
    try {
      const raw = localStorage.getItem(STORE + name);
      return raw === null ? fallback : JSON.parse(raw);
    } catch {
      return fallback;
    }
  },
  set(name, value) {
    localStorage.setItem(STORE + name, JSON.stringify(value));
  },
  remove(name) {
    localStorage.removeItem(STORE + name);
  },
};

export const gameKey = (gameId) => store.get(`key.game.${gameId}`);
export const setGameKey = (gameId, key) => store.set(`key.game.${gameId}`, key);
export const leagueKey = (leagueId) => store.get(`key.league.${leagueId}`);
export const setLeagueKey = (leagueId, key) => store.set(`key.league.${leagueId}`, key);

// Read-only share keys (from a spectator link, or issued by this phone).
export const shareGameKey = (gameId) => store.get(`share.game.${gameId}`);
export const setShareGameKey = (gameId, key) => store.set(`share.game.${gameId}`, key);
export const shareLeagueKey = (leagueId) => store.get(`share.league.${leagueId}`);
export const setShareLeagueKey = (leagueId, key) => store.set(`share.league.${leagueId}`, key);

// The league a game is in, as last seen: a private league's key reads its games
// before the phone has read the game itself.
export const leagueOf = (gameId) => store.get(`league.of.${gameId}`);
export function setLeagueOf(gameId, leagueId) {
  if (leagueId) store.set(`league.of.${gameId}`, leagueId);
}

/** The key that writes to a game: its own, or its league's (else a scorer key of that one league game). */
export function writeKey(game) {
  return game.league_id ? leagueKey(game.league_id) || gameKey(game.id) : gameKey(game.id);
}

// A scorer key this phone issued for a league game (kept: each issue is another key).
export const scorerKeyOf = (gameId) => store.get(`scorer.game.${gameId}`);

/** The leagues this phone holds a key for (a private one is in no list). */
export function heldLeagues() {
  const ids = new Set();
  for (let i = 0; i < localStorage.length; i++) {
    const match = /^ginref\.(?:key|share)\.league\.(\d+)$/.exec(localStorage.key(i) || "");
    if (match) ids.add(Number(match[1]));
  }
  return [...ids].sort((a, b) => a - b);
}

/** The key that reads a league: its write key, else a share key. */
export const leagueReadKey = (leagueId) => (leagueId ? leagueKey(leagueId) || shareLeagueKey(leagueId) : null);

/** The key that reads a game: its write key, its league's, else a share key of either. */
export function readKey(gameId) {
  const leagueId = leagueOf(gameId);
  return gameKey(gameId) || (leagueId && leagueKey(leagueId)) || shareGameKey(gameId) || leagueReadKey(leagueId) || null;
}

export function newIdempotencyKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const etags = new Map(); // game id -> the ETag of the last answer about it

export const etagOf = (gameId) => etags.get(String(gameId)) || null;

/** The ETag kept with the phone's last copy of a game (a page reloaded with no
 * signal): its queued hands are checked against the game as last seen. */
export function seedEtag(gameId, etag) {
  if (etag && !etags.has(String(gameId))) etags.set(String(gameId), etag);
}

async function call(method, path, { body, key, ifMatch, ifNoneMatch, idempotencyKey, signal } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (key) headers.Authorization = `Bearer ${key}`;
  if (ifMatch) headers["If-Match"] = ifMatch;
  if (ifNoneMatch) headers["If-None-Match"] = ifNoneMatch;
  if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
  const response = await fetch(BASE + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
    signal,
  });
  if (response.status === 304) return { status: 304, etag: response.headers.get("ETag"), data: null };
  const data = await bodyOf(response);
  if (!response.ok) throw new ApiError(response.status, data || { status: response.status, title: response.statusText });
  return { status: response.status, etag: response.headers.get("ETag"), data };
}

async function bodyOf(response) {
  const text = await response.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return { type: "about:blank", title: response.statusText, status: response.status, detail: text };
  }
}

/**
 * Read a game's stream of changes (Server-Sent Events, read with fetch so
 * that a private game's key goes in its header) until it ends: `onChanges`
 * gets each batch as it comes. Resolves to the last change's version.
 */
async function readStream(gameId, after, wait, signal, onChanges) {
  const headers = { Accept: "text/event-stream" };
  const key = readKey(gameId);
  if (key) headers.Authorization = `Bearer ${key}`;
  const path = `/games/${gameId}/events/stream?after=${after}&wait=${wait}`;
  const response = await fetch(BASE + path, { headers, cache: "no-store", signal });
  if (!response.ok) {
    const data = await bodyOf(response);
    throw new ApiError(response.status, data || { status: response.status, title: response.statusText });
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let last = after;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return last;
    const blocks = (text + value).split("\n\n");
    text = blocks.pop();
    const items = blocks
      .filter((block) => block.includes("data: ")) // not the stream's opening lines
      .map((block) => JSON.parse(block.slice(block.indexOf("data: ") + 6)));
    if (items.length) {
      last = items[items.length - 1].version;
      await onChanges(items, last);
    }
  }
}

function remember(gameId, result) {
  // A 304 only confirms the ETag it was asked about: one that arrives after a
  // fresher answer (a slow poll, sent before a write) must not take it back.
  if (result.etag && result.status !== 304) etags.set(String(gameId), result.etag);
  return result;
}

const readLeague = async (id) => (await call("GET", `/leagues/${id}`, { key: leagueReadKey(id) })).data;

const presetQuery = (preset) => (preset ? `&preset=${encodeURIComponent(preset)}` : "");

export const api = {
  /** Every player, 100 a page (to a bound: the choice is made from a list). */
  async listPlayers() {
    const players = [];
    for (let page = 1; page <= 20; page++) {
      const { items, total } = (await call("GET", `/players?page=${page}&per_page=100`)).data;
      players.push(...items);
      if (items.length < 100 || players.length >= total) break;
    }
    return players;
  },
  player: async (id) => (await call("GET", `/players/${id}`)).data,
  createPlayer: async (name) =>
    (await call("POST", "/players", { body: { name }, idempotencyKey: newIdempotencyKey() })).data,

  async createGame(body, key) {
    const result = await call("POST", "/games", { body, key, idempotencyKey: newIdempotencyKey() });
    remember(result.data.id, result);
    if (result.data.key) setGameKey(result.data.id, result.data.key);
    setLeagueOf(result.data.id, result.data.league_id);
    return result.data;
  },

  /** The game, or null when it is as the last ETag said (304). */
  async game(gameId, { fresh = false } = {}) {
    const result = remember(
      gameId,
      await call("GET", `/games/${gameId}`, { key: readKey(gameId), ifNoneMatch: fresh ? null : etagOf(gameId) }),
    );
    if (result.data) setLeagueOf(gameId, result.data.league_id);
    return result.data;
  },
  /** The game's hands, and the game's ETag as of their read: {items, etag}. */
  async hands(gameId) {
    const result = await call("GET", `/games/${gameId}/hands`, { key: readKey(gameId) });
    return { items: result.data.items, etag: result.etag };
  },

  /** The game's changes after `after`, as they come for up to `wait` s (see readStream): the last one's version. */
  stream: readStream,

  /**
   * A read-only share key for spectators of a private game (or of its private
   * league), issued once with the write key and kept: the same label again
   * would rotate it and cut off the phones that hold the old one.
   */
  async spectatorKey(game) {
    if (game.league_id) return api.leagueSpectatorKey(game.league_id);
    const kept = shareGameKey(game.id);
    if (kept) return kept;
    const result = await call("POST", `/games/${game.id}/share-key`, {
      body: { label: "spectators" },
      key: writeKey(game),
      idempotencyKey: newIdempotencyKey(),
    });
    setShareGameKey(game.id, result.data.key);
    return result.data.key;
  },
  /** The same for a private league (its standings, games and exports), with its write key. */
  async leagueSpectatorKey(leagueId) {
    const kept = shareLeagueKey(leagueId);
    if (kept) return kept;
    const result = await call("POST", `/leagues/${leagueId}/share-key`, {
      body: { label: "spectators" },
      key: leagueKey(leagueId),
      idempotencyKey: newIdempotencyKey(),
    });
    setShareLeagueKey(leagueId, result.data.key);
    return result.data.key;
  },

  /** Record a hand. `idempotencyKey` is the hand's own: a retry records once. */
  async recordHand(game, body, idempotencyKey, ifMatch = etagOf(game.id)) {
    const result = await call("POST", `/games/${game.id}/hands`, {
      body,
      key: writeKey(game),
      ifMatch,
      idempotencyKey,
    });
    return remember(game.id, result).data;
  },
  async correctHand(game, number, body) {
    const result = await call("PUT", `/games/${game.id}/hands/${number}`, {
      body,
      key: writeKey(game),
      ifMatch: etagOf(game.id),
      idempotencyKey: newIdempotencyKey(),
    });
    return remember(game.id, result).data;
  },
  async undoHand(game, number) {
    const result = await call("DELETE", `/games/${game.id}/hands/${number}`, {
      key: writeKey(game),
      ifMatch: etagOf(game.id),
      idempotencyKey: newIdempotencyKey(),
    });
    return remember(game.id, result).data;
  },

  /** One recorded hand, with its ruling and explanation. */
  hand: async (gameId, number) => (await call("GET", `/games/${gameId}/hands/${number}`, { key: readKey(gameId) })).data,

  /** A game's disputes, open and resolved, oldest first, 100 a page (to a bound). */
  async disputes(gameId) {
    const disputes = [];
    for (let page = 1; page <= 20; page++) {
      const { items, total } = (await call("GET", `/games/${gameId}/disputes?page=${page}&per_page=100`, { key: readKey(gameId) })).data;
      disputes.push(...items);
      if (items.length < 100 || disputes.length >= total) break;
    }
    return disputes;
  },
  /** Dispute recorded hand `number`: {by, claim} and, optionally, the cards as the disputing side gives them. */
  async openDispute(game, number, body) {
    const result = await call("POST", `/games/${game.id}/hands/${number}/disputes`, {
      body,
      key: writeKey(game),
      ifMatch: etagOf(game.id),
      idempotencyKey: newIdempotencyKey(),
    });
    return remember(game.id, result).data;
  },
  /** Resolve a dispute: {decision: "upheld" | "rejected", reason}. */
  async resolveDispute(game, dispute, body) {
    const result = await call("POST", `/games/${game.id}/hands/${dispute.hand}/disputes/${dispute.id}/resolution`, {
      body,
      key: writeKey(game),
      ifMatch: etagOf(game.id),
      idempotencyKey: newIdempotencyKey(),
    });
    return remember(game.id, result).data;
  },

  /**
   * A key that records and reads one league game only, issued once with the
   * league's key and kept: the scorer link carries it, never the league's key.
   */
  async scorerKey(game) {
    const kept = scorerKeyOf(game.id);
    if (kept) return kept;
    const result = await call("POST", `/games/${game.id}/scorer-key`, {
      key: leagueKey(game.league_id),
      idempotencyKey: newIdempotencyKey(),
    });
    store.set(`scorer.game.${game.id}`, result.data.key);
    return result.data.key;
  },

  /** The page's addresses other phones can open, best first (none: the server listens on this machine only). */
  addresses: async () => (await call("GET", "/addresses")).data.addresses,

  refereeHand: async (body) => (await call("POST", "/referee/hand", { body })).data,
  refereeKnock: async (body) => (await call("POST", "/referee/knock", { body })).data,

  /** The public leagues, and after them those this phone holds a key for. */
  async leagues() {
    const listed = (await call("GET", "/leagues?per_page=100")).data.items;
    const seen = new Set(listed.map((l) => l.id));
    const held = await Promise.all(
      heldLeagues()
        .filter((id) => !seen.has(id))
        .map((id) => readLeague(id).catch(() => null)), // revoked, or gone: left out
    );
    return [...listed, ...held.filter(Boolean)];
  },
  league: (id) => readLeague(id),
  /** Create a league; its key, shown only now, is kept on this phone. */
  async createLeague(body) {
    const result = await call("POST", "/leagues", { body, idempotencyKey: newIdempotencyKey() });
    setLeagueKey(result.data.id, result.data.key);
    return result.data;
  },
  /** Add players to a league, with its key. */
  addMembers: async (leagueId, players) =>
    (
      await call("POST", `/leagues/${leagueId}/members`, {
        body: { players },
        key: leagueKey(leagueId),
        idempotencyKey: newIdempotencyKey(),
      })
    ).data,
  /** Standings, of one preset's games only when ``preset`` is given (R27). */
  standings: async (id, sort, order, preset = "") =>
    (
      await call("GET", `/leagues/${id}/standings?sort=${encodeURIComponent(sort)}&order=${encodeURIComponent(order)}${presetQuery(preset)}`, {
        key: leagueReadKey(id),
      })
    ).data,
  headToHead: async (id, a, b, preset = "") =>
    (await call("GET", `/leagues/${id}/head-to-head?a=${a}&b=${b}${presetQuery(preset)}`, { key: leagueReadKey(id) })).data,
  /** A player's games in a league (a private league's are in no player's own list). */
  async leagueGames(id, playerId) {
    const result = await call("GET", `/leagues/${id}/games?player=${playerId}&limit=100`, { key: leagueReadKey(id) });
    for (const game of result.data.items) setLeagueOf(game.id, id);
    return result.data;
  },
  exportUrls: (id) => ({ json: `${BASE}/leagues/${id}/export`, csv: `${BASE}/leagues/${id}/export.csv` }),

  /**
   * A league's export ("json" or "csv") read with the key this phone holds:
   * a link could not carry it, and a private league answers a keyless 404.
   * {blob, name}, the name from Content-Disposition, else league-<id>.<ext>.
   */
  async exportFile(id, kind) {
    const key = leagueReadKey(id);
    const response = await fetch(api.exportUrls(id)[kind], {
      headers: key ? { Authorization: `Bearer ${key}` } : {},
      cache: "no-store",
    });
    if (!response.ok) {
      let problem;
      try {
        problem = await response.json();
      } catch {
        problem = { status: response.status, title: response.statusText };
      }
      throw new ApiError(response.status, problem || { status: response.status, title: response.statusText });
    }
    const name = fileName(response.headers.get("Content-Disposition")) || `league-${id}.${kind}`;
    return { blob: await response.blob(), name };
  },
};

/** The file name in a Content-Disposition header, or null. */
function fileName(disposition) {
  const match = /filename\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(disposition || "");
  const name = match && (match[1] || match[2]);
  return name ? name.replace(/[\\/]/g, "_") : null;
}

/** A problem's last segment: "precondition-failed", or a rule "R14". */
export function problemKind(problem) {
  const type = (problem && problem.type) || "";
  const hash = type.indexOf("#");
  if (hash >= 0) return type.slice(hash + 1);
  return type.slice(type.lastIndexOf("/") + 1) || "about:blank";
}
