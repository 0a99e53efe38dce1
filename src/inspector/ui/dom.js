// Building the page without HTML strings: every piece of text becomes a text node, so memory text (which
// may hold markup) is always shown, never parsed. The CSP's Trusted Types refuse innerHTML anyway.

const SVG_NS = 'http://www.w3.org/2000/svg';
const HAN = /[\u3400-\u9fff\uf900-\ufaff]/;

/**
 * @typedef {string | number | Node | null | undefined | false | ChildList} Child
 * @typedef {Array<Child>} ChildList
 * @typedef {Record<string, string | number | boolean | null | undefined | Record<string, EventListener>>} Props
 */

/** @param {Element} el @param {Props} props */
function applyProps(el, props) {
  for (const [name, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === 'on') {
      for (const [type, listener] of Object.entries(/** @type {Record<string, EventListener>} */ (value))) {
        el.addEventListener(type, listener);
      }
      continue;
    }
    // Handlers come only through `on`; links only to the page's own views.
    if (/^on/i.test(name) || name === 'style') throw new Error(`refused attribute ${name}`);
    if (name === 'href' && !String(value).startsWith('#')) throw new Error('links stay inside the page');
    if (name === 'value' && el instanceof HTMLInputElement) el.value = String(value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
}

/** @param {Node} el @param {Child[]} children */
function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/**
 * An HTML element; string children are text, never markup.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {Props} [props] @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  applyProps(el, props);
  append(el, children);
  return el;
}

/**
 * An SVG element.
 * @param {string} tag @param {Props} [props] @param {...Child} children
 * @returns {SVGElement}
 */
export function svg(tag, props = {}, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  applyProps(el, props);
  append(el, children);
  return el;
}

/** Text in its own element, marked Chinese when it holds Han characters (the right glyphs for 中文). */
/** @param {string} text @param {keyof HTMLElementTagNameMap} [tag] @param {Props} [props] */
export function content(text, tag = 'div', props = {}) {
  return h(tag, { class: 'text', ...(HAN.test(text) ? { lang: 'zh-CN' } : {}), ...props }, text);
}

/** @param {Element} el @param {...Child} children */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** An ISO time as the reader's local date and time. @param {string | number | null | undefined} at */
export function when(at) {
  if (at === null || at === undefined || at === '') return '—';
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return String(at);
  return date.toLocaleString(undefined, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** @param {number} n */
export const count = (n) => n.toLocaleString('en-US');
