// The words of the web app, a file for each language (strings-en.js, strings-el.js). Every string
// shown to players comes from there, or, for the reasons the server gives, from the library's table
// of their Greek words (reasons.js). Both languages have the same keys, one style: camelCase
// (yourMove); a key made at run time from a code is its family's key, a hyphen and the code as the
// server or the page spells it (error-not-your-turn, game-portes, levelDesc-expert).
// tests/test_web_strings.py holds them to it.

import { REASONS_EL } from "./reasons.js";
import { WORDS as EL } from "./strings-el.js";
import { WORDS as EN } from "./strings-en.js";

const REASONS = { el: REASONS_EL };

export const STRINGS = { en: EN, el: EL };

export function language() {
  const saved = localStorage.getItem("tavli:lang");
  if (saved && STRINGS[saved]) return saved;
  return (navigator.language || "en").toLowerCase().startsWith("el") ? "el" : "en";
}

export function setLanguage(lang) {
  localStorage.setItem("tavli:lang", lang);
  document.documentElement.lang = lang;
}

/** `x` with `digits` decimals as the chosen language writes it: 0.125 in English, 0,125 in Greek. */
export function num(x, digits) {
  const text = Number(x).toFixed(digits);
  return language() === "el" ? text.replace(".", ",") : text;
}

/** The string `key` in the chosen language, with `{name}` filled in from `vars` (a reason the
 * server sent, in the same language). */
export function t(key, vars = {}) {
  const table = STRINGS[language()];
  return fill(table[key] ?? STRINGS.en[key] ?? key, vars);
}

function fill(text, vars) {
  return text.replace(/\{(\w+)\}/g, (_, name) => {
    const value = vars?.[name];
    return typeof value === "object" && value !== null ? reasonWords(value) : String(value ?? "");
  });
}

/** A reason the server sent (`{text, template, params}`) in the chosen language: the words kept
 * for its English template with its values filled in, or else its English words. */
export function reasonWords(reason) {
  return sayable(reason) ?? String(reason?.text ?? reason ?? "");
}

/** A reason's words in the chosen language, or null where that language has none for it. */
export function sayable(reason) {
  if (typeof reason !== "object" || reason === null) return null;
  const lang = language();
  if (lang === "en") return reason.text ?? null;
  const table = REASONS[lang] ?? {};
  return Object.hasOwn(table, reason.template) ? fill(table[reason.template], reason.params) : null;
}

/** Fill every element with data-i18n="key" with its string. */
export function translatePage(root = document) {
  document.documentElement.lang = language();
  document.title = t("title");
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.dataset.i18n, el.dataset.i18nVars ? JSON.parse(el.dataset.i18nVars) : {});
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  // the accessible names too: a screen reader hears the page's language, not English beneath it
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
}

/** Show string `key` with `vars` in `el`, and again in the other language when it is switched;
 * no key empties it. */
export function say(el, key = null, vars = {}) {
  if (key === null) {
    delete el.dataset.i18n;
    delete el.dataset.i18nVars;
    el.textContent = "";
    return;
  }
  el.dataset.i18n = key;
  el.dataset.i18nVars = JSON.stringify(vars);
  el.textContent = t(key, vars);
}

/** A language switch in `select`. */
export function languageSwitch(select, onChange) {
  select.innerHTML = '<option value="en">English</option><option value="el">Ελληνικά</option>';
  select.value = language();
  select.addEventListener("change", () => { setLanguage(select.value); translatePage(); onChange?.(); });
}
