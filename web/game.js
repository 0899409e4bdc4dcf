// The game screen: scoreboard, record a hand, history, chart. It follows the
// game on its change feed (a stream of /events/stream), re-reading the game with
// If-None-Match on each change; when the feed fails it polls every 2 s and
// tries the feed again later, less and less often.

import { ApiError, api, etagOf, gameKey, problemKind, scorerKeyOf, seedEtag, shareGameKey, shareLeagueKey, store, writeKey } from "./api.js";
import { h, replace } from "./dom.js";
import { face } from "./cards.js";
import { tabs } from "./tabs.js";
import { t } from "./i18n.js";
import { handForm } from "./hand.js";
import { handDetail } from "./detail.js";
import { disputesPart } from "./disputes.js";
import { rematchPart } from "./rematch.js";
import { COLORS, chart } from "./chart.js";
import { flushQueue, hasWaiting, projection, queuedFor, removeQueued, retryQueued } from "./queue.js";
import { issueButton, pageBase, shareLink, unreachableNote } from "./share.js";
import { ROLES, isCutthroat, isTwoPlayer, knockerSeats, otherSeat, outcomeWord, presetWord, problemView, roleWord, seatsOf, stepWords, whoWord } from "./words.js";

const POLL_MS = 2000;
const FEED_WAIT_S = 25; // the longest stream the API sends
const FEED_RETRY_MAX_MS = 60000;

