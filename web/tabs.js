// Sections of a screen, one shown at a time, behind a bar of tabs (the WAI-ARIA
// tabs pattern: arrows, Home and End move between tabs and show each at once).
// The bar sticks to the top of the screen, so any section is one tap away
// from anywhere in another.

import { h } from "./dom.js";

/**
 * tabs("game", label, ["scores", "hands", "share"]) -> { bar, panels, select, selected, label }
 * `panels[name]` are the sections to fill; `label(name, text)` names a tab.
 */
export function tabs(prefix, label, names, { changed = () => {} } = {}) {
  let current = names[0];
  const buttons = {};
  const panels = {};
  for (const name of names) {
    buttons[name] = h("button", {
      type: "button",
      role: "tab",
      id: `${prefix}-tab-${name}`,
      "aria-controls": `${prefix}-panel-${name}`,
      "data-tab": name,
      onclick: () => select(name),
    });
    panels[name] = h("div", {
      role: "tabpanel",
      id: `${prefix}-panel-${name}`,
      "aria-labelledby": `${prefix}-tab-${name}`,
      "data-panel": name,
      class: "tab-panel",
    });
  }
  const bar = h(
    "div",
    { role: "tablist", class: "tabs", "aria-label": label, onkeydown: onKey },
    names.map((name) => buttons[name]),
  );
  const wrap = h("div", { class: "tabbed" }, bar, names.map((name) => panels[name]));

  function show() {
    for (const name of names) {
      const on = name === current;
      buttons[name].setAttribute("aria-selected", on ? "true" : "false");
      buttons[name].tabIndex = on ? 0 : -1;
      panels[name].hidden = !on;
    }
  }

  /** Show section `name`; the bar comes back to the top of the screen if it was scrolled past. */
  function select(name, { focus = false } = {}) {
    if (!panels[name]) return;
    const changedTab = name !== current;
    current = name;
    show();
    if (focus) buttons[name].focus();
    const top = wrap.getBoundingClientRect().top + window.scrollY;
    if (window.scrollY > top) window.scrollTo(0, top); // the section from its start, not from where the last one was left
    if (changedTab) changed(name);
  }

  function onKey(event) {
    const i = names.indexOf(current);
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: names.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    select(names[(to + names.length) % names.length], { focus: true });
  }

  show();
  return {
    element: wrap,
    panels,
    select,
    selected: () => current,
    label: (name, ...children) => buttons[name].replaceChildren(...children),
  };
}
