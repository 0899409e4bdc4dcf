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
import { PRESETS, playerCount, presetSeats, presetWord, problemView, roleWord } from "./words.js";
import { OPTION_RANGES, PRESET_OPTIONS, optionDefault } from "./presets.js";
import { onLoopback, useAddresses } from "./share.js";
import { cutFieldset, cutWords, howSwitch, readCut, rolesFieldset, startGame } from "./seats.js";
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
  const state = { players: [], chosen: ["", "", ""], how: "cut", leagues: [], private: false, preset: "three_handed", options: {} };
  const two = () => playerCount(state.preset) === 2; // R28: two players; three-handed and cutthroat three (R8, R36)
  const seatCount = () => playerCount(state.preset);
  const seats = () => presetSeats(state.preset); // the roles given (R8), or the seats of R28 or R36
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
          const free = chosen().indexOf("");
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

  const chosen = () => state.chosen.slice(0, seatCount());

  const cutPart = () => cutFieldset("cut", chosen().map((id, i) => (id ? nameOf(id) : t("start.player_n", { n: i + 1 }))), cutWords(state.preset));

  const rolesPart = () =>
    rolesFieldset("role", seats(), roleWord, (role) => chosen().map((id, i) => h("option", { value: id, selected: seats()[i] === role }, id ? nameOf(id) : "?")));

  /** The preset picker (R27): one tap a preset; its options are drawn anew. */
  const presetPicker = () =>
    h(
      "fieldset",
      { class: "presets" },
      h("legend", {}, t("start.preset")),
      h(
        "div",
        { class: "segmented preset-choice", role: "group", "aria-label": t("start.preset") },
        PRESETS.map((preset) =>
          h(
            "button",
            {
              type: "button",
              "data-preset": preset,
              "aria-pressed": state.preset === preset ? "true" : "false",
              onclick: () => {
                state.preset = preset;
                state.options = {}; // each preset has its own defaults
                state.fresh = true; // nothing of the last preset's options is kept
                draw();
              },
            },
            presetWord(preset),
          ),
        ),
      ),
      h("p", { class: "hint preset-help" }, t(`preset.${state.preset}_help`)),
    );

  /** One option of the chosen preset, its default shown (R27's table). */
  const option = (name) => {
    const range = OPTION_RANGES[name];
    const fallback = optionDefault(state.preset, name);
    const id = `rule-${name}`;
    const kept = state.options[name];
    if (range === "bool") {
      return h(
        "div",
        { class: "field" },
        h("label", { class: "inline check" }, h("input", { id, type: "checkbox", checked: kept === undefined ? fallback : kept }), t(`rules.${name}`)),
      );
    }
    if (typeof range[0] === "string") {
      const value = kept === undefined ? fallback : kept;
      return h(
        "div",
        { class: "field" },
        h("label", { for: id }, t(`rules.${name}`)),
        h("select", { id }, range.map((v) => h("option", { value: v, selected: v === value }, t(`option.${name}.${v}`)))),
      );
    }
    const [min, max] = range;
    return h(
      "div",
      { class: "field" },
      h("label", { for: id }, t(`rules.${name}`), ` (${min}–${max})`),
      h("input", { id, type: "number", inputmode: "numeric", min, max, value: kept === undefined ? "" : kept, placeholder: String(fallback) }),
    );
  };

  /** The options as entered: only those that differ from the preset's defaults. */
  function readOptions() {
    const rules = {};
    for (const name of PRESET_OPTIONS[state.preset]) {
      const input = form.querySelector(`#rule-${name}`);
      if (!input) continue;
      const range = OPTION_RANGES[name];
      const fallback = optionDefault(state.preset, name);
      if (range === "bool") {
        if (input.checked !== fallback) rules[name] = input.checked;
      } else if (typeof range[0] === "string") {
        if (input.value !== fallback) rules[name] = input.value;
      } else if (input.value !== "") {
        rules[name] = Number(input.value);
      }
    }
    return rules;
  }

  /** What was entered survives a redraw (a player added, the cut switched). */
  function keepOptions() {
    for (const name of PRESET_OPTIONS[state.preset]) {
      const input = form.querySelector(`#rule-${name}`);
      if (input) state.options[name] = OPTION_RANGES[name] === "bool" ? input.checked : input.value;
    }
  }

  async function start(e) {
    e.preventDefault();
    const players = chosen().map(Number);
    if (players.some((p) => !p) || new Set(players).size !== players.length) {
      return replace(status, h("p", { class: "problem", role: "alert" }, t(two() ? "start.need_two" : "start.need_three")));
    }
    const body = { players };
    if (state.how === "cut") {
      const { cut, problem } = readCut(form, "cut", players, nameOf);
      if (problem) return replace(status, problem);
      body.cut = cut;
    } else {
      body.roles = Object.fromEntries(seats().map((role) => [role, Number(form.querySelector(`#role-${role}`).value)]));
    }
    const rules = readOptions();
    if (state.preset !== "three_handed") body.rules = { preset: state.preset, ...rules }; // R27
    else if (Object.keys(rules).length) body.rules = rules; // no preset: three-handed, as before presets
    const leagueId = form.querySelector("#league").value; // a league holds games of every preset (R27)
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
    if (form.childElementCount && !state.fresh) keepOptions();
    state.fresh = false;
    const leagueSelect = h(
      "select",
      { id: "league" },
      h("option", { value: "" }, t("start.no_league")),
      state.leagues.map((l) => h("option", { value: l.id }, l.name)),
    );
    replace(
      form,
      h("h2", {}, t("start.new_game")),
      presetPicker(),
      h(
        "fieldset",
        {},
        h("legend", {}, t(two() ? "start.players_legend_two" : "start.players_legend")),
        [...Array(seatCount()).keys()].map(playerSelect),
        newPlayer(),
      ),
      howSwitch(state, draw),
      state.how === "cut" ? cutPart() : rolesPart(),
      h(
        "details",
        { class: "rule-options", open: state.preset !== "three_handed" },
        h("summary", {}, t("start.rule_options")),
        PRESET_OPTIONS[state.preset].map(option),
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
