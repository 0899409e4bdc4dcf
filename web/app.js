// The table page: one screen at a time, chosen by the URL fragment
// (#game=12, #knock, #league=3); the fragment never reaches the server, so a
// scorer link may carry the game's key there (#game=12&key=...), and a
// spectator link of a private game a read-only share key (#game=12&share=...,
// or #game=12&league=3&share=... for a game of a private league); a league's
// key or share key may come the same way (#league=3&key=... or &share=...).

import {
  ApiError,
  api,
  leagueKey,
  setGameKey,
  setLeagueKey,
  setLeagueOf,
  setShareGameKey,
  setShareLeagueKey,
  store,
} from "./api.js";
import { fieldWithButton, h, replace } from "./dom.js";
import { gameScreen } from "./game.js";
import { LANGUAGES, chooseLanguage, language, setLanguage, t } from "./i18n.js";
import { knockScreen } from "./knock.js";
import { leagueScreen } from "./league.js";
import { ROLES, problemView, roleWord } from "./words.js";
import { onLoopback, useAddresses } from "./share.js";
import { cutFieldset, howSwitch, readCut, rolesFieldset, startGame } from "./seats.js";
import { recentGames } from "./recent.js";

const main = document.getElementById("main");
const nav = document.getElementById("nav");
let leave = () => {};

function route() {
  const params = new URLSearchParams(location.hash.slice(1));
  const gameId = Number(params.get("game")) || null;
  const leagueId = Number(params.get("league")) || null;
  const key = params.get("key");
  const share = params.get("share");
  let strip = false;
  if (key && (gameId || leagueId)) {
    if (gameId) setGameKey(gameId, key);
    else setLeagueKey(leagueId, key); // a league's link: its games can be started and scored here
    params.delete("key");
    strip = true;
  }
  if (share && (gameId || leagueId)) {
    if (leagueId) setShareLeagueKey(leagueId, share);
    else setShareGameKey(gameId, share);
    if (gameId && leagueId) {
      setLeagueOf(gameId, leagueId);
      params.delete("league"); // the game screen finds its league in the game
    }
    params.delete("share");
    strip = true;
  }
  if (strip) history.replaceState(null, "", `#${params.toString()}`); // the key stays on this phone only
  return params;
}

function header() {
  const select = h(
    "select",
    {
      id: "language",
      onchange: async (e) => {
        store.set("lang", e.target.value);
        await setLanguage(e.target.value);
        show();
      },
    },
    Object.entries(LANGUAGES).map(([code, label]) => h("option", { value: code, lang: code, selected: code === language() }, label)),
  );
  replace(
    nav,
    h("a", { href: "#", class: "home" }, t("app.title")),
    h("a", { href: "#knock" }, t("nav.knock")),
    h("a", { href: "#league" }, t("nav.leagues")),
    h("label", { for: "language", class: "visually-hidden" }, t("nav.language")),
    select,
  );
  document.title = t("app.title");
}

function show() {
  leave();
  leave = () => {};
  header();
  const params = route();
  window.scrollTo(0, 0);
  if (params.get("game")) leave = gameScreen(main, Number(params.get("game"))) || leave;
  else if (params.has("knock")) knockScreen(main);
  else if (params.has("league")) leagueScreen(main, params);
  else startScreen(main);
  main.focus({ preventScroll: true });
}

