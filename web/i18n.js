// Every string the page shows comes from one catalog per language (web/i18n/*.json).

import { store } from "./api.js";

export const LANGUAGES = { en: "English", ko: "한국어", vi: "Tiếng Việt", sk: "Slovenčina", mn: "Монгол" };

let catalog = {};
let english = {};
let current = "en";

export function chooseLanguage() {
  const saved = store.get("lang");
  if (saved && LANGUAGES[saved]) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES[base]) return base;
  }
  return "en";
}

async function fetchCatalog(lang) {
  const response = await fetch(`/web/i18n/${lang}.json`, { cache: "no-cache" });
  if (!response.ok) throw new Error(`no catalog ${lang}`);
  return response.json();
}

export async function setLanguage(lang) {
  if (!english.app) english = await fetchCatalog("en");
  catalog = lang === "en" ? english : await fetchCatalog(lang);
  current = lang;
  document.documentElement.lang = lang;
}

export const language = () => current;

/** The string for `key`, with `{name}` filled from `values`. A missing key shows as [key]. */
export function t(key, values = {}) {
  let text = catalog[key];
  if (text === undefined) text = english[key];
  if (text === undefined) return `[${key}]`;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

export const has = (key) => key in catalog || key in english;
