// Solana prices: paste many addresses, get a table (the SDK splits them into calls of 100).
import { describeCost, postJson } from '../lib/api.js';
import { checkSolanaPrices } from '../lib/checks.js';
import {
  busy,
  clearInvalid,
  clearWhenCorrected,
  h,
  part,
  percent,
  shorten,
  show,
  showError,
  trend,
  usd,
} from '../lib/dom.js';

/**
 * @typedef {import('../../views.js').InfoView} InfoView
 * @typedef {import('../../views.js').SolanaPricesView} SolanaPricesView
 */

/** @param {HTMLElement} root @param {InfoView} info */
export function setUpSolana(root, info) {
  const form = /** @type {HTMLFormElement} */ (part(root, 'form'));
  const result = part(root, 'result');
  const meta = part(root, 'meta');
  const addresses = /** @type {HTMLTextAreaElement} */ (form.elements.namedItem('addresses'));
  const network = /** @type {HTMLSelectElement} */ (form.elements.namedItem('network'));
  const submit = /** @type {HTMLButtonElement | null} */ (form.querySelector('button[type="submit"]'));

  part(root, 'examples').addEventListener('click', () => {
    addresses.value = info.examples.solana.map((example) => example.address).join('\n');
    void lookUp();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void lookUp();
  });

  const asked = () => ({ addresses: addresses.value, network: network.value });
  clearWhenCorrected(form, () => checkSolanaPrices(asked()));

  async function lookUp() {
    clearInvalid(form);
    const mistake = checkSolanaPrices(asked());
    if (mistake) {
      showError(result, mistake, form);
      meta.textContent = '';
      return;
    }
    await busy(submit, async () => {
      try {
        /** @type {import('../lib/api.js').Answer<SolanaPricesView>} */
        const answer = await postJson('/api/prices/solana', asked());
        show(result, renderTable(answer.data));
        meta.textContent = describeCost(answer);
      } catch (error) {
        showError(result, error, form);
        meta.textContent = '';
      }
    });
  }
}

/** @param {SolanaPricesView} data */
function renderTable(data) {
  const summary = `${data.prices.length} of ${data.asked} priced on ${data.network}${
    data.missing.length ? ` · no price for ${data.missing.map((a) => shorten(a)).join(', ')}` : ''
  }`;
  return h(
    'div',
    null,
    h('p', { class: 'placeholder' }, summary),
    data.prices.length === 0
      ? null
      : h(
          'div',
          { class: 'table-wrap' },
          h(
            'table',
            null,
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                h('th', null, 'Token'),
                h('th', { class: 'num' }, 'USD'),
                h('th', { class: 'num' }, '24h'),
                h('th', null, 'Exchange'),
                h('th', { class: 'num' }, 'Score'),
              ),
            ),
            h(
              'tbody',
              null,
              data.prices.map((price) =>
                h(
                  'tr',
                  null,
                  h(
                    'td',
                    null,
                    h('strong', null, price.symbol ?? '?'),
                    ' ',
                    h(
                      'span',
                      { class: 'mono token-sub', title: price.tokenAddress },
                      shorten(price.tokenAddress),
                    ),
                  ),
                  h('td', { class: 'num' }, price.usdPrice === undefined ? '—' : usd(price.usdPrice)),
                  h(
                    'td',
                    { class: 'num' },
                    h(
                      'span',
                      { class: `change ${trend(price.change24hPercent)}` },
                      percent(price.change24hPercent),
                    ),
                  ),
                  h('td', null, price.exchangeName ?? '—'),
                  h('td', { class: 'num' }, price.score === undefined ? '—' : String(price.score)),
                ),
              ),
            ),
          ),
        ),
  );
}
