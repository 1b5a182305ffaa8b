// The sandbox classifier (spec 4.6 advanced trade path; sandbox-defined): a deterministic function from a
// product's words to an HS subheading, over the keyword and attribute rules of fixtures/classification/.
//
//   1. words: the product name, the description and the attribute values, lower-cased, plurals folded;
//      a composition such as "60% cotton 40% polyester" keeps only its predominant material (the HS rule for
//      textile mixtures: classified by the material predominating by weight), so the others decide nothing;
//   2. headings: every heading with a keyword present, its `requires` groups met and no `excludes` word;
//      its score H is the sum of the weights of the keywords present;
//   3. subheadings: within a heading, B = 6·f² − 4·[a `none` word is present], f the share of its `all`
//      groups that have a word present (1 without groups);
//   4. confidence = P(heading) × P(subheading | heading): P(heading) = e^H / (Σ e^H' + e^U) with U = 3 the
//      weight of "something the nomenclature does not hold", P(subheading | heading) = e^B / Σ e^B' within it;
//      rounded to two decimals.
// Below CLASSIFICATION_REVIEW_THRESHOLD the result needs a human (a classification review). Same input,
// same answer: no randomness, no clock.
import { HS_HEADING_RULES, type HeadingRule, type SubheadingRule } from '#fixtures/classification/hs-rules.js';

import { round2 } from '../../kernel/numbers.js';

/** Below this confidence a classification opens a review (and cannot be applied until decided). */
export const CLASSIFICATION_REVIEW_THRESHOLD = 0.8;

/** How many runner-up candidates a result lists, and the least confidence one must have to be listed. */
export const MAX_ALTERNATIVES = 4;
const MIN_ALTERNATIVE_CONFIDENCE = 0.01;

/** The score of "none of these headings": a single weak keyword does not make a confident heading. */
const UNKNOWN_HEADING_SCORE = 3;
const FULL_FIT_BONUS = 6;
const RULED_DOWN_PENALTY = 4;

export interface ClassifyInput {
  sku?: string;
  productName: string;
  /** Attribute values count as words of the product (material, frame, composition...). */
  attributes?: Record<string, string>;
  /** Recorded for the caller; an HS code does not depend on the origin. */
  originCountry?: string | null;
}

interface ClassifyCandidate {
  hsCode: string;
  confidence: number;
  description: string;
}

export interface ClassifyResult {
  /** The best subheading (NNNN.NN), or null when no rule matched. */
  hsCode: string | null;
  confidence: number;
  /** The runner-up subheadings, best first (the chosen one excluded). */
  alternatives: ClassifyCandidate[];
  /** Which words chose the heading and the subheading, in plain words. */
  rationale: string;
}

// ---------------------------------------------------------------------------------------------------------
// Words.

const SYNONYMS: Array<[RegExp, string]> = [
  [/\bt[\s-]?shirts?\b/g, ' tshirt '],
  [/\btee[\s-]shirts?\b/g, ' tshirt '],
  [/\btees?\b/g, ' tshirt '],
];

/** One word folded: lower-case, a plural "s" dropped (not from "ss" or short words). */
const fold = (word: string) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') ? word.slice(0, -1) : word);

/** Lower-case word sequence of a text, with the synonyms applied and plurals folded. */
export function words(text: string): string[] {
  let t = text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  for (const [pattern, replacement] of SYNONYMS) t = t.replace(pattern, replacement);
  return t
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter(Boolean)
    .map(fold);
}

/** Whether the phrase's words occur contiguously in `tokens`. */
function hasPhrase(tokens: readonly string[], phrase: readonly string[]): boolean {
  if (!phrase.length) return false;
  outer: for (let i = 0; i + phrase.length <= tokens.length; i++) {
    for (let j = 0; j < phrase.length; j++) if (tokens[i + j] !== phrase[j]) continue outer;
    return true;
  }
  return false;
}

const phraseCache = new Map<string, string[]>();
const phraseOf = (term: string) => {
  let phrase = phraseCache.get(term);
  if (!phrase) phraseCache.set(term, (phrase = words(term)));
  return phrase;
};

