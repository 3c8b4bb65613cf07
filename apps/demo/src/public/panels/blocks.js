// Blocks: one EVM block with its transactions and receipts, through @blockwire/rpc.
import { describeCost, getJson, postJson } from '../lib/api.js';
import { checkBlockNumber } from '../lib/checks.js';
import {
  busy,
  clearInvalid,
  clearWhenCorrected,
  grouped,
  h,
  part,
  shorten,
  show,
  showError,
} from '../lib/dom.js';

/**
 * @typedef {import('../../views.js').InfoView} InfoView
 * @typedef {import('../../views.js').BlockView} BlockView
 */

/** @param {HTMLElement} root @param {InfoView} info */
export function setUpBlocks(root, info) {
  const form = /** @type {HTMLFormElement} */ (part(root, 'form'));
  const result = part(root, 'result');
  const meta = part(root, 'meta');
  const chain = /** @type {HTMLSelectElement} */ (part(root, 'chain'));
  const number = /** @type {HTMLInputElement} */ (form.elements.namedItem('number'));
  const submit = /** @type {HTMLButtonElement | null} */ (form.querySelector('button[type="submit"]'));
  const older = /** @type {HTMLButtonElement} */ (part(root, 'older'));
  const newer = /** @type {HTMLButtonElement} */ (part(root, 'newer'));
  const send = /** @type {HTMLButtonElement} */ (part(root, 'send'));
  /** @type {BlockView | undefined} */
  let shown;

  chain.replaceChildren(...info.nodeChains.map((name) => h('option', { value: name }, name)));
  chain.value = 'eth';
  send.hidden = !info.evmSimulator;
  if (info.nodeChainsNote)
    form.after(h('p', { class: 'notice', 'data-role': 'chains-note' }, info.nodeChainsNote));

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void load(number.value, submit);
  });
  clearWhenCorrected(form, () => checkBlockNumber({ number: number.value }));
  older.addEventListener('click', () => {
    if (shown && shown.number > 0) void load(String(shown.number - 1), older);
  });
  newer.addEventListener('click', () => {
    if (shown) void load(String(shown.number + 1), newer);
  });
  send.addEventListener('click', () =>
    busy(send, async () => {
      try {
        /** @type {import('../lib/api.js').Answer<{ hash: string; blockNumber: number }>} */
        await postJson('/api/blocks/send-test-transaction', {});
        await load('', null);
      } catch (error) {
        showError(result, error, form);
      }
    }),
  );

  /** @param {string} which @param {HTMLButtonElement | null} button */
  async function load(which, button) {
    clearInvalid(form);
    const mistake = checkBlockNumber({ number: which });
    if (mistake) {
      showError(result, mistake, form);
      meta.textContent = '';
      return;
    }
    await busy(button, async () => {
      try {
        /** @type {import('../lib/api.js').Answer<BlockView>} */
        const answer = await getJson('/api/blocks/block', { chain: chain.value, number: which });
        shown = answer.data;
        number.value = which === '' ? '' : String(shown.number);
        show(result, renderBlock(shown));
        meta.textContent = `${describeCost(answer)}${answer.requests === 1 ? ' · block, receipts and head: 3 JSON-RPC calls in one batch' : ''}`;
      } catch (error) {
        showError(result, error, form);
        meta.textContent = '';
      }
      older.disabled = !shown || shown.number === 0;
      newer.disabled = !shown || shown.number >= shown.latest;
    });
  }

  void load('', null);
}

/** @param {BlockView} block */
function renderBlock(block) {
  return h(
    'div',
    null,
    h(
      'dl',
      { class: 'facts block-head' },
      fact('Block', `#${grouped(block.number)}${block.number === block.latest ? ' (latest)' : ''}`),
      fact('Transactions', String(block.transactions.length)),
      fact('Gas used', `${grouped(block.gasUsed)} / ${grouped(block.gasLimit)}`),
      fact('Base fee', block.baseFeeGwei ? `${block.baseFeeGwei} gwei` : '—'),
      fact('Time', new Date(block.timestamp * 1000).toISOString().replace('T', ' ').slice(0, 19)),
      fact('Hash', h('span', { class: 'mono', title: block.hash }, shorten(block.hash, 10))),
    ),
    block.transactions.length === 0
      ? h('p', { class: 'placeholder' }, 'No transactions in this block.')
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
                h('th', null, 'Transaction'),
                h('th', null, 'From → To'),
                h('th', { class: 'num' }, 'Value (ETH)'),
                h('th', null, 'Receipt'),
                h('th', { class: 'num' }, 'Gas'),
                h('th', { class: 'num' }, 'Logs'),
              ),
            ),
            h(
              'tbody',
              null,
              block.transactions.map((tx) =>
                h(
                  'tr',
                  null,
                  h('td', { class: 'mono', title: tx.hash }, shorten(tx.hash, 8)),
                  h(
                    'td',
                    { class: 'mono' },
                    shorten(tx.from),
                    ' → ',
                    tx.to
                      ? shorten(tx.to)
                      : tx.contractCreated
                        ? `new ${shorten(tx.contractCreated)}`
                        : 'contract creation',
                  ),
                  h('td', { class: 'num' }, tx.valueEth),
                  h(
                    'td',
                    null,
                    h(
                      'span',
                      {
                        class:
                          tx.status === 'success'
                            ? 'status-ok'
                            : tx.status === 'failed'
                              ? 'status-failed'
                              : '',
                      },
                      tx.status,
                    ),
                  ),
                  h('td', { class: 'num' }, tx.gasUsed === undefined ? '—' : grouped(tx.gasUsed)),
                  h('td', { class: 'num' }, tx.logs === undefined ? '—' : String(tx.logs)),
                ),
              ),
            ),
          ),
        ),
  );
}

/** @param {string} term @param {Node | string} value */
function fact(term, value) {
  return h('div', null, h('dt', null, term), h('dd', null, value));
}
