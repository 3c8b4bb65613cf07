// Entities: search grouped as entities / addresses / categories; an entity's details and
// labelled addresses; categories to browse page by page.
import { describeCost, getJson } from '../lib/api.js';
import { checkSearch } from '../lib/checks.js';
import { avatar, busy, clearInvalid, clearWhenCorrected, h, part, show, showError } from '../lib/dom.js';

/**
 * @typedef {import('../../views.js').SearchView} SearchView
 * @typedef {import('../../views.js').EntityView} EntityView
 * @typedef {import('../../views.js').EntitySummaryView} EntitySummaryView
 * @typedef {import('../../views.js').CategoryView} CategoryView
 * @typedef {import('../../views.js').CategoryPageView} CategoryPageView
 * @typedef {import('../../views.js').LabelledAddressView} LabelledAddressView
 */

/** @param {HTMLElement} root */
export function setUpEntities(root) {
  const form = /** @type {HTMLFormElement} */ (part(root, 'form'));
  const result = part(root, 'result');
  const meta = part(root, 'meta');
  const query = /** @type {HTMLInputElement} */ (form.elements.namedItem('query'));
  const submit = /** @type {HTMLButtonElement | null} */ (form.querySelector('button[type="submit"]'));
  /** @type {(() => void) | undefined} */
  let back;

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void search();
  });
  clearWhenCorrected(form, () => checkSearch({ query: query.value }));

  /**
   * Shows an answer and the cost line; errors as sentences.
   * @template T
   * @param {() => Promise<import('../lib/api.js').Answer<T>>} call
   * @param {(data: T) => Node} render
   * @param {HTMLButtonElement | null} [button]
   */
  async function load(call, render, button = null) {
    clearInvalid(form);
    await busy(button, async () => {
      try {
        const answer = await call();
        show(result, render(answer.data));
        meta.textContent = describeCost(answer);
      } catch (error) {
        showError(result, error, form);
        meta.textContent = '';
      }
    });
  }

  function search() {
    const mistake = checkSearch({ query: query.value });
    if (mistake) {
      clearInvalid(form);
      showError(result, mistake, form);
      meta.textContent = '';
      return;
    }
    back = search;
    return load(
      () =>
        /** @type {Promise<import('../lib/api.js').Answer<SearchView>>} */ (
          getJson('/api/entities/search', { query: query.value })
        ),
      renderSearch,
      submit,
    );
  }

  /** @param {string} id */
  function openEntity(id) {
    const previous = back;
    return load(
      () =>
        /** @type {Promise<import('../lib/api.js').Answer<EntityView>>} */ (
          getJson('/api/entities/entity', { id })
        ),
      (entity) => renderEntity(entity, previous),
    );
  }

  /** @param {string} id @param {string} name @param {number} page */
  function openCategory(id, name, page = 0) {
    back = () => openCategory(id, name, page);
    return load(
      () =>
        /** @type {Promise<import('../lib/api.js').Answer<CategoryPageView>>} */ (
          getJson('/api/entities/category', { id, page })
        ),
      (data) => renderCategory(data, name),
    );
  }

  /** @param {SearchView} data */
  function renderSearch(data) {
    const total = data.entities.length + data.addresses.length + data.categories.length;
    if (total === 0) return h('p', { class: 'placeholder' }, `Nothing matches “${data.query}”.`);
    return h(
      'div',
      null,
      group(
        'Entities',
        data.entities.length,
        data.entities.map((entity) => h('li', null, entityLink(entity, openEntity))),
      ),
      group(
        'Addresses',
        data.addresses.length,
        data.addresses.map((address) => h('li', null, addressLine(address, openEntity))),
      ),
      group(
        'Categories',
        data.categories.length,
        data.categories.map((category) =>
          h(
            'li',
            null,
            categoryLink(category, () => void openCategory(category.id, category.name)),
          ),
        ),
      ),
    );
  }

  /** @param {EntityView} entity @param {(() => void) | undefined} previous */
  function renderEntity(entity, previous) {
    const links = [safeLink(entity.website, 'Website'), safeLink(entity.twitter, 'X / Twitter')].filter(
      Boolean,
    );
    return h(
      'div',
      { class: 'detail', 'data-entity': entity.id },
      previous ? h('button', { class: 'back', type: 'button', onclick: () => previous() }, '← Back') : null,
      h(
        'div',
        { class: 'detail-head' },
        avatar(entity.name),
        h(
          'div',
          null,
          h('h3', null, entity.name),
          entity.type ? h('span', { class: 'badge info' }, entity.type) : null,
        ),
      ),
      entity.description || entity.bio ? h('p', null, entity.description ?? entity.bio) : null,
      links.length ? h('div', { class: 'links' }, links) : null,
      group(
        'Labelled addresses',
        entity.addresses.length,
        entity.addresses.map((address) => h('li', null, addressLine(address))),
      ),
    );
  }

  /** @param {CategoryPageView} data @param {string} name */
  function renderCategory(data, name) {
    // A full page says "more" without knowing the total: the next one may come back empty.
    const list =
      data.entities.length === 0
        ? h('p', { class: 'placeholder', 'data-role': 'no-more' }, `No more entities in “${name}”.`)
        : group(
            name,
            data.entities.length,
            data.entities.map((entity) => h('li', null, entityLink(entity, openEntity))),
          );
    return h(
      'div',
      null,
      list,
      h(
        'div',
        { class: 'pager' },
        h(
          'button',
          {
            class: 'button',
            type: 'button',
            disabled: data.page === 0,
            onclick: () => void openCategory(data.categoryId, name, data.page - 1),
          },
          '← Previous',
        ),
        h('span', null, `Page ${data.page + 1}`),
        h(
          'button',
          {
            class: 'button',
            type: 'button',
            disabled: !data.more,
            onclick: () => void openCategory(data.categoryId, name, data.page + 1),
          },
          'Next →',
        ),
      ),
    );
  }

  /** Loads the category chips. */
  async function loadCategories() {
    const chips = part(root, 'categories');
    try {
      /** @type {import('../lib/api.js').Answer<CategoryView[]>} */
      const answer = await getJson('/api/entities/categories');
      show(
        chips,
        answer.data.map((category) =>
          h(
            'button',
            { class: 'chip', type: 'button', onclick: () => void openCategory(category.id, category.name) },
            category.name,
            category.totalEntities === undefined ? null : h('small', null, String(category.totalEntities)),
          ),
        ),
      );
    } catch (error) {
      showError(chips, error);
    }
  }

  void loadCategories();
}