export function gameScreen(root, gameId) {
  const view = {
    id: gameId,
    game: null,
    hands: [],
    names: {},
    message: null,
    form: null,
    alive: true,
    after: 0, // the version the feed has reported
    feedFailures: 0,
    feedRetryAt: 0,
    abort: null, // the open stream's
    wakeUp: null, // ends the pause under way
    leagueVisibility: undefined, // of the game's league, once read
    seenAt: null, // set while the game shown is the phone's copy (no signal since the page opened)
    retrying: null, // the refused hand whose knocker is being asked
  };
  const parts = {
    board: h("section", { class: "board", "aria-labelledby": "board-title" }),
    queue: h("section", { class: "queue", "aria-live": "polite" }),
    record: h("section", { class: "record", "aria-labelledby": "record-title" }),
    history: h("section", { class: "history", "aria-labelledby": "history-title" }),
    disputes: h("section", { class: "disputes-part", "aria-labelledby": "disputes-title" }),
    rematch: h("section", { class: "rematch-part" }),
    share: h("section", { class: "share", "aria-labelledby": "share-title" }),
    status: h("div", { class: "status", role: "status", "aria-live": "polite" }),
  };
  // three sections, one tap apart: the scores with the record form (where the
  // page opens, and the queue beside them), the hands, and the other phones
  const sectionBar = tabs("game", t("tabs.label"), ["scores", "hands", "share"]);
  const { scores, hands, share } = sectionBar.panels;
  scores.append(parts.board, parts.queue, parts.record, parts.rematch);
  hands.append(parts.history, parts.disputes);
  share.append(parts.share);
  replace(root, parts.status, sectionBar.element);
  const sections = [sectionBar.element, parts.board, parts.record, parts.history, parts.share];
  for (const part of sections) part.hidden = true; // empty, and titled by headings yet to come, until the game is read
  renderTabs();

  const name = (id) => view.names[id] || `#${id}`;

  async function loadNames() {
    for (const id of view.game.players) {
      if (!view.names[id]) view.names[id] = (await api.player(id)).name;
    }
  }

  async function reload({ fresh = true } = {}) {
    // the game and its hands of one moment: when another phone wrote between
    // the two reads, both are read again, so that the ETag the page writes
    // with is never older than the hands it shows (a few tries: then the
    // feed's next change reads them again)
    let game = null;
    let hands = null;
    for (let tries = 0; tries < 3; tries++) {
      game = await api.game(view.id, { fresh: fresh || tries > 0 });
      if (game === null) return false;
      hands = await api.hands(view.id);
      if (hands.etag === etagOf(view.id)) break;
    }
    view.game = game;
    view.hands = hands.items;
    await loadNames();
    keepCopy();
    if (game.league_id && view.leagueVisibility === undefined) {
      try {
        ({ visibility: view.leagueVisibility, name: view.leagueName } = await api.league(game.league_id));
      } catch {
        // the next reload asks again
      }
    }
    return true;
  }

  /** The game as last read, kept on the phone: a page reloaded with no signal shows it (and queues). */
  function keepCopy() {
    const copy = { game: view.game, hands: view.hands, names: view.names, etag: etagOf(view.id), seenAt: new Date().toISOString() };
    try {
      store.set(`seen.game.${view.id}`, copy);
    } catch {
      // the phone's storage is full: the queue matters more than the copy
    }
  }

  /** Show the phone's copy of the game; false when it has none. */
  function showCopy() {
    const copy = store.get(`seen.game.${view.id}`);
    if (!copy || !copy.game) return false;
    view.game = copy.game;
    view.hands = copy.hands || [];
    view.names = { ...copy.names, ...view.names };
    view.seenAt = copy.seenAt;
    seedEtag(view.id, copy.etag);
    const at = new Date(copy.seenAt);
    const time = `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
    say(h("p", { class: "offline-copy" }, t("queue.offline_copy", { time })));
    render();
    return true;
  }

  /** Private: reads need a key, so a spectator link must carry a share key. */
  const isPrivate = (game) => (game.league_id ? view.leagueVisibility === "private" : game.visibility === "private");

  function say(message) {
    view.message = message;
    replace(parts.status, message);
  }


  /** A player's progress to the target, in his colour in the chart. */
  const scoreBar = (game, id, score, target) => {
    const bar = h("span", { class: "bar" });
    bar.style.width = `${Math.min(100, Math.round((100 * score) / target))}%`;
    bar.style.background = COLORS[game.players.indexOf(id)];
    return bar;
  };

  /** The board's title, a line under it (the preset, if given) and who won or which hand is next. */
  const boardHead = (game, line = null) => [
    h("h2", { id: "board-title" }, t("board.title", { id: game.id })),
    line,
    game.winner
      ? h("p", { class: "winner", "data-winner": game.winner }, t("board.winner", { name: name(game.winner) }))
      : h("p", { class: "next" }, t("board.next_hand", { number: game.hands_played + 1 })),
  ];

  function renderBoard() {
    if (isTwoPlayer(view.game)) return renderTwoPlayerBoard();
    const game = view.game;
    const roleOf = {};
    for (const role of ROLES) if (game.roles) roleOf[game.roles[role]] = role;
    const target = game.rules.target_score;
    const rows = [...game.players].sort((a, b) => ROLES.indexOf(roleOf[a]) - ROLES.indexOf(roleOf[b]));
    replace(
      parts.board,
      ...boardHead(game),
      h(
        "table",
        { class: "scores" },
        h(
          "thead",
          {},
          h("tr", {}, h("th", { scope: "col" }, t("board.player")), h("th", { scope: "col" }, t("board.role")), h("th", { scope: "col" }, t("board.score"))),
        ),
        h(
          "tbody",
          {},
          rows.map((id) => {
            const score = game.scores[String(id)];
            const role = roleOf[id];
            const bar = scoreBar(game, id, score, target);
            return h(
              "tr",
              { "data-player": id, "data-role": role || "" },
              h("th", { scope: "row" }, name(id), game.winner === id ? ` ${t("board.won_mark")}` : ""),
              h(
                "td",
                { class: "role" },
                role ? roleWord(role) : "–",
                role === "box" ? h("span", { class: "dealer" }, ` · ${t("board.deals")}`) : null,
              ),
              h(
                "td",
                { class: "score" },
                h("span", { class: "points", "data-score": score }, String(score)),
                h("span", { class: "of" }, ` / ${target}`),
                h("span", { class: "progress", "aria-hidden": "true" }, bar),
              ),
            );
          }),
        ),
      ),
      rulesLine(game),
    );
  }

  /**
   * The two-player scoreboard (R28-R31): the dealer marked, each player's
   * boxes and running score against the target, and once the game is won
   * its result with the parts of each total. Cutthroat (R36): three rows,
   * the next hand's dealer, non-dealer and the player who sits it out.
   */
  function renderTwoPlayerBoard() {
    const game = view.game;
    const target = game.rules.target_score;
    const roleOf = {};
    const seats = seatsOf(game);
    if (game.roles) for (const seat of seats) roleOf[game.roles[seat]] = seat;
    const rows = game.roles ? seats.map((seat) => game.roles[seat]) : [...game.players];
    const boxes = game.boxes || {};
    if (game.columns) return renderHollywoodBoard(game, roleOf, rows);
    replace(
      parts.board,
      ...boardHead(game, h("p", { class: "preset-line" }, presetWord(game.rules.preset))),
      h(
        "table",
        { class: "scores two-player" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, t("board.player")),
            h("th", { scope: "col" }, t("board.boxes")),
            h("th", { scope: "col" }, t("board.score")),
          ),
        ),
        h(
          "tbody",
          {},
          rows.map((id) => {
            const score = game.scores[String(id)];
            const role = roleOf[id];
            const bar = scoreBar(game, id, score, target);
            const count = boxes[String(id)] || 0;
            return h(
              "tr",
              { "data-player": id, "data-role": role || "" },
              h(
                "th",
                { scope: "row" },
                name(id),
                game.winner === id ? ` ${t("board.won_mark")}` : "",
                role === "dealer" ? h("span", { class: "dealer" }, ` · ${t("board.deals")}`) : null,
                role === "sitter" ? h("span", { class: "sits-out" }, ` · ${t("board.sits_out")}`) : null, // R36
              ),
              h(
                "td",
                { class: "boxes", "data-boxes": count },
                h("span", { class: "tally", "aria-hidden": "true" }, "▮".repeat(Math.min(count, 12))),
                h("span", { class: "count" }, String(count)),
              ),
              h(
                "td",
                { class: "score" },
                h("span", { class: "points", "data-score": score }, String(score)),
                h("span", { class: "of" }, ` / ${target}`),
                h("span", { class: "progress", "aria-hidden": "true" }, bar),
                game.winner ? null : h("span", { class: "to-go" }, t("board.to_go", { points: Math.max(0, target - score) })),
              ),
            );
          }),
        ),
      ),
      isCutthroat(game) && !game.winner ? h("p", { class: "hint seats-rule" }, t("board.cutthroat_rule")) : null,
      game.result ? (isCutthroat(game) ? cutthroatResultView(game.result, name) : resultView(game.result, name)) : null,
      rulesLine(game),
    );
  }

  /**
   * A Hollywood match (R34): its three columns side by side, each player's
   * running score and boxes in each, who deals, each won column's result
   * and, once all three are won, the match's.
   */
  function renderHollywoodBoard(game, roleOf, rows) {
    replace(
      parts.board,
      ...boardHead(game, h("p", { class: "preset-line" }, presetWord(game.rules.preset))),
      h(
        "table",
        { class: "scores two-player columns", "aria-label": t("match.columns") },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, t("board.player")),
            game.columns.map((c) => h("th", { scope: "col", "data-column": c.number }, t("match.column", { n: c.number }))),
          ),
        ),
        h(
          "tbody",
          {},
          rows.map((id) =>
            h(
              "tr",
              { "data-player": id, "data-role": roleOf[id] || "" },
              h(
                "th",
                { scope: "row" },
                name(id),
                game.winner === id ? ` ${t("board.won_mark")}` : "",
                roleOf[id] === "dealer" ? h("span", { class: "dealer" }, ` · ${t("board.deals")}`) : null,
              ),
              game.columns.map((c) => {
                const score = c.scores[String(id)];
                const count = c.boxes[String(id)];
                return h(
                  "td",
                  { "data-column": c.number, "data-score": score, "data-boxes": count, class: c.winner === id ? "won" : "" },
                  h("span", { class: "points" }, String(score)),
                  h("span", { class: "col-boxes" }, `${t("board.boxes")} ${count}`),
                  c.winner === id ? h("span", { class: "won-mark" }, t("board.won_mark")) : null,
                );
              }),
            ),
          ),
        ),
      ),
      game.columns
        .filter((c) => c.winner !== null)
        .map((c) => h("p", { class: "column-won", "data-column": c.number }, t("match.column_won", { n: c.number, name: name(c.winner), hand: c.won_at }))),
      game.match ? matchView(game.match, name) : null,
      game.columns.filter((c) => c.result).map((c) => resultView(c.result, name, c.number)),
      rulesLine(game),
    );
  }

  function renderTabs() {
    sectionBar.label("scores", t("tabs.scores"));
    sectionBar.label("hands", t("tabs.hands", { count: view.hands.length }));
    sectionBar.label("share", t("tabs.share"));
  }

  function renderHistory() {
    const game = view.game;
    const canWrite = Boolean(writeKey(game));
    const last = view.hands.length ? view.hands[view.hands.length - 1].number : null;
    replace(
      parts.history,
      h("h2", { id: "history-title" }, t("history.title")),
      view.hands.length ? chart(game, view.hands, name) : null,
      view.hands.length === 0
        ? h("p", {}, t("history.none"))
        : h(
            "ol",
            { class: "hands", reversed: true },
            [...view.hands].reverse().map((hand) =>
              handRow(hand, game, name, canWrite && {
                correct: () => {
                  sectionBar.select("scores"); // the record form is there
                  view.form.correct(hand);
                  parts.record.scrollIntoView();
                },
                dispute: () => view.disputes.open(hand),
                undo:
                  hand.number === last
                    ? async (event) => {
                        const button = event.currentTarget;
                        if (button.dataset.armed !== "true") {
                          // one thumb, one slip: the first tap only asks
                          button.dataset.armed = "true";
                          button.textContent = t("history.undo_confirm", { number: hand.number });
                          setTimeout(() => {
                            button.dataset.armed = "false";
                            button.textContent = t("history.undo");
                          }, 5000);
                          return;
                        }
                        try {
                          await api.undoHand(game, hand.number);
                          say(t("history.undone", { number: hand.number }));
                          await refresh(true);
                        } catch (error) {
                          await handleWriteError(error);
                        }
                      }
                    : null,
              }),
            ),
          ),
    );
  }

  /** The spectator link, or null for a private game with no share key on this phone yet. */
  function spectatorLink(game, base) {
    if (!isPrivate(game)) return `${base}#game=${game.id}`;
    const share = game.league_id ? shareLeagueKey(game.league_id) : shareGameKey(game.id);
    if (!share) return null;
    const league = game.league_id ? `&league=${game.league_id}` : "";
    return `${base}#game=${game.id}${league}&share=${encodeURIComponent(share)}`;
  }

  function renderShare() {
    const game = view.game;
    const key = writeKey(game);
    const base = pageBase();
    const spectator = spectatorLink(game, base);
    const items = [h("h2", { id: "share-title" }, t("share.title")), unreachableNote()];
    items.push(h("p", {}, isPrivate(game) ? t("share.spectator_private") : t("share.spectator")));
    if (spectator) {
      items.push(
        shareLink({
          href: spectator,
          text: isPrivate(game) ? t("share.spectator_link") : null,
          className: "spectator-link",
          label: isPrivate(game) ? t("share.spectator_private") : t("share.spectator"),
          qr: isPrivate(game) ? { summary: t("share.spectator_qr"), label: t("share.spectator_qr_label"), className: "spectator-qr" } : null,
        }),
      );
    } else if (key) {
      items.push(
        issueButton("make-spectator-link", t("share.make_spectator_link"), () => api.spectatorKey(game), say, renderShare),
      );
    } else {
      items.push(h("p", { class: "hint" }, t("share.no_spectator_link")));
    }
    // a league game's scorer link carries a key of that one game, never the league's
    const scorerKey = game.league_id ? scorerKeyOf(game.id) || gameKey(game.id) : key;
    if (key && scorerKey) {
      const scorer = `${base}#game=${game.id}&key=${encodeURIComponent(scorerKey)}`;
      const words = t(game.league_id ? "share.scorer_league" : "share.scorer");
      items.push(
        h("p", {}, words),
        shareLink({ href: scorer, text: t("share.scorer_link"), className: "scorer-link", label: words, qr: { summary: t("share.qr"), label: t("share.qr_label"), className: "scorer-qr" } }),
      );
    } else if (key && game.league_id) {
      items.push(
        h("p", {}, t("share.scorer_league")),
        issueButton("make-scorer-link", t("share.make_scorer_link"), () => api.scorerKey(game), say, renderShare),
      );
    }
    if (!key) {
      // a share key reads only: this phone watches; with no key at all it just has the public board
      const watching = shareGameKey(game.id) || (game.league_id && shareLeagueKey(game.league_id));
      items.push(h("p", { class: `readonly-note${watching ? " watching" : ""}` }, t(watching ? "share.watching" : "share.read_only")));
    }
    replace(parts.share, items);
  }

  function renderQueue() {
    const items = queuedFor(view.id);
    if (!items.length) return replace(parts.queue);
    replace(
      parts.queue,
      h("h2", {}, t("queue.title")),
      h(
        "ul",
        {},
        items.map((item) =>
          h(
            "li",
            { class: `queued ${item.refused ? "refused" : ""}`, "data-idempotency-key": item.idempotencyKey },
            item.refused ? t("queue.refused") : t("queue.waiting"),
            " ",
            describeBody(item.body, name),
            item.refused ? problemView(new ApiError(item.refused.status, item.refused)) : null,
            item.refused ? refusedActions(item) : null,
          ),
        ),
      ),
    );
  }

  function queueChanged() {
    renderQueue();
    if (view.game) view.form.update(view.game, true);
    wake();
  }

  /**
   * A refused hand is sent again only once the table says who really knocked,
   * offered by name in the seats as they are now (the game as the server
   * last said, and the hands that wait here): the knocker of a hand refused
   * because the seats moved (R11) may be sitting out by now.
   */
  function refusedActions(item) {
    const remove = h(
      "button",
      { type: "button", class: "secondary danger", onclick: () => { removeQueued(item.idempotencyKey); view.retrying = null; queueChanged(); } },
      t("queue.remove"),
    );
    const seats = view.game && projection(view.game).seats;
    const send = (role) => {
      retryQueued(item.idempotencyKey, role, seats);
      view.retrying = null;
      queueChanged();
    };
    if (view.retrying !== item.idempotencyKey) {
      return h(
        "p",
        { class: "actions" },
        h("button", {
          type: "button",
          class: "secondary retry",
          disabled: !seats,
          onclick: () => {
            if (item.body.outcome === "draw") return send(null); // R12: no knocker to ask about
            view.retrying = item.idempotencyKey;
            renderQueue();
          },
        }, t("queue.retry")),
        remove,
      );
    }
    return h(
      "div",
      { class: "really-knocked" },
      h("p", {}, t("queue.who_knocked")),
      h(
        "div",
        { class: "segmented", role: "group", "aria-label": t("queue.who_knocked") },
        knockerSeats(view.game).map((role) =>
          h(
            "button",
            { type: "button", "data-knocker": role, onclick: () => send(role) },
            t("queue.really_knocked", { who: whoWord(name(seats[role]), role) }),
          ),
        ),
      ),
      h("p", { class: "actions" }, h("button", { type: "button", class: "secondary", onclick: () => { view.retrying = null; renderQueue(); } }, t("queue.cancel")), remove),
    );
  }

  function render() {
    for (const part of sections) part.hidden = false;
    renderTabs();
    renderBoard();
    renderHistory();
    renderShare();
    renderQueue();
    view.form.update(view.game);
    view.disputes.refresh();
    if (view.rematchFor !== view.game.status) {
      view.rematchFor = view.game.status; // drawn again only when the game ends: a cut being typed stays
      replace(parts.rematch, rematchPart(view.game, name, view.leagueName));
    }
  }

  async function refresh(fresh = false) {
    const changed = await reload({ fresh });
    if (changed) render();
    return changed;
  }

  async function handleWriteError(error) {
    const moved = error instanceof ApiError && error.status === 409 && problemKind(error.problem) === "seating-moved";
    if (error instanceof ApiError && (error.status === 412 || moved)) {
      await refresh(true);
      say(problemView(error, h("p", {}, t("problem.412_kept")), name));
      return;
    }
    say(problemView(error, null, name));
  }

  view.disputes = disputesPart(parts.disputes, {
    game: () => view.game,
    hands: () => view.hands,
    name,
    changed: () => refresh(true),
  });

  view.form = handForm(parts.record, {
    game: () => view.game,
    name,
    say,
    saved: async (message) => {
      say(message);
      await refresh(true);
      window.scrollTo(0, 0); // the save's button is far below: the confirmation, the new roles and the scores, unscrolled
    },
    queued: () => {
      say(t("queue.saved_offline"));
      renderQueue();
      wake(); // the loop sends it as soon as it can
    },
    queueChanged,
    handleWriteError,
  });

  async function firstLoad() {
    try {
      await reload();
    } catch (error) {
      // no game yet (no signal, or none such): say why, show what waits here, try again
      const gone = error instanceof ApiError && error.status === 404;
      // a private game read without its key is the same 404 as no game at all
      if (gone) say(problemView(error, h("p", { class: "ask-link" }, t("game.not_found_or_private"))));
      else if (!(error instanceof ApiError) && showCopy()) return "copy";
      else say(problemView(error instanceof ApiError ? error : { network: true }));
      renderQueue();
      return gone ? "gone" : "later";
    }
    remember(view.id);
    say(null);
    render();
    return "shown";
  }

  /** Wait `ms`, or less if woken (leaving, a hand queued, the signal back). */
  function pause(ms) {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        view.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      view.wakeUp = done;
    });
  }

  function wake() {
    if (view.abort) view.abort.abort();
    if (view.wakeUp) view.wakeUp();
  }

  /** Send what waits in the queue; true when some of it still waits to be sent. */
  async function sendQueued() {
    const report = { refused: 0, offline: false };
    const sent = await flushQueue(view.id, () => view.game, report);
    for (const { hand } of sent) {
      // the game as each recorded hand leaves it, until it is read again
      Object.assign(view.game, { roles: hand.roles, scores: hand.scores, hands_played: hand.number, winner: hand.winner, status: hand.status });
    }
    if (sent.length || report.refused) {
      renderQueue();
      try {
        await refresh(true); // a refusal: the seats as they are now, to ask who knocked
      } catch {
        view.form.update(view.game, true); // offline again: the next turn reads it
      }
    }
    return hasWaiting(view.id);
  }

  /** One stream of the game's changes: true when it ran to its end, false when woken. Throws when the feed fails. */
  async function followFeed() {
    view.abort = new AbortController();
    try {
      const after = Math.max(view.after, view.game.version);
      view.after = await api.stream(view.id, after, FEED_WAIT_S, view.abort.signal, async (items, version) => {
        view.after = version;
        view.feedFailures = 0;
        if (version > view.game.version) await refresh(false);
      });
      view.feedFailures = 0;
      return true;
    } catch (error) {
      if (view.abort.signal.aborted) return false;
      throw error;
    } finally {
      view.abort = null;
    }
  }

  async function follow() {
    while (view.alive) {
      if (!view.game) {
        const shown = await firstLoad();
        if (shown === "gone") return;
        if (shown === "later" || shown === "copy") await pause(POLL_MS);
        continue;
      }
      if (view.seenAt) {
        // the phone's copy: read the game before anything queued is sent
        try {
          await refresh(true);
          view.seenAt = null;
          remember(view.id);
          say(null);
        } catch {
          if (view.alive) await pause(POLL_MS);
          continue;
        }
      }
      const waiting = await sendQueued();
      if (!view.alive) return;
      if (!waiting && Date.now() >= view.feedRetryAt) {
        try {
          await followFeed();
          continue;
        } catch {
          // no signal, or something between cuts long requests: poll, and try the feed again later
          view.feedFailures += 1;
          view.feedRetryAt = Date.now() + Math.min(FEED_RETRY_MAX_MS, POLL_MS * 2 ** view.feedFailures);
        }
      }
      try {
        await refresh(false); // the conditional poll: a 304 when nothing changed
      } catch {
        // offline: the next turn tries again
      }
      if (view.alive) await pause(POLL_MS);
    }
  }

  follow();
  const online = () => {
    view.feedRetryAt = 0;
    wake();
  };
  window.addEventListener("online", online);

  return () => {
    view.alive = false;
    wake();
    window.removeEventListener("online", online);
  };
}

