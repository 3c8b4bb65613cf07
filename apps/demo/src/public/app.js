// The demo page: asks the server what it runs against, then sets up each panel.
import { getJson } from './lib/api.js';
import { h, show } from './lib/dom.js';
import { setUpBitcoin } from './panels/bitcoin.js';
import { setUpBlocks } from './panels/blocks.js';
import { setUpEntities } from './panels/entities.js';
import { setUpPrice } from './panels/price.js';
import { setUpSolana } from './panels/solana.js';

/** @typedef {import('../views.js').InfoView} InfoView */

/** @param {string} id */
const panel = (id) => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`missing #${id}`);
  return element;
};

async function start() {
  const mode = panel('mode');
  /** @type {InfoView} */
  let info;
  try {
    info = (await getJson('/api/info')).data;
  } catch (error) {
    show(
      mode,
      h('span', { class: 'mode-dot' }),
      h('span', null, error instanceof Error ? error.message : String(error)),
    );
    return;
  }
  mode.dataset.mode = info.mode;
  show(
    mode,
    h('span', { class: 'mode-dot' }),
    h('span', null, h('strong', null, info.backend.label), ` · ${info.backend.detail}`),
  );
  setUpPrice(panel('price'), info);
  setUpEntities(panel('entities'));
  setUpBitcoin(panel('bitcoin'), info.bitcoin);
  setUpSolana(panel('solana'), info);
  setUpBlocks(panel('blocks'), info);
  document.body.dataset.ready = 'true';
}

void start();