async function startScreen(root) {
  const state = { players: [], chosen: ["", "", ""], how: "cut", leagues: [], private: false };
  const status = h("div", { class: "status", role: "status", "aria-live": "polite" });
  const form = h("form", { class: "start", novalidate: true });
  replace(root, h("h1", {}, t("start.title")), status, recentGames(), form);
  try {
    [state.players, state.leagues] = await Promise.all([api.listPlayers(), api.leagues()]);
  } catch (error) {
    replace(status, problemView(error instanceof ApiError ? error : { network: true }));
  }

  const playerSelect = (i) =>
    h(
      "div",
      { class: "field" },
      h("label", { for: `player-${i}` }, t("start.player_n", { n: i + 1 })),
      h(
        "select",
        { id: `player-${i}`, name: `player-${i}`, onchange: (e) => { state.chosen[i] = e.target.value; draw(); } },
        h("option", { value: "" }, t("start.choose_player")),
        state.players.map((p) => h("option", { value: p.id, selected: String(p.id) === state.chosen[i] }, p.name)),
      ),
    );

  const newPlayer = () => {
    const input = h("input", { id: "new-player", type: "text", maxlength: 100, autocomplete: "off" });
    return fieldWithButton({
      className: "field new-player",
      label: t("start.new_player"),
      control: input,
      id: "add-player",
      text: t("start.add"),
      onclick: async () => {
        const name = input.value.trim();
        if (!name) return;
        const same = state.players.find((p) => p.name.toLowerCase() === name.toLowerCase());
        if (same && input.dataset.confirmed !== name) {
          input.dataset.confirmed = name; // a second tap makes the second player of that name
          return replace(status, h("p", { class: "problem same-name", role: "alert" }, t("start.same_name", { name: same.name })));
        }
        try {
          const player = await api.createPlayer(name);
          state.players = [...state.players, player];
          const free = state.chosen.indexOf("");
          if (free >= 0) state.chosen[free] = String(player.id);
          replace(status, t("start.player_added", { name: player.name }));
          draw();
        } catch (error) {
          replace(status, problemView(error));
        }
      },
    });
  };

  const nameOf = (id) => (state.players.find((p) => String(p.id) === String(id)) || {}).name || "?";

  const cutPart = () => cutFieldset("cut", state.chosen.map((id, i) => (id ? nameOf(id) : t("start.player_n", { n: i + 1 }))));

  const rolesPart = () =>
    rolesFieldset("role", ROLES, roleWord, (role) => state.chosen.map((id, i) => h("option", { value: id, selected: ROLES[i] === role }, id ? nameOf(id) : "?")));

  const rule = (name, label, min, max, value) =>
    h(
      "div",
      { class: "field" },
      h("label", { for: `rule-${name}` }, label, ` (${min}–${max})`),
      h("input", { id: `rule-${name}`, type: "number", inputmode: "numeric", min, max, value }),
    );

  async function start(e) {
    e.preventDefault();
    const players = state.chosen.map(Number);
    if (players.some((p) => !p) || new Set(players).size !== 3) {
      return replace(status, h("p", { class: "problem", role: "alert" }, t("start.need_three")));
    }
    const body = { players };
    if (state.how === "cut") {
      const { cut, problem } = readCut(form, "cut", players, nameOf);
      if (problem) return replace(status, problem);
      body.cut = cut;
    } else {
      body.roles = Object.fromEntries(ROLES.map((role) => [role, Number(form.querySelector(`#role-${role}`).value)]));
    }
    const rules = {};
    for (const name of ["target_score", "knock_limit", "gin_bonus", "undercut_bonus"]) {
      const value = form.querySelector(`#rule-${name}`).value;
      if (value !== "") rules[name] = Number(value);
    }
    if (Object.keys(rules).length) body.rules = rules;
    const leagueId = form.querySelector("#league").value;
    let key = null;
    if (leagueId) {
      body.league_id = Number(leagueId);
      key = form.querySelector("#league-key").value.trim() || leagueKey(leagueId);
      if (key) setLeagueKey(Number(leagueId), key);
    } else if (form.querySelector("#private").checked) {
      body.visibility = "private"; // a game in a league follows its league
    }
    await startGame(body, key, nameOf, status);
  }

  function draw() {
    const leagueSelect = h(
      "select",
      { id: "league" },
      h("option", { value: "" }, t("start.no_league")),
      state.leagues.map((l) => h("option", { value: l.id }, l.name)),
    );
    replace(
      form,
      h("h2", {}, t("start.new_game")),
      h("fieldset", {}, h("legend", {}, t("start.players_legend")), [0, 1, 2].map(playerSelect), newPlayer()),
      howSwitch(state, draw),
      state.how === "cut" ? cutPart() : rolesPart(),
      h(
        "details",
        {},
        h("summary", {}, t("start.rule_options")),
        rule("target_score", t("rules.target_score"), 10, 1000, ""),
        rule("knock_limit", t("rules.knock_limit"), 0, 10, ""),
        rule("gin_bonus", t("rules.gin_bonus"), 0, 100, ""),
        rule("undercut_bonus", t("rules.undercut_bonus"), 0, 100, ""),
      ),
      h(
        "details",
        {},
        h("summary", {}, t("start.league")),
        h("div", { class: "field" }, h("label", { for: "league" }, t("start.league")), leagueSelect),
        h("div", { class: "field" }, h("label", { for: "league-key" }, t("start.league_key")), h("input", { id: "league-key", type: "password", autocomplete: "off" })),
      ),
      h(
        "div",
        { class: "field" },
        h(
          "label",
          { class: "inline check" },
          h("input", { id: "private", type: "checkbox", checked: state.private, "aria-describedby": "private-help", onchange: (e) => { state.private = e.target.checked; } }),
          t("start.private"),
        ),
        h("p", { class: "hint", id: "private-help" }, t("start.private_help")),
      ),
      h("button", { type: "submit", class: "primary", id: "start-game" }, t("start.start")),
    );
  }
  form.addEventListener("submit", start);
  draw();
}

(async () => {
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {}); // the page opens with no signal
  await setLanguage(chooseLanguage());
  if (onLoopback()) await api.addresses().then(useAddresses, () => {}); // links other phones can open
  window.addEventListener("hashchange", show);
  show();
})();
