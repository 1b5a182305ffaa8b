// A rule of the spec inventory (issue 27 item 1): one normative sentence of the public spec v1.3.0 as data,
// with what holds it. Either checks of the suite assert it (`checks`: ids of conformance/checks/**, judged by
// reading their code, not by the section they cite), or no black-box check can (`unheld.reason`: e-mail only,
// operator-side, a value the spec leaves open, ...), or a check could and none does yet (`gap`, with what that
// check would assert). A rule is exactly one of the three.

/** What a rule is about: a field or envelope, a state or transition, a number derived from others, a header,
 *  a duration, an error answer, or who may call what. */
export type RuleKind = 'shape' | 'state' | 'arithmetic' | 'header' | 'timing' | 'error' | 'security';

/** The contract versions whose suite registry holds a rule's checks (spec 9.1). */
export type RuleContract = 'v1.3.0' | 'v1.2.0' | 'v1.1.0';

interface RuleBase {
  /** Stable and readable: `<section>.<topic>.<what>`, e.g. `4.5.claim-create.only-eligible`. */
  id: string;
  /** The spec section, e.g. `4.5` or `3.4`. */
  section: string;
  /** The sentence, quoted or tightly paraphrased. */
  sentence: string;
  kind: RuleKind;
  /** The contract whose checks hold it; v1.3.0 unless said (signup, spec 4.7, is in v1.2.0 and v1.1.0 only). */
  contract?: RuleContract;
}

export interface HeldRule extends RuleBase {
  /** Ids of the checks that assert the sentence (each one read: it fails when the sentence is broken). */
  checks: string[];
  /** What the checks assert of it, when not all of the sentence or only in some profiles. */
  note?: string;
}

export interface UnheldRule extends RuleBase {
  /** Why no black-box check can hold it, specific to this sentence. */
  unheld: { reason: string };
}

export interface GapRule extends RuleBase {
  /** No check holds it today; a black-box check could. */
  gap: true;
  /** What such a check would assert. */
  would: string;
}

export type SpecRule = HeldRule | UnheldRule | GapRule;

export const isHeld = (rule: SpecRule): rule is HeldRule => 'checks' in rule;
export const isUnheld = (rule: SpecRule): rule is UnheldRule => 'unheld' in rule;
export const isGap = (rule: SpecRule): rule is GapRule => 'gap' in rule;

/** The contract whose registry holds a rule's checks. */
export const contractOf = (rule: SpecRule): RuleContract => rule.contract ?? 'v1.3.0';

/** Names a section's rules (typed, so each is one of the three kinds). */
export const defineRules = (rules: SpecRule[]): SpecRule[] => rules;