function remember(gameId) {
  const games = store.get("games", []);
  if (!games.includes(gameId)) store.set("games", [gameId, ...games].slice(0, 20));
}

/** How a won game's result was reached: the referee's steps, folded away; nothing if it gives none. */
function resultHow(result, name) {
  if (!(result.explanation || []).length) return null;
  return h(
    "details",
    { class: "result-how" },
    h("summary", {}, t("result.how")),
    h("ol", { class: "explanation" }, result.explanation.map((step) => h("li", { "data-code": step.code, "data-rule": step.rule }, stepWords(step, name)))),
  );
}

/**
 * R31: a won two-player game's result (or a Hollywood column's, ``column``
 * its number), each player's total by its parts, the net and the winner.
 */
function resultView(result, name, column = null) {
  const ids = [result.winner, result.loser];
  const PARTS = ["hand_points", "box_bonus", "game_bonus", "shutout"];
  const titleId = column ? `result-title-${column}` : "result-title";
  return h(
    "section",
    { class: "result", "aria-labelledby": titleId, "data-net": result.net, "data-winner": result.winner, "data-column": column || "" },
    h("h3", { id: titleId }, column ? `${t("match.column", { n: column })} · ${t("result.title")}` : t("result.title")),
    h(
      "table",
      { class: "result-table" },
      h("thead", {}, h("tr", {}, h("td", {}), ids.map((id) => h("th", { scope: "col", "data-player": id }, name(id))))),
      h(
        "tbody",
        {},
        PARTS.map((part) =>
          h(
            "tr",
            { "data-part": part },
            h("th", { scope: "row" }, t(`result.${part}`)),
            ids.map((id) => h("td", { "data-player": id }, String(result.totals[String(id)][part]))),
          ),
        ),
        h(
          "tr",
          { class: "total", "data-part": "total" },
          h("th", { scope: "row" }, t("result.total")),
          ids.map((id) => h("td", { "data-player": id }, String(result.totals[String(id)].total))),
        ),
      ),
    ),
    result.shutout ? h("p", { class: "shutout-mark" }, t("result.shut_out", { name: name(result.loser) })) : null,
    h("p", { class: "net" }, t("result.net", { name: name(result.winner), net: result.net })),
    resultHow(result, name),
  );
}

