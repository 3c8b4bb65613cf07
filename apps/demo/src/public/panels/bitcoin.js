// The live Bitcoin board: rows pushed by server-sent events as the stream's webhooks arrive,
// and the simulator's buttons (emulator only).
import { postJson } from '../lib/api.js';
import { checkSend, checkWatch, sameBitcoinAddress } from '../lib/checks.js';
import {
  ago,
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
 * @typedef {import('../../views.js').BoardRow} BoardRow
 * @typedef {import('../../views.js').BitcoinStatusView} BitcoinStatusView
 * @typedef {import('../../views.js').BoardEvents} BoardEvents
 * @typedef {import('../../views.js').WatchView} WatchView
 */

const STAGES = /** @type {const} */ ([
  ['mempool', 'mempool'],
  ['in-block', 'in block'],
  ['confirmed', 'confirmed'],
]);

/** @param {HTMLElement} root @param {BitcoinStatusView} initial */
export function setUpBitcoin(root, initial) {
  const statusBar = part(root, 'status');
  const live = part(root, 'live');
  const simulator = /** @type {HTMLFormElement} */ (part(root, 'simulator'));
  const watchForm = /** @type {HTMLFormElement} */ (part(root, 'watch'));
  const watched = /** @type {HTMLSelectElement} */ (part(root, 'watched'));
  const amount = /** @type {HTMLInputElement} */ (simulator.elements.namedItem('amountBtc'));
  const sendButton = /** @type {HTMLButtonElement} */ (part(root, 'send'));
  const mineButton = /** @type {HTMLButtonElement} */ (part(root, 'mine'));
  const allAddresses = /** @type {HTMLInputElement} */ (part(root, 'all-addresses'));
  const message = part(root, 'message');
  const tbody = part(root, 'rows');
  const empty = part(root, 'empty');
  /** @type {Map<string, BoardRow>} */
  const rows = new Map();
  /** @type {Set<string>} txids that just changed, flashed once */
  const fresh = new Set();
  let status = initial;
  /** How many rows the board keeps (the server's number). */
  let size = Number.POSITIVE_INFINITY;

  renderStatus();

  const payment = () => ({ to: watched.value, amountBtc: amount.value.trim() });
  const watchInput = /** @type {HTMLInputElement} */ (watchForm.elements.namedItem('address'));
  clearWhenCorrected(simulator, () => checkSend(payment()));
  clearWhenCorrected(watchForm, () => checkWatch({ address: watchInput.value }));

  simulator.addEventListener('submit', (event) => {
    event.preventDefault();
    clearInvalid(simulator);
    const mistake = checkSend(payment());
    if (mistake) {
      showError(message, mistake, simulator);
      message.className = 'message';
      return;
    }
    void busy(sendButton, async () => {
      try {
        /** @type {import('../lib/api.js').Answer<{ txid: string }>} */
        const { data } = await postJson('/api/bitcoin/send', payment());
        say(
          'ok',
          `Sent ${amount.value.trim()} BTC to ${shorten(watched.value, 8)}: `,
          h(
            'span',
            { class: 'mono', 'data-role': 'sent-txid', 'data-txid': data.txid },
            shorten(data.txid, 10),
          ),
          ' is in the mempool. Mine blocks to confirm it.',
        );
      } catch (error) {
        showError(message, error, simulator);
        message.className = 'message';
      }
    });
  });

  mineButton.addEventListener('click', () =>
    busy(mineButton, async () => {
      try {
        /** @type {import('../lib/api.js').Answer<{ height: number }>} */
        const { data } = await postJson('/api/bitcoin/mine', { blocks: 1 });
        say('ok', `Mined block ${grouped(data.height)}.`);
      } catch (error) {
        showError(message, error);
        message.className = 'message';
      }
    }),
  );

  watchForm.addEventListener('submit', (event) => {
    event.preventDefault();
    clearInvalid(watchForm);
    const input = watchInput;
    const address = input.value.trim();
    const mistake = checkWatch({ address: input.value });
    if (mistake) {
      showError(message, mistake, watchForm);
      message.className = 'message';
      return;
    }
    if (status.watched.some((known) => sameBitcoinAddress(known, address))) {
      say('ok', `Already watching ${address}.`);
      input.value = '';
      return;
    }
    void busy(
      /** @type {HTMLButtonElement | null} */ (watchForm.querySelector('button[type="submit"]')),
      async () => {
        try {
          /** @type {import('../lib/api.js').Answer<WatchView>} */
          const { data } = await postJson('/api/bitcoin/watch', { address });
          setStatus(data);
          say('ok', `${data.added ? 'Now watching' : 'Already watching'} ${address}.`);
          input.value = '';
        } catch (error) {
          showError(message, error, watchForm);
          message.className = 'message';
        }
      },
    );
  });

  allAddresses.addEventListener('change', () => {
    const enabled = allAddresses.checked;
    void busy(null, async () => {
      try {
        /** @type {import('../lib/api.js').Answer<BitcoinStatusView>} */
        const { data } = await postJson('/api/bitcoin/all-addresses', { enabled });
        setStatus(data);
        say(
          'ok',
          enabled
            ? 'The stream now delivers every transaction, coinbases included.'
            : 'The stream delivers the watched addresses only.',
        );
      } catch (error) {
        allAddresses.checked = !enabled;
        showError(message, error);
        message.className = 'message';
      }
    });
  });

  if (status.enabled) connect();
  setInterval(renderRows, 10_000);

  function connect() {
    const events = new EventSource('/api/bitcoin/events');
    events.addEventListener('open', () => setLive('live', 'live'));
    events.addEventListener('error', () => setLive('reconnecting', 'reconnecting…'));
    events.addEventListener('board', (event) => {
      /** @type {BoardEvents['board']} */
      const board = JSON.parse(/** @type {MessageEvent} */ (event).data);
      size = board.size;
      rows.clear();
      for (const row of board.rows) rows.set(row.txid, row);
      setStatus(board.status);
      renderRows();
    });
    events.addEventListener('tx', (event) => {
      /** @type {BoardRow} */
      const row = JSON.parse(/** @type {MessageEvent} */ (event).data);
      rows.set(row.txid, row);
      fresh.add(row.txid);
      renderRows();
    });
    events.addEventListener('status', (event) =>
      setStatus(JSON.parse(/** @type {MessageEvent} */ (event).data)),
    );
  }

  /** @param {string} state @param {string} text */
  function setLive(state, text) {
    live.dataset.state = state;
    live.textContent = text;
  }

  /** @param {BitcoinStatusView} next */
  function setStatus(next) {
    status = next;
    renderStatus();
  }

  /** @param {'ok' | 'error'} kind @param {...(Node | string)} content */
  function say(kind, ...content) {
    message.className = `message ${kind}`;
    show(message, ...content);
  }

  function renderStatus() {
    simulator.hidden = !(status.enabled && status.simulator);
    watchForm.hidden = !status.enabled;
    allAddresses.checked = status.allAddresses;
    if (!status.enabled) {
      setLive('off', 'off');
      show(statusBar, h('p', { class: 'notice' }, status.reason ?? 'The live board is off.'));
      return;
    }
    const chosen = watched.value;
    watched.replaceChildren(...status.watched.map((address) => h('option', { value: address }, address)));
    if (status.watched.includes(chosen)) watched.value = chosen;
    show(
      statusBar,
      h(
        'span',
        null,
        'Stream ',
        h('strong', { class: 'mono', title: status.streamId }, shorten(status.streamId ?? '', 8)),
      ),
      h(
        'span',
        null,
        'Watching ',
        h('strong', null, String(status.watched.length)),
        status.watched.length === 1 ? ' address' : ' addresses',
      ),
      status.allAddresses ? h('span', { class: 'badge info' }, 'every transaction') : null,
      status.tip === undefined ? null : h('span', null, 'Tip ', h('strong', null, `#${grouped(status.tip)}`)),
      h('span', null, status.simulator ? 'Simulated Bitcoin network (emulator)' : 'Bitcoin mainnet'),
    );
  }

  function renderRows() {
    // The latest change on top (a row moves up as its transaction moves forward); among rows
    // changed by the same delivery, those of watched addresses first.
    const watchedFirst = (/** @type {BoardRow} */ row) => (row.watchedAddresses.length > 0 ? 0 : 1);
    const ordered = [...rows.values()].sort(
      (a, b) =>
        b.updatedAt - a.updatedAt ||
        watchedFirst(a) - watchedFirst(b) ||
        b.firstSeenAt - a.firstSeenAt ||
        a.txid.localeCompare(b.txid),
    );
    for (const stale of ordered.splice(size)) rows.delete(stale.txid);
    empty.hidden = ordered.length > 0;
    tbody.replaceChildren(...ordered.map(renderRow));
    fresh.clear();
  }

  /** @param {BoardRow} row */
  function renderRow(row) {
    const reached = STAGES.findIndex(([stage]) => stage === row.stage);
    const pipeline = h(
      'span',
      { class: 'stages' },
      STAGES.flatMap(([stage, label], index) => {
        // A coinbase is made by its block: it never waits in the mempool.
        const skipped = row.coinbase && stage === 'mempool';
        const state = skipped ? 'skipped' : index < reached ? 'done' : index === reached ? 'now' : '';
        return [
          index > 0 ? h('span', { class: 'stage-arrow' }, '→') : null,
          h('span', { class: `stage ${state}`, 'data-stage': stage }, skipped ? 'no mempool' : label),
        ];
      }),
    );
    return h(
      'tr',
      {
        'data-txid': row.txid,
        'data-stage': row.stage,
        class:
          [row.watchedAddresses.length > 0 ? 'watched' : '', fresh.has(row.txid) ? 'fresh' : '']
            .join(' ')
            .trim() || undefined,
        title: row.watchedAddresses.length > 0 ? `Touches ${row.watchedAddresses.join(', ')}` : undefined,
      },
      h(
        'td',
        null,
        h('span', { class: 'mono', title: row.txid }, shorten(row.txid, 10)),
        row.coinbase
          ? h('span', { class: 'badge coinbase', title: 'One input and an OP_RETURN output' }, 'coinbase')
          : null,
      ),
      h('td', null, pipeline),
      h('td', { class: 'num' }, row.blockHeight === null ? '—' : `#${grouped(row.blockHeight)}`),
      h(
        'td',
        { class: 'num' },
        row.receivedSats === '0' ? '—' : amountCell(row.receivedBtc, row.receivedSats),
      ),
      h('td', { class: 'num' }, amountCell(row.valueBtc, row.valueSats)),
      h('td', { class: 'token-sub', title: new Date(row.updatedAt).toLocaleString() }, ago(row.updatedAt)),
    );
  }
}

/** @param {string} btc @param {string} sats */
function amountCell(btc, sats) {
  return h('span', null, `${btc} BTC`, h('span', { class: 'sats' }, `${grouped(sats)} sats`));
}
