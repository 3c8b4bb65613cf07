import {
  type IDataObject,
  type INodeExecutionData,
  type INodeType,
  type INodeTypeDescription,
  type IPollFunctions,
  NodeConnectionTypes,
} from 'n8n-workflow';
import { polishProperties } from '../shared/wording';
import { type Alert, evaluate, type TokenState } from './conditions';
import { type PolledPrice, pollPrices, priceKeyOf } from './prices';
import { priceTriggerProperties } from './properties';
import { type PriceSettings, readSettings, ruleKeyOf } from './settings';

/** Where the trigger keeps its state in the workflow's static data (`getWorkflowStaticData('node')`). */
interface StoredState {
  /** The settings the state belongs to (`ruleKeyOf`): other settings arm the trigger again. */
  rule: string;
  tokens: Record<string, TokenState>;
}

export class BlockwirePriceTrigger implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Blockwire Price Trigger',
    name: 'blockwirePriceTrigger',
    icon: { light: 'file:../../icons/blockwire.svg', dark: 'file:../../icons/blockwire.dark.svg' },
    group: ['trigger'],
    version: 1,
    subtitle: '={{ $parameter["blockchain"] === "solana" ? "Solana" : "EVM" }}',
    description: 'Starts the workflow when a token price crosses a level or moves by a percentage (polled)',
    defaults: { name: 'Blockwire Price Trigger' },
    polling: true,
    inputs: [],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: 'blockwireApi', required: true }],
    properties: polishProperties(priceTriggerProperties),
  };

  /**
   * One poll: the prices of every token, each judged against what the trigger kept from earlier
   * polls. The first poll of a token arms it without firing; an alert fires once per crossing or
   * move. A manual test returns what an alert of each token would hold now and changes no state.
   */
  async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
    const settings = readSettings.call(this);
    const prices = await pollPrices.call(this, settings);
    const now = Date.now();
    const staticData = this.getWorkflowStaticData('node');
    const rule = ruleKeyOf(settings);
    const stored = staticData.priceTrigger as StoredState | undefined;
    const previous = stored?.rule === rule ? stored.tokens : {};

    if (this.getMode() === 'manual') {
      return [prices.map((price) => ({ json: sampleOf(settings, price, previous[price.key], now) }))];
    }

    const tokens: Record<string, TokenState> = {};
    const alerts: INodeExecutionData[] = [];
    for (const price of prices) {
      const { state, alert } = evaluate(settings.rule, previous[price.key], price.price, now);
      tokens[price.key] = state;
      if (alert) alerts.push({ json: alertItem(settings, price, alert, now) });
    }
    // Tokens without a price this poll keep what they had; tokens no longer listed are dropped.
    const listed = settings.blockchain === 'evm' ? settings.tokens : settings.mints;
    for (const key of listed.map((token) => priceKeyOf(settings, token))) {
      const kept = previous[key];
      if (!(key in tokens) && kept) tokens[key] = kept;
    }
    // A new object, so n8n sees the static data changed; it saves it with each alert's execution
    // and on activation.
    staticData.priceTrigger = { rule, tokens } satisfies StoredState as unknown as IDataObject;
    return alerts.length > 0 ? [alerts] : null;
  }
}

function alertItem(settings: PriceSettings, price: PolledPrice, alert: Alert, now: number): IDataObject {
  const { condition, threshold, percent, windowMinutes } = settings.rule;
  const crossing = condition === 'crossesAbove' || condition === 'crossesBelow';
  return {
    token: price.token,
    ...(price.symbol !== undefined && { symbol: price.symbol }),
    chain: price.chain,
    ...(price.chainId !== undefined && { chainId: price.chainId }),
    ...(price.network !== undefined && { network: price.network }),
    price: price.price,
    previousPrice: alert.previousPrice,
    condition,
    threshold: crossing ? threshold : percent,
    ...(condition === 'movesOverWindow' && { windowMinutes }),
    direction: alert.direction,
    changePercent: alert.changePercent,
    time: new Date(now).toISOString(),
  };
}

/** A manual test's item: an alert as the current price would give it, measured from the last poll. */
function sampleOf(
  settings: PriceSettings,
  price: PolledPrice,
  state: TokenState | undefined,
  now: number,
): IDataObject {
  const from = state?.reference ?? state?.window?.[0]?.price ?? state?.price ?? price.price;
  const changePercent = from > 0 ? Number((((price.price - from) / from) * 100).toFixed(6)) : 0;
  return alertItem(
    settings,
    price,
    { previousPrice: from, direction: price.price >= from ? 'up' : 'down', changePercent },
    now,
  );
}
