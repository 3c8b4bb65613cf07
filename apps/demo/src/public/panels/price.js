// Token price: chain + address (+ block), examples one click away.
import { describeCost, getJson } from '../lib/api.js';
import { checkEvmPrice } from '../lib/checks.js';
import {
  avatar,
  busy,
  clearInvalid,
  clearWhenCorrected,
  compactUsd,
  grouped,
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
 * @typedef {import('../../views.js').PriceView} PriceView
 */

/** @param {HTMLElement} root @param {InfoView} info */
export function setUpPrice(root, info) {
  const form = part(root, 'form');
  const result = part(root, 'result');
  const meta = part(root, 'meta');
  const chain = /** @type {HTMLSelectElement} */ (part(root, 'chain'));
  const inputs = /** @type {HTMLFormElement} */ (form).elements;
  const address = /** @type {HTMLInputElement} */ (inputs.namedItem('address'));
  const toBlock = /** @type {HTMLInputElement} */ (inputs.namedItem('toBlock'));
  const submit = form.querySelector('button[type="submit"]');

  chain.replaceChildren(...info.chains.map((c) => h('option', { value: c.name }, `${c.name} (${c.hexId})`)));
  chain.value = 'eth';

  show(
    part(root, 'examples'),
    info.examples.evm.map((example) =>
      h(
        'button',
        {
          class: 'chip',
          type: 'button',
          // The visible "USDC" and "eth" sit in two boxes without a space: read out "USDCeth".
          'aria-label': `${example.label} on ${example.chain}`,
          onclick: () => {
            chain.value = example.chain;
            address.value = example.address;
            toBlock.value = '';
            void lookUp();
          },
        },
        example.label,
        h('small', null, example.chain),
      ),
    ),
  );

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void lookUp();
  });
  const asked = () => ({ chain: chain.value, address: address.value, toBlock: toBlock.value });
  clearWhenCorrected(/** @type {HTMLFormElement} */ (form), () => checkEvmPrice(asked()));

  async function lookUp() {
    clearInvalid(/** @type {HTMLFormElement} */ (form));
    const mistake = checkEvmPrice(asked());
    if (mistake) {
      showError(result, mistake, /** @type {HTMLFormElement} */ (form));
      meta.textContent = '';
      return;
    }
    await busy(/** @type {HTMLButtonElement | null} */ (submit), async () => {
      try {
        /** @type {import('../lib/api.js').Answer<PriceView>} */
        const answer = await getJson('/api/prices/evm', asked());
        show(result, renderPrice(answer.data));
        meta.textContent = describeCost(answer);
      } catch (error) {
        showError(result, error, /** @type {HTMLFormElement} */ (form));
        meta.textContent = '';
      }
    });
  }
}

/** @param {PriceView} price */
export function renderPrice(price) {
  const label = price.symbol ?? shorten(price.tokenAddress);
  const direction = trend(price.change24hPercent);
  return h(
    'div',
    { class: 'price-card', 'data-symbol': price.symbol ?? '' },
    h(
      'div',
      { class: 'token' },
      avatar(label),
      h(
        'div',
        null,
        h(
          'div',
          { class: 'token-name' },
          price.name ?? label,
          price.symbol && price.name ? h('span', { class: 'token-sub' }, `  ${price.symbol}`) : null,
        ),
        h('div', { class: 'token-sub mono' }, `${price.chain.name} · ${shorten(price.tokenAddress, 8)}`),
      ),
    ),
    h(
      'div',
      { class: 'price-line' },
      h('span', { class: 'price', 'data-role': 'usd' }, usd(price.usdPrice)),
      h(
        'span',
        { class: `change ${direction}`, title: 'Change over 24 hours' },
        `${percent(price.change24hPercent)} 24h`,
      ),
      h(
        'span',
        { class: 'badges' },
        price.verifiedContract
          ? h('span', { class: 'badge good' }, '✓ Verified contract')
          : h('span', { class: 'badge neutral' }, 'Unverified contract'),
        price.possibleSpam
          ? h('span', { class: 'badge bad' }, '⚠ Possible spam')
          : h('span', { class: 'badge good' }, 'Not spam'),
      ),
    ),
    h(
      'dl',
      { class: 'facts' },
      fact('Pair liquidity', price.pairLiquidityUsd === undefined ? '—' : compactUsd(price.pairLiquidityUsd)),
      fact('Exchange', price.exchangeName ?? (price.exchangeAddress ? shorten(price.exchangeAddress) : '—')),
      fact('Security score', price.securityScore === undefined ? '—' : scoreMeter(price.securityScore)),
      fact('Block', price.block ? grouped(price.block) : 'latest'),
      price.nativePrice ? fact(`In ${price.nativePrice.symbol}`, nativeAmount(price.nativePrice)) : null,
    ),
  );
}

/** @param {string} term @param {Node | string} value */
function fact(term, value) {
  return h('div', null, h('dt', null, term), h('dd', null, value));
}

/** @param {number} score */
function scoreMeter(score) {
  const fill = h('span');
  fill.style.width = `${Math.max(0, Math.min(100, score))}%`;
  fill.style.background = score >= 70 ? 'var(--up)' : score >= 40 ? 'var(--warn)' : 'var(--down)';
  return h('span', { class: 'score' }, h('span', null, `${score}/100`), h('span', { class: 'meter' }, fill));
}

/** @param {{ value: string, decimals: number, symbol: string }} native */
function nativeAmount(native) {
  const value = Number(native.value) / 10 ** native.decimals;
  return `${value.toPrecision(4)} ${native.symbol}`;
}