/** @param {string} title @param {number} count @param {Node[]} items */
function group(title, count, items) {
  if (count === 0) return null;
  return h(
    'section',
    { class: 'group' },
    h('h3', null, title, h('small', null, String(count))),
    h('ul', { class: 'list' }, items),
  );
}

/** @param {EntitySummaryView} entity @param {(id: string) => unknown} open */
function entityLink(entity, open) {
  const sub = [
    entity.type,
    entity.totalAddresses === undefined ? null : `${entity.totalAddresses} addresses`,
    entity.bio,
  ]
    .filter(Boolean)
    .join(' · ');
  return h(
    'button',
    { class: 'entity-link', type: 'button', 'data-entity': entity.id, onclick: () => void open(entity.id) },
    avatar(entity.name),
    h(
      'span',
      { class: 'grow' },
      h('span', { class: 'title' }, entity.name),
      sub ? h('span', { class: 'sub' }, sub) : null,
    ),
    h('span', { class: 'badge neutral' }, 'Details →'),
  );
}

/** @param {CategoryView} category @param {() => void} open */
function categoryLink(category, open) {
  return h(
    'button',
    { class: 'entity-link', type: 'button', onclick: open },
    h(
      'span',
      { class: 'grow' },
      h('span', { class: 'title' }, category.name),
      h('span', { class: 'sub' }, `${category.totalEntities ?? '?'} entities · ${category.id}`),
    ),
    h('span', { class: 'badge neutral' }, 'Browse →'),
  );
}

/** @param {LabelledAddressView} address @param {(id: string) => unknown} [open] */
function addressLine(address, open) {
  return h(
    'div',
    { class: 'address-line' },
    address.label ? h('span', { class: 'label' }, address.label) : null,
    h('span', { class: 'mono' }, address.address),
    address.chain ? h('span', { class: 'badge neutral' }, address.chain) : null,
    address.multiChain ? h('span', { class: 'badge info' }, 'multi-chain') : null,
    address.labels.map((label) => h('span', { class: 'badge neutral' }, label)),
    address.entity && open
      ? h(
          'button',
          { class: 'chip', type: 'button', onclick: () => void open(address.entity?.id ?? '') },
          address.entity.name,
        )
      : null,
  );
}

/** A link only to an http(s) address: anything else the service sends is shown as nothing. @param {string | undefined} url @param {string} text */
function safeLink(url, text) {
  if (!url || !/^https?:\/\//i.test(url)) return null;
  return h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, text);
}
