// The Ed-Fi rules JSON Schema cannot state, as Ajv keywords that report contract §7.1 messages, plus the annotation
// keywords carrying precomputed messages for standard keywords (required, ranges, minItems).
import { _, type Ajv, type Code, type CodeKeywordDefinition, type JSONType, type KeywordCxt, type Name } from 'ajv';
import { messages } from './messages.js';
import { ordinal } from './member-names.js';

/** Annotation keywords: the message to report when the standard keyword next to them fails. */
export const annotations = {
  /** On a property schema: its message when the parent's `required` finds it missing. */
  missing: 'edfiMissing',
  range: 'edfiRange',
  minItems: 'edfiMinItems',
} as const;

/**
 * Every check on one string member, in one keyword so each string costs one guarded call. Lengths count UTF-16 code
 * units as .NET does (JSON Schema's maxLength counts code points).
 */
export interface TextRule {
  /** For required members: a blank value reports this message and nothing else. */
  requiredMessage?: string;
  length?: { min: number; max: number; message: string };
  /** For identity strings: no leading or trailing whitespace. */
  whitespaceMessage?: string;
  dangerousMessage: string;
  /** For descriptor URIs: the descriptor resource named in the shape message. */
  descriptor?: string;
}

/** The value equal to the CLR default counts as unset (`0` for identity integers, `0001-01-01` for dates). */
export interface NonDefaultRule {
  defaultValue: string | number;
  message: string;
}

/** A present reference must carry every field (`0` and `""` count as missing, as CLR defaults do in the ODS). */
export interface FullyDefinedReferenceRule {
  referenceName: string;
  fields: { name: string; memberName: string; isNumber: boolean }[];
}

/** Collection items must differ in their identity members; descriptor members compare case-insensitively. */
export interface UniqueItemIdentityRule {
  collectionName: string;
  identity: { steps: string[]; ignoreCase: boolean }[];
}

const DANGEROUS_TEXT = /<[A-Za-z!/?]|&#/;
const EDGE_WHITESPACE = /^\s|\s$/;
const NON_WHITESPACE = /\S/;

/** Generated code: true when a character code is outside printable ASCII (`!`..`~`), i.e. may be whitespace. */
function mayBeSpace(charCode: Code): Code {
  return _`(${charCode} - 33 >>> 0) >= 94`;
}

/** What a check reports: one message, several, or undefined when the value passes. */
export type CheckMessages = string | string[] | undefined;

interface CheckingKeyword<Rule, Value> {
  keyword: string;
  type: JSONType | JSONType[];
  /** Generated condition under which the value may fail; values outside it pass without a call. */
  mayFail?: (data: Name, rule: Rule) => Code;
  check: (rule: Rule, value: Value) => CheckMessages;
}

/**
 * A keyword whose generated code calls its shared check with the schema's rule (no per-value context object, unlike
 * Ajv's validate-function keywords) and fails with the message(s) the check returns, in `params.message`.
 */
function checkingKeyword<Rule, Value>(definition: CheckingKeyword<Rule, Value>): CodeKeywordDefinition {
  return {
    keyword: definition.keyword,
    type: definition.type,
    error: {
      message: ({ params }) => _`${params.message}`,
      params: ({ params }) => _`{message: ${params.message}}`,
    },
    code(cxt: KeywordCxt) {
      const { gen, data } = cxt;
      const rule = cxt.schema as Rule;
      const check = gen.scopeValue('func', { ref: definition.check });
      const ruleValue = gen.scopeValue('obj', { ref: rule });
      const call = _`${check}(${ruleValue}, ${data})`;
      const guard = definition.mayFail?.(data, rule);
      const message = gen.const('message', guard ? _`${guard} ? ${call} : undefined` : call);
      cxt.setParams({ message });
      cxt.fail(_`${message} !== undefined`);
    },
  };
}

function memberValue(item: unknown, steps: readonly string[]): unknown {
  let value = item;
  for (const step of steps) value = (value as Record<string, unknown> | undefined)?.[step];
  return value;
}

function sameMemberValue(a: unknown, b: unknown, ignoreCase: boolean): boolean {
  if (a === b) return true;
  return (
    ignoreCase &&
    typeof a === 'string' &&
    typeof b === 'string' &&
    a.length === b.length &&
    a.toLowerCase() === b.toLowerCase()
  );
}

function sameIdentity(a: unknown, b: unknown, identity: UniqueItemIdentityRule['identity']): boolean {
  for (const { steps, ignoreCase } of identity) {
    if (!sameMemberValue(memberValue(a, steps), memberValue(b, steps), ignoreCase)) return false;
  }
  return true;
}