/**
 * R36: a won cutthroat game's result: each player's total by its parts (the
 * winner first, then by total), who was shut out, and each pair's net by name.
 */
function cutthroatResultView(result, name) {
  const PARTS = ["hand_points", "box_bonus", "game_bonus", "shutout"];
  const ids = Object.keys(result.totals)
    .map(Number)
    .sort((a, b) => (b === result.winner) - (a === result.winner) || result.totals[String(b)].total - result.totals[String(a)].total);
  const cell = (id, part) => h("td", { "data-player": id }, String(result.totals[String(id)][part]));
  return h(
    "section",
    { class: "result cutthroat-result", "aria-labelledby": "result-title", "data-winner": result.winner },
    h("h3", { id: "result-title" }, t("result.title_cutthroat")),
    h(
      "table",
      { class: "result-table" },
      h("thead", {}, h("tr", {}, h("td", {}), ids.map((id) => h("th", { scope: "col", "data-player": id }, name(id))))),
      h(
        "tbody",
        {},
        PARTS.map((part) => h("tr", { "data-part": part }, h("th", { scope: "row" }, t(`result.${part}`)), ids.map((id) => cell(id, part)))),
        h("tr", { class: "total", "data-part": "total" }, h("th", { scope: "row" }, t("result.total")), ids.map((id) => cell(id, "total"))),
      ),
    ),
    (result.shut_out || []).length
      ? h(
          "p",
          { class: "shutout-mark", "data-players": result.shut_out.join(" ") },
          result.shut_out.length === 1
            ? t("result.shut_out_cutthroat", { name: name(result.shut_out[0]) })
            : t("result.shut_out_two", { names: result.shut_out.map(name).join(", ") }),
        )
      : null,
    h("h4", {}, t("result.nets")),
    h(
      "ul",
      { class: "nets" },
      (result.nets || []).map((n) =>
        h(
          "li",
          { class: "pair-net", "data-ahead": n.ahead, "data-behind": n.behind, "data-net": n.net },
          n.net === 0
            ? t("result.pair_even", { ahead: name(n.ahead), behind: name(n.behind) })
            : t("result.pair_net", { ahead: name(n.ahead), behind: name(n.behind), net: n.net }),
        ),
      ),
    ),
    resultHow(result, name),
  );
}

