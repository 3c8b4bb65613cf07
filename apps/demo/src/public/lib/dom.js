// A tiny DOM builder and the page's number formats. Text always goes in as text, never as HTML.

/**
 * @typedef {Node | string | number | null | undefined | false} Child
 * @typedef {Record<string, string | number | boolean | undefined | ((event: Event) => void)>} Attributes
 */

/**
 * Builds an element: `h('a', { href, onclick }, 'text', child)`. `on…` attributes are listeners,
 * `true` sets a boolean attribute, `false`/`undefined` leave it out.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attributes | null} [attributes]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== undefined) element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

/**
 * @param {Element} element
 * @param {(Child | Child[])[]} children
 */
function append(element, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'number' ? String(child) : child);
  }
}

/**
 * Replaces an element's content.
 * @param {Element} element
 * @param {...(Child | Child[])} children
 */
export function show(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

/**
 * The element of a panel marked `data-role="…"`.
 * @template {HTMLElement} [E=HTMLElement]
 * @param {ParentNode} root
 * @param {string} role
 * @returns {E}
 */
export function part(root, role) {
  const element = root.querySelector(`[data-role="${role}"]`);
  if (!element) throw new Error(`missing [data-role="${role}"]`);
  return /** @type {E} */ (element);
}

/**
 * An error sentence, and the input at fault marked (and focused).
 * @param {Element} target
 * @param {unknown} error an Error, or a mistake the page found itself ({ message, field })
 * @param {HTMLFormElement} [form]
 */
export function showError(target, error, form) {
  const message =
    typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : String(error);
  const id = `error-${++errorCount}`;
  show(target, h('p', { class: 'error', role: 'alert', id }, message));
  const field = /** @type {{ field?: string }} */ (error).field;
  const input = field && form ? form.elements.namedItem(field) : null;
  if (input instanceof HTMLElement) {
    input.setAttribute('aria-invalid', 'true');
    // A screen reader reads the sentence with the field, also when the field is focused again later.
    input.setAttribute('aria-describedby', id);
    input.focus();
  }
}

let errorCount = 0;

/** @param {HTMLFormElement} form */
export function clearInvalid(form) {
  for (const element of form.querySelectorAll('[aria-invalid]')) clearField(element);
}

/** A field no longer marked wrong, and the sentence about it gone. @param {Element} field */
function clearField(field) {
  const described = field.getAttribute('aria-describedby');
  field.removeAttribute('aria-invalid');
  field.removeAttribute('aria-describedby');
  if (described) document.getElementById(described)?.remove();
}

/**
 * Unmarks a field as soon as it is corrected, not when the form is sent again: on each edit of a
 * field marked wrong, `check` (the form's own input check) says whether that field is still at fault.
 * @param {HTMLFormElement} form
 * @param {() => { field?: string } | undefined} check
 */
export function clearWhenCorrected(form, check) {
  form.addEventListener('input', (event) => {
    const field = event.target;
    if (!(field instanceof Element) || field.getAttribute('aria-invalid') !== 'true') return;
    if (check()?.field === field.getAttribute('name')) return;
    clearField(field);
  });
}

/**
 * Runs `work` with the button marked busy (and disabled) meanwhile.
 * @template T
 * @param {HTMLButtonElement | null} button
 * @param {() => Promise<T>} work
 * @returns {Promise<T>}
 */
export async function busy(button, work) {
  if (button) {
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
  }
  try {
    return await work();
  } finally {
    if (button) {
      button.disabled = false;
      button.removeAttribute('aria-busy');
    }
  }
}

/** @param {number} value */
export function usd(value) {
  const digits = value >= 1000 ? 2 : value >= 1 ? 4 : value >= 0.01 ? 5 : 8;
  return `$${value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: value >= 1 ? 2 : 0 })}`;
}

/** "$199.9M", "$12.3K". @param {number} value */
export function compactUsd(value) {
  return `$${value.toLocaleString('en-US', { notation: 'compact', maximumFractionDigits: 1 })}`;
}

/** @param {number | undefined} value */
export function percent(value) {
  if (value === undefined) return '—';
  const sign = value > 0 ? '+' : value < 0 ? '−' : '';
  return `${sign}${Math.abs(value).toFixed(2)}%`;
}

/** "up", "down" or "flat", for colouring a change. @param {number | undefined} value */
export function trend(value) {
  if (value === undefined || Math.abs(value) < 0.005) return 'flat';
  return value > 0 ? 'up' : 'down';
}

/** "0x28c6…1d60". @param {string} text @param {number} [keep] */
export function shorten(text, keep = 6) {
  return text.length <= keep * 2 + 1 ? text : `${text.slice(0, keep)}…${text.slice(-4)}`;
}

/** @param {string | number} value */
export function grouped(value) {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
}

/** "12 s ago", "3 min ago". @param {number} at milliseconds since the epoch */
export function ago(at) {
  const seconds = Math.max(0, Math.round((Date.now() - at) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return new Date(at).toLocaleDateString();
}

/**
 * A round badge with a token's or entity's initials, coloured from its name (no image is loaded
 * from the service: the page works offline and leaks nothing).
 * @param {string} name
 */
export function avatar(name) {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  const hue = hash % 360;
  const initials =
    name
      .replace(/[^\p{L}\p{N}]/gu, '')
      .slice(0, 3)
      .toUpperCase() || '?';
  const badge = h('span', { class: 'avatar', 'aria-hidden': 'true' }, initials);
  // Through the CSSOM: the page's content security policy refuses inline style attributes.
  badge.style.background = `linear-gradient(135deg, hsl(${hue} 65% 52%), hsl(${(hue + 40) % 360} 70% 45%))`;
  return badge;
}
