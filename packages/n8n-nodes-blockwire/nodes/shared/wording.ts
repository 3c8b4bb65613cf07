import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

/**
 * n8n's wording rules (those its node linter checks), applied to a description once it is built,
 * since the texts come from the SDK and the linter never sees them: option lists sorted by name,
 * boolean parameters described "Whether …", no final period on a one-sentence description.
 * Defaults are left as they are: a saved workflow leaves out parameters at their default.
 */
export function polishProperties(properties: readonly INodeProperties[]): INodeProperties[] {
  return properties.map(polishProperty);
}

function polishProperty(property: INodeProperties): INodeProperties {
  const polished: INodeProperties = { ...property };
  if (property.description !== undefined) {
    polished.description = withoutFinalPeriod(
      property.type === 'boolean' ? asWhether(property.description) : property.description,
    );
  }
  if (property.options) {
    const options = property.options.map((option) =>
      'displayName' in option && 'type' in option
        ? polishProperty(option as INodeProperties)
        : polishChoice(option as INodePropertyOptions),
    );
    polished.options = sortedByName(options) as INodeProperties['options'];
  }
  return polished;
}

function polishChoice(option: INodePropertyOptions): INodePropertyOptions {
  return option.description === undefined
    ? option
    : { ...option, description: withoutFinalPeriod(option.description) };
}

type Choice = INodeProperties | INodePropertyOptions | INodePropertyCollection;

function sortedByName(options: Choice[]): Choice[] {
  const nameOf = (option: Choice) => String('displayName' in option ? option.displayName : option.name);
  return [...options].sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
}

/** "Include the inputs" → "Whether to include the inputs". */
function asWhether(description: string): string {
  if (description.startsWith('Whether') || description === '') return description;
  return `Whether to ${description[0]!.toLowerCase()}${description.slice(1)}`;
}

/** A one-sentence description ends without a period; longer ones keep theirs. */
export function withoutFinalPeriod(text: string): string {
  return text.endsWith('.') && !/[.!?]\s/.test(text) ? text.slice(0, -1) : text;
}

/** Names that keep their capital inside a sentence. */
const PROPER_NOUNS = new Set(['Bitcoin', 'Ethereum', 'Solana', 'Merkle']);

/** "Get Many Bitcoin Streams" → "Get many Bitcoin streams"; acronyms (EVM) stay. */
export function sentenceCase(title: string): string {
  return title
    .split(' ')
    .map((word, index) =>
      index > 0 && /^[A-Z][a-z]+$/.test(word) && !PROPER_NOUNS.has(word) ? word.toLowerCase() : word,
    )
    .join(' ');
}

/** Nouns that take no article: "Estimate gas", "Get fee history", "Get block webhook data". */
const UNCOUNTABLE = new Set(['data', 'gas', 'code', 'history', 'storage', 'settings', 'information']);
/** Words that end the noun an action acts on: "Get a block |by hash", "Get a max priority fee |per gas". */
const ENDS_NOUN = new Set(['by', 'per', 'at', 'of', 'for', 'in', 'on', 'to', 'from', 'and', 'with']);

/**
 * An operation's action text as n8n's own nodes word them (Airtable: "Get a record", "Search
 * records"; Mattermost: "Create a channel", "Get many users"): sentence case, with "a"/"an" before a
 * single countable thing, none before a plural, a mass noun or "many". `Get Entity` → "Get an
 * entity", `Search Entities` → "Search entities", `Get EVM Token Price` → "Get an EVM token price".
 */
export function actionText(displayName: string): string {
  const [verb, ...rest] = sentenceCase(displayName).split(' ');
  if (!verb || rest.length === 0) return sentenceCase(displayName);
  const end = rest.findIndex((word) => ENDS_NOUN.has(word.toLowerCase()) || word.startsWith('('));
  const noun = end === -1 ? rest : rest.slice(0, end);
  const head = noun[noun.length - 1]?.toLowerCase() ?? '';
  const first = noun[0] ?? '';
  const takesNoArticle =
    noun.length === 0 ||
    ['a', 'an', 'the', 'many', 'all'].includes(first.toLowerCase()) ||
    UNCOUNTABLE.has(head) ||
    (head.endsWith('s') && !/(ss|us)$/.test(head));
  if (takesNoArticle) return [verb, ...rest].join(' ');
  return [verb, articleFor(first), ...rest].join(' ');
}

/** "an" before a vowel sound: an entity, an xpub, an EVM (e-vee-em); a Bitcoin, a USD (you-…). */
function articleFor(word: string): string {
  const acronym = /^[A-Z]{2,}/.test(word);
  const vowelSound = acronym ? /^[AEFHILMNORSX]/.test(word) : /^[aeiouxAEIOUX]/.test(word);
  return vowelSound ? 'an' : 'a';
}