/** R34: a finished Hollywood match: each player's total over the three columns, and the net. */
function matchView(match, name) {
  const ids = Object.keys(match.totals).map(Number);
  return h(
    "section",
    { class: "match", "aria-labelledby": "match-title", "data-net": match.net, "data-winner": match.winner ?? "" },
    h("h3", { id: "match-title" }, t("match.title")),
    h(
      "table",
      { class: "result-table" },
      h("thead", {}, h("tr", {}, h("td", {}), ids.map((id) => h("th", { scope: "col", "data-player": id }, name(id))))),
      h(
        "tbody",
        {},
        h(
          "tr",
          { class: "total", "data-part": "total" },
          h("th", { scope: "row" }, t("result.total")),
          ids.map((id) => h("td", { "data-player": id }, String(match.totals[String(id)]))),
        ),
      ),
    ),
    h(
      "p",
      { class: "net" },
      match.winner === null
        ? t("match.even", { total: match.totals[String(ids[0])] })
        : t("match.net", { name: name(match.winner), net: match.net }),
    ),
  );
}

function rulesLine(game) {
  const r = game.rules;
  if (isTwoPlayer(game)) {
    const limit = r.preset === "oklahoma" ? t("rules.limit_upcard") : t("rules.limit", { limit: r.knock_limit });
    const parts = [
      t("rules.game_to", { target: r.target_score }),
      limit,
      t("rules.bonuses", { gin: r.gin_bonus, undercut: r.undercut_bonus }),
      r.big_gin_bonus ? t("rules.big_gin_line", { bonus: r.big_gin_bonus }) : null,
      t("rules.boxes_line", { bonus: r.box_bonus, game: r.game_bonus }),
      r.boxes_immediate ? t("rules.boxes_immediate_line") : null,
      t(`option.shutout.${r.shutout}`),
      r.preset === "oklahoma" ? t(`option.spades_double.${r.spades_double}`) : null,
    ];
    return h("p", { class: "rules-line" }, parts.filter(Boolean).join(" · "));
  }
  return h(
    "p",
    { class: "rules-line" },
    t("rules.summary", { target: r.target_score, limit: r.knock_limit, gin: r.gin_bonus, undercut: r.undercut_bonus }),
  );
}