function identityKey(item: unknown, identity: UniqueItemIdentityRule['identity']): string {
  let key = '';
  for (const { steps, ignoreCase } of identity) {
    const text = String(memberValue(item, steps));
    key += `${ignoreCase ? text.toLowerCase() : text}\u0000`;
  }
  return key;
}

/** Collections are mostly short: compare pairwise without allocating; hash identity keys for long ones. */
const PAIRWISE_LIMIT = 16;

function missingReferenceFields(rule: FullyDefinedReferenceRule, reference: Record<string, unknown>): string[] {
  const missing: string[] = [];
  for (const { name, memberName, isNumber } of rule.fields) {
    const field = reference[name];
    if (field === undefined || field === '' || (isNumber && field === 0)) missing.push(memberName);
  }
  return missing;
}

function firstDuplicate(rule: UniqueItemIdentityRule, items: unknown[]): number | undefined {
  if (items.length <= PAIRWISE_LIMIT) {
    for (let index = 1; index < items.length; index++) {
      for (let earlier = 0; earlier < index; earlier++) {
        if (sameIdentity(items[earlier], items[index], rule.identity)) return index;
      }
    }
    return undefined;
  }
  const seen = new Set<string>();
  for (let index = 0; index < items.length; index++) {
    const key = identityKey(items[index], rule.identity);
    if (seen.has(key)) return index;
    seen.add(key);
  }
  return undefined;
}

function textProblems(rule: TextRule, value: string): CheckMessages {
  if (rule.requiredMessage !== undefined && !NON_WHITESPACE.test(value)) return rule.requiredMessage;
  const problems: string[] = [];
  const { length } = rule;
  if (length && (value.length > length.max || value.length < length.min)) problems.push(length.message);
  if (rule.whitespaceMessage !== undefined && EDGE_WHITESPACE.test(value)) problems.push(rule.whitespaceMessage);
  if (DANGEROUS_TEXT.test(value)) problems.push(rule.dangerousMessage);
  if (rule.descriptor !== undefined && !value.includes('#') && NON_WHITESPACE.test(value)) {
    problems.push(messages.descriptorWithoutNamespace(rule.descriptor, value));
  }
  return problems.length > 0 ? problems : undefined;
}

/** Generated code: may `data` fail the text rule? Only the parts the rule has. */
function textMayFail(data: Name, rule: TextRule): Code {
  const firstMayBeSpace = mayBeSpace(_`${data}.charCodeAt(0)`);
  const lastMayBeSpace = mayBeSpace(_`${data}.charCodeAt(${data}.length - 1)`);
  const conditions: Code[] = [_`${data}.indexOf("<") !== -1 || ${data}.indexOf("&") !== -1`];
  if (rule.requiredMessage !== undefined) conditions.push(_`${data}.length === 0 || ${firstMayBeSpace}`);
  if (rule.length) conditions.push(_`${data}.length > ${rule.length.max} || ${data}.length < ${rule.length.min}`);
  if (rule.whitespaceMessage !== undefined)
    conditions.push(_`(${data}.length > 0 && (${firstMayBeSpace} || ${lastMayBeSpace}))`);
  if (rule.descriptor !== undefined) conditions.push(_`${data}.indexOf("#") === -1`);
  return conditions.reduce((either, condition) => _`${either} || (${condition})`, _`false`);
}

const edFiKeywords = [
  checkingKeyword({ keyword: 'text', type: 'string', mayFail: textMayFail, check: textProblems }),
  checkingKeyword({
    keyword: 'nonDefault',
    type: ['string', 'integer'],
    mayFail: (data, rule: NonDefaultRule) => _`${data} === ${rule.defaultValue}`,
    check: (rule: NonDefaultRule) => rule.message,
  }),
  checkingKeyword({
    keyword: 'fullyDefinedReference',
    type: 'object',
    check: (rule: FullyDefinedReferenceRule, reference: Record<string, unknown>) => {
      const missing = missingReferenceFields(rule, reference);
      return missing.length === 0 ? undefined : messages.referenceMissingProperties(rule.referenceName, missing);
    },
  }),
  checkingKeyword({
    keyword: 'uniqueItemIdentity',
    type: 'array',
    mayFail: (data) => _`${data}.length > 1`,
    check: (rule: UniqueItemIdentityRule, items: unknown[]) => {
      const duplicate = firstDuplicate(rule, items);
      return duplicate === undefined ? undefined : messages.duplicateItem(ordinal(duplicate + 1), rule.collectionName);
    },
  }),
];

export function addEdFiKeywords(ajv: Ajv): void {
  ajv.addVocabulary(Object.values(annotations));
  for (const definition of edFiKeywords) ajv.addKeyword(definition);
}