/** A composition ("60% cotton, 40% polyester"): the materials and their shares, in text order. */
export function composition(text: string): Array<{ share: number; material: string }> {
  const found: Array<{ share: number; material: string }> = [];
  for (const match of text.toLowerCase().matchAll(/(\d{1,3}(?:[.,]\d+)?)\s*%\s*([a-z][a-z-]*(?:\s+[a-z][a-z-]*)?)/g)) {
    found.push({ share: Number(match[1].replace(',', '.')), material: match[2] });
  }
  return found;
}

/** What the rules read: the product's words, and where each word came from (for the rationale). */
interface Evidence {
  tokens: string[];
  /** Word -> the attribute it came from, for words only an attribute gave. */
  fromAttribute: Map<string, string>;
  /** The predominant material of a composition of two or more, when there is one. */
  predominant: { material: string; share: number } | null;
}

function gather(input: ClassifyInput): Evidence {
  const text = [input.productName, ...Object.values(input.attributes ?? {})].join(' \n ');
  const textTokens = words(input.productName);
  const fromAttribute = new Map<string, string>();
  const attributeTokens: string[] = [];
  for (const [name, value] of Object.entries(input.attributes ?? {})) {
    const tokens = words(value);
    attributeTokens.push('|', ...tokens);
    for (const token of tokens) if (!textTokens.includes(token) && !fromAttribute.has(token)) fromAttribute.set(token, name);
  }
  let tokens = [...textTokens, ...attributeTokens];
  // The HS reads a textile mixture as its predominant material (Section XI, subheading note 2): the other
  // materials of the composition must not decide the subheading.
  const parts = composition(text);
  let predominant: Evidence['predominant'] = null;
  if (parts.length >= 2) {
    const top = [...parts].sort((a, b) => b.share - a.share)[0];
    if (parts.filter((p) => p.share === top.share).length === 1) {
      predominant = top;
      const minor = new Set(parts.filter((p) => p !== top).flatMap((p) => words(p.material)));
      const major = new Set(words(top.material));
      tokens = tokens.map((t) => (minor.has(t) && !major.has(t) ? '~' : t));
    }
  }
  return { tokens, fromAttribute, predominant };
}

// ---------------------------------------------------------------------------------------------------------
// Rules.

const present = (evidence: Evidence, terms: readonly string[]) => terms.filter((term) => hasPhrase(evidence.tokens, phraseOf(term)));

interface HeadingMatch {
  rule: HeadingRule;
  score: number;
  keywords: string[];
}

function matchHeading(rule: HeadingRule, evidence: Evidence): HeadingMatch | null {
  const keywords = present(evidence, Object.keys(rule.keywords));
  if (!keywords.length) return null;
  if (present(evidence, rule.excludes ?? []).length) return null;
  if ((rule.requires ?? []).some((group) => present(evidence, group).length === 0)) return null;
  return { rule, score: keywords.reduce((sum, k) => sum + rule.keywords[k], 0), keywords };
}

interface SubheadingMatch {
  rule: SubheadingRule;
  bonus: number;
  /** Words present per `all` group (empty arrays for groups without one). */
  matched: string[][];
  ruledDownBy: string[];
}

function matchSubheading(rule: SubheadingRule, evidence: Evidence): SubheadingMatch {
  const matched = rule.all.map((group) => present(evidence, group));
  const share = rule.all.length ? matched.filter((m) => m.length).length / rule.all.length : 1;
  const ruledDownBy = present(evidence, rule.none ?? []);
  return { rule, matched, ruledDownBy, bonus: FULL_FIT_BONUS * share * share - (ruledDownBy.length ? RULED_DOWN_PENALTY : 0) };
}


interface Ranked {
  heading: HeadingMatch;
  sub: SubheadingMatch;
  probability: number;
  /** Groups matched: breaks ties between equally likely subheadings (more said for it first). */
  groupsMatched: number;
  order: number;
}

function quoteWords(terms: string[], evidence: Evidence): string {
  return terms
    .map((term) => {
      const attribute = phraseOf(term).map((w) => evidence.fromAttribute.get(w)).find(Boolean);
      return attribute ? `"${term}" (attribute ${attribute})` : `"${term}"`;
    })
    .join(', ');
}

