// A small element builder: text is always set as text, never parsed as HTML.

const SVG_NS = "http://www.w3.org/2000/svg";

function build(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "class") node.setAttribute("class", value);
    else if (name in node && typeof value !== "string" && !(node instanceof SVGElement)) node[name] = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** h("button", {onclick}, "text", child, [more]) */
export const h = (tag, attrs = {}, ...children) => build(document.createElement(tag), attrs, children);
export const svg = (tag, attrs = {}, ...children) => build(document.createElementNS(SVG_NS, tag), attrs, children);

export function replace(node, ...children) {
  node.replaceChildren();
  build(node, {}, children);
  return node;
}

/** A labelled control with its button beside it: {className, label, control (with an id), id, text, onclick} of the button. */
export const fieldWithButton = ({ className = "field", label, control, id, text, onclick }) =>
  h("div", { class: className }, h("label", { for: control.id }, label), h("div", { class: "row" }, control, h("button", { type: "button", class: "secondary", id, onclick }, text)));