/** A queued hand in words, its knocker by name and seat ("Tom (captain) knocked, ..."). */
export function describeBody(body, name) {
  if (body.outcome === "draw") return outcomeWord("draw");
  const who = body.seating ? whoWord(name(body.seating[body.knocker]), body.knocker) : roleWord(body.knocker);
  if ("knocker_deadwood_count" in body)
    return t("queue.counts", { who, k: body.knocker_deadwood_count, d: body.defender_deadwood_count });
  return t("queue.cards", { who });
}

function handRow(hand, game, name, actions) {
  const r = hand.ruling;
  let summary;
  if (r.outcome === "draw") {
    summary = outcomeWord("draw");
  } else {
    const knocker = hand.seating[hand.knocker];
    const defender = hand.seating[otherSeat(hand.knocker)];
    const scorer = r.scorer === "knocker" ? knocker : defender;
    summary = t("history.summary", {
      knocker: name(knocker),
      outcome: outcomeWord(r.outcome),
      scorer: name(scorer),
      points: r.points,
    });
    if (r.boxes) summary += ` · ${t("history.boxes", { count: r.boxes })}`; // R29
    if (r.upcard) summary += ` · ${t("history.upcard", { card: face(r.upcard) })}`; // R33
  }
  if (hand.columns) {
    // R34: the columns of a Hollywood match this hand was entered in
    summary += ` · ${hand.columns.length ? t("history.columns", { list: hand.columns.join(", ") }) : t("history.no_column")}`;
  }
  const running = game.players.map((id) => `${name(id)} ${hand.scores[String(id)]}`).join(" · ");
  const marks = [];
  if (hand.seating_follows === false) marks.push(t("history.seating_not_follows"));
  if (game.out_of_turn.includes(hand.number)) marks.push(t("history.out_of_turn"));
  if (hand.corrected_at) marks.push(t("history.corrected"));
  return h(
    "li",
    { class: "hand", "data-number": hand.number, "data-outcome": r.outcome, "data-points": r.points },
    h("p", { class: "hand-title" }, h("strong", {}, t("history.hand", { number: hand.number })), " ", summary),
    h("p", { class: "running" }, t("history.running"), " ", running),
    h(
      "p",
      { class: "seating" },
      seatsOf(game).map((role) => `${roleWord(role)}: ${name(hand.seating[role])}`).join(" · "),
    ),
    marks.map((m) => h("p", { class: "mark" }, m)),
    handDetail(game.id, hand.number, name),
    actions
      ? h(
          "p",
          { class: "actions" },
          h("button", { type: "button", class: "secondary", onclick: actions.correct }, t("history.correct")),
          h("button", { type: "button", class: "secondary dispute-hand", onclick: actions.dispute }, t("dispute.open")),
          actions.undo
            ? h("button", { type: "button", class: "secondary danger", onclick: actions.undo }, t("history.undo"))
            : null,
        )
      : null,
  );
}
