// Leagues made on the page: a new league (its name, members, public or
// private) whose key is shown once, with Copy, and kept on this phone (never
// in a link); and, with that key, members added to a league.

import { ApiError, api } from "./api.js";
import { fieldWithButton, h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { copyBlock } from "./share.js";
import { problemView } from "./words.js";

/** The "New league" form of the leagues screen. */
export function newLeagueForm() {
  const status = h("div", { class: "league-new-status", role: "status", "aria-live": "polite" });
  const members = h("fieldset", { class: "members-choice" }, h("legend", {}, t("league.new_members")));
  const name = h("input", { id: "league-name", type: "text", maxlength: 100, autocomplete: "off" });
  const isPrivate = h("input", { id: "league-private", type: "checkbox", "aria-describedby": "league-private-help" });
  const form = h(
    "form",
    { class: "league-new", novalidate: true },
    h("h2", {}, t("league.new_title")),
    h("div", { class: "field" }, h("label", { for: "league-name" }, t("league.new_name")), name),
    members,
    h(
      "div",
      { class: "field" },
      h("label", { class: "inline check" }, isPrivate, t("league.new_private")),
      h("p", { class: "hint", id: "league-private-help" }, t("league.new_private_help")),
    ),
    status,
    h("button", { type: "submit", class: "primary", id: "create-league" }, t("league.create")),
  );

  api.listPlayers().then(
    (players) =>
      members.append(
        ...players.map((p) =>
          h("label", { class: "inline check" }, h("input", { type: "checkbox", name: "member", value: p.id, "data-player": p.id }), p.name),
        ),
      ),
    (error) => replace(status, problemView(error instanceof ApiError ? error : { network: true })),
  );

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = name.value.trim();
    if (!text) return replace(status, h("p", { class: "problem", role: "alert" }, t("league.need_name")));
    const chosen = [...members.querySelectorAll("input[name=member]:checked")].map((box) => Number(box.value));
    try {
      const league = await api.createLeague({ name: text, members: chosen, visibility: isPrivate.checked ? "private" : "public" });
      replace(form, createdView(league)); // the key is in the answer once: shown here once, kept on this phone
    } catch (error) {
      replace(status, problemView(error instanceof ApiError ? error : { network: true }));
    }
  });
  return form;
}

function createdView(league) {
  return h(
    "div",
    { class: "league-created" },
    h("h2", {}, t("league.new_title")),
    h("p", { class: "created" }, t("league.created", { name: league.name })),
    h("p", {}, t("league.key_once")),
    copyBlock(league.key, t("league.key_label"), { className: "league-key" }),
    h("p", {}, h("a", { href: `#league=${league.id}`, class: "link open-league" }, league.name)),
  );
}

/** Add members to a league whose key this phone holds: any player not yet in it. */
export function membersSection(league, names) {
  const status = h("div", { class: "members-status", role: "status", "aria-live": "polite" });
  const select = h("select", { id: "add-member" });
  const line = h("p", { class: "member-names" });
  const drawNames = () => replace(line, t("league.members", { names: league.members.map((id) => names[id] || `#${id}`).join(", ") || "–" }));
  drawNames();
  const section = h(
    "section",
    { class: "members", "aria-labelledby": "members-title" },
    h("h3", { id: "members-title" }, t("league.add_members")),
    line,
    fieldWithButton({
      label: t("league.add_members"),
      control: select,
      id: "add-member-button",
      text: t("league.add"),
      onclick: async () => {
        if (!select.value) return;
        try {
          const option = select.selectedOptions[0];
          const updated = await api.addMembers(league.id, [Number(option.value)]);
          names[option.value] = option.textContent;
          league.members = updated.members;
          option.remove();
          drawNames();
          replace(status, t("league.members_added", { names: names[option.value] }));
        } catch (error) {
          replace(status, problemView(error instanceof ApiError ? error : { network: true }));
        }
      },
    }),
    status,
  );
  api.listPlayers().then(
    (players) => replace(select, players.filter((p) => !league.members.includes(p.id)).map((p) => h("option", { value: p.id }, p.name))),
    (error) => replace(status, problemView(error instanceof ApiError ? error : { network: true })),
  );
  return section;
}
