// One share block for every link the page gives out (a game's spectator and
// scorer links, a league's): the link, the text to copy, Copy, Share (the
// Web Share API, where the browser has it) and a QR code drawn on the phone.
// Links are built on pageBase(): an address other phones can reach.

import { ApiError } from "./api.js";
import { h, replace, svg } from "./dom.js";
import { t } from "./i18n.js";
import { problemView } from "./words.js";
import qrcode from "./vendor/qrcode-generator-2.0.4/qrcode.mjs";

/** The page's address for links: this one, or the server's first other phones can open. */
let base = null;
let unreachable = false; // opened on a loopback address, and the server names no other
export const pageBase = () => base || `${location.origin}${location.pathname}`;

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;
export const onLoopback = () => LOOPBACK.test(location.hostname);

/** On a loopback address, links are built on the server's first network address; none, and they warn. */
export function useAddresses(addresses) {
  if (!onLoopback()) return;
  base = addresses && addresses.length ? addresses[0] : null;
  unreachable = !base;
}

/** A link as a QR code, drawn on the phone: the key it carries never leaves it. */
export function qrSvg(text, label) {
  const qr = qrcode(0, "M");
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  const quiet = 4;
  let path = "";
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) if (qr.isDark(row, col)) path += `M${col + quiet} ${row + quiet}h1v1h-1z`;
  }
  const size = n + 2 * quiet;
  return svg(
    "svg",
    { viewBox: `0 0 ${size} ${size}`, role: "img", "aria-label": label, class: "qr-code", "shape-rendering": "crispEdges" },
    svg("rect", { width: size, height: size, fill: "#fff" }),
    svg("path", { d: path, fill: "#000" }),
  );
}

/** Put `text` on the clipboard: the Clipboard API, else the selected field's copy; true when done. */
async function copyText(text, field) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // refused (no permission): the field's own copy below
  }
  field.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  }
}

/** Said once above a screen's links when other phones cannot open them, else null. */
export const unreachableNote = () => (unreachable ? h("p", { class: "hint loopback-only" }, t("share.loopback_only")) : null);

/** The field to copy from, and Copy (and Share, where there is one), saying what was done. */
export function copyBlock(value, label, { share = null, className = "" } = {}) {
  const field = h("input", { type: "text", class: `copy ${className}`.trim(), readonly: true, value, "aria-label": label });
  const said = h("p", { class: "share-said", role: "status", "aria-live": "polite" });
  const buttons = [
    h("button", {
      type: "button",
      class: "secondary copy-button",
      onclick: async () => replace(said, t((await copyText(value, field)) ? "share.copied" : "share.copy_failed")),
    }, t("share.copy")),
  ];
  if (share && typeof navigator.share === "function") {
    buttons.push(
      h("button", {
        type: "button",
        class: "secondary share-button",
        onclick: async () => {
          try {
            await navigator.share(share);
          } catch {
            // dismissed: nothing to say
          }
        },
      }, t("share.share")),
    );
  }
  return [field, h("div", { class: "buttons share-actions" }, buttons), said];
}

/**
 * A link to give out: {href, text (the link's words, else the address), className
 * (on the link), label (of the field), title (for the share sheet), qr: {summary,
 * label, className}}.
 */
export function shareLink({ href, text = null, className = "", label, title = document.title, qr = null }) {
  return h(
    "div",
    { class: "share-link" },
    h("p", {}, h("a", { href, class: `link ${className}`.trim() }, text || href)),
    copyBlock(href, label, { share: { title, url: href } }),
    qr ? h("details", { class: `qr ${qr.className || ""}`.trim() }, h("summary", {}, qr.summary), qrSvg(href, qr.label)) : null,
  );
}

/**
 * A button that asks the server for a link's key once (issue()), then draws
 * the block again (then()); a refusal is shown by failed(view).
 */
export const issueButton = (id, words, issue, failed, then) =>
  h("p", {}, h("button", {
    type: "button",
    class: "secondary",
    id,
    onclick: async (event) => {
      event.currentTarget.disabled = true;
      try {
        await issue(); // issued once, then kept on this phone
      } catch (error) {
        failed(problemView(error instanceof ApiError ? error : { network: true }));
      }
      then();
    },
  }, words));