function rationaleOf(best: Ranked, evidence: Evidence, confidence: number): string {
  const { heading, sub } = best;
  const parts = [`heading ${heading.rule.heading} (${heading.rule.description}) from ${quoteWords(heading.keywords, evidence)}`];
  const said = sub.matched.flat();
  if (sub.rule.all.length === 0) parts.push(`subheading ${sub.rule.hsCode}, the only one the rules hold under the heading`);
  else if (said.length) {
    const missing = sub.matched.filter((m) => !m.length).length;
    parts.push(`subheading ${sub.rule.hsCode} (${sub.rule.description}) from ${quoteWords(said, evidence)}${missing ? `; ${missing} of its ${sub.rule.all.length} deciding facts not stated` : ''}`);
  } else parts.push(`subheading ${sub.rule.hsCode} (${sub.rule.description}) by default: nothing stated tells the subheadings apart`);
  if (sub.ruledDownBy.length) parts.push(`though ${quoteWords(sub.ruledDownBy, evidence)} points elsewhere`);
  if (evidence.predominant) parts.push(`composition read as its predominant material, ${evidence.predominant.material} ${evidence.predominant.share}%`);
  parts.push(
    confidence < CLASSIFICATION_REVIEW_THRESHOLD
      ? `confidence ${confidence} is below the review threshold ${CLASSIFICATION_REVIEW_THRESHOLD}: a reviewer should confirm it`
      : `confidence ${confidence} (review threshold ${CLASSIFICATION_REVIEW_THRESHOLD})`,
  );
  return `${parts.join('; ')}.`;
}

/**
 * Classifies a product description (and its attributes) into an HS 2022 subheading of the sandbox
 * nomenclature. Pure and deterministic. The trade feed's classify-preview calls it as `classifyProductText`.
 */
export function classifyProductText(input: ClassifyInput, rules: readonly HeadingRule[] = HS_HEADING_RULES): ClassifyResult {
  const evidence = gather(input);
  const headings = rules.map((rule) => matchHeading(rule, evidence)).filter((m): m is HeadingMatch => m !== null);
  if (!headings.length) {
    const shown = words(input.productName).slice(0, 12).join(' ');
    return {
      hsCode: null,
      confidence: 0,
      alternatives: [],
      rationale: `no heading of the sandbox nomenclature (${rules.map((r) => r.heading).join(', ')}) has a keyword in "${shown}"${input.attributes && Object.keys(input.attributes).length ? ' or its attributes' : ''}: a reviewer must classify it.`,
    };
  }
  const headingMass = headings.reduce((sum, h) => sum + Math.exp(h.score), Math.exp(UNKNOWN_HEADING_SCORE));
  const ranked: Ranked[] = [];
  let order = 0;
  for (const heading of headings) {
    const subs = heading.rule.subheadings.map((rule) => matchSubheading(rule, evidence));
    const subMass = subs.reduce((sum, s) => sum + Math.exp(s.bonus), 0);
    for (const sub of subs) {
      ranked.push({
        heading,
        sub,
        probability: (Math.exp(heading.score) / headingMass) * (Math.exp(sub.bonus) / subMass),
        groupsMatched: sub.matched.filter((m) => m.length).length,
        order: order++,
      });
    }
  }
  ranked.sort((a, b) => b.probability - a.probability || b.groupsMatched - a.groupsMatched || a.order - b.order);
  const [best, ...rest] = ranked;
  const confidence = round2(best.probability);
  const alternatives = rest
    .map((r) => ({ hsCode: r.sub.rule.hsCode, confidence: round2(r.probability), description: r.sub.rule.description }))
    .filter((c) => c.confidence >= MIN_ALTERNATIVE_CONFIDENCE)
    .slice(0, MAX_ALTERNATIVES);
  return { hsCode: best.sub.rule.hsCode, confidence, alternatives, rationale: rationaleOf(best, evidence, confidence) };
}

/** The description the nomenclature gives a six-digit subheading, when the rules hold it. */
export function subheadingDescription(hsCode: string, rules: readonly HeadingRule[] = HS_HEADING_RULES): string | undefined {
  const six = hsCode.replace(/\D/g, '').slice(0, 6);
  for (const heading of rules) for (const s of heading.subheadings) if (s.hsCode.replace('.', '') === six) return s.description;
  return undefined;
}
